#!/usr/bin/env bash
# The forecast backtest on histories the engine makes itself (README, "How good is a forecast?"):
# for each workload, generate 2,000 jobs with timeouts of twice each duration, run them, export
# the run as EventBridge events without what AWS would not send (`lostWorkSeconds`), and replay
# it with `quotasim eta --backtest`. There the only uncertainty is the durations and arrivals.
#   scripts/eta-backtest.sh [REPLICATES]     (default 100; measures, never fails)
#   WORKLOADS="seed shares load;..." scripts/eta-backtest.sh   (other workloads than the README's)
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"
replicates="${1:-100}"
cargo build --release -q -p quotasim-cli
q="$CARGO_TARGET_DIR/release/quotasim"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# seed, shares, load percent: the README's seven workloads (the first three are where the
# forecast beats both baselines; the last four have waits of hours, decided by later arrivals)
IFS=";" read -r -a workloads <<<"${WORKLOADS:-3 6 60;5 4 55;11 6 50;7 5 65;9 4 60;13 5 55;2 4 45}"
for w in "${workloads[@]}"; do
  set -- $w
  "$q" generate --jobs 2000 --shares "$2" --seed "$1" --load-percent "$3" |
    node -e '
      let t = ""; process.stdin.on("data", d => t += d).on("end", () => {
        const s = JSON.parse(t);
        for (const j of s.jobs) j.timeoutSeconds = 2 * j.durationSeconds;
        process.stdout.write(JSON.stringify(s));
      });' >"$work/w.json"
  "$q" run "$work/w.json" --events-format eventbridge |
    node -e '
      const rl = require("readline").createInterface({ input: process.stdin });
      rl.on("line", l => { const e = JSON.parse(l); if (e.detail) delete e.detail.lostWorkSeconds; console.log(JSON.stringify(e)); });' \
      >"$work/history.jsonl"
  echo "== workload: quotasim generate --jobs 2000 --shares $2 --seed $1 --load-percent $3, timeouts 2x"
  /usr/bin/time -f "backtest: %e s, %M KB peak" "$q" eta --backtest "$work/history.jsonl" --replicates "$replicates"
done
