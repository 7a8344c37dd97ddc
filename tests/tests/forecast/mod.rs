//! Start-time forecasts (`quotasim eta`): the bands agree with exact runs when nothing is
//! uncertain, draws are common random numbers, durations come from the history as its
//! Kaplan-Meier estimate says, and bad options name what is wrong.

mod backtest;
mod workload;

use quotasim::eta::{Durations, EtaOptions, EtaReport, Forecast};
use quotasim::model::{ObservedDuration, Scenario};
use quotasim::{generate, validate, GenerateOptions, Simulation};
use quotasim_tests::*;

fn forecast(s: &Scenario, opts: EtaOptions) -> EtaReport {
    Forecast::new(s, opts).expect("a valid forecast").run().expect("replicates run")
}

fn opts(durations: Durations, replicates: u32) -> EtaOptions {
    EtaOptions { durations: Some(durations), replicates, ..EtaOptions::default() }
}

fn observed(share: &str, ty: &str, d: i64, censored: bool) -> ObservedDuration {
    ObservedDuration {
        quota_share_name: share.into(),
        instance_type: ty.into(),
        instance_count: 1,
        duration_seconds: d,
        censored,
    }
}

#[test]
fn eta_exact_durations_give_the_run_s_starts_in_every_replicate() {
    // A generated scenario forked mid-run: with durations as written, every replicate is the
    // uninterrupted run, so p10 = p50 = p90 = its first start, for every queued job.
    let s = generate(&GenerateOptions::new(300, 3, 2, 11));
    let v = validate(&s).unwrap();
    let mut sim = Simulation::new(v.clone());
    let t = 4 * 3600;
    sim.run_until(t);
    let state = sim.state(&s);
    let mut whole = Simulation::new(v);
    whole.run();
    let r = forecast(&state.scenario, EtaOptions { horizon: 10_000_000, ..opts(Durations::Exact, 3) });
    assert!(r.jobs.len() > 20, "{} queued jobs forecast", r.jobs.len());
    assert_eq!(r.draws_by_source.get("exact").copied(), Some(3 * state.scenario.jobs.len() as u64));
    let mut checked = 0;
    for j in &r.jobs {
        // Its next dispatch after the fork (a requeued job started before).
        let w = whole.jobs().into_iter().find(|x| x.job_name == j.job_name).unwrap();
        let expect = w.attempts.iter().map(|a| a.started_at).find(|&a| a >= t).map(|f| f - t);
        if state.inexact.is_empty() {
            assert_eq!(j.start.p50, expect, "{}", j.job_name);
            checked += 1;
        }
        assert_eq!((j.start.p10, j.start.p90), (j.start.p50, j.start.p50), "{}: one outcome", j.job_name);
        assert_eq!(j.start.mean, j.start.p50.map(|x| x as f64));
    }
    assert!(state.inexact.is_empty() && checked > 20, "the fork at {t} is exact: {:?}", state.inexact);
}

/// Two RESERVE shares that never meet: A's queue behind a running job, B's jobs.
fn two_shares() -> Scenario {
    let mut s = Sc::new()
        .start_at(1000)
        .capacity(G5, 2)
        .share(reserve("A", G5, 1))
        .share(reserve("B", G5, 1))
        .job(job("a-run", "A").started(400).no_duration())
        .job(job("a-next", "A").at(900).no_duration())
        .job(job("b-run", "B").started(800).no_duration())
        .job(job("b-next", "B").at(950).no_duration())
        .build();
    for k in 0..40 {
        s.history.push(observed("A", G5, 600 + 60 * k, false));
        s.history.push(observed("B", G5, 300 + 30 * k, k % 5 == 0));
    }
    s
}

#[test]
fn eta_draws_are_common_random_numbers_a_change_elsewhere_moves_nothing() {
    let s = two_shares();
    let base = forecast(&s, opts(Durations::History, 100));
    // A job submitted to B, and B's job given another priority: A's band does not move.
    let mut other = s.clone();
    other.jobs[3].scheduling_priority = 50;
    let submit = job("b-new", "B").dur(100).build_job();
    let changed = forecast(&other, EtaOptions { submit: Some(submit), ..opts(Durations::History, 100) });
    let a = |r: &EtaReport| r.jobs.iter().find(|j| j.job_name == "a-next").unwrap().clone();
    assert_eq!(a(&base), a(&changed));
    // And a new seed does move it (the check is not vacuous).
    let reseeded = forecast(&s, EtaOptions { seed: 9, ..opts(Durations::History, 100) });
    assert_ne!(a(&base).start, a(&reseeded).start);
    // The same report whatever order the replicates ran in.
    let f = Forecast::new(&s, opts(Durations::History, 20)).unwrap();
    let mut outs: Vec<_> = (0..20).rev().map(|r| f.replicate(r).unwrap()).collect();
    outs.reverse();
    assert_eq!(f.report(&outs), f.run().unwrap());
}

#[test]
fn eta_history_durations_follow_the_kaplan_meier_estimate_beyond_what_was_trained() {
    // a-run has trained 600 s at startAt 1000 (dispatched at 400): its remaining duration is
    // drawn beyond 600 from A's history (600..2940 s in steps of 60), so a-next starts in
    // (0, 1940] after startAt, and about uniformly.
    let s = two_shares();
    let r = forecast(&s, opts(Durations::History, 400));
    let a = r.jobs.iter().find(|j| j.job_name == "a-next").unwrap();
    assert_eq!(a.started_replicates, 400);
    let (p10, p50, p90) = (a.start.p10.unwrap(), a.start.p50.unwrap(), a.start.p90.unwrap());
    assert!(p10 > 0 && p90 <= 2940 - 600, "{p10} {p90}");
    assert!((p50 as i64 - 1170).abs() <= 240, "p50 {p50}: the middle of 60..2340");
    assert!(p10 < p50 && p50 < p90);
    assert_eq!(a.reason.as_deref(), Some(quotasim::reasons::WAIT_QUOTA));
    assert_eq!(a.cause, Some("quotaUsed"));
    assert_eq!(r.draws_by_source.get("history").copied(), Some(4 * 400));
}

#[test]
fn eta_falls_back_to_the_timeout_then_twice_the_largest_and_counts_it() {
    let mut s = two_shares();
    s.history.retain(|h| h.quota_share_name == "B");
    s.jobs[0].timeout_seconds = Some(2000);
    // A has no history: a-run runs to its timeout (2000 s of training from 400: it ends at
    // 2400), a-next has no timeout and no history of A: twice the largest of the whole history.
    let r = forecast(&s, opts(Durations::History, 10));
    let a = r.jobs.iter().find(|j| j.job_name == "a-next").unwrap();
    assert_eq!(a.start.p50, Some(1400));
    assert_eq!(r.draws_by_source.get("timeout").copied(), Some(10));
    assert_eq!(r.draws_by_source.get("twiceLargest").copied(), Some(10));
}

#[test]
fn eta_submit_shows_the_band_and_whom_it_would_preempt() {
    // B lends its idle instance to A's borrower; a job submitted to B reclaims it.
    let s = Sc::new()
        .start_at(100)
        .capacity(G5, 2)
        .share(lab("A", G5, 1))
        .share(lend("B", G5, 1))
        .job(job("a1", "A").started(0).dur(5000))
        .job(job("a2", "A").started(0).dur(5000))
        .build();
    let submit = job("mine", "B").dur(600).build_job();
    let r = forecast(&s, EtaOptions { submit: Some(submit), ..opts(Durations::Exact, 5) });
    assert_eq!(r.jobs.len(), 1);
    let m = &r.jobs[0];
    assert!(m.submitted);
    assert_eq!(m.job_name, "mine");
    assert_eq!(
        m.start.p50,
        Some(s.settings.preemption_grace_seconds as u64),
        "it starts when its victim's grace ends"
    );
    assert_eq!(m.would_preempt.len(), 1);
    assert_eq!(m.would_preempt[0].probability, 1.0);
}

#[test]
fn eta_bad_options_name_what_is_wrong() {
    let s = two_shares();
    let err = |o: EtaOptions| Forecast::new(&s, o).map(|_| ()).unwrap_err()[0].path.clone();
    assert_eq!(err(EtaOptions { jobs: vec!["nope".into()], ..EtaOptions::default() }), "--job[0]");
    assert_eq!(err(EtaOptions { jobs: vec!["a-run".into()], ..EtaOptions::default() }), "--job[0]");
    assert_eq!(err(EtaOptions { replicates: 0, ..EtaOptions::default() }), "--replicates");
    assert_eq!(err(EtaOptions { horizon: 0, ..EtaOptions::default() }), "--horizon");
    assert_eq!(err(opts(Durations::Exact, 1)), "jobs[0].durationSeconds");
    let clash = job("a-next", "A").dur(5).build_job();
    assert_eq!(err(EtaOptions { submit: Some(clash), ..EtaOptions::default() }), "--submit.jobName");
    let unknown = job("x", "Z").dur(5).build_job();
    assert!(err(EtaOptions { submit: Some(unknown), ..EtaOptions::default() }).starts_with("--submit"));
}

#[test]
fn eta_iso_times_when_the_state_has_an_origin() {
    let mut s = two_shares();
    s.settings.origin_epoch_ms = Some(1_796_392_800_000);
    let r = forecast(&s, opts(Durations::History, 10));
    let iso = r.jobs[0].start_iso.as_ref().expect("ISO times");
    assert!(iso.p50.as_deref().unwrap().starts_with("2026-12-04T14:"), "{iso:?}");
}

/// A scratch file under the target directory.
fn scratch(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::current_exe().unwrap().parent().unwrap().join("forecast-scratch");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn r28_cli_print_state_at_gives_a_state_that_runs_to_the_same_outcomes() {
    use quotasim_tests::cli::{quotasim, stdout};
    let s = generate(&GenerateOptions::new(200, 3, 2, 5));
    let whole = scratch("whole.json", &quotasim::json::to_json(&s));
    let w = whole.to_str().unwrap();
    let o = quotasim(&["run", w, "--print-state-at", "7200"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let state: Scenario = quotasim::json::parse_scenario(&stdout(&o)).unwrap();
    assert_eq!(state.settings.start_at, 7200);
    assert!(!state.history.is_empty(), "the durations seen so far come with it");
    let st = scratch("state.json", &stdout(&o));
    let a = Simulation::new(validate(&s).unwrap());
    let mut a = a;
    a.run();
    let mut b = Simulation::new(validate(&state).unwrap());
    b.run();
    let after =
        |r: Vec<quotasim::JobResult>| -> Vec<(String, Option<quotasim::result::Status>, Option<u64>)> {
            r.into_iter()
                .filter(|j| j.stopped_at.is_some_and(|t| t > 7200))
                .map(|j| (j.job_name, j.status, j.stopped_at))
                .collect()
        };
    assert_eq!(after(a.jobs()), after(b.jobs()));
    // Before startAt is a usage error; a forecast of the state runs on every thread count.
    let o = quotasim(&["run", st.to_str().unwrap(), "--print-state-at", "10"]);
    assert_eq!(o.status.code(), Some(2));
    let eta = |threads: &str| {
        quotasim(&[
            "eta",
            st.to_str().unwrap(),
            "--replicates",
            "40",
            "--threads",
            threads,
            "--format",
            "json",
        ])
    };
    let (one, two) = (eta("1"), eta("2"));
    assert!(one.status.success(), "{}", String::from_utf8_lossy(&one.stderr));
    assert_eq!(one.stdout, two.stdout, "byte-identical whatever the thread count");
    let r: serde_json::Value = serde_json::from_slice(&one.stdout).unwrap();
    assert_eq!(r["durations"], "history");
    assert!(r["jobs"].as_array().unwrap().iter().all(|j| j["start"].get("p50").is_some()));
}

#[test]
fn eta_cli_refuses_what_it_cannot_do_with_a_clear_message() {
    use quotasim_tests::cli::quotasim;
    let st = scratch("two.json", &quotasim::json::to_json(&two_shares()));
    let p = st.to_str().unwrap();
    let o = quotasim(&["eta", p, "--durations", "workload"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("workload section"));
    let o = quotasim(&["eta", p, "--job", "nobody"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--job[0]"));
    let job = scratch(
        "mine.json",
        r#"{"jobName": "mine", "quotaShareName": "B", "instanceType": "ml.g5.xlarge", "durationSeconds": 60}"#,
    );
    let o = quotasim(&["eta", p, "--submit", job.to_str().unwrap(), "--replicates", "20"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("mine [submitted] (B): starts in"), "{text}");
    assert!(text.contains("Durations: drawn from the history"), "{text}");
}
