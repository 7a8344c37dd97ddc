//! `quotasim why` on the command line: errors name the option (exit 2), the JSON's shape, and
//! each change pasted into `run --set` does what the report says.

use quotasim_tests::cli::{quotasim, stderr, stdout};
use serde_json::Value;

pub use quotasim_tests::cli::fixture;

fn notebook() -> String {
    fixture("notebook.json").to_str().unwrap().to_string()
}

#[track_caller]
fn refused(args: &[&str], option: &str) {
    let o = quotasim(args);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
    assert!(e.contains(option), "{args:?}: {e}");
    assert!(!e.contains("panicked") && stdout(&o).is_empty(), "{e}");
}

#[test]
fn why_cli_bad_options_are_usage_errors_naming_the_option() {
    let nb = notebook();
    refused(&["why", &nb, "--job", "nobody"], "--job");
    refused(&["why", &nb, "--job", "qs1_job_med", "--preemption", "2"], "--preemption");
    refused(&["why", &nb, "--job", "qs1_job_med", "--preemption", "0"], "--preemption");
    refused(&["why", &nb, "--job", "qs1_job_med", "--max-runs", "0"], "--max-runs");
    refused(&["why", &nb, "--job", "qs1_job_med", "--max-runs", "lots"], "--max-runs");
    refused(&["why", &nb, "--job", "qs1_job_med", "--by", "60"], "--by");
    refused(&["why", &nb], "--job");
    // A scenario that is not there is a usage error too; an invalid one exits 1.
    refused(&["why", "no-such-file.json", "--job", "x"], "no-such-file.json");
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("quotasim-why-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.json");
    std::fs::write(&bad, r#"{"formatVersion":1,"jobs":[{"jobName":"a"}]}"#).unwrap();
    let o = quotasim(&["why", bad.to_str().unwrap(), "--job", "a"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
}

#[test]
fn why_cli_json_has_its_shape_and_each_change_pastes_into_run_set() {
    let nb = notebook();
    let o = quotasim(&["why", &nb, "--job", "qs1_job_med", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let mut keys: Vec<&str> = v.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["changes", "event", "formatVersion", "job", "tried"]);
    assert!(stdout(&o).starts_with(r#"{"formatVersion":1,"job":"qs1_job_med","event":{"kind":"preemption""#));
    assert_eq!(v["job"], "qs1_job_med");
    assert_eq!(v["event"]["kind"], "preemption");
    assert!(v["tried"]["runs"].as_u64().unwrap() <= 50);
    let changes = v["changes"].as_array().unwrap();
    assert!(!changes.is_empty());
    for c in changes {
        let mut args = vec!["run".to_string(), nb.clone()];
        for s in c["set"].as_array().unwrap() {
            args.push("--set".into());
            args.push(s.as_str().unwrap().into());
        }
        let args: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
        let r = quotasim(&args);
        assert_eq!(r.status.code(), Some(0), "{args:?}: {}", stderr(&r));
        let res: Value = serde_json::from_str(&stdout(&r)).unwrap();
        let job = res["jobs"].as_array().unwrap().iter().find(|j| j["jobName"] == "qs1_job_med").unwrap();
        assert_eq!(job["preemptionSummary"]["preemptedAttemptCount"], 0, "{args:?}");
        assert!(
            c["harmed"]["count"].is_u64() && c["shares"].is_array() && c["job"]["description"].is_string()
        );
    }
    // The same bytes again; the text names the runs.
    assert_eq!(stdout(&quotasim(&["why", &nb, "--job", "qs1_job_med", "--format", "json"])), stdout(&o));
    let t = quotasim(&["why", &nb, "--job", "qs1_job_med"]);
    assert!(stdout(&t).contains("Runs: "), "{}", stdout(&t));
}
