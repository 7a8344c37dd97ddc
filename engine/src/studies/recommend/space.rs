//! The recommender's search space: what may change, over which values, and what it costs.
//!
//! Every dimension is a `--set` path ([`crate::change`]) and an ordered list of values; a
//! candidate is one value of each. By default the space is:
//!
//! - each service environment capacity, `serviceEnvironment.capacityLimits[T].maxCapacity`,
//!   from 1 to twice the larger of its value and its shares' quotas summed;
//! - each share's quota for each type it has, `quotaShares[S].capacityLimits[T].maxCapacity`,
//!   over the same values;
//! - each share's sharing, `quotaShares[S].resourceSharingConfiguration`, the whole object
//!   (a `borrowLimit` is valid only with `LEND_AND_BORROW`), from the ladder `RESERVE`,
//!   `LEND`, then `LEND_AND_BORROW` with a borrow limit of 0, 25, 50, 100, 200, 400 and
//!   unlimited (-1 is the least restrictive, never the lowest).
//!
//! A space file changes it:
//!
//! ```json
//! { "formatVersion": 1,
//!   "axes": [
//!     { "path": "quotaShares[team-a].capacityLimits[ml.p5.48xlarge].maxCapacity",
//!       "range": { "from": 4, "to": 16, "step": 1 } },
//!     { "path": "quotaShares[team-b].resourceSharingConfiguration.borrowLimit", "values": [0, 50] },
//!     { "path": "settings.preemptionGraceSeconds", "values": [60, 120, 300] } ],
//!   "fixed": [ "quotaShares[team-c].resourceSharingConfiguration" ] }
//! ```
//!
//! An axis on a default dimension bounds it (its values or range replace the default ones); an
//! axis on `...resourceSharingConfiguration.strategy` or `.borrowLimit` narrows that share's
//! ladder; an axis on any other path adds a dimension. `fixed` keeps a dimension at the
//! scenario's value (a `.strategy` or `.borrowLimit` path keeps that part). Axes use the sweep
//! file's grammar ([`crate::sweep::Axis`]); every value is applied to the scenario once before
//! anything runs, so a wrong path or value is refused with its place in the file.

use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::change::{check_change, Change};
use crate::model::{Scenario, Strategy};
use crate::sweep::file::{range_values, Axis};
use crate::validate::Problem;

/// The borrow limits of the sharing ladder, least to most permissive.
pub const BORROW_LADDER: [i64; 7] = [0, 25, 50, 100, 200, 400, -1];

/// The most values one numeric dimension may have.
pub const MAX_VALUES: usize = 100_000;

/// A space file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SpaceFile {
    /// `formatVersion`: must be 1 (the default).
    #[serde(default = "one")]
    pub format_version: i64,
    /// `axes`: dimensions bounded, narrowed or added.
    #[serde(default)]
    pub axes: Vec<Axis>,
    /// `fixed`: dimensions kept at the scenario's value.
    #[serde(default)]
    pub fixed: Vec<String>,
}

fn one() -> i64 {
    1
}

impl Default for SpaceFile {
    /// The default space: nothing bounded, fixed or added.
    fn default() -> Self {
        SpaceFile { format_version: 1, axes: Vec::new(), fixed: Vec::new() }
    }
}

/// Parses a space file (strictly: nothing unknown, nothing after it).
pub fn parse_space(text: &str) -> Result<SpaceFile, Problem> {
    crate::strict::from_json(text, "space")
}

/// What a dimension is, for the search and for the words of a change.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// The service environment's capacity of type `t` (an index into [`Space::types`]).
    Capacity {
        /// The instance type: an index into [`Space::types`].
        t: usize,
    },
    /// Share `s`'s quota of type `t`.
    Quota {
        /// The share: an index into the scenario's `quotaShares`.
        s: usize,
        /// The instance type: an index into [`Space::types`].
        t: usize,
    },
    /// Share `s`'s sharing configuration (the whole object).
    Sharing {
        /// The share: an index into the scenario's `quotaShares`.
        s: usize,
    },
    /// Any other field.
    Other,
}

/// One dimension: a path, its values in order, and the scenario's.
#[derive(Clone, Debug, PartialEq)]
pub struct Dim {
    /// The field it changes, in the `--set` grammar.
    pub path: String,
    /// What that field is.
    pub kind: Kind,
    /// The values it may take, in order: capacities and quotas ascending, sharings least to most
    /// permissive, a field the space file adds in the file's order.
    pub values: Vec<Value>,
    /// The index of the scenario's value (the nearest in the values, for numbers outside).
    pub input: usize,
}

impl Dim {
    /// The change that sets value `i`.
    pub fn change(&self, i: usize) -> Change {
        Change { path: self.path.clone(), value: self.values[i].clone() }
    }

    /// Value `i` as a whole number (numeric dimensions).
    pub fn int(&self, i: usize) -> i64 {
        self.values[i].as_i64().unwrap_or(0)
    }
}

/// The checked space: its dimensions, the instance types and their prices.
#[derive(Clone, Debug, PartialEq)]
pub struct Space {
    /// Its dimensions: each type's capacity, each share's quotas, each share's sharing, then those the space
    /// file's axes add.
    pub dims: Vec<Dim>,
    /// The service environment's instance types, in its order.
    pub types: Vec<String>,
    /// Price per instance-hour of each type (`None`: unpriced).
    pub prices: Vec<Option<f64>>,
    /// The service environment's capacity of each type in the scenario.
    pub capacity: Vec<i64>,
}

/// A candidate: one value index per dimension.
pub type Config = Vec<u32>;

/// The ladder value `RESERVE`, `LEND` or `LEND_AND_BORROW` with a limit, as the object.
pub fn sharing_value(strategy: Strategy, limit: Option<i64>) -> Value {
    match (strategy, limit) {
        (Strategy::Reserve, _) => json!({"strategy": "RESERVE"}),
        (Strategy::Lend, _) => json!({"strategy": "LEND"}),
        (Strategy::LendAndBorrow, l) => {
            json!({"strategy": "LEND_AND_BORROW", "borrowLimit": l.unwrap_or(-1)})
        }
    }
}

/// A sharing object in words: `RESERVE`, `LEND`, `LEND_AND_BORROW (limit 50)`.
pub fn sharing_words(v: &Value) -> String {
    let s = v.get("strategy").and_then(Value::as_str).unwrap_or("?");
    match v.get("borrowLimit").and_then(Value::as_i64) {
        Some(-1) => format!("{s} (unlimited)"),
        Some(l) => format!("{s} (limit {l})"),
        None if s == "LEND_AND_BORROW" => format!("{s} (unlimited)"),
        None => s.to_string(),
    }
}

fn strategy_word(s: Strategy) -> &'static str {
    match s {
        Strategy::Reserve => "RESERVE",
        Strategy::Lend => "LEND",
        Strategy::LendAndBorrow => "LEND_AND_BORROW",
    }
}

/// The default space of `s`, changed by `file`: every problem with its place in the file.
pub fn build_space(s: &Scenario, file: &SpaceFile) -> Result<Space, Vec<Problem>> {
    let mut b = Builder::new(s);
    if file.format_version != 1 {
        b.problems.push(Problem::error(
            "formatVersion",
            format!("formatVersion must be 1, not {}", file.format_version),
        ));
    }
    for (i, p) in file.fixed.iter().enumerate() {
        b.fix(i, p);
    }
    let scenario_json = serde_json::to_value(s).unwrap_or(Value::Null);
    for (i, a) in file.axes.iter().enumerate() {
        b.axis(i, a, &scenario_json);
    }
    b.finish()
}

/// A space being built: the default dimensions, each share's strategies and borrow limits
/// still allowed, the fixed paths and the dimensions axes add.
struct Builder<'a> {
    s: &'a Scenario,
    types: Vec<String>,
    capacity: Vec<i64>,
    prices: Vec<Option<f64>>,
    dims: Vec<Dim>,
    strategies: Vec<Vec<Strategy>>,
    limits: Vec<Vec<i64>>,
    fixed: BTreeSet<String>,
    added: Vec<Dim>,
    problems: Vec<Problem>,
}

impl<'a> Builder<'a> {
    /// The default dimensions: the capacity of each type and each share's quota of it, from 1
    /// to twice the larger of the capacity and the quotas' sum; every strategy and borrow limit.
    fn new(s: &'a Scenario) -> Self {
        let types: Vec<String> =
            s.service_environment.capacity_limits.iter().map(|c| c.capacity_unit.clone()).collect();
        let capacity: Vec<i64> =
            s.service_environment.capacity_limits.iter().map(|c| c.max_capacity).collect();
        let prices: Vec<Option<f64>> = types
            .iter()
            .map(|t| s.instance_types.iter().find(|i| &i.name == t).and_then(|i| i.price_per_hour))
            .collect();
        let quota_sum = |t: &str| -> i64 {
            s.quota_shares
                .iter()
                .flat_map(|q| q.capacity_limits.iter())
                .filter(|c| c.capacity_unit == t)
                .map(|c| c.max_capacity.max(0))
                .sum()
        };
        let hi: Vec<i64> =
            types.iter().zip(&capacity).map(|(t, c)| 2 * (*c).max(quota_sum(t)).max(1)).collect();
        let mut dims: Vec<Dim> = Vec::new();
        for (t, ty) in types.iter().enumerate() {
            dims.push(Dim {
                path: format!("serviceEnvironment.capacityLimits[{ty}].maxCapacity"),
                kind: Kind::Capacity { t },
                values: whole_numbers(1, hi[t], capacity[t]),
                input: 0,
            });
        }
        for (si, q) in s.quota_shares.iter().enumerate() {
            let name = &q.quota_share_name;
            for c in &q.capacity_limits {
                let Some(t) = types.iter().position(|x| *x == c.capacity_unit) else { continue };
                dims.push(Dim {
                    path: format!("quotaShares[{name}].capacityLimits[{}].maxCapacity", c.capacity_unit),
                    kind: Kind::Quota { s: si, t },
                    values: whole_numbers(1, hi[t], c.max_capacity),
                    input: 0,
                });
            }
        }
        Builder {
            s,
            types,
            capacity,
            prices,
            dims,
            strategies: s
                .quota_shares
                .iter()
                .map(|_| alloc::vec![Strategy::Reserve, Strategy::Lend, Strategy::LendAndBorrow])
                .collect(),
            limits: s.quota_shares.iter().map(|_| BORROW_LADDER.to_vec()).collect(),
            fixed: BTreeSet::new(),
            added: Vec::new(),
            problems: Vec::new(),
        }
    }

    /// The share `path` names, when it is `quotaShares[NAME]` followed by `suffix`.
    fn share_of(&self, path: &str, suffix: &str) -> Option<usize> {
        let rest = path.strip_prefix("quotaShares[")?;
        let (name, tail) = rest.split_once(']')?;
        (tail == suffix).then(|| self.s.quota_shares.iter().position(|q| q.quota_share_name == name))?
    }

    /// `fixed[i]`: a dimension kept at the scenario's value.
    fn fix(&mut self, i: usize, p: &str) {
        let s = self.s;
        if let Some(si) = self.share_of(p, ".resourceSharingConfiguration.strategy") {
            let sh = &s.quota_shares[si].resource_sharing_configuration;
            self.strategies[si].retain(|x| *x == sh.strategy);
        } else if let Some(si) = self.share_of(p, ".resourceSharingConfiguration.borrowLimit") {
            let sh = &s.quota_shares[si].resource_sharing_configuration;
            let l = sh.borrow_limit.unwrap_or(-1);
            self.limits[si].retain(|x| *x == l);
        } else if self.dims.iter().any(|d| d.path == p)
            || self.share_of(p, ".resourceSharingConfiguration").is_some()
        {
            self.fixed.insert(p.into());
        } else {
            self.problems.push(Problem::error(
                format!("fixed[{i}]"),
                format!("{p}: not a dimension of the default space"),
            ));
        }
    }

    /// `axes[i]`: its values, each checked against the scenario, bounding a default dimension
    /// or adding one.
    fn axis(&mut self, i: usize, a: &Axis, scenario_json: &Value) {
        let at = format!("axes[{i}]");
        let values = match axis_values(a, &at) {
            Ok(v) => v,
            Err(p) => {
                self.problems.push(p);
                return;
            }
        };
        // A range is for a number: a field that is not one takes values.
        if a.range.is_some() {
            let now = lookup(scenario_json, &a.path);
            if let Some(v) = now.filter(|v| !v.is_number() && !v.is_null()) {
                self.problems.push(Problem::error(
                    format!("{at}.range"),
                    format!("{}: not a number (it is {v}), so it takes values, not a range", a.path),
                ));
                return;
            }
        }
        let place =
            |k: usize| if a.values.is_some() { format!("{at}.values[{k}]") } else { format!("{at}.range") };
        // Each value applies to the scenario, before anything runs.
        for (k, v) in values.iter().enumerate() {
            if let Err(e) = check_change(self.s, &Change { path: a.path.clone(), value: v.clone() }) {
                self.problems.push(Problem::error(place(k), format!("{}: {}", a.path, e.message)));
                return;
            }
        }
        if let Some(d) = self.dims.iter_mut().find(|d| d.path == a.path) {
            // A numeric default dimension, bounded: whole numbers of at least 1.
            let mut ints = Vec::new();
            for (k, v) in values.iter().enumerate() {
                match v.as_i64() {
                    Some(x) if x >= 1 => ints.push(x),
                    _ => {
                        self.problems.push(Problem::error(
                            place(k),
                            format!("{}: {v} is not a whole number of at least 1", a.path),
                        ));
                        return;
                    }
                }
            }
            ints.sort_unstable();
            ints.dedup();
            d.values = ints.into_iter().map(Value::from).collect();
        } else if let Some(si) = self.share_of(&a.path, ".resourceSharingConfiguration.strategy") {
            if a.range.is_some() {
                self.problems.push(Problem::error(
                    format!("{at}.range"),
                    format!("{}: a strategy is not a number; give its values", a.path),
                ));
                return;
            }
            let mut keep = Vec::new();
            for v in &values {
                match v.as_str() {
                    Some("RESERVE") => keep.push(Strategy::Reserve),
                    Some("LEND") => keep.push(Strategy::Lend),
                    Some("LEND_AND_BORROW") => keep.push(Strategy::LendAndBorrow),
                    _ => {}
                }
            }
            self.strategies[si].retain(|x| keep.contains(x));
        } else if let Some(si) = self.share_of(&a.path, ".resourceSharingConfiguration.borrowLimit") {
            self.borrow_limits(si, &at, a, &values);
        } else if self.share_of(&a.path, ".resourceSharingConfiguration").is_some() {
            self.problems.push(Problem::error(
                format!("{at}.path"),
                format!("{}: bound the sharing by its .strategy and .borrowLimit paths", a.path),
            ));
        } else if a.path.ends_with(".maxCapacity") {
            self.problems.push(Problem::error(
                format!("{at}.path"),
                format!("{}: not a capacity or quota the scenario has", a.path),
            ));
        } else {
            if a.range.is_some() && values.iter().any(|v| !v.is_number()) {
                self.problems
                    .push(Problem::error(format!("{at}.range"), format!("{}: not a number", a.path)));
                return;
            }
            self.added.push(Dim { path: a.path.clone(), kind: Kind::Other, values, input: 0 });
        }
    }

    /// An axis of share `si`'s borrow limits: whole numbers of at least -1, least to most
    /// permissive.
    fn borrow_limits(&mut self, si: usize, at: &str, a: &Axis, values: &[Value]) {
        let mut limits = Vec::new();
        let mut ok = true;
        for (k, v) in values.iter().enumerate() {
            match v.as_i64() {
                Some(x) if x >= -1 => limits.push(x),
                _ => {
                    self.problems.push(Problem::error(
                        format!("{at}.values[{k}]"),
                        format!("{}: {v} is not a borrow limit (a whole number of at least -1)", a.path),
                    ));
                    ok = false;
                }
            }
        }
        // Least to most permissive: -1 last.
        limits.sort_by_key(|x| if *x == -1 { i64::MAX } else { *x });
        limits.dedup();
        if ok {
            self.limits[si] = limits;
        }
    }

    /// The space: the sharing dimensions from each share's ladder, the axes' dimensions after
    /// them, each dimension placed at the scenario's value (a fixed one keeps only it).
    fn finish(mut self) -> Result<Space, Vec<Problem>> {
        let s = self.s;
        for (si, q) in s.quota_shares.iter().enumerate() {
            let mut values = Vec::new();
            for st in &self.strategies[si] {
                if *st == Strategy::LendAndBorrow {
                    for l in &self.limits[si] {
                        values.push(sharing_value(*st, Some(*l)));
                    }
                } else {
                    values.push(sharing_value(*st, None));
                }
            }
            let path = format!("quotaShares[{}].resourceSharingConfiguration", q.quota_share_name);
            if values.is_empty() {
                self.problems.push(Problem::error(
                    "axes",
                    format!("{path}: no strategy and borrow limit are left for {}", q.quota_share_name),
                ));
                continue;
            }
            self.dims.push(Dim { path, kind: Kind::Sharing { s: si }, values, input: 0 });
        }
        let mut dims = self.dims;
        dims.extend(self.added);
        for d in &mut dims {
            let current = current_value(s, d);
            d.input = nearest(&d.values, &current);
            if self.fixed.contains(&d.path) {
                d.values = alloc::vec![current];
                d.input = 0;
            }
        }
        if dims.iter().all(|d| d.values.len() <= 1) {
            self.problems.push(Problem::error("axes", "the space is empty: every field is fixed"));
        }
        if !self.problems.is_empty() {
            return Err(self.problems);
        }
        Ok(Space { dims, types: self.types, prices: self.prices, capacity: self.capacity })
    }
}

/// The whole numbers from `lo` to `hi`, every one up to [`DENSE`] of them; beyond, a
/// geometric ladder of about [`DENSE`] values (each at least 1 apart) with `keep` (the
/// scenario's value) in it, so that a capacity of millions is searched without a list of
/// millions.
fn whole_numbers(lo: i64, hi: i64, keep: i64) -> Vec<Value> {
    let n = hi.saturating_sub(lo).saturating_add(1);
    if n <= DENSE as i64 {
        return (lo..=hi).map(Value::from).collect();
    }
    let ratio = libm::pow(hi as f64 / lo.max(1) as f64, 1.0 / (DENSE as f64 - 1.0));
    let mut v: Vec<i64> =
        (0..DENSE).map(|k| libm::round(lo.max(1) as f64 * libm::pow(ratio, k as f64)) as i64).collect();
    v.push(hi);
    if (lo..=hi).contains(&keep) {
        v.push(keep);
    }
    v.sort_unstable();
    v.dedup();
    v.into_iter().map(Value::from).collect()
}

/// Up to this many values, a numeric dimension has every whole number.
pub const DENSE: usize = 4_096;

fn axis_values(a: &Axis, at: &str) -> Result<Vec<Value>, Problem> {
    if a.path.contains('=') {
        return Err(Problem::error(format!("{at}.path"), format!("`{}`: a path has no `=`", a.path)));
    }
    let values = match (&a.values, &a.range) {
        (Some(v), None) => v.clone(),
        (None, Some(r)) => {
            if r.step.is_nan() || r.step <= 0.0 || !r.from.is_finite() || !r.to.is_finite() {
                return Err(Problem::error(format!("{at}.range.step"), "step must be a number above 0"));
            }
            if r.to < r.from {
                return Err(Problem::error(format!("{at}.range.to"), "to is below from"));
            }
            let n = libm::floor((r.to - r.from) / r.step + 1e-9);
            if n >= MAX_VALUES as f64 {
                return Err(Problem::error(format!("{at}.range"), format!("more than {MAX_VALUES} values")));
            }
            range_values(r, n as u64)
        }
        _ => return Err(Problem::error(at.to_string(), "an axis has either values or a range")),
    };
    if values.is_empty() {
        return Err(Problem::error(format!("{at}.values"), "an axis needs at least one value"));
    }
    Ok(values)
}

/// The scenario's value of a dimension.
fn current_value(s: &Scenario, d: &Dim) -> Value {
    match d.kind {
        Kind::Capacity { t } => Value::from(s.service_environment.capacity_limits[t].max_capacity),
        Kind::Quota { s: si, .. } => {
            let ty = d.path.rsplit_once("capacityLimits[").and_then(|(_, r)| r.split_once(']')).map(|x| x.0);
            let q = &s.quota_shares[si];
            Value::from(
                q.capacity_limits
                    .iter()
                    .find(|c| Some(c.capacity_unit.as_str()) == ty)
                    .map_or(0, |c| c.max_capacity),
            )
        }
        Kind::Sharing { s: si } => {
            let sh = &s.quota_shares[si].resource_sharing_configuration;
            sharing_value(sh.strategy, sh.borrow_limit)
        }
        Kind::Other => {
            let v = serde_json::to_value(s).unwrap_or(Value::Null);
            lookup(&v, &d.path).unwrap_or(Value::Null)
        }
    }
}

/// The value at a change path in a scenario's JSON (lists keyed by name), if any.
fn lookup(v: &Value, path: &str) -> Option<Value> {
    let mut cur = v;
    for seg in path.split('.') {
        let (field, key) = match seg.split_once('[') {
            Some((f, k)) => (f, Some(k.trim_end_matches(']'))),
            None => (seg, None),
        };
        cur = cur.get(field)?;
        if let Some(k) = key {
            cur = cur.as_array()?.iter().find(|e| {
                ["quotaShareName", "jobName", "capacityUnit", "name"]
                    .iter()
                    .any(|f| e.get(*f).and_then(Value::as_str) == Some(k))
            })?;
        }
    }
    Some(cur.clone())
}

/// The index of `v` in `values`, or of the nearest number, or 0.
fn nearest(values: &[Value], v: &Value) -> usize {
    if let Some(i) = values.iter().position(|x| x == v) {
        return i;
    }
    let Some(x) = v.as_f64() else { return 0 };
    let mut best = 0;
    let mut gap = f64::INFINITY;
    for (i, y) in values.iter().enumerate() {
        if let Some(y) = y.as_f64() {
            let g = (y - x).abs();
            if g < gap {
                gap = g;
                best = i;
            }
        }
    }
    best
}

impl Space {
    /// The scenario's place in the space.
    pub fn input(&self) -> Config {
        self.dims.iter().map(|d| d.input as u32).collect()
    }

    /// The changes that make candidate `c` of the scenario: one per dimension whose value
    /// differs from the scenario's, in dimension order.
    pub fn changes(&self, c: &Config, s: &Scenario) -> Vec<Change> {
        self.dims
            .iter()
            .zip(c)
            .filter(|(d, i)| d.values[**i as usize] != current_value(s, d))
            .map(|(d, i)| d.change(*i as usize))
            .collect()
    }

    /// The capacity of type `t` in candidate `c`.
    pub fn capacity_of(&self, c: &Config, t: usize) -> i64 {
        self.dims
            .iter()
            .zip(c)
            .find(|(d, _)| d.kind == Kind::Capacity { t })
            .map_or(self.capacity[t], |(d, i)| d.int(*i as usize))
    }

    /// Whether any instance type has a price.
    pub fn priced(&self) -> bool {
        self.prices.iter().any(Option::is_some)
    }

    /// `capacityPerHour`: each type's capacity times its price per hour, summed (instances,
    /// when no type has a price; an unpriced type costs nothing when others have prices).
    pub fn capacity_per_hour(&self, c: &Config) -> f64 {
        let priced = self.priced();
        (0..self.types.len())
            .map(|t| {
                let p = if priced { self.prices[t].unwrap_or(0.0) } else { 1.0 };
                self.capacity_of(c, t) as f64 * p
            })
            .sum()
    }

    /// The dimension of a kind, if the space has it.
    pub fn dim_of(&self, k: &Kind) -> Option<usize> {
        self.dims.iter().position(|d| d.kind == *k)
    }

    /// The quota dimensions of type `t`.
    pub fn quotas_of(&self, t: usize) -> Vec<usize> {
        (0..self.dims.len())
            .filter(|&i| matches!(self.dims[i].kind, Kind::Quota { t: u, .. } if u == t))
            .collect()
    }

    /// The words of the difference between two candidates, per share:
    /// `team-b: 16 -> 10 × ml.p5.48xlarge, RESERVE -> LEND`, and for the environment and any
    /// other field, `serviceEnvironment: 64 -> 40 × ml.p5.48xlarge`, `path: a -> b`.
    pub fn words(&self, s: &Scenario, from: &Config, to: &Config) -> Vec<String> {
        let mut env: Vec<String> = Vec::new();
        let mut shares: Vec<Vec<String>> = alloc::vec![Vec::new(); s.quota_shares.len()];
        let mut other: Vec<String> = Vec::new();
        for (k, d) in self.dims.iter().enumerate() {
            let (a, b) = (&d.values[from[k] as usize], &d.values[to[k] as usize]);
            if a == b {
                continue;
            }
            match d.kind {
                Kind::Capacity { t } => env.push(format!("{a} -> {b} × {}", self.types[t])),
                Kind::Quota { s: si, t } => shares[si].push(format!("{a} -> {b} × {}", self.types[t])),
                Kind::Sharing { s: si } => {
                    shares[si].push(format!("{} -> {}", sharing_words(a), sharing_words(b)))
                }
                Kind::Other => other.push(format!("{}: {a} -> {b}", d.path)),
            }
        }
        let mut out = Vec::new();
        if !env.is_empty() {
            out.push(format!("serviceEnvironment: {}", env.join(", ")));
        }
        for (si, w) in shares.iter().enumerate() {
            if !w.is_empty() {
                out.push(format!("{}: {}", s.quota_shares[si].quota_share_name, w.join(", ")));
            }
        }
        out.extend(other);
        out
    }
}

/// The strategy word of a share in the scenario (for messages).
pub fn strategy_of(s: &Scenario, si: usize) -> &'static str {
    strategy_word(s.quota_shares[si].resource_sharing_configuration.strategy)
}
