//! R16: what a pass must look at (the shares whose queue or type changed, phase 3's
//! borrowers of the previous pass) and the order it visits shares in.

use core::cmp::Ordering;

use crate::scenario::ShareId;

use super::arith::cmp_ratio;
use super::share_set::ShareSet;

/// A share in a pass's order, with its R16 sort key: quota usage over quota for its front
/// job's type.
#[derive(Clone, Copy, Debug)]
pub(crate) struct OrderEntry {
    pub(super) share: ShareId,
    pub(super) usage: u64,
    pub(super) quota: u64,
}

impl OrderEntry {
    /// Whether the two are tied on usage / quota, so that input order decides (R16).
    pub(super) fn tied(&self, other: &Self) -> bool {
        match (self.quota == 0, other.quota == 0) {
            (true, true) => true,
            (false, false) => cmp_ratio(self.usage, self.quota, other.usage, other.quota).is_eq(),
            _ => false,
        }
    }

    /// R16: lowest usage / quota first (compared by cross-multiplication), quota 0 after all
    /// others, then input order.
    pub(super) fn cmp(&self, other: &Self) -> Ordering {
        let by_ratio = match (self.quota == 0, other.quota == 0) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Greater,
            (false, true) => Ordering::Less,
            _ => cmp_ratio(self.usage, self.quota, other.usage, other.quota),
        };
        by_ratio.then(self.share.cmp(&other.share))
    }
}

/// What a pass must look at, so that R16 work is limited to the shares it can affect: what
/// changed since the last pass, and during the pass under way (it grows as capacity is
/// released in the pass). Changed types are the ledger's. Phase 3 also looks again at the
/// shares whose front job fitted by borrowing in the previous pass's phase 3 at the same
/// instant (`borrowers`): that pass ended after its first dispatch, before every share had
/// its turn (R16). A share whose front job did not fit then fits no better now unless its
/// queue or type changed since, which makes it relevant anyway.
#[derive(Clone, Debug)]
pub(crate) struct Marks {
    /// Something changed that a pass must look at.
    pub changed: bool,
    pub(super) all_since: bool,
    pub(super) shares_since: ShareSet,
    pub(super) all: bool,
    pub(super) shares: ShareSet,
    /// Shares phase 3 of the next pass looks at whatever changed.
    pub(super) borrowers_next: ShareSet,
    /// Shares phase 3 of this pass looks at whatever changed.
    pub(super) borrowers: ShareSet,
    /// The next pass follows one whose only progress was a borrower dispatched in phase 3
    /// (and jobs within quota in phase 1): its phases 1 and 2 look only at shares whose queue
    /// changed and at these, whose front job fitted by borrowing in that phase 3 (see
    /// `Simulation::pass`).
    pub(super) narrow_next: Option<ShareSet>,
    pub(super) narrow: bool,
}

impl Marks {
    pub fn new() -> Self {
        Marks {
            changed: false,
            all_since: true,
            shares_since: ShareSet::EMPTY,
            all: true,
            shares: ShareSet::EMPTY,
            borrowers_next: ShareSet::EMPTY,
            borrowers: ShareSet::EMPTY,
            narrow_next: None,
            narrow: false,
        }
    }

    /// A share's queue changed (its front job may be another one).
    pub fn share(&mut self, s: ShareId) {
        self.shares_since.insert(s);
        self.shares.insert(s);
        self.changed = true;
    }

    /// Everything must be looked at.
    pub fn all(&mut self) {
        self.all_since = true;
        self.all = true;
        self.changed = true;
    }

    pub(super) fn begin_pass(&mut self, all: bool) {
        self.all = core::mem::take(&mut self.all_since) || all;
        self.shares = core::mem::take(&mut self.shares_since);
        self.borrowers = core::mem::take(&mut self.borrowers_next);
        self.narrow = false;
        if let Some(fitted) = self.narrow_next.take() {
            if !self.all {
                self.narrow = true;
                self.shares = self.shares.union(fitted);
            }
        }
    }

    /// End of a pass; when another follows at the same instant, its phase 3 looks at the
    /// shares whose front job fitted by borrowing in this one's (`borrowers`).
    pub(super) fn end_pass(&mut self, borrowers: Option<ShareSet>, narrow: Option<ShareSet>) {
        self.borrowers_next = borrowers.unwrap_or(ShareSet::EMPTY);
        self.narrow_next = narrow.filter(|_| borrowers.is_some());
        self.narrow = false;
        self.all = false;
        self.shares = ShareSet::EMPTY;
        self.borrowers = ShareSet::EMPTY;
    }
}
