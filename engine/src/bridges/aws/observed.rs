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
    pub job_name: String,
    pub quota_share_name: String,
    pub status: Option<Status>,
    pub submit_at: u64,
    pub first_started_at: Option<u64>,
    pub stopped_at: Option<u64>,
    pub preemptions: u32,
    /// Instance-seconds held over all attempts.
    pub instance_seconds: u64,
}

/// What actually happened: `quotasim import aws --observed` and `quotasim calibrate`'s input.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Observed {
    pub format_version: u32,
    /// The absolute time (epoch milliseconds) of `submitAt` 0.
    pub origin_epoch_millis: i64,
    pub jobs: Vec<ObservedJob>,
}
