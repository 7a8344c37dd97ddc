//! `eta --backtest`: AWS history replayed job by job, the forecast next to the actual start and
//! to Kueue's and Slurm's estimates, on a history the engine made itself.

use std::collections::BTreeMap;

use quotasim::aws::{eventbridge, DEFAULT_ORIGIN_MILLIS};
use quotasim::eta::backtest::{Backtest, BacktestOptions};
use quotasim::model::Scenario;
use quotasim::{generate, validate, GenerateOptions, Simulation};

/// A generated history with timeouts of twice each duration, its run, and its EventBridge
/// export without what AWS does not send (`lostWorkSeconds`).
fn history(jobs: u64, shares: u32, seed: u64, load: u32) -> (Scenario, quotasim::result::SimResult, String) {
    let mut o = GenerateOptions::new(jobs, shares, 2, seed);
    o.load_percent = load;
    let mut s = generate(&o);
    for j in &mut s.jobs {
        j.timeout_seconds = j.duration_seconds.map(|d| 2 * d);
    }
    let mut sim = Simulation::new(validate(&s).unwrap());
    sim.run();
    let r = sim.result();
    let lines: Vec<String> = eventbridge(&s, &r, DEFAULT_ORIGIN_MILLIS)
        .unwrap()
        .into_iter()
        .map(|mut e| {
            if let Some(d) = e.get_mut("detail").and_then(|d| d.as_object_mut()) {
                d.remove("lostWorkSeconds");
            }
            quotasim::json::to_json(&e)
        })
        .collect();
    (s, r, lines.join("\n"))
}

#[test]
fn eta_backtest_replays_every_job_against_its_actual_start_and_beats_slurm() {
    // Smoke size (the README's figures come from scripts/eta-backtest.sh, 2,000 jobs).
    let (_, run, text) = history(100, 3, 5, 90);
    let opts = BacktestOptions { replicates: 8, seed: 0, horizon: 86_400, resample: false };
    let b = Backtest::new(vec![("history.jsonl".into(), text.clone())], opts).unwrap();
    assert_eq!((b.len(), b.never_started), (100, 0));
    let cases: Vec<_> = (0..b.len()).map(|i| b.case(i).unwrap()).collect();
    // Every actual start is the run's (dispatch after submission).
    let truth: BTreeMap<&str, u64> =
        run.jobs.iter().map(|j| (j.job_name.as_str(), j.first_started_at.unwrap() - j.submit_at)).collect();
    for c in &cases {
        assert_eq!(c.actual, truth[c.job_name.as_str()], "{}", c.job_name);
        // Percentiles in order, `None` (not started by the horizon) the latest.
        let le = |a: Option<u64>, b: Option<u64>| b.is_none() || a.is_some_and(|a| Some(a) <= b);
        assert!(le(c.p10, c.p50) && le(c.p50, c.p90), "{c:?}");
    }
    let waited = cases.iter().filter(|c| c.actual > 0).count();
    assert!(waited >= 10, "the history has waits to forecast: {waited}");
    let r = b.report(cases);
    let w = r.waited.as_ref().unwrap();
    assert_eq!((r.all.jobs, w.jobs), (100, waited as u64));
    // Durations drawn from what finished beat every job taking its (doubled) timeout.
    assert!(
        r.all.forecast.mean_absolute_error < r.all.slurm.mean_absolute_error,
        "forecast {:?} vs Slurm {:?}",
        r.all.forecast,
        r.all.slurm
    );
    assert!(r.all.band_coverage > 0.5 && r.all.band_coverage <= 1.0, "{}", r.all.band_coverage);
    // Each case depends on its job alone: the same in any order.
    for i in [77, 12, 45] {
        assert_eq!(b.case(i).unwrap(), r.cases[i]);
    }
    // Resampled arrivals: more later work changes some forecasts.
    let opts = BacktestOptions { resample: true, ..opts };
    let rb = Backtest::new(vec![("history.jsonl".into(), text)], opts).unwrap();
    let later = (0..rb.len()).filter(|&i| r.cases[i].actual > 0).take(8).map(|i| (i, rb.case(i).unwrap()));
    let mut moved = 0;
    for (i, c) in later {
        let (a, b) = (r.cases[i].p90.unwrap_or(u64::MAX), c.p90.unwrap_or(u64::MAX));
        moved += usize::from(b != a);
    }
    assert!(moved > 0, "resampled arrivals change some forecast");
}

#[test]
fn eta_backtest_cli_prints_the_three_methods_and_refuses_a_state_with_it() {
    let (_, _, text) = history(40, 3, 5, 90);
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("quotasim-backtest-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("history.jsonl");
    std::fs::write(&f, text).unwrap();
    let f = f.to_str().unwrap();
    let o = quotasim_tests::cli::quotasim(&["eta", "--backtest", f, "--replicates", "3", "--threads", "2"]);
    let out = quotasim_tests::cli::stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{}", quotasim_tests::cli::stderr(&o));
    for m in ["forecast (p50)", "Kueue (position / rate)", "Slurm (timeouts)", "Not seen by a backtest"] {
        assert!(out.contains(m), "{m}: {out}");
    }
    let one = quotasim_tests::cli::quotasim(&[
        "eta",
        "--backtest",
        f,
        "--replicates",
        "5",
        "--threads",
        "1",
        "--format",
        "json",
    ]);
    let two = quotasim_tests::cli::quotasim(&[
        "eta",
        "--backtest",
        f,
        "--replicates",
        "5",
        "--threads",
        "2",
        "--format",
        "json",
    ]);
    assert_eq!(one.stdout, two.stdout, "the same bytes on any thread count");
    let o = quotasim_tests::cli::quotasim(&["eta", "state.json", "--backtest", f]);
    assert_eq!(o.status.code(), Some(2));
}
