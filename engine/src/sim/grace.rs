//! R21: executing a preemption plan, earmarks, grace periods, release and lapse, and every
//! victim's credit.

use alloc::vec::Vec;

use crate::reasons::Reason;
use crate::result::{EventType, PreemptionKind, Status};
use crate::scenario::{JobId, ShareId, TypeId};

use super::clock::TimerKind;
use super::jobs::{Link, Moment};
use super::ledger::Need;
use super::preempt::Plan;
use super::Simulation;
/// A record of one victim's preemption, kept for explanations and R24 events.
#[derive(Clone, Debug, PartialEq)]
pub struct PreemptionRecord {
    pub victim: JobId,
    pub preemptor: Option<JobId>,
    pub kind: PreemptionKind,
    pub decided_at: u64,
    pub releases_at: u64,
    /// The victim's `preemptedAttemptCount`, this preemption included.
    pub count: u32,
    pub lost: u64,
    /// Candidates in the order R19/R20 considered them (the first few).
    pub considered: Vec<JobId>,
    /// The preemptor's earmark (R21), in instances.
    pub earmarked: u64,
}

#[derive(Clone, Debug)]
pub(crate) struct Earmark {
    pub(crate) job: JobId,
    pub(crate) share: ShareId,
    pub(crate) ty: TypeId,
    pub(crate) n: u64,
    pub(crate) victims: Vec<JobId>,
    /// When the victims release (R21).
    pub(crate) due: u64,
    /// Its victims have released: the timer at `due` fired, after their releases.
    pub(crate) matured: bool,
    pub(crate) live: bool,
}

impl Simulation {
    /// Tells victims to stop (`Preemption Started`, R21) and earmarks the preemptor's need.
    pub(crate) fn execute(&mut self, preemptor: Option<JobId>, plan: Plan) {
        let release_at = self.now.saturating_add(self.cfg.settings.grace);
        let em = if let Some(p) = preemptor {
            let jc = self.job_cfg(p);
            let (s, t, n) = (jc.share, jc.ty, jc.count);
            self.drop_hold(p);
            let id = self.earmarks.len() as u32;
            self.earmarks.push(Earmark {
                job: p,
                share: s,
                ty: t,
                n,
                victims: Vec::new(),
                due: release_at,
                matured: false,
                live: true,
            });
            self.shares[s as usize].earmark = Some(id);
            Some(id)
        } else {
            None
        };
        for v in plan.victims {
            self.start_preemption(v.job, preemptor, v.kind, v.credit, release_at, plan.considered.jobs(), em);
        }
        if let Some(id) = em {
            let e = &self.earmarks[id as usize];
            let (s, t, n) = (e.share, e.ty, e.n);
            self.ledger.add_committed(s, t, n);
            self.push_timer(release_at, TimerKind::Mature, id);
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn start_preemption(
        &mut self,
        v: JobId,
        preemptor: Option<JobId>,
        kind: PreemptionKind,
        credit: u64,
        release_at: u64,
        considered: &[JobId],
        em: Option<u32>,
    ) {
        let jc = self.job_cfg(v);
        let (s, t, ckpt) = (jc.share, jc.ty, jc.checkpoint_interval);
        // R8: training stops now; keep what the last checkpoint saved.
        let trained = self.stop_training(v);
        let st = &self.cfg.settings;
        let kept = match ckpt {
            Some(_) if st.checkpoint_on_stop && st.grace >= st.checkpoint_save => trained,
            Some(c) => trained / c * c,
            None => 0,
        };
        let lost = trained - kept;
        let count = self.jobs[v as usize].preempted_count + 1;
        let log = self.preemptions.len() as u32;
        self.credits.push(credit);
        self.preemptions.push(PreemptionRecord {
            victim: v,
            preemptor,
            kind,
            decided_at: self.now,
            releases_at: release_at,
            count,
            lost,
            considered: considered.to_vec(),
            earmarked: preemptor.map_or(0, |p| self.job_cfg(p).count),
        });
        {
            let jd = &mut self.jobs[v as usize];
            if ckpt.is_some() {
                jd.saved += kept;
            } else {
                jd.saved = 0;
            }
            jd.preempting = Link::to(log);
        }
        if self.running.contains(v) {
            self.running.set_preempted(self.run_list(v), v);
        }
        if let Some(id) = em {
            self.earmarks[id as usize].victims.push(v);
        }
        let ps = preemptor.map(|p| self.job_cfg(p).share);
        self.ledger.start_preemption(s, t, self.job_cfg(v).count, credit, ps);
        let status = self.jobs[v as usize].status;
        self.event(v, EventType::PreemptionStarted, status, Reason::Preempted(log));
        self.push_timer(release_at, TimerKind::Release, v);
    }

    /// `Preemption Completed` (R21): the victim releases and becomes `RUNNABLE` or `FAILED`.
    pub(crate) fn release_victim(&mut self, v: JobId) {
        let Some(log) = self.jobs[v as usize].preempting.get() else { return };
        let retries = self.job_cfg(v).retries;
        self.stop_attempt(v, Reason::Preempted(log));
        let jd = &mut self.jobs[v as usize];
        jd.preempted_count += 1;
        let failed = retries.is_some_and(|r| jd.preempted_count as u64 > r);
        if failed {
            jd.reason = Reason::RetryLimit(log);
            jd.stopped_at = Moment::at(self.now);
            self.put_status(v, Status::Failed);
            self.event(v, EventType::PreemptionCompleted, Some(Status::Failed), Reason::RetryLimit(log));
            self.event(v, EventType::StateChange, Some(Status::Failed), Reason::RetryLimit(log));
        } else {
            self.put_status(v, Status::Runnable);
            self.event(v, EventType::PreemptionCompleted, Some(Status::Runnable), Reason::Preempted(log));
            self.event(v, EventType::StateChange, Some(Status::Runnable), Reason::Preempted(log));
            self.enqueue(v);
        }
        self.marks.changed = true;
    }

    /// The victim of preemption log entry `log` stops (it releases, or is terminated): its
    /// committed instances go, and its credit leaves its preemptor's earmark, which stays
    /// until the preemption would have completed.
    pub(crate) fn end_preemption(&mut self, log: u32) {
        let v = self.preemptions[log as usize].victim;
        let jc = self.job_cfg(v);
        let (s, t, n) = (jc.share, jc.ty, jc.count);
        self.ledger.end_preemption(s, t, n, self.credits[log as usize], self.preemptor_share(log));
    }

    /// The share of the preemptor of preemption log entry `log`, if it has one.
    fn preemptor_share(&self, log: u32) -> Option<ShareId> {
        self.preemptions[log as usize].preemptor.map(|p| self.job_cfg(p).share)
    }

    /// R21: an earmark lapses; victims still in their grace take their credit back.
    pub(crate) fn lapse_earmark(&mut self, id: u32) {
        let e = &mut self.earmarks[id as usize];
        if !e.live {
            return;
        }
        e.live = false;
        let (s, t, n) = (e.share, e.ty, e.n);
        let victims = core::mem::take(&mut e.victims);
        self.ledger.sub_committed(s, t, n);
        if self.shares[s as usize].earmark == Some(id) {
            self.shares[s as usize].earmark = None;
        }
        for v in victims {
            let Some(log) = self.jobs[v as usize].preempting.get() else { continue };
            let credit = self.credits[log as usize];
            if credit > 0 {
                let vc = self.job_cfg(v);
                self.ledger.take_back_credit(vc.share, vc.ty, credit, s);
                self.credits[log as usize] = 0;
            }
        }
        self.marks.changed = true;
    }

    /// R21: after an update, every earmark must still fit, in decision order: R14 for the
    /// preemptor once every job being preempted has released and earlier earmarks are taken.
    pub(crate) fn check_earmarks(&mut self) {
        let live: Vec<u32> =
            (0..self.earmarks.len() as u32).filter(|&i| self.earmarks[i as usize].live).collect();
        if live.is_empty() {
            return;
        }
        // A what-if: every earmark released, every job being preempted too; then the
        // earmarks taken again in decision order, those that no longer fit lapse.
        let earmarks: Vec<(u32, Need)> = live
            .iter()
            .map(|&id| {
                let e = &self.earmarks[id as usize];
                (id, Need { job: e.job, share: e.share, ty: e.ty, count: e.n })
            })
            .collect();
        let holds = &self.holds;
        let hold_of = |j: JobId| holds.of(j);
        let lapsed: Vec<u32> = self.ledger.what_if(|l| {
            for &(_, e) in &earmarks {
                l.sub_committed(e.share, e.ty, e.count);
            }
            l.release_all_preempted();
            let mut lapsed = Vec::new();
            for &(id, e) in &earmarks {
                if l.fits(e, || hold_of(e.job), 0, false) {
                    l.add_committed(e.share, e.ty, e.count);
                } else {
                    lapsed.push(id);
                }
            }
            lapsed
        });
        for id in lapsed {
            self.lapse_earmark(id);
        }
    }

    /// The victims of the earmarks due now have released (their release timers come first):
    /// the next pass acts on those earmarks (R21).
    pub(crate) fn mature_earmarks(&mut self) {
        let now = self.now;
        for e in self.earmarks.iter_mut().filter(|e| e.live && e.due == now) {
            e.matured = true;
        }
        self.marks.all();
    }

    /// R21 at release: the share's front job is dispatched first on the earmark if it fits;
    /// otherwise the earmark lapses. Returns whether any earmark was acted on.
    pub(crate) fn pass_earmarks(&mut self) -> bool {
        if self.earmarks.is_empty() {
            return false;
        }
        let mut acted = false;
        let mut changed = false;
        for id in 0..self.earmarks.len() as u32 {
            let e = &self.earmarks[id as usize];
            if !e.live || !e.matured {
                changed |= !e.live;
                continue;
            }
            changed = true;
            acted = true;
            let (s, preemptor, ty, n) = (e.share, e.job, e.ty, e.n);
            self.lapse_earmark(id);
            if let Some(f) = self.front_for_release(s) {
                // Another front job goes first only if it fits on the earmark itself: same
                // type, no more instances than were earmarked.
                let jc = self.job_cfg(f);
                let on_earmark = f == preemptor || (jc.ty == ty && jc.count <= n);
                if on_earmark && self.fits(f, false) {
                    self.dispatch(f);
                }
            }
        }
        if changed {
            self.earmarks.retain(|e| e.live);
            for sh in self.shares.iter_mut() {
                sh.earmark = None;
            }
            for (i, e) in self.earmarks.iter().enumerate() {
                self.shares[e.share as usize].earmark = Some(i as u32);
            }
        }
        acted
    }
}
