//! A scenario's `settings`: timings, backfill, victim order, checkpoint saves, the horizon,
//! billing and where the run begins.

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// Simulation settings; every field is optional and defaults as documented in the format spec.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", deny_unknown_fields, default))]
pub struct Settings {
    /// `preemptionGraceSeconds` (R21): how long a told-to-stop job keeps its capacity, in
    /// seconds (default 120).
    pub preemption_grace_seconds: i64,
    /// `scheduledSeconds` (R6): time spent in `SCHEDULED` before `STARTING`, in seconds.
    pub scheduled_seconds: i64,
    /// `startingSeconds` (R6): time spent in `STARTING` before `RUNNING`, in seconds.
    pub starting_seconds: i64,
    /// `backfill` (R12): let later jobs of a share go first when its front job cannot.
    pub backfill: bool,
    /// `victimOrder`: R19 step 2.
    pub victim_order: VictimOrder,
    /// `checkpointOnStop` (R8): a checkpointing job also saves at the stop signal.
    pub checkpoint_on_stop: bool,
    /// `checkpointSaveSeconds` (R8): how long that save takes, in seconds (default 30); it
    /// must fit in the grace period.
    pub checkpoint_save_seconds: i64,
    /// `horizonSeconds`: stop the simulation at this time, in seconds (`None`: run until
    /// nothing is left to happen).
    pub horizon_seconds: Option<i64>,
    /// `billing`: what is paid for, for the cost metrics (R26).
    pub billing: Billing,
    /// `startAt` (R28): the instant the run begins ("now"), in seconds (default 0).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_zero"))]
    pub start_at: i64,
    /// `originEpochMs` (R28): epoch milliseconds of time 0, for importers and ISO times.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub origin_epoch_ms: Option<i64>,
}

#[cfg(feature = "serde")]
pub(super) fn is_zero(v: &i64) -> bool {
    *v == 0
}

/// What the cost metrics charge (R26).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum Billing {
    /// Pay for the instances jobs hold.
    #[default]
    #[cfg_attr(feature = "serde", serde(rename = "onDemand"))]
    OnDemand,
    /// Pay for the service environment's capacity, used or not.
    #[cfg_attr(feature = "serde", serde(rename = "committed"))]
    Committed,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            preemption_grace_seconds: 120,
            scheduled_seconds: 0,
            starting_seconds: 0,
            backfill: false,
            victim_order: VictimOrder::Aws,
            checkpoint_on_stop: false,
            checkpoint_save_seconds: 30,
            horizon_seconds: None,
            billing: Billing::OnDemand,
            start_at: 0,
            origin_epoch_ms: None,
        }
    }
}

/// R19 step 2: which running job has the least work at risk.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum VictimOrder {
    /// The job whose current attempt was dispatched most recently.
    #[default]
    #[cfg_attr(feature = "serde", serde(rename = "aws"))]
    Aws,
    /// The job with the least training since its last checkpoint.
    #[cfg_attr(feature = "serde", serde(rename = "leastLostWork"))]
    LeastLostWork,
}
