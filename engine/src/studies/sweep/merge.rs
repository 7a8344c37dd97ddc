//! Sweep shards merged back into one sweep (`quotasim sweep-merge`): rows sorted by index and
//! the frontier recomputed over all of them, refusing what would not be the unsharded run.
//!
//! Every row carries the sweep's row count and fingerprint ([`crate::sweep::fingerprint`]), so
//! a merge knows the rows it must have and refuses rows of another sweep: a row of another
//! fingerprint or row count, a row in two outputs, a row past the sweep's count, a line that is
//! not a row, and any row missing (a shard killed before its last row, or not given) are each
//! an error naming the file (and line) it is about. Outputs with no row at all are an error
//! too: a merge never prints nothing and succeeds.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::Value;

use crate::problem::Problem;
use crate::sweep::{as_read, pareto, Goal};

/// Rows of one sweep, merged.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    /// Each row's line, in index order, as its shard printed it and with `frontier` set again
    /// over all rows: the bytes of the unsharded run, a line each.
    pub lines: Vec<String>,
    /// Each row, parsed, in index order.
    pub rows: Vec<Value>,
    /// The axes' paths, from the rows' changes.
    pub axes: Vec<String>,
    /// Each row's place on the front, when the sweep has goals.
    pub frontier: Option<Vec<bool>>,
}

/// Where a row was read: its file and line (from 1).
struct At<'a> {
    file: &'a str,
    line: usize,
}

impl At<'_> {
    fn name(&self) -> String {
        format!("{}:{}", self.file, self.line)
    }
}

/// Merges shard outputs (`(file name, text)`, JSON lines of `quotasim sweep`).
pub fn merge(files: &[(String, String)]) -> Result<Merged, Problem> {
    // Row index -> (file index, line, text, value).
    let mut rows: BTreeMap<u64, (usize, usize, &str, Value)> = BTreeMap::new();
    // The sweep: its row count and fingerprint, and where they were first read.
    let mut sweep: Option<(u64, String, String)> = None;
    for (fi, (file, text)) in files.iter().enumerate() {
        for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let at = At { file, line: n + 1 };
            let bad = |m: String| Problem::error(at.name(), m);
            let v: Value = serde_json::from_str(line)
                .map_err(|_| bad("not a row of `quotasim sweep --format jsonl` (cut short?)".into()))?;
            let k = v["row"].as_u64().ok_or_else(|| bad("no row index".into()))?;
            let (Some(count), Some(print)) = (v["rows"].as_u64(), v["fingerprint"].as_str()) else {
                return Err(bad(format!(
                    "row {k} has no `rows` and `fingerprint`: not written by this version of `quotasim sweep`"
                )));
            };
            match &sweep {
                None => sweep = Some((count, print.to_string(), at.name())),
                Some((c, p, first)) if *c != count || p != print => {
                    return Err(bad(format!(
                        "row {k} is of another sweep than {first} ({count} rows, {print}; not {c} rows, {p}): \
                         another base, axes, values or goals"
                    )));
                }
                Some(_) => {}
            }
            if k >= count {
                return Err(bad(format!("row {k} is past the sweep's {count} rows")));
            }
            if let Some((other, line, _, _)) = rows.get(&k) {
                let first = At { file: &files[*other].0, line: *line };
                return Err(bad(format!("row {k} is in more than one output (also {})", first.name())));
            }
            rows.insert(k, (fi, n + 1, line, v));
        }
    }
    let Some((count, _, _)) = sweep else {
        let names: Vec<&str> = files.iter().map(|(f, _)| f.as_str()).collect();
        return Err(Problem::error(
            names.join(", "),
            "no rows: not outputs of `quotasim sweep --format jsonl`, or every shard stopped before its first row",
        ));
    };
    if let Some(missing) = (0..count).find(|k| !rows.contains_key(k)) {
        return Err(missing_row(files, &rows, missing, count));
    }
    let first = rows.values().next().map(|r| &r.3).cloned().unwrap_or(Value::Null);
    let axes: Vec<String> = first["changes"]
        .as_array()
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .filter_map(Value::as_str)
        .map(|c| c.split_once('=').map_or(c, |(p, _)| p).to_string())
        .collect();
    let goal_names: Vec<String> =
        first["objectives"].as_object().map_or(Vec::new(), |o| o.keys().cloned().collect());
    let goals: Vec<Goal> = goal_names.iter().filter_map(|g| Goal::parse(g)).collect();
    let frontier = (!goals.is_empty()).then(|| {
        let vals: Vec<Vec<Option<f64>>> = rows
            .values()
            .map(|(_, _, _, v)| goal_names.iter().map(|g| as_read(&v["objectives"][g])).collect())
            .collect();
        pareto(&goals, &vals)
    });
    let mut lines = Vec::with_capacity(rows.len());
    let mut values = Vec::with_capacity(rows.len());
    for (i, (_, _, line, v)) in rows.into_values().enumerate() {
        lines.push(match &frontier {
            Some(on) => {
                let body = line
                    .strip_suffix(",\"frontier\":true}")
                    .or_else(|| line.strip_suffix(",\"frontier\":false}"))
                    .or_else(|| line.strip_suffix('}'))
                    .unwrap_or(line);
                format!("{body},\"frontier\":{}}}", on[i])
            }
            None => line.to_string(),
        });
        values.push(v);
    }
    Ok(Merged { lines, rows: values, axes, frontier })
}

/// The problem of a missing row, naming the output that should have had it when the outputs'
/// rows show how the sweep was sharded (every output's rows a step of N apart).
fn missing_row(
    files: &[(String, String)],
    rows: &BTreeMap<u64, (usize, usize, &str, Value)>,
    missing: u64,
    count: u64,
) -> Problem {
    let mut by_file: BTreeMap<usize, Vec<u64>> = BTreeMap::new();
    for (k, (fi, _, _, _)) in rows {
        by_file.entry(*fi).or_default().push(*k);
    }
    let steps: Vec<u64> = by_file.values().filter(|r| r.len() > 1).map(|r| r[1] - r[0]).collect();
    let even = |r: &Vec<u64>, n: u64| r.windows(2).all(|w| w[1] - w[0] == n);
    let step = steps.first().copied().filter(|n| steps.iter().all(|s| s == n));
    let shards = step.filter(|n| by_file.values().all(|r| even(r, *n)));
    let expected = format!("rows 0 to {} expected", count - 1);
    match shards {
        Some(n) => match by_file.iter().find(|(_, r)| r[0] % n == missing % n) {
            Some((fi, r)) => Problem::error(
                files[*fi].0.as_str(),
                format!(
                    "row {missing} is missing ({expected}): this output has rows {} to {} of shard {}/{n} and stops before it: was its shard cut short?",
                    r[0],
                    r[r.len() - 1],
                    missing % n + 1
                ),
            ),
            None => Problem::error(
                "",
                format!("row {missing} is in no output ({expected}): no output has shard {}/{n}: is a shard missing?", missing % n + 1),
            ),
        },
        None => Problem::error("", format!("row {missing} is in no output ({expected}): is a shard missing or cut short?")),
    }
}
