//! R17, R24, R25: what can be read of a simulation, through a [`View`] of its owners: the
//! snapshot, job results, rendered events and reasons (and, in `metrics`, the summary).

use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

use crate::model::Strategy;
use crate::reasons::{
    preemption_in_progress, retry_limit_reached, Reason, WaitAnalysis, WaitCause, WaitReason,
    REJECTED_REASON, TIMEOUT_REASON,
};
use crate::result::{
    Attempt, Event, EventType, Flow, JobCounts, JobResult, PreemptedAttempt, PreemptionSummary,
    ShareTypeUsage, Snapshot, Status, TypeTotals,
};
use crate::scenario::{JobId, ShareId, TypeId};

use crate::scenario::{JobCfg, ValidScenario};

use super::breakdown::Breakdown;
use super::breakdown::{BySecs, Holders};
use super::events::{status_slot, EventLog, RawEvent};
use super::grace::Grace;
use super::holds::{Fit, Holds};
use super::jobs::{AttemptRaw, Jobs};
use super::ledger::attribution::{attribution, Attribution};
use super::ledger::{FitCheck, Ledger, Need};
use super::queue::{Head, Queues};
use super::running::Running;

/// Read-only references to a simulation's owners, for reports.
#[derive(Clone, Copy)]
pub(crate) struct View<'a> {
    pub cfg: &'a ValidScenario,
    pub now: u64,
    pub ledger: &'a Ledger,
    pub jobs: &'a Jobs,
    pub grace: &'a Grace,
    pub queues: &'a Queues,
    pub holds: &'a Holds,
    pub events: &'a EventLog,
    pub terminate_reasons: &'a [String],
    pub running: &'a Running,
    pub in_share: &'a [bool],
    pub waits: &'a Breakdown,
}

/// R16: the front job of share `s`: its first job that is not never-runnable (R17) with
/// backfill, or simply its first job (when that is not never-runnable) without.
#[inline]
pub(crate) fn front_of(queues: &Queues, ledger: &Ledger, backfill: bool, s: ShareId) -> Option<Head> {
    if backfill {
        return front_backfill(queues, ledger, s);
    }
    queues.head(s).filter(|h| !ledger.never_runnable(s, h.ty, h.count))
}

/// [`front_of`] with backfill: a walk of the queue, kept out of the common path.
#[inline(never)]
fn front_backfill(queues: &Queues, ledger: &Ledger, s: ShareId) -> Option<Head> {
    queues.iter(s).find(|h| !ledger.never_runnable(s, h.ty, h.count))
}

impl<'a> View<'a> {
    pub(crate) fn job_cfg(&self, j: JobId) -> &'a JobCfg {
        &self.cfg.jobs[j.index()]
    }

    pub(crate) fn nt(&self) -> usize {
        self.cfg.types.len()
    }

    pub(crate) fn ns(&self) -> usize {
        self.cfg.shares.len()
    }

    /// R17: the `MISCONFIGURATION` reason of a job that can never fit, if any.
    pub fn never_runnable_reason(&self, j: JobId) -> Option<&'static str> {
        let jc = self.job_cfg(j);
        self.ledger.misconfiguration(jc.share, jc.ty, jc.count).map(|m| m.text())
    }

    /// The reason shown for a job now: terminal reasons, preemption in progress, R17.
    pub fn status_reason(&self, j: JobId) -> Option<String> {
        let jd = self.jobs.get(j);
        if let Some(log) = jd.preempting.get() {
            let kind = self.grace.record(log).kind;
            return Some(preemption_in_progress(kind));
        }
        match jd.status {
            None => None,
            Some(Status::Runnable) | Some(Status::Submitted) => Some(self.waiting_reason(j).to_string()),
            Some(Status::Failed) | Some(Status::Succeeded) => self.reason_text(jd.reason),
            _ => None,
        }
    }

    pub(crate) fn reason_text(&self, r: Reason) -> Option<String> {
        match r {
            Reason::None => None,
            Reason::Terminated(i) => Some(self.terminate_reasons[i as usize].clone()),
            Reason::Timeout => Some(String::from(TIMEOUT_REASON)),
            Reason::Rejected => Some(String::from(REJECTED_REASON)),
            Reason::Preempted(l) => Some(String::from(self.grace.record(l).kind.reason())),
            Reason::RetryLimit(l) => Some(retry_limit_reached(self.grace.record(l).kind)),
        }
    }

    /// R17: why a `RUNNABLE` job waits.
    pub fn waiting_reason(&self, j: JobId) -> WaitReason {
        let jc = self.job_cfg(j);
        if let Some(m) = self.ledger.misconfiguration(jc.share, jc.ty, jc.count) {
            return WaitReason::Misconfiguration(m);
        }
        let jc = self.job_cfg(j);
        let s = jc.share;
        let em = self.grace.of_share(s);
        if em.is_some_and(|id| self.grace.get(id).job == j) {
            return WaitReason::Preemption;
        }
        let front = front_of(self.queues, self.ledger, self.cfg.settings.backfill, s)
            .or_else(|| self.queues.head(s))
            .map(|h| h.job);
        if let Some(f) = front.filter(|&f| f != j) {
            return WaitReason::Behind(String::from(self.job_cfg(f).name.as_str()));
        }
        if em.is_some() {
            return WaitReason::Preemption;
        }
        self.capacity_wait(j).0
    }

    /// R14: the check of job `j`'s request now, its own hold counted (R16).
    fn check(&self, j: JobId, own_release: u64) -> FitCheck {
        self.check_need(self.need(j), own_release)
    }

    /// Job `j`'s request.
    fn need(&self, j: JobId) -> Need {
        Need::of(j, self.job_cfg(j))
    }

    /// [`Self::check`] for a request at hand (a queue's front job, whose type and count the
    /// queue keeps: a million jobs' settings are not read again at random).
    fn check_need(&self, need: Need, own_release: u64) -> FitCheck {
        let fit = Fit { ledger: self.ledger, holds: self.holds };
        self.ledger.check(need, || fit.hold_of(need.job, need.ty), own_release)
    }

    /// R17 for a front job short of capacity, and what binds: the quota reason split into
    /// a lowered limit (R22), the borrow allowance, a strategy that cannot borrow while the
    /// pool has room, or the share's own quota in use.
    pub(crate) fn capacity_wait(&self, j: JobId) -> (WaitReason, WaitCause, FitCheck) {
        self.capacity_wait_of(self.need(j))
    }

    /// [`Self::capacity_wait`] for a request at hand.
    fn capacity_wait_of(&self, need: Need) -> (WaitReason, WaitCause, FitCheck) {
        let c = self.check_need(need, 0);
        let n = c.need as i64;
        if !c.quota_ok(false) {
            let cause = if self.ledger.over_by_update(need.share, need.ty) {
                WaitCause::LimitLowered
            } else if c.strategy == Strategy::LendAndBorrow {
                WaitCause::BorrowLimit
            } else if c.pool >= n && c.free >= n {
                WaitCause::CannotBorrow
            } else {
                WaitCause::QuotaUsed
            };
            (WaitReason::Quota, cause, c)
        } else if c.strategy.lends() && c.pool < n {
            (WaitReason::Pool, WaitCause::Pool, c)
        } else if c.free < n {
            (WaitReason::ServiceEnvironment, WaitCause::ServiceEnvironment, c)
        } else {
            (WaitReason::Quota, WaitCause::QuotaUsed, c)
        }
    }

    /// Who holds share `s`'s queue now and why, as [`Self::waiting_reason`] and
    /// [`Self::capacity_wait`] would say of each: its waiting preemptor (R21) and its front
    /// job (R16), unless they can never run (R17: their time is `misconfiguration`, kept
    /// apart).
    pub(crate) fn holders(&self, s: ShareId) -> Holders {
        let mut out: Holders = [None, None];
        let em = self.grace.of_share(s);
        let preemptor = em.map(|id| self.grace.get(id).job).filter(|&p| {
            let jc = self.job_cfg(p);
            self.jobs.status(p) == Some(Status::Runnable) && !self.ledger.never_runnable(s, jc.ty, jc.count)
        });
        if let Some(p) = preemptor {
            out[0] = Some((p, WaitCause::PreemptionInProgress));
        }
        let front = front_of(self.queues, self.ledger, self.cfg.settings.backfill, s);
        if let Some(h) = front.filter(|h| Some(h.job) != preemptor) {
            let cause = if em.is_some() {
                WaitCause::PreemptionInProgress
            } else {
                self.capacity_wait_of(h.need(s)).1
            };
            out[1] = Some((h.job, cause));
        }
        out
    }

    /// Job `j`'s time `RUNNABLE` up to now (R6, R7, R28): from its submission (or
    /// `startAt`) to its first dispatch, from each preemption's completion that requeued it
    /// to its next dispatch, and for a job still queued, to now (to its end if it was
    /// terminated while queued).
    pub(crate) fn runnable_seconds(&self, j: JobId) -> u64 {
        self.runnable_seconds_in(j, &self.jobs.attempts_of(j))
    }

    /// [`Self::runnable_seconds`] with the job's attempts at hand.
    fn runnable_seconds_in(&self, j: JobId, attempts: &[&AttemptRaw]) -> u64 {
        let jd = self.jobs.get(j);
        let jc = self.job_cfg(j);
        if jd.status.is_none() || jd.cancelled {
            return 0;
        }
        let mut total = 0u64;
        // A job in an attempt at `startAt` (R28) was not queued then.
        let mut since = jc.started_at.is_none().then(|| jc.submit_at.max(self.cfg.settings.start_at));
        for a in attempts {
            if let Some(from) = since.take() {
                total += a.started.saturating_sub(from);
            }
            if let (Reason::Preempted(_), Some(stopped)) = (a.reason, a.stopped.get()) {
                since = Some(stopped);
            }
        }
        if let Some(from) = since {
            let end = if jd.status.is_some_and(|st| st.is_terminal()) { jd.stopped_at.get() } else { None };
            total += end.unwrap_or(self.now).saturating_sub(from);
        }
        total
    }

    /// Job `j`'s time `RUNNABLE` by cause up to now (keys in [`WaitCause::ALL`] order).
    pub(crate) fn runnable_by_cause(&self, j: JobId) -> BySecs {
        let s = self.job_cfg(j).share;
        self.waits.of_job(j, s, self.now, self.runnable_seconds(j))
    }

    /// Why waiting job `j` waits now and what would change it (R14, R17, R20).
    pub fn wait_analysis(&self, j: JobId) -> WaitAnalysis {
        let jc = self.job_cfg(j);
        let (s, t) = (jc.share, jc.ty);
        let reason = self.waiting_reason(j);
        let (cause, c) = match &reason {
            WaitReason::Misconfiguration(_) => (WaitCause::Misconfiguration, self.check(j, 0)),
            WaitReason::Preemption => (WaitCause::PreemptionInProgress, self.check(j, 0)),
            WaitReason::Behind(_) => (WaitCause::Behind, self.check(j, 0)),
            _ => {
                let (_, cause, c) = self.capacity_wait(j);
                (cause, c)
            }
        };
        let queue: Vec<JobId> = self.queues.iter(s).map(|h| h.job).collect();
        let position = queue.iter().position(|&x| x == j).map(|p| (p + 1, queue.len()));
        let prio = self.jobs.priority(j);
        let mut lower: Vec<(u32, JobId)> = self
            .running
            .list(s.index() * self.nt() + t.index())
            .iter()
            .filter(|e| e.is_candidate_below(prio))
            .map(|e| (self.jobs.priority(e.job), e.job))
            .collect();
        lower.sort_by(|a, b| (a.0, &self.job_cfg(a.1).name).cmp(&(b.0, &self.job_cfg(b.1).name)));
        let back: u64 = lower.iter().map(|&(_, o)| self.job_cfg(o).count).sum();
        WaitAnalysis {
            reason,
            cause,
            position,
            need: c.need,
            usage: c.usage,
            quota: c.quota,
            allowance: c.allowance,
            strategy: c.strategy,
            free: c.free,
            pool: c.pool,
            capacity: self.ledger.capacity(t),
            fits_without_lower: !lower.is_empty() && self.check(j, back).fits(false),
            lower_priority: lower.into_iter().map(|(p, o)| (o, p)).collect(),
            in_share_enabled: self.in_share[s.index()],
        }
    }

    /// R25: utilization now, per share and type, with pool and service environment totals.
    #[allow(clippy::needless_range_loop)] // shares index several tables at once
    pub fn snapshot(&self) -> Snapshot {
        let mut types = Vec::new();
        let mut shares = Vec::new();
        for t in TypeId::all(self.nt()) {
            let ti = t.index();
            let Attribution { per_share: per, flows, unattributed } = attribution(self.ledger, t);
            let usage: u64 = (0..self.ns()).map(|s| self.ledger.held(ShareId::at(s), t)).sum();
            let pool_usage: u64 = (0..self.ns())
                .filter(|&s| self.ledger.lends(ShareId::at(s)))
                .map(|s| self.ledger.held(ShareId::at(s), t))
                .sum();
            let relevant = self.ledger.capacity(t).is_some()
                || usage > 0
                || (0..self.ns()).any(|s| self.ledger.quota(ShareId::at(s), t) > 0);
            if !relevant {
                continue;
            }
            let tc = &self.cfg.types[ti];
            types.push(TypeTotals {
                capacity_unit: tc.name.clone(),
                gpus_per_instance: tc.gpus,
                service_environment_capacity: self.ledger.capacity(t),
                usage,
                free: self.ledger.capacity(t).unwrap_or(0) as i64 - usage as i64,
                pool_capacity: self.ledger.pool_capacity(t),
                pool_usage,
                pool_available: self.ledger.pool_capacity(t) as i64 - pool_usage as i64,
                borrowed: per.iter().map(|p| p.borrowed).sum(),
                unattributed_borrowed: unattributed,
            });
            for s in 0..self.ns() {
                let u = self.ledger.held(ShareId::at(s), t);
                let q = self.ledger.quota(ShareId::at(s), t);
                if q == 0 && u == 0 {
                    continue;
                }
                let name = |x: ShareId| self.cfg.shares[x.index()].name.clone();
                let earmarked = self
                    .grace
                    .of_share(ShareId::at(s))
                    .map(|id| self.grace.get(id))
                    .filter(|e| e.ty == t)
                    .map_or(0, |e| e.n);
                shares.push(ShareTypeUsage {
                    quota_share_name: name(ShareId::at(s)),
                    capacity_unit: tc.name.clone(),
                    quota: q,
                    usage: u,
                    within_quota: u.min(q),
                    over_quota: u.saturating_sub(q),
                    borrowed: per[s].borrowed,
                    borrowed_from: flows
                        .iter()
                        .filter(|f| f.borrower == ShareId::at(s))
                        .map(|f| Flow { quota_share_name: name(f.lender), instances: f.instances })
                        .collect(),
                    lent: per[s].lent,
                    lent_to: flows
                        .iter()
                        .filter(|f| f.lender == ShareId::at(s))
                        .map(|f| Flow { quota_share_name: name(f.borrower), instances: f.instances })
                        .collect(),
                    idle: if self.ledger.lends(ShareId::at(s)) {
                        q.saturating_sub(u).saturating_sub(per[s].lent)
                    } else {
                        q.saturating_sub(u)
                    },
                    earmarked,
                });
            }
        }
        // Kept by status (not yet submitted first, then in `Status` order).
        let c = self.jobs.counts();
        let n = |s: Status| c[status_slot(Some(s))];
        let jc = JobCounts {
            not_submitted: c[status_slot(None)],
            runnable: n(Status::Submitted) + n(Status::Runnable),
            scheduled: n(Status::Scheduled),
            starting: n(Status::Starting),
            running: n(Status::Running),
            succeeded: n(Status::Succeeded),
            failed: n(Status::Failed),
        };
        Snapshot { at: self.now, types, shares, job_counts: jc }
    }

    /// One job as the result shows it now.
    pub fn job_result(&self, j: JobId) -> JobResult {
        let lost = self.grace.log().iter().filter(|p| p.victim == j).map(|p| p.lost).sum();
        self.job_result_with(j, lost)
    }

    /// [`Self::job_result`] with the job's lost work (R8) at hand.
    pub(crate) fn job_result_with(&self, j: JobId, lost: u64) -> JobResult {
        let jd = self.jobs.get(j);
        let jc = self.job_cfg(j);
        let raw = self.jobs.attempts_of(j);
        let attempts: Vec<Attempt> = raw
            .iter()
            .map(|a| Attempt {
                started_at: a.started,
                stopped_at: a.stopped.get(),
                borrowed_instances: a.borrowed,
                status_reason: self.reason_text(a.reason),
            })
            .collect();
        let recent: Vec<PreemptedAttempt> = raw
            .iter()
            .filter_map(|a| Some((a, a.stopped.get().filter(|_| matches!(a.reason, Reason::Preempted(_)))?)))
            .map(|(a, stopped)| PreemptedAttempt {
                started_at: a.started,
                stopped_at: stopped,
                status_reason: self.reason_text(a.reason).unwrap_or_default(),
            })
            .collect();
        JobResult {
            job_name: String::from(jc.name.as_str()),
            quota_share_name: self.cfg.shares[jc.share.index()].name.clone(),
            status: jd.status,
            status_reason: self.status_reason(j),
            scheduling_priority: jd.priority,
            submit_at: jc.submit_at,
            first_started_at: raw.first().map(|a| a.started),
            stopped_at: if jd.status.is_some_and(|s| s.is_terminal()) { jd.stopped_at.get() } else { None },
            preemption_summary: PreemptionSummary {
                preempted_attempt_count: jd.preempted_count,
                recent_preempted_attempts: recent,
            },
            attempts,
            lost_work_seconds: lost,
            runnable_seconds_by_cause: crate::result::CauseSeconds(self.waits.of_job(
                j,
                jc.share,
                self.now,
                self.runnable_seconds_in(j, &raw),
            )),
        }
    }

    /// Every job as the result shows it now, in input order.
    pub fn jobs(&self) -> Vec<JobResult> {
        let lost = self.lost_seconds();
        (0..self.jobs.len() as u32).map(|j| self.job_result_with(JobId(j), lost[j as usize])).collect()
    }

    /// Every job's lost work (R8), indexed by job id.
    pub fn lost_seconds(&self) -> Vec<u64> {
        let mut lost = vec![0u64; self.jobs.len()];
        for p in self.grace.log() {
            lost[p.victim.index()] += p.lost;
        }
        lost
    }

    /// The R24 events from index `from` on.
    pub fn events_from(&self, from: usize) -> Vec<Event> {
        self.events.iter_from(from).map(|(at, idx, e)| self.render_event(at, idx, e)).collect()
    }

    pub(crate) fn render_event(&self, at: u64, idx: usize, e: RawEvent) -> Event {
        let jc = self.job_cfg(JobId(e.job));
        let reason = self.events.reason(idx, e);
        let mut ev = Event {
            at,
            job_name: String::from(jc.name.as_str()),
            quota_share_name: self.cfg.shares[jc.share.index()].name.clone(),
            event_type: e.etype(),
            status: e.status(),
            status_reason: self.reason_text(reason),
            preempted_by: None,
            reason: None,
            preempted_attempt_count: None,
            lost_work_seconds: None,
        };
        if e.etype() != EventType::StateChange {
            if let Reason::Preempted(l) | Reason::RetryLimit(l) = reason {
                let p = self.grace.record(l);
                ev.preempted_by = Some(p.preemptor.map(|x| String::from(self.job_cfg(x).name.as_str())));
                ev.reason = Some(String::from(p.kind.reason()));
                ev.preempted_attempt_count = Some(p.count);
                ev.lost_work_seconds = Some(p.lost);
                if e.etype() == EventType::PreemptionStarted {
                    ev.status_reason = Some(preemption_in_progress(p.kind));
                }
            }
        }
        ev
    }
}
