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
#![warn(missing_docs)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

// Three layers, lower ones never calling up (`scripts/layers.py` checks it): the kernel
// (the scenario, its validation, the simulation and its results), the bridges (other tools'
// formats in and out) and the studies (everything that runs the kernel several times or reads
// its results). `limits` and `rng` are leaves every layer may read. The modules keep their
// flat public paths (`quotasim::sweep`, `quotasim::aws`), re-exported below.
mod bridges;
mod kernel;
pub mod limits;
pub mod rng;
mod studies;

pub use bridges::merge;
#[cfg(feature = "yaml")]
pub use bridges::yaml;
#[cfg(feature = "serde")]
pub use bridges::{aws, export, import_check, kueue, trace};
pub(crate) use kernel::{chunked, names};
pub use kernel::{generate, model, problem, reasons, result, scenario, sim, validate, workload};
#[cfg(feature = "serde")]
pub use kernel::{json, strict};
pub use studies::fit_workload;
#[cfg(feature = "serde")]
pub use studies::{
    calibrate, change, compare, diff, eta, metric, objective, path, recommend, replicates, sweep, why,
};

pub use generate::{generate, generate_workload, GenerateOptions};
pub use reasons::{Misconfiguration, WaitCause, WaitReason};
pub use result::{
    BenchRun, CauseSeconds, Event, EventType, JobResult, PreemptionKind, SimResult, Snapshot, Status, Summary,
};
pub use sim::{Options, PreemptionRecord, RunError, Simulation, MAX_SAFE_INTEGER};
pub use validate::{validate, Problem, Severity, ValidScenario};
