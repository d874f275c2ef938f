//! A sample's estimate again from the groups' costs it wrote
//! (`boggle prove --sample/--precision/--budget ... --costs FILE`), with
//! the interval the prover reports and the three it is compared with: the
//! bootstrap-t one and the log-normal one (the reported interval spans
//! both) and the one that assumes costs are normal. Given several files, also the costs of those of the same strata
//! pooled into one sample, a line for each set of strata. Run with
//! `cargo run --release --example prove_costs -- [--strata MAP] FILE...`; a
//! line a file, CPU-hours. With `--strata MAP` (the `prove_strata`
//! example's output), every group is put in the stratum the map gives it,
//! so that simple random samples (`--simple`, one stratum) are
//! post-stratified and pool with stratified ones.
#![allow(
    clippy::print_stdout,
    reason = "an example's job is printing what it measured"
)]

use std::error::Error;

use boggle_prove::estimate::Stratified;
use boggle_prove::sample::{LEVEL, RESAMPLES};
use rand::SeedableRng;
use rand::rngs::StdRng;

#[path = "costs_files/mod.rs"]
mod costs_files;
use costs_files::{read, read_map};

fn describe(name: &str, sample: &Stratified) -> String {
    let hours = |s: f64| s / 3600.0;
    let Some((total, _)) = sample.total() else {
        return format!("{name}\t{}\tno estimate", sample.sampled());
    };
    let mut rng = StdRng::seed_from_u64(1);
    let reported = sample.interval(LEVEL, RESAMPLES, &mut rng);
    let boot = sample.bootstrap_interval(LEVEL, RESAMPLES, &mut rng);
    let lognormal = sample.lognormal_interval(LEVEL, RESAMPLES, &mut rng);
    let normal = sample.normal_interval(LEVEL);
    let show = |i: Option<boggle_prove::estimate::Interval>| {
        i.map_or_else(
            || "-".to_string(),
            |i| format!("{:.0}\t{:.0}", hours(i.low), hours(i.high)),
        )
    };
    let by: Vec<String> = sample
        .strata()
        .iter()
        .map(|s| s.costs.len().to_string())
        .collect();
    format!(
        "{name}\t{}\t{}\t{:.1}\t{:.0}\t{}\t{}\t{}\t{}",
        sample.sampled(),
        by.join("/"),
        sample.spent(),
        hours(total),
        show(reported),
        show(boot),
        show(lognormal),
        show(normal)
    )
}

fn main() -> Result<(), Box<dyn Error>> {
    let mut paths: Vec<String> = std::env::args().skip(1).collect();
    let map = match paths.first().map(String::as_str) {
        Some("--strata") if paths.len() > 1 => {
            let map = read_map(&paths[1])?;
            paths.drain(..2);
            Some(map)
        }
        _ => None,
    };
    println!(
        "file\tgroups\tby stratum\tCPU-s\tCPU-h\tlow\thigh\tboot low\tboot high\tlog-normal low\tlog-normal high\tnormal low\tnormal high"
    );
    // The files' costs pooled, one pool for each set of strata met.
    let mut pools: Vec<(Stratified, usize)> = Vec::new();
    for path in &paths {
        let sample = read(path, map.as_ref())?;
        println!("{}", describe(path, &sample));
        let sizes = |s: &Stratified| s.strata().iter().map(|s| s.size).collect::<Vec<_>>();
        match pools
            .iter_mut()
            .find(|(all, _)| sizes(all) == sizes(&sample))
        {
            None => pools.push((sample, 1)),
            Some((all, files)) => {
                for (h, stratum) in sample.strata().iter().enumerate() {
                    for &c in &stratum.costs {
                        all.add(h, c);
                    }
                }
                *files += 1;
            }
        }
    }
    for (all, files) in pools.iter().filter(|(_, files)| *files > 1) {
        let name = format!("pooled ({files} files, {} strata)", all.strata().len());
        println!("{}", describe(&name, all));
    }
    Ok(())
}
