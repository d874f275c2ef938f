//! `boggle versus`: whole rounds over byte slices (so the board and the dice
//! are fixed), the end of input at every prompt, timed turns on a fake clock,
//! and what a terminal shows. The binary's own run is tests/it/versus.rs.

#![expect(
    clippy::disallowed_types,
    reason = "the tests build rules from a preset; nothing here branches on one"
)]

use std::sync::Arc;
use std::time::Duration;

use boggle_game::dictionary::Level;
use boggle_game::game::{Verdict, Winner};
use boggle_game::{Dictionary, Game, GameBoard, Preset, QReads, Rules, WordFind};

use crate::play::modes::versus::{self, COMPUTER_WINS, HUMAN_WINS, Highlight, Record, Settings};
use crate::play::player::keyboard::{FakeClock, Keyboard, Plain, Scripted, Timed};
use crate::play::testing::{assert_contains, assert_text};

const WORDS: &[&str] = &[
    "QUIT", "QUITE", "QUITS", "QIT", "RITE", "STIR", "NEST", "TEN", "TENS", "AIR", "ARTS",
    "STRAINED", "TRAINED", "TIRE",
];

fn finder() -> WordFind {
    WordFind::with_rules(
        Arc::new(Dictionary::from_words(WORDS)),
        Rules::preset(Preset::Cs106b),
    )
}

/// The board random rounds get: `QITEARSNSTRADENI` with Qu.
fn rolled() -> GameBoard {
    GameBoard::from_letters("QITEARSNSTRADENI", 4, 4, QReads::Qu).expect("16 cells")
}

fn play_with<K: Keyboard>(keys: &mut K, time: Option<Duration>) -> (String, Record) {
    let finder = finder();
    let settings = Settings {
        finder: &finder,
        highlight: Highlight::LowerCase,
        time,
        level: Level::Perfect,
        terminal: false,
        intro: true,
        height: None,
        board: None,
        width: 80,
    };
    let mut out = Vec::new();
    let record =
        versus::play(keys, &mut out, &settings, || Ok(rolled())).expect("writes to a Vec succeed");
    (String::from_utf8_lossy(&out).into_owned(), record)
}

fn play(script: &str) -> (String, Record) {
    play_with(&mut Plain::new(script.as_bytes()), None)
}

const TYPE: &str = "Do you want to type the board yourself? (y/n) ";
const LETTERS: &str =
    "Type the 16 letters of the 4x4 board, row by row (Q or Qu for the Qu face): ";
const WORD: &str = "Type a word (or press Enter to end your turn): ";
const AGAIN: &str = "Play again? (y/n) ";

#[test]
fn a_whole_round_on_a_typed_board() {
    let script = "maybe\ny\nQIT\nQITEARSNSTRADEN1\nqitearsnstradeni\n\
                  ten\nairs\ntire\nquits\nQuits\ntrained\n\nn\n";
    let (out, record) = play(script);
    let expected = format!(
        "{TYPE}Please answer y or n.\n\
         {TYPE}{LETTERS}That is not a board: it has 3 letters (Q or QU counting as one), and the board needs exactly 16. Try again.\n\
         {LETTERS}That is not a board: \"1\" is not a letter from A to Z. Try again.\n\
         {LETTERS}It's your turn!\n\
         Qu I  T  E\nA  R  S  N\nS  T  R  A\nD  E  N  I\n\
         Your words (0):\nYour score: 0\n\
         {WORD}TEN is too short: words need at least 4 letters.\n\
         {WORD}AIRS is not in the dictionary.\n\
         {WORD}TIRE is not on the board.\n\
         {WORD}You found QUITS: 2 points.\n\
         qu i  t  E\nA  R  s  N\nS  T  R  A\nD  E  N  I\n\
         Your words (1): QUITS\nYour score: 2\n\
         {WORD}QUITS was already found.\n\
         {WORD}You found TRAINED: 5 points.\n\
         Qu I  T  E\nA  R  S  N\nS  t  r  a\nd  e  n  i\n\
         Your words (2): QUITS, TRAINED\nYour score: 7\n\
         {WORD}It's my turn!\n\
         My words (8):\n\
         \x20 ARTS      1   QUIT      1   RITE      1   STRAINED 11\n\
         \x20 NEST      1   QUITE     2   STIR      1   TENS      1\n\
         My score: 19\nYour score: 7\n{COMPUTER_WINS}\n\
         {AGAIN}You won 0 of 1 round. Thanks for playing!\n"
    );
    assert_text(&out, &expected);
    assert_eq!(
        record,
        Record {
            rounds: 1,
            human_wins: 0
        }
    );
}

#[test]
fn a_tie_goes_to_the_human_and_scores_reset_each_round() {
    // The board holds 26 points; STRAINED and QUITE are 13 of them.
    let script = "n\nstrained\nquite\n\nyes\nN\n\nno\n";
    let (out, record) = play(script);
    assert_contains(
        &out,
        &format!("My score: 13\nYour score: 13\n{HUMAN_WINS}\n"),
    );
    assert_contains(
        &out,
        &format!("My score: 26\nYour score: 0\n{COMPUTER_WINS}\n"),
    );
    assert!(out.ends_with("You won 1 of 2 rounds. Thanks for playing!\n"));
    assert_eq!(
        record,
        Record {
            rounds: 2,
            human_wins: 1
        }
    );
}

#[test]
fn verdicts_follow_the_rules_in_order() {
    let finder = finder();
    let mut round = Game::from_board(rolled(), &finder);
    assert_eq!(round.play_word("qit"), Verdict::TooShort { min: 4 });
    assert_eq!(round.play_word("ZZZZ"), Verdict::NotInDictionary);
    assert_eq!(round.play_word("tire"), Verdict::NotOnBoard);
    assert_eq!(
        round.play_word("Quit"),
        Verdict::Accepted {
            points: 1,
            path: vec![0, 1, 2]
        }
    );
    assert_eq!(round.play_word("QUIT"), Verdict::AlreadyFound);
    let level = Level::Perfect;
    assert_eq!((round.get_score(), round.computer_score(level)), (1, 25));
    assert_eq!(round.winner(level), Winner::Computer);
}

#[test]
fn the_end_of_input_at_every_prompt_ends_cleanly() {
    let lines = [
        "x",
        "y",
        "QIT",
        "qitearsnstradeni",
        "quits",
        "zzzz",
        "",
        "maybe",
        "y",
        "n",
        "tens",
        "",
        "n",
    ];
    for cut in 0..=lines.len() {
        let script: String = lines[..cut].iter().map(|l| format!("{l}\n")).collect();
        let (out, record) = play(&script);
        assert!(out.ends_with('\n'), "cut {cut}: {out}");
        let rounds = out.matches("It's your turn!").count();
        assert_eq!(record.rounds as usize, rounds, "cut {cut}: {out}");
        assert_eq!(
            out.matches("It's my turn!").count(),
            rounds,
            "cut {cut}: {out}"
        );
        if rounds > 0 {
            assert!(out.ends_with(" Thanks for playing!\n"), "cut {cut}: {out}");
        } else {
            assert!(
                out.ends_with("? (y/n) \n") || out.ends_with("Qu face): \n"),
                "cut {cut}: {out}"
            );
        }
    }
    assert_eq!(play("").0, format!("{TYPE}\n"));
    assert_eq!(play("y\n").0, format!("{TYPE}{LETTERS}\n"));
    let (out, _) = play("n\nquits");
    assert!(
        out.contains(&format!("{WORD}You found QUITS: 2 points.\n")),
        "a last line without a newline still counts: {out}"
    );
    assert_contains(&out, &format!("Your score: 2\n{WORD}\nIt's my turn!\n"));
    assert!(out.ends_with(&format!(
        "{AGAIN}\nYou won 0 of 1 round. Thanks for playing!\n"
    )));
}

#[test]
fn a_timed_turn_ends_when_the_time_runs_out() {
    let clock = FakeClock::default();
    let lines = [(1, "n"), (5, "quits"), (40, "trained"), (1, "n")];
    let mut keys = Timed::new(Scripted::new(clock.clone(), lines), clock.clone());
    let (out, record) = play_with(&mut keys, Some(Duration::from_secs(30)));
    assert_contains(&out, &format!("[30s left] {WORD}You found QUITS"));
    assert_contains(
        &out,
        &format!("[25s left] {WORD}\nTime's up!\nIt's my turn!\n"),
    );
    // The line being typed when the time ran out is thrown away: it does not
    // answer the next prompt.
    assert_contains(&out, &format!("{COMPUTER_WINS}\n{AGAIN}You won"));
    assert_eq!(record.rounds, 1);
    assert_eq!(clock.elapsed(), Duration::from_secs(1 + 5 + 25 + 1));
}

/// A match played with `script` at a terminal (with the introduction or not).
fn at_a_terminal(script: &[u8], intro: bool) -> String {
    at_a_terminal_of_width(script, intro, 80)
}

/// A match played with `script` at a terminal `width` columns wide.
fn at_a_terminal_of_width(script: &[u8], intro: bool, width: usize) -> String {
    at_a_terminal_of_size(script, intro, width, None)
}

/// A match played with `script` at a terminal of `width` columns and `height` rows.
fn at_a_terminal_of_size(
    script: &[u8],
    intro: bool,
    width: usize,
    height: Option<usize>,
) -> String {
    let finder = finder();
    let settings = Settings {
        finder: &finder,
        highlight: Highlight::Reverse,
        time: None,
        level: Level::Perfect,
        terminal: true,
        intro,
        board: None,
        width,
        height,
    };
    let mut out = Vec::new();
    versus::play(
        &mut Plain::new(script),
        &mut out,
        &settings,
        || Ok(rolled()),
    )
    .expect("writes to a Vec succeed");
    String::from_utf8_lossy(&out).into_owned()
}

#[test]
fn at_a_terminal_the_rules_come_first_and_the_screen_clears_between_words() {
    let out = at_a_terminal(b"n\nten\nquit\n\nn\n", true);
    assert!(
        out.starts_with(
            "Welcome to Boggle! You play a 4x4 board against the computer.\n\
             Spell words by moving from cube to cube to any of its 8 neighbours, \
             using each cube once per word.\nWords need at least 4 letters"
        ),
        "{out}"
    );
    let clear = "\x1b[H\x1b[2J";
    assert_contains(&out, &format!("{clear}TEN is too short"));
    assert_contains(&out, &format!("{clear}You found QUIT: 1 point.\n"));
}

#[test]
fn the_introduction_can_be_skipped() {
    let out = at_a_terminal(b"\nn\n", false);
    assert!(!out.contains("Welcome"), "{out}");
    // Without the introduction the board is rolled at once.
    assert!(out.starts_with("It's your turn!\n"), "{out}");
    assert!(!out.contains(TYPE), "{out}");
}

/// On a small terminal (60x20 with a real dictionary;
/// 30x14 with this one's ten words) the computer's list is cut to the rows
/// left below the board and the headers, which stay on the screen.
#[test]
fn on_a_small_terminal_the_computers_list_leaves_the_board_on_the_screen() {
    let out = at_a_terminal_of_size(b"\nn\n", false, 30, Some(14));
    let clear = "\x1b[H\x1b[2J";
    let last_screen = out.rsplit(clear).next().unwrap_or_default();
    let board = versus::render(&rolled(), &[], Highlight::Reverse);
    assert!(last_screen.starts_with(&board), "{last_screen}");
    assert!(last_screen.contains("\nMy words ("), "{last_screen}");
    assert!(last_screen.contains(" more\n"), "cut short: {last_screen}");
    // The prompt is written last, without a newline, on the 20th row at most.
    let rows = last_screen.lines().count();
    assert!(rows <= 14, "{rows} rows:\n{last_screen}");
}

#[test]
fn at_a_terminal_the_board_is_drawn_again_after_a_rejected_word() {
    let out = at_a_terminal(b"xyzzy\n\nn\n", false);
    let clear = "\x1b[H\x1b[2J";
    let after_answer = out
        .split(clear)
        .find(|screen| screen.starts_with("XYZZY"))
        .unwrap_or_default();
    let board = versus::render(&rolled(), &[], Highlight::Reverse);
    assert!(
        after_answer.starts_with(&format!(
            "XYZZY is not in the dictionary.\n{board}Your words (0):\nYour score: 0\n"
        )),
        "{after_answer}"
    );
}

#[test]
fn the_computers_words_fit_the_terminal_width() {
    let rows = |width: usize| {
        let out = at_a_terminal_of_width(b"\nn\n", false, width);
        let listed: Vec<String> = out
            .lines()
            .skip_while(|line| !line.starts_with("My words"))
            .skip(1)
            .take_while(|line| !line.starts_with("My score") && !line.starts_with('('))
            .map(str::to_string)
            .collect();
        let widest = listed
            .iter()
            .map(|line| line.chars().count())
            .max()
            .unwrap_or(0);
        assert!(widest <= width, "{width}: a line of {widest}: {listed:?}");
        listed.len()
    };
    let (narrow, wide) = (rows(40), rows(120));
    assert!(
        narrow > wide && wide >= 1,
        "more rows when narrower: {narrow} and {wide}"
    );
    assert_eq!(rows(60), 3, "ten words of 12 columns, four to a row");
}
