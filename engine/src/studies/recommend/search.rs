//! The search: coordinate descent with bisection, the sharing re-chosen from its ladder.
//!
//! With the default cost (`capacityPerHour`), only the service environment's capacity costs;
//! capacity above the quotas summed is never used (R13), so a candidate's capacity is at most
//! its quotas summed, and the steps that lower the cost are
//!
//! - a **quota step**: a share's quota of a type lowered, and the type's capacity with it when
//!   it would exceed the quotas summed;
//! - a **capacity step**: the type's capacity lowered alone (the quotas then oversubscribe it,
//!   R3).
//!
//! The search:
//!
//! 1. starts at the scenario, its capacities lowered to the quotas summed (which changes no
//!    run); if that breaks an objective, it **repairs**: every share's sharing opened to its
//!    ladder's most permissive value, then quotas and capacity doubled, quadrupled and made
//!    eight times larger (each with the sharing as it was, then opened), then every dimension
//!    at its largest value; the first candidate that meets every objective is the start. When
//!    none does, the report says so and names the closest candidate;
//! 2. **opens** each share's sharing to its most permissive value when that keeps every
//!    objective (sharing costs nothing, and idle quota lent is what lets the quotas shrink);
//! 3. **descends** twice, the shares in order and then in reverse, from the opened start: a
//!    pass takes each instance type (the dearest first), each share's quota step and then the
//!    capacity step; a step that meets every objective is followed by a bisection on its size
//!    (assuming the objectives are monotone in a quota, see below), and the largest size found
//!    is taken; passes repeat until one changes nothing. The first share lowered tends to
//!    borrow what the others lend, and which share should borrow is what the answer depends
//!    on; the cheaper end goes on;
//! 4. **tidies** once: each quota above its type's whole capacity is lowered to it when that
//!    keeps every objective, and each share's sharing is set to the ladder value with the most
//!    headroom (the largest tightest slack) among those that keep every objective, the least
//!    permissive on a tie (sharing costs nothing, so the same cost buys the most room);
//!    then passes again, and a **full pass** retries every step that fails with that share's
//!    sharing re-chosen from the ladder (and each other value of any field the space file
//!    added), taking the first that meets every objective (the least permissive, in ladder
//!    order) and going on with passes; the search ends with a full pass that changes nothing;
//! 5. reports, for each share's sharing and each added field, what every other value does
//!    (sensitivity).
//!
//! The last full pass is the certificate: every cost-lowering step from the answer, each with
//! its retries, ran and broke an objective.
//!
//! **Monotonicity.** A share's waits are not monotone in the others' quotas (a smaller lender
//! can reclaim less often), and a bisection can step over a feasible size; so the bisection
//! only proposes, every candidate taken is a run that met every objective, and the full pass
//! tries each single step from the answer whatever the bisection concluded.
//!
//! With `--minimize METRIC` the search is a pattern search over every dimension: each numeric
//! one stepped down and up by 1, 2, 4, ... index while the metric improves and every objective
//! holds, each categorical one tried at every value (the best improving one taken), until a
//! pass improves nothing; that pass is the certificate (every neighbour is worse or breaks an
//! objective).
//!
//! **Budget.** Every candidate costs one run per seed, counted once however often the search
//! asks for it; a batch that does not fit in what is left stops the search where it is: the
//! answer is then the best candidate found, not proven.

use alloc::collections::BTreeSet;
use alloc::vec::Vec;

use super::space::{Config, Kind};
use super::study::Study;

/// What the search found (or where it stopped).
#[derive(Clone, Debug, Default)]
pub(crate) struct State {
    /// The scenario's place in the space.
    pub input: Config,
    /// The answer: the last candidate taken that meets every objective.
    pub best: Option<Config>,
    /// The search ended with a full pass that found no cheaper step (or pattern pass).
    pub proven: bool,
    /// The run budget stopped the search.
    pub budget_out: bool,
    /// The certificate: the steps of the last full pass, each with its retries.
    pub certificate: Vec<CertStep>,
    /// Sensitivity: each other value of each sharing and added dimension, at the answer.
    pub sensitivity: Vec<(usize, Config)>,
    /// Every candidate the search asked for, in order.
    pub asked: Vec<Config>,
}

/// One step of the certificate: the step itself first, then its retries.
#[derive(Clone, Debug)]
pub(crate) struct CertStep {
    pub tries: Vec<Config>,
}

pub(crate) enum Replayed {
    Need(Vec<Config>),
    Done(State),
}

enum Stop {
    Need(Vec<Config>),
    Budget,
}

struct Search<'a> {
    st: &'a Study,
    used: BTreeSet<Config>,
    runs: u64,
    state: State,
    cur: Config,
    pass_steps: Vec<CertStep>,
    /// Passes take the shares in reverse order.
    reverse: bool,
}

/// Runs the search against the runs recorded so far.
pub(crate) fn replay(st: &Study) -> Replayed {
    let mut s = Search {
        st,
        used: BTreeSet::new(),
        runs: 0,
        state: State::default(),
        cur: Vec::new(),
        pass_steps: Vec::new(),
        reverse: false,
    };
    match s.search() {
        Ok(()) => Replayed::Done(s.state),
        Err(Stop::Budget) => {
            if s.state.best.is_some() {
                s.state.best = Some(s.cur.clone());
            }
            s.state.budget_out = true;
            s.state.proven = false;
            Replayed::Done(s.state)
        }
        Err(Stop::Need(v)) => Replayed::Need(v),
    }
}

enum Lower {
    Quota(usize),
    Capacity(usize),
}

impl Search<'_> {
    /// Whether each candidate meets every objective, or what must run first.
    fn eval(&mut self, cs: &[Config]) -> Result<Vec<bool>, Stop> {
        let n = self.st.seed_count() as u64;
        let mut fresh: Vec<Config> = Vec::new();
        for c in cs {
            if !self.used.contains(c) && !fresh.contains(c) {
                fresh.push(c.clone());
            }
        }
        if self.runs + fresh.len() as u64 * n > u64::from(self.st.opts.max_runs) {
            return Err(Stop::Budget);
        }
        self.runs += fresh.len() as u64 * n;
        for c in &fresh {
            self.used.insert(c.clone());
            self.state.asked.push(c.clone());
        }
        let missing: Vec<Config> = fresh.into_iter().filter(|c| !self.st.runs.contains_key(c)).collect();
        if !missing.is_empty() {
            return Err(Stop::Need(missing));
        }
        Ok(cs.iter().map(|c| self.st.runs.get(c).is_some_and(|e| self.st.feasible(e))).collect())
    }

    fn one(&mut self, c: &Config) -> Result<bool, Stop> {
        Ok(self.eval(core::slice::from_ref(c))?[0])
    }

    fn cost(&self, c: &Config) -> Option<f64> {
        self.st.runs.get(c).and_then(|e| self.st.cost(c, e))
    }

    fn with(c: &Config, d: usize, i: usize) -> Config {
        let mut out = c.clone();
        out[d] = i as u32;
        out
    }

    fn sum_quotas(&self, c: &Config, t: usize) -> i64 {
        self.st.space.quotas_of(t).iter().map(|&d| self.st.space.dims[d].int(c[d] as usize)).sum()
    }

    /// `c` with type `t`'s capacity at most its quotas summed (the largest value of the
    /// capacity's dimension not above it, else its smallest).
    fn capped(&self, c: &Config, t: usize) -> Config {
        let Some(cd) = self.st.space.dim_of(&Kind::Capacity { t }) else { return c.clone() };
        let d = &self.st.space.dims[cd];
        let target = d.int(c[cd] as usize).min(self.sum_quotas(c, t));
        let i = (0..d.values.len()).rev().find(|&i| d.int(i) <= target).unwrap_or(0);
        Self::with(c, cd, i.min(c[cd] as usize))
    }

    fn normalized(&self, c: &Config) -> Config {
        let mut out = c.clone();
        for t in 0..self.st.space.types.len() {
            if !self.st.space.quotas_of(t).is_empty() {
                out = self.capped(&out, t);
            }
        }
        out
    }

    /// A cost-lowering step of size `k` (index steps) from `x`, if there is one.
    fn step(&self, x: &Config, kind: &Lower, k: usize) -> Option<Config> {
        match *kind {
            Lower::Quota(qd) => {
                let Kind::Quota { t, .. } = self.st.space.dims[qd].kind else { return None };
                let cd = self.st.space.dim_of(&Kind::Capacity { t })?;
                let i = (x[qd] as usize).checked_sub(k)?;
                let c = self.capped(&Self::with(x, qd, i), t);
                (c[cd] < x[cd]).then_some(c)
            }
            Lower::Capacity(cd) => Some(Self::with(x, cd, (x[cd] as usize).checked_sub(k)?)),
        }
    }

    /// The retries of a failed quota step: the share's sharing re-chosen, and each other value
    /// of each added dimension.
    fn retries(&self, step: &Config, kind: &Lower) -> Vec<Config> {
        let Lower::Quota(qd) = *kind else { return Vec::new() };
        let Kind::Quota { s, .. } = self.st.space.dims[qd].kind else { return Vec::new() };
        let mut out = Vec::new();
        if let Some(sd) = self.st.space.dim_of(&Kind::Sharing { s }) {
            for i in 0..self.st.space.dims[sd].values.len() {
                if i != step[sd] as usize {
                    out.push(Self::with(step, sd, i));
                }
            }
        }
        for (d, dim) in self.st.space.dims.iter().enumerate() {
            if dim.kind == Kind::Other {
                for i in 0..dim.values.len() {
                    if i != step[d] as usize {
                        out.push(Self::with(step, d, i));
                    }
                }
            }
        }
        out
    }

    /// Lowers one coordinate as far as the objectives allow; whether it moved.
    fn lower(&mut self, kind: Lower, full: bool) -> Result<bool, Stop> {
        let x = self.cur.clone();
        let Some(step1) = self.step(&x, &kind, 1) else { return Ok(false) };
        if !self.one(&step1)? {
            if !full {
                return Ok(false);
            }
            let retries = self.retries(&step1, &kind);
            let mut tries = alloc::vec![step1];
            tries.extend(retries.iter().cloned());
            self.pass_steps.push(CertStep { tries });
            if retries.is_empty() {
                return Ok(false);
            }
            let ok = self.eval(&retries)?;
            return Ok(match ok.iter().position(|f| *f) {
                Some(i) => {
                    self.cur = retries[i].clone();
                    true
                }
                None => false,
            });
        }
        // Bisection on the size: `lo` met every objective, `hi` did not (or does not exist).
        let kmax = match kind {
            Lower::Quota(d) | Lower::Capacity(d) => x[d] as usize,
        };
        let (mut lo, mut hi) = (1usize, kmax + 1);
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            match self.step(&x, &kind, mid) {
                Some(c) if self.one(&c)? => lo = mid,
                _ => hi = mid,
            }
        }
        self.cur = self.step(&x, &kind, lo).unwrap_or(x);
        Ok(true)
    }

    /// The instance types, dearest first (then in the service environment's order).
    fn type_order(&self) -> Vec<usize> {
        let sp = &self.st.space;
        let mut ts: Vec<usize> = (0..sp.types.len()).collect();
        ts.sort_by(|a, b| {
            sp.prices[*b].unwrap_or(0.0).total_cmp(&sp.prices[*a].unwrap_or(0.0)).then(a.cmp(b))
        });
        ts
    }

    fn pass(&mut self, full: bool) -> Result<bool, Stop> {
        self.pass_steps.clear();
        let mut moved = false;
        for t in self.type_order() {
            let Some(cd) = self.st.space.dim_of(&Kind::Capacity { t }) else { continue };
            let mut qs = self.st.space.quotas_of(t);
            if self.reverse {
                qs.reverse();
            }
            for qd in qs {
                moved |= self.lower(Lower::Quota(qd), full)?;
            }
            moved |= self.lower(Lower::Capacity(cd), full)?;
        }
        Ok(moved)
    }

    fn sharing_dims(&self) -> Vec<usize> {
        (0..self.st.space.dims.len())
            .filter(|&d| matches!(self.st.space.dims[d].kind, Kind::Sharing { .. }))
            .collect()
    }

    /// Step 2: each share's sharing opened, when that keeps every objective.
    fn open(&mut self) -> Result<(), Stop> {
        for sd in self.sharing_dims() {
            let last = self.st.space.dims[sd].values.len() - 1;
            if self.cur[sd] as usize != last {
                let c = Self::with(&self.cur, sd, last);
                if self.one(&c)? {
                    self.cur = c;
                }
            }
        }
        Ok(())
    }

    /// Step 4: quotas above their capacity lowered to it, and each share's sharing at the value with the most headroom;
    /// whether anything changed.
    fn tidy(&mut self) -> Result<bool, Stop> {
        let mut changed = false;
        // A quota above its type's whole capacity, lowered to it when that keeps every
        // objective (for a RESERVE share it changes nothing; a lender's quota is its share of
        // the pool, so it is run).
        for t in 0..self.st.space.types.len() {
            let cap = self.st.space.capacity_of(&self.cur, t);
            for qd in self.st.space.quotas_of(t) {
                let d = &self.st.space.dims[qd];
                if d.int(self.cur[qd] as usize) <= cap {
                    continue;
                }
                let Some(i) = (0..d.values.len()).rev().find(|&i| d.int(i) <= cap) else { continue };
                let c = Self::with(&self.cur, qd, i);
                if self.one(&c)? {
                    self.cur = c;
                    changed = true;
                }
            }
        }
        // Each share's sharing: the most headroom (the largest tightest slack) among the
        // ladder's values that keep every objective, the least permissive on a tie.
        for sd in self.sharing_dims() {
            let here = self.cur[sd] as usize;
            let cs: Vec<Config> =
                (0..self.st.space.dims[sd].values.len()).map(|i| Self::with(&self.cur, sd, i)).collect();
            let ok = self.eval(&cs)?;
            let mut pick = here;
            let mut room = self.room(&cs[here]);
            for (i, c) in cs.iter().enumerate() {
                let r = self.room(c);
                if ok[i] && (r > room || (r == room && i < pick)) {
                    pick = i;
                    room = r;
                }
            }
            if pick != here {
                self.cur = cs[pick].clone();
                changed = true;
            }
        }
        Ok(changed)
    }

    /// Step 1's repairs, in order; the first that meets every objective becomes the start.
    fn repairs(&self, start: &Config) -> Vec<Config> {
        let sp = &self.st.space;
        let open = |c: &Config| {
            let mut o = c.clone();
            for (d, dim) in sp.dims.iter().enumerate() {
                if matches!(dim.kind, Kind::Sharing { .. }) {
                    o[d] = (dim.values.len() - 1) as u32;
                }
            }
            o
        };
        let scaled = |f: i64| {
            let mut o = start.clone();
            for (d, dim) in sp.dims.iter().enumerate() {
                if matches!(dim.kind, Kind::Quota { .. }) {
                    let want = dim.int(start[d] as usize).saturating_mul(f);
                    o[d] = (0..dim.values.len()).rev().find(|&i| dim.int(i) <= want).unwrap_or(0) as u32;
                }
            }
            for (d, dim) in sp.dims.iter().enumerate() {
                if let Kind::Capacity { t } = dim.kind {
                    let want = self.sum_quotas(&o, t);
                    o[d] = (0..dim.values.len()).rev().find(|&i| dim.int(i) <= want).unwrap_or(0) as u32;
                }
            }
            o
        };
        let mut out = alloc::vec![open(start)];
        for f in [2, 4, 8] {
            let s = scaled(f);
            out.push(open(&s));
            out.insert(out.len() - 1, s);
        }
        let mut top = start.clone();
        for (d, dim) in sp.dims.iter().enumerate() {
            if matches!(dim.kind, Kind::Quota { .. } | Kind::Capacity { .. }) {
                top[d] = (dim.values.len() - 1) as u32;
            }
        }
        out.push(open(&top));
        let mut seen = BTreeSet::new();
        out.retain(|c| c != start && seen.insert(c.clone()));
        out
    }

    fn search(&mut self) -> Result<(), Stop> {
        let sp = &self.st.space;
        self.state.input = sp.input();
        let default_cost = self.st.opts.minimize.is_none();
        let start = if default_cost { self.normalized(&self.state.input) } else { self.state.input.clone() };
        self.cur = start.clone();
        if !self.one(&start)? {
            let mut found = false;
            for c in self.repairs(&start) {
                if self.one(&c)? {
                    self.cur = c;
                    found = true;
                    break;
                }
            }
            if !found {
                return Ok(());
            }
        } else if default_cost {
            self.open()?;
        }
        self.state.best = Some(self.cur.clone());
        if default_cost {
            // Two descents, the shares taken in order and in reverse: the first share lowered
            // tends to borrow what the others lend, and which share should borrow is what the
            // answer depends on. The cheaper end goes on (the first on a tie).
            let opened = self.cur.clone();
            while self.pass(false)? {}
            let forward = core::mem::replace(&mut self.cur, opened);
            self.reverse = true;
            while self.pass(false)? {}
            self.reverse = false;
            let sp = &self.st.space;
            if sp.capacity_per_hour(&forward) <= sp.capacity_per_hour(&self.cur) {
                self.cur = forward;
            }
            self.state.best = Some(self.cur.clone());
            if self.tidy()? {
                self.state.best = Some(self.cur.clone());
            }
            loop {
                while self.pass(false)? {
                    self.state.best = Some(self.cur.clone());
                }
                if self.pass(true)? {
                    self.state.best = Some(self.cur.clone());
                    continue;
                }
                self.state.certificate = core::mem::take(&mut self.pass_steps);
                break;
            }
        } else {
            while self.pattern_pass()? {
                self.state.best = Some(self.cur.clone());
            }
            self.state.certificate = core::mem::take(&mut self.pass_steps);
        }
        self.state.proven = true;
        // Sensitivity: every other value of each sharing and added dimension, at the answer.
        let mut cs = Vec::new();
        for (d, dim) in self.st.space.dims.iter().enumerate() {
            if matches!(dim.kind, Kind::Sharing { .. } | Kind::Other) {
                for i in 0..dim.values.len() {
                    if i != self.cur[d] as usize {
                        cs.push((d, Self::with(&self.cur, d, i)));
                    }
                }
            }
        }
        let batch: Vec<Config> = cs.iter().map(|x| x.1.clone()).collect();
        match self.eval(&batch) {
            Ok(_) => self.state.sensitivity = cs,
            Err(Stop::Budget) => {}
            Err(e) => return Err(e),
        }
        Ok(())
    }

    /// One pass of the pattern search (`--minimize`); whether it improved the answer.
    fn pattern_pass(&mut self) -> Result<bool, Stop> {
        self.pass_steps.clear();
        let mut moved = false;
        let dims = self.st.space.dims.len();
        for d in 0..dims {
            let dim = &self.st.space.dims[d];
            let n = dim.values.len();
            if n <= 1 {
                continue;
            }
            let numeric = dim.values.iter().all(|v| v.is_number());
            if numeric {
                for dir in [-1i64, 1] {
                    let mut step = 1i64;
                    loop {
                        let i = self.cur[d] as i64 + dir * step;
                        if i < 0 || i >= n as i64 {
                            break;
                        }
                        let c = Self::with(&self.cur, d, i as usize);
                        let ok = self.one(&c)?;
                        if step == 1 {
                            self.pass_steps.push(CertStep { tries: alloc::vec![c.clone()] });
                        }
                        if ok && self.better(&c) {
                            self.cur = c;
                            moved = true;
                            step *= 2;
                        } else {
                            break;
                        }
                    }
                }
            } else {
                let cs: Vec<Config> = (0..n)
                    .filter(|&i| i != self.cur[d] as usize)
                    .map(|i| Self::with(&self.cur, d, i))
                    .collect();
                let ok = self.eval(&cs)?;
                for c in &cs {
                    self.pass_steps.push(CertStep { tries: alloc::vec![c.clone()] });
                }
                let mut best: Option<usize> = None;
                for (k, c) in cs.iter().enumerate() {
                    if ok[k] && self.better(c) && best.is_none_or(|b| self.less(c, &cs[b])) {
                        best = Some(k);
                    }
                }
                if let Some(b) = best {
                    self.cur = cs[b].clone();
                    moved = true;
                }
            }
        }
        Ok(moved)
    }

    /// A candidate's headroom: its tightest objective's slack (medians over the seeds), or
    /// infinity when no objective has a value.
    fn room(&self, c: &Config) -> f64 {
        self.st.runs.get(c).map_or(f64::NEG_INFINITY, |e| self.st.tightest_slack(e))
    }

    fn less(&self, a: &Config, b: &Config) -> bool {
        match (self.cost(a), self.cost(b)) {
            (Some(x), Some(y)) => x < y,
            (Some(_), None) => true,
            _ => false,
        }
    }

    fn better(&self, c: &Config) -> bool {
        let cur = self.cur.clone();
        self.less(c, &cur)
    }
}
