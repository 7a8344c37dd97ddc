//! # Quotasim playground
//!
//! A Leptos (client-side rendered) single-page app to define a quota-management scenario,
//! run it with the `quotasim` engine in the browser, and watch and explain what happens.
//!
//! The pure parts (chart geometry and markup, run sampling, explanations, persistence, presets,
//! the workload generator) compile natively and are unit-tested with `cargo test`; the
//! components live in [`ui`] and are built for `wasm32` only.

pub mod causes;
pub mod charts;
pub mod compare_view;
pub mod csv;
pub mod decisions;
pub mod edit;
pub mod explain;
pub mod forecast;
pub mod geometry;
pub mod palette;
pub mod persist;
pub mod presets;
pub mod recommend;
pub mod replace;
pub mod rows;
pub mod rules;
pub mod run;
pub mod sweep_view;
pub mod text;
pub mod undo;
pub mod waits;
pub mod why;
pub mod workload_form;

#[cfg(target_arch = "wasm32")]
pub mod ui;

#[cfg(target_arch = "wasm32")]
pub use ui::{mount, start};
