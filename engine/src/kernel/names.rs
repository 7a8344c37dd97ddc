//! Names to first positions in a list of up to millions of entries (jobs by `jobName`, job
//! results by name): what validation, the differences between scenarios and comparisons of
//! runs look names up in, each lookup in constant expected time.

use alloc::vec::Vec;

/// Name -> first index in `items`: an open-addressing table keyed by FNV-1a, 8 bytes a slot
/// (a hash tag and the entry's index; the name itself is compared in the list only when the
/// tags agree), so that a million names take 16 MB. Only lookups use it, never iteration, so
/// the hash order cannot reach a decision (R27).
pub(crate) struct NameIndex<'a, T> {
    slots: Vec<(u32, u32)>,
    mask: usize,
    items: &'a [T],
    name: fn(&T) -> &str,
    /// Slots looked at so far (tests count the work).
    #[cfg(test)]
    probes: core::cell::Cell<usize>,
}

const EMPTY: u32 = u32::MAX;

fn fnv1a(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

impl<'a, T> NameIndex<'a, T> {
    /// An empty index over `items` (nothing inserted yet), naming each by `name`.
    pub(crate) fn new(items: &'a [T], name: fn(&T) -> &str) -> Self {
        let size = (items.len().max(4) * 2).next_power_of_two();
        NameIndex {
            slots: alloc::vec![(0, EMPTY); size],
            mask: size - 1,
            items,
            name,
            #[cfg(test)]
            probes: core::cell::Cell::new(0),
        }
    }

    /// The index of every entry of `items`, each name at its first position.
    pub(crate) fn of(items: &'a [T], name: fn(&T) -> &str) -> Self {
        let mut ix = NameIndex::new(items, name);
        for i in 0..items.len() {
            ix.insert(i as u32);
        }
        ix
    }

    /// Where `name` is, or the empty slot where it would go.
    fn find(&self, name: &str) -> (usize, u32) {
        let h = fnv1a(name);
        let tag = (h >> 32) as u32;
        let mut i = h as usize & self.mask;
        loop {
            #[cfg(test)]
            self.probes.set(self.probes.get() + 1);
            let (t, id) = self.slots[i];
            if id == EMPTY || t == tag && (self.name)(&self.items[id as usize]) == name {
                return (i, tag);
            }
            i = (i + 1) & self.mask;
        }
    }

    /// Inserts entry `id` under its name; returns the earlier entry's index if the name is
    /// taken (the index keeps the first).
    pub(crate) fn insert(&mut self, id: u32) -> Option<u32> {
        let (i, tag) = self.find((self.name)(&self.items[id as usize]));
        match self.slots[i].1 {
            EMPTY => {
                self.slots[i] = (tag, id);
                None
            }
            first => Some(first),
        }
    }

    /// How many slots lookups and insertions have looked at.
    #[cfg(test)]
    pub(crate) fn probes(&self) -> usize {
        self.probes.get()
    }

    /// The first position of `name`, if an entry inserted has it.
    pub(crate) fn get(&self, name: &str) -> Option<u32> {
        let (i, _) = self.find(name);
        let id = self.slots[i].1;
        (id != EMPTY).then_some(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;

    fn name(s: &String) -> &str {
        s
    }

    #[test]
    fn names_find_their_first_position() {
        let v: Vec<String> = ["b", "a", "b", "c"].iter().map(|s| String::from(*s)).collect();
        let ix = NameIndex::of(&v, name);
        assert_eq!((ix.get("a"), ix.get("b"), ix.get("c"), ix.get("d")), (Some(1), Some(0), Some(3), None));
        let mut ix = NameIndex::new(&v, name);
        assert_eq!((ix.insert(0), ix.insert(2)), (None, Some(0)), "a name taken says where first");
        assert_eq!(ix.get("a"), None, "only what was inserted");
    }
}
