//! R16 holds: a front job that fits its quota but not the free instances holds the free
//! instances it waits for; and the fit checks that count a job's own hold as free.

use alloc::vec::Vec;

use crate::scenario::{JobId, ShareId, TypeId};

use super::ledger::Need;
use super::queue::Head;
use super::Simulation;

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

    /// Job `j` holds nothing any more; returns what it held, if it was a holder.
    pub fn remove(&mut self, j: JobId) -> Option<u64> {
        let p = self.0.iter().position(|h| h.job == j)?;
        Some(self.0.remove(p).instances)
    }

    /// Job `j` holds at least `want` instances (it becomes a holder if it was not); returns
    /// how many more it holds.
    pub fn raise(&mut self, j: JobId, want: u64) -> u64 {
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

    fn take(&mut self) -> Vec<Hold> {
        core::mem::take(&mut self.0)
    }

    fn push(&mut self, h: Hold) {
        self.0.push(h);
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Simulation {
    /// Instances job `j` holds for itself (R16), if any.
    #[inline]
    pub(crate) fn hold_of(&self, j: JobId, t: TypeId) -> u64 {
        if self.ledger.withheld(t) == 0 {
            return 0;
        }
        self.holds.of(j)
    }

    pub(crate) fn free_for(&self, j: JobId, t: TypeId) -> i64 {
        self.ledger.free(t, || self.hold_of(j, t))
    }

    /// Fewer free instances than the job needs (or no service environment limit): it fits
    /// neither within quota nor by borrowing.
    pub(crate) fn free_short(&self, need: Need) -> bool {
        self.ledger.capacity(need.ty).is_none() || self.free_for(need.job, need.ty) < need.count as i64
    }

    /// R14 with `own_release` instances of the job's own share counted as released (in-share
    /// victims, R20). `within` asks for a fit within quota (R16 phase 1).
    pub(crate) fn fits_adj(&self, j: JobId, own_release: u64, within: bool) -> bool {
        self.fits_need(self.need(j), own_release, within)
    }

    pub(crate) fn need(&self, j: JobId) -> Need {
        let jc = self.job_cfg(j);
        Need { job: j, share: jc.share, ty: jc.ty, count: jc.count }
    }

    /// The front job of share `s` as a [`Need`].
    pub(crate) fn head_need(s: ShareId, h: Head) -> Need {
        Need { job: h.job, share: s, ty: h.ty, count: h.count }
    }

    /// [`Self::fits_adj`] for a request already at hand.
    #[inline]
    pub(crate) fn fits_need(&self, need: Need, own_release: u64, within: bool) -> bool {
        self.ledger.fits(need, || self.hold_of(need.job, need.ty), own_release, within)
    }

    pub(crate) fn fits(&self, j: JobId, within: bool) -> bool {
        self.fits_adj(j, 0, within)
    }

    pub(crate) fn drop_hold(&mut self, j: JobId) {
        if let Some(h) = self.holds.remove(j) {
            if h > 0 {
                let t = self.job_cfg(j).ty;
                self.ledger.change_withheld(t, 0, h);
                self.ledger.mark(t);
            }
        }
    }

    /// R16 phase 1: a front job that fits its quota and the pool but not `free` holds the
    /// free instances it waits for.
    pub(crate) fn maybe_hold(&mut self, need: Need) {
        let (f, t, n) = (need.job, need.ty, need.count);
        if !self.may_hold(need) || self.ledger.capacity(t).is_none_or(|cap| n > cap) {
            return;
        }
        let free = self.free_for(f, t).max(0) as u64;
        let want = free.min(n);
        let more = self.holds.raise(f, want);
        if more > 0 {
            self.ledger.change_withheld(t, more, 0);
        }
    }

    /// R16: a job may hold free instances while it fits its quota and (for a lender) the pool.
    pub(crate) fn may_hold(&self, need: Need) -> bool {
        self.ledger.may_hold(need)
    }

    /// Start of a pass: holds, oldest first, are revalidated and take newly free instances.
    pub(crate) fn pass_holds(&mut self) {
        if self.holds.is_empty() {
            return;
        }
        let holds = self.holds.take();
        for hold in &holds {
            self.ledger.change_withheld(self.job_cfg(hold.job).ty, 0, hold.instances);
        }
        for &Hold { job: h, instances: hv } in &holds {
            let jc = self.job_cfg(h);
            let (s, t, n) = (jc.share, jc.ty, jc.count);
            // The front job is always a queued one.
            let still_front = self.first_job(s) == Some(h);
            let take = if !still_front || !self.may_hold(self.need(h)) {
                0
            } else {
                let take = (self.free_for(h, t).max(0) as u64).min(n);
                self.holds.push(Hold { job: h, instances: take });
                take
            };
            self.ledger.change_withheld(t, take, 0);
            // A hold that changed moves free instances between jobs: their shares look again.
            if take != hv {
                self.ledger.mark(t);
                self.marks.share(s);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_holder_keeps_its_place_and_only_ever_holds_more() {
        let mut h = Holds::default();
        assert!(h.is_empty());
        assert_eq!(h.raise(7, 0), 0, "a holder with nothing free yet");
        assert_eq!(h.raise(3, 2), 2);
        assert_eq!(h.raise(7, 1), 1, "the older holder takes more");
        assert_eq!(h.raise(7, 1), 0, "never less than it holds");
        assert_eq!((h.of(7), h.of(3), h.of(9)), (1, 2, 0));
        // Oldest first: 7 became a holder before 3.
        let order: Vec<JobId> = h.take().iter().map(|x| x.job).collect();
        assert_eq!(order, [7, 3]);
        assert!(h.is_empty());
    }

    #[test]
    fn removing_a_holder_gives_back_what_it_held() {
        let mut h = Holds::default();
        h.raise(1, 3);
        h.raise(2, 1);
        assert_eq!(h.remove(1), Some(3));
        assert_eq!(h.remove(1), None, "not a holder any more");
        h.push(Hold { job: 4, instances: 2 });
        assert_eq!((h.of(2), h.of(4)), (1, 2));
    }
}
