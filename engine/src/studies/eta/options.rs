//! What a forecast is asked: where durations and arrivals come from, how many replicates,
//! the seed, the horizon, the jobs and a job to submit.

use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

use super::arrivals;
use crate::model::Job;
use crate::validate::Problem;

/// The report's format version.
pub const FORMAT_VERSION: u32 = 1;
/// Replicates when none are asked for.
pub const DEFAULT_REPLICATES: u32 = 200;
/// Most replicates one forecast runs.
pub const MAX_REPLICATES: u32 = 100_000;
/// The horizon after `startAt` when none is asked for: 24 h.
pub const DEFAULT_HORIZON: u64 = 86_400;
/// Observations a share and type need before their Kaplan-Meier estimate is used.
pub const MIN_SAMPLES: usize = 20;

/// Where durations come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Durations {
    /// Kaplan-Meier per share and instance type over the state's `history`.
    History,
    /// The `workload` section's distribution of the job's share.
    Workload,
    /// Each job's timeout.
    Timeout,
    /// `durationSeconds` as written.
    Exact,
}

/// Which jobs arrive after `startAt`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Arrivals {
    /// The jobs in the file, those submitted after `startAt` included.
    Listed,
    /// None: the queue as it is.
    None,
    /// Drawn at the `workload` section's rates over `(startAt, horizon]` (the listed jobs
    /// submitted after `startAt` are left out).
    Workload,
    /// Resampled from the recent past ([`arrivals::Resampled`], given in
    /// [`EtaOptions::resampled`]), after the listed jobs.
    Resampled,
}

/// What to forecast and how.
#[derive(Clone, Debug, PartialEq)]
pub struct EtaOptions {
    /// The jobs to forecast; empty: every queued job (and the submitted one).
    pub jobs: Vec<String>,
    /// A job to submit at `startAt` ("if I submit this now").
    pub submit: Option<Job>,
    /// Replicates (1 to [`MAX_REPLICATES`]).
    pub replicates: u32,
    /// The draws' seed.
    pub seed: u64,
    /// Seconds after `startAt` the runs stop at.
    pub horizon: u64,
    /// Where durations come from; `None`: `history` when the state has one, else `workload`
    /// when it has a `workload` section, else `timeout`.
    pub durations: Option<Durations>,
    /// Which later jobs arrive.
    pub arrivals: Arrivals,
    /// The arrivals model of [`Arrivals::Resampled`].
    pub resampled: Option<arrivals::Resampled>,
}

impl Default for EtaOptions {
    fn default() -> Self {
        EtaOptions {
            jobs: Vec::new(),
            submit: None,
            replicates: DEFAULT_REPLICATES,
            seed: 0,
            horizon: DEFAULT_HORIZON,
            durations: None,
            arrivals: Arrivals::Listed,
            resampled: None,
        }
    }
}

pub(super) fn problem(path: &str, message: String) -> Vec<Problem> {
    alloc::vec![Problem::error(path, message)]
}
