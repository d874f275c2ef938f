//! The server side of the networked game (`boggle serve`): each room's
//! pure state machine, the limits, the tokio server that carries rooms over
//! TCP, and the browser's way in. The protocol it speaks (the messages,
//! their framing, the names) is the `boggle_protocol` crate's, which the
//! clients (`boggle join`: its link and line mode in `boggle-client`, its
//! full screen in the `boggle` binary) share without building anything of
//! this one.
//!
//! - `room`: one room's rounds, players and scores; no sockets, files or
//!   clock: the server passes in the time, and the room's random boards come
//!   from the generator it is given.
//! - `limits`: what the server allows: sizes, rates, times, queues, per address.
//! - `outbox`: each client's send queue, bounded in bytes.
//! - `refusals`: every refusal counted by reason, and logged at a bounded rate.
//! - [`monitor`]: the metrics exporter (`/metrics`) and every metric's name.
//! - `leaderboard`: the results file (SQLite): days' attempts and results.
//! - `store`: the day's attempts in memory, written to the file by a worker thread.
//! - `solo`: the settings of a room of one (solo games, today's board, board links).
//! - `server`: sockets, rooms by name (a task each), the limits applied, the stop.
//! - [`web`]: the browser's way in: the page and a WebSocket into the server's rooms.
//!
//! Each uses only those above it in this list (`web` uses `server`). The
//! crate exports only what the binary and its tests use: the server and
//! its settings ([`Server`], [`ServerConfig`], [`RoomConfig`], [`Limits`],
//! [`Store`]) at the root, and the `monitor` and `web` modules' few items.

mod leaderboard;
mod limits;
pub mod monitor;
mod outbox;
mod refusals;
mod room;
mod server;
mod solo;
mod store;
pub mod web;

pub use leaderboard::StoreError;
pub use limits::Limits;
pub use room::RoomConfig;
pub use server::{Entrance, Hurry, Server, ServerConfig, ServerError};
pub use store::{Store, StoreLimits};
