//! The one shared state of the app, provided as context, by concern: the document being
//! edited ([`document`]), its run ([`run`]), where the run is watched ([`playback`]), compare
//! mode ([`compare`]) and the autosave ([`autosave`]); the page's chrome is here. Derived
//! state is memos; the effects only hand work outward: a new version to the run's slicing
//! task runner, the baseline and the comparison to theirs, the state to storage, a stop to a
//! study of a scenario gone. An answer computed from the scenario is [`Keyed`] by the
//! revision it was asked at, so it goes out of date by itself, not by an effect. Changes of
//! the scenario keep its row ids, colours and undo history with it in the same task (see
//! [`Document`]). A sweep keeps its state in its own panel.

mod autosave;
mod compare;
mod document;
mod keyed_value;
mod playback;
mod run;

use leptos::prelude::*;
use quotasim::model::Scenario;

pub use autosave::Saves;
pub use compare::{CompareState, Prepared};
pub use document::Document;
pub use keyed_value::Keyed;
pub use playback::Playback;
pub use run::{RunHandle, RunState};

use crate::persist::{self, HistoryEntry, Saved};
use crate::presets;
use crate::ui::dom;
pub use crate::ui::task::SLICE_MS;

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

/// The one state of the app, by concern; every part is signals, so all of it is `Copy`.
#[derive(Clone, Copy)]
pub struct AppState {
    pub doc: Document,
    pub run: RunState,
    pub play: Playback,
    pub chrome: Chrome,
    pub cmp: CompareState,
    pub saves: Saves,
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
        let doc = Document::new(saved.scenario, saved.colors, saved.preset, stored_history());
        let run = RunState::new(doc.valid);
        let app = AppState {
            doc,
            play: Playback::new(saved.now, run.handle),
            run,
            chrome: Chrome {
                selection: RwSignal::new(None),
                tab: RwSignal::new(Tab::Jobs),
                width: RwSignal::new(1200.0),
                notice: RwSignal::new(notice),
                dialog: RwSignal::new(false),
                history_open: RwSignal::new(false),
                wide_editor: RwSignal::new(false),
            },
            cmp: CompareState::new(saved.baseline, saved.objectives, run.handle),
            saves: Saves::new(),
        };
        provide_context(app);
        app.start_runs();
        app.start_comparisons();
        app.start_autosave();
        app
    }

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
        let kept = self.doc.remember(&prev);
        self.chrome.notice.set(Some(Notice::replaced(
            "Imported the shares and the service environment. ",
            prev,
            kept,
        )));
        self.play.playing.set(false);
        self.chrome.selection.set(None);
        self.doc.put(next, false);
        kept
    }

    /// Replaces the whole state (a history entry, going back). Work it replaces goes to the
    /// history first, and a notice offers it back.
    pub fn load_saved(&self, next: Saved) {
        let prev = self.current();
        if replaces_work(&prev, &next) {
            let kept = self.doc.remember(&prev);
            self.chrome.notice.set(Some(Notice::replaced("", prev, kept)));
        }
        self.play.playing.set(false);
        self.chrome.selection.set(None);
        self.play.view.set((0, u64::MAX));
        self.play.now.set(next.now);
        self.doc.colors.set(next.colors);
        self.doc.preset.set(next.preset);
        // A load is not an edit: the history keeps what it replaced, and undo starts afresh.
        self.doc.forget_undo();
        self.doc.put(next.scenario, true);
        self.cmp.set_baseline(next.baseline);
        self.cmp.objectives.set(next.objectives);
    }
}
