//! Undo and redo of edits: snapshots of the scenario before each burst of edits (edits less than
//! [`COALESCE_MS`] apart, such as typing a name, are one step), bounded by count and by the jobs
//! they hold so a 50,000-job scenario does not keep gigabytes alive.

use std::sync::Arc;

use quotasim::model::{Job, Scenario};

/// Edits closer together than this are one undo step.
pub const COALESCE_MS: f64 = 700.0;
/// At most this many steps back.
pub const MAX_STEPS: usize = 100;
/// At most this much weight (jobs, by the caller's measure) kept across all steps: at
/// 50,000 jobs, eight edits of the jobs themselves (edits of anything else share the job list
/// and weigh one).
pub const MAX_WEIGHT: usize = 400_000;

/// The undo and redo stacks of one document.
#[derive(Clone, Debug, Default)]
pub struct UndoStack<T> {
    undo: Vec<(T, usize)>,
    redo: Vec<(T, usize)>,
    last_record: Option<f64>,
}

impl<T> UndoStack<T> {
    pub fn new() -> Self {
        UndoStack { undo: Vec::new(), redo: Vec::new(), last_record: None }
    }

    /// An edit changed the document from `before` (of `weight`) at `now_ms`: a new step, unless
    /// the previous edit was less than [`COALESCE_MS`] ago. Any redo is forgotten.
    pub fn record(&mut self, before: T, weight: usize, now_ms: f64) {
        self.redo.clear();
        let burst = self.last_record.is_some_and(|t| now_ms - t < COALESCE_MS) && !self.undo.is_empty();
        self.last_record = Some(now_ms);
        if burst {
            return;
        }
        self.undo.push((before, weight));
        while self.undo.len() > MAX_STEPS
            || (self.undo.len() > 1 && self.undo.iter().map(|x| x.1).sum::<usize>() > MAX_WEIGHT)
        {
            self.undo.remove(0);
        }
    }

    /// Goes one step back from `current`: the state to show, if any.
    pub fn undo(&mut self, current: T, weight: usize) -> Option<T> {
        let (prev, _) = self.undo.pop()?;
        self.redo.push((current, weight));
        self.last_record = None;
        Some(prev)
    }

    /// Goes one step forward again from `current`.
    pub fn redo(&mut self, current: T, weight: usize) -> Option<T> {
        let (next, _) = self.redo.pop()?;
        self.undo.push((current, weight));
        self.last_record = None;
        Some(next)
    }

    /// Forgets everything (a new document was loaded).
    pub fn clear(&mut self) {
        *self = UndoStack::new();
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }
}

/// A scenario as the undo history keeps it: its job list shared (not copied) with the
/// neighbouring steps that have the same jobs, so edits of settings or shares at 50,000 jobs
/// cost no copy of the jobs.
#[derive(Clone, Debug)]
pub struct Kept {
    /// Everything but the jobs.
    rest: Scenario,
    jobs: Arc<Vec<Job>>,
}

impl Kept {
    /// `s` as kept, its jobs shared with `near`'s when they are the same.
    pub fn of(s: &Scenario, near: Option<&Kept>) -> Kept {
        let jobs = match near {
            Some(k) if *k.jobs == s.jobs => k.jobs.clone(),
            _ => Arc::new(s.jobs.clone()),
        };
        Kept { rest: without_jobs(s), jobs }
    }

    /// Whether `s` is the scenario kept.
    pub fn is(&self, s: &Scenario) -> bool {
        self.rest == without_jobs(s) && *self.jobs == s.jobs
    }

    /// The scenario kept.
    pub fn scenario(&self) -> Scenario {
        Scenario { jobs: (*self.jobs).clone(), ..self.rest.clone() }
    }

    /// How many jobs the scenario has.
    pub fn scenario_jobs(&self) -> usize {
        self.jobs.len()
    }

    /// Its weight in the history (jobs, the measure of [`MAX_WEIGHT`]) next to `near`: a job
    /// list shared with it weighs nothing.
    pub fn weight(&self, near: &Kept) -> usize {
        1 + if Arc::ptr_eq(&self.jobs, &near.jobs) { 0 } else { self.jobs.len() }
    }
}

fn without_jobs(s: &Scenario) -> Scenario {
    Scenario {
        format_version: s.format_version,
        name: s.name.clone(),
        description: s.description.clone(),
        settings: s.settings.clone(),
        instance_types: s.instance_types.clone(),
        service_environment: s.service_environment.clone(),
        scheduling_policy: s.scheduling_policy.clone(),
        quota_shares: s.quota_shares.clone(),
        workload: s.workload.clone(),
        jobs: Vec::new(),
        actions: s.actions.clone(),
        history: s.history.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_scenarios_share_an_unchanged_job_list() {
        let s = crate::presets::scenario(crate::presets::NOTEBOOK).expect("preset parses");
        let a = Kept::of(&s, None);
        assert!(a.is(&s) && a.scenario() == s);
        let mut t = s.clone();
        t.settings.preemption_grace_seconds += 1;
        let b = Kept::of(&t, Some(&a));
        assert!(Arc::ptr_eq(&a.jobs, &b.jobs), "same jobs, one list");
        assert_eq!(a.weight(&b), 1);
        assert!(!b.is(&s) && b.is(&t) && b.scenario() == t);
        t.jobs[0].duration_seconds = t.jobs[0].duration_seconds.map(|d| d + 1);
        let c = Kept::of(&t, Some(&b));
        assert!(!Arc::ptr_eq(&b.jobs, &c.jobs));
        assert_eq!(b.weight(&c), 1 + s.jobs.len());
        assert_eq!(c.scenario(), t);
    }

    #[test]
    fn undo_and_redo_walk_the_steps_and_a_new_edit_forgets_redo() {
        let mut u = UndoStack::new();
        u.record("a", 1, 0.0);
        u.record("b", 1, 1000.0);
        assert_eq!(u.undo("c", 1), Some("b"));
        assert_eq!(u.undo("b", 1), Some("a"));
        assert_eq!(u.undo("a", 1), None);
        assert_eq!(u.redo("a", 1), Some("b"));
        assert!(u.can_redo());
        u.record("b", 1, 5000.0);
        assert!(!u.can_redo(), "a new edit forgets what was undone");
    }

    #[test]
    fn a_burst_of_edits_is_one_step() {
        let mut u = UndoStack::new();
        u.record("", 1, 0.0);
        u.record("n", 1, 200.0);
        u.record("na", 1, 400.0);
        assert_eq!(u.undo("nam", 1), Some(""));
        assert!(!u.can_undo());
    }

    #[test]
    fn steps_are_bounded_by_count_and_weight() {
        let mut u = UndoStack::new();
        for i in 0..150 {
            u.record(i, 1, i as f64 * 1000.0);
        }
        assert_eq!(u.undo.len(), MAX_STEPS);
        assert_eq!(u.undo.first().map(|x| x.0), Some(50), "the oldest go first");
        let mut big = UndoStack::new();
        for i in 0..10 {
            big.record(i, 150_000, i as f64 * 1000.0);
        }
        assert_eq!(big.undo.len(), 2, "400,000 jobs at most");
    }
}
