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
//!
//! Only fields the scenario format defines can be changed ([`crate::path::FORMAT`]): not the AWS fields
//! the simulation accepts and ignores (`tags`, ARNs, ...), nor the insides of a value. So no
//! path is deeper than the format (four steps), and every walk over a path is bounded. A `*`
//! must find at least one entry: on an empty list a change would change nothing.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::model::{Action, InstanceTypeInfo, Job, ObservedDuration, QuotaShare, Scenario};
use crate::path::{check_fields, key_field, segments, set_at, set_in_entries, Segment, SECTIONS};
use crate::strict::Strict;
use crate::validate::Problem;

/// One change: a path and the value to put there.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    /// Where: a path in the `--set` grammar
    /// (`quotaShares[team-a].capacityLimits[ml.p5.48xlarge].maxCapacity`).
    pub path: String,
    /// What to put there, as JSON (a `VALUE` that is not JSON is a string).
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

/// Applies `changes` in order to a copy of `s`. Every problem names the change's path; the
/// result is not validated (the caller validates it as any scenario).
pub fn apply_changes(s: &Scenario, changes: &[Change]) -> Result<Scenario, Problem> {
    let mut out = s.clone();
    for c in changes {
        let edit = edit_of(&out, c).map_err(|m| Problem::error(c.path.clone(), m))?;
        edit.apply(&mut out);
    }
    Ok(out)
}

/// Whether `change` applies to `s`, as [`apply_changes`] would find it, without copying
/// more of `s` than the entries the change edits.
pub fn check_change(s: &Scenario, change: &Change) -> Result<(), Problem> {
    edit_of(s, change).map(drop).map_err(|m| Problem::error(change.path.clone(), m))
}

/// A list section's new entries: the whole list, or some entries by position.
enum Entries<T> {
    Whole(Vec<T>),
    Some(Vec<(usize, T)>),
}

impl<T> Entries<T> {
    fn apply(self, list: &mut Vec<T>) {
        match self {
            Entries::Whole(v) => *list = v,
            Entries::Some(v) => {
                for (i, x) in v {
                    list[i] = x;
                }
            }
        }
    }
}

/// One change, computed from the scenario: the section it gives a new value.
enum Edit {
    Settings(crate::model::Settings),
    ServiceEnvironment(crate::model::ServiceEnvironment),
    SchedulingPolicy(Option<crate::model::SchedulingPolicy>),
    Workload(Option<crate::workload::Workload>),
    Name(Option<String>),
    Description(Option<String>),
    QuotaShares(Entries<QuotaShare>),
    Jobs(Entries<Job>),
    InstanceTypes(Entries<InstanceTypeInfo>),
    Actions(Entries<Action>),
    History(Entries<ObservedDuration>),
}

impl Edit {
    fn apply(self, s: &mut Scenario) {
        match self {
            Edit::Settings(v) => s.settings = v,
            Edit::ServiceEnvironment(v) => s.service_environment = v,
            Edit::SchedulingPolicy(v) => s.scheduling_policy = v,
            Edit::Workload(v) => s.workload = v,
            Edit::Name(v) => s.name = v,
            Edit::Description(v) => s.description = v,
            Edit::QuotaShares(e) => e.apply(&mut s.quota_shares),
            Edit::Jobs(e) => e.apply(&mut s.jobs),
            Edit::InstanceTypes(e) => e.apply(&mut s.instance_types),
            Edit::Actions(e) => e.apply(&mut s.actions),
            Edit::History(e) => e.apply(&mut s.history),
        }
    }
}

fn edit_of(s: &Scenario, c: &Change) -> Result<Edit, String> {
    let segs = segments(&c.path)?;
    check_fields(&segs)?;
    let (first, rest) = segs.split_first().ok_or("empty path")?;
    // Each section is edited as JSON on its own, and a list entry by entry, so a change to
    // the settings does not convert a million jobs, nor a change to one job all the others.
    let v = &c.value;
    Ok(match first.field {
        "settings" => Edit::Settings(edit(&s.settings, first, rest, v)?),
        "serviceEnvironment" => Edit::ServiceEnvironment(edit(&s.service_environment, first, rest, v)?),
        "quotaShares" => {
            Edit::QuotaShares(edit_list(&s.quota_shares, first, rest, v, |q| &q.quota_share_name)?)
        }
        "jobs" => Edit::Jobs(edit_list(&s.jobs, first, rest, v, |j| &j.job_name)?),
        "instanceTypes" => Edit::InstanceTypes(edit_list(&s.instance_types, first, rest, v, |t| &t.name)?),
        "actions" => Edit::Actions(edit_list(&s.actions, first, rest, v, |_| "")?),
        "history" => Edit::History(edit_list(&s.history, first, rest, v, |_| "")?),
        "schedulingPolicy" => Edit::SchedulingPolicy(edit(&s.scheduling_policy, first, rest, v)?),
        "workload" if s.workload.is_none() && !rest.is_empty() => {
            return Err(
                "the scenario has no `workload` section to change (quotasim generate --workload writes one)"
                    .into(),
            )
        }
        "workload" => Edit::Workload(edit(&s.workload, first, rest, v)?),
        "name" => Edit::Name(edit(&s.name, first, rest, v)?),
        "description" => Edit::Description(edit(&s.description, first, rest, v)?),
        f => return Err(format!("the scenario has no section `{f}` ({SECTIONS})")),
    })
}

/// A section with the change made, through its JSON form.
fn edit<T: Serialize + DeserializeOwned>(
    section: &T,
    first: &Segment,
    rest: &[Segment],
    value: &Value,
) -> Result<T, String> {
    let mut v = serde_json::to_value(section).map_err(|e| e.to_string())?;
    match first.entry {
        Some(entry) => set_in_entries(&mut v, first.field, entry, rest, value)?,
        None if rest.is_empty() => v = value.clone(),
        None => set_at(&mut v, rest, value)?,
    }
    T::deserialize(Strict(v)).map_err(describe)
}

/// The entries of a list section that the change names, each edited through its own JSON
/// form; or the whole list when the path names the list itself.
fn edit_list<T: Serialize + DeserializeOwned>(
    items: &[T],
    first: &Segment,
    rest: &[Segment],
    value: &Value,
    key: fn(&T) -> &str,
) -> Result<Entries<T>, String> {
    let field = first.field;
    let Some(entry) = first.entry else {
        // `check_fields` lets a path stop at a list, never go on without an entry.
        return Vec::<T>::deserialize(Strict(value.clone())).map(Entries::Whole).map_err(describe);
    };
    let one = |item: &T| -> Result<T, String> {
        let mut v = serde_json::to_value(item).map_err(|e| e.to_string())?;
        set_at(&mut v, rest, value)?;
        T::deserialize(Strict(v)).map_err(describe)
    };
    if entry == "*" {
        if items.is_empty() {
            return Err(format!("`{field}` has no entries: `{field}[*]` would change nothing"));
        }
        return items
            .iter()
            .map(one)
            .enumerate()
            .map(|(i, x)| x.map(|x| (i, x)))
            .collect::<Result<_, _>>()
            .map(Entries::Some);
    }
    let Some(keyname) = key_field(field) else {
        let i: usize =
            entry.parse().map_err(|_| format!("`{field}` entries are named by position, not `{entry}`"))?;
        let n = items.len();
        let item = items.get(i).ok_or_else(|| format!("`{field}` has {n} entries, none at position {i}"))?;
        return Ok(Entries::Some(alloc::vec![(i, one(item)?)]));
    };
    match items.iter().position(|x| key(x) == entry) {
        Some(i) => Ok(Entries::Some(alloc::vec![(i, one(&items[i])?)])),
        None => {
            let names: Vec<&str> = items.iter().map(key).collect();
            Err(format!("no entry of `{field}` has {keyname} `{entry}` (there are: {})", names.join(", ")))
        }
    }
}

fn describe(e: serde_json::Error) -> String {
    let m = e.to_string();
    match m.find(" at line ") {
        Some(i) => m[..i].to_string(),
        None => m,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Strategy, VictimOrder};
    use crate::path::{Field, FORMAT, IGNORED};

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
    fn a_path_deeper_than_the_format_is_refused_by_its_form_on_a_small_stack() {
        // 60,000 steps used to recurse once per step and overflow the stack; a worker thread's
        // stack is smaller than the main thread's.
        let deep = alloc::format!("settings{}=1", ".a".repeat(60_000));
        let tags = alloc::format!("quotaShares[team-a].tags{}=1", ".a".repeat(14_000));
        let t = std::thread::Builder::new()
            .stack_size(64 * 1024)
            .spawn(move || {
                let e = Change::parse(&deep).unwrap_err();
                assert!(e.message.contains("at most 8 steps"), "{}", e.message);
                assert!(e.to_string().len() <= 2 * crate::validate::MAX_MESSAGE);
                let c = Change { path: tags.split_once('=').unwrap().0.into(), value: Value::from(1) };
                let e = apply_changes(&scenario(), &[c]).unwrap_err();
                assert!(e.message.contains("at most 8 steps"), "{}", e.message);
            })
            .unwrap();
        t.join().unwrap();
    }

    #[test]
    fn only_fields_the_format_defines_can_be_changed() {
        for (change, says) in [
            ("quotaShares[team-a].tags.team=x", "`tags` is an AWS field the simulation ignores"),
            ("jobs[a].jobArn=x", "`jobArn` is an AWS field the simulation ignores"),
            ("serviceEnvironment.tags=x", "`tags` is an AWS field"),
            ("jobs[a].serviceRequestPayload.HyperParameters.lr=1", "unknown field `HyperParameters`"),
            ("settings.preemptionGraceSeconds.x=1", "`preemptionGraceSeconds` is a value"),
            ("quotaShares.x=1", "`quotaShares` is a list: name its entries"),
            ("settings[0].backfill=true", "`settings` is not a list"),
            ("jobs[a].submitAt[0]=1", "`submitAt` is not a list"),
            (
                "actions[0].updateServiceEnvironment.serviceEnvironment=x",
                "unknown field `serviceEnvironment`",
            ),
        ] {
            let e = with(&[change]).unwrap_err();
            assert_eq!(e.path, change.split_once('=').unwrap().0);
            assert!(e.message.contains(says), "{change}: {}", e.message);
        }
        // The deepest fields of the format are four steps.
        let s = with(&["jobs[a].serviceRequestPayload.ResourceConfig.InstanceCount=2"]).unwrap();
        assert_eq!(s.jobs[0].service_request_payload.as_ref().and_then(|p| p.instance_count), Some(2));
    }

    #[test]
    fn a_star_on_an_empty_list_is_refused() {
        let mut base = scenario();
        base.jobs.clear();
        base.actions.clear();
        let e = apply_changes(&base, &[Change::parse("jobs[*].checkpointIntervalSeconds=900").unwrap()])
            .unwrap_err();
        assert!(e.message.contains("`jobs` has no entries"), "{}", e.message);
        let e = with(&["quotaShares[team-a].capacityLimits[*].maxCapacity=1"]);
        assert!(e.is_ok(), "a share's limits are not empty");
        base.quota_shares[0].capacity_limits.clear();
        let e =
            apply_changes(&base, &[Change::parse("quotaShares[*].capacityLimits[*].maxCapacity=1").unwrap()])
                .unwrap_err();
        assert!(e.message.contains("`capacityLimits` has no entries"), "{}", e.message);
    }

    #[test]
    fn a_check_finds_what_applying_finds() {
        let s = scenario();
        for c in [
            "jobs[*].checkpointIntervalSeconds=900",
            "jobs[b].schedulingPriority=x",
            "quotaShares[team-x].state=DISABLED",
            "settings.preemptionGraceSeconds=soon",
            "actions[2].at=1",
            "instanceTypes=[{\"name\":\"ml.g5.xlarge\",\"gpus\":1}]",
            "workload.seed=3",
        ] {
            let c = Change::parse(c).unwrap();
            assert_eq!(
                check_change(&s, &c).err(),
                apply_changes(&s, core::slice::from_ref(&c)).err(),
                "{}",
                c.text()
            );
        }
    }

    /// The field names serde reads for a struct (a deserializer that only records them).
    fn serde_fields<T: serde::de::DeserializeOwned>() -> &'static [&'static str] {
        use serde::de::{Error as _, Visitor};
        struct Fields<'a>(&'a mut &'static [&'static str]);
        impl<'de> serde::Deserializer<'de> for Fields<'_> {
            type Error = serde::de::value::Error;
            fn deserialize_any<W: Visitor<'de>>(self, _: W) -> Result<W::Value, Self::Error> {
                Err(Self::Error::custom("not a struct"))
            }
            fn deserialize_struct<W: Visitor<'de>>(
                self,
                _: &'static str,
                fields: &'static [&'static str],
                _: W,
            ) -> Result<W::Value, Self::Error> {
                *self.0 = fields;
                Err(Self::Error::custom("recorded"))
            }
            serde::forward_to_deserialize_any! {
                bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
                option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
                ignored_any
            }
        }
        let mut out: &'static [&'static str] = &[];
        let _ = T::deserialize(Fields(&mut out));
        out
    }

    #[test]
    fn the_format_lists_every_field_of_the_model_but_the_ignored_ones() {
        use crate::model::*;
        use crate::workload::*;
        fn at(path: &[&str]) -> Vec<&'static str> {
            let mut node = FORMAT;
            for step in path {
                let Field::Object(fields) = node else { panic!("{path:?}") };
                node = fields.iter().find(|(f, _)| f == step).map(|(_, n)| *n).expect("a field");
                if let Field::List(item) = node {
                    node = *item;
                }
            }
            let Field::Object(fields) = node else { panic!("{path:?}") };
            fields.iter().map(|(f, _)| *f).collect()
        }
        let model = |fields: &[&'static str]| -> Vec<&'static str> {
            fields.iter().copied().filter(|f| !IGNORED.contains(f) && *f != "formatVersion").collect()
        };
        let cases: Vec<(&[&str], &'static [&'static str])> = alloc::vec![
            (&[], serde_fields::<Scenario>()),
            (&["settings"], serde_fields::<Settings>()),
            (&["instanceTypes"], serde_fields::<InstanceTypeInfo>()),
            // A service environment's `state` is an AWS field it ignores (a share's is its own).
            (&["serviceEnvironment"], serde_fields::<ServiceEnvironment>()),
            (&["serviceEnvironment", "capacityLimits"], serde_fields::<CapacityLimit>()),
            (&["schedulingPolicy"], serde_fields::<SchedulingPolicy>()),
            (&["schedulingPolicy", "quotaSharePolicy"], serde_fields::<QuotaSharePolicy>()),
            (&["quotaShares"], serde_fields::<QuotaShare>()),
            (&["quotaShares", "resourceSharingConfiguration"], serde_fields::<ResourceSharing>()),
            (&["quotaShares", "preemptionConfiguration"], serde_fields::<SharePreemption>()),
            (&["jobs"], serde_fields::<Job>()),
            (&["jobs", "preemptionConfiguration"], serde_fields::<JobPreemption>()),
            (&["actions", "updateQuotaShare"], serde_fields::<QuotaShareUpdate>()),
            (&["workload"], serde_fields::<Workload>()),
            (&["workload", "shares"], serde_fields::<ShareWorkload>()),
            (&["workload", "shares", "instanceTypes"], serde_fields::<WeightedType>()),
            (&["workload", "shares", "sizes"], serde_fields::<WeightedSize>()),
            (&["workload", "shares", "priorities"], serde_fields::<WeightedPriority>()),
            (&["workload", "shares", "duration"], serde_fields::<DurationSpec>()),
            (&["workload", "shares", "checkpoint"], serde_fields::<PercentOf>()),
            (&["history"], serde_fields::<ObservedDuration>()),
        ];
        for (path, fields) in cases {
            assert!(!fields.is_empty(), "{path:?}");
            let mut want = model(fields);
            if path == ["serviceEnvironment"] {
                want.retain(|f| *f != "state");
            }
            let mut got = at(path);
            want.sort_unstable();
            got.sort_unstable();
            assert_eq!(got, want, "the change format at {path:?}");
        }
    }

    #[test]
    fn every_section_survives_an_edit_of_another_field_unchanged() {
        // The format example has payloads and AWS-shaped shares: an edit goes through
        // each section's JSON form and must keep everything else as it was.
        let text = include_str!("../../../tests/fixtures/format_example.json");
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
