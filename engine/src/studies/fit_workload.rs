//! `quotasim fit-workload`: a `workload` section fitted to a scenario's listed jobs, so that an
//! imported history gets replicates (each seed of the section is another history like it) and
//! forecasts get a model of arrivals (`eta --arrivals workload`).
//!
//! Per quota share with jobs, the entry keeps:
//! - its number of jobs (`jobs`);
//! - its arrival rate: with a history spanning at least [`HOURLY_DAYS`] days, one rate per hour
//!   of the day (the share's arrivals in that hour over the time the span spends in it), else
//!   one rate (its jobs over the span from the section's `startAt`, the first submission of any
//!   share, to its last); either way the expected number of arrivals over the span is its count,
//!   so expanded it spans what the history spanned;
//! - its instance type, size and priority mixes (each value weighted by its count);
//! - its checkpoint and retry mixes (the percentage of jobs with one, and up to
//!   [`MAX_MIX_VALUES`] of the most common values);
//! - its durations: with at least [`MIN_EMPIRICAL`] jobs, `empirical` with their values (at most
//!   [`MAX_VALUES`]: evenly spaced order statistics beyond that), else `uniform` between the
//!   shortest and the longest (`fixed` when they are equal).
//!
//! The fit emits rates, never `loadPercent`: a rate is what was observed, whatever the quotas.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::vec::Vec;

use crate::model::{ActionKind, Scenario};
use crate::validate::{validate, Problem};
use crate::workload::{
    day_offset, ArrivalRate, Distribution, DurationSpec, PercentOf, ShareWorkload, WeightedPriority,
    WeightedSize, WeightedType, Workload,
};

/// Days a history must span for rates per hour of the day.
pub const HOURLY_DAYS: u64 = 3;
/// Jobs a share needs for an empirical duration distribution.
pub const MIN_EMPIRICAL: usize = 20;
/// Most values an empirical distribution keeps.
pub const MAX_VALUES: usize = 1000;
/// Most values a checkpoint or retry mix keeps.
pub const MAX_MIX_VALUES: usize = 10;

/// The fitted scenario and what the fit says about itself.
#[derive(Clone, Debug)]
pub struct Fitted {
    /// The input with its listed jobs replaced by the fitted `workload` section (and the
    /// actions that name a job left out, since those jobs are gone).
    pub scenario: Scenario,
    /// How it was fitted, per share, as warnings with the section's paths.
    pub warnings: Vec<Problem>,
}

/// Fits a `workload` section to `s`'s listed jobs.
pub fn fit_workload(s: &Scenario) -> Result<Fitted, Vec<Problem>> {
    if s.workload.is_some() {
        return Err(alloc::vec![Problem::error(
            "workload",
            "the scenario has a workload section already: fit a scenario of listed jobs",
        )]);
    }
    if s.jobs.is_empty() {
        return Err(alloc::vec![Problem::error("jobs", "there are no listed jobs to fit")]);
    }
    let v = validate(s)?;
    let mut warnings = Vec::new();
    let start = v.jobs.iter().map(|j| j.submit_at).min().unwrap_or(0);
    let end = v.jobs.iter().map(|j| j.submit_at).max().unwrap_or(0);
    let hourly = end - start >= HOURLY_DAYS * 86_400;
    let offset = day_offset(s);
    let mut shares = Vec::new();
    for (si, share) in v.shares.iter().enumerate() {
        let jobs: Vec<_> = v.jobs.iter().filter(|j| j.share.index() == si).collect();
        if jobs.is_empty() {
            continue;
        }
        let path = format!("workload.shares[{}]", shares.len());
        let n = jobs.len();
        let last = jobs.iter().map(|j| j.submit_at).max().unwrap_or(start);
        let span = (last - start).max(1);
        let arrivals = if hourly {
            let mut count = [0u64; 24];
            for j in &jobs {
                count[hour_of(j.submit_at, offset)] += 1;
            }
            let exposure = exposure(start, last, offset);
            ArrivalRate::ByHour(
                (0..24)
                    .map(
                        |h| if exposure[h] > 0 { count[h] as f64 * 3600.0 / exposure[h] as f64 } else { 0.0 },
                    )
                    .collect(),
            )
        } else {
            ArrivalRate::Flat(n as f64 * 3600.0 / span as f64)
        };
        let weighted = |key: &dyn Fn(&&crate::scenario::JobCfg) -> i64| -> Vec<(i64, i64)> {
            let mut m: BTreeMap<i64, i64> = BTreeMap::new();
            for j in &jobs {
                *m.entry(key(j)).or_insert(0) += 1;
            }
            m.into_iter().collect()
        };
        let mix = |values: Vec<i64>| -> Option<PercentOf> {
            if values.is_empty() {
                return None;
            }
            let percent = ((values.len() * 100 + n / 2) / n) as i64;
            let mut m: BTreeMap<i64, usize> = BTreeMap::new();
            for x in &values {
                *m.entry(*x).or_insert(0) += 1;
            }
            let mut common: Vec<(i64, usize)> = m.into_iter().collect();
            common.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            common.truncate(MAX_MIX_VALUES);
            let mut values: Vec<i64> = common.into_iter().map(|c| c.0).collect();
            values.sort_unstable();
            (percent > 0).then_some(PercentOf { percent, values })
        };
        let mut durations: Vec<i64> = jobs.iter().map(|j| j.duration as i64).collect();
        durations.sort_unstable();
        let (lo, hi) = (durations[0].max(1), durations[n - 1].max(1));
        let duration = if n >= MIN_EMPIRICAL {
            let values = if n > MAX_VALUES {
                (0..MAX_VALUES).map(|k| durations[(2 * k + 1) * n / (2 * MAX_VALUES)].max(1)).collect()
            } else {
                durations.iter().map(|&d| d.max(1)).collect()
            };
            DurationSpec { distribution: Distribution::Empirical, min_seconds: lo, max_seconds: hi, values }
        } else {
            warnings.push(Problem::warning(
                format!("{path}.duration"),
                format!(
                    "{}: fewer than {MIN_EMPIRICAL} jobs ({n}): durations uniform between the shortest and the longest",
                    share.name
                ),
            ));
            let distribution = if lo == hi { Distribution::Fixed } else { Distribution::Uniform };
            DurationSpec { distribution, min_seconds: lo, max_seconds: hi, values: Vec::new() }
        };
        shares.push(ShareWorkload {
            quota_share_name: share.name.clone(),
            weight: None,
            jobs: Some(n as i64),
            arrivals_per_hour: Some(arrivals),
            instance_types: weighted(&|j| i64::from(j.ty.0))
                .into_iter()
                .map(|(ty, weight)| WeightedType { name: v.types[ty as usize].name.clone(), weight })
                .collect(),
            sizes: weighted(&|j| j.count as i64)
                .into_iter()
                .map(|(instances, weight)| WeightedSize { instances, weight })
                .collect(),
            duration,
            priorities: weighted(&|j| i64::from(j.priority))
                .into_iter()
                .map(|(priority, weight)| WeightedPriority { priority, weight })
                .collect(),
            checkpoint: mix(jobs.iter().filter_map(|j| j.checkpoint_interval).map(|c| c as i64).collect()),
            preemption_retries: mix(jobs.iter().filter_map(|j| j.retries).map(|r| r as i64).collect()),
        });
    }
    warnings.push(Problem::warning(
        "workload.shares",
        if hourly {
            format!(
                "the jobs span {} days: arrival rates per hour of the day ({})",
                (end - start) / 86_400,
                if s.settings.origin_epoch_ms.is_some() { "UTC" } else { "from time 0" }
            )
        } else {
            format!(
                "the jobs span less than {HOURLY_DAYS} days: one arrival rate per share, not one per hour of the day"
            )
        },
    ));
    let mut out = s.clone();
    out.jobs.clear();
    let before = out.actions.len();
    out.actions.retain(|a| {
        !matches!(a.kind, ActionKind::UpdateServiceJob { .. } | ActionKind::TerminateServiceJob { .. })
    });
    if out.actions.len() < before {
        warnings.push(Problem::warning(
            "actions",
            format!(
                "{} actions on listed jobs left out: the fitted jobs have other names",
                before - out.actions.len()
            ),
        ));
    }
    out.workload = Some(Workload {
        seed: 0,
        jobs: None,
        load_percent: None,
        start_at: start.min(crate::validate::MAX_SAFE as u64) as i64,
        shares,
    });
    Ok(Fitted { scenario: out, warnings })
}

/// The hour of the day (0 to 23) of time `t`, the day starting `offset` seconds before 0.
pub fn hour_of(t: u64, offset: u64) -> usize {
    ((t + offset) / 3600 % 24) as usize
}

/// Seconds of `[from, to)` in each hour of the day.
pub fn exposure(from: u64, to: u64, offset: u64) -> [u64; 24] {
    // Whole days first (a span may be years), then what is left, hour by hour.
    let days = to.saturating_sub(from) / 86_400;
    let mut out = [days * 3600; 24];
    let mut t = from + days * 86_400;
    while t < to {
        let end = ((t + offset) / 3600 + 1) * 3600 - offset;
        let stop = end.min(to);
        out[hour_of(t, offset)] += stop - t;
        t = stop;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exposure_counts_the_seconds_in_each_hour_of_the_day() {
        // From 23:30 on day 0 to 01:15 on day 2: 30 min of hour 23, then whole days.
        let e = exposure(23 * 3600 + 1800, 2 * 86_400 + 3600 + 900, 0);
        assert_eq!(e[23], 1800 + 3600);
        assert_eq!(e[0], 2 * 3600);
        assert_eq!(e[1], 3600 + 900);
        assert_eq!(e[2], 3600);
        assert_eq!(e.iter().sum::<u64>(), 2 * 86_400 + 3600 + 900 - (23 * 3600 + 1800));
        // A day starting 2 h before time 0: time 0 is 02:00.
        assert_eq!(hour_of(0, 7200), 2);
        assert_eq!(exposure(0, 3600, 7200)[2], 3600);
    }
}
