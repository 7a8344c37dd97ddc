//! The scenario as data: service environment, quota shares, jobs, actions and settings.
//!
//! Field names and enum spellings follow the AWS Batch API (camelCase, `LEND_AND_BORROW`, ...)
//! so that `describe-quota-share` output can be pasted into a scenario. Numbers are kept as
//! `i64` here, exactly as the user wrote them, so that validation (not the parser) can report
//! a negative or out-of-range value with its path; [`crate::validate`] turns a `Scenario` into
//! a checked [`crate::ValidScenario`].

use alloc::string::String;
use alloc::vec::Vec;

use crate::workload::Workload;

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

#[cfg(feature = "serde")]
mod serde_impls;

/// A field the AWS API returns but the simulation does not use: accepted and ignored.
#[cfg(feature = "serde")]
pub type Ignored = Option<serde::de::IgnoredAny>;

/// One whole simulation (format spec, "Scenario").
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", deny_unknown_fields))]
pub struct Scenario {
    #[cfg_attr(feature = "serde", serde(default = "one"))]
    pub format_version: i64,
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub name: Option<String>,
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub description: Option<String>,
    #[cfg_attr(feature = "serde", serde(default))]
    pub settings: Settings,
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Vec::is_empty"))]
    pub instance_types: Vec<InstanceTypeInfo>,
    pub service_environment: ServiceEnvironment,
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub scheduling_policy: Option<SchedulingPolicy>,
    #[cfg_attr(feature = "serde", serde(default))]
    pub quota_shares: Vec<QuotaShare>,
    /// Jobs described by generator settings, expanded after `jobs` (`crate::workload`).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub workload: Option<Workload>,
    /// At most 2,000,000 jobs (`MAX_JOBS`); a longer list is refused while it is read.
    #[cfg_attr(
        feature = "serde",
        serde(default, deserialize_with = "crate::model::serde_impls::bounded_jobs")
    )]
    pub jobs: Vec<Job>,
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Vec::is_empty"))]
    pub actions: Vec<Action>,
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
        }
    }
}

/// Simulation settings; every field is optional and defaults as documented in the format spec.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", deny_unknown_fields, default))]
pub struct Settings {
    /// R21: how long a told-to-stop job keeps its capacity.
    pub preemption_grace_seconds: i64,
    /// R6: time spent in `SCHEDULED` before `STARTING`.
    pub scheduled_seconds: i64,
    /// R6: time spent in `STARTING` before `RUNNING`.
    pub starting_seconds: i64,
    /// R12: let later jobs of a share go first when its front job cannot.
    pub backfill: bool,
    /// R19 step 2.
    pub victim_order: VictimOrder,
    /// R8: a checkpointing job also saves at the stop signal.
    pub checkpoint_on_stop: bool,
    /// R8: how long that save takes; it must fit in the grace period.
    pub checkpoint_save_seconds: i64,
    /// Stop the simulation at this time (`None`: run until nothing is left to happen).
    pub horizon_seconds: Option<i64>,
    /// What is paid for, for the cost metrics (R26).
    pub billing: Billing,
}

/// What the cost metrics charge (R26).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum Billing {
    /// Pay for the instances jobs hold.
    #[default]
    #[cfg_attr(feature = "serde", serde(rename = "onDemand"))]
    OnDemand,
    /// Pay for the service environment's capacity, used or not.
    #[cfg_attr(feature = "serde", serde(rename = "committed"))]
    Committed,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            preemption_grace_seconds: 120,
            scheduled_seconds: 0,
            starting_seconds: 0,
            backfill: false,
            victim_order: VictimOrder::Aws,
            checkpoint_on_stop: false,
            checkpoint_save_seconds: 30,
            horizon_seconds: None,
            billing: Billing::OnDemand,
        }
    }
}

/// R19 step 2: which running job has the least work at risk.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum VictimOrder {
    /// The job whose current attempt was dispatched most recently.
    #[default]
    #[cfg_attr(feature = "serde", serde(rename = "aws"))]
    Aws,
    /// The job with the least training since its last checkpoint.
    #[cfg_attr(feature = "serde", serde(rename = "leastLostWork"))]
    LeastLostWork,
}

/// An instance type's GPU count, used only for GPU-denominated metrics (R1).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", deny_unknown_fields))]
pub struct InstanceTypeInfo {
    pub name: String,
    #[cfg_attr(feature = "serde", serde(default))]
    pub gpus: i64,
    /// Price of one instance for an hour, for the cost metrics (R26); any currency.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub price_per_hour: Option<f64>,
}

/// `{capacityUnit, maxCapacity}`: a number of instances of one type.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", deny_unknown_fields))]
pub struct CapacityLimit {
    pub capacity_unit: String,
    pub max_capacity: i64,
}

impl CapacityLimit {
    pub fn new(capacity_unit: &str, max_capacity: i64) -> Self {
        CapacityLimit { capacity_unit: capacity_unit.into(), max_capacity }
    }
}

/// R1: the service environment and its capacity limits.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", deny_unknown_fields))]
pub struct ServiceEnvironment {
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub service_environment_name: Option<String>,
    pub capacity_limits: Vec<CapacityLimit>,
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub service_environment_arn: Ignored,
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub service_environment_type: Ignored,
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub state: Ignored,
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub status: Ignored,
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub status_reason: Ignored,
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub tags: Ignored,
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub created_at: Ignored,
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub client_token: Ignored,
}

/// The AWS `schedulingPolicy` shape; `FIFO` is the only idle-resource strategy.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", deny_unknown_fields))]
pub struct SchedulingPolicy {
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub name: Option<String>,
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub quota_share_policy: Option<QuotaSharePolicy>,
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub arn: Ignored,
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub tags: Ignored,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", deny_unknown_fields))]
pub struct QuotaSharePolicy {
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub idle_resource_assignment_strategy: Option<String>,
}

/// R4: what a share does with idle quota.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "SCREAMING_SNAKE_CASE"))]
pub enum Strategy {
    Reserve,
    Lend,
    LendAndBorrow,
}

impl Strategy {
    /// Whether the share's quota is part of the lending pool (R13).
    pub fn lends(self) -> bool {
        !matches!(self, Strategy::Reserve)
    }
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
    pub strategy: Strategy,
    /// Percent of the share's quota it may borrow on top; -1 = unlimited. Only with
    /// `LEND_AND_BORROW` (R2); `None` means the default -1.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub borrow_limit: Option<i64>,
}

impl ResourceSharing {
    pub fn new(strategy: Strategy, borrow_limit: Option<i64>) -> Self {
        ResourceSharing { strategy, borrow_limit }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "SCREAMING_SNAKE_CASE"))]
pub enum Toggle {
    Enabled,
    #[default]
    Disabled,
}

/// `preemptionConfiguration` of a quota share.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", deny_unknown_fields))]
pub struct SharePreemption {
    #[cfg_attr(feature = "serde", serde(default))]
    pub in_share_preemption: Toggle,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "SCREAMING_SNAKE_CASE"))]
pub enum ShareState {
    #[default]
    Enabled,
    Disabled,
}

/// R2: a team's quota share.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", deny_unknown_fields))]
pub struct QuotaShare {
    pub quota_share_name: String,
    pub capacity_limits: Vec<CapacityLimit>,
    pub resource_sharing_configuration: ResourceSharing,
    #[cfg_attr(feature = "serde", serde(default))]
    pub preemption_configuration: SharePreemption,
    #[cfg_attr(feature = "serde", serde(default))]
    pub state: ShareState,
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub quota_share_arn: Ignored,
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub job_queue: Ignored,
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub status: Ignored,
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub status_reason: Ignored,
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub tags: Ignored,
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub created_at: Ignored,
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
            #[cfg(feature = "serde")]
            quota_share_arn: None,
            #[cfg(feature = "serde")]
            job_queue: None,
            #[cfg(feature = "serde")]
            status: None,
            #[cfg(feature = "serde")]
            status_reason: None,
            #[cfg(feature = "serde")]
            tags: None,
            #[cfg(feature = "serde")]
            created_at: None,
            #[cfg(feature = "serde")]
            client_token: None,
        }
    }
}

/// `preemptionConfiguration` of a job (R7).
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", deny_unknown_fields))]
pub struct JobPreemption {
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub preemption_retries_before_termination: Option<i64>,
}

/// R5: one training job.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", deny_unknown_fields))]
pub struct Job {
    pub job_name: String,
    pub quota_share_name: String,
    #[cfg_attr(feature = "serde", serde(default))]
    pub scheduling_priority: i64,
    /// Given directly, or through `serviceRequestPayload.ResourceConfig.InstanceType`.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub instance_type: Option<String>,
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub instance_count: Option<i64>,
    #[cfg_attr(feature = "serde", serde(default))]
    pub submit_at: i64,
    pub duration_seconds: i64,
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub checkpoint_interval_seconds: Option<i64>,
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub timeout_seconds: Option<i64>,
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub preemption_configuration: Option<JobPreemption>,
    /// The AWS `SubmitServiceJob` payload, as an object or a JSON string.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub service_request_payload: Option<ServiceRequestPayload>,
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub job_arn: Ignored,
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub job_id: Ignored,
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub job_queue: Ignored,
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub status: Ignored,
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub status_reason: Ignored,
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub service_job_type: Ignored,
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub created_at: Ignored,
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub tags: Ignored,
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub client_token: Ignored,
    #[cfg(feature = "serde")]
    #[serde(default, skip_serializing)]
    pub retry_strategy: Ignored,
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
            duration_seconds: duration,
            ..Job::default()
        }
    }
}

/// The parts of SageMaker's `CreateTrainingJob` request the simulation reads; everything else
/// in the payload is accepted and ignored.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ServiceRequestPayload {
    pub instance_type: Option<String>,
    pub instance_count: Option<i64>,
    pub max_runtime_in_seconds: Option<i64>,
    pub has_checkpoint_config: bool,
}

/// R23: an action applied at time `at`.
#[derive(Clone, Debug, PartialEq)]
pub struct Action {
    pub at: i64,
    pub kind: ActionKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ActionKind {
    UpdateServiceJob { job_name: String, scheduling_priority: i64 },
    TerminateServiceJob { job_name: String, reason: String },
    UpdateQuotaShare(QuotaShareUpdate),
    UpdateServiceEnvironment { capacity_limits: Vec<CapacityLimit> },
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
    pub quota_share_name: String,
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub capacity_limits: Option<Vec<CapacityLimit>>,
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub resource_sharing_configuration: Option<ResourceSharing>,
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub preemption_configuration: Option<SharePreemption>,
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
