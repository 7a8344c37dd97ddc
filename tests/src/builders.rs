//! A fluent builder for scenarios, so that a test reads like the situation it sets up.
//!
//! ```
//! use quotasim_tests::*;
//! let h = Sc::new()
//!     .capacity(G5, 2)
//!     .share(lend("team-a", G5, 2))
//!     .job(job("train", "team-a").dur(3600))
//!     .run();
//! assert_eq!(h.stopped_at("train"), Some(3600));
//! ```

use quotasim::model::*;
use quotasim::{validate, Problem, Simulation, ValidScenario};

/// The instance type most tests use (1 GPU).
pub const G5: &str = "ml.g5.xlarge";
/// A second type (8 GPUs in the catalogue).
pub const P5: &str = "ml.p5.48xlarge";

/// Scenario builder.
#[derive(Clone, Debug)]
pub struct Sc {
    pub s: Scenario,
}

impl Default for Sc {
    fn default() -> Self {
        Self::new()
    }
}

impl Sc {
    /// An empty scenario with the default settings.
    pub fn new() -> Self {
        Sc { s: Scenario { format_version: 1, ..Scenario::default() } }
    }

    /// Adds (or replaces) the service environment's limit for a type.
    pub fn capacity(mut self, ty: &str, n: i64) -> Self {
        let l = &mut self.s.service_environment.capacity_limits;
        l.retain(|c| c.capacity_unit != ty);
        l.push(CapacityLimit::new(ty, n));
        self
    }
    pub fn gpus(mut self, ty: &str, gpus: i64) -> Self {
        self.s.instance_types.push(InstanceTypeInfo { name: ty.into(), gpus, price_per_hour: None });
        self
    }
    pub fn share(mut self, q: ShareB) -> Self {
        self.s.quota_shares.push(q.q);
        self
    }
    pub fn job(mut self, j: JobB) -> Self {
        self.s.jobs.push(j.j);
        self
    }
    /// `count` jobs named `{prefix}{i}` (i from 1) made by `f`.
    pub fn jobs(mut self, count: usize, f: impl Fn(usize) -> JobB) -> Self {
        for i in 1..=count {
            self.s.jobs.push(f(i).j);
        }
        self
    }
    pub fn action(mut self, at: i64, kind: ActionKind) -> Self {
        self.s.actions.push(Action { at, kind });
        self
    }
    /// `updateServiceJob`.
    pub fn set_priority(self, at: i64, job: &str, priority: i64) -> Self {
        self.action(at, ActionKind::UpdateServiceJob { job_name: job.into(), scheduling_priority: priority })
    }
    /// `terminateServiceJob`.
    pub fn terminate(self, at: i64, job: &str, reason: &str) -> Self {
        self.action(at, ActionKind::TerminateServiceJob { job_name: job.into(), reason: reason.into() })
    }
    /// `updateQuotaShare`.
    pub fn update_share(self, at: i64, u: ShareUpdate) -> Self {
        self.action(at, ActionKind::UpdateQuotaShare(u.u))
    }
    /// `updateServiceEnvironment` with a whole new list.
    pub fn update_capacity(self, at: i64, limits: &[(&str, i64)]) -> Self {
        self.action(
            at,
            ActionKind::UpdateServiceEnvironment {
                capacity_limits: limits.iter().map(|(t, n)| CapacityLimit::new(t, *n)).collect(),
            },
        )
    }

    // ----- settings -----
    pub fn grace(mut self, s: i64) -> Self {
        self.s.settings.preemption_grace_seconds = s;
        self
    }
    pub fn scheduled(mut self, s: i64) -> Self {
        self.s.settings.scheduled_seconds = s;
        self
    }
    pub fn starting(mut self, s: i64) -> Self {
        self.s.settings.starting_seconds = s;
        self
    }
    pub fn backfill(mut self, on: bool) -> Self {
        self.s.settings.backfill = on;
        self
    }
    pub fn least_lost_work(mut self) -> Self {
        self.s.settings.victim_order = VictimOrder::LeastLostWork;
        self
    }
    pub fn checkpoint_on_stop(mut self, on: bool) -> Self {
        self.s.settings.checkpoint_on_stop = on;
        self
    }
    pub fn checkpoint_save(mut self, s: i64) -> Self {
        self.s.settings.checkpoint_save_seconds = s;
        self
    }
    pub fn horizon(mut self, s: i64) -> Self {
        self.s.settings.horizon_seconds = Some(s);
        self
    }
    /// R28: the run begins at `t` ("now").
    pub fn start_at(mut self, t: i64) -> Self {
        self.s.settings.start_at = t;
        self
    }

    // ----- finishing -----
    pub fn build(self) -> Scenario {
        self.s
    }
    pub fn validate(&self) -> Result<ValidScenario, Vec<Problem>> {
        validate(&self.s)
    }
    /// The validated scenario; panics with the problems if it is invalid.
    pub fn valid(&self) -> ValidScenario {
        keep_scenario(&self.s);
        match validate(&self.s) {
            Ok(v) => v,
            Err(p) => panic!("scenario should be valid, problems: {p:#?}"),
        }
    }
    /// A simulation at time 0, wrapped in a [`crate::H`].
    pub fn sim(&self) -> crate::H {
        crate::H::new(Simulation::new(self.valid()))
    }
    /// Runs to the end (or the horizon).
    pub fn run(&self) -> crate::H {
        let mut h = self.sim();
        h.sim.run();
        h
    }
    /// Runs every instant up to and including `t`.
    pub fn run_until(&self, t: u64) -> crate::H {
        let mut h = self.sim();
        h.sim.run_until(t);
        h
    }
    pub fn to_json(&self) -> String {
        serde_json::to_string(&self.s).expect("scenario serializes")
    }
}

/// With `QUOTASIM_KEEP_SCENARIOS=DIR` set, writes every scenario a test simulates into DIR (one
/// file per distinct scenario), so `scripts/same-results.py --with-tests` can run the rule tests'
/// scenarios through two builds and compare their bytes.
fn keep_scenario(s: &Scenario) {
    use std::hash::{Hash, Hasher};
    let Some(dir) = std::env::var_os("QUOTASIM_KEEP_SCENARIOS") else { return };
    let text = serde_json::to_string_pretty(s).expect("scenario serializes");
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    let path = std::path::Path::new(&dir).join(format!("{:016x}.json", h.finish()));
    std::fs::write(&path, text).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
}

/// Quota share builder.
#[derive(Clone, Debug)]
pub struct ShareB {
    pub q: QuotaShare,
}

/// A share with one limit.
pub fn share(name: &str, strategy: Strategy, ty: &str, n: i64) -> ShareB {
    ShareB { q: QuotaShare::new(name, strategy, vec![CapacityLimit::new(ty, n)]) }
}
pub fn reserve(name: &str, ty: &str, n: i64) -> ShareB {
    share(name, Strategy::Reserve, ty, n)
}
pub fn lend(name: &str, ty: &str, n: i64) -> ShareB {
    share(name, Strategy::Lend, ty, n)
}
/// `LEND_AND_BORROW` with the default borrow limit (-1, unlimited).
pub fn lab(name: &str, ty: &str, n: i64) -> ShareB {
    share(name, Strategy::LendAndBorrow, ty, n)
}

impl ShareB {
    /// Adds another capacity limit.
    pub fn limit(mut self, ty: &str, n: i64) -> Self {
        self.q.capacity_limits.push(CapacityLimit::new(ty, n));
        self
    }
    pub fn no_limits(mut self) -> Self {
        self.q.capacity_limits.clear();
        self
    }
    pub fn borrow_limit(mut self, b: i64) -> Self {
        self.q.resource_sharing_configuration.borrow_limit = Some(b);
        self
    }
    pub fn in_share(mut self, on: bool) -> Self {
        self.q.preemption_configuration.in_share_preemption =
            if on { Toggle::Enabled } else { Toggle::Disabled };
        self
    }
    pub fn disabled(mut self) -> Self {
        self.q.state = ShareState::Disabled;
        self
    }
    /// R28: the share's quota for `ty` was lowered since its jobs started.
    pub fn limit_reduced(mut self, ty: &str) -> Self {
        self.q.capacity_limit_reduced.push(ty.into());
        self
    }
}

/// Job builder: by default one `G5` instance, submitted at 0, 3600 s of work, priority 0.
#[derive(Clone, Debug)]
pub struct JobB {
    pub j: Job,
}

pub fn job(name: &str, share: &str) -> JobB {
    JobB { j: Job::new(name, share, G5, 1, 0, 3600) }
}

impl JobB {
    pub fn ty(mut self, ty: &str) -> Self {
        self.j.instance_type = Some(ty.into());
        self
    }
    pub fn count(mut self, n: i64) -> Self {
        self.j.instance_count = Some(n);
        self
    }
    pub fn prio(mut self, p: i64) -> Self {
        self.j.scheduling_priority = p;
        self
    }
    pub fn at(mut self, t: i64) -> Self {
        self.j.submit_at = t;
        self
    }
    pub fn dur(mut self, d: i64) -> Self {
        self.j.duration_seconds = Some(d);
        self
    }
    pub fn ckpt(mut self, c: i64) -> Self {
        self.j.checkpoint_interval_seconds = Some(c);
        self
    }
    pub fn retries(mut self, r: i64) -> Self {
        self.j.preemption_configuration =
            Some(JobPreemption { preemption_retries_before_termination: Some(r) });
        self
    }
    pub fn timeout(mut self, t: i64) -> Self {
        self.j.timeout_seconds = Some(t);
        self
    }
    /// R28: in the attempt dispatched at `t`.
    pub fn started(mut self, t: i64) -> Self {
        self.j.started_at = Some(t);
        self
    }
    /// R28: attempts already preempted.
    pub fn previous(mut self, n: i64) -> Self {
        self.j.previous_attempts = n;
        self
    }
    /// R28: progress those attempts saved.
    pub fn done(mut self, w: i64) -> Self {
        self.j.completed_work_seconds = w;
        self
    }
    /// R28: no duration (a state for forecasts).
    pub fn no_duration(mut self) -> Self {
        self.j.duration_seconds = None;
        self
    }
    /// The job itself (for `--submit`-style uses).
    pub fn build_job(self) -> Job {
        self.j
    }
}

/// `updateQuotaShare` builder: only the fields named are changed.
#[derive(Clone, Debug)]
pub struct ShareUpdate {
    pub u: QuotaShareUpdate,
}

pub fn update(name: &str) -> ShareUpdate {
    ShareUpdate { u: QuotaShareUpdate { quota_share_name: name.into(), ..QuotaShareUpdate::default() } }
}

impl ShareUpdate {
    pub fn limits(mut self, limits: &[(&str, i64)]) -> Self {
        self.u.capacity_limits = Some(limits.iter().map(|(t, n)| CapacityLimit::new(t, *n)).collect());
        self
    }
    pub fn sharing(mut self, strategy: Strategy, borrow_limit: Option<i64>) -> Self {
        self.u.resource_sharing_configuration = Some(ResourceSharing::new(strategy, borrow_limit));
        self
    }
    pub fn in_share(mut self, on: bool) -> Self {
        self.u.preemption_configuration = Some(SharePreemption {
            in_share_preemption: if on { Toggle::Enabled } else { Toggle::Disabled },
        });
        self
    }
    pub fn state(mut self, enabled: bool) -> Self {
        self.u.state = Some(if enabled { ShareState::Enabled } else { ShareState::Disabled });
        self
    }
}
