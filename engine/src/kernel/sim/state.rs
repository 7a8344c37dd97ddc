//! R28 forking: the state of a run after its current instant, as a scenario that starts
//! there (`settings.startAt`). Every job that has not finished, with what it has done; the
//! configuration as actions left it; the actions still to come, less those naming a finished
//! job; and a `history` of the durations seen (jobs that succeeded, and those still running,
//! censored at the work they have done) for forecasts. Run from `startAt`, it gives every job the same outcome as the uninterrupted run when
//! no preemption is in progress and no job holds free instances (R16); otherwise the state is
//! still written, with a note of what it cannot carry.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::model::{
    Action, ActionKind, CapacityLimit, ObservedDuration, ResourceSharing, Scenario, ShareState, Strategy,
    Toggle,
};
use crate::result::Status;
use crate::scenario::{JobId, ShareId, TypeId};

use super::report::View;

/// A state scenario and what it does not carry exactly.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// The scenario starting at the run's current instant.
    pub scenario: Scenario,
    /// Why running it may not give the uninterrupted run's outcomes (empty: it does).
    pub inexact: Vec<String>,
}

impl View<'_> {
    /// The state after the current instant as an R28 scenario; `expanded` is the scenario
    /// that was validated into this run (its `workload` expanded), whose fields are kept.
    pub fn state(&self, expanded: &Scenario, enabled: &[bool]) -> State {
        let mut s = expanded.clone();
        let mut inexact = Vec::new();
        s.workload = None;
        s.settings.start_at = self.now as i64;
        let nt = self.nt();
        let name = |t: TypeId| self.cfg.types[t.index()].name.clone();
        // The service environment as updates left it.
        s.service_environment.capacity_limits = TypeId::all(nt)
            .filter_map(|t| self.ledger.capacity(t).map(|c| CapacityLimit::new(&name(t), c as i64)))
            .collect();
        // The shares as updates left them.
        for (i, q) in s.quota_shares.iter_mut().enumerate() {
            let sh = ShareId::at(i);
            q.capacity_limits = TypeId::all(nt)
                .filter(|&t| self.ledger.quota(sh, t) > 0)
                .map(|t| CapacityLimit::new(&name(t), self.ledger.quota(sh, t) as i64))
                .collect();
            let strategy = self.ledger.strategy(sh);
            q.resource_sharing_configuration = ResourceSharing::new(
                strategy,
                (strategy == Strategy::LendAndBorrow).then(|| self.ledger.borrow_limit(sh).to_format()),
            );
            q.preemption_configuration.in_share_preemption =
                if self.in_share[i] { Toggle::Enabled } else { Toggle::Disabled };
            q.state = if enabled[i] { ShareState::Enabled } else { ShareState::Disabled };
            q.capacity_limit_reduced =
                TypeId::all(nt).filter(|&t| self.ledger.over_by_update(sh, t)).map(name).collect();
        }
        // Jobs that have not finished, with what they did.
        let mut finished = alloc::collections::BTreeSet::new();
        let mut jobs = Vec::with_capacity(s.jobs.len());
        let mut history = core::mem::take(&mut s.history);
        for (k, j) in s.jobs.iter().enumerate() {
            let id = k as u32;
            let jd = self.jobs.get(JobId(id));
            let mut j = j.clone();
            // R23: the priority as updates left it, submitted or not.
            j.scheduling_priority = jd.priority as i64;
            match jd.status {
                Some(st @ (Status::Succeeded | Status::Failed)) => {
                    // What forecasts learn from: the durations of the jobs that succeeded.
                    if st == Status::Succeeded {
                        history.push(self.observed(id, self.job_cfg(JobId(id)).duration, false));
                    }
                    finished.insert(String::from(j.job_name.as_str()));
                    continue;
                }
                None => {}
                Some(st) => {
                    j.previous_attempts = jd.preempted_count as i64;
                    j.completed_work_seconds = jd.saved as i64;
                    j.started_at = None;
                    if jd.preempting.get().is_some() {
                        // R28: not carried; it is queued with this preemption counted.
                        j.previous_attempts += 1;
                        inexact
                            .push(format!("{} is in its grace period: it is written as queued", j.job_name));
                    } else if st.holds_capacity() {
                        j.started_at = self.jobs.last_attempt(JobId(id)).map(|a| a.started as i64);
                        // Still running: it needs at least the work done so far (censored).
                        let done = jd.saved + self.jobs.attempt_training(JobId(id), self.now);
                        if done > 0 {
                            history.push(self.observed(id, done, true));
                        }
                    }
                }
            }
            jobs.push(j);
        }
        s.jobs = jobs;
        s.history = history;
        // Actions still to come, less those naming a finished job.
        s.actions = expanded
            .actions
            .iter()
            .filter(|a| a.at > self.now as i64)
            .filter(|a| match &a.kind {
                ActionKind::UpdateServiceJob { job_name, .. }
                | ActionKind::TerminateServiceJob { job_name, .. } => !finished.contains(job_name),
                _ => true,
            })
            .cloned()
            .collect::<Vec<Action>>();
        if self.grace.len() > 0 {
            inexact.push(String::from("a preemptor waits for its victims (R21): its earmark is not carried"));
        }
        if !self.holds.is_empty() {
            inexact.push(String::from("a job holds free instances (R16): holds are not carried"));
        }
        State { scenario: s, inexact }
    }

    /// Job `j` observed to train `seconds` (at least, when `censored`).
    fn observed(&self, j: u32, seconds: u64, censored: bool) -> ObservedDuration {
        let jc = self.job_cfg(JobId(j));
        ObservedDuration {
            quota_share_name: self.cfg.shares[jc.share.index()].name.clone(),
            instance_type: self.cfg.types[jc.ty.index()].name.clone(),
            instance_count: jc.count as i64,
            duration_seconds: seconds as i64,
            censored,
        }
    }
}
