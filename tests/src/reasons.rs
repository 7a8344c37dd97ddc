//! Reason strings exactly as the semantics spec writes them (R7, R9, R17, R18, R20, R21).

/// R17.1
pub const MISCONFIG_SE: &str = "MISCONFIGURATION:SERVICE_ENVIRONMENT_MAX_RESOURCE";
/// R17.2
pub const MISCONFIG_QUOTA: &str =
    "MISCONFIGURATION:QUOTA_MANAGEMENT_LIMIT_EXCEEDED - Job requirements exceed quota share capacity limits.";
/// R17.3
pub const MISCONFIG_BORROW: &str = "MISCONFIGURATION:QUOTA_MANAGEMENT_LIMIT_EXCEEDED - Job requirements exceed quota share capacity limits and borrow limits.";
/// R17.4
pub const MISCONFIG_POOL: &str = "MISCONFIGURATION:QUOTA_MANAGEMENT_LIMIT_EXCEEDED - Job requires borrowing that exceeds all configured borrowable capacity.";
/// R17 waiting reasons.
pub const WAIT_QUOTA: &str = "CAPACITY: waiting for quota";
pub const WAIT_POOL: &str = "CAPACITY: waiting for lendable capacity";
pub const WAIT_FREE: &str = "CAPACITY: waiting for service environment capacity";
pub const WAIT_PREEMPTION: &str = "CAPACITY: waiting for preemption to complete";
/// R17: `CAPACITY: waiting behind <front job name>`.
pub fn waiting_behind(front: &str) -> String {
    format!("CAPACITY: waiting behind {front}")
}
/// R18
pub const CROSS_SHARE: &str = "Cross-share preemption triggered to reclaim borrowed capacity";
/// R18, R22, R23
pub const LIMIT_REDUCED: &str = "Capacity limit reduced";
/// R20
pub const IN_SHARE: &str = "In-share preemption triggered by higher priority job";
/// R9
pub const TIMEOUT: &str = "Job attempt duration exceeded timeout";
/// R21: the reason a victim shows during its grace period.
pub fn in_progress(reason: &str) -> String {
    format!("PREEMPTION_IN_PROGRESS: {reason}")
}
/// R7
pub fn retry_limit(reason: &str) -> String {
    format!("Preemption retry limit reached: {reason}")
}
