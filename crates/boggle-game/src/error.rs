//! The game's error: what can go wrong in a mode (a word list that cannot be
//! read, a board that cannot be made, a search past its budget, a signal,
//! the player's input or the output failing). It knows nothing of the
//! command line: `cli::CliError` wraps it beside usage errors and the
//! subcommands' own outcomes, and gives each its exit status.
//!
//! Each `Display` is short and never repeats its `source()`: the binary
//! prints the whole chain on one line, joined with ": " (see
//! the `boggle` command line's reporter). Variants that only wrap another error are
//! transparent: they show the wrapped error and pass on its source.

use std::fmt;
use std::io;

use crate::dictionary::DictionaryError;
use crate::game_board::BoardError;
use boggle_engine::search::Exhausted;

/// Anything a mode of the program can fail with.
#[derive(Debug)]
pub enum Error {
    /// A dictionary could not be loaded.
    Dictionary(DictionaryError),
    /// A board could not be read.
    Board(BoardError),
    /// A board's search passed its step budget (crafted input only).
    Search(Exhausted),
    /// SIGINT, SIGTERM or SIGHUP stopped the program (after it wrote what it had).
    Stopped,
    /// No random board of those rolled was worth the points asked for (`--min-points`).
    NoBoard {
        /// The points asked for.
        min_points: u32,
        /// How many boards were rolled.
        rolls: u32,
    },
    /// The full-screen game was started without a terminal to draw on (a
    /// runtime condition, not a mistake on the command line: exit status 1).
    NoTerminal,
    /// Reading the player's input failed.
    Input(io::Error),
    /// Writing the output failed.
    Output(io::Error),
    /// The terminal or the network failed.
    Io(io::Error),
}

impl Error {
    /// The process exit status for this error: 1, a runtime failure (usage
    /// errors, status 2, belong to the command line).
    pub fn exit_code(&self) -> u8 {
        1
    }

    /// Whether this is a write to a closed pipe (the reader went away: not a failure).
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Error::Output(e) | Error::Io(e) if e.kind() == io::ErrorKind::BrokenPipe)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Dictionary(e) => e.fmt(f),
            Error::Board(e) => e.fmt(f),
            Error::Search(e) => e.fmt(f),
            Error::Stopped => f.write_str("stopped by a signal"),
            Error::NoBoard { min_points, rolls } => write!(
                f,
                "no board of {rolls} random boards was worth {min_points} points or more \
                 (ask for fewer with --min-points)"
            ),
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
            Error::Search(_) | Error::Stopped | Error::NoBoard { .. } | Error::NoTerminal => None,
            Error::Dictionary(e) => std::error::Error::source(e),
            Error::Board(e) => std::error::Error::source(e),
            Error::Io(e) => std::error::Error::source(e),
            Error::Input(e) | Error::Output(e) => Some(e),
        }
    }
}

impl From<DictionaryError> for Error {
    fn from(e: DictionaryError) -> Self {
        Error::Dictionary(e)
    }
}

impl From<BoardError> for Error {
    fn from(e: BoardError) -> Self {
        Error::Board(e)
    }
}

impl From<Exhausted> for Error {
    fn from(e: Exhausted) -> Self {
        Error::Search(e)
    }
}
