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
//!
//! The sweep file and the checked sweep are [`mod@file`]'s, checking one is [`check`]'s, a row and
//! the front are [`row`]'s, replicated points [`seeds`]'s and merging shards [`merge`]'s; this
//! module runs rows.

pub mod check;
pub mod file;
pub mod merge;
pub mod row;
pub mod seeds;

use alloc::vec::Vec;

use crate::metric::summary_value;
use crate::model::Scenario;
pub use check::{check_sweep, fingerprint};
pub use file::{parse_sweep, Axis, Goal, Range, SeedBase, Sweep, SweepFile, DEFAULT_MAX_ROWS};
pub use row::{as_read, check_goals, front_values, goal_values, pareto, shape_of, GoalValues, SweepRow};
use row::{objectives_of, run_variant};
use seeds::run_point;

/// Runs row `k` of a sweep over `base`: its summary, or why it could not run. `frontier` is
/// left unset (it needs every row). A replicated sweep runs the point on each seed's base
/// (`seeds::run_point`) and reports its statistics instead of one summary.
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

#[cfg(test)]
mod tests {
    use super::file::range_values;
    use super::*;
    use crate::change::Change;
    use crate::validate::Problem;
    use alloc::string::{String, ToString};
    use serde_json::Value;

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
