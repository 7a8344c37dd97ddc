//! A job's attempts as AWS reports them, read the way the simulation counts them: each
//! dispatched at its `scheduledAt`, training from its `startedAt`, until its `stoppedAt`; and
//! the start-up time between the two (`settings.scheduledSeconds` and `startingSeconds`),
//! fitted from the history.
//!
//! AWS gives `scheduledAt` only for a job's latest attempt, and a state-change event's `time`
//! for each step (`SCHEDULED`, `STARTING`, `RUNNING`). An attempt whose dispatch is not known
//! is taken as dispatched the fitted start-up time before it started training (never before
//! the job was created, nor before its previous attempt stopped).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::result::Status;

/// One attempt, in epoch milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Attempt {
    /// When it was dispatched (`SCHEDULED`).
    pub dispatched: i64,
    /// When it started training (`startedAt`); `None` while it is still starting up.
    pub training: Option<i64>,
    /// When it stopped; `None` while it runs.
    pub stopped: Option<i64>,
}

impl Attempt {
    /// Whole seconds of training from its start to `end` (its stop, or the time given).
    pub fn trained(&self, end: i64) -> u64 {
        let end = self.stopped.map_or(end, |s| s.min(end));
        self.training.map_or(0, |t| (end.saturating_sub(t).max(0) / 1000) as u64)
    }
}

/// The order of a job's statuses within one instant.
fn rank(s: Status) -> u8 {
    match s {
        Status::Submitted => 0,
        Status::Runnable => 1,
        Status::Scheduled => 2,
        Status::Starting => 3,
        Status::Running => 4,
        Status::Succeeded | Status::Failed => 5,
    }
}

/// Sorts a job's observed steps by time, then by status within an instant, without repeats.
pub(super) fn sort_steps(steps: &mut Vec<(i64, Status)>) {
    steps.sort_by_key(|&(t, s)| (t, rank(s)));
    steps.dedup();
}

/// A job's attempts: the reported ones (`(startedAt, stoppedAt)`, in order), each given its
/// dispatch, then one still starting up if a later dispatch is known (`scheduled`, or a
/// `SCHEDULED` step after the last reported attempt). `startup` is the fitted start-up time
/// in milliseconds.
pub(super) fn attempts(
    created: i64,
    reported: &[(i64, Option<i64>)],
    scheduled: Option<i64>,
    steps: &[(i64, Status)],
    stopped: Option<i64>,
    startup: i64,
) -> Vec<Attempt> {
    let mut out: Vec<Attempt> = Vec::with_capacity(reported.len() + 1);
    let dispatches: Vec<i64> =
        steps.iter().filter(|s| s.1 == Status::Scheduled).map(|s| s.0).chain(scheduled).collect();
    for &(start, stop) in reported {
        let floor = out.last().map_or(created, |a| a.stopped.unwrap_or(a.dispatched)).min(start);
        // The latest dispatch seen between the previous attempt and this one's training.
        let seen = dispatches.iter().copied().filter(|&d| d >= floor && d <= start).max();
        let dispatched = seen.unwrap_or_else(|| start.saturating_sub(startup).max(floor));
        out.push(Attempt { dispatched, training: Some(start), stopped: stop });
    }
    // A dispatch after every reported attempt and none of theirs: an attempt still starting
    // up (or stopped before it trained). A job may be dispatched again the instant its last
    // attempt stopped.
    let after = out.last().map(|a| a.stopped.unwrap_or(i64::MAX));
    let used = |d: i64| out.iter().any(|a| a.dispatched == d);
    if let Some(d) =
        dispatches.iter().copied().filter(|&d| after.is_none_or(|e| d >= e) && d >= created && !used(d)).max()
    {
        let stop = stopped.filter(|&s| s >= d);
        out.push(Attempt { dispatched: d, training: None, stopped: stop });
    }
    out
}

/// The fitted start-up settings and how they were found.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub(super) struct Startup {
    pub scheduled_seconds: i64,
    pub starting_seconds: i64,
    /// What was observed, for the warning; empty when nothing was.
    pub said: String,
}

impl Startup {
    /// Milliseconds from dispatch to training.
    pub fn millis(&self) -> i64 {
        (self.scheduled_seconds + self.starting_seconds) * 1000
    }
}

/// The median of whole milliseconds, in whole seconds (nearest, halves up).
fn median_seconds(v: &mut [i64]) -> i64 {
    v.sort_unstable();
    let m = v[(v.len() - 1) / 2];
    (m + 500).div_euclid(1000)
}

/// Fits `scheduledSeconds` and `startingSeconds`: the medians of the observed `SCHEDULED` ->
/// `STARTING` and `STARTING` -> `RUNNING` steps of the state-change events; without those, the
/// median of `startedAt - scheduledAt` of the latest attempts, all of it `scheduledSeconds`.
/// `jobs` gives each job's sorted steps and its `(scheduledAt, latest attempt's startedAt)`.
pub(super) fn fit<'a>(jobs: impl Iterator<Item = (&'a [(i64, Status)], Option<(i64, i64)>)>) -> Startup {
    let (mut scheduled, mut starting, mut both) = (Vec::new(), Vec::new(), Vec::new());
    for (steps, latest) in jobs {
        let mut stepped = false;
        for w in steps.windows(2) {
            match (w[0].1, w[1].1) {
                (Status::Scheduled, Status::Starting) => scheduled.push(w[1].0 - w[0].0),
                (Status::Starting, Status::Running) => starting.push(w[1].0 - w[0].0),
                (Status::Scheduled, Status::Running) => both.push(w[1].0 - w[0].0),
                _ => continue,
            }
            stepped = true;
        }
        if !stepped {
            if let Some((s, t)) = latest.filter(|(s, t)| t >= s) {
                both.push(t - s);
            }
        }
    }
    let n = |v: &[i64]| v.len();
    if !scheduled.is_empty() || !starting.is_empty() {
        let (ns, nt) = (n(&scheduled), n(&starting));
        let s = if scheduled.is_empty() { 0 } else { median_seconds(&mut scheduled) };
        let t = if starting.is_empty() { 0 } else { median_seconds(&mut starting) };
        Startup {
            scheduled_seconds: s,
            starting_seconds: t,
            said: format!(
                "scheduledSeconds {s} and startingSeconds {t}: the medians of {ns} observed SCHEDULED -> STARTING and {nt} STARTING -> RUNNING steps"
            ),
        }
    } else if !both.is_empty() {
        let nb = n(&both);
        let s = median_seconds(&mut both);
        Startup {
            scheduled_seconds: s,
            starting_seconds: 0,
            said: format!(
                "scheduledSeconds {s} (startingSeconds 0): the median of {nb} observed times from scheduledAt (or SCHEDULED) to startedAt"
            ),
        }
    } else {
        Startup::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dispatch_is_the_scheduled_step_else_the_startup_before_training() {
        let steps = [(1_000, Status::Scheduled), (61_000, Status::Starting), (121_000, Status::Running)];
        let a = attempts(0, &[(121_000, Some(500_000)), (900_000, None)], None, &steps, None, 120_000);
        assert_eq!(a[0], Attempt { dispatched: 1_000, training: Some(121_000), stopped: Some(500_000) });
        // No dispatch seen for the second: 120 s before it trained.
        assert_eq!(a[1], Attempt { dispatched: 780_000, training: Some(900_000), stopped: None });
        assert_eq!(a.len(), 2);
        // Never before the previous attempt stopped.
        let a = attempts(0, &[(10_000, Some(20_000)), (30_000, None)], None, &[], None, 120_000);
        assert_eq!(a[1].dispatched, 20_000);
    }

    #[test]
    fn a_later_dispatch_is_an_attempt_still_starting_up() {
        let a = attempts(0, &[(5_000, Some(9_000))], Some(12_000), &[], None, 0);
        assert_eq!(a[1], Attempt { dispatched: 12_000, training: None, stopped: None });
        assert_eq!(a[1].trained(50_000), 0);
        assert_eq!(a[0].trained(50_000), 4);
        // Dispatched again the instant the last attempt stopped.
        let a = attempts(0, &[(5_000, Some(9_000))], Some(9_000), &[(1_000, Status::Scheduled)], None, 0);
        assert_eq!(a[0].dispatched, 1_000);
        assert_eq!(a[1], Attempt { dispatched: 9_000, training: None, stopped: None });
        // An attempt dispatched and stopped at one instant is not repeated.
        let a = attempts(0, &[(9_000, Some(9_000))], Some(9_000), &[], None, 0);
        assert_eq!(a.len(), 1);
    }

    #[test]
    fn the_fit_takes_medians_of_the_steps() {
        let j1 = [(0, Status::Scheduled), (60_000, Status::Starting), (90_000, Status::Running)];
        let j2 = [(0, Status::Scheduled), (100_000, Status::Starting), (130_400, Status::Running)];
        let j3 = [(0, Status::Scheduled), (80_000, Status::Starting), (110_600, Status::Running)];
        let f = fit([(&j1[..], None), (&j2[..], None), (&j3[..], None)].into_iter());
        assert_eq!((f.scheduled_seconds, f.starting_seconds), (80, 30));
        let f = fit([(&[][..], Some((0, 200_000))), (&[][..], Some((0, 100_000)))].into_iter());
        assert_eq!((f.scheduled_seconds, f.starting_seconds), (100, 0));
        assert_eq!(fit([(&[][..], None)].into_iter()), Startup::default());
    }
}
