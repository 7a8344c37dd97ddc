//! Forecasts from a run in progress: the state after the run's current instant (R28) with the
//! durations of its jobs hidden, so that a forecast draws them as it would for a live state
//! whose durations nobody knows yet (`quotasim eta` on a state without `durationSeconds`).
//!
//! A page or a notebook that has run a scenario knows every duration; a forecast made with
//! them would only replay the run. Hiding them makes the forecast the one a person at that
//! instant could have made, and the run the truth to hold it against.

use crate::model::Scenario;
use crate::sim::{Simulation, State};

/// The state after `sim`'s current instant (every instant up to and including
/// [`Simulation::now`] processed) with every job's duration hidden ([`hide_durations`]).
/// `expanded` is the scenario `sim` was validated from, its `workload` expanded
/// ([`crate::workload::expanded`]). `inexact` says what the state does not carry (R28).
pub fn forecast_state(sim: &Simulation, expanded: &Scenario) -> State {
    let mut state = sim.state(expanded);
    hide_durations(&mut state.scenario);
    state
}

/// Removes `durationSeconds` from every job of a state: each is a job that has not finished
/// (finished jobs are left out of a state), so a forecast draws its duration from the state's
/// `history`, or falls back on its timeout or twice the longest duration seen.
pub fn hide_durations(state: &mut Scenario) {
    for j in &mut state.jobs {
        j.duration_seconds = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eta::{Durations, EtaOptions, Forecast};
    use crate::json::parse_scenario;
    use crate::validate;
    use alloc::string::String;

    const NOTEBOOK: &str = include_str!("../../../../tests/fixtures/notebook.json");

    fn at(t: u64) -> (Scenario, Simulation) {
        let s = parse_scenario(NOTEBOOK).unwrap();
        let mut sim = Simulation::new(validate(&s).unwrap());
        sim.run_until(t);
        (s, sim)
    }

    #[test]
    fn a_forked_state_keeps_every_unfinished_job_without_its_duration() {
        // At 900 qs2_job arrives and reclaims its lent instance from qs1; qs1_job_low waits.
        let (s, sim) = at(900);
        let st = forecast_state(&sim, &s);
        assert_eq!(st.scenario.settings.start_at, 900);
        assert_eq!(st.scenario.jobs.len(), s.jobs.len(), "nothing has finished by 900");
        assert!(st.scenario.jobs.iter().all(|j| j.duration_seconds.is_none()));
        // The rest of the state is the engine's fork as it is.
        let mut plain = sim.state(&s);
        for j in &mut plain.scenario.jobs {
            j.duration_seconds = None;
        }
        assert_eq!(st, plain);
        assert!(!st.scenario.history.is_empty(), "the running jobs are censored observations");
    }

    #[test]
    fn a_forked_state_forecasts_from_what_was_seen_and_cannot_be_replayed_exactly() {
        let (s, sim) = at(900);
        let st = forecast_state(&sim, &s);
        let opts = EtaOptions {
            jobs: alloc::vec![String::from("qs1_job_low")],
            replicates: 20,
            ..Default::default()
        };
        let f = Forecast::new(&st.scenario, opts.clone()).expect("a forecast of the fork");
        let r = f.run().expect("its replicates run");
        assert_eq!((r.start_at, r.durations), (900, Durations::History));
        assert!(!r.draws_by_source.contains_key("exact") && !r.draws_by_source.contains_key("asWritten"));
        let j = &r.jobs[0];
        assert_eq!(j.job_name, "qs1_job_low");
        assert!(j.start.p10 <= j.start.p50 && j.start.p50 <= j.start.p90);
        // Without durations the state cannot be run as it is.
        let exact = Forecast::new(&st.scenario, EtaOptions { durations: Some(Durations::Exact), ..opts });
        assert!(exact.is_err());
    }
}
