//! Changes to a scenario by path (`--set PATH=VALUE`): what comparisons and sweeps vary.
//!
//! A path names a field of the scenario format with dots, and list entries by their name,
//! not their position:
//!
//! - `settings.preemptionGraceSeconds=300`
//! - `quotaShares[team-b].resourceSharingConfiguration.strategy=LEND`
//! - `quotaShares[team-a].capacityLimits[ml.p5.48xlarge].maxCapacity=12`
//! - `serviceEnvironment.capacityLimits[ml.p5.48xlarge].maxCapacity=64`
//! - `jobs[*].checkpointIntervalSeconds=900` (`*`: every entry)
//! - `workload.seed=7`, `workload.shares[team-a].weight=3`
//!
//! Lists are keyed by `quotaShareName` (quota shares, and `workload.shares`), `jobName` (jobs),
//! `capacityUnit` (capacity limits) and `name` (instance types, also a workload entry's); `actions` by position. A keyed
//! `capacityLimits` entry that does not exist yet is created (a quota for a new type); any
//! other path that names nothing, or a value of the wrong type, is an error naming the path.
//! A value is read as JSON when it is JSON (`12`, `true`, `"x"`, `{...}`), else as a string.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::model::Scenario;
use crate::strict::Strict;
use crate::validate::Problem;

/// One change: a path and the value to put there.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    pub path: String,
    pub value: Value,
}

impl Change {
    /// A change from its `PATH=VALUE` form.
    pub fn parse(arg: &str) -> Result<Change, Problem> {
        let Some((path, value)) = arg.split_once('=') else {
            return Err(Problem::error(arg, format!("a change is PATH=VALUE, not `{arg}`")));
        };
        let path = path.trim();
        segments(path).map_err(|m| Problem::error(path, m))?;
        let value = value.trim();
        let value = serde_json::from_str(value).unwrap_or_else(|_| Value::String(value.to_string()));
        Ok(Change { path: path.to_string(), value })
    }

    /// The change in its `PATH=VALUE` form.
    pub fn text(&self) -> String {
        match &self.value {
            Value::String(s) => format!("{}={s}", self.path),
            v => format!("{}={v}", self.path),
        }
    }
}

/// One step of a path: a field, and an entry of it when it is a list.
#[derive(Clone, Debug, PartialEq)]
struct Segment<'a> {
    field: &'a str,
    entry: Option<&'a str>,
}

fn segments(path: &str) -> Result<Vec<Segment<'_>>, String> {
    let mut out = Vec::new();
    let mut rest = path;
    loop {
        let end = rest.find(['.', '[']).unwrap_or(rest.len());
        let field = &rest[..end];
        if field.is_empty() {
            return Err(format!("`{path}` has an empty field name"));
        }
        rest = &rest[end..];
        let mut entry = None;
        if let Some(r) = rest.strip_prefix('[') {
            let Some(close) = r.find(']') else {
                return Err(format!("`{path}` has a `[` without its `]`"));
            };
            if close == 0 {
                return Err(format!("`{path}` has an empty `[]`"));
            }
            entry = Some(&r[..close]);
            rest = &r[close + 1..];
        }
        out.push(Segment { field, entry });
        if rest.is_empty() {
            return Ok(out);
        }
        match rest.strip_prefix('.') {
            Some(r) => rest = r,
            None => return Err(format!("`{path}`: expected `.` after `{field}[...]`")),
        }
    }
}

/// The field that names the entries of a list, by the list's field name.
fn key_field(list: &str) -> Option<&'static str> {
    match list {
        "quotaShares" | "shares" => Some("quotaShareName"),
        "jobs" => Some("jobName"),
        "capacityLimits" => Some("capacityUnit"),
        "instanceTypes" => Some("name"),
        _ => None,
    }
}

/// Applies `changes` in order to a copy of `s`. Every problem names the change's path; the
/// result is not validated (the caller validates it as any scenario).
pub fn apply_changes(s: &Scenario, changes: &[Change]) -> Result<Scenario, Problem> {
    let mut out = s.clone();
    for c in changes {
        apply(&mut out, c).map_err(|m| Problem::error(c.path.clone(), m))?;
    }
    Ok(out)
}

fn apply(s: &mut Scenario, c: &Change) -> Result<(), String> {
    let segs = segments(&c.path)?;
    let (first, rest) = segs.split_first().ok_or("empty path")?;
    // Each top-level section is edited as JSON on its own, so a change to the settings does
    // not convert a million jobs.
    match first.field {
        "settings" => edit(&mut s.settings, first, rest, &c.value),
        "serviceEnvironment" => edit(&mut s.service_environment, first, rest, &c.value),
        "quotaShares" => edit(&mut s.quota_shares, first, rest, &c.value),
        "jobs" => edit(&mut s.jobs, first, rest, &c.value),
        "instanceTypes" => edit(&mut s.instance_types, first, rest, &c.value),
        "actions" => edit(&mut s.actions, first, rest, &c.value),
        "schedulingPolicy" => edit(&mut s.scheduling_policy, first, rest, &c.value),
        "workload" if s.workload.is_none() && !rest.is_empty() => {
            Err("the scenario has no `workload` section to change (quotasim generate --workload writes one)"
                .into())
        }
        "workload" => edit(&mut s.workload, first, rest, &c.value),
        "name" => edit(&mut s.name, first, rest, &c.value),
        "description" => edit(&mut s.description, first, rest, &c.value),
        f => Err(format!(
            "the scenario has no section `{f}` (settings, serviceEnvironment, quotaShares, jobs, \
             instanceTypes, actions, schedulingPolicy, workload, name, description)"
        )),
    }
}

/// Edits one section through its JSON form.
fn edit<T: Serialize + DeserializeOwned>(
    section: &mut T,
    first: &Segment,
    rest: &[Segment],
    value: &Value,
) -> Result<(), String> {
    let mut v = serde_json::to_value(&*section).map_err(|e| e.to_string())?;
    match first.entry {
        Some(entry) => edit_entries(&mut v, first.field, entry, rest, value)?,
        None if rest.is_empty() => v = value.clone(),
        None => set(&mut v, rest, value)?,
    }
    *section = T::deserialize(Strict(v)).map_err(describe)?;
    Ok(())
}

fn describe(e: serde_json::Error) -> String {
    let m = e.to_string();
    match m.find(" at line ") {
        Some(i) => m[..i].to_string(),
        None => m,
    }
}

/// Sets `value` at `path` inside `v`, creating objects on the way.
fn set(v: &mut Value, path: &[Segment], value: &Value) -> Result<(), String> {
    let Some((seg, rest)) = path.split_first() else {
        *v = value.clone();
        return Ok(());
    };
    if v.is_null() {
        *v = Value::Object(Map::new());
    }
    let Value::Object(map) = v else {
        return Err(format!("`{}` is inside a value that is not an object", seg.field));
    };
    let child = map.entry(seg.field.to_string()).or_insert(Value::Null);
    match seg.entry {
        Some(entry) => edit_entries(child, seg.field, entry, rest, value),
        None => set(child, rest, value),
    }
}

/// Applies the rest of the path to the entries of list `field` that `entry` names.
fn edit_entries(
    list: &mut Value,
    field: &str,
    entry: &str,
    rest: &[Segment],
    value: &Value,
) -> Result<(), String> {
    if list.is_null() {
        *list = Value::Array(Vec::new());
    }
    let Value::Array(items) = list else {
        return Err(format!("`{field}` is not a list"));
    };
    if entry == "*" {
        for item in items.iter_mut() {
            set(item, rest, value)?;
        }
        return Ok(());
    }
    let Some(key) = key_field(field) else {
        let i: usize =
            entry.parse().map_err(|_| format!("`{field}` entries are named by position, not `{entry}`"))?;
        let n = items.len();
        let item =
            items.get_mut(i).ok_or_else(|| format!("`{field}` has {n} entries, none at position {i}"))?;
        return set(item, rest, value);
    };
    let found = items.iter().position(|x| x.get(key).and_then(Value::as_str) == Some(entry));
    match found {
        Some(i) => set(&mut items[i], rest, value),
        // A share's quota (or the service environment's limit) for a new type.
        None if field == "capacityLimits" => {
            let mut m = Map::new();
            m.insert(key.to_string(), Value::String(entry.to_string()));
            let mut item = Value::Object(m);
            set(&mut item, rest, value)?;
            items.push(item);
            Ok(())
        }
        None => {
            let names: Vec<&str> = items.iter().filter_map(|x| x.get(key).and_then(Value::as_str)).collect();
            Err(format!("no entry of `{field}` has {key} `{entry}` (there are: {})", names.join(", ")))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Strategy, VictimOrder};

    fn scenario() -> Scenario {
        crate::json::parse_scenario(
            r#"{"formatVersion":1,
            "serviceEnvironment":{"serviceEnvironmentName":"se","capacityLimits":[{"capacityUnit":"ml.g5.xlarge","maxCapacity":4}]},
            "quotaShares":[
              {"quotaShareName":"team-a","capacityLimits":[{"capacityUnit":"ml.g5.xlarge","maxCapacity":2}],
               "resourceSharingConfiguration":{"strategy":"LEND_AND_BORROW","borrowLimit":100}},
              {"quotaShareName":"team-b","capacityLimits":[{"capacityUnit":"ml.g5.xlarge","maxCapacity":2}],
               "resourceSharingConfiguration":{"strategy":"RESERVE"}}],
            "jobs":[
              {"jobName":"a","quotaShareName":"team-a","instanceType":"ml.g5.xlarge","instanceCount":1,"submitAt":0,"durationSeconds":10},
              {"jobName":"b","quotaShareName":"team-b","instanceType":"ml.g5.xlarge","instanceCount":1,"submitAt":0,"durationSeconds":10}],
            "actions":[{"at":5,"terminateServiceJob":{"jobName":"a","reason":"x"}}]}"#,
        )
        .unwrap()
    }

    fn with(changes: &[&str]) -> Result<Scenario, Problem> {
        let cs: Vec<Change> = changes.iter().map(|c| Change::parse(c).unwrap()).collect();
        apply_changes(&scenario(), &cs)
    }

    #[test]
    fn settings_by_name() {
        let s = with(&["settings.preemptionGraceSeconds=300", "settings.victimOrder=leastLostWork"]).unwrap();
        assert_eq!(s.settings.preemption_grace_seconds, 300);
        assert_eq!(s.settings.victim_order, VictimOrder::LeastLostWork);
        assert!(!s.settings.backfill);
        assert!(with(&["settings.backfill=true"]).unwrap().settings.backfill);
    }

    #[test]
    fn shares_by_name_and_their_limits_by_type() {
        let s = with(&[
            "quotaShares[team-b].resourceSharingConfiguration.strategy=LEND",
            "quotaShares[team-a].capacityLimits[ml.g5.xlarge].maxCapacity=3",
            "quotaShares[team-a].capacityLimits[ml.p5.48xlarge].maxCapacity=1",
        ])
        .unwrap();
        assert_eq!(s.quota_shares[1].resource_sharing_configuration.strategy, Strategy::Lend);
        let limits = &s.quota_shares[0].capacity_limits;
        assert_eq!(limits.len(), 2);
        assert_eq!((limits[0].capacity_unit.as_str(), limits[0].max_capacity), ("ml.g5.xlarge", 3));
        assert_eq!((limits[1].capacity_unit.as_str(), limits[1].max_capacity), ("ml.p5.48xlarge", 1));
        let s = with(&["serviceEnvironment.capacityLimits[ml.g5.xlarge].maxCapacity=64"]).unwrap();
        assert_eq!(s.service_environment.capacity_limits[0].max_capacity, 64);
    }

    #[test]
    fn every_job_with_a_star_and_one_by_name() {
        let s = with(&["jobs[*].checkpointIntervalSeconds=900", "jobs[b].schedulingPriority=7"]).unwrap();
        assert!(s.jobs.iter().all(|j| j.checkpoint_interval_seconds == Some(900)));
        assert_eq!(s.jobs[1].scheduling_priority, 7);
        assert_eq!(s.jobs[0].scheduling_priority, 0);
    }

    #[test]
    fn actions_by_position() {
        let s = with(&["actions[0].at=7"]).unwrap();
        assert_eq!(s.actions[0].at, 7);
        let e = with(&["actions[3].at=7"]).unwrap_err();
        assert!(e.message.contains("none at position 3"), "{}", e.message);
    }

    #[test]
    fn a_path_that_names_nothing_is_an_error_naming_it() {
        for (change, says) in [
            ("quotaShares[team-x].resourceSharingConfiguration.strategy=LEND", "team-a, team-b"),
            ("settings.graceSeconds=10", "unknown field `graceSeconds`"),
            ("workloadz.seed=7", "no section `workloadz`"),
            ("jobs[zz].durationSeconds=1", "no entry of `jobs`"),
        ] {
            let e = with(&[change]).unwrap_err();
            assert_eq!(e.path, change.split_once('=').unwrap().0);
            assert!(e.message.contains(says), "{change}: {}", e.message);
        }
    }

    #[test]
    fn a_value_of_the_wrong_type_is_an_error_naming_the_path() {
        let e = with(&["quotaShares[team-a].capacityLimits[ml.g5.xlarge].maxCapacity=lots"]).unwrap_err();
        assert_eq!(e.path, "quotaShares[team-a].capacityLimits[ml.g5.xlarge].maxCapacity");
        assert!(e.message.contains("invalid type"), "{}", e.message);
        let e = with(&["quotaShares[team-b].resourceSharingConfiguration.strategy=LENDING"]).unwrap_err();
        assert!(e.message.contains("unknown variant"), "{}", e.message);
    }

    #[test]
    fn an_array_for_an_object_is_refused() {
        let e = with(&["settings=[0,0,0,true]"]).unwrap_err();
        assert!(e.message.contains("expected struct Settings"), "{}", e.message);
    }

    #[test]
    fn malformed_changes_are_refused() {
        for bad in ["settings.backfill", "a..b=1", "jobs[=1", "jobs[].x=1", "jobs[a]x=1"] {
            assert!(Change::parse(bad).is_err(), "{bad}");
        }
        let c = Change::parse("quotaShares[team-b].resourceSharingConfiguration.strategy=LEND").unwrap();
        assert_eq!(c.value, Value::String("LEND".into()));
        assert_eq!(c.text(), "quotaShares[team-b].resourceSharingConfiguration.strategy=LEND");
        assert_eq!(Change::parse("settings.preemptionGraceSeconds=300").unwrap().value, Value::from(300));
    }

    #[test]
    fn every_section_survives_an_edit_of_another_field_unchanged() {
        // The format example has payloads and AWS-shaped shares: an edit goes through
        // each section's JSON form and must keep everything else as it was.
        let text = include_str!("../../tests/fixtures/format_example.json");
        let s = crate::json::parse_scenario(text).unwrap();
        let share = s.quota_shares[0].quota_share_name.clone();
        let job = s.jobs[0].job_name.clone();
        let prio = s.jobs[0].scheduling_priority;
        let grace = s.settings.preemption_grace_seconds;
        for c in [
            format!("jobs[{job}].schedulingPriority={prio}"),
            format!("settings.preemptionGraceSeconds={grace}"),
            format!("quotaShares[{share}].quotaShareName={share}"),
        ] {
            let got = apply_changes(&s, &[Change::parse(&c).unwrap()]).unwrap();
            // AWS fields the simulation ignores are not kept; everything else is.
            assert_eq!(crate::json::to_json(&got), crate::json::to_json(&s), "{c}");
        }
    }
}
