//! What the `boggle` binary plays through, each piece over any reader and
//! writer so its unit tests drive it in process, without a terminal or a
//! network: the ways to play ([`modes`]), what the player types and the
//! clock of a timed turn ([`player`]), board files ([`board_file`]), and the
//! files kept for the player under their home ([`records`], [`xdg`]).
//!
//! The command line (`cli`) and the full screens (`tui`, `net`) call into
//! these; nothing outside the binary does. The network game's client is
//! `boggle-client`'s; the design's classes are `boggle-game`'s.

pub(crate) mod board_file;
pub(crate) mod modes;
pub(crate) mod player;
// The records are the full screen's; the data folder is theirs and the server's.
#[cfg(feature = "tui")]
pub(crate) mod records;
#[cfg(feature = "tui")]
pub(crate) mod xdg;

#[cfg(test)]
mod properties;
#[cfg(test)]
#[cfg(feature = "tui")]
mod records_tests;
#[cfg(test)]
mod testing;
