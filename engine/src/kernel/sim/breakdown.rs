//! R12, R17, R21, R22: the wait breakdown: every job's time `RUNNABLE` split by the cause that
//! held it ([`WaitCause`]), kept as the run goes.
//!
//! A share's queued jobs wait for one of three things at any instant: the share's front job
//! (R16) waits for its R17 cause, its waiting preemptor (R21) for its victims, and every other
//! queued job is `behind` (R12), or `misconfiguration` if it can never run (R17). So only
//! changes matter: a share's front job and its cause are looked at again after an instant
//! only when the share's queue, its first job's type (the ledger marks it), its waiting
//! preemptor or the configuration changed (sets of shares, so an instant costs nothing for
//! the others), and each change closes a *segment* (job, cause, since). Closed
//! segments go to a per-job list of records, sparse (most jobs have one or two causes besides
//! `behind`), and to per-share totals. `behind` is never stored: it is the job's time
//! `RUNNABLE` (from its attempts) less its other causes, and per share the queued
//! job-seconds (integrated here) less the share's other causes. The cause of an instant's
//! interval is the one the state after that instant's passes gives (what a result read at
//! that instant shows), until the next instant.

use alloc::collections::BTreeMap;
use alloc::vec;
use alloc::vec::Vec;

use crate::chunked::Chunked;
use crate::reasons::WaitCause;
use crate::scenario::{JobId, ShareId};

use super::arith::mul_wide;
use super::jobs::Link;
use super::share_set::ShareSet;

/// Seconds per cause, in [`WaitCause::ALL`] order.
pub(crate) type BySecs = [u64; 9];

/// A job whose time goes to a cause other than `behind` since `since`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Seg {
    pub job: JobId,
    pub cause: WaitCause,
    pub since: u64,
}

/// Closed time of one job for one cause, linked to the job's previous record.
#[derive(Clone, Copy, Debug)]
struct Rec {
    secs: u64,
    next: Link,
    cause: WaitCause,
}

/// What a share's front and preemptor wait for now: at most two jobs (R16's front job, and
/// the share's waiting preemptor when that is another job, R21).
pub(crate) type Holders = [Option<(JobId, WaitCause)>; 2];

/// The wait breakdown's state. See the module documentation.
#[derive(Clone, Debug)]
pub(crate) struct Breakdown {
    /// Per job: its latest record.
    heads: Vec<Link>,
    recs: Chunked<Rec>,
    /// Per share: its open segments (front job, waiting preemptor).
    segs: Vec<[Option<Seg>; 2]>,
    /// Queued jobs that can never run (R17), since when.
    misconf: BTreeMap<JobId, u64>,
    /// Per share: closed seconds by cause (`behind` unused).
    share_secs: Vec<[u128; 9]>,
    /// Per share: queued jobs now, queued job-seconds up to `last`, and `last`.
    queued: Vec<u64>,
    queued_secs: Vec<u128>,
    last: Vec<u64>,
    /// Shares whose queue changed since they were last looked at; every share.
    dirty: ShareSet,
    all: bool,
}

impl Breakdown {
    pub fn new(jobs: usize, shares: usize, start: u64) -> Self {
        Breakdown {
            heads: vec![Link::NONE; jobs],
            recs: Chunked::default(),
            segs: vec![[None, None]; shares],
            misconf: BTreeMap::new(),
            share_secs: vec![[0; 9]; shares],
            queued: vec![0; shares],
            queued_secs: vec![0; shares],
            last: vec![start; shares],
            dirty: ShareSet::EMPTY,
            all: true,
        }
    }

    /// Every share must be looked at after this instant (an action, `startAt`).
    pub fn mark_all(&mut self) {
        self.all = true;
    }

    /// Whether every share must be looked at, and else the shares whose queue changed.
    #[inline]
    pub fn to_look_at(&self) -> (bool, ShareSet) {
        (self.all, self.dirty)
    }

    /// After every share that needed it was looked at.
    pub fn looked(&mut self) {
        self.all = false;
        self.dirty = ShareSet::EMPTY;
    }

    fn integrate(&mut self, s: ShareId, now: u64) {
        let i = s.index();
        self.queued_secs[i] += mul_wide(self.queued[i], now - self.last[i]);
        self.last[i] = now;
    }

    /// Job `j` joins share `s`'s queue at `now`; `never` when it can never run (R17).
    pub fn enqueued(&mut self, j: JobId, s: ShareId, now: u64, never: bool, front_may_change: bool) {
        self.integrate(s, now);
        self.queued[s.index()] += 1;
        if never {
            self.misconf.insert(j, now);
        }
        if front_may_change {
            self.dirty.insert(s);
        }
    }

    /// Job `j` leaves share `s`'s queue at `now`.
    pub fn dequeued(&mut self, j: JobId, s: ShareId, now: u64) {
        self.integrate(s, now);
        self.queued[s.index()] -= 1;
        if !self.misconf.is_empty() {
            if let Some(since) = self.misconf.remove(&j) {
                self.add(j, s, WaitCause::Misconfiguration, now - since);
            }
        }
        self.dirty.insert(s);
    }

    /// R17 after a configuration change: queued job `j` of share `s` can (`never`) or can
    /// again (`!never`) never run, from `now`.
    pub fn set_never(&mut self, j: JobId, s: ShareId, now: u64, never: bool) {
        match (never, self.misconf.contains_key(&j)) {
            (true, false) => {
                self.misconf.insert(j, now);
            }
            (false, true) => {
                let since = self.misconf.remove(&j).unwrap_or(now);
                self.add(j, s, WaitCause::Misconfiguration, now - since);
            }
            _ => {}
        }
    }

    /// Share `s` looked at `now`: who waits for what. Segments that no longer hold close;
    /// new ones open.
    pub fn set_holders(&mut self, s: ShareId, now: u64, new: Holders) {
        let i = s.index();
        let old = self.segs[i];
        if old.iter().zip(new.iter()).all(|(o, n)| o.map(|o| (o.job, o.cause)) == *n) {
            return;
        }
        let mut segs = [None, None];
        for (k, n) in new.iter().enumerate() {
            if let Some((job, cause)) = *n {
                let kept = old.iter().flatten().find(|o| o.job == job && o.cause == cause);
                segs[k] = Some(kept.copied().unwrap_or(Seg { job, cause, since: now }));
            }
        }
        for o in old.iter().flatten() {
            if !segs.iter().flatten().any(|x| x == o) {
                self.add(o.job, s, o.cause, now - o.since);
            }
        }
        self.segs[i] = segs;
    }

    /// Adds `secs` of `cause` to job `j` of share `s`.
    fn add(&mut self, j: JobId, s: ShareId, cause: WaitCause, secs: u64) {
        if secs == 0 {
            return;
        }
        self.share_secs[s.index()][cause as usize] += secs as u128;
        let mut r = self.heads[j.index()];
        while let Some(k) = r.get() {
            let rec = self.recs.get_mut(k as usize);
            if rec.cause == cause {
                rec.secs += secs;
                return;
            }
            r = rec.next;
        }
        let next = self.heads[j.index()];
        let k = self.recs.push(Rec { secs, next, cause });
        self.heads[j.index()] = Link::to(k as u32);
    }

    /// Job `j` of share `s`, `RUNNABLE` for `total` seconds up to `now`: its seconds by
    /// cause, `behind` the rest.
    pub fn of_job(&self, j: JobId, s: ShareId, now: u64, total: u64) -> BySecs {
        let mut out = [0u64; 9];
        let mut r = self.heads[j.index()];
        while let Some(k) = r.get() {
            let rec = self.recs.get(k as usize);
            out[rec.cause as usize] += rec.secs;
            r = rec.next;
        }
        for seg in self.segs[s.index()].iter().flatten().filter(|x| x.job == j) {
            out[seg.cause as usize] += now - seg.since;
        }
        if let Some(since) = self.misconf.get(&j) {
            out[WaitCause::Misconfiguration as usize] += now - since;
        }
        let known: u64 = out.iter().sum();
        debug_assert!(known <= total, "job {j}: {known} s of causes in {total} s RUNNABLE");
        out[WaitCause::Behind as usize] = total.saturating_sub(known);
        out
    }

    /// Every share's seconds by cause up to `now`, summed over its jobs; `share_of` gives a
    /// job's share. Sums above `u64` saturate (the run's sum check reports them).
    pub fn of_shares(&self, now: u64, share_of: impl Fn(JobId) -> ShareId) -> Vec<[u128; 9]> {
        let mut out = self.share_secs.clone();
        for (i, segs) in self.segs.iter().enumerate() {
            for seg in segs.iter().flatten() {
                out[i][seg.cause as usize] += (now - seg.since) as u128;
            }
        }
        for (&j, &since) in &self.misconf {
            out[share_of(j).index()][WaitCause::Misconfiguration as usize] += (now - since) as u128;
        }
        for (i, o) in out.iter_mut().enumerate() {
            let total = self.queued_secs[i] + self.queued[i] as u128 * (now - self.last[i]) as u128;
            let known: u128 = o.iter().sum();
            debug_assert!(known <= total, "share {i}: {known} s of causes in {total} s queued");
            o[WaitCause::Behind as usize] = total.saturating_sub(known);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_close_into_sparse_records_and_behind_is_the_rest() {
        let mut b = Breakdown::new(3, 1, 0);
        b.enqueued(JobId(0), ShareId(0), 0, false, true);
        b.enqueued(JobId(1), ShareId(0), 0, false, false);
        b.set_holders(ShareId(0), 0, [None, Some((JobId(0), WaitCause::QuotaUsed))]);
        // Same holder and cause: nothing closes.
        b.set_holders(ShareId(0), 5, [None, Some((JobId(0), WaitCause::QuotaUsed))]);
        b.set_holders(ShareId(0), 10, [None, Some((JobId(0), WaitCause::Pool))]);
        b.dequeued(JobId(0), ShareId(0), 30);
        b.set_holders(ShareId(0), 30, [None, Some((JobId(1), WaitCause::Pool))]);
        let a = b.of_job(JobId(0), ShareId(0), 40, 30);
        assert_eq!(a[WaitCause::QuotaUsed as usize], 10);
        assert_eq!(a[WaitCause::Pool as usize], 20);
        assert_eq!(a[WaitCause::Behind as usize], 0);
        let c = b.of_job(JobId(1), ShareId(0), 40, 40);
        assert_eq!(c[WaitCause::Behind as usize], 30, "behind job 0 until it left");
        assert_eq!(c[WaitCause::Pool as usize], 10, "its own open segment");
        let s = b.of_shares(40, |_| ShareId(0));
        assert_eq!(s[0][WaitCause::QuotaUsed as usize], 10);
        assert_eq!(s[0][WaitCause::Pool as usize], 30);
        assert_eq!(s[0][WaitCause::Behind as usize], 30);
    }

    #[test]
    fn r17_a_queued_job_that_can_never_run_counts_misconfiguration_until_it_can() {
        let mut b = Breakdown::new(2, 1, 0);
        b.enqueued(JobId(0), ShareId(0), 0, true, true);
        b.set_never(JobId(0), ShareId(0), 25, false);
        b.set_never(JobId(0), ShareId(0), 25, false);
        let a = b.of_job(JobId(0), ShareId(0), 40, 40);
        assert_eq!(a[WaitCause::Misconfiguration as usize], 25);
        assert_eq!(a[WaitCause::Behind as usize], 15);
    }
}
