//! What AWS deploys, from a scenario: a CloudFormation template and the equivalent `aws batch`
//! commands (`quotasim export cloudformation|aws-cli`). The Kueue export is in
//! [`crate::kueue`].
//!
//! Property names are AWS's: `AWS::Batch::ServiceEnvironment` (`ServiceEnvironmentName`,
//! `ServiceEnvironmentType` `SAGEMAKER_TRAINING`, `CapacityLimits` of `CapacityUnit` and
//! `MaxCapacity`), `AWS::Batch::SchedulingPolicy` (`Name`, `QuotaSharePolicy` with
//! `IdleResourceAssignmentStrategy` `FIFO`), `AWS::Batch::JobQueue` (`JobQueueName`,
//! `JobQueueType` `SAGEMAKER_TRAINING`, `Priority`, `SchedulingPolicyArn`,
//! `ServiceEnvironmentOrder` of `Order` and `ServiceEnvironment`) and `AWS::Batch::QuotaShare`
//! (`QuotaShareName`, `JobQueue`, `CapacityLimits`, `ResourceSharingConfiguration` with
//! `Strategy` and `BorrowLimit`, `PreemptionConfiguration` with `InSharePreemption`, `State`).

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::{json, Map, Value};

use crate::model::{CapacityLimit, QuotaShare, Scenario, ShareState, Strategy, Toggle};

/// The names the export gives what the scenario does not name.
fn names(s: &Scenario) -> (String, String, String) {
    let se = s.service_environment.service_environment_name.clone().unwrap_or_else(|| "quotasim-se".into());
    (se.clone(), format!("{se}-queue"), format!("{se}-policy"))
}

fn strategy(s: Strategy) -> &'static str {
    match s {
        Strategy::Reserve => "RESERVE",
        Strategy::Lend => "LEND",
        Strategy::LendAndBorrow => "LEND_AND_BORROW",
    }
}

fn limits_cfn(l: &[CapacityLimit]) -> Value {
    Value::Array(
        l.iter().map(|c| json!({"CapacityUnit": c.capacity_unit, "MaxCapacity": c.max_capacity})).collect(),
    )
}

fn limits_api(l: &[CapacityLimit]) -> Value {
    Value::Array(
        l.iter().map(|c| json!({"capacityUnit": c.capacity_unit, "maxCapacity": c.max_capacity})).collect(),
    )
}

fn sharing_cfn(q: &QuotaShare) -> Value {
    let r = &q.resource_sharing_configuration;
    let mut m = Map::new();
    m.insert("Strategy".into(), strategy(r.strategy).into());
    if r.strategy == Strategy::LendAndBorrow {
        m.insert("BorrowLimit".into(), r.borrow_limit.unwrap_or(-1).into());
    }
    Value::Object(m)
}

fn sharing_api(q: &QuotaShare) -> Value {
    let r = &q.resource_sharing_configuration;
    let mut m = Map::new();
    m.insert("strategy".into(), strategy(r.strategy).into());
    if r.strategy == Strategy::LendAndBorrow {
        m.insert("borrowLimit".into(), r.borrow_limit.unwrap_or(-1).into());
    }
    Value::Object(m)
}

fn toggle(t: Toggle) -> &'static str {
    match t {
        Toggle::Enabled => "ENABLED",
        Toggle::Disabled => "DISABLED",
    }
}

fn state(s: ShareState) -> &'static str {
    match s {
        ShareState::Enabled => "ENABLED",
        ShareState::Disabled => "DISABLED",
    }
}

/// A CloudFormation logical id: letters and digits only, unique by a numeric suffix.
fn logical_id(prefix: &str, name: &str, taken: &mut Vec<String>) -> String {
    let mut id: String = String::from(prefix);
    let mut upper = true;
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            id.push(if upper { c.to_ascii_uppercase() } else { c });
            upper = false;
        } else {
            upper = true;
        }
    }
    let mut out = id.clone();
    let mut k = 2;
    while taken.contains(&out) {
        out = format!("{id}{k}");
        k += 1;
    }
    taken.push(out.clone());
    out
}

/// The CloudFormation template (JSON) of the scenario's service environment, scheduling
/// policy, job queue and quota shares.
pub fn cloudformation(s: &Scenario) -> Value {
    let (se, queue, policy) = names(s);
    let mut resources = Map::new();
    resources.insert(
        "ServiceEnvironment".into(),
        json!({
            "Type": "AWS::Batch::ServiceEnvironment",
            "Properties": {
                "ServiceEnvironmentName": se,
                "ServiceEnvironmentType": "SAGEMAKER_TRAINING",
                "State": "ENABLED",
                "CapacityLimits": limits_cfn(&s.service_environment.capacity_limits),
            }
        }),
    );
    resources.insert(
        "SchedulingPolicy".into(),
        json!({
            "Type": "AWS::Batch::SchedulingPolicy",
            "Properties": {
                "Name": policy,
                "QuotaSharePolicy": { "IdleResourceAssignmentStrategy": "FIFO" },
            }
        }),
    );
    resources.insert(
        "JobQueue".into(),
        json!({
            "Type": "AWS::Batch::JobQueue",
            "Properties": {
                "JobQueueName": queue,
                "JobQueueType": "SAGEMAKER_TRAINING",
                "Priority": 1,
                "State": "ENABLED",
                "SchedulingPolicyArn": { "Ref": "SchedulingPolicy" },
                "ServiceEnvironmentOrder": [ { "Order": 1, "ServiceEnvironment": { "Ref": "ServiceEnvironment" } } ],
            }
        }),
    );
    let mut taken: Vec<String> =
        ["ServiceEnvironment", "SchedulingPolicy", "JobQueue"].iter().map(|x| x.to_string()).collect();
    for q in &s.quota_shares {
        let id = logical_id("QuotaShare", &q.quota_share_name, &mut taken);
        resources.insert(
            id,
            json!({
                "Type": "AWS::Batch::QuotaShare",
                "Properties": {
                    "QuotaShareName": q.quota_share_name,
                    "JobQueue": { "Ref": "JobQueue" },
                    "CapacityLimits": limits_cfn(&q.capacity_limits),
                    "ResourceSharingConfiguration": sharing_cfn(q),
                    "PreemptionConfiguration": { "InSharePreemption": toggle(q.preemption_configuration.in_share_preemption) },
                    "State": state(q.state),
                }
            }),
        );
    }
    json!({
        "AWSTemplateFormatVersion": "2010-09-09",
        "Description": format!(
            "AWS Batch quota management for SageMaker Training, exported by quotasim from {}",
            s.name.clone().unwrap_or_else(|| "a scenario".into())
        ),
        "Resources": Value::Object(resources),
    })
}

/// A shell word: single-quoted, with every `'` closed, escaped and reopened.
pub fn shell_quote(s: &str) -> String {
    let mut out = String::from("'");
    for c in s.chars() {
        if c == '\'' {
            out.push_str("'\\''");
        } else {
            out.push(c);
        }
    }
    out.push('\'');
    out
}

fn json_arg(v: &Value) -> String {
    shell_quote(&crate::json::to_json(v))
}

/// The `aws batch` commands that create the same resources, as a POSIX shell script.
pub fn aws_cli(s: &Scenario) -> String {
    let (se, queue, policy) = names(s);
    let mut out = String::new();
    out.push_str("#!/bin/sh\n");
    out.push_str("# AWS Batch quota management for SageMaker Training, exported by quotasim.\n");
    out.push_str("# Creates the service environment, the quota-share scheduling policy, the job queue\n");
    out.push_str("# and one quota share per team. Needs the AWS CLI v2 with AWS Batch quota shares.\n");
    out.push_str("set -eu\n\n");
    out.push_str(&format!(
        "aws batch create-service-environment \\\n  --service-environment-name {} \\\n  --service-environment-type SAGEMAKER_TRAINING \\\n  --capacity-limits {}\n\n",
        shell_quote(&se),
        json_arg(&limits_api(&s.service_environment.capacity_limits))
    ));
    out.push_str(&format!(
        "POLICY_ARN=$(aws batch create-scheduling-policy \\\n  --name {} \\\n  --quota-share-policy {} \\\n  --query arn --output text)\n\n",
        shell_quote(&policy),
        json_arg(&json!({"idleResourceAssignmentStrategy": "FIFO"}))
    ));
    out.push_str(&format!(
        "aws batch create-job-queue \\\n  --job-queue-name {} \\\n  --job-queue-type SAGEMAKER_TRAINING \\\n  --priority 1 \\\n  --scheduling-policy-arn \"$POLICY_ARN\" \\\n  --service-environment-order {}\n",
        shell_quote(&queue),
        json_arg(&json!([{"order": 1, "serviceEnvironment": se}]))
    ));
    for q in &s.quota_shares {
        out.push_str(&format!(
            "\naws batch create-quota-share \\\n  --quota-share-name {} \\\n  --job-queue {} \\\n  --capacity-limits {} \\\n  --resource-sharing-configuration {} \\\n  --preemption-configuration {} \\\n  --state {}\n",
            shell_quote(&q.quota_share_name),
            shell_quote(&queue),
            json_arg(&limits_api(&q.capacity_limits)),
            json_arg(&sharing_api(q)),
            json_arg(&json!({"inSharePreemption": toggle(q.preemption_configuration.in_share_preemption)})),
            state(q.state)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse_scenario;

    const NOTEBOOK: &str = include_str!("../../../tests/fixtures/notebook.json");

    #[test]
    fn every_quota_share_is_a_resource_with_the_scenario_properties() {
        let s = parse_scenario(NOTEBOOK).unwrap();
        let t = cloudformation(&s);
        let r = t["Resources"].as_object().unwrap();
        assert_eq!(r.len(), 3 + s.quota_shares.len());
        for q in &s.quota_shares {
            let found = r
                .values()
                .find(|x| x["Properties"]["QuotaShareName"] == q.quota_share_name.as_str())
                .expect("a resource per share");
            assert_eq!(found["Type"], "AWS::Batch::QuotaShare");
            assert_eq!(
                found["Properties"]["CapacityLimits"][0]["MaxCapacity"],
                q.capacity_limits[0].max_capacity
            );
        }
    }

    #[test]
    fn shell_words_survive_quotes() {
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
        assert_eq!(shell_quote("$(rm -rf /)"), "'$(rm -rf /)'");
    }
}
