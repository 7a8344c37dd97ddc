//! Scenario test support for Quotasim: a fluent scenario builder ([`builders`]), a harness
//! that runs a scenario and looks jobs up by name ([`harness`]), and the reason strings of
//! the semantics spec ([`reasons`]), written out from the spec rather than taken from the
//! engine.

pub mod builders;
pub mod cli;
pub mod harness;
pub mod reasons;

pub use builders::*;
pub use harness::*;
pub use reasons::*;
