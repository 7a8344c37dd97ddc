//! A scenario's `workload` section as written: generator settings per share (arrival rate,
//! instance types, sizes, priorities, checkpoint and retry mixes, a duration distribution). Its
//! expansion into jobs is [`crate::workload`].

use alloc::string::String;
use alloc::vec::Vec;

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// A scenario's `workload` section: jobs described by generator settings.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", deny_unknown_fields))]
pub struct Workload {
    /// `seed`: the seed of every draw, 0 to 2^53 - 1; `seed`, `seed + 1`, ... are replicates.
    #[cfg_attr(feature = "serde", serde(default))]
    pub seed: i64,
    /// `jobs`: jobs in all, split over the entries without their own `jobs` by `weight`.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub jobs: Option<i64>,
    /// `loadPercent`: offered load, as a percentage of the capacity shares own, for entries
    /// without an `arrivalsPerHour`.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub load_percent: Option<f64>,
    /// `startAt`: when arrivals start, in seconds (default 0).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "is_zero"))]
    pub start_at: i64,
    /// `shares`: one entry per quota share that submits work.
    pub shares: Vec<ShareWorkload>,
}

#[cfg(feature = "serde")]
fn is_zero(v: &i64) -> bool {
    *v == 0
}

/// What one quota share submits.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", deny_unknown_fields))]
pub struct ShareWorkload {
    /// `quotaShareName`: the share that submits the jobs; it must exist, with one entry per share.
    pub quota_share_name: String,
    /// `weight`: its part of `workload.jobs` (default 1).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub weight: Option<i64>,
    /// `jobs`: its number of jobs, instead of a part of `workload.jobs`.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub jobs: Option<i64>,
    /// `arrivalsPerHour`: mean arrivals per hour (Poisson), instead of `workload.loadPercent`;
    /// one rate, or 24, one per hour of the day.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub arrivals_per_hour: Option<ArrivalRate>,
    /// `instanceTypes`: instance types to draw from, by weight.
    pub instance_types: Vec<WeightedType>,
    /// `sizes`: instance counts to draw from, by weight (default: 1 instance). A count above the
    /// share's quota of the drawn type is lowered to that quota.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Vec::is_empty"))]
    pub sizes: Vec<WeightedSize>,
    /// `duration`: how long the jobs train.
    pub duration: DurationSpec,
    /// `priorities`: priorities to draw from, by weight (default: 0).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Vec::is_empty"))]
    pub priorities: Vec<WeightedPriority>,
    /// `checkpoint`: which jobs checkpoint, and how often in seconds (default: none).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub checkpoint: Option<PercentOf>,
    /// `preemptionRetries`: which jobs set `preemptionRetriesBeforeTermination`, and to what
    /// (default: none).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub preemption_retries: Option<PercentOf>,
}

/// `arrivalsPerHour`: a number, or a list of 24 numbers.
#[derive(Clone, Debug, PartialEq)]
pub enum ArrivalRate {
    /// Mean arrivals per hour, every hour.
    Flat(f64),
    /// Mean arrivals per hour in each hour of the day, from 00:00 (UTC from
    /// `settings.originEpochMs`, else from time 0): 24 of them.
    ByHour(Vec<f64>),
}

#[cfg(feature = "serde")]
impl Serialize for ArrivalRate {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            ArrivalRate::Flat(r) => s.serialize_f64(*r),
            ArrivalRate::ByHour(v) => v.serialize(s),
        }
    }
}

#[cfg(feature = "serde")]
impl<'de> Deserialize<'de> for ArrivalRate {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = ArrivalRate;
            fn expecting(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
                f.write_str("a number of arrivals per hour, or a list of 24, one per hour of the day")
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<ArrivalRate, E> {
                Ok(ArrivalRate::Flat(v))
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<ArrivalRate, E> {
                Ok(ArrivalRate::Flat(v as f64))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<ArrivalRate, E> {
                Ok(ArrivalRate::Flat(v as f64))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut a: A) -> Result<ArrivalRate, A::Error> {
                let mut out = Vec::new();
                while let Some(x) = a.next_element::<f64>()? {
                    out.push(x);
                }
                Ok(ArrivalRate::ByHour(out))
            }
        }
        d.deserialize_any(V)
    }
}

/// `{name, weight}`.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", deny_unknown_fields))]
pub struct WeightedType {
    /// `name`: an instance type of the scenario.
    pub name: String,
    /// `weight`: its relative chance, 0 to 1,000,000 (default 1).
    #[cfg_attr(feature = "serde", serde(default = "one"))]
    pub weight: i64,
}

/// `{instances, weight}`.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", deny_unknown_fields))]
pub struct WeightedSize {
    /// `instances`: an instance count, at least 1.
    pub instances: i64,
    /// `weight`: its relative chance, 0 to 1,000,000 (default 1).
    #[cfg_attr(feature = "serde", serde(default = "one"))]
    pub weight: i64,
}

/// `{priority, weight}`.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", deny_unknown_fields))]
pub struct WeightedPriority {
    /// `priority`: a `schedulingPriority`, 0 to 9999.
    pub priority: i64,
    /// `weight`: its relative chance, 0 to 1,000,000 (default 1).
    #[cfg_attr(feature = "serde", serde(default = "one"))]
    pub weight: i64,
}

#[cfg(feature = "serde")]
fn one() -> i64 {
    1
}

/// `percent` of the jobs take one of `values`, drawn uniformly.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", deny_unknown_fields))]
pub struct PercentOf {
    /// `percent`: the percentage of jobs that get a value, 0 to 100.
    pub percent: i64,
    /// `values`: the values drawn from (`checkpointIntervalSeconds` at least 1, retries at least
    /// 0).
    pub values: Vec<i64>,
}

/// How long jobs train, seconds.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", deny_unknown_fields))]
pub struct DurationSpec {
    /// `distribution`: the distribution drawn from.
    pub distribution: Distribution,
    /// `minSeconds`: the shortest duration, at least 1 (the scale of `pareto`).
    pub min_seconds: i64,
    /// `maxSeconds`: the longest duration, at least `minSeconds`.
    pub max_seconds: i64,
    /// `values`: with `empirical`, the durations drawn from (uniformly, each within
    /// `minSeconds..=maxSeconds`).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Vec::is_empty"))]
    pub values: Vec<i64>,
}

/// A duration distribution; every draw is clamped to `minSeconds..=maxSeconds`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Distribution {
    /// Always `minSeconds`.
    Fixed,
    /// Uniform between `minSeconds` and `maxSeconds`.
    Uniform,
    /// Exponential with the mean of `minSeconds` and `maxSeconds`.
    Exponential,
    /// Heavy-tailed: Pareto with shape 1.5 and scale `minSeconds`.
    Pareto,
    /// One of `values`, uniformly (an observed sample, as `fit-workload` writes it).
    Empirical,
}

impl DurationSpec {
    /// A duration longer than `trained` seconds, drawn by `u` in (0, 1] from the distribution
    /// conditioned on that (as a forecast draws a running job's), clamped like the generator's
    /// draws; `None` when no duration of the spec is longer (`trained` at `maxSeconds` or
    /// beyond). With `trained` below `minSeconds` the draw is unconditioned. Survival-based:
    /// `u` is the chance of lasting longer, so the draw is monotone in `u`.
    pub fn draw_beyond(&self, trained: u64, u: f64) -> Option<u64> {
        let (lo, hi) = (self.min_seconds.max(1) as f64, self.max_seconds.max(self.min_seconds.max(1)) as f64);
        if trained as f64 >= hi {
            return None;
        }
        if self.distribution == Distribution::Empirical {
            // The values longer than `trained`, shortest first; a larger `u` a shorter one.
            let mut beyond: Vec<u64> =
                self.values.iter().filter_map(|&v| u64::try_from(v).ok()).filter(|&v| v > trained).collect();
            if beyond.is_empty() {
                return None;
            }
            beyond.sort_unstable();
            let k = ((1.0 - u.clamp(0.0, 1.0)) * beyond.len() as f64) as usize;
            return Some(beyond[k.min(beyond.len() - 1)]);
        }
        // The chance of lasting at least `x` seconds (before clamping) and its inverse.
        let survival = |x: f64| -> f64 {
            match self.distribution {
                Distribution::Fixed => f64::from(u8::from(x <= lo)),
                Distribution::Uniform if hi > lo => ((hi - x) / (hi - lo)).clamp(0.0, 1.0),
                Distribution::Uniform => f64::from(u8::from(x <= lo)),
                Distribution::Exponential => libm::exp(-x.max(0.0) / ((lo + hi) / 2.0)),
                Distribution::Pareto if x <= lo => 1.0,
                Distribution::Pareto => libm::pow(lo / x, 1.5),
                Distribution::Empirical => 0.0,
            }
        };
        let inverse = |s: f64| -> f64 {
            match self.distribution {
                Distribution::Fixed => lo,
                Distribution::Uniform => hi - s * (hi - lo),
                Distribution::Exponential => -libm::log(s) * (lo + hi) / 2.0,
                Distribution::Pareto => lo / libm::pow(s, 1.0 / 1.5),
                Distribution::Empirical => lo,
            }
        };
        // Whole seconds as the generator truncates them: longer than `trained` means at
        // least `trained + 1` before truncation.
        let floor = trained as f64 + 1.0;
        let s = if floor <= lo {
            u
        } else {
            let beyond = survival(floor);
            if beyond <= 0.0 {
                return None;
            }
            u * beyond
        };
        let x = inverse(s.clamp(0.0, 1.0));
        let d = if x.is_nan() { lo } else { x.clamp(lo, hi) };
        Some((d as u64).max(trained + 1).min(hi as u64))
    }
}

impl Distribution {
    /// Every distribution with its spelling in the format.
    pub const ALL: [(Distribution, &'static str); 5] = [
        (Distribution::Fixed, "fixed"),
        (Distribution::Uniform, "uniform"),
        (Distribution::Exponential, "exponential"),
        (Distribution::Pareto, "pareto"),
        (Distribution::Empirical, "empirical"),
    ];
}
