//! Mapping the gathered job records to the model: start-up fitted from the history, each job's
//! attempts, duration and warnings, its name made valid and unique, and (with `--state-at`) its
//! place in the live state. The second of an import's three stages (read, map, assemble).

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::attempts::{self, Attempt, Startup};
use super::gather::Gathered;
use super::observed::ObservedJob;
use super::read::{JobRec, SKIPPED};
use super::state;
use crate::import_check::{Capped, Names, Origin};
use crate::model::{Job, JobPreemption, ObservedDuration};
use crate::problem::Problem;
use crate::result::Status;
use crate::validate::{valid_job_name, DEFAULT_PAYLOAD_CHECKPOINT, MAX_SAFE};

/// The jobs mapped, with what the assembly needs besides.
pub(super) struct Mapped {
    /// Each job with what was observed of it and where it was read, in order of submission.
    pub jobs: Vec<(Job, ObservedJob, Origin)>,
    pub startup: Startup,
    pub live: state::Tally,
    /// The epoch milliseconds of `submitAt` 0: the earliest `createdAt` (known at the state's
    /// instant).
    pub origin: i64,
    /// The instance type each share's first job used, and the shares in order of first use.
    pub used_shares: BTreeMap<String, String>,
    pub used_order: Vec<String>,
}

/// What every job's mapping reads.
struct Context<'a> {
    files: &'a [String],
    g: &'a Gathered,
    startup: &'a Startup,
    state_at: Option<i64>,
    now: i64,
    origin: i64,
}

/// Maps every gathered job; `now` ends attempts still running (default: the latest time seen).
pub(super) fn map(
    files: &[String],
    g: &mut Gathered,
    now: Option<i64>,
    state_at: Option<i64>,
    problems: &mut Capped,
) -> Mapped {
    // Start-up, fitted from the history.
    for j in g.jobs.values_mut() {
        attempts::sort_steps(&mut j.steps);
    }
    let startup = attempts::fit(
        g.jobs.values().map(|j| (&j.steps[..], j.scheduled.zip(j.attempts.last().map(|a| a.0)))),
    );
    if !startup.said.is_empty() {
        problems.push_general(Problem::warning(
            "settings.scheduledSeconds",
            format!("start-up fitted from the history: {}", startup.said),
        ));
    }
    // Jobs: every needed field, or a problem naming it. Times are within ±(2^53 - 1) ms, so
    // their differences fit.
    let origin = g
        .jobs
        .values()
        .filter_map(|j| j.created)
        .filter(|c| state_at.is_none_or(|ms| *c <= ms))
        .min()
        .unwrap_or(0);
    let latest = g
        .jobs
        .values()
        .flat_map(|j| {
            [j.created, j.started, j.stopped]
                .into_iter()
                .chain(j.attempts.iter().flat_map(|a| [Some(a.0), a.1]))
        })
        .flatten()
        .max()
        .unwrap_or(origin);
    let now = state_at.or(now).unwrap_or(latest);
    // Names: the input's valid names are kept, the others made valid, all unique.
    let mut names = Names::default();
    for id in &g.order {
        let j = &g.jobs[id];
        names.reserve(j.name.as_deref().filter(|n| valid_job_name(n)).unwrap_or(&j.id));
    }
    let cx = Context { files, g, startup: &startup, state_at, now, origin };
    let mut live = state::Tally::default();
    let mut jobs: Vec<(Job, ObservedJob, Origin)> = Vec::new();
    let mut used_shares: BTreeMap<String, String> = BTreeMap::new();
    let mut used_order: Vec<String> = Vec::new();
    for id in &g.order {
        let Some(mapped) = job(&cx, id, &g.jobs[id], &mut names, &mut live, problems) else { continue };
        let (share, ty) = (&mapped.0.quota_share_name, &mapped.0.instance_type);
        if !used_shares.contains_key(share.as_str()) {
            used_shares.insert(String::from(share.as_str()), ty.as_deref().unwrap_or_default().to_string());
            used_order.push(String::from(share.as_str()));
        }
        jobs.push(mapped);
    }
    // Jobs in order of submission.
    jobs.sort_by_key(|(j, _, _)| j.submit_at);
    Mapped { jobs, startup, live, origin, used_shares, used_order }
}

/// How long a job trained: over every attempt, and the duration it is given (every attempt's
/// training less what preemptions lost, when that is known; else the last attempt's).
fn durations(atts: &[Attempt], signals: &[i64], known_loss: Option<u64>, now: i64) -> u64 {
    // Training stops at each preemption's stop signal (R21): the grace period after it did not
    // advance the job.
    let trained: u64 = atts
        .iter()
        .enumerate()
        .map(|(i, a)| a.trained(signals.get(i).map_or(now, |&p| p.min(now))))
        .fold(0u64, u64::saturating_add);
    match known_loss {
        Some(l) => trained.saturating_sub(l),
        None => atts.iter().rev().find(|a| a.training.is_some()).map_or(0, |a| a.trained(now)),
    }
}

/// The first field a job record lacks, if any.
fn missing(j: &JobRec) -> Option<&'static str> {
    let missing = [
        ("quotaShareName", j.share.is_none()),
        ("createdAt", j.created.is_none()),
        ("capacityUsage (or serviceRequestPayload.ResourceConfig.InstanceType)", j.instance_type.is_none()),
        ("capacityUsage.quantity (or ResourceConfig.InstanceCount)", j.count.is_none()),
    ];
    missing.iter().find(|(_, m)| *m).map(|(f, _)| *f)
}

/// One job: `None` when it is skipped (a field missing, too many instance-seconds), finished
/// before the state's instant (then it is history) or created after it.
fn job(
    cx: &Context,
    id: &str,
    j: &JobRec,
    names: &mut Names,
    live: &mut state::Tally,
    problems: &mut Capped,
) -> Option<(Job, ObservedJob, Origin)> {
    let (now, state_at) = (cx.now, cx.state_at);
    let file = cx.files.get(j.file).map_or("", String::as_str);
    if let Some(f) = missing(j) {
        let m = format!("job {} does not give it; skipped", j.id);
        problems.push(file, SKIPPED, Problem::error(format!("{}: {f}", j.where_), m));
        return None;
    }
    let (share, created, ty, count) = (
        j.share.clone().unwrap_or_default(),
        j.created.unwrap_or(0),
        j.instance_type.clone().unwrap_or_default(),
        j.count.unwrap_or(1),
    );
    let reported: Vec<(i64, Option<i64>)> = if j.attempts.is_empty() {
        j.started.map(|s| (s, j.stopped)).into_iter().collect()
    } else {
        j.attempts.clone()
    };
    let ended = matches!(j.status, Some(Status::Succeeded | Status::Failed));
    let finished_at = j.stopped.or_else(|| reported.last().and_then(|a| a.1)).filter(|_| ended);
    let atts =
        attempts::attempts(created, &reported, j.scheduled, &j.steps, finished_at, cx.startup.millis());
    let finished = matches!(j.status, Some(Status::Succeeded));
    let preemptions = j.preemptions.unwrap_or(reported.len().saturating_sub(1) as u32);
    // With the training each preemption lost (a quotasim export says it), the duration is
    // every attempt's training less what was lost; else the last attempt's.
    let known_loss = cx.g.lost_of.get(id).copied().filter(|_| preemptions > 0);
    let signals = cx.g.signals_of.get(id).map_or(&[][..], Vec::as_slice);
    let last = durations(&atts, signals, known_loss, now);
    let at = state_at.map(|ms| {
        let k = state::Known {
            created,
            attempts: &atts,
            finished: finished_at,
            preempting_since: cx.g.preempting.get(id).copied(),
            checkpoint: (j.checkpoint == Some(true)).then_some(DEFAULT_PAYLOAD_CHECKPOINT),
            lost: cx.g.lost_of.get(id).copied(),
            signals,
        };
        (ms, state::job_at(&k, ms))
    });
    match at.as_ref().map(|a| &a.1.at) {
        Some(state::At::Later) => {
            live.later += 1;
            return None;
        }
        Some(state::At::Finished) => {
            live.history.push(ObservedDuration {
                quota_share_name: share,
                instance_type: ty,
                instance_count: count,
                duration_seconds: last.max(1) as i64,
                censored: !finished,
            });
            return None;
        }
        _ => {}
    }
    let held: u64 = atts
        .iter()
        .map(|a| (a.stopped.unwrap_or(now).saturating_sub(a.dispatched).max(0) / 1000) as u64)
        .fold(0u64, u64::saturating_add);
    let Some(instance_seconds) = held.checked_mul(count.max(0) as u64).filter(|x| *x <= MAX_SAFE as u64)
    else {
        let m =
            format!("job {} held more than 2^53 - 1 instance-seconds ({held} s × {count}); skipped", j.id);
        problems.push(file, SKIPPED, Problem::error(j.where_.clone(), m));
        return None;
    };
    if state_at.is_none() {
        warn_history(j, file, finished, preemptions, known_loss, last, problems);
    }
    let name = name_of(j, file, names, problems);
    let secs = |t: i64| (t.saturating_sub(cx.origin).max(0) / 1000) as u64;
    let mut job = Job::new(&name, &share, &ty, count, secs(created) as i64, last.max(1) as i64);
    job.scheduling_priority = j.priority.unwrap_or(0);
    job.timeout_seconds = j.timeout;
    if j.checkpoint == Some(true) {
        job.checkpoint_interval_seconds = Some(DEFAULT_PAYLOAD_CHECKPOINT as i64);
    }
    if let Some(r) = j.retries {
        job.preemption_configuration = Some(JobPreemption { preemption_retries_before_termination: Some(r) });
    }
    let mut observed = ObservedJob {
        job_name: name,
        quota_share_name: share,
        status: j.status,
        submit_at: secs(created),
        first_started_at: atts.first().map(|a| secs(a.dispatched)),
        stopped_at: if ended { atts.last().map(|a| secs(a.stopped.unwrap_or(now))) } else { None },
        preemptions,
        instance_seconds,
    };
    if let Some((ms, s)) = at {
        live.place(&mut job, &mut observed, &s, ms, secs);
        let dispatched_unseen = atts.iter().any(|a| {
            a.dispatched <= ms
                && !j.steps.contains(&(a.dispatched, Status::Scheduled))
                && j.scheduled != Some(a.dispatched)
        });
        live.warn(problems, file, &j.where_, &j.id, &s, dispatched_unseen);
    }
    Some((job, observed, Origin { file: j.file, at: j.where_.clone() }))
}

/// A whole history's warnings about a job's duration: censored when it had not succeeded, and
/// the progress a checkpoint saved before a preemption when AWS does not report it.
fn warn_history(
    j: &JobRec,
    file: &str,
    finished: bool,
    preemptions: u32,
    known_loss: Option<u64>,
    last: u64,
    problems: &mut Capped,
) {
    if !finished {
        let what = match j.status {
            Some(Status::Failed) => "failed or was terminated",
            _ => "had not finished",
        };
        problems.push(
            file,
            "censored jobs",
            Problem::warning(
                j.where_.clone(),
                format!("job {} {what}: its duration is its training so far ({last} s), censored", j.id),
            ),
        );
    } else if preemptions > 0 && j.checkpoint != Some(false) && known_loss.is_none() {
        problems.push(file, "jobs preempted after a checkpoint", Problem::warning(
            j.where_.clone(),
            format!(
                "job {} was preempted {preemptions} time(s): its duration is its last attempt's run time ({last} s); progress an earlier attempt saved in a checkpoint is not reported by AWS",
                j.id
            ),
        ));
    }
}

/// The job's name: its own when valid and free, else one made valid and unique (said).
fn name_of(j: &JobRec, file: &str, names: &mut Names, problems: &mut Capped) -> String {
    let wanted = j.name.as_deref().filter(|n| valid_job_name(n)).unwrap_or(&j.id);
    let name = names.give(wanted);
    if name != wanted {
        let why = if valid_job_name(wanted) { "is taken by another job" } else { "is not a valid job name" };
        problems.push(
            file,
            "jobs renamed",
            Problem::warning(format!("{}: jobName", j.where_), format!("{wanted:?} {why}: named {name}")),
        );
    }
    name
}
