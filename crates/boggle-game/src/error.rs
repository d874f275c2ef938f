//! The game's error: what can go wrong in a game (a word list that cannot be
//! read, a board that cannot be made, a search past its budget, a signal,
//! the player's input or the output failing). It knows nothing of the
//! command line, the terminal or the network: the root crate's `CliError`
//! wraps it beside those and gives each its exit status.
//!
//! Each `Display` says what happened in its own words and never repeats its
//! `source()`: the binary prints the whole chain on one line, joined with
//! ": " (see the `boggle` command line's reporter). Variants that only wrap
//! another error are transparent: they show the wrapped error and pass on
//! its source.

use std::io;

use crate::dictionary::DictionaryError;
use crate::game_board::BoardError;
use boggle_engine::search::Exhausted;

/// Anything a game can fail with.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A dictionary could not be loaded.
    #[error(transparent)]
    Dictionary(#[from] DictionaryError),
    /// A board could not be read.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// A board's search passed its step budget (crafted input only).
    #[error(transparent)]
    Search(#[from] Exhausted),
    /// SIGINT, SIGTERM or SIGHUP stopped the program (after it wrote what it had).
    #[error("stopped by a signal")]
    Stopped,
    /// No random board of those rolled was worth the points asked for (`--min-points`).
    #[error(
        "no board of {rolls} random boards was worth {min_points} points or more \
         (ask for fewer with --min-points)"
    )]
    NoBoard {
        /// The points asked for.
        min_points: u32,
        /// How many boards were rolled.
        rolls: u32,
    },
    /// Reading the player's input failed.
    #[error("cannot read the input")]
    Input(#[source] io::Error),
    /// Writing the output failed.
    #[error("cannot write the output")]
    Output(#[source] io::Error),
}

impl Error {
    /// The process exit status for this error: 1, a runtime failure (usage
    /// errors, status 2, belong to the command line).
    pub fn exit_code(&self) -> u8 {
        1
    }

    /// Whether this is a write to a closed pipe (the reader went away: not a failure).
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Error::Output(e) if e.kind() == io::ErrorKind::BrokenPipe)
    }
}
