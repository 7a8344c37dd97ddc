//! Reasons, typed: why a job stopped (R7, R9, R21, R23) and the strings the spec gives for
//! R17 waiting and misconfiguration reasons.

/// Why a job is where it is; rendered to the spec's strings only for output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reason {
    None,
    /// `terminateServiceJob` with the reason of action `n` (index into `terminate_reasons`).
    Terminated(u32),
    Timeout,
    /// Submission to a `DISABLED` share.
    Rejected,
    /// A preemption, by index into the preemption log.
    Preempted(u32),
    /// The retry limit was reached on the preemption of this log index (R7).
    RetryLimit(u32),
}

impl Reason {
    pub(crate) fn pack(self) -> (u8, u32) {
        match self {
            Reason::None => (0, 0),
            Reason::Terminated(i) => (1, i),
            Reason::Timeout => (2, 0),
            Reason::Rejected => (3, 0),
            Reason::Preempted(l) => (4, l),
            Reason::RetryLimit(l) => (5, l),
        }
    }

    pub(crate) fn unpack(tag: u8, val: u32) -> Reason {
        match tag {
            1 => Reason::Terminated(val),
            2 => Reason::Timeout,
            3 => Reason::Rejected,
            4 => Reason::Preempted(val),
            5 => Reason::RetryLimit(val),
            _ => Reason::None,
        }
    }
}

pub const MISCONFIG_SE: &str = "MISCONFIGURATION:SERVICE_ENVIRONMENT_MAX_RESOURCE";
pub const MISCONFIG_QUOTA: &str =
    "MISCONFIGURATION:QUOTA_MANAGEMENT_LIMIT_EXCEEDED - Job requirements exceed quota share capacity limits.";
pub const MISCONFIG_BORROW_LIMIT: &str = "MISCONFIGURATION:QUOTA_MANAGEMENT_LIMIT_EXCEEDED - Job requirements exceed quota share capacity limits and borrow limits.";
pub const MISCONFIG_POOL: &str = "MISCONFIGURATION:QUOTA_MANAGEMENT_LIMIT_EXCEEDED - Job requires borrowing that exceeds all configured borrowable capacity.";
pub const WAIT_QUOTA: &str = "CAPACITY: waiting for quota";
pub const WAIT_POOL: &str = "CAPACITY: waiting for lendable capacity";
pub const WAIT_FREE: &str = "CAPACITY: waiting for service environment capacity";
pub const WAIT_PREEMPTION: &str = "CAPACITY: waiting for preemption to complete";
pub const TIMEOUT_REASON: &str = "Job attempt duration exceeded timeout";
pub const REJECTED_REASON: &str = "Quota share is DISABLED: submission rejected";

/// R17: why a job can never run (`MISCONFIGURATION`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Misconfiguration {
    /// More instances than the service environment limit, or no limit for the type.
    ServiceEnvironment,
    /// More than the share's quota, for a share that cannot borrow.
    Quota,
    /// More than quota plus borrow limit.
    BorrowLimit,
    /// More than the whole lending pool.
    Pool,
}

impl Misconfiguration {
    /// The spec's text.
    pub fn text(self) -> &'static str {
        match self {
            Misconfiguration::ServiceEnvironment => MISCONFIG_SE,
            Misconfiguration::Quota => MISCONFIG_QUOTA,
            Misconfiguration::BorrowLimit => MISCONFIG_BORROW_LIMIT,
            Misconfiguration::Pool => MISCONFIG_POOL,
        }
    }
}

impl core::fmt::Display for Misconfiguration {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.text())
    }
}
