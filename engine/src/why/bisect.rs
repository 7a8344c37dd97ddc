//! Trying one catalogue entry within the run budget.
//!
//! A choice is one run. A numeric field's ladder (nearest value first) is searched for the
//! nearest value that reaches the target: the farthest value first (when even it does not,
//! no value does, if the target moves one way along the ladder), then by halves between the
//! current value (which does not reach it: that is the event) and the nearest value known to
//! reach it. So the value reported was run and reached the target, and the value before it on
//! the ladder was run and did not. That costs at most `1 + ceil(log2(n))` runs for `n` values;
//! an entry whose worst case does not fit in the runs left is not started.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use serde_json::Value;

use super::catalogue::{Entry, Kind, Ladder};
use super::report::{Tested, Tried, TriedOutcome};
use super::{change, Eval, Runner};
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

/// Tries `e`: what reached the target goes to `found`, what was done (or not) to `tried`.
pub(crate) fn try_entry(r: &mut Runner, e: Entry, found: &mut Vec<FoundRun>, tried: &mut Vec<Tried>) {
    let mut t = Tried {
        entry: e.name,
        path: e.path.clone(),
        direction: e.direction,
        candidates: Vec::new(),
        tested: Vec::new(),
        outcome: TriedOutcome::NotApplicable,
        detail: String::new(),
    };
    match e.kind {
        Kind::NotApplicable(why) => t.detail = why,
        Kind::Choice(value) => {
            t.candidates = vec![value.clone()];
            if r.left() == 0 {
                t.outcome = TriedOutcome::BudgetExhausted;
                t.detail = "run budget exhausted: needs 1 run, none left".into();
            } else {
                let c = change(&e.path, value.clone());
                match test(r, &c, &mut t) {
                    Some(res) => {
                        t.outcome = TriedOutcome::Found;
                        t.detail = "reaches the target".into();
                        found.push((vec![c], e.name, res));
                    }
                    None => {
                        t.outcome = TriedOutcome::NotFound;
                        t.detail = "does not reach the target".into();
                    }
                }
            }
        }
        Kind::Ladder { ladder, .. } => {
            search(r, &e.path, e.name, &ladder, &mut t, found);
        }
    }
    tried.push(t);
}

/// Runs one change; its result when it reached the target. Every run is listed in `t`.
fn test(r: &mut Runner, c: &Change, t: &mut Tried) -> Option<SimResult> {
    let (reaches, note, res) = match r.eval(core::slice::from_ref(c)) {
        Eval::Reaches(res) => (true, None, Some(*res)),
        Eval::Misses => (false, None, None),
        Eval::Invalid(m) => (false, Some(m), None),
    };
    t.tested.push(Tested { value: c.value.clone(), reaches, note });
    res
}

fn search(
    r: &mut Runner,
    path: &str,
    name: &'static str,
    l: &Ladder,
    t: &mut Tried,
    found: &mut Vec<FoundRun>,
) {
    let n = l.len();
    let at = |i: u64| Value::from(l.at(i));
    t.candidates = if n == 1 { vec![at(0)] } else { vec![at(0), at(n - 1)] };
    let need = worst_case(n);
    if r.left() < need {
        t.outcome = TriedOutcome::BudgetExhausted;
        t.detail = format!("run budget exhausted: needs up to {need} runs, {} left", r.left());
        return;
    }
    let Some(mut best) = test(r, &change(path, at(n - 1)), t) else {
        t.outcome = TriedOutcome::NotFound;
        t.detail = format!("even {} does not reach the target", at(n - 1));
        return;
    };
    // `lo` does not reach the target (-1: the current value), `hi` does.
    let (mut lo, mut hi) = (-1i64, n as i64 - 1);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        match test(r, &change(path, at(mid as u64)), t) {
            Some(res) => {
                hi = mid;
                best = res;
            }
            None => lo = mid,
        }
    }
    let v = at(hi as u64);
    t.outcome = TriedOutcome::Found;
    t.detail = if lo >= 0 {
        format!("{v} is the smallest change that reaches the target: {} does not", at(lo as u64))
    } else {
        format!("{v}, the nearest value, reaches the target")
    };
    found.push((vec![change(path, v)], name, best));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worst_case_is_one_run_plus_the_halvings() {
        assert_eq!([1, 2, 3, 4, 5, 7, 8, 9].map(worst_case), [1, 2, 3, 3, 4, 4, 4, 5]);
    }
}
