#!/usr/bin/env bash
# Recommender speed: runs and wall time of `quotasim recommend` on
#   - a generated 5-share, 2-type scenario (2,000 jobs, one seed), and
#   - a generated 20-share, 2-type, 100,000-job workload (about seven weeks at 95 % load)
#     with 5 replicates,
# on every core. A measurement, not a test; the figures go in the README.
#   scripts/recommend-bench.sh [QUOTASIM_BINARY]   (default: the release build)
#   MONTH=0 skips the large case.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-${CARGO_TARGET_DIR:-target}/release/quotasim}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT

measure() { # name scenario objectives extra-args...
  local name="$1" scenario="$2" objectives="$3"
  shift 3
  local start end
  start=$(date +%s.%N)
  "$bin" recommend "$scenario" --objectives "$objectives" --format json "$@" >"$dir/$name.json" || [ $? = 3 ]
  end=$(date +%s.%N)
  python3 - "$dir/$name.json" "$name" "$(echo "$end - $start" | bc -l)" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
seeds = max(1, len(r["seeds"]))
print(f'{sys.argv[2]}: {r["runs"]} runs ({r["runs"] / seeds:.0f} per seed) in {float(sys.argv[3]):.1f} s; '
      f'feasible {r["feasible"]}, proven {r["proven"]}; cost {r["input"]["cost"]} -> {r["recommended"]["cost"]} {r["costUnit"]}')
PY
}

"$bin" generate --jobs 2000 --shares 5 --instance-types 2 --seed 3 --load-percent 60 --workload >"$dir/five.json"
echo '{"formatVersion":1,"objectives":[{"metric":"perQuotaShare.*.waitSeconds.p95","max":60000}]}' >"$dir/five-obj.json"
measure "5 shares, 2 types, 2,000 jobs" "$dir/five.json" "$dir/five-obj.json"

if [ "${MONTH:-1}" != 0 ]; then
  "$bin" generate --jobs 100000 --shares 20 --instance-types 2 --seed 7 --workload >"$dir/month.json"
  echo '{"formatVersion":1,"objectives":[{"metric":"perQuotaShare.*.waitSeconds.p95","max":4000000}]}' >"$dir/month-obj.json"
  measure "20 shares, 2 types, 100,000 jobs, 5 replicates" "$dir/month.json" "$dir/month-obj.json" \
    --replicates 5 --max-runs 100000
fi
