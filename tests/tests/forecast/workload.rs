//! Forecasts whose uncertainty comes from the state's `workload` section: durations drawn
//! from its share's entry (a running job's beyond what it has trained), arrivals drawn at
//! its rates, and the history falling back to it.

use super::{forecast, opts, scratch, two_shares};
use quotasim::eta::{Arrivals, Durations, EtaOptions, Forecast};
use quotasim::model::Scenario;
use quotasim::workload::Workload;
use quotasim_tests::*;

fn section(text: &str) -> Option<Workload> {
    Some(serde_json::from_str(text).expect("a workload section"))
}

/// A's entry: uniform 300..3000 s, no jobs of its own to expand.
const A_UNIFORM: &str = r#"{"shares": [{"quotaShareName": "A", "jobs": 0, "arrivalsPerHour": 1,
    "instanceTypes": [{"name": "ml.g5.xlarge"}],
    "duration": {"distribution": "uniform", "minSeconds": 300, "maxSeconds": 3000}}]}"#;

#[test]
fn eta_workload_durations_follow_the_section_beyond_what_was_trained() {
    // a-run has trained 600 s at startAt 1000: its remaining duration is uniform beyond 600
    // up to 3000, so a-next starts uniformly in (0, 2400] after startAt. Without a history
    // the section is the default; B has no entry, and its jobs fall back to their timeouts.
    let mut s = two_shares();
    s.history.clear();
    s.workload = section(A_UNIFORM);
    s.jobs[2].timeout_seconds = Some(900);
    s.jobs[3].timeout_seconds = Some(300);
    let r = forecast(&s, EtaOptions { replicates: 400, ..EtaOptions::default() });
    assert_eq!(r.durations, Durations::Workload);
    let a = r.jobs.iter().find(|j| j.job_name == "a-next").unwrap();
    assert_eq!(a.started_replicates, 400);
    let (p10, p50, p90) = (a.start.p10.unwrap(), a.start.p50.unwrap(), a.start.p90.unwrap());
    assert!(p10 > 0 && p90 <= 2400, "{p10} {p90}");
    assert!((p10 as i64 - 240).abs() <= 120, "p10 {p10}: a tenth of 2400");
    assert!((p50 as i64 - 1200).abs() <= 200, "p50 {p50}: the middle of 0..2400");
    assert!((p90 as i64 - 2160).abs() <= 120, "p90 {p90}");
    // A's two jobs from the section, B's from their timeouts: b-run ends at 800 + 900.
    assert_eq!(r.draws_by_source.get("workload").copied(), Some(2 * 400));
    assert_eq!(r.draws_by_source.get("timeout").copied(), Some(2 * 400));
    let b = r.jobs.iter().find(|j| j.job_name == "b-next").unwrap();
    assert_eq!(b.start.p50, Some(700));
}

#[test]
fn eta_workload_durations_fall_back_past_the_section_s_longest() {
    // a-run has trained 600 s, beyond a fixed 500 s entry: its timeout, then twice the entry's
    // longest when it has none.
    let mut s = two_shares();
    s.history.clear();
    s.workload = section(
        &A_UNIFORM.replace("uniform", "fixed").replace("\"maxSeconds\": 3000", "\"maxSeconds\": 500"),
    );
    s.jobs[2].duration_seconds = Some(1000);
    s.jobs[3].duration_seconds = Some(100);
    let r = forecast(&s, opts(Durations::Workload, 5));
    // a-run: twice 500 = 1000 s of training from 400, ends at 1400; a-next starts 400 later.
    let a = r.jobs.iter().find(|j| j.job_name == "a-next").unwrap();
    assert_eq!(a.start.p50, Some(400));
    assert_eq!(r.draws_by_source.get("twiceLargest").copied(), Some(5));
    // a-next is new: the fixed 300 s (its `minSeconds`) from the section.
    assert_eq!(r.draws_by_source.get("workload").copied(), Some(5));
    assert_eq!(r.draws_by_source.get("asWritten").copied(), Some(2 * 5));
    s.jobs[0].timeout_seconds = Some(700);
    let r = forecast(&s, opts(Durations::Workload, 5));
    assert_eq!(r.jobs.iter().find(|j| j.job_name == "a-next").unwrap().start.p50, Some(100));
    assert_eq!(r.draws_by_source.get("timeout").copied(), Some(5));
}

#[test]
fn eta_history_falls_back_to_the_workload_section_before_the_timeout() {
    // A has no history: the section draws its durations, not the timeout.
    let mut s = two_shares();
    s.history.retain(|h| h.quota_share_name == "B");
    s.jobs[0].timeout_seconds = Some(2000);
    s.workload = section(A_UNIFORM);
    let r = forecast(&s, opts(Durations::History, 50));
    assert_eq!(r.draws_by_source.get("workload").copied(), Some(2 * 50));
    assert_eq!(r.draws_by_source.get("history").copied(), Some(2 * 50));
    assert_eq!(r.draws_by_source.get("timeout"), None);
    let a = r.jobs.iter().find(|j| j.job_name == "a-next").unwrap();
    assert!(a.start.p10 < a.start.p90, "drawn, not the timeout's one outcome");
    assert!(a.start.p90.unwrap() <= 2400);
    // B's history is still B's.
    let mut b_only = s.clone();
    b_only.workload = None;
    let without = forecast(&b_only, opts(Durations::History, 50));
    let b = |r: &quotasim::eta::EtaReport| r.jobs.iter().find(|j| j.job_name == "b-next").unwrap().start;
    assert_eq!(b(&r), b(&without));
}

/// One share of one instance busy for 1000 s more; `q` (priority 0) waits behind it.
fn busy(rate_per_hour: f64) -> Scenario {
    let mut s = Sc::new()
        .start_at(1000)
        .capacity(G5, 1)
        .share(reserve("A", G5, 1))
        .job(job("run", "A").started(0).dur(2000))
        .job(job("q", "A").at(500).dur(300))
        .job(job("later", "A").at(1010).prio(50).dur(5000))
        .build();
    s.workload = section(&format!(
        r#"{{"shares": [{{"quotaShareName": "A", "jobs": 3, "arrivalsPerHour": {rate_per_hour},
            "instanceTypes": [{{"name": "ml.g5.xlarge"}}], "priorities": [{{"priority": 10}}],
            "duration": {{"distribution": "fixed", "minSeconds": 600, "maxSeconds": 600}}}}]}}"#
    ));
    s
}

#[test]
fn eta_workload_arrivals_come_at_the_section_s_rate_instead_of_the_listed_ones() {
    let exact = |arrivals| EtaOptions {
        arrivals,
        horizon: 3600,
        durations: Some(Durations::Exact),
        replicates: 200,
        ..EtaOptions::default()
    };
    let q = |r: &quotasim::eta::EtaReport| r.jobs.iter().find(|j| j.job_name == "q").unwrap().clone();
    // Listed: `later` (priority 50) and the section's 3 expanded jobs arrive; `later` runs
    // 5000 s, past the horizon, so q never starts.
    let listed = forecast(&busy(60.0), exact(Arrivals::Listed));
    assert_eq!(q(&listed).started_replicates, 0);
    // None: q starts when `run` ends.
    let none = forecast(&busy(60.0), exact(Arrivals::None));
    assert_eq!(q(&none).start.p50, Some(1000));
    // Workload at 60 an hour: `later` is left out, and in nearly every replicate a
    // priority-10 job arrives in the first 1000 s and goes first (600 s each).
    let w = forecast(&busy(60.0), exact(Arrivals::Workload));
    assert_eq!(w.arrivals, Arrivals::Workload);
    let qw = q(&w);
    assert!(qw.start.p10.is_none_or(|p| p >= 1600), "{:?}", qw.start);
    // Arrivals over the hour after startAt: about 60 per replicate, counted as drawn from
    // the section (every listed job is exact).
    let arrived = w.draws_by_source.get("workload").copied().unwrap();
    assert!((arrived as f64 / 200.0 - 60.0).abs() < 3.0, "{arrived} arrivals in 200 replicates");
    // At a rate near 0 nothing arrives: q starts as with none.
    let quiet = forecast(&busy(0.0001), exact(Arrivals::Workload));
    assert_eq!(q(&quiet).start, q(&none).start);
    // The arrivals are keyed by (seed, replicate, share): another job's change moves nothing.
    let mut changed = busy(60.0);
    changed.jobs[1].scheduling_priority = 1;
    let again = forecast(&changed, exact(Arrivals::Workload));
    assert_eq!(again.draws_by_source, w.draws_by_source);
}

#[test]
fn eta_workload_arrivals_paced_by_load_come_at_the_expanded_section_s_pace() {
    // A section paced by loadPercent: the rate `--arrivals workload` uses is the one its
    // expansion has (its count over the span of their arrivals).
    let mut s = busy(1.0);
    let w = s.workload.as_mut().unwrap();
    w.load_percent = Some(50.0);
    w.shares[0].arrivals_per_hour = None;
    w.shares[0].jobs = Some(400);
    let rate = quotasim::workload::arrival_paces(&s).unwrap()[0].mean_per_second();
    let jobs = quotasim::workload::expand(&s).unwrap();
    let span = (jobs.last().unwrap().submit_at - s.settings.start_at) as f64;
    assert!((rate * span / 400.0 - 1.0).abs() < 0.15, "rate {rate}/s over {span} s");
    // 400 jobs of 600 s on one instance at 50 %: one every 1200 s.
    assert!((1.0 / rate - 1200.0).abs() < 1200.0 * 0.15, "{}", 1.0 / rate);
}

#[test]
fn eta_workload_modes_need_a_section_and_the_cli_takes_them() {
    let s = two_shares();
    for (o, path) in [
        (opts(Durations::Workload, 3), "--durations"),
        (EtaOptions { arrivals: Arrivals::Workload, ..opts(Durations::History, 3) }, "--arrivals"),
    ] {
        let p = Forecast::new(&s, o).map(drop).unwrap_err();
        assert_eq!(p[0].path, path);
        assert!(p[0].message.contains("workload section"), "{}", p[0].message);
    }
    use quotasim_tests::cli::quotasim;
    let file = scratch("busy.json", &quotasim::json::to_json(&busy(60.0)));
    let f = file.to_str().unwrap();
    let o = quotasim(&[
        "eta",
        f,
        "--durations",
        "workload",
        "--arrivals",
        "workload",
        "--replicates",
        "20",
        "--format",
        "json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let r: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!((r["durations"].as_str(), r["arrivals"].as_str()), (Some("workload"), Some("workload")));
    let o = quotasim(&["eta", f, "--arrivals", "workload", "--replicates", "20"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("Arrivals: drawn at the workload section's rates"), "{text}");
    let two = scratch("two-shares.json", &quotasim::json::to_json(&two_shares()));
    let o = quotasim(&["eta", two.to_str().unwrap(), "--durations", "workload"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--durations"));
}
