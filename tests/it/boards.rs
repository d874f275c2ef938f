//! Boards as players give them: `--board LETTERS` in the console game and
//! `versus`, boards typed with spaces or in groups of four wherever a board is
//! asked for (spec 004's own prompt keeps its rule and says why), and
//! `--min-points` for random boards worth playing.

use crate::common;

use common::{EXAMPLE_WORDS, TempDir, assert_contains, diagnostics, run_boggle};

fn dir() -> TempDir {
    TempDir::with("boards", &[("dict.txt", EXAMPLE_WORDS.join("\n"))])
}

#[test]
fn a_board_given_up_front_skips_the_board_prompt() {
    let dir = dir();
    let run = run_boggle(
        dir.path(),
        &["--dict", "dict.txt", "--board", "NIEH GTIB GUAL RWGC"],
        b"bag\nq\n",
    );
    assert!(
        run.stdout
            .starts_with("N I E H\nG T I B\nG U A L\nR W G C\nEnter a word (q to quit): "),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("You got 1 point and had 0 incorrect guesses.")
    );
    let bad = run_boggle(dir.path(), &["--dict", "dict.txt", "-b", "NIEH"], b"");
    assert_eq!(bad.code, Some(2), "{}", bad.stderr);
    assert_contains(&bad.stderr, "--board does not spell a 4x4 board");
    assert_eq!(bad.stdout, "");
}

#[test]
fn versus_plays_the_given_board_first_then_asks() {
    let dir = dir();
    let run = run_boggle(
        dir.path(),
        &[
            "versus",
            "--dict",
            "dict.txt",
            "--rules",
            "classic",
            "--board",
            "Qu I T E A R S N S T R A D E N I",
        ],
        b"\nn\n",
    );
    assert!(
        run.stdout
            .starts_with("It's your turn!\nQu I  T  E\nA  R  S  N\n"),
        "{}",
        run.stdout
    );
}

#[test]
fn boards_typed_in_groups_are_boards_except_at_spec_004s_own_prompt() {
    let dir = dir();
    let classic = run_boggle(
        dir.path(),
        &["--dict", "dict.txt", "--rules", "classic"],
        b"NIEH GTIB GUAL RWGC\nq\n",
    );
    assert_contains(&classic.stdout, "random board: N I E H\n");
    let typed = run_boggle(
        dir.path(),
        &["versus", "--dict", "dict.txt"],
        b"y\nniehgtib guALRWgc\n\nn\n",
    );
    assert_contains(&typed.stdout, "It's your turn!\nN I E H\n");
    // Spec 004: not 16 characters means a random board; stderr says why.
    let spec = run_boggle(
        dir.path(),
        &["--dict", "dict.txt", "--seed", "1"],
        b"NIEH GTIB GUAL RWGC\nq\n",
    );
    assert!(
        !spec.stdout.contains("random board: N I E H\n"),
        "{}",
        spec.stdout
    );
    assert_eq!(
        diagnostics(&spec.stderr),
        "boggle: type the 16 letters without spaces (spec 004); using a random board\n"
    );
}

#[test]
fn random_boards_can_be_rerolled_to_a_minimum_of_points() {
    let dir = dir();
    // With the example's words, almost no random board is worth 10 points.
    let points = |args: &[&str]| -> u32 {
        let mut all = vec!["--dict", "dict.txt", "--seed", "5"];
        all.extend_from_slice(args);
        let run = run_boggle(dir.path(), &all, b"\nq\n");
        let line = run.stdout.lines().find(|l| l.starts_with("There were "));
        line.and_then(|l| l.split_whitespace().nth(2)?.parse().ok())
            .unwrap_or_else(|| panic!("{}{}", run.stdout, run.stderr))
    };
    assert!(points(&[]) < 3);
    assert!(points(&["--min-points", "3"]) >= 3);
    let none = run_boggle(
        dir.path(),
        &["--dict", "dict.txt", "--min-points", "1000"],
        b"\nq\n",
    );
    assert_eq!(none.code, Some(1));
    assert_contains(&none.stderr, "--min-points");
}
