//! R10, R16 (amended 2026-12-04): at an instant, passes repeat until a pass dispatches no job
//! and starts no preemption, and phase 3 dispatches one borrower per pass. So no outcome
//! depends on which instants get a pass, nor on the order shares are listed in.

use quotasim::result::{EventType, Status};
use quotasim_tests::*;

use Status::*;

/// Who preempted whom, and when: `(at, victim, preemptor, reason)`.
fn preemptions(h: &H) -> Vec<(u64, String, Option<String>, String)> {
    h.events()
        .into_iter()
        .filter(|e| e.event_type == EventType::PreemptionStarted)
        .map(|e| (e.at, e.job_name, e.preempted_by.flatten(), e.reason.unwrap_or_default()))
        .collect()
}

/// A backfill pin (R16) set for a share's first job, which fits only by borrowing, while an
/// earlier borrower of another share takes the pool in phase 3. Jobs are listed with the
/// other share's first.
fn pin_scenario() -> Sc {
    Sc::new()
        .backfill(true)
        .capacity(G5, 3)
        .share(lab("A", G5, 1))
        .share(lab("B", G5, 1))
        .share(lend("L", G5, 1))
        .job(job("b_own", "B").dur(1000))
        .job(job("b_borrow", "B").dur(1000))
        .job(job("a_big", "A").count(2).dur(100))
        .job(job("a_small", "A").dur(100))
}

#[test]
fn r16_backfill_pin_is_looked_at_again_once_another_share_borrowed_the_pool() {
    // At 0, A's first job a_big fits only by borrowing, so A backfills nothing in that pass;
    // phase 3 gives the pool's last spare instances to b_borrow, FIFO-earlier. The next pass
    // at 0 finds a_big no longer fitting by borrowing, and a_small, within A's quota, runs.
    // (One pass per instant left a_small waiting until b_own ended at 1000.)
    let h = pin_scenario().run();
    assert_eq!(h.first_started("b_borrow"), Some(0));
    assert_eq!(h.first_started("a_small"), Some(0));
    assert_eq!(h.job("b_borrow").attempts[0].borrowed_instances, 1);
    assert_eq!(h.first_started("a_big"), Some(1000), "a_big waits for the pool");
}

#[test]
fn r16_backfill_pin_outcome_does_not_depend_on_share_order() {
    // The same scenario with B listed before A gives every job the same start.
    let a = pin_scenario().run();
    let mut sc = pin_scenario();
    sc.s.quota_shares.swap(0, 1);
    let b = sc.run();
    for name in ["b_own", "b_borrow", "a_big", "a_small"] {
        assert_eq!(a.spans(name), b.spans(name), "{name}");
    }
}

#[test]
fn r16_in_share_preemption_is_looked_at_again_after_phase_3_took_the_pool() {
    // At 100 s_hi (priority 5) fits by borrowing, so phase 2 passes it by; phase 3 gives the
    // last pool instance to b, FIFO-earlier. The next pass at 100 finds s_hi fitting only
    // if s_low (priority 0, same share, in-share preemption enabled) makes room: s_low is
    // preempted at 100 and s_hi runs at 220. (One pass per instant left s_hi waiting while
    // s_low ran, until 10,000.)
    let h = Sc::new()
        .capacity(G5, 3)
        .share(lab("S", G5, 1).in_share(true))
        .share(lab("B", G5, 1))
        .share(lend("L", G5, 1))
        .job(job("s_low", "S").dur(10_000))
        .job(job("b_own", "B").dur(10_000))
        .job(job("b", "B").at(100).dur(10_000))
        .job(job("s_hi", "S").prio(5).at(100).dur(100))
        .run();
    assert_eq!(h.first_started("b"), Some(100));
    assert_eq!(preemptions(&h), vec![(100, "s_low".into(), Some("s_hi".into()), IN_SHARE.into())]);
    assert_eq!(h.first_started("s_hi"), Some(220));
}

#[test]
fn r16_front_job_revealed_in_phase_3_gets_its_preemption_turn_in_the_next_pass() {
    // At 100 s0's g1 runs on its quota (phase 1) and g2 borrows (phase 3); only then is p
    // (P5, within s0's quota) s0's front job. The next pass at 100 gives it its preemption
    // turn: it reclaims x, which borrows s0's P5 quota, at once. (One pass per instant left
    // p waiting with "waiting for lendable capacity" until x ended.)
    let h = Sc::new()
        .capacity(G5, 3)
        .capacity(P5, 2)
        .share(lab("s0", G5, 1).limit(P5, 1))
        .share(lab("s1", G5, 2).limit(P5, 1))
        .job(job("x_own", "s1").ty(P5).prio(9).dur(100_000))
        .job(job("x", "s1").ty(P5).dur(100_000).ckpt(60))
        .job(job("g0", "s0").count(3).dur(100))
        .job(job("g1", "s0").at(10).dur(100_000))
        .job(job("g2", "s0").at(10).dur(100_000))
        .job(job("p", "s0").ty(P5).at(50).dur(10))
        .run_until(5000);
    assert_eq!(h.first_started("g1"), Some(100));
    assert_eq!(h.first_started("g2"), Some(100));
    assert_eq!(preemptions(&h), vec![(100, "x".into(), Some("p".into()), CROSS_SHARE.into())]);
    assert_eq!(h.first_started("p"), Some(220));
    assert_eq!(h.lost("x"), 40, "x trained 100 s, saved 60");
}

#[test]
fn r10_a_no_op_update_at_an_unvisited_instant_changes_nothing() {
    // An updateQuotaShare that changes nothing, at an instant nothing else happens, runs
    // passes there; at a fixed point they do nothing. (With one pass per instant it let
    // a_small start at 1 instead of 1000.)
    let plain = pin_scenario().run();
    let touched = pin_scenario().update_share(1, update("A").in_share(false)).run();
    assert_eq!(touched.first_started("a_small"), Some(0));
    assert_eq!(plain.result().jobs, touched.result().jobs);
}

#[test]
fn r10_a_job_dispatched_and_reclaimed_at_one_instant_is_preempted_like_any_other() {
    // At 0, x borrows s0's idle P5 instance in phase 3 of one pass, g2 borrows G5 in the
    // next; then p, s0's P5 job within its quota, is s0's front job and reclaims x at once.
    // x was dispatched at 0 and preempted at 0: it lost no work, and the preemption counts
    // (R7).
    let h = Sc::new()
        .capacity(G5, 3)
        .capacity(P5, 2)
        .share(lab("s0", G5, 1).limit(P5, 1))
        .share(lab("s1", G5, 2).limit(P5, 1))
        .job(job("x_own", "s1").ty(P5).dur(10_000))
        .job(job("x", "s1").ty(P5).dur(1000))
        .job(job("g1", "s0").dur(10_000))
        .job(job("g2", "s0").dur(10_000))
        .job(job("p", "s0").ty(P5).dur(10))
        .run();
    assert_eq!(preemptions(&h), vec![(0, "x".into(), Some("p".into()), CROSS_SHARE.into())]);
    assert_eq!(h.spans("x"), vec![(0, Some(120)), (130, Some(1130))]);
    assert_eq!(h.preempted_count("x"), 1);
    assert_eq!(h.lost("x"), 0);
    assert_eq!(h.status("x"), Some(Succeeded));
    assert_eq!(h.spans("p"), vec![(120, Some(130))]);
}
