//! R26 summary metrics from a [`View`], the reclaim latencies the run records, and the
//! 2^53 - 1 check of the run's sums.

// Shares index several parallel arrays at once; index loops say that best.
#![allow(clippy::needless_range_loop)]

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use crate::result::{Metrics, Percentiles, PreemptionKind, Status, Summary};
use crate::scenario::{JobCfg, JobId, SettingsCfg, ShareId};

use super::ledger::Integrals;
use super::report::View;
use crate::limits::MAX_SAFE_INTEGER;

/// What R26 metrics are computed from: the integrals brought up to now, and a view.
struct MetricsView<'a> {
    ig: Integrals,
    v: View<'a>,
    reclaim: &'a ReclaimLatency,
}

impl MetricsView<'_> {
    fn build_summary(&self) -> Summary {
        let sim = &self.v;
        let ns = sim.ns();
        let nt = sim.nt();
        let mut per: Vec<Metrics> = vec![Metrics::default(); ns];
        let mut overall = Metrics::default();
        // R26 cost: only when some instance type has a price; a type without one costs 0.
        let priced = sim.cfg.types.iter().any(|t| t.price.is_some());
        let mut lost_cost: Vec<f64> = vec![0.0; ns];
        let mut lost_gpu: Vec<u64> = vec![0; ns];
        let JobSums { useful_gpu_seconds, mut waits, mut comps, good } = self.job_sums(&mut per);
        self.preemptions(&mut per, &mut lost_gpu, &mut lost_cost);
        let mut reclaims: Vec<Vec<u64>> = vec![Vec::new(); ns];
        for &(s, l) in &self.reclaim.latencies {
            reclaims[s.index()].push(l);
        }
        let mut all_reclaims: Vec<u64> = self.reclaim.latencies.iter().map(|x| x.1).collect();
        overall.reclaim_latency_seconds = percentiles(&mut all_reclaims);
        for (m, r) in per.iter_mut().zip(reclaims.iter_mut()) {
            m.reclaim_latency_seconds = percentiles(r);
        }
        let mut all_waits = Vec::new();
        let mut all_comps = Vec::new();
        let (mut gpu_all, mut gpu_own_all, mut gpu_b_all, mut gpu_l_all) = (0u64, 0u64, 0u64, 0u64);
        let (mut entitled_all, mut ratios) = (0u64, Vec::new());
        for s in 0..ns {
            let mut entitled = 0u64;
            let (mut gpu, mut gpu_own, mut gpu_b, mut gpu_l) = (0u64, 0u64, 0u64, 0u64);
            let mut quota_s = 0u64;
            for t in 0..nt {
                let a = &self.ig.acc[s * nt + t];
                let g = sim.cfg.types[t].gpus;
                let m = &mut per[s];
                m.instance_seconds = m.instance_seconds.saturating_add(a.used);
                m.instance_seconds_own = m.instance_seconds_own.saturating_add(a.own);
                m.instance_seconds_borrowed = m.instance_seconds_borrowed.saturating_add(a.borrowed);
                m.instance_seconds_lent = m.instance_seconds_lent.saturating_add(a.lent);
                gpu = gpu.saturating_add(a.used.saturating_mul(g));
                gpu_own = gpu_own.saturating_add(a.own.saturating_mul(g));
                gpu_b = gpu_b.saturating_add(a.borrowed.saturating_mul(g));
                gpu_l = gpu_l.saturating_add(a.lent.saturating_mul(g));
                quota_s = quota_s.saturating_add(a.quota);
                entitled = entitled.saturating_add(a.entitled);
                m.fairness_deficit_instance_seconds =
                    m.fairness_deficit_instance_seconds.saturating_add(a.deficit);
            }
            let m = &mut per[s];
            m.instance_hours = m.instance_seconds as f64 / 3600.0;
            m.gpu_hours = gpu as f64 / 3600.0;
            m.gpu_hours_own = gpu_own as f64 / 3600.0;
            m.gpu_hours_borrowed = gpu_b as f64 / 3600.0;
            m.gpu_hours_lent = gpu_l as f64 / 3600.0;
            m.lost_gpu_hours = lost_gpu[s] as f64 / 3600.0;
            m.utilization = ratio(m.instance_seconds, quota_s);
            m.goodput = ratio(good[s], m.instance_seconds);
            // Fairness: held over entitled instance-seconds; a share that was never entitled
            // to anything (no demand within a quota) has no ratio and is not in Jain's index.
            m.fairness.entitlement_ratio = ratio(m.instance_seconds, entitled);
            ratios.extend(m.fairness.entitlement_ratio);
            entitled_all = entitled_all.saturating_add(entitled);
            overall.fairness_deficit_instance_seconds =
                overall.fairness_deficit_instance_seconds.saturating_add(m.fairness_deficit_instance_seconds);
            gpu_all = gpu_all.saturating_add(gpu);
            gpu_own_all = gpu_own_all.saturating_add(gpu_own);
            gpu_b_all = gpu_b_all.saturating_add(gpu_b);
            gpu_l_all = gpu_l_all.saturating_add(gpu_l);
            all_waits.extend_from_slice(&waits[s]);
            all_comps.extend_from_slice(&comps[s]);
            m.wait_seconds = percentiles(&mut waits[s]);
            m.completion_seconds = percentiles(&mut comps[s]);
            sum_into(&mut overall, m);
        }
        let cap_total: u64 = self.ig.cap.iter().sum();
        overall.instance_hours = overall.instance_seconds as f64 / 3600.0;
        overall.gpu_hours = gpu_all as f64 / 3600.0;
        overall.gpu_hours_own = gpu_own_all as f64 / 3600.0;
        overall.gpu_hours_borrowed = gpu_b_all as f64 / 3600.0;
        overall.gpu_hours_lent = gpu_l_all as f64 / 3600.0;
        overall.lost_gpu_hours = lost_gpu.iter().sum::<u64>() as f64 / 3600.0;
        overall.utilization = ratio(overall.instance_seconds, cap_total);
        overall.fairness.entitlement_ratio = ratio(overall.instance_seconds, entitled_all);
        overall.fairness.jain_index = jain(&ratios);
        overall.goodput = ratio(good.iter().sum(), overall.instance_seconds);
        overall.wait_seconds = percentiles(&mut all_waits);
        overall.completion_seconds = percentiles(&mut all_comps);
        if priced {
            self.costs(&mut per, &mut overall, &lost_cost, useful_gpu_seconds);
        }
        self.wait_breakdown(&mut per, &mut overall);
        Summary { per_quota_share: sim.cfg.shares.iter().map(|s| s.name.clone()).zip(per).collect(), overall }
    }
}

/// What the jobs add up to, per share: waits and completion times, and succeeded training.
struct JobSums {
    /// GPU-seconds of training that succeeded (after `startAt`), over every share.
    useful_gpu_seconds: f64,
    waits: Vec<Vec<u64>>,
    comps: Vec<Vec<u64>>,
    /// Instance-seconds of training that succeeded, per share.
    good: Vec<u64>,
}

impl MetricsView<'_> {
    /// Each job's count in its share's metrics (succeeded, failed, unfinished, never
    /// runnable), and its wait, completion time and succeeded training.
    fn job_sums(&self, per: &mut [Metrics]) -> JobSums {
        let sim = &self.v;
        let ns = sim.ns();
        let mut useful_gpu_seconds = 0.0f64;
        let mut waits: Vec<Vec<u64>> = vec![Vec::new(); ns];
        let mut comps: Vec<Vec<u64>> = vec![Vec::new(); ns];
        let mut good: Vec<u64> = vec![0; ns];
        for (j, jd) in sim.jobs.iter().enumerate() {
            let jc = &sim.cfg.jobs[j];
            let s = jc.share.index();
            let m = &mut per[s];
            m.jobs += 1;
            match jd.status {
                Some(Status::Succeeded) => {
                    m.succeeded += 1;
                    // R28: only the training done after `startAt`.
                    let work = jc.duration - work_before_start(jc, &sim.cfg.settings);
                    good[s] = good[s].saturating_add(work.saturating_mul(jc.count));
                    useful_gpu_seconds +=
                        work as f64 * jc.count as f64 * sim.cfg.types[jc.ty.index()].gpus as f64;
                    if let Some(stopped) = jd.stopped_at.get() {
                        comps[s].push(stopped - jc.submit_at);
                    }
                }
                Some(Status::Failed) => m.failed += 1,
                _ => {
                    m.unfinished += 1;
                    if jd.status == Some(Status::Runnable)
                        && sim.never_runnable_reason(JobId::at(j)).is_some()
                    {
                        m.never_runnable += 1;
                    }
                }
            }
            // R28: a job that started before `startAt` has no wait to report.
            if let Some(first) = jd.first_running.get().filter(|_| !started_before(jc)) {
                waits[s].push(first - jc.submit_at);
            }
        }
        JobSums { useful_gpu_seconds, waits, comps, good }
    }

    /// Each preemption in its victim's share (lost work, by kind, restarted at once) and in
    /// its preemptor's (caused); the most preemptions of one job.
    fn preemptions(&self, per: &mut [Metrics], lost_gpu: &mut [u64], lost_cost: &mut [f64]) {
        let sim = &self.v;
        let price = |t: usize| sim.cfg.types[t].price.unwrap_or(0.0);
        let queries: Vec<(JobId, u64)> = sim.grace.log().iter().map(|p| (p.victim, p.releases_at)).collect();
        let restarted = sim.jobs.started_at_each(&queries);
        for (p, restarted) in sim.grace.log().iter().zip(restarted) {
            let jc = &sim.cfg.jobs[p.victim.index()];
            let s = jc.share.index();
            // R8: each preemption's lost work, per instance and GPU of the victim.
            per[s].lost_instance_seconds =
                per[s].lost_instance_seconds.saturating_add(p.lost.saturating_mul(jc.count));
            lost_gpu[s] = lost_gpu[s].saturating_add(
                p.lost.saturating_mul(jc.count).saturating_mul(sim.cfg.types[jc.ty.index()].gpus),
            );
            lost_cost[s] += p.lost as f64 * jc.count as f64 * price(jc.ty.index()) / 3600.0;
            let pc = &mut per[s].preemptions;
            match p.kind {
                PreemptionKind::CrossShare => pc.cross_share += 1,
                PreemptionKind::InShare => pc.in_share += 1,
                PreemptionKind::CapacityReduced => pc.capacity_limit_reduced += 1,
            }
            pc.total += 1;
            // The victim dispatched again the instant its grace ended.
            if restarted {
                pc.restarted_at_once += 1;
            }
            if let Some(x) = p.preemptor {
                let by = sim.cfg.jobs[x.index()].share.index();
                per[by].preemptions.caused += 1;
            }
        }
        // Preemptions per job: the log holds every victim's preemption, in decision order.
        let mut per_job: Vec<(JobId, u64)> = Vec::new();
        {
            let mut victims: Vec<JobId> = sim.grace.log().iter().map(|p| p.victim).collect();
            victims.sort_unstable();
            for v in victims {
                match per_job.last_mut() {
                    Some((j, n)) if *j == v => *n += 1,
                    _ => per_job.push((v, 1)),
                }
            }
        }
        for &(v, n) in &per_job {
            let m = &mut per[sim.cfg.jobs[v.index()].share.index()];
            m.max_preemptions_per_job = m.max_preemptions_per_job.max(n);
            m.jobs_preempted_more_than_once += u64::from(n > 1);
        }
    }

    /// The wait breakdown per share, and over all shares.
    fn wait_breakdown(&self, per: &mut [Metrics], overall: &mut Metrics) {
        let sim = &self.v;
        // The wait breakdown per share, and over all shares.
        let by = sim.waits.of_shares(sim.now, |j| sim.cfg.jobs[j.index()].share);
        let mut all = [0u128; 9];
        for (m, b) in per.iter_mut().zip(by.iter()) {
            for c in 0..9 {
                m.runnable_seconds_by_cause.0[c] = b[c].min(u64::MAX as u128) as u64;
                all[c] += b[c];
            }
        }
        for c in 0..9 {
            overall.runnable_seconds_by_cause.0[c] = all[c].min(u64::MAX as u128) as u64;
        }
    }
}

/// A share's counts and sums added to the overall metrics.
fn sum_into(overall: &mut Metrics, m: &Metrics) {
    overall.jobs = overall.jobs.saturating_add(m.jobs);
    overall.succeeded = overall.succeeded.saturating_add(m.succeeded);
    overall.failed = overall.failed.saturating_add(m.failed);
    overall.never_runnable = overall.never_runnable.saturating_add(m.never_runnable);
    overall.unfinished = overall.unfinished.saturating_add(m.unfinished);
    overall.instance_seconds = overall.instance_seconds.saturating_add(m.instance_seconds);
    overall.instance_seconds_own = overall.instance_seconds_own.saturating_add(m.instance_seconds_own);
    overall.instance_seconds_borrowed =
        overall.instance_seconds_borrowed.saturating_add(m.instance_seconds_borrowed);
    overall.instance_seconds_lent = overall.instance_seconds_lent.saturating_add(m.instance_seconds_lent);
    overall.lost_instance_seconds = overall.lost_instance_seconds.saturating_add(m.lost_instance_seconds);
    overall.preemptions.cross_share =
        overall.preemptions.cross_share.saturating_add(m.preemptions.cross_share);
    overall.preemptions.in_share = overall.preemptions.in_share.saturating_add(m.preemptions.in_share);
    overall.preemptions.capacity_limit_reduced =
        overall.preemptions.capacity_limit_reduced.saturating_add(m.preemptions.capacity_limit_reduced);
    overall.preemptions.total = overall.preemptions.total.saturating_add(m.preemptions.total);
    overall.preemptions.restarted_at_once =
        overall.preemptions.restarted_at_once.saturating_add(m.preemptions.restarted_at_once);
    overall.preemptions.caused = overall.preemptions.caused.saturating_add(m.preemptions.caused);
    overall.max_preemptions_per_job = overall.max_preemptions_per_job.max(m.max_preemptions_per_job);
    overall.jobs_preempted_more_than_once += m.jobs_preempted_more_than_once;
}

impl MetricsView<'_> {
    /// R26 cost. On demand: each share pays for the instance-seconds it holds. Committed: the
    /// service environment's capacity is paid for whether used or not; each share pays for
    /// what it holds and for its idle quota (neither used nor lent), and capacity that belongs
    /// to no share is `unassignedCost`, so that the shares' costs and it add up to the total.
    /// With oversubscribed quotas (R3) idle quota is charged in proportion to the capacity
    /// not held, per type, so the sum still holds.
    fn costs(&self, per: &mut [Metrics], overall: &mut Metrics, lost: &[f64], useful_gpu_seconds: f64) {
        let sim = &self.v;
        let nt = sim.nt();
        let ns = per.len();
        let mut cost = vec![0.0f64; ns];
        let mut idle_cost = vec![0.0f64; ns];
        let mut unassigned = 0.0f64;
        let committed = sim.cfg.settings.billing == crate::model::Billing::Committed;
        for t in 0..nt {
            let p = sim.cfg.types[t].price.unwrap_or(0.0) / 3600.0;
            let acc = |s: usize| &self.ig.acc[s * nt + t];
            if !committed {
                for s in 0..ns {
                    cost[s] += acc(s).used as f64 * p;
                }
                continue;
            }
            let used: f64 = (0..ns).map(|s| acc(s).used as f64).sum();
            let idle = |s: usize| acc(s).quota.saturating_sub(acc(s).own).saturating_sub(acc(s).lent) as f64;
            let idle_all: f64 = (0..ns).map(idle).sum();
            let cap = self.ig.cap[t] as f64;
            let room = (cap - used).max(0.0);
            let factor = if idle_all > room { room / idle_all } else { 1.0 };
            for s in 0..ns {
                cost[s] += (acc(s).used as f64 + idle(s) * factor) * p;
                idle_cost[s] += idle(s) * factor * p;
            }
            unassigned += (room - idle_all * factor).max(0.0) * p;
        }
        for (s, m) in per.iter_mut().enumerate() {
            m.cost = Some(cost[s]);
            m.lost_cost = Some(lost[s]);
            m.idle_quota_cost = committed.then_some(idle_cost[s]);
        }
        let total = cost.iter().sum::<f64>() + unassigned;
        overall.cost = Some(total);
        overall.lost_cost = Some(lost.iter().sum());
        overall.idle_quota_cost = committed.then(|| idle_cost.iter().sum());
        overall.unassigned_cost = committed.then_some(unassigned);
        overall.cost_per_useful_gpu_hour =
            (useful_gpu_seconds > 0.0).then(|| total / (useful_gpu_seconds / 3600.0));
    }
}

/// R28: whether a job started before `startAt` (it has `startedAt` or earlier attempts).
fn started_before(jc: &JobCfg) -> bool {
    jc.started_at.is_some() || jc.previous_attempts > 0
}

/// R28: training a job had done by `startAt`: what its earlier attempts saved, and what its
/// attempt in progress trained up to `startAt` (never more than its work).
pub(crate) fn work_before_start(jc: &JobCfg, st: &SettingsCfg) -> u64 {
    let trained = jc.started_at.map_or(0, |at| {
        let running = at.saturating_add(st.scheduled).saturating_add(st.starting);
        st.start_at.saturating_sub(running)
    });
    jc.completed_work.saturating_add(trained).min(jc.duration)
}

pub(crate) fn ratio(a: u64, b: u64) -> Option<f64> {
    if b == 0 {
        None
    } else {
        Some(a as f64 / b as f64)
    }
}

/// Nearest-rank percentiles.
/// Jain's fairness index (sum x)^2 / (k sum x^2) of the shares' entitlement ratios; `None`
/// without shares, or when every ratio is 0.
pub(crate) fn jain(x: &[f64]) -> Option<f64> {
    let sum: f64 = x.iter().sum();
    let sq: f64 = x.iter().map(|v| v * v).sum();
    (!x.is_empty() && sq > 0.0).then(|| sum * sum / (x.len() as f64 * sq))
}

pub(crate) fn percentiles(v: &mut [u64]) -> Percentiles {
    let n = v.len();
    if n == 0 {
        return Percentiles::default();
    }
    // Nearest ranks of p50, p90, p95, p99 and the maximum, nondecreasing. Each is found by
    // selection instead of a sort (a million waits: one pass each instead of n log n), from
    // the highest down: after selecting rank i, the i values before it are the i smallest, so
    // the next lower rank is selected among them alone.
    let rank = |p: usize| (n * p).div_ceil(100).max(1) - 1;
    let ranks = [rank(50), rank(90), rank(95), rank(99), n - 1];
    let mut at = [0u64; 5];
    let mut hi = n;
    for k in (0..ranks.len()).rev() {
        let i = ranks[k];
        if i < hi {
            at[k] = *v[..hi].select_nth_unstable(i).1;
            hi = i;
        } else {
            at[k] = at[k + 1];
        }
    }
    Percentiles {
        count: n as u64,
        p50: Some(at[0]),
        p90: Some(at[1]),
        p95: Some(at[2]),
        p99: Some(at[3]),
        max: Some(at[4]),
    }
}

/// R26 reclaim latency: front jobs that needed a reclaim (R18) and are not dispatched yet,
/// with the first instant they needed it; and, per dispatched job that had needed one, its
/// share and the latency.
#[derive(Clone, Debug, Default)]
pub(crate) struct ReclaimLatency {
    waits: BTreeMap<JobId, u64>,
    latencies: Vec<(ShareId, u64)>,
}

impl ReclaimLatency {
    /// Front job `j` fits its quota and does not fit at `now`: it needs a reclaim.
    pub fn waiting(&mut self, j: JobId, now: u64) {
        self.waits.entry(j).or_insert(now);
    }

    /// Job `j` of share `s` is dispatched at `now`.
    pub fn dispatched(&mut self, j: JobId, s: ShareId, now: u64) {
        if let Some(since) = self.waits.remove(&j) {
            self.latencies.push((s, now - since));
        }
    }

    /// Job `j` is terminated: it is not counted.
    pub fn dropped(&mut self, j: JobId) {
        self.waits.remove(&j);
    }
}

impl View<'_> {
    /// R26: the summary metrics as of now.
    pub fn summary(&self, reclaim: &ReclaimLatency) -> Summary {
        let ig = self.ledger.integrals_at(self.now);
        MetricsView { ig, v: *self, reclaim }.build_summary()
    }

    /// The summary path of the first integer sum over 2^53 - 1 (R26), if any.
    pub(crate) fn sums_error(&self) -> Option<String> {
        const FIELDS: [&str; 7] = [
            "instanceSeconds",
            "instanceSecondsOwn",
            "instanceSecondsBorrowed",
            "instanceSecondsLent",
            "lostInstanceSeconds",
            "gpuHours",
            "utilization",
        ];
        let ig = self.ledger.integrals_at(self.now);
        let mut lost: Vec<u128> = vec![0; self.ns()];
        for p in self.grace.log() {
            let jc = self.job_cfg(p.victim);
            lost[jc.share.index()] += p.lost as u128 * jc.count as u128;
        }
        let over = |m: &[u128; 7]| m.iter().position(|&v| v > MAX_SAFE_INTEGER as u128).map(|k| FIELDS[k]);
        let mut overall = [0u128; 7];
        for s in 0..self.ns() {
            let mut m = [0u128; 7];
            for t in 0..self.nt() {
                let a = &ig.acc[s * self.nt() + t];
                let g = self.cfg.types[t].gpus.max(1) as u128;
                let sums = [a.used, a.own, a.borrowed, a.lent];
                for (k, v) in sums.iter().enumerate() {
                    m[k] += *v as u128;
                }
                m[5] += a.used as u128 * g;
                m[6] += a.quota as u128;
            }
            m[4] = lost[s];
            if let Some(field) = over(&m) {
                return Some(alloc::format!("perQuotaShare.{}.{field}", self.cfg.shares[s].name));
            }
            for k in 0..6 {
                overall[k] += m[k];
            }
        }
        overall[6] = ig.cap.iter().map(|&c| c as u128).sum();
        if let Some(field) = over(&overall) {
            return Some(alloc::format!("overall.{field}"));
        }
        // The wait breakdown: no cause's sum may be above 2^53 - 1 either.
        let by = self.waits.of_shares(self.now, |j| self.cfg.jobs[j.index()].share);
        let mut all = [0u128; 9];
        for (s, b) in by.iter().enumerate() {
            for (k, &c) in crate::reasons::WaitCause::ALL.iter().enumerate() {
                if b[k] > MAX_SAFE_INTEGER as u128 {
                    let name = &self.cfg.shares[s].name;
                    return Some(alloc::format!("perQuotaShare.{name}.runnableSecondsByCause.{}", c.key()));
                }
                all[k] += b[k];
            }
        }
        let k = all.iter().position(|&v| v > MAX_SAFE_INTEGER as u128)?;
        Some(alloc::format!("overall.runnableSecondsByCause.{}", crate::reasons::WaitCause::ALL[k].key()))
    }
}

#[cfg(test)]
mod tests {
    use super::percentiles;
    use crate::rng::Rng;

    /// Selection gives the nearest ranks a sort gives, at every size up to 300 (equal ranks
    /// included) and with many repeated values.
    #[test]
    fn percentiles_by_selection_are_the_sorted_nearest_ranks() {
        let mut rng = Rng::new(7);
        for n in 1..300usize {
            for spread in [3u64, 1_000_000] {
                let v: alloc::vec::Vec<u64> = (0..n).map(|_| rng.below(spread)).collect();
                let mut sorted = v.clone();
                sorted.sort_unstable();
                let rank = |p: usize| sorted[(n * p).div_ceil(100).max(1) - 1];
                let got = percentiles(&mut v.clone());
                assert_eq!(got.count, n as u64);
                assert_eq!(
                    [got.p50, got.p90, got.p95, got.p99, got.max],
                    [Some(rank(50)), Some(rank(90)), Some(rank(95)), Some(rank(99)), Some(sorted[n - 1])],
                    "{v:?}"
                );
            }
        }
    }
}
