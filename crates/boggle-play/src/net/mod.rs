//! The network game's line client (`boggle join` without a full screen) and
//! the link both clients keep to the server, rejoined after a drop. The
//! full-screen client is the `boggle` binary's; the server and the protocol
//! are `boggle-net`'s and `boggle-protocol`'s.
//!
//! - [`link`]: who joins where, and a client's connection to the server, rejoined after a drop.
//! - [`client`]: why a client ends, the line mode for scripts, the text both clients show.

pub mod client;
pub mod link;
