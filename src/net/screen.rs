//! The full-screen client of `boggle join` on a terminal: the lobby (who is
//! in, who is ready), the round (the board drawn as the tui draws it, the
//! typed word's path traced on it as it is typed, the server's clock, and
//! each verdict with its reason) and the results, drawn with ratatui. It runs
//! on the tui's terminal [`Session`] and key reader, so the terminal is put
//! back on every way out, a terminal that hangs up ends it, and so does a
//! signal; talks to the server through a [`Link`], which rejoins after a drop;
//! and, leaving while a round is on, prints the command that takes the seat
//! back. Everything from the server is shown through [`clean`].

use std::io::{self, Write};
use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use tokio::sync::mpsc;

use super::client::{JoinError, JoinOptions, rejoin_command, results_lines};
use super::link::{Link, LinkEvent};
use super::protocol::{ClientMsg, LobbyPlayer, MAX_WORD, ServerMsg, clean};
use crate::engine::path::trace;
use crate::face::Face;
use crate::game_board::GameBoard;
use crate::rules::MoveRule;
use crate::tui::terminal::{Session, TermEvent, TerminalError, spawn_key_reader};
use crate::tui::ui::{Look, board_size, clock, draw_board, largest_cell};

/// The narrowest panel beside the board (lobby, words, results).
const PANEL_MIN_WIDTH: u16 = 30;

/// Where the player is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum View {
    Lobby,
    Round,
    Results,
}

/// What a key asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Action {
    /// Nothing to send.
    Stay,
    /// Send this to the server.
    Send(ClientMsg),
    /// Leave.
    Quit,
}

/// What the screen shows.
struct Screen {
    title: String,
    view: View,
    lobby: Vec<LobbyPlayer>,
    min_players: usize,
    round: u32,
    /// The room's move rule, for the live trace.
    moves: MoveRule,
    /// The round's board; `None` before the first round or when the server's
    /// faces do not make a board.
    board: Option<GameBoard>,
    deadline: Option<Instant>,
    typed: String,
    verdicts: Vec<(String, bool)>,
    score: u32,
    results: Vec<String>,
    ready: bool,
    last: bool,
    status: String,
    /// The seat's token, for the rejoin command printed on leaving mid-round.
    token: Option<String>,
    /// The server said goodbye or refused: there is no seat to go back to.
    closed_by_server: bool,
}

/// The prompt while a round is on.
const ROUND_STATUS: &str = "type a word, Enter to play it; Enter alone: done   Esc: quit";

impl Screen {
    /// The lobby before anything is heard from the server.
    fn new(title: String) -> Screen {
        Screen {
            title,
            view: View::Lobby,
            lobby: Vec::new(),
            min_players: 1,
            round: 0,
            moves: MoveRule::EightNeighbours,
            board: None,
            deadline: None,
            typed: String::new(),
            verdicts: Vec::new(),
            score: 0,
            results: Vec::new(),
            ready: false,
            last: false,
            status: "Enter: ready   Esc: quit".into(),
            token: None,
            closed_by_server: false,
        }
    }

    /// The token of the seat, if a round is on that it could rejoin.
    fn rejoinable(&self, now: Instant) -> Option<&str> {
        let running = self.view == View::Round
            && !self.closed_by_server
            && self.deadline.is_some_and(|d| d > now);
        running.then_some(self.token.as_deref()).flatten()
    }

    /// The cells of the typed word's path on the board, while playing.
    fn path(&self) -> Vec<usize> {
        match (&self.board, self.view) {
            (Some(board), View::Round) => trace(board, self.moves, &self.typed).unwrap_or_default(),
            _ => Vec::new(),
        }
    }

    /// Takes in what the link says; `Some` when the session is over. What to
    /// send in answer goes into `send`.
    fn event(
        &mut self,
        event: LinkEvent,
        send: &mut Vec<ClientMsg>,
    ) -> Option<Result<(), JoinError>> {
        match event {
            LinkEvent::Msg(msg) => return self.apply(&msg, send),
            LinkEvent::Lost { why, within } => {
                self.status = format!(
                    "connection lost ({}): rejoining for up to {} s   Esc: quit",
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
                    "rejoined with a new seat (the old one was given up)   Enter: ready   Esc: quit"
                } else {
                    "rejoined: your words are kept   Enter: ready   Esc: quit"
                }
                .into();
            }
            LinkEvent::Failed(e) => return Some(Err(e.into())),
        }
        None
    }

    /// Takes in one message; `Some` when the session is over.
    fn apply(
        &mut self,
        msg: &ServerMsg,
        send: &mut Vec<ClientMsg>,
    ) -> Option<Result<(), JoinError>> {
        if let Some(end) = JoinError::from_server(msg) {
            self.closed_by_server = true;
            return Some(Err(end));
        }
        match msg {
            ServerMsg::Welcome {
                room,
                name,
                rules,
                token,
                moves,
                ..
            } => {
                self.title = format!("{} in room {} ({})", clean(name), clean(room), clean(rules));
                self.moves = (*moves).into();
                self.token = Some(token.clone());
                // A rejoined seat starts out not ready: say so again for the player.
                if self.ready {
                    send.push(ClientMsg::Ready);
                }
            }
            ServerMsg::Lobby {
                players,
                min_players,
                ..
            } => {
                self.lobby = players.clone();
                self.min_players = *min_players;
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
                let same_round = *round == self.round && self.board.is_some();
                self.view = View::Round;
                self.round = *round;
                self.board = board_from(*rows, *cols, board);
                self.deadline = Some(Instant::now() + Duration::from_millis(*remaining_ms));
                let found = found
                    .iter()
                    .map(|w| (format!("{} +{}", clean(&w.word), w.points), true));
                if same_round {
                    // Back after a drop: keep the verdicts shown, add any whose answer was lost.
                    for entry in found {
                        if !self.verdicts.contains(&entry) {
                            self.verdicts.push(entry);
                        }
                    }
                } else {
                    self.verdicts = found.collect();
                    self.typed.clear();
                }
                self.score = *score;
                self.ready = false;
                self.status = ROUND_STATUS.into();
            }
            ServerMsg::Verdict {
                word,
                accepted,
                points,
                reason,
                score,
            } => {
                let text = if *accepted {
                    format!("{} +{points}", clean(word))
                } else {
                    format!("{}: {}", clean(word), clean(reason))
                };
                self.verdicts.push((text, *accepted));
                self.score = *score;
            }
            ServerMsg::Results { last, .. } => {
                self.view = View::Results;
                self.results = results_lines(msg);
                self.last = *last;
                self.deadline = None;
                self.typed.clear();
                self.status = if *last {
                    "the room's last round is over   Esc: quit".into()
                } else {
                    "Enter: ready for the next round   Esc: quit".into()
                };
            }
            // Not fatal (those ended the screen above): the message was ignored.
            ServerMsg::Error { message, .. } => self.status = clean(message),
            ServerMsg::Bye { .. } | ServerMsg::Pong => {}
        }
        None
    }

    /// What a key press does.
    fn key(&mut self, key: KeyEvent) -> Action {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Esc => Action::Quit,
            KeyCode::Char('c' | 'd') if ctrl => Action::Quit,
            KeyCode::Enter if self.view == View::Round => {
                let word = std::mem::take(&mut self.typed);
                if word.is_empty() {
                    // Enter on an empty word: finished with the round.
                    self.status = "done: waiting for the others   Esc: quit".into();
                    Action::Send(ClientMsg::Done)
                } else {
                    Action::Send(ClientMsg::Word { word })
                }
            }
            KeyCode::Enter if !self.ready && !self.last => {
                self.ready = true;
                Action::Send(ClientMsg::Ready)
            }
            KeyCode::Backspace => {
                self.typed.pop();
                Action::Stay
            }
            KeyCode::Char(c)
                if self.view == View::Round
                    && c.is_ascii_alphabetic()
                    && self.typed.len() < MAX_WORD =>
            {
                self.typed.push(c.to_ascii_uppercase());
                Action::Stay
            }
            _ => Action::Stay,
        }
    }
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

/// Plays full-screen until the player quits (Esc, Ctrl-C), the room's last
/// round is over, or the server goes. Leaving while a round is on prints, once
/// the terminal is back, the command that rejoins it.
pub async fn run(opts: &JoinOptions, look: Look) -> Result<(), JoinError> {
    let mut link = Link::connect(opts).await?;
    let (keys_tx, mut keys) = mpsc::unbounded_channel();
    spawn_key_reader(keys_tx);
    let mut session = Session::start().map_err(TerminalError::Io)?;
    let mut screen = Screen::new(format!("boggle join {}", clean(&opts.addr)));
    let played = play(&mut session, &mut link, &mut keys, &mut screen, look).await;
    drop(session);
    if let Some(token) = screen.rejoinable(Instant::now()) {
        // Standard error may be gone with the terminal: nothing more to do then.
        let _ = writeln!(
            io::stderr(),
            "to rejoin this round: {}",
            rejoin_command(opts, token)
        );
    }
    played
}

/// The screen's loop: draw, then wait for the server, a key or the clock.
async fn play(
    session: &mut Session,
    link: &mut Link,
    keys: &mut mpsc::UnboundedReceiver<TermEvent>,
    screen: &mut Screen,
    look: Look,
) -> Result<(), JoinError> {
    let mut tick = tokio::time::interval(Duration::from_millis(200));
    loop {
        session
            .terminal
            .draw(|frame| draw(frame, screen, look))
            .map_err(TerminalError::Io)?;
        let mut send: Vec<ClientMsg> = Vec::new();
        tokio::select! {
            event = link.next() => {
                if let Some(end) = screen.event(event, &mut send) {
                    return end;
                }
            }
            key = keys.recv() => match key {
                Some(TermEvent::Key(key)) => match screen.key(key) {
                    Action::Quit => return Ok(()),
                    Action::Send(msg) => send.push(msg),
                    Action::Stay => {}
                },
                Some(TermEvent::Signalled) => return Err(TerminalError::Signalled.into()),
                // No one is left to play: ends quietly, as the tui does.
                Some(TermEvent::HungUp) | None => return Err(TerminalError::HungUp.into()),
            },
            _ = tick.tick() => {}
        }
        for msg in send {
            // The link holds 256 messages; a full queue means it is far behind,
            // and a key's message is dropped rather than stalling the screen.
            link.send(msg);
        }
    }
}

fn draw(frame: &mut ratatui::Frame, screen: &Screen, look: Look) {
    let [header, body, input, status] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(3),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(frame.area());
    let left = screen
        .deadline
        .map(|d| clock(d.saturating_duration_since(Instant::now())));
    let head = match (screen.view, left) {
        (View::Round, Some(left)) => format!(
            "{}   round {}   {} points   {left}",
            screen.title, screen.round, screen.score
        ),
        _ => screen.title.clone(),
    };
    frame.render_widget(
        Paragraph::new(head).style(Style::default().add_modifier(Modifier::BOLD)),
        header,
    );
    let side = if screen.view == View::Lobby && screen.round == 0 {
        body
    } else {
        board_and_panel(frame, screen, body, look)
    };
    let (title, lines): (&str, Vec<Line>) = match screen.view {
        View::Lobby => ("lobby", lobby_lines(screen)),
        View::Round => (
            "your words",
            screen
                .verdicts
                .iter()
                .rev()
                .map(|(text, accepted)| {
                    let style = if *accepted {
                        Style::default().add_modifier(Modifier::BOLD)
                    } else {
                        Style::default()
                    };
                    Line::styled(text.clone(), style)
                })
                .collect(),
        ),
        View::Results => (
            "results",
            screen
                .results
                .iter()
                .map(|l| Line::from(l.clone()))
                .collect(),
        ),
    };
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(Block::default().borders(Borders::ALL).title(title)),
        side,
    );
    let prompt = if screen.view == View::Round {
        format!("> {}_", screen.typed)
    } else {
        String::new()
    };
    frame.render_widget(Paragraph::new(prompt), input);
    frame.render_widget(Paragraph::new(screen.status.clone()), status);
}

/// Draws the board at the left of `body` with the tui's drawing (largest
/// cells that fit, the typed word's path highlighted and numbered); returns
/// the area left for the panel beside it.
fn board_and_panel(frame: &mut ratatui::Frame, screen: &Screen, body: Rect, look: Look) -> Rect {
    let note = |frame: &mut ratatui::Frame, text: &str| {
        let [line, rest] =
            Layout::vertical([Constraint::Length(1), Constraint::Min(1)]).areas(body);
        frame.render_widget(Paragraph::new(text.to_string()), line);
        rest
    };
    let Some(board) = &screen.board else {
        return note(frame, "the server's board cannot be shown");
    };
    // Two columns of margin either side of the board.
    let room = body.width.saturating_sub(PANEL_MIN_WIDTH + 4);
    let Some(cell) = largest_cell(board, room, body.height) else {
        return note(frame, "the board needs a bigger terminal");
    };
    let (width, _) = board_size(board, cell);
    let [left, side] = Layout::horizontal([
        Constraint::Length(width.saturating_add(4)),
        Constraint::Min(PANEL_MIN_WIDTH),
    ])
    .areas(body);
    draw_board(frame, board, &screen.path(), (cell, left), look);
    side
}

/// Who is in, who is ready, their points, and what a round waits for.
fn lobby_lines(screen: &Screen) -> Vec<Line<'static>> {
    screen
        .lobby
        .iter()
        .map(|p| {
            let state = match (p.connected, p.ready) {
                (false, _) => "away",
                (true, true) => "ready",
                (true, false) => "not ready",
            };
            Line::from(format!(
                "{:<20} {state:<9} {:>4} points",
                clean(&p.name),
                p.total
            ))
        })
        .chain([
            Line::from(""),
            Line::from(format!(
                "a round starts when {} or more are in and all are ready",
                screen.min_players
            )),
        ])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::protocol::{Duplicates, FoundWord, Moves, PlayerResult, WordPoints};
    use crossterm::event::KeyModifiers;
    use ratatui::backend::TestBackend;

    /// The screen at 80x24: its rows, and the cells drawn in reverse video.
    fn shown(screen: &Screen) -> (String, Vec<(u16, u16)>) {
        let mut terminal = ratatui::Terminal::new(TestBackend::new(80, 24)).expect("test backend");
        terminal
            .draw(|frame| draw(frame, screen, Look::default()))
            .expect("draws");
        let buffer = terminal.backend().buffer().clone();
        let text = buffer
            .content()
            .chunks(80)
            .map(|row| row.iter().map(|c| c.symbol()).collect::<String>() + "\n")
            .collect();
        let reversed = (0..24)
            .flat_map(|y| (0..80).map(move |x| (x, y)))
            .filter(|&(x, y)| buffer[(x, y)].modifier.contains(Modifier::REVERSED))
            .collect();
        (text, reversed)
    }

    fn apply(
        screen: &mut Screen,
        msg: &ServerMsg,
    ) -> (Option<Result<(), JoinError>>, Vec<ClientMsg>) {
        let mut send = Vec::new();
        let end = screen.apply(msg, &mut send);
        (end, send)
    }

    fn welcome(moves: Moves) -> ServerMsg {
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

    fn start(round: u32, board: &str, found: &[(&str, u32)]) -> ServerMsg {
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
                })
                .collect(),
            score: found.iter().map(|(_, p)| p).sum(),
        }
    }

    fn typed(screen: &mut Screen, keys: &str) -> Vec<Action> {
        keys.chars()
            .map(|c| {
                let code = if c == '\n' {
                    KeyCode::Enter
                } else {
                    KeyCode::Char(c)
                };
                screen.key(KeyEvent::new(code, KeyModifiers::NONE))
            })
            .collect()
    }

    #[test]
    fn a_round_then_its_results_with_nothing_unprintable_shown() {
        let mut screen = Screen::new("test".into());
        let start = ServerMsg::RoundStart {
            round: 1,
            rows: 2,
            cols: 2,
            board: ["A", "QU", "", "\u{1b}"].map(String::from).to_vec(),
            remaining_ms: 60_000,
            found: Vec::new(),
            score: 0,
        };
        assert!(apply(&mut screen, &start).0.is_none());
        assert_eq!(screen.view, View::Round);
        // ESC is no face: that board is not drawn, and nothing of it reaches the terminal.
        assert!(screen.board.is_none());
        let verdict = ServerMsg::Verdict {
            word: "TEA".into(),
            accepted: false,
            points: 0,
            reason: "not on the board".into(),
            score: 0,
        };
        assert!(apply(&mut screen, &verdict).0.is_none());
        let (text, _) = shown(&screen);
        assert!(text.contains("TEA: not on the board"), "{text}");
        assert!(
            text.contains("the server's board cannot be shown"),
            "{text}"
        );
        assert!(!text.contains('\u{1b}'));
        let results = ServerMsg::Results {
            round: 1,
            last: true,
            duplicates: Duplicates::Cancel,
            players: vec![PlayerResult {
                name: "eve\u{1b}[2J".into(),
                words: vec![FoundWord {
                    word: "AQU".into(),
                    points: 1,
                    cancelled: false,
                }],
                score: 1,
                total: 1,
            }],
            shared: Vec::new(),
            missed: Vec::new(),
            missed_total: 0,
        };
        assert!(apply(&mut screen, &results).0.is_none());
        let (text, _) = shown(&screen);
        assert!(text.contains("eve?[2J: 1 point"), "{text}");
        assert!(!text.contains('\u{1b}'));
        let bye = ServerMsg::Bye {
            reason: "shutting down".into(),
        };
        assert!(matches!(apply(&mut screen, &bye).0, Some(Err(_))));
    }

    #[test]
    fn the_board_is_drawn_as_the_tui_draws_it_with_the_typed_path_traced() {
        let mut screen = Screen::new("test".into());
        apply(&mut screen, &welcome(Moves::NoUp));
        apply(&mut screen, &start(1, "BENHLAUMITLZRGAN", &[]));
        assert_eq!(typed(&mut screen, "bea"), vec![Action::Stay; 3]);
        let (text, reversed) = shown(&screen);
        let rows: Vec<&str> = text.lines().collect();
        // The tui's boxed 7x3 cells, the path's steps numbered on their borders.
        assert!(
            rows[5].starts_with("  ┌1────┐┌2────┐┌─────┐┌─────┐"),
            "{text}"
        );
        assert!(
            rows[6].starts_with("  │  B  ││  E  ││  N  ││  H  │"),
            "{text}"
        );
        assert!(rows[8].starts_with("  ┌─────┐┌3────┐"), "{text}");
        assert!(text.contains("> BEA_"), "{text}");
        // B, E and A, 7x3 each, in reverse video.
        assert_eq!(reversed.len(), 3 * 21, "{reversed:?}");
        assert!(reversed.contains(&(2, 5)) && reversed.contains(&(15, 10)));
        // LAB goes up from A to B: no path under the room's no-up rule.
        typed(&mut screen, "\nlab");
        assert_eq!(screen.path(), Vec::<usize>::new());
        assert_eq!(shown(&screen).1, Vec::new());
        // Under 8 neighbours it has one.
        screen.moves = MoveRule::EightNeighbours;
        assert_eq!(screen.path(), vec![4, 5, 0]);
    }

    #[test]
    fn a_rejoin_keeps_the_verdicts_shown_and_says_ready_again() {
        let mut screen = Screen::new("test".into());
        apply(&mut screen, &welcome(Moves::EightNeighbours));
        assert_eq!(
            typed(&mut screen, "\n"),
            vec![Action::Send(ClientMsg::Ready)]
        );
        apply(&mut screen, &start(1, "BENHLAUMITLZRGAN", &[]));
        assert_eq!(
            typed(&mut screen, "eat\n"),
            [
                vec![Action::Stay; 3],
                vec![Action::Send(ClientMsg::Word { word: "EAT".into() })]
            ]
            .concat()
        );
        for (word, accepted, reason) in [
            ("EAT", true, "1 point"),
            ("XYZ", false, "not in the dictionary"),
        ] {
            apply(
                &mut screen,
                &ServerMsg::Verdict {
                    word: word.into(),
                    accepted,
                    points: u32::from(accepted),
                    reason: reason.into(),
                    score: 1,
                },
            );
        }
        let mut send = Vec::new();
        assert!(
            screen
                .event(
                    LinkEvent::Lost {
                        why: "reset".into(),
                        within: Duration::from_secs(20)
                    },
                    &mut send
                )
                .is_none()
        );
        assert!(
            screen.status.contains("rejoining for up to 20 s"),
            "{}",
            screen.status
        );
        assert_eq!(screen.rejoinable(Instant::now()), Some("t0k"));
        screen.event(LinkEvent::Back { fresh: false }, &mut send);
        // Not in the round until the server says it is still on.
        assert_eq!(screen.view, View::Lobby);
        assert_eq!(screen.rejoinable(Instant::now()), None);
        let (_, send) = apply(&mut screen, &welcome(Moves::EightNeighbours));
        assert!(send.is_empty(), "not ready in a round: nothing to say");
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
        assert_eq!(send, [ClientMsg::Ready]);
    }

    #[test]
    fn after_a_goodbye_mid_round_there_is_nothing_to_rejoin() {
        let mut screen = Screen::new("test".into());
        apply(&mut screen, &welcome(Moves::EightNeighbours));
        apply(&mut screen, &start(1, "BENHLAUMITLZRGAN", &[]));
        assert_eq!(screen.rejoinable(Instant::now()), Some("t0k"));
        assert_eq!(
            screen.rejoinable(Instant::now() + Duration::from_secs(61)),
            None,
            "the round is over by then"
        );
        let bye = ServerMsg::Bye {
            reason: "the server is shutting down".into(),
        };
        assert!(matches!(apply(&mut screen, &bye).0, Some(Err(_))));
        assert_eq!(screen.rejoinable(Instant::now()), None);
    }
}
