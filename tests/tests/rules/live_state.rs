//! R28: a scenario that starts from a live state: the run begins at `settings.startAt`, jobs
//! already dispatched hold their instances in that attempt, jobs submitted before wait in
//! their queues, and results list what happens from `startAt` on.

use quotasim::model::Strategy;
use quotasim::result::{EventType, Status};
use quotasim_tests::*;

use Status::*;

#[test]
fn r28_the_first_instant_is_start_at_and_nothing_happens_before() {
    // q was submitted at 500, before the run begins at 1000: it is RUNNABLE at 1000 with no
    // event of its submission, and is dispatched there.
    let h = Sc::new()
        .start_at(1000)
        .capacity(G5, 1)
        .share(reserve("A", G5, 1))
        .job(job("q", "A").at(500).dur(100))
        .sim();
    let mut h = h;
    assert_eq!(h.now(), 1000);
    assert_eq!(h.status("q"), Some(Runnable));
    assert_eq!(h.step(), Some(1000), "the first instant visited is startAt");
    assert_eq!(h.states("q"), vec![(1000, Scheduled), (1000, Starting), (1000, Running)]);
    h.run();
    assert_eq!(h.spans("q"), vec![(1000, Some(1100))]);
    assert_eq!(h.job("q").submit_at, 500);
}

#[test]
fn r28_start_at_gets_passes_even_when_nothing_else_happens_there() {
    // r holds the only instance; w waits; at startAt nothing is due, yet the instant is
    // visited and w's reason is computed there.
    let mut h = Sc::new()
        .start_at(1000)
        .capacity(G5, 1)
        .share(reserve("A", G5, 1))
        .job(job("r", "A").at(0).started(0).dur(5000))
        .job(job("w", "A").at(10).dur(100))
        .sim();
    assert_eq!(h.step(), Some(1000));
    assert_eq!(h.stats().passes, 1);
    assert_eq!(h.reason("w").as_deref(), Some(WAIT_QUOTA));
}

#[test]
fn r28_a_started_job_holds_its_instances_and_ends_on_its_remaining_work() {
    // r was dispatched at 400 and needs 1000 s: it completes at 1400. The attempt in progress
    // is listed with its startedAt; nothing before startAt is an event.
    let h = Sc::new()
        .start_at(1000)
        .capacity(G5, 1)
        .share(reserve("A", G5, 1))
        .share(reserve("B", G5, 1))
        .job(job("r", "A").started(400).dur(1000))
        .job(job("b", "B").at(1000).dur(10))
        .run();
    assert_eq!(h.spans("r"), vec![(400, Some(1400))]);
    assert_eq!(h.states("r"), vec![(1400, Succeeded)]);
    assert_eq!(h.first_started("b"), Some(1400), "r held an instance from startAt on");
    assert!(h.events().iter().all(|e| e.at >= 1000));
}

#[test]
fn r28_scheduled_and_starting_times_continue_from_started_at() {
    // Dispatched at 950 with 60 s SCHEDULED and 30 s STARTING: at 1000 it is SCHEDULED, it
    // starts at 1010, runs at 1040 and trains its 100 s until 1140.
    let h = Sc::new()
        .start_at(1000)
        .scheduled(60)
        .starting(30)
        .capacity(G5, 1)
        .share(reserve("A", G5, 1))
        .job(job("r", "A").started(950).dur(100))
        .run();
    assert_eq!(h.states("r"), vec![(1010, Starting), (1040, Running), (1140, Succeeded)]);
}

#[test]
fn r28_checkpoints_and_lost_work_count_the_attempt_in_progress() {
    // r trains from 0 (checkpoints every 300 s). At 1100 a lender's job reclaims it: it had
    // trained 1100 s, saved 900, lost 200; it needs 5000 - 900 more.
    let h = Sc::new()
        .start_at(1000)
        .capacity(G5, 2)
        .share(lend("L", G5, 1))
        .share(lab("B", G5, 1))
        .job(job("own", "B").started(0).dur(100_000))
        .job(job("r", "B").started(0).dur(5000).ckpt(300))
        .job(job("l", "L").at(1100).dur(100))
        .run();
    let p = h.preemption_events("r", EventType::PreemptionStarted);
    assert_eq!(p.len(), 1);
    assert_eq!((p[0].at, p[0].lost_work_seconds), (1100, Some(200)));
    assert_eq!(h.lost("r"), 200);
    // Released at 1220, l runs until 1320, then r resumes from 900 s.
    assert_eq!(h.spans("r"), vec![(0, Some(1220)), (1320, Some(1320 + 4100))]);
}

#[test]
fn r28_previous_attempts_count_against_the_retry_limit_and_in_the_count() {
    // r was preempted once before (retry limit 1): the next preemption fails it, as the
    // second; its count includes the earlier one.
    let h = Sc::new()
        .start_at(1000)
        .capacity(G5, 2)
        .share(lend("L", G5, 1))
        .share(lab("B", G5, 1))
        .job(job("own", "B").started(900).dur(100_000))
        .job(job("r", "B").started(900).dur(5000).retries(1).previous(1))
        .job(job("l", "L").at(1100).dur(100))
        .run();
    assert_eq!(h.status("r"), Some(Failed));
    assert_eq!(h.preempted_count("r"), 2);
    assert!(h.reason("r").unwrap().starts_with("Preemption retry limit reached"));
}

#[test]
fn r28_a_queued_job_resumes_from_its_completed_work() {
    let h = Sc::new()
        .start_at(1000)
        .capacity(G5, 1)
        .share(reserve("A", G5, 1))
        .job(job("q", "A").at(10).dur(1000).ckpt(100).previous(1).done(600))
        .run();
    assert_eq!(h.spans("q"), vec![(1000, Some(1400))]);
    assert_eq!(h.preempted_count("q"), 1);
}

#[test]
fn r28_what_ended_before_start_at_ends_there_before_the_first_pass() {
    // done_job's work ended at 700 and late_job's timeout at 800: both release at 1000, and w
    // takes the instances in that instant's pass.
    let h = Sc::new()
        .start_at(1000)
        .capacity(G5, 2)
        .share(reserve("A", G5, 2))
        .job(job("done_job", "A").started(200).dur(500))
        .job(job("late_job", "A").started(200).dur(5000).timeout(600))
        .job(job("w", "A").count(2).at(300).dur(10))
        .run();
    assert_eq!((h.status("done_job"), h.stopped_at("done_job")), (Some(Succeeded), Some(1000)));
    assert_eq!((h.status("late_job"), h.stopped_at("late_job")), (Some(Failed), Some(1000)));
    assert_eq!(h.reason("late_job").as_deref(), Some(TIMEOUT));
    assert_eq!(h.first_started("w"), Some(1000));
}

#[test]
fn r28_usage_above_a_lowered_quota_is_over_quota_as_r22_says() {
    // A (RESERVE, quota 1) holds 2 at startAt: its limit was lowered. Nothing is preempted
    // then; when B's job needs free capacity at 100, it reclaims one of A's with "Capacity
    // limit reduced".
    let sc = Sc::new()
        .start_at(50)
        .capacity(G5, 3)
        .share(reserve("A", G5, 1))
        .share(reserve("B", G5, 2))
        .job(job("a1", "A").started(0).dur(10_000))
        .job(job("a2", "A").started(10).dur(10_000))
        .job(job("b", "B").count(2).at(100).dur(100));
    let h = sc.run_until(50);
    assert!(h.over_quota_by_update(h.share_id("A"), h.type_id(G5)));
    assert!(h.victims().is_empty());
    let h = sc.run_until(200);
    let p = h.preemption_events("a2", EventType::PreemptionStarted);
    assert_eq!(p.len(), 1, "{:?}", h.victims());
    assert_eq!(p[0].reason.as_deref(), Some(LIMIT_REDUCED));
    assert!(h.scenario().warnings.iter().any(|w| w.path == "quotaShares[0].capacityLimits"));
}

#[test]
fn r28_capacity_limit_reduced_marks_usage_borrowing_would_allow() {
    // B (LEND_AND_BORROW, unlimited) holds 2 against a quota of 1: R14 would allow it by
    // borrowing, but capacityLimitReduced says its quota was lowered: it is over quota by an
    // update, so L's job reclaims with "Capacity limit reduced".
    let sc = |reduced: bool| {
        let mut b = lab("B", G5, 1);
        if reduced {
            b = b.limit_reduced(G5);
        }
        Sc::new()
            .start_at(50)
            .capacity(G5, 2)
            .share(lend("L", G5, 1))
            .share(b)
            .job(job("b1", "B").started(0).dur(10_000))
            .job(job("b2", "B").started(10).dur(10_000))
            .job(job("l", "L").at(100).dur(100))
            .run_until(200)
    };
    let reason = |h: &H| h.preemption_events("b2", EventType::PreemptionStarted)[0].reason.clone();
    assert_eq!(reason(&sc(true)).as_deref(), Some(LIMIT_REDUCED));
    assert_eq!(reason(&sc(false)).as_deref(), Some(CROSS_SHARE));
}

#[test]
fn r28_a_service_environment_over_its_limit_gets_victims_at_start_at() {
    let h = Sc::new()
        .start_at(100)
        .capacity(G5, 1)
        .share(reserve("A", G5, 2))
        .job(job("a1", "A").started(0).dur(10_000))
        .job(job("a2", "A").started(50).dur(10_000))
        .run_until(300);
    let p = h.preemption_events("a2", EventType::PreemptionStarted);
    assert_eq!(p.len(), 1);
    assert_eq!((p[0].at, p[0].reason.as_deref()), (100, Some(LIMIT_REDUCED)));
    assert_eq!(p[0].preempted_by, Some(None));
}

#[test]
fn r28_results_count_from_start_at() {
    // From 1000: r (started 0) holds 1 of 2 instances until 2000, q (submitted at 500)
    // runs 1000-1500. Utilization counts from startAt; waits leave out r, which started
    // before; q waited from its submitAt; goodput counts only training after startAt.
    let h = Sc::new()
        .start_at(1000)
        .capacity(G5, 2)
        .share(reserve("A", G5, 2))
        .job(job("r", "A").started(0).dur(2000))
        .job(job("q", "A").at(500).dur(500))
        .run();
    let o = h.summary().overall;
    assert_eq!(h.summary_result().ended_at, 2000);
    assert_eq!(o.instance_seconds, 1000 + 500);
    assert_eq!(o.utilization, Some(1500.0 / 2000.0));
    assert_eq!(o.wait_seconds.count, 1);
    assert_eq!(o.wait_seconds.max, Some(500));
    assert_eq!(o.goodput, Some(1.0), "(1000 + 500) s of training after startAt over 1500 held");
}

#[test]
fn r28_workload_arrivals_start_at_start_at() {
    let text = r#"{"formatVersion":1,"settings":{"startAt":5000},
        "serviceEnvironment":{"serviceEnvironmentName":"se","capacityLimits":[{"capacityUnit":"ml.g5.xlarge","maxCapacity":4}]},
        "quotaShares":[{"quotaShareName":"A","capacityLimits":[{"capacityUnit":"ml.g5.xlarge","maxCapacity":4}],
            "resourceSharingConfiguration":{"strategy":"RESERVE"}}],
        "workload":{"seed":1,"jobs":20,"shares":[{"quotaShareName":"A","arrivalsPerHour":10,
            "instanceTypes":[{"name":"ml.g5.xlarge","weight":1}],
            "duration":{"distribution":"fixed","minSeconds":60,"maxSeconds":60}}]}}"#;
    let s = quotasim::json::parse_scenario(text).expect("parses");
    let e = quotasim::workload::expanded(&s).expect("expands");
    assert!(e.jobs.iter().all(|j| j.submit_at >= 5000), "{:?}", e.jobs.iter().map(|j| j.submit_at).min());
}

#[test]
fn r28_errors_name_their_paths() {
    let base = || Sc::new().start_at(1000).capacity(G5, 2).share(reserve("A", G5, 2));
    let cases: Vec<(Sc, &str, &str)> = vec![
        (base().job(job("x", "A").at(100).started(1500)), "jobs[0].startedAt", "after settings.startAt"),
        (base().job(job("x", "A").at(100).started(50)), "jobs[0].startedAt", "before the job's submitAt"),
        (
            base().job(job("x", "A").at(100).retries(1).previous(2)),
            "jobs[0].previousAttempts",
            "RetriesBefore",
        ),
        (base().job(job("x", "A").at(2000).previous(1)), "jobs[0].previousAttempts", "submitted after"),
        (base().job(job("x", "A").at(100).done(10)), "jobs[0].completedWorkSeconds", "checkpoints"),
        (
            base().job(job("x", "A").at(100).dur(100).ckpt(10).done(100)),
            "jobs[0].completedWorkSeconds",
            "below",
        ),
        (base().job(job("x", "A").at(100).no_duration()), "jobs[0].durationSeconds", "durationSeconds"),
        (base().job(job("x", "A")).set_priority(500, "x", 3), "actions[0].at", "before settings.startAt"),
        (base().job(job("x", "A")).horizon(900), "settings.horizonSeconds", "before settings.startAt"),
        (base().start_at(1 << 53).job(job("x", "A")), "settings.startAt", "2^53 - 1"),
    ];
    for (sc, path, says) in cases {
        let problems = sc.validate().expect_err(path);
        assert!(problems.iter().any(|p| p.path == path && p.message.contains(says)), "{path}: {problems:?}");
    }
}

#[test]
fn r28_a_lowered_borrow_limit_state_is_a_warning_not_an_error() {
    // Usage above quota plus allowance at startAt is accepted with a warning (R28).
    let v = Sc::new()
        .start_at(100)
        .capacity(G5, 4)
        .share(lab("B", G5, 1).borrow_limit(100))
        .share(lend("L", G5, 3))
        .jobs(3, |i| job(&format!("b{i}"), "B").started(0).dur(1000))
        .valid();
    assert!(v.warnings.iter().any(|w| w.message.contains("over quota")), "{:?}", v.warnings);
    let _ = Strategy::Lend;
}
