//! A change's side effects, from the comparison code ([`crate::compare`]): the job's own
//! change first, then the other jobs it harms, then the affected shares' wait p95 and lost
//! GPU-hours.
//!
//! Another job is *harmed* when it waits at least [`HARM_WAIT_SECONDS`] longer (or no longer
//! starts), is preempted more often, loses more work, or ends in a worse status (`SUCCEEDED`
//! better than unfinished, unfinished better than `FAILED`). The worst harm is, in this order,
//! a worse status, the longest extra wait, the most extra preemptions, the most extra lost work.
//! A share is *affected* when its wait p95 or lost GPU-hours changed, or it holds the job or a
//! harmed job.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::options::{texts, HARM_WAIT_SECONDS};
use super::report::{Found, Harm, Harmed, JobChange, ShareEffect};
use super::runner::Runner;
use crate::change::Change;
use crate::compare::{compare, human_duration, Fate};
use crate::result::{SimResult, Status};

fn rank(s: Option<Status>) -> u8 {
    match s {
        Some(Status::Succeeded) => 2,
        Some(Status::Failed) => 0,
        _ => 1,
    }
}

/// How much worse `b` is than `a` for a job, most serious first; `None` when not harmed.
fn harm(a: &Fate, b: &Fate) -> Option<(bool, u64, u32, u64)> {
    let status = rank(b.status) < rank(a.status);
    let wait = match (a.wait_seconds, b.wait_seconds) {
        (Some(x), Some(y)) if y >= x + HARM_WAIT_SECONDS => y - x,
        (Some(_), None) => u64::MAX,
        _ => 0,
    };
    let pre = b.preemptions.saturating_sub(a.preemptions);
    let lost = b.lost_work_seconds.saturating_sub(a.lost_work_seconds);
    (status || wait > 0 || pre > 0 || lost > 0).then_some((status, wait, pre, lost))
}

/// The worst harm to `name`, in words: `research-7 waits 42 min longer`.
fn words(name: &str, description: &str, h: (bool, u64, u32, u64)) -> String {
    match h {
        (true, ..) => format!("{name} {}", description.split("; ").next().unwrap_or(description)),
        (_, u64::MAX, ..) => format!("{name} never starts"),
        (_, w, ..) if w > 0 => format!("{name} waits {} longer", human_duration(w)),
        (_, _, 1, _) => format!("{name} is preempted once more"),
        (_, _, p, _) if p > 0 => format!("{name} is preempted {p} more times"),
        (.., l) => format!("{name} loses {} more work", human_duration(l)),
    }
}

/// The side effects of the change `set`, whose run is `b`.
pub(crate) fn found(r: &Runner, set: Vec<Change>, entry: &'static str, b: &SimResult) -> Found {
    let set = texts(&set);
    let a = &r.baseline;
    let c = compare(a, b, set.clone());
    let (ja, jb) = (&a.jobs[r.job], &b.jobs[r.job]);
    let own = c.changed_jobs.iter().find(|x| x.job_name == ja.job_name);
    let mut description = own.map_or_else(String::new, |x| x.description.clone());
    match (ja.stopped_at, jb.stopped_at) {
        (Some(x), Some(y)) if y < x => {
            description.push_str(&format!("; finishes {} earlier", human_duration(x - y)))
        }
        (Some(x), Some(y)) if y > x => {
            description.push_str(&format!("; finishes {} later", human_duration(y - x)))
        }
        _ => {}
    }
    let description = description.trim_start_matches("; ").to_string();
    let job = JobChange {
        description,
        before: own.and_then(|x| x.a.clone()),
        after: own.and_then(|x| x.b.clone()),
        stopped_at_before: ja.stopped_at,
        stopped_at_after: jb.stopped_at,
    };
    let mut jobs = Vec::new();
    let mut worst: Option<((bool, u64, u32, u64), String)> = None;
    let mut shares_touched: Vec<&str> = alloc::vec![ja.quota_share_name.as_str()];
    for x in c.changed_jobs.iter().filter(|x| x.change == "changed" && x.job_name != ja.job_name) {
        let (Some(fa), Some(fb)) = (&x.a, &x.b) else { continue };
        let Some(h) = harm(fa, fb) else { continue };
        jobs.push(Harm { job_name: x.job_name.clone(), description: x.description.clone() });
        shares_touched.push(&fa.quota_share_name);
        if worst.as_ref().is_none_or(|(w, _)| h > *w) {
            worst = Some((h, words(&x.job_name, &x.description, h)));
        }
    }
    let mut shares = Vec::new();
    for (name, ma) in &a.summary.per_quota_share {
        let Some((_, mb)) = b.summary.per_quota_share.iter().find(|(n, _)| n == name) else { continue };
        let changed = ma.wait_seconds.p95 != mb.wait_seconds.p95 || ma.lost_gpu_hours != mb.lost_gpu_hours;
        if changed || shares_touched.contains(&name.as_str()) {
            shares.push(ShareEffect {
                quota_share_name: name.clone(),
                wait_p95_seconds_before: ma.wait_seconds.p95,
                wait_p95_seconds_after: mb.wait_seconds.p95,
                lost_gpu_hours_before: ma.lost_gpu_hours,
                lost_gpu_hours_after: mb.lost_gpu_hours,
            });
        }
    }
    Found {
        set,
        entry,
        job,
        harmed: Harmed { count: jobs.len() as u64, worst: worst.map(|(_, w)| w), jobs },
        shares,
    }
}
