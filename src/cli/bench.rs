//! `boggle bench`: solves many boards with one loaded dictionary and prints
//! one line of totals and speed, for comparing solvers on the same boards.

use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;

use super::args::{self, DICTIONARY_PRESETS, DictArgs, RulesArgs, rules_arg};
use crate::cli::board_file::read_board_list;
use crate::error::Error;
use crate::game_board::GameBoard;
use crate::modes::bench::solve_all;
use crate::random;
use crate::rules::Preset;

/// Flags of `boggle bench`.
#[derive(Debug, Args)]
#[command(mut_arg("preset", |arg| rules_arg(arg, Preset::Classic, &DICTIONARY_PRESETS)))]
pub struct BenchArgs {
    /// The word list.
    #[command(flatten)]
    pub dict: DictArgs,
    /// The rules (default classic).
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Boards, one per line as row-major letters (q = the Qu face); - reads standard input
    #[arg(long, value_name = "FILE", conflicts_with_all = ["count", "seed"])]
    pub boards: Option<PathBuf>,
    /// Number of random boards to roll from the rules' dice
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    pub count: usize,
    /// Seed for the random boards (fixed, unlike the games', so every run solves the same boards)
    #[arg(short, long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Threads to solve on, 1 to 256 (one by default, unlike best's all cores, so figures compare per core)
    #[arg(long, value_name = "T", default_value_t = 1, value_parser = args::threads())]
    pub threads: usize,
}

/// Loads the dictionary, reads or rolls the boards, solves them and prints the totals.
pub fn run(args: &BenchArgs) -> Result<(), Error> {
    // Nothing to save: a signal ends the process at once, saying so.
    crate::player::signals::install(crate::player::signals::OnSignal::Exit);
    let rules = args
        .rules
        .resolve_with_dictionary(Preset::Classic, "bench")?;
    let boards = match &args.boards {
        Some(path) => read_board_list(path, rules.rows, rules.cols, rules.qu)?,
        None => {
            let mut rng = random::seeded(args.seed);
            (0..args.count)
                .map(|_| GameBoard::random(&rules, &mut rng))
                .collect()
        }
    };
    let loading = Instant::now();
    let dictionary = args.dict.load(&rules)?;
    let load_seconds = loading.elapsed().as_secs_f64();
    let solving = Instant::now();
    let totals = solve_all(dictionary.trie(), &rules, &boards, args.threads);
    if totals.exhausted > 0 {
        return Err(Error::Search(crate::engine::search::Exhausted));
    }
    let seconds = solving.elapsed().as_secs_f64();
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
    .map_err(Error::Output)
}
