//! The rules the playground cites (R1-R27 of the semantics the engine implements), each as a
//! title and a short statement, so that a rule chip opens its meaning in the page.

/// One rule: its id (`"R19"`), title and a short statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    pub id: &'static str,
    pub title: &'static str,
    pub text: &'static str,
}

/// Every rule, in order.
pub const RULES: [Rule; 27] = [
    Rule {
        id: "R1",
        title: "Service environment",
        text: "One per simulation. Its capacity limits give, per instance type, how many instances exist at all. \
               A job whose instance type has no limit here can never run. Capacity is counted in instances; \
               GPUs per instance only feed the GPU metrics.",
    },
    Rule {
        id: "R2",
        title: "Quota share",
        text: "A team's virtual queue (at most 20). Its capacity limits are its own quota: what its jobs may use \
               without borrowing. It has a sharing strategy, a borrow limit (LEND_AND_BORROW only, -1 = unlimited), \
               in-share preemption on or off, and a state.",
    },
    Rule {
        id: "R3",
        title: "Oversubscription",
        text: "The shares' quotas may add up to more than the service environment has. That is allowed and warned \
               about: the service environment's limit still applies whenever a job is dispatched.",
    },
    Rule {
        id: "R4",
        title: "Strategies",
        text: "RESERVE keeps idle quota for the share: it never lends and never borrows. LEND lets others use its \
               idle quota but never borrows. LEND_AND_BORROW lends like LEND, and its jobs may also use idle quota \
               lent by others.",
    },
    Rule {
        id: "R5",
        title: "Job fields",
        text: "A job names its share, priority (0-9999, higher first within a share), instance type and count, \
               submission time and the training time it needs; optionally a checkpoint interval, a preemption \
               retry limit and a timeout per attempt.",
    },
    Rule {
        id: "R6",
        title: "Job states",
        text: "SUBMITTED, RUNNABLE, SCHEDULED, STARTING, RUNNING, then SUCCEEDED or FAILED. A job holds its instances \
               from SCHEDULED until it leaves RUNNING. Submitting to a DISABLED share fails the job.",
    },
    Rule {
        id: "R7",
        title: "Preempted jobs",
        text: "A preempted job goes back to RUNNABLE, keeps its place by original submission time, and counts one more \
               preempted attempt. With a retry limit N, the (N+1)-th preemption fails it.",
    },
    Rule {
        id: "R8",
        title: "Checkpoints",
        text: "A job that checkpoints every c seconds keeps the progress of its last checkpoint when it is told to \
               stop; training since then is lost work. Without checkpoints a preempted job restarts from zero.",
    },
    Rule {
        id: "R9",
        title: "Timeout",
        text: "An attempt that runs for timeoutSeconds fails the job. A timeout equal to the remaining work is a success.",
    },
    Rule {
        id: "R10",
        title: "When the scheduler runs",
        text: "A scheduling pass runs after every instant where something changed (a submission, a completion, a \
               preemption completing, an action); there is no fixed tick. At one instant: releases, then actions, \
               then submissions, then the pass.",
    },
    Rule {
        id: "R11",
        title: "Order within a share",
        text: "Highest priority first; ties by earlier submission, then by position in the input. A changed priority \
               applies from the next pass.",
    },
    Rule {
        id: "R12",
        title: "Head-of-line blocking",
        text: "By default a share's queue is strict: while its first job cannot start, later jobs of that share wait \
               too. With backfill, later jobs that fit may go first.",
    },
    Rule {
        id: "R13",
        title: "Quota and the lending pool",
        text: "Per instance type, a share uses its own quota first; usage above it is over quota (borrowed). The \
               quotas of LEND and LEND_AND_BORROW shares form the pool others borrow from; RESERVE quota is private. \
               Borrowing is an amount of the share, not of a particular job: when one of its jobs ends, the rest fall \
               back within its quota.",
    },
    Rule {
        id: "R14",
        title: "Fitting a job",
        text: "A job fits when the service environment has the instances free and its share stays within its quota \
               (RESERVE), within its quota with the pool not overdrawn (LEND), or within quota plus borrow allowance \
               with enough lendable capacity in the pool (LEND_AND_BORROW). The part above the quota is borrowed.",
    },
    Rule {
        id: "R15",
        title: "Who lends to whom",
        text: "For reports only: borrowed instances are attributed to lenders with idle quota in input order, filled \
               by borrowers in input order. Scheduling never depends on it.",
    },
    Rule {
        id: "R16",
        title: "Pass order",
        text: "Shares are visited by lowest usage-to-quota ratio. Phase 1 starts front jobs within their quota; \
               phase 2 lets front jobs that still do not fit reclaim or preempt; phase 3 starts borrowing jobs, \
               earliest submitted first, while any fits.",
    },
    Rule {
        id: "R17",
        title: "Waiting reasons",
        text: "A job that can never fit says why (MISCONFIGURATION: more than the service environment, the quota, the \
               quota plus allowance, or the whole pool). A front job that could fit later waits for quota, for \
               lendable capacity, for the service environment or for a preemption; others wait behind the front job.",
    },
    Rule {
        id: "R18",
        title: "Cross-share preemption (reclaim)",
        text: "A front job that fits within its own share's quota but lacks capacity takes it back from other shares' \
               over-quota (borrowed) usage. A job that needs to borrow never triggers a reclaim.",
    },
    Rule {
        id: "R19",
        title: "Victim choice",
        text: "Candidates are running over-quota jobs of other shares. Lowest priority first, then least work at risk \
               (most recently dispatched), then the one that covers the shortfall with the least excess, then the \
               latest submitted. Victims are taken until the job fits, then the set is made minimal; if all of them \
               would not be enough, nobody is preempted.",
    },
    Rule {
        id: "R20",
        title: "In-share preemption",
        text: "With in-share preemption ENABLED, a front job that still does not fit may preempt running jobs of its \
               own share with strictly lower priority, in victim order, the fewest that make it fit.",
    },
    Rule {
        id: "R21",
        title: "Preemption takes time",
        text: "Victims are told to stop (Preemption Started), stop training, and keep their instances for the grace \
               period (120 s by default) before releasing them. The preemptor earmarks what it needs meanwhile; it \
               starts when the victims have released, unless a job ahead of it in its share takes the earmark.",
    },
    Rule {
        id: "R22",
        title: "Over quota after an update",
        text: "Lowering a share's quota below its usage preempts nothing at once: its jobs above the new quota become \
               reclaim candidates, with reason 'Capacity limit reduced'.",
    },
    Rule {
        id: "R23",
        title: "Actions",
        text: "Timed changes during a run: a job's priority, terminating a job, a quota share's fields, the service \
               environment's capacity. A capacity below what is in use chooses victims at once; they keep their \
               instances through the grace period.",
    },
    Rule {
        id: "R24",
        title: "Events",
        text: "Every state change is an event with its time, job, share, status and reason; preemptions add Started \
               and Completed events naming the preemptor and the work lost.",
    },
    Rule {
        id: "R25",
        title: "Utilization",
        text: "At every instant, per share and instance type: usage, the parts within and over quota, borrowed and \
               lent, idle quota, and the service environment and pool totals.",
    },
    Rule {
        id: "R26",
        title: "Summary metrics",
        text: "Per share and overall: instance- and GPU-hours (own and borrowed), utilization, wait and completion \
               times, preemptions by reason, lost work, goodput, fairness, reclaim latency and cost.",
    },
    Rule {
        id: "R27",
        title: "Determinism",
        text: "The same scenario gives byte-identical results everywhere: whole seconds, no floating point in \
               decisions, every tie broken as written.",
    },
];

/// The rule with this id (`"R19"`).
pub fn rule(id: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_is_there_once_in_order() {
        for (i, r) in RULES.iter().enumerate() {
            assert_eq!(r.id, format!("R{}", i + 1));
            assert!(!r.title.is_empty() && r.text.len() > 60, "{}", r.id);
        }
    }

    #[test]
    fn every_rule_an_explanation_cites_has_its_statement() {
        let src = include_str!("explain.rs");
        let mut cited = 0;
        for part in src.split('"').skip(1).step_by(2) {
            if part.len() <= 3 && part.starts_with('R') && part[1..].parse::<u32>().is_ok() {
                assert!(rule(part).is_some(), "{part} has no statement");
                cited += 1;
            }
        }
        assert!(cited > 10, "explain.rs cites rules");
    }
}
