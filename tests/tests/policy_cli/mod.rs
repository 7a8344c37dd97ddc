//! Comparing policies from the command line: `run --set`, `check` against objectives (exit 3
//! on a violation) and `compare` (JSON, text and CSV), with bad input named by its path.

use quotasim_tests::cli::{fixture, quotasim, stderr, stdout};
use serde_json::Value;

const IN_SHARE_OFF: &str = "quotaShares[qs1].preemptionConfiguration.inSharePreemption=DISABLED";

fn notebook() -> String {
    fixture("notebook.json").display().to_string()
}

fn json(o: &std::process::Output) -> Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}{}", stdout(o), stderr(o)))
}

fn temp(name: &str, text: &str) -> String {
    let p = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("quotasim-policy-{}-{name}", std::process::id()));
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

#[test]
fn run_with_set_equals_running_the_edited_file() {
    let set = quotasim(&["run", &notebook(), "--summary", "--set", IN_SHARE_OFF]);
    assert_eq!(set.status.code(), Some(0), "{}", stderr(&set));
    let mut s: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture("notebook.json")).unwrap()).unwrap();
    s["quotaShares"][0]["preemptionConfiguration"]["inSharePreemption"] = "DISABLED".into();
    let edited = temp("edited.json", &s.to_string());
    let file = quotasim(&["run", &edited, "--summary"]);
    assert_eq!(set.stdout, file.stdout);
}

#[test]
fn set_that_names_nothing_or_has_the_wrong_type_is_refused_with_its_path() {
    for (change, says) in [
        ("quotaShares[nope].state=DISABLED", "quotaShares[nope].state: no entry of `quotaShares`"),
        ("settings.graceSeconds=1", "unknown field `graceSeconds`"),
        ("quotaShares[qs1].capacityLimits[ml.g5.xlarge].maxCapacity=many", "invalid type"),
    ] {
        let o = quotasim(&["run", &notebook(), "--set", change]);
        assert_eq!(o.status.code(), Some(1), "{change}");
        assert!(stderr(&o).contains(says), "{change}: {}", stderr(&o));
        assert!(o.stdout.is_empty(), "nothing runs");
    }
    let o = quotasim(&["run", &notebook(), "--set", "settings.backfill"]);
    assert_eq!(o.status.code(), Some(2), "PATH=VALUE is a usage error");
    // The edited scenario is validated as usual.
    let o = quotasim(&[
        "run",
        &notebook(),
        "--set",
        "quotaShares[qs1].capacityLimits[ml.g5.xlarge].maxCapacity=0",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("quotaShares[0].capacityLimits[0].maxCapacity"), "{}", stderr(&o));
}

#[test]
fn compare_with_itself_has_zero_deltas_and_b_equals_run_summary() {
    let o = quotasim(&["compare", &notebook(), &notebook()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let c = json(&o);
    assert_eq!(c["changedJobs"], Value::Array(vec![]));
    assert_eq!(c["changes"], serde_json::json!(["second file"]));
    for scope in c["delta"]["perQuotaShare"].as_object().unwrap().values().chain([&c["delta"]["overall"]]) {
        for (k, v) in scope.as_object().unwrap() {
            assert!(v.is_null() || v.as_f64() == Some(0.0), "{k}: {v}");
        }
    }
    let run = quotasim(&["run", &notebook(), "--summary"]);
    assert_eq!(c["b"], json(&run), "b equals `run --summary` field for field");
}

#[test]
fn compare_in_share_preemption_off_spares_the_priority_3_job() {
    let o = quotasim(&["compare", &notebook(), "--set", IN_SHARE_OFF]);
    let c = json(&o);
    assert_eq!(c["changes"], serde_json::json!([IN_SHARE_OFF]));
    let high = c["changedJobs"].as_array().unwrap().iter().find(|j| j["jobName"] == "qs1_job_high").unwrap();
    assert_eq!(high["description"], "no longer preempted");
    assert_eq!(high["a"]["preemptions"], 1);
    assert_eq!(high["b"]["preemptions"], 0);
    assert_eq!(c["delta"]["perQuotaShare"]["qs1"]["preemptions.inShare"], -1.0);
    let b = quotasim(&["run", &notebook(), "--summary", "--set", IN_SHARE_OFF]);
    assert_eq!(c["b"], json(&b), "b is the run of B, field for field");
    let a = quotasim(&["run", &notebook(), "--summary"]);
    assert_eq!(c["a"], json(&a));
    let text = stdout(&quotasim(&["compare", &notebook(), "--set", IN_SHARE_OFF, "--format", "text"]));
    assert!(
        text.contains("qs1              preemptions                 2            1           -1 better"),
        "{text}"
    );
    assert!(text.contains("qs1_job_high: no longer preempted"), "{text}");
    let csv = stdout(&quotasim(&["compare", &notebook(), "--set", IN_SHARE_OFF, "--format", "csv"]));
    assert!(csv.starts_with("scope,metric,a,b,delta\n"));
    assert!(csv.contains("\nqs1,preemptions.inShare,1,0,-1\n"), "{csv}");
}

#[test]
fn compare_csv_writes_a_share_name_that_reads_as_a_formula_as_text() {
    // `-2-A1` is a valid share name, and a spreadsheet would read it as a formula.
    let text = std::fs::read_to_string(notebook()).unwrap().replace("\"qs1\"", "\"-2-A1\"");
    let f = temp("formula-share.json", &text);
    let o = quotasim(&["compare", &f, "--set", "settings.backfill=true", "--format", "csv"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let csv = stdout(&o);
    assert!(csv.contains("\n\"'-2-A1\",preemptions.inShare,"), "{csv}");
    assert!(!csv.lines().any(|l| l.starts_with('-')), "{csv}");
}

#[test]
fn compare_text_shows_control_characters_of_a_change_as_escapes() {
    let set = "name=\"\u{1b}]0;owned\u{7}\"";
    let o = quotasim(&["compare", &notebook(), "--set", set, "--format", "text"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.starts_with("A vs B (name=\"\\u{1b}]0;owned\\u{7}\")\n"), "{text:?}");
    assert!(!text.contains(|c: char| c.is_control() && c != '\n'), "{text:?}");
}

#[test]
fn compare_reports_shares_and_jobs_on_one_side_only() {
    let mut s: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture("notebook.json")).unwrap()).unwrap();
    s["jobs"].as_array_mut().unwrap().pop();
    let fewer = temp("fewer.json", &s.to_string());
    let c = json(&quotasim(&["compare", &notebook(), &fewer]));
    let removed: Vec<&Value> =
        c["changedJobs"].as_array().unwrap().iter().filter(|j| j["change"] == "removed").collect();
    assert_eq!(removed.len(), 1);
    assert!(c["differences"][0].as_str().unwrap().contains("1 jobs only in A, 0 only in B"));
}

#[test]
fn check_exits_3_naming_each_violated_objective() {
    let obj = temp(
        "obj.json",
        r#"{"formatVersion":1,"objectives":[
          {"metric":"perQuotaShare.qs1.waitSeconds.p95","max":7200},
          {"metric":"perQuotaShare.*.preemptions.total","max":1},
          {"metric":"overall.utilization","min":0.5}]}"#,
    );
    let o = quotasim(&["check", &notebook(), "--objectives", &obj]);
    assert_eq!(o.status.code(), Some(3), "{}", stdout(&o));
    let out = stdout(&o);
    assert!(out.contains("VIOLATED objectives[1] perQuotaShare.qs1.preemptions.total = 2 (max 1)"), "{out}");
    assert!(out.contains("met      objectives[2] overall.utilization"), "{out}");
    // In-share preemption off: one preemption left, every objective met... except the wait.
    let o =
        quotasim(&["check", &notebook(), "--objectives", &obj, "--set", IN_SHARE_OFF, "--format", "json"]);
    let r = json(&o);
    assert_eq!(o.status.code(), Some(3));
    assert_eq!(r["verdicts"][0]["met"], false, "qs1's p95 wait grows to 14,400 s");
    // With a baseline, each value has the baseline's next to it.
    let o = quotasim(&[
        "check",
        &notebook(),
        "--objectives",
        &obj,
        "--baseline",
        &notebook(),
        "--format",
        "json",
    ]);
    assert_eq!(json(&o)["verdicts"][1]["baseline"], 2.0);
    // All met: exit 0.
    let easy = temp("easy.json", r#"{"objectives":[{"metric":"overall.jobs","min":1}]}"#);
    assert_eq!(quotasim(&["check", &notebook(), "--objectives", &easy]).status.code(), Some(0));
}

#[test]
fn check_refuses_a_bad_objectives_file_with_paths_and_lists_valid_metrics() {
    let bad = temp(
        "bad.json",
        r#"{"objectives":[{"metric":"overall.utilisation","min":0.5},{"metric":"endedAt"}]}"#,
    );
    let o = quotasim(&["check", &notebook(), "--objectives", &bad]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("objectives[1]: an objective needs a min, a max or both"), "{}", stderr(&o));
    let unknown = temp("unknown.json", r#"{"objectives":[{"metric":"overall.utilisation","min":0.5}]}"#);
    let o = quotasim(&["check", &notebook(), "--objectives", &unknown]);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(e.contains("objectives[0].metric: no metric `overall.utilisation`"), "{e}");
    assert!(e.contains("overall.utilization"), "lists the valid ones: {e}");
    assert_eq!(quotasim(&["check", &notebook()]).status.code(), Some(2), "--objectives is required");
}

#[test]
fn run_stops_with_exit_1_naming_the_job_when_a_time_would_pass_2_53() {
    let s = r#"{"formatVersion":1,
      "serviceEnvironment":{"serviceEnvironmentName":"se","capacityLimits":[{"capacityUnit":"ml.g5.xlarge","maxCapacity":1}]},
      "quotaShares":[{"quotaShareName":"a","capacityLimits":[{"capacityUnit":"ml.g5.xlarge","maxCapacity":1}],
        "resourceSharingConfiguration":{"strategy":"RESERVE"}}],
      "jobs":[
        {"jobName":"first","quotaShareName":"a","instanceType":"ml.g5.xlarge","instanceCount":1,"submitAt":0,"durationSeconds":4503599627370496},
        {"jobName":"second","quotaShareName":"a","instanceType":"ml.g5.xlarge","instanceCount":1,"submitAt":0,"durationSeconds":4503599627370506}]}"#;
    let path = temp("late.json", s);
    for args in [vec!["run", &path], vec!["run", &path, "--summary"], vec!["compare", &path, &path]] {
        let o = quotasim(&args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert!(stderr(&o).contains("job second") && stderr(&o).contains("2^53 - 1"), "{}", stderr(&o));
        assert!(o.stdout.is_empty(), "no wrong numbers printed");
    }
    let o = quotasim(&["run", &notebook(), "--until", "9007199254740992"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--until must be at most 2^53 - 1"), "{}", stderr(&o));
}
