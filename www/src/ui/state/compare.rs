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
/// report card's objectives. A's run and the comparison are derived from the last ones the
/// tasks finished; no effect writes them.
#[derive(Clone, Copy)]
pub struct CompareState {
    pub baseline: RwSignal<Option<Scenario>>,
    /// A's run (the last one finished while the next is computed), or why A cannot run.
    pub run_a: Memo<Option<Result<Arc<RunData>, String>>>,
    /// The comparison of A's run with B's, once both have run (the last one while the next is
    /// computed), or why there is none.
    pub compared: Memo<Option<Result<Arc<Comparison>, String>>>,
    pub objectives: RwSignal<Option<quotasim::objective::Objectives>>,
    /// Seeds each side of the replicates runs on: 5, or the seeds per point of the sweep whose
    /// row was opened as B, so both compare on the very seeds the sweep's point ran.
    pub seeds: RwSignal<u32>,
    /// The baseline validated (before its run is done), or why it is invalid.
    pub(super) valid_a: Memo<Option<Result<Arc<ValidScenario>, String>>>,
    /// A's last finished run (written by its task and by the hand-overs from B).
    last_a: RwSignal<Option<Arc<RunData>>>,
    /// The last comparison finished (written by its task).
    last_compared: RwSignal<Option<Arc<Comparison>>>,
    /// A's run in progress: a newer baseline stops an older one's run.
    pub(super) runs: Tasks,
    /// The comparison in progress: newer runs replace it.
    pub(super) comparing: Tasks,
    /// The validation of the baseline about to be set, when known.
    pub(super) prepared: StoredValue<Option<Arc<ValidScenario>>>,
}

/// Whether a memo of shared values changed: a different run, comparison or validation (by
/// identity, never compared deeply), a different reason, or one side missing.
fn changed<T>(
    a: Option<&Option<Result<Arc<T>, String>>>,
    b: Option<&Option<Result<Arc<T>, String>>>,
) -> bool {
    match (a, b) {
        (Some(Some(Ok(x))), Some(Some(Ok(y)))) => !Arc::ptr_eq(x, y),
        (Some(Some(Err(x))), Some(Some(Err(y)))) => x != y,
        (Some(None), Some(None)) => false,
        _ => true,
    }
}

impl CompareState {
    pub(super) fn new(
        baseline: Option<Scenario>,
        objectives: Option<quotasim::objective::Objectives>,
        b_run: RwSignal<Option<super::RunHandle>>,
    ) -> CompareState {
        let baseline = RwSignal::new(baseline);
        let prepared = StoredValue::new(None::<Arc<ValidScenario>>);
        // A baseline that was B a moment ago comes with B's validation.
        let valid_a = Memo::new_with_compare(
            move |_| {
                baseline.with(|b| {
                    b.as_ref().map(|a| match prepared.try_update_value(Option::take).flatten() {
                        Some(v) => Ok(v),
                        None => quotasim::validate(a).map(Arc::new).map_err(|p| {
                            format!(
                                "the baseline is invalid: {}",
                                p.iter().find(|x| x.is_error()).map(|x| x.to_string()).unwrap_or_default()
                            )
                        }),
                    })
                })
            },
            changed,
        );
        let last_a = RwSignal::new(None::<Arc<RunData>>);
        let run_a = Memo::new_with_compare(
            move |_| {
                valid_a.with(|v| match v {
                    None => None,
                    Some(Err(e)) => Some(Err(e.clone())),
                    Some(Ok(_)) => last_a.get().map(Ok),
                })
            },
            changed,
        );
        let last_compared = RwSignal::new(None::<Arc<Comparison>>);
        let compared = Memo::new_with_compare(
            move |_| {
                let b = b_run.with(Option::is_some);
                run_a.with(|a| match (a, b) {
                    (None, _) | (_, false) => None,
                    (Some(Err(e)), _) => Some(Err(e.clone())),
                    (Some(Ok(_)), true) => last_compared.get().map(Ok),
                })
            },
            changed,
        );
        CompareState {
            baseline,
            run_a,
            compared,
            objectives: RwSignal::new(objectives),
            seeds: RwSignal::new(5),
            valid_a,
            last_a,
            last_compared,
            runs: Tasks::new(),
            comparing: Tasks::new(),
            prepared,
        }
    }

    /// Sets the baseline (`None`: compare mode ends, and A's run and the comparison go with it:
    /// no run is held after them).
    pub fn set_baseline(self, baseline: Option<Scenario>) {
        if baseline.is_none() {
            self.last_a.set(None);
            self.last_compared.set(None);
        }
        self.baseline.set(baseline);
    }
}

impl AppState {
    /// Starts running the baseline whenever it changes and comparing its run with B's: the
    /// effects only hand each new pair to the slicing task runners.
    pub(super) fn start_comparisons(self) {
        // Compare mode: the baseline runs whenever it changes (it is edited far less than B),
        // in slices like B; a newer baseline stops an older one's run. A baseline that was B a
        // moment ago came with B's run (see `baseline_from_b`).
        Effect::new(move |_| {
            let next = self.cmp.valid_a.get();
            self.cmp.runs.cancel();
            if let Some(Ok(valid)) = next {
                if !self.cmp.last_a.with_untracked(|d| d.as_ref().is_some_and(|d| d.is_run_of(&valid))) {
                    let last_a = self.cmp.last_a;
                    let mut b = RunBuilder::new(valid);
                    self.cmp.runs.start(
                        move |out_of_time| b.advance(out_of_time),
                        move |d, _| {
                            let _ = last_a.try_set(Some(Arc::new(d)));
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
            if let (Some(Ok(a)), Some(b)) = (a, b) {
                let last = self.cmp.last_compared;
                let mut jobs = JobComparison::new();
                self.cmp.comparing.start(
                    move |out_of_time| {
                        let (find_a, find_b) = (|n: &str| a.job_index(n), |n: &str| b.job_index(n));
                        let (sa, sb) = (a.side(&find_a), b.side(&find_b));
                        jobs.advance(&sa, &sb, out_of_time)
                            .then(|| core::mem::take(&mut jobs).finish(&sa, &sb, Vec::new()))
                    },
                    move |c, _| {
                        let _ = last.try_set(Some(Arc::new(c)));
                    },
                );
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
        if let Some(p) = self.prepared_b() {
            if let Some(run) = p.run {
                self.cmp.last_a.set(Some(run));
            }
            self.cmp.prepared.set_value(Some(p.valid));
        }
        self.cmp.baseline.set(Some(self.doc.scenario.get_untracked()));
    }

    /// Swaps baseline A and variant B, each taking the other's validation and run.
    pub fn swap_a_b(self) {
        let Some(a) = self.cmp.baseline.get_untracked() else { return };
        let valid_a = self.cmp.valid_a.with_untracked(|v| v.as_ref().and_then(|v| v.as_ref().ok().cloned()));
        let run_a =
            self.cmp.last_a.get_untracked().filter(|d| valid_a.as_ref().is_some_and(|v| d.is_run_of(v)));
        self.baseline_from_b();
        self.doc.prepared.set_value(valid_a);
        // A's run goes on screen as B's in the same task: the run effect finds it is the run
        // of the version it sees and starts nothing.
        if let Some(run) = run_a {
            self.note_edit();
            self.finish_run(run, None);
        }
        self.doc.edit(|cur, r| {
            *cur = a;
            r.fit(cur);
        });
    }
}
