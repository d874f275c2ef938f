//! What a whole proof costs, estimated from the groups proved so far: a
//! stratified sample, its estimate of the total, intervals for it, and
//! where the next group is best drawn from.
//!
//! Groups fall into *strata* by what the pre-pass predicts of their cost
//! (`strata`). Within a stratum the groups proved are a simple random
//! sample without replacement, so the total is estimated stratum by
//! stratum: `T = sum over h of N_h * mean_h` (`N_h` groups in stratum `h`,
//! `mean_h` the mean cost of those sampled), with the variance
//! `sum of N_h^2 (1 - n_h/N_h) s_h^2 / n_h`. The finite-population factor
//! makes the same estimator serve a proof under way: the groups done are
//! the sample, and the total less their cost is the time left.
//!
//! Group costs are heavy-tailed (a few groups cost tens of times the
//! median), so an interval of the estimate plus or minus 1.96 standard
//! errors is too narrow, and on the wrong side: a sample that has not met
//! the tail has both a low mean and a low spread. The interval here is the
//! studentized (bootstrap-t) one: each stratum is resampled with
//! replacement, and the quantiles of `(T* - T) / se*` over the resamples
//! take the place of the normal's +-1.96. A low mean that comes with a low
//! spread makes a large `t`, so the interval reaches far above the estimate
//! when the sample is thin, and narrows as the tail is met.
//!
//! The bootstrap cannot see a tail in two or three costs a stratum (the
//! first pilot of a tight budget): resamples of two costs have three
//! means. So the interval reported is the span of the bootstrap-t one and
//! a log-normal one, the generalized pivotal interval for a log-normal
//! mean, whose spread of the logs is pooled over every stratum (on 4x4 the
//! logs' spread within a stratum is 0.8 to 1.2 in each): eight costs in
//! four strata then give that spread four degrees of freedom, and the
//! interval's top end follows how uncertain the spread is. The bootstrap-t
//! holds whatever the distribution once each stratum has met its tail; the
//! log-normal one holds for a thin sample as far as costs are log-normal;
//! the span is as wide as the wider of them on each side.
//!
//! Allocation: the next group goes to the stratum where one more group
//! lowers the variance most per CPU-second it is expected to cost, the
//! optimum for a sample whose units cost unequally (Neyman's allocation
//! `n_h ~ N_h S_h / sqrt(c_h)`, taken one group at a time); `S_h` is the
//! stratum's spread shrunk toward the pooled coefficient of variation
//! times its mean, since two or three heavy-tailed costs say little of it.
//!
//! Limits: a stratum with fewer than two groups sampled has no spread of
//! its own; it is pooled with its neighbour (strata are ordered by the
//! predicted cost) until every pool has two. An interval can only cover
//! what the sample has seen a trace of: a tail the sample never met is not
//! in it, and no method can put it there.

use rand::Rng;
use rand_distr::{ChiSquared, Distribution, StandardNormal};

/// One stratum: how many groups it holds and the costs of those sampled.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Stratum {
    /// Groups in the stratum (of the whole proof, or of those to do).
    pub size: u64,
    /// The CPU seconds of each group sampled from it.
    pub costs: Vec<f64>,
}

/// A stratified sample of group costs.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Stratified {
    strata: Vec<Stratum>,
}

/// A two-sided interval for a total.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    /// The low end.
    pub low: f64,
    /// The high end.
    pub high: f64,
}

impl Interval {
    /// The larger distance from `estimate` to either end, as a fraction of
    /// `estimate` (the interval need not be symmetric): what `--precision`
    /// compares with.
    pub fn relative_half_width(&self, estimate: f64) -> f64 {
        if estimate <= 0.0 {
            return f64::INFINITY;
        }
        (self.high - estimate).max(estimate - self.low) / estimate
    }

    /// Whether `value` is in the interval.
    pub fn covers(&self, value: f64) -> bool {
        self.low <= value && value <= self.high
    }

    /// The least interval holding both.
    pub(crate) fn span(&self, other: &Interval) -> Interval {
        Interval {
            low: self.low.min(other.low),
            high: self.high.max(other.high),
        }
    }
}

/// The standard normal's quantile at `p` (0 < p < 1), by Acklam's rational
/// approximation refined by one Newton step (error under 1e-9).
pub(crate) fn normal_quantile(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] = [
        7.784_695_709_041_462e-3,
        3.224_671_290_700_398e-1,
        2.445_134_137_142_996,
        3.754_408_661_907_416,
    ];
    let p = p.clamp(1e-300, 1.0 - 1e-16);
    let tail = |q: f64| {
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    let x = if p < 0.02425 {
        tail((-2.0 * p.ln()).sqrt())
    } else if p > 1.0 - 0.02425 {
        -tail((-2.0 * (1.0 - p).ln()).sqrt())
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    };
    // One Newton step on the normal's distribution function.
    let e = 0.5 * erfc(-x / std::f64::consts::SQRT_2) - p;
    let u = e * (2.0 * std::f64::consts::PI).sqrt() * (x * x / 2.0).exp();
    x - u / (1.0 + x * u / 2.0)
}

/// The complementary error function (Numerical Recipes' `erfcc`, relative
/// error under 1.2e-7, enough for one Newton step of the quantile).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

/// The mean and the sample variance (n - 1 in the denominator; 0 for fewer than two).
fn mean_var(values: &[f64]) -> (f64, f64) {
    let n = values.len();
    if n == 0 {
        return (0.0, 0.0);
    }
    let mean = values.iter().sum::<f64>() / n as f64;
    if n < 2 {
        return (mean, 0.0);
    }
    let ss = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>();
    (mean, ss / (n - 1) as f64)
}

/// The `q` quantile (0 to 1) of sorted `values`, interpolated linearly.
fn quantile(sorted: &[f64], q: f64) -> f64 {
    match sorted.len() {
        0 => f64::NAN,
        1 => sorted[0],
        n => {
            let at = q.clamp(0.0, 1.0) * (n - 1) as f64;
            let (i, frac) = (at.floor() as usize, at.fract());
            let next = sorted[(i + 1).min(n - 1)];
            sorted[i] + frac * (next - sorted[i])
        }
    }
}

/// One pool of strata for the estimate: their groups together and their
/// costs (a stratum with two or more costs is a pool alone).
#[derive(Debug, Clone, Default)]
struct Pool {
    size: u64,
    costs: Vec<f64>,
}

impl Pool {
    /// This pool's share of the total and of its variance, from `costs`
    /// (the pool's own or a resample of them). With `cv2`, the variance
    /// is shrunk toward `cv2 * mean^2` as [`shrunk_variance`] does.
    fn total_var(&self, costs: &[f64], cv2: Option<f64>) -> (f64, f64) {
        let n = costs.len() as f64;
        let size = self.size as f64;
        let (mean, var) = mean_var(costs);
        let var = cv2.map_or(var, |cv2| shrunk_variance(costs.len(), mean, var, cv2));
        let fpc = (1.0 - n / size).max(0.0);
        (size * mean, size * size * fpc * var / n)
    }
}

/// A stratum's variance from `m` costs of this `mean` and sample variance,
/// shrunk toward `cv2 * mean^2` as if [`SHRINK`] more groups had shown the
/// pooled coefficient of variation: two or three heavy-tailed costs say
/// little of their stratum's spread (two equal ones would say it has none).
fn shrunk_variance(m: usize, mean: f64, var: f64, cv2: f64) -> f64 {
    let own = m.saturating_sub(1) as f64;
    (own * var + SHRINK * cv2 * mean * mean) / (own + SHRINK)
}

/// The squared coefficient of variation within groups of costs, pooled
/// over those with two or more costs and a mean above zero (1 with none).
fn pooled_cv2<'a>(groups: impl IntoIterator<Item = &'a [f64]>) -> f64 {
    let (mut sum, mut weight) = (0.0, 0.0);
    for costs in groups {
        let m = costs.len();
        let (mean, var) = mean_var(costs);
        if m >= 2 && mean > 0.0 {
            sum += (m - 1) as f64 * var / (mean * mean);
            weight += (m - 1) as f64;
        }
    }
    if weight > 0.0 { sum / weight } else { 1.0 }
}

/// Neyman's allocation of `n` draws to strata of `sizes` and spreads `sds`
/// (proportional to `size * sd`), each stratum at most its size, by the
/// largest remainders; strata of zero spread get none.
#[cfg(test)]
pub(crate) fn neyman(sizes: &[u64], sds: &[f64], n: usize) -> Vec<usize> {
    let weights: Vec<f64> = sizes
        .iter()
        .zip(sds)
        .map(|(&size, &sd)| size as f64 * sd.max(0.0))
        .collect();
    let mut shares = vec![0usize; sizes.len()];
    let mut left = n.min(
        sizes
            .iter()
            .zip(&weights)
            .filter(|&(_, &w)| w > 0.0)
            .map(|(&s, _)| s as usize)
            .sum(),
    );
    // Hand out whole shares; a stratum filled up passes its share on.
    while left > 0 {
        let open: Vec<usize> = (0..sizes.len())
            .filter(|&h| weights[h] > 0.0 && (shares[h] as u64) < sizes[h])
            .collect();
        let sum: f64 = open.iter().map(|&h| weights[h]).sum();
        if open.is_empty() || sum <= 0.0 {
            break;
        }
        let mut exact: Vec<(usize, f64)> = open
            .iter()
            .map(|&h| (h, left as f64 * weights[h] / sum))
            .collect();
        let mut given = 0;
        for &(h, share) in &exact {
            let room = (sizes[h] - shares[h] as u64) as usize;
            let whole = (share.floor() as usize).min(room);
            shares[h] += whole;
            given += whole;
        }
        if given == 0 {
            // The remainders: the largest first, one each.
            exact.sort_by(|a, b| b.1.fract().total_cmp(&a.1.fract()));
            for &(h, _) in exact.iter().take(left) {
                shares[h] += 1;
                given += 1;
            }
        }
        left -= given;
    }
    shares
}

impl Stratified {
    /// An empty sample from strata of these sizes.
    pub fn new(sizes: &[u64]) -> Stratified {
        Stratified {
            strata: sizes
                .iter()
                .map(|&size| Stratum {
                    size,
                    costs: Vec::new(),
                })
                .collect(),
        }
    }

    /// The strata.
    pub fn strata(&self) -> &[Stratum] {
        &self.strata
    }

    /// Adds `count` groups to stratum `h` (strata are made up to `h` as needed).
    pub(crate) fn add_groups(&mut self, h: usize, count: u64) {
        if self.strata.len() <= h {
            self.strata.resize(h + 1, Stratum::default());
        }
        self.strata[h].size += count;
    }

    /// Records a sampled group's cost in stratum `h` (ignored past the strata).
    pub fn add(&mut self, h: usize, cost: f64) {
        if let Some(stratum) = self.strata.get_mut(h) {
            stratum.costs.push(cost);
        }
    }

    /// Groups sampled.
    pub fn sampled(&self) -> usize {
        self.strata.iter().map(|s| s.costs.len()).sum()
    }

    /// CPU seconds of the groups sampled.
    pub fn spent(&self) -> f64 {
        // Folded from +0, not summed: a sum of nothing is -0 in Rust.
        self.strata
            .iter()
            .flat_map(|s| &s.costs)
            .fold(0.0, |a, c| a + c)
    }

    /// The strata pooled so that each pool has at least two costs: a
    /// stratum short of two joins the next one up (the last pool joins the
    /// one below). `None` with fewer than two costs in all.
    fn pools(&self) -> Option<Vec<Pool>> {
        if self.sampled() < 2 {
            return None;
        }
        let mut pools: Vec<Pool> = Vec::new();
        let mut open = Pool::default();
        for stratum in &self.strata {
            open.size += stratum.size;
            open.costs.extend_from_slice(&stratum.costs);
            if open.costs.len() >= 2 {
                pools.push(std::mem::take(&mut open));
            }
        }
        if open.size > 0 || !open.costs.is_empty() {
            match pools.last_mut() {
                Some(last) => {
                    last.size += open.size;
                    last.costs.extend(open.costs);
                }
                None => pools.push(open),
            }
        }
        Some(pools)
    }

    /// The estimated total and its variance; `None` with fewer than two costs.
    pub fn total(&self) -> Option<(f64, f64)> {
        let pools = self.pools()?;
        Some(pools.iter().fold((0.0, 0.0), |(t, v), pool| {
            let (pt, pv) = pool.total_var(&pool.costs, None);
            (t + pt, v + pv)
        }))
    }

    /// The estimate +- `z` standard errors for a two-sided `level` (the
    /// interval that assumes the estimate is normal), its low end at least
    /// the cost already seen.
    pub fn normal_interval(&self, level: f64) -> Option<Interval> {
        let (total, var) = self.total()?;
        let z = normal_quantile(0.5 + level / 2.0);
        let se = var.sqrt();
        Some(Interval {
            low: (total - z * se).max(self.spent()),
            high: total + z * se,
        })
    }

    /// The bootstrap-t interval of a two-sided `level` from `reps`
    /// resamples within each pool of strata (see the module's header), its
    /// low end at least the cost already seen. `None` with fewer than two costs.
    pub fn bootstrap_interval<R: Rng + ?Sized>(
        &self,
        level: f64,
        reps: usize,
        rng: &mut R,
    ) -> Option<Interval> {
        let pools = self.pools()?;
        let (total, _) = self.total()?;
        // Studentized with each pool's variance shrunk toward the pooled
        // coefficient of variation, in the sample and in every resample
        // alike: a resample of a few costs that repeats one of them would
        // otherwise have no spread and an infinite t.
        let cv2 = pooled_cv2(pools.iter().map(|p| p.costs.as_slice()));
        let studentizing = |costs: &mut dyn Iterator<Item = (&Pool, &[f64])>| {
            costs.fold((0.0, 0.0), |(t, v), (pool, costs)| {
                let (pt, pv) = pool.total_var(costs, Some(cv2));
                (t + pt, v + pv)
            })
        };
        let (_, var) = studentizing(&mut pools.iter().map(|p| (p, p.costs.as_slice())));
        let se = var.sqrt();
        if se <= 0.0 {
            return Some(Interval {
                low: total,
                high: total,
            });
        }
        let mut ts = Vec::with_capacity(reps);
        let mut resamples: Vec<Vec<f64>> = pools.iter().map(|p| p.costs.clone()).collect();
        for _ in 0..reps.max(1) {
            for (pool, resample) in pools.iter().zip(&mut resamples) {
                let n = pool.costs.len();
                for slot in resample.iter_mut() {
                    *slot = pool.costs[rng.random_range(0..n)];
                }
            }
            let (t, v) =
                studentizing(&mut pools.iter().zip(&resamples).map(|(p, r)| (p, r.as_slice())));
            ts.push(if v > 0.0 { (t - total) / v.sqrt() } else { 0.0 });
        }
        ts.sort_by(f64::total_cmp);
        let alpha = (1.0 - level) / 2.0;
        let (t_low, t_high) = (quantile(&ts, alpha), quantile(&ts, 1.0 - alpha));
        Some(Interval {
            low: (total - t_high * se).max(self.spent()),
            high: total - t_low * se,
        })
    }

    /// The interval the prover reports, of a two-sided `level`: the span
    /// of the bootstrap-t interval and the log-normal one (see the
    /// module's header), each from `reps` resamples. `None` with fewer than
    /// two costs.
    pub fn interval<R: Rng + ?Sized>(
        &self,
        level: f64,
        reps: usize,
        rng: &mut R,
    ) -> Option<Interval> {
        let boot = self.bootstrap_interval(level, reps, rng)?;
        Some(match self.lognormal_interval(level, reps, rng) {
            Some(lognormal) => boot.span(&lognormal),
            None => boot,
        })
    }

    /// The interval of a two-sided `level` if each pool's costs are
    /// log-normal, all with one spread of their logs: the generalized
    /// pivotal interval for a log-normal mean (Krishnamoorthy and Mathew),
    /// from `draws` draws of the pivot, with the logs' spread pooled over every pool, so
    /// that two costs a stratum still see a spread of some degrees of
    /// freedom. Each draw is the costs seen plus the groups not sampled at
    /// the drawn mean. `None` with fewer than two costs.
    pub fn lognormal_interval<R: Rng + ?Sized>(
        &self,
        level: f64,
        draws: usize,
        rng: &mut R,
    ) -> Option<Interval> {
        let pools = self.pools()?;
        let logs: Vec<Vec<f64>> = pools
            .iter()
            .map(|p| p.costs.iter().map(|c| c.max(TINY_COST).ln()).collect())
            .collect();
        let (mut squares, mut df) = (0.0, 0usize);
        let log_means: Vec<f64> = logs
            .iter()
            .map(|l| {
                let (mean, var) = mean_var(l);
                squares += var * l.len().saturating_sub(1) as f64;
                df += l.len().saturating_sub(1);
                mean
            })
            .collect();
        let chi = ChiSquared::new(df as f64).ok()?;
        // Each pool's costs seen, costs sampled and groups not sampled: the
        // same in every draw.
        let known: Vec<(f64, f64, f64)> = pools
            .iter()
            .map(|pool| {
                let n = pool.costs.len() as f64;
                let seen: f64 = pool.costs.iter().sum();
                (seen, n, (pool.size as f64 - n).max(0.0))
            })
            .collect();
        let mut totals: Vec<f64> = (0..draws.max(1))
            .map(|_| {
                let s2 =
                    (squares / chi.sample(rng).max(f64::MIN_POSITIVE)).min(SIGMA_MAX * SIGMA_MAX);
                known
                    .iter()
                    .zip(&log_means)
                    .map(|(&(seen, n, unsampled), &mu)| {
                        let z: f64 = rng.sample(StandardNormal);
                        let mean = (mu - z * (s2 / n).sqrt() + s2 / 2.0).exp();
                        seen + unsampled * mean
                    })
                    .sum()
            })
            .collect();
        totals.sort_by(f64::total_cmp);
        let alpha = (1.0 - level) / 2.0;
        Some(Interval {
            low: quantile(&totals, alpha),
            high: quantile(&totals, 1.0 - alpha),
        })
    }

    /// The stratum the next group is best drawn from: first the pilot, one
    /// group from each stratum in turn and then a second ([`PILOT`];
    /// `pending[h]` are drawn, not yet costed, and count as sampled), then
    /// the stratum where a group lowers the variance most per expected
    /// CPU-second. `None` once every group is drawn.
    pub(crate) fn next_stratum(&self, pending: &[usize]) -> Option<usize> {
        let drawn = |h: usize| self.strata[h].costs.len() + pending.get(h).copied().unwrap_or(0);
        let open: Vec<usize> = (0..self.strata.len())
            .filter(|&h| (drawn(h) as u64) < self.strata[h].size)
            .collect();
        // The pilot: one group from every stratum, cheapest first, then a
        // second: a tight budget meets every stratum, the dearest last.
        for level in 1..=PILOT {
            if let Some(&h) = open.iter().find(|&&h| drawn(h) < level) {
                return Some(h);
            }
        }
        let cv2 = pooled_cv2(self.strata.iter().map(|s| s.costs.as_slice()));
        let all_mean = self.spent() / self.sampled().max(1) as f64;
        open.into_iter().max_by(|&a, &b| {
            let gain = |h: usize| {
                let stratum = &self.strata[h];
                let (mean, var) = mean_var(&stratum.costs);
                let s2 = shrunk_variance(stratum.costs.len(), mean, var, cv2);
                let n = drawn(h) as f64;
                let size = stratum.size as f64;
                // A stratum that has cost nothing yet is priced at a tiny
                // share of the mean, so it is not free.
                let cost = mean.max(all_mean * 1e-3).max(1e-9);
                size * size * s2 / (n * (n + 1.0)) / cost
            };
            gain(a).total_cmp(&gain(b))
        })
    }
}

/// The largest spread of the logs of a stratum's costs the log-normal
/// interval allows: with one or two degrees of freedom the pooled spread
/// can be drawn without bound, and an interval reaching 10^60 CPU-hours
/// tells a budget nothing. 4x4 strata measure 0.8 to 1.2, and 2 makes the
/// mean 7.4 times the median.
const SIGMA_MAX: f64 = 2.0;

/// The least cost a group is taken to have when its logarithm is taken.
const TINY_COST: f64 = 1e-6;

/// Groups drawn from every stratum before the allocation takes over: two,
/// the fewest that show a stratum's spread.
pub(crate) const PILOT: usize = 2;

/// How many groups' worth of the pooled spread a stratum's own spread is
/// weighed against when choosing where to draw.
const SHRINK: f64 = 2.0;

#[cfg(test)]
mod tests;
