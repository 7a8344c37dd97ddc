//! "What would have avoided this?" (`quotasim why`): verified counterfactuals for one job's
//! preemption or wait.
//!
//! A study one layer above the simulation, made only of its pieces: each counterfactual is a
//! change by path ([`crate::change`], the `--set` grammar), applied to the scenario and run in
//! full by the engine; its side effects are what the comparison code ([`crate::compare`])
//! finds between the baseline and the changed run. Nothing here re-implements a rule.
//!
//! - [`catalogue`]: the fixed, documented list of single changes worth trying for an event;
//! - [`bisect`]: the search of a numeric field's ladder for the smallest change that reaches
//!   the target, within the run budget;
//! - [`effects`]: what a change does to the job and to everyone else;
//! - [`report`]: the report's shape (JSON) and its text.
//!
//! The target: for a preemption, the job is preempted fewer times than in the baseline **and**
//! finishes no later (a `SUCCEEDED` job succeeds no later; one that did not finish still
//! starts); for a wait, it starts at least `by` seconds earlier (default half its wait), or,
//! when it never started, it starts at all. Every reported change is a run that reached the
//! target (a full re-run of the scenario with that change, never a fork), and for a numeric
//! field the next value towards the current one was run too and did not reach it.
//!
//! Deterministic: the catalogue's order is fixed, the runs are the engine's, and the run
//! budget (`max_runs`, the baseline included) is spent in that order; an entry whose worst case
//! does not fit in what is left is not started, and says so.

pub mod bisect;
pub mod catalogue;
pub mod effects;
pub mod report;

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::change::{apply_changes, Change};
use crate::compare::run_to_end;
use crate::model::Scenario;
use crate::result::{JobResult, SimResult, Status};
use crate::scenario::{JobId, ValidScenario};
use crate::sim::{Options, Simulation};
use crate::validate::{validate, Problem};

pub use report::{Found, Tested, Tried, TriedReport, WhyEvent, WhyReport};

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

fn usage(option: &str, message: String) -> WhyError {
    WhyError::Usage(Problem::error(option, message))
}

/// What the job must do in a changed run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Target {
    /// Preempted fewer than `count` times (its `preemptedAttemptCount`), and, when it
    /// succeeded at `finish`, succeeding no later; when it did not, starting.
    FewerPreemptions { count: u32, finish: Option<u64> },
    /// Dispatched at `latest` or before.
    StartBy { latest: u64 },
    /// Dispatched at all.
    Starts,
}

impl Target {
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

/// The baseline and the runs spent: every run of the study goes through it.
pub(crate) struct Runner<'a> {
    pub(crate) base: &'a Scenario,
    pub(crate) baseline: SimResult,
    /// The job's index in the scenario (and in every run's job list).
    pub(crate) job: usize,
    pub(crate) target: Target,
    pub(crate) runs: u32,
    pub(crate) max_runs: u32,
}

/// One changed run: it reached the target (with its result), or not (why, when it did not
/// run at all).
pub(crate) enum Eval {
    Reaches(alloc::boxed::Box<SimResult>),
    Misses,
    Invalid(String),
}

impl Runner<'_> {
    pub(crate) fn left(&self) -> u32 {
        self.max_runs.saturating_sub(self.runs)
    }

    /// Runs the scenario with `changes`, in full, and judges the job against the target.
    pub(crate) fn eval(&mut self, changes: &[Change]) -> Eval {
        let changed = match apply_changes(self.base, changes) {
            Ok(s) => s,
            Err(p) => return Eval::Invalid(p.message),
        };
        let valid = match validate(&changed) {
            Ok(v) => v,
            Err(ps) => {
                let first = ps.first().map_or_else(String::new, |p| p.to_string());
                return Eval::Invalid(first);
            }
        };
        self.runs += 1;
        let r = match run_to_end(valid, true) {
            Ok(r) => r,
            Err(e) => return Eval::Invalid(e.to_string()),
        };
        let reached = r
            .jobs
            .get(self.job)
            .filter(|j| j.job_name == self.baseline.jobs[self.job].job_name)
            .is_some_and(|j| self.target.reached(j));
        if reached {
            Eval::Reaches(alloc::boxed::Box::new(r))
        } else {
            Eval::Misses
        }
    }
}

/// The study of `opts.job` in scenario `s` (its workload, if any, expanded first: paths name
/// the jobs `run --print-scenario` shows).
pub fn why(s: &Scenario, opts: &WhyOptions) -> Result<WhyReport, WhyError> {
    check_options(opts)?;
    let base = crate::workload::expanded(s).map_err(WhyError::Invalid)?;
    let valid = validate(&base).map_err(WhyError::Invalid)?;
    let Some(job) = valid.jobs.iter().position(|j| j.name == opts.job) else {
        return Err(usage("--job", unknown_job(&valid, &opts.job)));
    };
    let (baseline, records) = baseline(valid.clone(), job as JobId)?;
    let (event, target) = report::event_of(&valid, &baseline, job, &records, opts)?;
    let mut runner = Runner { base: &base, baseline, job, target, runs: 1, max_runs: opts.max_runs };
    let entries = catalogue::catalogue(&valid, &base, job, &event, target);
    let mut found = Vec::new();
    let mut tried = Vec::new();
    for e in entries {
        bisect::try_entry(&mut runner, e, &mut found, &mut tried);
    }
    let mut changes: Vec<Found> =
        found.into_iter().map(|(set, entry, r)| effects::found(&runner, set, entry, &r)).collect();
    // Fewest jobs harmed first; the catalogue's order among equals (a stable sort).
    changes.sort_by_key(|c| c.harmed.count);
    Ok(WhyReport {
        format_version: FORMAT_VERSION,
        job: opts.job.clone(),
        event,
        changes,
        tried: TriedReport { runs: runner.runs, max_runs: opts.max_runs, entries: tried },
    })
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

fn unknown_job(v: &ValidScenario, name: &str) -> String {
    let names: Vec<&str> = v.jobs.iter().take(10).map(|j| j.name.as_str()).collect();
    let more = v.jobs.len().saturating_sub(10);
    let tail = if more > 0 { format!(" and {more} more") } else { String::new() };
    if v.jobs.is_empty() {
        return format!("no job named `{name}`: the scenario has no jobs");
    }
    format!("no job named `{name}` (the jobs are: {}{tail})", names.join(", "))
}

/// The baseline run: its result (without events) and the job's preemptions in it.
fn baseline(valid: ValidScenario, job: JobId) -> Result<(SimResult, Vec<crate::PreemptionRecord>), WhyError> {
    let mut sim = Simulation::with_options(valid, Options { record_events: false, ..Options::default() });
    sim.run();
    if let Some(e) = sim.run_error() {
        return Err(WhyError::Run(e.to_string()));
    }
    let records = sim.preemptions().iter().filter(|r| r.victim == job).cloned().collect();
    let r = SimResult {
        format_version: 1,
        ended_at: sim.ended_at(),
        jobs: sim.jobs(),
        events: Vec::new(),
        summary: sim.summary(),
    };
    Ok((r, records))
}

/// `--set` arguments as text, for the report.
pub(crate) fn texts(changes: &[Change]) -> Vec<String> {
    changes.iter().map(Change::text).collect()
}

/// A change of one path to one value.
pub(crate) fn change(path: &str, value: serde_json::Value) -> Change {
    Change { path: path.to_string(), value }
}
