//! R24-R27: events, utilization snapshots, summary metrics and determinism.

use quotasim::json::{load_scenario, to_json};
use quotasim::result::{EventType, Status};
use quotasim::{generate, GenerateOptions, Simulation};
use quotasim_tests::*;

use Status::*;

fn reclaim_setup() -> Sc {
    Sc::new()
        .capacity(G5, 2)
        .share(lab("A", G5, 1))
        .share(lend("B", G5, 1))
        .job(job("a_hi", "A").prio(1).dur(2000))
        .job(job("v", "A").dur(1000))
        .job(job("b", "B").at(100).dur(100))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

// ----- R24 --------------------------------------------------------------------------------

#[test]
fn r24_every_state_change_is_an_event() {
    let h = reclaim_setup().run();
    let st = h.states("v");
    assert_eq!(
        st,
        vec![
            (0, Submitted),
            (0, Runnable),
            (0, Scheduled),
            (0, Starting),
            (0, Running),
            (220, Runnable),
            (320, Scheduled),
            (320, Starting),
            (320, Running),
            (1320, Succeeded)
        ]
    );
    for e in h.events_of("v") {
        assert_eq!(e.quota_share_name, "A");
    }
    let ats: Vec<u64> = h.events().iter().map(|e| e.at).collect();
    assert!(ats.windows(2).all(|w| w[0] <= w[1]), "events in time order");
}

#[test]
fn r24_preemption_events_name_preemptor_reason_count_and_lost_work() {
    let h = reclaim_setup().run();
    let s = h.preemption_events("v", EventType::PreemptionStarted);
    let c = h.preemption_events("v", EventType::PreemptionCompleted);
    assert_eq!((s.len(), c.len()), (1, 1));
    for e in [&s[0], &c[0]] {
        assert_eq!(e.quota_share_name, "A");
        assert_eq!(e.preempted_by, Some(Some("b".to_string())));
        assert_eq!(e.reason.as_deref(), Some(CROSS_SHARE));
        assert_eq!(e.preempted_attempt_count, Some(1));
        assert_eq!(e.lost_work_seconds, Some(100));
    }
    assert_eq!(s[0].at, 100);
    assert_eq!(c[0].at, 220);
    assert_eq!(s[0].status_reason, Some(in_progress(CROSS_SHARE)));
    // State-change events carry no preemption fields.
    for e in h.events().iter().filter(|e| e.event_type == EventType::StateChange) {
        assert!(e.preempted_by.is_none() && e.reason.is_none() && e.preempted_attempt_count.is_none());
    }
}

#[test]
fn r24_event_json_shape() {
    let h = reclaim_setup().run();
    let v: serde_json::Value = serde_json::from_str(&to_json(&h.result())).unwrap();
    let events = v["events"].as_array().unwrap();
    let started = events.iter().find(|e| e["type"] == "PREEMPTION_STARTED").expect("a started event");
    assert_eq!(started["jobName"], "v");
    assert_eq!(started["quotaShareName"], "A");
    assert_eq!(started["preemptedBy"], "b");
    assert_eq!(started["reason"], CROSS_SHARE);
    assert_eq!(started["at"], 100);
    assert!(events.iter().any(|e| e["type"] == "PREEMPTION_COMPLETED"));
    let sc = events.iter().find(|e| e["type"] == "STATE_CHANGE").unwrap();
    assert!(sc.get("preemptedBy").is_none());
    assert!(sc.get("status").is_some() && sc.get("statusReason").is_some());
    // The job result shape of the format spec.
    let vj = v["jobs"].as_array().unwrap().iter().find(|j| j["jobName"] == "v").unwrap();
    assert_eq!(vj["status"], "SUCCEEDED");
    assert_eq!(vj["firstStartedAt"], 0);
    assert_eq!(vj["stoppedAt"], 1320);
    assert_eq!(vj["lostWorkSeconds"], 100);
    assert_eq!(vj["preemptionSummary"]["preemptedAttemptCount"], 1);
    assert_eq!(vj["attempts"][0]["stoppedAt"], 220);
    assert_eq!(vj["attempts"][0]["borrowedInstances"], 1);
    assert_eq!(vj["attempts"][1]["statusReason"], serde_json::Value::Null);
    assert_eq!(v["formatVersion"], 1);
    assert_eq!(v["endedAt"], 2000);
}

#[test]
fn r24_until_reports_status_at_that_time_and_null_for_unsubmitted() {
    let h = Sc::new()
        .capacity(G5, 1)
        .share(reserve("A", G5, 1))
        .job(job("a", "A").dur(100))
        .job(job("later", "A").at(500).dur(10))
        .run_until(50);
    let r = h.result();
    assert_eq!(r.ended_at, 50);
    assert_eq!(r.jobs[0].status, Some(Running));
    assert_eq!(r.jobs[0].stopped_at, None);
    assert_eq!(r.jobs[1].status, None);
}

// ----- R25 --------------------------------------------------------------------------------

#[test]
fn r25_snapshot_totals_and_job_counts() {
    let mut h = reclaim_setup().sim();
    h.until(150);
    let s = h.snap();
    assert_eq!(s.at, 150);
    let t = h.totals(G5);
    assert_eq!(t.service_environment_capacity, Some(2));
    assert_eq!(
        (t.usage, t.free, t.pool_capacity, t.pool_usage, t.pool_available, t.borrowed),
        (2, 0, 2, 2, 0, 1)
    );
    let a = h.share_usage("A", G5);
    assert_eq!((a.quota, a.usage, a.within_quota, a.over_quota, a.borrowed, a.idle), (1, 2, 1, 1, 1, 0));
    // Reading tested (the spec is ambiguous): the snapshot's `idle` is quota neither used nor
    // lent, so `idle + lent = max(0, Q - U)` (R15's "idle quota").
    let b = h.share_usage("B", G5);
    assert_eq!((b.quota, b.usage, b.lent, b.idle, b.earmarked), (1, 0, 1, 0, 1));
    let jc = s.job_counts;
    assert_eq!((jc.not_submitted, jc.runnable, jc.running, jc.succeeded), (0, 1, 2, 0));
    h.until(2000);
    let jc = h.snap().job_counts;
    assert_eq!((jc.succeeded, jc.running, jc.runnable), (3, 0, 0));
}

#[test]
fn r25_snapshot_at_every_instant_is_consistent() {
    let mut h = reclaim_setup().sim();
    while h.step().is_some() {
        let s = h.snap();
        for t in &s.types {
            let rows: Vec<_> = s.shares.iter().filter(|r| r.capacity_unit == t.capacity_unit).collect();
            assert_eq!(rows.iter().map(|r| r.usage).sum::<u64>(), t.usage);
            assert_eq!(rows.iter().map(|r| r.borrowed).sum::<u64>(), t.borrowed);
            assert_eq!(rows.iter().map(|r| r.lent).sum::<u64>() + t.unattributed_borrowed, t.borrowed);
            for r in rows {
                assert_eq!(r.within_quota + r.over_quota, r.usage);
                assert_eq!(r.idle + r.lent, r.quota.saturating_sub(r.usage));
            }
        }
    }
}

// ----- R26 --------------------------------------------------------------------------------

#[test]
fn r26_summary_of_a_simple_run() {
    // j1 0..100, j2 0..300, j3 submitted at 10, runs 100..150. Service environment 2 x 300 s.
    let h = Sc::new()
        .capacity(G5, 2)
        .share(reserve("A", G5, 2))
        .job(job("j1", "A").dur(100))
        .job(job("j2", "A").dur(300))
        .job(job("j3", "A").at(10).dur(50))
        .run();
    let sum = h.summary();
    let o = &sum.overall;
    assert_eq!((o.jobs, o.succeeded, o.failed, o.never_runnable, o.unfinished), (3, 3, 0, 0, 0));
    assert_eq!(o.instance_seconds, 450);
    assert_eq!((o.instance_seconds_own, o.instance_seconds_borrowed), (450, 0));
    assert!(close(o.instance_hours, 0.125));
    assert!(close(o.gpu_hours, 0.125));
    assert!(close(o.utilization.unwrap(), 0.75), "{:?}", o.utilization);
    assert_eq!(
        (o.wait_seconds.count, o.wait_seconds.p50, o.wait_seconds.p95, o.wait_seconds.max),
        (3, Some(0), Some(90), Some(90))
    );
    assert_eq!(
        (o.completion_seconds.p50, o.completion_seconds.p95, o.completion_seconds.max),
        (Some(140), Some(300), Some(300)),
        "completion = submit to finish"
    );
    assert_eq!(o.preemptions.total, 0);
    assert_eq!(o.lost_instance_seconds, 0);
    assert!(close(o.goodput.unwrap(), 1.0));
    assert_eq!(sum.per_quota_share.len(), 1);
    let (name, a) = &sum.per_quota_share[0];
    assert_eq!(name, "A");
    assert_eq!(a.instance_seconds, 450);
    assert!(close(a.utilization.unwrap(), 0.75));
}

#[test]
fn r26_summary_with_borrowing_and_a_preemption() {
    // a_hi 0..2000 on A's quota; v borrows 0..220 (preempted at 100, 100 s lost) and
    // 320..1320; b 220..320. endedAt 2000.
    let h = reclaim_setup().run();
    let sum = h.summary();
    let o = &sum.overall;
    assert_eq!(o.instance_seconds, 3320);
    assert_eq!(o.instance_seconds_borrowed, 1220);
    assert!(close(o.utilization.unwrap(), 3320.0 / 4000.0));
    assert_eq!(
        (o.preemptions.cross_share, o.preemptions.in_share, o.preemptions.capacity_limit_reduced),
        (1, 0, 0)
    );
    assert_eq!(o.preemptions.total, 1);
    assert_eq!(o.lost_instance_seconds, 100);
    assert!(close(o.goodput.unwrap(), 3100.0 / 3320.0), "{:?}", o.goodput);
    assert_eq!((o.wait_seconds.p50, o.wait_seconds.max), (Some(0), Some(120)));
    assert!(close(o.gpu_hours, 3320.0 / 3600.0));
    assert!(close(o.gpu_hours_borrowed, 1220.0 / 3600.0));
    assert!(close(o.lost_gpu_hours, 100.0 / 3600.0));
    let a = &sum.per_quota_share.iter().find(|(n, _)| n == "A").unwrap().1;
    assert_eq!((a.instance_seconds, a.instance_seconds_own, a.instance_seconds_borrowed), (3220, 2000, 1220));
    assert!(close(a.gpu_hours_own, 2000.0 / 3600.0));
    assert_eq!(a.lost_instance_seconds, 100);
    assert!(close(a.utilization.unwrap(), 3220.0 / 2000.0), "above 1 when borrowing");
    let b = &sum.per_quota_share.iter().find(|(n, _)| n == "B").unwrap().1;
    assert_eq!((b.instance_seconds, b.instance_seconds_lent), (100, 1220));
    // B lent A 1,220 instance-seconds of one GPU each, and its job b caused the reclaim A's
    // job v suffered.
    assert!(close(b.gpu_hours_lent, 1220.0 / 3600.0) && a.gpu_hours_lent == 0.0);
    assert_eq!((b.preemptions.caused, b.preemptions.total), (1, 0));
    assert_eq!((a.preemptions.caused, a.preemptions.total), (0, 1));
    assert_eq!(o.preemptions.caused, 1);
    assert!(close(o.gpu_hours_lent, 1220.0 / 3600.0));
}

#[test]
fn r26_preemptions_caused_belong_to_the_preemptor_s_share_and_a_capacity_cut_has_none() {
    // The notebook: qs2 reclaims its instance from qs1 (R18), and qs1's raised job preempts
    // qs1's priority-3 job (R20): qs2 caused one, qs1 caused one and suffered both.
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/notebook.json")).unwrap();
    let mut s = Simulation::new(load_scenario(&text).unwrap());
    s.run();
    let sum = s.summary();
    let share = |n: &str| &sum.per_quota_share.iter().find(|(m, _)| m == n).unwrap().1;
    let counts = |n: &str| (share(n).preemptions.caused, share(n).preemptions.total);
    assert_eq!((counts("qs1"), counts("qs2"), counts("qs3")), ((1, 2), (1, 0), (0, 0)));
    assert_eq!(sum.overall.preemptions.caused, 2);
    assert!(share("qs2").gpu_hours_lent > 0.0 && share("qs3").gpu_hours_lent == 0.0, "RESERVE never lends");
    // A service environment shrunk below its usage (R23) preempts with no preemptor: suffered,
    // caused by no share.
    let h = Sc::new()
        .capacity(G5, 2)
        .share(reserve("A", G5, 2))
        .job(job("j1", "A").dur(1000))
        .job(job("j2", "A").dur(1000))
        .update_capacity(100, &[(G5, 1)])
        .run();
    let sum = h.summary();
    let a = &sum.per_quota_share[0].1;
    assert_eq!(
        (a.preemptions.capacity_limit_reduced, a.preemptions.caused, sum.overall.preemptions.caused),
        (1, 0, 0)
    );
}

#[test]
fn r26_never_runnable_and_failed_jobs_are_counted() {
    let h = Sc::new()
        .capacity(G5, 1)
        .share(reserve("A", G5, 1))
        .job(job("ok", "A").dur(10))
        .job(job("huge", "A").count(5))
        .job(job("t", "A").dur(100).timeout(50))
        .backfill(true)
        .run();
    let o = h.summary().overall;
    assert_eq!((o.jobs, o.succeeded, o.failed, o.never_runnable), (3, 1, 1, 1));
}

// ----- R27 --------------------------------------------------------------------------------

fn result_bytes(sc: &Sc) -> String {
    let mut h = sc.sim();
    h.run();
    to_json(&h.result())
}

#[test]
fn r27_two_runs_give_identical_bytes() {
    let sc = reclaim_setup();
    assert_eq!(result_bytes(&sc), result_bytes(&sc));
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/notebook.json")).unwrap();
    let run = || {
        let mut s = Simulation::new(load_scenario(&text).unwrap());
        s.run();
        to_json(&s.result())
    };
    assert_eq!(run(), run());
}

#[test]
fn r27_generated_scenario_is_deterministic_and_runs_identically() {
    let o = GenerateOptions::new(300, 4, 2, 7);
    let a = to_json(&generate(&o));
    let b = to_json(&generate(&o));
    assert_eq!(a, b);
    let run = || {
        let mut s = Simulation::new(load_scenario(&a).unwrap());
        s.run();
        to_json(&s.result())
    };
    assert_eq!(run(), run());
    assert_ne!(a, to_json(&generate(&GenerateOptions::new(300, 4, 2, 8))), "the seed matters");
}

#[test]
fn r27_stepping_running_and_forking_agree() {
    let sc = reclaim_setup().job(job("x", "B").at(150).dur(500));
    let whole = result_bytes(&sc);
    let mut h = sc.sim();
    while h.step().is_some() {}
    assert_eq!(to_json(&h.result()), whole);
    let mut h = sc.sim();
    h.run_until(150);
    let mut fork = h.clone();
    h.run();
    fork.run();
    assert_eq!(to_json(&h.result()), whole);
    assert_eq!(to_json(&fork.result()), whole);
}

#[test]
fn r27_json_round_trip_of_the_scenario_gives_the_same_result() {
    let sc = reclaim_setup();
    let v = load_scenario(&sc.to_json()).unwrap();
    let mut s = Simulation::new(v);
    s.run();
    assert_eq!(to_json(&s.result()), result_bytes(&sc));
}

#[test]
fn r27_json_key_order_and_whitespace_do_not_matter() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/notebook.json")).unwrap();
    // serde_json's default map sorts keys: re-serializing reorders every object.
    let reordered =
        serde_json::to_string_pretty(&serde_json::from_str::<serde_json::Value>(&text).unwrap()).unwrap();
    assert_ne!(text, reordered);
    let run = |t: &str| {
        let mut s = Simulation::new(load_scenario(t).unwrap());
        s.run();
        to_json(&s.result())
    };
    assert_eq!(run(&text), run(&reordered));
}

#[test]
fn r13_r25_pool_available_and_free_may_go_negative_after_lowered_limits() {
    // B borrows both of L's instances; L's quota drops to 1: the pool is over-used by 1.
    let h = Sc::new()
        .capacity(G5, 3)
        .share(lend("L", G5, 2))
        .share(lab("B", G5, 1))
        .jobs(3, |i| job(&format!("b{i}"), "B").dur(100_000))
        .update_share(100, update("L").limits(&[(G5, 1)]))
        .run_until(150);
    let t = h.totals(G5);
    assert_eq!((t.pool_capacity, t.pool_usage, t.pool_available), (2, 3, -1));
    assert!(h.victims().is_empty(), "nothing is preempted at once");
    // The service environment lowered below usage: free is negative during the grace.
    let h = Sc::new()
        .capacity(G5, 2)
        .share(reserve("A", G5, 2))
        .jobs(2, |i| job(&format!("a{i}"), "A").dur(100_000))
        .update_capacity(100, &[(G5, 1)])
        .run_until(150);
    let t = h.totals(G5);
    assert_eq!((t.service_environment_capacity, t.usage, t.free), (Some(1), 2, -1));
}

#[test]
fn r2_share_disabled_from_the_start_still_lends() {
    let h = Sc::new()
        .capacity(G5, 2)
        .share(lend("off", G5, 1).disabled())
        .share(lab("B", G5, 1))
        .job(job("x", "off").at(5))
        .jobs(2, |i| job(&format!("b{i}"), "B").dur(100))
        .run();
    assert_eq!(h.status("x"), Some(Status::Failed));
    assert_eq!(h.first_started("b2"), Some(0), "the disabled share's idle quota is lent");
    assert_eq!(h.attempts("b2")[0].borrowed_instances, 1);
}

#[test]
fn worked_example_summary() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/notebook.json")).unwrap();
    let mut s = Simulation::new(load_scenario(&text).unwrap());
    s.run();
    let sum = s.summary();
    let get = |n: &str| sum.per_quota_share.iter().find(|(k, _)| k == n).unwrap().1.clone();
    let qs3 = get("qs3");
    assert_eq!((qs3.jobs, qs3.instance_seconds, qs3.instance_seconds_lent), (0, 0, 0));
    let qs1 = get("qs1");
    assert!(qs1.instance_seconds_borrowed > 0);
    assert_eq!(qs1.succeeded, 3);
    let o = &sum.overall;
    assert_eq!((o.preemptions.cross_share, o.preemptions.in_share, o.preemptions.total), (1, 1, 2));
    assert_eq!(o.lost_instance_seconds, 300);
    assert_eq!(o.succeeded, 4);
}

// ----- numbers above 2^53 - 1 ------------------------------------------------------------

const MAX_SAFE: i64 = (1 << 53) - 1;

#[test]
fn r24_single_attempt_ending_after_2_53_is_invalid() {
    let problems = Sc::new()
        .capacity(G5, 1)
        .grace(MAX_SAFE)
        .share(reserve("A", G5, 1))
        .job(job("a", "A").dur(100))
        .validate()
        .expect_err("the attempt would end after 2^53 - 1");
    assert!(
        problems.iter().any(|p| p.path == "jobs[0].durationSeconds" && p.message.contains("2^53 - 1")),
        "{problems:?}"
    );
}

#[test]
fn r24_a_run_whose_next_time_passes_2_53_stops_with_an_error_naming_the_job() {
    let mut h = Sc::new()
        .capacity(G5, 1)
        .share(reserve("A", G5, 1))
        .job(job("first", "A").dur(1 << 52))
        .job(job("second", "A").dur((1 << 52) + 10))
        .sim();
    h.run();
    assert_eq!(h.now(), 1 << 52, "stopped where the next time would pass 2^53 - 1");
    match h.run_error() {
        Some(quotasim::RunError::TimeOverflow { job, at }) => {
            assert_eq!(job, "second");
            assert_eq!(at, 1 << 52);
        }
        other => panic!("expected a time overflow, got {other:?}"),
    }
    let msg = h.run_error().unwrap().to_string();
    assert!(msg.contains("second") && msg.contains("2^53 - 1"), "{msg}");
}

#[test]
fn r26_a_sum_above_2_53_is_an_error_not_a_saturated_value() {
    let h = Sc::new()
        .capacity(G5, 1 << 14)
        .share(reserve("A", G5, 1 << 14))
        .job(job("wide", "A").count(1 << 14).dur(1 << 40))
        .run();
    assert_eq!(h.status("wide"), Some(Succeeded));
    assert_eq!(
        h.run_error(),
        Some(quotasim::RunError::SumOverflow { metric: "perQuotaShare.A.instanceSeconds".into() })
    );
    // A run within bounds has none.
    assert_eq!(
        Sc::new().capacity(G5, 1).share(reserve("A", G5, 1)).job(job("a", "A").dur(10)).run().run_error(),
        None
    );
}

#[test]
fn r26_wait_percentiles_include_p90_and_p99_by_nearest_rank() {
    // 100 one-instance jobs on one instance, 10 s each: job k waits 10 k seconds.
    let h = Sc::new()
        .capacity(G5, 1)
        .share(reserve("A", G5, 1))
        .jobs(100, |k| job(&format!("j{k}"), "A").dur(10))
        .run();
    let w = h.summary().overall.wait_seconds;
    assert_eq!(
        (w.count, w.p50, w.p90, w.p95, w.p99, w.max),
        (100, Some(490), Some(890), Some(940), Some(980), Some(990))
    );
    let c = h.summary().per_quota_share[0].1.completion_seconds.clone();
    assert_eq!((c.p90, c.p99), (Some(900), Some(990)));
}

#[test]
fn r26_preemptions_per_job() {
    // v borrows B's instance twice and is reclaimed each time: by b at 100 (it borrows again
    // when b ends at 270) and by c at 400.
    let h = Sc::new()
        .capacity(G5, 2)
        .share(lab("A", G5, 1))
        .share(lend("B", G5, 1))
        .job(job("a_hi", "A").prio(9).dur(100_000))
        .job(job("v", "A").dur(100_000))
        .job(job("b", "B").at(100).dur(50))
        .job(job("c", "B").at(400).dur(50))
        .run_until(2000);
    assert_eq!(h.victims(), vec!["v", "v"]);
    let a = &h.summary().per_quota_share[0].1;
    assert_eq!((a.max_preemptions_per_job, a.jobs_preempted_more_than_once), (2, 1));
    let o = h.summary().overall;
    assert_eq!((o.max_preemptions_per_job, o.jobs_preempted_more_than_once), (2, 1));
    assert_eq!(h.summary().per_quota_share[1].1.max_preemptions_per_job, 0);
}

#[test]
fn r26_reclaim_latency_runs_from_the_first_need_to_dispatch() {
    // The worked example's reclaim: qs2_job needs its lent instance back at 900 and runs at
    // 1020, one grace period later. The in-share preemption is not a reclaim.
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/notebook.json")).unwrap();
    let mut sim = Simulation::new(quotasim::json::load_scenario(&text).unwrap());
    sim.run();
    let s = sim.summary();
    let qs2 = &s.per_quota_share.iter().find(|(n, _)| n == "qs2").unwrap().1;
    let r = &qs2.reclaim_latency_seconds;
    assert_eq!((r.count, r.p50, r.max), (1, Some(120), Some(120)));
    assert_eq!(s.per_quota_share[0].1.reclaim_latency_seconds.count, 0, "qs1 never needed a reclaim");
    assert_eq!(s.overall.reclaim_latency_seconds.count, 1);
    // The latency runs to the job's own dispatch: b needs its lent instance back at 50; l,
    // of higher priority, arrives during the grace and takes the earmark at 350 (R21), so b
    // runs only after l, at 360: 310 s.
    let h = Sc::new()
        .capacity(G5, 2)
        .grace(300)
        .share(lab("A", G5, 1))
        .share(lend("B", G5, 1))
        .job(job("a_hi", "A").prio(9).dur(100_000))
        .job(job("v", "A").dur(100_000))
        .job(job("b", "B").at(50).dur(1000))
        .job(job("l", "B").prio(5).at(100).dur(10))
        .run_until(2000);
    assert_eq!((h.first_started("l"), h.first_started("b")), (Some(350), Some(360)));
    let b = &h.summary().per_quota_share[1].1.reclaim_latency_seconds;
    assert_eq!((b.count, b.max), (1, Some(310)));
}

#[test]
fn r26_fairness_entitlement_ratios_and_jain_index() {
    // A wants 4 of its 4 and holds 4; B wants 1 of its 4 and holds 1: both ratios 1, index 1.
    let h = Sc::new()
        .capacity(G5, 8)
        .share(reserve("A", G5, 4))
        .share(reserve("B", G5, 4))
        .jobs(4, |k| job(&format!("a{k}"), "A").dur(100))
        .job(job("b", "B").dur(100))
        .run();
    let s = h.summary();
    assert_eq!(s.per_quota_share[0].1.fairness.entitlement_ratio, Some(1.0));
    assert_eq!(s.per_quota_share[1].1.fairness.entitlement_ratio, Some(1.0));
    assert_eq!(s.overall.fairness.jain_index, Some(1.0));
    assert_eq!(s.overall.fairness_deficit_instance_seconds, 0);
    // Equal quotas of 4: A holds 8 (borrowing C's idle quota) while B wants 4 and holds
    // nothing (its job needs 5: never runnable, but still demand): ratios 2 and 0, index 0.5.
    let h = Sc::new()
        .capacity(G5, 12)
        .share(lab("A", G5, 4))
        .share(reserve("B", G5, 4))
        .share(lend("C", G5, 4))
        .jobs(8, |k| job(&format!("a{k}"), "A").dur(100))
        .job(job("b", "B").count(5).dur(100))
        .run();
    let s = h.summary();
    assert_eq!(h.summary_result().ended_at, 100);
    let (a, b, c) = (&s.per_quota_share[0].1, &s.per_quota_share[1].1, &s.per_quota_share[2].1);
    assert_eq!((a.fairness.entitlement_ratio, b.fairness.entitlement_ratio), (Some(2.0), Some(0.0)));
    assert_eq!(c.fairness.entitlement_ratio, None, "C had no demand: not in the index");
    assert_eq!(s.overall.fairness.jain_index, Some(0.5));
    assert_eq!((a.fairness_deficit_instance_seconds, b.fairness_deficit_instance_seconds), (0, 400));
    assert_eq!(a.fairness.jain_index, None, "the index is overall only");
}

#[test]
fn r26_entitlement_follows_queued_demand_over_time() {
    // One instance: x runs 0-100, y waits 0-100 then runs 100-200. Entitlement of the share
    // (quota 1): 1 the whole 200 s (demand 2, then 1); held 1 throughout: ratio 1.
    let h = Sc::new()
        .capacity(G5, 1)
        .share(reserve("A", G5, 1))
        .job(job("x", "A").dur(100))
        .job(job("y", "A").dur(100))
        .run();
    let a = &h.summary().per_quota_share[0].1;
    assert_eq!(a.fairness.entitlement_ratio, Some(1.0));
    assert_eq!(a.fairness_deficit_instance_seconds, 0);
}

fn priced_notebook(billing: &str) -> quotasim::Summary {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/notebook.json")).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["instanceTypes"] = serde_json::json!([{ "name": G5, "gpus": 1, "pricePerHour": 2.0 }]);
    v["settings"]["billing"] = billing.into();
    let mut sim = Simulation::new(quotasim::json::load_scenario(&v.to_string()).unwrap());
    sim.run();
    sim.summary()
}

#[test]
fn r26_cost_on_demand_pays_for_held_instances() {
    let s = priced_notebook("onDemand");
    let o = &s.overall;
    // 58,140 instance-seconds held at 2 an hour; 300 lost.
    assert!((o.cost.unwrap() - 58_140.0 * 2.0 / 3600.0).abs() < 1e-9);
    assert!((o.lost_cost.unwrap() - 300.0 * 2.0 / 3600.0).abs() < 1e-9);
    assert_eq!((o.idle_quota_cost, o.unassigned_cost), (None, None), "committed billing only");
    let shares: f64 = s.per_quota_share.iter().map(|(_, m)| m.cost.unwrap()).sum();
    assert!((shares - o.cost.unwrap()).abs() < 1e-9);
    // Useful GPU-hours: the succeeded jobs' training (goodput times held), 1 GPU each.
    let useful = o.goodput.unwrap() * o.instance_seconds as f64 / 3600.0;
    assert!((o.cost_per_useful_gpu_hour.unwrap() - o.cost.unwrap() / useful).abs() < 1e-9);
}

#[test]
fn r26_cost_committed_pays_for_capacity_and_adds_up() {
    let s = priced_notebook("committed");
    let o = &s.overall;
    // Three instances for the whole run (30,120 s) at 2 an hour.
    let total = 3.0 * 30_120.0 * 2.0 / 3600.0;
    assert!((o.cost.unwrap() - total).abs() < 1e-9, "{:?}", o.cost);
    let shares: f64 = s.per_quota_share.iter().map(|(_, m)| m.cost.unwrap()).sum();
    assert!((shares + o.unassigned_cost.unwrap() - total).abs() < 1e-9);
    // qs3 (RESERVE, never used) pays for its idle quota the whole run.
    let qs3 = &s.per_quota_share[2].1;
    assert!((qs3.idle_quota_cost.unwrap() - 30_120.0 * 2.0 / 3600.0).abs() < 1e-9);
    assert_eq!(o.unassigned_cost, Some(0.0), "every instance belongs to a share");
}

#[test]
fn r26_cost_is_null_without_prices_and_a_bad_price_is_refused() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/notebook.json")).unwrap();
    let mut sim = Simulation::new(quotasim::json::load_scenario(&text).unwrap());
    sim.run();
    let o = sim.summary().overall;
    assert_eq!((o.cost, o.lost_cost, o.cost_per_useful_gpu_hour), (None, None, None));
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["instanceTypes"] = serde_json::json!([{ "name": G5, "pricePerHour": -1.0 }]);
    let e = quotasim::json::load_scenario(&v.to_string()).unwrap_err();
    assert_eq!(e[0].path, "instanceTypes[0].pricePerHour");
}
