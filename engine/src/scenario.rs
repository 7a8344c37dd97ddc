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

/// R2, R14: what a `LEND_AND_BORROW` share may borrow above its quota: without limit (the
/// format's `borrowLimit: -1`, its default) or a percentage of its quota.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BorrowLimit {
    /// No limit: it may borrow all the pool lends.
    Unlimited,
    /// At most this percentage of its quota, per instance type.
    Percent(u64),
}

impl BorrowLimit {
    /// From the format's `borrowLimit` (-1 or below: unlimited).
    pub fn from_format(v: i64) -> BorrowLimit {
        if v < 0 {
            BorrowLimit::Unlimited
        } else {
            BorrowLimit::Percent(v as u64)
        }
    }

    /// The format's `borrowLimit`: -1 for unlimited.
    pub fn to_format(self) -> i64 {
        match self {
            BorrowLimit::Unlimited => -1,
            BorrowLimit::Percent(p) => p as i64,
        }
    }

    /// R13: the borrow allowance for a quota of `quota` instances, `floor(quota * p / 100)`
    /// (`None`: no limit).
    pub fn allowance(self, quota: u64) -> Option<u64> {
        match self {
            BorrowLimit::Unlimited => None,
            BorrowLimit::Percent(p) => {
                Some(((quota as u128 * p as u128) / 100).min(u64::MAX as u128 / 4) as u64)
            }
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct ShareCfg {
    pub name: String,
    /// Own quota per instance type (indexed by `TypeId`; 0 where the share has no limit).
    pub quota: Vec<u64>,
    pub strategy: Strategy,
    pub borrow_limit: BorrowLimit,
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
    pub sharing: Option<(Strategy, BorrowLimit)>,
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
