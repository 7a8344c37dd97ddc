//! Studies: everything that runs the kernel several times or reads its results. Comparisons
//! and replicates, sweeps, objectives and metrics, scenario changes and diffs, calibration,
//! workload fitting, forecasts ([`eta`]), counterfactuals ([`why`]) and the recommender. They
//! share one path grammar ([`change`]'s paths) and one way to fork a run; they may read
//! histories through the bridges but never reach below the kernel's public face.

#[cfg(feature = "serde")]
pub mod calibrate;
#[cfg(feature = "serde")]
pub mod change;
#[cfg(feature = "serde")]
pub mod compare;
#[cfg(feature = "serde")]
pub mod diff;
#[cfg(feature = "serde")]
pub mod eta;
pub mod fit_workload;
#[cfg(feature = "serde")]
pub mod metric;
#[cfg(feature = "serde")]
pub mod objective;
#[cfg(feature = "serde")]
pub mod path;
#[cfg(feature = "serde")]
pub mod recommend;
#[cfg(feature = "serde")]
pub mod replicates;
#[cfg(feature = "serde")]
pub mod sweep;
#[cfg(feature = "serde")]
pub mod why;
