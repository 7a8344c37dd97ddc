//! What importing configuration alone (Kueue YAML, AWS quota shares or a service environment)
//! does to the scenario: either it is merged in (a share replaces its namesake or is added;
//! `quotasim::merge`), or it replaces the scenario's shares and service environment. Replacing
//! keeps only what still makes sense with the new configuration: jobs of shares that are gone,
//! or asking for instance types the new environment lacks, are removed (and said to be, by
//! share and by type), as are the workload of shares that are gone and actions on what is
//! gone; the previous scenario is kept in History by the caller.

use quotasim::merge::Configuration;
use quotasim::model::{ActionKind, InstanceTypeInfo, Job, Scenario};

/// What an import of configuration alone does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The configuration's shares and service environment take the place of the scenario's.
    Replace,
    /// Each share replaces its namesake or is added; the environment's capacity replaces the
    /// scenario's.
    Merge,
}

/// Whether the scenario has jobs of its own: jobs (or a workload) other than the ones the
/// built-in scenario it came from (`preset`) or New ([`crate::edit::new_scenario`]) ships with.
pub fn has_own_jobs(preset: Option<&str>, s: &Scenario) -> bool {
    if s.jobs.is_empty() && s.workload.is_none() {
        return false;
    }
    let same_jobs = |o: &Scenario| o.jobs == s.jobs && o.workload == s.workload;
    !(preset.and_then(crate::presets::builtin).is_some_and(|b| same_jobs(&b))
        || same_jobs(&crate::edit::new_scenario()))
}

/// The mode an import starts with: Replace when the scenario is a preset or New (its jobs
/// still theirs) or has no jobs, so nothing of the user's is at stake; Merge otherwise.
pub fn default_mode(preset: Option<&str>, s: &Scenario) -> Mode {
    if has_own_jobs(preset, s) {
        Mode::Merge
    } else {
        Mode::Replace
    }
}

/// What is said when the configuration is the scenario's own: replacing changes nothing, and
/// nothing goes to History.
pub const UNCHANGED: &str =
    "Nothing to replace: the scenario already has exactly these shares and this service environment.";

/// What a replacement did, to be described to the user ([`Report::describe`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// The scenario's shares before and the configuration's after (`None`: the configuration
    /// has none, so the shares were kept).
    pub shares: Option<(Vec<String>, Vec<String>)>,
    /// The service environment's capacity before and after, described (`None`: the
    /// configuration has none, so it was kept).
    pub environment: Option<(String, String)>,
    /// Jobs kept.
    pub jobs_kept: usize,
    /// Jobs removed because their share is gone: `(share, jobs)`, in the order of the jobs.
    pub jobs_of_gone_shares: Vec<(String, usize)>,
    /// Jobs removed because the environment has no capacity of their instance type:
    /// `(type, jobs)`, in the order of the jobs.
    pub jobs_of_missing_types: Vec<(String, usize)>,
    /// Shares whose workload entry was removed (the share is gone).
    pub workload_removed: Vec<String>,
    /// Actions removed: on jobs or shares that are gone.
    pub actions_on_gone: usize,
    /// Actions removed: changes of the previous service environment.
    pub environment_actions: usize,
    /// Observed durations (R28 history) of shares that are gone, removed.
    pub observations_removed: usize,
}

/// `s` with the configuration's shares and service environment in place of its own, and what
/// that did. A part the configuration lacks (no shares, or no environment) stays as it was.
pub fn replace(s: &Scenario, c: &Configuration) -> (Scenario, Report) {
    let mut out = s.clone();
    let mut r = Report::default();
    let names = |shares: &[quotasim::model::QuotaShare]| -> Vec<String> {
        shares.iter().map(|q| q.quota_share_name.clone()).collect()
    };
    if !c.quota_shares.is_empty() {
        r.shares = Some((names(&s.quota_shares), names(&c.quota_shares)));
        out.quota_shares = c.quota_shares.clone();
    }
    if let Some(e) = &c.service_environment {
        r.environment =
            Some((capacity(&s.service_environment.capacity_limits), capacity(&e.capacity_limits)));
        out.service_environment = e.clone();
    }
    let share_exists = |n: &str| out.quota_shares.iter().any(|q| q.quota_share_name == n);
    let type_offered = |t: &str| out.service_environment.capacity_limits.iter().any(|l| l.capacity_unit == t);

    let mut jobs = Vec::with_capacity(s.jobs.len());
    let mut removed = std::collections::HashSet::new();
    for j in &s.jobs {
        if !share_exists(&j.quota_share_name) {
            count(&mut r.jobs_of_gone_shares, &j.quota_share_name);
        } else if let Some(t) = instance_type(j).filter(|t| !type_offered(t)) {
            count(&mut r.jobs_of_missing_types, t);
        } else {
            jobs.push(j.clone());
            continue;
        }
        removed.insert(j.job_name.as_str());
    }
    r.jobs_kept = jobs.len();
    out.jobs = jobs;

    if let Some(w) = &mut out.workload {
        w.shares.retain(|e| {
            let keep = share_exists(&e.quota_share_name);
            if !keep {
                r.workload_removed.push(e.quota_share_name.clone());
            }
            keep
        });
        if w.shares.is_empty() {
            out.workload = None;
        }
    }

    let environment_replaced = c.service_environment.is_some();
    out.actions.retain(|a| {
        let gone = match &a.kind {
            ActionKind::UpdateServiceJob { job_name, .. }
            | ActionKind::TerminateServiceJob { job_name, .. } => removed.contains(job_name.as_str()),
            ActionKind::UpdateQuotaShare(u) => !share_exists(&u.quota_share_name),
            // A change of the previous environment would undo the imported one.
            ActionKind::UpdateServiceEnvironment { .. } if environment_replaced => {
                r.environment_actions += 1;
                return false;
            }
            ActionKind::UpdateServiceEnvironment { .. } => false,
        };
        r.actions_on_gone += usize::from(gone);
        !gone
    });

    let before = out.history.len();
    out.history.retain(|o| share_exists(&o.quota_share_name));
    r.observations_removed = before - out.history.len();

    out.instance_types = instance_types(&out, &s.instance_types, &c.instance_types);
    (out, r)
}

/// The instance types a replaced scenario lists: the configuration's (a price the scenario
/// gave kept when the configuration has none) and the scenario's that are still used.
fn instance_types(s: &Scenario, old: &[InstanceTypeInfo], new: &[InstanceTypeInfo]) -> Vec<InstanceTypeInfo> {
    let used = |t: &str| {
        s.service_environment.capacity_limits.iter().any(|l| l.capacity_unit == t)
            || s.quota_shares.iter().any(|q| q.capacity_limits.iter().any(|l| l.capacity_unit == t))
            || s.jobs.iter().any(|j| instance_type(j) == Some(t))
            || s.workload
                .as_ref()
                .is_some_and(|w| w.shares.iter().any(|e| e.instance_types.iter().any(|x| x.name == t)))
            || s.actions.iter().any(|a| match &a.kind {
                ActionKind::UpdateQuotaShare(u) => {
                    u.capacity_limits.iter().flatten().any(|l| l.capacity_unit == t)
                }
                ActionKind::UpdateServiceEnvironment { capacity_limits } => {
                    capacity_limits.iter().any(|l| l.capacity_unit == t)
                }
                _ => false,
            })
    };
    let mut out: Vec<InstanceTypeInfo> = Vec::new();
    for t in old {
        match new.iter().find(|n| n.name == t.name) {
            Some(n) => out.push(InstanceTypeInfo {
                price_per_hour: n.price_per_hour.or(t.price_per_hour),
                ..n.clone()
            }),
            None if used(&t.name) => out.push(t.clone()),
            None => {}
        }
    }
    for n in new {
        if !out.iter().any(|t| t.name == n.name) {
            out.push(n.clone());
        }
    }
    out
}

/// The instance type a job asks for, directly or in its payload.
fn instance_type(j: &Job) -> Option<&str> {
    j.instance_type
        .as_deref()
        .or_else(|| j.service_request_payload.as_ref().and_then(|p| p.instance_type.as_deref()))
}

fn count(v: &mut Vec<(String, usize)>, key: &str) {
    match v.iter_mut().find(|(k, _)| k == key) {
        Some((_, n)) => *n += 1,
        None => v.push((key.to_string(), 1)),
    }
}

/// Capacity limits as "8 ml.p5.48xlarge, 2 ml.g5.xlarge" ("no capacity" when there are none).
fn capacity(l: &[quotasim::model::CapacityLimit]) -> String {
    if l.is_empty() {
        return "no capacity".into();
    }
    l.iter().map(|l| format!("{} {}", l.max_capacity, l.capacity_unit)).collect::<Vec<_>>().join(", ")
}

/// At most this many names are listed; the rest are counted.
const NAMES_SHOWN: usize = 8;

/// "a, b, c", or "a, b, … and 3 more" past [`NAMES_SHOWN`].
fn list(names: &[String]) -> String {
    if names.len() <= NAMES_SHOWN {
        return names.join(", ");
    }
    format!("{}, … and {} more", names[..NAMES_SHOWN].join(", "), names.len() - NAMES_SHOWN)
}

/// "a 3, b 1" (per key, in order), or "a 3, b 1, … and 2 more" past [`NAMES_SHOWN`].
fn counts(v: &[(String, usize)]) -> String {
    let items: Vec<String> = v.iter().map(|(k, n)| format!("{k} {n}")).collect();
    list(&items)
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

impl Report {
    /// Jobs removed, for any reason.
    pub fn jobs_removed(&self) -> usize {
        self.jobs_of_gone_shares.iter().chain(&self.jobs_of_missing_types).map(|x| x.1).sum()
    }

    /// What was replaced and removed, in sentences; `kept`: whether History holds the previous
    /// scenario (else Undo and the notice's Go back are the ways to it).
    pub fn describe(&self, kept: bool) -> String {
        let mut out = Vec::new();
        let env = self.environment.as_ref().map(|(a, b)| {
            if a == b {
                format!("the service environment ({b}, the same capacity)")
            } else {
                format!("the service environment ({a} → {b})")
            }
        });
        let shares = self.shares.as_ref().map(|(a, b)| {
            format!(
                "{} ({}) with {} ({})",
                plural(a.len(), "share", "shares"),
                list(a),
                if a.len() == b.len() { b.len().to_string() } else { plural(b.len(), "share", "shares") },
                list(b)
            )
        });
        out.push(match (shares, env) {
            (Some(s), Some(e)) => format!("Replaced {s} and {e}."),
            (Some(s), None) => {
                format!("Replaced {s}; the service environment is unchanged (the import has none).")
            }
            (None, Some(e)) => format!("Replaced {e}; the shares are unchanged (the import has none)."),
            (None, None) => {
                "Nothing was replaced (the import has neither shares nor a service environment).".into()
            }
        });
        let removed = self.jobs_removed();
        if removed > 0 {
            let mut why = Vec::new();
            if !self.jobs_of_gone_shares.is_empty() {
                let n: usize = self.jobs_of_gone_shares.iter().map(|x| x.1).sum();
                why.push(format!("{n} of shares that are gone ({})", counts(&self.jobs_of_gone_shares)));
            }
            if !self.jobs_of_missing_types.is_empty() {
                let n: usize = self.jobs_of_missing_types.iter().map(|x| x.1).sum();
                why.push(format!(
                    "{n} asking for instance types the new environment lacks ({})",
                    counts(&self.jobs_of_missing_types)
                ));
            }
            out.push(match (self.jobs_kept, removed) {
                (0, 1) => format!("Removed the job, which could not run: {}.", why.join("")),
                (0, _) => format!("Removed all {removed} jobs, which could not run: {}.", why.join(", and ")),
                (kept, _) => format!(
                    "Removed {} that could not run: {}; {kept} kept.",
                    plural(removed, "job", "jobs"),
                    why.join(", and ")
                ),
            });
        } else if self.jobs_kept > 0 {
            out.push(format!(
                "Kept {}.",
                if self.jobs_kept == 1 {
                    "the job".to_string()
                } else {
                    format!("all {} jobs", self.jobs_kept)
                }
            ));
        }
        if !self.workload_removed.is_empty() {
            out.push(format!(
                "Removed the generated workload of {} (gone).",
                if self.workload_removed.len() == 1 {
                    self.workload_removed[0].clone()
                } else {
                    list(&self.workload_removed)
                }
            ));
        }
        let actions = self.actions_on_gone + self.environment_actions;
        if actions > 0 {
            let mut why = Vec::new();
            if self.actions_on_gone > 0 {
                why.push(format!("{} on jobs or shares that are gone", self.actions_on_gone));
            }
            if self.environment_actions > 0 {
                why.push(format!("{} changing the previous service environment", self.environment_actions));
            }
            out.push(format!("Removed {}: {}.", plural(actions, "action", "actions"), why.join(", ")));
        }
        if self.observations_removed > 0 {
            out.push(format!(
                "Removed {} of shares that are gone.",
                plural(self.observations_removed, "observed duration", "observed durations")
            ));
        }
        out.push(if kept {
            "The previous scenario is kept in History (Undo also brings it back).".into()
        } else {
            "The previous scenario is too large for History: Undo brings it back.".into()
        });
        out.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quotasim::model::{
        Action, CapacityLimit, QuotaShare, QuotaShareUpdate, ServiceEnvironment, Strategy,
    };

    fn config(shares: &[(&str, &str, i64)], env: Option<&[(&str, i64)]>) -> Configuration {
        Configuration {
            quota_shares: shares
                .iter()
                .map(|&(n, t, q)| QuotaShare::new(n, Strategy::LendAndBorrow, vec![CapacityLimit::new(t, q)]))
                .collect(),
            service_environment: env.map(|e| ServiceEnvironment {
                service_environment_name: Some("imported".into()),
                capacity_limits: e.iter().map(|&(t, n)| CapacityLimit::new(t, n)).collect(),
                ..ServiceEnvironment::default()
            }),
            instance_types: Vec::new(),
        }
    }

    #[test]
    fn new_presets_and_empty_scenarios_default_to_replace_and_own_jobs_to_merge() {
        let new = crate::edit::new_scenario();
        assert_eq!(default_mode(None, &new), Mode::Replace, "New, with its two sample jobs");
        for p in &crate::presets::PRESETS {
            let s = crate::presets::scenario(p).unwrap();
            assert_eq!(default_mode(Some(p.id), &s), Mode::Replace, "preset {}", p.id);
            let mut edited = s.clone();
            edited.quota_shares[0].capacity_limits[0].max_capacity += 1;
            assert_eq!(
                default_mode(Some(p.id), &edited),
                Mode::Replace,
                "{}: its shares edited, not its jobs",
                p.id
            );
        }
        let mut empty = new.clone();
        empty.jobs.clear();
        assert_eq!(default_mode(None, &empty), Mode::Replace, "no jobs");
        let mut own = new.clone();
        own.jobs[0].duration_seconds = Some(7200);
        assert_eq!(default_mode(None, &own), Mode::Merge, "a job changed is the user's");
        let notebook = crate::presets::scenario(crate::presets::NOTEBOOK).unwrap();
        assert_eq!(default_mode(None, &notebook), Mode::Merge, "a preset's jobs imported from a file");
        let mut more = notebook.clone();
        more.jobs.push(Job::new("mine", "qs1", "ml.p5.48xlarge", 1, 0, 60));
        assert_eq!(default_mode(Some(crate::presets::NOTEBOOK.id), &more), Mode::Merge, "a job added");
        assert_eq!(
            default_mode(Some("generated-10k"), &crate::presets::builtin("generated-10k").unwrap()),
            Mode::Replace
        );
    }

    #[test]
    fn replacing_new_removes_its_shares_and_says_so_by_name() {
        let new = crate::edit::new_scenario();
        let c = config(
            &[
                ("alpha", "ml.p5.48xlarge", 40),
                ("beta", "ml.p5.48xlarge", 24),
                ("gamma", "ml.g5.12xlarge", 4),
            ],
            Some(&[("ml.p5.48xlarge", 64), ("ml.g5.12xlarge", 4)]),
        );
        let (s, r) = replace(&new, &c);
        assert_eq!(s.quota_shares, c.quota_shares, "only the imported shares");
        assert_eq!(s.service_environment, c.service_environment.clone().unwrap());
        assert!(s.jobs.is_empty(), "team-a's and team-b's jobs cannot run");
        assert_eq!(r.jobs_of_gone_shares, vec![("team-a".into(), 1), ("team-b".into(), 1)]);
        assert_eq!(s.name, new.name, "the scenario keeps its name and settings");
        assert_eq!(s.settings, new.settings);
        assert_eq!(
            r.describe(true),
            "Replaced 2 shares (team-a, team-b) with 3 shares (alpha, beta, gamma) and the service environment \
             (8 ml.p5.48xlarge → 64 ml.p5.48xlarge, 4 ml.g5.12xlarge). Removed all 2 jobs, which could not run: 2 \
             of shares that are gone (team-a 1, team-b 1). The previous scenario is kept in History (Undo also \
             brings it back)."
        );
        assert!(quotasim::validate(&s).is_ok(), "{:?}", quotasim::validate(&s).err());
    }

    #[test]
    fn jobs_of_shares_that_stay_are_kept_and_those_the_environment_cannot_run_are_named() {
        let mut s = crate::edit::new_scenario();
        s.jobs.push(Job::new("small", "team-a", "ml.g5.xlarge", 1, 0, 60));
        s.jobs.push(Job::new("small2", "team-a", "ml.g5.xlarge", 1, 0, 60));
        s.instance_types.push(InstanceTypeInfo {
            name: "ml.g5.xlarge".into(),
            gpus: 1,
            price_per_hour: Some(1.0),
        });
        s.instance_types[0].price_per_hour = Some(98.0);
        let c = config(
            &[("team-a", "ml.p5.48xlarge", 6), ("new", "ml.p5.48xlarge", 10)],
            Some(&[("ml.p5.48xlarge", 16)]),
        );
        let (out, r) = replace(&s, &c);
        let names: Vec<&str> = out.jobs.iter().map(|j| j.job_name.as_str()).collect();
        assert_eq!(names, ["team-a-job"]);
        assert_eq!(r.jobs_of_gone_shares, vec![("team-b".into(), 1)]);
        assert_eq!(r.jobs_of_missing_types, vec![("ml.g5.xlarge".into(), 2)]);
        assert_eq!(r.jobs_kept, 1);
        assert_eq!(out.instance_types.len(), 1, "ml.g5.xlarge is used by nothing left");
        assert_eq!(out.instance_types[0].price_per_hour, Some(98.0), "the price given stays");
        let d = r.describe(false);
        assert!(d.starts_with("Replaced 2 shares (team-a, team-b) with 2 (team-a, new) and the service environment (8 ml.p5.48xlarge → 16 ml.p5.48xlarge)."), "{d}");
        assert!(d.contains("Removed 3 jobs that could not run: 1 of shares that are gone (team-b 1), and 2 asking for instance types the new environment lacks (ml.g5.xlarge 2); 1 kept."), "{d}");
        assert!(d.ends_with("too large for History: Undo brings it back."), "{d}");
    }

    #[test]
    fn actions_workload_and_observations_of_what_is_gone_go_with_it() {
        let mut s = crate::edit::new_scenario();
        let at = |kind| Action { at: 60, kind };
        s.actions = vec![
            at(ActionKind::TerminateServiceJob { job_name: "team-b-job".into(), reason: "x".into() }),
            at(ActionKind::UpdateServiceJob { job_name: "team-a-job".into(), scheduling_priority: 5 }),
            at(ActionKind::UpdateQuotaShare(QuotaShareUpdate {
                quota_share_name: "team-b".into(),
                capacity_limits: None,
                resource_sharing_configuration: None,
                preemption_configuration: None,
                state: None,
            })),
            at(ActionKind::UpdateServiceEnvironment {
                capacity_limits: vec![CapacityLimit::new("ml.p5.48xlarge", 2)],
            }),
        ];
        s.workload = quotasim::json::parse_scenario(
            r#"{"serviceEnvironment":{"capacityLimits":[]},"workload":{"jobs":10,"shares":[
                {"quotaShareName":"team-a","instanceTypes":[{"name":"ml.p5.48xlarge"}],
                 "duration":{"distribution":"uniform","minSeconds":60,"maxSeconds":600}},
                {"quotaShareName":"team-b","instanceTypes":[{"name":"ml.p5.48xlarge"}],
                 "duration":{"distribution":"uniform","minSeconds":60,"maxSeconds":600}}]}}"#,
        )
        .unwrap()
        .workload;
        assert!(s.workload.is_some());
        let c = config(&[("team-a", "ml.p5.48xlarge", 8)], Some(&[("ml.p5.48xlarge", 8)]));
        let (out, r) = replace(&s, &c);
        assert_eq!(out.actions.len(), 1, "the action on team-a-job stays");
        assert_eq!((r.actions_on_gone, r.environment_actions), (2, 1));
        assert_eq!(r.workload_removed, vec!["team-b".to_string()]);
        assert_eq!(out.workload.as_ref().unwrap().shares.len(), 1);
        let d = r.describe(true);
        assert!(d.contains("Removed the generated workload of team-b (gone)."), "{d}");
        assert!(d.contains("Removed 3 actions: 2 on jobs or shares that are gone, 1 changing the previous service environment."), "{d}");
        assert!(d.contains("Replaced 2 shares (team-a, team-b) with 1 share (team-a)"), "{d}");
    }

    #[test]
    fn a_part_the_import_lacks_is_kept_and_said_to_be() {
        let s = crate::edit::new_scenario();
        let (out, r) = replace(&s, &config(&[("team-a", "ml.p5.48xlarge", 8)], None));
        assert_eq!(out.service_environment, s.service_environment);
        assert_eq!(out.jobs.len(), 1);
        let d = r.describe(true);
        assert!(d.starts_with("Replaced 2 shares (team-a, team-b) with 1 share (team-a); the service environment is unchanged (the import has none). Removed 1 job"), "{d}");
        let (out, r) = replace(&s, &config(&[], Some(&[("ml.p5.48xlarge", 8)])));
        assert_eq!(out.quota_shares, s.quota_shares);
        assert_eq!(out.jobs, s.jobs);
        assert_eq!(
            r.describe(true),
            "Replaced the service environment (8 ml.p5.48xlarge, the same capacity); the shares are unchanged (the \
             import has none). Kept all 2 jobs. The previous scenario is kept in History (Undo also brings it back)."
        );
    }

    #[test]
    fn the_scenarios_own_configuration_replaces_nothing() {
        for s in [crate::edit::new_scenario(), crate::presets::scenario(crate::presets::NOTEBOOK).unwrap()] {
            let c = Configuration {
                quota_shares: s.quota_shares.clone(),
                service_environment: Some(s.service_environment.clone()),
                instance_types: Vec::new(),
            };
            let (out, r) = replace(&s, &c);
            assert_eq!(out, s, "the caller says UNCHANGED and keeps no copy");
            assert_eq!(r.jobs_removed(), 0);
        }
    }

    #[test]
    fn long_lists_are_cut_short_and_counted() {
        let names: Vec<String> = (0..11).map(|i| format!("s{i}")).collect();
        assert_eq!(list(&names), "s0, s1, s2, s3, s4, s5, s6, s7, … and 3 more");
        assert_eq!(list(&names[..2]), "s0, s1");
    }

    #[test]
    fn replacing_with_a_kueue_export_of_a_preset_gives_that_presets_configuration() {
        let p = crate::presets::scenario(&crate::presets::PRESETS[1]).unwrap();
        use quotasim_playground_bridges::importer::{import, Outcome, TraceSettings};
        let yaml = quotasim_playground_bridges::ExportFormat::Kueue.write(&p);
        let Ok(Some(Outcome::Configuration { configuration, .. })) =
            import(&[("k.yaml".into(), yaml)], &TraceSettings::default())
        else {
            panic!("not configuration")
        };
        let (out, _) = replace(&crate::edit::new_scenario(), &configuration);
        let names =
            |s: &Scenario| s.quota_shares.iter().map(|q| q.quota_share_name.clone()).collect::<Vec<_>>();
        assert_eq!(names(&out), names(&p));
        assert_eq!(out.service_environment.capacity_limits, p.service_environment.capacity_limits);
        // Merging instead keeps New's shares beside the imported ones: the bug Replace avoids.
        let mut merged = crate::edit::new_scenario();
        quotasim::merge::merge(&mut merged, &configuration);
        assert!(names(&merged).iter().any(|n| n == "team-a"));
    }
}
