//! `check` and `compare`: judging a policy against objectives, and two policies against each
//! other, on the same workload.

use std::fmt::Write as _;
use std::process::ExitCode;

use quotasim::change::{apply_changes, Change};
use quotasim::compare::{compare, weight, Comparison};
use quotasim::metric::summary_value;
use quotasim::objective::{check, load_objectives, verdict_line};
use quotasim::replicates::Failure;
use quotasim::{validate, SimResult, ValidScenario};

use crate::input::read_scenario;
use crate::text::csv_text;
use crate::{print_problems, read_input, write_out};

/// How a command ended before its output: the exit code to return.
pub struct Stop(pub ExitCode);

/// `--set` arguments, parsed; a malformed one is a usage error.
pub fn parse_changes(args: &[String]) -> Result<Vec<Change>, Stop> {
    args.iter()
        .map(|a| {
            Change::parse(a).map_err(|p| {
                say!("quotasim: --set {a}: {}", p.message);
                Stop(ExitCode::from(2))
            })
        })
        .collect()
}

/// Reads, parses and changes a scenario (not validated), printing every problem.
pub fn load_changed(path: &str, changes: &[Change]) -> Result<quotasim::model::Scenario, Stop> {
    let scenario = read_scenario(path).map_err(Stop)?.map_err(|p| {
        print_problems(&[p]);
        Stop(ExitCode::from(1))
    })?;
    if changes.is_empty() {
        return Ok(scenario);
    }
    apply_changes(&scenario, changes).map_err(|p| {
        print_problems(&[p]);
        Stop(ExitCode::from(1))
    })
}

/// Reads, parses, changes and validates a scenario, printing every problem; warnings go to
/// standard error too.
pub fn load(path: &str, changes: &[Change]) -> Result<ValidScenario, Stop> {
    let scenario = read_scenario(path).map_err(Stop)?.map_err(|p| {
        print_problems(&[p]);
        Stop(ExitCode::from(1))
    })?;
    let scenario = if changes.is_empty() {
        scenario
    } else {
        apply_changes(&scenario, changes).map_err(|p| {
            print_problems(&[p]);
            Stop(ExitCode::from(1))
        })?
    };
    let valid = validate(&scenario).map_err(|p| {
        print_problems(&p);
        Stop(ExitCode::from(1))
    })?;
    print_problems(&valid.warnings);
    Ok(valid)
}

/// Runs a scenario to its end; a time or sum past 2^53 - 1 is an error (exit 1).
pub fn run_to_end(valid: ValidScenario, jobs: bool) -> Result<SimResult, Stop> {
    quotasim::compare::run_to_end(valid, jobs).map_err(|e| {
        say!("quotasim: {e}");
        Stop(ExitCode::from(1))
    })
}

/// `quotasim check`: exit 0 when every objective is met, 3 when any is violated.
pub fn check_cmd(
    scenario: &str,
    objectives: &str,
    baseline: Option<&str>,
    changes: &[Change],
    json: bool,
) -> Result<ExitCode, Stop> {
    let text = read_input(objectives).map_err(Stop)?;
    let objs = load_objectives(&text).map_err(|p| {
        for x in &p {
            say!("{objectives}: {x}");
        }
        Stop(ExitCode::from(1))
    })?;
    let r = run_to_end(load(scenario, changes)?, false)?;
    let base = match baseline {
        Some(b) => Some(summary_value(&quotasim::compare::summary_of(&run_to_end(load(b, &[])?, false)?))),
        None => None,
    };
    let report =
        check(&objs, &summary_value(&quotasim::compare::summary_of(&r)), base.as_ref()).map_err(|p| {
            for x in &p {
                say!("{objectives}: {x}");
            }
            Stop(ExitCode::from(1))
        })?;
    let out = if json {
        quotasim::json::to_json(&report)
    } else {
        let mut s = String::new();
        for v in &report.verdicts {
            let _ = writeln!(s, "{}", verdict_line(v));
        }
        let violated = report.verdicts.iter().filter(|v| !v.met).count();
        let _ = write!(
            s,
            "{}",
            if violated == 0 {
                format!("all {} met", report.verdicts.len())
            } else {
                format!("{violated} of {} violated", report.verdicts.len())
            }
        );
        s
    };
    let code = write_out(&out);
    if code != ExitCode::SUCCESS {
        return Ok(code);
    }
    Ok(if report.met { ExitCode::SUCCESS } else { ExitCode::from(3) })
}

/// The output formats of `compare`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum CompareFormat {
    Json,
    Text,
    Csv,
}

/// `quotasim compare`: B is a second file, or A with the `--set` changes.
pub fn compare_cmd(
    a: &str,
    b: Option<&str>,
    changes: &[Change],
    format: CompareFormat,
) -> Result<ExitCode, Stop> {
    let ra = run_to_end(load(a, &[])?, true)?;
    let (rb, what) = match b {
        Some(b) => (run_to_end(load(b, changes)?, true)?, {
            let mut w = vec!["second file".to_string()];
            w.extend(changes.iter().map(Change::text));
            w
        }),
        None => (run_to_end(load(a, changes)?, true)?, changes.iter().map(Change::text).collect()),
    };
    let c = compare(&ra, &rb, what);
    let out = match format {
        CompareFormat::Json => quotasim::json::to_json(&c),
        CompareFormat::Text => text(&c),
        CompareFormat::Csv => csv(&c),
    };
    Ok(write_out(&out))
}

/// A metric the text table shows, and which way is better (`Some(true)`: higher).
const MAIN: &[(&str, &str, Option<bool>)] = &[
    ("jobs succeeded", "succeeded", Some(true)),
    ("utilization", "utilization", Some(true)),
    ("wait p50 (s)", "waitSeconds.p50", Some(false)),
    ("wait p95 (s)", "waitSeconds.p95", Some(false)),
    ("preemptions", "preemptions.total", Some(false)),
    ("lost GPU-h", "lostGpuHours", Some(false)),
    ("GPU-h borrowed", "gpuHoursBorrowed", None),
    ("goodput", "goodput", Some(true)),
    ("reclaim p95 (s)", "reclaimLatencySeconds.p95", Some(false)),
    ("entitlement held", "fairness.entitlementRatio", None),
    ("Jain index", "fairness.jainIndex", Some(true)),
    ("cost", "cost", Some(false)),
];

fn lookup(v: &serde_json::Value, path: &str) -> Option<f64> {
    path.split('.').try_fold(v, |cur, k| cur.get(k))?.as_f64()
}

fn num(x: Option<f64>) -> String {
    match x {
        None => "-".into(),
        Some(v) if v.fract() == 0.0 && v.abs() < 1e15 => format!("{v:.0}"),
        Some(v) => format!("{v:.3}"),
    }
}

pub fn text(c: &Comparison) -> String {
    let mut s = String::new();
    let what = if c.changes.is_empty() { "no change".to_string() } else { c.changes.join(", ") };
    let _ = writeln!(s, "A vs B ({})", quotasim::validate::printable(&what));
    for d in &c.differences {
        let _ = writeln!(s, "note: {d}");
    }
    let a = serde_json::to_value(&c.a.summary).unwrap_or_default();
    let b = serde_json::to_value(&c.b.summary).unwrap_or_default();
    let mut scopes: Vec<(String, serde_json::Value, serde_json::Value)> = Vec::new();
    if let Some(per) = a.get("perQuotaShare").and_then(|v| v.as_object()) {
        for (name, ma) in per {
            if let Some(mb) = b.get("perQuotaShare").and_then(|p| p.get(name)) {
                scopes.push((name.clone(), ma.clone(), mb.clone()));
            }
        }
    }
    scopes.push(("overall".into(), a["overall"].clone(), b["overall"].clone()));
    let _ = writeln!(s, "{:<16} {:<16} {:>12} {:>12} {:>12}", "share", "metric", "A", "B", "delta");
    for (name, ma, mb) in &scopes {
        for (label, path, higher) in MAIN {
            let (x, y) = (lookup(ma, path), lookup(mb, path));
            if x.is_none() && y.is_none() && (path.starts_with("fairness.jain") || *path == "cost") {
                continue; // overall only, or no prices
            }
            let d = x.zip(y).map(|(x, y)| y - x);
            let mark = match (d, higher) {
                (Some(d), Some(h)) if d != 0.0 => {
                    if (d > 0.0) == *h {
                        " better"
                    } else {
                        " worse"
                    }
                }
                _ => "",
            };
            let _ = writeln!(s, "{name:<16} {label:<16} {:>12} {:>12} {:>12}{mark}", num(x), num(y), num(d));
        }
    }
    let mut jobs: Vec<_> = c.changed_jobs.iter().collect();
    jobs.sort_by_key(|j| std::cmp::Reverse(weight(j)));
    let _ = writeln!(s, "{} jobs changed", c.changed_jobs.len());
    for j in jobs.iter().take(10) {
        let _ = writeln!(s, "  {}: {}", j.job_name, j.description);
    }
    s.trim_end().to_string()
}

fn csv(c: &Comparison) -> String {
    let mut s = String::from("scope,metric,a,b,delta\n");
    let a = serde_json::to_value(&c.a.summary).unwrap_or_default();
    let b = serde_json::to_value(&c.b.summary).unwrap_or_default();
    let rows = |scope: &str, ma: &serde_json::Value, mb: &serde_json::Value, s: &mut String| {
        for (path, x) in quotasim::metric::leaves(ma) {
            let y = lookup(mb, &path);
            let d = x.zip(y).map(|(x, y)| y - x);
            let f = |v: Option<f64>| v.map_or(String::new(), |v| format!("{v}"));
            let _ = writeln!(s, "{},{},{},{},{}", csv_text(scope), csv_text(&path), f(x), f(y), f(d));
        }
    };
    if let Some(per) = a.get("perQuotaShare").and_then(|v| v.as_object()) {
        for (name, ma) in per {
            if let Some(mb) = b.get("perQuotaShare").and_then(|p| p.get(name)) {
                rows(name, ma, mb, &mut s);
            }
        }
    }
    rows("overall", &a["overall"], &b["overall"], &mut s);
    s.trim_end().to_string()
}

/// `compare --replicates N`: both sides on N seeds of their workload, paired by seed, in
/// parallel (the report is the same whatever the thread count).
pub fn replicates_cmd(
    a: &str,
    b: Option<&str>,
    changes: &[Change],
    n: u32,
    format: CompareFormat,
) -> Result<ExitCode, Stop> {
    let sa = load_changed(a, &[])?;
    let (sb, what) = match b {
        Some(b) => (load_changed(b, changes)?, {
            let mut w = vec!["second file".to_string()];
            w.extend(changes.iter().map(Change::text));
            w
        }),
        None => (load_changed(a, changes)?, changes.iter().map(Change::text).collect()),
    };
    let Some(base) = sa.workload.as_ref().map(|w| w.seed) else {
        say!("quotasim: --replicates needs a scenario with a `workload` section (A has none; see quotasim generate --workload)");
        return Err(Stop(ExitCode::from(2)));
    };
    if sb.workload.is_none() {
        say!("quotasim: --replicates needs a `workload` section on both sides (B has none)");
        return Err(Stop(ExitCode::from(2)));
    }
    let seeds = quotasim::replicates::seeds(base, n);
    // One seed at a time per thread, both sides expanded, run and dropped in turn: at most one
    // expanded scenario per thread plus the summaries, however many seeds. Seeds are taken in
    // order, and none after a seed that failed.
    let threads = std::thread::available_parallelism().map_or(1, |x| x.get()).min(seeds.len().max(1));
    let done = crate::parallel::in_order(seeds.len(), threads, |k| {
        quotasim::replicates::run_seed(&sa, &sb, seeds[k])
    });
    match quotasim::replicates::first_failure(&done) {
        Some(Failure::Invalid { problems, .. }) => {
            print_problems(problems);
            return Err(Stop(ExitCode::from(1)));
        }
        Some(Failure::Run { message, .. }) => {
            say!("quotasim: {message}");
            return Err(Stop(ExitCode::from(1)));
        }
        None => {}
    }
    let pairs: Vec<_> = done.into_iter().filter_map(|(_, r)| r.ok()).collect();
    let r = quotasim::replicates::report(seeds, &pairs, what);
    let out = match format {
        CompareFormat::Json => quotasim::json::to_json(&r),
        CompareFormat::Text => replicates_text(&r),
        CompareFormat::Csv => replicates_csv(&serde_json::to_value(&r).unwrap_or_default()),
    };
    Ok(write_out(&out))
}

fn replicates_text(r: &quotasim::replicates::ReplicateReport) -> String {
    let mut s = String::new();
    let what = if r.changes.is_empty() { "no change".to_string() } else { r.changes.join(", ") };
    let n = r.seeds.len();
    let _ = writeln!(
        s,
        "A vs B ({}) over {n} seeds ({}..={}): median [min, max]",
        quotasim::validate::printable(&what),
        r.seeds.first().copied().unwrap_or(0),
        r.seeds.last().copied().unwrap_or(0)
    );
    for d in &r.differences {
        let _ = writeln!(s, "note: {d}");
    }
    let _ = writeln!(
        s,
        "{:<16} {:<16} {:>26} {:>26} {:>26} {:>9}",
        "share", "metric", "A", "B", "delta", "agree"
    );
    let spread = |v: &serde_json::Value| -> String {
        match (
            v.get("median").and_then(|x| x.as_f64()),
            v.get("min").and_then(|x| x.as_f64()),
            v.get("max").and_then(|x| x.as_f64()),
        ) {
            (Some(m), Some(lo), Some(hi)) => {
                format!("{} [{}, {}]", num(Some(m)), num(Some(lo)), num(Some(hi)))
            }
            _ => "-".into(),
        }
    };
    let v = serde_json::to_value(r).unwrap_or_default();
    let empty = serde_json::Map::new();
    let obj = |x: &serde_json::Value| x.as_object().cloned().unwrap_or_else(|| empty.clone());
    let mut scopes: Vec<(String, serde_json::Map<String, serde_json::Value>)> =
        r.per_quota_share.iter().map(|(n, _)| (n.clone(), obj(&v["perQuotaShare"][n]))).collect();
    scopes.push(("overall".into(), obj(&v["overall"])));
    for (name, m) in &scopes {
        for (label, path, higher) in MAIN {
            let Some(st) = m.get(*path) else { continue };
            if st.get("a").is_some_and(|x| x.is_null()) && st.get("b").is_some_and(|x| x.is_null()) {
                continue;
            }
            let count = |k: &str| st.get(k).and_then(|x| x.as_u64()).unwrap_or(0) as u32;
            let agree = count("agree");
            let dir = quotasim::replicates::direction(count("up"), count("down"), agree, *higher);
            let _ = writeln!(
                s,
                "{name:<16} {label:<16} {:>26} {:>26} {:>26} {:>5}/{n} {dir}",
                spread(&st["a"]),
                spread(&st["b"]),
                spread(&st["delta"]),
                agree
            );
        }
    }
    s.trim_end().to_string()
}

fn replicates_csv(r: &serde_json::Value) -> String {
    let mut s = String::from(
        "scope,metric,a_median,a_min,a_max,b_median,b_min,b_max,delta_median,delta_min,delta_max,up,down,same,agree\n",
    );
    let f = |v: &serde_json::Value, k: &str| {
        v.get(k).and_then(|x| x.as_f64()).map_or(String::new(), |x| format!("{x}"))
    };
    let mut scopes: Vec<(&str, &serde_json::Value)> = r["perQuotaShare"]
        .as_object()
        .map(|m| m.iter().map(|(n, x)| (n.as_str(), x)).collect())
        .unwrap_or_default();
    scopes.push(("overall", &r["overall"]));
    for (name, m) in scopes {
        for (path, st) in m.as_object().into_iter().flatten() {
            let _ = write!(s, "{},{}", csv_text(name), csv_text(path));
            for side in ["a", "b", "delta"] {
                for k in ["median", "min", "max"] {
                    let _ = write!(s, ",{}", f(&st[side], k));
                }
            }
            let _ = writeln!(s, ",{},{},{},{}", f(st, "up"), f(st, "down"), f(st, "same"), f(st, "agree"));
        }
    }
    s.trim_end().to_string()
}
