//! The result shapes of the format spec ("Result (JSON)"): jobs, events, snapshot, summary.
//!
//! Field order is the JSON key order, so these structs are the contract.

use alloc::string::String;
use alloc::vec::Vec;

#[cfg(feature = "serde")]
use serde::Serialize;

/// R6: a job's status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "SCREAMING_SNAKE_CASE"))]
pub enum Status {
    /// Accepted at `submitAt`; it is `RUNNABLE` at the same instant.
    Submitted,
    /// Queued in its share, waiting to be dispatched (R11, R17).
    Runnable,
    /// Dispatched and holding its instances; `STARTING` after `settings.scheduledSeconds`.
    Scheduled,
    /// Holding its instances; `RUNNING` after `settings.startingSeconds`.
    Starting,
    /// Training (R8) on its instances.
    Running,
    /// All its training is done.
    Succeeded,
    /// Ended without finishing: timeout (R9), termination (R23), retry limit (R7) or a submission
    /// to a `DISABLED` share (R6).
    Failed,
}

impl Status {
    /// The AWS spelling, as in the JSON (`RUNNABLE`, `SUCCEEDED`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Submitted => "SUBMITTED",
            Status::Runnable => "RUNNABLE",
            Status::Scheduled => "SCHEDULED",
            Status::Starting => "STARTING",
            Status::Running => "RUNNING",
            Status::Succeeded => "SUCCEEDED",
            Status::Failed => "FAILED",
        }
    }
    /// Whether a job in this status holds capacity (R6).
    pub fn holds_capacity(self) -> bool {
        matches!(self, Status::Scheduled | Status::Starting | Status::Running)
    }
    /// Whether the job has ended for good (`SUCCEEDED` or `FAILED`).
    pub fn is_terminal(self) -> bool {
        matches!(self, Status::Succeeded | Status::Failed)
    }
}

pub use crate::reasons::PreemptionKind;

/// R24: an event's `type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "SCREAMING_SNAKE_CASE"))]
pub enum EventType {
    /// `STATE_CHANGE`: the job's status changed (R6).
    StateChange,
    /// `PREEMPTION_STARTED`: the job was told to stop; its status is unchanged (R21).
    PreemptionStarted,
    /// `PREEMPTION_COMPLETED`: its grace period ended and it released its instances (R21).
    PreemptionCompleted,
}

/// R24: one state change or preemption step.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Event {
    /// `at`: when it happened, in seconds of simulated time.
    pub at: u64,
    /// `jobName`: the job it happened to.
    pub job_name: String,
    /// `quotaShareName`: that job's quota share.
    pub quota_share_name: String,
    /// `type`: a state change or a preemption step.
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    pub event_type: EventType,
    /// `status`: the job's status after the event (unchanged by `PREEMPTION_STARTED`).
    pub status: Option<Status>,
    /// `statusReason`: why (R17; `PREEMPTION_IN_PROGRESS: ...` on `PREEMPTION_STARTED`); `null`
    /// when there is no reason.
    pub status_reason: Option<String>,
    /// `preemptedBy`: the job whose dispatch needed this preemption (preemption events; `null`
    /// when the service environment's capacity was lowered).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_state_change_none"))]
    pub preempted_by: Option<Option<String>>,
    /// `reason`: preemption events only: why the victim was preempted (R18, R20, R22).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub reason: Option<String>,
    /// `preemptedAttemptCount` (preemption events): the victim's count, this preemption
    /// included (R7).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub preempted_attempt_count: Option<u32>,
    /// `lostWorkSeconds` (preemption events): training seconds this preemption lost (R8).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub lost_work_seconds: Option<u64>,
}

#[cfg(feature = "serde")]
fn is_state_change_none(v: &Option<Option<String>>) -> bool {
    v.is_none()
}

/// One attempt of a job: from dispatch (`SCHEDULED`) to releasing its capacity.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Attempt {
    /// `startedAt`: when it was dispatched (`SCHEDULED`), in seconds.
    pub started_at: u64,
    /// `stoppedAt`: when it released its instances; `null` while it holds them.
    pub stopped_at: Option<u64>,
    /// `borrowedInstances`: how many of its instances were above its share's quota at dispatch
    /// (R14).
    pub borrowed_instances: u64,
    /// `statusReason`: why it ended (preemption, timeout, termination); `null` when it succeeded or
    /// still holds its instances.
    pub status_reason: Option<String>,
}

/// An attempt ended by a preemption, as listed in `recentPreemptedAttempts` (R7).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct PreemptedAttempt {
    /// `startedAt`: when it was dispatched, in seconds.
    pub started_at: u64,
    /// `stoppedAt`: when it released its instances (`Preemption Completed`), in seconds.
    pub stopped_at: u64,
    /// `statusReason`: the preemption's reason (R18, R20, R22).
    pub status_reason: String,
}

/// R7: a job's `preemptionSummary`, as `DescribeServiceJob` shows it.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct PreemptionSummary {
    /// `preemptedAttemptCount`: the job's preemptions, each counted when it completes (R7).
    pub preempted_attempt_count: u32,
    /// `recentPreemptedAttempts`: every attempt ended by a preemption, first to last.
    pub recent_preempted_attempts: Vec<PreemptedAttempt>,
}

/// A job as `DescribeServiceJob` would show it at the end of the run.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct JobResult {
    /// `jobName`: the job's name.
    pub job_name: String,
    /// `quotaShareName`: its quota share.
    pub quota_share_name: String,
    /// `status`: its status at `endedAt`; `null` when it was not submitted yet.
    pub status: Option<Status>,
    /// `statusReason`: the reason shown at `endedAt`: why it waits (R17), `PREEMPTION_IN_PROGRESS:
    /// ...` (R21) or why it failed; `null` otherwise.
    pub status_reason: Option<String>,
    /// `schedulingPriority`: its priority at `endedAt`, updates included (R23).
    pub scheduling_priority: u32,
    /// `submitAt`: when it was submitted, in seconds.
    pub submit_at: u64,
    /// `firstStartedAt`: when its first attempt was dispatched; `null` if none was.
    pub first_started_at: Option<u64>,
    /// `stoppedAt`: when it succeeded or failed; `null` while it has not.
    pub stopped_at: Option<u64>,
    /// `preemptionSummary`: its preemptions (R7).
    pub preemption_summary: PreemptionSummary,
    /// `attempts`: every attempt, first to last, the current one included.
    pub attempts: Vec<Attempt>,
    /// `lostWorkSeconds`: training seconds its preemptions lost (R8), counted from each stop
    /// signal.
    pub lost_work_seconds: u64,
    /// `runnableSecondsByCause`: its time `RUNNABLE` (from submission, or `startAt`, to its
    /// first dispatch, and from each requeue after a preemption to its next dispatch, or to
    /// `endedAt`) split by what held it at each instant, in seconds: `quotaUsed`,
    /// `borrowLimit`, `cannotBorrow`, `limitLowered`, `pool`, `serviceEnvironment`,
    /// `preemptionInProgress`, `misconfiguration`, `behind`. Only causes with time, in that
    /// order; they add up to its time `RUNNABLE` exactly.
    #[cfg_attr(feature = "serde", serde(serialize_with = "ser_causes_nonzero"))]
    pub runnable_seconds_by_cause: CauseSeconds,
}

/// Seconds by wait cause, indexed in [`crate::reasons::WaitCause::ALL`] order; in JSON an
/// object keyed by [`crate::reasons::WaitCause::key`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct CauseSeconds(pub [u64; 9]);

impl CauseSeconds {
    /// The seconds of one cause.
    pub fn get(&self, c: crate::reasons::WaitCause) -> u64 {
        self.0[c as usize]
    }

    /// The seconds of every cause.
    pub fn total(&self) -> u64 {
        self.0.iter().fold(0u64, |a, &b| a.saturating_add(b))
    }

    /// `(cause, seconds)` for every cause with time, in [`crate::reasons::WaitCause::ALL`] order.
    pub fn nonzero(&self) -> impl Iterator<Item = (crate::reasons::WaitCause, u64)> + '_ {
        crate::reasons::WaitCause::ALL.iter().map(|&c| (c, self.0[c as usize])).filter(|x| x.1 > 0)
    }
}

#[cfg(feature = "serde")]
fn ser_causes_nonzero<S: serde::Serializer>(v: &CauseSeconds, s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut m = s.serialize_map(None)?;
    for (c, secs) in v.nonzero() {
        m.serialize_entry(c.key(), &secs)?;
    }
    m.end()
}

#[cfg(feature = "serde")]
fn ser_causes_all<S: serde::Serializer>(v: &CauseSeconds, s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut m = s.serialize_map(Some(9))?;
    for c in crate::reasons::WaitCause::ALL {
        m.serialize_entry(c.key(), &v.0[c as usize])?;
    }
    m.end()
}

/// R25: one quota share's use of one instance type at an instant.
#[derive(Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct ShareTypeUsage {
    /// `quotaShareName`: the share.
    pub quota_share_name: String,
    /// `capacityUnit`: the instance type.
    pub capacity_unit: String,
    /// `quota`: the share's own quota of this type now (R13 `Q_S`), in instances.
    pub quota: u64,
    /// `usage`: instances held by the share's jobs (`SCHEDULED`, `STARTING`, `RUNNING`; jobs
    /// being preempted included, R21).
    pub usage: u64,
    /// `withinQuota`: the part of `usage` within the quota, min(usage, quota).
    pub within_quota: u64,
    /// `overQuota`: the part of `usage` above the quota, max(0, usage - quota).
    pub over_quota: u64,
    /// `borrowed`: instances counted as borrowed (R15): `overQuota`, over quota after an update
    /// (R22) included.
    pub borrowed: u64,
    /// `borrowedFrom`: `borrowed` attributed to lenders (R15), one `{quotaShareName, instances}`
    /// per lender.
    pub borrowed_from: Vec<Flow>,
    /// `lent`: instances of this share's idle quota used by borrowers (R15).
    pub lent: u64,
    /// `lentTo`: `lent` per borrower, one `{quotaShareName, instances}` each (R15).
    pub lent_to: Vec<Flow>,
    /// `idle`: quota neither held nor lent, in instances.
    pub idle: u64,
    /// `earmarked`: instances earmarked for this share's waiting preemptor (R21).
    pub earmarked: u64,
}

/// A number of instances flowing between two shares (R15 attribution).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Flow {
    /// `quotaShareName`: the other share: the lender in `borrowedFrom`, the borrower in `lentTo`.
    pub quota_share_name: String,
    /// `instances`: how many instances, attributed as R15 says.
    pub instances: u64,
}

/// R25: totals of one instance type at an instant.
#[derive(Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct TypeTotals {
    /// `capacityUnit`: the instance type.
    pub capacity_unit: String,
    /// `gpusPerInstance`: its GPUs per instance (R1; 0 when unknown).
    pub gpus_per_instance: u64,
    /// `serviceEnvironmentCapacity`: the service environment's limit, in instances (`null`:
    /// none, jobs of this type never run).
    pub service_environment_capacity: Option<u64>,
    /// `usage`: instances held by the jobs of every share.
    pub usage: u64,
    /// `free`: the service environment's limit (0 when none) minus `usage`; negative after a
    /// lowered limit (R13).
    pub free: i64,
    /// `poolCapacity`: the quotas of the lending shares, summed (R13).
    pub pool_capacity: u64,
    /// `poolUsage`: instances held by the jobs of the lending shares.
    pub pool_usage: u64,
    /// `poolAvailable`: `poolCapacity - poolUsage`; negative after a lowered quota (R13).
    pub pool_available: i64,
    /// `borrowed`: instances held above their shares' quotas, summed over shares (R15).
    pub borrowed: u64,
    /// `unattributedBorrowed`: borrowed instances no lender's idle quota accounts for (after a
    /// lowered limit).
    pub unattributed_borrowed: u64,
}

/// R25: the engine's form of `GetJobQueueSnapshot.queueUtilization`.
#[derive(Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Snapshot {
    /// `at`: the instant, in seconds.
    pub at: u64,
    /// `types`: one entry per instance type that has a limit, a quota or usage.
    pub types: Vec<TypeTotals>,
    /// `shares`: one entry per share and instance type that has a quota or usage.
    pub shares: Vec<ShareTypeUsage>,
    /// `jobCounts`: jobs per status now, in `Status` order; `notSubmitted` counts jobs not yet
    /// submitted.
    pub job_counts: JobCounts,
}

/// R25: how many jobs are in each status at an instant.
#[derive(Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct JobCounts {
    /// `notSubmitted`: jobs whose `submitAt` has not come yet.
    pub not_submitted: u64,
    /// `runnable`: jobs `SUBMITTED` or `RUNNABLE`.
    pub runnable: u64,
    /// `scheduled`: jobs `SCHEDULED`.
    pub scheduled: u64,
    /// `starting`: jobs `STARTING`.
    pub starting: u64,
    /// `running`: jobs `RUNNING`.
    pub running: u64,
    /// `succeeded`: jobs `SUCCEEDED`.
    pub succeeded: u64,
    /// `failed`: jobs `FAILED`.
    pub failed: u64,
}

/// R26 wait, completion or reclaim-latency times: percentiles by nearest rank, in seconds.
#[derive(Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Percentiles {
    /// `count`: how many values (jobs) there are.
    pub count: u64,
    /// `p50`: the median; `null` when `count` is 0.
    pub p50: Option<u64>,
    /// `p90`: the 90th percentile; `null` when `count` is 0.
    pub p90: Option<u64>,
    /// `p95`: the 95th percentile; `null` when `count` is 0.
    pub p95: Option<u64>,
    /// `p99`: the 99th percentile; `null` when `count` is 0.
    pub p99: Option<u64>,
    /// `max`: the largest value; `null` when `count` is 0.
    pub max: Option<u64>,
}

/// R26 `preemptions`: how many times jobs of the share (or the run) were told to stop, by reason,
/// counted at `Preemption Started`.
#[derive(Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct PreemptionCounts {
    /// `crossShare`: reclaims (R18).
    pub cross_share: u64,
    /// `inShare`: in-share preemptions (R20).
    pub in_share: u64,
    /// `capacityLimitReduced`: over quota after an update, or a lowered service environment limit
    /// (R22, R23).
    pub capacity_limit_reduced: u64,
    /// `total`: the three above, summed.
    pub total: u64,
    /// `restartedAtOnce`: of `total`, the preemptions whose victim was dispatched again the
    /// instant its grace period ended (R21): the work it lost bought its preemptor nothing that
    /// the victim did not get straight back.
    pub restarted_at_once: u64,
    /// `caused`: preemptions this share's jobs caused, of jobs of any share: the reclaims
    /// (R18) and in-share preemptions (R20) whose preemptor is one of its jobs (R22 and R23
    /// preemptions have no preemptor). Not part of `total`, which counts the share's victims;
    /// overall, every preemption with a preemptor.
    pub caused: u64,
}

/// R26 fairness: how much of what a share was entitled to it held.
#[derive(Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Fairness {
    /// `entitlementRatio`: held instance-seconds over entitled instance-seconds (above 1 when
    /// borrowing); `null` when the share (or run) was never entitled to anything.
    pub entitlement_ratio: Option<f64>,
    /// `jainIndex`, overall only: Jain's index (sum x)^2 / (k sum x^2) over the k shares with a
    /// ratio; 1 when every share got the same share of its entitlement. `null` per share.
    pub jain_index: Option<f64>,
}

/// R26 metrics of one quota share, or of the whole run.
#[derive(Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Metrics {
    /// `jobs`: jobs of the share (or the run), submitted or not.
    pub jobs: u64,
    /// `succeeded`: jobs `SUCCEEDED` at `endedAt`.
    pub succeeded: u64,
    /// `failed`: jobs `FAILED` at `endedAt`.
    pub failed: u64,
    /// `neverRunnable`: jobs `RUNNABLE` at `endedAt` with a `MISCONFIGURATION` reason (R17); also
    /// in `unfinished`.
    pub never_runnable: u64,
    /// `unfinished`: jobs neither `SUCCEEDED` nor `FAILED` at `endedAt`, jobs not yet submitted
    /// included.
    pub unfinished: u64,
    /// `instanceSeconds`: instance-seconds held, from dispatch to release (R6).
    pub instance_seconds: u64,
    /// `instanceSecondsOwn`: the part of `instanceSeconds` within the share's quota.
    pub instance_seconds_own: u64,
    /// `instanceSecondsBorrowed`: the part of `instanceSeconds` above the share's quota (R14, R22).
    pub instance_seconds_borrowed: u64,
    /// `instanceSecondsLent`: instance-seconds of the share's idle quota used by borrowers (R15).
    pub instance_seconds_lent: u64,
    /// `instanceHours`: `instanceSeconds` in hours.
    pub instance_hours: f64,
    /// `gpuHours`: held GPU-hours: instance-seconds times GPUs per instance (R1), over 3600.
    pub gpu_hours: f64,
    /// `gpuHoursOwn`: the part of `gpuHours` within the share's quota.
    pub gpu_hours_own: f64,
    /// `gpuHoursBorrowed`: the part of `gpuHours` above the share's quota.
    pub gpu_hours_borrowed: f64,
    /// `gpuHoursLent`: `instanceSecondsLent` in GPU-hours: the share's idle quota that
    /// borrowers used (R15).
    pub gpu_hours_lent: f64,
    /// `utilization`: instance-seconds held over the service environment's instance-seconds
    /// (overall), or over the share's quota instance-seconds (per share; may exceed 1 when
    /// borrowing); `null` when the denominator is 0.
    pub utilization: Option<f64>,
    /// `waitSeconds`: submission to first `RUNNING`, in seconds, over the jobs that reached
    /// `RUNNING`.
    pub wait_seconds: Percentiles,
    /// `completionSeconds`: submission to `SUCCEEDED`, in seconds, over the jobs that succeeded.
    pub completion_seconds: Percentiles,
    /// `preemptions`: the share's jobs (or all jobs) told to stop, by reason.
    pub preemptions: PreemptionCounts,
    /// `lostInstanceSeconds`: training seconds lost to preemption (R8) times the victim's
    /// instances.
    pub lost_instance_seconds: u64,
    /// `lostGpuHours`: `lostInstanceSeconds` times GPUs per instance, in hours.
    pub lost_gpu_hours: f64,
    /// `fairness`: held over entitled instance-seconds (entitlement: min(quota, queued + held)
    /// per type), and overall Jain's index of the shares' ratios.
    pub fairness: Fairness,
    /// `fairnessDeficitInstanceSeconds`: entitled instance-seconds not held, max(0,
    /// entitlement - held) per type, over time.
    pub fairness_deficit_instance_seconds: u64,
    /// `cost`: what the share (or the run) cost, in the prices' currency, when instance types
    /// have prices (`instanceTypes[].pricePerHour`); `null` otherwise. See `settings.billing`.
    pub cost: Option<f64>,
    /// `lostCost`: the price of the training lost to preemption (R8); `null` without prices.
    pub lost_cost: Option<f64>,
    /// `idleQuotaCost`, with `committed` billing: the price of quota neither used nor lent;
    /// `null` otherwise.
    pub idle_quota_cost: Option<f64>,
    /// `unassignedCost`, overall only, with `committed` billing: the price of capacity that
    /// belongs to no share; `null` otherwise.
    pub unassigned_cost: Option<f64>,
    /// `costPerUsefulGpuHour`, overall only: `cost` over the GPU-hours of training of succeeded
    /// jobs; `null` without prices or without such GPU-hours.
    pub cost_per_useful_gpu_hour: Option<f64>,
    /// `reclaimLatencySeconds`: per job that needed a reclaim (R18), from the first instant it
    /// did to its dispatch, in seconds.
    pub reclaim_latency_seconds: Percentiles,
    /// `maxPreemptionsPerJob`: the most times any one job of the share (or of the run) was told
    /// to stop.
    pub max_preemptions_per_job: u64,
    /// `jobsPreemptedMoreThanOnce`: jobs told to stop more than once.
    pub jobs_preempted_more_than_once: u64,
    /// `goodput`: training instance-seconds of succeeded jobs over instance-seconds held;
    /// `null` when none were held.
    pub goodput: Option<f64>,
    /// `runnableSecondsByCause`: the jobs' time `RUNNABLE` by what held them (the sum of
    /// their `runnableSecondsByCause`), every cause listed, 0 included, so each is a metric
    /// path (`perQuotaShare.team-a.runnableSecondsByCause.pool`).
    #[cfg_attr(feature = "serde", serde(serialize_with = "ser_causes_all"))]
    pub runnable_seconds_by_cause: CauseSeconds,
}

/// R26: a result's `summary`: metrics per quota share and for the whole run.
#[derive(Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Summary {
    /// `perQuotaShare`: keyed by quota share name, in input order.
    #[cfg_attr(feature = "serde", serde(serialize_with = "ser_pairs"))]
    pub per_quota_share: Vec<(String, Metrics)>,
    /// `overall`: the whole run.
    pub overall: Metrics,
}

#[cfg(feature = "serde")]
fn ser_pairs<S: serde::Serializer>(v: &[(String, Metrics)], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut m = s.serialize_map(Some(v.len()))?;
    for (k, val) in v {
        m.serialize_entry(k, val)?;
    }
    m.end()
}

/// The whole result of a run (format spec, "Result (JSON)").
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct SimResult {
    /// `formatVersion`: 1.
    pub format_version: u32,
    /// `endedAt`: the time the run stands at, in seconds (with `--until T` or
    /// `settings.horizonSeconds`, that time).
    pub ended_at: u64,
    /// `jobs`: every job, in input order.
    pub jobs: Vec<JobResult>,
    /// `events`: the R24 events in order (empty when the run did not record them).
    pub events: Vec<Event>,
    /// `summary`: the R26 metrics.
    pub summary: Summary,
}

/// `--summary`: the result without the per-job and per-event lists.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct SummaryResult {
    /// `formatVersion`: 1.
    pub format_version: u32,
    /// `endedAt`: the time the run stands at, in seconds.
    pub ended_at: u64,
    /// `summary`: the R26 metrics.
    pub summary: Summary,
}

/// What one benchmark run did (`quotasim bench`, and `BenchWorkload.run` in the npm package).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct BenchRun {
    /// `events`: R24 events, whether or not the event list was recorded.
    pub events: u64,
    /// `preemptedJobs`: jobs told to stop at least once.
    pub preempted_jobs: u64,
    /// `endedAt`: the time the run ended at, in seconds.
    pub ended_at: u64,
}
