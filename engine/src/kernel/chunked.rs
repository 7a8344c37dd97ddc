//! [`Chunked`]: an append-only list kept in fixed-size chunks.

use alloc::vec::Vec;

const CHUNK_BITS: usize = 12;
const CHUNK: usize = 1 << CHUNK_BITS;

/// An append-only list stored in chunks of 4,096 elements. Growing it never copies what is
/// there and never holds two copies at once, so its memory stays proportional to its length
/// (a `Vec` briefly needs three times its length while it doubles).
#[derive(Clone, Debug)]
pub(crate) struct Chunked<T> {
    chunks: Vec<Vec<T>>,
    len: usize,
}

impl<T> Default for Chunked<T> {
    fn default() -> Self {
        Chunked { chunks: Vec::new(), len: 0 }
    }
}

impl<T> Chunked<T> {
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Appends `v` and returns its index.
    pub(crate) fn push(&mut self, v: T) -> usize {
        if self.len & (CHUNK - 1) == 0 {
            self.chunks.push(Vec::with_capacity(CHUNK));
        }
        let i = self.len;
        self.chunks[i >> CHUNK_BITS].push(v);
        self.len += 1;
        i
    }

    pub(crate) fn get(&self, i: usize) -> &T {
        &self.chunks[i >> CHUNK_BITS][i & (CHUNK - 1)]
    }

    pub(crate) fn get_mut(&mut self, i: usize) -> &mut T {
        &mut self.chunks[i >> CHUNK_BITS][i & (CHUNK - 1)]
    }

    /// The elements from index `from` on, in order.
    pub(crate) fn iter_from(&self, from: usize) -> impl Iterator<Item = &T> + '_ {
        let from = from.min(self.len);
        self.chunks
            .iter()
            .skip(from >> CHUNK_BITS)
            .enumerate()
            .flat_map(move |(k, c)| c.iter().skip(if k == 0 { from & (CHUNK - 1) } else { 0 }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_get_and_iterate_across_chunks() {
        let mut c = Chunked::default();
        for i in 0..(3 * CHUNK + 5) {
            assert_eq!(c.push(i), i);
        }
        assert_eq!(c.len(), 3 * CHUNK + 5);
        assert_eq!(*c.get(CHUNK), CHUNK);
        *c.get_mut(2 * CHUNK + 1) = 7;
        assert_eq!(*c.get(2 * CHUNK + 1), 7);
        let tail: Vec<usize> = c.iter_from(3 * CHUNK + 2).copied().collect();
        assert_eq!(tail, [3 * CHUNK + 2, 3 * CHUNK + 3, 3 * CHUNK + 4]);
        assert_eq!(c.iter_from(CHUNK - 1).count(), 2 * CHUNK + 6);
        assert_eq!(c.iter_from(10 * CHUNK).count(), 0);
    }
}
