//! The wait breakdown (`runnableSecondsByCause`) for people: each cause in words, which causes
//! a table shows, and a job's breakdown as the segments of a stacked bar. Pure, tested natively.

use quotasim::reasons::WaitCause;
use quotasim::result::{CauseSeconds, Metrics};

/// A cause in a few words (its key in results is [`WaitCause::key`]).
pub fn label(c: WaitCause) -> &'static str {
    match c {
        WaitCause::QuotaUsed => "quota in use",
        WaitCause::BorrowLimit => "borrow limit",
        WaitCause::CannotBorrow => "cannot borrow",
        WaitCause::LimitLowered => "limit lowered",
        WaitCause::Pool => "pool in use",
        WaitCause::ServiceEnvironment => "service environment",
        WaitCause::PreemptionInProgress => "preemption in progress",
        WaitCause::Misconfiguration => "misconfigured",
        WaitCause::Behind => "behind its share's first job",
    }
}

/// What a cause means, for a tooltip.
pub fn meaning(c: WaitCause) -> &'static str {
    match c {
        WaitCause::QuotaUsed => "its share's own quota is in use by its own jobs (R14)",
        WaitCause::BorrowLimit => "its LEND_AND_BORROW share is at its borrow limit (R14)",
        WaitCause::CannotBorrow => {
            "its RESERVE or LEND share is at its quota while the pool has idle capacity (R4)"
        }
        WaitCause::LimitLowered => "its share is over a limit an update lowered (R22)",
        WaitCause::Pool => "the lending pool is in use by other shares (R13)",
        WaitCause::ServiceEnvironment => "short of the service environment's free instances (R3)",
        WaitCause::PreemptionInProgress => "waiting for the victims of a preemption to stop (R21)",
        WaitCause::Misconfiguration => "it can never run as configured (R17)",
        WaitCause::Behind => "behind its share's first job, which waits (R12)",
    }
}

/// The causes that held any share's jobs, in [`WaitCause::ALL`] order.
pub fn shown(per_share: &[(String, Metrics)]) -> Vec<WaitCause> {
    WaitCause::ALL
        .into_iter()
        .filter(|&c| per_share.iter().any(|(_, m)| m.runnable_seconds_by_cause.get(c) > 0))
        .collect()
}

/// A job's breakdown as stacked-bar segments: each cause it waited for with its seconds and
/// its fraction of the whole (in [`WaitCause::ALL`] order); empty when it never waited.
pub fn segments(b: &CauseSeconds) -> Vec<(WaitCause, u64, f64)> {
    let total = b.total();
    if total == 0 {
        return Vec::new();
    }
    WaitCause::ALL
        .into_iter()
        .filter(|&c| b.get(c) > 0)
        .map(|c| (c, b.get(c), b.get(c) as f64 / total as f64))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_add_up_to_the_whole_bar_in_cause_order() {
        let mut b = CauseSeconds::default();
        b.0[WaitCause::Behind as usize] = 300;
        b.0[WaitCause::Pool as usize] = 100;
        let s = segments(&b);
        assert_eq!(s.iter().map(|x| x.0).collect::<Vec<_>>(), [WaitCause::Pool, WaitCause::Behind]);
        assert_eq!((s[0].1, s[1].1), (100, 300));
        assert!((s.iter().map(|x| x.2).sum::<f64>() - 1.0).abs() < 1e-12);
        assert!(segments(&CauseSeconds::default()).is_empty());
    }

    #[test]
    fn a_table_shows_the_causes_some_share_waited_for() {
        let mut a = Metrics::default();
        a.runnable_seconds_by_cause.0[WaitCause::QuotaUsed as usize] = 5;
        let mut b = Metrics::default();
        b.runnable_seconds_by_cause.0[WaitCause::Behind as usize] = 7;
        let shares = vec![("a".to_string(), a), ("b".to_string(), b)];
        assert_eq!(shown(&shares), [WaitCause::QuotaUsed, WaitCause::Behind]);
        assert!(WaitCause::ALL.iter().all(|&c| !label(c).is_empty() && !meaning(c).is_empty()));
    }
}
