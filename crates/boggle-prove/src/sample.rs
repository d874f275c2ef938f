//! A sample of groups drawn one at a time, to estimate a whole proof's
//! cost: from the strata the pre-pass made (`strata`), each group from the
//! stratum where it lowers the estimate's variance most per CPU-second
//! (`estimate`), until a stop rule says enough.
//!
//! The stop rules: a number of groups (`--sample K`), an interval within a
//! share of the estimate (`--precision P`), CPU time spent (`--budget`;
//! the process's, the pre-pass included, but two groups are drawn however
//! small it is, since fewer give no estimate), or every group drawn. They are checked before each draw; the groups in
//! hand then are finished and counted, since a group left out because it
//! ran long would leave out exactly the heavy groups the estimate needs.
//! Precision is judged only once every stratum has 3 (`MIN_PER_STRATUM`)
//! groups finished: a few cheap groups can look precise before the first
//! dear one is met.
//!
//! Limits: stopping when the interval first looks narrow favours samples
//! that have not met the tail yet; the minimum per stratum and the
//! interval (whose bootstrap-t side widens when the costs seen are few and
//! uneven, and whose log-normal side when they are few) are what stand
//! against it.

use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

use crate::estimate::{Interval, Stratified};
use crate::strata::Strata;

/// Groups each stratum must have finished before `--precision` may stop the sample.
pub(crate) const MIN_PER_STRATUM: usize = 3;

/// The confidence level of the intervals.
pub const LEVEL: f64 = 0.95;

/// Bootstrap resamples behind the reported interval and the precision check.
pub const RESAMPLES: usize = 2000;

/// When to stop drawing groups (any of them that is set).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Stops {
    /// At most this many groups.
    pub groups: Option<usize>,
    /// Once the interval's wider side is within this share of the estimate.
    pub precision: Option<f64>,
    /// Once the process has spent this many CPU seconds.
    pub budget: Option<f64>,
}

/// What stopped a sample.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Stopped {
    /// The number of groups asked for was drawn.
    Groups(usize),
    /// The interval came within the precision asked for.
    Precision(f64),
    /// The CPU budget was spent.
    Budget(f64),
    /// Every group was drawn.
    Everything,
}

/// How the interval is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// The stratified estimate with the span of the bootstrap-t and log-normal intervals.
    Stratified,
    /// One stratum and the estimate +- 1.96 standard errors, as if costs
    /// were normal: the estimate `--sample` gave before strata, kept to
    /// compare with.
    Simple,
}

/// Draws a sample's groups and keeps its estimate.
#[derive(Debug)]
pub struct Sampler {
    /// Each stratum's groups (indices into the proof's groups), shuffled.
    order: Vec<Vec<usize>>,
    /// Groups drawn from each stratum and not finished.
    pending: Vec<usize>,
    /// Groups drawn from each stratum.
    drawn: Vec<usize>,
    sample: Stratified,
    stops: Stops,
    stopped: Option<Stopped>,
    method: Method,
    seed: u64,
}

impl Sampler {
    /// A sampler over `strata`, drawing in an order `seed` fixes.
    pub fn new(strata: &Strata, stops: Stops, method: Method, seed: u64) -> Sampler {
        let mut order = vec![Vec::new(); strata.count];
        for (i, &h) in strata.of.iter().enumerate() {
            order[h].push(i);
        }
        let mut rng = StdRng::seed_from_u64(seed);
        for groups in &mut order {
            groups.shuffle(&mut rng);
        }
        Sampler {
            pending: vec![0; strata.count],
            drawn: vec![0; strata.count],
            sample: Stratified::new(&strata.sizes()),
            order,
            stops,
            stopped: None,
            method,
            seed,
        }
    }

    /// The next group to prove (its index and stratum), or `None` once a
    /// stop rule holds; `cpu` is the CPU time the process has spent.
    pub fn draw(&mut self, cpu: f64) -> Option<(usize, usize)> {
        if self.stopped.is_some() {
            return None;
        }
        let drawn: usize = self.drawn.iter().sum();
        self.stopped = match self.stops {
            Stops {
                groups: Some(k), ..
            } if drawn >= k => Some(Stopped::Groups(k)),
            // Two groups at least: fewer give no estimate at all.
            Stops {
                budget: Some(b), ..
            } if cpu >= b && drawn >= 2 => Some(Stopped::Budget(b)),
            _ => None,
        };
        if self.stopped.is_some() {
            return None;
        }
        let next = match self.method {
            Method::Stratified => self.sample.next_stratum(&self.pending),
            Method::Simple => (0..self.order.len()).find(|&h| self.drawn[h] < self.order[h].len()),
        };
        let Some(h) = next else {
            self.stopped = Some(Stopped::Everything);
            return None;
        };
        let group = self.order[h][self.drawn[h]];
        self.drawn[h] += 1;
        self.pending[h] += 1;
        Some((group, h))
    }

    /// Records a drawn group's cost; with `--precision`, stops the drawing
    /// once the interval is within it.
    pub fn finish(&mut self, stratum: usize, cost: f64) {
        if let Some(p) = self.pending.get_mut(stratum) {
            *p = p.saturating_sub(1);
        }
        self.sample.add(stratum, cost);
        let Some(precision) = self.stops.precision else {
            return;
        };
        if self.stopped.is_some() || !self.settled() {
            return;
        }
        if let Some((total, interval)) = self.estimate()
            && interval.relative_half_width(total) <= precision
        {
            self.stopped = Some(Stopped::Precision(precision));
        }
    }

    /// Whether every stratum has its minimum of groups finished (or all of them).
    fn settled(&self) -> bool {
        self.sample
            .strata()
            .iter()
            .all(|s| s.costs.len() >= MIN_PER_STRATUM.min(s.size as usize))
    }

    /// The estimated total and its interval, by this sampler's method;
    /// `None` before two groups finish. The bootstrap's resamples are drawn
    /// from the seed and the number of groups, so the same costs give the
    /// same interval.
    pub fn estimate(&self) -> Option<(f64, Interval)> {
        let (total, _) = self.sample.total()?;
        let interval = match self.method {
            Method::Simple => self.sample.normal_interval(LEVEL)?,
            Method::Stratified => {
                let mut rng = StdRng::seed_from_u64(
                    self.seed ^ (self.sample.sampled() as u64).wrapping_mul(0x9E37_79B9),
                );
                self.sample.interval(LEVEL, RESAMPLES, &mut rng)?
            }
        };
        Some((total, interval))
    }

    /// The costs so far, by stratum.
    pub fn sample(&self) -> &Stratified {
        &self.sample
    }

    /// Groups drawn from each stratum.
    #[cfg(test)]
    pub(crate) fn drawn(&self) -> &[usize] {
        &self.drawn
    }

    /// What stopped the drawing, if anything has.
    pub fn stopped(&self) -> Option<Stopped> {
        self.stopped
    }

    /// The method of the interval.
    pub fn method(&self) -> Method {
        self.method
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strata(of: &[usize]) -> Strata {
        Strata {
            of: of.to_vec(),
            count: of.iter().max().map_or(1, |m| m + 1),
            cpu: 0.0,
        }
    }

    #[test]
    fn a_sample_stops_at_its_count_or_its_budget() {
        let by_count = Stops {
            groups: Some(3),
            ..Stops::default()
        };
        let mut sampler = Sampler::new(&strata(&[0; 10]), by_count, Method::Simple, 1);
        let mut seen = Vec::new();
        while let Some((group, h)) = sampler.draw(0.0) {
            seen.push(group);
            sampler.finish(h, 1.0);
        }
        assert_eq!(seen.len(), 3);
        assert_eq!(sampler.stopped(), Some(Stopped::Groups(3)));
        let by_budget = Stops {
            budget: Some(5.0),
            ..Stops::default()
        };
        let mut sampler = Sampler::new(&strata(&[0; 10]), by_budget, Method::Simple, 1);
        let mut cpu = 0.0;
        while let Some((_, h)) = sampler.draw(cpu) {
            cpu += 2.0;
            sampler.finish(h, 2.0);
        }
        assert_eq!(sampler.sample().sampled(), 3, "2 + 2 + 2 passes 5");
        assert_eq!(sampler.stopped(), Some(Stopped::Budget(5.0)));
        // However small the budget, two groups are drawn.
        let mut sampler = Sampler::new(&strata(&[0; 10]), by_budget, Method::Simple, 1);
        assert!(sampler.draw(100.0).is_some() && sampler.draw(100.0).is_some());
        assert_eq!(sampler.draw(100.0), None);
    }

    #[test]
    fn every_group_is_drawn_once_and_the_estimate_is_then_exact() {
        let costs = [1.0, 2.0, 3.0, 40.0, 50.0, 60.0, 7.0];
        let of = [0, 0, 0, 1, 1, 1, 0];
        let mut sampler = Sampler::new(&strata(&of), Stops::default(), Method::Stratified, 7);
        let mut seen = Vec::new();
        while let Some((group, h)) = sampler.draw(0.0) {
            assert_eq!(of[group], h);
            seen.push(group);
            sampler.finish(h, costs[group]);
        }
        seen.sort_unstable();
        assert_eq!(seen, [0, 1, 2, 3, 4, 5, 6]);
        assert_eq!(sampler.stopped(), Some(Stopped::Everything));
        let (total, interval) = sampler.estimate().expect("an estimate");
        assert!((total - 163.0).abs() < 1e-9, "{total}");
        assert!((interval.low - 163.0).abs() < 1e-9 && (interval.high - 163.0).abs() < 1e-9);
    }

    #[test]
    fn precision_stops_the_sample_only_once_every_stratum_is_settled() {
        let stops = Stops {
            precision: Some(0.5),
            ..Stops::default()
        };
        // Costs 10 and 11 alternating in each stratum: precise at once.
        let of: Vec<usize> = (0..100).map(|i| i % 2).collect();
        let mut sampler = Sampler::new(&strata(&of), stops, Method::Stratified, 3);
        let mut n = 0;
        while let Some((_, h)) = sampler.draw(0.0) {
            n += 1;
            sampler.finish(h, 10.0 + (n % 2) as f64);
        }
        assert_eq!(sampler.stopped(), Some(Stopped::Precision(0.5)));
        assert_eq!(n, 2 * MIN_PER_STRATUM, "{:?}", sampler.drawn());
    }
}
