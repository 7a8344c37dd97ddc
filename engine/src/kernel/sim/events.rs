//! R24: the event log, packed. Every event is 8 bytes (a large run records several per job);
//! the time of each instant is kept once, with an index every [`EVENT_BLOCK`] events so a
//! reader can start anywhere.

use alloc::vec::Vec;

use crate::chunked::Chunked;
use crate::reasons::Reason;
use crate::result::{EventType, Status};

/// One recorded event. `code` holds, from the lowest bit: the event type (2 bits), the
/// status (3 bits, 0 for none), the reason's kind (3 bits), whether the event is the first of
/// its instant (1 bit) and the reason's index (23 bits; `WIDE` when it does not fit, the
/// index is then in `wide_reasons`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct RawEvent {
    pub job: u32,
    code: u32,
}

const WIDE: u32 = (1 << 23) - 1;
/// Every this many events, the index of the instant of the first one is kept.
const EVENT_BLOCK: usize = 4096;

/// A status as a small number: 0 for none (not yet submitted), else `1 + Status as usize`.
pub(crate) fn status_slot(s: Option<Status>) -> usize {
    s.map_or(0, |x| 1 + x as usize)
}

fn slot_status(k: usize) -> Option<Status> {
    k.checked_sub(1).map(|i| STATUSES[i])
}

const STATUSES: [Status; 7] = [
    Status::Submitted,
    Status::Runnable,
    Status::Scheduled,
    Status::Starting,
    Status::Running,
    Status::Succeeded,
    Status::Failed,
];

impl RawEvent {
    pub fn etype(self) -> EventType {
        match self.code & 3 {
            1 => EventType::PreemptionStarted,
            2 => EventType::PreemptionCompleted,
            _ => EventType::StateChange,
        }
    }

    pub fn status(self) -> Option<Status> {
        slot_status(((self.code >> 2) & 7) as usize)
    }

    fn starts_instant(self) -> bool {
        self.code & (1 << 8) != 0
    }
}

/// The recorded events, in order.
#[derive(Clone, Debug, Default)]
pub(crate) struct EventLog {
    events: Chunked<RawEvent>,
    /// The time of every instant that recorded events, in order.
    event_at: Chunked<u64>,
    /// For events `0, EVENT_BLOCK, 2 * EVENT_BLOCK, ...`: the index of their instant.
    event_blocks: Vec<usize>,
    /// `(event, reason index)` for reason indexes too large for an event's code.
    wide_reasons: Vec<(usize, u32)>,
}

impl EventLog {
    /// Records an event of job `job` at time `now` (not before the last one's).
    pub fn push(&mut self, now: u64, job: u32, etype: EventType, status: Option<Status>, reason: Reason) {
        let idx = self.events.len();
        let n = self.event_at.len();
        let starts = n == 0 || *self.event_at.get(n - 1) != now;
        if starts {
            self.event_at.push(now);
        }
        if idx.is_multiple_of(EVENT_BLOCK) {
            self.event_blocks.push(self.event_at.len() - 1);
        }
        let (tag, val) = reason.pack();
        let val = if val >= WIDE {
            self.wide_reasons.push((idx, val));
            WIDE
        } else {
            val
        };
        let et = match etype {
            EventType::StateChange => 0,
            EventType::PreemptionStarted => 1,
            EventType::PreemptionCompleted => 2,
        };
        let st = status_slot(status) as u32;
        let code = et | st << 2 | (tag as u32) << 5 | u32::from(starts) << 8 | val << 9;
        self.events.push(RawEvent { job, code });
    }

    /// Number of recorded events.
    pub fn len(&self) -> usize {
        self.events.len()
    }

    /// The distinct instants of the recorded events, in order.
    pub fn instants(&self) -> impl Iterator<Item = u64> + '_ {
        self.event_at.iter_from(0).copied()
    }

    /// The events from index `from` on, each with its time and index.
    pub fn iter_from(&self, from: usize) -> impl Iterator<Item = (u64, usize, RawEvent)> + '_ {
        // The instant of event `from`: from the last kept block start, counting instants.
        let mut inst = 0;
        if from < self.events.len() {
            let b = from / EVENT_BLOCK;
            inst = self.event_blocks[b];
            for k in b * EVENT_BLOCK + 1..=from {
                inst += usize::from(self.events.get(k).starts_instant());
            }
        }
        let from = from.min(self.events.len());
        self.events.iter_from(from).enumerate().map(move |(k, &e)| {
            if k > 0 && e.starts_instant() {
                inst += 1;
            }
            (*self.event_at.get(inst), from + k, e)
        })
    }

    /// The reason of event `idx`.
    pub fn reason(&self, idx: usize, e: RawEvent) -> Reason {
        let mut val = e.code >> 9;
        if val == WIDE {
            let k = self.wide_reasons.partition_point(|w| w.0 < idx);
            val = self.wide_reasons.get(k).map_or(0, |w| w.1);
        }
        Reason::unpack(((e.code >> 5) & 7) as u8, val)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_events_keep_their_time_status_and_reason() {
        let mut log = EventLog::default();
        let n = 3 * EVENT_BLOCK + 17;
        // Three events an instant, so instants straddle the kept block starts.
        let reason = |k: usize| match k % 5 {
            0 => Reason::Preempted(WIDE + k as u32),
            1 => Reason::RetryLimit(k as u32),
            2 => Reason::Terminated(WIDE - 1),
            3 => Reason::Timeout,
            _ => Reason::None,
        };
        for k in 0..n {
            let status = (k % 4 != 0).then_some(STATUSES[k % 7]);
            log.push((k / 3) as u64 * 10, 0, EventType::PreemptionCompleted, status, reason(k));
        }
        assert_eq!(log.len(), n);
        assert_eq!(log.instants().count(), n.div_ceil(3));
        for (at, k, e) in log.iter_from(0) {
            assert_eq!(at, (k / 3) as u64 * 10);
            assert_eq!(e.etype(), EventType::PreemptionCompleted);
            assert_eq!(e.status(), (k % 4 != 0).then_some(STATUSES[k % 7]));
            assert_eq!(log.reason(k, e), reason(k), "event {k}");
        }
    }

    #[test]
    fn packed_events_read_at_their_instant_from_any_index() {
        let mut log = EventLog::default();
        let n = 3 * EVENT_BLOCK + 17;
        for k in 0..n {
            log.push((k / 3) as u64 * 10, 0, EventType::StateChange, Some(Status::Runnable), Reason::None);
        }
        for from in [0, 1, 2, 3, EVENT_BLOCK - 1, EVENT_BLOCK, EVENT_BLOCK + 1, 2 * EVENT_BLOCK + 2, n - 1] {
            let at: Vec<u64> = log.iter_from(from).map(|(at, _, _)| at).collect();
            let want: Vec<u64> = (from..n).map(|k| (k / 3) as u64 * 10).collect();
            assert_eq!(at, want, "from {from}");
        }
        assert_eq!(log.iter_from(n).count(), 0);
    }
}
