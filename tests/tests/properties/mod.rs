//! Property tests over random small scenarios, stepping instant by instant (`step()`) and
//! checking the invariants of R6, R8, R13, R14, R16-R18 and R21 after every instant.

use proptest::prelude::*;
#[allow(unused_imports)]
use proptest::strategy::Strategy as _;
use quotasim::model::{Strategy, VictimOrder};
use quotasim::result::{EventType, Status};
use quotasim::scenario::{JobId, ShareId, TypeId};
use quotasim::validate::ActionCfg;
use quotasim_tests::*;

mod fixed_point;
mod fork;
mod wait_breakdown;

const TYPES: [&str; 2] = [G5, P5];

#[derive(Clone, Debug)]
struct ShareSpec {
    strategy: Strategy,
    quota: [i64; 2],
    borrow_limit: Option<i64>,
    in_share: bool,
}

#[derive(Clone, Debug)]
struct JobSpec {
    share: usize,
    ty: usize,
    count: i64,
    prio: i64,
    at: i64,
    dur: i64,
    ckpt: Option<i64>,
    retries: Option<i64>,
    timeout: Option<i64>,
}

#[derive(Clone, Debug)]
enum ActSpec {
    Prio(usize, i64),
    Terminate(usize),
    Limits(usize, [i64; 2]),
    Strategy(usize, Strategy),
    Capacity([i64; 2]),
}

#[derive(Clone, Debug)]
struct World {
    cap: [i64; 2],
    shares: Vec<ShareSpec>,
    jobs: Vec<JobSpec>,
    acts: Vec<(i64, ActSpec)>,
    grace: i64,
    scheduled: i64,
    starting: i64,
    backfill: bool,
    least_lost: bool,
    ckpt_on_stop: bool,
    save: i64,
}

fn strategy() -> impl proptest::strategy::Strategy<Value = quotasim::model::Strategy> {
    prop_oneof![Just(Strategy::Reserve), Just(Strategy::Lend), Just(Strategy::LendAndBorrow)]
}

fn share_spec() -> impl proptest::strategy::Strategy<Value = ShareSpec> {
    (
        strategy(),
        1i64..4,
        0i64..3,
        prop_oneof![
            Just(None),
            Just(Some(-1)),
            Just(Some(0)),
            Just(Some(50)),
            Just(Some(100)),
            Just(Some(200))
        ],
        any::<bool>(),
    )
        .prop_map(|(strategy, q0, q1, bl, in_share)| ShareSpec {
            strategy,
            quota: [q0, q1],
            borrow_limit: if strategy == Strategy::LendAndBorrow { bl } else { None },
            in_share,
        })
}

fn job_spec(shares: usize) -> impl proptest::strategy::Strategy<Value = JobSpec> {
    (
        0..shares,
        prop_oneof![4 => Just(0usize), 1 => Just(1usize)],
        1i64..4,
        0i64..4,
        (0i64..30).prop_map(|t| t * 20),
        prop_oneof![1 => Just(0i64), 8 => 1i64..900],
        prop::option::of(20i64..300),
        prop::option::weighted(0.3, 0i64..3),
        prop::option::weighted(0.2, 1i64..900),
    )
        .prop_map(|(share, ty, count, prio, at, dur, ckpt, retries, timeout)| JobSpec {
            share,
            ty,
            count,
            prio,
            at,
            dur,
            ckpt,
            retries,
            timeout,
        })
}

fn act_spec(shares: usize, jobs: usize) -> impl proptest::strategy::Strategy<Value = (i64, ActSpec)> {
    let kind = prop_oneof![
        (0..jobs, 0i64..6).prop_map(|(j, p)| ActSpec::Prio(j, p)),
        (0..jobs).prop_map(ActSpec::Terminate),
        (0..shares, 1i64..4, 0i64..3).prop_map(|(s, a, b)| ActSpec::Limits(s, [a, b])),
        (0..shares, strategy()).prop_map(|(s, st)| ActSpec::Strategy(s, st)),
        (1i64..7, 0i64..4).prop_map(|(a, b)| ActSpec::Capacity([a, b])),
    ];
    ((0i64..35).prop_map(|t| t * 20), kind)
}

fn world(max_acts: usize) -> impl proptest::strategy::Strategy<Value = World> {
    (1usize..5, 1usize..12).prop_flat_map(move |(ns, nj)| {
        (
            (1i64..7, 0i64..4),
            prop::collection::vec(share_spec(), ns),
            prop::collection::vec(job_spec(ns), nj),
            prop::collection::vec(act_spec(ns, nj), 0..=max_acts),
            prop_oneof![Just(0i64), Just(30), Just(120)],
            prop_oneof![Just(0i64), Just(10)],
            prop_oneof![Just(0i64), Just(20)],
            (any::<bool>(), any::<bool>(), any::<bool>(), prop_oneof![Just(0i64), Just(30), Just(200)]),
        )
            .prop_map(
                |(
                    (c0, c1),
                    shares,
                    jobs,
                    acts,
                    grace,
                    scheduled,
                    starting,
                    (backfill, least_lost, ckpt_on_stop, save),
                )| {
                    World {
                        cap: [c0, c1],
                        shares,
                        jobs,
                        acts,
                        grace,
                        scheduled,
                        starting,
                        backfill,
                        least_lost,
                        ckpt_on_stop,
                        save,
                    }
                },
            )
    })
}

/// A world with more contention: one type, lending shares, long jobs arriving over time,
/// so that borrowing, reclaim and in-share preemption happen in most cases.
fn contended_world() -> impl proptest::strategy::Strategy<Value = World> {
    let share = (
        prop_oneof![1 => Just(Strategy::Reserve), 2 => Just(Strategy::Lend), 3 => Just(Strategy::LendAndBorrow)],
        1i64..4,
        any::<bool>(),
    )
        .prop_map(|(strategy, q, in_share)| ShareSpec { strategy, quota: [q, 0], borrow_limit: None, in_share });
    (2usize..4, 4usize..14).prop_flat_map(move |(ns, nj)| {
        let job = (
            0..ns,
            prop_oneof![3 => Just(1i64), 1 => Just(2i64)],
            0i64..4,
            (0i64..12).prop_map(|t| t * 50),
            300i64..3000,
            prop::option::of(60i64..400),
        )
            .prop_map(|(share, count, prio, at, dur, ckpt)| JobSpec {
                share,
                ty: 0,
                count,
                prio,
                at,
                dur,
                ckpt,
                retries: None,
                timeout: None,
            });
        (
            prop::collection::vec(share.clone(), ns),
            prop::collection::vec(job, nj),
            prop_oneof![Just(0i64), Just(60), Just(120)],
            any::<bool>(),
            any::<bool>(),
        )
            .prop_map(|(shares, jobs, grace, backfill, least_lost)| {
                let owned: i64 = shares.iter().map(|s| s.quota[0]).sum();
                World {
                    cap: [owned, 0],
                    shares,
                    jobs,
                    acts: vec![],
                    grace,
                    scheduled: 0,
                    starting: 0,
                    backfill,
                    least_lost,
                    ckpt_on_stop: false,
                    save: 30,
                }
            })
    })
}

fn build(w: &World) -> Sc {
    let mut sc = Sc::new()
        .grace(w.grace)
        .scheduled(w.scheduled)
        .starting(w.starting)
        .backfill(w.backfill)
        .checkpoint_on_stop(w.ckpt_on_stop)
        .checkpoint_save(w.save);
    if w.least_lost {
        sc = sc.least_lost_work();
    }
    for (t, c) in TYPES.iter().zip(w.cap) {
        if c > 0 {
            sc = sc.capacity(t, c);
        }
    }
    for (i, s) in w.shares.iter().enumerate() {
        let mut b = share(&format!("s{i}"), s.strategy, G5, s.quota[0]);
        if s.quota[1] > 0 {
            b = b.limit(P5, s.quota[1]);
        }
        if let Some(bl) = s.borrow_limit {
            b = b.borrow_limit(bl);
        }
        sc = sc.share(b.in_share(s.in_share));
    }
    for (i, j) in w.jobs.iter().enumerate() {
        let mut b = job(&format!("j{i}"), &format!("s{}", j.share))
            .ty(TYPES[j.ty])
            .count(j.count)
            .prio(j.prio)
            .at(j.at)
            .dur(j.dur);
        if let Some(c) = j.ckpt {
            b = b.ckpt(c);
        }
        if let Some(r) = j.retries {
            b = b.retries(r);
        }
        if let Some(t) = j.timeout {
            b = b.timeout(t);
        }
        sc = sc.job(b);
    }
    for (at, a) in &w.acts {
        sc = match a {
            ActSpec::Prio(j, p) => sc.set_priority(*at, &format!("j{j}"), *p),
            ActSpec::Terminate(j) => sc.terminate(*at, &format!("j{j}"), "manual"),
            ActSpec::Limits(s, q) => {
                let mut l = vec![(G5, q[0])];
                if q[1] > 0 {
                    l.push((P5, q[1]));
                }
                sc.update_share(*at, update(&format!("s{s}")).limits(&l))
            }
            ActSpec::Strategy(s, st) => sc.update_share(*at, update(&format!("s{s}")).sharing(*st, None)),
            ActSpec::Capacity(c) => {
                let l: Vec<(&str, i64)> =
                    TYPES.iter().zip(c).filter(|(_, n)| **n > 0).map(|(t, n)| (*t, *n)).collect();
                sc.update_capacity(*at, &l)
            }
        };
    }
    sc
}

/// R6, R7, R21, R24, R26 consistency of the records at the end of a run: legal state
/// transitions, attempts, preemption events a grace period apart, and summary totals that
/// match the attempts.
fn check_records(h: &H) -> Result<(), TestCaseError> {
    use quotasim::result::EventType;
    use Status::*;
    let sc = h.scenario();
    let grace = sc.settings.grace;
    let events = h.events();
    let mut instance_seconds = 0u64;
    let mut lost = 0u64;
    for j in 0..sc.jobs.len() as u32 {
        let r = h.job_result(JobId(j));
        let jc = &sc.jobs[j as usize];
        let mine: Vec<_> = events.iter().filter(|e| e.job_name == r.job_name).collect();
        let mut prev: Option<Status> = None;
        for e in mine.iter().filter(|e| e.event_type == EventType::StateChange) {
            let next = e.status.expect("a state change has a status");
            let ok = matches!(
                (prev, next),
                (None, Submitted | Failed)
                    | (Some(Submitted), Runnable | Failed)
                    | (Some(Runnable), Scheduled | Failed)
                    | (Some(Scheduled), Starting)
                    | (Some(Starting), Running)
                    | (Some(Scheduled | Starting | Running), Succeeded | Failed | Runnable)
            );
            prop_assert!(ok, "job {}: {:?} -> {:?} at {}", r.job_name, prev, next, e.at);
            prev = Some(next);
        }
        prop_assert_eq!(prev, r.status, "job {}: last event is the final status", r.job_name);
        let started: Vec<_> = mine.iter().filter(|e| e.event_type == EventType::PreemptionStarted).collect();
        let completed: Vec<_> =
            mine.iter().filter(|e| e.event_type == EventType::PreemptionCompleted).collect();
        prop_assert!(completed.len() <= started.len());
        for (s, c) in started.iter().zip(&completed) {
            prop_assert_eq!(
                c.at,
                s.at + grace,
                "job {}: release one grace period after the stop",
                r.job_name
            );
        }
        prop_assert_eq!(
            r.preemption_summary.preempted_attempt_count as usize,
            completed.len(),
            "job {}",
            r.job_name
        );
        // R8: lost work per preemption.
        let saves_at_stop = sc.settings.checkpoint_on_stop && grace >= sc.settings.checkpoint_save;
        let mut lost_sum = 0;
        for e in &started {
            let l = e.lost_work_seconds.unwrap_or(0);
            lost_sum += l;
            match jc.checkpoint_interval {
                Some(_) if saves_at_stop => {
                    prop_assert_eq!(l, 0, "job {}: saves at the stop signal", r.job_name)
                }
                Some(c) => prop_assert!(l < c, "job {}: lost {} with checkpoints every {}", r.job_name, l, c),
                None => prop_assert!(l <= jc.duration, "job {}", r.job_name),
            }
        }
        prop_assert_eq!(lost_sum, r.lost_work_seconds, "job {}: lost work adds up", r.job_name);
        let mut last_stop = 0;
        for (i, a) in r.attempts.iter().enumerate() {
            prop_assert!(
                a.started_at >= last_stop && a.started_at >= jc.submit_at,
                "job {}: attempts in order",
                r.job_name
            );
            let stop = a.stopped_at.unwrap_or(h.now());
            prop_assert!(stop >= a.started_at);
            prop_assert!(
                a.stopped_at.is_some() || i + 1 == r.attempts.len(),
                "only the last attempt may be open"
            );
            prop_assert!(a.borrowed_instances <= jc.count);
            instance_seconds += (stop - a.started_at) * jc.count;
            last_stop = stop;
        }
        lost += r.lost_work_seconds * jc.count;
    }
    // R18/R20/R22 reasons agree with who preempted whom.
    let priority_changes = sc.actions.iter().any(|(_, a)| matches!(a, ActionCfg::UpdatePriority { .. }));
    let job_of = |name: &str| sc.jobs.iter().find(|j| j.name == name).expect("a job");
    for e in events.iter().filter(|e| e.event_type == EventType::PreemptionStarted) {
        prop_assert!(
            e.status.is_some_and(|s| s.holds_capacity()),
            "{} stopped while {:?}",
            e.job_name,
            e.status
        );
        let victim = job_of(&e.job_name);
        let reason = e.reason.as_deref().unwrap_or("");
        match e.preempted_by.clone().flatten() {
            None => prop_assert_eq!(reason, LIMIT_REDUCED, "no preemptor: lowered capacity"),
            Some(p) => {
                let pre = job_of(&p);
                if reason == IN_SHARE {
                    prop_assert_eq!(pre.share, victim.share);
                    if !priority_changes && grace > 0 {
                        // R16/R21: a job is never dispatched (on an earmark or by backfill)
                        // only to be preempted by its own share at the same instant: the
                        // backfill pin keeps a share whose first job would preempt from
                        // backfilling, and later passes at the instant find nothing new
                        // for that first job.
                        let started = mine_started(&events, &e.job_name, e.at);
                        prop_assert!(
                            started < e.at,
                            "{} preempted in the pass that dispatched it, at {}",
                            e.job_name,
                            e.at
                        );
                    }
                    if !priority_changes {
                        prop_assert!(
                            victim.priority < pre.priority,
                            "in-share victim {} not of lower priority",
                            e.job_name
                        );
                    }
                } else {
                    prop_assert!(reason == CROSS_SHARE || reason == LIMIT_REDUCED, "reason {reason}");
                    prop_assert!(
                        pre.share != victim.share,
                        "cross-share victim {} of the preemptor's share",
                        e.job_name
                    );
                }
            }
        }
    }
    let o = h.summary().overall;
    prop_assert_eq!(o.instance_seconds, instance_seconds, "R26 instance-seconds = sum over attempts");
    prop_assert_eq!(o.instance_seconds_own + o.instance_seconds_borrowed, o.instance_seconds);
    prop_assert_eq!(o.lost_instance_seconds, lost, "R26 lost work");
    let n =
        |st: Status| (0..sc.jobs.len() as u32).filter(|&j| h.status_of(JobId(j)) == Some(st)).count() as u64;
    prop_assert_eq!((o.jobs, o.succeeded, o.failed), (sc.jobs.len() as u64, n(Succeeded), n(Failed)));
    Ok(())
}

/// When the attempt of `job` running at `at` started: its last `SCHEDULED` at or before `at`.
fn mine_started(events: &[quotasim::result::Event], job: &str, at: u64) -> u64 {
    events
        .iter()
        .filter(|e| e.job_name == job && e.at <= at && e.status == Some(Status::Scheduled))
        .filter(|e| e.event_type == quotasim::result::EventType::StateChange)
        .map(|e| e.at)
        .next_back()
        .unwrap_or(0)
}

/// A share-level view of the simulation at the current instant.
struct View {
    /// Any `updateServiceEnvironment` applied so far.
    cap_changed: bool,
    /// Per share: any `updateQuotaShare` applied so far.
    share_changed: Vec<bool>,
}

fn view(h: &H) -> View {
    let sc = h.scenario();
    let now = h.now();
    let mut v = View { cap_changed: false, share_changed: vec![false; sc.shares.len()] };
    for (at, a) in &sc.actions {
        if *at > now {
            continue;
        }
        match a {
            ActionCfg::UpdateCapacity { .. } => v.cap_changed = true,
            ActionCfg::UpdateShare(u) => v.share_changed[u.share.index()] = true,
            _ => {}
        }
    }
    v
}

fn allowance(q: u64, bl: i64) -> Option<u64> {
    (bl >= 0).then(|| q * bl as u64 / 100)
}

/// Checks the per-instant invariants; returns a description of the first violation.
fn check_instant(h: &H, strict_capacity: bool) -> Result<(), String> {
    let sc = h.scenario();
    // Held usage is checked strictly at every instant when nothing is being preempted.
    let strict_capacity = strict_capacity || !JobId::all(sc.jobs.len()).any(|j| h.is_being_preempted(j));
    // Held instances (R6); or, when not strict, held minus those of jobs being preempted.
    let usage = |s: ShareId, t: TypeId| -> u64 {
        let held = h.usage(s, t);
        if strict_capacity {
            return held;
        }
        let leaving: u64 = JobId::all(sc.jobs.len())
            .filter(|&j| {
                let jc = &sc.jobs[j.index()];
                jc.share == s && jc.ty == t && h.is_being_preempted(j)
            })
            .map(|j| sc.jobs[j.index()].count)
            .sum();
        held - leaving
    };
    let v = view(h);
    let any_lowered = v.cap_changed || v.share_changed.iter().any(|x| *x);
    for t in TypeId::all(sc.types.len()) {
        let total: u64 = ShareId::all(sc.shares.len()).map(|s| usage(s, t)).sum();
        match h.capacity(t) {
            None if !v.cap_changed && total > 0 => {
                return Err(format!("type {t} has no limit but {total} in use"));
            }
            Some(c) if !any_lowered && total > c => {
                return Err(format!("type {t}: usage {total} above the limit {c}"));
            }
            _ => {}
        }
        // Held instances never exceed the service environment, except by victims in their
        // grace after a lowered limit (R23); a lowered quota alone never lets them exceed it.
        if let Some(c) = h.capacity(t) {
            let held: u64 = ShareId::all(sc.shares.len()).map(|s| h.usage(s, t)).sum();
            let leaving: u64 = JobId::all(sc.jobs.len())
                .filter(|&j| sc.jobs[j.index()].ty == t && h.is_being_preempted(j))
                .map(|j| sc.jobs[j.index()].count)
                .sum();
            let allowed = if v.cap_changed { c + leaving } else { c };
            if held > allowed {
                return Err(format!("type {t}: {held} held, above the limit {c} (+{leaving} leaving)"));
            }
        }
        let quotas: u64 = ShareId::all(sc.shares.len()).map(|s| h.quota(s, t)).sum();
        let oversubscribed = h.capacity(t).is_none_or(|c| quotas > c);
        let mut pool_cap = 0;
        let mut pool_use = 0;
        for s in ShareId::all(sc.shares.len()) {
            let (u, q) = (usage(s, t), h.quota(s, t));
            if h.strategy(s).lends() {
                pool_cap += q;
                pool_use += u;
            }
            if v.share_changed[s.index()] {
                continue;
            }
            let max = match h.strategy(s) {
                Strategy::Reserve | Strategy::Lend => Some(q),
                Strategy::LendAndBorrow => {
                    allowance(q, sc.shares[s.index()].borrow_limit.to_format()).map(|a| q + a)
                }
            };
            if let Some(m) = max {
                if u > m {
                    return Err(format!("share {s} type {t}: usage {u} above quota+allowance {m}"));
                }
            }
        }
        if !any_lowered && !oversubscribed {
            if pool_use > pool_cap {
                return Err(format!("type {t}: pool usage {pool_use} above pool capacity {pool_cap}"));
            }
            // A RESERVE share's idle quota is never used by anyone else.
            let c = h.capacity(t).unwrap_or(0);
            for r in ShareId::all(sc.shares.len()) {
                if h.strategy(r) == Strategy::Reserve {
                    let others = total - usage(r, t);
                    if others > c - h.quota(r, t) {
                        return Err(format!(
                            "type {t}: others use {others}, eating into RESERVE share {r}'s quota"
                        ));
                    }
                }
            }
        }
    }
    // Snapshot consistency (R25).
    let snap = h.snap();
    for r in &snap.shares {
        if r.within_quota + r.over_quota != r.usage {
            return Err(format!("snapshot row inconsistent: {r:?}"));
        }
    }
    Ok(())
}

/// R10: whether something changed at instant `t` that warrants a pass: an action, a
/// submission, a preemption completing or due, or an attempt ending on its own timer
/// (`events` are those recorded at `t`).
fn change_at(h: &H, t: u64, events: &[quotasim::result::Event]) -> bool {
    let sc = h.scenario();
    sc.actions.iter().any(|(at, _)| *at == t)
        || sc.jobs.iter().any(|j| j.submit_at == t)
        || h.preemptions().iter().any(|p| p.releases_at == t)
        || events.iter().any(|e| {
            e.event_type == EventType::StateChange
                && matches!(e.status, Some(Status::Succeeded | Status::Failed))
                && h.job_result(h.id(&e.job_name)).attempts.last().is_some_and(|a| a.started_at < t)
        })
}

/// R19/R21: what each victim returns to its preemptor's side, by preemption log index: an
/// in-share victim all its instances (R20), a reclaim victim the part of them its share was
/// still over quota when it was picked (recomputed after each pick, jobs already being
/// preempted counted as released). Computed from the state after the instant `t` of the
/// decisions in `new` (log entries `from..`): a victim's share dispatches nothing of that type
/// after it at that instant (it stays over quota until its victims release).
fn victim_returns(h: &H, from: usize, returns: &mut Vec<u64>) {
    let sc = h.scenario();
    let log = h.preemptions();
    let job = |j: u32| &sc.jobs[j as usize];
    // Per share and type: usage not counting jobs being preempted, before this instant's
    // decisions.
    let mut usage = std::collections::BTreeMap::new();
    for r in &log[from..] {
        let v = job(r.victim.0);
        usage.entry((v.share, v.ty)).or_insert_with(|| {
            let leaving: u64 = (0..sc.jobs.len() as u32)
                .filter(|&j| job(j).share == v.share && job(j).ty == v.ty && h.is_being_preempted(JobId(j)))
                .map(|j| job(j).count)
                .sum();
            h.usage(v.share, v.ty) - leaving
        });
    }
    for r in &log[from..] {
        let v = job(r.victim.0);
        *usage.get_mut(&(v.share, v.ty)).expect("counted") += v.count;
    }
    for r in &log[from..] {
        let v = job(r.victim.0);
        let u = usage.get_mut(&(v.share, v.ty)).expect("counted");
        let over = u.saturating_sub(h.quota(v.share, v.ty));
        returns.push(match (r.preemptor, r.kind) {
            (Some(_), quotasim::result::PreemptionKind::InShare) => v.count,
            (Some(_), _) => v.count.min(over),
            (None, _) => 0,
        });
        *u -= v.count;
    }
}

/// R21: idle capacity withheld for waiting preemptors is at most what their victims'
/// returns ([`victim_returns`]) do not cover, counting the victims still in their grace.
fn check_withheld(h: &H, returns: &[u64]) -> Result<(), String> {
    let sc = h.scenario();
    let now = h.now();
    for t in 0..sc.types.len() as u32 {
        let mut bound = 0u64;
        for s in 0..sc.shares.len() as u32 {
            let Some(p) = h.waiting_preemptor(ShareId(s)) else { continue };
            let pc = &sc.jobs[p.index()];
            if pc.ty != TypeId(t) {
                continue;
            }
            let mut back = 0;
            for (k, r) in h.preemptions().iter().enumerate() {
                if r.preemptor == Some(p) && r.releases_at > now && h.is_being_preempted(r.victim) {
                    back += returns[k];
                }
            }
            bound += pc.count - pc.count.min(back);
        }
        let w = h.withheld(TypeId(t));
        if w > bound {
            return Err(format!(
                "type {t}: {w} idle instances withheld for preemptors, at most {bound} allowed"
            ));
        }
    }
    Ok(())
}

/// R16-R18/R21 liveness: a share's front job that fits within its quota is dispatched within
/// one grace period (the passes at an instant run to a fixed point, R10, so a front job
/// revealed by a borrower's dispatch gets its preemption turn at that instant), unless capacity is held by jobs within their own quotas (counted
/// conservatively: each other share's usage and queued jobs capped at its quota, plus its
/// earmark) or its share waits for another job's preemption.
#[derive(Clone, Debug)]
struct Watch {
    job: u32,
    since: u64,
    /// By when it must be dispatched: a grace period after `since`, or after the other jobs'
    /// preemptions in progress then (of its instance type) release, since their victims'
    /// instances count as held until released, even those no earmark covers (R18, R21).
    until: u64,
}

fn watch_from(h: &H, job: u32, since: u64, grace: u64) -> Watch {
    let sc = h.scenario();
    let ty = sc.jobs[job as usize].ty;
    let releases = h
        .preemptions()
        .iter()
        .filter(|p| p.releases_at > since && p.preemptor != Some(JobId(job)))
        .filter(|p| sc.jobs[p.victim.index()].ty == ty)
        .map(|p| p.releases_at)
        .max()
        .unwrap_or(since);
    Watch { job, since, until: releases + grace }
}

fn front_fits_and_unblocked(h: &H, s: u32) -> Option<u32> {
    let sc = h.scenario();
    let j = h.front_job(ShareId(s))?;
    if h.status_of(j) != Some(Status::Runnable) || h.never_runnable_reason(j).is_some() {
        return None;
    }
    if h.waiting_preemptor(ShareId(s)).is_some_and(|p| p != j) {
        return None;
    }
    let jc = &sc.jobs[j.index()];
    let (t, n) = (jc.ty, jc.count);
    let c = h.capacity(t)?;
    if h.usage(ShareId(s), t) + n > h.quota(ShareId(s), t) {
        return None;
    }
    let snap = h.snap();
    let earmarked = |x: u32| {
        snap.shares
            .iter()
            .find(|r| {
                r.quota_share_name == sc.shares[x as usize].name
                    && r.capacity_unit == sc.types[t.index()].name
            })
            .map_or(0, |r| r.earmarked)
    };
    // An earmark counts whole: a preemptor that borrows (in-share, R20) holds capacity above
    // its quota until it runs, and a job being preempted is never chosen again (R21).
    let demand = |x: u32| {
        let mut d = h.usage(ShareId(x), t);
        for f in h.queued(ShareId(x)) {
            let fc = &sc.jobs[f.index()];
            if fc.ty == t && h.status_of(f) == Some(Status::Runnable) {
                d += fc.count;
            }
        }
        d.min(h.quota(ShareId(x), t)) + earmarked(x)
    };
    let mut all = h.usage(ShareId(s), t) + n;
    let mut lenders = all;
    for x in 0..sc.shares.len() as u32 {
        if x == s {
            continue;
        }
        all += demand(x);
        if h.strategy(ShareId(x)).lends() {
            lenders += demand(x);
        }
    }
    let pool_cap: u64 = (0..sc.shares.len() as u32)
        .filter(|&x| h.strategy(ShareId(x)).lends())
        .map(|x| h.quota(ShareId(x), t))
        .sum();
    if all > c || (h.strategy(ShareId(s)).lends() && lenders > pool_cap) {
        return None;
    }
    Some(j.0)
}

fn run_checked(w: &World, strict_capacity: bool) -> Result<(H, usize), TestCaseError> {
    let sc = build(w);
    let valid = match sc.validate() {
        Ok(v) => v,
        Err(p) => return Err(TestCaseError::fail(format!("generated scenario invalid: {p:?}"))),
    };
    let mut h = H::new(quotasim::Simulation::new(valid));
    let grace = h.scenario().settings.grace;
    let ns = h.scenario().shares.len();
    let mut watch: Vec<Option<Watch>> = vec![None; ns];
    let mut last = 0;
    let mut steps = 0;
    let mut watched_dispatches = 0;
    let mut seen_events = 0;
    let mut passes = 0;
    let mut returns: Vec<u64> = Vec::new();
    while let Some(t) = h.step() {
        steps += 1;
        prop_assert!(steps < 10_000, "too many instants");
        prop_assert!(t >= last, "time went back");
        last = t;
        if let Err(e) = check_instant(&h, strict_capacity) {
            return Err(TestCaseError::fail(format!("at {t}: {e}")));
        }
        let from = returns.len();
        victim_returns(&h, from, &mut returns);
        if let Err(e) = check_withheld(&h, &returns) {
            return Err(TestCaseError::fail(format!("at {t}: {e}")));
        }
        // R10: a pass runs only at an instant where something changed; a timer that no longer
        // applies is no change, and every instant visited is one where something happened.
        let p = h.stats().passes;
        let new_events = h.events_from(seen_events);
        let triggered = change_at(&h, t, &new_events);
        prop_assert!(p == passes || triggered, "at {t}: a pass ran although nothing changed");
        prop_assert!(
            !new_events.is_empty() || h.scenario().actions.iter().any(|(at, _)| *at == t),
            "at {t}: an instant where nothing happened"
        );
        passes = p;
        let v = view(&h);
        let lowered = v.cap_changed || v.share_changed.iter().any(|x| *x);
        // Shares that dispatched a job at this instant made progress: a higher-priority job
        // that arrived and went first (R11, R21) restarts the watch of the one behind it.
        let mut progressed = vec![false; ns];
        for e in h.events_from(seen_events) {
            if e.event_type == EventType::StateChange && e.status == Some(Status::Scheduled) {
                if let Some(i) = h.scenario().shares.iter().position(|x| x.name == e.quota_share_name) {
                    progressed[i] = true;
                }
            }
        }
        seen_events = h.event_count();
        for s in 0..ns as u32 {
            // A watched job that left RUNNABLE was dispatched now (or ended).
            if let Some(wt) = watch[s as usize].clone() {
                let st = h.status_of(JobId(wt.job));
                if st != Some(Status::Runnable) {
                    if st.is_some_and(|x| x.holds_capacity()) {
                        watched_dispatches += 1;
                        prop_assert!(
                            t <= wt.until,
                            "share {s}: front job {} fitting its quota since {} dispatched only at {t} (grace {grace}, due by {})",
                            wt.job,
                            wt.since,
                            wt.until
                        );
                    }
                    watch[s as usize] = None;
                }
            }
            let now_ok = if lowered { None } else { front_fits_and_unblocked(&h, s) };
            match (&watch[s as usize], now_ok) {
                (Some(wt), Some(j)) if wt.job == j && progressed[s as usize] => {
                    watch[s as usize] = Some(watch_from(&h, j, t, grace));
                }
                (Some(wt), Some(j)) if wt.job == j => {
                    prop_assert!(
                        t <= wt.until,
                        "share {s}: front job {j} fitting its quota since {} still waits at {t} (grace {grace}, due by {})",
                        wt.since,
                        wt.until
                    );
                }
                (_, Some(j)) => watch[s as usize] = Some(watch_from(&h, j, t, grace)),
                (_, None) => watch[s as usize] = None,
            }
        }
    }
    for (s, wt) in watch.iter().enumerate() {
        prop_assert!(wt.is_none(), "share {s}: front job {wt:?} fits but nothing is left to happen");
    }
    // R24/R26: the run ends at the last instant where something happened.
    let last_event = h.events().last().map_or(0, |e| e.at);
    let last_action = h.scenario().actions.last().map_or(0, |(at, _)| *at);
    prop_assert_eq!(h.summary_result().ended_at, last_event.max(last_action), "endedAt");
    check_records(&h)?;
    // End state (R6, R17) and lost work (R8).
    for j in 0..h.scenario().jobs.len() as u32 {
        let r = h.job_result(JobId(j));
        match r.status {
            Some(Status::Succeeded) => {
                let jc = &h.scenario().jobs[j as usize];
                prop_assert_eq!(
                    h.training_seconds(JobId(j)),
                    jc.duration + r.lost_work_seconds,
                    "job {}: training = duration + lost work",
                    r.job_name
                );
            }
            Some(Status::Failed) => {}
            Some(Status::Runnable) => {
                prop_assert!(
                    r.status_reason.as_deref().is_some_and(|x| !x.is_empty()),
                    "{} RUNNABLE without reason",
                    r.job_name
                );
            }
            other => prop_assert!(false, "job {} ends {:?}", r.job_name, other),
        }
    }
    Ok((h, watched_dispatches))
}

/// Case count: `PROPTEST_CASES` if set (for longer hunts), else a moderate default.
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(256), ..ProptestConfig::default() })]

    /// Every invariant, the service environment and pool bounds included.
    #[test]
    fn invariants_hold_at_every_instant_without_actions(w in world(0)) {
        run_checked(&w, true)?;
    }

    #[test]
    fn invariants_hold_at_every_instant_with_actions(w in world(4)) {
        run_checked(&w, true)?;
    }

    /// The same invariants, on held usage at instants when nothing is being preempted and on
    /// usage not counting jobs being preempted otherwise (what the engine's decisions see).
    #[test]
    fn share_invariants_and_liveness_without_actions(w in world(0)) {
        run_checked(&w, false)?;
    }

    #[test]
    fn share_invariants_and_liveness_with_actions(w in world(4)) {
        run_checked(&w, false)?;
    }

    #[test]
    fn invariants_hold_at_every_instant_under_contention(w in contended_world()) {
        run_checked(&w, true)?;
    }

    #[test]
    fn share_invariants_and_liveness_under_contention(w in contended_world()) {
        run_checked(&w, false)?;
    }

    /// R11/R12: without backfill, preemption or actions, a share dispatches its jobs in R11
    /// order among those waiting together: if `a` comes before `b` and was submitted by the
    /// time `b` was dispatched, `a` was dispatched no later than `b`.
    #[test]
    fn r11_r12_share_queue_order(mut w in world(0)) {
        w.backfill = false;
        let (h, _) = run_checked(&w, false)?;
        if h.preemptions().is_empty() {
            let sc = h.scenario();
            let key = |j: usize| (std::cmp::Reverse(sc.jobs[j].priority), sc.jobs[j].submit_at, j);
            let first = |j: usize| h.job_result(JobId::at(j)).first_started_at;
            for a in 0..sc.jobs.len() {
                for b in 0..sc.jobs.len() {
                    if a == b || sc.jobs[a].share != sc.jobs[b].share || key(a) >= key(b) {
                        continue;
                    }
                    if let Some(tb) = first(b) {
                        if sc.jobs[a].submit_at <= tb {
                            let ta = first(a);
                            prop_assert!(
                                ta.is_some_and(|ta| ta <= tb),
                                "{} (before {} in R11 order) dispatched at {:?}, {} at {}",
                                sc.jobs[a].name, sc.jobs[b].name, ta, sc.jobs[b].name, tb
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn r27_same_scenario_same_bytes(w in world(3)) {
        let sc = build(&w);
        let a = { let mut h = sc.sim(); h.run(); quotasim::json::to_json(&h.result()) };
        let b = { let mut h = sc.sim(); while h.step().is_some() {} quotasim::json::to_json(&h.result()) };
        prop_assert_eq!(a, b);
    }
}

#[test]
fn liveness_check_is_not_vacuous() {
    // B's job fits its quota at 100 and waits for a reclaim: the watch sees it dispatched.
    let lab_share =
        ShareSpec { strategy: Strategy::LendAndBorrow, quota: [1, 0], borrow_limit: None, in_share: false };
    let lend_share =
        ShareSpec { strategy: Strategy::Lend, quota: [1, 0], borrow_limit: None, in_share: false };
    let j = |share, prio, at| JobSpec {
        share,
        ty: 0,
        count: 1,
        prio,
        at,
        dur: 1000,
        ckpt: None,
        retries: None,
        timeout: None,
    };
    let w = World {
        cap: [2, 0],
        shares: vec![lab_share, lend_share],
        jobs: vec![j(0, 1, 0), j(0, 0, 0), j(1, 0, 100)],
        acts: vec![],
        grace: 120,
        scheduled: 0,
        starting: 0,
        backfill: false,
        least_lost: false,
        ckpt_on_stop: false,
        save: 30,
    };
    let (h, watched) = run_checked(&w, true).expect("invariants hold");
    assert_eq!(h.job_result(JobId(2)).first_started_at, Some(220));
    assert_eq!(watched, 1);
}

#[test]
fn victim_order_setting_is_exercised() {
    // Keeps the `VictimOrder` import honest and checks the builder sets it.
    let v = Sc::new().capacity(G5, 1).share(reserve("a", G5, 1)).least_lost_work().valid();
    assert_eq!(v.settings.victim_order, VictimOrder::LeastLostWork);
}

#[test]
fn contended_worlds_exercise_preemption_and_liveness() {
    // The contended generator is meant to preempt and to exercise the liveness watch in a
    // good share of cases; a fixed seed keeps this deterministic.
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut with_pre, mut with_watch, n) = (0, 0, 100);
    for _ in 0..n {
        let w = contended_world().new_tree(&mut runner).unwrap().current();
        let (h, watched) = run_checked(&w, false).expect("invariants hold");
        with_pre += usize::from(!h.preemptions().is_empty());
        with_watch += usize::from(watched > 0);
    }
    eprintln!("contended: preemptions in {with_pre} of {n}, liveness watches in {with_watch}");
    assert!(with_pre >= n / 4, "preemptions in {with_pre} of {n}");
    assert!(with_watch >= n / 10, "liveness watches in {with_watch} of {n}");
}

/// R10/R16: a pass that looks only at the shares whose queue or front-job type changed gives
/// exactly what a pass over every share gives, byte for byte. Runs a scenario both ways: the
/// two result JSONs and the number of preemptions.
fn fast_and_exhaustive(valid: quotasim::ValidScenario) -> (String, String, usize) {
    use quotasim::{json::to_json, Options, Simulation};
    let mut fast = Simulation::with_options(valid.clone(), Options::default());
    let mut full = Simulation::with_options(valid, Options { exhaustive_passes: true, ..Options::default() });
    fast.run();
    full.run();
    (to_json(&fast.result()), to_json(&full.result()), fast.preemptions().len())
}

/// R10: a run whose every visited instant gets one more pass over every share after its
/// passes reached their fixed point gives the same bytes.
fn with_extra_passes(valid: quotasim::ValidScenario) -> String {
    use quotasim::{json::to_json, Options, Simulation};
    let mut sim = Simulation::with_options(valid, Options { extra_pass: true, ..Options::default() });
    sim.run();
    to_json(&sim.result())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(256), ..ProptestConfig::default() })]

    #[test]
    fn r16_passes_over_changed_shares_equal_exhaustive_passes(w in world(4)) {
        let (fast, full, _) = fast_and_exhaustive(build(&w).valid());
        prop_assert_eq!(fast, full);
    }
}

#[test]
fn r16_generated_workload_same_as_exhaustive_passes_and_extra_passes() {
    use quotasim::{generate, validate, GenerateOptions};
    for seed in [1, 2] {
        let valid = validate(&generate(&GenerateOptions::new(4000, 20, 5, seed))).expect("valid");
        let (fast, full, preemptions) = fast_and_exhaustive(valid.clone());
        assert!(preemptions > 0, "the workload preempts");
        assert_eq!(fast, full, "seed {seed}");
        assert_eq!(fast, with_extra_passes(valid), "seed {seed}: an extra pass changed something");
    }
}
