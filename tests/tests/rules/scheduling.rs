//! R10-R17: when the scheduler runs, queue order, head-of-line blocking, fitting, reporting
//! attribution, pass order and waiting reasons.

use quotasim::model::Strategy;
use quotasim::result::{EventType, Status};
use quotasim_tests::*;

use crate::rules::sorted;

use Status::*;

fn running_at(h: &H, names: &[&str]) -> Vec<String> {
    names.iter().filter(|n| h.status(n) == Some(Running)).map(|n| n.to_string()).collect()
}

// ----- R10 --------------------------------------------------------------------------------

#[test]
fn r10_release_comes_before_submission_at_the_same_instant() {
    let h = Sc::new()
        .capacity(G5, 1)
        .share(reserve("A", G5, 1))
        .job(job("a", "A").dur(100))
        .job(job("b", "A").at(100).dur(10))
        .run();
    assert_eq!(h.first_started("b"), Some(100));
}

#[test]
fn r10_action_comes_before_submission_at_the_same_instant() {
    let h = Sc::new()
        .capacity(G5, 1)
        .share(reserve("A", G5, 1))
        .job(job("a", "A").dur(1000))
        .job(job("b", "A").at(50).dur(10))
        .terminate(50, "a", "manual")
        .run();
    assert_eq!(h.status("a"), Some(Failed));
    assert_eq!(h.stopped_at("a"), Some(50));
    assert_eq!(h.first_started("b"), Some(50));
}

#[test]
fn r10_actions_apply_in_file_order() {
    let h = Sc::new()
        .capacity(G5, 1)
        .share(reserve("A", G5, 1))
        .job(job("blk", "A").dur(100))
        .job(job("x", "A").at(10).dur(10))
        .job(job("y", "A").at(10).prio(5).dur(10))
        .set_priority(50, "x", 9)
        .set_priority(50, "x", 1)
        .run();
    assert_eq!(h.job("x").scheduling_priority, 1, "the later action wins");
    assert_eq!(h.first_started("y"), Some(100));
    assert_eq!(h.first_started("x"), Some(110));
}

#[test]
fn r10_action_and_submission_of_a_job_at_the_same_instant() {
    // The terminate is applied before the job is submitted: it never runs.
    let h = Sc::new()
        .capacity(G5, 1)
        .share(reserve("A", G5, 1))
        .job(job("x", "A").at(50))
        .terminate(50, "x", "cancelled")
        .run();
    assert_eq!(h.status("x"), Some(Failed));
    assert!(h.attempts("x").is_empty());
}

#[test]
fn r10_submissions_in_file_order() {
    let h = Sc::new()
        .capacity(G5, 1)
        .share(reserve("A", G5, 1))
        .job(job("p", "A").at(5).dur(10))
        .job(job("q", "A").at(5).dur(10))
        .job(job("r", "A").at(5).dur(10))
        .run();
    let submitted: Vec<String> =
        h.events().into_iter().filter(|e| e.status == Some(Submitted)).map(|e| e.job_name).collect();
    assert_eq!(submitted, vec!["p", "q", "r"]);
    assert_eq!(
        (h.first_started("p"), h.first_started("q"), h.first_started("r")),
        (Some(5), Some(15), Some(25))
    );
}

#[test]
fn r10_zero_grace_releases_and_dispatches_in_the_same_instant() {
    let h = Sc::new()
        .capacity(G5, 2)
        .grace(0)
        .share(lab("A", G5, 1))
        .share(lend("B", G5, 1))
        .job(job("a_hi", "A").prio(1).dur(10_000))
        .job(job("v", "A").dur(10_000))
        .job(job("b", "B").at(100).dur(10))
        .run_until(100);
    let started = h.preemption_events("v", EventType::PreemptionStarted);
    let completed = h.preemption_events("v", EventType::PreemptionCompleted);
    assert_eq!(started.len(), 1);
    assert_eq!(started[0].at, 100);
    assert_eq!(completed[0].at, 100);
    assert_eq!(h.status("b"), Some(Running));
    assert_eq!(h.first_started("b"), Some(100));
    assert_eq!(h.spans("v")[0], (0, Some(100)));
    assert_eq!(h.status("v"), Some(Runnable));
}

#[test]
fn r10_job_without_work_frees_its_instance_inside_the_pass() {
    let h = Sc::new()
        .capacity(G5, 1)
        .share(reserve("A", G5, 1))
        .job(job("z", "A").dur(0))
        .job(job("y", "A").dur(100))
        .run();
    assert_eq!(h.status("z"), Some(Succeeded));
    assert_eq!(h.stopped_at("z"), Some(0));
    assert_eq!(h.first_started("y"), Some(0));
    assert_eq!(h.stopped_at("y"), Some(100));
}

#[test]
fn r10_no_tick_instants_are_only_when_something_changes() {
    let mut h = Sc::new()
        .capacity(G5, 1)
        .share(reserve("A", G5, 1))
        .job(job("a", "A").at(7).dur(100))
        .job(job("b", "A").at(50).dur(3))
        .sim();
    let mut instants = vec![];
    while let Some(t) = h.step() {
        instants.push(t);
    }
    assert_eq!(instants, vec![7, 50, 107, 110]);
}

#[test]
fn r10_cancelled_timer_runs_no_pass() {
    // `cancelled` is terminated at 50; its completion timer at 300 no longer applies. At 100
    // `big1` is the first job and fits only by borrowing, so nothing backfills in that pass
    // (R16); the next pass at 100 (R10) finds `big2` first, too large for the pool, and
    // `small` backfills by borrowing. `big2` runs when `big1` completes at 1100. (With one
    // pass per instant, `small` waited until 1100 too.)
    let h = Sc::new()
        .capacity(G5, 10)
        .backfill(true)
        .share(lab("team", G5, 2))
        .share(lend("lender", G5, 8))
        .job(job("cancelled", "team").dur(300))
        .job(job("big1", "team").prio(5).count(4).at(100).dur(1000))
        .job(job("big2", "team").prio(4).count(8).at(100).dur(100))
        .job(job("small", "team").at(100).dur(50))
        .terminate(50, "cancelled", "manual")
        .run();
    assert_eq!(h.spans("big1"), vec![(100, Some(1100))]);
    assert_eq!(h.spans("big2"), vec![(1100, Some(1200))]);
    assert_eq!(h.spans("small"), vec![(100, Some(150))]);
}

#[test]
fn r10_cancelled_timer_is_not_the_last_instant() {
    // The only job is terminated at 100; its completion at 14,400 no longer applies, so the
    // run ends at 100 with the job's instance held the whole run.
    let mut h = Sc::new()
        .capacity(G5, 1)
        .share(reserve("A", G5, 1))
        .job(job("a", "A").dur(14_400))
        .terminate(100, "a", "manual")
        .sim();
    let mut instants = vec![];
    while let Some(t) = h.step() {
        instants.push(t);
    }
    assert_eq!(instants, vec![0, 100]);
    assert!(h.is_done());
    let r = h.summary_result();
    assert_eq!(r.ended_at, 100);
    assert_eq!(r.summary.overall.utilization, Some(1.0));
}

#[test]
fn r10_capacity_lowered_to_zero_ends_the_run_at_the_release() {
    // The victim's completion timer at 10,000 is stale once it is preempted at 100.
    let h = Sc::new()
        .capacity(G5, 1)
        .share(reserve("A", G5, 1))
        .job(job("a", "A").dur(10_000).retries(0))
        .update_capacity(100, &[(G5, 0)])
        .run();
    assert_eq!(h.status("a"), Some(Failed));
    assert_eq!(h.summary_result().ended_at, 220);
}

#[test]
fn r10_passes_run_only_at_instants_where_something_changed() {
    // Instants with only a cancelled timer (300) run no pass: 0 (submit), 50 (terminate),
    // 100 (submissions), 150, 1100 and 1200 (completions). At each, passes repeat until one
    // dispatches nothing (R10): 2 at 0 and at 1100 (one dispatch each), 3 at 100 (big1, then
    // small), 1 where nothing can be dispatched.
    let mut h = Sc::new()
        .capacity(G5, 10)
        .backfill(true)
        .share(lab("team", G5, 2))
        .share(lend("lender", G5, 8))
        .job(job("cancelled", "team").dur(300))
        .job(job("big1", "team").prio(5).count(4).at(100).dur(1000))
        .job(job("big2", "team").prio(4).count(8).at(100).dur(100))
        .job(job("small", "team").at(100).dur(50))
        .terminate(50, "cancelled", "manual")
        .sim();
    let mut instants = vec![];
    while let Some(t) = h.step() {
        instants.push((t, h.stats().passes));
    }
    assert_eq!(instants, vec![(0, 2), (50, 3), (100, 6), (150, 7), (1100, 9), (1200, 10)]);
}

// ----- R11 --------------------------------------------------------------------------------

fn order_setup() -> Sc {
    Sc::new()
        .capacity(G5, 1)
        .share(reserve("A", G5, 1))
        .job(job("blk", "A").dur(100))
        .job(job("x1", "A").prio(1).at(10).dur(100))
        .job(job("x2", "A").prio(5).at(20).dur(100))
        .job(job("x3", "A").prio(5).at(10).dur(100))
        .job(job("x4", "A").prio(5).at(10).dur(100))
}

#[test]
fn r11_priority_then_submit_time_then_input_order() {
    let h = order_setup().run();
    let starts: Vec<Option<u64>> = ["x3", "x4", "x2", "x1"].iter().map(|n| h.first_started(n)).collect();
    assert_eq!(starts, vec![Some(100), Some(200), Some(300), Some(400)]);
}

#[test]
fn r11_updated_priority_applies_from_the_next_pass() {
    let h = order_setup().set_priority(50, "x1", 9).run();
    assert_eq!(h.first_started("x1"), Some(100));
    assert_eq!(h.first_started("x3"), Some(200));
    assert_eq!(h.job("x1").scheduling_priority, 9);
}

// ----- R12 --------------------------------------------------------------------------------

fn hol_setup(backfill: bool) -> Sc {
    Sc::new()
        .capacity(G5, 2)
        .backfill(backfill)
        .share(reserve("A", G5, 2))
        .job(job("a0", "A").dur(100))
        .job(job("a1", "A").count(2).at(1).dur(100))
        .job(job("a2", "A").at(2).dur(100))
}

#[test]
fn r12_head_of_line_blocking_by_default() {
    let sc = hol_setup(false);
    let h = sc.run_until(50);
    assert_eq!(h.reason("a1"), Some(WAIT_QUOTA.to_string()));
    assert_eq!(h.reason("a2"), Some(waiting_behind("a1")));
    let h = sc.run();
    assert_eq!(h.first_started("a1"), Some(100));
    assert_eq!(h.first_started("a2"), Some(200));
}

#[test]
fn r12_backfill_lets_later_jobs_that_fit_go_first() {
    let h = hol_setup(true).run();
    assert_eq!(h.first_started("a2"), Some(2));
    assert_eq!(h.first_started("a1"), Some(102));
}

#[test]
fn r12_never_runnable_front_job_blocks_without_backfill() {
    let sc = |bf| {
        Sc::new()
            .capacity(G5, 2)
            .backfill(bf)
            .share(reserve("A", G5, 2))
            .job(job("huge", "A").count(3))
            .job(job("small", "A").at(1).dur(10))
    };
    let h = sc(false).run();
    assert_eq!(h.status("huge"), Some(Runnable));
    assert_eq!(h.reason("huge"), Some(MISCONFIG_SE.to_string()));
    assert_eq!(h.status("small"), Some(Runnable));
    assert_eq!(h.reason("small"), Some(waiting_behind("huge")));
    let h = sc(true).run();
    assert_eq!(h.status("small"), Some(Succeeded));
    assert_eq!(h.first_started("small"), Some(1));
    assert_eq!(h.reason("huge"), Some(MISCONFIG_SE.to_string()));
}

// ----- R13 / R14 --------------------------------------------------------------------------

#[test]
fn r13_reserve_idle_quota_is_never_used_by_others() {
    let h = Sc::new()
        .capacity(G5, 3)
        .share(reserve("R", G5, 2))
        .share(lab("B", G5, 1))
        .jobs(3, |i| job(&format!("b{i}"), "B").dur(100))
        .run_until(10);
    assert_eq!(running_at(&h, &["b1", "b2", "b3"]), vec!["b1"]);
    assert_eq!(h.reason("b2"), Some(WAIT_POOL.to_string()));
    assert_eq!(h.reason("b3"), Some(waiting_behind("b2")));
    let r = h.share_usage("R", G5);
    assert_eq!((r.usage, r.idle, r.lent), (0, 2, 0));
}

#[test]
fn r13_capacity_owned_by_no_share_is_never_used() {
    let sc = Sc::new()
        .capacity(G5, 5)
        .share(lab("A", G5, 1))
        .share(lend("B", G5, 1))
        .jobs(4, |i| job(&format!("a{i}"), "A").dur(100));
    let v = sc.valid();
    assert!(
        v.warnings.iter().any(|p| p.path == "serviceEnvironment.capacityLimits[0].maxCapacity"),
        "a warning about unowned capacity: {:?}",
        v.warnings
    );
    let h = sc.run_until(10);
    assert_eq!(running_at(&h, &["a1", "a2", "a3", "a4"]), vec!["a1", "a2"]);
    assert_eq!(h.totals(G5).free, 3);
    assert_eq!(h.reason("a3"), Some(WAIT_POOL.to_string()));
}

#[test]
fn r13_borrowing_is_share_level_and_falls_back_within_quota() {
    // a2 borrows at 0; when a1 finishes at 100, A is back within its quota, so B's job at 150
    // finds the pool available and runs at once without preempting anything.
    let sc = Sc::new()
        .capacity(G5, 2)
        .share(lab("A", G5, 1))
        .share(lend("B", G5, 1))
        .job(job("a1", "A").prio(1).dur(100))
        .job(job("a2", "A").dur(1000))
        .job(job("b", "B").at(150).dur(10));
    let h = sc.run_until(120);
    let a = h.share_usage("A", G5);
    assert_eq!((a.usage, a.within_quota, a.over_quota, a.borrowed), (1, 1, 0, 0));
    let h = sc.run();
    assert_eq!(h.first_started("b"), Some(150));
    assert!(h.victims().is_empty());
}

#[test]
fn r14_reserve_fits_within_its_quota_only() {
    let h = Sc::new()
        .capacity(G5, 4)
        .share(reserve("R", G5, 2))
        .share(lend("L", G5, 2))
        .jobs(3, |i| job(&format!("r{i}"), "R"))
        .run_until(1);
    assert_eq!(running_at(&h, &["r1", "r2", "r3"]), vec!["r1", "r2"]);
    assert_eq!(h.reason("r3"), Some(WAIT_QUOTA.to_string()));
}

#[test]
fn r14_lend_never_borrows() {
    let h = Sc::new()
        .capacity(G5, 2)
        .share(lend("L", G5, 1))
        .share(lend("M", G5, 1))
        .jobs(2, |i| job(&format!("l{i}"), "L"))
        .run_until(1);
    assert_eq!(running_at(&h, &["l1", "l2"]), vec!["l1"]);
    assert_eq!(h.reason("l2"), Some(WAIT_QUOTA.to_string()));
    assert_eq!(h.share_usage("M", G5).lent, 0);
}

#[test]
fn r14_borrow_allowance_rounds_down() {
    // (quota, borrowLimit, how many one-instance jobs run); the lender has 10 idle.
    let table: &[(i64, i64, usize)] =
        &[(1, 150, 2), (3, 50, 4), (1, 99, 1), (2, 0, 2), (2, 100, 4), (3, 34, 4), (1, -1, 8), (5, 20, 6)];
    for &(q, bl, expected) in table {
        let h = Sc::new()
            .capacity(G5, q + 10)
            .share(lab("B", G5, q).borrow_limit(bl))
            .share(lend("L", G5, 10))
            .jobs(8, |i| job(&format!("b{i}"), "B"))
            .run_until(1);
        let n = (1..=8).filter(|i| h.status(&format!("b{i}")) == Some(Running)).count();
        assert_eq!(n, expected, "quota {q}, borrowLimit {bl}");
        assert_eq!(h.used("B", G5), expected as u64);
    }
}

#[test]
fn r14_job_borrows_only_the_part_above_quota() {
    let h = Sc::new()
        .capacity(G5, 4)
        .share(lab("B", G5, 2))
        .share(lend("L", G5, 2))
        .job(job("big", "B").count(4))
        .job(job("next", "B").at(1))
        .run_until(1);
    assert_eq!(h.status("big"), Some(Running));
    assert_eq!(h.attempts("big")[0].borrowed_instances, 2);
    let b = h.share_usage("B", G5);
    assert_eq!((b.usage, b.within_quota, b.over_quota, b.borrowed), (4, 2, 2, 2));
    assert_eq!(h.status("next"), Some(Runnable));
}

#[test]
fn r14_borrowing_share_needs_pool_available() {
    // B borrows L's idle instance; a second borrower C finds the pool empty.
    let h = Sc::new()
        .capacity(G5, 3)
        .share(lab("B", G5, 1))
        .share(lend("L", G5, 1))
        .share(lab("C", G5, 1))
        .job(job("b1", "B"))
        .job(job("b2", "B"))
        .job(job("c1", "C"))
        .job(job("c2", "C").at(1))
        .run_until(1);
    assert_eq!(running_at(&h, &["b1", "b2", "c1", "c2"]), vec!["b1", "b2", "c1"]);
    assert_eq!(h.reason("c2"), Some(WAIT_POOL.to_string()));
    assert_eq!(h.totals(G5).pool_available, 0);
}

#[test]
fn r14_free_capacity_is_checked_under_oversubscription() {
    let sc = Sc::new()
        .capacity(G5, 1)
        .share(reserve("A", G5, 1))
        .share(reserve("B", G5, 1))
        .job(job("a", "A").dur(100))
        .job(job("b", "B").at(1).dur(100));
    assert!(sc.valid().warnings.iter().any(|p| p.path.starts_with("serviceEnvironment.capacityLimits[0]")));
    let h = sc.run_until(50);
    assert_eq!(h.reason("b"), Some(WAIT_FREE.to_string()));
    assert!(h.victims().is_empty(), "A is within its quota: nothing to reclaim");
    let h = sc.run();
    assert_eq!(h.first_started("b"), Some(100));
}

// ----- R15 --------------------------------------------------------------------------------

#[test]
fn r15_borrowed_capacity_is_attributed_to_lenders_in_input_order() {
    let h = Sc::new()
        .capacity(G5, 6)
        .share(lab("B1", G5, 1))
        .share(lend("L1", G5, 2))
        .share(lab("B2", G5, 1))
        .share(lend("L2", G5, 2))
        .jobs(4, |i| job(&format!("b1_{i}"), "B1"))
        .jobs(2, |i| job(&format!("b2_{i}"), "B2").at(1))
        .run_until(1);
    let flows = |v: &[quotasim::result::Flow]| -> Vec<(String, u64)> {
        v.iter().map(|f| (f.quota_share_name.clone(), f.instances)).collect()
    };
    let b1 = h.share_usage("B1", G5);
    assert_eq!((b1.usage, b1.within_quota, b1.over_quota, b1.borrowed), (4, 1, 3, 3));
    assert_eq!(flows(&b1.borrowed_from), vec![("L1".into(), 2), ("L2".into(), 1)]);
    let b2 = h.share_usage("B2", G5);
    assert_eq!((b2.usage, b2.borrowed), (2, 1));
    assert_eq!(flows(&b2.borrowed_from), vec![("L2".into(), 1)]);
    let l1 = h.share_usage("L1", G5);
    assert_eq!((l1.usage, l1.lent), (0, 2));
    assert_eq!(flows(&l1.lent_to), vec![("B1".into(), 2)]);
    let l2 = h.share_usage("L2", G5);
    assert_eq!(l2.lent, 2);
    assert_eq!(flows(&l2.lent_to), vec![("B1".into(), 1), ("B2".into(), 1)]);
    let t = h.totals(G5);
    assert_eq!(
        (t.usage, t.free, t.pool_capacity, t.pool_usage, t.pool_available, t.borrowed),
        (6, 0, 6, 6, 0, 4)
    );
}

#[test]
fn r15_lending_share_with_its_own_jobs_lends_only_its_idle_quota() {
    let h = Sc::new()
        .capacity(G5, 4)
        .share(lend("L1", G5, 2))
        .share(lend("L2", G5, 1))
        .share(lab("B", G5, 1))
        .job(job("l", "L1"))
        .jobs(3, |i| job(&format!("b{i}"), "B").at(1))
        .run_until(1);
    // L1 idle 1, L2 idle 1; B borrows 2: one from each, in input order.
    let b = h.share_usage("B", G5);
    assert_eq!(b.borrowed, 2);
    let from: Vec<(String, u64)> =
        b.borrowed_from.iter().map(|f| (f.quota_share_name.clone(), f.instances)).collect();
    assert_eq!(from, vec![("L1".into(), 1), ("L2".into(), 1)]);
    assert_eq!(h.share_usage("L1", G5).lent, 1);
}

// ----- R16 --------------------------------------------------------------------------------

#[test]
fn r16_shares_ordered_by_lowest_usage_over_quota() {
    // Oversubscribed: at 100 one instance frees and two front jobs want it. A is at 1/4, B
    // at 1/2: A goes first although B comes first in the input.
    let h = Sc::new()
        .capacity(G5, 3)
        .share(reserve("B", G5, 2))
        .share(reserve("A", G5, 4))
        .job(job("a_short", "A").dur(100))
        .job(job("a0", "A").dur(10_000))
        .job(job("b0", "B").dur(10_000))
        .job(job("b1", "B").at(100).dur(10))
        .job(job("a1", "A").at(100).dur(10))
        .run_until(100);
    assert_eq!(h.status("a1"), Some(Running));
    assert_eq!(h.status("b1"), Some(Runnable));
    assert_eq!(h.reason("b1"), Some(WAIT_FREE.to_string()));
}

#[test]
fn r16_ties_in_usage_ratio_go_by_input_order() {
    let h = Sc::new()
        .capacity(G5, 1)
        .share(reserve("B", G5, 1))
        .share(reserve("A", G5, 1))
        .job(job("a", "A").dur(10))
        .job(job("b", "B").dur(10))
        .run_until(0);
    assert_eq!(h.status("b"), Some(Running));
    assert_eq!(h.status("a"), Some(Runnable));
}

#[test]
fn r16_borrowing_phase_is_fifo_across_shares() {
    // At 100 L's instance becomes idle; b2x (submitted at 3) borrows it before b1x (at 5),
    // although B1 comes first in the input and both shares are at the same U/Q.
    let h = Sc::new()
        .capacity(G5, 3)
        .share(lab("B1", G5, 1))
        .share(lab("B2", G5, 1))
        .share(lend("L", G5, 1))
        .job(job("l0", "L").dur(100))
        .job(job("b1a", "B1").dur(10_000))
        .job(job("b2a", "B2").dur(10_000))
        .job(job("b1x", "B1").at(5).dur(10))
        .job(job("b2x", "B2").at(3).dur(10))
        .run_until(100);
    assert_eq!(h.status("b2x"), Some(Running));
    assert_eq!(h.first_started("b2x"), Some(100));
    assert_eq!(h.status("b1x"), Some(Runnable));
}

#[test]
fn r16_hold_keeps_free_instances_for_an_oversubscribed_front_job() {
    // b0 (two instances) fits B's quota but not `free`; the instance a0 frees at 100 is held
    // for it, so a2 (which fits A's quota from 100) cannot take it.
    let sc = Sc::new()
        .capacity(G5, 2)
        .share(reserve("A", G5, 2))
        .share(reserve("B", G5, 2))
        .job(job("a0", "A").dur(100))
        .job(job("a1", "A").dur(1000))
        .job(job("b0", "B").count(2).at(10).dur(100))
        .job(job("a2", "A").at(50).dur(10));
    let h = sc.run_until(500);
    assert_eq!(h.status("a2"), Some(Runnable));
    assert_eq!(h.reason("a2"), Some(WAIT_FREE.to_string()));
    assert_eq!(h.reason("b0"), Some(WAIT_FREE.to_string()));
    assert_eq!(h.totals(G5).usage, 1);
    let h = sc.run();
    assert_eq!(h.first_started("b0"), Some(1000));
    assert_eq!(h.first_started("a2"), Some(1100));
}

#[test]
fn r16_backfill_stops_when_first_job_fits_only_by_borrowing() {
    // b_big fits only by borrowing; the share backfills nothing else, so b_small (which
    // would fit within quota) does not take the pool instance b_big needs.
    let h = Sc::new()
        .capacity(G5, 4)
        .backfill(true)
        .share(lab("B", G5, 2))
        .share(lend("L", G5, 1))
        .job(job("b0", "B").prio(9).dur(1000))
        .job(job("b_big", "B").prio(5).count(2).at(10).dur(1000))
        .job(job("b_small", "B").at(10).dur(1000))
        .run_until(10);
    assert_eq!(h.status("b_big"), Some(Running));
    assert_eq!(h.attempts("b_big")[0].borrowed_instances, 1);
    assert_eq!(h.status("b_small"), Some(Runnable));
}

#[test]
fn r16_backfill_first_job_short_of_free_holds_before_later_jobs_are_tried() {
    // Capacity 4, oversubscribed: s1 (RESERVE 2) runs 2 instances; s0 (RESERVE 3) has `big`
    // (3 instances) first and `small` (1) behind it. big fits its quota but not `free`: it
    // holds the 2 free instances, so `small` waits behind it even with backfill.
    let h = Sc::new()
        .capacity(G5, 4)
        .backfill(true)
        .share(reserve("s0", G5, 3))
        .share(reserve("s1", G5, 2))
        .job(job("o1", "s1").count(2).dur(1000))
        .job(job("big", "s0").prio(5).count(3).at(10).dur(100))
        .job(job("small", "s0").at(10).dur(100))
        .run();
    assert_eq!(h.spans("big"), vec![(1000, Some(1100))]);
    assert_eq!(h.spans("small"), vec![(1100, Some(1200))], "not on the free instances big holds");
}

#[test]
fn r16_backfill_stops_when_first_job_triggers_a_preemption() {
    let h = Sc::new()
        .capacity(G5, 3)
        .backfill(true)
        .share(lend("L", G5, 2))
        .share(lab("B", G5, 1))
        .job(job("b0", "B").prio(9).dur(10_000))
        .job(job("b1", "B").dur(10_000))
        .job(job("l_big", "L").prio(5).count(2).at(100).dur(1000))
        .job(job("l_small", "L").at(100).dur(1000))
        .run_until(300);
    assert_eq!(h.victims(), vec!["b1"]);
    assert_eq!(h.first_started("l_big"), Some(220));
    assert_eq!(h.status("l_small"), Some(Runnable));
}

// ----- R17 --------------------------------------------------------------------------------

fn never(sc: Sc) -> H {
    sc.job(job("other", "S").at(1).dur(10)).run()
}

#[test]
fn r17_more_than_service_environment_limit() {
    let h = never(Sc::new().capacity(G5, 2).share(lab("S", G5, 4)).job(job("x", "S").count(3)));
    assert_eq!(h.status("x"), Some(Runnable));
    assert_eq!(h.reason("x"), Some(MISCONFIG_SE.to_string()));
    assert_eq!(h.reason("other"), Some(waiting_behind("x")));
}

#[test]
fn r17_type_without_service_environment_limit() {
    let h = never(Sc::new().capacity(G5, 2).share(lab("S", G5, 2).limit(P5, 1)).job(job("x", "S").ty(P5)));
    assert_eq!(h.reason("x"), Some(MISCONFIG_SE.to_string()));
    assert!(h.attempts("x").is_empty());
}

#[test]
fn r17_service_environment_checked_before_quota() {
    let h = never(Sc::new().capacity(G5, 2).share(reserve("S", G5, 1)).job(job("x", "S").count(3)));
    assert_eq!(h.reason("x"), Some(MISCONFIG_SE.to_string()));
}

#[test]
fn r17_reserve_and_lend_more_than_own_quota() {
    for strategy in [Strategy::Reserve, Strategy::Lend] {
        let h = never(
            Sc::new()
                .capacity(G5, 4)
                .share(share("S", strategy, G5, 1))
                .share(lend("L", G5, 3))
                .job(job("x", "S").count(2)),
        );
        assert_eq!(h.reason("x"), Some(MISCONFIG_QUOTA.to_string()), "{strategy:?}");
    }
}

#[test]
fn r17_lend_and_borrow_more_than_quota_plus_allowance() {
    let h = never(
        Sc::new()
            .capacity(G5, 10)
            .share(lab("S", G5, 1).borrow_limit(100))
            .share(lend("L", G5, 9))
            .job(job("x", "S").count(3)),
    );
    assert_eq!(h.reason("x"), Some(MISCONFIG_BORROW.to_string()));
    // borrowLimit 0: nothing above the quota.
    let h = never(
        Sc::new()
            .capacity(G5, 10)
            .share(lab("S", G5, 1).borrow_limit(0))
            .share(lend("L", G5, 9))
            .job(job("x", "S").count(2)),
    );
    assert_eq!(h.reason("x"), Some(MISCONFIG_BORROW.to_string()));
}

#[test]
fn r17_lend_and_borrow_more_than_the_whole_pool() {
    let h = never(
        Sc::new()
            .capacity(G5, 5)
            .share(lab("S", G5, 1))
            .share(reserve("R", G5, 4))
            .job(job("x", "S").count(2)),
    );
    assert_eq!(h.reason("x"), Some(MISCONFIG_POOL.to_string()));
    // The borrow limit is checked before the pool.
    let h = never(
        Sc::new()
            .capacity(G5, 5)
            .share(lab("S", G5, 1).borrow_limit(100))
            .share(reserve("R", G5, 4))
            .job(job("x", "S").count(3)),
    );
    assert_eq!(h.reason("x"), Some(MISCONFIG_BORROW.to_string()));
}

#[test]
fn r17_misconfiguration_shown_even_when_not_the_front_job() {
    let h = Sc::new()
        .capacity(G5, 2)
        .share(reserve("S", G5, 2))
        .job(job("run", "S").count(2).dur(1000))
        .job(job("front", "S").at(1).prio(5))
        .job(job("x", "S").at(1).count(3))
        .run_until(10);
    assert_eq!(h.reason("front"), Some(WAIT_QUOTA.to_string()));
    assert_eq!(h.reason("x"), Some(MISCONFIG_SE.to_string()));
}

#[test]
fn r17_capacity_waiting_reasons() {
    // quota
    let h = Sc::new()
        .capacity(G5, 2)
        .share(reserve("S", G5, 1))
        .share(lend("L", G5, 1))
        .jobs(2, |i| job(&format!("s{i}"), "S"))
        .run_until(1);
    assert_eq!(h.reason("s2"), Some(WAIT_QUOTA.to_string()));
    // lendable capacity
    let h = Sc::new()
        .capacity(G5, 2)
        .share(lab("S", G5, 1))
        .share(reserve("R", G5, 1))
        .jobs(2, |i| job(&format!("s{i}"), "S"))
        .run_until(1);
    assert_eq!(h.reason("s2"), Some(WAIT_POOL.to_string()));
    // service environment capacity
    let h = Sc::new()
        .capacity(G5, 1)
        .share(reserve("S", G5, 1))
        .share(reserve("R", G5, 1))
        .job(job("r", "R"))
        .job(job("s", "S").at(1))
        .run_until(1);
    assert_eq!(h.reason("s"), Some(WAIT_FREE.to_string()));
    // preemption to complete
    let h = Sc::new()
        .capacity(G5, 2)
        .share(lab("A", G5, 1))
        .share(lend("B", G5, 1))
        .job(job("a1", "A").prio(1))
        .job(job("a2", "A"))
        .job(job("b", "B").at(10))
        .job(job("b_next", "B").at(10).prio(0))
        .run_until(50);
    assert_eq!(h.reason("b"), Some(WAIT_PREEMPTION.to_string()));
    assert_eq!(h.reason("b_next"), Some(waiting_behind("b")));
}

#[test]
fn r17_reasons_are_updated_at_every_pass() {
    let sc = Sc::new()
        .capacity(G5, 1)
        .share(reserve("S", G5, 1))
        .job(job("a", "S").dur(100))
        .job(job("b", "S").at(1).dur(100))
        .job(job("c", "S").at(1).dur(100));
    let h = sc.run_until(50);
    assert_eq!(h.reason("b"), Some(WAIT_QUOTA.to_string()));
    assert_eq!(h.reason("c"), Some(waiting_behind("b")));
    let h = sc.run_until(150);
    assert_eq!(h.reason("b"), None);
    assert_eq!(h.reason("c"), Some(WAIT_QUOTA.to_string()));
    let h = sc.run();
    assert_eq!(h.reason("c"), None);
}

#[test]
fn r16_hold_lapses_when_the_holder_is_no_longer_the_front_job() {
    // b_big holds from 10; b_hi becomes B's front job at 50, so b_big's hold lapses and b_hi
    // holds instead: the instance a0 frees at 100 goes to b_hi. At 100 A's a2 fits its quota
    // (not `free`) and holds; when b_hi ends at 110 that older hold takes the instance before
    // b_big (B's front job again) can hold it. b_big runs when a1 ends.
    let h = Sc::new()
        .capacity(G5, 2)
        .share(reserve("A", G5, 2))
        .share(reserve("B", G5, 2))
        .job(job("a0", "A").dur(100))
        .job(job("a1", "A").dur(1000))
        .job(job("b_big", "B").count(2).at(10).dur(100))
        .job(job("b_hi", "B").prio(5).at(50).dur(10))
        .job(job("a2", "A").at(60).dur(10))
        .run();
    assert_eq!(h.first_started("b_hi"), Some(100));
    assert_eq!(h.first_started("a2"), Some(110));
    assert_eq!(h.first_started("b_big"), Some(1000));
}

#[test]
fn r16_oldest_hold_takes_newly_free_instances_first() {
    // a2 holds from 60 (fits A's quota, not `free`); when b0 ends at 110, a2 takes the
    // instance even though B (usage 0 of 2) comes first in the pass order.
    let h = Sc::new()
        .capacity(G5, 2)
        .share(reserve("A", G5, 2))
        .share(reserve("B", G5, 2))
        .job(job("a1", "A").dur(1000))
        .job(job("b0", "B").dur(110))
        .job(job("b_big", "B").count(2).at(10).dur(100))
        .job(job("a2", "A").at(60).dur(10))
        .run();
    assert_eq!(h.first_started("a2"), Some(110));
    assert_eq!(h.first_started("b_big"), Some(1000));
}

#[test]
fn r16_within_quota_phase_comes_before_borrowing() {
    // At 100 one pool instance frees; B (within its quota) gets it before borrower C, even
    // though C's job was submitted earlier.
    let h = Sc::new()
        .capacity(G5, 3)
        .share(lab("C", G5, 1))
        .share(lend("B", G5, 1))
        .share(lend("L", G5, 1))
        .job(job("c0", "C").dur(10_000))
        .job(job("l0", "L").dur(100))
        .job(job("b0", "B").dur(10_000))
        .job(job("c1", "C").at(10).dur(10))
        .job(job("b1", "B").at(20).dur(10))
        .job(job("l1", "L").at(30).dur(10))
        .run_until(100);
    // l0 ends at 100: L's own l1 (within quota) is dispatched; c1 keeps waiting.
    assert_eq!(h.first_started("l1"), Some(100));
    assert!(h.attempts("c1").is_empty());
}

#[test]
fn r16_usage_ratio_is_per_front_job_type() {
    // A uses 3 of its 4 P5 but none of its G5; for G5 front jobs A (0 of 1) ties with B
    // (0 of 1) and goes first by input order.
    let h = Sc::new()
        .capacity(G5, 1)
        .capacity(P5, 4)
        .share(reserve("A", G5, 1).limit(P5, 4))
        .share(reserve("B", G5, 1))
        .jobs(3, |i| job(&format!("p{i}"), "A").ty(P5).dur(10_000))
        .job(job("b", "B").at(10).dur(100))
        .job(job("a", "A").at(10).dur(100))
        .run_until(10);
    assert_eq!(h.status("a"), Some(Running));
    assert_eq!(h.status("b"), Some(Runnable));
}

#[test]
fn r15_lend_and_borrow_shares_lend_their_idle_quota_too() {
    // B1 (LEND_AND_BORROW) is idle; B2 borrows from it.
    let h = Sc::new()
        .capacity(G5, 3)
        .share(lab("B1", G5, 2))
        .share(lab("B2", G5, 1))
        .jobs(3, |i| job(&format!("b2_{i}"), "B2").dur(100))
        .run_until(1);
    let b2 = h.share_usage("B2", G5);
    assert_eq!((b2.usage, b2.borrowed), (3, 2));
    let from: Vec<(String, u64)> =
        b2.borrowed_from.iter().map(|f| (f.quota_share_name.clone(), f.instances)).collect();
    assert_eq!(from, vec![("B1".to_string(), 2)]);
    assert_eq!(h.share_usage("B1", G5).lent, 2);
}

#[test]
fn r16_preemption_phase_in_share_order() {
    // Two lenders short of the pool at the same instant: L2 (0 of 1) comes before L1 (1 of 2)
    // and so picks first: it takes the lowest-priority victim b_x2.
    let h = Sc::new()
        .capacity(G5, 4)
        .share(lend("L1", G5, 2))
        .share(lend("L2", G5, 1))
        .share(lab("B", G5, 1))
        .job(job("l1a", "L1").dur(100_000))
        .job(job("b_own", "B").prio(9).dur(100_000))
        .job(job("b_x1", "B").prio(1).dur(100_000))
        .job(job("b_x2", "B").dur(100_000))
        .job(job("l1b", "L1").at(100).dur(100))
        .job(job("l2", "L2").at(100).dur(100))
        .run_until(300);
    assert_eq!(sorted(h.victims()), vec!["b_x1", "b_x2"]);
    let by = |v: &str| h.preemption_events(v, EventType::PreemptionStarted)[0].preempted_by.clone().flatten();
    assert_eq!(by("b_x2").as_deref(), Some("l2"));
    assert_eq!(by("b_x1").as_deref(), Some("l1b"));
    assert_eq!(h.first_started("l1b"), Some(220));
    assert_eq!(h.first_started("l2"), Some(220));
}

#[test]
fn r10_zero_grace_in_share_preemption_completes_in_the_instant() {
    let h = Sc::new()
        .capacity(G5, 1)
        .grace(0)
        .share(reserve("A", G5, 1).in_share(true))
        .job(job("lo", "A").dur(1000))
        .job(job("hi", "A").prio(5).at(100).dur(100))
        .run();
    assert_eq!(h.spans("hi"), vec![(100, Some(200))]);
    assert_eq!(h.spans("lo"), vec![(0, Some(100)), (200, Some(1200))]);
}

#[test]
fn r16_a_hold_ends_when_its_holder_can_never_run() {
    // a (4 instances, within A's quota of 5) holds the 3 free instances (R16, oversubscribed
    // quotas). At 20 the service environment's limit falls to 3, below a's count: a can never
    // run (R17), so its hold ends and c takes the one free instance at 30. A hold that
    // outlived its holder's chance to run would keep c waiting for ever.
    for backfill in [false, true] {
        let h = Sc::new()
            .backfill(backfill)
            .capacity(G5, 5)
            .share(reserve("A", G5, 5))
            .share(reserve("B", G5, 3))
            .share(reserve("C", G5, 1))
            .job(job("b", "B").count(2).dur(1000))
            .job(job("a", "A").count(4).at(10).dur(100))
            .job(job("c", "C").at(30).dur(100))
            .update_capacity(20, &[(G5, 3)])
            .run();
        assert_eq!(h.first_started("c"), Some(30), "backfill {backfill}");
        assert_eq!(h.first_started("a"), None);
        assert_eq!(h.reason("a").as_deref(), Some(MISCONFIG_SE));
    }
}
