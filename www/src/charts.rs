//! SVG markup of the charts, as strings: pure functions of a run, tested natively.
//!
//! The markup is aggregated (one path per share and layer, lanes only for the visible window of
//! jobs) so that a 10,000-job run stays a few thousand nodes at most. Interactive parts carry
//! `data-*` attributes that the components read with one delegated listener.
//!
//! The markup is set with `inner_html`, and every text it interpolates (names, reasons, share
//! colours) comes from a scenario that may have arrived in a link: each is passed through
//! [`escape`] where it is written, whatever validation it went through before.

use std::collections::HashMap;
use std::fmt::Write;

use quotasim::PreemptionKind;

use crate::forecast::{band_markup, LaneForecast};
use crate::geometry::{
    format_duration, format_time, periodic_in_window, stack, step_area_path, step_line_path, time_ticks,
    value_ticks, RowWindow, Scale,
};
use crate::run::RunData;
use crate::text::{escape, truncate};

/// Margins of the time charts (left is wide enough for labels).
pub const M_LEFT: f64 = 56.0;
pub const M_RIGHT: f64 = 16.0;
pub const M_TOP: f64 = 12.0;
pub const M_BOTTOM: f64 = 28.0;

/// A horizontal grid line across a chart of `width` at `y`, labelled `label` (markup-safe text)
/// in the left margin.
pub fn y_grid_line(out: &mut String, y: f64, width: f64, label: &str) {
    let _ = write!(
        out,
        "<line class=\"grid\" x1=\"{M_LEFT}\" x2=\"{:.1}\" y1=\"{y:.1}\" y2=\"{y:.1}\"/>\
         <text class=\"tick\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{label}</text>",
        width - M_RIGHT,
        M_LEFT - 6.0,
        y + 4.0
    );
}

/// Vertical grid lines from `y_top` to `y` at readable times between `t0` and `t1` (at most
/// `max_ticks`), each labelled `label(t)` (markup-safe text) under the axis.
pub fn x_time_ticks(
    out: &mut String,
    sx: &Scale,
    (t0, t1): (u64, u64),
    (y_top, y): (f64, f64),
    max_ticks: usize,
    label: impl Fn(u64) -> String,
) {
    for t in time_ticks(t0, t1, max_ticks) {
        let x = sx.map(t as f64);
        let _ = write!(
            out,
            "<line class=\"grid\" x1=\"{x:.1}\" x2=\"{x:.1}\" y1=\"{y_top:.1}\" y2=\"{y:.1}\"/>\
             <text class=\"tick\" x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            y + 16.0,
            label(t)
        );
    }
}

/// Left margin of the timeline (job names).
pub const TL_LEFT: f64 = 170.0;
pub const TL_LANE: f64 = 22.0;
pub const TL_TOP: f64 = 26.0;
/// Most checkpoint ticks drawn in one timeline lane; past it, the lane's further checkpoints are
/// drawn as one band per attempt. With MIN_TICK_GAP_PX this keeps a lane to a few hundred
/// elements at any zoom, whatever the job's length and checkpoint interval.
pub const MAX_TICKS_PER_LANE: usize = 400;
/// Checkpoint ticks closer together than this (pixels) are drawn as a band instead.
pub const MIN_TICK_GAP_PX: f64 = 3.0;

/// Colour of a preemption reason.
pub fn kind_color(k: PreemptionKind) -> &'static str {
    match k {
        PreemptionKind::CrossShare => "#ff9f1c",
        PreemptionKind::InShare => "#c77dff",
        PreemptionKind::CapacityReduced => "#ff4d6d",
    }
}

/// The share colours, escaped once for the attributes they are written into.
fn escape_all(colors: &[String]) -> Vec<String> {
    colors.iter().map(|c| escape(c)).collect()
}

/// The x scale of a time chart of `width` pixels over `[t0, t1]`.
pub fn time_scale(t0: u64, t1: u64, left: f64, width: f64) -> Scale {
    Scale::new(t0 as f64, t1.max(t0 + 1) as f64, left, (width - M_RIGHT).max(left + 10.0))
}

/// Hatch patterns, one per share colour; `colors` are escaped already.
fn hatch_defs(out: &mut String, colors: &[String], prefix: &str) {
    out.push_str("<defs>");
    for (i, c) in colors.iter().enumerate() {
        let _ = write!(
            out,
            "<pattern id=\"{prefix}{i}\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" \
             patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"{c}\" fill-opacity=\"0.18\"/>\
             <line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"{c}\" stroke-width=\"3\"/></pattern>"
        );
    }
    out.push_str(
        "<pattern id=\"lost\" width=\"4\" height=\"4\" patternUnits=\"userSpaceOnUse\" \
         patternTransform=\"rotate(45)\"><rect width=\"4\" height=\"4\" fill=\"#ff4d6d\" fill-opacity=\"0.35\"/>\
         <line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"4\" stroke=\"#ff4d6d\" stroke-width=\"2\"/></pattern></defs>",
    );
}

fn time_axis(out: &mut String, sx: &Scale, t0: u64, t1: u64, y: f64, y_top: f64, max_ticks: usize) {
    x_time_ticks(out, sx, (t0, t1), (y_top, y), max_ticks, format_time);
}

/// The frame the utilization and lending charts share: the SVG element, hatch patterns, a
/// clip for the plot area, value grid and ticks, the y-axis label and the time axis.
/// `colors` are escaped already.
struct Frame<'a> {
    width: f64,
    height: f64,
    colors: &'a [String],
    prefix: String,
    clip: String,
}

impl Frame<'_> {
    /// Writes the frame for values up to `peak`; returns the time and value scales.
    fn open(
        &self,
        out: &mut String,
        run: &RunData,
        win: (u64, u64),
        peak: u64,
        aria: &str,
        y_label: &str,
    ) -> (Scale, Scale) {
        let (width, height) = (self.width, self.height);
        let (t0, t1) = window_of(run, win);
        let sx = time_scale(t0, t1, M_LEFT, width);
        let ticks = value_ticks(peak, ((height - M_TOP - M_BOTTOM) / 28.0).max(2.0) as usize);
        let ymax = *ticks.last().unwrap_or(&1) as f64;
        let sy = Scale::new(0.0, ymax, height - M_BOTTOM, M_TOP);
        let _ = write!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" \
             role=\"img\" aria-label=\"{}\">",
            escape(aria)
        );
        hatch_defs(out, self.colors, &self.prefix);
        clip_def(out, &self.clip, M_LEFT, width - M_RIGHT, 0.0, height - M_BOTTOM + 1.0);
        for v in &ticks {
            y_grid_line(out, sy.map(*v as f64), width, &v.to_string());
        }
        let _ = write!(
            out,
            "<text class=\"axis-label\" transform=\"translate(14,{:.1}) rotate(-90)\" text-anchor=\"middle\">{}</text>",
            (height - M_BOTTOM + M_TOP) / 2.0,
            escape(y_label)
        );
        time_axis(out, &sx, t0, t1, height - M_BOTTOM, M_TOP, ((width - M_LEFT) / 90.0) as usize);
        (sx, sy)
    }
}

/// Stacked utilization of instance type `ti`: each share's own use (solid) and borrowed use
/// (hatched), the service environment capacity (dashed) and the shares' quotas stacked in the
/// same order (dotted lines in the share's colour).
pub fn utilization_svg(
    run: &RunData,
    ti: usize,
    colors: &[String],
    width: f64,
    height: f64,
    win: (u64, u64),
) -> String {
    let Some(ts) = run.types.get(ti) else { return String::new() };
    let mut out = String::with_capacity(16 * 1024);
    let colors = &escape_all(colors);
    let aria = format!("Utilization of {} over time, stacked by quota share", ts.name);
    let frame = Frame { width, height, colors, prefix: format!("h{ti}-"), clip: format!("uc{ti}") };
    let (sx, sy) = frame.open(&mut out, run, win, ts.peak, &aria, "instances");
    let ns = run.share_names.len();
    let mut layers: Vec<Vec<u64>> = Vec::with_capacity(ns * 2);
    for s in 0..ns {
        layers.push(ts.own[s].clone());
        layers.push(ts.borrowed[s].clone());
    }
    let bands = stack(&layers);
    let _ = write!(out, "<g clip-path=\"url(#uc{ti})\">");
    for (k, band) in bands.iter().enumerate() {
        let s = k / 2;
        let d = step_area_path(&run.samples, band, run.end, &sx, &sy);
        if d.is_empty() {
            continue;
        }
        let c = colors.get(s).map(String::as_str).unwrap_or("#888");
        if k % 2 == 0 {
            let _ = write!(out, "<path d=\"{d}\" fill=\"{c}\" fill-opacity=\"0.85\"/>");
        } else {
            let _ =
                write!(out, "<path d=\"{d}\" fill=\"url(#h{ti}-{s})\" stroke=\"{c}\" stroke-width=\"1\"/>");
        }
    }
    let quota_layers: Vec<Vec<u64>> = ts.quota.clone();
    let qbands = stack(&quota_layers);
    for (s, band) in qbands.iter().enumerate() {
        if band.iter().all(|(b, t)| b == t) {
            continue;
        }
        let tops: Vec<u64> = band.iter().map(|b| b.1).collect();
        let d = step_line_path(&run.samples, &tops, run.end, &sx, &sy);
        let c = colors.get(s).map(String::as_str).unwrap_or("#888");
        let _ = write!(
            out,
            "<path d=\"{d}\" fill=\"none\" stroke=\"{c}\" stroke-width=\"1.5\" stroke-dasharray=\"2 3\"><title>{} quota (stacked)</title></path>",
            escape(&run.share_names[s])
        );
    }
    let d = step_line_path(&run.samples, &ts.capacity, run.end, &sx, &sy);
    let _ = write!(
        out,
        "<path d=\"{d}\" fill=\"none\" class=\"capacity-line\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"><title>service environment capacity</title></path></g>"
    );
    out.push_str("</svg>");
    out
}

/// Borrowed capacity of type `ti` by lender and borrower (R15 attribution), stacked: each band
/// is filled with the lender's colour and hatched with the borrower's.
pub fn lending_svg(
    run: &RunData,
    ti: usize,
    colors: &[String],
    width: f64,
    height: f64,
    win: (u64, u64),
) -> String {
    let Some(ts) = run.types.get(ti) else { return String::new() };
    let mut out = String::with_capacity(8 * 1024);
    let peak =
        (0..run.samples.len()).map(|i| ts.flows.iter().map(|f| f.2[i]).sum::<u64>()).max().unwrap_or(0);
    let colors = &escape_all(colors);
    let aria = format!("Capacity lent between quota shares over time for {}", ts.name);
    let frame = Frame { width, height, colors, prefix: format!("l{ti}-"), clip: format!("lc{ti}") };
    let (sx, sy) = frame.open(&mut out, run, win, peak, &aria, "instances lent");
    if ts.flows.is_empty() {
        let _ = write!(
            out,
            "<text class=\"empty\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">No share borrowed {} in this run</text>",
            (M_LEFT + width) / 2.0,
            height / 2.0,
            escape(&ts.name)
        );
    }
    let layers: Vec<Vec<u64>> = ts.flows.iter().map(|f| f.2.clone()).collect();
    let _ = write!(out, "<g clip-path=\"url(#lc{ti})\">");
    for (k, band) in stack(&layers).iter().enumerate() {
        let (l, b, _) = &ts.flows[k];
        let d = step_area_path(&run.samples, band, run.end, &sx, &sy);
        if d.is_empty() {
            continue;
        }
        let lc = colors.get(*l).map(String::as_str).unwrap_or("#888");
        let title = format!("{} lends to {}", run.share_names[*l], run.share_names[*b]);
        let _ = write!(
            out,
            "<path d=\"{d}\" fill=\"{lc}\" fill-opacity=\"0.55\"/><path d=\"{d}\" fill=\"url(#l{ti}-{b})\" \
             stroke=\"{lc}\"><title>{}</title></path>",
            escape(&title)
        );
    }
    out.push_str("</g></svg>");
    out
}

/// One flow of the lending chart's key: lender and borrower by name, and the CSS background of
/// its swatch, drawn as on the chart (the lender's colour as fill, the borrower's as stripes),
/// so that two flows from one lender differ by their stripes.
#[derive(Clone, Debug, PartialEq)]
pub struct LendingKey {
    pub lender: String,
    pub borrower: String,
    pub background: String,
}

/// The lending chart's key: every (lender, borrower) pair that lent anything, in the order the
/// chart first stacks them, over all instance types.
pub fn lending_key(run: &RunData, colors: &[String]) -> Vec<LendingKey> {
    let color = |i: usize| colors.get(i).map_or("#888", String::as_str);
    let mut seen: Vec<(usize, usize)> = Vec::new();
    for t in &run.types {
        for (l, b, _) in &t.flows {
            if !seen.contains(&(*l, *b)) {
                seen.push((*l, *b));
            }
        }
    }
    seen.into_iter()
        .map(|(l, b)| LendingKey {
            lender: run.share_names[l].clone(),
            borrower: run.share_names[b].clone(),
            background: format!(
                "repeating-linear-gradient(45deg, {bc} 0 3px, transparent 3px 6px), {lc}",
                bc = color(b),
                lc = color(l)
            ),
        })
        .collect()
}

/// Markers whose centres are closer than this share one group marker.
pub const MARKER_GROUP_PX: f64 = 12.0;

/// Writes a lane's preemption markers (centre x, preemption index; in time order): one diamond
/// each, or, where they are closer than [`MARKER_GROUP_PX`], one group marker with the count
/// that opens a list of them (so overlapping markers never take each other's clicks).
fn marker_groups(out: &mut String, run: &RunData, job: &str, markers: &[(f64, usize)], cy: f64) {
    let mut i = 0;
    while i < markers.len() {
        let mut k = i + 1;
        while k < markers.len() && markers[k].0 - markers[k - 1].0 < MARKER_GROUP_PX {
            k += 1;
        }
        let group = &markers[i..k];
        let cx = group[0].0;
        let d = format!(
            "M{cx:.1},{:.1}L{:.1},{cy:.1}L{cx:.1},{:.1}L{:.1},{cy:.1}Z",
            cy - 7.0,
            cx + 7.0,
            cy + 7.0,
            cx - 7.0
        );
        if let [(_, pi)] = group {
            let p = &run.preemptions[*pi];
            let _ = write!(
                out,
                "<path class=\"marker\" data-pre=\"{pi}\" tabindex=\"0\" role=\"button\" \
                 aria-label=\"Preemption of {} at {}: {}\" d=\"{d}\" \
                 fill=\"{}\"><title>{} preempted at {}: {} (click to explain)</title></path>",
                escape(job),
                format_time(p.decided_at),
                escape(p.kind.reason()),
                kind_color(p.kind),
                escape(job),
                format_time(p.decided_at),
                escape(p.kind.reason())
            );
        } else {
            let ids: Vec<String> = group.iter().map(|g| g.1.to_string()).collect();
            let (a, b) = (
                run.preemptions[group[0].1].decided_at,
                run.preemptions[group[group.len() - 1].1].decided_at,
            );
            let label = format!(
                "{} preemptions of {} from {} to {}: open the list",
                group.len(),
                escape(job),
                format_time(a),
                format_time(b)
            );
            let _ = write!(
                out,
                "<g class=\"marker-group\" data-group=\"{}\" tabindex=\"0\" role=\"button\" aria-label=\"{label}\">\
                 <circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"7\"/><text x=\"{cx:.1}\" y=\"{:.1}\" \
                 text-anchor=\"middle\">{}</text><title>{label}</title></g>",
                ids.join(","),
                cy + 3.5,
                group.len()
            );
        }
        i = k;
    }
}

/// A stretch of time and the most instances in it: (from, to, most).
pub type Span = (u64, u64, u64);

/// The stretches where a step series (value `v[i]` from `samples[i]` to the next sample, the
/// last to `end`) is above zero, as (from, to, largest value).
pub fn borrowing_spans(samples: &[u64], v: &[u64], end: u64) -> Vec<Span> {
    let mut out: Vec<Span> = Vec::new();
    for (i, &x) in v.iter().enumerate().take(samples.len()) {
        let (a, b) = (samples[i], samples.get(i + 1).copied().unwrap_or(end));
        if x == 0 || b <= a {
            continue;
        }
        match out.last_mut() {
            Some(last) if last.1 == a => {
                last.1 = b;
                last.2 = last.2.max(x);
            }
            _ => out.push((a, b, x)),
        }
    }
    out
}

/// The jobs shown as lanes of the timeline, in order: by share (input order), then submission.
pub fn lane_jobs(run: &RunData, share: Option<usize>, only_preempted: bool) -> Vec<usize> {
    let sc = run.full().scenario();
    let mut v: Vec<usize> = (0..run.jobs.len())
        .filter(|&j| share.is_none_or(|s| sc.jobs[j].share.index() == s))
        .filter(|&j| !only_preempted || run.jobs[j].preemption_summary.preempted_attempt_count > 0)
        .collect();
    v.sort_by_key(|&j| (sc.jobs[j].share, sc.jobs[j].submit_at, j));
    v
}

/// Jobs whose name contains `query` (any case), optionally of one share and with a status at
/// the end of the run (`"SUCCEEDED"`, `"RUNNABLE"`, ... as the result says, or `"preempted"`
/// for jobs preempted at least once); at most `limit`, in lane order (share, submission).
pub fn find_jobs(run: &RunData, query: &str, share: Option<usize>, status: &str, limit: usize) -> Vec<usize> {
    let q = query.trim().to_lowercase();
    let sc = run.full().scenario();
    lane_jobs(run, share, status == "preempted")
        .into_iter()
        .filter(|&j| q.is_empty() || sc.jobs[j].name.to_lowercase().contains(&q))
        .filter(|&j| {
            status.is_empty()
                || status == "preempted"
                || run.jobs[j].status.is_some_and(|s| s.as_str() == status)
        })
        .take(limit)
        .collect()
}

/// What the timeline marks besides the run: the selected job's lane and a start-time forecast
/// drawn on its job's lane.
#[derive(Clone, Copy, Debug, Default)]
pub struct Marks<'a> {
    pub selected: Option<usize>,
    pub forecast: Option<&'a LaneForecast>,
}

impl Marks<'_> {
    /// Only a selected lane.
    pub fn selected(j: Option<usize>) -> Marks<'static> {
        Marks { selected: j, forecast: None }
    }
}

/// Borrowing stretches closer than this on screen (pixels) are drawn as one.
const BAND_MERGE_PX: f64 = 3.0;

/// Borrowing stretches as drawn: those on screen, neighbours closer than [`BAND_MERGE_PX`]
/// merged.
#[derive(Debug, PartialEq)]
struct Band {
    xa: f64,
    xb: f64,
    from: u64,
    to: u64,
    most: u64,
    count: usize,
}

/// `spans` (from, to, most instances; in time order) on screen, as `span` places them.
fn merged_bands(spans: &[Span], span: &dyn Fn(u64, u64) -> Option<(f64, f64)>) -> Vec<Band> {
    let mut out: Vec<Band> = Vec::new();
    for &(a, b, most) in spans {
        let Some((xa, xb)) = span(a, b) else { continue };
        match out.last_mut() {
            Some(l) if xa - l.xb < BAND_MERGE_PX => {
                l.xb = l.xb.max(xb);
                l.to = b;
                l.most = l.most.max(most);
                l.count += 1;
            }
            _ => out.push(Band { xa, xb, from: a, to: b, most, count: 1 }),
        }
    }
    out
}

/// The preemption timeline: one lane per job of `lanes[window]`; attempts as bars in the share's
/// colour (borrowed attempts hatched), waiting as a thin line, checkpoints as ticks (a band
/// where they are too dense), lost work shaded red, the grace period striped, and preemptions as
/// diamonds in the reason's colour. Only what falls inside the time window `win` is written.
pub fn timeline_svg(
    run: &RunData,
    lanes: &[usize],
    window: RowWindow,
    colors: &[String],
    width: f64,
    marks: Marks<'_>,
    win: (u64, u64),
) -> String {
    let selected = marks.selected;
    let sc = run.full().scenario();
    let height = TL_TOP + window.count.max(1) as f64 * TL_LANE + 8.0;
    let (t0, t1) = window_of(run, win);
    let sx = time_scale(t0, t1, TL_LEFT, width);
    let mut out = String::with_capacity(32 * 1024);
    let colors = &escape_all(colors);
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" \
         data-t0=\"{t0}\" data-t1=\"{t1}\" \
         aria-label=\"Job timeline: attempts, checkpoints, preemptions and lost work\">"
    );
    hatch_defs(&mut out, colors, "t-");
    clip_def(&mut out, "tc", TL_LEFT - 8.0, width - M_RIGHT + 8.0, 0.0, height);
    // A live state (R28) begins at its startAt: the left edge says so, above the job names.
    if run.start > 0 && t0 == run.start {
        let _ = write!(
            out,
            "<text class=\"tick start-at\" x=\"14\" y=\"14\">from startAt {}</text>",
            format_time(run.start)
        );
    }
    for t in time_ticks(t0, t1, ((width - TL_LEFT) / 90.0) as usize) {
        let x = sx.map(t as f64);
        let _ = write!(
            out,
            "<line class=\"grid\" x1=\"{x:.1}\" x2=\"{x:.1}\" y1=\"{:.1}\" y2=\"{:.1}\"/>\
             <text class=\"tick\" x=\"{x:.1}\" y=\"14\" text-anchor=\"middle\">{}</text>",
            TL_TOP - 4.0,
            height,
            format_time(t)
        );
    }
    let pre_by_job =
        |j: usize| run.preemptions.iter().enumerate().filter(move |(_, p)| p.victim.index() == j);
    let lead = run.scheduled_seconds + run.starting_seconds;
    // Only what meets the plot (the clip rectangle) is written; extents are cut to it, so a deep
    // zoom into a long run writes a few elements, not one per attempt and checkpoint of the run.
    let (left, right) = (TL_LEFT - 8.0, width - M_RIGHT + 8.0);
    let span = |a: u64, b: u64| -> Option<(f64, f64)> {
        let (xa, xb) = (sx.map(a as f64), sx.map(b as f64));
        (xb >= left && xa <= right).then(|| (xa.max(left - 1.0), xb.min(right + 1.0)))
    };
    let tick_gap = (sx.map(1.0) - sx.map(0.0)).abs();
    // R13: when each (type, share) was borrowing, as (from, to, most instances), built once for
    // the lanes on screen.
    let mut borrowing: HashMap<(usize, usize), Vec<Span>> = HashMap::new();
    for row in lanes.iter().skip(window.first).take(window.count) {
        let jc = &sc.jobs[*row];
        let key = (jc.ty.index(), jc.share.index());
        borrowing.entry(key).or_insert_with(|| {
            let series = run.types.get(key.0).and_then(|t| t.borrowed.get(key.1));
            borrowing_spans(&run.samples, series.map_or(&[][..], Vec::as_slice), run.end)
        });
    }
    for (row, &j) in lanes.iter().enumerate().skip(window.first).take(window.count) {
        let y = TL_TOP + (row - window.first) as f64 * TL_LANE;
        let jr = &run.jobs[j];
        let jc = &sc.jobs[j];
        let s = jc.share.index();
        let c = colors.get(s).map(String::as_str).unwrap_or("#888");
        let sel = if selected == Some(j) { " selected" } else { "" };
        let _ = write!(
            out,
            "<g class=\"lane{sel}\"><rect class=\"lane-bg\" x=\"0\" y=\"{y:.1}\" width=\"{width:.0}\" height=\"{TL_LANE}\"/>\
             <rect x=\"4\" y=\"{:.1}\" width=\"4\" height=\"{:.1}\" fill=\"{c}\"/>\
             <text class=\"lane-label\" data-job=\"{j}\" tabindex=\"0\" role=\"button\" x=\"14\" y=\"{:.1}\">{}</text>",
            y + 4.0,
            TL_LANE - 8.0,
            y + 15.0,
            escape(&truncate(&jc.name, 22))
        );
        out.push_str("<g clip-path=\"url(#tc)\">");
        // The share's borrowing over time (R13), a hatched band along the lane's foot; stretches
        // closer than BAND_MERGE_PX on screen are one rectangle (a month of a busy share borrows
        // thousands of times: one rectangle each made 20 lanes a 1.7 MB drawing).
        for band in merged_bands(borrowing.get(&(jc.ty.index(), s)).map_or(&[][..], Vec::as_slice), &span) {
            let what = if band.count == 1 {
                format!("from {} to {}", format_time(band.from), format_time(band.to))
            } else {
                format!(
                    "{} times between {} and {}; zoom in to see each",
                    band.count,
                    format_time(band.from),
                    format_time(band.to)
                )
            };
            let _ = write!(
                out,
                "<rect class=\"borrow-band\" x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"3\" fill=\"url(#t-{s})\">\
                 <title>{} borrowing (up to {} instance(s)) {what}</title></rect>",
                band.xa,
                y + TL_LANE - 4.0,
                (band.xb - band.xa).max(1.0),
                escape(&run.share_names[s]),
                band.most,
            );
        }
        // Waiting: from submission (or the previous release) to the next dispatch, or to the end.
        let mut from = jr.submit_at;
        let mut waits: Vec<(u64, u64)> = Vec::new();
        for a in &jr.attempts {
            if a.started_at > from {
                waits.push((from, a.started_at));
            }
            from = a.stopped_at.unwrap_or(run.end);
        }
        let terminal = jr.status.is_some_and(|st| st.is_terminal());
        if !terminal && jr.attempts.last().is_none_or(|a| a.stopped_at.is_some()) && from < run.end {
            waits.push((from, run.end));
        }
        for (a, b) in waits {
            let Some((xa, xb)) = span(a, b) else { continue };
            let xb = xb.max(xa + 2.0);
            let _ = write!(
                out,
                "<rect class=\"wait\" data-wait=\"{j}\" data-at=\"{}\" x=\"{xa:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"8\">\
                 <title>{} waiting {} to {}: click for the reason</title></rect>",
                (a + b) / 2,
                y + 7.0,
                xb - xa,
                escape(&jc.name),
                format_time(a),
                format_time(b)
            );
        }
        let mut ticks = 0usize;
        for (k, a) in jr.attempts.iter().enumerate() {
            let stop = a.stopped_at.unwrap_or(run.end);
            let Some((xa, xb)) = span(a.started_at, stop) else { continue };
            let xb = xb.max(xa + 1.5);
            let _ = write!(
                out,
                "<rect class=\"attempt\" data-job=\"{j}\" x=\"{xa:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"14\" \
                 fill=\"{c}\" stroke=\"{c}\"><title>{} attempt {}: {} to {}{}{}</title></rect>",
                y + 4.0,
                xb - xa,
                escape(&jc.name),
                k + 1,
                format_time(a.started_at),
                a.stopped_at.map_or_else(|| String::from("(running)"), format_time),
                if a.borrowed_instances > 0 {
                    format!(", borrowed {} instance(s) when dispatched", a.borrowed_instances)
                } else {
                    String::new()
                },
                a.status_reason.as_deref().map(|r| format!(", {}", escape(r))).unwrap_or_default()
            );
            // What the job borrowed when it was dispatched: a hatched notch at the attempt's start
            // (the share's borrowing over time is the band under the lane).
            if a.borrowed_instances > 0 && xa >= left {
                let _ = write!(
                    out,
                    "<rect class=\"borrow-mark\" x=\"{xa:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"14\" fill=\"url(#t-{s})\" \
                     stroke=\"{c}\"><title>{} borrowed {} instance(s) when dispatched at {}</title></rect>",
                    y + 4.0,
                    (xb - xa).min(7.0),
                    escape(&jc.name),
                    a.borrowed_instances,
                    format_time(a.started_at)
                );
            }
            // Checkpoint ticks (R8) inside the window: one line each while they are at least
            // MIN_TICK_GAP_PX apart and the lane has drawn fewer than MAX_TICKS_PER_LANE, else one
            // band over the checkpointed stretch.
            if let Some(ci) = jc.checkpoint_interval.filter(|c| *c > 0) {
                let stop_signal = run
                    .preemptions_of(j)
                    .find(|p| p.decided_at >= a.started_at && p.decided_at <= stop)
                    .map_or(stop, |p| p.decided_at);
                let first = a.started_at + lead + ci;
                let ks = periodic_in_window(first, ci, stop_signal, t0, t1);
                let n = (ks.end - ks.start) as usize;
                let at = |k: u64| sx.map((first + k * ci) as f64);
                let one_by_one = tick_gap * ci as f64 >= MIN_TICK_GAP_PX && ticks + n <= MAX_TICKS_PER_LANE;
                if n > 0 && one_by_one {
                    for k in ks {
                        let x = at(k);
                        let _ = write!(
                            out,
                            "<line class=\"ckpt\" x1=\"{x:.1}\" x2=\"{x:.1}\" y1=\"{:.1}\" y2=\"{:.1}\"/>",
                            y + 4.0,
                            y + 18.0
                        );
                    }
                    ticks += n;
                } else if n > 0 {
                    let (xa, xb) = (at(ks.start), at(ks.end - 1).max(at(ks.start) + 1.0));
                    let _ = write!(
                        out,
                        "<rect class=\"ckpt-band\" x=\"{xa:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"14\"/>",
                        y + 4.0,
                        xb - xa
                    );
                }
            }
        }
        // Markers closer than MARKER_GROUP_PX are drawn as one group that opens a list.
        let mut markers: Vec<(f64, usize)> = Vec::new();
        for (pi, p) in pre_by_job(j) {
            if p.lost > 0 {
                if let Some((xl, xd)) = span(p.decided_at.saturating_sub(p.lost), p.decided_at) {
                    let _ = write!(
                        out,
                        "<rect class=\"lost\" x=\"{xl:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"14\" fill=\"url(#lost)\">\
                         <title>{} of training lost</title></rect>",
                        y + 4.0,
                        (xd - xl).max(1.0),
                        escape(&format_duration(p.lost))
                    );
                }
            }
            if let Some((xd, xr)) = span(p.decided_at, p.releases_at) {
                let _ = write!(
                    out,
                    "<rect class=\"grace\" x=\"{xd:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"14\"/>",
                    y + 4.0,
                    (xr - xd).max(1.0)
                );
            }
            let cx = sx.map(p.decided_at as f64);
            if cx < left || cx > right {
                continue;
            }
            markers.push((cx, pi));
        }
        marker_groups(&mut out, run, &jc.name, &markers, y + 11.0);
        // A start-time forecast of this job: its p10-p90 band, p50 tick and actual start.
        if let Some(f) = marks.forecast.filter(|f| f.job == j) {
            band_markup(&mut out, &sx, f, y, TL_LANE, (TL_LEFT, width - M_RIGHT));
        }
        out.push_str("</g></g>");
    }
    if window.count == 0 {
        let _ = write!(
            out,
            "<text class=\"empty\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">No jobs to show</text>",
            width / 2.0,
            TL_TOP + 14.0
        );
    }
    out.push_str("</svg>");
    out
}

/// The visible time window: `win` clamped to the run (from its `startAt`, R28), at least one
/// second wide.
pub fn window_of(run: &RunData, win: (u64, u64)) -> (u64, u64) {
    clamp_window(run.start, run.end, win)
}

/// `win` clamped to a run from `start` to `end`, at least one second wide.
pub fn clamp_window(start: u64, end: u64, win: (u64, u64)) -> (u64, u64) {
    let end = end.max(start + 1);
    let t0 = win.0.clamp(start, end - 1);
    let t1 = win.1.clamp(t0 + 1, end);
    (t0, t1)
}

fn clip_def(out: &mut String, id: &str, x0: f64, x1: f64, y0: f64, y1: f64) {
    let _ = write!(
        out,
        "<clipPath id=\"{id}\"><rect x=\"{x0:.1}\" y=\"{y0:.1}\" width=\"{:.1}\" height=\"{:.1}\"/></clipPath>",
        (x1 - x0).max(0.0),
        (y1 - y0).max(0.0)
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::row_window;
    use crate::presets;

    fn run() -> RunData {
        let s = presets::scenario(presets::NOTEBOOK).unwrap();
        RunData::compute(quotasim::validate(&s).unwrap())
    }

    fn colors() -> Vec<String> {
        vec!["#111111".into(), "#222222".into(), "#333333".into()]
    }

    #[test]
    fn borrowing_stretches_closer_than_a_few_pixels_are_one_band_and_far_ones_stay_apart() {
        // 1 s per pixel: 10,000 one-second stretches 2 s apart are one band; one far off is another.
        let mut spans: Vec<Span> = (0..10_000u64).map(|k| (2 * k, 2 * k + 1, 1 + k % 3)).collect();
        spans.push((100_000, 100_500, 7));
        let span = |a: u64, b: u64| -> Option<(f64, f64)> { (a < 200_000).then_some((a as f64, b as f64)) };
        let bands = merged_bands(&spans, &span);
        assert_eq!(
            bands,
            vec![
                Band { xa: 0.0, xb: 19_999.0, from: 0, to: 19_999, most: 3, count: 10_000 },
                Band { xa: 100_000.0, xb: 100_500.0, from: 100_000, to: 100_500, most: 7, count: 1 },
            ]
        );
        // Off screen, nothing.
        assert!(merged_bands(&[(300_000, 300_010, 1)], &span).is_empty());
        // At 100 s per pixel the same stretches 2 s apart merge too, and at 0.1 s per pixel they do not.
        let fine = |a: u64, b: u64| Some((a as f64 * 10.0, b as f64 * 10.0));
        assert_eq!(merged_bands(&spans[..50], &fine).len(), 50);
    }

    #[test]
    fn utilization_chart_has_layers_and_reference_lines() {
        let r = run();
        let svg = utilization_svg(&r, 0, &colors(), 800.0, 240.0, (0, u64::MAX));
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
        assert!(svg.contains("service environment capacity"));
        assert!(svg.contains("qs1 quota"));
        assert!(svg.contains("url(#h0-0)"), "qs1's borrowed layer is hatched");
        assert!(svg.contains(">0:30<") || svg.contains(">1:00<"), "time ticks in h:mm");
    }

    #[test]
    fn lending_chart_names_lender_and_borrower() {
        let r = run();
        let svg = lending_svg(&r, 0, &colors(), 800.0, 200.0, (0, u64::MAX));
        assert!(svg.contains("qs2 lends to qs1"), "{svg}");
    }

    #[test]
    fn the_lending_key_tells_apart_two_flows_from_one_lender() {
        use quotasim::model::{CapacityLimit, Job, QuotaShare, ResourceSharing, Scenario, Strategy};
        let ty = "ml.g5.xlarge";
        let limit = |n| vec![CapacityLimit::new(ty, n)];
        let mut s = Scenario::default();
        s.service_environment.capacity_limits = limit(4);
        s.quota_shares = vec![
            QuotaShare::new("team-c", Strategy::Lend, limit(2)),
            QuotaShare::new("team-d", Strategy::LendAndBorrow, limit(1)),
            QuotaShare::new("team-a", Strategy::LendAndBorrow, limit(1)),
        ];
        for q in &mut s.quota_shares[1..] {
            q.resource_sharing_configuration = ResourceSharing::new(Strategy::LendAndBorrow, Some(-1));
        }
        s.jobs = vec![Job::new("d1", "team-d", ty, 2, 0, 600), Job::new("a1", "team-a", ty, 2, 0, 600)];
        let r = RunData::compute(quotasim::validate(&s).unwrap());
        let key = lending_key(&r, &colors());
        let names: Vec<(&str, &str)> = key.iter().map(|k| (k.lender.as_str(), k.borrower.as_str())).collect();
        assert_eq!(names, [("team-c", "team-d"), ("team-c", "team-a")]);
        assert_ne!(
            key[0].background, key[1].background,
            "same lender, different borrower: different swatches"
        );
        assert!(
            key[0].background.contains("#222222") && key[0].background.ends_with("#111111"),
            "{}",
            key[0].background
        );
        let svg = lending_svg(&r, 0, &colors(), 800.0, 200.0, (0, u64::MAX));
        assert!(
            svg.contains("team-c lends to team-d") && svg.contains("team-c lends to team-a"),
            "hover names both"
        );
    }

    #[test]
    fn borrowing_is_a_band_of_the_share_and_a_notch_at_dispatch_not_a_hatched_attempt() {
        assert_eq!(borrowing_spans(&[0, 10, 20, 30], &[0, 2, 1, 0], 40), [(10, 30, 2)]);
        assert_eq!(borrowing_spans(&[0, 10], &[1, 0], 40), [(0, 10, 1)]);
        let r = run();
        let lanes = lane_jobs(&r, None, false);
        let svg = timeline_svg(
            &r,
            &lanes,
            row_window(lanes.len(), 10, 0),
            &colors(),
            900.0,
            Marks::default(),
            (0, u64::MAX),
        );
        // qs1_job_med runs 4:32-8:22, but qs1 is back within its quota after 7:47.
        assert!(svg.contains(": 4:32 to 8:22"), "{svg}");
        let bands: Vec<&str> = svg.match_indices("qs1 borrowing").map(|(i, _)| &svg[i..i + 60]).collect();
        assert!(bands.iter().any(|b| b.contains("from 4:17 to 7:47")), "{bands:?}");
        assert!(
            !bands.iter().any(|b| b.contains("to 8:22")),
            "qs1 stops borrowing before the job ends: {bands:?}"
        );
        assert!(svg.matches("class=\"attempt\"").count() > 0);
        for attempt in svg.split("<rect class=\"attempt\"").skip(1) {
            let head = &attempt[..attempt.find('>').unwrap()];
            assert!(!head.contains("url(#"), "attempts are solid: {head}");
        }
        assert!(
            svg.contains("class=\"borrow-mark\"") && svg.contains("borrowed 1 instance(s) when dispatched")
        );
    }

    /// One borrower's long job, reclaimed twice a few minutes apart in a run of a day.
    pub(crate) fn twice_reclaimed() -> RunData {
        use quotasim::model::{CapacityLimit, Job, QuotaShare, ResourceSharing, Scenario, Strategy};
        let ty = "ml.g5.xlarge";
        let limit = |n| vec![CapacityLimit::new(ty, n)];
        let mut s = Scenario::default();
        s.service_environment.capacity_limits = limit(2);
        s.quota_shares = vec![
            QuotaShare::new("lender", Strategy::Lend, limit(1)),
            QuotaShare::new("borrower", Strategy::LendAndBorrow, limit(1)),
        ];
        s.quota_shares[1].resource_sharing_configuration =
            ResourceSharing::new(Strategy::LendAndBorrow, Some(-1));
        let mut long = Job::new("long", "borrower", ty, 2, 0, 86_400);
        long.checkpoint_interval_seconds = Some(60);
        s.jobs =
            vec![long, Job::new("r1", "lender", ty, 1, 100, 60), Job::new("r2", "lender", ty, 1, 400, 60)];
        RunData::compute(quotasim::validate(&s).unwrap())
    }

    #[test]
    fn overlapping_markers_are_one_group_that_lists_them_and_apart_they_are_single() {
        let r = twice_reclaimed();
        assert_eq!(r.preemptions.len(), 2);
        let lanes = lane_jobs(&r, None, false);
        let wide = timeline_svg(
            &r,
            &lanes,
            row_window(lanes.len(), 10, 0),
            &colors(),
            900.0,
            Marks::default(),
            (0, u64::MAX),
        );
        assert!(wide.contains("class=\"marker-group\" data-group=\"0,1\""), "{wide}");
        assert!(wide.contains("2 preemptions of long from 0:01:40 to 0:06:40: open the list"), "{wide}");
        // A round badge as wide as a diamond: the whole of it holds the count, which a
        // diamond's narrowing corners cut.
        let group = &wide[wide.find("class=\"marker-group\"").unwrap()..];
        let group = &group[..group.find("</g>").unwrap()];
        assert!(group.contains("r=\"7\"/><text") && group.contains(">2</text>"), "{group}");
        assert_eq!(wide.matches("class=\"marker\"").count(), 0);
        // Zoomed into the first ten minutes they are far apart: one diamond each.
        let zoom = timeline_svg(
            &r,
            &lanes,
            row_window(lanes.len(), 10, 0),
            &colors(),
            900.0,
            Marks::default(),
            (0, 600),
        );
        assert_eq!(zoom.matches("class=\"marker\"").count(), 2);
        assert!(!zoom.contains("marker-group"));
    }

    #[test]
    fn a_job_is_found_by_part_of_its_name_share_and_status() {
        let r = run();
        let names = |v: Vec<usize>| v.into_iter().map(|j| r.jobs[j].job_name.clone()).collect::<Vec<_>>();
        assert_eq!(names(find_jobs(&r, "JOB_M", None, "", 10)), ["qs1_job_med"]);
        assert_eq!(names(find_jobs(&r, "job", r.share_index("qs2"), "", 10)), ["qs2_job"]);
        assert_eq!(names(find_jobs(&r, "", None, "preempted", 10)).len(), 2);
        assert_eq!(names(find_jobs(&r, "", None, "SUCCEEDED", 10)).len(), 4);
        assert!(find_jobs(&r, "", None, "FAILED", 10).is_empty());
        assert_eq!(find_jobs(&r, "", None, "", 1).len(), 1, "at most the limit");
    }

    #[test]
    fn timeline_draws_markers_only_for_visible_lanes() {
        let r = run();
        let lanes = lane_jobs(&r, None, false);
        assert_eq!(lanes.len(), 4);
        let all = timeline_svg(
            &r,
            &lanes,
            row_window(lanes.len(), 10, 0),
            &colors(),
            900.0,
            Marks::default(),
            (0, u64::MAX),
        );
        assert_eq!(all.matches("class=\"marker\"").count(), 2);
        assert!(all.contains("data-pre=\"0\"") && all.contains("data-pre=\"1\""));
        assert!(all.contains("class=\"ckpt\""));
        let one = timeline_svg(
            &r,
            &lanes,
            row_window(lanes.len(), 1, 3),
            &colors(),
            900.0,
            Marks::default(),
            (0, u64::MAX),
        );
        assert_eq!(one.matches("<g class=\"lane").count(), 1);
        let pre = lane_jobs(&r, None, true);
        assert_eq!(pre.len(), 2);
    }

    #[test]
    fn zoom_windows_are_clamped_to_the_run() {
        let r = run();
        assert_eq!(window_of(&r, (0, u64::MAX)), (0, r.end));
        assert_eq!(window_of(&r, (100, 50)), (100, 101));
        let z = utilization_svg(&r, 0, &colors(), 800.0, 240.0, (0, 1800));
        assert!(z.contains(">0:15<") && !z.contains(">2:00<"), "ticks follow the window");
        assert!(z.contains("clip-path"));
    }

    /// One job of three days that checkpoints every second, then a short one preempting it.
    fn long_checkpointing_run() -> RunData {
        let json = r#"{
          "formatVersion": 1,
          "serviceEnvironment": { "capacityLimits": [ { "capacityUnit": "ml.g5.xlarge", "maxCapacity": 1 } ] },
          "quotaShares": [
            { "quotaShareName": "a", "capacityLimits": [ { "capacityUnit": "ml.g5.xlarge", "maxCapacity": 1 } ],
              "resourceSharingConfiguration": { "strategy": "RESERVE" },
              "preemptionConfiguration": { "inSharePreemption": "ENABLED" } }
          ],
          "jobs": [
            { "jobName": "long", "quotaShareName": "a", "schedulingPriority": 1, "instanceType": "ml.g5.xlarge",
              "instanceCount": 1, "submitAt": 0, "durationSeconds": 259200, "checkpointIntervalSeconds": 1 },
            { "jobName": "urgent", "quotaShareName": "a", "schedulingPriority": 9, "instanceType": "ml.g5.xlarge",
              "instanceCount": 1, "submitAt": 86400, "durationSeconds": 600 }
          ]
        }"#;
        let s = quotasim::json::parse_scenario(json).unwrap();
        RunData::compute(quotasim::validate(&s).unwrap())
    }

    #[test]
    fn a_long_job_checkpointing_every_second_stays_a_few_hundred_elements_at_any_zoom() {
        let r = long_checkpointing_run();
        assert!(r.end > 3 * 86400, "the job is preempted and runs again: {}", r.end);
        let lanes = lane_jobs(&r, None, false);
        let w = row_window(lanes.len(), 18, 0);
        let mut seen_ticks = false;
        for width in [1_000u64, 86_400, 3_600, 600, 60, 10, 1] {
            for start in [0, 86_400 - width / 2, 100_000, r.end - width] {
                let t0 = std::time::Instant::now();
                let svg =
                    timeline_svg(&r, &lanes, w, &colors(), 1600.0, Marks::default(), (start, start + width));
                let elements = svg.matches('<').count();
                assert!(
                    elements < 2 * MAX_TICKS_PER_LANE + 200,
                    "{elements} elements for {width} s at {start}"
                );
                assert!(t0.elapsed().as_millis() < 500, "{:?} for {width} s at {start}", t0.elapsed());
                seen_ticks |= svg.contains("class=\"ckpt\"");
                if start == 100_000 {
                    assert!(
                        svg.contains("class=\"ckpt\"") || svg.contains("class=\"ckpt-band\""),
                        "the running job's checkpoints are shown for {width} s at {start}"
                    );
                }
            }
        }
        assert!(seen_ticks, "zoomed in, checkpoints are single ticks");
        let whole = timeline_svg(&r, &lanes, w, &colors(), 1600.0, Marks::default(), (0, u64::MAX));
        assert!(whole.contains("class=\"ckpt-band\""), "zoomed out, a band");
    }

    /// The notebook's run forked after 3000 s (R28), run from there.
    fn live_state() -> RunData {
        let s = presets::scenario(presets::NOTEBOOK).unwrap();
        let mut sim = quotasim::Simulation::new(quotasim::validate(&s).unwrap());
        sim.run_until(3000);
        let state = sim.state(&s).scenario;
        RunData::compute(quotasim::validate(&state).unwrap())
    }

    #[test]
    fn a_live_state_is_drawn_from_its_start_at() {
        let r = live_state();
        assert_eq!((r.start, r.samples[0]), (3000, 3000), "the series begin at startAt");
        assert_eq!(window_of(&r, (0, u64::MAX)), (3000, r.end));
        assert_eq!(window_of(&r, (100, 200)).0, 3000, "nothing before startAt is shown");
        let lanes = lane_jobs(&r, None, false);
        let svg = timeline_svg(
            &r,
            &lanes,
            row_window(lanes.len(), 10, 0),
            &colors(),
            900.0,
            Marks::default(),
            (0, u64::MAX),
        );
        assert!(svg.contains("data-t0=\"3000\"") && svg.contains(">from startAt 0:50<"), "{svg}");
        // A job running since before startAt: its attempt starts at the left edge.
        let low = r.job_index("qs1_job_low").unwrap();
        assert!(r.jobs[low].attempts[0].started_at < 3000);
        let bar = svg
            .split("<rect class=\"attempt\"")
            .find(|a| a.starts_with(&format!(" data-job=\"{low}\"")))
            .expect("its attempt is drawn");
        let x: f64 = bar.split("x=\"").nth(1).unwrap().split('"').next().unwrap().parse().unwrap();
        assert!((TL_LEFT - 9.0..=TL_LEFT).contains(&x), "from the left edge: {x}");
        let util = utilization_svg(&r, 0, &colors(), 800.0, 240.0, (0, u64::MAX));
        assert!(!util.contains(">0:00<") && !util.contains(">0:30<"), "ticks from startAt on");
        // From the start, nothing changes: no label, and the window begins at 0.
        let n = run();
        let lanes = lane_jobs(&n, None, false);
        let svg = timeline_svg(
            &n,
            &lanes,
            row_window(lanes.len(), 10, 0),
            &colors(),
            900.0,
            Marks::default(),
            (0, u64::MAX),
        );
        assert!(svg.contains("data-t0=\"0\"") && !svg.contains("startAt"));
    }

    #[test]
    fn a_forecast_is_drawn_on_its_jobs_lane_only() {
        let r = run();
        let lanes = lane_jobs(&r, None, false);
        let low = r.job_index("qs1_job_low").unwrap();
        let f = LaneForecast {
            job: low,
            at: 900,
            band: quotasim::eta::Band { p10: Some(600), p50: Some(1200), p90: Some(2400), mean: None },
            horizon_at: 900 + 86_400,
            actual: Some(2000),
            title: String::from("forecast"),
        };
        let marks = Marks { selected: Some(low), forecast: Some(&f) };
        let svg =
            timeline_svg(&r, &lanes, row_window(lanes.len(), 10, 0), &colors(), 900.0, marks, (0, u64::MAX));
        assert_eq!(svg.matches("class=\"eta-band\"").count(), 1);
        // In the lane of qs1_job_low: after its label, before the next lane.
        let lane = svg.split("<g class=\"lane").find(|l| l.contains(&format!("data-job=\"{low}\""))).unwrap();
        assert!(lane.contains("class=\"eta-band\"") && lane.contains("class=\"eta-actual\""), "{lane}");
        let other = Marks { selected: None, forecast: None };
        let plain =
            timeline_svg(&r, &lanes, row_window(lanes.len(), 10, 0), &colors(), 900.0, other, (0, u64::MAX));
        assert!(!plain.contains("eta-band"));
    }

    /// A share colour and names that would break out of an attribute if written as they are.
    const PAYLOAD: &str = "#fff\"/><img src=x onerror=alert(document.domain)>";

    fn assert_inert(svg: &str) {
        assert!(!svg.contains("<img"), "an element was injected: {svg}");
        assert!(!svg.contains("\"/>&lt;") && !svg.contains("'/>"), "an attribute was closed early");
        assert!(
            svg.contains("&lt;img src=x onerror=alert(document.domain)&gt;"),
            "the payload is shown as text"
        );
    }

    #[test]
    fn hostile_colours_and_names_stay_text_in_every_chart() {
        let mut r = run();
        r.share_names[0] = PAYLOAD.into();
        r.types[0].name = PAYLOAD.into();
        let colors = vec![PAYLOAD.to_string(), "#222222".into(), "#333333".into()];
        assert_inert(&utilization_svg(&r, 0, &colors, 800.0, 240.0, (0, u64::MAX)));
        assert_inert(&lending_svg(&r, 0, &colors, 800.0, 200.0, (0, u64::MAX)));
        let lanes = lane_jobs(&r, None, false);
        let tl = timeline_svg(
            &r,
            &lanes,
            row_window(lanes.len(), 10, 0),
            &colors,
            900.0,
            Marks::default(),
            (0, u64::MAX),
        );
        assert_inert(&tl);
    }
}
