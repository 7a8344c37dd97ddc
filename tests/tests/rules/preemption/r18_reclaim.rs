//! R18: cross-share reclaim of borrowed (over-quota) instances.

use super::reclaim_setup;
use quotasim::result::{EventType, Status};
use quotasim_tests::*;

use Status::*;

#[test]
fn r18_lending_share_reclaims_borrowed_capacity() {
    let h = reclaim_setup().run_until(300);
    assert_eq!(h.victims(), vec!["v"]);
    let e = &h.preemption_events("v", EventType::PreemptionStarted)[0];
    assert_eq!(e.at, 100);
    assert_eq!(e.reason.as_deref(), Some(CROSS_SHARE));
    assert_eq!(e.preempted_by, Some(Some("b".to_string())));
    assert_eq!(h.first_started("b"), Some(220));
    assert_eq!(h.status("a_hi"), Some(Running), "the job within A's quota is not touched");
}

#[test]
fn r18_job_that_needs_borrowing_never_triggers_reclaim() {
    let h = Sc::new()
        .capacity(G5, 3)
        .share(lend("L", G5, 1))
        .share(lab("B1", G5, 1))
        .share(lab("B2", G5, 1))
        .job(job("b1a", "B1").dur(10_000))
        .job(job("b1b", "B1").dur(10_000))
        .job(job("b2a", "B2").dur(10_000))
        .job(job("b2b", "B2").at(10).prio(9).dur(10))
        .run_until(500);
    assert!(h.victims().is_empty());
    assert_eq!(h.reason("b2b"), Some(WAIT_POOL.to_string()));
}

#[test]
fn r18_job_beyond_its_own_quota_never_triggers_reclaim() {
    let h = Sc::new()
        .capacity(G5, 3)
        .share(lend("L", G5, 2))
        .share(lab("B", G5, 1))
        .job(job("b0", "B").dur(10_000))
        .job(job("b1", "B").dur(10_000))
        .job(job("l0", "L").at(10).dur(10_000))
        .job(job("l1", "L").at(20).count(2).dur(10))
        .run_until(500);
    assert_eq!(h.first_started("l0"), Some(10));
    assert!(h.victims().is_empty());
    assert_eq!(h.reason("l1"), Some(WAIT_QUOTA.to_string()));
}

#[test]
fn r18_job_short_of_free_reclaims_from_any_over_quota_share() {
    // Oversubscribed: R (RESERVE) is within its quota but the service environment is full.
    let h = Sc::new()
        .capacity(G5, 2)
        .share(lab("A", G5, 1))
        .share(lend("L", G5, 1))
        .share(reserve("R", G5, 1))
        .job(job("a1", "A").prio(1).dur(10_000))
        .job(job("a2", "A").dur(10_000))
        .job(job("r", "R").at(100).dur(10))
        .run_until(300);
    assert_eq!(h.victims(), vec!["a2"]);
    assert_eq!(
        h.preemption_events("a2", EventType::PreemptionStarted)[0].reason.as_deref(),
        Some(CROSS_SHARE)
    );
    assert_eq!(h.first_started("r"), Some(220));
}

#[test]
fn r18_reserve_share_within_quota_is_never_a_victim() {
    let h = Sc::new()
        .capacity(G5, 1)
        .share(reserve("A", G5, 1))
        .share(reserve("B", G5, 1))
        .job(job("a", "A").dur(1000))
        .job(job("b", "B").at(10).dur(10))
        .run();
    assert!(h.victims().is_empty());
    assert_eq!(h.first_started("b"), Some(1000));
}

#[test]
fn r18_nobody_preempted_when_all_candidates_are_not_enough() {
    // r needs 3 with 1 free: short 2, but B is over its quota by 1 only.
    let sc = Sc::new()
        .capacity(G5, 3)
        .share(reserve("R", G5, 3))
        .share(lab("B", G5, 1))
        .share(lend("L", G5, 1))
        .job(job("b1", "B").dur(1000))
        .job(job("b2", "B").dur(1000))
        .job(job("r", "R").count(3).at(100).dur(10));
    let h = sc.run_until(500);
    assert!(h.victims().is_empty());
    assert_eq!(h.reason("r"), Some(WAIT_FREE.to_string()));
    let h = sc.run();
    assert_eq!(h.first_started("r"), Some(1000));
}

#[test]
fn r18_pool_shortage_needs_lending_victims() {
    // R is over its (lowered) quota and has the lowest priority, but l is short of the pool:
    // only a lending share's over-quota job can fix that; the minimal set is {b2}.
    let h = Sc::new()
        .capacity(G5, 4)
        .share(reserve("R", G5, 2))
        .share(lend("L", G5, 1))
        .share(lab("B", G5, 1))
        .job(job("r1", "R").dur(100_000))
        .job(job("r2", "R").dur(100_000))
        .job(job("b1", "B").prio(9).dur(100_000))
        .job(job("b2", "B").prio(5).dur(100_000))
        .job(job("l", "L").at(100).dur(100))
        .update_share(50, update("R").limits(&[(G5, 1)]))
        .run_until(300);
    assert_eq!(h.victims(), vec!["b2"]);
    assert_eq!(
        h.preemption_events("b2", EventType::PreemptionStarted)[0].reason.as_deref(),
        Some(CROSS_SHARE)
    );
    assert_eq!(h.first_started("l"), Some(220));
}
