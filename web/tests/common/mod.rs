//! The binding tests, shared by the Node suite (`tests/node.rs`) and the headless-browser
//! suite (`tests/browser.rs`). They call the exported functions as a JS caller would: with
//! `JsValue`s in, and read the plain JS objects that come out.

use js_sys::{Array, Reflect, JSON};
use quotasim_wasm::{generate, generate_json, validate, Simulation};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

pub const NOTEBOOK: &str = include_str!("../../../tests/fixtures/notebook.json");

const CROSS_SHARE: &str = "Cross-share preemption triggered to reclaim borrowed capacity";
const IN_SHARE: &str = "In-share preemption triggered by higher priority job";

fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &JsValue::from_str(key)).expect("property read")
}

fn num(v: &JsValue, key: &str) -> f64 {
    let x = get(v, key);
    assert!(x.as_f64().is_some(), "{key} is not a number: {x:?}");
    x.as_f64().unwrap()
}

fn text(v: &JsValue, key: &str) -> Option<String> {
    get(v, key).as_string()
}

fn stringify(v: &JsValue) -> String {
    JSON::stringify(v).expect("stringify").as_string().expect("a string")
}

fn parse(s: &str) -> JsValue {
    JSON::parse(s).expect("JSON")
}

fn items(v: &JsValue) -> Vec<JsValue> {
    assert!(Array::is_array(v), "not an array: {v:?}");
    Array::from(v).iter().collect()
}

fn job(sim: &Simulation, name: &str) -> JsValue {
    let jobs = sim.jobs().expect("jobs");
    items(&jobs).into_iter().find(|j| text(j, "jobName").as_deref() == Some(name)).expect("job")
}

fn message(err: &JsValue) -> String {
    assert!(err.is_instance_of::<js_sys::Error>(), "not an Error: {err:?}");
    err.clone().unchecked_into::<js_sys::Error>().message().into()
}

fn notebook() -> Simulation {
    Simulation::new(JsValue::from_str(NOTEBOOK)).expect("the notebook scenario is valid")
}

#[wasm_bindgen_test]
fn notebook_step_one_own_quota_then_borrowed_then_waiting() {
    let mut sim = notebook();
    sim.run_until(0.0).unwrap();
    assert_eq!(sim.now(), 0.0);
    let high = job(&sim, "qs1_job_high");
    assert_eq!(text(&high, "status").as_deref(), Some("RUNNING"));
    let a = &items(&get(&high, "attempts"))[0];
    assert_eq!((num(a, "startedAt"), num(a, "borrowedInstances")), (0.0, 0.0));
    let med = job(&sim, "qs1_job_med");
    assert_eq!(text(&med, "status").as_deref(), Some("RUNNING"));
    assert_eq!(num(&items(&get(&med, "attempts"))[0], "borrowedInstances"), 1.0);
    let low = job(&sim, "qs1_job_low");
    assert_eq!(text(&low, "status").as_deref(), Some("RUNNABLE"));
    assert!(get(&low, "firstStartedAt").is_null());
    // The snapshot agrees: qs1 uses two instances, one over its quota of one.
    let snap = sim.snapshot().unwrap();
    let qs1 = items(&get(&snap, "shares"))
        .into_iter()
        .find(|s| text(s, "quotaShareName").as_deref() == Some("qs1"));
    let qs1 = qs1.expect("qs1 in the snapshot");
    assert_eq!((num(&qs1, "usage"), num(&qs1, "overQuota")), (2.0, 1.0));
}

#[wasm_bindgen_test]
fn notebook_step_two_cross_share_reclaim_after_the_grace_period() {
    let mut sim = notebook();
    sim.run_until(1020.0).unwrap();
    let events = items(&sim.events(None).unwrap());
    let started = events
        .iter()
        .find(|e| text(e, "type").as_deref() == Some("PREEMPTION_STARTED"))
        .expect("a preemption started");
    assert_eq!(num(started, "at"), 900.0);
    assert_eq!(text(started, "jobName").as_deref(), Some("qs1_job_med"));
    assert_eq!(text(started, "reason").as_deref(), Some(CROSS_SHARE));
    assert_eq!(text(started, "preemptedBy").as_deref(), Some("qs2_job"));
    let qs2 = job(&sim, "qs2_job");
    assert_eq!(num(&qs2, "firstStartedAt"), 1020.0);
    let med = job(&sim, "qs1_job_med");
    let first = &items(&get(&med, "attempts"))[0];
    assert_eq!(num(first, "stoppedAt"), 1020.0);
    assert_eq!(text(first, "statusReason").as_deref(), Some(CROSS_SHARE));
}

#[wasm_bindgen_test]
fn notebook_step_three_in_share_preemption_for_the_raised_job() {
    let mut sim = notebook();
    sim.run_until(1920.0).unwrap();
    let high = job(&sim, "qs1_job_high");
    let first = &items(&get(&high, "attempts"))[0];
    assert_eq!(num(first, "stoppedAt"), 1920.0);
    assert_eq!(text(first, "statusReason").as_deref(), Some(IN_SHARE));
    let low = job(&sim, "qs1_job_low");
    assert_eq!(num(&low, "firstStartedAt"), 1920.0);
    assert_eq!(num(&low, "schedulingPriority"), 4.0);
    let med = job(&sim, "qs1_job_med");
    assert_eq!(text(&med, "status").as_deref(), Some("RUNNABLE"));
}

#[wasm_bindgen_test]
fn result_object_is_the_result_json_as_plain_objects() {
    let mut sim = notebook();
    sim.run().unwrap();
    let result = sim.result().unwrap();
    let json = sim.result_json().unwrap();
    // Same content and key order; `null`s are nulls (undefined would vanish here).
    assert_eq!(stringify(&result), stringify(&parse(&json)));
    // Integers are numbers, never BigInt; maps are plain objects, not Map.
    assert!(get(&result, "endedAt").as_f64().is_some());
    let per_share = get(&get(&result, "summary"), "perQuotaShare");
    assert!(!per_share.is_instance_of::<js_sys::Map>());
    assert!(get(&per_share, "qs2").is_object());
    assert_eq!(sim.now(), num(&result, "endedAt"));
    assert!(sim.is_done());
    assert_eq!(stringify(&sim.summary().unwrap()), stringify(&get(&result, "summary")));
    assert_eq!(stringify(&sim.jobs().unwrap()), stringify(&get(&result, "jobs")));
    let summary_only = sim.summary_result().unwrap();
    assert!(get(&summary_only, "jobs").is_undefined());
    assert_eq!(num(&summary_only, "endedAt"), num(&result, "endedAt"));
}

#[wasm_bindgen_test]
fn an_object_and_its_json_text_give_the_same_bytes_twice() {
    let mut a = notebook();
    a.run().unwrap();
    let mut b = Simulation::new(parse(NOTEBOOK)).unwrap();
    b.run().unwrap();
    assert_eq!(a.result_json().unwrap(), b.result_json().unwrap());
    let mut c = notebook();
    c.run().unwrap();
    assert_eq!(a.result_json().unwrap(), c.result_json().unwrap());
}

#[wasm_bindgen_test]
fn stepping_visits_increasing_instants_and_ends() {
    let mut sim = notebook();
    let mut last = -1.0;
    let mut steps = 0;
    while let Some(t) = sim.step().unwrap() {
        assert!(t > last, "{t} after {last}");
        last = t;
        steps += 1;
        assert!(steps < 1000, "the notebook never ends");
    }
    assert_eq!(sim.now(), last);
    assert!(sim.step().unwrap().is_none());
    let mut whole = notebook();
    whole.run().unwrap();
    assert_eq!(sim.result_json().unwrap(), whole.result_json().unwrap());
}

#[wasm_bindgen_test]
fn events_can_be_read_incrementally() {
    let mut sim = notebook();
    sim.run_until(900.0).unwrap();
    let seen = sim.event_count();
    let before = items(&sim.events(None).unwrap()).len();
    assert_eq!(before as f64, seen);
    sim.run().unwrap();
    let all = items(&sim.events(None).unwrap());
    let rest = items(&sim.events(Some(seen)).unwrap());
    assert_eq!(before + rest.len(), all.len());
    assert_eq!(stringify(&rest[0]), stringify(&all[before]));
    assert!(items(&sim.events(Some(1e15)).unwrap()).is_empty());
}

#[wasm_bindgen_test]
fn a_fork_goes_on_independently() {
    let mut sim = notebook();
    sim.run_until(900.0).unwrap();
    let mut fork = sim.fork();
    fork.run().unwrap();
    assert_eq!(sim.now(), 900.0);
    sim.run().unwrap();
    assert_eq!(sim.result_json().unwrap(), fork.result_json().unwrap());
}

#[wasm_bindgen_test]
fn an_invalid_scenario_throws_an_error_listing_every_problem() {
    let mut s: serde_json::Value = serde_json::from_str(NOTEBOOK).unwrap();
    s["jobs"][0]["durationSeconds"] = serde_json::json!(-5);
    s["jobs"][1]["quotaShareName"] = serde_json::json!("nope");
    let json = s.to_string();
    let err = Simulation::new(JsValue::from_str(&json)).err().expect("rejected");
    let msg = message(&err);
    assert!(msg.contains("jobs[0].durationSeconds"), "{msg}");
    assert!(msg.contains("jobs[1].quotaShareName"), "{msg}");
    let problems = items(&get(&err, "problems"));
    assert!(problems.len() >= 2, "{msg}");
    for p in &problems {
        assert!(msg.contains(&text_or_empty(p, "path")), "{msg}");
        assert!(text(p, "message").is_some());
        assert!(matches!(text(p, "severity").as_deref(), Some("error" | "warning")));
    }
    // validate() returns the same problems, without throwing.
    let listed = validate(JsValue::from_str(&json)).unwrap();
    assert_eq!(stringify(&listed), stringify(&get(&err, "problems")));
}

fn text_or_empty(v: &JsValue, key: &str) -> String {
    text(v, key).unwrap_or_default()
}

#[wasm_bindgen_test]
fn an_unknown_field_in_an_object_is_rejected_with_its_path() {
    let obj = parse(NOTEBOOK);
    let jobs = get(&obj, "jobs");
    let first = Array::from(&jobs).get(0);
    Reflect::set(&first, &"durationSecs".into(), &JsValue::from_f64(5.0)).unwrap();
    let err = Simulation::new(obj.clone()).err().expect("rejected");
    let problems = items(&get(&err, "problems"));
    assert_eq!(problems.len(), 1);
    assert_eq!(text(&problems[0], "path").as_deref(), Some("jobs[0].durationSecs"));
    assert!(message(&err).contains("durationSecs"), "{}", message(&err));
    assert_eq!(items(&validate(obj).unwrap()).len(), 1);
}

#[wasm_bindgen_test]
fn bad_input_is_an_error_never_a_panic() {
    let big = js_sys::BigInt::from(5u32);
    let cyclic = js_sys::Object::new();
    Reflect::set(&cyclic, &"self".into(), &cyclic).unwrap();
    for bad in [
        JsValue::UNDEFINED,
        JsValue::NULL,
        JsValue::from_f64(42.0),
        JsValue::from_str(""),
        JsValue::from_str("{"),
        JsValue::from_str("[]"),
        JsValue::from_str("{\"serviceEnvironment\": 3}"),
        Array::new().into(),
        big.into(),
        cyclic.into(),
    ] {
        let err = Simulation::new(bad.clone()).err().unwrap_or_else(|| panic!("{bad:?} accepted"));
        assert!(!message(&err).is_empty());
        assert!(!items(&get(&err, "problems")).is_empty());
        let problems = items(&validate(bad).unwrap());
        assert!(problems.iter().any(|p| text(p, "severity").as_deref() == Some("error")));
    }
    let mut sim = notebook();
    for t in [-1.0, 1.5, f64::NAN, f64::INFINITY, 1e300] {
        let err = sim.run_until(t).expect_err("rejected");
        assert!(err.is_instance_of::<js_sys::RangeError>());
    }
    assert!(sim.events(Some(-3.0)).is_err());
    assert_eq!(sim.now(), 0.0);
    // Going back in time does nothing.
    sim.run_until(2000.0).unwrap();
    sim.run_until(10.0).unwrap();
    assert_eq!(sim.now(), 2000.0);
}

#[wasm_bindgen_test]
fn the_notebook_has_no_problems_and_warnings_are_reported() {
    assert!(items(&validate(JsValue::from_str(NOTEBOOK)).unwrap()).is_empty());
    let sim = notebook();
    assert!(items(&sim.warnings().unwrap()).is_empty());
}

#[wasm_bindgen_test]
fn generate_is_deterministic_and_matches_its_json() {
    let opts = parse(r#"{"jobs": 200, "shares": 5, "instanceTypes": 3, "seed": 7}"#);
    let a = generate(opts.clone()).unwrap();
    let b = generate(opts.clone()).unwrap();
    assert_eq!(stringify(&a), stringify(&b));
    // All integers and strings, so JSON.stringify writes the same bytes as serde_json.
    assert_eq!(stringify(&a), generate_json(opts).unwrap());
    assert_eq!(items(&get(&a, "jobs")).len(), 200);
    assert_eq!(items(&get(&a, "quotaShares")).len(), 5);
    // A generated scenario runs.
    let mut sim = Simulation::new(a).unwrap();
    sim.run().unwrap();
    assert!(sim.is_done());
    // Defaults when no options are given.
    let d = generate(JsValue::UNDEFINED).unwrap();
    assert_eq!(items(&get(&d, "jobs")).len(), 1000);
}

#[wasm_bindgen_test]
fn bad_generate_options_throw_with_the_option_named() {
    for (opts, path) in [
        (r#"{"shares": 0}"#, "shares"),
        (r#"{"instanceTypes": 9}"#, "instanceTypes"),
        (r#"{"jobs": -1}"#, "jobs"),
        (r#"{"seeds": 1}"#, "seeds"),
    ] {
        let err = generate(parse(opts)).err().unwrap_or_else(|| panic!("{opts} accepted"));
        let problems = items(&get(&err, "problems"));
        assert_eq!(text(&problems[0], "path").as_deref(), Some(path), "{opts}: {}", message(&err));
    }
    assert!(generate(JsValue::from_f64(3.0)).is_err());
}

#[wasm_bindgen_test]
fn a_time_past_2_53_throws_an_error_naming_the_job() {
    let scenario = r#"{"formatVersion":1,
      "serviceEnvironment":{"serviceEnvironmentName":"se","capacityLimits":[{"capacityUnit":"ml.g5.xlarge","maxCapacity":1}]},
      "quotaShares":[{"quotaShareName":"a","capacityLimits":[{"capacityUnit":"ml.g5.xlarge","maxCapacity":1}],
        "resourceSharingConfiguration":{"strategy":"RESERVE"}}],
      "jobs":[
        {"jobName":"first","quotaShareName":"a","instanceType":"ml.g5.xlarge","instanceCount":1,"submitAt":0,"durationSeconds":4503599627370496},
        {"jobName":"second","quotaShareName":"a","instanceType":"ml.g5.xlarge","instanceCount":1,"submitAt":0,"durationSeconds":4503599627370506}]}"#;
    let mut sim = Simulation::new(JsValue::from_str(scenario)).unwrap();
    let err = sim.run().expect_err("the second job would end after 2^53 - 1");
    let message = js_sys::Error::from(err).message().as_string().unwrap();
    assert!(message.contains("job second") && message.contains("2^53 - 1"), "{message}");
    assert_eq!(sim.now(), 4503599627370496.0);
}

#[wasm_bindgen_test]
fn validate_refuses_data_after_the_scenario_and_arrays_for_objects() {
    let two = format!("{NOTEBOOK}\n{NOTEBOOK}");
    let problems = items(&validate(JsValue::from_str(&two)).unwrap());
    assert_eq!(problems.len(), 1);
    let message = Reflect::get(&problems[0], &JsValue::from_str("message")).unwrap().as_string().unwrap();
    assert!(message.contains("data after the scenario"), "{message}");
    let settings = r#"{"formatVersion":1,"settings":[0,0,0,true],
      "serviceEnvironment":{"serviceEnvironmentName":"se","capacityLimits":[{"capacityUnit":"ml.g5.xlarge","maxCapacity":1}]},
      "quotaShares":[{"quotaShareName":"a","capacityLimits":[{"capacityUnit":"ml.g5.xlarge","maxCapacity":1}],
        "resourceSharingConfiguration":{"strategy":"RESERVE"}}]}"#;
    let problems = items(&validate(JsValue::from_str(settings)).unwrap());
    let path = Reflect::get(&problems[0], &JsValue::from_str("path")).unwrap().as_string().unwrap();
    assert_eq!(path, "settings");
}

#[wasm_bindgen_test]
fn problems_show_control_characters_of_the_input_as_escapes() {
    let mut v: serde_json::Value = serde_json::from_str(NOTEBOOK).unwrap();
    v["x\u{1b}[2J"] = 1.into();
    let problems = items(&validate(JsValue::from_str(&v.to_string())).unwrap());
    let message = text(&problems[0], "message").unwrap();
    assert!(message.contains(r"unknown field `x\u{1b}[2J`"), "{message}");
    assert_eq!(text(&problems[0], "path").as_deref(), Some(r"x\u{1b}[2J"));
}

/// A live state (R28): `running` trains on the one instance since 0, `next` waits behind it.
const STATE: &str = r#"{
  "serviceEnvironment": {"capacityLimits": [{"capacityUnit": "ml.g5.xlarge", "maxCapacity": 1}]},
  "quotaShares": [{"quotaShareName": "a", "capacityLimits": [{"capacityUnit": "ml.g5.xlarge", "maxCapacity": 1}],
    "resourceSharingConfiguration": {"strategy": "RESERVE"}}],
  "settings": {"startAt": 100},
  "jobs": [
    {"jobName": "running", "quotaShareName": "a", "instanceType": "ml.g5.xlarge", "startedAt": 0, "durationSeconds": 600},
    {"jobName": "next", "quotaShareName": "a", "instanceType": "ml.g5.xlarge", "submitAt": 50, "durationSeconds": 300}
  ]
}"#;

#[wasm_bindgen_test]
async fn eta_resolves_to_the_report_eta_json_gives_and_an_aborted_signal_rejects_it() {
    use quotasim_wasm::{eta, eta_json};
    use wasm_bindgen_futures::JsFuture;
    let options = || parse(r#"{"replicates": 4, "durations": "exact"}"#);
    let json = eta_json(JsValue::from_str(STATE), options()).unwrap();
    let report = JsFuture::from(eta(JsValue::from_str(STATE), options())).await.unwrap();
    assert_eq!(stringify(&report), stringify(&parse(&json)));
    let next = &items(&get(&report, "jobs"))[0];
    assert_eq!(text(next, "jobName").as_deref(), Some("next"));
    assert_eq!(num(&get(next, "start"), "p50"), 500.0, "when `running` ends");
    let aborted = parse(r#"{"signal": {"aborted": true}}"#);
    let err = JsFuture::from(eta(JsValue::from_str(STATE), aborted)).await.unwrap_err();
    assert_eq!(text(&err, "name").as_deref(), Some("AbortError"));
    let err =
        JsFuture::from(eta(JsValue::from_str(STATE), parse(r#"{"replicates": -1}"#))).await.unwrap_err();
    assert_eq!(text(&items(&get(&err, "problems"))[0], "path").as_deref(), Some("options.replicates"));
}
