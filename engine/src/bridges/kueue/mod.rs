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
//!
//! An import runs in three stages: `read` recognises each document, `map` makes a quota
//! share of each ClusterQueue, `assemble` makes the scenario; `k8s` holds Kubernetes'
//! vocabulary and [`export`] writes a scenario back as Kueue objects. This module only joins
//! them.

use alloc::vec::Vec;

use crate::problem::Problem;

mod assemble;
mod export;
mod k8s;
mod map;
mod read;

pub use assemble::Imported;
pub use export::export;
pub use k8s::{
    is_k8s_name, k8s_name, k8s_names, quantity, CAPACITY_ANNOTATION, GPU, GPU_LABEL, SHARE_ANNOTATION,
    TYPE_LABEL,
};
pub use read::Document;

/// Maps Kueue documents to a scenario; `gpus_per_instance` is used for flavors whose node
/// labels do not say. Every problem names its file, document and field; documents that
/// cannot be used are skipped with a warning, and only nothing usable at all is an error.
///
/// A ClusterQueue's share is named by its `quotasim.dev/quota-share-name` annotation (what the
/// export writes when the share's name is not a Kubernetes name), else by its own name, made a
/// valid share name (`.` becomes `-`) and unique. The scenario is valid: what validation would
/// refuse is skipped at its document ([`crate::import_check::settle`]).
pub fn import(docs: &[Document], gpus_per_instance: Option<i64>) -> Result<Imported, Vec<Problem>> {
    let mut p = read::Problems::default();
    let read = read::read(docs, &mut p);
    let mapped = map::map(&read, gpus_per_instance, &mut p);
    assemble::assemble(read, mapped, p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::*;
    use serde_json::{json, Value};

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
