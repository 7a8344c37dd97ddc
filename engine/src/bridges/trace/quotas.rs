//! Quotas for the teams a log's jobs name: from a capacity file (GPUs per team, in whole
//! instances), or the service environment's instances split in proportion to each team's
//! demand. The second of an import's three stages (read, quotas, assemble).

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use super::csv::{csv_rows, Row};
use super::options::{Naming, TraceOptions};
use super::read::Kept;
use crate::import_check::{Capped, Origin};
use crate::problem::Problem;
use crate::validate::MAX_SAFE;

/// Each share's quota (instances) in order, where each share first appeared, and the service
/// environment's capacity.
pub(super) struct Quotas {
    pub quotas: Vec<(String, i64)>,
    pub origins: BTreeMap<String, Origin>,
    pub capacity: i64,
}

/// The quotas of the teams `kept` names (and those a capacity file adds); `Err` when
/// `--instances` is out of range.
pub(super) fn quotas(
    files: &[(String, String)],
    o: &TraceOptions,
    kept: &[Kept],
    problems: &mut Vec<Problem>,
) -> Result<Quotas, Vec<Problem>> {
    // Shares in order of first appearance, each with where it first appeared.
    let mut teams: Vec<String> = Vec::new();
    let mut origins: BTreeMap<String, Origin> = BTreeMap::new();
    let mut demand: BTreeMap<String, f64> = BTreeMap::new();
    for k in kept {
        if !demand.contains_key(&k.team) {
            teams.push(k.team.clone());
            let at = format!("{}:{}: team", files[k.file].0, k.line);
            origins.insert(k.team.clone(), Origin { file: k.file, at });
        }
        *demand.entry(k.team.clone()).or_insert(0.0) += k.instances as f64 * k.duration as f64;
    }
    let largest = kept.iter().map(|k| k.instances).max().unwrap_or(1);
    let quotas = if let Some((cfile, ctext)) = &o.capacity {
        given(cfile, ctext, o, &mut teams, &mut origins, problems)
    } else {
        let total = match o.instances {
            Some(n) if (1..=MAX_SAFE).contains(&n) => n,
            Some(n) => return Err(vec![Problem::error("instances", format!("{n} is not 1 to 2^53 - 1"))]),
            None => peak(kept).max(largest),
        };
        split(total, &teams, &demand, problems)
    };
    let capacity: i64 = quotas.iter().map(|q| q.1).fold(0i64, i64::saturating_add).max(1);
    if capacity < largest {
        problems.push(Problem::warning(
            "serviceEnvironment.capacityLimits",
            format!("{capacity} instances: the largest job asks for {largest} and can never run"),
        ));
    }
    Ok(Quotas { quotas, origins, capacity })
}

/// Quotas from a capacity file: whole instances per team (rounded down, said); teams it adds
/// come after those with jobs. AWS needs maxCapacity >= 1: a share without jobs and without
/// capacity is left out, one with jobs gets a single instance.
fn given(
    cfile: &str,
    ctext: &str,
    o: &TraceOptions,
    teams: &mut Vec<String>,
    origins: &mut BTreeMap<String, Origin>,
    problems: &mut Vec<Problem>,
) -> Vec<(String, i64)> {
    let naming = Naming::new(o);
    let with_jobs = teams.len();
    let mut capped = Capped::default();
    let caps = capacity_of(cfile, ctext, &mut capped);
    problems.extend(capped.finish());
    let mut given: BTreeMap<String, i64> = BTreeMap::new();
    let mut known: BTreeSet<String> = teams.iter().cloned().collect();
    let mut fractional = Vec::new();
    for (team, g) in caps {
        let share = naming.share_of(&team);
        // At most 2^53 - 1 GPUs: the product is exact.
        let inst = libm::floor(g / o.gpus_per_instance as f64) as i64;
        if (inst * o.gpus_per_instance) as f64 != g {
            fractional.push(format!("{team} ({g} GPUs)"));
        }
        if known.insert(share.clone()) {
            teams.push(share.clone());
            origins.insert(share.clone(), Origin { file: usize::MAX, at: format!("{cfile}: {team}") });
        }
        let q = given.entry(share).or_insert(0);
        *q = q.saturating_add(inst);
    }
    if !fractional.is_empty() {
        problems.push(Problem::warning(
            cfile,
            format!(
                "not a whole number of {}-GPU instances, rounded down: {}",
                o.gpus_per_instance,
                fractional.join(", ")
            ),
        ));
    }
    let absent: Vec<&str> = teams.iter().filter(|t| !given.contains_key(*t)).map(String::as_str).collect();
    if !absent.is_empty() {
        problems.push(Problem::warning(
            cfile,
            format!("gives no capacity for {}: their quota is 0 (they can only borrow)", absent.join(", ")),
        ));
    }
    let (mut raised, mut left_out) = (Vec::new(), Vec::new());
    let quotas = teams
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
            cfile,
            format!("no capacity and no jobs, so no quota share: {}", left_out.join(", ")),
        ));
    }
    if !raised.is_empty() {
        problems.push(Problem::warning(
            cfile,
            format!(
                "less than one instance, raised to 1 (AWS needs maxCapacity >= 1): {}",
                raised.join(", ")
            ),
        ));
    }
    quotas
}

/// `total` instances split between the teams in proportion to their demand (largest
/// remainder, ties by first appearance), after one each: AWS needs maxCapacity >= 1.
fn split(
    total: i64,
    teams: &[String],
    demand: &BTreeMap<String, f64>,
    problems: &mut Vec<Problem>,
) -> Vec<(String, i64)> {
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
    parts.iter().map(|(i, q, _)| (teams[*i].clone(), *q + 1)).collect()
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
