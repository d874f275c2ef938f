//! One room's game as a pure state machine: players join, ready up, play
//! words and leave; the room answers with the messages to send, to whom. No
//! sockets and no clock of its own: the server passes in the time of every
//! event, so tests drive whole rounds with made-up instants. Each player
//! plays their own [`Game`] on the room's board, so verdicts, repeats and
//! points are exactly the console game's; the room adds only the board
//! game's end of round (shared words cancelled) and the running totals.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::game::Game;
use crate::game_board::GameBoard;
use crate::random::GameRng;
use crate::word_find::WordFind;

use super::protocol::{
    Duplicates, ErrorCode, FoundWord, LobbyPlayer, MAX_WORD, PlayerResult, ServerMsg, SharedWord,
    WordPoints, check_name,
};

/// Which connection a message comes from or goes to (the server numbers them).
pub type ConnId = u64;

/// The most missed words a results message lists (a big board has thousands).
pub const MISSED_SHOWN: usize = 40;

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
}

/// One seat in the room.
#[derive(Debug)]
struct Player {
    name: String,
    token: String,
    conn: Option<ConnId>,
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

/// A message to send: to one connection.
pub type Outgoing = (ConnId, ServerMsg);

/// One room: its players, its rounds and the messages waiting to be sent.
#[derive(Debug)]
pub struct Room {
    name: String,
    config: Arc<RoomConfig>,
    rng: GameRng,
    players: Vec<Player>,
    phase: Phase,
    round: u32,
    outbox: Vec<Outgoing>,
}

/// Why a join is refused: the error to send before closing the connection.
pub type Refusal = (ErrorCode, String);

impl Room {
    /// An empty room; `rng` rolls its boards.
    pub fn new(name: &str, config: Arc<RoomConfig>, rng: GameRng) -> Room {
        Room {
            name: name.to_string(),
            config,
            rng,
            players: Vec::new(),
            phase: Phase::Lobby,
            round: 0,
            outbox: Vec::new(),
        }
    }

    /// The room's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Rounds started so far.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// Whether a round is on.
    pub fn is_playing(&self) -> bool {
        matches!(self.phase, Phase::Playing { .. })
    }

    /// Whether `conn` holds a seat.
    pub fn has_conn(&self, conn: ConnId) -> bool {
        self.seat(conn).is_some()
    }

    /// Players connected now.
    pub fn connected(&self) -> usize {
        self.players.iter().filter(|p| p.conn.is_some()).count()
    }

    /// Whether the server may forget the room: nobody is connected and no
    /// round is on that a dropped player could come back to.
    pub fn is_abandoned(&self) -> bool {
        self.connected() == 0 && !self.is_playing()
    }

    /// When the room next needs a [`Room::tick`]: the end of the round.
    pub fn deadline(&self) -> Option<Instant> {
        match &self.phase {
            Phase::Playing { deadline, .. } => Some(*deadline),
            _ => None,
        }
    }

    /// The messages produced since the last call, in order.
    pub fn drain(&mut self) -> Vec<Outgoing> {
        std::mem::take(&mut self.outbox)
    }

    /// `conn` asks to sit as `name`; with `token`, to take back the seat that
    /// token was issued for. A new seat gets `fresh_token`. On success the
    /// player is sent `welcome` (and the round, if one is on) and everyone
    /// the new lobby; on refusal nothing changes.
    pub fn join(
        &mut self,
        conn: ConnId,
        name: &str,
        token: Option<&str>,
        fresh_token: String,
        now: Instant,
    ) -> Result<(), Refusal> {
        if let Some(why) = check_name(name) {
            return Err((ErrorCode::BadName, why));
        }
        if matches!(self.phase, Phase::Over) {
            return Err((
                ErrorCode::RoundsOver,
                format!("room {} has played all its rounds", self.name),
            ));
        }
        let index = if let Some(token) = token {
            // Tokens are random, unguessable strings; which seat they name is
            // no secret worth a constant-time search.
            let Some(index) = self
                .players
                .iter()
                .position(|p| p.token == token && p.name == name)
            else {
                return Err((
                    ErrorCode::BadToken,
                    format!("no seat for {name} with that token in room {}", self.name),
                ));
            };
            // A second connection with the token takes the seat over; the old one hears nothing more.
            self.players[index].conn = Some(conn);
            index
        } else {
            if self
                .players
                .iter()
                .any(|p| p.name.to_lowercase() == name.to_lowercase())
            {
                return Err((
                    ErrorCode::NameTaken,
                    format!("someone in room {} is already called {name}", self.name),
                ));
            }
            if self.players.len() >= self.config.max_players {
                return Err((
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
            self.players.push(Player {
                name: name.to_string(),
                token: fresh_token,
                conn: Some(conn),
                ready: false,
                done: false,
                game,
                total: 0,
            });
            self.players.len() - 1
        };
        let player = &self.players[index];
        let welcome = ServerMsg::Welcome {
            version: super::protocol::VERSION,
            room: self.name.clone(),
            name: player.name.clone(),
            token: player.token.clone(),
            rules: self.config.word_find.rules().preset.to_string(),
            moves: self.config.word_find.rules().moves.into(),
            rounds: self.config.rounds,
            min_players: self.config.min_players,
            duplicates: self.config.duplicates,
        };
        self.outbox.push((conn, welcome));
        self.broadcast_lobby();
        if let Phase::Playing { deadline, .. } = &self.phase {
            let start = round_start(self.round, &self.players[index], *deadline, now);
            self.outbox.push((conn, start));
        }
        Ok(())
    }

    /// `conn` is ready for the next round; it starts once everyone connected is.
    pub fn ready(&mut self, conn: ConnId, now: Instant) {
        let Some(index) = self.seat(conn) else { return };
        if self.is_playing() || self.players[index].ready {
            return;
        }
        self.players[index].ready = true;
        self.broadcast_lobby();
        self.maybe_start(now);
    }

    /// `conn` guesses `word`: judged at once by the player's own [`Game`]; the
    /// verdict goes to that player only.
    pub fn word(&mut self, conn: ConnId, word: &str, now: Instant) {
        let Some(index) = self.seat(conn) else { return };
        self.tick(now);
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
        self.outbox.push((conn, msg));
    }

    /// `conn` has finished the round; when every connected player has, it ends.
    pub fn done(&mut self, conn: ConnId, now: Instant) {
        let Some(index) = self.seat(conn) else { return };
        if self.is_playing() {
            self.players[index].done = true;
        }
        self.tick(now);
    }

    /// `conn` is gone. During a round the seat is kept for a rejoin with the
    /// token; in the lobby before anyone has scored, the seat is freed.
    pub fn leave(&mut self, conn: ConnId, now: Instant) {
        let Some(index) = self.seat(conn) else { return };
        let playing = self.is_playing();
        let player = &mut self.players[index];
        player.conn = None;
        player.ready = false;
        if !playing && player.game.is_none() {
            self.players.remove(index);
        }
        self.broadcast_lobby();
        // The one who left may have been the last one not ready, or not done.
        if self.is_playing() {
            self.tick(now);
        } else {
            self.maybe_start(now);
        }
    }

    /// Moves the clock to `now`: ends the round when its time is up or every
    /// connected player is done.
    pub fn tick(&mut self, now: Instant) {
        let Phase::Playing { deadline, .. } = &self.phase else {
            return;
        };
        let connected = self.players.iter().filter(|p| p.conn.is_some());
        let all_done = connected.clone().count() > 0 && connected.clone().all(|p| p.done);
        if now >= *deadline || all_done {
            self.end_round();
        }
    }

    /// Ends the server's part: every connected player is told `reason`.
    pub fn shut_down(&mut self, reason: &str) {
        for conn in self.conns() {
            self.outbox.push((
                conn,
                ServerMsg::Bye {
                    reason: reason.to_string(),
                },
            ));
        }
    }

    fn seat(&self, conn: ConnId) -> Option<usize> {
        self.players.iter().position(|p| p.conn == Some(conn))
    }

    fn conns(&self) -> Vec<ConnId> {
        self.players.iter().filter_map(|p| p.conn).collect()
    }

    fn error(&mut self, conn: ConnId, code: ErrorCode, message: &str) {
        self.outbox.push((
            conn,
            ServerMsg::Error {
                code,
                message: message.to_string(),
            },
        ));
    }

    fn broadcast_lobby(&mut self) {
        let players: Vec<LobbyPlayer> = self
            .players
            .iter()
            .map(|p| LobbyPlayer {
                name: p.name.clone(),
                ready: p.ready,
                connected: p.conn.is_some(),
                total: p.total,
            })
            .collect();
        for conn in self.conns() {
            self.outbox.push((
                conn,
                ServerMsg::Lobby {
                    players: players.clone(),
                    min_players: self.config.min_players,
                    round: self.round,
                },
            ));
        }
    }

    fn maybe_start(&mut self, now: Instant) {
        if !matches!(self.phase, Phase::Lobby) {
            return;
        }
        let connected: Vec<&Player> = self.players.iter().filter(|p| p.conn.is_some()).collect();
        let enough = connected.len() >= self.config.min_players.max(1);
        if !enough || !connected.iter().all(|p| p.ready) {
            return;
        }
        // Seats left empty through the results are given up now.
        self.players.retain(|p| p.conn.is_some());
        let board = match &self.config.board {
            Some(board) => board.clone(),
            None => GameBoard::random(self.config.word_find.rules(), &mut self.rng),
        };
        // Solving the board once and cloning the game gives every player the
        // same words without solving it once per player.
        let template = Game::from_board(board, &self.config.word_find);
        for player in &mut self.players {
            player.game = Some(template.clone());
            player.ready = false;
            player.done = false;
        }
        self.round += 1;
        let deadline = now + self.config.time;
        for index in 0..self.players.len() {
            if let Some(conn) = self.players[index].conn {
                let start = round_start(self.round, &self.players[index], deadline, now);
                self.outbox.push((conn, start));
            }
        }
        self.phase = Phase::Playing {
            deadline,
            template: Box::new(template),
        };
    }

    fn end_round(&mut self) {
        let phase = std::mem::replace(&mut self.phase, Phase::Lobby);
        let Phase::Playing { template, .. } = phase else {
            self.phase = phase;
            return;
        };
        let cancel = self.config.duplicates == Duplicates::Cancel;
        // Who found each word, by seat.
        let mut finders: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        for (seat, player) in self.players.iter().enumerate() {
            for word in player.game.iter().flat_map(|g| g.found_words()) {
                finders.entry(word.as_str()).or_default().push(seat);
            }
        }
        let mut results: Vec<PlayerResult> = Vec::with_capacity(self.players.len());
        let mut scores = Vec::with_capacity(self.players.len());
        for player in &self.players {
            let mut words = Vec::new();
            let mut score = 0u32;
            if let Some(game) = &player.game {
                for word in game.found_words() {
                    let points = game.get_word_score(word);
                    let cancelled =
                        cancel && finders.get(word.as_str()).is_some_and(|f| f.len() >= 2);
                    if !cancelled {
                        score = score.saturating_add(points);
                    }
                    words.push(FoundWord {
                        word: word.clone(),
                        points,
                        cancelled,
                    });
                }
            }
            scores.push(score);
            results.push(PlayerResult {
                name: player.name.clone(),
                words,
                score,
                total: player.total.saturating_add(score),
            });
        }
        let shared: Vec<SharedWord> = finders
            .iter()
            .filter(|(_, seats)| seats.len() >= 2)
            .map(|(word, seats)| SharedWord {
                word: (*word).to_string(),
                players: seats
                    .iter()
                    .map(|&s| self.players[s].name.clone())
                    .collect(),
            })
            .collect();
        let mut missed: Vec<WordPoints> = template
            .words()
            .iter()
            .filter(|w| !finders.contains_key(w.as_str()))
            .map(|w| WordPoints {
                word: w.clone(),
                points: template.get_word_score(w),
            })
            .collect();
        let missed_total = missed.len();
        // Best first: most points, then longest, then A-Z (the set is already A-Z).
        missed.sort_by(|a, b| {
            b.points
                .cmp(&a.points)
                .then(b.word.len().cmp(&a.word.len()))
        });
        missed.truncate(MISSED_SHOWN);
        for (player, score) in self.players.iter_mut().zip(&scores) {
            player.total = player.total.saturating_add(*score);
            player.ready = false;
            player.done = false;
        }
        results.sort_by(|a, b| b.score.cmp(&a.score).then(b.total.cmp(&a.total)));
        let last = self.config.rounds.is_some_and(|n| self.round >= n);
        let msg = ServerMsg::Results {
            round: self.round,
            last,
            duplicates: self.config.duplicates,
            players: results,
            shared,
            missed,
            missed_total,
        };
        for conn in self.conns() {
            self.outbox.push((conn, msg.clone()));
        }
        self.phase = if last { Phase::Over } else { Phase::Lobby };
        self.broadcast_lobby();
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dictionary::Dictionary;
    use crate::random;
    use crate::rules::Rules;

    const BOARD: &str = "BENHLAUMITLZRGAN";

    fn config(duplicates: Duplicates, min_players: usize, rounds: Option<u32>) -> Arc<RoomConfig> {
        let words = ["EAT", "BAT", "NAG", "TEA", "LAB"];
        let find = WordFind::with_rules(Arc::new(Dictionary::from_words(words)), Rules::project4());
        Arc::new(RoomConfig {
            word_find: Arc::new(find),
            board: Some(GameBoard::new(BOARD).expect("16 letters")),
            time: Duration::from_secs(60),
            rounds,
            min_players,
            duplicates,
            max_players: 3,
        })
    }

    fn room(duplicates: Duplicates, min_players: usize, rounds: Option<u32>) -> Room {
        Room::new(
            "main",
            config(duplicates, min_players, rounds),
            random::seeded(1),
        )
    }

    fn to(out: &[Outgoing], conn: ConnId) -> Vec<&ServerMsg> {
        out.iter()
            .filter(|(c, _)| *c == conn)
            .map(|(_, m)| m)
            .collect()
    }

    fn results(out: &[Outgoing], conn: ConnId) -> Vec<PlayerResult> {
        to(out, conn)
            .into_iter()
            .find_map(|m| match m {
                ServerMsg::Results { players, .. } => Some(players.clone()),
                _ => None,
            })
            .expect("results sent")
    }

    fn start_two(room: &mut Room, t0: Instant) {
        room.join(1, "ann", None, "t1".into(), t0).expect("joins");
        room.join(2, "bob", None, "t2".into(), t0).expect("joins");
        room.ready(1, t0);
        assert!(!room.is_playing(), "bob is not ready yet");
        room.ready(2, t0);
        assert!(room.is_playing());
    }

    #[test]
    fn a_round_starts_when_everyone_is_ready_with_the_same_board() {
        let mut room = room(Duplicates::Cancel, 2, None);
        let t0 = Instant::now();
        start_two(&mut room, t0);
        let out = room.drain();
        for conn in [1, 2] {
            let start = to(&out, conn)
                .into_iter()
                .find(|m| matches!(m, ServerMsg::RoundStart { .. }))
                .expect("round start");
            let ServerMsg::RoundStart {
                board,
                remaining_ms,
                round,
                ..
            } = start
            else {
                unreachable!()
            };
            assert_eq!(board.concat(), BOARD);
            assert_eq!((*remaining_ms, *round), (60_000, 1));
        }
    }

    #[test]
    fn min_players_holds_the_round() {
        let mut room = room(Duplicates::Cancel, 2, None);
        let t0 = Instant::now();
        room.join(1, "ann", None, "t1".into(), t0).expect("joins");
        room.ready(1, t0);
        assert!(!room.is_playing());
        room.join(2, "bob", None, "t2".into(), t0).expect("joins");
        room.ready(2, t0);
        assert!(room.is_playing());
    }

    #[test]
    fn verdicts_go_to_their_player_only_and_shared_words_cancel() {
        let mut room = room(Duplicates::Cancel, 2, None);
        let t0 = Instant::now();
        start_two(&mut room, t0);
        room.drain();
        room.word(1, "eat", t0);
        room.word(1, "bat", t0);
        room.word(2, "EAT", t0);
        room.word(2, "xyz", t0);
        let out = room.drain();
        assert_eq!(to(&out, 1).len(), 2);
        assert_eq!(
            to(&out, 2)[1],
            &ServerMsg::Verdict {
                word: "XYZ".into(),
                accepted: false,
                points: 0,
                reason: "not in the dictionary".into(),
                score: 1
            }
        );
        room.tick(t0 + Duration::from_secs(59));
        assert!(room.is_playing());
        room.tick(t0 + Duration::from_secs(60));
        assert!(!room.is_playing());
        let out = room.drain();
        let players = results(&out, 2);
        assert_eq!(players[0].name, "ann");
        assert_eq!((players[0].score, players[1].score), (1, 0));
        assert!(players[1].words[0].cancelled);
        let Some(ServerMsg::Results {
            shared,
            missed_total,
            ..
        }) = to(&out, 1)
            .into_iter()
            .find(|m| matches!(m, ServerMsg::Results { .. }))
        else {
            panic!("results")
        };
        assert_eq!(
            shared,
            &[SharedWord {
                word: "EAT".into(),
                players: vec!["ann".into(), "bob".into()]
            }]
        );
        assert_eq!(*missed_total, 1, "NAG (TEA and LAB are not on the board)");
    }

    #[test]
    fn duplicates_count_keeps_shared_words() {
        let mut room = room(Duplicates::Count, 2, None);
        let t0 = Instant::now();
        start_two(&mut room, t0);
        room.word(1, "eat", t0);
        room.word(2, "eat", t0);
        room.done(1, t0);
        assert!(room.is_playing());
        room.done(2, t0);
        assert!(!room.is_playing(), "everyone is done");
        let players = results(&room.drain(), 1);
        assert_eq!((players[0].score, players[1].score), (1, 1));
    }

    #[test]
    fn words_outside_a_round_or_not_letters_are_refused_not_judged() {
        let mut room = room(Duplicates::Cancel, 1, None);
        let t0 = Instant::now();
        room.join(1, "ann", None, "t".into(), t0).expect("joins");
        room.word(1, "eat", t0);
        room.ready(1, t0);
        room.word(1, "e\x1bat", t0);
        room.word(1, &"A".repeat(MAX_WORD + 1), t0);
        room.word(1, "eat", t0 + Duration::from_secs(61));
        let codes: Vec<ErrorCode> = room
            .drain()
            .into_iter()
            .filter_map(|(_, m)| match m {
                ServerMsg::Error { code, .. } => Some(code),
                _ => None,
            })
            .collect();
        assert_eq!(
            codes,
            [
                ErrorCode::NotInRound,
                ErrorCode::BadWord,
                ErrorCode::BadWord,
                ErrorCode::NotInRound
            ]
        );
    }

    #[test]
    fn a_dropped_player_rejoins_with_the_token_and_keeps_the_words() {
        let mut room = room(Duplicates::Cancel, 2, None);
        let t0 = Instant::now();
        start_two(&mut room, t0);
        room.word(1, "eat", t0);
        room.leave(1, t0);
        assert!(room.is_playing());
        room.drain();
        let refused = room.join(3, "ann", None, "t3".into(), t0);
        assert_eq!(refused.map_err(|e| e.0), Err(ErrorCode::NameTaken));
        let refused = room.join(3, "ann", Some("wrong"), "t3".into(), t0);
        assert_eq!(refused.map_err(|e| e.0), Err(ErrorCode::BadToken));
        let t1 = t0 + Duration::from_secs(10);
        room.join(3, "ann", Some("t1"), "t3".into(), t1)
            .expect("rejoins");
        let out = room.drain();
        let start = to(&out, 3)
            .into_iter()
            .find(|m| matches!(m, ServerMsg::RoundStart { .. }));
        let Some(ServerMsg::RoundStart {
            found,
            remaining_ms,
            score,
            ..
        }) = start
        else {
            panic!("the round is sent again")
        };
        assert_eq!((found.len(), *score, *remaining_ms), (1, 1, 50_000));
        room.word(3, "eat", t1);
        let out = room.drain();
        assert!(
            matches!(&to(&out, 3)[0], ServerMsg::Verdict { reason, .. } if reason == "already found")
        );
        room.tick(t0 + Duration::from_secs(60));
        let players = results(&room.drain(), 3);
        assert_eq!((players[0].name.as_str(), players[0].total), ("ann", 1));
    }

    #[test]
    fn names_are_checked_and_rooms_have_a_cap() {
        let mut room = room(Duplicates::Cancel, 1, None);
        let t0 = Instant::now();
        let bad = room.join(1, "\x1b[2Jevil", None, "t".into(), t0);
        assert_eq!(bad.map_err(|e| e.0), Err(ErrorCode::BadName));
        for (conn, name) in [(1, "a"), (2, "b"), (3, "c")] {
            room.join(conn, name, None, format!("t{conn}"), t0)
                .expect("joins");
        }
        assert_eq!(
            room.join(4, "d", None, "t4".into(), t0).map_err(|e| e.0),
            Err(ErrorCode::RoomFull)
        );
        assert_eq!(
            room.join(4, "A", None, "t4".into(), t0).map_err(|e| e.0),
            Err(ErrorCode::NameTaken)
        );
    }

    #[test]
    fn next_round_without_rejoining_and_the_last_round_closes_the_room() {
        let mut room = room(Duplicates::Cancel, 1, Some(2));
        let t0 = Instant::now();
        room.join(1, "ann", None, "t".into(), t0).expect("joins");
        room.ready(1, t0);
        room.word(1, "eat", t0);
        room.done(1, t0);
        room.ready(1, t0);
        assert_eq!((room.is_playing(), room.round()), (true, 2));
        room.word(1, "eat", t0);
        room.tick(t0 + Duration::from_secs(60));
        let out = room.drain();
        let last = to(&out, 1)
            .into_iter()
            .filter_map(|m| match m {
                ServerMsg::Results { last, players, .. } => Some((*last, players[0].total)),
                _ => None,
            })
            .next_back();
        assert_eq!(
            last,
            Some((true, 2)),
            "a fresh game each round, totals carried"
        );
        room.ready(1, t0);
        assert!(!room.is_playing());
        let late = room.join(2, "bob", None, "t2".into(), t0);
        assert_eq!(late.map_err(|e| e.0), Err(ErrorCode::RoundsOver));
    }

    #[test]
    fn leaving_the_lobby_frees_the_seat_and_may_start_the_round() {
        let mut room = room(Duplicates::Cancel, 1, None);
        let t0 = Instant::now();
        room.join(1, "ann", None, "t1".into(), t0).expect("joins");
        room.join(2, "bob", None, "t2".into(), t0).expect("joins");
        room.ready(1, t0);
        room.leave(2, t0);
        assert!(room.is_playing(), "ann was the only one left, and ready");
        room.leave(1, t0);
        assert!(!room.is_abandoned(), "ann may come back within the round");
        room.tick(t0 + Duration::from_secs(60));
        assert!(room.is_abandoned());
    }
}
