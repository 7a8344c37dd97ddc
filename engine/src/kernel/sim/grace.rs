//! R21: preemptions in progress. The preemption log (every victim's preemption, in decision
//! order, with the instances its preemptor's earmark was credited with), and the earmarks of
//! waiting preemptors: which share each blocks, when its victims release, whether that time
//! came. [`Grace`] keeps this bookkeeping; the orchestrator executes plans, releases victims
//! and dispatches preemptors, and moves capacity in the ledger.

use alloc::vec;
use alloc::vec::Vec;

use crate::result::PreemptionKind;
use crate::scenario::{JobId, ShareId, TypeId};

use super::share_set::ShareSet;

/// A record of one victim's preemption, kept for explanations and R24 events.
#[derive(Clone, Debug, PartialEq)]
pub struct PreemptionRecord {
    /// The job told to stop.
    pub victim: JobId,
    /// The job it makes room for (none when a lowered limit preempts it, R23).
    pub preemptor: Option<JobId>,
    /// Why (R18, R20, R22/R23).
    pub kind: PreemptionKind,
    /// When it was told to stop (`Preemption Started`).
    pub decided_at: u64,
    /// When its grace period ends (`Preemption Completed`).
    pub releases_at: u64,
    /// The victim's `preemptedAttemptCount`, this preemption included.
    pub count: u32,
    /// Training lost (R8), in seconds.
    pub lost: u64,
    /// Candidates in the order R19/R20 considered them (the first few).
    pub considered: Vec<JobId>,
    /// The preemptor's earmark (R21), in instances.
    pub earmarked: u64,
}

/// A waiting preemptor's earmark (R21).
#[derive(Clone, Debug)]
pub(crate) struct Earmark {
    pub(crate) job: JobId,
    pub(crate) share: ShareId,
    pub(crate) ty: TypeId,
    pub(crate) n: u64,
    pub(crate) victims: Vec<JobId>,
    /// When the victims release (R21).
    pub(crate) due: u64,
    /// Its victims have released: the timer at `due` fired, after their releases.
    pub(crate) matured: bool,
    pub(crate) live: bool,
}

/// An earmark that lapsed: what it held, and the victims still in their grace.
pub(crate) struct Lapsed {
    pub share: ShareId,
    pub ty: TypeId,
    pub n: u64,
    pub victims: Vec<JobId>,
}

/// The preemption log and the earmarks. See the module documentation.
#[derive(Clone, Debug)]
pub(crate) struct Grace {
    earmarks: Vec<Earmark>,
    /// Per share: its waiting preemptor's earmark; the share is blocked meanwhile.
    by_share: Vec<Option<u32>>,
    /// Shares whose entry in `by_share` changed since [`Self::take_changed`] (the wait
    /// breakdown looks at them again).
    changed: ShareSet,
    log: Vec<PreemptionRecord>,
    /// Per log entry: instances of the victim committed to its preemptor's earmark while
    /// the victim is being preempted.
    credits: Vec<u64>,
}

impl Grace {
    pub fn new(shares: usize) -> Self {
        Grace {
            earmarks: Vec::new(),
            by_share: vec![None; shares],
            changed: ShareSet::EMPTY,
            log: Vec::new(),
            credits: Vec::new(),
        }
    }

    /// The preemption log, in decision order.
    pub fn log(&self) -> &[PreemptionRecord] {
        &self.log
    }

    /// Entry `k` of the log.
    pub fn record(&self, k: u32) -> &PreemptionRecord {
        &self.log[k as usize]
    }

    /// Logs a victim's preemption with its credit; returns its log entry.
    pub fn log_preemption(&mut self, rec: PreemptionRecord, credit: u64) -> u32 {
        let k = self.log.len() as u32;
        self.log.push(rec);
        self.credits.push(credit);
        k
    }

    /// Instances of log entry `k`'s victim its preemptor's earmark holds.
    pub fn credit(&self, k: u32) -> u64 {
        self.credits[k as usize]
    }

    /// A new earmark of `n` instances of type `t` for `job` of share `s`, its victims
    /// releasing at `due`; the share is blocked until it is used or lapses.
    pub fn earmark(&mut self, job: JobId, s: ShareId, t: TypeId, n: u64, due: u64) -> u32 {
        let id = self.earmarks.len() as u32;
        self.earmarks.push(Earmark {
            job,
            share: s,
            ty: t,
            n,
            victims: Vec::new(),
            due,
            matured: false,
            live: true,
        });
        self.by_share[s.index()] = Some(id);
        self.changed.insert(s);
        id
    }

    /// Victim `v` is one of earmark `id`'s.
    pub fn add_victim(&mut self, id: u32, v: JobId) {
        self.earmarks[id as usize].victims.push(v);
    }

    /// Earmark `id`.
    pub fn get(&self, id: u32) -> &Earmark {
        &self.earmarks[id as usize]
    }

    /// The number of earmarks kept (live ones, and those that lapsed since the last
    /// [`Self::compact`]).
    pub fn len(&self) -> usize {
        self.earmarks.len()
    }

    /// The earmark blocking share `s`, if its preemptor waits.
    #[inline]
    pub fn of_share(&self, s: ShareId) -> Option<u32> {
        self.by_share[s.index()]
    }

    /// Share `s`'s waiting preemptor.
    pub fn waiting_preemptor(&self, s: ShareId) -> Option<JobId> {
        self.of_share(s).map(|e| self.earmarks[e as usize].job)
    }

    /// Live earmarks, in decision order.
    pub fn live(&self) -> Vec<u32> {
        (0..self.earmarks.len() as u32).filter(|&i| self.earmarks[i as usize].live).collect()
    }

    /// Whether a live earmark's victims release at `at` (its timer still applies, R10).
    pub fn due_at(&self, at: u64) -> bool {
        self.earmarks.iter().any(|e| e.live && e.due == at)
    }

    /// The victims of the live earmarks due at `now` have released: the next pass acts on
    /// those earmarks.
    pub fn mature(&mut self, now: u64) {
        for e in self.earmarks.iter_mut().filter(|e| e.live && e.due == now) {
            e.matured = true;
        }
    }

    /// Earmark `id` lapses (it is used, or no longer applies): returns what it held and its
    /// victims, unless it had lapsed already.
    pub fn lapse(&mut self, id: u32) -> Option<Lapsed> {
        let e = &mut self.earmarks[id as usize];
        if !e.live {
            return None;
        }
        e.live = false;
        let lapsed = Lapsed { share: e.share, ty: e.ty, n: e.n, victims: core::mem::take(&mut e.victims) };
        if self.by_share[lapsed.share.index()] == Some(id) {
            self.by_share[lapsed.share.index()] = None;
            self.changed.insert(lapsed.share);
        }
        Some(lapsed)
    }

    /// The credit of log entry `k` goes back to its victim (its earmark lapsed); returns it.
    pub fn take_back_credit(&mut self, k: u32) -> u64 {
        core::mem::take(&mut self.credits[k as usize])
    }

    /// The shares whose waiting preemptor changed since the last call.
    pub fn take_changed(&mut self) -> ShareSet {
        core::mem::take(&mut self.changed)
    }

    /// Drops the earmarks that lapsed, keeping decision order (the ids change, not the
    /// preemptors).
    pub fn compact(&mut self) {
        self.earmarks.retain(|e| e.live);
        self.by_share.iter_mut().for_each(|x| *x = None);
        for (i, e) in self.earmarks.iter().enumerate() {
            self.by_share[e.share.index()] = Some(i as u32);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(victim: JobId) -> PreemptionRecord {
        PreemptionRecord {
            victim,
            preemptor: Some(JobId(9)),
            kind: PreemptionKind::CrossShare,
            decided_at: 0,
            releases_at: 120,
            count: 1,
            lost: 0,
            considered: Vec::new(),
            earmarked: 2,
        }
    }

    #[test]
    fn r21_an_earmark_blocks_its_share_until_it_lapses() {
        let mut g = Grace::new(2);
        let id = g.earmark(JobId(9), ShareId(1), TypeId(0), 2, 120);
        let k = g.log_preemption(rec(JobId(4)), 2);
        g.add_victim(id, JobId(4));
        assert_eq!(
            (g.waiting_preemptor(ShareId(1)), g.waiting_preemptor(ShareId(0))),
            (Some(JobId(9)), None)
        );
        assert!(g.due_at(120) && !g.due_at(100));
        g.mature(100);
        assert!(!g.get(id).matured);
        g.mature(120);
        assert!(g.get(id).matured);
        assert_eq!(g.take_back_credit(k), 2);
        assert_eq!(g.credit(k), 0);
        let l = g.lapse(id).expect("live");
        assert_eq!((l.share, l.n, l.victims), (ShareId(1), 2, alloc::vec![JobId(4)]));
        assert!(g.lapse(id).is_none(), "lapses once");
        assert_eq!(g.waiting_preemptor(ShareId(1)), None);
        assert!(!g.due_at(120), "a lapsed earmark's timer no longer applies");
        g.compact();
        assert_eq!(g.len(), 0);
        assert_eq!(g.log().len(), 1);
    }
}
