//! R18-R22: reclaim, victim choice, in-share preemption, grace periods and earmarks, and
//! shares over quota after an update.

use quotasim_tests::*;

mod r18_reclaim;
mod r19_victims;
mod r20_in_share;
mod r21_grace;
mod r22_over_quota;

/// Two instances; `A` (LEND_AND_BORROW, quota 1) runs `a_hi` on its quota and `v` borrowed
/// from `B` (LEND, quota 1); `B`'s job `b` arrives at 100 and reclaims (grace 120).
pub(super) fn reclaim_setup() -> Sc {
    Sc::new()
        .capacity(G5, 2)
        .share(lab("A", G5, 1))
        .share(lend("B", G5, 1))
        .job(job("a_hi", "A").prio(1).dur(100_000))
        .job(job("v", "A").dur(100_000))
        .job(job("b", "B").at(100).dur(1000))
}
