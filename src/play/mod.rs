//! What the `boggle` binary plays through, each piece over any reader and
//! writer so tests and fuzz targets drive it in process, without a terminal
//! or a network: the ways to play ([`modes`]), what the player types and the
//! clock of a timed turn ([`player`]), board files ([`board_file`]), and the
//! files kept for the player under their home ([`records`], [`xdg`]).
//!
//! The full-screen game and the command line are the binary's own (the root
//! crate's `src/`); the network game's client is `boggle-client`'s; the
//! design's classes are `boggle-game`'s.

pub mod board_file;
pub mod modes;
pub mod player;
pub mod records;
pub mod xdg;
