//! Replicates: is a difference real? (`quotasim compare --replicates N`).
//!
//! One generated workload is one sample. Both sides of a comparison are run on N seeds of
//! their `workload` (`seed`, `seed + 1`, ...), paired by seed, and every summary number is
//! reported per share and overall as the median, min and max of A, of B and of the paired
//! delta (B - A), with how many seeds see it go up, down or stay the same. Every replicate
//! reproduces exactly from its seed.
//!
//! The median of an even number of values is the mean of the two middle ones.
//!
//! Replicates are run one seed at a time ([`run_seed`]): a seed's two sides are expanded,
//! validated, run and summarised in turn, so a caller holds at most one expanded scenario per
//! thread plus the summaries, however many seeds there are. The failure reported is that of
//! the first seed that fails, A before B ([`first_failure`]), whatever the thread count.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;
use serde_json::Value;

use crate::metric::leaves;
use crate::model::Scenario;
use crate::result::SummaryResult;
use crate::sim::{Options, Simulation};
use crate::validate::{validate, Problem};

/// `quotasim compare --replicates`'s JSON.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReplicateReport {
    /// `formatVersion`: the report format's version, 1.
    pub format_version: u32,
    /// The workload seeds, one per replicate, in order.
    pub seeds: Vec<i64>,
    /// The `--set` changes that made B from A, or `["second file"]`.
    pub changes: Vec<String>,
    /// What the two sides do not share (quota shares on one side only).
    pub differences: Vec<String>,
    /// Per quota share present on both sides, in A's order: metric path -> statistics (metrics
    /// in path order).
    #[serde(serialize_with = "ser_pairs")]
    pub per_quota_share: Vec<(String, BTreeMap<String, MetricStats>)>,
    /// `overall`: metric path -> statistics, for the overall summary (metrics in path order).
    pub overall: BTreeMap<String, MetricStats>,
}

/// Median, min and max of some numbers.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Spread {
    /// `median`: the middle value (the mean of the two middle ones for an even count).
    pub median: f64,
    /// `min`: the smallest value.
    pub min: f64,
    /// `max`: the largest value.
    pub max: f64,
}

/// One metric over the replicates.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MetricStats {
    /// `a`: A's values over the seeds; `null` when no seed gives one.
    pub a: Option<Spread>,
    /// `b`: B's values over the seeds; `null` when no seed gives one.
    pub b: Option<Spread>,
    /// Of the paired differences B - A.
    pub delta: Option<Spread>,
    /// Seeds where B is higher, lower, the same (seeds where either side has no value are
    /// left out).
    pub up: u32,
    /// `down`: seeds where B is lower than A.
    pub down: u32,
    /// `same`: seeds where B equals A.
    pub same: u32,
    /// How many seeds agree with the most common direction.
    pub agree: u32,
}

impl MetricStats {
    /// The direction every agreeing seed took, in words ([`direction`]).
    pub fn direction(&self, higher_is_better: Option<bool>) -> &'static str {
        direction(self.up, self.down, self.agree, higher_is_better)
    }
}

/// The direction every agreeing seed took, in words: `better` or `worse` when the metric has a
/// better direction (`higher_is_better`), else `up` or `down`; `same` when most seeds are the
/// same, or as many rose as fell.
pub fn direction(up: u32, down: u32, agree: u32, higher_is_better: Option<bool>) -> &'static str {
    let rose = up == agree && up > down;
    let fell = down == agree && down > up;
    match (rose, fell, higher_is_better) {
        (true, _, Some(true)) | (_, true, Some(false)) => "better",
        (true, _, Some(false)) | (_, true, Some(true)) => "worse",
        (true, _, None) => "up",
        (_, true, None) => "down",
        _ => "same",
    }
}

fn ser_pairs<S: serde::Serializer>(
    v: &[(String, BTreeMap<String, MetricStats>)],
    s: S,
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut m = s.serialize_map(Some(v.len()))?;
    for (k, x) in v {
        m.serialize_entry(k, x)?;
    }
    m.end()
}

/// Median, min and max; `None` for no values.
pub fn spread(values: &[f64]) -> Option<Spread> {
    if values.is_empty() {
        return None;
    }
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    let median = if n % 2 == 1 { v[n / 2] } else { (v[n / 2 - 1] + v[n / 2]) / 2.0 };
    Some(Spread { median, min: v[0], max: v[n - 1] })
}

/// Statistics of one metric from its per-seed values on each side.
pub fn stats(a: &[Option<f64>], b: &[Option<f64>]) -> MetricStats {
    let av: Vec<f64> = a.iter().flatten().copied().collect();
    let bv: Vec<f64> = b.iter().flatten().copied().collect();
    let d: Vec<f64> = a.iter().zip(b).filter_map(|(x, y)| Some((*y)? - (*x)?)).collect();
    let up = d.iter().filter(|x| **x > 0.0).count() as u32;
    let down = d.iter().filter(|x| **x < 0.0).count() as u32;
    let same = d.len() as u32 - up - down;
    MetricStats {
        a: spread(&av),
        b: spread(&bv),
        delta: spread(&d),
        up,
        down,
        same,
        agree: up.max(down).max(same),
    }
}

fn table(
    names: &[&str],
    a: &[Vec<(String, Option<f64>)>],
    b: &[Vec<(String, Option<f64>)>],
) -> BTreeMap<String, MetricStats> {
    let mut out = BTreeMap::new();
    for (k, path) in names.iter().enumerate() {
        let col = |side: &[Vec<(String, Option<f64>)>]| -> Vec<Option<f64>> {
            side.iter()
                .map(|leaves| match leaves.get(k) {
                    Some((p, v)) if p == path => *v,
                    _ => leaves.iter().find(|(p, _)| p == path).and_then(|(_, v)| *v),
                })
                .collect()
        };
        let s = stats(&col(a), &col(b));
        out.insert(String::from(*path), s);
    }
    out
}

/// The report of `pairs` (A's and B's summary per seed, in seed order).
pub fn report(
    seeds: Vec<i64>,
    pairs: &[(SummaryResult, SummaryResult)],
    changes: Vec<String>,
) -> ReplicateReport {
    let mut differences = Vec::new();
    let mut per_quota_share = Vec::new();
    if let Some((a0, b0)) = pairs.first() {
        for (name, _) in &a0.summary.per_quota_share {
            if !b0.summary.per_quota_share.iter().any(|(n, _)| n == name) {
                differences.push(format!("quota share {name} is only in A"));
                continue;
            }
            let side = |pick: &dyn Fn(&(SummaryResult, SummaryResult)) -> &SummaryResult| -> Vec<Vec<(String, Option<f64>)>> {
                pairs
                    .iter()
                    .map(|p| {
                        let s = pick(p);
                        s.summary
                            .per_quota_share
                            .iter()
                            .find(|(n, _)| n == name)
                            .map(|(_, m)| leaves(&serde_json::to_value(m).unwrap_or(Value::Null)))
                            .unwrap_or_default()
                    })
                    .collect()
            };
            let (a, b) = (side(&|p| &p.0), side(&|p| &p.1));
            let names: Vec<&str> = a[0].iter().map(|(p, _)| p.as_str()).collect();
            per_quota_share.push((name.clone(), table(&names, &a, &b)));
        }
        for (name, _) in &b0.summary.per_quota_share {
            if !a0.summary.per_quota_share.iter().any(|(n, _)| n == name) {
                differences.push(format!("quota share {name} is only in B"));
            }
        }
    }
    let overall = {
        let side = |first: bool| -> Vec<Vec<(String, Option<f64>)>> {
            pairs
                .iter()
                .map(|p| {
                    let s = if first { &p.0 } else { &p.1 };
                    leaves(&serde_json::to_value(&s.summary.overall).unwrap_or(Value::Null))
                })
                .collect()
        };
        let (a, b) = (side(true), side(false));
        match a.first() {
            Some(first) => {
                let names: Vec<&str> = first.iter().map(|(p, _)| p.as_str()).collect();
                table(&names, &a, &b)
            }
            None => BTreeMap::new(),
        }
    };
    ReplicateReport { format_version: 1, seeds, changes, differences, per_quota_share, overall }
}

/// The seeds of `n` replicates from a base seed: `seed`, `seed + 1`, ... (a seed past
/// 2^53 - 1 is refused when its replicate is validated).
pub fn seeds(base: i64, n: u32) -> Vec<i64> {
    (0..i64::from(n)).map(|k| base.saturating_add(k)).collect()
}

/// A replicate's two summaries, A's and B's.
pub type Pair = (SummaryResult, SummaryResult);

/// Why a replicate could not give its summaries.
#[derive(Clone, Debug, PartialEq)]
pub enum Failure {
    /// A side with this seed is not a valid scenario: `a` says which side.
    Invalid {
        /// Whether it is side A (else B).
        a: bool,
        /// Every problem validation found.
        problems: Vec<Problem>,
    },
    /// A side's run passed 2^53 - 1 (the run's message).
    Run {
        /// Whether it is side A (else B).
        a: bool,
        /// The run's error message.
        message: String,
    },
}

/// Both sides of one replicate: each with `seed` as its workload's seed, expanded, validated,
/// run to its end and summarised, A then B; the expanded scenario and the run of A are
/// dropped before B is expanded.
pub fn run_seed(a: &Scenario, b: &Scenario, seed: i64) -> Result<Pair, Failure> {
    let side = |s: &Scenario, is_a: bool| -> Result<SummaryResult, Failure> {
        let mut sim = side_simulation(s, seed, is_a)?;
        sim.run();
        side_result(&sim, is_a)
    };
    let ra = side(a, true)?;
    Ok((ra, side(b, false)?))
}

/// One side of a replicate ready to run, for a caller that runs it in slices of time: `s` with
/// `seed` as its workload's seed, expanded and validated, as a simulation that records no
/// events. Run it to its end as [`Simulation::run`] does (to its horizon, if it has one), then
/// read it with [`side_result`]: the same summary [`run_seed`] gives.
pub fn side_simulation(s: &Scenario, seed: i64, is_a: bool) -> Result<Simulation, Failure> {
    let valid = validate(&crate::workload::with_seed(s, seed))
        .map_err(|problems| Failure::Invalid { a: is_a, problems })?;
    Ok(Simulation::with_options(valid, Options { record_events: false, ..Options::default() }))
}

/// The summary of a side's simulation run to its end ([`side_simulation`]), or its run's
/// error.
pub fn side_result(sim: &Simulation, is_a: bool) -> Result<SummaryResult, Failure> {
    if let Some(e) = sim.run_error() {
        return Err(Failure::Run { a: is_a, message: format!("{e}") });
    }
    Ok(SummaryResult { format_version: 1, ended_at: sim.ended_at(), summary: sim.summary() })
}

/// The failure to report among replicates' outcomes, each with its index: the first seed's
/// that failed (its A side before its B side, as [`run_seed`] runs them).
pub fn first_failure<'a, T>(
    outcomes: impl IntoIterator<Item = &'a (usize, Result<T, Failure>)>,
) -> Option<&'a Failure>
where
    T: 'a,
{
    outcomes
        .into_iter()
        .filter_map(|(k, r)| r.as_ref().err().map(|e| (*k, e)))
        .min_by_key(|(k, _)| *k)
        .map(|(_, e)| e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_direction_is_better_or_worse_where_the_metric_has_a_better_way() {
        // Waits (lower is better) rose on every seed: worse; utilization (higher is better) too:
        // better; a metric with no better way: up. Seeds that do not all agree: same.
        assert_eq!(direction(5, 0, 5, Some(false)), "worse");
        assert_eq!(direction(5, 0, 5, Some(true)), "better");
        assert_eq!(direction(5, 0, 5, None), "up");
        assert_eq!(direction(0, 4, 4, Some(false)), "better");
        assert_eq!(direction(0, 4, 4, Some(true)), "worse");
        assert_eq!(direction(0, 4, 4, None), "down");
        assert_eq!(direction(3, 2, 3, Some(true)), "better", "three of five agree on higher");
        assert_eq!(direction(2, 2, 2, Some(true)), "same", "as many rose as fell");
        assert_eq!(direction(0, 0, 5, Some(true)), "same", "every seed the same");
    }

    #[test]
    fn a_replicate_runs_a_then_b_and_the_first_seed_that_fails_is_reported() {
        let text = r#"{"serviceEnvironment":{"capacityLimits":[{"capacityUnit":"ml.g5.xlarge","maxCapacity":2}]},
            "quotaShares":[{"quotaShareName":"a","capacityLimits":[{"capacityUnit":"ml.g5.xlarge","maxCapacity":2}],
              "resourceSharingConfiguration":{"strategy":"LEND"}}],
            "workload":{"seed":9007199254740990,"jobs":3,"shares":[{"quotaShareName":"a","arrivalsPerHour":10,"instanceTypes":[{"name":"ml.g5.xlarge"}],
              "duration":{"distribution":"uniform","minSeconds":60,"maxSeconds":600}}]}}"#;
        let a = crate::json::parse_scenario(text).unwrap();
        let mut b = a.clone();
        b.settings.backfill = true;
        let seeds = seeds(9_007_199_254_740_990, 3);
        let outcomes: Vec<(usize, Result<Pair, Failure>)> =
            seeds.iter().enumerate().map(|(k, s)| (k, run_seed(&a, &b, *s))).collect();
        assert!(outcomes[0].1.is_ok() && outcomes[1].1.is_ok(), "{outcomes:?}");
        // The third seed is 2^53, past what a seed may be.
        let Some(Failure::Invalid { a: true, problems }) = first_failure(outcomes.iter().rev()) else {
            panic!("{outcomes:?}")
        };
        assert_eq!(problems[0].path, "workload.seed");
        assert!(first_failure(outcomes[..2].iter()).is_none());
    }

    #[test]
    fn spread_takes_the_mean_of_the_middle_two_for_an_even_count() {
        assert_eq!(spread(&[3.0, 1.0, 2.0]), Some(Spread { median: 2.0, min: 1.0, max: 3.0 }));
        assert_eq!(spread(&[4.0, 1.0, 2.0, 3.0]), Some(Spread { median: 2.5, min: 1.0, max: 4.0 }));
        assert_eq!(spread(&[]), None);
    }

    #[test]
    fn stats_count_the_directions_of_the_paired_differences() {
        let a = [Some(1.0), Some(2.0), Some(3.0), None];
        let b = [Some(2.0), Some(1.0), Some(4.0), Some(9.0)];
        let s = stats(&a, &b);
        assert_eq!((s.up, s.down, s.same, s.agree), (2, 1, 0, 2));
        assert_eq!(s.delta, Some(Spread { median: 1.0, min: -1.0, max: 1.0 }));
        assert_eq!(s.b.map(|x| x.max), Some(9.0));
    }
}
