//! The sweep panel's pure parts: the form (axes as a path and values or a range, two goals)
//! turned into a sweep over the scenario, and the trade-off scatter of the rows with the
//! Pareto front marked. Tested natively.

use std::fmt::Write as _;

use quotasim::model::Scenario;
use quotasim::sweep::{Axis, Range, Sweep, SweepFile, SweepRow};
use serde_json::Value;

use crate::text::escape;

/// One axis as typed: a change path, and either values (`0, 50, 100`) or a range
/// (`from..to step s`).
#[derive(Clone, Debug, PartialEq)]
pub struct AxisForm {
    pub path: String,
    pub values: String,
}

/// Goals offered for the frontier: a metric path of the summary and which way is better.
pub const GOALS: &[(&str, &str, bool)] = &[
    ("Utilization", "overall.utilization", true),
    ("Wait p95 (s)", "overall.waitSeconds.p95", false),
    ("Wait p50 (s)", "overall.waitSeconds.p50", false),
    ("Preemptions", "overall.preemptions.total", false),
    ("Lost GPU-hours", "overall.lostGpuHours", false),
    ("Goodput", "overall.goodput", true),
    ("Jain's index", "overall.fairness.jainIndex", true),
    ("Reclaim latency p95 (s)", "overall.reclaimLatencySeconds.p95", false),
];

/// `0, 50, 100` (JSON values, or bare words as strings) or `4..16 step 4`.
fn axis_of(a: &AxisForm, k: usize) -> Result<Axis, String> {
    let path = a.path.trim();
    if path.is_empty() {
        return Err(format!("axis {}: give a path", k + 1));
    }
    let text = a.values.trim();
    if let Some((from, rest)) = text.split_once("..") {
        let (to, step) = rest.split_once("step").map_or((rest, "1"), |(t, s)| (t, s));
        let num = |s: &str, what: &str| {
            s.trim()
                .parse::<f64>()
                .map_err(|_| format!("axis {}: {what} '{}' is not a number", k + 1, s.trim()))
        };
        return Ok(Axis {
            path: path.into(),
            values: None,
            range: Some(Range { from: num(from, "from")?, to: num(to, "to")?, step: num(step, "step")? }),
        });
    }
    let values: Vec<Value> = text
        .split(',')
        .map(str::trim)
        .filter(|x| !x.is_empty())
        .map(|x| serde_json::from_str(x).unwrap_or_else(|_| Value::String(x.to_string())))
        .collect();
    if values.is_empty() {
        return Err(format!("axis {}: give values (0, 50, 100) or a range (4..16 step 4)", k + 1));
    }
    Ok(Axis { path: path.into(), values: Some(values), range: None })
}

/// The sweep file of the form over `base`, with goals `x` and `y` (indices into [`GOALS`]).
pub fn sweep_file(base: &Scenario, axes: &[AxisForm], x: usize, y: usize) -> Result<SweepFile, String> {
    let axes: Vec<Axis> = axes.iter().enumerate().map(|(k, a)| axis_of(a, k)).collect::<Result<_, _>>()?;
    if axes.is_empty() {
        return Err("add an axis".into());
    }
    let goal = |i: usize| {
        let (_, p, max) = GOALS[i.min(GOALS.len() - 1)];
        format!("{p}:{}", if max { "max" } else { "min" })
    };
    let frontier = if x == y { vec![goal(x)] } else { vec![goal(x), goal(y)] };
    Ok(SweepFile {
        format_version: 1,
        base: serde_json::to_value(base).map_err(|e| e.to_string())?,
        axes,
        frontier,
    })
}

/// The sweep `file` over `base`, checked, to run a row at a time
/// ([`quotasim::sweep::run_row`], then [`mark_front`]), or the first problem.
pub fn prepare(base: &Scenario, file: &SweepFile, max_rows: u64) -> Result<Sweep, String> {
    let first = |p: Vec<quotasim::Problem>| p.first().map(|x| x.to_string()).unwrap_or_default();
    quotasim::sweep::check_sweep(file, base, max_rows).map_err(first)
}

/// Marks the rows on the Pareto front of the sweep's goals, once every row has run.
pub fn mark_front(sweep: &Sweep, rows: &mut [SweepRow]) {
    if !sweep.goals.is_empty() {
        let vals: Vec<Vec<Option<f64>>> = rows.iter().map(quotasim::sweep::front_values).collect();
        for (r, on) in rows.iter_mut().zip(quotasim::sweep::pareto(&sweep.goals, &vals)) {
            r.frontier = Some(on);
        }
    }
}

/// Runs a sweep over `base` (every row, on this thread), or the first problem.
pub fn run(base: &Scenario, file: &SweepFile, max_rows: u64) -> Result<Vec<SweepRow>, String> {
    let sweep = prepare(base, file, max_rows)?;
    let mut rows: Vec<SweepRow> =
        (0..sweep.rows).map(|k| quotasim::sweep::run_row(base, &sweep, k)).collect();
    mark_front(&sweep, &mut rows);
    Ok(rows)
}

/// A row's value of goal `i` (in the row's `objectives`, in frontier order).
pub fn goal_value(row: &SweepRow, i: usize) -> Option<f64> {
    row.objectives.as_ref()?.0.get(i)?.1.as_f64()
}

/// The scatter of the rows over goals x and y: every row a dot, the front in the accent
/// colour and joined by a line, `selected` ringed. Each dot has its row in `data-row`.
pub fn scatter_svg(
    rows: &[SweepRow],
    labels: (&str, &str),
    width: f64,
    height: f64,
    selected: Option<u64>,
) -> String {
    let pts: Vec<(u64, f64, f64, bool)> = rows
        .iter()
        .filter_map(|r| {
            let x = goal_value(r, 0)?;
            let y = goal_value(r, 1).or(Some(x))?;
            Some((r.row, x, y, r.frontier == Some(true)))
        })
        .collect();
    let (l, rgt, t, b) = (56.0, 12.0, 10.0, 34.0);
    let mut out = String::new();
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" role=\"img\" \
         aria-label=\"Sweep rows by {} and {}; the front is highlighted\">",
        escape(labels.0),
        escape(labels.1)
    );
    if pts.is_empty() {
        let _ = write!(out, "<text class=\"empty\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">No row has both values</text></svg>", width / 2.0, height / 2.0);
        return out;
    }
    let span = |v: Vec<f64>| {
        let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if hi > lo {
            (lo, hi)
        } else {
            (lo - 1.0, hi + 1.0)
        }
    };
    let (x0, x1) = span(pts.iter().map(|p| p.1).collect());
    let (y0, y1) = span(pts.iter().map(|p| p.2).collect());
    let sx = |x: f64| l + (x - x0) / (x1 - x0) * (width - l - rgt);
    let sy = |y: f64| height - b - (y - y0) / (y1 - y0) * (height - t - b);
    let _ = write!(
        out,
        "<line class=\"axis\" x1=\"{l}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\"/><line class=\"axis\" x1=\"{l}\" y1=\"{t}\" x2=\"{l}\" y2=\"{:.1}\"/>",
        height - b,
        width - rgt,
        height - b,
        height - b
    );
    let _ = write!(
        out,
        "<text class=\"tick\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{} ({} to {})</text>",
        (l + width - rgt) / 2.0,
        height - 8.0,
        escape(labels.0),
        short(x0),
        short(x1)
    );
    let _ = write!(
        out,
        "<text class=\"tick\" x=\"12\" y=\"{:.1}\" transform=\"rotate(-90 12 {:.1})\" text-anchor=\"middle\">{} ({} to {})</text>",
        (t + height - b) / 2.0,
        (t + height - b) / 2.0,
        escape(labels.1),
        short(y0),
        short(y1)
    );
    let mut front: Vec<&(u64, f64, f64, bool)> = pts.iter().filter(|p| p.3).collect();
    front.sort_by(|a, b| a.1.total_cmp(&b.1));
    if front.len() > 1 {
        let d: Vec<String> = front.iter().map(|p| format!("{:.1},{:.1}", sx(p.1), sy(p.2))).collect();
        let _ = write!(out, "<polyline class=\"front\" fill=\"none\" points=\"{}\"/>", d.join(" "));
    }
    for (row, x, y, on) in &pts {
        let class = if *on { "dot on-front" } else { "dot" };
        let r = if selected == Some(*row) { 7.0 } else { 4.5 };
        let _ = write!(
            out,
            "<circle class=\"{class}\" data-row=\"{row}\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"{r}\"><title>row {row}: {} / {}{}</title></circle>",
            sx(*x),
            sy(*y),
            short(*x),
            short(*y),
            if *on { " (on the front)" } else { "" }
        );
    }
    out.push_str("</svg>");
    out
}

fn short(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e12 {
        format!("{v:.0}")
    } else {
        format!("{v:.3}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn notebook() -> Scenario {
        crate::presets::scenario(crate::presets::NOTEBOOK).unwrap()
    }

    #[test]
    fn a_form_sweeps_the_scenario_and_marks_the_front() {
        let s = notebook();
        let axes = vec![
            AxisForm {
                path: "quotaShares[qs1].resourceSharingConfiguration.borrowLimit".into(),
                values: "0, 100, 200".into(),
            },
            AxisForm { path: "settings.preemptionGraceSeconds".into(), values: "60..180 step 60".into() },
        ];
        let f = sweep_file(&s, &axes, 0, 1).unwrap();
        assert_eq!(f.frontier, vec!["overall.utilization:max", "overall.waitSeconds.p95:min"]);
        let rows = run(&s, &f, 1000).unwrap();
        assert_eq!(rows.len(), 9);
        assert!(rows.iter().any(|r| r.frontier == Some(true)));
        // The same rows as the command line computes from the same file.
        let sweep = quotasim::sweep::check_sweep(&f, &s, 1000).unwrap();
        assert_eq!(rows, quotasim::sweep::run_all(&s, &sweep));
        let svg = scatter_svg(&rows, ("Utilization", "Wait p95"), 400.0, 240.0, Some(0));
        assert_eq!(svg.matches("<circle").count(), 9);
        assert!(svg.contains("on-front") && svg.contains("data-row=\"8\""));
    }

    #[test]
    fn bad_axes_are_named() {
        let s = notebook();
        let bad = |path: &str, values: &str| {
            sweep_file(&s, &[AxisForm { path: path.into(), values: values.into() }], 0, 1)
                .and_then(|f| run(&s, &f, 1000).map(|_| ()))
                .unwrap_err()
        };
        assert!(bad("", "1").contains("axis 1: give a path"));
        assert!(bad("settings.preemptionGraceSeconds", " ").contains("give values"));
        assert!(bad("settings.preemptionGraceSeconds", "1..x").contains("'x' is not a number"));
        assert!(bad("quotaShares[nope].state", "DISABLED").contains("axes[0]"));
        assert!(sweep_file(&s, &[], 0, 1).is_err());
    }

    #[test]
    fn names_in_the_scatter_are_escaped() {
        let svg = scatter_svg(&[], ("<b>", "y"), 100.0, 100.0, None);
        assert!(svg.contains("&lt;b&gt;") && svg.contains("No row"));
    }
}
