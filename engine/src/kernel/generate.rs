//! Deterministic synthetic workloads (`quotasim generate`).
//!
//! Poisson arrivals per share, heavy-tailed (Pareto) durations, mixed instance counts,
//! priorities and checkpoint intervals. The same options always give the same scenario, on
//! every platform: the PRNG is SplitMix64 and the only floating point (`libm`'s `log` and
//! `pow`, pure Rust) is used to draw numbers, never in a simulation decision.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::model::*;
use crate::workload::{
    Distribution, DurationSpec, PercentOf, ShareWorkload, WeightedPriority, WeightedSize, WeightedType,
    Workload,
};

/// What to generate. [`GenerateOptions::new`] gives the documented defaults.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", deny_unknown_fields, default))]
pub struct GenerateOptions {
    /// Jobs to generate, at most `MAX_JOBS`.
    pub jobs: u64,
    /// Quota shares, 1 to 20, named `team-00`, `team-01`, ...
    pub shares: u32,
    /// Instance types, 1 to 5, taken in order from a fixed list of GPU types.
    pub instance_types: u32,
    /// The workload's `seed`, 0 to 2^53 - 1; the quotas are drawn from a stream of their own
    /// derived from it.
    pub seed: u64,
    /// Offered load as a percentage of the capacity owned by shares (100 = exactly full).
    pub load_percent: u32,
    /// Percentage of jobs that checkpoint.
    pub checkpoint_percent: u32,
    /// Smallest duration (the Pareto scale), seconds.
    pub min_duration_seconds: u64,
    /// Longest duration, seconds.
    pub max_duration_seconds: u64,
}

impl Default for GenerateOptions {
    fn default() -> Self {
        GenerateOptions::new(1000, 4, 2, 1)
    }
}

impl GenerateOptions {
    /// Options for `jobs` jobs over `shares` shares and `instance_types` types, drawn with `seed`;
    /// the rest at their defaults (95% offered load, 80% of jobs checkpointing, durations from
    /// 10 minutes to 3 days).
    pub fn new(jobs: u64, shares: u32, instance_types: u32, seed: u64) -> Self {
        GenerateOptions {
            jobs,
            shares,
            instance_types,
            seed,
            load_percent: 95,
            checkpoint_percent: 80,
            min_duration_seconds: 600,
            max_duration_seconds: 3 * 86_400,
        }
    }

    /// The benchmark workload of `jobs` jobs (`quotasim bench`, the wasm benchmark and the
    /// README's figures): 20 quota shares, 5 instance types, seed 42, and the defaults of
    /// [`GenerateOptions::new`] (95% offered load, 80% of jobs checkpointing, Pareto(1.5)
    /// durations from 10 minutes to 3 days). Shares alternate `LEND_AND_BORROW` (half of
    /// them, two with a borrow limit), `LEND` (a third) and `RESERVE`; in-share preemption
    /// is on for every other share.
    pub fn benchmark(jobs: u64) -> Self {
        GenerateOptions::new(jobs, 20, 5, 42)
    }

    /// Problems with the options, as `(option, message)`.
    pub fn check(&self) -> Result<(), (&'static str, String)> {
        if !(1..=20).contains(&self.shares) {
            return Err(("shares", format!("must be 1 to 20, not {}", self.shares)));
        }
        if !(1..=5).contains(&self.instance_types) {
            return Err(("instanceTypes", format!("must be 1 to 5, not {}", self.instance_types)));
        }
        if self.jobs > crate::limits::MAX_JOBS as u64 {
            return Err((
                "jobs",
                format!(
                    "must be at most {} (the most a scenario may have), not {}",
                    crate::limits::MAX_JOBS,
                    self.jobs
                ),
            ));
        }
        if self.seed > crate::limits::MAX_SAFE as u64 {
            return Err(("seed", format!("must be at most 2^53 - 1, not {}", self.seed)));
        }
        if self.load_percent == 0 || self.load_percent > 1000 {
            return Err(("loadPercent", format!("must be 1 to 1000, not {}", self.load_percent)));
        }
        if self.checkpoint_percent > 100 {
            return Err(("checkpointPercent", format!("must be 0 to 100, not {}", self.checkpoint_percent)));
        }
        if self.min_duration_seconds == 0 || self.max_duration_seconds < self.min_duration_seconds {
            return Err((
                "minDurationSeconds",
                String::from("must be at least 1 and at most maxDurationSeconds"),
            ));
        }
        Ok(())
    }
}

pub use crate::rng::Rng;

const TYPES: [(&str, i64); 5] = [
    ("ml.p5.48xlarge", 8),
    ("ml.p4d.24xlarge", 8),
    ("ml.g5.48xlarge", 8),
    ("ml.g6e.48xlarge", 8),
    ("ml.trn1.32xlarge", 16),
];

/// The strategy of share `i`: half `LEND_AND_BORROW`, a third `LEND`, a sixth `RESERVE`.
fn strategy_of(i: u32) -> (Strategy, Option<i64>) {
    match i % 6 {
        0 => (Strategy::LendAndBorrow, None),
        3 => (Strategy::LendAndBorrow, Some(100)),
        5 => (Strategy::LendAndBorrow, Some(200)),
        1 | 4 => (Strategy::Lend, None),
        _ => (Strategy::Reserve, None),
    }
}

/// Generates a scenario with its jobs listed: [`generate_workload`] expanded.
pub fn generate(o: &GenerateOptions) -> Scenario {
    let w = generate_workload(o);
    let mut s = crate::workload::expanded(&w).unwrap_or(w);
    s.workload = None;
    s
}

/// Generates a scenario whose jobs are a `workload` section (`quotasim generate --workload`):
/// the same jobs as [`generate`] once expanded, and a seed to re-generate them with. The
/// options must pass [`GenerateOptions::check`]; out-of-range values are clamped rather
/// than panicking.
pub fn generate_workload(o: &GenerateOptions) -> Scenario {
    let shares_n = o.shares.clamp(1, 20);
    let types_n = o.instance_types.clamp(1, 5) as usize;
    // Quota sizes come from their own stream, so the jobs depend on the workload's seed alone.
    let mut rng = Rng::new(!o.seed);
    let types: Vec<(&str, i64)> = TYPES[..types_n].to_vec();

    // Quota shares: one or two instance types each, sizes 4..=31 instances.
    let mut quota_shares = Vec::new();
    let mut entries = Vec::new();
    let mut totals = alloc::vec![0i64; types_n];
    for i in 0..shares_n {
        let mut limits = Vec::new();
        let first = i as usize % types_n;
        let mut picks = alloc::vec![first];
        if i % 2 == 0 && types_n > 1 {
            picks.push((first + 1) % types_n);
        }
        for &t in &picks {
            let q = 4 + rng.below(28) as i64;
            totals[t] += q;
            limits.push(CapacityLimit::new(types[t].0, q));
        }
        let (strategy, borrow_limit) = strategy_of(i);
        let name = format!("team-{i:02}");
        let mut qs = QuotaShare::new(&name, strategy, limits);
        qs.resource_sharing_configuration.borrow_limit = borrow_limit;
        if i % 2 == 0 {
            qs.preemption_configuration.in_share_preemption = Toggle::Enabled;
        }
        quota_shares.push(qs);
        // Shares get uneven parts of the workload (weights 1..4), so some borrow.
        entries.push(ShareWorkload {
            quota_share_name: name,
            weight: Some(1 + (i as i64 * 7 + 3) % 4),
            jobs: None,
            arrivals_per_hour: None,
            instance_types: picks
                .iter()
                .map(|&t| WeightedType { name: types[t].0.into(), weight: 1 })
                .collect(),
            sizes: [(1, 10), (2, 5), (4, 3), (8, 2)]
                .iter()
                .map(|&(instances, weight)| WeightedSize { instances, weight })
                .collect(),
            duration: DurationSpec {
                distribution: Distribution::Pareto,
                min_seconds: o.min_duration_seconds as i64,
                max_seconds: o.max_duration_seconds as i64,
                values: Vec::new(),
            },
            priorities: [(0, 6), (10, 2), (50, 1), (100, 1)]
                .iter()
                .map(|&(priority, weight)| WeightedPriority { priority, weight })
                .collect(),
            checkpoint: Some(PercentOf {
                percent: o.checkpoint_percent as i64,
                values: alloc::vec![600, 900, 1800],
            }),
            preemption_retries: Some(PercentOf { percent: 10, values: alloc::vec![0, 1, 2] }),
        });
    }

    Scenario {
        format_version: 1,
        name: Some(format!(
            "generated: {} jobs, {} shares, {} types, seed {}",
            o.jobs, shares_n, types_n, o.seed
        )),
        description: Some(String::from(
            "Synthetic workload from quotasim generate: Poisson arrivals per share, Pareto(1.5) durations, \
             mixed instance counts, priorities and checkpoint intervals.",
        )),
        settings: Settings::default(),
        instance_types: types
            .iter()
            .map(|(n, g)| InstanceTypeInfo { name: String::from(*n), gpus: *g, price_per_hour: None })
            .collect(),
        service_environment: ServiceEnvironment {
            service_environment_name: Some(String::from("generated-se")),
            capacity_limits: (0..types_n).map(|t| CapacityLimit::new(types[t].0, totals[t])).collect(),
            ..ServiceEnvironment::default()
        },
        scheduling_policy: None,
        quota_shares,
        workload: Some(Workload {
            seed: o.seed.min(crate::limits::MAX_SAFE as u64) as i64,
            jobs: Some(o.jobs.min(crate::limits::MAX_JOBS as u64) as i64),
            load_percent: Some(o.load_percent as f64),
            start_at: 0,
            shares: entries,
        }),
        jobs: Vec::new(),
        actions: Vec::new(),
        history: Vec::new(),
    }
}
