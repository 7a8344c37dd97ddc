//! The scenario tests: the rules one by one, the spec's worked example, and properties over
//! random scenarios. One test binary; the CLI, fuzz and validation suites are their own.

mod properties;
mod rules;
mod worked_example;
