//! Paths: the one grammar for naming a place in a scenario and a number in a run's summary.
//!
//! A *scenario path* names a field of the scenario format with dots, and list entries by their
//! key, not their position (`quotaShares[team-b].resourceSharingConfiguration.strategy`,
//! `jobs[*].checkpointIntervalSeconds`): what `--set` changes ([`crate::change`]), what compare
//! lists as differences ([`crate::diff`]) and what sweep axes vary. Lists are keyed by
//! [`key_field`]; [`FORMAT`] is the tree of fields a path may name.
//!
//! A *metric path* names a number of the summary result (R26) with dots
//! (`overall.waitSeconds.p95`, `perQuotaShare.team-a.preemptions.total`), `*` standing for every
//! share: what objectives, goals and comparisons read ([`crate::metric`]).

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::{Map, Value};

/// One step of a path: a field, and an entry of it when it is a list.
#[derive(Clone, Debug, PartialEq)]
pub struct Segment<'a> {
    /// The field's name in the format.
    pub field: &'a str,
    /// The entry of a list named in `[...]`: a key, or `*` for every entry.
    pub entry: Option<&'a str>,
}

/// The most steps a path may have: more than the deepest field of the format (four), so that
/// a path too deep is refused by its form before anything walks it.
pub const MAX_STEPS: usize = 8;

/// The steps of a scenario path, or why it is not one (its form only: [`check_fields`] checks
/// it against the format).
pub fn segments(path: &str) -> Result<Vec<Segment<'_>>, String> {
    let mut out = Vec::new();
    let mut rest = path;
    loop {
        if out.len() == MAX_STEPS {
            // Not quoted: the problem's path is the path, and it may be huge.
            return Err(format!("a path has at most {MAX_STEPS} steps: no field of the format is that deep"));
        }
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

/// The shape of the scenario format, as far as a change may go into it.
#[derive(Clone, Copy, Debug)]
pub enum Field {
    /// A value: a number, a string, a boolean or an enum's spelling.
    Leaf,
    /// An object and the fields a change may set, in the format's order.
    Object(&'static [(&'static str, Field)]),
    /// A list of entries of this shape.
    List(&'static Field),
}

use Field::{Leaf as V, List, Object};

const CAPACITY_LIMIT: Field = Object(&[("capacityUnit", V), ("maxCapacity", V)]);
const SHARING: Field = Object(&[("strategy", V), ("borrowLimit", V)]);
const SHARE_PREEMPTION: Field = Object(&[("inSharePreemption", V)]);
const PERCENT_OF: Field = Object(&[("percent", V), ("values", List(&V))]);
const SHARE_UPDATE: Field = Object(&[
    ("quotaShareName", V),
    ("capacityLimits", List(&CAPACITY_LIMIT)),
    ("resourceSharingConfiguration", SHARING),
    ("preemptionConfiguration", SHARE_PREEMPTION),
    ("state", V),
]);
const JOB: Field = Object(&[
    ("jobName", V),
    ("quotaShareName", V),
    ("schedulingPriority", V),
    ("instanceType", V),
    ("instanceCount", V),
    ("submitAt", V),
    ("durationSeconds", V),
    ("startedAt", V),
    ("previousAttempts", V),
    ("completedWorkSeconds", V),
    ("checkpointIntervalSeconds", V),
    ("timeoutSeconds", V),
    ("preemptionConfiguration", Object(&[("preemptionRetriesBeforeTermination", V)])),
    (
        "serviceRequestPayload",
        Object(&[
            ("ResourceConfig", Object(&[("InstanceType", V), ("InstanceCount", V)])),
            ("StoppingCondition", Object(&[("MaxRuntimeInSeconds", V)])),
            ("CheckpointConfig", Object(&[("S3Uri", V)])),
        ]),
    ),
]);
const ACTION: Field = Object(&[
    ("at", V),
    ("updateServiceJob", Object(&[("jobName", V), ("schedulingPriority", V)])),
    ("terminateServiceJob", Object(&[("jobName", V), ("reason", V)])),
    ("updateQuotaShare", SHARE_UPDATE),
    ("updateServiceEnvironment", Object(&[("capacityLimits", List(&CAPACITY_LIMIT))])),
]);
const WORKLOAD_SHARE: Field = Object(&[
    ("quotaShareName", V),
    ("weight", V),
    ("jobs", V),
    ("arrivalsPerHour", V),
    ("instanceTypes", List(&Object(&[("name", V), ("weight", V)]))),
    ("sizes", List(&Object(&[("instances", V), ("weight", V)]))),
    ("duration", Object(&[("distribution", V), ("minSeconds", V), ("maxSeconds", V), ("values", List(&V))])),
    ("priorities", List(&Object(&[("priority", V), ("weight", V)]))),
    ("checkpoint", PERCENT_OF),
    ("preemptionRetries", PERCENT_OF),
]);

/// Every field a change may set, by path (`[]` for the entries of a list): the scenario
/// format without the AWS fields the simulation ignores ([`IGNORED`]).
pub const FORMAT: Field = Object(&[
    ("name", V),
    ("description", V),
    (
        "settings",
        Object(&[
            ("preemptionGraceSeconds", V),
            ("scheduledSeconds", V),
            ("startingSeconds", V),
            ("backfill", V),
            ("victimOrder", V),
            ("checkpointOnStop", V),
            ("checkpointSaveSeconds", V),
            ("horizonSeconds", V),
            ("billing", V),
            ("startAt", V),
            ("originEpochMs", V),
        ]),
    ),
    ("instanceTypes", List(&Object(&[("name", V), ("gpus", V), ("pricePerHour", V)]))),
    (
        "serviceEnvironment",
        Object(&[("serviceEnvironmentName", V), ("capacityLimits", List(&CAPACITY_LIMIT))]),
    ),
    (
        "schedulingPolicy",
        Object(&[("name", V), ("quotaSharePolicy", Object(&[("idleResourceAssignmentStrategy", V)]))]),
    ),
    (
        "quotaShares",
        List(&Object(&[
            ("quotaShareName", V),
            ("capacityLimits", List(&CAPACITY_LIMIT)),
            ("resourceSharingConfiguration", SHARING),
            ("preemptionConfiguration", SHARE_PREEMPTION),
            ("state", V),
            ("capacityLimitReduced", List(&V)),
        ])),
    ),
    (
        "workload",
        Object(&[
            ("seed", V),
            ("jobs", V),
            ("loadPercent", V),
            ("startAt", V),
            ("shares", List(&WORKLOAD_SHARE)),
        ]),
    ),
    ("jobs", List(&JOB)),
    ("actions", List(&ACTION)),
    (
        "history",
        List(&Object(&[
            ("quotaShareName", V),
            ("instanceType", V),
            ("instanceCount", V),
            ("durationSeconds", V),
            ("censored", V),
        ])),
    ),
]);

/// AWS fields a scenario accepts and the simulation ignores: never kept, so never changed.
pub const IGNORED: &[&str] = &[
    "serviceEnvironmentArn",
    "serviceEnvironmentType",
    "status",
    "statusReason",
    "tags",
    "createdAt",
    "clientToken",
    "arn",
    "quotaShareArn",
    "jobQueue",
    "jobArn",
    "jobId",
    "serviceJobType",
    "retryStrategy",
    "shareIdentifier",
];

pub(crate) const SECTIONS: &str = "settings, serviceEnvironment, quotaShares, jobs, instanceTypes, actions, \
                        schedulingPolicy, workload, name, description, history";

/// Checks a path against [`FORMAT`], step by step (no deeper than the format goes).
pub fn check_fields(segs: &[Segment]) -> Result<(), String> {
    let mut node = FORMAT;
    let mut at = "";
    for (i, seg) in segs.iter().enumerate() {
        let fields = match node {
            Object(fields) => fields,
            List(_) => {
                return Err(format!("`{at}` is a list: name its entries, `{at}[NAME]` or `{at}[*]`"));
            }
            V => return Err(format!("`{at}` is a value: a path goes no deeper than it")),
        };
        let Some((_, child)) = fields.iter().find(|(f, _)| *f == seg.field) else {
            return Err(match (i, IGNORED.contains(&seg.field)) {
                (0, _) => format!("the scenario has no section `{}` ({SECTIONS})", seg.field),
                (_, true) => {
                    format!("`{}` is an AWS field the simulation ignores: a change cannot set it", seg.field)
                }
                (_, false) => {
                    let names: Vec<String> = fields.iter().map(|(f, _)| format!("`{f}`")).collect();
                    format!("unknown field `{}`, expected one of {}", seg.field, names.join(", "))
                }
            });
        };
        node = *child;
        at = seg.field;
        if let Some(entry) = seg.entry {
            match node {
                List(item) => node = *item,
                _ => return Err(format!("`{at}` is not a list: `[{entry}]` names nothing in it")),
            }
        }
    }
    Ok(())
}

/// The field that names the entries of a list, by the list's field name.
pub fn key_field(list: &str) -> Option<&'static str> {
    match list {
        "quotaShares" | "shares" => Some("quotaShareName"),
        "jobs" => Some("jobName"),
        "capacityLimits" => Some("capacityUnit"),
        "instanceTypes" => Some("name"),
        _ => None,
    }
}

/// The name of `entry`, an entry of list `list` in a scenario as JSON: its [`key_field`]'s
/// value, `None` when the list has no key field or the entry no name.
pub fn entry_name<'v>(entry: &'v Value, list: &str) -> Option<&'v str> {
    entry.get(key_field(list)?).and_then(Value::as_str)
}

/// Where the entry named `name` is among `items`, the entries of list `list`.
pub fn entry_position(items: &[Value], list: &str, name: &str) -> Option<usize> {
    items.iter().position(|x| entry_name(x, list) == Some(name))
}

/// The value a scenario path's steps name inside `root` (a scenario, or part of one, as
/// JSON), list entries by name; `None` when it is not there.
pub fn value_at_mut<'v, 's>(
    root: &'v mut Value,
    steps: impl IntoIterator<Item = (&'s str, Option<&'s str>)>,
) -> Option<&'v mut Value> {
    let mut cur = root;
    for (field, entry) in steps {
        cur = cur.get_mut(field)?;
        if let Some(name) = entry {
            let items = cur.as_array_mut()?;
            let i = entry_position(items, field, name)?;
            cur = &mut items[i];
        }
    }
    Some(cur)
}

/// The value a metric path's steps name inside `v` (a summary result as JSON, where shares
/// are fields named after them); `None` when it is not there.
pub fn metric_value<'v>(v: &'v Value, steps: &[&str]) -> Option<&'v Value> {
    steps.iter().try_fold(v, |cur, s| cur.get(*s))
}

/// Sets `value` at `path` inside `v` (part of a scenario as JSON), creating objects on the
/// way: what a change ([`crate::change`]) writes. The path has been checked against
/// [`FORMAT`], so it is at most as deep as the format.
pub fn set_at(v: &mut Value, path: &[Segment], value: &Value) -> Result<(), String> {
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
        Some(entry) => set_in_entries(child, seg.field, entry, rest, value),
        None => set_at(child, rest, value),
    }
}

/// Applies the rest of the path to the entries of list `field` that `entry` names (`*`: every
/// entry; a name, or a position for a list without a key field); a share's or the service
/// environment's limit for a new instance type is added.
pub fn set_in_entries(
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
        if items.is_empty() {
            return Err(format!("`{field}` has no entries: `{field}[*]` would change nothing"));
        }
        for item in items.iter_mut() {
            set_at(item, rest, value)?;
        }
        return Ok(());
    }
    let Some(key) = key_field(field) else {
        let i: usize =
            entry.parse().map_err(|_| format!("`{field}` entries are named by position, not `{entry}`"))?;
        let n = items.len();
        let item =
            items.get_mut(i).ok_or_else(|| format!("`{field}` has {n} entries, none at position {i}"))?;
        return set_at(item, rest, value);
    };
    match entry_position(items, field, entry) {
        Some(i) => set_at(&mut items[i], rest, value),
        // A share's quota (or the service environment's limit) for a new type.
        None if field == "capacityLimits" => {
            let mut m = Map::new();
            m.insert(key.to_string(), Value::String(entry.to_string()));
            let mut item = Value::Object(m);
            set_at(&mut item, rest, value)?;
            items.push(item);
            Ok(())
        }
        None => {
            let names: Vec<&str> = items.iter().filter_map(|x| entry_name(x, field)).collect();
            Err(format!("no entry of `{field}` has {key} `{entry}` (there are: {})", names.join(", ")))
        }
    }
}

/// A scenario path from its steps (each a field and, for a list entry, its key).
pub fn text<'a>(steps: impl IntoIterator<Item = (&'a str, Option<&'a str>)>) -> String {
    let mut s = String::new();
    for (i, (f, e)) in steps.into_iter().enumerate() {
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

/// The steps of a metric path, or why it is not one (its form only, not whether the summary
/// has it): dotted names, `*` only in place of a share name.
pub fn metric_steps(path: &str) -> Result<Vec<&str>, String> {
    let segs: Vec<&str> = path.split('.').collect();
    if path.is_empty() || segs.iter().any(|s| s.is_empty()) {
        return Err(format!("`{path}` is not a metric path (dotted names, e.g. overall.utilization)"));
    }
    if let Some(i) = segs.iter().position(|s| *s == "*") {
        if i != 1 || segs[0] != "perQuotaShare" {
            return Err(format!("`{path}`: `*` stands only for a share name (perQuotaShare.*.…)"));
        }
    }
    Ok(segs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn scenario() -> Value {
        json!({
            "quotaShares": [
                { "quotaShareName": "a", "capacityLimits": [{ "capacityUnit": "g5", "maxCapacity": 1 }] },
                { "quotaShareName": "b", "capacityLimits": [{ "capacityUnit": "g5", "maxCapacity": 2 }] }
            ],
            "actions": [{ "at": 5 }]
        })
    }

    #[test]
    fn entries_are_found_by_their_key_field_and_only_in_keyed_lists() {
        let s = scenario();
        let shares = s["quotaShares"].as_array().unwrap();
        assert_eq!(entry_name(&shares[1], "quotaShares"), Some("b"));
        assert_eq!(entry_position(shares, "quotaShares", "b"), Some(1));
        assert_eq!(entry_position(shares, "quotaShares", "c"), None);
        assert_eq!(entry_name(&s["actions"][0], "actions"), None, "actions have no key field");
    }

    #[test]
    fn a_value_is_reached_through_named_entries_and_written_creating_what_is_missing() {
        let mut s = scenario();
        let at = value_at_mut(&mut s, [("quotaShares", Some("b")), ("capacityLimits", Some("g5"))]);
        assert_eq!(at.map(|v| v["maxCapacity"].clone()), Some(json!(2)));
        assert!(value_at_mut(&mut s, [("quotaShares", Some("c"))]).is_none());
        let path = segments("quotaShares[a].resourceSharingConfiguration.strategy").unwrap();
        set_at(&mut s, &path, &json!("LEND")).unwrap();
        assert_eq!(s["quotaShares"][0]["resourceSharingConfiguration"]["strategy"], json!("LEND"));
        let path = segments("quotaShares[b].capacityLimits[p5].maxCapacity").unwrap();
        set_at(&mut s, &path, &json!(4)).unwrap();
        assert_eq!(
            s["quotaShares"][1]["capacityLimits"][1],
            json!({ "capacityUnit": "p5", "maxCapacity": 4 })
        );
        let path = segments("quotaShares[c].preemptionConfiguration").unwrap();
        assert!(set_at(&mut s, &path, &json!({})).unwrap_err().contains("there are: a, b"));
    }

    #[test]
    fn a_metric_path_reads_fields_only() {
        let v = json!({ "overall": { "waitSeconds": { "p95": 7 } } });
        assert_eq!(metric_value(&v, &["overall", "waitSeconds", "p95"]), Some(&json!(7)));
        assert_eq!(metric_value(&v, &["overall", "nothing"]), None);
    }
}
