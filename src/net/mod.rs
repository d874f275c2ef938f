//! The networked game (`boggle serve`, `boggle join`): the line-delimited
//! JSON protocol, each room's pure state machine, the tokio server that
//! carries rooms over TCP with its limits, and the clients (line mode, full screen).
//!
//! - [`protocol`]: the messages, their decoder and the checks on names and text.
//! - [`room`]: one room's rounds, players and scores; no I/O, time passed in.
//! - [`server`]: sockets, rooms by name, limits, timers and shutdown.
//! - [`client`]: the client's connection and the line mode for scripts.
//! - [`screen`]: the full-screen client on a terminal.

pub mod client;
pub mod protocol;
pub mod room;
pub mod screen;
pub mod server;
