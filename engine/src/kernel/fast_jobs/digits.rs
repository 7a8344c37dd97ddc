//! A run of decimal digits read a word at a time: most numbers of a job (counts, priorities,
//! times, durations) have fewer than eight digits, and a loop of a byte at a time branches on
//! each one and mispredicts where the number ends.

const HIGH_NIBBLES: u64 = 0xF0F0_F0F0_F0F0_F0F0;
const THREES: u64 = 0x3030_3030_3030_3030;
const SIXES: u64 = 0x0606_0606_0606_0606;
const LOW_SEVEN: u64 = 0x7F7F_7F7F_7F7F_7F7F;
const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

/// The digits at the start of `b` when a byte that is not a digit follows them within its
/// first eight: how many there are (0 to 7) and their value. `None` when `b` is shorter than
/// eight bytes or all eight are digits (the caller reads those a byte at a time).
#[inline]
pub(super) fn short_run(b: &[u8]) -> Option<(usize, u64)> {
    let w = u64::from_le_bytes(b.get(..8)?.try_into().ok()?);
    // A byte is a digit when its high nibble is 3 and stays 3 with 6 added (0x30-0x39).
    // Adding may carry from a byte of 0xFA or more into the next, but such a byte is not a
    // digit, and only the bytes before the first one that is not are used.
    let other = ((w & HIGH_NIBBLES) ^ THREES) | ((w.wrapping_add(SIXES) & HIGH_NIBBLES) ^ THREES);
    // The high bit of each byte that is not a digit (no carry crosses a byte here).
    let marks = (((other & LOW_SEVEN) + LOW_SEVEN) | other) & HIGH_BITS;
    if marks == 0 {
        return None;
    }
    let n = (marks.trailing_zeros() / 8) as usize;
    if n == 0 {
        return Some((0, 0));
    }
    // The digits' values moved to the top bytes, the first digit highest, zeros below: the
    // word then reads as eight digits with leading zeros. A borrow from the byte after the
    // digits only reaches bytes that the shift drops.
    let d = w.wrapping_sub(THREES) << (64 - 8 * n);
    // Neighbouring digits, pairs, then quads combined: 10a + b, 100a + b, 10000a + b.
    let d = ((d & 0x0F0F_0F0F_0F0F_0F0F).wrapping_mul(10 << 8 | 1)) >> 8;
    let d = ((d & 0x00FF_00FF_00FF_00FF).wrapping_mul(100 << 16 | 1)) >> 16;
    let d = ((d & 0x0000_FFFF_0000_FFFF).wrapping_mul(10_000 << 32 | 1)) >> 32;
    Some((n, d & 0xFFFF_FFFF))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;
    use alloc::vec::Vec;

    /// The run a byte at a time, as the reader's slow path reads it.
    fn by_bytes(b: &[u8]) -> Option<(usize, u64)> {
        if b.len() < 8 {
            return None;
        }
        let n = b.iter().take(8).take_while(|c| c.is_ascii_digit()).count();
        (n < 8).then(|| (n, b[..n].iter().fold(0, |v, &c| v * 10 + u64::from(c - b'0'))))
    }

    #[test]
    fn every_length_and_every_byte_after_it_reads_as_byte_by_byte() {
        // Every length of run, with every byte value after it, followed by digits or by bytes
        // that carry when 6 is added, and texts too short to read as a word.
        let runs = ["", "0", "7", "10", "305", "9999", "12345", "100000", "9876543", "01234567", "99999999"];
        for run in runs {
            for after in 0..=255u8 {
                for tail in [&b"12345678"[..], b"\xff\xff\xff\xff\xff\xff\xff\xff", b"", b"9"] {
                    let mut b: Vec<u8> = run.as_bytes().to_vec();
                    b.push(after);
                    b.extend_from_slice(tail);
                    assert_eq!(short_run(&b), by_bytes(&b), "{b:?}");
                }
            }
        }
    }

    #[test]
    fn values_of_every_run_of_up_to_seven_digits_spread_over_their_range() {
        let mut checked = 0;
        for n in 1..=7u32 {
            let top = 10u64.pow(n);
            let mut v = 0;
            while v < top {
                let text = format!("{v:0width$},xxxxxxx", width = n as usize);
                assert_eq!(short_run(text.as_bytes()), Some((n as usize, v)), "{text}");
                v += 1 + v / 97;
                checked += 1;
            }
        }
        assert!(checked > 1_000, "{checked}");
    }
}
