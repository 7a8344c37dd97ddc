//! `fit-workload`: a section fitted to listed jobs gives back, over seeds, what the jobs were:
//! per share the count, the span of arrivals, the hourly profile and the median duration.

use quotasim::fit_workload::{exposure, fit_workload, hour_of};
use quotasim::json::parse_scenario;
use quotasim::model::Scenario;
use quotasim::workload::{day_offset, expand, expanded, with_seed, ArrivalRate, Distribution};
use quotasim::{generate, generate_workload, GenerateOptions};
use quotasim_tests::cli::{fixture, quotasim, stderr, stdout};

/// Per share: jobs, span of arrivals from `start`, hourly profile (fractions), median duration.
struct Shape {
    jobs: usize,
    span: f64,
    hourly: [f64; 24],
    median: f64,
}

fn shape(jobs: &[&quotasim::model::Job], start: i64, offset: u64) -> Shape {
    let mut d: Vec<i64> = jobs.iter().map(|j| j.duration_seconds.unwrap()).collect();
    d.sort_unstable();
    let mut hourly = [0.0; 24];
    for j in jobs {
        hourly[hour_of(j.submit_at as u64, offset)] += 1.0 / jobs.len() as f64;
    }
    Shape {
        jobs: jobs.len(),
        span: (jobs.iter().map(|j| j.submit_at).max().unwrap() - start) as f64,
        hourly,
        median: d[d.len() / 2] as f64,
    }
}

/// Fits `source`, expands 10 seeds and checks each share with at least `min_jobs` jobs:
/// the count exactly; the span (mean over seeds) and the median duration (of the seeds'
/// jobs pooled) within `tolerance`; the hourly profile (pooled) within `profile` in total
/// variation. Returns how many shares were checked.
fn fits(source: &Scenario, min_jobs: usize, tolerance: f64, profile: f64) -> usize {
    let fitted = fit_workload(source).expect("a fit").scenario;
    assert!(fitted.jobs.is_empty());
    let w = fitted.workload.as_ref().unwrap();
    let start = w.start_at;
    let offset = day_offset(source);
    let mut checked = 0;
    for share in source.quota_shares.iter().map(|q| q.quota_share_name.as_str()) {
        let src: Vec<_> = source.jobs.iter().filter(|j| j.quota_share_name == share).collect();
        if src.is_empty() {
            assert!(w.shares.iter().all(|e| e.quota_share_name != share), "{share} has no jobs, no entry");
            continue;
        }
        let want = shape(&src, start, offset);
        let mut spans = 0.0;
        let mut pooled = Vec::new();
        for seed in 0..10 {
            let jobs = expand(&with_seed(&fitted, seed)).expect("the fitted section expands");
            let mine: Vec<_> = jobs.into_iter().filter(|j| j.quota_share_name == share).collect();
            assert_eq!(mine.len(), want.jobs, "{share} seed {seed}: the count");
            spans += shape(&mine.iter().collect::<Vec<_>>(), start, offset).span / 10.0;
            pooled.extend(mine);
        }
        if want.jobs < min_jobs {
            continue;
        }
        let got = shape(&pooled.iter().collect::<Vec<_>>(), start, offset);
        let near = |a: f64, b: f64| (a - b).abs() <= tolerance * b.abs().max(1.0);
        assert!(near(spans, want.span), "{share}: span {spans} vs {}", want.span);
        assert!(near(got.median, want.median), "{share}: median {} vs {}", got.median, want.median);
        let tv: f64 = (0..24).map(|h| (got.hourly[h] - want.hourly[h]).abs()).sum::<f64>() / 2.0;
        assert!(tv <= profile, "{share}: hourly profile {tv:.3} apart");
        eprintln!(
            "{share}: {} jobs, span {:.0} vs {:.0}, median {} vs {}, hourly profile {tv:.3} apart",
            want.jobs, spans, want.span, got.median, want.median
        );
        checked += 1;
    }
    checked
}

#[test]
fn fit_workload_gives_back_a_generated_history_over_ten_seeds() {
    // A history with a working day: 2,000 jobs per share over about 12 days, three times as
    // many arrivals from 09:00 to 18:00 as at night.
    let mut s = generate_workload(&GenerateOptions::new(6000, 3, 2, 3));
    let w = s.workload.as_mut().unwrap();
    w.load_percent = None;
    for e in &mut w.shares {
        e.jobs = Some(2000);
        e.arrivals_per_hour = Some(ArrivalRate::ByHour(
            (0..24).map(|h| if (9..18).contains(&h) { 12.0 } else { 4.0 }).collect(),
        ));
    }
    let source = expanded(&s).unwrap();
    assert_eq!(fits(&source, 100, 0.05, 0.05), 3);
}

#[test]
fn fit_workload_gives_back_the_openb_trace_excerpt_by_hour_of_the_day() {
    let o =
        quotasim(&["import", "trace", "--format", "openb", fixture("openb-excerpt.csv").to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let source = parse_scenario(&stdout(&o)).unwrap();
    let fitted = fit_workload(&source).unwrap();
    // 117 days: a rate per hour of the day, and empirical durations for the two large shares.
    let w = fitted.scenario.workload.as_ref().unwrap();
    let be = w.shares.iter().find(|e| e.quota_share_name == "BE").unwrap();
    assert!(
        matches!(&be.arrivals_per_hour, Some(quotasim::workload::ArrivalRate::ByHour(v)) if v.len() == 24)
    );
    assert_eq!(be.duration.distribution, quotasim::workload::Distribution::Empirical);
    assert_eq!(fits(&source, 100, 0.10, 0.10), 2);
}

#[test]
fn fit_workload_rates_give_the_count_over_the_span_and_hours_add_up() {
    let source = generate(&GenerateOptions::new(300, 2, 1, 8));
    let w = fit_workload(&source).unwrap().scenario.workload.unwrap();
    for e in &w.shares {
        let n = source.jobs.iter().filter(|j| j.quota_share_name == e.quota_share_name).count();
        let last = source
            .jobs
            .iter()
            .filter(|j| j.quota_share_name == e.quota_share_name)
            .map(|j| j.submit_at)
            .max();
        let span = (last.unwrap() - w.start_at) as f64;
        let Some(quotasim::workload::ArrivalRate::Flat(r)) = e.arrivals_per_hour else {
            panic!("a flat rate")
        };
        assert!((r * span / 3600.0 - n as f64).abs() < 1e-6, "{r}/h over {span} s for {n} jobs");
        assert_eq!(e.jobs, Some(n as i64));
    }
    // Exposure adds up to the span, whatever the day's offset.
    for offset in [0, 5400, 86_399] {
        assert_eq!(exposure(1000, 500_000, offset).iter().sum::<u64>(), 499_000);
    }
}

#[test]
fn fit_workload_cli_writes_the_fitted_scenario_and_refuses_what_it_cannot_fit() {
    let gen = quotasim(&["generate", "--jobs", "200", "--shares", "2", "--seed", "4"]);
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("quotasim-fit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("history.json");
    std::fs::write(&file, &gen.stdout).unwrap();
    let o = quotasim(&["fit-workload", file.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("one arrival rate per share"), "{}", stderr(&o));
    let fitted = parse_scenario(&stdout(&o)).unwrap();
    assert_eq!(fitted.workload.as_ref().unwrap().shares.len(), 2);
    // The fitted scenario runs, and is the engine's fit (the CLI adds nothing).
    let source = parse_scenario(&String::from_utf8_lossy(&gen.stdout)).unwrap();
    let engine = quotasim::json::to_json_pretty(&fit_workload(&source).unwrap().scenario);
    assert_eq!(stdout(&o).trim_end(), engine.trim_end());
    let fitted_file = dir.join("fitted.json");
    std::fs::write(&fitted_file, &o.stdout).unwrap();
    let run = quotasim(&["run", fitted_file.to_str().unwrap(), "--summary"]);
    assert!(run.status.success(), "{}", stderr(&run));
    // Fitting a fitted scenario (a section already, no jobs) names the field.
    let again = quotasim(&["fit-workload", fitted_file.to_str().unwrap()]);
    assert_eq!(again.status.code(), Some(1));
    assert!(stderr(&again).contains("workload"), "{}", stderr(&again));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn workload_hourly_rates_and_empirical_values_are_checked_with_their_paths() {
    let base = generate_workload(&GenerateOptions::new(100, 1, 1, 1));
    let problems = |f: &dyn Fn(&mut quotasim::workload::ShareWorkload)| -> Vec<String> {
        let mut s = base.clone();
        f(&mut s.workload.as_mut().unwrap().shares[0]);
        expand(&s).map(|_| Vec::new()).unwrap_or_else(|p| p.into_iter().map(|x| x.path).collect())
    };
    let at = |p: &str| vec![format!("workload.shares[0].{p}")];
    assert_eq!(
        problems(&|e| e.arrivals_per_hour = Some(ArrivalRate::ByHour(vec![1.0; 23]))),
        at("arrivalsPerHour")
    );
    assert_eq!(
        problems(&|e| e.arrivals_per_hour = Some(ArrivalRate::ByHour(vec![0.0; 24]))),
        at("arrivalsPerHour")
    );
    let mut v = vec![1.0; 24];
    v[5] = -1.0;
    assert_eq!(
        problems(&|e| e.arrivals_per_hour = Some(ArrivalRate::ByHour(v.clone()))),
        at("arrivalsPerHour[5]")
    );
    assert_eq!(problems(&|e| e.duration.distribution = Distribution::Empirical), at("duration.values"));
    assert_eq!(problems(&|e| e.duration.values = vec![e.duration.min_seconds]), at("duration.values"));
    assert_eq!(
        problems(&|e| {
            e.duration.distribution = Distribution::Empirical;
            e.duration.values = vec![e.duration.min_seconds, e.duration.max_seconds + 1];
        }),
        at("duration.values[1]")
    );
    // Read from JSON: a number or a list, and a clear message for anything else.
    let mut json: serde_json::Value = serde_json::from_str(&quotasim::json::to_json(&base)).unwrap();
    json["workload"]["shares"][0]["arrivalsPerHour"] = serde_json::json!(vec![2.5; 24]);
    let read = parse_scenario(&json.to_string()).unwrap();
    assert_eq!(read.workload.unwrap().shares[0].arrivals_per_hour, Some(ArrivalRate::ByHour(vec![2.5; 24])));
    json["workload"]["shares"][0]["arrivalsPerHour"] = serde_json::json!("often");
    let e = parse_scenario(&json.to_string()).map(drop).unwrap_err();
    assert!(e.message.contains("a list of 24"), "{}", e.message);
}
