//! Compare mode: a baseline A the edited scenario (B) is compared with. A runs whenever it
//! changes and is compared with B's run once both have run, each in slices; a scenario that
//! moves between A and B takes its validation and run with it.

use std::sync::Arc;

use leptos::prelude::*;
use quotasim::compare::{Comparison, JobComparison};
use quotasim::model::Scenario;
use quotasim::ValidScenario;

use super::AppState;
use crate::run::{RunBuilder, RunData};
use crate::ui::task::Tasks;

/// A validated scenario handed on with its run (when that has finished), when a scenario
/// moves between B and baseline A: it is neither validated nor run again.
#[derive(Clone)]
pub struct Prepared {
    pub valid: Arc<ValidScenario>,
    pub run: Option<Arc<RunData>>,
}

/// Compare mode: a baseline A the edited scenario (B) is compared with, its run, and the
/// report card's objectives.
#[derive(Clone, Copy)]
pub struct CompareState {
    pub baseline: RwSignal<Option<Scenario>>,
    /// A's run, or why A cannot run.
    pub run_a: RwSignal<Option<Result<Arc<RunData>, String>>>,
    /// The comparison of A's run with B's, once both have run (the last one while the next is
    /// computed), or why there is none.
    pub compared: RwSignal<Option<Result<Arc<Comparison>, String>>>,
    pub objectives: RwSignal<Option<quotasim::objective::Objectives>>,
    /// Seeds each side of the replicates runs on: 5, or the seeds per point of the sweep whose
    /// row was opened as B, so both compare on the very seeds the sweep's point ran.
    pub seeds: RwSignal<u32>,
    /// The baseline validated (before its run is done).
    pub(super) valid_a: StoredValue<Option<Arc<ValidScenario>>>,
    /// A's run in progress: a newer baseline stops an older one's run.
    pub(super) runs: Tasks,
    /// The comparison in progress: newer runs replace it.
    pub(super) comparing: Tasks,
    /// The validation and run of the baseline about to be set, when known.
    pub(super) prepared: StoredValue<Option<Prepared>>,
}

impl CompareState {
    pub(super) fn new(
        baseline: Option<Scenario>,
        objectives: Option<quotasim::objective::Objectives>,
    ) -> CompareState {
        CompareState {
            baseline: RwSignal::new(baseline),
            run_a: RwSignal::new(None),
            compared: RwSignal::new(None),
            objectives: RwSignal::new(objectives),
            valid_a: StoredValue::new(None),
            runs: Tasks::new(),
            comparing: Tasks::new(),
            seeds: RwSignal::new(5),
            prepared: StoredValue::new(None),
        }
    }
}

impl AppState {
    /// Starts running the baseline whenever it changes and comparing its run with B's: the
    /// effects hand each new pair to the slicing task runners.
    pub(super) fn start_comparisons(self) {
        // Compare mode: the baseline runs whenever it changes (it is edited far less than B),
        // in slices like B; a newer baseline stops an older one's run. A baseline that was B a
        // moment ago takes B's validation and run.
        Effect::new(move |_| {
            let prepared = self.cmp.prepared.try_update_value(Option::take).flatten();
            let next = self.cmp.baseline.with(|b| {
                b.as_ref().map(|a| match prepared {
                    Some(p) => Ok(p),
                    None => quotasim::validate(a)
                        .map(|v| Prepared { valid: Arc::new(v), run: None })
                        .map_err(|p| {
                            format!(
                                "the baseline is invalid: {}",
                                p.iter().find(|x| x.is_error()).map(|x| x.to_string()).unwrap_or_default()
                            )
                        }),
                })
            });
            self.cmp.runs.cancel();
            self.cmp.valid_a.set_value(next.as_ref().and_then(|n| n.as_ref().ok()).map(|p| p.valid.clone()));
            match next {
                None => self.cmp.run_a.set(None),
                Some(Err(e)) => self.cmp.run_a.set(Some(Err(e))),
                Some(Ok(Prepared { run: Some(data), .. })) => self.cmp.run_a.set(Some(Ok(data))),
                Some(Ok(Prepared { valid, run: None })) => {
                    let mut b = RunBuilder::new(valid);
                    self.cmp.runs.start(
                        move |out_of_time| b.advance(out_of_time),
                        move |d, _| {
                            let _ = self.cmp.run_a.try_set(Some(Ok(Arc::new(d))));
                        },
                    );
                }
            }
        });
        // Compare mode: A's run compared with B's, in slices, once both have run.
        Effect::new(move |_| {
            let a = self.cmp.run_a.get();
            let b = self.run.handle.with(|h| h.as_ref().map(|h| h.data.clone()));
            self.cmp.comparing.cancel();
            match (a, b) {
                (None, _) | (_, None) => self.cmp.compared.set(None),
                (Some(Err(e)), _) => self.cmp.compared.set(Some(Err(e))),
                (Some(Ok(a)), Some(b)) => {
                    let mut jobs = JobComparison::new();
                    self.cmp.comparing.start(
                        move |out_of_time| {
                            let (find_a, find_b) = (|n: &str| a.job_index(n), |n: &str| b.job_index(n));
                            let (sa, sb) = (a.side(&find_a), b.side(&find_b));
                            jobs.advance(&sa, &sb, out_of_time)
                                .then(|| core::mem::take(&mut jobs).finish(&sa, &sb, Vec::new()))
                        },
                        move |c, _| {
                            let _ = self.cmp.compared.try_set(Some(Ok(Arc::new(c))));
                        },
                    );
                }
            }
        });
    }

    /// The scenario as it is now, validated, with its run when that has finished (not tracked).
    pub(super) fn prepared_b(self) -> Option<Prepared> {
        let valid = self.doc.valid.with_untracked(|v| v.as_ref().ok().cloned())?;
        let run = self
            .run
            .handle
            .with_untracked(|h| h.as_ref().filter(|h| h.data.is_run_of(&valid)).map(|h| h.data.clone()));
        Some(Prepared { valid, run })
    }

    /// Compare mode's baseline becomes the scenario as it is now (entering compare mode, Make B
    /// the baseline, a sweep row opened as B), with its validation and run: nothing is
    /// validated or run again.
    pub fn baseline_from_b(self) {
        self.cmp.prepared.set_value(self.prepared_b());
        self.cmp.baseline.set(Some(self.doc.scenario.get_untracked()));
    }

    /// Swaps baseline A and variant B, each taking the other's validation and run.
    pub fn swap_a_b(self) {
        let Some(a) = self.cmp.baseline.get_untracked() else { return };
        let valid_a = self.cmp.valid_a.get_value();
        let run_a = self.cmp.run_a.with_untracked(|r| r.as_ref().and_then(|r| r.as_ref().ok().cloned()));
        self.baseline_from_b();
        self.doc.prepared.set_value(valid_a.clone());
        self.run.prepared.set_value(run_a.filter(|d| valid_a.as_ref().is_some_and(|v| d.is_run_of(v))));
        self.doc.edit(|cur, r| {
            *cur = a;
            r.fit(cur);
        });
    }
}
