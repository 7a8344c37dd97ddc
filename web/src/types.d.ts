// The scenario and result shapes of Quotasim, generated from the engine's Rust types by
// web/tests/typescript.rs. Do not edit: after changing those types run
// `QUOTASIM_UPDATE_TYPES=1 cargo test -p quotasim-wasm --test typescript`.
// Times are whole seconds of simulated time from 0; capacities are counted in instances.

/** One whole simulation (format spec, "Scenario"). */
export interface Scenario {
  /** `formatVersion`: must be 1 (the default). */
  formatVersion?: number;
  /** `name`: a name for the scenario, free text. */
  name?: string | null;
  /** `description`: free text. */
  description?: string | null;
  /** `settings`: the simulation's settings, all optional. */
  settings?: Settings;
  /** `instanceTypes`: GPU counts and prices of instance types (R1, R26); optional. */
  instanceTypes?: Array<InstanceTypeInfo>;
  /** `serviceEnvironment`: R1, the capacity limits. */
  serviceEnvironment: ServiceEnvironment;
  /** `schedulingPolicy`: the AWS shape, accepted when its strategy is `FIFO`. */
  schedulingPolicy?: SchedulingPolicy | null;
  /** `quotaShares`: the quota shares (R2), 1 to 20. */
  quotaShares?: Array<QuotaShare>;
  /** `workload`: jobs described by generator settings, expanded after `jobs` (`crate::workload`). */
  workload?: Workload | null;
  /** `jobs` (R5): at most 2,000,000 (`MAX_JOBS`); a longer list is refused while it is read. */
  jobs?: Array<Job>;
  /** `actions`: R23, changes at given times. */
  actions?: Array<Action>;
  /** `history` (R28): observed durations, for forecasts. */
  history?: Array<ObservedDuration>;
}

/** What to generate. `GenerateOptions::new` gives the documented defaults. */
export interface GenerateOptions {
  /** Jobs to generate, at most `MAX_JOBS`. */
  jobs?: number;
  /** Quota shares, 1 to 20, named `team-00`, `team-01`, ... */
  shares?: number;
  /** Instance types, 1 to 5, taken in order from a fixed list of GPU types. */
  instanceTypes?: number;
  /**
   * The workload's `seed`, 0 to 2^53 - 1; the quotas are drawn from a stream of their own
   * derived from it.
   */
  seed?: number;
  /** Offered load as a percentage of the capacity owned by shares (100 = exactly full). */
  loadPercent?: number;
  /** Percentage of jobs that checkpoint. */
  checkpointPercent?: number;
  /** Smallest duration (the Pareto scale), seconds. */
  minDurationSeconds?: number;
  /** Longest duration, seconds. */
  maxDurationSeconds?: number;
}

/** An objectives file. */
export interface Objectives {
  /** `formatVersion`: must be 1 (the default). */
  formatVersion?: number;
  /** `objectives`: at least one. */
  objectives: Array<Objective>;
}

/** A sweep file. */
export interface SweepFile {
  /** `formatVersion`: must be 1 (the default). */
  formatVersion?: number;
  /** A scenario file's path (relative to the sweep file), or a scenario. */
  base: unknown;
  /** `axes`: the varied parameters; the rows are their cartesian product, the last axis fastest. */
  axes: Array<Axis>;
  /** `frontier`: the goals of the trade-off front, each `METRIC:max` or `METRIC:min`; empty: no front. */
  frontier?: Array<string>;
  /**
   * Run every parameter point on this many seeds of the base's `workload` (`seed`,
   * `seed + 1`, ...) and report the median, min and max over them;
   * 1 (the default) runs each point once.
   */
  replicates?: number | null;
}

/**
 * One input file of an import from a front end without files (npm, the playground): its name
 * (used in warnings) and its text.
 */
export interface AwsFile {
  /** The file's name, as warnings and origins name it (`page.json: record 3`). */
  name: string;
  /** The file's contents: one JSON document (an object or a list of records), or one JSON object per line. */
  text: string;
  /** Other fields are accepted and ignored. */
  [key: string]: unknown;
}

/** What actually happened: `quotasim import aws --observed` and `quotasim calibrate`'s input. */
export interface Observed {
  /** `formatVersion`: the observed-jobs format's version, 1. */
  formatVersion: number;
  /** The absolute time (epoch milliseconds) of `submitAt` 0. */
  originEpochMillis: number;
  /** `jobs`: one entry per job of the imported scenario, in its order. */
  jobs: Array<ObservedJob>;
}

/** A space file. */
export interface SpaceFile {
  /** `formatVersion`: must be 1 (the default). */
  formatVersion?: number;
  /** `axes`: dimensions bounded, narrowed or added. */
  axes?: Array<Axis>;
  /** `fixed`: dimensions kept at the scenario's value. */
  fixed?: Array<string>;
}

/** One thing wrong (or worth knowing) about a scenario. */
export interface Problem {
  /**
   * `path`: the field's path in the scenario JSON, e.g. `jobs[3].instanceCount`; empty for
   * the root.
   */
  path: string;
  /** `severity`: an error or a warning. */
  severity: Severity;
  /**
   * `message`: what is wrong, for a person; at most `MAX_MESSAGE` bytes, control characters
   * escaped.
   */
  message: string;
}

/** The whole result of a run (format spec, "Result (JSON)"). */
export interface SimResult {
  /** `formatVersion`: 1. */
  formatVersion: number;
  /**
   * `endedAt`: the time the run stands at, in seconds (with `--until T` or
   * `settings.horizonSeconds`, that time).
   */
  endedAt: number;
  /** `jobs`: every job, in input order. */
  jobs: Array<JobResult>;
  /** `events`: the R24 events in order (empty when the run did not record them). */
  events: Array<SimEvent>;
  /** `summary`: the R26 metrics. */
  summary: Summary;
}

/** `--summary`: the result without the per-job and per-event lists. */
export interface SummaryResult {
  /** `formatVersion`: 1. */
  formatVersion: number;
  /** `endedAt`: the time the run stands at, in seconds. */
  endedAt: number;
  /** `summary`: the R26 metrics. */
  summary: Summary;
}

/** R25: the engine's form of `GetJobQueueSnapshot.queueUtilization`. */
export interface Snapshot {
  /** `at`: the instant, in seconds. */
  at: number;
  /** `types`: one entry per instance type that has a limit, a quota or usage. */
  types: Array<TypeTotals>;
  /** `shares`: one entry per share and instance type that has a quota or usage. */
  shares: Array<ShareTypeUsage>;
  /**
   * `jobCounts`: jobs per status now, in `Status` order; `notSubmitted` counts jobs not yet
   * submitted.
   */
  jobCounts: JobCounts;
}

/** What one benchmark run did (`quotasim bench`, and `BenchWorkload.run` in the npm package). */
export interface BenchRun {
  /** `events`: R24 events, whether or not the event list was recorded. */
  events: number;
  /** `preemptedJobs`: jobs told to stop at least once. */
  preemptedJobs: number;
  /** `endedAt`: the time the run ended at, in seconds. */
  endedAt: number;
}

/** `quotasim compare`'s JSON. */
export interface Comparison {
  /** `formatVersion`: the comparison format's version, 1. */
  formatVersion: number;
  /** `a`: side A's summary result. */
  a: SummaryResult;
  /** `b`: side B's summary result. */
  b: SummaryResult;
  /** The `--set` changes that made B from A, or `["second file"]`. */
  changes: Array<string>;
  /** What the two scenarios do not share (quota shares on one side only). */
  differences: Array<string>;
  /** `delta`: B - A for every number of the summaries, per share and overall. */
  delta: Delta;
  /**
   * `changedJobs`: the jobs whose fate differs or that are on one side only: A's jobs in A's order, then
   * those only in B.
   */
  changedJobs: Array<ChangedJob>;
}

/** The result of checking objectives (`quotasim check`). */
export interface Report {
  /** `formatVersion`: 1. */
  formatVersion: number;
  /** `met`: every objective met. */
  met: boolean;
  /** `verdicts`: one per objective and metric, in the objectives' order. */
  verdicts: Array<Verdict>;
}

/**
 * One row's outcome: `quotasim sweep`'s JSONL line. `frontier` is the last field, so that a
 * row can be printed before the front is known and the flag appended (and set again by
 * `sweep-merge`).
 */
export interface SweepRow {
  /** `row`: its number, from 0 (the last axis varies fastest). */
  row: number;
  /** The sweep's number of rows, so that a merge knows when one is missing. */
  rows: number;
  /** The sweep's `fingerprint`(super::fingerprint), so that a merge refuses rows of another sweep. */
  fingerprint: string;
  /** `values`: each axis's value in this row, in axis order. */
  values: Array<unknown>;
  /** `changes`: the same values as `--set` changes (`PATH=VALUE`). */
  changes: Array<string>;
  /** A replicated sweep: how many seeds each point ran on, and which. */
  replicates?: number;
  /** `seeds`: a replicated sweep's seeds, in order. */
  seeds?: Array<number>;
  /** `summary`: the variant's summary result; absent in a replicated sweep and when the row failed. */
  summary?: SummaryResult;
  /**
   * A replicated sweep: the summary's shape with every number replaced by its
   * `{median, min, max}` over the seeds.
   */
  stats?: unknown;
  /**
   * `error`: why the variant could not run (invalid, or a run error; in a replicated sweep, the first seed
   * that failed).
   */
  error?: string;
  /** `objectives`: each frontier goal's value in this row; absent when the sweep has no goals. */
  objectives?: Record<string, number | Spread | null>;
  /**
   * `frontier`: whether the row is on the Pareto front of the goals; absent until every row is known, and
   * when there are no goals.
   */
  frontier?: boolean;
}

/** `quotasim compare --replicates`'s JSON. */
export interface ReplicateReport {
  /** `formatVersion`: the report format's version, 1. */
  formatVersion: number;
  /** The workload seeds, one per replicate, in order. */
  seeds: Array<number>;
  /** The `--set` changes that made B from A, or `["second file"]`. */
  changes: Array<string>;
  /** What the two sides do not share (quota shares on one side only). */
  differences: Array<string>;
  /**
   * Per quota share present on both sides, in A's order: metric path -> statistics (metrics
   * in path order).
   */
  perQuotaShare: Record<string, Record<string, MetricStats>>;
  /** `overall`: metric path -> statistics, for the overall summary (metrics in path order). */
  overall: Record<string, MetricStats>;
}

/** `quotasim calibrate`'s JSON. */
export interface Calibration {
  /** `formatVersion`: the calibration format's version, 1. */
  formatVersion: number;
  /** `perQuotaShare`: each share of the run's summary, simulated next to observed. */
  perQuotaShare: Array<ShareCalibration>;
  /** Jobs in the scenario but not observed, and the other way round. */
  unmatched: Array<string>;
  /** `mostDifferent`: the 20 jobs whose fates differ most, highest `score` first (ties by name). */
  mostDifferent: Array<JobDifference>;
  /** What the scenario's start-up explains (`explain_startup`); absent without start-up. */
  startup?: StartupEffect;
}

/** `quotasim eta`'s JSON. */
export interface EtaReport {
  /** `formatVersion`: the report format's version, 1. */
  formatVersion: number;
  /** The state's `startAt`; every time below is seconds after it. */
  startAt: number;
  /** `originEpochMs`: the absolute time of second 0, in epoch milliseconds; absent when the state has none. */
  originEpochMs?: number;
  /** The runs stop here (absolute seconds). */
  horizonAt: number;
  /** `replicates`: how many runs the bands are over. */
  replicates: number;
  /** `seed`: the seed every replicate's draws come from. */
  seed: number;
  /** `durations`: where job durations came from (the one chosen when none was asked for). */
  durations: EtaDurations;
  /** `arrivals`: which jobs arrive after `startAt`. */
  arrivals: EtaArrivals;
  /**
   * How many job durations, over every replicate, came from each source (`history`,
   * `timeout`, `twiceLargest`, `asWritten`, `exact`).
   */
  drawsBySource: Record<string, number>;
  /**
   * `jobs`: one forecast per job asked for (every queued job when none was named), the submitted one
   * included.
   */
  jobs: Array<EtaJob>;
}

/** `quotasim why`'s JSON. */
export interface WhyReport {
  /** `formatVersion`: the report format's version, 1. */
  formatVersion: number;
  /** The job explained. */
  job: string;
  /** What is explained, and the target a change must reach. */
  event: WhyEvent;
  /** The changes that reached the target, fewest jobs harmed first. */
  changes: Array<WhyChange>;
  /** What was tried, found or not, and what was not tried and why. */
  tried: WhyTried;
}

/** `quotasim recommend`'s report. */
export interface RecommendReport {
  /** `formatVersion`: the report format's version, 1. */
  formatVersion: number;
  /** `feasible`: a candidate met every objective (else `recommended` is the closest one). */
  feasible: boolean;
  /**
   * `proven`: the certificate is complete (every cheaper step ran and broke an objective);
   * `false` when the run budget stopped the search first.
   */
  proven: boolean;
  /** `minimize`: `capacityPerHour`, or the metric path minimised. */
  minimize: string;
  /** `costUnit`: what the cost counts: `pricePerHour`, `instances` or `metric`. */
  costUnit: string;
  /** `seeds`: the workload seeds each candidate ran on (empty for listed jobs). */
  seeds: Array<number>;
  /** `confidence`: the fraction of seeds an objective must be met on. */
  confidence: number;
  /** `runs`: single-seed runs made; `maxRuns`: the budget. */
  runs: number;
  /** `maxRuns`: the budget of single-seed runs (`--max-runs`). */
  maxRuns: number;
  /** `input`: the scenario as given. */
  input: Candidate;
  /** `recommended`: the answer (or, when nothing is feasible, the closest candidate). */
  recommended: Candidate;
  /**
   * `saves`: the input's cost minus the recommendation's, when both meet every objective or
   * the cost is `capacityPerHour`.
   */
  saves: number | null;
  /**
   * `certificate`: every step that would lower the cost from the answer, each with its
   * retries, and what it breaks.
   */
  certificate: Array<CertEntry>;
  /** `sensitivity`: what each other sharing (and added field's value) does at the answer. */
  sensitivity: Array<Sensitivity>;
  /**
   * `front`: the candidates on the front of cost (lower is better) against the tightest
   * objective's slack (higher is better), cheapest first.
   */
  front: Array<Point>;
  /** `cheapest`: the five cheapest candidates seen that meet every objective. */
  cheapest: Array<Point>;
  /**
   * `idleQuota`: per share, quota neither used nor lent over the run, in the input and in
   * the answer.
   */
  idleQuota: Array<IdleQuota>;
  /** `notes`: what the reader should know about this search. */
  notes: Array<string>;
}

/** Simulation settings; every field is optional and defaults as documented in the format spec. */
export interface Settings {
  /**
   * `preemptionGraceSeconds` (R21): how long a told-to-stop job keeps its capacity, in
   * seconds (default 120).
   */
  preemptionGraceSeconds?: number;
  /** `scheduledSeconds` (R6): time spent in `SCHEDULED` before `STARTING`, in seconds. */
  scheduledSeconds?: number;
  /** `startingSeconds` (R6): time spent in `STARTING` before `RUNNING`, in seconds. */
  startingSeconds?: number;
  /** `backfill` (R12): let later jobs of a share go first when its front job cannot. */
  backfill?: boolean;
  /** `victimOrder`: R19 step 2. */
  victimOrder?: VictimOrder;
  /** `checkpointOnStop` (R8): a checkpointing job also saves at the stop signal. */
  checkpointOnStop?: boolean;
  /**
   * `checkpointSaveSeconds` (R8): how long that save takes, in seconds (default 30); it
   * must fit in the grace period.
   */
  checkpointSaveSeconds?: number;
  /**
   * `horizonSeconds`: stop the simulation at this time, in seconds (`None`: run until
   * nothing is left to happen).
   */
  horizonSeconds?: number | null;
  /** `billing`: what is paid for, for the cost metrics (R26). */
  billing?: Billing;
  /** `startAt` (R28): the instant the run begins ("now"), in seconds (default 0). */
  startAt?: number;
  /** `originEpochMs` (R28): epoch milliseconds of time 0, for importers and ISO times. */
  originEpochMs?: number | null;
}

/** An instance type's GPU count, used only for GPU-denominated metrics (R1). */
export interface InstanceTypeInfo {
  /** `name`: the instance type, as in `capacityUnit`. */
  name: string;
  /** `gpus`: GPUs per instance (default 0); replaces the built-in catalogue's count. */
  gpus?: number;
  /**
   * `pricePerHour`: price of one instance for an hour, for the cost metrics (R26); any
   * currency.
   */
  pricePerHour?: number | null;
}

/** R1: the service environment and its capacity limits. */
export interface ServiceEnvironment {
  /**
   * `serviceEnvironmentName`: the AWS name, kept for exports; the simulation has one service
   * environment.
   */
  serviceEnvironmentName?: string | null;
  /** `capacityLimits`: at most one per instance type; a type without one can never run (R1, R17). */
  capacityLimits: Array<CapacityLimit>;
  /** `serviceEnvironmentArn`: accepted from AWS output and ignored. */
  serviceEnvironmentArn?: unknown;
  /** `serviceEnvironmentType`: accepted from AWS output and ignored. */
  serviceEnvironmentType?: unknown;
  /** `state`: accepted from AWS output and ignored. */
  state?: unknown;
  /** `status`: accepted from AWS output and ignored. */
  status?: unknown;
  /** `statusReason`: accepted from AWS output and ignored. */
  statusReason?: unknown;
  /** `tags`: accepted from AWS output and ignored. */
  tags?: unknown;
  /** `createdAt`: accepted from AWS output and ignored. */
  createdAt?: unknown;
  /** `clientToken`: accepted from AWS output and ignored. */
  clientToken?: unknown;
}

/** The AWS `schedulingPolicy` shape; `FIFO` is the only idle-resource strategy. */
export interface SchedulingPolicy {
  /** `name`: the AWS name of the policy; not used by the simulation. */
  name?: string | null;
  /** `quotaSharePolicy`: how idle capacity is assigned. */
  quotaSharePolicy?: QuotaSharePolicy | null;
  /** `arn`: accepted from AWS output and ignored. */
  arn?: unknown;
  /** `tags`: accepted from AWS output and ignored. */
  tags?: unknown;
}

/** R2: a team's quota share. */
export interface QuotaShare {
  /** `quotaShareName`: 1 to 128 letters, digits, `-` and `_`; unique. */
  quotaShareName: string;
  /** `capacityLimits`: the share's own quota (R2, R13), 1 to 5 distinct instance types. */
  capacityLimits: Array<CapacityLimit>;
  /** `resourceSharingConfiguration`: strategy and borrow limit (R4, R14). */
  resourceSharingConfiguration: ResourceSharing;
  /** `preemptionConfiguration`: in-share preemption (R20). */
  preemptionConfiguration?: SharePreemption;
  /** `state`: `ENABLED` (default) or `DISABLED`. */
  state?: ShareState;
  /**
   * `capacityLimitReduced` (R28): instance types whose quota was lowered since the share's
   * jobs started: usage the quota no longer covers is over quota as R22 says, even where
   * R14 would allow it by borrowing.
   */
  capacityLimitReduced?: Array<string>;
  /** `quotaShareArn`: accepted from AWS output and ignored. */
  quotaShareArn?: unknown;
  /** `jobQueue`: accepted from AWS output and ignored. */
  jobQueue?: unknown;
  /** `status`: accepted from AWS output and ignored. */
  status?: unknown;
  /** `statusReason`: accepted from AWS output and ignored. */
  statusReason?: unknown;
  /** `tags`: accepted from AWS output and ignored. */
  tags?: unknown;
  /** `createdAt`: accepted from AWS output and ignored. */
  createdAt?: unknown;
  /** `clientToken`: accepted from AWS output and ignored. */
  clientToken?: unknown;
}

/** A scenario's `workload` section: jobs described by generator settings. */
export interface Workload {
  /** `seed`: the seed of every draw, 0 to 2^53 - 1; `seed`, `seed + 1`, ... are replicates. */
  seed?: number;
  /** `jobs`: jobs in all, split over the entries without their own `jobs` by `weight`. */
  jobs?: number | null;
  /**
   * `loadPercent`: offered load, as a percentage of the capacity shares own, for entries
   * without an `arrivalsPerHour`.
   */
  loadPercent?: number | null;
  /** `startAt`: when arrivals start, in seconds (default 0). */
  startAt?: number;
  /** `shares`: one entry per quota share that submits work. */
  shares: Array<ShareWorkload>;
}

/** R5: one training job. */
export interface Job {
  /** `jobName`: 1 to 128 letters, digits, `-` and `_`; unique. */
  jobName: string;
  /** `quotaShareName`: the share the job is submitted to; it must exist. */
  quotaShareName: string;
  /** `schedulingPriority`: 0 to 9999, default 0; higher runs first within a share (R11). */
  schedulingPriority?: number;
  /**
   * `instanceType`: given directly, or through
   * `serviceRequestPayload.ResourceConfig.InstanceType`.
   */
  instanceType?: string | null;
  /**
   * `instanceCount`: instances the job holds while dispatched (default 1); or given as
   * `serviceRequestPayload.ResourceConfig.InstanceCount`.
   */
  instanceCount?: number | null;
  /** `submitAt`: when the job is submitted, in seconds (default 0). */
  submitAt?: number;
  /**
   * `durationSeconds`: the training time the job needs, in seconds (R5, R8). Required to
   * run; a state (R28) may omit it for forecasts, which sample it.
   */
  durationSeconds?: number | null;
  /**
   * `startedAt` (R28): the job is in the attempt dispatched then (as
   * `attempts[].startedAt` in results), at or before `settings.startAt`.
   */
  startedAt?: number | null;
  /**
   * `previousAttempts` (R28): attempts of the job already preempted before `startAt`
   * (default 0); they count against its retry limit (R7).
   */
  previousAttempts?: number;
  /**
   * `completedWorkSeconds` (R28): training those attempts saved in checkpoints, which the
   * current or next attempt resumes from (R8), in seconds (default 0).
   */
  completedWorkSeconds?: number;
  /**
   * `checkpointIntervalSeconds`: R8, seconds of training between checkpoints; `None`: no
   * checkpoints (every 600 s with a payload `CheckpointConfig`).
   */
  checkpointIntervalSeconds?: number | null;
  /**
   * `timeoutSeconds`: R9, the most seconds an attempt may spend `RUNNING` (or the payload's
   * `StoppingCondition.MaxRuntimeInSeconds`); `None`: no timeout.
   */
  timeoutSeconds?: number | null;
  /** `preemptionConfiguration`: the job's retry limit (R7). */
  preemptionConfiguration?: JobPreemption | null;
  /**
   * `serviceRequestPayload`: the AWS `SubmitServiceJob` payload, as an object or a JSON
   * string.
   */
  serviceRequestPayload?: ServiceRequestPayload | string | null;
  /** `jobArn`: accepted from AWS output and ignored. */
  jobArn?: unknown;
  /** `jobId`: accepted from AWS output and ignored. */
  jobId?: unknown;
  /** `jobQueue`: accepted from AWS output and ignored. */
  jobQueue?: unknown;
  /** `status`: accepted from AWS output and ignored. */
  status?: unknown;
  /** `statusReason`: accepted from AWS output and ignored. */
  statusReason?: unknown;
  /** `serviceJobType`: accepted from AWS output and ignored. */
  serviceJobType?: unknown;
  /** `createdAt`: accepted from AWS output and ignored. */
  createdAt?: unknown;
  /** `tags`: accepted from AWS output and ignored. */
  tags?: unknown;
  /** `clientToken`: accepted from AWS output and ignored. */
  clientToken?: unknown;
  /** `retryStrategy`: accepted from AWS output and ignored. */
  retryStrategy?: unknown;
  /** `shareIdentifier`: accepted from AWS output and ignored. */
  shareIdentifier?: unknown;
}

/** R23: an action applied at time `at`: exactly one of `updateServiceJob`, `terminateServiceJob`, `updateQuotaShare` or `updateServiceEnvironment`. */
export interface Action {
  at: number;
  updateServiceJob?: UpdateServiceJob | null;
  terminateServiceJob?: TerminateServiceJob | null;
  updateQuotaShare?: QuotaShareUpdate | null;
  updateServiceEnvironment?: UpdateServiceEnvironment | null;
}

/** One observed duration of a finished or running job (`history`, R28). */
export interface ObservedDuration {
  /** `quotaShareName`: the job's share. */
  quotaShareName: string;
  /** `instanceType`: its instance type. */
  instanceType: string;
  /** `instanceCount`: its instances (default 1). */
  instanceCount?: number;
  /** `durationSeconds`: how long it ran, in seconds. */
  durationSeconds: number;
  /** `censored`: it was still running when observed: it ran at least that long. */
  censored?: boolean;
}

/** One bound on one metric (or one per share, with `*`). */
export interface Objective {
  /** `metric`: a metric path (`crate::metric`); `*` for every share. */
  metric: string;
  /** `min`: the smallest value that meets the objective (inclusive). */
  min?: number | null;
  /** `max`: the largest value that meets the objective (inclusive). */
  max?: number | null;
}

/** One varied parameter. */
export interface Axis {
  /** `path`: the field varied, in the `--set` grammar (`crate::change`). */
  path: string;
  /** `values`: the values it takes, in order; an axis gives either `values` or `range`. */
  values?: Array<unknown> | null;
  /** `range`: the values as a numeric range, instead of `values`. */
  range?: Range | null;
}

/**
 * One job as observed: what `--observed` writes (the result format's job shape, seconds
 * from the origin).
 */
export interface ObservedJob {
  /** `jobName`: the job's name in the imported scenario (made valid and unique when the record's was not). */
  jobName: string;
  /** `quotaShareName`: its quota share. */
  quotaShareName: string;
  /**
   * `status`: its last status the records show (`RUNNING` or `RUNNABLE` in a state at an instant); `null`
   * when no record gives one.
   */
  status?: Status | null;
  /** `submitAt`: its `createdAt`, in seconds from the origin. */
  submitAt: number;
  /**
   * `firstStartedAt`: when its first attempt was dispatched, in seconds from the origin; `null` if none
   * was (in a state at an instant: none by then).
   */
  firstStartedAt?: number | null;
  /**
   * `stoppedAt`: when it succeeded or failed, in seconds from the origin; `null` while it had not (always
   * `null` in a state at an instant).
   */
  stoppedAt?: number | null;
  /** `preemptions`: how many times it was preempted: AWS's count, else its attempts less one. */
  preemptions: number;
  /** Instance-seconds held over all attempts. */
  instanceSeconds: number;
}

/**
 * How serious a `Problem` is; `error` or `warning` in JSON.
 * - `"error"`: Something is wrong; a scenario with an error does not run.
 * - `"warning"`: Worth knowing (R3 oversubscription, capacity no share owns, ...); nothing is refused.
 */
export type Severity = "error" | "warning";

/** A job as `DescribeServiceJob` would show it at the end of the run. */
export interface JobResult {
  /** `jobName`: the job's name. */
  jobName: string;
  /** `quotaShareName`: its quota share. */
  quotaShareName: string;
  /** `status`: its status at `endedAt`; `null` when it was not submitted yet. */
  status: Status | null;
  /**
   * `statusReason`: the reason shown at `endedAt`: why it waits (R17), `PREEMPTION_IN_PROGRESS:
   * ...` (R21) or why it failed; `null` otherwise.
   */
  statusReason: string | null;
  /** `schedulingPriority`: its priority at `endedAt`, updates included (R23). */
  schedulingPriority: number;
  /** `submitAt`: when it was submitted, in seconds. */
  submitAt: number;
  /** `firstStartedAt`: when its first attempt was dispatched; `null` if none was. */
  firstStartedAt: number | null;
  /** `stoppedAt`: when it succeeded or failed; `null` while it has not. */
  stoppedAt: number | null;
  /** `preemptionSummary`: its preemptions (R7). */
  preemptionSummary: PreemptionSummary;
  /** `attempts`: every attempt, first to last, the current one included. */
  attempts: Array<Attempt>;
  /**
   * `lostWorkSeconds`: training seconds its preemptions lost (R8), counted from each stop
   * signal.
   */
  lostWorkSeconds: number;
  /**
   * `runnableSecondsByCause`: its time `RUNNABLE` (from submission, or `startAt`, to its
   * first dispatch, and from each requeue after a preemption to its next dispatch, or to
   * `endedAt`) split by what held it at each instant, in seconds: `quotaUsed`,
   * `borrowLimit`, `cannotBorrow`, `limitLowered`, `pool`, `serviceEnvironment`,
   * `preemptionInProgress`, `misconfiguration`, `behind`. Only causes with time, in that
   * order; they add up to its time `RUNNABLE` exactly.
   */
  runnableSecondsByCause: Partial<RunnableSecondsByCause>;
}

/** R24: one state change or preemption step. */
export interface SimEvent {
  /** `at`: when it happened, in seconds of simulated time. */
  at: number;
  /** `jobName`: the job it happened to. */
  jobName: string;
  /** `quotaShareName`: that job's quota share. */
  quotaShareName: string;
  /** `type`: a state change or a preemption step. */
  type: EventType;
  /** `status`: the job's status after the event (unchanged by `PREEMPTION_STARTED`). */
  status: Status | null;
  /**
   * `statusReason`: why (R17; `PREEMPTION_IN_PROGRESS: ...` on `PREEMPTION_STARTED`); `null`
   * when there is no reason.
   */
  statusReason: string | null;
  /**
   * `preemptedBy`: the job whose dispatch needed this preemption (preemption events; `null`
   * when the service environment's capacity was lowered).
   */
  preemptedBy?: string | null;
  /** `reason`: preemption events only: why the victim was preempted (R18, R20, R22). */
  reason?: string;
  /**
   * `preemptedAttemptCount` (preemption events): the victim's count, this preemption
   * included (R7).
   */
  preemptedAttemptCount?: number;
  /** `lostWorkSeconds` (preemption events): training seconds this preemption lost (R8). */
  lostWorkSeconds?: number;
}

/** R26: a result's `summary`: metrics per quota share and for the whole run. */
export interface Summary {
  /** `perQuotaShare`: keyed by quota share name, in input order. */
  perQuotaShare: Record<string, Metrics>;
  /** `overall`: the whole run. */
  overall: Metrics;
}

/** R25: totals of one instance type at an instant. */
export interface TypeTotals {
  /** `capacityUnit`: the instance type. */
  capacityUnit: string;
  /** `gpusPerInstance`: its GPUs per instance (R1; 0 when unknown). */
  gpusPerInstance: number;
  /**
   * `serviceEnvironmentCapacity`: the service environment's limit, in instances (`null`:
   * none, jobs of this type never run).
   */
  serviceEnvironmentCapacity: number | null;
  /** `usage`: instances held by the jobs of every share. */
  usage: number;
  /**
   * `free`: the service environment's limit (0 when none) minus `usage`; negative after a
   * lowered limit (R13).
   */
  free: number;
  /** `poolCapacity`: the quotas of the lending shares, summed (R13). */
  poolCapacity: number;
  /** `poolUsage`: instances held by the jobs of the lending shares. */
  poolUsage: number;
  /** `poolAvailable`: `poolCapacity - poolUsage`; negative after a lowered quota (R13). */
  poolAvailable: number;
  /** `borrowed`: instances held above their shares' quotas, summed over shares (R15). */
  borrowed: number;
  /**
   * `unattributedBorrowed`: borrowed instances no lender's idle quota accounts for (after a
   * lowered limit).
   */
  unattributedBorrowed: number;
}

/** R25: one quota share's use of one instance type at an instant. */
export interface ShareTypeUsage {
  /** `quotaShareName`: the share. */
  quotaShareName: string;
  /** `capacityUnit`: the instance type. */
  capacityUnit: string;
  /** `quota`: the share's own quota of this type now (R13 `Q_S`), in instances. */
  quota: number;
  /**
   * `usage`: instances held by the share's jobs (`SCHEDULED`, `STARTING`, `RUNNING`; jobs
   * being preempted included, R21).
   */
  usage: number;
  /** `withinQuota`: the part of `usage` within the quota, min(usage, quota). */
  withinQuota: number;
  /** `overQuota`: the part of `usage` above the quota, max(0, usage - quota). */
  overQuota: number;
  /**
   * `borrowed`: instances counted as borrowed (R15): `overQuota`, over quota after an update
   * (R22) included.
   */
  borrowed: number;
  /**
   * `borrowedFrom`: `borrowed` attributed to lenders (R15), one `{quotaShareName, instances}`
   * per lender.
   */
  borrowedFrom: Array<Flow>;
  /** `lent`: instances of this share's idle quota used by borrowers (R15). */
  lent: number;
  /** `lentTo`: `lent` per borrower, one `{quotaShareName, instances}` each (R15). */
  lentTo: Array<Flow>;
  /** `idle`: quota neither held nor lent, in instances. */
  idle: number;
  /** `earmarked`: instances earmarked for this share's waiting preemptor (R21). */
  earmarked: number;
}

/** R25: how many jobs are in each status at an instant. */
export interface JobCounts {
  /** `notSubmitted`: jobs whose `submitAt` has not come yet. */
  notSubmitted: number;
  /** `runnable`: jobs `SUBMITTED` or `RUNNABLE`. */
  runnable: number;
  /** `scheduled`: jobs `SCHEDULED`. */
  scheduled: number;
  /** `starting`: jobs `STARTING`. */
  starting: number;
  /** `running`: jobs `RUNNING`. */
  running: number;
  /** `succeeded`: jobs `SUCCEEDED`. */
  succeeded: number;
  /** `failed`: jobs `FAILED`. */
  failed: number;
}

/**
 * B - A for every number of the summary, keyed by its metric path relative to the share or
 * to `overall` (`waitSeconds.p95`); `null` where either side has none.
 */
export interface Delta {
  /** Per quota share present on both sides, in A's order. */
  perQuotaShare: Record<string, Record<string, number | null>>;
  /** `overall`: B - A for each number of the overall summary, keyed by its metric path. */
  overall: Record<string, number | null>;
  /** `endedAt` of B minus A's. */
  endedAt: number;
}

/** A job whose fate differs, or that is on one side only. */
export interface ChangedJob {
  /** `jobName`: the job, matched by name on both sides. */
  jobName: string;
  /** `changed`, `added` (only in B) or `removed` (only in A). */
  change: string;
  /** `a`: its fate in A; `null` when it is only in B. */
  a: Fate | null;
  /** `b`: its fate in B; `null` when it is only in A. */
  b: Fate | null;
  /** One line: `starts 42 min later`, `no longer preempted`, `fails: retry limit`. */
  description: string;
}

/** One objective checked on one metric. */
export interface Verdict {
  /** `objective`: the objective, as `objectives[i]`. */
  objective: string;
  /** `metric`: the metric path, with a share name in place of `*`. */
  metric: string;
  /** `min`: the objective's lower bound, if any. */
  min: number | null;
  /** `max`: the objective's upper bound, if any. */
  max: number | null;
  /** `value`: the metric's value; `null` when the summary has none (then it is met). */
  value: number | null;
  /** `baseline`: the value under the baseline scenario, when one was given. */
  baseline?: number | null;
  /** `met`: the value is within the bounds, or `null`. */
  met: boolean;
}

/** One metric over the replicates. */
export interface MetricStats {
  /** `a`: A's values over the seeds; `null` when no seed gives one. */
  a: Spread | null;
  /** `b`: B's values over the seeds; `null` when no seed gives one. */
  b: Spread | null;
  /** Of the paired differences B - A. */
  delta: Spread | null;
  /**
   * Seeds where B is higher, lower, the same (seeds where either side has no value are
   * left out).
   */
  up: number;
  /** `down`: seeds where B is lower than A. */
  down: number;
  /** `same`: seeds where B equals A. */
  same: number;
  /** How many seeds agree with the most common direction. */
  agree: number;
}

/** One share, simulated and observed. */
export interface ShareCalibration {
  /** `quotaShareName`: the share, in the order of the run's summary. */
  quotaShareName: string;
  /** `jobs`: its jobs that are both in the scenario and observed. */
  jobs: number;
  /**
   * `waitP50`: the median wait, submission to first dispatch, in seconds, over those jobs that started
   * (nearest rank).
   */
  waitP50: Pair;
  /** `waitP95`: the 95th percentile of the same waits, in seconds. */
  waitP95: Pair;
  /** `preemptions`: those jobs' preemptions, summed. */
  preemptions: Pair;
  /**
   * `gpuHours`: GPU-hours held: the run's summary figure, and the observed instance-seconds times GPUs per
   * instance over 3600.
   */
  gpuHours: Pair;
}

/** A job whose simulated fate differs from the observed one. */
export interface JobDifference {
  /** `jobName`: the job, matched by name. */
  jobName: string;
  /** `quotaShareName`: its quota share in the replay. */
  quotaShareName: string;
  /**
   * `simulated`: its fate in the replay, in words: `SUCCEEDED, started at 120 s, 1 preemption(s)`, or
   * `..., never started` (`unfinished` when it has no status).
   */
  simulated: string;
  /** `observed`: its observed fate, in the same words. */
  observed: string;
  /** Seconds of first-start difference, plus an hour per preemption or status that differs. */
  score: number;
}

/**
 * How much of the difference between simulated and observed waits the start-up an import
 * fitted (`scheduledSeconds`, `startingSeconds`) explains: the same replay without it.
 */
export interface StartupEffect {
  /** `scheduledSeconds`: the scenario's `settings.scheduledSeconds`, dispatch to `STARTING`. */
  scheduledSeconds: number;
  /** `startingSeconds`: the scenario's `settings.startingSeconds`, `STARTING` to `RUNNING`. */
  startingSeconds: number;
  /** `perQuotaShare`: what start-up explains, per share, in the calibration's `perQuotaShare` order. */
  perQuotaShare: Array<StartupShare>;
}

/**
 * Where durations come from.
 * - `"history"`: Kaplan-Meier per share and instance type over the state's `history`.
 * - `"workload"`: The `workload` section's distribution of the job's share.
 * - `"timeout"`: Each job's timeout.
 * - `"exact"`: `durationSeconds` as written.
 */
export type EtaDurations = "history" | "workload" | "timeout" | "exact";

/**
 * Which jobs arrive after `startAt`.
 * - `"listed"`: The jobs in the file, those submitted after `startAt` included.
 * - `"none"`: None: the queue as it is.
 * - `"workload"`: Drawn at the `workload` section's rates over `(startAt, horizon]` (the listed jobs submitted after `startAt` are left out).
 * - `"resampled"`: Resampled from the recent past (`arrivals::Resampled`, given in `EtaOptions::resampled`), after the listed jobs.
 */
export type EtaArrivals = "listed" | "none" | "workload" | "resampled";

/** One job's forecast. */
export interface EtaJob {
  /** `jobName`: the job forecast. */
  jobName: string;
  /** `quotaShareName`: its quota share. */
  quotaShareName: string;
  /** Whether it is the job `--submit` added. */
  submitted: boolean;
  /** `start`: when its first attempt is dispatched, over the replicates, in seconds after `startAt`. */
  start: EtaBand;
  /** `startIso`: the same band as ISO times; absent when the state has no `originEpochMs`. */
  startIso?: EtaBandIso;
  /** Replicates that start it before the horizon. */
  startedReplicates: number;
  /** `notStartedByHorizon`: the fraction of replicates (0-1) that do not start it before the horizon. */
  notStartedByHorizon: number;
  /** The share of replicates in which it is preempted after it starts. */
  preemptedAfterStart: number;
  /** Why it waits at `startAt` (R17), `null` when it is not queued then. */
  reason: string | null;
  /** What binds (the wait causes of the explanations). */
  cause: string | null;
  /** Its place in its share's queue and the queue's length. */
  position: [number, number] | null;
  /** The jobs before it in its share's order. */
  ahead: Array<string>;
  /** For the submitted job: whom it preempts. */
  wouldPreempt?: Array<EtaVictim>;
}

/** The event explained, as the baseline run has it. */
export interface WhyEvent {
  /** `kind`: a preemption or a wait. */
  kind: WhyEventKind;
  /** `quotaShareName`: the job's quota share. */
  quotaShareName: string;
  /** `submitAt`: when the job was submitted, in seconds. */
  submitAt: number;
  /**
   * `firstStartedAt`: when its first attempt was dispatched in the baseline, in seconds; `null` if none
   * was.
   */
  firstStartedAt: number | null;
  /**
   * `stoppedAt`: when it succeeded or failed in the baseline, in seconds; `null` if it had not when the
   * run ended.
   */
  stoppedAt: number | null;
  /** `status`: its status when the baseline ended; `null` when it was not submitted by then. */
  status: Status | null;
  /** Its preemptions in the run. */
  preemptions: number;
  /** The preemption explained (a preemption only). */
  preemption: WhyPreemption | null;
  /**
   * Its wait: submission to first dispatch, or to the run's end when it never started (a
   * wait only).
   */
  waitSeconds: number | null;
  /** How much earlier it must start (a wait of a job that started). */
  bySeconds: number | null;
  /** Why it waits at the run's end (a job never started, R17). */
  statusReason: string | null;
  /** The target, in words. */
  target: string;
}

/** A change that reached the target, with its side effects. */
export interface WhyChange {
  /** The `--set` arguments that make it, for `run`, `compare` or `check`. */
  set: Array<string>;
  /** Its catalogue entry. */
  entry: string;
  /** What it does to the job. */
  job: WhyJobChange;
  /** The other jobs it harms. */
  harmed: WhyHarmed;
  /** The shares affected: wait p95 and lost GPU-hours before and after. */
  shares: Array<WhyShareEffect>;
}

/** The runs and every catalogue entry. */
export interface WhyTried {
  /** Runs made, the baseline included. */
  runs: number;
  /** `maxRuns`: the budget of runs, the baseline included (`--max-runs`). */
  maxRuns: number;
  /** Every catalogue entry for the event, in the catalogue's order. */
  entries: Array<WhyTriedEntry>;
}

/** A candidate: its changes from the input, its cost and its verdicts. */
export interface Candidate {
  /** `set`: the changes from the input scenario, as `--set PATH=VALUE`. */
  set: Array<string>;
  /** `words`: the same per share, in words. */
  words: Array<string>;
  /** `cost`: what it costs, in `costUnit`; `null` when the minimised metric has no value. */
  cost: number | null;
  /** `feasible`: whether it meets every objective on enough seeds (`confidence`), no job left unfinished. */
  feasible: boolean;
  /** `verdicts`: each objective's value on it, `noUnfinishedJobs` first. */
  verdicts: Array<VerdictOut>;
}

/** A certificate step. */
export interface CertEntry {
  /** `step`: the changes from the answer. */
  step: Array<string>;
  /** `words`: the same in words. */
  words: Array<string>;
  /** `set`: the changes from the input scenario (for `quotasim check ... --set`). */
  set: Array<string>;
  /** `cost`: the step's cost, in `costUnit`; `null` when it has none. */
  cost: number | null;
  /**
   * `breaks`: the objectives it breaks (for `--minimize`: empty when it meets them all but
   * is no better).
   */
  breaks: Array<VerdictOut>;
  /**
   * `retries`: the step with the share's sharing (or an added field) re-chosen: each broke
   * an objective too.
   */
  retries: Array<Retry>;
}

/** A cost-neutral change at the answer and what it does to every objective. */
export interface Sensitivity {
  /** `step`: the changes from the answer. */
  step: Array<string>;
  /** `words`: the same in words. */
  words: Array<string>;
  /** `feasible`: whether the answer with this change still meets every objective. */
  feasible: boolean;
  /** `cost`: its cost, in `costUnit`. */
  cost: number | null;
  /** `verdicts`: each objective's value with this change. */
  verdicts: Array<VerdictOut>;
}

/** A candidate on the front, or among the cheapest. */
export interface Point {
  /** `set`: the changes from the input scenario, as `--set PATH=VALUE`. */
  set: Array<string>;
  /** `words`: the same per share, in words. */
  words: Array<string>;
  /** `cost`: its cost, in `costUnit`; `null` when it has none. */
  cost: number | null;
  /** `tightestSlack`: the smallest slack over the objectives. */
  tightestSlack: number | null;
  /** `feasible`: whether it meets every objective. */
  feasible: boolean;
}

/** A share's idle quota. */
export interface IdleQuota {
  /** `quotaShareName`: the share. */
  quotaShareName: string;
  /** `input`: instances of quota idle on average over the input's run (median over seeds). */
  input: number | null;
  /** `recommended`: the same in the answer. */
  recommended: number | null;
}

/**
 * R19 step 2: which running job has the least work at risk.
 * - `"aws"`: The job whose current attempt was dispatched most recently.
 * - `"leastLostWork"`: The job with the least training since its last checkpoint.
 */
export type VictimOrder = "aws" | "leastLostWork";

/**
 * What the cost metrics charge (R26).
 * - `"onDemand"`: Pay for the instances jobs hold.
 * - `"committed"`: Pay for the service environment's capacity, used or not.
 */
export type Billing = "onDemand" | "committed";

/** `{capacityUnit, maxCapacity}`: a number of instances of one type. */
export interface CapacityLimit {
  /** `capacityUnit`: the instance type. */
  capacityUnit: string;
  /**
   * `maxCapacity`: a number of instances (at least 1 in a quota share, 0 or more in the service
   * environment).
   */
  maxCapacity: number;
}

/** The `quotaSharePolicy` of a scheduling policy. */
export interface QuotaSharePolicy {
  /** `idleResourceAssignmentStrategy`: only `FIFO` is accepted (R16 phase 3). */
  idleResourceAssignmentStrategy?: string | null;
}

/** `resourceSharingConfiguration`. */
export interface ResourceSharing {
  /** `strategy`: R4. */
  strategy: Strategy;
  /**
   * `borrowLimit`: percent of the share's quota it may borrow on top; -1 = unlimited. Only
   * with `LEND_AND_BORROW` (R2, R14); `None` means the default -1.
   */
  borrowLimit?: number | null;
}

/** `preemptionConfiguration` of a quota share. */
export interface SharePreemption {
  /** `inSharePreemption`: R20, `DISABLED` by default. */
  inSharePreemption?: Toggle;
}

/**
 * R2: a quota share's `state`.
 * - `"ENABLED"`: `ENABLED` (the default): the share accepts submissions.
 * - `"DISABLED"`: `DISABLED`: submissions to the share are rejected and end `FAILED` (R6); its queued jobs still run and its quota still lends (R23).
 */
export type ShareState = "ENABLED" | "DISABLED";

/** What one quota share submits. */
export interface ShareWorkload {
  /** `quotaShareName`: the share that submits the jobs; it must exist, with one entry per share. */
  quotaShareName: string;
  /** `weight`: its part of `workload.jobs` (default 1). */
  weight?: number | null;
  /** `jobs`: its number of jobs, instead of a part of `workload.jobs`. */
  jobs?: number | null;
  /**
   * `arrivalsPerHour`: mean arrivals per hour (Poisson), instead of `workload.loadPercent`;
   * one rate, or 24, one per hour of the day.
   */
  arrivalsPerHour?: number | Array<number> | null;
  /** `instanceTypes`: instance types to draw from, by weight. */
  instanceTypes: Array<WeightedType>;
  /**
   * `sizes`: instance counts to draw from, by weight (default: 1 instance). A count above the
   * share's quota of the drawn type is lowered to that quota.
   */
  sizes?: Array<WeightedSize>;
  /** `duration`: how long the jobs train. */
  duration: DurationSpec;
  /** `priorities`: priorities to draw from, by weight (default: 0). */
  priorities?: Array<WeightedPriority>;
  /** `checkpoint`: which jobs checkpoint, and how often in seconds (default: none). */
  checkpoint?: PercentOf | null;
  /**
   * `preemptionRetries`: which jobs set `preemptionRetriesBeforeTermination`, and to what
   * (default: none).
   */
  preemptionRetries?: PercentOf | null;
}

/** `preemptionConfiguration` of a job (R7). */
export interface JobPreemption {
  /**
   * `preemptionRetriesBeforeTermination`: how many preemptions requeue the job; the next one
   * ends it `FAILED` (R7). `None`: unlimited.
   */
  preemptionRetriesBeforeTermination?: number | null;
}

export interface ServiceRequestPayload {
  ResourceConfig?: ResourceConfig | null;
  StoppingCondition?: StoppingCondition | null;
  CheckpointConfig?: CheckpointConfig | null;
  /** Other fields are accepted and ignored. */
  [key: string]: unknown;
}

export interface UpdateServiceJob {
  jobName: string;
  schedulingPriority: number;
}

export interface TerminateServiceJob {
  jobName: string;
  reason?: string | null;
}

/**
 * `updateQuotaShare`: fields not named stay as they were; a named field replaces the old
 * value whole (R23).
 */
export interface QuotaShareUpdate {
  /** `quotaShareName`: the share to change. */
  quotaShareName: string;
  /** `capacityLimits`: replaces the share's whole list. */
  capacityLimits?: Array<CapacityLimit> | null;
  /** `resourceSharingConfiguration`: replaces the whole object (a missing `borrowLimit` is -1). */
  resourceSharingConfiguration?: ResourceSharing | null;
  /** `preemptionConfiguration`: replaces the share's in-share preemption setting. */
  preemptionConfiguration?: SharePreemption | null;
  /** `state`: enables or disables the share. */
  state?: ShareState | null;
}

export interface UpdateServiceEnvironment {
  capacityLimits: Array<CapacityLimit>;
  /** The AWS request names the environment; there is only one here. */
  serviceEnvironment?: unknown;
}

/** `from`, `from + step`, ... up to `to` inclusive. */
export interface Range {
  /** `from`: the first value. */
  from: number;
  /** `to`: the last value allowed (inclusive). */
  to: number;
  /** `step`: the gap between two values, above 0. */
  step: number;
}

/**
 * R6: a job's status.
 * - `"SUBMITTED"`: Accepted at `submitAt`; it is `RUNNABLE` at the same instant.
 * - `"RUNNABLE"`: Queued in its share, waiting to be dispatched (R11, R17).
 * - `"SCHEDULED"`: Dispatched and holding its instances; `STARTING` after `settings.scheduledSeconds`.
 * - `"STARTING"`: Holding its instances; `RUNNING` after `settings.startingSeconds`.
 * - `"RUNNING"`: Training (R8) on its instances.
 * - `"SUCCEEDED"`: All its training is done.
 * - `"FAILED"`: Ended without finishing: timeout (R9), termination (R23), retry limit (R7) or a submission to a `DISABLED` share (R6).
 */
export type Status = "SUBMITTED" | "RUNNABLE" | "SCHEDULED" | "STARTING" | "RUNNING" | "SUCCEEDED" | "FAILED";

/** R7: a job's `preemptionSummary`, as `DescribeServiceJob` shows it. */
export interface PreemptionSummary {
  /** `preemptedAttemptCount`: the job's preemptions, each counted when it completes (R7). */
  preemptedAttemptCount: number;
  /** `recentPreemptedAttempts`: every attempt ended by a preemption, first to last. */
  recentPreemptedAttempts: Array<PreemptedAttempt>;
}

/** One attempt of a job: from dispatch (`SCHEDULED`) to releasing its capacity. */
export interface Attempt {
  /** `startedAt`: when it was dispatched (`SCHEDULED`), in seconds. */
  startedAt: number;
  /** `stoppedAt`: when it released its instances; `null` while it holds them. */
  stoppedAt: number | null;
  /**
   * `borrowedInstances`: how many of its instances were above its share's quota at dispatch
   * (R14).
   */
  borrowedInstances: number;
  /**
   * `statusReason`: why it ended (preemption, timeout, termination); `null` when it succeeded or
   * still holds its instances.
   */
  statusReason: string | null;
}

/**
 * R24: an event's `type`.
 * - `"STATE_CHANGE"`: `STATE_CHANGE`: the job's status changed (R6).
 * - `"PREEMPTION_STARTED"`: `PREEMPTION_STARTED`: the job was told to stop; its status is unchanged (R21).
 * - `"PREEMPTION_COMPLETED"`: `PREEMPTION_COMPLETED`: its grace period ended and it released its instances (R21).
 */
export type EventType = "STATE_CHANGE" | "PREEMPTION_STARTED" | "PREEMPTION_COMPLETED";

/** R26 metrics of one quota share, or of the whole run. */
export interface Metrics {
  /** `jobs`: jobs of the share (or the run), submitted or not. */
  jobs: number;
  /** `succeeded`: jobs `SUCCEEDED` at `endedAt`. */
  succeeded: number;
  /** `failed`: jobs `FAILED` at `endedAt`. */
  failed: number;
  /**
   * `neverRunnable`: jobs `RUNNABLE` at `endedAt` with a `MISCONFIGURATION` reason (R17); also
   * in `unfinished`.
   */
  neverRunnable: number;
  /**
   * `unfinished`: jobs neither `SUCCEEDED` nor `FAILED` at `endedAt`, jobs not yet submitted
   * included.
   */
  unfinished: number;
  /** `instanceSeconds`: instance-seconds held, from dispatch to release (R6). */
  instanceSeconds: number;
  /** `instanceSecondsOwn`: the part of `instanceSeconds` within the share's quota. */
  instanceSecondsOwn: number;
  /** `instanceSecondsBorrowed`: the part of `instanceSeconds` above the share's quota (R14, R22). */
  instanceSecondsBorrowed: number;
  /** `instanceSecondsLent`: instance-seconds of the share's idle quota used by borrowers (R15). */
  instanceSecondsLent: number;
  /** `instanceHours`: `instanceSeconds` in hours. */
  instanceHours: number;
  /** `gpuHours`: held GPU-hours: instance-seconds times GPUs per instance (R1), over 3600. */
  gpuHours: number;
  /** `gpuHoursOwn`: the part of `gpuHours` within the share's quota. */
  gpuHoursOwn: number;
  /** `gpuHoursBorrowed`: the part of `gpuHours` above the share's quota. */
  gpuHoursBorrowed: number;
  /**
   * `gpuHoursLent`: `instanceSecondsLent` in GPU-hours: the share's idle quota that
   * borrowers used (R15).
   */
  gpuHoursLent: number;
  /**
   * `utilization`: instance-seconds held over the service environment's instance-seconds
   * (overall), or over the share's quota instance-seconds (per share; may exceed 1 when
   * borrowing); `null` when the denominator is 0.
   */
  utilization: number | null;
  /**
   * `waitSeconds`: submission to first `RUNNING`, in seconds, over the jobs that reached
   * `RUNNING`.
   */
  waitSeconds: Percentiles;
  /** `completionSeconds`: submission to `SUCCEEDED`, in seconds, over the jobs that succeeded. */
  completionSeconds: Percentiles;
  /** `preemptions`: the share's jobs (or all jobs) told to stop, by reason. */
  preemptions: PreemptionCounts;
  /**
   * `lostInstanceSeconds`: training seconds lost to preemption (R8) times the victim's
   * instances.
   */
  lostInstanceSeconds: number;
  /** `lostGpuHours`: `lostInstanceSeconds` times GPUs per instance, in hours. */
  lostGpuHours: number;
  /**
   * `fairness`: held over entitled instance-seconds (entitlement: min(quota, queued + held)
   * per type), and overall Jain's index of the shares' ratios.
   */
  fairness: Fairness;
  /**
   * `fairnessDeficitInstanceSeconds`: entitled instance-seconds not held, max(0,
   * entitlement - held) per type, over time.
   */
  fairnessDeficitInstanceSeconds: number;
  /**
   * `cost`: what the share (or the run) cost, in the prices' currency, when instance types
   * have prices (`instanceTypes[].pricePerHour`); `null` otherwise. See `settings.billing`.
   */
  cost: number | null;
  /** `lostCost`: the price of the training lost to preemption (R8); `null` without prices. */
  lostCost: number | null;
  /**
   * `idleQuotaCost`, with `committed` billing: the price of quota neither used nor lent;
   * `null` otherwise.
   */
  idleQuotaCost: number | null;
  /**
   * `unassignedCost`, overall only, with `committed` billing: the price of capacity that
   * belongs to no share; `null` otherwise.
   */
  unassignedCost: number | null;
  /**
   * `costPerUsefulGpuHour`, overall only: `cost` over the GPU-hours of training of succeeded
   * jobs; `null` without prices or without such GPU-hours.
   */
  costPerUsefulGpuHour: number | null;
  /**
   * `reclaimLatencySeconds`: per job that needed a reclaim (R18), from the first instant it
   * did to its dispatch, in seconds.
   */
  reclaimLatencySeconds: Percentiles;
  /**
   * `maxPreemptionsPerJob`: the most times any one job of the share (or of the run) was told
   * to stop.
   */
  maxPreemptionsPerJob: number;
  /** `jobsPreemptedMoreThanOnce`: jobs told to stop more than once. */
  jobsPreemptedMoreThanOnce: number;
  /**
   * `goodput`: training instance-seconds of succeeded jobs over instance-seconds held;
   * `null` when none were held.
   */
  goodput: number | null;
  /**
   * `runnableSecondsByCause`: the jobs' time `RUNNABLE` by what held them (the sum of
   * their `runnableSecondsByCause`), every cause listed, 0 included, so each is a metric
   * path (`perQuotaShare.team-a.runnableSecondsByCause.pool`).
   */
  runnableSecondsByCause: RunnableSecondsByCause;
}

/** A number of instances flowing between two shares (R15 attribution). */
export interface Flow {
  /** `quotaShareName`: the other share: the lender in `borrowedFrom`, the borrower in `lentTo`. */
  quotaShareName: string;
  /** `instances`: how many instances, attributed as R15 says. */
  instances: number;
}

/** What happened to one job on one side. */
export interface Fate {
  /** `quotaShareName`: the job's quota share on this side. */
  quotaShareName: string;
  /** `status`: its status when the run ended; `null` when it was not submitted by then. */
  status: Status | null;
  /**
   * `statusReason`: the reason shown when the run ended (why it waits, R17, or why it failed); `null`
   * otherwise.
   */
  statusReason: string | null;
  /** `firstStartedAt`: when its first attempt was dispatched, in seconds; `null` if none was. */
  firstStartedAt: number | null;
  /** `waitSeconds`: seconds from its submission to its first dispatch; `null` if it never started. */
  waitSeconds: number | null;
  /** `preemptions`: its preemptions, its `preemptedAttemptCount` (R7). */
  preemptions: number;
  /** `lostWorkSeconds`: training seconds its preemptions lost (R8). */
  lostWorkSeconds: number;
}

/** Median, min and max of some numbers. */
export interface Spread {
  /** `median`: the middle value (the mean of the two middle ones for an even count). */
  median: number;
  /** `min`: the smallest value. */
  min: number;
  /** `max`: the largest value. */
  max: number;
}

/** A simulated value and the observed one (`null` when there is none). */
export interface Pair {
  /** `simulated`: the replay's value. */
  simulated: number | null;
  /** `observed`: the value observed. */
  observed: number | null;
}

/**
 * One share's wait p50 without start-up, and the seconds of its difference from the observed
 * p50 that start-up explains (`|observed - without| - |observed - with|`; negative when the
 * start-up moves the replay away from what was observed).
 */
export interface StartupShare {
  /** `quotaShareName`: the share. */
  quotaShareName: string;
  /**
   * `waitP50WithoutStartup`: its simulated wait p50 in the replay without start-up, in seconds; `null`
   * when none of its jobs started.
   */
  waitP50WithoutStartup: number | null;
  /**
   * `explainedSeconds`: how many seconds of the gap to the observed p50 start-up explains; `null` when a
   * p50 is missing.
   */
  explainedSeconds: number | null;
}

/** Seconds after `startAt`. */
export interface EtaBand {
  /**
   * Nearest-rank percentiles over every replicate (`null`: more than 100 - p % of them
   * never start it before the horizon).
   */
  p10: number | null;
  /** `p50`: the median start (`null`: more than half of the replicates never start it before the horizon). */
  p50: number | null;
  /**
   * `p90`: the 90th percentile start (`null`: more than 10 % of the replicates never start it before the
   * horizon).
   */
  p90: number | null;
  /** The mean over the replicates that start it (`startedReplicates` of them). */
  mean: number | null;
}

/** The band as ISO times (when the state has `originEpochMs`). */
export interface EtaBandIso {
  /** `p10` as an ISO 8601 UTC time. */
  p10: string | null;
  /** `p50` as an ISO 8601 UTC time. */
  p50: string | null;
  /** `p90` as an ISO 8601 UTC time. */
  p90: string | null;
}

/** A job the submitted one preempts, and in what share of the replicates. */
export interface EtaVictim {
  /** `jobName`: the job preempted. */
  jobName: string;
  /** `probability`: the fraction of replicates (0-1) in which the submitted job preempts it. */
  probability: number;
}

/**
 * A preemption or a wait.
 * - `"preemption"`: `preemption`: one of the job's preemptions.
 * - `"wait"`: `wait`: the job's wait for its first dispatch.
 */
export type WhyEventKind = "preemption" | "wait";

/** One preemption of the job. */
export interface WhyPreemption {
  /** Which, from 1. */
  number: number;
  /** When it was told to stop (`Preemption Started`). */
  at: number;
  /** When it released its instances. */
  releasedAt: number;
  /** R18, R20 or R22's reason. */
  reason: string;
  /** The job it made room for (none for a lowered limit). */
  preemptedBy: string | null;
  /** `preemptedByQuotaShare`: that job's quota share. */
  preemptedByQuotaShare: string | null;
  /** Training lost (R8). */
  lostWorkSeconds: number;
}

/** The job's own change. */
export interface WhyJobChange {
  /** One line: `no longer preempted; finishes 2 min earlier`. */
  description: string;
  /** `before`: its fate in the baseline; `null` when the comparison finds its fate unchanged. */
  before: Fate | null;
  /** `after`: its fate with the change; `null` when the comparison finds its fate unchanged. */
  after: Fate | null;
  /** `stoppedAtBefore`: when it succeeded or failed in the baseline, in seconds; `null` if it had not. */
  stoppedAtBefore: number | null;
  /** `stoppedAtAfter`: the same with the change. */
  stoppedAtAfter: number | null;
}

/** The other jobs a change harms. */
export interface WhyHarmed {
  /**
   * `count`: how many other jobs it harms: a worse status, a start at least a minute later (or never),
   * more preemptions or more lost work.
   */
  count: number;
  /** The worst, in words: `research-7 waits 42 min longer`. */
  worst: string | null;
  /** Each, in the scenario's order. */
  jobs: Array<WhyHarm>;
}

/** A share's wait p95 and lost GPU-hours, before and after a change. */
export interface WhyShareEffect {
  /** `quotaShareName`: the share: the job's, a harmed job's, or one whose figures changed. */
  quotaShareName: string;
  /**
   * `waitP95SecondsBefore`: the p95 of its jobs' waits (submission to first `RUNNING`) in the baseline, in
   * seconds; `null` when none reached `RUNNING`.
   */
  waitP95SecondsBefore: number | null;
  /** `waitP95SecondsAfter`: the same with the change. */
  waitP95SecondsAfter: number | null;
  /** `lostGpuHoursBefore`: GPU-hours of training its preemptions lost in the baseline (R8). */
  lostGpuHoursBefore: number;
  /** `lostGpuHoursAfter`: the same with the change. */
  lostGpuHoursAfter: number;
}

/** One catalogue entry. */
export interface WhyTriedEntry {
  /** `entry`: the catalogue's name for it (`priority`, `borrowLimit`, ...). */
  entry: string;
  /** `path`: the field it changes, in the `--set` grammar. */
  path: string;
  /** `up`, `down`, `earlier` or `fewer` for a numeric field; `null` for a single value. */
  direction: string | null;
  /** The values it covers: a single value, or the nearest and the farthest. */
  candidates: Array<unknown>;
  /** Every run, in order. */
  tested: Array<WhyTested>;
  /** `outcome`: found, not found, not applicable, or out of budget. */
  outcome: WhyOutcome;
  /**
   * `detail`: the outcome in words: why it does not apply, the runs it would need, or whether the values
   * tried reach the target.
   */
  detail: string;
}

/** An objective's value on a candidate: the median over the seeds. */
export interface VerdictOut {
  /** `objective`: which objective: `objectives[i]` of the objectives file, or `noUnfinishedJobs`. */
  objective: string;
  /** `metric`: the metric path, with a share in place of `*`. */
  metric: string;
  /** `min`: the smallest value that meets it (inclusive); `null` when it has no lower bound. */
  min: number | null;
  /** `max`: the largest value that meets it (inclusive); `null` when it has no upper bound. */
  max: number | null;
  /** `value`: the metric's median over the seeds that ran; `null` when it has none. */
  value: number | null;
  /**
   * `slack`: how far inside its bounds the value is, relative to the bound (negative:
   * outside); `null` for a `null` value.
   */
  slack: number | null;
  /** `metOnSeeds`: on how many seeds it is met. */
  metOnSeeds: number;
  /** `met`: whether it is met on enough seeds (`confidence`). */
  met: boolean;
}

/** A certificate step's retry. */
export interface Retry {
  /** `step`: the changes from the answer, the share's sharing (or the added field) re-chosen. */
  step: Array<string>;
  /** `words`: the same in words. */
  words: Array<string>;
  /** `breaks`: the objectives it breaks. */
  breaks: Array<VerdictOut>;
}

/**
 * R4: what a share does with idle quota.
 * - `"RESERVE"`: `RESERVE`: idle quota is kept for the share; it neither lends nor borrows.
 * - `"LEND"`: `LEND`: idle quota may be borrowed by others; it never borrows.
 * - `"LEND_AND_BORROW"`: `LEND_AND_BORROW`: lends like `LEND` and may borrow others' idle quota (R14).
 */
export type Strategy = "RESERVE" | "LEND" | "LEND_AND_BORROW";

/**
 * `ENABLED` or `DISABLED`: whether a share's in-share preemption is on (R20).
 * - `"ENABLED"`: `ENABLED`.
 * - `"DISABLED"`: `DISABLED` (the default).
 */
export type Toggle = "ENABLED" | "DISABLED";

/** `{name, weight}`. */
export interface WeightedType {
  /** `name`: an instance type of the scenario. */
  name: string;
  /** `weight`: its relative chance, 0 to 1,000,000 (default 1). */
  weight?: number;
}

/** `{instances, weight}`. */
export interface WeightedSize {
  /** `instances`: an instance count, at least 1. */
  instances: number;
  /** `weight`: its relative chance, 0 to 1,000,000 (default 1). */
  weight?: number;
}

/** How long jobs train, seconds. */
export interface DurationSpec {
  /** `distribution`: the distribution drawn from. */
  distribution: Distribution;
  /** `minSeconds`: the shortest duration, at least 1 (the scale of `pareto`). */
  minSeconds: number;
  /** `maxSeconds`: the longest duration, at least `minSeconds`. */
  maxSeconds: number;
  /**
   * `values`: with `empirical`, the durations drawn from (uniformly, each within
   * `minSeconds..=maxSeconds`).
   */
  values?: Array<number>;
}

/** `{priority, weight}`. */
export interface WeightedPriority {
  /** `priority`: a `schedulingPriority`, 0 to 9999. */
  priority: number;
  /** `weight`: its relative chance, 0 to 1,000,000 (default 1). */
  weight?: number;
}

/** `percent` of the jobs take one of `values`, drawn uniformly. */
export interface PercentOf {
  /** `percent`: the percentage of jobs that get a value, 0 to 100. */
  percent: number;
  /**
   * `values`: the values drawn from (`checkpointIntervalSeconds` at least 1, retries at least
   * 0).
   */
  values: Array<number>;
}

export interface ResourceConfig {
  InstanceType?: string | null;
  InstanceCount?: number | null;
  /** Other fields are accepted and ignored. */
  [key: string]: unknown;
}

export interface StoppingCondition {
  MaxRuntimeInSeconds?: number | null;
  /** Other fields are accepted and ignored. */
  [key: string]: unknown;
}

export interface CheckpointConfig {
  S3Uri?: string | null;
  /** Other fields are accepted and ignored. */
  [key: string]: unknown;
}

/** An attempt ended by a preemption, as listed in `recentPreemptedAttempts` (R7). */
export interface PreemptedAttempt {
  /** `startedAt`: when it was dispatched, in seconds. */
  startedAt: number;
  /** `stoppedAt`: when it released its instances (`Preemption Completed`), in seconds. */
  stoppedAt: number;
  /** `statusReason`: the preemption's reason (R18, R20, R22). */
  statusReason: string;
}

/** R26 wait, completion or reclaim-latency times: percentiles by nearest rank, in seconds. */
export interface Percentiles {
  /** `count`: how many values (jobs) there are. */
  count: number;
  /** `p50`: the median; `null` when `count` is 0. */
  p50: number | null;
  /** `p90`: the 90th percentile; `null` when `count` is 0. */
  p90: number | null;
  /** `p95`: the 95th percentile; `null` when `count` is 0. */
  p95: number | null;
  /** `p99`: the 99th percentile; `null` when `count` is 0. */
  p99: number | null;
  /** `max`: the largest value; `null` when `count` is 0. */
  max: number | null;
}

/**
 * R26 `preemptions`: how many times jobs of the share (or the run) were told to stop, by reason,
 * counted at `Preemption Started`.
 */
export interface PreemptionCounts {
  /** `crossShare`: reclaims (R18). */
  crossShare: number;
  /** `inShare`: in-share preemptions (R20). */
  inShare: number;
  /**
   * `capacityLimitReduced`: over quota after an update, or a lowered service environment limit
   * (R22, R23).
   */
  capacityLimitReduced: number;
  /** `total`: the three above, summed. */
  total: number;
  /**
   * `restartedAtOnce`: of `total`, the preemptions whose victim was dispatched again the
   * instant its grace period ended (R21): the work it lost bought its preemptor nothing that
   * the victim did not get straight back.
   */
  restartedAtOnce: number;
  /**
   * `caused`: preemptions this share's jobs caused, of jobs of any share: the reclaims
   * (R18) and in-share preemptions (R20) whose preemptor is one of its jobs (R22 and R23
   * preemptions have no preemptor). Not part of `total`, which counts the share's victims;
   * overall, every preemption with a preemptor.
   */
  caused: number;
}

/** R26 fairness: how much of what a share was entitled to it held. */
export interface Fairness {
  /**
   * `entitlementRatio`: held instance-seconds over entitled instance-seconds (above 1 when
   * borrowing); `null` when the share (or run) was never entitled to anything.
   */
  entitlementRatio: number | null;
  /**
   * `jainIndex`, overall only: Jain's index (sum x)^2 / (k sum x^2) over the k shares with a
   * ratio; 1 when every share got the same share of its entitlement. `null` per share.
   */
  jainIndex: number | null;
}

/** One harmed job. */
export interface WhyHarm {
  /** `jobName`: the harmed job. */
  jobName: string;
  /** How its fate changed (the comparison's words). */
  description: string;
}

/** One run of a catalogue entry. */
export interface WhyTested {
  /** `value`: the value tried. */
  value: unknown;
  /** `reaches`: whether the run with it reaches the target. */
  reaches: boolean;
  /** Why the changed scenario did not run (invalid, or a run error). */
  note?: string;
}

/**
 * What became of a catalogue entry.
 * - `"found"`: A value reached the target (it is among the changes).
 * - `"notFound"`: No value reached it.
 * - `"notApplicable"`: Not tried: it does not apply to this job or event.
 * - `"budgetExhausted"`: Not tried: its worst case needs more runs than were left.
 */
export type WhyOutcome = "found" | "notFound" | "notApplicable" | "budgetExhausted";

/**
 * A duration distribution; every draw is clamped to `minSeconds..=maxSeconds`.
 * - `"fixed"`: Always `minSeconds`.
 * - `"uniform"`: Uniform between `minSeconds` and `maxSeconds`.
 * - `"exponential"`: Exponential with the mean of `minSeconds` and `maxSeconds`.
 * - `"pareto"`: Heavy-tailed: Pareto with shape 1.5 and scale `minSeconds`.
 * - `"empirical"`: One of `values`, uniformly (an observed sample, as `fit-workload` writes it).
 */
export type Distribution = "fixed" | "uniform" | "exponential" | "pareto" | "empirical";

/**
 * Seconds `RUNNABLE` by what held the job at each instant (the wait breakdown): its share's
 * front job's R17 cause, the quota reason split by what binds, or `behind` its share's front
 * job (R12). A job's result lists only causes with time; a summary lists every cause.
 */
export interface RunnableSecondsByCause {
  quotaUsed: number;
  borrowLimit: number;
  cannotBorrow: number;
  limitLowered: number;
  pool: number;
  serviceEnvironment: number;
  preemptionInProgress: number;
  misconfiguration: number;
  behind: number;
}

/**
 * What `eta` and `etaJson` forecast and how: `quotasim eta`'s options, with its defaults.
 * `null` is the same as leaving a field out.
 */
export interface EtaOptions {
  /** The jobs to forecast (`--job`); default: every queued job (and the submitted one). */
  jobs?: Array<string>;
  /** A job to submit at `startAt` (`--submit`, an object or its JSON text): its band and whom it would preempt. */
  submit?: Job | string;
  /** Changes to the state before forecasting (`--set`), `"PATH=VALUE"`; the draws stay the same. */
  set?: Array<string>;
  /** Replicates, 1 to 100000 (default 200). */
  replicates?: number;
  /** The draws' seed (default 0). */
  seed?: number;
  /** Seconds after `startAt` the runs stop at (default 86400). */
  horizon?: number;
  /**
   * Where durations come from (default: `"history"` when the state has one, else `"workload"`
   * when it has a `workload` section, else `"timeout"`).
   */
  durations?: "history" | "workload" | "timeout" | "exact";
  /**
   * Which jobs arrive after `startAt` (default `"listed"`; `"none"`: the queue as it is;
   * `"workload"`: drawn at the `workload` section's rates instead of the listed later jobs).
   */
  arrivals?: "listed" | "none" | "workload";
  /** Aborts the forecast: `eta` rejects (and `etaJson` throws) a `DOMException` named `AbortError`. */
  signal?: AbortSignalLike;
  /** Called after each slice of replicates: how many have run, of how many. */
  onProgress?: (done: number, total: number) => void;
}

/**
 * What `why` and `whyJson` explain and how: `quotasim why`'s options, with its defaults.
 * `null` is the same as leaving a field out.
 */
export interface WhyOptions {
  /** The job's preemption to explain, from 1 (`--preemption`); default the first, or its wait when it is never preempted. */
  preemption?: number;
  /** For a wait: how many seconds earlier it must start (`--by`); default half its wait. */
  by?: number;
  /** Most runs of the scenario, the baseline included, 1 to 10000 (`--max-runs`, default 50). */
  maxRuns?: number;
}

/**
 * How `sweep` runs: `signal` aborts it, `onRow` sees each row as it is done, `replicates`
 * runs each point on several seeds.
 * `null` is the same as leaving a field out.
 */
export interface SweepOptions {
  /** Aborts the sweep: `sweep` rejects (and `sweepJsonl` throws) a `DOMException` named `AbortError`. */
  signal?: AbortSignalLike;
  /**
   * Called as each row is done, in index order: the row, and its JSON text (the line
   * `quotasim sweep` prints for it, less `frontier` when the sweep has goals: the front needs
   * every row, and the rows `sweep` resolves to have it).
   */
  onRow?: (row: SweepRow, line: string) => void;
  /**
   * Runs every point on this many seeds of the base's workload, 1 to 1000 (`quotasim sweep
   * --replicates N`): rows carry `replicates`, `seeds` and `stats` (the median, min and max
   * of every number) instead of `summary`. Overrides the sweep file's `replicates`.
   */
  replicates?: number;
}

/**
 * What `recommend` and `recommendJson` search and how: `quotasim recommend`'s options, with
 * its defaults, and how the call runs. `null` is the same as leaving a field out.
 */
export interface RecommendOptions {
  /** A metric path to minimise instead of `capacityPerHour` (`--minimize`, no `*`). */
  minimize?: string;
  /** The space file (`--space`): capacities and quotas bounded, sharing narrowed, fields fixed or added. */
  space?: SpaceFile | string;
  /** Seeds of the workload each candidate runs on, 1 to 1000 (`--replicates`, default 1). */
  replicates?: number;
  /** The fraction of the seeds on which an objective must be met, above 0 and at most 1 (`--confidence`, default 1). */
  confidence?: number;
  /** Most single-seed runs, 1 to 1000000 (`--max-runs`, default 1000). */
  maxRuns?: number;
  /** Aborts the study: `recommend` rejects (and `recommendJson` throws) a `DOMException` named `AbortError`. */
  signal?: AbortSignalLike;
  /** Called after each slice with the runs made so far and the budget. */
  onProgress?: (runs: number, maxRuns: number) => void;
}

/** A file given to `importTrace`: its name (in warnings) and its text. */
export interface TraceFile {
  name: string;
  text: string;
}

/**
 * How `importTrace` reads job logs: `quotasim import trace`'s flags, with its defaults.
 * `null` is the same as leaving a field out.
 */
export interface TraceOptions {
  /** `"openb"`: the Alibaba GPU trace's pod list; `"csv"`: any CSV log, read through `columns` (`--format`). */
  format: "openb" | "csv";
  /** The column of each field (`--columns`): an object, or `"submit=submit_time,gpus=gpu_num,..."`. */
  columns?: string | {
    name?: string; submit?: string; start?: string; end?: string; duration?: string;
    gpus?: string; gpuMilli?: string; team?: string; priority?: string; status?: string;
  };
  /** GPUs per instance, 1 to 1024 (default 8). */
  gpusPerInstance?: number;
  /** Default: ml.g5.xlarge, ml.g5.12xlarge or ml.p5.48xlarge for 1, 4 or 8 GPUs per instance. */
  instanceType?: string;
  /** Team values to quota share names (`--teams`): `{VALUE: SHARE}` or `"VALUE=SHARE,..."`. */
  teams?: string | Record<string, string>;
  /** Priority values to schedulingPriority (`--priorities`): `{VALUE: NUMBER}` or `"VALUE=NUMBER,..."`. */
  priorities?: string | Record<string, number>;
  /** GPUs per team (`--capacity`): two columns (team, GPUs) or one column per team (last row counts). */
  capacity?: TraceFile;
  /** The service environment's instances without `capacity` (default: the log's peak). */
  instances?: number;
  /** Keep rows submitted at or after this time of the log (seconds). */
  from?: number;
  /** Keep rows submitted before this time of the log (seconds). */
  to?: number;
  /** Skip rows asking for fewer GPUs (1 keeps whole-GPU openb pods). */
  minGpus?: number;
  /** Shorter runs are raised to this (seconds; default 1). */
  minDuration?: number;
  /** Longer runs are cut to this (seconds). */
  maxDuration?: number;
  /** `checkpointIntervalSeconds` of every job. */
  checkpointInterval?: number;
}

/** What `importTrace` gives: the scenario `quotasim import trace` writes, its warnings, what each file held. */
export interface TraceImport {
  scenario: Scenario;
  /** Each skip or clamp, and each row that could not be read (an `error`), with its file, line and field. */
  warnings: Array<Problem>;
  recognised: Array<string>;
}

/** What `eta` reads of an `AbortSignal` (any `AbortSignal` is one). */
export interface AbortSignalLike {
  readonly aborted: boolean;
}
