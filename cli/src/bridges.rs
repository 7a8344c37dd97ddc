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
    let (texts, mut problems) = crate::input::read_import(files).map_err(Stop)?;
    for (f, text) in &texts {
        let (d, p) = quotasim::yaml::documents(f, text);
        docs.extend(d);
        problems.extend(p);
    }
    match kueue::import(&docs, gpus) {
        Ok(r) => {
            say!(
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

/// `quotasim import trace`: prints the scenario; exit 1 when a row could not be read (the
/// scenario is still printed, without it) or nothing could be imported.
pub fn import_trace(files: &[String], o: &quotasim::trace::TraceOptions) -> Result<ExitCode, Stop> {
    let (inputs, skipped) = crate::input::read_import(files).map_err(Stop)?;
    print_problems(&skipped);
    match quotasim::trace::import(&inputs, o) {
        Ok(r) => {
            for line in &r.recognised {
                say!("quotasim: read {line}");
            }
            print_problems(&r.warnings);
            let code = write_scenario(&r.scenario, &r.warnings);
            Ok(if skipped.is_empty() { code } else { ExitCode::from(1) })
        }
        Err(p) => {
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

/// Prints an imported scenario; exit 1 when the import skipped something as an error (the
/// scenario is still printed, without it).
fn write_scenario(s: &quotasim::model::Scenario, warnings: &[Problem]) -> ExitCode {
    let code = write_out(&to_json_pretty(s));
    if warnings.iter().any(Problem::is_error) {
        ExitCode::from(1)
    } else {
        code
    }
}

/// `quotasim import aws FILE... [--observed OUT.json] [--now MS] [--state-at MS]`.
pub fn import_aws(
    files: &[String],
    observed: Option<&str>,
    opts: quotasim::aws::ImportOptions,
) -> Result<ExitCode, Stop> {
    if let Some(out) = observed {
        if let Some(f) = files.iter().find(|f| same_file(f, out)) {
            say!("quotasim: --observed {out} is the input {f}: it would be overwritten (name another file)");
            return Err(Stop(ExitCode::from(2)));
        }
    }
    if let Some(ms) = opts.state_at.filter(|ms| ms.unsigned_abs() > quotasim::MAX_SAFE_INTEGER) {
        say!("quotasim: --state-at {ms} must be within ±(2^53 - 1) milliseconds");
        return Err(Stop(ExitCode::from(2)));
    }
    let (inputs, skipped) = crate::input::read_import(files).map_err(Stop)?;
    print_problems(&skipped);
    match quotasim::aws::import_with(&inputs, opts) {
        Ok(r) => {
            for line in &r.recognised {
                say!("quotasim: recognised {line}");
            }
            print_problems(&r.warnings);
            if let Some(path) = observed {
                let text = to_json_pretty(&r.observed);
                if let Err(e) = std::fs::write(path, text + "\n") {
                    say!("quotasim: cannot write {path}: {e}");
                    return Ok(ExitCode::from(2));
                }
            }
            let code = write_scenario(&r.scenario, &r.warnings);
            // A file skipped as unreadable is an error, as a record skipped is.
            Ok(if skipped.is_empty() { code } else { ExitCode::from(1) })
        }
        Err(p) => {
            print_problems(&p);
            Ok(ExitCode::from(1))
        }
    }
}

/// Whether two paths name the same existing file (through links and `..` too).
fn same_file(a: &str, b: &str) -> bool {
    if a == "-" || b == "-" {
        return false;
    }
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) if x == y => true,
        #[cfg(unix)]
        (Ok(_), Ok(_)) => {
            use std::os::unix::fs::MetadataExt;
            match (std::fs::metadata(a), std::fs::metadata(b)) {
                (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
                _ => false,
            }
        }
        _ => false,
    }
}

/// `quotasim calibrate SCENARIO.json OBSERVED.json [--format text|json]`.
/// `fit-workload`: the scenario with its listed jobs replaced by a fitted `workload` section.
pub fn fit_workload(scenario: &str) -> Result<ExitCode, Stop> {
    let text = read_input(scenario).map_err(Stop)?;
    let s = parse_scenario(&text).map_err(|p| {
        print_problems(&[p]);
        Stop(ExitCode::from(1))
    })?;
    let fitted = quotasim::fit_workload::fit_workload(&s).map_err(|p| {
        print_problems(&p);
        Stop(ExitCode::from(1))
    })?;
    print_problems(&fitted.warnings);
    Ok(write_out(&to_json_pretty(&fitted.scenario)))
}

pub fn calibrate(scenario: &str, observed: &str, json: bool) -> Result<ExitCode, Stop> {
    let valid = crate::policy::load(scenario, &[])?;
    let gpus = quotasim::calibrate::gpus_by_share(&valid);
    let bare = match quotasim::calibrate::without_startup(&valid) {
        Some(v) => Some(crate::policy::run_to_end(v, true)?),
        None => None,
    };
    let startup = (valid.settings.scheduled, valid.settings.starting);
    let run = crate::policy::run_to_end(valid, true)?;
    let text = read_input(observed).map_err(Stop)?;
    let obs: quotasim::aws::Observed = {
        let mut de = serde_json::Deserializer::from_str(&text);
        serde::Deserialize::deserialize(quotasim::strict::Strict(&mut de)).map_err(
            |e: serde_json::Error| {
                print_problems(&[Problem::error(observed, format!("not an observed-jobs file: {e}"))]);
                Stop(ExitCode::from(1))
            },
        )?
    };
    quotasim::calibrate::check_observed(&obs).map_err(|p| {
        let p: Vec<Problem> =
            p.into_iter().map(|x| Problem::error(format!("{observed}: {}", x.path), x.message)).collect();
        print_problems(&p);
        Stop(ExitCode::from(1))
    })?;
    let mut c = quotasim::calibrate::calibrate(&run, &obs, &gpus).map_err(|p| {
        print_problems(&[p]);
        Stop(ExitCode::from(1))
    })?;
    if let Some(bare) = &bare {
        quotasim::calibrate::explain_startup(&mut c, startup.0, startup.1, bare);
    }
    if json {
        return Ok(write_out(&quotasim::json::to_json(&c)));
    }
    let mut s = String::new();
    use std::fmt::Write as _;
    let _ = writeln!(
        s,
        "{:<16} {:>6}  {:>21}  {:>21}  {:>17}  {:>21}",
        "share", "jobs", "wait p50 sim / obs", "wait p95 sim / obs", "preempt sim / obs", "GPU-h sim / obs"
    );
    let f = |x: Option<f64>| {
        x.map_or("-".to_string(), |v| if v.fract() == 0.0 { format!("{v:.0}") } else { format!("{v:.1}") })
    };
    for r in &c.per_quota_share {
        let _ = writeln!(
            s,
            "{:<16} {:>6}  {:>21}  {:>21}  {:>17}  {:>21}",
            quotasim::validate::printable(&r.quota_share_name),
            r.jobs,
            format!("{} / {}", f(r.wait_p50.simulated), f(r.wait_p50.observed)),
            format!("{} / {}", f(r.wait_p95.simulated), f(r.wait_p95.observed)),
            format!("{} / {}", f(r.preemptions.simulated), f(r.preemptions.observed)),
            format!("{} / {}", f(r.gpu_hours.simulated), f(r.gpu_hours.observed)),
        );
    }
    if let Some(st) = &c.startup {
        let _ = writeln!(
            s,
            "Start-up ({} s scheduled + {} s starting per attempt) is in the replay; without it, wait p50 and the seconds of the p50 difference it explains:",
            st.scheduled_seconds, st.starting_seconds
        );
        for r in &st.per_quota_share {
            let _ = writeln!(
                s,
                "  {:<16} {:>10}  explains {}",
                quotasim::validate::printable(&r.quota_share_name),
                f(r.wait_p50_without_startup),
                f(r.explained_seconds)
            );
        }
    }
    let _ = writeln!(s, "{} jobs differ; the most:", c.most_different.len());
    for d in c.most_different.iter().take(10) {
        let _ = writeln!(
            s,
            "  {}: simulated {}; observed {}",
            quotasim::validate::printable(&d.job_name),
            d.simulated,
            d.observed
        );
    }
    for u in &c.unmatched {
        let _ = writeln!(s, "note: {}", quotasim::validate::printable(u));
    }
    Ok(write_out(s.trim_end()))
}
