//! What a room needs from outside between events, still without a clock
//! or a thread of its own: when it must next be ticked ([`Room::wake_at`]),
//! and, for a room whose boards are solved by its caller
//! ([`Room::solve_boards_outside`]), the board a round waits for
//! ([`Room::board_wanted`]) and the solved game handed back
//! ([`Room::board_solved`]).
//!
//! How it works: a room that solves its boards itself (the default, and
//! every test of `tests.rs`) starts a round inside the call that makes
//! everyone ready. One that solves them outside rolls the board at that
//! point, with the same generator, so its boards are the same sequence,
//! and starts the round when the solved game comes back, if everyone is
//! still ready; else the game waits for the next time they are.
//!
//! Limits: the room holds at most one board being solved; the caller
//! must hand back every board it took, or the room waits for ever.

use std::time::Instant;

use boggle_game::game::Game;
use boggle_game::game_board::GameBoard;
use boggle_game::random::GameRng;

use super::{MAX_TIME, Phase, Room, RoomConfig, lobby_every};

/// The state of a board solved by the room's caller.
#[derive(Debug, Default)]
pub(super) struct Outside {
    /// Rolled for the round about to start, not yet taken to be solved.
    wanted: Option<GameBoard>,
    /// Taken by the caller, its game not yet handed back.
    solving: bool,
    /// Solved, waiting for everyone to be ready.
    solved: Option<Box<Game>>,
}

/// The next round's board: the fixed one, or one rolled by `rng`.
fn roll(config: &RoomConfig, rng: &mut GameRng) -> GameBoard {
    match &config.board {
        Some(board) => board.clone(),
        None => GameBoard::random(config.word_find.rules(), rng),
    }
}

impl Room {
    /// From now on the room does not solve its boards: a round about to
    /// start waits for its board, taken with [`Room::board_wanted`], to be
    /// solved and handed back with [`Room::board_solved`].
    pub(crate) fn solve_boards_outside(&mut self) {
        self.outside.get_or_insert_with(Outside::default);
    }

    /// The board a round waits for, once: the caller solves it
    /// (`Game::from_board`) and hands the game back with [`Room::board_solved`].
    pub(crate) fn board_wanted(&mut self) -> Option<GameBoard> {
        let outside = self.outside.as_mut()?;
        let board = outside.wanted.take()?;
        outside.solving = true;
        Some(board)
    }

    /// The game of the board taken with [`Room::board_wanted`], solved:
    /// the round starts on it now if everyone is still ready, else when
    /// they next are.
    pub(crate) fn board_solved(&mut self, game: Game, now: Instant) {
        let Some(outside) = self.outside.as_mut() else {
            return;
        };
        outside.solving = false;
        outside.solved = Some(Box::new(game));
        self.maybe_start(now);
    }

    /// Whether a round is waiting for its board to be solved outside.
    pub(crate) fn awaits_board(&self) -> bool {
        self.outside
            .as_ref()
            .is_some_and(|o| o.wanted.is_some() || o.solving)
    }

    /// When the room next needs a [`Room::tick`] if nothing else happens:
    /// the end of the round, a lobby held back, or (between rounds) a seat
    /// left empty for a whole round's time given up. `None`: only an
    /// event can change the room.
    pub(crate) fn wake_at(&self) -> Option<Instant> {
        let lobby = self
            .lobby_sent
            .filter(|_| self.lobby_due)
            .map(|sent| sent + lobby_every(self.players.len()));
        let other = match &self.phase {
            Phase::Playing { deadline, .. } => Some(*deadline),
            // A walk over the seats, but only between rounds, where events are few.
            Phase::Lobby | Phase::Over => {
                let time = self.config.time.min(MAX_TIME);
                self.players
                    .iter()
                    .filter_map(|p| p.left)
                    .min()
                    .map(|left| left + time)
            }
        };
        [lobby, other].into_iter().flatten().min()
    }

    /// The game of the next round: solved here, or handed in solved
    /// (`None` while it is not yet: the board is then rolled for the caller).
    pub(super) fn next_game(&mut self) -> Option<Game> {
        let Some(outside) = self.outside.as_mut() else {
            let board = roll(&self.config, &mut self.rng);
            // Solving the board once and cloning the game gives every player
            // the same words without solving it once per player.
            return Some(Game::from_board(board, &self.config.word_find));
        };
        if let Some(game) = outside.solved.take() {
            return Some(*game);
        }
        if outside.wanted.is_none() && !outside.solving {
            outside.wanted = Some(roll(&self.config, &mut self.rng));
        }
        None
    }
}

#[cfg(test)]
#[expect(
    clippy::disallowed_methods,
    reason = "an Instant cannot be made but from the clock: these tests read it once and count on from it"
)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use boggle_game::dictionary::Dictionary;
    use boggle_game::random;
    use boggle_game::rules::Rules;
    use boggle_game::word_find::WordFind;
    use boggle_protocol::{Duplicates, ServerMsg};

    use super::super::{ConnId, Envelope, LOBBY_EVERY};
    use super::*;

    /// A room of two whose boards are rolled (seed 7), solved here or outside.
    fn room(outside: bool) -> Room {
        let words = ["EAT", "TEA", "NAG"];
        let find = WordFind::with_rules(Arc::new(Dictionary::from_words(words)), Rules::project4());
        let config = RoomConfig {
            word_find: Arc::new(find),
            board: None,
            time: Duration::from_secs(60),
            rounds: None,
            min_players: 2,
            duplicates: Duplicates::Cancel,
            max_players: 3,
            computer: None,
            daily: None,
        };
        let mut room = Room::new("main", Arc::new(config), random::seeded(7));
        if outside {
            room.solve_boards_outside();
        }
        room
    }

    /// The board of the round start `conn` heard, if any.
    fn board(out: &[Envelope], conn: ConnId) -> Option<String> {
        out.iter()
            .filter(|e| e.to.contains(&conn))
            .find_map(|e| match &e.msg {
                ServerMsg::RoundStart { board, .. } => Some(board.concat()),
                _ => None,
            })
    }

    /// Solves the board the room wants, as the server does off its thread.
    fn solve(room: &mut Room, now: Instant) {
        let board = room.board_wanted().expect("a board is wanted");
        assert!(room.board_wanted().is_none(), "each board is taken once");
        let game = Game::from_board(board, &room.config.word_find);
        room.board_solved(game, now);
    }

    #[test]
    fn a_round_solved_outside_starts_when_its_board_comes_back_on_the_same_boards() {
        let t0 = Instant::now();
        let (mut inline, mut outside) = (room(false), room(true));
        for room in [&mut inline, &mut outside] {
            room.join(1, "ann", None, "t1".into(), t0).expect("joins");
            room.join(2, "bob", None, "t2".into(), t0).expect("joins");
            room.ready(1, t0);
            room.ready(2, t0);
        }
        assert!(inline.is_playing());
        assert!(!outside.is_playing() && outside.awaits_board());
        outside.drain();
        let later = t0 + Duration::from_millis(5);
        solve(&mut outside, later);
        assert!(outside.is_playing() && !outside.awaits_board());
        assert_eq!(outside.deadline(), Some(later + Duration::from_secs(60)));
        let (a, b) = (inline.drain(), outside.drain());
        assert_eq!(board(&a, 1), board(&b, 1), "the same first board");
        assert!(board(&b, 2).is_some());
        // The next round rolls the next board of the same sequence.
        let t1 = t0 + Duration::from_secs(61);
        for room in [&mut inline, &mut outside] {
            room.tick(t1);
            room.ready(1, t1);
            room.ready(2, t1);
        }
        solve(&mut outside, t1);
        let (a, b) = (inline.drain(), outside.drain());
        assert!(board(&a, 1).is_some());
        assert_eq!(board(&a, 1), board(&b, 1), "the same second board");
    }

    #[test]
    fn a_board_that_comes_back_to_a_room_not_all_ready_waits_for_them() {
        let t0 = Instant::now();
        let mut room = room(true);
        room.join(1, "ann", None, "t1".into(), t0).expect("joins");
        room.join(2, "bob", None, "t2".into(), t0).expect("joins");
        room.ready(1, t0);
        room.ready(2, t0);
        let wanted = room.board_wanted().expect("a board is wanted");
        // Someone sits while it is solved: the round waits for them.
        room.join(3, "cy", None, "t3".into(), t0).expect("joins");
        room.board_solved(Game::from_board(wanted, &room.config.word_find), t0);
        assert!(!room.is_playing() && !room.awaits_board());
        room.drain();
        room.ready(3, t0 + Duration::from_secs(1));
        assert!(room.is_playing(), "the board solved starts the round");
        assert!(room.board_wanted().is_none(), "and no other was rolled");
        assert!(board(&room.drain(), 3).is_some());
    }

    #[test]
    fn the_room_wakes_for_its_rounds_end_a_lobby_held_back_and_a_seat_given_up() {
        let t0 = Instant::now();
        let mut room = room(false);
        assert_eq!(room.wake_at(), None, "an empty room waits for events");
        room.join(1, "ann", None, "t1".into(), t0).expect("joins");
        // A second lobby within a tenth of a second of the first is held back.
        let t = t0 + Duration::from_millis(10);
        room.join(2, "bob", None, "t2".into(), t).expect("joins");
        assert_eq!(room.wake_at(), Some(t0 + LOBBY_EVERY));
        room.tick(t0 + LOBBY_EVERY);
        assert_eq!(room.wake_at(), None, "the tick sent it");
        room.ready(1, t0 + Duration::from_secs(1));
        room.ready(2, t0 + Duration::from_secs(1));
        let end = t0 + Duration::from_secs(61);
        assert_eq!(room.wake_at(), Some(end), "the round's end");
        // Bob leaves during the round; the round ends on time.
        room.leave(2, t0 + Duration::from_secs(2));
        room.tick(end);
        assert!(!room.is_playing());
        // Between rounds his seat is kept for a round's time from his leaving.
        let given_up = t0 + Duration::from_secs(62);
        assert_eq!(room.wake_at(), Some(given_up));
        room.tick(given_up);
        assert_eq!(room.wake_at(), None);
        let out = room.drain();
        let last_lobby = out.iter().rev().find_map(|e| match &e.msg {
            ServerMsg::Lobby { players, .. } => Some(players.len()),
            _ => None,
        });
        assert_eq!(last_lobby, Some(1), "the lobby no longer lists him");
    }
}
