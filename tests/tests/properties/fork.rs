//! R28 forking: the state after instant T, run from `startAt = T`, gives every job the same
//! outcome after T as the uninterrupted run, whenever no preemption is in progress at T and no
//! job holds free instances. The worlds vary what could break it: SCHEDULED and STARTING
//! times, oversubscribed quotas (holds), lowered limits (R22, R23), backfill, checkpoints,
//! retries and timeouts.

use proptest::prelude::*;
use quotasim::result::JobResult;
use quotasim::scenario::JobId;
use quotasim::{validate, Simulation};

use super::{build, cases, contended_world, world, World};

/// What happens to a job after `t`: its status, reason and end, its attempts still open at
/// `t` or started after (without the borrowed instances of the one in progress at `t`, which
/// the fork recomputes from its share's usage), its preemption count and the work its
/// preemptions after `t` lost.
fn after(r: &JobResult, t: u64, lost: u64) -> String {
    let attempts: Vec<String> = r
        .attempts
        .iter()
        .filter(|a| a.stopped_at.is_none_or(|s| s > t))
        .map(|a| {
            let borrowed =
                if a.started_at <= t { String::from("-") } else { a.borrowed_instances.to_string() };
            format!("{}..{:?} b{} {:?}", a.started_at, a.stopped_at, borrowed, a.status_reason)
        })
        .collect();
    format!(
        "{:?} {:?} stop {:?} attempts {:?} preempted {} lost {}",
        r.status, r.status_reason, r.stopped_at, attempts, r.preemption_summary.preempted_attempt_count, lost
    )
}

/// Forks the world's run after a visited instant; returns whether the state was exact (and
/// so compared).
fn fork_matches(w: &World, pick: prop::sample::Index) -> Result<bool, TestCaseError> {
    let sc = build(w);
    let valid = sc.valid();
    let mut full = Simulation::new(valid.clone());
    full.run();
    let mut instants: Vec<u64> = full.event_instants().collect();
    instants.extend(valid.actions.iter().map(|(at, _)| *at));
    instants.sort_unstable();
    instants.dedup();
    prop_assume!(!instants.is_empty());
    let t = instants[pick.index(instants.len())];
    let mut part = Simulation::new(valid);
    part.run_until(t);
    let state = part.state(&sc.s);
    if !state.inexact.is_empty() {
        return Ok(false);
    }
    let v = match validate(&state.scenario) {
        Ok(v) => v,
        Err(p) => return Err(TestCaseError::fail(format!("the state at {t} is invalid: {p:?}"))),
    };
    let mut fork = Simulation::new(v);
    fork.run();
    let names = |s: &Simulation| -> Vec<String> {
        s.scenario().jobs.iter().map(|j| String::from(j.name.as_str())).collect()
    };
    let full_names = names(&full);
    for (k, name) in names(&fork).iter().enumerate() {
        let i = full_names.iter().position(|n| n == name).expect("the fork's jobs are the run's");
        let lost_after: u64 = full
            .preemptions()
            .iter()
            .filter(|p| p.victim == JobId::at(i) && p.decided_at > t)
            .map(|p| p.lost)
            .sum();
        let a = after(&full.job_result(JobId::at(i)), t, lost_after);
        let b = after(&fork.job_result(JobId::at(k)), t, fork.job_result(JobId::at(k)).lost_work_seconds);
        prop_assert_eq!(a, b, "job {}, forked at {}", name, t);
    }
    Ok(true)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(256), ..ProptestConfig::default() })]

    #[test]
    fn r28_a_fork_after_any_instant_gives_the_same_outcomes(w in world(4), pick in any::<prop::sample::Index>()) {
        fork_matches(&w, pick)?;
    }

    #[test]
    fn r28_a_fork_gives_the_same_outcomes_under_contention(
        w in contended_world(),
        pick in any::<prop::sample::Index>(),
    ) {
        fork_matches(&w, pick)?;
    }
}

#[test]
fn r28_fork_check_is_not_vacuous() {
    // Most forks are exact and compared, many of them with preemptions after the fork.
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut exact, n) = (0, 200);
    for _ in 0..n {
        let w = contended_world().new_tree(&mut runner).unwrap().current();
        let pick = any::<prop::sample::Index>().new_tree(&mut runner).unwrap().current();
        match fork_matches(&w, pick) {
            Ok(e) => exact += usize::from(e),
            Err(TestCaseError::Reject(_)) => {}
            Err(e) => panic!("{e}"),
        }
    }
    eprintln!("forks: {exact} of {n} exact and compared");
    assert!(exact >= n / 3, "exact in {exact} of {n}");
}
