//! Trying one catalogue entry within the run budget.
//!
//! A choice is one run. A numeric field's ladder (nearest value first) is searched for the
//! nearest value that reaches the target: the farthest value first (when even it does not,
//! no value does, if the target moves one way along the ladder), then by halves between the
//! current value (which does not reach it: that is the event) and the nearest value known to
//! reach it. So the value reported was run and reached the target, and the value before it on
//! the ladder was run and did not. That costs at most `1 + ceil(log2(n))` runs for `n` values;
//! an entry whose worst case does not fit in the runs left is not started.
//!
//! A `Trial` is that search as a state machine: it names the change it needs run next
//! (`Trial::next`) and is told whether that run reached the target (`Trial::record`); the
//! study ([`super::WhyStudy`]) runs the changes, so the search does not care whether a run is
//! made at once or in slices.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use serde_json::Value;

use super::catalogue::{Entry, Kind, Ladder};
use super::options::change;
use super::report::{Tested, Tried, TriedOutcome};
use crate::change::Change;
use crate::result::SimResult;

/// A change that reached the target: its `--set` changes, its catalogue entry, its run.
pub(crate) type FoundRun = (Vec<Change>, &'static str, SimResult);

/// The most runs searching `n` values may take.
pub fn worst_case(n: u64) -> u32 {
    let mut steps = 0;
    while (1u64 << steps) < n {
        steps += 1;
    }
    1 + steps
}

/// What one changed run gave: it reached the target (with its result), it did not, or it
/// could not be run (why).
pub(crate) enum Eval {
    Reaches(alloc::boxed::Box<SimResult>),
    Misses,
    Invalid(String),
}

/// Where a trial's search stands.
enum Search {
    /// One choice, to be run.
    Choice(Value),
    /// A ladder whose farthest value is to be run first.
    Farthest(Ladder),
    /// A ladder being halved: `lo` does not reach the target (-1: the current value), `hi`
    /// does, with `best` its run.
    Halving { ladder: Ladder, lo: i64, hi: i64, best: alloc::boxed::Box<SimResult> },
    /// Nothing left to run.
    Over,
}

/// One catalogue entry being tried.
pub(crate) struct Trial {
    name: &'static str,
    path: String,
    search: Search,
    tried: Tried,
}

/// A ladder's `i`-th value as JSON.
fn at(l: &Ladder, i: u64) -> Value {
    Value::from(l.at(i))
}

impl Trial {
    /// Starts trying `e` with `left` runs left: the trial, or what was done when it needs no
    /// run (not applicable, or its worst case does not fit in what is left).
    pub(crate) fn start(e: Entry, left: u32) -> Result<Trial, alloc::boxed::Box<Tried>> {
        let mut t = Tried {
            entry: e.name,
            path: e.path.clone(),
            direction: e.direction,
            candidates: Vec::new(),
            tested: Vec::new(),
            outcome: TriedOutcome::NotApplicable,
            detail: String::new(),
        };
        let search = match e.kind {
            Kind::NotApplicable(why) => {
                t.detail = why;
                return Err(alloc::boxed::Box::new(t));
            }
            Kind::Choice(value) => {
                t.candidates = vec![value.clone()];
                if left == 0 {
                    t.outcome = TriedOutcome::BudgetExhausted;
                    t.detail = "run budget exhausted: needs 1 run, none left".into();
                    return Err(alloc::boxed::Box::new(t));
                }
                Search::Choice(value)
            }
            Kind::Ladder { ladder, .. } => {
                let n = ladder.len();
                t.candidates =
                    if n == 1 { vec![at(&ladder, 0)] } else { vec![at(&ladder, 0), at(&ladder, n - 1)] };
                let need = worst_case(n);
                if left < need {
                    t.outcome = TriedOutcome::BudgetExhausted;
                    t.detail = format!("run budget exhausted: needs up to {need} runs, {left} left");
                    return Err(alloc::boxed::Box::new(t));
                }
                Search::Farthest(ladder)
            }
        };
        Ok(Trial { name: e.name, path: e.path, search, tried: t })
    }

    /// The change to run next; `None` once the trial is over.
    pub(crate) fn next(&self) -> Option<Change> {
        match &self.search {
            Search::Choice(v) => Some(change(&self.path, v.clone())),
            Search::Farthest(l) => Some(change(&self.path, at(l, l.len() - 1))),
            Search::Halving { ladder, lo, hi, .. } => {
                let mid = lo + (hi - lo) / 2;
                Some(change(&self.path, at(ladder, mid as u64)))
            }
            Search::Over => None,
        }
    }

    /// Records what running [`Self::next`]'s change gave; a change that reached the target and
    /// ends the search goes to `found`. Every run is listed in the trial.
    pub(crate) fn record(&mut self, c: Change, e: Eval, found: &mut Vec<FoundRun>) {
        let (reaches, note, res) = match e {
            Eval::Reaches(res) => (true, None, Some(res)),
            Eval::Misses => (false, None, None),
            Eval::Invalid(m) => (false, Some(m), None),
        };
        self.tried.tested.push(Tested { value: c.value.clone(), reaches, note });
        let t = &mut self.tried;
        self.search = match core::mem::replace(&mut self.search, Search::Over) {
            Search::Choice(_) => {
                match res {
                    Some(res) => {
                        t.outcome = TriedOutcome::Found;
                        t.detail = "reaches the target".into();
                        found.push((vec![c], self.name, *res));
                    }
                    None => {
                        t.outcome = TriedOutcome::NotFound;
                        t.detail = "does not reach the target".into();
                    }
                }
                Search::Over
            }
            Search::Farthest(ladder) => match res {
                None => {
                    t.outcome = TriedOutcome::NotFound;
                    t.detail = format!("even {} does not reach the target", c.value);
                    Search::Over
                }
                Some(best) => {
                    let hi = ladder.len() as i64 - 1;
                    Search::Halving { ladder, lo: -1, hi, best }
                }
            },
            Search::Halving { ladder, lo, hi, best } => {
                let mid = lo + (hi - lo) / 2;
                match res {
                    Some(res) => Search::Halving { ladder, lo, hi: mid, best: res },
                    None => Search::Halving { ladder, lo: mid, hi, best },
                }
            }
            Search::Over => Search::Over,
        };
        // A ladder whose bounds meet is searched: its nearest value known to reach the target.
        if matches!(self.search, Search::Halving { lo, hi, .. } if hi - lo <= 1) {
            if let Search::Halving { ladder, lo, hi, best } =
                core::mem::replace(&mut self.search, Search::Over)
            {
                let v = at(&ladder, hi as u64);
                t.outcome = TriedOutcome::Found;
                t.detail = if lo >= 0 {
                    format!(
                        "{v} is the smallest change that reaches the target: {} does not",
                        at(&ladder, lo as u64)
                    )
                } else {
                    format!("{v}, the nearest value, reaches the target")
                };
                found.push((vec![change(&self.path, v)], self.name, *best));
            }
        }
    }

    /// What was done, once the trial is over.
    pub(crate) fn into_tried(self) -> Tried {
        self.tried
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worst_case_is_one_run_plus_the_halvings() {
        assert_eq!([1, 2, 3, 4, 5, 7, 8, 9].map(worst_case), [1, 2, 3, 3, 4, 4, 4, 5]);
    }
}
