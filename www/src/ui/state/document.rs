//! The scenario being edited and what goes with it: its validation, row ids, share colours,
//! the preset it came from, the history of replaced scenarios and undo. Every change of the
//! scenario goes through [`Document::update`], [`Document::edit`] or [`Document::put`], which
//! keep the row ids, the colours and the undo history in step with it in the same task.

use std::collections::HashMap;
use std::sync::Arc;

use leptos::prelude::*;
use quotasim::model::Scenario;
use quotasim::{Problem, ValidScenario};

use crate::persist::{self, HistoryEntry, Saved};
use crate::rows::{List, RowIds};
use crate::ui::dom;
use crate::undo::{Kept, UndoStack};

/// The scenario being edited and what is saved with it: its share colours, the preset it came
/// from, its validation and the history of replaced scenarios.
#[derive(Clone, Copy)]
pub struct Document {
    /// The scenario (read-only: it changes through [`Document::update`], [`Document::edit`] and
    /// the loads, which keep its row ids, colours and undo history with it).
    pub scenario: ReadSignal<Scenario>,
    scenario_rw: RwSignal<Scenario>,
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
    /// The validation of the scenario about to be set, when it is known (see [`super::Prepared`]).
    pub(super) prepared: StoredValue<Option<Arc<ValidScenario>>>,
    /// Undo and redo of edits (not of loads, which the history keeps).
    undo: StoredValue<UndoStack<Kept>>,
    /// The scenario as it was after the last change recorded.
    last: StoredValue<Option<Kept>>,
    pub can_undo: RwSignal<bool>,
    pub can_redo: RwSignal<bool>,
    /// A new number for every change of the scenario (an edit, a load, an undo): what answers
    /// computed from it belong to (see [`super::Keyed`]).
    pub revision: ReadSignal<u64>,
    revision_rw: RwSignal<u64>,
}

impl Document {
    pub(super) fn new(
        scenario: Scenario,
        colors: Vec<(String, String)>,
        preset: Option<String>,
        history: Vec<HistoryEntry>,
    ) -> Document {
        let last = Kept::of(&scenario, None);
        let scenario_rw = RwSignal::new(scenario);
        let prepared = StoredValue::new(None::<Arc<ValidScenario>>);
        // A scenario handed on from the baseline comes with its validation.
        let valid = Memo::new(move |_| {
            scenario_rw.track();
            match prepared.try_update_value(Option::take).flatten() {
                Some(v) => Ok(v),
                None => scenario_rw.with(|s| quotasim::validate(s).map(Arc::new)),
            }
        });
        let problems = Memo::new(move |_| {
            valid.with(|v| match v {
                Ok(v) => v.warnings.clone(),
                Err(p) => p.clone(),
            })
        });
        let rows = RwSignal::new(scenario_rw.with_untracked(RowIds::new));
        let revision_rw = RwSignal::new(0);
        let positions = move |l: List| {
            Memo::new(move |_| {
                rows.with(|r| r.ids(l).iter().enumerate().map(|(i, &id)| (id, i)).collect::<HashMap<_, _>>())
            })
        };
        let doc = Document {
            scenario: scenario_rw.read_only(),
            scenario_rw,
            colors: RwSignal::new(colors),
            preset: RwSignal::new(preset),
            valid,
            problems,
            history: RwSignal::new(history),
            rows,
            job_rows: positions(List::Jobs),
            share_rows: positions(List::Shares),
            type_rows: positions(List::Types),
            action_rows: positions(List::Actions),
            prepared,
            undo: StoredValue::new(UndoStack::new()),
            last: StoredValue::new(Some(last)),
            can_undo: RwSignal::new(false),
            can_redo: RwSignal::new(false),
            revision: revision_rw.read_only(),
            revision_rw,
        };
        doc.color_new_shares();
        doc
    }

    /// Changes the scenario: an edit that does not say where rows were added or removed (row
    /// ids are fitted to the lists' lengths, from the end).
    pub fn update(&self, f: impl FnOnce(&mut Scenario)) {
        self.scenario_rw.update(f);
        let rows = self.rows;
        if self.scenario_rw.with_untracked(|s| !rows.with_untracked(|r| r.fits(s))) {
            rows.update(|r| self.scenario_rw.with_untracked(|s| r.fit(s)));
        }
        self.changed(false);
    }

    /// Edits the scenario and its row ids together: `f` changes the lists and says where rows
    /// were added or removed.
    pub fn edit(&self, f: impl FnOnce(&mut Scenario, &mut RowIds)) {
        let rows = self.rows;
        self.scenario_rw.update(|s| {
            rows.update(|r| {
                f(s, r);
                r.fit(s);
            })
        });
        self.changed(false);
    }

    /// Puts `next` in place of the scenario, with new row ids: an edit (`load` false, so Undo
    /// brings the previous one back) or a load, an undo or a redo (not recorded).
    pub(super) fn put(&self, next: Scenario, load: bool) {
        self.rows.set(RowIds::new(&next));
        self.scenario_rw.set(next);
        self.changed(load);
    }

    /// After every change: the revision moves on, new shares get a colour, and an edit is
    /// recorded for undo with the scenario before it (`restoring`: the change is an undo, a
    /// redo or a load).
    fn changed(&self, restoring: bool) {
        self.revision_rw.update(|r| *r += 1);
        self.color_new_shares();
        let prev = self.last.get_value();
        let changed = self.scenario_rw.with_untracked(|s| prev.as_ref().is_none_or(|p| !p.is(s)));
        if !changed {
            self.sync_undo();
            return;
        }
        let next = self.scenario_rw.with_untracked(|s| Kept::of(s, prev.as_ref()));
        if let (Some(prev), false) = (prev, restoring) {
            let w = prev.weight(&next);
            self.undo.update_value(|u| u.record(prev, w, dom::now_ms()));
        }
        self.last.set_value(Some(next));
        self.sync_undo();
    }

    /// Every share gets a colour of its own when it appears, kept by name.
    fn color_new_shares(&self) {
        let names: Vec<String> = self
            .scenario_rw
            .with_untracked(|s| s.quota_shares.iter().map(|q| q.quota_share_name.clone()).collect());
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let mut c = self.colors.get_untracked();
        if crate::palette::assign(&mut c, &refs) {
            self.colors.set(c);
        }
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

    fn sync_undo(&self) {
        let (u, r) = self.undo.with_value(|u| (u.can_undo(), u.can_redo()));
        self.can_undo.set(u);
        self.can_redo.set(r);
    }

    /// Goes back one edit (`redo`: forward again).
    pub fn undo_redo(&self, redo: bool) {
        let last = self.last.get_value();
        let cur = self.scenario_rw.with_untracked(|s| Kept::of(s, last.as_ref()));
        let mut out = None;
        // Its job list is the one `last` holds (the same jobs): it weighs next to nothing.
        let w = last.as_ref().map_or(1 + cur.scenario_jobs(), |l| cur.weight(l));
        self.undo.update_value(|u| out = if redo { u.redo(cur, w) } else { u.undo(cur, w) });
        match out {
            Some(k) => {
                let s = k.scenario();
                self.last.set_value(Some(k));
                self.put(s, true);
            }
            None => self.sync_undo(),
        }
    }

    /// A load: undo starts afresh (the history keeps what the load replaced).
    pub(super) fn forget_undo(&self) {
        self.undo.update_value(UndoStack::clear);
    }

    /// Puts `saved` first in the history (memory and storage); returns whether it is kept.
    pub fn remember(&self, saved: &Saved) -> bool {
        let mut kept = false;
        self.history.update(|h| kept = persist::remember(h, saved, js_sys::Date::now()));
        kept && dom::storage_set(
            persist::HISTORY_KEY,
            &self.history.with_untracked(|h| persist::history_to_json(h)),
        )
    }
}
