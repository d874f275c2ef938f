//! `boggle solve`: spec 002's test client. Every valid word of each board
//! file (or `--board LETTERS`), one per line, ascending, then `Score = N`.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;

use super::args::{SolverArgs, rules_arg};
use super::{CliError, UsageError};
use crate::play::board_file::read_board_file;
use boggle_game::error::Error;
use boggle_game::game_board::GameBoard;
use boggle_game::rules::Preset;
use boggle_game::word_find::WordFind;

/// Flags of `boggle solve`.
#[derive(Debug, Args)]
#[command(mut_arg("preset", |arg| rules_arg(arg, Preset::Algs4, &super::args::DICTIONARY_PRESETS)))]
pub(crate) struct SolveArgs {
    /// The word list, the rules and the vector instructions.
    #[command(flatten)]
    pub(crate) solver: SolverArgs,
    /// A board as row-major letters instead of a file (Q or Qu for the Qu face)
    #[arg(long, value_name = "LETTERS")]
    pub(crate) board: Option<String>,
    /// Board files: `ROWS COLS` then the cells; `-` reads standard input
    #[arg(value_name = "BOARD_FILE")]
    pub(crate) files: Vec<PathBuf>,
}

/// Solves each board and prints its words and score.
pub(crate) fn run(args: &SolveArgs) -> Result<(), CliError> {
    // Nothing to save: a signal ends the process at once, saying so.
    crate::play::player::signals::install(crate::play::player::signals::OnSignal::Exit);
    let rules = args.solver.start(Preset::Algs4, "solve")?;
    if args.board.is_none() && args.files.is_empty() {
        return Err(UsageError::NoBoard.into());
    }
    let mut boards = Vec::new();
    if let Some(letters) = &args.board {
        let board = GameBoard::from_typed(letters, rules.rows, rules.cols, rules.q);
        boards.push(board.map_err(|source| UsageError::Board {
            rows: rules.rows,
            cols: rules.cols,
            source,
        })?);
    }
    for path in &args.files {
        boards.push(read_board_file(path, rules.q)?);
    }
    let dictionary = Arc::new(args.solver.dict.load(&rules)?);
    let mut out = BufWriter::new(io::stdout().lock());
    for board in boards {
        // Each board keeps its own shape; the other rules apply unchanged.
        let mut board_rules = rules.clone();
        board_rules.rows = board.rows();
        board_rules.cols = board.cols();
        let find = WordFind::with_rules(Arc::clone(&dictionary), board_rules);
        let words = find.all_words_checked(&board).map_err(Error::Search)?;
        for word in &words {
            writeln!(out, "{word}").map_err(Error::Output)?;
        }
        let score: u32 = words.iter().map(|w| find.rules().word_score(w.len())).sum();
        writeln!(out, "Score = {score}").map_err(Error::Output)?;
    }
    out.flush().map_err(Error::Output)?;
    Ok(())
}
