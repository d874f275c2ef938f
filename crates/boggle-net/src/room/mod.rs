//! One room's game as a state machine: players join, ready up, play words
//! and leave; the room answers with the messages to send, to whom. No
//! sockets, no files and no clock of its own: the server passes in the time
//! of every event and the generator that rolls the room's boards, so tests
//! drive whole rounds with made-up instants and seeds. Each player
//! plays their own [`Game`] on the room's board, so verdicts, repeats and
//! points are exactly the console game's; the room adds only the board
//! game's end of round (shared words cancelled) and the running totals.
//! A room of today's board also says what its game is for its seat
//! ([`DailyGame`], after every welcome), and its first round's end yields
//! the seat's result as a value ([`Room::take_results`]) for the server to
//! hand to the store, unless its words came faster than a person enters
//! them (`pace.rs`): the room itself never writes anything.
//! `clock.rs` says when the room must next be ticked, and lets its caller
//! solve its boards (off the thread that runs the room).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use boggle_game::dictionary::Level;
use boggle_game::game::Game;
use boggle_game::game_board::GameBoard;
use boggle_game::random::GameRng;
use boggle_game::word_find::WordFind;

use boggle_game::rules::MoveRule;
use boggle_protocol::names::{NameKey, check_name, name_key};
use boggle_protocol::{
    DailyStatus, DayScore, Duplicates, ErrorCode, LobbyPlayer, MAX_WORD, Moves, PLAYERS_LISTED,
    PlayerResult, ServerMsg, WordPoints,
};

mod clock;
mod pace;
mod scoring;

use scoring::missed_words;

/// Which connection a message comes from or goes to (the server numbers them).
pub(crate) type ConnId = u64;

/// The most missed words a results message lists (a big board has thousands).
pub(crate) const MISSED_SHOWN: usize = 40;

/// The lobby goes out at most this often: joins and leaves in between (a
/// client connecting and leaving a thousand times a second) make one lobby,
/// sent when this has passed since the last.
pub(crate) const LOBBY_EVERY: Duration = Duration::from_millis(100);

/// Each this many players add a [`LOBBY_EVERY`] to the time between two
/// lobbies. A lobby lists every player and goes to every player, so its
/// bytes grow with the square of the room; spacing lobbies by the room's
/// size keeps a room's lobby traffic linear in it (a room of 1,000 hears
/// its 55 KB lobby every 4 s). A newcomer still hears the lobby at once,
/// and a round starts when everyone is ready whatever the lobby's pace.
pub(crate) const LOBBY_PLAYERS_PER_STEP: usize = 25;

/// The least time between two lobbies of a room of `players`.
pub(crate) fn lobby_every(players: usize) -> Duration {
    let steps = (players / LOBBY_PLAYERS_PER_STEP).max(1);
    LOBBY_EVERY * u32::try_from(steps).unwrap_or(u32::MAX)
}

/// The longest round a room plays (`serve --time`'s limit, as every mode's).
pub(crate) const MAX_TIME: Duration = Duration::from_secs(86_400);

/// How every room of a server plays.
#[derive(Clone, Debug)]
pub struct RoomConfig {
    /// The rules and dictionary.
    pub word_find: Arc<WordFind>,
    /// The board of every round, if fixed (`--board`); otherwise each round rolls one.
    pub board: Option<GameBoard>,
    /// How long a round lasts.
    pub time: Duration,
    /// Rounds a room plays before it closes (`None`: no limit).
    pub rounds: Option<u32>,
    /// Players needed before a round starts.
    pub min_players: usize,
    /// Whether shared words are cancelled.
    pub duplicates: Duplicates,
    /// The most players a room seats.
    pub max_players: usize,
    /// A computer player of this level (solo rooms): at the end of a round it
    /// takes every word the player missed that it knows, as `versus` plays.
    pub computer: Option<Level>,
    /// The day's number, in a room of today's board (a solo `daily` game).
    pub daily: Option<u32>,
}

/// What a game of today's board is for its seat: sent after every welcome
/// as a `daily` message; a scored attempt becomes `played` once its round ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct DailyGame {
    /// The day's number.
    pub day: u32,
    /// The seat: the player's token.
    pub player: String,
    /// Scored, practice after the first attempt, over a cap, or not kept.
    pub status: DailyStatus,
    /// The name the day's leaderboard lists the seat under.
    pub listed_as: Option<String>,
    /// The seat's first result, once there is one.
    pub first: Option<DayScore>,
    /// Whether that result is in the results file: `None` while it is
    /// being saved (or there is none).
    pub kept: Option<Kept>,
}

/// What the store made of a daily result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Kept {
    /// Committed to the results file: it is on the day's leaderboard.
    Yes,
    /// It could not be: why, in plain words for the player.
    No(String),
}

impl DailyGame {
    /// The `daily` message that says it.
    pub(crate) fn to_msg(&self) -> ServerMsg {
        ServerMsg::Daily {
            day: self.day,
            player: self.player.clone(),
            status: self.status,
            listed_as: self.listed_as.clone(),
            first: self.first,
            kept: self.kept.as_ref().map(|k| *k == Kept::Yes),
            reason: match &self.kept {
                Some(Kept::No(why)) => Some(why.clone()),
                _ => None,
            },
        }
    }
}

/// The end of a scored daily round, as a value: the seat and its result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct DailyResult {
    /// The day's number.
    pub day: u32,
    /// The seat: the player's token.
    pub player: String,
    /// What the round scored.
    pub score: DayScore,
}

/// The name the computer plays under in the results.
pub(crate) const COMPUTER: &str = "Computer";

/// One seat in the room.
#[derive(Debug)]
struct Player {
    name: String,
    /// What the name is compared by ([`name_key`]).
    key: NameKey,
    token: String,
    conn: Option<ConnId>,
    /// When the player left, while away: a seat empty for a whole round's
    /// time is given up.
    left: Option<Instant>,
    ready: bool,
    done: bool,
    /// This round's game; `None` before the player's first round.
    game: Option<Game>,
    total: u32,
}

/// Where the room is in its cycle of rounds.
#[derive(Debug)]
enum Phase {
    /// Waiting for players (before the first round or after a round's results).
    Lobby,
    /// A round is on until `deadline`.
    Playing {
        deadline: Instant,
        template: Box<Game>,
    },
    /// Every round has been played.
    Over,
}

/// A message and the connections it goes to: one sent to the whole room
/// is one message, encoded once by the server.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Envelope {
    /// Who hears it.
    pub to: Vec<ConnId>,
    /// What they hear.
    pub msg: ServerMsg,
}

/// One room: its players, its rounds and the messages waiting to be sent.
#[derive(Debug)]
pub(crate) struct Room {
    name: String,
    config: Arc<RoomConfig>,
    rng: GameRng,
    players: Vec<Player>,
    /// The seat each connected player's connection holds (an index into
    /// `players`), so a word finds its player in a room of thousands
    /// without a walk over every seat; rebuilt whenever seats move.
    seats: HashMap<ConnId, usize>,
    phase: Phase,
    round: u32,
    outbox: Vec<Envelope>,
    /// When the last lobby went out.
    lobby_sent: Option<Instant>,
    /// The lobby changed since: it goes out once [`lobby_every`] has passed.
    lobby_due: bool,
    /// The server is shutting down: no new round starts, no new player sits.
    closing: bool,
    /// In a room of today's board: what its game is for its seat.
    daily: Option<DailyGame>,
    /// Scored daily results not yet taken by the server.
    results: Vec<DailyResult>,
    /// The pace of the daily seat's words in its scored round (`pace.rs`).
    pace: pace::Pace,
    /// Boards solved by the caller, if so ([`Room::solve_boards_outside`]).
    outside: Option<clock::Outside>,
}

/// An error said to a client before its connection closes: the refusal of a
/// `hello`, or a fatal error later.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Refusal {
    /// What kind of error.
    pub code: ErrorCode,
    /// What the client is told.
    pub message: String,
}

impl Refusal {
    /// A refusal with `code`, saying `message`.
    pub(crate) fn new(code: ErrorCode, message: impl Into<String>) -> Refusal {
        Refusal {
            code,
            message: message.into(),
        }
    }

    /// The error message that says it.
    pub(crate) fn to_msg(&self) -> ServerMsg {
        ServerMsg::Error {
            code: self.code,
            message: self.message.clone(),
            word: None,
            remaining_ms: None,
        }
    }
}

impl Room {
    /// An empty room; `rng` rolls its boards.
    pub(crate) fn new(name: &str, config: Arc<RoomConfig>, rng: GameRng) -> Room {
        Room {
            name: name.to_string(),
            config,
            rng,
            players: Vec::new(),
            seats: HashMap::new(),
            phase: Phase::Lobby,
            round: 0,
            outbox: Vec::new(),
            lobby_sent: None,
            lobby_due: false,
            closing: false,
            daily: None,
            results: Vec::new(),
            pace: pace::Pace::default(),
            outside: None,
        }
    }

    /// Makes this a room of today's board for the seat `game` names: its
    /// `daily` message follows every welcome, and a scored first round
    /// yields the seat's result.
    pub(crate) fn set_daily(&mut self, game: DailyGame) {
        self.daily = Some(game);
    }

    /// The store's word on the seat's result (`kept`): the room's daily
    /// game says it, and every player connected hears the `daily` message
    /// again with `kept` set. Nothing happens in a room with no result yet.
    pub(crate) fn daily_kept(&mut self, kept: Kept) {
        let Some(daily) = &mut self.daily else { return };
        if daily.first.is_none() {
            return;
        }
        daily.kept = Some(kept);
        let msg = daily.to_msg();
        self.send_all(msg);
    }

    /// The scored daily results of the rounds ended since the last call.
    pub(crate) fn take_results(&mut self) -> Vec<DailyResult> {
        std::mem::take(&mut self.results)
    }

    /// The room's name.
    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    /// Rounds started so far.
    pub(crate) fn round(&self) -> u32 {
        self.round
    }

    /// Whether a round is on.
    pub(crate) fn is_playing(&self) -> bool {
        matches!(self.phase, Phase::Playing { .. })
    }

    /// Whether `conn` holds a seat.
    pub(crate) fn has_conn(&self, conn: ConnId) -> bool {
        self.seat(conn).is_some()
    }

    /// Players connected now.
    pub(crate) fn connected(&self) -> usize {
        self.players.iter().filter(|p| p.conn.is_some()).count()
    }

    /// Whether the server may forget the room: nobody is connected and no
    /// round is on that a dropped player could come back to.
    pub(crate) fn is_abandoned(&self) -> bool {
        self.connected() == 0 && !self.is_playing()
    }

    /// When the room next needs a [`Room::tick`]: the end of the round.
    pub(crate) fn deadline(&self) -> Option<Instant> {
        match &self.phase {
            Phase::Playing { deadline, .. } => Some(*deadline),
            _ => None,
        }
    }

    /// The messages produced since the last call, in order.
    pub(crate) fn drain(&mut self) -> Vec<Envelope> {
        std::mem::take(&mut self.outbox)
    }

    /// `conn` asks to sit as `name`; with `token`, to take back the seat that
    /// token was issued for. A new seat gets `fresh_token`. On success the
    /// player is sent `welcome` (and the round, if one is on) and everyone
    /// the new lobby; on refusal nothing changes.
    pub(crate) fn join(
        &mut self,
        conn: ConnId,
        name: &str,
        token: Option<&str>,
        fresh_token: String,
        now: Instant,
    ) -> Result<(), Refusal> {
        if let Err(why) = check_name(name) {
            return Err(Refusal::new(ErrorCode::BadName, why.to_string()));
        }
        if matches!(self.phase, Phase::Over) {
            return Err(Refusal::new(
                ErrorCode::RoundsOver,
                format!("room {} has played all its rounds", self.name),
            ));
        }
        if self.closing && token.is_none() {
            return Err(Refusal::new(
                ErrorCode::ServerFull,
                "the server is shutting down: no new players now",
            ));
        }
        // Seats empty for a whole round's time are given up first.
        self.tick(now);
        let key = name_key(name);
        let index = if let Some(token) = token {
            // Tokens are random, unguessable strings; which seat they name is
            // no secret worth a constant-time search.
            let Some(index) = self
                .players
                .iter()
                .position(|p| p.token == token && p.key.same_as(&key))
            else {
                return Err(Refusal::new(
                    ErrorCode::BadToken,
                    format!("no seat for {name} with that token in room {}", self.name),
                ));
            };
            // A second connection with the token takes the seat over; the old
            // one hears nothing more from the room (the server tells it why and closes it).
            if let Some(old) = self.players[index].conn.replace(conn) {
                self.seats.remove(&old);
            }
            self.seats.insert(conn, index);
            self.players[index].left = None;
            index
        } else {
            if let Some(holder) = self.players.iter().find(|p| p.key.same_as(&key)) {
                return Err(Refusal::new(
                    ErrorCode::NameTaken,
                    self.name_taken(holder, now),
                ));
            }
            if self.players.len() >= self.config.max_players {
                return Err(Refusal::new(
                    ErrorCode::RoomFull,
                    format!(
                        "room {} is full ({} players)",
                        self.name, self.config.max_players
                    ),
                ));
            }
            let game = match &self.phase {
                Phase::Playing { template, .. } => Some(Game::clone(template)),
                _ => None,
            };
            self.seats.insert(conn, self.players.len());
            self.players.push(Player {
                name: name.to_string(),
                key,
                token: fresh_token,
                conn: Some(conn),
                left: None,
                ready: false,
                done: false,
                game,
                total: 0,
            });
            self.players.len() - 1
        };
        let player = &self.players[index];
        let welcome = ServerMsg::Welcome {
            version: boggle_protocol::VERSION,
            room: self.name.clone(),
            name: player.name.clone(),
            token: player.token.clone(),
            rules: self.config.word_find.rules().preset.to_string(),
            moves: moves(self.config.word_find.rules().moves),
            rounds: self.config.rounds,
            min_players: self.config.min_players,
            duplicates: self.config.duplicates,
        };
        self.send(conn, welcome);
        if let Some(daily) = &self.daily {
            let msg = daily.to_msg();
            self.send(conn, msg);
        }
        // The round before the lobby: a client that joins mid-round is in it.
        if let Phase::Playing { deadline, .. } = &self.phase {
            let start = round_start(self.round, &self.players[index], *deadline, now);
            self.send(conn, start);
        }
        // The newcomer hears the lobby at once; the others within lobby_every.
        if !self.broadcast_lobby(now) {
            let lobby = self.lobby();
            self.send(conn, lobby);
        }
        Ok(())
    }

    /// Why a name is taken: by a player here, or by one who left and may come back.
    fn name_taken(&self, holder: &Player, now: Instant) -> String {
        match holder.left {
            None => format!(
                "someone in room {} is already called {}",
                self.name, holder.name
            ),
            Some(left) => {
                let free = (left + self.config.time.min(MAX_TIME)).saturating_duration_since(now);
                format!(
                    "{} left room {} and keeps the seat for {} s more: to take it back, join \
                     with --token and the token shown when {} joined; otherwise wait, or pick \
                     another name",
                    holder.name,
                    self.name,
                    free.as_secs().max(1),
                    holder.name
                )
            }
        }
    }

    /// `conn` is ready for the next round; it starts once everyone connected is.
    pub(crate) fn ready(&mut self, conn: ConnId, now: Instant) {
        let Some(index) = self.seat(conn) else { return };
        if self.is_playing() || self.players[index].ready {
            return;
        }
        self.players[index].ready = true;
        // The last one ready starts the round, and the round's start says
        // all a lobby would (a room of thousands would hear it for nothing).
        self.maybe_start(now);
        // A round waiting for its board says it all as it starts.
        if !self.is_playing() && !self.awaits_board() {
            self.broadcast_lobby(now);
        }
    }

    /// `conn` guesses `word`: judged at once by the player's own [`Game`]; the
    /// verdict goes to that player only.
    pub(crate) fn word(&mut self, conn: ConnId, word: &str, now: Instant) {
        let Some(index) = self.seat(conn) else { return };
        // Only the clock can have ended the round since the last event (a
        // word makes no one done), and looking at every seat for each word
        // would cost a room of thousands a walk over all of them; the
        // server's timer sends a lobby that is due.
        if self.deadline().is_some_and(|deadline| now >= deadline) {
            self.end_round(now);
        }
        if !self.is_playing() {
            self.error(
                conn,
                ErrorCode::NotInRound,
                "no round is on: the word was not played",
            );
            return;
        }
        let word = word.trim();
        let letters_only = !word.is_empty()
            && word.len() <= MAX_WORD
            && word.bytes().all(|b| b.is_ascii_alphabetic());
        if !letters_only {
            self.error(
                conn,
                ErrorCode::BadWord,
                &format!("a word is 1 to {MAX_WORD} letters A-Z: it was not played"),
            );
            return;
        }
        if index == 0
            && self
                .daily
                .as_ref()
                .is_some_and(|d| d.status == DailyStatus::Scored)
        {
            self.pace.word(now);
        }
        let Some(game) = self.players[index].game.as_mut() else {
            return;
        };
        let verdict = game.play_word(word);
        let msg = ServerMsg::Verdict {
            word: word.to_ascii_uppercase(),
            accepted: verdict.is_accepted(),
            points: verdict.points(),
            reason: verdict.reason(),
            score: game.get_score(),
        };
        self.send(conn, msg);
    }

    /// `conn` has finished the round; when every connected player has, it ends.
    pub(crate) fn done(&mut self, conn: ConnId, now: Instant) {
        let Some(index) = self.seat(conn) else { return };
        if self.is_playing() {
            self.players[index].done = true;
        }
        self.tick(now);
    }

    /// `conn` is gone. During a round the seat is kept for a rejoin with the
    /// token; in the lobby before anyone has scored, the seat is freed.
    pub(crate) fn leave(&mut self, conn: ConnId, now: Instant) {
        let Some(index) = self.seat(conn) else { return };
        let playing = self.is_playing();
        self.seats.remove(&conn);
        let player = &mut self.players[index];
        player.conn = None;
        player.left = Some(now);
        player.ready = false;
        if !playing && player.game.is_none() {
            self.players.remove(index);
            self.reindex();
        }
        self.broadcast_lobby(now);
        // The one who left may have been the last one not ready, or not done.
        if self.is_playing() {
            self.tick(now);
        } else {
            self.maybe_start(now);
        }
    }

    /// Moves the clock to `now`: ends the round when its time is up or every
    /// connected player is done; between rounds, gives up the seats empty for
    /// a whole round's time; sends the lobby if it is due.
    pub(crate) fn tick(&mut self, now: Instant) {
        if let Phase::Playing { deadline, .. } = &self.phase {
            let connected = self.players.iter().filter(|p| p.conn.is_some());
            let all_done = connected.clone().count() > 0 && connected.clone().all(|p| p.done);
            if now >= *deadline || all_done {
                self.end_round(now);
            }
        } else {
            let time = self.config.time;
            let before = self.players.len();
            self.players
                .retain(|p| p.left.is_none_or(|left| now < left + time.min(MAX_TIME)));
            if self.players.len() != before {
                self.reindex();
                self.broadcast_lobby(now);
            }
        }
        if self.lobby_due {
            self.broadcast_lobby(now);
        }
    }

    /// The server is shutting down: no new round starts and no new player
    /// sits; a round under way ends by `by` at the latest (its results go
    /// out as usual). Every connected player is told so, and during a round
    /// the time left.
    pub(crate) fn wind_down(&mut self, by: Instant, now: Instant) {
        self.closing = true;
        let (message, remaining_ms) = match &mut self.phase {
            Phase::Playing { deadline, .. } => {
                *deadline = (*deadline).min(by);
                let left = deadline.saturating_duration_since(now);
                let message = format!(
                    "the server is shutting down: this round ends within {} s, then the server closes",
                    left.as_millis().div_ceil(1000)
                );
                // The clients' clocks show the new end.
                (
                    message,
                    Some(u64::try_from(left.as_millis()).unwrap_or(u64::MAX)),
                )
            }
            _ => (
                "the server is shutting down: no new round will start".to_string(),
                None,
            ),
        };
        self.send_all(ServerMsg::Error {
            code: ErrorCode::ShuttingDown,
            message,
            word: None,
            remaining_ms,
        });
    }

    fn seat(&self, conn: ConnId) -> Option<usize> {
        self.seats.get(&conn).copied()
    }

    /// Builds [`Room::seats`] again after seats were removed (the indices
    /// past them moved).
    fn reindex(&mut self) {
        self.seats = self
            .players
            .iter()
            .enumerate()
            .filter_map(|(index, p)| Some((p.conn?, index)))
            .collect();
    }

    fn conns(&self) -> Vec<ConnId> {
        self.players.iter().filter_map(|p| p.conn).collect()
    }

    fn error(&mut self, conn: ConnId, code: ErrorCode, message: &str) {
        self.send(
            conn,
            ServerMsg::Error {
                code,
                message: message.to_string(),
                word: None,
                remaining_ms: None,
            },
        );
    }

    /// Queues `msg` for one connection.
    fn send(&mut self, conn: ConnId, msg: ServerMsg) {
        self.outbox.push(Envelope {
            to: vec![conn],
            msg,
        });
    }

    /// Queues `msg` once for everyone connected.
    fn send_all(&mut self, msg: ServerMsg) {
        let to = self.conns();
        if !to.is_empty() {
            self.outbox.push(Envelope { to, msg });
        }
    }

    /// The lobby as it is now.
    fn lobby(&self) -> ServerMsg {
        ServerMsg::Lobby {
            players: self
                .players
                .iter()
                .map(|p| LobbyPlayer {
                    name: p.name.clone(),
                    ready: p.ready,
                    connected: p.conn.is_some(),
                    total: p.total,
                })
                .collect(),
            min_players: self.config.min_players,
            round: self.round,
        }
    }

    /// Sends everyone the lobby if none went out in the last [`lobby_every`]
    /// of the room's size; otherwise marks it due for a later [`Room::tick`].
    /// Whether it went out.
    fn broadcast_lobby(&mut self, now: Instant) -> bool {
        let every = lobby_every(self.players.len());
        let recent = self.lobby_sent.is_some_and(|sent| now < sent + every);
        if recent {
            self.lobby_due = true;
            return false;
        }
        self.lobby_due = false;
        self.lobby_sent = Some(now);
        let lobby = self.lobby();
        self.send_all(lobby);
        true
    }

    fn maybe_start(&mut self, now: Instant) {
        if !matches!(self.phase, Phase::Lobby) || self.closing {
            return;
        }
        let connected: Vec<&Player> = self.players.iter().filter(|p| p.conn.is_some()).collect();
        let enough = connected.len() >= self.config.min_players.max(1);
        if !enough || !connected.iter().all(|p| p.ready) {
            return;
        }
        let Some(template) = self.next_game() else {
            return;
        };
        // Seats left empty through the results are given up now.
        self.players.retain(|p| p.conn.is_some());
        self.reindex();
        for player in &mut self.players {
            player.game = Some(template.clone());
            player.ready = false;
            player.done = false;
        }
        self.round += 1;
        let deadline = now + self.config.time.min(MAX_TIME);
        for index in 0..self.players.len() {
            if let Some(conn) = self.players[index].conn {
                let start = round_start(self.round, &self.players[index], deadline, now);
                self.send(conn, start);
            }
        }
        self.phase = Phase::Playing {
            deadline,
            template: Box::new(template),
        };
        // A lobby held back is moot once the round is on.
        self.lobby_due = false;
    }

    /// Ends the round: scores it, sends everyone the results, then the lobby.
    fn end_round(&mut self, now: Instant) {
        let phase = std::mem::replace(&mut self.phase, Phase::Lobby);
        let Phase::Playing { template, .. } = phase else {
            self.phase = phase;
            return;
        };
        let mut finders = self.finders();
        let (mut results, scores) = self.player_results(&finders);
        self.daily_result(&scores);
        if let Some(computer) = self.computer_result(&mut finders) {
            results.push(computer);
        }
        let (shared, shared_total) = self.shared_words(&finders);
        let dictionary = self.config.word_find.dictionary();
        let (missed, missed_total) = missed_words(&template, &finders, dictionary);
        for (player, score) in self.players.iter_mut().zip(&scores) {
            player.total = player.total.saturating_add(*score);
            player.ready = false;
            player.done = false;
        }
        results.sort_by(|a, b| b.score.cmp(&a.score).then(b.total.cmp(&a.total)));
        for (place, result) in results.iter_mut().enumerate() {
            result.place = place + 1;
        }
        let last = self.config.rounds.is_some_and(|n| self.round >= n);
        let (round, duplicates) = (self.round, self.config.duplicates);
        let players_total = results.len();
        let message = |players| ServerMsg::Results {
            round,
            last,
            duplicates,
            players,
            players_total,
            shared: shared.clone(),
            shared_total,
            missed: missed.clone(),
            missed_total,
            board_words: template.words().len(),
            board_points: template.get_total_points_possible(),
        };
        if results.len() <= PLAYERS_LISTED {
            // One message for the whole room, encoded once by the server.
            self.send_all(message(results));
        } else {
            // The best players' list goes once to all of them; each player
            // below it hears that list and their own entry.
            let below: HashMap<String, PlayerResult> = results
                .split_off(PLAYERS_LISTED)
                .into_iter()
                .map(|r| (r.name.clone(), r))
                .collect();
            let mut top = Vec::new();
            for player in &self.players {
                let Some(conn) = player.conn else { continue };
                match below.get(&player.name) {
                    Some(own) => {
                        let mut players = results.clone();
                        players.push(own.clone());
                        self.outbox.push(Envelope {
                            to: vec![conn],
                            msg: message(players),
                        });
                    }
                    None => top.push(conn),
                }
            }
            if !top.is_empty() {
                self.outbox.push(Envelope {
                    to: top,
                    msg: message(results),
                });
            }
        }
        self.phase = if last { Phase::Over } else { Phase::Lobby };
        // The totals changed: the lobby goes out after the results, at once
        // in a small room; in a big one a lobby's time later, so that its
        // bytes do not hold back the results of the players served last.
        if lobby_every(self.players.len()) > LOBBY_EVERY {
            self.lobby_sent = Some(now);
            self.lobby_due = true;
        } else {
            self.lobby_sent = None;
            self.broadcast_lobby(now);
        }
    }
}

/// The `round_start` message for `player`: the board, the time left and what they have found.
fn round_start(round: u32, player: &Player, deadline: Instant, now: Instant) -> ServerMsg {
    let (board, found, score) = match &player.game {
        Some(game) => (
            game.board().clone(),
            game.found_words()
                .iter()
                .map(|w| WordPoints {
                    word: w.clone(),
                    points: game.get_word_score(w),
                    rare: false,
                })
                .collect(),
            game.get_score(),
        ),
        None => (GameBoard::from_rolled(1, 1, Vec::new()), Vec::new(), 0),
    };
    let remaining = deadline.saturating_duration_since(now);
    ServerMsg::RoundStart {
        round,
        rows: board.rows(),
        cols: board.cols(),
        board: board
            .faces()
            .iter()
            .map(|f| f.as_str().to_string())
            .collect(),
        remaining_ms: u64::try_from(remaining.as_millis()).unwrap_or(u64::MAX),
        found,
        score,
    }
}

/// The rules' move rule as the `welcome` names it to clients.
fn moves(rule: MoveRule) -> Moves {
    match rule {
        MoveRule::EightNeighbours => Moves::EightNeighbours,
        MoveRule::NoUp => Moves::NoUp,
    }
}

#[cfg(test)]
mod tests;
