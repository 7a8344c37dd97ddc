//! Job logs as scenarios (`quotasim import trace`): the Alibaba GPU trace's pod list (`openb`)
//! or any CSV job log read through a column mapping (`csv`), which covers Helios, Philly or a
//! company's own export.
//!
//! The mapping, row by row:
//!
//! - `submit` is required; times are seconds (a number) or ISO 8601 (`2020-04-01T00:02:41Z`,
//!   a space instead of `T` is accepted). `submitAt` is relative to the first kept row.
//! - The run time is `duration` when mapped, else `end` − `start` (`end` − `submit` when there
//!   is no `start` column). A row with a `start` column but no start never ran: it is skipped,
//!   never guessed. A row whose `status` says it was still running or pending keeps its
//!   observed run time so far, and is counted as censored.
//! - GPUs are `gpus` (times `gpuMilli` ÷ 1000 when mapped, as openb gives fractions of one
//!   GPU); instances = ceil(GPUs ÷ GPUs per instance). A row asking for no GPU is skipped.
//! - `team` becomes the quota share (through `teams`, else the value itself, made a valid
//!   name); without a team column every job goes to one share, `default`. `priority` is a
//!   number or a value named in `priorities`.
//! - Quotas come from a capacity file (GPUs per team, in instances rounded down) when given,
//!   else the service environment's instances (`instances`, default the peak number of
//!   instances the log's jobs held at once) are split in proportion to each team's demand in
//!   instance-seconds (largest remainder, ties by first appearance). Every share is
//!   `LEND_AND_BORROW` with no borrow limit (`-1`), so nothing is lost before a policy is
//!   chosen; change it with `--set`.
//!
//! Rows are kept or skipped, never guessed: each skip or clamp is counted in one warning per
//! file and reason, with the first lines it happened on; a value that cannot be read is an
//! error with its file, line and field, and the row is skipped.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

use crate::import_check::{clean_name, settle, Capped, Names, Origin, Origins};
use crate::model::{
    CapacityLimit, InstanceTypeInfo, Job, QuotaShare, ResourceSharing, Scenario, ServiceEnvironment, Strategy,
};
use crate::problem::Problem;
use crate::validate::MAX_SAFE;

/// Which log: `openb` fixes the columns of the Alibaba pod list, `csv` reads `columns`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TraceFormat {
    Openb,
    #[default]
    Csv,
}

/// The job fields a log can give, each the name of its column.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Columns {
    pub name: Option<String>,
    pub submit: Option<String>,
    pub start: Option<String>,
    pub end: Option<String>,
    pub duration: Option<String>,
    pub gpus: Option<String>,
    pub gpu_milli: Option<String>,
    pub team: Option<String>,
    pub priority: Option<String>,
    pub status: Option<String>,
}

/// The field names `--columns` accepts.
pub const FIELDS: &[&str] =
    &["name", "submit", "start", "end", "duration", "gpus", "gpuMilli", "team", "priority", "status"];

impl Columns {
    /// The openb pod list's columns (`../shared/traces/alibaba-gpu-v2023-openb/README.md`).
    pub fn openb() -> Self {
        let s = |x: &str| Some(x.to_string());
        Columns {
            name: s("name"),
            submit: s("creation_time"),
            start: s("scheduled_time"),
            end: s("deletion_time"),
            duration: None,
            gpus: s("num_gpu"),
            gpu_milli: s("gpu_milli"),
            team: s("qos"),
            priority: None,
            status: s("pod_phase"),
        }
    }

    /// `submit=submit_time,duration=duration,gpus=gpu_num,team=vc`; every field named once.
    pub fn parse(spec: &str) -> Result<Self, Problem> {
        let mut c = Columns::default();
        for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let Some((field, column)) = part.split_once('=') else {
                return Err(Problem::error("columns", format!("{part:?} is not FIELD=COLUMN")));
            };
            let (field, column) = (field.trim(), column.trim());
            if column.is_empty() {
                return Err(Problem::error(format!("columns.{field}"), "names no column"));
            }
            let slot = c.slot(field).ok_or_else(|| {
                Problem::error(format!("columns.{field}"), format!("is not one of {}", FIELDS.join(", ")))
            })?;
            if slot.replace(column.to_string()).is_some() {
                return Err(Problem::error(format!("columns.{field}"), "is given twice"));
            }
        }
        Ok(c)
    }

    fn slot(&mut self, field: &str) -> Option<&mut Option<String>> {
        Some(match field {
            "name" => &mut self.name,
            "submit" => &mut self.submit,
            "start" => &mut self.start,
            "end" => &mut self.end,
            "duration" => &mut self.duration,
            "gpus" => &mut self.gpus,
            "gpuMilli" => &mut self.gpu_milli,
            "team" => &mut self.team,
            "priority" => &mut self.priority,
            "status" => &mut self.status,
            _ => return None,
        })
    }

    fn named(&self) -> Vec<(&'static str, &str)> {
        let all = [
            ("name", &self.name),
            ("submit", &self.submit),
            ("start", &self.start),
            ("end", &self.end),
            ("duration", &self.duration),
            ("gpus", &self.gpus),
            ("gpuMilli", &self.gpu_milli),
            ("team", &self.team),
            ("priority", &self.priority),
            ("status", &self.status),
        ];
        all.iter().filter_map(|(f, c)| c.as_deref().map(|c| (*f, c))).collect()
    }
}

/// How to read a log (`quotasim import trace`'s options).
#[derive(Clone, Debug, PartialEq)]
pub struct TraceOptions {
    pub format: TraceFormat,
    /// For `csv`; with `openb`, a field given here replaces the pod list's column.
    pub columns: Columns,
    pub gpus_per_instance: i64,
    /// Default: `ml.g5.xlarge` (1 GPU), `ml.g5.12xlarge` (4) or `ml.p5.48xlarge` (8).
    pub instance_type: Option<String>,
    /// Team value → quota share name.
    pub teams: Vec<(String, String)>,
    /// Priority value → schedulingPriority.
    pub priorities: Vec<(String, i64)>,
    /// A capacity file: its name and text.
    pub capacity: Option<(String, String)>,
    /// The service environment's instances without a capacity file.
    pub instances: Option<i64>,
    /// Keep rows submitted in [from, to), in the log's own seconds.
    pub from: Option<i64>,
    pub to: Option<i64>,
    /// Skip rows asking for fewer GPUs (e.g. 1 keeps only whole-GPU openb pods).
    pub min_gpus: Option<f64>,
    pub min_duration: Option<i64>,
    pub max_duration: Option<i64>,
    pub checkpoint_interval: Option<i64>,
}

impl Default for TraceOptions {
    fn default() -> Self {
        TraceOptions {
            format: TraceFormat::Csv,
            columns: Columns::default(),
            gpus_per_instance: 8,
            instance_type: None,
            teams: Vec::new(),
            priorities: Vec::new(),
            capacity: None,
            instances: None,
            from: None,
            to: None,
            min_gpus: None,
            min_duration: None,
            max_duration: None,
            checkpoint_interval: None,
        }
    }
}

/// `A=x,B=y` as pairs; `what` names the option in a problem.
pub fn parse_pairs(what: &str, spec: &str) -> Result<Vec<(String, String)>, Problem> {
    spec.split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| {
            p.split_once('=')
                .map(|(a, b)| (a.trim().to_string(), b.trim().to_string()))
                .filter(|(a, b)| !a.is_empty() && !b.is_empty())
                .ok_or_else(|| Problem::error(what, format!("{p:?} is not VALUE=NAME")))
        })
        .collect()
}

/// What an import gives: the scenario, every warning and error, and what each file held.
#[derive(Clone, Debug, PartialEq)]
pub struct Imported {
    pub scenario: Scenario,
    pub warnings: Vec<Problem>,
    pub recognised: Vec<String>,
}

/// One CSV record with the line it starts on.
struct Row {
    line: u64,
    fields: Vec<String>,
}

/// Splits CSV text into records (RFC 4180 quoting) with `csv-core`.
fn csv_rows(text: &str) -> Vec<Row> {
    let mut rdr = csv_core::Reader::new();
    let mut input = text.as_bytes();
    let mut out = vec![0u8; 4096];
    let mut ends = vec![0usize; 64];
    let (mut nout, mut nend) = (0, 0);
    let mut rows = Vec::new();
    let mut line = 1u64;
    let mut start_line = 1u64;
    loop {
        if nout == 0 && nend == 0 {
            // Blank lines between records: counted here so a record knows its first line.
            while let Some(rest) = input.strip_prefix(b"\n").or_else(|| input.strip_prefix(b"\r\n")) {
                input = rest;
                line += 1;
            }
            start_line = line;
        }
        let (res, nin, o, e) = rdr.read_record(input, &mut out[nout..], &mut ends[nend..]);
        line += input[..nin].iter().filter(|b| **b == b'\n').count() as u64;
        input = &input[nin..];
        nout += o;
        nend += e;
        match res {
            csv_core::ReadRecordResult::InputEmpty => {
                if input.is_empty() {
                    // Tells the reader the input has ended.
                    continue_end(&mut rdr, &mut out, &mut ends, &mut nout, &mut nend, &mut rows, start_line);
                    break;
                }
            }
            csv_core::ReadRecordResult::OutputFull => {
                let n = out.len() * 2;
                out.resize(n, 0);
            }
            csv_core::ReadRecordResult::OutputEndsFull => {
                let n = ends.len() * 2;
                ends.resize(n, 0);
            }
            csv_core::ReadRecordResult::Record => {
                push_row(&out[..nout], &ends[..nend], start_line, &mut rows);
                nout = 0;
                nend = 0;
            }
            csv_core::ReadRecordResult::End => break,
        }
    }
    rows
}

fn continue_end(
    rdr: &mut csv_core::Reader,
    out: &mut Vec<u8>,
    ends: &mut Vec<usize>,
    nout: &mut usize,
    nend: &mut usize,
    rows: &mut Vec<Row>,
    start_line: u64,
) {
    loop {
        let (res, _, o, e) = rdr.read_record(&[], &mut out[*nout..], &mut ends[*nend..]);
        *nout += o;
        *nend += e;
        match res {
            csv_core::ReadRecordResult::Record => {
                push_row(&out[..*nout], &ends[..*nend], start_line, rows);
                *nout = 0;
                *nend = 0;
            }
            csv_core::ReadRecordResult::OutputFull => {
                let n = out.len() * 2;
                out.resize(n, 0);
            }
            csv_core::ReadRecordResult::OutputEndsFull => {
                let n = ends.len() * 2;
                ends.resize(n, 0);
            }
            _ => return,
        }
    }
}

fn push_row(out: &[u8], ends: &[usize], line: u64, rows: &mut Vec<Row>) {
    let mut fields = Vec::with_capacity(ends.len());
    let mut from = 0;
    for &e in ends {
        fields.push(String::from_utf8_lossy(&out[from..e]).trim().to_string());
        from = e;
    }
    // A blank line is no record.
    if !(fields.len() == 1 && fields[0].is_empty()) {
        rows.push(Row { line, fields });
    }
}

/// Seconds from a number (fractions rounded) or an ISO 8601 time.
fn seconds(v: &str) -> Option<i64> {
    if let Ok(x) = v.parse::<f64>() {
        return (x.is_finite() && x.abs() < 1e15).then(|| libm::round(x) as i64);
    }
    let mut t = String::from(v);
    if t.len() >= 19 && t.as_bytes()[10] == b' ' {
        t.replace_range(10..11, "T");
    }
    if t.len() == 19 {
        t.push('Z');
    }
    crate::aws::parse_iso8601(&t).map(|ms| ms.div_euclid(1000))
}

/// A reason rows were skipped or changed, counted per file.
#[derive(Default)]
struct Tally {
    count: u64,
    lines: Vec<u64>,
}

struct Kept {
    /// The file (an index) and line it was read from.
    file: usize,
    line: u64,
    name: String,
    team: String,
    priority: i64,
    instances: i64,
    submit: i64,
    /// When it started in the log (for the peak), `submit` without a start column.
    began: i64,
    duration: i64,
}

/// Capacity per team (GPUs) from a capacity file: either two columns (team, GPUs) per row, or
/// one column per team (the Helios layout), where the last row counts and `date`, `time` and
/// `total` columns are ignored.
fn capacity_of(file: &str, text: &str, problems: &mut Capped) -> Vec<(String, f64)> {
    let rows = csv_rows(text);
    let Some((head, body)) = rows.split_first() else {
        problems.push_general(Problem::error(file, "is empty: a capacity file has a header and rows"));
        return Vec::new();
    };
    let number = |row: &Row, i: usize, col: &str, problems: &mut Capped| {
        let v = row.fields.get(i).map_or("", String::as_str);
        match v.parse::<f64>() {
            Ok(x) if x.is_finite() && (0.0..=MAX_SAFE as f64).contains(&x) => Some(x),
            _ => {
                problems.push(
                    file,
                    "capacities that are not a number of GPUs",
                    Problem::error(
                        format!("{file}:{}: {col}", row.line),
                        format!("{v:?} is not a number of GPUs from 0 to 2^53 - 1"),
                    ),
                );
                None
            }
        }
    };
    let mut out = Vec::new();
    if head.fields.len() == 2 {
        for r in body {
            if let Some(g) = number(r, 1, &head.fields[1], problems) {
                out.push((r.fields[0].clone(), g));
            }
        }
    } else {
        let Some(last) = body.last() else {
            problems.push_general(Problem::error(file, "has a header but no row"));
            return out;
        };
        for (i, col) in head.fields.iter().enumerate() {
            if ["date", "time", "total", ""].contains(&col.to_ascii_lowercase().as_str()) {
                continue;
            }
            if let Some(g) = number(last, i, col, problems) {
                out.push((col.clone(), g));
            }
        }
    }
    out
}

fn default_instance_type(gpus: i64) -> Option<&'static str> {
    match gpus {
        1 => Some("ml.g5.xlarge"),
        4 => Some("ml.g5.12xlarge"),
        8 => Some("ml.p5.48xlarge"),
        _ => None,
    }
}

/// At most this many errors are listed per file; the rest are counted.
const MAX_ERRORS_PER_FILE: usize = 20;

/// Reads job logs (`files`: name and text) into a scenario. Problems that stop the import
/// (no usable column, no job at all) are returned as `Err`; everything else is a warning (or
/// an error for a row that could not be read) in `Imported::warnings`.
pub fn import(files: &[(String, String)], o: &TraceOptions) -> Result<Imported, Vec<Problem>> {
    let mut problems = Vec::new();
    if o.gpus_per_instance < 1 {
        return Err(vec![Problem::error("gpusPerInstance", "must be at least 1")]);
    }
    let instance_type = match (&o.instance_type, default_instance_type(o.gpus_per_instance)) {
        (Some(t), _) => t.clone(),
        (None, Some(t)) => t.to_string(),
        (None, None) => {
            return Err(vec![Problem::error(
                "instanceType",
                format!(
                    "give the instance type for {} GPUs per instance (defaults exist for 1, 4 and 8)",
                    o.gpus_per_instance
                ),
            )])
        }
    };
    let mut columns = match o.format {
        TraceFormat::Openb => Columns::openb(),
        TraceFormat::Csv => Columns::default(),
    };
    for (field, col) in o.columns.named() {
        if let Some(slot) = columns.slot(field) {
            *slot = Some(col.to_string());
        }
    }
    if columns.submit.is_none() {
        return Err(vec![Problem::error("columns.submit", "is required: the column of submission times")]);
    }
    if columns.gpus.is_none() {
        return Err(vec![Problem::error("columns.gpus", "is required: the column of GPUs asked for")]);
    }
    if columns.duration.is_none() && columns.end.is_none() {
        return Err(vec![Problem::error(
            "columns.duration",
            "is required (or columns.end, with columns.start or the submit time)",
        )]);
    }
    let team_map: BTreeMap<&str, &str> = o.teams.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    let prio_map: BTreeMap<&str, i64> = o.priorities.iter().map(|(a, b)| (a.as_str(), *b)).collect();
    let share_of = |v: &str| clean_name(team_map.get(v).copied().unwrap_or(v));

    let mut kept: Vec<Kept> = Vec::new();
    let mut recognised = Vec::new();
    let mut names = Names::default();
    for (fi, (file, text)) in files.iter().enumerate() {
        let rows = csv_rows(text);
        let Some((head, body)) = rows.split_first() else {
            problems.push(Problem::error(file.as_str(), "is empty: a job log has a header and rows"));
            continue;
        };
        let index: BTreeMap<&str, usize> =
            head.fields.iter().enumerate().map(|(i, c)| (c.as_str(), i)).collect();
        let mut col: BTreeMap<&'static str, usize> = BTreeMap::new();
        let mut missing = false;
        for (field, c) in columns.named() {
            match index.get(c) {
                Some(i) => {
                    col.insert(field, *i);
                }
                None => {
                    missing = true;
                    problems.push(Problem::error(
                        format!("{file}: columns.{field}"),
                        format!("no column {c:?} in the header (columns: {})", head.fields.join(", ")),
                    ));
                }
            }
        }
        if missing {
            continue;
        }
        let mut tallies: BTreeMap<&'static str, Tally> = BTreeMap::new();
        let mut tally = |reason: &'static str, line: u64| {
            let t = tallies.entry(reason).or_default();
            t.count += 1;
            if t.lines.len() < 3 {
                t.lines.push(line);
            }
        };
        let (mut errors, mut more_errors) = (0usize, 0u64);
        let before = kept.len();
        for r in body {
            let get = |f: &str| {
                col.get(f).and_then(|i| r.fields.get(*i)).map(String::as_str).filter(|v| !v.is_empty())
            };
            let mut bad = |field: &str, v: &str, what: &str, problems: &mut Vec<Problem>| {
                if errors < MAX_ERRORS_PER_FILE {
                    errors += 1;
                    problems.push(Problem::error(
                        format!("{file}:{}: {field}", r.line),
                        format!("{v:?} is not {what}; row skipped"),
                    ));
                } else {
                    more_errors += 1;
                }
            };
            const TIME: &str = "a number of seconds or an ISO 8601 time";
            let Some(sv) = get("submit") else {
                bad("submit", "", TIME, &mut problems);
                continue;
            };
            let Some(submit) = seconds(sv) else {
                bad("submit", sv, TIME, &mut problems);
                continue;
            };
            if o.from.is_some_and(|f| submit < f) || o.to.is_some_and(|t| submit >= t) {
                tally("submitted outside --from/--to", r.line);
                continue;
            }
            let gv = get("gpus").unwrap_or("");
            let Some(mut gpus) =
                gv.parse::<f64>().ok().filter(|g| g.is_finite() && (0.0..=MAX_SAFE as f64).contains(g))
            else {
                bad("gpus", gv, "a number of GPUs from 0 to 2^53 - 1", &mut problems);
                continue;
            };
            if let Some(m) = get("gpuMilli") {
                match m.parse::<f64>() {
                    Ok(m) if m.is_finite() && m >= 0.0 => gpus = gpus * m / 1000.0,
                    _ => {
                        bad("gpuMilli", m, "thousandths of a GPU", &mut problems);
                        continue;
                    }
                }
            }
            if gpus <= 0.0 {
                tally("ask for no GPU", r.line);
                continue;
            }
            if o.min_gpus.is_some_and(|m| gpus < m) {
                tally("ask for fewer GPUs than --min-gpus", r.line);
                continue;
            }
            let start = match (col.contains_key("start"), get("start")) {
                (false, _) => None,
                (true, None) => {
                    tally("never started (no start time): no run time to replay", r.line);
                    continue;
                }
                (true, Some(v)) => match seconds(v) {
                    Some(t) => Some(t),
                    None => {
                        bad("start", v, TIME, &mut problems);
                        continue;
                    }
                },
            };
            let mut duration = if let Some(v) = get("duration") {
                match seconds(v) {
                    Some(d) => d,
                    None => {
                        bad("duration", v, "a number of seconds", &mut problems);
                        continue;
                    }
                }
            } else {
                let Some(ev) = get("end") else {
                    tally("have no end time", r.line);
                    continue;
                };
                match seconds(ev) {
                    Some(e) => e - start.unwrap_or(submit),
                    None => {
                        bad("end", ev, TIME, &mut problems);
                        continue;
                    }
                }
            };
            if let Some(st) = get("status") {
                let s = st.to_ascii_lowercase();
                if s == "running" || s == "pending" {
                    tally(
                        "were still running when the log ended: run time censored (observed so far)",
                        r.line,
                    );
                }
            }
            if duration < 0 {
                bad(
                    "duration",
                    &format!("{duration}"),
                    "a run time (the job ends before it starts)",
                    &mut problems,
                );
                continue;
            }
            let min = o.min_duration.unwrap_or(1).max(1);
            if duration < min {
                tally("ran shorter than the minimum duration: raised to it", r.line);
                duration = min;
            }
            if let Some(max) = o.max_duration.filter(|m| duration > *m) {
                tally("ran longer than --max-duration: cut to it", r.line);
                duration = max;
            }
            let team = get("team").map_or_else(|| "default".to_string(), &share_of);
            let priority = match get("priority") {
                None => 0,
                Some(v) => match prio_map.get(v).copied().or_else(|| v.parse::<i64>().ok()) {
                    Some(p) => p,
                    None => {
                        bad("priority", v, "a whole number or a value named in --priorities", &mut problems);
                        continue;
                    }
                },
            };
            let stem = file.rsplit(['/', '\\']).next().unwrap_or(file).split('.').next().unwrap_or("job");
            let wanted = clean_name(&get("name").map_or_else(|| format!("{stem}-{}", r.line), String::from));
            // Unique among every name given so far, a suffixed one included.
            let name = names.give_or_suffix(&wanted, &r.line.to_string());
            if name != wanted {
                tally("repeat an earlier job's name: given a -line suffix", r.line);
            }
            let instances = libm::ceil(gpus / o.gpus_per_instance as f64) as i64;
            kept.push(Kept {
                file: fi,
                line: r.line,
                name,
                team,
                priority,
                instances,
                submit,
                began: start.unwrap_or(submit),
                duration,
            });
        }
        if more_errors > 0 {
            problems.push(Problem::error(
                file.as_str(),
                format!("{more_errors} more rows could not be read and were skipped"),
            ));
        }
        for (reason, t) in tallies {
            let lines: Vec<String> = t.lines.iter().map(|l| format!("{l}")).collect();
            let more = if t.count > t.lines.len() as u64 { ", …" } else { "" };
            problems.push(Problem::warning(
                file.as_str(),
                format!("{} rows {reason} (lines {}{more})", t.count, lines.join(", ")),
            ));
        }
        recognised.push(format!("{file}: {} rows, {} jobs", body.len(), kept.len() - before));
    }
    if kept.is_empty() {
        problems.push(Problem::error("", "no job could be imported"));
        return Err(problems);
    }
    if kept.len() > crate::validate::MAX_JOBS {
        problems.push(Problem::error("", format!("more than {} jobs", crate::validate::MAX_JOBS)));
        return Err(problems);
    }

    // Shares in order of first appearance, each with where it first appeared.
    let mut teams: Vec<String> = Vec::new();
    let mut team_origins: BTreeMap<String, Origin> = BTreeMap::new();
    let mut demand: BTreeMap<String, f64> = BTreeMap::new();
    for k in &kept {
        if !demand.contains_key(&k.team) {
            teams.push(k.team.clone());
            let at = format!("{}:{}: team", files[k.file].0, k.line);
            team_origins.insert(k.team.clone(), Origin { file: k.file, at });
        }
        *demand.entry(k.team.clone()).or_insert(0.0) += k.instances as f64 * k.duration as f64;
    }
    let largest = kept.iter().map(|k| k.instances).max().unwrap_or(1);
    let with_jobs = teams.len();
    let quotas: Vec<(String, i64)>;
    if let Some((cfile, ctext)) = &o.capacity {
        let mut capped = Capped::default();
        let caps = capacity_of(cfile, ctext, &mut capped);
        problems.extend(capped.finish());
        let mut given: BTreeMap<String, i64> = BTreeMap::new();
        let mut known: alloc::collections::BTreeSet<String> = teams.iter().cloned().collect();
        let mut fractional = Vec::new();
        for (team, g) in caps {
            let share = share_of(&team);
            // At most 2^53 - 1 GPUs: the product is exact.
            let inst = libm::floor(g / o.gpus_per_instance as f64) as i64;
            if (inst * o.gpus_per_instance) as f64 != g {
                fractional.push(format!("{team} ({g} GPUs)"));
            }
            if known.insert(share.clone()) {
                teams.push(share.clone());
                team_origins
                    .insert(share.clone(), Origin { file: usize::MAX, at: format!("{cfile}: {team}") });
            }
            let q = given.entry(share).or_insert(0);
            *q = q.saturating_add(inst);
        }
        if !fractional.is_empty() {
            problems.push(Problem::warning(
                cfile.as_str(),
                format!(
                    "not a whole number of {}-GPU instances, rounded down: {}",
                    o.gpus_per_instance,
                    fractional.join(", ")
                ),
            ));
        }
        let absent: Vec<&str> =
            teams.iter().filter(|t| !given.contains_key(*t)).map(String::as_str).collect();
        if !absent.is_empty() {
            problems.push(Problem::warning(
                cfile.as_str(),
                format!(
                    "gives no capacity for {}: their quota is 0 (they can only borrow)",
                    absent.join(", ")
                ),
            ));
        }
        // AWS needs maxCapacity >= 1: a share without jobs and without capacity is left out, one
        // with jobs gets a single instance.
        let (mut raised, mut left_out) = (Vec::new(), Vec::new());
        quotas = teams
            .iter()
            .enumerate()
            .filter_map(|(i, t)| match given.get(t).copied().unwrap_or(0) {
                0 if i >= with_jobs => {
                    left_out.push(t.as_str());
                    None
                }
                0 => {
                    raised.push(t.as_str());
                    Some((t.clone(), 1))
                }
                q => Some((t.clone(), q)),
            })
            .collect();
        if !left_out.is_empty() {
            problems.push(Problem::warning(
                cfile.as_str(),
                format!("no capacity and no jobs, so no quota share: {}", left_out.join(", ")),
            ));
        }
        if !raised.is_empty() {
            problems.push(Problem::warning(
                cfile.as_str(),
                format!(
                    "less than one instance, raised to 1 (AWS needs maxCapacity >= 1): {}",
                    raised.join(", ")
                ),
            ));
        }
    } else {
        let total = match o.instances {
            Some(n) if (1..=MAX_SAFE).contains(&n) => n,
            Some(n) => return Err(vec![Problem::error("instances", format!("{n} is not 1 to 2^53 - 1"))]),
            None => peak(&kept).max(largest),
        };
        // AWS needs maxCapacity >= 1: every share gets one instance, the rest is split.
        let k = teams.len() as i64;
        if total < k {
            problems.push(Problem::warning(
                "instances",
                format!("{total} instances for {k} quota shares: raised to {k}, one each (AWS needs maxCapacity >= 1)"),
            ));
        }
        let total = total.max(k) - k;
        let sum: f64 = demand.values().sum();
        let mut parts: Vec<(usize, i64, f64)> = teams
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let exact = total as f64 * demand[t] / sum;
                (i, libm::floor(exact) as i64, exact - libm::floor(exact))
            })
            .collect();
        let mut left = total - parts.iter().map(|p| p.1).sum::<i64>();
        let mut order: Vec<usize> = (0..parts.len()).collect();
        order.sort_by(|a, b| {
            parts[*b].2.partial_cmp(&parts[*a].2).unwrap_or(core::cmp::Ordering::Equal).then(a.cmp(b))
        });
        for i in order {
            if left <= 0 {
                break;
            }
            parts[i].1 += 1;
            left -= 1;
        }
        quotas = parts.iter().map(|(i, q, _)| (teams[*i].clone(), *q + 1)).collect();
    }
    let capacity: i64 = quotas.iter().map(|q| q.1).fold(0i64, i64::saturating_add).max(1);
    if capacity < largest {
        problems.push(Problem::warning(
            "serviceEnvironment.capacityLimits",
            format!("{capacity} instances: the largest job asks for {largest} and can never run"),
        ));
    }

    let first = kept.iter().map(|k| k.submit).min().unwrap_or(0);
    kept.sort_by_key(|k| k.submit);
    let job_origins: Vec<Origin> =
        kept.iter().map(|k| Origin { file: k.file, at: format!("{}:{}", files[k.file].0, k.line) }).collect();
    let jobs: Vec<Job> = kept
        .iter()
        .map(|k| {
            let mut j = Job::new(&k.name, &k.team, &instance_type, k.instances, k.submit - first, k.duration);
            j.scheduling_priority = k.priority;
            j.checkpoint_interval_seconds = o.checkpoint_interval;
            j
        })
        .collect();
    let share_origins: Vec<Origin> =
        quotas.iter().map(|(t, _)| team_origins.get(t).cloned().unwrap_or_default()).collect();
    let shares = quotas
        .iter()
        .map(|(t, q)| {
            let mut s =
                QuotaShare::new(t, Strategy::LendAndBorrow, vec![CapacityLimit::new(&instance_type, *q)]);
            s.resource_sharing_configuration = ResourceSharing::new(Strategy::LendAndBorrow, Some(-1));
            s
        })
        .collect();
    let format = match o.format {
        TraceFormat::Openb => "openb",
        TraceFormat::Csv => "csv",
    };
    let names: Vec<&str> = files.iter().map(|f| f.0.rsplit(['/', '\\']).next().unwrap_or(&f.0)).collect();
    let mut scenario = Scenario {
        name: Some(format!("imported trace ({} jobs)", jobs.len())),
        description: Some(format!(
            "Imported by quotasim import trace --format {format} from {}; submitAt 0 is the log's time {first} s.",
            names.join(", ")
        )),
        instance_types: vec![InstanceTypeInfo {
            name: instance_type.clone(),
            gpus: o.gpus_per_instance,
            price_per_hour: None,
        }],
        service_environment: ServiceEnvironment {
            service_environment_name: Some("trace-se".into()),
            capacity_limits: vec![CapacityLimit::new(&instance_type, capacity)],
            ..ServiceEnvironment::default()
        },
        quota_shares: shares,
        jobs,
        ..Scenario::default()
    };
    // Whatever validation would still refuse is skipped at its file and line.
    let mut origins = Origins {
        files: files.iter().map(|f| f.0.clone()).collect(),
        shares: share_origins,
        jobs: job_origins,
        instance_types: vec![Origin { file: usize::MAX, at: "instanceType".into() }],
        service_environment: Origin { file: usize::MAX, at: "serviceEnvironment".into() },
    };
    let mut capped = Capped::default();
    let settled = settle(&mut scenario, &mut origins, &mut capped);
    problems.extend(capped.finish());
    if settled.is_err() {
        return Err(problems);
    }
    scenario.name = Some(format!("imported trace ({} jobs)", scenario.jobs.len()));
    Ok(Imported { scenario, warnings: problems, recognised })
}

/// The most instances the log's jobs held at once (from their start, or submission, times).
fn peak(kept: &[Kept]) -> i64 {
    let mut edges: Vec<(i64, i64)> = Vec::with_capacity(kept.len() * 2);
    for k in kept {
        edges.push((k.began, k.instances));
        edges.push((k.began.saturating_add(k.duration), -k.instances));
    }
    // Ends before starts at the same instant.
    edges.sort_unstable_by_key(|e| (e.0, e.1));
    let (mut now, mut most) = (0i64, 0i64);
    for (_, d) in edges {
        now = now.saturating_add(d);
        most = most.max(now);
    }
    most
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str, o: &TraceOptions) -> Result<Imported, Vec<Problem>> {
        import(&[("log.csv".into(), text.into())], o)
    }

    fn csv(columns: &str) -> TraceOptions {
        TraceOptions { columns: Columns::parse(columns).unwrap(), ..TraceOptions::default() }
    }

    #[test]
    fn rows_keep_quoted_commas_and_their_line_numbers() {
        let rows = csv_rows("a,b\n\"x,1\",2\n\n\"multi\nline\",3\nlast,4");
        let got: Vec<(u64, Vec<&str>)> =
            rows.iter().map(|r| (r.line, r.fields.iter().map(String::as_str).collect())).collect();
        assert_eq!(
            got,
            vec![
                (1, vec!["a", "b"]),
                (2, vec!["x,1", "2"]),
                (4, vec!["multi\nline", "3"]),
                (6, vec!["last", "4"])
            ]
        );
    }

    #[test]
    fn times_are_seconds_or_iso_8601() {
        assert_eq!(seconds("12.6"), Some(13));
        assert_eq!(seconds("2020-04-01 00:00:10"), Some(1_585_699_210));
        assert_eq!(seconds("2020-04-01T00:00:10Z"), Some(1_585_699_210));
        assert_eq!(seconds("yesterday"), None);
    }

    #[test]
    fn a_helios_shaped_log_maps_teams_instances_and_relative_submits() {
        let log = "job_id,vc,gpu_num,submit_time,start_time,end_time,state\n\
                   j1,vcA,16,2020-04-01 00:00:00,2020-04-01 00:01:00,2020-04-01 01:01:00,COMPLETED\n\
                   j2,vcB,1,2020-04-01 00:00:30,2020-04-01 00:00:30,2020-04-01 00:10:30,FAILED\n\
                   j3,vcA,0,2020-04-01 00:00:40,2020-04-01 00:00:40,2020-04-01 00:10:30,COMPLETED\n";
        let o = csv(
            "name=job_id,team=vc,gpus=gpu_num,submit=submit_time,start=start_time,end=end_time,status=state",
        );
        let r = run(log, &o).unwrap();
        let s = &r.scenario;
        let jobs: Vec<(&str, &str, Option<i64>, i64, i64)> = s
            .jobs
            .iter()
            .map(|j| {
                (
                    j.job_name.as_str(),
                    j.quota_share_name.as_str(),
                    j.instance_count,
                    j.submit_at,
                    j.duration_seconds.unwrap_or(-1),
                )
            })
            .collect();
        assert_eq!(jobs, vec![("j1", "vcA", Some(2), 0, 3600), ("j2", "vcB", Some(1), 30, 600)]);
        assert!(
            r.warnings.iter().any(|w| w.message.contains("1 rows ask for no GPU (lines 4)")),
            "{:?}",
            r.warnings
        );
        // Peak: j1 (2) and j2 (1) overlap: 3 instances, one each and the third by
        // instance-seconds 7200 : 600.
        let q: Vec<(&str, i64)> = s
            .quota_shares
            .iter()
            .map(|q| (q.quota_share_name.as_str(), q.capacity_limits[0].max_capacity))
            .collect();
        assert_eq!(q, vec![("vcA", 2), ("vcB", 1)]);
        assert_eq!(s.service_environment.capacity_limits[0].max_capacity, 3);
        if let Err(p) = crate::validate(s) {
            panic!("{p:?}");
        }
    }

    #[test]
    fn a_capacity_file_sets_quotas_in_whole_instances() {
        let log = "vc,gpus,submit,duration\nvcA,8,0,60\nvcC,8,5,60\n";
        let cap = "date,vcA,vcB,vcD,total\n2020-04-01,16,8,0,24\n2020-04-02,20,8,0,28\n";
        let mut o = csv("team=vc,gpus=gpus,submit=submit,duration=duration");
        o.capacity = Some(("cap.csv".into(), cap.into()));
        let r = run(log, &o).unwrap();
        let q: Vec<(&str, i64)> = r
            .scenario
            .quota_shares
            .iter()
            .map(|q| (q.quota_share_name.as_str(), q.capacity_limits[0].max_capacity))
            .collect();
        assert_eq!(q, vec![("vcA", 2), ("vcC", 1), ("vcB", 1)]);
        let msgs: Vec<&str> = r.warnings.iter().map(|w| w.message.as_str()).collect();
        assert!(msgs.iter().any(|m| m.contains("rounded down: vcA (20 GPUs)")), "{msgs:?}");
        assert!(msgs.iter().any(|m| m.contains("no capacity for vcC")), "{msgs:?}");
        assert!(msgs.iter().any(|m| m.contains("raised to 1") && m.ends_with(": vcC")), "{msgs:?}");
        assert!(msgs.iter().any(|m| m.ends_with("no quota share: vcD")), "{msgs:?}");
        assert!(crate::validate(&r.scenario).is_ok());
    }

    #[test]
    fn bad_values_are_named_by_file_line_and_field_and_skipped() {
        let log = "submit,gpus,duration,prio\nsoon,1,60,0\n1,many,60,0\n2,1,60,high\n3,1,60,5\n";
        let r = run(log, &csv("submit=submit,gpus=gpus,duration=duration,priority=prio")).unwrap();
        let errs: Vec<String> = r
            .warnings
            .iter()
            .filter(|w| w.is_error())
            .map(|w| format!("{}: {}", w.path, w.message))
            .collect();
        assert_eq!(errs.len(), 3, "{errs:?}");
        assert!(errs[0].starts_with("log.csv:2: submit: \"soon\" is not"), "{errs:?}");
        assert!(errs[1].starts_with("log.csv:3: gpus"), "{errs:?}");
        assert!(errs[2].starts_with("log.csv:4: priority"), "{errs:?}");
        assert_eq!(r.scenario.jobs.len(), 1);
        assert_eq!(r.scenario.jobs[0].scheduling_priority, 5);
        let missing = run(log, &csv("submit=when,gpus=gpus,duration=duration")).unwrap_err();
        assert!(missing
            .iter()
            .any(|p| p.path == "log.csv: columns.submit" && p.message.contains("no column \"when\"")));
        assert_eq!(Columns::parse("sumbit=x").unwrap_err().path, "columns.sumbit");
    }
}
