//! "Which quotas should we set?" (`quotasim recommend`, issue 28 section 3): the closed form
//! (one team, 4 instances, 3 breaks its objective), guarantees against sharing (RESERVE alone
//! needs 6, lending needs 5, and 4 breaks the bursty team's objective), local optimality and
//! determinism on a generated five-share scenario (each certificate step re-run breaks an
//! objective, the same bytes on repeat, within the run budget), then the command line.

mod cli;

use quotasim::change::{apply_changes, Change};
use quotasim::json::{parse_scenario, to_json};
use quotasim::metric::summary_value;
use quotasim::model::Scenario;
use quotasim::objective::{check, load_objectives, Objectives};
use quotasim::recommend::space::parse_space;
use quotasim::recommend::{recommend, RecommendOptions, RecommendReport, SpaceFile};
use serde_json::{json, Value};

const P5: &str = "ml.p5.48xlarge";

fn scenario(v: Value) -> Scenario {
    parse_scenario(&v.to_string()).unwrap()
}

fn objectives(v: Value) -> Objectives {
    load_objectives(&v.to_string()).unwrap()
}

fn job(name: String, share: &str, at: i64, seconds: i64, checkpoint: Option<i64>) -> Value {
    let mut j = json!({"jobName": name, "quotaShareName": share, "instanceType": P5, "instanceCount": 1,
        "submitAt": at, "durationSeconds": seconds});
    if let Some(c) = checkpoint {
        j["checkpointIntervalSeconds"] = json!(c);
        j["preemptionConfiguration"] = json!({"preemptionRetriesBeforeTermination": 1000});
    }
    j
}

fn share(name: &str, quota: i64, sharing: Value) -> Value {
    json!({"quotaShareName": name, "capacityLimits": [{"capacityUnit": P5, "maxCapacity": quota}],
        "resourceSharingConfiguration": sharing})
}

/// Whether `s` changed by `set` (as `quotasim check --set` applies them) meets `o`, and the
/// metrics it breaks.
pub fn check_with(s: &Scenario, set: &[String], o: &Objectives) -> (bool, Vec<String>) {
    let changes: Vec<Change> = set.iter().map(|c| Change::parse(c).unwrap()).collect();
    let changed = apply_changes(s, &changes).unwrap();
    let r = quotasim::compare::run_to_end(quotasim::validate(&changed).unwrap(), false).unwrap();
    let summary = summary_value(&quotasim::compare::summary_of(&r));
    let report = check(o, &summary, None).unwrap();
    let unfinished = summary["summary"]["overall"]["unfinished"].as_u64().unwrap();
    let mut broken: Vec<String> =
        report.verdicts.iter().filter(|v| !v.met).map(|v| v.metric.clone()).collect();
    if unfinished > 0 {
        broken.push("overall.unfinished".into());
    }
    (broken.is_empty(), broken)
}

/// Every certificate step and each of its retries, re-run from the input scenario, breaks an
/// objective; the answer meets them all.
fn assert_certificate_holds(s: &Scenario, o: &Objectives, r: &RecommendReport) {
    assert!(r.feasible && r.proven, "{r:?}");
    let (met, broken) = check_with(s, &r.recommended.set, o);
    assert!(met, "the answer breaks {broken:?}");
    assert!(!r.certificate.is_empty());
    for c in &r.certificate {
        let (met, _) = check_with(s, &c.set, o);
        assert!(!met, "the step {:?} meets every objective", c.step);
        assert!(!c.breaks.is_empty(), "{:?}", c.step);
        assert!(c.cost < r.recommended.cost, "a certificate step must lower the cost: {:?}", c.step);
        for t in &c.retries {
            let mut set = r.recommended.set.clone();
            set.extend(t.step.iter().cloned());
            let (met, _) = check_with(s, &set, o);
            assert!(!met, "the retry {:?} meets every objective", t.step);
        }
    }
}

fn one_team() -> Scenario {
    let jobs: Vec<Value> = (0..7 * 96).map(|k| job(format!("j{k}"), "team", k * 900, 3600, None)).collect();
    scenario(json!({"formatVersion": 1,
        "serviceEnvironment": {"capacityLimits": [{"capacityUnit": P5, "maxCapacity": 10}]},
        "quotaShares": [share("team", 10, json!({"strategy": "RESERVE"}))],
        "jobs": jobs}))
}

#[test]
fn recommend_closed_form_one_team_needs_exactly_four_instances_and_three_break_its_wait() {
    let s = one_team();
    let o = objectives(json!({"objectives": [{"metric": "perQuotaShare.team.waitSeconds.p95", "max": 600}]}));
    let r = recommend(&s, &o, &SpaceFile::default(), &RecommendOptions::default()).unwrap();
    assert_eq!(r.minimize, "capacityPerHour");
    assert_eq!(r.cost_unit, "instances");
    assert_eq!(r.recommended.cost, Some(4.0));
    assert_eq!(r.input.cost, Some(10.0));
    assert_eq!(r.saves, Some(6.0));
    assert!(r.recommended.set.contains(&format!("serviceEnvironment.capacityLimits[{P5}].maxCapacity=4")));
    assert!(r.recommended.set.contains(&format!("quotaShares[team].capacityLimits[{P5}].maxCapacity=4")));
    // The certificate: 3 instances (the quota step, and the capacity step) break the wait.
    let three: Vec<_> = r.certificate.iter().filter(|c| c.cost == Some(3.0)).collect();
    assert_eq!(three.len(), 2, "{:?}", r.certificate);
    for c in three {
        assert_eq!(c.breaks[0].metric, "perQuotaShare.team.waitSeconds.p95");
        assert!(c.breaks[0].value.unwrap() > 600.0);
    }
    assert_certificate_holds(&s, &o, &r);
    assert!(r.runs <= u64::from(r.max_runs));
}

/// Team a: four 1-hour jobs at 0, 6, 12 and 18 h of every day; team b: two 24-hour jobs at
/// 0 and 1 h of every day that checkpoint every 600 s; seven days, 10 per instance-hour,
/// committed billing; the best RESERVE-only configuration (a 4, b 2).
fn two_teams() -> Scenario {
    let mut jobs = Vec::new();
    for d in 0..7 {
        for h in [0, 6, 12, 18] {
            for k in 0..4 {
                jobs.push(job(format!("a-d{d}-h{h}-{k}"), "a", d * 86400 + h * 3600, 3600, None));
            }
        }
        for h in [0, 1] {
            jobs.push(job(format!("b-d{d}-h{h}"), "b", d * 86400 + h * 3600, 86400, Some(600)));
        }
    }
    jobs.sort_by_key(|j| j["submitAt"].as_i64().unwrap());
    scenario(json!({"formatVersion": 1, "settings": {"billing": "committed"},
        "instanceTypes": [{"name": P5, "gpus": 8, "pricePerHour": 10}],
        "serviceEnvironment": {"capacityLimits": [{"capacityUnit": P5, "maxCapacity": 6}]},
        "quotaShares": [share("a", 4, json!({"strategy": "RESERVE"})), share("b", 2, json!({"strategy": "RESERVE"}))],
        "jobs": jobs}))
}

fn two_objectives() -> Objectives {
    objectives(json!({"objectives": [
        {"metric": "perQuotaShare.a.waitSeconds.p95", "max": 900},
        {"metric": "perQuotaShare.b.waitSeconds.p95", "max": 86400}]}))
}

#[test]
fn recommend_reserve_only_needs_six_and_lending_needs_five_with_a_lending_to_b() {
    let s = two_teams();
    let o = two_objectives();
    // RESERVE only: the sharing fixed as it is.
    let reserve = parse_space(
        r#"{"fixed":["quotaShares[a].resourceSharingConfiguration","quotaShares[b].resourceSharingConfiguration"]}"#,
    )
    .unwrap();
    let r = recommend(&s, &o, &reserve, &RecommendOptions::default()).unwrap();
    assert_eq!(r.recommended.cost, Some(60.0), "{:?}", r.recommended.words);
    assert!(
        r.recommended.set.is_empty(),
        "the input is the best RESERVE-only answer: {:?}",
        r.recommended.set
    );
    assert_certificate_holds(&s, &o, &r);

    let r = recommend(&s, &o, &SpaceFile::default(), &RecommendOptions::default()).unwrap();
    assert_eq!(r.recommended.cost, Some(50.0), "{:?}", r.recommended.words);
    assert_eq!(r.saves, Some(10.0));
    assert_eq!(r.cost_unit, "pricePerHour");
    let set = r.recommended.set.join(" ");
    assert!(
        set.contains(&format!("quotaShares[a].capacityLimits[{P5}].maxCapacity=4"))
            || !set.contains("quotaShares[a].capacityLimits"),
        "{set}"
    );
    assert!(set.contains(&format!("quotaShares[b].capacityLimits[{P5}].maxCapacity=1")), "{set}");
    // a lends (LEND, or LEND_AND_BORROW), b borrows.
    assert!(set.contains(r#"quotaShares[a].resourceSharingConfiguration={"strategy":"LEND"}"#), "{set}");
    assert!(set.contains(r#"quotaShares[b].resourceSharingConfiguration={"borrowLimit":"#), "{set}");
    assert!(
        r.recommended.words.iter().any(|w| w.starts_with("a: ") && w.contains("RESERVE -> LEND")),
        "{:?}",
        r.recommended.words
    );
    // 4 instances break a's objective.
    let four: Vec<_> = r.certificate.iter().filter(|c| c.cost == Some(40.0)).collect();
    assert!(!four.is_empty());
    for c in four {
        assert!(c.breaks.iter().any(|b| b.metric == "perQuotaShare.a.waitSeconds.p95"), "{:?}", c.breaks);
    }
    assert_certificate_holds(&s, &o, &r);
    // What each other sharing of a and b does at the answer, same cost.
    assert!(r
        .sensitivity
        .iter()
        .any(|x| x.words.iter().any(|w| w.starts_with("a: LEND -> RESERVE")) && !x.feasible));
}

fn five_shares() -> Scenario {
    let w = quotasim::generate_workload(&quotasim::GenerateOptions {
        jobs: 240,
        shares: 5,
        instance_types: 2,
        seed: 3,
        load_percent: 60,
        ..Default::default()
    });
    let mut s = w;
    s.instance_types[0].price_per_hour = Some(98.32);
    s.instance_types[1].price_per_hour = Some(32.77);
    s
}

fn five_objectives() -> Objectives {
    objectives(json!({"objectives": [
        {"metric": "perQuotaShare.*.waitSeconds.p95", "max": 36000},
        {"metric": "overall.preemptions.total", "max": 400}]}))
}

#[test]
fn recommend_five_shares_is_locally_optimal_deterministic_and_within_budget() {
    let s = five_shares();
    assert!(s.workload.is_some());
    let o = five_objectives();
    let opts = RecommendOptions { replicates: 2, ..RecommendOptions::default() };
    let r = recommend(&s, &o, &SpaceFile::default(), &opts).unwrap();
    assert_eq!(r.seeds.len(), 2);
    assert!(r.runs <= u64::from(r.max_runs));
    assert!(r.recommended.cost < r.input.cost, "{:?}", r.recommended.words);
    // Each seed's jobs are the input's expanded once: check the answer and the certificate on
    // each seed's expanded scenario.
    for seed in &r.seeds {
        let base = quotasim::workload::expanded(&quotasim::workload::with_seed(&s, *seed)).unwrap();
        let (met, broken) = check_with(&base, &r.recommended.set, &o);
        assert!(met, "seed {seed}: the answer breaks {broken:?}");
    }
    // With two seeds and confidence 1, a step breaks an objective on at least one seed.
    let bases: Vec<Scenario> = r
        .seeds
        .iter()
        .map(|k| quotasim::workload::expanded(&quotasim::workload::with_seed(&s, *k)).unwrap())
        .collect();
    assert!(r.proven);
    for c in &r.certificate {
        assert!(bases.iter().any(|b| !check_with(b, &c.set, &o).0), "{:?} meets on every seed", c.step);
    }
    // The same bytes on repeat; a smaller budget stops within it, unproven.
    let again = recommend(&s, &o, &SpaceFile::default(), &opts).unwrap();
    assert_eq!(to_json(&r), to_json(&again));
    let small = RecommendOptions { max_runs: 40, ..opts };
    let cut = recommend(&s, &o, &SpaceFile::default(), &small).unwrap();
    assert!(cut.runs <= 40, "{}", cut.runs);
    assert!(!cut.proven);
    assert!(cut.notes.iter().any(|n| n.contains("budget")), "{:?}", cut.notes);
}

#[test]
fn recommend_nothing_feasible_names_the_closest_candidate() {
    let s = one_team();
    // 672 jobs of 1 instance for an hour cannot keep the environment more than fully busy.
    let o = objectives(json!({"objectives": [{"metric": "overall.utilization", "min": 1.01},
        {"metric": "perQuotaShare.team.waitSeconds.p95", "max": 600}]}));
    let r = recommend(&s, &o, &SpaceFile::default(), &RecommendOptions::default()).unwrap();
    assert!(!r.feasible && !r.proven);
    assert!(r.certificate.is_empty());
    assert!(!r.recommended.feasible);
    assert!(r.recommended.verdicts.iter().any(|v| !v.met));
}

/// Actions on jobs (`updateServiceJob`, `terminateServiceJob`) do not stop the study: the
/// objectives are checked against a run without jobs, which must not keep actions naming them.
#[test]
fn recommend_a_scenario_whose_actions_name_jobs() {
    let mut v = serde_json::to_value(one_team()).unwrap();
    v["actions"] = json!([{"at": 1800, "updateServiceJob": {"jobName": "j3", "schedulingPriority": 5}},
        {"at": 2700, "terminateServiceJob": {"jobName": "j4"}}]);
    let s = scenario(v);
    let o = objectives(json!({"objectives": [{"metric": "perQuotaShare.team.waitSeconds.p95", "max": 600}]}));
    let r = recommend(&s, &o, &SpaceFile::default(), &RecommendOptions::default()).unwrap();
    assert!(r.feasible && r.proven, "{r:?}");
    assert_eq!(r.recommended.cost, Some(4.0));
}

#[test]
fn recommend_minimize_a_metric_every_neighbour_breaks_an_objective_or_is_no_better() {
    // Preemptions are what b's borrowing costs; minimise them with the waits as objectives.
    let s = two_teams();
    let o = two_objectives();
    let opts = RecommendOptions {
        minimize: Some("overall.preemptions.total".into()),
        ..RecommendOptions::default()
    };
    let space = parse_space(
        r#"{"axes":[{"path":"serviceEnvironment.capacityLimits[ml.p5.48xlarge].maxCapacity","range":{"from":4,"to":8,"step":1}},
            {"path":"quotaShares[a].capacityLimits[ml.p5.48xlarge].maxCapacity","range":{"from":1,"to":6,"step":1}},
            {"path":"quotaShares[b].capacityLimits[ml.p5.48xlarge].maxCapacity","range":{"from":1,"to":6,"step":1}}]}"#,
    )
    .unwrap();
    let r = recommend(&s, &o, &space, &opts).unwrap();
    assert_eq!(r.minimize, "overall.preemptions.total");
    assert_eq!(r.cost_unit, "metric");
    assert!(r.feasible && r.proven, "{:?}", r.notes);
    let best = r.recommended.cost.unwrap();
    assert!(best <= r.input.cost.unwrap());
    assert!(!r.certificate.is_empty());
    for c in &r.certificate {
        assert!(
            !c.breaks.is_empty() || c.cost.is_none_or(|x| x >= best),
            "{:?} is better and feasible",
            c.step
        );
        // Each neighbour is one step in one dimension from the answer.
        assert_eq!(c.step.len(), 1, "{:?}", c.step);
    }
    let (met, broken) = check_with(&s, &r.recommended.set, &o);
    assert!(met, "{broken:?}");
}

#[test]
fn recommend_a_capacity_of_millions_is_searched_on_a_ladder_and_a_quota_above_it_is_tidied() {
    let mut s = one_team();
    s.service_environment.capacity_limits[0].max_capacity = 5_000_000;
    s.quota_shares[0].capacity_limits[0].max_capacity = 3_000_000;
    s.jobs.truncate(200);
    let o = objectives(json!({"objectives": [{"metric": "perQuotaShare.team.waitSeconds.p95", "max": 600}]}));
    let r = recommend(&s, &o, &SpaceFile::default(), &RecommendOptions::default()).unwrap();
    assert_eq!(r.recommended.cost, Some(4.0));
    assert!(
        r.recommended.set.contains(&format!("quotaShares[team].capacityLimits[{P5}].maxCapacity=4")),
        "{:?}",
        r.recommended.set
    );
    assert!(r.runs < 100, "{}", r.runs);
    let space = quotasim::recommend::space::build_space(&s, &SpaceFile::default()).unwrap();
    assert!(space.dims.iter().all(|d| d.values.len() <= quotasim::recommend::space::DENSE + 2));
}
