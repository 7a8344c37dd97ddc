//! Never a panic (semantics section 8, format spec "Command line"): arbitrary text, mutated
//! scenario JSON, random JSON-ish values, hostile documents (truncated, with data after them,
//! arrays for objects, deep nesting, huge or control-character strings and keys, duplicate
//! keys) and arbitrary `Scenario` values go through parse, validate and (when valid) a bounded
//! simulation. Every problem names a path or a position in a bounded message without control
//! characters (those of the input are shown escaped), and a run's results hold no number above
//! 2^53 - 1 unless the run says why.
//!
//! The test command runs a short, fixed set of cases; hunt longer with another seed, e.g.
//! `PROPTEST_CASES=100000 PROPTEST_RNG_SEED=7 cargo test --release -p quotasim-tests --test main fuzz::`.

mod fast_reader;
mod surfaces;

use proptest::prelude::*;
use proptest::strategy::Strategy as _;
use quotasim::json::{load_scenario, parse_scenario, to_json};
use quotasim::model::{
    Action, ActionKind, CapacityLimit, Job, JobPreemption, QuotaShare, QuotaShareUpdate, Scenario, Strategy,
};
use quotasim::{validate, Simulation, ValidScenario, MAX_SAFE_INTEGER};
use serde_json::{json, Value};

/// Every number of a result JSON text is at most 2^53 - 1 in magnitude.
fn numbers_exact(v: &Value) -> bool {
    match v {
        Value::Number(n) => n.as_f64().is_some_and(|x| x.abs() <= MAX_SAFE_INTEGER as f64),
        Value::Array(a) => a.iter().all(numbers_exact),
        Value::Object(m) => m.values().all(numbers_exact),
        _ => true,
    }
}

fn simulate(v: ValidScenario) {
    let mut s = Simulation::new(v);
    for _ in 0..5_000 {
        if s.step().is_none() {
            break;
        }
        let _ = s.snapshot();
    }
    let full = to_json(&s.result());
    let _ = to_json(&s.summary_result());
    if s.run_error().is_none() {
        let v: Value = serde_json::from_str(&full).expect("results are JSON");
        assert!(numbers_exact(&v), "a number above 2^53 - 1 without a run error");
    }
}

/// Parse, validate and run; every problem must name where it is, briefly.
fn load_and_run(text: &str) {
    match load_scenario(text) {
        Ok(v) => simulate(v),
        Err(problems) => {
            assert!(!problems.is_empty());
            for p in problems {
                assert!(
                    !p.path.is_empty() || p.message.contains("line "),
                    "a problem with neither a path nor a position: {p}"
                );
                assert!(!p.path.contains('?'), "an unnamed step in {}", p.path);
                assert!(
                    !p.to_string().contains(char::is_control),
                    "a control character from the input in {p:?}"
                );
                assert!(
                    p.message.len() <= quotasim::validate::MAX_MESSAGE,
                    "a {}-byte message",
                    p.message.len()
                );
            }
        }
    }
}

fn notebook() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/notebook.json")).unwrap()
}

const KEYS: &[&str] = &[
    "formatVersion",
    "settings",
    "serviceEnvironment",
    "capacityLimits",
    "capacityUnit",
    "maxCapacity",
    "quotaShares",
    "quotaShareName",
    "resourceSharingConfiguration",
    "strategy",
    "borrowLimit",
    "preemptionConfiguration",
    "inSharePreemption",
    "state",
    "jobs",
    "jobName",
    "schedulingPriority",
    "instanceType",
    "instanceCount",
    "submitAt",
    "durationSeconds",
    "checkpointIntervalSeconds",
    "timeoutSeconds",
    "preemptionRetriesBeforeTermination",
    "actions",
    "at",
    "updateServiceJob",
    "terminateServiceJob",
    "updateQuotaShare",
    "updateServiceEnvironment",
    "serviceRequestPayload",
    "ResourceConfig",
    "InstanceType",
    "InstanceCount",
    "StoppingCondition",
    "MaxRuntimeInSeconds",
    "CheckpointConfig",
    "preemptionGraceSeconds",
    "horizonSeconds",
    "backfill",
    "victimOrder",
];
const WORDS: &[&str] = &[
    "LEND",
    "LEND_AND_BORROW",
    "RESERVE",
    "ENABLED",
    "DISABLED",
    "aws",
    "leastLostWork",
    "qs1",
    "qs2",
    "qs1_job_high",
    "ml.g5.xlarge",
    "ml.p5.48xlarge",
    "FIFO",
    "",
];

/// Random JSON values; with `big`, integers over the whole `i64` range and the 2^53 edge,
/// otherwise integers below 2^24 (where metric sums cannot overflow).
fn json_value(big: bool) -> impl proptest::strategy::Strategy<Value = Value> {
    let int = if big { any::<i64>().boxed() } else { (-(1i64 << 24)..(1i64 << 24)).boxed() };
    let edge = if big { (1i64 << 53) - 1 } else { 1 << 24 };
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        int.prop_map(|n| json!(n)),
        prop_oneof![
            Just(-1i64),
            Just(0),
            Just(1),
            Just(2),
            Just(9999),
            Just(10000),
            Just(edge),
            Just(edge + 1)
        ]
        .prop_map(|n| json!(n)),
        any::<f64>().prop_map(|f| json!(f)),
        prop::sample::select(WORDS).prop_map(|w| json!(w)),
        "[a-z_.]{0,8}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 40, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(KEYS), inner), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect())),
        ]
    })
}

/// Every JSON pointer in a value.
fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
    out.push(at.clone());
    match v {
        Value::Object(m) => m.iter().for_each(|(k, x)| pointers(x, format!("{at}/{k}"), out)),
        Value::Array(a) => a.iter().enumerate().for_each(|(i, x)| pointers(x, format!("{at}/{i}"), out)),
        _ => {}
    }
}

fn replace_and_run(which: prop::sample::Index, value: Value) {
    let mut v: Value = serde_json::from_str(&notebook()).unwrap();
    let mut ptrs = vec![];
    pointers(&v, String::new(), &mut ptrs);
    let p = which.get(&ptrs).clone();
    if p.is_empty() {
        v = value;
    } else if let Some(slot) = v.pointer_mut(&p) {
        *slot = value;
    }
    load_and_run(&v.to_string());
}

/// Arbitrary scenario values; numbers are small, or any `i64` (mostly invalid), or the
/// edges around 2^53 that validation must reject.
fn any_scenario() -> impl proptest::strategy::Strategy<Value = Scenario> {
    let num = prop_oneof![
        4 => -3i64..10,
        1 => any::<i64>(),
        1 => prop_oneof![Just(1i64 << 53), Just(i64::MAX), Just(i64::MIN), Just(-(1i64 << 53))],
    ];
    let name =
        prop_oneof![Just("a".to_string()), Just("b".to_string()), Just("".to_string()), "[a-z -]{0,4}"];
    let ty = prop_oneof![
        Just("ml.g5.xlarge".to_string()),
        Just("ml.p5.48xlarge".to_string()),
        Just(" ".to_string())
    ];
    let strategy = prop_oneof![Just(Strategy::Reserve), Just(Strategy::Lend), Just(Strategy::LendAndBorrow)];
    let limit = (ty.clone(), num.clone()).prop_map(|(t, n)| CapacityLimit::new(&t, n));
    let share =
        (name.clone(), strategy, prop::collection::vec(limit.clone(), 0..3), prop::option::of(num.clone()))
            .prop_map(|(n, s, l, b)| {
                let mut q = QuotaShare::new(&n, s, l);
                q.resource_sharing_configuration.borrow_limit = b;
                q
            });
    let jobp = (
        name.clone(),
        name.clone(),
        ty.clone(),
        (num.clone(), num.clone(), num.clone(), num.clone()),
        (prop::option::of(num.clone()), prop::option::of(num.clone()), prop::option::of(num.clone())),
    )
        .prop_map(|(n, s, t, (c, at, d, p), (ck, to, r))| {
            let mut j = Job::new(&n, &s, &t, c, at, d);
            j.scheduling_priority = p;
            j.checkpoint_interval_seconds = ck;
            j.timeout_seconds = to;
            j.preemption_configuration =
                r.map(|r| JobPreemption { preemption_retries_before_termination: Some(r) });
            j
        });
    let action = (num.clone(), name.clone(), num.clone(), prop::collection::vec(limit.clone(), 0..2), 0u8..4)
        .prop_map(|(at, n, p, l, k)| Action {
            at,
            kind: match k {
                0 => ActionKind::UpdateServiceJob { job_name: n, scheduling_priority: p },
                1 => ActionKind::TerminateServiceJob { job_name: n, reason: "x".into() },
                2 => ActionKind::UpdateQuotaShare(QuotaShareUpdate {
                    quota_share_name: n,
                    capacity_limits: Some(l),
                    ..QuotaShareUpdate::default()
                }),
                _ => ActionKind::UpdateServiceEnvironment { capacity_limits: l },
            },
        });
    (
        prop::collection::vec(limit, 0..3),
        prop::collection::vec(share, 0..4),
        prop::collection::vec(jobp, 0..6),
        prop::collection::vec(action, 0..3),
        (num.clone(), num.clone(), num.clone(), num),
    )
        .prop_map(|(se, shares, jobs, actions, (g, sch, st, save))| {
            let mut s = Scenario { format_version: 1, ..Scenario::default() };
            s.service_environment.capacity_limits = se;
            s.quota_shares = shares;
            s.jobs = jobs;
            s.actions = actions;
            s.settings.preemption_grace_seconds = g;
            s.settings.scheduled_seconds = sch;
            s.settings.starting_seconds = st;
            s.settings.checkpoint_save_seconds = save;
            s
        })
}

/// Hostile documents built on the notebook scenario: cut short anywhere, followed by more data,
/// an array for an object, deep nesting, huge or control-character strings, duplicate keys.
fn hostile_document() -> impl proptest::strategy::Strategy<Value = String> {
    let cut = any::<prop::sample::Index>().prop_map(|i| {
        let t = notebook();
        let mut at = i.index(t.len());
        while !t.is_char_boundary(at) {
            at -= 1;
        }
        t[..at].to_string()
    });
    let trailing = prop_oneof![Just("{}"), Just("x"), Just("[1]"), Just("null"), Just("\u{0}")]
        .prop_map(|tail| format!("{}{tail}", notebook()));
    let arrays = (any::<prop::sample::Index>(), prop::collection::vec(json_value(false), 0..5)).prop_map(
        |(i, items)| {
            let mut v: Value = serde_json::from_str(&notebook()).unwrap();
            let mut objects = vec![];
            pointers(&v, String::new(), &mut objects);
            objects.retain(|p| v.pointer(p).is_some_and(Value::is_object));
            let p = i.get(&objects).clone();
            match v.pointer_mut(&p) {
                Some(slot) => *slot = Value::Array(items),
                None => v = Value::Array(items),
            }
            v.to_string()
        },
    );
    let deep = (1usize..3000, prop::bool::ANY).prop_map(|(n, arr)| {
        let (open, close) = if arr { ("[", "]") } else { ("{\"settings\":", "}") };
        format!("{}1{}", open.repeat(n), close.repeat(n))
    });
    let strings = (
        any::<prop::sample::Index>(),
        prop_oneof![
            "[\u{0}-\u{1f}\u{7f}\u{202e}\u{feff}]{1,20}",
            (1usize..200_000).prop_map(|n| "a".repeat(n)),
            Just("\u{1b}[31m<img src=x onerror=alert(1)>".to_string()),
        ],
    )
        .prop_map(|(i, s)| {
            let mut v: Value = serde_json::from_str(&notebook()).unwrap();
            let mut ptrs = vec![];
            pointers(&v, String::new(), &mut ptrs);
            ptrs.retain(|p| v.pointer(p).is_some_and(Value::is_string));
            let p = i.get(&ptrs).clone();
            if let Some(slot) = v.pointer_mut(&p) {
                *slot = Value::String(s);
            }
            v.to_string()
        });
    let keys = (any::<prop::sample::Index>(), "[\u{0}-\u{1f}\u{7f}-\u{9f}a\\[]{1,20}").prop_map(|(i, k)| {
        let mut v: Value = serde_json::from_str(&notebook()).unwrap();
        let mut objects = vec![];
        pointers(&v, String::new(), &mut objects);
        objects.retain(|p| v.pointer(p).is_some_and(Value::is_object));
        let p = i.get(&objects).clone();
        if let Some(Value::Object(o)) = v.pointer_mut(&p) {
            o.insert(k, json!(1));
        }
        v.to_string()
    });
    let duplicates = prop::sample::select(KEYS).prop_map(|k| {
        let t = notebook();
        let at = t.find('{').map_or(0, |i| i + 1);
        format!("{}\"{k}\": 1, \"{k}\": [], {}", &t[..at], &t[at..])
    });
    prop_oneof![cut, trailing, arrays, deep, strings, keys, duplicates]
}

/// Case count: `PROPTEST_CASES` if set (for longer hunts), else a moderate default.
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(256), ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics(text in ".{0,200}") {
        let _ = parse_scenario(&text);
        load_and_run(&text);
    }

    #[test]
    fn mutated_scenario_text_never_panics(edits in prop::collection::vec((any::<prop::sample::Index>(), 0u8..3, "[\\[\\]{}:,\"0-9a-zA-Z_. -]{1,3}"), 1..6)) {
        let mut text = notebook();
        for (idx, op, s) in edits {
            let mut at = idx.index(text.len().max(1));
            while !text.is_char_boundary(at) { at -= 1; }
            match op {
                0 => text.insert_str(at, &s),
                1 => { let end = (at + s.len()).min(text.len()); if text.is_char_boundary(end) { text.replace_range(at..end, ""); } }
                _ => { let end = (at + s.len()).min(text.len()); if text.is_char_boundary(end) { text.replace_range(at..end, &s); } }
            }
        }
        load_and_run(&text);
    }

    #[test]
    fn json_values_in_scenario_places_never_panic(which in any::<prop::sample::Index>(), value in json_value(false)) {
        replace_and_run(which, value);
    }

    #[test]
    fn json_values_with_large_numbers_never_panic(which in any::<prop::sample::Index>(), value in json_value(true)) {
        replace_and_run(which, value);
    }

    #[test]
    fn arbitrary_json_values_never_panic(value in json_value(false)) {
        load_and_run(&value.to_string());
    }

    #[test]
    fn hostile_documents_never_panic(doc in hostile_document()) {
        load_and_run(&doc);
    }

    #[test]
    fn arbitrary_scenarios_never_panic(s in any_scenario()) {
        if let Ok(v) = validate(&s) {
            simulate(v);
        }
        if let Ok(text) = serde_json::to_string(&s) {
            load_and_run(&text);
        }
    }
}

#[test]
fn large_valid_quota_does_not_overflow_metrics() {
    // Both numbers are within the format's limit (2^53 - 1); the share's quota integrated
    // over 3600 s is about 3.2e19 quota-instance-seconds, above 2^53 - 1: the run says so
    // instead of giving a saturated utilization.
    let max = (1i64 << 53) - 1;
    let s = quotasim_tests::Sc::new()
        .capacity(quotasim_tests::G5, max)
        .share(quotasim_tests::reserve("a", quotasim_tests::G5, max))
        .job(quotasim_tests::job("j", "a").dur(3600))
        .build();
    let v = validate(&s).expect("valid");
    let mut sim = Simulation::new(v.clone());
    sim.run();
    assert_eq!(
        sim.run_error(),
        Some(quotasim::RunError::SumOverflow { metric: "perQuotaShare.a.utilization".into() })
    );
    simulate(v);
}

#[test]
fn extreme_times_are_refused_or_simulate_exactly() {
    let max = (1i64 << 53) - 1;
    let s = quotasim_tests::Sc::new()
        .capacity(quotasim_tests::G5, 4)
        .share(quotasim_tests::lab("a", quotasim_tests::G5, 2).borrow_limit(max))
        .share(quotasim_tests::lend("b", quotasim_tests::G5, 2))
        .job(quotasim_tests::job("j", "a").count(4).at(max).dur(max).ckpt(1).timeout(max))
        .job(quotasim_tests::job("k", "b").at(max).dur(max))
        .grace(max)
        .scheduled(max)
        .starting(max);
    let problems = s.validate().expect_err("attempts would end after 2^53 - 1");
    let paths: Vec<&str> = problems.iter().map(|p| p.path.as_str()).collect();
    assert_eq!(paths, vec!["jobs[0].durationSeconds", "jobs[1].durationSeconds"]);
    // At the edge: the attempt ends exactly at 2^53 - 1, grace period included.
    let edge = quotasim_tests::Sc::new()
        .capacity(quotasim_tests::G5, 1)
        .share(quotasim_tests::reserve("a", quotasim_tests::G5, 1))
        .job(quotasim_tests::job("j", "a").at(max - 4).dur(1))
        .grace(1)
        .scheduled(1)
        .starting(1);
    let mut sim = Simulation::new(edge.valid());
    sim.run();
    assert_eq!(sim.run_error(), None);
    assert_eq!(sim.now(), (max - 1) as u64, "submitted at max - 4, 2 s to start, 1 s of work");
    simulate(edge.valid());
}
