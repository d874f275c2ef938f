//! The pre-pass's measures of every group of a proof, one line a group, to
//! study which predicts a group's cost: index, id, classes, mean, best and
//! climbed score, and the stratum `boggle prove` puts the group in (from the
//! mean, when BOARDS is the prover's 32). Run with
//! `cargo run --release --example prove_strata -- WORDS ROWS COLS ABOVE BOARDS`.

#![expect(
    clippy::disallowed_types,
    clippy::disallowed_methods,
    reason = "a study over a preset's rules, timed on the real clock"
)]
#![allow(
    clippy::print_stderr,
    reason = "an example's job is printing what it measured"
)]

use std::io::Write;

use boggle_game::Dictionary;
use boggle_game::rules::{Preset, Rules};
use boggle_prove::Settings;
use boggle_prove::classes::Buckets;
use boggle_prove::strata::{Strata, measure};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [path, rows, cols, above, boards] = args.as_slice() else {
        return Err("usage: prove_strata WORDS ROWS COLS ABOVE BOARDS".into());
    };
    let (rows, cols): (usize, usize) = (rows.parse()?, cols.parse()?);
    let rules = Rules::sized(Preset::Classic, rows, cols);
    let dictionary = Dictionary::from_file(path)?;
    let settings = Settings::new(&rules, Buckets::default_for(rows, cols), above.parse()?)?;
    let groups = settings.classes().groups();
    let start = std::time::Instant::now();
    let features = measure(
        dictionary.trie(),
        &settings,
        &groups,
        boards.parse()?,
        2,
        std::env::var_os("NO_CLIMB").is_none(),
    );
    eprintln!(
        "{} groups in {:.1} s",
        groups.len(),
        start.elapsed().as_secs_f64()
    );
    let strata = Strata::by_mean(&features);
    let mut out = std::io::stdout().lock();
    for (i, ((group, f), h)) in groups.iter().zip(&features).zip(&strata.of).enumerate() {
        writeln!(
            out,
            "{i}\t{}\t{}\t{:.1}\t{}\t{}\t{h}",
            group.id,
            group.classes.len(),
            f.mean,
            f.max,
            f.climbed
        )?;
    }
    Ok(())
}
