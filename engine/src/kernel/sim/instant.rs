//! R6-R10, R21 (release): the instant loop and what happens to jobs in it. At an instant:
//! releases and other timers due, in the order they were scheduled; actions in file order;
//! submissions in file order; then passes (R16) until they reach their fixed point, and again
//! after releases those passes made due at the same instant. Here the orchestrator sequences
//! the owners: the jobs' bookkeeping, the queues, the running lists, the ledger, the holds, the
//! timers and the event log, each of which only keeps its own state.

use crate::model::Strategy;
use crate::reasons::Reason;
use crate::result::{EventType, Status};
use crate::scenario::{JobCfg, JobId, ShareId, TypeId};

use super::clock::{Timer, TimerKind};
use super::queue::{QKey, Want};
use super::share_set::ShareSet;
use super::Simulation;
use crate::limits::MAX_SAFE_INTEGER;

impl Simulation {
    // ----- time ------------------------------------------------------------------------

    /// The `k`-th job in submission order (R10: by `submitAt`, then input order).
    #[inline]
    pub(super) fn submission(&self, k: usize) -> Option<JobId> {
        if self.submit_order.is_empty() {
            (k < self.jobs.len()).then_some(JobId::at(k))
        } else {
            self.submit_order.get(k).copied()
        }
    }

    pub(super) fn next_instant(&self) -> Option<u64> {
        if self.overflow.is_some() || self.dispatch_loop.is_some() {
            return None;
        }
        // R28: the first instant is `startAt`, whatever else happens there.
        if !self.begun {
            return Some(self.cfg.settings.start_at);
        }
        let mut t: Option<u64> = self.clock.next_at();
        if let Some(j) = self.submission(self.next_submit) {
            let a = self.cfg.jobs[j.index()].submit_at;
            t = Some(t.map_or(a, |x| x.min(a)));
        }
        if let Some((a, _)) = self.cfg.actions.get(self.next_action) {
            t = Some(t.map_or(*a, |x| x.min(*a)));
        }
        t
    }

    /// R10: everything that happens at instant `t`.
    pub(super) fn process_instant(&mut self, t: u64) {
        self.stats.instants += 1;
        self.now = t;
        // Releases and other timers due now, in the order they were scheduled.
        self.apply_due_timers();
        // R28: at `startAt`, usage above the limits is handled as the action that lowered them
        // would be; and `startAt` always gets passes.
        if !self.begun {
            self.begun = true;
            self.over_limits_at_start();
            self.marks.all();
            self.waits.mark_all();
        }
        // Actions in file order.
        while let Some((at, _)) = self.cfg.actions.get(self.next_action) {
            if *at != t {
                break;
            }
            let a = self.cfg.actions[self.next_action].1.clone();
            self.next_action += 1;
            self.apply_action(&a);
            self.marks.all();
            self.waits.mark_all();
        }
        // Submissions in file order.
        while let Some(j) = self.submission(self.next_submit) {
            if self.cfg.jobs[j.index()].submit_at != t {
                break;
            }
            self.next_submit += 1;
            self.submit(j);
        }
        loop {
            if self.needs_pass() {
                self.passes();
                // The passes reached their fixed point: only releases they made due at this
                // instant (a zero grace period) call for more passes.
                self.marks.changed = false;
                self.ledger.changes_mut().clear();
            }
            if self.dispatch_loop.is_some() || self.clock.next_at() != Some(t) {
                break;
            }
            self.apply_due_timers();
            if !self.needs_pass() {
                break;
            }
        }
        self.drop_stale_timers();
        self.look_at_waits();
    }

    /// The wait breakdown after instant `now`: who holds each share's queue and why, looked
    /// at again only for the shares whose queue, earmark or front job's type changed (or
    /// every share after an action). The state after the instant's passes holds until the
    /// next instant.
    fn look_at_waits(&mut self) {
        let ns = self.in_share.len();
        let (all, mut shares) = self.waits.to_look_at();
        shares = shares.union(self.grace.take_changed());
        if all || self.cfg.settings.backfill {
            shares = ShareSet::first(ns);
        } else if self.ledger.changes().any_since_look() {
            // Without backfill a share's front job is its first job, unless that can never
            // run (then it has no front job, and its type does not matter).
            for t in 0..self.nt {
                if self.ledger.changes().since_look(TypeId::at(t)) {
                    shares = shares.union(self.queues.heads_of_type(TypeId::at(t)));
                }
            }
        }
        for s in shares.iter() {
            let holders = self.view().holders(s);
            self.waits.set_holders(s, self.now, holders);
        }
        self.waits.looked();
        self.ledger.changes_mut().looked();
    }

    /// R17 after the configuration changed: every queued job's never-runnable state, for the
    /// wait breakdown, when the limits that decide it changed.
    pub(super) fn recheck_never_runnable(&mut self, before: &[u64]) {
        if self.ledger.runnable_limits() == before {
            return;
        }
        for s in ShareId::all(self.in_share.len()) {
            for h in self.queues.iter(s) {
                let never = self.ledger.never_runnable(s, h.ty, h.count);
                self.waits.set_never(h.job, s, self.now, never);
            }
        }
    }

    /// R10: passes until a pass dispatches no job and starts no preemption, so one more pass
    /// with nothing changed would do nothing.
    fn passes(&mut self) {
        while self.pass() {
            if self.dispatch_loop.is_some() {
                return;
            }
        }
        if self.opts.extra_pass {
            self.marks.all();
            self.pass();
        }
    }

    /// Schedules a timer; `job` is the earmark's id for [`TimerKind::Mature`]. A time after
    /// 2^53 - 1 stops the run instead ([`Self::run_error`]).
    pub(super) fn push_timer(&mut self, at: u64, kind: TimerKind, job: u32) {
        if at > MAX_SAFE_INTEGER {
            let culprit =
                if matches!(kind, TimerKind::Mature) { self.grace.get(job).job } else { JobId(job) };
            self.overflow.get_or_insert(culprit);
            return;
        }
        let gen = if matches!(kind, TimerKind::Mature) { 0 } else { self.jobs.gen(JobId(job)) };
        self.clock.push(at, kind, job, gen);
    }

    /// Whether a timer still applies (R10): a job's timer until the job's state moves on, an
    /// earmark's while an earmark of that instant is live.
    fn timer_applies(&self, tm: &Timer) -> bool {
        match tm.kind {
            TimerKind::Mature => self.grace.due_at(tm.at),
            _ => self.jobs.gen(JobId(tm.subject)) == tm.gen,
        }
    }

    /// Pops timers that no longer apply from the front of the queue, so that the next
    /// instant is one where something happens. Between instants nothing else makes a timer
    /// stale.
    fn drop_stale_timers(&mut self) {
        while let Some(tm) = self.clock.peek() {
            if self.timer_applies(tm) {
                break;
            }
            self.clock.pop();
        }
        // Likewise the submission of a job terminated before its `submitAt` (R23).
        while self.submission(self.next_submit).is_some_and(|j| self.jobs.get(j).cancelled) {
            self.next_submit += 1;
        }
    }

    fn apply_due_timers(&mut self) {
        while let Some(tm) = self.clock.pop_due(self.now) {
            if !self.timer_applies(&tm) {
                continue; // stale: no change (R10)
            }
            match tm.kind {
                TimerKind::Mature => {
                    // The victims of the earmarks due now have released (their release
                    // timers come first): the next pass acts on those earmarks (R21).
                    self.grace.mature(self.now);
                    self.marks.all();
                }
                TimerKind::Advance => self.advance(JobId(tm.subject)),
                TimerKind::Finish => self.finish(JobId(tm.subject)),
                TimerKind::Release => self.release_victim(JobId(tm.subject)),
            }
        }
    }

    // ----- a live state (R28) ------------------------------------------------------------

    /// R28: the live state at `settings.startAt`, as it is just before that instant: a job
    /// with `startedAt` is in that attempt and holds its instances, one submitted before
    /// waits in its share's queue; nothing is recorded (results list what happens from
    /// `startAt` on). What is due at `startAt` (a completion, a timeout passed) happens there.
    pub(super) fn restore(&mut self) {
        let start = self.cfg.settings.start_at;
        // Jobs submitted before `startAt` were accepted then: their submissions are not replayed.
        while self.submission(self.next_submit).is_some_and(|j| self.cfg.jobs[j.index()].submit_at < start) {
            self.next_submit += 1;
        }
        for j in JobId::all(self.jobs.len()) {
            let jc = &self.cfg.jobs[j.index()];
            if let Some(at) = jc.started_at {
                self.restore_attempt(j, at);
            } else if jc.submit_at < start {
                self.jobs.set_status(j, Status::Submitted);
                self.jobs.set_status(j, Status::Runnable);
                self.enqueue(j);
            }
        }
    }

    /// R28: job `j` is in the attempt dispatched at `at`: `SCHEDULED` and `STARTING` until
    /// `at` + scheduled + starting time, training from then (R6); its share's usage at
    /// `startAt` says how much of it borrows.
    fn restore_attempt(&mut self, j: JobId, at: u64) {
        let start = self.now;
        let jc = self.job_cfg(j);
        let (s, t, n, duration, timeout) = (jc.share, jc.ty, jc.count, jc.duration, jc.timeout);
        let (u, q) = (self.ledger.quota_usage(s, t), self.ledger.quota(s, t));
        let borrowed = (u + n).saturating_sub(q) - u.saturating_sub(q);
        self.ledger.add_committed(s, t, n);
        self.ledger.change_held(start, s, t, n, 0);
        self.running.push(self.st(s, t), j, self.jobs.priority(j));
        self.jobs.start_attempt(j, at, borrowed);
        let ready = at.saturating_add(self.cfg.settings.scheduled);
        let running = ready.saturating_add(self.cfg.settings.starting);
        self.jobs.set_status(j, Status::Scheduled);
        if start < ready {
            self.push_timer(ready, TimerKind::Advance, j.0);
            return;
        }
        self.jobs.set_status(j, Status::Starting);
        if start < running {
            self.push_timer(running, TimerKind::Advance, j.0);
            return;
        }
        self.jobs.set_status(j, Status::Running);
        let remaining = self.jobs.start_training(j, running, duration);
        // R9: a timeout counts its training time; what would have ended before `startAt`
        // ends there.
        let end = match timeout {
            Some(tau) if tau < remaining => running.saturating_add(tau),
            _ => running.saturating_add(remaining),
        };
        self.push_timer(end.max(start), TimerKind::Finish, j.0);
    }

    /// R28 at `startAt`: a share whose usage is above its quota and allowance, or above its
    /// quota while it cannot borrow or its `capacityLimitReduced` says so, is over quota as
    /// after a lowered limit (R22); a type used above the service environment's limit gets
    /// victims as for a lowered limit (R23).
    fn over_limits_at_start(&mut self) {
        for s in ShareId::all(self.in_share.len()) {
            for t in TypeId::all(self.nt) {
                let (u, q) = (self.ledger.committed(s, t), self.ledger.quota(s, t));
                let most = match self.ledger.strategy(s) {
                    Strategy::LendAndBorrow => self.ledger.allowance(s, t).map(|a| q + a),
                    _ => Some(q),
                };
                let reduced = self.cfg.shares[s.index()].limit_reduced[t.index()];
                if most.is_some_and(|m| u > m) || reduced && u > q {
                    self.ledger.set_over_by_update(s, t);
                }
            }
        }
        for t in TypeId::all(self.nt) {
            if let Some(plan) = self.planner().plan_shrink(t) {
                self.execute(None, plan);
            }
        }
    }

    // ----- jobs ------------------------------------------------------------------------

    pub(super) fn job_cfg(&self, j: JobId) -> &JobCfg {
        &self.cfg.jobs[j.index()]
    }

    pub(super) fn event(&mut self, j: JobId, etype: EventType, status: Option<Status>, reason: Reason) {
        self.stats.events += 1;
        if self.opts.record_events {
            self.events.push(self.now, j.0, etype, status, reason);
        }
    }

    /// A state change (R6) with its R24 event.
    pub(super) fn set_status(&mut self, j: JobId, status: Status, reason: Reason) {
        self.jobs.set_status(j, status);
        self.event(j, EventType::StateChange, Some(status), reason);
    }

    /// Job `j`'s R11 queue key.
    pub(super) fn qkey(&self, j: JobId) -> QKey {
        QKey::new(self.jobs.priority(j), self.job_cfg(j).submit_at, j)
    }

    pub(super) fn enqueue(&mut self, j: JobId) {
        let k = self.qkey(j);
        let jc = self.job_cfg(j);
        let (s, w) = (jc.share, Want { ty: jc.ty, count: jc.count });
        let (len, head_changed) = self.queues.insert(s, k, w);
        self.stats.max_queued = self.stats.max_queued.max(len as u64);
        let never = self.ledger.never_runnable(s, w.ty, w.count);
        self.waits.enqueued(j, s, self.now, never, head_changed || self.cfg.settings.backfill);
        self.count_queued(j, true);
        // Without backfill a pass reads only a share's front job (with backfill every share
        // is looked at anyway): a job queued behind it changes nothing the pass can see.
        if head_changed {
            self.marks.share(s);
        }
    }

    pub(super) fn dequeue(&mut self, j: JobId) {
        let jc = self.job_cfg(j);
        let (s, t) = (jc.share, jc.ty);
        let (removed, head_changed) = self.queues.remove(s, &self.qkey(j));
        if head_changed {
            self.marks.share(s);
        }
        if removed {
            self.count_queued(j, false);
            self.waits.dequeued(j, s, self.now);
        }
        self.holds.drop_hold(&mut self.ledger, j, t);
    }

    /// R26 fairness: a job's instances join (or leave) its share's queued demand.
    pub(super) fn count_queued(&mut self, j: JobId, add: bool) {
        let jc = self.job_cfg(j);
        let (s, t, n) = (jc.share, jc.ty, jc.count);
        let (add, sub) = if add { (n, 0) } else { (0, n) };
        self.ledger.change_queued(self.now, s, t, add, sub);
    }

    /// Job `j`'s running list (its share and type).
    pub(super) fn run_list(&self, j: JobId) -> usize {
        let jc = self.job_cfg(j);
        self.st(jc.share, jc.ty)
    }

    fn submit(&mut self, j: JobId) {
        // Terminated before its submission (R23), or in an attempt at `startAt` (R28).
        if self.jobs.get(j).cancelled || self.jobs.status(j).is_some() {
            return;
        }
        let s = self.job_cfg(j).share;
        if !self.enabled[s.index()] {
            self.stop_job(j, Status::Failed, Reason::Rejected);
            return;
        }
        self.set_status(j, Status::Submitted, Reason::None);
        self.set_status(j, Status::Runnable, Reason::None);
        self.enqueue(j);
        self.marks.changed = true;
    }

    /// Starts an attempt: the job takes its instances (R6).
    pub(super) fn dispatch(&mut self, j: JobId) {
        self.stats.dispatches += 1;
        // R10's bound: a job dispatched a third time at one instant stops the run there.
        let now = self.now;
        if self.jobs.dispatched_twice_at(j, now) {
            self.dispatch_loop.get_or_insert((j, now));
        }
        let s = self.job_cfg(j).share;
        self.reclaim.dispatched(j, s, now);
        self.dequeue(j);
        let jc = self.job_cfg(j);
        let (s, t, n) = (jc.share, jc.ty, jc.count);
        let i = self.st(s, t);
        let q = self.ledger.quota(s, t);
        let u = self.ledger.quota_usage(s, t);
        // R14: the part above its quota.
        let borrowed = (u + n).saturating_sub(q) - u.saturating_sub(q);
        self.ledger.add_committed(s, t, n);
        self.ledger.change_held(now, s, t, n, 0);
        self.running.push(i, j, self.jobs.priority(j));
        self.jobs.start_attempt(j, now, borrowed);
        self.set_status(j, Status::Scheduled, Reason::None);
        let sched = self.cfg.settings.scheduled;
        if sched > 0 {
            self.push_timer(now.saturating_add(sched), TimerKind::Advance, j.0);
        } else {
            self.advance(j);
        }
    }

    /// R6: `SCHEDULED` -> `STARTING` -> `RUNNING`.
    fn advance(&mut self, j: JobId) {
        match self.jobs.status(j) {
            Some(Status::Scheduled) => {
                self.set_status(j, Status::Starting, Reason::None);
                let st = self.cfg.settings.starting;
                if st > 0 {
                    self.push_timer(self.now.saturating_add(st), TimerKind::Advance, j.0);
                } else {
                    self.start_running(j);
                }
            }
            Some(Status::Starting) => self.start_running(j),
            _ => {}
        }
    }

    fn start_running(&mut self, j: JobId) {
        let now = self.now;
        self.set_status(j, Status::Running, Reason::None);
        let jc = self.job_cfg(j);
        let (duration, timeout) = (jc.duration, jc.timeout);
        let remaining = self.jobs.start_training(j, now, duration);
        match timeout {
            // R9: a timeout equal to the remaining work is a success.
            Some(tau) if tau < remaining => self.push_timer(now.saturating_add(tau), TimerKind::Finish, j.0),
            _ if remaining == 0 => self.finish(j),
            _ => self.push_timer(now.saturating_add(remaining), TimerKind::Finish, j.0),
        }
    }

    /// The one way an attempt stops, whether the job completes, times out (R9), is released
    /// after its preemption (R21) or is terminated (R23): training stops, the job releases
    /// its instances (R6), the part credited to a preemptor's earmark included, and the
    /// attempt ends with `reason`.
    pub(super) fn stop_attempt(&mut self, j: JobId, reason: Reason) {
        let now = self.now;
        self.jobs.stop_training(j, now);
        let jc = self.job_cfg(j);
        let (s, t, n) = (jc.share, jc.ty, jc.count);
        if self.running.contains(j) {
            self.running.remove(self.run_list(j), j);
        }
        match self.jobs.preempting(j) {
            Some(log) => self.end_preemption(log),
            None => self.ledger.sub_committed(s, t, n),
        }
        self.ledger.change_held(now, s, t, 0, n);
        self.jobs.end_attempt(j, now, reason);
    }

    /// The victim of preemption log entry `log` stops (it releases, or is terminated): its
    /// committed instances go, and its credit leaves its preemptor's earmark, which stays
    /// until the preemption would have completed.
    fn end_preemption(&mut self, log: u32) {
        let rec = self.grace.record(log);
        let ps = rec.preemptor.map(|p| self.job_cfg(p).share);
        let jc = self.job_cfg(rec.victim);
        let (s, t, n) = (jc.share, jc.ty, jc.count);
        self.ledger.end_preemption(s, t, n, self.grace.credit(log), ps);
    }

    /// The job stops for good with `status` (R7, R9, R23).
    fn stop_job(&mut self, j: JobId, status: Status, reason: Reason) {
        self.jobs.stop(j, self.now, reason);
        self.set_status(j, status, reason);
    }

    /// Completion or timeout (R9) of a running job.
    fn finish(&mut self, j: JobId) {
        let jc = self.job_cfg(j);
        let (duration, timeout) = (jc.duration, jc.timeout);
        let remaining = duration - self.jobs.get(j).saved;
        let success = timeout.is_none_or(|tau| tau >= remaining);
        let reason = if success { Reason::None } else { Reason::Timeout };
        self.stop_attempt(j, reason);
        if success {
            self.jobs.complete(j, duration);
            self.stop_job(j, Status::Succeeded, reason);
        } else {
            self.stop_job(j, Status::Failed, reason);
        }
        self.marks.changed = true;
    }

    /// `terminateServiceJob` (R23).
    pub(super) fn terminate(&mut self, j: JobId, reason: Reason) {
        self.reclaim.dropped(j);
        match self.jobs.status(j) {
            None => {
                self.jobs.cancel(j);
                self.stop_job(j, Status::Failed, reason);
            }
            Some(Status::Submitted) | Some(Status::Runnable) => {
                self.dequeue(j);
                let s = self.job_cfg(j).share;
                if let Some(id) = self.grace.of_share(s).filter(|&id| self.grace.get(id).job == j) {
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

    /// `Preemption Completed` (R21): the victim releases and becomes `RUNNABLE` or `FAILED`.
    fn release_victim(&mut self, v: JobId) {
        let Some(log) = self.jobs.preempting(v) else { return };
        self.stop_attempt(v, Reason::Preempted(log));
        let count = self.jobs.count_preemption(v);
        if self.job_cfg(v).fails_at_preemption(count) {
            self.jobs.stop(v, self.now, Reason::RetryLimit(log));
            self.jobs.set_status(v, Status::Failed);
            self.event(v, EventType::PreemptionCompleted, Some(Status::Failed), Reason::RetryLimit(log));
            self.event(v, EventType::StateChange, Some(Status::Failed), Reason::RetryLimit(log));
        } else {
            self.jobs.set_status(v, Status::Runnable);
            self.event(v, EventType::PreemptionCompleted, Some(Status::Runnable), Reason::Preempted(log));
            self.event(v, EventType::StateChange, Some(Status::Runnable), Reason::Preempted(log));
            self.enqueue(v);
        }
        self.marks.changed = true;
    }
}
