//! "When will my job start?" (`quotasim eta`): start-time forecasts from a live state (R28).
//!
//! What is uncertain is sampled, everything else is exact: each replicate gives every job
//! that has not finished a duration (a running job one longer than what it has trained), then
//! runs the state with the engine to the horizon. A job "starts" when it is dispatched (its
//! `firstStartedAt` from `startAt` on). Draws are keyed by (seed, replicate, job name), so a
//! change or a submitted job leaves every other draw as it was (common random numbers), and
//! replicates may run in any order or on any number of threads with the same report.
//!
//! Durations come from, by mode:
//! - `history` (default when the state has one): a Kaplan-Meier estimate per share and
//!   instance type over the state's `history`; with fewer than [`MIN_SAMPLES`] observations, or
//!   for a draw beyond the largest, the state's `workload` section (its share's entry), then
//!   the job's timeout, then twice the largest duration seen (its share and type's, else the
//!   whole history's), then its `durationSeconds` as written;
//! - `workload` (default without a history when the state has a `workload` section): its
//!   share's entry's distribution, a running job's conditioned on what it has trained; past the
//!   entry's `maxSeconds`, or for a share without an entry, the timeout, then twice the entry's
//!   `maxSeconds`, then as written;
//! - `timeout`: the job's timeout (the answer Slurm's `squeue --start` gives), else as written;
//! - `exact`: `durationSeconds` as written (every replicate is the same: the check that
//!   forecasts and runs agree).
//!
//! Arrivals after `startAt` are, by mode, the listed jobs, none, jobs drawn at the `workload`
//! section's rates (`workload`; the listed ones submitted after `startAt` are then left out,
//! as the section stands for them), or, in a backtest, resampled from the recent past.
//!
//! Every draw is counted by where it came from, so a report says how it was made.
//!
//! The options are `options`'s, the forecast and its replicates `forecast`'s, the report
//! `report`'s; durations' estimates are [`km`]'s, a workload section as a model
//! `workload`'s, resampled arrivals [`arrivals`]'s, keyed draws `draws`'s.

pub mod arrivals;
pub mod backtest;
mod draws;
mod forecast;
pub mod fork;
pub mod km;
mod options;
mod prepare;
mod report;
mod workload;

pub use forecast::{Forecast, Outcome};
pub use options::{
    Arrivals, Durations, EtaOptions, DEFAULT_HORIZON, DEFAULT_REPLICATES, FORMAT_VERSION, MAX_REPLICATES,
    MIN_SAMPLES,
};
pub use prepare::{prepare, NOT_A_JOB};
pub use report::{iso_time, Band, BandIso, EtaReport, JobEta, Victim};

#[cfg(test)]
mod tests {
    use super::draws::draw_unit;
    use super::forecast::nearest_rank;
    use super::*;

    #[test]
    fn iso_times_are_utc_calendar_times() {
        assert_eq!(iso_time(0, 0), "1970-01-01T00:00:00Z");
        assert_eq!(iso_time(1_796_392_800_000, 3661), "2026-12-04T15:01:01Z");
        assert_eq!(iso_time(951_782_400_000, 0), "2000-02-29T00:00:00Z");
    }

    #[test]
    fn nearest_rank_is_null_when_too_few_start() {
        // 10 replicates, 8 start: p10 is the 1st, p50 the 5th, p90 the 9th (never started).
        let s = [10, 20, 30, 40, 50, 60, 70, 80];
        assert_eq!(nearest_rank(&s, 10, 10), Some(10));
        assert_eq!(nearest_rank(&s, 10, 50), Some(50));
        assert_eq!(nearest_rank(&s, 10, 90), None);
    }

    #[test]
    fn draws_are_keyed_by_seed_replicate_and_name() {
        let a = draw_unit(0, 3, "job-a");
        assert_eq!(a, draw_unit(0, 3, "job-a"));
        assert_ne!(a, draw_unit(0, 4, "job-a"));
        assert_ne!(a, draw_unit(1, 3, "job-a"));
        assert_ne!(a, draw_unit(0, 3, "job-b"));
        assert!(a > 0.0 && a <= 1.0);
    }
}
