//! R6, R7, R8, R9: what each job is doing: its status (with the R25 counts per status), its
//! attempts, its training and saved progress, its priority as updated, and whether it is being
//! preempted. [`Jobs`] keeps this bookkeeping and nothing else: capacity, queues and events are
//! the orchestrator's, which tells it what happened and reads back what it needs.

use alloc::vec::Vec;

use crate::chunked::Chunked;
use crate::reasons::Reason;
use crate::result::Status;
use crate::scenario::{JobCfg, JobId};

use super::events::status_slot;

/// An index, or none, in 4 bytes (the job table is kept small).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Link(u32);

impl Link {
    pub const NONE: Link = Link(u32::MAX);

    pub fn to(i: u32) -> Link {
        debug_assert!(i != u32::MAX);
        Link(i)
    }

    #[inline]
    pub fn get(self) -> Option<u32> {
        (self != Self::NONE).then_some(self.0)
    }
}

/// A time, or not (yet), in 8 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Moment(u64);

impl Moment {
    pub const NEVER: Moment = Moment(u64::MAX);

    pub fn at(t: u64) -> Moment {
        Moment(t)
    }

    #[inline]
    pub fn get(self) -> Option<u64> {
        (self != Self::NEVER).then_some(self.0)
    }
}

/// One attempt of a job, in the attempt list shared by all jobs: each job's attempts are
/// linked from its last one back (`prev`), so a job costs no allocation of its own.
#[derive(Clone, Debug)]
pub(crate) struct AttemptRaw {
    pub(crate) started: u64,
    /// Not while the attempt holds its instances.
    pub(crate) stopped: Moment,
    pub(crate) borrowed: u64,
    pub(crate) reason: Reason,
    /// The job's previous attempt.
    pub(crate) prev: Link,
}

/// What a job is doing, kept small (72 bytes): a million of them are read at random.
#[derive(Clone, Debug)]
pub(crate) struct JobDyn {
    /// Training saved by checkpoints (R8). Lost work is in the preemption log.
    pub(crate) saved: u64,
    /// Training time over all attempts.
    pub(crate) trained: u64,
    /// Since when the current attempt trains, if it does.
    pub(crate) running_since: Moment,
    /// When it first reached `RUNNING`.
    pub(crate) first_running: Moment,
    /// When it stopped for good.
    pub(crate) stopped_at: Moment,
    pub(crate) reason: Reason,
    pub(crate) priority: u32,
    /// Changes whenever its timers stop applying (R10: stale timers are dropped).
    pub(crate) gen: u32,
    pub(crate) preempted_count: u32,
    /// While it is being preempted: its record in the preemption log.
    pub(crate) preempting: Link,
    /// Its latest attempt in the attempt list.
    pub(crate) last_attempt: Link,
    pub(crate) status: Option<Status>,
    /// Terminated before its `submitAt`: never submitted.
    pub(crate) cancelled: bool,
}

/// Every job's dynamic state, its attempts, and how many jobs are in each status (R25).
#[derive(Clone, Debug)]
pub(crate) struct Jobs {
    table: Vec<JobDyn>,
    attempts: Chunked<AttemptRaw>,
    /// Jobs per status, by [`status_slot`].
    counts: [u64; 8],
}

impl Jobs {
    /// Every job not yet submitted, with its priority, and (R28) the attempts already
    /// preempted and the progress they saved.
    pub fn new(jobs: &[JobCfg]) -> Self {
        let n = jobs.len();
        let table = jobs
            .iter()
            .map(|jc| JobDyn {
                saved: jc.completed_work,
                trained: 0,
                running_since: Moment::NEVER,
                first_running: Moment::NEVER,
                stopped_at: Moment::NEVER,
                reason: Reason::None,
                priority: jc.priority,
                gen: 0,
                preempted_count: jc.previous_attempts,
                preempting: Link::NONE,
                last_attempt: Link::NONE,
                status: None,
                cancelled: false,
            })
            .collect();
        Jobs { table, attempts: Chunked::default(), counts: [n as u64, 0, 0, 0, 0, 0, 0, 0] }
    }

    /// Number of jobs.
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// Job `j`'s state.
    #[inline]
    pub fn get(&self, j: JobId) -> &JobDyn {
        &self.table[j.index()]
    }

    /// Every job's state, in input order.
    pub fn iter(&self) -> impl Iterator<Item = &JobDyn> + '_ {
        self.table.iter()
    }

    /// Jobs per status, by [`status_slot`] (R25).
    pub fn counts(&self) -> &[u64; 8] {
        &self.counts
    }

    #[inline]
    pub fn status(&self, j: JobId) -> Option<Status> {
        self.table[j.index()].status
    }

    #[inline]
    pub fn priority(&self, j: JobId) -> u32 {
        self.table[j.index()].priority
    }

    #[inline]
    pub fn gen(&self, j: JobId) -> u32 {
        self.table[j.index()].gen
    }

    /// The preemption log entry of job `j` while it is being preempted.
    #[inline]
    pub fn preempting(&self, j: JobId) -> Option<u32> {
        self.table[j.index()].preempting.get()
    }

    /// Sets a job's status, keeping the counts per status.
    pub fn set_status(&mut self, j: JobId, status: Status) {
        let jd = &mut self.table[j.index()];
        self.counts[status_slot(jd.status)] -= 1;
        self.counts[status_slot(Some(status))] += 1;
        jd.status = Some(status);
    }

    /// R23: a job's priority changes.
    pub fn set_priority(&mut self, j: JobId, priority: u32) {
        self.table[j.index()].priority = priority;
    }

    /// R23: terminated before its `submitAt`, it is never submitted.
    pub fn cancel(&mut self, j: JobId) {
        self.table[j.index()].cancelled = true;
    }

    /// Its timers no longer apply.
    fn bump(jd: &mut JobDyn) {
        jd.gen = jd.gen.wrapping_add(1);
    }

    /// R6: an attempt starts at `now` with `borrowed` instances above its share's quota; the
    /// job's earlier timers no longer apply.
    pub fn start_attempt(&mut self, j: JobId, now: u64, borrowed: u64) {
        let jd = &mut self.table[j.index()];
        let prev = jd.last_attempt;
        jd.last_attempt = Link::to(self.attempts.push(AttemptRaw {
            started: now,
            stopped: Moment::NEVER,
            borrowed,
            reason: Reason::None,
            prev,
        }) as u32);
        Self::bump(jd);
    }

    /// Whether job `j`'s last two attempts both started at `now`: a third dispatch at this
    /// instant would be R10's bound.
    pub fn dispatched_twice_at(&self, j: JobId, now: u64) -> bool {
        let Some(a) = self.last_attempt(j).filter(|a| a.started == now) else { return false };
        a.prev.get().is_some_and(|p| self.attempts.get(p as usize).started == now)
    }

    /// R8: the current attempt starts training at `now` (`RUNNING`); returns the work left.
    pub fn start_training(&mut self, j: JobId, now: u64, duration: u64) -> u64 {
        let jd = &mut self.table[j.index()];
        jd.running_since = Moment::at(now);
        if jd.first_running == Moment::NEVER {
            jd.first_running = Moment::at(now);
        }
        duration - jd.saved
    }

    /// Training time of the current attempt up to `now`.
    pub fn attempt_training(&self, j: JobId, now: u64) -> u64 {
        self.table[j.index()].running_since.get().map_or(0, |since| now - since)
    }

    /// Training time over every attempt up to `now`.
    pub fn training(&self, j: JobId, now: u64) -> u64 {
        self.table[j.index()].trained + self.attempt_training(j, now)
    }

    /// R8: the current attempt's training stops at `now`; returns its training time. The
    /// job's timers no longer apply.
    pub fn stop_training(&mut self, j: JobId, now: u64) -> u64 {
        let trained = self.attempt_training(j, now);
        let jd = &mut self.table[j.index()];
        jd.trained += trained;
        jd.running_since = Moment::NEVER;
        Self::bump(jd);
        trained
    }

    /// R7, R8: job `j` is told to stop (preemption log entry `log`): it keeps `kept` of the
    /// training it just stopped if it checkpoints, else restarts from zero. Returns this
    /// preemption's count (`preemptedAttemptCount` with it).
    pub fn start_preemption(&mut self, j: JobId, log: u32, kept: u64, checkpoints: bool) -> u32 {
        let jd = &mut self.table[j.index()];
        if checkpoints {
            jd.saved += kept;
        } else {
            jd.saved = 0;
        }
        jd.preempting = Link::to(log);
        jd.preempted_count + 1
    }

    /// The attempt holding instances ends at `now` with `reason`; the job is no longer being
    /// preempted. Returns the preemption log entry it was being preempted by, if any.
    pub fn end_attempt(&mut self, j: JobId, now: u64, reason: Reason) -> Option<u32> {
        let jd = &mut self.table[j.index()];
        let log = jd.preempting.get();
        jd.preempting = Link::NONE;
        if let Some(a) = jd.last_attempt.get() {
            let a = self.attempts.get_mut(a as usize);
            a.stopped = Moment::at(now);
            a.reason = reason;
        }
        log
    }

    /// R7: a preemption completed; returns the job's `preemptedAttemptCount` now.
    pub fn count_preemption(&mut self, j: JobId) -> u32 {
        let jd = &mut self.table[j.index()];
        jd.preempted_count += 1;
        jd.preempted_count
    }

    /// The job stops for good at `now` with `reason` (its status is the caller's).
    pub fn stop(&mut self, j: JobId, now: u64, reason: Reason) {
        let jd = &mut self.table[j.index()];
        jd.reason = reason;
        jd.stopped_at = Moment::at(now);
    }

    /// R9: the job succeeded: all its work is saved.
    pub fn complete(&mut self, j: JobId, duration: u64) {
        self.table[j.index()].saved = duration;
    }

    pub fn last_attempt(&self, j: JobId) -> Option<&AttemptRaw> {
        self.table[j.index()].last_attempt.get().map(|a| self.attempts.get(a as usize))
    }

    /// Whether one of job `j`'s attempts started at `t` (attempts are walked from the last
    /// back, stopping at the first that started earlier).
    pub fn started_at(&self, j: JobId, t: u64) -> bool {
        self.started_from(self.table[j.index()].last_attempt, t).0
    }

    /// [`Self::started_at`] walking back from attempt `a`: the answer, and the attempt where
    /// the walk stopped (the latest that started at `t` or earlier), where a walk for an
    /// earlier time can go on from.
    fn started_from(&self, mut a: Link, t: u64) -> (bool, Link) {
        while let Some(i) = a.get() {
            let at = self.attempts.get(i as usize);
            if at.started <= t {
                return (at.started == t, a);
            }
            a = at.prev;
        }
        (false, a)
    }

    /// [`Self::started_at`] for each of `queries` (job, time), in their order, with each
    /// job's attempts walked once for all its queries: a job preempted a thousand times has a
    /// thousand attempts and as many queries.
    pub fn started_at_each(&self, queries: &[(JobId, u64)]) -> Vec<bool> {
        let mut order: Vec<u32> = (0..queries.len() as u32).collect();
        // By job, latest time first: the walk back through a job's attempts never turns.
        order.sort_unstable_by_key(|&q| {
            let (j, t) = queries[q as usize];
            (j, core::cmp::Reverse(t))
        });
        let mut out = alloc::vec![false; queries.len()];
        let mut at: Option<(JobId, Link)> = None;
        for q in order {
            let (j, t) = queries[q as usize];
            let from = match at {
                Some((k, a)) if k == j => a,
                _ => self.table[j.index()].last_attempt,
            };
            let (started, stopped) = self.started_from(from, t);
            out[q as usize] = started;
            at = Some((j, stopped));
        }
        out
    }

    /// Whether one of job `j`'s attempts released its instances at `t`.
    pub fn stopped_at(&self, j: JobId, t: u64) -> bool {
        let mut a = self.table[j.index()].last_attempt;
        while let Some(i) = a.get() {
            let at = self.attempts.get(i as usize);
            if at.stopped.get() == Some(t) {
                return true;
            }
            if at.started < t {
                return false;
            }
            a = at.prev;
        }
        false
    }

    /// A job's attempts, first to last.
    pub fn attempts_of(&self, j: JobId) -> Vec<&AttemptRaw> {
        let mut v = Vec::new();
        let mut a = self.table[j.index()].last_attempt;
        while let Some(i) = a.get() {
            let at = self.attempts.get(i as usize);
            v.push(at);
            a = at.prev;
        }
        v.reverse();
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{ShareId, TypeId};

    fn cfgs(priorities: &[u32]) -> Vec<JobCfg> {
        priorities
            .iter()
            .map(|&priority| JobCfg {
                name: Default::default(),
                share: ShareId(0),
                priority,
                ty: TypeId(0),
                count: 1,
                submit_at: 0,
                duration: 100,
                checkpoint_interval: None,
                timeout: None,
                retries: None,
                started_at: None,
                previous_attempts: 0,
                completed_work: 0,
            })
            .collect()
    }

    #[test]
    fn r6_r25_statuses_are_counted_as_they_change() {
        let mut jobs = Jobs::new(&cfgs(&[0, 5]));
        assert_eq!(jobs.counts()[status_slot(None)], 2);
        jobs.set_status(JobId(1), Status::Submitted);
        jobs.set_status(JobId(1), Status::Runnable);
        assert_eq!(jobs.counts()[status_slot(None)], 1);
        assert_eq!(jobs.counts()[status_slot(Some(Status::Runnable))], 1);
        assert_eq!(jobs.priority(JobId(1)), 5);
    }

    #[test]
    fn r8_attempts_train_stop_and_link_back() {
        let mut jobs = Jobs::new(&cfgs(&[0]));
        let g = jobs.gen(JobId(0));
        jobs.start_attempt(JobId(0), 10, 1);
        assert_ne!(jobs.gen(JobId(0)), g, "a new attempt: older timers no longer apply");
        assert_eq!(jobs.start_training(JobId(0), 15, 100), 100);
        assert_eq!(jobs.stop_training(JobId(0), 40), 25);
        assert_eq!(jobs.start_preemption(JobId(0), 7, 20, true), 1);
        assert_eq!(jobs.preempting(JobId(0)), Some(7));
        assert_eq!(jobs.end_attempt(JobId(0), 160, Reason::Preempted(7)), Some(7));
        assert_eq!(jobs.count_preemption(JobId(0)), 1);
        assert!(!jobs.dispatched_twice_at(JobId(0), 160));
        jobs.start_attempt(JobId(0), 160, 0);
        jobs.start_attempt(JobId(0), 160, 0);
        assert!(jobs.dispatched_twice_at(JobId(0), 160), "R10's bound is the next dispatch");
        assert_eq!(jobs.start_training(JobId(0), 170, 100), 80, "resumes from the 20 s saved");
        let spans: Vec<(u64, Option<u64>)> =
            jobs.attempts_of(JobId(0)).iter().map(|a| (a.started, a.stopped.get())).collect();
        assert_eq!(spans, [(10, Some(160)), (160, None), (160, None)]);
        assert_eq!(jobs.training(JobId(0), 180), 35);
    }

    #[test]
    fn r8_attempts_started_at_answer_together_as_one_by_one() {
        let mut jobs = Jobs::new(&cfgs(&[0, 0, 0]));
        for (j, t) in [(0, 10), (1, 10), (0, 20), (0, 20), (2, 5), (0, 45), (1, 50)] {
            jobs.start_attempt(JobId(j), t, 0);
        }
        let mut queries = Vec::new();
        for j in 0..3 {
            for t in [0, 5, 10, 15, 20, 30, 45, 50, 60, 20, 10] {
                queries.push((JobId(j), t));
            }
        }
        // Out of order, as a preemption log is by job.
        queries.reverse();
        queries.swap(3, 17);
        let one_by_one: Vec<bool> = queries.iter().map(|&(j, t)| jobs.started_at(j, t)).collect();
        assert_eq!(one_by_one.iter().filter(|&&b| b).count(), 9, "the test asks both ways");
        assert_eq!(jobs.started_at_each(&queries), one_by_one);
    }
}
