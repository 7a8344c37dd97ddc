//! `check` and `compare`: judging a policy against objectives, and two policies against each
//! other, on the same workload.

use std::fmt::Write as _;
use std::process::ExitCode;

use quotasim::change::{apply_changes, Change};
use quotasim::compare::{compare, weight, Comparison};
use quotasim::json::parse_scenario;
use quotasim::metric::summary_value;
use quotasim::objective::{check, load_objectives, verdict_line};
use quotasim::{validate, SimResult, ValidScenario};

use crate::{print_problems, read_input, write_out};

/// How a command ended before its output: the exit code to return.
pub struct Stop(pub ExitCode);

/// `--set` arguments, parsed; a malformed one is a usage error.
pub fn parse_changes(args: &[String]) -> Result<Vec<Change>, Stop> {
    args.iter()
        .map(|a| {
            Change::parse(a).map_err(|p| {
                eprintln!("quotasim: --set {a}: {}", p.message);
                Stop(ExitCode::from(2))
            })
        })
        .collect()
}

/// Reads, parses, changes and validates a scenario, printing every problem; warnings go to
/// standard error too.
pub fn load(path: &str, changes: &[Change]) -> Result<ValidScenario, Stop> {
    let text = read_input(path).map_err(Stop)?;
    let scenario = parse_scenario(&text).map_err(|p| {
        print_problems(&[p]);
        Stop(ExitCode::from(1))
    })?;
    drop(text);
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
        eprintln!("quotasim: {e}");
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
            eprintln!("{objectives}: {x}");
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
                eprintln!("{objectives}: {x}");
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

fn text(c: &Comparison) -> String {
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
            let _ = writeln!(s, "{scope},{path},{},{},{}", f(x), f(y), f(d));
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
