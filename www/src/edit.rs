//! Small edits of a scenario the editors make, and field problems looked up by path.

use quotasim::model::*;
use quotasim::{Problem, Severity};

/// Problems whose path is exactly `path`.
pub fn problems_at<'a>(problems: &'a [Problem], path: &str) -> Vec<&'a Problem> {
    problems.iter().filter(|p| p.path == path).collect()
}

/// The first error message at `path`, if any (what a field shows next to itself).
pub fn error_at(problems: &[Problem], path: &str) -> Option<String> {
    problems.iter().find(|p| p.path == path && p.severity == Severity::Error).map(|p| p.message.clone())
}

/// Problems under `prefix` (the prefix itself or `prefix.` / `prefix[` below it).
pub fn problems_under<'a>(problems: &'a [Problem], prefix: &str) -> Vec<&'a Problem> {
    problems
        .iter()
        .filter(|p| {
            p.path == prefix
                || p.path.strip_prefix(prefix).is_some_and(|r| r.starts_with('.') || r.starts_with('['))
        })
        .collect()
}

/// Which editor section a problem path belongs to.
pub fn section_of(path: &str) -> &'static str {
    if path.starts_with("quotaShares") {
        "shares"
    } else if path.starts_with("jobs") {
        "jobs"
    } else if path.starts_with("actions") {
        "actions"
    } else if path.starts_with("settings") {
        "settings"
    } else {
        "capacity"
    }
}

/// A job name not used yet, starting from `base`.
pub fn unique_job_name(s: &Scenario, base: &str) -> String {
    let clean: String =
        base.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_').take(100).collect();
    let clean = if clean.is_empty() { String::from("job") } else { clean };
    if !s.jobs.iter().any(|j| j.job_name == clean) {
        return clean;
    }
    (2..).map(|k| format!("{clean}-{k}")).find(|n| !s.jobs.iter().any(|j| j.job_name == *n)).unwrap_or(clean)
}

/// A share name not used yet.
pub fn unique_share_name(s: &Scenario) -> String {
    (1..)
        .map(|k| format!("share-{k}"))
        .find(|n| !s.quota_shares.iter().any(|q| q.quota_share_name == *n))
        .unwrap_or_else(|| String::from("share"))
}

/// The first instance type of the service environment (or a catalogue type).
pub fn first_type(s: &Scenario) -> String {
    s.service_environment
        .capacity_limits
        .first()
        .map(|l| l.capacity_unit.clone())
        .unwrap_or_else(|| String::from("ml.g5.xlarge"))
}

/// A fresh scenario to start from: 8 × ml.p5.48xlarge (8 GPUs each) shared by two teams of 4,
/// one lending and borrowing, one lending, and a job each.
pub fn new_scenario() -> Scenario {
    use quotasim::model::{CapacityLimit, InstanceTypeInfo, QuotaShare, Strategy};
    let ty = "ml.p5.48xlarge";
    let mut s = Scenario { name: Some("New scenario".into()), ..Scenario::default() };
    s.instance_types = vec![InstanceTypeInfo { name: ty.into(), gpus: 8, price_per_hour: None }];
    s.service_environment.capacity_limits = vec![CapacityLimit::new(ty, 8)];
    s.quota_shares = vec![
        QuotaShare::new("team-a", Strategy::LendAndBorrow, vec![CapacityLimit::new(ty, 4)]),
        QuotaShare::new("team-b", Strategy::Lend, vec![CapacityLimit::new(ty, 4)]),
    ];
    let a = new_job(&s, Some("team-a"));
    s.jobs.push(a);
    let b = new_job(&s, Some("team-b"));
    s.jobs.push(b);
    s
}

/// A new job for `share`, one instance of the share's first type, one hour.
pub fn new_job(s: &Scenario, share: Option<&str>) -> Job {
    let share = share
        .map(String::from)
        .or_else(|| s.quota_shares.first().map(|q| q.quota_share_name.clone()))
        .unwrap_or_default();
    let ty = s
        .quota_shares
        .iter()
        .find(|q| q.quota_share_name == share)
        .and_then(|q| q.capacity_limits.first())
        .map(|l| l.capacity_unit.clone())
        .unwrap_or_else(|| first_type(s));
    let name = unique_job_name(s, &format!("{share}-job"));
    Job::new(&name, &share, &ty, 1, 0, 3600)
}

/// A copy of job `i` with a fresh name, inserted after it.
pub fn duplicate_job(s: &mut Scenario, i: usize) {
    if let Some(j) = s.jobs.get(i).cloned() {
        let mut c = j;
        c.job_name = unique_job_name(s, &c.job_name).into();
        s.jobs.insert(i + 1, c);
    }
}

/// Renames a share and every job and action that names it, unless `new` is another share's
/// name already (then only the share itself is renamed and validation reports it).
pub fn rename_share(s: &mut Scenario, i: usize, new: &str) {
    let Some(old) = s.quota_shares.get(i).map(|q| q.quota_share_name.clone()) else { return };
    let taken = s.quota_shares.iter().enumerate().any(|(k, q)| k != i && q.quota_share_name == new);
    s.quota_shares[i].quota_share_name = new.to_string();
    if taken || old.is_empty() {
        return;
    }
    for j in &mut s.jobs {
        if j.quota_share_name == old {
            j.quota_share_name = new.into();
        }
    }
    for a in &mut s.actions {
        if let ActionKind::UpdateQuotaShare(u) = &mut a.kind {
            if u.quota_share_name == old {
                u.quota_share_name = new.to_string();
            }
        }
    }
}

/// Renames a job and the actions that name it (unless the new name is taken).
pub fn rename_job(s: &mut Scenario, i: usize, new: &str) {
    let Some(old) = s.jobs.get(i).map(|j| j.job_name.clone()) else { return };
    let taken = s.jobs.iter().enumerate().any(|(k, j)| k != i && j.job_name == new);
    s.jobs[i].job_name = new.into();
    if taken {
        return;
    }
    for a in &mut s.actions {
        match &mut a.kind {
            ActionKind::UpdateServiceJob { job_name, .. }
            | ActionKind::TerminateServiceJob { job_name, .. }
                if *job_name == old =>
            {
                *job_name = new.to_string()
            }
            _ => {}
        }
    }
}

/// Sets the GPU count of an instance type, adding it to `instanceTypes` when needed.
pub fn set_gpus(s: &mut Scenario, ty: &str, gpus: i64) {
    match s.instance_types.iter_mut().find(|t| t.name == ty) {
        Some(t) => t.gpus = gpus,
        None => s.instance_types.push(InstanceTypeInfo { name: ty.to_string(), gpus, price_per_hour: None }),
    }
}

/// GPU count of a type: the scenario's own, else the catalogue's, else 0.
pub fn gpus_of(s: &Scenario, ty: &str) -> i64 {
    s.instance_types.iter().find(|t| t.name == ty).map(|t| t.gpus).or_else(|| catalogue_gpus(ty)).unwrap_or(0)
}

/// Renames an instance type everywhere it appears.
pub fn rename_type(s: &mut Scenario, old: &str, new: &str) {
    let fix = |l: &mut Vec<CapacityLimit>| {
        for c in l.iter_mut() {
            if c.capacity_unit == old {
                c.capacity_unit = new.to_string();
            }
        }
    };
    fix(&mut s.service_environment.capacity_limits);
    for q in &mut s.quota_shares {
        fix(&mut q.capacity_limits);
    }
    for t in &mut s.instance_types {
        if t.name == old {
            t.name = new.to_string();
        }
    }
    for j in &mut s.jobs {
        if j.instance_type.as_deref() == Some(old) {
            j.instance_type = Some(new.into());
        }
    }
}

/// Job order for the table: indices sorted by a column, optionally filtered by share.
pub fn job_order(s: &Scenario, filter: Option<&str>, sort: SortKey, descending: bool) -> Vec<usize> {
    let mut idx: Vec<usize> =
        (0..s.jobs.len()).filter(|&i| filter.is_none_or(|f| s.jobs[i].quota_share_name == f)).collect();
    let key = |i: &usize| -> (i64, String) {
        let j = &s.jobs[*i];
        match sort {
            SortKey::Index => (*i as i64, String::new()),
            SortKey::Name => (0, String::from(j.job_name.as_str())),
            SortKey::Share => (0, String::from(j.quota_share_name.as_str())),
            SortKey::Priority => (j.scheduling_priority, String::new()),
            SortKey::Submit => (j.submit_at, String::new()),
            SortKey::Duration => (j.duration_seconds.unwrap_or(-1), String::new()),
            SortKey::Count => (j.instance_count.unwrap_or(0), String::new()),
        }
    };
    idx.sort_by(|a, b| key(a).cmp(&key(b)).then(a.cmp(b)));
    if descending {
        idx.reverse();
    }
    idx
}

/// Columns the job table sorts by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SortKey {
    Index,
    Name,
    Share,
    Priority,
    Submit,
    Duration,
    Count,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_scenario_is_valid_and_small() {
        let s = new_scenario();
        let v = quotasim::validate(&s).expect("valid");
        assert!(v.warnings.is_empty(), "{:?}", v.warnings);
        assert_eq!((s.quota_shares.len(), s.jobs.len()), (2, 2));
    }
    use crate::presets;

    fn nb() -> Scenario {
        presets::scenario(presets::NOTEBOOK).unwrap()
    }

    #[test]
    fn renaming_a_share_follows_its_jobs() {
        let mut s = nb();
        rename_share(&mut s, 0, "research");
        assert_eq!(s.jobs.iter().filter(|j| j.quota_share_name == "research").count(), 3);
        rename_share(&mut s, 1, "research");
        assert_eq!(s.jobs[3].quota_share_name, "qs2", "a taken name does not move jobs");
    }

    #[test]
    fn duplicates_get_fresh_names() {
        let mut s = nb();
        duplicate_job(&mut s, 0);
        assert_eq!(s.jobs[1].job_name, "qs1_job_high-2");
        assert_eq!(s.jobs.len(), 5);
        assert!(quotasim::validate(&s).is_ok());
    }

    #[test]
    fn problems_are_found_by_path() {
        let mut s = nb();
        s.jobs[2].instance_count = Some(0);
        let ps = quotasim::validate(&s).unwrap_err();
        assert!(error_at(&ps, "jobs[2].instanceCount").is_some());
        assert_eq!(problems_under(&ps, "jobs[2]").len(), 1);
        assert!(problems_under(&ps, "jobs[20]").is_empty());
        assert_eq!(section_of("quotaShares[1].state"), "shares");
    }

    #[test]
    fn the_job_table_sorts_and_filters() {
        let s = nb();
        assert_eq!(job_order(&s, None, SortKey::Priority, true), vec![0, 1, 2, 3]);
        assert_eq!(job_order(&s, Some("qs2"), SortKey::Index, false), vec![3]);
        assert_eq!(job_order(&s, None, SortKey::Submit, false), vec![0, 1, 2, 3]);
    }
}
