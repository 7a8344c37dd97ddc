//! Times the ways of reading a scenario file into the engine's types, the best of `ROUNDS`
//! (default 5) each: `quotasim-parse-bench FILE`.
//!
//! - `parse_scenario`: what every front end uses (the engine's fast reader for job lists of
//!   the usual shape, serde_json from a `&str` with the strict wrapper for the rest).
//! - `parse_scenario_serde`: the same by serde alone (what `parse_scenario` falls back to).
//! - serde_json from the bytes (`from_slice`), with and without the strict wrapper.
//! - simd-json's serde reader (`simd_json::serde::from_slice`) into the same types, and its
//!   tape alone (the lower bound of any reader built on it).
//! - serde_json into a `Value` (what reading through an intermediate tree costs).
//! - a scan of the bytes counting quotes (the memory-bandwidth floor).

use std::time::{Duration, Instant};

use quotasim::model::Scenario;
use serde::Deserialize;

fn best(rounds: u32, mut f: impl FnMut() -> Duration) -> Duration {
    (0..rounds).map(|_| f()).min().unwrap_or_default()
}

/// Times `f`, dropping its result outside the timing.
fn time<T>(f: impl FnOnce() -> T) -> Duration {
    let t0 = Instant::now();
    let v = f();
    let d = t0.elapsed();
    drop(v);
    d
}

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: quotasim-parse-bench FILE");
        std::process::exit(2);
    };
    let rounds: u32 = std::env::var("ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(5);
    let bytes = std::fs::read(&path).expect("the file is readable");
    let text = std::str::from_utf8(&bytes).expect("the file is UTF-8");
    let mb = bytes.len() as f64 / 1e6;
    let strict_slice = || {
        let mut de = serde_json::Deserializer::from_slice(&bytes);
        Scenario::deserialize(quotasim::strict::Strict(&mut de)).expect("a scenario")
    };
    let plain_slice = || {
        let mut de = serde_json::Deserializer::from_slice(&bytes);
        Scenario::deserialize(&mut de).expect("a scenario")
    };
    let rows: Vec<(&str, Duration)> = vec![
        (
            "parse_scenario (fast job list, serde_json for the rest)",
            best(rounds, || time(|| quotasim::json::parse_scenario(text).expect("a scenario"))),
        ),
        (
            "parse_scenario_serde (serde_json, &str, strict)",
            best(rounds, || time(|| quotasim::json::parse_scenario_serde(text).expect("a scenario"))),
        ),
        ("serde_json from bytes, strict", best(rounds, || time(strict_slice))),
        ("serde_json from bytes, not strict", best(rounds, || time(plain_slice))),
        (
            "simd-json serde reader",
            best(rounds, || {
                let mut copy = bytes.clone();
                time(|| simd_json::serde::from_slice::<Scenario>(&mut copy).expect("a scenario"))
            }),
        ),
        (
            "simd-json tape alone",
            best(rounds, || {
                let mut copy = bytes.clone();
                time(|| simd_json::to_tape(&mut copy).map(|t| t.0.len()).expect("JSON"))
            }),
        ),
        (
            "serde_json into a Value",
            best(rounds, || time(|| serde_json::from_slice::<serde_json::Value>(&bytes).expect("JSON"))),
        ),
        ("scan of the bytes", best(rounds, || time(|| bytes.iter().filter(|&&b| b == b'"').count()))),
    ];
    println!("{path}: {mb:.1} MB, best of {rounds}");
    println!("| reader | ms | MB/s |");
    println!("|---|---:|---:|");
    for (name, d) in rows {
        let ms = d.as_secs_f64() * 1e3;
        println!("| {name} | {ms:.0} | {:.0} |", mb / d.as_secs_f64());
    }
}
