//! Undo and redo of edits: snapshots of the scenario before each burst of edits (edits less than
//! [`COALESCE_MS`] apart, such as typing a name, are one step), bounded by count and by the jobs
//! they hold so a 50,000-job scenario does not keep gigabytes alive.

/// Edits closer together than this are one undo step.
pub const COALESCE_MS: f64 = 700.0;
/// At most this many steps back.
pub const MAX_STEPS: usize = 100;
/// At most this much weight (jobs, by the caller's measure) kept across all steps.
pub const MAX_WEIGHT: usize = 1_000_000;

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

#[cfg(test)]
mod tests {
    use super::*;

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
            big.record(i, 300_000, i as f64 * 1000.0);
        }
        assert_eq!(big.undo.len(), 3, "1,000,000 jobs at most");
    }
}
