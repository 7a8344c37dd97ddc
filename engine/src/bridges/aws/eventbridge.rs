//! A run out as EventBridge events (`quotasim run --events-format eventbridge`): the service
//! environment and the quota shares as AWS's describe output, then every job state change and
//! preemption as AWS sends them.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::{json, Map, Value};

use super::time::iso8601;
use crate::model::{Job, Scenario};
use crate::problem::Problem;
use crate::result::{Attempt, Event, EventType, JobResult, SimResult, Status};
use crate::validate::MAX_SAFE;

/// The default epoch milliseconds of time 0 in an export (2026-01-01T00:00:00Z).
pub const DEFAULT_ORIGIN_MILLIS: i64 = 1_767_225_600_000;

/// The run as EventBridge-shaped JSON lines: the service environment and the quota shares as
/// `describe-service-environments` / `describe-quota-share` records (job events carry only a
/// share's name), then a `Batch Service Job State Change` per state change (after submission,
/// as AWS sends them) with the job's attempts so far, and the preemption events. Times are
/// epoch milliseconds from `origin` (the scenario's time 0). Every time stays within
/// ±(2^53 - 1) ms: an origin that would put the run's end past it is refused (`origin`).
pub fn eventbridge(s: &Scenario, r: &SimResult, origin: i64) -> Result<Vec<Value>, Problem> {
    let end = i128::from(origin) + i128::from(r.ended_at) * 1000;
    if i128::from(origin).abs() > i128::from(MAX_SAFE) || end.abs() > i128::from(MAX_SAFE) {
        return Err(Problem::error(
            "origin",
            format!(
                "{origin} ms: the run's times (0 to {} s after it) must stay within ±(2^53 - 1) ms",
                r.ended_at
            ),
        ));
    }
    let startup = (s.settings.scheduled_seconds.max(0) + s.settings.starting_seconds.max(0)) as u64;
    let mut out = Vec::new();
    let se = &s.service_environment;
    let se_name = se.service_environment_name.clone().unwrap_or_else(|| "quotasim-se".into());
    out.push(json!({"serviceEnvironments": [{
        "serviceEnvironmentName": se_name,
        "serviceEnvironmentType": "SAGEMAKER_TRAINING",
        "state": "ENABLED",
        "capacityLimits": se.capacity_limits.iter().map(|l| json!({"capacityUnit": l.capacity_unit, "maxCapacity": l.max_capacity})).collect::<Vec<_>>(),
    }]}));
    for q in &s.quota_shares {
        let mut v = serde_json::to_value(q).unwrap_or(Value::Null);
        if let Some(o) = v.as_object_mut() {
            o.insert("jobQueue".into(), format!("{se_name}-queue").into());
        }
        out.push(v);
    }
    let jobs: BTreeMap<&str, &Job> = s.jobs.iter().map(|j| (j.job_name.as_str(), j)).collect();
    let results: BTreeMap<&str, &JobResult> = r.jobs.iter().map(|j| (j.job_name.as_str(), j)).collect();
    let cx = Context { origin, startup, queue: format!("{se_name}-queue") };
    for e in &r.events {
        let name = e.job_name.as_str();
        let (Some(j), Some(jr)) = (jobs.get(name), results.get(name)) else { continue };
        let time = iso8601(cx.ms(e.at));
        let (dt, d) = match e.event_type {
            EventType::StateChange => {
                let Some(st) = e.status else { continue };
                if st == Status::Submitted {
                    continue;
                }
                ("Batch Service Job State Change", cx.state_change(e, st, j, jr))
            }
            EventType::PreemptionStarted => ("Batch Service Job Preemption Started", cx.preemption(e, false)),
            EventType::PreemptionCompleted => {
                ("Batch Service Job Preemption Completed", cx.preemption(e, true))
            }
        };
        out.push(json!({"version": "0", "detail-type": dt, "source": "aws.batch", "time": time,
                        "resources": [arn(name)], "detail": Value::Object(d)}));
    }
    Ok(out)
}

/// A job's ARN in an export.
fn arn(name: &str) -> String {
    format!("arn:aws:batch:us-east-1:000000000000:service-job/{name}")
}

/// What every event of an export reads.
struct Context {
    /// Epoch milliseconds of time 0.
    origin: i64,
    /// Seconds from dispatch to training (scheduled plus starting).
    startup: u64,
    /// The job queue's name.
    queue: String,
}

impl Context {
    fn ms(&self, t: u64) -> i64 {
        self.origin + t as i64 * 1000
    }

    /// A `Batch Service Job State Change` detail: the job as AWS describes it at `e`, with its
    /// attempts so far.
    fn state_change(&self, e: &Event, st: Status, j: &Job, jr: &JobResult) -> Map<String, Value> {
        let name = e.job_name.as_str();
        let ms = |t: u64| self.ms(t);
        // An attempt dispatched at this very instant belongs to the events after the job left
        // the queue.
        let queued = matches!(st, Status::Runnable | Status::Submitted);
        let begun = |t: u64| t < e.at || (t == e.at && !queued);
        // AWS's `startedAt` is when training starts, start-up after the dispatch
        // (`scheduledAt`); an attempt stopped while it started up stops there.
        let training = |a: &Attempt| {
            let t = a.started_at.saturating_add(self.startup);
            a.stopped_at.map_or(t, |s| s.min(t))
        };
        let attempts: Vec<Value> = jr
            .attempts
            .iter()
            .filter(|a| begun(a.started_at) && training(a) <= e.at)
            .map(|a| {
                let mut m = Map::new();
                m.insert("startedAt".into(), ms(training(a)).into());
                if let Some(t) = a.stopped_at.filter(|t| *t <= e.at) {
                    m.insert("stoppedAt".into(), ms(t).into());
                }
                Value::Object(m)
            })
            .collect();
        let scheduled = jr.attempts.iter().rev().find(|a| begun(a.started_at)).map(|a| a.started_at);
        let mut d = Map::new();
        d.insert("jobArn".into(), arn(name).into());
        d.insert("jobId".into(), name.into());
        d.insert("jobName".into(), name.into());
        d.insert("jobQueue".into(), self.queue.clone().into());
        d.insert("serviceJobType".into(), "SAGEMAKER_TRAINING".into());
        d.insert("status".into(), st.as_str().into());
        if let Some(sr) = &e.status_reason {
            d.insert("statusReason".into(), sr.clone().into());
        }
        d.insert("createdAt".into(), ms(jr.submit_at).into());
        d.insert("quotaShareName".into(), j.quota_share_name.as_str().into());
        // The priority the job was submitted with: an importer reads the job's own priority
        // from it (later updates are actions, R22, not job fields).
        d.insert("schedulingPriority".into(), j.scheduling_priority.into());
        let (ty, count, req) = request(j);
        d.insert("capacityUsage".into(), json!([{"capacityUnit": ty, "quantity": count}]));
        d.insert("serviceRequestPayload".into(), crate::json::to_json(&req).into());
        d.insert("attempts".into(), Value::Array(attempts));
        if let Some(t) = scheduled {
            d.insert("scheduledAt".into(), ms(t).into());
        }
        if let Some(first) = jr.attempts.first().filter(|a| begun(a.started_at) && training(a) <= e.at) {
            d.insert("startedAt".into(), ms(training(first)).into());
        }
        if matches!(st, Status::Succeeded | Status::Failed) {
            if let Some(t) = jr.stopped_at {
                d.insert("stoppedAt".into(), ms(t).into());
            }
        }
        if let Some(r) =
            j.preemption_configuration.as_ref().and_then(|p| p.preemption_retries_before_termination)
        {
            d.insert("preemptionConfiguration".into(), json!({"preemptionRetriesBeforeTermination": r}));
        }
        d
    }

    /// A `Batch Service Job Preemption Started` or `Completed` detail.
    fn preemption(&self, e: &Event, completed: bool) -> Map<String, Value> {
        let mut d = Map::new();
        d.insert("preemptedJobArn".into(), arn(&e.job_name).into());
        if let Some(sr) = e.reason.clone().or_else(|| e.status_reason.clone()) {
            d.insert("statusReason".into(), sr.into());
        }
        if completed {
            d.insert(
                "preemptionSummary".into(),
                json!({"preemptedAttemptCount": e.preempted_attempt_count.unwrap_or(0)}),
            );
            // Not an AWS field: the training the preemption lost (R8), so that a re-import
            // knows a resumed job's whole duration.
            if let Some(l) = e.lost_work_seconds {
                d.insert("lostWorkSeconds".into(), l.into());
            }
        }
        d
    }
}

/// A job's instance type and count, and its request as SubmitServiceJob took it (a JSON
/// string in the event): its timeout and whether it checkpoints (AWS knows no checkpoint
/// interval).
fn request(j: &Job) -> (String, i64, Value) {
    let ty = j
        .instance_type
        .as_deref()
        .or_else(|| j.service_request_payload.as_ref().and_then(|p| p.instance_type.as_deref()))
        .unwrap_or_default()
        .to_string();
    let count = j
        .instance_count
        .or_else(|| j.service_request_payload.as_ref().and_then(|p| p.instance_count))
        .unwrap_or(1);
    let payload = j.service_request_payload.as_ref();
    let mut req = json!({"ResourceConfig": {"InstanceType": ty, "InstanceCount": count}});
    if let Some(t) = j.timeout_seconds.or_else(|| payload.and_then(|p| p.max_runtime_in_seconds)) {
        req["StoppingCondition"] = json!({"MaxRuntimeInSeconds": t});
    }
    if j.checkpoint_interval_seconds.is_some() || payload.is_some_and(|p| p.has_checkpoint_config) {
        req["CheckpointConfig"] = json!({"S3Uri": format!("s3://quotasim-checkpoints/{}", j.job_name)});
    }
    (ty, count, req)
}
