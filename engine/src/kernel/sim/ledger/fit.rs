//! R14: a job's request and what it is checked against, as values: whether it fits within its
//! share's quota, by borrowing, in the lending pool and in free capacity.

use crate::model::Strategy;
use crate::scenario::{JobCfg, JobId, ShareId, TypeId};

/// A job's request, as fit checks (R14) read it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Need {
    pub job: JobId,
    pub share: ShareId,
    pub ty: TypeId,
    pub count: u64,
}

impl Need {
    /// Job `j`'s request, from its settings `jc`.
    #[inline]
    pub fn of(j: JobId, jc: &JobCfg) -> Need {
        Need { job: j, share: jc.share, ty: jc.ty, count: jc.count }
    }
}

/// R14: what a request is checked against (see `Ledger::check`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FitCheck {
    /// Instances it needs.
    pub need: u64,
    /// Its share's usage against its own quota (R14, R21), own releases counted.
    pub usage: u64,
    pub quota: u64,
    /// Its share's borrow allowance (`None`: no limit).
    pub allowance: Option<u64>,
    pub strategy: Strategy,
    /// Whether the service environment has a limit for the type (R1).
    pub has_capacity: bool,
    /// Free instances for it (its own hold counted).
    pub free: i64,
    /// What the lending pool has left (R13).
    pub pool: i64,
}

/// R14's quota part: `need` more instances on `usage` stay within `quota`, or (`within` not
/// asked, for a share that borrows) within quota plus `allowance` (`None`: no limit).
#[inline(always)]
pub(crate) fn quota_ok(
    usage: u64,
    need: u64,
    quota: u64,
    allowance: Option<u64>,
    strategy: Strategy,
    within: bool,
) -> bool {
    usage + need <= quota
        || !within
            && strategy == Strategy::LendAndBorrow
            && allowance.is_none_or(|a| usage + need <= quota + a)
}

impl FitCheck {
    /// Within its quota, or (`within` not asked) within quota plus allowance by borrowing.
    #[inline(always)]
    pub fn quota_ok(&self, within: bool) -> bool {
        quota_ok(self.usage, self.need, self.quota, self.allowance, self.strategy, within)
    }

    /// The pool has room, when its share lends (R13).
    #[inline(always)]
    pub fn pool_ok(&self) -> bool {
        !self.strategy.lends() || self.pool >= self.need as i64
    }

    /// Enough free instances.
    #[inline(always)]
    pub fn free_ok(&self) -> bool {
        self.has_capacity && self.free >= self.need as i64
    }

    /// R14: it fits now (`within`: within quota, R16 phase 1).
    #[inline(always)]
    pub fn fits(&self, within: bool) -> bool {
        self.free_ok() && self.quota_ok(within) && self.pool_ok()
    }
}
