//! One complete run of a scenario, prepared for the charts: results, the preemption log,
//! utilization time series sampled from R25 snapshots, and checkpoints to rebuild the
//! simulation at any instant cheaply.

use quotasim::result::{JobResult, Snapshot, Summary};
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
/// Number of simulation checkpoints kept for scrubbing.
pub const CHECKPOINTS: usize = 16;

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
}

impl RunData {
    /// Runs `valid` to its end and samples it.
    pub fn compute(valid: ValidScenario) -> RunData {
        let scheduled_seconds = valid.settings.scheduled;
        let starting_seconds = valid.settings.starting;
        // One scenario shared by every simulation made from it.
        let valid = Arc::new(valid);
        let base =
            Simulation::with_shared(valid.clone(), Options { record_events: false, ..Options::default() });
        let mut full = Simulation::with_shared(valid, Options::default());
        full.run();
        let error = full.run_error().map(|e| e.to_string());
        let end = full.now();
        let instants: Vec<u64> = full.event_instants().collect();
        let exact = instants.len() <= EXACT_SAMPLE_LIMIT;
        let mut samples = if exact { instants.clone() } else { even_samples(end, EVEN_SAMPLES) };
        if samples.first() != Some(&0) {
            samples.insert(0, 0);
        }
        if samples.last() != Some(&end) && end > 0 {
            samples.push(end);
        }
        let share_names: Vec<String> = full.scenario().shares.iter().map(|s| s.name.clone()).collect();
        let type_cfg: Vec<(String, u64)> =
            full.scenario().types.iter().map(|t| (t.name.clone(), t.gpus)).collect();
        let share_ids: HashMap<String, usize> =
            share_names.iter().enumerate().map(|(i, n)| (n.clone(), i)).collect();
        let type_ids: HashMap<&str, usize> =
            type_cfg.iter().enumerate().map(|(i, (n, _))| (n.as_str(), i)).collect();
        let ns = share_names.len();
        let n = samples.len();
        let mut types: Vec<TypeSeries> = type_cfg
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
        let mut sim = base.clone();
        let mut checkpoints = vec![base];
        let every = (n / CHECKPOINTS).max(1);
        for (i, &t) in samples.iter().enumerate() {
            sim.run_until(t);
            let snap = sim.snapshot();
            record(&mut types, &type_ids, &share_ids, &snap, i);
            if i > 0 && i % every == 0 {
                checkpoints.push(sim.clone());
            }
        }
        for ts in &mut types {
            let mut peak = ts.capacity.iter().copied().max().unwrap_or(0);
            for i in 0..n {
                let used: u64 = (0..ns).map(|s| ts.own[s][i] + ts.borrowed[s][i]).sum();
                let quota: u64 = (0..ns).map(|s| ts.quota[s][i]).sum();
                peak = peak.max(used).max(quota);
            }
            ts.peak = peak;
        }
        // Types nobody uses or owns are left out of the charts.
        types.retain(|t| t.peak > 0);
        let job_ids = full.scenario().jobs.iter().enumerate().map(|(i, j)| (j.name.clone(), i)).collect();
        let preemptions = full.preemptions().to_vec();
        let mut preempted = vec![Vec::new(); full.scenario().jobs.len()];
        for (k, p) in preemptions.iter().enumerate() {
            preempted[p.victim as usize].push(k);
        }
        RunData {
            end,
            share_names,
            instants,
            samples,
            exact,
            types,
            jobs: full.jobs(),
            preemptions,
            summary: full.summary(),
            scheduled_seconds,
            starting_seconds,
            error,
            job_ids,
            share_ids,
            preempted,
            checkpoints,
            full,
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

    /// The run as a result without events: what a comparison needs of each side.
    pub fn sim_result(&self) -> SimResult {
        SimResult {
            format_version: 1,
            ended_at: self.full.ended_at(),
            jobs: self.full.jobs(),
            events: Vec::new(),
            summary: self.summary.clone(),
        }
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
    type_ids: &HashMap<&str, usize>,
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
            j.duration_seconds = 1 << 52;
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
            let mine: Vec<_> = r.preemptions.iter().filter(|p| p.victim as usize == j).collect();
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
