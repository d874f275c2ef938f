//! The client side of the network game, shared by both `boggle join`
//! clients (the line client here, the full screen in the `boggle` binary's
//! `src/net/`): the link to the server, rejoined after a drop ([`link`]),
//! why a client ends, the line mode and the text both clients show
//! ([`join`]), and the seat's token kept between runs ([`seat`]).
//!
//! It speaks `boggle-protocol` only: it neither depends on nor names the
//! server's crate (`boggle-net`), so the client cannot lean on the server.
//! Limits: no terminal of its own; the full screen's drawing and its
//! terminal's errors are the binary's.

pub mod join;
pub mod link;
pub mod seat;
