//! `quotasim recommend`: the least costly quotas that meet every objective, with the proof
//! (the study is the engine's, `quotasim::recommend`; this is its command line, running each
//! batch of candidates on every core).

use std::process::ExitCode;

use quotasim::recommend::{
    recommended_scenario, report::text, space::parse_space, RecommendError, RecommendOptions, RecommendStep,
    SpaceFile, Study, DEFAULT_MAX_RUNS,
};

use crate::input::read_input;
use crate::policy::{load_changed, Stop};
use crate::{json, print_problems, write_out};

/// `recommend`'s arguments.
#[derive(clap::Args)]
pub struct RecommendArgs {
    /// Scenario JSON file, or - for standard input: its workload and its policy as it is.
    scenario: String,
    /// Objectives JSON file (the one `check` reads).
    #[arg(long, value_name = "OBJ.json")]
    objectives: String,
    /// A metric path to minimise instead of capacityPerHour (one metric, no `*`).
    #[arg(long, value_name = "METRIC")]
    minimize: Option<String>,
    /// Space JSON file: {"formatVersion":1,"axes":[{"path":P,"values":[...]|"range":{...}}],"fixed":[P]}.
    #[arg(long, value_name = "SPACE.json")]
    space: Option<String>,
    /// Seeds of the workload each candidate runs on (workload.seed, seed+1, ...).
    #[arg(long, value_name = "N", default_value_t = 1)]
    replicates: u32,
    /// The fraction of the seeds on which an objective must be met (default: all).
    #[arg(long, value_name = "P", default_value_t = 1.0)]
    confidence: f64,
    /// Most single-seed runs (1 to 1000000).
    #[arg(long = "max-runs", value_name = "M", default_value_t = DEFAULT_MAX_RUNS)]
    max_runs: u32,
    /// Threads (default: every core); the report is the same whatever the count.
    #[arg(long)]
    threads: Option<usize>,
    /// text: the answer, its objectives, certificate and front; json: the report.
    #[arg(long, value_enum, default_value = "text")]
    format: crate::Format,
    /// Write the recommended scenario here.
    #[arg(long, value_name = "RECOMMENDED.json")]
    out: Option<String>,
}

fn stop(e: RecommendError, file: &str) -> Stop {
    match e {
        RecommendError::Usage(p) => {
            say!("quotasim: {} {}", p.path, p.message);
            Stop(ExitCode::from(2))
        }
        RecommendError::Objectives(ps) => {
            for p in &ps {
                say!("{file}: {p}");
            }
            Stop(ExitCode::from(1))
        }
        RecommendError::Invalid(ps) | RecommendError::Space(ps) => {
            print_problems(&ps);
            Stop(ExitCode::from(1))
        }
    }
}

pub fn recommend_cmd(a: RecommendArgs) -> Result<ExitCode, Stop> {
    let opts = RecommendOptions {
        minimize: a.minimize.clone(),
        replicates: a.replicates,
        confidence: a.confidence,
        max_runs: a.max_runs,
    };
    // Options the files cannot make right are refused before they are read.
    if let Err(e) = quotasim::recommend::check_options(&opts) {
        return Err(stop(e, &a.objectives));
    }
    let text_of = |path: &str| read_input(path).map_err(Stop);
    let objectives = quotasim::objective::load_objectives(&text_of(&a.objectives)?).map_err(|ps| {
        for p in &ps {
            say!("{}: {p}", a.objectives);
        }
        Stop(ExitCode::from(1))
    })?;
    let space = match &a.space {
        Some(f) => parse_space(&text_of(f)?).map_err(|p| {
            say!("{f}: {p}");
            Stop(ExitCode::from(1))
        })?,
        None => SpaceFile::default(),
    };
    let scenario = load_changed(&a.scenario, &[])?;
    let mut study = Study::new(&scenario, &objectives, &space, &opts).map_err(|e| match e {
        RecommendError::Invalid(ps) => {
            print_problems(&ps);
            Stop(ExitCode::from(1))
        }
        RecommendError::Space(ps) => {
            let f = a.space.as_deref().unwrap_or("space");
            for p in &ps {
                say!("{f}: {p}");
            }
            Stop(ExitCode::from(1))
        }
        e => stop(e, &a.objectives),
    })?;
    let threads =
        a.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
    let report = loop {
        match study.next() {
            RecommendStep::Done(r) => break *r,
            RecommendStep::Run(cs) => {
                let n = study.seed_count();
                let s = &study;
                let done = crate::parallel::in_order(cs.len() * n, threads, |i| {
                    Ok::<_, ()>(s.run(&cs[i / n], i % n))
                });
                let mut outcomes: Vec<Vec<quotasim::recommend::Outcome>> =
                    vec![Vec::with_capacity(n); cs.len()];
                for (i, o) in done {
                    if let Ok(o) = o {
                        outcomes[i / n].push(o);
                    }
                }
                for (c, e) in cs.into_iter().zip(outcomes) {
                    study.record(c, e);
                }
            }
        }
    };
    if let Some(path) = &a.out {
        let s = recommended_scenario(&scenario, &report).map_err(|p| {
            print_problems(&[p]);
            Stop(ExitCode::from(1))
        })?;
        let body = format!("{}\n", quotasim::json::to_json_pretty(&s));
        std::fs::write(path, body).map_err(|e| {
            say!("quotasim: cannot write {path}: {e}");
            Stop(ExitCode::from(2))
        })?;
    }
    let out = match a.format {
        crate::Format::Json => json(&report, false),
        crate::Format::Text => {
            let mut t = text(&report).trim_end().to_string();
            t.push_str(&side_by_side(&study, &report)?);
            t
        }
    };
    let code = write_out(&out);
    if code != ExitCode::SUCCESS {
        return Ok(code);
    }
    Ok(if report.feasible { ExitCode::SUCCESS } else { ExitCode::from(3) })
}

/// The input and the recommendation run on the first seed, as `compare` shows them.
fn side_by_side(study: &Study, report: &quotasim::recommend::RecommendReport) -> Result<String, Stop> {
    let base = study.base(0);
    let rec = recommended_scenario(base, report).map_err(|p| {
        print_problems(&[p]);
        Stop(ExitCode::from(1))
    })?;
    let run = |s: &quotasim::model::Scenario| -> Result<quotasim::result::SimResult, Stop> {
        let v = quotasim::validate(s).map_err(|ps| {
            print_problems(&ps);
            Stop(ExitCode::from(1))
        })?;
        crate::policy::run_to_end(v, true)
    };
    let c = quotasim::compare::compare(&run(base)?, &run(&rec)?, report.recommended.set.clone());
    let seed = report.seeds.first().map_or(String::new(), |k| format!(", workload seed {k}"));
    Ok(format!(
        "\n\nAgainst the input, side by side (A: input, B: recommended{seed}):\n{}",
        crate::policy::text(&c)
    ))
}
