//! The engine's fast reader of job lists against serde: `parse_scenario` (fast reader, serde
//! for the rest) and `parse_scenario_serde` (serde alone) must give the same scenario or the
//! same problem, path and position included, for job lists of any field order, spacing and
//! value (escapes, `null`, fractions, exponents, `-0`, leading zeros, 19 digits, duplicate,
//! missing and unknown fields), cut or spliced anywhere. Read in pieces of any size
//! (`parse_scenario_pieces`), a text gives the same, or "read it again whole".

use proptest::prelude::*;
use quotasim::json::{parse_scenario, parse_scenario_pieces, parse_scenario_serde};
use quotasim::model::Scenario;
use quotasim::Problem;

use super::cases;

const STRINGS: &[&str] = &[r#""j1""#, r#""a""#, r#""ml.p5.48xlarge""#, "\"\u{e9}t\u{e9}\"", r#""""#];
const ODD_STRINGS: &[&str] = &[r#""q\"x""#, r#""\u0041""#, "\"tab\there\"", "5", "null", "[]"];
const NUMBERS: &[&str] = &["0", "5", "-7", "600", "999999999999999999", "-999999999999999999"];
const ODD_NUMBERS: &[&str] = &[
    "-0",
    "01",
    "1000000000000000000",
    "9223372036854775807",
    "-9223372036854775808",
    "1.5",
    "1e2",
    "null",
    r#""5""#,
    "true",
    "-",
    "{}",
];
const PREEMPTION: &[&str] =
    &["{}", r#"{"preemptionRetriesBeforeTermination": 3}"#, r#"{ "preemptionRetriesBeforeTermination" :0 }"#];
const ODD_PREEMPTION: &[&str] =
    &["null", r#"{"x": 1}"#, r#"{"preemptionRetriesBeforeTermination": -0}"#, "[]"];
const KEYS: &[&str] = &[
    "jobName",
    "quotaShareName",
    "schedulingPriority",
    "instanceType",
    "instanceCount",
    "submitAt",
    "durationSeconds",
    "startedAt",
    "previousAttempts",
    "completedWorkSeconds",
    "checkpointIntervalSeconds",
    "timeoutSeconds",
    "preemptionConfiguration",
];
const ODD_KEYS: &[&str] = &["jobArn", "bogus", r"job\u004eame", "jobname", ""];
const SPACE: &[&str] = &["", " ", "\n", "\t", "\r\n  "];

fn space() -> impl Strategy<Value = &'static str> {
    prop::sample::select(SPACE)
}

/// One field: mostly a key read fast with a value of its kind, now and then anything else.
fn field() -> impl Strategy<Value = String> {
    (prop::sample::select(KEYS), prop::sample::select(ODD_KEYS), 0..12u8, space(), space()).prop_flat_map(
        |(k, odd_key, odd, a, b)| {
            let k = if odd == 0 { odd_key } else { k };
            let strings = matches!(k, "jobName" | "quotaShareName" | "instanceType" | "jobArn" | "bogus");
            let values: &'static [&'static str] = match (k, odd) {
                (_, 1) => ODD_NUMBERS,
                (_, 2) => ODD_STRINGS,
                ("preemptionConfiguration", 3) => ODD_PREEMPTION,
                ("preemptionConfiguration", _) => PREEMPTION,
                _ if strings => STRINGS,
                _ => NUMBERS,
            };
            prop::sample::select(values).prop_map(move |v| format!("\"{k}\"{a}:{b}{v}"))
        },
    )
}

/// A job: usually its name and share first, then any fields.
fn job() -> impl Strategy<Value = String> {
    (0..5u8, prop::collection::vec(field(), 0..6), space()).prop_map(|(named, fields, s)| {
        let mut all = Vec::new();
        if named > 0 {
            all.push(r#""jobName": "j""#.to_string());
            all.push(r#""quotaShareName": "a""#.to_string());
        }
        all.extend(fields);
        format!("{{{s}{}{s}}}", all.join(&format!(",{s}")))
    })
}

/// A scenario whose job list comes before, between or after its other keys.
fn scenario() -> impl Strategy<Value = String> {
    (prop::collection::vec(job(), 0..5), 0..3usize, space()).prop_map(|(jobs, at, s)| {
        let list = format!("[{s}{}{s}]", jobs.join(&format!("{s},")));
        let mut keys = vec![
            r#""serviceEnvironment": {"serviceEnvironmentName": "se", "capacityLimits": [{"capacityUnit": "ml.p5.48xlarge", "maxCapacity": 8}]}"#.to_string(),
            r#""quotaShares": [{"quotaShareName": "a", "capacityLimits": [{"capacityUnit": "ml.p5.48xlarge", "maxCapacity": 8}], "resourceSharingConfiguration": {"strategy": "RESERVE"}, "tags": {"jobs": [1]}}]"#.to_string(),
        ];
        keys.insert(at, format!("\"jobs\":{s}{list}"));
        format!("{{{s}{}{s}}}", keys.join(","))
    })
}

/// Up to three edits at random places: a byte deleted or one of JSON's own inserted.
fn mutated() -> impl Strategy<Value = String> {
    (scenario(), prop::collection::vec((any::<prop::sample::Index>(), 0..14usize), 0..4)).prop_map(
        |(mut t, edits)| {
            for (at, what) in edits {
                let mut i = at.index(t.len() + 1);
                while !t.is_char_boundary(i) {
                    i -= 1;
                }
                match what {
                    0 if i < t.len() => {
                        t.remove(i);
                    }
                    _ => t.insert(i, "{}[],:\"\\ 0-.e\u{1}9".chars().nth(what).unwrap_or('x')),
                }
            }
            t
        },
    )
}

/// `parse_scenario_pieces` of `text` given `sizes[k]` bytes at the `k`-th read (cycling).
fn in_pieces(text: &str, sizes: &[usize]) -> Option<Result<Scenario, Problem>> {
    let (mut at, mut k) = (0, 0);
    let read = |buf: &mut [u8]| -> Result<usize, ()> {
        let n = sizes[k % sizes.len()].min(buf.len()).min(text.len() - at);
        buf[..n].copy_from_slice(&text.as_bytes()[at..at + n]);
        (at, k) = (at + n, k + 1);
        Ok(n)
    };
    parse_scenario_pieces(read).unwrap()
}

fn sizes() -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(1..40usize, 1..6)
}

/// The fast reader, whole and in pieces of `sizes`, against serde alone.
fn same_as_serde(text: &str, sizes: &[usize]) -> Result<(), TestCaseError> {
    let serde = parse_scenario_serde(text);
    prop_assert_eq!(&parse_scenario(text), &serde, "{}", text);
    if let Some(read) = in_pieces(text, sizes) {
        prop_assert_eq!(read, serde, "{} in pieces of {:?}", text, sizes);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(2048), ..ProptestConfig::default() })]

    #[test]
    fn the_fast_reader_gives_what_serde_gives(text in scenario(), sizes in sizes()) {
        same_as_serde(&text, &sizes)?;
    }

    #[test]
    fn the_fast_reader_gives_what_serde_gives_on_cut_and_spliced_text(text in mutated(), sizes in sizes()) {
        same_as_serde(&text, &sizes)?;
    }
}
