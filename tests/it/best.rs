//! The `boggle best` suite: the report of the best boards as text and JSON on
//! a tiny dictionary, repeatable with a fixed seed, thread count and
//! iteration budget, and the flags it refuses.

use crate::common;

use common::{TempDir, args, assert_contains, assert_text, run_boggle};

const WORDS: &str = "TEA\nTEAS\nEAT\nEATS\nSEAT\nATE\nETA\nSAT\nSET\nEAST\nSATE\nETAS\n";

/// A classic search on 2 threads from seed 7, the best 2 boards listed.
const SEVEN_TOP_TWO: &str = "--rules classic --threads 2 --seed 7 --top 2";

fn best(extra: &[&str]) -> common::Run {
    let dir = TempDir::new("best");
    dir.write("tiny.txt", WORDS);
    let mut all = args("best --dict tiny.txt --size 2x2 --iterations 50000");
    all.extend_from_slice(extra);
    run_boggle(dir.path(), &all, b"")
}

#[test]
fn prints_the_best_distinct_boards_as_grids() {
    let run = best(&args(SEVEN_TOP_TWO));
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_text(
        &run.stdout,
        "1. 12 points, 12 words: AEST\nA E\nS T\n\n2. 12 points, 12 words: AETS\nA E\nT S\n",
    );
}

#[test]
fn json_for_scripts() {
    let run = best(&args(&format!("{SEVEN_TOP_TWO} --json")));
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_text(
        &run.stdout,
        r#"{
  "rules": "classic",
  "rows": 2,
  "cols": 2,
  "boards": [
    {"score": 12, "words": 12, "letters": "AEST", "grid": [["A", "E"], ["S", "T"]]},
    {"score": 12, "words": 12, "letters": "AETS", "grid": [["A", "E"], ["T", "S"]]}
  ]
}
"#,
    );
}

#[test]
fn a_seed_and_thread_count_repeat_and_progress_goes_to_stderr() {
    let args = [
        "--rules",
        "project4",
        "--threads",
        "3",
        "--seed",
        "11",
        "--top",
        "4",
    ];
    let first = best(&args);
    let second = best(&args);
    assert_eq!(first.code, Some(0), "{}", first.stderr);
    assert_eq!(first.stdout, second.stdout);
    assert!(first.stdout.starts_with("1. "), "{}", first.stdout);
    let last = first.stderr.lines().last().unwrap_or_default();
    assert!(last.starts_with("done: "), "{}", first.stderr);
    assert!(last.ends_with(", seed 11, 3 threads"), "{}", first.stderr);
}

#[test]
fn impossible_flags_are_usage_errors() {
    let cases: &[&[&str]] = &[
        &["--threads", "0"],
        &["--top", "0"],
        &["--iterations", "0"],
        &["--target", "0"],
        &["--stop-at", "0"],
        &["--stop-at", "-5"],
        &["--time", "5"],
        &["--rules", "ece209"],
        &["--size", "5x5", "--dice", "new"],
        &["--seed", "x"],
        &["--json", "extra"],
    ];
    for args in cases {
        let run = best(args);
        assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
        assert!(
            run.stderr.starts_with("boggle: "),
            "{args:?}: {}",
            run.stderr
        );
        assert_eq!(run.stdout, "", "{args:?}");
    }
    let dir = TempDir::new("best-time");
    for time in ["0", "-1", "nan", "1e30"] {
        let run = run_boggle(dir.path(), &["best", &format!("--time={time}")], b"");
        assert_eq!(run.code, Some(2), "--time {time}: {}", run.stderr);
    }
}

#[test]
fn a_missing_dictionary_is_a_runtime_failure() {
    let dir = TempDir::new("best-missing");
    let run = run_boggle(
        dir.path(),
        &["best", "--dict", "nope.txt", "--iterations", "10"],
        b"",
    );
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(
        run.stderr.starts_with("boggle: cannot read dictionary"),
        "{}",
        run.stderr
    );
}

/// The closing line names the best board as the list does (its canonical
/// form, the smallest of its rotations and reflections), and counts one
/// thread in the singular.
#[test]
fn the_closing_line_shows_the_listed_board_and_one_thread() {
    // Seed 1's chain first reaches the best score on EATS, a rotation of AEST.
    let run = best(&args("--rules classic --threads 1 --seed 1 --top 1"));
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let listed = run
        .stdout
        .lines()
        .next()
        .and_then(|l| l.rsplit(' ').next())
        .unwrap_or_default();
    let done = run
        .stderr
        .lines()
        .find(|l| l.starts_with("done:"))
        .unwrap_or_default();
    assert!(
        done.contains(&format!("best 12 {listed}")),
        "{done} / {listed}"
    );
    assert!(done.ends_with(", 1 thread"), "{done}");
}

/// `--stop-at` ends the search at the first board scoring that much: the
/// closing line starts with the score and the time it took to reach it, and
/// far fewer boards are scored than the budget allows (`--target` is its
/// older name). A score no board reaches leaves the budget to run out.
#[test]
fn stop_at_ends_the_search_early_and_says_when() {
    let boards_scored = |done: &str| -> u64 {
        let before_seed = done.rsplit_once(" boards, seed").map_or("", |(a, _)| a);
        before_seed
            .rsplit(' ')
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or(u64::MAX)
    };
    let args = ["--rules", "classic", "--threads", "1", "--seed", "1"];
    for flag in ["--stop-at", "--target"] {
        let run = best(&[&args[..], &[flag, "12", "--top", "1"]].concat());
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        assert!(run.stdout.starts_with("1. 12 points"), "{}", run.stdout);
        let done = run.stderr.lines().last().unwrap_or_default();
        let seconds = done
            .strip_prefix("reached 12 in ")
            .and_then(|rest| rest.split_once(" s: "))
            .and_then(|(seconds, _)| seconds.parse::<f64>().ok());
        assert!(seconds.is_some_and(|s| s >= 0.0), "{flag}: {done}");
        assert_contains(done, "best 12 ");
        assert!(done.contains(" (first at "), "{done}");
        assert!(boards_scored(done) < 50_000, "{done}");
    }

    let run = best(&[&args[..], &["--stop-at", "13"]].concat());
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let done = run.stderr.lines().last().unwrap_or_default();
    assert!(done.starts_with("done: "), "{done}");
    assert_contains(done, "best 12 ");
}

/// `--score words` maximises the number of words, not points. On a 2x3
/// board this list's most points are ABCDEF's chain (ABCD 1, ABCDE 2,
/// ABCDEF 3: 6 points, 3 words, every cell), its most words the five
/// arrangements of X, Y and Z (5 words, 5 points, and no 4 cells left for
/// ABCD). `--stop-at` then counts words.
#[test]
fn score_words_finds_the_wordiest_board_not_the_richest() {
    let dir = TempDir::new("best-words");
    dir.write("tiny.txt", "ABCD\nABCDE\nABCDEF\nXYZ\nXZY\nYXZ\nYZX\nZXY\n");
    let search = |extra: &[&str]| {
        let mut args = args(
            "best --dict tiny.txt --rules classic --size 2x3 --iterations 50000 \
             --threads 1 --seed 1 --top 1",
        );
        args.extend_from_slice(extra);
        let run = run_boggle(dir.path(), &args, b"");
        assert_eq!(run.code, Some(0), "{extra:?}: {}", run.stderr);
        run
    };
    let points = search(&[]);
    assert!(
        points.stdout.starts_with("1. 6 points, 3 words: "),
        "{}",
        points.stdout
    );
    assert_eq!(search(&["--score", "points"]).stdout, points.stdout);
    let words = search(&["--score", "words"]);
    assert!(
        words.stdout.starts_with("1. 5 points, 5 words: "),
        "{}",
        words.stdout
    );
    let done = words.stderr.lines().last().unwrap_or_default();
    assert_contains(done, "  best 5 words ");
    let stopped = search(&["--score", "words", "--stop-at", "5"]);
    let done = stopped.stderr.lines().last().unwrap_or_default();
    assert!(done.starts_with("reached 5 in "), "{done}");
    let bad = run_boggle(dir.path(), &["best", "--score", "letters"], b"");
    assert_eq!(bad.code, Some(2), "{}", bad.stderr);
}
