//! Replicated sweeps: every parameter point on N seeds of the base's workload.
//!
//! One generated workload is one sample, and a sweep's front over single runs mixes policy
//! with luck (a point lands on the front because its seed drew less work). A replicated sweep
//! (`"replicates": N` in the sweep file, `quotasim sweep --replicates N`) runs every point on
//! the seeds `seed`, `seed + 1`, ... `seed + N - 1` of the base's `workload` and reports, per
//! point, the median, min and max over the seeds of every summary number; its goals are the
//! medians, so the front is computed over points, never over seeds. The seed is therefore
//! never an axis of a replicated sweep.
//!
//! Each seed's workload is expanded once, at the base's quotas, when the sweep is checked,
//! and every point's changes are applied to those jobs: every point of one seed runs the very
//! same jobs, so a difference between points is the policy's. An axis under `workload` (the
//! load itself) changes the jobs on purpose: then each point expands its own workload, seed by
//! seed.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::{Map, Value};

use super::file::{SeedBase, Sweep, SweepFile};
use super::row::{objectives_of, run_variant, SweepRow};
use crate::metric::summary_value;
use crate::model::Scenario;
use crate::replicates::{seeds, spread};
use crate::validate::Problem;

/// The most seeds a sweep's points may run on (as `compare --replicates`).
pub const MAX_REPLICATES: u32 = 1000;

/// Checks a sweep file's `replicates` against its base and axes; for a replicated sweep, each
/// seed's base (expanded once unless an axis edits the workload; not at all unless `expand`).
/// Empty for one run per point.
pub(crate) fn check_replicates(
    f: &SweepFile,
    base: &Scenario,
    axes: &[(usize, String, Vec<Value>)],
    expand: bool,
) -> Result<Vec<SeedBase>, Vec<Problem>> {
    let n = f.replicates.unwrap_or(1);
    if n == 0 || n > MAX_REPLICATES {
        return Err(alloc::vec![Problem::error(
            "replicates",
            format!("replicates must be 1 to {MAX_REPLICATES}, not {n}")
        )]);
    }
    if n == 1 {
        return Ok(Vec::new());
    }
    let Some(w) = &base.workload else {
        return Err(alloc::vec![Problem::error(
            "replicates",
            "replicates draw each point's jobs from seeds of the base's `workload` section, and the base has none \
             (its jobs are listed one by one: `quotasim fit-workload` fits a workload to them)",
        )]);
    };
    let mut problems = Vec::new();
    for (i, path, _) in axes {
        if path == "workload.seed" {
            problems.push(Problem::error(
                format!("axes[{i}].path"),
                format!(
                    "the seed is not a policy axis: a replicated sweep runs every point on seeds {} to {}",
                    w.seed,
                    w.seed.saturating_add(i64::from(n) - 1)
                ),
            ));
        }
    }
    if !problems.is_empty() || !expand {
        return if problems.is_empty() { Ok(Vec::new()) } else { Err(problems) };
    }
    let per_point = axes.iter().any(|(_, p, _)| p == "workload" || p.starts_with("workload."));
    let mut out = Vec::with_capacity(n as usize);
    for seed in seeds(w.seed, n) {
        let seeded = crate::workload::with_seed(base, seed);
        if seed > crate::validate::MAX_SAFE {
            let m = format!(
                "seed {seed} is past 2^53 - 1: the workload's seed plus {} replicates is too large",
                n - 1
            );
            problems.push(Problem::error("replicates", m));
            break;
        }
        let scenario = if per_point {
            seeded
        } else {
            match crate::workload::expanded(&seeded) {
                Ok(s) => s,
                Err(p) => {
                    problems.extend(
                        p.into_iter().map(|x| Problem::error(x.path, format!("seed {seed}: {}", x.message))),
                    );
                    break;
                }
            }
        };
        out.push(SeedBase { seed, scenario });
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems)
    }
}

/// Runs point `k` of a replicated sweep on every seed, in seed order: the statistics of its
/// summaries, or the first seed's failure.
pub(crate) fn run_point(sweep: &Sweep, k: u64) -> SweepRow {
    let changes = sweep.changes(k);
    let mut summaries: Vec<Value> = Vec::with_capacity(sweep.seeds.len());
    let mut error = None;
    for sb in &sweep.seeds {
        match run_variant(&sb.scenario, &changes) {
            Ok(r) => summaries.push(summary_value(&r)),
            Err(e) => {
                error = Some(format!("seed {}: {e}", sb.seed));
                break;
            }
        }
    }
    let stats = error.is_none().then(|| stats_of(&summaries));
    let objectives = objectives_of(sweep, stats.as_ref());
    SweepRow {
        row: k,
        rows: sweep.rows,
        fingerprint: sweep.fingerprint.clone(),
        values: sweep.values(k),
        changes: changes.iter().map(|c| c.text()).collect(),
        replicates: Some(sweep.seeds.len() as u32),
        seeds: Some(sweep.seeds.iter().map(|s| s.seed).collect()),
        summary: None,
        stats,
        error,
        objectives,
        frontier: None,
    }
}

/// The statistics of one point's summaries (as [`summary_value`] gives them): `endedAt` and
/// `summary` as in a summary result, every number `{median, min, max}`.
fn stats_of(summaries: &[Value]) -> Value {
    let pick = |key: &str| summaries.iter().map(|s| s.get(key).unwrap_or(&Value::Null)).collect::<Vec<_>>();
    let mut m = Map::new();
    m.insert("endedAt".into(), spread_tree(&pick("endedAt")));
    m.insert("summary".into(), spread_tree(&pick("summary")));
    Value::Object(m)
}

/// The shape of `values[0]` with every number (or `null`) replaced by `{median, min, max}` of
/// the numbers at the same place in every value (`null` where none has one); objects are
/// walked key by key (in key order), anything else is kept from the first value.
pub fn spread_tree(values: &[&Value]) -> Value {
    let Some(first) = values.first() else { return Value::Null };
    match *first {
        Value::Object(o) => {
            let mut out = Map::new();
            for k in o.keys() {
                let at: Vec<&Value> = values.iter().map(|v| v.get(k).unwrap_or(&Value::Null)).collect();
                out.insert(k.clone(), spread_tree(&at));
            }
            Value::Object(out)
        }
        Value::Number(_) | Value::Null => {
            let xs: Vec<f64> = values.iter().filter_map(|v| v.as_f64()).collect();
            match spread(&xs) {
                Some(s) => {
                    let mut m = Map::new();
                    for (k, x) in [("median", s.median), ("min", s.min), ("max", s.max)] {
                        m.insert(k.to_string(), number(x));
                    }
                    Value::Object(m)
                }
                None => Value::Null,
            }
        }
        other => other.clone(),
    }
}

/// A whole number prints as an integer (a median of counts may be a half).
fn number(x: f64) -> Value {
    if x == libm::trunc(x) && x.abs() <= crate::validate::MAX_SAFE as f64 {
        Value::from(x as i64)
    } else {
        serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::change::apply_changes;
    use crate::compare::{run_to_end, summary_of};
    use crate::sweep::{check_sweep, front_values, parse_sweep, run_all, DEFAULT_MAX_ROWS};
    use crate::validate::validate;

    /// Two shares; alpha's arrivals follow `loadPercent` of the owned capacity, so a sweep over
    /// capacity would draw other arrival times at every point if each point expanded its own.
    const BASE: &str = include_str!("../../../../tests/fixtures/two-teams-workload.json");

    fn base() -> Scenario {
        crate::json::parse_scenario(BASE).unwrap()
    }

    fn sweep(text: &str) -> Result<Sweep, Vec<Problem>> {
        check_sweep(&parse_sweep(text).unwrap(), &base(), DEFAULT_MAX_ROWS)
    }

    const CAPACITY: &str =
        r#""axes":[{"path":"quotaShares[alpha].capacityLimits[ml.g5.xlarge].maxCapacity","values":[1,2,3]}]"#;

    #[test]
    fn every_point_runs_the_jobs_each_seed_drew_at_the_base_s_quotas() {
        let s = sweep(&format!(r#"{{"base":"x",{CAPACITY},"replicates":3,"frontier":["perQuotaShare.alpha.waitSeconds.p95:min"]}}"#)).unwrap();
        assert_eq!(s.seeds.iter().map(|x| x.seed).collect::<Vec<_>>(), [11, 12, 13]);
        for k in 0..s.rows {
            let row = run_point(&s, k);
            assert_eq!((row.replicates, row.seeds.clone()), (Some(3), Some(alloc::vec![11, 12, 13])));
            assert!(row.error.is_none() && row.summary.is_none(), "{row:?}");
            let stats = row.stats.clone().unwrap();
            // Each seed's run, made by hand: that seed's jobs, expanded at the base's quotas,
            // with the point's change applied to the listed jobs.
            let mut waits = Vec::new();
            for seed in [11, 12, 13] {
                let jobs = crate::workload::expanded(&crate::workload::with_seed(&base(), seed)).unwrap();
                let point = apply_changes(&jobs, &s.changes(k)).unwrap();
                // Expanding at the point's quotas would draw other arrivals (the test has teeth).
                let own = crate::workload::expanded(
                    &apply_changes(&crate::workload::with_seed(&base(), seed), &s.changes(k)).unwrap(),
                )
                .unwrap();
                // (Point 0 owns 3 instances, not 4; point 2's 5 are capped at the pool's 4.)
                let arrivals = |s: &Scenario| s.jobs.iter().map(|j| j.submit_at).collect::<Vec<_>>();
                assert_eq!(arrivals(&own) == arrivals(&point), k != 0, "point {k} seed {seed}");
                let r = run_to_end(validate(&point).unwrap(), false).unwrap();
                let v = summary_value(&summary_of(&r));
                waits.push(v["summary"]["perQuotaShare"]["alpha"]["waitSeconds"]["p95"].as_f64().unwrap());
            }
            let want = spread(&waits).unwrap();
            let got = &stats["summary"]["perQuotaShare"]["alpha"]["waitSeconds"]["p95"];
            assert_eq!(got["median"].as_f64(), Some(want.median), "point {k}: {got}");
            assert_eq!((got["min"].as_f64(), got["max"].as_f64()), (Some(want.min), Some(want.max)));
            // The goal is the median, and the front reads it.
            let goal = &row.objectives.as_ref().unwrap().0[0];
            assert_eq!(goal.1, *got);
            assert_eq!(front_values(&row), alloc::vec![Some(want.median)]);
        }
    }

    #[test]
    fn the_front_is_over_points_by_their_medians() {
        let s = sweep(&format!(
            r#"{{"base":"x",{CAPACITY},"replicates":3,"frontier":["perQuotaShare.alpha.waitSeconds.p95:min","perQuotaShare.beta.waitSeconds.p95:min"]}}"#
        ))
        .unwrap();
        let rows = run_all(&base(), &s);
        let vals: Vec<Vec<Option<f64>>> = rows.iter().map(front_values).collect();
        let goals = s.goals.clone();
        assert_eq!(
            rows.iter().map(|r| r.frontier.unwrap()).collect::<Vec<_>>(),
            crate::sweep::pareto(&goals, &vals)
        );
        // More capacity for alpha never makes its median wait longer here.
        assert!(vals[2][0] <= vals[0][0], "{vals:?}");
    }

    #[test]
    fn replicates_are_refused_without_a_workload_with_a_seed_axis_or_out_of_range() {
        let e = sweep(&format!(r#"{{"base":"x",{CAPACITY},"replicates":0}}"#)).unwrap_err();
        assert_eq!(e[0].path, "replicates");
        let e = sweep(r#"{"base":"x","axes":[{"path":"workload.seed","values":[1,2]}],"replicates":5}"#)
            .unwrap_err();
        assert_eq!(e[0].path, "axes[0].path");
        assert!(e[0].message.contains("seeds 11 to 15"), "{}", e[0].message);
        // One run per point may still vary the seed.
        assert!(sweep(r#"{"base":"x","axes":[{"path":"workload.seed","values":[1,2]}]}"#).is_ok());
        let mut listed = base();
        listed.workload = None;
        listed.jobs = crate::workload::expand(&base()).unwrap();
        let f = parse_sweep(&format!(r#"{{"base":"x",{CAPACITY},"replicates":2}}"#)).unwrap();
        let e = check_sweep(&f, &listed, DEFAULT_MAX_ROWS).unwrap_err();
        assert_eq!(e[0].path, "replicates");
        assert!(e[0].message.contains("fit-workload"), "{}", e[0].message);
        let mut late = base();
        late.workload.as_mut().unwrap().seed = crate::validate::MAX_SAFE;
        let e = check_sweep(&f, &late, DEFAULT_MAX_ROWS).unwrap_err();
        assert_eq!(e[0].path, "replicates");
    }

    #[test]
    fn a_workload_axis_expands_each_point_s_own_jobs() {
        let s = sweep(r#"{"base":"x","axes":[{"path":"workload.jobs","values":[10,40]}],"replicates":2}"#)
            .unwrap();
        assert!(s.seeds.iter().all(|b| b.scenario.workload.is_some()), "not expanded before the point");
        let jobs = |k: u64| run_point(&s, k).stats.unwrap()["summary"]["overall"]["jobs"]["median"].as_f64();
        assert_eq!((jobs(0), jobs(1)), (Some(10.0), Some(40.0)));
    }

    #[test]
    fn replicates_and_seeds_are_part_of_the_fingerprint() {
        let print = |extra: &str| sweep(&format!(r#"{{"base":"x",{CAPACITY}{extra}}}"#)).unwrap().fingerprint;
        assert_eq!(print(""), print(r#","replicates":1"#), "one replicate is the plain sweep");
        assert_ne!(print(""), print(r#","replicates":3"#));
        assert_ne!(print(r#","replicates":3"#), print(r#","replicates":4"#));
        let mut other = base();
        other.workload.as_mut().unwrap().seed = 12;
        let f = parse_sweep(&format!(r#"{{"base":"x",{CAPACITY},"replicates":3}}"#)).unwrap();
        assert_ne!(
            check_sweep(&f, &other, DEFAULT_MAX_ROWS).unwrap().fingerprint,
            print(r#","replicates":3"#)
        );
    }

    #[test]
    fn spread_tree_keeps_the_shape_and_spreads_every_number() {
        let a: Value = serde_json::from_str(r#"{"x":1,"y":{"z":null,"w":4},"s":"k"}"#).unwrap();
        let b: Value = serde_json::from_str(r#"{"x":2,"y":{"z":null,"w":5},"s":"k"}"#).unwrap();
        let c: Value = serde_json::from_str(r#"{"x":4,"y":{"z":3,"w":6},"s":"k"}"#).unwrap();
        let t = spread_tree(&[&a, &b, &c]);
        assert_eq!(
            crate::json::to_json(&t),
            r#"{"s":"k","x":{"max":4,"median":2,"min":1},"y":{"w":{"max":6,"median":5,"min":4},"z":{"max":3,"median":3,"min":3}}}"#
        );
        let t = spread_tree(&[&a, &b]);
        assert_eq!(t["x"]["median"], serde_json::json!(1.5));
        assert_eq!(t["y"]["z"], Value::Null);
    }
}
