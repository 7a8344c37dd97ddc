//! Job logs as scenarios (`quotasim import trace`): the Alibaba GPU trace's pod list (`openb`)
//! or any CSV job log read through a column mapping (`csv`), which covers Helios, Philly or a
//! company's own export.
//!
//! The mapping, row by row:
//!
//! - `submit` is required; times are seconds (a number) or ISO 8601 (`2020-04-01T00:02:41Z`,
//!   a space instead of `T` is accepted). `submitAt` is relative to the first kept row.
//! - The run time is `duration` when mapped, else `end` − `start` (`end` − `submit` when there
//!   is no `start` column). A row with a `start` column but no start never ran: it is skipped,
//!   never guessed. A row whose `status` says it was still running or pending keeps its
//!   observed run time so far, and is counted as censored.
//! - GPUs are `gpus` (times `gpuMilli` ÷ 1000 when mapped, as openb gives fractions of one
//!   GPU); instances = ceil(GPUs ÷ GPUs per instance). A row asking for no GPU is skipped.
//! - `team` becomes the quota share (through `teams`, else the value itself, made a valid
//!   name); without a team column every job goes to one share, `default`. `priority` is a
//!   number or a value named in `priorities`.
//! - Quotas come from a capacity file (GPUs per team, in instances rounded down) when given,
//!   else the service environment's instances (`instances`, default the peak number of
//!   instances the log's jobs held at once) are split in proportion to each team's demand in
//!   instance-seconds (largest remainder, ties by first appearance). Every share is
//!   `LEND_AND_BORROW` with no borrow limit (`-1`), so nothing is lost before a policy is
//!   chosen; change it with `--set`.
//!
//! Rows are kept or skipped, never guessed: each skip or clamp is counted in one warning per
//! file and reason, with the first lines it happened on; a value that cannot be read is an
//! error with its file, line and field, and the row is skipped.
//!
//! An import runs in three stages: `read` keeps or skips each row, `quotas` gives the teams
//! their quotas, `assemble` makes the scenario; `options` checks what it is told first and
//! `csv` splits the text into records. This module only joins them.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::problem::Problem;

mod assemble;
mod csv;
mod options;
mod quotas;
mod read;

pub use assemble::Imported;
pub use options::{parse_pairs, Columns, TraceFormat, TraceOptions, FIELDS};

/// Reads job logs (`files`: name and text) into a scenario. Problems that stop the import
/// (no usable column, no job at all) are returned as `Err`; everything else is a warning (or
/// an error for a row that could not be read) in `Imported::warnings`.
pub fn import(files: &[(String, String)], o: &TraceOptions) -> Result<Imported, Vec<Problem>> {
    let (instance_type, columns) = options::check(o)?;
    let mut problems = Vec::new();
    let read = read::read(files, o, &columns, &mut problems);
    if read.kept.is_empty() {
        problems.push(Problem::error("", "no job could be imported"));
        return Err(problems);
    }
    if read.kept.len() > crate::limits::MAX_JOBS {
        problems.push(Problem::error("", format!("more than {} jobs", crate::limits::MAX_JOBS)));
        return Err(problems);
    }
    let quotas = quotas::quotas(files, o, &read.kept, &mut problems)?;
    assemble::assemble(files, o, &instance_type, read, quotas, problems)
}

#[cfg(test)]
mod tests {
    use super::csv::csv_rows;
    use super::read::seconds;
    use super::*;
    use alloc::vec;

    fn run(text: &str, o: &TraceOptions) -> Result<Imported, Vec<Problem>> {
        import(&[("log.csv".into(), text.into())], o)
    }

    fn csv(columns: &str) -> TraceOptions {
        TraceOptions { columns: Columns::parse(columns).unwrap(), ..TraceOptions::default() }
    }

    #[test]
    fn rows_keep_quoted_commas_and_their_line_numbers() {
        let rows = csv_rows("a,b\n\"x,1\",2\n\n\"multi\nline\",3\nlast,4");
        let got: Vec<(u64, Vec<&str>)> =
            rows.iter().map(|r| (r.line, r.fields.iter().map(String::as_str).collect())).collect();
        assert_eq!(
            got,
            vec![
                (1, vec!["a", "b"]),
                (2, vec!["x,1", "2"]),
                (4, vec!["multi\nline", "3"]),
                (6, vec!["last", "4"])
            ]
        );
    }

    #[test]
    fn times_are_seconds_or_iso_8601() {
        assert_eq!(seconds("12.6"), Some(13));
        assert_eq!(seconds("2020-04-01 00:00:10"), Some(1_585_699_210));
        assert_eq!(seconds("2020-04-01T00:00:10Z"), Some(1_585_699_210));
        assert_eq!(seconds("yesterday"), None);
    }

    #[test]
    fn a_helios_shaped_log_maps_teams_instances_and_relative_submits() {
        let log = "job_id,vc,gpu_num,submit_time,start_time,end_time,state\n\
                   j1,vcA,16,2020-04-01 00:00:00,2020-04-01 00:01:00,2020-04-01 01:01:00,COMPLETED\n\
                   j2,vcB,1,2020-04-01 00:00:30,2020-04-01 00:00:30,2020-04-01 00:10:30,FAILED\n\
                   j3,vcA,0,2020-04-01 00:00:40,2020-04-01 00:00:40,2020-04-01 00:10:30,COMPLETED\n";
        let o = csv(
            "name=job_id,team=vc,gpus=gpu_num,submit=submit_time,start=start_time,end=end_time,status=state",
        );
        let r = run(log, &o).unwrap();
        let s = &r.scenario;
        let jobs: Vec<(&str, &str, Option<i64>, i64, i64)> = s
            .jobs
            .iter()
            .map(|j| {
                (
                    j.job_name.as_str(),
                    j.quota_share_name.as_str(),
                    j.instance_count,
                    j.submit_at,
                    j.duration_seconds.unwrap_or(-1),
                )
            })
            .collect();
        assert_eq!(jobs, vec![("j1", "vcA", Some(2), 0, 3600), ("j2", "vcB", Some(1), 30, 600)]);
        assert!(
            r.warnings.iter().any(|w| w.message.contains("1 rows ask for no GPU (lines 4)")),
            "{:?}",
            r.warnings
        );
        // Peak: j1 (2) and j2 (1) overlap: 3 instances, one each and the third by
        // instance-seconds 7200 : 600.
        let q: Vec<(&str, i64)> = s
            .quota_shares
            .iter()
            .map(|q| (q.quota_share_name.as_str(), q.capacity_limits[0].max_capacity))
            .collect();
        assert_eq!(q, vec![("vcA", 2), ("vcB", 1)]);
        assert_eq!(s.service_environment.capacity_limits[0].max_capacity, 3);
        if let Err(p) = crate::validate(s) {
            panic!("{p:?}");
        }
    }

    #[test]
    fn a_capacity_file_sets_quotas_in_whole_instances() {
        let log = "vc,gpus,submit,duration\nvcA,8,0,60\nvcC,8,5,60\n";
        let cap = "date,vcA,vcB,vcD,total\n2020-04-01,16,8,0,24\n2020-04-02,20,8,0,28\n";
        let mut o = csv("team=vc,gpus=gpus,submit=submit,duration=duration");
        o.capacity = Some(("cap.csv".into(), cap.into()));
        let r = run(log, &o).unwrap();
        let q: Vec<(&str, i64)> = r
            .scenario
            .quota_shares
            .iter()
            .map(|q| (q.quota_share_name.as_str(), q.capacity_limits[0].max_capacity))
            .collect();
        assert_eq!(q, vec![("vcA", 2), ("vcC", 1), ("vcB", 1)]);
        let msgs: Vec<&str> = r.warnings.iter().map(|w| w.message.as_str()).collect();
        assert!(msgs.iter().any(|m| m.contains("rounded down: vcA (20 GPUs)")), "{msgs:?}");
        assert!(msgs.iter().any(|m| m.contains("no capacity for vcC")), "{msgs:?}");
        assert!(msgs.iter().any(|m| m.contains("raised to 1") && m.ends_with(": vcC")), "{msgs:?}");
        assert!(msgs.iter().any(|m| m.ends_with("no quota share: vcD")), "{msgs:?}");
        assert!(crate::validate(&r.scenario).is_ok());
    }

    #[test]
    fn bad_values_are_named_by_file_line_and_field_and_skipped() {
        let log = "submit,gpus,duration,prio\nsoon,1,60,0\n1,many,60,0\n2,1,60,high\n3,1,60,5\n";
        let r = run(log, &csv("submit=submit,gpus=gpus,duration=duration,priority=prio")).unwrap();
        let errs: Vec<String> = r
            .warnings
            .iter()
            .filter(|w| w.is_error())
            .map(|w| format!("{}: {}", w.path, w.message))
            .collect();
        assert_eq!(errs.len(), 3, "{errs:?}");
        assert!(errs[0].starts_with("log.csv:2: submit: \"soon\" is not"), "{errs:?}");
        assert!(errs[1].starts_with("log.csv:3: gpus"), "{errs:?}");
        assert!(errs[2].starts_with("log.csv:4: priority"), "{errs:?}");
        assert_eq!(r.scenario.jobs.len(), 1);
        assert_eq!(r.scenario.jobs[0].scheduling_priority, 5);
        let missing = run(log, &csv("submit=when,gpus=gpus,duration=duration")).unwrap_err();
        assert!(missing
            .iter()
            .any(|p| p.path == "log.csv: columns.submit" && p.message.contains("no column \"when\"")));
        assert_eq!(Columns::parse("sumbit=x").unwrap_err().path, "columns.sumbit");
    }
}
