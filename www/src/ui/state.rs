//! The one shared state of the app, provided as context, and the effects that keep it
//! consistent: validation as the user types, runs of valid scenarios, the simulation standing
//! at the current instant, autosave to localStorage and the URL.

use std::collections::HashMap;
use std::sync::Arc;

use gloo_timers::callback::Timeout;
use leptos::prelude::*;
use quotasim::compare::{Comparison, JobComparison};
use quotasim::model::Scenario;
use quotasim::result::Snapshot;
use quotasim::{Problem, Simulation, ValidScenario};

use crate::persist::{self, HistoryEntry, Saved};
use crate::presets;
use crate::rows::{List, RowIds};
use crate::run::{RunBuilder, RunData};
use crate::ui::dom;
use crate::ui::task::Tasks;
pub use crate::ui::task::SLICE_MS;
use crate::undo::{Kept, UndoStack};

/// Which editor tab is open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Capacity,
    Shares,
    Jobs,
    Actions,
    Settings,
}

/// What the explanation panel shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selection {
    /// Index into the run's preemption log.
    Preemption(usize),
    /// A job, explained at the current instant.
    Job(usize),
}

/// A finished run with a generation number (a new number for every run).
#[derive(Clone)]
pub struct RunHandle {
    pub gen: u64,
    pub data: Arc<RunData>,
}

/// A message under the top bar; `back` is the scenario a "Go back" button restores; `export`
/// offers the scenario as a file.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    pub text: String,
    pub back: Option<Box<Saved>>,
    pub export: bool,
}

impl Notice {
    pub fn text(text: impl Into<String>) -> Notice {
        Notice { text: text.into(), back: None, export: false }
    }

    /// A message with a button that downloads the scenario as a file.
    pub fn export(text: impl Into<String>) -> Notice {
        Notice { text: text.into(), back: None, export: true }
    }

    /// Says that `prev` was replaced (`kept`: whether the history holds it) and offers it back.
    fn replaced(lead: &str, prev: Saved, kept: bool) -> Notice {
        let where_ = if kept {
            "it is kept in History"
        } else {
            "it is too large for History, so Go back is the way to it until the page is reloaded"
        };
        Notice {
            text: format!(
                "{lead}Your previous scenario “{}” ({} jobs) was replaced; {where_}.",
                persist::shown_name(&prev),
                prev.scenario.jobs.len()
            ),
            back: Some(Box::new(prev)),
            export: false,
        }
    }
}

/// Whether putting `next` in place of `prev` loses work worth keeping: an edited or imported
/// scenario (a built-in one as it ships can be loaded again) that `next` does not equal.
fn replaces_work(prev: &Saved, next: &Saved) -> bool {
    prev.scenario != next.scenario && !presets::is_pristine(prev.preset.as_deref(), &prev.scenario)
}

/// A validated scenario handed on with its run (when that has finished), when a scenario
/// moves between B and baseline A: it is neither validated nor run again.
#[derive(Clone)]
pub struct Prepared {
    pub valid: Arc<ValidScenario>,
    pub run: Option<Arc<RunData>>,
}

/// The scenario being edited and what is saved with it: its share colours, the preset it came
/// from, its validation and the history of replaced scenarios.
#[derive(Clone, Copy)]
pub struct Document {
    pub scenario: RwSignal<Scenario>,
    pub colors: RwSignal<Vec<(String, String)>>,
    pub preset: RwSignal<Option<String>>,
    /// The scenario validated, shared with the run made of it (never copied for it).
    pub valid: Memo<Result<Arc<ValidScenario>, Vec<Problem>>>,
    pub problems: Memo<Vec<Problem>>,
    /// Scenarios replaced by links, imports and presets, newest first (see [`persist::remember`]).
    pub history: RwSignal<Vec<HistoryEntry>>,
    /// Stable ids of the scenario's jobs and shares, in row order (see [`RowIds`]).
    pub rows: RwSignal<RowIds>,
    job_rows: Memo<HashMap<u64, usize>>,
    share_rows: Memo<HashMap<u64, usize>>,
    type_rows: Memo<HashMap<u64, usize>>,
    action_rows: Memo<HashMap<u64, usize>>,
    save_timer: StoredValue<Option<Timeout>, LocalStorage>,
    /// A large state's autosave being written in slices; any change of the state stops it.
    saving: Tasks,
    /// No autosave while the last one is being read back.
    saving_paused: StoredValue<bool>,
    /// The validation of the scenario about to be set, when it is known (see [`Prepared`]).
    prepared: StoredValue<Option<Arc<ValidScenario>>>,
    /// Undo and redo of edits (not of loads, which the history keeps).
    undo: StoredValue<UndoStack<Kept>>,
    /// The scenario as it was after the last change recorded.
    last: StoredValue<Option<Kept>>,
    /// The next scenario change is an undo, a redo or a load: not an edit to record.
    restoring: StoredValue<bool>,
    pub can_undo: RwSignal<bool>,
    pub can_redo: RwSignal<bool>,
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
    gen: StoredValue<u64>,
    /// The run in progress, in slices; a newer scenario replaces it, and with it its work.
    tasks: Tasks,
    /// The run of the scenario about to be set, when it is known (see [`Prepared`]).
    prepared: StoredValue<Option<Arc<RunData>>>,
    /// What the next results to be drawn answer, for the page's performance measures.
    measure: StoredValue<Vec<&'static str>>,
}

/// Where the run is being watched: the current instant, playing, and what shows there.
#[derive(Clone, Copy)]
pub struct Playback {
    pub now: RwSignal<u64>,
    pub playing: RwSignal<bool>,
    /// Simulated seconds per real second; 0 = play the whole run in about 20 seconds.
    pub speed: RwSignal<u64>,
    /// The R25 snapshot at `now`.
    pub snapshot: RwSignal<Option<Snapshot>>,
    /// The time window the charts show (clamped to the run; `(0, u64::MAX)` is all of it).
    pub view: RwSignal<(u64, u64)>,
    /// The simulation standing at `now`, with the generation of the run it belongs to.
    cursor: StoredValue<Option<(u64, Simulation)>>,
}

/// The page around the scenario and its run: what is selected, open and how wide.
#[derive(Clone, Copy)]
pub struct Chrome {
    pub selection: RwSignal<Option<Selection>>,
    pub tab: RwSignal<Tab>,
    pub width: RwSignal<f64>,
    pub notice: RwSignal<Option<Notice>>,
    pub dialog: RwSignal<bool>,
    pub history_open: RwSignal<bool>,
    /// The editor takes more of the page (for wide job tables).
    pub wide_editor: RwSignal<bool>,
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
    valid_a: StoredValue<Option<Arc<ValidScenario>>>,
    /// A's run in progress: a newer baseline stops an older one's run.
    runs: Tasks,
    /// The comparison in progress: newer runs replace it.
    comparing: Tasks,
    /// The validation and run of the baseline about to be set, when known.
    prepared: StoredValue<Option<Prepared>>,
}

/// The one state of the app, by concern; every part is signals, so all of it is `Copy`.
#[derive(Clone, Copy)]
pub struct AppState {
    pub doc: Document,
    pub run: RunState,
    pub play: Playback,
    pub chrome: Chrome,
    pub cmp: CompareState,
}

impl Document {
    /// Edits the scenario and its row ids together: `f` changes the lists and says where rows
    /// were added or removed.
    pub fn edit(&self, f: impl FnOnce(&mut Scenario, &mut RowIds)) {
        let rows = self.rows;
        self.scenario.update(|s| {
            rows.update(|r| {
                f(s, r);
                r.fit(s);
            })
        });
    }

    /// The current index of the row with id `id` in list `l` (reactive).
    pub fn position(&self, l: List, id: u64) -> Option<usize> {
        match l {
            List::Jobs => self.job_rows.with(|m| m.get(&id).copied()),
            List::Shares => self.share_rows.with(|m| m.get(&id).copied()),
            List::Types => self.type_rows.with(|m| m.get(&id).copied()),
            List::Actions => self.action_rows.with(|m| m.get(&id).copied()),
        }
    }
}

pub fn use_app() -> AppState {
    expect_context::<AppState>()
}

/// What the page starts with: a shared link, else the autosave, else the notebook preset. A
/// link that replaces other work puts that work in the history and says so. The flag: the
/// autosave is in IndexedDB, to be read once the page is up ([`AppState::restore_large_save`]).
pub fn initial_state() -> (Saved, Option<Notice>, bool) {
    let large = dom::storage_get(persist::LARGE_SAVE_KEY).is_some();
    match persist::from_hash(&dom::location_hash()) {
        None => (stored_or_default(), None, large),
        Some(Err(e)) => (
            stored_or_default(),
            Some(Notice::text(format!(
                "The link could not be read ({e}); your last saved scenario was loaded instead."
            ))),
            large,
        ),
        Some(Ok(s)) => {
            // A large autosave replaced by a link stays in IndexedDB until the page saves.
            let notice = stored().filter(|prev| replaces_work(prev, &s)).map(|prev| {
                let kept = remember_in_storage(&prev);
                Notice::replaced("The link opened another scenario. ", prev, kept)
            });
            (s, notice, false)
        }
    }
}

fn stored() -> Option<Saved> {
    dom::storage_get(persist::STORAGE_KEY).and_then(|t| persist::from_json(&t).ok())
}

fn stored_history() -> Vec<HistoryEntry> {
    dom::storage_get(persist::HISTORY_KEY).map(|t| persist::history_from_json(&t)).unwrap_or_default()
}

/// Adds `saved` to the stored history; returns whether it is kept there.
fn remember_in_storage(saved: &Saved) -> bool {
    let mut h = stored_history();
    persist::remember(&mut h, saved, js_sys::Date::now())
        && dom::storage_set(persist::HISTORY_KEY, &persist::history_to_json(&h))
}

fn stored_or_default() -> Saved {
    stored().unwrap_or_else(default_saved)
}

pub fn default_saved() -> Saved {
    Saved {
        scenario: presets::scenario(presets::NOTEBOOK).unwrap_or_default(),
        colors: Vec::new(),
        preset: Some(presets::NOTEBOOK.id.to_string()),
        now: 0,
        baseline: None,
        objectives: None,
    }
}

impl AppState {
    /// Creates the state, provides it as context and starts its effects.
    pub fn provide(saved: Saved, notice: Option<Notice>) -> AppState {
        let baseline = RwSignal::new(saved.baseline);
        let objectives = RwSignal::new(saved.objectives);
        let scenario = RwSignal::new(saved.scenario);
        let prepared = StoredValue::new(None::<Arc<ValidScenario>>);
        // A scenario handed on from the baseline comes with its validation.
        let valid = Memo::new(move |_| {
            scenario.track();
            match prepared.try_update_value(Option::take).flatten() {
                Some(v) => Ok(v),
                None => scenario.with(|s| quotasim::validate(s).map(Arc::new)),
            }
        });
        let problems = Memo::new(move |_| {
            valid.with(|v| match v {
                Ok(v) => v.warnings.clone(),
                Err(p) => p.clone(),
            })
        });
        let rows = RwSignal::new(scenario.with_untracked(RowIds::new));
        let positions = move |l: List| {
            Memo::new(move |_| {
                rows.with(|r| r.ids(l).iter().enumerate().map(|(i, &id)| (id, i)).collect::<HashMap<_, _>>())
            })
        };
        let app = AppState {
            doc: Document {
                rows,
                job_rows: positions(List::Jobs),
                share_rows: positions(List::Shares),
                type_rows: positions(List::Types),
                action_rows: positions(List::Actions),
                scenario,
                colors: RwSignal::new(saved.colors),
                preset: RwSignal::new(saved.preset),
                valid,
                problems,
                history: RwSignal::new(stored_history()),
                save_timer: StoredValue::new_local(None),
                saving: Tasks::new(),
                saving_paused: StoredValue::new(false),
                prepared,
                undo: StoredValue::new(UndoStack::new()),
                last: StoredValue::new(None),
                restoring: StoredValue::new(false),
                can_undo: RwSignal::new(false),
                can_redo: RwSignal::new(false),
            },
            run: RunState {
                handle: RwSignal::new(None),
                stale: RwSignal::new(true),
                ms: RwSignal::new(0.0),
                progress: RwSignal::new(None),
                cancelled: RwSignal::new(false),
                gen: StoredValue::new(0),
                tasks: Tasks::new(),
                prepared: StoredValue::new(None),
                measure: StoredValue::new(Vec::new()),
            },
            play: Playback {
                now: RwSignal::new(saved.now),
                playing: RwSignal::new(false),
                speed: RwSignal::new(0),
                snapshot: RwSignal::new(None),
                view: RwSignal::new((0, u64::MAX)),
                cursor: StoredValue::new(None),
            },
            chrome: Chrome {
                selection: RwSignal::new(None),
                tab: RwSignal::new(Tab::Jobs),
                width: RwSignal::new(1200.0),
                notice: RwSignal::new(notice),
                dialog: RwSignal::new(false),
                history_open: RwSignal::new(false),
                wide_editor: RwSignal::new(false),
            },
            cmp: CompareState {
                baseline,
                run_a: RwSignal::new(None),
                compared: RwSignal::new(None),
                objectives,
                valid_a: StoredValue::new(None),
                runs: Tasks::new(),
                comparing: Tasks::new(),
                seeds: RwSignal::new(5),
                prepared: StoredValue::new(None),
            },
        };
        provide_context(app);
        app.start_effects();
        app
    }

    fn start_effects(self) {
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
        // Row ids follow every change of a list's length, also from edits that do not say where.
        Effect::new(move |_| {
            let d = self.doc;
            if d.scenario.with(|s| !d.rows.with_untracked(|r| r.fits(s))) {
                d.rows.update(|r| d.scenario.with_untracked(|s| r.fit(s)));
            }
        });
        // The simulation at the current instant, and its R25 snapshot.
        Effect::new(move |_| {
            let now = self.play.now.get();
            let Some(run) = self.run.handle.get() else {
                self.play.snapshot.set(None);
                return;
            };
            let snap = self.play.cursor.try_update_value(|c| {
                match c {
                    Some((g, sim)) if *g == run.gen => run.data.move_to(sim, now),
                    _ => *c = Some((run.gen, run.data.sim_at(now))),
                }
                c.as_ref().map(|(_, s)| s.snapshot())
            });
            self.play.snapshot.set(snap.flatten());
        });
        // Undo: every change of the scenario that is not itself an undo, a redo or a load is
        // recorded with the scenario before it.
        Effect::new(move |_| {
            let restoring = self.doc.restoring.get_value();
            self.doc.restoring.set_value(false);
            let prev = self.doc.last.get_value();
            let changed = self.doc.scenario.with(|s| prev.as_ref().is_none_or(|p| !p.is(s)));
            if !changed {
                self.sync_undo();
                return;
            }
            let next = self.doc.scenario.with(|s| Kept::of(s, prev.as_ref()));
            if let (Some(prev), false) = (prev, restoring) {
                let w = prev.weight(&next);
                self.doc.undo.update_value(|u| u.record(prev, w, dom::now_ms()));
            }
            self.doc.last.set_value(Some(next));
            self.sync_undo();
        });
        // Every share gets a colour of its own when it appears, kept by name.
        Effect::new(move |_| {
            let names: Vec<String> = self
                .doc
                .scenario
                .with(|s| s.quota_shares.iter().map(|q| q.quota_share_name.clone()).collect());
            let mut c = self.doc.colors.get_untracked();
            let refs: Vec<&str> = names.iter().map(String::as_str).collect();
            if crate::palette::assign(&mut c, &refs) {
                self.doc.colors.set(c);
            }
        });
        // Autosave: localStorage and the URL, after a short pause.
        Effect::new(move |_| {
            self.doc.scenario.track();
            self.doc.colors.track();
            self.doc.preset.track();
            self.play.now.track();
            self.cmp.baseline.track();
            self.cmp.objectives.track();
            // A save being written read the state before this change: the next one replaces it.
            self.doc.saving.cancel();
            if self.doc.saving_paused.get_value() {
                return;
            }
            // The state is read when the pause is over: no copy of it per keystroke.
            let t = Timeout::new(400, move || self.autosave());
            self.doc.save_timer.set_value(Some(t));
        });
        // A page closed or hidden within the pause still saves: what the user made is not lost.
        let flush = move || {
            let pending = self.doc.save_timer.try_update_value(Option::take).flatten();
            let writing = self.doc.saving.cancel();
            if pending.is_some() || writing {
                drop(pending);
                self.save(&self.current());
            }
        };
        let hide = window_event_listener(leptos::ev::pagehide, move |_| flush());
        let hidden = window_event_listener_untyped("visibilitychange", move |_| {
            if dom::page_hidden() {
                flush();
            }
        });
        on_cleanup(move || {
            hide.remove();
            hidden.remove();
            self.run.tasks.cancel();
            self.doc.saving.cancel();
            let _ = self.doc.save_timer.try_set_value(None);
        });
    }

    /// Starts computing a run of `v` in slices, dropping any run in progress.
    fn start_run(self, v: Arc<ValidScenario>) {
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

    fn cancel_pending(self) {
        self.run.tasks.cancel();
        self.run.progress.set(None);
    }

    /// Marks the start of what the next results answer: an edit, unless an import is waiting
    /// for its results (`performance.mark`, for the page's measures).
    fn note_edit(self) {
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
    fn finish_run(self, data: Arc<RunData>, ms: Option<f64>) {
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

    /// The simulation standing at the current instant, if there is a run.
    pub fn with_cursor<R>(&self, f: impl FnOnce(&Simulation) -> R) -> Option<R> {
        self.play.cursor.try_with_value(|c| c.as_ref().map(|(_, s)| f(s))).flatten()
    }

    /// Colours of the shares, by scenario index.
    /// The colours of the shares of the run on screen (by share name, in the run's order), or of
    /// the scenario's shares before any run: a colour follows its share, never a position.
    pub fn share_colors(&self) -> Vec<String> {
        let colors = self.doc.colors.get();
        let of = |names: &mut dyn Iterator<Item = &String>| -> Vec<String> {
            names.enumerate().map(|(i, n)| crate::palette::color_of(&colors, n, i)).collect()
        };
        match self.run.handle.with(|r| r.as_ref().map(|r| of(&mut r.data.share_names.iter()))) {
            Some(v) => v,
            None => self.doc.scenario.with(|s| of(&mut s.quota_shares.iter().map(|q| &q.quota_share_name))),
        }
    }

    /// The names of the shares `share_colors` colours, in the same order.
    pub fn share_names_shown(&self) -> Vec<String> {
        match self.run.handle.with(|r| r.as_ref().map(|r| r.data.share_names.clone())) {
            Some(v) => v,
            None => self
                .doc
                .scenario
                .with(|s| s.quota_shares.iter().map(|q| q.quota_share_name.clone()).collect()),
        }
    }

    /// The scenario as it is now, validated, with its run when that has finished (not tracked).
    fn prepared_b(self) -> Option<Prepared> {
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

    /// The state as it would be saved now (not tracked).
    pub fn current(&self) -> Saved {
        self.current_with(Scenario::clone)
    }

    /// [`Self::current`], with the scenario and the baseline taken by `copy` (not tracked).
    fn current_with(&self, copy: fn(&Scenario) -> Scenario) -> Saved {
        Saved {
            scenario: self.doc.scenario.with_untracked(copy),
            colors: self.doc.colors.get_untracked(),
            preset: self.doc.preset.get_untracked(),
            now: self.play.now.get_untracked(),
            baseline: self.cmp.baseline.with_untracked(|b| b.as_ref().map(copy)),
            objectives: self.cmp.objectives.get_untracked(),
        }
    }

    /// Replaces the whole scenario (a preset, an import).
    pub fn load(&self, scenario: Scenario, colors: Vec<(String, String)>, preset: Option<String>) {
        let (baseline, objectives) = (None, self.cmp.objectives.get_untracked());
        self.load_saved(Saved { scenario, colors, preset, now: 0, baseline, objectives });
    }

    /// Puts `next` in place of the scenario (an import that replaces its shares and service
    /// environment): the previous scenario goes to the history, whatever it was, and a notice
    /// offers it back; and it is an edit, so that Undo brings it back too. Returns whether the
    /// history keeps it.
    pub fn replace_scenario(&self, next: Scenario) -> bool {
        let prev = self.current();
        let kept = self.remember(&prev);
        self.chrome.notice.set(Some(Notice::replaced(
            "Imported the shares and the service environment. ",
            prev,
            kept,
        )));
        self.play.playing.set(false);
        self.chrome.selection.set(None);
        self.doc.rows.set(RowIds::new(&next));
        self.doc.scenario.set(next);
        kept
    }

    /// Replaces the whole state (a history entry, going back). Work it replaces goes to the
    /// history first, and a notice offers it back.
    pub fn load_saved(&self, next: Saved) {
        let prev = self.current();
        if replaces_work(&prev, &next) {
            let kept = self.remember(&prev);
            self.chrome.notice.set(Some(Notice::replaced("", prev, kept)));
        }
        self.play.playing.set(false);
        self.chrome.selection.set(None);
        self.play.view.set((0, u64::MAX));
        self.play.now.set(next.now);
        self.doc.colors.set(next.colors);
        self.doc.preset.set(next.preset);
        self.doc.rows.set(RowIds::new(&next.scenario));
        // A load is not an edit: the history keeps what it replaced, and undo starts afresh.
        self.doc.undo.update_value(UndoStack::clear);
        self.doc.restoring.set_value(true);
        self.doc.scenario.set(next.scenario);
        self.cmp.baseline.set(next.baseline);
        self.cmp.objectives.set(next.objectives);
    }

    fn sync_undo(&self) {
        let (u, r) = self.doc.undo.with_value(|u| (u.can_undo(), u.can_redo()));
        self.doc.can_undo.set(u);
        self.doc.can_redo.set(r);
    }

    /// Goes back one edit (`redo`: forward again).
    pub fn undo_redo(&self, redo: bool) {
        let last = self.doc.last.get_value();
        let cur = self.doc.scenario.with_untracked(|s| Kept::of(s, last.as_ref()));
        let mut out = None;
        // Its job list is the one `last` holds (the same jobs): it weighs next to nothing.
        let w = last.as_ref().map_or(1 + cur.scenario_jobs(), |l| cur.weight(l));
        self.doc.undo.update_value(|u| out = if redo { u.redo(cur, w) } else { u.undo(cur, w) });
        if let Some(k) = out {
            let s = k.scenario();
            self.doc.last.set_value(Some(k));
            self.doc.restoring.set_value(true);
            self.doc.rows.set(RowIds::new(&s));
            self.doc.scenario.set(s);
        }
        self.sync_undo();
    }

    /// Puts `saved` first in the history (memory and storage); returns whether it is kept.
    pub fn remember(&self, saved: &Saved) -> bool {
        let mut kept = false;
        self.doc.history.update(|h| kept = persist::remember(h, saved, js_sys::Date::now()));
        kept && dom::storage_set(
            persist::HISTORY_KEY,
            &self.doc.history.with_untracked(|h| persist::history_to_json(h)),
        )
    }

    /// The visible time window, clamped to the run.
    pub fn window(&self) -> (u64, u64) {
        crate::charts::clamp_window(self.start(), self.end(), self.play.view.get())
    }

    /// The end of the current run (0 without one).
    pub fn end(&self) -> u64 {
        self.run.handle.with(|r| r.as_ref().map_or(0, |r| r.data.end))
    }

    /// Where the current run begins: its `startAt` (0 without one, or for a run from the start).
    pub fn start(&self) -> u64 {
        self.run.handle.with(|r| r.as_ref().map_or(0, |r| r.data.start))
    }
}

/// States with more jobs than this (the scenario's and the baseline's) are saved in slices;
/// smaller ones write in one task of a few tens of milliseconds.
const SLICED_SAVE_JOBS: usize = 10_000;

/// Numbers the saves, so that a slow IndexedDB save finishing after a newer one does not
/// claim to be the latest.
static SAVES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

impl AppState {
    /// The autosave after an edit's pause: at once for small states, in slices for large ones
    /// (the page never stops for it; a change of the state meanwhile stops it, and the save
    /// after that change replaces it).
    fn autosave(self) {
        let jobs = |s: &Scenario| s.jobs.len();
        let (a, b) = (
            self.doc.scenario.with_untracked(jobs),
            self.cmp.baseline.with_untracked(|b| b.as_ref().map_or(0, jobs)),
        );
        if a + b <= SLICED_SAVE_JOBS {
            self.save(&self.current());
            return;
        }
        let mut w = persist::JsonWriter::new(&self.current_with(Scenario::without_jobs));
        let (doc, cmp) = (self.doc, self.cmp);
        self.doc.saving.start(
            move |out_of_time| {
                doc.scenario.with_untracked(|s| {
                    cmp.baseline.with_untracked(|b| {
                        w.advance(&s.jobs, b.as_ref().map_or(&[][..], |b| &b.jobs), out_of_time)
                    })
                })
            },
            move |json, _| self.store(json, a),
        );
    }

    /// Saves the state in the browser (localStorage when small, IndexedDB when not) and in the
    /// URL (when it makes a link of [`persist::MAX_SHARE_LINK_CHARS`] or less). A save that
    /// fails says so and offers the file instead.
    fn save(self, saved: &Saved) {
        self.store(persist::to_json(saved), saved.scenario.jobs.len());
    }

    /// Keeps `json`, the saved state of a scenario of `jobs` jobs (see [`AppState::save`]).
    fn store(self, json: String, jobs: usize) {
        use std::sync::atomic::Ordering;
        let seq = SAVES.fetch_add(1, Ordering::SeqCst) + 1;
        dom::replace_hash(&persist::link_hash_of(&json).unwrap_or_else(|| String::from("#")));
        if json.len() <= persist::MAX_LOCAL_SAVE_CHARS {
            // The autosave comes first: if storage is full, the history makes room for it.
            let ok = dom::storage_set(persist::STORAGE_KEY, &json) || {
                dom::storage_remove(persist::HISTORY_KEY);
                dom::storage_set(persist::STORAGE_KEY, &json)
            };
            if ok {
                dom::storage_remove(persist::LARGE_SAVE_KEY);
            } else {
                self.unsaved(jobs, "the browser's storage refused it");
            }
            return;
        }
        leptos::task::spawn_local(async move {
            let r = super::idb::put(persist::STORAGE_KEY, &json).await;
            drop(json);
            match r {
                Ok(()) if SAVES.load(Ordering::SeqCst) == seq => {
                    dom::storage_set(persist::LARGE_SAVE_KEY, "1");
                    dom::storage_remove(persist::STORAGE_KEY);
                }
                Ok(()) => {}
                Err(e) => self.unsaved(jobs, &e),
            }
        });
    }

    fn unsaved(self, jobs: usize, why: &str) {
        let _ = self.chrome.notice.try_set(Some(Notice::export(format!(
            "This scenario ({} jobs) could not be saved in the browser ({why}): a reload would lose it. Download it as a file to keep it.",
            crate::text::thousands(jobs as u64)
        ))));
    }

    /// Loads the autosave kept in IndexedDB, if the page has one (large scenarios); the page
    /// does not save until it is back, so the autosave is never overwritten by the start-up
    /// scenario.
    pub fn restore_large_save(self) {
        if dom::storage_get(persist::LARGE_SAVE_KEY).is_none() {
            return;
        }
        self.doc.saving_paused.set_value(true);
        self.doc.saving.cancel();
        self.chrome.notice.set(Some(Notice::text("Loading your last scenario, saved in the browser…")));
        leptos::task::spawn_local(async move {
            let got = super::idb::get(persist::STORAGE_KEY).await;
            let _ = self.doc.saving_paused.try_set_value(false);
            let _ = self.chrome.notice.try_set(None);
            match got.map(|t| t.map(|t| persist::from_json(&t))) {
                Ok(Some(Ok(saved))) => self.load_saved(saved),
                Ok(None) => {}
                Ok(Some(Err(e))) | Err(e) => {
                    let _ = self.chrome.notice.try_set(Some(Notice::text(format!(
                        "Your last scenario, saved in the browser, could not be read ({}); it is left there untouched until this page saves again.",
                        crate::text::truncate(&e, 160)
                    ))));
                }
            }
        });
    }
}
