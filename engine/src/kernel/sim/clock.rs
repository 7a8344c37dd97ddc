//! R10: the timer queue. Timers come out by time, then in the order they were scheduled.
//! A timer is never removed when what it was for moves on: it carries its subject's
//! generation, and the caller drops it as stale when it comes due (lazy cancel).

use alloc::collections::BinaryHeap;
use core::cmp::{Ordering, Reverse};

/// What a timer does when it comes due.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TimerKind {
    /// `SCHEDULED` -> `STARTING` or `STARTING` -> `RUNNING`.
    Advance,
    /// End of the remaining training (success) or the attempt's timeout (R9).
    Finish,
    /// A victim's grace period ends (R21).
    Release,
    /// An earmark's victims have all released (R21); `subject` is the earmark's id.
    Mature,
}

/// A scheduled timer: `subject` is a job (an earmark for [`TimerKind::Mature`]) and `gen`
/// that subject's generation when the timer was scheduled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Timer {
    pub at: u64,
    seq: u64,
    pub kind: TimerKind,
    pub subject: u32,
    pub gen: u32,
}

impl Ord for Timer {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.at, self.seq).cmp(&(other.at, other.seq))
    }
}
impl PartialOrd for Timer {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// The queue of timers, earliest first, ties in scheduling order.
#[derive(Clone, Debug, Default)]
pub(crate) struct Clock {
    heap: BinaryHeap<Reverse<Timer>>,
    seq: u64,
}

impl Clock {
    /// Schedules a timer.
    pub fn push(&mut self, at: u64, kind: TimerKind, subject: u32, gen: u32) {
        self.seq += 1;
        self.heap.push(Reverse(Timer { at, seq: self.seq, kind, subject, gen }));
    }

    /// The next timer, without taking it.
    pub fn peek(&self) -> Option<&Timer> {
        self.heap.peek().map(|r| &r.0)
    }

    /// When the next timer is due.
    pub fn next_at(&self) -> Option<u64> {
        self.peek().map(|t| t.at)
    }

    /// Takes the next timer.
    pub fn pop(&mut self) -> Option<Timer> {
        self.heap.pop().map(|r| r.0)
    }

    /// Takes the next timer if it is due at `now`.
    pub fn pop_due(&mut self, now: u64) -> Option<Timer> {
        if self.next_at() == Some(now) {
            self.pop()
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    fn drain(c: &mut Clock) -> Vec<(u64, u32)> {
        core::iter::from_fn(|| c.pop()).map(|t| (t.at, t.subject)).collect()
    }

    #[test]
    fn timers_come_out_by_time_then_in_scheduling_order() {
        let mut c = Clock::default();
        c.push(20, TimerKind::Finish, 1, 0);
        c.push(10, TimerKind::Advance, 2, 0);
        c.push(20, TimerKind::Release, 3, 0);
        c.push(10, TimerKind::Mature, 4, 0);
        c.push(0, TimerKind::Finish, 5, 0);
        assert_eq!(drain(&mut c), [(0, 5), (10, 2), (10, 4), (20, 1), (20, 3)]);
    }

    #[test]
    fn pop_due_takes_only_timers_due_now() {
        let mut c = Clock::default();
        c.push(5, TimerKind::Advance, 1, 7);
        c.push(5, TimerKind::Finish, 2, 8);
        c.push(9, TimerKind::Finish, 3, 9);
        assert_eq!(c.pop_due(4), None);
        let t = c.pop_due(5).unwrap();
        assert_eq!((t.subject, t.kind, t.gen), (1, TimerKind::Advance, 7));
        assert_eq!(c.pop_due(5).map(|t| t.subject), Some(2));
        assert_eq!(c.pop_due(5), None);
        assert_eq!(c.next_at(), Some(9));
    }

    #[test]
    fn an_empty_clock_has_no_next_time() {
        let mut c = Clock::default();
        assert_eq!(c.next_at(), None);
        assert_eq!(c.pop(), None);
        assert_eq!(c.pop_due(0), None);
    }
}
