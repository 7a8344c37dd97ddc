//! Objectives: bounds on summary metrics that a policy must meet (the report card's gate).
//!
//! ```json
//! { "formatVersion": 1,
//!   "objectives": [
//!     { "metric": "perQuotaShare.team-a.waitSeconds.p95", "max": 7200 },
//!     { "metric": "overall.utilization", "min": 0.7 } ] }
//! ```
//!
//! Each objective names a metric path ([`crate::metric`]) and a `min`, a `max` or both
//! (inclusive). With `*` the bound applies to every share. A metric whose value is `null`
//! (nothing to measure: no job waited, no capacity) meets its objective.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::metric::{check_path, resolve};
use crate::validate::Problem;

/// An objectives file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Objectives {
    /// `formatVersion`: must be 1 (the default).
    #[serde(default = "one")]
    pub format_version: i64,
    /// `objectives`: at least one.
    pub objectives: Vec<Objective>,
}

fn one() -> i64 {
    1
}

/// One bound on one metric (or one per share, with `*`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Objective {
    /// `metric`: a metric path ([`crate::metric`]); `*` for every share.
    pub metric: String,
    /// `min`: the smallest value that meets the objective (inclusive).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<f64>,
    /// `max`: the largest value that meets the objective (inclusive).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<f64>,
}

/// Parses and checks an objectives file: every problem with its path.
pub fn load_objectives(text: &str) -> Result<Objectives, Vec<Problem>> {
    let o: Objectives = crate::strict::from_json(text, "objectives").map_err(|p| alloc::vec![p])?;
    let mut problems = Vec::new();
    if o.format_version != 1 {
        problems.push(Problem::error(
            "formatVersion",
            format!("formatVersion must be 1, not {}", o.format_version),
        ));
    }
    if o.objectives.is_empty() {
        problems.push(Problem::error("objectives", "there are no objectives"));
    }
    for (i, ob) in o.objectives.iter().enumerate() {
        let p = format!("objectives[{i}]");
        if let Err(m) = check_path(&ob.metric) {
            problems.push(Problem::error(format!("{p}.metric"), m));
        }
        if ob.min.is_none() && ob.max.is_none() {
            problems.push(Problem::error(p.clone(), "an objective needs a min, a max or both"));
        }
        if let (Some(lo), Some(hi)) = (ob.min, ob.max) {
            if lo > hi {
                problems.push(Problem::error(p.clone(), format!("min {lo} is above max {hi}")));
            }
        }
    }
    if problems.is_empty() {
        Ok(o)
    } else {
        Err(problems)
    }
}

/// One objective checked on one metric.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Verdict {
    /// `objective`: the objective, as `objectives[i]`.
    pub objective: String,
    /// `metric`: the metric path, with a share name in place of `*`.
    pub metric: String,
    /// `min`: the objective's lower bound, if any.
    pub min: Option<f64>,
    /// `max`: the objective's upper bound, if any.
    pub max: Option<f64>,
    /// `value`: the metric's value; `null` when the summary has none (then it is met).
    pub value: Option<f64>,
    /// `baseline`: the value under the baseline scenario, when one was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline: Option<Option<f64>>,
    /// `met`: the value is within the bounds, or `null`.
    pub met: bool,
}

/// The result of checking objectives (`quotasim check`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// `formatVersion`: 1.
    pub format_version: u32,
    /// `met`: every objective met.
    pub met: bool,
    /// `verdicts`: one per objective and metric, in the objectives' order.
    pub verdicts: Vec<Verdict>,
}

/// Checks `objectives` against a summary result (and a baseline's, for comparison): every
/// metric must exist, else an error naming the objective and listing the valid metrics.
pub fn check(
    objectives: &Objectives,
    summary: &Value,
    baseline: Option<&Value>,
) -> Result<Report, Vec<Problem>> {
    let mut verdicts = Vec::new();
    let mut problems = Vec::new();
    for (i, ob) in objectives.objectives.iter().enumerate() {
        let name = format!("objectives[{i}]");
        let values = match resolve(summary, &ob.metric) {
            Ok(v) => v,
            Err(m) => {
                problems.push(Problem::error(format!("{name}.metric"), m));
                continue;
            }
        };
        let base = baseline.map(|b| resolve(b, &ob.metric).unwrap_or_default());
        for v in values {
            let met =
                v.value.is_none_or(|x| ob.min.is_none_or(|lo| x >= lo) && ob.max.is_none_or(|hi| x <= hi));
            let baseline = base.as_ref().map(|b| b.iter().find(|m| m.path == v.path).and_then(|m| m.value));
            verdicts.push(Verdict {
                objective: name.clone(),
                metric: v.path,
                min: ob.min,
                max: ob.max,
                value: v.value,
                baseline,
                met,
            });
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(Report { format_version: 1, met: verdicts.iter().all(|v| v.met), verdicts })
}

/// A verdict as a line of text: `met      objectives[0] overall.utilization = 0.81 (min 0.7)`.
pub fn verdict_line(v: &Verdict) -> String {
    let num = |x: Option<f64>| x.map_or("null".to_string(), |x| format!("{x}"));
    let mut bounds = Vec::new();
    if let Some(lo) = v.min {
        bounds.push(format!("min {lo}"));
    }
    if let Some(hi) = v.max {
        bounds.push(format!("max {hi}"));
    }
    let base = match v.baseline {
        Some(b) => format!(", baseline {}", num(b)),
        None => String::new(),
    };
    format!(
        "{:<8} {} {} = {} ({}{base})",
        if v.met { "met" } else { "VIOLATED" },
        v.objective,
        v.metric,
        num(v.value),
        bounds.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(util: f64, waits: [Option<u64>; 2]) -> Value {
        serde_json::json!({"formatVersion": 1, "endedAt": 100, "summary": {
            "perQuotaShare": {
                "team-a": {"waitSeconds": {"p95": waits[0]}, "preemptions": {"total": 3}},
                "team-b": {"waitSeconds": {"p95": waits[1]}, "preemptions": {"total": 60}}},
            "overall": {"utilization": util, "preemptions": {"total": 63}}}})
    }

    fn objectives() -> Objectives {
        load_objectives(
            r#"{"formatVersion":1,"objectives":[
              {"metric":"perQuotaShare.team-a.waitSeconds.p95","max":7200},
              {"metric":"perQuotaShare.*.preemptions.total","max":50},
              {"metric":"overall.utilization","min":0.7}]}"#,
        )
        .unwrap()
    }

    #[test]
    fn each_objective_is_met_or_violated_per_metric() {
        let r = check(&objectives(), &summary(0.8, [Some(100), None]), None).unwrap();
        let got: Vec<(&str, &str, bool)> =
            r.verdicts.iter().map(|v| (v.objective.as_str(), v.metric.as_str(), v.met)).collect();
        assert_eq!(
            got,
            alloc::vec![
                ("objectives[0]", "perQuotaShare.team-a.waitSeconds.p95", true),
                ("objectives[1]", "perQuotaShare.team-a.preemptions.total", true),
                ("objectives[1]", "perQuotaShare.team-b.preemptions.total", false),
                ("objectives[2]", "overall.utilization", true),
            ]
        );
        assert!(!r.met);
        assert!(verdict_line(&r.verdicts[2]).starts_with("VIOLATED objectives[1] perQuotaShare.team-b"));
    }

    #[test]
    fn bounds_are_inclusive_and_null_meets() {
        let r = check(&objectives(), &summary(0.7, [None, None]), None).unwrap();
        assert!(r.verdicts[0].met, "no wait measured");
        assert!(r.verdicts[3].met, "0.7 meets min 0.7");
    }

    #[test]
    fn a_baseline_value_goes_next_to_each() {
        let base = summary(0.6, [Some(9000), None]);
        let r = check(&objectives(), &summary(0.8, [Some(100), None]), Some(&base)).unwrap();
        assert_eq!(r.verdicts[0].baseline, Some(Some(9000.0)));
        assert_eq!(r.verdicts[3].baseline, Some(Some(0.6)));
        assert!(verdict_line(&r.verdicts[3]).ends_with("(min 0.7, baseline 0.6)"));
    }

    #[test]
    fn a_metric_that_does_not_exist_names_the_objective_and_the_valid_ones() {
        let o = load_objectives(r#"{"objectives":[{"metric":"overall.utilisation","min":0.5}]}"#).unwrap();
        let e = check(&o, &summary(0.8, [None, None]), None).unwrap_err();
        assert_eq!(e[0].path, "objectives[0].metric");
        assert!(e[0].message.contains("overall.utilization"), "{}", e[0].message);
    }

    #[test]
    fn a_bad_file_reports_every_problem_with_its_path() {
        let e = load_objectives(
            r#"{"formatVersion":2,"objectives":[{"metric":"overall..x","min":1},{"metric":"endedAt"},{"metric":"endedAt","min":5,"max":1}]}"#,
        )
        .unwrap_err();
        let paths: Vec<&str> = e.iter().map(|p| p.path.as_str()).collect();
        assert_eq!(
            paths,
            alloc::vec!["formatVersion", "objectives[0].metric", "objectives[1]", "objectives[2]"]
        );
        let e = load_objectives(r#"{"objectives":[{"metric":"endedAt","maximum":1}]}"#).unwrap_err();
        assert_eq!(e[0].path, "objectives[0].maximum");
        assert!(e[0].message.contains("unknown field `maximum`"), "{}", e[0].message);
        assert!(load_objectives(r#"{"objectives":[{"metric":"endedAt","max":1}]} {}"#).is_err());
        assert!(load_objectives(r#"{"objectives":[{"metric":"endedAt","max":"1"}]}"#).is_err());
    }
}
