//! `quotasim eta`'s report: per job, its start band (p10, p50, p90), as seconds and as ISO
//! times, what it waits for now, and whom a submitted job would preempt.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

use super::options::{Arrivals, Durations};

/// `ms` after the epoch plus `t` seconds, as an ISO 8601 UTC time.
pub fn iso_time(origin_ms: i64, t: u64) -> String {
    crate::aws::iso8601(origin_ms.saturating_add((t as i64).saturating_mul(1000)))
}

/// `quotasim eta`'s JSON.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EtaReport {
    /// `formatVersion`: the report format's version, 1.
    pub format_version: u32,
    /// The state's `startAt`; every time below is seconds after it.
    pub start_at: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// `originEpochMs`: the absolute time of second 0, in epoch milliseconds; absent when the state has none.
    pub origin_epoch_ms: Option<i64>,
    /// The runs stop here (absolute seconds).
    pub horizon_at: u64,
    /// `replicates`: how many runs the bands are over.
    pub replicates: u32,
    /// `seed`: the seed every replicate's draws come from.
    pub seed: u64,
    /// `durations`: where job durations came from (the one chosen when none was asked for).
    pub durations: Durations,
    /// `arrivals`: which jobs arrive after `startAt`.
    pub arrivals: Arrivals,
    /// How many job durations, over every replicate, came from each source (`history`,
    /// `timeout`, `twiceLargest`, `asWritten`, `exact`).
    pub draws_by_source: BTreeMap<String, u64>,
    /// `jobs`: one forecast per job asked for (every queued job when none was named), the submitted one
    /// included.
    pub jobs: Vec<JobEta>,
}

/// Seconds after `startAt`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Band {
    /// Nearest-rank percentiles over every replicate (`null`: more than 100 - p % of them
    /// never start it before the horizon).
    pub p10: Option<u64>,
    /// `p50`: the median start (`null`: more than half of the replicates never start it before the horizon).
    pub p50: Option<u64>,
    /// `p90`: the 90th percentile start (`null`: more than 10 % of the replicates never start it before the
    /// horizon).
    pub p90: Option<u64>,
    /// The mean over the replicates that start it (`startedReplicates` of them).
    pub mean: Option<f64>,
}

/// The band as ISO times (when the state has `originEpochMs`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BandIso {
    /// `p10` as an ISO 8601 UTC time.
    pub p10: Option<String>,
    /// `p50` as an ISO 8601 UTC time.
    pub p50: Option<String>,
    /// `p90` as an ISO 8601 UTC time.
    pub p90: Option<String>,
}

/// A job the submitted one preempts, and in what share of the replicates.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Victim {
    /// `jobName`: the job preempted.
    pub job_name: String,
    /// `probability`: the fraction of replicates (0-1) in which the submitted job preempts it.
    pub probability: f64,
}

/// One job's forecast.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JobEta {
    /// `jobName`: the job forecast.
    pub job_name: String,
    /// `quotaShareName`: its quota share.
    pub quota_share_name: String,
    /// Whether it is the job `--submit` added.
    pub submitted: bool,
    /// `start`: when its first attempt is dispatched, over the replicates, in seconds after `startAt`.
    pub start: Band,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// `startIso`: the same band as ISO times; absent when the state has no `originEpochMs`.
    pub start_iso: Option<BandIso>,
    /// Replicates that start it before the horizon.
    pub started_replicates: u32,
    /// `notStartedByHorizon`: the fraction of replicates (0-1) that do not start it before the horizon.
    pub not_started_by_horizon: f64,
    /// The share of replicates in which it is preempted after it starts.
    pub preempted_after_start: f64,
    /// Why it waits at `startAt` (R17), `null` when it is not queued then.
    pub reason: Option<String>,
    /// What binds (the wait causes of the explanations).
    pub cause: Option<&'static str>,
    /// Its place in its share's queue and the queue's length.
    pub position: Option<(usize, usize)>,
    /// The jobs before it in its share's order.
    pub ahead: Vec<String>,
    /// For the submitted job: whom it preempts.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub would_preempt: Vec<Victim>,
}
