//! Encoding and decoding one message: [`encode`] writes a message as one
//! line, [`decode`] reads an untrusted line from a client into a
//! [`ClientMsg`] or a [`ProtocolError`] (never a panic, whatever the bytes;
//! a `hello` of another version is told so before anything else is read),
//! and [`decode_server`] reads a server's line for a client. A decoder's
//! complaint quotes the input back only through serde's own escaped and
//! bounded description, cut short and cleaned ([`clean`]).

use serde::{Deserialize, Serialize};

use crate::message::{ClientMsg, ErrorCode, MAX_LINE, ServerMsg, VERSION};
use crate::names::clean;

/// Why a line from a client is not a message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProtocolError {
    /// More than [`MAX_LINE`] bytes without a newline.
    #[error("message longer than {MAX_LINE} bytes")]
    TooLong,
    /// Not UTF-8.
    #[error("message is not UTF-8")]
    NotUtf8,
    /// Valid text but not a message of this protocol (what the JSON decoder
    /// said, sent to the client as it is).
    #[error("not a message of this protocol: {0}")]
    BadMessage(String),
    /// A `hello` of another protocol version.
    #[error(
        "this server speaks boggle protocol version {VERSION} and the client speaks version \
         {0}: use a boggle of the same version as the server"
    )]
    Version(u64),
}

impl ProtocolError {
    /// The error code the client is sent.
    pub fn code(&self) -> ErrorCode {
        match self {
            ProtocolError::TooLong => ErrorCode::TooLong,
            ProtocolError::NotUtf8 => ErrorCode::NotUtf8,
            ProtocolError::BadMessage(_) => ErrorCode::BadMessage,
            ProtocolError::Version(_) => ErrorCode::Version,
        }
    }
}

/// Only the fields every version's `hello` has, read first so that a client
/// of another version gets the version error rather than a parse error.
#[derive(Deserialize)]
struct Probe {
    #[serde(rename = "type")]
    kind: String,
    version: Option<serde_json::Value>,
}

/// Decodes one line from a client (without or with its `\n` or `\r\n`).
/// Never panics, whatever the bytes.
pub fn decode(line: &[u8]) -> Result<ClientMsg, ProtocolError> {
    if line.len() > MAX_LINE {
        return Err(ProtocolError::TooLong);
    }
    let text = std::str::from_utf8(line).map_err(|_| ProtocolError::NotUtf8)?;
    let text = text.trim_end_matches(['\n', '\r']);
    let probe: Probe =
        serde_json::from_str(text).map_err(|e| ProtocolError::BadMessage(short(&e)))?;
    if probe.kind == "hello" {
        match probe.version.as_ref().map(serde_json::Value::as_u64) {
            Some(Some(v)) if v == u64::from(VERSION) => {}
            Some(Some(v)) => return Err(ProtocolError::Version(v)),
            _ => return Err(ProtocolError::BadMessage("hello needs a version".into())),
        }
    }
    serde_json::from_str(text).map_err(|e| ProtocolError::BadMessage(short(&e)))
}

/// A parse error's text, cut short: it quotes the client's input back only
/// through serde's own (escaped, bounded) description.
fn short(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let mut out: String = clean(&text).chars().take(120).collect();
    if text.chars().count() > 120 {
        out.push_str("...");
    }
    out
}

/// Encodes a message as one line, newline included.
pub fn encode<T: Serialize>(msg: &T) -> String {
    // Serializing these plain types cannot fail; an empty object is a safe fallback.
    let mut line = serde_json::to_string(msg).unwrap_or_else(|_| "{}".to_string());
    line.push('\n');
    line
}

/// Decodes one line from the server, for clients.
pub fn decode_server(line: &[u8]) -> Result<ServerMsg, ProtocolError> {
    let text = std::str::from_utf8(line).map_err(|_| ProtocolError::NotUtf8)?;
    serde_json::from_str(text.trim_end_matches(['\n', '\r']))
        .map_err(|e| ProtocolError::BadMessage(short(&e)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::*;

    #[test]
    fn messages_round_trip() {
        let hello = ClientMsg::Hello {
            version: VERSION,
            name: "ann".into(),
            room: Some("r".into()),
            password: None,
            token: None,
            solo: None,
        };
        assert_eq!(decode(encode(&hello).as_bytes()), Ok(hello));
        assert_eq!(
            decode(br#"{"type":"word","word":"cat"}"#),
            Ok(ClientMsg::Word { word: "cat".into() })
        );
        assert_eq!(decode(b"{\"type\":\"ready\"}\r\n"), Ok(ClientMsg::Ready));
        let msg = ServerMsg::Verdict {
            word: "CAT".into(),
            accepted: true,
            points: 1,
            reason: "1 point".into(),
            score: 1,
        };
        assert_eq!(decode_server(encode(&msg).as_bytes()), Ok(msg));
    }

    #[test]
    fn bad_lines_are_refused_with_their_reason() {
        assert_eq!(decode(b"\xff\xfe"), Err(ProtocolError::NotUtf8));
        assert_eq!(
            decode(&vec![b'a'; MAX_LINE + 1]),
            Err(ProtocolError::TooLong)
        );
        for garbage in [
            &b"hello"[..],
            b"{}",
            b"[]",
            b"{\"type\":\"nope\"}",
            b"",
            b"{\"type\":\"word\"}",
        ] {
            assert!(
                matches!(decode(garbage), Err(ProtocolError::BadMessage(_))),
                "{garbage:?}"
            );
        }
        assert_eq!(
            decode(br#"{"type":"hello","version":2,"name":"x","whatever":[1]}"#),
            Err(ProtocolError::Version(2))
        );
        assert!(matches!(
            decode(br#"{"type":"hello","name":"x"}"#),
            Err(ProtocolError::BadMessage(_))
        ));
    }

    /// The client takes every message this server can send: the longest
    /// lobby and results, at the most players a room seats, with the longest
    /// names and words, fit [`MAX_SERVER_LINE`].
    #[test]
    fn the_longest_messages_fit_the_clients_cap() {
        let name = "\u{20000}".repeat(MAX_NAME);
        let word = "Q".repeat(MAX_WORD);
        let lobby = ServerMsg::Lobby {
            players: (0..MAX_PLAYERS)
                .map(|_| LobbyPlayer {
                    name: name.clone(),
                    ready: false,
                    connected: false,
                    total: u32::MAX,
                })
                .collect(),
            min_players: MAX_PLAYERS,
            round: u32::MAX,
        };
        let found = FoundWord {
            word: word.clone(),
            points: u32::MAX,
            cancelled: false,
        };
        let results = ServerMsg::Results {
            round: u32::MAX,
            last: false,
            duplicates: Duplicates::Cancel,
            players: (0..MAX_PLAYERS)
                .map(|_| PlayerResult {
                    name: name.clone(),
                    words: vec![found.clone(); words_listed(MAX_PLAYERS)],
                    words_total: usize::MAX,
                    score: u32::MAX,
                    total: u32::MAX,
                    place: usize::MAX,
                })
                .collect(),
            players_total: usize::MAX,
            shared: vec![
                SharedWord {
                    word: word.clone(),
                    players: vec![name.clone(); SHARED_NAMES],
                    count: usize::MAX,
                };
                SHARED_SHOWN
            ],
            shared_total: usize::MAX,
            missed: vec![
                WordPoints {
                    word,
                    points: u32::MAX,
                    rare: false,
                };
                40
            ],
            missed_total: usize::MAX,
            board_words: usize::MAX,
            board_points: u32::MAX,
        };
        for msg in [lobby, results] {
            let line = encode(&msg);
            assert!(line.len() <= MAX_SERVER_LINE, "{} bytes", line.len());
        }
    }

    #[test]
    fn an_error_code_from_a_newer_server_is_taken_as_fatal() {
        let msg = decode_server(br#"{"type":"error","code":"brand_new","message":"m"}"#);
        assert!(
            matches!(
                msg,
                Ok(ServerMsg::Error {
                    code: ErrorCode::Unknown,
                    ..
                })
            ),
            "{msg:?}"
        );
        assert!(ErrorCode::Unknown.is_fatal());
        assert!(ErrorCode::TooManyMessages.is_fatal());
    }
}
