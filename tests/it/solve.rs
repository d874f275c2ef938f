//! `boggle solve` (spec 002's test client) and `boggle bench`, run through the
//! built binary with dictionaries and board files written by the tests.

use crate::common;

use common::{TempDir, assert_text, run_boggle};

const SPEC_BOARD: &str = "4 4\nA T E E\nA P Y O\nT I N U\nE D S E\n";
const SPEC_WORDS: &str = "PINS\nPINES\nDATES\nPINT\nTEPEE\nTAP\nQUIT\n";

/// `boggle solve --dict dict.txt ARGS` in `dir`, with nothing on its input.
fn solve(dir: &TempDir, args: &[&str]) -> common::Run {
    run_boggle(
        dir.path(),
        &[&["solve", "--dict", "dict.txt"], args].concat(),
        b"",
    )
}

/// A directory holding `files` (name, text).
fn dir_with(files: &[(&str, &str)]) -> TempDir {
    TempDir::with("solve", files)
}

#[test]
fn spec_002_examples() {
    let dir = dir_with(&[("dict.txt", SPEC_WORDS), ("board.txt", SPEC_BOARD)]);
    let run = solve(&dir, &["board.txt"]);
    // PINS and PINES are valid; DATES (not adjacent), PINT (not a path),
    // TEPEE (a die twice) are not; SID is on the board but not in this list.
    assert_text(&run.stdout, "PINES\nPINS\nTAP\nScore = 4\n");
    assert_eq!(run.code, Some(0));
}

#[test]
fn qu_cells_written_q_or_qu_and_standard_input() {
    let dict = "QUIT\nQUITS\nQIT\nSIT\nITS\n";
    let dir = dir_with(&[
        ("dict.txt", dict),
        ("qu.txt", "2 2\nQu I\nT S\n"),
        ("q.txt", "2 2 Q I T S"),
    ]);
    let expected = "ITS\nQUIT\nQUITS\nSIT\nScore = 5\n";
    for file in ["qu.txt", "q.txt"] {
        let run = solve(&dir, &[file]);
        assert_text(&run.stdout, expected);
    }
    let run = run_boggle(
        dir.path(),
        &["solve", "--dict", "dict.txt", "-"],
        b"2 2\nQu I\nT S\n",
    );
    assert_text(&run.stdout, expected);
    let run = solve(&dir, &["--size", "2", "--board", "QITS"]);
    assert_text(&run.stdout, expected);
}

#[test]
fn several_files_and_rule_presets() {
    let dir = dir_with(&[
        ("dict.txt", SPEC_WORDS),
        ("a.txt", SPEC_BOARD),
        ("b.txt", "1 3\nT A P\n"),
    ]);
    let run = solve(&dir, &["a.txt", "b.txt"]);
    assert_text(&run.stdout, "PINES\nPINS\nTAP\nScore = 4\nTAP\nScore = 1\n");
    // cs106b rules: words of 4 letters or more.
    let run = run_boggle(
        dir.path(),
        &["solve", "--rules", "cs106b", "--dict", "dict.txt", "a.txt"],
        b"",
    );
    assert_text(&run.stdout, "PINES\nPINS\nScore = 3\n");
}

#[test]
fn bad_board_files_name_the_file_and_line() {
    let dir = dir_with(&[
        ("dict.txt", SPEC_WORDS),
        ("short.txt", "4 4\nA B C D\nE F\n"),
        ("bad.txt", "2 2\nA B\nC 9\n"),
    ]);
    let run = solve(&dir, &["short.txt"]);
    assert_eq!(run.code, Some(1));
    assert_eq!(
        run.stderr,
        "boggle: short.txt:3: only 6 of the 16 cells of a 4x4 board\n"
    );
    let run = solve(&dir, &["bad.txt"]);
    assert_eq!(
        run.stderr,
        "boggle: bad.txt:3: \"9\" is not a board cell (a letter, or Qu)\n"
    );
    let run = solve(&dir, &["missing.txt"]);
    assert_eq!(run.code, Some(1));
    assert!(
        run.stderr.starts_with("boggle: cannot open missing.txt: "),
        "{}",
        run.stderr
    );
    let run = solve(&dir, &[]);
    assert_eq!(run.code, Some(2), "no board is a usage error");
}

#[test]
fn bench_totals_do_not_depend_on_threads() {
    let dir = dir_with(&[(
        "dict.txt",
        "TEA\nEAT\nATE\nTEN\nNET\nTAN\nANT\nSEAT\nEATS\nTEAS\nNEST\nSENT\n",
    )]);
    let totals = |threads: &str| {
        let run = run_boggle(
            dir.path(),
            &[
                "bench",
                "--dict",
                "dict.txt",
                "--count",
                "300",
                "--seed",
                "5",
                "--threads",
                threads,
            ],
            b"",
        );
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        let fields: Vec<&str> = run.stdout.split_whitespace().collect();
        assert_eq!(fields[0], "boards=300");
        assert!(fields[2].starts_with("seconds=") && fields[3].starts_with("boards_per_sec="));
        (fields[1].to_string(), fields[4].to_string())
    };
    let one = totals("1");
    assert!(
        one.0.starts_with("total_score=") && one.0 != "total_score=0",
        "{one:?}"
    );
    assert_eq!(totals("2"), one);
    assert_eq!(totals("3"), one);
}

#[test]
fn bench_reads_board_lists() {
    let dir = dir_with(&[
        ("dict.txt", "QUIT\nQUITE\nTEN\n"),
        ("boards.txt", "qitexxxxxxxxxxxx\n\nxxxxxxxxxxxxxten\n"),
    ]);
    let run = run_boggle(
        dir.path(),
        &["bench", "--dict", "dict.txt", "--boards", "boards.txt"],
        b"",
    );
    assert!(
        run.stdout.starts_with("boards=2 total_score=4 "),
        "{}{}",
        run.stdout,
        run.stderr
    );
    let dir = dir_with(&[("dict.txt", "TEN\n"), ("boards.txt", "abc\n")]);
    let run = run_boggle(
        dir.path(),
        &["bench", "--dict", "dict.txt", "--boards", "boards.txt"],
        b"",
    );
    assert_eq!(run.code, Some(1));
    assert!(
        run.stderr.starts_with("boggle: boards.txt:1: "),
        "{}",
        run.stderr
    );
}
