//! A forecast as a front end is asked for one: the state and the job to submit as JSON text,
//! changes as `PATH=VALUE` strings, and the options. The command line (`quotasim eta`) and
//! the npm package (`eta`, `etaJson`) both prepare their forecasts here, so they read the
//! same inputs the same way and refuse the same ones with the same problems.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::forecast::Forecast;
use super::options::EtaOptions;
use crate::change::{apply_changes, Change};
use crate::model::Job;
use crate::validate::Problem;

/// How the message of a `--submit` that is not a job begins (after it, serde's reason).
pub const NOT_A_JOB: &str = "not a job: ";

/// Parses the state, applies the changes, parses the job to submit (when given, it replaces
/// `opts.submit`) and prepares the forecast (which expands or models the `workload` section),
/// in that order: the first step that fails stops it.
///
/// Problems name the option they are about as the command line spells it (`--set[0]`,
/// `--submit`, `--job[0]`, `--replicates`, `--horizon`) and a field of the state by its path
/// in the state (`jobs[3].durationSeconds`); a change that names nothing is named by its own
/// path, as `run --set` names it. A front end with other spellings maps the `--` names.
pub fn prepare(
    state: &str,
    set: &[String],
    submit: Option<&str>,
    mut opts: EtaOptions,
) -> Result<Forecast, Vec<Problem>> {
    let changes = set
        .iter()
        .enumerate()
        .map(|(i, c)| {
            Change::parse(c).map_err(|p| alloc::vec![Problem::error(format!("--set[{i}]"), p.message)])
        })
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(text) = submit {
        let job = serde_json::from_str::<Job>(text)
            .map_err(|e| alloc::vec![Problem::error("--submit", format!("{NOT_A_JOB}{e}"))])?;
        opts.submit = Some(job);
    }
    let parsed = crate::json::parse_scenario(state).map_err(|p| alloc::vec![p])?;
    let changed = if changes.is_empty() {
        parsed
    } else {
        apply_changes(&parsed, &changes).map_err(|p| alloc::vec![p])?
    };
    Forecast::new(&changed, opts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use alloc::vec;

    /// One share of one instance: `running` trains from 0, `next` waits behind it.
    const STATE: &str = r#"{
      "serviceEnvironment": {"capacityLimits": [{"capacityUnit": "ml.g5.xlarge", "maxCapacity": 1}]},
      "quotaShares": [{"quotaShareName": "a", "capacityLimits": [{"capacityUnit": "ml.g5.xlarge", "maxCapacity": 1}],
        "resourceSharingConfiguration": {"strategy": "RESERVE"}}],
      "settings": {"startAt": 100},
      "jobs": [
        {"jobName": "running", "quotaShareName": "a", "instanceType": "ml.g5.xlarge", "startedAt": 0, "durationSeconds": 600},
        {"jobName": "next", "quotaShareName": "a", "instanceType": "ml.g5.xlarge", "submitAt": 50, "durationSeconds": 300}
      ]
    }"#;

    const MINE: &str = r#"{"jobName": "mine", "quotaShareName": "a", "instanceType": "ml.g5.xlarge", "durationSeconds": 60, "schedulingPriority": 9}"#;

    fn exact() -> EtaOptions {
        EtaOptions {
            durations: Some(super::super::options::Durations::Exact),
            replicates: 3,
            ..EtaOptions::default()
        }
    }

    fn paths(r: Result<Forecast, Vec<Problem>>) -> Vec<String> {
        r.map(drop).unwrap_err().into_iter().map(|p| p.path).collect()
    }

    #[test]
    fn prepare_is_the_steps_by_hand() {
        let set = vec!["jobs[next].durationSeconds=200".to_string()];
        let f = prepare(STATE, &set, Some(MINE), exact()).unwrap();
        let mut s = crate::json::parse_scenario(STATE).unwrap();
        s.jobs[1].duration_seconds = Some(200);
        let job: Job = serde_json::from_str(MINE).unwrap();
        let by_hand = Forecast::new(&s, EtaOptions { submit: Some(job), ..exact() }).unwrap();
        assert_eq!(f.run().unwrap(), by_hand.run().unwrap());
        // `running` ends at 600, 500 after startAt; the submitted job's priority puts it first.
        let r = f.run().unwrap();
        let start = |name: &str| r.jobs.iter().find(|j| j.job_name == name).unwrap().start.p50;
        assert_eq!((start("mine"), start("next")), (Some(500), Some(560)));
    }

    #[test]
    fn prepare_names_the_option_or_the_field() {
        let set = |c: &[&str]| c.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(
            paths(prepare(STATE, &set(&["settings.backfill=true", "oops"]), None, exact())),
            ["--set[1]"]
        );
        let r = prepare(STATE, &[], Some(r#"{"jobName": 3}"#), exact());
        let p = r.map(drop).unwrap_err();
        assert_eq!(p[0].path, "--submit");
        assert!(p[0].message.starts_with(NOT_A_JOB), "{}", p[0].message);
        // The submitted job is read before the state, as the command line always has.
        assert_eq!(paths(prepare("{", &[], Some("[]"), exact())), ["--submit"]);
        assert_eq!(paths(prepare("{", &[], None, exact())), [""]);
        assert_eq!(
            paths(prepare(STATE, &set(&["quotaShares[b].state=DISABLED"]), None, exact())),
            ["quotaShares[b].state"]
        );
        let o = EtaOptions { jobs: vec!["nobody".into()], ..exact() };
        assert_eq!(paths(prepare(STATE, &[], None, o)), ["--job[0]"]);
        let clash = r#"{"jobName": "next", "quotaShareName": "a", "instanceType": "ml.g5.xlarge", "durationSeconds": 1}"#;
        assert_eq!(paths(prepare(STATE, &[], Some(clash), exact())), ["--submit.jobName"]);
    }
}
