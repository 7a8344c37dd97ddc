//! Reading AWS outputs: each file's records recognised by their content ([`Kind`]), and the
//! records decoded one by one into job records, quota shares and service environments. The first
//! of an import's three stages (read, map, assemble).

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::Value;

use super::attempts;
use crate::import_check::{out_of_range, whole, Capped};
use crate::model::{CapacityLimit, QuotaShare, ServiceEnvironment, ShareState, Strategy, Toggle};
use crate::problem::Problem;
use crate::result::Status;

/// What a file held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `describe-service-environments`: an object with a `serviceEnvironments` list.
    ServiceEnvironments,
    /// `list-quota-shares`: an object with a `quotaShares` list.
    QuotaShares,
    /// `describe-quota-share`: one quota share (`quotaShareName` and `capacityLimits`).
    QuotaShare,
    /// `list-service-jobs`: a page of jobs (`jobSummaryList`).
    ServiceJobPage,
    /// `describe-service-job`: one job (`jobId`).
    ServiceJob,
    /// An EventBridge event (an object with `detail-type`): a service job's state change, or a preemption's
    /// start or completion.
    EventBridge,
}

impl Kind {
    /// The kind's name in the lines of `recognised`: the AWS CLI command that prints it
    /// (`list-service-jobs`), or `EventBridge events`.
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

#[derive(Clone, Debug, Default)]
pub(super) struct JobRec {
    pub(super) id: String,
    pub(super) name: Option<String>,
    pub(super) share: Option<String>,
    pub(super) created: Option<i64>,
    pub(super) started: Option<i64>,
    pub(super) stopped: Option<i64>,
    pub(super) status: Option<Status>,
    pub(super) priority: Option<i64>,
    pub(super) instance_type: Option<String>,
    pub(super) count: Option<i64>,
    pub(super) attempts: Vec<(i64, Option<i64>)>,
    /// `scheduledAt`: the latest attempt's dispatch.
    pub(super) scheduled: Option<i64>,
    /// The statuses state-change events reported, with their times, sorted.
    pub(super) steps: Vec<(i64, Status)>,
    pub(super) timeout: Option<i64>,
    pub(super) checkpoint: Option<bool>,
    pub(super) retries: Option<i64>,
    pub(super) preemptions: Option<u32>,
    pub(super) where_: String,
    /// The file it was read from (an index into the import's files).
    pub(super) file: usize,
    pub(super) richness: u32,
}

/// The kinds of problems capped per file.
pub(super) const SKIPPED: &str = "records skipped";
pub(super) const UNREAD: &str = "records this import does not read";

/// The numbers of one record, each within ±(2^53 - 1) ([`whole`]): the first that is not is
/// noted with its field, and the record is skipped.
#[derive(Default)]
pub(super) struct Nums(pub(super) Option<(String, String)>);

impl Nums {
    pub(super) fn get(&mut self, field: &str, v: Option<&Value>) -> Option<i64> {
        match whole(v) {
            Ok(x) => x,
            Err(written) => {
                self.bad(field, written);
                None
            }
        }
    }

    pub(super) fn bad(&mut self, field: &str, written: String) {
        if self.0.is_none() {
            self.0 = Some((field.to_string(), written));
        }
    }
}

pub(super) fn status_of(s: &str) -> Option<Status> {
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

/// A job record: `Ok(None)` without a `jobId`, `Err((field, number))` when a number it needs is
/// out of range.
pub(super) fn job_of(o: &Value, where_: &str, file: usize) -> Result<Option<JobRec>, (String, String)> {
    let Some(id) = o.get("jobId").and_then(Value::as_str) else { return Ok(None) };
    let mut n = Nums::default();
    let payload = match o.get("serviceRequestPayload") {
        Some(Value::String(s)) => serde_json::from_str::<Value>(s).ok(),
        Some(v @ Value::Object(_)) => Some(v.clone()),
        _ => None,
    };
    let rc = payload.as_ref().and_then(|p| p.get("ResourceConfig"));
    let usage = o.get("capacityUsage").and_then(Value::as_array).and_then(|a| a.first());
    let mut attempts: Vec<(i64, Option<i64>)> = Vec::new();
    for (i, x) in o.get("attempts").and_then(Value::as_array).into_iter().flatten().enumerate() {
        let start = n.get(&format!("attempts[{i}].startedAt"), x.get("startedAt"));
        let stop = n.get(&format!("attempts[{i}].stoppedAt"), x.get("stoppedAt"));
        if let Some(start) = start {
            attempts.push((start, stop));
        }
    }
    let count = match n
        .get("serviceRequestPayload.ResourceConfig.InstanceCount", rc.and_then(|r| r.get("InstanceCount")))
    {
        Some(c) => Some(c),
        None => n.get("capacityUsage[0].quantity", usage.and_then(|u| u.get("quantity"))),
    };
    let preemptions = match n
        .get("preemptionSummary.preemptedAttemptCount", o.pointer("/preemptionSummary/preemptedAttemptCount"))
    {
        Some(p) => match u32::try_from(p) {
            Ok(p) => Some(p),
            Err(_) => {
                n.bad("preemptionSummary.preemptedAttemptCount", p.to_string());
                None
            }
        },
        None => None,
    };
    let mut r = JobRec {
        id: id.to_string(),
        name: o.get("jobName").and_then(Value::as_str).map(String::from),
        share: o.get("quotaShareName").and_then(Value::as_str).map(String::from),
        created: n.get("createdAt", o.get("createdAt")),
        started: n.get("startedAt", o.get("startedAt")),
        stopped: n.get("stoppedAt", o.get("stoppedAt")),
        status: o.get("status").and_then(Value::as_str).and_then(status_of),
        priority: n.get("schedulingPriority", o.get("schedulingPriority")),
        instance_type: rc
            .and_then(|r| r.get("InstanceType"))
            .or_else(|| usage.and_then(|u| u.get("capacityUnit")))
            .and_then(Value::as_str)
            .map(String::from),
        count,
        attempts,
        scheduled: n.get("scheduledAt", o.get("scheduledAt")),
        steps: Vec::new(),
        timeout: n.get(
            "serviceRequestPayload.StoppingCondition.MaxRuntimeInSeconds",
            payload.as_ref().and_then(|p| p.pointer("/StoppingCondition/MaxRuntimeInSeconds")),
        ),
        checkpoint: payload.as_ref().map(|p| p.get("CheckpointConfig").is_some()),
        retries: n.get(
            "preemptionConfiguration.preemptionRetriesBeforeTermination",
            o.pointer("/preemptionConfiguration/preemptionRetriesBeforeTermination"),
        ),
        preemptions,
        where_: where_.to_string(),
        file,
        richness: 0,
    };
    if let Some(bad) = n.0 {
        return Err(bad);
    }
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
    Ok(Some(r))
}

/// Fields of `b` fill what `a` lacks; `a` is the richer record.
pub(super) fn merge(a: &mut JobRec, b: JobRec) {
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
    a.scheduled = a.scheduled.max(b.scheduled);
    if !b.steps.is_empty() {
        a.steps.extend_from_slice(&b.steps);
        attempts::sort_steps(&mut a.steps);
    }
    // The latest status wins: a later record of a job knows more of its fate.
    if b.stopped.is_some() || a.status.is_none() {
        a.status = b.status.or(a.status);
    }
}

/// A quota share record, or the field it lacks (or has out of range) and why.
pub(super) fn share_of(v: &Value) -> Result<QuotaShare, (String, String)> {
    let needs = |f: &str| (f.to_string(), format!("a quota share needs {f}; skipped"));
    let name = v.get("quotaShareName").and_then(Value::as_str).ok_or_else(|| needs("quotaShareName"))?;
    let mut n = Nums::default();
    let mut limits = Vec::new();
    for (i, l) in v
        .get("capacityLimits")
        .and_then(Value::as_array)
        .ok_or_else(|| needs("capacityLimits"))?
        .iter()
        .enumerate()
    {
        let unit = l.get("capacityUnit").and_then(Value::as_str);
        let max = n.get(&format!("capacityLimits[{i}].maxCapacity"), l.get("maxCapacity"));
        match (unit, max) {
            (Some(u), Some(m)) => limits.push(CapacityLimit::new(u, m)),
            _ if n.0.is_some() => break,
            _ => return Err(needs("capacityLimits")),
        }
    }
    let rs = v.get("resourceSharingConfiguration").ok_or_else(|| needs("resourceSharingConfiguration"))?;
    let strategy = match rs.get("strategy").and_then(Value::as_str) {
        Some("RESERVE") => Strategy::Reserve,
        Some("LEND") => Strategy::Lend,
        Some("LEND_AND_BORROW") => Strategy::LendAndBorrow,
        _ => return Err(needs("resourceSharingConfiguration.strategy")),
    };
    let borrow = n.get("resourceSharingConfiguration.borrowLimit", rs.get("borrowLimit"));
    if let Some((field, written)) = n.0 {
        return Err((field, out_of_range("quota share", &written)));
    }
    let mut q = QuotaShare::new(name, strategy, limits);
    q.resource_sharing_configuration.borrow_limit = borrow.filter(|_| strategy == Strategy::LendAndBorrow);
    if v.pointer("/preemptionConfiguration/inSharePreemption").and_then(Value::as_str) == Some("ENABLED") {
        q.preemption_configuration.in_share_preemption = Toggle::Enabled;
    }
    if v.get("state").and_then(Value::as_str) == Some("DISABLED") {
        q.state = ShareState::Disabled;
    }
    Ok(q)
}

/// The service environments of a `describe-service-environments` record, each with where it
/// was read.
pub(super) fn envs_of(
    v: &Value,
    at: &str,
    file: &str,
    problems: &mut Capped,
) -> Vec<(ServiceEnvironment, String)> {
    let mut out = Vec::new();
    for (i, e) in v["serviceEnvironments"].as_array().into_iter().flatten().enumerate() {
        let p = format!("{at}: serviceEnvironments[{i}]");
        let Some(list) = e.get("capacityLimits").and_then(Value::as_array) else {
            let m = "a service environment needs capacityLimits; skipped";
            problems.push(file, SKIPPED, Problem::error(format!("{p}.capacityLimits"), m));
            continue;
        };
        let mut n = Nums::default();
        let mut limits = Vec::new();
        for (k, l) in list.iter().enumerate() {
            let max = n.get(&format!("capacityLimits[{k}].maxCapacity"), l.get("maxCapacity"));
            if let (Some(u), Some(m)) = (l.get("capacityUnit").and_then(Value::as_str), max) {
                limits.push(CapacityLimit::new(u, m));
            }
        }
        if let Some((field, written)) = n.0 {
            problems.push(
                file,
                SKIPPED,
                Problem::error(format!("{p}.{field}"), out_of_range("service environment", &written)),
            );
            continue;
        }
        let name = e.get("serviceEnvironmentName").and_then(Value::as_str).map(String::from);
        let env = ServiceEnvironment {
            service_environment_name: name,
            capacity_limits: limits,
            ..ServiceEnvironment::default()
        };
        out.push((env, p));
    }
    out
}

/// The quota shares of a `list-quota-shares` or `describe-quota-share` record, each with where
/// it was read.
pub(super) fn shares_of(
    kind: Kind,
    v: Value,
    at: &str,
    file: &str,
    problems: &mut Capped,
) -> Vec<(QuotaShare, String)> {
    let list: Vec<Value> = if kind == Kind::QuotaShare {
        alloc::vec![v]
    } else {
        v["quotaShares"].as_array().cloned().unwrap_or_default()
    };
    let mut out = Vec::new();
    for (i, q) in list.iter().enumerate() {
        let p = if kind == Kind::QuotaShare { at.to_string() } else { format!("{at}: quotaShares[{i}]") };
        match share_of(q) {
            Ok(s) => out.push((s, p)),
            Err((f, m)) => problems.push(file, SKIPPED, Problem::error(format!("{p}.{f}"), m)),
        }
    }
    out
}

/// Recognises one file: its kind and its JSON records with where each is (`file:line` or a
/// position); a file that is neither one JSON object nor JSON lines is a problem. At most
/// [`crate::import_check::MAX_PER_FILE`] problems of a file are listed.
pub(super) fn records(file: &str, text: &str, problems: &mut Capped) -> Vec<(Kind, Value, String)> {
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
                None => problems.push(
                    file,
                    UNREAD,
                    Problem::warning(at, "not an AWS Batch output this import reads; skipped"),
                ),
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
                None => problems.push(
                    file,
                    UNREAD,
                    Problem::warning(at, "not an AWS Batch record this import reads; skipped"),
                ),
            },
            Err(e) => {
                let m = e.to_string();
                let m = m.split(" at line ").next().unwrap_or(&m).to_string();
                problems.push(file, "lines that are not JSON", Problem::error(at, format!("not JSON: {m}")));
            }
        }
    }
    out
}

/// AWS outputs read once ([`parse`]), to import as often as wanted: a backtest imports the
/// state at every job's creation.
#[derive(Clone)]
pub struct Parsed {
    pub(super) names: Vec<String>,
    pub(super) records: Vec<Vec<(Kind, Value, String)>>,
    pub(super) problems: Capped,
}

/// Reads every file's records (`(file name, text)` each), with the problems of reading them.
pub fn parse(files: &[(String, String)]) -> Parsed {
    let mut problems = Capped::default();
    let records = files.iter().map(|(file, text)| records(file, text, &mut problems)).collect();
    Parsed { names: files.iter().map(|f| f.0.clone()).collect(), records, problems }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
