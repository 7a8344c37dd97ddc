//! R28: a scenario that starts from a live state. The shares' `capacityLimitReduced` types,
//! and warnings for usage at `settings.startAt` above the limits (accepted: the engine handles
//! it as the corresponding action at `startAt`).

use alloc::format;
use alloc::vec;

use super::check::*;
use crate::model::*;
use crate::scenario::*;

/// Resolves each share's `capacityLimitReduced` to instance type ids.
pub(super) fn limits_reduced(c: &mut Checker, s: &Scenario, shares: &mut [ShareCfg]) {
    for (i, q) in s.quota_shares.iter().enumerate() {
        for (k, name) in q.capacity_limit_reduced.iter().enumerate() {
            match c.type_ids.get(name.as_str()) {
                Some(&t) => {
                    if let Some(sh) = shares.get_mut(i) {
                        sh.limit_reduced[t.index()] = true;
                    }
                }
                None => c.err(
                    format!("quotaShares[{i}].capacityLimitReduced[{k}]"),
                    format!("{name} is no instance type of this scenario's limits or jobs"),
                ),
            }
        }
    }
}

/// Warnings for usage at `startAt` (jobs with `startedAt`) above a share's quota and
/// allowance, or a share's quota while it cannot borrow (R22 at `startAt`), or the service
/// environment's limit (R23 at `startAt`).
pub(super) fn usage_at_start(
    c: &mut Checker,
    settings: &SettingsCfg,
    capacity: &[Option<u64>],
    shares: &[ShareCfg],
    jobs: &[JobCfg],
) {
    let nt = capacity.len();
    let mut usage = vec![0u64; shares.len() * nt];
    let mut any = false;
    for j in jobs.iter().filter(|j| j.started_at.is_some()) {
        if let Some(u) = usage.get_mut(j.share.index() * nt + j.ty.index()) {
            *u = u.saturating_add(j.count);
            any = true;
        }
    }
    if !any {
        return;
    }
    let at = settings.start_at;
    for (i, sh) in shares.iter().enumerate() {
        for t in 0..nt {
            let (u, q) = (usage[i * nt + t], sh.quota[t]);
            let most = match sh.strategy {
                Strategy::LendAndBorrow => sh.borrow_limit.allowance(q).map(|a| q + a),
                _ => Some(q),
            };
            if most.is_some_and(|m| u > m) || sh.limit_reduced[t] && u > q {
                let name = &c.types[t].name;
                c.warn(
                    format!("quotaShares[{i}].capacityLimits"),
                    format!(
                        "its jobs hold {u} {name} at startAt ({at}), above what its quota allows: it is over \
                         quota as after a lowered limit (R22) until back within its quota of {q}"
                    ),
                );
            }
        }
    }
    for t in 0..nt {
        let u: u64 = (0..shares.len()).map(|i| usage[i * nt + t]).sum();
        let cap = capacity[t].unwrap_or(0);
        if u > cap {
            let name = &c.types[t].name;
            c.warn(
                "serviceEnvironment.capacityLimits",
                format!(
                    "jobs hold {u} {name} at startAt ({at}), above the service environment's limit of {cap}: \
                     victims are chosen at startAt as for a lowered limit (R23)"
                ),
            );
        }
    }
}
