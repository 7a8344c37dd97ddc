//! One complete run of a scenario, prepared for the charts: results, the preemption log,
//! utilization time series sampled from R25 snapshots, and checkpoints to rebuild the
//! simulation at any instant cheaply.

use quotasim::compare::Side;
use quotasim::result::{JobResult, Snapshot, Summary, SummaryResult};
use quotasim::scenario::JobId;
use quotasim::sim::{Options, PreemptionRecord};
use quotasim::{SimResult, Simulation, ValidScenario};
use std::collections::HashMap;
use std::sync::Arc;

use crate::geometry::{even_samples, sample_at};

/// At most this many distinct event instants are sampled exactly; above it, samples are
/// evenly spaced.
pub const EXACT_SAMPLE_LIMIT: usize = 1500;
/// Number of evenly spaced samples for large runs.
pub const EVEN_SAMPLES: usize = 900;
/// Number of simulation checkpoints kept for scrubbing, at most.
pub const CHECKPOINTS: usize = 16;
/// Checkpoints times jobs, at most: each checkpoint is a whole simulation (about 120 bytes a
/// job), so a 50,000-job run keeps 4 of them (about 25 MB) rather than 16 (100 MB); scrubbing
/// back then replays at most a quarter of the run.
pub const CHECKPOINT_JOBS: usize = 200_000;

/// How many checkpoints a run of `jobs` jobs keeps: [`CHECKPOINTS`] for small runs, fewer for
/// large ones, never fewer than 4.
pub fn checkpoints_for(jobs: usize) -> usize {
    (CHECKPOINT_JOBS / jobs.max(1)).clamp(4, CHECKPOINTS)
}

/// Utilization of one instance type over time, per share (indexed like the scenario).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TypeSeries {
    pub name: String,
    pub gpus: u64,
    /// Service environment limit at each sample (0 when none).
    pub capacity: Vec<u64>,
    /// `own[share][sample]`: usage within the share's quota.
    pub own: Vec<Vec<u64>>,
    /// `borrowed[share][sample]`: usage above the share's quota.
    pub borrowed: Vec<Vec<u64>>,
    /// `quota[share][sample]`.
    pub quota: Vec<Vec<u64>>,
    /// `(lender, borrower, instances per sample)`, R15 attribution.
    pub flows: Vec<(usize, usize, Vec<u64>)>,
    /// Largest value the chart must show.
    pub peak: u64,
}

/// A whole run, ready to draw.
#[derive(Clone, Debug)]
pub struct RunData {
    /// Where the run begins: `settings.startAt` (0 unless the scenario is a live state, R28).
    pub start: u64,
    pub end: u64,
    pub share_names: Vec<String>,
    /// Sorted distinct instants at which something happened.
    pub instants: Vec<u64>,
    /// Sample times (sorted), shared by every series.
    pub samples: Vec<u64>,
    /// Whether the samples are every event instant (exact) or evenly spaced.
    pub exact: bool,
    pub types: Vec<TypeSeries>,
    pub jobs: Vec<JobResult>,
    pub preemptions: Vec<PreemptionRecord>,
    pub summary: Summary,
    pub scheduled_seconds: u64,
    pub starting_seconds: u64,
    /// Why the results cannot be exact (a time or a sum past 2^53 - 1), if so: the run
    /// stopped there and the page says so instead of showing wrong numbers as right.
    pub error: Option<String>,
    /// Indices by name, built once: jobs and shares of the scenario that ran.
    job_ids: HashMap<String, usize>,
    share_ids: HashMap<String, usize>,
    /// Indices into `preemptions` of each job's preemptions, in log order.
    preempted: Vec<Vec<usize>>,
    /// Simulations (events not recorded) standing at increasing times.
    checkpoints: Vec<Simulation>,
    full: Simulation,
    /// The validated scenario that ran.
    valid: Arc<ValidScenario>,
}

/// A run being computed a slice at a time, so the page can stay responsive: the full run
/// (events recorded), then the samples and checkpoints, then the results. Whatever the slices,
/// the result is the same as [`RunData::compute`]'s, which is this driven to the end at once.
pub struct RunBuilder {
    valid: Arc<ValidScenario>,
    stage: Stage,
    scheduled_seconds: u64,
    starting_seconds: u64,
    jobs: usize,
}

enum Stage {
    /// The full run, with the simulation the samples are taken from (events not recorded).
    Running { full: Box<Simulation>, base: Box<Simulation> },
    /// Taking sample `next` of `samples`.
    Sampling(Box<Sampling>),
    /// The samples taken: the job results and the name index, a part at a time (100,000 jobs
    /// take some 60 ms in the page).
    Results(Box<Results>),
    /// Finished (the data was taken).
    Done,
}

struct Results {
    sampling: Sampling,
    lost: Vec<u64>,
    jobs: Vec<JobResult>,
    job_ids: HashMap<String, usize>,
}

/// Job results built between two looks at the clock.
const RESULTS_PER_LOOK: usize = 1_000;

struct Sampling {
    full: Simulation,
    sim: Simulation,
    samples: Vec<u64>,
    instants: Vec<u64>,
    exact: bool,
    next: usize,
    every: usize,
    types: Vec<TypeSeries>,
    type_ids: HashMap<String, usize>,
    share_ids: HashMap<String, usize>,
    share_names: Vec<String>,
    checkpoints: Vec<Simulation>,
}

/// Instants processed between two looks at the clock while running.
const STEPS_PER_LOOK: usize = 256;

/// Runs `sim` towards its end as [`Simulation::run`] does (to its horizon, if it has one), a
/// few hundred instants at a time, until it ends (`true`) or `out_of_time()` says to stop
/// (`false`): the one loop the page runs a simulation in slices with.
pub fn run_slice(sim: &mut Simulation, out_of_time: &mut dyn FnMut() -> bool) -> bool {
    let horizon = sim.scenario().settings.horizon;
    loop {
        for _ in 0..STEPS_PER_LOOK {
            let more = match (horizon, sim.next_event_at()) {
                (_, None) => false,
                (Some(h), Some(t)) => t <= h,
                (None, Some(_)) => true,
            };
            if !more {
                if let Some(h) = horizon {
                    sim.run_until(h);
                }
                return true;
            }
            sim.step();
        }
        if out_of_time() {
            return false;
        }
    }
}

impl RunBuilder {
    /// A run of `valid`, shared by every simulation made from it.
    pub fn new(valid: Arc<ValidScenario>) -> RunBuilder {
        let scheduled_seconds = valid.settings.scheduled;
        let starting_seconds = valid.settings.starting;
        let jobs = valid.jobs.len();
        let base =
            Simulation::with_shared(valid.clone(), Options { record_events: false, ..Options::default() });
        let full = Simulation::with_shared(valid.clone(), Options::default());
        RunBuilder {
            valid,
            stage: Stage::Running { full: Box::new(full), base: Box::new(base) },
            scheduled_seconds,
            starting_seconds,
            jobs,
        }
    }

    /// How far the computation is, from 0 to 1: the run counts for its first half (by jobs
    /// finished), the samples for the second.
    pub fn progress(&self) -> f64 {
        match &self.stage {
            Stage::Running { full, .. } => {
                let done = full.stats().dispatches.min(self.jobs as u64) as f64;
                0.5 * done / self.jobs.max(1) as f64
            }
            Stage::Sampling(s) => 0.5 + 0.5 * s.next as f64 / s.samples.len().max(1) as f64,
            Stage::Results(_) | Stage::Done => 1.0,
        }
    }

    /// Works until the run is complete or `out_of_time()` says to stop (it is asked every few
    /// hundred instants and after every sample); returns the finished data once.
    pub fn advance(&mut self, out_of_time: &mut dyn FnMut() -> bool) -> Option<RunData> {
        loop {
            match &mut self.stage {
                Stage::Running { full, .. } => {
                    if run_slice(full, out_of_time) {
                        self.start_sampling();
                    } else {
                        return None;
                    }
                }
                Stage::Sampling(s) => {
                    if s.next == s.samples.len() {
                        self.start_results();
                    } else {
                        s.take_next();
                    }
                    if out_of_time() {
                        return None;
                    }
                }
                Stage::Results(r) => {
                    let (done, n) = (r.jobs.len(), r.lost.len());
                    if done == n {
                        return Some(self.finish());
                    }
                    let cfg = r.sampling.full.scenario();
                    for j in done..(done + RESULTS_PER_LOOK).min(n) {
                        r.jobs.push(r.sampling.full.job_result_lost(JobId::at(j), r.lost[j]));
                        r.job_ids.insert(String::from(cfg.jobs[j].name.as_str()), j);
                    }
                    if out_of_time() {
                        return None;
                    }
                }
                Stage::Done => return None,
            }
        }
    }

    fn start_sampling(&mut self) {
        let Stage::Running { full, base } = core::mem::replace(&mut self.stage, Stage::Done) else { return };
        let (full, base) = (*full, *base);
        let end = full.now();
        // R28: nothing happens before `startAt`; the series begin there.
        let start = full.scenario().settings.start_at.min(end);
        let instants: Vec<u64> = full.event_instants().collect();
        let exact = instants.len() <= EXACT_SAMPLE_LIMIT;
        let mut samples = if exact {
            instants.clone()
        } else {
            even_samples(end - start, EVEN_SAMPLES).into_iter().map(|t| start + t).collect()
        };
        if samples.first() != Some(&start) {
            samples.insert(0, start);
        }
        if samples.last() != Some(&end) && end > 0 {
            samples.push(end);
        }
        let share_names: Vec<String> = full.scenario().shares.iter().map(|s| s.name.clone()).collect();
        let type_cfg: Vec<(String, u64)> =
            full.scenario().types.iter().map(|t| (t.name.clone(), t.gpus)).collect();
        let share_ids: HashMap<String, usize> =
            share_names.iter().enumerate().map(|(i, n)| (n.clone(), i)).collect();
        let type_ids: HashMap<String, usize> =
            type_cfg.iter().enumerate().map(|(i, (n, _))| (n.clone(), i)).collect();
        let ns = share_names.len();
        let n = samples.len();
        let types: Vec<TypeSeries> = type_cfg
            .iter()
            .map(|(name, gpus)| TypeSeries {
                name: name.clone(),
                gpus: *gpus,
                capacity: vec![0; n],
                own: vec![vec![0; n]; ns],
                borrowed: vec![vec![0; n]; ns],
                quota: vec![vec![0; n]; ns],
                flows: Vec::new(),
                peak: 0,
            })
            .collect();
        let sim = base.clone();
        self.stage = Stage::Sampling(Box::new(Sampling {
            full,
            sim,
            samples,
            instants,
            exact,
            next: 0,
            every: (n / checkpoints_for(self.jobs)).max(1),
            types,
            type_ids,
            share_ids,
            share_names,
            checkpoints: vec![base],
        }));
    }

    fn start_results(&mut self) {
        let Stage::Sampling(s) = core::mem::replace(&mut self.stage, Stage::Done) else { return };
        let lost = s.full.lost_seconds();
        let n = lost.len();
        self.stage = Stage::Results(Box::new(Results {
            sampling: *s,
            lost,
            jobs: Vec::with_capacity(n),
            job_ids: HashMap::with_capacity(n),
        }));
    }

    fn finish(&mut self) -> RunData {
        let Stage::Results(r) = core::mem::replace(&mut self.stage, Stage::Done) else {
            unreachable!("finish is called once the job results are built")
        };
        let Results { sampling, jobs, job_ids, .. } = *r;
        let Sampling {
            full, samples, instants, exact, mut types, share_ids, share_names, checkpoints, ..
        } = sampling;
        let ns = share_names.len();
        for ts in &mut types {
            let mut peak = ts.capacity.iter().copied().max().unwrap_or(0);
            for i in 0..samples.len() {
                let used: u64 = (0..ns).map(|s| ts.own[s][i] + ts.borrowed[s][i]).sum();
                let quota: u64 = (0..ns).map(|s| ts.quota[s][i]).sum();
                peak = peak.max(used).max(quota);
            }
            ts.peak = peak;
        }
        // Types nobody uses or owns are left out of the charts.
        types.retain(|t| t.peak > 0);
        let preemptions = full.preemptions().to_vec();
        let mut preempted = vec![Vec::new(); full.scenario().jobs.len()];
        for (k, p) in preemptions.iter().enumerate() {
            preempted[p.victim.index()].push(k);
        }
        RunData {
            start: full.scenario().settings.start_at.min(full.now()),
            end: full.now(),
            share_names,
            instants,
            samples,
            exact,
            types,
            jobs,
            preemptions,
            summary: full.summary(),
            scheduled_seconds: self.scheduled_seconds,
            starting_seconds: self.starting_seconds,
            error: full.run_error().map(|e| e.to_string()),
            job_ids,
            share_ids,
            preempted,
            checkpoints,
            full,
            valid: self.valid.clone(),
        }
    }
}

impl Sampling {
    fn take_next(&mut self) {
        let (i, t) = (self.next, self.samples[self.next]);
        self.sim.run_until(t);
        let snap = self.sim.snapshot();
        record(&mut self.types, &self.type_ids, &self.share_ids, &snap, i);
        if i > 0 && i % self.every == 0 {
            self.checkpoints.push(self.sim.clone());
        }
        self.next += 1;
    }
}

impl RunData {
    /// Runs `valid` to its end and samples it, all at once.
    pub fn compute(valid: ValidScenario) -> RunData {
        let mut b = RunBuilder::new(Arc::new(valid));
        loop {
            if let Some(d) = b.advance(&mut || false) {
                return d;
            }
        }
    }

    /// The simulation standing at `t` (every instant up to and including `t` processed).
    pub fn sim_at(&self, t: u64) -> Simulation {
        let mut best = &self.checkpoints[0];
        for c in &self.checkpoints {
            if c.now() <= t && c.now() >= best.now() {
                best = c;
            }
        }
        let mut s = best.clone();
        s.run_until(t);
        s
    }

    /// Advances `sim` to `t` if it is not past it; otherwise rebuilds from a checkpoint.
    pub fn move_to(&self, sim: &mut Simulation, t: u64) {
        if sim.now() <= t {
            sim.run_until(t);
        } else {
            *sim = self.sim_at(t);
        }
    }

    /// The first event instant after `t`, if any.
    pub fn next_instant(&self, t: u64) -> Option<u64> {
        let i = self.instants.partition_point(|&x| x <= t);
        self.instants.get(i).copied()
    }

    /// The last event instant before `t`, if any.
    pub fn prev_instant(&self, t: u64) -> Option<u64> {
        let i = self.instants.partition_point(|&x| x < t);
        i.checked_sub(1).map(|i| self.instants[i])
    }

    /// The sample index that shows the state at `t`.
    pub fn sample_index(&self, t: u64) -> usize {
        sample_at(&self.samples, t)
    }

    /// The whole result, as the format spec shapes it.
    pub fn result(&self) -> SimResult {
        self.full.result()
    }

    /// The simulation run to its end (events recorded).
    pub fn full(&self) -> &Simulation {
        &self.full
    }

    /// The validated scenario that ran (shared, never copied).
    pub fn valid(&self) -> &Arc<ValidScenario> {
        &self.valid
    }

    /// Whether this is the run of `valid` (that very validation, not an equal one).
    pub fn is_run_of(&self, valid: &Arc<ValidScenario>) -> bool {
        Arc::ptr_eq(&self.valid, valid)
    }

    /// The run as one side of a comparison, borrowed: its job results are the ones it holds,
    /// found by `find` (which is [`RunData::job_index`]: `&|n| run.job_index(n)`).
    pub fn side<'a>(&'a self, find: &'a dyn Fn(&str) -> Option<usize>) -> Side<'a> {
        Side { ended_at: self.full.ended_at(), summary: &self.summary, jobs: &self.jobs, find }
    }

    /// The summary result (`quotasim run --summary`), without copying a job.
    pub fn summary_result(&self) -> SummaryResult {
        SummaryResult { format_version: 1, ended_at: self.full.ended_at(), summary: self.summary.clone() }
    }

    /// Index of a job by name.
    pub fn job_index(&self, name: &str) -> Option<usize> {
        self.job_ids.get(name).copied()
    }

    /// Index of a share by name.
    pub fn share_index(&self, name: &str) -> Option<usize> {
        self.share_ids.get(name).copied()
    }

    /// The preemptions of job `j`, in log order.
    pub fn preemptions_of(&self, j: usize) -> impl Iterator<Item = &PreemptionRecord> + '_ {
        self.preempted.get(j).into_iter().flatten().map(|&k| &self.preemptions[k])
    }
}

/// Records snapshot `snap` as sample `i`; `types` is indexed like the scenario's types
/// (`type_ids`), shares by `share_ids`.
fn record(
    types: &mut [TypeSeries],
    type_ids: &HashMap<String, usize>,
    share_ids: &HashMap<String, usize>,
    snap: &Snapshot,
    i: usize,
) {
    for tt in &snap.types {
        let Some(ts) = type_ids.get(tt.capacity_unit.as_str()).map(|&t| &mut types[t]) else { continue };
        ts.capacity[i] = tt.service_environment_capacity.unwrap_or(0);
    }
    for su in &snap.shares {
        let Some(ts) = type_ids.get(su.capacity_unit.as_str()).map(|&t| &mut types[t]) else { continue };
        let Some(&s) = share_ids.get(&su.quota_share_name) else { continue };
        ts.own[s][i] = su.within_quota;
        ts.borrowed[s][i] = su.over_quota;
        ts.quota[s][i] = su.quota;
        for f in &su.borrowed_from {
            let Some(&l) = share_ids.get(&f.quota_share_name) else { continue };
            let n = ts.own.first().map_or(0, |v| v.len());
            match ts.flows.iter_mut().find(|(a, b, _)| *a == l && *b == s) {
                Some(fl) => fl.2[i] = f.instances,
                None => {
                    let mut v = vec![0; n];
                    v[i] = f.instances;
                    ts.flows.push((l, s, v));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets;

    fn notebook() -> RunData {
        let s = presets::scenario(presets::NOTEBOOK).expect("preset parses");
        RunData::compute(quotasim::validate(&s).expect("valid"))
    }

    /// The parts of a run the page draws, to compare two computations of it.
    fn drawn(r: &RunData) -> String {
        format!(
            "{:?}",
            (r.end, &r.samples, &r.instants, &r.types, &r.jobs, &r.preemptions, &r.summary, &r.error)
        )
    }

    #[test]
    fn a_run_computed_a_slice_at_a_time_is_the_run_computed_at_once() {
        for p in presets::PRESETS.iter() {
            let s = presets::scenario(p).expect("preset parses");
            let v = quotasim::validate(&s).expect("valid");
            let at_once = RunData::compute(v.clone());
            // The smallest slices there are: stop at every look at the clock.
            let mut b = RunBuilder::new(Arc::new(v));
            let mut slices = 0;
            let mut last = -1.0;
            let sliced = loop {
                slices += 1;
                let p = b.progress();
                assert!((0.0..=1.0).contains(&p) && p >= last, "progress only grows: {last} then {p}");
                last = p;
                if let Some(d) = b.advance(&mut || true) {
                    break d;
                }
            };
            assert!(slices > 2, "{}: {slices} slices", p.id);
            assert_eq!(drawn(&sliced), drawn(&at_once), "{}", p.id);
            assert_eq!(b.progress(), 1.0);
            assert!(b.advance(&mut || false).is_none(), "the data is given once");
            for t in [0, at_once.end / 3, at_once.end] {
                assert_eq!(sliced.sim_at(t).snapshot(), at_once.sim_at(t).snapshot(), "{} at {t}", p.id);
            }
        }
    }

    #[test]
    fn a_replicate_run_in_slices_gives_the_summaries_of_the_engines_run_seed() {
        // Both sides of scenarios with a workload section, with a horizon too: stepped in the
        // smallest slices there are, as compare's replicates run them.
        let fixture =
            quotasim::json::parse_scenario(include_str!("../../tests/fixtures/two-teams-workload.json"))
                .expect("fixture parses");
        let generated = quotasim::generate_workload(&quotasim::GenerateOptions {
            jobs: 400,
            shares: 3,
            seed: 7,
            ..quotasim::GenerateOptions::default()
        });
        for (id, s) in [("two-teams-workload", fixture), ("generated", generated)] {
            assert!(s.workload.is_some(), "{id}");
            let mut b = s.clone();
            b.settings.preemption_grace_seconds = 30;
            let mut h = s.clone();
            h.settings.horizon_seconds = Some(3600);
            for (a, b) in [(&s, &b), (&s, &h)] {
                for seed in [0, 1] {
                    let whole = quotasim::replicates::run_seed(a, b, seed).expect("runs");
                    let side = |x: &quotasim::model::Scenario, is_a: bool| {
                        let mut sim = quotasim::replicates::side_simulation(x, seed, is_a).expect("valid");
                        while !run_slice(&mut sim, &mut || true) {}
                        quotasim::replicates::side_result(&sim, is_a).expect("runs")
                    };
                    assert!(whole.0.summary.overall.jobs > 0, "{id}: jobs ran");
                    assert_eq!((side(a, true), side(b, false)), whole, "{id} seed {seed}");
                }
            }
        }
    }

    #[test]
    fn a_run_with_a_horizon_stops_there_when_sliced() {
        let mut s = presets::scenario(presets::NOTEBOOK).expect("preset parses");
        s.settings.horizon_seconds = Some(1000);
        let v = quotasim::validate(&s).expect("valid");
        let at_once = RunData::compute(v.clone());
        let mut b = RunBuilder::new(Arc::new(v));
        let sliced = loop {
            if let Some(d) = b.advance(&mut || true) {
                break d;
            }
        };
        assert_eq!(at_once.end, 1000);
        assert_eq!(drawn(&sliced), drawn(&at_once));
    }

    #[test]
    fn a_run_compared_by_reference_is_compared_as_its_full_result() {
        use quotasim::compare::{compare, compare_sides, summary_of};
        let a = notebook();
        let mut s = presets::scenario(presets::NOTEBOOK).expect("preset parses");
        s.quota_shares[0].preemption_configuration.in_share_preemption = quotasim::model::Toggle::Disabled;
        let b = RunData::compute(quotasim::validate(&s).expect("valid"));
        let whole = |r: &RunData| SimResult {
            format_version: 1,
            ended_at: r.full().ended_at(),
            jobs: r.full().jobs(),
            events: Vec::new(),
            summary: r.summary.clone(),
        };
        let (fa, fb) = (|n: &str| a.job_index(n), |n: &str| b.job_index(n));
        let c = compare_sides(&a.side(&fa), &b.side(&fb), Vec::new());
        assert_eq!(c, compare(&whole(&a), &whole(&b), Vec::new()));
        assert!(!c.changed_jobs.is_empty());
        assert_eq!(b.summary_result(), summary_of(&whole(&b)));
        assert!(a.is_run_of(a.valid()) && !a.is_run_of(b.valid()));
    }

    #[test]
    fn large_runs_keep_fewer_checkpoints() {
        assert_eq!(checkpoints_for(0), 16);
        assert_eq!(checkpoints_for(10_000), 16);
        assert_eq!(checkpoints_for(20_000), 10);
        assert_eq!(checkpoints_for(50_000), 4);
        assert_eq!(checkpoints_for(1_000_000), 4);
    }

    #[test]
    fn names_map_to_indices() {
        let r = notebook();
        assert_eq!(r.job_index("qs2_job"), Some(3));
        assert_eq!(r.share_index("qs3"), Some(2));
        assert_eq!((r.job_index("nope"), r.share_index("nope")), (None, None));
    }

    #[test]
    fn a_run_past_2_53_says_where_it_stopped() {
        let mut s = presets::scenario(presets::NOTEBOOK).expect("preset parses");
        assert!(notebook().error.is_none());
        for j in &mut s.jobs {
            j.duration_seconds = Some(1 << 52);
        }
        let r = RunData::compute(quotasim::validate(&s).expect("valid"));
        let e = r.error.expect("a time past 2^53 - 1");
        assert!(e.contains("2^53 - 1"), "{e}");
    }

    #[test]
    fn notebook_run_has_two_preemptions_and_exact_samples() {
        let r = notebook();
        assert_eq!(r.preemptions.len(), 2);
        assert!(r.exact);
        assert_eq!(r.samples[0], 0);
        assert_eq!(*r.samples.last().unwrap(), r.end);
        let t = &r.types[0];
        assert_eq!(t.name, "ml.g5.xlarge");
        // At 0: qs1 runs one job on its quota and one borrowed.
        assert_eq!(t.own[0][0], 1);
        assert_eq!(t.borrowed[0][0], 1);
        assert_eq!(t.flows[0].0, 1, "qs2 lends to qs1");
        assert_eq!(t.capacity[0], 3);
    }

    #[test]
    fn jobs_and_shares_are_found_by_name_and_preemptions_by_job() {
        let r = notebook();
        let sc = r.full().scenario();
        for (i, j) in sc.jobs.iter().enumerate() {
            assert_eq!(r.job_index(&j.name), Some(i));
        }
        for (i, s) in sc.shares.iter().enumerate() {
            assert_eq!(r.share_index(&s.name), Some(i));
        }
        assert_eq!(r.job_index("no such job"), None);
        for j in 0..sc.jobs.len() {
            let mine: Vec<_> = r.preemptions.iter().filter(|p| p.victim.index() == j).collect();
            assert_eq!(r.preemptions_of(j).collect::<Vec<_>>(), mine);
        }
    }

    #[test]
    fn sim_at_matches_a_fresh_run() {
        let r = notebook();
        for t in [0, 900, 1000, 1800, 5000, r.end] {
            let a = r.sim_at(t).snapshot();
            let s = presets::scenario(presets::NOTEBOOK).unwrap();
            let mut fresh = Simulation::new(quotasim::validate(&s).unwrap());
            fresh.run_until(t);
            assert_eq!(a, fresh.snapshot(), "at {t}");
        }
        let mut cur = r.sim_at(5000);
        r.move_to(&mut cur, 100);
        assert_eq!(cur.now(), 100);
        assert_eq!(r.next_instant(0), Some(900));
        assert_eq!(r.prev_instant(900), Some(0));
    }
}
