//! Assembling the scenario from the shares: the service environment (the Cohort's capacity
//! annotation, else the quotas' sum per type), and the import's last checks
//! ([`crate::import_check::settle`]). The third of an import's three stages.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value};

use super::k8s::CAPACITY_ANNOTATION;
use super::map::Mapped;
use super::read::{Problems, Read};
use crate::import_check::{settle, Capped, Origin, Origins};
use crate::model::{CapacityLimit, Scenario, ServiceEnvironment};
use crate::problem::Problem;
use crate::validate::MAX_SAFE;

/// An import: the scenario, its warnings, and what was recognised (`"3 ClusterQueues"`, ...).
#[derive(Clone, Debug, PartialEq)]
pub struct Imported {
    /// The imported scenario, valid: a quota share per ClusterQueue, the service environment and the instance
    /// types; no jobs.
    pub scenario: Scenario,
    /// Every warning: what AWS cannot express, and what was changed or left out, each with its document and
    /// field.
    pub warnings: Vec<Problem>,
    /// How many documents of each kind were read over every file (`"3 ClusterQueues"`).
    pub recognised: Vec<String>,
}

/// The scenario, or every error (with the warnings) when there is any.
pub(super) fn assemble(r: Read, m: Mapped, mut p: Problems) -> Result<Imported, Vec<Problem>> {
    if m.cohort_names.len() > 1 {
        p.warnings.push_general(Problem::warning(
            "cohorts",
            format!(
                "{} cohorts ({}): AWS quota shares lend within one job queue, so they are imported as one",
                m.cohort_names.len(),
                m.cohort_names.join(", ")
            ),
        ));
    }
    let (se_name, capacity, se_origin) = environment(&r, &m, &mut p);
    if m.shares.is_empty() {
        p.errors.push_general(Problem::error("", "no ClusterQueue found: nothing to make quota shares of"));
    }
    let errors = p.errors.finish();
    let mut warnings = p.warnings.finish();
    if !errors.is_empty() {
        let mut all = errors;
        all.extend(warnings);
        return Err(all);
    }
    let recognised = r.counts.iter().map(|(k, n)| format!("{n} {k}")).collect();
    let mut scenario = Scenario {
        name: Some(format!("imported from Kueue ({} quota shares)", m.shares.len())),
        instance_types: m.types,
        service_environment: ServiceEnvironment {
            service_environment_name: se_name,
            capacity_limits: capacity,
            ..ServiceEnvironment::default()
        },
        quota_shares: m.shares,
        ..Scenario::default()
    };
    // Whatever validation would still refuse is skipped (or fixed) at its document.
    let mut origins = Origins {
        files: r.files.names,
        shares: m.share_origins,
        jobs: Vec::new(),
        instance_types: m.type_origins,
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

/// The service environment's name, capacity and origin: a cohort's capacity annotation, else
/// the quotas' sum per instance type.
fn environment(r: &Read, m: &Mapped, p: &mut Problems) -> (Option<String>, Vec<CapacityLimit>, Origin) {
    let mut capacity: Vec<CapacityLimit> = Vec::new();
    let mut se_name = m.cohort_names.first().cloned();
    let mut se_origin = Origin { file: usize::MAX, at: "serviceEnvironment".into() };
    for (cname, d) in &r.cohorts {
        let Some(text) = d
            .value
            .pointer("/metadata/annotations")
            .and_then(|a| a.get(CAPACITY_ANNOTATION))
            .and_then(Value::as_str)
        else {
            continue;
        };
        match serde_json::from_str::<Map<String, Value>>(text) {
            Ok(map) => {
                se_name = Some(cname.clone());
                se_origin = r.files.origin(d);
                for (ty, v) in map {
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
    if capacity.is_empty() {
        let mut total: BTreeMap<&str, i64> = BTreeMap::new();
        for l in m.shares.iter().flat_map(|q| q.capacity_limits.iter()) {
            let t = total.entry(l.capacity_unit.as_str()).or_default();
            *t = t.saturating_add(l.max_capacity);
        }
        for t in &m.types {
            capacity.push(CapacityLimit::new(&t.name, total.get(t.name.as_str()).copied().unwrap_or(0)));
        }
    }
    (se_name, capacity, se_origin)
}
