//! The run of the scenario being edited: a valid scenario is run in slices as soon as it
//! changes (a newer version replaces a run in progress), and a finished run goes on screen.

use std::sync::Arc;

use leptos::prelude::*;
use quotasim::ValidScenario;

use super::{AppState, Notice, Selection};
use crate::run::{RunBuilder, RunData};
use crate::ui::dom;
use crate::ui::task::Tasks;

#[derive(Clone)]
pub struct RunHandle {
    pub gen: u64,
    pub data: Arc<RunData>,
}

/// The last run of a valid scenario.
#[derive(Clone, Copy)]
pub struct RunState {
    pub handle: RwSignal<Option<RunHandle>>,
    /// The last run is not of the scenario as it is now (invalid or still running).
    pub stale: RwSignal<bool>,
    /// How long the last run took, in milliseconds of computing (its slices added up).
    pub ms: RwSignal<f64>,
    /// How far the run in progress is (0 to 1), once it has taken more than one slice.
    pub progress: RwSignal<Option<f64>>,
    /// The user cancelled the run in progress; the results on screen are of an earlier version.
    pub cancelled: RwSignal<bool>,
    /// The generation of the last run (a new number for every run).
    pub(super) gen: StoredValue<u64>,
    /// The run in progress, in slices; a newer scenario replaces it, and with it its work.
    pub(super) tasks: Tasks,
    /// The run of the scenario about to be set, when it is known (see [`super::Prepared`]).
    pub(super) prepared: StoredValue<Option<Arc<RunData>>>,
    /// What the next results to be drawn answer, for the page's performance measures.
    pub(super) measure: StoredValue<Vec<&'static str>>,
}

impl RunState {
    pub(super) fn new() -> RunState {
        RunState {
            handle: RwSignal::new(None),
            stale: RwSignal::new(true),
            ms: RwSignal::new(0.0),
            progress: RwSignal::new(None),
            cancelled: RwSignal::new(false),
            gen: StoredValue::new(0),
            tasks: Tasks::new(),
            prepared: StoredValue::new(None),
            measure: StoredValue::new(Vec::new()),
        }
    }
}

impl AppState {
    /// Starts running every valid version of the scenario: the effect hands each new version
    /// to the slicing task runner, which replaces a run in progress.
    pub(super) fn start_runs(self) {
        // Run every valid scenario, a slice at a time; a newer version replaces a run in progress.
        Effect::new(move |_| {
            let v = self.doc.valid.get();
            self.run.stale.set(true);
            self.run.cancelled.set(false);
            self.note_edit();
            let prepared = self.run.prepared.try_update_value(Option::take).flatten();
            match v {
                Err(_) => {
                    // Nothing will be drawn for this version: no measure ends here.
                    self.run.measure.set_value(Vec::new());
                    self.cancel_pending();
                }
                // The run of a scenario handed on from the baseline is that one's run.
                Ok(v) => match prepared.filter(|d| d.is_run_of(&v)) {
                    Some(data) => {
                        self.cancel_pending();
                        self.finish_run(data, None);
                    }
                    None => self.start_run(v),
                },
            }
        });
        // A run in progress stops with the page.
        on_cleanup(move || {
            self.run.tasks.cancel();
        });
    }

    /// Starts computing a run of `v` in slices, dropping any run in progress.
    pub(super) fn start_run(self, v: Arc<ValidScenario>) {
        let mut b = RunBuilder::new(v);
        self.run.tasks.start(
            move |out_of_time| {
                let done = b.advance(out_of_time);
                if done.is_none() {
                    self.run.progress.set(Some(b.progress()));
                }
                done
            },
            move |data, ms| {
                self.run.progress.set(None);
                self.finish_run(Arc::new(data), Some(ms));
            },
        );
    }

    /// Runs the scenario again (after a cancelled run).
    pub fn rerun(self) {
        if let Ok(v) = self.doc.valid.get_untracked() {
            self.run.cancelled.set(false);
            self.start_run(v);
        }
    }

    /// Stops the run in progress, if any (the results on screen stay, marked stale).
    pub fn cancel_run(self) {
        if self.run.tasks.busy() {
            self.cancel_pending();
            self.run.cancelled.set(true);
        }
    }

    pub(super) fn cancel_pending(self) {
        self.run.tasks.cancel();
        self.run.progress.set(None);
    }

    /// Marks the start of what the next results answer: an edit, unless an import is waiting
    /// for its results (`performance.mark`, for the page's measures).
    pub(super) fn note_edit(self) {
        let fresh = self.run.measure.try_update_value(|m| {
            let fresh = m.is_empty();
            if fresh {
                m.push("edit");
            }
            fresh
        });
        if fresh == Some(true) {
            dom::perf_mark("quotasim:edit");
        }
    }

    /// Marks the start of an import (a file read or pasted); its results end the measure
    /// `quotasim:import-to-render`.
    pub fn note_import(&self) {
        self.run.measure.set_value(vec!["import"]);
        dom::perf_mark("quotasim:import");
    }

    /// Puts a finished run on screen (`ms`: its computing time; `None` for a run handed on).
    pub(super) fn finish_run(self, data: Arc<RunData>, ms: Option<f64>) {
        let gen = self.run.gen.get_value() + 1;
        self.run.gen.set_value(gen);
        let (start, end) = (data.start, data.end);
        if let Some(e) = &data.error {
            self.chrome.notice.set(Some(Notice::text(format!("The run stopped early: {e}."))));
        }
        // The previous run goes before the new one is in place: never two runs' worth of memory
        // held beyond this point.
        self.play.cursor.set_value(None);
        self.run.handle.set(Some(RunHandle { gen, data }));
        if let Some(ms) = ms {
            self.run.ms.set(ms);
        }
        self.run.stale.set(false);
        if self.play.now.get_untracked() > end {
            self.play.now.set(end);
        }
        // A live state (R28) begins at its startAt: nothing is before it.
        if self.play.now.get_untracked() < start {
            self.play.now.set(start);
        }
        if let Some(Selection::Preemption(i)) = self.chrome.selection.get_untracked() {
            let n = self.run.handle.with_untracked(|r| r.as_ref().map_or(0, |r| r.data.preemptions.len()));
            if i >= n {
                self.chrome.selection.set(None);
            }
        }
        // The measures end once the new results are drawn: after the next frame.
        let kinds = self.run.measure.try_update_value(core::mem::take).unwrap_or_default();
        if !kinds.is_empty() {
            dom::after_next_paint(move || {
                for k in kinds {
                    dom::perf_measure(&format!("quotasim:{k}-to-render"), &format!("quotasim:{k}"));
                }
                dom::mark_memory();
            });
        }
    }
}
