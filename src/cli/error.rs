//! The command line's error: everything a run of `boggle` can end with
//! besides success, and its exit status: 2 for a usage error (the command
//! line asks for something impossible), 1 for everything else. It wraps the
//! game's [`boggle_game::Error`] beside the command line's own outcomes (board
//! files, the prover's and the benchmark's), each an enum
//! variant with its data, so nothing that is not I/O travels as an
//! `io::Error`.

use std::fmt;

use super::UsageError;
use super::board_file::BoardFileError;
use crate::modes::bench::Totals;
use crate::net::client::JoinError;
use boggle_game::dictionary::DictionaryError;
use boggle_prove::ProveError;

use crate::modes::best::hunt::HuntError;

/// What a run of the command line failed with.
#[derive(Debug)]
pub enum CliError {
    /// The command line asks for something impossible (exit status 2).
    Usage(UsageError),
    /// A mode failed.
    Game(boggle_game::Error),
    /// A board file or board list cannot be opened, read or understood.
    BoardFile(BoardFileError),
    /// A worker thread ended without an answer (it panicked: a bug).
    WorkerFailed {
        /// What it was doing: "the proof", "the search".
        work: &'static str,
    },
    /// The prover failed while running: its files, its records or its threads.
    Prove(ProveError),
    /// `boggle prove` stopped (by a signal) before every class of its shard was done.
    Unfinished {
        /// Classes done.
        done: usize,
        /// Classes the shard owns.
        total: usize,
        /// Whether the classes done are in shard files that `--resume` continues from.
        resumable: bool,
    },
    /// `boggle prove merge`: the shards do not make a whole proof.
    Incomplete,
    /// `boggle bench`: two passes over the same boards found different totals
    /// (the engine is deterministic, so this is a bug, never a slow pass).
    PassesDisagree {
        /// The first pass's totals.
        first: Totals,
        /// A later pass's.
        then: Totals,
    },
    /// The search's pool of worker threads could not be started.
    Threads(rayon::ThreadPoolBuildError),
    /// `boggle best --hunt` or `--merge`: the hunt's files cannot be used.
    Hunt(HuntError),
    /// `boggle join`: the server refused or closed, or its connection failed.
    Join {
        /// The server's address, as given.
        addr: String,
        /// What happened.
        source: JoinError,
    },
}

impl CliError {
    /// The process exit status for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) => 2,
            CliError::Game(e) => e.exit_code(),
            _ => 1,
        }
    }

    /// Whether this is a write to a closed pipe (the reader went away: not a failure).
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, CliError::Game(e) if e.is_broken_pipe())
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(e) => e.fmt(f),
            CliError::Game(e) => e.fmt(f),
            CliError::BoardFile(e) => e.fmt(f),
            CliError::WorkerFailed { work } => write!(f, "{work} stopped unexpectedly"),
            CliError::Prove(e) => e.fmt(f),
            CliError::Unfinished {
                done,
                total,
                resumable,
            } => write!(
                f,
                "stopped after {done} of {total} classes: nothing is proved{}",
                if *resumable {
                    " (--resume continues)"
                } else {
                    ""
                }
            ),
            CliError::Incomplete => f.write_str("the proof is not complete"),
            CliError::PassesDisagree { first, then } => {
                write!(f, "bench passes disagree: {first:?} then {then:?}")
            }
            CliError::Threads(e) => e.fmt(f),
            CliError::Hunt(e) => e.fmt(f),
            CliError::Join { addr, source } => write!(f, "{addr}: {source}"),
        }
    }
}

impl std::error::Error for CliError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        // Transparent variants pass on their error's source, so the chain never says a thing twice.
        match self {
            CliError::Usage(e) => std::error::Error::source(e),
            CliError::Game(e) => std::error::Error::source(e),
            CliError::BoardFile(e) => std::error::Error::source(e),
            CliError::Prove(e) => std::error::Error::source(e),
            CliError::Threads(e) => std::error::Error::source(e),
            CliError::Hunt(e) => std::error::Error::source(e),
            CliError::Join { source, .. } => std::error::Error::source(source),
            CliError::WorkerFailed { .. }
            | CliError::Unfinished { .. }
            | CliError::Incomplete
            | CliError::PassesDisagree { .. } => None,
        }
    }
}

impl From<boggle_game::Error> for CliError {
    fn from(e: boggle_game::Error) -> Self {
        CliError::Game(e)
    }
}

impl From<UsageError> for CliError {
    fn from(e: UsageError) -> Self {
        CliError::Usage(e)
    }
}

impl From<BoardFileError> for CliError {
    fn from(e: BoardFileError) -> Self {
        CliError::BoardFile(e)
    }
}

impl From<DictionaryError> for CliError {
    fn from(e: DictionaryError) -> Self {
        CliError::Game(e.into())
    }
}

impl From<ProveError> for CliError {
    /// A prover error in what was asked for is a usage error; any other, a runtime failure.
    fn from(e: ProveError) -> Self {
        if e.is_usage() {
            CliError::Usage(UsageError::Prove(e))
        } else {
            CliError::Prove(e)
        }
    }
}
