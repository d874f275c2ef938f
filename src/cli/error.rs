//! The command line's error: everything a run of `boggle` can end with
//! besides success, and its exit status: 2 for a usage error (the command
//! line asks for something impossible), 1 for everything else, and 0 when
//! no one is left to read the message (a closed pipe, a terminal that hung
//! up). It wraps the game's [`boggle_game::Error`] beside what only the
//! program has: board files, the prover's and the benchmark's outcomes,
//! the terminal, the server and the network client. Each is an enum variant
//! with its data, so nothing that is not I/O travels as an `io::Error`.
//!
//! Each `Display` says what happened in its own words and never repeats its
//! `source()`: [`super::chain`] prints the causes after it on one line.

#[cfg(feature = "tui")]
use std::io;

use super::UsageError;
use crate::play::board_file::BoardFileError;
use crate::play::modes::bench::Totals;
#[cfg(feature = "tui")]
use crate::tui::terminal::TerminalError;
#[cfg(feature = "net")]
use boggle_client::join::JoinError;
use boggle_game::dictionary::DictionaryError;
use boggle_prove::ProveError;

use boggle_best::hunt::HuntError;

/// What a run of the command line failed with.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CliError {
    /// The command line asks for something impossible (exit status 2).
    #[error(transparent)]
    Usage(#[from] UsageError),
    /// A game failed.
    #[error(transparent)]
    Game(#[from] boggle_game::Error),
    /// A board file or board list cannot be opened, read or understood.
    #[error(transparent)]
    BoardFile(#[from] BoardFileError),
    /// A worker thread ended without an answer (it panicked: a bug).
    #[error("{work} stopped unexpectedly")]
    WorkerFailed {
        /// What it was doing: "the proof", "the search".
        work: &'static str,
    },
    /// The prover failed while running: its files, its records or its threads.
    #[error(transparent)]
    Prove(ProveError),
    /// `boggle prove` stopped (by a signal) before every class of its shard was done.
    #[error(
        "stopped after {done} of {total} classes: nothing is proved{}",
        if *resumable { " (--resume continues)" } else { "" }
    )]
    Unfinished {
        /// Classes done.
        done: usize,
        /// Classes the shard owns.
        total: usize,
        /// Whether the classes done are in shard files that `--resume` continues from.
        resumable: bool,
    },
    /// `boggle prove merge`: the shards do not make a whole proof.
    #[error("the proof is not complete")]
    Incomplete,
    /// `boggle bench`: two passes over the same boards found different totals
    /// (the engine is deterministic, so this is a bug, never a slow pass).
    #[error("bench passes disagree: {first:?} then {then:?}")]
    PassesDisagree {
        /// The first pass's totals.
        first: Totals,
        /// A later pass's.
        then: Totals,
    },
    /// The search's pool of worker threads could not be started. rayon's
    /// error prints its own cause and passes it on as its `source()` too, so
    /// it is shown here and not passed on: the chain says it once.
    #[error("cannot start the search's worker threads: {0}")]
    Threads(rayon::ThreadPoolBuildError),
    /// The full-screen game was started without a terminal to draw on (a
    /// runtime condition, not a mistake on the command line: exit status 1).
    #[error(
        "the tui needs a terminal on standard input and output; \
         pipe words into 'boggle' for the console game"
    )]
    #[cfg(feature = "tui")]
    NoTerminal,
    /// The full screen's terminal: a signal, a hang-up, or drawing failed.
    #[error(transparent)]
    #[cfg(feature = "tui")]
    Terminal(#[from] TerminalError),
    #[cfg(feature = "net")]
    /// A secret's file (`--password-file`, `--token-file`) cannot be read.
    #[error("cannot read {flag} {}", path.display())]
    SecretFile {
        /// The flag that named the file.
        flag: &'static str,
        /// The file.
        path: std::path::PathBuf,
        /// What the operating system said.
        source: io::Error,
    },
    #[cfg(feature = "tui")]
    /// The network's runtime (tokio's threads and event loop) could not be started.
    #[error("cannot start the network runtime")]
    Runtime(#[source] io::Error),
    #[cfg(feature = "serve")]
    /// `boggle serve` cannot listen on the address it was given.
    #[error("cannot listen on {addr}")]
    Listen {
        /// The address, as given.
        addr: String,
        /// What the operating system said.
        source: io::Error,
    },
    #[cfg(feature = "serve")]
    /// `boggle serve --web` cannot listen on the web page's address.
    #[error("cannot serve the web page on {addr}")]
    ListenWeb {
        /// The address, as given.
        addr: String,
        /// What the operating system said.
        source: io::Error,
    },
    /// `boggle serve --web` cannot open or use its results file (`--data`).
    #[error("cannot keep the day's results")]
    #[cfg(feature = "serve")]
    Results(#[source] boggle_net::StoreError),
    #[cfg(feature = "serve")]
    /// `boggle serve --web` has no `--data` and no data directory to default to.
    #[error("no data directory for the day's results: set --data DIR (or XDG_DATA_HOME or HOME)")]
    NoDataDir,
    #[cfg(feature = "serve")]
    /// The server's address could not be read after it started listening.
    #[error("the server failed")]
    Server(#[source] io::Error),
    #[cfg(feature = "serve")]
    /// The server stopped on an error: its web listener failed, or a stop
    /// left daily results unwritten.
    #[error("the server failed")]
    Serving(#[source] boggle_net::ServerError),
    /// Today's board cannot be had: the clock says a day before the first board.
    #[error("no board for today")]
    Daily(#[source] boggle_game::daily::DateError),
    /// `boggle best --hunt` or `--merge`: the hunt's files cannot be used.
    #[error(transparent)]
    Hunt(HuntError),
    /// The meanings built into the binary cannot be read (a broken build).
    #[error("cannot read the built-in meanings")]
    Meanings(#[source] &'static boggle_meaning::MeaningsError),
    /// `boggle join`: the server refused or closed, or its connection failed.
    #[cfg(feature = "net")]
    #[error("{addr}")]
    Join {
        /// The server's address, as given.
        addr: String,
        /// What happened.
        source: JoinError,
    },
}

impl CliError {
    /// The process exit status for this error.
    pub(crate) fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) => 2,
            CliError::Game(e) => e.exit_code(),
            _ => 1,
        }
    }

    /// Whether no one is left to read a message: a write to a closed pipe
    /// (`boggle ... | head`) or a terminal that went away. Not a failure.
    pub(crate) fn is_broken_pipe(&self) -> bool {
        match self {
            CliError::Game(e) => e.is_broken_pipe(),
            #[cfg(feature = "tui")]
            CliError::Terminal(TerminalError::HungUp) => true,
            #[cfg(feature = "tui")]
            CliError::Terminal(TerminalError::Io(e)) => e.kind() == io::ErrorKind::BrokenPipe,
            _ => false,
        }
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
