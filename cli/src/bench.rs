//! `quotasim bench`: times the simulation alone on generated workloads.
//!
//! Each size is generated and validated in memory first (not timed), then simulated
//! `repeat` times in each of two modes: with the R24 event list recorded (what `quotasim run`
//! does) and without it (what `quotasim run --summary` does). The best time is reported.
//! Memory is the peak of heap bytes allocated by the simulation beyond the validated
//! scenario, counted by the allocator, divided by the number of jobs. With `--at-once` every
//! job is submitted at t = 0.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use quotasim::{generate, validate, GenerateOptions, Options, Simulation};

use self::counted::GLOBAL;

/// The system allocator, counting heap bytes only while `bench` measures: other commands (a
/// sweep on every core) pay no shared counter on each allocation.
mod counted {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering::Relaxed};

    pub struct Counted {
        on: AtomicBool,
        live: AtomicIsize,
        peak: AtomicIsize,
    }

    #[global_allocator]
    pub static GLOBAL: Counted =
        Counted { on: AtomicBool::new(false), live: AtomicIsize::new(0), peak: AtomicIsize::new(0) };

    impl Counted {
        /// Counts from here: bytes allocated and not freed since, and their peak.
        pub fn reset_peak_memory(&self) {
            self.live.store(0, Relaxed);
            self.peak.store(0, Relaxed);
            self.on.store(true, Relaxed);
        }

        pub fn get_peak_memory(&self) -> usize {
            self.peak.load(Relaxed).max(0) as usize
        }

        #[inline]
        fn grew(&self, bytes: isize) {
            if self.on.load(Relaxed) {
                let now = self.live.fetch_add(bytes, Relaxed) + bytes;
                self.peak.fetch_max(now, Relaxed);
            }
        }
    }

    // SAFETY: every call is passed on to the system allocator unchanged; only counters move.
    unsafe impl GlobalAlloc for Counted {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            // SAFETY: the caller's guarantees for `layout` hold for the system allocator.
            let p = unsafe { System.alloc(layout) };
            if !p.is_null() {
                self.grew(layout.size() as isize);
            }
            p
        }

        unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
            // SAFETY: as for `alloc`.
            let p = unsafe { System.alloc_zeroed(layout) };
            if !p.is_null() {
                self.grew(layout.size() as isize);
            }
            p
        }

        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            // SAFETY: `ptr` came from this allocator, that is from the system one, with `layout`.
            unsafe { System.dealloc(ptr, layout) };
            self.grew(-(layout.size() as isize));
        }

        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            // SAFETY: as for `dealloc`, and the caller's guarantees for `new_size`.
            let p = unsafe { System.realloc(ptr, layout, new_size) };
            if !p.is_null() {
                self.grew(new_size as isize - layout.size() as isize);
            }
            p
        }
    }
}

pub fn run(sizes: &[u64], repeat: u32, at_once: bool) -> ExitCode {
    // The same checks as `generate`, before anything runs.
    for &n in sizes {
        if let Err((_, msg)) = GenerateOptions::benchmark(n).check() {
            say!("quotasim: --jobs: {msg}");
            return ExitCode::from(2);
        }
    }
    let exhaustive = std::env::var_os("QUOTASIM_EXHAUSTIVE").is_some();
    println!(
        "{:>10} {:>8} {:>10} {:>10} {:>12} {:>12} {:>10} {:>10}",
        "jobs", "events", "count", "sim ms", "jobs/s", "events/s", "preempted", "B/job"
    );
    for &n in sizes {
        let mut scenario = generate(&GenerateOptions::benchmark(n));
        if at_once {
            for j in &mut scenario.jobs {
                j.submit_at = 0;
            }
        }
        let valid = match validate(&scenario) {
            Ok(v) => Arc::new(v),
            Err(p) => {
                say!("generated scenario is invalid: {:?}", p.first());
                return ExitCode::from(1);
            }
        };
        drop(scenario);
        for record_events in [true, false] {
            let mut best = f64::MAX;
            let mut peak = 0usize;
            let mut events = 0u64;
            let mut preempted = 0u64;
            for _ in 0..repeat {
                GLOBAL.reset_peak_memory();
                let t0 = Instant::now();
                let mut sim = Simulation::with_shared(
                    valid.clone(),
                    Options { record_events, exhaustive_passes: exhaustive, ..Options::default() },
                );
                sim.run();
                best = best.min(t0.elapsed().as_secs_f64());
                peak = peak.max(GLOBAL.get_peak_memory());
                let r = sim.bench_run();
                events = r.events;
                preempted = r.preempted_jobs;
                if std::env::var_os("QUOTASIM_BENCH_STATS").is_some() {
                    say!("{:?}", sim.stats());
                }
            }
            println!(
                "{:>10} {:>8} {:>10} {:>10.1} {:>12.0} {:>12.0} {:>9.2}% {:>10.0}",
                n,
                if record_events { "recorded" } else { "counted" },
                events,
                best * 1e3,
                n as f64 / best,
                events as f64 / best,
                preempted as f64 * 100.0 / n.max(1) as f64,
                peak as f64 / n.max(1) as f64
            );
        }
    }
    ExitCode::SUCCESS
}
