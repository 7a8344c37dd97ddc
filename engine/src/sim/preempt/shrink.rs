//! R23: victims when the service environment limit is lowered.

use alloc::vec;
use alloc::vec::Vec;

use crate::result::PreemptionKind;
use crate::sim::Simulation;
use crate::validate::{JobId, ShareId, TypeId};

use super::Plan;

impl Simulation {
    /// R23 `updateServiceEnvironment`: when usage is above the new limit, victims are chosen
    /// at once: over-quota jobs first, then any job, each group in R19 order, minimal set.
    pub(crate) fn shrink_capacity(&mut self, t: TypeId) {
        let cap = self.ledger.capacity(t).unwrap_or(0);
        let ns = self.shares.len();
        // In use: jobs already being preempted count as released.
        let mut in_use: Vec<u64> = vec![0; ns];
        for (b, u) in in_use.iter_mut().enumerate() {
            for e in &self.running[b * self.nt + t as usize] {
                if e.key != u32::MAX {
                    *u += self.job_cfg(e.job).count;
                }
            }
        }
        let total: u64 = in_use.iter().sum();
        if total <= cap {
            return;
        }
        let mut short = (total - cap) as i64;
        let mut over: Vec<u64> =
            (0..ns).map(|b| in_use[b].saturating_sub(self.ledger.quota(b as ShareId, t))).collect();
        let mut taken: Vec<JobId> = Vec::new();
        let mut considered: Vec<JobId> = Vec::new();
        for group in 0..2 {
            let mut cands: Vec<JobId> = Vec::new();
            for b in 0..ns {
                if group == 0 && over[b] == 0 {
                    continue;
                }
                for e in &self.running[b * self.nt + t as usize] {
                    if e.key != u32::MAX && !taken.contains(&e.job) {
                        cands.push(e.job);
                    }
                }
            }
            while short > 0 {
                let Some(idx) = self.pick_victim(&cands, |c| {
                    let r = self.job_cfg(c).count as i64;
                    (r >= short, r as u64, (r - short).max(0) as u64)
                }) else {
                    break;
                };
                let c = cands.swap_remove(idx);
                let b = self.job_cfg(c).share as usize;
                let r = self.job_cfg(c).count;
                short -= r as i64;
                over[b] = over[b].saturating_sub(r);
                if considered.len() < 16 {
                    considered.push(c);
                }
                taken.push(c);
                if group == 0 {
                    cands.retain(|&x| over[self.job_cfg(x).share as usize] > 0);
                }
            }
        }
        // Minimal set.
        let need = (total - cap) as i64;
        let mut k = taken.len();
        while k > 0 {
            k -= 1;
            let sum: i64 = taken
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != k)
                .map(|(_, &v)| self.job_cfg(v).count as i64)
                .sum();
            if sum >= need {
                taken.remove(k);
            }
        }
        // No earmark takes these instances: they stay held until the victims release.
        let victims = taken.into_iter().map(|v| (v, 0, PreemptionKind::CapacityReduced)).collect();
        self.execute(None, Plan { victims, considered });
    }
}
