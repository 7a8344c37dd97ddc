//! R15: which lender's idle quota a share's borrowed instances are attributed to, per type.

use alloc::vec;
use alloc::vec::Vec;

use super::Ledger;
use crate::scenario::{ShareId, TypeId};

/// Borrowed and lent instances of one share (R15).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct BorrowedLent {
    pub borrowed: u64,
    pub lent: u64,
}

/// Instances of one borrower attributed to one lender (R15).
#[derive(Clone, Copy, Debug)]
pub(crate) struct FlowOf {
    pub borrower: ShareId,
    pub lender: ShareId,
    pub instances: u64,
}

/// R15 for one type: per share, what it borrows and lends; the flows; and borrowed
/// instances no lender's idle quota accounts for.
pub(crate) struct Attribution {
    pub per_share: Vec<BorrowedLent>,
    pub flows: Vec<FlowOf>,
    pub unattributed: u64,
}

/// R15: attributes type `t`'s borrowed instances to lenders, from what the ledger holds now;
/// returns per share (borrowed, lent) and the flows `(borrower, lender, n)`.
pub(crate) fn attribution(ledger: &Ledger, t: TypeId) -> Attribution {
    let ns = ledger.share_count();
    let mut per = vec![BorrowedLent::default(); ns];
    let mut flows = Vec::new();
    let mut idle: Vec<u64> = (0..ns)
        .map(|l| {
            if ledger.lends(ShareId::at(l)) {
                ledger.quota(ShareId::at(l), t).saturating_sub(ledger.held(ShareId::at(l), t))
            } else {
                0
            }
        })
        .collect();
    let mut lender = 0usize;
    let mut unattributed = 0;
    for b in 0..ns {
        let mut x = ledger.held(ShareId::at(b), t).saturating_sub(ledger.quota(ShareId::at(b), t));
        per[b].borrowed = x;
        while x > 0 {
            while lender < ns && idle[lender] == 0 {
                lender += 1;
            }
            if lender >= ns {
                unattributed += x;
                break;
            }
            let k = x.min(idle[lender]);
            idle[lender] -= k;
            per[lender].lent += k;
            flows.push(FlowOf { borrower: ShareId::at(b), lender: ShareId::at(lender), instances: k });
            x -= k;
        }
    }
    Attribution { per_share: per, flows, unattributed }
}
