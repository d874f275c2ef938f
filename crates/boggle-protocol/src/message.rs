//! The messages of the protocol, as both ends hold them: what a client
//! sends ([`ClientMsg`]), what the server answers ([`ServerMsg`]) and the
//! records inside them, the error codes with which of them end a
//! connection ([`ErrorCode::is_fatal`]), and the caps on names, words and
//! lines that every side applies. The serde attributes are the wire format
//! (docs/protocol.md): one JSON object per message, tagged by `type`, in
//! snake case. Under `cfg(test)` each type also derives ts-rs's `TS`, from
//! which the page's TypeScript declarations are generated (`typescript.rs`).

use serde::{Deserialize, Serialize};

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
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
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
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Moves {
    /// Any of the 8 neighbours (every preset but project4).
    #[default]
    EightNeighbours,
    /// The same row or the row below, never up (project4).
    NoUp,
}

/// A message from a client to the server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMsg {
    /// The first message: who joins which room.
    Hello {
        /// Must equal [`VERSION`].
        version: u32,
        /// The player's name (validated by [`check_name`](crate::names::check_name)).
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
// Its wire name (serde) and its name for logs and metrics (strum) are both
// the variant's in snake case.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
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
    /// Another connection took this seat with its token (a second client
    /// of the same seat): this one is closed, and its client should not
    /// rejoin, or the two would take the seat from each other. Fatal.
    Replaced,
    /// The server is shutting down: no new round starts, a round under way
    /// ends early if it must; a `bye` follows. Not fatal: play on until then.
    ShuttingDown,
    /// A code this build does not know (from a newer server). Fatal.
    #[serde(other)]
    Unknown,
}

impl ErrorCode {
    /// Every code a server sends (all but [`ErrorCode::Unknown`]).
    pub fn sent() -> impl Iterator<Item = ErrorCode> {
        <ErrorCode as strum::VariantArray>::VARIANTS
            .iter()
            .copied()
            .filter(|&code| code != ErrorCode::Unknown)
    }

    /// The code as the wire spells it (`server_full`), for logs and metrics.
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// Whether the server closes the connection after this error.
    pub fn is_fatal(self) -> bool {
        !matches!(
            self,
            ErrorCode::RateLimited
                | ErrorCode::NotInRound
                | ErrorCode::BadWord
                | ErrorCode::ShuttingDown
        )
    }
}

/// One player as the lobby shows them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
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
#[cfg_attr(test, derive(ts_rs::TS))]
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
#[cfg_attr(test, derive(ts_rs::TS))]
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
    /// With `daily`: the player's long-lived token, from an earlier
    /// [`ServerMsg::Daily`] (a browser keeps it in `localStorage`), the seat
    /// a day's attempt and result are kept against. Without one, or with one
    /// that is not [`PLAYER_TOKEN_LEN`] lower-case hex digits, the server
    /// gives a new one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
    /// With `daily`: play this past day's board instead (its number, one of
    /// the last [`PAST_DAYS`] days), as practice: nothing is kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub day: Option<u32>,
}

/// How many days back a solo game may play a past day's board (today among them).
pub const PAST_DAYS: u32 = 30;

/// What a daily game is for the seat that plays it, as [`ServerMsg::Daily`] says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum DailyStatus {
    /// The seat's first opening of the day's board: its scored attempt,
    /// recorded when the round ends and listed as `listed_as`.
    Scored,
    /// The seat opened the day's board before: this game is practice, and
    /// `first` is the first attempt's result (absent while that attempt is
    /// still being played, or if the server stopped before it ended).
    Played,
    /// Practice: the day's results from this address, or the day's results
    /// in all, are at their cap, so nothing is kept for this game.
    Capped,
    /// The server keeps no results: the game counts only where the player keeps it.
    Unkept,
}

/// A day's result as the leaderboard keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct DayScore {
    /// Points scored.
    pub points: u32,
    /// Words found.
    pub words: u32,
    /// The longest word's length, in letters.
    pub longest: u32,
}

/// How many hex digits a player token ([`ClientMsg::Hello`]'s `player`) has.
pub const PLAYER_TOKEN_LEN: usize = 32;

/// Whether `token` is a player token as the server issues them: [`PLAYER_TOKEN_LEN`] lower-case hex digits.
pub fn is_player_token(token: &str) -> bool {
    token.len() == PLAYER_TOKEN_LEN
        && token
            .bytes()
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// A word a player found, in the results.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
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
#[cfg_attr(test, derive(ts_rs::TS))]
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
    /// Their place in the round, from 1, best score first (absent from
    /// older servers: 0, and their place in `players` is it).
    #[serde(default)]
    pub place: usize,
}

/// A word found by more than one player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
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
#[cfg_attr(test, derive(ts_rs::TS))]
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
        /// The best [`PLAYERS_LISTED`] players, best round score first; in a
        /// bigger room, a player below them finds their own entry last.
        players: Vec<PlayerResult>,
        /// How many players the round had (absent from older servers: 0,
        /// and `players` is all of them).
        #[serde(default)]
        players_total: usize,
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
    /// In a room of today's board, after `welcome` (and again after a rejoin):
    /// whether this game is the seat's scored attempt of the day.
    Daily {
        /// The day's number (`boggle daily`).
        day: u32,
        /// The player's token: keep it (`localStorage`) and send it as
        /// `solo.player` in every daily `hello`, so the server knows the seat.
        player: String,
        /// What this game is for the seat.
        status: DailyStatus,
        /// The name the day's leaderboard lists the seat under: the name
        /// played under, or, when another seat's look-alike name was listed
        /// first that day, that name with ` (2)`, ` (3)`, ... (absent when
        /// nothing is kept for the seat).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        listed_as: Option<String>,
        /// The seat's first result of the day, when this game is practice
        /// after it (`played`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        first: Option<DayScore>,
        /// Whether `first` is on the day's leaderboard: `true` once it is
        /// committed to the server's results file, `false` when it cannot
        /// be (`reason` says why); absent while it is being saved. After a
        /// scored round the server sends `daily` again with it set.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        kept: Option<bool>,
        /// Why `first` is not kept (with `kept: false`), in plain words.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
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
        /// With `shutting_down` during a round: the milliseconds left in
        /// it now that the stop brings its end forward, by the server's clock.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        remaining_ms: Option<u64>,
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
/// The most players a results message lists ahead of the player's own
/// entry: a results message goes to every player of the room, so listing
/// them all would make its bytes grow with the square of the room.
pub const PLAYERS_LISTED: usize = 20;
/// The most names listed for one shared word (it says how many found it).
pub const SHARED_NAMES: usize = 5;
/// The most words the results list for all players together; each player gets
/// an equal part of it, between 1 and 100.
const WORDS_LISTED: usize = 4000;

/// How many of each player's words a results message of `players` players lists.
pub fn words_listed(players: usize) -> usize {
    (WORDS_LISTED / players.max(1)).clamp(1, 100)
}

#[cfg(any(test, feature = "test-util"))]
impl ServerMsg {
    /// Round 1's results as tests hear them: `players` listed of
    /// `players_total`, no word shared or missed, the board's totals 0.
    pub fn round_one_results(
        last: bool,
        duplicates: Duplicates,
        players: Vec<PlayerResult>,
        players_total: usize,
    ) -> ServerMsg {
        ServerMsg::Results {
            round: 1,
            last,
            duplicates,
            players,
            players_total,
            shared: Vec::new(),
            shared_total: 0,
            missed: Vec::new(),
            missed_total: 0,
            board_words: 0,
            board_points: 0,
        }
    }
}
