//! A forecast: the state validated once, a duration source per job, the replicates run with
//! the engine and their starts gathered into bands.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::draws::draw_unit;
use super::km::{Draw, KaplanMeier};
use super::options::{problem, Arrivals, Durations, EtaOptions, FORMAT_VERSION, MAX_REPLICATES, MIN_SAMPLES};
use super::report::{iso_time, Band, BandIso, EtaReport, JobEta, Victim};
use super::{arrivals, workload};
use crate::model::Scenario;
use crate::scenario::{JobId, ValidScenario};
use crate::sim::{Options, Simulation};
use crate::validate::{validate, Problem};

/// Where one job's duration comes from in a replicate.
#[derive(Clone, Debug)]
enum Source {
    /// The same every replicate (`exact`, `timeout`, or a fallback).
    Fixed(u64, &'static str),
    /// A draw beyond `trained`: from history estimate `curve`, else (or past its largest)
    /// from the `workload` entry `entry`, else `fallback`.
    Drawn { curve: Option<usize>, entry: Option<usize>, trained: u64, fallback: (u64, &'static str) },
}

/// A forecast ready to run its replicates: the state validated once, a duration source per
/// job, the jobs forecast and what they wait for now.
#[derive(Clone, Debug)]
pub struct Forecast {
    valid: ValidScenario,
    sources: Vec<Source>,
    curves: Vec<KaplanMeier>,
    targets: Vec<JobId>,
    submitted: Option<JobId>,
    now: Vec<Now>,
    opts: EtaOptions,
    durations: Durations,
    horizon_at: u64,
    /// Resampled arrivals, and the duration estimate of each (share, type) they may have.
    model: Option<arrivals::Model>,
    /// The state's `workload` section (durations, and arrivals in [`Arrivals::Workload`]),
    /// and when its arrivals begin (the later of its `startAt` and the state's).
    section: Option<workload::Model>,
    begin_arrivals: u64,
    curve_of: BTreeMap<(crate::scenario::ShareId, crate::scenario::TypeId), (Option<usize>, u64)>,
    /// Validation warnings of the state.
    pub warnings: Vec<Problem>,
}

/// What a job waits for at `startAt`.
#[derive(Clone, Debug, Default)]
struct Now {
    reason: Option<String>,
    cause: Option<&'static str>,
    position: Option<(usize, usize)>,
    ahead: Vec<String>,
}

/// One replicate's outcome for the jobs forecast, in their order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Each job's first dispatch from `startAt` on, if before the horizon.
    starts: Vec<Option<u64>>,
    /// Whether it was preempted after it started.
    preempted: Vec<bool>,
    /// The jobs the submitted job preempted (names).
    victims: Vec<String>,
    /// Draws by where they came from.
    sources: BTreeMap<&'static str, u64>,
}

impl Forecast {
    /// Prepares a forecast of `state` (an R28 scenario). Its `workload` section, if any, is
    /// expanded into listed jobs, except with [`Arrivals::Workload`], which draws arrivals
    /// from it instead; either way it is the model of [`Durations::Workload`].
    pub fn new(state: &Scenario, opts: EtaOptions) -> Result<Self, Vec<Problem>> {
        if !(1..=MAX_REPLICATES).contains(&opts.replicates) {
            return Err(problem("--replicates", format!("must be 1 to {MAX_REPLICATES}")));
        }
        if opts.horizon == 0 {
            return Err(problem("--horizon", String::from("must be above 0 seconds")));
        }
        let start = u64::try_from(state.settings.start_at).unwrap_or(0);
        let horizon_at = start.saturating_add(opts.horizon);
        if horizon_at > crate::MAX_SAFE_INTEGER {
            return Err(problem(
                "--horizon",
                String::from("startAt plus the horizon must be at most 2^53 - 1"),
            ));
        }
        let durations = opts.durations.unwrap_or(if !state.history.is_empty() {
            Durations::History
        } else if state.workload.is_some() {
            Durations::Workload
        } else {
            Durations::Timeout
        });
        if state.workload.is_none() {
            if durations == Durations::Workload {
                return Err(problem(
                    "--durations",
                    String::from("durations from the workload need a workload section in the state"),
                ));
            }
            if opts.arrivals == Arrivals::Workload {
                return Err(problem(
                    "--arrivals",
                    String::from("arrivals from the workload need a workload section in the state"),
                ));
            }
        }
        let mut s = if opts.arrivals == Arrivals::Workload {
            let mut s = state.clone();
            s.workload = None;
            s
        } else {
            crate::workload::expanded(state)?
        };
        s.settings.horizon_seconds = Some(horizon_at as i64);
        if matches!(opts.arrivals, Arrivals::None | Arrivals::Workload) {
            s.jobs.retain(|j| j.submit_at <= state.settings.start_at);
        }
        // Nothing after the horizon changes a start before it: jobs submitted and actions
        // due after it are left out (a job an earlier action names is kept).
        s.actions.retain(|a| a.at <= horizon_at as i64);
        let named: alloc::collections::BTreeSet<&str> = s
            .actions
            .iter()
            .filter_map(|a| match &a.kind {
                crate::model::ActionKind::UpdateServiceJob { job_name, .. }
                | crate::model::ActionKind::TerminateServiceJob { job_name, .. } => Some(job_name.as_str()),
                _ => None,
            })
            .collect();
        s.jobs.retain(|j| j.submit_at <= horizon_at as i64 || named.contains(j.job_name.as_str()));
        let mut submitted = None;
        if let Some(j) = &opts.submit {
            if s.jobs.iter().any(|x| x.job_name == j.job_name) {
                return Err(problem(
                    "--submit.jobName",
                    format!("a job named {:?} is in the state already", j.job_name),
                ));
            }
            if j.submit_at != 0 && j.submit_at != state.settings.start_at {
                return Err(problem(
                    "--submit.submitAt",
                    String::from("a submitted job arrives at startAt: leave it out"),
                ));
            }
            if j.started_at.is_some() || j.previous_attempts != 0 || j.completed_work_seconds != 0 {
                return Err(problem(
                    "--submit",
                    String::from(
                        "a submitted job is new: no startedAt, previousAttempts or completedWorkSeconds",
                    ),
                ));
            }
            let mut j = j.clone();
            j.submit_at = state.settings.start_at;
            submitted = Some(JobId::at(s.jobs.len()));
            s.jobs.push(j);
        }
        let written: Vec<Option<u64>> =
            s.jobs.iter().map(|j| j.duration_seconds.map(|d| d.max(0) as u64)).collect();
        // Placeholders where a duration is missing (each replicate draws its own), longer than
        // anything the job can have trained, so the state validates.
        if durations != Durations::Exact {
            for j in &mut s.jobs {
                if j.duration_seconds.is_none() {
                    let trained = j.completed_work_seconds.max(0)
                        + j.started_at.map_or(0, |a| (state.settings.start_at - a).max(0));
                    j.duration_seconds = Some(trained.saturating_add(1));
                }
            }
        }
        let valid = validate(&s).map_err(|mut p| {
            for x in &mut p {
                if let Some(k) = submitted {
                    let at = format!("jobs[{k}]");
                    if x.path.starts_with(&at) {
                        x.path = format!("--submit{}", &x.path[at.len()..]);
                    }
                }
            }
            p
        })?;
        let targets = targets(&valid, &opts, submitted)?;
        let (curves, keys, curve_of) = curves(state, &valid);
        let model = match (opts.arrivals, &opts.resampled) {
            (Arrivals::Resampled, Some(m)) => Some(arrivals::Model::new(m, &valid)),
            (Arrivals::Resampled, None) => {
                return Err(problem("--arrivals", String::from("resampled arrivals need a model of them")))
            }
            _ => None,
        };
        let section = workload::Model::new(state, &valid)?;
        let sources = sources(&valid, durations, &curves, &keys, section.as_ref(), &written, submitted)?;
        let warnings = valid.warnings.clone();
        let mut f = Forecast {
            valid,
            sources,
            curves,
            targets,
            submitted,
            now: Vec::new(),
            opts,
            durations,
            horizon_at,
            model,
            section,
            begin_arrivals: state.workload.as_ref().map_or(0, |w| u64::try_from(w.start_at).unwrap_or(0)),
            curve_of,
            warnings,
        };
        f.now = f.waits_now();
        Ok(f)
    }

    /// Replicates to run.
    pub fn replicates(&self) -> u32 {
        self.opts.replicates
    }

    /// The state with replicate `r`'s durations.
    fn drawn(&self, r: u32) -> (ValidScenario, BTreeMap<&'static str, u64>) {
        let mut v = self.valid.clone();
        let mut counts = BTreeMap::new();
        for (k, (j, src)) in v.jobs.iter_mut().zip(&self.sources).enumerate() {
            let (d, from) = match src {
                Source::Fixed(d, from) => (*d, *from),
                Source::Drawn { curve, entry, trained, fallback } => {
                    let u = draw_unit(self.opts.seed, r, &self.valid.jobs[k].name);
                    self.draw_beyond(*curve, *entry, *trained, u).unwrap_or(*fallback)
                }
            };
            j.duration = d;
            *counts.entry(from).or_insert(0) += 1;
        }
        if let Some(m) = &self.model {
            for mut j in m.draw(self.opts.seed, r, v.settings.start_at, self.horizon_at) {
                let (curve, largest) = self.curve_of.get(&(j.share, j.ty)).copied().unwrap_or((None, 0));
                let fallback = match (j.timeout, largest) {
                    (Some(t), _) => Some((t.max(1), "timeout")),
                    (None, l) if l > 0 => Some((l.saturating_mul(2), "twiceLargest")),
                    _ => None,
                };
                let u = draw_unit(self.opts.seed, r, &j.name);
                let drawn = match curve.map(|c| self.curves[c].draw_beyond(0, u)) {
                    Some(Draw::Seconds(d)) => Some((d.max(1), "history")),
                    _ => fallback,
                };
                // An arrival with nothing to draw its duration from does not arrive.
                let Some((d, from)) = drawn else { continue };
                j.duration = d;
                *counts.entry(from).or_insert(0) += 1;
                v.jobs.push(j);
            }
        }
        if let (Arrivals::Workload, Some(section)) = (self.opts.arrivals, &self.section) {
            let begin = self.begin_arrivals.max(v.settings.start_at);
            for (e, mut j) in section.draw(&self.valid, self.opts.seed, r, begin, self.horizon_at) {
                let curve = match self.durations {
                    Durations::History => self.curve_of.get(&(j.share, j.ty)).and_then(|c| c.0),
                    _ => None,
                };
                let u = draw_unit(self.opts.seed, r, &j.name);
                // An entry always has a duration for a new job (`trained` 0 is below its least).
                let Some((d, from)) = self.draw_beyond(curve, Some(e), 0, u) else { continue };
                j.duration = d;
                *counts.entry(from).or_insert(0) += 1;
                v.jobs.push(j);
            }
        }
        (v, counts)
    }

    /// A duration beyond `trained` by `u`: from history estimate `curve`, else (or past its
    /// largest) from `workload` entry `entry`; `None` when neither gives one.
    fn draw_beyond(
        &self,
        curve: Option<usize>,
        entry: Option<usize>,
        trained: u64,
        u: f64,
    ) -> Option<(u64, &'static str)> {
        let from_curve = curve.and_then(|c| match self.curves[c].draw_beyond(trained, u) {
            Draw::Seconds(d) => Some((d, "history")),
            Draw::BeyondLargest => None,
        });
        from_curve.or_else(|| {
            let section = self.section.as_ref()?;
            section.entries[entry?].draw_beyond(trained, u).map(|d| (d, "workload"))
        })
    }

    /// Runs replicate `r` (any order, any thread: the outcome depends on `r` alone).
    pub fn replicate(&self, r: u32) -> Result<Outcome, String> {
        let (v, sources) = self.drawn(r);
        let arrived: Vec<String> =
            v.jobs[self.valid.jobs.len()..].iter().map(|j| String::from(j.name.as_str())).collect();
        let name = |k: JobId| match k.index().checked_sub(self.valid.jobs.len()) {
            Some(i) => arrived[i].clone(),
            None => String::from(self.valid.jobs[k.index()].name.as_str()),
        };
        let mut sim = Simulation::with_options(v, Options { record_events: false, ..Options::default() });
        sim.run();
        if let Some(e) = sim.run_error() {
            return Err(format!("replicate {r}: {e}"));
        }
        let start = self.valid.settings.start_at;
        let mut hit: Vec<JobId> = sim.preemptions().iter().map(|p| p.victim).collect();
        hit.sort_unstable();
        let mut starts = Vec::with_capacity(self.targets.len());
        let mut preempted = Vec::with_capacity(self.targets.len());
        for &j in &self.targets {
            let first = sim.job_result(j).first_started_at.filter(|&t| t >= start && t <= self.horizon_at);
            starts.push(first);
            preempted.push(first.is_some() && hit.binary_search(&j).is_ok());
        }
        let victims = match self.submitted {
            Some(n) => {
                let mut v: Vec<String> = sim
                    .preemptions()
                    .iter()
                    .filter(|p| p.preemptor == Some(n))
                    .map(|p| name(p.victim))
                    .collect();
                v.sort();
                v.dedup();
                v
            }
            None => Vec::new(),
        };
        Ok(Outcome { starts, preempted, victims, sources })
    }

    /// Runs every replicate in order, on this thread.
    pub fn run(&self) -> Result<EtaReport, String> {
        let outcomes = (0..self.opts.replicates).map(|r| self.replicate(r)).collect::<Result<Vec<_>, _>>()?;
        Ok(self.report(&outcomes))
    }

    /// The report over the replicates' outcomes (in replicate order).
    pub fn report(&self, outcomes: &[Outcome]) -> EtaReport {
        let n = outcomes.len();
        let start = self.valid.settings.start_at;
        let origin = self.valid.settings.origin_epoch_ms;
        let mut draws: BTreeMap<String, u64> = BTreeMap::new();
        for o in outcomes {
            for (k, c) in &o.sources {
                *draws.entry(k.to_string()).or_insert(0) += c;
            }
        }
        let jobs = self
            .targets
            .iter()
            .enumerate()
            .map(|(i, &j)| {
                let jc = &self.valid.jobs[j.index()];
                let mut starts: Vec<u64> = outcomes.iter().filter_map(|o| o.starts[i]).collect();
                starts.sort_unstable();
                let started = starts.len();
                let band = |p: u64| nearest_rank(&starts, n, p);
                let mean = (started > 0)
                    .then(|| starts.iter().map(|&t| (t - start) as f64).sum::<f64>() / started as f64);
                let start_band = Band {
                    p10: band(10).map(|t| t - start),
                    p50: band(50).map(|t| t - start),
                    p90: band(90).map(|t| t - start),
                    mean,
                };
                let iso = origin.map(|o| BandIso {
                    p10: start_band.p10.map(|d| iso_time(o, start + d)),
                    p50: start_band.p50.map(|d| iso_time(o, start + d)),
                    p90: start_band.p90.map(|d| iso_time(o, start + d)),
                });
                let preempted = outcomes.iter().filter(|o| o.preempted[i]).count();
                let mut victims: BTreeMap<&str, u32> = BTreeMap::new();
                if Some(j) == self.submitted {
                    for o in outcomes {
                        for v in &o.victims {
                            *victims.entry(v).or_insert(0) += 1;
                        }
                    }
                }
                let now = &self.now[i];
                JobEta {
                    job_name: String::from(jc.name.as_str()),
                    quota_share_name: self.valid.shares[jc.share.index()].name.clone(),
                    submitted: Some(j) == self.submitted,
                    start: start_band,
                    start_iso: iso,
                    started_replicates: started as u32,
                    not_started_by_horizon: (n - started) as f64 / n as f64,
                    preempted_after_start: preempted as f64 / n as f64,
                    reason: now.reason.clone(),
                    cause: now.cause,
                    position: now.position,
                    ahead: now.ahead.clone(),
                    would_preempt: victims
                        .into_iter()
                        .map(|(name, c)| Victim {
                            job_name: name.to_string(),
                            probability: c as f64 / n as f64,
                        })
                        .collect(),
                }
            })
            .collect();
        EtaReport {
            format_version: FORMAT_VERSION,
            start_at: start,
            origin_epoch_ms: origin,
            horizon_at: self.horizon_at,
            replicates: n as u32,
            seed: self.opts.seed,
            durations: self.durations,
            arrivals: self.opts.arrivals,
            draws_by_source: draws,
            jobs,
        }
    }

    /// Why each job forecast waits at `startAt`, and who is ahead of it.
    fn waits_now(&self) -> Vec<Now> {
        let (v, _) = self.drawn(0);
        let start = v.settings.start_at;
        let mut sim = Simulation::with_options(v, Options { record_events: false, ..Options::default() });
        sim.run_until(start);
        self.targets
            .iter()
            .map(|&j| {
                if sim.job_result(j).status != Some(crate::result::Status::Runnable) {
                    return Now::default();
                }
                let w = sim.wait_analysis(j);
                Now {
                    reason: Some(w.reason.to_string()),
                    cause: Some(w.cause.key()),
                    position: w.position,
                    ahead: sim
                        .queued_ahead(j)
                        .into_iter()
                        .map(|a| String::from(self.valid.jobs[a.index()].name.as_str()))
                        .collect(),
                }
            })
            .collect()
    }
}

/// The jobs to forecast: those named, else every queued job and the submitted one.
fn targets(
    v: &ValidScenario,
    opts: &EtaOptions,
    submitted: Option<JobId>,
) -> Result<Vec<JobId>, Vec<Problem>> {
    let start = v.settings.start_at;
    let mut out = Vec::new();
    for (i, name) in opts.jobs.iter().enumerate() {
        let Some(k) = v.jobs.iter().position(|j| j.name == name) else {
            return Err(problem(&format!("--job[{i}]"), format!("no job named {name:?} in the state")));
        };
        if let Some(at) = v.jobs[k].started_at {
            return Err(problem(
                &format!("--job[{i}]"),
                format!("{name:?} started already (startedAt {at})"),
            ));
        }
        out.push(JobId::at(k));
    }
    if opts.jobs.is_empty() {
        out = JobId::all(v.jobs.len())
            .filter(|&k| {
                let j = &v.jobs[k.index()];
                j.started_at.is_none() && j.submit_at <= start
            })
            .collect();
    }
    if let Some(n) = submitted {
        if !out.contains(&n) {
            out.push(n);
        }
    }
    Ok(out)
}

/// One Kaplan-Meier estimate per (share, instance type) of the history, and the index of
/// each job's (`None` when its group has fewer than [`MIN_SAMPLES`] observations).
#[allow(clippy::type_complexity)]
fn curves(
    state: &Scenario,
    v: &ValidScenario,
) -> (
    Vec<KaplanMeier>,
    Vec<(Option<usize>, u64)>,
    BTreeMap<(crate::scenario::ShareId, crate::scenario::TypeId), (Option<usize>, u64)>,
) {
    let mut groups: BTreeMap<(&str, &str), Vec<(u64, bool)>> = BTreeMap::new();
    for h in &state.history {
        let d = u64::try_from(h.duration_seconds).unwrap_or(0);
        groups.entry((&h.quota_share_name, &h.instance_type)).or_default().push((d, h.censored));
    }
    let largest_all =
        state.history.iter().map(|h| u64::try_from(h.duration_seconds).unwrap_or(0)).max().unwrap_or(0);
    let mut curves = Vec::new();
    let mut index: BTreeMap<(&str, &str), (Option<usize>, u64)> = BTreeMap::new();
    for (key, obs) in &groups {
        let km = KaplanMeier::new(obs);
        let largest = km.largest();
        let k = (km.samples() >= MIN_SAMPLES).then(|| {
            curves.push(km);
            curves.len() - 1
        });
        index.insert(*key, (k, largest));
    }
    let keys = v
        .jobs
        .iter()
        .map(|j| {
            let key = (v.shares[j.share.index()].name.as_str(), v.types[j.ty.index()].name.as_str());
            index.get(&key).copied().unwrap_or((None, largest_all))
        })
        .collect();
    let mut by_ids = BTreeMap::new();
    for (si, sh) in v.shares.iter().enumerate() {
        for (ti, ty) in v.types.iter().enumerate() {
            let e = index.get(&(sh.name.as_str(), ty.name.as_str())).copied().unwrap_or((None, largest_all));
            by_ids.insert((crate::scenario::ShareId::at(si), crate::scenario::TypeId::at(ti)), e);
        }
    }
    (curves, keys, by_ids)
}

/// Each job's duration source.
fn sources(
    v: &ValidScenario,
    durations: Durations,
    curves: &[KaplanMeier],
    keys: &[(Option<usize>, u64)],
    section: Option<&workload::Model>,
    written: &[Option<u64>],
    submitted: Option<JobId>,
) -> Result<Vec<Source>, Vec<Problem>> {
    let start = v.settings.start_at;
    let (sched, starting) = (v.settings.scheduled, v.settings.starting);
    v.jobs
        .iter()
        .enumerate()
        .map(|(k, j)| {
            let written = written[k];
            let trained = j.completed_work
                + j.started_at
                    .map_or(0, |a| start.saturating_sub(a.saturating_add(sched).saturating_add(starting)));
            let path =
                if Some(JobId::at(k)) == submitted { String::from("--submit") } else { format!("jobs[{k}]") };
            let beyond = |d: u64| d.max(trained + 1);
            match durations {
                Durations::Exact => Ok(Source::Fixed(j.duration, "exact")),
                Durations::Timeout => match (j.timeout, written) {
                    (Some(t), _) => Ok(Source::Fixed(beyond(t), "timeout")),
                    (None, Some(d)) => Ok(Source::Fixed(beyond(d), "asWritten")),
                    (None, None) => Err(problem(
                        &format!("{path}.timeoutSeconds"),
                        String::from("durations from timeouts need a timeout or a durationSeconds"),
                    )),
                },
                Durations::History | Durations::Workload => {
                    let entry = section.and_then(|m| m.entry(j.share));
                    let (curve, largest) = match durations {
                        Durations::History => keys[k],
                        _ => (None, entry.and_then(|e| section.map(|m| m.entries[e].largest())).unwrap_or(0)),
                    };
                    let fallback = if let Some(t) = j.timeout {
                        (beyond(t), "timeout")
                    } else if largest > 0 {
                        (beyond(largest.saturating_mul(2)), "twiceLargest")
                    } else if let Some(d) = written {
                        (beyond(d), "asWritten")
                    } else {
                        let what = match durations {
                            Durations::History => "no history of its share and type",
                            _ => "no workload entry for its share",
                        };
                        return Err(problem(
                            &format!("{path}.durationSeconds"),
                            format!("{what}, no timeout and no duration to fall back on"),
                        ));
                    };
                    let curve = curve.filter(|&c| curves[c].survival(trained) > 0.0);
                    if curve.is_none() && entry.is_none() {
                        return Ok(Source::Fixed(fallback.0, fallback.1));
                    }
                    Ok(Source::Drawn { curve, entry, trained, fallback })
                }
            }
        })
        .collect()
}

/// Nearest rank over `n` replicates of which `started` (sorted) started: `None` when the
/// rank falls among the replicates that never start it.
pub(super) fn nearest_rank(started: &[u64], n: usize, p: u64) -> Option<u64> {
    let rank = (p as usize * n).div_ceil(100).max(1);
    started.get(rank - 1).copied()
}
