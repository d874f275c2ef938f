//! The ways to play and to use the solver, each over any reader and writer so
//! tests drive them without a terminal: spec 004's console game, human against
//! computer, spec 001's Boggle-ish with its LFSR and the many-boards
//! benchmark. The full-screen game is the `boggle` binary's; the best-board
//! search is the `boggle-best` crate.

pub(crate) mod bench;
pub(crate) mod boggleish;
pub(crate) mod console;
pub(crate) mod lfsr;
pub(crate) mod versus;

#[cfg(test)]
mod timed_tests;
#[cfg(test)]
mod versus_tests;
