//! `boggle bench`: solves many boards with one loaded dictionary and prints
//! one line of totals and speed, for comparing solvers on the same boards.

use std::io::{self, BufRead, BufReader, Write};
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;

use super::args::RulesArgs;
use super::load_dictionary;
use crate::cli::board_file::parse_board_line;
use crate::error::Error;
use crate::game_board::GameBoard;
use crate::modes::bench::solve_all;
use crate::random;
use crate::rules::{Preset, Rules};

/// Flags of `boggle bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Word list (default: words.txt here, else the built-in list)
    #[arg(long, value_name = "PATH")]
    pub dict: Option<PathBuf>,
    /// Rules (default classic)
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Boards, one per line as row-major letters (q = the Qu face)
    #[arg(long, value_name = "FILE", conflicts_with_all = ["count", "seed"])]
    pub boards: Option<PathBuf>,
    /// Number of random boards to roll from the rules' dice
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    pub count: usize,
    /// Seed for the random boards
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Threads to solve on
    #[arg(long, value_name = "T", default_value_t = 1)]
    pub threads: usize,
}

/// Loads the dictionary, reads or rolls the boards, solves them and prints the totals.
pub fn run(args: &BenchArgs) -> Result<(), Error> {
    let rules = args.rules.resolve(Preset::Classic)?;
    if args.threads == 0 {
        return Err(Error::Usage("--threads must be at least 1".into()));
    }
    let boards = match &args.boards {
        Some(path) => read_boards(path, &rules)?,
        None => {
            let mut rng = random::seeded(args.seed);
            (0..args.count)
                .map(|_| GameBoard::random(&rules, &mut rng))
                .collect()
        }
    };
    let loading = Instant::now();
    let dictionary = load_dictionary(args.dict.as_deref(), &rules)?;
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
    )?;
    Ok(())
}

/// Reads a board list: one board per line, blank lines skipped.
fn read_boards(path: &PathBuf, rules: &Rules) -> Result<Vec<GameBoard>, Error> {
    let shown = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|e| Error::BoardFile {
        path: shown.clone(),
        line: 1,
        message: format!("cannot read: {e}"),
    })?;
    let mut boards = Vec::new();
    for (index, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| Error::BoardFile {
            path: shown.clone(),
            line: index + 1,
            message: format!("cannot read: {e}"),
        })?;
        if line.trim().is_empty() {
            continue;
        }
        let board = parse_board_line(&line, rules.rows, rules.cols, rules.qu).map_err(|e| {
            Error::BoardFile {
                path: shown.clone(),
                line: index + 1,
                message: e.to_string(),
            }
        })?;
        boards.push(board);
    }
    Ok(boards)
}
