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

/// Slots filled together by [`NameIndex::insert_all`]: 256 kB of table.
const BLOCK_SLOTS: usize = 1 << 15;

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
        ix.insert_all(|_| true);
        ix
    }

    /// Inserts every entry that `keep` accepts, as [`Self::insert`] would one by one in list
    /// order; returns each entry whose name was taken with the earlier entry's index, in list
    /// order.
    ///
    /// A million names inserted in list order land at random slots of a 16 MB table, and each
    /// insertion waits for main memory. So the names are hashed first, in list order, and
    /// grouped by the block of [`BLOCK_SLOTS`] slots where their probe starts; then the blocks
    /// are filled one after the other, each small enough to stay in the processor's cache.
    /// Every entry is where it would be with some order of insertion, which is all a lookup by
    /// linear probing needs; and equal names start at the same slot, so they are inserted in
    /// list order and the first stays first.
    pub(crate) fn insert_all(&mut self, keep: impl Fn(&T) -> bool) -> Vec<(u32, u32)> {
        self.insert_in_blocks(keep, BLOCK_SLOTS)
    }

    fn insert_in_blocks(&mut self, keep: impl Fn(&T) -> bool, block_slots: usize) -> Vec<(u32, u32)> {
        let blocks = self.slots.len().div_ceil(block_slots);
        let block_of = |slot: u32| slot as usize / block_slots;
        // Each kept entry's start slot and tag, counted per block.
        let mut hashed: Vec<(u32, u32)> = Vec::with_capacity(self.items.len());
        let mut starts = alloc::vec![0usize; blocks + 1];
        for item in self.items {
            if keep(item) {
                let h = fnv1a((self.name)(item));
                let slot = (h as usize & self.mask) as u32;
                starts[block_of(slot) + 1] += 1;
                hashed.push((slot, (h >> 32) as u32));
            } else {
                hashed.push((EMPTY, 0));
            }
        }
        for b in 0..blocks {
            starts[b + 1] += starts[b];
        }
        // The entries grouped by block, in list order within each: (start slot, tag, index).
        let mut grouped: Vec<(u32, u32, u32)> = alloc::vec![(0, 0, 0); starts[blocks]];
        for (i, &(slot, tag)) in hashed.iter().enumerate() {
            if slot != EMPTY {
                let at = &mut starts[block_of(slot)];
                grouped[*at] = (slot, tag, i as u32);
                *at += 1;
            }
        }
        drop(hashed);
        let mut taken = Vec::new();
        for &(slot, tag, id) in &grouped {
            // The entry itself is read only if a tag agrees: reading every one would wait
            // for main memory again.
            let i = self
                .probe(slot as usize, tag, |item| (self.name)(item) == (self.name)(&self.items[id as usize]));
            match self.slots[i].1 {
                EMPTY => self.slots[i] = (tag, id),
                first => taken.push((id, first)),
            }
        }
        taken.sort_unstable();
        taken
    }

    /// Where `name` is, or the empty slot where it would go.
    fn find(&self, name: &str) -> (usize, u32) {
        let h = fnv1a(name);
        let tag = (h >> 32) as u32;
        (self.probe(h as usize & self.mask, tag, |item| (self.name)(item) == name), tag)
    }

    /// From slot `i` on: where the entry with hash tag `tag` that `is` accepts is, or the
    /// empty slot where it would go (`is` is asked only when the tags agree).
    fn probe(&self, mut i: usize, tag: u32, is: impl Fn(&T) -> bool) -> usize {
        loop {
            #[cfg(test)]
            self.probes.set(self.probes.get() + 1);
            let (t, id) = self.slots[i];
            if id == EMPTY || t == tag && is(&self.items[id as usize]) {
                return i;
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

    /// Names with many repeats (a few hundred distinct among `n`), some left out.
    fn names(n: usize, seed: u64) -> Vec<String> {
        let mut x = seed;
        (0..n)
            .map(|_| {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                alloc::format!("job-{}", (x >> 33) % (n as u64 / 3 + 1))
            })
            .collect()
    }

    #[test]
    fn names_filled_in_blocks_answer_as_names_inserted_one_by_one() {
        let keep = |s: &String| !s.ends_with('7');
        // Blocks of 8 and 64 slots (probes run from one block into the next, and from the
        // last around to the first), and the real size, one block.
        for (n, seed) in [(1, 1), (5, 2), (300, 3), (3000, 4)] {
            let v = names(n, seed);
            let mut one_by_one = NameIndex::new(&v, name);
            let mut taken = Vec::new();
            for (i, x) in v.iter().enumerate() {
                if keep(x) {
                    if let Some(first) = one_by_one.insert(i as u32) {
                        taken.push((i as u32, first));
                    }
                }
            }
            assert!(n < 300 || taken.len() > n / 2, "the test has repeats");
            for block in [8, 64, BLOCK_SLOTS] {
                let mut blocks = NameIndex::new(&v, name);
                assert_eq!(blocks.insert_in_blocks(keep, block), taken, "{n} names, blocks of {block}");
                for probe in v.iter().map(String::as_str).chain(["job-x", "job-7", ""]) {
                    assert_eq!(blocks.get(probe), one_by_one.get(probe), "{probe}");
                }
            }
        }
    }
}
