//! R12, R17, R21: the wait breakdown (`runnableSecondsByCause`) on small scenarios whose causes
//! are worked out by hand, per job and per share in the summary. (The property tests check
//! that it adds up on random scenarios.)

use quotasim::result::Status;
use quotasim_tests::*;

/// A job's non-zero causes as `(key, seconds)`, in the results' order.
fn causes(h: &H, name: &str) -> Vec<(&'static str, u64)> {
    h.job(name).runnable_seconds_by_cause.nonzero().map(|(c, s)| (c.key(), s)).collect()
}

/// A share's summary totals, non-zero only.
fn share_causes(h: &H, share: &str) -> Vec<(&'static str, u64)> {
    let summary = h.summary();
    let m = &summary.per_quota_share.iter().find(|(n, _)| n == share).expect("share").1;
    m.runnable_seconds_by_cause.nonzero().map(|(c, s)| (c.key(), s)).collect()
}

#[test]
fn r12_r17_wait_breakdown_behind_a_higher_priority_job_and_quota_used() {
    // One instance, a RESERVE share. `a` runs 0-100. `b` (priority 0) waits for the quota
    // from 10; `c` (priority 5) arrives at 20 and is the front job, `b` behind it; at 50 `b`
    // is raised to 9 and is the front job again, `c` behind it. At 100 `b` runs (to 150),
    // then `c`.
    let h = Sc::new()
        .capacity(G5, 1)
        .share(reserve("A", G5, 1))
        .job(job("a", "A").dur(100))
        .job(job("b", "A").at(10).dur(50))
        .job(job("c", "A").at(20).prio(5).dur(30))
        .set_priority(50, "b", 9)
        .run();
    assert_eq!(h.first_started("b"), Some(100));
    assert_eq!(h.first_started("c"), Some(150));
    assert_eq!(causes(&h, "a"), []);
    // b: quota 10-20 and 50-100, behind c 20-50.
    assert_eq!(causes(&h, "b"), [("quotaUsed", 60), ("behind", 30)]);
    // c: quota 20-50 and 100-150, behind b 50-100.
    assert_eq!(causes(&h, "c"), [("quotaUsed", 80), ("behind", 50)]);
    assert_eq!(share_causes(&h, "A"), [("quotaUsed", 140), ("behind", 80)]);
}

#[test]
fn r14_r17_wait_breakdown_borrow_limit_and_a_share_that_cannot_borrow() {
    // Pool: L 1 + B 1 + M 2 = 4 = the service environment. At 0 `b1` and `l1` run on their
    // quotas and `b2` borrows; `b3` is then at B's allowance (borrowLimit 100: 1 instance)
    // and `l2` is at L's quota while the pool and free have room, which a LEND share cannot
    // borrow. At 100 `b1` and `b2` end and `b3` runs; `l2` runs when `l1` ends at 200.
    let h = Sc::new()
        .capacity(G5, 4)
        .share(lend("L", G5, 1))
        .share(lab("B", G5, 1).borrow_limit(100))
        .share(lend("M", G5, 2))
        .job(job("b1", "B").dur(100))
        .job(job("b2", "B").dur(100))
        .job(job("b3", "B").dur(100))
        .job(job("l1", "L").dur(200))
        .job(job("l2", "L").dur(50))
        .run();
    assert_eq!(h.first_started("b2"), Some(0));
    assert_eq!(h.first_started("b3"), Some(100));
    assert_eq!(h.first_started("l2"), Some(200));
    assert_eq!(causes(&h, "b2"), []);
    assert_eq!(causes(&h, "b3"), [("borrowLimit", 100)]);
    assert_eq!(causes(&h, "l2"), [("cannotBorrow", 200)]);
    assert_eq!(share_causes(&h, "B"), [("borrowLimit", 100)]);
    assert_eq!(share_causes(&h, "L"), [("cannotBorrow", 200)]);
}

#[test]
fn r13_r17_wait_breakdown_the_pool_in_use_and_behind() {
    // Pool: L 1 + B 1 + U 1 = 3 = the service environment, all used on own quotas at 0, so
    // `b2` and `u2` wait for the pool (`b3` behind `b2`) and `l2` for L's quota. At 100 `b1`
    // and `u1` end: `b2` and `u2` run on their quotas and `b3` waits for the pool until 200,
    // when everything else ends.
    let h = Sc::new()
        .capacity(G5, 3)
        .share(lend("L", G5, 1))
        .share(lab("B", G5, 1))
        .share(lab("U", G5, 1))
        .job(job("b1", "B").dur(100))
        .job(job("b2", "B").dur(100))
        .job(job("b3", "B").dur(100))
        .job(job("l1", "L").dur(200))
        .job(job("l2", "L").dur(50))
        .job(job("u1", "U").dur(100))
        .job(job("u2", "U").dur(100))
        .run();
    assert_eq!(h.first_started("b3"), Some(200));
    assert_eq!(causes(&h, "b2"), [("pool", 100)]);
    assert_eq!(causes(&h, "b3"), [("pool", 100), ("behind", 100)]);
    assert_eq!(causes(&h, "u2"), [("pool", 100)]);
    assert_eq!(causes(&h, "l2"), [("quotaUsed", 200)]);
    assert_eq!(share_causes(&h, "B"), [("pool", 200), ("behind", 100)]);
}

#[test]
fn r17_r21_wait_breakdown_preemption_in_progress_and_a_job_that_can_never_run() {
    // `a2` borrows C's idle instance; `c1` reclaims it at 100 and waits the 120 s grace
    // period; `a2` is back at 220 and waits for the pool until `c1` ends at 320, then runs
    // again from zero (to 1320). `x` needs more instances than the service environment has:
    // it counts `misconfiguration` all along, to the end of the run.
    let h = Sc::new()
        .capacity(G5, 2)
        .grace(120)
        .share(lab("A", G5, 1))
        .share(lend("C", G5, 1))
        .job(job("a1", "A").dur(1000))
        .job(job("a2", "A").dur(1000))
        .job(job("x", "A").count(5).dur(10))
        .job(job("c1", "C").at(100).dur(100))
        .run();
    assert_eq!(h.spans("a2"), [(0, Some(220)), (320, Some(1320))]);
    assert_eq!(h.first_started("c1"), Some(220));
    assert_eq!(h.status("x"), Some(Status::Runnable));
    assert_eq!(h.ended_at(), 1320);
    assert_eq!(causes(&h, "a2"), [("pool", 100)]);
    assert_eq!(causes(&h, "c1"), [("preemptionInProgress", 120)]);
    assert_eq!(causes(&h, "x"), [("misconfiguration", 1320)]);
    assert_eq!(share_causes(&h, "A"), [("pool", 100), ("misconfiguration", 1320)]);
    assert_eq!(share_causes(&h, "C"), [("preemptionInProgress", 120)]);
}

#[test]
fn r22_r28_wait_breakdown_a_lowered_limit_and_a_live_state() {
    // Live state at 1000: `a` (2 instances) has run since 900; `q` was queued at 500. At
    // 1000 A's quota is lowered to 1: A is over quota because of the update until `a` ends
    // at 1100, and `q` counts from `startAt` only.
    let h = Sc::new()
        .capacity(G5, 2)
        .start_at(1000)
        .share(reserve("A", G5, 2))
        .job(job("a", "A").count(2).at(800).started(900).dur(200))
        .job(job("q", "A").at(500).dur(10))
        .update_share(1000, update("A").limits(&[(G5, 1)]))
        .run();
    assert_eq!(h.first_started("q"), Some(1100));
    assert_eq!(causes(&h, "a"), []);
    assert_eq!(causes(&h, "q"), [("limitLowered", 100)]);
}
