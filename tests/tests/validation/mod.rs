//! Semantics spec section 8 and the format spec: every problem with its path, all at once,
//! never a panic.

use quotasim::json::{load_scenario, parse_scenario};
use quotasim::{validate, Problem};
use quotasim_tests::*;
use serde_json::{json, Value};

/// A small valid scenario as JSON.
fn base() -> Value {
    json!({
        "formatVersion": 1,
        "serviceEnvironment": { "capacityLimits": [ { "capacityUnit": G5, "maxCapacity": 4 } ] },
        "quotaShares": [
            { "quotaShareName": "qs1",
              "capacityLimits": [ { "capacityUnit": G5, "maxCapacity": 2 } ],
              "resourceSharingConfiguration": { "strategy": "LEND_AND_BORROW", "borrowLimit": 100 } },
            { "quotaShareName": "qs2",
              "capacityLimits": [ { "capacityUnit": G5, "maxCapacity": 2 } ],
              "resourceSharingConfiguration": { "strategy": "LEND" } }
        ],
        "jobs": [
            { "jobName": "j1", "quotaShareName": "qs1", "instanceType": G5, "instanceCount": 1,
              "submitAt": 0, "durationSeconds": 100 },
            { "jobName": "j2", "quotaShareName": "qs2", "instanceType": G5, "instanceCount": 1,
              "submitAt": 0, "durationSeconds": 100 }
        ],
        "actions": [ { "at": 10, "updateServiceJob": { "jobName": "j1", "schedulingPriority": 3 } } ]
    })
}

/// `base()` with the value at a JSON pointer replaced (or added, for an object member).
fn with(mut v: Value, pointer: &str, new: Value) -> Value {
    let (parent, key) = pointer.rsplit_once('/').expect("pointer");
    let p = v.pointer_mut(parent).unwrap_or_else(|| panic!("no {parent}"));
    match p {
        Value::Object(m) => {
            m.insert(key.to_string(), new);
        }
        Value::Array(a) => a[key.parse::<usize>().unwrap()] = new,
        _ => panic!("not a container: {parent}"),
    }
    v
}

fn load(v: &Value) -> Result<quotasim::ValidScenario, Vec<Problem>> {
    load_scenario(&v.to_string())
}

fn errors(v: &Value) -> Vec<Problem> {
    match load(v) {
        Ok(s) => panic!("expected errors, got a valid scenario with warnings {:?}", s.warnings),
        Err(p) => p.into_iter().filter(|p| p.is_error()).collect(),
    }
}

fn error_paths(v: &Value) -> Vec<String> {
    errors(v).into_iter().map(|p| p.path).collect()
}

#[track_caller]
fn assert_error_at(v: &Value, path: &str) {
    let e = errors(v);
    assert!(e.iter().any(|p| p.path == path), "expected an error at {path}, got {e:#?}");
    assert!(e.iter().all(|p| !p.message.is_empty()));
}

#[track_caller]
fn assert_valid(v: &Value) {
    if let Err(p) = load(v) {
        panic!("expected valid, got {p:#?}");
    }
}

fn share_json(i: usize) -> Value {
    json!({ "quotaShareName": format!("s{i}"),
            "capacityLimits": [ { "capacityUnit": G5, "maxCapacity": 1 } ],
            "resourceSharingConfiguration": { "strategy": "LEND" } })
}

#[test]
fn base_scenario_is_valid() {
    assert_valid(&base());
}

// ----- section 8 limits --------------------------------------------------------------------

#[test]
fn limit_at_most_20_quota_shares() {
    let shares = |n: usize| Value::Array((0..n).map(share_json).collect());
    let mk = |n| with(with(base(), "/quotaShares", shares(n)), "/jobs", json!([]));
    assert_valid(&with(mk(20), "/actions", json!([])));
    assert_error_at(&with(mk(21), "/actions", json!([])), "quotaShares");
}

#[test]
fn limit_at_least_one_quota_share() {
    let v = with(with(with(base(), "/quotaShares", json!([])), "/jobs", json!([])), "/actions", json!([]));
    assert_error_at(&v, "quotaShares");
}

#[test]
fn limit_one_to_five_capacity_limits_per_share() {
    let types = [
        "ml.g5.xlarge",
        "ml.g5.2xlarge",
        "ml.g5.12xlarge",
        "ml.g5.48xlarge",
        "ml.p5.48xlarge",
        "ml.p4d.24xlarge",
    ];
    let limits = |n: usize| {
        Value::Array(types[..n].iter().map(|t| json!({"capacityUnit": t, "maxCapacity": 1})).collect())
    };
    assert_valid(&with(base(), "/quotaShares/1/capacityLimits", limits(5)));
    assert_error_at(
        &with(base(), "/quotaShares/1/capacityLimits", limits(6)),
        "quotaShares[1].capacityLimits",
    );
    assert_error_at(
        &with(base(), "/quotaShares/1/capacityLimits", limits(0)),
        "quotaShares[1].capacityLimits",
    );
}

#[test]
fn limit_priority_0_to_9999() {
    for ok in [0, 1, 9999] {
        assert_valid(&with(base(), "/jobs/0/schedulingPriority", json!(ok)));
    }
    for bad in [-1, 10000, 1_000_000] {
        assert_error_at(
            &with(base(), "/jobs/0/schedulingPriority", json!(bad)),
            "jobs[0].schedulingPriority",
        );
    }
    assert_error_at(
        &with(base(), "/actions/0/updateServiceJob/schedulingPriority", json!(10000)),
        "actions[0].updateServiceJob.schedulingPriority",
    );
}

#[test]
fn limit_names_up_to_128_characters_of_letters_digits_dash_underscore() {
    let long = "a".repeat(128);
    let too_long = "a".repeat(129);
    assert_valid(&with(base(), "/jobs/1/jobName", json!(long)));
    assert_valid(&with(base(), "/jobs/1/jobName", json!("Az09-_")));
    for bad in [too_long.as_str(), "", "has space", "dot.name", "ünïcode", "slash/x"] {
        assert_error_at(&with(base(), "/jobs/1/jobName", json!(bad)), "jobs[1].jobName");
    }
    // A share name: rename qs2 and every reference to it.
    let rename = |name: &str| {
        let v = with(base(), "/quotaShares/1/quotaShareName", json!(name));
        with(v, "/jobs/1/quotaShareName", json!(name))
    };
    assert_valid(&rename(&long));
    assert_error_at(&rename(&too_long), "quotaShares[1].quotaShareName");
    assert_error_at(&rename("bad name"), "quotaShares[1].quotaShareName");
}

#[test]
fn limit_borrow_limit_at_least_minus_one_and_only_with_lend_and_borrow() {
    for ok in [-1, 0, 50, 1000] {
        assert_valid(&with(base(), "/quotaShares/0/resourceSharingConfiguration/borrowLimit", json!(ok)));
    }
    assert_error_at(
        &with(base(), "/quotaShares/0/resourceSharingConfiguration/borrowLimit", json!(-2)),
        "quotaShares[0].resourceSharingConfiguration.borrowLimit",
    );
    for strategy in ["LEND", "RESERVE"] {
        let v = with(
            base(),
            "/quotaShares/1/resourceSharingConfiguration",
            json!({"strategy": strategy, "borrowLimit": 10}),
        );
        assert_error_at(&v, "quotaShares[1].resourceSharingConfiguration.borrowLimit");
        // -1 is still "given".
        let v = with(
            base(),
            "/quotaShares/1/resourceSharingConfiguration",
            json!({"strategy": strategy, "borrowLimit": -1}),
        );
        assert_error_at(&v, "quotaShares[1].resourceSharingConfiguration.borrowLimit");
    }
    // In an update too.
    let v = with(
        base(),
        "/actions/0",
        json!({"at": 5, "updateQuotaShare": {"quotaShareName": "qs2",
               "resourceSharingConfiguration": {"strategy": "LEND", "borrowLimit": 5}}}),
    );
    assert_error_at(&v, "actions[0].updateQuotaShare.resourceSharingConfiguration.borrowLimit");
}

#[test]
fn limit_share_max_capacity_at_least_one() {
    assert_error_at(
        &with(base(), "/quotaShares/1/capacityLimits/0/maxCapacity", json!(0)),
        "quotaShares[1].capacityLimits[0].maxCapacity",
    );
    assert_error_at(
        &with(base(), "/quotaShares/1/capacityLimits/0/maxCapacity", json!(-3)),
        "quotaShares[1].capacityLimits[0].maxCapacity",
    );
    let v = with(
        base(),
        "/actions/0",
        json!({"at": 5, "updateQuotaShare": {"quotaShareName": "qs2",
               "capacityLimits": [{"capacityUnit": G5, "maxCapacity": 0}]}}),
    );
    assert_error_at(&v, "actions[0].updateQuotaShare.capacityLimits[0].maxCapacity");
}

#[test]
fn limit_preemption_retries_at_least_zero() {
    let p = "/jobs/0/preemptionConfiguration";
    assert_valid(&with(base(), p, json!({"preemptionRetriesBeforeTermination": 0})));
    assert_error_at(
        &with(base(), p, json!({"preemptionRetriesBeforeTermination": -1})),
        "jobs[0].preemptionConfiguration.preemptionRetriesBeforeTermination",
    );
}

#[test]
fn limit_times_at_most_2_pow_53_minus_1() {
    let max = (1i64 << 53) - 1;
    assert_valid(&with(base(), "/jobs/0/submitAt", json!(max - 1_000_000)));
    // A single attempt must also end, grace period included, by 2^53 - 1.
    assert_error_at(&with(base(), "/jobs/0/submitAt", json!(max)), "jobs[0].durationSeconds");
    assert_error_at(&with(base(), "/jobs/0/submitAt", json!(max + 1)), "jobs[0].submitAt");
    assert_error_at(&with(base(), "/jobs/0/durationSeconds", json!(max + 1)), "jobs[0].durationSeconds");
    assert_error_at(&with(base(), "/actions/0/at", json!(max + 1)), "actions[0].at");
    assert_error_at(
        &with(base(), "/settings", json!({"preemptionGraceSeconds": max + 1})),
        "settings.preemptionGraceSeconds",
    );
}

#[test]
fn negative_numbers_are_reported_with_their_path() {
    let cases: &[(&str, Value, &str)] = &[
        ("/jobs/0/submitAt", json!(-1), "jobs[0].submitAt"),
        ("/jobs/0/durationSeconds", json!(-5), "jobs[0].durationSeconds"),
        ("/jobs/0/instanceCount", json!(0), "jobs[0].instanceCount"),
        ("/jobs/0/instanceCount", json!(-2), "jobs[0].instanceCount"),
        ("/jobs/0/checkpointIntervalSeconds", json!(-1), "jobs[0].checkpointIntervalSeconds"),
        ("/jobs/0/timeoutSeconds", json!(-1), "jobs[0].timeoutSeconds"),
        ("/actions/0/at", json!(-1), "actions[0].at"),
        (
            "/serviceEnvironment/capacityLimits/0/maxCapacity",
            json!(-1),
            "serviceEnvironment.capacityLimits[0].maxCapacity",
        ),
        ("/settings", json!({"preemptionGraceSeconds": -1}), "settings.preemptionGraceSeconds"),
        ("/settings", json!({"scheduledSeconds": -1}), "settings.scheduledSeconds"),
        ("/settings", json!({"startingSeconds": -1}), "settings.startingSeconds"),
        ("/settings", json!({"checkpointSaveSeconds": -1}), "settings.checkpointSaveSeconds"),
        ("/settings", json!({"horizonSeconds": -1}), "settings.horizonSeconds"),
    ];
    for (ptr, val, path) in cases {
        assert_error_at(&with(base(), ptr, val.clone()), path);
    }
}

#[test]
fn numbers_too_large_for_the_parser_are_an_error_not_a_panic() {
    let text = base().to_string().replace("\"submitAt\":0", "\"submitAt\":123456789012345678901234567890");
    assert_ne!(text, base().to_string());
    let e = load_scenario(&text).expect_err("too large");
    assert!(e[0].path.starts_with("jobs[0]"), "{e:?}");
    let text = base().to_string().replace("\"submitAt\":0", "\"submitAt\":1.5");
    let e = load_scenario(&text).expect_err("not whole");
    assert!(e[0].path.starts_with("jobs[0]"), "{e:?}");
}

#[test]
fn duplicate_names() {
    assert_error_at(
        &with(base(), "/quotaShares/1/quotaShareName", json!("qs1")),
        "quotaShares[1].quotaShareName",
    );
    assert_error_at(&with(base(), "/jobs/1/jobName", json!("j1")), "jobs[1].jobName");
    assert_error_at(
        &with(
            base(),
            "/quotaShares/1/capacityLimits",
            json!([{"capacityUnit": G5, "maxCapacity": 1}, {"capacityUnit": G5, "maxCapacity": 2}]),
        ),
        "quotaShares[1].capacityLimits[1].capacityUnit",
    );
    assert_error_at(
        &with(
            base(),
            "/serviceEnvironment/capacityLimits",
            json!([{"capacityUnit": G5, "maxCapacity": 1}, {"capacityUnit": G5, "maxCapacity": 2}]),
        ),
        "serviceEnvironment.capacityLimits[1].capacityUnit",
    );
}

#[test]
fn names_that_do_not_resolve() {
    assert_error_at(&with(base(), "/jobs/1/quotaShareName", json!("nope")), "jobs[1].quotaShareName");
    assert_error_at(
        &with(base(), "/actions/0/updateServiceJob/jobName", json!("nope")),
        "actions[0].updateServiceJob.jobName",
    );
    assert_error_at(
        &with(
            base(),
            "/actions/0",
            json!({"at": 1, "terminateServiceJob": {"jobName": "nope", "reason": "x"}}),
        ),
        "actions[0].terminateServiceJob.jobName",
    );
    assert_error_at(
        &with(
            base(),
            "/actions/0",
            json!({"at": 1, "updateQuotaShare": {"quotaShareName": "nope", "state": "DISABLED"}}),
        ),
        "actions[0].updateQuotaShare.quotaShareName",
    );
}

#[test]
fn format_version_must_be_one() {
    assert_error_at(&with(base(), "/formatVersion", json!(2)), "formatVersion");
}

#[test]
fn scheduling_policy_fifo_only() {
    let sp = |s: &str| json!({"name": "p", "quotaSharePolicy": {"idleResourceAssignmentStrategy": s}});
    assert_valid(&with(base(), "/schedulingPolicy", sp("FIFO")));
    assert_error_at(
        &with(base(), "/schedulingPolicy", sp("FAIRSHARE")),
        "schedulingPolicy.quotaSharePolicy.idleResourceAssignmentStrategy",
    );
}

#[test]
fn all_problems_are_reported_at_once() {
    let mut v = base();
    v = with(v, "/jobs/0/schedulingPriority", json!(-4));
    v = with(v, "/jobs/1/quotaShareName", json!("nope"));
    v = with(v, "/quotaShares/1/capacityLimits/0/maxCapacity", json!(0));
    v = with(v, "/quotaShares/0/resourceSharingConfiguration/borrowLimit", json!(-7));
    v = with(v, "/actions/0/updateServiceJob/jobName", json!("ghost"));
    v = with(v, "/jobs/0/durationSeconds", json!(-1));
    let paths = error_paths(&v);
    for p in [
        "jobs[0].schedulingPriority",
        "jobs[1].quotaShareName",
        "quotaShares[1].capacityLimits[0].maxCapacity",
        "quotaShares[0].resourceSharingConfiguration.borrowLimit",
        "actions[0].updateServiceJob.jobName",
        "jobs[0].durationSeconds",
    ] {
        assert!(paths.iter().any(|x| x == p), "missing {p} in {paths:?}");
    }
}

#[test]
fn validate_on_a_built_scenario_reports_paths_too() {
    let s = Sc::new()
        .capacity(G5, 1)
        .share(lend("A", G5, 1).borrow_limit(10))
        .job(job("x", "A").prio(10_000))
        .job(job("x", "B"))
        .build();
    let e = validate(&s).expect_err("invalid");
    let paths: Vec<&str> = e.iter().filter(|p| p.is_error()).map(|p| p.path.as_str()).collect();
    for p in [
        "quotaShares[0].resourceSharingConfiguration.borrowLimit",
        "jobs[0].schedulingPriority",
        "jobs[1].jobName",
        "jobs[1].quotaShareName",
    ] {
        assert!(paths.contains(&p), "missing {p} in {paths:?}");
    }
}

#[test]
fn warnings_alone_do_not_invalidate() {
    // Oversubscribed (R3) and unowned capacity (R13) are warnings.
    let v = with(base(), "/serviceEnvironment/capacityLimits/0/maxCapacity", json!(3));
    let s = load(&v).expect("valid");
    assert!(!s.warnings.is_empty());
    assert!(s.warnings.iter().all(|p| !p.is_error()));
    let v = with(base(), "/serviceEnvironment/capacityLimits/0/maxCapacity", json!(10));
    let s = load(&v).expect("valid");
    assert!(s.warnings.iter().any(|p| p.path.starts_with("serviceEnvironment.capacityLimits[0]")));
}

// ----- bad inputs ----------------------------------------------------------------------------

#[test]
fn malformed_json_is_one_problem() {
    for text in ["", "{", "{\"formatVersion\": 1,", "[1, 2]", "null", "42", "{\"a\" 1}", "\u{0}", "{}}"] {
        let e = load_scenario(text).expect_err(text);
        assert_eq!(e.len(), 1, "{text:?}: {e:?}");
        assert!(e[0].is_error());
        assert!(!e[0].message.is_empty());
    }
}

#[test]
fn missing_required_fields() {
    let mut v = base();
    v.as_object_mut().unwrap().remove("serviceEnvironment");
    assert!(load(&v).is_err());
    let mut v = base();
    v["jobs"][0].as_object_mut().unwrap().remove("durationSeconds");
    let e = load(&v).expect_err("missing durationSeconds");
    assert!(e[0].path.starts_with("jobs[0]"), "{e:?}");
    assert!(e[0].message.contains("durationSeconds"), "{e:?}");
}

#[test]
fn wrong_types_have_their_path() {
    let cases: &[(&str, Value, &str)] = &[
        ("/jobs/0/submitAt", json!("10"), "jobs[0].submitAt"),
        ("/jobs/1/instanceCount", json!(true), "jobs[1].instanceCount"),
        (
            "/quotaShares/0/resourceSharingConfiguration/strategy",
            json!("SHARE"),
            "quotaShares[0].resourceSharingConfiguration.strategy",
        ),
        ("/quotaShares/1/state", json!("ON"), "quotaShares[1].state"),
        (
            "/quotaShares/1/preemptionConfiguration",
            json!({"inSharePreemption": "YES"}),
            "quotaShares[1].preemptionConfiguration.inSharePreemption",
        ),
        ("/settings", json!({"victimOrder": "random"}), "settings.victimOrder"),
        ("/settings", json!({"backfill": "yes"}), "settings.backfill"),
        ("/jobs", json!({}), "jobs"),
        (
            "/serviceEnvironment/capacityLimits/0/maxCapacity",
            json!(null),
            "serviceEnvironment.capacityLimits[0].maxCapacity",
        ),
    ];
    for (ptr, val, path) in cases {
        let e = load(&with(base(), ptr, val.clone())).expect_err(path);
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].path, *path, "{e:?}");
    }
}

#[test]
fn unknown_fields_are_rejected_with_their_path() {
    let cases: &[(&str, &str)] = &[
        ("/quotaShares/0/capacityLimit", "quotaShares[0].capacityLimit"),
        ("/jobs/1/priority", "jobs[1].priority"),
        ("/settings", "settings.graceSeconds"),
        ("/bogus", "bogus"),
        ("/serviceEnvironment/capacityLimits/0/max", "serviceEnvironment.capacityLimits[0].max"),
    ];
    for (ptr, path) in cases {
        let v = if *ptr == "/settings" {
            with(base(), ptr, json!({"graceSeconds": 1}))
        } else {
            with(base(), ptr, json!(1))
        };
        let e = load(&v).expect_err(path);
        assert_eq!(e.len(), 1);
        let field = path.rsplit('.').next().unwrap();
        assert!(e[0].message.contains(field), "the message names the field: {e:?}");
        assert_eq!(e[0].path, *path, "{e:?}");
    }
}

#[test]
fn aws_fields_are_accepted_and_ignored() {
    let mut v = base();
    v["quotaShares"][0]["quotaShareArn"] = json!("arn:aws:batch:...");
    v["quotaShares"][0]["jobQueue"] = json!("q");
    v["quotaShares"][0]["tags"] = json!({"team": "a"});
    v["quotaShares"][0]["status"] = json!("VALID");
    v["serviceEnvironment"]["serviceEnvironmentArn"] = json!("arn");
    v["serviceEnvironment"]["serviceEnvironmentType"] = json!("SAGEMAKER_TRAINING");
    v["jobs"][0]["jobArn"] = json!("arn");
    v["jobs"][0]["jobId"] = json!("id");
    v["jobs"][0]["status"] = json!("RUNNING");
    v["jobs"][0]["retryStrategy"] = json!({"attempts": 1});
    v["jobs"][0]["shareIdentifier"] = json!("x");
    v["jobs"][0]["createdAt"] = json!(123);
    v["jobs"][0]["clientToken"] = json!("t");
    v["jobs"][0]["serviceJobType"] = json!("SAGEMAKER_TRAINING");
    assert_valid(&v);
}

#[test]
fn service_request_payload_as_object_or_string() {
    let payload = json!({
        "TrainingJobName": "ignored",
        "ResourceConfig": { "InstanceType": "ml.g5.xlarge", "InstanceCount": 2, "VolumeSizeInGB": 50 },
        "StoppingCondition": { "MaxRuntimeInSeconds": 900 },
        "CheckpointConfig": { "S3Uri": "s3://bucket/ckpt" }
    });
    let mk = |p: Value| {
        let mut v = base();
        let j = v["jobs"][0].as_object_mut().unwrap();
        j.remove("instanceType");
        j.remove("instanceCount");
        j.insert("serviceRequestPayload".into(), p);
        v
    };
    for p in [payload.clone(), Value::String(payload.to_string())] {
        let s = load(&mk(p)).expect("valid payload");
        let j = &s.jobs[0];
        assert_eq!(s.types[j.ty.index()].name, G5);
        assert_eq!(j.count, 2);
        assert_eq!(j.timeout, Some(900));
        assert_eq!(j.checkpoint_interval, Some(600), "CheckpointConfig alone: every 600 s");
    }
    let e = load(&mk(json!("{not json"))).expect_err("bad payload string");
    assert!(e[0].path.starts_with("jobs[0].serviceRequestPayload"), "{e:?}");
}

#[test]
fn action_needs_exactly_one_kind() {
    let e = load(&with(base(), "/actions/0", json!({"at": 1}))).expect_err("no kind");
    assert!(e[0].path.starts_with("actions[0]"), "{e:?}");
    let e = load(&with(
        base(),
        "/actions/0",
        json!({"at": 1, "updateServiceJob": {"jobName": "j1", "schedulingPriority": 1},
               "terminateServiceJob": {"jobName": "j1", "reason": "x"}}),
    ))
    .expect_err("two kinds");
    assert!(e[0].path.starts_with("actions[0]"), "{e:?}");
}

#[test]
fn parse_then_validate_agree_with_load() {
    let text = base().to_string();
    let s = parse_scenario(&text).expect("parses");
    assert_eq!(validate(&s), load_scenario(&text));
}

#[test]
fn instance_type_problems() {
    // Disagreeing with the payload.
    let v = with(
        base(),
        "/jobs/0/serviceRequestPayload",
        json!({"ResourceConfig": {"InstanceType": "ml.p5.48xlarge"}}),
    );
    assert_error_at(&v, "jobs[0].instanceType");
    // Missing entirely.
    let mut v = base();
    v["jobs"][0].as_object_mut().unwrap().remove("instanceType");
    assert_error_at(&v, "jobs[0].instanceType");
    // Not a name.
    assert_error_at(&with(base(), "/jobs/0/instanceType", json!("ml g5")), "jobs[0].instanceType");
    assert_error_at(&with(base(), "/jobs/0/instanceType", json!("")), "jobs[0].instanceType");
    assert_error_at(
        &with(base(), "/serviceEnvironment/capacityLimits/0/capacityUnit", json!("")),
        "serviceEnvironment.capacityLimits[0].capacityUnit",
    );
}

#[test]
fn instance_types_list_problems() {
    let v = with(base(), "/instanceTypes", json!([{"name": G5, "gpus": 1}, {"name": G5, "gpus": 2}]));
    assert_error_at(&v, "instanceTypes[1].name");
    let v = with(base(), "/instanceTypes", json!([{"name": G5, "gpus": -1}]));
    assert_error_at(&v, "instanceTypes[0].gpus");
    assert_valid(&with(base(), "/instanceTypes", json!([{"name": "ml.custom", "gpus": 3}])));
}

#[test]
fn action_limit_problems() {
    let v = with(
        base(),
        "/actions/0",
        json!({"at": 1, "updateServiceEnvironment": {"capacityLimits": [{"capacityUnit": G5, "maxCapacity": -1}]}}),
    );
    assert_error_at(&v, "actions[0].updateServiceEnvironment.capacityLimits[0].maxCapacity");
    let six: Vec<Value> = ["a", "b", "c", "d", "e", "f"]
        .iter()
        .map(|t| json!({"capacityUnit": format!("ml.{t}"), "maxCapacity": 1}))
        .collect();
    let v = with(
        base(),
        "/actions/0",
        json!({"at": 1, "updateQuotaShare": {"quotaShareName": "qs1", "capacityLimits": six}}),
    );
    assert_error_at(&v, "actions[0].updateQuotaShare.capacityLimits");
    let v = with(
        base(),
        "/actions/0",
        json!({"at": 1, "updateQuotaShare": {"quotaShareName": "qs1", "capacityLimits": []}}),
    );
    assert_error_at(&v, "actions[0].updateQuotaShare.capacityLimits");
    // The service environment may be lowered to 0 (unlike a share's limit).
    let v = with(
        base(),
        "/actions/0",
        json!({"at": 1, "updateServiceEnvironment": {"capacityLimits": [{"capacityUnit": G5, "maxCapacity": 0}]}}),
    );
    assert_valid(&v);
}

#[test]
fn quota_for_a_type_without_service_environment_limit_is_a_warning() {
    let v = with(
        base(),
        "/quotaShares/1/capacityLimits",
        json!([{"capacityUnit": G5, "maxCapacity": 2}, {"capacityUnit": "ml.p5.48xlarge", "maxCapacity": 1}]),
    );
    let s = load(&v).expect("valid");
    assert!(
        s.warnings.iter().any(|p| p.path.starts_with("quotaShares[1].capacityLimits")),
        "{:?}",
        s.warnings
    );
}

#[test]
fn problems_display_with_severity_and_path() {
    let e = errors(&with(base(), "/jobs/0/schedulingPriority", json!(-1)));
    let line = e[0].to_string();
    assert!(line.contains("error") && line.contains("jobs[0].schedulingPriority"), "{line}");
}

// ----- strict parsing ---------------------------------------------------------------------

#[test]
fn data_after_the_scenario_is_an_error_not_ignored() {
    let one = base().to_string();
    let two = format!("{one}\n{one}");
    let e = load_scenario(&two).unwrap_err();
    assert_eq!(e.len(), 1);
    assert!(e[0].message.contains("data after the scenario (line 2, column 1)"), "{}", e[0].message);
    // Whitespace after it is fine.
    assert!(load_scenario(&format!("{one}\n\n  ")).is_ok());
    assert!(load_scenario(&format!("{one} x")).is_err());
}

#[test]
fn an_array_where_an_object_belongs_is_a_type_error_with_its_path() {
    for (pointer, path) in [
        ("/settings", "settings"),
        ("/serviceEnvironment", "serviceEnvironment"),
        ("/quotaShares/0/resourceSharingConfiguration", "quotaShares[0].resourceSharingConfiguration"),
        ("/quotaShares/0/capacityLimits/0", "quotaShares[0].capacityLimits[0]"),
        ("/jobs/1", "jobs[1]"),
        ("/jobs/0/preemptionConfiguration", "jobs[0].preemptionConfiguration"),
    ] {
        let e = errors(&with(base(), pointer, json!([0, 0, 0, true])));
        assert_eq!(e.len(), 1, "{pointer}");
        assert_eq!(e[0].path, path, "{pointer}");
        assert!(
            e[0].message.starts_with("invalid type: sequence, expected struct"),
            "{pointer}: {}",
            e[0].message
        );
    }
}

#[test]
fn a_wrong_type_for_an_enum_names_the_choices_not_invalid_json() {
    let e = errors(&with(base(), "/settings", json!({"victimOrder": 3})));
    assert_eq!(e[0].path, "settings.victimOrder");
    assert!(
        e[0].message.starts_with(r#"invalid type: integer `3`, expected one of "aws", "leastLostWork""#),
        "{}",
        e[0].message
    );
    let e = errors(&with(base(), "/quotaShares/0/resourceSharingConfiguration/strategy", json!(true)));
    assert!(
        e[0].message.contains(r#"expected one of "RESERVE", "LEND", "LEND_AND_BORROW""#),
        "{}",
        e[0].message
    );
    // A string that is not a variant still says so.
    let e = errors(&with(base(), "/settings", json!({"victimOrder": "newest"})));
    assert!(e[0].message.contains("unknown variant `newest`"), "{}", e[0].message);
}

#[test]
fn a_truncated_file_names_the_last_known_path_without_question_marks() {
    let text = serde_json::to_string_pretty(&base()).unwrap();
    for cut in (1..text.len()).step_by(7) {
        let e = load_scenario(&text[..cut]).unwrap_err();
        assert!(!e[0].path.contains('?'), "cut at {cut}: {}", e[0].path);
        assert!(e[0].message.contains("line"), "cut at {cut}: {}", e[0].message);
    }
}

#[test]
fn problems_show_control_characters_from_the_input_as_escapes() {
    // An unknown key and a value the message quotes, both carrying a terminal escape sequence:
    // the problem names them without sending the sequence to whoever prints it.
    let hostile = "x\u{1b}[2J\u{7}\u{9b}";
    let mut v = base();
    v[hostile] = json!(1);
    let e = load(&v).unwrap_err();
    assert_eq!(e[0].path, r"x\u{1b}[2J\u{7}\u{9b}");
    assert!(e[0].message.contains(r"unknown field `x\u{1b}[2J\u{7}\u{9b}`"), "{}", e[0].message);
    let e = errors(&with(base(), "/settings", json!({ "victimOrder": hostile })));
    assert_eq!(e[0].path, "settings.victimOrder");
    assert!(e[0].message.contains(r"unknown variant `x\u{1b}[2J\u{7}\u{9b}`"), "{}", e[0].message);
    for p in e.iter().chain(&load(&v).unwrap_err()) {
        assert!(!p.to_string().contains(char::is_control), "{p:?}");
    }
}

#[test]
fn the_service_environment_name_follows_the_aws_name_rule() {
    for bad in ["", "two words", "a.b", "evil\u{1b}[2J", &"x".repeat(129)] {
        assert_error_at(
            &with(base(), "/serviceEnvironment/serviceEnvironmentName", json!(bad)),
            "serviceEnvironment.serviceEnvironmentName",
        );
    }
    for good in ["se", "training_se-2", &"x".repeat(128)] {
        let v = with(base(), "/serviceEnvironment/serviceEnvironmentName", json!(good));
        assert!(load_scenario(&v.to_string()).is_ok(), "{good}");
    }
}
