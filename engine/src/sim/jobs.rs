//! R6, R7, R8, R9: jobs and their attempts: submission, dispatch, the steps to `RUNNING`,
//! completion, timeout, termination, and the one way an attempt stops.

use alloc::vec::Vec;
use core::cmp::Reverse;

use crate::reasons::Reason;
use crate::result::{EventType, Status};
use crate::scenario::JobId;

use super::clock::TimerKind;
use super::events::status_slot;
use super::queue::QKey;
use super::Simulation;

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

impl Simulation {
    /// Job `j`'s R11 queue key.
    pub(crate) fn qkey(&self, j: JobId) -> QKey {
        let jc = self.job_cfg(j);
        QKey {
            priority: Reverse(self.jobs[j as usize].priority),
            submit_at: jc.submit_at,
            job: j,
            ty: jc.ty,
            count: jc.count,
        }
    }

    pub(crate) fn enqueue(&mut self, j: JobId) {
        let k = self.qkey(j);
        let s = self.job_cfg(j).share;
        let (len, head_changed) = self.queues.insert(s, k);
        self.stats.max_queued = self.stats.max_queued.max(len as u64);
        self.count_queued(j, true);
        // Without backfill a pass reads only a share's front job (with backfill every share
        // is looked at anyway): a job queued behind it changes nothing the pass can see.
        if head_changed {
            self.marks.share(s);
        }
    }

    pub(crate) fn dequeue(&mut self, j: JobId) {
        let s = self.job_cfg(j).share;
        let (removed, head_changed) = self.queues.remove(s, &self.qkey(j));
        if head_changed {
            self.marks.share(s);
        }
        if removed {
            self.count_queued(j, false);
        }
        self.drop_hold(j);
    }

    /// R26 fairness: a job's instances join (or leave) its share's queued demand.
    pub(crate) fn count_queued(&mut self, j: JobId, add: bool) {
        let jc = self.job_cfg(j);
        let (s, t, n) = (jc.share, jc.ty, jc.count);
        let (add, sub) = if add { (n, 0) } else { (0, n) };
        self.ledger.change_queued(self.now, s, t, add, sub);
    }

    pub(crate) fn last_attempt(&self, j: JobId) -> Option<&AttemptRaw> {
        self.jobs[j as usize].last_attempt.get().map(|a| self.attempts.get(a as usize))
    }

    pub(crate) fn last_attempt_mut(&mut self, j: JobId) -> Option<&mut AttemptRaw> {
        self.jobs[j as usize].last_attempt.get().map(|a| self.attempts.get_mut(a as usize))
    }

    /// A job's attempts, first to last.
    pub(crate) fn attempts_of(&self, j: JobId) -> Vec<&AttemptRaw> {
        let mut v = Vec::new();
        let mut a = self.jobs[j as usize].last_attempt;
        while let Some(i) = a.get() {
            let at = self.attempts.get(i as usize);
            v.push(at);
            a = at.prev;
        }
        v.reverse();
        v
    }

    /// Job `j`'s running list (its share and type).
    pub(crate) fn run_list(&self, j: JobId) -> usize {
        let jc = self.job_cfg(j);
        self.st(jc.share, jc.ty)
    }

    pub(crate) fn set_status(&mut self, j: JobId, status: Status, reason: Reason) {
        self.put_status(j, status);
        self.event(j, EventType::StateChange, Some(status), reason);
    }

    /// Sets a job's status, keeping the R25 job counts.
    pub(crate) fn put_status(&mut self, j: JobId, status: Status) {
        let jd = &mut self.jobs[j as usize];
        self.status_counts[status_slot(jd.status)] -= 1;
        self.status_counts[status_slot(Some(status))] += 1;
        jd.status = Some(status);
    }

    pub(crate) fn submit(&mut self, j: JobId) {
        if self.jobs[j as usize].cancelled {
            return;
        }
        let s = self.job_cfg(j).share;
        if !self.shares[s as usize].enabled {
            self.stop_job(j, Status::Failed, Reason::Rejected);
            return;
        }
        self.set_status(j, Status::Submitted, Reason::None);
        self.set_status(j, Status::Runnable, Reason::None);
        self.enqueue(j);
        self.marks.changed = true;
    }

    /// Starts an attempt: the job takes its instances (R6).
    pub(crate) fn dispatch(&mut self, j: JobId) {
        self.stats.dispatches += 1;
        // R10's bound: a job dispatched a third time at one instant stops the run there.
        let now = self.now;
        if let Some(a) = self.last_attempt(j).filter(|a| a.started == now) {
            if a.prev.get().is_some_and(|p| self.attempts.get(p as usize).started == now) {
                self.dispatch_loop.get_or_insert((j, now));
            }
        }
        if let Some(since) = self.reclaim_waits.remove(&j) {
            let s = self.job_cfg(j).share;
            self.reclaim_latencies.push((s, self.now - since));
        }
        self.dequeue(j);
        let jc = self.job_cfg(j);
        let (s, t, n) = (jc.share, jc.ty, jc.count);
        let i = self.st(s, t);
        let q = self.ledger.quota(s, t);
        let u = self.ledger.quota_usage(s, t);
        // R14: the part above its quota.
        let borrowed = (u + n).saturating_sub(q) - u.saturating_sub(q);
        self.ledger.add_committed(s, t, n);
        self.ledger.change_held(self.now, s, t, n, 0);
        let now = self.now;
        let jd = &mut self.jobs[j as usize];
        self.running.push(i, j, jd.priority);
        let prev = jd.last_attempt;
        jd.last_attempt = Link::to(self.attempts.push(AttemptRaw {
            started: now,
            stopped: Moment::NEVER,
            borrowed,
            reason: Reason::None,
            prev,
        }) as u32);
        jd.gen = jd.gen.wrapping_add(1);
        self.set_status(j, Status::Scheduled, Reason::None);
        let sched = self.cfg.settings.scheduled;
        if sched > 0 {
            self.push_timer(now.saturating_add(sched), TimerKind::Advance, j);
        } else {
            self.advance(j);
        }
    }

    pub(crate) fn advance(&mut self, j: JobId) {
        match self.jobs[j as usize].status {
            Some(Status::Scheduled) => {
                self.set_status(j, Status::Starting, Reason::None);
                let st = self.cfg.settings.starting;
                if st > 0 {
                    self.push_timer(self.now.saturating_add(st), TimerKind::Advance, j);
                } else {
                    self.start_running(j);
                }
            }
            Some(Status::Starting) => self.start_running(j),
            _ => {}
        }
    }

    pub(crate) fn start_running(&mut self, j: JobId) {
        let now = self.now;
        self.set_status(j, Status::Running, Reason::None);
        let jc = self.job_cfg(j);
        let remaining = jc.duration - self.jobs[j as usize].saved;
        let timeout = jc.timeout;
        let jd = &mut self.jobs[j as usize];
        jd.running_since = Moment::at(now);
        if jd.first_running == Moment::NEVER {
            jd.first_running = Moment::at(now);
        }
        match timeout {
            // R9: a timeout equal to the remaining work is a success.
            Some(tau) if tau < remaining => self.push_timer(now.saturating_add(tau), TimerKind::Finish, j),
            _ if remaining == 0 => self.finish(j),
            _ => self.push_timer(now.saturating_add(remaining), TimerKind::Finish, j),
        }
    }

    pub(crate) fn remove_running(&mut self, j: JobId) {
        if self.running.contains(j) {
            self.running.remove(self.run_list(j), j);
        }
    }

    /// Training time of the current attempt so far.
    pub(crate) fn attempt_training(&self, j: JobId) -> u64 {
        self.jobs[j as usize].running_since.get().map_or(0, |since| self.now - since)
    }

    /// R8: the current attempt's training stops; returns its training time. The job's
    /// timers no longer apply.
    pub(crate) fn stop_training(&mut self, j: JobId) -> u64 {
        let trained = self.attempt_training(j);
        let jd = &mut self.jobs[j as usize];
        jd.trained += trained;
        jd.running_since = Moment::NEVER;
        jd.gen = jd.gen.wrapping_add(1);
        trained
    }

    /// The one way an attempt stops, whether the job completes, times out (R9), is released
    /// after its preemption (R21) or is terminated (R23): training stops, the job releases
    /// its instances (R6), the part credited to a preemptor's earmark included, and the
    /// attempt ends with `reason`.
    pub(crate) fn stop_attempt(&mut self, j: JobId, reason: Reason) {
        self.stop_training(j);
        let jc = self.job_cfg(j);
        let (s, t, n) = (jc.share, jc.ty, jc.count);
        self.remove_running(j);
        match self.jobs[j as usize].preempting.get() {
            Some(log) => self.end_preemption(log),
            None => self.ledger.sub_committed(s, t, n),
        }
        self.ledger.change_held(self.now, s, t, 0, n);
        let now = self.now;
        if let Some(a) = self.last_attempt_mut(j) {
            a.stopped = Moment::at(now);
            a.reason = reason;
        }
        self.jobs[j as usize].preempting = Link::NONE;
    }

    /// The job stops for good with `status` (R7, R9, R23).
    fn stop_job(&mut self, j: JobId, status: Status, reason: Reason) {
        let jd = &mut self.jobs[j as usize];
        jd.reason = reason;
        jd.stopped_at = Moment::at(self.now);
        self.set_status(j, status, reason);
    }

    /// Completion or timeout (R9) of a running job.
    pub(crate) fn finish(&mut self, j: JobId) {
        let jc = self.job_cfg(j);
        let (duration, timeout) = (jc.duration, jc.timeout);
        let remaining = duration - self.jobs[j as usize].saved;
        let success = timeout.is_none_or(|tau| tau >= remaining);
        let reason = if success { Reason::None } else { Reason::Timeout };
        self.stop_attempt(j, reason);
        if success {
            self.jobs[j as usize].saved = duration;
            self.stop_job(j, Status::Succeeded, reason);
        } else {
            self.stop_job(j, Status::Failed, reason);
        }
        self.marks.changed = true;
    }

    /// `terminateServiceJob` (R23).
    pub(crate) fn terminate(&mut self, j: JobId, reason: Reason) {
        self.reclaim_waits.remove(&j);
        match self.jobs[j as usize].status {
            None => {
                self.jobs[j as usize].cancelled = true;
                self.stop_job(j, Status::Failed, reason);
            }
            Some(Status::Submitted) | Some(Status::Runnable) => {
                self.dequeue(j);
                let s = self.job_cfg(j).share;
                if let Some(id) =
                    self.shares[s as usize].earmark.filter(|&id| self.earmarks[id as usize].job == j)
                {
                    self.lapse_earmark(id);
                }
                self.stop_job(j, Status::Failed, reason);
            }
            Some(st) if st.holds_capacity() => {
                self.stop_attempt(j, reason);
                self.stop_job(j, Status::Failed, reason);
            }
            _ => {}
        }
        self.marks.changed = true;
    }
}
