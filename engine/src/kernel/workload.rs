//! Generated workloads: a scenario's `workload` section, expanded into jobs by the one
//! generator every front end shares (`quotasim generate`, `compare --replicates`, sweeps over
//! `workload.seed`, the playground's generator).
//!
//! The expansion is deterministic for a seed, on every platform: the PRNG is SplitMix64 and
//! the only floating point (`libm`'s `log` and `pow`, pure Rust) draws numbers, never a
//! simulation decision. Draws happen in a documented order, so a workload reproduces exactly:
//!
//! 1. for each entry of `workload.shares` in order, for each of its jobs: the instance type,
//!    the size, the duration (none for `fixed`), the priority, whether it checkpoints (and its
//!    interval) when `checkpoint` is given, and its retries when `preemptionRetries` is given;
//! 2. then, in the same order, the gap before each job's arrival (exponential; the first job
//!    of a share arrives one gap after `startAt`).
//!
//! A share's arrivals are paced by its `arrivalsPerHour`, or, for entries without one, by
//! `workload.loadPercent`: their work (instances × duration) arrives over the window that
//! offers that percentage of the capacity shares own (per type, the smaller of the shares'
//! quotas and the service environment's limit). Jobs are named `<share>-<n>` with seven
//! digits, numbered per share in arrival order (a suffix `-2`, `-3` ... if a listed job already
//! has the name), and follow the listed jobs in order of arrival.

use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::limits::{MAX_JOBS, MAX_PRIORITY, MAX_SAFE};
use crate::model::{Job, JobPreemption, Scenario};
use crate::problem::Problem;
use crate::rng::Rng;

pub use crate::model::workload::*;

/// When an entry's jobs arrive: a Poisson process at one rate, or at one rate per hour of the
/// day (piecewise constant, non-homogeneous).
#[derive(Clone, Debug, PartialEq)]
pub enum Pace {
    /// Arrivals per second.
    PerSecond(f64),
    /// Arrivals per second in each hour of the day; the day starts `offset` seconds before
    /// time 0 (`originEpochMs` modulo a day).
    Hourly {
        /// Arrivals per second in each of the day's 24 hours, from midnight.
        per_second: Vec<f64>,
        /// Seconds from the day's start to time 0.
        offset: u64,
    },
}

impl Pace {
    /// The next arrival after time `t` for a unit exponential draw `e` (the time at which the
    /// rate integrated from `t` reaches `e`); `None` when none ever comes.
    pub fn after(&self, t: f64, e: f64) -> Option<f64> {
        match self {
            Pace::PerSecond(r) if *r > 0.0 && r.is_finite() => Some(t + e / r),
            Pace::PerSecond(_) => None,
            Pace::Hourly { per_second, offset } => {
                if per_second.len() != 24 || !per_second.iter().any(|&r| r > 0.0 && r.is_finite()) {
                    return None;
                }
                let rate = |h: usize| {
                    if per_second[h].is_finite() && per_second[h] > 0.0 {
                        per_second[h]
                    } else {
                        0.0
                    }
                };
                let per_day: f64 = (0..24).map(|h| rate(h) * 3600.0).sum();
                let mut t = t;
                let mut left = e;
                // Hour by hour: at most a day's hours, whole days skipped at once, then a day's.
                for step in 0..49 {
                    let clock = t + *offset as f64;
                    let hour_start = libm::floor(clock / 3600.0);
                    if step == 24 && left > per_day {
                        let days = libm::floor(left / per_day);
                        t += days * 86_400.0;
                        left -= days * per_day;
                        continue;
                    }
                    let hour = (libm::fmod(hour_start, 24.0)) as usize % 24;
                    let end = (hour_start + 1.0) * 3600.0 - *offset as f64;
                    let r = rate(hour);
                    if r > 0.0 && left <= (end - t) * r {
                        return Some(t + left / r);
                    }
                    left -= (end - t).max(0.0) * r;
                    // Never stuck: an hour boundary is always ahead.
                    t = if end > t { end } else { t + 3600.0 };
                }
                Some(t)
            }
        }
    }

    /// Mean arrivals per second over a day.
    pub fn mean_per_second(&self) -> f64 {
        match self {
            Pace::PerSecond(r) => *r,
            Pace::Hourly { per_second, .. } => per_second.iter().sum::<f64>() / 24.0,
        }
    }
}

/// The jobs a scenario's `workload` describes, or every problem with its path. Without a
/// `workload` section there are none.
pub fn expand(s: &Scenario) -> Result<Vec<Job>, Vec<Problem>> {
    let Some(w) = &s.workload else { return Ok(Vec::new()) };
    let counts = check(s, w)?;
    Ok(generate_jobs(s, w, &counts))
}

/// `s` with its `workload` expanded into `jobs` (after the listed ones) and the section
/// removed: what the simulation runs, and what `--print-scenario` shows.
pub fn expanded(s: &Scenario) -> Result<Scenario, Vec<Problem>> {
    let generated = expand(s)?;
    let mut out = s.clone();
    out.workload = None;
    out.jobs.extend(generated);
    Ok(out)
}

/// `s` with its workload's seed set to `seed` (replicates).
pub fn with_seed(s: &Scenario, seed: i64) -> Scenario {
    let mut out = s.clone();
    if let Some(w) = &mut out.workload {
        w.seed = seed;
    }
    out
}

/// Checks the section and returns each entry's number of jobs.
fn check(s: &Scenario, w: &Workload) -> Result<Vec<u64>, Vec<Problem>> {
    let mut problems = Vec::new();
    let mut err = |path: String, msg: String| problems.push(Problem::error(path, msg));
    if !(0..=MAX_SAFE).contains(&w.seed) {
        err("workload.seed".into(), format!("seed must be 0 to 2^53 - 1, not {}", w.seed));
    }
    if !(0..=MAX_SAFE).contains(&w.start_at) {
        err("workload.startAt".into(), format!("startAt must be 0 to 2^53 - 1, not {}", w.start_at));
    }
    if let Some(l) = w.load_percent {
        if !(l.is_finite() && l > 0.0 && l <= 10_000.0) {
            err(
                "workload.loadPercent".into(),
                format!("loadPercent must be above 0 and at most 10000, not {l}"),
            );
        }
    }
    if w.shares.is_empty() {
        err("workload.shares".into(), "a workload needs at least one share".into());
    }
    let mut seen = BTreeSet::new();
    for (i, e) in w.shares.iter().enumerate() {
        let p = format!("workload.shares[{i}]");
        let Some(share) = s.quota_shares.iter().find(|q| q.quota_share_name == e.quota_share_name) else {
            err(format!("{p}.quotaShareName"), format!("no quota share is named {}", e.quota_share_name));
            continue;
        };
        if !seen.insert(e.quota_share_name.as_str()) {
            err(
                format!("{p}.quotaShareName"),
                format!("{} already has an entry: give each share one", e.quota_share_name),
            );
        }
        if let Some(wt) = e.weight {
            if !(0..=1_000_000).contains(&wt) {
                err(format!("{p}.weight"), format!("weight must be 0 to 1000000, not {wt}"));
            }
        }
        if let Some(n) = e.jobs {
            if !(0..=MAX_JOBS as i64).contains(&n) {
                err(format!("{p}.jobs"), format!("jobs must be 0 to {MAX_JOBS}, not {n}"));
            }
        } else if w.jobs.is_none() {
            err(
                format!("{p}.jobs"),
                "give this entry's jobs, or workload.jobs to share out by weight".into(),
            );
        }
        arrival_rate(&mut err, &p, e, w.load_percent.is_some());
        if e.instance_types.is_empty() {
            err(format!("{p}.instanceTypes"), "give at least one instance type".into());
        }
        for (k, t) in e.instance_types.iter().enumerate() {
            let known = s.instance_types.iter().any(|x| x.name == t.name)
                || s.service_environment.capacity_limits.iter().any(|x| x.capacity_unit == t.name)
                || share.capacity_limits.iter().any(|x| x.capacity_unit == t.name);
            if !known {
                err(
                    format!("{p}.instanceTypes[{k}].name"),
                    format!(
                        "{} is neither an instance type of the scenario nor in any capacity limit",
                        t.name
                    ),
                );
            }
        }
        weights(&mut err, &format!("{p}.instanceTypes"), e.instance_types.iter().map(|t| t.weight));
        for (k, z) in e.sizes.iter().enumerate() {
            if !(1..=MAX_SAFE).contains(&z.instances) {
                err(
                    format!("{p}.sizes[{k}].instances"),
                    format!("instances must be at least 1, not {}", z.instances),
                );
            }
        }
        weights(&mut err, &format!("{p}.sizes"), e.sizes.iter().map(|z| z.weight));
        for (k, z) in e.priorities.iter().enumerate() {
            if !(0..=MAX_PRIORITY).contains(&z.priority) {
                err(
                    format!("{p}.priorities[{k}].priority"),
                    format!("priority must be 0 to {MAX_PRIORITY}, not {}", z.priority),
                );
            }
        }
        weights(&mut err, &format!("{p}.priorities"), e.priorities.iter().map(|z| z.weight));
        duration(&mut err, &p, &e.duration);
        mixes(&mut err, &p, e);
    }
    if !problems.is_empty() {
        return Err(problems);
    }

    counts(s, w)
}

/// An entry's `arrivalsPerHour`: one rate above 0, or 24 of at least 0 not all 0; without
/// one, `workload.loadPercent` must pace it.
fn arrival_rate(err: &mut impl FnMut(String, String), p: &str, e: &ShareWorkload, by_load: bool) {
    match &e.arrivals_per_hour {
        Some(ArrivalRate::Flat(r)) if !(r.is_finite() && *r > 0.0 && *r <= 1e9) => {
            err(format!("{p}.arrivalsPerHour"), format!("arrivalsPerHour must be above 0, not {r}"));
        }
        Some(ArrivalRate::Flat(_)) => {}
        Some(ArrivalRate::ByHour(v)) if v.len() != 24 => err(
            format!("{p}.arrivalsPerHour"),
            format!("give one rate, or 24 (one per hour of the day), not a list of {}", v.len()),
        ),
        Some(ArrivalRate::ByHour(v)) => {
            for (k, r) in v.iter().enumerate() {
                if !(r.is_finite() && *r >= 0.0 && *r <= 1e9) {
                    err(format!("{p}.arrivalsPerHour[{k}]"), format!("a rate must be 0 or more, not {r}"));
                }
            }
            if v.iter().all(|&r| r <= 0.0) {
                err(format!("{p}.arrivalsPerHour"), "the 24 rates are all 0: give one above 0".into());
            }
        }
        None if !by_load => err(
            format!("{p}.arrivalsPerHour"),
            "give arrivalsPerHour, or workload.loadPercent to pace arrivals by load".into(),
        ),
        None => {}
    }
}

/// An entry's `duration`: its bounds, and `values` exactly when it is empirical.
fn duration(err: &mut impl FnMut(String, String), p: &str, d: &DurationSpec) {
    if !(1..=MAX_SAFE).contains(&d.min_seconds) {
        err(
            format!("{p}.duration.minSeconds"),
            format!("minSeconds must be at least 1, not {}", d.min_seconds),
        );
    }
    if d.max_seconds < d.min_seconds || d.max_seconds > MAX_SAFE {
        err(
            format!("{p}.duration.maxSeconds"),
            format!("maxSeconds must be at least minSeconds ({}), not {}", d.min_seconds, d.max_seconds),
        );
    }
    match (d.distribution, d.values.is_empty()) {
        (Distribution::Empirical, true) => {
            err(format!("{p}.duration.values"), "an empirical distribution needs its values".into())
        }
        (Distribution::Empirical, false) => {
            for (k, &v) in d.values.iter().enumerate() {
                if !(d.min_seconds..=d.max_seconds).contains(&v) {
                    err(
                        format!("{p}.duration.values[{k}]"),
                        format!("must be within minSeconds and maxSeconds, not {v}"),
                    );
                }
            }
        }
        (_, false) => err(
            format!("{p}.duration.values"),
            "values are read only with the distribution \"empirical\"".into(),
        ),
        (_, true) => {}
    }
}

/// An entry's `checkpoint` and `preemptionRetries` mixes: a percent and values in range.
fn mixes(err: &mut impl FnMut(String, String), p: &str, e: &ShareWorkload) {
    for (field, po, min) in
        [("checkpoint", &e.checkpoint, 1), ("preemptionRetries", &e.preemption_retries, 0)]
    {
        let Some(po) = po else { continue };
        if !(0..=100).contains(&po.percent) {
            err(format!("{p}.{field}.percent"), format!("percent must be 0 to 100, not {}", po.percent));
        }
        if po.values.is_empty() {
            err(format!("{p}.{field}.values"), "give at least one value".into());
        }
        for (k, &v) in po.values.iter().enumerate() {
            if !(min..=MAX_SAFE).contains(&v) {
                err(format!("{p}.{field}.values[{k}]"), format!("must be at least {min}, not {v}"));
            }
        }
    }
}

/// Each entry's number of jobs: its own, or its weight's part of `workload.jobs`, the
/// remainder one each from the first entry on; all of them and the listed jobs at most
/// [`MAX_JOBS`].
fn counts(s: &Scenario, w: &Workload) -> Result<Vec<u64>, Vec<Problem>> {
    let total = w.jobs.unwrap_or(0);
    if !(0..=MAX_JOBS as i64).contains(&total) {
        return Err(alloc::vec![Problem::error(
            "workload.jobs",
            format!("jobs must be 0 to {MAX_JOBS}, not {total}")
        )]);
    }
    let shared: Vec<usize> = (0..w.shares.len()).filter(|&i| w.shares[i].jobs.is_none()).collect();
    let wsum: u64 = shared.iter().map(|&i| w.shares[i].weight.unwrap_or(1) as u64).sum();
    let mut counts: Vec<u64> = w.shares.iter().map(|e| e.jobs.unwrap_or(0) as u64).collect();
    if !shared.is_empty() && total > 0 {
        if wsum == 0 {
            return Err(alloc::vec![Problem::error(
                "workload.shares",
                "the entries that share workload.jobs all have weight 0"
            )]);
        }
        let mut assigned = 0;
        for &i in &shared {
            let c = (total as u128 * w.shares[i].weight.unwrap_or(1) as u128 / wsum as u128) as u64;
            counts[i] = c;
            assigned += c;
        }
        for k in 0..(total as u64 - assigned) as usize {
            counts[shared[k % shared.len()]] += 1;
        }
    }
    let all = counts.iter().sum::<u64>() + s.jobs.len() as u64;
    if all > MAX_JOBS as u64 {
        return Err(alloc::vec![Problem::error(
            "workload.jobs",
            format!("the workload and the listed jobs make {all} jobs, more than {MAX_JOBS}")
        )]);
    }
    Ok(counts)
}

/// Weights are 0 or more and not all 0.
fn weights(err: &mut impl FnMut(String, String), path: &str, ws: impl Iterator<Item = i64>) {
    let mut any = false;
    let mut sum: i64 = 0;
    for (k, w) in ws.enumerate() {
        any = true;
        if !(0..=1_000_000).contains(&w) {
            err(format!("{path}[{k}].weight"), format!("weight must be 0 to 1000000, not {w}"));
            return;
        }
        sum += w;
    }
    if any && sum == 0 {
        err(path.into(), "the weights add up to 0: give one a weight above 0".into());
    }
}

/// An index drawn by weight (one draw, whatever the weights).
pub(crate) fn pick(rng: &mut Rng, weights: impl Iterator<Item = i64> + Clone) -> usize {
    let total: u64 = weights.clone().map(|w| w.max(0) as u64).sum();
    let mut r = rng.below(total.max(1));
    for (i, w) in weights.enumerate() {
        let w = w.max(0) as u64;
        if r < w {
            return i;
        }
        r -= w;
    }
    0
}

struct Draft {
    entry: usize,
    ty: usize,
    count: i64,
    duration: i64,
    priority: i64,
    checkpoint: Option<i64>,
    retries: Option<i64>,
}

/// Each entry's pace: its `arrivalsPerHour`, or, for an entry paced by `loadPercent`, the rate
/// at which its jobs arrive when the section is expanded (its count over the span the load
/// gives the drawn work); a rate of 0 for such an entry without jobs. The forecasts'
/// `--arrivals workload` draws new jobs at these paces, whatever the section's job count says
/// beyond them.
pub fn arrival_paces(s: &Scenario) -> Result<Vec<Pace>, Vec<Problem>> {
    let Some(w) = &s.workload else { return Ok(Vec::new()) };
    let counts = check(s, w)?;
    let mut rng = Rng::new(w.seed as u64);
    let (_, work) = drafts(s, w, &counts, &mut rng);
    let offset = day_offset(s);
    Ok(gaps(s, w, &counts, &work)
        .iter()
        .zip(&counts)
        .zip(&w.shares)
        .map(|((&gap, &n), e)| match &e.arrivals_per_hour {
            Some(ArrivalRate::Flat(r)) => Pace::PerSecond(r / 3600.0),
            Some(ArrivalRate::ByHour(v)) => {
                Pace::Hourly { per_second: v.iter().map(|r| r / 3600.0).collect(), offset }
            }
            None if n == 0 || !(gap > 0.0 && gap.is_finite()) => Pace::PerSecond(0.0),
            None => Pace::PerSecond(1.0 / gap),
        })
        .collect())
}

/// Seconds from the start of the day (UTC) to time 0: `originEpochMs` modulo a day, else 0.
pub fn day_offset(s: &Scenario) -> u64 {
    s.settings.origin_epoch_ms.map_or(0, |ms| (ms.div_euclid(1000)).rem_euclid(86_400) as u64)
}

/// Mean seconds between arrivals, per entry: `3600 / arrivalsPerHour`, or the span the load
/// gives the work of the entries it paces shared out by their counts.
fn gaps(s: &Scenario, w: &Workload, counts: &[u64], work: &[f64]) -> Vec<f64> {
    let paced_by_load: f64 =
        (0..w.shares.len()).filter(|&e| w.shares[e].arrivals_per_hour.is_none()).map(|e| work[e]).sum();
    let span = paced_by_load / (owned_capacity(s).max(1) as f64 * w.load_percent.unwrap_or(100.0) / 100.0);
    (0..w.shares.len())
        .map(|e| match &w.shares[e].arrivals_per_hour {
            Some(ArrivalRate::Flat(r)) => 3600.0 / r,
            Some(ArrivalRate::ByHour(v)) => 3600.0 * 24.0 / v.iter().sum::<f64>(),
            None => span / counts[e].max(1) as f64,
        })
        .collect()
}

/// Every entry's jobs drawn (in entry order) and the work (instances times seconds) each
/// entry's add up to.
fn drafts(s: &Scenario, w: &Workload, counts: &[u64], rng: &mut Rng) -> (Vec<Draft>, Vec<f64>) {
    let n: u64 = counts.iter().sum();
    let mut drafts: Vec<Draft> = Vec::with_capacity(n as usize);
    let mut work: Vec<f64> = alloc::vec![0.0; w.shares.len()];
    for (e, entry) in w.shares.iter().enumerate() {
        let share = s.quota_shares.iter().find(|q| q.quota_share_name == entry.quota_share_name);
        let quota = |ty: &str| {
            share
                .and_then(|q| q.capacity_limits.iter().find(|l| l.capacity_unit == ty))
                .map_or(0, |l| l.max_capacity)
        };
        let (lo, hi) = (entry.duration.min_seconds, entry.duration.max_seconds);
        for _ in 0..counts[e] {
            let ty = pick(rng, entry.instance_types.iter().map(|t| t.weight));
            let count = if entry.sizes.is_empty() {
                1
            } else {
                entry.sizes[pick(rng, entry.sizes.iter().map(|z| z.weight))].instances
            };
            let q = quota(&entry.instance_types[ty].name);
            let count = if q > 0 { count.min(q) } else { count };
            let d = match entry.duration.distribution {
                Distribution::Fixed => lo as f64,
                Distribution::Uniform => lo as f64 + (hi - lo) as f64 * rng.unit(),
                Distribution::Exponential => rng.exp((lo as f64 + hi as f64) / 2.0),
                Distribution::Pareto => rng.pareto(1.5, lo as f64),
                Distribution::Empirical => {
                    entry.duration.values[rng.below(entry.duration.values.len().max(1) as u64) as usize]
                        as f64
                }
            };
            let duration = (d as i64).clamp(lo, hi);
            let priority = if entry.priorities.is_empty() {
                0
            } else {
                entry.priorities[pick(rng, entry.priorities.iter().map(|z| z.weight))].priority
            };
            let checkpoint = entry.checkpoint.as_ref().and_then(|c| draw_percent(rng, c));
            let retries = entry.preemption_retries.as_ref().and_then(|c| draw_percent(rng, c));
            work[e] += (count * duration) as f64;
            drafts.push(Draft { entry: e, ty, count, duration, priority, checkpoint, retries });
        }
    }

    (drafts, work)
}

fn generate_jobs(s: &Scenario, w: &Workload, counts: &[u64]) -> Vec<Job> {
    let mut rng = Rng::new(w.seed as u64);
    let (drafts, work) = drafts(s, w, counts, &mut rng);
    let gaps = gaps(s, w, counts, &work);

    let taken: BTreeSet<&str> = s.jobs.iter().map(|j| j.job_name.as_str()).collect();
    let mut clocks: Vec<f64> = alloc::vec![0.0; w.shares.len()];
    let mut next: Vec<u64> = alloc::vec![0; w.shares.len()];
    let mut jobs = Vec::with_capacity(drafts.len());
    // R28: arrivals start at the later of the section's startAt and the run's.
    let begin = w.start_at.max(s.settings.start_at).max(0) as u64;
    let offset = day_offset(s);
    for d in drafts {
        let e = d.entry;
        let entry = &w.shares[e];
        match &entry.arrivals_per_hour {
            // One draw per arrival, in the same order as a flat rate's.
            Some(ArrivalRate::ByHour(v)) => {
                let pace = Pace::Hourly { per_second: v.iter().map(|r| r / 3600.0).collect(), offset };
                let at = begin as f64 + clocks[e];
                clocks[e] = pace.after(at, rng.exp(1.0)).map_or(f64::MAX, |t| t - begin as f64);
            }
            _ => clocks[e] += rng.exp(gaps[e]),
        }
        let idx = next[e];
        next[e] += 1;
        let base = format!("{}-{idx:07}", entry.quota_share_name);
        let name = if taken.contains(base.as_str()) {
            (2u64..).map(|k| format!("{base}-{k}")).find(|x| !taken.contains(x.as_str())).unwrap_or(base)
        } else {
            base
        };
        let at = begin.saturating_add(clocks[e] as u64).min(MAX_SAFE as u64) as i64;
        let mut j = Job::new(
            &name,
            &entry.quota_share_name,
            &entry.instance_types[d.ty].name,
            d.count,
            at,
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
    // In order of arrival, as a real queue would see them.
    jobs.sort_by(|a, b| a.submit_at.cmp(&b.submit_at).then_with(|| a.job_name.cmp(&b.job_name)));
    jobs
}

/// `percent`% of draws give one of `values` (uniformly), the rest `None`.
pub(crate) fn draw_percent(rng: &mut Rng, p: &PercentOf) -> Option<i64> {
    if rng.below(100) < p.percent.max(0) as u64 {
        Some(p.values[rng.below(p.values.len().max(1) as u64) as usize])
    } else {
        None
    }
}

/// Instances the shares own: per type, the smaller of the shares' quotas and the service
/// environment's limit (a type without a limit counts the quotas).
pub fn owned_capacity(s: &Scenario) -> i64 {
    let mut types: Vec<&str> = Vec::new();
    for q in &s.quota_shares {
        for l in &q.capacity_limits {
            if !types.contains(&l.capacity_unit.as_str()) {
                types.push(&l.capacity_unit);
            }
        }
    }
    types
        .iter()
        .map(|t| {
            let quota: i64 = s
                .quota_shares
                .iter()
                .flat_map(|q| q.capacity_limits.iter())
                .filter(|l| l.capacity_unit == *t)
                .map(|l| l.max_capacity.clamp(0, MAX_SAFE))
                .sum();
            match s.service_environment.capacity_limits.iter().find(|l| l.capacity_unit == *t) {
                Some(l) => quota.min(l.max_capacity.max(0)),
                None => quota,
            }
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(distribution: Distribution, lo: i64, hi: i64) -> DurationSpec {
        DurationSpec { distribution, min_seconds: lo, max_seconds: hi, values: Vec::new() }
    }

    /// `n` draws beyond `trained` at evenly spread units.
    fn draws(d: &DurationSpec, trained: u64, n: u32) -> Vec<u64> {
        (1..=n).map(|k| d.draw_beyond(trained, f64::from(k) / f64::from(n)).unwrap()).collect()
    }

    #[test]
    fn draws_beyond_are_longer_than_trained_within_the_bounds_and_monotone() {
        for dist in
            [Distribution::Fixed, Distribution::Uniform, Distribution::Exponential, Distribution::Pareto]
        {
            let d = spec(dist, 100, 5000);
            for trained in [0, 99, 100, 400, 4998] {
                if dist == Distribution::Fixed && trained >= 100 {
                    assert_eq!(d.draw_beyond(trained, 0.5), None, "{dist:?} beyond {trained}");
                    continue;
                }
                let xs = draws(&d, trained, 200);
                assert!(
                    xs.iter().all(|&x| x > trained && (100..=5000).contains(&x)),
                    "{dist:?} {trained}: {xs:?}"
                );
                // Survival-based: a larger unit is a longer duration.
                assert!(xs.windows(2).all(|w| w[0] >= w[1]), "{dist:?} {trained}");
            }
            assert_eq!(d.draw_beyond(5000, 0.5), None);
            assert_eq!(d.draw_beyond(9000, 0.5), None);
        }
    }

    #[test]
    fn draws_follow_the_generator_s_distributions() {
        let median = |d: &DurationSpec, trained| draws(d, trained, 1001)[500];
        // Uniform 1000..3000: median 2000; beyond 2000, uniform on 2001..3000.
        let u = spec(Distribution::Uniform, 1000, 3000);
        assert!((median(&u, 0) as i64 - 2000).abs() <= 2);
        assert!((median(&u, 2000) as i64 - 2500).abs() <= 2);
        // Exponential, mean 1000 (the mean of 10 and 1990): median ln 2 * 1000; memoryless
        // beyond what was trained.
        let e = spec(Distribution::Exponential, 10, 1990);
        assert!((median(&e, 0) as i64 - 693).abs() <= 2, "{}", median(&e, 0));
        assert!((median(&e, 300) as i64 - 994).abs() <= 3, "{}", median(&e, 300));
        // Pareto, shape 1.5 from 100: median 100 * 2^(1/1.5).
        let p = spec(Distribution::Pareto, 100, 1_000_000);
        assert!((median(&p, 0) as i64 - 158).abs() <= 1, "{}", median(&p, 0));
        // The generator's own draws have the same median (it draws by its own means).
        let mut rng = Rng::new(5);
        let mut g: Vec<u64> = (0..4001).map(|_| (rng.exp(1000.0) as i64).clamp(10, 1990) as u64).collect();
        g.sort_unstable();
        assert!((g[2000] as i64 - 693).abs() < 60, "{}", g[2000]);
    }
}
