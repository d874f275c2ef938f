//! Every preset end to end: a full console game on a fixed board (a fixed
//! seed for ece209) through the built binary, byte for byte, and each preset's
//! scoring and move rules pinned on known boards with tiny dictionaries.
//! ece209's shaken trays and its scoring of any string are the mode's unit
//! tests (`src/play/modes/boggleish.rs`).
//!
//! The board used by most tests, typed as `QITEARSNSTRADENI`:
//!
//! ```text
//! Qu I T E      Q is Qu where the rules have Qu (QUIT, QUITE, QUITS), plain Q in project4 (QIT)
//! A  R S N      RITE, STIR, AIR, NEST go up a row: never under project4's no-up rule
//! S  T R A      STRAINED snakes along the bottom rows without going up
//! D  E N I
//! ```

#![expect(
    clippy::disallowed_types,
    reason = "the tests build rules from a preset; nothing here branches on one"
)]

use crate::common;

use std::sync::Arc;

use boggle::{Dictionary, GameBoard, Preset, QReads, Rules, WordFind};
use common::{TempDir, assert_contains, assert_text, run_boggle};

const WORDS: &[&str] = &[
    "QUIT", "QUITE", "QUITS", "QIT", "RITE", "STIR", "NEST", "TEN", "TENS", "AIR", "ARTS",
    "STRAINED", "TRAINED",
];
const BOARD: &str = "QITEARSNSTRADENI";
const GUESSES: &str = "QITEARSNSTRADENI\nquits ten trained\nq\n";
const P4_PROMPT: &str =
    "Enter a 16-character long string to run manual tests, or leave empty to get a random board: ";
const QU_PROMPT: &str = "Enter the 16 letters of a 4x4 board (Q or Qu for the Qu face) to run manual tests, or leave empty to get a random board: ";
const QU_BOARD: &str = "Qu I  T  E\nA  R  S  N\nS  T  R  A\nD  E  N  I\n";

/// Plays `stdin` with `args` and the test dictionary; checks the whole transcript.
#[track_caller]
fn check_game(args: &[&str], stdin: &str, expected: &str) {
    let dir = TempDir::new("presets");
    dir.write("dict.txt", WORDS.join("\n"));
    let mut all = vec!["--dict", "dict.txt"];
    all.extend_from_slice(args);
    let run = run_boggle(dir.path(), &all, stdin.as_bytes());
    assert_text(&run.stdout, expected);
    let expected_stderr = match args {
        [_, "ece209", ..] => "words: none (any string the board spells scores)\n".to_string(),
        [_, "project4"] => format!("words: dict.txt ({} words)\n", WORDS.len()),
        // Other rules are named once, as one line a player reads.
        _ => format!(
            "words: dict.txt ({} words)\nrules: {}\n",
            WORDS.len(),
            args_rules(args).describe()
        ),
    };
    assert_eq!(run.stderr, expected_stderr);
    assert_eq!(run.code, Some(0));
}

/// The rules `--rules NAME [--size RxC]` ask for.
fn args_rules(args: &[&str]) -> Rules {
    let preset = args
        .get(1)
        .and_then(|name| Preset::from_name(name))
        .expect("a preset name");
    match args {
        [_, _, "--size", "2x8"] => Rules::sized(preset, 2, 8),
        _ => Rules::preset(preset),
    }
}

/// The transcript of a game on the Qu board: the prompt and board, then
/// `guesses` (what the game said to each guess), then the summary.
fn qu_game(guesses: &str, score: &str, total: u32, words: &str) -> String {
    format!(
        "{QU_PROMPT}{QU_BOARD}{guesses}{}",
        summary(score, total, words)
    )
}

/// What a game whose rules want four letters says to [`GUESSES`]: TEN is
/// too short.
const TEN_TOO_SHORT: &str = "Enter a word (q to quit): Enter a word: \tNot worth any points: too short (at least 4 letters)\n\
     Enter a word: Enter a word: ";

fn summary(score: &str, total: u32, words: &str) -> String {
    format!(
        "{score}\nThere were {total} points possible\n{}\n{words}",
        "=".repeat(60)
    )
}

#[test]
fn project4_game_goes_no_way_up_and_q_is_plain() {
    let expected = format!(
        "{P4_PROMPT}Q I T E\nA R S N\nS T R A\nD E N I\n\
         Enter a word (q to quit): \tNot worth any points\n\
         Enter a word: Enter a word: Enter a word: {}",
        summary(
            "You got 5 points and had 1 incorrect guess.",
            19,
            "ARTS\nQIT\nSTRAINED\nTEN\nTENS\nTRAINED\n"
        )
    );
    check_game(&["--rules", "project4"], GUESSES, &expected);
}

#[test]
fn classic_game_has_qu_and_eight_neighbours() {
    let expected = qu_game(
        "Enter a word (q to quit): Enter a word: Enter a word: Enter a word: ",
        "You got 8 points and had 0 incorrect guesses.",
        28,
        "  STRAINED 11\n+ TRAINED   5\n  QUITE     2\n+ QUITS     2\n  AIR       1\n  ARTS      1\n  NEST      1\n  QUIT      1\n  RITE      1\n  STIR      1\n+ TEN       1\n  TENS      1\n",
    );
    check_game(&["--rules", "classic"], GUESSES, &expected);
    // The Qu face may also be typed as QU.
    let spelled = GUESSES.replacen(BOARD, "QUITEARSNSTRADENI", 1);
    check_game(&["--rules", "classic"], &spelled, &expected);
}

#[test]
fn cs106b_game_needs_four_letters() {
    let expected = qu_game(
        TEN_TOO_SHORT,
        "You got 7 points and had 1 incorrect guess.",
        26,
        "  STRAINED 11\n+ TRAINED   5\n  QUITE     2\n+ QUITS     2\n  ARTS      1\n  NEST      1\n  QUIT      1\n  RITE      1\n  STIR      1\n  TENS      1\n",
    );
    check_game(&["--rules", "cs106b"], GUESSES, &expected);
}

#[test]
fn tddd86_game_scores_length_minus_three() {
    let expected = qu_game(
        TEN_TOO_SHORT,
        "You got 6 points and had 1 incorrect guess.",
        19,
        "  STRAINED  5\n+ TRAINED   4\n  QUITE     2\n+ QUITS     2\n  ARTS      1\n  NEST      1\n  QUIT      1\n  RITE      1\n  STIR      1\n  TENS      1\n",
    );
    check_game(&["--rules", "tddd86"], GUESSES, &expected);
}

#[test]
fn algs4_game_on_a_two_by_eight_board() {
    let expected = format!(
        "Enter the 16 letters of a 2x8 board (Q or Qu for the Qu face) to run manual tests, \
         or leave empty to get a random board: Qu I  T  E  A  R  S  N\nS  T  R  A  I  N  E  D\n\
         Enter a word (q to quit): Enter a word: \tNot worth any points: not on the board\n\
         Enter a word: Enter a word: {}",
        summary(
            "You got 7 points and had 1 incorrect guess.",
            25,
            "  STRAINED 11\n+ TRAINED   5\n  QUITE     2\n+ QUITS     2\n  AIR       1\n  ARTS      1\n  QUIT      1\n  RITE      1\n  STIR      1\n"
        )
    );
    let stdin = GUESSES.replacen(BOARD, "QITEARSNSTRAINED", 1);
    check_game(&["--rules", "algs4", "--size", "2x8"], &stdin, &expected);
}

#[test]
fn ece209_game_with_seed_thirteen() {
    let expected = "Enter a seed number (0 to 65535): \
        Enter a time limit in seconds (0 to skip the timer): \
        E  S  Qu G  \nI  T  N  A  \nI  E  D  N  \nL  R  T  U  \n\
        Enter a word (q to quit): TIE: 1 point\n\
        Enter a word (q to quit): QUANT: 2 points\n\
        Enter a word (q to quit): SQUAD: 2 points\n\
        Enter a word (q to quit): QANT: 0 points\n\
        Enter a word (q to quit): NO: 0 points\n\
        Enter a word (q to quit): QUANTSQUADTIESTIE: 0 points\n\
        Enter a word (q to quit): Total score: 5 points\n";
    let stdin = "13\n0\nTIE quant SQUAD QANT NO QUANTSQUADTIESTIE\nq\n";
    check_game(&["--rules", "ece209"], stdin, expected);
}

#[test]
fn ece209_trays_repeat_for_a_seed() {
    // Worked out independently from spec 001's algorithm: seed 42, and seed 0 (the default state).
    let trays = [
        (
            "42",
            "M  E  E  B  \nI  L  M  S  \nC  E  A  A  \nL  O  O  G  \n",
        ),
        (
            "0",
            "B  W  R  M  \nF  O  E  D  \nN  B  M  E  \nE  G  L  A  \n",
        ),
    ];
    let dir = TempDir::new("ece209-tray");
    for (seed, tray) in trays {
        for _ in 0..2 {
            let args = ["--rules", "ece209", "--seed", seed, "--time", "0"];
            let run = run_boggle(dir.path(), &args, b"q\n");
            let expected = format!("{tray}Enter a word (q to quit): Total score: 0 points\n");
            assert_text(&run.stdout, &expected);
        }
    }
}

#[test]
fn ece209_seeds_beyond_sixteen_bits_are_usage_errors() {
    let dir = TempDir::new("ece209-seed");
    let run = run_boggle(dir.path(), &["--rules", "ece209", "--seed", "65536"], b"");
    assert_eq!(run.code, Some(2));
    assert_contains(&run.stderr, "0 to 65535");
}

#[test]
fn ece209_refuses_the_flags_it_has_nothing_to_apply_to() {
    let dir = TempDir::new("ece209-flags");
    for (flags, reason) in [
        (&["--board", "ABCDEFGHIJKLMNOP"][..], "shakes its own tray"),
        (&["--min-points", "10"], "no points to count"),
        (&["--words", "common"], "no word list"),
    ] {
        let args = [&["--rules", "ece209", "--seed", "1", "--time", "0"], flags].concat();
        let run = run_boggle(dir.path(), &args, b"q\n");
        assert_eq!(run.code, Some(2), "{flags:?}: {}", run.stderr);
        assert!(
            run.stderr.contains(flags[0]) && run.stderr.contains(reason),
            "{}",
            run.stderr
        );
        assert!(run.stdout.is_empty(), "nothing is played: {}", run.stdout);
    }
}

#[test]
fn ece209_prompts_ask_again_and_end_at_end_of_input() {
    let dir = TempDir::new("ece209-prompts");
    let run = run_boggle(dir.path(), &["--rules", "ece209"], b"seven\n70000\n");
    let expected = "Enter a seed number (0 to 65535): Please enter a whole number from 0 to 65535.\n\
        Enter a seed number (0 to 65535): Please enter a whole number from 0 to 65535.\n\
        Enter a seed number (0 to 65535): \n";
    assert_text(&run.stdout, expected);
    assert_eq!(run.code, Some(0));
}

#[test]
fn big_boards_play_in_every_preset_that_has_them() {
    let dir = TempDir::new("big-boards");
    dir.write("dict.txt", WORDS.join("\n"));
    for preset in ["classic", "cs106b", "algs4", "tddd86", "project4"] {
        for size in [5, 6] {
            let n = size.to_string();
            let args = [
                "--dict", "dict.txt", "--rules", preset, "--size", &n, "--seed", "5",
            ];
            let run = run_boggle(dir.path(), &args, b"\nq\n");
            assert_eq!(run.code, Some(0), "{preset} {size}: {}", run.stderr);
            let board: Vec<&str> = run
                .stdout
                .lines()
                .skip(1)
                .take_while(|l| !l.starts_with("Enter a word"))
                .collect();
            assert_eq!(board.len(), size - 1, "{preset} {size}:\n{}", run.stdout);
            assert!(run.stdout.contains(&format!("{0}x{0} board", size)));
        }
    }
}

fn points(preset: Preset, rows: usize, cols: usize, board: &GameBoard, words: &[&str]) -> u32 {
    let rules = Rules::sized(preset, rows, cols);
    WordFind::with_rules(Arc::new(Dictionary::from_words(words)), rules).total_points(board)
}

#[test]
fn scoring_tables_per_preset_on_one_board() {
    let board = GameBoard::from_letters(BOARD, 4, 4, QReads::Qu).expect("16 cells");
    let plain = GameBoard::new(BOARD).expect("16 letters");
    assert_eq!(points(Preset::Project4, 4, 4, &plain, WORDS), 19);
    assert_eq!(points(Preset::Classic, 4, 4, &board, WORDS), 28);
    assert_eq!(points(Preset::Cs106b, 4, 4, &board, WORDS), 26);
    assert_eq!(points(Preset::Tddd86, 4, 4, &board, WORDS), 19);
    assert_eq!(points(Preset::Algs4, 4, 4, &board, WORDS), 28);
    // One word of each length, 3 to 8 letters, on a snake through a 2x4 board.
    let snake = GameBoard::from_letters("ABCDHGFE", 2, 4, QReads::Qu).expect("8 cells");
    let words = ["ABC", "ABCD", "ABCDE", "ABCDEF", "ABCDEFG", "ABCDEFGH"];
    let table = [
        (Preset::Classic, 1 + 1 + 2 + 3 + 5 + 11),
        (Preset::Cs106b, 1 + 2 + 3 + 5 + 11),
        (Preset::Tddd86, 1 + 2 + 3 + 4 + 5),
        (Preset::Algs4, 1 + 1 + 2 + 3 + 5 + 11),
    ];
    for (preset, total) in table {
        assert_eq!(points(preset, 2, 4, &snake, &words), total, "{preset}");
    }
}

#[test]
fn big_boards_need_four_letters_and_multi_letter_faces_count_their_letters() {
    // A 6x6 super-big board: Th counts two letters, a blank cell joins nothing.
    let mut cells = vec!["Th", "E", "N", "-", "A", "X"];
    cells.extend(["X"; 30]);
    let board = GameBoard::from_cells(cells, 6, 6, QReads::Qu).expect("36 cells");
    let words = ["THE", "THEN", "NEXT", "NA"];
    // THE is 3 letters: too short for 6x6 classic; THEN is 4 letters from 3 cells.
    assert_eq!(points(Preset::Classic, 6, 6, &board, &words), 1);
    assert_eq!(points(Preset::Algs4, 6, 6, &board, &words), 2);
}
