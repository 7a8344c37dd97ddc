//! The summary integrals over time (instance-seconds per share and type), kept by the ledger
//! as held usage changes.

use alloc::vec::Vec;

use crate::scenario::{ShareId, TypeId};

use crate::kernel::sim::arith::mul_sat;

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

/// What the integrals read of the ledger's usage now (per share and type, `s * nt + t`; per
/// type).
pub(crate) struct Usage<'a, L: Fn(usize) -> bool> {
    pub nt: usize,
    pub held: &'a [u64],
    pub quota: &'a [u64],
    pub queued: &'a [u64],
    pub cap: &'a [Option<u64>],
    pub borrowed_now: &'a [u64],
    /// Per type, in input order: the shares that have (or had) quota or usage of it.
    pub type_shares: &'a [Vec<ShareId>],
    /// Whether a share lends (its strategy now).
    pub lends: L,
}

impl Integrals {
    /// The integrals of share and type `st` and of type `t` as a whole brought up to `now`
    /// (before either changes).
    pub(crate) fn at(&mut self, now: u64, st: usize, t: TypeId, u: &Usage<impl Fn(usize) -> bool>) {
        self.at_type(now, t, u);
        self.at_st(now, st, u);
    }

    /// Every integral brought up to `now` (before a configuration change).
    pub(crate) fn at_all(&mut self, now: u64, u: &Usage<impl Fn(usize) -> bool>) {
        for t in 0..u.nt {
            self.at_type(now, TypeId::at(t), u);
        }
        for i in 0..self.acc.len() {
            self.at_st(now, i, u);
        }
    }

    /// Adds the time since its last change of share and type `i`'s held instances.
    pub(crate) fn at_st(&mut self, now: u64, i: usize, u: &Usage<impl Fn(usize) -> bool>) {
        let dt = now - self.last_st[i];
        if dt == 0 {
            return;
        }
        self.last_st[i] = now;
        let (h, q) = (u.held[i], u.quota[i]);
        let a = &mut self.acc[i];
        a.used = a.used.saturating_add(mul_sat(h, dt));
        a.own = a.own.saturating_add(mul_sat(h.min(q), dt));
        a.borrowed = a.borrowed.saturating_add(mul_sat(h.saturating_sub(q), dt));
        a.quota = a.quota.saturating_add(mul_sat(q, dt));
        let entitled = q.min(h + u.queued[i]);
        a.entitled = a.entitled.saturating_add(mul_sat(entitled, dt));
        a.deficit = a.deficit.saturating_add(mul_sat(entitled.saturating_sub(h), dt));
    }

    /// Adds the time since type `t`'s last change to its capacity-seconds and to lenders'
    /// lent instance-seconds. Lent amounts follow R15: the borrowed total fills lenders'
    /// idle quota in input order.
    fn at_type(&mut self, now: u64, t: TypeId, u: &Usage<impl Fn(usize) -> bool>) {
        let ti = t.index();
        let dt = now - self.last_t[ti];
        if dt == 0 {
            return;
        }
        self.last_t[ti] = now;
        self.cap[ti] = self.cap[ti].saturating_add(mul_sat(u.cap[ti].unwrap_or(0), dt));
        let mut borrowed = u.borrowed_now[ti];
        if borrowed == 0 {
            return;
        }
        for &s in &u.type_shares[ti] {
            let s = s.index();
            if !(u.lends)(s) {
                continue;
            }
            let i = s * u.nt + ti;
            let k = u.quota[i].saturating_sub(u.held[i]).min(borrowed);
            self.acc[i].lent = self.acc[i].lent.saturating_add(mul_sat(k, dt));
            borrowed -= k;
            if borrowed == 0 {
                break;
            }
        }
    }
}
