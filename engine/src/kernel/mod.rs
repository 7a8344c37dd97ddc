//! The kernel: a scenario as written ([`model`]), its validation ([`validate`]) into what the
//! simulation reads ([`scenario`]), the simulation itself ([`sim`]) and what it reports
//! ([`result`], [`reasons`], [`problem`]); the workload expansion and the scenario generator,
//! and the reader and writer of the scenario format ([`json`], [`strict`], `fast_jobs`). It
//! depends only on the leaves [`crate::limits`] and [`crate::rng`].

pub(crate) mod chunked;
#[cfg(feature = "serde")]
pub(crate) mod fast_jobs;
pub mod generate;
#[cfg(feature = "serde")]
pub mod json;
pub mod model;
pub(crate) mod names;
pub mod problem;
pub mod reasons;
pub mod result;
pub mod scenario;
pub mod sim;
#[cfg(feature = "serde")]
pub mod strict;
pub mod validate;
pub mod workload;
