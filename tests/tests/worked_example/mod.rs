//! Semantics spec section 9: the AWS example notebook, from `fixtures/notebook.json`.
//!
//! Grace 120 s. t=0: qs1's three jobs arrive; t=900: qs2_job arrives and reclaims; t=1800:
//! qs1_job_low is raised to priority 4 and preempts qs1_job_high in-share.

use quotasim::json::load_scenario;
use quotasim::result::{EventType, Status};
use quotasim::Simulation;
use quotasim_tests::*;

use Status::*;

fn notebook() -> H {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/notebook.json"))
        .expect("fixture");
    let v = load_scenario(&text).unwrap_or_else(|p| panic!("{p:?}"));
    H::new(Simulation::new(v))
}

#[test]
fn worked_example_step1_borrowing_and_reserve() {
    let mut h = notebook();
    h.until(0);
    assert_eq!(h.status("qs1_job_high"), Some(Running));
    assert_eq!(h.attempts("qs1_job_high")[0].borrowed_instances, 0, "on qs1's own quota");
    assert_eq!(h.status("qs1_job_med"), Some(Running));
    assert_eq!(h.attempts("qs1_job_med")[0].borrowed_instances, 1, "borrowed");
    let qs1 = h.share_usage("qs1", G5);
    assert_eq!(
        qs1.borrowed_from.iter().map(|f| (f.quota_share_name.as_str(), f.instances)).collect::<Vec<_>>(),
        vec![("qs2", 1)]
    );
    assert_eq!(h.status("qs1_job_low"), Some(Runnable));
    assert_eq!(h.reason("qs1_job_low"), Some(WAIT_POOL.to_string()), "qs3 never lends");
    assert_eq!(h.share_usage("qs3", G5).usage, 0);
    assert_eq!(h.share_usage("qs3", G5).lent, 0);
}

#[test]
fn worked_example_step2_cross_share_reclaim() {
    let mut h = notebook();
    h.until(900);
    assert_eq!(h.victims(), vec!["qs1_job_med"]);
    let e = &h.preemption_events("qs1_job_med", EventType::PreemptionStarted)[0];
    assert_eq!(e.at, 900);
    assert_eq!(e.reason.as_deref(), Some(CROSS_SHARE));
    assert_eq!(e.preempted_by, Some(Some("qs2_job".to_string())));
    // 900 s of training, checkpoint every 600: 300 s lost.
    assert_eq!(e.lost_work_seconds, Some(300));
    assert_eq!(h.reason("qs2_job"), Some(WAIT_PREEMPTION.to_string()));
    h.until(1020);
    assert_eq!(h.status("qs1_job_med"), Some(Runnable));
    assert_eq!(h.preempted_count("qs1_job_med"), 1);
    assert_eq!(h.status("qs2_job"), Some(Running));
    assert_eq!(h.first_started("qs2_job"), Some(1020));
    assert_eq!(h.spans("qs1_job_med"), vec![(0, Some(1020))]);
}

#[test]
fn worked_example_step3_in_share_preemption() {
    let mut h = notebook();
    h.until(1800);
    assert_eq!(h.job("qs1_job_low").scheduling_priority, 4);
    assert_eq!(
        h.preemptions_started(),
        vec![(900, "qs1_job_med".to_string()), (1800, "qs1_job_high".to_string())]
    );
    let e = &h.preemption_events("qs1_job_high", EventType::PreemptionStarted)[0];
    assert_eq!(e.reason.as_deref(), Some(IN_SHARE));
    assert_eq!(e.preempted_by, Some(Some("qs1_job_low".to_string())));
    // 1800 s trained, checkpoints at 600/1200/1800: nothing lost.
    assert_eq!(e.lost_work_seconds, Some(0));
    h.until(1920);
    assert_eq!(h.status("qs1_job_low"), Some(Running));
    assert_eq!(h.first_started("qs1_job_low"), Some(1920));
    assert_eq!(h.status("qs1_job_high"), Some(Runnable));
    assert_eq!(h.status("qs1_job_med"), Some(Runnable), "the priority-2 job keeps waiting");
    assert_eq!(h.status("qs2_job"), Some(Running));
    assert_eq!(h.share_usage("qs3", G5).usage, 0, "qs3's instance stays idle");
}

#[test]
fn worked_example_qs3_idle_throughout_and_everything_finishes() {
    let mut h = notebook();
    while h.step().is_some() {
        assert_eq!(h.share_usage("qs3", G5).usage, 0);
        assert_eq!(h.share_usage("qs3", G5).lent, 0);
    }
    for j in ["qs1_job_high", "qs1_job_med", "qs1_job_low", "qs2_job"] {
        assert_eq!(h.status(j), Some(Succeeded), "{j}");
        assert_eq!(h.trained(j), 14_400 + h.lost(j), "{j}");
    }
    assert_eq!(h.lost("qs1_job_med"), 300);
    assert_eq!(h.lost("qs1_job_high"), 0);
}
