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

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::Serialize;
use serde_json::Value;

use crate::import_check::{out_of_range, settle, whole, Capped, Names, Origin, Origins};
use crate::model::{
    CapacityLimit, Job, JobPreemption, ObservedDuration, QuotaShare, Scenario, ServiceEnvironment,
    ShareState, Strategy, Toggle,
};
use crate::problem::Problem;
use crate::result::Status;
use crate::validate::{valid_job_name, MAX_SAFE};

mod attempts;
mod eventbridge;
mod state;
pub use eventbridge::{eventbridge, DEFAULT_ORIGIN_MILLIS};

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
    /// `scheduledAt`: the latest attempt's dispatch.
    scheduled: Option<i64>,
    /// The statuses state-change events reported, with their times, sorted.
    steps: Vec<(i64, Status)>,
    timeout: Option<i64>,
    checkpoint: Option<bool>,
    retries: Option<i64>,
    preemptions: Option<u32>,
    where_: String,
    /// The file it was read from (an index into the import's files).
    file: usize,
    richness: u32,
}

/// The kinds of problems capped per file.
const SKIPPED: &str = "records skipped";
const UNREAD: &str = "records this import does not read";

/// The numbers of one record, each within ±(2^53 - 1) ([`whole`]): the first that is not is
/// noted with its field, and the record is skipped.
#[derive(Default)]
struct Nums(Option<(String, String)>);

impl Nums {
    fn get(&mut self, field: &str, v: Option<&Value>) -> Option<i64> {
        match whole(v) {
            Ok(x) => x,
            Err(written) => {
                self.bad(field, written);
                None
            }
        }
    }

    fn bad(&mut self, field: &str, written: String) {
        if self.0.is_none() {
            self.0 = Some((field.to_string(), written));
        }
    }
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

/// A job record: `Ok(None)` without a `jobId`, `Err((field, number))` when a number it needs is
/// out of range.
fn job_of(o: &Value, where_: &str, file: usize) -> Result<Option<JobRec>, (String, String)> {
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
fn share_of(v: &Value) -> Result<QuotaShare, (String, String)> {
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
fn envs_of(v: &Value, at: &str, file: &str, problems: &mut Capped) -> Vec<(ServiceEnvironment, String)> {
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
fn shares_of(kind: Kind, v: Value, at: &str, file: &str, problems: &mut Capped) -> Vec<(QuotaShare, String)> {
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
    let mut problems = Capped::default();
    let mut c = crate::merge::Configuration::default();
    let mut recognised = Vec::new();
    for (file, text) in files {
        let mut kinds: BTreeMap<&'static str, usize> = BTreeMap::new();
        for (kind, v, at) in records(file, text, &mut problems) {
            *kinds.entry(kind.name()).or_default() += 1;
            match kind {
                Kind::ServiceEnvironments => {
                    let mut e = envs_of(&v, &at, file, &mut problems);
                    if !e.is_empty() {
                        c.service_environment = Some(e.swap_remove(0).0);
                    }
                }
                Kind::QuotaShares | Kind::QuotaShare => {
                    for (q, _) in shares_of(kind, v, &at, file, &mut problems) {
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
    (c.service_environment.is_some() || !c.quota_shares.is_empty()).then(|| ConfigurationImport {
        configuration: c,
        warnings: problems.finish(),
        recognised,
    })
}

/// Recognises one file: its kind and its JSON records with where each is (`file:line` or a
/// position); a file that is neither one JSON object nor JSON lines is a problem. At most
/// [`crate::import_check::MAX_PER_FILE`] problems of a file are listed.
fn records(file: &str, text: &str, problems: &mut Capped) -> Vec<(Kind, Value, String)> {
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

/// How to import.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ImportOptions {
    /// Epoch milliseconds that end the attempts of jobs still running (default: the latest
    /// time seen).
    pub now: Option<i64>,
    /// `--state-at`: the live state at these epoch milliseconds (R28), rebuilt from what was
    /// known then, instead of the whole history.
    pub state_at: Option<i64>,
}

/// Imports AWS outputs and event archives (`(file name, text)` each); `now` (epoch
/// milliseconds) ends the attempts of jobs still running (default: the latest time seen).
pub fn import(files: &[(String, String)], now: Option<i64>) -> Result<Imported, Vec<Problem>> {
    import_with(files, ImportOptions { now, state_at: None })
}

/// Imports AWS outputs and event archives (`(file name, text)` each), as a whole history or
/// (with `state_at`) as the live state at an instant.
///
/// Start-up is fitted from the history (`settings.scheduledSeconds` and `startingSeconds`,
/// [`attempts::fit`], said in a warning): an attempt trains from its `startedAt` and was
/// dispatched at its `scheduledAt`, or that long before it trained.
///
/// The scenario is valid: a record with a number out of range is skipped, names are made
/// valid and unique ([`crate::import_check::Names`]), and what validation would still refuse
/// is skipped at its origin ([`crate::import_check::settle`]); `Err` when nothing valid is
/// left. At most [`crate::import_check::MAX_PER_FILE`] problems are listed per file.
pub fn import_with(files: &[(String, String)], opts: ImportOptions) -> Result<Imported, Vec<Problem>> {
    import_parsed(&parse(files), opts)
}

/// AWS outputs read once ([`parse`]), to import as often as wanted: a backtest imports the
/// state at every job's creation.
#[derive(Clone)]
pub struct Parsed {
    names: Vec<String>,
    records: Vec<Vec<(Kind, Value, String)>>,
    problems: Capped,
}

/// Reads every file's records (`(file name, text)` each), with the problems of reading them.
pub fn parse(files: &[(String, String)]) -> Parsed {
    let mut problems = Capped::default();
    let records = files.iter().map(|(file, text)| records(file, text, &mut problems)).collect();
    Parsed { names: files.iter().map(|f| f.0.clone()).collect(), records, problems }
}

/// [`import_with`] of files already read.
pub fn import_parsed(parsed: &Parsed, opts: ImportOptions) -> Result<Imported, Vec<Problem>> {
    let (now, state_at) = (opts.now, opts.state_at);
    let mut later_events = 0u64;
    let mut problems = parsed.problems.clone();
    let mut recognised = Vec::new();
    let mut envs: Vec<(ServiceEnvironment, Origin)> = Vec::new();
    let mut shares: Vec<QuotaShare> = Vec::new();
    let mut share_origins: Vec<Origin> = Vec::new();
    let mut share_index: BTreeMap<String, usize> = BTreeMap::new();
    let mut jobs: BTreeMap<String, JobRec> = BTreeMap::new();
    let mut order: Vec<String> = Vec::new();
    let mut arn_to_id: BTreeMap<String, String> = BTreeMap::new();
    let mut preempted: BTreeMap<String, u32> = BTreeMap::new();
    let mut lost: BTreeMap<String, u64> = BTreeMap::new();
    // Per job: when its current preemption started, and when each completed one did.
    let mut started_at: BTreeMap<String, i64> = BTreeMap::new();
    let mut stop_signals: BTreeMap<String, Vec<i64>> = BTreeMap::new();
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
    let skipped = |at: &str, (field, written): (String, String)| {
        Problem::error(format!("{at}: {field}"), out_of_range("record", &written))
    };
    for (fi, (file, recs)) in parsed.names.iter().zip(&parsed.records).enumerate() {
        let mut kinds: BTreeMap<&'static str, usize> = BTreeMap::new();
        for (kind, v, at) in recs {
            let kind = *kind;
            *kinds.entry(kind.name()).or_default() += 1;
            match kind {
                Kind::ServiceEnvironments => {
                    let found = envs_of(v, at, file, &mut problems);
                    envs.extend(found.into_iter().map(|(e, at)| (e, Origin { file: fi, at })));
                }
                Kind::QuotaShares | Kind::QuotaShare => {
                    for (q, at) in shares_of(kind, v.clone(), at, file, &mut problems) {
                        match share_index.get(&q.quota_share_name) {
                            Some(&i) => {
                                shares[i] = q;
                                share_origins[i] = Origin { file: fi, at };
                            }
                            None => {
                                share_index.insert(q.quota_share_name.clone(), shares.len());
                                shares.push(q);
                                share_origins.push(Origin { file: fi, at });
                            }
                        }
                    }
                }
                Kind::ServiceJobPage => {
                    for (i, j) in v["jobSummaryList"].as_array().into_iter().flatten().enumerate() {
                        let at = format!("{at}: jobSummaryList[{i}]");
                        match job_of(j, &at, fi) {
                            Ok(Some(r)) => add_job(r, &mut jobs, &mut order),
                            Ok(None) => problems.push(
                                file,
                                SKIPPED,
                                Problem::error(format!("{at}.jobId"), "a job needs a jobId; skipped"),
                            ),
                            Err(bad) => problems.push(file, SKIPPED, skipped(&at, bad)),
                        }
                    }
                }
                Kind::ServiceJob => match job_of(v, at, fi) {
                    Ok(Some(r)) => {
                        if let Some(arn) = v.get("jobArn").and_then(Value::as_str) {
                            arn_to_id.insert(arn.to_string(), r.id.clone());
                        }
                        add_job(r, &mut jobs, &mut order);
                    }
                    Ok(None) => {}
                    Err(bad) => problems.push(file, SKIPPED, skipped(at, bad)),
                },
                Kind::EventBridge => {
                    let dt = v["detail-type"].as_str().unwrap_or("");
                    let d = &v["detail"];
                    let time = v.get("time").and_then(Value::as_str).and_then(parse_iso8601);
                    if let (Some(ms), Some(t)) = (state_at, time) {
                        if t > ms {
                            // Not known at the state's instant.
                            later_events += 1;
                            continue;
                        }
                    }
                    if dt == "Batch Service Job State Change" {
                        match job_of(d, at, fi) {
                            Ok(Some(mut r)) => {
                                let status = d.get("status").and_then(Value::as_str).and_then(status_of);
                                if let (Some(t), Some(st)) = (time, status) {
                                    r.steps.push((t, st));
                                }
                                if let Some(arn) = d.get("jobArn").and_then(Value::as_str) {
                                    arn_to_id.insert(arn.to_string(), r.id.clone());
                                }
                                add_job(r, &mut jobs, &mut order)
                            }
                            Ok(None) => problems.push(
                                file,
                                SKIPPED,
                                Problem::error(
                                    format!("{at}: detail.jobId"),
                                    "a state change needs detail.jobId; skipped",
                                ),
                            ),
                            Err((f, w)) => {
                                problems.push(file, SKIPPED, skipped(at, (format!("detail.{f}"), w)))
                            }
                        }
                    } else if dt == "Batch Service Job Preemption Started" {
                        if let (Some(arn), Some(t)) = (d.get("preemptedJobArn").and_then(Value::as_str), time)
                        {
                            started_at.insert(arn.to_string(), t);
                        }
                    } else if dt == "Batch Service Job Preemption Completed" {
                        if let Some(arn) = d.get("preemptedJobArn").and_then(Value::as_str) {
                            let mut n = Nums::default();
                            let l = n.get("detail.lostWorkSeconds", d.get("lostWorkSeconds"));
                            if let Some(bad) = n.0 {
                                problems.push(file, SKIPPED, skipped(at, bad));
                                continue;
                            }
                            if let Some(t0) = started_at.remove(arn) {
                                stop_signals.entry(arn.to_string()).or_default().push(t0);
                            }
                            let p = preempted.entry(arn.to_string()).or_default();
                            *p = p.saturating_add(1);
                            if let Some(l) = l {
                                let e = lost.entry(arn.to_string()).or_default();
                                *e = e.saturating_add(l.max(0) as u64);
                            }
                        }
                    } else {
                        problems.push(
                            file,
                            UNREAD,
                            Problem::warning(
                                format!("{at}: detail-type"),
                                format!("{dt:?} is not a service job event; skipped"),
                            ),
                        );
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
    let mut signals_of: BTreeMap<String, Vec<i64>> = BTreeMap::new();
    for (arn, n) in preempted {
        if let Some(id) = arn_to_id.get(&arn) {
            if let Some(j) = jobs.get_mut(id) {
                j.preemptions = Some(j.preemptions.unwrap_or(0).max(n));
            }
            if let Some(l) = lost.get(&arn) {
                lost_of.insert(id.clone(), *l);
            }
            if let Some(mut v) = stop_signals.remove(&arn) {
                v.sort_unstable();
                signals_of.insert(id.clone(), v);
            }
        }
    }

    // Start-up, fitted from the history.
    for j in jobs.values_mut() {
        attempts::sort_steps(&mut j.steps);
    }
    let startup =
        attempts::fit(jobs.values().map(|j| (&j.steps[..], j.scheduled.zip(j.attempts.last().map(|a| a.0)))));
    if !startup.said.is_empty() {
        problems.push_general(Problem::warning(
            "settings.scheduledSeconds",
            format!("start-up fitted from the history: {}", startup.said),
        ));
    }
    // The preemption each job was in when the events end (at the state's instant).
    let mut preempting: BTreeMap<&str, i64> = BTreeMap::new();
    for (arn, t0) in &started_at {
        if let Some(id) = arn_to_id.get(arn) {
            preempting.insert(id.as_str(), *t0);
        }
    }
    let mut live = state::Tally::default();

    // Jobs: every needed field, or a problem naming it. Times are within ±(2^53 - 1) ms, so
    // their differences fit.
    let origin = jobs
        .values()
        .filter_map(|j| j.created)
        .filter(|c| state_at.is_none_or(|ms| *c <= ms))
        .min()
        .unwrap_or(0);
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
    let now = state_at.or(now).unwrap_or(latest);
    let file_of = |j: &JobRec| parsed.names.get(j.file).map_or("", String::as_str);
    // Names: the input's valid names are kept, the others made valid, all unique.
    let mut names = Names::default();
    for id in &order {
        let j = &jobs[id];
        names.reserve(j.name.as_deref().filter(|n| valid_job_name(n)).unwrap_or(&j.id));
    }
    let mut out_jobs: Vec<(Job, ObservedJob, Origin)> = Vec::new();
    let mut used_shares: BTreeMap<String, String> = BTreeMap::new();
    let mut used_order: Vec<String> = Vec::new();
    for id in &order {
        let j = &jobs[id];
        let file = file_of(j);
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
            problems.push(
                file,
                SKIPPED,
                Problem::error(
                    format!("{}: {f}", j.where_),
                    format!("job {} does not give it; skipped", j.id),
                ),
            );
            continue;
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
            attempts::attempts(created, &reported, j.scheduled, &j.steps, finished_at, startup.millis());
        let finished = matches!(j.status, Some(Status::Succeeded));
        let preemptions = j.preemptions.unwrap_or(reported.len().saturating_sub(1) as u32);
        // With the training each preemption lost (a quotasim export says it), the duration
        // is every attempt's training less what was lost; else the last attempt's.
        let known_loss = lost_of.get(id).copied().filter(|_| preemptions > 0);
        // Training stops at each preemption's stop signal (R21): the grace period after it
        // did not advance the job.
        let signals = signals_of.get(id).map_or(&[][..], Vec::as_slice);
        let trained: u64 = atts
            .iter()
            .enumerate()
            .map(|(i, a)| a.trained(signals.get(i).map_or(now, |&p| p.min(now))))
            .fold(0u64, u64::saturating_add);
        let last = match known_loss {
            Some(l) => trained.saturating_sub(l),
            None => atts.iter().rev().find(|a| a.training.is_some()).map_or(0, |a| a.trained(now)),
        };
        let at = state_at.map(|ms| {
            let k = state::Known {
                created,
                attempts: &atts,
                finished: finished_at,
                preempting_since: preempting.get(id.as_str()).copied(),
                checkpoint: (j.checkpoint == Some(true))
                    .then_some(crate::validate::DEFAULT_PAYLOAD_CHECKPOINT),
                lost: lost_of.get(id).copied(),
                signals,
            };
            (ms, state::job_at(&k, ms))
        });
        match at.map(|a| a.1.at) {
            Some(state::At::Later) => {
                live.later += 1;
                continue;
            }
            Some(state::At::Finished) => {
                live.history.push(ObservedDuration {
                    quota_share_name: share,
                    instance_type: ty,
                    instance_count: count,
                    duration_seconds: last.max(1) as i64,
                    censored: !finished,
                });
                continue;
            }
            _ => {}
        }
        let held: u64 = atts
            .iter()
            .map(|a| (a.stopped.unwrap_or(now).saturating_sub(a.dispatched).max(0) / 1000) as u64)
            .fold(0u64, u64::saturating_add);
        let instance_seconds = held.checked_mul(count.max(0) as u64).filter(|x| *x <= MAX_SAFE as u64);
        let Some(instance_seconds) = instance_seconds else {
            problems.push(
                file,
                SKIPPED,
                Problem::error(
                    j.where_.clone(),
                    format!(
                        "job {} held more than 2^53 - 1 instance-seconds ({held} s × {count}); skipped",
                        j.id
                    ),
                ),
            );
            continue;
        };
        if state_at.is_some() {
        } else if !finished {
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
        let wanted = j.name.as_deref().filter(|n| valid_job_name(n)).unwrap_or(&j.id);
        let name = names.give(wanted);
        if name != wanted {
            let why =
                if valid_job_name(wanted) { "is taken by another job" } else { "is not a valid job name" };
            problems.push(
                file,
                "jobs renamed",
                Problem::warning(format!("{}: jobName", j.where_), format!("{wanted:?} {why}: named {name}")),
            );
        }
        let secs = |t: i64| (t.saturating_sub(origin).max(0) / 1000) as u64;
        let mut job = Job::new(&name, &share, &ty, count, secs(created) as i64, last.max(1) as i64);
        job.scheduling_priority = j.priority.unwrap_or(0);
        job.timeout_seconds = j.timeout;
        if j.checkpoint == Some(true) {
            job.checkpoint_interval_seconds = Some(crate::validate::DEFAULT_PAYLOAD_CHECKPOINT as i64);
        }
        if let Some(r) = j.retries {
            job.preemption_configuration =
                Some(JobPreemption { preemption_retries_before_termination: Some(r) });
        }
        if !used_shares.contains_key(&share) {
            used_shares.insert(share.clone(), ty.clone());
            used_order.push(share.clone());
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
            live.warn(
                &mut problems,
                file,
                &j.where_,
                &j.id,
                &s,
                atts.iter().any(|a| {
                    a.dispatched <= ms
                        && !j.steps.contains(&(a.dispatched, Status::Scheduled))
                        && j.scheduled != Some(a.dispatched)
                }),
            );
        }
        out_jobs.push((job, observed, Origin { file: j.file, at: j.where_.clone() }));
    }
    // Jobs in order of submission.
    out_jobs.sort_by_key(|(j, _, _)| j.submit_at);

    // Shares the jobs name but no record defines: a RESERVE quota of the most instances its
    // jobs held at once (first start to stop; at least 1, as AWS needs), and said so.
    let mut edges: BTreeMap<&str, Vec<(u64, i64)>> = BTreeMap::new();
    for (j, o, _) in &out_jobs {
        if share_index.contains_key(&j.quota_share_name) {
            continue;
        }
        if let Some(t) = o.first_started_at {
            let n = j.instance_count.unwrap_or(1);
            let e = edges.entry(j.quota_share_name.as_str()).or_default();
            e.push((t, n));
            e.push((o.stopped_at.unwrap_or(u64::MAX), -n));
        }
    }
    for s in &used_order {
        if share_index.contains_key(s) {
            continue;
        }
        let ty = &used_shares[s];
        let mut e = edges.remove(s.as_str()).unwrap_or_default();
        e.sort_unstable();
        let (mut now, mut peak) = (0i64, 1i64);
        for (_, d) in e {
            now = now.saturating_add(d);
            peak = peak.max(now);
        }
        problems.push_general(Problem::warning(
            format!("quotaShares.{s}"),
            format!("jobs use quota share {s}, which no describe-quota-share record defines: it gets a RESERVE quota of {peak} {ty}, the most its jobs held at once"),
        ));
        share_index.insert(s.clone(), shares.len());
        shares.push(QuotaShare::new(s, Strategy::Reserve, alloc::vec![CapacityLimit::new(ty, peak)]));
        share_origins.push(Origin { file: usize::MAX, at: format!("quotaShares.{s}") });
    }
    let (env, env_origin) = if envs.len() > 1 {
        problems.push_general(Problem::warning(
            "serviceEnvironments",
            format!("{} service environments: the first is used", envs.len()),
        ));
        envs.swap_remove(0)
    } else {
        envs.pop().unwrap_or_else(|| {
            problems.push_general(Problem::warning(
                "serviceEnvironment",
                "no describe-service-environments record: the capacity is the sum of the quotas",
            ));
            let mut cap: BTreeMap<&str, i64> = BTreeMap::new();
            let mut types: Vec<&str> = Vec::new();
            for q in &shares {
                for l in &q.capacity_limits {
                    let c = cap.entry(l.capacity_unit.as_str()).or_insert_with(|| {
                        types.push(l.capacity_unit.as_str());
                        0
                    });
                    *c = c.saturating_add(l.max_capacity);
                }
            }
            let limits = types.iter().map(|t| CapacityLimit::new(t, cap[t])).collect();
            let env = ServiceEnvironment { capacity_limits: limits, ..ServiceEnvironment::default() };
            (env, Origin { file: usize::MAX, at: "serviceEnvironment".into() })
        })
    };
    if shares.is_empty() && out_jobs.is_empty() {
        problems
            .push_general(Problem::error("", "nothing to import: no quota share and no job was recognised"));
        return Err(problems.finish());
    }
    let mut observed = Vec::with_capacity(out_jobs.len());
    let mut job_origins = Vec::with_capacity(out_jobs.len());
    let mut scenario_jobs = Vec::with_capacity(out_jobs.len());
    for (j, o, at) in out_jobs {
        scenario_jobs.push(j);
        observed.push(o);
        job_origins.push(at);
    }
    let mut scenario = Scenario {
        name: Some(format!("imported from AWS ({} jobs)", scenario_jobs.len())),
        description: Some(format!(
            "Imported from AWS Batch outputs; submitAt 0 is {origin} ms after the Unix epoch (the earliest createdAt)."
        )),
        service_environment: env,
        quota_shares: shares,
        jobs: scenario_jobs,
        ..Scenario::default()
    };
    scenario.settings.scheduled_seconds = startup.scheduled_seconds;
    scenario.settings.starting_seconds = startup.starting_seconds;
    if let Some(ms) = state_at {
        scenario.settings.start_at = ms.saturating_sub(origin).max(0) / 1000;
        scenario.settings.origin_epoch_ms = Some(origin);
    }
    let mut origins = Origins {
        files: parsed.names.clone(),
        shares: share_origins,
        jobs: job_origins,
        instance_types: Vec::new(),
        service_environment: env_origin,
    };
    if settle(&mut scenario, &mut origins, &mut problems).is_err() {
        return Err(problems.finish());
    }
    if scenario.jobs.len() != observed.len() {
        // What settle skipped is not observed either.
        let kept: BTreeSet<&str> = scenario.jobs.iter().map(|j| j.job_name.as_str()).collect();
        observed.retain(|o| kept.contains(o.job_name.as_str()));
    }
    scenario.name = Some(format!("imported from AWS ({} jobs)", scenario.jobs.len()));
    if let Some(ms) = state_at {
        live.finish(&mut scenario, &mut problems, ms, origin, later_events);
    }
    Ok(Imported {
        scenario,
        observed: Observed { format_version: 1, origin_epoch_millis: origin, jobs: observed },
        warnings: problems.finish(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
