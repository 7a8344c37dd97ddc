//! R10: the discrete-event simulation, [`Simulation`]: the orchestrator of the instant loop,
//! the pass and the actions, over types that each own one concern's state.
//!
//! # Lifecycle
//! `Simulation::new(valid)` starts at time 0 with nothing submitted. [`Simulation::step`]
//! processes the next instant at which anything happens, [`Simulation::run_until`] every
//! instant up to a time, [`Simulation::run`] everything (or up to `settings.horizonSeconds`).
//! Between calls the state can be read: [`Simulation::snapshot`], the event list,
//! [`Simulation::jobs`] and [`Simulation::summary`]. `Simulation` is `Clone`, so a caller can
//! fork a what-if at any instant.
//!
//! # Layout
//! `Simulation` is implemented in four files: this one (its state and what can be read of
//! it), `instant` (the instant loop, timers and what happens to jobs in it), `pass` (R16) and
//! `actions` (R22, R23). Every other module owns one concern's state and returns outcomes
//! instead of calling others, each naming the rules it owns in its first line: `clock`
//! (timers), `ledger` (accounting), `queue`, `running`, `jobs`, `holds`, `grace` (preemptions
//! in progress), `events`; `preempt` plans preemptions from a read-only view; `report` and
//! `metrics` read a `report::View`. Every tie is broken by input order.

use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;

use crate::model::Strategy;
use crate::reasons::{WaitAnalysis, WaitReason};
pub use crate::reasons::{
    MISCONFIG_BORROW_LIMIT, MISCONFIG_POOL, MISCONFIG_QUOTA, MISCONFIG_SE, REJECTED_REASON, TIMEOUT_REASON,
    WAIT_FREE, WAIT_POOL, WAIT_PREEMPTION, WAIT_QUOTA,
};
use crate::result::{BenchRun, Event, JobResult, SimResult, Snapshot, Status, Summary, SummaryResult};
use crate::scenario::{JobId, ShareId, TypeId, ValidScenario, MAX_SHARES};

mod actions;
mod arith;
mod breakdown;
mod clock;
mod events;
mod grace;
mod holds;
mod instant;
mod jobs;
mod ledger;
mod marks;
mod metrics;
mod pass;
mod preempt;
mod queue;
mod report;
mod running;
mod share_set;
mod state;

use breakdown::Breakdown;
use clock::Clock;
use events::EventLog;
use grace::Grace;
pub use grace::PreemptionRecord;
use holds::Holds;
use jobs::Jobs;
use ledger::Ledger;
use marks::{Marks, OrderEntry};
use metrics::ReclaimLatency;
use queue::Queues;
use report::View;
use running::Running;
pub use state::State;

/// Work counters, for benchmarks and profiling.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Instants processed (R10).
    pub instants: u64,
    /// Scheduling passes run (R16).
    pub passes: u64,
    /// Shares put in a pass's share order, summed over passes.
    pub shares_looked_at: u64,
    /// Preemption plans computed by passes (R18, R20).
    pub preemption_plans: u64,
    /// Attempts started (dispatches, R6).
    pub dispatches: u64,
    /// The most jobs any one share's queue has held at once.
    pub max_queued: u64,
    /// R24 events, counted whether or not the event list is recorded.
    pub events: u64,
}

/// Options that change what is recorded, not what happens.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Record the R24 event list (off for very large summary-only runs).
    pub record_events: bool,
    /// Look at every share in every pass instead of only those whose queue or front-job type
    /// changed. Same results, slower: a reference for tests of the faster default.
    pub exhaustive_passes: bool,
    /// After the passes of every visited instant reach their fixed point (R10), run one
    /// more pass over every share. Same results, slower: a check for tests that a pass with
    /// nothing changed does nothing.
    pub extra_pass: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { record_events: true, exhaustive_passes: false, extra_pass: false }
    }
}

/// The simulation. See the module documentation.
#[derive(Clone, Debug)]
pub struct Simulation {
    cfg: Arc<ValidScenario>,
    opts: Options,
    now: u64,
    nt: usize,
    /// Per share: in-share preemption enabled (R20) and the share enabled (R2), as updated
    /// by actions.
    in_share: Vec<bool>,
    enabled: Vec<bool>,
    ledger: Ledger,
    jobs: Jobs,
    queues: Queues,
    running: Running,
    /// Jobs holding free instances (R16), oldest first, with the instances each holds.
    holds: Holds,
    /// The preemption log and the waiting preemptors' earmarks (R21).
    grace: Grace,
    clock: Clock,
    /// Jobs in submission order, when that is not input order (else empty).
    submit_order: Arc<Vec<JobId>>,
    next_submit: usize,
    next_action: usize,
    marks: Marks,
    order_buf: Vec<OrderEntry>,
    /// Some job has no work at all: it completes inside a pass (R10), releasing capacity
    /// there, so every pass must consider every share.
    zero_work: bool,
    stats: Stats,
    events: EventLog,
    terminate_reasons: Vec<String>,
    /// The first job whose next time would be after 2^53 - 1: the run stops there.
    overflow: Option<JobId>,
    /// R10's bound: the job dispatched a third time at one instant, and that instant; the
    /// run stops there.
    dispatch_loop: Option<(JobId, u64)>,
    /// R16 share order: per share, the shares it was tied with on usage/quota in some
    /// pass's order, so that input order decided between them (a debug counter for tests).
    order_ties: [u32; MAX_SHARES],
    /// R26 reclaim latency.
    reclaim: ReclaimLatency,
    /// The first instant (`settings.startAt`, R28) has been processed.
    begun: bool,
    /// The wait breakdown: time `RUNNABLE` by cause, kept as the run goes.
    waits: Breakdown,
}

pub use crate::limits::MAX_SAFE_INTEGER;

/// Why a run cannot give exact results (see [`Simulation::run_error`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    /// A job's next time (a completion, a step of its start, a release) would come after
    /// 2^53 - 1 seconds; the run stopped at `at`, before it.
    TimeOverflow {
        /// The job's name.
        job: String,
        /// The time the run stopped at, in seconds.
        at: u64,
    },
    /// A sum over the run (`metric`, a summary path) exceeds 2^53 - 1.
    SumOverflow {
        /// The summary path of the sum, e.g. `perQuotaShare.team-a.instanceSeconds`.
        metric: String,
    },
    /// R10's bound on passes at one instant: `job` was dispatched a third time at `at`
    /// (possible only with a zero grace period); the run stopped there.
    DispatchLoop {
        /// The job's name.
        job: String,
        /// The instant, in seconds.
        at: u64,
    },
}

impl core::fmt::Display for RunError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            RunError::TimeOverflow { job, at } => write!(
                f,
                "job {job}: its next event would come after 2^53 - 1 s ({MAX_SAFE_INTEGER}), the largest \
                 time results can give exactly; the run stopped at {at}"
            ),
            RunError::SumOverflow { metric } => write!(
                f,
                "summary {metric}: the sum exceeds 2^53 - 1 ({MAX_SAFE_INTEGER}), the largest number \
                 results can give exactly"
            ),
            RunError::DispatchLoop { job, at } => write!(
                f,
                "job {job}: dispatched a third time at {at} (R10: with a zero grace period its \
                 preemptions and dispatches at one instant would not end); the run stopped at {at}"
            ),
        }
    }
}

impl Simulation {
    /// A new simulation at time 0.
    pub fn new(scenario: ValidScenario) -> Self {
        Self::with_options(scenario, Options::default())
    }

    /// A new simulation at time 0 that records what `opts` says.
    pub fn with_options(scenario: ValidScenario, opts: Options) -> Self {
        Self::with_shared(Arc::new(scenario), opts)
    }

    /// A new simulation of a scenario shared with others (no copy is made).
    pub fn with_shared(scenario: Arc<ValidScenario>, opts: Options) -> Self {
        let nt = scenario.types.len();
        let ns = scenario.shares.len();
        // One pass over the jobs for what the run needs to know of them all (a million jobs
        // are 136 MB, read from main memory on each pass): whether they are in submission
        // order, whether one has no work, whether one is in progress (R28).
        let (mut sorted, mut zero_work, mut in_progress) = (true, false, false);
        let mut last = 0;
        for j in &scenario.jobs {
            sorted &= j.submit_at >= last;
            last = j.submit_at;
            zero_work |= j.duration == 0;
            in_progress |= j.started_at.is_some();
        }
        // Most files list jobs in submission order already; then none is kept.
        let mut order: Vec<JobId> = Vec::new();
        if !sorted {
            order = JobId::all(scenario.jobs.len()).collect();
            order.sort_by_key(|&j| (scenario.jobs[j.index()].submit_at, j));
        }
        let mut sim = Simulation {
            opts,
            now: scenario.settings.start_at,
            nt,
            in_share: scenario.shares.iter().map(|s| s.in_share_preemption).collect(),
            enabled: scenario.shares.iter().map(|s| s.enabled).collect(),
            ledger: Ledger::new(&scenario),
            jobs: Jobs::new(&scenario.jobs),
            queues: Queues::new(ns, nt),
            running: Running::new(ns * nt, scenario.jobs.len()),
            holds: Holds::default(),
            grace: Grace::new(ns),
            clock: Clock::default(),
            submit_order: Arc::new(order),
            next_submit: 0,
            next_action: 0,
            marks: Marks::new(),
            order_buf: Vec::with_capacity(ns),
            zero_work,
            stats: Stats::default(),
            events: EventLog::default(),
            terminate_reasons: Vec::new(),
            overflow: None,
            dispatch_loop: None,
            order_ties: [0; MAX_SHARES],
            reclaim: ReclaimLatency::default(),
            // R28: `startAt` is visited whatever happens there; a run from 0 with nothing
            // in progress starts at its first event, as it always did (a pass with nothing
            // to look at does nothing).
            begun: scenario.settings.start_at == 0 && !in_progress,
            waits: Breakdown::new(scenario.jobs.len(), ns, scenario.settings.start_at),
            cfg: scenario,
        };
        sim.restore();
        sim
    }

    #[inline]
    fn st(&self, s: ShareId, t: TypeId) -> usize {
        s.index() * self.nt + t.index()
    }

    /// What reports read.
    fn view(&self) -> View<'_> {
        View {
            cfg: &self.cfg,
            now: self.now,
            ledger: &self.ledger,
            jobs: &self.jobs,
            grace: &self.grace,
            queues: &self.queues,
            holds: &self.holds,
            events: &self.events,
            terminate_reasons: &self.terminate_reasons,
            running: &self.running,
            in_share: &self.in_share,
            waits: &self.waits,
        }
    }

    // ----- running ---------------------------------------------------------------------

    /// The scenario being simulated.
    pub fn scenario(&self) -> &ValidScenario {
        &self.cfg
    }

    /// The current simulated time, in seconds.
    pub fn now(&self) -> u64 {
        self.now
    }

    /// Whether anything is left to happen.
    pub fn is_done(&self) -> bool {
        self.next_instant().is_none()
    }

    /// When the next instant at which anything happens is, if any (what [`Self::step`] would
    /// process next).
    pub fn next_event_at(&self) -> Option<u64> {
        self.next_instant()
    }

    /// Processes the next instant at which anything happens (R10). Returns its time, or
    /// `None` when nothing is left to happen.
    pub fn step(&mut self) -> Option<u64> {
        let t = self.next_instant()?;
        self.process_instant(t);
        Some(t)
    }

    /// Processes every instant up to and including `t`, then stands at `t`.
    pub fn run_until(&mut self, t: u64) {
        while let Some(next) = self.next_instant() {
            if next > t {
                break;
            }
            self.process_instant(next);
        }
        self.now = self.now.max(t);
    }

    /// Runs until nothing is left to happen, or to `settings.horizonSeconds`.
    pub fn run(&mut self) {
        match self.cfg.settings.horizon {
            Some(h) => self.run_until(h),
            None => while self.step().is_some() {},
        }
    }

    /// Work counters so far.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    // ----- results (R24-R26) -------------------------------------------------------------

    /// The preemption log: every victim's preemption in decision order.
    pub fn preemptions(&self) -> &[PreemptionRecord] {
        self.grace.log()
    }

    /// R17: the `MISCONFIGURATION` reason of a job that can never fit, if any.
    pub fn never_runnable_reason(&self, j: JobId) -> Option<&'static str> {
        self.view().never_runnable_reason(j)
    }

    /// The reason shown for a job now: terminal reasons, preemption in progress, R17.
    pub fn status_reason(&self, j: JobId) -> Option<String> {
        self.view().status_reason(j)
    }

    /// R17: why a `RUNNABLE` job waits.
    pub fn waiting_reason(&self, j: JobId) -> WaitReason {
        self.view().waiting_reason(j)
    }

    /// R28: the state after the current instant as a scenario that starts there. `expanded`
    /// is the scenario this run was validated from, its `workload` expanded
    /// ([`crate::workload::expanded`]).
    pub fn state(&self, expanded: &crate::model::Scenario) -> State {
        self.view().state(expanded, &self.enabled)
    }

    /// Why `RUNNABLE` job `j` waits now and what would change it: R17's reason, what binds,
    /// the numbers the check read, and the lower-priority jobs of its share in-share
    /// preemption could take (R14, R17, R20). From the same check the pass makes.
    pub fn wait_analysis(&self, j: JobId) -> WaitAnalysis {
        self.view().wait_analysis(j)
    }

    /// Job `j`'s time `RUNNABLE` so far split by what held it at each instant (the wait
    /// breakdown; its result's `runnableSecondsByCause`).
    pub fn runnable_seconds_by_cause(&self, j: JobId) -> crate::result::CauseSeconds {
        crate::result::CauseSeconds(self.view().runnable_by_cause(j))
    }

    /// Job `j`'s time `RUNNABLE` so far (R6, R7, R28), from its attempts.
    pub fn runnable_seconds(&self, j: JobId) -> u64 {
        self.view().runnable_seconds(j)
    }

    /// The jobs before queued job `j` in its share's R11 order, first first (empty when `j`
    /// is not queued).
    pub fn queued_ahead(&self, j: JobId) -> Vec<JobId> {
        let s = self.cfg.jobs[j.index()].share;
        let q: Vec<JobId> = self.queues.iter(s).map(|h| h.job).collect();
        match q.iter().position(|&x| x == j) {
            Some(p) => q[..p].to_vec(),
            None => Vec::new(),
        }
    }

    /// R25: utilization now, per share and type, with pool and service environment totals.
    pub fn snapshot(&self) -> Snapshot {
        self.view().snapshot()
    }

    /// One job as the result shows it now.
    pub fn job_result(&self, j: JobId) -> JobResult {
        self.view().job_result(j)
    }

    /// The jobs dispatched at instant `t` (an attempt of theirs started then), in input order.
    pub fn dispatched_at(&self, t: u64) -> Vec<JobId> {
        JobId::all(self.jobs.len()).filter(|&j| self.jobs.started_at(j, t)).collect()
    }

    /// The jobs whose attempt released its instances at instant `t` (it ended, or its grace
    /// period did), in input order.
    pub fn released_at(&self, t: u64) -> Vec<JobId> {
        JobId::all(self.jobs.len()).filter(|&j| self.jobs.stopped_at(j, t)).collect()
    }

    /// Whether preemption `p` (an index into [`Self::preemptions`]) was followed by its victim's
    /// dispatch the instant its grace period ended (`preemptions.restartedAtOnce`).
    pub fn restarted_at_once(&self, p: usize) -> bool {
        self.grace.log().get(p).is_some_and(|r| self.jobs.started_at(r.victim, r.releases_at))
    }

    /// Every job as the result shows it now, in input order.
    pub fn jobs(&self) -> Vec<JobResult> {
        self.view().jobs()
    }

    /// Every job's lost work so far (R8, seconds), indexed by [`JobId`]: read once by callers
    /// that build the job results a part at a time with [`Self::job_result_lost`].
    pub fn lost_seconds(&self) -> Vec<u64> {
        self.view().lost_seconds()
    }

    /// Job `j`'s result, its lost work given (from [`Self::lost_seconds`]): the entry of
    /// [`Self::jobs`] for it, without reading the whole preemption log.
    pub fn job_result_lost(&self, j: JobId, lost: u64) -> JobResult {
        self.view().job_result_with(j, lost)
    }

    /// Number of recorded events.
    pub fn event_count(&self) -> usize {
        self.events.len()
    }

    /// The R24 events from index `from` on.
    pub fn events_from(&self, from: usize) -> Vec<Event> {
        self.view().events_from(from)
    }

    /// The distinct instants of the recorded events, in order.
    pub fn event_instants(&self) -> impl Iterator<Item = u64> + '_ {
        self.events.instants()
    }

    /// The R24 event list so far.
    pub fn events(&self) -> Vec<Event> {
        self.events_from(0)
    }

    /// R26: the summary metrics as of now.
    pub fn summary(&self) -> Summary {
        self.view().summary(&self.reclaim)
    }

    /// The whole result (format spec) as of now.
    pub fn result(&self) -> SimResult {
        SimResult {
            format_version: 1,
            ended_at: self.ended_at(),
            jobs: self.jobs(),
            events: self.events(),
            summary: self.summary(),
        }
    }

    /// `--summary`: the result without jobs and events.
    pub fn summary_result(&self) -> SummaryResult {
        SummaryResult { format_version: 1, ended_at: self.ended_at(), summary: self.summary() }
    }

    /// `endedAt`: the current time.
    pub fn ended_at(&self) -> u64 {
        self.now
    }

    /// What the run did so far, for benchmarks.
    pub fn bench_run(&self) -> BenchRun {
        let mut victims: Vec<JobId> = self.grace.log().iter().map(|p| p.victim).collect();
        victims.sort_unstable();
        victims.dedup();
        BenchRun { events: self.stats.events, preempted_jobs: victims.len() as u64, ended_at: self.now }
    }

    /// Why the results so far cannot be given exactly, if so: a job's next time would come
    /// after 2^53 - 1 (the run stopped before it), a job was dispatched a third time at one
    /// instant (R10), or a sum in the summary exceeds 2^53 - 1. Front ends check it after
    /// running and report it instead of results.
    pub fn run_error(&self) -> Option<RunError> {
        if let Some(j) = self.overflow {
            return Some(RunError::TimeOverflow {
                job: String::from(self.cfg.jobs[j.index()].name.as_str()),
                at: self.now,
            });
        }
        if let Some((j, at)) = self.dispatch_loop {
            return Some(RunError::DispatchLoop {
                job: String::from(self.cfg.jobs[j.index()].name.as_str()),
                at,
            });
        }
        self.view().sums_error().map(|metric| RunError::SumOverflow { metric })
    }

    // ----- state now -------------------------------------------------------------------

    /// Training time of a job over all its attempts, so far (for checking R8).
    pub fn training_seconds(&self, j: JobId) -> u64 {
        self.jobs.training(j, self.now)
    }

    /// Held instances of a share and type now (R25 `usage`).
    pub fn usage(&self, share: ShareId, ty: TypeId) -> u64 {
        self.ledger.held(share, ty)
    }

    /// Current quota of a share for a type.
    pub fn quota(&self, share: ShareId, ty: TypeId) -> u64 {
        self.ledger.quota(share, ty)
    }

    /// Current service environment limit of a type.
    pub fn capacity(&self, ty: TypeId) -> Option<u64> {
        self.ledger.capacity(ty)
    }

    /// Current strategy of a share.
    pub fn strategy(&self, share: ShareId) -> Strategy {
        self.ledger.strategy(share)
    }

    /// Whether a share's in-share preemption (R20) is enabled now (updates included).
    pub fn in_share_preemption(&self, share: ShareId) -> bool {
        self.in_share[share.index()]
    }

    /// Current borrow allowance of a share for a type (`None`: unlimited).
    pub fn borrow_allowance(&self, share: ShareId, ty: TypeId) -> Option<u64> {
        self.ledger.allowance(share, ty)
    }

    /// Whether a share's usage of a type is over quota because of an update (R22).
    pub fn over_quota_by_update(&self, share: ShareId, ty: TypeId) -> bool {
        self.ledger.over_by_update(share, ty)
    }

    /// A job's status now (`None`: not submitted yet).
    pub fn status_of(&self, j: JobId) -> Option<Status> {
        self.jobs.status(j)
    }

    /// Whether the job is being preempted (between `Preemption Started` and `Completed`).
    pub fn is_being_preempted(&self, j: JobId) -> bool {
        self.jobs.preempting(j).is_some()
    }

    /// The earmarked preemptor of a share, if it waits for its victims (R21).
    pub fn waiting_preemptor(&self, share: ShareId) -> Option<JobId> {
        self.grace.waiting_preemptor(share)
    }

    /// Idle instances of a type withheld now for waiting preemptors (R21): what their
    /// earmarks take beyond the instances their victims hold and will return.
    pub fn withheld(&self, ty: TypeId) -> u64 {
        let held: u64 = (0..self.in_share.len()).map(|s| self.ledger.held(ShareId::at(s), ty)).sum();
        self.ledger.committed_total(ty).saturating_sub(held)
    }

    /// The first job in a share's queue now (R11 order), if any.
    pub fn front_job(&self, share: ShareId) -> Option<JobId> {
        self.queues.head(share).map(|h| h.job)
    }

    /// Jobs of a share waiting now, in R11 order.
    pub fn queued(&self, share: ShareId) -> Vec<JobId> {
        self.queues.iter(share).map(|h| h.job).collect()
    }

    /// Whether input order decided between shares `a` and `b` in some pass so far: they were
    /// tied on usage / quota in a pass's share order (R16). A debug counter: a run in which
    /// no two shares were tied gives the same outcomes with the shares listed in any order.
    pub fn order_tie(&self, a: ShareId, b: ShareId) -> bool {
        self.order_ties[a.index()] & (1 << b.0) != 0
    }
}
