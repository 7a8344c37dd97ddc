#!/usr/bin/env bash
# Derives openb-3days.json from the Alibaba GPU cluster trace v2023 ("openb") with the same
# importer as `quotasim import trace --format openb` (README, "Import a job trace"):
# - pods created on trace days 116 to 118 (a busy three-day window) that ask for whole GPUs;
#   pods that never started are skipped (they have no run time), as are pods asking for no GPU;
# - the trace has no teams, so the quota shares are a synthetic reading of `qos`: LS ->
#   latency-sensitive (LEND, priority 100), BE -> best-effort (LEND_AND_BORROW, unlimited,
#   priority 0), Burstable and Guaranteed -> guaranteed (LEND_AND_BORROW, borrow limit 100 %,
#   priority 200, in-share preemption);
# - one GPU is one ml.g5.xlarge; quotas 4, 4 and 8 instances (openb-capacity.csv);
# - run time = deletion - scheduling time, clamped to 60 s .. 2 days; pods still running at the
#   end of the trace keep their run time so far; every job checkpoints every 1800 s.
# Usage, from the repository root, with the CLI built:
#   www/presets/derive-openb.sh > www/presets/openb-3days.json
set -euo pipefail
cd "$(dirname "$0")/../.."
q="${QUOTASIM_BIN:-target/release/quotasim}"
trace=../shared/traces/alibaba-gpu-v2023-openb/openb_pod_list_default.csv
day=86400
"$q" import trace --format openb "$trace" \
  --columns priority=qos --gpus-per-instance 1 --min-gpus 1 \
  --from $((116 * day)) --to $((119 * day)) --min-duration 60 --max-duration $((2 * day)) \
  --checkpoint-interval 1800 --capacity www/presets/openb-capacity.csv \
  --teams LS=latency-sensitive,BE=best-effort,Burstable=guaranteed,Guaranteed=guaranteed \
  --priorities LS=100,BE=0,Burstable=200,Guaranteed=200 2>/dev/null |
  "$q" run - --print-scenario \
    --set 'name="Alibaba openb trace: three busy days"' \
    --set 'description="Real pod arrivals and durations from the Alibaba GPU cluster trace v2023 (openb, days 116-118, whole-GPU pods that ran); shares are a synthetic reading of the pods'"'"' QoS class. Research/study use with attribution: Weng et al., USENIX ATC 2023."' \
    --set 'serviceEnvironment.serviceEnvironmentName="openb-se"' \
    --set 'quotaShares[latency-sensitive].resourceSharingConfiguration={"strategy":"LEND"}' \
    --set 'quotaShares[guaranteed].resourceSharingConfiguration.borrowLimit=100' \
    --set 'quotaShares[guaranteed].preemptionConfiguration.inSharePreemption="ENABLED"'
