//! `quotasim eta`: start-time forecasts from a live state, replicates on every core.

use std::process::ExitCode;

use quotasim::eta::{prepare, Arrivals, Durations, EtaOptions, EtaReport, Forecast, Outcome, NOT_A_JOB};

use crate::input::read_input;
use crate::policy::{self, Stop};
use crate::{json, print_problems, write_out};

/// `eta`'s arguments.
#[derive(clap::Args)]
pub struct EtaArgs {
    /// The live state (an R28 scenario), or - for standard input.
    #[arg(required_unless_present = "backtest")]
    state: Option<String>,
    /// Instead of forecasting: replay this AWS history (the files `import aws` reads) job by
    /// job, forecasting each at its creation from what was known then, and compare with the
    /// actual starts and with Kueue's and Slurm's estimates.
    #[arg(long, num_args = 1.., value_name = "HISTORY", conflicts_with_all = ["state", "jobs", "submit", "set", "durations"])]
    backtest: Vec<String>,
    /// Forecast this job (repeatable); default every queued job.
    #[arg(long = "job", value_name = "NAME")]
    jobs: Vec<String>,
    /// A job (JSON object, as in a scenario's `jobs`) to submit at startAt: its start band and
    /// whom it would preempt.
    #[arg(long, value_name = "JOB.json")]
    submit: Option<String>,
    /// Change the state before forecasting (as run --set); the draws stay the same.
    #[arg(long = "set", value_name = "PATH=VALUE")]
    set: Vec<String>,
    /// Replicates.
    #[arg(long, default_value_t = quotasim::eta::DEFAULT_REPLICATES)]
    replicates: u32,
    /// The draws' seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Seconds after startAt the runs stop at.
    #[arg(long, default_value_t = quotasim::eta::DEFAULT_HORIZON)]
    horizon: u64,
    /// Where durations come from (default: history when the state has one, else timeout).
    #[arg(long, value_enum)]
    durations: Option<DurationsArg>,
    /// Which jobs arrive after startAt (resampled: with --backtest only, the day before each
    /// job resampled at each share's rate; without it a backtest sees the queue as it was).
    #[arg(long, value_enum, default_value = "listed")]
    arrivals: ArrivalsArg,
    /// Threads (default: every core); the report is the same whatever the count.
    #[arg(long)]
    threads: Option<usize>,
    #[arg(long, value_enum, default_value = "text")]
    format: crate::Format,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum DurationsArg {
    History,
    Workload,
    Timeout,
    Exact,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum ArrivalsArg {
    Listed,
    None,
    Workload,
    Resampled,
}

pub fn eta(a: EtaArgs) -> Result<ExitCode, Stop> {
    if !a.backtest.is_empty() {
        return backtest(&a);
    }
    let durations = match a.durations {
        None => None,
        Some(DurationsArg::History) => Some(Durations::History),
        Some(DurationsArg::Timeout) => Some(Durations::Timeout),
        Some(DurationsArg::Exact) => Some(Durations::Exact),
        Some(DurationsArg::Workload) => Some(Durations::Workload),
    };
    let arrivals = match a.arrivals {
        ArrivalsArg::Listed => Arrivals::Listed,
        ArrivalsArg::None => Arrivals::None,
        ArrivalsArg::Workload => Arrivals::Workload,
        ArrivalsArg::Resampled => {
            return usage("--arrivals resampled needs --backtest, whose history it resamples")
        }
    };
    // A bad --set is a usage error, found before any file is read (as for every command).
    policy::parse_changes(&a.set)?;
    let text = read_input(a.state.as_deref().unwrap_or("-")).map_err(Stop)?;
    let submit = match &a.submit {
        None => None,
        Some(path) => Some(read_input(path).map_err(Stop)?),
    };
    let opts = EtaOptions {
        jobs: a.jobs,
        submit: None,
        replicates: a.replicates,
        seed: a.seed,
        horizon: a.horizon,
        durations,
        arrivals,
        resampled: None,
    };
    let f = prepare(&text, &a.set, submit.as_deref(), opts).map_err(|p| {
        match (&p[..], &a.submit) {
            ([one], Some(path)) if one.path == "--submit" && one.message.starts_with(NOT_A_JOB) => {
                say!("quotasim: --submit {}: {}", quotasim::problem::printable(path), one.message)
            }
            _ => print_problems(&p),
        }
        Stop(ExitCode::from(1))
    })?;
    print_problems(&f.warnings);
    let threads =
        a.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
    let outcomes = run_all(&f, threads).map_err(|e| {
        say!("quotasim: {e}");
        Stop(ExitCode::from(1))
    })?;
    let report = f.report(&outcomes);
    let out = match a.format {
        crate::Format::Json => json(&report, false),
        crate::Format::Text => text_report(&report),
    };
    Ok(write_out(&out))
}

/// `eta --backtest HISTORY...`: every job replayed, on every core.
fn backtest(a: &EtaArgs) -> Result<ExitCode, Stop> {
    use quotasim::eta::backtest::{Backtest, BacktestOptions};
    let (files, skipped) = crate::input::read_import(&a.backtest).map_err(Stop)?;
    print_problems(&skipped);
    let opts = BacktestOptions {
        replicates: a.replicates,
        seed: a.seed,
        horizon: a.horizon,
        resample: matches!(a.arrivals, ArrivalsArg::Resampled),
    };
    let b = Backtest::new(files, opts).map_err(|p| {
        print_problems(&p);
        Stop(ExitCode::from(1))
    })?;
    let threads =
        a.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
    let cases = crate::parallel::in_order(b.len(), threads, |i| b.case(i))
        .into_iter()
        .map(|(_, c)| c)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| {
            say!("quotasim: {e}");
            Stop(ExitCode::from(1))
        })?;
    let report = b.report(cases);
    let out = match a.format {
        crate::Format::Json => json(&report, false),
        crate::Format::Text => backtest_text(&report),
    };
    Ok(write_out(&out))
}

fn backtest_text(r: &quotasim::eta::backtest::BacktestReport) -> String {
    use std::fmt::Write;
    let mut o = String::new();
    let _ = writeln!(
        o,
        "Backtest: each job forecast at its creation from what was known then ({} replicates, seed {}, horizon {}); {} job(s) never dispatched left out.",
        r.replicates,
        r.seed,
        dur(r.horizon_seconds),
        r.never_started
    );
    let table = |o: &mut String, title: &str, s: &quotasim::eta::backtest::Scores| {
        let _ = writeln!(
            o,
            "\n{title} ({} jobs); p10-p90 band covers {:.0} % of actual starts",
            s.jobs,
            s.band_coverage * 100.0
        );
        let _ = writeln!(
            o,
            "  {:<28} {:>12} {:>12} {:>10} {:>10}",
            "method", "mean error", "median", "<= 10 min", "<= 1 h"
        );
        for (name, acc) in [
            ("forecast (p50)", &s.forecast),
            ("Kueue (position / rate)", &s.kueue),
            ("Slurm (timeouts)", &s.slurm),
        ] {
            let _ = writeln!(
                o,
                "  {:<28} {:>12} {:>12} {:>9.0} % {:>8.0} %",
                name,
                dur(acc.mean_absolute_error.round() as u64),
                dur(acc.median_absolute_error.round() as u64),
                acc.within10_minutes * 100.0,
                acc.within1_hour * 100.0
            );
        }
    };
    table(&mut o, "Every job", &r.all);
    if let Some(w) = &r.waited {
        table(&mut o, "Jobs that waited", w);
    }
    let _ = writeln!(o, "\nNot seen by a backtest: {}.", r.limits);
    o
}

fn usage(msg: &str) -> Result<ExitCode, Stop> {
    say!("quotasim: {msg}");
    Err(Stop(ExitCode::from(2)))
}

/// Every replicate, on `threads` threads, in replicate order (the first that fails stops it).
fn run_all(f: &Forecast, threads: usize) -> Result<Vec<Outcome>, String> {
    crate::parallel::in_order(f.replicates() as usize, threads, |r| f.replicate(r as u32))
        .into_iter()
        .map(|(_, o)| o)
        .collect()
}

/// `1h02m03s`-style durations.
fn dur(s: u64) -> String {
    let (h, m, x) = (s / 3600, s % 3600 / 60, s % 60);
    match (h, m) {
        (0, 0) => format!("{x}s"),
        (0, _) => format!("{m}m{x:02}s"),
        _ => format!("{h}h{m:02}m{x:02}s"),
    }
}

fn text_report(r: &EtaReport) -> String {
    use std::fmt::Write;
    let mut o = String::new();
    let durations = match r.durations {
        Durations::History => "drawn from the history (Kaplan-Meier per share and instance type)",
        Durations::Workload => "drawn from the workload section (its share's entry)",
        Durations::Timeout => "each job's timeout",
        Durations::Exact => "as written (exact)",
    };
    let arrivals = match r.arrivals {
        Arrivals::Listed => "the listed jobs",
        Arrivals::None => "none after startAt",
        Arrivals::Workload => "drawn at the workload section's rates (the listed later jobs left out)",
        Arrivals::Resampled => "the listed jobs, then resampled from the recent past at each share's rate",
    };
    let sources: Vec<String> = r.draws_by_source.iter().map(|(k, v)| format!("{k} {v}")).collect();
    let _ = writeln!(
        o,
        "Forecast from startAt {} over {} replicates (seed {}), horizon {} later.\nDurations: {durations}; draws by source: {}. Arrivals: {arrivals}.",
        r.start_at,
        r.replicates,
        r.seed,
        dur(r.horizon_at - r.start_at),
        sources.join(", ")
    );
    let _ = writeln!(o, "Times are after startAt; the band is p10-p90 of the start, p50 in the middle.");
    for j in &r.jobs {
        let p = |v: Option<u64>| v.map_or_else(|| String::from("not started"), dur);
        let mut line = format!(
            "\n{}{} ({}): starts in {} / {} / {}",
            quotasim::problem::printable(&j.job_name),
            if j.submitted { " [submitted]" } else { "" },
            quotasim::problem::printable(&j.quota_share_name),
            p(j.start.p10),
            p(j.start.p50),
            p(j.start.p90),
        );
        if let Some(iso) = &j.start_iso {
            let q = |v: &Option<String>| v.clone().unwrap_or_else(|| String::from("-"));
            line += &format!(" ({} / {} / {})", q(&iso.p10), q(&iso.p50), q(&iso.p90));
        }
        let _ = writeln!(o, "{line}");
        if let Some(m) = j.start.mean {
            let _ = writeln!(
                o,
                "  mean {} over the {} of {} replicates that start it",
                dur(m.round() as u64),
                j.started_replicates,
                r.replicates
            );
        }
        let _ = writeln!(
            o,
            "  not started by the horizon: {:.0} %; preempted after it starts: {:.0} %",
            j.not_started_by_horizon * 100.0,
            j.preempted_after_start * 100.0
        );
        if let Some(reason) = &j.reason {
            let _ = writeln!(o, "  waits now: {}", quotasim::problem::printable(reason));
        }
        if !j.ahead.is_empty() {
            let names: Vec<String> =
                j.ahead.iter().take(10).map(|n| quotasim::problem::printable(n)).collect();
            let more = j.ahead.len().saturating_sub(10);
            let tail = if more > 0 { format!(" and {more} more") } else { String::new() };
            let _ = writeln!(o, "  ahead in its share: {}{tail}", names.join(", "));
        }
        for v in &j.would_preempt {
            let _ = writeln!(
                o,
                "  would preempt {} in {:.0} % of replicates",
                quotasim::problem::printable(&v.job_name),
                v.probability * 100.0
            );
        }
    }
    o
}
