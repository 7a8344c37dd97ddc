//! The jobs section: each job's share, type, count, times, checkpoints and retries, with
//! paths formatted only when there is a problem (a scenario may hold millions of jobs).

use alloc::format;
use alloc::vec::Vec;

use super::check::*;
use crate::limits::*;
use crate::model::*;
use crate::scenario::*;

/// The checked jobs and the index of their names, or `None` when there are too many to look
/// at (the problem is recorded).
pub(super) fn jobs<'a>(
    c: &mut Checker,
    s: &'a Scenario,
    settings: &SettingsCfg,
    share_ids: &ShareIndex<'_>,
) -> Option<(Vec<JobCfg>, NameIndex<'a>)> {
    // Jobs. Paths are formatted only when there is a problem to report: a scenario may hold
    // a million jobs.
    if s.jobs.len() > MAX_JOBS {
        // Not one of them is looked at: checking millions more would only delay the answer.
        c.err("jobs", too_many_jobs());
        return None;
    }
    let mut job_ids = NameIndex::new(&s.jobs, job_name);
    // Every valid name indexed at once; the names taken come back in list order.
    let mut taken = job_ids.insert_all(|j| valid_name(&j.job_name)).into_iter().peekable();
    let mut jobs_raw: Vec<JobCfg> = Vec::with_capacity(s.jobs.len());
    for (i, j) in s.jobs.iter().enumerate() {
        let p = Idx("jobs", i);
        if !valid_name(&j.job_name) {
            c.err(format!("{p}.jobName"), format!("jobName {NAME_RULE}"));
        } else if let Some((_, first)) = taken.next_if(|&(at, _)| at as usize == i) {
            c.err(format!("{p}.jobName"), format!("job {} is already defined at jobs[{first}]", j.job_name));
        }
        let share = match share_ids.get(&j.quota_share_name) {
            Some(i) => ShareId::at(i as usize),
            None => {
                if j.quota_share_name.is_empty() {
                    c.err(format!("{p}.quotaShareName"), "a job needs a quotaShareName");
                } else {
                    c.err(
                        format!("{p}.quotaShareName"),
                        format!("no quota share is named {}", j.quota_share_name),
                    );
                }
                ShareId(0)
            }
        };
        let priority = if (0..=MAX_PRIORITY).contains(&j.scheduling_priority) {
            j.scheduling_priority as u32
        } else {
            c.priority(&format!("{p}.schedulingPriority"), j.scheduling_priority)
        };
        let payload = j.service_request_payload.as_ref();
        let ty = instance_type(c, &p, j);
        let count = instance_count(c, &p, j);
        let submit_at = num!(c, format!("{p}.submitAt"), j.submit_at, 0, "submitAt");
        let duration = match j.duration_seconds {
            Some(d) => num!(c, format!("{p}.durationSeconds"), d, 0, "durationSeconds"),
            None => {
                c.err(
                    format!("{p}.durationSeconds"),
                    "a job needs durationSeconds to run (a state may leave it out only for a forecast, which \
                     samples it)",
                );
                0
            }
        };
        let checkpoint_interval = match j.checkpoint_interval_seconds {
            Some(v) => {
                Some(num!(c, format!("{p}.checkpointIntervalSeconds"), v, 1, "checkpointIntervalSeconds"))
            }
            None if payload.is_some_and(|x| x.has_checkpoint_config) => Some(DEFAULT_PAYLOAD_CHECKPOINT),
            None => None,
        };
        let timeout = timeout(c, &p, j);
        let retries =
            j.preemption_configuration.as_ref().and_then(|x| x.preemption_retries_before_termination).map(
                |r| {
                    num!(
                        c,
                        format!("{p}.preemptionConfiguration.preemptionRetriesBeforeTermination"),
                        r,
                        0,
                        "preemptionRetriesBeforeTermination"
                    )
                },
            );
        // Times in outputs stay exact JSON numbers: a single attempt started at `submitAt`
        // must end, grace period included, by 2^53 - 1.
        let end = [submit_at, settings.scheduled, settings.starting, duration, settings.grace]
            .iter()
            .fold(0u128, |a, &x| a + x as u128);
        if end > MAX_SAFE as u128 {
            c.err(
                format!("{p}.durationSeconds"),
                format!(
                    "submitAt + settings.scheduledSeconds + settings.startingSeconds + durationSeconds + \
                     settings.preemptionGraceSeconds is {end}, after 2^53 - 1 ({MAX_SAFE}): a time in the \
                     results would not be an exact number"
                ),
            );
        }
        let (started_at, previous_attempts, completed_work) =
            live(c, &p, j, settings.start_at, submit_at, duration, checkpoint_interval, retries);
        jobs_raw.push(JobCfg {
            name: j.job_name.clone(),
            share,
            priority,
            ty,
            count,
            submit_at,
            duration,
            checkpoint_interval,
            timeout,
            retries,
            started_at,
            previous_attempts,
            completed_work,
        });
    }
    Some((jobs_raw, job_ids))
}

/// A job's instance type: `instanceType`, or the payload's; both must agree.
#[inline]
fn instance_type(c: &mut Checker, p: &Idx, j: &Job) -> TypeId {
    let payload = j.service_request_payload.as_ref();
    match (j.instance_type.as_deref(), payload.and_then(|x| x.instance_type.as_deref())) {
        (Some(a), Some(b)) if a != b => {
            c.err(
                format!("{p}.instanceType"),
                format!(
                    "instanceType {a} disagrees with serviceRequestPayload.ResourceConfig.InstanceType {b}"
                ),
            );
            TypeId(0)
        }
        (Some(name), _) | (None, Some(name)) => {
            let direct = j.instance_type.is_some();
            if let Some(&t) = c.type_ids.get(name) {
                t
            } else {
                let path = if direct {
                    format!("{p}.instanceType")
                } else {
                    format!("{p}.serviceRequestPayload.ResourceConfig.InstanceType")
                };
                if c.instance_type_name(&path, name) {
                    c.type_id(name)
                } else {
                    TypeId(0)
                }
            }
        }
        (None, None) => {
            c.err(
                format!("{p}.instanceType"),
                "a job needs an instanceType (or serviceRequestPayload.ResourceConfig.InstanceType)",
            );
            TypeId(0)
        }
    }
}

/// A job's instance count: `instanceCount`, or the payload's (default 1); both must agree.
#[inline]
fn instance_count(c: &mut Checker, p: &Idx, j: &Job) -> u64 {
    let payload = j.service_request_payload.as_ref();
    match (j.instance_count, payload.and_then(|x| x.instance_count)) {
        (Some(a), Some(b)) if a != b => {
            c.err(
                format!("{p}.instanceCount"),
                format!(
                    "instanceCount {a} disagrees with serviceRequestPayload.ResourceConfig.InstanceCount {b}"
                ),
            );
            1
        }
        (Some(a), _) => num!(c, format!("{p}.instanceCount"), a, 1, "instanceCount"),
        (None, Some(b)) => {
            num!(c, format!("{p}.serviceRequestPayload.ResourceConfig.InstanceCount"), b, 1, "InstanceCount")
        }
        (None, None) => 1,
    }
}

/// A job's timeout: `timeoutSeconds`, or the payload's `MaxRuntimeInSeconds`; both must agree.
#[inline]
fn timeout(c: &mut Checker, p: &Idx, j: &Job) -> Option<u64> {
    let payload = j.service_request_payload.as_ref();
    match (j.timeout_seconds, payload.and_then(|x| x.max_runtime_in_seconds)) {
        (Some(a), Some(b)) if a != b => {
            c.err(
                format!("{p}.timeoutSeconds"),
                format!(
                    "timeoutSeconds {a} disagrees with serviceRequestPayload.StoppingCondition.MaxRuntimeInSeconds {b}"
                ),
            );
            None
        }
        (Some(a), _) => Some(num!(c, format!("{p}.timeoutSeconds"), a, 1, "timeoutSeconds")),
        (None, Some(b)) => Some(num!(
            c,
            format!("{p}.serviceRequestPayload.StoppingCondition.MaxRuntimeInSeconds"),
            b,
            1,
            "MaxRuntimeInSeconds"
        )),
        (None, None) => None,
    }
}

/// R28: a job's live-state fields, checked against `settings.startAt` (`start`) and the
/// job's own fields.
#[allow(clippy::too_many_arguments)]
fn live(
    c: &mut Checker,
    p: &Idx,
    j: &Job,
    start: u64,
    submit_at: u64,
    duration: u64,
    checkpoint: Option<u64>,
    retries: Option<u64>,
) -> (Option<u64>, u32, u64) {
    let started_at = j.started_at.map(|v| {
        let v = num!(c, format!("{p}.startedAt"), v, 0, "startedAt");
        if v > start {
            c.err(
                format!("{p}.startedAt"),
                format!("startedAt ({v}) is after settings.startAt ({start}): a job starts later by the run (R28)"),
            );
        } else if v < submit_at {
            c.err(format!("{p}.startedAt"), format!("startedAt ({v}) is before the job's submitAt ({submit_at})"));
        }
        v
    });
    let previous = num!(c, format!("{p}.previousAttempts"), j.previous_attempts, 0, "previousAttempts");
    if previous > 0 {
        if submit_at > start {
            c.err(
                format!("{p}.previousAttempts"),
                format!("a job submitted after settings.startAt ({start}) has no previous attempts"),
            );
        } else if let Some(r) = retries.filter(|&r| previous > r) {
            c.err(
                format!("{p}.previousAttempts"),
                format!(
                    "previousAttempts ({previous}) is above the job's preemptionRetriesBeforeTermination ({r}): \
                     it would have failed (R7)"
                ),
            );
        }
    }
    let done =
        num!(c, format!("{p}.completedWorkSeconds"), j.completed_work_seconds, 0, "completedWorkSeconds");
    if done > 0 {
        if checkpoint.is_none() {
            c.err(
                format!("{p}.completedWorkSeconds"),
                "completedWorkSeconds needs checkpoints (checkpointIntervalSeconds): without them a \
                 preempted job restarts from zero (R8)",
            );
        } else if j.duration_seconds.is_some() && done >= duration {
            c.err(
                format!("{p}.completedWorkSeconds"),
                format!("completedWorkSeconds ({done}) must be below durationSeconds ({duration})"),
            );
        }
    }
    (started_at, previous.min(u32::MAX as u64) as u32, done)
}
