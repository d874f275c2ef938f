//! The networked game's clients (`boggle join`): the link to the server that
//! rejoins after a drop, the line mode for scripts, and the full screen. The
//! server side, with the protocol both ends speak, is the `boggle-net` crate.
//!
//! - `link`: who joins where, and a client's connection to the server, rejoined after a drop.
//! - [`client`]: why a client ends, the line mode for scripts, the text both clients show.
//! - [`screen`]: the full-screen client on a terminal, built as the tui is.
//! - [`seat`]: the seat's token kept between runs, so a killed client takes its seat back.
//!
//! `client` and `screen` also use the tui's terminal driver, `screen` its board drawing.

pub mod client;
pub(crate) mod link;
pub mod screen;
pub mod seat;
