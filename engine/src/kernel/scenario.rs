//! The checked scenario the simulation runs: dense ids and per-type tables, built by
//! [`crate::validate()`] from a [`crate::model::Scenario`]. The simulation reads only these
//! types, never the validator.

use alloc::string::String;
use alloc::vec::Vec;

use crate::model::{CompactString, Strategy, VictimOrder};
use crate::problem::Problem;

/// AWS: at most 20 quota shares per job queue.
pub const MAX_SHARES: usize = 20;

/// A dense index into one of the checked scenario's lists: a type of its own per list, so a
/// share cannot be passed where a job is meant.
macro_rules! dense_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub u32);

        impl $name {
            /// The id of position `i` of its list.
            #[inline]
            pub const fn at(i: usize) -> Self {
                Self(i as u32)
            }

            /// Its position in its list.
            #[inline]
            pub const fn index(self) -> usize {
                self.0 as usize
            }

            /// The ids of a list of `n` entries, in order.
            #[inline]
            pub fn all(n: usize) -> impl DoubleEndedIterator<Item = Self> + ExactSizeIterator + Clone {
                (0..n as u32).map(Self)
            }
        }

        /// Its position, as messages name it (`jobs[3]`).
        impl core::fmt::Display for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                self.0.fmt(f)
            }
        }
    };
}

dense_id!(
    /// Dense index of an instance type.
    TypeId
);
dense_id!(
    /// Dense index of a quota share (its position in the input).
    ShareId
);
dense_id!(
    /// Dense index of a job (its position in the input).
    JobId
);

/// An instance type, indexed by [`TypeId`].
#[derive(Clone, Debug, PartialEq)]
pub struct TypeCfg {
    /// Its name, as in `capacityUnit` and `instanceType`.
    pub name: String,
    /// GPUs per instance: `instanceTypes[].gpus`, else the built-in catalogue's, else 0 (R1; GPU
    /// metrics only).
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

/// R2: a quota share as validated, indexed by [`ShareId`].
#[derive(Clone, Debug, PartialEq)]
pub struct ShareCfg {
    /// `quotaShareName`.
    pub name: String,
    /// Own quota per instance type (indexed by `TypeId`; 0 where the share has no limit).
    pub quota: Vec<u64>,
    /// `resourceSharingConfiguration.strategy` (R4).
    pub strategy: Strategy,
    /// `resourceSharingConfiguration.borrowLimit` (R14); `Unlimited` for shares that cannot borrow.
    pub borrow_limit: BorrowLimit,
    /// `preemptionConfiguration.inSharePreemption` is `ENABLED` (R20).
    pub in_share_preemption: bool,
    /// `state` is `ENABLED`: a `DISABLED` share rejects submissions (R6).
    pub enabled: bool,
    /// `capacityLimitReduced` (R28), per instance type (indexed by `TypeId`): usage at
    /// `settings.startAt` above the quota is over quota as R22 says.
    pub limit_reduced: Vec<bool>,
}

/// R5: a job as validated, indexed by [`JobId`].
#[derive(Clone, Debug, PartialEq)]
pub struct JobCfg {
    /// `jobName`.
    pub name: CompactString,
    /// Its quota share.
    pub share: ShareId,
    /// `schedulingPriority` as submitted (actions may change it, R23).
    pub priority: u32,
    /// Its instance type.
    pub ty: TypeId,
    /// `instanceCount`: instances it holds while dispatched (R6).
    pub count: u64,
    /// `submitAt`, in seconds.
    pub submit_at: u64,
    /// `durationSeconds`: training it needs, in seconds.
    pub duration: u64,
    /// `checkpointIntervalSeconds` (R8; 600 for a payload `CheckpointConfig`); `None`: no
    /// checkpoints.
    pub checkpoint_interval: Option<u64>,
    /// `timeoutSeconds` per attempt (R9); `None`: no timeout.
    pub timeout: Option<u64>,
    /// `preemptionRetriesBeforeTermination` (R7); `None`: unlimited.
    pub retries: Option<u64>,
    /// `startedAt` (R28): in the attempt dispatched then, at `settings.startAt`.
    pub started_at: Option<u64>,
    /// `previousAttempts` (R28): attempts preempted before `settings.startAt`.
    pub previous_attempts: u32,
    /// `completedWorkSeconds` (R28): training those attempts saved, in seconds.
    pub completed_work: u64,
}

impl JobCfg {
    /// R7: whether the job's `count`-th preempted attempt (earlier ones included) ends it
    /// `FAILED` instead of requeueing it: more preemptions than its retry limit allows.
    pub fn fails_at_preemption(&self, count: u32) -> bool {
        self.retries.is_some_and(|r| u64::from(count) > r)
    }
}

/// R23 `updateQuotaShare`, resolved: `None` fields stay as they were.
#[derive(Clone, Debug, PartialEq)]
pub struct ShareUpdateCfg {
    /// The share.
    pub share: ShareId,
    /// New own quota per type, indexed by [`TypeId`] (the whole `capacityLimits` list; 0 for types
    /// not in it).
    pub quota: Option<Vec<u64>>,
    /// New strategy and borrow limit (`resourceSharingConfiguration`, whole).
    pub sharing: Option<(Strategy, BorrowLimit)>,
    /// New in-share preemption setting (R20).
    pub in_share_preemption: Option<bool>,
    /// New `state`: `true` for `ENABLED`.
    pub enabled: Option<bool>,
}

/// R23: an action, resolved to ids.
#[derive(Clone, Debug, PartialEq)]
pub enum ActionCfg {
    /// `updateServiceJob`: a job's priority changes.
    UpdatePriority {
        /// The job.
        job: JobId,
        /// Its new `schedulingPriority`.
        priority: u32,
    },
    /// `terminateServiceJob`: the job ends `FAILED`.
    Terminate {
        /// The job.
        job: JobId,
        /// Its status reason.
        reason: String,
    },
    /// `updateQuotaShare`.
    UpdateShare(ShareUpdateCfg),
    /// New service environment limit per type (`None`: no limit, the type cannot run).
    UpdateCapacity {
        /// Indexed by [`TypeId`]: the new `maxCapacity`, `None` for types the list does not name.
        limits: Vec<Option<u64>>,
    },
}

/// The `settings`, checked; times in seconds.
#[derive(Clone, Debug, PartialEq)]
pub struct SettingsCfg {
    /// `preemptionGraceSeconds` (R21).
    pub grace: u64,
    /// `scheduledSeconds` (R6).
    pub scheduled: u64,
    /// `startingSeconds` (R6).
    pub starting: u64,
    /// `backfill` (R12).
    pub backfill: bool,
    /// `victimOrder` (R19 step 2).
    pub victim_order: VictimOrder,
    /// `checkpointOnStop` (R8).
    pub checkpoint_on_stop: bool,
    /// `checkpointSaveSeconds` (R8).
    pub checkpoint_save: u64,
    /// `horizonSeconds`: where a run stops; `None`: when nothing is left to happen.
    pub horizon: Option<u64>,
    /// `billing`: what the cost metrics charge (R26).
    pub billing: crate::model::Billing,
    /// `startAt` (R28): the instant the run begins, in seconds.
    pub start_at: u64,
    /// `originEpochMs` (R28): epoch milliseconds of time 0, if given.
    pub origin_epoch_ms: Option<i64>,
}

/// A scenario that passed validation, with every name resolved to a dense id.
#[derive(Clone, Debug, PartialEq)]
pub struct ValidScenario {
    /// The scenario's `name`.
    pub name: Option<String>,
    /// The settings.
    pub settings: SettingsCfg,
    /// Every instance type the scenario names, indexed by [`TypeId`]: those of `instanceTypes`
    /// first, then in the order the rest of the file mentions them.
    pub types: Vec<TypeCfg>,
    /// Service environment limit per type; `None` where it has none (R1: such jobs never run).
    pub capacity: Vec<Option<u64>>,
    /// Quota shares in input order, indexed by [`ShareId`].
    pub shares: Vec<ShareCfg>,
    /// Jobs in input order (a workload's generated jobs after the listed ones), indexed by
    /// [`JobId`].
    pub jobs: Vec<JobCfg>,
    /// Sorted by time, stably (file order within an instant).
    pub actions: Vec<(u64, ActionCfg)>,
    /// Warnings found while validating.
    pub warnings: Vec<Problem>,
}
