//! The actions section: each timed action resolved to the job, share or capacity it
//! changes, then sorted by time (file order within an instant).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::check::*;
use crate::model::*;
use crate::scenario::*;

/// The checked actions with their file positions, in file order.
pub(super) fn actions(
    c: &mut Checker,
    s: &Scenario,
    job_ids: &NameIndex<'_>,
    share_ids: &ShareIndex<'_>,
    start_at: u64,
) -> Vec<(u64, usize, ActionRawCfg)> {
    // Actions.
    let mut actions_raw: Vec<(u64, usize, ActionRawCfg)> = Vec::new();
    for (i, a) in s.actions.iter().enumerate() {
        let p = format!("actions[{i}]");
        let at = c.number(&format!("{p}.at"), a.at, 0, "at");
        if at < start_at {
            c.err(
                format!("{p}.at"),
                format!("an action at {at} is before settings.startAt ({start_at}): the run begins at startAt (R28)"),
            );
        }
        let resolved = match &a.kind {
            ActionKind::UpdateServiceJob { job_name, scheduling_priority } => {
                let pr =
                    c.priority(&format!("{p}.updateServiceJob.schedulingPriority"), *scheduling_priority);
                match job_ids.get(job_name.as_str()) {
                    Some(j) => Some(ActionRawCfg::Priority(JobId(j), pr)),
                    None => {
                        c.err(format!("{p}.updateServiceJob.jobName"), format!("no job is named {job_name}"));
                        None
                    }
                }
            }
            ActionKind::TerminateServiceJob { job_name, reason } => match job_ids.get(job_name.as_str()) {
                Some(j) => Some(ActionRawCfg::Terminate(JobId(j), reason.clone())),
                None => {
                    c.err(format!("{p}.terminateServiceJob.jobName"), format!("no job is named {job_name}"));
                    None
                }
            },
            ActionKind::UpdateQuotaShare(u) => {
                let pq = format!("{p}.updateQuotaShare");
                let share = share_ids.get(&u.quota_share_name).map(|i| ShareId::at(i as usize));
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
    actions_raw
}

/// The actions sorted by time, stably, with per-type tables of `nt` types.
pub(super) fn finish(mut actions_raw: Vec<(u64, usize, ActionRawCfg)>, nt: usize) -> Vec<(u64, ActionCfg)> {
    actions_raw.sort_by_key(|(at, i, _)| (*at, *i));
    actions_raw
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
        .collect()
}

pub(super) enum ActionRawCfg {
    Priority(JobId, u32),
    Terminate(JobId, String),
    Share(ShareId, Option<Vec<(TypeId, u64)>>, Option<(Strategy, BorrowLimit)>, Option<bool>, Option<bool>),
    Capacity(Vec<(TypeId, u64)>),
}
