//! The wire protocol of `boggle serve` and `boggle join`: the messages, one
//! JSON object per line (see `docs/protocol.md`), the version, the decoder
//! that turns an untrusted line into a [`ClientMsg`] or a [`ProtocolError`],
//! and the checks on names and text that keep one player's bytes out of
//! another player's terminal.

use serde::{Deserialize, Serialize};

use boggle_game::rules::MoveRule;

/// The protocol version this build speaks; a `hello` of any other version is refused.
pub const VERSION: u32 = 1;
/// The longest line either side accepts, newline included (a `hello` with a
/// 20-character name and a long password fits many times over).
pub const MAX_LINE: usize = 4096;
/// The most characters a player name may have.
pub const MAX_NAME: usize = 20;
/// The most characters a room name may have.
pub const MAX_ROOM: usize = 20;
/// The most characters a guessed word may have.
pub const MAX_WORD: usize = 64;
/// The longest line a client takes from the server, newline included. The
/// server never sends more: its longest messages, a room's results and its
/// lobby, are capped so that they fit even at the most players a room may
/// seat ([`MAX_PLAYERS`]), with the longest names and words (a test checks).
pub const MAX_SERVER_LINE: usize = 1 << 20;
/// The most players a room may seat (`serve --max-players`).
pub const MAX_PLAYERS: usize = 1000;

/// Whether words found by two or more players are cancelled at the end of a round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Duplicates {
    /// The board game's rule: a word two players found scores for neither.
    #[default]
    Cancel,
    /// Every player keeps every word they found.
    Count,
}

/// How a word's path may move from cell to cell, as the `welcome` names it,
/// so a client traces a typed word the way the server will judge it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Moves {
    /// Any of the 8 neighbours (every preset but project4).
    #[default]
    EightNeighbours,
    /// The same row or the row below, never up (project4).
    NoUp,
}

impl From<MoveRule> for Moves {
    fn from(rule: MoveRule) -> Moves {
        match rule {
            MoveRule::EightNeighbours => Moves::EightNeighbours,
            MoveRule::NoUp => Moves::NoUp,
        }
    }
}

impl From<Moves> for MoveRule {
    fn from(moves: Moves) -> MoveRule {
        match moves {
            Moves::EightNeighbours => MoveRule::EightNeighbours,
            Moves::NoUp => MoveRule::NoUp,
        }
    }
}

/// A message from a client to the server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMsg {
    /// The first message: who joins which room.
    Hello {
        /// Must equal [`VERSION`].
        version: u32,
        /// The player's name (validated by [`check_name`]).
        name: String,
        /// The room (default `main`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        room: Option<String>,
        /// The server's password, if it has one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        password: Option<String>,
        /// The token of an earlier `welcome`, to take one's seat back.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        token: Option<String>,
        /// A room of one's own instead of `room`: a solo round (the web
        /// page's Solo, Today's board and board links).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        solo: Option<Solo>,
    },
    /// Ready for the next round.
    Ready,
    /// A guess during a round.
    Word {
        /// The word, any case.
        word: String,
    },
    /// Finished with this round: a round ends early when every connected player is done.
    Done,
    /// Keeps an idle connection open.
    Ping,
}

/// Why the server refuses something; the `code` of an `error` message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The line is not a message of this protocol. Fatal.
    BadMessage,
    /// The line is longer than [`MAX_LINE`]. Fatal.
    TooLong,
    /// The line is not UTF-8. Fatal.
    NotUtf8,
    /// The client speaks another protocol version. Fatal.
    Version,
    /// Wrong or missing password. Fatal.
    Password,
    /// The name is not allowed (length, control characters, escapes). Fatal.
    BadName,
    /// Someone in the room already has that name. Fatal.
    NameTaken,
    /// The room name is not allowed. Fatal.
    BadRoom,
    /// The token matches no seat in the room. Fatal.
    BadToken,
    /// The room has as many players as it may. Fatal.
    RoomFull,
    /// The server has as many rooms as it may. Fatal.
    TooManyRooms,
    /// The server has as many connections as it may. Fatal.
    ServerFull,
    /// The room has played all its rounds. Fatal.
    RoundsOver,
    /// The first message must be `hello`, and only once. Fatal.
    NotJoined,
    /// Nothing was heard for too long. Fatal.
    Idle,
    /// Too many messages too fast: this one was ignored.
    RateLimited,
    /// A word arrived outside a round: it was ignored.
    NotInRound,
    /// A word that is not letters, or too long: it was ignored.
    BadWord,
    /// Far too many messages too fast, after many `rate_limited`. Fatal.
    TooManyMessages,
    /// A code this build does not know (from a newer server). Fatal.
    #[serde(other)]
    Unknown,
}

impl ErrorCode {
    /// Whether the server closes the connection after this error.
    pub fn is_fatal(self) -> bool {
        !matches!(
            self,
            ErrorCode::RateLimited | ErrorCode::NotInRound | ErrorCode::BadWord
        )
    }
}

/// One player as the lobby shows them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LobbyPlayer {
    /// Their name.
    pub name: String,
    /// Ready for the next round.
    pub ready: bool,
    /// Connected now (a dropped player keeps their seat for the round).
    pub connected: bool,
    /// Points over the rounds so far.
    pub total: u32,
}

/// A word with its points.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WordPoints {
    /// The word, upper case.
    pub word: String,
    /// What it is worth under the room's rules.
    pub points: u32,
    /// Whether the word list marks it rare (missed words only; absent: not rare).
    #[serde(default, skip_serializing_if = "is_false")]
    pub rare: bool,
}

fn is_false(value: &bool) -> bool {
    !*value
}

/// What a solo `hello` asks for: a private room of one, its round started by
/// the player's `ready`, on the server's rules unless `daily`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Solo {
    /// Play today's board (UTC) under its rules (classic 4x4, 3 minutes).
    #[serde(default, skip_serializing_if = "is_false")]
    pub daily: bool,
    /// Play this board (row-major letters, `Qu` for the Qu face), else a rolled one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<String>,
    /// The board's rows and columns, if not the server's rules' own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<(usize, usize)>,
    /// Play against the computer at this level: `easy`, `medium`, `hard` or `perfect`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub computer: Option<String>,
}

/// A word a player found, in the results.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FoundWord {
    /// The word, upper case.
    pub word: String,
    /// What it is worth under the room's rules.
    pub points: u32,
    /// Found by another player too, so it scores nothing (under `cancel`).
    pub cancelled: bool,
}

/// One player's round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerResult {
    /// Their name.
    pub name: String,
    /// The words they found, in the order found; the first
    /// [`words_listed`] of them when there are more.
    pub words: Vec<FoundWord>,
    /// How many words they found in all (absent from older servers: `words`
    /// is all of them then).
    #[serde(default)]
    pub words_total: usize,
    /// The round's points (cancelled words count nothing).
    pub score: u32,
    /// Points over all rounds so far.
    pub total: u32,
}

/// A word found by more than one player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SharedWord {
    /// The word, upper case.
    pub word: String,
    /// Who found it: the first [`SHARED_NAMES`] of them when there are more.
    pub players: Vec<String>,
    /// How many players found it (absent from older servers: `players` is all of them).
    #[serde(default)]
    pub count: usize,
}

/// A message from the server to a client.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// The answer to a good `hello`.
    Welcome {
        /// The server's [`VERSION`].
        version: u32,
        /// The room joined.
        room: String,
        /// The name played under.
        name: String,
        /// Send it in a later `hello` to take this seat back after a drop.
        token: String,
        /// The rules' name (`classic`, ...).
        rules: String,
        /// The rules' move rule (absent from a server that predates it:
        /// 8 neighbours, which only the live trace depends on).
        #[serde(default)]
        moves: Moves,
        /// Rounds the room plays (absent: no limit).
        rounds: Option<u32>,
        /// Players needed before a round starts.
        min_players: usize,
        /// Whether shared words are cancelled.
        duplicates: Duplicates,
    },
    /// Who is in the room; sent whenever that changes.
    Lobby {
        /// The players, in joining order.
        players: Vec<LobbyPlayer>,
        /// Players needed before a round starts.
        min_players: usize,
        /// Rounds played so far.
        round: u32,
    },
    /// A round begins (or is under way, for a player who rejoins).
    RoundStart {
        /// The round's number, from 1.
        round: u32,
        /// Board rows.
        rows: usize,
        /// Board columns.
        cols: usize,
        /// The faces, row-major, upper case (`QU` for the Qu face, `` for a blank).
        board: Vec<String>,
        /// Milliseconds left, by the server's clock.
        remaining_ms: u64,
        /// Words the player already found this round (after a rejoin).
        found: Vec<WordPoints>,
        /// The player's points this round so far.
        score: u32,
    },
    /// The verdict on one word: for its player only.
    Verdict {
        /// The word, upper case.
        word: String,
        /// Whether it scored.
        accepted: bool,
        /// Points earned.
        points: u32,
        /// `2 points`, `not on the board`, ...
        reason: String,
        /// The player's points this round so far (before cancellation).
        score: u32,
    },
    /// A round is over.
    Results {
        /// The round's number.
        round: u32,
        /// Whether it was the room's last round.
        last: bool,
        /// Whether shared words were cancelled.
        duplicates: Duplicates,
        /// Every player, best round score first.
        players: Vec<PlayerResult>,
        /// Words found by two or more players: those most players found,
        /// [`SHARED_SHOWN`] at most.
        shared: Vec<SharedWord>,
        /// How many words two or more players found, in all (absent from
        /// older servers: `shared` is all of them).
        #[serde(default)]
        shared_total: usize,
        /// The best words nobody found, best first.
        missed: Vec<WordPoints>,
        /// How many words nobody found, in all.
        missed_total: usize,
        /// How many words the board has (absent from older servers: 0).
        #[serde(default)]
        board_words: usize,
        /// What all the board's words are worth together (absent from older servers: 0).
        #[serde(default)]
        board_points: u32,
    },
    /// Something was refused; after a fatal code the server closes the connection.
    Error {
        /// What kind of refusal.
        code: ErrorCode,
        /// A sentence for the player.
        message: String,
        /// The word that was not played, when the refused message was a
        /// `word` (`rate_limited`), so a client does not send it again.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        word: Option<String>,
    },
    /// The server is closing this connection (it is shutting down).
    Bye {
        /// Why.
        reason: String,
    },
    /// The answer to `ping`.
    Pong,
}

/// The most shared words a results message lists (it says how many there were).
pub const SHARED_SHOWN: usize = 40;
/// The most names listed for one shared word (it says how many found it).
pub const SHARED_NAMES: usize = 5;
/// The most words the results list for all players together; each player gets
/// an equal part of it, between 1 and 100.
const WORDS_LISTED: usize = 4000;

/// How many of each player's words a results message of `players` players lists.
pub fn words_listed(players: usize) -> usize {
    (WORDS_LISTED / players.max(1)).clamp(1, 100)
}

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

/// Whether `c` may be in a name, and be shown on another player's terminal:
/// printable ASCII (a space, letters, digits, punctuation), or a character
/// Unicode allows in identifiers (UTS #39's General Security Profile:
/// letters and marks of the scripts in use today; no control, format or
/// default-ignorable character, no filler that looks blank, no symbol). The
/// two joiners it allows for some scripts are invisible, so not here.
pub fn is_printable(c: char) -> bool {
    use unicode_security::GeneralSecurityProfile;
    matches!(c, ' '..='~')
        || (c.identifier_allowed()
            && c.identifier_type()
                != Some(
                    unicode_security::general_security_profile::IdentifierType::Default_Ignorable,
                )
            && !matches!(c, '\u{200C}' | '\u{200D}'))
}

/// `text` with every character that is not [`is_printable`] replaced by `?`:
/// what a client does to anything from the network before printing it.
pub fn clean(text: &str) -> String {
    text.chars()
        .map(|c| if is_printable(c) { c } else { '?' })
        .collect()
}

/// Why a player or room name is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadName {
    /// It has no character.
    #[error("the {what} is empty")]
    Empty {
        /// What the name names: "name" or "room name".
        what: &'static str,
    },
    /// It has more characters than the cap.
    #[error("the {what} is longer than {max} characters")]
    TooLong {
        /// What the name names.
        what: &'static str,
        /// The cap, in characters.
        max: usize,
    },
    /// It has a character that is not [`is_printable`].
    #[error(
        "the {what} has a character that is invisible, a control or a symbol (U+{:04X}); \
         use letters, digits, spaces and punctuation",
        u32::from(*found)
    )]
    Unprintable {
        /// What the name names.
        what: &'static str,
        /// The first such character.
        found: char,
    },
    /// It has no letter or digit.
    #[error("the {what} has no letter or digit")]
    NoLetter {
        /// What the name names.
        what: &'static str,
    },
    /// It starts or ends with a space.
    #[error("the {what} starts or ends with a space")]
    Spaced {
        /// What the name names.
        what: &'static str,
    },
}

/// Whether `name` is a good player name: 1 to [`MAX_NAME`] [`is_printable`]
/// characters, a letter or digit among them, no leading or trailing space.
pub fn check_name(name: &str) -> Result<(), BadName> {
    check_label("name", name, MAX_NAME)
}

/// Whether `room` is a good room name: as for player names, at most [`MAX_ROOM`].
pub fn check_room(room: &str) -> Result<(), BadName> {
    check_label("room name", room, MAX_ROOM)
}

fn check_label(what: &'static str, text: &str, max: usize) -> Result<(), BadName> {
    let count = text.chars().count();
    if count == 0 {
        return Err(BadName::Empty { what });
    }
    if count > max {
        return Err(BadName::TooLong { what, max });
    }
    if let Some(found) = text.chars().find(|&c| !is_printable(c)) {
        return Err(BadName::Unprintable { what, found });
    }
    if !text.chars().any(char::is_alphanumeric) {
        return Err(BadName::NoLetter { what });
    }
    if text.trim() != text {
        return Err(BadName::Spaced { what });
    }
    Ok(())
}

/// What two names are compared by: Unicode's confusable skeleton (UTS #39:
/// normalised, look-alike characters mapped to one) with case folded before
/// it and after it. Folding first makes `Ann`, `ann` and `аnn` (a Cyrillic
/// а) one name, and `main` and `ｍａｉｎ`; folding after catches what
/// only looks alike in capitals (`Ian`, whose capital I the tables map to
/// small l, and `lan`), which folding first would have turned into an i.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NameKey {
    /// Case folded, then the skeleton: the key rooms are filed under.
    folded: String,
    /// The skeleton, then case folded.
    shown: String,
}

impl NameKey {
    /// Whether the two names pass for each other.
    pub fn same_as(&self, other: &NameKey) -> bool {
        self.folded == other.folded || self.shown == other.shown
    }

    /// The key that rooms are filed under (look-alikes after case folding).
    pub fn as_str(&self) -> &str {
        &self.folded
    }
}

/// The [`NameKey`] of `name`.
pub fn name_key(name: &str) -> NameKey {
    let skeleton = |text: &str| unicode_security::skeleton(text).collect::<String>();
    NameKey {
        folded: skeleton(&name.to_lowercase()),
        shown: skeleton(name).to_lowercase(),
    }
}

/// Compares two secrets in time that depends only on their lengths, so a
/// guesser learns nothing from how fast a wrong password is refused.
pub fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    let len = a.len().max(b.len());
    let mut diff = u8::from(a.len() != b.len());
    for i in 0..len {
        let x = a.get(i).copied().unwrap_or(0);
        let y = b.get(i).copied().unwrap_or(0);
        diff |= x ^ y;
    }
    // black_box keeps the optimiser from turning the loop into an early exit.
    std::hint::black_box(diff) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn names_are_printable_and_short() {
        assert_eq!(check_name("Ann B."), Ok(()));
        assert_eq!(check_name("Zoë"), Ok(()));
        for bad in [
            "",
            " ann",
            "ann ",
            "\x1b[31mred",
            "a\u{202E}b",
            "a\nb",
            "a\u{9b}b",
            "abcdefghijklmnopqrstu",
        ] {
            assert!(check_name(bad).is_err(), "{bad:?}");
        }
        assert_eq!(clean("a\x1b]0;x\x07b"), "a?]0;x?b");
    }

    #[test]
    fn passwords_compare_whole() {
        assert!(constant_time_eq(b"secret", b"secret"));
        assert!(!constant_time_eq(b"secret", b"secreT"));
        assert!(!constant_time_eq(b"secret", b"secret2"));
        assert!(!constant_time_eq(b"", b"x"));
        assert!(constant_time_eq(b"", b""));
    }

    /// Issue 36, item 9: every character the attack got in, after a name,
    /// in one, or alone, is refused, in player and room names alike, and the
    /// client's filter replaces each.
    #[test]
    fn invisible_and_blank_looking_characters_are_refused() {
        let sneaky = [
            '\u{AD}',
            '\u{61C}',
            '\u{3164}',
            '\u{FFA0}',
            '\u{115F}',
            '\u{2800}',
            '\u{34F}',
            '\u{180E}',
            '\u{FE0F}',
            '\u{E0100}',
            '\u{1D173}',
            '\u{600}',
            '\u{FFFC}',
            '\u{200D}',
            '\u{200B}',
            '\u{2028}',
            '\u{FEFF}',
            '\u{E0041}',
            '\u{202E}',
        ];
        for c in sneaky {
            for text in [format!("ann{c}"), format!("a{c}nn"), c.to_string()] {
                assert!(check_name(&text).is_err(), "{text:?}");
                assert!(check_room(&text).is_err(), "{text:?}");
            }
            assert_eq!(clean(&format!("ann{c}")), "ann?", "{c:?}");
        }
        for good in [
            "Ann B.",
            "Zoë",
            "O'Brien",
            "李小龍",
            "Ελένη",
            "José-María",
            "r2d2",
        ] {
            assert_eq!(check_name(good), Ok(()), "{good:?}");
            assert_eq!(clean(good), good);
        }
        for blank in ["...", "-", "' '"] {
            assert!(check_name(blank).is_err(), "{blank:?}");
        }
        assert!(name_key("Main").same_as(&name_key("main")));
        assert!(name_key("m\u{430}in").same_as(&name_key("main")));
        // Issue 45 item 10: look-alikes in capitals, after folding both sides.
        assert!(name_key("Ian").same_as(&name_key("lan")));
        assert!(name_key("lan").same_as(&name_key("IAN")));
        assert!(name_key("Ian").same_as(&name_key("ian")));
        assert!(!name_key("ian").same_as(&name_key("lan")));
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
                })
                .collect(),
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
