//! The networked game (`boggle serve`, `boggle join`): the line-delimited
//! JSON protocol, each room's pure state machine, the tokio server that
//! carries rooms over TCP with its limits, and the clients (line mode, full screen).
//!
//! - [`protocol`]: the messages, their decoder and the checks on names and text.
//! - [`room`]: one room's rounds, players and scores; no I/O, time passed in.
//! - [`server`]: sockets, rooms by name, limits, timers and shutdown.
//! - [`client`]: who joins where and the line mode for scripts.
//! - [`link`]: a client's connection to the server, rejoined after a drop.
//! - [`screen`]: the full-screen client on a terminal.

pub mod client;
pub(crate) mod link;
pub mod protocol;
pub mod room;
pub mod screen;
pub mod server;
