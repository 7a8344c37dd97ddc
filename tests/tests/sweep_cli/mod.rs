//! Sweeps from the command line: rows in index order whatever the thread count, each row
//! reproducible with `quotasim run --set`, shards merged into the bytes of one run, the
//! array-job manifests running the same command, and bad sweeps refused naming the axis.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use quotasim_tests::cli::{bin, fixture, quotasim, stderr, stdout};
use serde_json::Value;

mod base;
mod merge;
mod replicates;

/// A folder with the notebook scenario and a sweep file over it.
fn setup(name: &str, sweep: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("quotasim-sweep-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(fixture("notebook.json"), dir.join("nb.json")).unwrap();
    std::fs::write(dir.join("sweep.json"), sweep).unwrap();
    dir
}

const SWEEP: &str = r#"{ "formatVersion": 1, "base": "nb.json",
  "axes": [
    { "path": "quotaShares[qs1].resourceSharingConfiguration.borrowLimit", "values": [0, 100, 200] },
    { "path": "settings.preemptionGraceSeconds", "range": { "from": 60, "to": 180, "step": 60 } } ],
  "frontier": [ "overall.utilization:max", "perQuotaShare.qs1.waitSeconds.p95:min" ] }"#;

fn sweep_in(dir: &Path, args: &[&str]) -> Output {
    let file = dir.join("sweep.json");
    let mut all = vec!["sweep", file.to_str().unwrap()];
    all.extend_from_slice(args);
    quotasim(&all)
}

fn rows(o: &Output) -> Vec<Value> {
    assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
    stdout(o).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn rows_are_in_index_order_whatever_the_thread_count() {
    let dir = setup("threads", SWEEP);
    let one = sweep_in(&dir, &["--threads", "1"]);
    let two = sweep_in(&dir, &["--threads", "2"]);
    let four = sweep_in(&dir, &["--threads", "4"]);
    assert_eq!(one.stdout, two.stdout);
    assert_eq!(one.stdout, four.stdout);
    let r = rows(&one);
    assert_eq!(r.len(), 9);
    let idx: Vec<u64> = r.iter().map(|x| x["row"].as_u64().unwrap()).collect();
    assert_eq!(idx, (0..9).collect::<Vec<_>>());
    // The last axis varies fastest.
    assert_eq!(r[1]["values"], serde_json::json!([0, 120]));
    assert_eq!(r[3]["values"], serde_json::json!([100, 60]));
}

#[test]
fn every_row_reproduces_with_run_and_its_changes() {
    let dir = setup("reproduce", SWEEP);
    let nb = dir.join("nb.json");
    for row in rows(&sweep_in(&dir, &[])) {
        let mut args = vec!["run".to_string(), nb.display().to_string(), "--summary".into()];
        for c in row["changes"].as_array().unwrap() {
            args.push("--set".into());
            args.push(c.as_str().unwrap().to_string());
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let run: Value = serde_json::from_slice(&quotasim(&args).stdout).unwrap();
        assert_eq!(row["summary"], run, "row {}", row["row"]);
        // --row K --print-scenario prints the scenario those changes make.
        let k = row["row"].to_string();
        let printed = sweep_in(&dir, &["--row", &k, "--print-scenario"]);
        assert_eq!(printed.status.code(), Some(0), "{}", stderr(&printed));
        let p = dir.join(format!("row-{k}.json"));
        std::fs::write(&p, &printed.stdout).unwrap();
        let again: Value =
            serde_json::from_slice(&quotasim(&["run", p.to_str().unwrap(), "--summary"]).stdout).unwrap();
        assert_eq!(row["summary"], again, "row {k} from --print-scenario");
    }
}

#[test]
fn the_frontier_marks_rows_no_other_beats() {
    let dir = setup("front", SWEEP);
    let r = rows(&sweep_in(&dir, &[]));
    let on: Vec<bool> = r.iter().map(|x| x["frontier"].as_bool().unwrap()).collect();
    // borrowLimit 0: qs1 cannot borrow, waits ~8 h and uses less: dominated by the others.
    assert_eq!(on, vec![false, false, false, true, true, true, true, true, true]);
}

#[test]
fn three_shards_merged_are_the_bytes_of_one_run() {
    let dir = setup("shards", SWEEP);
    let whole = sweep_in(&dir, &[]);
    let mut files = vec![];
    for i in 1..=3 {
        let out = sweep_in(&dir, &["--shard", &format!("{i}/3")]);
        assert_eq!(out.status.code(), Some(0));
        let f = dir.join(format!("shard-{i}.jsonl"));
        std::fs::write(&f, &out.stdout).unwrap();
        files.push(f.display().to_string());
    }
    let mut args = vec!["sweep-merge"];
    args.extend(files.iter().map(String::as_str));
    let merged = quotasim(&args);
    assert_eq!(merged.status.code(), Some(0), "{}", stderr(&merged));
    assert_eq!(merged.stdout, whole.stdout);
    // A missing shard is refused, not merged into a shorter sweep.
    let merged = quotasim(&["sweep-merge", &files[0], &files[2]]);
    assert_eq!(merged.status.code(), Some(1));
    assert!(stderr(&merged).contains("is in no output"), "{}", stderr(&merged));
}

fn with_env(dir: &Path, var: &str, value: &str, shard: &str) -> Output {
    Command::new(bin())
        .args(["sweep", dir.join("sweep.json").to_str().unwrap(), "--shard", shard])
        .env_remove("AWS_BATCH_JOB_ARRAY_INDEX")
        .env_remove("JOB_COMPLETION_INDEX")
        .env(var, value)
        .output()
        .unwrap()
}

#[test]
fn auto_shards_read_the_array_job_index() {
    let dir = setup("auto", SWEEP);
    let second = sweep_in(&dir, &["--shard", "2/3"]);
    for var in ["AWS_BATCH_JOB_ARRAY_INDEX", "JOB_COMPLETION_INDEX"] {
        assert_eq!(with_env(&dir, var, "1", "auto/3").stdout, second.stdout, "{var}");
        let o = with_env(&dir, var, "3", "auto/3");
        assert_eq!(o.status.code(), Some(2), "{var}=3 is outside 0..2");
    }
    for bad in ["0/3", "4/3", "x/3", "1/0", "2"] {
        assert_eq!(sweep_in(&dir, &["--shard", bad]).status.code(), Some(2), "{bad}");
    }
}

#[test]
fn bad_sweeps_are_refused_before_anything_runs_naming_the_axis() {
    for (sweep, says) in [
        (
            r#"{"base":"nb.json","axes":[{"path":"quotaShares[nope].state","values":["DISABLED"]}]}"#,
            "axes[0].values[0]",
        ),
        (
            r#"{"base":"nb.json","axes":[{"path":"settings.preemptionGraceSeconds","values":["soon"]}]}"#,
            "axes[0].values[0]",
        ),
        (
            r#"{"base":"nb.json","axes":[{"path":"settings.preemptionGraceSeconds","values":[]}]}"#,
            "axes[0].values",
        ),
        (
            r#"{"base":"nb.json","axes":[{"path":"settings.scheduledSeconds","range":{"from":0,"to":500,"step":1}},{"path":"settings.startingSeconds","range":{"from":0,"to":500,"step":1}}]}"#,
            "more than the 100000 allowed",
        ),
    ] {
        let dir = setup("bad", sweep);
        let o = sweep_in(&dir, &[]);
        assert_eq!(o.status.code(), Some(1), "{sweep}");
        assert!(stderr(&o).contains(says), "{sweep}: {}", stderr(&o));
        assert!(o.stdout.is_empty(), "nothing ran");
    }
    let dir = setup("maxrows", SWEEP);
    let o = sweep_in(&dir, &["--max-rows", "8"]);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(e.contains("9 rows (3 of quotaShares[qs1].resourceSharingConfiguration.borrowLimit × 3 of settings.preemptionGraceSeconds), more than the 8 allowed"), "{e}");
}

#[test]
fn csv_has_the_axes_every_metric_and_the_front() {
    let dir = setup("csv", SWEEP);
    let o = sweep_in(&dir, &["--format", "csv"]);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    let header = text.lines().next().unwrap();
    assert!(header.starts_with(
        "row,quotaShares[qs1].resourceSharingConfiguration.borrowLimit,settings.preemptionGraceSeconds,endedAt,"
    ));
    assert!(header.contains(",perQuotaShare.qs1.waitSeconds.p95,"));
    assert!(header.ends_with(",frontier"));
    let cells = header.split(',').count();
    assert!(text.lines().all(|l| l.split(',').count() == cells), "a cell per column");
    // The JSONL run's numbers, and its front.
    let json = rows(&sweep_in(&dir, &[]));
    let cols: Vec<&str> = header.split(',').collect();
    for (line, row) in text.lines().skip(1).zip(&json) {
        let cells: Vec<&str> = line.split(',').collect();
        let at = |name: &str| cells[cols.iter().position(|c| *c == name).unwrap()];
        assert_eq!(at("row"), row["row"].to_string());
        assert_eq!(at("frontier"), row["frontier"].to_string());
        let p95 = &row["summary"]["summary"]["perQuotaShare"]["qs1"]["waitSeconds"]["p95"];
        assert_eq!(
            at("perQuotaShare.qs1.waitSeconds.p95"),
            p95.as_f64().map_or(String::new(), |x| x.to_string())
        );
    }
    assert_eq!(text.lines().count(), 10);
}

/// The command both array-job manifests run, with the shard count and the output file.
fn manifest_commands() -> (String, String) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("deploy");
    let aws: Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("aws-batch-sweep-job-definition.json")).unwrap(),
    )
    .unwrap();
    let aws_cmd = aws["containerProperties"]["command"][2].as_str().unwrap().to_string();
    let k8s: serde_norway::Value =
        serde_norway::from_str(&std::fs::read_to_string(root.join("k8s-sweep-indexed-job.yaml")).unwrap())
            .unwrap();
    assert_eq!(k8s["apiVersion"].as_str(), Some("batch/v1"));
    assert_eq!(k8s["kind"].as_str(), Some("Job"));
    assert_eq!(k8s["spec"]["completionMode"].as_str(), Some("Indexed"));
    let c = &k8s["spec"]["template"]["spec"]["containers"][0];
    // The shard count each runs with is the array's size.
    let k8s_shards =
        c["env"].as_sequence().unwrap().iter().find(|e| e["name"].as_str() == Some("SHARDS")).unwrap()
            ["value"]
            .as_str()
            .unwrap()
            .to_string();
    assert_eq!(k8s["spec"]["completions"].as_u64().map(|n| n.to_string()), Some(k8s_shards.clone()));
    assert!(k8s["spec"]["parallelism"].as_u64().is_some());
    let aws_shards = aws["containerProperties"]["environment"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "SHARDS")
        .unwrap()["value"]
        .as_str()
        .unwrap()
        .to_string();
    let readme = std::fs::read_to_string(root.join("..").join("README.md")).unwrap();
    assert!(
        readme.contains(&format!("--array-properties size={aws_shards}")),
        "README's array size is SHARDS"
    );
    let mounts = &aws["containerProperties"]["mountPoints"][0]["containerPath"];
    assert_eq!(mounts.as_str(), Some("/mnt/sweeps"));
    assert_eq!(c["volumeMounts"][0]["mountPath"].as_str(), Some("/mnt/sweeps"));
    let k8s_cmd = c["command"][2].as_str().unwrap().to_string();
    (aws_cmd, k8s_cmd)
}

#[test]
fn array_job_manifests_run_the_shard_command_the_tests_run() {
    let (aws, k8s) = manifest_commands();
    for cmd in [&aws, &k8s] {
        assert!(
            cmd.starts_with("quotasim sweep /mnt/sweeps/sweep.json --shard auto/$SHARDS --format jsonl > "),
            "{cmd}"
        );
    }
    assert!(aws.ends_with("shard-$AWS_BATCH_JOB_ARRAY_INDEX.jsonl"));
    assert!(k8s.ends_with("shard-$JOB_COMPLETION_INDEX.jsonl"));
    // That command, run here as each of 3 array-job indexes, merges into the whole sweep.
    let dir = setup("manifest", SWEEP);
    let mut files = vec![];
    for (var, cmd) in [("AWS_BATCH_JOB_ARRAY_INDEX", &aws), ("JOB_COMPLETION_INDEX", &k8s)] {
        for idx in 0..3 {
            let script = cmd
                .replace("quotasim ", &format!("{} ", bin().display()))
                .replace("/mnt/sweeps", dir.to_str().unwrap());
            std::fs::create_dir_all(dir.join("out")).unwrap();
            let st = Command::new("sh")
                .args(["-c", &script])
                .env("SHARDS", "3")
                .env_remove("AWS_BATCH_JOB_ARRAY_INDEX")
                .env_remove("JOB_COMPLETION_INDEX")
                .env(var, idx.to_string())
                .status()
                .unwrap();
            assert!(st.success(), "{script}");
            files.push(dir.join("out").join(format!("shard-{idx}.jsonl")).display().to_string());
        }
        let mut args = vec!["sweep-merge"];
        args.extend(files.iter().map(String::as_str));
        assert_eq!(quotasim(&args).stdout, sweep_in(&dir, &[]).stdout, "{var}");
        files.clear();
    }
}

#[test]
fn csv_text_that_looks_like_a_formula_stays_text() {
    let dir = setup(
        "formula",
        r#"{"base":"nb.json","axes":[{"path":"description","values":["=HYPERLINK(\"x\")","plain"]}]}"#,
    );
    let o = sweep_in(&dir, &["--format", "csv"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    let rows: Vec<&str> = text.lines().skip(1).collect();
    assert!(rows[0].starts_with(r#"0,"'=HYPERLINK(""x"")","#), "{}", rows[0]);
    assert!(rows[1].starts_with("1,plain,"), "{}", rows[1]);
}

#[test]
fn rows_say_their_goals_values_and_whether_they_are_on_the_front() {
    let dir = setup("objectives", SWEEP);
    let r = rows(&sweep_in(&dir, &[]));
    let first = stdout(&sweep_in(&dir, &[])).lines().next().unwrap().to_string();
    // The row, the sweep's row count and fingerprint, then the row's values and changes.
    let (head, rest) = first.split_at(r#"{"row":0,"rows":9,"fingerprint":"sha256:"#.len());
    assert_eq!(head, r#"{"row":0,"rows":9,"fingerprint":"sha256:"#, "{first}");
    assert!(rest[..64].chars().all(|c| c.is_ascii_hexdigit()), "{first}");
    assert!(rest[64..].starts_with(r#"","values":[0,60],"changes":["quotaShares[qs1].resourceSharingConfiguration.borrowLimit=0","settings.preemptionGraceSeconds=60"],"summary":{"#), "{first}");
    assert!(first.ends_with(r#","frontier":false}"#), "{first}");
    for row in &r {
        let o = &row["objectives"];
        assert_eq!(o["overall.utilization:max"], row["summary"]["summary"]["overall"]["utilization"]);
        assert_eq!(
            o["perQuotaShare.qs1.waitSeconds.p95:min"],
            row["summary"]["summary"]["perQuotaShare"]["qs1"]["waitSeconds"]["p95"]
        );
    }
    // Without a frontier, neither.
    let dir = setup(
        "no-front",
        &SWEEP.replace(
            r#""frontier": [ "overall.utilization:max", "perQuotaShare.qs1.waitSeconds.p95:min" ]"#,
            r#""frontier": []"#,
        ),
    );
    for row in rows(&sweep_in(&dir, &[])) {
        assert!(row.get("frontier").is_none() && row.get("objectives").is_none(), "{row}");
    }
}

#[test]
fn a_frontier_on_a_small_known_case() {
    // One goal: the front is the rows with the least wait. qs1 waits about 8 h without
    // borrowing, half an hour with it, and a grace period longer by a minute longer.
    let dir = setup(
        "known",
        r#"{"base":"nb.json","axes":[
          {"path":"quotaShares[qs1].resourceSharingConfiguration.borrowLimit","values":[0,100]},
          {"path":"settings.preemptionGraceSeconds","values":[60,120]}],
          "frontier":["perQuotaShare.qs1.waitSeconds.p95:min"]}"#,
    );
    let r = rows(&sweep_in(&dir, &[]));
    let wait: Vec<f64> = r
        .iter()
        .map(|x| x["objectives"]["perQuotaShare.qs1.waitSeconds.p95:min"].as_f64().unwrap())
        .collect();
    let best = wait.iter().cloned().fold(f64::MAX, f64::min);
    let on: Vec<bool> = r.iter().map(|x| x["frontier"].as_bool().unwrap()).collect();
    assert_eq!(on, wait.iter().map(|w| *w == best).collect::<Vec<_>>(), "{wait:?}");
    assert_eq!(wait, vec![28860.0, 28920.0, 1860.0, 1920.0]);
    assert_eq!(on, vec![false, false, true, false]);
}

#[test]
fn csv_shards_merge_into_the_csv_of_one_run() {
    let dir = setup("csv-merge", SWEEP);
    let whole = sweep_in(&dir, &["--format", "csv"]);
    let mut files = vec![];
    for i in 1..=2 {
        let f = dir.join(format!("shard-{i}.jsonl"));
        std::fs::write(&f, sweep_in(&dir, &["--shard", &format!("{i}/2")]).stdout).unwrap();
        files.push(f.display().to_string());
    }
    let merged = quotasim(&["sweep-merge", "--format", "csv", &files[1], &files[0]]);
    assert_eq!(merged.status.code(), Some(0), "{}", stderr(&merged));
    assert_eq!(stdout(&merged), stdout(&whole));
    // The same row twice is refused.
    let twice = quotasim(&["sweep-merge", &files[0], &files[0], &files[1]]);
    assert_eq!(twice.status.code(), Some(1));
    assert!(stderr(&twice).contains("row 0 is in more than one output"), "{}", stderr(&twice));
}

#[test]
fn a_frontier_goal_that_is_not_a_metric_is_refused_before_anything_runs() {
    for (goal, says) in [
        ("overall.utilisation:max", "no metric `overall.utilisation`"),
        ("perQuotaShare.nope.jobs:max", "no quota share `nope`"),
        ("perQuotaShare.*.jobs:max", "a goal is one number"),
        ("overall.utilization:most", "METRIC:max or METRIC:min"),
    ] {
        let dir = setup(
            "bad-goal",
            &format!(
                r#"{{"base":"nb.json","axes":[{{"path":"settings.preemptionGraceSeconds","values":[60]}}],"frontier":["{goal}"]}}"#
            ),
        );
        let o = sweep_in(&dir, &[]);
        assert_eq!(o.status.code(), Some(1), "{goal}");
        assert!(stderr(&o).contains("frontier[0]") && stderr(&o).contains(says), "{goal}: {}", stderr(&o));
        assert!(o.stdout.is_empty());
    }
}

#[test]
fn an_inline_base_and_print_scenario_usage() {
    let nb = std::fs::read_to_string(fixture("notebook.json")).unwrap();
    let dir = setup(
        "inline",
        &format!(
            r#"{{"base":{nb},"axes":[{{"path":"settings.preemptionGraceSeconds","values":[60,120]}}]}}"#
        ),
    );
    let printed = sweep_in(&dir, &["--row", "1", "--print-scenario"]);
    assert_eq!(printed.status.code(), Some(0), "{}", stderr(&printed));
    let s: Value = serde_json::from_slice(&printed.stdout).unwrap();
    assert_eq!(s["settings"]["preemptionGraceSeconds"], 120);
    let base: Value = serde_json::from_str(&nb).unwrap();
    assert_eq!(s["jobs"], base["jobs"]);
    assert_eq!(sweep_in(&dir, &["--print-scenario"]).status.code(), Some(2));
    assert_eq!(sweep_in(&dir, &["--row", "1"]).status.code(), Some(2));
    assert_eq!(sweep_in(&dir, &["--row", "2", "--print-scenario"]).status.code(), Some(2));
}

#[test]
fn a_sweep_over_workload_seeds_reproduces_each_row_from_its_seed() {
    let base = r#"{ "formatVersion": 1,
      "serviceEnvironment": {"capacityLimits": [{"capacityUnit": "ml.p5.48xlarge", "maxCapacity": 8}]},
      "quotaShares": [
        {"quotaShareName": "a", "capacityLimits": [{"capacityUnit": "ml.p5.48xlarge", "maxCapacity": 4}],
         "resourceSharingConfiguration": {"strategy": "LEND_AND_BORROW", "borrowLimit": 100}},
        {"quotaShareName": "b", "capacityLimits": [{"capacityUnit": "ml.p5.48xlarge", "maxCapacity": 4}],
         "resourceSharingConfiguration": {"strategy": "LEND"}}],
      "workload": {"seed": 1, "jobs": 200, "loadPercent": 110, "shares": [
        {"quotaShareName": "a", "weight": 3, "instanceTypes": [{"name": "ml.p5.48xlarge"}],
         "sizes": [{"instances": 1}, {"instances": 2}],
         "duration": {"distribution": "exponential", "minSeconds": 300, "maxSeconds": 7200}},
        {"quotaShareName": "b", "instanceTypes": [{"name": "ml.p5.48xlarge"}],
         "duration": {"distribution": "uniform", "minSeconds": 600, "maxSeconds": 3600}}]} }"#;
    let sweep = r#"{ "formatVersion": 1, "base": "base.json",
      "axes": [
        { "path": "quotaShares[a].resourceSharingConfiguration.borrowLimit", "values": [0, 100] },
        { "path": "workload.seed", "values": [1, 2, 3] } ] }"#;
    let dir = setup("seeds", sweep);
    let b = dir.join("base.json");
    std::fs::write(&b, base).unwrap();
    let r = rows(&sweep_in(&dir, &[]));
    assert_eq!(r.len(), 6);
    for row in &r {
        let mut args = vec!["run".to_string(), b.display().to_string(), "--summary".into()];
        for c in row["changes"].as_array().unwrap() {
            args.push("--set".into());
            args.push(c.as_str().unwrap().to_string());
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let run: Value = serde_json::from_slice(&quotasim(&args).stdout).unwrap();
        assert_eq!(row["summary"], run, "row {}", row["row"]);
    }
    // Other seeds, other workloads: the seed axis is not a no-op.
    assert_ne!(r[0]["summary"], r[1]["summary"]);
    // A workload axis on a base without a workload section is refused naming the axis.
    std::fs::copy(fixture("notebook.json"), &b).unwrap();
    let bad = sweep_in(&dir, &[]);
    assert_eq!(bad.status.code(), Some(1), "{}", stderr(&bad));
    assert!(stderr(&bad).contains("axes[1]") && stderr(&bad).contains("workload"), "{}", stderr(&bad));
}

#[test]
fn merge_messages_quoting_a_row_are_escaped_and_bounded() {
    // A shard's row whose error holds an escape sequence and 100 KB: what the merge says about
    // it reaches the terminal escaped, in lines of at most 4 KB.
    let dir = setup("hostile-row", SWEEP);
    let one = sweep_in(&dir, &[]);
    let mut lines: Vec<Value> = rows(&one);
    let row = lines[4].as_object_mut().unwrap();
    row.remove("summary");
    row.insert("error".into(), format!("\u{1b}]0;owned\u{7}{}", "x".repeat(100_000)).into());
    let text: Vec<String> = lines.iter().map(Value::to_string).collect();
    let file = dir.join("hostile.jsonl");
    std::fs::write(&file, text.join("\n") + "\n").unwrap();
    let o = quotasim(&["sweep-merge", "--format", "csv", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("row 4: "), "{e}");
    for line in e.lines() {
        assert!(!line.contains(|c: char| c.is_control()), "a control character: {line:?}");
        assert!(line.len() <= 4096, "a {}-byte line", line.len());
    }
}
