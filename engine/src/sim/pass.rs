//! R16: the scheduling pass and its phases, and what a pass must look at (R10).

#![allow(clippy::needless_range_loop)]

use core::cmp::Ordering;

use crate::model::Strategy;
use crate::validate::{JobId, ShareId, TypeId};

use super::queue::Head;
use super::{Simulation, NONE};
/// Phase of a pass (R16), for the front-job rule with backfill.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Phase {
    WithinQuota,
    Borrow,
}

pub(crate) fn ratio_lt(a_num: u64, a_den: u64, b_num: u64, b_den: u64) -> Ordering {
    // R16: lowest U/Q first; Q = 0 after all others.
    match (a_den == 0, b_den == 0) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        _ => ((a_num as u128) * (b_den as u128)).cmp(&((b_num as u128) * (a_den as u128))),
    }
}

impl Simulation {
    /// A share's queue changed (its front job may be another one).
    pub(crate) fn mark_share(&mut self, s: ShareId) {
        if s >= 64 {
            return self.mark_all();
        }
        let bit = 1u64 << s;
        self.dirty_shares |= bit;
        self.cur_shares |= bit;
        self.dirty = true;
    }

    /// Whether anything changed that a pass must look at.
    pub(crate) fn dirty(&self) -> bool {
        self.dirty || self.ledger.changed()
    }

    pub(crate) fn mark_all(&mut self) {
        self.dirty_all = true;
        self.cur_all = true;
        self.dirty = true;
    }

    /// Whether share `s` with front job type `t` needs looking at in the current pass.
    /// Skipping the others is exact: a share whose type and queue did not change since it
    /// was last looked at cannot dispatch, hold or preempt anything new (R16).
    pub(crate) fn relevant(&self, s: ShareId, t: TypeId) -> bool {
        self.cur_all || self.ledger.changed_in_pass(t) || (s < 64 && self.cur_shares & (1u64 << s) != 0)
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
        let h = self.heads[s as usize];
        if h.job == NONE || self.ledger.never_runnable(s, h.ty, h.count) {
            None
        } else {
            Some(h)
        }
    }

    #[inline(never)]
    pub(crate) fn front_backfill(&self, s: ShareId) -> Option<Head> {
        self.queues[s as usize].iter().find(|k| !self.never_runnable(k.2)).map(Head::of)
    }

    /// With backfill: the first job of the share that fits in `phase`'s sense.
    pub(crate) fn first_fitting(&self, s: ShareId, phase: Phase) -> Option<JobId> {
        self.queues[s as usize].iter().map(|k| k.2).find(|&j| self.fits(j, phase == Phase::WithinQuota))
    }

    /// The front job at an earmark's release, determined as in phases 2 and 3 (R21), the
    /// backfill rule included: a first job that fits only by borrowing or would trigger a
    /// preemption is the front job; otherwise the first job that fits by borrowing.
    pub(crate) fn front_for_release(&self, s: ShareId) -> Option<JobId> {
        let first = self.first_job(s)?;
        if !self.cfg.settings.backfill || self.fits(first, false) {
            return Some(first);
        }
        if self.plan_preemption_ro(self.need(first), self.jobs[first as usize].priority).is_some() {
            return Some(first);
        }
        Some(self.first_fitting(s, Phase::Borrow).unwrap_or(first))
    }

    pub(crate) fn pass(&mut self) {
        self.stats.passes += 1;
        // What changed since the last pass is what this pass looks at.
        self.cur_all =
            core::mem::take(&mut self.dirty_all) || self.cfg.settings.backfill || self.opts.exhaustive_passes;
        self.ledger.begin_pass();
        self.cur_shares = core::mem::take(&mut self.dirty_shares);
        self.pass_earmarks();
        self.pass_holds();
        let ns = self.shares.len();
        // Share order, once per pass: lowest U/Q for the front job's type. Within a pass
        // capacity is only taken, never given back (unless a job has no work at all), so a
        // share that is not relevant now cannot become able to act in this pass.
        let all = self.zero_work || self.cur_all || ns > 64;
        let mut order = core::mem::take(&mut self.order_buf);
        order.clear();
        // The shares to look at: all of them, or those whose queue changed and those whose
        // front job is of a type that changed.
        let mut mask = if all { u64::MAX } else { self.cur_shares };
        if !all {
            for t in 0..self.nt {
                if self.ledger.changed_in_pass(t as TypeId) {
                    mask |= self.head_types[t];
                }
            }
        }
        // Without `all` there are at most 64 shares: visit the set bits only.
        let every = 0..if all { ns as ShareId } else { 0 };
        let masked = core::iter::successors((!all && mask != 0).then_some(mask), |m| {
            let rest = m & (m - 1);
            (rest != 0).then_some(rest)
        })
        .map(|m| m.trailing_zeros() as ShareId);
        for s in every.chain(masked) {
            if self.shares[s as usize].earmark != NONE {
                continue;
            }
            if let Some(h) = self.front_of(s) {
                let t = h.ty;
                if !all && !self.relevant(s, t) {
                    continue;
                }
                order.push((s, self.ledger.quota_usage(s, t), self.ledger.quota(s, t)));
            }
        }
        order.sort_by(|a, b| ratio_lt(a.1, a.2, b.1, b.2).then(a.0.cmp(&b.0)));
        self.stats.shares_looked_at += order.len() as u64;
        self.pass_phases(&order, all);
        self.order_buf = order;
        self.cur_all = false;
        self.ledger.end_pass();
        self.cur_shares = 0;
    }

    /// The three phases of a pass (R16) over shares in `order` (over every share in phase 3
    /// when `all`).
    pub(crate) fn pass_phases(&mut self, order: &[(ShareId, u64, u64)], all: bool) {
        let ns = self.shares.len();
        let backfill = self.cfg.settings.backfill;
        let mut no_backfill = 0u64;
        // Within a pass, capacity is only taken (no job completes inside a pass unless some
        // job has no work at all), except when a preemption hands instances back to lenders:
        // a front job that does not fit stays so until then. `unfit` has the shares whose
        // front job is known not to fit even with borrowing, so they are not checked again.
        let sticky = !self.zero_work && ns <= 64;
        let known = sticky && !backfill;
        let mut unfit = 0u64;
        // Phase 1: within-quota dispatch.
        for &(s, _, _) in order {
            while self.shares[s as usize].earmark == NONE {
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
                        unfit |= 1u64 << s;
                    }
                    break;
                }
                if self.fits(f, false) || self.plan_preemption(f).is_some() {
                    no_backfill |= 1u64 << (s % 64);
                    break;
                }
                match self.first_fitting(s, Phase::WithinQuota) {
                    Some(b) => self.dispatch(b),
                    None => break,
                }
            }
        }
        // Phase 2: preemption, reclaim then in-share.
        for &(s, _, _) in order {
            if self.shares[s as usize].earmark != NONE {
                continue;
            }
            let bit = 1u64 << (s % 64);
            if backfill && no_backfill & bit == 0 && self.first_fitting(s, Phase::Borrow).is_some() {
                continue;
            }
            let Some(h) = self.front_of(s) else { continue };
            let need = Self::head_need(s, h);
            if !self.relevant(s, h.ty) || unfit & bit == 0 && self.fits_need(need, 0, false) {
                continue;
            }
            if known {
                unfit |= bit;
            }
            if let Some(plan) = self.plan_preemption_for(need, h.priority) {
                self.execute(Some(h.job), plan);
                // Victims' credits may have handed pool capacity back.
                unfit = 0;
            }
        }
        // Phase 3: borrowing, FIFO across shares. A share's queue changes only when it
        // dispatches, so (`sticky`) a share with nothing that fits stays so until the phase
        // ends, and is not looked at again.
        let mut failed = if known { unfit } else { 0 };
        let every = 0..if all { ns as ShareId } else { 0 };
        let listed = order.iter().filter(|_| !all).map(|o| o.0);
        let shares = every.chain(listed);
        loop {
            let mut best: Option<(u64, JobId)> = None;
            for s in shares.clone() {
                let bit = 1u64 << (s % 64);
                if sticky && failed & bit != 0 {
                    continue;
                }
                if self.shares[s as usize].earmark != NONE {
                    continue;
                }
                let f = if backfill && no_backfill & bit == 0 {
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
                    None => failed |= bit,
                }
            }
            match best {
                Some((_, f)) => self.dispatch(f),
                None => break,
            }
        }
    }
}
