//! `quotasim sweep` and `quotasim sweep-merge`: many variants of one scenario on every core,
//! sharded across machines as array jobs, and merged back into the bytes of one run.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use quotasim::change::apply_changes;
use quotasim::compare::{run_to_end, summary_of};
use quotasim::json::{parse_scenario, to_json};
use quotasim::metric::{leaves, resolve, summary_value};
use quotasim::model::Scenario;
use quotasim::result::SummaryResult;
use quotasim::sweep::{check_sweep, pareto, parse_sweep, Goal, Sweep};
use quotasim::validate;
use serde::Serialize;
use serde_json::Value;

use crate::policy::Stop;
use crate::{print_problems, read_input, write_out};

/// Output formats.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum SweepFormat {
    Jsonl,
    Csv,
}

/// What the command line asked for.
pub struct Args<'a> {
    pub file: &'a str,
    pub threads: Option<usize>,
    pub shard: Option<&'a str>,
    pub format: SweepFormat,
    pub max_rows: u64,
    pub row: Option<u64>,
    pub print_scenario: bool,
}

/// One printed row. Field order is the output's: `frontier` last, its `on` flag last of all,
/// so that `sweep-merge` can set it again without touching the rest of the line.
#[derive(Serialize)]
struct Row {
    row: u64,
    values: Vec<Value>,
    changes: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    summary: Option<SummaryResult>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    frontier: Option<Frontier>,
}

#[derive(Serialize)]
struct Frontier {
    goals: Vec<String>,
    values: Vec<Option<f64>>,
    on: bool,
}

fn usage(msg: String) -> Stop {
    eprintln!("quotasim: {msg}");
    Stop(ExitCode::from(2))
}

/// `I/N` (1-based shard I of N), or `auto/N` from the array-job index the scheduler sets:
/// `AWS_BATCH_JOB_ARRAY_INDEX` (AWS Batch) or `JOB_COMPLETION_INDEX` (Kubernetes Indexed
/// Jobs), both 0-based.
fn parse_shard(s: &str) -> Result<(u64, u64), Stop> {
    let bad = || usage(format!("--shard {s}: expected I/N (I from 1 to N) or auto/N"));
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let n: u64 = n.parse().map_err(|_| bad())?;
    if n == 0 {
        return Err(bad());
    }
    let i: u64 = if i == "auto" {
        let (var, v) = ["AWS_BATCH_JOB_ARRAY_INDEX", "JOB_COMPLETION_INDEX"]
            .iter()
            .find_map(|k| std::env::var(k).ok().map(|v| (*k, v)))
            .ok_or_else(|| {
                usage(format!(
                    "--shard {s}: neither AWS_BATCH_JOB_ARRAY_INDEX nor JOB_COMPLETION_INDEX is set"
                ))
            })?;
        let idx: u64 = v.trim().parse().map_err(|_| usage(format!("{var}={v} is not an index")))?;
        if idx >= n {
            return Err(usage(format!("{var}={idx} is outside 0..{} for --shard {s}", n - 1)));
        }
        idx + 1
    } else {
        i.parse().map_err(|_| bad())?
    };
    if i == 0 || i > n {
        return Err(bad());
    }
    Ok((i, n))
}

/// The base scenario: a path relative to the sweep file, or inline.
fn base_of(base: &Value, sweep_file: &str) -> Result<Scenario, Stop> {
    let text = match base {
        Value::String(p) => {
            let dir = Path::new(sweep_file).parent().unwrap_or(Path::new("."));
            let path = if sweep_file == "-" { Path::new(p).to_path_buf() } else { dir.join(p) };
            read_input(&path.to_string_lossy()).map_err(Stop)?
        }
        Value::Object(_) => base.to_string(),
        _ => {
            eprintln!("error: base: a scenario file's path or a scenario object");
            return Err(Stop(ExitCode::from(1)));
        }
    };
    parse_scenario(&text).map_err(|p| {
        eprintln!("error: base: {p}");
        Stop(ExitCode::from(1))
    })
}

fn row_values(goals: &[Goal], summary: &Value) -> Vec<Option<f64>> {
    goals
        .iter()
        .map(|g| resolve(summary, &g.metric).ok().and_then(|v| v.first().and_then(|m| m.value)))
        .collect()
}

/// Goal values as `sweep-merge` reads them back from the text, so that both compute the
/// front from the same numbers.
fn as_printed(v: &[Option<f64>]) -> Vec<Option<f64>> {
    serde_json::from_str(&to_json(&v.to_vec())).unwrap_or_default()
}

fn run_row(base: &Scenario, sweep: &Sweep, k: u64) -> Row {
    let changes = sweep.changes(k);
    let texts = changes.iter().map(|c| c.text()).collect();
    let values = sweep.values(k);
    let outcome = apply_changes(base, &changes)
        .map_err(|p| p.to_string())
        .and_then(|s| {
            validate(&s).map_err(|p| p.iter().map(|x| x.to_string()).collect::<Vec<_>>().join("; "))
        })
        .and_then(|v| run_to_end(v, false).map_err(|e| e.to_string()));
    let (summary, error) = match outcome {
        Ok(r) => (Some(summary_of(&r)), None),
        Err(e) => (None, Some(e)),
    };
    let frontier = (!sweep.goals.is_empty()).then(|| {
        let vals = summary.as_ref().map(|s| row_values(&sweep.goals, &summary_value(s)));
        Frontier {
            goals: sweep
                .goals
                .iter()
                .map(|g| format!("{}:{}", g.metric, if g.maximise { "max" } else { "min" }))
                .collect(),
            values: as_printed(&vals.unwrap_or_else(|| vec![None; sweep.goals.len()])),
            on: false,
        }
    });
    Row { row: k, values, changes: texts, summary, error, frontier }
}

pub fn sweep(a: &Args) -> Result<ExitCode, Stop> {
    let text = read_input(a.file).map_err(Stop)?;
    let file = parse_sweep(&text).map_err(|p| {
        print_problems(&[p]);
        Stop(ExitCode::from(1))
    })?;
    let base = base_of(&file.base, a.file)?;
    let sweep = check_sweep(&file, &base, a.max_rows).map_err(|p| {
        print_problems(&p);
        Stop(ExitCode::from(1))
    })?;
    let (shard, shards) = match a.shard {
        Some(s) => parse_shard(s)?,
        None => (1, 1),
    };
    if let Some(k) = a.row {
        if k >= sweep.rows {
            return Err(usage(format!("--row {k}: the sweep has rows 0 to {}", sweep.rows - 1)));
        }
        if !a.print_scenario {
            return Err(usage("--row goes with --print-scenario".into()));
        }
        let s = apply_changes(&base, &sweep.changes(k)).map_err(|p| {
            print_problems(&[p]);
            Stop(ExitCode::from(1))
        })?;
        return Ok(write_out(&to_json(&s)));
    }
    let ks: Vec<u64> = (0..sweep.rows).filter(|k| k % shards == shard - 1).collect();
    let threads =
        a.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, Row)>();
    let mut rows: Vec<Row> = Vec::with_capacity(ks.len());
    let mut failed = false;
    let stream = sweep.goals.is_empty() && a.format == SweepFormat::Jsonl;
    std::thread::scope(|scope| {
        for _ in 0..threads.min(ks.len().max(1)) {
            let tx = tx.clone();
            let (next, ks, base, sweep) = (&next, &ks, &base, &sweep);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&k) = ks.get(i) else { break };
                if tx.send((i, run_row(base, sweep, k))).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        // Rows come back in any order; they are printed (or kept) in index order.
        let mut pending: BTreeMap<usize, Row> = BTreeMap::new();
        let mut want = 0;
        for (i, row) in rx {
            pending.insert(i, row);
            while let Some(row) = pending.remove(&want) {
                failed |= row.error.is_some();
                if stream {
                    let _ = write_out(&to_json(&row));
                } else {
                    rows.push(row);
                }
                want += 1;
            }
        }
    });
    if !stream {
        let vals: Vec<Vec<Option<f64>>> =
            rows.iter().map(|r| r.frontier.as_ref().map_or(Vec::new(), |f| f.values.clone())).collect();
        for (r, on) in rows.iter_mut().zip(pareto(&sweep.goals, &vals)) {
            if let Some(f) = r.frontier.as_mut() {
                f.on = on;
            }
        }
        let out = match a.format {
            SweepFormat::Jsonl => rows.iter().map(to_json).collect::<Vec<_>>().join("\n"),
            SweepFormat::Csv => csv(&sweep, &rows),
        };
        if !out.is_empty() {
            let _ = write_out(&out);
        }
    }
    if failed {
        eprintln!("quotasim: some variants are invalid or could not run: see their \"error\"");
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// A CSV cell; text is quoted, and text that starts like a spreadsheet formula gets a leading
/// `'` so that a spreadsheet shows it as text.
fn csv_cell(v: &Value) -> String {
    match v {
        Value::String(s) => {
            let s = if s.starts_with(['=', '+', '-', '@', '\t', '\r']) { format!("'{s}") } else { s.clone() };
            format!("\"{}\"", s.replace('"', "\"\""))
        }
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// Flattened rows: the axis values, every number of the summary, and the front.
fn csv(sweep: &Sweep, rows: &[Row]) -> String {
    let columns: Vec<String> = rows
        .iter()
        .find_map(|r| r.summary.as_ref())
        .map(|s| {
            let v = summary_value(s);
            let mut c = vec!["endedAt".to_string()];
            c.extend(leaves(&v["summary"]["overall"]).into_iter().map(|(p, _)| format!("overall.{p}")));
            if let Some(per) = v["summary"]["perQuotaShare"].as_object() {
                for (name, m) in per {
                    c.extend(leaves(m).into_iter().map(|(p, _)| format!("perQuotaShare.{name}.{p}")));
                }
            }
            c
        })
        .unwrap_or_default();
    let mut out = vec!["row".to_string()];
    out.extend(sweep.axes.iter().map(|(p, _)| csv_cell(&Value::String(p.clone()))));
    out.extend(columns.iter().cloned());
    if !sweep.goals.is_empty() {
        out.push("frontier".into());
    }
    out.push("error".into());
    let mut lines = vec![out.join(",")];
    for r in rows {
        let mut cells = vec![r.row.to_string()];
        cells.extend(r.values.iter().map(csv_cell));
        let v = r.summary.as_ref().map(summary_value);
        for c in &columns {
            let x = v.as_ref().and_then(|v| resolve(v, c).ok()).and_then(|m| m.first().and_then(|m| m.value));
            cells.push(x.map_or(String::new(), |x| x.to_string()));
        }
        if let Some(f) = &r.frontier {
            cells.push(f.on.to_string());
        }
        cells.push(r.error.as_deref().map_or(String::new(), |e| csv_cell(&Value::String(e.into()))));
        lines.push(cells.join(","));
    }
    lines.join("\n")
}

/// `quotasim sweep-merge`: shard outputs (JSONL) into the bytes of the unsharded run.
pub fn merge(files: &[String]) -> Result<ExitCode, Stop> {
    let mut rows: BTreeMap<u64, String> = BTreeMap::new();
    for f in files {
        let text = read_input(f).map_err(Stop)?;
        for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let bad = |m: &str| {
                eprintln!("error: {f}:{}: {m}", n + 1);
                Stop(ExitCode::from(1))
            };
            let v: Value =
                serde_json::from_str(line).map_err(|_| bad("not a row of quotasim sweep --format jsonl"))?;
            let k = v["row"].as_u64().ok_or_else(|| bad("no row index"))?;
            if rows.insert(k, line.to_string()).is_some() {
                return Err(bad(&format!("row {k} is in more than one output")));
            }
        }
    }
    if let Some((&last, _)) = rows.iter().next_back() {
        if let Some(missing) = (0..=last).find(|k| !rows.contains_key(k)) {
            eprintln!(
                "error: row {missing} is in no output (rows 0 to {last} expected): is a shard missing?"
            );
            return Err(Stop(ExitCode::from(1)));
        }
    }
    let lines: Vec<String> = rows.into_values().collect();
    let parsed: Vec<Value> = lines.iter().map(|l| serde_json::from_str(l).unwrap_or(Value::Null)).collect();
    let goals: Vec<Goal> = parsed
        .first()
        .and_then(|v| v["frontier"]["goals"].as_array())
        .map(|g| {
            g.iter()
                .filter_map(Value::as_str)
                .map(|s| {
                    let (m, d) = s.rsplit_once(':').unwrap_or((s, "max"));
                    Goal { metric: m.to_string(), maximise: d == "max" }
                })
                .collect()
        })
        .unwrap_or_default();
    let out: Vec<String> = if goals.is_empty() {
        lines
    } else {
        let vals: Vec<Vec<Option<f64>>> = parsed
            .iter()
            .map(|v| {
                v["frontier"]["values"]
                    .as_array()
                    .map_or(Vec::new(), |a| a.iter().map(Value::as_f64).collect())
            })
            .collect();
        let on = pareto(&goals, &vals);
        lines
            .iter()
            .zip(on)
            .map(|(l, on)| {
                let body =
                    l.strip_suffix("\"on\":true}}").or_else(|| l.strip_suffix("\"on\":false}}")).unwrap_or(l);
                format!("{body}\"on\":{on}}}}}")
            })
            .collect()
    };
    Ok(write_out(&out.join("\n")))
}
