//! R20: in-share preemption of lower-priority jobs of the same share.

use crate::rules::sorted;
use quotasim::result::{EventType, Status};
use quotasim_tests::*;

use Status::*;

fn in_share(on: bool, high_prio: i64) -> Sc {
    Sc::new()
        .capacity(G5, 1)
        .share(reserve("A", G5, 1).in_share(on))
        .job(job("a_low", "A").prio(1).dur(1000))
        .job(job("a_high", "A").prio(high_prio).at(100).dur(100))
}

#[test]
fn r20_in_share_preemption_of_a_lower_priority_job() {
    let h = in_share(true, 5).run();
    assert_eq!(h.victims(), vec!["a_low"]);
    let e = &h.preemption_events("a_low", EventType::PreemptionStarted)[0];
    assert_eq!(e.reason.as_deref(), Some(IN_SHARE));
    assert_eq!(e.preempted_by, Some(Some("a_high".to_string())));
    assert_eq!(h.spans("a_high"), vec![(220, Some(320))]);
    assert_eq!(h.spans("a_low"), vec![(0, Some(220)), (320, Some(1320))]);
    assert_eq!(h.attempts("a_low")[0].status_reason.as_deref(), Some(IN_SHARE));
}

#[test]
fn r20_disabled_in_share_preemption_waits() {
    let h = in_share(false, 5).run();
    assert!(h.victims().is_empty());
    assert_eq!(h.first_started("a_high"), Some(1000));
}

#[test]
fn r20_equal_priority_is_not_preempted() {
    let h = in_share(true, 1).run();
    assert!(h.victims().is_empty());
    assert_eq!(h.first_started("a_high"), Some(1000));
}

#[test]
fn r20_picks_lowest_priority_and_only_when_it_helps() {
    let base = || {
        Sc::new()
            .capacity(G5, 3)
            .share(reserve("A", G5, 3).in_share(true))
            .job(job("a1", "A").prio(1).dur(10_000))
            .job(job("a2", "A").prio(2).dur(10_000))
            .job(job("a3", "A").prio(3).dur(10_000))
    };
    let h = base().job(job("hi", "A").prio(5).at(100)).run_until(300);
    assert_eq!(h.victims(), vec!["a1"]);
    assert_eq!(h.first_started("hi"), Some(220));
    // Needs 2 but only a1 has a strictly lower priority: nobody is preempted.
    let h = base().job(job("hi", "A").prio(2).count(2).at(100)).run_until(300);
    assert!(h.victims().is_empty());
}

#[test]
fn r20_in_share_preemption_combined_with_reclaim() {
    // a_hi needs 2 of A's quota 2: in-share victim a_lo frees A's quota, then reclaim takes
    // the instance B borrowed from A's idle quota.
    let h = Sc::new()
        .capacity(G5, 3)
        .share(lend("A", G5, 2).in_share(true))
        .share(lab("B", G5, 1))
        .job(job("a_lo", "A").prio(1).dur(100_000))
        .job(job("b_own", "B").prio(9).dur(100_000))
        .job(job("b_x", "B").dur(100_000))
        .job(job("a_hi", "A").prio(5).count(2).at(100).dur(100))
        .run_until(300);
    assert_eq!(sorted(h.victims()), vec!["a_lo", "b_x"]);
    assert_eq!(
        h.preemption_events("a_lo", EventType::PreemptionStarted)[0].reason.as_deref(),
        Some(IN_SHARE)
    );
    assert_eq!(
        h.preemption_events("b_x", EventType::PreemptionStarted)[0].reason.as_deref(),
        Some(CROSS_SHARE)
    );
    assert_eq!(h.first_started("a_hi"), Some(220));
    assert_eq!(h.status("b_own"), Some(Running));
}

#[test]
fn r20_reclaim_is_preferred_to_in_share_preemption() {
    // b_hi fits B's quota and reclaim alone makes it fit: the lower-priority b_lo of its own
    // share is not preempted.
    let h = Sc::new()
        .capacity(G5, 3)
        .share(lend("B", G5, 2).in_share(true))
        .share(lab("A", G5, 1))
        .job(job("a_hi", "A").prio(1).dur(100_000))
        .job(job("v", "A").dur(100_000))
        .job(job("b_lo", "B").dur(100_000))
        .job(job("b_hi", "B").prio(5).at(100).dur(10))
        .run_until(300);
    assert_eq!(h.victims(), vec!["v"]);
    assert_eq!(h.first_started("b_hi"), Some(220));
    assert_eq!(h.status("b_lo"), Some(Running));
}

#[test]
fn r20_in_share_victim_set_is_minimal() {
    // hi needs A's usage down to 1: a1 (priority 1) is taken first, then a2 (priority 2,
    // two instances); a1's release is then not needed. Reading tested: "made minimal" drops
    // every unneeded in-share victim, as R19 does.
    let h = Sc::new()
        .capacity(G5, 3)
        .share(reserve("A", G5, 3).in_share(true))
        .job(job("a1", "A").prio(1).dur(100_000))
        .job(job("a2", "A").prio(2).count(2).dur(100_000))
        .job(job("hi", "A").prio(5).count(2).at(100).dur(100))
        .run_until(300);
    assert_eq!(h.victims(), vec!["a2"]);
    assert_eq!(h.first_started("hi"), Some(220));
    assert_eq!(h.status("a1"), Some(Running));
}

#[test]
fn r20_in_share_candidate_covering_with_least_excess() {
    // Same priority, same dispatch time: c_small covers the shortfall of 1 exactly; R19
    // step 3 prefers it to c_big although c_big has the higher job index.
    let h = Sc::new()
        .capacity(G5, 3)
        .share(reserve("A", G5, 3).in_share(true))
        .job(job("c_small", "A").prio(1).dur(100_000))
        .job(job("c_big", "A").prio(1).count(2).dur(100_000))
        .job(job("hi", "A").prio(5).at(100).dur(100))
        .run_until(300);
    assert_eq!(h.victims(), vec!["c_small"]);
}

#[test]
fn r20_in_share_preemption_for_a_borrowing_job() {
    // hi needs 3 with quota 1: it borrows, and in-share preemption of the lower-priority
    // low (2 instances) makes it fit with borrowing.
    let h = Sc::new()
        .capacity(G5, 4)
        .share(lab("A", G5, 1).in_share(true))
        .share(lend("L", G5, 3))
        .job(job("low", "A").count(2).dur(100_000))
        .job(job("l0", "L").dur(100_000))
        .job(job("hi", "A").prio(5).count(3).at(100).dur(100))
        .run_until(300);
    assert_eq!(h.victims(), vec!["low"]);
    assert_eq!(h.first_started("hi"), Some(220));
    assert_eq!(h.attempts("hi")[0].borrowed_instances, 2);
}
