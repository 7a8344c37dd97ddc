//! Unit tests of the ledger.

use super::*;
use crate::model::{CapacityLimit, QuotaShare, ResourceSharing, Scenario};
use crate::scenario::JobId;
use alloc::vec;

const T: TypeId = TypeId(0);
const G5: &str = "ml.g5.xlarge";

/// Capacity 10; share 0 `LEND` with quota 4, share 1 `LEND_AND_BORROW` with quota 2 and
/// borrow limit 100 %, share 2 `RESERVE` with quota 3.
fn scenario() -> Scenario {
    let mut s = Scenario::default();
    s.service_environment.capacity_limits = vec![CapacityLimit::new(G5, 10)];
    let mut b = QuotaShare::new("b", Strategy::LendAndBorrow, vec![CapacityLimit::new(G5, 2)]);
    b.resource_sharing_configuration = ResourceSharing::new(Strategy::LendAndBorrow, Some(100));
    s.quota_shares = vec![
        QuotaShare::new("a", Strategy::Lend, vec![CapacityLimit::new(G5, 4)]),
        b,
        QuotaShare::new("c", Strategy::Reserve, vec![CapacityLimit::new(G5, 3)]),
    ];
    s
}

/// The ledger of [`scenario`].
fn ledger() -> Ledger {
    Ledger::new(&crate::validate(&scenario()).unwrap())
}

fn need(share: ShareId, count: u64) -> Need {
    Need { job: JobId(0), share, ty: T, count }
}

#[test]
fn r13_the_pool_is_the_lenders_quota_and_the_allowance_a_percentage_of_quota() {
    let l = ledger();
    assert_eq!(l.pool_capacity(T), 6);
    assert_eq!(l.allowance(ShareId(1), T), Some(2));
    assert_eq!(l.allowance(ShareId(0), T), None, "no borrow limit: no limit");
    assert!(l.lends(ShareId(0)) && l.lends(ShareId(1)) && !l.lends(ShareId(2)));
}

#[test]
fn r14_a_fit_within_quota_needs_free_capacity_and_for_a_lender_the_pool() {
    let mut l = ledger();
    assert!(l.fits(need(ShareId(0), 4), || 0, 0, true));
    assert!(!l.fits(need(ShareId(0), 5), || 0, 0, false), "a lender never borrows");
    l.add_committed(ShareId(1), T, 2);
    // Share 1 borrows up to its allowance (2 more), from the pool (6 - 2 used).
    assert!(l.fits(need(ShareId(1), 2), || 0, 0, false));
    assert!(!l.fits(need(ShareId(1), 2), || 0, 0, true), "not within quota");
    assert!(!l.fits(need(ShareId(1), 3), || 0, 0, false), "beyond the borrow limit");
    // The reserving share is outside the pool but inside the service environment.
    l.add_committed(ShareId(0), T, 4);
    assert_eq!(l.pool_available(T), 0);
    assert!(l.fits(need(ShareId(2), 3), || 0, 0, true));
    l.change_withheld(T, 2, 0);
    assert_eq!(l.free(T, || 0), 2);
    assert!(!l.fits(need(ShareId(2), 3), || 0, 0, true), "held instances are not free");
    assert!(l.fits(need(ShareId(2), 3), || 1, 0, true), "except the job's own");
}

#[test]
fn r14_instances_released_by_in_share_victims_count_as_free() {
    let mut l = ledger();
    l.add_committed(ShareId(2), T, 3);
    assert!(!l.fits(need(ShareId(2), 2), || 0, 0, true));
    assert!(l.fits(need(ShareId(2), 2), || 0, 2, true));
}

#[test]
fn r21_a_credit_moves_quota_usage_to_the_victims_share_until_it_releases() {
    let mut l = ledger();
    // Share 1 borrowed 4 (2 over quota); share 0's preemptor takes 2 of them.
    l.add_committed(ShareId(1), T, 4);
    assert_eq!(l.over_quota(ShareId(1), T), 2);
    l.start_preemption(ShareId(1), T, 4, 2, Some(ShareId(0)));
    l.add_committed(ShareId(0), T, 2);
    assert_eq!(l.quota_usage(ShareId(1), T), 4, "the victim still holds its instances");
    assert_eq!(l.quota_usage(ShareId(0), T), 0, "the earmark is covered by the credit");
    assert_eq!(l.over_quota(ShareId(1), T), 0, "nothing is reclaimed twice");
    assert_eq!(l.committed_total(T), 4);
    l.end_preemption(ShareId(1), T, 4, 2, Some(ShareId(0)));
    assert_eq!(l.quota_usage(ShareId(1), T), 0);
    assert_eq!(l.quota_usage(ShareId(0), T), 2);
    assert_eq!(l.committed_total(T), 2);
}

#[test]
fn a_what_if_leaves_the_ledger_as_it_was_but_keeps_the_types_marked() {
    let mut l = ledger();
    l.add_committed(ShareId(1), T, 4);
    l.start_preemption(ShareId(1), T, 4, 2, Some(ShareId(0)));
    l.add_committed(ShareId(0), T, 2);
    l.changes_mut().clear();
    let before =
        (l.quota_usage(ShareId(0), T), l.quota_usage(ShareId(1), T), l.pool_available(T), l.free(T, || 0));
    let fits = l.what_if(|l| {
        l.sub_committed(ShareId(0), T, 2);
        l.release_all_preempted();
        l.fits(need(ShareId(0), 4), || 0, 0, true)
    });
    assert!(fits);
    assert_eq!(
        before,
        (l.quota_usage(ShareId(0), T), l.quota_usage(ShareId(1), T), l.pool_available(T), l.free(T, || 0))
    );
    assert!(l.changes().any());
}

#[test]
fn r22_an_update_flag_clears_when_usage_is_back_within_quota() {
    let mut l = ledger();
    l.add_committed(ShareId(2), T, 3);
    l.update_share(0, ShareId(2), Some(&[1]), None);
    l.set_over_by_update(ShareId(2), T);
    l.sub_committed(ShareId(2), T, 1);
    assert!(l.over_by_update(ShareId(2), T));
    l.sub_committed(ShareId(2), T, 1);
    assert!(!l.over_by_update(ShareId(2), T));
}

#[test]
fn r26_held_usage_is_integrated_as_it_changes() {
    let mut l = ledger();
    l.change_held(10, ShareId(1), T, 3, 0);
    l.change_held(20, ShareId(1), T, 0, 3);
    let ig = l.integrals_at(30);
    let a = &ig.acc[l.st(ShareId(1), T)];
    assert_eq!((a.used, a.own, a.borrowed, a.quota), (30, 20, 10, 60));
    // Share 0 lent the borrowed instance for those 10 seconds (R15).
    assert_eq!(ig.acc[l.st(ShareId(0), T)].lent, 10);
    assert_eq!(ig.cap[T.index()], 300);
}

#[test]
fn r14_the_lazy_fit_answers_as_the_full_check_does() {
    // Every share of every strategy (a borrow limit and none), every use of capacity 10 up to
    // over it, held free instances, own holds and releases, credits of a preemption under
    // way, and both phases: `fits` reads lazily what `check` reads at once.
    // The shares of [`scenario`] and a fourth that borrows without a limit.
    let mut s = scenario();
    s.quota_shares.push(QuotaShare::new("d", Strategy::LendAndBorrow, vec![CapacityLimit::new(G5, 1)]));
    let base = Ledger::new(&crate::validate(&s).unwrap());
    let mut checked = 0;
    let mut fitted = 0;
    for used in 0..81u64 {
        for credit in [false, true] {
            let mut l = base.clone();
            for (share, units) in
                [(0, used % 3 * 2), (1, used / 3 % 3 * 2), (2, used / 9 % 3), (3, used / 27 % 3 * 2)]
            {
                l.add_committed(ShareId(share), T, units);
            }
            if credit {
                l.add_committed(ShareId(1), T, 3);
                l.start_preemption(ShareId(1), T, 3, 2, Some(ShareId(3)));
                l.add_committed(ShareId(3), T, 2);
            }
            for withheld in 0..3 {
                let mut l = l.clone();
                l.change_withheld(T, withheld, 0);
                for share in 0..4 {
                    for count in 1..7 {
                        for (hold, release, within) in
                            (0..2).flat_map(|h| (0..3).flat_map(move |r| [(h, r, true), (h, r, false)]))
                        {
                            let n = need(ShareId(share), count);
                            let lazy = l.fits(n, || hold.min(withheld), release, within);
                            let full = l.check(n, || hold.min(withheld), release).fits(within);
                            assert_eq!(lazy, full, "{n:?} hold {hold} release {release} within {within}");
                            checked += 1;
                            fitted += usize::from(lazy);
                        }
                    }
                }
            }
        }
    }
    assert!(fitted > checked / 10 && fitted < checked * 9 / 10, "{fitted} of {checked} fit");
}
