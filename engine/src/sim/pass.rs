//! R16: the scheduling pass and its phases, and what a pass must look at.

use core::cmp::Ordering;

use crate::model::Strategy;
use crate::scenario::{JobId, ShareId, TypeId};

use super::ledger::Need;
use super::preempt::Plan;
use super::queue::Head;
use super::share_set::ShareSet;
use super::Simulation;
/// Phase of a pass (R16), for the front-job rule with backfill.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Phase {
    WithinQuota,
    Borrow,
}

/// A share in a pass's order, with its R16 sort key: quota usage over quota for its front
/// job's type.
#[derive(Clone, Copy, Debug)]
pub(crate) struct OrderEntry {
    share: ShareId,
    usage: u64,
    quota: u64,
}

impl OrderEntry {
    /// R16: lowest usage / quota first (compared by cross-multiplication), quota 0 after all
    /// others, then input order.
    fn cmp(&self, other: &Self) -> Ordering {
        let by_ratio = match (self.quota == 0, other.quota == 0) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Greater,
            (false, true) => Ordering::Less,
            _ => ((self.usage as u128) * (other.quota as u128))
                .cmp(&((other.usage as u128) * (self.quota as u128))),
        };
        by_ratio.then(self.share.cmp(&other.share))
    }
}

/// What a pass must look at, so that R16 work is limited to the shares it can affect: what
/// changed since the last pass, and during the pass under way (it grows as capacity is
/// released in the pass). Changed types are the ledger's.
#[derive(Clone, Debug)]
pub(crate) struct Marks {
    /// Something changed that a pass must look at.
    pub changed: bool,
    all_since: bool,
    shares_since: ShareSet,
    all: bool,
    shares: ShareSet,
}

impl Marks {
    pub fn new() -> Self {
        Marks {
            changed: false,
            all_since: true,
            shares_since: ShareSet::EMPTY,
            all: true,
            shares: ShareSet::EMPTY,
        }
    }

    /// A share's queue changed (its front job may be another one).
    pub fn share(&mut self, s: ShareId) {
        self.shares_since.insert(s);
        self.shares.insert(s);
        self.changed = true;
    }

    /// Everything must be looked at.
    pub fn all(&mut self) {
        self.all_since = true;
        self.all = true;
        self.changed = true;
    }

    fn begin_pass(&mut self, all: bool) {
        self.all = core::mem::take(&mut self.all_since) || all;
        self.shares = core::mem::take(&mut self.shares_since);
    }

    fn end_pass(&mut self) {
        self.all = false;
        self.shares = ShareSet::EMPTY;
    }
}

impl Simulation {
    /// Whether anything changed that a pass must look at.
    pub(crate) fn needs_pass(&self) -> bool {
        self.marks.changed || self.ledger.changed()
    }

    /// Whether share `s` with front job type `t` needs looking at in the current pass.
    /// Skipping the others is exact: a share whose type and queue did not change since it
    /// was last looked at cannot dispatch, hold or preempt anything new (R16).
    fn relevant(&self, s: ShareId, t: TypeId) -> bool {
        self.marks.all || self.ledger.changed_in_pass(t) || self.marks.shares.contains(s)
    }

    /// The share's first job in R11 order that is not never-runnable (with backfill), or
    /// simply its first job (without).
    pub(crate) fn first_job(&self, s: ShareId) -> Option<JobId> {
        self.front_of(s).map(|h| h.job)
    }

    /// [`Self::first_job`] with its type, count and submission time.
    #[inline]
    pub(crate) fn front_of(&self, s: ShareId) -> Option<Head> {
        if self.cfg.settings.backfill {
            return self.front_backfill(s);
        }
        self.queues.head(s).filter(|h| !self.ledger.never_runnable(s, h.ty, h.count))
    }

    #[inline(never)]
    pub(crate) fn front_backfill(&self, s: ShareId) -> Option<Head> {
        self.queues.iter(s).find(|h| !self.ledger.never_runnable(s, h.ty, h.count))
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
        if self.plan_preemption(self.need(first), self.jobs[first as usize].priority).is_some() {
            return Some(first);
        }
        Some(self.first_fitting(s, Phase::Borrow).unwrap_or(first))
    }

    /// [`Self::plan_preemption`], counted in the work counters.
    fn counted_plan(&mut self, need: Need, prio: u32) -> Option<Plan> {
        self.stats.preemption_plans += 1;
        self.plan_preemption(need, prio)
    }

    /// A pass (R16): earmarks whose victims released, holds, then the three phases.
    pub(crate) fn pass(&mut self) {
        self.stats.passes += 1;
        // What changed since the last pass is what this pass looks at.
        self.marks.begin_pass(self.cfg.settings.backfill || self.opts.exhaustive_passes);
        self.ledger.begin_pass();
        self.pass_earmarks();
        self.pass_holds();
        // Share order, once per pass: lowest U/Q for the front job's type. Within a pass
        // capacity is only taken, never given back (unless a job has no work at all), so a
        // share that is not relevant now cannot become able to act in this pass.
        let all = self.zero_work || self.marks.all;
        let mut order = core::mem::take(&mut self.order_buf);
        order.clear();
        // The shares to look at: all of them, or those whose queue changed and those whose
        // front job is of a type that changed.
        let mut look = if all { ShareSet::first(self.shares.len()) } else { self.marks.shares };
        if !all {
            for t in 0..self.nt as TypeId {
                if self.ledger.changed_in_pass(t) {
                    look = look.union(self.queues.heads_of_type(t));
                }
            }
        }
        for s in look.iter() {
            if self.shares[s as usize].earmark.is_some() {
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
        order.sort_by(OrderEntry::cmp);
        self.stats.shares_looked_at += order.len() as u64;
        self.pass_phases(&order, all);
        self.order_buf = order;
        self.marks.end_pass();
        self.ledger.end_pass();
    }

    /// The three phases of a pass (R16) over shares in `order` (over every share in phase 3
    /// when `all`).
    fn pass_phases(&mut self, order: &[OrderEntry], all: bool) {
        let ns = self.shares.len();
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
            while self.shares[s as usize].earmark.is_none() {
                let Some(h) = self.front_of(s) else { break };
                if !self.relevant(s, h.ty) {
                    break;
                }
                let f = h.job;
                let need = Self::head_need(s, h);
                if self.fits_need(need, 0, true) {
                    self.dispatch(f);
                    continue;
                }
                self.maybe_hold(need);
                if !backfill {
                    // Not within quota may still fit by borrowing; short of free never does.
                    if known && (self.ledger.strategy(s) != Strategy::LendAndBorrow || self.free_short(need))
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
            if self.shares[s as usize].earmark.is_some() {
                continue;
            }
            if backfill && !no_backfill.contains(s) && self.first_fitting(s, Phase::Borrow).is_some() {
                continue;
            }
            let Some(h) = self.front_of(s) else { continue };
            let need = Self::head_need(s, h);
            if !self.relevant(s, h.ty) || !unfit.contains(s) && self.fits_need(need, 0, false) {
                continue;
            }
            if known {
                unfit.insert(s);
            }
            // R26: a front job within its quota that does not fit needs a reclaim (R18),
            // whether or not victims are found now: its reclaim latency starts here.
            if self.ledger.quota_usage(s, h.ty) + h.count <= self.ledger.quota(s, h.ty) {
                let now = self.now;
                self.reclaim_waits.entry(h.job).or_insert(now);
            }
            if let Some(plan) = self.counted_plan(need, h.priority) {
                self.execute(Some(h.job), plan);
                // Victims' credits may have handed pool capacity back.
                unfit = ShareSet::EMPTY;
            }
        }
        // Phase 3: borrowing, FIFO across shares. A share's queue changes only when it
        // dispatches, so (`sticky`) a share with nothing that fits stays so until the phase
        // ends, and is not looked at again.
        let mut failed = if known { unfit } else { ShareSet::EMPTY };
        let every = 0..if all { ns as ShareId } else { 0 };
        let listed = order.iter().filter(|_| !all).map(|o| o.share);
        let shares = every.chain(listed);
        loop {
            let mut best: Option<(u64, JobId)> = None;
            for s in shares.clone() {
                if sticky && failed.contains(s) {
                    continue;
                }
                if self.shares[s as usize].earmark.is_some() {
                    continue;
                }
                let f = if backfill && !no_backfill.contains(s) {
                    self.first_fitting(s, Phase::Borrow).map(|f| (self.job_cfg(f).submit_at, f))
                } else {
                    match self.front_of(s) {
                        None => None,
                        // Not relevant yet; a dispatch of its type may make it so.
                        Some(h) if !self.relevant(s, h.ty) => continue,
                        Some(h) => {
                            self.fits_need(Self::head_need(s, h), 0, false).then_some((h.submit_at, h.job))
                        }
                    }
                };
                match f {
                    Some(key) => {
                        if best.is_none_or(|b| key < b) {
                            best = Some(key);
                        }
                    }
                    None => failed.insert(s),
                }
            }
            match best {
                Some((_, f)) => self.dispatch(f),
                None => break,
            }
        }
    }
}
