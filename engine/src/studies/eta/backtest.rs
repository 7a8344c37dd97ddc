//! How good is a forecast? (`quotasim eta --backtest`): AWS history replayed job by job. For
//! every job, at its `createdAt`, the state is rebuilt from what was known then (`import aws
//! --state-at`), its start is forecast, and the forecast is put next to the job's actual start
//! and to two baselines on the same state:
//!
//! - **Kueue's proposal**: its position in its share's queue divided by the share's admissions
//!   per second over the previous 6 hours (all shares' when the share had none);
//! - **Slurm's estimate**: the same state run once with every duration set to its timeout.
//!
//! What a backtest cannot see: the quota configuration is today's (the one in the files), not
//! the one in force at each instant, and a priority is the latest a record shows.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

use super::arrivals::{Resampled, ShareArrivals};
use super::forecast::Forecast;
use super::options::{Arrivals, Durations, EtaOptions};
use crate::aws::{import_parsed, parse, ImportOptions, Parsed};
use crate::problem::Problem;

/// Kueue's proposal looks back this far for admissions (6 hours).
pub const KUEUE_WINDOW: u64 = 6 * 3600;
/// The forecast resamples the arrivals of this far back (24 hours)...
pub const ARRIVALS_WINDOW: u64 = 24 * 3600;
/// ... once the history is at least this long (10 minutes): before, no later arrivals.
pub const MIN_ARRIVALS_WINDOW: u64 = 600;

/// How to backtest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BacktestOptions {
    /// Forecast replicates per job.
    pub replicates: u32,
    /// The seed of every forecast's draws (the same for each job).
    pub seed: u64,
    /// Seconds after each job's creation the forecast looks (a start it puts later counts as
    /// the horizon).
    pub horizon: u64,
    /// Whether the forecast resamples later arrivals ([`ARRIVALS_WINDOW`]); without (the
    /// default), it sees the queue as it was. On the engine's own histories resampling widens
    /// the band (more actual starts inside it) but moves the p50 further from them.
    pub resample: bool,
}

impl Default for BacktestOptions {
    fn default() -> Self {
        BacktestOptions {
            replicates: 100,
            seed: 0,
            horizon: super::options::DEFAULT_HORIZON,
            resample: false,
        }
    }
}

/// One job to replay: its name, share, creation (epoch ms) and actual wait (seconds from
/// creation to its first dispatch).
#[derive(Clone, Debug)]
struct Subject {
    name: String,
    share: String,
    created_ms: i64,
    actual: u64,
}

/// A backtest ready to run its jobs (each independent of the others).
pub struct Backtest {
    /// The history, read once.
    files: Parsed,
    subjects: Vec<Subject>,
    /// Each share's first dispatches, seconds from the origin, sorted.
    admissions: BTreeMap<String, Vec<u64>>,
    all_admissions: Vec<u64>,
    /// Every imported job, by submission: the arrivals the forecast resamples.
    jobs: Vec<crate::model::Job>,
    origin: i64,
    /// Jobs never dispatched in the history: no actual start to compare with.
    pub never_started: u64,
    opts: BacktestOptions,
}

/// One job's forecast, baselines and actual start, in seconds after its creation.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Case {
    /// `jobName`: the job replayed.
    pub job_name: String,
    /// `quotaShareName`: its quota share.
    pub quota_share_name: String,
    /// `actual`: its actual wait, from its creation to its first dispatch.
    pub actual: u64,
    /// `p10`: the forecast's 10th percentile start; `null` when more than 90 % of the replicates do not start
    /// it before the horizon.
    pub p10: Option<u64>,
    /// `p50`: the forecast's median start, the estimate scored; `null` when more than half of the replicates
    /// do not start it before the horizon.
    pub p50: Option<u64>,
    /// `p90`: the forecast's 90th percentile start; `null` when more than 10 % of the replicates do not start
    /// it before the horizon.
    pub p90: Option<u64>,
    /// `kueue`: Kueue's proposal: the jobs ahead of it in its share's queue divided by the share's admissions
    /// per second over the previous 6 hours (all shares' when it had none); 0 when nothing is ahead of
    /// it, `null` when no job was admitted in that window.
    pub kueue: Option<u64>,
    /// `slurm`: Slurm's estimate: its start in one run of the same state with every duration set to its
    /// timeout; `null` when that run cannot be made or does not start it before the horizon.
    pub slurm: Option<u64>,
}

/// How close one method came.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Accuracy {
    /// `meanAbsoluteError`: the mean of |estimate - actual start|, in seconds (a missing estimate counts as
    /// the horizon).
    pub mean_absolute_error: f64,
    /// `medianAbsoluteError`: the median of the same errors, in seconds.
    pub median_absolute_error: f64,
    /// The share of jobs whose estimate was within 10 minutes of the actual start.
    pub within10_minutes: f64,
    /// `within1Hour`: the share of jobs whose estimate was within an hour of the actual start.
    pub within1_hour: f64,
}

/// The three methods over one set of jobs.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Scores {
    /// `jobs`: how many jobs are scored.
    pub jobs: u64,
    /// `forecast`: the forecast's accuracy (its p50).
    pub forecast: Accuracy,
    /// `kueue`: the accuracy of Kueue's proposal.
    pub kueue: Accuracy,
    /// `slurm`: the accuracy of Slurm's estimate.
    pub slurm: Accuracy,
    /// The share of actual starts inside the forecast's p10-p90 band (80 % when calibrated).
    pub band_coverage: f64,
}

/// `quotasim eta --backtest`'s JSON.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BacktestReport {
    /// `formatVersion`: the `eta` report format's version, 1.
    pub format_version: u32,
    /// `replicates`: forecast replicates per job.
    pub replicates: u32,
    /// `seed`: the seed of the forecasts' draws.
    pub seed: u64,
    /// `horizonSeconds`: how far after each job's creation the forecast looks, in seconds.
    pub horizon_seconds: u64,
    /// Every job replayed.
    pub all: Scores,
    /// The jobs that waited (actual start after their creation): the ones worth forecasting.
    pub waited: Option<Scores>,
    /// `neverStarted`: jobs never dispatched in the history, left out (no actual start to compare with).
    pub never_started: u64,
    /// What a backtest cannot see.
    pub limits: &'static str,
    /// `cases`: every job replayed, in the history's order.
    pub cases: Vec<Case>,
}

const LIMITS: &str = "the quota configuration is the one in the files, not the one in force at each instant; a priority is the latest a record shows; jobs never dispatched in the history are left out";

impl Backtest {
    /// Reads the history once (`import aws` of `files`) for every job's actual start.
    pub fn new(files: Vec<(String, String)>, opts: BacktestOptions) -> Result<Self, Vec<Problem>> {
        if !(1..=super::options::MAX_REPLICATES).contains(&opts.replicates) {
            return Err(super::options::problem(
                "--replicates",
                format!("must be 1 to {}", super::options::MAX_REPLICATES),
            ));
        }
        if opts.horizon == 0 {
            return Err(super::options::problem("--horizon", String::from("must be above 0 seconds")));
        }
        let files = parse(&files);
        let full = import_parsed(&files, ImportOptions::default())?;
        let origin = full.observed.origin_epoch_millis;
        let mut subjects = Vec::new();
        let mut admissions: BTreeMap<String, Vec<u64>> = BTreeMap::new();
        let mut all_admissions = Vec::new();
        let mut never_started = 0;
        for o in &full.observed.jobs {
            match o.first_started_at {
                Some(t) => {
                    admissions.entry(o.quota_share_name.clone()).or_default().push(t);
                    all_admissions.push(t);
                    subjects.push(Subject {
                        name: o.job_name.clone(),
                        share: o.quota_share_name.clone(),
                        created_ms: origin.saturating_add(o.submit_at as i64 * 1000),
                        actual: t.saturating_sub(o.submit_at),
                    });
                }
                None => never_started += 1,
            }
        }
        for v in admissions.values_mut() {
            v.sort_unstable();
        }
        all_admissions.sort_unstable();
        let mut jobs = full.scenario.jobs;
        jobs.sort_by_key(|j| j.submit_at);
        Ok(Backtest { files, subjects, admissions, all_admissions, jobs, origin, never_started, opts })
    }

    /// Jobs to replay.
    pub fn len(&self) -> usize {
        self.subjects.len()
    }

    /// Whether there is no job to replay.
    pub fn is_empty(&self) -> bool {
        self.subjects.is_empty()
    }

    /// Replays job `i`: the state at its creation, the forecast and both baselines.
    pub fn case(&self, i: usize) -> Result<Case, String> {
        let s = &self.subjects[i];
        let fail = |p: Vec<Problem>| {
            let first = p
                .into_iter()
                .find(Problem::is_error)
                .map_or_else(String::new, |p| format!("{}: {}", p.path, p.message));
            format!("job {}: {first}", s.name)
        };
        let state = import_parsed(&self.files, ImportOptions { now: None, state_at: Some(s.created_ms) })
            .map_err(fail)?
            .scenario;
        let mut case = Case {
            job_name: s.name.clone(),
            quota_share_name: s.share.clone(),
            actual: s.actual,
            p10: Some(0),
            p50: Some(0),
            p90: Some(0),
            kueue: Some(0),
            slurm: Some(0),
        };
        let Some(job) = state.jobs.iter().find(|j| j.job_name == s.name) else {
            return Err(format!("job {}: not in the state at its creation", s.name));
        };
        if job.started_at.is_some() {
            // Dispatched within the instant it was created: every method knows it.
            return Ok(case);
        }
        let resampled = self.arrivals_before(s.created_ms).filter(|_| self.opts.resample);
        let opts = |durations, replicates, resampled: &Option<Resampled>| EtaOptions {
            jobs: alloc::vec![s.name.clone()],
            submit: None,
            replicates,
            seed: self.opts.seed,
            horizon: self.opts.horizon,
            durations,
            arrivals: if resampled.is_some() { Arrivals::Resampled } else { Arrivals::Listed },
            resampled: resampled.clone(),
        };
        let f = Forecast::new(&state, opts(None, self.opts.replicates, &resampled)).map_err(fail)?;
        let r = f.run()?;
        let j = &r.jobs[0];
        (case.p10, case.p50, case.p90) = (j.start.p10, j.start.p50, j.start.p90);
        // Without a timeout for some job, Slurm has no estimate (counted as the horizon).
        // Slurm plans the queue as it is, with no later arrivals.
        let slurm =
            Forecast::new(&state, opts(Some(Durations::Timeout), 1, &None)).ok().and_then(|f| f.run().ok());
        case.slurm = slurm.and_then(|r| r.jobs[0].start.p50);
        case.kueue = j.position.map_or(Some(0), |(at, _)| self.kueue(&s.share, s.created_ms, at - 1));
        Ok(case)
    }

    /// What arrived in each share over the [`ARRIVALS_WINDOW`] before `ms`: its rate and its
    /// jobs, the model of what arrives next.
    fn arrivals_before(&self, ms: i64) -> Option<Resampled> {
        let now = (ms.saturating_sub(self.origin).max(0) / 1000) as u64;
        let window = ARRIVALS_WINDOW.min(now);
        if window < MIN_ARRIVALS_WINDOW {
            return None;
        }
        let lo = self.jobs.partition_point(|j| (j.submit_at as u64) < now - window);
        let hi = self.jobs.partition_point(|j| (j.submit_at as u64) < now);
        let mut by: BTreeMap<&str, Vec<crate::model::Job>> = BTreeMap::new();
        for j in &self.jobs[lo..hi] {
            by.entry(j.quota_share_name.as_str()).or_default().push(j.clone());
        }
        let shares = by
            .into_iter()
            .map(|(share, templates)| ShareArrivals {
                share: String::from(share),
                per_second: templates.len() as f64 / window as f64,
                templates,
            })
            .collect();
        Some(Resampled { shares })
    }

    /// Kueue's proposal for a job with `ahead` jobs before it in its share's queue at `ms`.
    fn kueue(&self, share: &str, ms: i64, ahead: usize) -> Option<u64> {
        if ahead == 0 {
            return Some(0);
        }
        let now = (ms.saturating_sub(self.origin).max(0) / 1000) as u64;
        let window = KUEUE_WINDOW.min(now).max(1);
        let count = |v: &[u64]| {
            let lo = v.partition_point(|&t| t < now - window.min(now));
            let hi = v.partition_point(|&t| t < now);
            hi - lo
        };
        let n = match self.admissions.get(share).map_or(0, |v| count(v)) {
            0 => count(&self.all_admissions),
            n => n,
        };
        (n > 0).then(|| libm::round(ahead as f64 * window as f64 / n as f64) as u64)
    }

    /// The report over the cases (in job order).
    pub fn report(&self, cases: Vec<Case>) -> BacktestReport {
        let h = self.opts.horizon;
        let waited: Vec<Case> = cases.iter().filter(|c| c.actual > 0).cloned().collect();
        BacktestReport {
            format_version: super::options::FORMAT_VERSION,
            replicates: self.opts.replicates,
            seed: self.opts.seed,
            horizon_seconds: h,
            all: scores(&cases, h),
            waited: (!waited.is_empty()).then(|| scores(&waited, h)),
            never_started: self.never_started,
            limits: LIMITS,
            cases,
        }
    }
}

/// The three methods' accuracy over `cases`; an estimate beyond the horizon counts as the
/// horizon.
fn scores(cases: &[Case], horizon: u64) -> Scores {
    let acc = |est: &dyn Fn(&Case) -> Option<u64>| {
        let mut e: Vec<u64> = cases.iter().map(|c| est(c).unwrap_or(horizon).abs_diff(c.actual)).collect();
        e.sort_unstable();
        let n = e.len().max(1) as f64;
        Accuracy {
            mean_absolute_error: e.iter().map(|&x| x as f64).sum::<f64>() / n,
            median_absolute_error: if e.is_empty() {
                0.0
            } else if e.len() % 2 == 1 {
                e[e.len() / 2] as f64
            } else {
                (e[e.len() / 2 - 1] + e[e.len() / 2]) as f64 / 2.0
            },
            within10_minutes: e.iter().filter(|&&x| x <= 600).count() as f64 / n,
            within1_hour: e.iter().filter(|&&x| x <= 3600).count() as f64 / n,
        }
    };
    let covered = cases
        .iter()
        .filter(|c| c.p10.is_some_and(|a| a <= c.actual) && c.p90.is_none_or(|b| c.actual <= b))
        .count();
    Scores {
        jobs: cases.len() as u64,
        forecast: acc(&|c| c.p50),
        kueue: acc(&|c| c.kueue),
        slurm: acc(&|c| c.slurm),
        band_coverage: covered as f64 / cases.len().max(1) as f64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(
        actual: u64,
        p: (Option<u64>, Option<u64>, Option<u64>),
        kueue: Option<u64>,
        slurm: Option<u64>,
    ) -> Case {
        Case {
            job_name: String::from("j"),
            quota_share_name: String::from("a"),
            actual,
            p10: p.0,
            p50: p.1,
            p90: p.2,
            kueue,
            slurm,
        }
    }

    #[test]
    fn scores_count_errors_coverage_and_the_horizon() {
        let c = [
            case(100, (Some(50), Some(100), Some(200)), Some(700), None),
            case(1000, (Some(0), Some(400), Some(900)), Some(1000), Some(5000)),
        ];
        let s = scores(&c, 10_000);
        assert_eq!(s.forecast.mean_absolute_error, 300.0);
        assert_eq!(s.forecast.median_absolute_error, 300.0);
        assert_eq!(s.forecast.within10_minutes, 1.0);
        assert_eq!(s.kueue.within10_minutes, 1.0);
        // Slurm never started the first: the horizon, 9,900 s off.
        assert_eq!(s.slurm.mean_absolute_error, (9_900.0 + 4_000.0) / 2.0);
        assert_eq!(s.slurm.within1_hour, 0.0);
        // The second's actual start is above its p90.
        assert_eq!(s.band_coverage, 0.5);
        // A p90 that never comes covers everything above p10.
        let s = scores(&[case(5000, (Some(10), None, None), None, None)], 10_000);
        assert_eq!(s.band_coverage, 1.0);
    }
}
