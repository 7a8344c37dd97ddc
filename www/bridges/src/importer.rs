//! What the Import / Export dialog does with dropped, chosen or pasted files besides the
//! playground's own JSON: AWS Batch output and EventBridge lines, Kueue YAML and CSV job logs,
//! each recognised from its content and read by the engine's importers (the command line's
//! `quotasim import`). Configuration alone replaces the current scenario's shares and service
//! environment or merges into it (the page's `replace`); anything with jobs becomes a new
//! scenario.

use quotasim::merge::Configuration;
use quotasim::model::Scenario;
use quotasim::trace::{Columns, TraceFormat, TraceOptions};
use quotasim::Problem;

/// What one file looks like.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// The playground's own scenario or comparison JSON (read by the caller).
    Own,
    Aws,
    Kueue,
    /// A CSV job log; `true` for the Alibaba openb pod list.
    Trace(bool),
}

/// Options for CSV job logs other than openb.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceSettings {
    /// `submit=submit_time,duration=duration,gpus=gpu_num,team=vc`.
    pub columns: String,
    pub gpus_per_instance: i64,
}

impl Default for TraceSettings {
    fn default() -> Self {
        TraceSettings { columns: String::new(), gpus_per_instance: 8 }
    }
}

/// What an import does.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Configuration alone, to replace the current scenario's shares and service environment
    /// or to merge into it (the page's `replace::Mode`).
    Configuration { configuration: Configuration, recognised: Vec<String>, warnings: Vec<Problem> },
    /// A new scenario (it has jobs): the current one goes to the history.
    New { scenario: Box<Scenario>, recognised: Vec<String>, warnings: Vec<Problem> },
}

/// Recognises a file from its content.
pub fn kind_of(text: &str) -> FileKind {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    if t.starts_with('{') || t.starts_with('[') {
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(t) {
            let aws = match &v {
                serde_json::Value::Array(a) => {
                    !a.is_empty() && a.iter().all(|x| quotasim::aws::kind_of(x).is_some())
                }
                other => quotasim::aws::kind_of(other).is_some(),
            };
            return if aws { FileKind::Aws } else { FileKind::Own };
        }
        // JSON lines (an EventBridge archive): the first line is an AWS record.
        let first = t.lines().next().unwrap_or("");
        let lines = serde_json::from_str::<serde_json::Value>(first)
            .ok()
            .is_some_and(|v| quotasim::aws::kind_of(&v).is_some());
        return if lines { FileKind::Aws } else { FileKind::Own };
    }
    if t.contains("kueue.x-k8s.io") {
        return FileKind::Kueue;
    }
    let header = t.lines().next().unwrap_or("");
    if header.contains(',') {
        let cols: Vec<&str> = header.split(',').map(str::trim).collect();
        return FileKind::Trace(cols.contains(&"creation_time") && cols.contains(&"num_gpu"));
    }
    FileKind::Own
}

/// Reads files that are not the playground's own JSON; `Ok(None)` when they are (a single
/// file the caller reads as a scenario or a comparison). Files of different kinds at once are
/// refused, naming them.
pub fn import(files: &[(String, String)], trace: &TraceSettings) -> Result<Option<Outcome>, Vec<Problem>> {
    let kinds: Vec<FileKind> = files.iter().map(|(_, t)| kind_of(t)).collect();
    let Some(&first) = kinds.first() else {
        return Err(vec![Problem::error("", "no file to import")]);
    };
    let same = kinds.iter().all(|k| core::mem::discriminant(k) == core::mem::discriminant(&first));
    if !same {
        let list: Vec<String> =
            files.iter().zip(&kinds).map(|((n, _), k)| format!("{n} ({})", describe(*k))).collect();
        return Err(vec![Problem::error(
            "",
            format!("import one kind of file at a time, not {}", list.join(", ")),
        )]);
    }
    match first {
        FileKind::Own if files.len() == 1 => Ok(None),
        FileKind::Own => Err(vec![Problem::error(
            "",
            "import one scenario or comparison file at a time (several files are AWS outputs, Kueue YAML or job logs)",
        )]),
        FileKind::Aws => {
            if let Some(c) = quotasim::aws::configuration(files) {
                return Ok(Some(Outcome::Configuration {
                    configuration: c.configuration,
                    recognised: c.recognised,
                    warnings: c.warnings,
                }));
            }
            let r = quotasim::aws::import(files, None)?;
            Ok(Some(Outcome::New { scenario: Box::new(r.scenario), recognised: r.recognised, warnings: r.warnings }))
        }
        FileKind::Kueue => {
            let mut docs = Vec::new();
            let mut problems = Vec::new();
            for (name, text) in files {
                let (d, p) = quotasim::yaml::documents(name, text);
                docs.extend(d);
                problems.extend(p);
            }
            let r = quotasim::kueue::import(&docs, None).map_err(|mut p| {
                problems.append(&mut p);
                problems.clone()
            })?;
            problems.extend(r.warnings);
            let s = r.scenario;
            Ok(Some(Outcome::Configuration {
                configuration: Configuration {
                    quota_shares: s.quota_shares,
                    service_environment: Some(s.service_environment),
                    instance_types: s.instance_types,
                },
                recognised: r.recognised,
                warnings: problems,
            }))
        }
        FileKind::Trace(openb) => {
            let columns = if trace.columns.trim().is_empty() {
                if !openb {
                    return Err(vec![Problem::error(
                        "columns",
                        "a CSV job log other than the openb pod list needs its columns, e.g. \
                         submit=submit_time,duration=duration,gpus=gpu_num,team=vc",
                    )]);
                }
                Columns::default()
            } else {
                Columns::parse(&trace.columns).map_err(|p| vec![p])?
            };
            let o = TraceOptions {
                format: if openb { TraceFormat::Openb } else { TraceFormat::Csv },
                columns,
                gpus_per_instance: trace.gpus_per_instance,
                ..TraceOptions::default()
            };
            let r = quotasim::trace::import(files, &o)?;
            Ok(Some(Outcome::New { scenario: Box::new(r.scenario), recognised: r.recognised, warnings: r.warnings }))
        }
    }
}

fn describe(k: FileKind) -> &'static str {
    match k {
        FileKind::Own => "scenario JSON",
        FileKind::Aws => "AWS Batch output",
        FileKind::Kueue => "Kueue YAML",
        FileKind::Trace(true) => "openb pod list",
        FileKind::Trace(false) => "CSV job log",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOTEBOOK: &str = include_str!("../../presets/notebook.json");

    fn notebook() -> Scenario {
        quotasim::json::parse_scenario(NOTEBOOK).unwrap()
    }

    fn one(name: &str, text: &str) -> Vec<(String, String)> {
        vec![(name.into(), text.into())]
    }

    const SHARE: &str = r#"{"quotaShareName":"team-x","quotaShareArn":"arn:aws:batch:us-east-1:1:quota-share/q/team-x",
        "jobQueue":"q","capacityLimits":[{"capacityUnit":"ml.p5.48xlarge","maxCapacity":2}],
        "resourceSharingConfiguration":{"strategy":"LEND"},"preemptionConfiguration":{"inSharePreemption":"DISABLED"},
        "state":"ENABLED","status":"VALID"}"#;

    #[test]
    fn a_pasted_describe_quota_share_merges_into_the_current_scenario() {
        let Ok(Some(Outcome::Configuration { configuration, recognised, .. })) =
            import(&one("pasted", SHARE), &TraceSettings::default())
        else {
            panic!("not a merge");
        };
        assert_eq!(recognised, vec!["pasted: 1 describe-quota-share".to_string()]);
        let mut s = notebook();
        let before = s.quota_shares.len();
        let changes = quotasim::merge::merge(&mut s, &configuration);
        assert_eq!(changes, vec!["quota share team-x added".to_string()]);
        assert_eq!(s.quota_shares.len(), before + 1);
    }

    #[test]
    fn a_list_of_shares_and_a_service_environment_alone_merge_too() {
        let env = r#"{"serviceEnvironments":[{"serviceEnvironmentName":"se","capacityLimits":[{"capacityUnit":"ml.p5.48xlarge","maxCapacity":9}]}]}"#;
        let Ok(Some(Outcome::Configuration { configuration, .. })) =
            import(&one("env.json", env), &TraceSettings::default())
        else {
            panic!("not a merge");
        };
        assert!(configuration.quota_shares.is_empty());
        assert_eq!(configuration.service_environment.unwrap().capacity_limits[0].max_capacity, 9);
        let list = format!(r#"{{"quotaShares":[{SHARE}]}}"#);
        assert!(matches!(
            import(&one("l.json", &list), &TraceSettings::default()),
            Ok(Some(Outcome::Configuration { .. }))
        ));
    }

    #[test]
    fn jobs_make_a_new_scenario_and_own_json_is_left_to_the_caller() {
        let page = r#"{"jobSummaryList":[{"jobId":"j","quotaShareName":"a","createdAt":0,"startedAt":0,"stoppedAt":60000,"status":"SUCCEEDED",
            "capacityUsage":[{"capacityUnit":"ml.p5.48xlarge","quantity":1}]}]}"#;
        let Ok(Some(Outcome::New { scenario, .. })) = import(&one("p.json", page), &TraceSettings::default())
        else {
            panic!("not new");
        };
        assert_eq!(scenario.jobs.len(), 1);
        let own = NOTEBOOK;
        assert_eq!(import(&one("s.json", own), &TraceSettings::default()), Ok(None));
        assert_eq!(kind_of("{ not json"), FileKind::Own, "broken JSON is the scenario reader's to explain");
    }

    #[test]
    fn kueue_yaml_merges_and_csv_logs_become_scenarios() {
        let s = notebook();
        let yaml = quotasim::yaml::to_yaml_documents(&quotasim::kueue::export(&s).0);
        assert_eq!(kind_of(&yaml), FileKind::Kueue);
        let Ok(Some(Outcome::Configuration { configuration, .. })) =
            import(&one("k.yaml", &yaml), &TraceSettings::default())
        else {
            panic!("not a merge");
        };
        assert_eq!(configuration.quota_shares.len(), s.quota_shares.len());
        let log = "id,team,gpus,t,d\na,x,8,0,60\nb,y,16,5,60\n";
        assert_eq!(kind_of(log), FileKind::Trace(false));
        let err = import(&one("log.csv", log), &TraceSettings::default()).unwrap_err();
        assert_eq!(err[0].path, "columns");
        let t = TraceSettings {
            columns: "name=id,team=team,gpus=gpus,submit=t,duration=d".into(),
            gpus_per_instance: 8,
        };
        let Ok(Some(Outcome::New { scenario, .. })) = import(&one("log.csv", log), &t) else {
            panic!("not new")
        };
        assert_eq!(scenario.jobs.len(), 2);
        let openb = "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n\
                     p,1,1,1,1000,,LS,Succeeded,5,100,6\n";
        assert_eq!(kind_of(openb), FileKind::Trace(true));
        assert!(matches!(
            import(&one("o.csv", openb), &TraceSettings::default()),
            Ok(Some(Outcome::New { .. }))
        ));
        let mixed = vec![("a.csv".to_string(), log.to_string()), ("k.yaml".to_string(), yaml)];
        assert!(import(&mixed, &t).unwrap_err()[0].message.contains("one kind of file at a time"));
    }
}
