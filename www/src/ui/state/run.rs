//! The run of the scenario being edited: a valid scenario is run in slices as soon as it
//! changes (a newer version replaces a run in progress), and a finished run goes on screen.

use std::sync::{Arc, Weak};

use leptos::prelude::*;
use quotasim::{Problem, ValidScenario};

use super::{AppState, Notice, Selection};
use crate::run::{RunBuilder, RunData};
use crate::ui::dom;
use crate::ui::task::Tasks;

#[derive(Clone)]
pub struct RunHandle {
    pub gen: u64,
    pub data: Arc<RunData>,
}

/// One validation of the scenario, by identity, held weakly (it keeps nothing alive): what a
/// run's progress or its cancellation belongs to. An edit makes them stop applying; nothing
/// has to clear them.
#[derive(Clone)]
struct Version(Weak<ValidScenario>);

impl Version {
    fn of(v: &Arc<ValidScenario>) -> Version {
        Version(Arc::downgrade(v))
    }

    fn is(&self, v: &Arc<ValidScenario>) -> bool {
        core::ptr::eq(self.0.as_ptr(), Arc::as_ptr(v))
    }
}

/// The last run of a valid scenario.
#[derive(Clone, Copy)]
pub struct RunState {
    pub handle: RwSignal<Option<RunHandle>>,
    /// The last run is not of the scenario as it is now (invalid or still running).
    pub stale: Memo<bool>,
    /// How long the last run took, in milliseconds of computing (its slices added up).
    pub ms: RwSignal<f64>,
    /// How far the run of the scenario as it is now is (0 to 1), once it has taken more than
    /// one slice.
    pub progress: Memo<Option<f64>>,
    /// The user cancelled the run of the scenario as it is now; the results on screen are of
    /// an earlier version.
    pub cancelled: Memo<bool>,
    progress_of: RwSignal<Option<(Version, f64)>>,
    cancelled_of: RwSignal<Option<Version>>,
    /// The generation of the last run (a new number for every run).
    pub(super) gen: StoredValue<u64>,
    /// The run in progress, in slices; a newer scenario replaces it, and with it its work.
    pub(super) tasks: Tasks,
    /// What the next results to be drawn answer, for the page's performance measures.
    pub(super) measure: StoredValue<Vec<&'static str>>,
}

impl RunState {
    /// The run state of the scenario whose validation is `valid`.
    pub(super) fn new(valid: Memo<Result<Arc<ValidScenario>, Vec<Problem>>>) -> RunState {
        let handle = RwSignal::new(None::<RunHandle>);
        let progress_of = RwSignal::new(None::<(Version, f64)>);
        let cancelled_of = RwSignal::new(None::<Version>);
        let stale = Memo::new(move |_| {
            valid.with(|v| match v {
                Ok(v) => !handle.with(|h| h.as_ref().is_some_and(|h| h.data.is_run_of(v))),
                Err(_) => true,
            })
        });
        let progress = Memo::new(move |_| {
            valid.with(|v| {
                let v = v.as_ref().ok()?;
                progress_of.with(|p| p.as_ref().filter(|(of, _)| of.is(v)).map(|p| p.1))
            })
        });
        let cancelled = Memo::new(move |_| {
            valid.with(|v| {
                v.as_ref().is_ok_and(|v| cancelled_of.with(|c| c.as_ref().is_some_and(|c| c.is(v))))
            })
        });
        RunState {
            handle,
            stale,
            ms: RwSignal::new(0.0),
            progress,
            cancelled,
            progress_of,
            cancelled_of,
            gen: StoredValue::new(0),
            tasks: Tasks::new(),
            measure: StoredValue::new(Vec::new()),
        }
    }
}

impl AppState {
    /// Starts running every valid version of the scenario: the effect hands each new version
    /// to the slicing task runner, which replaces a run in progress. It writes no state: what
    /// is stale, in progress or cancelled follows from the version and the run on screen.
    pub(super) fn start_runs(self) {
        // Run every valid scenario, a slice at a time; a newer version replaces a run in progress.
        Effect::new(move |_| {
            let v = self.doc.valid.get();
            match v {
                Err(_) => {
                    // Nothing will be drawn for this version: no measure ends here.
                    self.run.measure.set_value(Vec::new());
                    self.run.tasks.cancel();
                }
                // A scenario handed on from the baseline came with its run (see `swap_a_b`).
                Ok(v)
                    if self
                        .run
                        .handle
                        .with_untracked(|h| h.as_ref().is_some_and(|h| h.data.is_run_of(&v))) =>
                {
                    self.run.tasks.cancel();
                }
                Ok(v) => {
                    self.note_edit();
                    self.start_run(v);
                }
            }
        });
        // A run in progress stops with the page.
        on_cleanup(move || {
            self.run.tasks.cancel();
        });
    }

    /// Starts computing a run of `v` in slices, dropping any run in progress.
    pub(super) fn start_run(self, v: Arc<ValidScenario>) {
        let of = Version::of(&v);
        let mut b = RunBuilder::new(v);
        self.run.tasks.start(
            move |out_of_time| {
                let done = b.advance(out_of_time);
                if done.is_none() {
                    self.run.progress_of.set(Some((of.clone(), b.progress())));
                }
                done
            },
            move |data, ms| {
                self.run.progress_of.set(None);
                self.finish_run(Arc::new(data), Some(ms));
            },
        );
    }

    /// Runs the scenario again (after a cancelled run).
    pub fn rerun(self) {
        if let Ok(v) = self.doc.valid.get_untracked() {
            self.run.cancelled_of.set(None);
            self.start_run(v);
        }
    }

    /// Stops the run in progress, if any (the results on screen stay, marked stale).
    pub fn cancel_run(self) {
        if self.run.tasks.cancel() {
            self.run.progress_of.set(None);
            let v = self.doc.valid.with_untracked(|v| v.as_ref().ok().map(Version::of));
            self.run.cancelled_of.set(v);
        }
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
