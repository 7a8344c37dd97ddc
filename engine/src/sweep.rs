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

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::change::{apply_changes, Change};
use crate::metric::check_path;
use crate::model::Scenario;
use crate::strict::Strict;
use crate::validate::Problem;

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
}

/// Parses a sweep file (strictly: objects only where the format has them, nothing after).
pub fn parse_sweep(text: &str) -> Result<SweepFile, Problem> {
    let mut de = serde_json::Deserializer::from_str(text);
    let f = serde_path_to_error::deserialize(Strict(&mut de)).map_err(|e| {
        let path = e.path().to_string();
        let path = if path == "." { String::new() } else { path };
        Problem::error(path, e.into_inner().to_string())
    })?;
    de.end().map_err(|e| Problem::error("", format!("data after the sweep: {e}")))?;
    Ok(f)
}

fn number(x: f64) -> Value {
    if x == libm::trunc(x) && x.abs() < 9.007_199_254_740_991e15 {
        Value::from(x as i64)
    } else {
        serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number)
    }
}

/// Checks a sweep file against its base scenario: every axis's values are applied to the
/// base once, so a path that names nothing or a value of the wrong type is refused before
/// anything runs, naming the axis. The row count must be at most `max_rows`.
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
    let mut axes = Vec::new();
    let mut rows: u128 = 1;
    for (i, a) in f.axes.iter().enumerate() {
        let p = format!("axes[{i}]");
        let values: Vec<Value> = match (&a.values, &a.range) {
            (Some(v), None) => v.clone(),
            (None, Some(r)) => {
                if r.step.is_nan() || r.step <= 0.0 || !r.from.is_finite() || !r.to.is_finite() {
                    problems.push(Problem::error(format!("{p}.range.step"), "step must be a number above 0"));
                    continue;
                }
                let n = libm::floor((r.to - r.from) / r.step);
                if n < 0.0 || n > max_rows as f64 {
                    let why = if n < 0.0 { "to is below from" } else { "more values than rows allowed" };
                    problems.push(Problem::error(format!("{p}.range"), why));
                    continue;
                }
                (0..=n as u64).map(|k| number(r.from + k as f64 * r.step)).collect()
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
        for (k, v) in values.iter().enumerate() {
            let c = Change { path: a.path.clone(), value: v.clone() };
            if let Err(e) = apply_changes(base, &[c]) {
                let at = if a.values.is_some() { format!("{p}.values[{k}]") } else { format!("{p}.range") };
                problems.push(Problem::error(at, format!("{}: {}", a.path, e.message)));
                break;
            }
        }
        rows = rows.saturating_mul(values.len() as u128);
        axes.push((a.path.clone(), values));
    }
    if rows > max_rows as u128 {
        problems.push(Problem::error(
            "axes",
            format!("{rows} rows, more than the {max_rows} allowed (--max-rows)"),
        ));
    }
    let mut goals = Vec::new();
    for (i, g) in f.frontier.iter().enumerate() {
        let (metric, dir) = g.rsplit_once(':').unwrap_or((g.as_str(), ""));
        let maximise = match dir {
            "max" => true,
            "min" => false,
            _ => {
                problems.push(Problem::error(
                    format!("frontier[{i}]"),
                    format!("`{g}` is METRIC:max or METRIC:min"),
                ));
                continue;
            }
        };
        if let Err(m) = check_path(metric) {
            problems.push(Problem::error(format!("frontier[{i}]"), m));
            continue;
        }
        goals.push(Goal { metric: metric.to_string(), maximise });
    }
    if problems.is_empty() {
        Ok(Sweep { axes, goals, rows: rows as u64 })
    } else {
        Err(problems)
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

/// Which rows are on the Pareto front of `goals`, given each row's goal values (`None`: the
/// metric has no value there; such a row is never on the front). A row is off the front when
/// another is at least as good on every goal and strictly better on one.
pub fn pareto(goals: &[Goal], rows: &[Vec<Option<f64>>]) -> Vec<bool> {
    let better = |a: f64, b: f64, max: bool| if max { a > b } else { a < b };
    rows.iter()
        .map(|r| {
            if r.iter().any(Option::is_none) || goals.is_empty() {
                return false;
            }
            !rows.iter().any(|o| {
                if o.iter().any(Option::is_none) {
                    return false;
                }
                let mut strictly = false;
                for (g, (x, y)) in goals.iter().zip(o.iter().zip(r)) {
                    let (x, y) = (x.unwrap_or(0.0), y.unwrap_or(0.0));
                    if better(y, x, g.maximise) {
                        return false;
                    }
                    strictly |= better(x, y, g.maximise);
                }
                strictly
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOTEBOOK: &str = include_str!("../../tests/fixtures/notebook.json");

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
        assert!(e[0].message.contains("1002001 rows, more than the 100000 allowed"), "{e:?}");
        assert!(parse_sweep(r#"{"base":"x","axes":[[1]]}"#).is_err(), "an array for an axis");
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
}
