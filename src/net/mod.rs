//! The network game's full-screen client (`boggle join` on a terminal),
//! built as the tui is. The line mode for scripts and the link to the
//! server that rejoins after a drop are `boggle_client`; the server side,
//! with the protocol both ends speak, is the `boggle-net` crate; the seat's
//! token kept between runs is `boggle_client::seat`.
//!
//! `screen` uses the tui's terminal driver and its board drawing.

pub(crate) mod screen;
