//! Autosave: the state is kept in the browser (localStorage, or IndexedDB when large) and in
//! the URL after a short pause, in slices for large states; a page closed or hidden within
//! the pause still saves.

use gloo_timers::callback::Timeout;
use leptos::prelude::*;
use quotasim::model::Scenario;

use super::{AppState, Notice};
use crate::persist::{self, Saved};
use crate::ui::dom;
use crate::ui::task::Tasks;

/// The autosave's state: the pause after a change, a large save being written, and whether
/// saving waits for the autosave to be read back.
#[derive(Clone, Copy)]
pub struct Saves {
    /// The save due when the pause after the last change is over.
    timer: StoredValue<Option<Timeout>, LocalStorage>,
    /// A large state's save being written in slices; any change of the state stops it.
    writing: Tasks,
    /// No autosave while the last one is being read back.
    paused: StoredValue<bool>,
}

impl Saves {
    pub(super) fn new() -> Saves {
        Saves { timer: StoredValue::new_local(None), writing: Tasks::new(), paused: StoredValue::new(false) }
    }
}

/// States with more jobs than this (the scenario's and the baseline's) are saved in slices;
/// smaller ones write in one task of a few tens of milliseconds.
const SLICED_SAVE_JOBS: usize = 10_000;

/// Numbers the saves, so that a slow IndexedDB save finishing after a newer one does not
/// claim to be the latest.
static SAVES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

impl AppState {
    /// Starts saving after every change of what is saved.
    pub(super) fn start_autosave(self) {
        // Autosave: localStorage and the URL, after a short pause.
        Effect::new(move |_| {
            self.doc.scenario.track();
            self.doc.colors.track();
            self.doc.preset.track();
            self.play.now.track();
            self.cmp.baseline.track();
            self.cmp.objectives.track();
            // A save being written read the state before this change: the next one replaces it.
            self.saves.writing.cancel();
            if self.saves.paused.get_value() {
                return;
            }
            // The state is read when the pause is over: no copy of it per keystroke.
            let t = Timeout::new(400, move || self.autosave());
            self.saves.timer.set_value(Some(t));
        });
        // A page closed or hidden within the pause still saves: what the user made is not lost.
        let flush = move || {
            let pending = self.saves.timer.try_update_value(Option::take).flatten();
            let writing = self.saves.writing.cancel();
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
            self.saves.writing.cancel();
            let _ = self.saves.timer.try_set_value(None);
        });
    }

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
        self.saves.writing.start(
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
            let r = crate::ui::idb::put(persist::STORAGE_KEY, &json).await;
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
        self.saves.paused.set_value(true);
        self.saves.writing.cancel();
        self.chrome.notice.set(Some(Notice::text("Loading your last scenario, saved in the browser…")));
        leptos::task::spawn_local(async move {
            let got = crate::ui::idb::get(persist::STORAGE_KEY).await;
            let _ = self.saves.paused.try_set_value(false);
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
