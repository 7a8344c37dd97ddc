//! Stable row ids for lists that one component edits, so that their rows render keyed.

use leptos::prelude::*;

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
    /// A row added at the end.
    pub fn push(self) {
        let id = self.fresh();
        self.ids.update_value(|v| v.push(id));
    }
    /// Row `k` removed.
    pub fn remove(self, k: usize) {
        self.ids.update_value(|v| {
            if k < v.len() {
                v.remove(k);
            }
        });
    }
    /// Where the row with id `id` is, if it is still there.
    pub fn position(self, id: u64) -> Option<usize> {
        self.ids.with_value(|v| v.iter().position(|&x| x == id))
    }
}
