//! Gathering the records of every file: service environments, quota shares (a later record of
//! a share replaces an earlier one), job records merged by `jobId` (the richest first), and the
//! preemptions EventBridge reports. Still the read stage: nothing is mapped to the model yet.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::Value;

use super::read::{
    envs_of, job_of, merge, shares_of, status_of, JobRec, Kind, Nums, Parsed, SKIPPED, UNREAD,
};
use super::time::parse_iso8601;
use crate::import_check::{out_of_range, Capped, Origin};
use crate::model::{QuotaShare, ServiceEnvironment};
use crate::problem::Problem;

/// Every file's records, gathered.
#[derive(Default)]
pub(super) struct Gathered {
    /// What each file was (`file: 3 EventBridge events, ...`).
    pub recognised: Vec<String>,
    /// EventBridge events after `--state-at`, not read.
    pub later_events: u64,
    pub envs: Vec<(ServiceEnvironment, Origin)>,
    pub shares: Vec<QuotaShare>,
    pub share_origins: Vec<Origin>,
    pub share_index: BTreeMap<String, usize>,
    /// Job records by `jobId`, and the ids in the order first seen.
    pub jobs: BTreeMap<String, JobRec>,
    pub order: Vec<String>,
    arn_to_id: BTreeMap<String, String>,
    preempted: BTreeMap<String, u32>,
    lost: BTreeMap<String, u64>,
    /// Per job ARN: when its current preemption started, and when each completed one did.
    started_at: BTreeMap<String, i64>,
    stop_signals: BTreeMap<String, Vec<i64>>,
    /// Per job id: the training its preemptions lost, as reported.
    pub lost_of: BTreeMap<String, u64>,
    /// Per job id: when each completed preemption started (its stop signal), sorted.
    pub signals_of: BTreeMap<String, Vec<i64>>,
    /// Per job id: when the preemption it was in when the events end started.
    pub preempting: BTreeMap<String, i64>,
}

/// The problem of a record skipped for a number out of range.
fn skipped(at: &str, (field, written): (String, String)) -> Problem {
    Problem::error(format!("{at}: {field}"), out_of_range("record", &written))
}

/// Gathers every record of `parsed`; events after `state_at` (epoch ms) are counted, not read.
pub(super) fn gather(parsed: &Parsed, state_at: Option<i64>, problems: &mut Capped) -> Gathered {
    let mut g = Gathered::default();
    for (fi, (file, recs)) in parsed.names.iter().zip(&parsed.records).enumerate() {
        let mut kinds: BTreeMap<&'static str, usize> = BTreeMap::new();
        for (kind, v, at) in recs {
            *kinds.entry(kind.name()).or_default() += 1;
            g.record(*kind, v, at, fi, file, state_at, problems);
        }
        let what: Vec<String> = kinds.iter().map(|(k, n)| format!("{n} {k}")).collect();
        g.recognised.push(format!(
            "{file}: {}",
            if what.is_empty() { "nothing".to_string() } else { what.join(", ") }
        ));
    }
    g.settle_preemptions();
    g
}

impl Gathered {
    /// One record of file `fi` (named `file`), read at `at`.
    #[allow(clippy::too_many_arguments)]
    fn record(
        &mut self,
        kind: Kind,
        v: &Value,
        at: &str,
        fi: usize,
        file: &str,
        state_at: Option<i64>,
        problems: &mut Capped,
    ) {
        match kind {
            Kind::ServiceEnvironments => {
                let found = envs_of(v, at, file, problems);
                self.envs.extend(found.into_iter().map(|(e, at)| (e, Origin { file: fi, at })));
            }
            Kind::QuotaShares | Kind::QuotaShare => {
                for (q, at) in shares_of(kind, v.clone(), at, file, problems) {
                    self.share(q, Origin { file: fi, at });
                }
            }
            Kind::ServiceJobPage => {
                for (i, j) in v["jobSummaryList"].as_array().into_iter().flatten().enumerate() {
                    let at = format!("{at}: jobSummaryList[{i}]");
                    match job_of(j, &at, fi) {
                        Ok(Some(r)) => self.add_job(r),
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
                        self.arn_to_id.insert(arn.to_string(), r.id.clone());
                    }
                    self.add_job(r);
                }
                Ok(None) => {}
                Err(bad) => problems.push(file, SKIPPED, skipped(at, bad)),
            },
            Kind::EventBridge => self.event(v, at, fi, file, state_at, problems),
        }
    }

    /// A quota share: a later record of the same name replaces the earlier one in its place.
    fn share(&mut self, q: QuotaShare, origin: Origin) {
        match self.share_index.get(&q.quota_share_name) {
            Some(&i) => {
                self.shares[i] = q;
                self.share_origins[i] = origin;
            }
            None => {
                self.share_index.insert(q.quota_share_name.clone(), self.shares.len());
                self.shares.push(q);
                self.share_origins.push(origin);
            }
        }
    }

    /// A job record, merged with what is known of its `jobId` (the richer record first).
    fn add_job(&mut self, r: JobRec) {
        match self.jobs.get_mut(&r.id) {
            Some(a) if a.richness >= r.richness => merge(a, r),
            Some(a) => {
                let old = core::mem::replace(a, r);
                merge(a, old);
            }
            None => {
                self.order.push(r.id.clone());
                self.jobs.insert(r.id.clone(), r);
            }
        }
    }

    /// One EventBridge event: a state change (a job record with its step), a preemption started
    /// or completed; any other detail type is a warning.
    fn event(
        &mut self,
        v: &Value,
        at: &str,
        fi: usize,
        file: &str,
        state_at: Option<i64>,
        problems: &mut Capped,
    ) {
        let dt = v["detail-type"].as_str().unwrap_or("");
        let d = &v["detail"];
        let time = v.get("time").and_then(Value::as_str).and_then(parse_iso8601);
        if let (Some(ms), Some(t)) = (state_at, time) {
            if t > ms {
                // Not known at the state's instant.
                self.later_events += 1;
                return;
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
                        self.arn_to_id.insert(arn.to_string(), r.id.clone());
                    }
                    self.add_job(r)
                }
                Ok(None) => problems.push(
                    file,
                    SKIPPED,
                    Problem::error(
                        format!("{at}: detail.jobId"),
                        "a state change needs detail.jobId; skipped",
                    ),
                ),
                Err((f, w)) => problems.push(file, SKIPPED, skipped(at, (format!("detail.{f}"), w))),
            }
        } else if dt == "Batch Service Job Preemption Started" {
            if let (Some(arn), Some(t)) = (d.get("preemptedJobArn").and_then(Value::as_str), time) {
                self.started_at.insert(arn.to_string(), t);
            }
        } else if dt == "Batch Service Job Preemption Completed" {
            if let Some(arn) = d.get("preemptedJobArn").and_then(Value::as_str) {
                let mut n = Nums::default();
                let l = n.get("detail.lostWorkSeconds", d.get("lostWorkSeconds"));
                if let Some(bad) = n.0 {
                    problems.push(file, SKIPPED, skipped(at, bad));
                    return;
                }
                if let Some(t0) = self.started_at.remove(arn) {
                    self.stop_signals.entry(arn.to_string()).or_default().push(t0);
                }
                let p = self.preempted.entry(arn.to_string()).or_default();
                *p = p.saturating_add(1);
                if let Some(l) = l {
                    let e = self.lost.entry(arn.to_string()).or_default();
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

    /// The preemptions events reported, by job ARN, onto the jobs by id: their count, lost
    /// training and stop signals, and the preemption each job was in when the events end.
    fn settle_preemptions(&mut self) {
        for (arn, n) in core::mem::take(&mut self.preempted) {
            if let Some(id) = self.arn_to_id.get(&arn) {
                if let Some(j) = self.jobs.get_mut(id) {
                    j.preemptions = Some(j.preemptions.unwrap_or(0).max(n));
                }
                if let Some(l) = self.lost.get(&arn) {
                    self.lost_of.insert(id.clone(), *l);
                }
                if let Some(mut v) = self.stop_signals.remove(&arn) {
                    v.sort_unstable();
                    self.signals_of.insert(id.clone(), v);
                }
            }
        }
        for (arn, t0) in &self.started_at {
            if let Some(id) = self.arn_to_id.get(arn) {
                self.preempting.insert(id.clone(), *t0);
            }
        }
    }
}
