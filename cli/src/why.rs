//! `quotasim why`: verified counterfactuals for a job's preemption or wait (the study is the
//! engine's, `quotasim::why`; this is its command line).

use std::process::ExitCode;

use quotasim::why::{report::text, why, WhyError, WhyOptions, DEFAULT_MAX_RUNS};

use crate::policy::{load_changed, Stop};
use crate::{json, print_problems, write_out};

/// `why`'s arguments.
#[derive(clap::Args)]
pub struct WhyArgs {
    /// Scenario JSON file, or - for standard input.
    scenario: String,
    /// The job to explain.
    #[arg(long, value_name = "NAME")]
    job: String,
    /// Its K-th preemption (from 1); default the first, or its wait when it is never preempted.
    #[arg(long, value_name = "K")]
    preemption: Option<u32>,
    /// For a wait: how many seconds earlier it must start (default half its wait).
    #[arg(long, value_name = "SECONDS")]
    by: Option<u64>,
    /// Most runs of the scenario, the baseline included (1 to 10000).
    #[arg(long = "max-runs", value_name = "M", default_value_t = DEFAULT_MAX_RUNS)]
    max_runs: u32,
    /// text: for people; json: the report.
    #[arg(long, value_enum, default_value = "text")]
    format: crate::Format,
}

pub fn why_cmd(a: WhyArgs) -> Result<ExitCode, Stop> {
    let opts = WhyOptions { job: a.job, preemption: a.preemption, by: a.by, max_runs: a.max_runs };
    // Options the scenario cannot make right are refused before it is read.
    if let Err(WhyError::Usage(p)) = quotasim::why::check_options(&opts) {
        say!("quotasim: {} {}", p.path, p.message);
        return Err(Stop(ExitCode::from(2)));
    }
    let scenario = load_changed(&a.scenario, &[])?;
    let report = why(&scenario, &opts).map_err(|e| match e {
        WhyError::Usage(p) => {
            say!("quotasim: {} {}", p.path, p.message);
            Stop(ExitCode::from(2))
        }
        WhyError::Invalid(ps) => {
            print_problems(&ps);
            Stop(ExitCode::from(1))
        }
        WhyError::Run(m) => {
            say!("quotasim: {m}");
            Stop(ExitCode::from(1))
        }
    })?;
    let out = match a.format {
        crate::Format::Json => json(&report, false),
        crate::Format::Text => text(&report).trim_end().to_string(),
    };
    Ok(write_out(&out))
}
