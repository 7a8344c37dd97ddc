//! R17: reasons, typed: why a job waits ([`WaitReason`]), why it can never run
//! ([`Misconfiguration`]) and why it stopped (timeout, termination, rejection, preemption,
//! retry limit). Their `Display` is the spec's text; the string constants stay for front ends
//! that compare reasons.

use alloc::string::String;

/// Why a job was preempted (R18, R20, R22).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum PreemptionKind {
    /// R18: reclaim of capacity borrowed by another share.
    CrossShare,
    /// R20: for a higher-priority job of the same share.
    InShare,
    /// R22, R23: the victim's share is over quota after an update, or the service environment's
    /// limit was lowered.
    CapacityReduced,
}

impl PreemptionKind {
    /// The spec's reason text: an attempt's `statusReason` and a preemption event's `reason`.
    pub fn reason(self) -> &'static str {
        match self {
            PreemptionKind::CrossShare => "Cross-share preemption triggered to reclaim borrowed capacity",
            PreemptionKind::InShare => "In-share preemption triggered by higher priority job",
            PreemptionKind::CapacityReduced => "Capacity limit reduced",
        }
    }
}

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

/// R17 (1): more instances than the service environment's limit for the type, or no limit for it.
pub const MISCONFIG_SE: &str = "MISCONFIGURATION:SERVICE_ENVIRONMENT_MAX_RESOURCE";
/// R17 (2): a `RESERVE` or `LEND` share's job needs more than the share's quota.
pub const MISCONFIG_QUOTA: &str =
    "MISCONFIGURATION:QUOTA_MANAGEMENT_LIMIT_EXCEEDED - Job requirements exceed quota share capacity limits.";
/// R17 (3): a `LEND_AND_BORROW` share's job needs more than its quota plus its borrow allowance.
pub const MISCONFIG_BORROW_LIMIT: &str = "MISCONFIGURATION:QUOTA_MANAGEMENT_LIMIT_EXCEEDED - Job requirements exceed quota share capacity limits and borrow limits.";
/// R17 (4): a `LEND_AND_BORROW` share's job needs more than the whole pool's capacity.
pub const MISCONFIG_POOL: &str = "MISCONFIGURATION:QUOTA_MANAGEMENT_LIMIT_EXCEEDED - Job requires borrowing that exceeds all configured borrowable capacity.";
/// R17: the front job waits: its share's usage is at its quota (and allowance).
pub const WAIT_QUOTA: &str = "CAPACITY: waiting for quota";
/// R17: the front job waits for the lending pool (it needs capacity the pool lends).
pub const WAIT_POOL: &str = "CAPACITY: waiting for lendable capacity";
/// R17: the front job is short of free service environment instances only.
pub const WAIT_FREE: &str = "CAPACITY: waiting for service environment capacity";
/// R17: the share's preemptor waits for its victims to release (R21).
pub const WAIT_PREEMPTION: &str = "CAPACITY: waiting for preemption to complete";
/// R9: the reason of a job whose attempt reached `timeoutSeconds`.
pub const TIMEOUT_REASON: &str = "Job attempt duration exceeded timeout";
/// R6: the reason of a job submitted to a `DISABLED` share.
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

/// R17: why a `RUNNABLE` job waits. `Display` gives the spec's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WaitReason {
    /// It can never run as configured.
    Misconfiguration(Misconfiguration),
    /// Its share's waiting preemptor (itself or another job) waits for its victims (R21).
    Preemption,
    /// It is not its share's front job; the front job's name.
    Behind(String),
    /// Its share's quota (and borrow allowance) is used.
    Quota,
    /// The lending pool is used.
    Pool,
    /// The service environment has too few free instances.
    ServiceEnvironment,
}

impl core::fmt::Display for WaitReason {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            WaitReason::Misconfiguration(m) => f.write_str(m.text()),
            WaitReason::Preemption => f.write_str(WAIT_PREEMPTION),
            WaitReason::Behind(front) => write!(f, "CAPACITY: waiting behind {front}"),
            WaitReason::Quota => f.write_str(WAIT_QUOTA),
            WaitReason::Pool => f.write_str(WAIT_POOL),
            WaitReason::ServiceEnvironment => f.write_str(WAIT_FREE),
        }
    }
}

/// What holds a waiting job at an instant: R17's reasons for its share's front job, with the
/// quota reason split by what binds (the keys of `runnableSecondsByCause` in results).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum WaitCause {
    /// Its share's own quota is in use by its own jobs (R14).
    QuotaUsed,
    /// A `LEND_AND_BORROW` share at its borrow allowance (R14).
    BorrowLimit,
    /// A `RESERVE` or `LEND` share at its quota while the pool has idle capacity it could
    /// borrow if its strategy allowed (R4).
    CannotBorrow,
    /// Its share is over a quota or limit lowered by an update (R22).
    LimitLowered,
    /// The lending pool is in use (R13).
    Pool,
    /// Short of the service environment's free instances (R3, R14).
    ServiceEnvironment,
    /// Its share's preemptor waits for its victims (R21).
    PreemptionInProgress,
    /// It can never run as configured (R17's `MISCONFIGURATION` reasons).
    Misconfiguration,
    /// Behind its share's front job (R12).
    Behind,
}

impl WaitCause {
    /// Every cause, in the order results list them.
    pub const ALL: [WaitCause; 9] = [
        WaitCause::QuotaUsed,
        WaitCause::BorrowLimit,
        WaitCause::CannotBorrow,
        WaitCause::LimitLowered,
        WaitCause::Pool,
        WaitCause::ServiceEnvironment,
        WaitCause::PreemptionInProgress,
        WaitCause::Misconfiguration,
        WaitCause::Behind,
    ];

    /// Its key in results (`runnableSecondsByCause.pool`).
    pub fn key(self) -> &'static str {
        match self {
            WaitCause::QuotaUsed => "quotaUsed",
            WaitCause::BorrowLimit => "borrowLimit",
            WaitCause::CannotBorrow => "cannotBorrow",
            WaitCause::LimitLowered => "limitLowered",
            WaitCause::Pool => "pool",
            WaitCause::ServiceEnvironment => "serviceEnvironment",
            WaitCause::PreemptionInProgress => "preemptionInProgress",
            WaitCause::Misconfiguration => "misconfiguration",
            WaitCause::Behind => "behind",
        }
    }
}

/// Why a waiting job waits now and what would change it: the engine's answer, from the same
/// check the pass makes (R14, R17, R20), which explanations put into words.
#[derive(Clone, Debug, PartialEq)]
pub struct WaitAnalysis {
    /// R17's reason.
    pub reason: WaitReason,
    /// What binds (the quota reason split).
    pub cause: WaitCause,
    /// Its place in its share's queue (from 1) and the queue's length (R11).
    pub position: Option<(usize, usize)>,
    /// Instances it needs.
    pub need: u64,
    /// Its share's usage against its quota (R14, R21) and its quota, for its type.
    pub usage: u64,
    /// Its share's quota for its type.
    pub quota: u64,
    /// Its share's borrow allowance for its type (`None`: no limit).
    pub allowance: Option<u64>,
    /// Its share's strategy now.
    pub strategy: crate::model::Strategy,
    /// Free instances of its type for it (its own hold counted, R16).
    pub free: i64,
    /// What the lending pool has left of its type (R13).
    pub pool: i64,
    /// The service environment's limit for its type.
    pub capacity: Option<u64>,
    /// R20: running jobs of its share and type with a lower priority, not being preempted:
    /// `(job, priority)`, lowest priority first.
    pub lower_priority: alloc::vec::Vec<(crate::scenario::JobId, u32)>,
    /// Whether releasing all of `lower_priority` would let it fit (R14): only then would
    /// in-share preemption preempt anyone.
    pub fits_without_lower: bool,
    /// Whether its share has in-share preemption enabled now.
    pub in_share_enabled: bool,
}

/// The reason of a job being preempted now (R21), for its status and its `Preemption
/// Started` event.
pub fn preemption_in_progress(kind: PreemptionKind) -> String {
    alloc::format!("PREEMPTION_IN_PROGRESS: {}", kind.reason())
}

/// The reason of a job that failed on reaching its retry limit through a preemption (R7).
pub fn retry_limit_reached(kind: PreemptionKind) -> String {
    alloc::format!("Preemption retry limit reached: {}", kind.reason())
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn r17_typed_reasons_display_the_spec_strings() {
        let cases: [(WaitReason, &str); 9] = [
            (WaitReason::Misconfiguration(Misconfiguration::ServiceEnvironment), MISCONFIG_SE),
            (WaitReason::Misconfiguration(Misconfiguration::Quota), MISCONFIG_QUOTA),
            (WaitReason::Misconfiguration(Misconfiguration::BorrowLimit), MISCONFIG_BORROW_LIMIT),
            (WaitReason::Misconfiguration(Misconfiguration::Pool), MISCONFIG_POOL),
            (WaitReason::Preemption, "CAPACITY: waiting for preemption to complete"),
            (WaitReason::Behind("train-1".into()), "CAPACITY: waiting behind train-1"),
            (WaitReason::Quota, "CAPACITY: waiting for quota"),
            (WaitReason::Pool, "CAPACITY: waiting for lendable capacity"),
            (WaitReason::ServiceEnvironment, "CAPACITY: waiting for service environment capacity"),
        ];
        for (r, text) in cases {
            assert_eq!(r.to_string(), text);
        }
        assert_eq!(
            preemption_in_progress(PreemptionKind::InShare),
            "PREEMPTION_IN_PROGRESS: In-share preemption triggered by higher priority job"
        );
        assert_eq!(
            retry_limit_reached(PreemptionKind::CapacityReduced),
            "Preemption retry limit reached: Capacity limit reduced"
        );
    }
}
