//! The full-screen client of `boggle join` on a terminal: the lobby (who is
//! in, who is ready), the round (the board, the server's clock, the typed
//! word and each verdict with its reason) and the results, drawn with
//! ratatui. It owns raw mode and the alternate screen for its run and puts
//! the terminal back on every way out. Everything from the server is shown
//! through [`clean`].

use std::io;
use std::time::{Duration, Instant};

use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;
use tokio::sync::mpsc;

use super::client::{JoinOptions, next_server_msg, results_lines};
use super::protocol::{ClientMsg, LobbyPlayer, ServerMsg, VERSION, clean, encode};
use crate::tui::terminal::Session;
use crate::tui::ui::clock;

/// Where the player is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum View {
    Lobby,
    Round,
    Results,
}

/// What the screen shows.
struct Screen {
    title: String,
    view: View,
    lobby: Vec<LobbyPlayer>,
    min_players: usize,
    round: u32,
    rows: usize,
    cols: usize,
    board: Vec<String>,
    deadline: Option<Instant>,
    typed: String,
    verdicts: Vec<(String, bool)>,
    score: u32,
    results: Vec<String>,
    ready: bool,
    last: bool,
    status: String,
}

impl Screen {
    /// The lobby before anything is heard from the server.
    fn new(title: String) -> Screen {
        Screen {
            title,
            view: View::Lobby,
            lobby: Vec::new(),
            min_players: 1,
            round: 0,
            rows: 0,
            cols: 0,
            board: Vec::new(),
            deadline: None,
            typed: String::new(),
            verdicts: Vec::new(),
            score: 0,
            results: Vec::new(),
            ready: false,
            last: false,
            status: "Enter: ready   Esc: quit".into(),
        }
    }
}

/// Plays full-screen until the player quits (Esc, Ctrl-C) or the room's last round is over.
pub async fn run(opts: &JoinOptions) -> io::Result<()> {
    let stream = TcpStream::connect(&opts.addr).await?;
    let _ = stream.set_nodelay(true);
    let (read_half, mut write) = stream.into_split();
    let mut server = tokio::io::BufReader::new(read_half);
    let hello = ClientMsg::Hello {
        version: VERSION,
        name: opts.name.clone(),
        room: opts.room.clone(),
        password: opts.password.clone(),
        token: opts.token.clone(),
    };
    write.write_all(encode(&hello).as_bytes()).await?;
    let (keys_tx, mut keys) = mpsc::unbounded_channel::<KeyEvent>();
    // crossterm's reads block, so they run on their own thread.
    std::thread::spawn(move || {
        while let Ok(event) = event::read() {
            if let Event::Key(key) = event
                && key.kind == KeyEventKind::Press
                && keys_tx.send(key).is_err()
            {
                return;
            }
        }
    });
    let mut session = Session::start()?;
    let mut screen = Screen::new(format!("boggle join {}", clean(&opts.addr)));
    let mut tick = tokio::time::interval(Duration::from_millis(200));
    let mut ping = tokio::time::interval(Duration::from_secs(30));
    let mut buf = Vec::new();
    loop {
        session.terminal.draw(|frame| draw(frame, &screen))?;
        let mut send: Vec<ClientMsg> = Vec::new();
        tokio::select! {
            msg = next_server_msg(&mut server, &mut buf) => {
                let msg = msg?;
                if let Some(end) = apply(&mut screen, &msg) {
                    return end;
                }
            }
            key = keys.recv() => {
                let Some(key) = key else { return Ok(()) };
                let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
                match key.code {
                    KeyCode::Esc => return Ok(()),
                    KeyCode::Char('c' | 'd') if ctrl => return Ok(()),
                    KeyCode::Enter if screen.view == View::Round => {
                        let word = std::mem::take(&mut screen.typed);
                        if word.is_empty() {
                            // Enter on an empty word: finished with the round.
                            send.push(ClientMsg::Done);
                            screen.status = "done: waiting for the others   Esc: quit".into();
                        } else {
                            send.push(ClientMsg::Word { word });
                        }
                    }
                    KeyCode::Enter if !screen.ready && !screen.last => {
                        screen.ready = true;
                        send.push(ClientMsg::Ready);
                    }
                    KeyCode::Backspace => {
                        screen.typed.pop();
                    }
                    KeyCode::Char(c) if screen.view == View::Round && c.is_ascii_alphabetic() && screen.typed.len() < 32 => {
                        screen.typed.push(c.to_ascii_uppercase());
                    }
                    _ => {}
                }
            }
            _ = tick.tick() => {}
            _ = ping.tick() => send.push(ClientMsg::Ping),
        }
        for msg in send {
            write.write_all(encode(&msg).as_bytes()).await?;
        }
    }
}

/// Takes in one message; `Some` when the session is over.
fn apply(screen: &mut Screen, msg: &ServerMsg) -> Option<io::Result<()>> {
    match msg {
        ServerMsg::Welcome {
            room, name, rules, ..
        } => {
            screen.title = format!("{} in room {} ({})", clean(name), clean(room), clean(rules));
        }
        ServerMsg::Lobby {
            players,
            min_players,
            ..
        } => {
            screen.lobby = players.clone();
            screen.min_players = *min_players;
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
            screen.view = View::Round;
            screen.round = *round;
            (screen.rows, screen.cols) = (*rows, *cols);
            screen.board = board.iter().map(|f| clean(f)).collect();
            screen.deadline = Some(Instant::now() + Duration::from_millis(*remaining_ms));
            screen.verdicts = found
                .iter()
                .map(|w| (format!("{} +{}", clean(&w.word), w.points), true))
                .collect();
            screen.score = *score;
            screen.ready = false;
            screen.status = "type a word, Enter to play it; Enter alone: done   Esc: quit".into();
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
            screen.verdicts.push((text, *accepted));
            screen.score = *score;
        }
        ServerMsg::Results { last, .. } => {
            screen.view = View::Results;
            screen.results = results_lines(msg);
            screen.last = *last;
            screen.deadline = None;
            screen.status = if *last {
                "the room's last round is over   Esc: quit".into()
            } else {
                "Enter: ready for the next round   Esc: quit".into()
            };
        }
        ServerMsg::Error { code, message } => {
            if code.is_fatal() {
                return Some(Err(io::Error::other(format!(
                    "the server refused: {}",
                    clean(message)
                ))));
            }
            screen.status = clean(message);
        }
        ServerMsg::Bye { reason } => {
            return Some(Err(io::Error::other(format!(
                "the server closed: {}",
                clean(reason)
            ))));
        }
        ServerMsg::Pong => {}
    }
    None
}

fn draw(frame: &mut ratatui::Frame, screen: &Screen) {
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
    let board_width = u16::try_from(screen.cols.saturating_mul(4).saturating_add(2)).unwrap_or(40);
    let [board_area, side] =
        Layout::horizontal([Constraint::Length(board_width.min(40)), Constraint::Min(10)])
            .areas(body);
    if screen.view != View::Lobby || screen.round > 0 {
        let lines: Vec<Line> = screen
            .board
            .chunks(screen.cols.max(1))
            .map(|row| {
                let cells: String = row
                    .iter()
                    .map(|face| {
                        let shown = match face.as_str() {
                            "QU" => "Qu".to_string(),
                            "" => "-".to_string(),
                            f => f.to_string(),
                        };
                        format!(" {shown:<3}")
                    })
                    .collect();
                Line::from(cells)
            })
            .flat_map(|line| [line, Line::from("")])
            .collect();
        frame.render_widget(
            Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title("board")),
            board_area,
        );
    }
    let (title, lines): (&str, Vec<Line>) = match screen.view {
        View::Lobby => (
            "lobby",
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
                .collect(),
        ),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::protocol::{Duplicates, FoundWord, PlayerResult};
    use ratatui::backend::TestBackend;

    fn shown(screen: &Screen) -> String {
        let mut terminal = ratatui::Terminal::new(TestBackend::new(80, 24)).expect("test backend");
        terminal.draw(|frame| draw(frame, screen)).expect("draws");
        let buffer = terminal.backend().buffer().clone();
        buffer
            .content()
            .chunks(80)
            .map(|row| row.iter().map(|c| c.symbol()).collect::<String>() + "\n")
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
        assert!(apply(&mut screen, &start).is_none());
        assert_eq!(screen.view, View::Round);
        let verdict = ServerMsg::Verdict {
            word: "TEA".into(),
            accepted: false,
            points: 0,
            reason: "not on the board".into(),
            score: 0,
        };
        assert!(apply(&mut screen, &verdict).is_none());
        let text = shown(&screen);
        assert!(text.contains("TEA: not on the board"), "{text}");
        assert!(text.contains(" A   Qu"), "{text}");
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
        assert!(apply(&mut screen, &results).is_none());
        let text = shown(&screen);
        assert!(text.contains("eve?[2J: 1 point"), "{text}");
        assert!(!text.contains('\u{1b}'));
        let bye = ServerMsg::Bye {
            reason: "shutting down".into(),
        };
        assert!(matches!(apply(&mut screen, &bye), Some(Err(_))));
    }
}
