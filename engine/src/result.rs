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
    Submitted,
    Runnable,
    Scheduled,
    Starting,
    Running,
    Succeeded,
    Failed,
}

impl Status {
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
    pub fn is_terminal(self) -> bool {
        matches!(self, Status::Succeeded | Status::Failed)
    }
}

/// Why a job was preempted (R18, R20, R22).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum PreemptionKind {
    CrossShare,
    InShare,
    CapacityReduced,
}

impl PreemptionKind {
    pub fn reason(self) -> &'static str {
        match self {
            PreemptionKind::CrossShare => "Cross-share preemption triggered to reclaim borrowed capacity",
            PreemptionKind::InShare => "In-share preemption triggered by higher priority job",
            PreemptionKind::CapacityReduced => "Capacity limit reduced",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "SCREAMING_SNAKE_CASE"))]
pub enum EventType {
    StateChange,
    PreemptionStarted,
    PreemptionCompleted,
}

/// R24: one state change or preemption step.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Event {
    pub at: u64,
    pub job_name: String,
    pub quota_share_name: String,
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    pub event_type: EventType,
    pub status: Option<Status>,
    pub status_reason: Option<String>,
    /// The job whose dispatch needed this preemption (preemption events; `null` when the
    /// service environment's capacity was lowered).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_state_change_none"))]
    pub preempted_by: Option<Option<String>>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub reason: Option<String>,
    /// The victim's `preemptedAttemptCount`, this preemption included.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub preempted_attempt_count: Option<u32>,
    /// Training seconds this preemption lost (R8).
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
    pub started_at: u64,
    pub stopped_at: Option<u64>,
    pub borrowed_instances: u64,
    pub status_reason: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct PreemptedAttempt {
    pub started_at: u64,
    pub stopped_at: u64,
    pub status_reason: String,
}

#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct PreemptionSummary {
    pub preempted_attempt_count: u32,
    pub recent_preempted_attempts: Vec<PreemptedAttempt>,
}

/// A job as `DescribeServiceJob` would show it at the end of the run.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct JobResult {
    pub job_name: String,
    pub quota_share_name: String,
    pub status: Option<Status>,
    pub status_reason: Option<String>,
    pub scheduling_priority: u32,
    pub submit_at: u64,
    pub first_started_at: Option<u64>,
    pub stopped_at: Option<u64>,
    pub preemption_summary: PreemptionSummary,
    pub attempts: Vec<Attempt>,
    pub lost_work_seconds: u64,
}

/// R25: one quota share's use of one instance type at an instant.
#[derive(Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct ShareTypeUsage {
    pub quota_share_name: String,
    pub capacity_unit: String,
    pub quota: u64,
    /// Instances held by the share's jobs (`SCHEDULED`, `STARTING`, `RUNNING`).
    pub usage: u64,
    pub within_quota: u64,
    pub over_quota: u64,
    /// Over-quota usage attributed to lenders (R15), as `{lender, instances}`.
    pub borrowed: u64,
    pub borrowed_from: Vec<Flow>,
    /// Idle quota of this share used by borrowers (R15).
    pub lent: u64,
    pub lent_to: Vec<Flow>,
    pub idle: u64,
    /// Instances earmarked for this share's waiting preemptor (R21).
    pub earmarked: u64,
}

/// A number of instances flowing between two shares (R15 attribution).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Flow {
    pub quota_share_name: String,
    pub instances: u64,
}

/// R25: totals of one instance type at an instant.
#[derive(Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct TypeTotals {
    pub capacity_unit: String,
    pub gpus_per_instance: u64,
    /// The service environment's limit (`null`: none, jobs of this type never run).
    pub service_environment_capacity: Option<u64>,
    pub usage: u64,
    pub free: i64,
    pub pool_capacity: u64,
    pub pool_usage: u64,
    pub pool_available: i64,
    pub borrowed: u64,
    /// Borrowed instances no lender's idle quota accounts for (after a lowered limit).
    pub unattributed_borrowed: u64,
}

/// R25: the engine's form of `GetJobQueueSnapshot.queueUtilization`.
#[derive(Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Snapshot {
    pub at: u64,
    pub types: Vec<TypeTotals>,
    pub shares: Vec<ShareTypeUsage>,
    /// Jobs per status now, in `Status` order; `notSubmitted` counts jobs not yet submitted.
    pub job_counts: JobCounts,
}

#[derive(Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct JobCounts {
    pub not_submitted: u64,
    pub runnable: u64,
    pub scheduled: u64,
    pub starting: u64,
    pub running: u64,
    pub succeeded: u64,
    pub failed: u64,
}

/// Wait or completion times: percentiles by nearest rank, in seconds.
#[derive(Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Percentiles {
    pub count: u64,
    pub p50: Option<u64>,
    pub p90: Option<u64>,
    pub p95: Option<u64>,
    pub p99: Option<u64>,
    pub max: Option<u64>,
}

#[derive(Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct PreemptionCounts {
    pub cross_share: u64,
    pub in_share: u64,
    pub capacity_limit_reduced: u64,
    pub total: u64,
}

/// R26 fairness: how much of what a share was entitled to it held.
#[derive(Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Fairness {
    /// Held instance-seconds over entitled instance-seconds (above 1 when borrowing); `null`
    /// when the share (or run) was never entitled to anything.
    pub entitlement_ratio: Option<f64>,
    /// Overall only: Jain's index (sum x)^2 / (k sum x^2) over the k shares with a ratio; 1 when
    /// every share got the same share of its entitlement. `null` per share.
    pub jain_index: Option<f64>,
}

/// R26 metrics of one quota share, or of the whole run.
#[derive(Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Metrics {
    pub jobs: u64,
    pub succeeded: u64,
    pub failed: u64,
    pub never_runnable: u64,
    pub unfinished: u64,
    pub instance_seconds: u64,
    pub instance_seconds_own: u64,
    pub instance_seconds_borrowed: u64,
    pub instance_seconds_lent: u64,
    pub instance_hours: f64,
    pub gpu_hours: f64,
    pub gpu_hours_own: f64,
    pub gpu_hours_borrowed: f64,
    /// Instance-seconds used over the service environment's instance-seconds (overall), or
    /// over the share's quota instance-seconds (per share; may exceed 1 when borrowing).
    pub utilization: Option<f64>,
    pub wait_seconds: Percentiles,
    pub completion_seconds: Percentiles,
    pub preemptions: PreemptionCounts,
    pub lost_instance_seconds: u64,
    pub lost_gpu_hours: f64,
    /// Held over entitled instance-seconds (entitlement: min(quota, queued + held) per type),
    /// and overall Jain's index of the shares' ratios.
    pub fairness: Fairness,
    /// Entitled instance-seconds not held: max(0, entitlement - held) per type, over time.
    pub fairness_deficit_instance_seconds: u64,
    /// What the share (or the run) cost, when instance types have prices
    /// (`instanceTypes[].pricePerHour`); `null` otherwise. See `settings.billing`.
    pub cost: Option<f64>,
    /// The price of the training lost to preemption (R8).
    pub lost_cost: Option<f64>,
    /// With `committed` billing: the price of quota neither used nor lent.
    pub idle_quota_cost: Option<f64>,
    /// Overall only, with `committed` billing: capacity that belongs to no share.
    pub unassigned_cost: Option<f64>,
    /// Overall only: cost over the GPU-hours of training of succeeded jobs.
    pub cost_per_useful_gpu_hour: Option<f64>,
    /// From the first instant a front job needed a reclaim (R18) to its dispatch.
    pub reclaim_latency_seconds: Percentiles,
    /// The most preemptions any one job of the share (or of the run) suffered.
    pub max_preemptions_per_job: u64,
    /// Jobs preempted more than once.
    pub jobs_preempted_more_than_once: u64,
    /// Training instance-seconds of succeeded jobs over instance-seconds held.
    pub goodput: Option<f64>,
}

#[derive(Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Summary {
    /// Keyed by quota share name, in input order.
    #[cfg_attr(feature = "serde", serde(serialize_with = "ser_pairs"))]
    pub per_quota_share: Vec<(String, Metrics)>,
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
    pub format_version: u32,
    pub ended_at: u64,
    pub jobs: Vec<JobResult>,
    pub events: Vec<Event>,
    pub summary: Summary,
}

/// `--summary`: the result without the per-job and per-event lists.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct SummaryResult {
    pub format_version: u32,
    pub ended_at: u64,
    pub summary: Summary,
}

/// What one benchmark run did (`quotasim bench`, and `BenchWorkload.run` in the npm package).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct BenchRun {
    /// R24 events, whether or not the event list was recorded.
    pub events: u64,
    /// Jobs preempted at least once.
    pub preempted_jobs: u64,
    pub ended_at: u64,
}
