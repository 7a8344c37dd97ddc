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
mod options;
pub mod report;
mod runner;

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::change::Change;
use crate::model::Scenario;
use crate::scenario::ValidScenario;
use crate::sim::{Options, Simulation};
use crate::validate::validate;
use bisect::Eval;
use options::usage;
use runner::{result_of, Runner};

pub use options::{
    check_options, Target, WhyError, WhyOptions, DEFAULT_MAX_RUNS, FORMAT_VERSION, HARM_WAIT_SECONDS,
    MAX_RUNS,
};
pub use report::{Found, Tested, Tried, TriedReport, WhyEvent, WhyReport};

/// What a study needs next.
pub enum WhyStep {
    /// This scenario run to its end (as [`Simulation::run`] runs it: to its horizon, if it has
    /// one; events need not be recorded), given back with [`WhyStudy::record`]. The first is
    /// the baseline, the others each a change of it ([`WhyStudy::running`]).
    Run(alloc::boxed::Box<ValidScenario>),
    /// The study is made: its report.
    Done(alloc::boxed::Box<WhyReport>),
}

/// The study as a state machine, for a caller that runs the simulations itself (a page that
/// runs each in slices of time): [`WhyStudy::next_step`] says which scenario to run next, and
/// [`WhyStudy::record`] takes the simulation back once it ran to its end. [`why`] is this loop
/// with each run made at once, so a study made in steps is the same report, byte for byte.
pub struct WhyStudy {
    opts: WhyOptions,
    base: Scenario,
    valid: ValidScenario,
    job: usize,
    stage: Stage,
}

enum Stage {
    /// The baseline is to be run.
    Baseline,
    /// The catalogue is being tried.
    Searching(alloc::boxed::Box<Searching>),
    /// It could not be made.
    Failed(WhyError),
    /// The report was given.
    Over,
}

struct Searching {
    runner: Runner,
    event: WhyEvent,
    entries: alloc::vec::IntoIter<catalogue::Entry>,
    trial: Option<bisect::Trial>,
    /// The change whose run was asked for and not yet recorded.
    pending: Option<Change>,
    found: Vec<Found>,
    tried: Vec<Tried>,
}

impl Searching {
    /// Records a change's outcome in the trial, and the side effects of what it found.
    fn record(&mut self, c: Change, e: Eval) {
        let Some(trial) = self.trial.as_mut() else { return };
        let mut found = Vec::new();
        trial.record(c, e, &mut found);
        for (set, entry, r) in found {
            self.found.push(effects::found(&self.runner, set, entry, &r));
        }
    }

    /// The next scenario to run, or the report once the catalogue is tried.
    fn next(&mut self, job: &str) -> WhyStep {
        loop {
            if let Some(c) = &self.pending {
                // Asked again before the run was recorded: the same run (it is counted once).
                if let Ok(v) = self.runner.prepare(c) {
                    return WhyStep::Run(alloc::boxed::Box::new(v));
                }
                self.pending = None;
            }
            let Some(trial) = self.trial.as_mut() else {
                match self.entries.next() {
                    Some(e) => match bisect::Trial::start(e, self.runner.left()) {
                        Ok(t) => self.trial = Some(t),
                        Err(t) => self.tried.push(*t),
                    },
                    None => return WhyStep::Done(alloc::boxed::Box::new(self.report(job))),
                }
                continue;
            };
            let Some(c) = trial.next() else {
                if let Some(t) = self.trial.take() {
                    self.tried.push(t.into_tried());
                }
                continue;
            };
            match self.runner.prepare(&c) {
                Ok(v) => {
                    self.runner.runs += 1;
                    self.pending = Some(c);
                    return WhyStep::Run(alloc::boxed::Box::new(v));
                }
                Err(m) => self.record(c, Eval::Invalid(m)),
            }
        }
    }

    fn report(&mut self, job: &str) -> WhyReport {
        let mut changes = core::mem::take(&mut self.found);
        // Fewest jobs harmed first; the catalogue's order among equals (a stable sort).
        changes.sort_by_key(|c| c.harmed.count);
        WhyReport {
            format_version: FORMAT_VERSION,
            job: job.to_string(),
            event: self.event.clone(),
            changes,
            tried: TriedReport {
                runs: self.runner.runs,
                max_runs: self.runner.max_runs,
                entries: core::mem::take(&mut self.tried),
            },
        }
    }
}

impl WhyStudy {
    /// The study of `opts.job` in scenario `s` (its workload, if any, expanded first: paths
    /// name the jobs `run --print-scenario` shows). Checks the options, the scenario and the
    /// job; runs nothing.
    pub fn new(s: &Scenario, opts: &WhyOptions) -> Result<WhyStudy, WhyError> {
        check_options(opts)?;
        let base = crate::workload::expanded(s).map_err(WhyError::Invalid)?;
        let valid = validate(&base).map_err(WhyError::Invalid)?;
        let Some(job) = valid.jobs.iter().position(|j| j.name == opts.job) else {
            return Err(usage("--job", unknown_job(&valid, &opts.job)));
        };
        Ok(WhyStudy { opts: opts.clone(), base, valid, job, stage: Stage::Baseline })
    }

    /// What to run next, or the report (given once); why the study cannot be made.
    pub fn next_step(&mut self) -> Result<WhyStep, WhyError> {
        match &mut self.stage {
            Stage::Baseline => Ok(WhyStep::Run(alloc::boxed::Box::new(self.valid.clone()))),
            Stage::Searching(s) => {
                let step = s.next(&self.opts.job);
                if matches!(step, WhyStep::Done(_)) {
                    self.stage = Stage::Over;
                }
                Ok(step)
            }
            Stage::Failed(e) => Err(e.clone()),
            Stage::Over => Err(WhyError::Run("the study is already made".into())),
        }
    }

    /// Takes back the simulation of the scenario [`Self::next_step`] gave, run to its end.
    pub fn record(&mut self, sim: &Simulation) {
        match &mut self.stage {
            Stage::Baseline => {
                self.stage = match self.searching(sim) {
                    Ok(s) => Stage::Searching(alloc::boxed::Box::new(s)),
                    Err(e) => Stage::Failed(e),
                }
            }
            Stage::Searching(s) => {
                if let Some(c) = s.pending.take() {
                    let e = s.runner.judge(sim);
                    s.record(c, e);
                }
            }
            Stage::Failed(_) | Stage::Over => {}
        }
    }

    /// The search's start, from the baseline run `sim`.
    fn searching(&self, sim: &Simulation) -> Result<Searching, WhyError> {
        if let Some(e) = sim.run_error() {
            return Err(WhyError::Run(e.to_string()));
        }
        let records: Vec<crate::PreemptionRecord> =
            sim.preemptions().iter().filter(|r| r.victim.index() == self.job).cloned().collect();
        let baseline = result_of(sim);
        let (event, target) = report::event_of(&self.valid, &baseline, self.job, &records, &self.opts)?;
        let entries = catalogue::catalogue(&self.valid, &self.base, self.job, &event, target);
        let runner = Runner {
            base: self.base.clone(),
            baseline,
            job: self.job,
            target,
            runs: 1,
            max_runs: self.opts.max_runs,
        };
        Ok(Searching {
            runner,
            event,
            entries: entries.into_iter(),
            trial: None,
            pending: None,
            found: Vec::new(),
            tried: Vec::new(),
        })
    }

    /// Runs started so far, the baseline included (the one in progress too).
    pub fn runs(&self) -> u32 {
        match &self.stage {
            Stage::Baseline => 1,
            Stage::Searching(s) => s.runner.runs,
            Stage::Failed(_) | Stage::Over => self.opts.max_runs.min(1),
        }
    }

    /// The most runs the study may make, the baseline included.
    pub fn max_runs(&self) -> u32 {
        self.opts.max_runs
    }

    /// The change whose run is in progress (`--set` text); `None` for the baseline.
    pub fn running(&self) -> Option<String> {
        match &self.stage {
            Stage::Searching(s) => s.pending.as_ref().map(Change::text),
            _ => None,
        }
    }
}

/// The study of `opts.job` in scenario `s` (its workload, if any, expanded first: paths name
/// the jobs `run --print-scenario` shows): [`WhyStudy`] with each run made at once.
pub fn why(s: &Scenario, opts: &WhyOptions) -> Result<WhyReport, WhyError> {
    let mut study = WhyStudy::new(s, opts)?;
    loop {
        match study.next_step()? {
            WhyStep::Run(valid) => {
                let mut sim =
                    Simulation::with_options(*valid, Options { record_events: false, ..Options::default() });
                sim.run();
                study.record(&sim);
            }
            WhyStep::Done(report) => return Ok(*report),
        }
    }
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
