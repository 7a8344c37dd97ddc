//! Keyed rows: where a row is now ([`Pos`]), and stable row ids for lists that one component
//! edits ([`LocalRows`]).

use leptos::prelude::*;

/// Where a keyed row is in its list now. A deletion above a row moves its index, not the row,
/// so everything the row shows or changes asks here; `usize::MAX` while it is being removed.
#[derive(Clone, Copy)]
pub struct Pos(Memo<Option<usize>>);

impl Pos {
    /// The position `find` gives (reactive: it is found again when what it reads changes).
    pub fn new(find: impl Fn() -> Option<usize> + Send + Sync + 'static) -> Self {
        Pos(Memo::new(move |_| find()))
    }
    /// The index if the row is still there, tracked.
    pub fn index(self) -> Option<usize> {
        self.0.get()
    }
    /// The index, tracked: for what a view shows.
    pub fn now(self) -> usize {
        self.0.get().unwrap_or(usize::MAX)
    }
    /// The index, untracked: for what a handler changes.
    pub fn at(self) -> usize {
        self.0.get_untracked().unwrap_or(usize::MAX)
    }
    /// Its number from 1, tracked, for labels (never overflowing while it is being removed).
    pub fn number(self) -> usize {
        self.now().saturating_add(1)
    }
}

/// Stable ids of a list's rows that one component edits (a share's capacity limits, the sweep's
/// axes), so that its rows render keyed: the component's removes say where; any other change
/// of the list (an add at the end, an undo, an import) is fitted by its length (rows past the
/// end dropped, new rows at the end given fresh ids). The scenario's own top-level lists keep
/// their ids beside the scenario instead (`rows.rs`).
#[derive(Clone, Copy)]
pub struct LocalRows {
    ids: StoredValue<Vec<u64>>,
    next: StoredValue<u64>,
}

impl LocalRows {
    /// Ids for a list of `n` rows.
    pub fn new(n: usize) -> Self {
        LocalRows { ids: StoredValue::new((0..n as u64).collect()), next: StoredValue::new(n as u64) }
    }
    fn fresh(self) -> u64 {
        self.next.update_value(|n| *n += 1);
        self.next.get_value()
    }
    /// The ids for the list now that it has `n` rows.
    pub fn fit(self, n: usize) -> Vec<u64> {
        let have = self.ids.with_value(|v| v.len());
        self.ids.update_value(|v| v.truncate(n));
        for _ in have..n {
            let id = self.fresh();
            self.ids.update_value(|v| v.push(id));
        }
        self.ids.get_value()
    }
    /// Row `k` removed.
    pub fn remove(self, k: usize) {
        self.ids.update_value(|v| {
            if k < v.len() {
                v.remove(k);
            }
        });
    }
    /// Where the row with id `id` is, found again whenever the list's length `len` changes
    /// (the component's removes update the ids before the length).
    pub fn pos(self, id: u64, len: Memo<usize>) -> Pos {
        Pos::new(move || {
            len.track();
            self.ids.with_value(|v| v.iter().position(|&x| x == id))
        })
    }
}
