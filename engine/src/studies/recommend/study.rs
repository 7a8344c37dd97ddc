//! The recommender's study as data: its options and errors, the verdicts it checks, each
//! candidate's outcomes, and what is read from them (feasible, broken verdicts, slack, cost).
//! Running the study is [`super`]'s; the search and the report read it.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::space::{Config, Space};
use crate::model::Scenario;
use crate::validate::Problem;

/// The report's format version.
pub const FORMAT_VERSION: u32 = 1;
/// Single-seed runs when none are asked for.
pub const DEFAULT_MAX_RUNS: u32 = 1_000;
/// The most runs one study may be given.
pub const MAX_RUNS: u32 = 1_000_000;
/// The most seeds one study may run each candidate on.
pub const MAX_REPLICATES: u32 = 1_000;

/// What to minimise, and how much to spend.
#[derive(Clone, Debug, PartialEq)]
pub struct RecommendOptions {
    /// A metric path to minimise (`--minimize`, no `*`); `None`: `capacityPerHour`.
    pub minimize: Option<String>,
    /// Seeds (`--replicates`); more than one needs a `workload` section.
    pub replicates: u32,
    /// The fraction of seeds on which an objective must be met (`--confidence`), in (0, 1].
    pub confidence: f64,
    /// Single-seed runs at most (`--max-runs`).
    pub max_runs: u32,
}

impl Default for RecommendOptions {
    fn default() -> Self {
        RecommendOptions { minimize: None, replicates: 1, confidence: 1.0, max_runs: DEFAULT_MAX_RUNS }
    }
}

/// Why a study could not be made.
#[derive(Clone, Debug, PartialEq)]
pub enum RecommendError {
    /// An option is wrong (its path is the option, `--replicates`): a usage error.
    Usage(Problem),
    /// The scenario is wrong: every problem with its path.
    Invalid(Vec<Problem>),
    /// The objectives (or `--minimize`) name what the summary has not: every problem with its
    /// path (`objectives[i].metric`).
    Objectives(Vec<Problem>),
    /// The space file is wrong: every problem with its place in the file.
    Space(Vec<Problem>),
}

impl core::fmt::Display for RecommendError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            RecommendError::Usage(p) => write!(f, "{p}"),
            RecommendError::Invalid(ps) | RecommendError::Objectives(ps) | RecommendError::Space(ps) => {
                let lines: Vec<String> = ps.iter().map(|p| p.to_string()).collect();
                write!(f, "{}", lines.join("\n"))
            }
        }
    }
}

/// One run of one candidate on one seed, reduced to what the study reads.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// Each verdict's value ([`Study::verdicts`] order); `None`: the metric is `null`.
    pub values: Vec<Option<f64>>,
    /// The minimised metric's value, with `--minimize`.
    pub metric: Option<f64>,
    /// `overall.unfinished` (never runnable jobs included).
    pub unfinished: u64,
    /// Per share: quota-seconds neither used by the share nor lent (quotas as at the start).
    pub idle_seconds: Vec<f64>,
    /// How long the run measured, from `startAt` to `endedAt`, in seconds.
    pub span: u64,
    /// A run that stopped with an error: its message (the candidate is infeasible).
    pub error: Option<String>,
}

/// One verdict the study checks: an objective, for one metric (a share, for `*`).
#[derive(Clone, Debug, PartialEq)]
pub struct VerdictSpec {
    /// `objectives[i]`.
    pub objective: String,
    /// The metric path, with a share in place of `*`.
    pub metric: String,
    /// The smallest value that meets it (inclusive), the objective's `min`.
    pub min: Option<f64>,
    /// The largest value that meets it (inclusive), the objective's `max`.
    pub max: Option<f64>,
}

impl VerdictSpec {
    /// Whether a value meets the bounds (`null` meets).
    pub fn met(&self, v: Option<f64>) -> bool {
        v.is_none_or(|x| self.min.is_none_or(|lo| x >= lo) && self.max.is_none_or(|hi| x <= hi))
    }

    /// How far inside its bounds a value is, relative to the bound (a bound of 0: absolute);
    /// negative when outside. `None` for `null`.
    pub fn slack(&self, v: Option<f64>) -> Option<f64> {
        let x = v?;
        let rel = |gap: f64, bound: f64| if bound == 0.0 { gap } else { gap / bound.abs() };
        let lo = self.min.map(|m| rel(x - m, m));
        let hi = self.max.map(|m| rel(m - x, m));
        match (lo, hi) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

/// A candidate's runs on every seed.
pub type Evaluation = Vec<Outcome>;

/// The study: the scenario, its seeds' jobs, the space, the objectives and the runs so far.
pub struct Study {
    pub(crate) scenario: Scenario,
    /// Per seed: the scenario with its workload expanded at the scenario's quotas.
    pub(crate) bases: Vec<Scenario>,
    pub(crate) seeds: Vec<Option<i64>>,
    pub(crate) space: Space,
    pub(crate) verdicts: Vec<VerdictSpec>,
    pub(crate) opts: RecommendOptions,
    /// Seeds on which an objective must hold.
    pub(crate) need: usize,
    pub(crate) runs: BTreeMap<Config, Evaluation>,
}

pub(super) fn usage(option: &str, message: String) -> RecommendError {
    RecommendError::Usage(Problem::error(option, message))
}

/// Checks the options alone (before the scenario is read).
pub fn check_options(o: &RecommendOptions) -> Result<(), RecommendError> {
    if o.replicates == 0 || o.replicates > MAX_REPLICATES {
        return Err(usage(
            "--replicates",
            format!("must be from 1 to {}, not {}", MAX_REPLICATES, o.replicates),
        ));
    }
    if !(o.confidence > 0.0 && o.confidence <= 1.0) {
        return Err(usage("--confidence", format!("must be above 0 and at most 1, not {}", o.confidence)));
    }
    if o.max_runs == 0 || o.max_runs > MAX_RUNS {
        return Err(usage("--max-runs", format!("must be from 1 to {MAX_RUNS}, not {}", o.max_runs)));
    }
    if o.max_runs < o.replicates {
        return Err(usage(
            "--max-runs",
            format!("{} runs cannot run one candidate on {} seeds", o.max_runs, o.replicates),
        ));
    }
    if let Some(m) = &o.minimize {
        if m.contains('*') {
            return Err(usage("--minimize", format!("`{m}`: one metric, not one per share (no `*`)")));
        }
        crate::metric::check_path(m).map_err(|e| usage("--minimize", e))?;
    }
    Ok(())
}

impl Study {
    /// The space searched.
    pub fn space(&self) -> &Space {
        &self.space
    }

    /// The verdicts checked, in order.
    pub fn verdicts(&self) -> &[VerdictSpec] {
        &self.verdicts
    }

    /// The scenario seed `k`'s candidates change: the input with its workload expanded.
    pub fn base(&self, k: usize) -> &Scenario {
        &self.bases[k]
    }

    /// How many seeds each candidate runs on.
    pub fn seed_count(&self) -> usize {
        self.bases.len()
    }

    /// Single-seed runs recorded so far.
    pub fn runs_done(&self) -> u64 {
        self.runs.values().map(|e| e.len() as u64).sum()
    }

    /// Whether candidate `c` is feasible, from its runs.
    pub(crate) fn feasible(&self, e: &Evaluation) -> bool {
        self.broken(e).is_empty()
    }

    /// The verdicts candidate `e` breaks (by index; `usize::MAX` for unfinished jobs).
    pub(crate) fn broken(&self, e: &Evaluation) -> Vec<usize> {
        let mut out = Vec::new();
        let ok_runs = e.iter().filter(|o| o.error.is_none() && o.unfinished == 0).count();
        if ok_runs < self.need {
            out.push(usize::MAX);
        }
        for (i, vs) in self.verdicts.iter().enumerate() {
            let met = e.iter().filter(|o| o.error.is_none() && vs.met(o.values[i])).count();
            if met < self.need {
                out.push(i);
            }
        }
        out
    }

    /// The tightest slack over the verdicts, each on its median over the seeds (infinity when
    /// none has a value).
    pub(crate) fn tightest_slack(&self, e: &Evaluation) -> f64 {
        let mut least = f64::INFINITY;
        for (i, vs) in self.verdicts.iter().enumerate() {
            let vals: Vec<f64> = e.iter().filter(|o| o.error.is_none()).filter_map(|o| o.values[i]).collect();
            if let Some(s) = vs.slack(median(vals)) {
                least = least.min(s);
            }
        }
        least
    }

    /// The candidate's cost: `capacityPerHour`, or the median of the minimised metric over the
    /// seeds (`None`: it has no value).
    pub(crate) fn cost(&self, c: &Config, e: &Evaluation) -> Option<f64> {
        match &self.opts.minimize {
            None => Some(self.space.capacity_per_hour(c)),
            Some(_) => median(e.iter().filter_map(|o| o.metric).collect()),
        }
    }
}

/// The median of some numbers (the lower middle one of an even count), or `None`.
pub(crate) fn median(mut v: Vec<f64>) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    Some(v[(v.len() - 1) / 2])
}
