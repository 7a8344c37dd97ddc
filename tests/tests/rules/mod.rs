//! The rules of the semantics spec, one module per group, each test named after its rule.

mod actions;
mod fixed_point;
mod jobs;
mod live_state;
mod outputs;
mod preemption;
mod resources;
mod scheduling;
mod wait_breakdown;

pub(super) fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}
