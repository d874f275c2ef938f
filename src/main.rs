//! The `boggle` binary: the command line, the full-screen game and the
//! network game's full screen. What it plays through in process (the
//! console modes, the keyboard, board files, the records) is the
//! `boggle-play` crate; the network game's link, line mode and seat file
//! are `boggle-client`'s; the design's classes are `boggle-game`'s,
//! re-exported by this package's library for spec 004's graders.

#[expect(
    clippy::disallowed_types,
    reason = "the command line names the presets a user picks"
)]
mod cli;
#[cfg(feature = "net")]
mod net;
#[cfg(feature = "tui")]
mod tui;

fn main() -> std::process::ExitCode {
    cli::main()
}
