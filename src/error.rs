//! The crate's top-level error: what went wrong in a mode or the command line,
//! and which exit status it maps to (2 for usage, 1 for anything else).

use std::fmt;
use std::io;

use crate::dictionary::DictionaryError;
use crate::game_board::BoardError;

/// Anything a mode of the program can fail with.
#[derive(Debug)]
pub enum Error {
    /// The command line asks for something impossible.
    Usage(String),
    /// A dictionary could not be loaded.
    Dictionary(DictionaryError),
    /// A board could not be read.
    Board(BoardError),
    /// A board's search passed its step budget (crafted input only).
    Search(crate::engine::search::Exhausted),
    /// A board file is malformed.
    BoardFile {
        /// The file (or `-` for standard input).
        path: String,
        /// One-based line number.
        line: usize,
        /// What is wrong there.
        message: String,
    },
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
            Error::Usage(message) => f.write_str(message),
            Error::Dictionary(e) => e.fmt(f),
            Error::Board(e) => e.fmt(f),
            Error::Search(e) => e.fmt(f),
            Error::BoardFile {
                path,
                line,
                message,
            } => write!(f, "{path}:{line}: {message}"),
            Error::Input(e) => write!(f, "cannot read the input: {e}"),
            Error::Output(e) => write!(f, "cannot write the output: {e}"),
            Error::Io(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Dictionary(e) => Some(e),
            Error::Board(e) => Some(e),
            Error::Search(_) => None,
            Error::Input(e) | Error::Output(e) | Error::Io(e) => Some(e),
            Error::Usage(_) | Error::BoardFile { .. } => None,
        }
    }
}

/// Reads have their own context at each call site, so a bare `?` on an I/O
/// result is a write: every mode writes through a `Write` and reads through
/// a `Keyboard` whose errors become [`Error::Input`].
impl From<io::Error> for Error {
    fn from(e: io::Error) -> Self {
        Error::Output(e)
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
