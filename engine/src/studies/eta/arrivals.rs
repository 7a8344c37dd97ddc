//! Arrivals after `startAt` resampled from the recent past, for forecasts whose state lists no
//! later jobs (a backtest, a state imported at an instant): per share, a Poisson process at
//! the share's recent rate, each arrival a copy of one of its recent jobs (instance type,
//! count, priority, timeout, checkpoints, retries), its duration drawn like any job's. Draws
//! are keyed by (seed, replicate, share), so they are the same whatever else changes.

use alloc::string::String;
use alloc::vec::Vec;

use crate::model::{CompactString, Job};
use crate::rng::Rng;
use crate::scenario::{JobCfg, ShareId, TypeId, ValidScenario};

/// One share's arrivals.
#[derive(Clone, Debug, PartialEq)]
pub struct ShareArrivals {
    /// The quota share.
    pub share: String,
    /// Arrivals per second.
    pub per_second: f64,
    /// The jobs new arrivals copy (names, submit times and durations are not used).
    pub templates: Vec<Job>,
}

/// The arrivals model: every share's.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Resampled {
    /// Each share's arrivals; a share not listed (or at rate 0) gets none.
    pub shares: Vec<ShareArrivals>,
}

/// The model resolved against a validated state: per share, its rate and templates as job
/// configurations (those whose share and type the state has).
#[derive(Clone, Debug)]
pub(super) struct Model {
    pub shares: Vec<(ShareId, String, f64, Vec<JobCfg>)>,
}

impl Model {
    pub fn new(m: &Resampled, v: &ValidScenario) -> Model {
        let share_of = |n: &str| v.shares.iter().position(|s| s.name == n).map(ShareId::at);
        let type_of = |n: &str| v.types.iter().position(|t| t.name == n).map(TypeId::at);
        let shares = m
            .shares
            .iter()
            .filter(|s| s.per_second > 0.0 && s.per_second.is_finite())
            .filter_map(|s| {
                let id = share_of(&s.share)?;
                let templates: Vec<JobCfg> = s
                    .templates
                    .iter()
                    .filter_map(|j| {
                        let payload = j.service_request_payload.as_ref();
                        let ty = j
                            .instance_type
                            .as_deref()
                            .or_else(|| payload.and_then(|p| p.instance_type.as_deref()))?;
                        let count =
                            j.instance_count.or_else(|| payload.and_then(|p| p.instance_count)).unwrap_or(1);
                        let checkpoint = j.checkpoint_interval_seconds.or_else(|| {
                            payload
                                .filter(|p| p.has_checkpoint_config)
                                .map(|_| crate::validate::DEFAULT_PAYLOAD_CHECKPOINT as i64)
                        });
                        Some(JobCfg {
                            name: CompactString::default(),
                            share: id,
                            priority: u32::try_from(j.scheduling_priority).ok()?,
                            ty: type_of(ty)?,
                            count: u64::try_from(count).ok().filter(|c| *c > 0)?,
                            submit_at: 0,
                            duration: 1,
                            checkpoint_interval: checkpoint.and_then(|c| u64::try_from(c).ok()),
                            timeout: j
                                .timeout_seconds
                                .or_else(|| payload.and_then(|p| p.max_runtime_in_seconds))
                                .and_then(|t| u64::try_from(t).ok()),
                            retries: j
                                .preemption_configuration
                                .as_ref()
                                .and_then(|p| p.preemption_retries_before_termination)
                                .and_then(|r| u64::try_from(r).ok()),
                            started_at: None,
                            previous_attempts: 0,
                            completed_work: 0,
                        })
                    })
                    .collect();
                (!templates.is_empty()).then(|| (id, s.share.clone(), s.per_second, templates))
            })
            .collect();
        Model { shares }
    }

    /// Replicate `r`'s arrivals in `(start, horizon]`, share by share, named
    /// `{share}~{replicate}~{k}` (never a valid job name, so never one of the state's).
    pub fn draw(&self, seed: u64, r: u32, start: u64, horizon: u64) -> Vec<JobCfg> {
        let mut out = Vec::new();
        for (_, name, rate, templates) in &self.shares {
            let next = |rng: &mut Rng, t: f64| Some(t + rng.exp(1.0 / rate));
            share_arrivals(seed, r, name, 0xA771_7A15, (start, start, horizon), next, |rng, job, at| {
                let mut j = templates[rng.below(templates.len() as u64) as usize].clone();
                j.name = job.into();
                j.submit_at = at;
                out.push(j);
            });
        }
        out
    }
}

/// One share's arrivals in replicate `r`, for both arrival models: from `from`, `next` gives
/// each arrival's time after the last (`None`: no more), until `horizon`; `each` draws the job
/// (from the same generator, after its time) and gets its name, `{share}~{replicate}~{k}`
/// (never a valid job name, so never one of the state's), and its submit time (after `start`,
/// the state's `startAt`). The generator is keyed by (seed, replicate, share) and `salt`.
pub(super) fn share_arrivals(
    seed: u64,
    r: u32,
    share: &str,
    salt: u64,
    (from, start, horizon): (u64, u64, u64),
    mut next: impl FnMut(&mut Rng, f64) -> Option<f64>,
    mut each: impl FnMut(&mut Rng, String, u64),
) {
    let mut rng = Rng::new(super::draws::draw_key(seed, r, share) ^ salt);
    let mut t = from as f64;
    let mut k = 0u32;
    while let Some(at) = next(&mut rng, t) {
        t = at;
        // A NaN (never: rates are finite and above 0) stops it too.
        if t.partial_cmp(&(horizon as f64)) != Some(core::cmp::Ordering::Less) {
            break;
        }
        each(&mut rng, alloc::format!("{share}~{r}~{k}"), (t as u64).max(start + 1));
        k += 1;
    }
}
