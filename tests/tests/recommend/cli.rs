//! `quotasim recommend` on the command line: bad input is refused with its path or option,
//! nothing feasible exits 3, the JSON is the same whatever the thread count, and `--out`
//! writes the recommended scenario.

use quotasim_tests::cli::{quotasim, stderr, stdout};
use serde_json::{json, Value};

fn dir() -> std::path::PathBuf {
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("quotasim-recommend-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write(name: &str, v: &Value) -> String {
    let p = dir().join(name);
    std::fs::write(&p, v.to_string()).unwrap();
    p.to_str().unwrap().to_string()
}

fn scenario() -> String {
    let s = super::five_shares();
    write("five.json", &serde_json::to_value(&s).unwrap())
}

fn objectives() -> String {
    write(
        "objectives.json",
        &json!({"objectives": [{"metric": "perQuotaShare.*.waitSeconds.p95", "max": 36000}]}),
    )
}

#[track_caller]
fn refused(args: &[&str], code: i32, says: &[&str]) {
    let o = quotasim(args);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(code), "{args:?}: {e}");
    for s in says {
        assert!(e.contains(s), "{args:?}: {e}");
    }
    assert!(!e.contains("panicked") && stdout(&o).is_empty(), "{e}");
}

#[test]
fn recommend_cli_bad_input_names_the_field() {
    let s = scenario();
    let o = objectives();
    // An objective on a share the scenario does not have.
    let unknown = write(
        "unknown.json",
        &json!({"objectives": [{"metric": "perQuotaShare.team-99.waitSeconds.p95", "max": 60}]}),
    );
    refused(&["recommend", &s, "--objectives", &unknown], 1, &["objectives[0].metric", "team-99"]);
    // An empty space: every field fixed.
    let mut fixed: Vec<String> = vec![
        "serviceEnvironment.capacityLimits[ml.p5.48xlarge].maxCapacity".into(),
        "serviceEnvironment.capacityLimits[ml.p4d.24xlarge].maxCapacity".into(),
    ];
    let sc: Value = serde_json::from_str(&std::fs::read_to_string(&s).unwrap()).unwrap();
    for q in sc["quotaShares"].as_array().unwrap() {
        let name = q["quotaShareName"].as_str().unwrap();
        fixed.push(format!("quotaShares[{name}].resourceSharingConfiguration"));
        for c in q["capacityLimits"].as_array().unwrap() {
            fixed.push(format!(
                "quotaShares[{name}].capacityLimits[{}].maxCapacity",
                c["capacityUnit"].as_str().unwrap()
            ));
        }
    }
    let empty = write("empty.json", &json!({"formatVersion": 1, "fixed": fixed}));
    refused(&["recommend", &s, "--objectives", &o, "--space", &empty], 1, &["the space is empty"]);
    // A range on a field that is not a number.
    let strategy = write(
        "strategy.json",
        &json!({"axes": [{"path": "quotaShares[team-01].resourceSharingConfiguration.strategy", "range": {"from": 1, "to": 3, "step": 1}}]}),
    );
    refused(
        &["recommend", &s, "--objectives", &o, "--space", &strategy],
        1,
        &["axes[0].range", "strategy: not a number"],
    );
    let grace = write(
        "grace.json",
        &json!({"axes": [{"path": "settings.victimOrder", "range": {"from": 1, "to": 3, "step": 1}}]}),
    );
    refused(
        &["recommend", &s, "--objectives", &o, "--space", &grace],
        1,
        &["axes[0].range", "settings.victimOrder"],
    );
    let nowhere = write(
        "nowhere.json",
        &json!({"axes": [{"path": "quotaShares[nobody].capacityLimits[ml.p5.48xlarge].maxCapacity", "values": [1, 2]}]}),
    );
    refused(&["recommend", &s, "--objectives", &o, "--space", &nowhere], 1, &["axes[0]", "nobody"]);
    let unknown_field = write("typo.json", &json!({"axis": []}));
    refused(&["recommend", &s, "--objectives", &o, "--space", &unknown_field], 1, &["axis"]);
    // Options.
    refused(&["recommend", &s, "--objectives", &o, "--confidence", "0"], 2, &["--confidence"]);
    refused(&["recommend", &s, "--objectives", &o, "--max-runs", "0"], 2, &["--max-runs"]);
    refused(&["recommend", &s, "--objectives", &o, "--minimize", "perQuotaShare.*.cost"], 2, &["--minimize"]);
    refused(&["recommend", &s, "--objectives", &o, "--minimize", "overall.nothing"], 1, &["--minimize"]);
    let listed = write("listed.json", &serde_json::to_value(super::one_team()).unwrap());
    refused(
        &["recommend", &listed, "--objectives", &o, "--replicates", "3"],
        2,
        &["--replicates", "workload"],
    );
}

#[test]
fn recommend_cli_nothing_feasible_exits_3_and_threads_change_nothing() {
    let listed = write("one.json", &serde_json::to_value(super::one_team()).unwrap());
    let never = write("never.json", &json!({"objectives": [{"metric": "overall.utilization", "min": 1.01}]}));
    let o = quotasim(&["recommend", &listed, "--objectives", &never]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("Nothing in the space meets every objective"), "{}", stdout(&o));

    let s = scenario();
    let obj = objectives();
    let out = dir().join("recommended.json");
    let one = quotasim(&[
        "recommend",
        &s,
        "--objectives",
        &obj,
        "--format",
        "json",
        "--threads",
        "1",
        "--max-runs",
        "120",
    ]);
    assert_eq!(one.status.code(), Some(0), "{}", stderr(&one));
    let two = quotasim(&[
        "recommend",
        &s,
        "--objectives",
        &obj,
        "--format",
        "json",
        "--threads",
        "2",
        "--max-runs",
        "120",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(stdout(&one), stdout(&two));
    let r: Value = serde_json::from_str(&stdout(&one)).unwrap();
    assert!(r["runs"].as_u64().unwrap() <= 120);
    // --out: the input with the answer's changes, its workload section kept.
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert!(written["workload"].is_object());
    let text = quotasim(&["recommend", &s, "--objectives", &obj, "--max-runs", "120"]);
    let t = stdout(&text);
    assert!(t.contains("Against the input, side by side"), "{t}");
    assert!(t.contains("Idle quota"), "{t}");
    // With listed jobs, `check` on the written scenario meets the objectives.
    let wait = write(
        "wait.json",
        &json!({"objectives": [{"metric": "perQuotaShare.team.waitSeconds.p95", "max": 600}]}),
    );
    let rec = dir().join("one-recommended.json");
    let o = quotasim(&["recommend", &listed, "--objectives", &wait, "--out", rec.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let c = quotasim(&["check", rec.to_str().unwrap(), "--objectives", &wait]);
    assert_eq!(c.status.code(), Some(0), "{}", stdout(&c));
    let r: Value = serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    assert_eq!(r["serviceEnvironment"]["capacityLimits"][0]["maxCapacity"], 4);
}

#[test]
fn recommend_cli_a_scenario_with_actions_is_searched_and_its_certificate_reproduces_with_check() {
    // The worked example's actions name its jobs: the objectives are checked on the shape of
    // its summary without them, and the search runs it whole.
    let nb = quotasim_tests::cli::fixture("notebook.json");
    let nb = nb.to_str().unwrap();
    let obj = write(
        "nb.json",
        &json!({"objectives": [{"metric": "perQuotaShare.*.waitSeconds.p95", "max": 3600}]}),
    );
    let o = quotasim(&["recommend", nb, "--objectives", &obj, "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let r: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(r["proven"].as_bool().unwrap());
    assert!(r["recommended"]["cost"].as_f64() < r["input"]["cost"].as_f64());
    // Each certificate step, pasted into check, is a violation (exit 3).
    for c in r["certificate"].as_array().unwrap() {
        let mut args = vec!["check".to_string(), nb.to_string(), "--objectives".into(), obj.clone()];
        for s in c["set"].as_array().unwrap() {
            args.push("--set".into());
            args.push(s.as_str().unwrap().into());
        }
        let argv: Vec<&str> = args.iter().map(String::as_str).collect();
        let ch = quotasim(&argv);
        assert_eq!(ch.status.code(), Some(3), "{args:?}: {}", stdout(&ch));
    }
}
