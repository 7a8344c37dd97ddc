//! R21: grace periods, earmarks, release and lapse; a victim keeps its instances until it
//! releases.

use super::reclaim_setup;
use quotasim::result::{EventType, Status};
use quotasim_tests::*;

use Status::*;

#[test]
fn r21_higher_priority_job_during_grace_takes_the_earmark_of_a_lower_one() {
    // b_lo reclaims v at 5; b_hi arrives during the grace and is dispatched first on the
    // earmark at 125; b_lo follows when b_hi ends.
    let h = Sc::new()
        .capacity(G5, 2)
        .share(lend("B", G5, 1).in_share(true))
        .share(lab("A", G5, 1))
        .job(job("a_hi", "A").prio(1).dur(100_000))
        .job(job("v", "A").dur(100_000))
        .job(job("b_lo", "B").dur(100_000).at(5))
        .job(job("b_hi", "B").prio(5).at(100).dur(10))
        .run_until(300);
    assert_eq!(h.victims(), vec!["v"]);
    assert_eq!(h.spans("b_hi"), vec![(125, Some(135))]);
    assert_eq!(h.first_started("b_lo"), Some(135));
}

#[test]
fn r21_grace_period_delays_release() {
    let sc = reclaim_setup();
    let mut h = sc.sim();
    h.until(150);
    assert_eq!(h.status("v"), Some(Running), "status unchanged during grace");
    assert_eq!(h.reason("v"), Some(in_progress(CROSS_SHARE)));
    assert!(h.is_being_preempted(h.id("v")));
    assert_eq!(h.used("A", G5), 2, "the victim keeps its capacity");
    assert_eq!(h.status("b"), Some(Runnable));
    assert_eq!(h.reason("b"), Some(WAIT_PREEMPTION.to_string()));
    assert_eq!(h.waiting_preemptor(h.share_id("B")), Some(h.id("b")));
    assert_eq!(h.share_usage("B", G5).earmarked, 1);
    h.until(219);
    assert_eq!(h.status("b"), Some(Runnable));
    h.until(220);
    assert_eq!(h.status("v"), Some(Runnable));
    assert!(!h.is_being_preempted(h.id("v")));
    assert_eq!(h.status("b"), Some(Running));
    assert_eq!(h.waiting_preemptor(h.share_id("B")), None);
    let c = &h.preemption_events("v", EventType::PreemptionCompleted)[0];
    assert_eq!(c.at, 220);
    // A longer grace.
    let h = sc.grace(300).run_until(500);
    assert_eq!(h.first_started("b"), Some(400));
    assert_eq!(h.spans("v")[0], (0, Some(400)));
}

#[test]
fn r21_higher_priority_job_arriving_during_grace_uses_the_earmark() {
    let h = Sc::new()
        .capacity(G5, 2)
        .share(lend("L", G5, 1))
        .share(lab("B", G5, 1))
        .job(job("b_own", "B").prio(9).dur(100_000))
        .job(job("b_x", "B").dur(100_000))
        .job(job("l1", "L").prio(1).at(100).dur(1000))
        .job(job("l2", "L").prio(5).at(150).dur(1000))
        .run_until(500);
    assert_eq!(h.victims(), vec!["b_x"]);
    assert_eq!(h.first_started("l2"), Some(220));
    assert_eq!(h.status("l1"), Some(Runnable));
    assert_eq!(h.reason("l1"), Some(WAIT_QUOTA.to_string()));
}

#[test]
fn r21_earmark_lapses_when_the_front_job_does_not_fit_on_it() {
    // l1 (1 instance) earmarks b_x2's instance; l2 (2 instances, higher priority) arrives
    // during the grace and does not fit on it at 220: the earmark lapses, l1 is not
    // dispatched ahead of l2, and l2 reclaims for itself.
    let h = Sc::new()
        .capacity(G5, 3)
        .share(lend("L", G5, 2))
        .share(lab("B", G5, 1))
        .job(job("b_own", "B").prio(9).dur(100_000))
        .job(job("b_x1", "B").dur(100_000))
        .job(job("b_x2", "B").dur(100_000))
        .job(job("l1", "L").prio(1).at(100).dur(1000))
        .job(job("l2", "L").prio(5).count(2).at(150).dur(1000))
        .run_until(500);
    assert_eq!(h.preemptions_started(), vec![(100, "b_x2".to_string()), (220, "b_x1".to_string())]);
    assert_eq!(h.first_started("l2"), Some(340));
    assert!(h.attempts("l1").is_empty());
    assert_eq!(h.status("b_x2"), Some(Runnable), "the earmarked capacity is not lent back");
}

#[test]
fn r21_waiting_preemptor_triggers_no_further_preemption() {
    let h = Sc::new()
        .capacity(G5, 3)
        .share(lend("L", G5, 2))
        .share(lab("B", G5, 1))
        .job(job("b_own", "B").prio(9).dur(100_000))
        .job(job("b_x1", "B").dur(100_000))
        .job(job("b_x2", "B").dur(100_000))
        .job(job("l1", "L").prio(1).at(100).dur(1000))
        .job(job("l2", "L").prio(9).at(150).dur(1000))
        .run_until(500);
    assert_eq!(h.preemptions_started(), vec![(100, "b_x2".to_string()), (220, "b_x1".to_string())]);
    assert_eq!(h.first_started("l2"), Some(220));
    assert_eq!(h.first_started("l1"), Some(340));
}

#[test]
fn r18_r21_a_victims_instances_count_as_held_until_released_even_those_no_earmark_covers() {
    // b_hi preempts b_v in its own share at 100 (R20); b_v returns 2, b_hi's earmark takes
    // 1. l arrives at 110 within its quota, short 2 of the pool: b_v's instances still count
    // in B's usage and are left out of B's over-quota usage, so no candidate returns anything
    // and nobody is preempted for l (R19: all candidates together would not do). At 160 b_v
    // releases, b_hi is dispatched on its earmark, and l, now short 1, reclaims b_old, so it
    // starts at 220: 110 s after it arrived, more than one grace period.
    let h = Sc::new()
        .capacity(G5, 3)
        .share(lend("L", G5, 2))
        .share(lab("B", G5, 1).in_share(true))
        .job(job("b_old", "B").dur(100_000))
        .job(job("b_v", "B").count(2).at(10).dur(100_000))
        .job(job("b_hi", "B").prio(1).at(100).dur(100_000))
        .job(job("l", "L").count(2).at(110).dur(1000))
        .grace(60)
        .run_until(400);
    assert_eq!(h.preemptions_started(), vec![(100, "b_v".to_string()), (160, "b_old".to_string())]);
    assert_eq!(h.first_started("b_hi"), Some(160));
    assert_eq!(h.first_started("l"), Some(220));
}

#[test]
fn r21_waiting_preemptor_blocks_its_share_even_with_backfill() {
    let sc = |with_preemptor: bool| {
        let mut sc = Sc::new()
            .capacity(G5, 2)
            .capacity(P5, 1)
            .backfill(true)
            .share(lend("L", G5, 1).limit(P5, 1))
            .share(lab("B", G5, 1))
            .job(job("b_own", "B").prio(9).dur(100_000))
            .job(job("b_x", "B").dur(100_000))
            .job(job("l_p5", "L").ty(P5).at(110).dur(10));
        if with_preemptor {
            sc = sc.job(job("l1", "L").prio(5).at(100).dur(1000));
        }
        sc.run_until(500)
    };
    assert_eq!(sc(false).first_started("l_p5"), Some(110));
    let h = sc(true);
    assert_eq!(h.victims(), vec!["b_x"]);
    assert_eq!(h.first_started("l1"), Some(220));
    assert_eq!(h.first_started("l_p5"), Some(220));
}

#[test]
fn r21_terminating_a_victim_during_grace_keeps_the_earmark() {
    let sc = reclaim_setup().job(job("a3", "A").dur(10)).terminate(150, "v", "manual");
    let mut h = sc.sim();
    h.until(160);
    assert_eq!(h.status("v"), Some(Failed));
    assert_eq!(h.reason("v"), Some("manual".to_string()));
    assert_eq!(h.stopped_at("v"), Some(150));
    assert_eq!(h.status("b"), Some(Runnable), "the preemptor waits for the end of the grace");
    assert_eq!(h.share_usage("B", G5).earmarked, 1);
    assert_eq!(h.status("a3"), Some(Runnable), "nobody else takes the earmarked instance");
    h.until(220);
    assert_eq!(h.status("b"), Some(Running));
    assert_eq!(h.first_started("b"), Some(220));
    assert!(h.attempts("a3").is_empty());
}

#[test]
fn r21_terminating_the_preemptor_lapses_the_earmark() {
    let sc = reclaim_setup().terminate(150, "b", "manual");
    let mut h = sc.sim();
    h.until(150);
    assert_eq!(h.status("b"), Some(Failed));
    assert_eq!(h.waiting_preemptor(h.share_id("B")), None);
    assert_eq!(h.share_usage("B", G5).earmarked, 0);
    h.until(220);
    // The preemption itself still completes; the released instance is free to be borrowed
    // again, and v (A's front job) takes it.
    assert_eq!(h.preemption_events("v", EventType::PreemptionCompleted)[0].at, 220);
    assert_eq!(h.status("v"), Some(Running));
    assert_eq!(h.spans("v"), vec![(0, Some(220)), (220, None)]);
}

#[test]
fn r21_r26_a_victim_dispatched_again_as_its_grace_ends_is_counted_as_restarted_at_once() {
    // b reclaims v at 100 and is terminated at 150: v releases at 220 and, as A's front job,
    // takes the instance straight back. The preemption cost v 120 s of training and bought
    // nothing: the summary counts it in `preemptions.restartedAtOnce`.
    let h = reclaim_setup().terminate(150, "b", "manual").run();
    assert_eq!(h.spans("v")[0], (0, Some(220)));
    assert_eq!(h.spans("v")[1].0, 220);
    assert_eq!(h.dispatched_at(220), vec![h.id("v")]);
    assert_eq!(h.released_at(220), vec![h.id("v")]);
    assert!(h.released_at(150).is_empty(), "b was terminated before it ever started");
    assert!(h.restarted_at_once(0));
    let s = h.summary();
    let share = |s: &quotasim::result::Summary, n: &str| {
        s.per_quota_share.iter().find(|x| x.0 == n).unwrap().1.clone()
    };
    let a = share(&s, "A").preemptions;
    assert_eq!((a.total, a.restarted_at_once), (1, 1));
    assert_eq!((s.overall.preemptions.total, s.overall.preemptions.restarted_at_once), (1, 1));
    // Without the termination b takes the instance at 220 and v waits: nothing counted.
    let h = reclaim_setup().run();
    assert_eq!(h.first_started("b"), Some(220));
    assert!(!h.dispatched_at(220).contains(&h.id("v")));
    assert!(!h.restarted_at_once(0));
    let s = h.summary();
    assert_eq!((share(&s, "A").preemptions.total, s.overall.preemptions.restarted_at_once), (1, 0));
}

#[test]
fn r21_job_being_preempted_is_never_chosen_again() {
    let h = Sc::new()
        .capacity(G5, 3)
        .share(lend("L1", G5, 1))
        .share(lend("L2", G5, 1))
        .share(lab("B", G5, 1))
        .job(job("b_own", "B").prio(9).dur(100_000))
        .job(job("b_x1", "B").dur(100_000))
        .job(job("b_x2", "B").dur(100_000))
        .job(job("l1", "L1").at(100).dur(1000))
        .job(job("l2", "L2").at(110).dur(1000))
        .run_until(500);
    assert_eq!(h.preemptions_started(), vec![(100, "b_x2".to_string()), (110, "b_x1".to_string())]);
    assert_eq!(h.first_started("l1"), Some(220));
    assert_eq!(h.first_started("l2"), Some(230));
    assert_eq!(h.preempted_count("b_x2"), 1);
}

#[test]
fn r21_earmark_lapses_when_an_update_leaves_the_preemptor_not_fitting() {
    // B's quota moves to another type during the grace: b no longer fits and its earmark
    // lapses at once.
    let h = reclaim_setup().update_share(150, update("B").limits(&[(P5, 1)])).run_until(300);
    assert_eq!(h.waiting_preemptor(h.share_id("B")), None);
    assert!(h.attempts("b").is_empty());
    assert_eq!(h.reason("b"), Some(MISCONFIG_QUOTA.to_string()));
}

#[test]
fn r21_cross_share_victim_keeps_all_its_instances_during_grace() {
    // b_big (3 instances, B over quota by 2) is the victim for l (needs 1). It keeps all 3
    // until 220, so b_small cannot be dispatched before then: usage would be 5 > 4.
    let sc = Sc::new()
        .capacity(G5, 4)
        .share(lend("L", G5, 2))
        .share(lab("B", G5, 2))
        .job(job("b_own", "B").prio(9).dur(100_000))
        .job(job("b_big", "B").count(3).dur(100_000))
        .job(job("b_small", "B").prio(5).at(10).dur(100_000))
        .job(job("l", "L").at(100).dur(100_000));
    let mut h = sc.sim();
    while let Some(t) = h.step() {
        assert!(
            h.totals(G5).usage <= 4,
            "at {t}: usage {} above the service environment's 4",
            h.totals(G5).usage
        );
        if t >= 300 {
            break;
        }
    }
    assert_eq!(h.victims(), vec!["b_big"]);
    assert_eq!(h.first_started("l"), Some(220));
    assert_eq!(h.first_started("b_small"), Some(220));
}

#[test]
fn r21_in_share_victim_keeps_all_its_instances_during_grace() {
    // v (2 instances) is preempted in-share by hi (needs 1). Its second instance stays held
    // until 220; b2 may borrow it only then (usage would be 4 > 3).
    let sc = Sc::new()
        .capacity(G5, 3)
        .share(lend("S", G5, 2).in_share(true))
        .share(lab("B", G5, 1))
        .job(job("v", "S").count(2).dur(10_000))
        .job(job("b1", "B").dur(10_000))
        .job(job("b2", "B").at(10).dur(10_000))
        .job(job("hi", "S").prio(5).at(100).dur(10));
    let mut h = sc.sim();
    while let Some(t) = h.step() {
        assert!(
            h.totals(G5).usage <= 3,
            "at {t}: usage {} above the service environment's 3",
            h.totals(G5).usage
        );
        if t >= 300 {
            break;
        }
    }
    assert_eq!(h.victims()[0], "v");
    assert_eq!(h.first_started("hi"), Some(220));
    assert_eq!(h.first_started("b2"), Some(220));
}

#[test]
fn r21_oversubscribed_free_instance_of_a_victim_is_not_taken_early() {
    // Oversubscribed: x (share X) waits for `free`; v's second instance frees only at 220.
    let sc = Sc::new()
        .capacity(G5, 2)
        .share(reserve("X", G5, 1))
        .share(reserve("S", G5, 2).in_share(true))
        .job(job("v", "S").count(2).dur(10_000))
        .job(job("x", "X").at(10).dur(10_000))
        .job(job("hi", "S").prio(5).at(100).dur(10));
    let h = sc.run_until(300);
    assert_eq!(h.first_started("x"), Some(220));
    assert_eq!(h.first_started("hi"), Some(220));
}

#[test]
fn r21_update_lapses_only_the_earmarks_that_no_longer_fit_in_decision_order() {
    // Oversubscribed: r1 (at 100) and r2 (at 110) each earmark one of B's borrowed jobs.
    // At 150 the service environment drops to 2: with every victim released, r1 still fits
    // but r2 (the later earmark) does not, so only r2's earmark lapses.
    let sc = Sc::new()
        .capacity(G5, 3)
        .share(reserve("R1", G5, 1))
        .share(reserve("R2", G5, 1))
        .share(lend("L", G5, 2))
        .share(lab("B", G5, 1))
        .job(job("b_own", "B").prio(9).dur(100_000))
        .job(job("b_x1", "B").dur(100_000))
        .job(job("b_x2", "B").dur(100_000))
        .job(job("r1", "R1").at(100).dur(100_000))
        .job(job("r2", "R2").at(110).dur(100_000))
        .update_capacity(150, &[(G5, 2)]);
    let mut h = sc.sim();
    h.until(140);
    assert_eq!(h.preemptions_started(), vec![(100, "b_x2".to_string()), (110, "b_x1".to_string())]);
    h.until(150);
    assert_eq!(h.preemptions_started().len(), 2, "victims being preempted count as released: no new victim");
    assert_eq!(h.waiting_preemptor(h.share_id("R1")), Some(h.id("r1")));
    assert_eq!(h.waiting_preemptor(h.share_id("R2")), None);
    h.until(400);
    // At 220 b_x2 has released, but b_x1 still holds its instance until 230: dispatching r1
    // then would put held usage at 3, above the new limit of 2. [decided] R23 lets usage stay
    // above a lowered limit only for the victims themselves, so r1 waits; it would fit once
    // b_x1 releases, so it preempts nobody (b_own, on B's own quota, is never a victim).
    // r2 has held for free instances since its earmark lapsed at 150, r1 only since 220:
    // the older hold takes the instance b_x1 releases at 230 (R16).
    assert_eq!(h.victims(), vec!["b_x2", "b_x1"]);
    assert_eq!(h.first_started("r2"), Some(230));
    assert!(h.attempts("r1").is_empty());
    assert_eq!(h.reason("r1"), Some(WAIT_FREE.to_string()));
    assert_eq!(h.totals(G5).usage, 2);
}

#[test]
fn r21_victim_of_a_lapsed_earmark_still_counts_as_returning() {
    // b reclaims v at 100 and is terminated at 150 (its earmark lapses; v still releases at
    // 220). b2 arrives at 160: A will be back within its quota at 220, so b2 waits for v's
    // release instead of preempting a_hi, which runs on A's own quota. Reading tested: a job
    // being preempted counts as released when its share's over-quota usage X_S is computed
    // for R19 (as R23 states for lowered capacity).
    let h =
        reclaim_setup().job(job("b2", "B").at(160).dur(1000)).terminate(150, "b", "manual").run_until(500);
    assert_eq!(h.victims(), vec!["v"]);
    assert_eq!(h.status("a_hi"), Some(Running));
    assert_eq!(h.first_started("b2"), Some(220));
}

#[test]
fn r21_at_release_a_first_job_that_would_preempt_is_the_front_job_with_backfill() {
    // mid in-share preempts low at 10 and earmarks 2 instances. top (priority 5, needs 5)
    // arrives at 60. At 130 the front job is top (first job, would preempt): it does not fit
    // on the 2-instance earmark, so the earmark lapses and mid is not dispatched (only to be
    // preempted in the same pass). top preempts tiny alone and runs 250-350; mid 350-450.
    let h = Sc::new()
        .capacity(G5, 5)
        .backfill(true)
        .share(reserve("team", G5, 5).in_share(true))
        .job(job("low", "team").count(4).dur(1000))
        .job(job("tiny", "team").dur(1000))
        .job(job("mid", "team").prio(2).count(2).at(10).dur(100).retries(0))
        .job(job("top", "team").prio(5).count(5).at(60).dur(100))
        .run();
    assert_eq!(h.victims(), vec!["low", "tiny"]);
    assert_eq!(h.spans("top"), vec![(250, Some(350))]);
    assert_eq!(h.spans("mid"), vec![(350, Some(450))]);
    assert_eq!(h.status("mid"), Some(Succeeded));
    assert_eq!(h.spans("low"), vec![(0, Some(130)), (450, Some(1450))]);
    assert_eq!(h.preempted_count("low"), 1);
}

#[test]
fn r21_earmark_is_first_what_the_victims_return() {
    // b in-share preempts a at 10; a's 4 returning instances cover b's whole need, so b
    // withholds no idle capacity: c (LEND share l, within its own quota) runs at once.
    let h = Sc::new()
        .capacity(G5, 8)
        .share(reserve("r", G5, 4).in_share(true))
        .share(lend("l", G5, 4))
        .job(job("a", "r").count(4).dur(1000))
        .job(job("b", "r").prio(5).count(4).at(10).dur(100))
        .job(job("c", "l").count(4).at(20).dur(100))
        .run();
    assert_eq!(h.spans("c"), vec![(20, Some(120))]);
    assert_eq!(h.spans("b"), vec![(130, Some(230))]);
    assert_eq!(h.spans("a"), vec![(0, Some(130)), (230, Some(1230))]);
}

#[test]
fn r21_earmark_takes_idle_capacity_only_for_what_the_returns_do_not_cover() {
    // b (needs 3) preempts a (2 instances) in-share; the third instance comes from free
    // capacity and is withheld at once: c (needs 5 of l's 5) must wait for it.
    let h = Sc::new()
        .capacity(G5, 8)
        .share(reserve("r", G5, 3).in_share(true))
        .share(lend("l", G5, 5))
        .job(job("a", "r").count(2).dur(1000))
        .job(job("b", "r").prio(5).count(3).at(10).dur(100))
        .job(job("c", "l").count(4).at(20).dur(100))
        .job(job("d", "l").at(20).dur(100))
        .run_until(20);
    // Free at 20: 8 - 2 (a, held in its grace) - 1 (b's uncovered part) = 5.
    assert_eq!(h.status("c"), Some(Running));
    assert_eq!(h.status("d"), Some(Running));
    let h2 = Sc::new()
        .capacity(G5, 8)
        .share(reserve("r", G5, 3).in_share(true))
        .share(lend("l", G5, 6))
        .job(job("a", "r").count(2).dur(1000))
        .job(job("b", "r").prio(5).count(3).at(10).dur(100))
        .job(job("c", "l").count(6).at(20).dur(100))
        .run_until(20);
    assert_eq!(h2.reason("c"), Some(WAIT_FREE.to_string()));
}

#[test]
fn r21_another_front_job_fits_on_the_earmark_with_the_same_type_and_no_more_instances() {
    // l1 (2 instances) earmarks b_x's 2; l2 (priority 5, 2 instances of the same type) arrives
    // during the grace and takes the earmark at 220; l3 (priority 5, 3 instances) in the
    // second run does not fit on it: the earmark lapses and l1 is not dispatched ahead of it.
    let base = Sc::new()
        .capacity(G5, 4)
        .share(lend("L", G5, 3))
        .share(lab("B", G5, 1))
        .job(job("b_own", "B").prio(9).dur(100_000))
        .job(job("b_x", "B").count(2).dur(100_000))
        .job(job("l0", "L").prio(9).dur(100_000))
        .job(job("l1", "L").prio(1).count(2).at(100).dur(1000));
    let h = base.clone().job(job("l2", "L").prio(5).count(2).at(150).dur(1000)).run_until(500);
    assert_eq!(h.victims(), vec!["b_x"]);
    assert_eq!(h.first_started("l2"), Some(220));
    assert!(h.attempts("l1").is_empty());
    let h = base.job(job("l3", "L").prio(5).count(3).at(150).dur(1000)).run_until(500);
    assert!(h.attempts("l1").is_empty(), "l1 is not dispatched ahead of l3");
    assert!(h.attempts("l3").is_empty(), "l3 needs 3: L's quota is 3 and l0 holds 1");
}

#[test]
fn r21_reclaim_earmark_is_first_what_the_victim_returns_then_idle_capacity() {
    // v (3 instances) borrows 2 above V's quota of 1. At 100 p (3, within L's quota) is
    // short of the pool: it reclaims v, which returns only its 2 over-quota instances (R19).
    // p's earmark of 3 is those 2, and 1 idle instance withheld for the part they do not
    // cover; v keeps all 3 until it releases at 220. So of the 2 free instances, 1 is left
    // for others: r runs at 150, r2 waits.
    let h = Sc::new()
        .capacity(G5, 5)
        .share(lab("V", G5, 1))
        .share(lend("L", G5, 3))
        .share(reserve("R", G5, 1))
        .share(reserve("R2", G5, 1))
        .job(job("v", "V").count(3).dur(10_000))
        .job(job("p", "L").count(3).at(100).dur(100))
        .job(job("r", "R").at(150).dur(1000))
        .job(job("r2", "R2").at(150).dur(1000))
        .run_until(150);
    assert_eq!(h.victims(), vec!["v".to_string()]);
    let g5 = h.type_id(G5);
    assert_eq!(h.withheld(g5), 1, "the part of the earmark v's returns do not cover");
    assert_eq!(h.share_usage("L", G5).earmarked, 3);
    assert_eq!(h.used("V", G5), 3, "v holds every instance until it releases");
    assert_eq!(h.first_started("r"), Some(150));
    assert_eq!(h.status("r2"), Some(Runnable));
    let mut h = h;
    h.until(220);
    assert_eq!(h.first_started("p"), Some(220));
}
