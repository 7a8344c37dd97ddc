//! The limits every scenario must keep: AWS's own (names, priorities, limits per share) and
//! this engine's (the most jobs, the largest exact number). A leaf: it depends on nothing else
//! in the crate, so the model, the validation, the generator and the workload expansion can all
//! read it.

use alloc::format;
use alloc::string::String;

/// The largest time or count a scenario may hold: JavaScript numbers carry it exactly.
pub const MAX_SAFE: i64 = (1i64 << 53) - 1;
/// The largest time or sum results can give exactly (JSON numbers, JavaScript): 2^53 - 1.
pub const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;
/// The most jobs a scenario may have. Fixed, whatever the machine: a run needs about 0.7 KB
/// of memory per job for a summary and about 4 KB per job for the full result with its
/// events (measured natively), so 2,000,000 jobs need about 1.4 GB and 8 GB.
pub const MAX_JOBS: usize = 2_000_000;

/// The message for a scenario with more than [`MAX_JOBS`] jobs.
pub fn too_many_jobs() -> String {
    format!(
        "more than {MAX_JOBS} jobs: a scenario may have at most {MAX_JOBS} (running that many needs about \
         1.4 GB of memory for a summary and 8 GB for the full result with events)"
    )
}
/// AWS: 1 to 5 capacity limits per quota share.
pub const MAX_SHARE_LIMITS: usize = 5;
/// AWS: scheduling priorities 0 to 9999.
pub const MAX_PRIORITY: i64 = 9999;
/// AWS: names up to 128 characters.
pub const MAX_NAME: usize = 128;
