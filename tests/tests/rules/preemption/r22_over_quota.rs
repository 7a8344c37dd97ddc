//! R22: shares over quota after an update.

use quotasim::model::Strategy;
use quotasim::result::{EventType, Status};
use quotasim_tests::*;

use Status::*;

#[test]
fn r22_lowered_quota_without_demand_preempts_nothing() {
    let sc = Sc::new()
        .capacity(G5, 2)
        .share(reserve("A", G5, 2))
        .job(job("a1", "A").dur(1000))
        .job(job("a2", "A").dur(1000))
        .job(job("a3", "A").at(10).dur(10))
        .update_share(100, update("A").limits(&[(G5, 1)]));
    let h = sc.run_until(150);
    assert!(h.victims().is_empty());
    assert_eq!(h.status("a1"), Some(Running));
    assert_eq!(h.status("a2"), Some(Running));
    let a = h.share_usage("A", G5);
    assert_eq!((a.quota, a.usage, a.within_quota, a.over_quota), (1, 2, 1, 1));
    assert!(h.over_quota_by_update(h.share_id("A"), h.type_id(G5)));
    let h = sc.run();
    assert!(h.victims().is_empty());
    assert_eq!(h.first_started("a3"), Some(1000));
    assert!(!h.over_quota_by_update(h.share_id("A"), h.type_id(G5)));
}

#[test]
fn r22_lowered_quota_with_a_share_that_needs_the_capacity() {
    let h = Sc::new()
        .capacity(G5, 3)
        .share(lend("A", G5, 2))
        .share(lend("B", G5, 1))
        .job(job("a1", "A").prio(1).dur(100_000))
        .job(job("a2", "A").dur(100_000))
        .job(job("b", "B").at(150).dur(10))
        .update_share(100, update("A").limits(&[(G5, 1)]))
        .run_until(400);
    assert_eq!(h.victims(), vec!["a2"]);
    let e = &h.preemption_events("a2", EventType::PreemptionStarted)[0];
    assert_eq!(e.at, 150);
    assert_eq!(e.reason.as_deref(), Some(LIMIT_REDUCED));
    assert_eq!(h.first_started("b"), Some(270));
}

#[test]
fn r22_holds_for_reserve_shares_too() {
    let h = Sc::new()
        .capacity(G5, 2)
        .share(reserve("A", G5, 2))
        .share(reserve("B", G5, 1))
        .job(job("a1", "A").prio(1).dur(100_000))
        .job(job("a2", "A").dur(100_000))
        .job(job("b", "B").at(150).dur(10))
        .update_share(100, update("A").limits(&[(G5, 1)]))
        .run_until(400);
    assert_eq!(h.victims(), vec!["a2"]);
    assert_eq!(
        h.preemption_events("a2", EventType::PreemptionStarted)[0].reason.as_deref(),
        Some(LIMIT_REDUCED)
    );
    assert_eq!(h.first_started("b"), Some(270));
}

#[test]
fn r22_strategy_change_that_stops_borrowing() {
    let h = Sc::new()
        .capacity(G5, 2)
        .share(lab("B", G5, 1))
        .share(lend("L", G5, 1))
        .job(job("b_own", "B").prio(9).dur(100_000))
        .job(job("b_x", "B").dur(100_000))
        .job(job("l", "L").at(150).dur(10))
        .update_share(100, update("B").sharing(Strategy::Lend, None))
        .run_until(400);
    assert_eq!(h.victims(), vec!["b_x"]);
    assert_eq!(
        h.preemption_events("b_x", EventType::PreemptionStarted)[0].reason.as_deref(),
        Some(LIMIT_REDUCED)
    );
    assert_eq!(h.first_started("l"), Some(270));
    // After l finishes (280) b_x may not borrow any more.
    let h2 = Sc::new()
        .capacity(G5, 2)
        .share(lab("B", G5, 1))
        .share(lend("L", G5, 1))
        .job(job("b_own", "B").prio(9).dur(100_000))
        .job(job("b_x", "B").dur(100_000))
        .job(job("l", "L").at(150).dur(10))
        .update_share(100, update("B").sharing(Strategy::Lend, None))
        .run_until(1000);
    assert_eq!(h2.status("b_x"), Some(Runnable));
    assert_eq!(h2.reason("b_x"), Some(WAIT_QUOTA.to_string()));
}

#[test]
fn r22_over_quota_usage_counts_as_borrowed_in_reports() {
    let h = Sc::new()
        .capacity(G5, 2)
        .share(reserve("A", G5, 2))
        .job(job("a1", "A").dur(1000))
        .job(job("a2", "A").dur(1000))
        .update_share(100, update("A").limits(&[(G5, 1)]))
        .run_until(150);
    let t = h.totals(G5);
    assert_eq!(t.borrowed, 1);
    assert_eq!(t.unattributed_borrowed, 1, "no lender's idle quota accounts for it");
}

#[test]
fn r22_borrow_limit_lowered_below_what_a_share_borrows() {
    // B borrows 2 of L's idle instances (unlimited borrow limit). At 100 its borrow limit
    // becomes 50 % (an allowance of 1): B is over quota because of the update, as with a
    // lowered quota. Nothing is preempted then; at 200 L's job needs its quota back and
    // reclaims one of B's borrowers with "Capacity limit reduced".
    let h = Sc::new()
        .capacity(G5, 4)
        .share(lab("B", G5, 2))
        .share(lend("L", G5, 2))
        .jobs(4, |i| job(&format!("b{i}"), "B").dur(10_000))
        .job(job("l", "L").at(200).dur(100))
        .update_share(100, update("B").sharing(Strategy::LendAndBorrow, Some(50)))
        .run_until(250);
    assert!(h.over_quota_by_update(h.share_id("B"), h.type_id(G5)));
    let started = h.preemption_events("b4", EventType::PreemptionStarted);
    assert_eq!(started.len(), 1, "b4, the latest dispatched, is reclaimed");
    assert_eq!(started[0].at, 200);
    assert_eq!(started[0].reason.as_deref(), Some(LIMIT_REDUCED));
    assert_eq!(started[0].preempted_by.clone().flatten().as_deref(), Some("l"));
    assert_eq!(h.victims(), vec!["b4".to_string()]);
}
