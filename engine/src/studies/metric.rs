//! Metric paths: one grammar for naming a number of a run's summary (R26), used by objectives,
//! comparisons and sweeps alike.
//!
//! A path is dotted, into the summary result: `endedAt`, `overall.utilization`,
//! `overall.waitSeconds.p95`, `perQuotaShare.team-a.preemptions.total`. `*` in place of a share
//! name means every share (`perQuotaShare.*.lostInstanceSeconds`). Any number of the summary
//! is addressable; a value that is `null` in the result (no jobs waited, no capacity) reads as
//! `None`. An unknown path is an error that lists the valid ones.

use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::Value;

use crate::result::SummaryResult;

/// A resolved metric: its path with every `*` replaced by a share name, and its value.
#[derive(Clone, Debug, PartialEq)]
pub struct MetricValue {
    /// The path, with the share's name in place of `*`.
    pub path: String,
    /// The number there; `None` where the summary has `null`.
    pub value: Option<f64>,
}

/// The summary result as JSON, the form paths are resolved against.
pub fn summary_value(r: &SummaryResult) -> Value {
    serde_json::to_value(r).unwrap_or(Value::Null)
}

/// Checks a path's form (not whether the summary has it): dotted names, `*` only as a share
/// ([`crate::path::metric_steps`]).
pub fn check_path(path: &str) -> Result<(), String> {
    crate::path::metric_steps(path).map(drop)
}

/// Resolves `path` against a summary result (from [`summary_value`]): one value, or one per
/// share for `perQuotaShare.*.…`, in the summary's share order.
pub fn resolve(summary: &Value, path: &str) -> Result<Vec<MetricValue>, String> {
    let segs = crate::path::metric_steps(path)?;
    let root = match segs[0] {
        "endedAt" | "formatVersion" => summary,
        "overall" | "perQuotaShare" => summary.get("summary").unwrap_or(&Value::Null),
        _ => &Value::Null,
    };
    let mut out = Vec::new();
    if segs.len() > 1 && segs[1] == "*" {
        let shares = root.get("perQuotaShare").and_then(Value::as_object);
        for (name, m) in shares.into_iter().flatten() {
            let concrete = format!("perQuotaShare.{name}.{}", segs[2..].join("."));
            match leaf(m, &segs[2..]) {
                Some(v) => out.push(MetricValue { path: concrete, value: v }),
                None => return Err(unknown(summary, path)),
            }
        }
        if out.is_empty() && shares.is_none_or(|s| s.is_empty()) {
            return Err(format!("`{path}`: the scenario has no quota shares"));
        }
        return Ok(out);
    }
    match leaf(root, &segs) {
        Some(v) => Ok(alloc::vec![MetricValue { path: path.to_string(), value: v }]),
        None => Err(unknown(summary, path)),
    }
}

/// The number at `segs` under `v`: `Some(None)` for a `null` there, `None` when the path
/// names no number.
fn leaf(v: &Value, segs: &[&str]) -> Option<Option<f64>> {
    match crate::path::metric_value(v, segs)? {
        Value::Number(n) => Some(n.as_f64()),
        Value::Null => Some(None),
        _ => None,
    }
}

/// Every numeric path of a summary result, with `*` for the share, sorted.
pub fn valid_paths(summary: &Value) -> Vec<String> {
    let mut set = BTreeSet::new();
    let root = summary.get("summary").unwrap_or(&Value::Null);
    for top in ["endedAt"] {
        if summary.get(top).is_some() {
            set.insert(top.to_string());
        }
    }
    if let Some(o) = root.get("overall") {
        numeric_paths(o, "overall", &mut set);
    }
    if let Some(shares) = root.get("perQuotaShare").and_then(Value::as_object) {
        for m in shares.values() {
            numeric_paths(m, "perQuotaShare.*", &mut set);
        }
    }
    set.into_iter().collect()
}

fn numeric_paths(v: &Value, prefix: &str, out: &mut BTreeSet<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                numeric_paths(x, &format!("{prefix}.{k}"), out);
            }
        }
        Value::Number(_) | Value::Null => {
            out.insert(prefix.to_string());
        }
        _ => {}
    }
}

/// Every number of a metrics object as `(relative path, value)`, in the result's order.
pub fn leaves(v: &Value) -> Vec<(String, Option<f64>)> {
    let mut out = Vec::new();
    collect(v, "", &mut out);
    out
}

fn collect(v: &Value, prefix: &str, out: &mut Vec<(String, Option<f64>)>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                let p = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
                collect(x, &p, out);
            }
        }
        Value::Number(n) => out.push((prefix.to_string(), n.as_f64())),
        Value::Null => out.push((prefix.to_string(), None)),
        _ => {}
    }
}

fn unknown(summary: &Value, path: &str) -> String {
    let shares: Vec<String> = summary
        .get("summary")
        .and_then(|s| s.get("perQuotaShare"))
        .and_then(Value::as_object)
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default();
    let mut hint = String::new();
    if let Some(name) = path.strip_prefix("perQuotaShare.").and_then(|r| r.split('.').next()) {
        if name != "*" && !shares.iter().any(|s| s == name) {
            hint = format!(" There is no quota share `{name}` (shares: {}).", shares.join(", "));
        }
    }
    format!("no metric `{path}`.{hint} Valid metrics: {}", valid_paths(summary).join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{CapacityLimit, Job, QuotaShare, Scenario, Strategy};
    use crate::{validate, Simulation};

    fn result() -> Value {
        let mut s = Scenario::default();
        s.service_environment.capacity_limits = alloc::vec![CapacityLimit::new("ml.g5.xlarge", 2)];
        s.quota_shares = alloc::vec![
            QuotaShare::new("team-a", Strategy::Lend, alloc::vec![CapacityLimit::new("ml.g5.xlarge", 1)]),
            QuotaShare::new("team-b", Strategy::Lend, alloc::vec![CapacityLimit::new("ml.g5.xlarge", 1)]),
        ];
        s.jobs = alloc::vec![
            Job::new("a", "team-a", "ml.g5.xlarge", 1, 0, 100),
            Job::new("b", "team-a", "ml.g5.xlarge", 1, 0, 100),
        ];
        let mut sim = Simulation::new(validate(&s).unwrap());
        sim.run();
        summary_value(&sim.summary_result())
    }

    #[test]
    fn paths_name_numbers_overall_per_share_and_at_the_top() {
        let r = result();
        let v = resolve(&r, "overall.utilization").unwrap();
        assert_eq!(v, alloc::vec![MetricValue { path: "overall.utilization".into(), value: Some(0.5) }]);
        assert_eq!(resolve(&r, "endedAt").unwrap()[0].value, Some(200.0));
        assert_eq!(resolve(&r, "perQuotaShare.team-a.waitSeconds.max").unwrap()[0].value, Some(100.0));
        // team-b ran nothing: no wait percentile, a null.
        assert_eq!(resolve(&r, "perQuotaShare.team-b.waitSeconds.p95").unwrap()[0].value, None);
    }

    #[test]
    fn a_star_expands_to_every_share_in_order() {
        let v = resolve(&result(), "perQuotaShare.*.jobs").unwrap();
        let got: Vec<(&str, Option<f64>)> = v.iter().map(|m| (m.path.as_str(), m.value)).collect();
        assert_eq!(
            got,
            alloc::vec![("perQuotaShare.team-a.jobs", Some(2.0)), ("perQuotaShare.team-b.jobs", Some(0.0))]
        );
    }

    #[test]
    fn an_unknown_path_lists_the_valid_ones() {
        let r = result();
        let e = resolve(&r, "overall.utilisation").unwrap_err();
        assert!(e.contains("no metric `overall.utilisation`"), "{e}");
        assert!(e.contains("overall.utilization") && e.contains("perQuotaShare.*.waitSeconds.p95"), "{e}");
        let e = resolve(&r, "perQuotaShare.team-z.jobs").unwrap_err();
        assert!(e.contains("no quota share `team-z` (shares: team-a, team-b)"), "{e}");
        // A path to an object, not a number, names no metric.
        assert!(resolve(&r, "overall.waitSeconds").is_err());
        for bad in ["", "overall..x", "overall.*", "*.jobs", "perQuotaShare.a.*"] {
            assert!(resolve(&r, bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn valid_paths_cover_every_number() {
        let r = result();
        let paths = valid_paths(&r);
        assert!(paths.contains(&"overall.preemptions.total".to_string()));
        assert!(paths.contains(&"perQuotaShare.*.gpuHours".to_string()));
        for p in &paths {
            assert!(resolve(&r, p).is_ok(), "{p}");
        }
    }
}
