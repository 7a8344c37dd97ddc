//! A sweep's rows: one variant run and its summary, the goals' values read from it, and the
//! Pareto front over them.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use serde_json::Value;

use super::file::{Goal, Sweep};
use crate::change::{apply_changes, Change};
use crate::compare::{run_to_end, summary_of};
use crate::json::to_json;
use crate::metric::resolve;
use crate::model::Scenario;
use crate::result::SummaryResult;
use crate::validate::Problem;

/// One row's outcome: `quotasim sweep`'s JSONL line. `frontier` is the last field, so that a
/// row can be printed before the front is known and the flag appended (and set again by
/// `sweep-merge`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SweepRow {
    /// `row`: its number, from 0 (the last axis varies fastest).
    pub row: u64,
    /// The sweep's number of rows, so that a merge knows when one is missing.
    pub rows: u64,
    /// The sweep's [`fingerprint`](super::fingerprint), so that a merge refuses rows of another sweep.
    pub fingerprint: String,
    /// `values`: each axis's value in this row, in axis order.
    pub values: Vec<Value>,
    /// `changes`: the same values as `--set` changes (`PATH=VALUE`).
    pub changes: Vec<String>,
    /// A replicated sweep: how many seeds each point ran on, and which.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicates: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// `seeds`: a replicated sweep's seeds, in order.
    pub seeds: Option<Vec<i64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// `summary`: the variant's summary result; absent in a replicated sweep and when the row failed.
    pub summary: Option<SummaryResult>,
    /// A replicated sweep: the summary's shape with every number replaced by its
    /// `{median, min, max}` over the seeds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stats: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// `error`: why the variant could not run (invalid, or a run error; in a replicated sweep, the first seed
    /// that failed).
    pub error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// `objectives`: each frontier goal's value in this row; absent when the sweep has no goals.
    pub objectives: Option<GoalValues>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// `frontier`: whether the row is on the Pareto front of the goals; absent until every row is known, and
    /// when there are no goals.
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
