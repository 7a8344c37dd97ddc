//! Kaplan-Meier estimates of how long jobs train, from observed durations of which some are
//! censored (still running when observed: they trained at least that long), and draws from
//! them conditioned on what a job has already trained.

use alloc::vec::Vec;

/// A survival curve: after each distinct observed end `t`, the probability of training longer.
#[derive(Clone, Debug, PartialEq)]
pub struct KaplanMeier {
    /// `(t, S(t))` for each distinct uncensored duration, ascending; `S` is non-increasing.
    steps: Vec<(u64, f64)>,
    /// Observations behind it (censored ones included).
    samples: usize,
    /// The largest duration observed (censored ones included).
    largest: u64,
}

/// A draw's outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Draw {
    /// A duration from the curve.
    Seconds(u64),
    /// The draw fell beyond the curve's last step (its tail is censored): the caller falls
    /// back.
    BeyondLargest,
}

impl KaplanMeier {
    /// The estimate from `(duration, censored)` observations, in any order.
    pub fn new(observations: &[(u64, bool)]) -> Self {
        let mut obs: Vec<(u64, bool)> = observations.to_vec();
        // At a tie, ends come before censorings: a job censored at t was at risk at t.
        obs.sort_unstable_by_key(|&(t, censored)| (t, censored));
        let mut steps = Vec::new();
        let mut at_risk = obs.len();
        let mut s = 1.0;
        let mut i = 0;
        while i < obs.len() {
            let t = obs[i].0;
            let (mut ended, mut gone) = (0usize, 0usize);
            while i < obs.len() && obs[i].0 == t {
                ended += usize::from(!obs[i].1);
                gone += 1;
                i += 1;
            }
            if ended > 0 {
                s *= 1.0 - ended as f64 / at_risk as f64;
                steps.push((t, s));
            }
            at_risk -= gone;
        }
        let largest = obs.last().map_or(0, |o| o.0);
        KaplanMeier { steps, samples: obs.len(), largest }
    }

    /// Observations behind the estimate.
    pub fn samples(&self) -> usize {
        self.samples
    }

    /// The largest duration observed.
    pub fn largest(&self) -> u64 {
        self.largest
    }

    /// `S(t)`: the estimated probability of training longer than `t`.
    pub fn survival(&self, t: u64) -> f64 {
        let k = self.steps.partition_point(|&(x, _)| x <= t);
        if k == 0 {
            1.0
        } else {
            self.steps[k - 1].1
        }
    }

    /// A duration longer than `trained`, by inverse transform of `u` in (0, 1]: the first
    /// step after `trained` whose survival is at most `u * S(trained)`, so that
    /// `P(D > t | D > trained) = S(t) / S(trained)`.
    pub fn draw_beyond(&self, trained: u64, u: f64) -> Draw {
        let base = self.survival(trained);
        if base <= 0.0 {
            return Draw::BeyondLargest;
        }
        let target = u * base;
        let from = self.steps.partition_point(|&(x, _)| x <= trained);
        self.steps[from..]
            .iter()
            .find(|&&(_, s)| s <= target)
            .map_or(Draw::BeyondLargest, |&(t, _)| Draw::Seconds(t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_censoring_it_is_the_empirical_distribution() {
        let km = KaplanMeier::new(&[(30, false), (10, false), (20, false), (40, false)]);
        assert_eq!(km.survival(5), 1.0);
        assert_eq!(km.survival(10), 0.75);
        assert_eq!(km.survival(25), 0.5);
        assert_eq!(km.survival(40), 0.0);
        assert_eq!(km.draw_beyond(0, 1.0), Draw::Seconds(10));
        assert_eq!(km.draw_beyond(0, 0.5), Draw::Seconds(20));
        assert_eq!(km.draw_beyond(0, 0.01), Draw::Seconds(40));
        // Conditioned on more than 20 s trained: 30 or 40, each half the time.
        assert_eq!(km.draw_beyond(20, 0.9), Draw::Seconds(30));
        assert_eq!(km.draw_beyond(20, 0.5), Draw::Seconds(30));
        assert_eq!(km.draw_beyond(20, 0.4), Draw::Seconds(40));
        assert_eq!(km.draw_beyond(40, 0.4), Draw::BeyondLargest);
    }

    #[test]
    fn censored_observations_count_at_risk_until_they_leave() {
        // 10 ends (1 of 4 at risk), 20 is censored, 30 ends (1 of 2 at risk), 40 censored.
        let km = KaplanMeier::new(&[(10, false), (20, true), (30, false), (40, true)]);
        assert_eq!(km.survival(10), 0.75);
        assert_eq!(km.survival(30), 0.375);
        assert_eq!((km.samples(), km.largest()), (4, 40));
        // The curve stops at 0.375: a draw below it is beyond what was seen.
        assert_eq!(km.draw_beyond(0, 0.2), Draw::BeyondLargest);
        assert_eq!(km.draw_beyond(0, 0.6), Draw::Seconds(30));
        // A censored tie at an end is at risk at that end.
        let tie = KaplanMeier::new(&[(10, true), (10, false)]);
        assert_eq!(tie.survival(10), 0.5);
    }
}
