//! Mapping each ClusterQueue to a quota share: its name (the annotation's, else its own; valid
//! and unique), its GPU quota per flavor in whole instances, one strategy and borrow limit from
//! its borrowing and lending limits, in-share preemption and its stop policy. The second of an
//! import's three stages (read, map, assemble).

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::Value;

use super::k8s::{gpus_of_type, GPU, SHARE_ANNOTATION};
use super::read::{gpu_quantity, Document, Problems, Read};
use crate::import_check::{Names, Origin};
use crate::model::{CapacityLimit, InstanceTypeInfo, QuotaShare, ShareState, Strategy, Toggle};

/// The shares, in the queues' order, with the instance types they use and the cohorts named.
#[derive(Default)]
pub(super) struct Mapped {
    pub shares: Vec<QuotaShare>,
    pub share_origins: Vec<Origin>,
    pub types: Vec<InstanceTypeInfo>,
    pub type_origins: Vec<Origin>,
    type_index: BTreeMap<String, usize>,
    pub cohort_names: Vec<String>,
    cohort_set: BTreeSet<String>,
}

/// One flavor's GPU terms: nominal GPUs, borrowing and lending limits, GPUs per instance.
type Term = (f64, Option<f64>, Option<f64>, i64);

/// The share name a queue asks for: its annotation's, else its own name.
fn wanted_of(d: &Document) -> String {
    let annotated = d
        .value
        .pointer("/metadata/annotations")
        .and_then(|a| a.get(SHARE_ANNOTATION))
        .and_then(Value::as_str)
        .filter(|n| crate::validate::valid_job_name(n));
    let own = d.value.pointer("/metadata/name").and_then(Value::as_str).unwrap_or_default();
    annotated.unwrap_or(own).to_string()
}

/// Every queue's share; `gpus_per_instance` for flavors whose node labels do not say.
pub(super) fn map(r: &Read, gpus_per_instance: Option<i64>, p: &mut Problems) -> Mapped {
    let mut names = Names::default();
    for d in &r.queues {
        names.reserve(&wanted_of(d));
    }
    let mut m = Mapped::default();
    for d in &r.queues {
        let wanted = wanted_of(d);
        let name = names.give(&wanted);
        if name != wanted {
            let why = if crate::validate::valid_job_name(&wanted) {
                "is taken by another quota share"
            } else {
                "is not a quota share name"
            };
            p.warn(d, "metadata.name", format!("{wanted:?} {why}: the share is named {name}"));
        }
        let q = m.share(r, d, &name, gpus_per_instance, p);
        m.shares.push(q);
        m.share_origins.push(r.files.origin(d));
    }
    m
}

impl Mapped {
    /// One ClusterQueue's share.
    fn share(
        &mut self,
        r: &Read,
        d: &Document,
        name: &str,
        gpus_per_instance: Option<i64>,
        p: &mut Problems,
    ) -> QuotaShare {
        let spec = d.value.get("spec").unwrap_or(&Value::Null);
        let cohort = spec.get("cohortName").or_else(|| spec.get("cohort")).and_then(Value::as_str);
        match cohort {
            Some(c) if self.cohort_set.insert(c.to_string()) => self.cohort_names.push(c.to_string()),
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
        let (limits, terms) = self.limits(r, d, spec, gpus_per_instance, p);
        let (mut strategy, mut borrow_limit) = sharing(d, name, &terms, p);
        if cohort.is_none() {
            strategy = Strategy::Reserve;
            borrow_limit = None;
        }
        let mut q = QuotaShare::new(name, strategy, limits);
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
        q
    }

    /// A queue's GPU quota per instance type (whole instances), and each flavor's terms.
    fn limits(
        &mut self,
        r: &Read,
        d: &Document,
        spec: &Value,
        gpus_per_instance: Option<i64>,
        p: &mut Problems,
    ) -> (Vec<CapacityLimit>, Vec<Term>) {
        let mut limits: Vec<CapacityLimit> = Vec::new();
        // The limit of each instance type so far, and the flavors seen: a flavor listed again
        // (a YAML alias repeated) is ignored, and another flavor of the same instance type adds
        // to its limit, each in one step, however many there are.
        let mut limit_of: BTreeMap<String, usize> = BTreeMap::new();
        let mut seen_flavors: BTreeSet<&str> = BTreeSet::new();
        let mut terms: Vec<Term> = Vec::new();
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
                let (ty, label_gpus) = match r.flavors.get(fname) {
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
                for (ri, res) in res.iter().enumerate() {
                    let rpath = format!("{fpath}.resources[{ri}]");
                    let gpus = label_gpus
                        .or(gpus_per_instance)
                        .or_else(|| gpus_of_type(&ty, &[]))
                        .unwrap_or(1)
                        .max(1);
                    let Some((inst, term)) = resource(d, res, &rpath, gpus, p) else { continue };
                    if !self.type_index.contains_key(&ty) {
                        self.type_index.insert(ty.clone(), self.types.len());
                        self.types.push(InstanceTypeInfo { name: ty.clone(), gpus, price_per_hour: None });
                        self.type_origins.push(r.files.origin(d));
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
                    warn_lending(p, d, &rpath, &term);
                    terms.push(term);
                }
            }
        }
        (limits, terms)
    }
}

/// One resource of a flavor: its quota in whole `gpus`-GPU instances (rounded down, said) and
/// its terms; `None` when it is not GPUs or its quota cannot be read.
fn resource(d: &Document, r: &Value, rpath: &str, gpus: i64, p: &mut Problems) -> Option<(f64, Term)> {
    let rname = r.get("name").and_then(Value::as_str).unwrap_or("");
    if rname != GPU {
        p.warn(
            d,
            &format!("{rpath}.name"),
            format!("{rname:?} is not {GPU}: AWS quota shares count instances by GPU type; ignored"),
        );
        return None;
    }
    let nominal = match r.get("nominalQuota").map(gpu_quantity) {
        Some(Ok(n)) => n,
        Some(Err(why)) if why != "not a quantity" => {
            p.error(d, &format!("{rpath}.nominalQuota"), why);
            return None;
        }
        _ => {
            p.error(d, &format!("{rpath}.nominalQuota"), "a quantity of at least 0 is needed");
            return None;
        }
    };
    let inst = libm::floor(nominal / gpus as f64);
    if inst * gpus as f64 != nominal {
        p.warn(
            d,
            &format!("{rpath}.nominalQuota"),
            format!("{nominal} GPUs is not a whole number of {gpus}-GPU instances: rounded down to {inst}"),
        );
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
    Some((inst, (nominal, b, l, gpus)))
}

/// A partial lending limit, which AWS cannot express, said.
fn warn_lending(p: &mut Problems, d: &Document, rpath: &str, (nominal, _, l, _): &Term) {
    if let Some(l) = l {
        if *l > 0.0 && l < nominal {
            p.warn(
                d,
                &format!("{rpath}.lendingLimit"),
                format!("lending only {l} of {nominal} GPUs has no AWS equivalent: the share lends all its idle quota"),
            );
        }
    }
}

/// One strategy per share (AWS has one); a borrow limit that gives every flavor its allowance
/// back: floor(quota × limit ÷ 100) = the borrowing limit in instances.
fn sharing(d: &Document, name: &str, terms: &[Term], p: &mut Problems) -> (Strategy, Option<i64>) {
    let kind = |(_, b, l, _): &Term| match (b, l) {
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
    let (strategy, borrow_limit) = match first {
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
            format!(
                "{name} borrows but never lends (lendingLimit: 0): AWS has no such strategy; LEND_AND_BORROW"
            ),
        );
    }
    (strategy, borrow_limit)
}
