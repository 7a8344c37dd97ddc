// The scenario and result shapes of Quotasim, generated from the engine's Rust types by
// web/tests/typescript.rs. Do not edit: after changing those types run
// `QUOTASIM_UPDATE_TYPES=1 cargo test -p quotasim-wasm --test typescript`.
// Times are whole seconds of simulated time from 0; capacities are counted in instances.

/** One whole simulation (format spec, "Scenario"). */
export interface Scenario {
  formatVersion?: number;
  name?: string | null;
  description?: string | null;
  settings?: Settings;
  instanceTypes?: Array<InstanceTypeInfo>;
  serviceEnvironment: ServiceEnvironment;
  schedulingPolicy?: SchedulingPolicy | null;
  quotaShares?: Array<QuotaShare>;
  /** Jobs described by generator settings, expanded after `jobs` (`crate::workload`). */
  workload?: Workload | null;
  /** At most 2,000,000 jobs (`MAX_JOBS`); a longer list is refused while it is read. */
  jobs?: Array<Job>;
  actions?: Array<Action>;
}

/** What to generate. `GenerateOptions::new` gives the documented defaults. */
export interface GenerateOptions {
  jobs?: number;
  shares?: number;
  instanceTypes?: number;
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
  formatVersion?: number;
  objectives: Array<Objective>;
}

/** A sweep file. */
export interface SweepFile {
  formatVersion?: number;
  /** A scenario file's path (relative to the sweep file), or a scenario. */
  base: unknown;
  axes: Array<Axis>;
  frontier?: Array<string>;
}

/**
 * One input file of an import from a front end without files (npm, the playground): its name
 * (used in warnings) and its text.
 */
export interface AwsFile {
  name: string;
  text: string;
  /** Other fields are accepted and ignored. */
  [key: string]: unknown;
}

/** What actually happened: `quotasim import aws --observed` and `quotasim calibrate`'s input. */
export interface Observed {
  formatVersion: number;
  /** The absolute time (epoch milliseconds) of `submitAt` 0. */
  originEpochMillis: number;
  jobs: Array<ObservedJob>;
}

/** One thing wrong (or worth knowing) about a scenario. */
export interface Problem {
  /** Path of the field in the scenario JSON, e.g. `jobs[3].instanceCount`; empty for the root. */
  path: string;
  severity: Severity;
  message: string;
}

/** The whole result of a run (format spec, "Result (JSON)"). */
export interface SimResult {
  formatVersion: number;
  endedAt: number;
  jobs: Array<JobResult>;
  events: Array<SimEvent>;
  summary: Summary;
}

/** `--summary`: the result without the per-job and per-event lists. */
export interface SummaryResult {
  formatVersion: number;
  endedAt: number;
  summary: Summary;
}

/** R25: the engine's form of `GetJobQueueSnapshot.queueUtilization`. */
export interface Snapshot {
  at: number;
  types: Array<TypeTotals>;
  shares: Array<ShareTypeUsage>;
  /** Jobs per status now, in `Status` order; `notSubmitted` counts jobs not yet submitted. */
  jobCounts: JobCounts;
}

/** What one benchmark run did (`quotasim bench`, and `BenchWorkload.run` in the npm package). */
export interface BenchRun {
  /** R24 events, whether or not the event list was recorded. */
  events: number;
  /** Jobs preempted at least once. */
  preemptedJobs: number;
  endedAt: number;
}

/** `quotasim compare`'s JSON. */
export interface Comparison {
  formatVersion: number;
  a: SummaryResult;
  b: SummaryResult;
  /** The `--set` changes that made B from A, or `["second file"]`. */
  changes: Array<string>;
  /** What the two scenarios do not share (quota shares on one side only). */
  differences: Array<string>;
  delta: Delta;
  changedJobs: Array<ChangedJob>;
}

/** The result of checking objectives (`quotasim check`). */
export interface Report {
  formatVersion: number;
  /** Every objective met. */
  met: boolean;
  verdicts: Array<Verdict>;
}

/**
 * One row's outcome: `quotasim sweep`'s JSONL line. `frontier` is the last field, so that a
 * row can be printed before the front is known and the flag appended (and set again by
 * `sweep-merge`).
 */
export interface SweepRow {
  row: number;
  values: Array<unknown>;
  changes: Array<string>;
  summary?: SummaryResult;
  error?: string;
  objectives?: Record<string, number | null>;
  frontier?: boolean;
}

/** `quotasim compare --replicates`'s JSON. */
export interface ReplicateReport {
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
  overall: Record<string, MetricStats>;
}

/** `quotasim calibrate`'s JSON. */
export interface Calibration {
  formatVersion: number;
  perQuotaShare: Array<ShareCalibration>;
  /** Jobs in the scenario but not observed, and the other way round. */
  unmatched: Array<string>;
  mostDifferent: Array<JobDifference>;
}

/** Simulation settings; every field is optional and defaults as documented in the format spec. */
export interface Settings {
  /** R21: how long a told-to-stop job keeps its capacity. */
  preemptionGraceSeconds?: number;
  /** R6: time spent in `SCHEDULED` before `STARTING`. */
  scheduledSeconds?: number;
  /** R6: time spent in `STARTING` before `RUNNING`. */
  startingSeconds?: number;
  /** R12: let later jobs of a share go first when its front job cannot. */
  backfill?: boolean;
  /** R19 step 2. */
  victimOrder?: VictimOrder;
  /** R8: a checkpointing job also saves at the stop signal. */
  checkpointOnStop?: boolean;
  /** R8: how long that save takes; it must fit in the grace period. */
  checkpointSaveSeconds?: number;
  /** Stop the simulation at this time (`None`: run until nothing is left to happen). */
  horizonSeconds?: number | null;
  /** What is paid for, for the cost metrics (R26). */
  billing?: Billing;
}

/** An instance type's GPU count, used only for GPU-denominated metrics (R1). */
export interface InstanceTypeInfo {
  name: string;
  gpus?: number;
  /** Price of one instance for an hour, for the cost metrics (R26); any currency. */
  pricePerHour?: number | null;
}

/** R1: the service environment and its capacity limits. */
export interface ServiceEnvironment {
  serviceEnvironmentName?: string | null;
  capacityLimits: Array<CapacityLimit>;
  serviceEnvironmentArn?: unknown;
  serviceEnvironmentType?: unknown;
  state?: unknown;
  status?: unknown;
  statusReason?: unknown;
  tags?: unknown;
  createdAt?: unknown;
  clientToken?: unknown;
}

/** The AWS `schedulingPolicy` shape; `FIFO` is the only idle-resource strategy. */
export interface SchedulingPolicy {
  name?: string | null;
  quotaSharePolicy?: QuotaSharePolicy | null;
  arn?: unknown;
  tags?: unknown;
}

/** R2: a team's quota share. */
export interface QuotaShare {
  quotaShareName: string;
  capacityLimits: Array<CapacityLimit>;
  resourceSharingConfiguration: ResourceSharing;
  preemptionConfiguration?: SharePreemption;
  state?: ShareState;
  quotaShareArn?: unknown;
  jobQueue?: unknown;
  status?: unknown;
  statusReason?: unknown;
  tags?: unknown;
  createdAt?: unknown;
  clientToken?: unknown;
}

/** A scenario's `workload` section: jobs described by generator settings. */
export interface Workload {
  /** The seed of every draw; `seed`, `seed + 1`, ... are replicates. */
  seed?: number;
  /** Jobs in all, split over the entries without their own `jobs` by `weight`. */
  jobs?: number | null;
  /**
   * Offered load, as a percentage of the capacity shares own, for entries without an
   * `arrivalsPerHour`.
   */
  loadPercent?: number | null;
  /** When arrivals start, seconds. */
  startAt?: number;
  /** One entry per quota share that submits work. */
  shares: Array<ShareWorkload>;
}

/** R5: one training job. */
export interface Job {
  jobName: string;
  quotaShareName: string;
  schedulingPriority?: number;
  /** Given directly, or through `serviceRequestPayload.ResourceConfig.InstanceType`. */
  instanceType?: string | null;
  instanceCount?: number | null;
  submitAt?: number;
  durationSeconds: number;
  checkpointIntervalSeconds?: number | null;
  timeoutSeconds?: number | null;
  preemptionConfiguration?: JobPreemption | null;
  /** The AWS `SubmitServiceJob` payload, as an object or a JSON string. */
  serviceRequestPayload?: ServiceRequestPayload | string | null;
  jobArn?: unknown;
  jobId?: unknown;
  jobQueue?: unknown;
  status?: unknown;
  statusReason?: unknown;
  serviceJobType?: unknown;
  createdAt?: unknown;
  tags?: unknown;
  clientToken?: unknown;
  retryStrategy?: unknown;
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

/** One bound on one metric (or one per share, with `*`). */
export interface Objective {
  metric: string;
  min?: number | null;
  max?: number | null;
}

/** One varied parameter. */
export interface Axis {
  path: string;
  values?: Array<unknown> | null;
  range?: Range | null;
}

/**
 * One job as observed: what `--observed` writes (the result format's job shape, seconds
 * from the origin).
 */
export interface ObservedJob {
  jobName: string;
  quotaShareName: string;
  status?: Status | null;
  submitAt: number;
  firstStartedAt?: number | null;
  stoppedAt?: number | null;
  preemptions: number;
  /** Instance-seconds held over all attempts. */
  instanceSeconds: number;
}

export type Severity = "error" | "warning";

/** A job as `DescribeServiceJob` would show it at the end of the run. */
export interface JobResult {
  jobName: string;
  quotaShareName: string;
  status: Status | null;
  statusReason: string | null;
  schedulingPriority: number;
  submitAt: number;
  firstStartedAt: number | null;
  stoppedAt: number | null;
  preemptionSummary: PreemptionSummary;
  attempts: Array<Attempt>;
  lostWorkSeconds: number;
}

/** R24: one state change or preemption step. */
export interface SimEvent {
  at: number;
  jobName: string;
  quotaShareName: string;
  type: EventType;
  status: Status | null;
  statusReason: string | null;
  /**
   * The job whose dispatch needed this preemption (preemption events; `null` when the
   * service environment's capacity was lowered).
   */
  preemptedBy?: string | null;
  reason?: string;
  /** The victim's `preemptedAttemptCount`, this preemption included. */
  preemptedAttemptCount?: number;
  /** Training seconds this preemption lost (R8). */
  lostWorkSeconds?: number;
}

export interface Summary {
  /** Keyed by quota share name, in input order. */
  perQuotaShare: Record<string, Metrics>;
  overall: Metrics;
}

/** R25: totals of one instance type at an instant. */
export interface TypeTotals {
  capacityUnit: string;
  gpusPerInstance: number;
  /** The service environment's limit (`null`: none, jobs of this type never run). */
  serviceEnvironmentCapacity: number | null;
  usage: number;
  free: number;
  poolCapacity: number;
  poolUsage: number;
  poolAvailable: number;
  borrowed: number;
  /** Borrowed instances no lender's idle quota accounts for (after a lowered limit). */
  unattributedBorrowed: number;
}

/** R25: one quota share's use of one instance type at an instant. */
export interface ShareTypeUsage {
  quotaShareName: string;
  capacityUnit: string;
  quota: number;
  /** Instances held by the share's jobs (`SCHEDULED`, `STARTING`, `RUNNING`). */
  usage: number;
  withinQuota: number;
  overQuota: number;
  /** Over-quota usage attributed to lenders (R15), as `{lender, instances}`. */
  borrowed: number;
  borrowedFrom: Array<Flow>;
  /** Idle quota of this share used by borrowers (R15). */
  lent: number;
  lentTo: Array<Flow>;
  idle: number;
  /** Instances earmarked for this share's waiting preemptor (R21). */
  earmarked: number;
}

export interface JobCounts {
  notSubmitted: number;
  runnable: number;
  scheduled: number;
  starting: number;
  running: number;
  succeeded: number;
  failed: number;
}

/**
 * B - A for every number of the summary, keyed by its metric path relative to the share or
 * to `overall` (`waitSeconds.p95`); `null` where either side has none.
 */
export interface Delta {
  /** Per quota share present on both sides, in A's order. */
  perQuotaShare: Record<string, Record<string, number | null>>;
  overall: Record<string, number | null>;
  /** `endedAt` of B minus A's. */
  endedAt: number;
}

/** A job whose fate differs, or that is on one side only. */
export interface ChangedJob {
  jobName: string;
  /** `changed`, `added` (only in B) or `removed` (only in A). */
  change: string;
  a: Fate | null;
  b: Fate | null;
  /** One line: `starts 42 min later`, `no longer preempted`, `fails: retry limit`. */
  description: string;
}

/** One objective checked on one metric. */
export interface Verdict {
  /** The objective, as `objectives[i]`. */
  objective: string;
  /** The metric, with a share name in place of `*`. */
  metric: string;
  min: number | null;
  max: number | null;
  value: number | null;
  /** The value under the baseline scenario, when one was given. */
  baseline?: number | null;
  met: boolean;
}

/** One metric over the replicates. */
export interface MetricStats {
  a: Spread | null;
  b: Spread | null;
  /** Of the paired differences B - A. */
  delta: Spread | null;
  /**
   * Seeds where B is higher, lower, the same (seeds where either side has no value are
   * left out).
   */
  up: number;
  down: number;
  same: number;
  /** How many seeds agree with the most common direction. */
  agree: number;
}

/** One share, simulated and observed. */
export interface ShareCalibration {
  quotaShareName: string;
  jobs: number;
  waitP50: Pair;
  waitP95: Pair;
  preemptions: Pair;
  gpuHours: Pair;
}

/** A job whose simulated fate differs from the observed one. */
export interface JobDifference {
  jobName: string;
  quotaShareName: string;
  simulated: string;
  observed: string;
  /** Seconds of first-start difference, plus an hour per preemption or status that differs. */
  score: number;
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
  capacityUnit: string;
  maxCapacity: number;
}

export interface QuotaSharePolicy {
  idleResourceAssignmentStrategy?: string | null;
}

/** `resourceSharingConfiguration`. */
export interface ResourceSharing {
  strategy: Strategy;
  /**
   * Percent of the share's quota it may borrow on top; -1 = unlimited. Only with
   * `LEND_AND_BORROW` (R2); `None` means the default -1.
   */
  borrowLimit?: number | null;
}

/** `preemptionConfiguration` of a quota share. */
export interface SharePreemption {
  inSharePreemption?: Toggle;
}

export type ShareState = "ENABLED" | "DISABLED";

/** What one quota share submits. */
export interface ShareWorkload {
  quotaShareName: string;
  /** Its part of `workload.jobs` (default 1). */
  weight?: number | null;
  /** Its number of jobs, instead of a part of `workload.jobs`. */
  jobs?: number | null;
  /** Mean arrivals per hour (Poisson), instead of `workload.loadPercent`. */
  arrivalsPerHour?: number | null;
  /** Instance types to draw from, by weight. */
  instanceTypes: Array<WeightedType>;
  /**
   * Instance counts to draw from, by weight (default: 1 instance). A count above the share's
   * quota of the drawn type is lowered to that quota.
   */
  sizes?: Array<WeightedSize>;
  duration: DurationSpec;
  /** Priorities to draw from, by weight (default: 0). */
  priorities?: Array<WeightedPriority>;
  /** Which jobs checkpoint, and how often (default: none). */
  checkpoint?: PercentOf | null;
  /** Which jobs set `preemptionRetriesBeforeTermination`, and to what (default: none). */
  preemptionRetries?: PercentOf | null;
}

/** `preemptionConfiguration` of a job (R7). */
export interface JobPreemption {
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
  quotaShareName: string;
  capacityLimits?: Array<CapacityLimit> | null;
  resourceSharingConfiguration?: ResourceSharing | null;
  preemptionConfiguration?: SharePreemption | null;
  state?: ShareState | null;
}

export interface UpdateServiceEnvironment {
  capacityLimits: Array<CapacityLimit>;
  /** The AWS request names the environment; there is only one here. */
  serviceEnvironment?: unknown;
}

/** `from`, `from + step`, ... up to `to` inclusive. */
export interface Range {
  from: number;
  to: number;
  step: number;
}

/** R6: a job's status. */
export type Status = "SUBMITTED" | "RUNNABLE" | "SCHEDULED" | "STARTING" | "RUNNING" | "SUCCEEDED" | "FAILED";

export interface PreemptionSummary {
  preemptedAttemptCount: number;
  recentPreemptedAttempts: Array<PreemptedAttempt>;
}

/** One attempt of a job: from dispatch (`SCHEDULED`) to releasing its capacity. */
export interface Attempt {
  startedAt: number;
  stoppedAt: number | null;
  borrowedInstances: number;
  statusReason: string | null;
}

export type EventType = "STATE_CHANGE" | "PREEMPTION_STARTED" | "PREEMPTION_COMPLETED";

/** R26 metrics of one quota share, or of the whole run. */
export interface Metrics {
  jobs: number;
  succeeded: number;
  failed: number;
  neverRunnable: number;
  unfinished: number;
  instanceSeconds: number;
  instanceSecondsOwn: number;
  instanceSecondsBorrowed: number;
  instanceSecondsLent: number;
  instanceHours: number;
  gpuHours: number;
  gpuHoursOwn: number;
  gpuHoursBorrowed: number;
  /**
   * Instance-seconds used over the service environment's instance-seconds (overall), or
   * over the share's quota instance-seconds (per share; may exceed 1 when borrowing).
   */
  utilization: number | null;
  waitSeconds: Percentiles;
  completionSeconds: Percentiles;
  preemptions: PreemptionCounts;
  lostInstanceSeconds: number;
  lostGpuHours: number;
  /**
   * Held over entitled instance-seconds (entitlement: min(quota, queued + held) per type),
   * and overall Jain's index of the shares' ratios.
   */
  fairness: Fairness;
  /** Entitled instance-seconds not held: max(0, entitlement - held) per type, over time. */
  fairnessDeficitInstanceSeconds: number;
  /**
   * What the share (or the run) cost, when instance types have prices
   * (`instanceTypes[].pricePerHour`); `null` otherwise. See `settings.billing`.
   */
  cost: number | null;
  /** The price of the training lost to preemption (R8). */
  lostCost: number | null;
  /** With `committed` billing: the price of quota neither used nor lent. */
  idleQuotaCost: number | null;
  /** Overall only, with `committed` billing: capacity that belongs to no share. */
  unassignedCost: number | null;
  /** Overall only: cost over the GPU-hours of training of succeeded jobs. */
  costPerUsefulGpuHour: number | null;
  /** From the first instant a front job needed a reclaim (R18) to its dispatch. */
  reclaimLatencySeconds: Percentiles;
  /** The most preemptions any one job of the share (or of the run) suffered. */
  maxPreemptionsPerJob: number;
  /** Jobs preempted more than once. */
  jobsPreemptedMoreThanOnce: number;
  /** Training instance-seconds of succeeded jobs over instance-seconds held. */
  goodput: number | null;
}

/** A number of instances flowing between two shares (R15 attribution). */
export interface Flow {
  quotaShareName: string;
  instances: number;
}

/** What happened to one job on one side. */
export interface Fate {
  quotaShareName: string;
  status: Status | null;
  statusReason: string | null;
  firstStartedAt: number | null;
  waitSeconds: number | null;
  preemptions: number;
  lostWorkSeconds: number;
}

/** Median, min and max of some numbers. */
export interface Spread {
  median: number;
  min: number;
  max: number;
}

/** A simulated value and the observed one (`null` when there is none). */
export interface Pair {
  simulated: number | null;
  observed: number | null;
}

/** R4: what a share does with idle quota. */
export type Strategy = "RESERVE" | "LEND" | "LEND_AND_BORROW";

export type Toggle = "ENABLED" | "DISABLED";

/** `{name, weight}`. */
export interface WeightedType {
  name: string;
  weight?: number;
}

/** `{instances, weight}`. */
export interface WeightedSize {
  instances: number;
  weight?: number;
}

/** How long jobs train, seconds. */
export interface DurationSpec {
  distribution: Distribution;
  minSeconds: number;
  maxSeconds: number;
}

/** `{priority, weight}`. */
export interface WeightedPriority {
  priority: number;
  weight?: number;
}

/** `percent` of the jobs take one of `values`, drawn uniformly. */
export interface PercentOf {
  percent: number;
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

export interface PreemptedAttempt {
  startedAt: number;
  stoppedAt: number;
  statusReason: string;
}

/** Wait or completion times: percentiles by nearest rank, in seconds. */
export interface Percentiles {
  count: number;
  p50: number | null;
  p90: number | null;
  p95: number | null;
  p99: number | null;
  max: number | null;
}

export interface PreemptionCounts {
  crossShare: number;
  inShare: number;
  capacityLimitReduced: number;
  total: number;
}

/** R26 fairness: how much of what a share was entitled to it held. */
export interface Fairness {
  /**
   * Held instance-seconds over entitled instance-seconds (above 1 when borrowing); `null`
   * when the share (or run) was never entitled to anything.
   */
  entitlementRatio: number | null;
  /**
   * Overall only: Jain's index (sum x)^2 / (k sum x^2) over the k shares with a ratio; 1 when
   * every share got the same share of its entitlement. `null` per share.
   */
  jainIndex: number | null;
}

/**
 * A duration distribution; every draw is clamped to `minSeconds..=maxSeconds`.
 * - `"fixed"`: Always `minSeconds`.
 * - `"uniform"`: Uniform between `minSeconds` and `maxSeconds`.
 * - `"exponential"`: Exponential with the mean of `minSeconds` and `maxSeconds`.
 * - `"pareto"`: Heavy-tailed: Pareto with shape 1.5 and scale `minSeconds`.
 */
export type Distribution = "fixed" | "uniform" | "exponential" | "pareto";
