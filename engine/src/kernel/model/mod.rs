//! The scenario as data: service environment, quota shares, jobs, actions and settings.
//!
//! Field names and enum spellings follow the AWS Batch API (camelCase, `LEND_AND_BORROW`, ...)
//! so that `describe-quota-share` output can be pasted into a scenario. Numbers are kept as
//! `i64` here, exactly as the user wrote them, so that validation (not the parser) can report
//! a negative or out-of-range value with its path; [`crate::validate()`] turns a `Scenario` into
//! a checked [`crate::ValidScenario`].

use alloc::boxed::Box;
use alloc::string::String;

use alloc::vec::Vec;
pub use compact_str::CompactString;

use workload::Workload;

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

#[cfg(feature = "serde")]
mod serde_impls;
mod settings;
pub mod workload;

#[cfg(feature = "serde")]
use settings::is_zero;
pub use settings::{Billing, Settings, VictimOrder};

/// A field the AWS API returns but the simulation does not use: any JSON value is accepted
/// and dropped, so it takes no space in a job (a million jobs are read at a time).
#[cfg(feature = "serde")]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ignored;

#[cfg(feature = "serde")]
impl<'de> Deserialize<'de> for Ignored {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        serde::de::IgnoredAny::deserialize(d).map(|_| Ignored)
    }
}

/// One whole simulation (format spec, "Scenario").
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", deny_unknown_fields))]
pub struct Scenario {
    /// `formatVersion`: must be 1 (the default).
    #[cfg_attr(feature = "serde", serde(default = "one"))]
    pub format_version: i64,
    /// `name`: a name for the scenario, free text.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub name: Option<String>,
    /// `description`: free text.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub description: Option<String>,
    /// `settings`: the simulation's settings, all optional.
    #[cfg_attr(feature = "serde", serde(default))]
    pub settings: Settings,
    /// `instanceTypes`: GPU counts and prices of instance types (R1, R26); optional.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Vec::is_empty"))]
    pub instance_types: Vec<InstanceTypeInfo>,
    /// `serviceEnvironment`: R1, the capacity limits.
    pub service_environment: ServiceEnvironment,
    /// `schedulingPolicy`: the AWS shape, accepted when its strategy is `FIFO`.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub scheduling_policy: Option<SchedulingPolicy>,
    /// `quotaShares`: the quota shares (R2), 1 to 20.
    #[cfg_attr(feature = "serde", serde(default))]
    pub quota_shares: Vec<QuotaShare>,
    /// `workload`: jobs described by generator settings, expanded after `jobs` (`crate::workload`).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub workload: Option<Workload>,
    /// `jobs` (R5): at most 2,000,000 (`MAX_JOBS`); a longer list is refused while it is read.
    #[cfg_attr(
        feature = "serde",
        serde(default, deserialize_with = "crate::model::serde_impls::bounded_jobs")
    )]
    pub jobs: Vec<Job>,
    /// `actions`: R23, changes at given times.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Vec::is_empty"))]
    pub actions: Vec<Action>,
    /// `history` (R28): observed durations, for forecasts.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Vec::is_empty"))]
    pub history: Vec<ObservedDuration>,
}

/// One observed duration of a finished or running job (`history`, R28).
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", deny_unknown_fields))]
pub struct ObservedDuration {
    /// `quotaShareName`: the job's share.
    pub quota_share_name: String,
    /// `instanceType`: its instance type.
    pub instance_type: String,
    /// `instanceCount`: its instances (default 1).
    #[cfg_attr(feature = "serde", serde(default = "one"))]
    pub instance_count: i64,
    /// `durationSeconds`: how long it ran, in seconds.
    pub duration_seconds: i64,
    /// `censored`: it was still running when observed: it ran at least that long.
    #[cfg_attr(feature = "serde", serde(default))]
    pub censored: bool,
}

#[cfg(feature = "serde")]
fn one() -> i64 {
    1
}

impl Default for Scenario {
    /// An empty scenario of the current format version.
    fn default() -> Self {
        Scenario {
            format_version: 1,
            name: None,
            description: None,
            settings: Settings::default(),
            instance_types: Vec::new(),
            service_environment: ServiceEnvironment::default(),
            scheduling_policy: None,
            quota_shares: Vec::new(),
            workload: None,
            jobs: Vec::new(),
            actions: Vec::new(),
            history: Vec::new(),
        }
    }
}

impl Scenario {
    /// A copy of everything but the jobs (its job list empty): what the differences between
    /// two scenarios and the playground's undo history look at without copying a million jobs.
    pub fn without_jobs(&self) -> Scenario {
        Scenario {
            format_version: self.format_version,
            name: self.name.clone(),
            description: self.description.clone(),
            settings: self.settings.clone(),
            instance_types: self.instance_types.clone(),
            service_environment: self.service_environment.clone(),
            scheduling_policy: self.scheduling_policy.clone(),
            quota_shares: self.quota_shares.clone(),
            workload: self.workload.clone(),
            jobs: Vec::new(),
            actions: self.actions.clone(),
            history: self.history.clone(),
        }
    }
}

/// An instance type's GPU count, used only for GPU-denominated metrics (R1).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", deny_unknown_fields))]
pub struct InstanceTypeInfo {
    /// `name`: the instance type, as in `capacityUnit`.
    pub name: String,
    /// `gpus`: GPUs per instance (default 0); replaces the built-in catalogue's count.
    #[cfg_attr(feature = "serde", serde(default))]
    pub gpus: i64,
    /// `pricePerHour`: price of one instance for an hour, for the cost metrics (R26); any
    /// currency.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub price_per_hour: Option<f64>,
}

/// `{capacityUnit, maxCapacity}`: a number of instances of one type.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", deny_unknown_fields))]
pub struct CapacityLimit {
    /// `capacityUnit`: the instance type.
    pub capacity_unit: String,
    /// `maxCapacity`: a number of instances (at least 1 in a quota share, 0 or more in the service
    /// environment).
    pub max_capacity: i64,
}

impl CapacityLimit {
    /// A limit of `max_capacity` instances of type `capacity_unit`.
    pub fn new(capacity_unit: &str, max_capacity: i64) -> Self {
        CapacityLimit { capacity_unit: capacity_unit.into(), max_capacity }
    }
}

/// R1: the service environment and its capacity limits.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", deny_unknown_fields))]
pub struct ServiceEnvironment {
    /// `serviceEnvironmentName`: the AWS name, kept for exports; the simulation has one service
    /// environment.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub service_environment_name: Option<String>,
    /// `capacityLimits`: at most one per instance type; a type without one can never run (R1, R17).
    pub capacity_limits: Vec<CapacityLimit>,
    /// `serviceEnvironmentArn`: accepted from AWS output and ignored.
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub service_environment_arn: Ignored,
    /// `serviceEnvironmentType`: accepted from AWS output and ignored.
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub service_environment_type: Ignored,
    /// `state`: accepted from AWS output and ignored.
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub state: Ignored,
    /// `status`: accepted from AWS output and ignored.
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub status: Ignored,
    /// `statusReason`: accepted from AWS output and ignored.
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub status_reason: Ignored,
    /// `tags`: accepted from AWS output and ignored.
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub tags: Ignored,
    /// `createdAt`: accepted from AWS output and ignored.
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub created_at: Ignored,
    /// `clientToken`: accepted from AWS output and ignored.
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub client_token: Ignored,
}

/// The AWS `schedulingPolicy` shape; `FIFO` is the only idle-resource strategy.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", deny_unknown_fields))]
pub struct SchedulingPolicy {
    /// `name`: the AWS name of the policy; not used by the simulation.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub name: Option<String>,
    /// `quotaSharePolicy`: how idle capacity is assigned.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub quota_share_policy: Option<QuotaSharePolicy>,
    /// `arn`: accepted from AWS output and ignored.
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub arn: Ignored,
    /// `tags`: accepted from AWS output and ignored.
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub tags: Ignored,
}

/// The `quotaSharePolicy` of a scheduling policy.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", deny_unknown_fields))]
pub struct QuotaSharePolicy {
    /// `idleResourceAssignmentStrategy`: only `FIFO` is accepted (R16 phase 3).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub idle_resource_assignment_strategy: Option<String>,
}

/// R4: what a share does with idle quota.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "SCREAMING_SNAKE_CASE"))]
pub enum Strategy {
    /// `RESERVE`: idle quota is kept for the share; it neither lends nor borrows.
    Reserve,
    /// `LEND`: idle quota may be borrowed by others; it never borrows.
    Lend,
    /// `LEND_AND_BORROW`: lends like `LEND` and may borrow others' idle quota (R14).
    LendAndBorrow,
}

impl Strategy {
    /// Whether the share's quota is part of the lending pool (R13).
    pub fn lends(self) -> bool {
        !matches!(self, Strategy::Reserve)
    }
    /// The spelling in the format (`RESERVE`, `LEND`, `LEND_AND_BORROW`).
    pub fn as_str(self) -> &'static str {
        match self {
            Strategy::Reserve => "RESERVE",
            Strategy::Lend => "LEND",
            Strategy::LendAndBorrow => "LEND_AND_BORROW",
        }
    }
}

/// `resourceSharingConfiguration`.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", deny_unknown_fields))]
pub struct ResourceSharing {
    /// `strategy`: R4.
    pub strategy: Strategy,
    /// `borrowLimit`: percent of the share's quota it may borrow on top; -1 = unlimited. Only
    /// with `LEND_AND_BORROW` (R2, R14); `None` means the default -1.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub borrow_limit: Option<i64>,
}

impl ResourceSharing {
    /// A configuration with `strategy` and `borrow_limit` (`None`: the default -1).
    pub fn new(strategy: Strategy, borrow_limit: Option<i64>) -> Self {
        ResourceSharing { strategy, borrow_limit }
    }
}

/// `ENABLED` or `DISABLED`: whether a share's in-share preemption is on (R20).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "SCREAMING_SNAKE_CASE"))]
pub enum Toggle {
    /// `ENABLED`.
    Enabled,
    /// `DISABLED` (the default).
    #[default]
    Disabled,
}

/// `preemptionConfiguration` of a quota share.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", deny_unknown_fields))]
pub struct SharePreemption {
    /// `inSharePreemption`: R20, `DISABLED` by default.
    #[cfg_attr(feature = "serde", serde(default))]
    pub in_share_preemption: Toggle,
}

/// R2: a quota share's `state`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "SCREAMING_SNAKE_CASE"))]
pub enum ShareState {
    /// `ENABLED` (the default): the share accepts submissions.
    #[default]
    Enabled,
    /// `DISABLED`: submissions to the share are rejected and end `FAILED` (R6); its queued jobs
    /// still run and its quota still lends (R23).
    Disabled,
}

/// R2: a team's quota share.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", deny_unknown_fields))]
pub struct QuotaShare {
    /// `quotaShareName`: 1 to 128 letters, digits, `-` and `_`; unique.
    pub quota_share_name: String,
    /// `capacityLimits`: the share's own quota (R2, R13), 1 to 5 distinct instance types.
    pub capacity_limits: Vec<CapacityLimit>,
    /// `resourceSharingConfiguration`: strategy and borrow limit (R4, R14).
    pub resource_sharing_configuration: ResourceSharing,
    /// `preemptionConfiguration`: in-share preemption (R20).
    #[cfg_attr(feature = "serde", serde(default))]
    pub preemption_configuration: SharePreemption,
    /// `state`: `ENABLED` (default) or `DISABLED`.
    #[cfg_attr(feature = "serde", serde(default))]
    pub state: ShareState,
    /// `capacityLimitReduced` (R28): instance types whose quota was lowered since the share's
    /// jobs started: usage the quota no longer covers is over quota as R22 says, even where
    /// R14 would allow it by borrowing.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Vec::is_empty"))]
    pub capacity_limit_reduced: Vec<String>,
    /// `quotaShareArn`: accepted from AWS output and ignored.
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub quota_share_arn: Ignored,
    /// `jobQueue`: accepted from AWS output and ignored.
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub job_queue: Ignored,
    /// `status`: accepted from AWS output and ignored.
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub status: Ignored,
    /// `statusReason`: accepted from AWS output and ignored.
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub status_reason: Ignored,
    /// `tags`: accepted from AWS output and ignored.
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub tags: Ignored,
    /// `createdAt`: accepted from AWS output and ignored.
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub created_at: Ignored,
    /// `clientToken`: accepted from AWS output and ignored.
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub client_token: Ignored,
}

impl QuotaShare {
    /// A share with one capacity limit, enabled, in-share preemption disabled.
    pub fn new(name: &str, strategy: Strategy, limits: Vec<CapacityLimit>) -> Self {
        QuotaShare {
            quota_share_name: name.into(),
            capacity_limits: limits,
            resource_sharing_configuration: ResourceSharing::new(strategy, None),
            preemption_configuration: SharePreemption::default(),
            state: ShareState::Enabled,
            capacity_limit_reduced: Vec::new(),
            #[cfg(feature = "serde")]
            quota_share_arn: Ignored,
            #[cfg(feature = "serde")]
            job_queue: Ignored,
            #[cfg(feature = "serde")]
            status: Ignored,
            #[cfg(feature = "serde")]
            status_reason: Ignored,
            #[cfg(feature = "serde")]
            tags: Ignored,
            #[cfg(feature = "serde")]
            created_at: Ignored,
            #[cfg(feature = "serde")]
            client_token: Ignored,
        }
    }
}

/// `preemptionConfiguration` of a job (R7).
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", deny_unknown_fields))]
pub struct JobPreemption {
    /// `preemptionRetriesBeforeTermination`: how many preemptions requeue the job; the next one
    /// ends it `FAILED` (R7). `None`: unlimited.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub preemption_retries_before_termination: Option<i64>,
}

/// R5: one training job.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", deny_unknown_fields))]
pub struct Job {
    /// `jobName`: 1 to 128 letters, digits, `-` and `_`; unique.
    pub job_name: CompactString,
    /// `quotaShareName`: the share the job is submitted to; it must exist.
    pub quota_share_name: CompactString,
    /// `schedulingPriority`: 0 to 9999, default 0; higher runs first within a share (R11).
    #[cfg_attr(feature = "serde", serde(default))]
    pub scheduling_priority: i64,
    /// `instanceType`: given directly, or through
    /// `serviceRequestPayload.ResourceConfig.InstanceType`.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub instance_type: Option<CompactString>,
    /// `instanceCount`: instances the job holds while dispatched (default 1); or given as
    /// `serviceRequestPayload.ResourceConfig.InstanceCount`.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub instance_count: Option<i64>,
    /// `submitAt`: when the job is submitted, in seconds (default 0).
    #[cfg_attr(feature = "serde", serde(default))]
    pub submit_at: i64,
    /// `durationSeconds`: the training time the job needs, in seconds (R5, R8). Required to
    /// run; a state (R28) may omit it for forecasts, which sample it.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub duration_seconds: Option<i64>,
    /// `startedAt` (R28): the job is in the attempt dispatched then (as
    /// `attempts[].startedAt` in results), at or before `settings.startAt`.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub started_at: Option<i64>,
    /// `previousAttempts` (R28): attempts of the job already preempted before `startAt`
    /// (default 0); they count against its retry limit (R7).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "is_zero"))]
    pub previous_attempts: i64,
    /// `completedWorkSeconds` (R28): training those attempts saved in checkpoints, which the
    /// current or next attempt resumes from (R8), in seconds (default 0).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "is_zero"))]
    pub completed_work_seconds: i64,
    /// `checkpointIntervalSeconds`: R8, seconds of training between checkpoints; `None`: no
    /// checkpoints (every 600 s with a payload `CheckpointConfig`).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub checkpoint_interval_seconds: Option<i64>,
    /// `timeoutSeconds`: R9, the most seconds an attempt may spend `RUNNING` (or the payload's
    /// `StoppingCondition.MaxRuntimeInSeconds`); `None`: no timeout.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub timeout_seconds: Option<i64>,
    /// `preemptionConfiguration`: the job's retry limit (R7).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub preemption_configuration: Option<JobPreemption>,
    /// `serviceRequestPayload`: the AWS `SubmitServiceJob` payload, as an object or a JSON
    /// string.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub service_request_payload: Option<Box<ServiceRequestPayload>>,
    /// `jobArn`: accepted from AWS output and ignored.
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub job_arn: Ignored,
    /// `jobId`: accepted from AWS output and ignored.
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub job_id: Ignored,
    /// `jobQueue`: accepted from AWS output and ignored.
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub job_queue: Ignored,
    /// `status`: accepted from AWS output and ignored.
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub status: Ignored,
    /// `statusReason`: accepted from AWS output and ignored.
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub status_reason: Ignored,
    /// `serviceJobType`: accepted from AWS output and ignored.
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub service_job_type: Ignored,
    /// `createdAt`: accepted from AWS output and ignored.
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub created_at: Ignored,
    /// `tags`: accepted from AWS output and ignored.
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub tags: Ignored,
    /// `clientToken`: accepted from AWS output and ignored.
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub client_token: Ignored,
    /// `retryStrategy`: accepted from AWS output and ignored.
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub retry_strategy: Ignored,
    /// `shareIdentifier`: accepted from AWS output and ignored.
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub share_identifier: Ignored,
}

impl Job {
    /// A job with the fields a test or generator usually sets.
    pub fn new(
        name: &str,
        share: &str,
        instance_type: &str,
        count: i64,
        submit_at: i64,
        duration: i64,
    ) -> Self {
        Job {
            job_name: name.into(),
            quota_share_name: share.into(),
            instance_type: Some(instance_type.into()),
            instance_count: Some(count),
            submit_at,
            duration_seconds: Some(duration),
            ..Job::default()
        }
    }
}

/// The parts of SageMaker's `CreateTrainingJob` request the simulation reads; everything else
/// in the payload is accepted and ignored.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ServiceRequestPayload {
    /// `ResourceConfig.InstanceType`: the job's instance type.
    pub instance_type: Option<String>,
    /// `ResourceConfig.InstanceCount`: the job's number of instances.
    pub instance_count: Option<i64>,
    /// `StoppingCondition.MaxRuntimeInSeconds`: the job's `timeoutSeconds`.
    pub max_runtime_in_seconds: Option<i64>,
    /// Whether a `CheckpointConfig` is given: without `checkpointIntervalSeconds`, the job
    /// checkpoints every 600 s.
    pub has_checkpoint_config: bool,
}

/// R23: an action applied at time `at`.
#[derive(Clone, Debug, PartialEq)]
pub struct Action {
    /// `at`: when the action applies, in seconds; before the jobs submitted at that instant
    /// (R10, R23).
    pub at: i64,
    /// Which action, with its fields: the one action key of the object.
    pub kind: ActionKind,
}

/// R23: what an action does, written as the one action key of the action object.
#[derive(Clone, Debug, PartialEq)]
pub enum ActionKind {
    /// `updateServiceJob`: a new priority for a job, used from the next pass (R11).
    UpdateServiceJob {
        /// `jobName`: the job.
        job_name: String,
        /// `schedulingPriority`: its new priority, 0 to 9999.
        scheduling_priority: i64,
    },
    /// `terminateServiceJob`: the job ends `FAILED` at once and frees its capacity (subject to
    /// R21's earmark).
    TerminateServiceJob {
        /// `jobName`: the job.
        job_name: String,
        /// `reason`: its status reason (default `Terminated by user`).
        reason: String,
    },
    /// `updateQuotaShare`: changes the named fields of a share.
    UpdateQuotaShare(QuotaShareUpdate),
    /// `updateServiceEnvironment`: new capacity limits.
    UpdateServiceEnvironment {
        /// `capacityLimits`: replaces the whole list; a lower limit than in use preempts (R23).
        capacity_limits: Vec<CapacityLimit>,
    },
}

impl ActionKind {
    /// The action's name as written in a scenario.
    pub fn name(&self) -> &'static str {
        match self {
            ActionKind::UpdateServiceJob { .. } => "updateServiceJob",
            ActionKind::TerminateServiceJob { .. } => "terminateServiceJob",
            ActionKind::UpdateQuotaShare(_) => "updateQuotaShare",
            ActionKind::UpdateServiceEnvironment { .. } => "updateServiceEnvironment",
        }
    }
}

/// `updateQuotaShare`: fields not named stay as they were; a named field replaces the old
/// value whole (R23).
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", deny_unknown_fields))]
pub struct QuotaShareUpdate {
    /// `quotaShareName`: the share to change.
    pub quota_share_name: String,
    /// `capacityLimits`: replaces the share's whole list.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub capacity_limits: Option<Vec<CapacityLimit>>,
    /// `resourceSharingConfiguration`: replaces the whole object (a missing `borrowLimit` is -1).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub resource_sharing_configuration: Option<ResourceSharing>,
    /// `preemptionConfiguration`: replaces the share's in-share preemption setting.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub preemption_configuration: Option<SharePreemption>,
    /// `state`: enables or disables the share.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub state: Option<ShareState>,
}

/// A small catalogue of common SageMaker GPU instance types and their GPU counts, used when a
/// scenario does not list `instanceTypes` itself.
pub const GPU_CATALOGUE: &[(&str, i64)] = &[
    ("ml.g4dn.xlarge", 1),
    ("ml.g4dn.12xlarge", 4),
    ("ml.g5.xlarge", 1),
    ("ml.g5.2xlarge", 1),
    ("ml.g5.12xlarge", 4),
    ("ml.g5.48xlarge", 8),
    ("ml.g6.xlarge", 1),
    ("ml.g6.12xlarge", 4),
    ("ml.g6e.xlarge", 1),
    ("ml.g6e.48xlarge", 8),
    ("ml.p3.2xlarge", 1),
    ("ml.p3.16xlarge", 8),
    ("ml.p4d.24xlarge", 8),
    ("ml.p4de.24xlarge", 8),
    ("ml.p5.48xlarge", 8),
    ("ml.p5e.48xlarge", 8),
    ("ml.p5en.48xlarge", 8),
    ("ml.p6-b200.48xlarge", 8),
    ("ml.trn1.32xlarge", 16),
    ("ml.trn2.48xlarge", 16),
];

/// GPU count of a catalogue type, if known.
pub fn catalogue_gpus(name: &str) -> Option<i64> {
    GPU_CATALOGUE.iter().find(|(n, _)| *n == name).map(|(_, g)| *g)
}

#[cfg(all(test, feature = "serde", target_pointer_width = "64"))]
mod size {
    /// A file of a million jobs holds them all at once while it is read (README, "Memory"):
    /// the fields read and ignored take no space, and a job grows only on purpose.
    #[test]
    fn a_job_takes_208_bytes() {
        assert_eq!(core::mem::size_of::<super::Job>(), 208);
        assert_eq!(core::mem::size_of::<super::Ignored>(), 0);
    }
}
