//! A sweep file as written (its axes, ranges and goals) and the sweep it checks into: every
//! axis's values, the goals, the row count, the fingerprint and a replicated sweep's seeds.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::change::Change;
use crate::model::Scenario;
use crate::validate::Problem;

/// The most rows a sweep may have unless the caller allows more.
pub const DEFAULT_MAX_ROWS: u64 = 100_000;

/// A sweep file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SweepFile {
    #[serde(default = "one")]
    /// `formatVersion`: must be 1 (the default).
    pub format_version: i64,
    /// A scenario file's path (relative to the sweep file), or a scenario.
    pub base: Value,
    /// `axes`: the varied parameters; the rows are their cartesian product, the last axis fastest.
    pub axes: Vec<Axis>,
    #[serde(default)]
    /// `frontier`: the goals of the trade-off front, each `METRIC:max` or `METRIC:min`; empty: no front.
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
    /// `path`: the field varied, in the `--set` grammar ([`crate::change`]).
    pub path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// `values`: the values it takes, in order; an axis gives either `values` or `range`.
    pub values: Option<Vec<Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// `range`: the values as a numeric range, instead of `values`.
    pub range: Option<Range>,
}

/// `from`, `from + step`, ... up to `to` inclusive.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Range {
    /// `from`: the first value.
    pub from: f64,
    /// `to`: the last value allowed (inclusive).
    pub to: f64,
    /// `step`: the gap between two values, above 0.
    pub step: f64,
}

/// A frontier objective: a metric path, maximised or minimised.
#[derive(Clone, Debug, PartialEq)]
pub struct Goal {
    /// The metric path ([`crate::metric`]).
    pub metric: String,
    /// Whether higher is better (`:max`); else lower is (`:min`).
    pub maximise: bool,
}

/// A checked sweep: every axis's values, and the frontier goals.
#[derive(Clone, Debug, PartialEq)]
pub struct Sweep {
    /// Each axis's path and its values, in the file's order.
    pub axes: Vec<(String, Vec<Value>)>,
    /// The frontier goals, in the file's order.
    pub goals: Vec<Goal>,
    /// How many rows: the product of the axes' value counts.
    pub rows: u64,
    /// What makes this sweep this sweep ([`fingerprint`](super::fingerprint)): every row carries
    /// it, so that shards of another sweep are never merged with its rows.
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

/// One seed of a replicated sweep and the base its points run on: the base with its workload
/// expanded at this seed, or (when an axis edits the workload) the base with this seed, to be
/// expanded point by point.
#[derive(Clone, Debug, PartialEq)]
pub struct SeedBase {
    /// The workload seed.
    pub seed: i64,
    /// The scenario each point's changes are applied to.
    pub scenario: Scenario,
}
