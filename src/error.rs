//! The crate's top-level error: what went wrong in a mode or the command line,
//! and which exit status it maps to (2 for usage, 1 for anything else).
//!
//! Each `Display` is short and never repeats its `source()`: the binary
//! prints the whole chain on one line, joined with ": " (see
//! [`crate::cli`]'s reporter). Variants that only wrap another error are
//! transparent: they show the wrapped error and pass on its source.

use std::fmt;
use std::io;

use crate::cli::UsageError;
use crate::cli::board_file::BoardFileError;
use crate::dictionary::DictionaryError;
use crate::game_board::BoardError;

/// Anything a mode of the program can fail with.
#[derive(Debug)]
pub enum Error {
    /// The command line asks for something impossible.
    Usage(UsageError),
    /// A dictionary could not be loaded.
    Dictionary(DictionaryError),
    /// A board could not be read.
    Board(BoardError),
    /// A board's search passed its step budget (crafted input only).
    Search(crate::engine::search::Exhausted),
    /// SIGINT, SIGTERM or SIGHUP stopped the program (after it wrote what it had).
    Stopped,
    /// `--min-points` asked for more than any of the boards rolled was worth.
    NoBoard {
        /// The points asked for.
        min_points: u32,
    },
    /// A board file or board list cannot be opened, read or understood.
    BoardFile(BoardFileError),
    /// The full-screen game was started without a terminal to draw on (a
    /// runtime condition, not a mistake on the command line: exit status 1).
    NoTerminal,
    /// Reading the player's input failed.
    Input(io::Error),
    /// Writing the output failed.
    Output(io::Error),
    /// The terminal or a worker failed.
    Io(io::Error),
}

impl Error {
    /// The process exit status for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Usage(_) => 2,
            _ => 1,
        }
    }

    /// Whether this is a write to a closed pipe (the reader went away: not a failure).
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Error::Output(e) | Error::Io(e) if e.kind() == io::ErrorKind::BrokenPipe)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Usage(e) => e.fmt(f),
            Error::Dictionary(e) => e.fmt(f),
            Error::Board(e) => e.fmt(f),
            Error::Search(e) => e.fmt(f),
            Error::Stopped => f.write_str("stopped by a signal"),
            Error::NoBoard { min_points } => write!(
                f,
                "no board of {} random boards was worth {min_points} points or more \
                 (ask for fewer with --min-points)",
                crate::cli::MAX_ROLLS
            ),
            Error::BoardFile(e) => e.fmt(f),
            Error::NoTerminal => f.write_str(
                "the tui needs a terminal on standard input and output; \
                 pipe words into 'boggle' for the console game",
            ),
            Error::Input(_) => f.write_str("cannot read the input"),
            Error::Output(_) => f.write_str("cannot write the output"),
            Error::Io(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        // Transparent variants pass on their error's source, so the chain never says a thing twice.
        match self {
            Error::Search(_) | Error::NoBoard { .. } | Error::Stopped => None,
            Error::Usage(e) => std::error::Error::source(e),
            Error::Dictionary(e) => std::error::Error::source(e),
            Error::Board(e) => std::error::Error::source(e),
            Error::BoardFile(e) => std::error::Error::source(e),
            Error::Io(e) => std::error::Error::source(e),
            Error::Input(e) | Error::Output(e) => Some(e),
            Error::NoTerminal => None,
        }
    }
}

impl From<DictionaryError> for Error {
    fn from(e: DictionaryError) -> Self {
        Error::Dictionary(e)
    }
}

impl From<UsageError> for Error {
    fn from(e: UsageError) -> Self {
        Error::Usage(e)
    }
}

impl From<BoardFileError> for Error {
    fn from(e: BoardFileError) -> Self {
        Error::BoardFile(e)
    }
}

impl From<BoardError> for Error {
    fn from(e: BoardError) -> Self {
        Error::Board(e)
    }
}
