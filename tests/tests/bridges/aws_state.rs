//! `import aws` of a history with start-up, and `--state-at` (R28): the live state rebuilt
//! from AWS records and events as they stood at an instant.

use std::collections::BTreeMap;

use quotasim::aws::{eventbridge, import_with, ImportOptions, DEFAULT_ORIGIN_MILLIS};
use quotasim::model::Scenario;
use quotasim::{generate, validate, GenerateOptions, Simulation};
use quotasim_tests::cli::{quotasim, stderr};
use serde_json::{json, Value};

/// A generated history with minutes of start-up, timeouts of twice each duration, and
/// checkpoints every 600 s (AWS reports whether a job checkpoints, not how often: an import
/// reads 600 s). Retries are unlimited: a job that fails has a censored duration (AWS does not
/// say how long it would have run), which no import can replay.
fn history(seed: u64) -> Scenario {
    let mut s = generate(&GenerateOptions::new(300, 3, 2, seed));
    s.settings.scheduled_seconds = 90;
    s.settings.starting_seconds = 30;
    for j in &mut s.jobs {
        j.timeout_seconds = j.duration_seconds.map(|d| 2 * d + 200);
        if j.checkpoint_interval_seconds.is_some() {
            j.checkpoint_interval_seconds = Some(600);
        }
        j.preemption_configuration = None;
    }
    s
}

fn run(s: &Scenario) -> quotasim::result::SimResult {
    let mut sim = Simulation::new(validate(s).expect("valid"));
    sim.run();
    sim.result()
}

/// The run's EventBridge export as one file of JSON lines.
fn events(s: &Scenario) -> Vec<(String, String)> {
    let lines: Vec<String> =
        eventbridge(s, &run(s), DEFAULT_ORIGIN_MILLIS).unwrap().iter().map(quotasim::json::to_json).collect();
    vec![("events.jsonl".to_string(), lines.join("\n"))]
}

/// Seconds from the export's origin to the import's (the earliest createdAt).
fn shift(s: &Scenario) -> i64 {
    s.jobs.iter().map(|j| j.submit_at).min().unwrap()
}

#[test]
fn r6_import_fits_scheduled_and_starting_seconds_and_replays_every_job() {
    for seed in [3, 11] {
        let s = history(seed);
        let imp = import_with(&events(&s), ImportOptions::default()).unwrap();
        let st = &imp.scenario.settings;
        assert_eq!((st.scheduled_seconds, st.starting_seconds), (90, 30), "seed {seed}");
        assert!(
            imp.warnings
                .iter()
                .any(|w| w.path == "settings.scheduledSeconds" && w.message.contains("medians")),
            "the fit is said: {:?}",
            imp.warnings
        );
        // Every job starts and stops when it did, the origin aside.
        let (a, b) = (run(&s), run(&imp.scenario));
        assert!(a.jobs.iter().all(|j| j.status == Some(quotasim::result::Status::Succeeded)));
        let d = shift(&s) as u64;
        let back: BTreeMap<&str, _> = b.jobs.iter().map(|j| (j.job_name.as_str(), j)).collect();
        for j in &a.jobs {
            let k = back[j.job_name.as_str()];
            assert_eq!(j.first_started_at, k.first_started_at.map(|t| t + d), "seed {seed}: {}", j.job_name);
            assert_eq!(j.stopped_at, k.stopped_at.map(|t| t + d), "seed {seed}: {}", j.job_name);
        }
        // Calibrate says how much of the difference the start-up explains: here all of it.
        let valid = validate(&imp.scenario).unwrap();
        let gpus = quotasim::calibrate::gpus_by_share(&valid);
        let mut c = quotasim::calibrate::calibrate(&b, &imp.observed, &gpus).unwrap();
        let bare = quotasim::calibrate::without_startup(&valid).expect("start-up was fitted");
        let mut sim = Simulation::new(bare);
        sim.run();
        quotasim::calibrate::explain_startup(&mut c, 90, 30, &sim.result());
        let st = c.startup.as_ref().unwrap();
        for (r, e) in c.per_quota_share.iter().zip(&st.per_quota_share) {
            assert_eq!(r.wait_p50.simulated, r.wait_p50.observed);
            let gap = (r.wait_p50.observed.unwrap() - e.wait_p50_without_startup.unwrap()).abs();
            assert_eq!(e.explained_seconds, Some(gap), "{}", r.quota_share_name);
        }
        assert!(st.per_quota_share.iter().any(|e| e.explained_seconds > Some(0.0)), "{st:?}");
        // The observed first start is the dispatch, as in results.
        let first: BTreeMap<&str, u64> = imp
            .observed
            .jobs
            .iter()
            .filter_map(|o| o.first_started_at.map(|t| (o.job_name.as_str(), t)))
            .collect();
        for j in &a.jobs {
            assert_eq!(first.get(j.job_name.as_str()).map(|t| t + d), j.first_started_at, "{}", j.job_name);
        }
    }
}

#[test]
fn r28_import_state_at_is_the_state_print_state_at_gives() {
    for (seed, t) in [(3, 8_000u64), (3, 20_000), (11, 5_000), (11, 30_000)] {
        let s = history(seed);
        let ms = DEFAULT_ORIGIN_MILLIS + t as i64 * 1000;
        let imp = import_with(&events(&s), ImportOptions { now: None, state_at: Some(ms) }).unwrap();
        let d = shift(&s);
        let st = &imp.scenario;
        assert_eq!(st.settings.start_at, t as i64 - d);
        assert_eq!(st.settings.origin_epoch_ms, Some(DEFAULT_ORIGIN_MILLIS + d * 1000));
        // The uninterrupted run's state after instant t.
        let mut sim = Simulation::new(validate(&s).unwrap());
        sim.run_until(t);
        let truth = sim.state(&s).scenario;
        let queued: BTreeMap<&str, _> = truth
            .jobs
            .iter()
            .filter(|j| j.submit_at <= t as i64)
            .map(|j| (j.job_name.as_str(), (j.started_at, j.previous_attempts, j.completed_work_seconds)))
            .collect();
        let got: BTreeMap<&str, _> = st
            .jobs
            .iter()
            .map(|j| {
                (
                    j.job_name.as_str(),
                    (j.started_at.map(|a| a + d), j.previous_attempts, j.completed_work_seconds),
                )
            })
            .collect();
        assert_eq!(got, queued, "seed {seed} at {t}");
        assert!(queued.values().any(|q| q.0.is_some()), "seed {seed} at {t}: some jobs run");
        // No duration of a job that had not finished; every finished and running job is in history.
        assert!(st.jobs.iter().all(|j| j.duration_seconds.is_none()));
        let result = run(&s);
        let finished = result.jobs.iter().filter(|j| j.stopped_at.is_some_and(|x| x <= t)).count();
        let running = st.jobs.iter().filter(|j| j.started_at.is_some()).count();
        assert_eq!(st.history.iter().filter(|h| !h.censored).count(), finished, "seed {seed} at {t}");
        assert_eq!(st.history.iter().filter(|h| h.censored).count(), running, "seed {seed} at {t}");
        // Later jobs are left out and said so.
        if s.jobs.iter().any(|j| j.submit_at > t as i64) {
            assert!(imp.warnings.iter().any(|w| w.path == "settings.startAt" && w.message.contains("after")));
        }
    }
}

/// describe-service-job records as a later `describe` returns them.
fn job(id: &str, created: i64, attempts: Value, extra: Value) -> Value {
    let mut j = json!({
        "jobId": id, "jobName": id, "jobArn": format!("arn:aws:batch:us-east-1:1:service-job/{id}"),
        "quotaShareName": "a", "createdAt": created, "schedulingPriority": 0,
        "serviceRequestPayload": {"ResourceConfig": {"InstanceType": "ml.p5.48xlarge", "InstanceCount": 1},
                                  "CheckpointConfig": {"S3Uri": "s3://x"}},
        "attempts": attempts,
    });
    for (k, v) in extra.as_object().unwrap() {
        j[k] = v.clone();
    }
    j
}

const T0: i64 = 1_767_225_600_000;

#[test]
fn r28_import_state_at_from_describe_records_and_events() {
    let s = |x: i64| T0 + x * 1000;
    let share = json!({"quotaShareName": "a", "capacityLimits": [{"capacityUnit": "ml.p5.48xlarge", "maxCapacity": 4}],
                       "resourceSharingConfiguration": {"strategy": "RESERVE"}});
    let records = [
        // Finished before the instant: history.
        job(
            "done",
            s(0),
            json!([{"startedAt": s(100), "stoppedAt": s(1_100)}]),
            json!({"status": "SUCCEEDED", "stoppedAt": s(1_100), "scheduledAt": s(40)}),
        ),
        // Training at the instant, its dispatch reported.
        job(
            "run",
            s(10),
            json!([{"startedAt": s(2_100), "stoppedAt": s(9_000)}]),
            json!({"status": "SUCCEEDED", "stoppedAt": s(9_000), "scheduledAt": s(2_000)}),
        ),
        // Training at the instant, no dispatch reported: the fitted start-up before it.
        job("guess", s(20), json!([{"startedAt": s(3_000)}]), json!({"status": "RUNNING"})),
        // Preempted once before the instant (1,500 s trained, checkpoints every 600 s), queued.
        job(
            "requeued",
            s(30),
            json!([{"startedAt": s(500), "stoppedAt": s(2_000)}, {"startedAt": s(6_000)}]),
            json!({"status": "RUNNING"}),
        ),
        // In its grace period at the instant.
        job(
            "grace",
            s(40),
            json!([{"startedAt": s(1_000), "stoppedAt": s(5_100)}, {"startedAt": s(6_000)}]),
            json!({"status": "RUNNING"}),
        ),
        // Created after the instant.
        job("later", s(5_000), json!([]), json!({"status": "RUNNABLE"})),
    ];
    let mut text: String = records.iter().chain([&share]).map(|r| r.to_string() + "\n").collect();
    // The preemption of "grace" began at 4,920 s and had not completed at the instant.
    let signal = json!({"detail-type": "Batch Service Job Preemption Started", "time": "2026-01-01T01:22:00Z",
                        "detail": {"preemptedJobArn": "arn:aws:batch:us-east-1:1:service-job/grace"}});
    text += &(signal.to_string() + "\n");
    let files = vec![("records.jsonl".to_string(), text)];
    let imp = import_with(&files, ImportOptions { now: None, state_at: Some(s(4_940)) }).unwrap();
    let sc = &imp.scenario;
    let by: BTreeMap<&str, _> = sc.jobs.iter().map(|j| (j.job_name.as_str(), j)).collect();
    assert_eq!(by.keys().copied().collect::<Vec<_>>(), ["grace", "guess", "requeued", "run"]);
    // The start-up observed: 60 s and 100 s from scheduledAt to startedAt (the lower median).
    assert_eq!((sc.settings.scheduled_seconds, sc.settings.starting_seconds), (60, 0));
    assert_eq!(sc.settings.start_at, 4_940);
    assert_eq!(by["run"].started_at, Some(2_000));
    assert_eq!(by["guess"].started_at, Some(3_000 - 60));
    assert_eq!(
        (by["requeued"].started_at, by["requeued"].previous_attempts, by["requeued"].completed_work_seconds),
        (None, 1, 1_200)
    );
    // 3,920 s trained before the stop signal at 4,920 s: 6 checkpoints of 600 s kept.
    assert_eq!(
        (by["grace"].started_at, by["grace"].previous_attempts, by["grace"].completed_work_seconds),
        (None, 1, 3_600)
    );
    let said = |p: &str| imp.warnings.iter().any(|w| w.message.contains(p));
    assert!(said("job guess: no scheduledAt"), "{:?}", imp.warnings);
    assert!(said("job grace was being preempted"), "{:?}", imp.warnings);
    assert!(said("job requeued: completedWorkSeconds 1200"), "{:?}", imp.warnings);
    assert!(said("1 job(s) created after"), "{:?}", imp.warnings);
    let h: Vec<(i64, bool)> = sc.history.iter().map(|h| (h.duration_seconds, h.censored)).collect();
    assert_eq!(h, [(1_000, false), (2_840, true), (1_940, true)]);
}

#[test]
fn state_at_is_checked_before_anything_is_read() {
    let o = quotasim(&["import", "aws", "none.json", "--state-at", "9007199254740992"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--state-at 9007199254740992 must be within"), "{}", stderr(&o));
    let o = quotasim(&["import", "aws", "none.json", "--state-at", "5", "--now", "6"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}
