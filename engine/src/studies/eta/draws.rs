//! Draws keyed by (seed, replicate, job name): common random numbers, so a change or a
//! submitted job leaves every other draw as it was.

use crate::rng::Rng;

/// A seed keyed by (seed, replicate, name): FNV-1a of the name mixed with the other two.
pub(super) fn draw_key(seed: u64, r: u32, name: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in name.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    seed ^ (u64::from(r)).wrapping_mul(0xD6E8_FEB8_6659_FD93) ^ h.rotate_left(17)
}

/// A uniform draw in (0, 1] keyed by (seed, replicate, job name).
pub(super) fn draw_unit(seed: u64, r: u32, name: &str) -> f64 {
    // SplitMix64 over the three keys.
    let mut rng = Rng::new(draw_key(seed, r, name));
    rng.next_u64();
    rng.unit()
}
