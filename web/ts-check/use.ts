// Typical use of the package, type-checked by `npm run check` (web/test.sh); the
// lines marked as expected errors must fail, so the shapes are not too loose either.
import { Simulation, validate, generate, Scenario, SimResult, Problem, SimEvent, Snapshot } from "quotasim";
import { eta, etaJson, EtaOptions, EtaReport } from "quotasim";
import { sweep, sweepJsonl, SweepFile, SweepOptions, SweepRow, importTrace, TraceImport } from "quotasim";
import { recommend, recommendJson, Objectives, RecommendOptions, RecommendReport, SpaceFile } from "quotasim";

const s: Scenario = {
  serviceEnvironment: { capacityLimits: [{ capacityUnit: "ml.g5.xlarge", maxCapacity: 2 }] },
  quotaShares: [{ quotaShareName: "a", capacityLimits: [{ capacityUnit: "ml.g5.xlarge", maxCapacity: 1 }],
    resourceSharingConfiguration: { strategy: "LEND_AND_BORROW", borrowLimit: null }, quotaShareArn: "arn:x" }],
  jobs: [{ jobName: "j", quotaShareName: "a", durationSeconds: 60,
    serviceRequestPayload: { ResourceConfig: { InstanceType: "ml.g5.xlarge", InstanceCount: 1, VolumeSizeInGB: 5 }, RoleArn: "r" } }],
  actions: [{ at: 5, updateServiceJob: { jobName: "j", schedulingPriority: 3 } }],
  settings: { horizonSeconds: null, victimOrder: "leastLostWork" },
};
const problems: Problem[] = validate(s);
const sim = new Simulation(s);
const t: number | undefined = sim.step();
sim.runUntil(10);
const r: SimResult = sim.result();
const e: SimEvent[] = sim.events(0);
const snap: Snapshot = sim.snapshot();
const reason: string | undefined = r.events[0]?.reason;
const share = r.summary.perQuotaShare["a"].utilization;
const g: Scenario = generate();
generate({ jobs: 5, instanceTypes: 2 });
sim.free();
const etaOptions: EtaOptions = {
  jobs: ["j"], replicates: 10, seed: 1, horizon: 3600, durations: "exact", arrivals: "none",
  submit: { jobName: "k", quotaShareName: "a", durationSeconds: 5 }, set: ["jobs[*].timeoutSeconds=60"],
  signal: { aborted: false }, onProgress: (done: number, total: number) => void (done / total),
};
const pending: Promise<EtaReport> = eta(s, etaOptions);
const etaText: string = etaJson(JSON.stringify(s));
const firstBand = pending.then((report) => {
  const job = report.jobs[0];
  const p50: number | null = job.start.p50;
  const position: [number, number] | null = job.position;
  return [p50, position, job.wouldPreempt?.[0]?.probability, report.drawsBySource["history"]];
});
// @ts-expect-error: durations are history, workload, timeout or exact
etaJson(s, { durations: "kaplan-meier" });
etaJson(s, { durations: "workload", arrivals: "workload" });
// @ts-expect-error: an unknown option
etaJson(s, { replicate: 5 });
const sweepFile: SweepFile = { base: s, axes: [{ path: "settings.preemptionGraceSeconds", values: [60, 120] }],
  frontier: ["overall.utilization:max"] };
const sweepOptions: SweepOptions = {
  signal: { aborted: false },
  onRow: (row: SweepRow, line: string) => void [row.row, row.rows, row.summary?.endedAt, line.length],
};
const rows: Promise<SweepRow[]> = sweep(sweepFile, sweepOptions);
const sweepText: string = sweepJsonl(JSON.stringify(sweepFile));
const front = rows.then((all) => all.filter((r) => r.frontier === true).map((r) => r.values));
// @ts-expect-error: sweep is asynchronous now; its rows come in a Promise
const notYet: SweepRow[] = sweep(sweepFile);
// @ts-expect-error: an unknown option
sweepJsonl(sweepFile, { onProgress: () => {} });
const imported: TraceImport = importTrace([{ name: "log.csv", text: "submit,gpus,duration\n0,8,60\n" }], {
  format: "csv", columns: { submit: "submit", gpus: "gpus", duration: "duration" }, gpusPerInstance: 8,
  teams: { a: "team-a" }, priorities: "high=10", capacity: { name: "cap.csv", text: "team,gpus\na,8\n" },
});
const importedShares: string[] = imported.scenario.quotaShares?.map((q) => q.quotaShareName) ?? [];
// @ts-expect-error: the format is openb or csv
importTrace([], { format: "helios" });
// @ts-expect-error: the format is required
importTrace([], { columns: "submit=t" });
const objectives: Objectives = { objectives: [{ metric: "perQuotaShare.a.waitSeconds.p95", max: 600 }] };
const space: SpaceFile = { axes: [{ path: "settings.preemptionGraceSeconds", values: [60, 120] }],
  fixed: ["quotaShares[a].resourceSharingConfiguration"] };
const recOptions: RecommendOptions = { minimize: "overall.lostGpuHours", space, replicates: 1, confidence: 1,
  maxRuns: 100, signal: { aborted: false }, onProgress: (runs: number, max: number) => void (runs / max) };
const answer: Promise<RecommendReport> = recommend(s, objectives, recOptions);
const recText: string = recommendJson(JSON.stringify(s), JSON.stringify(objectives));
const certificate = answer.then((r) => r.certificate.map((c) => [c.step, c.breaks[0]?.value, c.retries.length]));
const saved = answer.then((r) => [r.feasible, r.recommended.words, r.saves, r.idleQuota[0]?.recommended]);
// @ts-expect-error: an unknown option
recommendJson(s, objectives, { max_runs: 5 });
// @ts-expect-error: objectives are required
recommendJson(s);
// @ts-expect-error: a typo is caught
const bad: Scenario = { serviceEnvironment: { capacityLimits: [] }, jobz: [] };
// @ts-expect-error: wrong enum spelling
const bad2: Scenario = { serviceEnvironment: { capacityLimits: [] }, quotaShares: [{ quotaShareName: "a", capacityLimits: [], resourceSharingConfiguration: { strategy: "LendAndBorrow" } }] };
export const used = [problems, t, e, snap, reason, share, g, bad, bad2, etaText, firstBand, sweepText, front, notYet, importedShares, recText, certificate, saved];
