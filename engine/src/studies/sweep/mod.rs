//! Sweeps: many variants of one scenario, and the trade-off frontier among them.
//!
//! A sweep file names a base scenario, axes (a change path and its values or a range) and,
//! optionally, frontier objectives:
//!
//! ```json
//! { "formatVersion": 1,
//!   "base": "scenario.json",
//!   "axes": [
//!     { "path": "quotaShares[team-a].resourceSharingConfiguration.borrowLimit", "values": [-1, 0, 50] },
//!     { "path": "settings.preemptionGraceSeconds", "range": { "from": 60, "to": 600, "step": 60 } } ],
//!   "frontier": [ "overall.utilization:max", "perQuotaShare.team-a.waitSeconds.p95:min" ] }
//! ```
//!
//! Rows are the cartesian product of the axes, the last axis fastest, numbered from 0; row
//! `k`'s changes are one value of each axis, in axis order ([`crate::change`]).

pub mod merge;
pub mod seeds;

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize, Serializer};
use serde_json::Value;

use crate::change::{apply_changes, check_change, Change};
use crate::compare::{run_to_end, summary_of};
use crate::json::to_json;
use crate::metric::{check_path, resolve, summary_value};
use crate::model::Scenario;
use crate::result::SummaryResult;
use crate::validate::Problem;
use seeds::{check_replicates, run_point, SeedBase};

/// The most rows a sweep may have unless the caller allows more.
pub const DEFAULT_MAX_ROWS: u64 = 100_000;

/// A sweep file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SweepFile {
    #[serde(default = "one")]
    pub format_version: i64,
    /// A scenario file's path (relative to the sweep file), or a scenario.
    pub base: Value,
    pub axes: Vec<Axis>,
    #[serde(default)]
    pub frontier: Vec<String>,
    /// Run every parameter point on this many seeds of the base's `workload` (`seed`,
    /// `seed + 1`, ...) and report the median, min and max over them;
    /// 1 (the default) runs each point once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicates: Option<u32>,
}

fn one() -> i64 {
    1
}

/// One varied parameter.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Axis {
    pub path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<Range>,
}

/// `from`, `from + step`, ... up to `to` inclusive.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Range {
    pub from: f64,
    pub to: f64,
    pub step: f64,
}

/// A frontier objective: a metric path, maximised or minimised.
#[derive(Clone, Debug, PartialEq)]
pub struct Goal {
    pub metric: String,
    pub maximise: bool,
}

/// A checked sweep: every axis's values, and the frontier goals.
#[derive(Clone, Debug, PartialEq)]
pub struct Sweep {
    pub axes: Vec<(String, Vec<Value>)>,
    pub goals: Vec<Goal>,
    pub rows: u64,
    /// What makes this sweep this sweep ([`fingerprint`]): every row carries it, so that
    /// shards of another sweep are never merged with its rows.
    pub fingerprint: String,
    /// A replicated sweep's seeds, each with the base its points run on; empty for one run
    /// per point.
    pub seeds: Vec<SeedBase>,
}

/// Parses a sweep file (strictly: objects only where the format has them, nothing after).
pub fn parse_sweep(text: &str) -> Result<SweepFile, Problem> {
    crate::strict::from_json(text, "sweep")
}

/// `from + k * step` for `k` in `0..=n`, each rounded to the decimals `from` and `step` are
/// written with (so 0.1 by 0.1 gives 0.3, not 0.30000000000000004), and none past `to`.
pub(crate) fn range_values(r: &Range, n: u64) -> Vec<Value> {
    let decimals = |x: f64| format!("{x}").split_once('.').map_or(0, |(_, d)| d.len());
    let d = decimals(r.from).max(decimals(r.step));
    (0..=n)
        .map(|k| {
            let x = r.from + k as f64 * r.step;
            if d == 0 {
                x
            } else {
                format!("{x:.d$}").parse().unwrap_or(x)
            }
        })
        .filter(|x| *x <= r.to)
        .map(number)
        .collect()
}

/// A whole number up to 2^53 - 1 (inclusive) is an integer; anything else a float.
fn number(x: f64) -> Value {
    if x == libm::trunc(x) && x.abs() <= crate::validate::MAX_SAFE as f64 {
        Value::from(x as i64)
    } else {
        serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number)
    }
}

/// Checks a sweep file against its base scenario: the row count must be at most `max_rows`,
/// refused before any value is applied; then every axis's values are applied to the base once
/// (copying only what each change edits), so a path that names nothing or a value of the
/// wrong type is refused before anything runs, naming the axis.
pub fn check_sweep(f: &SweepFile, base: &Scenario, max_rows: u64) -> Result<Sweep, Vec<Problem>> {
    let mut problems = Vec::new();
    if f.format_version != 1 {
        problems.push(Problem::error(
            "formatVersion",
            format!("formatVersion must be 1, not {}", f.format_version),
        ));
    }
    if f.axes.is_empty() {
        problems.push(Problem::error("axes", "a sweep needs at least one axis"));
    }
    // Axis index, path and values.
    let mut axes: Vec<(usize, String, Vec<Value>)> = Vec::new();
    let mut rows: u128 = 1;
    for (i, a) in f.axes.iter().enumerate() {
        let p = format!("axes[{i}]");
        if a.path.contains('=') {
            // A row's changes are PATH=VALUE: `run --set` could not reproduce it.
            problems.push(Problem::error(format!("{p}.path"), format!("`{}`: a path has no `=`", a.path)));
            continue;
        }
        let values: Vec<Value> = match (&a.values, &a.range) {
            (Some(v), None) => v.clone(),
            (None, Some(r)) => {
                if r.step.is_nan() || r.step <= 0.0 || !r.from.is_finite() || !r.to.is_finite() {
                    problems.push(Problem::error(format!("{p}.range.step"), "step must be a number above 0"));
                    continue;
                }
                if r.to < r.from {
                    problems.push(Problem::error(format!("{p}.range.to"), "to is below from"));
                    continue;
                }
                // A tolerance for the division: 0.1 to 0.3 by 0.1 is three values, not two.
                let n = libm::floor((r.to - r.from) / r.step + 1e-9);
                if n > max_rows as f64 {
                    let m = format!("{} values, more than the {max_rows} rows allowed (--max-rows)", n + 1.0);
                    problems.push(Problem::error(format!("{p}.range"), m));
                    continue;
                }
                range_values(r, n as u64)
            }
            _ => {
                problems.push(Problem::error(p.clone(), "an axis has either values or a range"));
                continue;
            }
        };
        if values.is_empty() {
            problems.push(Problem::error(format!("{p}.values"), "an axis needs at least one value"));
            continue;
        }
        rows = rows.saturating_mul(values.len() as u128);
        axes.push((i, a.path.clone(), values));
    }
    if rows > max_rows as u128 {
        // Refused before any value is applied: that costs a copy of what each change edits.
        problems.push(Problem::error(
            "axes",
            format!(
                "{rows} rows ({}), more than the {max_rows} allowed (--max-rows)",
                axes.iter().map(|(_, p, v)| format!("{} of {p}", v.len())).collect::<Vec<_>>().join(" × ")
            ),
        ));
    } else {
        for (i, path, values) in &axes {
            for (k, v) in values.iter().enumerate() {
                let c = Change { path: path.clone(), value: v.clone() };
                if let Err(e) = check_change(base, &c) {
                    let a = &f.axes[*i];
                    let at = if a.values.is_some() {
                        format!("axes[{i}].values[{k}]")
                    } else {
                        format!("axes[{i}].range")
                    };
                    problems.push(Problem::error(at, format!("{path}: {}", e.message)));
                    break;
                }
            }
        }
    }
    // The seeds are expanded only when every axis applies (a refused sweep costs nothing).
    let seeds = match check_replicates(f, base, &axes, problems.is_empty()) {
        Ok(seeds) => seeds,
        Err(p) => {
            problems.extend(p);
            Vec::new()
        }
    };
    let axes: Vec<(String, Vec<Value>)> = axes.into_iter().map(|(_, p, v)| (p, v)).collect();
    let mut goals = Vec::new();
    for (i, g) in f.frontier.iter().enumerate() {
        let Some(goal) = Goal::parse(g) else {
            problems
                .push(Problem::error(format!("frontier[{i}]"), format!("`{g}` is METRIC:max or METRIC:min")));
            continue;
        };
        let metric = goal.metric.as_str();
        if let Err(m) = check_path(metric) {
            problems.push(Problem::error(format!("frontier[{i}]"), m));
            continue;
        }
        if metric.contains('*') {
            problems.push(Problem::error(
                format!("frontier[{i}]"),
                format!("`{metric}`: a goal is one number; name the share instead of `*`"),
            ));
            continue;
        }
        goals.push(goal);
    }
    if problems.is_empty() {
        let seed_list: Vec<i64> = seeds.iter().map(|s| s.seed).collect();
        let fingerprint = fingerprint(base, &axes, &goals, &seed_list);
        Ok(Sweep { axes, goals, rows: rows as u64, fingerprint, seeds })
    } else {
        Err(problems)
    }
}

/// The first line of a sweep's canonical form: its axes (paths and values, a range written
/// out), its goals, its replicates and (when more than one) their seeds.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Canonical<'a> {
    format_version: u32,
    axes: Vec<CanonicalAxis<'a>>,
    frontier: Vec<String>,
    replicates: u32,
    #[serde(skip_serializing_if = "<[i64]>::is_empty")]
    seeds: &'a [i64],
}

#[derive(Serialize)]
struct CanonicalAxis<'a> {
    path: &'a str,
    values: &'a [Value],
}

/// A sweep's fingerprint: `sha256:` and the SHA-256, in hex, of its canonical JSON lines,
/// joined by `\n`: `{"formatVersion":1,"axes":[{"path":…,"values":[…]},…],"frontier":[…],"replicates":1}`
/// (a replicated sweep: `"replicates":N,"seeds":[…]`),
/// then the base scenario as compact JSON without its jobs (`"jobs":[]`), then each job as
/// compact JSON, in order. The same sweep gives the same fingerprint whether its base is a
/// file or inline, formatted any way, and a range or its values listed; another base, other
/// values or other goals give another.
pub fn fingerprint(base: &Scenario, axes: &[(String, Vec<Value>)], goals: &[Goal], seeds: &[i64]) -> String {
    use sha2::{Digest, Sha256};
    let head = Canonical {
        format_version: 1,
        axes: axes.iter().map(|(p, v)| CanonicalAxis { path: p, values: v }).collect(),
        frontier: goals.iter().map(Goal::text).collect(),
        replicates: seeds.len().max(1) as u32,
        seeds,
    };
    let mut h = Sha256::new();
    h.update(to_json(&head).as_bytes());
    h.update(b"\n");
    // Job by job: a million jobs are never one string.
    let rest = Scenario {
        format_version: base.format_version,
        name: base.name.clone(),
        description: base.description.clone(),
        settings: base.settings.clone(),
        instance_types: base.instance_types.clone(),
        service_environment: base.service_environment.clone(),
        scheduling_policy: base.scheduling_policy.clone(),
        quota_shares: base.quota_shares.clone(),
        workload: base.workload.clone(),
        jobs: Vec::new(),
        actions: base.actions.clone(),
        history: base.history.clone(),
    };
    h.update(to_json(&rest).as_bytes());
    for j in &base.jobs {
        h.update(b"\n");
        h.update(to_json(j).as_bytes());
    }
    let mut out = String::from("sha256:");
    for b in h.finalize() {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

impl Sweep {
    /// The values of row `k`, one per axis (the last axis varies fastest).
    pub fn values(&self, mut k: u64) -> Vec<Value> {
        let mut out = alloc::vec![Value::Null; self.axes.len()];
        for (i, (_, vals)) in self.axes.iter().enumerate().rev() {
            let n = vals.len() as u64;
            out[i] = vals[(k % n) as usize].clone();
            k /= n;
        }
        out
    }

    /// The changes of row `k`.
    pub fn changes(&self, k: u64) -> Vec<Change> {
        self.axes
            .iter()
            .zip(self.values(k))
            .map(|((path, _), value)| Change { path: path.clone(), value })
            .collect()
    }
}

impl Goal {
    /// The goal as written in a sweep file: `METRIC:max` or `METRIC:min`.
    pub fn text(&self) -> String {
        format!("{}:{}", self.metric, if self.maximise { "max" } else { "min" })
    }

    /// A goal from its `METRIC:max` / `METRIC:min` form.
    pub fn parse(text: &str) -> Option<Goal> {
        let (metric, dir) = text.rsplit_once(':')?;
        let maximise = match dir {
            "max" => true,
            "min" => false,
            _ => return None,
        };
        Some(Goal { metric: metric.to_string(), maximise })
    }
}

/// One row's outcome: `quotasim sweep`'s JSONL line. `frontier` is the last field, so that a
/// row can be printed before the front is known and the flag appended (and set again by
/// `sweep-merge`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SweepRow {
    pub row: u64,
    /// The sweep's number of rows, so that a merge knows when one is missing.
    pub rows: u64,
    /// The sweep's [`fingerprint`], so that a merge refuses rows of another sweep.
    pub fingerprint: String,
    pub values: Vec<Value>,
    pub changes: Vec<String>,
    /// A replicated sweep: how many seeds each point ran on, and which.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicates: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seeds: Option<Vec<i64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<SummaryResult>,
    /// A replicated sweep: the summary's shape with every number replaced by its
    /// `{median, min, max}` over the seeds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stats: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub objectives: Option<GoalValues>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frontier: Option<bool>,
}

/// Each goal's value as the summary has it, `{"METRIC:max": value, ...}` in the sweep file's
/// order; in a replicated sweep each value is `{median, min, max}` over the seeds.
#[derive(Clone, Debug, PartialEq)]
pub struct GoalValues(pub Vec<(String, Value)>);

impl Serialize for GoalValues {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// The value at a metric path (checked with [`check_goals`]) of a summary result.
pub(crate) fn metric_value<'a>(summary: &'a Value, metric: &str) -> &'a Value {
    let mut segs = metric.split('.');
    let mut cur = match segs.next() {
        Some(top @ ("endedAt" | "formatVersion")) => &summary[top],
        Some(top) => &summary["summary"][top],
        None => &Value::Null,
    };
    for s in segs {
        cur = &cur[s];
    }
    cur
}

/// A goal's number as it reads back from the printed row (what `sweep-merge` sees): the value,
/// or in a replicated sweep its median.
pub fn as_read(v: &Value) -> Option<f64> {
    let v = v.get("median").unwrap_or(v);
    serde_json::from_str::<Value>(&to_json(v)).ok().and_then(|v| v.as_f64())
}

/// Runs row `k` of a sweep over `base`: its summary, or why it could not run. `frontier` is
/// left unset (it needs every row). A replicated sweep runs the point on each seed's base
/// ([`seeds::run_point`]) and reports its statistics instead of one summary.
pub fn run_row(base: &Scenario, sweep: &Sweep, k: u64) -> SweepRow {
    if !sweep.seeds.is_empty() {
        return run_point(sweep, k);
    }
    let changes = sweep.changes(k);
    let (summary, error) = match run_variant(base, &changes) {
        Ok(r) => (Some(r), None),
        Err(e) => (None, Some(e)),
    };
    let objectives = objectives_of(sweep, summary.as_ref().map(summary_value).as_ref());
    SweepRow {
        row: k,
        rows: sweep.rows,
        fingerprint: sweep.fingerprint.clone(),
        values: sweep.values(k),
        changes: changes.iter().map(|c| c.text()).collect(),
        replicates: None,
        seeds: None,
        summary,
        stats: None,
        error,
        objectives,
        frontier: None,
    }
}

/// `s` with `changes`, validated, run to its end and summarised; or why it could not run, as a
/// row's `error` says it.
pub(crate) fn run_variant(s: &Scenario, changes: &[Change]) -> Result<SummaryResult, String> {
    let changed = apply_changes(s, changes).map_err(|p| p.to_string())?;
    let valid = crate::validate::validate(&changed)
        .map_err(|p| p.iter().map(|x| x.to_string()).collect::<Vec<_>>().join("; "))?;
    run_to_end(valid, false).map(|r| summary_of(&r)).map_err(|e| e.to_string())
}

/// Each goal's value at its metric path of `shape` (a summary, or a replicated row's
/// statistics), `null` without one; `None` for a sweep without goals.
pub(crate) fn objectives_of(sweep: &Sweep, shape: Option<&Value>) -> Option<GoalValues> {
    (!sweep.goals.is_empty()).then(|| {
        let value = |g: &Goal| shape.map_or(Value::Null, |s| metric_value(s, &g.metric).clone());
        GoalValues(sweep.goals.iter().map(|g| (g.text(), value(g))).collect())
    })
}

/// A row's goal values as they read back from its printed form, for [`pareto`].
pub fn front_values(row: &SweepRow) -> Vec<Option<f64>> {
    row.objectives.as_ref().map_or(Vec::new(), |o| o.0.iter().map(|(_, v)| as_read(v)).collect())
}

/// Every row of a sweep, in index order, with `frontier` set when the sweep has goals: what
/// `quotasim sweep` prints, on one thread (the npm package and the playground).
pub fn run_all(base: &Scenario, sweep: &Sweep) -> Vec<SweepRow> {
    let mut rows: Vec<SweepRow> = (0..sweep.rows).map(|k| run_row(base, sweep, k)).collect();
    if !sweep.goals.is_empty() {
        let vals: Vec<Vec<Option<f64>>> = rows.iter().map(front_values).collect();
        for (r, on) in rows.iter_mut().zip(pareto(&sweep.goals, &vals)) {
            r.frontier = Some(on);
        }
    }
    rows
}

/// The base without its jobs and actions: its run is instant and its summary has every share
/// and every metric of the base's, so frontier goals are checked on it before anything runs.
pub fn shape_of(base: &Scenario) -> Scenario {
    Scenario {
        format_version: base.format_version,
        name: None,
        description: None,
        settings: base.settings.clone(),
        instance_types: base.instance_types.clone(),
        service_environment: base.service_environment.clone(),
        scheduling_policy: base.scheduling_policy.clone(),
        quota_shares: base.quota_shares.clone(),
        workload: None,
        jobs: Vec::new(),
        actions: Vec::new(),
        history: Vec::new(),
    }
}

/// Checks that every goal names one number of `summary` (from [`crate::metric::summary_value`]).
pub fn check_goals(goals: &[Goal], summary: &Value) -> Result<(), Vec<Problem>> {
    let problems: Vec<Problem> = goals
        .iter()
        .enumerate()
        .filter_map(|(i, g)| match resolve(summary, &g.metric) {
            Ok(v) if v.len() == 1 => None,
            Ok(_) => {
                Some(Problem::error(format!("frontier[{i}]"), format!("`{}` is not one number", g.metric)))
            }
            Err(m) => Some(Problem::error(format!("frontier[{i}]"), m)),
        })
        .collect();
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

/// Each goal's value in `summary`; `None` where the metric is `null` (or missing).
pub fn goal_values(goals: &[Goal], summary: &Value) -> Vec<Option<f64>> {
    goals
        .iter()
        .map(|g| resolve(summary, &g.metric).ok().and_then(|v| v.first().and_then(|m| m.value)))
        .collect()
}

/// Which rows are on the Pareto front of `goals`, given each row's goal values (`None`: the
/// metric has no value there; such a row is never on the front). A row is off the front when
/// another is at least as good on every goal and strictly better on one; rows that tie on
/// every goal are all on it or all off.
///
/// Rows are taken best first in lexicographic order of the goals, so that a row can only be
/// beaten by one taken before it, and only the front so far is compared with: about `n · f`
/// comparisons for `f` rows on the front, not `n²`.
pub fn pareto(goals: &[Goal], rows: &[Vec<Option<f64>>]) -> Vec<bool> {
    let mut on = alloc::vec![false; rows.len()];
    if goals.is_empty() {
        return on;
    }
    // Every goal oriented so that more is better.
    let mut cand: Vec<(usize, Vec<f64>)> = rows
        .iter()
        .enumerate()
        .filter(|(_, r)| r.len() == goals.len())
        .filter_map(|(i, r)| {
            let key: Option<Vec<f64>> = r
                .iter()
                .zip(goals)
                .map(|(v, g)| v.filter(|x| !x.is_nan()).map(|x| if g.maximise { x } else { -x }))
                .collect();
            key.map(|k| (i, k))
        })
        .collect();
    cand.sort_by(|a, b| {
        let lex = a.1.iter().zip(&b.1).map(|(x, y)| y.total_cmp(x)).find(|o| o.is_ne());
        lex.unwrap_or(core::cmp::Ordering::Equal).then(a.0.cmp(&b.0))
    });
    let dominates =
        |a: &[f64], b: &[f64]| a.iter().zip(b).all(|(x, y)| x >= y) && a.iter().zip(b).any(|(x, y)| x > y);
    let mut front: Vec<usize> = Vec::new();
    for c in 0..cand.len() {
        if !front.iter().any(|&f| dominates(&cand[f].1, &cand[c].1)) {
            front.push(c);
            on[cand[c].0] = true;
        }
    }
    on
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOTEBOOK: &str = include_str!("../../../../tests/fixtures/notebook.json");

    fn base() -> Scenario {
        crate::json::parse_scenario(NOTEBOOK).unwrap()
    }

    fn sweep(text: &str) -> Result<Sweep, Vec<Problem>> {
        check_sweep(&parse_sweep(text).unwrap(), &base(), DEFAULT_MAX_ROWS)
    }

    #[test]
    fn rows_are_the_product_last_axis_fastest() {
        let s = sweep(
            r#"{"base":"x","axes":[
              {"path":"quotaShares[qs1].resourceSharingConfiguration.borrowLimit","values":[0,100]},
              {"path":"settings.preemptionGraceSeconds","range":{"from":60,"to":180,"step":60}}]}"#,
        )
        .unwrap();
        assert_eq!(s.rows, 6);
        let vals: Vec<Vec<Value>> = (0..6).map(|k| s.values(k)).collect();
        assert_eq!(vals[0], alloc::vec![Value::from(0), Value::from(60)]);
        assert_eq!(vals[2], alloc::vec![Value::from(0), Value::from(180)]);
        assert_eq!(vals[3], alloc::vec![Value::from(100), Value::from(60)]);
        assert_eq!(s.changes(5)[1].text(), "settings.preemptionGraceSeconds=180");
    }

    #[test]
    fn bad_axes_are_refused_naming_the_axis() {
        let cases = [
            (r#"{"base":"x","axes":[]}"#, "axes"),
            (
                r#"{"base":"x","axes":[{"path":"quotaShares[zz].state","values":["DISABLED"]}]}"#,
                "axes[0].values[0]",
            ),
            (
                r#"{"base":"x","axes":[{"path":"settings.preemptionGraceSeconds","values":[1,"soon"]}]}"#,
                "axes[0].values[1]",
            ),
            (
                r#"{"base":"x","axes":[{"path":"settings.preemptionGraceSeconds","values":[]}]}"#,
                "axes[0].values",
            ),
            (
                r#"{"base":"x","axes":[{"path":"settings.preemptionGraceSeconds","range":{"from":1,"to":5,"step":0}}]}"#,
                "axes[0].range.step",
            ),
            (r#"{"base":"x","axes":[{"path":"settings.preemptionGraceSeconds"}]}"#, "axes[0]"),
            (
                r#"{"base":"x","axes":[{"path":"settings.preemptionGraceSeconds","range":{"from":5,"to":1,"step":1}}]}"#,
                "axes[0].range.to",
            ),
            (r#"{"base":"x","axes":[{"path":"jobs[a=b].x","values":[1]}]}"#, "axes[0].path"),
            (
                r#"{"base":"x","axes":[{"path":"settings.backfill","values":[true]}],"frontier":["perQuotaShare.*.jobs:max"]}"#,
                "frontier[0]",
            ),
            (
                r#"{"base":"x","axes":[{"path":"settings.backfill","values":[true]}],"frontier":["overall.utilization"]}"#,
                "frontier[0]",
            ),
        ];
        for (text, path) in cases {
            let e = sweep(text).unwrap_err();
            assert_eq!(e[0].path, path, "{text}: {e:?}");
        }
        let big = r#"{"base":"x","axes":[{"path":"settings.preemptionGraceSeconds","range":{"from":0,"to":1000,"step":1}},
                      {"path":"settings.scheduledSeconds","range":{"from":0,"to":1000,"step":1}}]}"#;
        let e = sweep(big).unwrap_err();
        assert!(e[0].message.contains("1002001 rows (1001 of settings.preemptionGraceSeconds × 1001 of settings.scheduledSeconds), more than the 100000 allowed"), "{e:?}");
        assert!(parse_sweep(r#"{"base":"x","axes":[[1]]}"#).is_err(), "an array for an axis");
    }

    #[test]
    fn too_many_rows_are_refused_before_any_value_is_applied() {
        // Every value is wrong for its field: applying them would find that, but the row count
        // is refused first, alone.
        let values: Vec<String> = (0..400).map(|k| alloc::format!("\"v{k}\"")).collect();
        let text = alloc::format!(
            r#"{{"base":"x","axes":[{{"path":"settings.preemptionGraceSeconds","values":[{v}]}},
                                   {{"path":"settings.scheduledSeconds","values":[{v}]}}]}}"#,
            v = values.join(",")
        );
        let e = sweep(&text).unwrap_err();
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!(e[0].path, "axes");
        assert!(e[0].message.starts_with("160000 rows (400 of settings.preemptionGraceSeconds"), "{e:?}");
    }

    #[test]
    fn a_range_may_end_at_the_largest_exact_number() {
        let s = sweep(
            r#"{"base":"x","axes":[{"path":"settings.horizonSeconds",
                 "range":{"from":9007199254740989,"to":9007199254740991,"step":1}}]}"#,
        )
        .unwrap();
        let want: Vec<Value> = (9_007_199_254_740_989i64..=9_007_199_254_740_991).map(Value::from).collect();
        assert_eq!(s.axes[0].1, want);
    }

    #[test]
    fn the_fingerprint_is_the_sweep_not_how_it_is_written() {
        let print = |text: &str, base: &Scenario| {
            check_sweep(&parse_sweep(text).unwrap(), base, 1000).unwrap().fingerprint
        };
        let ranged = r#"{"base":"x","axes":[{"path":"settings.preemptionGraceSeconds","range":{"from":60,"to":180,"step":60}}],
                        "frontier":["overall.utilization:max"]}"#;
        let listed = r#"{"base":"y","axes":[{"path":"settings.preemptionGraceSeconds","values":[60,120,180]}],
                        "frontier":["overall.utilization:max"]}"#;
        let pretty: Value = serde_json::from_str(NOTEBOOK).unwrap();
        let reformatted = crate::json::parse_scenario(&crate::json::to_json_pretty(&pretty)).unwrap();
        let f = print(ranged, &base());
        assert!(f.starts_with("sha256:") && f.len() == 7 + 64, "{f}");
        assert_eq!(f, print(listed, &base()));
        assert_eq!(f, print(ranged, &reformatted));
        // Another value, goal or base is another sweep.
        assert_ne!(f, print(&listed.replace("180]", "240]"), &base()));
        assert_ne!(f, print(&listed.replace(":max", ":min"), &base()));
        let mut other = base();
        other.jobs[0].duration_seconds = other.jobs[0].duration_seconds.map(|d| d + 1);
        assert_ne!(f, print(listed, &other));
        other = base();
        other.settings.backfill = !other.settings.backfill;
        assert_ne!(f, print(listed, &other));
    }

    #[test]
    fn the_front_keeps_rows_no_other_beats_on_every_goal() {
        let goals = alloc::vec![
            Goal { metric: "a".into(), maximise: true },
            Goal { metric: "b".into(), maximise: false },
        ];
        let rows = alloc::vec![
            alloc::vec![Some(1.0), Some(10.0)], // front: best b
            alloc::vec![Some(2.0), Some(20.0)], // front: a trade-off
            alloc::vec![Some(2.0), Some(30.0)], // dominated by row 1
            alloc::vec![Some(3.0), Some(40.0)], // front: best a
            alloc::vec![None, Some(1.0)],       // no value: never on the front
            alloc::vec![Some(3.0), Some(40.0)], // a tie with row 3: both stay
        ];
        assert_eq!(pareto(&goals, &rows), alloc::vec![true, true, false, true, false, true]);
    }

    #[test]
    fn ranges_include_to_when_steps_reach_it_and_keep_their_decimals() {
        let vals = |from: f64, to: f64, step: f64| -> Vec<Value> {
            let n = libm::floor((to - from) / step + 1e-9) as u64;
            range_values(&Range { from, to, step }, n)
        };
        let ints = |v: &[i64]| v.iter().map(|x| Value::from(*x)).collect::<Vec<_>>();
        assert_eq!(vals(4.0, 16.0, 4.0), ints(&[4, 8, 12, 16]));
        assert_eq!(vals(4.0, 15.0, 4.0), ints(&[4, 8, 12]), "16 is past `to`");
        assert_eq!(vals(7.0, 7.0, 1.0), ints(&[7]));
        let tenths = vals(0.1, 0.3, 0.1);
        assert_eq!(tenths, alloc::vec![Value::from(0.1), Value::from(0.2), Value::from(0.3)]);
        assert_eq!(vals(0.0, 1.0, 0.25).len(), 5);
    }

    #[test]
    fn values_are_any_json_and_whole_numbers_print_as_integers() {
        let s = sweep(
            r#"{"base":"x","axes":[
              {"path":"quotaShares[qs1].resourceSharingConfiguration","values":[{"strategy":"RESERVE"},{"strategy":"LEND"}]},
              {"path":"settings.preemptionGraceSeconds","range":{"from":0,"to":600,"step":300}}]}"#,
        )
        .unwrap();
        assert_eq!(s.rows, 6);
        assert_eq!(
            s.changes(4).iter().map(Change::text).collect::<Vec<_>>(),
            alloc::vec![
                r#"quotaShares[qs1].resourceSharingConfiguration={"strategy":"LEND"}"#.to_string(),
                "settings.preemptionGraceSeconds=300".to_string()
            ]
        );
    }

    #[test]
    fn frontier_goals_are_checked_on_the_shape_of_the_base() {
        use crate::{validate, Simulation};
        let mut sim = Simulation::new(validate(&shape_of(&base())).unwrap());
        sim.run();
        let shape = crate::metric::summary_value(&sim.summary_result());
        let goals = |g: &[&str]| g.iter().map(|x| Goal::parse(x).unwrap()).collect::<Vec<_>>();
        assert!(check_goals(
            &goals(&["overall.utilization:max", "perQuotaShare.qs1.waitSeconds.p95:min"]),
            &shape
        )
        .is_ok());
        let e =
            check_goals(&goals(&["overall.utilization:max", "overall.utilisation:max"]), &shape).unwrap_err();
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].path, "frontier[1]");
        assert!(e[0].message.contains("no metric `overall.utilisation`"), "{}", e[0].message);
        let e = check_goals(&goals(&["perQuotaShare.nope.jobs:min"]), &shape).unwrap_err();
        assert!(e[0].message.contains("no quota share `nope`"), "{}", e[0].message);
        assert_eq!(Goal::parse("overall.utilization:max").unwrap().text(), "overall.utilization:max");
        assert!(Goal::parse("overall.utilization:most").is_none());
    }

    #[test]
    fn the_front_is_the_same_as_comparing_every_pair() {
        // A deterministic cloud of points with ties and gaps, against the definition itself.
        let goals = alloc::vec![
            Goal { metric: "a".into(), maximise: true },
            Goal { metric: "b".into(), maximise: false },
            Goal { metric: "c".into(), maximise: true },
        ];
        let mut x: u64 = 7;
        let mut next = || {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (x >> 33) % 6
        };
        let rows: Vec<Vec<Option<f64>>> = (0..300)
            .map(|_| {
                (0..3).map(|_| Some(next() as f64)).map(|v| if v == Some(5.0) { None } else { v }).collect()
            })
            .collect();
        let better = |a: f64, b: f64, max: bool| if max { a > b } else { a < b };
        let naive: Vec<bool> = rows
            .iter()
            .map(|r| {
                r.iter().all(Option::is_some)
                    && !rows.iter().any(|o| {
                        o.iter().all(Option::is_some)
                            && goals
                                .iter()
                                .zip(o.iter().zip(r))
                                .all(|(g, (x, y))| !better(y.unwrap(), x.unwrap(), g.maximise))
                            && goals
                                .iter()
                                .zip(o.iter().zip(r))
                                .any(|(g, (x, y))| better(x.unwrap(), y.unwrap(), g.maximise))
                    })
            })
            .collect();
        assert_eq!(pareto(&goals, &rows), naive);
        assert!(naive.iter().any(|x| *x) && naive.iter().any(|x| !*x));
    }
}
