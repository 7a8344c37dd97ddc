//! AWS history in (`quotasim import aws`), and a run out as EventBridge events
//! (`quotasim run --events-format eventbridge`): the pure mappings.
//!
//! Each input's kind is recognised from its content: `describe-service-environments`
//! (`serviceEnvironments`), `list-quota-shares` (`quotaShares`), `describe-quota-share` (an
//! object with `quotaShareName` and `capacityLimits`), `list-service-jobs` pages
//! (`jobSummaryList`), `describe-service-job` (an object with `jobId`), and EventBridge archives
//! as JSON lines (`Batch Service Job State Change`, `Batch Service Job Preemption
//! Started|Completed`; times in epoch milliseconds). Unknown fields are ignored; a record
//! without what the scenario needs is reported with its file, line (or position) and field,
//! and skipped, never guessed.
//!
//! Jobs are keyed by `jobId` across files, the richest record first; `submitAt` is relative to
//! the earliest `createdAt` (kept in the description). The instance type and count come from
//! `serviceRequestPayload.ResourceConfig` or `capacityUsage`; the duration from the attempts:
//! the last attempt's run time (a preempted attempt of a job that checkpoints saved some
//! progress that AWS does not report: such jobs get a warning), and for a job still running,
//! failed or stopped, its training so far, flagged as censored.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::Serialize;
use serde_json::{json, Map, Value};

use crate::model::{
    CapacityLimit, Job, JobPreemption, QuotaShare, Scenario, ServiceEnvironment, ShareState, Strategy, Toggle,
};
use crate::problem::Problem;
use crate::result::{EventType, SimResult, Status};

/// What a file held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    ServiceEnvironments,
    QuotaShares,
    QuotaShare,
    ServiceJobPage,
    ServiceJob,
    EventBridge,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::ServiceEnvironments => "describe-service-environments",
            Kind::QuotaShares => "list-quota-shares",
            Kind::QuotaShare => "describe-quota-share",
            Kind::ServiceJobPage => "list-service-jobs",
            Kind::ServiceJob => "describe-service-job",
            Kind::EventBridge => "EventBridge events",
        }
    }
}

/// The kind of one JSON object, if it is one this import reads.
pub fn kind_of(v: &Value) -> Option<Kind> {
    let o = v.as_object()?;
    if o.get("serviceEnvironments").is_some_and(Value::is_array) {
        Some(Kind::ServiceEnvironments)
    } else if o.get("quotaShares").is_some_and(Value::is_array) && !o.contains_key("serviceEnvironment") {
        Some(Kind::QuotaShares)
    } else if o.contains_key("quotaShareName") && o.contains_key("capacityLimits") && !o.contains_key("jobId")
    {
        Some(Kind::QuotaShare)
    } else if o.get("jobSummaryList").is_some_and(Value::is_array) {
        Some(Kind::ServiceJobPage)
    } else if o.contains_key("jobId") && !o.contains_key("detail-type") {
        Some(Kind::ServiceJob)
    } else if o.contains_key("detail-type") {
        Some(Kind::EventBridge)
    } else {
        None
    }
}

/// One job as observed: what `--observed` writes (the result format's job shape, seconds
/// from the origin).
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ObservedJob {
    pub job_name: String,
    pub quota_share_name: String,
    pub status: Option<Status>,
    pub submit_at: u64,
    pub first_started_at: Option<u64>,
    pub stopped_at: Option<u64>,
    pub preemptions: u32,
    /// Instance-seconds held over all attempts.
    pub instance_seconds: u64,
}

/// What actually happened: `quotasim import aws --observed` and `quotasim calibrate`'s input.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Observed {
    pub format_version: u32,
    /// The absolute time (epoch milliseconds) of `submitAt` 0.
    pub origin_epoch_millis: i64,
    pub jobs: Vec<ObservedJob>,
}

/// An import: the scenario, what happened, every warning, and what each file was.
#[derive(Clone, Debug, PartialEq)]
pub struct Imported {
    pub scenario: Scenario,
    pub observed: Observed,
    pub warnings: Vec<Problem>,
    pub recognised: Vec<String>,
}

#[derive(Clone, Debug, Default)]
struct JobRec {
    id: String,
    name: Option<String>,
    share: Option<String>,
    created: Option<i64>,
    started: Option<i64>,
    stopped: Option<i64>,
    status: Option<Status>,
    priority: Option<i64>,
    instance_type: Option<String>,
    count: Option<i64>,
    attempts: Vec<(i64, Option<i64>)>,
    timeout: Option<i64>,
    checkpoint: Option<bool>,
    retries: Option<i64>,
    preemptions: Option<u32>,
    where_: String,
    richness: u32,
}

fn int(v: Option<&Value>) -> Option<i64> {
    v.and_then(|x| x.as_i64().or_else(|| x.as_f64().map(|f| f as i64)).or_else(|| x.as_str()?.parse().ok()))
}

fn status_of(s: &str) -> Option<Status> {
    Some(match s {
        "SUBMITTED" => Status::Submitted,
        "RUNNABLE" => Status::Runnable,
        "SCHEDULED" => Status::Scheduled,
        "STARTING" => Status::Starting,
        "RUNNING" => Status::Running,
        "SUCCEEDED" => Status::Succeeded,
        "FAILED" => Status::Failed,
        _ => return None,
    })
}

fn job_of(o: &Value, where_: &str) -> Option<JobRec> {
    let id = o.get("jobId").and_then(Value::as_str)?.to_string();
    let payload = match o.get("serviceRequestPayload") {
        Some(Value::String(s)) => serde_json::from_str::<Value>(s).ok(),
        Some(v @ Value::Object(_)) => Some(v.clone()),
        _ => None,
    };
    let rc = payload.as_ref().and_then(|p| p.get("ResourceConfig"));
    let usage = o.get("capacityUsage").and_then(Value::as_array).and_then(|a| a.first());
    let attempts: Vec<(i64, Option<i64>)> = o
        .get("attempts")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(|x| Some((int(x.get("startedAt"))?, int(x.get("stoppedAt"))))).collect())
        .unwrap_or_default();
    let mut r = JobRec {
        id,
        name: o.get("jobName").and_then(Value::as_str).map(String::from),
        share: o.get("quotaShareName").and_then(Value::as_str).map(String::from),
        created: int(o.get("createdAt")),
        started: int(o.get("startedAt")),
        stopped: int(o.get("stoppedAt")),
        status: o.get("status").and_then(Value::as_str).and_then(status_of),
        priority: int(o.get("schedulingPriority")),
        instance_type: rc
            .and_then(|r| r.get("InstanceType"))
            .or_else(|| usage.and_then(|u| u.get("capacityUnit")))
            .and_then(Value::as_str)
            .map(String::from),
        count: int(rc.and_then(|r| r.get("InstanceCount")))
            .or_else(|| int(usage.and_then(|u| u.get("quantity")))),
        attempts,
        timeout: int(payload.as_ref().and_then(|p| p.pointer("/StoppingCondition/MaxRuntimeInSeconds"))),
        checkpoint: payload.as_ref().map(|p| p.get("CheckpointConfig").is_some()),
        retries: int(o.pointer("/preemptionConfiguration/preemptionRetriesBeforeTermination")),
        preemptions: int(o.pointer("/preemptionSummary/preemptedAttemptCount")).map(|x| x as u32),
        where_: where_.to_string(),
        richness: 0,
    };
    r.richness = [
        r.name.is_some(),
        r.share.is_some(),
        r.created.is_some(),
        r.instance_type.is_some(),
        r.count.is_some(),
        !r.attempts.is_empty(),
        r.priority.is_some(),
        r.checkpoint.is_some(),
        r.timeout.is_some(),
    ]
    .iter()
    .filter(|x| **x)
    .count() as u32
        + r.attempts.len() as u32;
    Some(r)
}

/// Fields of `b` fill what `a` lacks; `a` is the richer record.
fn merge(a: &mut JobRec, b: JobRec) {
    macro_rules! fill {
        ($($f:ident),*) => { $( if a.$f.is_none() { a.$f = b.$f.clone(); } )* };
    }
    fill!(
        name,
        share,
        created,
        started,
        stopped,
        priority,
        instance_type,
        count,
        timeout,
        checkpoint,
        retries,
        preemptions
    );
    // The record that knows more attempts, or more of them ended, is the later one.
    let ended = |v: &[(i64, Option<i64>)]| v.iter().filter(|x| x.1.is_some()).count();
    if (b.attempts.len(), ended(&b.attempts)) > (a.attempts.len(), ended(&a.attempts)) {
        a.attempts = b.attempts.clone();
    }
    if b.stopped.is_some() {
        a.stopped = b.stopped;
    }
    // The latest status wins: a later record of a job knows more of its fate.
    if b.stopped.is_some() || a.status.is_none() {
        a.status = b.status.or(a.status);
    }
}

fn share_of(v: &Value) -> Result<QuotaShare, &'static str> {
    let name = v.get("quotaShareName").and_then(Value::as_str).ok_or("quotaShareName")?;
    let limits = v
        .get("capacityLimits")
        .and_then(Value::as_array)
        .ok_or("capacityLimits")?
        .iter()
        .map(|l| Some(CapacityLimit::new(l.get("capacityUnit")?.as_str()?, int(l.get("maxCapacity"))?)))
        .collect::<Option<Vec<_>>>()
        .ok_or("capacityLimits")?;
    let rs = v.get("resourceSharingConfiguration").ok_or("resourceSharingConfiguration")?;
    let strategy = match rs.get("strategy").and_then(Value::as_str) {
        Some("RESERVE") => Strategy::Reserve,
        Some("LEND") => Strategy::Lend,
        Some("LEND_AND_BORROW") => Strategy::LendAndBorrow,
        _ => return Err("resourceSharingConfiguration.strategy"),
    };
    let mut q = QuotaShare::new(name, strategy, limits);
    q.resource_sharing_configuration.borrow_limit =
        int(rs.get("borrowLimit")).filter(|_| strategy == Strategy::LendAndBorrow);
    if v.pointer("/preemptionConfiguration/inSharePreemption").and_then(Value::as_str) == Some("ENABLED") {
        q.preemption_configuration.in_share_preemption = Toggle::Enabled;
    }
    if v.get("state").and_then(Value::as_str) == Some("DISABLED") {
        q.state = ShareState::Disabled;
    }
    Ok(q)
}

/// The service environments of a `describe-service-environments` record.
fn envs_of(v: &Value, at: &str, problems: &mut Vec<Problem>) -> Vec<ServiceEnvironment> {
    let mut out = Vec::new();
    for (i, e) in v["serviceEnvironments"].as_array().into_iter().flatten().enumerate() {
        let limits: Option<Vec<CapacityLimit>> = e.get("capacityLimits").and_then(Value::as_array).map(|a| {
            a.iter()
                .filter_map(|l| {
                    Some(CapacityLimit::new(l.get("capacityUnit")?.as_str()?, int(l.get("maxCapacity"))?))
                })
                .collect()
        });
        match limits {
            Some(l) => out.push(ServiceEnvironment {
                service_environment_name: e
                    .get("serviceEnvironmentName")
                    .and_then(Value::as_str)
                    .map(String::from),
                capacity_limits: l,
                ..ServiceEnvironment::default()
            }),
            None => problems.push(Problem::error(
                format!("{at}: serviceEnvironments[{i}].capacityLimits"),
                "a service environment needs capacityLimits; skipped",
            )),
        }
    }
    out
}

/// The quota shares of a `list-quota-shares` or `describe-quota-share` record.
fn shares_of(kind: Kind, v: Value, at: &str, problems: &mut Vec<Problem>) -> Vec<QuotaShare> {
    let list: Vec<Value> = if kind == Kind::QuotaShare {
        alloc::vec![v]
    } else {
        v["quotaShares"].as_array().cloned().unwrap_or_default()
    };
    let mut out = Vec::new();
    for (i, q) in list.iter().enumerate() {
        let p = if kind == Kind::QuotaShare { at.to_string() } else { format!("{at}: quotaShares[{i}]") };
        match share_of(q) {
            Ok(s) => out.push(s),
            Err(f) => {
                problems.push(Problem::error(format!("{p}.{f}"), format!("a quota share needs {f}; skipped")))
            }
        }
    }
    out
}

/// Configuration alone, to merge into a scenario: quota shares and a service environment
/// (`None` when the input has none), every problem, and what was recognised.
#[derive(Clone, Debug, PartialEq)]
pub struct ConfigurationImport {
    pub configuration: crate::merge::Configuration,
    pub warnings: Vec<Problem>,
    pub recognised: Vec<String>,
}

/// When the files hold only configuration (`describe-service-environments`,
/// `list-quota-shares`, `describe-quota-share`), that configuration; `None` when any record
/// is a job or an event, or nothing is recognised (then `import` is the reader).
pub fn configuration(files: &[(String, String)]) -> Option<ConfigurationImport> {
    let mut problems = Vec::new();
    let mut c = crate::merge::Configuration::default();
    let mut recognised = Vec::new();
    for (file, text) in files {
        let mut kinds: BTreeMap<&'static str, usize> = BTreeMap::new();
        for (kind, v, at) in records(file, text, &mut problems) {
            *kinds.entry(kind.name()).or_default() += 1;
            match kind {
                Kind::ServiceEnvironments => {
                    let mut e = envs_of(&v, &at, &mut problems);
                    if !e.is_empty() {
                        c.service_environment = Some(e.swap_remove(0));
                    }
                }
                Kind::QuotaShares | Kind::QuotaShare => {
                    for q in shares_of(kind, v, &at, &mut problems) {
                        match c.quota_shares.iter_mut().find(|x| x.quota_share_name == q.quota_share_name) {
                            Some(x) => *x = q,
                            None => c.quota_shares.push(q),
                        }
                    }
                }
                _ => return None,
            }
        }
        let list: Vec<String> = kinds.iter().map(|(k, n)| format!("{n} {k}")).collect();
        recognised
            .push(format!("{file}: {}", if list.is_empty() { "nothing".into() } else { list.join(", ") }));
    }
    (c.service_environment.is_some() || !c.quota_shares.is_empty()).then_some(ConfigurationImport {
        configuration: c,
        warnings: problems,
        recognised,
    })
}

/// Recognises one file: its kind and its JSON records with where each is (`file:line` or a
/// position); a file that is neither one JSON object nor JSON lines is a problem.
fn records(file: &str, text: &str, problems: &mut Vec<Problem>) -> Vec<(Kind, Value, String)> {
    let mut out = Vec::new();
    if let Ok(v) = serde_json::from_str::<Value>(text) {
        let (list, many): (Vec<Value>, bool) = match v {
            Value::Array(a) => (a, true),
            other => (alloc::vec![other], false),
        };
        for (i, v) in list.into_iter().enumerate() {
            let at = if many { format!("{file}: record {}", i + 1) } else { file.to_string() };
            match kind_of(&v) {
                Some(k) => out.push((k, v, at)),
                None => {
                    problems.push(Problem::warning(at, "not an AWS Batch output this import reads; skipped"))
                }
            }
        }
        return out;
    }
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let at = format!("{file}:{}", n + 1);
        match serde_json::from_str::<Value>(line) {
            Ok(v) => match kind_of(&v) {
                Some(k) => out.push((k, v, at)),
                None => {
                    problems.push(Problem::warning(at, "not an AWS Batch record this import reads; skipped"))
                }
            },
            Err(e) => {
                let m = e.to_string();
                let m = m.split(" at line ").next().unwrap_or(&m).to_string();
                problems.push(Problem::error(at, format!("not JSON: {m}")));
            }
        }
    }
    out
}

/// Imports AWS outputs and event archives (`(file name, text)` each); `now` (epoch
/// milliseconds) ends the attempts of jobs still running (default: the latest time seen).
pub fn import(files: &[(String, String)], now: Option<i64>) -> Result<Imported, Vec<Problem>> {
    let mut problems = Vec::new();
    let mut recognised = Vec::new();
    let mut envs: Vec<ServiceEnvironment> = Vec::new();
    let mut shares: Vec<QuotaShare> = Vec::new();
    let mut jobs: BTreeMap<String, JobRec> = BTreeMap::new();
    let mut order: Vec<String> = Vec::new();
    let mut arn_to_id: BTreeMap<String, String> = BTreeMap::new();
    let mut preempted: BTreeMap<String, u32> = BTreeMap::new();
    let mut lost: BTreeMap<String, u64> = BTreeMap::new();
    // Per job: when its current preemption started, and the grace time of all of them.
    let mut started_at: BTreeMap<String, i64> = BTreeMap::new();
    let mut grace: BTreeMap<String, u64> = BTreeMap::new();
    let add_job =
        |r: JobRec, jobs: &mut BTreeMap<String, JobRec>, order: &mut Vec<String>| match jobs.get_mut(&r.id) {
            Some(a) if a.richness >= r.richness => merge(a, r),
            Some(a) => {
                let old = core::mem::replace(a, r);
                merge(a, old);
            }
            None => {
                order.push(r.id.clone());
                jobs.insert(r.id.clone(), r);
            }
        };
    for (file, text) in files {
        let recs = records(file, text, &mut problems);
        let mut kinds: BTreeMap<&'static str, usize> = BTreeMap::new();
        for (kind, v, at) in recs {
            *kinds.entry(kind.name()).or_default() += 1;
            match kind {
                Kind::ServiceEnvironments => envs.extend(envs_of(&v, &at, &mut problems)),
                Kind::QuotaShares | Kind::QuotaShare => {
                    for q in shares_of(kind, v, &at, &mut problems) {
                        match shares.iter_mut().find(|x| x.quota_share_name == q.quota_share_name) {
                            Some(x) => *x = q,
                            None => shares.push(q),
                        }
                    }
                }
                Kind::ServiceJobPage => {
                    for (i, j) in v["jobSummaryList"].as_array().into_iter().flatten().enumerate() {
                        match job_of(j, &format!("{at}: jobSummaryList[{i}]")) {
                            Some(r) => add_job(r, &mut jobs, &mut order),
                            None => problems.push(Problem::error(
                                format!("{at}: jobSummaryList[{i}].jobId"),
                                "a job needs a jobId; skipped",
                            )),
                        }
                    }
                }
                Kind::ServiceJob => {
                    if let Some(r) = job_of(&v, &at) {
                        if let Some(arn) = v.get("jobArn").and_then(Value::as_str) {
                            arn_to_id.insert(arn.to_string(), r.id.clone());
                        }
                        add_job(r, &mut jobs, &mut order);
                    }
                }
                Kind::EventBridge => {
                    let dt = v["detail-type"].as_str().unwrap_or("");
                    let d = &v["detail"];
                    if dt == "Batch Service Job State Change" {
                        match job_of(d, &at) {
                            Some(r) => {
                                if let Some(arn) = d.get("jobArn").and_then(Value::as_str) {
                                    arn_to_id.insert(arn.to_string(), r.id.clone());
                                }
                                add_job(r, &mut jobs, &mut order)
                            }
                            None => problems.push(Problem::error(
                                format!("{at}: detail.jobId"),
                                "a state change needs detail.jobId; skipped",
                            )),
                        }
                    } else if dt == "Batch Service Job Preemption Started" {
                        if let (Some(arn), Some(t)) = (
                            d.get("preemptedJobArn").and_then(Value::as_str),
                            v.get("time").and_then(Value::as_str).and_then(parse_iso8601),
                        ) {
                            started_at.insert(arn.to_string(), t);
                        }
                    } else if dt == "Batch Service Job Preemption Completed" {
                        if let Some(arn) = d.get("preemptedJobArn").and_then(Value::as_str) {
                            let t = v.get("time").and_then(Value::as_str).and_then(parse_iso8601);
                            if let (Some(t), Some(t0)) = (t, started_at.remove(arn)) {
                                *grace.entry(arn.to_string()).or_default() += ((t - t0).max(0) / 1000) as u64;
                            }
                            *preempted.entry(arn.to_string()).or_default() += 1;
                            if let Some(l) = int(d.get("lostWorkSeconds")) {
                                *lost.entry(arn.to_string()).or_default() += l.max(0) as u64;
                            }
                        }
                    } else {
                        problems.push(Problem::warning(
                            format!("{at}: detail-type"),
                            format!("{dt:?} is not a service job event; skipped"),
                        ));
                    }
                }
            }
        }
        let what: Vec<String> = kinds.iter().map(|(k, n)| format!("{n} {k}")).collect();
        recognised.push(format!(
            "{file}: {}",
            if what.is_empty() { "nothing".to_string() } else { what.join(", ") }
        ));
    }
    let mut lost_of: BTreeMap<String, u64> = BTreeMap::new();
    for (arn, n) in preempted {
        if let Some(id) = arn_to_id.get(&arn) {
            if let Some(j) = jobs.get_mut(id) {
                j.preemptions = Some(j.preemptions.unwrap_or(0).max(n));
            }
            if let Some(l) = lost.get(&arn) {
                // Neither the lost training nor the grace period after the preemption began
                // advanced the job.
                lost_of.insert(id.clone(), *l + grace.get(&arn).copied().unwrap_or(0));
            }
        }
    }

    // Jobs: every needed field, or a problem naming it.
    let origin = jobs.values().filter_map(|j| j.created).min().unwrap_or(0);
    let latest = jobs
        .values()
        .flat_map(|j| {
            [j.created, j.started, j.stopped]
                .into_iter()
                .chain(j.attempts.iter().flat_map(|a| [Some(a.0), a.1]))
        })
        .flatten()
        .max()
        .unwrap_or(origin);
    let now = now.unwrap_or(latest);
    let mut out_jobs: Vec<Job> = Vec::new();
    let mut observed: Vec<ObservedJob> = Vec::new();
    let mut names: BTreeMap<String, usize> = BTreeMap::new();
    let mut used_shares: Vec<(String, String)> = Vec::new();
    for id in &order {
        let j = &jobs[id];
        let missing = [
            ("quotaShareName", j.share.is_none()),
            ("createdAt", j.created.is_none()),
            (
                "capacityUsage (or serviceRequestPayload.ResourceConfig.InstanceType)",
                j.instance_type.is_none(),
            ),
            ("capacityUsage.quantity (or ResourceConfig.InstanceCount)", j.count.is_none()),
        ];
        if let Some((f, _)) = missing.iter().find(|(_, m)| *m) {
            problems.push(Problem::error(
                format!("{}: {f}", j.where_),
                format!("job {} does not give it; skipped", j.id),
            ));
            continue;
        }
        let (share, created, ty, count) = (
            j.share.clone().unwrap_or_default(),
            j.created.unwrap_or(0),
            j.instance_type.clone().unwrap_or_default(),
            j.count.unwrap_or(1),
        );
        let attempts: Vec<(i64, i64)> = if j.attempts.is_empty() {
            j.started.map(|s| (s, j.stopped.unwrap_or(now))).into_iter().collect()
        } else {
            j.attempts.iter().map(|(s, e)| (*s, e.unwrap_or(now))).collect()
        };
        let run = |a: &(i64, i64)| ((a.1 - a.0).max(0) / 1000) as u64;
        let finished = matches!(j.status, Some(Status::Succeeded));
        let preemptions = j.preemptions.unwrap_or(attempts.len().saturating_sub(1) as u32);
        // With the training each preemption lost (a quotasim export says it), the duration
        // is every attempt's run time less what was lost; else the last attempt's.
        let known_loss = lost_of.get(id).copied().filter(|_| preemptions > 0);
        let last = match known_loss {
            Some(l) => attempts.iter().map(run).sum::<u64>().saturating_sub(l),
            None => attempts.last().map(run).unwrap_or(0),
        };
        if !finished {
            let what = match j.status {
                Some(Status::Failed) => "failed or was terminated",
                _ => "had not finished",
            };
            problems.push(Problem::warning(
                j.where_.clone(),
                format!("job {} {what}: its duration is its training so far ({last} s), censored", j.id),
            ));
        } else if preemptions > 0 && j.checkpoint != Some(false) && known_loss.is_none() {
            problems.push(Problem::warning(
                j.where_.clone(),
                format!(
                    "job {} was preempted {preemptions} time(s): its duration is its last attempt's run time ({last} s); progress an earlier attempt saved in a checkpoint is not reported by AWS",
                    j.id
                ),
            ));
        }
        let base =
            j.name.clone().filter(|n| crate::validate::valid_job_name(n)).unwrap_or_else(|| j.id.clone());
        let k = names.entry(base.clone()).or_insert(0);
        *k += 1;
        let name = if *k == 1 { base } else { format!("{base}-{k}") };
        let mut job =
            Job::new(&name, &share, &ty, count, (created - origin).max(0) / 1000, last.max(1) as i64);
        job.scheduling_priority = j.priority.unwrap_or(0);
        job.timeout_seconds = j.timeout;
        if j.checkpoint == Some(true) {
            job.checkpoint_interval_seconds = Some(crate::validate::DEFAULT_PAYLOAD_CHECKPOINT as i64);
        }
        if let Some(r) = j.retries {
            job.preemption_configuration =
                Some(JobPreemption { preemption_retries_before_termination: Some(r) });
        }
        if !used_shares.iter().any(|(s, t)| *s == share && *t == ty) {
            used_shares.push((share.clone(), ty.clone()));
        }
        observed.push(ObservedJob {
            job_name: name,
            quota_share_name: share,
            status: j.status,
            submit_at: ((created - origin).max(0) / 1000) as u64,
            first_started_at: attempts.first().map(|a| ((a.0 - origin).max(0) / 1000) as u64),
            stopped_at: if finished || matches!(j.status, Some(Status::Failed)) {
                attempts.last().map(|a| ((a.1 - origin).max(0) / 1000) as u64)
            } else {
                None
            },
            preemptions,
            instance_seconds: attempts.iter().map(run).sum::<u64>() * count.max(0) as u64,
        });
        out_jobs.push(job);
    }
    // Jobs in order of submission.
    let mut idx: Vec<usize> = (0..out_jobs.len()).collect();
    idx.sort_by_key(|&i| (out_jobs[i].submit_at, i));
    let out_jobs: Vec<Job> = idx.iter().map(|&i| out_jobs[i].clone()).collect();
    let observed: Vec<ObservedJob> = idx.iter().map(|&i| observed[i].clone()).collect();

    // Shares the jobs name but no record defines: a RESERVE quota of the most instances its
    // jobs held at once (first start to stop; at least 1, as AWS needs), and said so.
    for (s, ty) in &used_shares {
        if !shares.iter().any(|q| q.quota_share_name == *s) {
            let mut edges: Vec<(u64, i64)> = Vec::new();
            for (j, o) in out_jobs.iter().zip(&observed) {
                if j.quota_share_name == *s {
                    if let Some(t) = o.first_started_at {
                        let n = j.instance_count.unwrap_or(1);
                        edges.push((t, n));
                        edges.push((o.stopped_at.unwrap_or(u64::MAX), -n));
                    }
                }
            }
            edges.sort_unstable();
            let (mut now, mut peak) = (0i64, 1i64);
            for (_, d) in edges {
                now += d;
                peak = peak.max(now);
            }
            problems.push(Problem::warning(
                format!("quotaShares.{s}"),
                format!("jobs use quota share {s}, which no describe-quota-share record defines: it gets a RESERVE quota of {peak} {ty}, the most its jobs held at once"),
            ));
            shares.push(QuotaShare::new(s, Strategy::Reserve, alloc::vec![CapacityLimit::new(ty, peak)]));
        }
    }
    let env = if envs.len() > 1 {
        problems.push(Problem::warning(
            "serviceEnvironments",
            format!("{} service environments: the first is used", envs.len()),
        ));
        envs.swap_remove(0)
    } else {
        envs.pop().unwrap_or_else(|| {
            problems.push(Problem::warning(
                "serviceEnvironment",
                "no describe-service-environments record: the capacity is the sum of the quotas",
            ));
            let mut cap: Vec<CapacityLimit> = Vec::new();
            for q in &shares {
                for l in &q.capacity_limits {
                    match cap.iter_mut().find(|c| c.capacity_unit == l.capacity_unit) {
                        Some(c) => c.max_capacity += l.max_capacity,
                        None => cap.push(l.clone()),
                    }
                }
            }
            ServiceEnvironment { capacity_limits: cap, ..ServiceEnvironment::default() }
        })
    };
    if shares.is_empty() && out_jobs.is_empty() {
        problems.push(Problem::error("", "nothing to import: no quota share and no job was recognised"));
    }
    if problems.iter().any(|p| p.is_error()) && shares.is_empty() && out_jobs.is_empty() {
        return Err(problems);
    }
    let scenario = Scenario {
        name: Some(format!("imported from AWS ({} jobs)", out_jobs.len())),
        description: Some(format!(
            "Imported from AWS Batch outputs; submitAt 0 is {origin} ms after the Unix epoch (the earliest createdAt)."
        )),
        service_environment: env,
        quota_shares: shares,
        jobs: out_jobs,
        ..Scenario::default()
    };
    Ok(Imported {
        scenario,
        observed: Observed { format_version: 1, origin_epoch_millis: origin, jobs: observed },
        warnings: problems,
        recognised,
    })
}

/// Epoch milliseconds from `2026-03-16T19:57:27Z` (or with fractional seconds); `None` if
/// it is not such a time.
pub fn parse_iso8601(t: &str) -> Option<i64> {
    let b = t.as_bytes();
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || b[10] != b'T' || b[13] != b':' || b[16] != b':' {
        return None;
    }
    let n = |r: core::ops::Range<usize>| t.get(r)?.parse::<i64>().ok();
    let (y, m, d, hh, mm, ss) = (n(0..4)?, n(5..7)?, n(8..10)?, n(11..13)?, n(14..16)?, n(17..19)?);
    let frac = match t.get(19..)?.trim_end_matches('Z') {
        "" => 0,
        f => {
            let digits = f.strip_prefix('.')?;
            let ms: String = digits.chars().chain("000".chars()).take(3).collect();
            ms.parse::<i64>().ok()?
        }
    };
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) || hh > 23 || mm > 59 || ss > 60 {
        return None;
    }
    // Howard Hinnant's days-from-civil.
    let y2 = if m <= 2 { y - 1 } else { y };
    let era = y2.div_euclid(400);
    let yoe = y2 - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(((days * 86_400 + hh * 3600 + mm * 60 + ss) * 1000) + frac)
}

/// `2026-03-16T19:57:27Z` from epoch milliseconds (proleptic Gregorian, UTC).
pub fn iso8601(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Howard Hinnant's days-to-civil.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

/// One input file of an import from a front end without files (npm, the playground): its name
/// (used in warnings) and its text.
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
pub struct AwsFile {
    pub name: String,
    pub text: String,
}

/// The default epoch milliseconds of time 0 in an export (2026-01-01T00:00:00Z).
pub const DEFAULT_ORIGIN_MILLIS: i64 = 1_767_225_600_000;

/// The run as EventBridge-shaped JSON lines: the service environment and the quota shares as
/// `describe-service-environments` / `describe-quota-share` records (job events carry only a
/// share's name), then a `Batch Service Job State Change` per state change (after submission,
/// as AWS sends them) with the job's attempts so far, and the preemption events. Times are
/// epoch milliseconds from `origin` (the scenario's time 0).
pub fn eventbridge(s: &Scenario, r: &SimResult, origin: i64) -> Vec<Value> {
    let ms = |t: u64| origin + t as i64 * 1000;
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
    let jobs: BTreeMap<&str, &crate::model::Job> = s.jobs.iter().map(|j| (j.job_name.as_str(), j)).collect();
    let results: BTreeMap<&str, &crate::result::JobResult> =
        r.jobs.iter().map(|j| (j.job_name.as_str(), j)).collect();
    let arn = |name: &str| format!("arn:aws:batch:us-east-1:000000000000:service-job/{name}");
    for e in &r.events {
        let name = e.job_name.as_str();
        let (Some(j), Some(jr)) = (jobs.get(name), results.get(name)) else { continue };
        let time = iso8601(ms(e.at));
        match e.event_type {
            EventType::StateChange => {
                let Some(st) = e.status else { continue };
                if st == Status::Submitted {
                    continue;
                }
                // An attempt dispatched at this very instant belongs to the events after the
                // job left the queue.
                let queued = matches!(st, Status::Runnable | Status::Submitted);
                let begun = |t: u64| t < e.at || (t == e.at && !queued);
                let attempts: Vec<Value> = jr
                    .attempts
                    .iter()
                    .filter(|a| begun(a.started_at))
                    .map(|a| {
                        let mut m = Map::new();
                        m.insert("startedAt".into(), ms(a.started_at).into());
                        if let Some(t) = a.stopped_at.filter(|t| *t <= e.at) {
                            m.insert("stoppedAt".into(), ms(t).into());
                        }
                        Value::Object(m)
                    })
                    .collect();
                let mut d = Map::new();
                d.insert("jobArn".into(), arn(name).into());
                d.insert("jobId".into(), name.into());
                d.insert("jobName".into(), name.into());
                d.insert("jobQueue".into(), format!("{se_name}-queue").into());
                d.insert("serviceJobType".into(), "SAGEMAKER_TRAINING".into());
                d.insert("status".into(), st.as_str().into());
                if let Some(sr) = &e.status_reason {
                    d.insert("statusReason".into(), sr.clone().into());
                }
                d.insert("createdAt".into(), ms(jr.submit_at).into());
                d.insert("quotaShareName".into(), j.quota_share_name.clone().into());
                // The priority the job was submitted with: an importer reads the job's own
                // priority from it (later updates are actions, R22, not job fields).
                d.insert("schedulingPriority".into(), j.scheduling_priority.into());
                let ty = j
                    .instance_type
                    .clone()
                    .or_else(|| j.service_request_payload.as_ref().and_then(|p| p.instance_type.clone()))
                    .unwrap_or_default();
                let count = j
                    .instance_count
                    .or_else(|| j.service_request_payload.as_ref().and_then(|p| p.instance_count))
                    .unwrap_or(1);
                d.insert("capacityUsage".into(), json!([{"capacityUnit": ty, "quantity": count}]));
                d.insert("attempts".into(), Value::Array(attempts));
                if let Some(first) = jr.first_started_at.filter(|t| begun(*t)) {
                    d.insert("startedAt".into(), ms(first).into());
                }
                if matches!(st, Status::Succeeded | Status::Failed) {
                    if let Some(t) = jr.stopped_at {
                        d.insert("stoppedAt".into(), ms(t).into());
                    }
                }
                if let Some(r) =
                    j.preemption_configuration.as_ref().and_then(|p| p.preemption_retries_before_termination)
                {
                    d.insert(
                        "preemptionConfiguration".into(),
                        json!({"preemptionRetriesBeforeTermination": r}),
                    );
                }
                out.push(json!({"version": "0", "detail-type": "Batch Service Job State Change", "source": "aws.batch",
                                "time": time, "resources": [arn(name)], "detail": Value::Object(d)}));
            }
            EventType::PreemptionStarted | EventType::PreemptionCompleted => {
                let completed = e.event_type == EventType::PreemptionCompleted;
                let mut d = Map::new();
                d.insert("preemptedJobArn".into(), arn(name).into());
                if let Some(sr) = e.reason.clone().or_else(|| e.status_reason.clone()) {
                    d.insert("statusReason".into(), sr.into());
                }
                if completed {
                    d.insert(
                        "preemptionSummary".into(),
                        json!({"preemptedAttemptCount": e.preempted_attempt_count.unwrap_or(0)}),
                    );
                    // Not an AWS field: the training the preemption lost (R8), so that a
                    // re-import knows a resumed job's whole duration.
                    if let Some(l) = e.lost_work_seconds {
                        d.insert("lostWorkSeconds".into(), l.into());
                    }
                }
                let dt = if completed {
                    "Batch Service Job Preemption Completed"
                } else {
                    "Batch Service Job Preemption Started"
                };
                out.push(json!({"version": "0", "detail-type": dt, "source": "aws.batch", "time": time,
                                "resources": [arn(name)], "detail": Value::Object(d)}));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_times() {
        assert_eq!(iso8601(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso8601(1_641_944_200_058), "2022-01-11T23:36:40Z");
        assert_eq!(iso8601(951_782_400_000), "2000-02-29T00:00:00Z");
        for ms in [0, 1_641_944_200_000, 951_782_400_000, 1_767_225_600_000 + 86_399_000] {
            assert_eq!(parse_iso8601(&iso8601(ms)), Some(ms));
        }
        assert_eq!(
            parse_iso8601("2026-03-16T19:57:27.25Z"),
            Some(parse_iso8601("2026-03-16T19:57:27Z").unwrap() + 250)
        );
        assert_eq!(parse_iso8601("yesterday"), None);
    }

    #[test]
    fn kinds_are_recognised_from_content() {
        assert_eq!(kind_of(&json!({"serviceEnvironments": []})), Some(Kind::ServiceEnvironments));
        assert_eq!(kind_of(&json!({"quotaShares": [], "nextToken": "x"})), Some(Kind::QuotaShares));
        assert_eq!(kind_of(&json!({"quotaShareName": "a", "capacityLimits": []})), Some(Kind::QuotaShare));
        assert_eq!(kind_of(&json!({"jobSummaryList": []})), Some(Kind::ServiceJobPage));
        assert_eq!(kind_of(&json!({"jobId": "1", "attempts": []})), Some(Kind::ServiceJob));
        assert_eq!(kind_of(&json!({"detail-type": "x", "detail": {}})), Some(Kind::EventBridge));
        assert_eq!(kind_of(&json!({"formatVersion": 1})), None);
    }
}
