//! `quotasim`: run, validate and generate quota-management scenarios from the command line.
//!
//! Exit codes: 0 success, 1 invalid scenario (problems on standard error), 2 usage error,
//! 3 objectives violated (`check`).

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use input::{read_input, read_scenario};
use quotasim::json::to_json;
use quotasim::{generate, validate, GenerateOptions, Options, Problem, Simulation};

/// Writes one message line to standard error through [`say`]: `say!("quotasim: {x}")`.
macro_rules! say {
    ($($t:tt)*) => {
        $crate::say(&format!($($t)*))
    };
}

mod bench;
mod bridges;
mod eta;
mod input;
mod parallel;
mod policy;
mod recommend;
mod sweep;
mod text;
mod why;

#[derive(Parser)]
#[command(
    name = "quotasim",
    version,
    about = "Simulate AWS Batch quota management for SageMaker Training job queues"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum Format {
    Json,
    Text,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum SweepFormat {
    Jsonl,
    Csv,
}

impl From<SweepFormat> for sweep::SweepFormat {
    fn from(f: SweepFormat) -> Self {
        match f {
            SweepFormat::Jsonl => sweep::SweepFormat::Jsonl,
            SweepFormat::Csv => sweep::SweepFormat::Csv,
        }
    }
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum CompareFormat {
    Json,
    Text,
    Csv,
}

#[derive(Subcommand)]
enum Command {
    /// Run a scenario and print the result.
    Run {
        /// Scenario JSON file, or - for standard input.
        scenario: String,
        /// Stop at time T (seconds) and report every job's status at T. It replaces
        /// settings.horizonSeconds, earlier or later.
        #[arg(long, value_name = "T")]
        until: Option<u64>,
        /// json: the result JSON; text: a readable table per quota share.
        #[arg(long, value_enum, default_value = "json")]
        format: Format,
        /// Print only formatVersion, endedAt and summary.
        #[arg(long)]
        summary: bool,
        /// Indent the JSON.
        #[arg(long)]
        pretty: bool,
        /// Change the scenario before it runs (repeatable), e.g.
        /// quotaShares[team-b].resourceSharingConfiguration.strategy=LEND.
        #[arg(long = "set", value_name = "PATH=VALUE")]
        set: Vec<String>,
        /// Print the scenario that would run (--set changes made, the workload expanded into
        /// jobs) instead of running it.
        #[arg(long = "print-scenario")]
        print_scenario: bool,
        /// eventbridge: the run's events as EventBridge JSON lines (after the service
        /// environment and quota shares as describe records), for import aws.
        #[arg(long = "events-format", value_enum)]
        events_format: Option<EventsFormat>,
        /// With --events-format: the epoch milliseconds of time 0 (default 2026-01-01).
        #[arg(long, value_name = "MS", default_value_t = quotasim::aws::DEFAULT_ORIGIN_MILLIS)]
        origin: i64,
        /// Run up to and including instant T, then print the state after it as a scenario
        /// that starts there (settings.startAt = T, R28) instead of results.
        #[arg(long = "print-state-at", value_name = "T")]
        print_state_at: Option<u64>,
    },
    /// Check a run against objectives; exit 3 when any is violated.
    Check {
        /// Scenario JSON file, or - for standard input.
        scenario: String,
        /// Objectives JSON file: {"formatVersion":1,"objectives":[{"metric":PATH,"min":X,"max":Y}]}.
        #[arg(long, value_name = "FILE")]
        objectives: String,
        /// A scenario whose values are shown next to each (the policy before the change).
        #[arg(long, value_name = "FILE")]
        baseline: Option<String>,
        /// Change the scenario before it runs (repeatable).
        #[arg(long = "set", value_name = "PATH=VALUE")]
        set: Vec<String>,
        /// text: a line per objective; json: the report.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Compare two policies on the same workload: B is a second file, or A with --set changes.
    Compare {
        /// Scenario A (the baseline).
        a: String,
        /// Scenario B; without it, B is A with the --set changes.
        b: Option<String>,
        /// Change B before it runs (repeatable).
        #[arg(long = "set", value_name = "PATH=VALUE")]
        set: Vec<String>,
        /// json: the comparison; text: a table of A, B and delta per share; csv: every metric.
        #[arg(long, value_enum, default_value = "json")]
        format: CompareFormat,
        /// Run both sides on N seeds of their workload (workload.seed, seed+1, ...) and report
        /// the median, min and max of A, B and the paired delta, and how many seeds agree.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1000))]
        replicates: Option<u32>,
    },
    /// Run every variant of a sweep file (rows in index order, whatever the thread count).
    Sweep {
        /// Sweep JSON file: {"formatVersion":1,"base":FILE|SCENARIO,"axes":[{"path":P,"values":[...]}],"frontier":["METRIC:max"]}.
        file: String,
        /// Threads (default: every core).
        #[arg(long)]
        threads: Option<usize>,
        /// Run only rows with index % N == I - 1; auto/N takes I from AWS_BATCH_JOB_ARRAY_INDEX
        /// or JOB_COMPLETION_INDEX (0-based) + 1.
        #[arg(long, value_name = "I/N")]
        shard: Option<String>,
        /// jsonl: a row per line with its summary; csv: flattened metric columns.
        #[arg(long, value_enum, default_value = "jsonl")]
        format: SweepFormat,
        /// Refuse sweeps with more rows than this.
        #[arg(long = "max-rows", default_value_t = quotasim::sweep::DEFAULT_MAX_ROWS)]
        max_rows: u64,
        /// With --print-scenario: the row whose scenario to print.
        #[arg(long)]
        row: Option<u64>,
        /// Print the scenario of --row K (the base with that row's changes) instead of running.
        #[arg(long = "print-scenario")]
        print_scenario: bool,
        /// Run every point on N seeds of the base's workload (seed, seed + 1, ...), each seed's
        /// jobs drawn once at the base's quotas; rows report the median, min and max over the
        /// seeds, and the front is over the medians. Overrides the sweep file's `replicates`.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1000))]
        replicates: Option<u32>,
    },
    /// Merge `sweep --shard` outputs (JSONL) into the bytes of the unsharded run.
    SweepMerge {
        /// Shard output files (`sweep --format jsonl`).
        #[arg(required = true)]
        files: Vec<String>,
        /// jsonl: the rows of `sweep`; csv: what `sweep --format csv` prints.
        #[arg(long, value_enum, default_value = "jsonl")]
        format: SweepFormat,
    },
    /// Check a scenario; print every problem with its field path.
    Validate {
        /// Scenario JSON file, or - for standard input.
        scenario: String,
    },
    /// Print a synthetic, deterministic scenario as compact JSON.
    Generate {
        #[arg(long, default_value_t = 1000)]
        jobs: u64,
        #[arg(long, default_value_t = 4)]
        shares: u32,
        #[arg(long = "instance-types", default_value_t = 2)]
        instance_types: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Offered load, percent of the capacity the shares own.
        #[arg(long = "load-percent", default_value_t = 95)]
        load_percent: u32,
        /// Percentage of jobs that checkpoint.
        #[arg(long = "checkpoint-percent", default_value_t = 80)]
        checkpoint_percent: u32,
        /// Write the jobs as a `workload` section (generator settings and a seed) instead of a
        /// job list: the same jobs once expanded, and ready for compare --replicates.
        #[arg(long)]
        workload: bool,
    },
    /// Make a scenario from another system's configuration or history.
    Import {
        #[command(subcommand)]
        kind: ImportKind,
    },
    /// Replace a scenario's listed jobs by a workload section fitted to them (per share: the
    /// arrival rate, by hour of the day over 3 days or more, the type, size, priority,
    /// checkpoint and retry mixes, and the durations), so that imported histories get
    /// replicates and forecasts a model of arrivals.
    FitWorkload {
        /// Scenario JSON file, or - for standard input.
        scenario: String,
    },
    /// Replay an imported scenario and put it next to what was observed (import aws --observed).
    Calibrate {
        scenario: String,
        observed: String,
        /// text: a table per share and the jobs that differ most; json: all of it.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Write what AWS (or Kueue) deploys for a scenario's quota shares.
    Export {
        /// cloudformation: a template; aws-cli: a shell script; kueue: ClusterQueues in a Cohort.
        #[arg(value_enum)]
        format: bridges::ExportFormat,
        /// Scenario JSON file, or - for standard input.
        scenario: String,
        /// The CloudFormation template as YAML instead of JSON.
        #[arg(long)]
        yaml: bool,
    },
    /// When will queued jobs start? Start-time forecasts from a live state (R28): p10, p50
    /// and p90 over replicates that draw what is uncertain and run the rest exactly.
    Eta(Box<eta::EtaArgs>),
    /// What would have avoided a job's preemption or wait? Single changes from a fixed
    /// catalogue, each verified by a full re-run, with their side effects on other jobs.
    Why(Box<why::WhyArgs>),
    /// Which quotas should we set? The least costly quota shares and capacity that meet every
    /// objective, side by side with the input, with a certificate that every cheaper step
    /// breaks one; exit 3 when nothing in the space meets them.
    Recommend(Box<recommend::RecommendArgs>),
    /// Time the simulation of generated workloads (generation and JSON excluded).
    Bench {
        /// Job counts to run, comma-separated.
        #[arg(long, value_delimiter = ',', default_value = "10000,100000,1000000")]
        jobs: Vec<u64>,
        /// Repetitions per size and mode (the best is reported).
        #[arg(long, default_value_t = 5)]
        repeat: u32,
        /// Submit every job at t = 0, as at the first instant of presets, imports and
        /// forks, where borrowers are dispatched one per pass (R16).
        #[arg(long)]
        at_once: bool,
        /// Time a fork instead: each run stopped at its middle, the rest of it against its
        /// state with new durations, validated and run (what a forecast replicate costs).
        #[arg(long, conflicts_with = "at_once")]
        fork: bool,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum EventsFormat {
    Eventbridge,
}

#[derive(Subcommand)]
enum ImportKind {
    /// AWS Batch outputs and EventBridge archives, in any mix: describe-service-environments,
    /// list-quota-shares / describe-quota-share, list-service-jobs pages, describe-service-job,
    /// EventBridge events as JSON lines.
    Aws {
        #[arg(required = true)]
        files: Vec<String>,
        /// Also write what happened (per job: first start, stop, status, preemptions).
        #[arg(long, value_name = "OUT.json")]
        observed: Option<String>,
        /// The instant (epoch milliseconds) that ends attempts still running (default: the
        /// latest time in the input).
        #[arg(long, value_name = "MS")]
        now: Option<i64>,
        /// The live state at this instant (epoch milliseconds) instead of the whole history
        /// (R28): each job's status then, rebuilt from what was known then; finished and
        /// running jobs become `history`.
        #[arg(long = "state-at", value_name = "MS", conflicts_with = "now")]
        state_at: Option<i64>,
    },
    /// Kueue ClusterQueues, Cohorts, ResourceFlavors, LocalQueues and WorkloadPriorityClasses
    /// (multi-document YAML): one quota share per ClusterQueue.
    Kueue {
        /// YAML files.
        #[arg(required = true)]
        files: Vec<String>,
        /// GPUs per instance for flavors whose node labels do not say (nvidia.com/gpu.count).
        #[arg(long = "gpus-per-instance", value_parser = clap::value_parser!(i64).range(1..=1024))]
        gpus_per_instance: Option<i64>,
    },
    /// Job logs as CSV: the Alibaba GPU trace's pod list (openb) or any log with --columns.
    /// Mapping: README, "Import a job trace".
    Trace(Box<TraceArgs>),
}

#[derive(clap::Args)]
struct TraceArgs {
    /// CSV files of the same layout.
    #[arg(required = true)]
    files: Vec<String>,
    #[arg(long, value_enum)]
    format: TraceFormatArg,
    /// FIELD=COLUMN,... with fields name, submit, start, end, duration, gpus, gpuMilli, team,
    /// priority, status (for openb: replaces the pod list's column).
    #[arg(long)]
    columns: Option<String>,
    #[arg(long = "gpus-per-instance", default_value_t = 8, value_parser = clap::value_parser!(i64).range(1..=1024))]
    gpus_per_instance: i64,
    /// Default: ml.g5.xlarge, ml.g5.12xlarge or ml.p5.48xlarge for 1, 4 or 8 GPUs per instance.
    #[arg(long = "instance-type")]
    instance_type: Option<String>,
    /// Team values to quota share names: VALUE=SHARE,...
    #[arg(long)]
    teams: Option<String>,
    /// Priority values to schedulingPriority: VALUE=NUMBER,...
    #[arg(long)]
    priorities: Option<String>,
    /// GPUs per team: two columns (team, GPUs) or one column per team (last row counts).
    #[arg(long, value_name = "FILE.csv")]
    capacity: Option<String>,
    /// The service environment's instances without --capacity (default: the log's peak).
    #[arg(long, value_parser = clap::value_parser!(i64).range(1..))]
    instances: Option<i64>,
    /// Keep rows submitted at or after this time of the log (seconds).
    #[arg(long)]
    from: Option<i64>,
    /// Keep rows submitted before this time of the log (seconds).
    #[arg(long)]
    to: Option<i64>,
    /// Skip rows asking for fewer GPUs (1 keeps whole-GPU openb pods).
    #[arg(long = "min-gpus")]
    min_gpus: Option<f64>,
    #[arg(long = "min-duration", value_name = "SECONDS", value_parser = clap::value_parser!(i64).range(1..))]
    min_duration: Option<i64>,
    #[arg(long = "max-duration", value_name = "SECONDS", value_parser = clap::value_parser!(i64).range(1..))]
    max_duration: Option<i64>,
    /// checkpointIntervalSeconds of every job.
    #[arg(long = "checkpoint-interval", value_name = "SECONDS", value_parser = clap::value_parser!(i64).range(1..))]
    checkpoint_interval: Option<i64>,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum TraceFormatArg {
    /// The Alibaba GPU cluster trace v2023 pod list (openb_pod_list_*.csv).
    Openb,
    /// Any CSV job log, read through --columns.
    Csv,
}

/// The one writer of messages: every line on standard error goes through it, made printable
/// and cut to 4 KB whatever it quotes (`quotasim::problem::message_line`).
#[allow(clippy::disallowed_methods)]
fn say(line: &str) {
    let _ = writeln!(io::stderr().lock(), "{}", quotasim::problem::message_line(line));
}

fn print_problems(problems: &[Problem]) {
    for p in problems {
        say(&p.to_string());
    }
}

fn write_out(s: &str) -> ExitCode {
    let mut out = io::stdout().lock();
    if out.write_all(s.as_bytes()).and_then(|_| out.write_all(b"\n")).and_then(|_| out.flush()).is_err() {
        return ExitCode::from(2);
    }
    ExitCode::SUCCESS
}

/// `run --print-state-at T`: the state after instant T as an R28 scenario.
fn print_state(path: &str, set: &[String], t: u64, pretty: bool) -> ExitCode {
    if t > quotasim::MAX_SAFE_INTEGER {
        say!("quotasim: --print-state-at must be at most 2^53 - 1 ({})", quotasim::MAX_SAFE_INTEGER);
        return ExitCode::from(2);
    }
    let changes = match policy::parse_changes(set) {
        Ok(c) => c,
        Err(policy::Stop(code)) => return code,
    };
    let parsed = match read_scenario(path) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let loaded = parsed
        .and_then(|s| quotasim::change::apply_changes(&s, &changes))
        .map_err(|p| vec![p])
        .and_then(|s| quotasim::workload::expanded(&s))
        .and_then(|s| validate(&s).map(|v| (s, v)));
    let (expanded, valid) = match loaded {
        Ok(x) => x,
        Err(problems) => {
            print_problems(&problems);
            return ExitCode::from(1);
        }
    };
    print_problems(&valid.warnings);
    let start = valid.settings.start_at;
    if t < start {
        say!("quotasim: --print-state-at {t} is before the scenario's settings.startAt ({start})");
        return ExitCode::from(2);
    }
    let mut sim = Simulation::with_options(valid, Options { record_events: false, ..Options::default() });
    sim.run_until(t);
    if let Some(e) = sim.run_error() {
        say!("quotasim: {e}");
        return ExitCode::from(1);
    }
    let state = sim.state(&expanded);
    for why in &state.inexact {
        say!("quotasim: warning: the state at {t} is not exact (R28): {why}");
    }
    write_out(&json(&state.scenario, pretty))
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        // Help and version go to standard output as clap writes them; a usage error quotes
        // the command line, so it goes line by line through the one writer of messages.
        Err(e) if e.use_stderr() => {
            for line in e.render().to_string().trim_end().lines() {
                say(line);
            }
            return ExitCode::from(2);
        }
        Err(e) => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
    };
    match cli.command {
        Command::Run {
            scenario,
            until,
            format,
            summary,
            pretty,
            set,
            print_scenario,
            events_format,
            origin,
            print_state_at,
        } => {
            if let Some(t) = print_state_at {
                return print_state(&scenario, &set, t, pretty);
            }
            if events_format.is_some() && origin.unsigned_abs() > quotasim::MAX_SAFE_INTEGER {
                say!("quotasim: --origin must be within ±(2^53 - 1) ms, not {origin}");
                return ExitCode::from(2);
            }
            if until.is_some_and(|t| t > quotasim::MAX_SAFE_INTEGER) {
                say!("quotasim: --until must be at most 2^53 - 1 ({})", quotasim::MAX_SAFE_INTEGER);
                return ExitCode::from(2);
            }
            let changes = match policy::parse_changes(&set) {
                Ok(c) => c,
                Err(policy::Stop(code)) => return code,
            };
            let scenario = match read_scenario(&scenario) {
                Ok(Ok(s)) => s,
                Ok(Err(problem)) => {
                    print_problems(&[problem]);
                    return ExitCode::from(1);
                }
                Err(code) => return code,
            };
            // Only a changed scenario is copied: a million jobs cost a third of a gigabyte.
            let scenario = match changes.is_empty() {
                true => scenario,
                false => match quotasim::change::apply_changes(&scenario, &changes) {
                    Ok(s) => s,
                    Err(problem) => {
                        print_problems(&[problem]);
                        return ExitCode::from(1);
                    }
                },
            };
            if print_scenario {
                return match quotasim::workload::expanded(&scenario)
                    .and_then(|s| validate(&s).map(|v| (s, v)))
                {
                    Ok((s, v)) => {
                        print_problems(&v.warnings);
                        write_out(&json(&s, pretty))
                    }
                    Err(problems) => {
                        print_problems(&problems);
                        ExitCode::from(1)
                    }
                };
            }
            let valid = match validate(&scenario) {
                Ok(v) => v,
                Err(problems) => {
                    print_problems(&problems);
                    return ExitCode::from(1);
                }
            };
            let eventbridge = events_format == Some(EventsFormat::Eventbridge);
            // The events name jobs and shares as the scenario (its workload expanded) has them.
            let keep = eventbridge
                .then(|| quotasim::workload::expanded(&scenario).unwrap_or_else(|_| scenario.clone()));
            // The parsed file is not needed any more: freeing a million jobs one by one takes
            // a tenth of a second, so another thread does it while this one runs the
            // simulation (the job list, one block of about 200 MB for a million jobs, goes
            // back to the system; smaller blocks are reused by the simulation). Its end is not
            // waited for; the process may end first.
            drop(std::thread::spawn(move || drop(scenario)));
            print_problems(&valid.warnings);
            let record = (!summary && format == Format::Json) || eventbridge;
            let mut sim =
                Simulation::with_options(valid, Options { record_events: record, ..Options::default() });
            match until {
                Some(t) => sim.run_until(t),
                None => sim.run(),
            }
            if let Some(e) = sim.run_error() {
                say!("quotasim: {e}");
                return ExitCode::from(1);
            }
            if let Some(s) = keep {
                return match quotasim::aws::eventbridge(&s, &sim.result(), origin) {
                    Ok(events) => write_out(&events.iter().map(to_json).collect::<Vec<_>>().join("\n")),
                    Err(p) => {
                        say!("quotasim: --origin {}", p.message);
                        ExitCode::from(2)
                    }
                };
            }
            let out = match (format, summary) {
                (Format::Text, _) => text::table(&sim),
                (Format::Json, true) => json(&sim.summary_result(), pretty),
                (Format::Json, false) => json(&sim.result(), pretty),
            };
            let code = write_out(&out);
            // The process ends here: freeing a million jobs' state one by one would only
            // delay the exit.
            std::mem::forget(sim);
            code
        }
        Command::Validate { scenario } => {
            let parsed = match read_scenario(&scenario) {
                Ok(p) => p,
                Err(code) => return code,
            };
            // The process ends after the verdict: freeing a million jobs one by one would only
            // delay the exit, so the scenario and its validated form are not freed.
            let checked =
                parsed.map_err(|p| vec![p]).and_then(|s| validate(&s).inspect(|_| std::mem::forget(s)));
            match checked {
                Ok(v) => {
                    // Problems (warnings here) go to standard error, the verdict to standard
                    // output.
                    print_problems(&v.warnings);
                    let w = v.warnings.len();
                    println!(
                        "ok: {} quota shares, {} jobs, {} actions{}",
                        v.shares.len(),
                        v.jobs.len(),
                        v.actions.len(),
                        match w {
                            0 => String::new(),
                            1 => ", 1 warning".into(),
                            _ => format!(", {w} warnings"),
                        }
                    );
                    std::mem::forget(v);
                    ExitCode::SUCCESS
                }
                Err(problems) => {
                    print_problems(&problems);
                    ExitCode::from(1)
                }
            }
        }
        Command::Generate {
            jobs,
            shares,
            instance_types,
            seed,
            load_percent,
            checkpoint_percent,
            workload,
        } => {
            let mut o = GenerateOptions::new(jobs, shares, instance_types, seed);
            o.load_percent = load_percent;
            o.checkpoint_percent = checkpoint_percent;
            if let Err((field, msg)) = o.check() {
                say!("quotasim: --{}: {msg}", kebab(field));
                return ExitCode::from(2);
            }
            if workload {
                write_out(&to_json(&quotasim::generate_workload(&o)))
            } else {
                write_out(&to_json(&generate(&o)))
            }
        }
        Command::Eta(a) => eta::eta(*a).unwrap_or_else(|policy::Stop(code)| code),
        Command::Why(a) => why::why_cmd(*a).unwrap_or_else(|policy::Stop(code)| code),
        Command::Recommend(a) => recommend::recommend_cmd(*a).unwrap_or_else(|policy::Stop(code)| code),
        Command::Bench { jobs, repeat, fork: true, .. } => bench::fork(&jobs, repeat.max(1)),
        Command::Bench { jobs, repeat, at_once, .. } => bench::run(&jobs, repeat.max(1), at_once),
        Command::Import { kind: ImportKind::Aws { files, observed, now, state_at } } => {
            bridges::import_aws(&files, observed.as_deref(), quotasim::aws::ImportOptions { now, state_at })
                .unwrap_or_else(|policy::Stop(code)| code)
        }
        Command::FitWorkload { scenario } => {
            bridges::fit_workload(&scenario).unwrap_or_else(|policy::Stop(code)| code)
        }
        Command::Calibrate { scenario, observed, format } => {
            bridges::calibrate(&scenario, &observed, format == Format::Json)
                .unwrap_or_else(|policy::Stop(code)| code)
        }
        Command::Import { kind: ImportKind::Trace(a) } => {
            import_trace(*a).unwrap_or_else(|policy::Stop(code)| code)
        }
        Command::Import { kind: ImportKind::Kueue { files, gpus_per_instance } } => {
            bridges::import_kueue(&files, gpus_per_instance).unwrap_or_else(|policy::Stop(code)| code)
        }
        Command::Export { format, scenario, yaml } => {
            bridges::export(format, &scenario, yaml).unwrap_or_else(|policy::Stop(code)| code)
        }
        Command::Check { scenario, objectives, baseline, set, format } => {
            let run = || {
                let changes = policy::parse_changes(&set)?;
                policy::check_cmd(
                    &scenario,
                    &objectives,
                    baseline.as_deref(),
                    &changes,
                    format == Format::Json,
                )
            };
            run().unwrap_or_else(|policy::Stop(code)| code)
        }
        Command::Sweep { file, threads, shard, format, max_rows, row, print_scenario, replicates } => {
            let args = sweep::Args {
                file: &file,
                threads,
                shard: shard.as_deref(),
                format: format.into(),
                max_rows,
                row,
                print_scenario,
                replicates,
            };
            sweep::sweep(&args).unwrap_or_else(|policy::Stop(code)| code)
        }
        Command::SweepMerge { files, format } => {
            sweep::merge(&files, format.into()).unwrap_or_else(|policy::Stop(code)| code)
        }
        Command::Compare { a, b, set, format, replicates } => {
            let format = match format {
                CompareFormat::Json => policy::CompareFormat::Json,
                CompareFormat::Text => policy::CompareFormat::Text,
                CompareFormat::Csv => policy::CompareFormat::Csv,
            };
            let run = || {
                let changes = policy::parse_changes(&set)?;
                match replicates {
                    Some(n) => policy::replicates_cmd(&a, b.as_deref(), &changes, n, format),
                    None => policy::compare_cmd(&a, b.as_deref(), &changes, format),
                }
            };
            run().unwrap_or_else(|policy::Stop(code)| code)
        }
    }
}

fn json<T: serde::Serialize>(v: &T, pretty: bool) -> String {
    if pretty {
        quotasim::json::to_json_pretty(v)
    } else {
        to_json(v)
    }
}

fn kebab(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_uppercase() {
            out.push('-');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// `quotasim import trace`: the options as the engine's, then `bridges::import_trace`.
fn import_trace(a: TraceArgs) -> Result<ExitCode, policy::Stop> {
    use quotasim::trace::{parse_pairs, Columns, TraceFormat, TraceOptions};
    let usage = |p: Problem| {
        print_problems(&[p]);
        policy::Stop(ExitCode::from(2))
    };
    let columns = match &a.columns {
        Some(c) => Columns::parse(c).map_err(usage)?,
        None => Columns::default(),
    };
    let teams = match &a.teams {
        Some(t) => parse_pairs("teams", t).map_err(usage)?,
        None => Vec::new(),
    };
    let priorities = match &a.priorities {
        Some(t) => parse_pairs("priorities", t)
            .map_err(usage)?
            .into_iter()
            .map(|(k, v)| match v.parse::<i64>() {
                Ok(n) => Ok((k, n)),
                Err(_) => Err(usage(Problem::error(
                    format!("priorities.{k}"),
                    format!("{v:?} is not a whole number"),
                ))),
            })
            .collect::<Result<Vec<_>, _>>()?,
        None => Vec::new(),
    };
    let capacity = match &a.capacity {
        Some(f) => Some((f.clone(), read_input(f).map_err(policy::Stop)?)),
        None => None,
    };
    let o = TraceOptions {
        format: match a.format {
            TraceFormatArg::Openb => TraceFormat::Openb,
            TraceFormatArg::Csv => TraceFormat::Csv,
        },
        columns,
        gpus_per_instance: a.gpus_per_instance,
        instance_type: a.instance_type,
        teams,
        priorities,
        capacity,
        instances: a.instances,
        from: a.from,
        to: a.to,
        min_gpus: a.min_gpus,
        min_duration: a.min_duration,
        max_duration: a.max_duration,
        checkpoint_interval: a.checkpoint_interval,
    };
    bridges::import_trace(&a.files, &o)
}
