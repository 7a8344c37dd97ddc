//! "What would have avoided this?" in the explanation panel: the engine's study
//! ([`quotasim::why::WhyStudy`]) made a slice at a time, and its report in words.
//!
//! The study says which scenario to run next; each run is advanced here with the page's one
//! sliced loop ([`run_slice`]), so no run, however large, holds the thread for longer than a
//! slice. Preparing a run (the change applied and validated) and recording it (the comparison
//! with the baseline) each end a slice of their own. The words come from the report; nothing
//! here judges a run.

use quotasim::compare::human_duration;
use quotasim::model::Scenario;
use quotasim::sim::{Options, PreemptionRecord};
use quotasim::why::report::TriedOutcome;
use quotasim::why::{WhyOptions, WhyReport, WhyStep, WhyStudy, DEFAULT_MAX_RUNS};
use quotasim::Simulation;

use crate::run::run_slice;

/// What is asked: a job's K-th preemption (from 1), or its wait.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WhyAsk {
    pub job: String,
    pub preemption: Option<u32>,
}

/// The number, from 1, of preemption `p` of the log among its victim's preemptions.
pub fn preemption_number(log: &[PreemptionRecord], p: usize) -> Option<u32> {
    let victim = log.get(p)?.victim;
    Some(log[..p].iter().filter(|r| r.victim == victim).count() as u32 + 1)
}

/// The study being made, a slice at a time.
pub struct WhyBuilder {
    study: WhyStudy,
    /// The run in progress, if any.
    sim: Option<Box<Simulation>>,
}

impl WhyBuilder {
    /// The study of `ask` in `scenario` within the default run budget, or why it cannot be
    /// made. Runs nothing.
    pub fn new(scenario: &Scenario, ask: &WhyAsk) -> Result<WhyBuilder, String> {
        let opts = WhyOptions { preemption: ask.preemption, ..WhyOptions::new(&ask.job) };
        let study = WhyStudy::new(scenario, &opts).map_err(|e| e.to_string())?;
        Ok(WhyBuilder { study, sim: None })
    }

    /// The run in progress (the baseline is run 1) and the most there may be.
    pub fn progress(&self) -> (u32, u32) {
        (self.study.runs(), self.study.max_runs())
    }

    /// The change being run (`--set` text), none for the baseline.
    pub fn running(&self) -> Option<String> {
        self.study.running()
    }

    /// Works until the study is made or `out_of_time()` says to stop; returns its report, or
    /// why there is none, once. Preparing a run and recording one each end a slice.
    pub fn advance(&mut self, out_of_time: &mut dyn FnMut() -> bool) -> Option<Result<WhyReport, String>> {
        match self.sim.as_mut() {
            None => match self.study.next_step() {
                Ok(WhyStep::Run(valid)) => {
                    let opts = Options { record_events: false, ..Options::default() };
                    self.sim = Some(Box::new(Simulation::with_options(*valid, opts)));
                    None
                }
                Ok(WhyStep::Done(r)) => Some(Ok(*r)),
                Err(e) => Some(Err(e.to_string())),
            },
            Some(sim) => {
                if run_slice(sim, out_of_time) {
                    if let Some(sim) = self.sim.take() {
                        self.study.record(&sim);
                    }
                }
                None
            }
        }
    }
}

/// One verified change, in words.
#[derive(Clone, Debug, PartialEq)]
pub struct ChangeView {
    /// The `--set` text (`PATH=VALUE`), what "Try it" applies.
    pub set: String,
    /// The catalogue entry (`priority`, `borrowLimit`, ...).
    pub entry: &'static str,
    /// What it does to the job.
    pub own: String,
    /// The jobs it harms: none, or how many and the worst.
    pub harmed: String,
    /// Each affected share: wait p95 and lost GPU-hours before -> after.
    pub shares: Vec<String>,
}

fn p95(v: Option<u64>) -> String {
    v.map_or_else(|| "none".into(), human_duration)
}

/// The report's changes in words, fewest jobs harmed first (the report's order).
pub fn changes(r: &WhyReport) -> Vec<ChangeView> {
    r.changes
        .iter()
        .map(|c| ChangeView {
            set: c.set.join(" "),
            entry: c.entry,
            own: if c.job.description.is_empty() {
                format!("{}: no other change", r.job)
            } else {
                format!("{}: {}", r.job, c.job.description)
            },
            harmed: match (&c.harmed.worst, c.harmed.count) {
                (Some(w), 1) => format!("Harms 1 other job: {w}."),
                (Some(w), n) => format!("Harms {n} other jobs; the worst: {w}."),
                (None, _) => "Harms no other job.".into(),
            },
            shares: c
                .shares
                .iter()
                .map(|s| {
                    format!(
                        "{}: wait p95 {} → {}, lost GPU-hours {:.2} → {:.2}",
                        s.quota_share_name,
                        p95(s.wait_p95_seconds_before),
                        p95(s.wait_p95_seconds_after),
                        s.lost_gpu_hours_before,
                        s.lost_gpu_hours_after
                    )
                })
                .collect(),
        })
        .collect()
}

/// The catalogue entries that found nothing or were not tried, in words.
pub fn not_found(r: &WhyReport) -> Vec<String> {
    r.tried
        .entries
        .iter()
        .filter(|t| t.outcome != TriedOutcome::Found)
        .map(|t| {
            let what = match t.direction {
                Some(d) => format!("{} {d}", t.entry),
                None => t.entry.to_string(),
            };
            let outcome = match t.outcome {
                TriedOutcome::NotFound => "not reached",
                TriedOutcome::NotApplicable => "not applicable",
                TriedOutcome::BudgetExhausted => "not tried",
                TriedOutcome::Found => "found",
            };
            let runs = match t.tested.len() {
                0 => String::new(),
                1 => ", 1 run".into(),
                n => format!(", {n} runs"),
            };
            format!("{what} ({outcome}{runs}): {}", t.detail)
        })
        .collect()
}

/// The study's headline: what it explains, its target and how many runs it took.
pub fn headline(r: &WhyReport) -> String {
    let n = r.changes.len();
    let found = match n {
        0 => "No single change in the catalogue reaches the target".to_string(),
        1 => "1 change reaches the target".to_string(),
        n => format!("{n} changes reach the target"),
    };
    format!(
        "{found}, each verified by a full re-run ({} runs of at most {}). Target: {}.",
        r.tried.runs, r.tried.max_runs, r.event.target
    )
}

/// "run 7 of at most 50", with the change being run.
pub fn progress_text((run, max): (u32, u32), running: Option<&str>) -> String {
    match running {
        Some(c) => format!("Run {run} of at most {max}: {c}"),
        None => format!("Run {run} of at most {max}: the scenario as it is"),
    }
}

/// The default run budget, for the words before the study starts.
pub const RUNS: u32 = DEFAULT_MAX_RUNS;

#[cfg(test)]
mod tests {
    use super::*;
    use quotasim::why::why;

    fn notebook() -> Scenario {
        crate::presets::scenario(crate::presets::NOTEBOOK).unwrap()
    }

    /// Makes the study in slices as the page does, each slice cut after one look at the clock.
    fn in_slices(s: &Scenario, ask: &WhyAsk) -> (Result<WhyReport, String>, usize) {
        let mut b = WhyBuilder::new(s, ask).unwrap();
        let mut slices = 0;
        loop {
            slices += 1;
            let (run, max) = b.progress();
            assert!(run >= 1 && run <= max);
            if let Some(r) = b.advance(&mut || true) {
                return (r, slices);
            }
        }
    }

    #[test]
    fn a_study_made_in_slices_is_the_engines_report() {
        let s = notebook();
        for ask in [
            WhyAsk { job: "qs1_job_med".into(), preemption: Some(1) },
            WhyAsk { job: "qs1_job_low".into(), preemption: None },
        ] {
            let (r, slices) = in_slices(&s, &ask);
            let r = r.unwrap();
            let opts = WhyOptions { preemption: ask.preemption, ..WhyOptions::new(&ask.job) };
            let at_once = why(&s, &opts).unwrap();
            assert_eq!(quotasim::json::to_json(&r), quotasim::json::to_json(&at_once));
            // Each run is at least a preparation and a recording slice.
            assert!(slices > 2 * r.tried.runs as usize, "{slices} slices for {} runs", r.tried.runs);
        }
    }

    #[test]
    fn a_preempted_job_gets_changes_in_words_and_what_was_not_tried() {
        let s = notebook();
        let (r, _) = in_slices(&s, &WhyAsk { job: "qs1_job_med".into(), preemption: Some(1) });
        let r = r.unwrap();
        let c = changes(&r);
        assert!(!c.is_empty());
        for v in &c {
            assert!(v.set.contains('='), "{}", v.set);
            assert!(v.own.starts_with("qs1_job_med: "), "{}", v.own);
            assert!(v.harmed.starts_with("Harms "), "{}", v.harmed);
            assert!(v.shares.iter().all(|x| x.contains("wait p95") && x.contains(" → ")));
        }
        assert!(headline(&r).contains("each verified by a full re-run"));
        assert_eq!(
            not_found(&r).len(),
            r.tried.entries.iter().filter(|t| t.outcome != TriedOutcome::Found).count()
        );
    }

    #[test]
    fn an_unknown_job_says_so_before_any_run() {
        let e =
            WhyBuilder::new(&notebook(), &WhyAsk { job: "nobody".into(), preemption: None }).err().unwrap();
        assert!(e.contains("no job named `nobody`"), "{e}");
    }

    #[test]
    fn the_preemption_number_counts_the_victims_earlier_preemptions() {
        let s = notebook();
        let r = crate::run::RunData::compute(quotasim::validate(&s).unwrap());
        let log = &r.preemptions;
        for p in 0..log.len() {
            let n = preemption_number(log, p).unwrap();
            assert_eq!(n as usize, log[..=p].iter().filter(|x| x.victim == log[p].victim).count());
        }
        assert_eq!(preemption_number(log, log.len()), None);
    }

    #[test]
    fn progress_names_the_run_and_the_change() {
        assert_eq!(progress_text((1, 50), None), "Run 1 of at most 50: the scenario as it is");
        assert_eq!(
            progress_text((7, 50), Some("jobs[a].priority=3")),
            "Run 7 of at most 50: jobs[a].priority=3"
        );
    }
}
