//! The client side of the network game, shared by both `boggle join`
//! clients (the line client here, the full screen in the `boggle` binary's
//! `src/net/`): the link to the server, rejoined after a drop ([`link`]),
//! why a client ends, the line mode and the text both clients show
//! ([`join`]), the seat's token kept between runs ([`seat`]), and why a
//! full screen ended ([`terminal`]), which the client's errors carry.
//!
//! It speaks `boggle-protocol` only: it neither depends on nor names the
//! server's crate (`boggle-net`), so the client cannot lean on the server.

pub mod join;
pub mod link;
pub mod seat;
pub mod terminal;
