//! Validation: `Scenario` -> [`ValidScenario`], or every problem at once.
//!
//! Each [`Problem`] names the offending field by its path in the scenario JSON
//! (`quotaShares[2].resourceSharingConfiguration.borrowLimit`), has a severity and a message a
//! person understands. Errors stop a run; warnings (R3 oversubscription, R13 capacity owned by
//! no share, ...) do not. Validation never panics, whatever the input.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use crate::model::*;

/// The largest time or count a scenario may hold: JavaScript numbers carry it exactly.
pub const MAX_SAFE: i64 = (1i64 << 53) - 1;
/// AWS: at most 20 quota shares per job queue.
pub const MAX_SHARES: usize = 20;
/// The most jobs a scenario may have. Fixed, whatever the machine: a run needs about 0.7 KB
/// of memory per job for a summary and about 4 KB per job for the full result with its
/// events (measured natively), so 2,000,000 jobs need about 1.4 GB and 8 GB.
pub const MAX_JOBS: usize = 2_000_000;

/// The message for a scenario with more than [`MAX_JOBS`] jobs.
pub fn too_many_jobs() -> String {
    format!(
        "more than {MAX_JOBS} jobs: a scenario may have at most {MAX_JOBS} (running that many needs about \
         1.4 GB of memory for a summary and 8 GB for the full result with events)"
    )
}
/// AWS: 1 to 5 capacity limits per quota share.
pub const MAX_SHARE_LIMITS: usize = 5;
/// AWS: scheduling priorities 0 to 9999.
pub const MAX_PRIORITY: i64 = 9999;
/// AWS: names up to 128 characters.
pub const MAX_NAME: usize = 128;
/// A `CheckpointConfig` without `checkpointIntervalSeconds` checkpoints this often.
pub const DEFAULT_PAYLOAD_CHECKPOINT: u64 = 600;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Severity {
    Error,
    Warning,
}

/// One thing wrong (or worth knowing) about a scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Problem {
    /// Path of the field in the scenario JSON, e.g. `jobs[3].instanceCount`; empty for the root.
    pub path: String,
    pub severity: Severity,
    pub message: String,
}

/// The longest problem message, in bytes: a message quoting a huge value from the input is
/// cut, so a hostile file cannot make an error report of its own size.
pub const MAX_MESSAGE: usize = 4096;

/// Text from the input as it may be shown anywhere, a terminal included: control characters
/// (escape sequences, bells, NULs) become `\u{..}` escapes, never sent.
pub fn printable(s: &str) -> String {
    s.chars().fold(String::with_capacity(s.len()), |mut out, c| {
        if c.is_control() {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
        out
    })
}

/// A path or message made [`printable`] (it may quote the input) and cut to at most
/// [`MAX_MESSAGE`] bytes (on a character boundary), saying so.
fn bounded(s: String) -> String {
    let mut s = if s.contains(char::is_control) { printable(&s) } else { s };
    if s.len() > MAX_MESSAGE {
        let mut at = MAX_MESSAGE - 40;
        while !s.is_char_boundary(at) {
            at -= 1;
        }
        let n = s.len();
        s.truncate(at);
        s.push_str(&format!("... ({n} bytes, cut)"));
    }
    s
}

impl Problem {
    pub fn error(path: impl Into<String>, message: impl Into<String>) -> Self {
        Problem { path: bounded(path.into()), severity: Severity::Error, message: bounded(message.into()) }
    }
    pub fn warning(path: impl Into<String>, message: impl Into<String>) -> Self {
        Problem { path: bounded(path.into()), severity: Severity::Warning, message: bounded(message.into()) }
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        if self.path.is_empty() {
            write!(f, "{sev}: {}", self.message)
        } else {
            write!(f, "{sev}: {}: {}", self.path, self.message)
        }
    }
}

/// Dense index of an instance type.
pub type TypeId = u32;
/// Dense index of a quota share (its position in the input).
pub type ShareId = u32;
/// Dense index of a job (its position in the input).
pub type JobId = u32;

#[derive(Clone, Debug, PartialEq)]
pub struct TypeCfg {
    pub name: String,
    pub gpus: u64,
    /// Price per instance-hour (R26 cost), when given.
    pub price: Option<f64>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ShareCfg {
    pub name: String,
    /// Own quota per instance type (indexed by `TypeId`; 0 where the share has no limit).
    pub quota: Vec<u64>,
    pub strategy: Strategy,
    /// -1 = unlimited.
    pub borrow_limit: i64,
    pub in_share_preemption: bool,
    pub enabled: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct JobCfg {
    pub name: String,
    pub share: ShareId,
    pub priority: u32,
    pub ty: TypeId,
    pub count: u64,
    pub submit_at: u64,
    pub duration: u64,
    pub checkpoint_interval: Option<u64>,
    pub timeout: Option<u64>,
    pub retries: Option<u64>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ShareUpdateCfg {
    pub share: ShareId,
    pub quota: Option<Vec<u64>>,
    pub sharing: Option<(Strategy, i64)>,
    pub in_share_preemption: Option<bool>,
    pub enabled: Option<bool>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ActionCfg {
    UpdatePriority {
        job: JobId,
        priority: u32,
    },
    Terminate {
        job: JobId,
        reason: String,
    },
    UpdateShare(ShareUpdateCfg),
    /// New service environment limit per type (`None`: no limit, the type cannot run).
    UpdateCapacity {
        limits: Vec<Option<u64>>,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct SettingsCfg {
    pub grace: u64,
    pub scheduled: u64,
    pub starting: u64,
    pub backfill: bool,
    pub victim_order: VictimOrder,
    pub checkpoint_on_stop: bool,
    pub checkpoint_save: u64,
    pub horizon: Option<u64>,
    pub billing: crate::model::Billing,
}

/// A scenario that passed validation, with every name resolved to a dense id.
#[derive(Clone, Debug, PartialEq)]
pub struct ValidScenario {
    pub name: Option<String>,
    pub settings: SettingsCfg,
    pub types: Vec<TypeCfg>,
    /// Service environment limit per type; `None` where it has none (R1: such jobs never run).
    pub capacity: Vec<Option<u64>>,
    pub shares: Vec<ShareCfg>,
    pub jobs: Vec<JobCfg>,
    /// Sorted by time, stably (file order within an instant).
    pub actions: Vec<(u64, ActionCfg)>,
    /// Warnings found while validating.
    pub warnings: Vec<Problem>,
}

/// `jobs[3]`-style path prefix, formatted only when needed.
struct Idx(&'static str, usize);

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

/// Job name -> first index, for uniqueness and lookups of up to millions of names: an
/// open-addressing table keyed by FNV-1a, 8 bytes a slot (a hash tag and the job's index; the
/// name itself is compared in the job list only when the tags agree), so that a million
/// names take 16 MB. Only lookups use it, never iteration, so the hash order cannot reach a
/// decision (R27).
struct NameIndex<'a> {
    slots: Vec<(u32, u32)>,
    mask: usize,
    jobs: &'a [Job],
}

const EMPTY: u32 = u32::MAX;

fn fnv1a(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

impl<'a> NameIndex<'a> {
    fn new(jobs: &'a [Job]) -> Self {
        let size = (jobs.len().max(4) * 2).next_power_of_two();
        NameIndex { slots: alloc::vec![(0, EMPTY); size], mask: size - 1, jobs }
    }

    /// Where `name` is, or the empty slot where it would go.
    fn find(&self, name: &str) -> (usize, u32) {
        let h = fnv1a(name);
        let tag = (h >> 32) as u32;
        let mut i = h as usize & self.mask;
        loop {
            let (t, id) = self.slots[i];
            if id == EMPTY || t == tag && self.jobs[id as usize].job_name == name {
                return (i, tag);
            }
            i = (i + 1) & self.mask;
        }
    }

    /// Inserts job `id` under its name; returns the earlier job's index if the name is taken.
    fn insert(&mut self, id: u32) -> Option<u32> {
        let (i, tag) = self.find(&self.jobs[id as usize].job_name);
        match self.slots[i].1 {
            EMPTY => {
                self.slots[i] = (tag, id);
                None
            }
            first => Some(first),
        }
    }

    fn get(&self, name: &str) -> Option<u32> {
        let (i, _) = self.find(name);
        let id = self.slots[i].1;
        (id != EMPTY).then_some(id)
    }
}

fn valid_name(s: &str) -> bool {
    !s.is_empty()
        && s.chars().count() <= MAX_NAME
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

const NAME_RULE: &str = "must be 1 to 128 characters of letters, digits, '-' and '_'";

struct Checker {
    problems: Vec<Problem>,
    types: Vec<TypeCfg>,
    type_ids: BTreeMap<String, TypeId>,
}

impl Checker {
    fn err(&mut self, path: impl Into<String>, msg: impl Into<String>) {
        self.problems.push(Problem::error(path, msg));
    }
    fn warn(&mut self, path: impl Into<String>, msg: impl Into<String>) {
        self.problems.push(Problem::warning(path, msg));
    }

    fn type_id(&mut self, name: &str) -> TypeId {
        if let Some(&id) = self.type_ids.get(name) {
            return id;
        }
        let id = self.types.len() as TypeId;
        self.types.push(TypeCfg {
            name: name.to_string(),
            gpus: catalogue_gpus(name).unwrap_or(0).max(0) as u64,
            price: None,
        });
        self.type_ids.insert(name.to_string(), id);
        id
    }

    /// A whole number in `min..=MAX_SAFE`.
    fn number(&mut self, path: &str, v: i64, min: i64, what: &str) -> u64 {
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

    fn instance_type_name(&mut self, path: &str, name: &str) -> bool {
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
    fn limits(&mut self, path: &str, limits: &[CapacityLimit], min: i64) -> Vec<(TypeId, u64)> {
        let mut out: Vec<(TypeId, u64)> = Vec::new();
        for (i, l) in limits.iter().enumerate() {
            let p = format!("{path}[{i}]");
            if !self.instance_type_name(&format!("{p}.capacityUnit"), &l.capacity_unit) {
                continue;
            }
            let n = self.number(&format!("{p}.maxCapacity"), l.max_capacity, min, "maxCapacity");
            let t = self.type_id(&l.capacity_unit);
            if out.iter().any(|(u, _)| *u == t) {
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

    fn share_limits(&mut self, path: &str, limits: &[CapacityLimit]) -> Vec<(TypeId, u64)> {
        if limits.is_empty() {
            self.err(path, "a quota share needs 1 to 5 capacity limits, and has none");
        } else if limits.len() > MAX_SHARE_LIMITS {
            self.err(path, format!("a quota share takes at most 5 capacity limits, not {}", limits.len()));
        }
        self.limits(path, limits, 1)
    }

    fn sharing(&mut self, path: &str, r: &ResourceSharing) -> (Strategy, i64) {
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
        (r.strategy, bl)
    }

    fn priority(&mut self, path: &str, p: i64) -> u32 {
        if !(0..=MAX_PRIORITY).contains(&p) {
            self.err(path, format!("schedulingPriority must be between 0 and 9999, not {p}"));
            0
        } else {
            p as u32
        }
    }
}

fn per_type(types: usize, limits: &[(TypeId, u64)]) -> Vec<u64> {
    let mut v = alloc::vec![0u64; types];
    for &(t, n) in limits {
        v[t as usize] = n;
    }
    v
}

fn per_type_opt(types: usize, limits: &[(TypeId, u64)]) -> Vec<Option<u64>> {
    let mut v = alloc::vec![None; types];
    for &(t, n) in limits {
        v[t as usize] = Some(n);
    }
    v
}

/// Checks a scenario against the format spec and the AWS limits (semantics section 8).
///
/// Returns the checked scenario (with its warnings) or every problem found, errors and
/// warnings, in the order of the fields in the file.
pub fn validate(s: &Scenario) -> Result<ValidScenario, Vec<Problem>> {
    let mut c = Checker { problems: Vec::new(), types: Vec::new(), type_ids: BTreeMap::new() };

    if s.format_version != 1 {
        c.err("formatVersion", format!("formatVersion must be 1, not {}", s.format_version));
    }

    // Settings.
    let st = &s.settings;
    let settings = SettingsCfg {
        grace: c.number(
            "settings.preemptionGraceSeconds",
            st.preemption_grace_seconds,
            0,
            "preemptionGraceSeconds",
        ),
        scheduled: c.number("settings.scheduledSeconds", st.scheduled_seconds, 0, "scheduledSeconds"),
        starting: c.number("settings.startingSeconds", st.starting_seconds, 0, "startingSeconds"),
        backfill: st.backfill,
        victim_order: st.victim_order,
        checkpoint_on_stop: st.checkpoint_on_stop,
        checkpoint_save: c.number(
            "settings.checkpointSaveSeconds",
            st.checkpoint_save_seconds,
            0,
            "checkpointSaveSeconds",
        ),
        horizon: st.horizon_seconds.map(|h| c.number("settings.horizonSeconds", h, 0, "horizonSeconds")),
        billing: st.billing,
    };

    if let Some(sp) = &s.scheduling_policy {
        if let Some(qp) = &sp.quota_share_policy {
            if let Some(strat) = &qp.idle_resource_assignment_strategy {
                if strat != "FIFO" {
                    c.err(
                        "schedulingPolicy.quotaSharePolicy.idleResourceAssignmentStrategy",
                        format!("FIFO is the only idle resource assignment strategy, not {strat}"),
                    );
                }
            }
        }
    }

    // Instance types (GPU counts): declared first so their ids follow the file.
    let mut declared: BTreeMap<String, usize> = BTreeMap::new();
    for (i, it) in s.instance_types.iter().enumerate() {
        let p = format!("instanceTypes[{i}]");
        if !c.instance_type_name(&format!("{p}.name"), &it.name) {
            continue;
        }
        if let Some(first) = declared.get(&it.name) {
            c.err(
                format!("{p}.name"),
                format!("instance type {} is already listed at instanceTypes[{first}]", it.name),
            );
            continue;
        }
        declared.insert(it.name.clone(), i);
        let g = c.number(&format!("{p}.gpus"), it.gpus, 0, "gpus");
        let price = it.price_per_hour.filter(|x| {
            let ok = x.is_finite() && *x >= 0.0;
            if !ok {
                c.err(
                    format!("{p}.pricePerHour"),
                    format!("pricePerHour must be a number of at least 0, not {x}"),
                );
            }
            ok
        });
        let t = c.type_id(&it.name);
        c.types[t as usize].gpus = g;
        c.types[t as usize].price = price;
    }

    // Service environment.
    let se = c.limits("serviceEnvironment.capacityLimits", &s.service_environment.capacity_limits, 0);
    if s.service_environment.capacity_limits.is_empty() {
        c.warn(
            "serviceEnvironment.capacityLimits",
            "the service environment has no capacity: no job can run",
        );
    }

    // Quota shares.
    if s.quota_shares.is_empty() {
        c.err("quotaShares", "a scenario needs at least one quota share");
    } else if s.quota_shares.len() > MAX_SHARES {
        c.err("quotaShares", format!("at most 20 quota shares are allowed, not {}", s.quota_shares.len()));
    }
    let mut share_ids: BTreeMap<String, ShareId> = BTreeMap::new();
    let mut shares_raw: Vec<ShareRaw> = Vec::new();
    for (i, q) in s.quota_shares.iter().enumerate() {
        let p = format!("quotaShares[{i}]");
        if !valid_name(&q.quota_share_name) {
            c.err(format!("{p}.quotaShareName"), format!("quotaShareName {NAME_RULE}"));
        } else if let Some(first) = share_ids.get(&q.quota_share_name) {
            c.err(
                format!("{p}.quotaShareName"),
                format!("quota share {} is already defined at quotaShares[{first}]", q.quota_share_name),
            );
        }
        share_ids.entry(q.quota_share_name.clone()).or_insert(i as ShareId);
        let limits = c.share_limits(&format!("{p}.capacityLimits"), &q.capacity_limits);
        let (strategy, bl) =
            c.sharing(&format!("{p}.resourceSharingConfiguration"), &q.resource_sharing_configuration);
        shares_raw.push((
            q.quota_share_name.clone(),
            limits,
            strategy,
            bl,
            q.preemption_configuration.in_share_preemption == Toggle::Enabled,
            q.state == ShareState::Enabled,
        ));
    }

    // Jobs. Paths are formatted only when there is a problem to report: a scenario may hold
    // a million jobs.
    if s.jobs.len() > MAX_JOBS {
        // Not one of them is looked at: checking millions more would only delay the answer.
        c.err("jobs", too_many_jobs());
        return Err(c.problems);
    }
    let mut job_ids = NameIndex::new(&s.jobs);
    let mut jobs_raw: Vec<JobCfg> = Vec::with_capacity(s.jobs.len());
    for (i, j) in s.jobs.iter().enumerate() {
        let p = Idx("jobs", i);
        if !valid_name(&j.job_name) {
            c.err(format!("{p}.jobName"), format!("jobName {NAME_RULE}"));
        } else if let Some(first) = job_ids.insert(i as JobId) {
            c.err(format!("{p}.jobName"), format!("job {} is already defined at jobs[{first}]", j.job_name));
        }
        let share = match share_ids.get(&j.quota_share_name) {
            Some(&id) => id,
            None => {
                if j.quota_share_name.is_empty() {
                    c.err(format!("{p}.quotaShareName"), "a job needs a quotaShareName");
                } else {
                    c.err(
                        format!("{p}.quotaShareName"),
                        format!("no quota share is named {}", j.quota_share_name),
                    );
                }
                0
            }
        };
        let priority = if (0..=MAX_PRIORITY).contains(&j.scheduling_priority) {
            j.scheduling_priority as u32
        } else {
            c.priority(&format!("{p}.schedulingPriority"), j.scheduling_priority)
        };
        let payload = j.service_request_payload.as_ref();
        // Instance type: direct, or from the payload; both must agree.
        let ty = match (&j.instance_type, payload.and_then(|x| x.instance_type.as_ref())) {
            (Some(a), Some(b)) if a != b => {
                c.err(
                    format!("{p}.instanceType"),
                    format!("instanceType {a} disagrees with serviceRequestPayload.ResourceConfig.InstanceType {b}"),
                );
                0
            }
            (Some(name), _) | (None, Some(name)) => {
                let direct = j.instance_type.is_some();
                if let Some(&t) = c.type_ids.get(name.as_str()) {
                    t
                } else {
                    let path = if direct {
                        format!("{p}.instanceType")
                    } else {
                        format!("{p}.serviceRequestPayload.ResourceConfig.InstanceType")
                    };
                    if c.instance_type_name(&path, name) {
                        c.type_id(name)
                    } else {
                        0
                    }
                }
            }
            (None, None) => {
                c.err(
                    format!("{p}.instanceType"),
                    "a job needs an instanceType (or serviceRequestPayload.ResourceConfig.InstanceType)",
                );
                0
            }
        };
        let count = match (j.instance_count, payload.and_then(|x| x.instance_count)) {
            (Some(a), Some(b)) if a != b => {
                c.err(
                    format!("{p}.instanceCount"),
                    format!("instanceCount {a} disagrees with serviceRequestPayload.ResourceConfig.InstanceCount {b}"),
                );
                1
            }
            (Some(a), _) => num!(c, format!("{p}.instanceCount"), a, 1, "instanceCount"),
            (None, Some(b)) => {
                num!(
                    c,
                    format!("{p}.serviceRequestPayload.ResourceConfig.InstanceCount"),
                    b,
                    1,
                    "InstanceCount"
                )
            }
            (None, None) => 1,
        };
        let submit_at = num!(c, format!("{p}.submitAt"), j.submit_at, 0, "submitAt");
        let duration = num!(c, format!("{p}.durationSeconds"), j.duration_seconds, 0, "durationSeconds");
        let checkpoint_interval = match j.checkpoint_interval_seconds {
            Some(v) => {
                Some(num!(c, format!("{p}.checkpointIntervalSeconds"), v, 1, "checkpointIntervalSeconds"))
            }
            None if payload.is_some_and(|x| x.has_checkpoint_config) => Some(DEFAULT_PAYLOAD_CHECKPOINT),
            None => None,
        };
        let timeout = match (j.timeout_seconds, payload.and_then(|x| x.max_runtime_in_seconds)) {
            (Some(a), Some(b)) if a != b => {
                c.err(
                    format!("{p}.timeoutSeconds"),
                    format!(
                        "timeoutSeconds {a} disagrees with serviceRequestPayload.StoppingCondition.MaxRuntimeInSeconds {b}"
                    ),
                );
                None
            }
            (Some(a), _) => Some(num!(c, format!("{p}.timeoutSeconds"), a, 1, "timeoutSeconds")),
            (None, Some(b)) => Some(num!(
                c,
                format!("{p}.serviceRequestPayload.StoppingCondition.MaxRuntimeInSeconds"),
                b,
                1,
                "MaxRuntimeInSeconds"
            )),
            (None, None) => None,
        };
        let retries =
            j.preemption_configuration.as_ref().and_then(|x| x.preemption_retries_before_termination).map(
                |r| {
                    num!(
                        c,
                        format!("{p}.preemptionConfiguration.preemptionRetriesBeforeTermination"),
                        r,
                        0,
                        "preemptionRetriesBeforeTermination"
                    )
                },
            );
        // Times in outputs stay exact JSON numbers: a single attempt started at `submitAt`
        // must end, grace period included, by 2^53 - 1.
        let end = [submit_at, settings.scheduled, settings.starting, duration, settings.grace]
            .iter()
            .fold(0u128, |a, &x| a + x as u128);
        if end > MAX_SAFE as u128 {
            c.err(
                format!("{p}.durationSeconds"),
                format!(
                    "submitAt + settings.scheduledSeconds + settings.startingSeconds + durationSeconds + \
                     settings.preemptionGraceSeconds is {end}, after 2^53 - 1 ({MAX_SAFE}): a time in the \
                     results would not be an exact number"
                ),
            );
        }
        jobs_raw.push(JobCfg {
            name: j.job_name.clone(),
            share,
            priority,
            ty,
            count,
            submit_at,
            duration,
            checkpoint_interval,
            timeout,
            retries,
        });
    }

    // Actions.
    let mut actions_raw: Vec<(u64, usize, ActionRawCfg)> = Vec::new();
    for (i, a) in s.actions.iter().enumerate() {
        let p = format!("actions[{i}]");
        let at = c.number(&format!("{p}.at"), a.at, 0, "at");
        let resolved = match &a.kind {
            ActionKind::UpdateServiceJob { job_name, scheduling_priority } => {
                let pr =
                    c.priority(&format!("{p}.updateServiceJob.schedulingPriority"), *scheduling_priority);
                match job_ids.get(job_name.as_str()) {
                    Some(j) => Some(ActionRawCfg::Priority(j, pr)),
                    None => {
                        c.err(format!("{p}.updateServiceJob.jobName"), format!("no job is named {job_name}"));
                        None
                    }
                }
            }
            ActionKind::TerminateServiceJob { job_name, reason } => match job_ids.get(job_name.as_str()) {
                Some(j) => Some(ActionRawCfg::Terminate(j, reason.clone())),
                None => {
                    c.err(format!("{p}.terminateServiceJob.jobName"), format!("no job is named {job_name}"));
                    None
                }
            },
            ActionKind::UpdateQuotaShare(u) => {
                let pq = format!("{p}.updateQuotaShare");
                let share = share_ids.get(&u.quota_share_name).copied();
                if share.is_none() {
                    c.err(
                        format!("{pq}.quotaShareName"),
                        format!("no quota share is named {}", u.quota_share_name),
                    );
                }
                let limits =
                    u.capacity_limits.as_ref().map(|l| c.share_limits(&format!("{pq}.capacityLimits"), l));
                let sharing = u
                    .resource_sharing_configuration
                    .as_ref()
                    .map(|r| c.sharing(&format!("{pq}.resourceSharingConfiguration"), r));
                share.map(|sh| {
                    ActionRawCfg::Share(
                        sh,
                        limits,
                        sharing,
                        u.preemption_configuration.as_ref().map(|x| x.in_share_preemption == Toggle::Enabled),
                        u.state.map(|x| x == ShareState::Enabled),
                    )
                })
            }
            ActionKind::UpdateServiceEnvironment { capacity_limits } => {
                let l = c.limits(&format!("{p}.updateServiceEnvironment.capacityLimits"), capacity_limits, 0);
                Some(ActionRawCfg::Capacity(l))
            }
        };
        if let Some(r) = resolved {
            actions_raw.push((at, i, r));
        }
    }

    // Every type is known now: build the dense per-type tables.
    let nt = c.types.len();
    let capacity = per_type_opt(nt, &se);
    let shares: Vec<ShareCfg> = shares_raw
        .into_iter()
        .map(|(name, limits, strategy, borrow_limit, isp, enabled)| ShareCfg {
            name,
            quota: per_type(nt, &limits),
            strategy,
            borrow_limit,
            in_share_preemption: isp,
            enabled,
        })
        .collect();

    // Totals must stay exact as JavaScript numbers too (snapshots report them).
    for t in 0..nt {
        let total: u128 = shares.iter().map(|s| s.quota[t] as u128).sum();
        if total > MAX_SAFE as u128 {
            let msg = format!(
                "quota shares' limits for {} add up to {total}, more than 2^53 - 1 ({MAX_SAFE})",
                c.types[t].name
            );
            c.err("quotaShares", msg);
        }
    }

    // R3 and R13 warnings, per type of the service environment.
    for (i, l) in se.iter().enumerate() {
        let (t, cap) = *l;
        let total: u64 = shares.iter().map(|s| s.quota[t as usize]).sum();
        let name = &c.types[t as usize].name;
        let path = format!("serviceEnvironment.capacityLimits[{i}].maxCapacity");
        if total > cap {
            let msg = format!(
                "quota shares' limits for {name} add up to {total}, more than the service environment's {cap}: \
                 quotas are oversubscribed (R3), so a share may wait for capacity its quota promises"
            );
            c.warn(path, msg);
        } else if total < cap {
            let msg = format!(
                "{} of the {cap} {name} instances belong to no quota share and are never used (R13)",
                cap - total
            );
            c.warn(path, msg);
        }
    }
    for (i, sh) in shares.iter().enumerate() {
        for (t, &q) in sh.quota.iter().enumerate() {
            if q > 0 && capacity[t].is_none() {
                let msg = format!(
                    "the service environment has no limit for {}: this quota can never be used",
                    c.types[t].name
                );
                c.warn(format!("quotaShares[{i}].capacityLimits"), msg);
            }
        }
    }

    if c.problems.iter().any(|p| p.is_error()) {
        return Err(c.problems);
    }

    let jobs = jobs_raw;

    actions_raw.sort_by_key(|(at, i, _)| (*at, *i));
    let actions = actions_raw
        .into_iter()
        .map(|(at, _, a)| {
            let cfg = match a {
                ActionRawCfg::Priority(job, priority) => ActionCfg::UpdatePriority { job, priority },
                ActionRawCfg::Terminate(job, reason) => ActionCfg::Terminate { job, reason },
                ActionRawCfg::Share(share, limits, sharing, isp, enabled) => {
                    ActionCfg::UpdateShare(ShareUpdateCfg {
                        share,
                        quota: limits.map(|l| per_type(nt, &l)),
                        sharing,
                        in_share_preemption: isp,
                        enabled,
                    })
                }
                ActionRawCfg::Capacity(l) => ActionCfg::UpdateCapacity { limits: per_type_opt(nt, &l) },
            };
            (at, cfg)
        })
        .collect();

    Ok(ValidScenario {
        name: s.name.clone(),
        settings,
        types: c.types,
        capacity,
        shares,
        jobs,
        actions,
        warnings: c.problems,
    })
}

/// A checked share before the per-type tables exist: name, limits, strategy, borrow limit,
/// in-share preemption, enabled.
type ShareRaw = (String, Vec<(TypeId, u64)>, Strategy, i64, bool, bool);

enum ActionRawCfg {
    Priority(JobId, u32),
    Terminate(JobId, String),
    Share(ShareId, Option<Vec<(TypeId, u64)>>, Option<(Strategy, i64)>, Option<bool>, Option<bool>),
    Capacity(Vec<(TypeId, u64)>),
}
