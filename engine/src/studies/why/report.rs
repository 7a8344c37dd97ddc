//! `quotasim why`'s report: the JSON shape (the npm package's too) and the text for people.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt::Write;

use serde::Serialize;
use serde_json::Value;

use super::options::{usage, Target, WhyError, WhyOptions};
use crate::compare::{human_duration, Fate};
use crate::problem::printable;
use crate::result::{SimResult, Status};
use crate::scenario::ValidScenario;
use crate::PreemptionRecord;

/// `quotasim why`'s JSON.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WhyReport {
    /// `formatVersion`: the report format's version, 1.
    pub format_version: u32,
    /// The job explained.
    pub job: String,
    /// What is explained, and the target a change must reach.
    pub event: WhyEvent,
    /// The changes that reached the target, fewest jobs harmed first.
    pub changes: Vec<Found>,
    /// What was tried, found or not, and what was not tried and why.
    pub tried: TriedReport,
}

/// A preemption or a wait.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EventKind {
    /// `preemption`: one of the job's preemptions.
    Preemption,
    /// `wait`: the job's wait for its first dispatch.
    Wait,
}

/// The event explained, as the baseline run has it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WhyEvent {
    /// `kind`: a preemption or a wait.
    pub kind: EventKind,
    /// `quotaShareName`: the job's quota share.
    pub quota_share_name: String,
    /// `submitAt`: when the job was submitted, in seconds.
    pub submit_at: u64,
    /// `firstStartedAt`: when its first attempt was dispatched in the baseline, in seconds; `null` if none
    /// was.
    pub first_started_at: Option<u64>,
    /// `stoppedAt`: when it succeeded or failed in the baseline, in seconds; `null` if it had not when the
    /// run ended.
    pub stopped_at: Option<u64>,
    /// `status`: its status when the baseline ended; `null` when it was not submitted by then.
    pub status: Option<Status>,
    /// Its preemptions in the run.
    pub preemptions: u32,
    /// The preemption explained (a preemption only).
    pub preemption: Option<PreemptionInfo>,
    /// Its wait: submission to first dispatch, or to the run's end when it never started (a
    /// wait only).
    pub wait_seconds: Option<u64>,
    /// How much earlier it must start (a wait of a job that started).
    pub by_seconds: Option<u64>,
    /// Why it waits at the run's end (a job never started, R17).
    pub status_reason: Option<String>,
    /// The target, in words.
    pub target: String,
}

/// One preemption of the job.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PreemptionInfo {
    /// Which, from 1.
    pub number: u32,
    /// When it was told to stop (`Preemption Started`).
    pub at: u64,
    /// When it released its instances.
    pub released_at: u64,
    /// R18, R20 or R22's reason.
    pub reason: String,
    /// The job it made room for (none for a lowered limit).
    pub preempted_by: Option<String>,
    /// `preemptedByQuotaShare`: that job's quota share.
    pub preempted_by_quota_share: Option<String>,
    /// Training lost (R8).
    pub lost_work_seconds: u64,
}

/// A change that reached the target, with its side effects.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Found {
    /// The `--set` arguments that make it, for `run`, `compare` or `check`.
    pub set: Vec<String>,
    /// Its catalogue entry.
    pub entry: &'static str,
    /// What it does to the job.
    pub job: JobChange,
    /// The other jobs it harms.
    pub harmed: Harmed,
    /// The shares affected: wait p95 and lost GPU-hours before and after.
    pub shares: Vec<ShareEffect>,
}

/// The job's own change.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JobChange {
    /// One line: `no longer preempted; finishes 2 min earlier`.
    pub description: String,
    /// `before`: its fate in the baseline; `null` when the comparison finds its fate unchanged.
    pub before: Option<Fate>,
    /// `after`: its fate with the change; `null` when the comparison finds its fate unchanged.
    pub after: Option<Fate>,
    /// `stoppedAtBefore`: when it succeeded or failed in the baseline, in seconds; `null` if it had not.
    pub stopped_at_before: Option<u64>,
    /// `stoppedAtAfter`: the same with the change.
    pub stopped_at_after: Option<u64>,
}

/// The other jobs a change harms.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Harmed {
    /// `count`: how many other jobs it harms: a worse status, a start at least a minute later (or never),
    /// more preemptions or more lost work.
    pub count: u64,
    /// The worst, in words: `research-7 waits 42 min longer`.
    pub worst: Option<String>,
    /// Each, in the scenario's order.
    pub jobs: Vec<Harm>,
}

/// One harmed job.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Harm {
    /// `jobName`: the harmed job.
    pub job_name: String,
    /// How its fate changed (the comparison's words).
    pub description: String,
}

/// A share's wait p95 and lost GPU-hours, before and after a change.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ShareEffect {
    /// `quotaShareName`: the share: the job's, a harmed job's, or one whose figures changed.
    pub quota_share_name: String,
    /// `waitP95SecondsBefore`: the p95 of its jobs' waits (submission to first `RUNNING`) in the baseline, in
    /// seconds; `null` when none reached `RUNNING`.
    pub wait_p95_seconds_before: Option<u64>,
    /// `waitP95SecondsAfter`: the same with the change.
    pub wait_p95_seconds_after: Option<u64>,
    /// `lostGpuHoursBefore`: GPU-hours of training its preemptions lost in the baseline (R8).
    pub lost_gpu_hours_before: f64,
    /// `lostGpuHoursAfter`: the same with the change.
    pub lost_gpu_hours_after: f64,
}

/// The runs and every catalogue entry.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TriedReport {
    /// Runs made, the baseline included.
    pub runs: u32,
    /// `maxRuns`: the budget of runs, the baseline included (`--max-runs`).
    pub max_runs: u32,
    /// Every catalogue entry for the event, in the catalogue's order.
    pub entries: Vec<Tried>,
}

/// What became of a catalogue entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum TriedOutcome {
    /// A value reached the target (it is among the changes).
    Found,
    /// No value reached it.
    NotFound,
    /// Not tried: it does not apply to this job or event.
    NotApplicable,
    /// Not tried: its worst case needs more runs than were left.
    BudgetExhausted,
}

/// One catalogue entry.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Tried {
    /// `entry`: the catalogue's name for it (`priority`, `borrowLimit`, ...).
    pub entry: &'static str,
    /// `path`: the field it changes, in the `--set` grammar.
    pub path: String,
    /// `up`, `down`, `earlier` or `fewer` for a numeric field; `null` for a single value.
    pub direction: Option<&'static str>,
    /// The values it covers: a single value, or the nearest and the farthest.
    pub candidates: Vec<Value>,
    /// Every run, in order.
    pub tested: Vec<Tested>,
    /// `outcome`: found, not found, not applicable, or out of budget.
    pub outcome: TriedOutcome,
    /// `detail`: the outcome in words: why it does not apply, the runs it would need, or whether the values
    /// tried reach the target.
    pub detail: String,
}

/// One run of a catalogue entry.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Tested {
    /// `value`: the value tried.
    pub value: Value,
    /// `reaches`: whether the run with it reaches the target.
    pub reaches: bool,
    /// Why the changed scenario did not run (invalid, or a run error).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// `h:mm:ss`.
pub fn clock(t: u64) -> String {
    format!("{}:{:02}:{:02}", t / 3600, t % 3600 / 60, t % 60)
}

fn times(n: u32) -> String {
    if n == 1 {
        "once".into()
    } else {
        format!("{n} times")
    }
}

/// The event to explain and its target, from the options and the baseline.
pub(crate) fn event_of(
    v: &ValidScenario,
    base: &SimResult,
    job: usize,
    records: &[PreemptionRecord],
    o: &WhyOptions,
) -> Result<(WhyEvent, Target), WhyError> {
    let jr = &base.jobs[job];
    let name = printable(&jr.job_name);
    let n = records.len() as u32;
    if let Some(k) = o.preemption {
        if n == 0 {
            return Err(usage(
                "--preemption",
                format!(
                    "`{name}` is never preempted in this run: leave --preemption out to explain its wait"
                ),
            ));
        }
        if k > n {
            return Err(usage(
                "--preemption",
                format!("`{name}` is preempted {}: --preemption is from 1 to {n}, not {k}", times(n)),
            ));
        }
    }
    let mut e = WhyEvent {
        kind: EventKind::Wait,
        quota_share_name: jr.quota_share_name.clone(),
        submit_at: jr.submit_at,
        first_started_at: jr.first_started_at,
        stopped_at: jr.stopped_at,
        status: jr.status,
        preemptions: n,
        preemption: None,
        wait_seconds: None,
        by_seconds: None,
        status_reason: None,
        target: String::new(),
    };
    let count = jr.preemption_summary.preempted_attempt_count;
    if let Some(k) = o.preemption.or((n > 0).then_some(1)) {
        if o.by.is_some() {
            return Err(usage(
                "--by",
                format!("applies to a wait; `{name}` is preempted, and its preemption {k} is explained"),
            ));
        }
        let rec = &records[k as usize - 1];
        let by = rec.preemptor.map(|p| &v.jobs[p.index()]);
        e.kind = EventKind::Preemption;
        e.preemption = Some(PreemptionInfo {
            number: k,
            at: rec.decided_at,
            released_at: rec.releases_at,
            reason: rec.kind.reason().into(),
            preempted_by: by.map(|p| String::from(p.name.as_str())),
            preempted_by_quota_share: by.map(|p| v.shares[p.share.index()].name.clone()),
            lost_work_seconds: rec.lost,
        });
        let finish = jr.stopped_at.filter(|_| jr.status == Some(Status::Succeeded));
        e.target = match finish {
            Some(t) => {
                format!("preempted fewer than {} and succeeding by {} (no later)", times(count), clock(t))
            }
            None => format!("preempted fewer than {} and still starting", times(count)),
        };
        return Ok((e, Target::FewerPreemptions { count, finish }));
    }
    if jr.status.is_none() {
        return Err(usage(
            "--job",
            format!("`{name}` is not submitted before the run ends: nothing to explain"),
        ));
    }
    if v.jobs[job].started_at.is_some() {
        return Err(usage(
            "--job",
            format!("`{name}` was already running at startAt and is never preempted: nothing to explain"),
        ));
    }
    match jr.first_started_at {
        Some(t) => {
            let wait = t.saturating_sub(jr.submit_at);
            if wait == 0 {
                return Err(usage(
                    "--job",
                    format!(
                        "`{name}` starts when it is submitted and is never preempted: nothing to explain"
                    ),
                ));
            }
            let by = o.by.unwrap_or((wait / 2).max(1));
            let latest = match t.checked_sub(by) {
                Some(l) if l >= v.settings.start_at => l,
                _ => {
                    return Err(usage(
                        "--by",
                        format!(
                            "`{name}` starts at {t}: it cannot start {by} s earlier, before the run's start"
                        ),
                    ))
                }
            };
            e.wait_seconds = Some(wait);
            e.by_seconds = Some(by);
            e.target =
                format!("starting by {} ({} earlier than {})", clock(latest), human_duration(by), clock(t));
            Ok((e, Target::StartBy { latest }))
        }
        None => {
            if o.by.is_some() {
                return Err(usage(
                    "--by",
                    format!(
                        "`{name}` never starts: the target is that it starts at all, --by does not apply"
                    ),
                ));
            }
            e.wait_seconds = Some(base.ended_at.saturating_sub(jr.submit_at));
            e.status_reason = jr.status_reason.clone();
            e.target = "starting at all".into();
            Ok((e, Target::Starts))
        }
    }
}

/// A `--set` argument quoted for a shell.
fn quoted(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

fn p95(v: Option<u64>) -> String {
    v.map_or_else(|| "-".into(), clock)
}

/// The report for people.
pub fn text(r: &WhyReport) -> String {
    let mut o = String::new();
    let e = &r.event;
    let name = printable(&r.job);
    let share = printable(&e.quota_share_name);
    match (&e.preemption, e.kind) {
        (Some(p), _) => {
            let by = match (&p.preempted_by, &p.preempted_by_quota_share) {
                (Some(j), Some(s)) => format!(" by {} ({})", printable(j), printable(s)),
                _ => String::new(),
            };
            let _ = writeln!(
                o,
                "{name} ({share}): preemption {} of {}, at {}{by}: {}.",
                p.number,
                e.preemptions,
                clock(p.at),
                p.reason
            );
        }
        (None, _) => {
            let waited = e.wait_seconds.map_or_else(String::new, human_duration);
            match e.first_started_at {
                Some(t) => {
                    let _ = writeln!(
                        o,
                        "{name} ({share}): waits {waited}, submitted at {} and started at {}.",
                        clock(e.submit_at),
                        clock(t)
                    );
                }
                None => {
                    let why = e
                        .status_reason
                        .as_deref()
                        .map_or_else(String::new, |r| format!(" ({})", printable(r)));
                    let _ = writeln!(
                        o,
                        "{name} ({share}): never starts, submitted at {}{why}.",
                        clock(e.submit_at)
                    );
                }
            }
        }
    }
    let _ = writeln!(o, "Target: {}.", e.target);
    let _ = writeln!(o);
    if r.changes.is_empty() {
        let _ = writeln!(o, "Nothing in the catalogue reaches the target (below: what was tried).");
    } else {
        let _ = writeln!(
            o,
            "{} change(s) that would have avoided it, each verified by a full re-run, fewest jobs harmed first:",
            r.changes.len()
        );
    }
    for (i, c) in r.changes.iter().enumerate() {
        let sets: Vec<String> = c.set.iter().map(|s| format!("--set {}", quoted(&printable(s)))).collect();
        let _ = writeln!(o, "\n{}. {}   ({})", i + 1, sets.join(" "), c.entry);
        let _ = writeln!(o, "   {name}: {}", printable(&c.job.description));
        match (&c.harmed.worst, c.harmed.count) {
            (Some(w), n) => {
                let _ = writeln!(o, "   harms {n} other job(s); the worst: {}", printable(w));
            }
            (None, _) => {
                let _ = writeln!(o, "   harms no other job");
            }
        }
        for s in &c.shares {
            let _ = writeln!(
                o,
                "   {}: wait p95 {} -> {}, lost GPU-hours {:.2} -> {:.2}",
                printable(&s.quota_share_name),
                p95(s.wait_p95_seconds_before),
                p95(s.wait_p95_seconds_after),
                s.lost_gpu_hours_before,
                s.lost_gpu_hours_after
            );
        }
    }
    let _ = writeln!(o, "\nTried (catalogue order):");
    for t in &r.tried.entries {
        let what = match t.direction {
            Some(d) => format!("{} {d}", t.entry),
            None => match t.candidates.first() {
                Some(Value::String(s)) => format!("{} = {s}", t.entry),
                Some(v) => format!("{} = {v}", t.entry),
                None => t.entry.to_string(),
            },
        };
        let outcome = match t.outcome {
            TriedOutcome::Found => "found",
            TriedOutcome::NotFound => "not reached",
            TriedOutcome::NotApplicable => "not applicable",
            TriedOutcome::BudgetExhausted => "not tried",
        };
        let runs = if t.tested.is_empty() { String::new() } else { format!(", {} run(s)", t.tested.len()) };
        let _ = writeln!(o, "  {what} [{}]: {outcome}{runs}: {}", printable(&t.path), printable(&t.detail));
    }
    let _ = writeln!(o, "\nRuns: {} of at most {} (the baseline included).", r.tried.runs, r.tried.max_runs);
    o
}
