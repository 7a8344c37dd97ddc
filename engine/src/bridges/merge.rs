//! Configuration merged into a scenario: what pasting `aws batch describe-quota-share` output,
//! a list of shares, a service environment or Kueue queues does to the current scenario. Jobs,
//! actions and settings stay; each change is described in a sentence.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::model::{InstanceTypeInfo, QuotaShare, Scenario, ServiceEnvironment};

/// Configuration without jobs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Configuration {
    /// Quota shares, each replacing the scenario's share of the same name or added at the end.
    pub quota_shares: Vec<QuotaShare>,
    /// A service environment whose capacity limits (and name, when given) replace the scenario's.
    pub service_environment: Option<ServiceEnvironment>,
    /// Instance types with their GPUs (Kueue flavors); added, or their GPUs replaced.
    pub instance_types: Vec<InstanceTypeInfo>,
}

/// Merges `c` into `s`: a share replaces the one of the same name (keeping its place) or is
/// added at the end; the service environment's capacity replaces the current one (its name
/// too, when given). Returns what changed, one sentence per change; empty when nothing did.
pub fn merge(s: &mut Scenario, c: &Configuration) -> Vec<String> {
    let mut changes = Vec::new();
    for t in &c.instance_types {
        match s.instance_types.iter_mut().find(|x| x.name == t.name) {
            Some(x) if x.gpus != t.gpus => {
                changes
                    .push(format!("instance type {}: {} GPUs per instance (was {})", t.name, t.gpus, x.gpus));
                x.gpus = t.gpus;
            }
            Some(_) => {}
            None => {
                changes.push(format!("instance type {} added ({} GPUs per instance)", t.name, t.gpus));
                s.instance_types.push(t.clone());
            }
        }
    }
    if let Some(e) = &c.service_environment {
        if s.service_environment.capacity_limits != e.capacity_limits {
            let caps: Vec<String> =
                e.capacity_limits.iter().map(|l| format!("{} {}", l.max_capacity, l.capacity_unit)).collect();
            changes.push(format!("service environment capacity: {}", caps.join(", ")));
            s.service_environment.capacity_limits = e.capacity_limits.clone();
        }
        if e.service_environment_name.is_some()
            && s.service_environment.service_environment_name != e.service_environment_name
        {
            s.service_environment.service_environment_name = e.service_environment_name.clone();
        }
    }
    for q in &c.quota_shares {
        match s.quota_shares.iter_mut().find(|x| x.quota_share_name == q.quota_share_name) {
            Some(x) if x == q => {}
            Some(x) => {
                *x = q.clone();
                changes.push(format!("quota share {} replaced", q.quota_share_name));
            }
            None => {
                changes.push(format!("quota share {} added", q.quota_share_name));
                s.quota_shares.push(q.clone());
            }
        }
    }
    changes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{CapacityLimit, Strategy};

    #[test]
    fn a_share_replaces_its_namesake_in_place_and_a_new_one_is_added() {
        let mut s = crate::generate(&crate::GenerateOptions::new(10, 2, 1, 1));
        let first = s.quota_shares[0].quota_share_name.clone();
        let ty = s.instance_types[0].name.clone();
        let jobs = s.jobs.clone();
        let c = Configuration {
            quota_shares: alloc::vec![
                QuotaShare::new(&first, Strategy::Reserve, alloc::vec![CapacityLimit::new(&ty, 3)]),
                QuotaShare::new("new-team", Strategy::Lend, alloc::vec![CapacityLimit::new(&ty, 1)]),
            ],
            service_environment: None,
            instance_types: Vec::new(),
        };
        let changes = merge(&mut s, &c);
        assert_eq!(
            changes,
            alloc::vec![format!("quota share {first} replaced"), "quota share new-team added".into()]
        );
        assert_eq!(s.quota_shares[0], c.quota_shares[0]);
        assert_eq!(s.quota_shares.len(), 3);
        assert_eq!(s.jobs, jobs, "jobs stay");
        assert!(merge(&mut s, &c).is_empty(), "merging again changes nothing");
    }
}
