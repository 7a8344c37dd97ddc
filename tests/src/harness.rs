//! A running simulation with look-ups by name, for readable assertions.

use std::ops::{Deref, DerefMut};

use quotasim::result::{Attempt, Event, EventType, JobResult, ShareTypeUsage, Snapshot, Status, TypeTotals};
use quotasim::scenario::{JobId, ShareId, TypeId};
use quotasim::Simulation;

/// A simulation under test.
#[derive(Clone, Debug)]
pub struct H {
    pub sim: Simulation,
}

impl Deref for H {
    type Target = Simulation;
    fn deref(&self) -> &Simulation {
        &self.sim
    }
}
impl DerefMut for H {
    fn deref_mut(&mut self) -> &mut Simulation {
        &mut self.sim
    }
}

impl H {
    pub fn new(sim: Simulation) -> Self {
        H { sim }
    }

    /// Job id (input index) by name.
    pub fn id(&self, name: &str) -> JobId {
        JobId::at(
            self.sim
                .scenario()
                .jobs
                .iter()
                .position(|j| j.name == name)
                .unwrap_or_else(|| panic!("no job named {name}")),
        )
    }
    /// Share id by name.
    pub fn share_id(&self, name: &str) -> ShareId {
        ShareId::at(
            self.sim
                .scenario()
                .shares
                .iter()
                .position(|s| s.name == name)
                .unwrap_or_else(|| panic!("no share named {name}")),
        )
    }
    /// Type id by name.
    pub fn type_id(&self, name: &str) -> TypeId {
        TypeId::at(
            self.sim
                .scenario()
                .types
                .iter()
                .position(|t| t.name == name)
                .unwrap_or_else(|| panic!("no instance type named {name}")),
        )
    }

    pub fn job(&self, name: &str) -> JobResult {
        self.sim.job_result(self.id(name))
    }
    pub fn status(&self, name: &str) -> Option<Status> {
        self.job(name).status
    }
    pub fn reason(&self, name: &str) -> Option<String> {
        self.job(name).status_reason
    }
    pub fn attempts(&self, name: &str) -> Vec<Attempt> {
        self.job(name).attempts
    }
    /// `(startedAt, stoppedAt)` of every attempt.
    pub fn spans(&self, name: &str) -> Vec<(u64, Option<u64>)> {
        self.attempts(name).iter().map(|a| (a.started_at, a.stopped_at)).collect()
    }
    pub fn first_started(&self, name: &str) -> Option<u64> {
        self.job(name).first_started_at
    }
    pub fn stopped_at(&self, name: &str) -> Option<u64> {
        self.job(name).stopped_at
    }
    pub fn lost(&self, name: &str) -> u64 {
        self.job(name).lost_work_seconds
    }
    pub fn preempted_count(&self, name: &str) -> u32 {
        self.job(name).preemption_summary.preempted_attempt_count
    }
    pub fn trained(&self, name: &str) -> u64 {
        self.sim.training_seconds(self.id(name))
    }
    /// Held instances of a share and type now.
    pub fn used(&self, share: &str, ty: &str) -> u64 {
        self.sim.usage(self.share_id(share), self.type_id(ty))
    }

    /// Every event of one job.
    pub fn events_of(&self, name: &str) -> Vec<Event> {
        self.sim.events().into_iter().filter(|e| e.job_name == name).collect()
    }
    /// `(at, status)` of the job's state changes.
    pub fn states(&self, name: &str) -> Vec<(u64, Status)> {
        self.events_of(name)
            .into_iter()
            .filter(|e| e.event_type == EventType::StateChange)
            .filter_map(|e| e.status.map(|s| (e.at, s)))
            .collect()
    }
    /// When the job first entered `status`.
    pub fn time_of(&self, name: &str, status: Status) -> Option<u64> {
        self.states(name).into_iter().find(|(_, s)| *s == status).map(|(t, _)| t)
    }
    /// The job's preemption events of one type.
    pub fn preemption_events(&self, name: &str, t: EventType) -> Vec<Event> {
        self.events_of(name).into_iter().filter(|e| e.event_type == t).collect()
    }
    /// `(at, victim)` of every `Preemption Started` event, in order.
    pub fn preemptions_started(&self) -> Vec<(u64, String)> {
        self.sim
            .events()
            .into_iter()
            .filter(|e| e.event_type == EventType::PreemptionStarted)
            .map(|e| (e.at, e.job_name))
            .collect()
    }
    /// Names of every job that was ever told to stop, in order.
    pub fn victims(&self) -> Vec<String> {
        self.preemptions_started().into_iter().map(|(_, j)| j).collect()
    }

    pub fn snap(&self) -> Snapshot {
        self.sim.snapshot()
    }
    pub fn share_usage(&self, share: &str, ty: &str) -> ShareTypeUsage {
        self.snap()
            .shares
            .into_iter()
            .find(|s| s.quota_share_name == share && s.capacity_unit == ty)
            .unwrap_or_else(|| panic!("no snapshot row for {share}/{ty}"))
    }
    pub fn totals(&self, ty: &str) -> TypeTotals {
        self.snap()
            .types
            .into_iter()
            .find(|t| t.capacity_unit == ty)
            .unwrap_or_else(|| panic!("no snapshot totals for {ty}"))
    }
    /// Steps through instants up to and including `t`.
    pub fn until(&mut self, t: u64) -> &mut Self {
        self.sim.run_until(t);
        self
    }
}
