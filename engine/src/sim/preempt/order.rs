//! R19: the victim order.

use core::cmp::Reverse;

use crate::model::VictimOrder;
use crate::sim::Simulation;
use crate::validate::JobId;
/// R19 order key of a candidate: step 3 (covering, excess or returns), then step 4.
pub(crate) type VictimKey = (u8, u64, Reverse<u64>, Reverse<u32>);

impl Simulation {
    /// Victim order key, R19 steps 1, 2 and 4 (step 3 depends on the shortfall).
    pub(crate) fn victim_static_key(&self, v: JobId) -> (u32, u64, Reverse<u64>, Reverse<u32>) {
        let jd = &self.jobs[v as usize];
        let step2 = match self.cfg.settings.victim_order {
            // Most recently dispatched first: larger start time sorts first.
            VictimOrder::Aws => u64::MAX - self.last_attempt(v).map_or(0, |a| a.started),
            VictimOrder::LeastLostWork => {
                let tr = self.attempt_training(v);
                match self.job_cfg(v).checkpoint_interval {
                    Some(c) => tr % c,
                    None => tr,
                }
            }
        };
        (jd.priority, step2, Reverse(self.job_cfg(v).submit_at), Reverse(v))
    }

    /// Picks the next victim among `cands` in R19 order; `cover(c)` gives step 3's
    /// `(covers, returns)` for a candidate.
    pub(crate) fn pick_victim(
        &self,
        cands: &[JobId],
        mut step3: impl FnMut(JobId) -> (bool, u64, u64),
    ) -> Option<usize> {
        if cands.is_empty() {
            return None;
        }
        // Steps 1-2 first: only the best group needs step 3.
        let best12 = cands
            .iter()
            .map(|&c| {
                let k = self.victim_static_key(c);
                (k.0, k.1)
            })
            .min()?;
        let mut best: Option<(usize, VictimKey)> = None;
        for (i, &c) in cands.iter().enumerate() {
            let k = self.victim_static_key(c);
            if (k.0, k.1) != best12 {
                continue;
            }
            let (covers, returns, excess) = step3(c);
            // Covering candidates by least excess, then the others by most returned.
            let k3 = if covers { (0u8, excess) } else { (1u8, u64::MAX - returns) };
            let key = (k3.0, k3.1, k.2, k.3);
            if best.as_ref().is_none_or(|(_, b)| key < *b) {
                best = Some((i, key));
            }
        }
        best.map(|(i, _)| i)
    }
}
