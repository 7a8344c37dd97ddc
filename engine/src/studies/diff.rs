//! The differences between two scenarios, by path: what a variant B changes in a baseline A
//! (the playground's compare mode lists them, each removable).
//!
//! Paths follow [`crate::change`]'s grammar: list entries by name (`quotaShares[team-b]`,
//! `jobs[a]`, `capacityLimits[ml.p5.48xlarge]`, `workload.shares[team-a]`), `actions` as a
//! whole. A difference is a value changed, an entry or field added in B, or one removed from
//! A; [`revert`] puts A's side back into B.
//!
//! Everything but the jobs is compared as JSON values. Jobs are matched by name through an
//! index and compared as they are: only a job that differs (or is on one side only) becomes a
//! JSON value, so two scenarios of 100,000 jobs that share most of them are compared in time
//! linear in the jobs, and undoing a difference turns one job into a value, not all of them.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::Value;

use crate::model::{Job, Scenario};
use crate::names::NameIndex;
use crate::path::{self, entry_name, entry_position, key_field};
use crate::problem::Problem;
use crate::strict::Strict;

/// One difference: A's value and B's at `path` (`None`: not there on that side).
#[derive(Clone, Debug, PartialEq)]
pub struct Difference {
    /// Where, in [`crate::change`]'s grammar (`quotaShares[team-b].resourceSharingConfiguration.strategy`).
    pub path: String,
    /// A's value there; `None` when A has none (it was added in B).
    pub a: Option<Value>,
    /// B's value there; `None` when B has none (it was removed from A).
    pub b: Option<Value>,
    segs: Vec<(String, Option<String>)>,
}

fn path_text(segs: &[(String, Option<String>)]) -> String {
    path::text(segs.iter().map(|(f, e)| (f.as_str(), e.as_deref())))
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
        let value = |v: &Option<Value>| {
            // R2: a borrow limit of -1 is no limit at all.
            if last_f == "borrowLimit" && v.as_ref().and_then(Value::as_i64) == Some(-1) {
                String::from("unlimited")
            } else {
                short(v)
            }
        };
        let scalar = |v: &Option<Value>| !matches!(v, Some(Value::Object(_) | Value::Array(_)));
        match (&self.a, &self.b) {
            (None, Some(_)) if scalar(&self.b) => format!("{what} added: {}", value(&self.b)),
            (None, Some(_)) => format!("{what} added"),
            (Some(_), None) if scalar(&self.a) => format!("{what} removed (was {})", value(&self.a)),
            (Some(_), None) => format!("{what} removed"),
            _ => format!("{what}: {} → {}", value(&self.a), value(&self.b)),
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

fn descend(
    segs: &mut Vec<(String, Option<String>)>,
    k: &str,
    va: &Value,
    vb: Option<&Value>,
    out: &mut Vec<Difference>,
) {
    segs.push((k.to_string(), None));
    match (vb, va) {
        (None, _) => out.push(diff(segs, Some(va.clone()), None)),
        (Some(Value::Array(lb)), Value::Array(la))
            if la.iter().chain(lb).all(|v| entry_name(v, k).is_some()) =>
        {
            segs.pop();
            for ea in la {
                let name = entry_name(ea, k).unwrap_or_default();
                segs.push((k.to_string(), Some(name.to_string())));
                match entry_position(lb, k, name) {
                    Some(i) => walk(segs, ea, &lb[i], out),
                    None => out.push(diff(segs, Some(ea.clone()), None)),
                }
                segs.pop();
            }
            for eb in lb {
                let name = entry_name(eb, k).unwrap_or_default();
                if entry_position(la, k, name).is_none() {
                    segs.push((k.to_string(), Some(name.to_string())));
                    out.push(diff(segs, None, Some(eb.clone())));
                    segs.pop();
                }
            }
            return;
        }
        (Some(vb), _) => walk(segs, va, vb, out),
    }
    segs.pop();
}

/// Every difference of `b` from `a`, in A's field order (B's new fields and entries after).
pub fn differences(a: &Scenario, b: &Scenario) -> Vec<Difference> {
    differences_with(a, b, &mut Work::default())
}

/// What finding the differences took: jobs turned into JSON values and, in tests, the probes
/// of the name indexes.
#[derive(Debug, Default)]
struct Work {
    converted: usize,
    #[cfg(test)]
    probes: usize,
}

fn job_name(j: &Job) -> &str {
    &j.job_name
}

fn job_value(j: &Job, w: &mut Work) -> Value {
    w.converted += 1;
    serde_json::to_value(j).unwrap_or(Value::Null)
}

fn differences_with(a: &Scenario, b: &Scenario, w: &mut Work) -> Vec<Difference> {
    let va = serde_json::to_value(a.without_jobs()).unwrap_or(Value::Null);
    let vb = serde_json::to_value(b.without_jobs()).unwrap_or(Value::Null);
    let (Some(ma), Some(mb)) = (va.as_object(), vb.as_object()) else { return by_value(a, b) };
    if !(ma.contains_key("jobs") && mb.contains_key("jobs")) {
        return by_value(a, b);
    }
    // As `walk` goes through two objects, with the job lists compared at their place.
    let mut out = Vec::new();
    let segs = &mut Vec::new();
    for (k, x) in ma {
        if k == "jobs" {
            job_differences(segs, &a.jobs, &b.jobs, &mut out, w);
        } else {
            descend(segs, k, x, mb.get(k), &mut out);
        }
    }
    for (k, y) in mb {
        if !ma.contains_key(k) {
            segs.push((k.clone(), None));
            out.push(diff(segs, None, Some(y.clone())));
            segs.pop();
        }
    }
    out
}

/// The differences of the whole scenarios as JSON values: what [`differences`] gives, in time
/// quadratic in the jobs (every entry of a list looked for in the other by a scan).
fn by_value(a: &Scenario, b: &Scenario) -> Vec<Difference> {
    let (va, vb) =
        (serde_json::to_value(a).unwrap_or(Value::Null), serde_json::to_value(b).unwrap_or(Value::Null));
    let mut out = Vec::new();
    walk(&mut Vec::new(), &va, &vb, &mut out);
    out
}

/// The job lists' differences, as `descend` finds them in their JSON values (each entry of A
/// with the first of B of its name, then B's names not in A), looking names up in indexes.
/// Equal jobs have equal values (a job holds no floating-point number), so only the jobs that
/// differ are turned into values.
fn job_differences(
    segs: &mut Vec<(String, Option<String>)>,
    la: &[Job],
    lb: &[Job],
    out: &mut Vec<Difference>,
    w: &mut Work,
) {
    // The usual case in compare mode (a share or a setting edited): the same jobs on both
    // sides, found without indexing 100,000 names twice. Equal lists have no differences
    // (with duplicate names, which validation refuses, matching by name would pair a later
    // duplicate with an earlier one of the other side and report a change nobody made).
    if la == lb {
        return;
    }
    let (ia, ib) = (NameIndex::of(la, job_name), NameIndex::of(lb, job_name));
    for ja in la {
        let jb = ib.get(&ja.job_name).map(|i| &lb[i as usize]);
        if jb == Some(ja) {
            continue;
        }
        segs.push(("jobs".to_string(), Some(String::from(ja.job_name.as_str()))));
        let va = job_value(ja, w);
        match jb {
            Some(jb) => walk(segs, &va, &job_value(jb, w), out),
            None => out.push(diff(segs, Some(va), None)),
        }
        segs.pop();
    }
    for jb in lb {
        if ia.get(jb.job_name.as_str()).is_none() {
            segs.push(("jobs".to_string(), Some(String::from(jb.job_name.as_str()))));
            out.push(diff(segs, None, Some(job_value(jb, w))));
            segs.pop();
        }
    }
    #[cfg(test)]
    {
        w.probes += ia.probes() + ib.probes();
    }
}

/// The parent container of the last segment, walking `segs[..n-1]` (entries by key).
fn parent<'v>(root: &'v mut Value, segs: &[(String, Option<String>)]) -> Option<&'v mut Value> {
    let steps = &segs[..segs.len().saturating_sub(1)];
    path::value_at_mut(root, steps.iter().map(|(f, e)| (f.as_str(), e.as_deref())))
}

/// `b` with difference `d` undone: A's value back (a changed value), B's entry or field
/// removed (added in B), or A's entry or field put back (removed in B, at A's position).
pub fn revert(a: &Scenario, b: &Scenario, d: &Difference) -> Result<Scenario, Problem> {
    let fail = |m: &str| cannot(d, m);
    match d.segs.first() {
        Some((f, Some(name))) if f == "jobs" => {
            // One job: B's others as they are, that one through its value.
            let mut jobs: Vec<Job> = b.jobs.clone();
            let at = b.jobs.iter().position(|j| j.job_name == *name);
            let job = |v: &Value| Job::deserialize_strict(v.clone()).map_err(|m| fail(&m));
            match (d.segs.len(), &d.a, at) {
                (1, Some(va), Some(i)) => jobs[i] = job(va)?,
                (1, Some(va), None) => {
                    // Put it back where A has it, counted among the entries both have.
                    let pos = a.jobs.iter().position(|j| j.job_name == *name).unwrap_or(jobs.len());
                    jobs.insert(pos.min(jobs.len()), job(va)?);
                }
                (1, None, Some(i)) => {
                    jobs.remove(i);
                }
                (1, None, None) => {}
                (_, _, None) => return Err(fail("B no longer has it")),
                (_, _, Some(i)) => {
                    let mut vj = to_value(&b.jobs[i], d)?;
                    let in_a = a.jobs.iter().find(|j| j.job_name == *name);
                    undo_in(&mut vj, &d.segs[1..], d, || in_a.map_or(Ok(Value::Null), |j| to_value(j, d)))?;
                    jobs[i] = job(&vj)?;
                }
            }
            let mut s =
                Scenario::deserialize_strict(to_value(&b.without_jobs(), d)?).map_err(|m| fail(&m))?;
            s.jobs = jobs;
            Ok(s)
        }
        // The job list as a whole (never one of `differences`): on the whole values.
        Some((f, None)) if f == "jobs" => revert_by_value(a, b, d),
        _ => {
            let mut vb = to_value(&b.without_jobs(), d)?;
            undo_in(&mut vb, &d.segs, d, || to_value(&a.without_jobs(), d))?;
            let mut s = Scenario::deserialize_strict(vb).map_err(|m| fail(&m))?;
            s.jobs = b.jobs.clone();
            Ok(s)
        }
    }
}

fn cannot(d: &Difference, m: &str) -> Problem {
    Problem::error(d.path.clone(), format!("cannot undo this change: {m}"))
}

fn to_value<T: serde::Serialize>(v: &T, d: &Difference) -> Result<Value, Problem> {
    serde_json::to_value(v).map_err(|e| cannot(d, &e.to_string()))
}

/// Undoes `d` in `root`, the JSON value `segs` (the end of `d`'s path) starts from; `a_root`
/// gives A's value at the same place, to find where an entry removed in B goes back.
fn undo_in(
    root: &mut Value,
    segs: &[(String, Option<String>)],
    d: &Difference,
    a_root: impl FnOnce() -> Result<Value, Problem>,
) -> Result<(), Problem> {
    let fail = |m: &str| cannot(d, m);
    let Some((field, entry)) = segs.last().cloned() else { return Err(fail("empty path")) };
    let container = parent(root, segs).ok_or_else(|| fail("B no longer has it"))?;
    match entry {
        Some(name) => {
            key_field(&field).ok_or_else(|| fail("not a named list"))?;
            let obj = container.as_object_mut().ok_or_else(|| fail("not an object"))?;
            let list = obj.entry(field.clone()).or_insert_with(|| Value::Array(Vec::new()));
            let items = list.as_array_mut().ok_or_else(|| fail("not a list"))?;
            let at = entry_position(items, &field, &name);
            match (&d.a, at) {
                (Some(va), Some(i)) => items[i] = va.clone(),
                (Some(va), None) => {
                    // Put it back where A has it, counted among the entries both have.
                    let mut sa = a_root()?;
                    let pos = parent(&mut sa, segs)
                        .and_then(|p| p.get(field.as_str()))
                        .and_then(Value::as_array)
                        .and_then(|la| entry_position(la, &field, &name))
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
    Ok(())
}

/// [`revert`] on the whole scenarios as JSON values.
fn revert_by_value(a: &Scenario, b: &Scenario, d: &Difference) -> Result<Scenario, Problem> {
    let mut vb = to_value(b, d)?;
    undo_in(&mut vb, &d.segs, d, || to_value(a, d))?;
    Scenario::deserialize_strict(vb).map_err(|m| cannot(d, &m))
}

impl Scenario {
    /// A scenario from its JSON value, read as strictly as a file.
    pub fn deserialize_strict(v: Value) -> Result<Scenario, String> {
        use serde::Deserialize;
        Scenario::deserialize(Strict(v)).map_err(|e| e.to_string())
    }
}

impl Job {
    /// A job from its JSON value, read as strictly as in a file.
    fn deserialize_strict(v: Value) -> Result<Job, String> {
        use serde::Deserialize;
        Job::deserialize(Strict(v)).map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::change::{apply_changes, Change};
    use crate::json::parse_scenario;
    use alloc::boxed::Box;

    const NOTEBOOK: &str = include_str!("../../../tests/fixtures/notebook.json");

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

    /// Pairs of scenarios that differ in every way the playground can make them differ:
    /// settings, shares, limits, types, actions, a workload section, jobs changed, added,
    /// removed, moved and renamed, names given twice on either side, payloads and fields read
    /// and ignored.
    fn varied_pairs() -> Vec<(Scenario, Scenario)> {
        use crate::generate::{generate, generate_workload, GenerateOptions, Rng};
        use crate::model::*;
        let mut rng = Rng::new(11);
        let mut out = Vec::new();
        let bases = [parse_scenario(NOTEBOOK).unwrap(), generate(&GenerateOptions::new(60, 4, 2, 3))];
        for k in 0..120 {
            let base = &bases[k % 2];
            let mut sides = [base.clone(), base.clone()];
            for _ in 0..1 + rng.below(4) {
                // Mostly B is edited, sometimes A (what B lacks).
                let s = &mut sides[usize::from(rng.below(4) == 0)];
                let n = s.jobs.len() as u64;
                let j = rng.below(n.max(1)) as usize;
                match rng.below(16) {
                    0 => *s.jobs[j].duration_seconds.get_or_insert(0) += 1 + rng.below(100) as i64,
                    1 => s.jobs[j].scheduling_priority = rng.below(50) as i64,
                    2 => s.jobs[j].checkpoint_interval_seconds = [None, Some(600)][rng.below(2) as usize],
                    3 => {
                        s.jobs.remove(j);
                    }
                    4 => {
                        let mut x = s.jobs[j].clone();
                        x.job_name = format!("new-{k}").into();
                        let at = rng.below(n + 1) as usize;
                        s.jobs.insert(at, x);
                    }
                    5 => {
                        let i = rng.below(n) as usize;
                        s.jobs.swap(i, j);
                    }
                    6 => {
                        // A name given twice.
                        let i = rng.below(n) as usize;
                        s.jobs[i].job_name = s.jobs[j].job_name.clone();
                    }
                    7 => s.jobs[j].job_name = format!("renamed-{k}").into(),
                    8 => s.jobs[j].timeout_seconds = [None, Some(3600)][rng.below(2) as usize],
                    9 => {
                        s.jobs[j].service_request_payload = Some(Box::new(ServiceRequestPayload {
                            instance_type: s.jobs[j].instance_type.as_deref().map(String::from),
                            instance_count: Some(2),
                            max_runtime_in_seconds: Some(3600),
                            has_checkpoint_config: true,
                        }))
                    }
                    10 => {
                        let i = rng.below(s.quota_shares.len() as u64) as usize;
                        let q = &mut s.quota_shares[i];
                        q.resource_sharing_configuration.strategy =
                            [Strategy::Reserve, Strategy::Lend, Strategy::LendAndBorrow]
                                [rng.below(3) as usize];
                        q.resource_sharing_configuration.borrow_limit =
                            [None, Some(50)][rng.below(2) as usize];
                    }
                    11 => {
                        let q = &mut s.quota_shares[0];
                        if rng.below(2) == 0 {
                            q.capacity_limits.push(CapacityLimit::new("ml.p5.48xlarge", 3));
                        } else {
                            q.capacity_limits.clear();
                        }
                    }
                    12 => {
                        s.settings.preemption_grace_seconds += 60;
                        s.settings.horizon_seconds = Some(99_999);
                    }
                    13 => s.instance_types.push(InstanceTypeInfo {
                        name: format!("ml.x{k}"),
                        gpus: 2,
                        price_per_hour: Some(1.5),
                    }),
                    14 => s.actions.push(Action {
                        at: 60,
                        kind: ActionKind::TerminateServiceJob {
                            job_name: String::from(s.jobs[j].job_name.as_str()),
                            reason: "x".into(),
                        },
                    }),
                    _ => s.workload = generate_workload(&GenerateOptions::new(20, 2, 1, k as u64)).workload,
                }
            }
            let [a, b] = sides;
            out.push((a, b));
        }
        out
    }

    #[test]
    fn differences_and_reverts_are_what_they_were_on_the_whole_values() {
        let mut seen = 0;
        for (a, b) in varied_pairs() {
            for (a, b) in [(&a, &b), (&b, &a)] {
                let d = differences(a, b);
                assert_eq!(d, by_value(a, b));
                for x in &d {
                    assert_eq!(revert(a, b, x), revert_by_value(a, b, x), "{}", x.text());
                    seen += 1;
                }
            }
        }
        assert!(seen > 300, "{seen} differences undone");
    }

    #[test]
    fn a_few_changed_jobs_among_100000_are_found_in_linear_work_and_only_they_become_values() {
        use crate::generate::{generate, GenerateOptions};
        use crate::model::Strategy;
        let work = |n: usize| {
            let a = generate(&GenerateOptions::new(n as u64, 6, 2, 7));
            assert_eq!(a.jobs.len(), n);
            let mut w = Work::default();
            assert!(differences_with(&a, &a, &mut w).is_empty());
            assert_eq!(w.converted, 0, "equal jobs stay as they are");
            assert_eq!(w.probes, 0, "equal job lists are not indexed");
            let mut b = a.clone();
            *b.jobs[n / 2].duration_seconds.get_or_insert(0) += 60;
            let removed = b.jobs.remove(n / 3).job_name;
            let mut extra = b.jobs[0].clone();
            extra.job_name = "extra".into();
            b.jobs.insert(n / 4, extra);
            b.quota_shares[0].resource_sharing_configuration.strategy = Strategy::Reserve;
            b.quota_shares[0].resource_sharing_configuration.borrow_limit = None;
            let mut w = Work::default();
            let d = differences_with(&a, &b, &mut w);
            let texts: Vec<String> = d.iter().map(Difference::text).collect();
            let changed = format!("job {} durationSeconds", a.jobs[n / 2].job_name);
            // In field order (`jobs` before `quotaShares`), A's jobs in A's order, then B's new one.
            assert_eq!(texts.len(), 4, "{texts:?}");
            assert_eq!(texts[0], format!("job {removed} removed"));
            assert!(texts[1].starts_with(&changed), "{texts:?}");
            assert_eq!(texts[2], "job extra added");
            assert!(texts[3].starts_with("team-00 strategy: "), "{texts:?}");
            // Both sides of the changed job, the removed one and the added one.
            assert_eq!(w.converted, 4);
            w.probes
        };
        let (small, large) = (work(10_000), work(100_000));
        // Every name goes into an index and is looked up in the other: a few probes a job.
        assert!(large <= 10 * 100_000, "{large} probes for 100,000 jobs");
        assert!(large <= 12 * small, "10 times the jobs: {small} then {large} probes");
    }

    #[test]
    fn changed_added_and_removed_values_are_shown_a_borrow_limit_of_minus_one_as_unlimited() {
        use crate::model::Strategy;
        let a = parse_scenario(NOTEBOOK).unwrap();
        let mut b = a.clone();
        b.quota_shares[0].resource_sharing_configuration.borrow_limit = Some(-1);
        b.quota_shares[1].resource_sharing_configuration.strategy = Strategy::LendAndBorrow;
        b.quota_shares[1].resource_sharing_configuration.borrow_limit = Some(50);
        let texts: Vec<String> = differences(&a, &b).iter().map(Difference::text).collect();
        assert_eq!(
            texts,
            [
                "qs1 borrowLimit: 200 → unlimited",
                "qs2 strategy: LEND → LEND_AND_BORROW",
                "qs2 borrowLimit added: 50"
            ]
        );
        let back: Vec<String> = differences(&b, &a).iter().map(Difference::text).collect();
        assert_eq!(back[0], "qs1 borrowLimit: unlimited → 200");
        assert!(back.contains(&"qs2 borrowLimit removed (was 50)".to_string()), "{back:?}");
        let mut c = b.clone();
        c.quota_shares[0].resource_sharing_configuration.strategy = Strategy::Lend;
        c.quota_shares[0].resource_sharing_configuration.borrow_limit = None;
        let texts: Vec<String> = differences(&b, &c).iter().map(Difference::text).collect();
        assert!(texts.contains(&"qs1 borrowLimit removed (was unlimited)".to_string()), "{texts:?}");
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
