//! Reading a job log's rows: each file's header mapped to the fields, each row kept as a job
//! or skipped (counted per reason, or an error with its file, line and field). The first of an
//! import's three stages (read, quotas, assemble).

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::csv::{csv_rows, Row};
use super::options::{Columns, Naming, TraceOptions};
use crate::import_check::{clean_name, Names};
use crate::problem::Problem;
use crate::validate::MAX_SAFE;

/// At most this many errors are listed per file; the rest are counted.
const MAX_ERRORS_PER_FILE: usize = 20;

/// Seconds from a number (fractions rounded) or an ISO 8601 time.
pub(super) fn seconds(v: &str) -> Option<i64> {
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

pub(super) struct Kept {
    /// The file (an index) and line it was read from.
    pub(super) file: usize,
    pub(super) line: u64,
    pub(super) name: String,
    pub(super) team: String,
    pub(super) priority: i64,
    pub(super) instances: i64,
    pub(super) submit: i64,
    /// When it started in the log (for the peak), `submit` without a start column.
    pub(super) began: i64,
    pub(super) duration: i64,
}

/// The rows kept from every file, and what each file held.
pub(super) struct Read {
    pub kept: Vec<Kept>,
    pub recognised: Vec<String>,
}

/// Why a row was skipped: counted under a reason, or a value that cannot be read.
enum Skip {
    Tallied(&'static str),
    Bad { field: &'static str, value: String, what: &'static str },
}

const TIME: &str = "a number of seconds or an ISO 8601 time";

fn bad(field: &'static str, value: &str, what: &'static str) -> Skip {
    Skip::Bad { field, value: value.to_string(), what }
}

/// Reads every file's rows; problems of reading are added to `problems`.
pub(super) fn read(
    files: &[(String, String)],
    o: &TraceOptions,
    columns: &Columns,
    problems: &mut Vec<Problem>,
) -> Read {
    let naming = Naming::new(o);
    let mut out = Read { kept: Vec::new(), recognised: Vec::new() };
    let mut names = Names::default();
    for (fi, (file, text)) in files.iter().enumerate() {
        let rows = csv_rows(text);
        let Some((head, body)) = rows.split_first() else {
            problems.push(Problem::error(file.as_str(), "is empty: a job log has a header and rows"));
            continue;
        };
        let Some(col) = header(file, head, columns, problems) else { continue };
        let mut tallies: BTreeMap<&'static str, Tally> = BTreeMap::new();
        let mut tally = |reason: &'static str, line: u64| {
            let t = tallies.entry(reason).or_default();
            t.count += 1;
            if t.lines.len() < 3 {
                t.lines.push(line);
            }
        };
        let (mut errors, mut more_errors) = (0usize, 0u64);
        let before = out.kept.len();
        for r in body {
            match row(fi, file, r, &col, o, &naming, &mut names, &mut tally) {
                Ok(k) => out.kept.push(k),
                Err(Skip::Tallied(reason)) => tally(reason, r.line),
                Err(Skip::Bad { field, value, what }) if errors < MAX_ERRORS_PER_FILE => {
                    errors += 1;
                    problems.push(Problem::error(
                        format!("{file}:{}: {field}", r.line),
                        format!("{value:?} is not {what}; row skipped"),
                    ));
                }
                Err(Skip::Bad { .. }) => more_errors += 1,
            }
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
        out.recognised.push(format!("{file}: {} rows, {} jobs", body.len(), out.kept.len() - before));
    }
    out
}

/// The column of each field in a file's header, or `None` (with a problem per column it
/// lacks).
fn header(
    file: &str,
    head: &Row,
    columns: &Columns,
    problems: &mut Vec<Problem>,
) -> Option<BTreeMap<&'static str, usize>> {
    let index: BTreeMap<&str, usize> = head.fields.iter().enumerate().map(|(i, c)| (c.as_str(), i)).collect();
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
    (!missing).then_some(col)
}

/// One row as a job, or why it is skipped; changes that keep it (censored, clamped, renamed)
/// are counted through `tally`.
#[allow(clippy::too_many_arguments)]
fn row(
    fi: usize,
    file: &str,
    r: &Row,
    col: &BTreeMap<&'static str, usize>,
    o: &TraceOptions,
    naming: &Naming,
    names: &mut Names,
    tally: &mut impl FnMut(&'static str, u64),
) -> Result<Kept, Skip> {
    let get =
        |f: &str| col.get(f).and_then(|i| r.fields.get(*i)).map(String::as_str).filter(|v| !v.is_empty());
    let sv = get("submit").ok_or_else(|| bad("submit", "", TIME))?;
    let submit = seconds(sv).ok_or_else(|| bad("submit", sv, TIME))?;
    if o.from.is_some_and(|f| submit < f) || o.to.is_some_and(|t| submit >= t) {
        return Err(Skip::Tallied("submitted outside --from/--to"));
    }
    let gpus = gpus(get("gpus").unwrap_or(""), get("gpuMilli"))?;
    if gpus <= 0.0 {
        return Err(Skip::Tallied("ask for no GPU"));
    }
    if o.min_gpus.is_some_and(|m| gpus < m) {
        return Err(Skip::Tallied("ask for fewer GPUs than --min-gpus"));
    }
    let start = match (col.contains_key("start"), get("start")) {
        (false, _) => None,
        (true, None) => return Err(Skip::Tallied("never started (no start time): no run time to replay")),
        (true, Some(v)) => Some(seconds(v).ok_or_else(|| bad("start", v, TIME))?),
    };
    let mut duration = if let Some(v) = get("duration") {
        seconds(v).ok_or_else(|| bad("duration", v, "a number of seconds"))?
    } else {
        let ev = get("end").ok_or(Skip::Tallied("have no end time"))?;
        seconds(ev).ok_or_else(|| bad("end", ev, TIME))? - start.unwrap_or(submit)
    };
    if let Some(st) = get("status") {
        let s = st.to_ascii_lowercase();
        if s == "running" || s == "pending" {
            tally("were still running when the log ended: run time censored (observed so far)", r.line);
        }
    }
    if duration < 0 {
        return Err(bad("duration", &format!("{duration}"), "a run time (the job ends before it starts)"));
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
    let team = get("team").map_or_else(|| "default".to_string(), |v| naming.share_of(v));
    let priority = match get("priority") {
        None => 0,
        Some(v) => naming
            .priorities
            .get(v)
            .copied()
            .or_else(|| v.parse::<i64>().ok())
            .ok_or_else(|| bad("priority", v, "a whole number or a value named in --priorities"))?,
    };
    let stem = file.rsplit(['/', '\\']).next().unwrap_or(file).split('.').next().unwrap_or("job");
    let wanted = clean_name(&get("name").map_or_else(|| format!("{stem}-{}", r.line), String::from));
    // Unique among every name given so far, a suffixed one included.
    let name = names.give_or_suffix(&wanted, &r.line.to_string());
    if name != wanted {
        tally("repeat an earlier job's name: given a -line suffix", r.line);
    }
    let instances = libm::ceil(gpus / o.gpus_per_instance as f64) as i64;
    Ok(Kept {
        file: fi,
        line: r.line,
        name,
        team,
        priority,
        instances,
        submit,
        began: start.unwrap_or(submit),
        duration,
    })
}

/// GPUs asked for: `gpus`, times `gpuMilli` ÷ 1000 when that column is mapped.
fn gpus(gv: &str, milli: Option<&str>) -> Result<f64, Skip> {
    let gpus = gv
        .parse::<f64>()
        .ok()
        .filter(|g| g.is_finite() && (0.0..=MAX_SAFE as f64).contains(g))
        .ok_or_else(|| bad("gpus", gv, "a number of GPUs from 0 to 2^53 - 1"))?;
    match milli.map(|m| (m, m.parse::<f64>())) {
        None => Ok(gpus),
        Some((_, Ok(m))) if m.is_finite() && m >= 0.0 => Ok(gpus * m / 1000.0),
        Some((m, _)) => Err(bad("gpuMilli", m, "thousandths of a GPU")),
    }
}
