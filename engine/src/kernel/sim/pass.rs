//! R16, R21: the scheduling pass and its phases, what a pass must look at, and the
//! preemptions it starts (executing a plan, earmarks, their release and lapse).

use alloc::vec::Vec;

use crate::model::Strategy;
use crate::reasons::Reason;
use crate::result::{EventType, PreemptionKind};
use crate::scenario::{JobId, ShareId, TypeId};

use super::clock::TimerKind;
use super::grace::PreemptionRecord;
use super::holds::Fit;
use super::ledger::Need;
use super::marks::OrderEntry;
use super::preempt::{Plan, Planner};
use super::queue::Head;
use super::report;
use super::share_set::ShareSet;
use super::Simulation;

/// Phase of a pass (R16), for the front-job rule with backfill.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Phase {
    WithinQuota,
    Borrow,
}

impl Simulation {
    /// Whether anything changed that a pass must look at.
    pub(crate) fn needs_pass(&self) -> bool {
        self.marks.changed || self.ledger.changes().any()
    }

    /// Whether share `s` with front job type `t` needs looking at in the current pass.
    /// Skipping the others is exact: a share whose type and queue did not change since it
    /// was last looked at cannot dispatch, hold or preempt anything new (R16).
    fn relevant(&self, s: ShareId, t: TypeId) -> bool {
        self.marks.all
            || !self.marks.narrow && self.ledger.changes().in_pass(t)
            || self.marks.shares.contains(s)
    }

    /// The share's first job in R11 order that is not never-runnable (with backfill), or
    /// simply its first job (without).
    pub(crate) fn first_job(&self, s: ShareId) -> Option<JobId> {
        self.front_of(s).map(|h| h.job)
    }

    /// [`Self::first_job`] with its type, count and submission time.
    #[inline]
    pub(crate) fn front_of(&self, s: ShareId) -> Option<Head> {
        report::front_of(&self.queues, &self.ledger, self.cfg.settings.backfill, s)
    }

    /// R14 with holds (R16).
    #[inline]
    fn fit(&self) -> Fit<'_> {
        Fit { ledger: &self.ledger, holds: &self.holds }
    }

    /// What preemption planning reads (R18-R20, R23).
    pub(crate) fn planner(&self) -> Planner<'_> {
        Planner {
            cfg: &self.cfg,
            ledger: &self.ledger,
            holds: &self.holds,
            running: &self.running,
            jobs: &self.jobs,
            in_share: &self.in_share,
            now: self.now,
        }
    }

    /// R18 then R20 for `need`, the front job of its share with priority `prio`: the victims
    /// that would let it fit, if any.
    pub(crate) fn plan_preemption(&self, need: Need, prio: u32) -> Option<Plan> {
        self.planner().plan_preemption(need, prio)
    }

    /// Job `j`'s request.
    pub(crate) fn need(&self, j: JobId) -> Need {
        Need::of(j, self.job_cfg(j))
    }

    /// R14 for a request at hand, with `own_release` instances of its own share counted as
    /// released (in-share victims, R20); `within` asks for a fit within quota (phase 1).
    #[inline]
    pub(crate) fn fits_need(&self, need: Need, own_release: u64, within: bool) -> bool {
        self.fit().fits(need, own_release, within)
    }

    pub(crate) fn fits(&self, j: JobId, within: bool) -> bool {
        self.fits_need(self.need(j), 0, within)
    }

    /// With backfill: the first job of the share that fits in `phase`'s sense.
    pub(crate) fn first_fitting(&self, s: ShareId, phase: Phase) -> Option<JobId> {
        self.queues.iter(s).map(|h| h.job).find(|&j| self.fits(j, phase == Phase::WithinQuota))
    }

    /// The front job at an earmark's release, determined as in phases 2 and 3 (R21), the
    /// backfill rule included: a first job that fits only by borrowing or would trigger a
    /// preemption is the front job; otherwise the first job that fits by borrowing.
    pub(crate) fn front_for_release(&self, s: ShareId) -> Option<JobId> {
        let first = self.first_job(s)?;
        if !self.cfg.settings.backfill || self.fits(first, false) {
            return Some(first);
        }
        if self.plan_preemption(self.need(first), self.jobs.priority(first)).is_some() {
            return Some(first);
        }
        Some(self.first_fitting(s, Phase::Borrow).unwrap_or(first))
    }

    /// [`Self::plan_preemption`], counted in the work counters.
    fn counted_plan(&mut self, need: Need, prio: u32) -> Option<Plan> {
        self.stats.preemption_plans += 1;
        self.plan_preemption(need, prio)
    }

    /// A pass (R16): earmarks whose victims released, holds, then the three phases. Returns
    /// whether another pass must follow at this instant (R10).
    pub(crate) fn pass(&mut self) -> bool {
        self.stats.passes += 1;
        let before = (self.stats.dispatches, self.grace.log().len());
        // What changed since the last pass is what this pass looks at.
        self.marks.begin_pass(self.cfg.settings.backfill || self.opts.exhaustive_passes);
        self.ledger.changes_mut().begin_pass();
        let matured = self.pass_earmarks();
        // R16: holds, oldest first, are revalidated and take newly free instances.
        let (queues, backfill) = (&self.queues, self.cfg.settings.backfill);
        let cfg = &self.cfg;
        let moved = self.holds.revalidate(
            &mut self.ledger,
            |j| Need::of(j, &cfg.jobs[j.index()]),
            |ledger, s| report::front_of(queues, ledger, backfill, s).map(|h| h.job),
        );
        for s in moved.iter() {
            self.marks.share(s);
        }
        // Share order, once per pass: lowest U/Q for the front job's type. Within a pass
        // capacity is only taken, never given back (unless a job has no work at all), so a
        // share that is not relevant now cannot become able to act in this pass.
        let all = self.zero_work || self.marks.all;
        let mut order = core::mem::take(&mut self.order_buf);
        order.clear();
        // The shares to look at: all of them, or those whose queue changed and those whose
        // front job is of a type that changed.
        let mut look = if all { ShareSet::first(self.in_share.len()) } else { self.marks.shares };
        if !all && !self.marks.narrow {
            for t in TypeId::all(self.nt) {
                if self.ledger.changes().in_pass(t) {
                    look = look.union(self.queues.heads_of_type(t));
                }
            }
        }
        for s in look.iter() {
            if self.grace.of_share(s).is_some() {
                continue;
            }
            if let Some(h) = self.front_of(s) {
                let t = h.ty;
                if !all && !self.relevant(s, t) {
                    continue;
                }
                order.push(OrderEntry {
                    share: s,
                    usage: self.ledger.quota_usage(s, t),
                    quota: self.ledger.quota(s, t),
                });
            }
        }
        order.sort_unstable_by(OrderEntry::cmp);
        self.note_order_ties(&order);
        self.stats.shares_looked_at += order.len() as u64;
        let (borrowed, fitted) = self.pass_phases(&order, all);
        self.order_buf = order;
        // R10: passes repeat while one dispatches a job or starts a preemption, with two
        // shortcuts, each exact without backfill, jobs without work or an earmark acted on
        // (the property tests check both by forcing an extra pass over every share at every
        // instant, `Options::extra_pass`):
        // - Jobs dispatched within quota (phase 1) alone call for no other pass. They only
        //   take capacity, and only what no holder holds (R16), so the next pass's holds are
        //   this one's and every front job fits no better than at its turn in phase 1;
        //   phase 2 looked at every front job with the state as it stays (nothing was
        //   preempted, phase 3 dispatched nothing), and a front job it did not look at has
        //   its quota and running jobs unchanged and only less free capacity, which makes no
        //   preemption possible that was not.
        // - After a borrower dispatched in phase 3 (and nothing preempted), only its share's
        //   new front job and the front jobs that fitted by borrowing in phase 3 (phase 2
        //   passed them by) can newly act in phases 1 and 2 (the next pass is `narrow`).
        //   Other front jobs fit no better, and preempt no better by reclaiming the new
        //   borrower: it took from free and the pool all it can return, so each shortfall
        //   grew by at least what the candidates grew by.
        let dispatched = self.stats.dispatches != before.0;
        let preempted = self.grace.log().len() != before.1;
        let subtle = matured || self.cfg.settings.backfill || self.zero_work;
        let again = preempted || borrowed || dispatched && subtle;
        self.marks.end_pass(again.then_some(fitted), (borrowed && !preempted && !subtle).then_some(fitted));
        self.ledger.changes_mut().end_pass();
        again
    }

    /// Records which shares of a sorted pass order were tied on usage / quota (R16), so that
    /// input order decided between them.
    fn note_order_ties(&mut self, order: &[OrderEntry]) {
        if order.len() < 2 {
            return;
        }
        let mut start = 0;
        for i in 1..=order.len() {
            if i < order.len() && order[i].tied(&order[start]) {
                continue;
            }
            if i - start > 1 {
                let mut run = ShareSet::EMPTY;
                for o in &order[start..i] {
                    run.insert(o.share);
                }
                for o in &order[start..i] {
                    self.order_ties[o.share.index()] |= run.bits();
                }
            }
            start = i;
        }
    }

    /// The three phases of a pass (R16) over shares in `order` (over every share in phase 3
    /// when `all`, and over those whose front job fitted by borrowing in the previous pass's
    /// phase 3). Returns whether phase 3 dispatched a borrower, and the shares whose front
    /// job fitted by borrowing there.
    fn pass_phases(&mut self, order: &[OrderEntry], all: bool) -> (bool, ShareSet) {
        let ns = self.in_share.len();
        let backfill = self.cfg.settings.backfill;
        let mut no_backfill = ShareSet::EMPTY;
        // Within a pass, capacity is only taken (no job completes inside a pass unless some
        // job has no work at all), except when a preemption hands instances back to lenders:
        // a front job that does not fit stays so until then. `unfit` has the shares whose
        // front job is known not to fit even with borrowing, so they are not checked again.
        let sticky = !self.zero_work;
        let known = sticky && !backfill;
        let mut unfit = ShareSet::EMPTY;
        // Phase 1: within-quota dispatch.
        for s in order.iter().map(|o| o.share) {
            while self.grace.of_share(s).is_none() {
                let Some(h) = self.front_of(s) else { break };
                if !self.relevant(s, h.ty) {
                    break;
                }
                let f = h.job;
                let need = h.need(s);
                if self.fits_need(need, 0, true) {
                    self.dispatch(f);
                    continue;
                }
                self.holds.maybe_hold(&mut self.ledger, need);
                if !backfill {
                    // Not within quota may still fit by borrowing; short of free never does.
                    if known
                        && (self.ledger.strategy(s) != Strategy::LendAndBorrow || self.fit().free_short(need))
                    {
                        unfit.insert(s);
                    }
                    break;
                }
                if self.fits(f, false) || self.counted_plan(need, h.priority).is_some() {
                    no_backfill.insert(s);
                    break;
                }
                match self.first_fitting(s, Phase::WithinQuota) {
                    Some(b) => self.dispatch(b),
                    None => break,
                }
            }
        }
        // Phase 2: preemption, reclaim then in-share.
        for s in order.iter().map(|o| o.share) {
            if self.grace.of_share(s).is_some() {
                continue;
            }
            if backfill && !no_backfill.contains(s) && self.first_fitting(s, Phase::Borrow).is_some() {
                continue;
            }
            let Some(h) = self.front_of(s) else { continue };
            let need = h.need(s);
            if !self.relevant(s, h.ty) || !unfit.contains(s) && self.fits_need(need, 0, false) {
                continue;
            }
            if known {
                unfit.insert(s);
            }
            // R26: a front job within its quota that does not fit needs a reclaim (R18),
            // whether or not victims are found now: its reclaim latency starts here.
            if self.ledger.quota_usage(s, h.ty) + h.count <= self.ledger.quota(s, h.ty) {
                self.reclaim.waiting(h.job, self.now);
            }
            if let Some(plan) = self.counted_plan(need, h.priority) {
                self.execute(Some(h.job), plan);
                // Victims' credits may have handed pool capacity back.
                unfit = ShareSet::EMPTY;
            }
        }
        // Phase 3: borrowing, FIFO across shares: the earliest submitted front job that fits
        // by borrowing is dispatched and the pass ends (R16); the next pass at this instant
        // (R10) starts again with earmarks, holds and phase 1. Shares known not to fit
        // (`sticky`) are not looked at again.
        let failed = if known { unfit } else { ShareSet::EMPTY };
        let carried = self.marks.borrowers;
        let mut look = carried;
        for o in order {
            look.insert(o.share);
        }
        if all {
            look = ShareSet::first(ns);
        }
        let mut best: Option<(u64, JobId)> = None;
        let mut fitted = ShareSet::EMPTY;
        for s in look.iter() {
            if sticky && failed.contains(s) || self.grace.of_share(s).is_some() {
                continue;
            }
            let f = if backfill && !no_backfill.contains(s) {
                self.first_fitting(s, Phase::Borrow).map(|f| (self.job_cfg(f).submit_at, f))
            } else {
                match self.front_of(s) {
                    Some(h) if carried.contains(s) || self.relevant(s, h.ty) => {
                        self.fits_need(h.need(s), 0, false).then_some((h.submit_at, h.job))
                    }
                    _ => None,
                }
            };
            if let Some(key) = f {
                fitted.insert(s);
                if best.is_none_or(|b| key < b) {
                    best = Some(key);
                }
            }
        }
        if let Some((_, f)) = best {
            self.dispatch(f);
        }
        (best.is_some(), fitted)
    }
}

impl Simulation {
    /// R21: tells a plan's victims to stop (`Preemption Started`) and earmarks the
    /// preemptor's need.
    pub(crate) fn execute(&mut self, preemptor: Option<JobId>, plan: Plan) {
        let release_at = self.now.saturating_add(self.cfg.settings.grace);
        let em = preemptor.map(|p| {
            let jc = self.job_cfg(p);
            let (s, t, n) = (jc.share, jc.ty, jc.count);
            self.holds.drop_hold(&mut self.ledger, p, t);
            self.grace.earmark(p, s, t, n, release_at)
        });
        for v in plan.victims {
            self.start_preemption(v.job, preemptor, v.kind, v.credit, release_at, plan.considered.jobs(), em);
        }
        if let Some(id) = em {
            let e = self.grace.get(id);
            let (s, t, n) = (e.share, e.ty, e.n);
            self.ledger.add_committed(s, t, n);
            self.push_timer(release_at, TimerKind::Mature, id);
        }
    }

    /// R8, R21: victim `v` is told to stop; its credit goes to its preemptor's earmark.
    #[allow(clippy::too_many_arguments)]
    fn start_preemption(
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
        let (s, t, count, ckpt) = (jc.share, jc.ty, jc.count, jc.checkpoint_interval);
        // R8: training stops now; keep what the last checkpoint saved.
        let trained = self.jobs.stop_training(v, self.now);
        let st = &self.cfg.settings;
        let kept = match ckpt {
            Some(_) if st.checkpoint_on_stop && st.grace >= st.checkpoint_save => trained,
            Some(c) => trained / c * c,
            None => 0,
        };
        let log = self.grace.log().len() as u32;
        let n = self.jobs.start_preemption(v, log, kept, ckpt.is_some());
        self.grace.log_preemption(
            PreemptionRecord {
                victim: v,
                preemptor,
                kind,
                decided_at: self.now,
                releases_at: release_at,
                count: n,
                lost: trained - kept,
                considered: considered.to_vec(),
                earmarked: preemptor.map_or(0, |p| self.job_cfg(p).count),
            },
            credit,
        );
        if self.running.contains(v) {
            self.running.set_preempted(self.run_list(v), v);
        }
        if let Some(id) = em {
            self.grace.add_victim(id, v);
        }
        let ps = preemptor.map(|p| self.job_cfg(p).share);
        self.ledger.start_preemption(s, t, count, credit, ps);
        let status = self.jobs.status(v);
        self.event(v, EventType::PreemptionStarted, status, Reason::Preempted(log));
        self.push_timer(release_at, TimerKind::Release, v.0);
    }

    /// R21: an earmark lapses; victims still in their grace take their credit back.
    pub(crate) fn lapse_earmark(&mut self, id: u32) {
        let Some(lapsed) = self.grace.lapse(id) else { return };
        self.ledger.sub_committed(lapsed.share, lapsed.ty, lapsed.n);
        for v in lapsed.victims {
            let Some(log) = self.jobs.preempting(v) else { continue };
            let credit = self.grace.take_back_credit(log);
            if credit > 0 {
                let vc = self.job_cfg(v);
                self.ledger.take_back_credit(vc.share, vc.ty, credit, lapsed.share);
            }
        }
        self.marks.changed = true;
    }

    /// R21: after an update, every earmark must still fit, in decision order: R14 for the
    /// preemptor once every job being preempted has released and earlier earmarks are taken.
    pub(crate) fn check_earmarks(&mut self) {
        let live = self.grace.live();
        if live.is_empty() {
            return;
        }
        // A what-if: every earmark released, every job being preempted too; then the
        // earmarks taken again in decision order, those that no longer fit lapse.
        let earmarks: Vec<(u32, Need)> = live
            .iter()
            .map(|&id| {
                let e = self.grace.get(id);
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

    /// R21 at release: the share's front job is dispatched first on the earmark if it fits;
    /// otherwise the earmark lapses. Returns whether any earmark was acted on.
    fn pass_earmarks(&mut self) -> bool {
        if self.grace.len() == 0 {
            return false;
        }
        let mut acted = false;
        let mut changed = false;
        for id in 0..self.grace.len() as u32 {
            let e = self.grace.get(id);
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
            self.grace.compact();
        }
        acted
    }
}
