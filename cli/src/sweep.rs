//! `quotasim sweep` and `quotasim sweep-merge`: many variants of one scenario on every core,
//! sharded across machines as array jobs, and merged back into the bytes of one run.
//!
//! Workers take row indexes from an atomic counter and send each finished row, already
//! printed, to the main thread, which writes rows in index order whatever the thread count.
//! With a frontier the rows are kept (as text) until every row is known, then written with
//! their `frontier` flag.

use std::collections::BTreeMap;
use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use quotasim::change::apply_changes;
use quotasim::compare::{run_to_end, summary_of};
use quotasim::json::{parse_scenario, to_json};
use quotasim::metric::{leaves, summary_value};
use quotasim::model::Scenario;
use quotasim::sweep::{check_goals, check_sweep, front_values, pareto, parse_sweep, shape_of, Goal, Sweep};
use quotasim::{validate, Problem};
use serde_json::Value;

use crate::policy::Stop;
use crate::text::csv_text;
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
    /// `--replicates N`: overrides the sweep file's `replicates`.
    pub replicates: Option<u32>,
}

/// A finished row, sent from a worker.
struct Done {
    /// JSONL: the row without `frontier`. CSV: empty (the main thread prints it).
    text: String,
    /// CSV: the summary as printed and read back (what `sweep-merge` reads).
    summary: Option<Value>,
    values: Vec<Value>,
    row: u64,
    error: Option<String>,
    /// The goals' values as printed and read back, for the front.
    front: Vec<Option<f64>>,
    /// Goals not checked on the base's shape are checked on the first row with a summary.
    goal_check: Option<Result<(), Vec<Problem>>>,
}

fn usage(msg: String) -> Stop {
    say!("quotasim: {msg}");
    Stop(ExitCode::from(2))
}

fn invalid(problems: &[Problem]) -> Stop {
    print_problems(problems);
    Stop(ExitCode::from(1))
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

/// The base scenario: a path relative to the sweep file, or inline. A base file is read only
/// when it is a regular file of at most `MAX_INPUT_BYTES`, and a file that is not a scenario
/// is never quoted: only where the reading stopped is said.
fn base_of(base: &Value, sweep_file: &str) -> Result<Scenario, Stop> {
    let path = match base {
        Value::String(p) => {
            let dir = Path::new(sweep_file).parent().unwrap_or(Path::new("."));
            if sweep_file == "-" {
                Path::new(p).to_path_buf()
            } else {
                dir.join(p)
            }
        }
        Value::Object(_) => {
            return parse_scenario(&base.to_string())
                .map_err(|p| invalid(&[Problem::error(format!("base: {}", p.path), p.message)]))
        }
        _ => return Err(invalid(&[Problem::error("base", "a scenario file's path or a scenario object")])),
    };
    let path = path.to_string_lossy();
    let text = crate::input::read_regular("base", &path).map_err(|e| Stop(crate::input::report(&e)))?;
    parse_scenario(&text).map_err(|p| {
        if looks_like_scenario(&text) {
            invalid(&[Problem::error(format!("base: {}", p.path), p.message)])
        } else {
            invalid(&[Problem::error("base", format!("{path} is not a scenario{}", where_not(&text)))])
        }
    })
}

/// Whether a text is one JSON object with a `serviceEnvironment`: a scenario, however broken
/// inside, whose problems may quote it.
fn looks_like_scenario(text: &str) -> bool {
    // A map, not a struct: serde would read a struct from a list too.
    serde_json::from_str::<BTreeMap<String, serde::de::IgnoredAny>>(text)
        .is_ok_and(|top| top.contains_key("serviceEnvironment"))
}

/// Where and why reading a text that is not a scenario stopped, without quoting it.
fn where_not(text: &str) -> String {
    match serde_json::from_str::<serde::de::IgnoredAny>(text) {
        Ok(_) => " (JSON, but not a scenario object with a serviceEnvironment)".into(),
        Err(e) => {
            let what = match e.classify() {
                serde_json::error::Category::Eof => "JSON cut short",
                _ => "not JSON",
            };
            format!(" ({what} at line {}, column {})", e.line(), e.column())
        }
    }
}

fn run_row(base: &Scenario, sweep: &Sweep, k: u64, format: SweepFormat, check: bool) -> Done {
    let row = quotasim::sweep::run_row(base, sweep, k);
    let goals = &sweep.goals;
    let goal_check = row
        .summary
        .as_ref()
        .filter(|_| check && !goals.is_empty())
        .map(|s| check_goals(goals, &summary_value(s)));
    let front = front_values(&row);
    let mut done = Done {
        text: String::new(),
        summary: None,
        values: row.values.clone(),
        row: k,
        error: row.error.clone(),
        front,
        goal_check,
    };
    match format {
        SweepFormat::Jsonl => done.text = to_json(&row),
        SweepFormat::Csv => {
            let read_back = |text: String| serde_json::from_str(&text).unwrap_or(Value::Null);
            done.summary = match (row.summary, row.stats) {
                (Some(s), _) => Some(read_back(to_json(&s))),
                (None, stats) => stats.map(|s| read_back(to_json(&s))),
            };
        }
    }
    done
}

pub fn sweep(a: &Args) -> Result<ExitCode, Stop> {
    let (shard, shards) = match a.shard {
        Some(s) => parse_shard(s)?,
        None => (1, 1),
    };
    if a.row.is_some() != a.print_scenario {
        return Err(usage("--row K and --print-scenario go together".into()));
    }
    let text = read_input(a.file).map_err(Stop)?;
    let mut file = parse_sweep(&text).map_err(|p| invalid(&[p]))?;
    if a.replicates.is_some() {
        file.replicates = a.replicates;
    }
    let base = base_of(&file.base, a.file)?;
    let sweep = check_sweep(&file, &base, a.max_rows).map_err(|p| invalid(&p))?;
    if let Some(k) = a.row {
        if k >= sweep.rows {
            return Err(usage(format!("--row {k}: the sweep has rows 0 to {}", sweep.rows - 1)));
        }
        let s = apply_changes(&base, &sweep.changes(k)).map_err(|p| invalid(&[p]))?;
        return Ok(write_out(&to_json(&s)));
    }
    // Frontier goals are checked on the base without its jobs (an instant run with every
    // share's metrics); if that is not a valid scenario, on the first row that runs.
    let mut check_later = false;
    if !sweep.goals.is_empty() {
        let shape = validate(&shape_of(&base)).ok().and_then(|v| run_to_end(v, false).ok());
        match shape {
            Some(r) => check_goals(&sweep.goals, &summary_value(&summary_of(&r))).map_err(|p| invalid(&p))?,
            None => check_later = true,
        }
    }
    let ks: Vec<u64> = (0..sweep.rows).filter(|k| k % shards == shard - 1).collect();
    let threads =
        a.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, Done)>();
    let format = a.format;
    let mut printer = Printer::new(&sweep, format);
    let mut outcome: Result<(), Vec<Problem>> = Ok(());
    std::thread::scope(|scope| {
        for _ in 0..threads.min(ks.len().max(1)) {
            let tx = tx.clone();
            let (next, ks, base, sweep) = (&next, &ks, &base, &sweep);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&k) = ks.get(i) else { break };
                if tx.send((i, run_row(base, sweep, k, format, check_later))).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        // Rows come back in any order; they are printed (or kept) in index order.
        let mut pending: BTreeMap<usize, Done> = BTreeMap::new();
        let mut want = 0;
        for (i, row) in rx {
            pending.insert(i, row);
            while let Some(row) = pending.remove(&want) {
                if let Some(Err(p)) = &row.goal_check {
                    if check_later && outcome.is_ok() {
                        outcome = Err(p.clone());
                        // Every worker stops at its next row.
                        next.store(ks.len(), Ordering::Relaxed);
                    }
                }
                if row.goal_check.is_some() {
                    check_later = false;
                }
                if outcome.is_ok() {
                    printer.add(row);
                }
                want += 1;
            }
        }
    });
    outcome.map_err(|p| invalid(&p))?;
    let failed = printer.finish()?;
    if failed > 0 {
        say!("quotasim: {failed} variant(s) are invalid or could not run (exit 1)");
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes rows in index order: at once without a frontier, at the end with one.
struct Printer {
    out: BufWriter<io::StdoutLock<'static>>,
    format: SweepFormat,
    axes: Vec<String>,
    goals: Vec<Goal>,
    /// CSV: the metric columns, from the first row with a summary.
    columns: Option<Vec<String>>,
    /// Rows waiting: for the frontier, or (CSV) for the columns.
    held: Vec<Done>,
    lines: Vec<(String, Vec<Option<f64>>)>,
    failed: usize,
    broken: bool,
}

impl Printer {
    fn new(sweep: &Sweep, format: SweepFormat) -> Printer {
        Printer {
            out: BufWriter::new(io::stdout().lock()),
            format,
            axes: sweep.axes.iter().map(|(p, _)| p.clone()).collect(),
            goals: sweep.goals.clone(),
            columns: None,
            held: Vec::new(),
            lines: Vec::new(),
            failed: 0,
            broken: false,
        }
    }

    fn write(&mut self, line: &str) {
        self.broken |= self.out.write_all(line.as_bytes()).and_then(|_| self.out.write_all(b"\n")).is_err();
    }

    fn add(&mut self, row: Done) {
        if let Some(e) = &row.error {
            self.failed += 1;
            if self.format == SweepFormat::Csv {
                say!("quotasim: row {}: {e}", row.row);
            }
        }
        if self.format == SweepFormat::Csv && self.columns.is_none() {
            match &row.summary {
                Some(s) => {
                    let columns = csv_columns(s);
                    self.write(&csv_header(&self.axes, &columns, !self.goals.is_empty()));
                    self.columns = Some(columns);
                    for r in std::mem::take(&mut self.held) {
                        self.line(r);
                    }
                }
                None => return self.held.push(row),
            }
        }
        self.line(row);
    }

    fn line(&mut self, row: Done) {
        let text = match self.format {
            SweepFormat::Jsonl => row.text,
            SweepFormat::Csv => {
                csv_line(row.row, &row.values, self.columns.as_deref().unwrap_or(&[]), row.summary.as_ref())
            }
        };
        if self.goals.is_empty() {
            self.write(&text);
        } else {
            self.lines.push((text, row.front));
        }
    }

    /// Writes what is held; the number of rows that failed.
    fn finish(mut self) -> Result<usize, Stop> {
        if self.format == SweepFormat::Csv && self.columns.is_none() {
            self.write(&csv_header(&self.axes, &[], !self.goals.is_empty()));
            self.columns = Some(Vec::new());
            for r in std::mem::take(&mut self.held) {
                self.line(r);
            }
        }
        let vals: Vec<Vec<Option<f64>>> = self.lines.iter().map(|(_, f)| f.clone()).collect();
        let on = pareto(&self.goals, &vals);
        for ((text, _), on) in std::mem::take(&mut self.lines).into_iter().zip(on) {
            let line = with_frontier(&text, on, self.format);
            self.write(&line);
        }
        if self.broken || self.out.flush().is_err() {
            return Err(Stop(ExitCode::from(2)));
        }
        Ok(self.failed)
    }
}

/// A row with its `frontier` flag: the last field of a JSONL row, the last cell of a CSV one.
fn with_frontier(text: &str, on: bool, format: SweepFormat) -> String {
    match format {
        SweepFormat::Jsonl => {
            let body = text.strip_suffix('}').unwrap_or(text);
            format!("{body},\"frontier\":{on}}}")
        }
        SweepFormat::Csv => format!("{text},{on}"),
    }
}

fn csv_cell(v: &Value) -> String {
    match v {
        Value::String(s) => csv_text(s),
        Value::Null => String::new(),
        Value::Number(_) | Value::Bool(_) => v.to_string(),
        other => csv_text(&other.to_string()),
    }
}

/// Every number of a summary, flattened: `endedAt`, `overall.…`, `perQuotaShare.<name>.…`; of
/// a replicated row's statistics, each with `.median`, `.min` and `.max`.
fn flatten(summary: &Value) -> Vec<(String, Option<f64>)> {
    let mut c = match &summary["endedAt"] {
        Value::Object(_) => {
            leaves(&summary["endedAt"]).into_iter().map(|(p, v)| (format!("endedAt.{p}"), v)).collect()
        }
        v => vec![("endedAt".to_string(), v.as_f64())],
    };
    c.extend(leaves(&summary["summary"]["overall"]).into_iter().map(|(p, v)| (format!("overall.{p}"), v)));
    if let Some(per) = summary["summary"]["perQuotaShare"].as_object() {
        for (name, m) in per {
            c.extend(leaves(m).into_iter().map(|(p, v)| (format!("perQuotaShare.{name}.{p}"), v)));
        }
    }
    c
}

fn csv_columns(summary: &Value) -> Vec<String> {
    flatten(summary).into_iter().map(|(p, _)| p).collect()
}

fn csv_header(axes: &[String], columns: &[String], frontier: bool) -> String {
    let mut cells = vec!["row".to_string()];
    cells.extend(axes.iter().map(|p| csv_text(p)));
    cells.extend(columns.iter().map(|c| csv_text(c)));
    if frontier {
        cells.push("frontier".into());
    }
    cells.join(",")
}

/// A CSV row without its frontier cell.
fn csv_line(row: u64, values: &[Value], columns: &[String], summary: Option<&Value>) -> String {
    let mut cells = vec![row.to_string()];
    cells.extend(values.iter().map(csv_cell));
    let number = |x: Option<f64>| x.map_or(String::new(), |x| x.to_string());
    match summary.map(flatten) {
        // Rows of one sweep have the same metrics: the columns, in the same order.
        Some(flat) if flat.len() == columns.len() && flat.iter().zip(columns).all(|((p, _), c)| p == c) => {
            cells.extend(flat.into_iter().map(|(_, v)| number(v)));
        }
        Some(flat) => {
            let by: BTreeMap<String, Option<f64>> = flat.into_iter().collect();
            cells.extend(columns.iter().map(|c| number(by.get(c).copied().flatten())));
        }
        None => cells.extend(columns.iter().map(|_| String::new())),
    }
    cells.join(",")
}

/// `quotasim sweep-merge`: shard outputs (JSONL) into the bytes of the unsharded run, as JSONL
/// or as the CSV the unsharded run prints with `--format csv`. What is not the unsharded run
/// (a row missing, rows of another sweep, no rows at all) is refused (`quotasim::sweep::merge`).
pub fn merge(files: &[String], format: SweepFormat) -> Result<ExitCode, Stop> {
    let mut texts = Vec::with_capacity(files.len());
    for f in files {
        texts.push((f.clone(), read_input(f).map_err(Stop)?));
    }
    let m = quotasim::sweep::merge::merge(&texts).map_err(|p| invalid(&[p]))?;
    drop(texts);
    let mut failed = 0;
    let mut out: Vec<String> = Vec::with_capacity(m.rows.len() + 1);
    if format == SweepFormat::Csv {
        let columns = m
            .rows
            .iter()
            .find_map(|v| v.get("summary").or_else(|| v.get("stats")))
            .map_or(Vec::new(), csv_columns);
        out.push(csv_header(&m.axes, &columns, m.frontier.is_some()));
        for (i, v) in m.rows.iter().enumerate() {
            let values = v["values"].as_array().map_or(&[][..], Vec::as_slice);
            let k = v["row"].as_u64().unwrap_or(0);
            let line = csv_line(k, values, &columns, v.get("summary").or_else(|| v.get("stats")));
            out.push(match &m.frontier {
                Some(on) => with_frontier(&line, on[i], format),
                None => line,
            });
            if let Some(e) = v["error"].as_str() {
                failed += 1;
                say!("quotasim: row {k}: {e}");
            }
        }
    } else {
        failed = m.rows.iter().filter(|v| v.get("error").is_some()).count();
        out = m.lines;
    }
    let code = write_out(&out.join("\n"));
    if failed > 0 {
        say!("quotasim: {failed} variant(s) are invalid or could not run (exit 1)");
        return Ok(ExitCode::from(1));
    }
    Ok(code)
}
