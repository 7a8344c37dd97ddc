//! The fixed catalogue of single changes `why` tries, in this order:
//!
//! 1. `priority`: the job's `schedulingPriority`, raised. Only the order among jobs counts
//!    (R11, R19, R20), so the values are each other job's priority above the job's (and its
//!    `updateServiceJob` priorities) and one more than each: equal to a job (ties by
//!    `submitAt`) or ahead of it; up to 9999.
//! 2. `borrowLimit`: its share's `borrowLimit`, up then down the ladder
//!    0 < 25 < 50 < 100 < 200 < 400 < unlimited (-1); only for a `LEND_AND_BORROW` share.
//! 3. `strategy`: its share's `resourceSharingConfiguration`, each other strategy, written as
//!    the whole object (`{"strategy":"LEND"}`: a `borrowLimit` is valid only with
//!    `LEND_AND_BORROW`, and a new `LEND_AND_BORROW` borrows without limit).
//! 4. `quota`: its share's `maxCapacity` for the job's instance type, up (to the service
//!    environment's limit, or the job's count when larger) then down (to 1), one instance a step.
//! 5. `inSharePreemption`: its share's, switched.
//! 6. `lenderStrategy`, `lenderQuota`: the same for each lender: for a cross-share preemption
//!    the preemptor's share; for a wait every other share with a quota of the job's type, in
//!    input order. An in-share preemption or a lowered limit involves no lender.
//! 7. `gracePeriod`: `settings.preemptionGraceSeconds`, up then down the ladder
//!    0, 30, 60, 120, 300, 600, 1800, 3600 (the current value in its place).
//! 8. `submitAt` (a wait only): the job's submission, earlier, one second a step, from the
//!    latest instant that can reach the target (it cannot start before it is submitted) down
//!    to the run's start.
//! 9. `instanceCount`: the job's count, fewer, one a step down to 1 (`instanceCount`, or its
//!    payload's `InstanceCount` when the job gives it there).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Value};

use super::options::Target;
use super::report::{EventKind, WhyEvent};
use crate::model::{Scenario, Strategy};
use crate::result::PreemptionKind;
use crate::scenario::{ActionCfg, ValidScenario};

/// The borrow-limit ladder, least to most borrowing (-1, unlimited, last).
pub const BORROW_LADDER: [i64; 7] = [0, 25, 50, 100, 200, 400, -1];
/// The grace-period ladder, in seconds.
pub const GRACE_LADDER: [i64; 8] = [0, 30, 60, 120, 300, 600, 1800, 3600];
/// The highest `schedulingPriority` (R5).
pub const MAX_PRIORITY: i64 = 9999;

/// The values of a numeric field to try, nearest to the current value first.
#[derive(Clone, Debug, PartialEq)]
pub enum Ladder {
    /// These values, nearest first.
    List(Vec<i64>),
    /// Every integer from `from` to `to`, both included, one a step.
    Range {
        /// The first value tried, the nearest to the current one.
        from: i64,
        /// The last value tried, the farthest.
        to: i64,
    },
}

impl Ladder {
    /// How many values the ladder has.
    pub fn len(&self) -> u64 {
        match self {
            Ladder::List(v) => v.len() as u64,
            Ladder::Range { from, to } => from.abs_diff(*to) + 1,
        }
    }

    /// Whether the ladder has no value.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The `i`-th value from the nearest.
    pub fn at(&self, i: u64) -> i64 {
        match self {
            Ladder::List(v) => v[i as usize],
            Ladder::Range { from, to } if to >= from => from + i as i64,
            Ladder::Range { from, .. } => from - i as i64,
        }
    }
}

/// How an entry is tried.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// A numeric field, searched along `ladder` in one direction (`up`, `down`, `earlier`,
    /// `fewer`).
    Ladder {
        /// `up`, `down`, `earlier` or `fewer`.
        direction: &'static str,
        /// The values, nearest to the current one first.
        ladder: Ladder,
    },
    /// One value, tried once.
    Choice(Value),
    /// Not tried, and why.
    NotApplicable(String),
}

/// One entry of the catalogue, for this event.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The catalogue's name for it (`priority`, `borrowLimit`, ...).
    pub name: &'static str,
    /// The path it changes (`--set` grammar).
    pub path: String,
    /// For a numeric field, the direction searched (`up`, `down`, `earlier`, `fewer`).
    pub direction: Option<&'static str>,
    /// How it is tried: along a ladder, once with one value, or not at all (and why).
    pub kind: Kind,
}

fn entry(name: &'static str, path: String, kind: Kind) -> Entry {
    let direction = match &kind {
        Kind::Ladder { direction, .. } => Some(*direction),
        _ => None,
    };
    Entry { name, path, direction, kind }
}

fn na(name: &'static str, path: String, why: String) -> Entry {
    entry(name, path, Kind::NotApplicable(why))
}

/// A ladder entry, or not applicable with `empty` when it has no value.
fn ladder(name: &'static str, path: &str, direction: &'static str, l: Ladder, empty: &str) -> Entry {
    if l.is_empty() {
        Entry { direction: Some(direction), ..na(name, path.into(), empty.into()) }
    } else {
        entry(name, path.into(), Kind::Ladder { direction, ladder: l })
    }
}

/// Values of a fixed ladder above and below `current` (which may be off the ladder), each
/// nearest first; `rank` orders values (unlimited as the largest).
fn around(ladder: &[i64], current: i64, rank: impl Fn(i64) -> i128) -> (Vec<i64>, Vec<i64>) {
    let c = rank(current);
    let up = ladder.iter().copied().filter(|v| rank(*v) > c).collect();
    let mut down: Vec<i64> = ladder.iter().copied().filter(|v| rank(*v) < c).collect();
    down.reverse();
    (up, down)
}

fn borrow_rank(v: i64) -> i128 {
    if v < 0 {
        i128::MAX
    } else {
        v as i128
    }
}

const STRATEGIES: [Strategy; 3] = [Strategy::Reserve, Strategy::Lend, Strategy::LendAndBorrow];

/// Every entry for the event, in the catalogue's order.
pub fn catalogue(
    v: &ValidScenario,
    base: &Scenario,
    job: usize,
    event: &WhyEvent,
    target: Target,
) -> Vec<Entry> {
    let j = &v.jobs[job];
    let sh = &v.shares[j.share.index()];
    let ty = j.ty.index();
    let share_path = format!("quotaShares[{}]", sh.name);
    let job_path = format!("jobs[{}]", j.name);
    let mut out = Vec::new();

    // 1. Priority.
    out.push(priority(v, job, &job_path));

    // 2. Borrow limit.
    let path = format!("{share_path}.resourceSharingConfiguration.borrowLimit");
    if sh.strategy == Strategy::LendAndBorrow {
        let cur = sh.borrow_limit.to_format();
        let (up, down) = around(&BORROW_LADDER, cur, borrow_rank);
        out.push(ladder("borrowLimit", &path, "up", Ladder::List(up), "already unlimited (-1)"));
        out.push(ladder("borrowLimit", &path, "down", Ladder::List(down), "already 0"));
    } else {
        out.push(na(
            "borrowLimit",
            path,
            format!(
                "{} is {}: a borrow limit needs LEND_AND_BORROW (the strategy entry tries it)",
                sh.name,
                sh.strategy.as_str()
            ),
        ));
    }

    // 3. Strategy.
    strategies(&mut out, "strategy", &share_path, sh.strategy);

    // 4. Quota for the job's type.
    quotas(&mut out, "quota", v, j.share.index(), ty, j.count);

    // 5. In-share preemption.
    let path = format!("{share_path}.preemptionConfiguration.inSharePreemption");
    let other = if sh.in_share_preemption { "DISABLED" } else { "ENABLED" };
    out.push(entry("inSharePreemption", path, Kind::Choice(Value::String(other.into()))));

    // 6. Lenders.
    lenders(&mut out, v, job, event);

    // 7. Grace period.
    let path = "settings.preemptionGraceSeconds";
    let g = v.settings.grace as i64;
    let (up, down) = around(&GRACE_LADDER, g, |x| x as i128);
    out.push(ladder("gracePeriod", path, "up", Ladder::List(up), "already at the ladder's top (3600 s)"));
    out.push(ladder("gracePeriod", path, "down", Ladder::List(down), "already 0"));

    // 8. Submit time, for a wait.
    out.push(submit_at(v, job, &job_path, event, target));

    // 9. Instance count.
    let payload =
        base.jobs.get(job).and_then(|m| m.service_request_payload.as_ref()).and_then(|p| p.instance_count);
    let path = match payload {
        Some(_) => format!("{job_path}.serviceRequestPayload.ResourceConfig.InstanceCount"),
        None => format!("{job_path}.instanceCount"),
    };
    let n = j.count as i64;
    out.push(ladder(
        "instanceCount",
        &path,
        "fewer",
        if n > 1 { Ladder::Range { from: n - 1, to: 1 } } else { Ladder::List(Vec::new()) },
        "already one instance",
    ));
    out
}

/// The priority entry: every priority just at or above another job's, up to the highest.
fn priority(v: &ValidScenario, job: usize, job_path: &str) -> Entry {
    let j = &v.jobs[job];
    let path = format!("{job_path}.schedulingPriority");
    let cur = i64::from(j.priority);
    let mut others: Vec<i64> =
        v.jobs.iter().enumerate().filter(|(i, _)| *i != job).map(|(_, o)| i64::from(o.priority)).collect();
    for (_, a) in &v.actions {
        if let ActionCfg::UpdatePriority { job: k, priority } = a {
            if k.index() != job {
                others.push(i64::from(*priority));
            }
        }
    }
    let mut values: Vec<i64> = others
        .iter()
        .filter(|q| **q >= cur)
        .flat_map(|q| [*q, q + 1])
        .filter(|x| *x > cur && *x <= MAX_PRIORITY)
        .collect();
    values.sort_unstable();
    values.dedup();
    if cur >= MAX_PRIORITY {
        na("priority", path, format!("already {MAX_PRIORITY}, the highest"))
    } else {
        ladder(
            "priority",
            &path,
            "up",
            Ladder::List(values),
            "already above every other job's priority: a higher one changes no order (R11, R19, R20)",
        )
    }
}

/// The lenders' entries: the strategies and quotas of the shares whose capacity the job
/// waited for or was reclaimed for, or why there are none.
fn lenders(out: &mut Vec<Entry>, v: &ValidScenario, job: usize, event: &WhyEvent) {
    let j = &v.jobs[job];
    let ty = j.ty.index();
    let type_name = &v.types[ty].name;
    let lender_path = String::from("quotaShares[*]");
    let kind = event.preemption.as_ref().and_then(|p| {
        [PreemptionKind::CrossShare, PreemptionKind::InShare, PreemptionKind::CapacityReduced]
            .into_iter()
            .find(|k| k.reason() == p.reason)
    });
    let lenders: Result<Vec<usize>, String> = match (event.kind, kind) {
        (EventKind::Wait, _) => Ok((0..v.shares.len())
            .filter(|s| *s != j.share.index() && v.shares[*s].quota.get(ty).is_some_and(|q| *q > 0))
            .collect()),
        (_, Some(PreemptionKind::CrossShare)) => {
            let p = event.preemption.as_ref().and_then(|p| p.preempted_by_quota_share.as_deref());
            match p.and_then(|n| v.shares.iter().position(|s| s.name == n)) {
                Some(s) if s != j.share.index() => Ok(alloc::vec![s]),
                _ => Err("the preemptor's share is not known".into()),
            }
        }
        (_, Some(PreemptionKind::InShare)) => {
            Err("an in-share preemption (R20) involves no other share".into())
        }
        _ => Err("a lowered limit (R22, R23) preempted it: no lender involved".into()),
    };
    match lenders {
        Ok(ls) if ls.is_empty() => {
            let why = format!("no other share has a quota of {type_name}");
            out.push(na("lenderStrategy", lender_path.clone(), why.clone()));
            out.push(na("lenderQuota", lender_path, why));
        }
        Ok(ls) => {
            for s in ls {
                let p = format!("quotaShares[{}]", v.shares[s].name);
                strategies(out, "lenderStrategy", &p, v.shares[s].strategy);
                quotas(out, "lenderQuota", v, s, ty, 0);
            }
        }
        Err(why) => {
            out.push(na("lenderStrategy", lender_path.clone(), why.clone()));
            out.push(na("lenderQuota", lender_path, why));
        }
    }
}

/// The submit-time entry: earlier, down to the run's start, for a wait.
fn submit_at(v: &ValidScenario, job: usize, job_path: &str, event: &WhyEvent, target: Target) -> Entry {
    let j = &v.jobs[job];
    let path = format!("{job_path}.submitAt");
    let start = v.settings.start_at as i64;
    let submit = j.submit_at as i64;
    let submit_entry = match (event.kind, target) {
        (EventKind::Preemption, _) => na("submitAt", path, "only for a wait".into()),
        _ if submit <= start => na(
            "submitAt",
            path,
            "submitted at or before the run's start (startAt): it cannot be earlier".into(),
        ),
        (_, Target::StartBy { latest }) => {
            let from = (submit - 1).min(latest as i64);
            if from < start {
                na("submitAt", path, "no submission after the run's start can reach the target".into())
            } else {
                entry(
                    "submitAt",
                    path,
                    Kind::Ladder { direction: "earlier", ladder: Ladder::Range { from, to: start } },
                )
            }
        }
        _ => entry(
            "submitAt",
            path,
            Kind::Ladder { direction: "earlier", ladder: Ladder::Range { from: submit - 1, to: start } },
        ),
    };
    Entry { direction: Some("earlier"), ..submit_entry }
}

/// The other strategies of a share, as whole objects.
fn strategies(out: &mut Vec<Entry>, name: &'static str, share_path: &str, cur: Strategy) {
    let path = format!("{share_path}.resourceSharingConfiguration");
    for s in STRATEGIES {
        if s != cur {
            out.push(entry(name, path.clone(), Kind::Choice(json!({ "strategy": s.as_str() }))));
        }
    }
}

/// A share's quota of type `ty`, up then down, one instance a step: up to the service
/// environment's limit (or `count`, when larger), down to 1.
fn quotas(out: &mut Vec<Entry>, name: &'static str, v: &ValidScenario, share: usize, ty: usize, count: u64) {
    let sh = &v.shares[share];
    let path = format!("quotaShares[{}].capacityLimits[{}].maxCapacity", sh.name, v.types[ty].name);
    let q = sh.quota.get(ty).copied().unwrap_or(0) as i64;
    let top = (v.capacity.get(ty).copied().flatten().unwrap_or(0).max(count)) as i64;
    let up = if top > q { Ladder::Range { from: q + 1, to: top } } else { Ladder::List(Vec::new()) };
    out.push(ladder(
        name,
        &path,
        "up",
        up,
        "already at the service environment's limit for its type (or the job's count)",
    ));
    let down = if q > 1 { Ladder::Range { from: q - 1, to: 1 } } else { Ladder::List(Vec::new()) };
    out.push(ladder(name, &path, "down", down, "already 1 or none (a quota is at least 1)"));
}
