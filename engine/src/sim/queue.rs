//! R11: the per-share queues, in priority, then `submitAt`, then input order, with each
//! share's first job cached.

#![allow(clippy::needless_range_loop)]

use core::cmp::Reverse;

use crate::validate::{JobId, ShareId};

use super::{Simulation, NONE};
/// The first job of a share's queue with the fields a pass reads, kept next to each other
/// (and in the queue key) so that looking at a share does not touch the job tables.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Head {
    pub(crate) job: u32,
    pub(crate) ty: u32,
    pub(crate) priority: u32,
    pub(crate) count: u64,
    pub(crate) submit_at: u64,
}

impl Head {
    pub(crate) const EMPTY: Head = Head { job: NONE, ty: 0, priority: 0, count: 0, submit_at: 0 };

    /// The head a queue key describes.
    pub(crate) fn of(k: &QKey) -> Head {
        Head { job: k.2, ty: k.3, priority: k.0 .0, count: k.4, submit_at: k.1 }
    }
}

/// Queue key, R11: highest priority, then earliest `submitAt`, then input order. The type
/// and count follow (the job already makes the key unique) for the cached heads.
pub(crate) type QKey = (Reverse<u32>, u64, u32, u32, u64);

impl Simulation {
    pub(crate) fn qkey(&self, j: JobId) -> QKey {
        let jc = self.job_cfg(j);
        (Reverse(self.jobs[j as usize].priority), jc.submit_at, j, jc.ty, jc.count)
    }

    /// Refreshes share `s`'s cached head; returns whether it is another job now.
    pub(crate) fn refresh_head(&mut self, s: ShareId) -> bool {
        let old = self.heads[s as usize];
        let new = match self.queues[s as usize].first() {
            None => Head::EMPTY,
            Some(k) => Head::of(k),
        };
        self.heads[s as usize] = new;
        if s < 64 {
            if old.job != NONE {
                self.head_types[old.ty as usize] &= !(1u64 << s);
            }
            if new.job != NONE {
                self.head_types[new.ty as usize] |= 1u64 << s;
            }
        }
        old.job != new.job
    }

    pub(crate) fn enqueue(&mut self, j: JobId) {
        let k = self.qkey(j);
        let s = self.job_cfg(j).share;
        self.queues[s as usize].insert(k);
        self.stats.max_queued = self.stats.max_queued.max(self.queues[s as usize].len() as u64);
        // Without backfill a pass reads only a share's front job (with backfill every share
        // is looked at anyway): a job queued behind it changes nothing the pass can see.
        if self.refresh_head(s) {
            self.mark_share(s);
        }
    }

    pub(crate) fn dequeue(&mut self, j: JobId) {
        let s = self.job_cfg(j).share;
        // Most jobs leave from the front of their queue.
        if self.heads[s as usize].job == j {
            self.queues[s as usize].pop_first();
        } else {
            let k = self.qkey(j);
            self.queues[s as usize].remove(&k);
        }
        if self.refresh_head(s) {
            self.mark_share(s);
        }
        self.drop_hold(j);
    }
}
