//! A scenario out as Kueue objects (`quotasim export kueue`).

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::{json, Map, Value};

use super::k8s::{
    gpus_of_type, k8s_name, k8s_names, kueue_quantity, CAPACITY_ANNOTATION, GPU, GPU_LABEL, SHARE_ANNOTATION,
    TYPE_LABEL,
};
use crate::model::{Scenario, ShareState, Strategy, Toggle};
use crate::problem::Problem;

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
