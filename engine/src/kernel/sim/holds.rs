//! R16 holds: a front job that fits its quota but not the free instances holds the free
//! instances it waits for, oldest holder first; and [`Fit`], the R14 checks that count a job's
//! own hold as free. The holds keep the ledger's withheld instances in step with them.

use alloc::vec::Vec;

use crate::scenario::{JobId, ShareId, TypeId};

use super::ledger::{Ledger, Need};
use super::share_set::ShareSet;

/// A front job holding free instances for itself.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hold {
    pub job: JobId,
    pub instances: u64,
}

/// The holders, oldest first. A holder may hold no instance yet: it still comes before
/// later holders.
#[derive(Clone, Debug, Default)]
pub(crate) struct Holds(Vec<Hold>);

impl Holds {
    /// Instances job `j` holds.
    pub fn of(&self, j: JobId) -> u64 {
        self.0.iter().find(|h| h.job == j).map_or(0, |h| h.instances)
    }

    /// Whether no job holds anything.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Job `j` holds at least `want` instances (it becomes a holder if it was not); returns
    /// how many more it holds.
    fn raise(&mut self, j: JobId, want: u64) -> u64 {
        let p = match self.0.iter().position(|h| h.job == j) {
            Some(p) => p,
            None => {
                self.0.push(Hold { job: j, instances: 0 });
                self.0.len() - 1
            }
        };
        let old = self.0[p].instances;
        if want > old {
            self.0[p].instances = want;
            want - old
        } else {
            0
        }
    }

    /// Job `j` (of type `t`) holds nothing any more: what it held is free again.
    pub fn drop_hold(&mut self, ledger: &mut Ledger, j: JobId, t: TypeId) {
        let Some(p) = self.0.iter().position(|h| h.job == j) else { return };
        let h = self.0.remove(p).instances;
        if h > 0 {
            ledger.change_withheld(t, 0, h);
            ledger.changes_mut().mark(t);
        }
    }

    /// R16 phase 1: a front job that fits its quota and the pool but not `free` holds the
    /// free instances it waits for.
    pub fn maybe_hold(&mut self, ledger: &mut Ledger, need: Need) {
        let (f, t, n) = (need.job, need.ty, need.count);
        if !ledger.may_hold(need) || ledger.capacity(t).is_none_or(|cap| n > cap) {
            return;
        }
        let free = Fit { ledger, holds: self }.free_for(f, t).max(0) as u64;
        let more = self.raise(f, free.min(n));
        if more > 0 {
            ledger.change_withheld(t, more, 0);
        }
    }

    /// R16 at the start of a pass: the holds, oldest first, are revalidated and take newly
    /// free instances. A holder keeps its hold while it is its share's front job (`front`)
    /// and may hold (it fits its quota and, for a lender, the pool; R17: it can run at all).
    /// `need_of` gives a holder's request. Returns the shares whose holder's hold changed:
    /// free instances moved between jobs, so they must be looked at again.
    pub fn revalidate(
        &mut self,
        ledger: &mut Ledger,
        need_of: impl Fn(JobId) -> Need,
        front: impl Fn(&Ledger, ShareId) -> Option<JobId>,
    ) -> ShareSet {
        let mut moved = ShareSet::EMPTY;
        if self.0.is_empty() {
            return moved;
        }
        let holds = core::mem::take(&mut self.0);
        for hold in &holds {
            ledger.change_withheld(need_of(hold.job).ty, 0, hold.instances);
        }
        for &Hold { job: h, instances: before } in &holds {
            let need = need_of(h);
            let take = if front(ledger, need.share) == Some(h) && ledger.may_hold(need) {
                // The holds taken again so far are withheld; `h` holds nothing yet.
                let take = (ledger.free(need.ty, || 0).max(0) as u64).min(need.count);
                self.0.push(Hold { job: h, instances: take });
                take
            } else {
                0
            };
            ledger.change_withheld(need.ty, take, 0);
            if take != before {
                ledger.changes_mut().mark(need.ty);
                moved.insert(need.share);
            }
        }
        moved
    }
}

/// R14 with holds (R16): what a job may count on, read from the ledger and the holds.
#[derive(Clone, Copy)]
pub(crate) struct Fit<'a> {
    pub ledger: &'a Ledger,
    pub holds: &'a Holds,
}

impl Fit<'_> {
    /// Instances job `j` holds for itself (R16), if any.
    #[inline]
    pub fn hold_of(&self, j: JobId, t: TypeId) -> u64 {
        if self.ledger.withheld(t) == 0 {
            return 0;
        }
        self.holds.of(j)
    }

    pub fn free_for(&self, j: JobId, t: TypeId) -> i64 {
        self.ledger.free(t, || self.hold_of(j, t))
    }

    /// Fewer free instances than the job needs (or no service environment limit): it fits
    /// neither within quota nor by borrowing.
    pub fn free_short(&self, need: Need) -> bool {
        self.ledger.capacity(need.ty).is_none() || self.free_for(need.job, need.ty) < need.count as i64
    }

    /// R14 with `own_release` instances of the job's own share counted as released (in-share
    /// victims, R20). `within` asks for a fit within quota (R16 phase 1).
    #[inline]
    pub fn fits(&self, need: Need, own_release: u64, within: bool) -> bool {
        self.ledger.fits(need, || self.hold_of(need.job, need.ty), own_release, within)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_holder_keeps_its_place_and_only_ever_holds_more() {
        let mut h = Holds::default();
        assert_eq!(h.raise(JobId(7), 0), 0, "a holder with nothing free yet");
        assert_eq!(h.raise(JobId(3), 2), 2);
        assert_eq!(h.raise(JobId(7), 1), 1, "the older holder takes more");
        assert_eq!(h.raise(JobId(7), 1), 0, "never less than it holds");
        assert_eq!((h.of(JobId(7)), h.of(JobId(3)), h.of(JobId(9))), (1, 2, 0));
        // Oldest first: 7 became a holder before 3.
        let order: Vec<JobId> = h.0.iter().map(|x| x.job).collect();
        assert_eq!(order, [JobId(7), JobId(3)]);
    }
}
