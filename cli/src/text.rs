//! `--format text`: a readable table per quota share; and the CSV cell every CSV output uses.

use std::fmt::Write;

use quotasim::scenario::ShareId;
use quotasim::validate::printable;
use quotasim::Simulation;

/// A CSV cell, the one writer of text into every CSV (compare, replicates, sweep, merge):
/// quoted when it has a comma, a quote or a line break; text that starts like a spreadsheet
/// formula gets a leading `'` (and quotes) so that a spreadsheet shows it as text.
pub fn csv_text(s: &str) -> String {
    let formula = s.starts_with(['=', '+', '-', '@', '\t', '\r']);
    if formula || s.contains([',', '"', '\n', '\r']) {
        format!("\"{}{}\"", if formula { "'" } else { "" }, s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn hms(s: Option<u64>) -> String {
    match s {
        None => "-".into(),
        Some(s) if s >= 86_400 => format!("{}d{:02}h", s / 86_400, (s % 86_400) / 3600),
        Some(s) => format!("{}:{:02}:{:02}", s / 3600, (s % 3600) / 60, s % 60),
    }
}

fn pct(v: Option<f64>) -> String {
    v.map_or("-".into(), |x| format!("{:.1}%", x * 100.0))
}

pub fn table(sim: &Simulation) -> String {
    let sum = sim.summary();
    let sc = sim.scenario();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} at t={} ({})",
        printable(sc.name.as_deref().unwrap_or("scenario")),
        sim.now(),
        hms(Some(sim.now()))
    );
    let _ = writeln!(
        out,
        "{:<20} {:<16} {:>6} {:>6} {:>6} {:>6} {:>10} {:>10} {:>10} {:>8} {:>9} {:>9} {:>6} {:>9} {:>8}",
        "quota share",
        "strategy",
        "jobs",
        "done",
        "failed",
        "unfin",
        "GPU-h own",
        "GPU-h brw",
        "inst-h lent",
        "util",
        "wait p50",
        "wait p95",
        "preempt",
        "lost GPU-h",
        "goodput"
    );
    let rows = sum
        .per_quota_share
        .iter()
        .map(|(n, m)| (n.clone(), Some(n.clone()), m))
        .chain(std::iter::once(("overall".to_string(), None, &sum.overall)));
    for (name, share, m) in rows {
        let strategy = share
            .and_then(|n| sc.shares.iter().position(|s| s.name == n))
            .map_or(String::new(), |i| sim.strategy(ShareId::at(i)).as_str().to_string());
        let _ = writeln!(
            out,
            "{:<20} {:<16} {:>6} {:>6} {:>6} {:>6} {:>10.1} {:>10.1} {:>10.1} {:>8} {:>9} {:>9} {:>6} {:>9.2} {:>8}",
            name,
            strategy,
            m.jobs,
            m.succeeded,
            m.failed,
            m.unfinished,
            m.gpu_hours_own,
            m.gpu_hours_borrowed,
            m.instance_seconds_lent as f64 / 3600.0,
            pct(m.utilization),
            hms(m.wait_seconds.p50),
            hms(m.wait_seconds.p95),
            m.preemptions.total,
            m.lost_gpu_hours,
            pct(m.goodput),
        );
    }
    out
}
