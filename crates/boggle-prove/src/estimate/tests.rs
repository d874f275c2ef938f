//! The estimator's tests: textbook figures, and coverage on known
//! heavy-tailed populations.

use super::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A population of `n` log-normal costs (`exp(sigma * z)`, z standard
/// normal by Box and Muller): heavy-tailed as group costs are.
fn lognormal(rng: &mut ChaCha8Rng, n: usize, sigma: f64) -> Vec<f64> {
    (0..n)
        .map(|_| {
            let (u, v): (f64, f64) = (rng.random::<f64>().max(1e-300), rng.random());
            let z = (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos();
            (sigma * z).exp()
        })
        .collect()
}

/// Strata of log-normal costs of `sigma`, one for each (groups, mean scale).
fn lognormal_strata(rng: &mut ChaCha8Rng, strata: &[(usize, f64)], sigma: f64) -> Vec<Vec<f64>> {
    strata
        .iter()
        .map(|&(n, scale)| lognormal(rng, n, sigma).iter().map(|c| c * scale).collect())
        .collect()
}

/// `k` of `population` drawn without replacement.
fn draw(rng: &mut ChaCha8Rng, population: &[f64], k: usize) -> Vec<f64> {
    let mut index: Vec<usize> = (0..population.len()).collect();
    for i in 0..k {
        let j = rng.random_range(i..index.len());
        index.swap(i, j);
    }
    index[..k].iter().map(|&i| population[i]).collect()
}

fn one_stratum(population: usize, costs: &[f64]) -> Stratified {
    let mut sample = Stratified::new(&[population as u64]);
    for &c in costs {
        sample.add(0, c);
    }
    sample
}

#[test]
fn the_normal_quantile_is_the_tabled_one() {
    for (p, z) in [
        (0.5, 0.0),
        (0.975, 1.959_963_985),
        (0.95, 1.644_853_627),
        (0.025, -1.959_963_985),
        (0.001, -3.090_232_306),
    ] {
        assert!(
            (normal_quantile(p) - z).abs() < 1e-6,
            "{p}: {}",
            normal_quantile(p)
        );
    }
}

#[test]
fn the_stratified_total_and_variance_are_the_textbook_ones() {
    // Two strata of 10 and 100 groups; samples 1, 3 and 2, 4, 6.
    let mut sample = Stratified::new(&[10, 100]);
    for (h, c) in [(0, 1.0), (0, 3.0), (1, 2.0), (1, 4.0), (1, 6.0)] {
        sample.add(h, c);
    }
    let (total, var) = sample.total().expect("two costs a stratum");
    assert_eq!(total, 10.0 * 2.0 + 100.0 * 4.0);
    // 10^2 (1 - 2/10) 2 / 2 + 100^2 (1 - 3/100) 4 / 3.
    let want = 100.0 * 0.8 * 2.0 / 2.0 + 10_000.0 * 0.97 * 4.0 / 3.0;
    assert!((var - want).abs() < 1e-9, "{var} against {want}");
    assert_eq!(sample.spent(), 16.0);
    // Every group sampled: nothing is left uncertain.
    let all = one_stratum(3, &[1.0, 2.0, 6.0]);
    assert_eq!(all.total(), Some((9.0, 0.0)));
}

#[test]
fn a_stratum_short_of_two_costs_is_pooled_with_its_neighbour() {
    let mut sample = Stratified::new(&[10, 20, 30]);
    sample.add(0, 1.0);
    assert_eq!(sample.total(), None, "one cost says nothing of the spread");
    sample.add(1, 3.0);
    sample.add(2, 5.0);
    sample.add(2, 7.0);
    // Strata 0 and 1 pool: 30 groups, mean 2; stratum 2: 30 groups, mean 6.
    let (total, _) = sample.total().expect("pools of two");
    assert_eq!(total, 30.0 * 2.0 + 30.0 * 6.0);
    // A last stratum short of two joins the pool below it.
    let mut sample = Stratified::new(&[10, 20]);
    for (h, c) in [(0, 1.0), (0, 3.0), (1, 8.0)] {
        sample.add(h, c);
    }
    assert_eq!(sample.total().expect("one pool").0, 30.0 * 4.0);
}

/// A known population in three strata of very different cost: over many
/// samples with a fixed allocation, the stratified estimate averages to
/// the true total, its spread is what the variance formula says, and it
/// is far below a simple random sample's of the same size.
#[test]
fn the_stratified_estimate_is_unbiased_and_its_variance_is_right() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let strata = lognormal_strata(&mut rng, &[(600, 0.2), (300, 1.0), (100, 3.0)], 0.8);
    let truth: f64 = strata.iter().flatten().sum();
    let allocation = [6, 9, 15];
    let want_var: f64 = strata
        .iter()
        .zip(allocation)
        .map(|(s, n)| {
            let size = s.len() as f64;
            size * size * (1.0 - n as f64 / size) * mean_var(s).1 / n as f64
        })
        .sum();
    let everyone: Vec<f64> = strata.iter().flatten().copied().collect();
    let srs_var = {
        let size = everyone.len() as f64;
        size * size * (1.0 - 30.0 / size) * mean_var(&everyone).1 / 30.0
    };
    let trials = 4000;
    let estimates: Vec<f64> = (0..trials)
        .map(|_| {
            let sample = stratified_sample(&mut rng, &strata, &allocation);
            sample.total().expect("a sample").0
        })
        .collect();
    let (mean, var) = mean_var(&estimates);
    // The mean's standard error is sqrt(want_var / trials): 4 of them.
    let se = (want_var / trials as f64).sqrt();
    assert!(
        (mean - truth).abs() < 4.0 * se,
        "mean {mean}, truth {truth}, se {se}"
    );
    assert!(
        (var / want_var - 1.0).abs() < 0.1,
        "variance {var} against the formula's {want_var}"
    );
    assert!(want_var < srs_var / 3.0, "{want_var} against {srs_var}");
}

#[test]
fn neyman_allocation_follows_size_times_spread() {
    assert_eq!(neyman(&[100, 100, 100], &[1.0, 2.0, 7.0], 50), [5, 10, 35]);
    assert_eq!(neyman(&[300, 100], &[1.0, 1.0], 40), [30, 10]);
    // A stratum too small for its share is taken whole; the rest go on.
    assert_eq!(neyman(&[10, 100], &[10.0, 1.0], 30), [10, 20]);
    // No spread, no draws; the remainders to the largest fractions.
    assert_eq!(neyman(&[100, 100, 100], &[0.0, 1.0, 2.0], 10), [0, 3, 7]);
    assert_eq!(
        neyman(&[100, 100, 100], &[1.0, 1.0, 1.0], 10)
            .iter()
            .sum::<usize>(),
        10
    );
}

/// Drawn one group at a time, strata of known costs end up near the
/// allocation that is best when units cost unequally: n_h in proportion
/// to N_h S_h / sqrt(c_h), after two from every stratum.
#[test]
fn groups_are_drawn_where_they_lower_the_variance_most_per_second() {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    // Costs with the same spread relative to the mean (cv 0.5) in each stratum.
    let means = [1.0, 4.0, 16.0];
    let sizes = [1000u64, 1000, 1000];
    let mut sample = Stratified::new(&sizes);
    let mut drawn = [0usize; 3];
    for _ in 0..300 {
        let h = sample.next_stratum(&[0, 0, 0]).expect("groups left");
        let total = drawn.iter().sum::<usize>();
        if total < 6 {
            assert_eq!(h, total % 3, "one from every stratum in turn, twice");
        }
        drawn[h] += 1;
        let z: f64 = (rng.random::<f64>() - 0.5) * 12f64.sqrt() * 0.5;
        sample.add(h, means[h] * (1.0 + z));
    }
    // N S / sqrt(c) with S = 0.5 mean: in proportion to sqrt(mean), 1 : 2 : 4.
    let want = [300.0 / 7.0, 600.0 / 7.0, 1200.0 / 7.0];
    for h in 0..3 {
        assert!(
            (drawn[h] as f64 / want[h] - 1.0).abs() < 0.25,
            "drawn {drawn:?} against {want:?}"
        );
    }
    // Pending draws count: a stratum drawn already is not picked first.
    let fresh = Stratified::new(&sizes);
    assert_eq!(fresh.next_stratum(&[2, 1, 0]), Some(2));
    assert_eq!(fresh.next_stratum(&[2, 1, 1]), Some(1));
    let full = Stratified::new(&[1, 0]);
    assert_eq!(full.next_stratum(&[1, 0]), None, "every group drawn");
}

/// Coverage on a heavy-tailed population with a known total (log-normal
/// of sigma 1.5: its largest of 300 draws is about 25 times the mean, as
/// 4x4 groups' is): 40 costs a sample, a 95% interval. The bootstrap-t
/// interval covers the total in 86% of 300 samples, the normal one in
/// 74%; the bootstrap's misses are mostly samples short of the tail.
#[test]
fn the_bootstrap_interval_covers_a_heavy_tailed_total() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let population = lognormal(&mut rng, 20_000, 1.5);
    let truth: f64 = population.iter().sum();
    let trials = 300;
    let (mut boot, mut normal, mut boot_misses_low) = (0, 0, 0);
    for _ in 0..trials {
        let costs = draw(&mut rng, &population, 40);
        let sample = one_stratum(population.len(), &costs);
        let b = sample
            .bootstrap_interval(0.95, 999, &mut rng)
            .expect("a sample");
        let n = sample.normal_interval(0.95).expect("a sample");
        boot += usize::from(b.covers(truth));
        boot_misses_low += usize::from(b.high < truth);
        normal += usize::from(n.covers(truth));
    }
    let (boot, normal) = (boot as f64 / trials as f64, normal as f64 / trials as f64);
    assert!(boot >= 0.85, "bootstrap-t covered {boot}");
    assert!(normal < 0.8, "normal covered {normal}");
    let misses = trials - (boot * trials as f64).round() as usize;
    assert!(
        2 * boot_misses_low > misses,
        "{boot_misses_low} of {misses} misses low"
    );
}

/// A population of `n` Pareto costs of shape `alpha` (scale 1), by
/// inversion: at `alpha` under 2 its variance is infinite, a tail
/// heavier than the log-normal's.
fn pareto(rng: &mut ChaCha8Rng, n: usize, alpha: f64) -> Vec<f64> {
    (0..n)
        .map(|_| (1.0 - rng.random::<f64>()).max(1e-300).powf(-1.0 / alpha))
        .collect()
}

/// A stratified sample of `allocation` from `strata`, each drawn without replacement.
fn stratified_sample(
    rng: &mut ChaCha8Rng,
    strata: &[Vec<f64>],
    allocation: &[usize],
) -> Stratified {
    let sizes: Vec<u64> = strata.iter().map(|s| s.len() as u64).collect();
    let mut sample = Stratified::new(&sizes);
    for (h, (s, &n)) in strata.iter().zip(allocation).enumerate() {
        for c in draw(rng, s, n) {
            sample.add(h, c);
        }
    }
    sample
}

/// How often, over `trials` stratified samples of `allocation` from
/// `strata` (drawn without replacement), each 95% interval covers the
/// true total: (bootstrap-t, normal, bootstrap misses below the total).
fn coverage(
    rng: &mut ChaCha8Rng,
    strata: &[Vec<f64>],
    allocation: &[usize],
    trials: usize,
) -> (f64, f64, usize) {
    let truth: f64 = strata.iter().flatten().sum();
    let (mut boot, mut normal, mut low) = (0, 0, 0);
    for _ in 0..trials {
        let sample = stratified_sample(rng, strata, allocation);
        let b = sample.bootstrap_interval(0.95, 999, rng).expect("a sample");
        let n = sample.normal_interval(0.95).expect("a sample");
        boot += usize::from(b.covers(truth));
        low += usize::from(b.high < truth);
        normal += usize::from(n.covers(truth));
    }
    let share = |k: usize| k as f64 / trials as f64;
    (share(boot), share(normal), low)
}

/// Coverage on a Pareto population (shape 1.8, infinite variance; its
/// largest of 20,000 is hundreds of times the mean): 40 costs a
/// sample, fixed seed. The bootstrap-t interval covers the total in 89%
/// of 300 samples, the normal one in 79%; every bootstrap miss is low.
#[test]
fn the_bootstrap_interval_beats_the_normal_on_a_pareto_tail() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let population = pareto(&mut rng, 20_000, 1.8);
    let (boot, normal, low) = coverage(&mut rng, &[population], &[40], 300);
    assert!(boot >= 0.85, "bootstrap-t covered {boot}");
    assert!(boot >= normal + 0.05, "bootstrap-t {boot}, normal {normal}");
    let misses = 300 - (boot * 300.0).round() as usize;
    assert!(2 * low > misses, "{low} of {misses} misses low");
}

/// Coverage of the stratified estimate: three strata of log-normal
/// costs whose means differ 15-fold (as the pre-pass's strata do on
/// 4x4), 6, 9 and 15 costs from them; the bootstrap-t interval covers
/// the total in 92% of 300 samples, the normal one in 85%.
#[test]
fn the_stratified_bootstrap_interval_covers_a_heavy_tailed_total() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let strata = lognormal_strata(&mut rng, &[(6000, 0.2), (3000, 1.0), (1000, 3.0)], 1.0);
    let (boot, normal, _) = coverage(&mut rng, &strata, &[6, 9, 15], 300);
    assert!(boot >= 0.9, "bootstrap-t covered {boot}");
    assert!(boot > normal, "bootstrap-t {boot}, normal {normal}");
}

#[test]
fn the_half_width_is_the_wider_side() {
    let interval = Interval {
        low: 90.0,
        high: 150.0,
    };
    assert_eq!(interval.relative_half_width(100.0), 0.5);
    assert!(interval.covers(90.0) && interval.covers(150.0) && !interval.covers(151.0));
    assert_eq!(interval.relative_half_width(0.0), f64::INFINITY);
    let other = Interval {
        low: 120.0,
        high: 200.0,
    };
    assert_eq!(
        interval.span(&other),
        Interval {
            low: 90.0,
            high: 200.0
        }
    );
}

/// Strata of log-normal costs of `sigma` scaled to these means exactly.
fn strata_of_means(
    rng: &mut ChaCha8Rng,
    sizes: &[usize],
    means: &[f64],
    sigma: f64,
) -> Vec<Vec<f64>> {
    sizes
        .iter()
        .zip(means)
        .map(|(&n, &m)| {
            let costs = lognormal(rng, n, sigma);
            let mean = costs.iter().sum::<f64>() / n as f64;
            costs.iter().map(|c| c * m / mean).collect()
        })
        .collect()
}

/// How often, over `trials` samples of `allocation` from `strata`,
/// the reported interval and the bootstrap-t one alone cover the total.
fn span_coverage(
    rng: &mut ChaCha8Rng,
    strata: &[Vec<f64>],
    allocation: &[usize],
    trials: usize,
) -> (f64, f64) {
    let truth: f64 = strata.iter().flatten().sum();
    let (mut span, mut boot) = (0, 0);
    for _ in 0..trials {
        let sample = stratified_sample(rng, strata, allocation);
        let reported = sample.interval(0.95, 999, rng).expect("a sample");
        let b = sample.bootstrap_interval(0.95, 999, rng).expect("a sample");
        span += usize::from(reported.covers(truth));
        boot += usize::from(b.covers(truth));
    }
    (span as f64 / trials as f64, boot as f64 / trials as f64)
}

/// The pilot's sample, two costs from each of four strata whose means
/// differ 50-fold (as the pre-pass's do on 4x4, log-normal of sigma 1
/// within each): the bootstrap-t interval alone covers the total in
/// 70% of 300 samples, the span with the log-normal interval in 92%.
#[test]
fn the_reported_interval_covers_a_pilot_of_two_costs_a_stratum() {
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let strata = strata_of_means(
        &mut rng,
        &[3368, 2014, 1008, 336],
        &[19.0, 84.0, 262.0, 1000.0],
        1.0,
    );
    let (span, boot) = span_coverage(&mut rng, &strata, &[2, 2, 2, 2], 300);
    assert!(span >= 0.88, "the span covered {span}");
    assert!(boot <= span - 0.1, "bootstrap-t {boot}, span {span}");
}

/// On its own model, one stratum of log-normal costs (sigma 1, as 4x4
/// strata measure), the log-normal interval covers the total at about
/// its level from 3 costs to 40: in 92%, 94%, 97% and 95% of 400
/// samples of 3, 5, 10 and 40.
#[test]
fn the_lognormal_interval_holds_its_level_on_lognormal_costs() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let population = lognormal(&mut rng, 20_000, 1.0);
    let truth: f64 = population.iter().sum();
    for n in [3, 5, 10, 40] {
        let trials = 400;
        let covered = (0..trials)
            .filter(|_| {
                let sample = one_stratum(population.len(), &draw(&mut rng, &population, n));
                let interval = sample.lognormal_interval(0.95, 999, &mut rng);
                interval.expect("a sample").covers(truth)
            })
            .count() as f64
            / trials as f64;
        assert!(
            (0.9..=0.99).contains(&covered),
            "{n} costs: covered {covered}"
        );
    }
}

#[test]
fn every_group_sampled_leaves_the_lognormal_interval_no_width() {
    let all = one_stratum(3, &[1.0, 2.0, 6.0]);
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let interval = all
        .lognormal_interval(0.95, 99, &mut rng)
        .expect("a sample");
    assert!((interval.low - 9.0).abs() < 1e-9 && (interval.high - 9.0).abs() < 1e-9);
    assert_eq!(
        one_stratum(3, &[1.0]).lognormal_interval(0.95, 99, &mut rng),
        None
    );
}
