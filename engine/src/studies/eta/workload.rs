//! The state's `workload` section as a forecast's model of what is uncertain:
//! `--durations workload` draws each job's duration from its share's entry (a running job's
//! beyond what it has trained), and `--arrivals workload` draws new jobs over
//! `(startAt, horizon]` at each entry's rate ([`crate::workload::arrival_paces`]: its
//! `arrivalsPerHour`, one rate or one per hour of the day, or the pace `loadPercent` gives it), each drawn from the entry's mixes
//! as the generator draws them (instance type, size lowered to the quota, priority,
//! checkpoints, retries). Arrivals are keyed by (seed, replicate, share), so they are the same
//! whatever else changes; their durations, like every job's, by (seed, replicate, name).

use alloc::string::String;
use alloc::vec::Vec;

use crate::model::Scenario;
use crate::rng::Rng;
use crate::scenario::{JobCfg, ShareId, TypeId, ValidScenario};
use crate::validate::Problem;
use crate::workload::{draw_percent, pick, Pace, ShareWorkload};

/// One share's entry, resolved against the validated state.
#[derive(Clone, Debug)]
pub(super) struct Entry {
    pub share: ShareId,
    pub name: String,
    /// When its jobs arrive.
    pub pace: Pace,
    /// Instance types with their weights; `None` for a type the state does not know (drawn
    /// like the others, so the draws stay in step, but such a job never arrives).
    types: Vec<(Option<TypeId>, i64)>,
    spec: ShareWorkload,
}

impl Entry {
    /// A duration longer than `trained`, drawn by `u` (see
    /// [`crate::workload::DurationSpec::draw_beyond`]).
    pub fn draw_beyond(&self, trained: u64, u: f64) -> Option<u64> {
        self.spec.duration.draw_beyond(trained, u)
    }

    /// The longest duration the entry gives.
    pub fn largest(&self) -> u64 {
        self.spec.duration.max_seconds.max(1) as u64
    }
}

/// Every share's entry.
#[derive(Clone, Debug, Default)]
pub(super) struct Model {
    pub entries: Vec<Entry>,
}

impl Model {
    /// The model of `state`'s `workload` section (`None` without one), or its problems with
    /// their paths.
    pub fn new(state: &Scenario, v: &ValidScenario) -> Result<Option<Model>, Vec<Problem>> {
        let Some(w) = &state.workload else { return Ok(None) };
        let paces = crate::workload::arrival_paces(state)?;
        let entries = w
            .shares
            .iter()
            .zip(paces)
            .filter_map(|(e, pace)| {
                let share = ShareId::at(v.shares.iter().position(|s| s.name == e.quota_share_name)?);
                let types = e
                    .instance_types
                    .iter()
                    .map(|t| (v.types.iter().position(|x| x.name == t.name).map(TypeId::at), t.weight))
                    .collect();
                Some(Entry { share, name: e.quota_share_name.clone(), pace, types, spec: e.clone() })
            })
            .collect();
        Ok(Some(Model { entries }))
    }

    /// The entry of `share`.
    pub fn entry(&self, share: ShareId) -> Option<usize> {
        self.entries.iter().position(|e| e.share == share)
    }

    /// Replicate `r`'s arrivals in `(begin, horizon]`, share by share, with their entry's
    /// index; named `{share}~{replicate}~{k}` (never a valid job name, so never one of the
    /// state's). Durations are left at 1: the caller draws them by name.
    pub fn draw(
        &self,
        v: &ValidScenario,
        seed: u64,
        r: u32,
        begin: u64,
        horizon: u64,
    ) -> Vec<(usize, JobCfg)> {
        let start = v.settings.start_at;
        let mut out = Vec::new();
        for (e, entry) in self.entries.iter().enumerate() {
            let rate = entry.pace.mean_per_second();
            if !(rate > 0.0 && rate.is_finite()) {
                continue;
            }
            let spec = &entry.spec;
            let next = |rng: &mut Rng, t: f64| match &entry.pace {
                Pace::PerSecond(r) => Some(t + rng.exp(1.0 / r)),
                hourly => hourly.after(t, rng.exp(1.0)),
            };
            let span = (begin, start, horizon);
            super::arrivals::share_arrivals(
                seed,
                r,
                &entry.name,
                0x3041_A10A,
                span,
                next,
                |rng, name, at| {
                    let ty = entry.types[pick(rng, entry.types.iter().map(|t| t.1))].0;
                    let count = if spec.sizes.is_empty() {
                        1
                    } else {
                        spec.sizes[pick(rng, spec.sizes.iter().map(|z| z.weight))].instances.max(1) as u64
                    };
                    let priority = if spec.priorities.is_empty() {
                        0
                    } else {
                        spec.priorities[pick(rng, spec.priorities.iter().map(|z| z.weight))].priority
                    };
                    let checkpoint = spec.checkpoint.as_ref().and_then(|c| draw_percent(rng, c));
                    let retries = spec.preemption_retries.as_ref().and_then(|c| draw_percent(rng, c));
                    // A type the state does not know cannot arrive (validation would refuse it).
                    let Some(ty) = ty else {
                        return;
                    };
                    let quota = v.shares[entry.share.index()].quota.get(ty.index()).copied().unwrap_or(0);
                    out.push((
                        e,
                        JobCfg {
                            name: name.into(),
                            share: entry.share,
                            priority: priority.clamp(0, i64::from(u32::MAX)) as u32,
                            ty,
                            count: if quota > 0 { count.min(quota) } else { count },
                            submit_at: at,
                            duration: 1,
                            checkpoint_interval: checkpoint.and_then(|c| u64::try_from(c).ok()),
                            timeout: None,
                            retries: retries.and_then(|c| u64::try_from(c).ok()),
                            started_at: None,
                            previous_attempts: 0,
                            completed_work: 0,
                        },
                    ));
                },
            );
        }
        out
    }
}
