//! The protocol of `boggle serve` and its clients (`boggle join`, the
//! browser page), as both ends hold it: the server (`boggle-net`) and the
//! terminal clients (`boggle-client`, the `boggle` binary's full
//! screen) build on this crate and on nothing of each other's, and the
//! page's TypeScript declarations are generated from its types. It links no
//! HTTP, WebSocket or database crate.
//!
//! - `message`: the messages ([`ClientMsg`], [`ServerMsg`]), the error codes (which are fatal), the caps.
//! - `codec`: one message to a line and back; the decoder never panics.
//! - [`names`]: the checks on player and room names, look-alike keys, and the
//!   clean-up of any text from the network before it is shown.
//! - [`connection`]: the framing on a stream: whole lines under a cap,
//!   each written within a time limit.
//! - `bucket`: the token bucket ([`Bucket`]) rates are measured with.
//! - [`meaning`]: what a word means, as the web side answers the page.
//!
//! The wire format is docs/protocol.md's, one JSON object per line.

mod bucket;
mod codec;
pub mod connection;
pub mod meaning;
mod message;
pub mod names;
#[cfg(test)]
mod typescript;

pub use bucket::Bucket;
pub use codec::{ProtocolError, decode, decode_server, encode};
pub use message::{
    ClientMsg, DailyStatus, DayScore, Duplicates, ErrorCode, FoundWord, LobbyPlayer, MAX_LINE,
    MAX_NAME, MAX_PLAYERS, MAX_ROOM, MAX_SERVER_LINE, MAX_WORD, Moves, PAST_DAYS, PLAYER_TOKEN_LEN,
    PLAYERS_LISTED, PlayerResult, SHARED_NAMES, SHARED_SHOWN, ServerMsg, SharedWord, Solo, VERSION,
    WordPoints, is_player_token, words_listed,
};
