//! `quotasim bench`: times the simulation alone on generated workloads.
//!
//! Each size is generated and validated in memory first (not timed), then simulated
//! `repeat` times in each of two modes: with the R24 event list recorded (what `quotasim run`
//! does) and without it (what `quotasim run --summary` does). The best time is reported.
//! Memory is the peak of heap bytes allocated by the simulation beyond the validated
//! scenario, counted by the allocator, divided by the number of jobs. With `--at-once` every
//! job is submitted at t = 0. With `--fork` it measures what a forecast replicate costs
//! instead (see [`fork`]).

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

/// `bench --fork`: the cost of a fork, what every forecast replicate and counterfactual pays.
/// Each size's run (events not recorded) is stopped when half its jobs have been submitted.
/// Best of `repeat`: the rest of the original run (a clone run to its end; the clone itself
/// timed apart), and a forecast's fork of it: once per forecast, its state after that instant
/// as an R28 scenario (`Simulation::state`) validated; then per replicate, as `eta` does, the
/// validated state copied with a new duration for every unfinished job (each one's own scaled
/// by 0.8 to 1.2, by its index, and longer than the work it has done) and run to its end.
pub fn fork(sizes: &[u64], repeat: u32) -> ExitCode {
    for &n in sizes {
        if let Err((_, msg)) = GenerateOptions::benchmark(n).check() {
            say!("quotasim: --jobs: {msg}");
            return ExitCode::from(2);
        }
    }
    println!(
        "{:>10} {:>10} {:>8} {:>9} {:>9} {:>9} {:>9} {:>12} {:>14}",
        "jobs", "at", "left", "clone ms", "rest ms", "state ms", "check ms", "replicate ms", "replicate/rest"
    );
    let counted = Options { record_events: false, ..Options::default() };
    for &n in sizes {
        let scenario = generate(&GenerateOptions::benchmark(n));
        let valid = match validate(&scenario) {
            Ok(v) => Arc::new(v),
            Err(p) => {
                say!("generated scenario is invalid: {:?}", p.first());
                return ExitCode::from(1);
            }
        };
        // The middle: the instant by which half the jobs have been submitted.
        let mut submits: Vec<u64> = valid.jobs.iter().map(|j| j.submit_at).collect();
        submits.sort_unstable();
        let mid = submits[submits.len() / 2];
        let mut base = Simulation::with_shared(valid.clone(), counted);
        base.run_until(mid);
        let best = |f: &mut dyn FnMut() -> f64| (0..repeat).map(|_| f()).fold(f64::MAX, f64::min);
        let ms = |t0: Instant| t0.elapsed().as_secs_f64() * 1e3;
        let clone_ms = best(&mut || {
            let t0 = Instant::now();
            let c = base.clone();
            let t = ms(t0);
            drop(c);
            t
        });
        let rest_ms = best(&mut || {
            let mut c = base.clone();
            let t0 = Instant::now();
            c.run();
            ms(t0)
        });
        let state_of = || base.state(&scenario).scenario;
        let state_ms = best(&mut || {
            let t0 = Instant::now();
            let st = state_of();
            let t = ms(t0);
            drop(st);
            t
        });
        let state = state_of();
        let check_ms = best(&mut || {
            let t0 = Instant::now();
            let v = validate(&state);
            let t = ms(t0);
            drop(v);
            t
        });
        let forked = match validate(&state) {
            Ok(v) => v,
            Err(p) => {
                say!("the fork's state is invalid: {:?}", p.first());
                return ExitCode::from(1);
            }
        };
        let replicate_ms = best(&mut || {
            let t0 = Instant::now();
            let mut v = forked.clone();
            for (i, j) in v.jobs.iter_mut().enumerate() {
                j.duration = (j.duration * (80 + (i as u64 * 7919) % 41) / 100).max(j.completed_work + 1);
            }
            let mut sim = Simulation::with_options(v, counted);
            sim.run();
            ms(t0)
        });
        println!(
            "{:>10} {:>10} {:>8} {:>9.1} {:>9.1} {:>9.1} {:>9.1} {:>12.1} {:>13.2}x",
            n,
            mid,
            state.jobs.len(),
            clone_ms,
            rest_ms,
            state_ms,
            check_ms,
            replicate_ms,
            replicate_ms / rest_ms.max(1e-9)
        );
    }
    ExitCode::SUCCESS
}
