//! The surfaces that take more than a scenario, fuzzed so that the next one gets these cases
//! for free: change paths of any depth (on a small stack), replicate counts and seeds near
//! 2^53, merges of truncated, foreign and duplicated shards, and importers whose outputs must
//! always be valid scenarios.

use proptest::prelude::*;
use quotasim::change::{apply_changes, Change};
use quotasim::json::parse_scenario;
use quotasim::model::Scenario;
use quotasim::sweep::{check_sweep, parse_sweep, run_all};
use quotasim::validate;
use serde_json::{json, Value};

use super::{cases, notebook};

/// A step of a path: fields of the format, AWS fields it ignores, names, entries and stars.
fn step() -> impl Strategy<Value = String> {
    let field = prop::sample::select(vec![
        "settings",
        "quotaShares",
        "jobs",
        "tags",
        "capacityLimits",
        "maxCapacity",
        "resourceSharingConfiguration",
        "serviceRequestPayload",
        "ResourceConfig",
        "workload",
        "shares",
        "a",
        "jobArn",
        "x\u{1b}",
    ]);
    let entry = prop::sample::select(vec!["", "[*]", "[qs1]", "[0]", "[ml.p5.48xlarge]", "[nope]"]);
    (field, entry).prop_map(|(f, e)| format!("{f}{e}"))
}

/// Runs `f` on a thread with a small stack: a walk whose depth follows the input would
/// overflow it.
fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new().stack_size(256 * 1024).spawn(f).unwrap().join().unwrap();
}

fn tiny_workload() -> Scenario {
    let mut s = parse_scenario(&notebook()).unwrap();
    s.jobs.clear();
    s.actions.clear();
    let w = json!({"seed": 0, "jobs": 12, "shares": [
        {"quotaShareName": "qs1", "arrivalsPerHour": 6, "instanceTypes": [{"name": "ml.g5.xlarge"}],
         "duration": {"distribution": "uniform", "minSeconds": 60, "maxSeconds": 3600}}]});
    s.workload = Some(serde_json::from_value(w).unwrap());
    s
}

/// The JSON lines of a small sweep over the notebook (six rows), and of a foreign one with the
/// same axis paths and other values.
fn sweep_lines(values: &str) -> Vec<String> {
    let text = format!(
        r#"{{"base":"x","axes":[{{"path":"quotaShares[qs1].resourceSharingConfiguration.borrowLimit","values":{values}}},
              {{"path":"settings.preemptionGraceSeconds","values":[60,120]}}],
            "frontier":["overall.utilization:max"]}}"#
    );
    let base = parse_scenario(&notebook()).unwrap();
    let sweep = check_sweep(&parse_sweep(&text).unwrap(), &base, 1000).unwrap();
    run_all(&base, &sweep).iter().map(quotasim::json::to_json).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(48), ..ProptestConfig::default() })]

    #[test]
    fn change_paths_of_any_depth_are_refused_or_applied_never_a_crash(
        steps in prop::collection::vec(step(), 1..12),
        repeat in prop::sample::select(vec![1usize, 2, 1000, 20_000]),
        value in prop::sample::select(vec!["1", "\"x\"", "{}", "[]", "null", "true"]),
    ) {
        let one = steps.join(".");
        let path = if repeat == 1 { one } else { vec![one; repeat].join(".") };
        let arg = format!("{path}={value}");
        on_small_stack(move || {
            let s = parse_scenario(&notebook()).unwrap();
            match Change::parse(&arg) {
                Err(p) => assert!(p.to_string().len() <= quotasim::validate::MAX_MESSAGE),
                Ok(c) => match apply_changes(&s, std::slice::from_ref(&c)) {
                    Ok(_) => assert!(c.path.matches(['.', '[']).count() <= 2 * quotasim::path::MAX_STEPS),
                    Err(p) => {
                        assert_eq!(p.path.len().min(4096), p.path.len());
                        assert!(!p.to_string().contains('\u{1b}'));
                        assert!(p.to_string().len() <= quotasim::validate::MAX_MESSAGE);
                    }
                },
            }
        });
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(8), ..ProptestConfig::default() })]

    #[test]
    fn replicates_of_any_count_and_seed_report_each_seed_once_or_the_first_failure(
        n in 1u32..6,
        base in prop::sample::select(vec![0i64, 7, 9_007_199_254_740_988, 9_007_199_254_740_991]),
    ) {
        let mut a = tiny_workload();
        a.workload.as_mut().unwrap().seed = base;
        let mut b = a.clone();
        b.settings.backfill = true;
        let seeds = quotasim::replicates::seeds(base, n);
        prop_assert_eq!(seeds.len(), n as usize);
        let outcomes: Vec<_> = seeds.iter().enumerate().map(|(k, s)| (k, quotasim::replicates::run_seed(&a, &b, *s))).collect();
        // Out of order, the same first failure.
        let first = quotasim::replicates::first_failure(outcomes.iter().rev()).cloned();
        let past = seeds.iter().position(|s| *s > quotasim::validate::MAX_SAFE);
        match (first, past) {
            (None, None) => {
                let pairs: Vec<_> = outcomes.into_iter().map(|(_, r)| r.unwrap()).collect();
                let r = quotasim::replicates::report(seeds.clone(), &pairs, Vec::new());
                prop_assert_eq!(r.seeds, seeds);
            }
            (Some(quotasim::replicates::Failure::Invalid { a: true, problems }), Some(k)) => {
                prop_assert_eq!(&problems[0].path, "workload.seed");
                prop_assert!(outcomes[..k].iter().all(|(_, r)| r.is_ok()));
            }
            (f, p) => prop_assert!(false, "{:?} with seeds past 2^53 - 1 from {:?}", f, p),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(64), ..ProptestConfig::default() })]

    #[test]
    fn merges_of_cut_foreign_or_repeated_shards_are_refused_or_the_whole_sweep(
        shards in 1usize..5,
        damage in 0u8..6,
        at in any::<prop::sample::Index>(),
        cut in any::<prop::sample::Index>(),
    ) {
        let whole = sweep_lines("[0,100,200]");
        let foreign = sweep_lines("[0,100,300]");
        let mut files: Vec<Vec<String>> = (0..shards)
            .map(|i| whole.iter().enumerate().filter(|(k, _)| k % shards == i).map(|(_, l)| l.clone()).collect())
            .collect();
        let k = at.index(whole.len());
        let f = k % shards;
        let j = files[f].iter().position(|l| *l == whole[k]).unwrap();
        match damage {
            0 => {}
            1 => { files[f].remove(j); }
            2 => { let l = &files[f][j]; let c = cut.index(l.len()); files[f][j] = l[..c].to_string(); }
            3 => files[f][j] = foreign[k].clone(),
            4 => files[(f + 1) % shards].push(whole[k].clone()),
            _ => files.iter_mut().for_each(Vec::clear),
        }
        let named: Vec<(String, String)> =
            files.iter().enumerate().map(|(i, l)| (format!("shard-{i}.jsonl"), l.join("\n"))).collect();
        match quotasim::sweep::merge::merge(&named) {
            Ok(m) => {
                prop_assert!(damage == 0, "damage {} was merged", damage);
                if damage == 0 {
                    // The frontier is set again over every row: the unsharded bytes.
                    prop_assert_eq!(m.lines, whole);
                }
            }
            Err(p) => {
                prop_assert!(damage != 0, "a whole sweep was refused: {}", p);
                prop_assert!(p.to_string().len() <= quotasim::validate::MAX_MESSAGE);
            }
        }
    }
}

/// Extreme and hostile values for an importer's fields.
fn hostile() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!(1e300)),
        Just(json!(-1e300)),
        Just(json!(i64::MAX)),
        Just(json!(9_007_199_254_740_992i64)),
        Just(json!("9223372036854775807")),
        Just(json!(-1)),
        Just(json!(0)),
        Just(json!(99_999)),
        Just(json!("evil name\u{1b}[2J")),
        Just(json!("same")),
        Just(json!("")),
        Just(json!(null)),
        Just(json!({"x": [1]})),
        Just(json!("x".repeat(300))),
    ]
}

const JOB_FIELDS: &[&str] = &[
    "/jobId",
    "/jobName",
    "/quotaShareName",
    "/createdAt",
    "/startedAt",
    "/stoppedAt",
    "/schedulingPriority",
    "/capacityUsage/0/quantity",
    "/capacityUsage/0/capacityUnit",
    "/preemptionSummary/preemptedAttemptCount",
];

fn set(v: &mut Value, pointer: &str, x: Value) {
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    let mut cur = v;
    for k in parent.split('/').filter(|k| !k.is_empty()) {
        cur = match k.parse::<usize>() {
            Ok(i) => &mut cur[i],
            Err(_) => &mut cur[k],
        };
    }
    match key.parse::<usize>() {
        Ok(i) if cur.is_array() => cur[i] = x,
        _ => cur[key] = x,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(64), ..ProptestConfig::default() })]

    #[test]
    fn importer_outputs_are_always_valid_scenarios(
        edits in prop::collection::vec((0usize..4, prop::sample::select(JOB_FIELDS), hostile()), 0..6),
        share_edit in prop::option::of((prop::sample::select(vec!["/quotaShareName", "/capacityLimits/0/maxCapacity", "/resourceSharingConfiguration/borrowLimit"]), hostile())),
        csv in prop::collection::vec((0usize..4, 0usize..5, prop::sample::select(vec!["1e300", "-5", "99999", "same", "a b", "", "9007199254740993", "x\u{1b}"])), 0..6),
    ) {
        // AWS: four jobs of one share, with hostile fields.
        let mut jobs: Vec<Value> = (0..4).map(|i| json!({"jobId": format!("j{i}"), "jobName": "same", "quotaShareName": "a",
            "status": "SUCCEEDED", "createdAt": 1_767_225_600_000i64 + i, "startedAt": 1_767_225_600_000i64 + i,
            "stoppedAt": 1_767_229_200_000i64, "capacityUsage": [{"capacityUnit": "ml.p5.48xlarge", "quantity": 1}]})).collect();
        for (j, field, x) in edits {
            set(&mut jobs[j], field, x);
        }
        let mut share = json!({"quotaShareName": "a", "capacityLimits": [{"capacityUnit": "ml.p5.48xlarge", "maxCapacity": 2}],
            "resourceSharingConfiguration": {"strategy": "LEND_AND_BORROW", "borrowLimit": 50}});
        if let Some((field, x)) = share_edit {
            set(&mut share, field, x);
        }
        let files = vec![
            ("shares.json".to_string(), json!({"quotaShares": [share]}).to_string()),
            ("page.json".to_string(), json!({"jobSummaryList": jobs}).to_string()),
        ];
        if let Ok(r) = quotasim::aws::import(&files, None) {
            prop_assert!(validate(&r.scenario).is_ok(), "{:?}", validate(&r.scenario).err());
            prop_assert_eq!(r.observed.jobs.len(), r.scenario.jobs.len());
            prop_assert!(super::numbers_exact(&serde_json::to_value(&r.observed).unwrap()));
        }
        // Traces: rows with hostile cells.
        let mut rows: Vec<Vec<String>> = (0..4).map(|i| vec!["same".into(), "8".into(), i.to_string(), "60".into(), "0".into()]).collect();
        for (r, c, x) in csv {
            rows[r][c] = x.to_string();
        }
        let text = std::iter::once("name,gpus,submit,duration,prio".to_string())
            .chain(rows.iter().map(|r| r.iter().map(|c| format!("\"{c}\"")).collect::<Vec<_>>().join(",")))
            .collect::<Vec<_>>()
            .join("\n");
        let o = quotasim::trace::TraceOptions {
            columns: quotasim::trace::Columns::parse("name=name,gpus=gpus,submit=submit,duration=duration,priority=prio").unwrap(),
            ..Default::default()
        };
        if let Ok(r) = quotasim::trace::import(&[("log.csv".into(), text)], &o) {
            prop_assert!(validate(&r.scenario).is_ok(), "{:?}", validate(&r.scenario).err());
        }
    }
}
