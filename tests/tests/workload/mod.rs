//! Generated workloads: the `workload` section, its one generator, its problems with their
//! paths, and replicates (`compare --replicates`) that reproduce from their seeds.

mod fit;

use quotasim::change::{apply_changes, Change};
use quotasim::json::{parse_scenario, to_json};
use quotasim::model::Scenario;
use quotasim::workload::{expand, expanded, with_seed};
use quotasim::{generate, generate_workload, validate, GenerateOptions, Simulation};
use quotasim_tests::cli::{quotasim, stderr, stdout};
use serde_json::Value;

fn temp(name: &str, text: &str) -> String {
    let p = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("quotasim-workload-{}-{name}", std::process::id()));
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

/// Two teams on eight p5 instances, one paced by rate, one by load.
const TWO_TEAMS: &str = r#"{
  "formatVersion": 1,
  "settings": {"preemptionGraceSeconds": 120},
  "serviceEnvironment": {"capacityLimits": [{"capacityUnit": "ml.p5.48xlarge", "maxCapacity": 8}]},
  "quotaShares": [
    {"quotaShareName": "team-a", "capacityLimits": [{"capacityUnit": "ml.p5.48xlarge", "maxCapacity": 4}],
     "resourceSharingConfiguration": {"strategy": "LEND_AND_BORROW", "borrowLimit": -1},
     "preemptionConfiguration": {"inSharePreemption": "ENABLED"}},
    {"quotaShareName": "team-b", "capacityLimits": [{"capacityUnit": "ml.p5.48xlarge", "maxCapacity": 4}],
     "resourceSharingConfiguration": {"strategy": "RESERVE"}}
  ],
  "workload": {
    "seed": 7, "jobs": 300, "loadPercent": 90,
    "shares": [
      {"quotaShareName": "team-a", "weight": 2, "instanceTypes": [{"name": "ml.p5.48xlarge"}],
       "sizes": [{"instances": 1, "weight": 3}, {"instances": 2}, {"instances": 8}],
       "duration": {"distribution": "pareto", "minSeconds": 600, "maxSeconds": 86400},
       "priorities": [{"priority": 0, "weight": 3}, {"priority": 50}],
       "checkpoint": {"percent": 50, "values": [900]}},
      {"quotaShareName": "team-b", "jobs": 40, "arrivalsPerHour": 2,
       "instanceTypes": [{"name": "ml.p5.48xlarge"}],
       "duration": {"distribution": "fixed", "minSeconds": 1800, "maxSeconds": 1800},
       "preemptionRetries": {"percent": 100, "values": [2]}}
    ]
  },
  "jobs": [
    {"jobName": "team-a-0000000", "quotaShareName": "team-a", "instanceType": "ml.p5.48xlarge",
     "instanceCount": 1, "submitAt": 0, "durationSeconds": 60}
  ]
}"#;

fn two_teams() -> Scenario {
    parse_scenario(TWO_TEAMS).expect("parses")
}

#[test]
fn generate_lists_exactly_the_jobs_its_workload_section_expands_to() {
    for o in [GenerateOptions::new(2000, 6, 3, 11), GenerateOptions::benchmark(3000)] {
        let listed = generate(&o);
        let section = generate_workload(&o);
        assert!(section.jobs.is_empty() && section.workload.is_some());
        assert!(listed.workload.is_none());
        assert_eq!(listed.jobs, expand(&section).expect("valid workload"));
        assert_eq!(listed.jobs.len(), o.jobs as usize);
        // The expanded form runs the same as the section.
        let mut a = Simulation::new(validate(&listed).expect("valid"));
        let mut b = Simulation::new(validate(&section).expect("valid"));
        a.run();
        b.run();
        assert_eq!(to_json(&a.summary_result()), to_json(&b.summary_result()));
    }
}

#[test]
fn a_workload_is_deterministic_and_its_seed_matters() {
    let s = two_teams();
    let a = expand(&s).unwrap();
    assert_eq!(a, expand(&s).unwrap());
    assert_eq!(a.len(), 300 + 40);
    let other = expand(&with_seed(&s, 8)).unwrap();
    assert_ne!(a, other, "another seed, other jobs");
    // The same seed set by path gives the same jobs as with_seed.
    let by_path = apply_changes(&s, &[Change::parse("workload.seed=8").unwrap()]).unwrap();
    assert_eq!(expand(&by_path).unwrap(), other);
}

#[test]
fn weights_split_the_jobs_and_each_entry_follows_its_settings() {
    let s = two_teams();
    let jobs = expand(&s).unwrap();
    let a: Vec<_> = jobs.iter().filter(|j| j.quota_share_name == "team-a").collect();
    let b: Vec<_> = jobs.iter().filter(|j| j.quota_share_name == "team-b").collect();
    // team-b has its own 40; team-a takes all of workload.jobs (the only weighted entry).
    assert_eq!((a.len(), b.len()), (300, 40));
    // Fixed durations, the retries given to every job.
    assert!(b.iter().all(|j| j.duration_seconds == Some(1800)));
    assert!(b.iter().all(|j| j
        .preemption_configuration
        .as_ref()
        .unwrap()
        .preemption_retries_before_termination
        == Some(2)));
    assert!(b.iter().all(|j| j.checkpoint_interval_seconds.is_none() && j.scheduling_priority == 0));
    // Sizes above the share's quota (8 > 4) are lowered to it; durations in range.
    assert!(a.iter().all(|j| [1, 2, 4].contains(&j.instance_count.unwrap())));
    assert!(a.iter().any(|j| j.instance_count == Some(4)));
    assert!(a.iter().all(|j| j.duration_seconds.is_some_and(|d| (600..=86_400).contains(&d))));
    assert!(a.iter().all(|j| [0, 50].contains(&j.scheduling_priority)));
    let ck = a.iter().filter(|j| j.checkpoint_interval_seconds == Some(900)).count();
    assert!((90..=210).contains(&ck), "about half checkpoint: {ck}");
    // Two arrivals per hour: 40 arrivals take about 20 hours.
    let last = b.iter().map(|j| j.submit_at).max().unwrap();
    assert!((10 * 3600..=40 * 3600).contains(&last), "last arrival at {last}");
    // Arrival order, and a name already listed gets a suffix.
    assert!(jobs.windows(2).all(|w| w[0].submit_at <= w[1].submit_at));
    assert!(jobs.iter().any(|j| j.job_name == "team-a-0000000-2"));
    let e = expanded(&s).unwrap();
    assert_eq!(e.jobs[0].job_name, "team-a-0000000", "listed jobs come first");
    assert!(validate(&e).is_ok());
}

#[test]
fn load_percent_paces_arrivals_by_the_capacity_shares_own() {
    let mut s = two_teams();
    let w = s.workload.as_mut().unwrap();
    w.shares.truncate(1);
    let at = |load: f64| {
        let mut t = s.clone();
        t.workload.as_mut().unwrap().load_percent = Some(load);
        expand(&t).unwrap().iter().map(|j| j.submit_at).max().unwrap()
    };
    // Twice the load, half the window (the same draws, the gaps scaled).
    let (slow, fast) = (at(45.0), at(90.0));
    assert!((slow as f64 / fast as f64 - 2.0).abs() < 0.01, "{slow} vs {fast}");
}

#[test]
fn every_problem_of_a_workload_names_its_path() {
    let mut v: Value = serde_json::from_str(TWO_TEAMS).unwrap();
    let w = &mut v["workload"];
    w["seed"] = (-1).into();
    w["shares"][0]["quotaShareName"] = "team-z".into();
    w["shares"][1]["instanceTypes"] = serde_json::json!([{"name": "ml.nope", "weight": 1}]);
    w["shares"][1]["duration"]["maxSeconds"] = 10.into();
    w["shares"][1]["preemptionRetries"]["percent"] = 150.into();
    w["shares"][1].as_object_mut().unwrap().remove("arrivalsPerHour");
    w.as_object_mut().unwrap().remove("loadPercent");
    let s = parse_scenario(&v.to_string()).unwrap();
    let problems = validate(&s).unwrap_err();
    let paths: Vec<&str> = problems.iter().map(|p| p.path.as_str()).collect();
    for want in [
        "workload.seed",
        "workload.shares[0].quotaShareName",
        "workload.shares[1].instanceTypes[0].name",
        "workload.shares[1].duration.maxSeconds",
        "workload.shares[1].preemptionRetries.percent",
        "workload.shares[1].arrivalsPerHour",
    ] {
        assert!(paths.contains(&want), "{want} missing from {paths:?}");
    }
    // An unknown field of the section is refused while reading, naming it.
    let bad = TWO_TEAMS.replace("\"loadPercent\"", "\"load\"");
    let e = parse_scenario(&bad).unwrap_err();
    assert!(e.message.contains("unknown field `load`"), "{}", e.message);
}

#[test]
fn a_workload_too_large_is_refused_before_anything_is_generated() {
    let mut s = two_teams();
    s.workload.as_mut().unwrap().jobs = Some(quotasim::validate::MAX_JOBS as i64);
    let problems = validate(&s).unwrap_err();
    assert!(
        problems.iter().any(|p| p.path == "workload.jobs" && p.message.contains("more than")),
        "{problems:?}"
    );
}

#[test]
fn generate_workload_from_the_command_line_runs_like_the_listed_jobs() {
    let args = ["generate", "--jobs", "500", "--shares", "4", "--seed", "3"];
    let listed = quotasim(&args);
    let mut wargs = args.to_vec();
    wargs.push("--workload");
    let section = quotasim(&wargs);
    assert_eq!(section.status.code(), Some(0), "{}", stderr(&section));
    let v: Value = serde_json::from_slice(&section.stdout).unwrap();
    assert_eq!(v["workload"]["seed"], 3);
    assert_eq!(v["jobs"], serde_json::json!([]));
    let (lf, sf) = (temp("listed.json", &stdout(&listed)), temp("section.json", &stdout(&section)));
    let a = quotasim(&["run", &lf, "--summary"]);
    let b = quotasim(&["run", &sf, "--summary"]);
    assert_eq!(a.stdout, b.stdout);
    // --print-scenario shows the expanded jobs, and running that is the same run again.
    let printed = quotasim(&["run", &sf, "--print-scenario"]);
    assert_eq!(printed.status.code(), Some(0), "{}", stderr(&printed));
    let p: Value = serde_json::from_slice(&printed.stdout).unwrap();
    assert!(p.get("workload").is_none());
    assert_eq!(p["jobs"].as_array().unwrap().len(), 500);
    let pf = temp("printed.json", &stdout(&printed));
    assert_eq!(quotasim(&["run", &pf, "--summary"]).stdout, a.stdout);
}

#[test]
fn replicates_report_spreads_and_every_replicate_reproduces_from_its_seed() {
    let f = temp("two.json", TWO_TEAMS);
    let change = "quotaShares[team-b].resourceSharingConfiguration.strategy=LEND";
    let out = quotasim(&["compare", &f, "--set", change, "--replicates", "3"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["seeds"], serde_json::json!([7, 8, 9]));
    assert_eq!(r["changes"], serde_json::json!([change]));
    // Each seed's A and B, run on their own: the report's min/max/median are theirs.
    let mut a_util = Vec::new();
    let mut b_util = Vec::new();
    for seed in 7..=9 {
        let s = format!("workload.seed={seed}");
        let a = quotasim(&["run", &f, "--summary", "--set", &s]);
        let b = quotasim(&["run", &f, "--summary", "--set", &s, "--set", change]);
        let av: Value = serde_json::from_slice(&a.stdout).unwrap();
        let bv: Value = serde_json::from_slice(&b.stdout).unwrap();
        a_util.push(av["summary"]["overall"]["utilization"].as_f64().unwrap());
        b_util.push(bv["summary"]["overall"]["utilization"].as_f64().unwrap());
    }
    let u = &r["overall"]["utilization"];
    let mut sorted = a_util.clone();
    sorted.sort_by(f64::total_cmp);
    assert_eq!(u["a"]["min"].as_f64(), Some(sorted[0]));
    assert_eq!(u["a"]["median"].as_f64(), Some(sorted[1]));
    assert_eq!(u["a"]["max"].as_f64(), Some(sorted[2]));
    let d: Vec<f64> = a_util.iter().zip(&b_util).map(|(a, b)| b - a).collect();
    let up = d.iter().filter(|x| **x > 0.0).count() as u64;
    let down = d.iter().filter(|x| **x < 0.0).count() as u64;
    assert_eq!((u["up"].as_u64(), u["down"].as_u64()), (Some(up), Some(down)));
    assert_eq!(u["agree"].as_u64(), Some(up.max(down).max(3 - up - down)));
    assert!(r["perQuotaShare"]["team-b"]["preemptions.total"]["agree"].as_u64().is_some());
    // The same report whatever runs first: a second run gives the same bytes.
    assert_eq!(quotasim(&["compare", &f, "--set", change, "--replicates", "3"]).stdout, out.stdout);
    // Text and CSV.
    let t = quotasim(&["compare", &f, "--set", change, "--replicates", "3", "--format", "text"]);
    let text = stdout(&t);
    assert!(text.contains("over 3 seeds (7..=9)") && text.contains("utilization"), "{text}");
    let c = quotasim(&["compare", &f, "--set", change, "--replicates", "3", "--format", "csv"]);
    let csv = stdout(&c);
    assert!(csv.starts_with("scope,metric,a_median,a_min,a_max,b_median"), "{csv}");
    assert!(csv.lines().any(|l| l.starts_with("overall,utilization,")));
    // A share name that reads as a formula is written as text, as in sweep CSV.
    let f = temp("two-formula.json", &TWO_TEAMS.replace("\"team-b\"", "\"-team-b\""));
    let change = "quotaShares[-team-b].resourceSharingConfiguration.strategy=LEND";
    let c = quotasim(&["compare", &f, "--set", change, "--replicates", "2", "--format", "csv"]);
    let csv = stdout(&c);
    assert_eq!(c.status.code(), Some(0), "{}", stderr(&c));
    assert!(csv.lines().any(|l| l.starts_with("\"'-team-b\",preemptions.total,")), "{csv}");
    assert!(!csv.lines().any(|l| l.starts_with('-')), "{csv}");
}

#[test]
fn replicates_need_a_workload_section() {
    let f = quotasim_tests::cli::fixture("notebook.json").display().to_string();
    let out = quotasim(&["compare", &f, "--replicates", "2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("`workload` section"), "{}", stderr(&out));
    let zero = quotasim(&["compare", &f, "--replicates", "0"]);
    assert_eq!(zero.status.code(), Some(2));
}

/// One job of eight instances per hour that trains for 2^52 s: seed 2^53 - 1 is the last
/// valid seed, and its run passes 2^53 - 1 s.
const FAR: &str = r#"{"formatVersion":1,
 "serviceEnvironment":{"capacityLimits":[{"capacityUnit":"ml.g5.xlarge","maxCapacity":8}]},
 "quotaShares":[{"quotaShareName":"a","capacityLimits":[{"capacityUnit":"ml.g5.xlarge","maxCapacity":8}],
   "resourceSharingConfiguration":{"strategy":"LEND"}}],
 "workload":{"seed":9007199254740991,"jobs":4,"shares":[{"quotaShareName":"a","arrivalsPerHour":3600,
   "instanceTypes":[{"name":"ml.g5.xlarge"}],"sizes":[{"instances":8}],
   "duration":{"distribution":"fixed","minSeconds":4503599627370496,"maxSeconds":4503599627370496}}]}}"#;

#[test]
fn replicates_run_one_seed_at_a_time_and_report_the_first_that_fails() {
    // Seed 2^53 - 1 is valid and its run fails; seed 2^53 is not valid. Validating every
    // replicate before running any (2N expanded scenarios at once) reported seed 2^53; one
    // seed at a time runs seed 2^53 - 1 first, and its failure is the one reported.
    let f = temp("far.json", FAR);
    for threads_hint in ["2", "5"] {
        let o = quotasim(&["compare", &f, "--set", "settings.backfill=true", "--replicates", threads_hint]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        let e = stderr(&o);
        assert!(e.starts_with("quotasim: job a-0000001: its next event would come after 2^53 - 1 s"), "{e}");
        assert_eq!(e.lines().count(), 1, "{e}");
    }
}
