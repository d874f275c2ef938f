//! Drawing `boggle join`'s full screen on any ratatui backend: the header
//! (who, where, and in a round its number, points and time left), the board
//! drawn as the tui draws it with the typed word's path, the panel beside it
//! (the lobby, the round's verdicts, the results), the typed word and the
//! status line. Everything from the server was [`clean`]ed on the way in.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use super::app::{Screen, View};
use crate::net::protocol::clean;
use crate::tui::ui::{Look, board_size, clock, draw_board, largest_cell};

/// The narrowest panel beside the board (lobby, words, results).
const PANEL_MIN_WIDTH: u16 = 30;

/// Draws `screen` on the whole frame.
pub(crate) fn draw(frame: &mut Frame, screen: &Screen, look: Look) {
    let [header, body, input, status] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(3),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(frame.area());
    let head = match (screen.view, screen.left) {
        (View::Round, Some(left)) => format!(
            "{}   round {}   {} points   {}",
            screen.title,
            screen.round,
            screen.score,
            clock(left)
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
fn board_and_panel(frame: &mut Frame, screen: &Screen, body: Rect, look: Look) -> Rect {
    let note = |frame: &mut Frame, text: &str| {
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
    use std::time::Duration;

    use super::*;
    use crate::net::link::LinkEvent;
    use crate::net::protocol::{
        Duplicates, FoundWord, LobbyPlayer, Moves, PlayerResult, ServerMsg, SharedWord, WordPoints,
    };
    use crate::net::screen::app::Input;
    use crate::net::screen::app::tests::{apply, start, typed, verdicts, welcome};
    use crate::rules::MoveRule;
    use crate::tui::ui::tests::{assert_rows, drawn};

    /// The screen at `width` x `height`: its rows, trailing spaces trimmed,
    /// and the cells drawn in reverse video.
    fn shown(screen: &Screen, width: u16, height: u16) -> (Vec<String>, Vec<(u16, u16)>) {
        drawn(width, height, |frame| draw(frame, screen, Look::default()))
    }

    /// Ann in room main, with bob ready and cy away.
    fn in_the_lobby() -> Screen {
        let mut screen = Screen::new("boggle join 127.0.0.1:4040".into());
        apply(&mut screen, &welcome(Moves::NoUp));
        let player = |name: &str, ready, connected, total| LobbyPlayer {
            name: name.into(),
            ready,
            connected,
            total,
        };
        apply(
            &mut screen,
            &ServerMsg::Lobby {
                players: vec![
                    player("ann", false, true, 0),
                    player("bob", true, true, 12),
                    player("cy", false, false, 3),
                ],
                min_players: 2,
                round: 0,
            },
        );
        screen
    }

    /// Round 1 on BENH/LAUM/ITLZ/RGAN, EAT taken and TEA not, BEA typed,
    /// 12.5 s into the minute.
    fn in_a_round() -> Screen {
        let mut screen = in_the_lobby();
        apply(&mut screen, &start(1, "BENHLAUMITLZRGAN", &[]));
        verdicts(
            &mut screen,
            &[("EAT", true, "1 point"), ("TEA", false, "not on the board")],
        );
        typed(&mut screen, "bea");
        screen.handle(Input::Tick(Duration::from_millis(12_500)));
        screen
    }

    /// The results of round 1: ann and bob shared EAT, NAG was missed.
    fn at_the_results() -> Screen {
        let mut screen = in_a_round();
        let found = |word: &str, points, cancelled| FoundWord {
            word: word.into(),
            points,
            cancelled,
        };
        apply(
            &mut screen,
            &ServerMsg::Results {
                round: 1,
                last: false,
                duplicates: Duplicates::Cancel,
                players: vec![
                    PlayerResult {
                        name: "bob".into(),
                        words: vec![found("EAT", 1, true), found("LATE", 1, false)],
                        score: 1,
                        total: 13,
                    },
                    PlayerResult {
                        name: "ann".into(),
                        words: vec![found("EAT", 1, true)],
                        score: 0,
                        total: 0,
                    },
                ],
                shared: vec![SharedWord {
                    word: "EAT".into(),
                    players: vec!["bob".into(), "ann".into()],
                }],
                missed: vec![WordPoints {
                    word: "NAG".into(),
                    points: 1,
                }],
                missed_total: 1,
            },
        );
        screen
    }

    #[test]
    fn the_lobby_at_80x24_and_60x20() {
        let screen = in_the_lobby();
        let (rows, _) = shown(&screen, 80, 24);
        assert_rows(
            &rows,
            &[
                "ann in room main (project4)",
                "┌lobby─────────────────────────────────────────────────────────────────────────┐",
                "│ann                  not ready    0 points                                    │",
                "│bob                  ready       12 points                                    │",
                "│cy                   away         3 points                                    │",
                "│                                                                              │",
                "│a round starts when 2 or more are in and all are ready                        │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "└──────────────────────────────────────────────────────────────────────────────┘",
                "",
                "Enter: ready   Esc: quit",
            ],
        );
        let (rows, _) = shown(&screen, 60, 20);
        assert_rows(
            &rows,
            &[
                "ann in room main (project4)",
                "┌lobby─────────────────────────────────────────────────────┐",
                "│ann                  not ready    0 points                │",
                "│bob                  ready       12 points                │",
                "│cy                   away         3 points                │",
                "│                                                          │",
                "│a round starts when 2 or more are in and all are ready    │",
                "│                                                          │",
                "│                                                          │",
                "│                                                          │",
                "│                                                          │",
                "│                                                          │",
                "│                                                          │",
                "│                                                          │",
                "│                                                          │",
                "│                                                          │",
                "│                                                          │",
                "└──────────────────────────────────────────────────────────┘",
                "",
                "Enter: ready   Esc: quit",
            ],
        );
    }

    #[test]
    fn a_round_at_80x24_and_60x20() {
        let screen = in_a_round();
        let (rows, reversed) = shown(&screen, 80, 24);
        assert_rows(
            &rows,
            &[
                "ann in room main (project4)   round 1   1 points   0:48",
                "                                ┌your words────────────────────────────────────┐",
                "                                │TEA: not on the board                         │",
                "                                │EAT +1                                        │",
                "                                │                                              │",
                "  ┌1────┐┌2────┐┌─────┐┌─────┐  │                                              │",
                "  │  B  ││  E  ││  N  ││  H  │  │                                              │",
                "  └─────┘└─────┘└─────┘└─────┘  │                                              │",
                "  ┌─────┐┌3────┐┌─────┐┌─────┐  │                                              │",
                "  │  L  ││  A  ││  U  ││  M  │  │                                              │",
                "  └─────┘└─────┘└─────┘└─────┘  │                                              │",
                "  ┌─────┐┌─────┐┌─────┐┌─────┐  │                                              │",
                "  │  I  ││  T  ││  L  ││  Z  │  │                                              │",
                "  └─────┘└─────┘└─────┘└─────┘  │                                              │",
                "  ┌─────┐┌─────┐┌─────┐┌─────┐  │                                              │",
                "  │  R  ││  G  ││  A  ││  N  │  │                                              │",
                "  └─────┘└─────┘└─────┘└─────┘  │                                              │",
                "                                │                                              │",
                "                                │                                              │",
                "                                │                                              │",
                "                                │                                              │",
                "                                └──────────────────────────────────────────────┘",
                "> BEA_",
                "type a word, Enter to play it; Enter alone: done   Esc: quit",
            ],
        );
        // B, E and A, 7x3 each, in reverse video.
        assert_eq!(reversed.len(), 3 * 21, "{reversed:?}");
        let (rows, reversed) = shown(&screen, 60, 20);
        // Boxed 5x3 cells at 60 columns, the path still numbered.
        assert_rows(
            &rows,
            &[
                "ann in room main (project4)   round 1   1 points   0:48",
                "                        ┌your words────────────────────────┐",
                "                        │TEA: not on the board             │",
                "  ┌1──┐┌2──┐┌───┐┌───┐  │EAT +1                            │",
                "  │ B ││ E ││ N ││ H │  │                                  │",
                "  └───┘└───┘└───┘└───┘  │                                  │",
                "  ┌───┐┌3──┐┌───┐┌───┐  │                                  │",
                "  │ L ││ A ││ U ││ M │  │                                  │",
                "  └───┘└───┘└───┘└───┘  │                                  │",
                "  ┌───┐┌───┐┌───┐┌───┐  │                                  │",
                "  │ I ││ T ││ L ││ Z │  │                                  │",
                "  └───┘└───┘└───┘└───┘  │                                  │",
                "  ┌───┐┌───┐┌───┐┌───┐  │                                  │",
                "  │ R ││ G ││ A ││ N │  │                                  │",
                "  └───┘└───┘└───┘└───┘  │                                  │",
                "                        │                                  │",
                "                        │                                  │",
                "                        └──────────────────────────────────┘",
                "> BEA_",
                "type a word, Enter to play it; Enter alone: done   Esc: quit",
            ],
        );
        assert_eq!(reversed.len(), 3 * 15, "{reversed:?}");
    }

    #[test]
    fn the_results_at_80x24_and_60x20() {
        let screen = at_the_results();
        let (rows, reversed) = shown(&screen, 80, 24);
        assert_rows(
            &rows,
            &[
                "ann in room main (project4)",
                "                                ┌results───────────────────────────────────────┐",
                "                                │results of round 1:                           │",
                "                                │bob: 1 point (total 13); words: LATE +1;      │",
                "                                │cancelled: EAT                                │",
                "  ┌─────┐┌─────┐┌─────┐┌─────┐  │ann: 0 points (total 0); cancelled: EAT       │",
                "  │  B  ││  E  ││  N  ││  H  │  │  shared EAT: bob, ann                        │",
                "  └─────┘└─────┘└─────┘└─────┘  │  missed 1 words; the best: NAG +1            │",
                "  ┌─────┐┌─────┐┌─────┐┌─────┐  │                                              │",
                "  │  L  ││  A  ││  U  ││  M  │  │                                              │",
                "  └─────┘└─────┘└─────┘└─────┘  │                                              │",
                "  ┌─────┐┌─────┐┌─────┐┌─────┐  │                                              │",
                "  │  I  ││  T  ││  L  ││  Z  │  │                                              │",
                "  └─────┘└─────┘└─────┘└─────┘  │                                              │",
                "  ┌─────┐┌─────┐┌─────┐┌─────┐  │                                              │",
                "  │  R  ││  G  ││  A  ││  N  │  │                                              │",
                "  └─────┘└─────┘└─────┘└─────┘  │                                              │",
                "                                │                                              │",
                "                                │                                              │",
                "                                │                                              │",
                "                                │                                              │",
                "                                └──────────────────────────────────────────────┘",
                "",
                "Enter: ready for the next round   Esc: quit",
            ],
        );
        assert!(reversed.is_empty(), "no path once the round is over");
        let (rows, _) = shown(&screen, 60, 20);
        assert_rows(
            &rows,
            &[
                "ann in room main (project4)",
                "                        ┌results───────────────────────────┐",
                "                        │results of round 1:               │",
                "  ┌───┐┌───┐┌───┐┌───┐  │bob: 1 point (total 13); words:   │",
                "  │ B ││ E ││ N ││ H │  │LATE +1; cancelled: EAT           │",
                "  └───┘└───┘└───┘└───┘  │ann: 0 points (total 0);          │",
                "  ┌───┐┌───┐┌───┐┌───┐  │cancelled: EAT                    │",
                "  │ L ││ A ││ U ││ M │  │  shared EAT: bob, ann            │",
                "  └───┘└───┘└───┘└───┘  │  missed 1 words; the best: NAG +1│",
                "  ┌───┐┌───┐┌───┐┌───┐  │                                  │",
                "  │ I ││ T ││ L ││ Z │  │                                  │",
                "  └───┘└───┘└───┘└───┘  │                                  │",
                "  ┌───┐┌───┐┌───┐┌───┐  │                                  │",
                "  │ R ││ G ││ A ││ N │  │                                  │",
                "  └───┘└───┘└───┘└───┘  │                                  │",
                "                        │                                  │",
                "                        │                                  │",
                "                        └──────────────────────────────────┘",
                "",
                "Enter: ready for the next round   Esc: quit",
            ],
        );
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
        let text = shown(&screen, 80, 24).0.join("\n");
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
        let text = shown(&screen, 80, 24).0.join("\n");
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
        assert_eq!(typed(&mut screen, "bea"), vec![None; 3]);
        let (rows, reversed) = shown(&screen, 80, 24);
        let text = rows.join("\n");
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
        assert_eq!(shown(&screen, 80, 24).1, Vec::new());
        // Under 8 neighbours it has one.
        screen.moves = MoveRule::EightNeighbours;
        assert_eq!(screen.path(), vec![4, 5, 0]);
    }

    #[test]
    fn a_lost_connection_is_said_on_the_status_line() {
        let mut screen = in_a_round();
        screen.handle(Input::Link(LinkEvent::Lost {
            why: "reset".into(),
            within: Duration::from_secs(20),
        }));
        let (rows, _) = shown(&screen, 80, 24);
        assert_eq!(
            rows[23],
            "connection lost (reset): rejoining for up to 20 s   Esc: quit"
        );
    }
}
