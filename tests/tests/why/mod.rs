//! "What would have avoided this?" (`quotasim why`, issue 27 section 2): every change listed
//! reaches the target when applied the way `run --set` applies it, numeric ones are the
//! smallest on their ladder, the study stays within its run budget and is byte-identical on
//! repeat; a priority change names the job it overtakes; an R17 job too large for its quota
//! gets the quota change, or is told nothing helps. Then the command line: its errors and its
//! JSON.

mod cli;

use quotasim::change::{apply_changes, Change};
use quotasim::json::{parse_scenario, to_json};
use quotasim::model::Scenario;
use quotasim::why::catalogue::{BORROW_LADDER, GRACE_LADDER};
use quotasim::why::report::{EventKind, TriedOutcome};
use quotasim::why::{why, Target, WhyOptions, WhyReport};
use quotasim::{validate, JobResult, Simulation};
use quotasim_tests::*;

fn notebook() -> Scenario {
    parse_scenario(&std::fs::read_to_string(cli::fixture("notebook.json")).unwrap()).unwrap()
}

/// The job's result in `s` changed by `set`, run as `quotasim run --set` runs it.
fn run_with(s: &Scenario, set: &[String], job: &str) -> JobResult {
    let changes: Vec<Change> = set.iter().map(|c| Change::parse(c).unwrap()).collect();
    let changed = apply_changes(s, &changes).unwrap();
    let mut sim = Simulation::new(validate(&changed).unwrap());
    sim.run();
    sim.jobs().into_iter().find(|j| j.job_name == job).unwrap()
}

fn report(s: &Scenario, job: &str) -> WhyReport {
    why(s, &WhyOptions::new(job)).unwrap()
}

/// The value before `v` on the entry's ladder, towards the current value; `None` when `v` is
/// the nearest.
fn previous(entry: &str, direction: &str, v: i64, current: i64) -> Option<i64> {
    let fixed: Option<&[i64]> = match entry {
        "borrowLimit" => Some(&BORROW_LADDER),
        "gracePeriod" => Some(&GRACE_LADDER),
        _ => None,
    };
    let rank = |x: i64| if entry == "borrowLimit" && x < 0 { i64::MAX } else { x };
    let up = direction == "up";
    let p = match fixed {
        Some(l) => {
            let i = l.iter().position(|x| *x == v).unwrap();
            if up {
                l.get(i.checked_sub(1)?).copied()?
            } else {
                *l.get(i + 1)?
            }
        }
        None if up => v - 1,
        None => v + 1,
    };
    let nearer = if up { rank(p) > rank(current) } else { rank(p) < rank(current) };
    nearer.then_some(p)
}

#[test]
fn why_notebook_cross_share_reclaim_lists_verified_minimal_changes_within_50_runs() {
    let s = notebook();
    let r = report(&s, "qs1_job_med");
    assert_eq!(r.event.kind, EventKind::Preemption);
    let p = r.event.preemption.as_ref().unwrap();
    assert_eq!(p.reason, CROSS_SHARE);
    assert_eq!(p.preempted_by.as_deref(), Some("qs2_job"));
    assert!(!r.changes.is_empty(), "{}", quotasim::why::report::text(&r));
    assert!(r.tried.runs <= 50, "{} runs", r.tried.runs);
    let before = run_with(&s, &[], "qs1_job_med");
    let target = Target::FewerPreemptions { count: 1, finish: before.stopped_at };
    for c in &r.changes {
        let after = run_with(&s, &c.set, "qs1_job_med");
        assert_eq!(after.preemption_summary.preempted_attempt_count, 0, "{:?}", c.set);
        assert!(after.stopped_at.unwrap() <= before.stopped_at.unwrap(), "{:?} finishes later", c.set);
        // Minimality: the value before it on its ladder does not reach the target.
        let t = r.tried.entries.iter().find(|t| {
            t.outcome == TriedOutcome::Found
                && c.set[0]
                    == format!("{}={}", t.path, t.tested.iter().rev().find(|x| x.reaches).unwrap().value)
        });
        let Some(t) = t else { continue };
        let Some(direction) = t.direction else { continue };
        let v = c.set[0].rsplit_once('=').unwrap().1.parse::<i64>().unwrap();
        let current = match t.entry {
            "priority" => 2,
            "borrowLimit" => 200,
            "gracePeriod" => 120,
            _ => 1,
        };
        if let Some(prev) = previous(t.entry, direction, v, current) {
            let j = run_with(&s, &[format!("{}={prev}", t.path)], "qs1_job_med");
            assert!(!target.reached(&j), "{}={prev} reaches the target too: {v} is not the smallest", t.path);
        }
    }
    // The example: lowering qs1's borrow limit avoids the preemption only by waiting.
    let bl =
        r.tried.entries.iter().find(|t| t.entry == "borrowLimit" && t.direction == Some("down")).unwrap();
    assert_eq!(bl.outcome, TriedOutcome::NotFound);
    // Byte-identical on repeat.
    assert_eq!(to_json(&report(&s, "qs1_job_med")), to_json(&r));
}

#[test]
fn why_a_job_waiting_behind_in_share_priorities_gets_a_priority_change_naming_the_job_it_overtakes() {
    let s = Sc::new()
        .capacity(G5, 1)
        .share(lend("team", G5, 1))
        .job(job("first", "team").prio(9).dur(3600))
        .job(job("ahead", "team").prio(5).at(10).dur(3600))
        .job(job("me", "team").prio(1).at(20).dur(3600))
        .build();
    let r = report(&s, "me");
    assert_eq!(r.event.kind, EventKind::Wait);
    assert_eq!(r.event.first_started_at, Some(7200));
    let c = r.changes.iter().find(|c| c.entry == "priority").expect("a priority change");
    // Equal to `ahead` is not enough (ties go to the earlier submission): one more is.
    assert_eq!(c.set, ["jobs[me].schedulingPriority=6"]);
    assert_eq!(c.harmed.count, 1);
    assert_eq!(c.harmed.jobs[0].job_name, "ahead");
    assert_eq!(c.harmed.worst.as_deref(), Some("ahead waits 60 min longer"));
    let me = run_with(&s, &c.set, "me");
    assert_eq!(me.first_started_at, Some(3600));
}

#[test]
fn why_r17_a_job_larger_than_its_quota_gets_the_quota_change_that_makes_it_runnable() {
    let s = Sc::new()
        .capacity(G5, 4)
        .share(reserve("team", G5, 2))
        .job(job("big", "team").count(3).dur(600))
        .job(job("small", "team").at(5).dur(600))
        .build();
    let r = report(&s, "big");
    assert_eq!(r.event.kind, EventKind::Wait);
    assert_eq!(r.event.first_started_at, None);
    assert!(r.event.status_reason.as_deref().unwrap().contains("QUOTA_MANAGEMENT_LIMIT_EXCEEDED"));
    let sets: Vec<&str> = r.changes.iter().map(|c| c.set[0].as_str()).collect();
    assert!(sets.contains(&"quotaShares[team].capacityLimits[ml.g5.xlarge].maxCapacity=3"), "{sets:?}");
    for c in &r.changes {
        assert!(run_with(&s, &c.set, "big").first_started_at.is_some(), "{:?}", c.set);
    }
}

#[test]
fn why_r17_a_job_of_a_type_without_capacity_is_told_nothing_in_the_catalogue_helps() {
    let s = Sc::new()
        .capacity(G5, 2)
        .share(lend("team", G5, 2).limit(P5, 1))
        .job(job("p5", "team").ty(P5).dur(600))
        .build();
    let r = report(&s, "p5");
    assert!(r.changes.is_empty(), "{:?}", r.changes);
    assert!(quotasim::why::report::text(&r).contains("Nothing in the catalogue reaches the target"));
    assert!(r.tried.entries.iter().any(|t| t.outcome == TriedOutcome::NotFound));
}

#[test]
fn why_stays_within_its_run_budget_and_says_what_it_did_not_try() {
    let s = notebook();
    let r = why(&s, &WhyOptions { max_runs: 4, ..WhyOptions::new("qs1_job_med") }).unwrap();
    assert!(r.tried.runs <= 4, "{} runs", r.tried.runs);
    let skipped: Vec<&str> = r
        .tried
        .entries
        .iter()
        .filter(|t| t.outcome == TriedOutcome::BudgetExhausted)
        .map(|t| t.detail.as_str())
        .collect();
    assert!(!skipped.is_empty());
    assert!(skipped.iter().all(|d| d.starts_with("run budget exhausted")), "{skipped:?}");
    // Every entry run within the budget is listed with its runs; the runs add up.
    let listed: usize = r.tried.entries.iter().map(|t| t.tested.len()).sum();
    assert_eq!(listed as u32 + 1, r.tried.runs);
}

/// A front end runs each of the study's scenarios itself, a slice at a time: the report is the
/// one `why` makes, byte for byte, and the runs it asked for are the ones it counts.
#[test]
fn why_made_in_steps_with_runs_advanced_an_instant_at_a_time_is_the_same_report() {
    use quotasim::why::{WhyStep, WhyStudy};
    let s = notebook();
    for job in ["qs1_job_low", "qs1_job_med", "qs2_job"] {
        let opts = WhyOptions { max_runs: 20, ..WhyOptions::new(job) };
        let Ok(mut study) = WhyStudy::new(&s, &opts) else { continue };
        let mut asked = 0;
        let stepped = loop {
            match study.next_step() {
                Ok(WhyStep::Run(v)) => {
                    asked += 1;
                    assert_eq!(study.runs(), asked, "run {asked} of at most {}", study.max_runs());
                    let mut sim = Simulation::new(*v);
                    while sim.step().is_some() {}
                    study.record(&sim);
                }
                Ok(WhyStep::Done(r)) => break Ok(*r),
                Err(e) => break Err(e),
            }
        };
        let at_once = why(&s, &opts);
        assert_eq!(stepped.is_ok(), at_once.is_ok(), "{job}");
        if let (Ok(a), Ok(b)) = (stepped, at_once) {
            assert_eq!(to_json(&a), to_json(&b), "{job}");
            assert_eq!(a.tried.runs, asked, "{job}");
        }
    }
}
