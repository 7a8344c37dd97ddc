//! What a counterfactual study is asked (the job, which preemption or wait, how many runs),
//! what the job must do in a changed run, and why a study could not be made.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::change::Change;
use crate::result::{JobResult, Status};
use crate::validate::Problem;

/// The report's format version.
pub const FORMAT_VERSION: u32 = 1;
/// Runs (the baseline included) when none are asked for.
pub const DEFAULT_MAX_RUNS: u32 = 50;
/// The most runs one study may be given.
pub const MAX_RUNS: u32 = 10_000;
/// A wait at least this much longer harms a job.
pub const HARM_WAIT_SECONDS: u64 = 60;

/// What to explain and how much to spend.
#[derive(Clone, Debug, PartialEq)]
pub struct WhyOptions {
    /// The job (`--job`).
    pub job: String,
    /// Its K-th preemption, from 1 (`--preemption`); default the first, or its wait when it
    /// was never preempted.
    pub preemption: Option<u32>,
    /// For a wait: how much earlier it must start (`--by`), default half its wait.
    pub by: Option<u64>,
    /// Runs, the baseline included (`--max-runs`).
    pub max_runs: u32,
}

impl WhyOptions {
    /// The options to explain `job`: its first preemption (or its wait), the default `--by`, and
    /// [`DEFAULT_MAX_RUNS`] runs.
    pub fn new(job: &str) -> WhyOptions {
        WhyOptions { job: job.into(), preemption: None, by: None, max_runs: DEFAULT_MAX_RUNS }
    }
}

/// Why a study could not be made.
#[derive(Clone, Debug, PartialEq)]
pub enum WhyError {
    /// An option is wrong (its path is the option, `--job`): a usage error.
    Usage(Problem),
    /// The scenario is invalid.
    Invalid(Vec<Problem>),
    /// The baseline run stopped with an error.
    Run(String),
}

impl core::fmt::Display for WhyError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            WhyError::Usage(p) => write!(f, "{p}"),
            WhyError::Invalid(ps) => {
                let lines: Vec<String> = ps.iter().map(|p| p.to_string()).collect();
                write!(f, "{}", lines.join("\n"))
            }
            WhyError::Run(m) => write!(f, "{m}"),
        }
    }
}

pub(super) fn usage(option: &str, message: String) -> WhyError {
    WhyError::Usage(Problem::error(option, message))
}

/// What the job must do in a changed run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Target {
    /// Preempted fewer than `count` times (its `preemptedAttemptCount`), and, when it
    /// succeeded at `finish`, succeeding no later; when it did not, starting.
    FewerPreemptions {
        /// The job's `preemptedAttemptCount` in the baseline.
        count: u32,
        /// When it succeeded in the baseline (its `stoppedAt`), in seconds; `None` when it did
        /// not succeed.
        finish: Option<u64>,
    },
    /// Dispatched at `latest` or before.
    StartBy {
        /// The latest first dispatch that reaches the target, in seconds: the job's first
        /// dispatch in the baseline less `--by`.
        latest: u64,
    },
    /// Dispatched at all.
    Starts,
}

impl Target {
    /// Whether `j`, the job's result in a changed run, reaches the target.
    pub fn reached(self, j: &JobResult) -> bool {
        match self {
            Target::FewerPreemptions { count, finish } => {
                j.preemption_summary.preempted_attempt_count < count
                    && match finish {
                        Some(t) => {
                            j.status == Some(Status::Succeeded) && j.stopped_at.is_some_and(|s| s <= t)
                        }
                        None => j.first_started_at.is_some(),
                    }
            }
            Target::StartBy { latest } => j.first_started_at.is_some_and(|t| t <= latest),
            Target::Starts => j.first_started_at.is_some(),
        }
    }
}

/// The checks of the options that need no scenario (`--max-runs`, `--preemption 0`, `--by 0`).
pub fn check_options(opts: &WhyOptions) -> Result<(), WhyError> {
    if opts.max_runs == 0 || opts.max_runs > MAX_RUNS {
        return Err(usage(
            "--max-runs",
            format!("must be from 1 to {MAX_RUNS} (the baseline is one run), not {}", opts.max_runs),
        ));
    }
    if opts.preemption == Some(0) {
        return Err(usage("--preemption", "counts from 1 (the first preemption)".into()));
    }
    if opts.by == Some(0) {
        return Err(usage("--by", "must be at least 1 second".into()));
    }
    Ok(())
}

/// `--set` arguments as text, for the report.
pub(crate) fn texts(changes: &[Change]) -> Vec<String> {
    changes.iter().map(Change::text).collect()
}

/// A change of one path to one value.
pub(crate) fn change(path: &str, value: serde_json::Value) -> Change {
    Change { path: path.to_string(), value }
}
