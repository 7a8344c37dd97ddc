//! Bridges to what teams deploy: Kueue in and out (round trips on the fixtures, presets and
//! generated scenarios), CloudFormation and `aws batch` exports with AWS's property names, and
//! bad input (truncated, mistyped, 100 MB) named by file, document and field, never a panic.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use quotasim::json::parse_scenario;
use quotasim::kueue::{export, import, Document};
use quotasim::model::{Scenario, Strategy};
use quotasim::{generate, GenerateOptions};
use quotasim_tests::cli::{fixture, quotasim, stderr, stdout};
use serde_json::{json, Value};

mod aws_state;
mod hostile;

fn temp(name: &str, text: &str) -> String {
    let p = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("quotasim-bridges-{}-{name}", std::process::id()));
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

/// Per share: quota per type, strategy, allowance per type (floor(quota × limit ÷ 100), or
/// unlimited), in-share preemption, state.
type Shape = BTreeMap<String, (Vec<(String, i64)>, Strategy, Vec<Option<i64>>, bool, bool)>;

fn shape(s: &Scenario) -> (Shape, Vec<(String, i64)>) {
    let mut out = Shape::new();
    for q in &s.quota_shares {
        let r = &q.resource_sharing_configuration;
        let limits: Vec<(String, i64)> =
            q.capacity_limits.iter().map(|l| (l.capacity_unit.clone(), l.max_capacity)).collect();
        let allow = limits
            .iter()
            .map(|(_, m)| match (r.strategy, r.borrow_limit.unwrap_or(-1)) {
                (Strategy::LendAndBorrow, -1) => None,
                (Strategy::LendAndBorrow, p) => Some(m * p / 100),
                _ => Some(0),
            })
            .collect();
        out.insert(
            q.quota_share_name.clone(),
            (
                limits,
                r.strategy,
                allow,
                q.preemption_configuration.in_share_preemption == quotasim::model::Toggle::Enabled,
                q.state == quotasim::model::ShareState::Enabled,
            ),
        );
    }
    let mut cap: Vec<(String, i64)> = s
        .service_environment
        .capacity_limits
        .iter()
        .map(|l| (l.capacity_unit.clone(), l.max_capacity))
        .collect();
    cap.sort();
    (out, cap)
}

fn round_trip(s: &Scenario) -> Scenario {
    let (docs, _) = export(s);
    let text = quotasim::yaml::to_yaml_documents(&docs);
    let (docs, problems) = quotasim::yaml::documents("k.yaml", &text);
    assert!(problems.is_empty(), "{problems:?}");
    import(&docs, None).expect("imports back").scenario
}

fn scenarios() -> Vec<(String, Scenario)> {
    let mut v = vec![(
        "notebook".to_string(),
        parse_scenario(&std::fs::read_to_string(fixture("notebook.json")).unwrap()).unwrap(),
    )];
    let presets = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../www/presets");
    for e in std::fs::read_dir(presets).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "json") {
            if let Ok(s) = parse_scenario(&std::fs::read_to_string(&p).unwrap()) {
                v.push((p.display().to_string(), s));
            }
        }
    }
    for seed in 1..4 {
        v.push((format!("generated {seed}"), generate(&GenerateOptions::new(10, 20, 5, seed))));
    }
    v
}

#[test]
fn kueue_export_then_import_gives_back_shares_quotas_strategies_allowances_and_capacity() {
    for (name, s) in scenarios() {
        let back = round_trip(&s);
        assert_eq!(shape(&back), shape(&s), "{name}");
        assert!(quotasim::validate(&back).is_ok(), "{name}: the import is a valid scenario");
    }
}

#[test]
fn kueue_import_from_the_command_line_says_what_it_recognised_and_warns_with_paths() {
    let yaml = r#"
apiVersion: kueue.x-k8s.io/v1beta1
kind: ResourceFlavor
metadata: { name: p5 }
spec: { nodeLabels: { node.kubernetes.io/instance-type: ml.p5.48xlarge, nvidia.com/gpu.count: "8" } }
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: { name: team-a }
spec:
  cohort: org
  preemption: { withinClusterQueue: LowerPriority }
  resourceGroups:
  - coveredResources: [nvidia.com/gpu]
    flavors:
    - name: p5
      resources: [{ name: nvidia.com/gpu, nominalQuota: 36, borrowingLimit: 16 }]
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: { name: team-b }
spec:
  cohort: org
  resourceGroups:
  - coveredResources: [nvidia.com/gpu]
    flavors:
    - name: p5
      resources: [{ name: nvidia.com/gpu, nominalQuota: 32, borrowingLimit: 0, lendingLimit: 0 }]
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata: { name: a-queue, namespace: team-a }
spec: { clusterQueue: team-a }
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: WorkloadPriorityClass
metadata: { name: high }
value: 1000
"#;
    let f = temp("kueue.yaml", yaml);
    let out = quotasim(&["import", "kueue", &f]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains(
            "recognised 2 ClusterQueues, 1 LocalQueues, 1 ResourceFlavors, 1 WorkloadPriorityClasses"
        ),
        "{err}"
    );
    assert!(
        err.contains("document 2: spec.resourceGroups[0].flavors[0].resources[0].nominalQuota"),
        "36 GPUs is 4.5 instances: {err}"
    );
    let s: Value = serde_json::from_slice(&out.stdout).unwrap();
    let a = &s["quotaShares"][0];
    assert_eq!(a["capacityLimits"][0], json!({"capacityUnit": "ml.p5.48xlarge", "maxCapacity": 4}));
    assert_eq!(a["resourceSharingConfiguration"], json!({"strategy": "LEND_AND_BORROW", "borrowLimit": 50}));
    assert_eq!(a["preemptionConfiguration"]["inSharePreemption"], "ENABLED");
    assert_eq!(s["quotaShares"][1]["resourceSharingConfiguration"]["strategy"], "RESERVE");
    assert_eq!(s["serviceEnvironment"]["capacityLimits"][0]["maxCapacity"], 8);
    // v1beta2 names the cohort cohortName; --gpus-per-instance for flavors without the label.
    let v2 = yaml.replace("cohort: org", "cohortName: org").replace(", nvidia.com/gpu.count: \"8\"", "");
    let f2 = temp("kueue2.yaml", &v2);
    let out = quotasim(&["import", "kueue", &f2, "--gpus-per-instance", "4"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let s: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["quotaShares"][0]["capacityLimits"][0]["maxCapacity"], 9);
    assert!(!stderr(&out).contains("in no cohort"));
}

#[test]
fn kueue_bad_input_is_named_by_file_document_and_field() {
    let f = temp(
        "bad.yaml",
        "kind: ClusterQueue\nmetadata: { name: a }\nspec:\n  resourceGroups: [ { flavors: [ ",
    );
    let out = quotasim(&["import", "kueue", &f]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("document 1, line"), "{}", stderr(&out));
    let f = temp(
        "typed.yaml",
        "kind: ClusterQueue\nmetadata: { name: a }\nspec:\n  cohort: o\n  resourceGroups: [ { flavors: [ { name: p5, resources: [ { name: nvidia.com/gpu, nominalQuota: lots } ] } ] } ]\n---\nkind: Deployment\nmetadata: { name: x }\n",
    );
    let out = quotasim(&["import", "kueue", &f]);
    assert_eq!(out.status.code(), Some(1));
    let e = stderr(&out);
    assert!(e.contains("document 1: spec.resourceGroups[0].flavors[0].resources[0].nominalQuota"), "{e}");
    assert!(e.contains("document 2: kind"), "{e}");
    // 100 MB of YAML: read, reported, no panic.
    let mut big = String::from("kind: ClusterQueue\nmetadata: { name: big }\nspec:\n  junk:\n");
    let line = format!("  - {}\n", "x".repeat(96));
    while big.len() < 100_000_000 {
        big.push_str(&line);
    }
    let f = temp("big.yaml", &big);
    drop(big);
    let out = quotasim(&["import", "kueue", &f]);
    // A queue without GPU quota is no valid share, and nothing else is left: exit 1.
    assert_eq!(out.status.code(), Some(1), "exits, never a signal");
    assert!(
        stderr(&out).contains("big.yaml document 1: spec.resourceGroups: big has no"),
        "{}",
        stderr(&out)
    );
    let _ = std::fs::remove_file(&f);
    // The mapping itself, directly, on a document of 100 MB of flavors of junk.
    let flavors: Vec<Value> = (0..400_000)
        .map(|i| json!({"name": format!("f{i}"), "resources": [{"name": "x".repeat(200)}]}))
        .collect();
    let doc = Document {
        file: "huge".into(),
        index: 0,
        value: json!({"kind": "ClusterQueue", "metadata": {"name": "q"}, "spec": {"cohort": "o", "resourceGroups": [{"flavors": flavors}]}}),
    };
    // 400,000 warnings of one document: twenty listed and the rest counted; the queue has no
    // GPU quota, so nothing valid is left.
    let p = import(&[doc], None).expect_err("no valid share");
    assert!(p.len() < 30, "{} problems", p.len());
    assert!(
        p.iter()
            .any(|x| x.path == "huge"
                && x.message.ends_with("more warnings are not listed (the first 20 are)")),
        "{p:?}"
    );
}

const CFN_PROPERTIES: &[(&str, &[&str])] = &[
    (
        "AWS::Batch::ServiceEnvironment",
        &["ServiceEnvironmentName", "ServiceEnvironmentType", "State", "CapacityLimits"],
    ),
    ("AWS::Batch::SchedulingPolicy", &["Name", "QuotaSharePolicy"]),
    (
        "AWS::Batch::JobQueue",
        &[
            "JobQueueName",
            "JobQueueType",
            "Priority",
            "State",
            "SchedulingPolicyArn",
            "ServiceEnvironmentOrder",
        ],
    ),
    (
        "AWS::Batch::QuotaShare",
        &[
            "QuotaShareName",
            "JobQueue",
            "CapacityLimits",
            "ResourceSharingConfiguration",
            "PreemptionConfiguration",
            "State",
        ],
    ),
];

#[test]
fn cloudformation_uses_aws_property_names_and_the_scenario_quota_shares() {
    for (name, s) in scenarios() {
        let t = quotasim::export::cloudformation(&s);
        for r in t["Resources"].as_object().unwrap().values() {
            let ty = r["Type"].as_str().unwrap();
            let allowed = CFN_PROPERTIES.iter().find(|(t, _)| *t == ty).map(|x| x.1).expect("a known type");
            for k in r["Properties"].as_object().unwrap().keys() {
                assert!(allowed.contains(&k.as_str()), "{name}: {ty} has no property {k}");
            }
            if ty == "AWS::Batch::QuotaShare" {
                let p = &r["Properties"];
                let q = s
                    .quota_shares
                    .iter()
                    .find(|q| p["QuotaShareName"] == q.quota_share_name.as_str())
                    .unwrap();
                for (k, l) in q.capacity_limits.iter().enumerate() {
                    assert_eq!(
                        p["CapacityLimits"][k],
                        json!({"CapacityUnit": l.capacity_unit, "MaxCapacity": l.max_capacity})
                    );
                }
                let v = serde_json::to_value(&q.resource_sharing_configuration).unwrap();
                assert_eq!(p["ResourceSharingConfiguration"]["Strategy"], v["strategy"]);
                if let Some(b) = v.get("borrowLimit") {
                    assert_eq!(&p["ResourceSharingConfiguration"]["BorrowLimit"], b);
                }
            }
        }
    }
    let out = quotasim(&["export", "cloudformation", fixture("notebook.json").to_str().unwrap(), "--yaml"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("Type: AWS::Batch::QuotaShare"));
}

#[test]
fn the_aws_cli_script_parses_and_passes_hostile_names_as_plain_words() {
    // A service environment's name follows the AWS name rule, so it cannot carry shell.
    let mut s = parse_scenario(&std::fs::read_to_string(fixture("notebook.json")).unwrap()).unwrap();
    s.service_environment.service_environment_name = Some("se'; touch owned-by-a-name; echo '$(id)".into());
    let out = quotasim(&["export", "aws-cli", &temp("hostile-se.json", &quotasim::json::to_json(&s))]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("error: serviceEnvironment.serviceEnvironmentName: "), "{}", stderr(&out));
    // An instance type may hold anything but spaces.
    let hostile = "ml.g5'$(touch${IFS}owned-by-a-name)';echo${IFS}'$(id)";
    let text = std::fs::read_to_string(fixture("notebook.json")).unwrap().replace("ml.g5.xlarge", hostile);
    let s = parse_scenario(&text).unwrap();
    let f = temp("hostile.json", &text);
    let out = quotasim(&["export", "aws-cli", &f]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let script = temp("create.sh", &stdout(&out));
    assert!(Command::new("sh").arg("-n").arg(&script).status().unwrap().success(), "the script parses");
    // A stand-in `aws` records each call's arguments, one per line.
    let bin = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("quotasim-fake-aws-{}", std::process::id()));
    std::fs::create_dir_all(&bin).unwrap();
    let log = bin.join("calls");
    let fake = bin.join("aws");
    std::fs::write(
        &fake,
        format!(
            "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\" >> {}; done\necho arn:policy\n",
            log.display()
        ),
    )
    .unwrap();
    Command::new("chmod").arg("+x").arg(&fake).status().unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let run = Command::new("sh").arg(&script).env("PATH", path).output().unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let calls = std::fs::read_to_string(&log).unwrap();
    assert!(!Path::new("owned-by-a-name").exists() && !bin.join("owned-by-a-name").exists());
    assert_eq!(calls.matches("create-quota-share").count(), s.quota_shares.len());
    assert!(calls.contains(&format!("{{\"capacityUnit\":\"{hostile}\",\"maxCapacity\":1}}")), "{calls}");
    let _ = std::fs::remove_dir_all(&bin);
}

/// `quotasim run --events-format eventbridge` of `s`, imported back.
fn aws_round_trip(s: &Scenario, name: &str) -> (Value, Value, String) {
    let f = temp(&format!("{name}.json"), &quotasim::json::to_json(s));
    let ev = quotasim(&["run", &f, "--events-format", "eventbridge"]);
    assert_eq!(ev.status.code(), Some(0), "{}", stderr(&ev));
    let events = temp(&format!("{name}.jsonl"), &stdout(&ev));
    let obs = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("quotasim-bridges-{}-{name}-observed.json", std::process::id()));
    let imp = quotasim(&["import", "aws", &events, "--observed", obs.to_str().unwrap()]);
    assert_eq!(imp.status.code(), Some(0), "{}", stderr(&imp));
    let scenario: Value = serde_json::from_slice(&imp.stdout).unwrap();
    let observed: Value = serde_json::from_str(&std::fs::read_to_string(&obs).unwrap()).unwrap();
    (scenario, observed, stderr(&imp))
}

#[test]
fn an_eventbridge_export_imports_back_as_the_same_shares_jobs_priorities_and_succeeded_durations() {
    let mut horizon = generate(&GenerateOptions::new(300, 4, 2, 9));
    horizon.settings.horizon_seconds = Some(6 * 3600);
    let cases = vec![
        ("notebook", parse_scenario(&std::fs::read_to_string(fixture("notebook.json")).unwrap()).unwrap()),
        ("generated", generate(&GenerateOptions::new(400, 4, 2, 3))),
        ("horizon", horizon),
    ];
    for (name, s) in cases {
        let mut sim = quotasim::Simulation::new(quotasim::validate(&s).unwrap());
        sim.run();
        let result = sim.result();
        let (back, _, warnings) = aws_round_trip(&s, name);
        let back: Scenario = parse_scenario(&back.to_string()).unwrap();
        assert_eq!(shape(&back), shape(&s), "{name}: shares and capacity");
        assert_eq!(back.jobs.len(), s.jobs.len(), "{name}");
        let by_name: BTreeMap<&str, &quotasim::model::Job> =
            back.jobs.iter().map(|j| (j.job_name.as_str(), j)).collect();
        let mut censored = 0;
        // submitAt is relative to the earliest createdAt seen (the origin is in the description).
        let first = s.jobs.iter().map(|j| j.submit_at).min().unwrap_or(0);
        for (j, r) in s.jobs.iter().zip(&result.jobs) {
            let b = by_name[j.job_name.as_str()];
            assert_eq!(
                (&b.quota_share_name, b.scheduling_priority, &b.instance_type, b.instance_count, b.submit_at),
                (
                    &j.quota_share_name,
                    j.scheduling_priority,
                    &j.instance_type,
                    j.instance_count,
                    j.submit_at - first
                ),
                "{name}: {}",
                j.job_name
            );
            if r.status == Some(quotasim::result::Status::Succeeded) {
                assert_eq!(b.duration_seconds, j.duration_seconds, "{name}: {} succeeded", j.job_name);
            } else {
                censored += 1;
                // The first twenty of a file are listed, the rest counted.
                assert!(
                    censored > 20
                        || warnings.contains(&format!("job {} ", j.job_name))
                            && warnings.contains("censored"),
                    "{name}: {}",
                    j.job_name
                );
            }
        }
        assert_eq!(
            warnings.matches(", censored").count(),
            censored.min(20),
            "{name}: a censoring warning per unfinished job, the first twenty listed"
        );
        if censored > 20 {
            let more = format!("{} more censored jobs are not listed (the first 20 are)", censored - 20);
            assert!(warnings.contains(&more), "{name}: {warnings}");
        }
        assert!(
            warnings.contains("describe-quota-share") && warnings.contains("EventBridge events"),
            "{warnings}"
        );
    }
}

#[test]
fn calibrate_of_a_faithful_replay_finds_no_difference_and_names_the_ones_it_finds() {
    let mut o = GenerateOptions::new(300, 4, 2, 5);
    o.checkpoint_percent = 0;
    let s = generate(&o);
    let (back, observed, _) = aws_round_trip(&s, "calibrate");
    let sf = temp("calib-scenario.json", &back.to_string());
    let of = temp("calib-observed.json", &observed.to_string());
    let out = quotasim(&["calibrate", &sf, &of, "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let c: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(c["mostDifferent"], json!([]), "a faithful replay matches what was observed");
    for sh in c["perQuotaShare"].as_array().unwrap() {
        assert_eq!(sh["waitP95"]["simulated"], sh["waitP95"]["observed"], "{sh}");
        assert_eq!(sh["preemptions"]["simulated"], sh["preemptions"]["observed"], "{sh}");
    }
    // A changed policy no longer matches: the jobs that moved are named.
    let mut changed: Scenario = parse_scenario(&back.to_string()).unwrap();
    for q in &mut changed.quota_shares {
        q.resource_sharing_configuration = quotasim::model::ResourceSharing::new(Strategy::Reserve, None);
    }
    let cf = temp("calib-changed.json", &quotasim::json::to_json(&changed));
    let text = quotasim(&["calibrate", &cf, &of]);
    assert_eq!(text.status.code(), Some(0), "{}", stderr(&text));
    let t = stdout(&text);
    assert!(
        t.starts_with("share") && t.contains("wait p95 sim / obs") && t.contains("jobs differ; the most:"),
        "{t}"
    );
}

#[test]
fn aws_outputs_are_recognised_deduplicated_by_job_id_and_bad_records_named() {
    let shares = r#"{"quotaShares":[{"quotaShareName":"a","jobQueue":"q","capacityLimits":[{"capacityUnit":"ml.p5.48xlarge","maxCapacity":2}],
      "resourceSharingConfiguration":{"strategy":"LEND_AND_BORROW","borrowLimit":100},"preemptionConfiguration":{"inSharePreemption":"ENABLED"},
      "state":"ENABLED","status":"VALID","newAwsField":{"x":1}}]}"#;
    let env = r#"{"serviceEnvironments":[{"serviceEnvironmentName":"se","serviceEnvironmentType":"SAGEMAKER_TRAINING","capacityLimits":[{"capacityUnit":"ml.p5.48xlarge","maxCapacity":4}]}]}"#;
    let page = r#"{"jobSummaryList":[
      {"jobId":"j1","jobName":"train-1","quotaShareName":"a","status":"SUCCEEDED","createdAt":1767225600000,"startedAt":1767225660000,"stoppedAt":1767229260000,
       "capacityUsage":[{"capacityUnit":"ml.p5.48xlarge","quantity":1}],"latestAttempt":{}},
      {"jobId":"j2","jobName":"train-2","quotaShareName":"a","status":"RUNNING","createdAt":1767225700000,"startedAt":1767225700000,
       "capacityUsage":[{"capacityUnit":"ml.p5.48xlarge","quantity":1}]}],
      "nextToken":"abc"}"#;
    let describe = r#"{"jobId":"j1","jobName":"train-1","jobArn":"arn:j1","quotaShareName":"a","status":"SUCCEEDED","schedulingPriority":50,
      "createdAt":1767225600000,"attempts":[{"startedAt":1767225660000,"stoppedAt":1767229260000}],
      "serviceRequestPayload":"{\"ResourceConfig\":{\"InstanceType\":\"ml.p5.48xlarge\",\"InstanceCount\":2},\"StoppingCondition\":{\"MaxRuntimeInSeconds\":7200},\"CheckpointConfig\":{\"S3Uri\":\"s3://b/c\"}}"}"#;
    let events = "{\"detail-type\":\"Batch Service Job State Change\",\"detail\":{\"jobId\":\"j3\",\"quotaShareName\":\"a\",\"createdAt\":1767225800000}}\n{\"detail-type\": \"Batch Service Job State Change\", \"detail\": {\"jobId\": \"j4\"\n";
    let files = [
        temp("env.json", env),
        temp("shares.json", shares),
        temp("page.json", page),
        temp("describe.json", describe),
        temp("events.jsonl", events),
    ];
    let mut args = vec!["import", "aws"];
    args.extend(files.iter().map(String::as_str));
    let out = quotasim(&args);
    let e = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "a broken record is an error: {e}");
    for kind in [
        "1 describe-service-environments",
        "1 list-quota-shares",
        "1 list-service-jobs",
        "1 describe-service-job",
        "1 EventBridge events",
    ] {
        assert!(e.contains(kind), "{kind}: {e}");
    }
    assert!(e.contains("events.jsonl:2: not JSON"), "{e}");
    assert!(e.contains("events.jsonl:1: capacityUsage"), "j3 has no instance type: {e}");
    assert!(e.contains("job j2 had not finished") && e.contains("censored"), "{e}");
    let s: Value = serde_json::from_slice(&out.stdout).unwrap();
    let jobs = s["jobs"].as_array().unwrap();
    assert_eq!(jobs.len(), 2, "j1 once (deduplicated) and j2; j3 skipped");
    let j1 = &jobs[0];
    assert_eq!(j1["jobName"], "train-1");
    assert_eq!(
        (j1["instanceCount"].as_i64(), j1["durationSeconds"].as_i64(), j1["schedulingPriority"].as_i64()),
        (Some(2), Some(3600), Some(50))
    );
    assert_eq!(j1["timeoutSeconds"], 7200, "the richest record (describe-service-job) wins");
    assert!(j1["checkpointIntervalSeconds"].is_number());
    assert_eq!(jobs[1]["submitAt"], 100);
    assert!(s["description"].as_str().unwrap().contains("1767225600000"));
    assert_eq!(s["quotaShares"][0]["resourceSharingConfiguration"]["borrowLimit"], 100);
    assert_eq!(s["serviceEnvironment"]["capacityLimits"][0]["maxCapacity"], 4);
}

#[test]
fn aws_import_never_panics_on_truncated_or_huge_input() {
    let page = r#"{"jobSummaryList":[{"jobId":"j1","quotaShareName":"a","createdAt":1,"capacityUsage":[{"capacityUnit":"t","quantity":1}]}]}"#;
    for cut in [1, 10, page.len() / 2, page.len() - 1] {
        let r = quotasim::aws::import(&[("p.json".into(), page[..cut].to_string())], None);
        match r {
            Ok(i) => assert!(i.warnings.iter().any(|w| w.is_error()) || i.scenario.jobs.is_empty()),
            Err(p) => assert!(!p.is_empty()),
        }
    }
    // 100 MB: one record with a huge unknown field, and the same text cut short.
    let mut big = String::from(
        r#"{"jobSummaryList":[{"jobId":"j1","quotaShareName":"a","createdAt":1,"status":"SUCCEEDED","startedAt":1,"stoppedAt":3600001,"capacityUsage":[{"capacityUnit":"t","quantity":1}],"junk":""#,
    );
    big.push_str(&"x".repeat(100_000_000));
    big.push_str("\"}]}");
    let r = quotasim::aws::import(&[("big.json".into(), big.clone())], None).expect("one job");
    assert_eq!(r.scenario.jobs.len(), 1);
    big.truncate(50_000_000);
    let r = quotasim::aws::import(&[("big.json".into(), big)], None);
    assert!(r.is_err() || r.unwrap().warnings.iter().any(|w| w.is_error()));
}

/// The openb excerpt read independently of the importer: (name, qos, instances, submit,
/// duration) for every pod that asks for a GPU and ran, with 8 GPUs per instance.
fn openb_oracle(text: &str) -> Vec<(String, String, i64, i64, i64)> {
    let mut out = Vec::new();
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let (gpus, milli): (f64, f64) = (f[3].parse().unwrap(), f[4].parse().unwrap());
        let g = gpus * milli / 1000.0;
        if g <= 0.0 || f[10].is_empty() {
            continue;
        }
        let (created, deleted, scheduled): (i64, i64, i64) =
            (f[8].parse().unwrap(), f[9].parse().unwrap(), f[10].parse().unwrap());
        out.push((
            f[0].to_string(),
            f[6].to_string(),
            (g / 8.0).ceil() as i64,
            created,
            (deleted - scheduled).max(1),
        ));
    }
    let first = out.iter().map(|r| r.3).min().unwrap();
    for r in &mut out {
        r.3 -= first;
    }
    out.sort_by_key(|r| r.3);
    out
}

#[test]
fn a_real_openb_excerpt_imports_every_pod_that_ran_with_its_gpus_times_and_qos() {
    let path = fixture("openb-excerpt.csv").display().to_string();
    let text = std::fs::read_to_string(&path).unwrap();
    let out = quotasim(&["import", "trace", "--format", "openb", &path]);
    let e = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{e}");
    let s: Scenario = parse_scenario(&stdout(&out)).unwrap();
    let got: Vec<(String, String, i64, i64, i64)> = s
        .jobs
        .iter()
        .map(|j| {
            (
                String::from(j.job_name.as_str()),
                String::from(j.quota_share_name.as_str()),
                j.instance_count.unwrap(),
                j.submit_at,
                j.duration_seconds.unwrap_or(-1),
            )
        })
        .collect();
    let want = openb_oracle(&text);
    assert!(want.len() > 200, "the excerpt has {} pods that ran", want.len());
    assert_eq!(got, want);
    assert_eq!(s.instance_types[0].name, "ml.p5.48xlarge");
    // Every skip is counted with its reason and first lines; censored pods are named as such.
    let no_gpu = text.lines().skip(1).filter(|l| l.split(',').nth(3) == Some("0")).count();
    assert!(e.contains(&format!("{no_gpu} rows ask for no GPU")), "{e}");
    assert!(e.contains("never started") && e.contains("censored"), "{e}");
    // Quotas split the peak by demand and sum to the service environment's capacity.
    let sum: i64 = s.quota_shares.iter().map(|q| q.capacity_limits[0].max_capacity).sum();
    assert_eq!(sum, s.service_environment.capacity_limits[0].max_capacity);
    assert!(quotasim::validate(&s).is_ok());
    // A window, whole GPUs only and a clamp, as the playground's trace preset uses them.
    let out = quotasim(&[
        "import",
        "trace",
        "--format",
        "openb",
        &path,
        "--gpus-per-instance",
        "1",
        "--min-gpus",
        "1",
        "--from",
        "1000000",
        "--max-duration",
        "3600",
        "--instances",
        "16",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let w: Scenario = parse_scenario(&stdout(&out)).unwrap();
    assert!(w.jobs.iter().all(|j| j.duration_seconds.is_some_and(|d| d <= 3600)
        && j.instance_type.as_deref() == Some("ml.g5.xlarge")));
    assert!(w.jobs.len() < got.len() && !w.jobs.is_empty());
    assert_eq!(w.service_environment.capacity_limits[0].max_capacity, 16);
}

#[test]
fn a_csv_log_with_a_column_mapping_teams_priorities_and_a_capacity_file() {
    // A small synthetic log in the Helios layout (written here; the real one is not shipped).
    let log = "job_id,user,vc,gpu_num,state,submit_time,start_time,end_time,queue\n\
               a1,u1,vcX,8,COMPLETED,2020-04-01 00:00:00,2020-04-01 00:00:10,2020-04-01 02:00:10,high\n\
               a2,u2,vcY,16,COMPLETED,2020-04-01 00:10:00,2020-04-01 00:20:00,2020-04-01 00:50:00,low\n\
               a3,u2,\"vc Z\",4,RUNNING,2020-04-01 01:00:00,2020-04-01 01:00:00,2020-04-01 03:00:00,low\n";
    let cap = "date,vcX,vcY,vc Z,total\n2020-04-01,16,16,8,40\n2020-04-02,24,16,8,48\n";
    let (lf, cf) = (temp("helios.csv", log), temp("capacity.csv", cap));
    let out = quotasim(&[
        "import", "trace", "--format", "csv", &lf, "--columns",
        "name=job_id,team=vc,gpus=gpu_num,submit=submit_time,start=start_time,end=end_time,status=state,priority=queue",
        "--teams", "vcX=research,vcY=product", "--priorities", "high=100,low=0", "--capacity", &cf,
        "--checkpoint-interval", "600",
    ]);
    let e = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{e}");
    let s: Scenario = parse_scenario(&stdout(&out)).unwrap();
    type Row<'a> = (&'a str, &'a str, i64, Option<i64>, i64, i64, Option<i64>);
    let jobs: Vec<Row> = s
        .jobs
        .iter()
        .map(|j| {
            (
                j.job_name.as_str(),
                j.quota_share_name.as_str(),
                j.scheduling_priority,
                j.instance_count,
                j.submit_at,
                j.duration_seconds.unwrap_or(-1),
                j.checkpoint_interval_seconds,
            )
        })
        .collect();
    assert_eq!(
        jobs,
        vec![
            ("a1", "research", 100, Some(1), 0, 7200, Some(600)),
            ("a2", "product", 0, Some(2), 600, 1800, Some(600)),
            ("a3", "vc-Z", 0, Some(1), 3600, 7200, Some(600)),
        ]
    );
    assert!(e.contains("1 rows were still running") && e.contains("censored"), "{e}");
    let q: Vec<(&str, i64)> = s
        .quota_shares
        .iter()
        .map(|q| (q.quota_share_name.as_str(), q.capacity_limits[0].max_capacity))
        .collect();
    assert_eq!(
        q,
        vec![("research", 3), ("product", 2), ("vc-Z", 1)],
        "the last row of the capacity file, in instances"
    );
    assert_eq!(s.service_environment.capacity_limits[0].max_capacity, 6);
    assert!(quotasim::validate(&s).is_ok());
    // The same log in epoch seconds with a duration column gives the same jobs.
    let log2 = "id,team,g,t,d\na1,vcX,8,1585699200,7200\n";
    let out2 = quotasim(&[
        "import",
        "trace",
        "--format",
        "csv",
        &temp("epoch.csv", log2),
        "--columns",
        "name=id,team=team,gpus=g,submit=t,duration=d",
    ]);
    assert_eq!(out2.status.code(), Some(0), "{}", stderr(&out2));
    let s2: Scenario = parse_scenario(&stdout(&out2)).unwrap();
    assert_eq!((s2.jobs[0].duration_seconds, s2.jobs[0].instance_count), (Some(7200), Some(1)));
}

#[test]
fn trace_bad_input_is_named_by_file_line_and_field_never_a_panic() {
    let log = temp("bad.csv", "submit,gpus,duration\n0,1,60\nlater,1,60\n5,1,\n");
    let out = quotasim(&[
        "import",
        "trace",
        "--format",
        "csv",
        &log,
        "--columns",
        "submit=submit,gpus=gpus,duration=duration",
    ]);
    let e = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "a row that cannot be read is an error: {e}");
    assert!(e.contains("bad.csv:3: submit: \"later\" is not a number of seconds"), "{e}");
    assert_eq!(
        parse_scenario(&stdout(&out)).unwrap().jobs.len(),
        1,
        "the scenario is still printed, without the bad rows"
    );
    let out = quotasim(&[
        "import",
        "trace",
        "--format",
        "csv",
        &log,
        "--columns",
        "submit=when,gpus=gpus,duration=duration",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out)
            .contains("columns.submit: no column \"when\" in the header (columns: submit, gpus, duration)"),
        "{}",
        stderr(&out)
    );
    let out = quotasim(&["import", "trace", "--format", "csv", &log, "--columns", "sumbit=submit"]);
    assert_eq!(out.status.code(), Some(2), "a usage error");
    assert!(stderr(&out).contains("columns.sumbit: is not one of name, submit"), "{}", stderr(&out));
    let out =
        quotasim(&["import", "trace", "--format", "csv", &log, "--columns", "gpus=gpus,duration=duration"]);
    assert!(stderr(&out).contains("columns.submit: is required"), "{}", stderr(&out));
    let out = quotasim(&[
        "import",
        "trace",
        "--format",
        "csv",
        &log,
        "--columns",
        "submit=submit,gpus=gpus,duration=duration",
        "--gpus-per-instance",
        "3",
    ]);
    assert!(stderr(&out).contains("instanceType: give the instance type for 3 GPUs"), "{}", stderr(&out));
    // Truncated anywhere, and 100 MB of one unterminated quoted field or of rows: no panic.
    let excerpt = std::fs::read_to_string(fixture("openb-excerpt.csv")).unwrap();
    let o =
        quotasim::trace::TraceOptions { format: quotasim::trace::TraceFormat::Openb, ..Default::default() };
    for cut in [0, 1, 40, 200, excerpt.len() / 2, excerpt.len() - 1] {
        let _ = quotasim::trace::import(&[("t.csv".into(), excerpt[..cut].to_string())], &o);
    }
    let mut huge = String::from("name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n\"");
    huge.push_str(&"x".repeat(100 << 20));
    assert!(quotasim::trace::import(&[("q.csv".into(), huge)], &o).is_err());
    let row = "p,1,1,1,1000,,LS,Succeeded,5,10,6\n";
    let mut rows = String::from("name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n");
    let bad = "bad,1,1,x,1000,,LS,Succeeded,5,10,6\n".repeat(99);
    while rows.len() < 100 << 20 {
        rows.push_str(&bad);
        rows.push_str(row);
    }
    let r = quotasim::trace::import(&[("rows.csv".into(), rows)], &o).unwrap();
    assert!(r.scenario.jobs.len() > 25_000, "{}", r.scenario.jobs.len());
    let errors: Vec<&quotasim::Problem> = r.warnings.iter().filter(|w| w.is_error()).collect();
    assert_eq!(errors.len(), 21, "20 errors listed, the rest counted");
    assert!(errors[20].message.contains("more rows could not be read"));
}

#[test]
fn aws_job_pages_alone_give_a_valid_scenario_with_each_share_at_its_observed_peak() {
    let page = r#"{"jobSummaryList":[
      {"jobId":"a","quotaShareName":"s","status":"SUCCEEDED","createdAt":1000,"startedAt":1000,"stoppedAt":61000,"capacityUsage":[{"capacityUnit":"ml.p5.48xlarge","quantity":2}]},
      {"jobId":"b","quotaShareName":"s","status":"SUCCEEDED","createdAt":2000,"startedAt":2000,"stoppedAt":62000,"capacityUsage":[{"capacityUnit":"ml.p5.48xlarge","quantity":1}]},
      {"jobId":"c","quotaShareName":"s","status":"SUCCEEDED","createdAt":70000,"startedAt":70000,"stoppedAt":90000,"capacityUsage":[{"capacityUnit":"ml.p5.48xlarge","quantity":2}]}]}"#;
    let r = quotasim::aws::import(&[("page.json".into(), page.into())], None).unwrap();
    let q = &r.scenario.quota_shares[0];
    assert_eq!(
        (q.quota_share_name.as_str(), q.capacity_limits[0].max_capacity),
        ("s", 3),
        "a and b overlapped"
    );
    assert_eq!(r.scenario.service_environment.capacity_limits[0].max_capacity, 3);
    assert!(r.warnings.iter().any(|w| w.path == "quotaShares.s" && w.message.contains("RESERVE quota of 3")));
    assert!(quotasim::validate(&r.scenario).is_ok());
}
