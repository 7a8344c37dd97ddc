//! R23: actions during a run.

use quotasim::model::Strategy;
use quotasim::result::{EventType, Status};
use quotasim_tests::*;

use crate::rules::sorted;

use Status::*;

#[test]
fn r23_update_service_job_changes_victim_choice() {
    // v is raised above a_hi before b reclaims: a_hi becomes the lowest-priority candidate.
    let h = Sc::new()
        .capacity(G5, 2)
        .share(lab("A", G5, 1))
        .share(lend("B", G5, 1))
        .job(job("a_hi", "A").prio(1).dur(100_000))
        .job(job("v", "A").dur(100_000))
        .job(job("b", "B").at(100).dur(10))
        .set_priority(50, "v", 5)
        .run_until(300);
    assert_eq!(h.victims(), vec!["a_hi"]);
    assert_eq!(h.job("v").scheduling_priority, 5);
}

#[test]
fn r23_terminate_running_job_frees_capacity_at_once() {
    let h = Sc::new()
        .capacity(G5, 1)
        .share(reserve("A", G5, 1))
        .job(job("a", "A").dur(1000))
        .job(job("b", "A").at(10).dur(10))
        .terminate(100, "a", "no longer needed")
        .run();
    assert_eq!(h.status("a"), Some(Failed));
    assert_eq!(h.reason("a"), Some("no longer needed".to_string()));
    assert_eq!(h.stopped_at("a"), Some(100));
    assert_eq!(h.spans("a"), vec![(0, Some(100))]);
    assert_eq!(h.first_started("b"), Some(100));
}

#[test]
fn r23_terminate_runnable_job() {
    let h = Sc::new()
        .capacity(G5, 1)
        .share(reserve("A", G5, 1))
        .job(job("a", "A").dur(1000))
        .job(job("b", "A").at(10).dur(10))
        .job(job("c", "A").at(10).dur(10))
        .terminate(100, "b", "manual")
        .run();
    assert_eq!(h.status("b"), Some(Failed));
    assert_eq!(h.time_of("b", Failed), Some(100));
    assert!(h.attempts("b").is_empty());
    assert_eq!(h.first_started("c"), Some(1000));
}

#[test]
fn r23_terminate_before_submission_fails_the_job_unsubmitted() {
    let sc = Sc::new()
        .capacity(G5, 1)
        .share(reserve("A", G5, 1))
        .job(job("late", "A").at(500).dur(10))
        .terminate(100, "late", "manual");
    let h = sc.run();
    assert_eq!(h.status("late"), Some(Failed));
    assert!(h.attempts("late").is_empty());
    assert!(!h.states("late").iter().any(|(_, s)| *s == Submitted || *s == Runnable), "never submitted");
    let h = sc.run_until(50);
    assert_eq!(h.status("late"), None, "not yet submitted at 50");
}

#[test]
fn r23_terminate_finished_job_changes_nothing() {
    let h = Sc::new()
        .capacity(G5, 1)
        .share(reserve("A", G5, 1))
        .job(job("a", "A").dur(10))
        .terminate(100, "a", "manual")
        .run();
    assert_eq!(h.status("a"), Some(Succeeded));
    assert_eq!(h.stopped_at("a"), Some(10));
    assert_eq!(h.reason("a"), None);
}

#[test]
fn r23_update_quota_share_replaces_the_whole_capacity_list() {
    let h = Sc::new()
        .capacity(G5, 2)
        .capacity(P5, 1)
        .share(reserve("A", G5, 1).limit(P5, 1))
        .job(job("g1", "A").dur(1000))
        .job(job("g2", "A").dur(10))
        .job(job("p", "A").ty(P5).at(200).dur(10))
        .update_share(100, update("A").limits(&[(G5, 2)]))
        .run_until(300);
    let (a, g, p) = (h.share_id("A"), h.type_id(G5), h.type_id(P5));
    assert_eq!(h.quota(a, g), 2);
    assert_eq!(h.quota(a, p), 0, "a type not in the new list has no quota");
    assert_eq!(h.first_started("g2"), Some(100));
    assert_eq!(h.reason("p"), Some(MISCONFIG_QUOTA.to_string()));
}

#[test]
fn r23_update_quota_share_replaces_sharing_config_whole() {
    // borrowLimit 0 at first; the update names only the strategy, so borrowLimit becomes -1.
    let h = Sc::new()
        .capacity(G5, 4)
        .share(lab("B", G5, 1).borrow_limit(0))
        .share(lend("L", G5, 3))
        .jobs(4, |i| job(&format!("b{i}"), "B").dur(1000))
        .update_share(100, update("B").sharing(Strategy::LendAndBorrow, None))
        .run_until(150);
    assert_eq!(h.first_started("b1"), Some(0));
    for n in ["b2", "b3", "b4"] {
        assert_eq!(h.first_started(n), Some(100), "{n}");
    }
    assert_eq!(h.borrow_allowance(h.share_id("B"), h.type_id(G5)), None);
}

#[test]
fn r23_update_quota_share_leaves_other_fields_alone() {
    // Only the in-share preemption setting changes: borrowLimit 0 stays.
    let h = Sc::new()
        .capacity(G5, 4)
        .share(lab("B", G5, 1).borrow_limit(0))
        .share(lend("L", G5, 3))
        .jobs(2, |i| job(&format!("b{i}"), "B").dur(1000))
        .update_share(100, update("B").in_share(true))
        .run_until(150);
    assert_eq!(h.status("b2"), Some(Runnable));
    assert_eq!(h.strategy(h.share_id("B")), Strategy::LendAndBorrow);
    assert_eq!(h.borrow_allowance(h.share_id("B"), h.type_id(G5)), Some(0));
}

#[test]
fn r23_update_quota_share_enables_in_share_preemption() {
    let h = Sc::new()
        .capacity(G5, 1)
        .share(reserve("A", G5, 1))
        .job(job("lo", "A").prio(1).dur(10_000))
        .job(job("hi", "A").prio(5).at(10).dur(10))
        .update_share(100, update("A").in_share(true))
        .run_until(300);
    assert_eq!(h.preemptions_started(), vec![(100, "lo".to_string())]);
    assert_eq!(h.first_started("hi"), Some(220));
}

#[test]
fn r23_disabled_share_rejects_submissions_but_runs_queued_jobs_and_lends() {
    let h = Sc::new()
        .capacity(G5, 2)
        .share(lend("A", G5, 1))
        .share(lab("B", G5, 1))
        .job(job("a1", "A").dur(100))
        .job(job("a2", "A").at(10).dur(100))
        .job(job("a3", "A").at(500).dur(100))
        .job(job("b1", "B").dur(10_000))
        .job(job("b2", "B").at(300).dur(100))
        .update_share(50, update("A").state(false))
        .run();
    assert_eq!(h.first_started("a2"), Some(100), "a queued job still runs");
    assert_eq!(h.status("a2"), Some(Succeeded));
    assert_eq!(h.status("a3"), Some(Failed), "a new submission is rejected");
    assert!(h.attempts("a3").is_empty());
    assert_eq!(h.time_of("a3", Failed), Some(500));
    assert_eq!(h.first_started("b2"), Some(300), "its quota still lends");
    assert_eq!(h.attempts("b2")[0].borrowed_instances, 1);
}

#[test]
fn r23_disabled_share_still_reclaims() {
    // A's queued a1 is stuck behind a never-runnable job; A is disabled at 50; when the
    // blocker is terminated at 100, a1 reaches the front and reclaims the borrowed instance.
    let h = Sc::new()
        .capacity(G5, 2)
        .share(lend("A", G5, 1))
        .share(lab("B", G5, 1))
        .job(job("b1", "B").prio(9).dur(100_000))
        .job(job("b2", "B").dur(100_000))
        .job(job("big", "A").count(2).at(5))
        .job(job("a1", "A").at(10).dur(100))
        .update_share(50, update("A").state(false))
        .terminate(100, "big", "manual")
        .run_until(500);
    assert_eq!(h.preemptions_started(), vec![(100, "b2".to_string())]);
    assert_eq!(h.first_started("a1"), Some(220));
}

#[test]
fn r23_disabled_share_can_be_enabled_again() {
    let h = Sc::new()
        .capacity(G5, 1)
        .share(reserve("A", G5, 1))
        .job(job("x", "A").at(200).dur(10))
        .update_share(50, update("A").state(false))
        .update_share(100, update("A").state(true))
        .run();
    assert_eq!(h.status("x"), Some(Succeeded));
}

#[test]
fn r23_more_service_environment_capacity_dispatches_at_once() {
    let h = Sc::new()
        .capacity(G5, 1)
        .share(reserve("A", G5, 2))
        .job(job("a1", "A").dur(1000))
        .job(job("a2", "A").dur(1000))
        .update_capacity(100, &[(G5, 2)])
        .run_until(200);
    assert_eq!(h.first_started("a2"), Some(100));
    assert_eq!(h.capacity(h.type_id(G5)), Some(2));
}

#[test]
fn r23_less_service_environment_capacity_preempts_over_quota_jobs_first() {
    let h = Sc::new()
        .capacity(G5, 3)
        .share(reserve("R", G5, 1))
        .share(lab("A", G5, 1))
        .share(lend("L", G5, 1))
        .job(job("r", "R").dur(100_000))
        .job(job("a1", "A").prio(9).dur(100_000))
        .job(job("a2", "A").prio(9).dur(100_000))
        .update_capacity(100, &[(G5, 2)])
        .run_until(300);
    assert_eq!(h.victims(), vec!["a2"]);
    let e = &h.preemption_events("a2", EventType::PreemptionStarted)[0];
    assert_eq!(e.at, 100);
    assert_eq!(e.reason.as_deref(), Some(LIMIT_REDUCED));
    assert_eq!(e.preempted_by, Some(None), "no preemptor: the capacity was lowered");
    assert_eq!(h.spans("a2")[0], (0, Some(220)));
    assert_eq!(h.status("r"), Some(Running));
}

#[test]
fn r23_less_capacity_than_within_quota_usage_preempts_any_job() {
    let sc = Sc::new()
        .capacity(G5, 2)
        .share(reserve("A", G5, 2))
        .job(job("a1", "A").prio(5).dur(100_000))
        .job(job("a2", "A").prio(1).dur(100_000))
        .update_capacity(100, &[(G5, 1)]);
    let h = sc.run_until(150);
    assert_eq!(h.victims(), vec!["a2"]);
    assert_eq!(h.totals(G5).usage, 2, "usage stays above the new limit during the grace");
    let h = sc.run_until(300);
    assert_eq!(h.totals(G5).usage, 1);
    assert_eq!(h.status("a2"), Some(Runnable));
    assert_eq!(h.reason("a2"), Some(WAIT_FREE.to_string()));
}

#[test]
fn r23_lowered_capacity_counts_jobs_being_preempted_as_released() {
    let h = Sc::new()
        .capacity(G5, 3)
        .share(reserve("A", G5, 3))
        .job(job("a1", "A").prio(3).dur(100_000))
        .job(job("a2", "A").prio(2).dur(100_000))
        .job(job("a3", "A").prio(1).dur(100_000))
        .update_capacity(100, &[(G5, 2)])
        .update_capacity(150, &[(G5, 1)])
        .run_until(400);
    assert_eq!(h.preemptions_started(), vec![(100, "a3".to_string()), (150, "a2".to_string())]);
    assert_eq!(h.status("a1"), Some(Running));
}

#[test]
fn r23_lowered_capacity_victim_set_is_minimal() {
    let h = Sc::new()
        .capacity(G5, 4)
        .share(reserve("A", G5, 4))
        .job(job("a1", "A").prio(0).dur(100_000))
        .job(job("a2", "A").prio(1).count(2).dur(100_000))
        .job(job("a3", "A").prio(9).dur(100_000))
        .update_capacity(100, &[(G5, 2)])
        .run_until(400);
    assert_eq!(h.victims(), vec!["a2"]);
}

#[test]
fn r23_removing_a_type_from_the_service_environment() {
    let h = Sc::new()
        .capacity(G5, 1)
        .capacity(P5, 1)
        .share(reserve("A", G5, 1).limit(P5, 1))
        .job(job("p", "A").ty(P5).dur(100_000))
        .job(job("p2", "A").ty(P5).at(500).dur(10))
        .update_capacity(100, &[(G5, 1)])
        .run_until(600);
    assert_eq!(h.victims(), vec!["p"]);
    assert_eq!(h.capacity(h.type_id(P5)), None);
    assert_eq!(h.reason("p2"), Some(MISCONFIG_SE.to_string()));
}

#[test]
fn r23_lowered_capacity_lapses_an_earmark_that_no_longer_fits() {
    let h = Sc::new()
        .capacity(G5, 2)
        .share(lab("A", G5, 1))
        .share(lend("B", G5, 1))
        .job(job("a_hi", "A").prio(1).dur(100_000))
        .job(job("v", "A").dur(100_000))
        .job(job("b", "B").at(100).dur(1000))
        .update_capacity(150, &[(G5, 1)])
        .run_until(400);
    assert_eq!(h.victims(), vec!["v"], "v being preempted counts as released: no new victim");
    assert_eq!(h.waiting_preemptor(h.share_id("B")), None);
    assert!(h.attempts("b").is_empty());
    assert_eq!(h.reason("b"), Some(WAIT_FREE.to_string()));
}

#[test]
fn r23_lender_turned_reserve_reclaims_what_it_lent() {
    // L lends its instance to B, then becomes RESERVE: nothing is preempted at once; when
    // L's own job arrives it is short of free capacity and reclaims B's borrowed job. B is
    // over quota by borrowing, not by an update of its own, so the reason is cross-share.
    let h = Sc::new()
        .capacity(G5, 2)
        .share(lend("L", G5, 1))
        .share(lab("B", G5, 1))
        .job(job("b1", "B").prio(9).dur(100_000))
        .job(job("b2", "B").dur(100_000))
        .job(job("l", "L").at(150).dur(10))
        .update_share(100, update("L").sharing(Strategy::Reserve, None))
        .run_until(400);
    assert_eq!(h.preemptions_started(), vec![(150, "b2".to_string())]);
    assert_eq!(
        h.preemption_events("b2", EventType::PreemptionStarted)[0].reason.as_deref(),
        Some(CROSS_SHARE)
    );
    assert_eq!(h.first_started("l"), Some(270));
    assert_eq!(h.totals(G5).pool_capacity, 1);
}

#[test]
fn r23_action_at_time_zero_applies_before_the_first_submissions() {
    let h = Sc::new()
        .capacity(G5, 1)
        .share(reserve("A", G5, 2))
        .job(job("a1", "A").dur(10))
        .job(job("a2", "A").dur(10))
        .update_capacity(0, &[(G5, 2)])
        .run_until(0);
    assert_eq!(h.first_started("a1"), Some(0));
    assert_eq!(h.first_started("a2"), Some(0));
}

#[test]
fn r23_priority_update_makes_a_running_job_an_in_share_candidate() {
    // lo and hi have equal priority (no in-share preemption) until hi is raised at 100.
    let h = Sc::new()
        .capacity(G5, 1)
        .share(reserve("A", G5, 1).in_share(true))
        .job(job("lo", "A").prio(1).dur(10_000))
        .job(job("hi", "A").prio(1).at(10).dur(10))
        .set_priority(100, "hi", 2)
        .run_until(300);
    assert_eq!(h.preemptions_started(), vec![(100, "lo".to_string())]);
    assert_eq!(h.first_started("hi"), Some(220));
}

#[test]
fn r23_terminating_a_holder_releases_its_hold() {
    // b_big holds the instance a0 frees at 100; it is terminated at 150 and a2 takes it.
    let h = Sc::new()
        .capacity(G5, 2)
        .share(reserve("A", G5, 2))
        .share(reserve("B", G5, 2))
        .job(job("a0", "A").dur(100))
        .job(job("a1", "A").dur(1000))
        .job(job("b_big", "B").count(2).at(10).dur(100))
        .job(job("a2", "A").at(50).dur(10))
        .terminate(150, "b_big", "manual")
        .run_until(300);
    assert_eq!(h.first_started("a2"), Some(150));
}

#[test]
fn r22_lowered_quota_of_a_borrowing_share_gives_capacity_limit_reduced() {
    let h = Sc::new()
        .capacity(G5, 4)
        .share(lab("B", G5, 2))
        .share(lend("L", G5, 2))
        .job(job("b1", "B").prio(9).dur(100_000))
        .job(job("b2", "B").prio(5).dur(100_000))
        .job(job("b3", "B").dur(100_000))
        .job(job("l1", "L").at(200).count(2).dur(10))
        .update_share(100, update("B").limits(&[(G5, 1)]))
        .run_until(400);
    // B holds 3 of quota 1, so the pool (now 1 + 2) is full; l1 needs 2: B's two lowest
    // priority jobs, reason "Capacity limit reduced" because B is over quota by the update.
    assert_eq!(h.victims(), vec!["b3", "b2"]);
    for v in ["b3", "b2"] {
        assert_eq!(
            h.preemption_events(v, EventType::PreemptionStarted)[0].reason.as_deref(),
            Some(LIMIT_REDUCED)
        );
    }
    assert_eq!(h.first_started("l1"), Some(320));
}

#[test]
fn r22_reason_returns_to_cross_share_once_back_within_quota() {
    // B is over quota by an update from 100 until b1 ends at 200; it borrows again at 300
    // and L reclaims at 400: that is an ordinary cross-share reclaim.
    let h = Sc::new()
        .capacity(G5, 3)
        .share(lab("B", G5, 2))
        .share(lend("L", G5, 1))
        .job(job("b1", "B").prio(9).dur(200))
        .job(job("b2", "B").prio(9).dur(100_000))
        .job(job("b3", "B").at(300).dur(100_000))
        .job(job("l", "L").at(400).dur(10))
        .update_share(100, update("B").limits(&[(G5, 1)]))
        .run_until(600);
    assert!(!h.over_quota_by_update(h.share_id("B"), h.type_id(G5)));
    assert_eq!(h.first_started("b3"), Some(300));
    assert_eq!(h.victims(), vec!["b3"]);
    assert_eq!(
        h.preemption_events("b3", EventType::PreemptionStarted)[0].reason.as_deref(),
        Some(CROSS_SHARE)
    );
}

#[test]
fn r23_lowered_capacity_victim_keeps_its_instances_during_grace() {
    // a_big (2 instances) is the victim when the limit drops to 1 at 20; it holds both until
    // 140, so a_small may not start before then (held usage would be 3 > 2 quota, > 1 limit).
    // At 140 a_big is back at the front and can never run on 1 instance (R17), so without
    // backfill it blocks A (R12); with backfill a_small starts at 140.
    let sc = Sc::new()
        .capacity(G5, 2)
        .share(reserve("A", G5, 2))
        .job(job("a_big", "A").count(2).dur(1000))
        .job(job("a_small", "A").dur(1000))
        .update_capacity(20, &[(G5, 1)]);
    let mut h = sc.sim();
    while let Some(t) = h.step() {
        assert!(h.totals(G5).usage <= 2, "at {t}: held usage {}", h.totals(G5).usage);
        if t > 300 {
            break;
        }
    }
    assert_eq!(h.victims(), vec!["a_big"]);
    assert_eq!(h.first_started("a_small"), None);
    assert_eq!(h.reason("a_small"), Some("CAPACITY: waiting behind a_big".to_string()));
    assert_eq!(h.reason("a_big"), Some(MISCONFIG_SE.to_string()));
    let h = sc.clone().backfill(true).run_until(300);
    assert_eq!(h.first_started("a_small"), Some(140));
}

#[test]
fn r23_adding_a_type_to_the_service_environment_makes_its_jobs_runnable() {
    let sc = Sc::new()
        .capacity(G5, 1)
        .share(reserve("A", G5, 1).limit(P5, 2))
        .job(job("p", "A").ty(P5).count(2).dur(100))
        .update_capacity(500, &[(G5, 1), (P5, 2)]);
    let h = sc.run_until(499);
    assert_eq!(h.reason("p"), Some(MISCONFIG_SE.to_string()));
    let h = sc.run();
    assert_eq!(h.spans("p"), vec![(500, Some(600))]);
}

#[test]
fn r23_quota_for_a_new_type_lends_and_fits() {
    // L gets a P5 quota at 100: B's P5 job (beyond B's own P5 quota) can borrow it, and a job
    // that was too big for L's quota becomes runnable.
    let h = Sc::new()
        .capacity(G5, 2)
        .capacity(P5, 3)
        .share(lend("L", G5, 1))
        .share(lab("B", G5, 1).limit(P5, 1))
        .job(job("b_p", "B").ty(P5).count(2).dur(1000))
        .update_share(100, update("L").limits(&[(G5, 1), (P5, 2)]))
        .run_until(200);
    assert_eq!(h.first_started("b_p"), Some(100));
    assert_eq!(h.attempts("b_p")[0].borrowed_instances, 1);
}

#[test]
fn r23_lowered_capacity_takes_over_quota_jobs_then_any_job() {
    // Lowered from 3 to 1: A's over-quota a2 first, then from any job the lowest priority r.
    let h = Sc::new()
        .capacity(G5, 3)
        .share(lab("A", G5, 1))
        .share(reserve("R", G5, 1))
        .share(lend("L", G5, 1))
        .job(job("a1", "A").prio(9).dur(100_000))
        .job(job("a2", "A").prio(9).dur(100_000))
        .job(job("r", "R").dur(100_000))
        .update_capacity(100, &[(G5, 1)])
        .run_until(300);
    assert_eq!(sorted(h.victims()), vec!["a2", "r"]);
    for v in ["a2", "r"] {
        let e = &h.preemption_events(v, EventType::PreemptionStarted)[0];
        assert_eq!(e.reason.as_deref(), Some(LIMIT_REDUCED));
        assert_eq!(e.at, 100);
    }
    assert_eq!(h.status("a1"), Some(Running));
}
