//! Chart geometry: scales, ticks, time formatting and lane layout.
//!
//! Pure functions with no DOM access, so they are unit-tested natively.

/// A linear map from a data domain to a pixel range.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scale {
    pub d0: f64,
    pub d1: f64,
    pub r0: f64,
    pub r1: f64,
}

impl Scale {
    pub fn new(d0: f64, d1: f64, r0: f64, r1: f64) -> Self {
        Scale { d0, d1, r0, r1 }
    }

    /// Pixel position of a data value; a zero-width domain maps to the start of the range.
    pub fn map(&self, v: f64) -> f64 {
        let span = self.d1 - self.d0;
        if span.abs() < f64::EPSILON {
            return self.r0;
        }
        self.r0 + (v - self.d0) / span * (self.r1 - self.r0)
    }

    /// Data value at a pixel position (the inverse of [`Scale::map`]).
    pub fn invert(&self, px: f64) -> f64 {
        let span = self.r1 - self.r0;
        if span.abs() < f64::EPSILON {
            return self.d0;
        }
        self.d0 + (px - self.r0) / span * (self.d1 - self.d0)
    }
}

/// Steps (seconds) a time axis may use, smallest first.
const TIME_STEPS: &[u64] = &[
    1, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800,
    1209600, 2592000,
];

/// Time ticks for `[t0, t1]` with at most about `max_ticks` ticks, on round steps.
/// A step for the time slider: about a hundredth of the run, rounded to a unit a person reads
/// (1, 5, 10 or 30 s, 1, 5, 10 or 30 min, 1, 3, 6 or 12 h, a day).
pub fn slider_step(end: u64) -> u64 {
    const UNITS: [u64; 13] = [1, 5, 10, 30, 60, 300, 600, 1800, 3600, 10_800, 21_600, 43_200, 86_400];
    let want = end / 100;
    UNITS.iter().rev().find(|u| **u <= want).copied().unwrap_or(1)
}

pub fn time_ticks(t0: u64, t1: u64, max_ticks: usize) -> Vec<u64> {
    let span = t1.saturating_sub(t0).max(1);
    let max_ticks = max_ticks.max(2) as u64;
    let step = TIME_STEPS
        .iter()
        .copied()
        .find(|s| span / s <= max_ticks)
        .unwrap_or_else(|| span.div_ceil(max_ticks).max(1));
    let first = t0.div_ceil(step) * step;
    (0..).map(|k| first + k * step).take_while(|t| *t <= t1).collect()
}

/// Integer value ticks from 0 to at least `max`, on steps of 1, 2 or 5 times a power of ten.
pub fn value_ticks(max: u64, max_ticks: usize) -> Vec<u64> {
    let max = max.max(1);
    let max_ticks = max_ticks.max(2) as u64;
    let mut pow = 1u64;
    loop {
        for m in [1u64, 2, 5] {
            let step = m * pow;
            if max.div_ceil(step) <= max_ticks {
                let top = max.div_ceil(step) * step;
                return (0..=top / step).map(|k| k * step).collect();
            }
        }
        pow = pow.saturating_mul(10);
    }
}

/// Time as `h:mm` below a day (`0:15`, `13:05`), `Nd h:mm` from a day on; seconds are shown
/// only when the time is not a whole minute and below an hour (`2:30s` style is avoided:
/// `0:00:30`).
pub fn format_time(t: u64) -> String {
    let d = t / 86400;
    let h = (t % 86400) / 3600;
    let m = (t % 3600) / 60;
    let s = t % 60;
    let hm = if s != 0 { format!("{h}:{m:02}:{s:02}") } else { format!("{h}:{m:02}") };
    if d > 0 {
        format!("{d}d {hm}")
    } else {
        hm
    }
}

/// A duration in words, the one way the page writes one: `45 s`, `2 min`, `2 min 30 s`,
/// `1 h 05 min`, `2 d 6 h` (never `0:02` for two minutes, which reads as a time of day). Each
/// unit is exact down to the next one; below that the rest is dropped (a wait of 1 h 05 min
/// 40 s is `1 h 05 min`).
pub fn format_duration(secs: u64) -> String {
    let (d, h, m, s) = (secs / 86400, (secs % 86400) / 3600, (secs % 3600) / 60, secs % 60);
    match (d, h, m, s) {
        (0, 0, 0, s) => format!("{s} s"),
        (0, 0, m, 0) => format!("{m} min"),
        (0, 0, m, s) => format!("{m} min {s:02} s"),
        (0, h, 0, _) => format!("{h} h"),
        (0, h, m, _) => format!("{h} h {m:02} min"),
        (d, 0, _, _) => format!("{d} d"),
        (d, h, _, _) => format!("{d} d {h} h"),
    }
}

/// Index of the last sample at or before `t` (samples sorted ascending); 0 when `t` is
/// before the first.
pub fn sample_at(samples: &[u64], t: u64) -> usize {
    match samples.binary_search(&t) {
        Ok(i) => i,
        Err(0) => 0,
        Err(i) => i - 1,
    }
}

/// A window of rows to draw: `first..first+count` of `total`, scrolled to `offset`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowWindow {
    pub first: usize,
    pub count: usize,
}

/// Which lanes are visible when `visible` lanes fit and the list is scrolled to `offset`.
pub fn row_window(total: usize, visible: usize, offset: usize) -> RowWindow {
    let visible = visible.max(1);
    let max_first = total.saturating_sub(visible);
    let first = offset.min(max_first);
    RowWindow { first, count: visible.min(total - first) }
}

/// Vertical position of lane `i` of a window (top of the lane).
pub fn lane_y(top: f64, lane_h: f64, window: RowWindow, i: usize) -> Option<f64> {
    if i < window.first || i >= window.first + window.count {
        None
    } else {
        Some(top + (i - window.first) as f64 * lane_h)
    }
}

/// Stacks series: `layers[k][i]` is layer k's value at sample i; returns cumulative
/// `(bottom, top)` per layer and sample.
pub fn stack(layers: &[Vec<u64>]) -> Vec<Vec<(u64, u64)>> {
    let n = layers.first().map_or(0, |l| l.len());
    let mut base = vec![0u64; n];
    let mut out = Vec::with_capacity(layers.len());
    for layer in layers {
        let mut v = Vec::with_capacity(n);
        for (i, b) in base.iter_mut().enumerate() {
            let t = *b + layer.get(i).copied().unwrap_or(0);
            v.push((*b, t));
            *b = t;
        }
        out.push(v);
    }
    out
}

/// An SVG path of a step area between `lower` and `upper` values at sample times `xs`
/// (each value holds until the next sample; the last until `x_end`). Consecutive equal
/// samples are merged, so the path has at most a few points per change.
pub fn step_area_path(xs: &[u64], band: &[(u64, u64)], x_end: u64, sx: &Scale, sy: &Scale) -> String {
    let n = xs.len().min(band.len());
    if n == 0 || band.iter().take(n).all(|(b, t)| b == t) {
        return String::new();
    }
    let mut top = String::new();
    let mut bottom: Vec<(f64, f64)> = Vec::new();
    let mut last: Option<(u64, u64)> = None;
    for i in 0..n {
        let x = sx.map(xs[i] as f64);
        let (b, t) = band[i];
        if last != Some((b, t)) {
            let (ty, by) = (sy.map(t as f64), sy.map(b as f64));
            if let Some((pb, pt)) = last {
                push_pt(&mut top, x, sy.map(pt as f64));
                bottom.push((x, sy.map(pb as f64)));
            }
            push_pt(&mut top, x, ty);
            bottom.push((x, by));
            last = Some((b, t));
        }
    }
    let xe = sx.map(x_end.max(xs[n - 1]) as f64);
    if let Some((pb, pt)) = last {
        push_pt(&mut top, xe, sy.map(pt as f64));
        bottom.push((xe, sy.map(pb as f64)));
    }
    for (x, y) in bottom.iter().rev() {
        push_pt(&mut top, *x, *y);
    }
    top.push('Z');
    top
}

/// An SVG path of a step line through `values` at sample times `xs`.
pub fn step_line_path(xs: &[u64], values: &[u64], x_end: u64, sx: &Scale, sy: &Scale) -> String {
    let n = xs.len().min(values.len());
    let mut d = String::new();
    let mut last: Option<u64> = None;
    for i in 0..n {
        let x = sx.map(xs[i] as f64);
        let v = values[i];
        if last != Some(v) {
            if let Some(p) = last {
                push_line(&mut d, x, sy.map(p as f64));
            }
            push_line(&mut d, x, sy.map(v as f64));
            last = Some(v);
        }
    }
    if let (Some(p), true) = (last, n > 0) {
        push_line(&mut d, sx.map(x_end.max(xs[n - 1]) as f64), sy.map(p as f64));
    }
    d
}

fn push_pt(d: &mut String, x: f64, y: f64) {
    use std::fmt::Write;
    let cmd = if d.is_empty() { 'M' } else { 'L' };
    let _ = write!(d, "{cmd}{x:.1},{y:.1}");
}

fn push_line(d: &mut String, x: f64, y: f64) {
    push_pt(d, x, y);
}

/// The indices `k` of the periodic instants `first + k * step` (`step` > 0) that are before
/// `stop` and inside `[t0, t1]`, found by arithmetic: a narrow window into a long series costs
/// nothing, however many instants lie outside it.
pub fn periodic_in_window(first: u64, step: u64, stop: u64, t0: u64, t1: u64) -> std::ops::Range<u64> {
    let step = step.max(1);
    let last = t1.min(stop.saturating_sub(1));
    if stop <= first || last < first || last < t0 {
        return 0..0;
    }
    let from = t0.saturating_sub(first).div_ceil(step);
    let to = (last - first) / step + 1;
    from..to.max(from)
}

/// Evenly spaced sample times from 0 to `end` (inclusive), `n` of them at most, whole seconds,
/// deduplicated.
pub fn even_samples(end: u64, n: usize) -> Vec<u64> {
    let n = n.max(2) as u64;
    let mut v: Vec<u64> = (0..n).map(|k| end * k / (n - 1)).collect();
    v.dedup();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_slider_steps_by_a_readable_unit_of_about_a_hundredth_of_the_run() {
        assert_eq!(slider_step(50), 1);
        assert_eq!(slider_step(30_120), 300, "the notebook's 8:22 run: 5 minutes");
        assert_eq!(slider_step(7 * 86_400), 3600);
        assert_eq!(slider_step(365 * 86_400), 86_400);
    }

    #[test]
    fn scale_maps_and_inverts() {
        let s = Scale::new(0.0, 100.0, 10.0, 210.0);
        assert_eq!(s.map(0.0), 10.0);
        assert_eq!(s.map(50.0), 110.0);
        assert_eq!(s.invert(110.0), 50.0);
        let flat = Scale::new(5.0, 5.0, 0.0, 100.0);
        assert_eq!(flat.map(5.0), 0.0);
        let inverted_y = Scale::new(0.0, 10.0, 200.0, 0.0);
        assert_eq!(inverted_y.map(10.0), 0.0);
    }

    #[test]
    fn time_ticks_use_round_steps() {
        assert_eq!(time_ticks(0, 3600, 4), vec![0, 900, 1800, 2700, 3600]);
        let day = time_ticks(0, 86400 * 3, 8);
        assert!(day.iter().all(|t| t % 21600 == 0), "{day:?}");
        assert!(day.len() <= 9);
        assert_eq!(time_ticks(100, 100, 5), vec![100]);
        assert_eq!(time_ticks(0, 0, 5), vec![0]);
    }

    #[test]
    fn value_ticks_cover_the_maximum() {
        assert_eq!(value_ticks(3, 6), vec![0, 1, 2, 3]);
        assert_eq!(value_ticks(17, 5), vec![0, 5, 10, 15, 20]);
        assert_eq!(value_ticks(0, 5), vec![0, 1]);
        let big = value_ticks(12345, 6);
        assert!(*big.last().unwrap() >= 12345 && big.len() <= 7, "{big:?}");
    }

    #[test]
    fn times_are_formatted_as_hours_and_days() {
        assert_eq!(format_time(0), "0:00");
        assert_eq!(format_time(900), "0:15");
        assert_eq!(format_time(3600 * 13 + 300), "13:05");
        assert_eq!(format_time(86400 + 3600), "1d 1:00");
        assert_eq!(format_time(30), "0:00:30");
        assert_eq!(format_duration(0), "0 s");
        assert_eq!(format_duration(45), "45 s");
        assert_eq!(format_duration(120), "2 min");
        assert_eq!(format_duration(150), "2 min 30 s");
        assert_eq!(format_duration(1800), "30 min");
        assert_eq!(format_duration(3600), "1 h");
        assert_eq!(format_duration(3900), "1 h 05 min");
        assert_eq!(format_duration(3940), "1 h 05 min", "seconds are dropped past an hour");
        assert_eq!(format_duration(5400), "1 h 30 min");
        assert_eq!(format_duration(86400 * 3), "3 d");
        assert_eq!(format_duration(86400 * 2 + 6 * 3600 + 59 * 60), "2 d 6 h");
    }

    #[test]
    fn sample_lookup_takes_the_last_sample_not_after() {
        let s = [0, 10, 20];
        assert_eq!(sample_at(&s, 0), 0);
        assert_eq!(sample_at(&s, 15), 1);
        assert_eq!(sample_at(&s, 20), 2);
        assert_eq!(sample_at(&s, 99), 2);
        assert_eq!(sample_at(&[5], 1), 0);
    }

    #[test]
    fn lane_windows_clamp_to_the_list() {
        assert_eq!(row_window(100, 20, 0), RowWindow { first: 0, count: 20 });
        assert_eq!(row_window(100, 20, 95), RowWindow { first: 80, count: 20 });
        assert_eq!(row_window(5, 20, 3), RowWindow { first: 0, count: 5 });
        assert_eq!(row_window(0, 20, 3), RowWindow { first: 0, count: 0 });
        let w = row_window(100, 10, 50);
        assert_eq!(lane_y(30.0, 20.0, w, 50), Some(30.0));
        assert_eq!(lane_y(30.0, 20.0, w, 52), Some(70.0));
        assert_eq!(lane_y(30.0, 20.0, w, 49), None);
        assert_eq!(lane_y(30.0, 20.0, w, 60), None);
    }

    #[test]
    fn stacking_accumulates_layers() {
        let st = stack(&[vec![1, 2], vec![3, 0]]);
        assert_eq!(st[0], vec![(0, 1), (0, 2)]);
        assert_eq!(st[1], vec![(1, 4), (2, 2)]);
    }

    #[test]
    fn step_paths_merge_equal_samples() {
        let sx = Scale::new(0.0, 10.0, 0.0, 100.0);
        let sy = Scale::new(0.0, 2.0, 100.0, 0.0);
        let d = step_line_path(&[0, 2, 4, 6], &[1, 1, 2, 2], 10, &sx, &sy);
        assert_eq!(d, "M0.0,50.0L40.0,50.0L40.0,0.0L100.0,0.0");
        let a = step_area_path(&[0, 5], &[(0, 1), (0, 1)], 10, &sx, &sy);
        assert_eq!(a, "M0.0,50.0L100.0,50.0L100.0,100.0L0.0,100.0Z");
        assert_eq!(step_area_path(&[0, 5], &[(1, 1), (2, 2)], 10, &sx, &sy), "");
    }

    #[test]
    fn periodic_instants_are_cut_to_the_window() {
        // Checkpoints at 10, 20, ... before 100.
        assert_eq!(periodic_in_window(10, 10, 100, 0, 1000), 0..9);
        assert_eq!(periodic_in_window(10, 10, 100, 25, 55), 2..5, "30, 40, 50");
        assert_eq!(periodic_in_window(10, 10, 100, 30, 30), 2..3);
        assert_eq!(periodic_in_window(10, 10, 100, 31, 39), 3..3, "none inside");
        assert_eq!(periodic_in_window(10, 10, 100, 100, 200), 0..0, "after the stop");
        assert_eq!(periodic_in_window(10, 10, 10, 0, 200), 0..0, "stopped before the first");
        assert_eq!(periodic_in_window(500, 10, 900, 0, 100), 0..0, "before the first");
        let day3 = periodic_in_window(1, 1, 3 * 86400, 86400, 86400 + 59);
        assert_eq!(day3.end - day3.start, 60);
        assert_eq!(periodic_in_window(0, 1, u64::MAX, u64::MAX - 1, u64::MAX), u64::MAX - 1..u64::MAX);
    }

    #[test]
    fn even_samples_include_both_ends() {
        assert_eq!(even_samples(100, 5), vec![0, 25, 50, 75, 100]);
        assert_eq!(even_samples(2, 5), vec![0, 1, 2]);
        assert_eq!(even_samples(0, 5), vec![0]);
    }
}
