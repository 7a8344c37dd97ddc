//! R23: victims when the service environment limit of a type is lowered below its use.

// Shares index several parallel arrays at once; index loops say that best.
#![allow(clippy::needless_range_loop)]

use alloc::vec::Vec;

use crate::result::PreemptionKind;
use crate::scenario::{JobId, ShareId, TypeId};

use super::order::{first_victim, Candidate, Step3};
use super::{minimize, Considered, Plan, Planner, Victim};

impl Planner<'_> {
    /// R23 `updateServiceEnvironment`: when use of type `t` is above its new limit, victims
    /// are chosen at once: over-quota jobs first, then any job, each group in R19 order,
    /// made minimal. No earmark takes their instances: they stay held until they release.
    pub(crate) fn plan_shrink(&self, t: TypeId) -> Option<Plan> {
        let cap = self.ledger.capacity(t).unwrap_or(0);
        let ns = self.cfg.shares.len();
        let running =
            |b: usize| self.running.list(self.st(ShareId::at(b), t)).iter().filter(|e| e.is_candidate());
        // In use: jobs already being preempted count as released.
        let in_use: Vec<u64> = (0..ns).map(|b| running(b).map(|e| self.job(e.job).count).sum()).collect();
        let total: u64 = in_use.iter().sum();
        if total <= cap {
            return None;
        }
        let mut short = (total - cap) as i64;
        let mut over: Vec<u64> =
            (0..ns).map(|b| in_use[b].saturating_sub(self.ledger.quota(ShareId::at(b), t))).collect();
        let mut taken: Vec<JobId> = Vec::new();
        let mut considered = Considered::default();
        for over_quota_only in [true, false] {
            let mut cands: Vec<Candidate> = Vec::new();
            for b in 0..ns {
                if over_quota_only && over[b] == 0 {
                    continue;
                }
                cands.extend(
                    running(b).map(|e| e.job).filter(|j| !taken.contains(j)).map(|j| self.candidate(j)),
                );
            }
            while short > 0 {
                let Some(idx) = first_victim(&cands, |c| {
                    let r = self.job(c).count as i64;
                    Step3::new(r >= short, r as u64, (r - short).max(0) as u64)
                }) else {
                    break;
                };
                let c = cands.swap_remove(idx).job;
                let b = self.job(c).share.index();
                let r = self.job(c).count;
                short -= r as i64;
                over[b] = over[b].saturating_sub(r);
                considered.push(c);
                taken.push(c);
                if over_quota_only {
                    cands.retain(|x| over[self.job(x.job).share.index()] > 0);
                }
            }
        }
        let need = total - cap;
        minimize(&mut taken, |rest| rest.iter().map(|&v| self.job(v).count).sum::<u64>() >= need);
        let victims = taken
            .into_iter()
            .map(|job| Victim { job, credit: 0, kind: PreemptionKind::CapacityReduced })
            .collect();
        Some(Plan { victims, considered })
    }
}
