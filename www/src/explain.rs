//! Explanations in words, with rule numbers: why a job was preempted, why a job waits.

use quotasim::model::Strategy;
use quotasim::reasons::{Misconfiguration, WaitAnalysis, WaitCause, WaitReason};
use quotasim::result::Snapshot;
use quotasim::scenario::{JobId, ShareId};
use quotasim::sim::PreemptionRecord;
use quotasim::{PreemptionKind, Simulation, Status};

use crate::geometry::{format_duration, format_time};

/// One candidate a preemption considered.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    pub rank: usize,
    pub job: String,
    pub share: String,
    pub priority: u32,
    /// Instances of its type it holds.
    pub instances: u64,
    pub dispatched_at: Option<u64>,
    pub chosen: bool,
}

/// A titled explanation: paragraphs of prose plus, for a preemption, the candidate list.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Explanation {
    pub title: String,
    pub kind: String,
    pub paragraphs: Vec<String>,
    pub candidates: Vec<Candidate>,
    pub rules: Vec<&'static str>,
}

fn strategy_words(s: Strategy) -> &'static str {
    match s {
        Strategy::Reserve => "RESERVE: never lends, never borrows",
        Strategy::Lend => "LEND: lends idle quota, never borrows",
        Strategy::LendAndBorrow => "LEND_AND_BORROW: lends idle quota and may borrow",
    }
}

fn share_use(snap: &Snapshot, share: &str, ty: &str) -> (u64, u64) {
    snap.shares
        .iter()
        .find(|u| u.quota_share_name == share && u.capacity_unit == ty)
        .map(|u| (u.usage, u.quota))
        .unwrap_or((0, 0))
}

/// Label of a preemption kind, for legends and titles.
pub fn kind_label(k: PreemptionKind) -> &'static str {
    match k {
        PreemptionKind::CrossShare => "Cross-share reclaim",
        PreemptionKind::InShare => "In-share priority",
        PreemptionKind::CapacityReduced => "Capacity limit reduced",
    }
}

/// Why `rec` happened. `at` is the simulation standing at the decision instant (victims still
/// hold their capacity during the grace period, so its snapshot shows the over-quota usage).
///
/// `end` is the whole run: it says whether the victim was dispatched again the instant its
/// grace ended (the preemption bought nothing, `preemptions.restartedAtOnce`).
pub fn preemption(
    rec: &PreemptionRecord,
    all: &[PreemptionRecord],
    at: &Simulation,
    end: &Simulation,
) -> Explanation {
    let sc = at.scenario();
    let vj = &sc.jobs[rec.victim.index()];
    let vshare = &sc.shares[vj.share.index()];
    let ty = &sc.types[vj.ty.index()].name;
    let snap = at.snapshot();
    let vprio = at.job_result(rec.victim).scheduling_priority;
    let t = format_time(rec.decided_at);
    let mut ex = Explanation {
        title: format!("{} was preempted at {t}", vj.name),
        kind: kind_label(rec.kind).to_string(),
        ..Explanation::default()
    };
    let (vu, vq) = share_use(&snap, &vshare.name, ty);
    match (rec.kind, rec.preemptor) {
        (PreemptionKind::CrossShare, Some(p)) => {
            let pj = &sc.jobs[p.index()];
            let psh = &sc.shares[pj.share.index()];
            let (pu, pq) = share_use(&snap, &psh.name, ty);
            ex.paragraphs.push(format!(
                "{} (share {}, priority {}) was at the front of {}'s queue and needed {} × {ty}. Its share \
                 used {pu} of its own quota of {pq}, so the job fit entirely within quota, but the capacity \
                 it needed was in use by other shares. A job that fits within its own quota reclaims \
                 capacity from over-quota jobs of other shares (R18, cross-share preemption).",
                pj.name,
                psh.name,
                at.job_result(p).scheduling_priority,
                psh.name,
                pj.count
            ));
            ex.paragraphs.push(format!(
                "{} held {vu} × {ty} against a quota of {vq}: {} instance(s) over quota, that is capacity \
                 borrowed from the lending pool (R13). Running jobs of over-quota shares are reclaim \
                 candidates, and each returns at most what its share is over quota (R19).",
                vshare.name,
                vu.saturating_sub(vq)
            ));
            ex.rules.extend(["R13", "R18", "R19", "R21"]);
        }
        (PreemptionKind::InShare, Some(p)) => {
            let pj = &sc.jobs[p.index()];
            let pprio = at.job_result(p).scheduling_priority;
            ex.paragraphs.push(format!(
                "{} (priority {pprio}) was at the front of {}'s queue and needed {} × {ty}, but it did not \
                 fit even after reclaim from other shares was considered. {} has in-share preemption \
                 ENABLED, so running jobs of the same share with a strictly lower priority became \
                 candidates (R20). {} had priority {vprio} < {pprio}.",
                pj.name, vshare.name, pj.count, vshare.name, vj.name
            ));
            ex.paragraphs.push(format!(
                "{} held {vu} × {ty} against its quota of {vq}. In-share victims return all their \
                 instances; they are added one at a time in R19 order until the job fits, then the set \
                 is made minimal.",
                vshare.name
            ));
            ex.rules.extend(["R16", "R19", "R20", "R21"]);
        }
        (_, Some(p)) => {
            let pj = &sc.jobs[p.index()];
            let psh = &sc.shares[pj.share.index()];
            ex.paragraphs.push(format!(
                "{} (share {}) fit within its own quota and reclaimed capacity (R18). {} was over quota \
                 because an update lowered its limit or its strategy (R22): it held {vu} × {ty} against a \
                 quota of {vq}, and such over-quota jobs are reclaim candidates with the reason 'Capacity \
                 limit reduced'.",
                pj.name, psh.name, vshare.name
            ));
            ex.rules.extend(["R18", "R19", "R22"]);
        }
        (_, None) => {
            let cap = snap
                .types
                .iter()
                .find(|x| x.capacity_unit == *ty)
                .and_then(|x| x.service_environment_capacity)
                .map_or_else(|| String::from("no limit"), |c| c.to_string());
            ex.paragraphs.push(format!(
                "The service environment's limit for {ty} was lowered to {cap} while more instances were in \
                 use (R23). Victims are chosen at once until usage fits: over-quota jobs first, then any \
                 job, each group in R19 order, as a minimal set. {} (share {}, priority {vprio}) was one \
                 of them.",
                vj.name, vshare.name
            ));
            ex.rules.extend(["R19", "R23"]);
        }
    }
    let ck = match vj.checkpoint_interval {
        Some(c) => format!("it checkpoints every {}", format_duration(c)),
        None => String::from("it does not checkpoint, so the whole attempt's training was lost"),
    };
    let fate = if at.job_result(rec.victim).status == Some(Status::Failed)
        || sc.jobs[rec.victim.index()].fails_at_preemption(rec.count)
    {
        String::from("then it ended FAILED: its preemption retry limit was reached (R7)")
    } else {
        format!("then it went back to RUNNABLE, keeping its submission time for ordering (R7); preempted attempts so far: {}", rec.count)
    };
    ex.paragraphs.push(format!(
        "{} was told to stop at {t} (Preemption Started) and kept its capacity for the grace period until {} \
         (R21); {fate}. Work lost: {} of training ({ck}; R8).",
        vj.name,
        format_time(rec.releases_at),
        format_duration(rec.lost)
    ));
    if let Some(text) = restarted_at_once(rec, end) {
        ex.paragraphs.push(text);
    }
    let chosen: Vec<JobId> = all
        .iter()
        .filter(|o| o.decided_at == rec.decided_at && o.preemptor == rec.preemptor)
        .map(|o| o.victim)
        .collect();
    for (k, &c) in rec.considered.iter().enumerate() {
        let cj = &sc.jobs[c.index()];
        let r = at.job_result(c);
        ex.candidates.push(Candidate {
            rank: k + 1,
            job: String::from(cj.name.as_str()),
            share: sc.shares[cj.share.index()].name.clone(),
            priority: r.scheduling_priority,
            instances: cj.count,
            dispatched_at: r
                .attempts
                .iter()
                .rev()
                .find(|a| a.started_at <= rec.decided_at)
                .map(|a| a.started_at),
            chosen: chosen.contains(&c),
        });
    }
    ex
}

/// When the victim was dispatched again the instant its grace ended: says so, and which jobs
/// the instances freed then went to, grouped by share (the preemptor marked).
fn restarted_at_once(rec: &PreemptionRecord, end: &Simulation) -> Option<String> {
    let dispatched = end.dispatched_at(rec.releases_at);
    if !dispatched.contains(&rec.victim) {
        return None;
    }
    let sc = end.scenario();
    let vj = &sc.jobs[rec.victim.index()];
    // Shares in order of their first job listed; at most four names each.
    let grouped = |jobs: &[JobId]| {
        let mut groups: Vec<(ShareId, Vec<String>)> = Vec::new();
        for &j in jobs {
            let jc = &sc.jobs[j.index()];
            let mut name = String::from(jc.name.as_str());
            if Some(j) == rec.preemptor {
                name.push_str(" (its preemptor)");
            }
            match groups.iter_mut().find(|g| g.0 == jc.share) {
                Some(g) => g.1.push(name),
                None => groups.push((jc.share, vec![name])),
            }
        }
        groups
            .iter()
            .map(|(s, names)| {
                let shown = names.iter().take(4).cloned().collect::<Vec<_>>().join(", ");
                let more = names.len().saturating_sub(4);
                let more = if more > 0 { format!(" and {more} more") } else { String::new() };
                format!("{shown}{more} ({})", sc.shares[s.index()].name)
            })
            .collect::<Vec<_>>()
            .join("; ")
    };
    let t = format_time(rec.releases_at);
    Some(format!(
        "{} started again at {t}, as soon as its grace period ended: the capacity came straight back \
         to its share, so the {} of training it lost bought nothing (the summary counts such \
         preemptions in preemptions.restartedAtOnce). Released at {t}: {}. Dispatched at {t}: {}.",
        vj.name,
        format_duration(rec.lost),
        grouped(&end.released_at(rec.releases_at)),
        grouped(&dispatched)
    ))
}

/// Why job `j` is where it is at the simulation's current instant (R17 reasons for waiting).
pub fn job_now(sim: &Simulation, j: JobId) -> Explanation {
    let sc = sim.scenario();
    let Some(jc) = sc.jobs.get(j.index()) else { return Explanation::default() };
    let share = &sc.shares[jc.share.index()];
    let ty = &sc.types[jc.ty.index()].name;
    let n = jc.count;
    let t = format_time(sim.now());
    let snap = sim.snapshot();
    let (u, q) = share_use(&snap, &share.name, ty);
    let tt = snap.types.iter().find(|x| x.capacity_unit == *ty);
    let status = sim.status_of(j);
    let reason = sim.status_reason(j).unwrap_or_default();
    let mut ex = Explanation {
        title: format!("{} at {t}", jc.name),
        kind: status.map_or("not submitted yet", |s| s.as_str()).to_string(),
        ..Explanation::default()
    };
    let head = format!(
        "{} belongs to {} ({}) and needs {n} × {ty}; {} holds {u} × {ty} now, against its own quota of {q}.",
        jc.name,
        share.name,
        strategy_words(share.strategy),
        share.name
    );
    match status {
        None => {
            ex.paragraphs.push(format!("{} is submitted at {}.", jc.name, format_time(jc.submit_at)));
            return ex;
        }
        Some(Status::Succeeded) => {
            ex.paragraphs.push(format!("{} finished its training and SUCCEEDED.", jc.name));
            return ex;
        }
        Some(Status::Failed) => {
            ex.paragraphs.push(format!("{} ended FAILED: {reason}.", jc.name));
            ex.rules.push("R7");
            return ex;
        }
        Some(s) if s.holds_capacity() => {
            if sim.is_being_preempted(j) {
                ex.paragraphs.push(format!(
                    "{} is being preempted ({reason}); it keeps its capacity until its grace period ends (R21).",
                    jc.name
                ));
                ex.rules.push("R21");
            } else {
                ex.paragraphs.push(format!("{} is {} and holds {n} × {ty}. {head}", jc.name, s.as_str()));
                // Borrowing is the share's amount at this instant (R13), not a property of the job.
                ex.paragraphs.push(if u > q {
                    format!(
                        "At {t} {} is borrowing {} × {ty} (its usage above its quota). Borrowing belongs to the share,                          not to one job: when one of its jobs ends, the rest fall back within its quota.",
                        share.name,
                        u - q
                    )
                } else {
                    format!("At {t} {} is within its quota: it is not borrowing.", share.name)
                });
                ex.rules.extend(["R6", "R13"]);
            }
            return ex;
        }
        _ => {}
    }
    // The engine's analysis of the wait, from the check the pass makes: the typed R17 reason
    // (its text is the spec's string), the numbers, and the in-share candidates.
    let an = sim.wait_analysis(j);
    let wait = an.reason.clone();
    ex.paragraphs.push(head);
    ex.paragraphs.push(format!("Its reason now: {wait}."));
    if let Some((pos, len)) = an.position {
        ex.paragraphs.push(format!(
            "It is number {pos} of {len} in {}'s queue (highest priority first, then earliest submission, then \
             input order; R11).",
            share.name
        ));
    }
    let facts = WaitFacts {
        ty,
        n,
        used: u,
        quota: q,
        free: tt.map_or(0, |x| x.free),
        pool: tt.map_or(0, |x| x.pool_available),
        capacity: tt.and_then(|x| x.service_environment_capacity),
        share: &share.name,
        strategy: share.strategy,
        borrow_limit: share.borrow_limit.to_format(),
    };
    let (msg, rules) = waiting_words(&wait, &facts);
    ex.rules.extend(rules);
    ex.paragraphs.push(msg);
    for (para, rules) in what_limits(sim, j, &an, &snap) {
        ex.paragraphs.push(para);
        for r in rules {
            if !ex.rules.contains(r) {
                ex.rules.push(r);
            }
        }
    }
    ex
}

/// What the user could change for a front job that waits, from the engine's analysis: the
/// setting that stops it, or who holds the capacity it needs. Each sentence is stated only
/// when the analysis says it is true now.
fn what_limits(
    sim: &Simulation,
    j: JobId,
    an: &WaitAnalysis,
    snap: &Snapshot,
) -> Vec<(String, &'static [&'static str])> {
    let mut out: Vec<(String, &'static [&'static str])> = Vec::new();
    let sc = sim.scenario();
    let jc = &sc.jobs[j.index()];
    let (s, t, n) = (jc.share, jc.ty, jc.count);
    let share = &sc.shares[s.index()].name;
    let ty = &sc.types[t.index()].name;
    let (u, q) = (an.usage, an.quota);
    match an.cause {
        WaitCause::BorrowLimit => {
            if let Some(a) = an.allowance {
                out.push((
                    format!(
                        "What limits it: {share}'s borrowLimit, which lets it use at most {a} × {ty} above its \
                         quota ({} in all); with this job it would use {}. A higher borrowLimit (or -1, \
                         unlimited) lifts this limit (R14).",
                        q + a,
                        u + n
                    ),
                    &["R14"],
                ))
            }
        }
        WaitCause::CannotBorrow | WaitCause::QuotaUsed if an.strategy != Strategy::LendAndBorrow => {
            let idle = if an.pool > 0 {
                format!(
                    " Lending shares have {} idle {ty} now, which only a LEND_AND_BORROW share may borrow.",
                    an.pool
                )
            } else {
                String::new()
            };
            out.push((
                format!(
                    "What limits it: {share}'s strategy {} never borrows, so it runs only on its own quota of \
                     {q}.{idle} (R4, R14)",
                    an.strategy.as_str()
                ),
                &["R4", "R14"],
            ));
        }
        WaitCause::LimitLowered => out.push((
            format!(
                "What limits it: {share}'s quota or borrow limit for {ty} was lowered below what it uses ({u} \
                 against a quota of {q}); its jobs above it may be reclaimed, and it waits until the share is \
                 back within its quota (R22)."
            ),
            &["R22"],
        )),
        WaitCause::Pool => {
            let borrowers: Vec<String> = snap
                .shares
                .iter()
                .filter(|x| x.capacity_unit == *ty && x.borrowed > 0)
                .map(|x| format!("{} ({})", x.quota_share_name, x.borrowed))
                .collect();
            let lenders: Vec<String> = sc
                .shares
                .iter()
                .enumerate()
                .filter(|&(i, _)| sim.strategy(ShareId::at(i)) != Strategy::Reserve && sim.quota(ShareId::at(i), t) > 0)
                .map(|(i, x)| format!("{} {} of {}", x.name, sim.usage(ShareId::at(i), t), sim.quota(ShareId::at(i), t)))
                .collect();
            let who = if borrowers.is_empty() {
                String::from("no share is borrowing, the lenders' own jobs use it")
            } else {
                format!("borrowing now: {}", borrowers.join(", "))
            };
            out.push((
                format!(
                    "The lenders' idle capacity is taken: {} of it is available and this job needs {n}. \
                     Lending shares' usage of their quotas: {}; {who} (R13, R15).",
                    an.pool,
                    lenders.join(", ")
                ),
                &["R13", "R15"],
            ));
        }
        _ => {}
    }
    let capacity_cause = matches!(
        an.cause,
        WaitCause::QuotaUsed
            | WaitCause::BorrowLimit
            | WaitCause::CannotBorrow
            | WaitCause::LimitLowered
            | WaitCause::Pool
            | WaitCause::ServiceEnvironment
    );
    // R20: stated only when releasing all of them would let the job fit (R14): otherwise R19
    // would preempt nobody.
    if capacity_cause && an.fits_without_lower && !an.in_share_enabled {
        let prio = sim.job_result(j).scheduling_priority;
        let names: Vec<String> = an
            .lower_priority
            .iter()
            .map(|&(o, p)| format!("{} (priority {p})", sc.jobs[o.index()].name))
            .collect();
        out.push((
            format!(
                "In-share preemption is DISABLED for {share}. If it were enabled, {} (priority {prio}) would \
                 preempt lower-priority running jobs of {share} to make room; candidates now: {} (R20).",
                jc.name,
                names.join(", ")
            ),
            &["R20"],
        ));
    }
    out
}

/// The numbers the explanation of a waiting job quotes.
struct WaitFacts<'a> {
    ty: &'a str,
    /// Instances the job needs.
    n: u64,
    /// Instances its share holds, and its share's quota.
    used: u64,
    quota: u64,
    /// Free instances of the type, lending pool available, service environment limit.
    free: i64,
    pool: i64,
    capacity: Option<u64>,
    share: &'a str,
    strategy: Strategy,
    borrow_limit: i64,
}

/// Why a job waits, in words, and the rules it cites: one arm per typed R17 reason, so a new
/// reason does not compile until it is explained.
fn waiting_words(reason: &WaitReason, f: &WaitFacts) -> (String, &'static [&'static str]) {
    let WaitFacts { ty, n, used: u, quota: q, free, pool, share, strategy, .. } = *f;
    match reason {
        WaitReason::Misconfiguration(Misconfiguration::ServiceEnvironment) => (
            match f.capacity {
                None => {
                    format!("The service environment has no limit for {ty}, so this job can never run (R1, R17).")
                }
                Some(c) => format!(
                    "It needs {n} instances but the service environment allows at most {c} {ty}: it can never \
                     run (R17)."
                ),
            },
            &["R1", "R17"],
        ),
        WaitReason::Misconfiguration(Misconfiguration::Quota) => (
            format!(
                "A {} share may never use more than its own quota; {n} > {q}, so the job can never run (R14, \
                 R17).",
                strategy.as_str()
            ),
            &["R14", "R17"],
        ),
        WaitReason::Misconfiguration(Misconfiguration::BorrowLimit) => (
            format!(
                "Its quota {q} plus the borrow allowance (borrowLimit {} % of quota) is less than {n}: it can \
                 never run (R14, R17).",
                f.borrow_limit
            ),
            &["R14", "R17"],
        ),
        WaitReason::Misconfiguration(Misconfiguration::Pool) => (
            String::from(
                "It would need to borrow more than all lending shares' quotas together: it can never run (R13, \
                 R17).",
            ),
            &["R13", "R17"],
        ),
        WaitReason::Quota if strategy == Strategy::LendAndBorrow => (
            format!(
                "{u} + {n} is above its quota of {q} and above what its borrow limit allows, so it waits for \
                 its own share's jobs to finish (R14)."
            ),
            &["R14", "R17"],
        ),
        WaitReason::Quota => (
            format!(
                "{u} + {n} is above its quota of {q} and a {} share never borrows, so it waits for its own \
                 share's jobs to finish (R4, R14).",
                strategy.as_str()
            ),
            &["R4", "R14", "R17"],
        ),
        WaitReason::Pool => (
            format!(
                "It needs capacity from the lending pool, which has {pool} instance(s) available now (lending \
                 shares' quotas minus their usage, R13). Borrowing goes to the earliest-submitted front job \
                 first (R16 phase 3); a job that fits within its own quota would reclaim instead (R18)."
            ),
            &["R13", "R14", "R16"],
        ),
        WaitReason::ServiceEnvironment => (
            format!(
                "Its share has room, but the service environment has only {free} free {ty} (the shares' \
                 quotas add up to more than the environment's limit, R3)."
            ),
            &["R3", "R14"],
        ),
        WaitReason::Preemption => (
            String::from(
                "It has already preempted other jobs and earmarked the instances they will return; it waits \
                 for their grace period to end (R21). Meanwhile its share is blocked.",
            ),
            &["R21"],
        ),
        WaitReason::Behind(front) => (
            format!(
                "{front} is at the front of {share}'s queue and cannot start yet. Queues are strict by \
                 default: a share's later jobs wait behind its front job (head-of-line blocking, R12; \
                 settings.backfill changes this)."
            ),
            &["R11", "R12"],
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets;
    use crate::run::RunData;

    fn run() -> RunData {
        let s = presets::scenario(presets::NOTEBOOK).unwrap();
        RunData::compute(quotasim::validate(&s).unwrap())
    }

    #[test]
    fn the_notebook_reclaim_is_explained_with_r18() {
        let r = run();
        let p = &r.preemptions[0];
        let ex = preemption(p, &r.preemptions, &r.sim_at(p.decided_at), r.full());
        assert!(ex.title.contains("qs1_job_med"), "{}", ex.title);
        assert!(ex.rules.contains(&"R18"));
        let text = ex.paragraphs.join(" ");
        assert!(text.contains("qs2_job"), "{text}");
        assert!(ex.candidates.iter().any(|c| c.chosen && c.job == "qs1_job_med" && c.instances == 1));
    }

    #[test]
    fn a_victim_dispatched_again_as_its_grace_ends_is_said_to_have_lost_work_for_nothing() {
        // b reclaims v at 100 and is terminated at 150: v releases at 220 and takes the
        // instance straight back.
        let job = |n: &str, s: &str, p: u32, at: u64, d: u64| {
            serde_json::json!({"jobName": n, "quotaShareName": s, "schedulingPriority": p,
                "instanceType": "ml.g5.xlarge", "instanceCount": 1, "submitAt": at, "durationSeconds": d})
        };
        let share = |n: &str, strategy: &str| {
            serde_json::json!({"quotaShareName": n,
                "capacityLimits": [{"capacityUnit": "ml.g5.xlarge", "maxCapacity": 1}],
                "resourceSharingConfiguration": {"strategy": strategy}})
        };
        let v = serde_json::json!({"formatVersion": 1, "settings": {"preemptionGraceSeconds": 120},
            "instanceTypes": [{"name": "ml.g5.xlarge", "gpus": 1}],
            "serviceEnvironment": {"serviceEnvironmentName": "se",
                "capacityLimits": [{"capacityUnit": "ml.g5.xlarge", "maxCapacity": 2}]},
            "quotaShares": [share("A", "LEND_AND_BORROW"), share("B", "LEND")],
            "jobs": [job("a_hi", "A", 1, 0, 100_000), job("v", "A", 0, 0, 100_000), job("b", "B", 0, 100, 1000)],
            "actions": [{"at": 150, "terminateServiceJob": {"jobName": "b", "reason": "manual"}}]});
        let s: quotasim::model::Scenario = serde_json::from_value(v.clone()).unwrap();
        let r = RunData::compute(quotasim::validate(&s).unwrap());
        let p = &r.preemptions[0];
        let ex = preemption(p, &r.preemptions, &r.sim_at(p.decided_at), r.full());
        let text = ex.paragraphs.join(" ");
        assert!(
            text.contains(
                "v started again at 0:03:40, as soon as its grace period ended: the capacity came straight \
                 back to its share, so the 1 min 40 s of training it lost bought nothing"
            ),
            "{text}"
        );
        assert!(text.contains("Released at 0:03:40: v (A). Dispatched at 0:03:40: v (A)."), "{text}");
        // Without the termination b takes the instance: nothing said.
        let mut w = v;
        w["actions"] = serde_json::json!([]);
        let s: quotasim::model::Scenario = serde_json::from_value(w).unwrap();
        let r = RunData::compute(quotasim::validate(&s).unwrap());
        let p = &r.preemptions[0];
        let text = preemption(p, &r.preemptions, &r.sim_at(p.decided_at), r.full()).paragraphs.join(" ");
        assert!(!text.contains("started again"), "{text}");
    }

    #[test]
    fn reserve_vs_lend_reclaims_that_bought_nothing_name_the_jobs_that_ended_then() {
        // beta-2 reclaims gamma-16..19 at 11:00; at 11:02, as their grace ends, gamma-12..15
        // end too, so gamma is back within its quota and its victims start again at once.
        let s = presets::scenario(presets::by_id("reserve-vs-lend").unwrap()).unwrap();
        let r = RunData::compute(quotasim::validate(&s).unwrap());
        assert_eq!(r.full().summary().overall.preemptions.restarted_at_once, 4);
        let sc = r.full().scenario();
        let i = r.preemptions.iter().position(|p| sc.jobs[p.victim.index()].name == "gamma-16").unwrap();
        assert!(r.full().restarted_at_once(i));
        let p = &r.preemptions[i];
        let text = preemption(p, &r.preemptions, &r.sim_at(p.decided_at), r.full()).paragraphs.join(" ");
        assert!(
            text.contains("gamma-16 started again at 11:02, as soon as its grace period ended"),
            "{text}"
        );
        assert!(
            text.contains("Released at 11:02: gamma-12, gamma-13, gamma-14, gamma-15 and 4 more (gamma)."),
            "{text}"
        );
        assert!(
            text.contains("Dispatched at 11:02: beta-2 (its preemptor) (beta); gamma-16, gamma-17, gamma-18, gamma-19 (gamma)."),
            "{text}"
        );
    }

    #[test]
    fn a_running_job_says_whether_its_share_borrows_at_that_instant() {
        let r = run();
        let sc = r.full().scenario();
        let j = sc.jobs.iter().position(|x| x.name == "qs1_job_med").unwrap() as u32;
        // qs1_job_med runs 4:32-8:22; qs1 borrows until 7:47 and is within its quota after.
        let at = |t: u64| job_now(&r.sim_at(t), JobId(j)).paragraphs.join(" ");
        let early = at(5 * 3600);
        assert!(early.contains("At 5:00 qs1 is borrowing 1 × ml.g5.xlarge"), "{early}");
        let late = at(8 * 3600);
        assert!(late.contains("At 8:00 qs1 is within its quota: it is not borrowing."), "{late}");
        assert!(job_now(&r.sim_at(5 * 3600), JobId(j)).rules.contains(&"R13"));
    }

    #[test]
    fn the_notebook_in_share_preemption_names_priorities() {
        let r = run();
        let p = &r.preemptions[1];
        let ex = preemption(p, &r.preemptions, &r.sim_at(p.decided_at), r.full());
        assert!(ex.rules.contains(&"R20"));
        assert!(ex.paragraphs[0].contains("priority 4"), "{}", ex.paragraphs[0]);
    }

    /// One of every typed wait reason; `variant` has no catch-all arm, so a new reason does not
    /// compile here until it is listed.
    fn every_wait_reason() -> Vec<WaitReason> {
        use Misconfiguration as M;
        vec![
            WaitReason::Misconfiguration(M::ServiceEnvironment),
            WaitReason::Misconfiguration(M::Quota),
            WaitReason::Misconfiguration(M::BorrowLimit),
            WaitReason::Misconfiguration(M::Pool),
            WaitReason::Preemption,
            WaitReason::Behind("front-job".into()),
            WaitReason::Quota,
            WaitReason::Pool,
            WaitReason::ServiceEnvironment,
        ]
    }

    fn variant(r: &WaitReason) -> usize {
        use Misconfiguration as M;
        match r {
            WaitReason::Misconfiguration(M::ServiceEnvironment) => 0,
            WaitReason::Misconfiguration(M::Quota) => 1,
            WaitReason::Misconfiguration(M::BorrowLimit) => 2,
            WaitReason::Misconfiguration(M::Pool) => 3,
            WaitReason::Preemption => 4,
            WaitReason::Behind(_) => 5,
            WaitReason::Quota => 6,
            WaitReason::Pool => 7,
            WaitReason::ServiceEnvironment => 8,
        }
    }

    #[test]
    fn every_wait_reason_has_its_own_explanation() {
        let all = every_wait_reason();
        let mut seen: Vec<usize> = all.iter().map(variant).collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen, (0..all.len()).collect::<Vec<_>>(), "every variant once");
        for strategy in [Strategy::LendAndBorrow, Strategy::Reserve] {
            let facts = WaitFacts {
                ty: "ml.g5.xlarge",
                n: 2,
                used: 1,
                quota: 2,
                free: 0,
                pool: 1,
                capacity: Some(1),
                share: "qs1",
                strategy,
                borrow_limit: 50,
            };
            let mut texts = std::collections::HashSet::new();
            for r in &all {
                let (text, rules) = waiting_words(r, &facts);
                assert!(!rules.is_empty(), "{r:?} cites no rule");
                assert!(texts.insert(text.clone()), "{r:?} is explained like another reason: {text}");
            }
        }
        let behind = waiting_words(
            &WaitReason::Behind("front-job".into()),
            &WaitFacts {
                ty: "t",
                n: 1,
                used: 0,
                quota: 1,
                free: 0,
                pool: 0,
                capacity: None,
                share: "qs1",
                strategy: Strategy::Lend,
                borrow_limit: 0,
            },
        );
        assert!(behind.0.starts_with("front-job is at the front of qs1's queue"), "{}", behind.0);
    }

    #[test]
    fn a_job_larger_than_the_environment_can_never_run() {
        let mut s = presets::scenario(presets::NOTEBOOK).unwrap();
        s.jobs[2].instance_count = Some(50);
        let r = RunData::compute(quotasim::validate(&s).unwrap());
        let sim = r.sim_at(r.jobs[2].submit_at);
        assert_eq!(
            sim.waiting_reason(JobId(2)),
            WaitReason::Misconfiguration(Misconfiguration::ServiceEnvironment)
        );
        let ex = job_now(&sim, JobId(2));
        let text = ex.paragraphs.join(" ");
        assert!(text.contains("it can never run (R17)"), "{text}");
        assert!(text.contains(Misconfiguration::ServiceEnvironment.text()), "{text}");
        assert_eq!(ex.rules, ["R1", "R17"]);
    }

    #[test]
    fn a_share_that_cannot_borrow_or_is_at_its_borrow_limit_names_the_setting() {
        let mut s = presets::scenario(presets::NOTEBOOK).unwrap();
        // qs1 as RESERVE: its second and third jobs wait for its quota.
        s.quota_shares[0].resource_sharing_configuration.strategy = Strategy::Reserve;
        s.quota_shares[0].resource_sharing_configuration.borrow_limit = None;
        s.actions.clear();
        let r = RunData::compute(quotasim::validate(&s).unwrap());
        let sim = r.sim_at(0);
        let waiting = (0..3u32)
            .find(|&j| sim.status_of(JobId(j)) == Some(Status::Runnable))
            .expect("a waiting qs1 job");
        let text = job_now(&sim, JobId(waiting)).paragraphs.join(" ");
        // qs1 has in-share preemption enabled: the setting that matters is its strategy.
        assert!(text.contains("What limits it: qs1's strategy RESERVE never borrows"), "{text}");
        assert!(!text.contains("DISABLED"), "{text}");
        // qs1 with a borrow limit of 0 %: the limit is named.
        let mut s = presets::scenario(presets::NOTEBOOK).unwrap();
        s.quota_shares[0].resource_sharing_configuration.borrow_limit = Some(0);
        s.quota_shares[0].preemption_configuration.in_share_preemption = quotasim::model::Toggle::Enabled;
        s.actions.clear();
        let r = RunData::compute(quotasim::validate(&s).unwrap());
        let sim = r.sim_at(0);
        let waiting = (0..3u32)
            .find(|&j| sim.status_of(JobId(j)) == Some(Status::Runnable))
            .expect("a waiting qs1 job");
        let text = job_now(&sim, JobId(waiting)).paragraphs.join(" ");
        assert!(text.contains("What limits it: qs1's borrowLimit, which lets it use at most 0 ×"), "{text}");
    }

    fn two_shares(a: &str, jobs: usize) -> RunData {
        let jobs: Vec<String> = (0..jobs)
            .map(|i| {
                format!(
                    r#"{{"jobName":"a-{i}","quotaShareName":"a","instanceType":"t","instanceCount":1,
                    "submitAt":{i},"durationSeconds":3600}}"#
                )
            })
            .collect();
        let json = format!(
            r#"{{"formatVersion":1,"instanceTypes":[{{"name":"t"}}],
            "serviceEnvironment":{{"serviceEnvironmentName":"se","capacityLimits":[{{"capacityUnit":"t","maxCapacity":8}}]}},
            "quotaShares":[{a},
              {{"quotaShareName":"b","capacityLimits":[{{"capacityUnit":"t","maxCapacity":4}}],
               "resourceSharingConfiguration":{{"strategy":"LEND"}}}}],
            "jobs":[{}]}}"#,
            jobs.join(",")
        );
        let s = quotasim::json::parse_scenario(&json).unwrap();
        RunData::compute(quotasim::validate(&s).unwrap())
    }

    fn text_at(r: &RunData, job: &str, t: u64) -> String {
        let j = r.job_index(job).expect("a job of the run") as u32;
        job_now(&r.sim_at(t), JobId(j)).paragraphs.join(" ")
    }

    #[test]
    fn a_job_stopped_by_its_borrow_limit_names_the_borrow_limit() {
        // a: quota 2, borrowLimit 50 % (one instance above its quota); b lends four idle ones.
        let r = two_shares(
            r#"{"quotaShareName":"a","capacityLimits":[{"capacityUnit":"t","maxCapacity":2}],
               "resourceSharingConfiguration":{"strategy":"LEND_AND_BORROW","borrowLimit":50}}"#,
            4,
        );
        assert_eq!(r.jobs[3].first_started_at, Some(3600), "a-3 waits for a-0 to end");
        let text = text_at(&r, "a-3", 600);
        assert!(
            text.contains(
                "What limits it: a's borrowLimit, which lets it use at most 1 × t above its quota (3 in all); \
                 with this job it would use 4."
            ),
            "{text}"
        );
        assert!(!text.contains("In-share"), "no lower-priority job runs in a: {text}");
        assert!(!text.contains("idle capacity is taken"), "{text}");
    }

    #[test]
    fn a_reserve_job_names_its_strategy_and_the_idle_capacity_it_may_not_borrow() {
        let r = two_shares(
            r#"{"quotaShareName":"a","capacityLimits":[{"capacityUnit":"t","maxCapacity":2}],
               "resourceSharingConfiguration":{"strategy":"RESERVE"}}"#,
            3,
        );
        assert_eq!(r.jobs[2].first_started_at, Some(3600));
        let text = text_at(&r, "a-2", 600);
        assert!(
            text.contains(
                "What limits it: a's strategy RESERVE never borrows, so it runs only on its own quota of 2. \
                 Lending shares have 4 idle t now, which only a LEND_AND_BORROW share may borrow."
            ),
            "{text}"
        );
    }

    #[test]
    fn a_job_short_of_lendable_capacity_says_who_took_it() {
        // a: quota 1, unlimited borrowing; b's four idle instances are all lent to a.
        let r = two_shares(
            r#"{"quotaShareName":"a","capacityLimits":[{"capacityUnit":"t","maxCapacity":1}],
               "resourceSharingConfiguration":{"strategy":"LEND_AND_BORROW"}}"#,
            6,
        );
        assert_eq!(r.jobs[5].first_started_at, Some(3600));
        let text = text_at(&r, "a-5", 600);
        assert!(text.contains("waiting for lendable capacity"), "{text}");
        assert!(
            text.contains(
                "The lenders' idle capacity is taken: 0 of it is available and this job needs 1. Lending \
                 shares' usage of their quotas: a 5 of 1, b 0 of 4; borrowing now: a (4)"
            ),
            "{text}"
        );
        assert!(!text.contains("What limits it"), "unlimited borrowing limits nothing: {text}");
    }

    #[test]
    fn the_in_share_preset_says_enabling_in_share_preemption_would_make_room() {
        let r = RunData::compute(
            quotasim::validate(&presets::scenario(presets::by_id("in-share").unwrap()).unwrap()).unwrap(),
        );
        // nlp has in-share preemption DISABLED: urgent-eval waits behind its priority-10 batches.
        let text = text_at(&r, "urgent-eval", 3 * 3600);
        assert!(
            text.contains(
                "In-share preemption is DISABLED for nlp. If it were enabled, urgent-eval (priority 500) would \
                 preempt lower-priority running jobs of nlp to make room; candidates now: batch-0 (priority \
                 10), batch-1 (priority 10), batch-2 (priority 10), batch-3 (priority 10) (R20)."
            ),
            "{text}"
        );
        assert!(text.contains("What limits it: nlp's strategy RESERVE never borrows"), "{text}");
        // Already at 2:02, while vision's victims are in their grace period (the end-to-end test
        // looks there).
        let early = text_at(&r, "urgent-eval", 2 * 3600 + 120);
        assert!(
            early.contains("In-share preemption is DISABLED for nlp")
                && early.contains("batch-0 (priority 10)"),
            "{early}"
        );
        // vision has it ENABLED: its urgent job preempts, so nothing is said about enabling it.
        let vision = text_at(&r, "deadline-run", 2 * 3600 + 60);
        assert!(vision.contains("waiting for preemption to complete"), "{vision}");
        assert!(!vision.contains("In-share preemption is DISABLED"), "{vision}");

        // With only two lower-priority batches, releasing them would not make room for four
        // instances: the sentence is not said.
        let mut s = presets::scenario(presets::by_id("in-share").unwrap()).unwrap();
        for j in s.jobs.iter_mut() {
            if j.job_name == "urgent-eval" {
                j.instance_count = Some(4);
            }
            if j.job_name == "batch-0" || j.job_name == "batch-1" {
                j.scheduling_priority = 600;
            }
        }
        let r = RunData::compute(quotasim::validate(&s).unwrap());
        let text = text_at(&r, "urgent-eval", 3 * 3600);
        assert!(text.contains("waiting for quota"), "{text}");
        assert!(!text.contains("In-share preemption is DISABLED"), "{text}");
    }

    #[test]
    fn a_waiting_job_says_what_it_waits_for() {
        let r = run();
        let sim = r.sim_at(100);
        let ex = job_now(&sim, JobId(2));
        let text = ex.paragraphs.join(" ");
        assert_eq!(ex.kind, "RUNNABLE");
        assert!(text.contains("CAPACITY"), "{text}");
        assert!(!ex.rules.is_empty());
    }
}
