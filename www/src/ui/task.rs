//! Long computations in slices: the one way the page runs anything that may take longer than a
//! frame (a run, the baseline's run, a comparison, a sweep). Each slice works for at most
//! [`SLICE_MS`] and gives the thread back to the browser; a computation started later in the
//! same [`Tasks`] replaces the one in progress, which stops at its next slice.

use leptos::prelude::*;

use crate::ui::dom;

/// How long one slice may take before the page gets the thread back (milliseconds): well
/// under the 50 ms at which a browser counts a task as long.
pub const SLICE_MS: f64 = 24.0;

/// One kind of computation of the page, one at a time: each computation started gets a new
/// generation, and only the latest goes on.
#[derive(Clone, Copy)]
pub struct Tasks {
    /// The generation of the latest computation, and whether it is still going.
    state: StoredValue<(u64, bool)>,
}

impl Default for Tasks {
    fn default() -> Self {
        Tasks::new()
    }
}

impl Tasks {
    pub fn new() -> Tasks {
        Tasks { state: StoredValue::new((0, false)) }
    }

    /// Whether a computation is in progress.
    pub fn busy(&self) -> bool {
        self.state.try_with_value(|s| s.1).unwrap_or(false)
    }

    /// Stops the computation in progress (at its next slice); returns whether there was one.
    pub fn cancel(&self) -> bool {
        self.state
            .try_update_value(|(gen, busy)| {
                *gen += 1;
                core::mem::take(busy)
            })
            .unwrap_or(false)
    }

    /// Stops the computation in progress whenever what `track` reads changes (its work is of a
    /// state gone; what it showed is keyed to that state, see [`crate::ui::state::Keyed`]),
    /// and when the page goes.
    pub fn cancel_on_change(self, track: impl Fn() + 'static) {
        Effect::new(move |seen: Option<()>| {
            track();
            if seen.is_some() {
                self.cancel();
            }
        });
        on_cleanup(move || {
            self.cancel();
        });
    }

    /// Starts a computation, replacing the one in progress: `step` is given slices of time
    /// (it works until its argument says the slice is over, and returns the result once it has
    /// one); `done` gets the result and the computing time it took, in milliseconds. The first
    /// slice runs after the current task, so the page can draw what started the computation.
    pub fn start<T: 'static>(
        &self,
        mut step: impl FnMut(&mut dyn FnMut() -> bool) -> Option<T> + 'static,
        done: impl FnOnce(T, f64) + 'static,
    ) {
        let Some(id) = self.state.try_update_value(|(gen, busy)| {
            *gen += 1;
            *busy = true;
            *gen
        }) else {
            return;
        };
        let state = self.state;
        leptos::task::spawn_local(async move {
            let mut spent = 0.0;
            loop {
                gloo_timers::future::TimeoutFuture::new(0).await;
                // Replaced, cancelled, or the page is gone.
                if state.try_with_value(|s| s.0) != Some(id) {
                    return;
                }
                let t0 = dom::now_ms();
                let out = step(&mut || dom::now_ms() - t0 > SLICE_MS);
                spent += dom::now_ms() - t0;
                if let Some(out) = out {
                    state.update_value(|s| s.1 = false);
                    done(out, spent);
                    return;
                }
            }
        });
    }
}
