//! The full-screen game's state machine driven by inputs: words judged,
//! the clock, pause and help, the end screen and its moment without keys,
//! playing again, ties; the helpers the screen tests draw with.

#![expect(
    clippy::disallowed_types,
    reason = "the tests build rules from a preset; nothing here branches on one"
)]

use std::sync::Arc;

use super::*;
use boggle_game::dictionary::Dictionary;
use boggle_game::rules::Preset;

/// BENH / LAUM / ITLZ / RGAN under project4 (no-up) rules, with a tiny
/// dictionary (the screen tests draw the same game).
pub(crate) fn app(time: Option<u64>) -> App {
    let dictionary = Dictionary::from_words(["EAT", "LAB", "BEAU", "ALT", "ZZZ", "AT"]);
    let finder = WordFind::with_rules(Arc::new(dictionary), Rules::project4());
    let board = GameBoard::new("BENHLAUMITLZRGAN").expect("16 letters");
    App::new(finder, board, time.map(Duration::from_secs))
}

fn type_word(app: &mut App, word: &str) {
    word.chars().for_each(|c| app.handle(Input::Char(c)));
    app.handle(Input::Enter);
}

/// Lets the end screen's moment without keys pass.
pub(crate) fn settle(app: &mut App) {
    app.handle(Input::Tick(GRACE));
}

/// A key still being typed when the time runs out (an Enter, a `q`, an
/// `n`) is not taken by the end screen: it takes keys only after GRACE.
#[test]
fn late_keys_do_not_dismiss_the_end_screen() {
    let boards =
        BoardSource::new(|_rules: &Rules| GameBoard::new("EATXXXXXXXXXXXXX").expect("16 letters"));
    let mut app = app(Some(4)).with_boards(boards);
    "ro".chars().for_each(|c| app.handle(Input::Char(c)));
    app.handle(Input::Tick(Duration::from_secs(4)));
    assert!(app.is_over());
    assert_eq!(app.typed(), "", "what was being typed is dropped");
    for late in [
        Input::Char('b'),
        Input::Enter,
        Input::Char('n'),
        Input::Char('q'),
        Input::Esc,
    ] {
        app.handle(late);
        assert!(
            app.is_over() && !app.should_quit(),
            "{late:?} taken too soon"
        );
    }
    assert!(!app.taking_keys());
    app.handle(Input::Tick(GRACE - Duration::from_millis(1)));
    app.handle(Input::Char('q'));
    assert!(!app.should_quit());
    app.handle(Input::Tick(Duration::from_millis(1)));
    assert!(app.taking_keys());
    app.handle(Input::Enter);
    assert_eq!(app.phase(), Phase::Playing, "now Enter deals a new board");
    assert!(app.taking_keys());
    // Ctrl-C quits at once, whatever the moment.
    app.handle(Input::Finish);
    app.handle(Input::Quit);
    assert!(app.should_quit());
}

/// Ties are broken as a player reads them: longer, then more points,
/// then the more common word (a lower commonness level), then A to Z.
#[test]
fn ties_go_to_the_longer_then_the_more_common_word() {
    // SCOWL levels as the player list writes them: "WORD<tab>LEVEL".
    let dictionary = Dictionary::from_words(["HOB\t60", "ROB\t10", "DIKERS\t80", "SHORED\t35"]);
    let finder = WordFind::with_rules(Arc::new(dictionary), Rules::preset(Preset::Classic));
    let app = App::new(
        finder,
        GameBoard::new("ROBHXXXXXXXXXXXX").expect("16 letters"),
        None,
    );
    let pick = |words: &[&'static str]| longest_and_best(app.game(), words.iter().copied());
    assert_eq!(
        pick(&["HOB", "ROB"]),
        Some(("ROB", "ROB")),
        "common ROB over HOB"
    );
    assert_eq!(pick(&["DIKERS", "SHORED"]), Some(("SHORED", "SHORED")));
    assert_eq!(
        pick(&["ROB", "SHORED"]),
        Some(("SHORED", "SHORED")),
        "longer first"
    );
}

/// While the screen is too small to show the board the clock stops.
#[test]
fn the_clock_stops_while_the_board_cannot_be_shown() {
    let mut app = app(Some(10));
    app.set_board_fits(false);
    app.handle(Input::Tick(Duration::from_secs(30)));
    assert_eq!(app.remaining(), Some(Duration::from_secs(10)));
    assert!(app.too_small());
    app.set_board_fits(true);
    app.handle(Input::Tick(Duration::from_secs(3)));
    assert_eq!(app.remaining(), Some(Duration::from_secs(7)));
}

#[test]
fn accepted_words_score_and_count() {
    let mut app = app(None);
    assert_eq!(app.words().len(), 3, "{:?}", app.words());
    type_word(&mut app, "eat");
    assert_eq!(app.status(), "EAT: 1 point");
    type_word(&mut app, "beau");
    assert_eq!(app.status(), "BEAU: 1 point");
    assert_eq!(app.score_line(), "2 words, 2 of 3 points");
    assert_eq!(app.typed(), "");
}

#[test]
fn every_rejection_says_why() {
    let mut app = app(None);
    let cases = [
        ("at", "AT: too short (at least 3 letters)"),
        ("tea", "TEA: not in the dictionary"),
        ("lab", "LAB: not allowed by the no-up rule"),
        ("zzz", "ZZZ: not on the board"),
    ];
    for (word, status) in cases {
        type_word(&mut app, word);
        assert_eq!(app.status(), status);
        assert!(app.rejected());
    }
    type_word(&mut app, "eat");
    type_word(&mut app, "EAT");
    assert_eq!(app.status(), "EAT: already found");
    assert_eq!(app.score(), 1);
}

#[test]
fn editing_keys() {
    let mut app = app(None);
    for input in [Input::Char('e'), Input::Char('1'), Input::Char('x')] {
        app.handle(input);
    }
    assert_eq!(app.typed(), "EX");
    app.handle(Input::Backspace);
    assert_eq!(app.typed(), "E");
    app.handle(Input::Esc);
    assert_eq!(app.typed(), "");
    app.handle(Input::Enter);
    assert_eq!(
        app.status(),
        "3+ letters, never going up a row, Q is plain",
        "a new player reads the surprising rules first"
    );
}

#[test]
fn the_typed_path_is_traced() {
    let mut app = app(None);
    "ea".chars().for_each(|c| app.handle(Input::Char(c)));
    assert_eq!(app.highlight(), vec![1, 5]);
    app.handle(Input::Char('z'));
    assert_eq!(app.highlight(), Vec::<usize>::new());
}

#[test]
fn time_runs_out_into_the_end_screen() {
    let mut app = app(Some(3));
    type_word(&mut app, "eat");
    app.handle(Input::Char('n'));
    app.handle(Input::Tick(Duration::from_millis(2500)));
    assert_eq!(app.remaining(), Some(Duration::from_millis(500)));
    assert_eq!(app.phase(), Phase::Playing);
    app.handle(Input::Tick(Duration::from_secs(1)));
    assert_eq!(app.phase(), Phase::Over { selected: 0 });
    assert_eq!(app.remaining(), Some(Duration::ZERO));
    assert_eq!(app.status(), "Time's up: 1 word, 1 of 3 points");
    assert_eq!(app.typed(), "");
}

#[test]
fn untimed_games_end_on_finish() {
    let mut app = app(None);
    app.handle(Input::Tick(Duration::from_secs(999)));
    assert_eq!(app.phase(), Phase::Playing);
    app.handle(Input::Finish);
    assert!(app.is_over());
}

#[test]
fn pause_stops_the_clock() {
    let mut app = app(Some(10));
    app.handle(Input::Pause);
    assert_eq!(app.phase(), Phase::Paused);
    app.handle(Input::Char('e'));
    app.handle(Input::Tick(Duration::from_secs(60)));
    assert_eq!(app.remaining(), Some(Duration::from_secs(10)));
    assert_eq!(app.typed(), "");
    app.handle(Input::Pause);
    assert_eq!(app.phase(), Phase::Playing);
}

#[test]
fn help_stops_the_clock_and_returns_where_it_was() {
    let mut app = app(Some(10));
    app.handle(Input::Help);
    assert_eq!(app.phase(), Phase::Help);
    assert_eq!(app.screen(), Phase::Playing);
    app.handle(Input::Tick(Duration::from_secs(60)));
    assert_eq!(app.remaining(), Some(Duration::from_secs(10)));
    app.handle(Input::Char('x'));
    assert_eq!(app.phase(), Phase::Playing);
    assert_eq!(app.typed(), "", "the key that closes help is not typed");
    app.handle(Input::Pause);
    app.handle(Input::Help);
    app.handle(Input::Esc);
    assert_eq!(app.phase(), Phase::Paused);
}

#[test]
fn the_end_screen_browses_found_then_missed_words() {
    let mut app = app(Some(1));
    type_word(&mut app, "alt");
    app.handle(Input::Tick(Duration::from_secs(1)));
    let words: Vec<(String, u32, bool)> = app
        .end_words()
        .into_iter()
        .map(|w| (w.word, w.points, w.found))
        .collect();
    // The player's own first, then the missed ones (a
    // long list of those used to push the player's out of sight).
    let expected = [("ALT", 1, true), ("BEAU", 1, false), ("EAT", 1, false)];
    let expected: Vec<(String, u32, bool)> = expected
        .into_iter()
        .map(|(w, p, f)| (w.to_string(), p, f))
        .collect();
    assert_eq!(words, expected);
    assert_eq!(app.highlight(), vec![5, 4, 9]);
    settle(&mut app);
    app.handle(Input::Up);
    assert_eq!(app.phase(), Phase::Over { selected: 0 });
    app.handle(Input::Down);
    app.handle(Input::Down);
    app.handle(Input::Down);
    assert_eq!(app.phase(), Phase::Over { selected: 2 });
    assert_eq!(app.highlight(), vec![1, 5, 9]);
    app.handle(Input::Char('e'));
    assert!(!app.should_quit());
    app.handle(Input::Char('q'));
    assert!(app.should_quit());
}

/// A game on a rich board: the course list, 8-neighbour moves.
pub(crate) fn rich_app() -> App {
    let finder = WordFind::with_rules(Dictionary::shared_default(), Rules::preset(Preset::Classic));
    let board = GameBoard::new("SERSPATGLINESERS").expect("16 letters");
    App::new(finder, board, Some(Duration::from_secs(60)))
}

#[test]
fn paging_keys_move_through_the_end_screen() {
    let mut app = rich_app();
    let n = app.end_words().len();
    assert!(n > 20, "{n} words");
    app.set_page(8);
    // While playing they do nothing.
    app.handle(Input::PageDown);
    assert_eq!(app.phase(), Phase::Playing);
    app.handle(Input::Finish);
    settle(&mut app);
    let steps = [
        (Input::PageDown, 8),
        (Input::PageDown, 16),
        (Input::PageUp, 8),
        (Input::End, n - 1),
        (Input::PageDown, n - 1),
        (Input::PageUp, n - 9),
        (Input::Home, 0),
        (Input::PageUp, 0),
    ];
    for (input, selected) in steps {
        app.handle(input);
        assert_eq!(app.phase(), Phase::Over { selected }, "{input:?}");
    }
}

#[test]
fn the_board_hides_whenever_the_clock_stops() {
    let mut app = app(Some(10));
    assert!(!app.board_hidden());
    app.handle(Input::Help);
    assert!(app.board_hidden(), "help over the game stops the clock");
    app.handle(Input::Esc);
    assert!(!app.board_hidden());
    app.handle(Input::Pause);
    assert!(app.board_hidden());
    app.handle(Input::Help);
    assert!(app.board_hidden(), "help over the paused screen");
    app.handle(Input::Esc);
    app.handle(Input::Finish);
    assert!(!app.board_hidden(), "the end screen shows paths");
    app.handle(Input::Help);
    assert!(!app.board_hidden(), "the turn is over: nothing to hide");
}

#[test]
fn yours_and_the_boards_longest_and_best_are_told_apart() {
    let mut app = app(None);
    assert_eq!(app.your_longest_and_best(), None);
    type_word(&mut app, "eat");
    assert_eq!(app.your_longest_and_best(), Some(("EAT", "EAT")));
    // The board's: BEAU, missed, and a tie for best goes to the longer word.
    assert_eq!(app.longest_and_best(), Some(("BEAU", "BEAU")));
    type_word(&mut app, "alt");
    // ALT and EAT tie on length and points: the alphabetical first.
    assert_eq!(app.your_longest_and_best(), Some(("ALT", "ALT")));
    type_word(&mut app, "beau");
    assert_eq!(app.your_longest_and_best(), Some(("BEAU", "BEAU")));
    // The case: AKE and LAKE are both worth 1; the player's LAKE is best.
    let picked = longest_and_best(app.game(), ["AKE", "LAKE"].into_iter());
    assert_eq!(picked, Some(("LAKE", "LAKE")), "LAKE, not AKE");
}

#[test]
fn play_again_deals_a_new_board_and_keeps_the_session() {
    let boards =
        BoardSource::new(|_rules: &Rules| GameBoard::new("EATXXXXXXXXXXXXX").expect("16 letters"));
    let mut app = app(Some(5)).with_boards(boards);
    assert!(app.can_play_again());
    type_word(&mut app, "eat");
    type_word(&mut app, "beau");
    app.handle(Input::Tick(Duration::from_secs(2)));
    app.handle(Input::Finish);
    app.set_record_note("1 game here, best 2".to_string());
    settle(&mut app);
    assert_eq!(
        app.session(),
        Session {
            games: 1,
            total: 2,
            best: 2
        }
    );
    app.handle(Input::Enter);
    assert_eq!(app.phase(), Phase::Playing);
    assert_eq!(app.board().faces().len(), 16);
    assert_eq!(app.words().iter().collect::<Vec<_>>(), ["EAT"]);
    assert_eq!(app.remaining(), Some(Duration::from_secs(5)), "a full turn");
    assert_eq!(app.score_line(), "0 words, 0 of 1 points");
    assert_eq!(app.record_note(), None, "the next game's record is its own");
    assert_eq!(
        app.status(),
        "New board; Type a word and press Enter; ? for help"
    );
    app.handle(Input::Tick(Duration::from_secs(5)));
    assert!(app.is_over());
    assert_eq!(
        app.session(),
        Session {
            games: 2,
            total: 2,
            best: 2
        }
    );
    assert_eq!(app.session().average(), "1.0");
    settle(&mut app);
    app.handle(Input::Char('n'));
    type_word(&mut app, "eat");
    app.handle(Input::Finish);
    assert_eq!(
        app.session(),
        Session {
            games: 3,
            total: 3,
            best: 2
        }
    );
    assert_eq!(app.session().average(), "1.0");
}

#[test]
fn without_a_board_source_the_end_screen_stays() {
    let mut app = app(None);
    app.handle(Input::Finish);
    assert!(!app.can_play_again());
    app.handle(Input::Enter);
    app.handle(Input::Char('n'));
    assert_eq!(app.phase(), Phase::Over { selected: 0 });
}

#[test]
fn session_averages_round_to_a_tenth() {
    let session = |games, total| Session {
        games,
        total,
        best: 0,
    };
    assert_eq!(session(0, 0).average(), "0.0");
    assert_eq!(session(3, 10).average(), "3.3");
    assert_eq!(session(3, 11).average(), "3.7");
    assert_eq!(session(2, 5).average(), "2.5");
    assert_eq!(session(40, 1).average(), "0.0");
    assert_eq!(session(20, 1).average(), "0.1");
}

#[test]
fn quit_leaves_from_any_phase() {
    for before in [
        None,
        Some(Input::Pause),
        Some(Input::Help),
        Some(Input::Finish),
    ] {
        let mut app = app(Some(5));
        if let Some(input) = before {
            app.handle(input);
        }
        app.handle(Input::Quit);
        assert!(app.should_quit(), "{before:?}");
    }
}

#[test]
fn longest_best_and_share() {
    let mut app = app(None);
    assert_eq!(app.longest_and_best(), Some(("BEAU", "BEAU")));
    type_word(&mut app, "eat");
    assert_eq!(app.percent(), 33);
    assert_eq!(app.versus_line(), None);
}

#[test]
fn against_the_computer_it_takes_the_missed_words() {
    let dictionary = Dictionary::from_words(["EAT", "BEAU", "ALT", "BEAN"]);
    let rules = Rules::preset(Preset::Cs106b);
    let finder = WordFind::with_rules(Arc::new(dictionary), rules);
    let board = GameBoard::new("BENHLAUMITLZRGAN").expect("16 letters");
    let mut app = App::new(finder, board, None);
    type_word(&mut app, "beau");
    assert_eq!(app.status(), "BEAU: 1 point");
    assert!(!app.rejected());
    assert_eq!(
        app.versus_line().as_deref(),
        Some("Computer: 1 word, 1 point; you win")
    );
}

#[test]
fn missed_words_read_common_first_and_the_computer_keeps_to_its_level() {
    // BEAN (10), BEAU (50), NEAT (no level: rare) on the spec board under cs106b.
    let dictionary = Dictionary::parse(b"BEAU\t50\nBEAN\t10\nNEAT\n");
    let finder = WordFind::with_rules(Arc::new(dictionary), Rules::preset(Preset::Cs106b));
    let board = GameBoard::new("BENHLAUMITLZRGAN").expect("16 letters");
    let app = App::new(finder, board, None);
    let missed: Vec<(String, bool)> = app
        .end_words()
        .into_iter()
        .map(|w| (w.word, w.rare))
        .collect();
    let expected = [("BEAN", false), ("BEAU", false), ("NEAT", true)];
    assert_eq!(missed, expected.map(|(w, rare)| (w.to_string(), rare)));
    let easy = app.clone().with_level(Level::Easy);
    assert_eq!(
        easy.versus_line().as_deref(),
        Some("Computer: 1 word, 1 point; the computer wins")
    );
    assert_eq!(
        app.versus_line().as_deref(),
        Some("Computer: 3 words, 3 points; the computer wins")
    );
}

/// Space plays the word, as in BSD boggle; Clear (Ctrl-U,
/// Ctrl-W) drops what was typed.
#[test]
fn space_plays_the_word_and_clear_drops_it() {
    let mut app = app(None);
    "eat ".chars().for_each(|c| app.handle(Input::Char(c)));
    assert_eq!(app.found(), [("EAT", 1)]);
    assert_eq!(app.typed(), "");
    "lab".chars().for_each(|c| app.handle(Input::Char(c)));
    app.handle(Input::Clear);
    assert_eq!(app.typed(), "");
    assert_eq!(app.found().len(), 1);
}
