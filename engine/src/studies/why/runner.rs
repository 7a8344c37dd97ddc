//! The baseline and the runs a study spends: every run of the study goes through it.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::bisect::Eval;
use super::options::Target;
use crate::change::{apply_changes, Change};
use crate::model::Scenario;
use crate::result::SimResult;
use crate::scenario::ValidScenario;
use crate::sim::Simulation;
use crate::validate::validate;

/// The baseline and the runs spent: every run of the study goes through it.
pub(crate) struct Runner {
    pub(crate) base: Scenario,
    pub(crate) baseline: SimResult,
    /// The job's index in the scenario (and in every run's job list).
    pub(crate) job: usize,
    pub(crate) target: Target,
    pub(crate) runs: u32,
    pub(crate) max_runs: u32,
}

impl Runner {
    pub(crate) fn left(&self) -> u32 {
        self.max_runs.saturating_sub(self.runs)
    }

    /// The scenario with `c` applied, validated, or why it cannot be run (no run is spent).
    pub(super) fn prepare(&self, c: &Change) -> Result<ValidScenario, String> {
        let changed = apply_changes(&self.base, core::slice::from_ref(c)).map_err(|p| p.message)?;
        validate(&changed).map_err(|ps| ps.first().map_or_else(String::new, |p| p.to_string()))
    }

    /// Judges the job in `sim`, a changed scenario run to its end, against the target.
    pub(super) fn judge(&self, sim: &Simulation) -> Eval {
        if let Some(e) = sim.run_error() {
            return Eval::Invalid(e.to_string());
        }
        let r = result_of(sim);
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

/// A run's result without its events.
pub(super) fn result_of(sim: &Simulation) -> SimResult {
    SimResult {
        format_version: 1,
        ended_at: sim.ended_at(),
        jobs: sim.jobs(),
        events: Vec::new(),
        summary: sim.summary(),
    }
}
