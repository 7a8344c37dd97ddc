//! Assembling the scenario from what was gathered and mapped: shares the jobs name but no
//! record defines, the service environment, the settings start-up and the live state need, and
//! the import's last checks ([`crate::import_check::settle`]). The third of an import's three
//! stages (read, map, assemble).

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::gather::Gathered;
use super::map::Mapped;
use super::observed::Observed;
use crate::import_check::{settle, Capped, Origin, Origins};
use crate::model::{CapacityLimit, QuotaShare, Scenario, ServiceEnvironment, Strategy};
use crate::problem::Problem;

/// An import: the scenario, what happened, every warning, and what each file was.
#[derive(Clone, Debug, PartialEq)]
pub struct Imported {
    /// The imported scenario, valid: the whole history, or the live state at `state_at` (then its
    /// `settings.startAt` and `originEpochMs` are set).
    pub scenario: Scenario,
    /// What actually happened to each job of the scenario (same names, same order): what `--observed` writes
    /// and `calibrate` reads.
    pub observed: Observed,
    /// Every problem of the import: records skipped, names changed, durations censored, start-up fitted; at
    /// most [`crate::import_check::MAX_PER_FILE`] of a kind listed per file.
    pub warnings: Vec<Problem>,
    /// What each file held, one line per file: `page.json: 2 list-service-jobs, 1 describe-quota-share`
    /// (`nothing` when no record was recognised).
    pub recognised: Vec<String>,
}

/// The scenario of an import, or every problem when nothing valid is left.
pub(super) fn assemble(
    files: &[String],
    mut g: Gathered,
    m: Mapped,
    state_at: Option<i64>,
    mut problems: Capped,
) -> Result<Imported, Vec<Problem>> {
    implied_shares(&mut g, &m, &mut problems);
    let (env, env_origin) = environment(&mut g, &mut problems);
    if g.shares.is_empty() && m.jobs.is_empty() {
        problems
            .push_general(Problem::error("", "nothing to import: no quota share and no job was recognised"));
        return Err(problems.finish());
    }
    let origin = m.origin;
    let mut observed = Vec::with_capacity(m.jobs.len());
    let mut job_origins = Vec::with_capacity(m.jobs.len());
    let mut scenario_jobs = Vec::with_capacity(m.jobs.len());
    for (j, o, at) in m.jobs {
        scenario_jobs.push(j);
        observed.push(o);
        job_origins.push(at);
    }
    let mut scenario = Scenario {
        name: Some(format!("imported from AWS ({} jobs)", scenario_jobs.len())),
        description: Some(format!(
            "Imported from AWS Batch outputs; submitAt 0 is {origin} ms after the Unix epoch (the earliest createdAt)."
        )),
        service_environment: env,
        quota_shares: g.shares,
        jobs: scenario_jobs,
        ..Scenario::default()
    };
    scenario.settings.scheduled_seconds = m.startup.scheduled_seconds;
    scenario.settings.starting_seconds = m.startup.starting_seconds;
    if let Some(ms) = state_at {
        scenario.settings.start_at = ms.saturating_sub(origin).max(0) / 1000;
        scenario.settings.origin_epoch_ms = Some(origin);
    }
    let mut origins = Origins {
        files: files.to_vec(),
        shares: g.share_origins,
        jobs: job_origins,
        instance_types: Vec::new(),
        service_environment: env_origin,
    };
    if settle(&mut scenario, &mut origins, &mut problems).is_err() {
        return Err(problems.finish());
    }
    if scenario.jobs.len() != observed.len() {
        // What settle skipped is not observed either.
        let kept: BTreeSet<&str> = scenario.jobs.iter().map(|j| j.job_name.as_str()).collect();
        observed.retain(|o| kept.contains(o.job_name.as_str()));
    }
    scenario.name = Some(format!("imported from AWS ({} jobs)", scenario.jobs.len()));
    if let Some(ms) = state_at {
        m.live.finish(&mut scenario, &mut problems, ms, origin, g.later_events);
    }
    Ok(Imported {
        scenario,
        observed: Observed { format_version: 1, origin_epoch_millis: origin, jobs: observed },
        warnings: problems.finish(),
        recognised: g.recognised,
    })
}

/// Shares the jobs name but no record defines: a RESERVE quota of the most instances its jobs
/// held at once (first start to stop; at least 1, as AWS needs), and said so.
fn implied_shares(g: &mut Gathered, m: &Mapped, problems: &mut Capped) {
    let mut edges: BTreeMap<&str, Vec<(u64, i64)>> = BTreeMap::new();
    for (j, o, _) in &m.jobs {
        if g.share_index.contains_key(j.quota_share_name.as_str()) {
            continue;
        }
        if let Some(t) = o.first_started_at {
            let n = j.instance_count.unwrap_or(1);
            let e = edges.entry(j.quota_share_name.as_str()).or_default();
            e.push((t, n));
            e.push((o.stopped_at.unwrap_or(u64::MAX), -n));
        }
    }
    for s in &m.used_order {
        if g.share_index.contains_key(s) {
            continue;
        }
        let ty = &m.used_shares[s];
        let mut e = edges.remove(s.as_str()).unwrap_or_default();
        e.sort_unstable();
        let (mut now, mut peak) = (0i64, 1i64);
        for (_, d) in e {
            now = now.saturating_add(d);
            peak = peak.max(now);
        }
        problems.push_general(Problem::warning(
            format!("quotaShares.{s}"),
            format!("jobs use quota share {s}, which no describe-quota-share record defines: it gets a RESERVE quota of {peak} {ty}, the most its jobs held at once"),
        ));
        g.share_index.insert(s.clone(), g.shares.len());
        g.shares.push(QuotaShare::new(s, Strategy::Reserve, alloc::vec![CapacityLimit::new(ty, peak)]));
        g.share_origins.push(Origin { file: usize::MAX, at: format!("quotaShares.{s}") });
    }
}

/// The service environment: the first one read (said when there are several), or without any,
/// one whose capacity is the sum of the quotas (said).
fn environment(g: &mut Gathered, problems: &mut Capped) -> (ServiceEnvironment, Origin) {
    if g.envs.len() > 1 {
        problems.push_general(Problem::warning(
            "serviceEnvironments",
            format!("{} service environments: the first is used", g.envs.len()),
        ));
        return g.envs.swap_remove(0);
    }
    if let Some(e) = g.envs.pop() {
        return e;
    }
    problems.push_general(Problem::warning(
        "serviceEnvironment",
        "no describe-service-environments record: the capacity is the sum of the quotas",
    ));
    let mut cap: BTreeMap<&str, i64> = BTreeMap::new();
    let mut types: Vec<&str> = Vec::new();
    for q in &g.shares {
        for l in &q.capacity_limits {
            let c = cap.entry(l.capacity_unit.as_str()).or_insert_with(|| {
                types.push(l.capacity_unit.as_str());
                0
            });
            *c = c.saturating_add(l.max_capacity);
        }
    }
    let limits = types.iter().map(|t| CapacityLimit::new(t, cap[t])).collect();
    let env = ServiceEnvironment { capacity_limits: limits, ..ServiceEnvironment::default() };
    (env, Origin { file: usize::MAX, at: "serviceEnvironment".into() })
}
