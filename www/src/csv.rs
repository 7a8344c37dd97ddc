//! CSV export of a run's jobs.

use quotasim::result::JobResult;

/// One text cell. A cell that starts like a formula (`=`, `+`, `-`, `@`, tab, CR) gets a leading
/// `'` so that a spreadsheet shows it as text: a termination reason is free text from the
/// scenario, and a scenario may come from anyone's link.
pub fn field(s: &str) -> String {
    let s = if s.starts_with(['=', '+', '-', '@', '\t', '\r']) { format!("'{s}") } else { s.to_string() };
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}

fn opt(v: Option<u64>) -> String {
    v.map(|x| x.to_string()).unwrap_or_default()
}

/// One row per job: status, times, preemptions and lost work.
pub fn jobs_csv(jobs: &[JobResult]) -> String {
    let mut out = String::from(
        "jobName,quotaShareName,status,statusReason,schedulingPriority,submitAt,firstStartedAt,stoppedAt,\
         attempts,preemptedAttemptCount,lostWorkSeconds\n",
    );
    for j in jobs {
        let row = [
            field(&j.job_name),
            field(&j.quota_share_name),
            j.status.map(|s| s.as_str().to_string()).unwrap_or_default(),
            field(j.status_reason.as_deref().unwrap_or("")),
            j.scheduling_priority.to_string(),
            j.submit_at.to_string(),
            opt(j.first_started_at),
            opt(j.stopped_at),
            j.attempts.len().to_string(),
            j.preemption_summary.preempted_attempt_count.to_string(),
            j.lost_work_seconds.to_string(),
        ];
        out.push_str(&row.join(","));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_with_commas_are_quoted() {
        assert_eq!(field("a,b"), "\"a,b\"");
        assert_eq!(field("say \"x\""), "\"say \"\"x\"\"\"");
        assert_eq!(field("q\"x,"), "\"q\"\"x,\"");
    }

    #[test]
    fn cells_that_look_like_formulas_stay_text() {
        assert_eq!(field("=HYPERLINK(\"http://x\",\"y\")"), "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"");
        assert_eq!(field("+1"), "'+1");
        assert_eq!(field("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(field("-job"), "'-job");
        assert_eq!(field("\r=1"), "\"'\r=1\"");
        assert_eq!(field("Terminated by user"), "Terminated by user");
    }
}
