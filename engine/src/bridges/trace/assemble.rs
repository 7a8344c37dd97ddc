//! Assembling the scenario from the rows kept and the quotas: one instance type, a service
//! environment of the quotas' sum, a `LEND_AND_BORROW` share per team with no borrow limit, the
//! jobs in order of submission; and the import's last checks
//! ([`crate::import_check::settle`]). The third of an import's three stages.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use super::options::{TraceFormat, TraceOptions};
use super::quotas::Quotas;
use super::read::Read;
use crate::import_check::{settle, Capped, Origin, Origins};
use crate::model::{
    CapacityLimit, InstanceTypeInfo, Job, QuotaShare, ResourceSharing, Scenario, ServiceEnvironment, Strategy,
};
use crate::problem::Problem;

/// What an import gives: the scenario, every warning and error, and what each file held.
#[derive(Clone, Debug, PartialEq)]
pub struct Imported {
    /// The imported scenario, valid: one instance type, a `LEND_AND_BORROW` share per team, the kept rows as
    /// jobs in order of submission.
    pub scenario: Scenario,
    /// Every problem: rows skipped or changed (one warning per file and reason) and rows that could not be
    /// read (errors).
    pub warnings: Vec<Problem>,
    /// What each file held, one line per file: `jobs.csv: 1200 rows, 1187 jobs`.
    pub recognised: Vec<String>,
}

/// The scenario, or every problem when nothing valid is left.
pub(super) fn assemble(
    files: &[(String, String)],
    o: &TraceOptions,
    instance_type: &str,
    read: Read,
    q: Quotas,
    mut problems: Vec<Problem>,
) -> Result<Imported, Vec<Problem>> {
    let mut kept = read.kept;
    let first = kept.iter().map(|k| k.submit).min().unwrap_or(0);
    kept.sort_by_key(|k| k.submit);
    let job_origins: Vec<Origin> =
        kept.iter().map(|k| Origin { file: k.file, at: format!("{}:{}", files[k.file].0, k.line) }).collect();
    let jobs: Vec<Job> = kept
        .iter()
        .map(|k| {
            let mut j = Job::new(&k.name, &k.team, instance_type, k.instances, k.submit - first, k.duration);
            j.scheduling_priority = k.priority;
            j.checkpoint_interval_seconds = o.checkpoint_interval;
            j
        })
        .collect();
    let share_origins: Vec<Origin> =
        q.quotas.iter().map(|(t, _)| q.origins.get(t).cloned().unwrap_or_default()).collect();
    let shares = q
        .quotas
        .iter()
        .map(|(t, n)| {
            let mut s =
                QuotaShare::new(t, Strategy::LendAndBorrow, vec![CapacityLimit::new(instance_type, *n)]);
            s.resource_sharing_configuration = ResourceSharing::new(Strategy::LendAndBorrow, Some(-1));
            s
        })
        .collect();
    let format = match o.format {
        TraceFormat::Openb => "openb",
        TraceFormat::Csv => "csv",
    };
    let names: Vec<&str> = files.iter().map(|f| f.0.rsplit(['/', '\\']).next().unwrap_or(&f.0)).collect();
    let mut scenario = Scenario {
        name: Some(format!("imported trace ({} jobs)", jobs.len())),
        description: Some(format!(
            "Imported by quotasim import trace --format {format} from {}; submitAt 0 is the log's time {first} s.",
            names.join(", ")
        )),
        instance_types: vec![InstanceTypeInfo {
            name: instance_type.into(),
            gpus: o.gpus_per_instance,
            price_per_hour: None,
        }],
        service_environment: ServiceEnvironment {
            service_environment_name: Some("trace-se".into()),
            capacity_limits: vec![CapacityLimit::new(instance_type, q.capacity)],
            ..ServiceEnvironment::default()
        },
        quota_shares: shares,
        jobs,
        ..Scenario::default()
    };
    // Whatever validation would still refuse is skipped at its file and line.
    let mut origins = Origins {
        files: files.iter().map(|f| f.0.clone()).collect(),
        shares: share_origins,
        jobs: job_origins,
        instance_types: vec![Origin { file: usize::MAX, at: "instanceType".into() }],
        service_environment: Origin { file: usize::MAX, at: "serviceEnvironment".into() },
    };
    let mut capped = Capped::default();
    let settled = settle(&mut scenario, &mut origins, &mut capped);
    problems.extend(capped.finish());
    if settled.is_err() {
        return Err(problems);
    }
    scenario.name = Some(format!("imported trace ({} jobs)", scenario.jobs.len()));
    Ok(Imported { scenario, warnings: problems, recognised: read.recognised })
}
