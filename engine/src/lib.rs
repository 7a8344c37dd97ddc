//! # Quotasim engine
//!
//! A deterministic discrete-event simulator of AWS Batch *quota management* for SageMaker
//! Training job queues: quota shares with `RESERVE`, `LEND` and `LEND_AND_BORROW` strategies,
//! borrowing from a lending pool, cross-share reclaim, in-share priority preemption, grace
//! periods, checkpoints and lost work. The rules it implements are numbered R1-R27 in the
//! project's semantics spec and named in the doc comments below.
//!
//! The crate is `#![no_std]` with `alloc`: no I/O, no platform dependencies, integer time.
//!
//! ```
//! use quotasim::model::*;
//! use quotasim::{validate, Simulation};
//!
//! let mut s = Scenario::default();
//! s.service_environment.capacity_limits = vec![CapacityLimit::new("ml.g5.xlarge", 2)];
//! s.quota_shares = vec![QuotaShare::new("team-a", Strategy::Lend, vec![CapacityLimit::new("ml.g5.xlarge", 2)])];
//! s.jobs = vec![Job::new("train", "team-a", "ml.g5.xlarge", 1, 0, 3600)];
//! let mut sim = Simulation::new(validate(&s).unwrap());
//! sim.run();
//! assert_eq!(sim.now(), 3600);
//! ```
#![no_std]
#![forbid(unsafe_code)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

#[cfg(feature = "serde")]
pub mod aws;
#[cfg(feature = "serde")]
pub mod calibrate;
#[cfg(feature = "serde")]
pub mod change;
mod chunked;
#[cfg(feature = "serde")]
pub mod compare;
#[cfg(feature = "serde")]
pub mod diff;
#[cfg(feature = "serde")]
pub mod eta;
#[cfg(feature = "serde")]
pub mod export;
pub mod fit_workload;
pub mod generate;
#[cfg(feature = "serde")]
pub mod import_check;
#[cfg(feature = "serde")]
pub mod json;
#[cfg(feature = "serde")]
pub mod kueue;
pub mod merge;
#[cfg(feature = "serde")]
pub mod metric;
pub mod model;
mod names;
#[cfg(feature = "serde")]
pub mod objective;
pub mod problem;
pub mod reasons;
#[cfg(feature = "serde")]
pub mod recommend;
#[cfg(feature = "serde")]
pub mod replicates;
pub mod result;
pub mod scenario;
pub mod sim;
#[cfg(feature = "serde")]
pub mod strict;
#[cfg(feature = "serde")]
pub mod sweep;
#[cfg(feature = "serde")]
pub mod sweep_merge;
#[cfg(feature = "serde")]
pub mod sweep_seeds;
#[cfg(feature = "serde")]
pub mod trace;
pub mod validate;
#[cfg(feature = "serde")]
pub mod why;
pub mod workload;
#[cfg(feature = "yaml")]
pub mod yaml;

pub use generate::{generate, generate_workload, GenerateOptions};
pub use reasons::{Misconfiguration, WaitCause, WaitReason};
pub use result::{
    BenchRun, CauseSeconds, Event, EventType, JobResult, PreemptionKind, SimResult, Snapshot, Status, Summary,
};
pub use sim::{Options, PreemptionRecord, RunError, Simulation, MAX_SAFE_INTEGER};
pub use validate::{validate, Problem, Severity, ValidScenario};
