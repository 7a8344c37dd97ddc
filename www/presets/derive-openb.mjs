// Derives presets/openb-3days.json from the Alibaba GPU cluster trace v2023 ("openb"),
// file openb_pod_list_default.csv (see /work/shared/traces/alibaba-gpu-v2023-openb/README.md).
//
// Mapping (the trace has no teams, so the quota shares are a synthetic reading of `qos`):
// - pods created on trace days 116 to 118 (a busy three-day window), that request whole GPUs
//   (num_gpu >= 1 and gpu_milli == 1000);
// - qos LS -> share "latency-sensitive" (LEND, priority 100), BE -> "best-effort"
//   (LEND_AND_BORROW, unlimited, priority 0), Burstable and Guaranteed -> "guaranteed"
//   (LEND_AND_BORROW, borrow limit 100 %, priority 200);
// - capacity: 16 instances; quotas 4 (latency-sensitive), 4 (best-effort), 8 (guaranteed);
// - one GPU -> one ml.g5.xlarge (1 GPU): instanceCount = num_gpu;
// - submitAt = creation_time - start of day 116; durationSeconds = deletion_time -
//   scheduled_time (creation_time when the pod never ran), clamped to 60 s .. 2 days;
// - every job checkpoints every 1800 s (the trace says nothing about checkpoints).
// Usage: node derive-openb.mjs /path/to/openb_pod_list_default.csv > openb-3days.json
import { readFileSync } from "node:fs";

const path = process.argv[2];
const rows = readFileSync(path, "utf8").trim().split("\n").slice(1).map((l) => l.split(","));
const day = 86400, from = 116 * day, to = 119 * day;
const share = { LS: "latency-sensitive", BE: "best-effort", Burstable: "guaranteed", Guaranteed: "guaranteed" };
const prio = { LS: 100, BE: 0, Burstable: 200, Guaranteed: 200 };
const jobs = [];
for (const r of rows) {
  const [name, , , numGpu, gpuMilli, , qos, , created, deleted, scheduled] = r;
  const c = Number(created);
  if (!(Number(numGpu) >= 1 && Number(gpuMilli) === 1000 && c >= from && c < to)) continue;
  const start = scheduled === "" ? c : Number(scheduled);
  const duration = Math.min(Math.max(Number(deleted) - start, 60), 2 * day);
  jobs.push({
    jobName: name,
    quotaShareName: share[qos],
    schedulingPriority: prio[qos],
    instanceType: "ml.g5.xlarge",
    instanceCount: Number(numGpu),
    submitAt: c - from,
    durationSeconds: duration,
    checkpointIntervalSeconds: 1800,
  });
}
const limit = (n) => [{ capacityUnit: "ml.g5.xlarge", maxCapacity: n }];
const scenario = {
  formatVersion: 1,
  name: "Alibaba openb trace: three busy days",
  description:
    "Real pod arrivals and durations from the Alibaba GPU cluster trace v2023 (openb, days 116-118, whole-GPU pods); shares are a synthetic reading of the pods' QoS class. Research/study use with attribution: Weng et al., USENIX ATC 2023.",
  settings: { preemptionGraceSeconds: 120 },
  instanceTypes: [{ name: "ml.g5.xlarge", gpus: 1 }],
  serviceEnvironment: { serviceEnvironmentName: "openb-se", capacityLimits: limit(16) },
  quotaShares: [
    { quotaShareName: "latency-sensitive", capacityLimits: limit(4),
      resourceSharingConfiguration: { strategy: "LEND" },
      preemptionConfiguration: { inSharePreemption: "DISABLED" } },
    { quotaShareName: "best-effort", capacityLimits: limit(4),
      resourceSharingConfiguration: { strategy: "LEND_AND_BORROW", borrowLimit: -1 },
      preemptionConfiguration: { inSharePreemption: "DISABLED" } },
    { quotaShareName: "guaranteed", capacityLimits: limit(8),
      resourceSharingConfiguration: { strategy: "LEND_AND_BORROW", borrowLimit: 100 },
      preemptionConfiguration: { inSharePreemption: "ENABLED" } },
  ],
  jobs,
};
process.stdout.write(JSON.stringify(scenario) + "\n");
