//! R22, R23: timed actions: priority updates, termination, share and capacity updates.

use alloc::vec::Vec;

use crate::model::Strategy;
use crate::reasons::Reason;
use crate::result::Status;
use crate::scenario::{ActionCfg, TypeId};

use super::Simulation;

impl Simulation {
    pub(crate) fn apply_action(&mut self, a: &ActionCfg) {
        match a {
            ActionCfg::UpdatePriority { job, priority } => {
                let j = *job;
                let s = self.job_cfg(j).share;
                let k = self.qkey(j);
                let queued = self.jobs.status(j) == Some(Status::Runnable) && self.queues.contains(s, &k);
                if queued {
                    // Every action has every share looked at: no mark needed.
                    self.queues.remove(s, &k);
                    self.count_queued(j, false);
                    self.waits.dequeued(j, s, self.now);
                }
                self.jobs.set_priority(j, *priority);
                self.running.set_priority(self.run_list(j), j, *priority);
                if queued {
                    self.enqueue(j);
                }
            }
            ActionCfg::Terminate { job, reason } => {
                let idx = self.terminate_reasons.len() as u32;
                self.terminate_reasons.push(reason.clone());
                self.terminate(*job, Reason::Terminated(idx));
            }
            ActionCfg::UpdateShare(u) => {
                let limits = self.ledger.runnable_limits().to_vec();
                let s = u.share;
                let old_quota: Vec<u64> = (0..self.nt).map(|t| self.ledger.quota(s, TypeId::at(t))).collect();
                let old_strategy = self.ledger.strategy(s);
                self.ledger.update_share(self.now, s, u.quota.as_deref(), u.sharing);
                if let Some(isp) = u.in_share_preemption {
                    self.in_share[s.index()] = isp;
                }
                if let Some(en) = u.enabled {
                    self.enabled[s.index()] = en;
                }
                // R22: over quota because of the update.
                let strategy = self.ledger.strategy(s);
                for t in TypeId::all(self.nt) {
                    let used = self.ledger.committed(s, t);
                    let q = self.ledger.quota(s, t);
                    if used > q {
                        let lowered = q < old_quota[t.index()];
                        let lost_borrowing =
                            old_strategy == Strategy::LendAndBorrow && strategy != Strategy::LendAndBorrow;
                        let beyond = match self.ledger.allowance(s, t) {
                            _ if strategy != Strategy::LendAndBorrow => true,
                            None => false,
                            Some(a) => used > q + a,
                        };
                        if lowered || lost_borrowing || beyond {
                            self.ledger.set_over_by_update(s, t);
                        }
                    }
                }
                self.check_earmarks();
                self.recheck_never_runnable(&limits);
            }
            ActionCfg::UpdateCapacity { limits } => {
                let before = self.ledger.runnable_limits().to_vec();
                self.ledger.update_capacity(self.now, limits);
                for t in 0..self.nt {
                    if let Some(plan) = self.planner().plan_shrink(TypeId::at(t)) {
                        self.execute(None, plan);
                    }
                }
                self.check_earmarks();
                self.recheck_never_runnable(&before);
            }
        }
    }
}
