//! The checked scenario the simulation runs: dense ids and per-type tables, built by
//! [`crate::validate`] from a [`crate::model::Scenario`]. The simulation reads only these
//! types, never the validator.

use alloc::string::String;
use alloc::vec::Vec;

use crate::model::{Strategy, VictimOrder};
use crate::problem::Problem;

/// AWS: at most 20 quota shares per job queue.
pub const MAX_SHARES: usize = 20;

/// Dense index of an instance type.
pub type TypeId = u32;
/// Dense index of a quota share (its position in the input).
pub type ShareId = u32;
/// Dense index of a job (its position in the input).
pub type JobId = u32;

#[derive(Clone, Debug, PartialEq)]
pub struct TypeCfg {
    pub name: String,
    pub gpus: u64,
    /// Price per instance-hour (R26 cost), when given.
    pub price: Option<f64>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ShareCfg {
    pub name: String,
    /// Own quota per instance type (indexed by `TypeId`; 0 where the share has no limit).
    pub quota: Vec<u64>,
    pub strategy: Strategy,
    /// -1 = unlimited.
    pub borrow_limit: i64,
    pub in_share_preemption: bool,
    pub enabled: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct JobCfg {
    pub name: String,
    pub share: ShareId,
    pub priority: u32,
    pub ty: TypeId,
    pub count: u64,
    pub submit_at: u64,
    pub duration: u64,
    pub checkpoint_interval: Option<u64>,
    pub timeout: Option<u64>,
    pub retries: Option<u64>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ShareUpdateCfg {
    pub share: ShareId,
    pub quota: Option<Vec<u64>>,
    pub sharing: Option<(Strategy, i64)>,
    pub in_share_preemption: Option<bool>,
    pub enabled: Option<bool>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ActionCfg {
    UpdatePriority {
        job: JobId,
        priority: u32,
    },
    Terminate {
        job: JobId,
        reason: String,
    },
    UpdateShare(ShareUpdateCfg),
    /// New service environment limit per type (`None`: no limit, the type cannot run).
    UpdateCapacity {
        limits: Vec<Option<u64>>,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct SettingsCfg {
    pub grace: u64,
    pub scheduled: u64,
    pub starting: u64,
    pub backfill: bool,
    pub victim_order: VictimOrder,
    pub checkpoint_on_stop: bool,
    pub checkpoint_save: u64,
    pub horizon: Option<u64>,
    pub billing: crate::model::Billing,
}

/// A scenario that passed validation, with every name resolved to a dense id.
#[derive(Clone, Debug, PartialEq)]
pub struct ValidScenario {
    pub name: Option<String>,
    pub settings: SettingsCfg,
    pub types: Vec<TypeCfg>,
    /// Service environment limit per type; `None` where it has none (R1: such jobs never run).
    pub capacity: Vec<Option<u64>>,
    pub shares: Vec<ShareCfg>,
    pub jobs: Vec<JobCfg>,
    /// Sorted by time, stably (file order within an instant).
    pub actions: Vec<(u64, ActionCfg)>,
    /// Warnings found while validating.
    pub warnings: Vec<Problem>,
}
