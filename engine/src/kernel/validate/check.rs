//! The validator's tools: paths formatted only on demand, a name index that copes with
//! millions of jobs, and the checks every section shares (names, numbers, limits, sharing).

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use crate::limits::*;
use crate::model::*;
use crate::problem::*;
use crate::scenario::*;

/// `jobs[3]`-style path prefix, formatted only when needed.
pub(super) struct Idx(pub(super) &'static str, pub(super) usize);

impl fmt::Display for Idx {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[{}]", self.0, self.1)
    }
}

/// `num!(checker, path, value, min, what)`: a whole number in `min..=MAX_SAFE`; the path
/// expression is evaluated only when the value is out of range.
macro_rules! num {
    ($c:expr, $path:expr, $v:expr, $min:expr, $what:expr) => {{
        let v: i64 = $v;
        if ($min..=MAX_SAFE).contains(&v) {
            v as u64
        } else {
            $c.number(&$path, v, $min, $what)
        }
    }};
}

/// Job name -> first index, for uniqueness and lookups of up to millions of names.
pub(super) type NameIndex<'a> = crate::names::NameIndex<'a, Job>;

/// A `CheckpointConfig` without `checkpointIntervalSeconds` checkpoints this often.
pub const DEFAULT_PAYLOAD_CHECKPOINT: u64 = 600;

/// A job's name, what [`NameIndex`] knows it by.
pub(super) fn job_name(j: &Job) -> &str {
    &j.job_name
}

/// Quota share name -> first index (each job's share is looked up in it).
pub(super) type ShareIndex<'a> = crate::names::NameIndex<'a, QuotaShare>;

/// A share's name, what [`ShareIndex`] knows it by.
pub(super) fn share_name(q: &QuotaShare) -> &str {
    &q.quota_share_name
}

pub(super) fn valid_name(s: &str) -> bool {
    // Every character allowed is one byte, so a valid name has as many characters as bytes
    // (a name with any other character is invalid however long it is).
    !s.is_empty() && s.len() <= MAX_NAME && s.bytes().all(|b| NAME_BYTES[b as usize])
}

/// The bytes of a valid name: ASCII letters and digits, `-` and `_`.
static NAME_BYTES: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = c.is_ascii_alphanumeric() || c == b'-' || c == b'_';
        b += 1;
    }
    t
};

pub(super) const NAME_RULE: &str = "must be 1 to 128 characters of letters, digits, '-' and '_'";

pub(super) struct Checker {
    pub(super) problems: Vec<Problem>,
    pub(super) types: Vec<TypeCfg>,
    pub(super) type_ids: BTreeMap<String, TypeId>,
}

impl Checker {
    pub(super) fn err(&mut self, path: impl Into<String>, msg: impl Into<String>) {
        self.problems.push(Problem::error(path, msg));
    }
    pub(super) fn warn(&mut self, path: impl Into<String>, msg: impl Into<String>) {
        self.problems.push(Problem::warning(path, msg));
    }

    pub(super) fn type_id(&mut self, name: &str) -> TypeId {
        if let Some(&id) = self.type_ids.get(name) {
            return id;
        }
        let id = TypeId::at(self.types.len());
        self.types.push(TypeCfg {
            name: name.to_string(),
            gpus: catalogue_gpus(name).unwrap_or(0).max(0) as u64,
            price: None,
        });
        self.type_ids.insert(name.to_string(), id);
        id
    }

    /// A whole number in `min..=MAX_SAFE`.
    pub(super) fn number(&mut self, path: &str, v: i64, min: i64, what: &str) -> u64 {
        if v < min {
            self.err(path, format!("{what} must be at least {min}, not {v}"));
            0
        } else if v > MAX_SAFE {
            self.err(path, format!("{what} must be at most 2^53 - 1 ({MAX_SAFE}), not {v}"));
            0
        } else {
            v as u64
        }
    }

    pub(super) fn instance_type_name(&mut self, path: &str, name: &str) -> bool {
        if name.is_empty()
            || name.len() > MAX_NAME
            || name.chars().any(|c| c.is_whitespace() || c.is_control())
        {
            self.err(
                path,
                "an instance type must be a non-empty name without spaces, at most 128 characters",
            );
            false
        } else {
            true
        }
    }

    /// Capacity limits as a per-type vector; `min` is the smallest allowed `maxCapacity`.
    pub(super) fn limits(&mut self, path: &str, limits: &[CapacityLimit], min: i64) -> Vec<(TypeId, u64)> {
        let mut out: Vec<(TypeId, u64)> = Vec::new();
        // Types listed so far, looked up in log time: a list of 30,000 types is checked in
        // milliseconds, not a scan of the list per entry.
        let mut listed = alloc::collections::BTreeSet::new();
        for (i, l) in limits.iter().enumerate() {
            let p = format!("{path}[{i}]");
            if !self.instance_type_name(&format!("{p}.capacityUnit"), &l.capacity_unit) {
                continue;
            }
            let n = self.number(&format!("{p}.maxCapacity"), l.max_capacity, min, "maxCapacity");
            let t = self.type_id(&l.capacity_unit);
            if !listed.insert(t) {
                self.err(
                    format!("{p}.capacityUnit"),
                    format!("instance type {} is listed twice; give each type one limit", l.capacity_unit),
                );
                continue;
            }
            out.push((t, n));
        }
        out
    }

    pub(super) fn share_limits(&mut self, path: &str, limits: &[CapacityLimit]) -> Vec<(TypeId, u64)> {
        if limits.is_empty() {
            self.err(path, "a quota share needs 1 to 5 capacity limits, and has none");
        } else if limits.len() > MAX_SHARE_LIMITS {
            self.err(path, format!("a quota share takes at most 5 capacity limits, not {}", limits.len()));
        }
        self.limits(path, limits, 1)
    }

    pub(super) fn sharing(&mut self, path: &str, r: &ResourceSharing) -> (Strategy, BorrowLimit) {
        let bl = match r.borrow_limit {
            None => -1,
            Some(b) => {
                if r.strategy != Strategy::LendAndBorrow {
                    self.err(
                        format!("{path}.borrowLimit"),
                        format!(
                            "borrowLimit applies only to the LEND_AND_BORROW strategy; this share is {}",
                            r.strategy.as_str()
                        ),
                    );
                    -1
                } else if b < -1 {
                    self.err(
                        format!("{path}.borrowLimit"),
                        format!("borrowLimit must be -1 (unlimited) or a percentage >= 0, not {b}"),
                    );
                    -1
                } else if b > MAX_SAFE {
                    self.err(format!("{path}.borrowLimit"), format!("borrowLimit is too large: {b}"));
                    -1
                } else {
                    b
                }
            }
        };
        (r.strategy, BorrowLimit::from_format(bl))
    }

    pub(super) fn priority(&mut self, path: &str, p: i64) -> u32 {
        if !(0..=MAX_PRIORITY).contains(&p) {
            self.err(path, format!("schedulingPriority must be between 0 and 9999, not {p}"));
            0
        } else {
            p as u32
        }
    }
}

pub(super) fn per_type(types: usize, limits: &[(TypeId, u64)]) -> Vec<u64> {
    let mut v = alloc::vec![0u64; types];
    for &(t, n) in limits {
        v[t.index()] = n;
    }
    v
}

pub(super) fn per_type_opt(types: usize, limits: &[(TypeId, u64)]) -> Vec<Option<u64>> {
    let mut v = alloc::vec![None; types];
    for &(t, n) in limits {
        v[t.index()] = Some(n);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;

    #[test]
    fn a_valid_name_is_1_to_128_letters_digits_dashes_and_underscores() {
        let long = |n: usize, c: char| core::iter::repeat_n(c, n).collect::<String>();
        for (name, ok) in [
            ("", false),
            ("a", true),
            ("team-00_job-7", true),
            (&long(128, 'x'), true),
            (&long(129, 'x'), false),
            // Characters, not bytes: 64 two-byte letters are still not allowed.
            (&long(64, '\u{e9}'), false),
            ("caf\u{e9}", false),
            ("a b", false),
            ("a.b", false),
            ("a/b", false),
            ("\u{0}", false),
            ("\u{7f}", false),
            ("Z9", true),
        ] {
            let chars = name.chars().count() <= MAX_NAME
                && !name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
            assert_eq!((valid_name(name), chars), (ok, ok), "{name:?}");
        }
        for b in 0..=255u8 {
            let c = char::from(b);
            let expected = c.is_ascii_alphanumeric() || c == '-' || c == '_';
            assert_eq!(valid_name(&String::from(c)), expected, "{b}");
        }
    }
}
