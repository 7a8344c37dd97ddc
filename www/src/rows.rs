//! Stable ids of the rows of the scenario's edited lists (jobs, quota shares, the service
//! environment's instance types, timed actions), kept beside the
//! scenario in the same order: assigned when a scenario is loaded or a row is added, kept when a
//! row is edited, renamed or moved by a deletion elsewhere. Lists render keyed by them, so an
//! edit re-renders only its own row.

use quotasim::model::Scenario;

/// Which list of the scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum List {
    Jobs,
    Shares,
    /// The service environment's capacity limits, one per instance type.
    Types,
    /// The timed actions (R23).
    Actions,
}

const LISTS: [List; 4] = [List::Jobs, List::Shares, List::Types, List::Actions];

fn len(s: &Scenario, l: List) -> usize {
    match l {
        List::Jobs => s.jobs.len(),
        List::Shares => s.quota_shares.len(),
        List::Types => s.service_environment.capacity_limits.len(),
        List::Actions => s.actions.len(),
    }
}

/// The ids of each list's rows, in row order, and the next id to give.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RowIds {
    next: u64,
    jobs: Vec<u64>,
    shares: Vec<u64>,
    types: Vec<u64>,
    actions: Vec<u64>,
}

impl RowIds {
    /// Fresh ids for every row of `s`.
    pub fn new(s: &Scenario) -> RowIds {
        let mut r = RowIds::default();
        r.fit(s);
        r
    }

    /// The ids of list `l`, in row order.
    pub fn ids(&self, l: List) -> &[u64] {
        match l {
            List::Jobs => &self.jobs,
            List::Shares => &self.shares,
            List::Types => &self.types,
            List::Actions => &self.actions,
        }
    }

    fn list(&mut self, l: List) -> &mut Vec<u64> {
        match l {
            List::Jobs => &mut self.jobs,
            List::Shares => &mut self.shares,
            List::Types => &mut self.types,
            List::Actions => &mut self.actions,
        }
    }

    fn fresh(&mut self) -> u64 {
        self.next += 1;
        self.next
    }

    /// A new row at `at` (clamped to the end).
    pub fn insert(&mut self, l: List, at: usize) {
        let id = self.fresh();
        let v = self.list(l);
        v.insert(at.min(v.len()), id);
    }

    /// `n` new rows at the end.
    pub fn push(&mut self, l: List, n: usize) {
        for _ in 0..n {
            let id = self.fresh();
            self.list(l).push(id);
        }
    }

    /// Removes row `at`, if there is one.
    pub fn remove(&mut self, l: List, at: usize) {
        let v = self.list(l);
        if at < v.len() {
            v.remove(at);
        }
    }

    /// Keeps the rows for which `keep(index)` holds.
    pub fn retain(&mut self, l: List, mut keep: impl FnMut(usize) -> bool) {
        let mut k = 0;
        self.list(l).retain(|_| {
            k += 1;
            keep(k - 1)
        });
    }

    /// Whether every list has one id per row of `s`.
    pub fn fits(&self, s: &Scenario) -> bool {
        LISTS.iter().all(|&l| self.ids(l).len() == len(s, l))
    }

    /// Gives every list one id per row of `s`: rows past the end are dropped and new rows at
    /// the end get fresh ids (for edits that changed a list without saying where).
    pub fn fit(&mut self, s: &Scenario) {
        for l in LISTS {
            let n = len(s, l);
            self.list(l).truncate(n);
            let missing = n - self.ids(l).len();
            self.push(l, missing);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets;

    #[test]
    fn ids_stay_with_their_rows_through_inserts_and_deletes() {
        let s = presets::scenario(presets::NOTEBOOK).unwrap();
        let mut r = RowIds::new(&s);
        assert!(r.fits(&s));
        let jobs = r.ids(List::Jobs).to_vec();
        assert_eq!(jobs.len(), s.jobs.len());
        r.insert(List::Jobs, 1);
        let added = r.ids(List::Jobs)[1];
        assert!(!jobs.contains(&added), "a new row gets a new id");
        r.remove(List::Jobs, 0);
        assert_eq!(r.ids(List::Jobs)[0], added);
        assert_eq!(&r.ids(List::Jobs)[1..], &jobs[1..], "the other rows keep theirs");
        r.retain(List::Jobs, |i| i != 1);
        assert_eq!(r.ids(List::Jobs), [added, jobs[2], jobs[3]]);
        r.push(List::Shares, 2);
        assert_eq!(r.ids(List::Shares).len(), s.quota_shares.len() + 2);
        r.fit(&s);
        assert!(r.fits(&s));
        assert_eq!(r.ids(List::Jobs)[..3], [added, jobs[2], jobs[3]], "fitting keeps the rows it can");
        let ids: std::collections::HashSet<_> = r.ids(List::Jobs).iter().collect();
        assert_eq!(ids.len(), s.jobs.len(), "ids are distinct");
    }
}
