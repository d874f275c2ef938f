//! `boggle prove merge DIR...`: finds the shards of one proof, resolves the
//! rules and the word list their settings name (`--dict` overrides the
//! list's path; its hash must match), checks every line of every shard
//! (boards scored again), optionally proves chosen classes again
//! (`--recheck`), and prints the result, the best board as a grid too.

#![expect(
    clippy::disallowed_methods,
    reason = "a merge's progress line reads the clock"
)]

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::thread;
use std::time::Instant;

use clap::Args;

use super::report::{report_line, status, write_grid};
use super::{VERSION, run_watched};
use crate::cli::CliError;
use crate::cli::args;
use boggle_game::Dictionary;
use boggle_game::error::Error;
use boggle_game::rules::Rules;
use boggle_prove::shard::{self, Merged, Params};
use boggle_prove::{BadParams, Progress, ProveError};

/// How the settings name the built-in course list.
pub(super) const BUILTIN_COURSE: &str = "builtin:course";
/// How the settings name the built-in player list.
pub(super) const BUILTIN_PLAYER: &str = "builtin:player";

/// How many classes `--recheck` proves again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Recheck {
    /// This many, chosen at random.
    Some(usize),
    /// Every class.
    All,
}

fn parse_recheck(text: &str) -> Result<Recheck, String> {
    if text.eq_ignore_ascii_case("all") {
        return Ok(Recheck::All);
    }
    text.parse()
        .map(Recheck::Some)
        .map_err(|_| "write a number of classes, or all".to_string())
}

/// Flags of `boggle prove merge`.
#[derive(Debug, Args, Clone)]
pub(crate) struct MergeArgs {
    /// Directories holding shard files
    #[arg(value_name = "DIR", required = true)]
    pub(crate) dirs: Vec<PathBuf>,
    /// The word list the proof was made with [default: the one its settings name]
    #[arg(long = "dict", value_name = "PATH")]
    pub(crate) dict: Option<PathBuf>,
    /// Prove N classes again, chosen at random (or all), and compare each with its line
    #[arg(long, value_name = "N|all", value_parser = parse_recheck)]
    pub(crate) recheck: Option<Recheck>,
    /// Seed for choosing --recheck's classes [default: random]
    #[arg(long, value_name = "S", requires = "recheck")]
    pub(crate) seed: Option<u64>,
    /// Worker threads for --recheck, 1 to 256 [default: all cores]
    #[arg(long, value_name = "T", value_parser = args::threads(), requires = "recheck")]
    pub(crate) threads: Option<usize>,
}

/// Runs `boggle prove merge`.
pub(super) fn run(args: &MergeArgs) -> Result<(), CliError> {
    let proof = shard::survey(&args.dirs)?;
    let params = proof.params();
    let rules = rules_of(params, proof.params_path())?;
    let dictionary = word_list(args.dict.as_deref(), params, proof.params_path())?;
    let merged = proof.merge(dictionary.words(), dictionary.trie(), (&rules).into())?;
    let rechecked = match args.recheck {
        Some(recheck) => Some(recheck_classes(
            args,
            recheck,
            &proof,
            &merged,
            &dictionary,
        )?),
        None => None,
    };
    let mut out = BufWriter::new(io::stdout().lock());
    write_merged(&mut out, &merged, rechecked.as_deref()).map_err(Error::Output)?;
    out.flush().map_err(Error::Output)?;
    if merged.is_complete() {
        Ok(())
    } else {
        Err(CliError::Incomplete)
    }
}

/// The rules the settings name, resolved (the names `boggle prove` takes).
fn rules_of(params: &Params, path: &Path) -> Result<Rules, CliError> {
    let bad = |why| ProveError::Params {
        path: path.to_path_buf(),
        reason: BadParams::Rules {
            name: params.rules.clone(),
            why,
        },
    };
    let preset = args::DICTIONARY_PRESETS
        .iter()
        .copied()
        .find(|p| p.name() == params.rules)
        .ok_or_else(|| bad("not rules boggle prove takes"))?;
    let mut rules = Rules::sized(preset, params.rows, params.cols);
    rules.min_len = params.min_len;
    rules
        .validate()
        .map_err(|_| bad("not possible with this size and fewest letters"))?;
    Ok(rules)
}

/// The word list: `--dict`, or the one the settings name (a built-in list,
/// or a path, which must be a regular file: it came from a file).
fn word_list(dict: Option<&Path>, params: &Params, path: &Path) -> Result<Dictionary, CliError> {
    if let Some(dict) = dict {
        return Ok(Dictionary::from_file(dict)?);
    }
    match params.dictionary.as_str() {
        BUILTIN_PLAYER => Ok(Dictionary::player()),
        BUILTIN_COURSE => Ok(Dictionary::load_default()?),
        named => {
            let named = PathBuf::from(named);
            match std::fs::metadata(&named) {
                Ok(meta) if meta.is_file() => {}
                Ok(_) => {
                    return Err(ProveError::WordsNotAFile {
                        params: path.to_path_buf(),
                        named,
                    }
                    .into());
                }
                Err(source) => {
                    return Err(ProveError::UnreadableWords {
                        params: path.to_path_buf(),
                        named,
                        source,
                    }
                    .into());
                }
            }
            Ok(Dictionary::from_file(&named)?)
        }
    }
}

/// Proves the classes `--recheck` asks for again; the line saying so.
fn recheck_classes(
    args: &MergeArgs,
    recheck: Recheck,
    proof: &shard::Proof,
    merged: &Merged,
    dictionary: &Dictionary,
) -> Result<String, CliError> {
    let mut classes = merged.classes();
    let have = classes.len();
    let n = match recheck {
        Recheck::All => have,
        Recheck::Some(n) => n.min(have),
    };
    let seed = args.seed.unwrap_or_else(rand::random);
    let mut rng = boggle_game::random::seeded(seed);
    boggle_game::random::shuffle(&mut rng, &mut classes);
    classes.truncate(n);
    let threads = args
        .threads
        .unwrap_or_else(|| thread::available_parallelism().map_or(1, |n| n.get()));
    let bounds = merged.params.version == VERSION;
    report_line(&format!(
        "recheck: proving {n} of {have} classes again (seed {seed}){}",
        if bounds {
            ""
        } else {
            "; their bounds are not compared (another version made them)"
        }
    ));
    let progress = Progress::new();
    let started = Instant::now();
    let line = || status(&progress, started, threads);
    let rechecked = run_watched(&progress, started, &line, || {
        proof.recheck(
            merged,
            dictionary.trie(),
            &classes,
            bounds,
            threads,
            &progress,
        )
    })?;
    if rechecked.checked < rechecked.asked {
        return Err(CliError::Unfinished {
            done: rechecked.checked,
            total: rechecked.asked,
            resumable: false,
        });
    }
    Ok(format!(
        "{} of {have} classes proved again (seed {seed}) agree with their lines{}",
        rechecked.checked,
        if bounds {
            ""
        } else {
            " (boards; bounds not compared)"
        }
    ))
}

/// The merge's report: what was found, the result, the best board as a
/// grid, what was checked, then each board.
fn write_merged<W: Write>(out: &mut W, merged: &Merged, rechecked: Option<&str>) -> io::Result<()> {
    let p = &merged.params;
    let summary = &merged.summary;
    writeln!(
        out,
        "{}x{} {} above {} in {} shards: {} of {} classes accounted for",
        p.rows, p.cols, p.rules, p.above, p.shards, summary.classes, p.classes
    )?;
    if merged.repeats > 0 {
        writeln!(
            out,
            "{} repeated lines ignored (a class's record twice, the same both times)",
            merged.repeats
        )?;
    }
    if merged.is_complete() {
        writeln!(out, "{}", summary.proved_line(p.above))?;
    } else {
        let shown: Vec<String> = merged
            .unfinished
            .iter()
            .take(10)
            .map(u32::to_string)
            .collect();
        let more = if merged.unfinished.len() > shown.len() {
            ", ..."
        } else {
            ""
        };
        writeln!(
            out,
            "incomplete: {} shards unfinished ({}{more}), {} classes missing",
            merged.unfinished.len(),
            shown.join(", "),
            merged.missing,
        )?;
        writeln!(
            out,
            "{}",
            summary
                .proved_line(p.above)
                .replacen("proved:", "found so far:", 1)
        )?;
    }
    if let Some(best) = summary.boards.first() {
        write_grid(out, best, &merged.settings)?;
    }
    writeln!(
        out,
        "highest bound {}; {:.1} CPU-s in the classes",
        summary.max_bound, summary.cpu
    )?;
    writeln!(
        out,
        "checked: every line against the settings, the buckets and the word list ({} boards scored again); {}",
        summary.boards.len(),
        rechecked.unwrap_or("no class proved again (--recheck N does)")
    )?;
    for board in &summary.boards {
        writeln!(out, "{} {}", board.score, board.board)?;
    }
    Ok(())
}
