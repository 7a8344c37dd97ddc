//! `quotasim bench`: times the simulation alone on generated workloads.

use std::process::ExitCode;
use std::time::Instant;

use quotasim::{generate, validate, GenerateOptions, Options, Simulation};

/// The benchmark workload of a given size: 20 shares, 5 instance types, fixed seed.
pub fn workload(jobs: u64) -> GenerateOptions {
    GenerateOptions::new(jobs, 20, 5, 42)
}

fn peak_rss_kib() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    s.lines().find(|l| l.starts_with("VmHWM:"))?.split_whitespace().nth(1)?.parse().ok()
}

fn current_rss_kib() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    s.lines().find(|l| l.starts_with("VmRSS:"))?.split_whitespace().nth(1)?.parse().ok()
}

pub fn run(sizes: &[u64], repeat: u32) -> ExitCode {
    println!(
        "{:>10} {:>10} {:>12} {:>14} {:>14} {:>12} {:>10}",
        "jobs", "events", "sim ms", "jobs/s", "events/s", "preempted", "MiB"
    );
    for &n in sizes {
        let scenario = generate(&workload(n));
        let valid = match validate(&scenario) {
            Ok(v) => v,
            Err(p) => {
                eprintln!("generated scenario is invalid: {:?}", p.first());
                return ExitCode::from(1);
            }
        };
        drop(scenario);
        let before = current_rss_kib().unwrap_or(0);
        let mut best = f64::MAX;
        let mut events = 0usize;
        let mut preempted = 0usize;
        for _ in 0..repeat {
            let v = valid.clone();
            let t0 = Instant::now();
            let mut sim = Simulation::with_options(
                v,
                Options {
                    record_events: std::env::var_os("QUOTASIM_BENCH_NO_EVENTS").is_none(),
                    exhaustive_passes: std::env::var_os("QUOTASIM_EXHAUSTIVE").is_some(),
                },
            );
            sim.run();
            let dt = t0.elapsed().as_secs_f64();
            best = best.min(dt);
            events = sim.event_count();
            let mut victims: Vec<u32> = sim.preemptions().iter().map(|p| p.victim).collect();
            victims.sort_unstable();
            victims.dedup();
            preempted = victims.len();
            eprintln!("{:?}", sim.stats());
        }
        let peak = peak_rss_kib().unwrap_or(0).saturating_sub(before);
        println!(
            "{:>10} {:>10} {:>12.1} {:>14.0} {:>14.0} {:>11.2}% {:>10.1}",
            n,
            events,
            best * 1e3,
            n as f64 / best,
            events as f64 / best,
            preempted as f64 * 100.0 / n.max(1) as f64,
            peak as f64 / 1024.0
        );
    }
    ExitCode::SUCCESS
}
