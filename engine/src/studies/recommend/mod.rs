//! "Which quotas should we set?" (`quotasim recommend`): the least costly quota shares and
//! service environment that meet every objective, with a certificate of local optimality.
//!
//! A study one layer above the simulation, made only of its pieces: a candidate is a set of
//! changes by path ([`crate::change`]) to the scenario, run in full by the engine on each seed;
//! its verdicts are the objectives' ([`crate::objective`]); the trade-off front is the sweep's
//! ([`crate::sweep::pareto`]).
//!
//! - [`space`]: the dimensions searched, their values, and the cost of a candidate;
//! - [`search`]: the method (coordinate descent with bisection, sharing re-chosen from a
//!   ladder), deterministic and bounded by a run budget;
//! - [`report`]: the answer and its proof (JSON), and its text.
//!
//! **The workload.** Listed jobs are run as they are. A `workload` section is expanded once per
//! seed, at the scenario's own quotas, and every candidate runs those same jobs (common random
//! numbers): the generator sizes jobs and paces `loadPercent` by the quotas, so expanding it
//! per candidate would change the workload with the policy.
//!
//! **Feasible** means: every objective is met on at least `need` of the seeds, and on as many
//! no job is left unfinished (`overall.unfinished`, which counts the never runnable ones): a
//! `null` metric meets an objective, so a share starved of every start would otherwise meet its
//! wait objective.
//!
//! **Replayed, not resumed.** [`Study::next`] runs the search from the start against the runs
//! recorded so far and stops at the first candidate it has no runs for, returning it with the
//! others the search asks for at the same point (a batch). The search is cheap next to a run,
//! deterministic, and never depends on the order in which a batch's runs finish, so a front end
//! may run a batch on every core, or a run at a time in slices, and gets the same report.

pub mod report;
pub mod search;
pub mod space;
mod study;

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::change::apply_changes;
use crate::compare::run_to_end;
use crate::metric::{resolve, summary_value};
use crate::model::Scenario;
use crate::objective::Objectives;
use crate::result::SummaryResult;
use crate::sim::{Options, Simulation};
use crate::validate::{validate, Problem};

pub use report::RecommendReport;
pub use space::{Config, Space, SpaceFile};
use study::usage;
pub use study::{
    check_options, Evaluation, Outcome, RecommendError, RecommendOptions, Study, VerdictSpec,
    DEFAULT_MAX_RUNS, FORMAT_VERSION, MAX_REPLICATES, MAX_RUNS,
};

/// A candidate's run on one seed, ready to be stepped to its end ([`Study::start`]).
pub struct CandidateRun {
    /// The simulation: step it to its end.
    pub sim: Simulation,
    /// Each share's quota, summed over types (for its idle quota).
    quotas: Vec<i64>,
    start_at: u64,
}

impl CandidateRun {
    /// Runs at most `instants` more instants (R10) of the simulation, as [`Simulation::run`]
    /// would (to the horizon, if there is one); whether it is at its end.
    pub fn advance(&mut self, instants: usize) -> bool {
        let horizon = self.sim.scenario().settings.horizon;
        for _ in 0..instants {
            match self.sim.next_event_at() {
                Some(t) if horizon.is_none_or(|h| t <= h) => {
                    self.sim.step();
                }
                _ => {
                    if let Some(h) = horizon {
                        self.sim.run_until(h);
                    }
                    return true;
                }
            }
        }
        false
    }
}

/// What the study needs next.
pub enum RecommendStep {
    /// These candidates, each on every seed ([`Study::scenario_of`]), recorded with
    /// [`Study::record`] in any order.
    Run(Vec<Config>),
    /// The study is made: its report.
    Done(alloc::boxed::Box<RecommendReport>),
}

impl Study {
    /// A study of `scenario` against `objectives` over `space`: every problem with its path
    /// (the scenario's, `objectives[i].metric`, the space file's), before anything runs.
    pub fn new(
        scenario: &Scenario,
        objectives: &Objectives,
        space: &SpaceFile,
        opts: &RecommendOptions,
    ) -> Result<Study, RecommendError> {
        check_options(opts)?;
        validate(scenario).map_err(RecommendError::Invalid)?;
        if opts.replicates > 1 && scenario.workload.is_none() {
            return Err(usage(
                "--replicates",
                "replicates need a `workload` section (listed jobs are the same on every seed; \
                 `quotasim fit-workload` fits one to them)"
                    .to_string(),
            ));
        }
        let space = space::build_space(scenario, space).map_err(RecommendError::Space)?;
        // The objectives and the minimised metric against the scenario's summary shape (a run
        // of no jobs: every share, every metric).
        let shape = crate::sweep::shape_of(scenario);
        let empty = run_to_end(validate(&shape).map_err(RecommendError::Invalid)?, false)
            .map_err(|e| RecommendError::Invalid(alloc::vec![Problem::error("", e.to_string())]))?;
        let summary = summary_value(&crate::compare::summary_of(&empty));
        let mut verdicts = Vec::new();
        let mut problems = Vec::new();
        for (i, ob) in objectives.objectives.iter().enumerate() {
            match resolve(&summary, &ob.metric) {
                Ok(vs) => verdicts.extend(vs.into_iter().map(|v| VerdictSpec {
                    objective: format!("objectives[{i}]"),
                    metric: v.path,
                    min: ob.min,
                    max: ob.max,
                })),
                Err(m) => problems.push(Problem::error(format!("objectives[{i}].metric"), m)),
            }
        }
        if let Some(m) = &opts.minimize {
            if let Err(e) = resolve(&summary, m) {
                problems.push(Problem::error("--minimize", e));
            }
        }
        if !problems.is_empty() {
            return Err(RecommendError::Objectives(problems));
        }
        // Each seed's jobs, expanded once at the scenario's quotas.
        let seeds: Vec<Option<i64>> = match &scenario.workload {
            Some(w) => crate::replicates::seeds(w.seed, opts.replicates).into_iter().map(Some).collect(),
            None => alloc::vec![None],
        };
        let mut bases = Vec::new();
        for seed in &seeds {
            let s = match seed {
                Some(k) => crate::workload::expanded(&crate::workload::with_seed(scenario, *k))
                    .map_err(RecommendError::Invalid)?,
                None => scenario.clone(),
            };
            bases.push(s);
        }
        let need = libm::ceil(opts.confidence * seeds.len() as f64 - 1e-9).max(1.0) as usize;
        Ok(Study {
            scenario: scenario.clone(),
            bases,
            seeds,
            space,
            verdicts,
            opts: opts.clone(),
            need: need.min(opts.replicates as usize),
            runs: BTreeMap::new(),
        })
    }

    /// The scenario candidate `c` runs on seed `k` (its jobs listed), or why it cannot run
    /// (then the candidate is infeasible; no run is spent on it).
    pub fn scenario_of(&self, c: &Config, k: usize) -> Result<Scenario, String> {
        let changes = self.space.changes(c, &self.scenario);
        apply_changes(&self.bases[k], &changes).map_err(|p| p.to_string())
    }

    /// Candidate `c` run on seed `k`, to its end: what the study reads of it.
    pub fn run(&self, c: &Config, k: usize) -> Outcome {
        match self.start(c, k) {
            Ok(mut r) => {
                r.sim.run();
                self.finish(&r)
            }
            Err(o) => o,
        }
    }

    /// Candidate `c` on seed `k`, ready to run: a front end that runs it in slices steps
    /// `sim` to its end ([`Simulation::step`]) and gives it to [`Study::finish`]. `Err`: it
    /// cannot run (its outcome says why; the candidate is infeasible).
    pub fn start(&self, c: &Config, k: usize) -> Result<CandidateRun, Outcome> {
        let s = self.scenario_of(c, k).map_err(|m| self.failed(m))?;
        let valid =
            validate(&s).map_err(|ps| self.failed(ps.first().map_or_else(String::new, |p| p.to_string())))?;
        let quotas = s
            .quota_shares
            .iter()
            .map(|q| q.capacity_limits.iter().map(|c| c.max_capacity.max(0)).sum())
            .collect();
        let start_at = s.settings.start_at.max(0) as u64;
        drop(s);
        let sim = Simulation::with_options(valid, Options { record_events: false, ..Options::default() });
        Ok(CandidateRun { sim, quotas, start_at })
    }

    /// What the study reads of a candidate's run once it ran to its end.
    pub fn finish(&self, r: &CandidateRun) -> Outcome {
        if let Some(e) = r.sim.run_error() {
            return self.failed(e.to_string());
        }
        self.reduce(&r.quotas, r.start_at, &r.sim.summary_result())
    }

    fn failed(&self, m: String) -> Outcome {
        Outcome {
            values: alloc::vec![None; self.verdicts.len()],
            metric: None,
            unfinished: 0,
            idle_seconds: alloc::vec![0.0; self.scenario.quota_shares.len()],
            span: 0,
            error: Some(m),
        }
    }

    /// What the study reads of a run of scenario `s` (a candidate on a seed) that ended with
    /// `r`: for a front end that runs the simulation itself.
    pub fn outcome(&self, s: &Scenario, r: &SummaryResult) -> Outcome {
        let quotas: Vec<i64> = s
            .quota_shares
            .iter()
            .map(|q| q.capacity_limits.iter().map(|c| c.max_capacity.max(0)).sum())
            .collect();
        self.reduce(&quotas, s.settings.start_at.max(0) as u64, r)
    }

    fn reduce(&self, quotas: &[i64], start_at: u64, r: &SummaryResult) -> Outcome {
        let v = summary_value(r);
        let value = |path: &str| resolve(&v, path).ok().and_then(|m| m.first().and_then(|x| x.value));
        let span = r.ended_at.saturating_sub(start_at);
        let idle_seconds = r
            .summary
            .per_quota_share
            .iter()
            .zip(quotas)
            .map(|((_, m), quota)| {
                let held = (m.instance_seconds_own + m.instance_seconds_lent) as f64;
                (*quota as f64 * span as f64 - held).max(0.0)
            })
            .collect();
        Outcome {
            values: self.verdicts.iter().map(|vs| value(&vs.metric)).collect(),
            metric: self.opts.minimize.as_deref().and_then(value),
            unfinished: r.summary.overall.unfinished,
            idle_seconds,
            span,
            error: None,
        }
    }

    /// Records candidate `c`'s runs, one per seed in seed order.
    pub fn record(&mut self, c: Config, outcomes: Evaluation) {
        self.runs.insert(c, outcomes);
    }

    /// What to run next, or the report ([`RecommendStep`]).
    pub fn next(&self) -> RecommendStep {
        match search::replay(self) {
            search::Replayed::Need(cs) => RecommendStep::Run(cs),
            search::Replayed::Done(state) => {
                RecommendStep::Done(alloc::boxed::Box::new(report::build(self, &state)))
            }
        }
    }
}

/// The study made at once: each batch run in order, one run at a time. A front end with
/// threads runs each batch's runs in parallel and records them; the report is the same.
pub fn recommend(
    scenario: &Scenario,
    objectives: &Objectives,
    space: &SpaceFile,
    opts: &RecommendOptions,
) -> Result<RecommendReport, RecommendError> {
    let mut study = Study::new(scenario, objectives, space, opts)?;
    loop {
        match study.next() {
            RecommendStep::Done(r) => return Ok(*r),
            RecommendStep::Run(cs) => {
                for c in cs {
                    let e: Evaluation = (0..study.seed_count()).map(|k| study.run(&c, k)).collect();
                    study.record(c, e);
                }
            }
        }
    }
}

/// The recommended scenario: the input with the recommendation's changes (its `workload`
/// section, if any, kept as it was).
pub fn recommended_scenario(scenario: &Scenario, r: &RecommendReport) -> Result<Scenario, Problem> {
    let changes: Vec<crate::change::Change> =
        r.recommended.set.iter().map(|c| crate::change::Change::parse(c)).collect::<Result<_, _>>()?;
    apply_changes(scenario, &changes)
}
