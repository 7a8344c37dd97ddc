//! Compare mode's numbers: A, B and their difference for the metrics a decision needs, each
//! marked better or worse, and the jobs whose fate changed most. Pure, tested natively.

use quotasim::compare::{weight, ChangedJob, Comparison, Fate};
use serde_json::Value;

/// How a metric is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fmt {
    Percent,
    Seconds,
    Count,
    Hours,
    Ratio,
    Money,
}

/// A metric of the comparison: its label, its path relative to a share or `overall`, which way
/// is better (`None`: neither), and its format.
pub struct MetricDef {
    pub label: &'static str,
    pub path: &'static str,
    pub higher_is_better: Option<bool>,
    pub fmt: Fmt,
}

const fn m(label: &'static str, path: &'static str, higher_is_better: Option<bool>, fmt: Fmt) -> MetricDef {
    MetricDef { label, path, higher_is_better, fmt }
}

/// The metrics compare mode shows, per share and overall.
pub const MAIN: &[MetricDef] = &[
    m("Utilization", "utilization", Some(true), Fmt::Percent),
    m("Jobs succeeded", "succeeded", Some(true), Fmt::Count),
    m("Wait p50", "waitSeconds.p50", Some(false), Fmt::Seconds),
    m("Wait p95", "waitSeconds.p95", Some(false), Fmt::Seconds),
    m("Preemptions", "preemptions.total", Some(false), Fmt::Count),
    m("Lost GPU-hours", "lostGpuHours", Some(false), Fmt::Hours),
    m("GPU-hours borrowed", "gpuHoursBorrowed", None, Fmt::Hours),
    m("Goodput", "goodput", Some(true), Fmt::Percent),
    m("Reclaim latency p95", "reclaimLatencySeconds.p95", Some(false), Fmt::Seconds),
    m("Jain's index", "fairness.jainIndex", Some(true), Fmt::Ratio),
    m("Cost", "cost", Some(false), Fmt::Money),
];

/// Whether B is better than A on a metric.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Better,
    Worse,
    Same,
    /// A change, but neither better nor worse (or no value on a side).
    Neutral,
}

impl Verdict {
    /// The CSS class of a cell.
    pub fn class(self) -> &'static str {
        match self {
            Verdict::Better => "better",
            Verdict::Worse => "worse",
            Verdict::Same => "same",
            Verdict::Neutral => "neutral",
        }
    }
}

/// One metric's A, B and delta.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    pub a: Option<f64>,
    pub b: Option<f64>,
    pub delta: Option<f64>,
    pub verdict: Verdict,
}

fn lookup(v: &Value, path: &str) -> Option<f64> {
    path.split('.').try_fold(v, |cur, k| cur.get(k))?.as_f64()
}

fn cell(a: &Value, b: &Value, d: &MetricDef) -> Cell {
    let (x, y) = (lookup(a, d.path), lookup(b, d.path));
    let delta = x.zip(y).map(|(x, y)| y - x);
    let verdict = match (delta, d.higher_is_better) {
        (Some(z), _) if z.abs() < 1e-12 => Verdict::Same,
        (Some(z), Some(h)) => {
            if (z > 0.0) == h {
                Verdict::Better
            } else {
                Verdict::Worse
            }
        }
        _ => Verdict::Neutral,
    };
    Cell { a: x, b: y, delta, verdict }
}

/// The overall metrics (those with a value on either side).
pub fn overall(c: &Comparison) -> Vec<(&'static MetricDef, Cell)> {
    let a = serde_json::to_value(&c.a.summary.overall).unwrap_or(Value::Null);
    let b = serde_json::to_value(&c.b.summary.overall).unwrap_or(Value::Null);
    MAIN.iter().map(|d| (d, cell(&a, &b, d))).filter(|(_, x)| x.a.is_some() || x.b.is_some()).collect()
}

/// Per share on both sides, in A's order: its name and one cell per metric of `defs`.
pub fn per_share(c: &Comparison, defs: &[&'static MetricDef]) -> Vec<(String, Vec<Cell>)> {
    let mut out = Vec::new();
    for (name, ma) in &c.a.summary.per_quota_share {
        let Some((_, mb)) = c.b.summary.per_quota_share.iter().find(|(n, _)| n == name) else { continue };
        let a = serde_json::to_value(ma).unwrap_or(Value::Null);
        let b = serde_json::to_value(mb).unwrap_or(Value::Null);
        out.push((name.clone(), defs.iter().map(|d| cell(&a, &b, d)).collect()));
    }
    out
}

/// Per-share metrics without an overall card: what a share lent and the preemptions its jobs
/// caused, next to those they suffered (R26 `gpuHoursLent`, `preemptions.caused`).
pub const SHARE_ONLY: &[MetricDef] = &[
    m("GPU-hours lent", "gpuHoursLent", None, Fmt::Hours),
    m("Preemptions caused", "preemptions.caused", None, Fmt::Count),
];

/// A column group of a per-share table: its short header over A, B and Δ, and its metric.
pub struct ShareColumn {
    pub label: &'static str,
    pub def: &'static MetricDef,
}

/// Compare mode's per-share tables, each a caption and its column groups: capacity first, then
/// waits and preemptions. Two tables of at most five groups each fit the results column at
/// 1280 px, where one of ten groups (thirty numbers a row) could not.
pub fn share_tables() -> [(&'static str, Vec<ShareColumn>); 2] {
    let col = |label, path: &str| {
        let def = MAIN.iter().chain(SHARE_ONLY).find(|d| d.path == path).expect("a defined metric");
        ShareColumn { label, def }
    };
    [
        (
            "Capacity",
            vec![
                col("Utilization", "utilization"),
                col("GPU\u{2011}h lent", "gpuHoursLent"),
                col("GPU\u{2011}h borrowed", "gpuHoursBorrowed"),
                col("Lost GPU\u{2011}h", "lostGpuHours"),
                col("Goodput", "goodput"),
            ],
        ),
        (
            "Waits and preemptions",
            vec![
                col("Wait p50", "waitSeconds.p50"),
                col("Wait p95", "waitSeconds.p95"),
                col("Preempted", "preemptions.total"),
                col("Caused", "preemptions.caused"),
                col("Reclaim latency p95", "reclaimLatencySeconds.p95"),
            ],
        ),
    ]
}

/// The changed jobs, most changed first (as `quotasim compare --format text` orders them: by
/// weight, ties in the comparison's order), at most `limit`: each weighed once and only the
/// first `limit` sorted, so 100,000 changed jobs cost a linear pass.
pub fn most_changed(c: &Comparison, limit: usize) -> Vec<&ChangedJob> {
    let mut v: Vec<(std::cmp::Reverse<u64>, usize)> =
        c.changed_jobs.iter().enumerate().map(|(i, j)| (std::cmp::Reverse(weight(j)), i)).collect();
    if limit < v.len() {
        v.select_nth_unstable(limit);
        v.truncate(limit);
    }
    v.sort_unstable();
    v.into_iter().map(|(_, i)| &c.changed_jobs[i]).collect()
}

/// One side's fate in a few words: `succeeded, started 0:12:00, 1 preemption`.
pub fn fate_text(f: Option<&Fate>) -> String {
    let Some(f) = f else { return "not in this run".into() };
    let status = f.status.map_or("unfinished".to_string(), |s| format!("{s:?}").to_lowercase());
    let start = f
        .first_started_at
        .map_or("never started".to_string(), |t| format!("started {}", crate::geometry::format_time(t)));
    let pre = match f.preemptions {
        0 => String::new(),
        1 => ", 1 preemption".into(),
        n => format!(", {n} preemptions"),
    };
    format!("{status}, {start}{pre}")
}

/// A value in its format; `–` for none.
pub fn show(fmt: Fmt, v: Option<f64>) -> String {
    let Some(v) = v else { return "–".into() };
    match fmt {
        Fmt::Percent => format!("{:.1}%", v * 100.0),
        Fmt::Seconds => crate::geometry::format_duration(v.abs().round() as u64),
        Fmt::Count => format!("{v:.0}"),
        Fmt::Hours => format!("{v:.2}"),
        Fmt::Ratio => format!("{v:.3}"),
        Fmt::Money => format!("{v:.2}"),
    }
}

/// A delta in its format, signed; `–` for none, `±0` for none at all.
pub fn show_delta(fmt: Fmt, d: Option<f64>) -> String {
    match d {
        None => "–".into(),
        Some(z) if z.abs() < 1e-12 => "±0".into(),
        Some(z) => {
            let sign = if z > 0.0 { "+" } else { "−" };
            let body = match fmt {
                Fmt::Percent => format!("{:.1} pt", z.abs() * 100.0),
                _ => show(fmt, Some(z.abs())),
            };
            format!("{sign}{body}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quotasim::change::{apply_changes, Change};
    use quotasim::compare::{compare, run_to_end};

    fn notebook_vs(change: &str) -> Comparison {
        let s = crate::presets::scenario(crate::presets::NOTEBOOK).unwrap();
        let b = apply_changes(&s, &[Change::parse(change).unwrap()]).unwrap();
        let ra = run_to_end(quotasim::validate(&s).unwrap(), true).unwrap();
        let rb = run_to_end(quotasim::validate(&b).unwrap(), true).unwrap();
        compare(&ra, &rb, vec![change.to_string()])
    }

    #[test]
    fn in_share_preemption_off_in_b_spares_the_priority_3_job() {
        let c = notebook_vs("quotaShares[qs1].preemptionConfiguration.inSharePreemption=DISABLED");
        let o = overall(&c);
        let (_, pre) = o.iter().find(|(d, _)| d.path == "preemptions.total").unwrap();
        assert_eq!((pre.a, pre.b, pre.delta), (Some(2.0), Some(1.0), Some(-1.0)));
        assert_eq!(pre.verdict, Verdict::Better);
        assert_eq!(show_delta(Fmt::Count, pre.delta), "−1");
        let jobs = most_changed(&c, 10);
        let high = jobs.iter().find(|j| j.job_name == "qs1_job_high").expect("changed");
        assert_eq!(high.description, "no longer preempted");
        assert!(fate_text(high.a.as_ref()).contains("1 preemption"));
        let [capacity, waits] = share_tables();
        let defs = |t: &[ShareColumn]| t.iter().map(|c| c.def).collect::<Vec<_>>();
        let shares = per_share(&c, &defs(&waits.1));
        assert_eq!(shares.len(), 3);
        assert_eq!(shares[0].0, "qs1");
        // qs1's raised job no longer preempts its priority-3 job: one fewer suffered and caused
        // in qs1; qs2's reclaim stays.
        let at = |name: &str, path: &str| {
            let i = waits.1.iter().position(|c| c.def.path == path).unwrap();
            let (_, cells) = shares.iter().find(|(n, _)| n == name).unwrap();
            (cells[i].a, cells[i].b)
        };
        assert_eq!(at("qs1", "preemptions.total"), (Some(2.0), Some(1.0)));
        assert_eq!(at("qs1", "preemptions.caused"), (Some(1.0), Some(0.0)));
        assert_eq!(at("qs2", "preemptions.caused"), (Some(1.0), Some(1.0)));
        let lent = per_share(&c, &defs(&capacity.1));
        let i = capacity.1.iter().position(|c| c.def.path == "gpuHoursLent").unwrap();
        assert!(lent.iter().find(|(n, _)| n == "qs2").unwrap().1[i].a.unwrap() > 0.0, "qs2 lends to qs1");
        assert_eq!(capacity.0, "Capacity");
    }

    #[test]
    fn a_comparison_with_itself_is_the_same_everywhere() {
        let s = crate::presets::scenario(crate::presets::NOTEBOOK).unwrap();
        let r = run_to_end(quotasim::validate(&s).unwrap(), true).unwrap();
        let c = compare(&r, &r, Vec::new());
        assert!(overall(&c).iter().all(|(_, x)| matches!(x.verdict, Verdict::Same | Verdict::Neutral)));
        assert!(most_changed(&c, 5).is_empty());
    }

    #[test]
    fn the_most_changed_are_the_first_of_a_stable_sort_by_weight() {
        let mut c = notebook_vs("quotaShares[qs1].preemptionConfiguration.inSharePreemption=DISABLED");
        let proto = c.changed_jobs[0].clone();
        // Many jobs, with ties.
        c.changed_jobs = (0..500u64)
            .map(|i| {
                let mut j = proto.clone();
                j.job_name = format!("j{i}");
                let b = j.b.as_mut().unwrap();
                b.wait_seconds = Some((i * 7919) % 37);
                j
            })
            .collect();
        let mut sorted: Vec<&ChangedJob> = c.changed_jobs.iter().collect();
        sorted.sort_by_key(|j| std::cmp::Reverse(weight(j)));
        for limit in [0, 1, 20, 30, 499, 500, 600] {
            let names = |v: &[&ChangedJob]| v.iter().map(|j| j.job_name.clone()).collect::<Vec<_>>();
            assert_eq!(names(&most_changed(&c, limit)), names(&sorted[..limit.min(500)]), "limit {limit}");
        }
    }

    #[test]
    fn values_and_deltas_read_well() {
        assert_eq!(show(Fmt::Percent, Some(0.5)), "50.0%");
        assert_eq!(show_delta(Fmt::Percent, Some(-0.025)), "−2.5 pt");
        assert_eq!(show_delta(Fmt::Seconds, Some(120.0)), "+2 min");
        assert_eq!(show(Fmt::Ratio, None), "–");
        assert_eq!(show_delta(Fmt::Hours, Some(0.0)), "±0");
    }
}
