//! The differences between two scenarios, by path: what a variant B changes in a baseline A
//! (the playground's compare mode lists them, each removable).
//!
//! Paths follow [`crate::change`]'s grammar: list entries by name (`quotaShares[team-b]`,
//! `jobs[a]`, `capacityLimits[ml.p5.48xlarge]`, `workload.shares[team-a]`), `actions` as a
//! whole. A difference is a value changed, an entry or field added in B, or one removed from
//! A; [`revert`] puts A's side back into B.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::Value;

use crate::model::Scenario;
use crate::problem::Problem;
use crate::strict::Strict;

/// One difference: A's value and B's at `path` (`None`: not there on that side).
#[derive(Clone, Debug, PartialEq)]
pub struct Difference {
    pub path: String,
    pub a: Option<Value>,
    pub b: Option<Value>,
    segs: Vec<(String, Option<String>)>,
}

/// The field naming a list's entries (as in [`crate::change`]).
fn key_field(list: &str) -> Option<&'static str> {
    match list {
        "quotaShares" | "shares" => Some("quotaShareName"),
        "jobs" => Some("jobName"),
        "capacityLimits" => Some("capacityUnit"),
        "instanceTypes" => Some("name"),
        _ => None,
    }
}

fn path_text(segs: &[(String, Option<String>)]) -> String {
    let mut s = String::new();
    for (i, (f, e)) in segs.iter().enumerate() {
        if i > 0 {
            s.push('.');
        }
        s.push_str(f);
        if let Some(e) = e {
            s.push('[');
            s.push_str(e);
            s.push(']');
        }
    }
    s
}

fn short(v: &Option<Value>) -> String {
    match v {
        None => "(none)".into(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) => "(none)".into(),
        Some(v @ (Value::Object(_) | Value::Array(_))) => {
            let t = v.to_string();
            if t.chars().count() > 40 {
                let cut: String = t.chars().take(37).collect();
                format!("{cut}...")
            } else {
                t
            }
        }
        Some(v) => v.to_string(),
    }
}

impl Difference {
    /// A readable line: `team-b strategy: RESERVE → LEND`, `job a added`, `quota share x removed`.
    pub fn text(&self) -> String {
        let mut who: Vec<String> = Vec::new();
        for (f, e) in &self.segs {
            if let Some(e) = e {
                who.push(match f.as_str() {
                    "jobs" => format!("job {e}"),
                    "quotaShares" => e.clone(),
                    "shares" => format!("workload {e}"),
                    _ => e.clone(),
                });
            }
        }
        let (last_f, last_e) = self.segs.last().cloned().unwrap_or_default();
        let what = match (last_e.is_some(), last_f.as_str()) {
            (true, "quotaShares") => format!("quota share {}", last_e.unwrap_or_default()),
            (true, "jobs") => format!("job {}", last_e.unwrap_or_default()),
            (true, "capacityLimits") => {
                let owner: Vec<&String> = who.iter().take(who.len().saturating_sub(1)).collect();
                let owner = if owner.is_empty() {
                    self.segs.first().map_or(String::new(), |(f, _)| f.clone())
                } else {
                    owner.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(" ")
                };
                format!("{owner} limit for {}", last_e.unwrap_or_default())
            }
            (true, _) => format!("{} {}", last_f, last_e.unwrap_or_default()),
            (false, f) => {
                if who.is_empty() {
                    self.path.clone()
                } else {
                    format!("{} {f}", who.join(" "))
                }
            }
        };
        match (&self.a, &self.b) {
            (None, Some(_)) => format!("{what} added"),
            (Some(_), None) => format!("{what} removed"),
            _ => format!("{what}: {} → {}", short(&self.a), short(&self.b)),
        }
    }
}

fn walk(segs: &mut Vec<(String, Option<String>)>, a: &Value, b: &Value, out: &mut Vec<Difference>) {
    match (a, b) {
        (Value::Object(ma), Value::Object(mb)) => {
            for (k, va) in ma {
                descend(segs, k, va, mb.get(k), out);
            }
            for (k, vb) in mb {
                if !ma.contains_key(k) {
                    segs.push((k.clone(), None));
                    out.push(diff(segs, None, Some(vb.clone())));
                    segs.pop();
                }
            }
        }
        _ if a != b => out.push(diff(segs, Some(a.clone()), Some(b.clone()))),
        _ => {}
    }
}

fn diff(segs: &[(String, Option<String>)], a: Option<Value>, b: Option<Value>) -> Difference {
    Difference { path: path_text(segs), a, b, segs: segs.to_vec() }
}

fn key_of<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

fn descend(
    segs: &mut Vec<(String, Option<String>)>,
    k: &str,
    va: &Value,
    vb: Option<&Value>,
    out: &mut Vec<Difference>,
) {
    segs.push((k.to_string(), None));
    match (vb, key_field(k), va) {
        (None, _, _) => out.push(diff(segs, Some(va.clone()), None)),
        (Some(Value::Array(lb)), Some(key), Value::Array(la))
            if la.iter().chain(lb).all(|v| key_of(v, key).is_some()) =>
        {
            segs.pop();
            for ea in la {
                let name = key_of(ea, key).unwrap_or_default();
                segs.push((k.to_string(), Some(name.to_string())));
                match lb.iter().find(|eb| key_of(eb, key) == Some(name)) {
                    Some(eb) => walk(segs, ea, eb, out),
                    None => out.push(diff(segs, Some(ea.clone()), None)),
                }
                segs.pop();
            }
            for eb in lb {
                let name = key_of(eb, key).unwrap_or_default();
                if !la.iter().any(|ea| key_of(ea, key) == Some(name)) {
                    segs.push((k.to_string(), Some(name.to_string())));
                    out.push(diff(segs, None, Some(eb.clone())));
                    segs.pop();
                }
            }
            return;
        }
        (Some(vb), _, _) => walk(segs, va, vb, out),
    }
    segs.pop();
}

/// Every difference of `b` from `a`, in A's field order (B's new fields and entries after).
pub fn differences(a: &Scenario, b: &Scenario) -> Vec<Difference> {
    let (va, vb) =
        (serde_json::to_value(a).unwrap_or(Value::Null), serde_json::to_value(b).unwrap_or(Value::Null));
    let mut out = Vec::new();
    walk(&mut Vec::new(), &va, &vb, &mut out);
    out
}

/// The parent container of the last segment, walking `segs[..n-1]` (entries by key).
fn parent<'v>(root: &'v mut Value, segs: &[(String, Option<String>)]) -> Option<&'v mut Value> {
    let mut cur = root;
    for (f, e) in &segs[..segs.len().saturating_sub(1)] {
        cur = cur.get_mut(f.as_str())?;
        if let Some(e) = e {
            let key = key_field(f)?;
            cur = cur.as_array_mut()?.iter_mut().find(|x| key_of(x, key) == Some(e.as_str()))?;
        }
    }
    Some(cur)
}

/// `b` with difference `d` undone: A's value back (a changed value), B's entry or field
/// removed (added in B), or A's entry or field put back (removed in B, at A's position).
pub fn revert(a: &Scenario, b: &Scenario, d: &Difference) -> Result<Scenario, Problem> {
    let fail = |m: &str| Problem::error(d.path.clone(), format!("cannot undo this change: {m}"));
    let mut vb = serde_json::to_value(b).map_err(|e| fail(&e.to_string()))?;
    let Some((field, entry)) = d.segs.last().cloned() else { return Err(fail("empty path")) };
    let container = parent(&mut vb, &d.segs).ok_or_else(|| fail("B no longer has it"))?;
    match entry {
        Some(name) => {
            let key = key_field(&field).ok_or_else(|| fail("not a named list"))?;
            let obj = container.as_object_mut().ok_or_else(|| fail("not an object"))?;
            let list = obj.entry(field.clone()).or_insert_with(|| Value::Array(Vec::new()));
            let items = list.as_array_mut().ok_or_else(|| fail("not a list"))?;
            let at = items.iter().position(|x| key_of(x, key) == Some(name.as_str()));
            match (&d.a, at) {
                (Some(va), Some(i)) => items[i] = va.clone(),
                (Some(va), None) => {
                    // Put it back where A has it, counted among the entries both have.
                    let sa = serde_json::to_value(a).map_err(|e| fail(&e.to_string()))?;
                    let mut sa = sa;
                    let pos = parent(&mut sa, &d.segs)
                        .and_then(|p| p.get(field.as_str()))
                        .and_then(Value::as_array)
                        .and_then(|la| la.iter().position(|x| key_of(x, key) == Some(name.as_str())))
                        .unwrap_or(items.len());
                    items.insert(pos.min(items.len()), va.clone());
                }
                (None, Some(i)) => {
                    items.remove(i);
                }
                (None, None) => {}
            }
        }
        None => {
            let obj = container.as_object_mut().ok_or_else(|| fail("not an object"))?;
            match &d.a {
                Some(va) => {
                    obj.insert(field.clone(), va.clone());
                }
                None => {
                    obj.remove(&field);
                }
            }
        }
    }
    Scenario::deserialize_strict(vb).map_err(|m| fail(&m))
}

impl Scenario {
    /// A scenario from its JSON value, read as strictly as a file.
    pub fn deserialize_strict(v: Value) -> Result<Scenario, String> {
        use serde::Deserialize;
        Scenario::deserialize(Strict(v)).map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::change::{apply_changes, Change};
    use crate::json::parse_scenario;

    const NOTEBOOK: &str = include_str!("../../tests/fixtures/notebook.json");

    fn changed(s: &Scenario, cs: &[&str]) -> Scenario {
        let cs: Vec<Change> = cs.iter().map(|c| Change::parse(c).unwrap()).collect();
        apply_changes(s, &cs).unwrap()
    }

    #[test]
    fn a_scenario_has_no_differences_from_itself() {
        let a = parse_scenario(NOTEBOOK).unwrap();
        assert!(differences(&a, &a).is_empty());
    }

    #[test]
    fn changed_values_read_as_sentences_and_revert_one_by_one() {
        let a = parse_scenario(NOTEBOOK).unwrap();
        let b = changed(
            &a,
            &[
                "quotaShares[qs1].preemptionConfiguration.inSharePreemption=DISABLED",
                "quotaShares[qs2].capacityLimits[ml.g5.xlarge].maxCapacity=3",
                "settings.preemptionGraceSeconds=300",
            ],
        );
        let d = differences(&a, &b);
        let texts: Vec<String> = d.iter().map(Difference::text).collect();
        assert_eq!(d.len(), 3, "{texts:?}");
        assert!(texts.contains(&"qs1 inSharePreemption: ENABLED → DISABLED".to_string()), "{texts:?}");
        assert!(texts.contains(&"qs2 ml.g5.xlarge maxCapacity: 1 → 3".to_string()), "{texts:?}");
        assert!(texts.contains(&"settings.preemptionGraceSeconds: 120 → 300".to_string()), "{texts:?}");
        // Undo each: what is left is the other two, and undoing all gives A back.
        let mut cur = b.clone();
        for x in &d {
            let left = differences(&a, &cur).len();
            cur = revert(&a, &cur, x).unwrap();
            assert_eq!(differences(&a, &cur).len(), left - 1);
        }
        assert_eq!(cur, a);
    }

    #[test]
    fn added_and_removed_entries_revert_to_their_place() {
        let a = parse_scenario(NOTEBOOK).unwrap();
        let mut b = a.clone();
        let removed = b.jobs.remove(1);
        let mut extra = b.jobs[0].clone();
        extra.job_name = "extra".into();
        b.jobs.push(extra);
        let d = differences(&a, &b);
        let texts: Vec<String> = d.iter().map(Difference::text).collect();
        assert!(texts.contains(&format!("job {} removed", removed.job_name)), "{texts:?}");
        assert!(texts.contains(&"job extra added".to_string()), "{texts:?}");
        let mut cur = b;
        for x in &d {
            cur = revert(&a, &cur, x).unwrap();
        }
        assert_eq!(cur, a, "the removed job is back at its place, the added one gone");
    }
}
