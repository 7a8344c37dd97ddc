//! The discrete-event simulation: [`Simulation`].
//!
//! # Lifecycle
//! `Simulation::new(valid)` starts at time 0 with nothing submitted. [`Simulation::step`]
//! processes the next instant at which anything happens (R10), [`Simulation::run_until`] every
//! instant up to a time, [`Simulation::run`] everything (or up to `settings.horizonSeconds`).
//! Between calls the state can be read: [`Simulation::snapshot`] (R25), the event list (R24),
//! [`Simulation::jobs`] and [`Simulation::summary`] (R26). `Simulation` is `Clone`, so a caller
//! can fork a what-if at any instant.
//!
//! # Accounting
//! Two usages are kept per share and instance type:
//! - *held* (`phys`): instances held by the share's jobs, `SCHEDULED` to release (R6). This is
//!   what reports show and what the service environment limit bounds physically.
//! - *committed* (`dec`): what decisions see. A job being preempted has already handed the part
//!   of its instances its preemptor counts on (its *credit*) to the preemptor's earmark (R21),
//!   which is committed to the preemptor's share. So `free = C - sum(dec) - holds`. For a
//!   share's own quota and the pool, a victim's instances still count in its own share until
//!   it releases (`credited`) and the preemptor's share counts only the part of its earmark
//!   the credits do not cover (`covered`).
//!
//! No floating point is used in any decision; ratios are compared by cross-multiplication and
//! every tie is broken by input order (R27).

// Shares and types index several parallel arrays at once; index loops say that best.
#![allow(clippy::needless_range_loop)]

use alloc::collections::BTreeSet;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec;
use alloc::vec::Vec;
use core::cmp::{Ordering, Reverse};

use crate::chunked::Chunked;
use crate::model::{Strategy, VictimOrder};
use crate::reasons::Reason;
pub use crate::reasons::{
    MISCONFIG_BORROW_LIMIT, MISCONFIG_POOL, MISCONFIG_QUOTA, MISCONFIG_SE, REJECTED_REASON, TIMEOUT_REASON,
    WAIT_FREE, WAIT_POOL, WAIT_PREEMPTION, WAIT_QUOTA,
};
use crate::result::*;
use crate::validate::{ActionCfg, JobId, ShareId, TypeId, ValidScenario};

mod clock;
mod events;
mod ledger;

use clock::{Clock, Timer, TimerKind};
use events::{status_slot, EventLog, RawEvent};
use ledger::{Integrals, Ledger, Need};

const NONE: u32 = u32::MAX;
const NOT_RUNNING: u64 = u64::MAX;

/// "Not yet" for a time field.
const NEVER: u64 = u64::MAX;

fn opt_time(t: u64) -> Option<u64> {
    (t != NEVER).then_some(t)
}

/// One attempt of a job, in the attempt list shared by all jobs: each job's attempts are
/// linked from its last one back (`prev`), so a job costs no allocation of its own.
#[derive(Clone, Debug)]
struct AttemptRaw {
    started: u64,
    /// `NEVER` while the attempt holds its instances.
    stopped: u64,
    borrowed: u64,
    reason: Reason,
    /// The job's previous attempt, or `NONE`.
    prev: u32,
}

/// What a job is doing, kept small (72 bytes): a million of them are read at random.
#[derive(Clone, Debug)]
struct JobDyn {
    /// Training saved by checkpoints (R8). Lost work is in the preemption log.
    saved: u64,
    /// Training time over all attempts.
    trained: u64,
    running_since: u64,
    /// When it first reached `RUNNING`, or `NEVER`.
    first_running: u64,
    /// When it stopped for good, or `NEVER`.
    stopped_at: u64,
    reason: Reason,
    priority: u32,
    gen: u32,
    preempted_count: u32,
    /// While it is being preempted: its record in the preemption log; otherwise `NONE`.
    preempting: u32,
    /// Its latest attempt in the attempt list, or `NONE`.
    last_attempt: u32,
    status: Option<Status>,
    /// Terminated before its `submitAt`: never submitted.
    cancelled: bool,
}

/// A running job (`SCHEDULED` to release) in its share and type's running list, with what
/// victim searches read, so scanning a list does not touch the job table.
#[derive(Clone, Copy, Debug)]
struct RunEntry {
    job: JobId,
    /// The job's priority, or `u32::MAX` while it is being preempted (never a candidate).
    key: u32,
}

/// A record of one victim's preemption, kept for explanations and R24 events.
#[derive(Clone, Debug, PartialEq)]
pub struct PreemptionRecord {
    pub victim: JobId,
    pub preemptor: Option<JobId>,
    pub kind: PreemptionKind,
    pub decided_at: u64,
    pub releases_at: u64,
    /// The victim's `preemptedAttemptCount`, this preemption included.
    pub count: u32,
    pub lost: u64,
    /// Candidates in the order R19/R20 considered them (the first few).
    pub considered: Vec<JobId>,
    /// The preemptor's earmark (R21), in instances.
    pub earmarked: u64,
}

#[derive(Clone, Debug)]
struct Earmark {
    job: JobId,
    share: ShareId,
    ty: TypeId,
    n: u64,
    victims: Vec<JobId>,
    /// When the victims release (R21).
    due: u64,
    live: bool,
}

#[derive(Clone, Debug)]
struct ShareDyn {
    in_share: bool,
    enabled: bool,
    /// The share's pending preemptor's earmark (R21): the share is blocked meanwhile.
    earmark: u32,
}

/// R19 order key of a candidate: step 3 (covering, excess or returns), then step 4.
type VictimKey = (u8, u64, Reverse<u64>, Reverse<u32>);

/// R15 for one type: per share (borrowed, lent), the flows (borrower, lender, instances),
/// and borrowed instances no lender's idle quota accounts for.
type Attribution = (Vec<(u64, u64)>, Vec<(ShareId, ShareId, u64)>, u64);

/// The first job of a share's queue with the fields a pass reads, kept next to each other
/// (and in the queue key) so that looking at a share does not touch the job tables.
#[derive(Clone, Copy, Debug)]
struct Head {
    job: u32,
    ty: u32,
    priority: u32,
    count: u64,
    submit_at: u64,
}

impl Head {
    const EMPTY: Head = Head { job: NONE, ty: 0, priority: 0, count: 0, submit_at: 0 };

    /// The head a queue key describes.
    fn of(k: &QKey) -> Head {
        Head { job: k.2, ty: k.3, priority: k.0 .0, count: k.4, submit_at: k.1 }
    }
}

/// Queue key, R11: highest priority, then earliest `submitAt`, then input order. The type
/// and count follow (the job already makes the key unique) for the cached heads.
type QKey = (Reverse<u32>, u64, u32, u32, u64);

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
}

impl Default for Options {
    fn default() -> Self {
        Options { record_events: true, exhaustive_passes: false }
    }
}

/// Phase of a pass (R16), for the front-job rule with backfill.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    WithinQuota,
    Borrow,
}

/// A preemption plan: victims with their credits, and the kinds.
struct Plan {
    victims: Vec<(JobId, u64, PreemptionKind)>,
    considered: Vec<JobId>,
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
    queues: Vec<BTreeSet<QKey>>,
    running: Vec<Vec<RunEntry>>,
    /// Jobs holding free instances (R16), oldest first, with the instances each holds.
    holds: Vec<(JobId, u64)>,
    earmarks: Vec<Earmark>,
    clock: Clock,
    /// Jobs in submission order, when that is not input order (else empty).
    submit_order: Arc<Vec<JobId>>,
    next_submit: usize,
    next_action: usize,
    dirty: bool,
    /// What changed since the last pass (R16 work is limited to shares it can affect).
    dirty_all: bool,
    dirty_shares: u64,
    /// The same, for the pass under way (it grows as capacity is released in the pass).
    cur_all: bool,
    cur_shares: u64,
    order_buf: Vec<(ShareId, u64, u64)>,
    /// Some job has no work at all: it completes inside a pass (R10), releasing capacity
    /// there, so every pass must consider every share.
    zero_work: bool,
    stats: Stats,
    /// Jobs per status, by `status_slot`, for R25.
    status_counts: [u64; 8],
    /// Per type: the shares (bit per share, the first 64) whose cached head is of that type.
    head_types: Vec<u64>,
    /// Cached first key of each share's queue.
    heads: Vec<Head>,
    events: EventLog,
    preemptions: Vec<PreemptionRecord>,
    /// Per preemption log entry: instances of the victim committed to its preemptor's
    /// earmark while the victim is being preempted.
    credits: Vec<u64>,
    terminate_reasons: Vec<String>,
    /// The first job whose next time would be after 2^53 - 1: the run stops there.
    overflow: Option<JobId>,
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
        }
    }
}

fn ratio_lt(a_num: u64, a_den: u64, b_num: u64, b_den: u64) -> Ordering {
    // R16: lowest U/Q first; Q = 0 after all others.
    match (a_den == 0, b_den == 0) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        _ => ((a_num as u128) * (b_den as u128)).cmp(&((b_num as u128) * (a_den as u128))),
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
            .map(|s| ShareDyn { in_share: s.in_share_preemption, enabled: s.enabled, earmark: NONE })
            .collect();
        let jobs: Vec<JobDyn> = scenario
            .jobs
            .iter()
            .map(|j| JobDyn {
                saved: 0,
                trained: 0,
                running_since: NOT_RUNNING,
                first_running: NEVER,
                stopped_at: NEVER,
                reason: Reason::None,
                priority: j.priority,
                gen: 0,
                preempted_count: 0,
                preempting: NONE,
                last_attempt: NONE,
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
            queues: vec![BTreeSet::new(); ns],
            running: vec![Vec::new(); ns * nt],
            holds: Vec::new(),
            earmarks: Vec::new(),
            clock: Clock::default(),
            submit_order: Arc::new(order),
            next_submit: 0,
            next_action: 0,
            dirty: false,
            dirty_all: true,
            dirty_shares: 0,
            cur_all: true,
            cur_shares: 0,
            order_buf: Vec::with_capacity(ns),
            zero_work: scenario.jobs.iter().any(|j| j.duration == 0),
            stats: Stats::default(),
            status_counts: [scenario.jobs.len() as u64, 0, 0, 0, 0, 0, 0, 0],
            heads: vec![Head::EMPTY; ns],
            head_types: vec![0; nt],
            events: EventLog::default(),
            preemptions: Vec::new(),
            credits: Vec::new(),
            terminate_reasons: Vec::new(),
            overflow: None,
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

    /// The preemption log: every victim's preemption in decision order.
    pub fn preemptions(&self) -> &[PreemptionRecord] {
        &self.preemptions
    }

    #[inline]
    fn st(&self, s: ShareId, t: TypeId) -> usize {
        s as usize * self.nt + t as usize
    }

    fn job_cfg(&self, j: JobId) -> &crate::validate::JobCfg {
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

    fn last_attempt(&self, j: JobId) -> Option<&AttemptRaw> {
        match self.jobs[j as usize].last_attempt {
            NONE => None,
            a => Some(self.attempts.get(a as usize)),
        }
    }

    fn last_attempt_mut(&mut self, j: JobId) -> Option<&mut AttemptRaw> {
        match self.jobs[j as usize].last_attempt {
            NONE => None,
            a => Some(self.attempts.get_mut(a as usize)),
        }
    }

    /// A job's attempts, first to last.
    fn attempts_of(&self, j: JobId) -> Vec<&AttemptRaw> {
        let mut v = Vec::new();
        let mut a = self.jobs[j as usize].last_attempt;
        while a != NONE {
            let at = self.attempts.get(a as usize);
            v.push(at);
            a = at.prev;
        }
        v.reverse();
        v
    }

    /// Where job `j` is in its running list.
    fn run_index(&self, j: JobId) -> Option<(usize, usize)> {
        let jc = self.job_cfg(j);
        let i = self.st(jc.share, jc.ty);
        self.running[i].iter().position(|e| e.job == j).map(|p| (i, p))
    }

    /// Instances job `j` holds for itself (R16), if any.
    #[inline]
    fn hold_of(&self, j: JobId, t: TypeId) -> u64 {
        if self.ledger.withheld(t) == 0 {
            return 0;
        }
        self.holds.iter().find(|h| h.0 == j).map_or(0, |h| h.1)
    }

    fn set_status(&mut self, j: JobId, status: Status, reason: Reason) {
        self.put_status(j, status);
        self.event(j, EventType::StateChange, Some(status), reason);
    }

    /// Sets a job's status, keeping the R25 job counts.
    fn put_status(&mut self, j: JobId, status: Status) {
        let jd = &mut self.jobs[j as usize];
        self.status_counts[status_slot(jd.status)] -= 1;
        self.status_counts[status_slot(Some(status))] += 1;
        jd.status = Some(status);
    }

    // ----- what a pass must look at ------------------------------------------------------

    /// A share's queue changed (its front job may be another one).
    fn mark_share(&mut self, s: ShareId) {
        if s >= 64 {
            return self.mark_all();
        }
        let bit = 1u64 << s;
        self.dirty_shares |= bit;
        self.cur_shares |= bit;
        self.dirty = true;
    }

    /// Whether anything changed that a pass must look at.
    fn dirty(&self) -> bool {
        self.dirty || self.ledger.changed()
    }

    fn mark_all(&mut self) {
        self.dirty_all = true;
        self.cur_all = true;
        self.dirty = true;
    }

    /// Whether share `s` with front job type `t` needs looking at in the current pass.
    /// Skipping the others is exact: a share whose type and queue did not change since it
    /// was last looked at cannot dispatch, hold or preempt anything new (R16).
    fn relevant(&self, s: ShareId, t: TypeId) -> bool {
        self.cur_all || self.ledger.changed_in_pass(t) || (s < 64 && self.cur_shares & (1u64 << s) != 0)
    }

    fn free_for(&self, j: JobId, t: TypeId) -> i64 {
        self.ledger.free(t, || self.hold_of(j, t))
    }

    /// Fewer free instances than the job needs (or no service environment limit): it fits
    /// neither within quota nor by borrowing.
    fn free_short(&self, need: Need) -> bool {
        self.ledger.capacity(need.ty).is_none() || self.free_for(need.job, need.ty) < need.count as i64
    }

    /// R14 with `own_release` instances of the job's own share counted as released (in-share
    /// victims, R20). `within` asks for a fit within quota (R16 phase 1).
    fn fits_adj(&self, j: JobId, own_release: u64, within: bool) -> bool {
        self.fits_need(self.need(j), own_release, within)
    }

    fn need(&self, j: JobId) -> Need {
        let jc = self.job_cfg(j);
        Need { job: j, share: jc.share, ty: jc.ty, count: jc.count }
    }

    /// The front job of share `s` as a [`Need`].
    fn head_need(s: ShareId, h: Head) -> Need {
        Need { job: h.job, share: s, ty: h.ty, count: h.count }
    }

    /// [`Self::fits_adj`] for a request already at hand.
    #[inline]
    fn fits_need(&self, need: Need, own_release: u64, within: bool) -> bool {
        self.ledger.fits(need, || self.hold_of(need.job, need.ty), own_release, within)
    }

    fn fits(&self, j: JobId, within: bool) -> bool {
        self.fits_adj(j, 0, within)
    }

    #[inline]
    fn never_runnable(&self, j: JobId) -> bool {
        let jc = self.job_cfg(j);
        self.ledger.never_runnable(jc.share, jc.ty, jc.count)
    }

    /// R17: the `MISCONFIGURATION` reason of a job that can never fit, if any.
    pub fn never_runnable_reason(&self, j: JobId) -> Option<&'static str> {
        let jc = self.job_cfg(j);
        self.ledger.misconfiguration(jc.share, jc.ty, jc.count).map(|m| m.text())
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
        if self.overflow.is_some() {
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

    /// What the run did so far, for benchmarks.
    pub fn bench_run(&self) -> BenchRun {
        let mut victims: Vec<JobId> = self.preemptions.iter().map(|p| p.victim).collect();
        victims.sort_unstable();
        victims.dedup();
        BenchRun { events: self.stats.events, preempted_jobs: victims.len() as u64, ended_at: self.now }
    }

    /// Why the results so far cannot be given exactly, if so: a job's next time would come
    /// after 2^53 - 1 (the run stopped before it), or a sum in the summary exceeds 2^53 - 1.
    /// Front ends check it after running and report it instead of results.
    pub fn run_error(&self) -> Option<RunError> {
        if let Some(j) = self.overflow {
            return Some(RunError::TimeOverflow { job: self.job_cfg(j).name.clone(), at: self.now });
        }
        self.sums_error().map(|metric| RunError::SumOverflow { metric })
    }

    /// The summary path of the first integer sum over 2^53 - 1 (R26), if any.
    fn sums_error(&self) -> Option<String> {
        const FIELDS: [&str; 7] = [
            "instanceSeconds",
            "instanceSecondsOwn",
            "instanceSecondsBorrowed",
            "instanceSecondsLent",
            "lostInstanceSeconds",
            "gpuHours",
            "utilization",
        ];
        let ig = self.ledger.integrals_at(self.now);
        let mut lost: Vec<u128> = vec![0; self.shares.len()];
        for p in &self.preemptions {
            let jc = self.job_cfg(p.victim);
            lost[jc.share as usize] += p.lost as u128 * jc.count as u128;
        }
        let over = |m: &[u128; 7]| m.iter().position(|&v| v > MAX_SAFE_INTEGER as u128).map(|k| FIELDS[k]);
        let mut overall = [0u128; 7];
        for s in 0..self.shares.len() {
            let mut m = [0u128; 7];
            for t in 0..self.nt {
                let a = &ig.acc[s * self.nt + t];
                let g = self.cfg.types[t].gpus.max(1) as u128;
                let sums = [a.used, a.own, a.borrowed, a.lent];
                for (k, v) in sums.iter().enumerate() {
                    m[k] += *v as u128;
                }
                m[5] += a.used as u128 * g;
                m[6] += a.quota as u128;
            }
            m[4] = lost[s];
            if let Some(field) = over(&m) {
                return Some(alloc::format!("perQuotaShare.{}.{field}", self.cfg.shares[s].name));
            }
            for k in 0..6 {
                overall[k] += m[k];
            }
        }
        overall[6] = ig.cap.iter().map(|&c| c as u128).sum();
        over(&overall).map(|field| alloc::format!("overall.{field}"))
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
            self.mark_all();
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
            if self.dirty() {
                self.pass();
                // What the pass itself did needs no other pass (R10); only releases it made
                // due at this instant do.
                self.dirty = false;
                self.ledger.clear_changed();
            }
            if self.clock.next_at() == Some(t) {
                self.apply_due_timers();
            } else {
                break;
            }
            if !self.dirty() {
                break;
            }
        }
        self.drop_stale_timers();
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
                TimerKind::Mature => self.mark_all(),
                TimerKind::Advance => self.advance(tm.subject),
                TimerKind::Finish => self.finish(tm.subject),
                TimerKind::Release => self.release_victim(tm.subject),
            }
        }
    }

    // ----- job lifecycle (R6-R9) ------------------------------------------------------------

    fn submit(&mut self, j: JobId) {
        if self.jobs[j as usize].cancelled {
            return;
        }
        let s = self.job_cfg(j).share;
        if !self.shares[s as usize].enabled {
            self.jobs[j as usize].reason = Reason::Rejected;
            self.jobs[j as usize].stopped_at = self.now;
            self.set_status(j, Status::Failed, Reason::Rejected);
            return;
        }
        self.set_status(j, Status::Submitted, Reason::None);
        self.set_status(j, Status::Runnable, Reason::None);
        self.enqueue(j);
        self.dirty = true;
    }

    fn qkey(&self, j: JobId) -> QKey {
        let jc = self.job_cfg(j);
        (Reverse(self.jobs[j as usize].priority), jc.submit_at, j, jc.ty, jc.count)
    }

    /// Refreshes share `s`'s cached head; returns whether it is another job now.
    fn refresh_head(&mut self, s: ShareId) -> bool {
        let old = self.heads[s as usize];
        let new = match self.queues[s as usize].first() {
            None => Head::EMPTY,
            Some(k) => Head::of(k),
        };
        self.heads[s as usize] = new;
        if s < 64 {
            if old.job != NONE {
                self.head_types[old.ty as usize] &= !(1u64 << s);
            }
            if new.job != NONE {
                self.head_types[new.ty as usize] |= 1u64 << s;
            }
        }
        old.job != new.job
    }

    fn enqueue(&mut self, j: JobId) {
        let k = self.qkey(j);
        let s = self.job_cfg(j).share;
        self.queues[s as usize].insert(k);
        self.stats.max_queued = self.stats.max_queued.max(self.queues[s as usize].len() as u64);
        // Without backfill a pass reads only a share's front job (with backfill every share
        // is looked at anyway): a job queued behind it changes nothing the pass can see.
        if self.refresh_head(s) {
            self.mark_share(s);
        }
    }

    fn dequeue(&mut self, j: JobId) {
        let s = self.job_cfg(j).share;
        // Most jobs leave from the front of their queue.
        if self.heads[s as usize].job == j {
            self.queues[s as usize].pop_first();
        } else {
            let k = self.qkey(j);
            self.queues[s as usize].remove(&k);
        }
        if self.refresh_head(s) {
            self.mark_share(s);
        }
        self.drop_hold(j);
    }

    fn drop_hold(&mut self, j: JobId) {
        if let Some(p) = self.holds.iter().position(|h| h.0 == j) {
            let (_, h) = self.holds.remove(p);
            if h > 0 {
                let t = self.job_cfg(j).ty;
                self.ledger.change_withheld(t, 0, h);
                self.ledger.mark(t);
            }
        }
    }

    /// Starts an attempt: the job takes its instances (R6).
    fn dispatch(&mut self, j: JobId) {
        self.stats.dispatches += 1;
        self.dequeue(j);
        let jc = self.job_cfg(j);
        let (s, t, n) = (jc.share, jc.ty, jc.count);
        let i = self.st(s, t);
        let q = self.ledger.quota(s, t);
        let u = self.ledger.quota_usage(s, t);
        // R14: the part above its quota.
        let borrowed = (u + n).saturating_sub(q) - u.saturating_sub(q);
        self.ledger.add_committed(s, t, n);
        self.ledger.change_held(self.now, s, t, n, 0);
        let now = self.now;
        let jd = &mut self.jobs[j as usize];
        self.running[i].push(RunEntry { job: j, key: jd.priority });
        let prev = jd.last_attempt;
        jd.last_attempt = self.attempts.push(AttemptRaw {
            started: now,
            stopped: NEVER,
            borrowed,
            reason: Reason::None,
            prev,
        }) as u32;
        jd.gen = jd.gen.wrapping_add(1);
        self.set_status(j, Status::Scheduled, Reason::None);
        let sched = self.cfg.settings.scheduled;
        if sched > 0 {
            self.push_timer(now.saturating_add(sched), TimerKind::Advance, j);
        } else {
            self.advance(j);
        }
    }

    fn advance(&mut self, j: JobId) {
        match self.jobs[j as usize].status {
            Some(Status::Scheduled) => {
                self.set_status(j, Status::Starting, Reason::None);
                let st = self.cfg.settings.starting;
                if st > 0 {
                    self.push_timer(self.now.saturating_add(st), TimerKind::Advance, j);
                } else {
                    self.start_running(j);
                }
            }
            Some(Status::Starting) => self.start_running(j),
            _ => {}
        }
    }

    fn start_running(&mut self, j: JobId) {
        let now = self.now;
        self.set_status(j, Status::Running, Reason::None);
        let jc = self.job_cfg(j);
        let remaining = jc.duration - self.jobs[j as usize].saved;
        let timeout = jc.timeout;
        let jd = &mut self.jobs[j as usize];
        jd.running_since = now;
        if jd.first_running == NEVER {
            jd.first_running = now;
        }
        match timeout {
            // R9: a timeout equal to the remaining work is a success.
            Some(tau) if tau < remaining => self.push_timer(now.saturating_add(tau), TimerKind::Finish, j),
            _ if remaining == 0 => self.finish(j),
            _ => self.push_timer(now.saturating_add(remaining), TimerKind::Finish, j),
        }
    }

    fn remove_running(&mut self, j: JobId) {
        if let Some((i, p)) = self.run_index(j) {
            self.running[i].swap_remove(p);
        }
    }

    /// Training time of the current attempt so far.
    fn attempt_training(&self, j: JobId) -> u64 {
        let rs = self.jobs[j as usize].running_since;
        if rs == NOT_RUNNING {
            0
        } else {
            self.now - rs
        }
    }

    /// Completion or timeout (R9) of a running job.
    fn finish(&mut self, j: JobId) {
        let jc = self.job_cfg(j);
        let (s, t, n, duration, timeout) = (jc.share, jc.ty, jc.count, jc.duration, jc.timeout);
        let trained = self.attempt_training(j);
        let remaining = duration - self.jobs[j as usize].saved;
        let success = timeout.is_none_or(|tau| tau >= remaining);
        self.remove_running(j);
        self.ledger.sub_committed(s, t, n);
        self.ledger.change_held(self.now, s, t, 0, n);
        let now = self.now;
        let jd = &mut self.jobs[j as usize];
        jd.trained += trained;
        jd.running_since = NOT_RUNNING;
        jd.stopped_at = now;
        jd.gen = jd.gen.wrapping_add(1);
        let reason = if success { Reason::None } else { Reason::Timeout };
        jd.reason = reason;
        if let Some(a) = self.last_attempt_mut(j) {
            a.stopped = now;
            a.reason = reason;
        }
        let jd = &mut self.jobs[j as usize];
        if success {
            jd.saved = duration;
            self.set_status(j, Status::Succeeded, Reason::None);
        } else {
            self.set_status(j, Status::Failed, Reason::Timeout);
        }
        self.dirty = true;
    }

    // ----- preemption (R18-R21) ----------------------------------------------------------

    /// Victim order key, R19 steps 1, 2 and 4 (step 3 depends on the shortfall).
    fn victim_static_key(&self, v: JobId) -> (u32, u64, Reverse<u64>, Reverse<u32>) {
        let jd = &self.jobs[v as usize];
        let step2 = match self.cfg.settings.victim_order {
            // Most recently dispatched first: larger start time sorts first.
            VictimOrder::Aws => u64::MAX - self.last_attempt(v).map_or(0, |a| a.started),
            VictimOrder::LeastLostWork => {
                let tr = self.attempt_training(v);
                match self.job_cfg(v).checkpoint_interval {
                    Some(c) => tr % c,
                    None => tr,
                }
            }
        };
        (jd.priority, step2, Reverse(self.job_cfg(v).submit_at), Reverse(v))
    }

    /// Picks the next victim among `cands` in R19 order; `cover(c)` gives step 3's
    /// `(covers, returns)` for a candidate.
    fn pick_victim(
        &self,
        cands: &[JobId],
        mut step3: impl FnMut(JobId) -> (bool, u64, u64),
    ) -> Option<usize> {
        if cands.is_empty() {
            return None;
        }
        // Steps 1-2 first: only the best group needs step 3.
        let best12 = cands
            .iter()
            .map(|&c| {
                let k = self.victim_static_key(c);
                (k.0, k.1)
            })
            .min()?;
        let mut best: Option<(usize, VictimKey)> = None;
        for (i, &c) in cands.iter().enumerate() {
            let k = self.victim_static_key(c);
            if (k.0, k.1) != best12 {
                continue;
            }
            let (covers, returns, excess) = step3(c);
            // Covering candidates by least excess, then the others by most returned.
            let k3 = if covers { (0u8, excess) } else { (1u8, u64::MAX - returns) };
            let key = (k3.0, k3.1, k.2, k.3);
            if best.as_ref().is_none_or(|(_, b)| key < *b) {
                best = Some((i, key));
            }
        }
        best.map(|(i, _)| i)
    }

    /// R18/R19: plans reclaim for front job `j`, with `own_release` instances of its own
    /// share counted as released (in-share victims, R20). `Some(victims)` when the job fits
    /// (with no victims if it fits already); `None` when even all candidates would not do.
    fn plan_reclaim(
        &self,
        j: JobId,
        own_release: u64,
        considered: &mut Vec<JobId>,
    ) -> Option<Vec<(JobId, u64)>> {
        let jc = self.job_cfg(j);
        let (s, t, n) = (jc.share, jc.ty, jc.count);
        self.ledger.capacity(t)?;
        let u = self.ledger.quota_usage(s, t).saturating_sub(own_release);
        let q = self.ledger.quota(s, t);
        let lends = self.ledger.lends(s);
        if self.fits_adj(j, own_release, false) {
            return Some(Vec::new());
        }
        if u + n > q {
            // A job that needs borrowing never triggers reclaim.
            return None;
        }
        let free = self.free_for(j, t) + own_release as i64;
        let pool = self.ledger.pool_available(t) + if lends { own_release as i64 } else { 0 };
        let mut fs: i64 = (n as i64 - free).max(0);
        let mut ps: i64 = if lends { (n as i64 - pool).max(0) } else { 0 };
        let ns = self.shares.len();
        // Quick rejection before any allocation: all returnable capacity together.
        {
            let (mut all_f, mut all_p) = (0i64, 0i64);
            for b in 0..ns {
                if b == s as usize {
                    continue;
                }
                let over_b = self.ledger.over_quota(b as ShareId, t);
                let lb = self.ledger.lends(b as ShareId);
                if over_b > 0 && (fs > 0 || lb) {
                    all_f += over_b as i64;
                    if lb {
                        all_p += over_b as i64;
                    }
                }
            }
            if all_f < fs || all_p < ps {
                return None;
            }
        }
        // Over quota per share, in committed terms; victims being preempted are excluded.
        let mut over: Vec<u64> = (0..ns).map(|b| self.ledger.over_quota(b as ShareId, t)).collect();
        // Short of free: over-quota jobs of any share; short of the pool only: of lenders.
        let free_short = fs > 0;
        let eligible = |b: usize| b != s as usize && (free_short || self.ledger.lends(b as ShareId));
        let mut cands: Vec<JobId> = Vec::new();
        for b in 0..ns {
            if eligible(b) && over[b] > 0 {
                for e in &self.running[b * self.nt + t as usize] {
                    if e.key != u32::MAX {
                        cands.push(e.job);
                    }
                }
            }
        }
        let mut taken: Vec<JobId> = Vec::new();
        while fs > 0 || ps > 0 {
            let idx = self.pick_victim(&cands, |c| {
                let b = self.job_cfg(c).share as usize;
                let ret = self.job_cfg(c).count.min(over[b]) as i64;
                let lend_b = self.ledger.lends(b as ShareId);
                let need = fs.max(if lend_b { ps } else { 0 });
                let covers = ret >= fs && (!lend_b && ps == 0 || lend_b && ret >= ps);
                (covers, ret as u64, (ret - need).max(0) as u64)
            })?;
            let c = cands.swap_remove(idx);
            let b = self.job_cfg(c).share as usize;
            let ret = self.job_cfg(c).count.min(over[b]);
            if ret == 0 {
                continue;
            }
            if considered.len() < 16 {
                considered.push(c);
            }
            over[b] -= ret;
            fs = (fs - ret as i64).max(0);
            if self.ledger.lends(b as ShareId) {
                ps = (ps - ret as i64).max(0);
            }
            taken.push(c);
            // Drop candidates of shares no longer over quota.
            cands.retain(|&x| over[self.job_cfg(x).share as usize] > 0);
        }
        // Minimal set: from the last taken back, drop every victim not needed.
        let returns_ok = |set: &[JobId]| -> bool {
            let mut per: Vec<u64> = vec![0; ns];
            for &v in set {
                per[self.job_cfg(v).share as usize] += self.job_cfg(v).count;
            }
            let (mut f, mut p) = (0i64, 0i64);
            for b in 0..ns {
                let r = per[b].min(self.ledger.over_quota(b as ShareId, t)) as i64;
                f += r;
                if self.ledger.lends(b as ShareId) {
                    p += r;
                }
            }
            free + f >= n as i64 && (!lends || pool + p >= n as i64)
        };
        let mut k = taken.len();
        while k > 0 {
            k -= 1;
            let mut trial = taken.clone();
            trial.remove(k);
            if returns_ok(&trial) {
                taken = trial;
            }
        }
        // What each victim returns, in pick order.
        let mut over2: Vec<u64> = (0..ns).map(|b| self.ledger.over_quota(b as ShareId, t)).collect();
        Some(
            taken
                .into_iter()
                .map(|v| {
                    let b = self.job_cfg(v).share as usize;
                    let r = self.job_cfg(v).count.min(over2[b]);
                    over2[b] -= r;
                    (v, r)
                })
                .collect(),
        )
    }

    /// R18 then R20 for a front job that does not fit even with borrowing.
    fn plan_preemption(&mut self, j: JobId) -> Option<Plan> {
        self.plan_preemption_for(self.need(j), self.jobs[j as usize].priority)
    }

    /// [`Self::plan_preemption`] for a request at hand, of a job with priority `prio`.
    fn plan_preemption_for(&mut self, need: Need, prio: u32) -> Option<Plan> {
        self.stats.preemption_plans += 1;
        self.plan_preemption_ro(need, prio)
    }

    fn plan_preemption_ro(&self, need: Need, prio: u32) -> Option<Plan> {
        let Need { job: j, share: s, ty: t, count: n } = need;
        // Cheap rejections first: reclaim needs a fit within quota and some other share over
        // quota (R18); in-share preemption needs a lower-priority job running (R20).
        let within = self.ledger.quota_usage(s, t) + n <= self.ledger.quota(s, t);
        // Only shares with quota or use of the type can be over quota for it.
        let reclaim_possible = within
            && self
                .ledger
                .type_shares(t)
                .iter()
                .any(|&b| b != s && self.ledger.over_quota(b as ShareId, t) > 0);
        let in_share_possible =
            self.shares[s as usize].in_share && self.running[self.st(s, t)].iter().any(|e| e.key < prio);
        if !reclaim_possible && !in_share_possible {
            return None;
        }
        let mut considered = Vec::new();
        if let Some(v) = self.plan_reclaim(j, 0, &mut considered) {
            if !v.is_empty() {
                return Some(self.to_plan(j, v, Vec::new(), considered));
            }
            return None; // fits already: nothing to preempt
        }
        // R20: running jobs of the same share with strictly lower priority (not being
        // preempted already: their key is u32::MAX).
        if !in_share_possible {
            return None;
        }
        let mut cands: Vec<JobId> =
            self.running[self.st(s, t)].iter().filter(|e| e.key < prio).map(|e| e.job).collect();
        let mut chosen: Vec<JobId> = Vec::new();
        let mut released = 0u64;
        let found = loop {
            let idx = self.pick_victim(&cands, |c| {
                let ret = self.job_cfg(c).count;
                let covers = self.plan_reclaim(j, released + ret, &mut Vec::new()).is_some();
                (covers, ret, ret)
            });
            let Some(idx) = idx else { break None };
            let c = cands.swap_remove(idx);
            if considered.len() < 16 {
                considered.push(c);
            }
            released += self.job_cfg(c).count;
            chosen.push(c);
            if let Some(cross) = self.plan_reclaim(j, released, &mut Vec::new()) {
                break Some(cross);
            }
        };
        let mut cross = found?;
        // Minimal: drop in-share victims from the last one back while it still fits.
        let mut k = chosen.len();
        while k > 0 {
            k -= 1;
            let without = released - self.job_cfg(chosen[k]).count;
            if let Some(c2) = self.plan_reclaim(j, without, &mut Vec::new()) {
                chosen.remove(k);
                released = without;
                cross = c2;
            }
        }
        let inshare: Vec<(JobId, u64)> = chosen.iter().map(|&v| (v, self.job_cfg(v).count)).collect();
        Some(self.to_plan(j, cross, inshare, considered))
    }

    /// Victims with the kinds of their preemption and their credits: how many of their
    /// instances the preemptor's earmark takes over (R21). The earmark is the preemptor's
    /// whole need `n`: first what its victims will return (lenders' returns first), and free
    /// and pool capacity only for the rest. Credits never add up to more than `n`, so a
    /// victim's other instances stay held, for everyone, until it releases.
    fn to_plan(
        &self,
        j: JobId,
        cross: Vec<(JobId, u64)>,
        inshare: Vec<(JobId, u64)>,
        considered: Vec<JobId>,
    ) -> Plan {
        let n = self.job_cfg(j).count;
        let mut need = n;
        let all: Vec<(JobId, u64, bool)> = inshare
            .iter()
            .map(|&(v, r)| (v, r, true))
            .chain(cross.iter().map(|&(v, r)| (v, r, false)))
            .collect();
        let mut credit = vec![0u64; all.len()];
        // Lenders' returns first.
        for (k, &(v, r, _)) in all.iter().enumerate() {
            if need == 0 {
                break;
            }
            if self.ledger.lends(self.job_cfg(v).share) {
                let c = r.min(need);
                credit[k] = c;
                need -= c;
            }
        }
        for (k, &(_, r, _)) in all.iter().enumerate() {
            if need == 0 {
                break;
            }
            let c = (r - credit[k]).min(need);
            credit[k] += c;
            need -= c;
        }
        let mut victims = Vec::new();
        for (k, &(v, _, in_share)) in all.iter().enumerate() {
            let r = credit[k];
            if in_share {
                victims.push((v, r, PreemptionKind::InShare));
                continue;
            }
            let jc = self.job_cfg(v);
            let kind = if self.ledger.over_by_update(jc.share, jc.ty) {
                PreemptionKind::CapacityReduced
            } else {
                PreemptionKind::CrossShare
            };
            victims.push((v, r, kind));
        }
        Plan { victims, considered }
    }

    /// Tells victims to stop (`Preemption Started`, R21) and earmarks the preemptor's need.
    fn execute(&mut self, preemptor: Option<JobId>, plan: Plan) {
        let release_at = self.now.saturating_add(self.cfg.settings.grace);
        let em = if let Some(p) = preemptor {
            let jc = self.job_cfg(p);
            let (s, t, n) = (jc.share, jc.ty, jc.count);
            self.drop_hold(p);
            let id = self.earmarks.len() as u32;
            self.earmarks.push(Earmark {
                job: p,
                share: s,
                ty: t,
                n,
                victims: Vec::new(),
                due: release_at,
                live: true,
            });
            self.shares[s as usize].earmark = id;
            Some(id)
        } else {
            None
        };
        for (v, credit, kind) in plan.victims {
            self.start_preemption(v, preemptor, kind, credit, release_at, &plan.considered, em);
        }
        if let Some(id) = em {
            let e = &self.earmarks[id as usize];
            let (s, t, n) = (e.share, e.ty, e.n);
            self.ledger.add_committed(s, t, n);
            self.push_timer(release_at, TimerKind::Mature, id);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn start_preemption(
        &mut self,
        v: JobId,
        preemptor: Option<JobId>,
        kind: PreemptionKind,
        credit: u64,
        release_at: u64,
        considered: &[JobId],
        em: Option<u32>,
    ) {
        let jc = self.job_cfg(v);
        let (s, t, ckpt) = (jc.share, jc.ty, jc.checkpoint_interval);
        // R8: training stops now; keep what the last checkpoint saved.
        let trained = self.attempt_training(v);
        let st = &self.cfg.settings;
        let kept = match ckpt {
            Some(_) if st.checkpoint_on_stop && st.grace >= st.checkpoint_save => trained,
            Some(c) => trained / c * c,
            None => 0,
        };
        let lost = trained - kept;
        let count = self.jobs[v as usize].preempted_count + 1;
        let log = self.preemptions.len() as u32;
        self.credits.push(credit);
        self.preemptions.push(PreemptionRecord {
            victim: v,
            preemptor,
            kind,
            decided_at: self.now,
            releases_at: release_at,
            count,
            lost,
            considered: considered.to_vec(),
            earmarked: preemptor.map_or(0, |p| self.job_cfg(p).count),
        });
        {
            let jd = &mut self.jobs[v as usize];
            jd.trained += trained;
            if ckpt.is_some() {
                jd.saved += kept;
            } else {
                jd.saved = 0;
            }
            jd.running_since = NOT_RUNNING;
            jd.gen = jd.gen.wrapping_add(1);
            jd.preempting = log;
        }
        if let Some((i, p)) = self.run_index(v) {
            self.running[i][p].key = u32::MAX;
        }
        if let Some(id) = em {
            self.earmarks[id as usize].victims.push(v);
        }
        let ps = preemptor.map(|p| self.job_cfg(p).share);
        self.ledger.start_preemption(s, t, self.job_cfg(v).count, credit, ps);
        let status = self.jobs[v as usize].status;
        self.event(v, EventType::PreemptionStarted, status, Reason::Preempted(log));
        self.push_timer(release_at, TimerKind::Release, v);
    }

    /// `Preemption Completed` (R21): the victim releases and becomes `RUNNABLE` or `FAILED`.
    fn release_victim(&mut self, v: JobId) {
        let log = self.jobs[v as usize].preempting;
        if log == NONE {
            return;
        }
        let credit = self.credits[log as usize];
        let jc = self.job_cfg(v);
        let (s, t, n, retries) = (jc.share, jc.ty, jc.count, jc.retries);
        self.remove_running(v);
        self.ledger.end_preemption(s, t, n, credit, self.preemptor_share(log));
        self.ledger.change_held(self.now, s, t, 0, n);
        let now = self.now;
        if let Some(a) = self.last_attempt_mut(v) {
            a.stopped = now;
            a.reason = Reason::Preempted(log);
        }
        let jd = &mut self.jobs[v as usize];
        jd.preempting = NONE;
        jd.preempted_count += 1;
        jd.gen = jd.gen.wrapping_add(1);
        let failed = retries.is_some_and(|r| jd.preempted_count as u64 > r);
        if failed {
            jd.reason = Reason::RetryLimit(log);
            jd.stopped_at = now;
            self.put_status(v, Status::Failed);
            self.event(v, EventType::PreemptionCompleted, Some(Status::Failed), Reason::RetryLimit(log));
            self.event(v, EventType::StateChange, Some(Status::Failed), Reason::RetryLimit(log));
        } else {
            self.put_status(v, Status::Runnable);
            self.event(v, EventType::PreemptionCompleted, Some(Status::Runnable), Reason::Preempted(log));
            self.event(v, EventType::StateChange, Some(Status::Runnable), Reason::Preempted(log));
            self.enqueue(v);
        }
        self.dirty = true;
    }

    /// The share of the preemptor of preemption log entry `log`, if it has one.
    fn preemptor_share(&self, log: u32) -> Option<ShareId> {
        self.preemptions[log as usize].preemptor.map(|p| self.job_cfg(p).share)
    }

    /// R21: an earmark lapses; victims still in their grace take their credit back.
    fn lapse_earmark(&mut self, id: u32) {
        let e = &mut self.earmarks[id as usize];
        if !e.live {
            return;
        }
        e.live = false;
        let (s, t, n) = (e.share, e.ty, e.n);
        let victims = core::mem::take(&mut e.victims);
        self.ledger.sub_committed(s, t, n);
        if self.shares[s as usize].earmark == id {
            self.shares[s as usize].earmark = NONE;
        }
        for v in victims {
            let log = self.jobs[v as usize].preempting;
            if log == NONE {
                continue;
            }
            let credit = self.credits[log as usize];
            if credit > 0 {
                let vc = self.job_cfg(v);
                self.ledger.take_back_credit(vc.share, vc.ty, credit, s);
                self.credits[log as usize] = 0;
            }
        }
        self.dirty = true;
    }

    /// R21: after an update, every earmark must still fit, in decision order: R14 for the
    /// preemptor once every job being preempted has released and earlier earmarks are taken.
    fn check_earmarks(&mut self) {
        let live: Vec<u32> =
            (0..self.earmarks.len() as u32).filter(|&i| self.earmarks[i as usize].live).collect();
        if live.is_empty() {
            return;
        }
        // A what-if: every earmark released, every job being preempted too; then the
        // earmarks taken again in decision order, those that no longer fit lapse.
        let earmarks: Vec<(u32, Need)> = live
            .iter()
            .map(|&id| {
                let e = &self.earmarks[id as usize];
                (id, Need { job: e.job, share: e.share, ty: e.ty, count: e.n })
            })
            .collect();
        let holds = &self.holds;
        let hold_of = |j: JobId| holds.iter().find(|h| h.0 == j).map_or(0, |h| h.1);
        let lapsed: Vec<u32> = self.ledger.what_if(|l| {
            for &(_, e) in &earmarks {
                l.sub_committed(e.share, e.ty, e.count);
            }
            l.release_all_preempted();
            let mut lapsed = Vec::new();
            for &(id, e) in &earmarks {
                if l.fits(e, || hold_of(e.job), 0, false) {
                    l.add_committed(e.share, e.ty, e.count);
                } else {
                    lapsed.push(id);
                }
            }
            lapsed
        });
        for id in lapsed {
            self.lapse_earmark(id);
        }
    }

    // ----- actions (R23) ---------------------------------------------------------------

    fn apply_action(&mut self, a: &ActionCfg) {
        match a {
            ActionCfg::UpdatePriority { job, priority } => {
                let j = *job;
                let queued = self.jobs[j as usize].status == Some(Status::Runnable)
                    && self.queues[self.job_cfg(j).share as usize].contains(&self.qkey(j));
                if queued {
                    let k = self.qkey(j);
                    let s = self.job_cfg(j).share as usize;
                    self.queues[s].remove(&k);
                    self.refresh_head(s as ShareId);
                }
                self.jobs[j as usize].priority = *priority;
                if let Some((i, p)) = self.run_index(j) {
                    if self.running[i][p].key != u32::MAX {
                        self.running[i][p].key = *priority;
                    }
                }
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
                let s = u.share;
                let old_quota: Vec<u64> = (0..self.nt).map(|t| self.ledger.quota(s, t as TypeId)).collect();
                let old_strategy = self.ledger.strategy(s);
                self.ledger.update_share(self.now, s, u.quota.as_deref(), u.sharing);
                if let Some(isp) = u.in_share_preemption {
                    self.shares[s as usize].in_share = isp;
                }
                if let Some(en) = u.enabled {
                    self.shares[s as usize].enabled = en;
                }
                // R22: over quota because of the update.
                let strategy = self.ledger.strategy(s);
                for t in 0..self.nt as TypeId {
                    let used = self.ledger.committed(s, t);
                    let q = self.ledger.quota(s, t);
                    if used > q {
                        let lowered = q < old_quota[t as usize];
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
            }
            ActionCfg::UpdateCapacity { limits } => {
                self.ledger.update_capacity(self.now, limits);
                for t in 0..self.nt {
                    self.shrink_capacity(t as TypeId);
                }
                self.check_earmarks();
            }
        }
    }

    /// R23 `updateServiceEnvironment`: when usage is above the new limit, victims are chosen
    /// at once: over-quota jobs first, then any job, each group in R19 order, minimal set.
    fn shrink_capacity(&mut self, t: TypeId) {
        let cap = self.ledger.capacity(t).unwrap_or(0);
        let ns = self.shares.len();
        // In use: jobs already being preempted count as released.
        let mut in_use: Vec<u64> = vec![0; ns];
        for (b, u) in in_use.iter_mut().enumerate() {
            for e in &self.running[b * self.nt + t as usize] {
                if e.key != u32::MAX {
                    *u += self.job_cfg(e.job).count;
                }
            }
        }
        let total: u64 = in_use.iter().sum();
        if total <= cap {
            return;
        }
        let mut short = (total - cap) as i64;
        let mut over: Vec<u64> =
            (0..ns).map(|b| in_use[b].saturating_sub(self.ledger.quota(b as ShareId, t))).collect();
        let mut taken: Vec<JobId> = Vec::new();
        let mut considered: Vec<JobId> = Vec::new();
        for group in 0..2 {
            let mut cands: Vec<JobId> = Vec::new();
            for b in 0..ns {
                if group == 0 && over[b] == 0 {
                    continue;
                }
                for e in &self.running[b * self.nt + t as usize] {
                    if e.key != u32::MAX && !taken.contains(&e.job) {
                        cands.push(e.job);
                    }
                }
            }
            while short > 0 {
                let Some(idx) = self.pick_victim(&cands, |c| {
                    let r = self.job_cfg(c).count as i64;
                    (r >= short, r as u64, (r - short).max(0) as u64)
                }) else {
                    break;
                };
                let c = cands.swap_remove(idx);
                let b = self.job_cfg(c).share as usize;
                let r = self.job_cfg(c).count;
                short -= r as i64;
                over[b] = over[b].saturating_sub(r);
                if considered.len() < 16 {
                    considered.push(c);
                }
                taken.push(c);
                if group == 0 {
                    cands.retain(|&x| over[self.job_cfg(x).share as usize] > 0);
                }
            }
        }
        // Minimal set.
        let need = (total - cap) as i64;
        let mut k = taken.len();
        while k > 0 {
            k -= 1;
            let sum: i64 = taken
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != k)
                .map(|(_, &v)| self.job_cfg(v).count as i64)
                .sum();
            if sum >= need {
                taken.remove(k);
            }
        }
        // No earmark takes these instances: they stay held until the victims release.
        let victims = taken.into_iter().map(|v| (v, 0, PreemptionKind::CapacityReduced)).collect();
        self.execute(None, Plan { victims, considered });
    }

    fn terminate(&mut self, j: JobId, reason: Reason) {
        let now = self.now;
        match self.jobs[j as usize].status {
            None => {
                let jd = &mut self.jobs[j as usize];
                jd.cancelled = true;
                jd.reason = reason;
                jd.stopped_at = now;
                self.set_status(j, Status::Failed, reason);
            }
            Some(Status::Submitted) | Some(Status::Runnable) => {
                self.dequeue(j);
                let s = self.job_cfg(j).share;
                let em = self.shares[s as usize].earmark;
                if em != NONE && self.earmarks[em as usize].job == j {
                    self.lapse_earmark(em);
                }
                let jd = &mut self.jobs[j as usize];
                jd.reason = reason;
                jd.stopped_at = now;
                self.set_status(j, Status::Failed, reason);
            }
            Some(st) if st.holds_capacity() => {
                let jc = self.job_cfg(j);
                let (s, t, n) = (jc.share, jc.ty, jc.count);
                let trained = self.attempt_training(j);
                let log = self.jobs[j as usize].preempting;
                let credit = (log != NONE).then(|| self.credits[log as usize]);
                self.remove_running(j);
                match credit {
                    // Being preempted: the earmark stays until the preemption would complete.
                    Some(c) => self.ledger.end_preemption(s, t, n, c, self.preemptor_share(log)),
                    None => self.ledger.sub_committed(s, t, n),
                }
                self.ledger.change_held(self.now, s, t, 0, n);
                let jd = &mut self.jobs[j as usize];
                jd.trained += trained;
                jd.running_since = NOT_RUNNING;
                jd.preempting = NONE;
                jd.gen = jd.gen.wrapping_add(1);
                jd.reason = reason;
                if let Some(a) = self.last_attempt_mut(j) {
                    a.stopped = now;
                    a.reason = reason;
                }
                let jd = &mut self.jobs[j as usize];
                jd.stopped_at = now;
                self.set_status(j, Status::Failed, reason);
            }
            _ => {}
        }
        self.dirty = true;
    }

    // ----- the scheduling pass (R16) -----------------------------------------------------

    /// The share's first job in R11 order that is not never-runnable (with backfill), or
    /// simply its first job (without).
    fn first_job(&self, s: ShareId) -> Option<JobId> {
        self.front_of(s).map(|h| h.job)
    }

    /// [`Self::first_job`] with its type, count and submission time.
    #[inline]
    fn front_of(&self, s: ShareId) -> Option<Head> {
        if self.cfg.settings.backfill {
            return self.front_backfill(s);
        }
        let h = self.heads[s as usize];
        if h.job == NONE || self.ledger.never_runnable(s, h.ty, h.count) {
            None
        } else {
            Some(h)
        }
    }

    #[inline(never)]
    fn front_backfill(&self, s: ShareId) -> Option<Head> {
        self.queues[s as usize].iter().find(|k| !self.never_runnable(k.2)).map(Head::of)
    }

    /// With backfill: the first job of the share that fits in `phase`'s sense.
    fn first_fitting(&self, s: ShareId, phase: Phase) -> Option<JobId> {
        self.queues[s as usize].iter().map(|k| k.2).find(|&j| self.fits(j, phase == Phase::WithinQuota))
    }

    /// The front job at an earmark's release, determined as in phases 2 and 3 (R21), the
    /// backfill rule included: a first job that fits only by borrowing or would trigger a
    /// preemption is the front job; otherwise the first job that fits by borrowing.
    fn front_for_release(&self, s: ShareId) -> Option<JobId> {
        let first = self.first_job(s)?;
        if !self.cfg.settings.backfill || self.fits(first, false) {
            return Some(first);
        }
        if self.plan_preemption_ro(self.need(first), self.jobs[first as usize].priority).is_some() {
            return Some(first);
        }
        Some(self.first_fitting(s, Phase::Borrow).unwrap_or(first))
    }

    fn pass(&mut self) {
        self.stats.passes += 1;
        // What changed since the last pass is what this pass looks at.
        self.cur_all =
            core::mem::take(&mut self.dirty_all) || self.cfg.settings.backfill || self.opts.exhaustive_passes;
        self.ledger.begin_pass();
        self.cur_shares = core::mem::take(&mut self.dirty_shares);
        self.pass_earmarks();
        self.pass_holds();
        let ns = self.shares.len();
        // Share order, once per pass: lowest U/Q for the front job's type. Within a pass
        // capacity is only taken, never given back (unless a job has no work at all), so a
        // share that is not relevant now cannot become able to act in this pass.
        let all = self.zero_work || self.cur_all || ns > 64;
        let mut order = core::mem::take(&mut self.order_buf);
        order.clear();
        // The shares to look at: all of them, or those whose queue changed and those whose
        // front job is of a type that changed.
        let mut mask = if all { u64::MAX } else { self.cur_shares };
        if !all {
            for t in 0..self.nt {
                if self.ledger.changed_in_pass(t as TypeId) {
                    mask |= self.head_types[t];
                }
            }
        }
        // Without `all` there are at most 64 shares: visit the set bits only.
        let every = 0..if all { ns as ShareId } else { 0 };
        let masked = core::iter::successors((!all && mask != 0).then_some(mask), |m| {
            let rest = m & (m - 1);
            (rest != 0).then_some(rest)
        })
        .map(|m| m.trailing_zeros() as ShareId);
        for s in every.chain(masked) {
            if self.shares[s as usize].earmark != NONE {
                continue;
            }
            if let Some(h) = self.front_of(s) {
                let t = h.ty;
                if !all && !self.relevant(s, t) {
                    continue;
                }
                order.push((s, self.ledger.quota_usage(s, t), self.ledger.quota(s, t)));
            }
        }
        order.sort_by(|a, b| ratio_lt(a.1, a.2, b.1, b.2).then(a.0.cmp(&b.0)));
        self.stats.shares_looked_at += order.len() as u64;
        self.pass_phases(&order, all);
        self.order_buf = order;
        self.cur_all = false;
        self.ledger.end_pass();
        self.cur_shares = 0;
    }

    /// The three phases of a pass (R16) over shares in `order` (over every share in phase 3
    /// when `all`).
    fn pass_phases(&mut self, order: &[(ShareId, u64, u64)], all: bool) {
        let ns = self.shares.len();
        let backfill = self.cfg.settings.backfill;
        let mut no_backfill = 0u64;
        // Within a pass, capacity is only taken (no job completes inside a pass unless some
        // job has no work at all), except when a preemption hands instances back to lenders:
        // a front job that does not fit stays so until then. `unfit` has the shares whose
        // front job is known not to fit even with borrowing, so they are not checked again.
        let sticky = !self.zero_work && ns <= 64;
        let known = sticky && !backfill;
        let mut unfit = 0u64;
        // Phase 1: within-quota dispatch.
        for &(s, _, _) in order {
            while self.shares[s as usize].earmark == NONE {
                let Some(h) = self.front_of(s) else { break };
                if !self.relevant(s, h.ty) {
                    break;
                }
                let f = h.job;
                let need = Self::head_need(s, h);
                if self.fits_need(need, 0, true) {
                    self.dispatch(f);
                    continue;
                }
                self.maybe_hold(need);
                if !backfill {
                    // Not within quota may still fit by borrowing; short of free never does.
                    if known && (self.ledger.strategy(s) != Strategy::LendAndBorrow || self.free_short(need))
                    {
                        unfit |= 1u64 << s;
                    }
                    break;
                }
                if self.fits(f, false) || self.plan_preemption(f).is_some() {
                    no_backfill |= 1u64 << (s % 64);
                    break;
                }
                match self.first_fitting(s, Phase::WithinQuota) {
                    Some(b) => self.dispatch(b),
                    None => break,
                }
            }
        }
        // Phase 2: preemption, reclaim then in-share.
        for &(s, _, _) in order {
            if self.shares[s as usize].earmark != NONE {
                continue;
            }
            let bit = 1u64 << (s % 64);
            if backfill && no_backfill & bit == 0 && self.first_fitting(s, Phase::Borrow).is_some() {
                continue;
            }
            let Some(h) = self.front_of(s) else { continue };
            let need = Self::head_need(s, h);
            if !self.relevant(s, h.ty) || unfit & bit == 0 && self.fits_need(need, 0, false) {
                continue;
            }
            if known {
                unfit |= bit;
            }
            if let Some(plan) = self.plan_preemption_for(need, h.priority) {
                self.execute(Some(h.job), plan);
                // Victims' credits may have handed pool capacity back.
                unfit = 0;
            }
        }
        // Phase 3: borrowing, FIFO across shares. A share's queue changes only when it
        // dispatches, so (`sticky`) a share with nothing that fits stays so until the phase
        // ends, and is not looked at again.
        let mut failed = if known { unfit } else { 0 };
        let every = 0..if all { ns as ShareId } else { 0 };
        let listed = order.iter().filter(|_| !all).map(|o| o.0);
        let shares = every.chain(listed);
        loop {
            let mut best: Option<(u64, JobId)> = None;
            for s in shares.clone() {
                let bit = 1u64 << (s % 64);
                if sticky && failed & bit != 0 {
                    continue;
                }
                if self.shares[s as usize].earmark != NONE {
                    continue;
                }
                let f = if backfill && no_backfill & bit == 0 {
                    self.first_fitting(s, Phase::Borrow).map(|f| (self.job_cfg(f).submit_at, f))
                } else {
                    match self.front_of(s) {
                        None => None,
                        // Not relevant yet; a dispatch of its type may make it so.
                        Some(h) if !self.relevant(s, h.ty) => continue,
                        Some(h) => {
                            self.fits_need(Self::head_need(s, h), 0, false).then_some((h.submit_at, h.job))
                        }
                    }
                };
                match f {
                    Some(key) => {
                        if best.is_none_or(|b| key < b) {
                            best = Some(key);
                        }
                    }
                    None => failed |= bit,
                }
            }
            match best {
                Some((_, f)) => self.dispatch(f),
                None => break,
            }
        }
    }

    /// R21 at release: the share's front job is dispatched first on the earmark if it fits;
    /// otherwise the earmark lapses.
    fn pass_earmarks(&mut self) {
        if self.earmarks.is_empty() {
            return;
        }
        let mut changed = false;
        for id in 0..self.earmarks.len() as u32 {
            let e = &self.earmarks[id as usize];
            if !e.live || e.due > self.now {
                changed |= !e.live;
                continue;
            }
            changed = true;
            let (s, preemptor, ty, n) = (e.share, e.job, e.ty, e.n);
            self.lapse_earmark(id);
            if let Some(f) = self.front_for_release(s) {
                // Another front job goes first only if it fits on the earmark itself: same
                // type, no more instances than were earmarked.
                let jc = self.job_cfg(f);
                let on_earmark = f == preemptor || (jc.ty == ty && jc.count <= n);
                if on_earmark && self.fits(f, false) {
                    self.dispatch(f);
                }
            }
        }
        if changed {
            self.earmarks.retain(|e| e.live);
            for sh in self.shares.iter_mut() {
                sh.earmark = NONE;
            }
            for (i, e) in self.earmarks.iter().enumerate() {
                self.shares[e.share as usize].earmark = i as u32;
            }
        }
    }

    /// R16 phase 1: a front job that fits its quota and the pool but not `free` holds the
    /// free instances it waits for.
    fn maybe_hold(&mut self, need: Need) {
        let (f, t, n) = (need.job, need.ty, need.count);
        if !self.may_hold(need) || self.ledger.capacity(t).is_none_or(|cap| n > cap) {
            return;
        }
        let free = self.free_for(f, t).max(0) as u64;
        let want = free.min(n);
        let p = match self.holds.iter().position(|h| h.0 == f) {
            Some(p) => p,
            None => {
                self.holds.push((f, 0));
                self.holds.len() - 1
            }
        };
        let old = self.holds[p].1;
        if want > old {
            self.ledger.change_withheld(t, want - old, 0);
            self.holds[p].1 = want;
        }
    }

    /// R16: a job may hold free instances while it fits its quota and (for a lender) the pool.
    fn may_hold(&self, need: Need) -> bool {
        self.ledger.may_hold(need)
    }

    /// Start of a pass: holds, oldest first, are revalidated and take newly free instances.
    fn pass_holds(&mut self) {
        if self.holds.is_empty() {
            return;
        }
        let holds = core::mem::take(&mut self.holds);
        for &(h, hv) in &holds {
            self.ledger.change_withheld(self.job_cfg(h).ty, 0, hv);
        }
        for &(h, hv) in &holds {
            let jc = self.job_cfg(h);
            let (s, t, n) = (jc.share, jc.ty, jc.count);
            // The front job is always a queued one.
            let still_front = self.first_job(s) == Some(h);
            let take = if !still_front || !self.may_hold(self.need(h)) {
                0
            } else {
                let take = (self.free_for(h, t).max(0) as u64).min(n);
                self.holds.push((h, take));
                take
            };
            self.ledger.change_withheld(t, take, 0);
            // A hold that changed moves free instances between jobs: their shares look again.
            if take != hv {
                self.ledger.mark(t);
                self.mark_share(s);
            }
        }
    }

    // ----- metrics (R26) -----------------------------------------------------------------

    /// R15: attributes type `t`'s borrowed instances to lenders; returns per share
    /// (borrowed, lent) and the flows `(borrower, lender, n)`.
    fn attribution(&self, t: TypeId) -> Attribution {
        let ns = self.shares.len();
        let mut per = vec![(0u64, 0u64); ns];
        let mut flows = Vec::new();
        let mut idle: Vec<u64> = (0..ns)
            .map(|l| {
                if self.ledger.lends(l as ShareId) {
                    self.ledger.quota(l as ShareId, t).saturating_sub(self.ledger.held(l as ShareId, t))
                } else {
                    0
                }
            })
            .collect();
        let mut lender = 0usize;
        let mut unattributed = 0;
        for b in 0..ns {
            let mut x = self.ledger.held(b as ShareId, t).saturating_sub(self.ledger.quota(b as ShareId, t));
            per[b].0 = x;
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
                per[lender].1 += k;
                flows.push((b as ShareId, lender as ShareId, k));
                x -= k;
            }
        }
        (per, flows, unattributed)
    }

    // ----- output ----------------------------------------------------------------------

    /// The reason shown for a job now: terminal reasons, preemption in progress, R17.
    pub fn status_reason(&self, j: JobId) -> Option<String> {
        let jd = &self.jobs[j as usize];
        if jd.preempting != NONE {
            let kind = self.preemptions[jd.preempting as usize].kind;
            return Some(alloc::format!("PREEMPTION_IN_PROGRESS: {}", kind.reason()));
        }
        match jd.status {
            None => None,
            Some(Status::Runnable) | Some(Status::Submitted) => Some(self.waiting_reason(j)),
            Some(Status::Failed) | Some(Status::Succeeded) => self.reason_text(jd.reason),
            _ => None,
        }
    }

    fn reason_text(&self, r: Reason) -> Option<String> {
        match r {
            Reason::None => None,
            Reason::Terminated(i) => Some(self.terminate_reasons[i as usize].clone()),
            Reason::Timeout => Some(String::from(TIMEOUT_REASON)),
            Reason::Rejected => Some(String::from(REJECTED_REASON)),
            Reason::Preempted(l) => Some(String::from(self.preemptions[l as usize].kind.reason())),
            Reason::RetryLimit(l) => Some(alloc::format!(
                "Preemption retry limit reached: {}",
                self.preemptions[l as usize].kind.reason()
            )),
        }
    }

    /// R17: why a `RUNNABLE` job waits.
    fn waiting_reason(&self, j: JobId) -> String {
        if let Some(r) = self.never_runnable_reason(j) {
            return String::from(r);
        }
        let jc = self.job_cfg(j);
        let s = jc.share;
        let em = self.shares[s as usize].earmark;
        if em != NONE && self.earmarks[em as usize].job == j {
            return String::from(WAIT_PREEMPTION);
        }
        let front = self.first_job(s).or_else(|| self.front_job(s));
        if let Some(f) = front.filter(|&f| f != j) {
            return alloc::format!("CAPACITY: waiting behind {}", self.job_cfg(f).name);
        }
        if em != NONE {
            return String::from(WAIT_PREEMPTION);
        }
        let (t, n) = (jc.ty, jc.count);
        let u = self.ledger.quota_usage(s, t);
        let q = self.ledger.quota(s, t);
        let within = u + n <= q;
        let borrow_ok = self.ledger.strategy(s) == Strategy::LendAndBorrow
            && self.ledger.allowance(s, t).is_none_or(|a| u + n <= q + a);
        if !within && !borrow_ok {
            String::from(WAIT_QUOTA)
        } else if self.ledger.lends(s as ShareId) && self.ledger.pool_available(t) < n as i64 {
            String::from(WAIT_POOL)
        } else if self.free_for(j, t) < n as i64 {
            String::from(WAIT_FREE)
        } else {
            String::from(WAIT_QUOTA)
        }
    }

    /// R25: utilization now, per share and type, with pool and service environment totals.
    pub fn snapshot(&self) -> Snapshot {
        let mut types = Vec::new();
        let mut shares = Vec::new();
        for t in 0..self.nt as TypeId {
            let ti = t as usize;
            let (per, flows, unattributed) = self.attribution(t);
            let usage: u64 = (0..self.shares.len()).map(|s| self.ledger.held(s as ShareId, t)).sum();
            let pool_usage: u64 = (0..self.shares.len())
                .filter(|&s| self.ledger.lends(s as ShareId))
                .map(|s| self.ledger.held(s as ShareId, t))
                .sum();
            let relevant = self.ledger.capacity(t).is_some()
                || usage > 0
                || (0..self.shares.len()).any(|s| self.ledger.quota(s as ShareId, t) > 0);
            if !relevant {
                continue;
            }
            let tc = &self.cfg.types[ti];
            types.push(TypeTotals {
                capacity_unit: tc.name.clone(),
                gpus_per_instance: tc.gpus,
                service_environment_capacity: self.ledger.capacity(t),
                usage,
                free: self.ledger.capacity(t).unwrap_or(0) as i64 - usage as i64,
                pool_capacity: self.ledger.pool_capacity(t),
                pool_usage,
                pool_available: self.ledger.pool_capacity(t) as i64 - pool_usage as i64,
                borrowed: per.iter().map(|p| p.0).sum(),
                unattributed_borrowed: unattributed,
            });
            for (s, sh) in self.shares.iter().enumerate() {
                let u = self.ledger.held(s as ShareId, t);
                let q = self.ledger.quota(s as ShareId, t);
                if q == 0 && u == 0 {
                    continue;
                }
                let name = |x: ShareId| self.cfg.shares[x as usize].name.clone();
                let earmarked = if sh.earmark != NONE && self.earmarks[sh.earmark as usize].ty == t {
                    self.earmarks[sh.earmark as usize].n
                } else {
                    0
                };
                shares.push(ShareTypeUsage {
                    quota_share_name: name(s as ShareId),
                    capacity_unit: tc.name.clone(),
                    quota: q,
                    usage: u,
                    within_quota: u.min(q),
                    over_quota: u.saturating_sub(q),
                    borrowed: per[s].0,
                    borrowed_from: flows
                        .iter()
                        .filter(|f| f.0 == s as ShareId)
                        .map(|f| Flow { quota_share_name: name(f.1), instances: f.2 })
                        .collect(),
                    lent: per[s].1,
                    lent_to: flows
                        .iter()
                        .filter(|f| f.1 == s as ShareId)
                        .map(|f| Flow { quota_share_name: name(f.0), instances: f.2 })
                        .collect(),
                    idle: if self.ledger.lends(s as ShareId) {
                        q.saturating_sub(u).saturating_sub(per[s].1)
                    } else {
                        q.saturating_sub(u)
                    },
                    earmarked,
                });
            }
        }
        // Kept by status (not yet submitted first, then in `Status` order).
        let c = &self.status_counts;
        let n = |s: Status| c[status_slot(Some(s))];
        let jc = JobCounts {
            not_submitted: c[status_slot(None)],
            runnable: n(Status::Submitted) + n(Status::Runnable),
            scheduled: n(Status::Scheduled),
            starting: n(Status::Starting),
            running: n(Status::Running),
            succeeded: n(Status::Succeeded),
            failed: n(Status::Failed),
        };
        Snapshot { at: self.now, types, shares, job_counts: jc }
    }

    /// One job as the result shows it now.
    pub fn job_result(&self, j: JobId) -> JobResult {
        let lost = self.preemptions.iter().filter(|p| p.victim == j).map(|p| p.lost).sum();
        self.job_result_with(j, lost)
    }

    /// [`Self::job_result`] with the job's lost work (R8) at hand.
    fn job_result_with(&self, j: JobId, lost: u64) -> JobResult {
        let jd = &self.jobs[j as usize];
        let jc = self.job_cfg(j);
        let raw = self.attempts_of(j);
        let attempts: Vec<Attempt> = raw
            .iter()
            .map(|a| Attempt {
                started_at: a.started,
                stopped_at: opt_time(a.stopped),
                borrowed_instances: a.borrowed,
                status_reason: self.reason_text(a.reason),
            })
            .collect();
        let recent: Vec<PreemptedAttempt> = raw
            .iter()
            .filter(|a| matches!(a.reason, Reason::Preempted(_)) && a.stopped != NEVER)
            .map(|a| PreemptedAttempt {
                started_at: a.started,
                stopped_at: a.stopped,
                status_reason: self.reason_text(a.reason).unwrap_or_default(),
            })
            .collect();
        JobResult {
            job_name: jc.name.clone(),
            quota_share_name: self.cfg.shares[jc.share as usize].name.clone(),
            status: jd.status,
            status_reason: self.status_reason(j),
            scheduling_priority: jd.priority,
            submit_at: jc.submit_at,
            first_started_at: raw.first().map(|a| a.started),
            stopped_at: if jd.status.is_some_and(|s| s.is_terminal()) {
                opt_time(jd.stopped_at)
            } else {
                None
            },
            preemption_summary: PreemptionSummary {
                preempted_attempt_count: jd.preempted_count,
                recent_preempted_attempts: recent,
            },
            attempts,
            lost_work_seconds: lost,
        }
    }

    /// Every job as the result shows it now, in input order.
    pub fn jobs(&self) -> Vec<JobResult> {
        let mut lost = vec![0u64; self.jobs.len()];
        for p in &self.preemptions {
            lost[p.victim as usize] += p.lost;
        }
        (0..self.jobs.len() as u32).map(|j| self.job_result_with(j, lost[j as usize])).collect()
    }

    /// Number of recorded events.
    pub fn event_count(&self) -> usize {
        self.events.len()
    }

    /// The R24 events from index `from` on.
    pub fn events_from(&self, from: usize) -> Vec<Event> {
        self.events.iter_from(from).map(|(at, idx, e)| self.render_event(at, idx, e)).collect()
    }

    /// The distinct instants of the recorded events, in order.
    pub fn event_instants(&self) -> impl Iterator<Item = u64> + '_ {
        self.events.instants()
    }

    /// The R24 event list so far.
    pub fn events(&self) -> Vec<Event> {
        self.events_from(0)
    }

    fn render_event(&self, at: u64, idx: usize, e: RawEvent) -> Event {
        let jc = self.job_cfg(e.job);
        let reason = self.events.reason(idx, e);
        let mut ev = Event {
            at,
            job_name: jc.name.clone(),
            quota_share_name: self.cfg.shares[jc.share as usize].name.clone(),
            event_type: e.etype(),
            status: e.status(),
            status_reason: self.reason_text(reason),
            preempted_by: None,
            reason: None,
            preempted_attempt_count: None,
            lost_work_seconds: None,
        };
        if e.etype() != EventType::StateChange {
            if let Reason::Preempted(l) | Reason::RetryLimit(l) = reason {
                let p = &self.preemptions[l as usize];
                ev.preempted_by = Some(p.preemptor.map(|x| self.job_cfg(x).name.clone()));
                ev.reason = Some(String::from(p.kind.reason()));
                ev.preempted_attempt_count = Some(p.count);
                ev.lost_work_seconds = Some(p.lost);
                if e.etype() == EventType::PreemptionStarted {
                    ev.status_reason = Some(alloc::format!("PREEMPTION_IN_PROGRESS: {}", p.kind.reason()));
                }
            }
        }
        ev
    }

    /// Training time of a job over all its attempts, so far (for checking R8).
    pub fn training_seconds(&self, j: JobId) -> u64 {
        self.jobs[j as usize].trained + self.attempt_training(j)
    }

    /// R26: the summary metrics as of now.
    pub fn summary(&self) -> Summary {
        let ig = self.ledger.integrals_at(self.now);
        MetricsView { ig, sim: self, nt: self.nt }.build_summary()
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

    // ----- read-only helpers for tests and the playground --------------------------------

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

    /// Current borrow allowance of a share for a type (`None`: unlimited).
    pub fn borrow_allowance(&self, share: ShareId, ty: TypeId) -> Option<u64> {
        self.ledger.allowance(share, ty)
    }

    /// Whether a share's usage of a type is over quota because of an update (R22).
    pub fn over_quota_by_update(&self, share: ShareId, ty: TypeId) -> bool {
        self.ledger.over_by_update(share, ty)
    }

    /// Whether any limit was lowered so far (service environment or quota share).
    pub fn status_of(&self, j: JobId) -> Option<Status> {
        self.jobs[j as usize].status
    }

    /// Whether the job is being preempted (between `Preemption Started` and `Completed`).
    pub fn is_being_preempted(&self, j: JobId) -> bool {
        self.jobs[j as usize].preempting != NONE
    }

    /// The earmarked preemptor of a share, if it waits for its victims (R21).
    pub fn waiting_preemptor(&self, share: ShareId) -> Option<JobId> {
        let e = self.shares[share as usize].earmark;
        (e != NONE).then(|| self.earmarks[e as usize].job)
    }

    /// Idle instances of a type withheld now for waiting preemptors (R21): what their
    /// earmarks take beyond the instances their victims hold and will return.
    pub fn withheld(&self, ty: TypeId) -> u64 {
        let t = ty as usize;
        let held: u64 = (0..self.shares.len()).map(|s| self.ledger.held(s as ShareId, t as TypeId)).sum();
        self.ledger.committed_total(ty).saturating_sub(held)
    }

    /// Front job of a share now (R16), if any.
    pub fn front_job(&self, share: ShareId) -> Option<JobId> {
        self.queues[share as usize].first().map(|k| k.2)
    }

    /// Jobs of a share waiting now, in R11 order.
    pub fn queued(&self, share: ShareId) -> Vec<JobId> {
        self.queues[share as usize].iter().map(|k| k.2).collect()
    }
}

/// A view for computing R26 metrics without touching the simulation.
struct MetricsView<'a> {
    ig: Integrals,
    sim: &'a Simulation,
    nt: usize,
}

impl MetricsView<'_> {
    fn build_summary(&self) -> Summary {
        let sim = self.sim;
        let ns = sim.shares.len();
        let mut per: Vec<Metrics> = vec![Metrics::default(); ns];
        let mut overall = Metrics::default();
        let mut waits: Vec<Vec<u64>> = vec![Vec::new(); ns];
        let mut comps: Vec<Vec<u64>> = vec![Vec::new(); ns];
        let mut good: Vec<u64> = vec![0; ns];
        let mut lost_gpu: Vec<u64> = vec![0; ns];
        for (j, jd) in sim.jobs.iter().enumerate() {
            let jc = &sim.cfg.jobs[j];
            let s = jc.share as usize;
            let m = &mut per[s];
            m.jobs += 1;
            match jd.status {
                Some(Status::Succeeded) => {
                    m.succeeded += 1;
                    good[s] = good[s].saturating_add(jc.duration.saturating_mul(jc.count));
                    if jd.stopped_at != NEVER {
                        comps[s].push(jd.stopped_at - jc.submit_at);
                    }
                }
                Some(Status::Failed) => m.failed += 1,
                _ => {
                    m.unfinished += 1;
                    if jd.status == Some(Status::Runnable) && sim.never_runnable_reason(j as u32).is_some() {
                        m.never_runnable += 1;
                    }
                }
            }
            if jd.first_running != NEVER {
                waits[s].push(jd.first_running - jc.submit_at);
            }
        }
        for p in &sim.preemptions {
            let jc = &sim.cfg.jobs[p.victim as usize];
            let s = jc.share as usize;
            // R8: each preemption's lost work, per instance and GPU of the victim.
            per[s].lost_instance_seconds =
                per[s].lost_instance_seconds.saturating_add(p.lost.saturating_mul(jc.count));
            lost_gpu[s] = lost_gpu[s].saturating_add(
                p.lost.saturating_mul(jc.count).saturating_mul(sim.cfg.types[jc.ty as usize].gpus),
            );
            let pc = &mut per[s].preemptions;
            match p.kind {
                PreemptionKind::CrossShare => pc.cross_share += 1,
                PreemptionKind::InShare => pc.in_share += 1,
                PreemptionKind::CapacityReduced => pc.capacity_limit_reduced += 1,
            }
            pc.total += 1;
        }
        let mut all_waits = Vec::new();
        let mut all_comps = Vec::new();
        let (mut gpu_all, mut gpu_own_all, mut gpu_b_all) = (0u64, 0u64, 0u64);
        for s in 0..ns {
            let (mut gpu, mut gpu_own, mut gpu_b) = (0u64, 0u64, 0u64);
            let mut quota_s = 0u64;
            for t in 0..self.nt {
                let a = &self.ig.acc[s * self.nt + t];
                let g = sim.cfg.types[t].gpus;
                let m = &mut per[s];
                m.instance_seconds = m.instance_seconds.saturating_add(a.used);
                m.instance_seconds_own = m.instance_seconds_own.saturating_add(a.own);
                m.instance_seconds_borrowed = m.instance_seconds_borrowed.saturating_add(a.borrowed);
                m.instance_seconds_lent = m.instance_seconds_lent.saturating_add(a.lent);
                gpu = gpu.saturating_add(a.used.saturating_mul(g));
                gpu_own = gpu_own.saturating_add(a.own.saturating_mul(g));
                gpu_b = gpu_b.saturating_add(a.borrowed.saturating_mul(g));
                quota_s = quota_s.saturating_add(a.quota);
            }
            let m = &mut per[s];
            m.instance_hours = m.instance_seconds as f64 / 3600.0;
            m.gpu_hours = gpu as f64 / 3600.0;
            m.gpu_hours_own = gpu_own as f64 / 3600.0;
            m.gpu_hours_borrowed = gpu_b as f64 / 3600.0;
            m.lost_gpu_hours = lost_gpu[s] as f64 / 3600.0;
            m.utilization = ratio(m.instance_seconds, quota_s);
            m.goodput = ratio(good[s], m.instance_seconds);
            gpu_all = gpu_all.saturating_add(gpu);
            gpu_own_all = gpu_own_all.saturating_add(gpu_own);
            gpu_b_all = gpu_b_all.saturating_add(gpu_b);
            all_waits.extend_from_slice(&waits[s]);
            all_comps.extend_from_slice(&comps[s]);
            m.wait_seconds = percentiles(&mut waits[s]);
            m.completion_seconds = percentiles(&mut comps[s]);
            // Overall sums.
            overall.jobs = overall.jobs.saturating_add(m.jobs);
            overall.succeeded = overall.succeeded.saturating_add(m.succeeded);
            overall.failed = overall.failed.saturating_add(m.failed);
            overall.never_runnable = overall.never_runnable.saturating_add(m.never_runnable);
            overall.unfinished = overall.unfinished.saturating_add(m.unfinished);
            overall.instance_seconds = overall.instance_seconds.saturating_add(m.instance_seconds);
            overall.instance_seconds_own =
                overall.instance_seconds_own.saturating_add(m.instance_seconds_own);
            overall.instance_seconds_borrowed =
                overall.instance_seconds_borrowed.saturating_add(m.instance_seconds_borrowed);
            overall.instance_seconds_lent =
                overall.instance_seconds_lent.saturating_add(m.instance_seconds_lent);
            overall.lost_instance_seconds =
                overall.lost_instance_seconds.saturating_add(m.lost_instance_seconds);
            overall.preemptions.cross_share =
                overall.preemptions.cross_share.saturating_add(m.preemptions.cross_share);
            overall.preemptions.in_share =
                overall.preemptions.in_share.saturating_add(m.preemptions.in_share);
            overall.preemptions.capacity_limit_reduced = overall
                .preemptions
                .capacity_limit_reduced
                .saturating_add(m.preemptions.capacity_limit_reduced);
            overall.preemptions.total = overall.preemptions.total.saturating_add(m.preemptions.total);
        }
        let cap_total: u64 = self.ig.cap.iter().sum();
        overall.instance_hours = overall.instance_seconds as f64 / 3600.0;
        overall.gpu_hours = gpu_all as f64 / 3600.0;
        overall.gpu_hours_own = gpu_own_all as f64 / 3600.0;
        overall.gpu_hours_borrowed = gpu_b_all as f64 / 3600.0;
        overall.lost_gpu_hours = lost_gpu.iter().sum::<u64>() as f64 / 3600.0;
        overall.utilization = ratio(overall.instance_seconds, cap_total);
        overall.goodput = ratio(good.iter().sum(), overall.instance_seconds);
        overall.wait_seconds = percentiles(&mut all_waits);
        overall.completion_seconds = percentiles(&mut all_comps);
        Summary { per_quota_share: sim.cfg.shares.iter().map(|s| s.name.clone()).zip(per).collect(), overall }
    }
}

fn ratio(a: u64, b: u64) -> Option<f64> {
    if b == 0 {
        None
    } else {
        Some(a as f64 / b as f64)
    }
}

/// Nearest-rank percentiles.
fn percentiles(v: &mut [u64]) -> Percentiles {
    if v.is_empty() {
        return Percentiles::default();
    }
    v.sort_unstable();
    let n = v.len();
    let rank = |p: usize| -> u64 { v[(n * p).div_ceil(100).max(1) - 1] };
    Percentiles { count: n as u64, p50: Some(rank(50)), p95: Some(rank(95)), max: Some(v[n - 1]) }
}
