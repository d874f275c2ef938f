//! Byte-exact transcripts of the console game, run through the built binary
//! with piped standard input and a dictionary written by the test.

use crate::common;

use common::{EXAMPLE_WORDS, TempDir, assert_contains, assert_text, run_boggle};

const BOARD_PROMPT: &str =
    "Enter a 16-character long string to run manual tests, or leave empty to get a random board: ";

fn dict_dir(words: &[&str]) -> TempDir {
    TempDir::with("transcript", &[("dict.txt", words.join("\n"))])
}

fn play(dir: &TempDir, stdin: &[u8]) -> common::Run {
    run_boggle(dir.path(), &["--dict", "dict.txt"], stdin)
}

#[test]
fn spec_example_transcript() {
    let dir = dict_dir(EXAMPLE_WORDS);
    let run = play(&dir, b"NIEHGTIBGUALRWGC\nLIT\nBAG\nq\n");
    let expected = format!(
        "{BOARD_PROMPT}N I E H\nG T I B\nG U A L\nR W G C\n\
         Enter a word (q to quit): \tNot worth any points\n\
         Enter a word: Enter a word: You got 1 point and had 1 incorrect guess.\n\
         There were 23 points possible\n\
         {}\n\
         BAG\nBAL\nBIT\nEIN\nETA\nGUR\nHEIL\nHIT\nING\nINT\nINTI\nITUR\nLAC\nLAG\nLAW\nNIT\n\
         TAG\nTALC\nTAU\nTAW\nTIU\nTUA\nTUG\n",
        "=".repeat(60)
    );
    assert_text(&run.stdout, &expected);
    assert_eq!(run.stderr, "words: dict.txt (26 words)\n");
    assert_eq!(run.code, Some(0));
}

#[test]
fn the_same_file_as_words_txt_in_the_working_directory() {
    let dir = TempDir::new("cwd-words");
    dir.write("words.txt", EXAMPLE_WORDS.join("\r\n"));
    let run = run_boggle(dir.path(), &[], b"NIEHGTIBGUALRWGC\nq\n");
    assert_contains(&run.stdout, "There were 23 points possible\n");
}

#[test]
fn two_guesses_on_one_line_and_congratulations() {
    let dir = dict_dir(&["OFF", "FOO"]);
    let run = play(&dir, b"  OOOOOOOOOOOOFFFF \n  zzz   off\nq\n");
    let expected = format!(
        "{BOARD_PROMPT}O O O O\nO O O O\nO O O O\nF F F F\n\
         Enter a word (q to quit): \tNot worth any points\n\
         Enter a word: Congratulations! You achieved 1 out of 1 possible points!\n\
         You got 1 point and had 1 incorrect guess.\n\
         There were 1 points possible\n{}\nOFF\n",
        "=".repeat(60)
    );
    assert_text(&run.stdout, &expected);
}

#[test]
fn a_repeat_is_not_worth_points_but_not_incorrect() {
    let dir = dict_dir(EXAMPLE_WORDS);
    let run = play(&dir, b"NIEHGTIBGUALRWGC\nbag BAG Bag q\n");
    assert_contains(
        &run.stdout,
        "Enter a word (q to quit): Enter a word: \tNot worth any points\n\
             Enter a word: \tNot worth any points\nEnter a word: You got 1 point and had 0 incorrect guesses.\n",
    );
}

#[test]
fn end_of_input_ends_the_game_with_its_summary() {
    let dir = dict_dir(EXAMPLE_WORDS);
    for stdin in [&b""[..], b"NIEHGTIBGUALRWGC", b"NIEHGTIBGUALRWGC\nBAG"] {
        let run = play(&dir, stdin);
        assert!(
            run.stdout.contains("You got "),
            "{:?}: {}",
            stdin,
            run.stdout
        );
        assert!(run.stdout.ends_with('\n'));
        assert_eq!(run.code, Some(0));
    }
    let run = play(&dir, b"NIEHGTIBGUALRWGC\nBAG");
    assert!(
        run.stdout
            .contains("You got 1 point and had 0 incorrect guesses.")
    );
}

#[test]
fn a_board_with_no_words_waits_for_q() {
    let dir = dict_dir(&["CAT"]);
    let run = play(&dir, b"ZZZZZZZZZZZZZZZZ\nzzz\nq\n");
    let expected = format!(
        "{BOARD_PROMPT}Z Z Z Z\nZ Z Z Z\nZ Z Z Z\nZ Z Z Z\n\
         Enter a word (q to quit): \tNot worth any points\nEnter a word: \
         You got 0 points and had 1 incorrect guess.\nThere were 0 points possible\n{}\n",
        "=".repeat(60)
    );
    assert_text(&run.stdout, &expected);
}

#[test]
fn sixteen_characters_that_are_not_letters_say_so() {
    let dir = dict_dir(&["CAT"]);
    let run = play(&dir, b"ABCDEFGHIJKLMNO1\nq\n");
    assert_contains(&run.stderr, "is not a letter");
    assert!(
        run.stdout
            .contains("Enter a word (q to quit): You got 0 points")
    );
    let run = play(&dir, "ÄÖÜÄÖÜÄÖÜÄÖÜÄÖÜÄ\nq\n".as_bytes());
    assert_contains(&run.stderr, "is not a letter");
    assert_eq!(run.code, Some(0));
    let run = play(&dir, b"42\nq\n");
    assert_eq!(
        run.stderr, "words: dict.txt (1 word)\n",
        "a short line means a random board, silently"
    );
}

#[test]
fn hostile_input_never_loses_the_summary() {
    let dir = dict_dir(EXAMPLE_WORDS);
    let mut huge = b"NIEHGTIBGUALRWGC\n".to_vec();
    huge.extend(std::iter::repeat_n(b'A', 10 * 1024 * 1024));
    huge.extend_from_slice(b"\nBAG\n");
    let cases: Vec<Vec<u8>> = vec![
        huge,
        vec![b'x'; 10 * 1024 * 1024],
        b"NIEHGTIBGUALRWGC\n\xff\xfe\x00BAG\x00\nBAG\n".to_vec(),
        b"\x00\x00\x00\n\x00\n".to_vec(),
        b"\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\n".to_vec(),
    ];
    for stdin in cases {
        let run = play(&dir, &stdin);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        assert!(
            run.stdout.contains("points possible\n"),
            "{}",
            &run.stdout[..200.min(run.stdout.len())]
        );
    }
}

#[test]
fn seeded_random_boards_repeat() {
    let dir = dict_dir(EXAMPLE_WORDS);
    let a = run_boggle(
        dir.path(),
        &["--dict", "dict.txt", "--seed", "2025"],
        b"\nq\n",
    );
    let b = run_boggle(
        dir.path(),
        &["--dict", "dict.txt", "--seed", "2025"],
        b"\nq\n",
    );
    assert_eq!(a.stdout, b.stdout);
    // Pinned: if this board changes, every published seed changes with it.
    assert!(
        a.stdout.starts_with(&format!(
            "{BOARD_PROMPT}T P V R\nS R E T\nQ S E Y\nE U R K\n"
        )),
        "{}",
        a.stdout
    );
}

#[test]
fn flags_and_exit_codes() {
    let dir = TempDir::new("flags");
    let help = run_boggle(dir.path(), &["--help"], b"");
    assert_eq!(help.code, Some(0));
    assert_contains(&help.stdout, "--dict");
    let version = run_boggle(dir.path(), &["--version"], b"");
    assert_eq!(version.code, Some(0));
    assert!(version.stdout.starts_with("boggle "));
    let bad = run_boggle(dir.path(), &["--bogus"], b"");
    assert_eq!(bad.code, Some(2));
    assert_eq!(bad.stderr.lines().count(), 1, "{}", bad.stderr);
    assert!(bad.stderr.starts_with("boggle: "));
    let missing = run_boggle(dir.path(), &["--dict", "missing.txt"], b"\nq\n");
    assert_eq!(missing.code, Some(1));
    assert_eq!(missing.stderr.lines().count(), 1, "{}", missing.stderr);
    assert!(missing.stderr.contains("missing.txt"));
}

/// ARCHITECTURE.md: a read error is the end of input. Standard input that
/// cannot be read (a directory) ends the game with its whole summary on
/// standard output, and only then is the error reported (exit 1).
#[cfg(unix)]
#[test]
fn a_read_error_ends_the_game_with_its_summary() {
    let dir = TempDir::new("read-error");
    let stdin = std::fs::File::open(dir.path()).expect("a directory opens for reading");
    let run = common::boggle_in(dir.path(), ["--board", "NIEHGTIBGUALRWGC"])
        .stdin(stdin)
        .output()
        .expect("the binary runs");
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    assert_contains(
        &stdout,
        "Enter a word (q to quit): You got 0 points and had 0 incorrect guesses.\nThere were 23 points possible\n",
    );
    assert!(
        stdout.ends_with("TUG\n"),
        "the summary ends with the last word: {stdout}"
    );
    assert!(
        stderr.ends_with("boggle: cannot read the input: Is a directory (os error 21)\n"),
        "{stderr}"
    );
}
