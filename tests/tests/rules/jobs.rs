//! R5-R9: job fields, states, preempted jobs, checkpoints, timeouts.

use quotasim::result::{EventType, Status};
use quotasim_tests::*;

use Status::*;

/// Two instances; `A` (LEND_AND_BORROW, quota 1) runs `a_hi` on its quota and `victim`
/// borrowed from `B` (LEND, quota 1); `B`'s job `b` arrives at `b_at` and reclaims.
fn reclaim_setup(victim: JobB, b_at: i64, b_dur: i64) -> Sc {
    Sc::new()
        .capacity(G5, 2)
        .share(lab("A", G5, 1))
        .share(lend("B", G5, 1))
        .job(job("a_hi", "A").prio(1).dur(100_000))
        .job(victim)
        .job(job("b", "B").at(b_at).dur(b_dur))
}

#[test]
fn r5_defaults_priority_zero_and_one_instance() {
    let mut s = Sc::new().capacity(G5, 2).share(reserve("A", G5, 2)).build();
    let mut j = quotasim::model::Job::new("x", "A", G5, 1, 0, 10);
    j.instance_count = None;
    s.jobs.push(j);
    let v = quotasim::validate(&s).expect("valid");
    assert_eq!(v.jobs[0].priority, 0);
    assert_eq!(v.jobs[0].count, 1);
    assert_eq!(v.jobs[0].checkpoint_interval, None);
    assert_eq!(v.jobs[0].timeout, None);
    assert_eq!(v.jobs[0].retries, None, "absent retries means unlimited");
}

#[test]
fn r6_states_in_order_with_scheduled_and_starting_times() {
    let sc = Sc::new()
        .capacity(G5, 1)
        .share(reserve("A", G5, 1))
        .scheduled(10)
        .starting(20)
        .job(job("j", "A").at(5).dur(100))
        .job(job("k", "A").at(6).dur(50));
    let h = sc.run();
    assert_eq!(
        h.states("j"),
        vec![(5, Submitted), (5, Runnable), (5, Scheduled), (15, Starting), (35, Running), (135, Succeeded)]
    );
    assert_eq!(h.spans("j"), vec![(5, Some(135))]);
    assert_eq!(h.first_started("j"), Some(5));
    assert_eq!(h.stopped_at("j"), Some(135));
    // `k` waits for j's instance, held from SCHEDULED until j leaves RUNNING.
    assert_eq!(h.first_started("k"), Some(135));
    assert_eq!(h.stopped_at("k"), Some(135 + 30 + 50));
    assert_eq!(h.trained("j"), 100);
}

#[test]
fn r6_capacity_held_from_scheduled_and_no_training_before_running() {
    let sc = Sc::new()
        .capacity(G5, 1)
        .share(reserve("A", G5, 1))
        .scheduled(10)
        .starting(20)
        .job(job("j", "A").at(5).dur(100));
    let mut h = sc.sim();
    h.until(5);
    assert_eq!(h.status("j"), Some(Scheduled));
    assert_eq!(h.used("A", G5), 1);
    assert_eq!(h.trained("j"), 0);
    h.until(15);
    assert_eq!(h.status("j"), Some(Starting));
    assert_eq!(h.used("A", G5), 1);
    assert_eq!(h.trained("j"), 0);
    h.until(35);
    assert_eq!(h.status("j"), Some(Running));
    h.until(100);
    assert_eq!(h.trained("j"), 65);
    h.until(135);
    assert_eq!(h.status("j"), Some(Succeeded));
    assert_eq!(h.used("A", G5), 0);
}

#[test]
fn r6_zero_scheduled_and_starting_still_passes_through_every_state() {
    let h = Sc::new().capacity(G5, 1).share(reserve("A", G5, 1)).job(job("j", "A").dur(7)).run();
    let statuses: Vec<Status> = h.states("j").into_iter().map(|(_, s)| s).collect();
    assert_eq!(statuses, vec![Submitted, Runnable, Scheduled, Starting, Running, Succeeded]);
    assert_eq!(h.time_of("j", Running), Some(0));
    assert_eq!(h.time_of("j", Succeeded), Some(7));
}

#[test]
fn r6_submission_to_disabled_share_fails_with_an_error_event() {
    let h = Sc::new()
        .capacity(G5, 2)
        .share(reserve("A", G5, 1).disabled())
        .share(reserve("B", G5, 1))
        .job(job("x", "A").at(10))
        .job(job("y", "B").at(10).dur(5))
        .run();
    assert_eq!(h.status("x"), Some(Failed));
    assert!(h.attempts("x").is_empty(), "a rejected job never runs");
    let reason = h.reason("x").expect("a clear reason");
    assert!(!reason.is_empty());
    let failed = h.events_of("x").into_iter().find(|e| e.status == Some(Failed)).expect("a FAILED event");
    assert_eq!(failed.at, 10);
    assert!(failed.status_reason.as_deref().is_some_and(|r| !r.is_empty()), "the event says why");
    assert_eq!(h.status("y"), Some(Succeeded));
}

#[test]
fn r7_preempted_job_requeues_with_count_and_attempt_record() {
    // t=0: a_hi on A's quota, v borrows B's idle instance; t=100: b reclaims it; grace 120.
    let h = reclaim_setup(job("v", "A").dur(1000), 100, 100).run();
    assert_eq!(h.preempted_count("v"), 1);
    let a = h.attempts("v");
    assert_eq!(a[0].started_at, 0);
    assert_eq!(a[0].stopped_at, Some(220));
    assert_eq!(a[0].status_reason.as_deref(), Some(CROSS_SHARE));
    assert_eq!(a[0].borrowed_instances, 1);
    let rec = h.job("v").preemption_summary.recent_preempted_attempts;
    assert_eq!(rec.len(), 1);
    assert_eq!((rec[0].started_at, rec[0].stopped_at), (0, 220));
    assert_eq!(rec[0].status_reason, CROSS_SHARE);
    // Back to RUNNABLE at 220; b runs 220..320; v borrows again at 320 and restarts from 0.
    assert!(h.states("v").contains(&(220, Runnable)));
    assert_eq!(h.first_started("b"), Some(220));
    assert_eq!(a[1].started_at, 320);
    assert_eq!(h.status("v"), Some(Succeeded));
    assert_eq!(h.stopped_at("v"), Some(1320));
}

#[test]
fn r7_requeued_job_keeps_its_submission_time_for_ordering() {
    // a3 is submitted after v with the same priority; after v's preemption v goes first.
    let sc = reclaim_setup(job("v", "A").dur(10_000), 100, 100).job(job("a3", "A").at(50).dur(10_000));
    let h = sc.run_until(400);
    assert_eq!(h.spans("v"), vec![(0, Some(220)), (320, None)]);
    assert_eq!(h.status("a3"), Some(Runnable));
    assert!(h.attempts("a3").is_empty());
}

#[test]
fn r7_retry_limit_zero_fails_on_first_preemption() {
    let h = reclaim_setup(job("v", "A").dur(1000).retries(0), 100, 100).run();
    assert_eq!(h.status("v"), Some(Failed));
    assert_eq!(h.reason("v"), Some(retry_limit(CROSS_SHARE)));
    assert_eq!(h.stopped_at("v"), Some(220));
    assert_eq!(h.time_of("v", Failed), Some(220));
    assert_eq!(h.spans("v"), vec![(0, Some(220))]);
    assert!(!h.states("v").iter().any(|(t, s)| *t >= 100 && *s == Runnable), "never requeued");
    assert_eq!(h.first_started("b"), Some(220));
}

#[test]
fn r7_retry_limit_one_requeues_once_then_fails() {
    // b preempts v at 100 (release 220), runs 220..320; v borrows again at 320;
    // b2 preempts it again at 400 (release 520): the second preemption ends it.
    let sc =
        reclaim_setup(job("v", "A").dur(100_000).retries(1), 100, 100).job(job("b2", "B").at(400).dur(10));
    let h = sc.run();
    assert_eq!(h.spans("v"), vec![(0, Some(220)), (320, Some(520))]);
    assert_eq!(h.status("v"), Some(Failed));
    assert_eq!(h.reason("v"), Some(retry_limit(CROSS_SHARE)));
    assert_eq!(h.stopped_at("v"), Some(520));
    let completed = h.preemption_events("v", EventType::PreemptionCompleted);
    assert_eq!(completed.len(), 2);
    assert_eq!(completed[0].preempted_attempt_count, Some(1));
    assert_eq!(completed[1].preempted_attempt_count, Some(2));
    assert_eq!(h.preempted_count("v"), 2);
    assert_eq!(h.first_started("b2"), Some(520));
}

#[test]
fn r7_unlimited_retries_by_default() {
    // Preempted three times, still succeeds.
    let sc = reclaim_setup(job("v", "A").dur(1000), 100, 100)
        .job(job("b2", "B").at(400).dur(10))
        .job(job("b3", "B").at(700).dur(10));
    let h = sc.run();
    assert_eq!(h.preempted_count("v"), 3);
    assert_eq!(h.status("v"), Some(Succeeded));
}

/// The format spec's example: duration 4000, checkpoint every 300, told to stop at 700.
fn checkpoint_setup(v: JobB) -> Sc {
    reclaim_setup(v, 700, 1080)
}

#[test]
fn r8_checkpoint_keeps_saved_progress_and_loses_the_rest() {
    let h = checkpoint_setup(job("v", "A").dur(4000).ckpt(300)).run();
    // Saved 600 at the last checkpoint, lost 100; releases at 820; b runs 820..1900.
    assert_eq!(h.lost("v"), 100);
    assert_eq!(h.spans("v"), vec![(0, Some(820)), (1900, Some(5300))]);
    assert_eq!(h.trained("v"), 4000 + 100);
    let started = h.preemption_events("v", EventType::PreemptionStarted);
    assert_eq!(started[0].at, 700);
    assert_eq!(started[0].lost_work_seconds, Some(100));
}

#[test]
fn r8_without_checkpoint_all_training_of_the_attempt_is_lost() {
    let h = checkpoint_setup(job("v", "A").dur(4000)).run();
    assert_eq!(h.lost("v"), 700);
    assert_eq!(h.spans("v"), vec![(0, Some(820)), (1900, Some(5900))]);
    assert_eq!(h.trained("v"), 4700);
}

#[test]
fn r8_without_checkpoint_checkpoint_on_stop_does_not_save() {
    let h = checkpoint_setup(job("v", "A").dur(4000)).checkpoint_on_stop(true).run();
    assert_eq!(h.lost("v"), 700);
}

#[test]
fn r8_checkpoint_on_stop_saves_everything_when_grace_allows() {
    let h = checkpoint_setup(job("v", "A").dur(4000).ckpt(300))
        .checkpoint_on_stop(true)
        .checkpoint_save(30)
        .run();
    assert_eq!(h.lost("v"), 0);
    // Training stops at 700 (the stop signal) even though the instance is held until 820.
    assert_eq!(h.spans("v"), vec![(0, Some(820)), (1900, Some(5200))]);
    assert_eq!(h.trained("v"), 4000);
}

#[test]
fn r8_checkpoint_on_stop_with_grace_equal_to_save_time_saves() {
    let h = checkpoint_setup(job("v", "A").dur(4000).ckpt(300))
        .checkpoint_on_stop(true)
        .checkpoint_save(120)
        .run();
    assert_eq!(h.lost("v"), 0);
}

#[test]
fn r8_checkpoint_on_stop_with_grace_shorter_than_save_time_loses_work() {
    // Grace 20 < save 30: no save at the stop signal. Release at 720, b runs 720..1800.
    let h = checkpoint_setup(job("v", "A").dur(4000).ckpt(300))
        .checkpoint_on_stop(true)
        .checkpoint_save(30)
        .grace(20)
        .run();
    assert_eq!(h.lost("v"), 100);
    assert_eq!(h.spans("v"), vec![(0, Some(720)), (1800, Some(5200))]);
}

#[test]
fn r8_checkpoints_count_training_time_not_scheduled_or_starting_time() {
    // Dispatched at 0, RUNNING at 30: at the stop (700) it trained 670, saved 600, lost 70.
    let h = checkpoint_setup(job("v", "A").dur(4000).ckpt(300)).scheduled(10).starting(20).run();
    assert_eq!(h.lost("v"), 70);
    // b: 820 + 30 + 1080 = 1930; v again at 1930, runs 30 + 3400.
    assert_eq!(h.spans("v"), vec![(0, Some(820)), (1930, Some(1930 + 30 + 3400))]);
}

#[test]
fn r8_checkpoints_restart_counting_with_each_attempt() {
    // Attempt 1: 0..700 saves 600 (lost 100). Attempt 2 from 1900: b2 stops it at 2350,
    // 450 s into the attempt: checkpoint at 300 s of the attempt saves 900 in total, lost 150.
    let sc = checkpoint_setup(job("v", "A").dur(4000).ckpt(300)).job(job("b2", "B").at(2350).dur(10));
    let h = sc.run();
    assert_eq!(h.lost("v"), 250);
    let started = h.preemption_events("v", EventType::PreemptionStarted);
    assert_eq!(started.len(), 2);
    assert_eq!(started[1].at, 2350);
    assert_eq!(started[1].lost_work_seconds, Some(150));
    // Release 2470; b2 runs 2470..2480; v back at 2480 needing 4000 - 900 = 3100.
    assert_eq!(h.spans("v")[2], (2480, Some(5580)));
    assert_eq!(h.trained("v"), 4000 + 250);
}

#[test]
fn r8_stop_exactly_at_a_checkpoint_loses_nothing() {
    let h = reclaim_setup(job("v", "A").dur(4000).ckpt(350), 700, 10).run();
    assert_eq!(h.lost("v"), 0);
}

#[test]
fn r9_timeout_fails_the_job() {
    let h =
        Sc::new().capacity(G5, 1).share(reserve("A", G5, 1)).job(job("j", "A").dur(1000).timeout(500)).run();
    assert_eq!(h.status("j"), Some(Failed));
    assert_eq!(h.reason("j"), Some(TIMEOUT.to_string()));
    assert_eq!(h.stopped_at("j"), Some(500));
}

#[test]
fn r9_timeout_equal_to_remaining_work_is_success() {
    let h =
        Sc::new().capacity(G5, 1).share(reserve("A", G5, 1)).job(job("j", "A").dur(500).timeout(500)).run();
    assert_eq!(h.status("j"), Some(Succeeded));
    assert_eq!(h.stopped_at("j"), Some(500));
    assert_eq!(h.reason("j"), None);
}

#[test]
fn r9_timeout_counts_running_time_only() {
    let h = Sc::new()
        .capacity(G5, 1)
        .share(reserve("A", G5, 1))
        .scheduled(10)
        .starting(20)
        .job(job("j", "A").dur(1000).timeout(500))
        .job(job("k", "A").dur(500).timeout(500))
        .run();
    assert_eq!(h.status("j"), Some(Failed));
    assert_eq!(h.stopped_at("j"), Some(530));
    // k dispatched at 530, RUNNING at 560, done at 1060: success.
    assert_eq!(h.status("k"), Some(Succeeded));
    assert_eq!(h.stopped_at("k"), Some(1060));
}

#[test]
fn r9_timeout_frees_capacity() {
    let h = Sc::new()
        .capacity(G5, 1)
        .share(reserve("A", G5, 1))
        .job(job("j", "A").dur(1000).timeout(300))
        .job(job("k", "A").dur(10))
        .run();
    assert_eq!(h.first_started("k"), Some(300));
}

#[test]
fn r9_timeout_is_per_attempt() {
    // Attempt 1 trains 700 (saved 600) before its preemption; attempt 2 needs 3400 < 3500.
    let h = checkpoint_setup(job("v", "A").dur(4000).ckpt(300).timeout(3500)).run();
    assert_eq!(h.status("v"), Some(Succeeded));
    let h = checkpoint_setup(job("v", "A").dur(4000).ckpt(300).timeout(3400)).run();
    assert_eq!(h.status("v"), Some(Succeeded), "timeout equal to the remaining work");
    let h = checkpoint_setup(job("v", "A").dur(4000).ckpt(300).timeout(3399)).run();
    assert_eq!(h.status("v"), Some(Failed));
    assert_eq!(h.stopped_at("v"), Some(1900 + 3399));
}

#[test]
fn r6_running_job_has_no_status_reason() {
    let h = Sc::new().capacity(G5, 1).share(reserve("A", G5, 1)).job(job("j", "A").dur(100)).run_until(50);
    assert_eq!(h.status("j"), Some(Running));
    assert_eq!(h.reason("j"), None);
}

#[test]
fn r8_lost_work_in_preemption_events_with_checkpoint_on_stop() {
    let h = checkpoint_setup(job("v", "A").dur(4000).ckpt(300)).checkpoint_on_stop(true).run();
    let s = h.preemption_events("v", EventType::PreemptionStarted);
    assert_eq!(s[0].lost_work_seconds, Some(0));
}

#[test]
fn horizon_setting_stops_the_run() {
    let h = Sc::new()
        .capacity(G5, 1)
        .share(reserve("A", G5, 1))
        .job(job("a", "A").dur(100))
        .job(job("b", "A").at(10).dur(100))
        .job(job("c", "A").at(500).dur(100))
        .horizon(150)
        .run();
    assert_eq!(h.now(), 150);
    assert_eq!(h.result().ended_at, 150);
    assert_eq!(h.status("a"), Some(Succeeded));
    assert_eq!(h.status("b"), Some(Running));
    assert_eq!(h.status("c"), None, "not yet submitted");
}

#[test]
fn r7_retry_limit_message_names_the_in_share_reason() {
    let h = Sc::new()
        .capacity(G5, 1)
        .share(reserve("A", G5, 1).in_share(true))
        .job(job("lo", "A").dur(1000).retries(0))
        .job(job("hi", "A").prio(5).at(100).dur(10))
        .run();
    assert_eq!(h.status("lo"), Some(Failed));
    assert_eq!(h.reason("lo"), Some(retry_limit(IN_SHARE)));
    assert_eq!(h.first_started("hi"), Some(220));
}

#[test]
fn r9_timeout_of_a_later_attempt_after_checkpoint_resume_uses_that_attempt_only() {
    // Timeout 800 per attempt; attempt 1 trains 700 (< 800) before its preemption.
    let h = checkpoint_setup(job("v", "A").dur(1000).ckpt(300).timeout(800)).run();
    // Saved 600, needs 400 more from 1900: success at 2300.
    assert_eq!(h.status("v"), Some(Succeeded));
    assert_eq!(h.stopped_at("v"), Some(2300));
}

#[test]
fn r7_in_share_victim_with_no_retries_fails() {
    let h = Sc::new()
        .capacity(G5, 2)
        .share(reserve("A", G5, 2).in_share(true))
        .job(job("lo1", "A").dur(1000).retries(0))
        .job(job("lo2", "A").dur(1000).at(1).retries(0))
        .job(job("hi", "A").prio(5).at(100).dur(10))
        .run();
    // lo2 is the most recently dispatched: it is the victim and fails; lo1 is untouched.
    assert_eq!(h.victims(), vec!["lo2"]);
    assert_eq!(h.status("lo1"), Some(Succeeded));
    assert_eq!(h.status("lo2"), Some(Failed));
    assert_eq!(h.reason("lo2"), Some(retry_limit(IN_SHARE)));
}

#[test]
fn r8_lost_work_counts_from_the_stop_signal_when_terminated_during_grace() {
    let sc = Sc::new()
        .capacity(G5, 2)
        .share(lab("A", G5, 1))
        .share(lend("B", G5, 1))
        .job(job("a_hi", "A").prio(1).dur(100_000))
        .job(job("v", "A").dur(100_000).ckpt(30))
        .job(job("b", "B").at(100).dur(1000));
    // Told to stop at 100 with 10 s since its last checkpoint (at 90).
    let h = sc.clone().terminate(150, "v", "manual").run_until(300);
    assert_eq!(h.status("v"), Some(Failed));
    assert_eq!(h.lost("v"), 10);
    // The run ends inside the grace period: the lost work is already counted.
    let h = sc.run_until(150);
    assert_eq!(h.status("v"), Some(Running));
    assert!(h.is_being_preempted(h.id("v")));
    assert_eq!(h.lost("v"), 10);
    assert_eq!(h.summary().overall.lost_instance_seconds, 10);
}
