//! Snapshots of the full-screen game on ratatui's `TestBackend`, at 80x24
//! and 60x20 among others; [`drawn`] serves the network
//! screen's tests too.

use std::sync::Arc;

use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::board::face_text;
use super::words::wrap;
use super::*;
use crate::tui::app::Input;
use boggle_game::dictionary::Dictionary;
use boggle_game::face::Face;
use boggle_game::game_board::GameBoard;
use boggle_game::rules::Rules;
use boggle_game::word_find::WordFind;

use crate::tui::app::BoardSource;
use crate::tui::app::tests::{app, rich_app, settle};

fn send(app: &mut App, keys: &str) {
    for c in keys.chars() {
        app.handle(match c {
            '\n' => Input::Enter,
            c => Input::Char(c),
        });
    }
}

/// The screen as rows of text, trailing spaces trimmed, and the cells drawn reversed.
fn screen(app: &App, width: u16, height: u16) -> (Vec<String>, Vec<(u16, u16)>) {
    drawn(width, height, |frame| render(frame, app, Look::default()))
}

/// What `draw` puts on a `width` x `height` screen, as [`screen`] gives
/// it; the network game's screen is tested with it too.
pub(crate) fn drawn(
    width: u16,
    height: u16,
    draw: impl FnOnce(&mut Frame),
) -> (Vec<String>, Vec<(u16, u16)>) {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test backend");
    terminal.draw(draw).expect("draws");
    let buffer = terminal.backend().buffer();
    let rows = (0..height)
        .map(|y| {
            let row: String = (0..width).map(|x| buffer[(x, y)].symbol()).collect();
            row.trim_end().to_string()
        })
        .collect();
    let reversed = (0..height)
        .flat_map(|y| (0..width).map(move |x| (x, y)))
        .filter(|&(x, y)| buffer[(x, y)].modifier.contains(Modifier::REVERSED))
        .collect();
    (rows, reversed)
}

#[test]
fn playing_at_80x24() {
    let mut app = app(Some(180));
    send(&mut app, "eat\nlab\nbea");
    app.handle(Input::Tick(Duration::from_millis(2500)));
    let (rows, reversed) = screen(&app, 80, 24);
    // The board is centred in the left half (6 columns either side), the
    // words in the right half.
    insta::assert_snapshot!(rows.join("\n"));
    // B, E and A (cells 0, 1, 5) are drawn in reverse video, all 7x3 of each.
    assert_eq!(reversed.len(), 3 * 21);
    for (x, y) in [(6, 5), (13, 6), (19, 10)] {
        assert!(reversed.contains(&(x, y)), "({x}, {y})");
    }
    assert!(!reversed.contains(&(20, 6)));
}

#[test]
fn playing_at_60x20_keeps_the_path_numbers_and_every_key() {
    let mut app = app(Some(180));
    send(&mut app, "eat\nlab\nbea");
    let (rows, reversed) = screen(&app, 60, 20);
    insta::assert_snapshot!(rows.join("\n"));
    assert_eq!(reversed.len(), 3 * 15, "three 5x3 cells");
}

#[test]
fn found_words_that_overflow_say_how_many_are_hidden() {
    let mut app = rich_app();
    let words: Vec<String> = app.words().iter().take(50).cloned().collect();
    for word in &words {
        send(&mut app, &format!("{word}\n"));
    }
    let (rows, _) = screen(&app, 60, 20);
    insta::assert_snapshot!(rows[1..17].join("\n"));
    // The newest word stays in view; the 26 before the shown columns are counted.
    assert_eq!(words[26], "ANT");
    assert_eq!(words[49], "ATE");
}

#[test]
fn paused_hides_the_board() {
    let mut app = app(Some(180));
    app.handle(Input::Pause);
    let (rows, _) = screen(&app, 80, 24);
    assert!(rows.iter().all(|r| !r.contains('┌')), "{rows:#?}");
    assert_eq!(rows[11], "           Paused: Tab resumes");
    let (rows, _) = screen(&app, 60, 20);
    assert!(rows.iter().all(|r| !r.contains('┌')), "{rows:#?}");
    assert_eq!(rows[9], "    Paused: Tab resumes");
}

#[test]
fn help_over_the_game_hides_the_board() {
    let mut app = app(Some(180));
    let (rows, _) = screen(&app, 80, 24);
    assert_eq!(rows[6], "      │  B  ││  E  ││  N  ││  H  │");
    app.handle(Input::Help);
    // The help box starts at column 10; the board's first column (at 6) was
    // left showing beside it while the clock stood still.
    let (rows, _) = screen(&app, 80, 24);
    for (y, row) in rows.iter().enumerate().take(21).skip(2) {
        let left: String = row.chars().take(10).collect();
        assert_eq!(left.trim(), "", "row {y}: {row}");
    }
    assert_eq!(
        rows[6],
        "          │ Enter submits, Backspace deletes, Esc clears.            │"
    );
    let (rows, _) = screen(&app, 60, 20);
    for face in ["B", "E", "L", "A", "I", "R"] {
        let cell = format!("│ {face} │");
        assert!(rows.iter().all(|r| !r.contains(&cell)), "{rows:#?}");
    }
    assert_eq!(
        rows[2],
        "┌ Help ────────────────────────────────────────────────────┐"
    );
}

#[test]
fn help_overlay_shows_keys_and_rules() {
    let mut app = app(None);
    app.handle(Input::Help);
    let (rows, _) = screen(&app, 80, 24);
    let text = rows.join("\n");
    for line in [
        "│ Moves: to a neighbour in the same row or below, never up │",
        "│ Points: 3:1 4:1 5:2 6:3 7:4 8+:11",
        "│ Q: a plain Q",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
    assert_eq!(
        rows[0],
        " Boggle  project4 4x4  untimed                                           ? help"
    );
}

#[test]
fn the_end_screen_lists_the_players_words_first_and_shows_the_selected_path() {
    let mut app = app(Some(1));
    send(&mut app, "alt\n");
    app.handle(Input::Tick(Duration::from_secs(1)));
    settle(&mut app);
    app.set_record_note("Games 3, best 7".to_string());
    app.handle(Input::Down);
    let (rows, reversed) = screen(&app, 80, 24);
    insta::assert_snapshot!(rows.join("\n"));
    // The player's ALT first, then the missed words.
    // BEAU's cells (0, 1, 5, 6) and its list entry, "-BEAU  1", are reversed.
    assert_eq!(reversed.len(), 4 * 21 + 8);
    let (rows, reversed) = screen(&app, 60, 20);
    insta::assert_snapshot!(rows.join("\n"));
    assert_eq!(reversed.len(), 4 * 15 + 8);
}

/// A rich board played twice: LINES and SEAT, then LINES and SAPIENTES.
fn second_game() -> App {
    let again =
        BoardSource::new(|_: &Rules| GameBoard::new("SERSPATGLINESERS").expect("16 letters"));
    let mut app = rich_app().with_boards(again);
    send(&mut app, "lines\nseat\n");
    app.handle(Input::Finish);
    settle(&mut app);
    app.handle(Input::Enter);
    send(&mut app, "lines\nsapientes\n");
    app.handle(Input::Finish);
    settle(&mut app);
    app.set_record_note("2 games here, best 13 (new best)".to_string());
    app
}

#[test]
fn a_long_end_screen_at_80x24_pages_and_says_what_is_hidden() {
    let mut app = second_game();
    let (rows, _) = screen(&app, 80, 24);
    insta::assert_snapshot!(rows[1..].join("\n"));
    let page = page_size(&app, Rect::new(0, 0, 80, 24));
    assert_eq!(
        page, 26,
        "two columns of 8 beside the board, five of 2 below it"
    );
    app.set_page(page);
    app.handle(Input::PageDown);
    let (rows, _) = screen(&app, 80, 24);
    insta::assert_snapshot!(rows[9..21].join("\n"));
    app.handle(Input::End);
    let (rows, _) = screen(&app, 80, 24);
    insta::assert_snapshot!(rows[9..21].join("\n"));
}

#[test]
fn a_long_end_screen_at_60x20_pages_and_says_what_is_hidden() {
    let mut app = second_game();
    let (rows, _) = screen(&app, 60, 20);
    insta::assert_snapshot!(rows[1..].join("\n"));
    assert_eq!(page_size(&app, Rect::new(0, 0, 60, 20)), 14);
    app.handle(Input::End);
    let (rows, _) = screen(&app, 60, 20);
    insta::assert_snapshot!(rows[9..17].join("\n"));
}

#[test]
fn the_computers_turn_wraps_at_60_columns() {
    let dictionary = Dictionary::from_words(["EAT", "BEAU", "ALT", "BEAN"]);
    let rules = Rules::preset(boggle_game::rules::Preset::Cs106b);
    let finder = WordFind::with_rules(Arc::new(dictionary), rules);
    let board = GameBoard::new("BENHLAUMITLZRGAN").expect("16 letters");
    let mut app = App::new(finder, board, None);
    app.handle(Input::Finish);
    settle(&mut app);
    app.set_record_note("Not recorded: see the message after the game".to_string());
    let (rows, _) = screen(&app, 60, 20);
    let panel: Vec<String> = rows[1..13]
        .iter()
        .map(|r| r.chars().skip(26).collect())
        .collect();
    insta::assert_snapshot!(panel.join("\n"));
    assert_eq!(wrap("a bb ccc", 4), ["a bb", "  ccc"]);
    assert_eq!(wrap("abcdefgh ij", 4), ["abcdefgh", "  ij"]);
    assert_eq!(wrap("", 4), [""]);
}

#[test]
fn small_terminals_get_small_cells_then_a_message() {
    let mut app = app(None);
    send(&mut app, "bea");
    let (rows, _) = screen(&app, 50, 12);
    insta::assert_snapshot!(rows.join("\n"));
    let (rows, _) = screen(&app, 40, 8);
    assert_eq!(rows[0], "terminal too small: need 50x10; the");
    assert_eq!(rows[1], "clock is stopped");
}

#[test]
fn a_6x6_board_with_qu_fits_80x24_in_large_cells() {
    let rules = Rules::sized(boggle_game::rules::Preset::Classic, 6, 6);
    let finder = WordFind::with_rules(Arc::new(Dictionary::from_words(["QUIT"])), rules);
    let letters = "QITABCDEFGHIJKLMNOPRSTUVWXYZABCDEFGH";
    let board = GameBoard::from_letters(letters, 6, 6, QReads::Qu).expect("36 cells");
    let mut app = App::new(finder, board, None);
    send(&mut app, "quit\nqu");
    let (rows, reversed) = screen(&app, 80, 24);
    insta::assert_snapshot!(rows[1..4].join("\n"));
    assert_eq!(reversed.len(), 21, "typing QU lights the Qu cell");
    assert_eq!(rows[19], "  └─────┘└─────┘└─────┘└─────┘└─────┘└─────┘");
}

#[test]
fn colour_is_added_to_the_reverse_video_never_instead_of_it() {
    let mut app = app(None);
    send(&mut app, "b");
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).expect("test backend");
    for colour in [false, true] {
        terminal
            .draw(|frame| render(frame, &app, Look { colour }))
            .expect("draws");
        let cell = &terminal.backend().buffer()[(9, 6)];
        assert_eq!(cell.symbol(), "B");
        assert!(cell.modifier.contains(Modifier::REVERSED));
        let fg = if colour { Color::Yellow } else { Color::Reset };
        assert_eq!(cell.fg, fg);
    }
}

#[test]
fn clocks_round_up() {
    assert_eq!(clock(Duration::from_secs(180)), "3:00");
    assert_eq!(clock(Duration::from_millis(59_001)), "1:00");
    assert_eq!(clock(Duration::ZERO), "0:00");
}

#[test]
fn qu_faces_show_in_their_cells() {
    assert_eq!(face_text(Face::QU), "Qu");
    assert_eq!(face_text(Face::BLANK), "");
    assert_eq!(face_text(Face::letter(b'a').expect("a letter")), "A");
}

/// A rare word's marker fits its entry and the legend explains it; the line
/// about words not shown never starts with the `+` of a found word.
#[test]
fn rare_words_are_marked_within_their_column_and_explained() {
    let words = [
        "EAT\t10", "BEAU\t80", "ALT\t95", "LAB\t10", "NAB\t10", "BEN\t90",
    ];
    let dictionary = Dictionary::from_words(words);
    let finder = WordFind::with_rules(Arc::new(dictionary), Rules::project4());
    let board = GameBoard::new("BENHLAUMITLZRGAN").expect("16 letters");
    let mut app = App::new(finder, board, None);
    send(&mut app, "eat\n");
    app.handle(Input::Finish);
    settle(&mut app);
    let (rows, _) = screen(&app, 80, 24);
    let text = rows.join("\n");
    assert!(text.contains("- missed  + found  * rare"), "{text}");
    assert!(text.contains("-BEAU  1*\n"), "{text}");
    assert!(text.contains("+EAT   1\n"), "{text}");
    // Squeezed into columns, each marker stays inside its own entry.
    let (rows, _) = screen(&app, 80, 14);
    let text = rows.join("\n");
    assert!(text.contains("+EAT   1   -ALT   1*"), "{text}");
}

/// A prefix with no path on the board says so instead of silently dropping its path.
#[test]
fn a_prefix_that_cannot_be_traced_says_so() {
    let mut app = app(None);
    send(&mut app, "bez");
    let (rows, reversed) = screen(&app, 80, 24);
    assert_eq!(rows[21], " > BEZ_   not on the board");
    assert!(reversed.is_empty(), "no path lit");
    send(&mut app, "\nbe");
    let (rows, _) = screen(&app, 80, 24);
    assert_eq!(rows[21], " > BE_");
}

/// The hint while typing and the verdict after Enter give
/// one reason (LAB is on the board only by going up, which project4 forbids).
#[test]
fn the_live_hint_and_the_verdict_agree() {
    let mut app = app(None);
    send(&mut app, "lab");
    let (rows, _) = screen(&app, 80, 24);
    assert_eq!(rows[21], " > LAB_   not allowed by the no-up rule");
    send(&mut app, "\n");
    let (rows, _) = screen(&app, 80, 24);
    assert_eq!(rows[22], " LAB: not allowed by the no-up rule");
}

/// Once the turn is over the board is not needed to read the results: on a
/// screen too small for it the end screen shows the summary and the words.
#[test]
fn the_end_screen_on_a_small_terminal_shows_the_words_without_the_board() {
    let mut app = app(None);
    send(&mut app, "eat\n");
    app.handle(Input::Finish);
    settle(&mut app);
    let (rows, _) = screen(&app, 40, 16);
    let text = rows.join("\n");
    assert!(!text.contains("too small"), "{text}");
    assert!(text.contains("1 word, 1 of 3 points (33%)"), "{text}");
    assert!(
        text.contains("-BEAU  1") && text.contains("+EAT   1"),
        "{text}"
    );
}

/// At 120x40 the board grows with the terminal (17x8
/// cells, the face in each cell's middle row), and the 80x24 screen keeps its
/// 7x3 cells.
#[test]
fn the_board_grows_with_a_large_terminal() {
    let app = app(None);
    let (rows, _) = screen(&app, 120, 40);
    let text = rows.join("\n");
    let top = rows
        .iter()
        .position(|row| row.contains("┌───────────────┐┌"))
        .unwrap_or_else(|| panic!("17x8 cells at 120x40:\n{text}"));
    assert!(
        rows[top + 3].contains("│       B       ││       E       │"),
        "{text}"
    );
    let (rows, _) = screen(&app, 80, 24);
    assert!(
        rows.iter().any(|row| row.contains("┌─────┐┌─────┐")),
        "{rows:#?}"
    );
}

/// A terminal of no size at all (a pty nobody sized) or of a row or two
/// draws at most the "too small" note and never panics, playing or over.
#[test]
fn a_terminal_of_no_size_draws_without_panicking() {
    let mut app = app(None);
    let sizes = [(0, 0), (80, 0), (0, 24), (1, 1), (10, 2), (80, 4)];
    let draw_all = |app: &App| {
        for (width, height) in sizes {
            let (rows, _) = drawn(width, height, |frame| {
                render(frame, app, Look::default());
                let _ = page_size(app, frame.area());
                let _ = board_fits(app, frame.area());
            });
            let text = rows.concat();
            // The note, as much of it as fits (one column shows its first letter).
            assert!(text.is_empty() || text.starts_with('t'), "{text}");
        }
    };
    draw_all(&app);
    app.handle(Input::Finish);
    settle(&mut app);
    draw_all(&app);
}

/// `d` on the end screen shows what the selected word means, as `boggle
/// define` prints it, over the results; the next key puts them back.
#[test]
fn d_on_the_end_screen_shows_what_the_selected_word_means() {
    let mut app = app(Some(1));
    send(&mut app, "eat\n");
    app.handle(Input::Tick(Duration::from_secs(1)));
    settle(&mut app);
    assert_eq!(app.end_words()[0].word, "EAT");
    app.handle(Input::Char('d'));
    let (rows, _) = screen(&app, 80, 24);
    let text = rows.join("\n");
    assert!(text.contains("┌ WordNet 3.1 "), "{text}");
    assert!(text.contains("│ EAT "), "{text}");
    assert!(text.contains("│   verb: take in solid food"), "{text}");
    // Long definitions wrap inside the box at 60 columns.
    let (rows, _) = screen(&app, 60, 20);
    assert!(rows.iter().all(|r| r.chars().count() <= 60), "{rows:#?}");
    // Any key closes it and does nothing else; then the keys work again.
    app.handle(Input::Char('q'));
    assert!(app.meaning().is_none() && !app.should_quit());
    app.handle(Input::Down);
    app.handle(Input::Char('d'));
    let second = app.end_words()[1].word.clone();
    let text = screen(&app, 80, 24).0.join("\n");
    assert!(text.contains(&format!("│ {second}")), "{second}: {text}");
}

/// `tui --daily`: the header names today's board's number and the end
/// screen its spoiler-free share line (a later board is not today's).
#[test]
fn todays_board_names_its_number_and_a_share_line() {
    let boards =
        BoardSource::new(|_rules: &Rules| GameBoard::new("EATXXXXXXXXXXXXX").expect("16 letters"));
    let mut app = app(Some(60)).with_daily(332).with_boards(boards);
    let (rows, _) = screen(&app, 80, 24);
    assert!(
        rows[0].starts_with(" Boggle  today's board #332  project4 4x4  1:00"),
        "{}",
        rows[0]
    );
    send(&mut app, "eat\nbeau\n");
    app.handle(Input::Finish);
    settle(&mut app);
    // The line wraps in the panel beside the board.
    let text: Vec<String> = screen(&app, 80, 24)
        .0
        .iter()
        .map(|row| row.trim().to_string())
        .collect();
    assert!(
        text.join(" ")
            .contains("Boggle #332: 2 points, 2 words, longest 4 letters"),
        "{text:#?}"
    );
    app.handle(Input::Enter);
    assert_eq!(app.daily(), None);
    assert!(!screen(&app, 80, 24).0[0].contains('#'));
}
