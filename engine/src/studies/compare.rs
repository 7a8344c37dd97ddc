//! Comparing two runs of the same workload: what a policy change does (`quotasim compare`).
//!
//! Both sides are full results. The comparison holds each side's summary result, the
//! changes that made B (or "second file"), per-share and overall deltas of every summary
//! number (B - A), and the jobs whose fate differs, matched by name, never by position.
//! Shares or jobs present on one side only are listed, not joined.
//!
//! [`compare`] takes two results; [`compare_sides`] the same parts borrowed ([`Side`]), and
//! [`JobComparison`] does the per-job part a slice at a time: jobs are looked up by name
//! through an index (or found at the same place, as they mostly are), and only a job whose
//! fate differs is copied, so a comparison of 100,000 jobs is linear in the jobs.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::metric::leaves;
use crate::names::NameIndex;
use crate::result::{JobResult, SimResult, Status, Summary, SummaryResult};
use crate::{Options, RunError, Simulation, ValidScenario};

/// `quotasim compare`'s JSON.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Comparison {
    /// `formatVersion`: the comparison format's version, 1.
    pub format_version: u32,
    /// `a`: side A's summary result.
    pub a: SummaryResult,
    /// `b`: side B's summary result.
    pub b: SummaryResult,
    /// The `--set` changes that made B from A, or `["second file"]`.
    pub changes: Vec<String>,
    /// What the two scenarios do not share (quota shares on one side only).
    pub differences: Vec<String>,
    /// `delta`: B - A for every number of the summaries, per share and overall.
    pub delta: Delta,
    /// `changedJobs`: the jobs whose fate differs or that are on one side only: A's jobs in A's order, then
    /// those only in B.
    pub changed_jobs: Vec<ChangedJob>,
}

/// B - A for every number of the summary, keyed by its metric path relative to the share or
/// to `overall` (`waitSeconds.p95`); `null` where either side has none.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Delta {
    /// Per quota share present on both sides, in A's order.
    #[serde(serialize_with = "ser_pairs")]
    pub per_quota_share: Vec<(String, Map<String, Value>)>,
    /// `overall`: B - A for each number of the overall summary, keyed by its metric path.
    pub overall: Map<String, Value>,
    /// `endedAt` of B minus A's.
    pub ended_at: i64,
}

/// What happened to one job on one side.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Fate {
    /// `quotaShareName`: the job's quota share on this side.
    pub quota_share_name: String,
    /// `status`: its status when the run ended; `null` when it was not submitted by then.
    pub status: Option<Status>,
    /// `statusReason`: the reason shown when the run ended (why it waits, R17, or why it failed); `null`
    /// otherwise.
    pub status_reason: Option<String>,
    /// `firstStartedAt`: when its first attempt was dispatched, in seconds; `null` if none was.
    pub first_started_at: Option<u64>,
    /// `waitSeconds`: seconds from its submission to its first dispatch; `null` if it never started.
    pub wait_seconds: Option<u64>,
    /// `preemptions`: its preemptions, its `preemptedAttemptCount` (R7).
    pub preemptions: u32,
    /// `lostWorkSeconds`: training seconds its preemptions lost (R8).
    pub lost_work_seconds: u64,
}

/// A job whose fate differs, or that is on one side only.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ChangedJob {
    /// `jobName`: the job, matched by name on both sides.
    pub job_name: String,
    /// `changed`, `added` (only in B) or `removed` (only in A).
    pub change: &'static str,
    /// `a`: its fate in A; `null` when it is only in B.
    pub a: Option<Fate>,
    /// `b`: its fate in B; `null` when it is only in A.
    pub b: Option<Fate>,
    /// One line: `starts 42 min later`, `no longer preempted`, `fails: retry limit`.
    pub description: String,
}

fn fate(j: &JobResult) -> Fate {
    Fate {
        quota_share_name: j.quota_share_name.clone(),
        status: j.status,
        status_reason: j.status_reason.clone(),
        first_started_at: j.first_started_at,
        wait_seconds: j.first_started_at.map(|t| t - j.submit_at),
        preemptions: j.preemption_summary.preempted_attempt_count,
        lost_work_seconds: j.lost_work_seconds,
    }
}

/// Whether two results of a job have the same fate: what [`Fate`]s compare, without making them.
fn same_fate(a: &JobResult, b: &JobResult) -> bool {
    a.status == b.status
        && a.first_started_at == b.first_started_at
        && a.preemption_summary.preempted_attempt_count == b.preemption_summary.preempted_attempt_count
        && a.lost_work_seconds == b.lost_work_seconds
}

/// A duration for people: `45 s`, `42 min`, `3.5 h`, `2.1 d`.
pub fn human_duration(s: u64) -> String {
    match s {
        0..=119 => format!("{s} s"),
        120..=7199 => format!("{} min", (s + 30) / 60),
        7200..=172_799 => format!("{:.1} h", s as f64 / 3600.0),
        _ => format!("{:.1} d", s as f64 / 86400.0),
    }
}

fn times(n: u32) -> String {
    if n == 1 {
        "once".into()
    } else {
        format!("{n} times")
    }
}

/// How a failed job failed, in a word or two.
fn failure(f: &Fate) -> String {
    let r = f.status_reason.as_deref().unwrap_or("");
    if r.starts_with("Preemption retry limit reached") {
        "fails: retry limit".into()
    } else if r.contains("timeout") {
        "fails: timeout".into()
    } else if r.contains("DISABLED") {
        "fails: share disabled".into()
    } else {
        "fails: terminated".into()
    }
}

/// The one-line description of how `b` differs from `a`.
pub fn describe(a: &Fate, b: &Fate) -> String {
    let mut parts = Vec::new();
    if a.status != b.status {
        match b.status {
            Some(Status::Succeeded) => parts.push("now succeeds".to_string()),
            Some(Status::Failed) => parts.push(failure(b)),
            _ if a.status == Some(Status::Succeeded) => parts.push("no longer finishes".to_string()),
            _ => parts.push(format!("ends {:?} instead of {:?}", b.status, a.status).to_uppercase()),
        }
    }
    match (a.first_started_at, b.first_started_at) {
        (Some(x), Some(y)) if y > x => parts.push(format!("starts {} later", human_duration(y - x))),
        (Some(x), Some(y)) if y < x => parts.push(format!("starts {} earlier", human_duration(x - y))),
        (Some(_), None) => parts.push("never starts".into()),
        (None, Some(_)) => parts.push("now starts".into()),
        _ => {}
    }
    match (a.preemptions, b.preemptions) {
        (x, 0) if x > 0 => parts.push("no longer preempted".into()),
        (0, y) if y > 0 => parts.push(format!("preempted {}", times(y))),
        (x, y) if y > x => parts.push(format!("preempted {} more", times(y - x))),
        (x, y) if y < x => parts.push(format!("preempted {} fewer", times(x - y))),
        _ => {}
    }
    let (la, lb) = (a.lost_work_seconds, b.lost_work_seconds);
    if lb > la {
        parts.push(format!("loses {} more work", human_duration(lb - la)));
    } else if lb < la {
        parts.push(format!("loses {} less work", human_duration(la - lb)));
    }
    parts.join("; ")
}

/// How much a job's fate changed, for ordering the most changed first.
pub fn weight(c: &ChangedJob) -> u64 {
    match (&c.a, &c.b) {
        (Some(a), Some(b)) => {
            let status: u64 = if a.status != b.status { 1 << 40 } else { 0 };
            let wait =
                a.wait_seconds.unwrap_or(u64::MAX / 4).abs_diff(b.wait_seconds.unwrap_or(u64::MAX / 4));
            let pre = (a.preemptions.abs_diff(b.preemptions) as u64) << 30;
            status.saturating_add(wait.min(1 << 29)).saturating_add(pre)
        }
        _ => 1 << 41,
    }
}

fn ser_pairs<S: serde::Serializer>(v: &[(String, Map<String, Value>)], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut m = s.serialize_map(Some(v.len()))?;
    for (k, val) in v {
        m.serialize_entry(k, val)?;
    }
    m.end()
}

fn delta_of(a: &Value, b: &Value) -> Map<String, Value> {
    let bl = leaves(b);
    let mut out = Map::new();
    for (path, av) in leaves(a) {
        let bv = bl.iter().find(|(p, _)| *p == path).and_then(|(_, v)| *v);
        let d = match (av, bv) {
            (Some(x), Some(y)) => serde_json::Number::from_f64(y - x).map_or(Value::Null, Value::Number),
            _ => Value::Null,
        };
        out.insert(path, d);
    }
    out
}

/// Runs a scenario to its end for a comparison or a check: the summary, and the job results
/// when `jobs` (events are not recorded). A time or a sum past 2^53 - 1 is an error.
pub fn run_to_end(valid: ValidScenario, jobs: bool) -> Result<SimResult, RunError> {
    let mut sim = Simulation::with_options(valid, Options { record_events: false, ..Options::default() });
    sim.run();
    if let Some(e) = sim.run_error() {
        return Err(e);
    }
    Ok(SimResult {
        format_version: 1,
        ended_at: sim.ended_at(),
        jobs: if jobs { sim.jobs() } else { Vec::new() },
        events: Vec::new(),
        summary: sim.summary(),
    })
}

/// The summary result of a full result.
pub fn summary_of(r: &SimResult) -> SummaryResult {
    SummaryResult { format_version: 1, ended_at: r.ended_at, summary: r.summary.clone() }
}

/// One side of a comparison, borrowed: when its run ended, its summary, its job results and
/// where a job of a name is among them. A run's job names are unique (they are a validated
/// scenario's), so a job found at the same place as on the other side is the one named.
#[derive(Clone, Copy)]
pub struct Side<'a> {
    /// When the side's run ended (`endedAt`), in seconds.
    pub ended_at: u64,
    /// The side's summary.
    pub summary: &'a Summary,
    /// The side's job results.
    pub jobs: &'a [JobResult],
    /// The index in `jobs` of the job of a name, or `None` when the side has no such job.
    pub find: &'a dyn Fn(&str) -> Option<usize>,
}

impl<'a> Side<'a> {
    /// The side of a full result, its jobs found by `find`.
    pub fn of(r: &'a SimResult, find: &'a dyn Fn(&str) -> Option<usize>) -> Side<'a> {
        Side { ended_at: r.ended_at, summary: &r.summary, jobs: &r.jobs, find }
    }

    /// Where the job named as `other[k]` is on this side: at `k` too, or found by name.
    fn position(&self, k: usize, name: &str) -> Option<usize> {
        match self.jobs.get(k) {
            Some(j) if j.job_name == name => Some(k),
            _ => (self.find)(name),
        }
    }
}

fn result_name(j: &JobResult) -> &str {
    &j.job_name
}

/// The jobs of two sides compared a part at a time: A's jobs in A's order (fate changed, or
/// only in A), then B's (only in B). It holds no reference to the sides, so a page can give it
/// slices of time; it allocates only for the jobs it lists.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JobComparison {
    /// Jobs looked at: A's first, then B's.
    next: usize,
    removed: usize,
    added: usize,
    changed: Vec<ChangedJob>,
}

/// Jobs compared between two looks at the clock.
const JOBS_PER_LOOK: usize = 2048;

impl JobComparison {
    /// A comparison of no job yet: [`JobComparison::advance`] starts at A's first job.
    pub fn new() -> JobComparison {
        JobComparison::default()
    }

    /// Compares jobs of `a` and `b` (the same sides at every call) until every job is done or
    /// `out_of_time()` says to stop (it is asked every few thousand jobs); true once done.
    pub fn advance(&mut self, a: &Side, b: &Side, out_of_time: &mut dyn FnMut() -> bool) -> bool {
        let (na, nb) = (a.jobs.len(), b.jobs.len());
        while self.next < na + nb {
            let end = (self.next + JOBS_PER_LOOK).min(na + nb);
            for k in self.next..end {
                if k < na {
                    self.job_of_a(a, b, k);
                } else if a.position(k - na, &b.jobs[k - na].job_name).is_none() {
                    let jb = &b.jobs[k - na];
                    self.added += 1;
                    self.changed.push(ChangedJob {
                        job_name: jb.job_name.clone(),
                        change: "added",
                        a: None,
                        b: Some(fate(jb)),
                        description: "only in B".into(),
                    });
                }
            }
            self.next = end;
            if self.next < na + nb && out_of_time() {
                return false;
            }
        }
        true
    }

    fn job_of_a(&mut self, a: &Side, b: &Side, k: usize) {
        let ja = &a.jobs[k];
        match b.position(k, &ja.job_name) {
            Some(i) if same_fate(ja, &b.jobs[i]) => {}
            Some(i) => {
                let (fa, fb) = (fate(ja), fate(&b.jobs[i]));
                let description = describe(&fa, &fb);
                self.changed.push(ChangedJob {
                    job_name: ja.job_name.clone(),
                    change: "changed",
                    a: Some(fa),
                    b: Some(fb),
                    description,
                });
            }
            None => {
                self.removed += 1;
                self.changed.push(ChangedJob {
                    job_name: ja.job_name.clone(),
                    change: "removed",
                    a: Some(fate(ja)),
                    b: None,
                    description: "only in A".into(),
                });
            }
        }
    }

    /// How far the comparison of `a` and `b` is, from 0 to 1.
    pub fn progress(&self, a: &Side, b: &Side) -> f64 {
        let n = a.jobs.len() + b.jobs.len();
        if n == 0 {
            1.0
        } else {
            self.next as f64 / n as f64
        }
    }

    /// The comparison of `a` and `b` (once [`JobComparison::advance`] is done): both summaries,
    /// the deltas, what the sides do not share and the jobs listed. `changes` says what made B.
    pub fn finish(self, a: &Side, b: &Side, changes: Vec<String>) -> Comparison {
        let summary =
            |s: &Side| SummaryResult { format_version: 1, ended_at: s.ended_at, summary: s.summary.clone() };
        let mut differences = Vec::new();
        let mut per = Vec::new();
        for (name, ma) in &a.summary.per_quota_share {
            match b.summary.per_quota_share.iter().find(|(n, _)| n == name) {
                Some((_, mb)) => {
                    let va = serde_json::to_value(ma).unwrap_or(Value::Null);
                    let vb = serde_json::to_value(mb).unwrap_or(Value::Null);
                    per.push((name.clone(), delta_of(&va, &vb)));
                }
                None => differences.push(format!("quota share {name} is only in A")),
            }
        }
        for (name, _) in &b.summary.per_quota_share {
            if !a.summary.per_quota_share.iter().any(|(n, _)| n == name) {
                differences.push(format!("quota share {name} is only in B"));
            }
        }
        let overall = delta_of(
            &serde_json::to_value(&a.summary.overall).unwrap_or(Value::Null),
            &serde_json::to_value(&b.summary.overall).unwrap_or(Value::Null),
        );
        let (removed, added) = (self.removed, self.added);
        if removed > 0 || added > 0 {
            differences.push(format!("the job lists differ: {removed} jobs only in A, {added} only in B"));
        }
        Comparison {
            format_version: 1,
            a: summary(a),
            b: summary(b),
            changes,
            differences,
            delta: Delta { per_quota_share: per, overall, ended_at: b.ended_at as i64 - a.ended_at as i64 },
            changed_jobs: self.changed,
        }
    }
}

/// Compares two sides at once: `changes` says what made B.
pub fn compare_sides(a: &Side, b: &Side, changes: Vec<String>) -> Comparison {
    let mut jobs = JobComparison::new();
    while !jobs.advance(a, b, &mut || false) {}
    jobs.finish(a, b, changes)
}

/// Compares two full results: `changes` says what made B.
pub fn compare(a: &SimResult, b: &SimResult, changes: Vec<String>) -> Comparison {
    let (ia, ib) = (NameIndex::of(&a.jobs, result_name), NameIndex::of(&b.jobs, result_name));
    let find_a = |n: &str| ia.get(n).map(|i| i as usize);
    let find_b = |n: &str| ib.get(n).map(|i| i as usize);
    compare_sides(&Side::of(a, &find_a), &Side::of(b, &find_b), changes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::change::{apply_changes, Change};
    use crate::json::parse_scenario;
    use crate::{validate, Simulation};

    const NOTEBOOK: &str = include_str!("../../../tests/fixtures/notebook.json");

    fn run(changes: &[&str]) -> SimResult {
        let s = parse_scenario(NOTEBOOK).unwrap();
        let cs: Vec<Change> = changes.iter().map(|c| Change::parse(c).unwrap()).collect();
        let mut sim = Simulation::new(validate(&apply_changes(&s, &cs).unwrap()).unwrap());
        sim.run();
        sim.result()
    }

    #[test]
    fn a_run_compared_with_itself_has_zero_deltas_and_no_changed_jobs() {
        let a = run(&[]);
        let c = compare(&a, &a, Vec::new());
        assert!(c.changed_jobs.is_empty());
        assert!(c.differences.is_empty());
        assert_eq!(c.delta.ended_at, 0);
        let all =
            c.delta.overall.values().chain(c.delta.per_quota_share.iter().flat_map(|(_, m)| m.values()));
        for v in all {
            assert!(v.is_null() || v.as_f64() == Some(0.0), "{v}");
        }
    }

    #[test]
    fn in_share_preemption_disabled_spares_the_priority_3_job() {
        let a = run(&[]);
        let b = run(&["quotaShares[qs1].preemptionConfiguration.inSharePreemption=DISABLED"]);
        let c = compare(&a, &b, alloc::vec!["in-share off".into()]);
        let high =
            c.changed_jobs.iter().find(|j| j.job_name == "qs1_job_high").expect("qs1_job_high changed");
        assert!(high.description.contains("no longer preempted"), "{}", high.description);
        let qs1 = &c.delta.per_quota_share.iter().find(|(n, _)| n == "qs1").unwrap().1;
        assert_eq!(qs1["preemptions.inShare"], Value::from(-1.0));
        assert_eq!(
            c.b,
            SummaryResult { format_version: 1, ended_at: b.ended_at, summary: b.summary.clone() }
        );
    }

    #[test]
    fn descriptions_say_what_changed_in_a_line() {
        let f = |status, start: Option<u64>, pre, lost, reason: Option<&str>| Fate {
            quota_share_name: "s".into(),
            status: Some(status),
            status_reason: reason.map(String::from),
            first_started_at: start,
            wait_seconds: start,
            preemptions: pre,
            lost_work_seconds: lost,
        };
        use Status::*;
        let a = f(Succeeded, Some(0), 1, 600, None);
        assert_eq!(
            describe(&a, &f(Succeeded, Some(2520), 0, 0, None)),
            "starts 42 min later; no longer preempted; loses 10 min less work"
        );
        assert_eq!(
            describe(&a, &f(Failed, Some(0), 2, 600, Some("Preemption retry limit reached: x"))),
            "fails: retry limit; preempted once more"
        );
        assert_eq!(
            describe(&f(Failed, None, 0, 0, Some("manual")), &f(Succeeded, Some(5), 0, 0, None)),
            "now succeeds; now starts"
        );
        assert_eq!(human_duration(45), "45 s");
        assert_eq!(human_duration(3 * 3600 + 1800), "3.5 h");
    }

    /// The comparison as it was first written (fates made for every job, B's names sorted and
    /// searched): what [`compare`] must still give.
    fn compare_as_before(a: &SimResult, b: &SimResult, changes: Vec<String>) -> Comparison {
        let mut c = compare_sides(&Side::of(a, &|_| None), &Side::of(b, &|_| None), changes);
        let mut b_names: Vec<(&str, usize)> =
            b.jobs.iter().enumerate().map(|(i, j)| (j.job_name.as_str(), i)).collect();
        b_names.sort_unstable();
        let find_b = |n: &str| b_names.binary_search_by(|(x, _)| (*x).cmp(n)).ok().map(|k| b_names[k].1);
        let mut a_names: Vec<&str> = a.jobs.iter().map(|j| j.job_name.as_str()).collect();
        a_names.sort_unstable();
        let mut changed_jobs = Vec::new();
        let (mut removed, mut added) = (0, 0);
        for ja in &a.jobs {
            match find_b(&ja.job_name) {
                Some(i) => {
                    let (fa, fb) = (fate(ja), fate(&b.jobs[i]));
                    let same = fa.status == fb.status
                        && fa.first_started_at == fb.first_started_at
                        && fa.preemptions == fb.preemptions
                        && fa.lost_work_seconds == fb.lost_work_seconds;
                    if !same {
                        let description = describe(&fa, &fb);
                        changed_jobs.push(ChangedJob {
                            job_name: ja.job_name.clone(),
                            change: "changed",
                            a: Some(fa),
                            b: Some(fb),
                            description,
                        });
                    }
                }
                None => {
                    removed += 1;
                    changed_jobs.push(ChangedJob {
                        job_name: ja.job_name.clone(),
                        change: "removed",
                        a: Some(fate(ja)),
                        b: None,
                        description: "only in A".into(),
                    });
                }
            }
        }
        for jb in &b.jobs {
            if a_names.binary_search(&jb.job_name.as_str()).is_err() {
                added += 1;
                changed_jobs.push(ChangedJob {
                    job_name: jb.job_name.clone(),
                    change: "added",
                    a: None,
                    b: Some(fate(jb)),
                    description: "only in B".into(),
                });
            }
        }
        c.differences.retain(|d| !d.starts_with("the job lists differ"));
        if removed > 0 || added > 0 {
            c.differences.push(format!("the job lists differ: {removed} jobs only in A, {added} only in B"));
        }
        c.changed_jobs = changed_jobs;
        c
    }

    /// Runs of generated scenarios, each with a change of policy or of its jobs.
    fn varied_pairs() -> Vec<(SimResult, SimResult)> {
        use crate::generate::{generate, GenerateOptions};
        let run_of = |s: &crate::model::Scenario| {
            let mut sim = Simulation::new(validate(s).unwrap());
            sim.run();
            sim.result()
        };
        let mut out = Vec::new();
        for seed in 0..4 {
            let s = generate(&GenerateOptions::new(300, 4, 2, seed));
            let a = run_of(&s);
            let changes: [&[&str]; 4] = [
                &["quotaShares[team-00].resourceSharingConfiguration.strategy=RESERVE"],
                &[
                    "settings.preemptionGraceSeconds=600",
                    "quotaShares[*].preemptionConfiguration.inSharePreemption=DISABLED",
                ],
                &["quotaShares[team-01].capacityLimits[*].maxCapacity=1"],
                &[],
            ];
            for cs in changes {
                let cs: Vec<Change> = cs.iter().map(|c| Change::parse(c).unwrap()).collect();
                let mut t = apply_changes(&s, &cs).unwrap();
                if cs.is_empty() {
                    // The job list itself: one removed, one added, the rest in another order.
                    t.jobs.remove(seed as usize * 7);
                    t.jobs[3].job_name = "renamed".into();
                    t.jobs.reverse();
                }
                out.push((a.clone(), run_of(&t)));
            }
        }
        out
    }

    #[test]
    fn comparisons_are_what_they_were_whatever_the_slices() {
        for (a, b) in varied_pairs() {
            for (a, b) in [(&a, &b), (&b, &a)] {
                let c = compare(a, b, alloc::vec!["x".into()]);
                assert_eq!(c, compare_as_before(a, b, alloc::vec!["x".into()]));
                assert!(!c.changed_jobs.is_empty());
                // The smallest slices there are: stop at every look at the clock.
                let (ia, ib) = (NameIndex::of(&a.jobs, result_name), NameIndex::of(&b.jobs, result_name));
                let find_a = |n: &str| ia.get(n).map(|i| i as usize);
                let find_b = |n: &str| ib.get(n).map(|i| i as usize);
                let (sa, sb) = (Side::of(a, &find_a), Side::of(b, &find_b));
                assert_eq!(sliced(&sa, &sb), c);
            }
        }
    }

    /// [`compare_sides`] in the smallest slices there are: a stop at every look at the clock.
    fn sliced(a: &Side, b: &Side) -> Comparison {
        let mut jobs = JobComparison::new();
        let mut last = 0.0;
        while !jobs.advance(a, b, &mut || true) {
            assert!(jobs.progress(a, b) > last, "progress only grows");
            last = jobs.progress(a, b);
        }
        assert_eq!(jobs.progress(a, b), 1.0);
        jobs.finish(a, b, alloc::vec!["x".into()])
    }

    /// `n` synthetic job results, every fifth one preempted once.
    fn results(n: usize) -> SimResult {
        let mut r = run(&[]);
        let proto = r.jobs[0].clone();
        r.jobs = (0..n)
            .map(|i| {
                let mut j = proto.clone();
                j.job_name = format!("job-{i:06}");
                j.first_started_at = Some(i as u64);
                j.preemption_summary.preempted_attempt_count = u32::from(i % 5 == 0);
                j
            })
            .collect();
        r
    }

    #[test]
    fn a_comparison_of_100000_jobs_looks_each_up_at_most_once_and_lists_only_the_changed() {
        let n = 100_000;
        let a = results(n);
        let mut b = a.clone();
        for k in [10, 20_000, 99_999] {
            b.jobs[k].first_started_at = Some(k as u64 + 3600);
        }
        let lookups = core::cell::Cell::new(0);
        let (ia, ib) = (NameIndex::of(&a.jobs, result_name), NameIndex::of(&b.jobs, result_name));
        let find_a = |x: &str| {
            lookups.set(lookups.get() + 1);
            ia.get(x).map(|i| i as usize)
        };
        let find_b = |x: &str| {
            lookups.set(lookups.get() + 1);
            ib.get(x).map(|i| i as usize)
        };
        // The same order on both sides: every job is where it was, nothing is looked up.
        let c = compare_sides(&Side::of(&a, &find_a), &Side::of(&b, &find_b), Vec::new());
        assert_eq!(lookups.get(), 0);
        let names: Vec<&str> = c.changed_jobs.iter().map(|j| j.job_name.as_str()).collect();
        assert_eq!(names, ["job-000010", "job-020000", "job-099999"]);
        assert!(c.changed_jobs.iter().all(|j| j.description == "starts 60 min later"));
        // Another order: each job of each side is looked up once in the other.
        b.jobs.reverse();
        let ib = NameIndex::of(&b.jobs, result_name);
        let find_b = |x: &str| {
            lookups.set(lookups.get() + 1);
            ib.get(x).map(|i| i as usize)
        };
        let (sa, sb) = (Side::of(&a, &find_a), Side::of(&b, &find_b));
        let d = compare_sides(&sa, &sb, Vec::new());
        assert_eq!(d.changed_jobs, c.changed_jobs);
        assert!(lookups.get() <= 2 * n, "{} lookups", lookups.get());
        assert!(ib.probes() + ia.probes() <= 10 * n, "a few probes a lookup");
        let e = sliced(&sa, &sb);
        assert_eq!((e.changed_jobs, e.delta), (d.changed_jobs, d.delta), "slices change nothing");
    }

    #[test]
    fn jobs_are_matched_by_name_and_one_sided_ones_listed() {
        let a = run(&[]);
        let mut b = a.clone();
        b.jobs.reverse();
        assert!(compare(&a, &b, Vec::new()).changed_jobs.is_empty(), "order does not matter");
        b.jobs[0].job_name = "renamed".into();
        let c = compare(&a, &b, Vec::new());
        let kinds: Vec<&str> = c.changed_jobs.iter().map(|j| j.change).collect();
        assert_eq!(kinds, alloc::vec!["removed", "added"]);
        assert!(
            c.differences.iter().any(|d| d.contains("1 jobs only in A, 1 only in B")),
            "{:?}",
            c.differences
        );
    }
}
