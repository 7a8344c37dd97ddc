//! R18-R20, R23: preemption planning. Planning only reads the state and returns a [`Plan`];
//! executing a plan is R21's ([`super::grace`]).

use alloc::vec;
use alloc::vec::Vec;

use crate::result::PreemptionKind;
use crate::validate::{JobId, ShareId};

use super::ledger::Need;
use super::Simulation;
mod order;
mod reclaim;
mod shrink;

/// A preemption plan: victims with their credits, and the kinds.
pub(crate) struct Plan {
    pub(crate) victims: Vec<(JobId, u64, PreemptionKind)>,
    pub(crate) considered: Vec<JobId>,
}

impl Simulation {
    /// R18 then R20 for a front job that does not fit even with borrowing.
    pub(crate) fn plan_preemption(&mut self, j: JobId) -> Option<Plan> {
        self.plan_preemption_for(self.need(j), self.jobs[j as usize].priority)
    }

    /// [`Self::plan_preemption`] for a request at hand, of a job with priority `prio`.
    pub(crate) fn plan_preemption_for(&mut self, need: Need, prio: u32) -> Option<Plan> {
        self.stats.preemption_plans += 1;
        self.plan_preemption_ro(need, prio)
    }

    pub(crate) fn plan_preemption_ro(&self, need: Need, prio: u32) -> Option<Plan> {
        let Need { job: j, share: s, ty: t, count: n } = need;
        // Cheap rejections first: reclaim needs a fit within quota and some other share over
        // quota (R18); in-share preemption needs a lower-priority job running (R20).
        let within = self.ledger.quota_usage(s, t) + n <= self.ledger.quota(s, t);
        // Only shares with quota or use of the type can be over quota for it.
        let reclaim_possible = within
            && self
                .ledger
                .type_shares(t)
                .iter()
                .any(|&b| b != s && self.ledger.over_quota(b as ShareId, t) > 0);
        let in_share_possible =
            self.shares[s as usize].in_share && self.running[self.st(s, t)].iter().any(|e| e.key < prio);
        if !reclaim_possible && !in_share_possible {
            return None;
        }
        let mut considered = Vec::new();
        if let Some(v) = self.plan_reclaim(j, 0, &mut considered) {
            if !v.is_empty() {
                return Some(self.to_plan(j, v, Vec::new(), considered));
            }
            return None; // fits already: nothing to preempt
        }
        // R20: running jobs of the same share with strictly lower priority (not being
        // preempted already: their key is u32::MAX).
        if !in_share_possible {
            return None;
        }
        let mut cands: Vec<JobId> =
            self.running[self.st(s, t)].iter().filter(|e| e.key < prio).map(|e| e.job).collect();
        let mut chosen: Vec<JobId> = Vec::new();
        let mut released = 0u64;
        let found = loop {
            let idx = self.pick_victim(&cands, |c| {
                let ret = self.job_cfg(c).count;
                let covers = self.plan_reclaim(j, released + ret, &mut Vec::new()).is_some();
                (covers, ret, ret)
            });
            let Some(idx) = idx else { break None };
            let c = cands.swap_remove(idx);
            if considered.len() < 16 {
                considered.push(c);
            }
            released += self.job_cfg(c).count;
            chosen.push(c);
            if let Some(cross) = self.plan_reclaim(j, released, &mut Vec::new()) {
                break Some(cross);
            }
        };
        let mut cross = found?;
        // Minimal: drop in-share victims from the last one back while it still fits.
        let mut k = chosen.len();
        while k > 0 {
            k -= 1;
            let without = released - self.job_cfg(chosen[k]).count;
            if let Some(c2) = self.plan_reclaim(j, without, &mut Vec::new()) {
                chosen.remove(k);
                released = without;
                cross = c2;
            }
        }
        let inshare: Vec<(JobId, u64)> = chosen.iter().map(|&v| (v, self.job_cfg(v).count)).collect();
        Some(self.to_plan(j, cross, inshare, considered))
    }

    /// Victims with the kinds of their preemption and their credits: how many of their
    /// instances the preemptor's earmark takes over (R21). The earmark is the preemptor's
    /// whole need `n`: first what its victims will return (lenders' returns first), and free
    /// and pool capacity only for the rest. Credits never add up to more than `n`, so a
    /// victim's other instances stay held, for everyone, until it releases.
    pub(crate) fn to_plan(
        &self,
        j: JobId,
        cross: Vec<(JobId, u64)>,
        inshare: Vec<(JobId, u64)>,
        considered: Vec<JobId>,
    ) -> Plan {
        let n = self.job_cfg(j).count;
        let mut need = n;
        let all: Vec<(JobId, u64, bool)> = inshare
            .iter()
            .map(|&(v, r)| (v, r, true))
            .chain(cross.iter().map(|&(v, r)| (v, r, false)))
            .collect();
        let mut credit = vec![0u64; all.len()];
        // Lenders' returns first.
        for (k, &(v, r, _)) in all.iter().enumerate() {
            if need == 0 {
                break;
            }
            if self.ledger.lends(self.job_cfg(v).share) {
                let c = r.min(need);
                credit[k] = c;
                need -= c;
            }
        }
        for (k, &(_, r, _)) in all.iter().enumerate() {
            if need == 0 {
                break;
            }
            let c = (r - credit[k]).min(need);
            credit[k] += c;
            need -= c;
        }
        let mut victims = Vec::new();
        for (k, &(v, _, in_share)) in all.iter().enumerate() {
            let r = credit[k];
            if in_share {
                victims.push((v, r, PreemptionKind::InShare));
                continue;
            }
            let jc = self.job_cfg(v);
            let kind = if self.ledger.over_by_update(jc.share, jc.ty) {
                PreemptionKind::CapacityReduced
            } else {
                PreemptionKind::CrossShare
            };
            victims.push((v, r, kind));
        }
        Plan { victims, considered }
    }
}
