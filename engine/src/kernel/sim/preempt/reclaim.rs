//! R18: cross-share reclaim of over-quota instances.

// Shares index several parallel arrays at once; index loops say that best.
#![allow(clippy::needless_range_loop)]

use alloc::vec;
use alloc::vec::Vec;

use crate::scenario::{JobId, ShareId};

use super::order::{first_victim, Candidate, Step3};
use super::{minimize, Considered, Planner, Returned};

impl Planner<'_> {
    /// R18/R19: plans reclaim for front job `j`, with `own_release` instances of its own
    /// share counted as released (in-share victims, R20). `Some(victims)` when the job fits
    /// (with no victims if it fits already); `None` when even all candidates would not do.
    pub(super) fn plan_reclaim(
        &self,
        j: JobId,
        own_release: u64,
        considered: &mut Considered,
    ) -> Option<Vec<Returned>> {
        let jc = self.job(j);
        let (s, t, n) = (jc.share, jc.ty, jc.count);
        self.ledger.capacity(t)?;
        let u = self.ledger.quota_usage(s, t).saturating_sub(own_release);
        let q = self.ledger.quota(s, t);
        let lends = self.ledger.lends(s);
        if self.fit().fits(self.cfg_need(j), own_release, false) {
            return Some(Vec::new());
        }
        if u + n > q {
            // A job that needs borrowing never triggers reclaim.
            return None;
        }
        let free = self.fit().free_for(j, t) + own_release as i64;
        let pool = self.ledger.pool_available(t) + if lends { own_release as i64 } else { 0 };
        let mut fs: i64 = (n as i64 - free).max(0);
        let mut ps: i64 = if lends { (n as i64 - pool).max(0) } else { 0 };
        let ns = self.cfg.shares.len();
        // Quick rejection before any allocation: all returnable capacity together.
        {
            let (mut all_f, mut all_p) = (0i64, 0i64);
            for b in 0..ns {
                if b == s.index() {
                    continue;
                }
                let over_b = self.ledger.over_quota(ShareId::at(b), t);
                let lb = self.ledger.lends(ShareId::at(b));
                if over_b > 0 && (fs > 0 || lb) {
                    all_f += over_b as i64;
                    if lb {
                        all_p += over_b as i64;
                    }
                }
            }
            if all_f < fs || all_p < ps {
                return None;
            }
        }
        // Over quota per share, in committed terms; victims being preempted are excluded.
        let mut over: Vec<u64> = (0..ns).map(|b| self.ledger.over_quota(ShareId::at(b), t)).collect();
        // Short of free: over-quota jobs of any share; short of the pool only: of lenders.
        let free_short = fs > 0;
        let eligible = |b: usize| b != s.index() && (free_short || self.ledger.lends(ShareId::at(b)));
        let mut cands: Vec<Candidate> = Vec::new();
        for b in 0..ns {
            if eligible(b) && over[b] > 0 {
                cands.extend(
                    self.running
                        .list(self.st(ShareId::at(b), t))
                        .iter()
                        .filter(|e| e.is_candidate())
                        .map(|e| self.candidate(e.job)),
                );
            }
        }
        let mut taken: Vec<JobId> = Vec::new();
        while fs > 0 || ps > 0 {
            let idx = first_victim(&cands, |c| {
                let b = self.job(c).share.index();
                let ret = self.job(c).count.min(over[b]) as i64;
                let lend_b = self.ledger.lends(ShareId::at(b));
                let need = fs.max(if lend_b { ps } else { 0 });
                let covers = ret >= fs && (!lend_b && ps == 0 || lend_b && ret >= ps);
                Step3::new(covers, ret as u64, (ret - need).max(0) as u64)
            })?;
            let c = cands.swap_remove(idx).job;
            let b = self.job(c).share.index();
            let ret = self.job(c).count.min(over[b]);
            if ret == 0 {
                continue;
            }
            considered.push(c);
            over[b] -= ret;
            fs = (fs - ret as i64).max(0);
            if self.ledger.lends(ShareId::at(b)) {
                ps = (ps - ret as i64).max(0);
            }
            taken.push(c);
            // Drop candidates of shares no longer over quota.
            cands.retain(|x| over[self.job(x.job).share.index()] > 0);
        }
        // Minimal set: from the last taken back, drop every victim not needed.
        let mut per: Vec<u64> = vec![0; ns];
        let returns_ok = |set: &[JobId]| -> bool {
            per.fill(0);
            for &v in set {
                per[self.job(v).share.index()] += self.job(v).count;
            }
            let (mut f, mut p) = (0i64, 0i64);
            for b in 0..ns {
                let r = per[b].min(self.ledger.over_quota(ShareId::at(b), t)) as i64;
                f += r;
                if self.ledger.lends(ShareId::at(b)) {
                    p += r;
                }
            }
            free + f >= n as i64 && (!lends || pool + p >= n as i64)
        };
        minimize(&mut taken, returns_ok);
        // What each victim returns, in pick order.
        let mut over2: Vec<u64> = (0..ns).map(|b| self.ledger.over_quota(ShareId::at(b), t)).collect();
        Some(
            taken
                .into_iter()
                .map(|v| {
                    let b = self.job(v).share.index();
                    let r = self.job(v).count.min(over2[b]);
                    over2[b] -= r;
                    Returned { job: v, instances: r }
                })
                .collect(),
        )
    }
}
