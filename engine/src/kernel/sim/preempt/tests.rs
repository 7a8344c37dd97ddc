//! Table tests of preemption planning on states built without a run: shares with quotas,
//! running jobs with priorities and start times, a front job; the victims R18-R20 choose.

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use crate::model::{CapacityLimit, Job, QuotaShare, Scenario, Strategy, Toggle};
use crate::result::{PreemptionKind, Status};
use crate::scenario::{JobId, ShareId, TypeId, ValidScenario};
use crate::sim::holds::Holds;
use crate::sim::jobs::Jobs;
use crate::sim::ledger::{Ledger, Need};
use crate::sim::running::Running;

use super::Planner;

const T: &str = "ml.g5.xlarge";

/// A running job: (share, priority, instances, dispatched at).
type Runs = &'static [(usize, i64, i64, u64)];

struct Case {
    name: &'static str,
    capacity: i64,
    /// (strategy, quota, in-share preemption)
    shares: &'static [(Strategy, i64, bool)],
    running: Runs,
    /// The front job: (share, priority, instances).
    front: (usize, i64, i64),
    /// Victims (indexes into `running`) with their kinds, in the plan's order; empty: none.
    victims: &'static [(usize, PreemptionKind)],
}

use PreemptionKind::{CrossShare, InShare};
use Strategy::{Lend, LendAndBorrow, Reserve};

const CASES: &[Case] = &[
    Case {
        name: "a lender short of the pool reclaims the borrower's latest dispatched job",
        capacity: 4,
        shares: &[(Lend, 2, false), (LendAndBorrow, 2, false)],
        running: &[(1, 0, 1, 0), (1, 0, 1, 10), (1, 0, 1, 20), (1, 0, 1, 30)],
        front: (0, 0, 1),
        victims: &[(3, CrossShare)],
    },
    Case {
        name: "lowest priority goes first, whatever its start",
        capacity: 4,
        shares: &[(Lend, 2, false), (LendAndBorrow, 2, false)],
        running: &[(1, 5, 1, 0), (1, 5, 1, 10), (1, 1, 1, 0), (1, 5, 1, 30)],
        front: (0, 0, 1),
        victims: &[(2, CrossShare)],
    },
    Case {
        name: "victims are taken in R19 order until the preemptor fits",
        capacity: 4,
        shares: &[(Lend, 2, false), (LendAndBorrow, 1, false)],
        running: &[(1, 0, 1, 0), (1, 0, 2, 10), (1, 0, 1, 20)],
        front: (0, 0, 2),
        victims: &[(2, CrossShare), (1, CrossShare)],
    },
    Case {
        name: "then the set is made minimal: a victim whose return is not needed is dropped",
        capacity: 6,
        shares: &[(Lend, 3, false), (LendAndBorrow, 1, false)],
        running: &[(1, 0, 1, 0), (1, 0, 2, 10), (1, 0, 1, 20)],
        front: (0, 0, 2),
        victims: &[(1, CrossShare)],
    },
    Case {
        name: "a job that needs borrowing never reclaims",
        capacity: 4,
        shares: &[(LendAndBorrow, 1, false), (LendAndBorrow, 1, false)],
        running: &[(0, 0, 1, 0), (1, 0, 1, 0), (1, 0, 2, 10)],
        front: (0, 0, 1),
        victims: &[],
    },
    Case {
        name: "nobody is preempted when all candidates together would not do",
        capacity: 4,
        shares: &[(Lend, 3, false), (LendAndBorrow, 1, false), (Reserve, 1, false)],
        running: &[(1, 0, 1, 0), (1, 0, 1, 10), (2, 0, 1, 0)],
        front: (0, 0, 3),
        victims: &[],
    },
    Case {
        name: "a RESERVE share's quota is never reclaimed from: only over-quota jobs are",
        capacity: 3,
        shares: &[(Lend, 1, false), (Reserve, 2, false)],
        running: &[(1, 0, 2, 0), (0, 0, 1, 0)],
        front: (0, 0, 1),
        victims: &[],
    },
    Case {
        name: "in-share: a lower-priority job of the same share makes room",
        capacity: 2,
        shares: &[(Reserve, 2, true), (Reserve, 0, false)],
        running: &[(0, 3, 1, 0), (0, 1, 1, 10)],
        front: (0, 5, 1),
        victims: &[(1, InShare)],
    },
    Case {
        name: "in-share: only strictly lower priorities, and not when disabled",
        capacity: 2,
        shares: &[(Reserve, 2, false), (Reserve, 0, true)],
        running: &[(0, 1, 1, 0), (0, 1, 1, 10)],
        front: (0, 5, 1),
        victims: &[],
    },
];

/// The case's scenario, ledger, running lists and jobs (the running jobs first, then the
/// front job, which is queued).
fn state(c: &Case) -> (ValidScenario, Ledger, Running, Jobs) {
    let mut s = Scenario { format_version: 1, ..Scenario::default() };
    s.service_environment.capacity_limits = vec![CapacityLimit::new(T, c.capacity)];
    for (i, &(strategy, q, _)) in c.shares.iter().enumerate() {
        let limits = if q > 0 { vec![CapacityLimit::new(T, q)] } else { vec![CapacityLimit::new(T, 1)] };
        let mut share = QuotaShare::new(&alloc::format!("s{i}"), strategy, limits);
        share.preemption_configuration.in_share_preemption =
            if c.shares[i].2 { Toggle::Enabled } else { Toggle::Disabled };
        s.quota_shares.push(share);
    }
    let jobs: Vec<(usize, i64, i64, u64)> =
        c.running.iter().copied().chain(core::iter::once((c.front.0, c.front.1, c.front.2, 0))).collect();
    for (k, &(share, prio, n, _)) in jobs.iter().enumerate() {
        let mut j = Job::new(&alloc::format!("j{k}"), &alloc::format!("s{share}"), T, n, 0, 100_000);
        j.scheduling_priority = prio;
        s.jobs.push(j);
    }
    let mut v = crate::validate(&s).expect("a valid case");
    // A share with quota 0 stands for a share without this type's quota.
    for (i, &(_, q, _)) in c.shares.iter().enumerate() {
        if q == 0 {
            v.shares[i].quota = vec![0; v.types.len()];
        }
    }
    let mut ledger = Ledger::new(&v);
    let mut running = Running::new(v.shares.len() * v.types.len(), v.jobs.len());
    let mut js = Jobs::new(&v.jobs);
    for (k, &(share, prio, n, at)) in c.running.iter().enumerate() {
        let j = JobId::at(k);
        ledger.add_committed(ShareId::at(share), TypeId(0), n as u64);
        ledger.change_held(0, ShareId::at(share), TypeId(0), n as u64, 0);
        running.push(share * v.types.len(), j, prio as u32);
        js.start_attempt(j, at, 0);
        js.set_status(j, Status::Running);
        js.start_training(j, at, 100_000);
    }
    (v, ledger, running, js)
}

#[test]
fn r18_r19_r20_victims_table() {
    for c in CASES {
        let (v, ledger, running, jobs) = state(c);
        let holds = Holds::default();
        let in_share: Vec<bool> = c.shares.iter().map(|s| s.2).collect();
        let p = Planner {
            cfg: &v,
            ledger: &ledger,
            holds: &holds,
            running: &running,
            jobs: &jobs,
            in_share: &in_share,
            now: 100,
        };
        let front = JobId::at(c.running.len());
        let need =
            Need { job: front, share: ShareId(c.front.0 as u32), ty: TypeId(0), count: c.front.2 as u64 };
        let got: Vec<(usize, PreemptionKind)> = p
            .plan_preemption(need, c.front.1 as u32)
            .map(|plan| plan.victims.iter().map(|x| (x.job.index(), x.kind)).collect())
            .unwrap_or_default();
        let names = |v: &[(usize, PreemptionKind)]| -> Vec<String> {
            v.iter().map(|(j, k)| alloc::format!("j{j} {k:?}")).collect()
        };
        assert_eq!(names(&got), names(c.victims), "{}", c.name);
    }
}
