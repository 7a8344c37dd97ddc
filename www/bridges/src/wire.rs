//! What the page and the bridges module say to each other: JSON text, one request and one
//! reply per call. Scenarios, shares and problems travel in the engine's own JSON forms, so a
//! reply read back is the very value the importer made (`round_trips` below checks it).

use quotasim::merge::Configuration;
use quotasim::model::{InstanceTypeInfo, QuotaShare, Scenario, ServiceEnvironment};
use quotasim::Problem;
use serde::{Deserialize, Serialize};

use crate::importer::{import, Outcome, TraceSettings};

/// An import: the files (name and text) and the options for CSV job logs.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ImportRequest {
    files: Vec<(String, String)>,
    columns: String,
    gpus_per_instance: i64,
}

/// Configuration without jobs, as it travels.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct WireConfiguration {
    quota_shares: Vec<QuotaShare>,
    service_environment: Option<ServiceEnvironment>,
    instance_types: Vec<InstanceTypeInfo>,
}

/// What an import did.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
enum ImportReply {
    /// The playground's own JSON: the page reads it.
    Own,
    Configuration {
        configuration: WireConfiguration,
        recognised: Vec<String>,
        warnings: Vec<Problem>,
    },
    New {
        scenario: Box<Scenario>,
        recognised: Vec<String>,
        warnings: Vec<Problem>,
    },
    Failed {
        problems: Vec<Problem>,
    },
}

/// The request for importing `files` with `settings`.
pub fn import_request(files: &[(String, String)], settings: &TraceSettings) -> String {
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Borrowed<'a> {
        files: &'a [(String, String)],
        columns: &'a str,
        gpus_per_instance: i64,
    }
    let r = Borrowed { files, columns: &settings.columns, gpus_per_instance: settings.gpus_per_instance };
    serde_json::to_string(&r).unwrap_or_default()
}

/// Answers an import request (the module's side).
pub fn handle_import(request: &str) -> String {
    let reply = match serde_json::from_str::<ImportRequest>(request) {
        Err(e) => ImportReply::Failed {
            problems: vec![Problem::error("", format!("a malformed import request: {e}"))],
        },
        Ok(r) => {
            let settings = TraceSettings { columns: r.columns, gpus_per_instance: r.gpus_per_instance };
            match import(&r.files, &settings) {
                Ok(None) => ImportReply::Own,
                Ok(Some(Outcome::Configuration { configuration: c, recognised, warnings })) => {
                    ImportReply::Configuration {
                        configuration: WireConfiguration {
                            quota_shares: c.quota_shares,
                            service_environment: c.service_environment,
                            instance_types: c.instance_types,
                        },
                        recognised,
                        warnings,
                    }
                }
                Ok(Some(Outcome::New { scenario, recognised, warnings })) => {
                    ImportReply::New { scenario, recognised, warnings }
                }
                Err(problems) => ImportReply::Failed { problems },
            }
        }
    };
    serde_json::to_string(&reply).unwrap_or_default()
}

/// Reads an import reply: what the import did, as [`import`] returns it (the outer error:
/// the reply could not be read).
#[allow(clippy::type_complexity)]
pub fn import_reply(reply: &str) -> Result<Result<Option<Outcome>, Vec<Problem>>, String> {
    let r = serde_json::from_str::<ImportReply>(reply)
        .map_err(|e| format!("the importers' reply could not be read: {e}"))?;
    Ok(match r {
        ImportReply::Own => Ok(None),
        ImportReply::Configuration { configuration: c, recognised, warnings } => {
            Ok(Some(Outcome::Configuration {
                configuration: Configuration {
                    quota_shares: c.quota_shares,
                    service_environment: c.service_environment,
                    instance_types: c.instance_types,
                },
                recognised,
                warnings,
            }))
        }
        ImportReply::New { scenario, recognised, warnings } => {
            Ok(Some(Outcome::New { scenario, recognised, warnings }))
        }
        ImportReply::Failed { problems } => Err(problems),
    })
}

/// A deploy export's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExportFormat {
    /// The CloudFormation template (JSON) that deploys the scenario's configuration.
    CloudFormation,
    /// The AWS CLI calls that create it (a shell script).
    AwsCli,
    /// Kueue's objects for it (YAML documents).
    Kueue,
}

impl ExportFormat {
    /// The file's name after the scenario's stem, and its media type.
    pub fn file(self, stem: &str) -> (String, &'static str) {
        match self {
            ExportFormat::CloudFormation => (format!("{stem}-cloudformation.json"), "application/json"),
            ExportFormat::AwsCli => (format!("{stem}-aws-cli.sh"), "text/x-shellscript"),
            ExportFormat::Kueue => (format!("{stem}-kueue.yaml"), "application/yaml"),
        }
    }

    /// The export of `s` in this format.
    pub fn write(self, s: &Scenario) -> String {
        match self {
            ExportFormat::CloudFormation => {
                quotasim::json::to_json_pretty(&quotasim::export::cloudformation(s))
            }
            ExportFormat::AwsCli => quotasim::export::aws_cli(s),
            ExportFormat::Kueue => quotasim::yaml::to_yaml_documents(&quotasim::kueue::export(s).0),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExportRequest {
    format: ExportFormat,
    scenario: Scenario,
}

/// The request for exporting `s` as `format`.
pub fn export_request(format: ExportFormat, s: &Scenario) -> String {
    #[derive(Serialize)]
    struct Borrowed<'a> {
        format: ExportFormat,
        scenario: &'a Scenario,
    }
    serde_json::to_string(&Borrowed { format, scenario: s }).unwrap_or_default()
}

/// Answers an export request (the module's side): the text, or why there is none.
pub fn handle_export(request: &str) -> String {
    let reply: Result<String, String> = serde_json::from_str::<ExportRequest>(request)
        .map(|r| r.format.write(&r.scenario))
        .map_err(|e| format!("a malformed export request: {e}"));
    serde_json::to_string(&reply).unwrap_or_default()
}

/// Reads an export reply.
pub fn export_reply(reply: &str) -> Result<String, String> {
    serde_json::from_str::<Result<String, String>>(reply)
        .map_err(|e| format!("the exporters' reply could not be read: {e}"))?
}

#[cfg(test)]
mod tests {
    use super::*;

    fn notebook() -> Scenario {
        quotasim::json::parse_scenario(include_str!("../../presets/notebook.json")).unwrap()
    }

    fn via_wire(files: &[(String, String)], t: &TraceSettings) -> Result<Option<Outcome>, Vec<Problem>> {
        import_reply(&handle_import(&import_request(files, t))).unwrap()
    }

    #[test]
    fn round_trips() {
        let s = notebook();
        let yaml = ExportFormat::Kueue.write(&s);
        let log = "id,team,gpus,t,d\na,x,8,0,60\nb,y,16,5,60\n";
        let t = TraceSettings {
            columns: "name=id,team=team,gpus=gpus,submit=t,duration=d".into(),
            gpus_per_instance: 8,
        };
        let own = include_str!("../../presets/notebook.json").to_string();
        for files in [
            vec![("k.yaml".to_string(), yaml)],
            vec![("log.csv".to_string(), log.to_string())],
            vec![("s.json".to_string(), own)],
            vec![
                ("a.csv".to_string(), log.to_string()),
                ("b.yaml".to_string(), ExportFormat::Kueue.write(&s)),
            ],
        ] {
            assert_eq!(via_wire(&files, &t), import(&files, &t), "{}", files[0].0);
        }
        // Without columns a CSV log fails, naming the field, through the wire too.
        let err = via_wire(&[("log.csv".into(), log.into())], &TraceSettings::default()).unwrap_err();
        assert_eq!(err[0].path, "columns");
    }

    #[test]
    fn exports_are_the_engine_s_and_bad_requests_are_named() {
        let s = notebook();
        for f in [ExportFormat::CloudFormation, ExportFormat::AwsCli, ExportFormat::Kueue] {
            assert_eq!(export_reply(&handle_export(&export_request(f, &s))), Ok(f.write(&s)));
        }
        assert!(ExportFormat::Kueue.write(&s).contains("kueue.x-k8s.io"));
        let e = export_reply(&handle_export(r#"{"format":"pdf","scenario":{}}"#)).unwrap_err();
        assert!(e.starts_with("a malformed export request: unknown variant `pdf`"), "{e}");
        let Err(p) = import_reply(&handle_import("{}")).unwrap() else { panic!("accepted") };
        assert!(p[0].message.contains("missing field `files`"), "{}", p[0].message);
        assert!(import_reply("not json").unwrap_err().starts_with("the importers' reply could not be read"));
    }
}
