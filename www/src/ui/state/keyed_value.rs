//! A value that belongs to a key: an answer of the document as it was when it was asked, a
//! form made for a set of shares. It reads as absent once the key has moved on, so nothing
//! has to clear it when the key changes (no effect writes it back).

use leptos::prelude::*;

/// A value kept with the key it was made for; it reads as `None` under any other key.
pub struct Keyed<K: Send + Sync + 'static, T: Send + Sync + 'static> {
    key: Signal<K>,
    slot: RwSignal<Option<(K, T)>>,
}

impl<K: Send + Sync + 'static, T: Send + Sync + 'static> Clone for Keyed<K, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<K: Send + Sync + 'static, T: Send + Sync + 'static> Copy for Keyed<K, T> {}

impl<K, T> Keyed<K, T>
where
    K: Clone + PartialEq + Send + Sync + 'static,
    T: Send + Sync + 'static,
{
    /// An empty slot whose values belong to `key` (read reactively).
    pub fn new(key: Signal<K>) -> Self {
        Keyed { key, slot: RwSignal::new(None) }
    }

    /// The current key, without tracking it: what a task started now belongs to.
    pub fn key_untracked(&self) -> K {
        self.key.get_untracked()
    }

    /// Reads the value if it belongs to the current key (tracks both).
    pub fn with<R>(&self, f: impl FnOnce(Option<&T>) -> R) -> R {
        self.key.with(|k| self.slot.with(|s| f(s.as_ref().filter(|(at, _)| at == k).map(|(_, v)| v))))
    }

    /// Reads the value if it belongs to the current key, without tracking either.
    pub fn with_untracked<R>(&self, f: impl FnOnce(Option<&T>) -> R) -> R {
        self.key.with_untracked(|k| {
            self.slot.with_untracked(|s| f(s.as_ref().filter(|(at, _)| at == k).map(|(_, v)| v)))
        })
    }

    /// Puts `v` under the current key.
    pub fn set(&self, v: T) {
        self.set_at(self.key_untracked(), v);
    }

    /// Puts `v` under `key`: the key a task was started at, so that an answer that arrives
    /// after the key moved on is never shown as current.
    pub fn set_at(&self, key: K, v: T) {
        self.slot.set(Some((key, v)));
    }

    /// Changes the value if it belongs to the current key.
    pub fn update(&self, f: impl FnOnce(&mut T)) {
        let k = self.key_untracked();
        self.slot.update(|s| {
            if let Some((at, v)) = s.as_mut() {
                if *at == k {
                    f(v);
                }
            }
        });
    }

    /// Removes the value.
    pub fn clear(&self) {
        let _ = self.slot.try_set(None);
    }
}

impl<K, T> Keyed<K, T>
where
    K: Clone + PartialEq + Send + Sync + 'static,
    T: Clone + Send + Sync + 'static,
{
    /// The value if it belongs to the current key (tracks both).
    pub fn get(&self) -> Option<T> {
        self.with(|v| v.cloned())
    }
}
