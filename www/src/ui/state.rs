//! The one shared state of the app, provided as context, and the effects that keep it
//! consistent: validation as the user types, runs of valid scenarios, the simulation standing
//! at the current instant, autosave to localStorage and the URL.

use std::collections::HashMap;
use std::sync::Arc;

use gloo_timers::callback::Timeout;
use leptos::prelude::*;
use quotasim::model::Scenario;
use quotasim::result::Snapshot;
use quotasim::{Problem, Simulation, ValidScenario};

use crate::persist::{self, HistoryEntry, Saved};
use crate::presets;
use crate::rows::{List, RowIds};
use crate::run::RunData;
use crate::ui::dom;
use crate::undo::UndoStack;

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

/// A message under the top bar; `back` is the scenario a "Go back" button restores.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    pub text: String,
    pub back: Option<Box<Saved>>,
}

impl Notice {
    pub fn text(text: impl Into<String>) -> Notice {
        Notice { text: text.into(), back: None }
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
        }
    }
}

/// Whether putting `next` in place of `prev` loses work worth keeping: an edited or imported
/// scenario (a built-in one as it ships can be loaded again) that `next` does not equal.
fn replaces_work(prev: &Saved, next: &Saved) -> bool {
    prev.scenario != next.scenario && !presets::is_pristine(prev.preset.as_deref(), &prev.scenario)
}

/// Jobs above which runs wait for a pause in typing.
pub const DEBOUNCE_JOBS: usize = 1500;

/// The scenario being edited and what is saved with it: its share colours, the preset it came
/// from, its validation and the history of replaced scenarios.
#[derive(Clone, Copy)]
pub struct Document {
    pub scenario: RwSignal<Scenario>,
    pub colors: RwSignal<Vec<(String, String)>>,
    pub preset: RwSignal<Option<String>>,
    pub valid: Memo<Result<ValidScenario, Vec<Problem>>>,
    pub problems: Memo<Vec<Problem>>,
    /// Scenarios replaced by links, imports and presets, newest first (see [`persist::remember`]).
    pub history: RwSignal<Vec<HistoryEntry>>,
    /// Stable ids of the scenario's jobs and shares, in row order (see [`RowIds`]).
    pub rows: RwSignal<RowIds>,
    job_rows: Memo<HashMap<u64, usize>>,
    share_rows: Memo<HashMap<u64, usize>>,
    save_timer: StoredValue<Option<Timeout>, LocalStorage>,
    /// Undo and redo of edits (not of loads, which the history keeps).
    undo: StoredValue<UndoStack<Scenario>>,
    /// The scenario as it was before the change being recorded.
    last: StoredValue<Option<Scenario>>,
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
    /// How long the last run took, in milliseconds.
    pub ms: RwSignal<f64>,
    /// The generation of the last run (a new number for every run).
    gen: StoredValue<u64>,
    timer: StoredValue<Option<Timeout>, LocalStorage>,
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
    pub objectives: RwSignal<Option<quotasim::objective::Objectives>>,
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
        }
    }
}

pub fn use_app() -> AppState {
    expect_context::<AppState>()
}

/// What the page starts with: a shared link, else the autosave, else the notebook preset. A
/// link that replaces other work puts that work in the history and says so.
pub fn initial_state() -> (Saved, Option<Notice>) {
    match persist::from_hash(&dom::location_hash()) {
        None => (stored_or_default(), None),
        Some(Err(e)) => (
            stored_or_default(),
            Some(Notice::text(format!(
                "The link could not be read ({e}); your last saved scenario was loaded instead."
            ))),
        ),
        Some(Ok(s)) => {
            let notice = stored().filter(|prev| replaces_work(prev, &s)).map(|prev| {
                let kept = remember_in_storage(&prev);
                Notice::replaced("The link opened another scenario. ", prev, kept)
            });
            (s, notice)
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
        let valid = Memo::new(move |_| scenario.with(quotasim::validate));
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
                scenario,
                colors: RwSignal::new(saved.colors),
                preset: RwSignal::new(saved.preset),
                valid,
                problems,
                history: RwSignal::new(stored_history()),
                save_timer: StoredValue::new_local(None),
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
                gen: StoredValue::new(0),
                timer: StoredValue::new_local(None),
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
            cmp: CompareState { baseline, run_a: RwSignal::new(None), objectives },
        };
        provide_context(app);
        app.start_effects();
        app
    }

    fn start_effects(self) {
        // Run every valid scenario (after a pause in typing for large ones).
        Effect::new(move |_| {
            let v = self.doc.valid.get();
            match v {
                Err(_) => {
                    self.run.stale.set(true);
                    self.run.timer.set_value(None);
                }
                Ok(v) => {
                    self.run.stale.set(true);
                    if v.jobs.len() > DEBOUNCE_JOBS {
                        let t = Timeout::new(350, move || self.run_now(v));
                        self.run.timer.set_value(Some(t));
                    } else {
                        self.run.timer.set_value(None);
                        self.run_now(v);
                    }
                }
            }
        });
        // Compare mode: the baseline runs whenever it changes (it is edited far less than B).
        Effect::new(move |_| {
            let run = self.cmp.baseline.with(|b| {
                b.as_ref().map(|a| match quotasim::validate(a) {
                    Ok(v) => Ok(Arc::new(RunData::compute(v))),
                    Err(p) => Err(format!(
                        "the baseline is invalid: {}",
                        p.iter().find(|x| x.is_error()).map(|x| x.to_string()).unwrap_or_default()
                    )),
                })
            });
            self.cmp.run_a.set(run);
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
            let cur = self.doc.scenario.get();
            let restoring = self.doc.restoring.get_value();
            self.doc.restoring.set_value(false);
            let prev = self.doc.last.try_update_value(|l| l.replace(cur)).flatten();
            if let (Some(prev), false) = (prev, restoring) {
                let changed = self.doc.last.with_value(|l| l.as_ref() != Some(&prev));
                if changed {
                    let w = prev.jobs.len() + 1;
                    self.doc.undo.update_value(|u| u.record(prev, w, dom::now_ms()));
                }
            }
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
            let saved = self.current();
            let t = Timeout::new(400, move || save(&saved));
            self.doc.save_timer.set_value(Some(t));
        });
        on_cleanup(move || {
            let _ = self.run.timer.try_set_value(None);
            let _ = self.doc.save_timer.try_set_value(None);
        });
    }

    fn run_now(self, v: ValidScenario) {
        let t0 = dom::now_ms();
        let data = RunData::compute(v);
        let ms = dom::now_ms() - t0;
        let gen = self.run.gen.get_value() + 1;
        self.run.gen.set_value(gen);
        let end = data.end;
        if let Some(e) = &data.error {
            self.chrome.notice.set(Some(Notice::text(format!("The run stopped early: {e}."))));
        }
        self.run.handle.set(Some(RunHandle { gen, data: Arc::new(data) }));
        self.run.ms.set(ms);
        self.run.stale.set(false);
        if self.play.now.get_untracked() > end {
            self.play.now.set(end);
        }
        if let Some(Selection::Preemption(i)) = self.chrome.selection.get_untracked() {
            let n = self.run.handle.with_untracked(|r| r.as_ref().map_or(0, |r| r.data.preemptions.len()));
            if i >= n {
                self.chrome.selection.set(None);
            }
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

    /// The state as it would be saved now (not tracked).
    pub fn current(&self) -> Saved {
        Saved {
            scenario: self.doc.scenario.get_untracked(),
            colors: self.doc.colors.get_untracked(),
            preset: self.doc.preset.get_untracked(),
            now: self.play.now.get_untracked(),
            baseline: self.cmp.baseline.get_untracked(),
            objectives: self.cmp.objectives.get_untracked(),
        }
    }

    /// Replaces the whole scenario (a preset, an import).
    pub fn load(&self, scenario: Scenario, colors: Vec<(String, String)>, preset: Option<String>) {
        let (baseline, objectives) = (None, self.cmp.objectives.get_untracked());
        self.load_saved(Saved { scenario, colors, preset, now: 0, baseline, objectives });
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
        let cur = self.doc.scenario.get_untracked();
        let w = cur.jobs.len() + 1;
        let mut out = None;
        self.doc.undo.update_value(|u| out = if redo { u.redo(cur, w) } else { u.undo(cur, w) });
        if let Some(s) = out {
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
        let end = self.end().max(1);
        let (a, b) = self.play.view.get();
        let a = a.min(end - 1);
        (a, b.clamp(a + 1, end))
    }

    /// The end of the current run (0 without one).
    pub fn end(&self) -> u64 {
        self.run.handle.with(|r| r.as_ref().map_or(0, |r| r.data.end))
    }
}

fn save(saved: &Saved) {
    let json = persist::to_json(saved);
    // The autosave comes first: if storage is full, the history makes room for it.
    if !dom::storage_set(persist::STORAGE_KEY, &json) {
        dom::storage_remove(persist::HISTORY_KEY);
        dom::storage_set(persist::STORAGE_KEY, &json);
    }
    // Scenarios too large for a link live in localStorage only.
    dom::replace_hash(&persist::link_hash(saved).unwrap_or_else(|| String::from("#")));
}
