//! R13, R14, R15: the accounting. Quotas, held and committed usage per share and type, the
//! lending pool, instances withheld by holds, victims' credits to earmarks, fit checks and
//! borrow allowances. Brings the summary integrals up to date as held usage changes and
//! records which types changed, for the next pass to read; it never acts on its own.
//!
//! Two usages are kept per share and instance type:
//! - *held*: instances held by the share's jobs, `SCHEDULED` to release. This is what
//!   reports show and what the service environment limit bounds physically.
//! - *committed*: what decisions see. A job being preempted has already handed the part of
//!   its instances its preemptor counts on (its *credit*) to the preemptor's earmark, which
//!   is committed to the preemptor's share. So `free = C - sum(committed) - holds`. For a
//!   share's own quota and the pool, a victim's instances still count in its own share until
//!   it releases (`credited`) and the preemptor's share counts only the part of its earmark
//!   the credits do not cover (`covered`).
//!
//! No floating point is used in any decision; ratios are compared by cross-multiplication.

// Shares and types index several parallel arrays at once; index loops say that best.
#![allow(clippy::needless_range_loop)]

use alloc::vec;
use alloc::vec::Vec;

use crate::model::Strategy;
use crate::reasons::Misconfiguration;
use crate::scenario::{BorrowLimit, ShareId, TypeId, ValidScenario};

pub(crate) mod attribution;
mod changes;
mod fit;
mod integrals;

pub(crate) use changes::TypeChanges;
pub(crate) use fit::{FitCheck, Need};
use integrals::Usage;
pub(crate) use integrals::{Acc, Integrals};

/// A share's terms (R13), as updated by actions.
#[derive(Clone, Copy, Debug)]
struct Terms {
    strategy: Strategy,
    borrow_limit: BorrowLimit,
}

/// The accounting. See the module documentation.
#[derive(Clone, Debug)]
pub(crate) struct Ledger {
    nt: usize,
    terms: Vec<Terms>,
    cap: Vec<Option<u64>>,
    /// Per share and type: the quota (R13), as updated by actions.
    quota: Vec<u64>,
    committed: Vec<u64>,
    held: Vec<u64>,
    /// Per share and type: instances of queued jobs (R26 fairness).
    queued: Vec<u64>,
    /// Per type: committed usage over all shares.
    committed_total: Vec<u64>,
    pool_cap: Vec<u64>,
    pool_committed: Vec<u64>,
    /// Per type: free instances held by jobs for themselves (R16).
    withheld: Vec<u64>,
    /// Per share and type: instances still held by jobs being preempted that no earmark was
    /// credited with. They count as used for every fit (the victim holds them until it
    /// releases, R21) but as released for over-quota usage (R19).
    pending: Vec<u64>,
    /// Per share and type: instances of jobs being preempted already credited to an earmark.
    /// They still count against their own share's quota (R14: the victim holds them).
    credited: Vec<u64>,
    /// Per share and type: the part of the share's waiting preemptor's earmark that its
    /// victims' credited instances cover. Until they release, those instances count in the
    /// victims' shares, so the preemptor's share counts only the rest of its earmark (R21).
    covered: Vec<u64>,
    /// Per type: over lending shares, credited minus covered instances: what the pool's
    /// usage counts beyond committed usage (R13, R21).
    pool_adj: Vec<i64>,
    /// Per share and type: over quota because of an update (R22); cleared when back within
    /// quota.
    over_by_update: Vec<bool>,
    /// R17 per share and type: the most instances a job can ever get (recomputed when the
    /// configuration changes), so the never-runnable test is one comparison.
    runnable_limit: Vec<u64>,
    /// R13 per share and type: the borrow allowance (`None`: no limit), recomputed with
    /// `runnable_limit`.
    allowance: Vec<Option<u64>>,
    /// Per type: held instances above their share's quota, summed over shares (R15).
    borrowed_now: Vec<u64>,
    /// Per type, in input order: the shares that have (or had) quota or usage of it; the
    /// others contribute nothing to its integrals.
    type_shares: Vec<Vec<ShareId>>,
    integrals: Integrals,
    changes: TypeChanges,
}

/// What the ledger saves for [`Ledger::what_if`].
struct Saved {
    committed: Vec<u64>,
    committed_total: Vec<u64>,
    pool_committed: Vec<u64>,
    credited: Vec<u64>,
    covered: Vec<u64>,
    pool_adj: Vec<i64>,
    over_by_update: Vec<bool>,
}

impl Ledger {
    pub fn new(scenario: &ValidScenario) -> Self {
        let nt = scenario.types.len();
        let ns = scenario.shares.len();
        let mut l = Ledger {
            nt,
            terms: scenario
                .shares
                .iter()
                .map(|s| Terms { strategy: s.strategy, borrow_limit: s.borrow_limit })
                .collect(),
            cap: scenario.capacity.clone(),
            quota: scenario.shares.iter().flat_map(|s| s.quota.iter().copied()).collect(),
            committed: vec![0; ns * nt],
            held: vec![0; ns * nt],
            queued: vec![0; ns * nt],
            committed_total: vec![0; nt],
            pool_cap: vec![0; nt],
            pool_committed: vec![0; nt],
            withheld: vec![0; nt],
            pending: vec![0; ns * nt],
            credited: vec![0; ns * nt],
            covered: vec![0; ns * nt],
            pool_adj: vec![0; nt],
            over_by_update: vec![false; ns * nt],
            runnable_limit: vec![0; ns * nt],
            allowance: vec![None; ns * nt],
            borrowed_now: vec![0; nt],
            type_shares: (0..nt)
                .map(|t| ShareId::all(ns).filter(|&s| scenario.shares[s.index()].quota[t] > 0).collect())
                .collect(),
            integrals: Integrals {
                acc: vec![Acc::default(); ns * nt],
                cap: vec![0; nt],
                // R28: integrals start at `startAt`.
                last_st: vec![scenario.settings.start_at; ns * nt],
                last_t: vec![scenario.settings.start_at; nt],
            },
            changes: TypeChanges::new(nt),
        };
        l.recompute_pool();
        l
    }

    #[inline]
    fn st(&self, s: ShareId, t: TypeId) -> usize {
        s.index() * self.nt + t.index()
    }

    // ----- what a pass must look at -----------------------------------------------------

    /// R17 per share and type: the most instances a job can ever get.
    pub fn runnable_limits(&self) -> &[u64] {
        &self.runnable_limit
    }

    /// Types whose capacity or accounting changed.
    pub fn changes(&self) -> &TypeChanges {
        &self.changes
    }

    /// Types whose capacity or accounting changed, to mark or clear.
    pub fn changes_mut(&mut self) -> &mut TypeChanges {
        &mut self.changes
    }

    // ----- reading -----------------------------------------------------------------------

    /// How many shares the ledger accounts for.
    pub fn share_count(&self) -> usize {
        self.terms.len()
    }

    /// A share's borrow limit now (R14, as updated by actions).
    pub fn borrow_limit(&self, s: ShareId) -> BorrowLimit {
        self.terms[s.index()].borrow_limit
    }

    #[inline]
    pub fn strategy(&self, s: ShareId) -> Strategy {
        self.terms[s.index()].strategy
    }

    /// Whether share `s` lends its idle quota to the pool (R13).
    #[inline]
    pub fn lends(&self, s: ShareId) -> bool {
        self.terms[s.index()].strategy.lends()
    }

    #[inline]
    pub fn capacity(&self, t: TypeId) -> Option<u64> {
        self.cap[t.index()]
    }

    #[inline]
    pub fn quota(&self, s: ShareId, t: TypeId) -> u64 {
        self.quota[self.st(s, t)]
    }

    /// Held instances of a share and type (R25 `usage`).
    #[inline]
    pub fn held(&self, s: ShareId, t: TypeId) -> u64 {
        self.held[self.st(s, t)]
    }

    pub fn committed_total(&self, t: TypeId) -> u64 {
        self.committed_total[t.index()]
    }

    pub fn pool_capacity(&self, t: TypeId) -> u64 {
        self.pool_cap[t.index()]
    }

    /// Free instances held by jobs for themselves (R16), of type `t`.
    #[inline]
    pub fn withheld(&self, t: TypeId) -> u64 {
        self.withheld[t.index()]
    }

    /// Whether a share's usage of a type is over quota because of an update (R22).
    #[inline]
    pub fn over_by_update(&self, s: ShareId, t: TypeId) -> bool {
        self.over_by_update[self.st(s, t)]
    }

    /// The shares that have (or had) quota or usage of type `t`, in input order.
    pub fn type_shares(&self, t: TypeId) -> &[ShareId] {
        &self.type_shares[t.index()]
    }

    /// R14: instances of share `s` counted against its own quota: everything its jobs hold
    /// (victims in their grace included) plus its waiting preemptor's earmark.
    #[inline(always)]
    pub fn quota_usage(&self, s: ShareId, t: TypeId) -> u64 {
        let i = self.st(s, t);
        self.committed[i] + self.credited[i] - self.covered[i]
    }

    /// R19: what share `s` is still over quota for type `t`, counting jobs being preempted as
    /// released (so the same over-quota instance is never reclaimed twice).
    #[inline]
    pub fn over_quota(&self, s: ShareId, t: TypeId) -> u64 {
        let i = self.st(s, t);
        (self.committed[i] - self.pending[i] - self.covered[i]).saturating_sub(self.quota[i])
    }

    /// R13 borrow allowance of share `s` for type `t` (`None`: no limit).
    #[inline(always)]
    pub fn allowance(&self, s: ShareId, t: TypeId) -> Option<u64> {
        self.allowance[self.st(s, t)]
    }

    /// Free instances of type `t` for a job that itself holds `own_hold` of them (R16); very
    /// negative without a service environment limit.
    #[inline(always)]
    pub fn free(&self, t: TypeId, own_hold: impl FnOnce() -> u64) -> i64 {
        match self.cap[t.index()] {
            None => i64::MIN / 4,
            Some(c) => {
                c as i64 - self.committed_total[t.index()] as i64 - self.withheld[t.index()] as i64
                    + own_hold() as i64
            }
        }
    }

    /// What the lending pool has left for type `t` (R13).
    #[inline(always)]
    pub fn pool_available(&self, t: TypeId) -> i64 {
        self.pool_cap[t.index()] as i64 - self.pool_committed[t.index()] as i64 - self.pool_adj[t.index()]
    }

    /// R14: a request checked against its share's quota and allowance, the lending pool and
    /// the free instances, for a job that itself holds `own_hold` of them (R16), with
    /// `own_release` instances of its own share counted as released (in-share victims, R20).
    /// The one check behind every fit the pass decides on and every explanation of a wait.
    #[inline(always)]
    pub fn check(&self, need: Need, own_hold: impl FnOnce() -> u64, own_release: u64) -> FitCheck {
        let Need { share: s, ty: t, count: n, .. } = need;
        let strategy = self.strategy(s);
        let lends = strategy.lends();
        FitCheck {
            need: n,
            usage: self.quota_usage(s, t).saturating_sub(own_release),
            quota: self.quota(s, t),
            allowance: self.allowance(s, t),
            strategy,
            has_capacity: self.cap[t.index()].is_some(),
            free: self.free(t, own_hold) + own_release as i64,
            pool: self.pool_available(t) + if lends { own_release as i64 } else { 0 },
        }
    }

    /// R14 with `own_release` instances of the job's own share counted as released (in-share
    /// victims, R20). `within` asks for a fit within quota (R16 phase 1). The same answer as
    /// [`Self::check`]'s [`FitCheck::fits`] (a unit test holds them together), read lazily:
    /// most checks a pass makes fail, and what comes after the part that fails is not read.
    #[inline(always)]
    pub fn fits(&self, need: Need, own_hold: impl FnOnce() -> u64, own_release: u64, within: bool) -> bool {
        let Need { share: s, ty: t, count: n, .. } = need;
        if self.cap[t.index()].is_none() || self.free(t, own_hold) + (own_release as i64) < n as i64 {
            return false;
        }
        let usage = self.quota_usage(s, t).saturating_sub(own_release);
        let strategy = self.strategy(s);
        fit::quota_ok(usage, n, self.quota(s, t), self.allowance(s, t), strategy, within)
            && (!strategy.lends() || self.pool_available(t) + own_release as i64 >= n as i64)
    }

    /// R16: a job may hold free instances while it fits its quota and (for a lender) the pool.
    pub fn may_hold(&self, need: Need) -> bool {
        let Need { share: s, ty: t, count: n, .. } = need;
        let within = self.quota_usage(s, t) + n <= self.quota(s, t);
        within && (!self.lends(s) || self.pool_available(t) >= n as i64)
    }

    /// R17: whether `n` instances of type `t` are more than share `s` can ever get.
    #[inline]
    pub fn never_runnable(&self, s: ShareId, t: TypeId, n: u64) -> bool {
        n > self.runnable_limit[self.st(s, t)]
    }

    /// R17: the misconfiguration of a request of share `s` that can never fit, if any.
    pub fn misconfiguration(&self, s: ShareId, t: TypeId, n: u64) -> Option<Misconfiguration> {
        if !self.never_runnable(s, t, n) {
            return None;
        }
        match self.cap[t.index()] {
            None => return Some(Misconfiguration::ServiceEnvironment),
            Some(c) if n > c => return Some(Misconfiguration::ServiceEnvironment),
            _ => {}
        }
        let q = self.quota(s, t);
        match self.strategy(s) {
            Strategy::Reserve | Strategy::Lend => {
                if n > q {
                    return Some(Misconfiguration::Quota);
                }
            }
            Strategy::LendAndBorrow => {
                if let Some(a) = self.allowance(s, t) {
                    if n > q + a {
                        return Some(Misconfiguration::BorrowLimit);
                    }
                }
                if n > self.pool_cap[t.index()] {
                    return Some(Misconfiguration::Pool);
                }
            }
        }
        None
    }

    // ----- changing --------------------------------------------------------------------

    pub fn add_committed(&mut self, s: ShareId, t: TypeId, n: u64) {
        self.changes.mark(t);
        let i = self.st(s, t);
        self.committed[i] += n;
        self.committed_total[t.index()] += n;
        if self.lends(s) {
            self.pool_committed[t.index()] += n;
        }
    }

    pub fn sub_committed(&mut self, s: ShareId, t: TypeId, n: u64) {
        self.changes.mark(t);
        let i = self.st(s, t);
        debug_assert!(self.committed[i] >= n, "committed usage below zero");
        self.committed[i] -= n;
        self.committed_total[t.index()] -= n;
        if self.lends(s) {
            self.pool_committed[t.index()] -= n;
        }
        // R22: a share is over quota because of an update until it is back within quota.
        if self.over_by_update[i] && self.committed[i] <= self.quota[i] {
            self.over_by_update[i] = false;
        }
    }

    /// Instances a job holds start or stop (R6), at time `now`.
    pub fn change_held(&mut self, now: u64, s: ShareId, t: TypeId, add: u64, sub: u64) {
        self.integrate(now, s, t);
        if add > 0 {
            self.note_type_share(s, t);
        }
        let i = self.st(s, t);
        let q = self.quota[i];
        let before = self.held[i].saturating_sub(q);
        self.held[i] = self.held[i] + add - sub;
        let bt = &mut self.borrowed_now[t.index()];
        *bt = *bt - before + self.held[i].saturating_sub(q);
    }

    /// Instances of a share's queued jobs of a type change (R26 fairness: demand is queued
    /// plus held), at time `now`. Nothing any decision reads.
    pub fn change_queued(&mut self, now: u64, s: ShareId, t: TypeId, add: u64, sub: u64) {
        let i = self.st(s, t);
        let (q, u, d) = (self.quota[i], self.held[i], self.queued[i]);
        let after = d + add - sub;
        // Only the entitlement min(quota, held + queued) reads the queued demand: when it
        // stays the same (a long queue), nothing needs integrating first.
        if q.min(u + d) != q.min(u + after) {
            self.integrate_st(now, i);
        }
        self.queued[i] = after;
    }

    /// Free instances held by jobs for themselves (R16) change; no type is marked for the
    /// pass (only for the wait breakdown).
    pub fn change_withheld(&mut self, t: TypeId, add: u64, sub: u64) {
        let w = &mut self.withheld[t.index()];
        *w = *w + add - sub;
        if add != sub {
            self.changes.mark_for_look(t);
        }
    }

    fn note_type_share(&mut self, s: ShareId, t: TypeId) {
        let list = &mut self.type_shares[t.index()];
        if let Err(p) = list.binary_search(&s) {
            list.insert(p, s);
        }
    }

    // ----- credits (R21) -----------------------------------------------------------------

    /// Moves `c` credited instances of a victim of share `vs` to (`add`) or from the earmark
    /// of a preemptor of share `ps`, both of type `t`.
    fn move_credit(&mut self, vs: ShareId, ps: ShareId, t: TypeId, c: u64, add: bool) {
        if c == 0 {
            return;
        }
        let (vi, pi) = (self.st(vs, t), self.st(ps, t));
        let adj = |l: &Self, s: ShareId| if l.lends(s) { c as i64 } else { 0 };
        let delta = adj(self, vs) - adj(self, ps);
        if add {
            self.credited[vi] += c;
            self.covered[pi] += c;
            self.pool_adj[t.index()] += delta;
        } else {
            self.credited[vi] -= c;
            self.covered[pi] -= c;
            self.pool_adj[t.index()] -= delta;
        }
        self.changes.mark(t);
    }

    /// A victim of share `s` holding `n` instances of type `t` starts its preemption: `credit`
    /// of them are committed to the earmark of its preemptor's share `ps` (none without a
    /// preemptor), the rest stay pending until it releases.
    pub fn start_preemption(&mut self, s: ShareId, t: TypeId, n: u64, credit: u64, ps: Option<ShareId>) {
        self.sub_committed(s, t, credit);
        let i = self.st(s, t);
        self.pending[i] += n - credit;
        if let Some(ps) = ps {
            self.move_credit(s, ps, t, credit, true);
        }
    }

    /// A victim stops being preempted (it releases, or is terminated): its pending instances
    /// leave committed usage and its credit leaves its preemptor's cover. Held usage is the
    /// caller's ([`Self::change_held`]).
    pub fn end_preemption(&mut self, s: ShareId, t: TypeId, n: u64, credit: u64, ps: Option<ShareId>) {
        let i = self.st(s, t);
        self.pending[i] -= n - credit;
        if let (Some(ps), true) = (ps, credit > 0) {
            self.move_credit(s, ps, t, credit, false);
        }
        self.sub_committed(s, t, n - credit);
    }

    /// The earmark of preemptor share `ps` lapses while a victim of share `s` is in its grace:
    /// the victim takes its credit back, as pending instances.
    pub fn take_back_credit(&mut self, s: ShareId, t: TypeId, credit: u64, ps: ShareId) {
        self.add_committed(s, t, credit);
        let i = self.st(s, t);
        self.pending[i] += credit;
        self.move_credit(s, ps, t, credit, false);
    }

    /// Runs `f` on the ledger and then puts committed usage, credits and R22 flags back as
    /// they were: a scoped what-if. Held usage and integrals are not touched by `f`'s
    /// questions; the types `f` changed stay marked.
    pub fn what_if<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        let saved = Saved {
            committed: self.committed.clone(),
            committed_total: self.committed_total.clone(),
            pool_committed: self.pool_committed.clone(),
            credited: self.credited.clone(),
            covered: self.covered.clone(),
            pool_adj: self.pool_adj.clone(),
            over_by_update: self.over_by_update.clone(),
        };
        let r = f(self);
        self.committed = saved.committed;
        self.committed_total = saved.committed_total;
        self.pool_committed = saved.pool_committed;
        self.credited = saved.credited;
        self.covered = saved.covered;
        self.pool_adj = saved.pool_adj;
        self.over_by_update = saved.over_by_update;
        r
    }

    /// Inside [`Self::what_if`]: every job being preempted has released, credited and
    /// pending instances alike.
    pub fn release_all_preempted(&mut self) {
        for i in 0..self.pending.len() {
            let r = self.pending[i];
            if r > 0 {
                self.sub_committed(ShareId::at(i / self.nt), TypeId::at(i % self.nt), r);
            }
        }
        self.credited.iter_mut().for_each(|x| *x = 0);
        self.covered.iter_mut().for_each(|x| *x = 0);
        self.pool_adj.iter_mut().for_each(|x| *x = 0);
    }

    // ----- configuration (R22, R23) ----------------------------------------------------

    /// A share's quotas and terms change; integrals are brought up to `now` first.
    pub fn update_share(
        &mut self,
        now: u64,
        s: ShareId,
        quota: Option<&[u64]>,
        terms: Option<(Strategy, BorrowLimit)>,
    ) {
        self.integrate_all(now);
        if let Some(q) = quota {
            let i = self.st(s, TypeId(0));
            self.quota[i..i + self.nt].copy_from_slice(q);
            for t in 0..self.nt {
                if q[t] > 0 {
                    self.note_type_share(s, TypeId::at(t));
                }
            }
        }
        if let Some((strategy, borrow_limit)) = terms {
            self.terms[s.index()] = Terms { strategy, borrow_limit };
        }
        self.recompute_borrowed();
        self.recompute_pool();
    }

    /// R22: share `s` is over quota for type `t` because of an update.
    pub fn set_over_by_update(&mut self, s: ShareId, t: TypeId) {
        let i = self.st(s, t);
        self.over_by_update[i] = true;
    }

    /// Committed usage of a share and type.
    pub fn committed(&self, s: ShareId, t: TypeId) -> u64 {
        self.committed[self.st(s, t)]
    }

    /// The service environment limits change; integrals are brought up to `now` first.
    pub fn update_capacity(&mut self, now: u64, limits: &[Option<u64>]) {
        self.integrate_all(now);
        self.cap = limits.to_vec();
        self.recompute_limits();
    }

    fn recompute_limits(&mut self) {
        for s in 0..self.terms.len() {
            for t in 0..self.nt {
                let i = s * self.nt + t;
                self.allowance[i] = self.compute_allowance(ShareId::at(s), TypeId::at(t));
                let q = self.quota[i];
                let own = match self.terms[s].strategy {
                    Strategy::Reserve | Strategy::Lend => q,
                    Strategy::LendAndBorrow => match self.allowance[i] {
                        Some(a) => (q + a).min(self.pool_cap[t]),
                        None => self.pool_cap[t],
                    },
                };
                self.runnable_limit[i] = own.min(self.cap[t].unwrap_or(0));
            }
        }
    }

    fn compute_allowance(&self, s: ShareId, t: TypeId) -> Option<u64> {
        self.terms[s.index()].borrow_limit.allowance(self.quota(s, t))
    }

    fn recompute_pool(&mut self) {
        for t in 0..self.nt {
            let mut cap = 0;
            let mut used = 0;
            let mut adj = 0i64;
            for s in 0..self.terms.len() {
                if self.terms[s].strategy.lends() {
                    let i = s * self.nt + t;
                    cap += self.quota[i];
                    used += self.committed[i];
                    adj += self.credited[i] as i64 - self.covered[i] as i64;
                }
            }
            self.pool_cap[t] = cap;
            self.pool_committed[t] = used;
            self.pool_adj[t] = adj;
        }
        self.recompute_limits();
    }

    /// After a quota change: the borrowed totals again.
    fn recompute_borrowed(&mut self) {
        for t in 0..self.nt {
            self.borrowed_now[t] = (0..self.terms.len())
                .map(|s| self.held[s * self.nt + t].saturating_sub(self.quota[s * self.nt + t]))
                .sum();
        }
    }
}

/// The ledger's usage as the integrals read it, its fields borrowed one by one (so that
/// `integrals` can be borrowed mutably beside it).
macro_rules! usage {
    ($l:expr) => {
        Usage {
            nt: $l.nt,
            held: &$l.held,
            quota: &$l.quota,
            queued: &$l.queued,
            cap: &$l.cap,
            borrowed_now: &$l.borrowed_now,
            type_shares: &$l.type_shares,
            lends: |s: usize| $l.terms[s].strategy.lends(),
        }
    };
}

impl Ledger {
    /// The integrals brought up to `now`, the ledger unchanged.
    pub fn integrals_at(&self, now: u64) -> Integrals {
        let mut ig = self.integrals.clone();
        ig.at_all(now, &usage!(self));
        ig
    }

    /// Brings the R26 integrals of share `s` and type `t`, and of type `t` as a whole, up to
    /// `now` (before either changes).
    fn integrate(&mut self, now: u64, s: ShareId, t: TypeId) {
        let st = self.st(s, t);
        self.integrals.at(now, st, t, &usage!(self));
    }

    /// Brings the integrals of share and type `i` alone up to `now`.
    fn integrate_st(&mut self, now: u64, i: usize) {
        self.integrals.at_st(now, i, &usage!(self));
    }

    /// Brings every integral up to `now` (before a configuration change).
    fn integrate_all(&mut self, now: u64) {
        self.integrals.at_all(now, &usage!(self));
    }
}

#[cfg(test)]
mod tests;
