//! Validation: `Scenario` -> [`ValidScenario`], or every problem at once.
//!
//! Each [`Problem`] names the offending field by its path in the scenario JSON
//! (`quotaShares[2].resourceSharingConfiguration.borrowLimit`), has a severity and a message a
//! person understands. Errors stop a run; warnings (R3 oversubscription, R13 capacity owned by
//! no share, ...) do not. Validation never panics, whatever the input.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

pub use crate::limits::*;
use crate::model::*;
pub use crate::problem::*;
pub use crate::scenario::*;

#[macro_use]
mod check;
mod actions;
mod jobs;
mod state;

pub use check::DEFAULT_PAYLOAD_CHECKPOINT;
use check::*;

/// Whether `s` may name a job or a share: 1 to 128 letters, digits, `-` and `_`.
pub fn valid_job_name(s: &str) -> bool {
    valid_name(s)
}

/// Checks a scenario against the format spec and the AWS limits (semantics section 8).
///
/// Returns the checked scenario (with its warnings) or every problem found, errors and
/// warnings, in the order of the fields in the file.
pub fn validate(s: &Scenario) -> Result<ValidScenario, Vec<Problem>> {
    if s.workload.is_some() {
        // The generated jobs are validated as listed ones; a broken workload section is
        // reported with every problem of the rest of the scenario.
        return match crate::workload::expanded(s) {
            Ok(e) => validate(&e),
            Err(mut p) => {
                let mut rest = s.clone();
                rest.workload = None;
                if let Err(q) = validate(&rest) {
                    p.extend(q);
                }
                Err(p)
            }
        };
    }
    let mut c = Checker { problems: Vec::new(), types: Vec::new(), type_ids: BTreeMap::new() };

    if s.format_version != 1 {
        c.err("formatVersion", format!("formatVersion must be 1, not {}", s.format_version));
    }

    let settings = settings(&mut c, &s.settings);

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
    instance_types(&mut c, &s.instance_types);

    // Service environment.
    if let Some(name) = &s.service_environment.service_environment_name {
        if !valid_name(name) {
            c.err("serviceEnvironment.serviceEnvironmentName", format!("serviceEnvironmentName {NAME_RULE}"));
        }
    }
    let se = c.limits("serviceEnvironment.capacityLimits", &s.service_environment.capacity_limits, 0);
    if s.service_environment.capacity_limits.is_empty() {
        c.warn(
            "serviceEnvironment.capacityLimits",
            "the service environment has no capacity: no job can run",
        );
    }

    // Quota shares.
    let (share_ids, shares_raw) = quota_shares(&mut c, &s.quota_shares);

    // Jobs.
    let Some((jobs, job_ids)) = jobs::jobs(&mut c, s, &settings, &share_ids) else {
        return Err(c.problems);
    };

    // Actions.
    let actions_raw = actions::actions(&mut c, s, &job_ids, &share_ids, settings.start_at);

    // Every type is known now: build the dense per-type tables.
    let nt = c.types.len();
    let capacity = per_type_opt(nt, &se);
    let mut shares: Vec<ShareCfg> = shares_raw
        .into_iter()
        .map(|(name, limits, strategy, borrow_limit, isp, enabled)| ShareCfg {
            name,
            quota: per_type(nt, &limits),
            strategy,
            borrow_limit,
            in_share_preemption: isp,
            enabled,
            limit_reduced: alloc::vec![false; nt],
        })
        .collect();
    state::limits_reduced(&mut c, s, &mut shares);
    state::usage_at_start(&mut c, &settings, &capacity, &shares, &jobs);

    totals(&mut c, &se, &capacity, &shares);

    if c.problems.iter().any(|p| p.is_error()) {
        return Err(c.problems);
    }

    let actions = actions::finish(actions_raw, nt);

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

/// The settings checked (R6, R8, R21, R28): every duration and time a whole number of at least 0,
/// the horizon at or after the run begins.
fn settings(c: &mut Checker, st: &Settings) -> SettingsCfg {
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
        start_at: c.number("settings.startAt", st.start_at, 0, "startAt"),
        origin_epoch_ms: st.origin_epoch_ms.filter(|&o| {
            let ok = (-MAX_SAFE..=MAX_SAFE).contains(&o);
            if !ok {
                c.err(
                    "settings.originEpochMs",
                    format!("originEpochMs must be within 2^53 - 1 of 0 ({MAX_SAFE}), not {o}"),
                );
            }
            ok
        }),
    };
    // R28: the horizon is an absolute time, at or after the run begins.
    if let Some(h) = settings.horizon.filter(|&h| h < settings.start_at) {
        c.err(
            "settings.horizonSeconds",
            format!(
                "horizonSeconds ({h}) is before settings.startAt ({}): the run begins at startAt",
                settings.start_at
            ),
        );
    }

    settings
}

/// `instanceTypes`: each named once, with its GPUs and price.
fn instance_types(c: &mut Checker, types: &[InstanceTypeInfo]) {
    let mut declared: BTreeMap<String, usize> = BTreeMap::new();
    for (i, it) in types.iter().enumerate() {
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
        c.types[t.index()].gpus = g;
        c.types[t.index()].price = price;
    }
}

/// `quotaShares`: at least one, at most [`MAX_SHARES`], each named once, with its limits and
/// sharing; by name, and as checked before the per-type tables exist.
fn quota_shares<'a>(c: &mut Checker, list: &'a [QuotaShare]) -> (ShareIndex<'a>, Vec<ShareRaw>) {
    if list.is_empty() {
        c.err("quotaShares", "a scenario needs at least one quota share");
    } else if list.len() > MAX_SHARES {
        c.err("quotaShares", format!("at most 20 quota shares are allowed, not {}", list.len()));
    }
    // Every name is indexed, a valid one or not, so that jobs naming it find it.
    let mut share_ids = ShareIndex::new(list, share_name);
    let mut shares_raw: Vec<ShareRaw> = Vec::new();
    for (i, q) in list.iter().enumerate() {
        let p = format!("quotaShares[{i}]");
        let first = share_ids.insert(i as u32);
        if !valid_name(&q.quota_share_name) {
            c.err(format!("{p}.quotaShareName"), format!("quotaShareName {NAME_RULE}"));
        } else if let Some(first) = first {
            c.err(
                format!("{p}.quotaShareName"),
                format!("quota share {} is already defined at quotaShares[{first}]", q.quota_share_name),
            );
        }
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
        for (k, name) in q.capacity_limit_reduced.iter().enumerate() {
            c.instance_type_name(&format!("{p}.capacityLimitReduced[{k}]"), name);
        }
    }

    (share_ids, shares_raw)
}

/// The quotas' totals per type: exact as JavaScript numbers (an error past 2^53 - 1), and R3
/// (oversubscribed) and R13 (capacity no share owns) warnings; a quota of a type the service
/// environment has no limit for is never used.
fn totals(c: &mut Checker, se: &[(TypeId, u64)], capacity: &[Option<u64>], shares: &[ShareCfg]) {
    let nt = c.types.len();
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
        let total: u64 = shares.iter().map(|s| s.quota[t.index()]).sum();
        let name = &c.types[t.index()].name;
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
}

/// A checked share before the per-type tables exist: name, limits, strategy, borrow limit,
/// in-share preemption, enabled.
type ShareRaw = (String, Vec<(TypeId, u64)>, Strategy, BorrowLimit, bool, bool);
