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
use alloc::string::String;
use alloc::vec::Vec;

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
