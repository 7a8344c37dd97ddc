//! The per-share numbers a policy decision needs beyond the R26 summary: GPU-hours lent (R15
//! attribution) and preemptions caused as the preemptor's share, next to those suffered; and the
//! summary table as CSV.

use crate::csv::field;
use crate::run::RunData;

/// One share's decision numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct ShareDecision {
    pub name: String,
    /// GPU-hours of its quota used by other shares.
    pub gpu_hours_lent: f64,
    /// Preemptions its jobs triggered (reclaim and in-share), as the preemptor's share.
    pub caused: u64,
    /// Preemptions its jobs suffered, every reason.
    pub suffered: u64,
}

/// Per share, in input order. GPU-hours lent are the engine's exact instance-seconds lent,
/// split over instance types by the R15 flows the charts draw (exact with one type).
pub fn per_share(run: &RunData) -> Vec<ShareDecision> {
    let sc = run.full().scenario();
    let n = run.share_names.len();
    // Instance-seconds lent per (share, type) from the sampled flows, and GPUs per type.
    let mut by_type = vec![vec![0f64; run.types.len()]; n];
    for (ti, t) in run.types.iter().enumerate() {
        for (l, _, v) in &t.flows {
            for (i, x) in v.iter().enumerate() {
                let a = run.samples.get(i).copied().unwrap_or(run.end);
                let b = run.samples.get(i + 1).copied().unwrap_or(run.end);
                by_type[*l][ti] += *x as f64 * b.saturating_sub(a) as f64;
            }
        }
    }
    let mut caused = vec![0u64; n];
    for p in &run.preemptions {
        if let Some(j) = p.preemptor {
            caused[sc.jobs[j as usize].share as usize] += 1;
        }
    }
    run.summary
        .per_quota_share
        .iter()
        .enumerate()
        .map(|(s, (name, m))| {
            let total: f64 = by_type[s].iter().sum();
            let exact = m.instance_seconds_lent as f64;
            let gpu_seconds: f64 = if total > 0.0 {
                by_type[s].iter().zip(&run.types).map(|(x, t)| exact * x / total * t.gpus.max(1) as f64).sum()
            } else {
                // No flow sampled (a very short loan between samples): the share's first type.
                let g =
                    sc.shares[s].quota.iter().position(|q| *q > 0).map_or(1, |t| run.types[t].gpus.max(1));
                exact * g as f64
            };
            ShareDecision {
                name: name.clone(),
                gpu_hours_lent: gpu_seconds / 3600.0,
                caused: caused[s],
                suffered: m.preemptions.total,
            }
        })
        .collect()
}

/// The per-share table as CSV, one row per share and an `overall` row: what the table shows,
/// with full precision.
pub fn summary_csv(run: &RunData) -> String {
    let d = per_share(run);
    let mut out = String::from(
        "quotaShareName,jobs,succeeded,utilization,gpuHoursOwn,gpuHoursBorrowed,gpuHoursLent,waitP50Seconds,\
         waitP95Seconds,preemptionsCrossShare,preemptionsInShare,preemptionsCapacityLimitReduced,preemptionsCaused,\
         lostGpuHours,goodput,neverRunnable\n",
    );
    let opt_f = |v: Option<f64>| v.map(|x| x.to_string()).unwrap_or_default();
    let opt_u = |v: Option<u64>| v.map(|x| x.to_string()).unwrap_or_default();
    let overall = ("overall".to_string(), run.summary.overall.clone());
    let lent_total: f64 = d.iter().map(|x| x.gpu_hours_lent).sum();
    let caused_total: u64 = d.iter().map(|x| x.caused).sum();
    for (i, (name, m)) in run.summary.per_quota_share.iter().chain(std::iter::once(&overall)).enumerate() {
        let (lent, caused) = d.get(i).map_or((lent_total, caused_total), |x| (x.gpu_hours_lent, x.caused));
        let row = [
            field(name),
            m.jobs.to_string(),
            m.succeeded.to_string(),
            opt_f(m.utilization),
            m.gpu_hours_own.to_string(),
            m.gpu_hours_borrowed.to_string(),
            lent.to_string(),
            opt_u(m.wait_seconds.p50),
            opt_u(m.wait_seconds.p95),
            m.preemptions.cross_share.to_string(),
            m.preemptions.in_share.to_string(),
            m.preemptions.capacity_limit_reduced.to_string(),
            caused.to_string(),
            m.lost_gpu_hours.to_string(),
            opt_f(m.goodput),
            m.never_runnable.to_string(),
        ];
        out.push_str(&row.join(","));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets;

    fn run() -> RunData {
        let s = presets::scenario(presets::NOTEBOOK).unwrap();
        RunData::compute(quotasim::validate(&s).unwrap())
    }

    #[test]
    fn the_notebook_lender_and_the_shares_that_caused_and_suffered() {
        let d = per_share(&run());
        let by = |n: &str| d.iter().find(|x| x.name == n).unwrap().clone();
        // qs2 lends its one instance to qs1 until it reclaims it; qs1 borrows, lends nothing.
        assert!(by("qs2").gpu_hours_lent > 0.0);
        assert_eq!(by("qs1").gpu_hours_lent, 0.0);
        assert_eq!(by("qs3").gpu_hours_lent, 0.0, "RESERVE never lends");
        // qs2's job reclaimed from qs1; qs1's raised job preempted qs1's priority-3 job.
        assert_eq!((by("qs2").caused, by("qs1").caused, by("qs1").suffered), (1, 1, 2));
        // Lent GPU-hours equal the engine's instance-seconds lent (one GPU per instance here).
        let r = run();
        let qs2 = &r.summary.per_quota_share[1].1;
        assert!((by("qs2").gpu_hours_lent - qs2.instance_seconds_lent as f64 / 3600.0).abs() < 1e-9);
    }

    #[test]
    fn the_summary_csv_has_a_row_per_share_and_overall() {
        let csv = summary_csv(&run());
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 5);
        assert!(lines[0].starts_with("quotaShareName,jobs,succeeded,utilization"));
        assert!(lines[1].starts_with("qs1,3,3,") && lines[4].starts_with("overall,4,4,"), "{csv}");
        assert!(lines.iter().all(|l| l.split(',').count() == 16));
    }
}
