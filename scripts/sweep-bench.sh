#!/usr/bin/env bash
# Sweep throughput: 64 variants (8 borrow limits x 8 grace periods) of the benchmark workload
# at 10,000 and 100,000 jobs, on one thread and on every core, the best of RUNS runs each
# (default 3). A measurement, not a test.
#   scripts/sweep-bench.sh [QUOTASIM_BINARY]   (default: the release build)
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-${CARGO_TARGET_DIR:-target}/release/quotasim}"
runs="${RUNS:-3}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
cores="$(nproc)"
for jobs in 10000 100000; do
  "$bin" generate --jobs "$jobs" --shares 20 --instance-types 5 --seed 42 >"$dir/base.json"
  cat >"$dir/sweep.json" <<JSON
{ "formatVersion": 1, "base": "base.json",
  "axes": [
    { "path": "quotaShares[team-00].resourceSharingConfiguration.borrowLimit", "values": [-1, 0, 25, 50, 100, 150, 200, 400] },
    { "path": "settings.preemptionGraceSeconds", "range": { "from": 0, "to": 840, "step": 120 } } ] }
JSON
  declare -A best=()
  for threads in 1 "$cores"; do
    best[$threads]=""
    for _ in $(seq "$runs"); do
      start=$(date +%s.%N)
      "$bin" sweep "$dir/sweep.json" --threads "$threads" >"$dir/out-$threads.jsonl"
      end=$(date +%s.%N)
      secs=$(echo "$end - $start" | bc -l)
      if [ -z "${best[$threads]}" ] || [ "$(echo "$secs < ${best[$threads]}" | bc -l)" = 1 ]; then
        best[$threads]=$secs
      fi
    done
    printf '%7s jobs, %s thread(s): 64 rows in %.2f s, %.1f rows/s\n' "$jobs" "$threads" \
      "${best[$threads]}" "$(echo "64 / ${best[$threads]}" | bc -l)"
  done
  printf '%7s jobs: %.2fx on %s threads\n' "$jobs" "$(echo "${best[1]} / ${best[$cores]}" | bc -l)" "$cores"
  cmp -s "$dir/out-1.jsonl" "$dir/out-$cores.jsonl" && echo "        same bytes on 1 and $cores threads"
  unset best
done
