//! R20: in-share preemption: lower-priority jobs of the preemptor's own share, with
//! cross-share reclaim for whatever they do not free.

use alloc::vec::Vec;

use crate::scenario::JobId;

use super::order::{first_victim, Candidate, Step3};
use super::{minimize, Considered, Planner, Returned};

impl Planner<'_> {
    /// R20 for front job `j` of priority `prio`: its share's running jobs of strictly lower
    /// priority (not being preempted already) in R19 order until, with reclaim, the job
    /// fits; then made minimal. Returns the reclaim victims and the in-share victims.
    pub(super) fn plan_in_share(
        &self,
        j: JobId,
        prio: u32,
        considered: &mut Considered,
    ) -> Option<(Vec<Returned>, Vec<Returned>)> {
        let jc = self.job(j);
        let (s, t) = (jc.share, jc.ty);
        let mut cands: Vec<Candidate> = self
            .running
            .list(self.st(s, t))
            .iter()
            .filter(|e| e.is_candidate_below(prio))
            .map(|e| self.candidate(e.job))
            .collect();
        let count = |v: JobId| self.job(v).count;
        let mut chosen: Vec<JobId> = Vec::new();
        let mut released = 0u64;
        let mut cross = loop {
            let idx = first_victim(&cands, |c| {
                let ret = count(c);
                let covers = self.plan_reclaim(j, released + ret, &mut Considered::default()).is_some();
                Step3::new(covers, ret, ret)
            })?;
            let c = cands.swap_remove(idx).job;
            considered.push(c);
            released += count(c);
            chosen.push(c);
            if let Some(cross) = self.plan_reclaim(j, released, &mut Considered::default()) {
                break cross;
            }
        };
        minimize(&mut chosen, |rest| {
            let released = rest.iter().map(|&v| count(v)).sum();
            match self.plan_reclaim(j, released, &mut Considered::default()) {
                Some(c) => {
                    cross = c;
                    true
                }
                None => false,
            }
        });
        let in_share = chosen.iter().map(|&v| Returned { job: v, instances: count(v) }).collect();
        Some((cross, in_share))
    }
}
