//! Every integration test in one binary: the rules one by one, the spec's worked example,
//! properties over random scenarios, fuzzing, validation, and the command line (run,
//! validate, generate, bench, check, compare, sweep) and generated workloads.

mod bridges;
mod cli;
mod forecast;
mod fuzz;
mod policy_cli;
mod properties;
mod recommend;
mod rules;
mod sweep_cli;
mod validation;
mod why;
mod worked_example;
mod workload;
