//! R1-R4: service environment, quota shares, oversubscription, strategies.

use quotasim::model::Strategy;
use quotasim::result::Status;
use quotasim_tests::*;

#[test]
fn r1_capacity_is_counted_in_instances_and_gpus_only_in_metrics() {
    // Two 8-GPU instances: two one-instance jobs run, whatever the GPU count.
    let h = Sc::new()
        .capacity(P5, 2)
        .share(reserve("A", P5, 2))
        .job(job("x", "A").ty(P5).dur(3600))
        .job(job("y", "A").ty(P5).dur(3600))
        .run();
    assert_eq!(h.first_started("y"), Some(0));
    let o = h.summary().overall;
    assert!((o.instance_hours - 2.0).abs() < 1e-9, "{}", o.instance_hours);
    assert!((o.gpu_hours - 16.0).abs() < 1e-9, "catalogue: ml.p5.48xlarge has 8 GPUs; {}", o.gpu_hours);
    assert_eq!(h.totals(P5).gpus_per_instance, 8);
}

#[test]
fn r1_instance_types_give_gpu_counts_and_unknown_types_count_zero() {
    let h = Sc::new()
        .capacity("ml.custom", 1)
        .capacity(G5, 1)
        .gpus(G5, 4)
        .share(reserve("A", "ml.custom", 1).limit(G5, 1))
        .job(job("c", "A").ty("ml.custom").dur(3600))
        .job(job("g", "A").dur(3600))
        .run();
    let o = h.summary().overall;
    assert!((o.instance_hours - 2.0).abs() < 1e-9);
    assert!(
        (o.gpu_hours - 4.0).abs() < 1e-9,
        "declared 4 GPUs for G5, 0 for the unknown type: {}",
        o.gpu_hours
    );
    assert_eq!(h.totals("ml.custom").gpus_per_instance, 0);
    assert_eq!(h.totals(G5).gpus_per_instance, 4);
}

#[test]
fn r1_job_of_a_type_without_limit_never_runs() {
    let h =
        Sc::new().capacity(G5, 1).share(lab("A", G5, 1).limit(P5, 1)).job(job("p", "A").ty(P5).dur(10)).run();
    assert_eq!(h.status("p"), Some(Status::Runnable));
    assert_eq!(h.reason("p"), Some(MISCONFIG_SE.to_string()));
    assert_eq!(h.totals(P5).service_environment_capacity, None);
}

#[test]
fn r2_share_defaults_enabled_no_in_share_preemption_unlimited_borrow() {
    let v = Sc::new().capacity(G5, 2).share(lab("A", G5, 2)).valid();
    let s = &v.shares[0];
    assert!(s.enabled);
    assert!(!s.in_share_preemption);
    assert_eq!(s.borrow_limit, quotasim::scenario::BorrowLimit::Unlimited);
}

#[test]
fn r3_oversubscription_is_a_warning_not_an_error() {
    let sc = Sc::new().capacity(G5, 2).share(reserve("A", G5, 2)).share(lend("B", G5, 2));
    let v = sc.validate().expect("oversubscription is allowed");
    let w: Vec<_> = v.warnings.iter().filter(|p| !p.is_error()).collect();
    assert!(
        w.iter().any(|p| p.path == "serviceEnvironment.capacityLimits[0].maxCapacity"),
        "an oversubscription warning with the limit's path: {:?}",
        v.warnings
    );
}

#[test]
fn r3_service_environment_cap_applies_at_dispatch() {
    let h = Sc::new()
        .capacity(G5, 2)
        .share(reserve("A", G5, 2))
        .share(reserve("B", G5, 2))
        .jobs(2, |i| job(&format!("a{i}"), "A").dur(100))
        .jobs(2, |i| job(&format!("b{i}"), "B").dur(100))
        .run_until(1);
    assert_eq!(h.totals(G5).usage, 2);
    assert_eq!(h.totals(G5).free, 0);
}

/// R4 table: does the share's idle quota serve another share's borrowing, and may its own
/// jobs borrow?
#[test]
fn r4_strategies_lend_and_borrow_table() {
    let table = [
        (Strategy::Reserve, false, false),
        (Strategy::Lend, true, false),
        (Strategy::LendAndBorrow, true, true),
    ];
    for (strategy, lends, borrows) in table {
        // Does S lend? S idle, borrower X (LEND_AND_BORROW) wants 2 with quota 1.
        let h = Sc::new()
            .capacity(G5, 2)
            .share(share("S", strategy, G5, 1))
            .share(lab("X", G5, 1))
            .jobs(2, |i| job(&format!("x{i}"), "X"))
            .run_until(1);
        assert_eq!(h.status("x2") == Some(Status::Running), lends, "{strategy:?} lends");
        // Does S borrow? lender Y idle, S wants 2 with quota 1.
        let h = Sc::new()
            .capacity(G5, 2)
            .share(share("S", strategy, G5, 1))
            .share(lend("Y", G5, 1))
            .jobs(2, |i| job(&format!("s{i}"), "S"))
            .run_until(1);
        assert_eq!(h.status("s2") == Some(Status::Running), borrows, "{strategy:?} borrows");
    }
}
