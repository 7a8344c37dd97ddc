//! `quotasim import aws --state-at MS`: each job's status at the instant MS (epoch
//! milliseconds), rebuilt from its attempts and events as they stood then (R28).
//!
//! Only what was known at MS is used: events after it are not read, attempts dispatched after
//! it are dropped, a stop or a start of training after it has not happened yet, and no job that
//! had not finished by MS has a duration. A job created after MS is not in the state.

use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::attempts::Attempt;
use super::observed::ObservedJob;
use crate::import_check::Capped;
use crate::model::{Job, ObservedDuration, Scenario};
use crate::problem::Problem;
use crate::result::Status;

/// Where a job was at MS.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum At {
    /// Created after MS: not in the state.
    Later,
    /// Finished by MS: its duration goes to `history`.
    Finished,
    /// In an attempt at MS, dispatched at `dispatched`, having trained `trained` seconds of it.
    Running { dispatched: i64, trained: u64 },
    /// Waiting at MS; `grace`: its attempt was being preempted (in its grace period) then, and
    /// that preemption is counted.
    Queued { grace: bool },
}

/// A job at MS.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct JobAt {
    pub at: At,
    /// Attempts preempted by MS (`previousAttempts`).
    pub previous_attempts: u32,
    /// Progress those attempts saved (`completedWorkSeconds`).
    pub completed_work: u64,
    /// The saved progress is an estimate: each attempt's training rounded down to the
    /// checkpoint interval (AWS does not report what a checkpoint saved).
    pub estimated: bool,
}

/// What the import knows of one job, in epoch milliseconds.
pub(super) struct Known<'a> {
    pub created: i64,
    pub attempts: &'a [Attempt],
    /// When it finished (succeeded, failed or was terminated), if it has.
    pub finished: Option<i64>,
    /// When the preemption of its current attempt began, if one had begun and not completed.
    pub preempting_since: Option<i64>,
    /// Seconds between checkpoints, if it checkpoints.
    pub checkpoint: Option<u64>,
    /// The training its preemptions lost (after their last checkpoint), when the events say it.
    pub lost: Option<u64>,
    /// When each completed preemption's stop signal came, in order: training stopped then.
    pub signals: &'a [i64],
}

/// The job at `ms`.
pub(super) fn job_at(k: &Known, ms: i64) -> JobAt {
    let mut j =
        JobAt { at: At::Queued { grace: false }, previous_attempts: 0, completed_work: 0, estimated: false };
    if k.created > ms {
        j.at = At::Later;
        return j;
    }
    if k.finished.is_some_and(|f| f <= ms) {
        j.at = At::Finished;
        return j;
    }
    let seen: Vec<Attempt> = k
        .attempts
        .iter()
        .filter(|a| a.dispatched <= ms)
        .map(|a| Attempt {
            dispatched: a.dispatched,
            training: a.training.filter(|&t| t <= ms),
            stopped: a.stopped.filter(|&s| s <= ms),
        })
        .collect();
    let (ended, current): (Vec<&Attempt>, Vec<&Attempt>) = seen.iter().partition(|a| a.stopped.is_some());
    j.previous_attempts = ended.len().min(u32::MAX as usize) as u32;
    let saved = |trained: u64, c: u64| trained / c * c;
    if let Some(c) = k.checkpoint.filter(|c| *c > 0) {
        let trained: u64 = ended
            .iter()
            .enumerate()
            .map(|(i, a)| a.trained(k.signals.get(i).map_or(ms, |&p| p.min(ms))))
            .sum();
        j.completed_work = match k.lost {
            Some(l) => trained.saturating_sub(l),
            None => {
                j.estimated = trained > 0;
                ended.iter().map(|a| saved(a.trained(ms), c)).sum()
            }
        };
    }
    let Some(now) = current.last() else { return j };
    match k.preempting_since.filter(|&p| p <= ms && p >= now.dispatched) {
        Some(p) => {
            // Training stopped when the preemption began; a checkpointing job keeps what its
            // last checkpoint saved.
            j.previous_attempts = j.previous_attempts.saturating_add(1);
            if let Some(c) = k.checkpoint.filter(|c| *c > 0) {
                let t = now.trained(p);
                j.estimated |= t > 0;
                j.completed_work += saved(t, c);
            }
            j.at = At::Queued { grace: true };
        }
        None => j.at = At::Running { dispatched: now.dispatched, trained: now.trained(ms) },
    }
    j
}

/// The state as it is built: what the import leaves out or moves to `history`, and the jobs
/// whose duration is not known yet.
#[derive(Default)]
pub(super) struct Tally {
    /// Jobs created after the instant.
    pub later: u64,
    /// Finished jobs (censored when they failed) and running ones (censored).
    pub history: Vec<ObservedDuration>,
    /// Jobs whose duration is not known at the instant: they get a stand-in longer than their
    /// training so far while the scenario is checked, and none in the state.
    pub unknown: Vec<String>,
}

impl Tally {
    /// Puts a queued or running job `s` into the state: its attempt, its saved progress, and
    /// (running) its training so far into `history`. `secs` turns epoch milliseconds into the
    /// scenario's seconds.
    pub fn place(
        &mut self,
        job: &mut Job,
        observed: &mut ObservedJob,
        s: &JobAt,
        ms: i64,
        secs: impl Fn(i64) -> u64,
    ) {
        job.previous_attempts = i64::from(s.previous_attempts);
        job.completed_work_seconds = s.completed_work as i64;
        let mut trained_by_now = 0;
        observed.stopped_at = None;
        observed.first_started_at = observed.first_started_at.filter(|t| *t <= secs(ms));
        match s.at {
            At::Running { dispatched, trained } => {
                job.started_at = Some(secs(dispatched) as i64);
                trained_by_now = secs(ms).saturating_sub(secs(dispatched));
                observed.status = Some(Status::Running);
                self.history.push(ObservedDuration {
                    quota_share_name: String::from(job.quota_share_name.as_str()),
                    instance_type: job.instance_type.as_deref().unwrap_or_default().to_string(),
                    instance_count: job.instance_count.unwrap_or(1),
                    duration_seconds: (s.completed_work + trained).max(1) as i64,
                    censored: true,
                });
            }
            _ => observed.status = Some(Status::Runnable),
        }
        job.duration_seconds = Some((s.completed_work + trained_by_now).saturating_add(1) as i64);
        self.unknown.push(String::from(job.job_name.as_str()));
    }

    /// Makes `s` the state at `ms`: `startAt` and the origin, the durations not known yet
    /// left out, `history`; and says what was left out.
    pub fn finish(self, s: &mut Scenario, problems: &mut Capped, ms: i64, origin: i64, later_events: u64) {
        let unknown: BTreeSet<&str> = self.unknown.iter().map(String::as_str).collect();
        for j in &mut s.jobs {
            if unknown.contains(j.job_name.as_str()) {
                j.duration_seconds = None;
            }
        }
        s.history = self.history;
        s.name = Some(format!("AWS queue at {} ({} jobs)", super::time::iso8601(ms), s.jobs.len()));
        s.description = Some(format!(
            "The live state imported from AWS Batch outputs at {} ({ms} ms after the Unix epoch); time 0 is the earliest createdAt then ({origin} ms).",
            super::time::iso8601(ms)
        ));
        if self.later > 0 || later_events > 0 {
            problems.push_general(Problem::warning(
                "settings.startAt",
                format!(
                    "{} job(s) created after the state's instant and {later_events} event(s) after it are not in the state",
                    self.later
                ),
            ));
        }
    }

    /// The warnings a job's place in the state needs: progress estimated, a preemption in
    /// progress, a dispatch not reported.
    pub fn warn(
        &self,
        problems: &mut Capped,
        file: &str,
        at: &str,
        id: &str,
        s: &JobAt,
        dispatch_guessed: bool,
    ) {
        if s.estimated {
            problems.push(file, "saved progress estimated", Problem::warning(
                at,
                format!(
                    "job {id}: completedWorkSeconds {} is its earlier attempts' training rounded down to the checkpoint interval (AWS does not report what a checkpoint saved)",
                    s.completed_work
                ),
            ));
        }
        match s.at {
            At::Queued { grace: true } => problems.push(file, "jobs in their grace period", Problem::warning(
                at,
                format!(
                    "job {id} was being preempted at the state's instant: it is queued with that preemption counted (previousAttempts {}), and its instances are freed at startAt, before its grace period would end",
                    s.previous_attempts
                ),
            )),
            At::Running { .. } if dispatch_guessed => problems.push(file, "dispatches not reported", Problem::warning(
                at,
                format!("job {id}: no scheduledAt or SCHEDULED event for its attempt: dispatched the fitted start-up time before its startedAt"),
            )),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn att(d: i64, t: Option<i64>, s: Option<i64>) -> Attempt {
        Attempt { dispatched: d, training: t, stopped: s }
    }

    fn known(attempts: &[Attempt]) -> Known<'_> {
        Known {
            created: 0,
            attempts,
            finished: None,
            preempting_since: None,
            checkpoint: None,
            lost: None,
            signals: &[],
        }
    }

    #[test]
    fn created_later_finished_running_and_queued() {
        let a = [att(10_000, Some(70_000), Some(400_000))];
        let mut k = known(&a);
        k.finished = Some(400_000);
        assert_eq!(job_at(&k, 500_000).at, At::Finished);
        // Before it finished it was running, dispatched at 10 s, 30 s trained at 100 s.
        assert_eq!(job_at(&k, 100_000).at, At::Running { dispatched: 10_000, trained: 30 });
        // Dispatched but still starting up.
        assert_eq!(job_at(&k, 20_000).at, At::Running { dispatched: 10_000, trained: 0 });
        assert_eq!(job_at(&k, 5_000).at, At::Queued { grace: false });
        k.created = 6_000;
        assert_eq!(job_at(&k, 5_000).at, At::Later);
    }

    #[test]
    fn a_preempted_attempt_counts_and_saves_whole_checkpoints() {
        let a = [att(0, Some(0), Some(1_000_000)), att(1_200_000, Some(1_200_000), None)];
        let mut k = known(&a);
        k.checkpoint = Some(300);
        let j = job_at(&k, 1_100_000);
        assert_eq!(
            (j.at, j.previous_attempts, j.completed_work, j.estimated),
            (At::Queued { grace: false }, 1, 900, true)
        );
        // With the lost training known, exact.
        k.lost = Some(40);
        let j = job_at(&k, 1_300_000);
        assert_eq!(j.at, At::Running { dispatched: 1_200_000, trained: 100 });
        assert_eq!((j.previous_attempts, j.completed_work, j.estimated), (1, 960, false));
    }

    #[test]
    fn a_job_in_its_grace_period_is_queued_with_the_preemption_counted() {
        let a = [att(0, Some(0), Some(700_000))];
        let mut k = known(&a);
        k.checkpoint = Some(200);
        k.preempting_since = Some(650_000);
        let j = job_at(&k, 680_000);
        assert_eq!((j.at, j.previous_attempts, j.completed_work), (At::Queued { grace: true }, 1, 600));
        // Before the preemption began it was running.
        assert_eq!(job_at(&k, 600_000).at, At::Running { dispatched: 0, trained: 600 });
    }
}
