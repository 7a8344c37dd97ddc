//! The `quotasim` command line (format spec, "Command line"): run, validate, generate, exit
//! codes, and no panic or stack trace for bad input.
//!
//! The binary belongs to another package, so it is built once with `cargo build -p
//! quotasim-cli` into the same target directory and run from there.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use quotasim_tests::cli::{bin, fixture};

use quotasim::json::{load_scenario, to_json};
use quotasim::Simulation;
use serde_json::Value;

fn run(args: &[&str]) -> Output {
    quotasim_tests::cli::quotasim(args)
}

fn run_stdin(args: &[&str], input: &str) -> Output {
    run_stdin_bytes(args, input.as_bytes())
}

/// `args` with `bytes` on standard input, written from another thread so that a large input
/// and a large output cannot wait on each other.
fn run_stdin_bytes(args: &[&str], bytes: &[u8]) -> Output {
    let mut child = Command::new(bin())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("quotasim runs");
    let mut stdin = child.stdin.take().unwrap();
    let bytes = bytes.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&bytes));
    let o = child.wait_with_output().unwrap();
    let _ = writer.join();
    o
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}
fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[track_caller]
fn no_panic(o: &Output) {
    let all = format!("{}{}", out(o), err(o));
    assert!(
        !all.contains("panicked") && !all.contains("RUST_BACKTRACE") && !all.contains("stack backtrace"),
        "{all}"
    );
}

/// A scratch file under the target directory.
fn scratch(name: &str, text: &str) -> PathBuf {
    let dir = std::env::current_exe().unwrap().parent().unwrap().join("cli-scratch");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn notebook_text() -> String {
    std::fs::read_to_string(fixture("notebook.json")).unwrap()
}

fn library_result(text: &str, until: Option<u64>) -> String {
    let mut s = Simulation::new(load_scenario(text).unwrap());
    match until {
        Some(t) => s.run_until(t),
        None => s.run(),
    }
    to_json(&s.result())
}

#[test]
fn run_prints_the_result_json() {
    let o = run(&["run", fixture("notebook.json").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    no_panic(&o);
    assert_eq!(out(&o).trim_end(), library_result(&notebook_text(), None));
    let v: Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(v["formatVersion"], 1);
    assert!(v["jobs"].is_array() && v["events"].is_array() && v["summary"].is_object());
}

#[test]
fn run_until_stops_at_that_time() {
    let status_at = |t: &str| {
        let o = run(&["run", "--until", t, fixture("notebook.json").to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{}", err(&o));
        assert_eq!(out(&o).trim_end(), library_result(&notebook_text(), Some(t.parse().unwrap())));
        let v: Value = serde_json::from_str(&out(&o)).unwrap();
        assert_eq!(v["endedAt"].to_string(), t);
        let med =
            v["jobs"].as_array().unwrap().iter().find(|j| j["jobName"] == "qs1_job_med").unwrap().clone();
        (med["status"].clone(), med["statusReason"].clone())
    };
    // Told to stop at 900, keeps running through the 120 s grace, RUNNABLE from 1020.
    assert_eq!(status_at("1000").0, "RUNNING");
    assert_eq!(
        status_at("1000").1,
        format!("PREEMPTION_IN_PROGRESS: {}", quotasim_tests::CROSS_SHARE).as_str()
    );
    assert_eq!(status_at("1100").0, "RUNNABLE");
}

#[test]
fn run_until_before_a_submission_shows_null_status() {
    let o = run(&["run", "--until", "100", fixture("notebook.json").to_str().unwrap()]);
    let v: Value = serde_json::from_str(&out(&o)).unwrap();
    let qs2 = v["jobs"].as_array().unwrap().iter().find(|j| j["jobName"] == "qs2_job").unwrap();
    assert_eq!(qs2["status"], Value::Null);
}

#[test]
fn run_format_text_prints_a_table_per_share() {
    let o = run(&["run", "--format", "text", fixture("notebook.json").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    no_panic(&o);
    let t = out(&o);
    for s in ["qs1", "qs2", "qs3"] {
        assert!(t.contains(s), "{t}");
    }
    assert!(serde_json::from_str::<Value>(&t).is_err(), "text, not JSON");
}

#[test]
fn run_summary_prints_only_the_summary() {
    let o = run(&["run", "--summary", fixture("notebook.json").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let v: Value = serde_json::from_str(&out(&o)).unwrap();
    let mut keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    keys.sort();
    assert_eq!(keys, vec!["endedAt", "formatVersion", "summary"]);
    assert!(out(&o).starts_with("{\"formatVersion\":1,\"endedAt\":"), "key order of the format spec");
    let full: Value = serde_json::from_str(&library_result(&notebook_text(), None)).unwrap();
    assert_eq!(v["summary"], full["summary"]);
    assert_eq!(v["endedAt"], full["endedAt"]);
}

#[test]
fn run_reads_standard_input_for_dash() {
    let o = run_stdin(&["run", "-"], &notebook_text());
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(out(&o).trim_end(), library_result(&notebook_text(), None));
}

#[test]
fn run_invalid_scenario_exits_1_with_paths_on_stderr() {
    let mut v: Value = serde_json::from_str(&notebook_text()).unwrap();
    v["quotaShares"][1]["resourceSharingConfiguration"]["borrowLimit"] = 5.into();
    v["jobs"][0]["schedulingPriority"] = 10_000.into();
    let p = scratch("invalid.json", &v.to_string());
    let o = run(&["run", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    no_panic(&o);
    let e = err(&o);
    assert!(e.contains("quotaShares[1].resourceSharingConfiguration.borrowLimit"), "{e}");
    assert!(e.contains("jobs[0].schedulingPriority"), "{e}");
    assert!(out(&o).trim().is_empty(), "no result on stdout");
}

#[test]
fn run_malformed_json_exits_1_without_panic() {
    for (i, text) in ["", "{", "[]", "{\"formatVersion\": 1, \"bogus\": 2}", "\u{feff}{}"].iter().enumerate()
    {
        let p = scratch(&format!("bad{i}.json"), text);
        let o = run(&["run", p.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(1), "{text:?}: {}", err(&o));
        no_panic(&o);
        assert!(!err(&o).trim().is_empty());
        let o = run_stdin(&["validate", "-"], text);
        assert_eq!(o.status.code(), Some(1), "{text:?}");
        no_panic(&o);
    }
}

#[test]
fn validate_exits_0_for_valid_and_warnings_only() {
    let o = run(&["validate", fixture("notebook.json").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}{}", out(&o), err(&o));
    // Oversubscribed quotas: a warning with its path, still exit 0.
    let mut v: Value = serde_json::from_str(&notebook_text()).unwrap();
    v["serviceEnvironment"]["capacityLimits"][0]["maxCapacity"] = 2.into();
    let p = scratch("warn.json", &v.to_string());
    let o = run(&["validate", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    // Problems on standard error, the verdict on standard output.
    assert!(err(&o).contains("serviceEnvironment.capacityLimits[0].maxCapacity"), "{}", err(&o));
    assert!(err(&o).to_lowercase().contains("warning"), "{}", err(&o));
    assert!(out(&o).starts_with("ok: 3 quota shares, 4 jobs, 1 actions, 1 warning"), "{}", out(&o));
}

#[test]
fn validate_exits_1_and_prints_every_problem_one_a_line() {
    let mut v: Value = serde_json::from_str(&notebook_text()).unwrap();
    v["jobs"][1]["quotaShareName"] = "nope".into();
    v["jobs"][2]["submitAt"] = (-5).into();
    v["quotaShares"][0]["capacityLimits"][0]["maxCapacity"] = 0.into();
    let p = scratch("errors.json", &v.to_string());
    let o = run(&["validate", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    no_panic(&o);
    assert!(out(&o).is_empty(), "problems go to standard error: {}", out(&o));
    let all = err(&o);
    let paths =
        ["jobs[1].quotaShareName", "jobs[2].submitAt", "quotaShares[0].capacityLimits[0].maxCapacity"];
    for path in paths {
        let lines: Vec<&str> = all.lines().filter(|l| l.contains(path)).collect();
        assert_eq!(lines.len(), 1, "one line for {path} in:\n{all}");
    }
}

#[test]
fn generate_is_deterministic() {
    let args = ["generate", "--jobs", "200", "--shares", "3", "--instance-types", "2", "--seed", "42"];
    let a = run(&args);
    let b = run(&args);
    assert_eq!(a.status.code(), Some(0), "{}", err(&a));
    assert_eq!(a.stdout, b.stdout, "same seed, same bytes");
    let text = out(&a);
    assert!(!text.trim_end().contains('\n'), "compact JSON on one line");
    let v = load_scenario(&text).expect("a valid scenario");
    assert_eq!(v.jobs.len(), 200);
    assert_eq!(v.shares.len(), 3);
    let c = run(&["generate", "--jobs", "200", "--shares", "3", "--instance-types", "2", "--seed", "43"]);
    assert_ne!(a.stdout, c.stdout, "another seed, another scenario");
    // The generated scenario runs through the command line too.
    let o = run_stdin(&["run", "--summary", "-"], &text);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
}

#[test]
fn usage_errors_exit_2() {
    let cases: &[&[&str]] = &[
        &[],
        &["frobnicate"],
        &["run"],
        &["run", "--format", "xml", "x.json"],
        &["run", "--until", "soon", "x.json"],
        &["generate", "--jobs", "many"],
        &["validate"],
        &["run", "/definitely/not/here.json"],
    ];
    for args in cases {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}{}", out(&o), err(&o));
        no_panic(&o);
    }
}

#[test]
fn help_and_version_exit_0() {
    for args in [&["--help"][..], &["run", "--help"], &["--version"]] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(0), "{args:?}");
        assert!(!out(&o).is_empty());
    }
}

#[test]
fn run_large_valid_numbers_without_panic() {
    let max = (1u64 << 53) - 1;
    let text = format!(
        r#"{{"serviceEnvironment": {{"capacityLimits": [{{"capacityUnit": "ml.g5.xlarge", "maxCapacity": {max}}}]}},
            "quotaShares": [{{"quotaShareName": "a", "capacityLimits": [{{"capacityUnit": "ml.g5.xlarge", "maxCapacity": {max}}}],
                              "resourceSharingConfiguration": {{"strategy": "RESERVE"}}}}],
            "jobs": [{{"jobName": "j", "quotaShareName": "a", "instanceType": "ml.g5.xlarge", "durationSeconds": 3600}}]}}"#
    );
    let o = run_stdin(&["run", "-"], &text);
    no_panic(&o);
    // The quota integrated over the run is above 2^53 - 1: a defined error, not a saturated
    // utilization.
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert!(err(&o).contains("perQuotaShare.a.utilization") && err(&o).contains("2^53 - 1"), "{}", err(&o));
}

#[test]
fn run_reproduces_the_format_spec_result_example() {
    // The format spec's example job: told to stop at 700 (600 saved, 100 lost), releases at
    // 820, runs again 1900..5300 on its own quota (qs1_job_high ends at 1900).
    let o = run(&["run", fixture("format_example.json").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let v: Value = serde_json::from_str(&out(&o)).unwrap();
    let med = v["jobs"].as_array().unwrap().iter().find(|j| j["jobName"] == "qs1_job_med").unwrap();
    let expected: Value = serde_json::json!({
        "jobName": "qs1_job_med",
        "quotaShareName": "qs1",
        "status": "SUCCEEDED",
        "statusReason": null,
        "schedulingPriority": 2,
        "submitAt": 0, "firstStartedAt": 0, "stoppedAt": 5300,
        "preemptionSummary": {
            "preemptedAttemptCount": 1,
            "recentPreemptedAttempts": [
                { "startedAt": 0, "stoppedAt": 820,
                  "statusReason": "Cross-share preemption triggered to reclaim borrowed capacity" }
            ]
        },
        "attempts": [
            { "startedAt": 0, "stoppedAt": 820, "borrowedInstances": 1,
              "statusReason": "Cross-share preemption triggered to reclaim borrowed capacity" },
            { "startedAt": 1900, "stoppedAt": 5300, "borrowedInstances": 0, "statusReason": null }
        ],
        "lostWorkSeconds": 100,
        // Back in the queue at 820, it needs to borrow and the pool is in use until 1900.
        "runnableSecondsByCause": { "pool": 1080 }
    });
    assert_eq!(med, &expected);
}

#[test]
fn invalid_utf8_is_an_invalid_scenario_exit_1() {
    let p = scratch("latin1.json", "");
    std::fs::write(&p, b"{\"name\": \"caf\xe9\"}").unwrap();
    for cmd in ["run", "validate"] {
        let o = run(&[cmd, p.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(1), "{cmd}");
        assert!(err(&o).contains("not UTF-8 text (invalid byte at offset 13)"), "{}", err(&o));
    }
}

#[test]
fn data_after_the_scenario_is_refused_everywhere() {
    let two = format!("{}\n{}", notebook_text(), notebook_text());
    for args in [&["run", "-"][..], &["validate", "-"], &["run", "--summary", "-"]] {
        let o = run_stdin(args, &two);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert!(err(&o).contains("data after the scenario"), "{}", err(&o));
    }
}

#[test]
fn text_output_shows_control_characters_as_escapes_and_the_unfinished_column() {
    let mut v: Value = serde_json::from_str(&notebook_text()).unwrap();
    v["name"] = "evil\u{1b}[2J\u{7}".into();
    let o = run_stdin(&["run", "--format", "text", "-"], &v.to_string());
    assert_eq!(o.status.code(), Some(0));
    let t = out(&o);
    assert!(!t.contains('\u{1b}') && !t.contains('\u{7}'), "no control characters reach the terminal");
    assert!(t.starts_with("evil\\u{1b}[2J\\u{7} at t="), "{t}");
    assert!(t.contains(" unfin "), "{t}");
    assert!(!t.contains(" wait  "), "the column of unfinished jobs is not called wait: {t}");
}

#[test]
fn problems_on_standard_error_show_control_characters_as_escapes() {
    let mut v: Value = serde_json::from_str(&notebook_text()).unwrap();
    v["x\u{1b}]0;owned\u{7}"] = 1.into();
    for cmd in ["run", "validate"] {
        let o = run_stdin(&[cmd, "-"], &v.to_string());
        assert_eq!(o.status.code(), Some(1), "{cmd}");
        let e = err(&o);
        assert!(!e.contains(|c: char| c.is_control() && c != '\n'), "{cmd}: {e:?}");
        assert!(e.contains(r"unknown field `x\u{1b}]0;owned\u{7}`"), "{cmd}: {e}");
    }
}

#[test]
fn job_counts_are_bounded_by_a_fixed_limit() {
    for args in [
        &["generate", "--jobs", "2000001"][..],
        &["bench", "--jobs", "18446744073709551615"],
        &["bench", "--jobs", "100000000"],
        &["bench", "--jobs", "1000,20000000"],
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(err(&o).contains("at most 2000000"), "{args:?}: {}", err(&o));
    }
    // A file with more jobs is refused while it is read, naming the limit and the memory.
    let mut text = String::from(r#"{"serviceEnvironment":{"capacityLimits":[]},"jobs":["#);
    for i in 0..=2_000_000 {
        if i > 0 {
            text.push(',');
        }
        text.push_str(r#"{"jobName":"j","quotaShareName":"a","durationSeconds":1}"#);
    }
    text.push_str("]}");
    let o = run_stdin(&["validate", "-"], &text);
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("jobs: more than 2000000 jobs") && err(&o).contains("GB"), "{}", err(&o));
}

#[test]
fn generate_rejects_bad_options_with_exit_2() {
    for args in [
        &["generate", "--shares", "0"][..],
        &["generate", "--shares", "21"],
        &["generate", "--instance-types", "0"],
        &["generate", "--jobs", "-1"],
        &["generate", "--seed", "x"],
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}{}", out(&o), err(&o));
        no_panic(&o);
    }
}

#[test]
fn run_until_zero_and_json_nulls() {
    let o = run(&["run", "--until", "0", fixture("notebook.json").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    let v: Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(v["endedAt"], 0);
    let low = v["jobs"].as_array().unwrap().iter().find(|j| j["jobName"] == "qs1_job_low").unwrap();
    assert_eq!(low["status"], "RUNNABLE");
    assert_eq!(low["firstStartedAt"], Value::Null);
    assert_eq!(low["stoppedAt"], Value::Null);
    assert_eq!(low["attempts"], serde_json::json!([]));
    let high = v["jobs"].as_array().unwrap().iter().find(|j| j["jobName"] == "qs1_job_high").unwrap();
    assert_eq!(high["status"], "RUNNING");
    assert_eq!(high["stoppedAt"], Value::Null);
    assert_eq!(high["attempts"][0]["stoppedAt"], Value::Null);
}

#[test]
fn bench_fork_times_a_replicate_of_the_state_at_the_middle_against_the_rest_of_the_run() {
    let o = run(&["bench", "--fork", "--jobs", "2000", "--repeat", "1"]);
    no_panic(&o);
    assert!(o.status.success(), "{}", err(&o));
    let text = out(&o);
    let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split_whitespace().collect()).collect();
    assert_eq!(rows.len(), 2, "a header and one row:\n{text}");
    assert_eq!(rows[0][..3], ["jobs", "at", "left"]);
    assert_eq!(rows[1][0], "2000");
    // Stopped when half the jobs are in: the state holds the other half and what is unfinished.
    let left: u64 = rows[1][2].parse().unwrap();
    assert!((1000..2000).contains(&left), "{text}");
    let ms: Vec<f64> = rows[1][3..8].iter().map(|x| x.parse().unwrap()).collect();
    assert!(ms.iter().all(|&m| m >= 0.0) && ms[1] > 0.0 && ms[4] > 0.0, "{text}");
    assert!(rows[1][8].ends_with('x'), "{text}");
    // Not with --at-once.
    let o = run(&["bench", "--fork", "--at-once", "--jobs", "2000"]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
}

#[test]
fn bench_reports_both_modes_with_the_same_event_count() {
    let o = run(&["bench", "--jobs", "2000", "--repeat", "1"]);
    no_panic(&o);
    assert!(o.status.success(), "{}", err(&o));
    let text = out(&o);
    let rows: Vec<Vec<&str>> = text.lines().skip(1).map(|l| l.split_whitespace().collect()).collect();
    assert_eq!(rows.len(), 2, "one row per mode:\n{text}");
    assert_eq!((rows[0][0], rows[0][1]), ("2000", "recorded"));
    assert_eq!((rows[1][0], rows[1][1]), ("2000", "counted"));
    // Recording the event list does not change what happens.
    assert_eq!(rows[0][2], rows[1][2]);
    assert_eq!(rows[0][6], rows[1][6]);
    let events: u64 = rows[0][2].parse().unwrap();
    assert!(events >= 2000 * 6, "every job has at least six events: {events}");
    // Memory per job is measured; keeping the event list costs more than counting it.
    let bytes = |r: &Vec<&str>| r[7].parse::<f64>().unwrap();
    assert!(bytes(&rows[1]) > 0.0 && bytes(&rows[0]) > bytes(&rows[1]), "{text}");
}

#[test]
fn a_large_file_read_in_pieces_gives_what_its_whole_text_gives() {
    // A file is read a megabyte at a time (its job list as it arrives), standard input whole:
    // both give the same output, or the same problem at the same position, wherever it is.
    let opts = quotasim::GenerateOptions::new(15_000, 4, 2, 3);
    let text = to_json(&quotasim::generate(&opts));
    assert!(text.len() > 2 << 20, "{} bytes", text.len());
    let last = text.rfind("\"durationSeconds\":").unwrap();
    let edited = |at: usize, what: &str| {
        let mut t = text.clone();
        t.insert_str(at, what);
        t.into_bytes()
    };
    let cases: [(&str, Vec<u8>, i32); 9] = [
        ("as generated", text.clone().into_bytes(), 0),
        ("a fraction in the last job", edited(last + 18, "1.5e0,\"x\":"), 1),
        ("an unknown field in the last job", edited(last, "\"bogus\":1,"), 1),
        (
            "a byte that is not UTF-8 far in",
            {
                let mut b = text.clone().into_bytes();
                b.insert(text.len() / 2, 0xff);
                b
            },
            1,
        ),
        ("cut short", text.as_bytes()[..text.len() - 100].to_vec(), 1),
        (
            "an escape in a name far in",
            text.replacen("\"jobName\":\"", "\"jobName\":\"\\u0041", 9_000).into_bytes(),
            0,
        ),
        (
            "space around the list",
            text.replace("\"jobs\":[", "\"jobs\" :\n [ ").replace("}]}", "} ]\n}\n").into_bytes(),
            0,
        ),
        ("a field after the list", [&text.as_bytes()[..text.len() - 1], b",\"actions\":[]}"].concat(), 0),
        ("data after the scenario", [text.as_bytes(), b" {}"].concat(), 1),
    ];
    for (what, bytes, code) in &cases {
        let file = scratch("pieces.json", "");
        std::fs::write(&file, bytes).unwrap();
        // Every problem is the parser's, so `validate` shows them; one run shows the same.
        let runs: &[&[&str]] =
            if *what == "as generated" { &[&["run", "--summary"], &["validate"]] } else { &[&["validate"]] };
        for &cmd in runs {
            let from_file = run(&[cmd, &[file.to_str().unwrap()]].concat());
            let from_stdin = run_stdin_bytes(&[cmd, &["-"]].concat(), bytes);
            no_panic(&from_file);
            assert_eq!(from_file.status.code(), Some(*code), "{what} {cmd:?}: {}", err(&from_file));
            assert_eq!(from_stdin.status.code(), Some(*code), "{what} {cmd:?}");
            assert_eq!(out(&from_file), out(&from_stdin), "{what} {cmd:?}");
            assert_eq!(
                err(&from_file).replace(file.to_str().unwrap(), "-"),
                err(&from_stdin).replace("standard input", "-"),
                "{what} {cmd:?}"
            );
        }
    }
}
