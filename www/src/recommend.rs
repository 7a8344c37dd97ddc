//! The Recommend panel's pure parts: its form (objectives per share and overall, the space's
//! bounds) turned into the engine's objectives and space file, every bad field named; the
//! engine's study ([`quotasim::recommend::Study`]) made a slice at a time; and its report in
//! words. Tested natively.
//!
//! Each candidate's run is advanced with the page's one sliced loop ([`run_slice`]), as the
//! "why" study's are, so no run holds the thread for longer than a slice however large the
//! scenario; the study's own steps (what to run next, the report) are short next to a run.

use std::collections::{BTreeMap, BTreeSet};

use quotasim::model::Scenario;
use quotasim::objective::{Objective, Objectives};
use quotasim::recommend::report::{Retry, VerdictOut, UNFINISHED};
use quotasim::recommend::{
    Config, Outcome, RecommendError, RecommendOptions, RecommendReport, RecommendStep, SpaceFile, Study,
    DEFAULT_MAX_RUNS,
};
use quotasim::result::SummaryResult;
use quotasim::sim::Options;
use quotasim::sweep::{Axis, Range};
use quotasim::Simulation;

use crate::geometry::format_duration;
use crate::run::run_slice;

/// The unit a wait objective is typed in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TimeUnit {
    Seconds,
    #[default]
    Minutes,
    Hours,
}

impl TimeUnit {
    pub const ALL: [TimeUnit; 3] = [TimeUnit::Seconds, TimeUnit::Minutes, TimeUnit::Hours];

    pub fn seconds(self) -> f64 {
        match self {
            TimeUnit::Seconds => 1.0,
            TimeUnit::Minutes => 60.0,
            TimeUnit::Hours => 3600.0,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            TimeUnit::Seconds => "s",
            TimeUnit::Minutes => "min",
            TimeUnit::Hours => "h",
        }
    }

    pub fn from_label(l: &str) -> TimeUnit {
        TimeUnit::ALL.into_iter().find(|u| u.label() == l).unwrap_or_default()
    }
}

/// A share's objectives as typed (empty: none).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ShareGoal {
    /// The p95 wait at most, in `unit`.
    pub wait: String,
    pub unit: TimeUnit,
    /// Preemptions at most.
    pub preemptions: String,
}

/// A capacity's or quota's bounds as typed (empty: the default space's), or fixed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Bound {
    pub min: String,
    pub max: String,
    pub fixed: bool,
}

/// The whole form, keyed by share and type names, so what was typed for a share stays with it
/// while the scenario's rows change (and comes back if the share does).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RecommendForm {
    pub goals: BTreeMap<String, ShareGoal>,
    /// Overall utilization at least, in percent.
    pub utilization: String,
    /// Prices per hour by instance type, as typed (only a good one edits the scenario).
    pub prices: BTreeMap<String, String>,
    /// The service environment's capacity by type.
    pub capacity: BTreeMap<String, Bound>,
    /// Each share's quota by (share, type).
    pub quotas: BTreeMap<(String, String), Bound>,
    /// Shares whose sharing stays as it is.
    pub sharing_fixed: BTreeSet<String>,
    /// Runs at most (empty: the default).
    pub max_runs: String,
}

/// A bad field: its key (which input to mark) and a message that names it.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldProblem {
    pub field: String,
    pub message: String,
}

fn problem(field: String, message: String) -> FieldProblem {
    FieldProblem { field, message }
}

/// Field keys, shared by the form and the problems that mark it.
pub fn wait_key(share: &str) -> String {
    format!("wait:{share}")
}
pub fn preemptions_key(share: &str) -> String {
    format!("preemptions:{share}")
}
pub const UTILIZATION_KEY: &str = "utilization";
pub const MAX_RUNS_KEY: &str = "maxRuns";
pub fn price_key(ty: &str) -> String {
    format!("price:{ty}")
}
pub fn capacity_key(ty: &str, end: &str) -> String {
    format!("capacity:{ty}:{end}")
}
pub fn quota_key(share: &str, ty: &str, end: &str) -> String {
    format!("quota:{share}:{ty}:{end}")
}

/// A number of at least 0 as typed (`None`: empty), or what is wrong with it.
fn number(text: &str, what: &str) -> Result<Option<f64>, String> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    match t.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(Some(v)),
        Ok(_) => Err(format!("{what}: {t} must be a number of at least 0")),
        Err(_) => Err(format!("{what}: '{t}' is not a number")),
    }
}

fn whole(text: &str, what: &str) -> Result<Option<i64>, String> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    t.parse::<i64>().map(Some).map_err(|_| format!("{what}: '{t}' is not a whole number"))
}

/// A price per hour as typed: `None` when empty, or what is wrong with it.
pub fn price(ty: &str, text: &str) -> Result<Option<f64>, String> {
    number(text, &format!("Price per hour of {ty}"))
}

/// What one objective of the study asks, in words, `objectives[i]` in order.
pub type Labels = Vec<String>;

/// The objectives the form asks for, each with its words, or every bad field.
pub fn objectives(form: &RecommendForm, s: &Scenario) -> Result<(Objectives, Labels), Vec<FieldProblem>> {
    let mut out = Vec::new();
    let mut labels = Vec::new();
    let mut bad = Vec::new();
    for q in &s.quota_shares {
        let name = &q.quota_share_name;
        let Some(g) = form.goals.get(name) else { continue };
        match number(&g.wait, &format!("{name}: p95 wait at most")) {
            Ok(Some(v)) => {
                let secs = (v * g.unit.seconds()).round();
                out.push(Objective {
                    metric: format!("perQuotaShare.{name}.waitSeconds.p95"),
                    min: None,
                    max: Some(secs),
                });
                labels.push(format!("{name}: p95 wait at most {}", format_duration(secs as u64)));
            }
            Ok(None) => {}
            Err(m) => bad.push(problem(wait_key(name), m)),
        }
        match whole(&g.preemptions, &format!("{name}: preemptions at most")) {
            Ok(Some(v)) if v < 0 => bad.push(problem(
                preemptions_key(name),
                format!("{name}: preemptions at most: {v} must be 0 or more"),
            )),
            Ok(Some(v)) => {
                out.push(Objective {
                    metric: format!("perQuotaShare.{name}.preemptions.total"),
                    min: None,
                    max: Some(v as f64),
                });
                labels.push(format!("{name}: preemptions at most {v}"));
            }
            Ok(None) => {}
            Err(m) => bad.push(problem(preemptions_key(name), m)),
        }
    }
    match number(&form.utilization, "Overall utilization at least (%)") {
        Ok(Some(v)) if v > 100.0 => bad.push(problem(
            UTILIZATION_KEY.into(),
            format!("Overall utilization at least (%): {v} is more than 100"),
        )),
        Ok(Some(v)) => {
            out.push(Objective { metric: "overall.utilization".into(), min: Some(v / 100.0), max: None });
            labels.push(format!("overall utilization at least {v} %"));
        }
        Ok(None) => {}
        Err(m) => bad.push(problem(UTILIZATION_KEY.into(), m)),
    }
    if bad.is_empty() && out.is_empty() {
        let first = s
            .quota_shares
            .first()
            .map_or_else(|| UTILIZATION_KEY.to_string(), |q| wait_key(&q.quota_share_name));
        bad.push(problem(
            first,
            "Objectives: set at least one (a share's p95 wait or preemptions, or the overall utilization)"
                .into(),
        ));
    }
    if bad.is_empty() {
        Ok((Objectives { format_version: 1, objectives: out }, labels))
    } else {
        Err(bad)
    }
}

/// The default space's largest value for type `ty`: twice the larger of its capacity and its
/// quotas summed (the engine's default, shown as the placeholder).
pub fn default_max(s: &Scenario, ty: &str) -> i64 {
    let cap = s
        .service_environment
        .capacity_limits
        .iter()
        .find(|c| c.capacity_unit == ty)
        .map_or(0, |c| c.max_capacity);
    let quotas: i64 = s
        .quota_shares
        .iter()
        .flat_map(|q| q.capacity_limits.iter())
        .filter(|c| c.capacity_unit == ty)
        .map(|c| c.max_capacity.max(0))
        .sum();
    2 * cap.max(quotas).max(1)
}

/// What the space's axes and fixed paths are, in words, in the space file's order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SpaceLabels {
    pub axes: Vec<(String, String)>,
    pub fixed: Vec<(String, String)>,
}

/// The space file the form's bounds make, or every bad field.
pub fn space_file(form: &RecommendForm, s: &Scenario) -> Result<(SpaceFile, SpaceLabels), Vec<FieldProblem>> {
    let mut file = SpaceFile::default();
    let mut labels = SpaceLabels::default();
    let mut bad = Vec::new();
    let mut bound = |b: &Bound, path: String, what: String, key: &dyn Fn(&str) -> String, hi: i64| {
        if b.fixed {
            file.fixed.push(path);
            labels.fixed.push((key("min"), what));
            return;
        }
        let lo = whole(&b.min, &format!("{what}, min"));
        let up = whole(&b.max, &format!("{what}, max"));
        let (lo, up) = match (lo, up) {
            (Ok(lo), Ok(up)) => (lo, up),
            (lo, up) => {
                if let Err(m) = lo {
                    bad.push(problem(key("min"), m));
                }
                if let Err(m) = up {
                    bad.push(problem(key("max"), m));
                }
                return;
            }
        };
        if lo.is_none() && up.is_none() {
            return;
        }
        let (lo, up) = (lo.unwrap_or(1), up.unwrap_or(hi.max(lo.unwrap_or(1))));
        if lo < 1 {
            bad.push(problem(key("min"), format!("{what}, min: {lo} must be at least 1")));
        } else if up < lo {
            bad.push(problem(key("max"), format!("{what}, max: {up} is less than the min, {lo}")));
        } else if up - lo >= quotasim::recommend::space::MAX_VALUES as i64 {
            bad.push(problem(
                key("max"),
                format!(
                    "{what}: {lo} to {up} is more than {} values",
                    quotasim::recommend::space::MAX_VALUES
                ),
            ));
        } else {
            file.axes.push(Axis {
                path,
                values: None,
                range: Some(Range { from: lo as f64, to: up as f64, step: 1.0 }),
            });
            labels.axes.push((key("min"), what));
        }
    };
    let mut sharing = Vec::new();
    for c in &s.service_environment.capacity_limits {
        let ty = &c.capacity_unit;
        let b = form.capacity.get(ty).cloned().unwrap_or_default();
        bound(
            &b,
            format!("serviceEnvironment.capacityLimits[{ty}].maxCapacity"),
            format!("Capacity of {ty}"),
            &|end| capacity_key(ty, end),
            default_max(s, ty),
        );
    }
    for q in &s.quota_shares {
        let name = &q.quota_share_name;
        for c in &q.capacity_limits {
            let ty = &c.capacity_unit;
            if !s.service_environment.capacity_limits.iter().any(|x| x.capacity_unit == *ty) {
                continue;
            }
            let b = form.quotas.get(&(name.clone(), ty.clone())).cloned().unwrap_or_default();
            bound(
                &b,
                format!("quotaShares[{name}].capacityLimits[{ty}].maxCapacity"),
                format!("{name}'s quota of {ty}"),
                &|end| quota_key(name, ty, end),
                default_max(s, ty),
            );
        }
        if form.sharing_fixed.contains(name) {
            sharing.push(name.clone());
        }
    }
    for name in sharing {
        file.fixed.push(format!("quotaShares[{name}].resourceSharingConfiguration"));
        labels.fixed.push((format!("sharing:{name}"), format!("{name}'s sharing")));
    }
    if bad.is_empty() {
        Ok((file, labels))
    } else {
        Err(bad)
    }
}

/// The study's options from the form.
pub fn options(form: &RecommendForm) -> Result<RecommendOptions, Vec<FieldProblem>> {
    let max_runs = match whole(&form.max_runs, "Runs at most") {
        Ok(None) => DEFAULT_MAX_RUNS,
        Ok(Some(v)) if (1..=quotasim::recommend::MAX_RUNS as i64).contains(&v) => v as u32,
        Ok(Some(v)) => {
            return Err(vec![problem(
                MAX_RUNS_KEY.into(),
                format!("Runs at most: {v} must be from 1 to {}", quotasim::recommend::MAX_RUNS),
            )])
        }
        Err(m) => return Err(vec![problem(MAX_RUNS_KEY.into(), m)]),
    };
    Ok(RecommendOptions { max_runs, ..RecommendOptions::default() })
}

/// The engine's refusal in the form's words: `objectives[i]` and `axes[i]` name their fields.
fn engine_problems(e: RecommendError, labels: &Labels, space: &SpaceLabels) -> Vec<FieldProblem> {
    let indexed = |path: &str, prefix: &str| -> Option<usize> {
        path.strip_prefix(prefix)?.split(']').next()?.parse().ok()
    };
    match e {
        RecommendError::Usage(p) => vec![problem(MAX_RUNS_KEY.into(), p.message)],
        RecommendError::Invalid(ps) => ps
            .into_iter()
            .map(|p| {
                let at = if p.path.is_empty() { String::new() } else { format!(" at {}", p.path) };
                problem(String::new(), format!("The scenario is not valid{at}: {}", p.message))
            })
            .collect(),
        RecommendError::Objectives(ps) => ps
            .into_iter()
            .map(|p| match indexed(&p.path, "objectives[").and_then(|i| labels.get(i)) {
                Some(l) => problem(String::new(), format!("Objective \"{l}\": {}", p.message)),
                None => problem(String::new(), p.to_string()),
            })
            .collect(),
        RecommendError::Space(ps) => ps
            .into_iter()
            .map(|p| {
                let hit = indexed(&p.path, "axes[")
                    .and_then(|i| space.axes.get(i))
                    .or_else(|| indexed(&p.path, "fixed[").and_then(|i| space.fixed.get(i)));
                match hit {
                    Some((key, what)) => problem(key.clone(), format!("{what}: {}", p.message)),
                    None => problem(String::new(), format!("The space: {p}")),
                }
            })
            .collect(),
    }
}

/// The study being made, a slice at a time.
pub struct RecommendBuilder {
    study: Study,
    objectives: Objectives,
    /// The scenario the study is of (what the answer's changes apply to).
    input: Scenario,
    max_runs: u32,
    labels: Labels,
    /// The batch the study asked for, and the candidate of it being run.
    batch: Vec<Config>,
    at: usize,
    /// The candidate's runs so far, one per seed.
    outcomes: Vec<Outcome>,
    /// The run in progress and the scenario it runs.
    sim: Option<(Scenario, Box<Simulation>)>,
}

/// A finished study: its report, the objectives' words, and the scenario it recommends.
#[derive(Clone, Debug)]
pub struct Recommended {
    pub report: RecommendReport,
    pub labels: Labels,
    /// The objectives asked, for compare mode's report card.
    pub objectives: Objectives,
    /// The scenario studied (compare mode's A).
    pub input: Scenario,
    pub scenario: Result<Scenario, String>,
}

impl RecommendBuilder {
    /// The study the form asks for on `scenario`, or every bad field. Runs nothing but the
    /// engine's check of the objectives (a run of no jobs).
    pub fn new(scenario: &Scenario, form: &RecommendForm) -> Result<RecommendBuilder, Vec<FieldProblem>> {
        let mut bad = Vec::new();
        let obj = objectives(form, scenario).map_err(|p| bad.extend(p)).ok();
        let space = space_file(form, scenario).map_err(|p| bad.extend(p)).ok();
        let opts = options(form).map_err(|p| bad.extend(p)).ok();
        for (ty, text) in &form.prices {
            if let Err(m) = price(ty, text) {
                bad.push(problem(price_key(ty), m));
            }
        }
        let (Some((obj, labels)), Some((space, space_labels)), Some(opts), true) =
            (obj, space, opts, bad.is_empty())
        else {
            return Err(bad);
        };
        let study = Study::new(scenario, &obj, &space, &opts)
            .map_err(|e| engine_problems(e, &labels, &space_labels))?;
        let max_runs = opts.max_runs;
        Ok(RecommendBuilder {
            study,
            objectives: obj,
            input: scenario.clone(),
            max_runs,
            labels,
            batch: Vec::new(),
            at: 0,
            outcomes: Vec::new(),
            sim: None,
        })
    }

    /// The run in progress (from 1) and the most there may be.
    pub fn progress(&self) -> (u64, u32) {
        let max = self.max_runs;
        ((self.study.runs_done() + self.outcomes.len() as u64 + 1).min(max as u64), max)
    }

    fn failed(&self, m: String) -> Outcome {
        Outcome {
            values: vec![None; self.study.verdicts().len()],
            metric: None,
            unfinished: 0,
            idle_seconds: vec![0.0; self.study.base(0).quota_shares.len()],
            span: 0,
            error: Some(m),
        }
    }

    /// A run of the current candidate ended: recorded with the candidate's others once every
    /// seed has run.
    fn ended(&mut self, o: Outcome) {
        self.outcomes.push(o);
        if self.outcomes.len() == self.study.seed_count() {
            let c = self.batch[self.at].clone();
            self.study.record(c, std::mem::take(&mut self.outcomes));
            self.at += 1;
        }
    }

    /// Works until the study is made or `out_of_time()` says to stop; returns what it
    /// recommends, or why there is nothing, once.
    pub fn advance(&mut self, out_of_time: &mut dyn FnMut() -> bool) -> Option<Result<Recommended, String>> {
        loop {
            if let Some((_, sim)) = self.sim.as_mut() {
                if !run_slice(sim, out_of_time) {
                    return None;
                }
                let (s, sim) = self.sim.take()?;
                let o = match sim.run_error() {
                    Some(e) => self.failed(e.to_string()),
                    None => self.study.outcome(
                        &s,
                        &SummaryResult {
                            format_version: 1,
                            ended_at: sim.ended_at(),
                            summary: sim.summary(),
                        },
                    ),
                };
                self.ended(o);
            } else if self.at < self.batch.len() {
                let k = self.outcomes.len();
                match self.study.scenario_of(&self.batch[self.at], k) {
                    Err(m) => self.ended(self.failed(m)),
                    Ok(s) => match quotasim::validate(&s) {
                        Err(ps) => {
                            let m = ps.first().map_or_else(String::new, |p| p.to_string());
                            self.ended(self.failed(m))
                        }
                        Ok(v) => {
                            let opts = Options { record_events: false, ..Options::default() };
                            self.sim = Some((s, Box::new(Simulation::with_options(v, opts))));
                        }
                    },
                }
            } else {
                match self.study.next() {
                    RecommendStep::Done(r) => {
                        let scenario = quotasim::recommend::recommended_scenario(&self.input, &r)
                            .map_err(|p| p.to_string());
                        return Some(Ok(Recommended {
                            report: *r,
                            labels: self.labels.clone(),
                            objectives: self.objectives.clone(),
                            input: self.input.clone(),
                            scenario,
                        }));
                    }
                    RecommendStep::Run(cs) => {
                        if cs.is_empty() {
                            return Some(Err("the study asked for nothing to run".into()));
                        }
                        self.batch = cs;
                        self.at = 0;
                    }
                }
            }
            if out_of_time() {
                return None;
            }
        }
    }
}

/// A metric's value as the page shows it: waits as durations, utilization in percent.
pub fn value_text(metric: &str, v: Option<f64>) -> String {
    let Some(x) = v else { return "none".into() };
    if metric.contains("Seconds") {
        format_duration(x.max(0.0).round() as u64)
    } else if metric.ends_with("utilization") {
        format!("{:.1} %", x * 100.0)
    } else if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.2}")
    }
}

/// An objective's words: the form's, or "no job left unfinished".
pub fn label_of(v: &VerdictOut, labels: &Labels) -> String {
    if v.objective == UNFINISHED {
        return "no job left unfinished".into();
    }
    v.objective
        .strip_prefix("objectives[")
        .and_then(|x| x.strip_suffix(']'))
        .and_then(|i| i.parse::<usize>().ok())
        .and_then(|i| labels.get(i).cloned())
        .unwrap_or_else(|| v.metric.clone())
}

/// What a broken objective is, by objective and value: `team-a: p95 wait at most 30 min (was 1 h)`.
pub fn broken_text(v: &VerdictOut, labels: &Labels) -> String {
    let value = if v.objective == UNFINISHED {
        format!("{} unfinished", value_text(&v.metric, v.value))
    } else {
        value_text(&v.metric, v.value)
    };
    format!("{} (is {value})", label_of(v, labels))
}

/// A list of what is broken: `breaks A; B`, or `meets every objective`.
pub fn breaks_text(vs: &[VerdictOut], labels: &Labels) -> String {
    if vs.is_empty() {
        "meets every objective".into()
    } else {
        format!("breaks {}", vs.iter().map(|v| broken_text(v, labels)).collect::<Vec<_>>().join("; "))
    }
}

/// The cost in words: `50 per hour`, `5 instances`.
pub fn cost_text(r: &RecommendReport, c: Option<f64>) -> String {
    let n = match c {
        None => return "no cost".into(),
        Some(x) if x.fract() == 0.0 => format!("{x:.0}"),
        Some(x) => format!("{x:.2}"),
    };
    match r.cost_unit.as_str() {
        "pricePerHour" => format!("{n} per hour"),
        "instances" => format!("{n} instances"),
        _ => n,
    }
}

/// The study's headline: what it found, at what cost, in how many runs.
pub fn headline(r: &RecommendReport) -> String {
    let runs = format!("{} runs of at most {}", r.runs, r.max_runs);
    if !r.feasible {
        return format!(
            "Nothing in the space meets every objective ({runs}). The closest candidate is below, with what it misses."
        );
    }
    let saves = match r.saves {
        Some(s) if s > 0.0 => format!(
            ", saving {} against the scenario's {}",
            cost_text(r, Some(s)),
            cost_text(r, r.input.cost)
        ),
        Some(_) => format!(", as the scenario's {}", cost_text(r, r.input.cost)),
        None => String::new(),
    };
    let proof = if r.proven {
        "every cheaper step ran and broke an objective"
    } else {
        "not proven: the run budget ran out first"
    };
    format!("Recommended: {}{saves}; {proof} ({runs}).", cost_text(r, r.recommended.cost))
}

/// The engine's words with the page's arrows.
fn arrows(w: &str) -> String {
    w.replace(" -> ", " → ")
}

fn joined(ws: &[String]) -> String {
    ws.iter().map(|w| arrows(w)).collect::<Vec<_>>().join("; ")
}

/// The recommendation in words, a line per share (or that the scenario is already it).
pub fn words(r: &RecommendReport) -> Vec<String> {
    if r.recommended.words.is_empty() {
        vec!["The scenario as it is: no change lowers the cost and keeps every objective.".into()]
    } else {
        r.recommended.words.iter().map(|w| arrows(w)).collect()
    }
}

/// What the closest candidate misses (nothing feasible).
pub fn misses(r: &RecommendReport, labels: &Labels) -> Vec<String> {
    r.recommended.verdicts.iter().filter(|v| !v.met).map(|v| broken_text(v, labels)).collect()
}

/// A certificate step in words, its retries collapsed into one line.
#[derive(Clone, Debug, PartialEq)]
pub struct StepView {
    pub words: String,
    pub breaks: String,
    /// `--set` changes from the input that reproduce it.
    pub set: String,
    /// The retries in one line (empty: none), and each retry.
    pub retries: String,
    pub each: Vec<String>,
}

/// The retries of a step in one line: how many, grouped by what they break, with the range of
/// each broken objective's values.
pub fn retries_text(rs: &[Retry], labels: &Labels) -> String {
    if rs.is_empty() {
        return String::new();
    }
    let key = |r: &Retry| r.breaks.iter().map(|b| b.objective.clone()).collect::<Vec<_>>();
    let mut groups: Vec<(Vec<String>, Vec<&Retry>)> = Vec::new();
    for r in rs {
        match groups.iter_mut().find(|g| g.0 == key(r)) {
            Some(g) => g.1.push(r),
            None => groups.push((key(r), vec![r])),
        }
    }
    let parts: Vec<String> = groups
        .iter()
        .map(|(_, g)| {
            let n = g.len();
            let what = g[0]
                .breaks
                .iter()
                .enumerate()
                .map(|(i, b)| {
                    let vals: Vec<f64> =
                        g.iter().filter_map(|r| r.breaks.get(i).and_then(|x| x.value)).collect();
                    let lo = vals.iter().copied().reduce(f64::min);
                    let hi = vals.iter().copied().reduce(f64::max);
                    let range = if lo == hi {
                        value_text(&b.metric, lo)
                    } else {
                        format!("{} to {}", value_text(&b.metric, lo), value_text(&b.metric, hi))
                    };
                    format!("{} (is {range})", label_of(b, labels))
                })
                .collect::<Vec<_>>();
            let verdict = if what.is_empty() {
                "meet every objective".to_string()
            } else {
                format!("break {}", what.join("; "))
            };
            format!(
                "{n} {}",
                if n == 1 {
                    format!(
                        "retry: {}",
                        verdict.replacen("break ", "breaks ", 1).replacen("meet ", "meets ", 1)
                    )
                } else {
                    format!("retries: all {verdict}")
                }
            )
        })
        .collect();
    format!("With the sharing re-chosen, {}", parts.join("; "))
}

/// The certificate in words, a step at a time.
pub fn certificate(r: &RecommendReport, labels: &Labels) -> Vec<StepView> {
    r.certificate
        .iter()
        .map(|c| StepView {
            words: joined(&c.words),
            breaks: breaks_text(&c.breaks, labels),
            set: c.set.join(" "),
            retries: retries_text(&c.retries, labels),
            each: c
                .retries
                .iter()
                .map(|x| format!("{}: {}", joined(&x.words), breaks_text(&x.breaks, labels)))
                .collect(),
        })
        .collect()
}

/// Each share's idle quota, scenario → recommended, in instances on average.
pub fn idle_quota(r: &RecommendReport) -> Vec<(String, String)> {
    let n = |x: Option<f64>| x.map_or("–".to_string(), |v| format!("{v:.2}"));
    r.idle_quota
        .iter()
        .map(|q| (q.quota_share_name.clone(), format!("{} → {}", n(q.input), n(q.recommended))))
        .collect()
}

/// "Run 37 of at most 1000".
pub fn progress_text((run, max): (u64, u32)) -> String {
    format!("Run {run} of at most {max}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn preset(id: &str) -> Scenario {
        crate::presets::builtin(id).unwrap()
    }

    fn form_with_wait(share: &str, wait: &str, unit: TimeUnit) -> RecommendForm {
        let mut f = RecommendForm::default();
        f.goals.insert(share.into(), ShareGoal { wait: wait.into(), unit, preemptions: String::new() });
        f
    }

    /// Makes the study in slices as the page does, each slice cut after one look at the clock.
    fn in_slices(s: &Scenario, f: &RecommendForm) -> (Recommended, usize) {
        let mut b = RecommendBuilder::new(s, f).unwrap();
        let mut slices = 0;
        loop {
            slices += 1;
            let (run, max) = b.progress();
            assert!(run >= 1 && run <= max as u64);
            if let Some(r) = b.advance(&mut || true) {
                return (r.unwrap(), slices);
            }
        }
    }

    #[test]
    fn the_form_makes_the_engines_objectives_in_seconds_and_fractions() {
        let s = preset("reserve-vs-lend");
        let mut f = form_with_wait("alpha", "30", TimeUnit::Minutes);
        f.goals.get_mut("alpha").unwrap().preemptions = "2".into();
        f.utilization = "70".into();
        let (o, labels) = objectives(&f, &s).unwrap();
        let m: Vec<_> = o.objectives.iter().map(|x| (x.metric.as_str(), x.min, x.max)).collect();
        assert_eq!(
            m,
            [
                ("perQuotaShare.alpha.waitSeconds.p95", None, Some(1800.0)),
                ("perQuotaShare.alpha.preemptions.total", None, Some(2.0)),
                ("overall.utilization", Some(0.7), None),
            ]
        );
        assert_eq!(
            labels,
            [
                "alpha: p95 wait at most 30 min",
                "alpha: preemptions at most 2",
                "overall utilization at least 70 %"
            ]
        );
    }

    #[test]
    fn bad_input_names_its_field_and_never_panics() {
        let s = preset("reserve-vs-lend");
        let mut f = form_with_wait("alpha", "soon", TimeUnit::Hours);
        f.goals.get_mut("alpha").unwrap().preemptions = "-1".into();
        f.utilization = "120".into();
        f.capacity.insert("ml.p4d.24xlarge".into(), Bound { min: "8".into(), max: "4".into(), fixed: false });
        f.quotas.insert(
            ("beta".into(), "ml.p4d.24xlarge".into()),
            Bound { min: "0".into(), max: "x".into(), fixed: false },
        );
        f.prices.insert("ml.p4d.24xlarge".into(), "ten".into());
        f.max_runs = "0".into();
        let e = RecommendBuilder::new(&s, &f).err().unwrap();
        let by: BTreeMap<String, String> = e.iter().map(|p| (p.field.clone(), p.message.clone())).collect();
        assert_eq!(by[&wait_key("alpha")], "alpha: p95 wait at most: 'soon' is not a number");
        assert_eq!(by[&preemptions_key("alpha")], "alpha: preemptions at most: -1 must be 0 or more");
        assert_eq!(by[UTILIZATION_KEY], "Overall utilization at least (%): 120 is more than 100");
        assert_eq!(
            by[&capacity_key("ml.p4d.24xlarge", "max")],
            "Capacity of ml.p4d.24xlarge, max: 4 is less than the min, 8"
        );
        assert_eq!(
            by[&quota_key("beta", "ml.p4d.24xlarge", "max")],
            "beta's quota of ml.p4d.24xlarge, max: 'x' is not a whole number"
        );
        assert_eq!(
            by[&price_key("ml.p4d.24xlarge")],
            "Price per hour of ml.p4d.24xlarge: 'ten' is not a number"
        );
        assert_eq!(by[MAX_RUNS_KEY], "Runs at most: 0 must be from 1 to 1000000");
    }

    #[test]
    fn the_bounds_make_a_space_file_the_engine_accepts() {
        let s = preset("reserve-vs-lend");
        let mut f = RecommendForm::default();
        f.capacity
            .insert("ml.p4d.24xlarge".into(), Bound { min: "6".into(), max: String::new(), fixed: false });
        f.quotas
            .insert(("alpha".into(), "ml.p4d.24xlarge".into()), Bound { fixed: true, ..Bound::default() });
        f.sharing_fixed.insert("gamma".into());
        let (file, _) = space_file(&f, &s).unwrap();
        let json = serde_json::to_value(&file).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "formatVersion": 1,
                "axes": [{"path": "serviceEnvironment.capacityLimits[ml.p4d.24xlarge].maxCapacity", "range": {"from": 6.0, "to": 24.0, "step": 1.0}}],
                "fixed": ["quotaShares[alpha].capacityLimits[ml.p4d.24xlarge].maxCapacity", "quotaShares[gamma].resourceSharingConfiguration"]
            })
        );
        assert_eq!(default_max(&s, "ml.p4d.24xlarge"), 24);
        assert!(quotasim::recommend::space::build_space(&s, &file).is_ok());
    }

    #[test]
    fn a_study_made_in_slices_is_the_engines_report() {
        for (id, share) in [("reserve-vs-lend", "alpha"), ("notebook", "qs1")] {
            let s = preset(id);
            let f = form_with_wait(share, "30", TimeUnit::Minutes);
            let (rec, slices) = in_slices(&s, &f);
            let (o, _) = objectives(&f, &s).unwrap();
            let at_once =
                quotasim::recommend::recommend(&s, &o, &SpaceFile::default(), &RecommendOptions::default())
                    .unwrap();
            assert_eq!(quotasim::json::to_json(&rec.report), quotasim::json::to_json(&at_once), "{id}");
            // Each run is at least a start and an end slice.
            assert!(slices as u64 > rec.report.runs, "{slices} slices for {} runs", rec.report.runs);
            let b = rec.scenario.unwrap();
            assert!(quotasim::validate(&b).is_ok());
            assert_eq!(b, quotasim::recommend::recommended_scenario(&s, &at_once).unwrap());
        }
    }

    #[test]
    fn the_answer_in_words_with_its_certificate_and_idle_quota() {
        let s = preset("reserve-vs-lend");
        let (rec, _) = in_slices(&s, &form_with_wait("alpha", "30", TimeUnit::Minutes));
        let r = &rec.report;
        assert!(r.feasible && r.proven);
        let h = headline(r);
        assert!(
            h.starts_with("Recommended: 4 instances, saving 8 instances against the scenario's 12 instances"),
            "{h}"
        );
        assert!(words(r).iter().any(|w| w.starts_with("serviceEnvironment: 12 → 4")), "{:?}", words(r));
        let cert = certificate(r, &rec.labels);
        assert!(!cert.is_empty());
        for c in &cert {
            assert!(c.breaks.starts_with("breaks "), "{}", c.breaks);
            assert!(c.set.contains('='), "{}", c.set);
        }
        assert!(cert[0].breaks.contains("no job left unfinished (is "), "{}", cert[0].breaks);
        let idle = idle_quota(r);
        assert_eq!(idle.iter().map(|x| x.0.as_str()).collect::<Vec<_>>(), ["alpha", "beta", "gamma"]);
        assert!(idle.iter().all(|x| x.1.contains(" → ")));
        assert_eq!(progress_text((37, 1000)), "Run 37 of at most 1000");
    }

    #[test]
    fn retries_collapse_into_one_line_per_step() {
        let mk = |v: f64| Retry {
            step: vec![],
            words: vec!["a: LEND -> RESERVE".into()],
            breaks: vec![VerdictOut {
                objective: "objectives[0]".into(),
                metric: "perQuotaShare.a.waitSeconds.p95".into(),
                min: None,
                max: Some(900.0),
                value: Some(v),
                slack: None,
                met_on_seeds: 0,
                met: false,
            }],
        };
        let labels = vec!["a: p95 wait at most 15 min".to_string()];
        assert_eq!(
            retries_text(&[mk(3600.0), mk(7200.0), mk(3600.0)], &labels),
            "With the sharing re-chosen, 3 retries: all break a: p95 wait at most 15 min (is 1 h to 2 h)"
        );
        assert_eq!(
            retries_text(&[mk(3600.0)], &labels),
            "With the sharing re-chosen, 1 retry: breaks a: p95 wait at most 15 min (is 1 h)"
        );
        assert_eq!(retries_text(&[], &labels), "");
    }

    #[test]
    fn nothing_feasible_shows_the_closest_candidate_and_what_it_misses() {
        let s = preset("reserve-vs-lend");
        let mut f = RecommendForm { utilization: "100".into(), ..RecommendForm::default() };
        f.max_runs = "200".into();
        let (rec, _) = in_slices(&s, &f);
        let r = &rec.report;
        assert!(!r.feasible);
        assert!(headline(r).starts_with("Nothing in the space meets every objective"), "{}", headline(r));
        let m = misses(r, &rec.labels);
        assert!(m.iter().any(|x| x.starts_with("overall utilization at least 100 % (is ")), "{m:?}");
    }

    #[test]
    fn no_objective_is_refused_by_name() {
        let e = RecommendBuilder::new(&preset("reserve-vs-lend"), &RecommendForm::default()).err().unwrap();
        assert_eq!(e[0].field, wait_key("alpha"));
        assert!(e[0].message.starts_with("Objectives: set at least one"), "{}", e[0].message);
    }
}
