//! Exact products of counts and durations that stay cheap in WebAssembly.
//!
//! A 64-bit `saturating_mul` and a 128-bit product both compile to a call of the 128-bit
//! multiplication routine (`__multi3`) on wasm32, which cost a tenth of the simulation's time
//! there. Instance counts, usage and quotas are small in practice, so when both factors fit in
//! 32 bits the plain 64-bit product is taken (it cannot overflow); otherwise the wide one.
//! The results are the same bits either way.

use core::cmp::Ordering;

/// `a * b`, saturating at `u64::MAX`.
#[inline]
pub(crate) fn mul_sat(a: u64, b: u64) -> u64 {
    if (a | b) >> 32 == 0 {
        a * b
    } else {
        a.saturating_mul(b)
    }
}

/// `a * b` without overflow.
#[inline]
pub(crate) fn mul_wide(a: u64, b: u64) -> u128 {
    if (a | b) >> 32 == 0 {
        (a * b) as u128
    } else {
        a as u128 * b as u128
    }
}

/// `a / b` against `c / d` for `b, d > 0`, compared exactly by cross-multiplication.
#[inline]
pub(crate) fn cmp_ratio(a: u64, b: u64, c: u64, d: u64) -> Ordering {
    if (a | b | c | d) >> 32 == 0 {
        (a * d).cmp(&(c * b))
    } else {
        (a as u128 * d as u128).cmp(&(c as u128 * b as u128))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products_are_the_wide_ones_on_both_sides_of_32_bits() {
        let edges = [
            0,
            1,
            2,
            3,
            u32::MAX as u64 - 1,
            u32::MAX as u64,
            1 << 32,
            (1 << 32) + 1,
            u64::MAX / 3,
            u64::MAX,
        ];
        for &a in &edges {
            for &b in &edges {
                assert_eq!(mul_sat(a, b), a.saturating_mul(b), "{a} * {b}");
                assert_eq!(mul_wide(a, b), a as u128 * b as u128, "{a} * {b}");
            }
        }
    }

    #[test]
    fn cmp_ratio_is_the_wide_cross_product() {
        let edges = [0, 1, 7, u32::MAX as u64, 1 << 32, u64::MAX];
        for &a in &edges {
            for &b in &edges[1..] {
                for &c in &edges {
                    for &d in &edges[1..] {
                        let wide = (a as u128 * d as u128).cmp(&(c as u128 * b as u128));
                        assert_eq!(cmp_ratio(a, b, c, d), wide, "{a}/{b} vs {c}/{d}");
                    }
                }
            }
        }
    }
}
