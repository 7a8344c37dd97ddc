//! Checking a sweep file against its base scenario (every axis path, value and goal, the row
//! count, replicates) and the fingerprint that keeps shards of different sweeps apart.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;
use serde_json::Value;

use super::file::{range_values, Goal, Sweep, SweepFile};
use super::seeds::check_replicates;
use crate::change::{check_change, Change};
use crate::json::to_json;
use crate::metric::check_path;
use crate::model::Scenario;
use crate::validate::Problem;

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
