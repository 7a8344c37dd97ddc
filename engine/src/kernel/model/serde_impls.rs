//! Hand-written serde shapes: an action is `{ "at": T, "<actionName>": { ... } }` with exactly
//! one action name, and `serviceRequestPayload` is an object or a JSON string of one.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use serde::de::{self, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::model::{Action, ActionKind, CapacityLimit, QuotaShareUpdate, ServiceRequestPayload};

#[derive(Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct UpdateServiceJobRaw {
    job_name: String,
    scheduling_priority: i64,
}

#[derive(Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct TerminateRaw {
    job_name: String,
    #[serde(default)]
    reason: Option<String>,
}

#[derive(Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct UpdateSeRaw {
    capacity_limits: Vec<CapacityLimit>,
    /// The AWS request names the environment; there is only one here.
    #[serde(default, skip_serializing)]
    #[allow(dead_code)]
    service_environment: Option<IgnoredAny>,
}

#[derive(Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ActionRaw {
    at: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    update_service_job: Option<UpdateServiceJobRaw>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    terminate_service_job: Option<TerminateRaw>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    update_quota_share: Option<QuotaShareUpdate>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    update_service_environment: Option<UpdateSeRaw>,
}

const ACTION_NAMES: &str =
    "`updateServiceJob`, `terminateServiceJob`, `updateQuotaShare` or `updateServiceEnvironment`";

impl<'de> Deserialize<'de> for Action {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = ActionRaw::deserialize(d)?;
        let mut kinds: Vec<ActionKind> = Vec::new();
        if let Some(u) = raw.update_service_job {
            kinds.push(ActionKind::UpdateServiceJob {
                job_name: u.job_name,
                scheduling_priority: u.scheduling_priority,
            });
        }
        if let Some(t) = raw.terminate_service_job {
            kinds.push(ActionKind::TerminateServiceJob {
                job_name: t.job_name,
                reason: t.reason.unwrap_or_else(|| "Terminated by user".to_string()),
            });
        }
        if let Some(q) = raw.update_quota_share {
            kinds.push(ActionKind::UpdateQuotaShare(q));
        }
        if let Some(s) = raw.update_service_environment {
            kinds.push(ActionKind::UpdateServiceEnvironment { capacity_limits: s.capacity_limits });
        }
        match kinds.len() {
            1 => Ok(Action { at: raw.at, kind: kinds.pop().expect("one kind") }),
            0 => Err(de::Error::custom(format!("an action needs one of {ACTION_NAMES}"))),
            _ => {
                Err(de::Error::custom(format!("an action takes exactly one of {ACTION_NAMES}, not several")))
            }
        }
    }
}

impl Serialize for Action {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut raw = ActionRaw {
            at: self.at,
            update_service_job: None,
            terminate_service_job: None,
            update_quota_share: None,
            update_service_environment: None,
        };
        match &self.kind {
            ActionKind::UpdateServiceJob { job_name, scheduling_priority } => {
                raw.update_service_job = Some(UpdateServiceJobRaw {
                    job_name: job_name.clone(),
                    scheduling_priority: *scheduling_priority,
                })
            }
            ActionKind::TerminateServiceJob { job_name, reason } => {
                raw.terminate_service_job =
                    Some(TerminateRaw { job_name: job_name.clone(), reason: Some(reason.clone()) })
            }
            ActionKind::UpdateQuotaShare(q) => raw.update_quota_share = Some(q.clone()),
            ActionKind::UpdateServiceEnvironment { capacity_limits } => {
                raw.update_service_environment =
                    Some(UpdateSeRaw { capacity_limits: capacity_limits.clone(), service_environment: None })
            }
        }
        raw.serialize(s)
    }
}

#[derive(Deserialize, Serialize, Default)]
struct ResourceConfigRaw {
    #[serde(rename = "InstanceType", default, skip_serializing_if = "Option::is_none")]
    instance_type: Option<String>,
    #[serde(rename = "InstanceCount", default, skip_serializing_if = "Option::is_none")]
    instance_count: Option<i64>,
}

#[derive(Deserialize, Serialize, Default)]
struct StoppingConditionRaw {
    #[serde(rename = "MaxRuntimeInSeconds", default, skip_serializing_if = "Option::is_none")]
    max_runtime_in_seconds: Option<i64>,
}

#[derive(Deserialize, Serialize, Default)]
struct CheckpointConfigRaw {
    #[serde(rename = "S3Uri", default, skip_serializing_if = "Option::is_none")]
    s3_uri: Option<String>,
}

#[derive(Deserialize, Serialize, Default)]
struct PayloadRaw {
    #[serde(rename = "ResourceConfig", default, skip_serializing_if = "Option::is_none")]
    resource_config: Option<ResourceConfigRaw>,
    #[serde(rename = "StoppingCondition", default, skip_serializing_if = "Option::is_none")]
    stopping_condition: Option<StoppingConditionRaw>,
    #[serde(rename = "CheckpointConfig", default, skip_serializing_if = "Option::is_none")]
    checkpoint_config: Option<CheckpointConfigRaw>,
}

impl From<PayloadRaw> for ServiceRequestPayload {
    fn from(p: PayloadRaw) -> Self {
        let rc = p.resource_config.unwrap_or_default();
        ServiceRequestPayload {
            instance_type: rc.instance_type,
            instance_count: rc.instance_count,
            max_runtime_in_seconds: p.stopping_condition.and_then(|s| s.max_runtime_in_seconds),
            has_checkpoint_config: p.checkpoint_config.is_some(),
        }
    }
}

struct PayloadVisitor;

impl<'de> Visitor<'de> for PayloadVisitor {
    type Value = ServiceRequestPayload;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a SubmitServiceJob payload: an object or a JSON string of one")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        match serde_json::from_str::<PayloadRaw>(v) {
            Ok(raw) => Ok(raw.into()),
            Err(e) => Err(E::custom(format!("the payload string is not a valid payload object: {e}"))),
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        let raw = PayloadRaw::deserialize(de::value::MapAccessDeserializer::new(map))?;
        Ok(raw.into())
    }
}

impl<'de> Deserialize<'de> for ServiceRequestPayload {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(PayloadVisitor)
    }
}

impl Serialize for ServiceRequestPayload {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let raw = PayloadRaw {
            resource_config: if self.instance_type.is_some() || self.instance_count.is_some() {
                Some(ResourceConfigRaw {
                    instance_type: self.instance_type.clone(),
                    instance_count: self.instance_count,
                })
            } else {
                None
            },
            stopping_condition: self
                .max_runtime_in_seconds
                .map(|m| StoppingConditionRaw { max_runtime_in_seconds: Some(m) }),
            checkpoint_config: if self.has_checkpoint_config {
                Some(CheckpointConfigRaw { s3_uri: Some("s3://checkpoints".to_string()) })
            } else {
                None
            },
        };
        raw.serialize(s)
    }
}

/// The job list, refused as soon as it has more than [`crate::limits::MAX_JOBS`] entries,
/// before the rest is read into memory.
pub(crate) fn bounded_jobs<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<crate::model::Job>, D::Error> {
    struct Jobs;
    impl<'de> Visitor<'de> for Jobs {
        type Value = Vec<crate::model::Job>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a list of jobs")
        }
        fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let max = crate::limits::MAX_JOBS;
            let mut jobs = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(max));
            while let Some(j) = seq.next_element()? {
                if jobs.len() == max {
                    return Err(de::Error::custom(crate::limits::too_many_jobs()));
                }
                jobs.push(j);
            }
            Ok(jobs)
        }
    }
    d.deserialize_seq(Jobs)
}
