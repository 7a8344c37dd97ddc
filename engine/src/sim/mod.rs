//! R10: the discrete-event simulation, [`Simulation`]: the instant loop, which routes due
//! timers to the modules that own the rules.
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
//! Each module below names the rules it owns in its first line: `clock` (timers),
//! `ledger` (accounting), `queue`, `jobs`, `holds` and `pass` (scheduling),
//! `preempt` (planning), `grace` (executing preemptions), `actions`, `events`,
//! `report` and `metrics`. Every tie is broken by input order.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;

use crate::chunked::Chunked;
use crate::reasons::Reason;
pub use crate::reasons::{
    MISCONFIG_BORROW_LIMIT, MISCONFIG_POOL, MISCONFIG_QUOTA, MISCONFIG_SE, REJECTED_REASON, TIMEOUT_REASON,
    WAIT_FREE, WAIT_POOL, WAIT_PREEMPTION, WAIT_QUOTA,
};
use crate::result::{EventType, Status};
use crate::scenario::{JobId, ShareId, TypeId, ValidScenario};

mod actions;
mod clock;
mod events;
mod grace;
mod holds;
mod jobs;
mod ledger;
mod metrics;
mod pass;
mod preempt;
mod queue;
mod report;
mod running;
mod share_set;

use clock::{Clock, Timer, TimerKind};
use events::EventLog;
use grace::Earmark;
pub use grace::PreemptionRecord;
use holds::Holds;
use jobs::{AttemptRaw, JobDyn, Link, Moment};
use ledger::Ledger;
use pass::{Marks, OrderEntry};
use queue::Queues;
use running::Running;

#[derive(Clone, Debug)]
struct ShareDyn {
    in_share: bool,
    enabled: bool,
    /// The share's pending preemptor's earmark (R21): the share is blocked meanwhile.
    earmark: Option<u32>,
}

/// Work counters, for benchmarks and profiling.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub instants: u64,
    pub passes: u64,
    pub shares_looked_at: u64,
    pub preemption_plans: u64,
    pub dispatches: u64,
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
    shares: Vec<ShareDyn>,
    ledger: Ledger,
    jobs: Vec<JobDyn>,
    /// Every job's attempts, linked per job (`JobDyn::last_attempt`, `AttemptRaw::prev`).
    attempts: Chunked<AttemptRaw>,
    queues: Queues,
    running: Running,
    /// Jobs holding free instances (R16), oldest first, with the instances each holds.
    holds: Holds,
    earmarks: Vec<Earmark>,
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
    /// Jobs per status, by `status_slot`, for R25.
    status_counts: [u64; 8],
    events: EventLog,
    preemptions: Vec<PreemptionRecord>,
    /// Per preemption log entry: instances of the victim committed to its preemptor's
    /// earmark while the victim is being preempted.
    credits: Vec<u64>,
    terminate_reasons: Vec<String>,
    /// The first job whose next time would be after 2^53 - 1: the run stops there.
    overflow: Option<JobId>,
    /// R10's bound: the job dispatched a third time at one instant, and that instant; the
    /// run stops there.
    dispatch_loop: Option<(JobId, u64)>,
    /// R16 share order: per share, the shares it was tied with on usage/quota in some
    /// pass's order, so that input order decided between them (a debug counter for tests).
    order_ties: [u32; crate::scenario::MAX_SHARES],
    /// R26 reclaim latency: front jobs that needed a reclaim (R18) and are not dispatched
    /// yet, with the first instant they needed it.
    reclaim_waits: BTreeMap<JobId, u64>,
    /// Per dispatched job that had needed a reclaim: its share and the latency.
    reclaim_latencies: Vec<(ShareId, u64)>,
}

/// The largest time or sum results can give exactly (JSON numbers, JavaScript): 2^53 - 1.
pub const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// Why a run cannot give exact results (see [`Simulation::run_error`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    /// A job's next time (a completion, a step of its start, a release) would come after
    /// 2^53 - 1 seconds; the run stopped at `at`, before it.
    TimeOverflow { job: String, at: u64 },
    /// A sum over the run (`metric`, a summary path) exceeds 2^53 - 1.
    SumOverflow { metric: String },
    /// R10's bound on passes at one instant: `job` was dispatched a third time at `at`
    /// (possible only with a zero grace period); the run stopped there.
    DispatchLoop { job: String, at: u64 },
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

    pub fn with_options(scenario: ValidScenario, opts: Options) -> Self {
        Self::with_shared(Arc::new(scenario), opts)
    }

    /// A new simulation of a scenario shared with others (no copy is made).
    pub fn with_shared(scenario: Arc<ValidScenario>, opts: Options) -> Self {
        let nt = scenario.types.len();
        let ns = scenario.shares.len();
        let shares: Vec<ShareDyn> = scenario
            .shares
            .iter()
            .map(|s| ShareDyn { in_share: s.in_share_preemption, enabled: s.enabled, earmark: None })
            .collect();
        let jobs: Vec<JobDyn> = scenario
            .jobs
            .iter()
            .map(|j| JobDyn {
                saved: 0,
                trained: 0,
                running_since: Moment::NEVER,
                first_running: Moment::NEVER,
                stopped_at: Moment::NEVER,
                reason: Reason::None,
                priority: j.priority,
                gen: 0,
                preempted_count: 0,
                preempting: Link::NONE,
                last_attempt: Link::NONE,
                status: None,
                cancelled: false,
            })
            .collect();
        // Most files list jobs in submission order already; then none is kept.
        let mut order: Vec<JobId> = Vec::new();
        if !scenario.jobs.is_sorted_by_key(|j| j.submit_at) {
            order = (0..scenario.jobs.len() as u32).collect();
            order.sort_by_key(|&j| (scenario.jobs[j as usize].submit_at, j));
        }
        let sim = Simulation {
            opts,
            now: 0,
            nt,
            shares,
            ledger: Ledger::new(&scenario),
            jobs,
            attempts: Chunked::default(),
            queues: Queues::new(ns, nt),
            running: Running::new(ns * nt, scenario.jobs.len()),
            holds: Holds::default(),
            earmarks: Vec::new(),
            clock: Clock::default(),
            submit_order: Arc::new(order),
            next_submit: 0,
            next_action: 0,
            marks: Marks::new(),
            order_buf: Vec::with_capacity(ns),
            zero_work: scenario.jobs.iter().any(|j| j.duration == 0),
            stats: Stats::default(),
            reclaim_waits: BTreeMap::new(),
            reclaim_latencies: Vec::new(),
            status_counts: [scenario.jobs.len() as u64, 0, 0, 0, 0, 0, 0, 0],
            events: EventLog::default(),
            preemptions: Vec::new(),
            credits: Vec::new(),
            terminate_reasons: Vec::new(),
            overflow: None,
            dispatch_loop: None,
            order_ties: [0; crate::scenario::MAX_SHARES],
            cfg: scenario,
        };
        sim
    }

    // ----- small accessors -------------------------------------------------------------

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

    #[inline]
    fn st(&self, s: ShareId, t: TypeId) -> usize {
        s as usize * self.nt + t as usize
    }

    fn job_cfg(&self, j: JobId) -> &crate::scenario::JobCfg {
        &self.cfg.jobs[j as usize]
    }

    /// Schedules a timer; `job` is the earmark's id for [`TimerKind::Mature`]. A time after
    /// 2^53 - 1 stops the run instead ([`Self::run_error`]).
    fn push_timer(&mut self, at: u64, kind: TimerKind, job: u32) {
        if at > MAX_SAFE_INTEGER {
            let culprit =
                if matches!(kind, TimerKind::Mature) { self.earmarks[job as usize].job } else { job };
            self.overflow.get_or_insert(culprit);
            return;
        }
        let gen = if matches!(kind, TimerKind::Mature) { 0 } else { self.jobs[job as usize].gen };
        self.clock.push(at, kind, job, gen);
    }

    fn event(&mut self, j: JobId, etype: EventType, status: Option<Status>, reason: Reason) {
        self.stats.events += 1;
        if self.opts.record_events {
            self.events.push(self.now, j, etype, status, reason);
        }
    }

    // ----- time ------------------------------------------------------------------------

    /// The `k`-th job in submission order (R10: by `submitAt`, then input order).
    #[inline]
    fn submission(&self, k: usize) -> Option<JobId> {
        if self.submit_order.is_empty() {
            (k < self.jobs.len()).then_some(k as JobId)
        } else {
            self.submit_order.get(k).copied()
        }
    }

    fn next_instant(&self) -> Option<u64> {
        if self.overflow.is_some() || self.dispatch_loop.is_some() {
            return None;
        }
        let mut t: Option<u64> = self.clock.next_at();
        if let Some(j) = self.submission(self.next_submit) {
            let a = self.cfg.jobs[j as usize].submit_at;
            t = Some(t.map_or(a, |x| x.min(a)));
        }
        if let Some((a, _)) = self.cfg.actions.get(self.next_action) {
            t = Some(t.map_or(*a, |x| x.min(*a)));
        }
        t
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

    fn process_instant(&mut self, t: u64) {
        self.stats.instants += 1;
        self.now = t;
        // Releases and other timers due now, in the order they were scheduled.
        self.apply_due_timers();
        // Actions in file order.
        while let Some((at, _)) = self.cfg.actions.get(self.next_action) {
            if *at != t {
                break;
            }
            let a = self.cfg.actions[self.next_action].1.clone();
            self.next_action += 1;
            self.apply_action(&a);
            self.marks.all();
        }
        // Submissions in file order.
        while let Some(j) = self.submission(self.next_submit) {
            if self.cfg.jobs[j as usize].submit_at != t {
                break;
            }
            self.next_submit += 1;
            self.submit(j);
        }
        loop {
            if self.needs_pass() {
                self.passes();
                // The passes reached their fixed point: only releases they made due at this
                // instant (a zero grace period) call for more passes.
                self.marks.changed = false;
                self.ledger.clear_changed();
            }
            if self.dispatch_loop.is_some() || self.clock.next_at() != Some(t) {
                break;
            }
            self.apply_due_timers();
            if !self.needs_pass() {
                break;
            }
        }
        self.drop_stale_timers();
    }

    /// R10: passes until a pass dispatches no job and starts no preemption, so one more pass
    /// with nothing changed would do nothing.
    fn passes(&mut self) {
        while self.pass() {
            if self.dispatch_loop.is_some() {
                return;
            }
        }
        if self.opts.extra_pass {
            self.marks.all();
            self.pass();
        }
    }

    /// Whether a timer still applies (R10): a job's timer until the job's state moves on, an
    /// earmark's while an earmark of that instant is live.
    fn timer_applies(&self, tm: &Timer) -> bool {
        match tm.kind {
            TimerKind::Mature => self.earmarks.iter().any(|e| e.live && e.due == tm.at),
            _ => self.jobs[tm.subject as usize].gen == tm.gen,
        }
    }

    /// Pops timers that no longer apply from the front of the queue, so that the next
    /// instant is one where something happens. Between instants nothing else makes a timer
    /// stale.
    fn drop_stale_timers(&mut self) {
        while let Some(tm) = self.clock.peek() {
            if self.timer_applies(tm) {
                break;
            }
            self.clock.pop();
        }
        // Likewise the submission of a job terminated before its `submitAt` (R23).
        while self.submission(self.next_submit).is_some_and(|j| self.jobs[j as usize].cancelled) {
            self.next_submit += 1;
        }
    }

    fn apply_due_timers(&mut self) {
        while let Some(tm) = self.clock.pop_due(self.now) {
            if !self.timer_applies(&tm) {
                continue; // stale: no change (R10)
            }
            match tm.kind {
                TimerKind::Mature => self.mature_earmarks(),
                TimerKind::Advance => self.advance(tm.subject),
                TimerKind::Finish => self.finish(tm.subject),
                TimerKind::Release => self.release_victim(tm.subject),
            }
        }
    }
}
