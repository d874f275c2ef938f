//! A sample's estimate again from the groups' costs it wrote
//! (`boggle prove --sample/--precision/--budget ... --costs FILE`), with
//! both intervals: the bootstrap-t one and the one that assumes costs are
//! normal. Given several files, also the costs of those of the same strata
//! pooled into one sample, a line for each set of strata. Run with
//! `cargo run --release --example prove_costs -- FILE...`; a line a file,
//! CPU-hours.
#![allow(
    clippy::print_stdout,
    reason = "an example's job is printing what it measured"
)]

use std::error::Error;

use boggle_prove::estimate::Stratified;
use boggle_prove::sample::{LEVEL, RESAMPLES};
use rand::SeedableRng;
use rand::rngs::StdRng;

/// The sample a costs file holds.
fn read(path: &str) -> Result<Stratified, Box<dyn Error>> {
    let text = std::fs::read_to_string(path)?;
    let mut lines = text.lines();
    let sizes: Vec<u64> = lines
        .next()
        .and_then(|l| l.strip_prefix("# strata sizes: "))
        .ok_or("no '# strata sizes:' line first")?
        .split_whitespace()
        .map(str::parse)
        .collect::<Result<_, _>>()?;
    let mut sample = Stratified::new(&sizes);
    for line in lines.filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split('\t').collect();
        let [_, _, stratum, _, cpu] = fields.as_slice() else {
            return Err(format!("{path}: not five fields: {line}").into());
        };
        sample.add(stratum.parse()?, cpu.parse()?);
    }
    Ok(sample)
}

fn describe(name: &str, sample: &Stratified) -> String {
    let hours = |s: f64| s / 3600.0;
    let Some((total, _)) = sample.total() else {
        return format!("{name}\t{}\tno estimate", sample.sampled());
    };
    let mut rng = StdRng::seed_from_u64(1);
    let boot = sample.bootstrap_interval(LEVEL, RESAMPLES, &mut rng);
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
        "{name}\t{}\t{}\t{:.1}\t{:.0}\t{}\t{}",
        sample.sampled(),
        by.join("/"),
        sample.spent(),
        hours(total),
        show(boot),
        show(normal)
    )
}

fn main() -> Result<(), Box<dyn Error>> {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    println!(
        "file\tgroups\tby stratum\tCPU-s\tCPU-h\tboot low\tboot high\tnormal low\tnormal high"
    );
    // The files' costs pooled, one pool for each set of strata met.
    let mut pools: Vec<(Stratified, usize)> = Vec::new();
    for path in &paths {
        let sample = read(path)?;
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
