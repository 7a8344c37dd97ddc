//! Explanations in words, with rule numbers: why a job was preempted, why a job waits.

use quotasim::model::Strategy;
use quotasim::reasons::{Misconfiguration, WaitReason};
use quotasim::result::Snapshot;
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
pub fn preemption(rec: &PreemptionRecord, all: &[PreemptionRecord], at: &Simulation) -> Explanation {
    let sc = at.scenario();
    let vj = &sc.jobs[rec.victim as usize];
    let vshare = &sc.shares[vj.share as usize];
    let ty = &sc.types[vj.ty as usize].name;
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
            let pj = &sc.jobs[p as usize];
            let psh = &sc.shares[pj.share as usize];
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
            let pj = &sc.jobs[p as usize];
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
            let pj = &sc.jobs[p as usize];
            let psh = &sc.shares[pj.share as usize];
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
        || sc.jobs[rec.victim as usize].retries.is_some_and(|r| u64::from(rec.count) > r)
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
    let chosen: Vec<u32> = all
        .iter()
        .filter(|o| o.decided_at == rec.decided_at && o.preemptor == rec.preemptor)
        .map(|o| o.victim)
        .collect();
    for (k, &c) in rec.considered.iter().enumerate() {
        let cj = &sc.jobs[c as usize];
        let r = at.job_result(c);
        ex.candidates.push(Candidate {
            rank: k + 1,
            job: cj.name.clone(),
            share: sc.shares[cj.share as usize].name.clone(),
            priority: r.scheduling_priority,
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

/// Why job `j` is where it is at the simulation's current instant (R17 reasons for waiting).
pub fn job_now(sim: &Simulation, j: u32) -> Explanation {
    let sc = sim.scenario();
    let Some(jc) = sc.jobs.get(j as usize) else { return Explanation::default() };
    let share = &sc.shares[jc.share as usize];
    let ty = &sc.types[jc.ty as usize].name;
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
                ex.rules.push("R6");
            }
            return ex;
        }
        _ => {}
    }
    ex.paragraphs.push(head);
    ex.paragraphs.push(format!("Its reason now: {reason}."));
    let queue = sim.queued(jc.share);
    if let Some(pos) = queue.iter().position(|&x| x == j) {
        ex.paragraphs.push(format!(
            "It is number {} of {} in {}'s queue (highest priority first, then earliest submission, then \
             input order; R11).",
            pos + 1,
            queue.len(),
            share.name
        ));
    }
    let free = tt.map_or(0, |x| x.free);
    let pool = tt.map_or(0, |x| x.pool_available);
    let cap = tt.and_then(|x| x.service_environment_capacity);
    // The typed reason the text above renders (R17): the explanation never reads the string.
    let msg = match sim.waiting_reason(j) {
        WaitReason::Misconfiguration(Misconfiguration::ServiceEnvironment) => {
            ex.rules.extend(["R1", "R17"]);
            match cap {
            None => format!("The service environment has no limit for {ty}, so this job can never run (R1, R17)."),
            Some(c) => format!(
                "It needs {n} instances but the service environment allows at most {c} {ty}: it can never run (R17)."
            ),
        }
        }
        WaitReason::Misconfiguration(Misconfiguration::Quota) => {
            ex.rules.extend(["R14", "R17"]);
            format!(
            "A {} share may never use more than its own quota; {n} > {q}, so the job can never run (R14, R17).",
            share.strategy.as_str()
        )
        }
        WaitReason::Misconfiguration(Misconfiguration::BorrowLimit) => {
            ex.rules.extend(["R14", "R17"]);
            format!(
            "Its quota {q} plus the borrow allowance (borrowLimit {} % of quota) is less than {n}: it can never run (R14, R17).",
            share.borrow_limit
        )
        }
        WaitReason::Misconfiguration(Misconfiguration::Pool) => {
            ex.rules.extend(["R13", "R17"]);
            String::from("It would need to borrow more than all lending shares' quotas together: it can never run (R13, R17).")
        }
        WaitReason::Quota => {
            ex.rules.extend(["R14", "R17"]);
            if share.strategy == Strategy::LendAndBorrow {
                format!(
                "{u} + {n} is above its quota of {q} and above what its borrow limit allows, so it waits for \
                 its own share's jobs to finish (R14)."
            )
            } else {
                format!(
                "{u} + {n} is above its quota of {q} and a {} share never borrows, so it waits for its own \
                 share's jobs to finish (R4, R14).",
                share.strategy.as_str()
            )
            }
        }
        WaitReason::Pool => {
            ex.rules.extend(["R13", "R14", "R16"]);
            format!(
            "It needs capacity from the lending pool, which has {pool} instance(s) available now (lending \
             shares' quotas minus their usage, R13). Borrowing goes to the earliest-submitted front job first \
             (R16 phase 3); a job that fits within its own quota would reclaim instead (R18)."
        )
        }
        WaitReason::ServiceEnvironment => {
            ex.rules.extend(["R3", "R14"]);
            format!(
            "Its share has room, but the service environment has only {free} free {ty} (the shares' quotas \
             add up to more than the environment's limit, R3)."
        )
        }
        WaitReason::Preemption => {
            ex.rules.extend(["R21"]);
            String::from(
            "It has already preempted other jobs and earmarked the instances they will return; it waits for \
             their grace period to end (R21). Meanwhile its share is blocked.",
        )
        }
        WaitReason::Behind(front) => {
            ex.rules.extend(["R11", "R12"]);
            format!(
            "{front} is at the front of {}'s queue and cannot start yet. Queues are strict by default: a \
             share's later jobs wait behind its front job (head-of-line blocking, R12; settings.backfill \
             changes this).",
            share.name
        )
        }
    };
    if !msg.is_empty() {
        ex.paragraphs.push(msg);
    }
    ex
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
        let ex = preemption(p, &r.preemptions, &r.sim_at(p.decided_at));
        assert!(ex.title.contains("qs1_job_med"), "{}", ex.title);
        assert!(ex.rules.contains(&"R18"));
        let text = ex.paragraphs.join(" ");
        assert!(text.contains("qs2_job"), "{text}");
        assert!(ex.candidates.iter().any(|c| c.chosen && c.job == "qs1_job_med"));
    }

    #[test]
    fn the_notebook_in_share_preemption_names_priorities() {
        let r = run();
        let p = &r.preemptions[1];
        let ex = preemption(p, &r.preemptions, &r.sim_at(p.decided_at));
        assert!(ex.rules.contains(&"R20"));
        assert!(ex.paragraphs[0].contains("priority 4"), "{}", ex.paragraphs[0]);
    }

    #[test]
    fn a_waiting_job_says_what_it_waits_for() {
        let r = run();
        let sim = r.sim_at(100);
        let ex = job_now(&sim, 2);
        let text = ex.paragraphs.join(" ");
        assert_eq!(ex.kind, "RUNNABLE");
        assert!(text.contains("CAPACITY"), "{text}");
        assert!(!ex.rules.is_empty());
    }
}
