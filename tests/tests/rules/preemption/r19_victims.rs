//! R19: which running jobs are preempted, in what order, and a minimal set.

use crate::rules::sorted;
use quotasim::result::{EventType, Status};
use quotasim_tests::*;

use Status::*;

/// L lends 2; B1 and B2 each run a job on their own quota (priority 9) and borrow one more.
fn two_borrowers(b1x: JobB, b2x: JobB) -> Sc {
    Sc::new()
        .capacity(G5, 4)
        .share(lend("L", G5, 2))
        .share(lab("B1", G5, 1))
        .share(lab("B2", G5, 1))
        .job(job("b1own", "B1").prio(9).dur(100_000))
        .job(job("b2own", "B2").prio(9).dur(100_000))
        .job(b1x)
        .job(b2x)
        .job(job("l1", "L").at(100).dur(100))
}

/// L lends 6; B1, B2, B3 run their own job and borrow 2, 1 and 3 instances, all at 0.
fn cover_setup(need: i64) -> Sc {
    Sc::new()
        .capacity(G5, 9)
        .share(lend("L", G5, 6))
        .share(lab("B1", G5, 1))
        .share(lab("B2", G5, 1))
        .share(lab("B3", G5, 1))
        .job(job("b1own", "B1").prio(9).dur(100_000))
        .job(job("b2own", "B2").prio(9).dur(100_000))
        .job(job("b3own", "B3").prio(9).dur(100_000))
        .job(job("bx2", "B1").count(2).dur(100_000))
        .job(job("by1", "B2").dur(100_000))
        .job(job("bz3", "B3").count(3).dur(100_000))
        .job(job("l", "L").count(need).at(100).dur(100))
}

/// L runs a two-instance job until 50; then bx and by borrow at the same instant.
fn same_start(first: JobB, second: JobB) -> Sc {
    Sc::new()
        .capacity(G5, 4)
        .share(lend("L", G5, 2))
        .share(lab("B1", G5, 1))
        .share(lab("B2", G5, 1))
        .job(job("l0", "L").count(2).dur(50))
        .job(job("b1o", "B1").prio(9).dur(100_000))
        .job(job("b2o", "B2").prio(9).dur(100_000))
        .job(first)
        .job(second)
        .job(job("l1", "L").at(100).dur(100))
}

#[test]
fn r19_prefers_lowest_priority_then_most_recent_start() {
    // Lowest priority wins over the most recent start.
    let h =
        two_borrowers(job("b1x", "B1").prio(5).at(10).dur(100_000), job("b2x", "B2").prio(3).dur(100_000))
            .run_until(200);
    assert_eq!(h.victims(), vec!["b2x"]);
    // Same priority: the one dispatched most recently (b1x at 10).
    let h =
        two_borrowers(job("b1x", "B1").prio(3).at(10).dur(100_000), job("b2x", "B2").prio(3).dur(100_000))
            .run_until(200);
    assert_eq!(h.first_started("b1x"), Some(10));
    assert_eq!(h.victims(), vec!["b1x"]);
}

#[test]
fn r19_least_lost_work_victim_order() {
    // b2x checkpoints every 40 s: at 100 it has 20 s at risk; b1x (no checkpoint) has 90.
    let sc = two_borrowers(
        job("b1x", "B1").prio(3).at(10).dur(100_000),
        job("b2x", "B2").prio(3).ckpt(40).dur(100_000),
    );
    assert_eq!(sc.run_until(200).victims(), vec!["b1x"], "aws order: most recent start");
    assert_eq!(sc.least_lost_work().run_until(200).victims(), vec!["b2x"]);
}

#[test]
fn r19_prefers_the_candidate_covering_the_shortfall_with_least_excess() {
    let h = cover_setup(2).run_until(300);
    assert_eq!(h.totals(G5).pool_available, 0);
    assert_eq!(h.victims(), vec!["bx2"]);
    assert_eq!(h.first_started("l"), Some(220));
}

#[test]
fn r19_if_none_covers_takes_the_one_returning_most() {
    // Short 4: bz3 (3) first, then the exact cover by1 (1) rather than bx2 (2).
    let h = cover_setup(4).run_until(300);
    assert_eq!(sorted(h.victims()), vec!["by1", "bz3"]);
    assert_eq!(h.victims()[0], "bz3");
    assert_eq!(h.first_started("l"), Some(220));
}

#[test]
fn r19_ties_go_to_latest_submit_then_highest_index() {
    let h = same_start(job("bx", "B1").dur(100_000), job("by", "B2").at(10).dur(100_000)).run_until(200);
    assert_eq!(h.first_started("bx"), Some(50));
    assert_eq!(h.first_started("by"), Some(50));
    assert_eq!(h.victims(), vec!["by"], "latest submitAt");
    let h = same_start(job("by", "B2").dur(100_000), job("bx", "B1").dur(100_000)).run_until(200);
    assert_eq!(h.first_started("bx"), Some(50));
    assert_eq!(h.first_started("by"), Some(50));
    assert_eq!(h.victims(), vec!["bx"], "highest job index");
}

#[test]
fn r19_victim_set_is_minimal() {
    // Short 3: v1 (priority 0, returns 1) is taken first, then v2 (priority 1, returns 3);
    // v1's release is then not needed and it is dropped.
    let h = Sc::new()
        .capacity(G5, 6)
        .share(lend("L", G5, 4))
        .share(lab("B1", G5, 1))
        .share(lab("B2", G5, 1))
        .job(job("b1own", "B1").prio(9).dur(100_000))
        .job(job("b2own", "B2").prio(9).dur(100_000))
        .job(job("v1", "B1").dur(100_000))
        .job(job("v2", "B2").prio(1).count(3).dur(100_000))
        .job(job("l", "L").count(3).at(100).dur(100))
        .run_until(300);
    assert_eq!(h.victims(), vec!["v2"]);
    assert_eq!(h.status("v1"), Some(Running));
    assert_eq!(h.first_started("l"), Some(220));
}

#[test]
fn r19_victim_crossing_the_quota_line_returns_only_its_over_quota_part() {
    // B (quota 2) holds 3: b_big (2 instances) returns min(2, X=1) = 1, enough for l's
    // shortfall of 1; B falls below its quota.
    let h = Sc::new()
        .capacity(G5, 4)
        .share(lab("B", G5, 2))
        .share(lend("L", G5, 2))
        .job(job("b_own", "B").prio(9).dur(100_000))
        .job(job("b_big", "B").count(2).dur(100_000))
        .job(job("l", "L").count(2).at(100).dur(100))
        .run_until(250);
    assert_eq!(h.victims(), vec!["b_big"]);
    assert_eq!(h.first_started("l"), Some(220));
    assert_eq!(h.used("B", G5), 1);
}

#[test]
fn r19_several_victims_when_one_is_not_enough() {
    let h = Sc::new()
        .capacity(G5, 4)
        .share(lend("L", G5, 3))
        .share(lab("B", G5, 1))
        .jobs(4, |i| job(&format!("b{i}"), "B").dur(100_000))
        .job(job("l", "L").count(3).at(100).dur(100))
        .run_until(250);
    // All four dispatched at 0 with priority 0: highest index first.
    assert_eq!(h.victims(), vec!["b4", "b3", "b2"]);
    assert_eq!(h.first_started("l"), Some(220));
    assert_eq!(h.status("b1"), Some(Running));
}

#[test]
fn r19_scheduled_and_starting_jobs_are_candidates_and_lose_nothing() {
    // v is dispatched at 0 and stays SCHEDULED until 50: b reclaims it at 20.
    let h = Sc::new()
        .capacity(G5, 2)
        .scheduled(50)
        .share(lab("A", G5, 1))
        .share(lend("B", G5, 1))
        .job(job("a_hi", "A").prio(1).dur(100_000))
        .job(job("v", "A").dur(1000).ckpt(10))
        .job(job("b", "B").at(20).dur(100))
        .run_until(400);
    let e = &h.preemption_events("v", EventType::PreemptionStarted)[0];
    assert_eq!(e.at, 20);
    assert_eq!(e.status, Some(Scheduled));
    assert_eq!(e.lost_work_seconds, Some(0));
    assert_eq!(h.spans("v")[0], (0, Some(140)));
    assert_eq!(h.first_started("b"), Some(140));
    assert_eq!(h.stopped_at("b"), Some(290), "b: SCHEDULED 140..190, then 100 s of work");
}

#[test]
fn r19_least_lost_work_prefers_a_job_that_has_not_trained() {
    // x (RUNNING since 0, 100 s at risk) vs y (dispatched at 10, still STARTING: nothing at
    // risk). With aws order y is also the most recent, so make y older: y dispatched first.
    let sc = Sc::new()
        .capacity(G5, 4)
        .starting(200)
        .share(lend("L", G5, 2))
        .share(lab("B1", G5, 1))
        .share(lab("B2", G5, 1))
        .job(job("b1own", "B1").prio(9).dur(100_000))
        .job(job("b2own", "B2").prio(9).dur(100_000))
        .job(job("y", "B1").dur(100_000))
        .job(job("x", "B2").at(10).dur(100_000).ckpt(1000))
        .job(job("l1", "L").at(300).dur(100));
    // At 300: y RUNNING since 200 (100 s at risk, no checkpoint); x RUNNING since 210
    // (90 s at risk). aws: x (dispatched most recently). leastLostWork: x as well (90 < 100).
    assert_eq!(sc.run_until(400).victims(), vec!["x"]);
    assert_eq!(sc.clone().least_lost_work().run_until(400).victims(), vec!["x"]);
    // x checkpointing every 50 s: at 300 it has 40 s at risk... still x. Give y checkpoints
    // every 30 s instead: y has 10 s at risk, x 90: leastLostWork takes y, aws still x.
    let sc2 = Sc::new()
        .capacity(G5, 4)
        .starting(200)
        .share(lend("L", G5, 2))
        .share(lab("B1", G5, 1))
        .share(lab("B2", G5, 1))
        .job(job("b1own", "B1").prio(9).dur(100_000))
        .job(job("b2own", "B2").prio(9).dur(100_000))
        .job(job("y", "B1").dur(100_000).ckpt(30))
        .job(job("x", "B2").at(10).dur(100_000))
        .job(job("l1", "L").at(300).dur(100));
    assert_eq!(sc2.run_until(400).victims(), vec!["x"]);
    assert_eq!(sc2.least_lost_work().run_until(400).victims(), vec!["y"]);
}
