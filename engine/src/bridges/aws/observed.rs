//! What actually happened, per job: what `quotasim import aws --observed` writes and
//! `quotasim calibrate` reads.

use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

use crate::result::Status;

/// One job as observed: what `--observed` writes (the result format's job shape, seconds
/// from the origin).
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ObservedJob {
    /// `jobName`: the job's name in the imported scenario (made valid and unique when the record's was not).
    pub job_name: String,
    /// `quotaShareName`: its quota share.
    pub quota_share_name: String,
    /// `status`: its last status the records show (`RUNNING` or `RUNNABLE` in a state at an instant); `null`
    /// when no record gives one.
    pub status: Option<Status>,
    /// `submitAt`: its `createdAt`, in seconds from the origin.
    pub submit_at: u64,
    /// `firstStartedAt`: when its first attempt was dispatched, in seconds from the origin; `null` if none
    /// was (in a state at an instant: none by then).
    pub first_started_at: Option<u64>,
    /// `stoppedAt`: when it succeeded or failed, in seconds from the origin; `null` while it had not (always
    /// `null` in a state at an instant).
    pub stopped_at: Option<u64>,
    /// `preemptions`: how many times it was preempted: AWS's count, else its attempts less one.
    pub preemptions: u32,
    /// Instance-seconds held over all attempts.
    pub instance_seconds: u64,
}

/// What actually happened: `quotasim import aws --observed` and `quotasim calibrate`'s input.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Observed {
    /// `formatVersion`: the observed-jobs format's version, 1.
    pub format_version: u32,
    /// The absolute time (epoch milliseconds) of `submitAt` 0.
    pub origin_epoch_millis: i64,
    /// `jobs`: one entry per job of the imported scenario, in its order.
    pub jobs: Vec<ObservedJob>,
}
