//! R18-R20, R23: preemption planning, one module per rule: `reclaim`, `order`, `in_share`
//! and `shrink`. A [`Planner`] is a read-only view of what planning reads (the ledger and the
//! holds, the running lists, the jobs' priorities and attempts, in-share settings, the
//! scenario), so it can be table-tested on a state built without a run; it returns a
//! [`Plan`], which the simulation executes (R21).

use alloc::vec;
use alloc::vec::Vec;

use crate::result::PreemptionKind;
use crate::scenario::{JobCfg, JobId, ShareId, ValidScenario};

use super::holds::{Fit, Holds};
use super::jobs::Jobs;
use super::ledger::{Ledger, Need};
use super::running::Running;

mod in_share;
mod order;
mod reclaim;
mod shrink;
#[cfg(test)]
mod tests;

/// One victim of a plan.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Victim {
    pub job: JobId,
    /// Instances of the victim the preemptor's earmark takes over (R21).
    pub credit: u64,
    pub kind: PreemptionKind,
}

/// A preemption plan: victims with their credits and kinds, and the candidates considered.
pub(crate) struct Plan {
    pub victims: Vec<Victim>,
    pub considered: Considered,
}

/// A victim and the instances its preemption returns to the preemptor's side.
#[derive(Clone, Copy, Debug)]
struct Returned {
    job: JobId,
    instances: u64,
}

/// The first candidates a plan considered, in R19/R20 order, for explanations.
#[derive(Clone, Debug, Default)]
pub(crate) struct Considered(Vec<JobId>);

impl Considered {
    const KEPT: usize = 16;

    fn push(&mut self, j: JobId) {
        if self.0.len() < Self::KEPT {
            self.0.push(j);
        }
    }

    pub fn jobs(&self) -> &[JobId] {
        &self.0
    }
}

/// What preemption planning reads.
#[derive(Clone, Copy)]
pub(crate) struct Planner<'a> {
    pub cfg: &'a ValidScenario,
    pub ledger: &'a Ledger,
    pub holds: &'a Holds,
    pub running: &'a Running,
    pub jobs: &'a Jobs,
    /// Per share: in-share preemption enabled now (R20, as updated by actions).
    pub in_share: &'a [bool],
    pub now: u64,
}

impl<'a> Planner<'a> {
    fn job(&self, j: JobId) -> &'a JobCfg {
        &self.cfg.jobs[j.index()]
    }

    fn cfg_need(&self, j: JobId) -> Need {
        Need::of(j, self.job(j))
    }

    fn fit(&self) -> Fit<'a> {
        Fit { ledger: self.ledger, holds: self.holds }
    }

    #[inline]
    fn st(&self, s: ShareId, t: crate::scenario::TypeId) -> usize {
        s.index() * self.cfg.types.len() + t.index()
    }
}

/// "Made minimal" (R18-R20, R23): from the last victim back, drops every victim without
/// which the rest are still `enough`.
fn minimize<T: Copy>(victims: &mut Vec<T>, mut enough: impl FnMut(&[T]) -> bool) {
    let mut trial = Vec::with_capacity(victims.len());
    let mut k = victims.len();
    while k > 0 {
        k -= 1;
        trial.clear();
        trial.extend_from_slice(&victims[..k]);
        trial.extend_from_slice(&victims[k + 1..]);
        if enough(&trial) {
            victims.remove(k);
        }
    }
}

impl Planner<'_> {
    /// R18 then R20 for `need`, the front job of its share with priority `prio`, which does
    /// not fit even with borrowing: the victims that would let it fit, if any.
    pub(crate) fn plan_preemption(&self, need: Need, prio: u32) -> Option<Plan> {
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
                .any(|&b| b != s && self.ledger.over_quota(ShareId::at(b.index()), t) > 0);
        let in_share_possible =
            self.in_share[s.index()] && self.running.has_candidate_below(self.st(s, t), prio);
        if !reclaim_possible && !in_share_possible {
            return None;
        }
        let mut considered = Considered::default();
        if let Some(v) = self.plan_reclaim(j, 0, &mut considered) {
            if !v.is_empty() {
                return Some(self.plan_of(j, v, Vec::new(), considered));
            }
            return None; // fits already: nothing to preempt
        }
        if !in_share_possible {
            return None;
        }
        let (cross, in_share) = self.plan_in_share(j, prio, &mut considered)?;
        Some(self.plan_of(j, cross, in_share, considered))
    }

    /// Victims with the kinds of their preemption and their credits: how many of their
    /// instances the preemptor's earmark takes over (R21). The earmark is the preemptor's
    /// whole need `n`: first what its victims will return (lenders' returns first), and free
    /// and pool capacity only for the rest. Credits never add up to more than `n`, so a
    /// victim's other instances stay held, for everyone, until it releases.
    fn plan_of(
        &self,
        j: JobId,
        cross: Vec<Returned>,
        in_share: Vec<Returned>,
        considered: Considered,
    ) -> Plan {
        let n = self.job(j).count;
        let mut need = n;
        let all: Vec<(Returned, bool)> =
            in_share.iter().map(|&r| (r, true)).chain(cross.iter().map(|&r| (r, false))).collect();
        let mut credit = vec![0u64; all.len()];
        // Lenders' returns first.
        for (k, &(r, _)) in all.iter().enumerate() {
            if need == 0 {
                break;
            }
            if self.ledger.lends(self.job(r.job).share) {
                let c = r.instances.min(need);
                credit[k] = c;
                need -= c;
            }
        }
        for (k, &(r, _)) in all.iter().enumerate() {
            if need == 0 {
                break;
            }
            let c = (r.instances - credit[k]).min(need);
            credit[k] += c;
            need -= c;
        }
        let victims = all
            .iter()
            .zip(credit)
            .map(|(&(r, in_share), credit)| {
                let jc = self.job(r.job);
                let kind = if in_share {
                    PreemptionKind::InShare
                } else if self.ledger.over_by_update(jc.share, jc.ty) {
                    PreemptionKind::CapacityReduced
                } else {
                    PreemptionKind::CrossShare
                };
                Victim { job: r.job, credit, kind }
            })
            .collect();
        Plan { victims, considered }
    }
}
