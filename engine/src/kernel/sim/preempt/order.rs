//! R19: the victim order, as one key over a candidate's fields.

use core::cmp::Reverse;

use super::Planner;
use crate::model::VictimOrder;
use crate::scenario::JobId;

/// What R19 knows of a candidate before the shortfall is known (steps 1, 2 and 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Candidate {
    pub job: JobId,
    pub priority: u32,
    /// Step 2 under the settings' victim order: `aws`, the most recently dispatched first;
    /// `leastLostWork`, the least training since its last checkpoint first.
    pub step2: u64,
    pub submit_at: u64,
}

/// R19 step 3: how a candidate meets the shortfall.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Step3 {
    /// It covers the whole shortfall alone: least excess first.
    Covers { excess: u64 },
    /// It does not: most returned instances first.
    Short { returns: Reverse<u64> },
}

impl Step3 {
    pub fn new(covers: bool, returns: u64, excess: u64) -> Step3 {
        if covers {
            Step3::Covers { excess }
        } else {
            Step3::Short { returns: Reverse(returns) }
        }
    }
}

/// A candidate's place in the R19 order: the smallest key is preempted first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct VictimKey {
    /// Step 1: lowest priority first.
    pub priority: u32,
    /// Step 2 (see [`Candidate::step2`]).
    pub step2: u64,
    /// Step 3.
    pub step3: Step3,
    /// Step 4: latest submission first, then latest in input order.
    pub submitted: Reverse<u64>,
    pub job: Reverse<JobId>,
}

impl Candidate {
    pub fn key(&self, step3: Step3) -> VictimKey {
        VictimKey {
            priority: self.priority,
            step2: self.step2,
            step3,
            submitted: Reverse(self.submit_at),
            job: Reverse(self.job),
        }
    }
}

/// R19: the index in `cands` of the first victim. `step3` is asked only for the candidates
/// that steps 1 and 2 leave in the running (it may be costly).
pub(crate) fn first_victim(cands: &[Candidate], mut step3: impl FnMut(JobId) -> Step3) -> Option<usize> {
    let best12 = cands.iter().map(|c| (c.priority, c.step2)).min()?;
    let mut best: Option<(usize, VictimKey)> = None;
    for (i, c) in cands.iter().enumerate() {
        if (c.priority, c.step2) != best12 {
            continue;
        }
        let key = c.key(step3(c.job));
        if best.is_none_or(|(_, b)| key < b) {
            best = Some((i, key));
        }
    }
    best.map(|(i, _)| i)
}

impl Planner<'_> {
    /// Running job `v` as an R19 candidate. Planning reads a state that does not change
    /// while it plans, so each candidate is built once per plan, not once per victim taken.
    pub(crate) fn candidate(&self, v: JobId) -> Candidate {
        let step2 = match self.cfg.settings.victim_order {
            // Most recently dispatched first: larger start time sorts first.
            VictimOrder::Aws => u64::MAX - self.jobs.last_attempt(v).map_or(0, |a| a.started),
            VictimOrder::LeastLostWork => {
                let tr = self.jobs.attempt_training(v, self.now);
                match self.job(v).checkpoint_interval {
                    Some(c) => tr % c,
                    None => tr,
                }
            }
        };
        let jc = self.job(v);
        Candidate { job: v, priority: self.jobs.priority(v), step2, submit_at: jc.submit_at }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    struct Case {
        name: &'static str,
        /// (job, priority, step 2, submitAt, step 3)
        candidates: &'static [(JobId, u32, u64, u64, Step3)],
        order: &'static [JobId],
    }

    const COVERS_0: Step3 = Step3::Covers { excess: 0 };
    const COVERS_2: Step3 = Step3::Covers { excess: 2 };
    const SHORT_1: Step3 = Step3::Short { returns: Reverse(1) };
    const SHORT_3: Step3 = Step3::Short { returns: Reverse(3) };

    const CASES: &[Case] = &[
        Case {
            name: "lowest priority first, whatever else",
            candidates: &[
                (JobId(0), 5, 0, 0, COVERS_0),
                (JobId(1), 1, 9, 9, SHORT_1),
                (JobId(2), 3, 0, 0, COVERS_0),
            ],
            order: &[JobId(1), JobId(2), JobId(0)],
        },
        Case {
            name: "same priority: smallest step 2 first (aws: latest start; leastLostWork: least lost)",
            candidates: &[
                (JobId(0), 1, 30, 0, COVERS_0),
                (JobId(1), 1, 10, 0, SHORT_1),
                (JobId(2), 1, 20, 0, COVERS_0),
            ],
            order: &[JobId(1), JobId(2), JobId(0)],
        },
        Case {
            name: "then a candidate that covers the shortfall alone, least excess first",
            candidates: &[
                (JobId(0), 1, 0, 0, SHORT_3),
                (JobId(1), 1, 0, 0, COVERS_2),
                (JobId(2), 1, 0, 0, COVERS_0),
            ],
            order: &[JobId(2), JobId(1), JobId(0)],
        },
        Case {
            name: "candidates that do not cover, most returned first",
            candidates: &[(JobId(0), 1, 0, 0, SHORT_1), (JobId(1), 1, 0, 0, SHORT_3)],
            order: &[JobId(1), JobId(0)],
        },
        Case {
            name: "then latest submission first, then latest in input order",
            candidates: &[
                (JobId(0), 1, 0, 5, COVERS_0),
                (JobId(1), 1, 0, 9, COVERS_0),
                (JobId(2), 1, 0, 5, COVERS_0),
            ],
            order: &[JobId(1), JobId(2), JobId(0)],
        },
    ];

    fn candidate(c: &(JobId, u32, u64, u64, Step3)) -> Candidate {
        Candidate { job: c.0, priority: c.1, step2: c.2, submit_at: c.3 }
    }

    #[test]
    fn r19_victim_order_table() {
        for case in CASES {
            let mut keyed: Vec<(VictimKey, JobId)> =
                case.candidates.iter().map(|c| (candidate(c).key(c.4), c.0)).collect();
            keyed.sort();
            let order: Vec<JobId> = keyed.iter().map(|k| k.1).collect();
            assert_eq!(order, case.order, "{}", case.name);
        }
    }

    #[test]
    fn r19_picking_one_victim_at_a_time_follows_the_same_order() {
        for case in CASES {
            let mut left: Vec<Candidate> = case.candidates.iter().map(candidate).collect();
            let find = |j: JobId| case.candidates.iter().find(|c| c.0 == j).unwrap();
            let mut order = Vec::new();
            while let Some(i) = first_victim(&left, |j| find(j).4) {
                order.push(left.swap_remove(i).job);
            }
            assert_eq!(order, case.order, "{}", case.name);
        }
    }

    #[test]
    fn r19_step_3_is_asked_only_of_the_best_by_steps_1_and_2() {
        let cands =
            [(JobId(0), 1, 0, 0, COVERS_0), (JobId(1), 2, 0, 0, COVERS_0), (JobId(2), 1, 0, 0, SHORT_1)];
        let mut asked = Vec::new();
        let first = first_victim(&[candidate(&cands[0]), candidate(&cands[1]), candidate(&cands[2])], |j| {
            asked.push(j);
            cands[j.index()].4
        });
        assert_eq!(first, Some(0), "the index of job 0 in the list");
        assert_eq!(asked, [JobId(0), JobId(2)]);
    }
}
