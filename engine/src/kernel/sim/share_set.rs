//! A set of quota shares, one bit per share: validation allows at most [`MAX_SHARES`].

use crate::scenario::{ShareId, MAX_SHARES};

/// A set of shares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ShareSet(u32);

const _: () = assert!(MAX_SHARES <= 32, "a share set has one bit per share");

impl ShareSet {
    pub const EMPTY: ShareSet = ShareSet(0);

    /// Shares `0..n`.
    pub fn first(n: usize) -> ShareSet {
        debug_assert!(n <= MAX_SHARES);
        ShareSet(((1u64 << n) - 1) as u32)
    }

    #[inline]
    pub fn insert(&mut self, s: ShareId) {
        self.0 |= 1 << s.0;
    }

    #[inline]
    pub fn remove(&mut self, s: ShareId) {
        self.0 &= !(1 << s.0);
    }

    #[inline]
    pub fn contains(self, s: ShareId) -> bool {
        self.0 & (1 << s.0) != 0
    }

    /// The set as bits, share `s` at bit `s`.
    #[inline]
    pub fn bits(self) -> u32 {
        self.0
    }

    #[inline]
    pub fn union(self, other: ShareSet) -> ShareSet {
        ShareSet(self.0 | other.0)
    }

    /// The shares in the set, lowest first.
    pub fn iter(self) -> impl Iterator<Item = ShareId> + Clone {
        let mut bits = self.0;
        core::iter::from_fn(move || {
            (bits != 0).then(|| {
                let s = bits.trailing_zeros();
                bits &= bits - 1;
                ShareId(s)
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    #[test]
    fn a_share_set_lists_its_shares_lowest_first() {
        let mut s = ShareSet::EMPTY;
        for x in [19, 3, 0, 7, 3] {
            s.insert(ShareId(x));
        }
        s.remove(ShareId(7));
        assert_eq!(s.iter().map(|s| s.0).collect::<Vec<_>>(), [0, 3, 19]);
        assert!(s.contains(ShareId(19)) && !s.contains(ShareId(7)));
        assert_eq!(ShareSet::first(3).union(s).iter().map(|s| s.0).collect::<Vec<_>>(), [0, 1, 2, 3, 19]);
        assert_eq!(ShareSet::first(MAX_SHARES).iter().count(), MAX_SHARES);
        assert_eq!(ShareSet::EMPTY.iter().count(), 0);
    }
}
