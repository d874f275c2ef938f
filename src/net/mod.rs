//! The networked game (`boggle serve`, `boggle join`): the line-delimited
//! JSON protocol, each room's pure state machine, the tokio server that
//! carries rooms over TCP with its limits, and the clients (line mode, full screen).
//!
//! - [`protocol`]: the messages, their decoder and the checks on names and text.
//! - `connection`: the framing both ends share: whole lines under a cap, written in time.
//! - [`room`]: one room's rounds, players and scores; no I/O, time passed in.
//! - [`limits`]: what the server allows: sizes, rates, times, queues, per address.
//! - `outbox`: each client's send queue, bounded in bytes.
//! - [`server`]: sockets, rooms by name, the limits applied, timers and shutdown.
//! - `link`: who joins where, and a client's connection to the server, rejoined after a drop.
//! - [`client`]: why a client ends, the line mode for scripts, the text both clients show.
//! - [`screen`]: the full-screen client on a terminal, built as the tui is.
//! - [`web`]: the browser's way in: the page and a WebSocket into the server's rooms.
//!
//! Each uses only those above it in this list (`client` and `screen` also
//! the tui's terminal driver, `screen` its board drawing; `web` uses
//! `server`, `connection` and `protocol`, not the clients).

pub mod client;
pub(crate) mod connection;
pub mod limits;
pub(crate) mod link;
pub(crate) mod outbox;
pub mod protocol;
pub mod room;
pub mod screen;
pub mod server;
pub mod web;
