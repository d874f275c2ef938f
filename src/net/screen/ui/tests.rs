//! Snapshots of `boggle join`'s full screen on ratatui's `TestBackend`:
//! the lobby, a round, the results at 80x24, 60x20 and 40x12, the chosen
//! word of the results and its meaning, the help.

use std::time::Duration;

use super::*;
use crate::net::screen::app::Input;
use crate::net::screen::app::tests::{apply, playing, results_of, start, typed, verdicts, welcome};
use crate::tui::terminal::{Code, Key};
use crate::tui::ui::tests::drawn;
use boggle_client::link::LinkEvent;
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
    let opts = boggle_client::link::JoinOptions {
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
        "ABLATE", "BALLET", "TABLET", "LANGUAGE", "AMULET", "HAUNT", "BLUNT", "ULTIMA", "MANTLE",
        "LAMENT", "GAUNT", "TANGLE", "BANGLE", "MANGLE",
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
                    place: 1,
                },
                PlayerResult {
                    name: "ann".into(),
                    words: vec![found("EAT", 1, true)],
                    words_total: 1,
                    score: 0,
                    total: 0,
                    place: 2,
                },
            ],
            players_total: 2,
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
    insta::assert_snapshot!(rows.join("\n"));
    let (rows, _) = shown(&screen, 60, 20);
    insta::assert_snapshot!(rows.join("\n"));
}

/// An entry wider than the panel is wrapped, not cut
/// (`AHI (<img src=x onerror=a, Desk Player, term` lost its `)`).
#[test]
fn an_entry_wider_than_the_panel_is_wrapped_not_cut() {
    let entries = ["shared:", "AHI (<img src=x onerror=a, Desk Player, term)"].map(String::from);
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

/// At 40x12 the clock stays on screen while a round runs, and the header
/// keeps who plays in which room.
#[test]
fn the_clock_stays_on_a_40_column_screen() {
    let screen = in_a_round();
    let (rows, _) = shown(&screen, 40, 12);
    assert!(rows[0].ends_with("round 1   1 point   0:48"), "{rows:?}");
    assert!(rows[0].starts_with("ann · main "), "{rows:?}");
}

/// At 40x12 each player of the lobby is on one line, points and all.
#[test]
fn the_lobby_keeps_a_player_to_a_line_at_40x12() {
    let screen = in_the_lobby();
    let (rows, _) = shown(&screen, 40, 12);
    for (name, rest) in [
        ("ann", "not ready    0 points"),
        ("bob", "ready       12 points"),
        ("cy", "away         3 points"),
    ] {
        assert!(
            rows.iter()
                .any(|row| row.contains(name) && row.contains(rest)),
            "{name}: {rows:#?}"
        );
    }
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
    insta::assert_snapshot!(rows[..6].join("\n"));
    // Columns in terminal cells (one symbol each in the drawn rows: a
    // wide character's second cell is blank), not characters.
    let at = |row: &str, text: &str| row.find(text).map(|i| row[..i].chars().count());
    assert_eq!(at(&rows[2], "ready"), at(&rows[3], "away"));
}

#[test]
fn a_round_at_80x24_and_60x20() {
    let screen = in_a_round();
    let (rows, reversed) = shown(&screen, 80, 24);
    insta::assert_snapshot!(rows.join("\n"));
    // B, E and A, 7x3 each, in reverse video.
    assert_eq!(reversed.len(), 3 * 21, "{reversed:?}");
    let (rows, reversed) = shown(&screen, 60, 20);
    // Boxed 5x3 cells at 60 columns, the path still numbered.
    insta::assert_snapshot!(rows.join("\n"));
    assert_eq!(reversed.len(), 3 * 15, "{reversed:?}");
}

#[test]
fn the_results_at_80x24_and_60x20() {
    let mut screen = at_the_results();
    let (rows, reversed) = shown(&screen, 80, 24);
    insta::assert_snapshot!(rows.join("\n"));
    assert!(reversed.is_empty(), "no path once the round is over");
    // No entry is split over two lines.
    let text = rows.join("\n");
    assert!(text.contains("AYONT +2"), "{text}");
    let (rows, _) = shown(&screen, 60, 20);
    insta::assert_snapshot!(rows.join("\n"));
    // Scrolled to the end: the rest of the missed words, a marker above.
    typed_keys(&mut screen, &[Code::End]);
    let (rows, _) = shown(&screen, 60, 20);
    insta::assert_snapshot!(rows.join("\n"));
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
        let mut scrolled = (0, 0);
        drawn(60, 20, |frame| {
            scrolled = draw(frame, screen, Look::default())
        });
        screen.drawn(scrolled.0, scrolled.1);
    }
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
    let eve = PlayerResult {
        name: "eve\u{1b}[2J".into(),
        words: vec![FoundWord {
            word: "AQU".into(),
            points: 1,
            cancelled: false,
        }],
        words_total: 1,
        score: 1,
        total: 1,
        place: 1,
    };
    let results = results_of(vec![eve], true);
    assert!(apply(&mut screen, &results).0.is_none());
    let text = shown(&screen, 80, 24).0.join("\n");
    assert!(text.contains("eve?[2J: 1 point"), "{text}");
    assert!(!text.contains('\u{1b}'));
    let bye = ServerMsg::Bye {
        reason: "shutting down".into(),
    };
    // A goodbye is a clean stop; the results are printed after the screen.
    assert!(matches!(apply(&mut screen, &bye).0, Some(Ok(()))));
}

#[test]
fn the_board_is_drawn_as_the_tui_draws_it_with_the_typed_path_traced() {
    let mut screen = playing(Moves::NoUp);
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

/// The network game's board grows at 120x40 as the tui's does.
#[test]
fn the_board_grows_with_a_large_terminal() {
    let screen = playing(Moves::NoUp);
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

/// At 40x12 the board stays in sight while the clock runs: the panel
/// beside it gives way (it used to say the board needs a bigger terminal).
#[test]
fn the_board_stays_in_sight_on_a_40x12_screen_while_the_clock_runs() {
    let screen = in_a_round();
    let (rows, reversed) = shown(&screen, 40, 12);
    let text = rows.join("\n");
    assert!(!text.contains("bigger terminal"), "{text}");
    for row in ["B1 E2 N  H", "L  A3 U  M", "I  T  L  Z", "R  G  A  N"] {
        assert!(
            rows.iter().any(|r| r
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .contains(&row.split_whitespace().collect::<Vec<_>>().join(" "))),
            "{row}\n{text}"
        );
    }
    assert!(!reversed.is_empty(), "the typed path lit\n{text}");
    assert!(rows[0].ends_with("0:48"), "{text}");
}

/// `?` shows the keys and the room's rules (the preset's, shared words,
/// when a round starts); the next key closes it and does nothing else.
#[test]
fn question_mark_shows_the_keys_and_the_rooms_rules() {
    let mut screen = in_the_lobby();
    assert_eq!(typed(&mut screen, "?"), vec![None]);
    let (rows, _) = shown(&screen, 80, 24);
    let text = rows.join("\n");
    for line in [
        "┌ Help ",
        "│ Esc: clear the word; on an empty word, twice: leave",
        "│ Rules: project4, 4x4 board",
        "│ Moves: to a neighbour in the same row or below, never up",
        "│ Points: 3:1 4:1 5:2 6:3 7:4 8+:11",
        "│ Shared: a word two players found scores for neither",
        "│ A round starts when 2 are in and all are ready.",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
    // Enter closes it: it does not say ready.
    assert_eq!(typed(&mut screen, "\n"), vec![None]);
    assert!(screen.overlay.is_none() && !screen.ready);
    // In a round `?` is no letter: it shows the help too.
    let mut screen = in_a_round();
    typed(&mut screen, "?");
    assert_eq!(screen.typed, "BEA");
    assert!(shown(&screen, 60, 20).0.join("\n").contains("┌ Help "));
}

/// On the results, Right and Left choose a word: it is drawn in reverse
/// video in the list, its path lights up on the board, and the list
/// scrolls to it; `d` shows what it means.
#[test]
fn the_results_words_are_chosen_shown_on_the_board_and_explained() {
    let mut screen = at_the_results();
    screen.handle(Input::Key(Key::plain(Code::Right)));
    assert_eq!(screen.chosen().as_deref(), Some("LATE"));
    // LATE +1 in the list; no path on the board (it goes up a row).
    let (rows, reversed) = shown(&screen, 80, 24);
    assert_eq!(reversed.len(), "LATE +1".len(), "{rows:#?}");
    assert!(
        reversed.iter().all(|&(x, y)| x >= 34 && y == 4),
        "{rows:#?}"
    );
    // The cancelled word comes after the scored ones: EAT, lit on the
    // board (3 cells of 7x3) and in the list.
    for _ in 0..6 {
        screen.handle(Input::Key(Key::plain(Code::Right)));
    }
    assert_eq!(screen.chosen().as_deref(), Some("EAT"));
    let (rows, reversed) = shown(&screen, 80, 24);
    let in_list = reversed.iter().filter(|&&(x, _)| x >= 32).count();
    assert_eq!(in_list, "EAT".len(), "{rows:#?}");
    assert_eq!(reversed.len() - in_list, 3 * 21, "{rows:#?}");
    // Left goes back.
    screen.handle(Input::Key(Key::plain(Code::Left)));
    assert_eq!(screen.chosen().as_deref(), Some("TALE"));
    // The first word, with the list scrolled to its end at 60x20: the
    // list follows the choice back up.
    let mut screen = at_the_results();
    typed_keys(&mut screen, &[Code::End]);
    let end = screen.scroll;
    assert!(end > 0);
    screen.handle(Input::Key(Key::plain(Code::Right)));
    let mut scrolled = (0, 0);
    let (rows, _) = drawn(60, 20, |frame| {
        scrolled = draw(frame, &screen, Look::default())
    });
    screen.drawn(scrolled.0, scrolled.1);
    assert!(scrolled.1 < end, "scrolled back to it");
    assert!(rows.iter().any(|r| r.contains("LATE +1")), "{rows:#?}");
    // Left from the first stays there; from none it is the last word.
    screen.handle(Input::Key(Key::plain(Code::Left)));
    assert_eq!(screen.chosen().as_deref(), Some("LATE"));
    let mut screen = at_the_results();
    screen.handle(Input::Key(Key::plain(Code::Left)));
    assert_eq!(screen.chosen().as_deref(), Some("MANGLE"));
    // d: what it means, over the screen, until the next key.
    typed(&mut screen, "d");
    let text = shown(&screen, 80, 24).0.join("\n");
    assert!(text.contains("┌ WordNet 3.1 "), "{text}");
    assert!(text.contains("│ MANGLE"), "{text}");
    assert!(text.contains("verb: "), "{text}");
    assert_eq!(
        typed(&mut screen, "\n"),
        vec![None],
        "the key only closes it"
    );
    assert!(screen.overlay.is_none() && !screen.ready);
    assert_eq!(typed(&mut screen, "\n"), vec![Some(ClientMsg::Ready)]);
}
