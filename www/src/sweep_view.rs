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

/// A goal as chosen: any metric path of the summary (per share too) and which way is better.
#[derive(Clone, Debug, PartialEq)]
pub struct GoalForm {
    pub path: String,
    pub maximise: bool,
}

impl GoalForm {
    pub fn new(path: &str, maximise: bool) -> GoalForm {
        GoalForm { path: path.into(), maximise }
    }

    /// The goal as a sweep file writes it: `METRIC:max` or `METRIC:min`.
    pub fn text(&self) -> String {
        format!("{}:{}", self.path.trim(), if self.maximise { "max" } else { "min" })
    }

    /// A path of seconds (waits, latencies, completion times, `endedAt`): shown in hours.
    pub fn is_seconds(&self) -> bool {
        let p = self.path.to_ascii_lowercase();
        p.contains("seconds") || p == "endedat"
    }

    /// The goal's axis label with its unit.
    pub fn label(&self) -> String {
        let p = self.path.trim();
        if self.is_seconds() {
            format!("{p} (h)")
        } else if p.ends_with("utilization") || p.ends_with("goodput") {
            format!("{p} (%)")
        } else {
            p.to_string()
        }
    }

    /// A value in the goal's display unit (hours for seconds, percent for fractions).
    pub fn display(&self, v: f64) -> f64 {
        let p = self.path.trim();
        if self.is_seconds() {
            v / 3600.0
        } else if p.ends_with("utilization") || p.ends_with("goodput") {
            v * 100.0
        } else {
            v
        }
    }
}

/// The goals a new sweep starts with: utilization up, the 95th-percentile wait down.
pub fn default_goals() -> (GoalForm, GoalForm) {
    (GoalForm::new("overall.utilization", true), GoalForm::new("overall.waitSeconds.p95", false))
}

/// The axis a new sweep starts with: the borrow limit of the scenario's first
/// LEND_AND_BORROW share (the one a borrow limit means something for), else of its first share.
pub fn default_axis(s: &Scenario) -> AxisForm {
    let share = s
        .quota_shares
        .iter()
        .find(|q| q.resource_sharing_configuration.strategy == quotasim::model::Strategy::LendAndBorrow)
        .or(s.quota_shares.first())
        .map_or_else(|| "team-a".to_string(), |q| q.quota_share_name.clone());
    AxisForm {
        path: format!("quotaShares[{share}].resourceSharingConfiguration.borrowLimit"),
        values: "0, 50, 100, 200, -1".into(),
    }
}

/// Every metric path a goal may name in this scenario, each share by its name.
pub fn metric_paths(s: &Scenario) -> Vec<String> {
    let Ok(v) = quotasim::validate(&quotasim::sweep::shape_of(s)) else { return Vec::new() };
    let Ok(r) = quotasim::compare::run_to_end(v, false) else { return Vec::new() };
    let shape = quotasim::metric::summary_value(&quotasim::compare::summary_of(&r));
    let mut out = Vec::new();
    for p in quotasim::metric::valid_paths(&shape) {
        match p.strip_prefix("perQuotaShare.*.") {
            Some(rest) => out.extend(
                s.quota_shares.iter().map(|q| format!("perQuotaShare.{}.{rest}", q.quota_share_name)),
            ),
            None => out.push(p),
        }
    }
    out
}

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

/// The sweep file of the form over `base`, with goals `x` and `y`, each point run on
/// `replicates` seeds of the base's workload (1: once).
pub fn sweep_file(
    base: &Scenario,
    axes: &[AxisForm],
    x: &GoalForm,
    y: &GoalForm,
    replicates: u32,
) -> Result<SweepFile, String> {
    let axes: Vec<Axis> = axes.iter().enumerate().map(|(k, a)| axis_of(a, k)).collect::<Result<_, _>>()?;
    if axes.is_empty() {
        return Err("add an axis".into());
    }
    let frontier = if x.text() == y.text() { vec![x.text()] } else { vec![x.text(), y.text()] };
    Ok(SweepFile {
        format_version: 1,
        base: serde_json::to_value(base).map_err(|e| e.to_string())?,
        axes,
        frontier,
        replicates: (replicates > 1).then_some(replicates),
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

/// A row's value at a metric path, from its summary or (replicated) the median of its
/// statistics, with the min and max over the seeds.
pub fn metric_of(row: &SweepRow, path: &str) -> Option<(f64, Option<(f64, f64)>)> {
    let path = path.trim();
    if let Some(s) = &row.summary {
        let v = quotasim::metric::summary_value(s);
        return quotasim::metric::resolve(&v, path).ok()?.first()?.value.map(|x| (x, None));
    }
    let stats = row.stats.as_ref()?;
    let mut cur = match path.split('.').next()? {
        "endedAt" => &stats["endedAt"],
        _ => &stats["summary"],
    };
    for seg in path.split('.').skip(usize::from(path.starts_with("endedAt"))) {
        cur = cur.get(seg)?;
    }
    let (m, lo, hi) = (cur.get("median")?.as_f64()?, cur["min"].as_f64()?, cur["max"].as_f64()?);
    Some((m, Some((lo, hi))))
}

/// Which rows are on the Pareto front of goals `x` and `y` as chosen now (the chart follows
/// the goals without running the sweep again).
pub fn front_of(rows: &[SweepRow], x: &GoalForm, y: &GoalForm) -> Vec<bool> {
    let goals = [x, y].map(|g| quotasim::sweep::Goal { metric: g.path.trim().into(), maximise: g.maximise });
    let vals: Vec<Vec<Option<f64>>> =
        rows.iter().map(|r| goals.iter().map(|g| metric_of(r, &g.metric).map(|v| v.0)).collect()).collect();
    quotasim::sweep::pareto(&goals, &vals)
}

/// Up to about `n` round tick values covering `lo..=hi` (steps of 1, 2 or 5 times a power of 10).
pub fn ticks(lo: f64, hi: f64, n: usize) -> Vec<f64> {
    if hi <= lo || !lo.is_finite() || !hi.is_finite() {
        return vec![lo];
    }
    let raw = (hi - lo) / n.max(1) as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * mag).find(|s| *s >= raw).unwrap_or(10.0 * mag);
    let first = (lo / step).ceil() as i64;
    (first..)
        .map(|k| k as f64 * step)
        .take_while(|v| *v <= hi + step * 1e-9)
        .take(50)
        .map(|v| if v.abs() < step * 1e-9 { 0.0 } else { v })
        .collect()
}

/// The scatter of the rows over goals x and y, in their display units with ticks: every point
/// a dot coloured by its value of the first axis (a legend names them), a replicated point
/// with whiskers from its min to its max over the seeds, the front (`front`, one flag per
/// row) ringed and joined by a line, `selected` larger. Each dot has its row in `data-row`.
pub fn scatter_svg(
    rows: &[SweepRow],
    goals: (&GoalForm, &GoalForm),
    front: &[bool],
    width: f64,
    height: f64,
    selected: Option<u64>,
) -> String {
    let (gx, gy) = goals;
    // The first axis's values, in order of appearance: one colour each.
    let mut firsts: Vec<String> = Vec::new();
    for r in rows {
        if let Some(v) = r.values.first().map(|v| v.to_string()) {
            if !firsts.contains(&v) {
                firsts.push(v);
            }
        }
    }
    struct Pt {
        row: u64,
        x: f64,
        y: f64,
        xs: Option<(f64, f64)>,
        ys: Option<(f64, f64)>,
        on: bool,
        colour: usize,
    }
    let pts: Vec<Pt> = rows
        .iter()
        .enumerate()
        .filter_map(|(i, r)| {
            let (x, xs) = metric_of(r, &gx.path)?;
            let (y, ys) = metric_of(r, &gy.path)?;
            let d = |g: &GoalForm, s: Option<(f64, f64)>| s.map(|(a, b)| (g.display(a), g.display(b)));
            let first = r.values.first().map(|v| v.to_string()).unwrap_or_default();
            Some(Pt {
                row: r.row,
                x: gx.display(x),
                y: gy.display(y),
                xs: d(gx, xs),
                ys: d(gy, ys),
                on: front.get(i).copied().unwrap_or(false),
                colour: firsts.iter().position(|f| *f == first).unwrap_or(0),
            })
        })
        .collect();
    // The legend: the first axis's name, then a dot and a value each, wrapped to the width.
    let axis = rows.first().and_then(|r| r.changes.first()).map_or("", |c| c.split('=').next().unwrap_or(""));
    let name = axis.rsplit('.').next().unwrap_or(axis);
    let indent = 62.0 + 8.0 + 6.5 * name.len() as f64;
    let mut legend: Vec<(f64, f64)> = Vec::new();
    let (mut lx, mut ly) = (indent, 12.0);
    for f in &firsts {
        let w = 24.0 + 6.5 * f.len() as f64;
        if lx + w > width - 14.0 && lx > indent {
            lx = indent;
            ly += 16.0;
        }
        legend.push((lx, ly));
        lx += w;
    }
    let legend_h = if firsts.len() > 1 { ly + 6.0 } else { 0.0 };
    let (l, rgt, t, b) = (62.0, 14.0, 10.0 + legend_h, 40.0);
    let mut out = String::new();
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" role=\"img\" \
         aria-label=\"Sweep points by {} and {}; the front is highlighted\">",
        escape(&gx.label()),
        escape(&gy.label())
    );
    if pts.is_empty() {
        let _ = write!(out, "<text class=\"empty\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">No row has both values</text></svg>", width / 2.0, height / 2.0);
        return out;
    }
    let span = |v: Vec<f64>| {
        let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if hi > lo {
            let pad = (hi - lo) * 0.05;
            (lo - pad, hi + pad)
        } else {
            (lo - 1.0, hi + 1.0)
        }
    };
    let all = |f: &dyn Fn(&Pt) -> [f64; 3]| pts.iter().flat_map(f).collect::<Vec<f64>>();
    let (x0, x1) = span(all(&|p| {
        let (a, b) = p.xs.unwrap_or((p.x, p.x));
        [p.x, a, b]
    }));
    let (y0, y1) = span(all(&|p| {
        let (a, b) = p.ys.unwrap_or((p.y, p.y));
        [p.y, a, b]
    }));
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
    let nx = ((width - l - rgt) / 80.0).clamp(3.0, 8.0) as usize;
    for v in ticks(x0, x1, nx) {
        let _ = write!(
            out,
            "<line class=\"grid\" x1=\"{x:.1}\" y1=\"{t}\" x2=\"{x:.1}\" y2=\"{:.1}\"/><text class=\"tick\" x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            height - b,
            height - b + 14.0,
            short(v),
            x = sx(v)
        );
    }
    for v in ticks(y0, y1, 5) {
        let _ = write!(
            out,
            "<line class=\"grid\" x1=\"{l}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\"/><text class=\"tick\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            width - rgt,
            l - 5.0,
            sy(v) + 4.0,
            short(v),
            y = sy(v)
        );
    }
    let _ = write!(
        out,
        "<text class=\"axis-label\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{} ({})</text>",
        (l + width - rgt) / 2.0,
        height - 6.0,
        escape(&gx.label()),
        if gx.maximise { "more is better" } else { "less is better" }
    );
    let _ = write!(
        out,
        "<text class=\"axis-label\" x=\"12\" y=\"{:.1}\" transform=\"rotate(-90 12 {:.1})\" text-anchor=\"middle\">{} ({})</text>",
        (t + height - b) / 2.0,
        (t + height - b) / 2.0,
        escape(&gy.label()),
        if gy.maximise { "more is better" } else { "less is better" }
    );
    if firsts.len() > 1 {
        let _ = write!(out, "<text class=\"tick\" x=\"{l:.1}\" y=\"12\">{}:</text>", escape(name));
        for (k, (f, (x, y))) in firsts.iter().zip(&legend).enumerate() {
            let _ = write!(
                out,
                "<circle class=\"dot c{}\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"4.5\"/><text class=\"tick\" x=\"{:.1}\" y=\"{y:.1}\">{}</text>",
                k % 8,
                x + 5.0,
                y - 4.0,
                x + 13.0,
                escape(f)
            );
        }
    }
    let mut on: Vec<&Pt> = pts.iter().filter(|p| p.on).collect();
    on.sort_by(|a, b| a.x.total_cmp(&b.x));
    if on.len() > 1 {
        let d: Vec<String> = on.iter().map(|p| format!("{:.1},{:.1}", sx(p.x), sy(p.y))).collect();
        let _ = write!(out, "<polyline class=\"front\" fill=\"none\" points=\"{}\"/>", d.join(" "));
    }
    let mut whisker = |(x1, y1): (f64, f64), (x2, y2): (f64, f64)| {
        let _ = write!(
            out,
            "<line class=\"whisker\" x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{x2:.1}\" y2=\"{y2:.1}\"/>"
        );
    };
    for p in &pts {
        if let Some((a, c)) = p.xs {
            whisker((sx(a), sy(p.y)), (sx(c), sy(p.y)));
        }
        if let Some((a, c)) = p.ys {
            whisker((sx(p.x), sy(a)), (sx(p.x), sy(c)));
        }
    }
    for p in &pts {
        let class =
            if p.on { format!("dot c{} on-front", p.colour % 8) } else { format!("dot c{}", p.colour % 8) };
        let r = if selected == Some(p.row) { 7.0 } else { 4.5 };
        let range = |s: Option<(f64, f64)>| {
            s.map_or(String::new(), |(a, b)| format!(" [{} to {}]", short(a), short(b)))
        };
        let _ = write!(
            out,
            "<circle class=\"{class}\" data-row=\"{row}\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"{r}\"><title>row {row}: {}{} / {}{}{}</title></circle>",
            sx(p.x),
            sy(p.y),
            short(p.x),
            range(p.xs),
            short(p.y),
            range(p.ys),
            if p.on { " (on the front)" } else { "" },
            row = p.row
        );
    }
    out.push_str("</svg>");
    out
}

/// A number as a chart shows it: whole numbers plain, others with at most 3 significant
/// decimals.
pub fn short(v: f64) -> String {
    if (v.fract() == 0.0 && v.abs() < 1e12) || v.abs() >= 100.0 {
        format!("{v:.0}")
    } else if v.abs() >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
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
        let (gx, gy) = default_goals();
        let f = sweep_file(&s, &axes, &gx, &gy, 1).unwrap();
        assert_eq!(f.frontier, vec!["overall.utilization:max", "overall.waitSeconds.p95:min"]);
        let rows = run(&s, &f, 1000).unwrap();
        assert_eq!(rows.len(), 9);
        assert!(rows.iter().any(|r| r.frontier == Some(true)));
        // The same rows as the command line computes from the same file.
        let sweep = quotasim::sweep::check_sweep(&f, &s, 1000).unwrap();
        assert_eq!(rows, quotasim::sweep::run_all(&s, &sweep));
        // The page's front for the sweep's own goals is the command line's.
        let front = front_of(&rows, &gx, &gy);
        assert_eq!(front, rows.iter().map(|r| r.frontier == Some(true)).collect::<Vec<_>>());
        let svg = scatter_svg(&rows, (&gx, &gy), &front, 400.0, 240.0, Some(0));
        // 9 points and a legend of the 3 borrow limits.
        assert_eq!(svg.matches("<circle").count(), 9 + 3);
        assert!(svg.contains("on-front") && svg.contains("data-row=\"8\""));
        assert!(svg.contains("class=\"dot c2") && svg.contains(">borrowLimit:<"), "{svg}");
        // Seconds are shown in hours, with ticks.
        assert!(svg.contains("overall.waitSeconds.p95 (h) (less is better)"), "{svg}");
        assert!(svg.matches("class=\"tick\"").count() >= 6, "{svg}");
        // Another goal redraws the front without running again: qs2's wait, not the overall one.
        let qs2 = GoalForm::new("perQuotaShare.qs2.waitSeconds.p95", false);
        let other = front_of(&rows, &gx, &qs2);
        assert_eq!(other.len(), 9);
        assert!(scatter_svg(&rows, (&gx, &qs2), &other, 400.0, 240.0, None).contains("perQuotaShare.qs2"));
    }

    #[test]
    fn a_replicated_sweep_shows_medians_with_whiskers_and_the_default_axis_is_the_borrowing_share() {
        let mut s = crate::presets::scenario(crate::presets::NOTEBOOK).unwrap();
        let w = r#"{"seed":3,"jobs":30,"shares":[{"quotaShareName":"qs1","arrivalsPerHour":4,
            "instanceTypes":[{"name":"ml.g5.xlarge"}],"duration":{"distribution":"uniform","minSeconds":600,"maxSeconds":3600}}]}"#;
        s.workload = Some(serde_json::from_str(w).unwrap());
        let axis = default_axis(&s);
        let lab = s
            .quota_shares
            .iter()
            .find(|q| q.resource_sharing_configuration.strategy == quotasim::model::Strategy::LendAndBorrow)
            .unwrap();
        assert!(axis.path.contains(&format!("[{}]", lab.quota_share_name)), "{}", axis.path);
        let (gx, gy) = default_goals();
        let f = sweep_file(&s, &[AxisForm { path: axis.path.clone(), values: "0, 100".into() }], &gx, &gy, 3)
            .unwrap();
        assert_eq!(f.replicates, Some(3));
        let rows = run(&s, &f, 100).unwrap();
        assert_eq!(rows[0].seeds, Some(vec![3, 4, 5]));
        let (m, spread) = metric_of(&rows[0], "overall.waitSeconds.p95").unwrap();
        let (lo, hi) = spread.unwrap();
        assert!(lo <= m && m <= hi);
        let front = front_of(&rows, &gx, &gy);
        assert_eq!(front, rows.iter().map(|r| r.frontier == Some(true)).collect::<Vec<_>>());
        let svg = scatter_svg(&rows, (&gx, &gy), &front, 400.0, 240.0, None);
        assert!(svg.contains("class=\"whisker\""), "{svg}");
        assert!(metric_paths(&s).contains(&"perQuotaShare.qs2.waitSeconds.p95".to_string()));
    }

    #[test]
    fn ticks_are_round_and_cover_the_span() {
        assert_eq!(ticks(0.0, 10.0, 5), vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        let t = ticks(0.13, 0.61, 5);
        assert_eq!(t.iter().map(|x| short(*x)).collect::<Vec<_>>(), ["0.20", "0.30", "0.40", "0.50", "0.60"]);
        assert_eq!(ticks(3.0, 3.0, 5), vec![3.0]);
    }

    #[test]
    fn bad_axes_are_named() {
        let s = notebook();
        let bad = |path: &str, values: &str| {
            let (gx, gy) = default_goals();
            sweep_file(&s, &[AxisForm { path: path.into(), values: values.into() }], &gx, &gy, 1)
                .and_then(|f| run(&s, &f, 1000).map(|_| ()))
                .unwrap_err()
        };
        assert!(bad("", "1").contains("axis 1: give a path"));
        assert!(bad("settings.preemptionGraceSeconds", " ").contains("give values"));
        assert!(bad("settings.preemptionGraceSeconds", "1..x").contains("'x' is not a number"));
        assert!(bad("quotaShares[nope].state", "DISABLED").contains("axes[0]"));
        let (gx, gy) = default_goals();
        assert!(sweep_file(&s, &[], &gx, &gy, 1).is_err());
    }

    #[test]
    fn names_in_the_scatter_are_escaped() {
        let (x, y) = (GoalForm::new("<b>", true), GoalForm::new("y", false));
        let svg = scatter_svg(&[], (&x, &y), &[], 100.0, 100.0, None);
        assert!(svg.contains("&lt;b&gt;") && svg.contains("No row"));
    }
}
