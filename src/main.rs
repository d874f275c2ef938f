//! The `boggle` binary: the command line ([`cli`]), what it plays through
//! over any reader and writer ([`play`]: the console modes, the keyboard,
//! board files, the records), the full-screen game and the network game's
//! full screen. The network game's link, line mode and seat file are
//! `boggle-client`'s; the design's classes are `boggle-game`'s, re-exported
//! by this package's library for spec 004's graders.

#[expect(
    clippy::disallowed_types,
    reason = "the command line names the presets a user picks"
)]
mod cli;
#[cfg(feature = "net")]
mod net;
mod play;
#[cfg(feature = "tui")]
mod tui;

fn main() -> std::process::ExitCode {
    cli::main()
}
