//! What `boggle join`'s full screen shows and what each [`Input`] does to
//! it, with no terminal, socket or clock: the lobby (who is in, who is
//! ready), the round (the board, the typed word, the time left, each
//! verdict), the results (a word chosen with Left and Right, its path on
//! the board, its meaning on `d`) and the help (`?`). The time left is the server's, as of the
//! round's `round_start`, less the ticks since (so tests inject time). What
//! to send the server is handed back from [`Screen::handle`]; how the screen
//! ends is kept until the driver takes it ([`Screen::take_end`]).

use std::time::Duration;

use crate::tui::app::GRACE;
use crate::tui::terminal::{Code, Key};
use boggle_client::join::{JoinError, Results, rejoin_command};
use boggle_client::link::{JoinOptions, LinkEvent};
use boggle_engine::path::trace;
use boggle_game::face::Face;
use boggle_game::game_board::GameBoard;
use boggle_game::rules::MoveRule;
use boggle_meaning::{Meanings, meaning_lines};
use boggle_protocol::names::clean;
use boggle_protocol::{ClientMsg, Duplicates, LobbyPlayer, MAX_WORD, Moves, ServerMsg, WordPoints};

/// One thing that happens to the screen.
#[derive(Debug)]
pub(crate) enum Input {
    /// The player pressed a key.
    Key(Key),
    /// Time passed.
    Tick(Duration),
    /// The link to the server said something.
    Link(LinkEvent),
}

/// Where the player is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum View {
    /// Waiting for a round, with who is in.
    Lobby,
    /// Playing a round.
    Round,
    /// A round's results.
    Results,
}

/// The prompt while a round is on.
const ROUND_STATUS: &str = "type a word, Enter to play it; Enter twice: done   Ctrl-C: quit";
/// The prompt in the lobby.
const LOBBY_STATUS: &str = "Enter: ready   ?: help   q: quit";
/// The prompt on the results.
const RESULTS_STATUS: &str = "Enter: ready  ←→ d: a word's meaning  ↑↓: scroll  q: quit";
/// What the lobby and the results say where the seat's token is kept.
pub(crate) const SEAT_NOTE: &str =
    "your seat is kept: if this window closes, run the same boggle join again to take it back";
/// What the status says once the player is ready.
const READY_STATUS: &str = "ready: the round starts when everyone is ready   q: quit";

/// What the screen shows, and how it ended.
#[derive(Debug)]
pub(crate) struct Screen {
    /// The header: who is in which room, by which rules.
    pub(super) title: String,
    /// The header where the title does not fit: who, and in which room.
    pub(super) short_title: String,
    pub(super) view: View,
    pub(super) lobby: Vec<LobbyPlayer>,
    pub(super) min_players: usize,
    pub(super) round: u32,
    /// The room's rules as the welcome names them (`classic`).
    pub(super) rules_name: String,
    /// Whether the room cancels shared words.
    pub(super) duplicates: Duplicates,
    /// The rounds the room plays, if it stops.
    pub(super) rounds: Option<u32>,
    /// The room's move rule, for the live trace.
    pub(super) moves: MoveRule,
    /// The round's board; `None` before the first round or when the server's
    /// faces do not make a board.
    pub(super) board: Option<GameBoard>,
    /// The time left in the round, by the server's clock, to within a tick.
    pub(super) left: Option<Duration>,
    pub(super) typed: String,
    /// Each verdict's text, and whether the word was taken.
    pub(super) verdicts: Vec<(String, bool)>,
    pub(super) score: u32,
    pub(super) results: Option<Results>,
    /// How far the results are scrolled, in lines (the drawing keeps it in range).
    pub(super) scroll: usize,
    /// The word of the results chosen (Left, Right), in [`Results::words`]' order.
    pub(super) selected: Option<usize>,
    /// The next drawing scrolls the results to the chosen word.
    pub(super) follow: bool,
    /// A box over the screen (the help, a word's meaning), its title and
    /// lines, until the next key.
    pub(super) overlay: Option<(String, Vec<String>)>,
    pub(super) ready: bool,
    /// The room's last round is over.
    pub(super) last: bool,
    pub(super) status: String,
    /// The seat's token, for the rejoin command printed on leaving mid-round.
    token: Option<String>,
    /// Who joins where, for the command that takes the seat back.
    opts: Option<JoinOptions>,
    /// The server said goodbye or refused, or could not be reached again:
    /// there is no seat to go back to.
    closed_by_server: bool,
    /// What the server said on its goodbye (a clean stop), for after the screen.
    pub(crate) goodbye: Option<String>,
    /// How it ended: `Ok` when the player left; set once, taken by the driver.
    end: Option<Result<(), JoinError>>,
    /// It ended: nothing more changes it.
    over: bool,
    /// How long the results have been shown: keys wait [`GRACE`].
    results_for: Duration,
    /// A key that, pressed again, finishes the round or leaves.
    confirm: Option<Confirm>,
}

impl Screen {
    /// The lobby before anything is heard from the server.
    pub(crate) fn new(title: String) -> Screen {
        Screen {
            short_title: title.clone(),
            title,
            view: View::Lobby,
            lobby: Vec::new(),
            min_players: 1,
            round: 0,
            rules_name: String::new(),
            duplicates: Duplicates::Cancel,
            rounds: None,
            moves: MoveRule::EightNeighbours,
            board: None,
            left: None,
            typed: String::new(),
            verdicts: Vec::new(),
            score: 0,
            results: None,
            scroll: 0,
            selected: None,
            follow: false,
            overlay: None,
            ready: false,
            last: false,
            status: LOBBY_STATUS.into(),
            token: None,
            opts: None,
            closed_by_server: false,
            goodbye: None,
            end: None,
            over: false,
            results_for: Duration::ZERO,
            confirm: None,
        }
    }

    /// Takes in one input; returns what to send the server, if anything.
    /// Once the screen has ended it takes nothing more.
    pub(crate) fn handle(&mut self, input: Input) -> Option<ClientMsg> {
        if self.over {
            return None;
        }
        match input {
            Input::Key(key) => self.key(key),
            Input::Tick(elapsed) => {
                self.left = self.left.map(|left| left.saturating_sub(elapsed));
                if self.view == View::Results {
                    self.results_for = self.results_for.saturating_add(elapsed);
                }
                None
            }
            Input::Link(event) => self.event(event),
        }
    }

    /// The screen of `opts`'s player, who can be shown how to take the seat back.
    pub(crate) fn joining(title: String, opts: &JoinOptions) -> Screen {
        Screen {
            opts: Some(opts.clone()),
            ..Screen::new(title)
        }
    }

    /// Takes the results' scrolling as drawn (`shown`, within `max`: the
    /// drawing knows what there is to see and where the chosen word is).
    pub(crate) fn drawn(&mut self, max: usize, shown: usize) {
        self.scroll = shown.min(max);
        self.follow = false;
    }

    /// The command that takes this seat back, once the server has given one.
    pub(crate) fn rejoin_line(&self) -> Option<String> {
        match (&self.opts, &self.token) {
            (Some(opts), Some(token)) => Some(rejoin_command(opts, token)),
            _ => None,
        }
    }

    /// The seat's token, once the server has given one.
    pub(crate) fn token(&self) -> Option<&str> {
        self.token.as_deref()
    }

    /// What the screen says about taking the seat back if the window
    /// closes: with a seat file, that the same command does it (no token in
    /// a box to copy); without one, the command with its token.
    pub(crate) fn rejoin_hint(&self) -> Option<String> {
        let line = self.rejoin_line()?;
        Some(match self.opts.as_ref().and_then(|o| o.seat.as_ref()) {
            Some(_) => SEAT_NOTE.to_string(),
            None => format!("to take this seat back if this window closes: {line}"),
        })
    }

    /// How the screen ended, once it has (`Ok` when the player left).
    pub(crate) fn take_end(&mut self) -> Option<Result<(), JoinError>> {
        self.end.take()
    }

    /// The token of the seat, if a round is on that it could rejoin.
    pub(crate) fn rejoinable(&self) -> Option<&str> {
        let running = self.view == View::Round
            && !self.closed_by_server
            && self.left.is_some_and(|left| !left.is_zero());
        running.then_some(self.token.as_deref()).flatten()
    }

    /// The cells of the typed word's path on the board while playing, of
    /// the chosen word's on the results.
    pub(crate) fn path(&self) -> Vec<usize> {
        let word = match self.view {
            View::Round => Some(self.typed.clone()),
            View::Results => self.chosen(),
            View::Lobby => None,
        };
        match (&self.board, word) {
            (Some(board), Some(word)) => trace(board, self.moves, &word).unwrap_or_default(),
            _ => Vec::new(),
        }
    }

    /// The word of the results chosen with Left and Right.
    pub(crate) fn chosen(&self) -> Option<String> {
        let results = self.results.as_ref()?;
        results.words().get(self.selected?).cloned()
    }

    /// Chooses the word of the results before (`-1`) or after (`1`) the
    /// chosen one, the first (or the last) if none is.
    fn choose(&mut self, by: isize) {
        let Some(results) = &self.results else {
            return;
        };
        let last = results.words().len().checked_sub(1);
        self.selected = match (self.selected, last) {
            (_, None) => None,
            (None, Some(last)) => Some(if by < 0 { last } else { 0 }),
            (Some(at), Some(last)) => Some(at.saturating_add_signed(by).min(last)),
        };
        self.follow = true;
    }

    /// Shows what the chosen word means (the first word if none is chosen).
    fn define(&mut self) {
        if self.selected.is_none() {
            self.choose(1);
        }
        let Some(word) = self.chosen() else {
            return;
        };
        let lines = match Meanings::embedded() {
            Ok(meanings) => meaning_lines(&word, &meanings.define(&word)),
            Err(e) => vec![format!("{word}: {e}")],
        };
        self.overlay = Some((" WordNet 3.1 ".into(), lines));
    }

    fn finish(&mut self, end: Result<(), JoinError>) {
        self.end = Some(end);
        self.over = true;
    }

    /// Takes in what the link says.
    fn event(&mut self, event: LinkEvent) -> Option<ClientMsg> {
        match event {
            LinkEvent::Msg(msg) => return self.apply(msg),
            LinkEvent::Lost { why, within } => {
                self.status = format!(
                    "connection lost ({}): rejoining for up to {} s   Ctrl-C: quit",
                    clean(&why),
                    within.as_secs()
                );
            }
            LinkEvent::Back { fresh } => {
                // The round may have ended meanwhile: the server sends it again if not.
                if self.view == View::Round {
                    self.view = View::Lobby;
                }
                self.status = if fresh {
                    "rejoined with a new seat (the old one was given up)   Enter: ready   q: quit"
                } else {
                    "rejoined: your words are kept   Enter: ready   q: quit"
                }
                .into();
            }
            LinkEvent::Failed(e) => {
                // The server could not be reached again: no round to go back to.
                self.closed_by_server = true;
                self.finish(Err(e.into()));
            }
        }
        None
    }

    /// Takes in one message from the server: a fatal one ends the screen,
    /// each other kind has its step.
    fn apply(&mut self, msg: ServerMsg) -> Option<ClientMsg> {
        // A goodbye is a clean stop: the results on screen are printed after.
        if let ServerMsg::Bye { reason } = &msg {
            self.closed_by_server = true;
            self.goodbye = Some(clean(reason));
            self.finish(Ok(()));
            return None;
        }
        if let Some(end) = JoinError::from_server(&msg) {
            self.closed_by_server = true;
            self.finish(Err(end));
            return None;
        }
        match msg {
            ServerMsg::Welcome {
                room,
                name,
                rules,
                token,
                moves,
                rounds,
                duplicates,
                ..
            } => {
                self.rules_name = clean(&rules);
                self.rounds = rounds;
                self.duplicates = duplicates;
                self.short_title = format!("{} · {}", clean(&name), clean(&room));
                self.title = format!(
                    "{} in room {} ({})",
                    clean(&name),
                    clean(&room),
                    clean(&rules)
                );
                self.moves = match moves {
                    Moves::EightNeighbours => MoveRule::EightNeighbours,
                    Moves::NoUp => MoveRule::NoUp,
                };
                self.token = Some(token);
                // A rejoined seat starts out not ready: say so again for the player.
                return self.ready.then_some(ClientMsg::Ready);
            }
            ServerMsg::Lobby {
                players,
                min_players,
                ..
            } => {
                self.lobby = players;
                self.min_players = min_players;
            }
            ServerMsg::RoundStart {
                round,
                rows,
                cols,
                board,
                remaining_ms,
                found,
                score,
            } => {
                self.round_start(round, board_from(rows, cols, &board), remaining_ms, &found);
                self.score = score;
            }
            ServerMsg::Verdict {
                word,
                accepted,
                points,
                reason,
                score,
            } => {
                let text = if accepted {
                    format!("{} +{points}", clean(&word))
                } else {
                    format!("{}: {}", clean(&word), clean(&reason))
                };
                self.verdicts.push((text, accepted));
                self.score = score;
            }
            ServerMsg::Results { last, .. } => self.results(Results::from_msg(&msg), last),
            // Not fatal (those ended the screen above): the message was ignored.
            ServerMsg::Error {
                message,
                remaining_ms,
                ..
            } => {
                self.status = clean(&message);
                // A stopping server brings the round's end forward.
                if let (Some(ms), View::Round) = (remaining_ms, self.view) {
                    self.left = Some(Duration::from_millis(ms));
                }
            }
            // `boggle join` plays rooms, never today's board, so no `daily` comes.
            ServerMsg::Bye { .. } | ServerMsg::Pong | ServerMsg::Daily { .. } => {}
        }
        None
    }

    /// A round starts, or goes on after a rejoin (the same round again): the
    /// verdicts shown are kept then, and any whose answer was lost are added.
    fn round_start(
        &mut self,
        round: u32,
        board: Option<GameBoard>,
        remaining_ms: u64,
        found: &[WordPoints],
    ) {
        let same_round = round == self.round && self.board.is_some();
        self.view = View::Round;
        self.round = round;
        self.board = board;
        self.left = Some(Duration::from_millis(remaining_ms));
        let found = found
            .iter()
            .map(|w| (format!("{} +{}", clean(&w.word), w.points), true));
        if same_round {
            for entry in found {
                if !self.verdicts.contains(&entry) {
                    self.verdicts.push(entry);
                }
            }
        } else {
            self.verdicts = found.collect();
            self.typed.clear();
        }
        self.ready = false;
        self.confirm = None;
        self.status = ROUND_STATUS.into();
    }

    /// The round's results: shown from the top, and no key taken for
    /// [`GRACE`], so a word still being typed does not dismiss them unseen.
    fn results(&mut self, results: Option<Results>, last: bool) {
        self.view = View::Results;
        self.results = results;
        self.scroll = 0;
        self.selected = None;
        self.last = last;
        self.left = None;
        self.typed.clear();
        self.results_for = Duration::ZERO;
        self.confirm = None;
        self.status = if last {
            "the room's last round is over   q: quit".into()
        } else {
            RESULTS_STATUS.into()
        };
    }

    /// What a key press does. Keys with Ctrl are never letters; the others
    /// wait [`GRACE`] on the results; Enter on an empty word and Esc on an
    /// empty word ask once before they finish the round or leave.
    fn key(&mut self, key: Key) -> Option<ClientMsg> {
        if key.ctrl {
            return self.ctrl_key(key.code);
        }
        if self.view == View::Results && self.results_for < GRACE {
            return None;
        }
        // A box over the screen goes with the next key, which does nothing else.
        if self.overlay.take().is_some() {
            return None;
        }
        let asked = self.confirm.take();
        if let Some(asked) = &asked
            && !matches!(
                (asked.what, key.code),
                (Ask::Done, Code::Enter) | (Ask::Leave, Code::Esc)
            )
        {
            self.status.clone_from(&asked.status);
        }
        match key.code {
            Code::Esc if !self.typed.is_empty() => self.typed.clear(),
            Code::Esc => match asked {
                Some(Confirm {
                    what: Ask::Leave, ..
                }) => self.finish(Ok(())),
                _ => self.ask(Ask::Leave, "press Esc again to leave the game"),
            },
            Code::Enter if self.view == View::Round => return self.enter_in_round(asked),
            Code::Enter if !self.ready && !self.last => {
                self.ready = true;
                self.status = READY_STATUS.into();
                return Some(ClientMsg::Ready);
            }
            Code::Char('q' | 'Q') if self.view != View::Round => self.finish(Ok(())),
            Code::Char('?') | Code::F(1) => {
                self.overlay = Some((" Help ".into(), self.help_lines()));
            }
            Code::Left if self.view == View::Results => self.choose(-1),
            Code::Right if self.view == View::Results => self.choose(1),
            Code::Char('d' | 'D') if self.view == View::Results => self.define(),
            Code::Up | Code::PageUp | Code::Home | Code::Down | Code::PageDown | Code::End
                if self.view == View::Results =>
            {
                self.scroll_by(key.code);
            }
            Code::Backspace => {
                self.typed.pop();
            }
            Code::Char(c)
                if self.view == View::Round
                    && c.is_ascii_alphabetic()
                    && self.typed.len() < MAX_WORD =>
            {
                self.typed.push(c.to_ascii_uppercase());
            }
            _ => {}
        }
        None
    }

    /// Ctrl with a key, as in the tui, BSD boggle and a shell: C leaves, D
    /// finishes the round (leaves outside one), U and W clear the word (it
    /// is one word); the rest do nothing (never a letter).
    fn ctrl_key(&mut self, code: Code) -> Option<ClientMsg> {
        match code {
            Code::Char('c') => self.finish(Ok(())),
            Code::Char('d') if self.view == View::Round => return self.done(),
            Code::Char('d') => self.finish(Ok(())),
            Code::Char('u' | 'w') => self.typed.clear(),
            _ => {}
        }
        None
    }

    /// Enter in a round: plays the typed word; on an empty word asks once,
    /// then says the player is done (the round ends when everyone is).
    fn enter_in_round(&mut self, asked: Option<Confirm>) -> Option<ClientMsg> {
        if !self.typed.is_empty() {
            let word = std::mem::take(&mut self.typed);
            return Some(ClientMsg::Word { word });
        }
        match asked {
            Some(Confirm {
                what: Ask::Done, ..
            }) => self.done(),
            _ => {
                self.ask(Ask::Done, "press Enter again to finish the round");
                None
            }
        }
    }

    /// Finished with the round.
    fn done(&mut self) -> Option<ClientMsg> {
        self.status = "done: waiting for the others   Ctrl-C: quit".into();
        Some(ClientMsg::Done)
    }

    /// Asks the player to press the key again, keeping the status to put back.
    fn ask(&mut self, what: Ask, question: &str) {
        let status = std::mem::replace(&mut self.status, question.into());
        self.confirm = Some(Confirm { what, status });
    }

    /// Scrolls the results by a line, a page, or to an end.
    fn scroll_by(&mut self, code: Code) {
        let by = match code {
            Code::Up | Code::Down => 1,
            Code::PageUp | Code::PageDown => 10,
            _ => usize::MAX,
        };
        self.scroll = if matches!(code, Code::Up | Code::PageUp | Code::Home) {
            self.scroll.saturating_sub(by)
        } else {
            self.scroll.saturating_add(by)
        };
    }
}

/// What a key pressed twice does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ask {
    /// Enter on an empty word: finish the round.
    Done,
    /// Esc on an empty word: leave the game.
    Leave,
}

/// A question on the status line, and the status it replaced.
#[derive(Debug)]
struct Confirm {
    what: Ask,
    status: String,
}

/// The board from a `round_start`'s faces (`"A"`, `"QU"`, `""` for a blank),
/// or `None` when they do not make one (a server of another make).
fn board_from(rows: usize, cols: usize, faces: &[String]) -> Option<GameBoard> {
    let faces: Option<Vec<Face>> = faces
        .iter()
        .map(|face| {
            if face.is_empty() {
                Some(Face::BLANK)
            } else {
                Face::parse(face)
            }
        })
        .collect();
    GameBoard::from_faces(rows, cols, faces?).ok()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use boggle_protocol::{Duplicates, Moves, PlayerResult, WordPoints};

    /// Sends `msg` as the link would; what the screen answers, and its end if it ended.
    pub(crate) fn apply(
        screen: &mut Screen,
        msg: &ServerMsg,
    ) -> (Option<Result<(), JoinError>>, Option<ClientMsg>) {
        let send = screen.handle(Input::Link(LinkEvent::Msg(msg.clone())));
        (screen.take_end(), send)
    }

    pub(crate) fn welcome(moves: Moves) -> ServerMsg {
        ServerMsg::Welcome {
            version: 1,
            room: "main".into(),
            name: "ann".into(),
            token: "t0k".into(),
            rules: "project4".into(),
            moves,
            rounds: None,
            min_players: 2,
            duplicates: Duplicates::Cancel,
        }
    }

    pub(crate) fn start(round: u32, board: &str, found: &[(&str, u32)]) -> ServerMsg {
        ServerMsg::RoundStart {
            round,
            rows: 4,
            cols: 4,
            board: board.chars().map(String::from).collect(),
            remaining_ms: 60_000,
            found: found
                .iter()
                .map(|&(word, points)| WordPoints {
                    word: word.into(),
                    points,
                    rare: false,
                })
                .collect(),
            score: found.iter().map(|(_, p)| p).sum(),
        }
    }

    /// A screen welcomed to a room of `moves`, in round 1 on BENHLAUMITLZRGAN.
    pub(crate) fn playing(moves: Moves) -> Screen {
        let mut screen = Screen::new("test".into());
        apply(&mut screen, &welcome(moves));
        apply(&mut screen, &start(1, "BENHLAUMITLZRGAN", &[]));
        screen
    }

    /// The server's verdicts on `words` (`word`, taken, reason), the round's score 1 after each.
    pub(crate) fn verdicts(screen: &mut Screen, words: &[(&str, bool, &str)]) {
        for &(word, accepted, reason) in words {
            apply(
                screen,
                &ServerMsg::Verdict {
                    word: word.into(),
                    accepted,
                    points: u32::from(accepted),
                    reason: reason.into(),
                    score: 1,
                },
            );
        }
    }

    /// Types `keys` (`\n` is Enter); what each key sends.
    pub(crate) fn typed(screen: &mut Screen, keys: &str) -> Vec<Option<ClientMsg>> {
        keys.chars()
            .map(|c| {
                let code = if c == '\n' {
                    Code::Enter
                } else {
                    Code::Char(c)
                };
                screen.handle(Input::Key(Key::plain(code)))
            })
            .collect()
    }

    #[test]
    fn a_rejoin_keeps_the_verdicts_shown_and_says_ready_again() {
        let mut screen = Screen::new("test".into());
        apply(&mut screen, &welcome(Moves::EightNeighbours));
        assert_eq!(typed(&mut screen, "\n"), vec![Some(ClientMsg::Ready)]);
        apply(&mut screen, &start(1, "BENHLAUMITLZRGAN", &[]));
        assert_eq!(
            typed(&mut screen, "eat\n"),
            [
                vec![None; 3],
                vec![Some(ClientMsg::Word { word: "EAT".into() })]
            ]
            .concat()
        );
        verdicts(
            &mut screen,
            &[
                ("EAT", true, "1 point"),
                ("XYZ", false, "not in the dictionary"),
            ],
        );
        let lost = LinkEvent::Lost {
            why: "reset".into(),
            within: Duration::from_secs(20),
        };
        assert!(screen.handle(Input::Link(lost)).is_none());
        assert!(screen.take_end().is_none());
        assert!(
            screen.status.contains("rejoining for up to 20 s"),
            "{}",
            screen.status
        );
        assert_eq!(screen.rejoinable(), Some("t0k"));
        screen.handle(Input::Link(LinkEvent::Back { fresh: false }));
        // Not in the round until the server says it is still on.
        assert_eq!(screen.view, View::Lobby);
        assert_eq!(screen.rejoinable(), None);
        let (_, send) = apply(&mut screen, &welcome(Moves::EightNeighbours));
        assert!(send.is_none(), "not ready in a round: nothing to say");
        // TEA's verdict was lost with the connection; the server found it.
        apply(
            &mut screen,
            &start(1, "BENHLAUMITLZRGAN", &[("EAT", 1), ("TEA", 1)]),
        );
        assert_eq!(screen.view, View::Round);
        let shown: Vec<&str> = screen.verdicts.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(shown, ["EAT +1", "XYZ: not in the dictionary", "TEA +1"]);
        // Ready in the lobby, then a drop: the new seat is made ready again.
        let mut screen = Screen::new("test".into());
        apply(&mut screen, &welcome(Moves::EightNeighbours));
        typed(&mut screen, "\n");
        let (_, send) = apply(&mut screen, &welcome(Moves::EightNeighbours));
        assert_eq!(send, Some(ClientMsg::Ready));
    }

    #[test]
    fn a_stopping_server_brings_the_clock_forward_and_its_warning_stays() {
        let mut screen = playing(Moves::EightNeighbours);
        let warning =
            "the server is shutting down: this round ends within 5 s, then the server closes";
        let stopping = ServerMsg::Error {
            code: boggle_protocol::ErrorCode::ShuttingDown,
            message: warning.into(),
            word: None,
            remaining_ms: Some(4_500),
        };
        apply(&mut screen, &stopping);
        assert_eq!(screen.left, Some(Duration::from_millis(4_500)));
        typed(&mut screen, "eat\n");
        let verdict = ServerMsg::Verdict {
            word: "EAT".into(),
            accepted: true,
            points: 1,
            reason: "1 point".into(),
            score: 1,
        };
        apply(&mut screen, &verdict);
        assert_eq!(screen.status, warning, "the warning stays after a word");
    }

    #[test]
    fn after_a_goodbye_mid_round_there_is_nothing_to_rejoin() {
        let mut screen = playing(Moves::EightNeighbours);
        assert_eq!(screen.rejoinable(), Some("t0k"));
        let bye = ServerMsg::Bye {
            reason: "the server is shutting down".into(),
        };
        let (end, _) = apply(&mut screen, &bye);
        assert!(matches!(&end, Some(Ok(()))), "a clean stop: {end:?}");
        assert_eq!(
            screen.goodbye.as_deref(),
            Some("the server is shutting down")
        );
        assert_eq!(screen.rejoinable(), None);
    }

    #[test]
    fn the_round_is_over_for_rejoining_once_its_time_has_passed() {
        let mut screen = playing(Moves::EightNeighbours);
        screen.handle(Input::Tick(Duration::from_secs(59)));
        assert_eq!(screen.rejoinable(), Some("t0k"));
        assert_eq!(screen.left, Some(Duration::from_secs(1)));
        screen.handle(Input::Tick(Duration::from_secs(2)));
        assert_eq!(screen.rejoinable(), None, "the round is over by then");
    }

    #[test]
    fn refusals_end_the_screen_with_the_code_and_the_servers_words() {
        use boggle_protocol::ErrorCode;
        let mut screen = Screen::new("test".into());
        let refused = ServerMsg::Error {
            code: ErrorCode::NameTaken,
            message: "the name ann is taken\u{1b}".into(),
            word: None,
            remaining_ms: None,
        };
        let (end, _) = apply(&mut screen, &refused);
        let Some(Err(e)) = end else {
            panic!("ends: {end:?}")
        };
        assert!(matches!(
            e,
            JoinError::Refused {
                code: ErrorCode::NameTaken,
                ..
            }
        ));
        assert_eq!(e.to_string(), "the server refused: the name ann is taken?");
        // Nothing after the end changes the screen.
        assert_eq!(typed(&mut screen, "\n"), vec![None]);
        assert!(!screen.ready);
        // A refusal that is not fatal is shown, and the game goes on.
        let mut screen = Screen::new("test".into());
        let (end, _) = apply(
            &mut screen,
            &ServerMsg::Error {
                code: ErrorCode::RateLimited,
                message: "slow down".into(),
                word: None,
                remaining_ms: None,
            },
        );
        assert!(end.is_none());
        assert_eq!(screen.status, "slow down");
    }

    fn ctrl(c: char) -> Input {
        Input::Key(Key {
            code: Code::Char(c),
            ctrl: true,
        })
    }

    #[test]
    fn ctrl_c_leaves_and_ctrl_d_too_outside_a_round() {
        for key in [ctrl('c'), ctrl('d')] {
            let mut screen = Screen::new("test".into());
            assert_eq!(screen.handle(key), None);
            assert!(matches!(screen.take_end(), Some(Ok(()))));
        }
    }

    /// `ab` and Enter typed as the results appear neither
    /// mark the player ready nor skip the results; after a second they do.
    #[test]
    fn an_enter_across_the_end_of_a_round_is_ignored_for_a_second() {
        let mut screen = playing(Moves::EightNeighbours);
        typed(&mut screen, "a");
        apply(&mut screen, &results_msg());
        assert_eq!(screen.view, View::Results);
        assert_eq!(typed(&mut screen, "b\n"), vec![None, None]);
        assert!(!screen.ready);
        screen.handle(Input::Tick(GRACE - Duration::from_millis(1)));
        assert_eq!(typed(&mut screen, "\n"), vec![None]);
        screen.handle(Input::Tick(Duration::from_millis(1)));
        assert_eq!(typed(&mut screen, "\n"), vec![Some(ClientMsg::Ready)]);
        // Ctrl-C is no typing accident: it leaves at once.
        let mut screen = Screen::new("test".into());
        apply(&mut screen, &results_msg());
        screen.handle(ctrl('c'));
        assert!(matches!(screen.take_end(), Some(Ok(()))));
    }

    /// Enter on an empty word asks once; a second Enter
    /// finishes the round, anything else between them takes the question back.
    #[test]
    fn a_double_enter_asks_before_finishing_the_round() {
        let mut screen = playing(Moves::EightNeighbours);
        assert_eq!(
            typed(&mut screen, "eat\n\n"),
            [
                vec![None; 3],
                vec![Some(ClientMsg::Word { word: "EAT".into() }), None]
            ]
            .concat()
        );
        assert_eq!(screen.status, "press Enter again to finish the round");
        assert_eq!(typed(&mut screen, "t"), vec![None]);
        assert_eq!(screen.status, ROUND_STATUS, "the question is taken back");
        screen.handle(Input::Key(Key::plain(Code::Backspace)));
        assert_eq!(typed(&mut screen, "\n"), vec![None]);
        assert_eq!(typed(&mut screen, "\n"), vec![Some(ClientMsg::Done)]);
        // Ctrl-D finishes at once, as in the tui.
        apply(&mut screen, &start(2, "BENHLAUMITLZRGAN", &[]));
        assert_eq!(screen.handle(ctrl('d')), Some(ClientMsg::Done));
        assert!(screen.take_end().is_none());
    }

    /// Ctrl-U and Ctrl-W clear the word, no Ctrl key types
    /// its letter, Esc clears the word and then asks before leaving, and `q`
    /// leaves where no word is typed.
    #[test]
    fn keys_mean_what_they_mean_in_the_tui_and_a_shell() {
        let mut screen = playing(Moves::EightNeighbours);
        typed(&mut screen, "hat");
        for c in ['a', 'u'] {
            screen.handle(ctrl(c));
        }
        assert_eq!(screen.typed, "");
        typed(&mut screen, "hat");
        screen.handle(ctrl('w'));
        assert_eq!(screen.typed, "");
        typed(&mut screen, "q");
        assert_eq!(screen.typed, "Q", "q is a letter in a round");
        let esc = || Input::Key(Key::plain(Code::Esc));
        screen.handle(esc());
        assert_eq!(screen.typed, "");
        screen.handle(esc());
        assert!(screen.take_end().is_none());
        assert_eq!(screen.status, "press Esc again to leave the game");
        screen.handle(esc());
        assert!(matches!(screen.take_end(), Some(Ok(()))));
        let mut screen = Screen::new("test".into());
        typed(&mut screen, "q");
        assert!(
            matches!(screen.take_end(), Some(Ok(()))),
            "q leaves the lobby"
        );
    }

    /// The results of round 1, not the last.
    fn results_msg() -> ServerMsg {
        results_of(Vec::new(), false)
    }

    /// The results of round 1 (the room's last if `last`) with `players`,
    /// no word shared or missed.
    pub(crate) fn results_of(players: Vec<PlayerResult>, last: bool) -> ServerMsg {
        let total = players.len();
        ServerMsg::round_one_results(last, Duplicates::Cancel, players, total)
    }

    /// Once the link gave up (the server is gone), the
    /// screen no longer offers a round to rejoin.
    #[test]
    fn after_the_server_is_gone_there_is_nothing_to_rejoin() {
        let mut screen = playing(Moves::EightNeighbours);
        assert_eq!(screen.rejoinable(), Some("t0k"));
        let gone = boggle_client::link::LinkError::NoWelcome(Duration::from_secs(10));
        screen.handle(Input::Link(LinkEvent::Failed(gone)));
        assert!(matches!(screen.take_end(), Some(Err(_))));
        assert_eq!(screen.rejoinable(), None);
    }
}
