//! The summary integrals over time (instance-seconds per share and type), kept by the ledger
//! as held usage changes.

use alloc::vec::Vec;

use crate::scenario::{ShareId, TypeId};

use super::Ledger;

/// Per share and type: integrals over time, for R26.
#[derive(Clone, Debug, Default)]
pub(crate) struct Acc {
    pub used: u64,
    pub own: u64,
    pub borrowed: u64,
    pub lent: u64,
    pub quota: u64,
    /// R26 fairness: entitlement, min(quota, demand) with demand = queued + held.
    pub entitled: u64,
    /// R26 fairness: entitlement not held, max(0, entitlement - held).
    pub deficit: u64,
}

/// R26 integrals over time: per share and type, and service environment capacity-seconds per
/// type. Each is brought up to date only when what it integrates changes: a share and type
/// when its held instances do (`last_st`), a type's capacity and lent instances when any
/// share's use of the type does (`last_t`).
#[derive(Clone, Debug, Default)]
pub(crate) struct Integrals {
    pub acc: Vec<Acc>,
    pub cap: Vec<u64>,
    pub(super) last_st: Vec<u64>,
    pub(super) last_t: Vec<u64>,
}

impl Ledger {
    /// The integrals brought up to `now`, the ledger unchanged.
    pub fn integrals_at(&self, now: u64) -> Integrals {
        let mut ig = self.integrals.clone();
        self.integrate_all_into(now, &mut ig);
        ig
    }

    /// Brings the R26 integrals of share `s` and type `t`, and of type `t` as a whole, up to
    /// `now` (before either changes).
    pub(super) fn integrate(&mut self, now: u64, s: ShareId, t: TypeId) {
        let mut ig = core::mem::take(&mut self.integrals);
        self.integrate_type_into(now, &mut ig, t);
        self.integrate_st_into(now, &mut ig, self.st(s, t));
        self.integrals = ig;
    }

    /// Brings the integrals of share and type `i` alone up to `now`.
    pub(super) fn integrate_st(&mut self, now: u64, i: usize) {
        let mut ig = core::mem::take(&mut self.integrals);
        self.integrate_st_into(now, &mut ig, i);
        self.integrals = ig;
    }

    /// Brings every integral up to `now` (before a configuration change).
    pub(super) fn integrate_all(&mut self, now: u64) {
        let mut ig = core::mem::take(&mut self.integrals);
        self.integrate_all_into(now, &mut ig);
        self.integrals = ig;
    }

    fn integrate_all_into(&self, now: u64, ig: &mut Integrals) {
        for t in 0..self.nt {
            self.integrate_type_into(now, ig, t as TypeId);
        }
        for i in 0..ig.acc.len() {
            self.integrate_st_into(now, ig, i);
        }
    }

    /// Adds the time since its last change of share and type `i`'s held instances to `ig`.
    fn integrate_st_into(&self, now: u64, ig: &mut Integrals, i: usize) {
        let dt = now - ig.last_st[i];
        if dt == 0 {
            return;
        }
        ig.last_st[i] = now;
        let (u, q) = (self.held[i], self.quota[i]);
        let a = &mut ig.acc[i];
        a.used = a.used.saturating_add(u.saturating_mul(dt));
        a.own = a.own.saturating_add(u.min(q).saturating_mul(dt));
        a.borrowed = a.borrowed.saturating_add(u.saturating_sub(q).saturating_mul(dt));
        a.quota = a.quota.saturating_add(q.saturating_mul(dt));
        let entitled = q.min(u + self.queued[i]);
        a.entitled = a.entitled.saturating_add(entitled.saturating_mul(dt));
        a.deficit = a.deficit.saturating_add(entitled.saturating_sub(u).saturating_mul(dt));
    }

    /// Adds the time since type `t`'s last change to its capacity-seconds and to lenders'
    /// lent instance-seconds. Lent amounts follow R15: the borrowed total fills lenders'
    /// idle quota in input order.
    fn integrate_type_into(&self, now: u64, ig: &mut Integrals, t: TypeId) {
        let ti = t as usize;
        let dt = now - ig.last_t[ti];
        if dt == 0 {
            return;
        }
        ig.last_t[ti] = now;
        ig.cap[ti] = ig.cap[ti].saturating_add(self.cap[ti].unwrap_or(0).saturating_mul(dt));
        let mut borrowed = self.borrowed_now[ti];
        if borrowed == 0 {
            return;
        }
        for &s in &self.type_shares[ti] {
            let s = s as usize;
            if !self.terms[s].strategy.lends() {
                continue;
            }
            let i = s * self.nt + ti;
            let k = self.quota[i].saturating_sub(self.held[i]).min(borrowed);
            ig.acc[i].lent = ig.acc[i].lent.saturating_add(k.saturating_mul(dt));
            borrowed -= k;
            if borrowed == 0 {
                break;
            }
        }
    }
}
