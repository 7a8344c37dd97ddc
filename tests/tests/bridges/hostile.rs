//! Hostile input to the bridges from the command line: files that are not text, outputs that
//! would overwrite inputs, and (with the engine's importers) numbers and names that would make
//! an invalid scenario.

use quotasim::model::CapacityLimit;
use quotasim_tests::cli::{quotasim, stderr, stdout};
use serde_json::{json, Value};

use super::temp;

const SHARES: &str = r#"{"quotaShares":[{"quotaShareName":"a","capacityLimits":[{"capacityUnit":"ml.p5.48xlarge","maxCapacity":2}],
  "resourceSharingConfiguration":{"strategy":"LEND"}}]}"#;

#[test]
fn a_file_that_is_not_utf8_is_named_and_skipped_and_the_others_imported() {
    let good = temp("utf8-good.json", SHARES);
    let bad = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("quotasim-bridges-{}-latin1.json", std::process::id()));
    let latin1 = b"{\"quotaShares\":[{\"quotaShareName\":\"caf\xe9\"}]}";
    let at = latin1.iter().position(|b| *b == 0xe9).unwrap();
    std::fs::write(&bad, latin1).unwrap();
    let bad = bad.display().to_string();
    for (kind, extra) in [("aws", &[][..]), ("trace", &["--format", "openb"][..]), ("kueue", &[][..])] {
        let mut args = vec!["import", kind];
        args.extend_from_slice(extra);
        args.extend([good.as_str(), bad.as_str()]);
        let o = quotasim(&args);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{kind}: {e}");
        assert!(
            e.contains(&format!("error: {bad}: not UTF-8 text (invalid byte at offset {at}); file skipped")),
            "{kind}: {e}"
        );
        if kind == "aws" {
            // The other file is still imported.
            let s: Value = serde_json::from_slice(&o.stdout).unwrap();
            assert_eq!(s["quotaShares"][0]["quotaShareName"], "a", "{kind}");
        }
    }
    // Every command names the file that is not text.
    let o = quotasim(&["validate", &bad]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).starts_with(&format!("error: {bad}: not UTF-8 text")), "{}", stderr(&o));
}

#[test]
fn observed_may_not_overwrite_an_input() {
    let input = temp("observed-self.json", SHARES);
    let link = format!("{input}.link");
    let _ = std::fs::remove_file(&link);
    std::fs::hard_link(&input, &link).unwrap();
    for out in [
        input.clone(),
        link,
        format!("{}/../{}", std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).display(), {
            let p = std::path::Path::new(&input);
            format!(
                "{}/{}",
                p.parent().unwrap().file_name().unwrap().to_str().unwrap(),
                p.file_name().unwrap().to_str().unwrap()
            )
        }),
    ] {
        let o = quotasim(&["import", "aws", &input, "--observed", &out]);
        assert_eq!(o.status.code(), Some(2), "{out}: {}", stderr(&o));
        assert!(stderr(&o).contains("it would be overwritten"), "{}", stderr(&o));
        assert_eq!(std::fs::read_to_string(&input).unwrap(), SHARES, "the input is untouched");
        assert!(stdout(&o).is_empty());
    }
}

fn errors(p: &[quotasim::Problem]) -> Vec<String> {
    p.iter().filter(|x| x.is_error()).map(|x| format!("{}: {}", x.path, x.message)).collect()
}

/// A job summary with `extra` fields over a valid one.
fn job(id: &str, extra: &str) -> String {
    format!(
        r#"{{"jobId":"{id}","jobName":"{id}","quotaShareName":"a","status":"SUCCEEDED","createdAt":1767225600000,
            "startedAt":1767225600000,"stoppedAt":1767229200000,
            "capacityUsage":[{{"capacityUnit":"ml.p5.48xlarge","quantity":1}}]{extra}}}"#
    )
}

#[test]
fn aws_numbers_out_of_range_skip_their_record_naming_the_field() {
    let cases = [
        (
            r#","capacityUsage":[{"capacityUnit":"ml.p5.48xlarge","quantity":1e300}]"#,
            "capacityUsage[0].quantity",
        ),
        (
            r#","capacityUsage":[{"capacityUnit":"ml.p5.48xlarge","quantity":9223372036854775807}]"#,
            "capacityUsage[0].quantity",
        ),
        (r#","createdAt":-1e300"#, "createdAt"),
        (r#","stoppedAt":"9223372036854775807""#, "stoppedAt"),
        (r#","attempts":[{"startedAt":1767225600000,"stoppedAt":1e19}]"#, "attempts[0].stoppedAt"),
        (r#","schedulingPriority":1e300"#, "schedulingPriority"),
        (
            r#","preemptionSummary":{"preemptedAttemptCount":10000000000}"#,
            "preemptionSummary.preemptedAttemptCount",
        ),
        (
            r#","serviceRequestPayload":{"ResourceConfig":{"InstanceType":"ml.p5.48xlarge","InstanceCount":1e300}}"#,
            "serviceRequestPayload.ResourceConfig.InstanceCount",
        ),
    ];
    for (extra, field) in cases {
        // A later key of the same name wins in serde_json's maps.
        let page = format!(r#"{{"jobSummaryList":[{},{}]}}"#, job("good", ""), job("bad", extra));
        let r =
            quotasim::aws::import(&[("shares.json".into(), SHARES.into()), ("page.json".into(), page)], None)
                .unwrap();
        let e = errors(&r.warnings);
        assert_eq!(e.len(), 1, "{field}: {e:?}");
        assert!(e[0].starts_with(&format!("page.json: jobSummaryList[1]: {field}: ")), "{e:?}");
        assert!(e[0].contains("is not a whole number within ±(2^53 - 1); record skipped"), "{e:?}");
        let names: Vec<&str> = r.scenario.jobs.iter().map(|j| j.job_name.as_str()).collect();
        assert_eq!(names, ["good"], "{field}");
        assert!(quotasim::validate(&r.scenario).is_ok(), "{field}");
        assert_eq!(r.observed.jobs.len(), 1);
        assert_eq!(r.observed.origin_epoch_millis, 1_767_225_600_000, "{field}: the origin is a real time");
    }
    // A share's quota of 1e300 is skipped the same way, and its jobs get a quota of their own.
    let shares = SHARES.replace(r#""maxCapacity":2"#, r#""maxCapacity":1e300"#);
    let page = format!(r#"{{"jobSummaryList":[{}]}}"#, job("j", ""));
    let r =
        quotasim::aws::import(&[("shares.json".into(), shares), ("page.json".into(), page)], None).unwrap();
    assert!(errors(&r.warnings)[0]
        .starts_with("shares.json: quotaShares[0].capacityLimits[0].maxCapacity: 1e+300 is not"));
    assert!(quotasim::validate(&r.scenario).is_ok());
}

#[test]
fn aws_names_are_made_valid_and_unique() {
    let named = |id: &str, name: &str| {
        job(id, "").replacen(
            &format!(r#""jobName":"{id}""#),
            &format!(r#""jobName":{}"#, Value::from(name)),
            1,
        )
    };
    let page = format!(
        r#"{{"jobSummaryList":[{},{},{},{},{}]}}"#,
        named("1", "same"),
        named("2", "same"),
        named("3", "same-2"),
        named("4", "evil name\u{1b}[2J"),
        named("id/../5", "\u{7}"),
    );
    let r = quotasim::aws::import(&[("shares.json".into(), SHARES.into()), ("page.json".into(), page)], None)
        .unwrap();
    let names: Vec<&str> = r.scenario.jobs.iter().map(|j| j.job_name.as_str()).collect();
    assert_eq!(names, ["same", "same-3", "same-2", "4", "id----5"]);
    assert!(quotasim::validate(&r.scenario).is_ok());
    let observed: Vec<&str> = r.observed.jobs.iter().map(|j| j.job_name.as_str()).collect();
    assert_eq!(observed, names, "observed jobs carry the same names");
    assert!(
        r.warnings.iter().any(|w| w.path == "page.json: jobSummaryList[1]: jobName"
            && w.message == "\"same\" is taken by another job: named same-3"),
        "{:?}",
        r.warnings
    );
    // A share record with a name AWS would refuse is skipped, naming it, with its jobs.
    let shares = SHARES.replace(r#""quotaShareName":"a""#, r#""quotaShareName":"team a""#);
    let page = format!(
        r#"{{"jobSummaryList":[{}]}}"#,
        job("j", "").replace(r#""quotaShareName":"a""#, r#""quotaShareName":"team a""#)
    );
    let r = quotasim::aws::import(&[("shares.json".into(), shares), ("page.json".into(), page)], None);
    let p = r.expect_err("nothing valid is left");
    let e = errors(&p);
    assert!(
        e.iter()
            .any(|x| x.starts_with("shares.json: quotaShares[0]: quotaShareName: quotaShareName must be")),
        "{e:?}"
    );
    assert!(
        e.iter().any(|x| x == "quotaShares.team a: 1 jobs of quota share team a skipped with it"),
        "{e:?}"
    );
}

#[test]
fn aws_import_exits_1_and_prints_only_valid_scenarios_with_bounded_warnings() {
    // 3 MB of lines that are not JSON, and a job page: twenty problems and a count, not a
    // hundred thousand.
    let junk = "x".repeat(30) + "\n";
    let bad = temp("junk.jsonl", &junk.repeat(100_000));
    let page = temp(
        "hostile-page.json",
        &format!(r#"{{"jobSummaryList":[{},{}]}}"#, job("ok", ""), job("big", r#","createdAt":-1e300"#)),
    );
    let shares = temp("hostile-shares.json", SHARES);
    let o = quotasim(&["import", "aws", &shares, &page, &bad]);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(e.lines().count() < 40, "{} lines of standard error", e.lines().count());
    assert!(
        e.contains(&format!(
            "error: {bad}: 99980 more lines that are not JSON are not listed (the first 20 are)"
        )),
        "{e}"
    );
    let printed = temp("hostile-printed.json", &stdout(&o));
    let v = quotasim(&["validate", &printed]);
    assert_eq!(v.status.code(), Some(0), "the printed scenario is valid: {}", stderr(&v));
}

#[test]
fn trace_names_are_unique_and_numbers_bounded() {
    let log = "name,gpus,submit,duration,prio\n\
               same,1,0,60,0\n\
               same,1,1,60,0\n\
               same-3,1,2,60,0\n\
               huge,1e300,3,60,0\n\
               high,1,4,60,99999\n\
               ok,8,5,60,1\n";
    let o = quotasim::trace::TraceOptions {
        columns: quotasim::trace::Columns::parse(
            "name=name,gpus=gpus,submit=submit,duration=duration,priority=prio",
        )
        .unwrap(),
        ..Default::default()
    };
    let r = quotasim::trace::import(&[("log.csv".into(), log.into())], &o).unwrap();
    let names: Vec<&str> = r.scenario.jobs.iter().map(|j| j.job_name.as_str()).collect();
    assert_eq!(names, ["same", "same-3", "same-3-4", "ok"]);
    let e = errors(&r.warnings);
    assert!(
        e.iter()
            .any(|x| x.starts_with("log.csv:5: gpus: \"1e300\" is not a number of GPUs from 0 to 2^53 - 1")),
        "{e:?}"
    );
    assert!(
        e.iter().any(|x| x
            .starts_with("log.csv:6: schedulingPriority: schedulingPriority must be between 0 and 9999")
            && x.ends_with("job high skipped")),
        "{e:?}"
    );
    assert!(quotasim::validate(&r.scenario).is_ok());
    // More than twenty teams: the shares past AWS's limit are skipped with their jobs.
    let mut many = String::from("team,gpus,submit,duration\n");
    for t in 0..25 {
        many.push_str(&format!("t{t},1,{t},60\n"));
    }
    let o = quotasim::trace::TraceOptions {
        columns: quotasim::trace::Columns::parse("team=team,gpus=gpus,submit=submit,duration=duration")
            .unwrap(),
        ..Default::default()
    };
    let r = quotasim::trace::import(&[("teams.csv".into(), many)], &o);
    let r = r.unwrap_or_else(|p| {
        panic!("{:#?}", p.iter().filter(|x| !x.message.contains("more than 20")).collect::<Vec<_>>())
    });
    assert_eq!(r.scenario.quota_shares.len(), 20);
    assert!(quotasim::validate(&r.scenario).is_ok());
    assert!(
        errors(&r.warnings)
            .iter()
            .any(|x| x.starts_with("teams.csv:22: team: quotaShareName: more than 20 quota shares")),
        "{:?}",
        r.warnings
    );
}

fn kueue_docs(text: &str) -> Vec<quotasim::kueue::Document> {
    let (docs, p) = quotasim::yaml::documents("q.yaml", text);
    assert!(p.is_empty(), "{p:?}");
    docs
}

#[test]
fn kueue_import_names_and_quantities_give_a_valid_scenario() {
    let queue = |name: &str, quota: &str| {
        format!(
            "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {{ name: {name:?} }}\nspec:\n  cohortName: org\n  resourceGroups: [ {{ coveredResources: [nvidia.com/gpu], flavors: [ {{ name: p5, resources: [ {{ name: nvidia.com/gpu, nominalQuota: {quota} }} ] }} ] }} ]\n"
        )
    };
    let flavor = "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: { name: p5 }\nspec: { nodeLabels: { node.kubernetes.io/instance-type: ml.p5.48xlarge, nvidia.com/gpu.count: \"8\" } }\n";
    let text =
        [flavor.to_string(), queue("team.a", "16"), queue("team-a", "8"), queue("Team_A", "8")].join("---\n");
    let r = quotasim::kueue::import(&kueue_docs(&text), None).unwrap();
    let names: Vec<&str> = r.scenario.quota_shares.iter().map(|q| q.quota_share_name.as_str()).collect();
    assert_eq!(names, ["team-a-2", "team-a", "Team_A"]);
    assert!(quotasim::validate(&r.scenario).is_ok());
    assert!(
        r.warnings.iter().any(|w| w.path == "q.yaml document 2: metadata.name"
            && w.message == "\"team.a\" is not a quota share name: the share is named team-a-2"),
        "{:?}",
        r.warnings
    );
    // Quantities past 2^53 - 1 are errors naming the field, never a saturated quota.
    for quota in ["1e300", "\"9223372036854775807\""] {
        let text = [flavor.to_string(), queue("a", quota)].join("---\n");
        let p = quotasim::kueue::import(&kueue_docs(&text), None).expect_err(quota);
        assert!(
            p.iter().any(|x| x.path
                == "q.yaml document 2: spec.resourceGroups[0].flavors[0].resources[0].nominalQuota"
                && x.message == "a quantity from 0 to 2^53 - 1 GPUs is needed"),
            "{quota}: {p:?}"
        );
    }
    // A capacity annotation of 2^63 - 1 instances too.
    let cohort = "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Cohort\nmetadata: { name: org, annotations: { quotasim.dev/service-environment-capacity: '{\"ml.p5.48xlarge\": 9223372036854775807}' } }\n";
    let text = [flavor.to_string(), queue("a", "16"), cohort.to_string()].join("---\n");
    let p = quotasim::kueue::import(&kueue_docs(&text), None).expect_err("2^63 - 1 instances");
    assert!(
        p.iter().any(|x| x.message == "a whole number of instances from 0 to 2^53 - 1 is needed"),
        "{p:?}"
    );
}

#[test]
fn kueue_aliased_flavors_are_read_once_each_in_linear_time() {
    use quotasim::kueue::{import, Document};
    let flavor = |name: &str, ty: &str| Document {
        file: "q.yaml".into(),
        index: 0,
        value: json!({"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ResourceFlavor", "metadata": {"name": name},
            "spec": {"nodeLabels": {"node.kubernetes.io/instance-type": ty, "nvidia.com/gpu.count": "8"}}}),
    };
    let queue = |index: usize, flavors: Vec<Value>| Document {
        file: "q.yaml".into(),
        index,
        value: json!({"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ClusterQueue", "metadata": {"name": "q"},
            "spec": {"cohortName": "org", "resourceGroups": [{"flavors": flavors}]}}),
    };
    let entry =
        |name: &str| json!({"name": name, "resources": [{"name": "nvidia.com/gpu", "nominalQuota": 16}]});
    // A YAML alias repeated 200,000 times (what a 3.6 MB file expands to): the flavor counts
    // once, and the repeats are twenty warnings and a count, not 200,000 capacity limits.
    let docs = [flavor("p5", "ml.p5.48xlarge"), queue(1, vec![entry("p5"); 200_000])];
    let r = import(&docs, None).unwrap();
    assert_eq!(r.scenario.quota_shares[0].capacity_limits, [CapacityLimit::new("ml.p5.48xlarge", 2)]);
    assert!(r.warnings.len() < 30, "{} warnings", r.warnings.len());
    assert!(
        r.warnings.iter().any(|w| w.path == "q.yaml document 2: spec.resourceGroups[0].flavors[1].name"
            && w.message == "flavor p5 is listed again: a ClusterQueue takes each flavor once; ignored"),
        "{:?}",
        r.warnings
    );
    assert!(
        r.warnings.iter().any(|w| w.message == "199979 more warnings are not listed (the first 20 are)"),
        "{:?}",
        r.warnings
    );
    // Two flavors of one instance type add up into its one limit.
    let docs = [
        flavor("p5", "ml.p5.48xlarge"),
        flavor("p5-spot", "ml.p5.48xlarge"),
        queue(2, vec![entry("p5"), entry("p5-spot")]),
    ];
    let r = import(&docs, None).unwrap();
    assert_eq!(r.scenario.quota_shares[0].capacity_limits, [CapacityLimit::new("ml.p5.48xlarge", 4)]);
    assert!(quotasim::validate(&r.scenario).is_ok());
    // 30,000 flavors of as many instance types: refused by the five-limit rule, naming the
    // document, after one pass over them (validation scanned every earlier limit per limit).
    let mut docs: Vec<Document> =
        (0..30_000).map(|i| flavor(&format!("f{i}"), &format!("ml.t{i}"))).collect();
    docs.push(queue(30_000, (0..30_000).map(|i| entry(&format!("f{i}"))).collect()));
    let p = import(&docs, None).expect_err("more than five limits");
    assert!(
        p.iter().any(|x| x.path == "q.yaml document 30001: capacityLimits"
            && x.message.starts_with("a quota share takes at most 5 capacity limits, not 30000")),
        "{p:?}"
    );
    // No timing is asserted: at these sizes the quadratic passes ran for minutes, so a
    // regression shows as a suite that runs past its limit.
}

#[test]
fn kueue_export_names_are_valid_unique_and_give_back_the_shares() {
    let text = r#"{"formatVersion":1,
      "instanceTypes":[{"name":"ml.g5.xlarge","gpus":1},{"name":"ML.G5.XLARGE","gpus":1}],
      "serviceEnvironment":{"serviceEnvironmentName":"Training_SE","capacityLimits":[{"capacityUnit":"ml.g5.xlarge","maxCapacity":8},{"capacityUnit":"ML.G5.XLARGE","maxCapacity":8}]},
      "quotaShares":[
        {"quotaShareName":"team_a","capacityLimits":[{"capacityUnit":"ml.g5.xlarge","maxCapacity":2}],"resourceSharingConfiguration":{"strategy":"LEND"}},
        {"quotaShareName":"team-a","capacityLimits":[{"capacityUnit":"ML.G5.XLARGE","maxCapacity":3}],"resourceSharingConfiguration":{"strategy":"RESERVE"}},
        {"quotaShareName":"_lead","capacityLimits":[{"capacityUnit":"ml.g5.xlarge","maxCapacity":4}],"resourceSharingConfiguration":{"strategy":"LEND_AND_BORROW","borrowLimit":50}}]}"#;
    let s = quotasim::json::parse_scenario(text).unwrap();
    assert!(quotasim::validate(&s).is_ok());
    let (docs, _) = quotasim::kueue::export(&s);
    let mut seen = std::collections::BTreeSet::new();
    for d in &docs {
        let name = d["metadata"]["name"].as_str().unwrap();
        assert!(quotasim::kueue::is_k8s_name(name), "{name}");
        assert!(seen.insert((d["kind"].as_str().unwrap().to_string(), name.to_string())), "{name} twice");
    }
    let queues: Vec<&str> = docs
        .iter()
        .filter(|d| d["kind"] == "ClusterQueue")
        .map(|d| d["metadata"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(queues[1], "team-a", "a name that is a Kubernetes name is kept");
    assert!(queues[0].starts_with("team-a-") && queues[0].len() == "team-a-".len() + 8, "{queues:?}");
    assert_eq!(queues[2], "lead");
    // The same suffix whatever the order of the shares.
    let mut reversed = s.clone();
    reversed.quota_shares.reverse();
    let (rdocs, _) = quotasim::kueue::export(&reversed);
    let rq: Vec<&str> = rdocs
        .iter()
        .filter(|d| d["kind"] == "ClusterQueue")
        .map(|d| d["metadata"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(rq, [queues[2], queues[1], queues[0]]);
    // The re-import gives back the shares, by name, with their quotas.
    let yaml = quotasim::yaml::to_yaml_documents(&docs);
    let back = quotasim::kueue::import(&kueue_docs(&yaml), None).unwrap().scenario;
    let shares = |s: &quotasim::model::Scenario| -> Vec<(String, String, i64)> {
        s.quota_shares
            .iter()
            .map(|q| {
                (
                    q.quota_share_name.clone(),
                    q.capacity_limits[0].capacity_unit.clone(),
                    q.capacity_limits[0].max_capacity,
                )
            })
            .collect()
    };
    assert_eq!(shares(&back), shares(&s));
    assert!(quotasim::validate(&back).is_ok());
}

#[test]
fn eventbridge_times_stay_within_2_53() {
    let nb = quotasim_tests::cli::fixture("notebook.json").display().to_string();
    for origin in ["9223372036854775807", "-9223372036854775808", "9007199254740000"] {
        let o = quotasim(&["run", &nb, "--events-format", "eventbridge", &format!("--origin={origin}")]);
        assert_eq!(o.status.code(), Some(2), "{origin}: {}", stderr(&o));
        assert!(stdout(&o).is_empty());
        assert!(stderr(&o).contains("2^53 - 1"), "{}", stderr(&o));
    }
}

#[test]
fn calibrate_refuses_observed_numbers_past_2_53_and_is_linear() {
    use quotasim::aws::{Observed, ObservedJob};
    let job = |k: usize| ObservedJob {
        job_name: format!("job-{k:07}"),
        quota_share_name: "a".into(),
        status: None,
        submit_at: 0,
        first_started_at: Some(10),
        stopped_at: None,
        preemptions: 0,
        instance_seconds: 10,
    };
    let mut bad = Observed { format_version: 1, origin_epoch_millis: 0, jobs: vec![job(0)] };
    bad.jobs[0].instance_seconds = 1 << 60;
    let e = quotasim::calibrate::check_observed(&bad).unwrap_err();
    assert_eq!(e[0].path, "jobs[0].instanceSeconds");
    // 300,000 jobs observed and none simulated: each is looked up once (it took a scan of every
    // simulated name per observed job, quadratic).
    let run = quotasim::SimResult {
        format_version: 1,
        ended_at: 0,
        jobs: Vec::new(),
        events: Vec::new(),
        summary: Default::default(),
    };
    let mut sim_jobs = Vec::new();
    let observed =
        Observed { format_version: 1, origin_epoch_millis: 0, jobs: (0..300_000).map(job).collect() };
    let mut with_jobs = run.clone();
    for o in &observed.jobs {
        sim_jobs.push(quotasim::JobResult {
            job_name: format!("{}-other", o.job_name),
            quota_share_name: "a".into(),
            status: None,
            status_reason: None,
            scheduling_priority: 0,
            submit_at: 0,
            first_started_at: None,
            stopped_at: None,
            preemption_summary: quotasim::result::PreemptionSummary {
                preempted_attempt_count: 0,
                recent_preempted_attempts: Vec::new(),
            },
            attempts: Vec::new(),
            lost_work_seconds: 0,
            runnable_seconds_by_cause: Default::default(),
        });
    }
    with_jobs.jobs = sim_jobs;
    let c = quotasim::calibrate::calibrate(&with_jobs, &observed, &Default::default()).unwrap();
    assert_eq!(c.unmatched.len(), 600_000);
    // No timing is asserted: the quadratic scan ran for hours at this size, so a regression
    // shows as a suite that runs past its limit (calibrate at 100,000 jobs: 230 s before,
    // 1.7 s after, release build).
}
