//! The word lists as shipped: the course's `words.txt` plays spec 004's game
//! with nothing written by the test, the player list (with commonness levels)
//! serves every other preset, `--level` and `--words` follow the levels, and
//! every mode names its list and refuses a bad one before any prompt.

#![expect(
    clippy::disallowed_methods,
    reason = "the dictionary's own lookup is what these tests check"
)]

use crate::common;

use std::path::Path;

use boggle::Dictionary;
use boggle::dictionary::EMBEDDED_WORDS;
use common::{TempDir, assert_contains, assert_text, run_boggle};

const BOARD_PROMPT: &str =
    "Enter a 16-character long string to run manual tests, or leave empty to get a random board: ";

/// The 23 words spec 004's example board holds with the course's list.
const SPEC_WORDS: &str = "BAG\nBAL\nBIT\nEIN\nETA\nGUR\nHEIL\nHIT\nING\nINT\nINTI\nITUR\nLAC\n\
                          LAG\nLAW\nNIT\nTAG\nTALC\nTAU\nTAW\nTIU\nTUA\nTUG\n";

fn repository_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// FNV-1a, 64 bits: a fixed fingerprint of the shipped file's bytes.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[test]
fn words_txt_is_the_course_list_unchanged() {
    let shipped = std::fs::read(repository_root().join("words.txt")).expect("words.txt ships");
    assert_eq!(
        shipped,
        EMBEDDED_WORDS.as_bytes(),
        "the built-in list is words.txt"
    );
    // 67,512 entries, upper case, LF, no final newline, quirky entries kept.
    assert_eq!(shipped.iter().filter(|&&b| b == b'\n').count(), 67_511);
    assert_ne!(shipped.last(), Some(&b'\n'));
    assert!(!shipped.contains(&b'\r'));
    assert!(EMBEDDED_WORDS.lines().any(|line| line == "ABLAZE(P)"));
    assert_eq!(fnv1a(&shipped), 0xe0b0_c9f0_b74f_9b6e, "words.txt changed");
    let course = Dictionary::embedded();
    assert_eq!(course.len(), 66_925, "entries of letters only");
    assert!(!course.has_levels());
    assert!(course.is_word("BAG") && !course.is_word("EATS"));
}

#[test]
fn spec_004_transcript_with_the_list_as_shipped() {
    let elsewhere = TempDir::new("no-words-txt");
    for (dir, source) in [
        (repository_root(), "words.txt (course list, 66,925 words)"),
        (elsewhere.path(), "course list (built in, 66,925 words)"),
    ] {
        let run = run_boggle(dir, &[], b"NIEHGTIBGUALRWGC\nLIT\nBAG\nq\n");
        let expected = format!(
            "{BOARD_PROMPT}N I E H\nG T I B\nG U A L\nR W G C\n\
             Enter a word (q to quit): \tNot worth any points\n\
             Enter a word: Enter a word: You got 1 point and had 1 incorrect guess.\n\
             There were 23 points possible\n{}\n{SPEC_WORDS}",
            "=".repeat(60)
        );
        assert_text(&run.stdout, &expected);
        assert_eq!(run.stderr, format!("words: {source}\n"));
        assert_eq!(run.code, Some(0));
    }
}

#[test]
fn the_library_defaults_give_the_course_answers_anywhere() {
    let game = boggle::Game::with_dice_rolls("NIEHGTIBGUALRWGC").expect("16 letters");
    assert_eq!(game.get_total_points_possible(), 23);
    assert_eq!(game.get_all_words(), SPEC_WORDS);
}

#[test]
fn other_presets_play_the_player_list_from_any_directory() {
    let elsewhere = TempDir::new("player-list");
    for dir in [repository_root(), elsewhere.path()] {
        let run = run_boggle(
            dir,
            &["solve", "--rules", "classic", "--board", "EATSXXXXXXXXXXXX"],
            b"",
        );
        assert!(run.stdout.lines().any(|w| w == "EATS"), "{}", run.stdout);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
    }
    let player = Dictionary::player();
    assert_eq!(player.len(), 274_013);
    assert!(player.has_levels());
    assert!(player.rank("cart") < player.rank("AALII"));
}

/// The computer's score after a round on spec 000's board where the human finds nothing.
fn computer_score(dir: &Path, extra: &[&str]) -> u32 {
    let mut args = vec!["versus"];
    args.extend_from_slice(extra);
    let run = run_boggle(dir, &args, b"y\nqitearsnstradeni\n\nn\n");
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let line = run.stdout.lines().find(|l| l.starts_with("My score: "));
    line.and_then(|l| l["My score: ".len()..].parse().ok())
        .unwrap_or_else(|| panic!("no score in {}", run.stdout))
}

#[test]
fn the_computer_knows_more_words_at_each_level() {
    let dir = TempDir::new("levels");
    let scores: Vec<u32> = ["easy", "medium", "hard", "perfect"]
        .iter()
        .map(|level| computer_score(dir.path(), &["--level", level]))
        .collect();
    assert!(scores.windows(2).all(|w| w[0] < w[1]), "{scores:?}");
    assert_eq!(computer_score(dir.path(), &[]), scores[3]);
}

#[test]
fn levels_on_a_small_tiered_list() {
    let dir = TempDir::new("tiered");
    // QUIT (SCOWL 10), QUITE (35), TRAINED (70), STRAINED (no level: rare).
    dir.write(
        "tiered.txt",
        "QUIT\t10\nQUITE 35\nTRAINED\t70\nSTRAINED\nNOTHERE\t10\n",
    );
    let score =
        |level: &str| computer_score(dir.path(), &["--dict", "tiered.txt", "--level", level]);
    assert_eq!(
        ["easy", "medium", "hard", "perfect"].map(score),
        [1, 1 + 2, 1 + 2 + 5, 1 + 2 + 5 + 11]
    );
    let run = run_boggle(
        dir.path(),
        &["versus", "--dict", "tiered.txt"],
        b"y\nqitearsnstradeni\n\nn\n",
    );
    assert_contains(
        &run.stdout,
        "My words (4):\n  QUIT      1    QUITE     2    TRAINED   5*   STRAINED 11*\n(* a rare word)\n",
    );
    assert_eq!(run.stderr, "words: tiered.txt (5 words)\n");
}

#[test]
fn common_words_only_count_under_words_common() {
    let dir = TempDir::new("words-common");
    dir.write("tiered.txt", "QUIT\t10\nQUITE\t50\nQUITS\t55\nTRAINED\n");
    let args = ["--rules", "classic", "--dict", "tiered.txt"];
    let stdin = b"QITEARSNSTRADENI\nq\n";
    let all = run_boggle(dir.path(), &args, stdin);
    assert!(
        all.stdout.ends_with(
            "There were 10 points possible\n============================================================\n\
             \x20 QUIT     1\n  QUITE    2\n  QUITS    2\n  TRAINED  5 rare\n"
        ),
        "{}",
        all.stdout
    );
    let mut common_args = args.to_vec();
    common_args.extend(["--words", "common"]);
    let common = run_boggle(dir.path(), &common_args, stdin);
    assert!(
        common.stdout.ends_with(
            "There were 3 points possible\n============================================================\n\
             \x20 QUIT   1\n  QUITE  2\n"
        ),
        "{}",
        common.stdout
    );
}

#[test]
fn levels_need_a_list_that_has_them() {
    let dir = TempDir::new("no-levels");
    for args in [
        &["--words", "common"][..],
        &[
            "versus",
            "--rules",
            "cs106b",
            "--dict",
            "plain.txt",
            "--level",
            "easy",
        ],
    ] {
        dir.write("plain.txt", "QUIT\nQUITE\n");
        let run = run_boggle(dir.path(), args, b"NIEHGTIBGUALRWGC\nq\n");
        assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
        assert_contains(&run.stderr, "commonness levels");
        assert_eq!(run.stdout, "", "refused before any prompt");
    }
}

#[test]
fn a_bad_dict_is_reported_before_any_prompt() {
    let dir = TempDir::new("bad-dict");
    dir.write("empty.txt", "12\n");
    for args in [
        &["--dict", "missing.txt"][..],
        &["--dict", "empty.txt"],
        &["--rules", "classic", "--dict", "missing.txt"],
        &["versus", "--dict", "missing.txt"],
    ] {
        let run = run_boggle(dir.path(), args, b"NIEHGTIBGUALRWGC\nq\n");
        assert_eq!(run.stdout, "", "{args:?}");
        assert_eq!(run.code, Some(1), "{args:?}");
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    }
}
