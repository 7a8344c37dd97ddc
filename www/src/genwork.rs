//! The per-share workload generator of the jobs editor: Poisson arrivals and a chosen
//! duration distribution, deterministic for a seed.

use quotasim::generate::Rng;
use quotasim::model::{Job, JobPreemption, Scenario};

use std::collections::HashSet;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Distribution {
    Fixed,
    Uniform,
    Exponential,
    /// Heavy-tailed, shape 1.5, scale `min`.
    Pareto,
}

impl Distribution {
    pub const ALL: [(Distribution, &'static str); 4] = [
        (Distribution::Fixed, "fixed (min)"),
        (Distribution::Uniform, "uniform min..max"),
        (Distribution::Exponential, "exponential (mean of min, max)"),
        (Distribution::Pareto, "heavy-tailed (Pareto 1.5)"),
    ];
}

/// What to generate for one share.
#[derive(Clone, Debug, PartialEq)]
pub struct WorkloadSpec {
    pub share: String,
    pub instance_type: String,
    pub count: u32,
    /// Mean arrivals per hour.
    pub per_hour: f64,
    pub start_at: u64,
    pub distribution: Distribution,
    pub min_seconds: u64,
    pub max_seconds: u64,
    /// Instance counts to pick from uniformly.
    pub instance_counts: Vec<i64>,
    /// Priorities to pick from uniformly.
    pub priorities: Vec<i64>,
    /// 0: no checkpoints.
    pub checkpoint_seconds: u64,
    pub retries: Option<i64>,
    pub seed: u64,
}

/// Parses `"1, 2,4"` into numbers; anything unparsable is an error naming it.
pub fn parse_list(text: &str) -> Result<Vec<i64>, String> {
    let v: Result<Vec<i64>, String> = text
        .split(',')
        .map(str::trim)
        .filter(|x| !x.is_empty())
        .map(|x| x.parse::<i64>().map_err(|_| format!("'{x}' is not a whole number")))
        .collect();
    match v {
        Ok(v) if v.is_empty() => Err(String::from("give at least one number")),
        other => other,
    }
}

/// Problems with a spec, as a message.
pub fn check(spec: &WorkloadSpec) -> Result<(), String> {
    if spec.count == 0 || spec.count > 20_000 {
        return Err(String::from("count must be 1 to 20000"));
    }
    if !(spec.per_hour > 0.0 && spec.per_hour.is_finite()) {
        return Err(String::from("the arrival rate must be above 0 per hour"));
    }
    if spec.min_seconds == 0 || spec.max_seconds < spec.min_seconds {
        return Err(String::from("durations need 1 <= min <= max seconds"));
    }
    if spec.instance_counts.iter().any(|&c| c < 1) {
        return Err(String::from("instance counts must be at least 1"));
    }
    if spec.priorities.iter().any(|&p| !(0..=9999).contains(&p)) {
        return Err(String::from("priorities must be 0 to 9999"));
    }
    Ok(())
}

/// The jobs a spec describes, named `<share>-<seed>-<n>` and unique in `s`.
pub fn generate(s: &Scenario, spec: &WorkloadSpec) -> Vec<Job> {
    let mut rng = Rng::new(spec.seed);
    let mut t = spec.start_at as f64;
    let mean_gap = 3600.0 / spec.per_hour.max(1e-6);
    let counts = if spec.instance_counts.is_empty() { vec![1] } else { spec.instance_counts.clone() };
    let prios = if spec.priorities.is_empty() { vec![0] } else { spec.priorities.clone() };
    let (lo, hi) = (spec.min_seconds.max(1) as f64, spec.max_seconds.max(spec.min_seconds).max(1) as f64);
    let mut taken: HashSet<String> = s.jobs.iter().map(|j| j.job_name.clone()).collect();
    let mut out = Vec::with_capacity(spec.count as usize);
    for k in 0..spec.count {
        if k > 0 {
            t += rng.exp(mean_gap);
        }
        let d = match spec.distribution {
            Distribution::Fixed => lo,
            Distribution::Uniform => lo + (hi - lo) * rng.unit(),
            Distribution::Exponential => rng.exp((lo + hi) / 2.0),
            Distribution::Pareto => rng.pareto(1.5, lo),
        };
        let duration = (d as i64).clamp(lo as i64, hi as i64);
        let count = counts[rng.below(counts.len() as u64) as usize];
        let prio = prios[rng.below(prios.len() as u64) as usize];
        let base = format!("{}-{}-{k:04}", spec.share, spec.seed);
        let name = if taken.contains(&base) {
            (2..).map(|n| format!("{base}-{n}")).find(|n| !taken.contains(n)).unwrap_or(base)
        } else {
            base
        };
        taken.insert(name.clone());
        let mut j = Job::new(&name, &spec.share, &spec.instance_type, count, t as i64, duration);
        j.scheduling_priority = prio;
        if spec.checkpoint_seconds > 0 {
            j.checkpoint_interval_seconds = Some(spec.checkpoint_seconds as i64);
        }
        if let Some(r) = spec.retries {
            j.preemption_configuration =
                Some(JobPreemption { preemption_retries_before_termination: Some(r) });
        }
        out.push(j);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets;

    fn spec() -> WorkloadSpec {
        WorkloadSpec {
            share: "qs2".into(),
            instance_type: "ml.g5.xlarge".into(),
            count: 50,
            per_hour: 6.0,
            start_at: 100,
            distribution: Distribution::Pareto,
            min_seconds: 600,
            max_seconds: 7200,
            instance_counts: vec![1],
            priorities: vec![0, 5],
            checkpoint_seconds: 300,
            retries: None,
            seed: 7,
        }
    }

    #[test]
    fn generated_jobs_are_valid_and_deterministic() {
        let mut s = presets::scenario(presets::NOTEBOOK).unwrap();
        let a = generate(&s, &spec());
        assert_eq!(a, generate(&s, &spec()));
        assert_eq!(a.len(), 50);
        assert_eq!(a[0].submit_at, 100);
        assert!(a.windows(2).all(|w| w[0].submit_at <= w[1].submit_at));
        assert!(a.iter().all(|j| (600..=7200).contains(&j.duration_seconds)));
        s.jobs.extend(a);
        assert!(quotasim::validate(&s).is_ok());
    }

    #[test]
    fn lists_and_specs_are_checked() {
        assert_eq!(parse_list("1, 2,4").unwrap(), vec![1, 2, 4]);
        assert!(parse_list("1,x").is_err());
        assert!(parse_list(" ").is_err());
        let mut s = spec();
        s.max_seconds = 1;
        assert!(check(&s).is_err());
        assert!(check(&spec()).is_ok());
    }
}
