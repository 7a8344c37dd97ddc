//! R11: the per-share queues, in priority, then `submitAt`, then input order, with each
//! share's first job cached. The queues report when a share's first job changes; what that
//! means for a pass is the caller's.

use alloc::collections::BTreeMap;
use alloc::vec;
use alloc::vec::Vec;

use crate::scenario::{JobId, ShareId, TypeId};

use super::ledger::Need;
use super::share_set::ShareSet;

/// Queue key, R11: highest priority, then earliest `submitAt`, then input order, packed into
/// one integer whose order is R11's (the priority's complement in the top 32 bits, `submitAt`
/// in the next 64, the job in the last 32): a queue of 50,000 jobs is searched by comparing
/// 16-byte integers, several to a cache line, with no branch on which field decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct QKey(u128);

impl QKey {
    pub fn new(priority: u32, submit_at: u64, job: JobId) -> QKey {
        QKey((u128::from(u32::MAX - priority) << 96) | (u128::from(submit_at) << 32) | u128::from(job.0))
    }

    pub fn priority(self) -> u32 {
        u32::MAX - (self.0 >> 96) as u32
    }

    pub fn submit_at(self) -> u64 {
        (self.0 >> 32) as u64
    }

    pub fn job(self) -> JobId {
        JobId(self.0 as u32)
    }
}

/// What a queue keeps beside each key for its first job: the type and instance count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Want {
    pub ty: TypeId,
    pub count: u64,
}

/// The first job of a share's queue with the fields a pass reads, kept next to each other
/// (and in the queue) so that looking at a share does not touch the job tables.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Head {
    pub job: JobId,
    pub ty: TypeId,
    pub priority: u32,
    pub count: u64,
    pub submit_at: u64,
}

impl Head {
    /// The head a queue entry describes.
    pub fn of(k: &QKey, w: &Want) -> Head {
        Head { job: k.job(), ty: w.ty, priority: k.priority(), count: w.count, submit_at: k.submit_at() }
    }

    /// The request of this front job of share `s`'s queue, read from the queue itself.
    #[inline]
    pub fn need(&self, s: ShareId) -> Need {
        Need { job: self.job, share: s, ty: self.ty, count: self.count }
    }
}

/// Every share's queue.
#[derive(Clone, Debug)]
pub(crate) struct Queues {
    /// Keys and what they want, in a map rather than a set of both: a B-tree node keeps its
    /// keys apart from its values, so a search reads only keys.
    sets: Vec<BTreeMap<QKey, Want>>,
    /// Cached first key of each share's queue.
    heads: Vec<Option<Head>>,
    /// Per type: the shares whose first job is of that type.
    head_types: Vec<ShareSet>,
}

impl Queues {
    pub fn new(shares: usize, types: usize) -> Self {
        Queues {
            sets: vec![BTreeMap::new(); shares],
            heads: vec![None; shares],
            head_types: vec![ShareSet::EMPTY; types],
        }
    }

    /// Queues `k` in share `s`; returns the queue's length and whether its first job changed.
    pub fn insert(&mut self, s: ShareId, k: QKey, w: Want) -> (usize, bool) {
        self.sets[s.index()].insert(k, w);
        (self.sets[s.index()].len(), self.refresh_head(s))
    }

    /// Takes `k` out of share `s`'s queue; returns whether it was there and whether the
    /// share's first job changed.
    pub fn remove(&mut self, s: ShareId, k: &QKey) -> (bool, bool) {
        // Most jobs leave from the front of their queue.
        let removed = if self.heads[s.index()].is_some_and(|h| h.job == k.job()) {
            self.sets[s.index()].pop_first().is_some()
        } else {
            self.sets[s.index()].remove(k).is_some()
        };
        (removed, self.refresh_head(s))
    }

    pub fn contains(&self, s: ShareId, k: &QKey) -> bool {
        self.sets[s.index()].contains_key(k)
    }

    /// Share `s`'s first job.
    #[inline]
    pub fn head(&self, s: ShareId) -> Option<Head> {
        self.heads[s.index()]
    }

    /// Share `s`'s jobs in R11 order.
    pub fn iter(&self, s: ShareId) -> impl Iterator<Item = Head> + '_ {
        self.sets[s.index()].iter().map(|(k, w)| Head::of(k, w))
    }

    /// The shares whose first job is of type `t`.
    #[inline]
    pub fn heads_of_type(&self, t: TypeId) -> ShareSet {
        self.head_types[t.index()]
    }

    /// Refreshes share `s`'s cached head; returns whether it is another job now.
    fn refresh_head(&mut self, s: ShareId) -> bool {
        let old = self.heads[s.index()];
        let new = self.sets[s.index()].first_key_value().map(|(k, w)| Head::of(k, w));
        self.heads[s.index()] = new;
        if let Some(h) = old {
            self.head_types[h.ty.index()].remove(s);
        }
        if let Some(h) = new {
            self.head_types[h.ty.index()].insert(s);
        }
        old.map(|h| h.job) != new.map(|h| h.job)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(priority: u32, submit_at: u64, job: JobId) -> (QKey, Want) {
        (QKey::new(priority, submit_at, job), Want { ty: TypeId(job.0 % 2), count: 1 })
    }

    #[test]
    fn r11_the_packed_key_orders_as_its_fields_do() {
        let fields = [0, 1, 9999, u32::MAX - 1, u32::MAX];
        let times = [0, 1, 1 << 32, (1 << 53) - 1, u64::MAX];
        let jobs = [0, 1, 2_000_000, u32::MAX];
        let mut all = Vec::new();
        for &p in &fields {
            for &t in &times {
                for &j in &jobs {
                    all.push((core::cmp::Reverse(p), t, j));
                }
            }
        }
        for a in &all {
            let ka = QKey::new(a.0 .0, a.1, JobId(a.2));
            assert_eq!((ka.priority(), ka.submit_at(), ka.job()), (a.0 .0, a.1, JobId(a.2)), "read back");
            for b in &all {
                assert_eq!(ka.cmp(&QKey::new(b.0 .0, b.1, JobId(b.2))), a.cmp(b), "{a:?} against {b:?}");
            }
        }
    }

    #[test]
    fn r11_highest_priority_then_earliest_submission_then_input_order() {
        let mut q = Queues::new(1, 2);
        for (k, w) in [key(1, 0, JobId(0)), key(5, 9, JobId(1)), key(5, 3, JobId(2)), key(5, 3, JobId(3))] {
            q.insert(ShareId(0), k, w);
        }
        assert_eq!(q.iter(ShareId(0)).map(|h| h.job.0).collect::<Vec<_>>(), [2, 3, 1, 0]);
    }

    #[test]
    fn the_queue_reports_when_its_first_job_changes() {
        let mut q = Queues::new(2, 2);
        let ((k4, w4), (k5, w5)) = (key(1, 0, JobId(4)), key(0, 0, JobId(5)));
        assert_eq!(q.insert(ShareId(1), k4, w4), (1, true));
        assert_eq!(q.insert(ShareId(1), k5, w5), (2, false), "queued behind");
        assert_eq!(q.heads_of_type(TypeId(0)).iter().collect::<Vec<_>>(), [ShareId(1)]);
        assert_eq!(q.remove(ShareId(1), &k5), (true, false), "removed from behind the first");
        assert_eq!(q.remove(ShareId(1), &k5), (false, false), "not there any more");
        assert_eq!(q.remove(ShareId(1), &k4), (true, true));
        assert!(q.head(ShareId(1)).is_none());
        assert_eq!(q.heads_of_type(TypeId(0)), ShareSet::EMPTY);
    }
}
