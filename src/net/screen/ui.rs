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
use unicode_width::UnicodeWidthStr;

use super::app::{Screen, View};
use crate::net::client::{Results, points, waiting_for};
use crate::tui::ui::{Look, board_size, clock, draw_board, fit, largest_cell};
use boggle_engine::plural;
use boggle_protocol::names::clean;

/// The narrowest panel beside the board (lobby, words, results).
const PANEL_MIN_WIDTH: u16 = 30;
/// The lobby's column of names is at least this wide.
const NAME_COLUMN: usize = 20;

/// Draws `screen` on the whole frame. Returns how far the results can be
/// scrolled at this size (0 when they fit).
pub(crate) fn draw(frame: &mut Frame, screen: &Screen, look: Look) -> usize {
    // The status line takes two rows when one would cut it.
    let status_rows = if screen.status.width() > usize::from(frame.area().width) {
        2
    } else {
        1
    };
    let [header, body, input, status] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(3),
        Constraint::Length(1),
        Constraint::Length(status_rows),
    ])
    .areas(frame.area());
    // The round, the points and the clock at the right, kept whole: a
    // narrow terminal cuts the title, never the time left.
    let round = match (screen.view, screen.left) {
        (View::Round, Some(left)) => format!(
            "   round {}   {}   {}",
            screen.round,
            points(screen.score),
            clock(left)
        ),
        _ => String::new(),
    };
    let round_width = u16::try_from(round.width()).unwrap_or(u16::MAX);
    let [title, clock_area] =
        Layout::horizontal([Constraint::Min(0), Constraint::Length(round_width)]).areas(header);
    let bold = Style::default().add_modifier(Modifier::BOLD);
    frame.render_widget(Paragraph::new(screen.title.clone()).style(bold), title);
    frame.render_widget(Paragraph::new(round).style(bold), clock_area);
    let side = if screen.view == View::Lobby && screen.round == 0 {
        body
    } else {
        board_and_panel(frame, screen, body, look)
    };
    let mut most = 0;
    match screen.view {
        View::Lobby => panel(frame, side, "lobby", lobby_lines(screen)),
        View::Round => {
            let lines = screen
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
                .collect();
            panel(frame, side, "your words", lines);
        }
        View::Results => most = results_panel(frame, screen, side),
    }
    let prompt = if screen.view == View::Round {
        format!("> {}_", screen.typed)
    } else {
        String::new()
    };
    frame.render_widget(Paragraph::new(prompt), input);
    frame.render_widget(
        Paragraph::new(screen.status.clone()).wrap(Wrap { trim: true }),
        status,
    );
    most
}

/// A bordered panel titled `title` holding `lines`, wrapped to its width.
fn panel(frame: &mut Frame, area: Rect, title: &str, lines: Vec<Line<'static>>) {
    let text = Paragraph::new(lines)
        .block(
            Block::default()
                .borders(Borders::ALL)
                .title(title.to_string()),
        )
        .wrap(Wrap { trim: false });
    frame.render_widget(text, area);
}

/// The results, laid out to the panel's width so that no entry (`WORD +2`)
/// is ever split, scrolled by `screen.scroll`, with a marker on the border
/// where there is more above or below. Returns how far they can scroll.
fn results_panel(frame: &mut Frame, screen: &Screen, area: Rect) -> usize {
    let inner_width = usize::from(area.width.saturating_sub(2));
    let height = usize::from(area.height.saturating_sub(2));
    let mut lines = match &screen.results {
        Some(results) => results_text(results, inner_width),
        None => Vec::new(),
    };
    if let Some(rejoin) = screen.rejoin_hint().filter(|_| !screen.last) {
        lines.push(Line::from(""));
        let words: Vec<String> = rejoin.split(' ').map(str::to_string).collect();
        lines.extend(
            flow(&words, "", "", " ", inner_width)
                .into_iter()
                .map(Line::from),
        );
    }
    let most = lines.len().saturating_sub(height);
    let from = screen.scroll.min(most);
    let mut block = Block::default().borders(Borders::ALL).title("results");
    if from > 0 {
        block = block.title_top(Line::from(" ↑ more ").right_aligned());
    }
    if from < most {
        block = block.title_bottom(Line::from(" ↓ more: ↑↓ PgUp PgDn ").right_aligned());
    }
    let shown: Vec<Line> = lines.into_iter().skip(from).take(height).collect();
    frame.render_widget(Paragraph::new(shown).block(block), area);
    most
}

/// The results as lines of at most `width` columns: each player's score
/// (bold), their words and cancelled words, the shared words, the best missed.
fn results_text(results: &Results, width: usize) -> Vec<Line<'static>> {
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let mut lines = vec![Line::styled(results.heading(), bold)];
    let add = |lines: &mut Vec<Line<'static>>, first: &str, entries: &[String]| {
        lines.extend(
            flow(entries, first, "  ", "  ", width)
                .into_iter()
                .map(Line::from),
        );
    };
    for player in &results.players {
        lines.push(Line::styled(player.heading(), bold));
        let mut entries = player.kept.clone();
        entries.extend(labelled("cancelled:", &player.cancelled));
        entries.extend(player.more.clone());
        add(&mut lines, "  ", &entries);
    }
    let mut shared: Vec<String> = results
        .shared
        .iter()
        .map(|(word, who)| format!("{word} ({who})"))
        .collect();
    shared.extend(results.shared_more.clone());
    add(&mut lines, "", &labelled("shared:", &shared));
    if let Some(missed) = &results.missed {
        add(
            &mut lines,
            "",
            &labelled(&format!("{missed}:"), &results.missed_words),
        );
    }
    lines
}

/// `label` (ending in `:`) and `entries` after it, or nothing without entries.
fn labelled(label: &str, entries: &[String]) -> Vec<String> {
    if entries.is_empty() {
        return Vec::new();
    }
    std::iter::once(label.to_string())
        .chain(entries.iter().cloned())
        .collect()
}

/// `entries` laid out in lines of at most `width` columns, `sep` apart (where
/// that is not one space, a label, an entry ending in `:`, is one space from
/// the entry after it and never ends a line), the first line indented by
/// `first` and the others by `indent`; an entry is never split (one wider
/// than a line has a line of its own).
fn flow(entries: &[String], first: &str, indent: &str, sep: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    // Words of running text (one space apart) have no labels.
    let labels = sep != " ";
    for (at, entry) in entries.iter().enumerate() {
        let sep = if labels && line.ends_with(':') {
            " "
        } else {
            sep
        };
        // A label goes where the entry after it fits beside it.
        let unit = match entries.get(at + 1) {
            Some(next) if labels && entry.ends_with(':') => entry.width() + 1 + next.width(),
            _ => entry.width(),
        };
        if line.is_empty() {
            let lead = if lines.is_empty() { first } else { indent };
            line = format!("{lead}{entry}");
        } else if line.width() + sep.width() + unit <= width {
            line.push_str(sep);
            line.push_str(entry);
        } else {
            lines.push(std::mem::take(&mut line));
            line = format!("{indent}{entry}");
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    // An entry wider than a line (a shared word with a long list of names)
    // is wrapped at its spaces rather than cut off by the panel's edge.
    lines
        .into_iter()
        .flat_map(|line| fit(line, indent, width))
        .collect()
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
    let Some(cell) = largest_cell(board, (room, body.height), frame.area()) else {
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

/// `text` padded with spaces to `width` columns as a terminal shows them
/// (a CJK character takes two).
fn pad(text: &str, width: usize) -> String {
    let mut padded = text.to_string();
    padded.extend(std::iter::repeat_n(' ', width.saturating_sub(text.width())));
    padded
}

/// Who is in, who is ready, their points, what a round waits for, and the
/// command that takes this seat back.
fn lobby_lines(screen: &Screen) -> Vec<Line<'static>> {
    let names: Vec<String> = screen.lobby.iter().map(|p| clean(&p.name)).collect();
    let column = names
        .iter()
        .map(|n| n.width())
        .max()
        .unwrap_or(0)
        .max(NAME_COLUMN);
    let mut lines: Vec<Line> = screen
        .lobby
        .iter()
        .zip(&names)
        .map(|(p, name)| {
            let state = match (p.connected, p.ready) {
                (false, _) => "away",
                (true, true) => "ready",
                (true, false) => "not ready",
            };
            Line::from(format!(
                "{} {state:<9} {:>4} {}",
                pad(name, column),
                p.total,
                plural(p.total, "point", "points")
            ))
        })
        .collect();
    lines.push(Line::from(""));
    let wait = match waiting_for(&screen.lobby, screen.min_players) {
        _ if screen.lobby.is_empty() => "joining...".to_string(),
        Some(wait) => format!(
            "{wait}: a round starts when {} are in and all are ready",
            screen.min_players
        ),
        None => format!(
            "a round starts when {} or more are in and all are ready",
            screen.min_players
        ),
    };
    lines.push(Line::from(wait));
    if let Some(rejoin) = screen.rejoin_hint() {
        lines.push(Line::from(""));
        // The panel wraps it at word boundaries.
        lines.push(Line::from(rejoin));
    }
    lines
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::net::link::LinkEvent;
    use crate::net::screen::app::Input;
    use crate::net::screen::app::tests::{apply, start, typed, verdicts, welcome};
    use crate::tui::terminal::{Code, Key};
    use crate::tui::ui::tests::{assert_rows, drawn};
    use boggle_game::rules::MoveRule;
    use boggle_protocol::ClientMsg;
    use boggle_protocol::{
        Duplicates, FoundWord, LobbyPlayer, Moves, PlayerResult, ServerMsg, SharedWord, WordPoints,
    };

    /// The screen at `width` x `height`: its rows, trailing spaces trimmed,
    /// and the cells drawn in reverse video.
    fn shown(screen: &Screen, width: u16, height: u16) -> (Vec<String>, Vec<(u16, u16)>) {
        drawn(width, height, |frame| {
            draw(frame, screen, Look::default());
        })
    }

    /// Ann in room main, with bob ready and cy away.
    fn in_the_lobby() -> Screen {
        let opts = crate::net::client::JoinOptions {
            addr: "127.0.0.1:4040".into(),
            name: "ann".into(),
            room: Some("main".into()),
            ..Default::default()
        };
        let mut screen = Screen::joining("boggle join 127.0.0.1:4040".into(), &opts);
        apply(&mut screen, &welcome(Moves::NoUp));
        lobby(
            &mut screen,
            &[
                ("ann", false, true, 0),
                ("bob", true, true, 12),
                ("cy", false, false, 3),
            ],
            0,
        );
        screen
    }

    /// The server's lobby of `players` (name, ready, connected, total), 2 needed.
    fn lobby(screen: &mut Screen, players: &[(&str, bool, bool, u32)], round: u32) {
        let players = players
            .iter()
            .map(|&(name, ready, connected, total)| LobbyPlayer {
                name: name.into(),
                ready,
                connected,
                total,
            })
            .collect();
        apply(
            screen,
            &ServerMsg::Lobby {
                players,
                min_players: 2,
                round,
            },
        );
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

    /// The results of round 1: bob found seven words, ann one; they shared
    /// EAT; 25 words were missed, the best 14 listed.
    fn at_the_results() -> Screen {
        let mut screen = in_a_round();
        let found = |word: &str, points, cancelled| FoundWord {
            word: word.into(),
            points,
            cancelled,
        };
        let bob = [
            ("EAT", 1, true),
            ("LATE", 1, false),
            ("AYONT", 2, false),
            ("BANAL", 2, false),
            ("TUNA", 1, false),
            ("GNAT", 1, false),
            ("TALE", 1, false),
        ];
        let missed = [
            "ABLATE", "BALLET", "TABLET", "LANGUAGE", "AMULET", "HAUNT", "BLUNT", "ULTIMA",
            "MANTLE", "LAMENT", "GAUNT", "TANGLE", "BANGLE", "MANGLE",
        ];
        apply(
            &mut screen,
            &ServerMsg::Results {
                round: 1,
                last: false,
                duplicates: Duplicates::Cancel,
                players: vec![
                    PlayerResult {
                        name: "bob".into(),
                        words: bob.iter().map(|&(w, p, c)| found(w, p, c)).collect(),
                        words_total: 7,
                        score: 8,
                        total: 20,
                    },
                    PlayerResult {
                        name: "ann".into(),
                        words: vec![found("EAT", 1, true)],
                        words_total: 1,
                        score: 0,
                        total: 0,
                    },
                ],
                shared: vec![SharedWord {
                    word: "EAT".into(),
                    players: vec!["bob".into(), "ann".into()],
                    count: 2,
                }],
                shared_total: 1,
                missed: missed
                    .iter()
                    .map(|w| WordPoints {
                        word: (*w).into(),
                        points: 3,
                        rare: false,
                    })
                    .collect(),
                missed_total: 25,
                board_words: 0,
                board_points: 0,
            },
        );
        // The results take keys once their moment without keys has passed.
        screen.handle(Input::Tick(crate::tui::app::GRACE));
        screen
    }

    #[test]
    fn the_lobby_at_80x24_and_60x20() {
        let screen = in_the_lobby();
        let (rows, _) = shown(&screen, 80, 24);
        assert_rows(&rows, LOBBY_80X24);
        let (rows, _) = shown(&screen, 60, 20);
        assert_rows(&rows, LOBBY_60X20);
    }

    /// Issue 46, item 6: an entry wider than the panel is wrapped, not cut
    /// (`AHI (<img src=x onerror=a, Desk Player, term` lost its `)`).
    #[test]
    fn an_entry_wider_than_the_panel_is_wrapped_not_cut() {
        let entries =
            ["shared:", "AHI (<img src=x onerror=a, Desk Player, term)"].map(String::from);
        let lines = flow(&entries, "", "  ", "  ", 24);
        assert!(lines.iter().all(|l| l.width() <= 24), "{lines:?}");
        assert_eq!(
            lines,
            [
                "shared:",
                "  AHI (<img src=x",
                "  onerror=a, Desk",
                "  Player, term)"
            ]
        );
    }

    /// Issue 46, item 6: at 40x12 the clock stays on screen while a round runs.
    #[test]
    fn the_clock_stays_on_a_40_column_screen() {
        let screen = in_a_round();
        let (rows, _) = shown(&screen, 40, 12);
        assert!(rows[0].ends_with("round 1   1 point   0:48"), "{rows:?}");
    }

    #[test]
    fn entries_are_never_split_and_a_label_never_ends_a_line() {
        let entries: Vec<String> = ["AYONT +2", "TAIL +1", "cancelled:", "LANE", "TALE"]
            .map(String::from)
            .to_vec();
        assert_eq!(
            flow(&entries, "  ", "  ", "  ", 28),
            ["  AYONT +2  TAIL +1", "  cancelled: LANE  TALE"]
        );
        assert_eq!(
            flow(&entries, "", "  ", "  ", 12),
            ["AYONT +2", "  TAIL +1", "  cancelled:", "  LANE  TALE"]
        );
    }

    const LOBBY_80X24: &[&str] = &[
        "ann in room main (project4)",
        "┌lobby─────────────────────────────────────────────────────────────────────────┐",
        "│ann                  not ready    0 points                                    │",
        "│bob                  ready       12 points                                    │",
        "│cy                   away         3 points                                    │",
        "│                                                                              │",
        "│a round starts when 2 or more are in and all are ready                        │",
        "│                                                                              │",
        "│to take this seat back if this window closes: boggle join 127.0.0.1:4040      │",
        "│--name ann --room main --token t0k                                            │",
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
        "Enter: ready   q: quit",
    ];
    const LOBBY_60X20: &[&str] = &[
        "ann in room main (project4)",
        "┌lobby─────────────────────────────────────────────────────┐",
        "│ann                  not ready    0 points                │",
        "│bob                  ready       12 points                │",
        "│cy                   away         3 points                │",
        "│                                                          │",
        "│a round starts when 2 or more are in and all are ready    │",
        "│                                                          │",
        "│to take this seat back if this window closes: boggle join │",
        "│127.0.0.1:4040 --name ann --room main --token t0k         │",
        "│                                                          │",
        "│                                                          │",
        "│                                                          │",
        "│                                                          │",
        "│                                                          │",
        "│                                                          │",
        "│                                                          │",
        "└──────────────────────────────────────────────────────────┘",
        "",
        "Enter: ready   q: quit",
    ];

    /// Ann alone with bob away: the lobby says the room waits for another
    /// player; wide names keep the columns in line.
    #[test]
    fn alone_with_an_away_player_the_lobby_says_it_waits_and_wide_names_line_up() {
        let mut screen = in_the_lobby();
        lobby(
            &mut screen,
            &[("ann", true, true, 1), ("李小龍李小龍", false, false, 3)],
            1,
        );
        let (rows, _) = shown(&screen, 80, 24);
        assert_rows(&rows[..6], LOBBY_WAITING);
        // Columns in terminal cells (one symbol each in the drawn rows: a
        // wide character's second cell is blank), not characters.
        let at = |row: &str, text: &str| row.find(text).map(|i| row[..i].chars().count());
        assert_eq!(at(&rows[2], "ready"), at(&rows[3], "away"));
    }

    const LOBBY_WAITING: &[&str] = &[
        "ann in room main (project4)",
        "┌lobby─────────────────────────────────────────────────────────────────────────┐",
        "│ann                  ready        1 point                                     │",
        "│李 小 龍 李 小 龍          away         3 points                                    │",
        "│                                                                              │",
        "│waiting for 1 more player to join: a round starts when 2 are in and all are   │",
    ];

    #[test]
    fn a_round_at_80x24_and_60x20() {
        let screen = in_a_round();
        let (rows, reversed) = shown(&screen, 80, 24);
        assert_rows(
            &rows,
            &[
                "ann in room main (project4)                             round 1   1 point   0:48",
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
                "type a word, Enter to play it; Enter twice: done   Ctrl-C: quit",
            ],
        );
        // B, E and A, 7x3 each, in reverse video.
        assert_eq!(reversed.len(), 3 * 21, "{reversed:?}");
        let (rows, reversed) = shown(&screen, 60, 20);
        // Boxed 5x3 cells at 60 columns, the path still numbered.
        assert_rows(
            &rows,
            &[
                "ann in room main (project4)         round 1   1 point   0:48",
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
                "                        └──────────────────────────────────┘",
                "> BEA_",
                "type a word, Enter to play it; Enter twice: done   Ctrl-C:",
                "quit",
            ],
        );
        assert_eq!(reversed.len(), 3 * 15, "{reversed:?}");
    }

    #[test]
    fn the_results_at_80x24_and_60x20() {
        let mut screen = at_the_results();
        let (rows, reversed) = shown(&screen, 80, 24);
        assert_rows(&rows, RESULTS_80X24);
        assert!(reversed.is_empty(), "no path once the round is over");
        // No entry is split over two lines.
        let text = rows.join("\n");
        assert!(text.contains("AYONT +2"), "{text}");
        let (rows, _) = shown(&screen, 60, 20);
        assert_rows(&rows, RESULTS_60X20);
        // Scrolled to the end: the rest of the missed words, a marker above.
        typed_keys(&mut screen, &[Code::End]);
        let (rows, _) = shown(&screen, 60, 20);
        assert_rows(&rows, RESULTS_60X20_END);
        // Enter: ready, and the screen says so.
        assert_eq!(typed(&mut screen, "\n"), vec![Some(ClientMsg::Ready)]);
        let (rows, _) = shown(&screen, 60, 20);
        assert_eq!(
            rows[19],
            "ready: the round starts when everyone is ready   q: quit"
        );
    }

    fn typed_keys(screen: &mut Screen, codes: &[Code]) {
        for &code in codes {
            screen.handle(Input::Key(Key::plain(code)));
            let mut most = 0;
            drawn(60, 20, |frame| most = draw(frame, screen, Look::default()));
            screen.clamp_scroll(most);
        }
    }

    const RESULTS_80X24: &[&str] = &[
        "ann in room main (project4)",
        "                                ┌results───────────────────────────────────────┐",
        "                                │results of round 1:                           │",
        "                                │bob: 8 points (total 20)                      │",
        "                                │  LATE +1  AYONT +2  BANAL +2  TUNA +1        │",
        "  ┌─────┐┌─────┐┌─────┐┌─────┐  │  GNAT +1  TALE +1  cancelled: EAT            │",
        "  │  B  ││  E  ││  N  ││  H  │  │ann: 0 points (total 0)                       │",
        "  └─────┘└─────┘└─────┘└─────┘  │  cancelled: EAT                              │",
        "  ┌─────┐┌─────┐┌─────┐┌─────┐  │shared: EAT (bob, ann)                        │",
        "  │  L  ││  A  ││  U  ││  M  │  │missed 25 words; the best: ABLATE +3          │",
        "  └─────┘└─────┘└─────┘└─────┘  │  BALLET +3  TABLET +3  LANGUAGE +3  AMULET +3│",
        "  ┌─────┐┌─────┐┌─────┐┌─────┐  │  HAUNT +3  BLUNT +3  ULTIMA +3  MANTLE +3    │",
        "  │  I  ││  T  ││  L  ││  Z  │  │  LAMENT +3  GAUNT +3  TANGLE +3  BANGLE +3   │",
        "  └─────┘└─────┘└─────┘└─────┘  │  MANGLE +3                                   │",
        "  ┌─────┐┌─────┐┌─────┐┌─────┐  │                                              │",
        "  │  R  ││  G  ││  A  ││  N  │  │to take this seat back if this window closes: │",
        "  └─────┘└─────┘└─────┘└─────┘  │boggle join 127.0.0.1:4040 --name ann --room  │",
        "                                │main --token t0k                              │",
        "                                │                                              │",
        "                                │                                              │",
        "                                │                                              │",
        "                                └──────────────────────────────────────────────┘",
        "",
        "Enter: ready for the next round   ↑↓: scroll   q: quit",
    ];
    const RESULTS_60X20: &[&str] = &[
        "ann in room main (project4)",
        "                        ┌results───────────────────────────┐",
        "                        │results of round 1:               │",
        "  ┌───┐┌───┐┌───┐┌───┐  │bob: 8 points (total 20)          │",
        "  │ B ││ E ││ N ││ H │  │  LATE +1  AYONT +2  BANAL +2     │",
        "  └───┘└───┘└───┘└───┘  │  TUNA +1  GNAT +1  TALE +1       │",
        "  ┌───┐┌───┐┌───┐┌───┐  │  cancelled: EAT                  │",
        "  │ L ││ A ││ U ││ M │  │ann: 0 points (total 0)           │",
        "  └───┘└───┘└───┘└───┘  │  cancelled: EAT                  │",
        "  ┌───┐┌───┐┌───┐┌───┐  │shared: EAT (bob, ann)            │",
        "  │ I ││ T ││ L ││ Z │  │missed 25 words; the best:        │",
        "  └───┘└───┘└───┘└───┘  │  ABLATE +3  BALLET +3  TABLET +3 │",
        "  ┌───┐┌───┐┌───┐┌───┐  │  LANGUAGE +3  AMULET +3  HAUNT +3│",
        "  │ R ││ G ││ A ││ N │  │  BLUNT +3  ULTIMA +3  MANTLE +3  │",
        "  └───┘└───┘└───┘└───┘  │  LAMENT +3  GAUNT +3  TANGLE +3  │",
        "                        │  BANGLE +3  MANGLE +3            │",
        "                        │                                  │",
        "                        └──────────── ↓ more: ↑↓ PgUp PgDn ┘",
        "",
        "Enter: ready for the next round   ↑↓: scroll   q: quit",
    ];
    const RESULTS_60X20_END: &[&str] = &[
        "ann in room main (project4)",
        "                        ┌results─────────────────── ↑ more ┐",
        "                        │  cancelled: EAT                  │",
        "  ┌───┐┌───┐┌───┐┌───┐  │ann: 0 points (total 0)           │",
        "  │ B ││ E ││ N ││ H │  │  cancelled: EAT                  │",
        "  └───┘└───┘└───┘└───┘  │shared: EAT (bob, ann)            │",
        "  ┌───┐┌───┐┌───┐┌───┐  │missed 25 words; the best:        │",
        "  │ L ││ A ││ U ││ M │  │  ABLATE +3  BALLET +3  TABLET +3 │",
        "  └───┘└───┘└───┘└───┘  │  LANGUAGE +3  AMULET +3  HAUNT +3│",
        "  ┌───┐┌───┐┌───┐┌───┐  │  BLUNT +3  ULTIMA +3  MANTLE +3  │",
        "  │ I ││ T ││ L ││ Z │  │  LAMENT +3  GAUNT +3  TANGLE +3  │",
        "  └───┘└───┘└───┘└───┘  │  BANGLE +3  MANGLE +3            │",
        "  ┌───┐┌───┐┌───┐┌───┐  │                                  │",
        "  │ R ││ G ││ A ││ N │  │to take this seat back if this    │",
        "  └───┘└───┘└───┘└───┘  │window closes: boggle join        │",
        "                        │127.0.0.1:4040 --name ann --room  │",
        "                        │main --token t0k                  │",
        "                        └──────────────────────────────────┘",
        "",
        "Enter: ready for the next round   ↑↓: scroll   q: quit",
    ];

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
                words_total: 1,
                score: 1,
                total: 1,
            }],
            shared: Vec::new(),
            shared_total: 0,
            missed: Vec::new(),
            missed_total: 0,
            board_words: 0,
            board_points: 0,
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

    /// Issue 46, item 10: the network game's board grows at 120x40 as the tui's does.
    #[test]
    fn the_board_grows_with_a_large_terminal() {
        let mut screen = Screen::new("test".into());
        apply(&mut screen, &welcome(Moves::NoUp));
        apply(&mut screen, &start(1, "BENHLAUMITLZRGAN", &[]));
        let (rows, _) = shown(&screen, 120, 40);
        let text = rows.join("\n");
        assert!(
            rows.iter().any(|row| row.contains("────────────┐┌")),
            "cells wider than 7 columns at 120x40:\n{text}"
        );
        assert!(!text.contains("bigger terminal"), "{text}");
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
            "connection lost (reset): rejoining for up to 20 s   Ctrl-C: quit"
        );
    }
}
