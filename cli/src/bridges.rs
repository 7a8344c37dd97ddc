//! `quotasim import kueue` and `quotasim export cloudformation|aws-cli|kueue`: reading YAML
//! and writing YAML, JSON or shell around the engine's pure mappings (`quotasim::kueue`,
//! `quotasim::export`).

use std::process::ExitCode;

use quotasim::json::{parse_scenario, to_json_pretty};
use quotasim::kueue;
use quotasim::Problem;

use crate::policy::Stop;
use crate::{print_problems, read_input, write_out};

/// `quotasim import kueue FILE... [--gpus-per-instance N]`.
pub fn import_kueue(files: &[String], gpus: Option<i64>) -> Result<ExitCode, Stop> {
    let mut docs = Vec::new();
    let mut problems = Vec::new();
    for f in files {
        let text = read_input(f).map_err(Stop)?;
        let (d, p) = quotasim::yaml::documents(f, &text);
        docs.extend(d);
        problems.extend(p);
    }
    match kueue::import(&docs, gpus) {
        Ok(r) => {
            eprintln!(
                "quotasim: recognised {}",
                if r.recognised.is_empty() { "nothing".into() } else { r.recognised.join(", ") }
            );
            print_problems(&problems);
            print_problems(&r.warnings);
            if problems.iter().any(Problem::is_error) {
                return Ok(ExitCode::from(1));
            }
            Ok(write_out(&to_json_pretty(&r.scenario)))
        }
        Err(p) => {
            print_problems(&problems);
            print_problems(&p);
            Ok(ExitCode::from(1))
        }
    }
}

/// What `quotasim export` writes.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportFormat {
    /// A CloudFormation template (JSON; YAML with --yaml).
    Cloudformation,
    /// The `aws batch` commands, as a shell script.
    AwsCli,
    /// Kueue Cohort, ResourceFlavors and ClusterQueues (multi-document YAML).
    Kueue,
}

/// `quotasim export FORMAT SCENARIO.json`.
pub fn export(format: ExportFormat, scenario: &str, as_yaml: bool) -> Result<ExitCode, Stop> {
    let text = read_input(scenario).map_err(Stop)?;
    let s = parse_scenario(&text).map_err(|p| {
        print_problems(&[p]);
        Stop(ExitCode::from(1))
    })?;
    if let Err(p) = quotasim::validate(&s) {
        print_problems(&p);
        return Err(Stop(ExitCode::from(1)));
    }
    let out = match format {
        ExportFormat::Cloudformation => {
            let t = quotasim::export::cloudformation(&s);
            if as_yaml {
                quotasim::yaml::to_yaml(&t)
            } else {
                to_json_pretty(&t)
            }
        }
        ExportFormat::AwsCli => quotasim::export::aws_cli(&s),
        ExportFormat::Kueue => {
            let (docs, warnings) = kueue::export(&s);
            print_problems(&warnings);
            quotasim::yaml::to_yaml_documents(&docs)
        }
    };
    Ok(write_out(out.trim_end()))
}
