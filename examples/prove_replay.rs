//! The sampler run again many times on measured costs, to see how each
//! way's estimate spreads over seeds and how often each interval covers a
//! known total, at far less than the CPU time of real runs.
//!
//! The world: every group of stratum `h` (by `--strata MAP`) costs one of
//! the costs measured in that stratum (the costs files given, pooled), or
//! with `--world log-normal` a log-normal cost of the stratum's measured
//! logs' mean and the logs' spread pooled over strata; each group's cost
//! is drawn once, so the whole proof's cost is known exactly. Each seed then runs `boggle prove`'s own [`Sampler`]
//! with `--budget SECONDS` on two threads in simulated time: a group takes
//! its cost in wall time on its thread, the budget counts the process's CPU
//! (groups in hand included, the pre-pass charged up front at
//! [`PREPASS_CPU`] for the stratified way), and a stopped run finishes the
//! groups in hand, as a real one does.
//!
//! Run with `cargo run --release --example prove_replay -- --strata MAP
//! --budget SECONDS --seeds N [--world measured|log-normal] FILE...`; a line a seed and way, then a
//! summary a way: the estimates' spread and each interval's coverage.
//!
//! Limits: a measured world's stratum holds only the costs measured there,
//! so its tail is no longer than the longest of them, where a real
//! stratum's may be; the log-normal world is the prover's own model, which
//! flatters the log-normal side of its interval.
#![allow(
    clippy::print_stdout,
    reason = "an example's job is printing what it measured"
)]

use std::error::Error;

use boggle_prove::estimate::{Interval, Stratified};
use boggle_prove::sample::{LEVEL, Method, RESAMPLES, Sampler, Stops};
use boggle_prove::strata::Strata;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rand_distr::StandardNormal;

#[path = "costs_files/mod.rs"]
mod costs_files;
use costs_files::{read, read_map};

/// The CPU seconds the stratified way's pre-pass is charged (4x4
/// ENABLE2K's takes about 5 on one core).
const PREPASS_CPU: f64 = 5.0;

/// Threads of the simulated runs.
const THREADS: usize = 2;

/// What each group of a stratum costs in the replayed world.
#[derive(Debug, Clone, Copy, PartialEq)]
enum World {
    /// One of the costs measured in its stratum, each as likely.
    Measured,
    /// A log-normal cost: the logs' mean measured in its stratum, their
    /// spread pooled over the strata, so a tail longer than any measured.
    LogNormal,
}

/// Each group's cost in `world`, drawn once from a fixed seed.
fn costs_of(world: World, map: &Strata, measured: &Stratified) -> Result<Vec<f64>, Box<dyn Error>> {
    let logs: Vec<Vec<f64>> = measured
        .strata()
        .iter()
        .map(|s| s.costs.iter().map(|c| c.max(1e-6).ln()).collect())
        .collect();
    let mean = |l: &[f64]| l.iter().sum::<f64>() / l.len().max(1) as f64;
    let (squares, df) = logs.iter().fold((0.0, 0usize), |(ss, df), l| {
        let m = mean(l);
        let s: f64 = l.iter().map(|x| (x - m).powi(2)).sum();
        (ss + s, df + l.len().saturating_sub(1))
    });
    let sigma = (squares / df.max(1) as f64).sqrt();
    let mut rng = StdRng::seed_from_u64(0);
    map.of
        .iter()
        .map(|&h| {
            let costs = &measured.strata()[h].costs;
            if costs.is_empty() {
                return Err(format!("no cost measured in stratum {h}").into());
            }
            Ok(match world {
                World::Measured => costs[rng.random_range(0..costs.len())],
                World::LogNormal => {
                    let z: f64 = rng.sample(StandardNormal);
                    (mean(&logs[h]) + sigma * z).exp()
                }
            })
        })
        .collect()
}

/// One run of the sampler in simulated time; its sample once every
/// group in hand is finished.
fn replay(strata: &Strata, method: Method, costs: &[f64], budget: f64, seed: u64) -> Sampler {
    let stops = Stops {
        budget: Some(budget),
        ..Stops::default()
    };
    let mut sampler = Sampler::new(strata, stops, method, seed);
    let prepass = if method == Method::Stratified {
        PREPASS_CPU
    } else {
        0.0
    };
    // Each thread's group in hand: (when it started, its stratum, its cost).
    let mut threads: Vec<Option<(f64, usize, f64)>> = vec![None; THREADS];
    let (mut now, mut finished) = (0.0, 0.0);
    loop {
        let cpu = |threads: &[Option<(f64, usize, f64)>], now: f64| {
            prepass
                + finished
                + threads
                    .iter()
                    .flatten()
                    .map(|&(s, _, _)| now - s)
                    .sum::<f64>()
        };
        for t in 0..THREADS {
            if threads[t].is_none()
                && let Some((group, h)) = sampler.draw(cpu(&threads, now))
            {
                threads[t] = Some((now, h, costs[group]));
            }
        }
        let next = threads
            .iter()
            .enumerate()
            .filter_map(|(t, g)| g.map(|(start, _, cost)| (t, start + cost)))
            .min_by(|a, b| a.1.total_cmp(&b.1));
        let Some((t, end)) = next else {
            return sampler;
        };
        if let Some((_, h, cost)) = threads[t].take() {
            now = end;
            finished += cost;
            sampler.finish(h, cost);
        }
    }
}

/// What one run gave: its estimate and the intervals compared, CPU-s.
struct Run {
    groups: usize,
    estimate: f64,
    spent: f64,
    intervals: Vec<Interval>,
}

/// The intervals of each way, by name: the reported one first.
fn interval_names(method: Method) -> &'static [&'static str] {
    match method {
        Method::Simple => &["normal", "bootstrap-t"],
        Method::Stratified => &["span", "bootstrap-t", "log-normal"],
    }
}

fn run(strata: &Strata, method: Method, costs: &[f64], budget: f64, seed: u64) -> Option<Run> {
    let sampler = replay(strata, method, costs, budget, seed);
    let sample = sampler.sample();
    let (estimate, _) = sample.total()?;
    let mut rng = StdRng::seed_from_u64(seed);
    let intervals = match method {
        Method::Simple => vec![
            sample.normal_interval(LEVEL)?,
            sample.bootstrap_interval(LEVEL, RESAMPLES, &mut rng)?,
        ],
        Method::Stratified => vec![
            sample.interval(LEVEL, RESAMPLES, &mut rng)?,
            sample.bootstrap_interval(LEVEL, RESAMPLES, &mut rng)?,
            sample.lognormal_interval(LEVEL, RESAMPLES, &mut rng)?,
        ],
    };
    Some(Run {
        groups: sample.sampled(),
        estimate,
        spent: sample.spent(),
        intervals,
    })
}

/// The estimates' median, largest over smallest and standard deviation of the log.
fn spread(estimates: &[f64]) -> (f64, f64, f64) {
    let mut sorted = estimates.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    let median = if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    };
    let logs: Vec<f64> = sorted.iter().map(|e| e.ln()).collect();
    let mean = logs.iter().sum::<f64>() / n as f64;
    let var = logs.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / (n as f64 - 1.0).max(1.0);
    (median, sorted[n - 1] / sorted[0], var.sqrt())
}

/// `--flag VALUE` taken out of `args`.
fn take(args: &mut Vec<String>, flag: &str) -> Result<String, Box<dyn Error>> {
    let at = args
        .iter()
        .position(|a| a == flag)
        .ok_or_else(|| format!("{flag} is needed"))?;
    let value = args
        .get(at + 1)
        .cloned()
        .ok_or_else(|| format!("{flag} needs a value"))?;
    args.drain(at..at + 2);
    Ok(value)
}

fn main() -> Result<(), Box<dyn Error>> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let map = read_map(&take(&mut args, "--strata")?)?;
    let budget: f64 = take(&mut args, "--budget")?.parse()?;
    let seeds: u64 = take(&mut args, "--seeds")?.parse()?;
    let world = match take(&mut args, "--world").as_deref() {
        Err(_) | Ok("measured") => World::Measured,
        Ok("log-normal") => World::LogNormal,
        Ok(other) => return Err(format!("--world {other}: measured or log-normal").into()),
    };
    if args.is_empty() {
        return Err("costs files are needed".into());
    }
    let mut measured = Stratified::new(&map.sizes());
    for path in &args {
        for (h, stratum) in read(path, Some(&map))?.strata().iter().enumerate() {
            for &c in &stratum.costs {
                measured.add(h, c);
            }
        }
    }
    let costs = costs_of(world, &map, &measured)?;
    let truth: f64 = costs.iter().sum();
    let hours = |s: f64| s / 3600.0;
    println!(
        "# world ({world:?}): {} groups, {} costs measured, the whole proof {:.0} CPU-h",
        costs.len(),
        measured.sampled(),
        hours(truth)
    );
    println!("way\tseed\tgroups\tCPU-s\tCPU-h\tintervals (CPU-h)");
    let one = Strata::one(map.of.len());
    for (method, strata, name) in [
        (Method::Simple, &one, "old"),
        (Method::Stratified, &map, "new"),
    ] {
        let runs: Vec<Run> = (1..=seeds)
            .filter_map(|seed| run(strata, method, &costs, budget, seed))
            .collect();
        for (seed, r) in runs.iter().enumerate() {
            let shown: Vec<String> = r
                .intervals
                .iter()
                .map(|i| format!("{:.0}-{:.0}", hours(i.low), hours(i.high)))
                .collect();
            println!(
                "{name}\t{}\t{}\t{:.0}\t{:.0}\t{}",
                seed + 1,
                r.groups,
                r.spent,
                hours(r.estimate),
                shown.join(" ")
            );
        }
        let estimates: Vec<f64> = runs.iter().map(|r| r.estimate).collect();
        let (median, ratio, sd_log) = spread(&estimates);
        let covered: Vec<String> = interval_names(method)
            .iter()
            .enumerate()
            .map(|(k, n)| {
                let hits = runs.iter().filter(|r| r.intervals[k].covers(truth)).count();
                let low = runs.iter().filter(|r| r.intervals[k].high < truth).count();
                let tops: Vec<f64> = runs
                    .iter()
                    .map(|r| r.intervals[k].high / r.estimate)
                    .collect();
                format!(
                    "{n} {hits}/{} ({low} low; {:.1})",
                    runs.len(),
                    spread(&tops).0
                )
            })
            .collect();
        println!(
            "# {name}: median {:.0} CPU-h, max/min {ratio:.1}, sd of log {sd_log:.2}; covered \
             (and the interval's top, a median of so many times the estimate): {}",
            hours(median),
            covered.join(", ")
        );
    }
    Ok(())
}
