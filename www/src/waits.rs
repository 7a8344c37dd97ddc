//! Wait time per share (first start − submit) as a cumulative distribution: the step geometry
//! and the chart's SVG markup, pure functions of a run tested natively.
//!
//! Jobs that never started by the end of the run are censored: they count in the share's total
//! (so its curve stays below 100 %) and are counted apart, never dropped.

use std::fmt::Write;

use crate::charts::{x_time_ticks, y_grid_line, M_BOTTOM, M_LEFT, M_RIGHT, M_TOP};
use crate::geometry::{format_duration, Scale};
use crate::run::RunData;
use crate::text::escape;

/// One share's waits.
#[derive(Clone, Debug, PartialEq)]
pub struct ShareWaits {
    pub name: String,
    /// Waits of the jobs that started, in seconds, ascending.
    pub waits: Vec<u64>,
    /// Jobs submitted by the end of the run that never started (censored).
    pub censored: usize,
}

impl ShareWaits {
    /// Jobs submitted by the end of the run: started and censored.
    pub fn total(&self) -> usize {
        self.waits.len() + self.censored
    }

    /// The wait by which a fraction `q` (0 < q <= 1) of all the share's jobs had started
    /// (nearest rank); `None` when too many never started, or the share has no jobs.
    pub fn quantile(&self, q: f64) -> Option<u64> {
        let n = self.total();
        if n == 0 {
            return None;
        }
        let k = ((q.clamp(0.0, 1.0) * n as f64).ceil() as usize).max(1);
        self.waits.get(k - 1).copied()
    }

    /// The CDF as the corners of a step line: `(wait, fraction of all jobs started by then)`,
    /// from `(0, 0)` to `(x_end, last fraction)`. Empty when the share has no jobs.
    pub fn steps(&self, x_end: u64) -> Vec<(u64, f64)> {
        let n = self.total();
        if n == 0 {
            return Vec::new();
        }
        let mut pts = vec![(0u64, 0.0f64)];
        let mut i = 0;
        while i < self.waits.len() {
            let w = self.waits[i];
            while i < self.waits.len() && self.waits[i] == w {
                i += 1;
            }
            let before = pts.last().map_or(0.0, |p| p.1);
            if pts.last() != Some(&(w, before)) {
                pts.push((w, before));
            }
            pts.push((w, i as f64 / n as f64));
        }
        let last = pts.last().map_or(0.0, |p| p.1);
        let end = x_end.max(pts.last().map_or(0, |p| p.0));
        if pts.last().map(|p| p.0) != Some(end) {
            pts.push((end, last));
        }
        pts
    }
}

/// Every share's waits, in the run's share order. Jobs submitted after the run's end (a
/// horizon cut them off) are not counted at all, nor those of a live state that had started
/// before it (R28); a job of an unknown share is skipped.
pub fn share_waits(run: &RunData) -> Vec<ShareWaits> {
    let mut out: Vec<ShareWaits> = run
        .share_names
        .iter()
        .map(|n| ShareWaits { name: n.clone(), waits: Vec::new(), censored: 0 })
        .collect();
    let cfg = &run.full().scenario().jobs;
    for (k, j) in run.jobs.iter().enumerate() {
        let Some(s) = run.share_index(&j.quota_share_name) else { continue };
        if j.submit_at > run.end {
            continue;
        }
        // R28: a job of a live state that started before `startAt` (in an attempt then, or in
        // earlier ones) waited before it; its wait is not this run's, as the engine's summary
        // has it. A job queued at `startAt` still waits from its `submitAt`.
        if cfg.get(k).is_some_and(|c| c.started_at.is_some() || c.previous_attempts > 0) {
            continue;
        }
        match j.first_started_at {
            Some(t) => out[s].waits.push(t.saturating_sub(j.submit_at)),
            None => out[s].censored += 1,
        }
    }
    for s in &mut out {
        s.waits.sort_unstable();
    }
    out
}

/// The longest wait any share shows (at least one second): the chart's x range.
pub fn max_wait(shares: &[ShareWaits]) -> u64 {
    shares.iter().filter_map(|s| s.waits.last().copied()).max().unwrap_or(0).max(1)
}

/// The SVG path of a step line's corners, drawn at the screen's resolution: within one tenth
/// of a pixel column only the first and the last corner are kept (a CDF only rises, so the
/// line looks the same), so 50,000 jobs make a path of a few hundred points, not 100,000.
pub fn step_path(corners: impl Iterator<Item = (f64, f64)>) -> String {
    let mut d = String::new();
    let mut column: Option<(f64, f64, f64)> = None; // x, first y, last y
    let emit = |d: &mut String, x: f64, y: f64| {
        let _ = write!(d, "{}{x:.1},{y:.1}", if d.is_empty() { 'M' } else { 'L' });
    };
    for (x, y) in corners {
        match &mut column {
            Some((cx, _, last)) if (x - *cx).abs() < 0.1 => *last = y,
            _ => {
                if let Some((cx, first, last)) = column {
                    emit(&mut d, cx, first);
                    if last != first {
                        emit(&mut d, cx, last);
                    }
                }
                column = Some((x, y, y));
            }
        }
    }
    if let Some((cx, first, last)) = column {
        emit(&mut d, cx, first);
        if last != first {
            emit(&mut d, cx, last);
        }
    }
    d
}

/// A short legend text for a share: jobs and censored ones.
pub fn legend_text(s: &ShareWaits) -> String {
    match (s.total(), s.censored) {
        (0, _) => format!("{}: no jobs", s.name),
        (n, 0) => format!("{}: {n} job{}", s.name, if n == 1 { "" } else { "s" }),
        (n, c) => format!("{}: {n} job{}, {c} never started", s.name, if n == 1 { "" } else { "s" }),
    }
}

/// A quantile for people: the duration, or "not reached" when too many jobs never started.
pub fn quantile_text(v: Option<u64>, total: usize) -> String {
    match (v, total) {
        (_, 0) => "–".into(),
        (Some(w), _) => format_duration(w),
        (None, _) => "not reached".into(),
    }
}

/// The wait-time CDF chart: a step line per share in its colour, wait on x (duration ticks),
/// the share of jobs started on y (0-100 %), with a title and a description giving each share's
/// p50 and p90 and how many jobs never started.
pub fn wait_cdf_svg(run: &RunData, colors: &[String], width: f64, height: f64) -> String {
    wait_cdf_svg_of(&share_waits(run), colors, width, height)
}

/// [`wait_cdf_svg`] of waits already gathered ([`share_waits`]).
pub fn wait_cdf_svg_of(shares: &[ShareWaits], colors: &[String], width: f64, height: f64) -> String {
    let xmax = max_wait(shares);
    let sx = Scale::new(0.0, xmax as f64, M_LEFT, (width - M_RIGHT).max(M_LEFT + 10.0));
    let sy = Scale::new(0.0, 1.0, height - M_BOTTOM, M_TOP);
    let mut out = String::with_capacity(4 * 1024);
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" \
         viewBox=\"0 0 {width:.0} {height:.0}\" role=\"img\" aria-labelledby=\"wcdf-t wcdf-d\">\
         <title id=\"wcdf-t\">Wait time distribution per quota share</title><desc id=\"wcdf-d\">"
    );
    let desc: Vec<String> = shares
        .iter()
        .map(|s| {
            format!(
                "{}: p50 {}, p90 {}{}",
                s.name,
                quantile_text(s.quantile(0.5), s.total()),
                quantile_text(s.quantile(0.9), s.total()),
                if s.censored > 0 {
                    format!(", {} of {} never started", s.censored, s.total())
                } else {
                    String::new()
                }
            )
        })
        .collect();
    out.push_str(&escape(&desc.join("; ")));
    out.push_str("</desc>");
    for pct in [0u32, 25, 50, 75, 100] {
        y_grid_line(&mut out, sy.map(pct as f64 / 100.0), width, &format!("{pct} %"));
    }
    let max_ticks = ((width - M_LEFT) / 80.0).max(2.0) as usize;
    let yb = height - M_BOTTOM;
    x_time_ticks(&mut out, &sx, (0, xmax), (M_TOP, yb), max_ticks, |t| {
        if t == 0 {
            "0".to_string()
        } else {
            escape(&format_duration(t))
        }
    });
    let _ = write!(
        out,
        "<text class=\"axis-label\" transform=\"translate(14,{:.1}) rotate(-90)\" text-anchor=\"middle\">jobs started</text>",
        (height - M_BOTTOM + M_TOP) / 2.0
    );
    for (i, s) in shares.iter().enumerate() {
        let pts = s.steps(xmax);
        if pts.is_empty() {
            continue;
        }
        let d = step_path(pts.iter().map(|&(w, f)| (sx.map(w as f64), sy.map(f))));
        let c = colors.get(i).map_or_else(|| "#888".to_string(), |c| escape(c));
        let _ = write!(
            out,
            "<path class=\"cdf\" data-share=\"{i}\" d=\"{d}\" fill=\"none\" stroke=\"{c}\" stroke-width=\"2\">\
             <title>{}</title></path>",
            escape(&legend_text(s))
        );
    }
    if shares.iter().all(|s| s.total() == 0) {
        let _ = write!(
            out,
            "<text class=\"empty\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">No waits to count in this run</text>",
            (M_LEFT + width) / 2.0,
            height / 2.0
        );
    }
    out.push_str("</svg>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets;

    fn sw(waits: &[u64], censored: usize) -> ShareWaits {
        ShareWaits { name: "a".into(), waits: waits.to_vec(), censored }
    }

    #[test]
    fn the_steps_of_a_small_hand_made_case_are_exact() {
        // Four jobs: two start at once, one after 60 s, one never.
        let s = sw(&[0, 0, 60], 1);
        assert_eq!(s.steps(100), vec![(0, 0.0), (0, 0.5), (60, 0.5), (60, 0.75), (100, 0.75)]);
        assert_eq!(s.total(), 4);
        assert_eq!(s.quantile(0.5), Some(0));
        assert_eq!(s.quantile(0.75), Some(60));
        assert_eq!(s.quantile(0.9), None, "the fourth job never started: p90 is not reached");
        assert_eq!(legend_text(&s), "a: 4 jobs, 1 never started");
        // The last wait is the chart's end: no extra point.
        assert_eq!(sw(&[10, 30], 0).steps(30), vec![(0, 0.0), (10, 0.0), (10, 0.5), (30, 0.5), (30, 1.0)]);
    }

    #[test]
    fn a_live_states_waits_are_those_of_its_jobs_queued_at_start_at() {
        // The notebook forked after 3000 s (R28): two jobs run since before it, two were
        // preempted before it. None of their waits is this run's, as the engine's summary says;
        // a job added to the queue at startAt is counted from its submitAt.
        let s = presets::scenario(presets::NOTEBOOK).unwrap();
        let mut sim = quotasim::Simulation::new(quotasim::validate(&s).unwrap());
        sim.run_until(3000);
        let mut state = sim.state(&s).scenario;
        state.jobs.push(quotasim::model::Job::new("fresh", "qs3", "ml.g5.xlarge", 1, 2000, 600));
        let r = RunData::compute(quotasim::validate(&state).unwrap());
        let w = share_waits(&r);
        let counted: usize = w.iter().map(ShareWaits::total).sum();
        assert_eq!(counted, 1, "{w:?}");
        assert_eq!(w[2].waits, vec![1000], "queued from 2000, started at startAt");
        let engine = r.summary.overall.wait_seconds.count;
        assert_eq!(engine, 1);
    }

    #[test]
    fn a_step_path_keeps_the_first_and_last_corner_of_each_pixel_column() {
        let d = step_path(
            [(0.0, 10.0), (5.0, 10.0), (5.0, 8.0), (5.02, 8.0), (5.04, 6.0), (9.0, 6.0)].into_iter(),
        );
        assert_eq!(d, "M0.0,10.0L5.0,10.0L5.0,6.0L9.0,6.0");
        assert_eq!(step_path(std::iter::empty()), "");
        // 20,000 distinct waits on a 300 px chart: a path of at most two corners a column.
        let many = (0..20_000u64).map(|i| (i as f64 * 300.0 / 20_000.0, 200.0 - i as f64 / 100.0));
        assert!(step_path(many).matches('L').count() <= 2 * 3000);
    }

    #[test]
    fn an_empty_share_draws_nothing_and_says_so() {
        let s = sw(&[], 0);
        assert!(s.steps(100).is_empty());
        assert_eq!((s.quantile(0.5), quantile_text(s.quantile(0.5), 0)), (None, "–".into()));
        assert_eq!(legend_text(&s), "a: no jobs");
        // Only censored jobs: a flat line at 0.
        assert_eq!(sw(&[], 2).steps(50), vec![(0, 0.0), (50, 0.0)]);
    }

    fn notebook() -> RunData {
        let s = presets::scenario(presets::NOTEBOOK).unwrap();
        RunData::compute(quotasim::validate(&s).unwrap())
    }

    #[test]
    fn jobs_that_never_start_are_counted_as_censored_not_dropped() {
        let mut s = presets::scenario(presets::NOTEBOOK).unwrap();
        // A job asking for more than the service environment has never starts (R1).
        let mut big = s.jobs[0].clone();
        big.job_name = "too_big".into();
        big.quota_share_name = "qs3".into();
        big.instance_count = Some(99);
        s.jobs.push(big);
        s.settings.horizon_seconds = Some(40_000);
        let r = RunData::compute(quotasim::validate(&s).unwrap());
        let w = share_waits(&r);
        assert_eq!(w[2].name, "qs3");
        assert_eq!((w[2].waits.len(), w[2].censored), (0, 1), "{w:?}");
        assert_eq!((w[0].waits.len(), w[0].censored), (3, 0), "qs1 is as before");
        let svg = wait_cdf_svg(&r, &["#111111".into(), "#222222".into(), "#333333".into()], 700.0, 220.0);
        assert!(svg.contains("qs3: 1 job, 1 never started"), "{svg}");
        assert!(svg.contains("qs3: p50 not reached, p90 not reached, 1 of 1 never started"), "{svg}");
        assert_eq!(svg.matches("class=\"cdf\"").count(), 3, "a flat line for qs3 at 0 %");
    }

    #[test]
    fn the_notebook_chart_has_a_line_per_share_with_jobs_and_duration_ticks() {
        let r = notebook();
        let w = share_waits(&r);
        assert_eq!(w.iter().map(ShareWaits::total).collect::<Vec<_>>(), [3, 1, 0]);
        // Every job ran; each wait is its first start minus its submission.
        for j in &r.jobs {
            let s = &w[r.share_index(&j.quota_share_name).unwrap()];
            assert!(s.waits.contains(&(j.first_started_at.unwrap() - j.submit_at)));
        }
        let colors = vec!["#111111".into(), "#222222".into(), "#333333".into()];
        let svg = wait_cdf_svg(&r, &colors, 700.0, 220.0);
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\"") && svg.ends_with("</svg>"));
        assert!(svg.contains("viewBox=\"0 0 700 220\""));
        assert_eq!(svg.matches("class=\"cdf\"").count(), 2, "qs3 has no jobs: no line");
        assert!(svg.contains("stroke=\"#111111\"") && svg.contains("stroke=\"#222222\""));
        assert!(svg.contains(">100 %<") && svg.contains(">50 %<"));
        assert!(svg.contains(" min<") || svg.contains(" h<"), "duration ticks: {svg}");
        assert!(svg.contains("<desc id=\"wcdf-d\">qs1: p50 "), "{svg}");
        assert!(svg.contains("qs3: p50 –, p90 –"));
    }

    #[test]
    fn hostile_names_and_colours_stay_text() {
        let mut r = notebook();
        let payload = "#fff\"/><img src=x onerror=alert(1)>";
        r.share_names[0] = payload.into();
        let svg = wait_cdf_svg(&r, &[payload.into()], 500.0, 200.0);
        assert!(!svg.contains("<img"), "{svg}");
    }
}
