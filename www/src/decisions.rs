//! The per-share summary table as CSV, and who preempted whom by share (the preemptor ->
//! victim matrix) from a run's preemption log.

use std::fmt::Write;

use quotasim::PreemptionKind;

use crate::csv::field;
use crate::run::RunData;

/// The per-share table as CSV, one row per share and an `overall` row: what the table shows,
/// with full precision.
pub fn summary_csv(run: &RunData) -> String {
    let mut out = String::from(
        "quotaShareName,jobs,succeeded,utilization,gpuHoursOwn,gpuHoursBorrowed,gpuHoursLent,waitP50Seconds,\
         waitP95Seconds,preemptionsCrossShare,preemptionsInShare,preemptionsCapacityLimitReduced,preemptionsCaused,\
         lostGpuHours,goodput,neverRunnable\n",
    );
    let opt_f = |v: Option<f64>| v.map(|x| x.to_string()).unwrap_or_default();
    let opt_u = |v: Option<u64>| v.map(|x| x.to_string()).unwrap_or_default();
    let overall = ("overall".to_string(), run.summary.overall.clone());
    for (name, m) in run.summary.per_quota_share.iter().chain(std::iter::once(&overall)) {
        let row = [
            field(name),
            m.jobs.to_string(),
            m.succeeded.to_string(),
            opt_f(m.utilization),
            m.gpu_hours_own.to_string(),
            m.gpu_hours_borrowed.to_string(),
            m.gpu_hours_lent.to_string(),
            opt_u(m.wait_seconds.p50),
            opt_u(m.wait_seconds.p95),
            m.preemptions.cross_share.to_string(),
            m.preemptions.in_share.to_string(),
            m.preemptions.capacity_limit_reduced.to_string(),
            m.preemptions.caused.to_string(),
            m.lost_gpu_hours.to_string(),
            opt_f(m.goodput),
            m.never_runnable.to_string(),
        ];
        out.push_str(&row.join(","));
        out.push('\n');
    }
    out
}

/// One cell of the preemptor → victim matrix.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatrixCell {
    /// Cross-share reclaims (R18).
    pub reclaim: u64,
    /// In-share preemptions (R20).
    pub in_share: u64,
    /// Capacity limit reductions (R22; only in the row without a preemptor).
    pub capacity: u64,
    /// GPU-hours of the victims' work lost since their last checkpoint (R8).
    pub gpu_hours_lost: f64,
}

impl MatrixCell {
    pub fn count(&self) -> u64 {
        self.reclaim + self.in_share + self.capacity
    }
}

/// Who preempted whom, by share: `cells[preemptor][victim]`, shares in the run's order, and
/// the preemptions without a preemptor (a capacity limit reduced) by victim share.
#[derive(Clone, Debug, PartialEq)]
pub struct PreemptionMatrix {
    pub shares: Vec<String>,
    pub cells: Vec<Vec<MatrixCell>>,
    pub no_preemptor: Vec<MatrixCell>,
}

impl PreemptionMatrix {
    pub fn total(&self) -> u64 {
        self.cells.iter().flatten().chain(&self.no_preemptor).map(MatrixCell::count).sum()
    }
}

/// The preemptor → victim matrix of a run's preemption log. A record naming a job or share
/// the scenario does not have is skipped, never a panic.
pub fn preemption_matrix(run: &RunData) -> PreemptionMatrix {
    let sc = run.full().scenario();
    let n = run.share_names.len();
    let mut m = PreemptionMatrix {
        shares: run.share_names.clone(),
        cells: vec![vec![MatrixCell::default(); n]; n],
        no_preemptor: vec![MatrixCell::default(); n],
    };
    for p in &run.preemptions {
        let Some(v) = sc.jobs.get(p.victim.index()) else { continue };
        let vs = v.share.index();
        let gpus = sc.types.get(v.ty.index()).map_or(1, |t| t.gpus);
        let lost = p.lost as f64 * v.count as f64 * gpus as f64 / 3600.0;
        let row = match p.preemptor.and_then(|j| sc.jobs.get(j.index())) {
            Some(pj) => m.cells.get_mut(pj.share.index()),
            None => Some(&mut m.no_preemptor),
        };
        let Some(cell) = row.and_then(|r| r.get_mut(vs)) else { continue };
        match p.kind {
            PreemptionKind::CrossShare => cell.reclaim += 1,
            PreemptionKind::InShare => cell.in_share += 1,
            PreemptionKind::CapacityReduced => cell.capacity += 1,
        }
        cell.gpu_hours_lost += lost;
    }
    m
}

/// The matrix as CSV, one row per (preemptor, victim) pair with a preemption; the preemptor
/// of a capacity limit reduction is empty.
pub fn matrix_csv(m: &PreemptionMatrix) -> String {
    let mut out = String::from(
        "preemptorShare,victimShare,preemptions,crossShare,inShare,capacityLimitReduced,lostGpuHours\n",
    );
    let rows =
        m.cells.iter().enumerate().map(|(i, r)| (Some(i), r)).chain(std::iter::once((None, &m.no_preemptor)));
    for (p, row) in rows {
        for (v, c) in row.iter().enumerate() {
            if c.count() == 0 {
                continue;
            }
            let pname = p.map(|i| field(&m.shares[i])).unwrap_or_default();
            let _ = writeln!(
                out,
                "{pname},{},{},{},{},{},{}",
                field(&m.shares[v]),
                c.count(),
                c.reclaim,
                c.in_share,
                c.capacity,
                c.gpu_hours_lost
            );
        }
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
    fn the_summary_csv_has_a_row_per_share_and_overall() {
        let csv = summary_csv(&run());
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 5);
        assert!(lines[0].starts_with("quotaShareName,jobs,succeeded,utilization"));
        assert!(lines[1].starts_with("qs1,3,3,") && lines[4].starts_with("overall,4,4,"), "{csv}");
        assert!(lines.iter().all(|l| l.split(',').count() == 16));
    }

    #[test]
    fn the_notebook_matrix_has_a_reclaim_by_qs2_of_qs1_and_an_in_share_one_inside_qs1() {
        let r = run();
        let m = preemption_matrix(&r);
        assert_eq!(m.shares, ["qs1", "qs2", "qs3"]);
        assert_eq!(m.total(), 2);
        let c = &m.cells[1][0];
        assert_eq!((c.reclaim, c.in_share, c.capacity), (1, 0, 0), "qs2 reclaimed from qs1");
        let d = &m.cells[0][0];
        assert_eq!((d.reclaim, d.in_share, d.capacity), (0, 1, 0), "in-share inside qs1");
        assert!(m.no_preemptor.iter().all(|c| c.count() == 0));
        // The cells' lost GPU-hours add up to the engine's per-share figure.
        let lost = c.gpu_hours_lost + d.gpu_hours_lost;
        assert!((lost - r.summary.per_quota_share[0].1.lost_gpu_hours).abs() < 1e-9, "{lost}");
        let csv = matrix_csv(&m);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 3, "{csv}");
        assert!(lines.iter().any(|l| l.starts_with("qs1,qs1,1,0,1,0,")), "{csv}");
        assert!(lines.iter().any(|l| l.starts_with("qs2,qs1,1,1,0,0,")), "{csv}");
    }

    #[test]
    fn a_capacity_reduction_has_no_preemptor_and_its_own_row() {
        let p = presets::PRESETS.iter().find(|p| p.id == "lowering").expect("the lowering preset");
        let r = RunData::compute(quotasim::validate(&presets::scenario(p).unwrap()).unwrap());
        let m = preemption_matrix(&r);
        let without: u64 = m.no_preemptor.iter().map(|c| c.capacity).sum();
        let expected = r.preemptions.iter().filter(|p| p.preemptor.is_none()).count() as u64;
        assert!(without > 0 && without == expected, "{m:?}");
        assert_eq!(m.total(), r.preemptions.len() as u64, "every preemption is in one cell");
        assert!(matrix_csv(&m).lines().any(|l| l.starts_with(",platform,")), "{}", matrix_csv(&m));
    }
}
