//! Where the run is being watched: the current instant, playing, the time window, and the
//! simulation standing at the current instant with its R25 snapshot (derived, never set).

use leptos::prelude::*;
use quotasim::result::Snapshot;
use quotasim::Simulation;

use super::run::RunHandle;
use super::AppState;

/// Where the run is being watched: the current instant, playing, and what shows there.
#[derive(Clone, Copy)]
pub struct Playback {
    pub now: RwSignal<u64>,
    pub playing: RwSignal<bool>,
    /// Simulated seconds per real second; 0 = play the whole run in about 20 seconds.
    pub speed: RwSignal<u64>,
    /// The R25 snapshot at `now`.
    pub snapshot: Memo<Option<Snapshot>>,
    /// The time window the charts show (clamped to the run; `(0, u64::MAX)` is all of it).
    pub view: RwSignal<(u64, u64)>,
    /// The simulation standing at `now`, with the generation of the run it belongs to.
    pub(super) cursor: StoredValue<Option<(u64, Simulation)>>,
}

impl Playback {
    /// Starts at instant `now`; the snapshot follows `now` and the run on screen (`run`).
    pub(super) fn new(now: u64, run: RwSignal<Option<RunHandle>>) -> Playback {
        let now = RwSignal::new(now);
        let cursor = StoredValue::new(None::<(u64, Simulation)>);
        // The simulation moved to the current instant (kept between instants, so moving on is
        // cheap), and its snapshot.
        let snapshot = Memo::new(move |_| {
            let now = now.get();
            let run = run.get()?;
            cursor
                .try_update_value(|c| {
                    match c {
                        Some((g, sim)) if *g == run.gen => run.data.move_to(sim, now),
                        _ => *c = Some((run.gen, run.data.sim_at(now))),
                    }
                    c.as_ref().map(|(_, s)| s.snapshot())
                })
                .flatten()
        });
        Playback {
            now,
            playing: RwSignal::new(false),
            speed: RwSignal::new(0),
            snapshot,
            view: RwSignal::new((0, u64::MAX)),
            cursor,
        }
    }
}

impl AppState {
    /// The simulation standing at the current instant, if there is a run (not tracked: track
    /// [`Playback::snapshot`] to follow it).
    pub fn with_cursor<R>(&self, f: impl FnOnce(&Simulation) -> R) -> Option<R> {
        // The snapshot is computed when read: reading it moves the cursor to the current instant.
        self.play.snapshot.with_untracked(|_| ());
        self.play.cursor.try_with_value(|c| c.as_ref().map(|(_, s)| f(s))).flatten()
    }

    /// The visible time window, clamped to the run.
    pub fn window(&self) -> (u64, u64) {
        crate::charts::clamp_window(self.start(), self.end(), self.play.view.get())
    }

    /// The end of the current run (0 without one).
    pub fn end(&self) -> u64 {
        self.run.handle.with(|r| r.as_ref().map_or(0, |r| r.data.end))
    }

    /// Where the current run begins: its `startAt` (0 without one, or for a run from the start).
    pub fn start(&self) -> u64 {
        self.run.handle.with(|r| r.as_ref().map_or(0, |r| r.data.start))
    }
}
