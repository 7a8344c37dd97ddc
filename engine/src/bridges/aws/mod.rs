//! AWS history in (`quotasim import aws`), and a run out as EventBridge events
//! (`quotasim run --events-format eventbridge`): the pure mappings.
//!
//! Each input's kind is recognised from its content: `describe-service-environments`
//! (`serviceEnvironments`), `list-quota-shares` (`quotaShares`), `describe-quota-share` (an
//! object with `quotaShareName` and `capacityLimits`), `list-service-jobs` pages
//! (`jobSummaryList`), `describe-service-job` (an object with `jobId`), and EventBridge archives
//! as JSON lines (`Batch Service Job State Change`, `Batch Service Job Preemption
//! Started|Completed`; times in epoch milliseconds). Unknown fields are ignored; a record
//! without what the scenario needs is reported with its file, line (or position) and field,
//! and skipped, never guessed.
//!
//! Jobs are keyed by `jobId` across files, the richest record first; `submitAt` is relative to
//! the earliest `createdAt` (kept in the description). The instance type and count come from
//! `serviceRequestPayload.ResourceConfig` or `capacityUsage`; the duration from the attempts:
//! the last attempt's run time (a preempted attempt of a job that checkpoints saved some
//! progress that AWS does not report: such jobs get a warning), and for a job still running,
//! failed or stopped, its training so far, flagged as censored.
//!
//! An import runs in three stages: `read` recognises each file's records and decodes them
//! (gathered across files in `gather`), `map` turns job records into the model's jobs, and
//! `assemble` makes the scenario. This module only joins them.

use alloc::string::String;
use alloc::vec::Vec;

use crate::problem::Problem;

mod assemble;
mod attempts;
mod configuration;
mod eventbridge;
mod gather;
mod map;
mod observed;
mod read;
mod state;
mod time;

pub use assemble::Imported;
pub use configuration::{configuration, ConfigurationImport};
pub use eventbridge::{eventbridge, DEFAULT_ORIGIN_MILLIS};
pub use observed::{Observed, ObservedJob};
pub use read::{kind_of, parse, Kind, Parsed};
pub use time::{iso8601, parse_iso8601};

/// How to import.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ImportOptions {
    /// Epoch milliseconds that end the attempts of jobs still running (default: the latest
    /// time seen).
    pub now: Option<i64>,
    /// `--state-at`: the live state at these epoch milliseconds (R28), rebuilt from what was
    /// known then, instead of the whole history.
    pub state_at: Option<i64>,
}

/// Imports AWS outputs and event archives (`(file name, text)` each); `now` (epoch
/// milliseconds) ends the attempts of jobs still running (default: the latest time seen).
pub fn import(files: &[(String, String)], now: Option<i64>) -> Result<Imported, Vec<Problem>> {
    import_with(files, ImportOptions { now, state_at: None })
}

/// Imports AWS outputs and event archives (`(file name, text)` each), as a whole history or
/// (with `state_at`) as the live state at an instant.
///
/// Start-up is fitted from the history (`settings.scheduledSeconds` and `startingSeconds`,
/// `attempts::fit`, said in a warning): an attempt trains from its `startedAt` and was
/// dispatched at its `scheduledAt`, or that long before it trained.
///
/// The scenario is valid: a record with a number out of range is skipped, names are made
/// valid and unique ([`crate::import_check::Names`]), and what validation would still refuse
/// is skipped at its origin ([`crate::import_check::settle`]); `Err` when nothing valid is
/// left. At most [`crate::import_check::MAX_PER_FILE`] problems are listed per file.
pub fn import_with(files: &[(String, String)], opts: ImportOptions) -> Result<Imported, Vec<Problem>> {
    import_parsed(&parse(files), opts)
}

/// [`import_with`] of files already read.
pub fn import_parsed(parsed: &Parsed, opts: ImportOptions) -> Result<Imported, Vec<Problem>> {
    let mut problems = parsed.problems.clone();
    let mut gathered = gather::gather(parsed, opts.state_at, &mut problems);
    let mapped = map::map(&parsed.names, &mut gathered, opts.now, opts.state_at, &mut problems);
    assemble::assemble(&parsed.names, gathered, mapped, opts.state_at, problems)
}

/// One input file of an import from a front end without files (npm, the playground): its name
/// (used in warnings) and its text.
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
pub struct AwsFile {
    /// The file's name, as warnings and origins name it (`page.json: record 3`).
    pub name: String,
    /// The file's contents: one JSON document (an object or a list of records), or one JSON object per line.
    pub text: String,
}
