//! Why a full screen (the tui, the network game's screen) ended without
//! saying so itself. It lives with the client, not with the screens in the
//! `boggle` binary, because the client's [`crate::join::JoinError`] carries
//! it. Limits: it says what ended the screen, not what was on it.

use std::convert::Infallible;
use std::io;

/// Why a full screen ended without saying so itself.
#[derive(Debug, thiserror::Error)]
pub enum TerminalError {
    /// Setting up the terminal (or the loop that drives it) or drawing on it failed.
    #[error("cannot draw on the terminal")]
    Io(#[from] io::Error),
    /// `SIGTERM`, `SIGHUP` or `SIGINT` arrived; the terminal is restored.
    #[error("stopped by a signal; the terminal is restored")]
    Signalled,
    /// The terminal went away (its window closed, without a signal). No one
    /// is left to read a message: the command line exits 0 without one, as
    /// for a closed pipe.
    #[error("the terminal went away")]
    HungUp,
}

/// For backends that cannot fail (ratatui's `TestBackend`).
impl From<Infallible> for TerminalError {
    fn from(never: Infallible) -> TerminalError {
        match never {}
    }
}
