//! Kueue to AWS and back (`quotasim import kueue`, `quotasim export kueue`): the pure mapping,
//! over documents already parsed (the command line reads YAML).
//!
//! - One quota share per ClusterQueue; one instance type per ResourceFlavor (its
//!   `node.kubernetes.io/instance-type` node label, else its name); GPUs per instance from the
//!   flavor's `nvidia.com/gpu.count` node label, else the caller's default.
//! - `nominalQuota` of `nvidia.com/gpu` (in GPUs) becomes `maxCapacity` in instances, rounded
//!   down with a warning when it is not a whole number of instances.
//! - `lendingLimit: 0` and `borrowingLimit: 0`: `RESERVE`; `borrowingLimit: 0` alone: `LEND`;
//!   otherwise `LEND_AND_BORROW` with `borrowLimit` = borrowingLimit ÷ nominalQuota in percent
//!   (rounded down), or -1 when `borrowingLimit` is not set. `lendingLimit: 0` alone (borrows but
//!   never lends) has no AWS equivalent: `LEND_AND_BORROW`, with a warning.
//! - `preemption.withinClusterQueue: LowerPriority` (or `LowerOrNewerEqualPriority`) turns
//!   in-share preemption on; `stopPolicy: Hold` or `HoldAndDrain` disables the share.
//! - The service environment's capacity is the Cohort's annotation
//!   `quotasim.dev/service-environment-capacity` (`{"ml.p5.48xlarge": 64}`), which the export
//!   writes; without it, the sum of the quotas per type.
//! - What AWS cannot express is a warning with its document and field path, never dropped in
//!   silence: a partial `lendingLimit`, hierarchical cohorts, fair-sharing weights, several
//!   cohorts, resources other than GPUs, ClusterQueues without a cohort (they can neither lend
//!   nor borrow: `RESERVE`).

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::{json, Map, Value};

use crate::import_check::{settle, Capped, Names, Origin, Origins};
use crate::model::{
    CapacityLimit, InstanceTypeInfo, QuotaShare, Scenario, ServiceEnvironment, ShareState, Strategy, Toggle,
    GPU_CATALOGUE,
};
use crate::problem::Problem;
use crate::validate::{valid_job_name, MAX_SAFE};

/// The GPU resource name.
pub const GPU: &str = "nvidia.com/gpu";
/// The node label naming an instance type.
pub const TYPE_LABEL: &str = "node.kubernetes.io/instance-type";
/// The node label with a node's GPU count.
pub const GPU_LABEL: &str = "nvidia.com/gpu.count";
/// The Cohort annotation with the service environment's capacity per instance type.
pub const CAPACITY_ANNOTATION: &str = "quotasim.dev/service-environment-capacity";
/// The ClusterQueue annotation with its quota share's name, where the queue's own name had to
/// differ (a Kubernetes name is lower case, `_` is not allowed, and names must not collide).
pub const SHARE_ANNOTATION: &str = "quotasim.dev/quota-share-name";

/// One parsed YAML document: its file, its position in the file (from 0) and its content.
#[derive(Clone, Debug, PartialEq)]
pub struct Document {
    pub file: String,
    pub index: usize,
    pub value: Value,
}

/// An import: the scenario, its warnings, and what was recognised (`"3 ClusterQueues"`, ...).
#[derive(Clone, Debug, PartialEq)]
pub struct Imported {
    pub scenario: Scenario,
    pub warnings: Vec<Problem>,
    pub recognised: Vec<String>,
}

fn at(d: &Document, path: &str) -> String {
    format!("{} document {}: {path}", d.file, d.index + 1)
}

/// A Kubernetes quantity as a number (`16`, `"16"`, `"1.5"`, `"2k"`); `None` if it is not one.
pub fn quantity(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => {
            let s = s.trim();
            let (num, mult) = match s.char_indices().find(|(_, c)| c.is_ascii_alphabetic()) {
                Some((i, _)) => {
                    let m = match &s[i..] {
                        "k" => 1e3,
                        "M" => 1e6,
                        "G" => 1e9,
                        "Ki" => 1024.0,
                        "Mi" => 1024.0 * 1024.0,
                        "m" => 1e-3,
                        _ => return None,
                    };
                    (&s[..i], m)
                }
                None => (s, 1.0),
            };
            num.parse::<f64>().ok().map(|x| x * mult)
        }
        _ => None,
    }
}

fn gpus_of_type(name: &str, s_types: &[InstanceTypeInfo]) -> Option<i64> {
    s_types
        .iter()
        .find(|t| t.name == name && t.gpus > 0)
        .map(|t| t.gpus)
        .or_else(|| GPU_CATALOGUE.iter().find(|(n, _)| *n == name).map(|(_, g)| *g))
}

struct Flavor {
    instance_type: String,
    gpus: Option<i64>,
}

/// Problems of an import, at most [`crate::import_check::MAX_PER_FILE`] warnings and as many
/// errors listed per file, the rest counted: a file of a million documents gives a few dozen
/// lines.
#[derive(Default)]
struct Problems {
    warnings: Capped,
    errors: Capped,
}

impl Problems {
    fn warn(&mut self, d: &Document, path: &str, message: impl Into<String>) {
        self.warnings.push_with(&d.file, "warnings", false, || Problem::warning(at(d, path), message));
    }
    fn error(&mut self, d: &Document, path: &str, message: impl Into<String>) {
        self.errors.push_with(&d.file, "errors", true, || Problem::error(at(d, path), message));
    }
}

/// A quantity of GPUs within 0..=2^53 - 1, or why not.
fn gpu_quantity(v: &Value) -> Result<f64, &'static str> {
    match quantity(v) {
        Some(q) if (0.0..=MAX_SAFE as f64).contains(&q) => Ok(q),
        Some(_) => Err("a quantity from 0 to 2^53 - 1 GPUs is needed"),
        None => Err("not a quantity"),
    }
}

/// Maps Kueue documents to a scenario; `gpus_per_instance` is used for flavors whose node
/// labels do not say. Every problem names its file, document and field; documents that
/// cannot be used are skipped with a warning, and only nothing usable at all is an error.
///
/// A ClusterQueue's share is named by its `quotasim.dev/quota-share-name` annotation (what the
/// export writes when the share's name is not a Kubernetes name), else by its own name, made a
/// valid share name (`.` becomes `-`) and unique. The scenario is valid: what validation would
/// refuse is skipped at its document ([`crate::import_check::settle`]).
pub fn import(docs: &[Document], gpus_per_instance: Option<i64>) -> Result<Imported, Vec<Problem>> {
    let mut p = Problems::default();
    let mut flavors: BTreeMap<String, Flavor> = BTreeMap::new();
    let mut counts: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut cohorts: Vec<(String, &Document)> = Vec::new();
    let mut queues: Vec<&Document> = Vec::new();
    for d in docs {
        if d.value.is_null() {
            continue;
        }
        let kind = d.value.get("kind").and_then(Value::as_str).unwrap_or("");
        let name = d.value.pointer("/metadata/name").and_then(Value::as_str).map(String::from);
        let api = d.value.get("apiVersion").and_then(Value::as_str).unwrap_or("");
        let known = matches!(
            kind,
            "ResourceFlavor" | "ClusterQueue" | "Cohort" | "LocalQueue" | "WorkloadPriorityClass"
        );
        if !known {
            p.warn(d, "kind", format!("a {kind:?} is not a Kueue object this import reads; skipped"));
            continue;
        }
        if !api.starts_with("kueue.x-k8s.io/") {
            p.warn(d, "apiVersion", format!("{api:?} is not kueue.x-k8s.io; read as Kueue anyway"));
        }
        let Some(name) = name else {
            p.error(d, "metadata.name", format!("a {kind} needs metadata.name"));
            continue;
        };
        *counts
            .entry(match kind {
                "ResourceFlavor" => "ResourceFlavors",
                "ClusterQueue" => "ClusterQueues",
                "Cohort" => "Cohorts",
                "LocalQueue" => "LocalQueues",
                _ => "WorkloadPriorityClasses",
            })
            .or_default() += 1;
        match kind {
            "ResourceFlavor" => {
                let labels = d.value.pointer("/spec/nodeLabels");
                let instance_type = labels
                    .and_then(|l| l.get(TYPE_LABEL))
                    .and_then(Value::as_str)
                    .map_or_else(|| name.clone(), String::from);
                let gpus = match labels.and_then(|l| l.get(GPU_LABEL)) {
                    None => None,
                    Some(v) => match quantity(v) {
                        Some(g) if g >= 1.0 && g <= MAX_SAFE as f64 && libm::floor(g) == g => Some(g as i64),
                        _ => {
                            p.warn(
                                d,
                                &format!("spec.nodeLabels.{GPU_LABEL}"),
                                "not a whole number of GPUs; ignored",
                            );
                            None
                        }
                    },
                };
                flavors.insert(name, Flavor { instance_type, gpus });
            }
            "Cohort" => {
                if d.value.pointer("/spec/parentName").is_some() || d.value.pointer("/spec/parent").is_some()
                {
                    p.warn(
                        d,
                        "spec.parentName",
                        "hierarchical cohorts have no AWS equivalent: the hierarchy is flattened into one job queue",
                    );
                }
                if d.value.pointer("/spec/resourceGroups").is_some() {
                    p.warn(
                        d,
                        "spec.resourceGroups",
                        "quota held by a cohort itself has no AWS equivalent; ignored",
                    );
                }
                if d.value.pointer("/spec/fairSharing").is_some() {
                    p.warn(d, "spec.fairSharing", "fair-sharing weights have no AWS equivalent; ignored");
                }
                cohorts.push((name, d));
            }
            "ClusterQueue" => queues.push(d),
            _ => {}
        }
    }

    // Share names: the annotation's, else the queue's own; valid and unique.
    let wanted_of = |d: &Document| -> String {
        let annotated = d
            .value
            .pointer("/metadata/annotations")
            .and_then(|a| a.get(SHARE_ANNOTATION))
            .and_then(Value::as_str)
            .filter(|n| valid_job_name(n));
        let own = d.value.pointer("/metadata/name").and_then(Value::as_str).unwrap_or_default();
        annotated.unwrap_or(own).to_string()
    };
    let mut names = Names::default();
    for d in &queues {
        names.reserve(&wanted_of(d));
    }
    let mut shares: Vec<QuotaShare> = Vec::new();
    let mut share_origins: Vec<Origin> = Vec::new();
    let mut types: Vec<InstanceTypeInfo> = Vec::new();
    let mut type_origins: Vec<Origin> = Vec::new();
    let mut type_index: BTreeMap<String, usize> = BTreeMap::new();
    let mut cohort_names: Vec<String> = Vec::new();
    let mut cohort_set: alloc::collections::BTreeSet<String> = alloc::collections::BTreeSet::new();
    let mut files: Vec<String> = Vec::new();
    let mut file_index: BTreeMap<&str, usize> = BTreeMap::new();
    for d in docs {
        if !file_index.contains_key(d.file.as_str()) {
            file_index.insert(d.file.as_str(), files.len());
            files.push(d.file.clone());
        }
    }
    let origin = |d: &Document| Origin {
        file: file_index.get(d.file.as_str()).copied().unwrap_or(usize::MAX),
        at: format!("{} document {}", d.file, d.index + 1),
    };
    for d in queues {
        let wanted = wanted_of(d);
        let name = names.give(&wanted);
        if name != wanted {
            let why = if valid_job_name(&wanted) {
                "is taken by another quota share"
            } else {
                "is not a quota share name"
            };
            p.warn(d, "metadata.name", format!("{wanted:?} {why}: the share is named {name}"));
        }
        let spec = d.value.get("spec").unwrap_or(&Value::Null);
        let cohort = spec.get("cohortName").or_else(|| spec.get("cohort")).and_then(Value::as_str);
        match cohort {
            Some(c) if cohort_set.insert(c.to_string()) => cohort_names.push(c.to_string()),
            Some(_) => {}
            None => p.warn(
                d,
                "spec.cohortName",
                format!("{name} is in no cohort: it can neither lend nor borrow, so it is RESERVE"),
            ),
        }
        if spec.get("fairSharing").is_some() {
            p.warn(d, "spec.fairSharing", "fair-sharing weights have no AWS equivalent; ignored");
        }
        let mut limits: Vec<CapacityLimit> = Vec::new();
        // The limit of each instance type so far, and the flavors seen: a flavor listed again
        // (a YAML alias repeated) is ignored, and another flavor of the same instance type adds
        // to its limit, each in one step, however many there are.
        let mut limit_of: BTreeMap<String, usize> = BTreeMap::new();
        let mut seen_flavors: alloc::collections::BTreeSet<&str> = alloc::collections::BTreeSet::new();
        // (nominal GPUs, borrowing, lending, gpus per instance) per flavor with GPUs.
        let mut terms: Vec<(f64, Option<f64>, Option<f64>, i64)> = Vec::new();
        let groups = spec.get("resourceGroups").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
        for (gi, g) in groups.iter().enumerate() {
            let fl = g.get("flavors").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
            for (fi, f) in fl.iter().enumerate() {
                let fpath = format!("spec.resourceGroups[{gi}].flavors[{fi}]");
                let Some(fname) = f.get("name").and_then(Value::as_str) else {
                    p.error(d, &format!("{fpath}.name"), "a flavor needs a name");
                    continue;
                };
                if !seen_flavors.insert(fname) {
                    p.warn(
                        d,
                        &format!("{fpath}.name"),
                        format!(
                            "flavor {fname} is listed again: a ClusterQueue takes each flavor once; ignored"
                        ),
                    );
                    continue;
                }
                let (ty, label_gpus) = match flavors.get(fname) {
                    Some(x) => (x.instance_type.clone(), x.gpus),
                    None => {
                        p.warn(
                            d,
                            &format!("{fpath}.name"),
                            format!(
                                "no ResourceFlavor is named {fname}: its name is taken as the instance type"
                            ),
                        );
                        (fname.to_string(), None)
                    }
                };
                let res = f.get("resources").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
                for (ri, r) in res.iter().enumerate() {
                    let rpath = format!("{fpath}.resources[{ri}]");
                    let rname = r.get("name").and_then(Value::as_str).unwrap_or("");
                    if rname != GPU {
                        p.warn(
                            d,
                            &format!("{rpath}.name"),
                            format!("{rname:?} is not {GPU}: AWS quota shares count instances by GPU type; ignored"),
                        );
                        continue;
                    }
                    let nominal = match r.get("nominalQuota").map(gpu_quantity) {
                        Some(Ok(n)) => n,
                        Some(Err(why)) if why != "not a quantity" => {
                            p.error(d, &format!("{rpath}.nominalQuota"), why);
                            continue;
                        }
                        _ => {
                            p.error(
                                d,
                                &format!("{rpath}.nominalQuota"),
                                "a quantity of at least 0 is needed",
                            );
                            continue;
                        }
                    };
                    let gpus = label_gpus
                        .or(gpus_per_instance)
                        .or_else(|| gpus_of_type(&ty, &[]))
                        .unwrap_or(1)
                        .max(1);
                    let inst = libm::floor(nominal / gpus as f64);
                    if inst * gpus as f64 != nominal {
                        p.warn(
                            d,
                            &format!("{rpath}.nominalQuota"),
                            format!("{nominal} GPUs is not a whole number of {gpus}-GPU instances: rounded down to {inst}"),
                        );
                    }
                    if !type_index.contains_key(&ty) {
                        type_index.insert(ty.clone(), types.len());
                        types.push(InstanceTypeInfo { name: ty.clone(), gpus, price_per_hour: None });
                        type_origins.push(origin(d));
                    }
                    match limit_of.get(&ty) {
                        Some(&k) => {
                            p.warn(
                                d,
                                &format!("{fpath}.name"),
                                format!("flavor {fname} is instance type {ty} again: its {inst} instances are added to that type's quota"),
                            );
                            let m = &mut limits[k].max_capacity;
                            *m = m.saturating_add(inst as i64);
                        }
                        None => {
                            limit_of.insert(ty.clone(), limits.len());
                            limits.push(CapacityLimit::new(&ty, inst as i64));
                        }
                    }
                    let mut get = |k: &str| -> Option<f64> {
                        match gpu_quantity(r.get(k)?) {
                            Ok(q) => Some(q),
                            Err(why) => {
                                p.error(d, &format!("{rpath}.{k}"), why);
                                None
                            }
                        }
                    };
                    let (b, l) = (get("borrowingLimit"), get("lendingLimit"));
                    if let Some(l) = l {
                        if l > 0.0 && l < nominal {
                            p.warn(
                                d,
                                &format!("{rpath}.lendingLimit"),
                                format!("lending only {l} of {nominal} GPUs has no AWS equivalent: the share lends all its idle quota"),
                            );
                        }
                    }
                    terms.push((nominal, b, l, gpus));
                }
            }
        }
        // One strategy per share (AWS has one); a borrow limit that gives every flavor its
        // allowance back: floor(quota × limit ÷ 100) = the borrowing limit in instances.
        let kind = |(_, b, l, _): &(f64, Option<f64>, Option<f64>, i64)| match (b, l) {
            (Some(b), Some(l)) if *b == 0.0 && *l == 0.0 => 0,
            (Some(b), _) if *b == 0.0 => 1,
            (None, _) => 2,
            (Some(_), _) => 3,
        };
        let first = terms.first().map(kind).unwrap_or(0);
        if terms.iter().any(|t| kind(t) != first) {
            p.warn(
                d,
                "spec.resourceGroups",
                format!("{name}'s flavors share differently; AWS has one strategy per share: the first flavor's is used"),
            );
        }
        let (mut strategy, mut borrow_limit) = match first {
            0 => (Strategy::Reserve, None),
            1 => (Strategy::Lend, None),
            2 => (Strategy::LendAndBorrow, Some(-1)),
            _ => {
                // Instances of quota and of borrowing per flavor with a limit (each at most
                // 2^53 - 1, so 100 times one fits).
                let pairs: Vec<(i64, i64)> = terms
                    .iter()
                    .filter(|t| kind(t) == 3)
                    .map(|(n, b, _, g)| {
                        (libm::floor(n / *g as f64) as i64, libm::floor(b.unwrap_or(0.0) / *g as f64) as i64)
                    })
                    .filter(|(q, _)| *q > 0)
                    .collect();
                let lo = pairs.iter().map(|(q, b)| (100 * b + q - 1) / q).max().unwrap_or(0);
                let hi = pairs.iter().map(|(q, b)| (100 * (b + 1) + q - 1) / q - 1).min().unwrap_or(lo);
                if pairs.is_empty() {
                    (Strategy::LendAndBorrow, Some(-1))
                } else {
                    if lo > hi {
                        p.warn(
                            d,
                            "spec.resourceGroups",
                            format!("{name} borrows a different fraction of each flavor; AWS has one borrowLimit: {lo} %"),
                        );
                    }
                    (Strategy::LendAndBorrow, Some(lo))
                }
            }
        };
        if terms.iter().any(|(_, b, l, _)| *l == Some(0.0) && *b != Some(0.0))
            && strategy == Strategy::LendAndBorrow
        {
            p.warn(
                d,
                "spec.resourceGroups",
                format!("{name} borrows but never lends (lendingLimit: 0): AWS has no such strategy; LEND_AND_BORROW"),
            );
        }
        if cohort.is_none() {
            strategy = Strategy::Reserve;
            borrow_limit = None;
        }
        let mut q = QuotaShare::new(&name, strategy, limits);
        q.resource_sharing_configuration.borrow_limit = borrow_limit;
        let within =
            spec.pointer("/preemption/withinClusterQueue").and_then(Value::as_str).unwrap_or("Never");
        if matches!(within, "LowerPriority" | "LowerOrNewerEqualPriority") {
            q.preemption_configuration.in_share_preemption = Toggle::Enabled;
        }
        if matches!(spec.get("stopPolicy").and_then(Value::as_str), Some("Hold" | "HoldAndDrain")) {
            q.state = ShareState::Disabled;
        }
        if q.capacity_limits.is_empty() {
            p.warn(d, "spec.resourceGroups", format!("{name} has no {GPU} quota"));
        }
        shares.push(q);
        share_origins.push(origin(d));
    }
    if cohort_names.len() > 1 {
        p.warnings.push_general(Problem::warning(
            "cohorts",
            format!(
                "{} cohorts ({}): AWS quota shares lend within one job queue, so they are imported as one",
                cohort_names.len(),
                cohort_names.join(", ")
            ),
        ));
    }
    // The service environment: the cohort's annotation, else the quotas' sum.
    let mut capacity: Vec<CapacityLimit> = Vec::new();
    let mut se_name = cohort_names.first().cloned();
    let mut se_origin = Origin { file: usize::MAX, at: "serviceEnvironment".into() };
    for (cname, d) in &cohorts {
        if let Some(text) = d
            .value
            .pointer("/metadata/annotations")
            .and_then(|a| a.get(CAPACITY_ANNOTATION))
            .and_then(Value::as_str)
        {
            match serde_json::from_str::<Map<String, Value>>(text) {
                Ok(m) => {
                    se_name = Some(cname.clone());
                    se_origin = origin(d);
                    for (ty, v) in m {
                        match v.as_i64().filter(|x| (0..=MAX_SAFE).contains(x)) {
                            Some(n) => capacity.push(CapacityLimit::new(&ty, n)),
                            None => p.error(
                                d,
                                &format!("metadata.annotations.{CAPACITY_ANNOTATION}.{ty}"),
                                "a whole number of instances from 0 to 2^53 - 1 is needed",
                            ),
                        }
                    }
                }
                Err(e) => p.error(
                    d,
                    &format!("metadata.annotations.{CAPACITY_ANNOTATION}"),
                    format!("not a JSON object of instance counts ({e})"),
                ),
            }
        }
    }
    if capacity.is_empty() {
        let mut total: BTreeMap<&str, i64> = BTreeMap::new();
        for l in shares.iter().flat_map(|q| q.capacity_limits.iter()) {
            let t = total.entry(l.capacity_unit.as_str()).or_default();
            *t = t.saturating_add(l.max_capacity);
        }
        for t in &types {
            capacity.push(CapacityLimit::new(&t.name, total.get(t.name.as_str()).copied().unwrap_or(0)));
        }
    }
    if shares.is_empty() {
        p.errors.push_general(Problem::error("", "no ClusterQueue found: nothing to make quota shares of"));
    }
    let errors = p.errors.finish();
    let mut warnings = p.warnings.finish();
    if !errors.is_empty() {
        let mut all = errors;
        all.extend(warnings);
        return Err(all);
    }
    let recognised = counts.iter().map(|(k, n)| format!("{n} {k}")).collect();
    let mut scenario = Scenario {
        name: Some(format!("imported from Kueue ({} quota shares)", shares.len())),
        instance_types: types,
        service_environment: ServiceEnvironment {
            service_environment_name: se_name,
            capacity_limits: capacity,
            ..ServiceEnvironment::default()
        },
        quota_shares: shares,
        ..Scenario::default()
    };
    // Whatever validation would still refuse is skipped (or fixed) at its document.
    let mut origins = Origins {
        files,
        shares: share_origins,
        jobs: Vec::new(),
        instance_types: type_origins,
        service_environment: se_origin,
    };
    let mut settled = Capped::default();
    let ok = settle(&mut scenario, &mut origins, &mut settled);
    let settled = settled.finish();
    if ok.is_err() || settled.iter().any(Problem::is_error) {
        warnings.extend(settled);
        return Err(warnings);
    }
    warnings.extend(settled);
    scenario.name = Some(format!("imported from Kueue ({} quota shares)", scenario.quota_shares.len()));
    Ok(Imported { scenario, warnings, recognised })
}

/// A Kubernetes object name from an instance type or a share name: lower case, `-` for
/// anything but letters, digits, `-` and `.`, each `.`-separated part starting and ending with
/// a letter or digit, at most 63 characters, `x` for nothing. A name that already is one is
/// kept as it is.
pub fn k8s_name(s: &str) -> String {
    if is_k8s_name(s) {
        return s.to_string();
    }
    let mapped: String = s
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '.' || c == '-' { c.to_ascii_lowercase() } else { '-' })
        .collect();
    // Each part between dots trimmed of `-` at its ends; empty parts dropped.
    let parts: Vec<&str> = mapped.split('.').map(|p| p.trim_matches('-')).filter(|p| !p.is_empty()).collect();
    let mut out = parts.join(".");
    out.truncate(63);
    while out.ends_with(['-', '.']) {
        out.pop();
    }
    if out.is_empty() {
        out.push('x');
    }
    out
}

/// Whether `s` is a Kubernetes object name (an RFC 1123 subdomain of at most 63 characters):
/// lower-case letters, digits, `-` and `.`, each `.`-separated part starting and ending with
/// a letter or digit.
pub fn is_k8s_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 63
        && s.split('.').all(|p| {
            !p.is_empty()
                && p.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                && !p.starts_with('-')
                && !p.ends_with('-')
        })
}

/// Kubernetes names for `names`, valid and unique: a name that already is one is kept; another
/// becomes its [`k8s_name`]; when names would share one, each that was changed gets `-` and the
/// first 8 hex digits of the SHA-256 of its own name (the name cut to make room), so the
/// suffix depends on the name alone, never on the order; `-2`, `-3` ... if still taken.
pub fn k8s_names(names: &[&str]) -> Vec<String> {
    use sha2::{Digest, Sha256};
    let base: Vec<String> = names.iter().map(|n| k8s_name(n)).collect();
    let mut count: BTreeMap<&str, usize> = BTreeMap::new();
    for b in &base {
        *count.entry(b.as_str()).or_default() += 1;
    }
    let kept: alloc::collections::BTreeSet<&str> =
        names.iter().zip(&base).filter(|(n, b)| **n == b.as_str()).map(|(n, _)| *n).collect();
    let fit = |stem: &str, suffix: &str| {
        let mut stem = String::from(stem);
        while stem.len() + suffix.len() > 63 {
            stem.pop();
        }
        while stem.ends_with(['-', '.']) {
            stem.pop();
        }
        stem + suffix
    };
    let mut taken: alloc::collections::BTreeSet<String> = alloc::collections::BTreeSet::new();
    let mut out = Vec::with_capacity(names.len());
    for (n, b) in names.iter().zip(&base) {
        let changed = *n != b.as_str();
        let mut name = if changed && (count[b.as_str()] > 1 || kept.contains(b.as_str())) {
            let h = Sha256::digest(n.as_bytes());
            let hex: String = h.iter().take(4).map(|x| format!("{x:02x}")).collect();
            fit(b, &format!("-{hex}"))
        } else {
            b.clone()
        };
        let mut k = 2;
        while taken.contains(&name) {
            name = fit(b, &format!("-{k}"));
            k += 1;
        }
        taken.insert(name.clone());
        out.push(name);
    }
    out
}

/// A quantity in Kueue's YAML: a number up to 2^53 - 1, else its digits as a string (a
/// Kubernetes quantity may be either), so that no number in the output passes 2^53 - 1.
fn kueue_quantity(n: i128) -> Value {
    match i64::try_from(n) {
        Ok(x) if (-MAX_SAFE..=MAX_SAFE).contains(&x) => x.into(),
        _ => Value::String(format!("{n}")),
    }
}

/// The Kueue objects of a scenario: a Cohort (with the service environment's capacity as an
/// annotation), a ResourceFlavor per instance type and a ClusterQueue per quota share, all
/// `kueue.x-k8s.io/v1beta2`; warnings for what Kueue reads differently. Names are valid and
/// unique ([`k8s_names`]); a ClusterQueue whose name is not its share's carries the share's
/// name in the `quotasim.dev/quota-share-name` annotation, which the import reads back.
pub fn export(s: &Scenario) -> (Vec<Value>, Vec<Problem>) {
    let mut warnings = Vec::new();
    let cohort = k8s_name(s.service_environment.service_environment_name.as_deref().unwrap_or("quotasim"));
    let api = "kueue.x-k8s.io/v1beta2";
    let mut cap = Map::new();
    for l in &s.service_environment.capacity_limits {
        cap.insert(l.capacity_unit.clone(), l.max_capacity.into());
    }
    let mut docs = Vec::new();
    let mut ann = Map::new();
    ann.insert(CAPACITY_ANNOTATION.into(), Value::String(crate::json::to_json(&Value::Object(cap))));
    docs.push(json!({"apiVersion": api, "kind": "Cohort", "metadata": {"name": cohort, "annotations": Value::Object(ann)}, "spec": {}}));
    let mut types: Vec<&str> = Vec::new();
    let mut seen: alloc::collections::BTreeSet<&str> = alloc::collections::BTreeSet::new();
    for q in &s.quota_shares {
        for l in &q.capacity_limits {
            if seen.insert(l.capacity_unit.as_str()) {
                types.push(&l.capacity_unit);
            }
        }
    }
    let flavor_names: BTreeMap<&str, String> = types.iter().copied().zip(k8s_names(&types)).collect();
    let flavor = |ty: &str| flavor_names.get(ty).cloned().unwrap_or_else(|| k8s_name(ty));
    let gpus = |ty: &str| gpus_of_type(ty, &s.instance_types);
    for ty in &types {
        let g = gpus(ty).unwrap_or_else(|| {
            warnings.push(Problem::warning(
                format!("instanceTypes.{ty}"),
                format!("GPUs per instance of {ty} are not known: exported as 1 (give instanceTypes[].gpus)"),
            ));
            1
        });
        docs.push(json!({
            "apiVersion": api, "kind": "ResourceFlavor",
            "metadata": {"name": flavor(ty)},
            "spec": {"nodeLabels": {TYPE_LABEL: ty, GPU_LABEL: g.to_string()}}
        }));
    }
    let share_names: Vec<&str> = s.quota_shares.iter().map(|q| q.quota_share_name.as_str()).collect();
    let queue_names = k8s_names(&share_names);
    for ((i, q), name) in s.quota_shares.iter().enumerate().zip(queue_names) {
        let r = &q.resource_sharing_configuration;
        let flavors: Vec<Value> = q
            .capacity_limits
            .iter()
            .map(|l| {
                let g = i128::from(gpus(&l.capacity_unit).unwrap_or(1));
                let m = i128::from(l.max_capacity);
                let mut res = Map::new();
                res.insert("name".into(), GPU.into());
                res.insert("nominalQuota".into(), kueue_quantity(m * g));
                match r.strategy {
                    Strategy::Reserve => {
                        res.insert("borrowingLimit".into(), 0.into());
                        res.insert("lendingLimit".into(), 0.into());
                    }
                    Strategy::Lend => {
                        res.insert("borrowingLimit".into(), 0.into());
                    }
                    Strategy::LendAndBorrow => match r.borrow_limit.unwrap_or(-1) {
                        -1 => {}
                        p => {
                            res.insert("borrowingLimit".into(), kueue_quantity(m * i128::from(p) / 100 * g));
                        }
                    },
                }
                json!({"name": flavor(&l.capacity_unit), "resources": [Value::Object(res)]})
            })
            .collect();
        let within = if q.preemption_configuration.in_share_preemption == Toggle::Enabled {
            "LowerPriority"
        } else {
            "Never"
        };
        let mut spec = json!({
            "cohortName": cohort,
            "namespaceSelector": {},
            "resourceGroups": [{"coveredResources": [GPU], "flavors": flavors}],
            "preemption": {"withinClusterQueue": within, "reclaimWithinCohort": "Any"},
        });
        if q.state == ShareState::Disabled {
            spec["stopPolicy"] = "Hold".into();
        }
        let mut metadata = json!({"name": name});
        if name != q.quota_share_name {
            warnings.push(Problem::warning(
                format!("quotaShares[{i}].quotaShareName"),
                format!("{} is not a Kubernetes name: exported as {name}", q.quota_share_name),
            ));
            metadata["annotations"] = json!({SHARE_ANNOTATION: q.quota_share_name});
        }
        docs.push(json!({"apiVersion": api, "kind": "ClusterQueue", "metadata": metadata, "spec": spec}));
    }
    (docs, warnings)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(i: usize, v: Value) -> Document {
        Document { file: "q.yaml".into(), index: i, value: v }
    }

    fn cq(name: &str, res: Value, within: &str) -> Value {
        json!({"apiVersion": "kueue.x-k8s.io/v1beta1", "kind": "ClusterQueue", "metadata": {"name": name},
               "spec": {"cohort": "org", "preemption": {"withinClusterQueue": within},
                        "resourceGroups": [{"coveredResources": [GPU], "flavors": [{"name": "p5", "resources": [res]}]}]}})
    }

    fn flavor() -> Value {
        json!({"apiVersion": "kueue.x-k8s.io/v1beta1", "kind": "ResourceFlavor", "metadata": {"name": "p5"},
               "spec": {"nodeLabels": {TYPE_LABEL: "ml.p5.48xlarge", GPU_LABEL: "8"}}})
    }

    #[test]
    fn the_strategy_table() {
        let cases = [
            (
                json!({"name": GPU, "nominalQuota": 32, "borrowingLimit": 0, "lendingLimit": 0}),
                Strategy::Reserve,
                None,
            ),
            (json!({"name": GPU, "nominalQuota": 32, "borrowingLimit": 0}), Strategy::Lend, None),
            (json!({"name": GPU, "nominalQuota": 32}), Strategy::LendAndBorrow, Some(-1)),
            (
                json!({"name": GPU, "nominalQuota": "32", "borrowingLimit": "16"}),
                Strategy::LendAndBorrow,
                Some(50),
            ),
            (json!({"name": GPU, "nominalQuota": 32, "lendingLimit": 0}), Strategy::LendAndBorrow, Some(-1)),
        ];
        for (k, (res, st, bl)) in cases.into_iter().enumerate() {
            let r = import(&[doc(0, flavor()), doc(1, cq("a", res, "Never"))], None).unwrap();
            let q = &r.scenario.quota_shares[0];
            assert_eq!(
                (q.resource_sharing_configuration.strategy, q.resource_sharing_configuration.borrow_limit),
                (st, bl),
                "case {k}"
            );
            assert_eq!(q.capacity_limits[0], CapacityLimit::new("ml.p5.48xlarge", 4));
            if k == 4 {
                assert!(r.warnings.iter().any(|w| w.message.contains("never lends")), "{:?}", r.warnings);
            }
        }
    }

    #[test]
    fn rounding_and_unsupported_features_warn_with_document_and_path() {
        let mut q = cq("a", json!({"name": GPU, "nominalQuota": 20, "lendingLimit": 8}), "LowerPriority");
        q["spec"]["fairSharing"] = json!({"weight": 2});
        let mut c = json!({"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Cohort", "metadata": {"name": "org"},
                          "spec": {"parentName": "root"}});
        c["spec"]["fairSharing"] = json!({"weight": 1});
        let r = import(&[doc(0, flavor()), doc(1, q), doc(2, c)], None).unwrap();
        let paths: Vec<&str> = r.warnings.iter().map(|w| w.path.as_str()).collect();
        for want in [
            "q.yaml document 2: spec.resourceGroups[0].flavors[0].resources[0].nominalQuota",
            "q.yaml document 2: spec.resourceGroups[0].flavors[0].resources[0].lendingLimit",
            "q.yaml document 2: spec.fairSharing",
            "q.yaml document 3: spec.parentName",
            "q.yaml document 3: spec.fairSharing",
        ] {
            assert!(paths.contains(&want), "{want} missing from {paths:?}");
        }
        assert_eq!(r.scenario.quota_shares[0].capacity_limits[0].max_capacity, 2);
        assert_eq!(r.scenario.quota_shares[0].preemption_configuration.in_share_preemption, Toggle::Enabled);
    }

    #[test]
    fn gpus_per_instance_come_from_labels_else_the_flag() {
        let f = json!({"apiVersion": "kueue.x-k8s.io/v1beta1", "kind": "ResourceFlavor", "metadata": {"name": "p5"}, "spec": {}});
        let r =
            import(&[doc(0, f), doc(1, cq("a", json!({"name": GPU, "nominalQuota": 32}), "Never"))], Some(4))
                .unwrap();
        assert_eq!(r.scenario.quota_shares[0].capacity_limits[0], CapacityLimit::new("p5", 8));
    }

    #[test]
    fn broken_documents_are_reported_all_at_once() {
        let bad = json!({"apiVersion": "kueue.x-k8s.io/v1beta1", "kind": "ClusterQueue", "metadata": {"name": "a"},
                        "spec": {"cohort": "org", "resourceGroups": [{"flavors": [{"name": "p5", "resources": [{"name": GPU, "nominalQuota": "lots"}]}, {"resources": []}]}]}});
        let e = import(
            &[doc(0, bad), doc(1, json!({"kind": "ClusterQueue"})), doc(2, json!({"kind": "Pod"}))],
            None,
        )
        .unwrap_err();
        let paths: Vec<&str> = e.iter().map(|w| w.path.as_str()).collect();
        assert!(
            paths.contains(&"q.yaml document 1: spec.resourceGroups[0].flavors[0].resources[0].nominalQuota"),
            "{paths:?}"
        );
        assert!(paths.contains(&"q.yaml document 1: spec.resourceGroups[0].flavors[1].name"), "{paths:?}");
        assert!(paths.contains(&"q.yaml document 2: metadata.name"), "{paths:?}");
        assert!(paths.contains(&"q.yaml document 3: kind"), "{paths:?}");
    }
}
