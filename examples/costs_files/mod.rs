//! Reading what `boggle prove --costs FILE` and the `prove_strata`
//! example write, for the examples that estimate from them again. Errors
//! name the file and line.

use std::error::Error;

use boggle_prove::estimate::Stratified;
use boggle_prove::strata::Strata;

/// Each group's stratum (by the group's index) from a `prove_strata` map,
/// whose last field is the stratum.
pub(crate) fn read_map(path: &str) -> Result<Strata, Box<dyn Error>> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let of: Vec<usize> = text
        .lines()
        .enumerate()
        .map(|(i, line)| {
            let stratum = line.rsplit('\t').next().unwrap_or_default();
            stratum
                .parse()
                .map_err(|e| format!("{path}:{}: bad stratum {stratum:?}: {e}", i + 1))
        })
        .collect::<Result<_, _>>()?;
    let count = of.iter().max().map_or(1, |&m| m + 1);
    Ok(Strata {
        of,
        count,
        cpu: 0.0,
    })
}

/// The sample a costs file holds, its groups restratified by `map` if given.
pub(crate) fn read(path: &str, map: Option<&Strata>) -> Result<Stratified, Box<dyn Error>> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut lines = text.lines();
    let sizes: Vec<u64> = lines
        .next()
        .and_then(|l| l.strip_prefix("# strata sizes: "))
        .ok_or("no '# strata sizes:' line first")?
        .split_whitespace()
        .map(str::parse)
        .collect::<Result<_, _>>()?;
    let total: u64 = sizes.iter().sum();
    if let Some(map) = map.filter(|m| m.of.len() as u64 != total) {
        return Err(format!("{path}: {total} groups, the map {}", map.of.len()).into());
    }
    let mut sample = Stratified::new(&map.map_or(sizes, Strata::sizes));
    for (n, line) in lines.enumerate().filter(|(_, l)| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split('\t').collect();
        let [index, _, stratum, _, cpu] = fields.as_slice() else {
            return Err(format!("{path}:{}: not five fields: {line}", n + 2).into());
        };
        let stratum = match map {
            None => stratum.parse()?,
            Some(map) => *map
                .of
                .get(index.parse::<usize>()?)
                .ok_or_else(|| format!("{path}:{}: index {index} past the map", n + 2))?,
        };
        sample.add(stratum, cpu.parse()?);
    }
    Ok(sample)
}
