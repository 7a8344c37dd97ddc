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

/// What to generate. [`GenerateOptions::new`] gives the documented defaults.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", deny_unknown_fields, default))]
pub struct GenerateOptions {
    pub jobs: u64,
    pub shares: u32,
    pub instance_types: u32,
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
        if self.jobs > crate::validate::MAX_JOBS as u64 {
            return Err((
                "jobs",
                format!(
                    "must be at most {} (the most a scenario may have), not {}",
                    crate::validate::MAX_JOBS,
                    self.jobs
                ),
            ));
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

/// SplitMix64: small, fast, and the same on every platform.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }
    /// Uniform in (0, 1].
    pub fn unit(&mut self) -> f64 {
        ((self.next_u64() >> 11) + 1) as f64 / (1u64 << 53) as f64
    }
    /// Exponential with the given mean.
    pub fn exp(&mut self, mean: f64) -> f64 {
        -libm::log(self.unit()) * mean
    }
    /// Pareto with shape `alpha` and scale `xm`.
    pub fn pareto(&mut self, alpha: f64, xm: f64) -> f64 {
        xm / libm::pow(self.unit(), 1.0 / alpha)
    }
}

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

/// Generates a scenario. The options must pass [`GenerateOptions::check`]; out-of-range
/// values are clamped rather than panicking.
pub fn generate(o: &GenerateOptions) -> Scenario {
    let shares_n = o.shares.clamp(1, 20);
    let types_n = o.instance_types.clamp(1, 5) as usize;
    let mut rng = Rng::new(o.seed);
    let types: Vec<(&str, i64)> = TYPES[..types_n].to_vec();

    // Quota shares: one or two instance types each, sizes 4..=31 instances.
    let mut quota_shares = Vec::new();
    let mut share_types: Vec<Vec<(usize, i64)>> = Vec::new();
    let mut totals = alloc::vec![0i64; types_n];
    for i in 0..shares_n {
        let mut limits = Vec::new();
        let mut st = Vec::new();
        let first = i as usize % types_n;
        let mut picks = alloc::vec![first];
        if i % 2 == 0 && types_n > 1 {
            picks.push((first + 1) % types_n);
        }
        for t in picks {
            let q = 4 + rng.below(28) as i64;
            totals[t] += q;
            limits.push(CapacityLimit::new(types[t].0, q));
            st.push((t, q));
        }
        let (strategy, borrow_limit) = strategy_of(i);
        let mut qs = QuotaShare::new(&format!("team-{i:02}"), strategy, limits);
        qs.resource_sharing_configuration.borrow_limit = borrow_limit;
        if i % 2 == 0 {
            qs.preemption_configuration.in_share_preemption = Toggle::Enabled;
        }
        quota_shares.push(qs);
        share_types.push(st);
    }
    let capacity: i64 = totals.iter().sum();

    // Jobs: shares get uneven parts of the workload (weights 1..4), so some borrow.
    let weights: Vec<u64> = (0..shares_n).map(|i| 1 + (i as u64 * 7 + 3) % 4).collect();
    let wsum: u64 = weights.iter().sum();
    let mut per_share: Vec<u64> = weights.iter().map(|w| o.jobs * w / wsum).collect();
    let assigned: u64 = per_share.iter().sum();
    for k in 0..(o.jobs - assigned) as usize {
        per_share[k % shares_n as usize] += 1;
    }
    struct Draft {
        share: u32,
        ty: usize,
        count: i64,
        duration: i64,
        priority: i64,
        checkpoint: Option<i64>,
        retries: Option<i64>,
    }
    let mut drafts: Vec<Draft> = Vec::with_capacity(o.jobs as usize);
    let mut work: Vec<f64> = alloc::vec![0.0; shares_n as usize];
    for (s, &n) in per_share.iter().enumerate() {
        for _ in 0..n {
            let st = &share_types[s];
            let (ty, q) = st[rng.below(st.len() as u64) as usize];
            let count = match rng.below(20) {
                0..=9 => 1,
                10..=14 => 2,
                15..=17 => 4,
                _ => 8,
            }
            .min(q);
            let d = rng.pareto(1.5, o.min_duration_seconds as f64);
            let duration = (d as i64).clamp(o.min_duration_seconds as i64, o.max_duration_seconds as i64);
            let priority = match rng.below(10) {
                0..=5 => 0,
                6..=7 => 10,
                8 => 50,
                _ => 100,
            };
            let checkpoint = if rng.below(100) < o.checkpoint_percent as u64 {
                Some([600, 900, 1800][rng.below(3) as usize])
            } else {
                None
            };
            let retries = if rng.below(10) == 0 { Some(rng.below(3) as i64) } else { None };
            work[s] += (count * duration) as f64;
            drafts.push(Draft { share: s as u32, ty, count, duration, priority, checkpoint, retries });
        }
    }
    // The arrival window that gives the requested load over the capacity shares own.
    let total_work: f64 = work.iter().sum();
    let span = total_work / (capacity.max(1) as f64 * o.load_percent as f64 / 100.0);
    let mut jobs = Vec::with_capacity(drafts.len());
    let mut clocks: Vec<f64> = alloc::vec![0.0; shares_n as usize];
    let mut next_idx: Vec<u64> = alloc::vec![0; shares_n as usize];
    for d in drafts {
        let s = d.share as usize;
        let mean_gap = span / per_share[s].max(1) as f64;
        clocks[s] += rng.exp(mean_gap);
        let idx = next_idx[s];
        next_idx[s] += 1;
        let mut j = Job::new(
            &format!("team-{s:02}-{idx:07}"),
            &quota_shares[s].quota_share_name,
            types[d.ty].0,
            d.count,
            clocks[s] as i64,
            d.duration,
        );
        j.scheduling_priority = d.priority;
        j.checkpoint_interval_seconds = d.checkpoint;
        if let Some(r) = d.retries {
            j.preemption_configuration =
                Some(JobPreemption { preemption_retries_before_termination: Some(r) });
        }
        jobs.push(j);
    }
    // Jobs in submission order, as a real queue would see them.
    jobs.sort_by(|a, b| a.submit_at.cmp(&b.submit_at).then_with(|| a.job_name.cmp(&b.job_name)));

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
        jobs,
        actions: Vec::new(),
    }
}
