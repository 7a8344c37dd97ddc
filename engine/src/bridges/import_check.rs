//! What every importer shares so that it never passes an invalid scenario through: numbers
//! read within 2^53 - 1, names made valid and unique, problems capped per file, and the
//! scenario validated before it is returned, each error put on the record it came from.
//!
//! - [`whole`] reads a number of a JSON record: absent, or a whole number within ±(2^53 - 1),
//!   or out of range (an error the importer reports with the field, skipping the record).
//! - [`Names`] gives each job or share a valid, unique name: a name that is valid and not yet
//!   taken is kept; another is made valid ([`clean_name`]: `-` for every other character, cut
//!   to 128) and, when taken, gets the first free suffix `-2`, `-3`, ... (the name cut to make
//!   room). Names of the input are reserved first, so a job named `same-2` keeps its name and
//!   a second `same` becomes `same-3`.
//! - [`Capped`] keeps at most [`MAX_PER_FILE`] problems per file and counts the rest, so a
//!   file of a million bad lines gives twenty lines and a count, not a million.
//! - [`settle`] validates the scenario; an error on a job skips the job, on a quota share skips
//!   the share and its jobs, on an instance type's GPU count drops the count, on a capacity
//!   limit of the service environment drops the limit, and an invalid service environment
//!   name is made valid (a warning). Each is reported with the origin of the record (file and
//!   line, record or document) and the scenario field. What cannot be put on one record (no
//!   quota share at all, quotas adding up past 2^53 - 1) fails the import.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::Value;

use crate::model::Scenario;
use crate::problem::Problem;
use crate::scenario::MAX_SHARES;
use crate::validate::{valid_job_name, validate, MAX_NAME, MAX_SAFE};

/// A number of a record: `Ok(None)` when it is absent, `null` or not a number at all (what an
/// importer ignores), `Ok(Some(n))` for a number (or a numeric string) within ±(2^53 - 1),
/// fractions cut, and `Err(text)` with the number as written when it is out of that range.
pub fn whole(v: Option<&Value>) -> Result<Option<i64>, String> {
    let x = match v {
        Some(Value::Number(n)) => match n.as_i64() {
            Some(i) => i as f64,
            None => n.as_f64().unwrap_or(f64::INFINITY),
        },
        Some(Value::String(s)) => match s.trim().parse::<f64>() {
            Ok(x) => x,
            Err(_) => return Ok(None),
        },
        _ => return Ok(None),
    };
    if x.is_finite() && libm::fabs(x) <= MAX_SAFE as f64 {
        Ok(Some(libm::trunc(x) as i64))
    } else {
        Err(match v {
            Some(Value::String(s)) => s.clone(),
            Some(v) => v.to_string(),
            None => String::new(),
        })
    }
}

/// The message for a number out of range: the record is skipped.
pub fn out_of_range(what: &str, written: &str) -> String {
    format!("{written} is not a whole number within ±(2^53 - 1); {what} skipped")
}

/// A name made valid for a job or a share: letters, digits, `-` and `_` kept, anything else
/// `-`, at most 128 characters, `x` for nothing.
pub fn clean_name(s: &str) -> String {
    let mut out: String = s
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '-' })
        .take(MAX_NAME)
        .collect();
    if out.is_empty() {
        out.push('x');
    }
    out
}

/// Valid, unique names, given in order ([`Names::give`]) after the input's own valid names are
/// reserved ([`Names::reserve`]).
#[derive(Default)]
pub struct Names {
    taken: BTreeSet<String>,
    /// Reserved names not yet given: the first record with the name gets it.
    reserved: BTreeSet<String>,
}

impl Names {
    /// Reserves a name of the input, so that no suffix of another takes it.
    pub fn reserve(&mut self, name: &str) {
        if valid_job_name(name) {
            self.reserved.insert(name.to_string());
        }
    }

    /// The name for a record that asked for `wanted`, first come first served: the clean
    /// name when it is free, else `<clean>-<suffix>` when that is free, else the first free
    /// `<clean>-<suffix>-k` (k = 2, 3, ...), each cut to fit 128 characters.
    pub fn give_or_suffix(&mut self, wanted: &str, suffix: &str) -> String {
        let clean = clean_name(wanted);
        if !self.taken.contains(&clean) && !self.reserved.contains(&clean) {
            self.taken.insert(clean.clone());
            return clean;
        }
        let stem = fit(&clean, &format!("-{}", clean_name(suffix)));
        self.give(&stem)
    }

    /// The name for a record that asked for `wanted`: `wanted` itself when it is valid and
    /// free, else the first free `<clean>-k` (k = 2, 3, ...), the clean name cut to fit 128.
    pub fn give(&mut self, wanted: &str) -> String {
        let clean = clean_name(wanted);
        if clean == wanted && !self.taken.contains(wanted) {
            self.reserved.remove(wanted);
            self.taken.insert(clean.clone());
            return clean;
        }
        if clean != wanted && !self.taken.contains(&clean) && !self.reserved.contains(&clean) {
            self.taken.insert(clean.clone());
            return clean;
        }
        for k in 2u64.. {
            let name = fit(&clean, &format!("-{k}"));
            if !self.taken.contains(&name) && !self.reserved.contains(&name) {
                self.taken.insert(name.clone());
                return name;
            }
        }
        unreachable!("a free suffix exists")
    }
}

/// `stem` and `suffix`, the stem cut so that both fit in 128 characters (ASCII: a valid name).
fn fit(stem: &str, suffix: &str) -> String {
    let mut stem = String::from(stem);
    while stem.len() + suffix.len() > MAX_NAME {
        stem.pop();
    }
    stem + suffix
}

/// At most this many problems of a kind are listed per file; the rest are counted.
pub const MAX_PER_FILE: usize = 20;

/// Problems of an import, at most [`MAX_PER_FILE`] of each kind listed per file (a kind names
/// what they are about, in the plural: `"lines that are not JSON"`), so that a flood of one
/// kind never hides another. The rest are counted, and [`Capped::finish`] says how many (an
/// error when any of them was).
#[derive(Clone, Default)]
pub struct Capped {
    /// The problems listed so far, in the order they came (the ones past the cap are only counted).
    pub problems: Vec<Problem>,
    /// Per file and kind: problems listed, problems left out, errors among them.
    per_file: BTreeMap<String, BTreeMap<&'static str, (usize, u64, bool)>>,
}

impl Capped {
    /// Adds a problem of `kind` about `file`.
    pub fn push(&mut self, file: &str, kind: &'static str, p: Problem) {
        let error = p.is_error();
        self.push_with(file, kind, error, || p);
    }

    /// Adds a problem of `kind` about `file`, made only when it is listed: past the cap, a
    /// problem costs a count, not its text.
    pub fn push_with(&mut self, file: &str, kind: &'static str, error: bool, make: impl FnOnce() -> Problem) {
        if !self.per_file.contains_key(file) {
            self.per_file.insert(file.to_string(), BTreeMap::new());
        }
        let Some(kinds) = self.per_file.get_mut(file) else { return };
        let e = kinds.entry(kind).or_default();
        if e.0 < MAX_PER_FILE {
            e.0 += 1;
            self.problems.push(make());
        } else {
            e.1 += 1;
            e.2 |= error;
        }
    }

    /// Adds a problem that is about no one file.
    pub fn push_general(&mut self, p: Problem) {
        self.problems.push(p);
    }

    /// Every problem, with a count of those not listed per file and kind.
    pub fn finish(mut self) -> Vec<Problem> {
        for (file, kinds) in self.per_file {
            for (kind, (_, more, error)) in kinds {
                if more > 0 {
                    let m = format!("{more} more {kind} are not listed (the first {MAX_PER_FILE} are)");
                    let file = file.clone();
                    self.problems.push(if error {
                        Problem::error(file, m)
                    } else {
                        Problem::warning(file, m)
                    });
                }
            }
        }
        self.problems
    }
}

/// Where a part of an imported scenario came from: its file (an index into
/// [`Origins::files`]) and its place, as problems name it (`page.json: jobSummaryList[3]`,
/// `events.jsonl:12`, `queues.yaml document 2`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Origin {
    /// The file: an index into [`Origins::files`] (`usize::MAX` for a part no file gave, such as a trace
    /// import's instance type).
    pub file: usize,
    /// Its place, as problems name it, usually with its file name (`events.jsonl:12`).
    pub at: String,
}

/// Where each part of an imported scenario came from: each quota share, job and instance
/// type, in order, and the service environment.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Origins {
    /// The import's file names, in the order given; [`Origin::file`] indexes them.
    pub files: Vec<String>,
    /// Where each quota share came from, in the order of the scenario's `quotaShares`.
    pub shares: Vec<Origin>,
    /// Where each job came from, in the order of the scenario's `jobs`.
    pub jobs: Vec<Origin>,
    /// Where each entry of the scenario's `instanceTypes` came from, in order.
    pub instance_types: Vec<Origin>,
    /// Where the service environment came from.
    pub service_environment: Origin,
}

impl Origins {
    fn file(&self, o: &Origin) -> &str {
        self.files.get(o.file).map_or("", String::as_str)
    }
}

/// `name[12]` and what follows it in a problem's path.
fn indexed<'a>(path: &'a str, name: &str) -> Option<(usize, &'a str)> {
    let rest = path.strip_prefix(name)?.strip_prefix('[')?;
    let (i, rest) = rest.split_once(']')?;
    Some((i.parse().ok()?, rest.trim_start_matches('.')))
}

/// What [`settle`] gives when the scenario could not be made valid: its problems say why.
#[derive(Debug, PartialEq, Eq)]
pub struct Unsettled;

/// How many rounds of validation [`settle`] makes before it gives up: each round skips at
/// least one record, and skipping shares skips their jobs in the same round.
const ROUNDS: usize = 6;

/// Validates an importer's scenario and skips (or fixes) what is invalid, reporting each
/// problem at its origin (module docs). `Err` when an error cannot be put on one record: the
/// problems say why, and the import must not print the scenario.
pub fn settle(s: &mut Scenario, o: &mut Origins, problems: &mut Capped) -> Result<(), Unsettled> {
    // Shares past AWS's limit first, with their jobs: validation would refuse them as a whole.
    if s.quota_shares.len() > MAX_SHARES {
        let extra: BTreeSet<usize> = (MAX_SHARES..s.quota_shares.len()).collect();
        for &i in &extra {
            let m = format!(
                "more than {MAX_SHARES} quota shares (AWS's limit): quota share {} skipped",
                s.quota_shares[i].quota_share_name
            );
            put(problems, o, &o.shares, i, "quotaShareName", Problem::error, m);
        }
        drop_with_jobs(s, o, &extra, BTreeSet::new(), problems);
    }
    for _ in 0..ROUNDS {
        let mut drop_shares = BTreeSet::new();
        let errors: Vec<Problem> = match validate(s) {
            Ok(_) => return Ok(()),
            Err(p) => p.into_iter().filter(Problem::is_error).collect(),
        };
        let mut drop_jobs = BTreeSet::new();
        let mut drop_types = BTreeSet::new();
        let mut drop_limits = BTreeSet::new();
        let mut fatal = Vec::new();
        for p in errors {
            if let Some((i, field)) = indexed(&p.path, "jobs").filter(|(i, _)| *i < s.jobs.len()) {
                if drop_jobs.insert(i) {
                    let m = format!("{}; job {} skipped", p.message, s.jobs[i].job_name);
                    put(problems, o, &o.jobs, i, field, Problem::error, m);
                }
            } else if let Some((i, field)) =
                indexed(&p.path, "quotaShares").filter(|(i, _)| *i < s.quota_shares.len())
            {
                if drop_shares.insert(i) {
                    let name = &s.quota_shares[i].quota_share_name;
                    let m = format!("{}; quota share {name} skipped, with its jobs", p.message);
                    put(problems, o, &o.shares, i, field, Problem::error, m);
                }
            } else if let Some((i, field)) =
                indexed(&p.path, "instanceTypes").filter(|(i, _)| *i < s.instance_types.len())
            {
                if drop_types.insert(i) {
                    let m = format!("{}; instance type {} left out", p.message, s.instance_types[i].name);
                    put(problems, o, &o.instance_types, i, field, Problem::error, m);
                }
            } else if let Some((i, field)) = indexed(&p.path, "serviceEnvironment.capacityLimits")
                .filter(|(i, _)| *i < s.service_environment.capacity_limits.len())
            {
                if drop_limits.insert(i) {
                    let m = format!("{}; capacity limit left out", p.message);
                    let se = core::slice::from_ref(&o.service_environment);
                    put(problems, o, se, 0, &format!("capacityLimits[{i}].{field}"), Problem::error, m);
                }
            } else if p.path == "serviceEnvironment.serviceEnvironmentName" {
                let se = &mut s.service_environment;
                let old = se.service_environment_name.take().unwrap_or_default();
                let new = clean_name(&old);
                let m = format!("{}; named {new}", p.message);
                let at = core::slice::from_ref(&o.service_environment);
                put(problems, o, at, 0, "serviceEnvironmentName", Problem::warning, m);
                se.service_environment_name = Some(new);
            } else {
                fatal.push(p);
            }
        }
        if !fatal.is_empty() {
            for p in fatal {
                problems.push_general(p);
            }
            return Err(Unsettled);
        }
        drop_with_jobs(s, o, &drop_shares, drop_jobs, problems);
        keep(&mut s.instance_types, &mut o.instance_types, &drop_types);
        let mut none = Vec::new();
        keep(&mut s.service_environment.capacity_limits, &mut none, &drop_limits);
    }
    problems.push_general(Problem::error("", "the imported scenario could not be made valid"));
    Err(Unsettled)
}

/// Drops the jobs `drop_jobs` and the shares `drop_shares` with their jobs, counted in one
/// problem per share.
fn drop_with_jobs(
    s: &mut Scenario,
    o: &mut Origins,
    drop_shares: &BTreeSet<usize>,
    mut drop_jobs: BTreeSet<usize>,
    problems: &mut Capped,
) {
    let gone: BTreeSet<&str> =
        drop_shares.iter().map(|&i| s.quota_shares[i].quota_share_name.as_str()).collect();
    let mut with_share: BTreeMap<&str, u64> = BTreeMap::new();
    for (i, j) in s.jobs.iter().enumerate() {
        if gone.contains(j.quota_share_name.as_str()) && drop_jobs.insert(i) {
            *with_share.entry(j.quota_share_name.as_str()).or_default() += 1;
        }
    }
    for (share, n) in with_share {
        problems.push_general(Problem::error(
            format!("quotaShares.{share}"),
            format!("{n} jobs of quota share {share} skipped with it"),
        ));
    }
    keep(&mut s.jobs, &mut o.jobs, &drop_jobs);
    keep(&mut s.quota_shares, &mut o.shares, drop_shares);
}

/// Reports a problem of the part at `origins[i]`, at its origin and `field`, capped per file.
fn put(
    problems: &mut Capped,
    o: &Origins,
    origins: &[Origin],
    i: usize,
    field: &str,
    make: fn(String, String) -> Problem,
    message: String,
) {
    let (file, at) = match origins.get(i) {
        Some(x) => (o.file(x), x.at.as_str()),
        None => ("", "(import)"),
    };
    let path = if field.is_empty() { at.to_string() } else { format!("{at}: {field}") };
    problems.push(file, "records the scenario could not take", make(path, message));
}

/// Keeps the items (and their origins) whose index is not in `drop`.
fn keep<T>(items: &mut Vec<T>, origins: &mut Vec<Origin>, drop: &BTreeSet<usize>) {
    if drop.is_empty() {
        return;
    }
    let mut i = 0;
    items.retain(|_| {
        i += 1;
        !drop.contains(&(i - 1))
    });
    if !origins.is_empty() {
        let mut i = 0;
        origins.retain(|_| {
            i += 1;
            !drop.contains(&(i - 1))
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_are_whole_and_within_2_53() {
        let cases = [
            (json!(5), Ok(Some(5))),
            (json!(2.9), Ok(Some(2))),
            (json!("42"), Ok(Some(42))),
            (json!(9_007_199_254_740_991i64), Ok(Some(9_007_199_254_740_991))),
            (json!(-9_007_199_254_740_991i64), Ok(Some(-9_007_199_254_740_991))),
            (json!(9_007_199_254_740_992i64), Err("9007199254740992".to_string())),
            (json!(i64::MAX), Err("9223372036854775807".to_string())),
            (json!(1e300), Err("1e+300".to_string())),
            (json!(-1e300), Err("-1e+300".to_string())),
            (json!("9223372036854775807"), Err("9223372036854775807".to_string())),
            (json!("soon"), Ok(None)),
            (json!(null), Ok(None)),
            (json!({"a": 1}), Ok(None)),
        ];
        for (v, want) in cases {
            assert_eq!(whole(Some(&v)), want, "{v}");
        }
        assert_eq!(whole(None), Ok(None));
    }

    #[test]
    fn names_are_valid_and_unique_and_the_input_s_own_are_kept() {
        let mut n = Names::default();
        for w in ["same", "same", "same-2", "bad name", "bad-name", "", "x"] {
            n.reserve(w);
        }
        let got: Vec<String> =
            ["same", "same", "same-2", "bad name", "bad-name", "", "x"].iter().map(|w| n.give(w)).collect();
        assert_eq!(got, ["same", "same-3", "same-2", "bad-name-2", "bad-name", "x-2", "x"]);
        // The trace importer's scheme: a repeated name takes its line, first come first served.
        let mut n = Names::default();
        let got: Vec<String> = [("same", "2"), ("same", "3"), ("same-3", "4"), ("same", "5")]
            .iter()
            .map(|(w, l)| n.give_or_suffix(w, l))
            .collect();
        assert_eq!(got, ["same", "same-3", "same-3-4", "same-5"]);
        let long = "y".repeat(128);
        let mut n = Names::default();
        assert_eq!(n.give(&long), long);
        let second = n.give(&long);
        assert_eq!(second.len(), 128);
        assert!(second.ends_with("y-2"));
    }

    #[test]
    fn problems_are_capped_per_file_with_a_count_of_the_rest() {
        let mut c = Capped::default();
        for k in 0..1000 {
            c.push("a.jsonl", "lines skipped", Problem::warning(format!("a.jsonl:{k}"), "skipped"));
        }
        // Another kind in the same file is listed all the same.
        c.push("a.jsonl", "lines that are not JSON", Problem::error("a.jsonl:1001", "not JSON"));
        for _ in 0..30 {
            c.push("c.jsonl", "lines skipped", Problem::warning("c.jsonl", "w"));
        }
        c.push("c.jsonl", "lines skipped", Problem::error("c.jsonl", "e"));
        let p = c.finish();
        assert_eq!(p.len(), 20 + 1 + 20 + 2);
        assert_eq!(p[20].to_string(), "error: a.jsonl:1001: not JSON");
        let last: Vec<String> = p.iter().rev().take(2).map(|p| p.to_string()).collect();
        assert_eq!(
            last,
            [
                "error: c.jsonl: 11 more lines skipped are not listed (the first 20 are)",
                "warning: a.jsonl: 980 more lines skipped are not listed (the first 20 are)"
            ]
        );
    }
}
