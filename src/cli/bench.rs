//! `boggle bench`: solves many boards with one loaded dictionary and prints
//! one line of totals and speed, for comparing solvers on the same boards.

#![expect(clippy::disallowed_methods, reason = "bench times its runs")]

use super::CliError;
use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use clap::builder::RangedU64ValueParser;

use super::args::{self, DICTIONARY_PRESETS, SolverArgs, rules_arg};
use crate::play::board_file::read_board_list;
use crate::play::modes::bench::{Totals, Workers};
use boggle_game::error::Error;
use boggle_game::game_board::GameBoard;
use boggle_game::random;
use boggle_game::rules::Preset;

/// Flags of `boggle bench`.
#[derive(Debug, Args)]
#[command(mut_arg("preset", |arg| rules_arg(arg, Preset::Classic, &DICTIONARY_PRESETS)))]
pub(crate) struct BenchArgs {
    /// The word list, the rules and the vector instructions.
    #[command(flatten)]
    pub(crate) solver: SolverArgs,
    /// Boards, one per line as row-major letters (q = the Qu face); - reads standard input
    #[arg(long, value_name = "FILE", conflicts_with_all = ["count", "seed"])]
    pub(crate) boards: Option<PathBuf>,
    /// Number of random boards to roll from the rules' dice (rolled and solved in chunks, so any number fits in memory)
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    pub(crate) count: u64,
    /// Seed for the random boards (fixed, unlike the games', so every run solves the same boards)
    #[arg(short, long, value_name = "S", default_value_t = 1)]
    pub(crate) seed: u64,
    /// Threads to solve on, 1 to 256 (one by default, unlike best's all cores, so figures compare per core)
    #[arg(long, value_name = "T", default_value_t = 1, value_parser = args::threads())]
    pub(crate) threads: usize,
    /// Passes over the same boards, 1 to 1000; the fastest pass's speed is reported (a one-off stall does not decide the figure)
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = RangedU64ValueParser::<u32>::new().range(1..=MAX_REPEAT))]
    pub(crate) repeat: u32,
}

/// Most passes `--repeat` accepts: enough for any measurement, few enough that a typo does not run for days.
pub(crate) const MAX_REPEAT: u64 = 1000;

/// Random boards rolled and solved at a time: large enough that threads share
/// each chunk evenly, small enough (a few MiB) that `--count` never grows memory.
const ROLL_CHUNK: usize = 1 << 16;

/// Loads the dictionary, reads or rolls the boards, solves them and prints the totals.
pub(crate) fn run(args: &BenchArgs) -> Result<(), CliError> {
    // Nothing to save: a signal ends the process at once, saying so.
    crate::play::player::signals::install(crate::play::player::signals::OnSignal::Exit);
    let rules = args.solver.start(Preset::Classic, "bench")?;
    let listed = match &args.boards {
        Some(path) => Some(read_board_list(path, rules.rows, rules.cols, rules.q)?),
        None => None,
    };
    let loading = Instant::now();
    let dictionary = args.solver.dict.load(&rules)?;
    let load_seconds = loading.elapsed().as_secs_f64();
    let trie = dictionary.trie();
    let workers = Workers::new(args.threads);
    // Every pass solves the same boards, so each must find the same totals; the
    // fastest pass gives the speed (timing covers solving only, not rolling).
    let mut best: Option<(Totals, f64)> = None;
    for _ in 0..args.repeat {
        let (totals, seconds) = match &listed {
            Some(boards) => {
                let solving = Instant::now();
                let totals = workers.solve(trie, &rules, boards);
                (totals, solving.elapsed().as_secs_f64())
            }
            None => solve_rolled(trie, &rules, args.seed, args.count, &workers),
        };
        if totals.exhausted > 0 {
            return Err(Error::Search(boggle_engine::search::Exhausted).into());
        }
        best = match best {
            // The engine is deterministic, so this would be a bug, never a slow pass.
            Some((first, _)) if first != totals => {
                return Err(CliError::PassesDisagree {
                    first,
                    then: totals,
                });
            }
            Some((first, fastest)) => Some((first, fastest.min(seconds))),
            None => Some((totals, seconds)),
        };
    }
    let (totals, seconds) = best.unwrap_or_default();
    let per_board = |n: u64| n as f64 / (totals.boards.max(1) as f64);
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "boards={} total_score={} seconds={seconds:.3} boards_per_sec={:.0} words_per_board={:.2} dictionary_seconds={load_seconds:.3}",
        totals.boards,
        totals.score,
        totals.boards as f64 / seconds.max(1e-9),
        per_board(totals.words),
    )
    .map_err(Error::Output)?;
    Ok(())
}

/// Rolls `count` boards from `seed` and solves them a chunk at a time, so memory
/// stays flat however large `count` is; the boards are the same, in the same
/// order, as rolling them all at once. Returns the totals and the seconds spent
/// solving (rolling is not timed).
fn solve_rolled(
    trie: &boggle_engine::trie::Trie,
    rules: &boggle_game::rules::Rules,
    seed: u64,
    count: u64,
    workers: &Workers,
) -> (Totals, f64) {
    let mut rng = random::seeded(seed);
    let mut totals = Totals::default();
    let mut seconds = 0.0;
    let mut left = count;
    let mut chunk: Vec<GameBoard> = Vec::new();
    while left > 0 {
        let take = left.min(ROLL_CHUNK as u64);
        left -= take;
        chunk.clear();
        chunk.extend((0..take).map(|_| GameBoard::random(rules, &mut rng)));
        let solving = Instant::now();
        totals = totals + workers.solve(trie, rules, &chunk);
        seconds += solving.elapsed().as_secs_f64();
        if totals.exhausted > 0 {
            break;
        }
    }
    (totals, seconds)
}
