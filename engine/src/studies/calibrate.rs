//! Replay against reality (`quotasim calibrate`): a scenario imported from AWS, run, and put
//! next to what was observed, per quota share (wait p50/p95, preemptions, GPU-hours) and per
//! job (the jobs whose simulated fate differs most). This is how a user learns whether to
//! trust a what-if before acting on it.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

use crate::aws::{Observed, ObservedJob};
use crate::problem::Problem;
use crate::result::{SimResult, Status};
use crate::scenario::ValidScenario;
use crate::validate::MAX_SAFE;

/// GPUs per instance of each share's first instance type with a quota (1 when unknown), the
/// figure `calibrate` turns instance-hours into GPU-hours with.
pub fn gpus_by_share(valid: &ValidScenario) -> BTreeMap<String, f64> {
    valid
        .shares
        .iter()
        .map(|s| {
            let g = s
                .quota
                .iter()
                .enumerate()
                .find(|(_, q)| **q > 0)
                .map_or(1, |(t, _)| valid.types[t].gpus.max(1));
            (s.name.clone(), g as f64)
        })
        .collect()
}

/// One share, simulated and observed.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ShareCalibration {
    /// `quotaShareName`: the share, in the order of the run's summary.
    pub quota_share_name: String,
    /// `jobs`: its jobs that are both in the scenario and observed.
    pub jobs: u64,
    /// `waitP50`: the median wait, submission to first dispatch, in seconds, over those jobs that started
    /// (nearest rank).
    pub wait_p50: Pair,
    /// `waitP95`: the 95th percentile of the same waits, in seconds.
    pub wait_p95: Pair,
    /// `preemptions`: those jobs' preemptions, summed.
    pub preemptions: Pair,
    /// `gpuHours`: GPU-hours held: the run's summary figure, and the observed instance-seconds times GPUs per
    /// instance over 3600.
    pub gpu_hours: Pair,
}

/// A simulated value and the observed one (`null` when there is none).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Pair {
    /// `simulated`: the replay's value.
    pub simulated: Option<f64>,
    /// `observed`: the value observed.
    pub observed: Option<f64>,
}

/// A job whose simulated fate differs from the observed one.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JobDifference {
    /// `jobName`: the job, matched by name.
    pub job_name: String,
    /// `quotaShareName`: its quota share in the replay.
    pub quota_share_name: String,
    /// `simulated`: its fate in the replay, in words: `SUCCEEDED, started at 120 s, 1 preemption(s)`, or
    /// `..., never started` (`unfinished` when it has no status).
    pub simulated: String,
    /// `observed`: its observed fate, in the same words.
    pub observed: String,
    /// Seconds of first-start difference, plus an hour per preemption or status that differs.
    pub score: u64,
}

/// `quotasim calibrate`'s JSON.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Calibration {
    /// `formatVersion`: the calibration format's version, 1.
    pub format_version: u32,
    /// `perQuotaShare`: each share of the run's summary, simulated next to observed.
    pub per_quota_share: Vec<ShareCalibration>,
    /// Jobs in the scenario but not observed, and the other way round.
    pub unmatched: Vec<String>,
    /// `mostDifferent`: the 20 jobs whose fates differ most, highest `score` first (ties by name).
    pub most_different: Vec<JobDifference>,
    /// What the scenario's start-up explains ([`explain_startup`]); absent without start-up.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub startup: Option<StartupEffect>,
}

/// How much of the difference between simulated and observed waits the start-up an import
/// fitted (`scheduledSeconds`, `startingSeconds`) explains: the same replay without it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StartupEffect {
    /// `scheduledSeconds`: the scenario's `settings.scheduledSeconds`, dispatch to `STARTING`.
    pub scheduled_seconds: u64,
    /// `startingSeconds`: the scenario's `settings.startingSeconds`, `STARTING` to `RUNNING`.
    pub starting_seconds: u64,
    /// `perQuotaShare`: what start-up explains, per share, in the calibration's `perQuotaShare` order.
    pub per_quota_share: Vec<StartupShare>,
}

/// One share's wait p50 without start-up, and the seconds of its difference from the observed
/// p50 that start-up explains (`|observed - without| - |observed - with|`; negative when the
/// start-up moves the replay away from what was observed).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StartupShare {
    /// `quotaShareName`: the share.
    pub quota_share_name: String,
    /// `waitP50WithoutStartup`: its simulated wait p50 in the replay without start-up, in seconds; `null`
    /// when none of its jobs started.
    pub wait_p50_without_startup: Option<f64>,
    /// `explainedSeconds`: how many seconds of the gap to the observed p50 start-up explains; `null` when a
    /// p50 is missing.
    pub explained_seconds: Option<f64>,
}

/// The scenario without start-up (`scheduledSeconds` and `startingSeconds` 0), to replay for
/// [`explain_startup`]; `None` when it has none.
pub fn without_startup(valid: &ValidScenario) -> Option<ValidScenario> {
    if valid.settings.scheduled == 0 && valid.settings.starting == 0 {
        return None;
    }
    let mut v = valid.clone();
    v.settings.scheduled = 0;
    v.settings.starting = 0;
    Some(v)
}

/// Adds to `c` what the start-up (`scheduled` and `starting` seconds, the scenario's) explains,
/// from `bare`, the replay of [`without_startup`].
pub fn explain_startup(c: &mut Calibration, scheduled: u64, starting: u64, bare: &SimResult) {
    let mut waits: BTreeMap<&str, Vec<u64>> = BTreeMap::new();
    for j in &bare.jobs {
        if let Some(t) = j.first_started_at {
            waits.entry(j.quota_share_name.as_str()).or_default().push(t.saturating_sub(j.submit_at));
        }
    }
    let per_quota_share = c
        .per_quota_share
        .iter()
        .map(|r| {
            let without = waits.get_mut(r.quota_share_name.as_str()).and_then(|w| nearest_rank(w, 50));
            let explained = match (r.wait_p50.observed, r.wait_p50.simulated, without) {
                (Some(o), Some(with), Some(w)) => Some((o - w).abs() - (o - with).abs()),
                _ => None,
            };
            StartupShare {
                quota_share_name: r.quota_share_name.clone(),
                wait_p50_without_startup: without,
                explained_seconds: explained,
            }
        })
        .collect();
    c.startup =
        Some(StartupEffect { scheduled_seconds: scheduled, starting_seconds: starting, per_quota_share });
}

fn nearest_rank(v: &mut [u64], p: u64) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    v.sort_unstable();
    let k = ((p as usize * v.len()).div_ceil(100)).max(1) - 1;
    Some(v[k.min(v.len() - 1)] as f64)
}

fn fate(status: Option<Status>, start: Option<u64>, preemptions: u32) -> String {
    let st = status.map_or("unfinished", |s| s.as_str());
    match start {
        Some(t) => format!("{st}, started at {t} s, {preemptions} preemption(s)"),
        None => format!("{st}, never started"),
    }
}

/// Per share: jobs, simulated and observed waits, simulated and observed preemptions,
/// observed GPU-hours.
type Tally = (u64, Vec<u64>, Vec<u64>, u64, u64, f64);

/// Checks an observed-jobs file's numbers: every time and count at most 2^53 - 1 (the origin
/// within ±(2^53 - 1)), so that what calibrate prints from them is exact. Each problem names
/// the field (`jobs[3].submitAt`).
pub fn check_observed(o: &Observed) -> Result<(), Vec<Problem>> {
    let max = MAX_SAFE as u64;
    let mut problems = Vec::new();
    if o.origin_epoch_millis.unsigned_abs() > max {
        problems.push(Problem::error("originEpochMillis", "must be within ±(2^53 - 1)"));
    }
    for (i, j) in o.jobs.iter().enumerate() {
        let fields = [
            ("submitAt", Some(j.submit_at)),
            ("firstStartedAt", j.first_started_at),
            ("stoppedAt", j.stopped_at),
            ("instanceSeconds", Some(j.instance_seconds)),
        ];
        for (f, v) in fields {
            if let Some(v) = v.filter(|v| *v > max) {
                problems.push(Problem::error(format!("jobs[{i}].{f}"), format!("{v} is more than 2^53 - 1")));
            }
        }
        if problems.len() >= 20 {
            break;
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

/// Puts a run of the imported scenario next to what was observed; `gpus` gives GPUs per
/// instance by share (for GPU-hours), the run's own figures otherwise. Linear in the jobs
/// (and n log n for the percentiles). Every number it gives is at most 2^53 - 1: a share's
/// observed GPU-hours or a job's score that would pass it is an error naming it (the observed
/// numbers are checked first with [`check_observed`]).
pub fn calibrate(
    run: &SimResult,
    observed: &Observed,
    gpus_per_instance: &BTreeMap<String, f64>,
) -> Result<Calibration, Problem> {
    check_observed(observed).map_err(|mut p| p.swap_remove(0))?;
    let obs: BTreeMap<&str, &ObservedJob> = observed.jobs.iter().map(|j| (j.job_name.as_str(), j)).collect();
    let mut unmatched = Vec::new();
    let mut per: BTreeMap<String, Tally> = BTreeMap::new();
    let mut diffs = Vec::new();
    for j in &run.jobs {
        let Some(o) = obs.get(j.job_name.as_str()) else {
            unmatched.push(format!("{} is not observed", j.job_name));
            continue;
        };
        let e = per.entry(j.quota_share_name.clone()).or_default();
        e.0 += 1;
        if let Some(t) = j.first_started_at {
            e.1.push(t.saturating_sub(j.submit_at));
        }
        if let Some(t) = o.first_started_at {
            e.2.push(t.saturating_sub(o.submit_at));
        }
        e.3 += j.preemption_summary.preempted_attempt_count as u64;
        e.4 += o.preemptions as u64;
        e.5 += o.instance_seconds as f64 * gpus_per_instance.get(&o.quota_share_name).copied().unwrap_or(1.0)
            / 3600.0;
        let ds = match (j.first_started_at, o.first_started_at) {
            (Some(a), Some(b)) => a.abs_diff(b),
            (None, None) => 0,
            _ => 86_400,
        };
        let dp = (j.preemption_summary.preempted_attempt_count as i64 - o.preemptions as i64).unsigned_abs();
        let dst = u64::from(j.status != o.status && !(o.status.is_none() && j.status.is_none()));
        let score = ds.saturating_add(3600u64.saturating_mul(dp + dst));
        if score > MAX_SAFE as u64 {
            return Err(Problem::error(
                format!("jobs.{}", j.job_name),
                "its difference score (seconds of first-start difference plus an hour per differing preemption count or status) passes 2^53 - 1",
            ));
        }
        if score > 0 {
            diffs.push(JobDifference {
                job_name: j.job_name.clone(),
                quota_share_name: j.quota_share_name.clone(),
                simulated: fate(j.status, j.first_started_at, j.preemption_summary.preempted_attempt_count),
                observed: fate(o.status, o.first_started_at, o.preemptions),
                score,
            });
        }
    }
    let names: BTreeSet<&str> = run.jobs.iter().map(|j| j.job_name.as_str()).collect();
    for o in &observed.jobs {
        if !names.contains(o.job_name.as_str()) {
            unmatched.push(format!("{} is observed but not in the scenario", o.job_name));
        }
    }
    diffs.sort_by(|a, b| b.score.cmp(&a.score).then_with(|| a.job_name.cmp(&b.job_name)));
    diffs.truncate(20);
    if let Some((name, _)) = per.iter().find(|(_, t)| t.5.is_nan() || t.5 > MAX_SAFE as f64) {
        return Err(Problem::error(
            format!("perQuotaShare.{name}.gpuHours.observed"),
            "the observed GPU-hours add up past 2^53 - 1",
        ));
    }
    let per_quota_share = run
        .summary
        .per_quota_share
        .iter()
        .map(|(name, m)| {
            let (n, mut ws, mut wo, ps, po, gh) = per.remove(name).unwrap_or_default();
            ShareCalibration {
                quota_share_name: name.clone(),
                jobs: n,
                wait_p50: Pair { simulated: nearest_rank(&mut ws, 50), observed: nearest_rank(&mut wo, 50) },
                wait_p95: Pair { simulated: nearest_rank(&mut ws, 95), observed: nearest_rank(&mut wo, 95) },
                preemptions: Pair { simulated: Some(ps as f64), observed: Some(po as f64) },
                gpu_hours: Pair { simulated: Some(m.gpu_hours), observed: Some(gh) },
            }
        })
        .collect();
    Ok(Calibration { format_version: 1, per_quota_share, unmatched, most_different: diffs, startup: None })
}
