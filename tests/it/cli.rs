//! The command line as a user meets it, through the built binary: bounded
//! board input, capped `--time` and `--threads`, board files with a
//! byte-order mark or bad UTF-8, usage errors against runtime failures, and
//! one `boggle:` line per failure.

use crate::common;

use std::fs::File;
use std::process::Stdio;

use common::{Run, TempDir, assert_contains, assert_text, run_boggle};

const SPEC_BOARD: &str = "4 4\nA T E E\nA P Y O\nT I N U\nE D S E\n";
const SPEC_WORDS: &str = "PINS\nPINES\nDATES\nPINT\nTEPEE\nTAP\nQUIT\n";

/// [`common::assert_one_line`], and no output, no doubled prefix, no panic.
#[track_caller]
fn assert_one_clean_line(run: &Run, code: i32, needle: &str) {
    common::assert_one_line(run, code, needle);
    assert!(!run.stderr.contains("boggle: boggle"), "{}", run.stderr);
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    assert_eq!(run.stdout, "");
}

/// A directory holding the spec's word list as `dict.txt`.
fn dict_dir() -> TempDir {
    TempDir::with("cli", &[("dict.txt", SPEC_WORDS.as_bytes())])
}

/// Runs `boggle ARGS` in `dir` with nothing on standard input and asserts
/// it failed with `code` and one `boggle:` line containing `needle`.
#[track_caller]
fn fails(dir: &TempDir, args: &[&str], code: i32, needle: &str) -> Run {
    let run = run_boggle(dir.path(), args, b"");
    assert_one_clean_line(&run, code, needle);
    run
}

/// Runs `boggle` with standard input read from `/dev/zero` (endless NUL bytes).
fn run_on_zeros(dir: &TempDir, args: &[&str]) -> Run {
    let zeros = File::open("/dev/zero").expect("/dev/zero opens");
    let output = common::boggle_in(dir.path(), args)
        .stdin(Stdio::from(zeros))
        .output()
        .expect("the binary runs");
    Run {
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        code: output.status.code(),
    }
}

// ---------------------------------------------------------------------------
// Board input is bounded.

#[test]
fn endless_board_input_stops_at_the_cap() {
    let dir = dict_dir();
    fails(
        &dir,
        &["solve", "--dict", "dict.txt", "/dev/zero"],
        1,
        "/dev/zero is larger than 1 MiB",
    );
    let run = run_on_zeros(&dir, &["solve", "--dict", "dict.txt", "-"]);
    assert_one_clean_line(&run, 1, "standard input is larger than 1 MiB");
    fails(
        &dir,
        &["bench", "--dict", "dict.txt", "--boards", "/dev/zero"],
        1,
        "/dev/zero:1: a line longer than 64 KiB",
    );
}

#[test]
fn board_lists_are_read_line_by_line_with_a_cap_per_line() {
    let long = format!(
        "{}\n{}\n{}\n",
        "a".repeat(16),
        "b".repeat(16),
        "c".repeat(70_000)
    );
    let dir = TempDir::with(
        "cli",
        &[("dict.txt", "ABBA\n"), ("boards.txt", long.as_str())],
    );
    fails(
        &dir,
        &["bench", "--dict", "dict.txt", "--boards", "boards.txt"],
        1,
        "boards.txt:3: a line longer than 64 KiB",
    );
}

// ---------------------------------------------------------------------------
// --threads and --time have upper bounds.

#[test]
fn a_huge_time_is_a_usage_error_naming_the_range_in_every_mode() {
    let dir = dict_dir();
    let huge = "18446744073709551615";
    let modes: [&[&str]; 5] = [
        &["--dict", "dict.txt", "--time", huge],
        &["--dict", "dict.txt", "--rules", "ece209", "-t", huge],
        &["versus", "--dict", "dict.txt", "--time", huge],
        &["tui", "--dict", "dict.txt", "--time", huge],
        &["best", "--dict", "dict.txt", "--time", huge],
    ];
    for args in modes {
        let run = run_boggle(dir.path(), args, b"q\n");
        assert_one_clean_line(&run, 2, "86400");
    }
    // The longest allowed turn still plays (and ends at once on "q").
    let run = run_boggle(
        dir.path(),
        &["--dict", "dict.txt", "--time", "86400"],
        b"\nq\n",
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
}

#[test]
fn too_many_threads_is_a_usage_error_in_every_subcommand_that_takes_them() {
    let dir = dict_dir();
    // prove's own flags come first so that only --threads can be wrong.
    for mode in [
        &["bench"][..],
        &["best"],
        &["prove", "--size", "2x2", "--above", "1"],
    ] {
        for threads in ["1152921504606846976", "257", "0"] {
            let mut args = mode.to_vec();
            args.extend(["--dict", "dict.txt", "--threads", threads]);
            fails(&dir, &args, 2, "1..=256");
        }
    }
}

// ---------------------------------------------------------------------------
// Board files with a byte-order mark or bad UTF-8.

#[test]
fn a_board_file_may_start_with_a_byte_order_mark() {
    let with_bom = [b"\xEF\xBB\xBF".as_slice(), SPEC_BOARD.as_bytes()].concat();
    let list = b"\xEF\xBB\xBFatee\napyo\n".to_vec();
    let dir = TempDir::with(
        "cli",
        &[
            ("dict.txt", SPEC_WORDS.as_bytes()),
            ("board.txt", &with_bom),
            ("boards.txt", &list),
        ],
    );
    let run = run_boggle(
        dir.path(),
        &["solve", "--dict", "dict.txt", "board.txt"],
        b"",
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(run.stdout, "PINES\nPINS\nTAP\nScore = 4\n");
    let run = run_boggle(
        dir.path(),
        &[
            "bench",
            "--dict",
            "dict.txt",
            "--size",
            "1x4",
            "--boards",
            "boards.txt",
        ],
        b"",
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stdout.starts_with("boards=2 "), "{}", run.stdout);
}

#[test]
fn bad_utf8_is_reported_on_its_own_line() {
    let bad = b"4 4\nA T E E\nA P Y O\nT I N U\nE D \xFF E\n".to_vec();
    let list = b"abcd\nefgh\n\xC3\n".to_vec();
    let dir = TempDir::with(
        "cli",
        &[
            ("dict.txt", SPEC_WORDS.as_bytes()),
            ("bad.txt", &bad),
            ("boards.txt", &list),
        ],
    );
    fails(
        &dir,
        &["solve", "--dict", "dict.txt", "bad.txt"],
        1,
        "bad.txt:5: not UTF-8 text",
    );
    fails(
        &dir,
        &[
            "bench",
            "--dict",
            "dict.txt",
            "--size",
            "1x4",
            "--boards",
            "boards.txt",
        ],
        1,
        "boards.txt:3: not UTF-8 text",
    );
}

// ---------------------------------------------------------------------------
// What solve says about a bad --board and a missing file.

#[test]
fn a_malformed_board_flag_is_a_usage_error() {
    let dir = dict_dir();
    fails(
        &dir,
        &["solve", "--dict", "dict.txt", "--board", "ABC"],
        2,
        "--board does not spell a 4x4 board: a board needs exactly 16 letters, got 3",
    );
}

#[test]
fn a_missing_board_file_cannot_be_opened_and_has_no_line() {
    let dir = dict_dir();
    let run = fails(
        &dir,
        &["solve", "--dict", "dict.txt", "/nonexistent.txt"],
        1,
        "cannot open /nonexistent.txt: ",
    );
    assert!(!run.stderr.contains(":1:"), "{}", run.stderr);
    fails(
        &dir,
        &["bench", "--dict", "dict.txt", "--boards", "nope.txt"],
        1,
        "cannot open nope.txt: ",
    );
}

// ---------------------------------------------------------------------------
// One line per failure, with its causes and hints.

#[test]
fn causes_are_joined_on_one_line_and_said_once() {
    let dir = dict_dir();
    fails(
        &dir,
        &["--size", "5", "--dice", "new"],
        2,
        "impossible rules: the new dice do not fit a 5x5 board (they fill 16 cells)",
    );
    let run = fails(
        &dir,
        &[
            "solve",
            "--dict",
            "missing.txt",
            "--board",
            "ABCDEFGHIJKLMNOP",
        ],
        1,
        "cannot read dictionary missing.txt: ",
    );
    let cause = "No such file or directory";
    assert_eq!(run.stderr.matches(cause).count(), 1, "{}", run.stderr);
}

#[test]
fn refusals_have_one_prefix() {
    let dir = dict_dir();
    let cases: [&[&str]; 6] = [
        &["versus", "--rules", "ece209"],
        &["best", "--rules", "ece209"],
        &["tui", "--rules", "ece209"],
        &["solve", "--rules", "ece209", "--board", "ABCDEFGHIJKLMNOP"],
        &["bench", "--rules", "ece209"],
        &["--rules", "ece209", "--seed", "65536"],
    ];
    for args in cases {
        fails(&dir, args, 2, "ece209");
    }
}

#[test]
fn a_misspelt_flag_gets_a_suggestion() {
    let dir = TempDir::new("cli-suggest");
    fails(&dir, &["--seeed", "1"], 2, "did you mean '--seed'?");
    fails(
        &dir,
        &["solve", "--rule", "algs4"],
        2,
        "did you mean '--rules'? (see 'boggle solve --help')",
    );
    // Without a near miss, the line lists what the mode offers.
    fails(
        &dir,
        &["versus", "--rules", "scrabble"],
        2,
        "(choose one of project4, classic, cs106b, tddd86, algs4) (see 'boggle versus --help')",
    );
}

#[test]
fn short_flags_of_bsd_boggle_play_a_game() {
    let dir = dict_dir();
    let run = run_boggle(
        dir.path(),
        &["--dict", "dict.txt", "-s", "3", "-t", "0", "-w", "4"],
        b"\nq\n",
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
}

#[test]
fn each_subcommand_states_its_own_default_rules() {
    let dir = TempDir::new("cli-help");
    let help = |args: &[&str]| {
        let run = run_boggle(dir.path(), args, b"");
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        run.stdout
    };
    let solve = help(&["solve", "--help"]);
    assert_contains(&solve, "[default: algs4]");
    assert!(!solve.contains("project4 (default)"), "{solve}");
    let bench = help(&["bench", "--help"]);
    assert_contains(&bench, "[default: classic]");
    for mode in ["versus", "tui"] {
        for flag in ["-h", "--help"] {
            let text = help(&[mode, flag]);
            assert!(!text.contains("ece209"), "{mode} {flag}: {text}");
        }
    }
    assert!(help(&["versus", "-h"]).contains("[default: cs106b]"));
    let game = help(&["--help"]);
    assert_contains(&game, "ece209");
    assert_contains(&game, "[default: project4]");
}

/// README's presets table says which preset each mode opens on; each mode's
/// `--help` says the same (`tui` opens on `classic`, not on `project4`).
#[test]
fn the_readme_names_each_modes_default_rules() {
    let dir = TempDir::new("cli-readme");
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    let table = readme
        .split("| preset | what | default of |")
        .nth(1)
        .expect("README's presets table");
    let mut checked = 0;
    for row in table.lines().skip(2).take_while(|l| l.starts_with('|')) {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let preset = cells[1].trim_matches('`');
        for mode in cells[3].split(", ").filter(|m| !m.is_empty()) {
            let args: Vec<&str> = match mode.trim_matches('`') {
                "(console game only)" => continue,
                "the console game" => vec!["--help"],
                name => vec![name, "--help"],
            };
            let run = run_boggle(dir.path(), &args, b"");
            let rules = run.stdout.split("--rules").nth(1).unwrap_or_default();
            let default = rules.split("[default: ").nth(1).unwrap_or_default();
            assert!(
                default.starts_with(&format!("{preset}]")),
                "README: {mode} opens on {preset}; its help: [default: {}",
                default.lines().next().unwrap_or_default()
            );
            checked += 1;
        }
    }
    assert!(checked >= 8, "{checked} modes checked");
}

/// Standard input that cannot be read (a directory) is a read error in every
/// mode, never "cannot write the output" (an implicit conversion used
/// to call every I/O error a write).
#[cfg(unix)]
#[test]
fn unreadable_standard_input_is_reported_as_a_read_error() {
    let dir = TempDir::new("stdin-dir");
    for args in [&["versus"][..], &["--rules", "ece209"], &[]] {
        let stdin = File::open(dir.path()).expect("a directory opens for reading");
        let run = common::boggle_in(dir.path(), args)
            .stdin(stdin)
            .output()
            .expect("the binary runs");
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.contains("boggle: cannot read the input: Is a directory"),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("cannot write"), "{args:?}: {stderr}");
    }
}

/// A missing argument is named on the one line (clap
/// lists them on lines of their own, which the one line used to drop).
#[test]
fn a_missing_argument_is_named() {
    let dir = TempDir::new("cli-missing");
    let run = common::run_boggle(dir.path(), &["join"], b"");
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains("<HOST[:PORT]>") && run.stderr.contains("--name <NAME>"),
        "{}",
        run.stderr
    );
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    // The list is introduced by a colon, as a sentence would have it.
    let run = common::run_boggle(dir.path(), &["join", "127.0.0.1"], b"");
    assert_eq!(
        run.stderr,
        "boggle: the following required arguments were not provided: --name <NAME> \
         (see 'boggle join --help')\n"
    );
}

/// Help wraps at word boundaries to the terminal's width
/// (clap's `wrap_help`; `COLUMNS` where there is no terminal to ask), not at
/// a fixed 100 columns that an 80-column terminal cuts mid-word.
#[test]
fn help_wraps_to_the_terminals_width() {
    let dir = TempDir::new("cli-wrap");
    for args in [&["-h"][..], &["join", "-h"], &["tui", "-h"]] {
        let out = common::boggle_in(dir.path(), args)
            .env("COLUMNS", "60")
            .output()
            .expect("boggle runs");
        let help = String::from_utf8_lossy(&out.stdout);
        let widest = help.lines().map(|l| l.chars().count()).max().unwrap_or(0);
        assert!(widest <= 60, "{args:?}: {widest} columns\n{help}");
    }
}

#[test]
fn daily_prints_a_days_number_and_board_and_refuses_days_before_the_first() {
    let dir = TempDir::new("cli");
    let day = run_boggle(dir.path(), &["daily", "--date", "2026-03-14"], b"");
    assert_eq!(day.code, Some(0), "{}", day.stderr);
    assert_text(
        &day.stdout,
        "Daily board #73 (2026-03-14): classic rules, 4x4, 3 minutes\n\
         B  E  N  E\nL  K  E  Y\nH  X  H  D\nA  Qu M  S\n",
    );
    let next = run_boggle(dir.path(), &["daily", "--date", "2026-03-15"], b"");
    assert!(
        next.stdout.starts_with("Daily board #74 (2026-03-15)"),
        "{}",
        next.stdout
    );
    assert_ne!(next.stdout.lines().nth(1), day.stdout.lines().nth(1));
    let today = run_boggle(dir.path(), &["daily"], b"");
    assert_eq!(today.code, Some(0), "{}", today.stderr);
    assert!(
        today.stdout.starts_with("Daily board #"),
        "{}",
        today.stdout
    );
    let refusals: [(&[&str], &str); 2] = [
        (
            &["daily", "--date", "2025-12-31"],
            "before the first daily board",
        ),
        (
            &["tui", "--daily", "--board", "ABCDEFGHIJKLMNOP"],
            "cannot be used with",
        ),
    ];
    for (args, says) in refusals {
        fails(&dir, args, 2, says);
    }
}

// ---------------------------------------------------------------------------
// `boggle define`: WordNet's meanings as a user reads them.

#[test]
fn define_reaches_the_lemma_of_an_inflected_word() {
    let dir = TempDir::new("cli");
    let run = run_boggle(dir.path(), &["define", "boxes", "MICE"], b"");
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(run.stderr, "");
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines[0], "BOXES, a form of BOX");
    assert_eq!(
        lines[1],
        "  noun: a (usually rectangular) container; may have a lid"
    );
    assert!(lines.contains(&"  verb: put into a box"), "{}", run.stdout);
    assert!(lines.contains(&"MICE, a form of MOUSE"), "{}", run.stdout);
}

#[test]
fn define_says_when_wordnet_has_no_entry() {
    let dir = TempDir::new("cli");
    let run = run_boggle(dir.path(), &["define", "qxzv"], b"");
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(run.stdout, "QXZV: no entry in WordNet\n");
}

#[test]
fn define_refuses_what_is_not_a_word() {
    let dir = TempDir::new("cli");
    fails(
        &dir,
        &["define", "b0x"],
        2,
        "'b0x' is not a word: letters A to Z only",
    );
}

/// A long input is refused shown cut short, once; accented letters are
/// looked up as WordNet spells them (café as cafe); a line longer than 80
/// columns wraps at a space, under its sense.
#[test]
fn define_folds_accents_wraps_and_cuts_a_long_refusal_short() {
    let dir = TempDir::new("cli");
    let long = "x1".repeat(2500);
    let run = fails(
        &dir,
        &["define", &long],
        2,
        "is not a word: letters A to Z only",
    );
    assert!(run.stderr.len() < 200, "{}", run.stderr);
    let run = run_boggle(dir.path(), &["define", "café", "naïve"], b"");
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines[0], "CAFE", "{}", run.stdout);
    assert!(lines.contains(&"NAIVE"), "{}", run.stdout);
    assert!(
        lines.iter().all(|l| l.chars().count() <= 80),
        "{}",
        run.stdout
    );
    // A sense longer than a line goes on under it, indented.
    assert!(
        lines
            .windows(2)
            .any(|w| w[0].starts_with("  ") && w[1].starts_with("    ")),
        "{}",
        run.stdout
    );
}
