//! `boggle solve`: spec 002's test client. Every valid word of each board
//! file (or `--board LETTERS`), one per line, ascending, then `Score = N`.

use std::io::{self, BufWriter, Read, Write};
use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;

use super::args::RulesArgs;
use super::load_dictionary;
use crate::cli::board_file::parse_board_file;
use crate::error::Error;
use crate::game_board::GameBoard;
use crate::rules::Preset;
use crate::word_find::WordFind;

/// Flags of `boggle solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Word list (default: words.txt here, else the built-in list)
    #[arg(long, value_name = "PATH")]
    pub dict: Option<PathBuf>,
    /// Rules (default algs4: 8 neighbours, 3+ letters, Qu)
    #[command(flatten)]
    pub rules: RulesArgs,
    /// A board as row-major letters instead of a file (Q or Qu for the Qu face)
    #[arg(long, value_name = "LETTERS")]
    pub board: Option<String>,
    /// Board files: `ROWS COLS` then the cells; `-` reads standard input
    #[arg(value_name = "BOARD_FILE")]
    pub files: Vec<PathBuf>,
}

/// Solves each board and prints its words and score.
pub fn run(args: &SolveArgs) -> Result<(), Error> {
    let rules = args.rules.resolve(Preset::Algs4)?;
    if args.board.is_none() && args.files.is_empty() {
        return Err(Error::Usage(
            "give a board file (or - for standard input), or --board LETTERS".into(),
        ));
    }
    let mut boards = Vec::new();
    if let Some(letters) = &args.board {
        boards.push(GameBoard::from_letters(
            letters, rules.rows, rules.cols, rules.qu,
        )?);
    }
    for path in &args.files {
        boards.push(read_board_file(path, rules.qu)?);
    }
    let dictionary = Arc::new(load_dictionary(args.dict.as_deref(), &rules)?);
    let mut out = BufWriter::new(io::stdout().lock());
    for board in boards {
        // Each board keeps its own shape; the other rules apply unchanged.
        let mut board_rules = rules.clone();
        board_rules.rows = board.rows();
        board_rules.cols = board.cols();
        let find = WordFind::with_rules(Arc::clone(&dictionary), board_rules);
        let words = find.all_words_checked(&board).map_err(Error::Search)?;
        for word in &words {
            writeln!(out, "{word}")?;
        }
        let score: u32 = words.iter().map(|w| find.rules().word_score(w.len())).sum();
        writeln!(out, "Score = {score}")?;
    }
    out.flush()?;
    Ok(())
}

/// Reads and parses one board file (`-` = standard input).
fn read_board_file(path: &PathBuf, qu: bool) -> Result<GameBoard, Error> {
    let shown = path.display().to_string();
    let mut text = String::new();
    let read = if shown == "-" {
        io::stdin().read_to_string(&mut text)
    } else {
        std::fs::File::open(path).and_then(|mut f| f.read_to_string(&mut text))
    };
    read.map_err(|e| Error::BoardFile {
        path: shown.clone(),
        line: 1,
        message: format!("cannot read: {e}"),
    })?;
    parse_board_file(&text, qu).map_err(|e| Error::BoardFile {
        path: shown,
        line: e.line,
        message: e.message,
    })
}
