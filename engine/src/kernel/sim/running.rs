//! R19, R20: the running jobs (`SCHEDULED` to release) of each share and instance type, the
//! lists victim searches scan, with each job's place in its list and the lowest priority of
//! a list's candidates, so that a job leaves its list and a pass rules in-share preemption
//! out without scanning.

use alloc::vec;
use alloc::vec::Vec;

use crate::scenario::JobId;

/// A running job in its share and type's list, with what victim searches read, so scanning a
/// list does not touch the job table.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RunEntry {
    pub(crate) job: JobId,
    /// The job's priority, or [`Self::PREEMPTED`] while it is being preempted.
    key: u32,
}

impl RunEntry {
    /// The key of a job being preempted: above every priority, so never a candidate.
    const PREEMPTED: u32 = u32::MAX;

    /// Whether the job may be a victim (R19): it is not being preempted already.
    #[inline]
    pub fn is_candidate(&self) -> bool {
        self.key != Self::PREEMPTED
    }

    /// Whether the job may be an in-share victim of a job of priority `prio` (R20).
    #[inline]
    pub fn is_candidate_below(&self, prio: u32) -> bool {
        self.key < prio
    }
}

/// Every share and type's running list (indexed by share * types + type).
#[derive(Clone, Debug)]
pub(crate) struct Running {
    lists: Vec<Vec<RunEntry>>,
    /// Per list: the lowest key in it ([`RunEntry::PREEMPTED`] when it has no candidate).
    lowest: Vec<u32>,
    /// Per job: its place in its list while it runs.
    place: Vec<u32>,
}

impl Running {
    pub fn new(lists: usize, jobs: usize) -> Self {
        Running {
            lists: vec![Vec::new(); lists],
            lowest: vec![RunEntry::PREEMPTED; lists],
            place: vec![u32::MAX; jobs],
        }
    }

    /// The running jobs of list `i`, in no particular order.
    #[inline]
    pub fn list(&self, i: usize) -> &[RunEntry] {
        &self.lists[i]
    }

    /// Whether list `i` has a candidate (not being preempted) of priority below `prio` (R20).
    #[inline]
    pub fn has_candidate_below(&self, i: usize, prio: u32) -> bool {
        self.lowest[i] < prio
    }

    /// Job `j` of priority `prio` starts running in list `i`.
    pub fn push(&mut self, i: usize, j: JobId, prio: u32) {
        self.place[j.index()] = self.lists[i].len() as u32;
        self.lists[i].push(RunEntry { job: j, key: prio });
        self.lowest[i] = self.lowest[i].min(prio);
    }

    /// Job `j` leaves list `i`.
    pub fn remove(&mut self, i: usize, j: JobId) {
        let p = self.place[j.index()] as usize;
        debug_assert_eq!(self.lists[i][p].job, j, "a running job's place");
        let key = self.lists[i].swap_remove(p).key;
        if let Some(moved) = self.lists[i].get(p) {
            self.place[moved.job.index()] = p as u32;
        }
        self.place[j.index()] = u32::MAX;
        if key == self.lowest[i] {
            self.recompute(i);
        }
    }

    /// Job `j` of list `i` is being preempted: it is no candidate any more (R21).
    pub fn set_preempted(&mut self, i: usize, j: JobId) {
        let e = &mut self.lists[i][self.place[j.index()] as usize];
        let key = core::mem::replace(&mut e.key, RunEntry::PREEMPTED);
        if key == self.lowest[i] {
            self.recompute(i);
        }
    }

    /// Job `j` of list `i`, if it runs, has priority `prio` now (R23); a job being preempted
    /// stays no candidate.
    pub fn set_priority(&mut self, i: usize, j: JobId, prio: u32) {
        let Some(&p) = self.place.get(j.index()).filter(|&&p| p != u32::MAX) else { return };
        let e = &mut self.lists[i][p as usize];
        if e.is_candidate() {
            e.key = prio;
            self.recompute(i);
        }
    }

    /// Whether job `j` runs (is in a list).
    #[inline]
    pub fn contains(&self, j: JobId) -> bool {
        self.place[j.index()] != u32::MAX
    }

    fn recompute(&mut self, i: usize) {
        self.lowest[i] = self.lists[i].iter().map(|e| e.key).min().unwrap_or(RunEntry::PREEMPTED);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jobs(r: &Running, i: usize) -> Vec<JobId> {
        let mut v: Vec<JobId> = r.list(i).iter().map(|e| e.job).collect();
        v.sort_unstable();
        v
    }

    #[test]
    fn r20_the_lowest_candidate_priority_follows_every_change() {
        let mut r = Running::new(2, 5);
        assert!(!r.has_candidate_below(0, u32::MAX - 1), "an empty list has no candidate");
        r.push(0, JobId(0), 5);
        r.push(0, JobId(1), 2);
        r.push(0, JobId(2), 7);
        r.push(1, JobId(3), 0);
        assert!(r.has_candidate_below(0, 3) && !r.has_candidate_below(0, 2));
        r.set_preempted(0, JobId(1));
        assert!(!r.has_candidate_below(0, 5) && r.has_candidate_below(0, 6), "a victim is no candidate");
        r.set_priority(0, JobId(2), 1);
        assert!(r.has_candidate_below(0, 2));
        r.set_priority(0, JobId(1), 0);
        assert!(!r.has_candidate_below(0, 1), "a job being preempted stays no candidate");
        r.remove(0, JobId(2));
        assert!(!r.has_candidate_below(0, 5) && r.has_candidate_below(0, 6));
        r.set_priority(0, JobId(4), 0);
        assert!(!r.contains(JobId(4)), "a priority change of a job not running changes nothing");
        assert!(r.has_candidate_below(1, 1) && !r.has_candidate_below(1, 0));
    }

    #[test]
    fn a_job_leaves_its_list_from_any_place() {
        let mut r = Running::new(1, 4);
        for j in 0..4 {
            r.push(0, JobId(j), 0);
        }
        r.remove(0, JobId(1));
        assert_eq!(jobs(&r, 0), [JobId(0), JobId(2), JobId(3)]);
        r.remove(0, JobId(3));
        r.remove(0, JobId(0));
        assert_eq!(jobs(&r, 0), [JobId(2)]);
        assert!(r.contains(JobId(2)) && !r.contains(JobId(0)));
        r.remove(0, JobId(2));
        assert!(r.list(0).is_empty());
    }
}
