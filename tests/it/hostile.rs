//! Hostile but real situations, run through the built binary: a reader that
//! goes away, dictionary files of every awkward kind, standard input that is
//! closed, huge, or not text, and the documented exit statuses. Each either
//! does its job or fails with one clear line naming what was wrong.

#![expect(
    clippy::disallowed_types,
    reason = "the tests build rules from a preset; nothing here branches on one"
)]

use crate::common;

use std::io::{Read, Write};
use std::path::Path;

use boggle::{Dictionary, Die, Preset, Rules};
use common::{
    Killed, Run, TempDir, assert_contains, boggle, boggle_in, diagnostics, exit_code, run_boggle,
    spawn_in,
};

/// A board whose words under spec 004's rules include CAT, CATS, DOG and DOGS.
const BOARD: &[u8] = b"CATSDOGSXXXXXXXX\n";

/// Waits for `child` after feeding it `stdin` and draining any stdout still
/// piped (from threads, so neither side can deadlock the test, and a hang
/// fails it); returns its status and stderr.
fn finish(mut child: Killed, stdin: Vec<u8>) -> (Option<i32>, String) {
    let mut input = child.stdin.take().expect("stdin is piped");
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    if let Some(mut out) = child.stdout.take() {
        std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
    }
    let err = child.stderr.take();
    let reader = std::thread::spawn(move || {
        let mut stderr = String::new();
        if let Some(mut err) = err {
            let _ = err.read_to_string(&mut stderr);
        }
        stderr
    });
    let code = exit_code(&mut child, "the binary");
    let _ = writer.join();
    (code, reader.join().expect("stderr is read"))
}

/// The words listed after the summary's rule of `=`.
fn summary_words(run: &Run) -> Vec<&str> {
    let rule = "=".repeat(60);
    run.stdout
        .split_once(&format!("{rule}\n"))
        .map_or(Vec::new(), |(_, words)| words.lines().collect())
}

/// Plays the CATS/DOGS board with `dictionary` as the word file.
fn play_with_dictionary(dir: &TempDir, dictionary: &[u8]) -> Run {
    dir.write("dict.txt", dictionary);
    run_boggle(
        dir.path(),
        &["--dict", "dict.txt"],
        &[BOARD, b"q\n"].concat(),
    )
}

/// Asserts a run failed at runtime with one line on stderr naming `name`.
#[track_caller]
fn assert_fails_naming(run: &Run, name: &str) {
    common::assert_one_line(run, 1, name);
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
}

// ---------------------------------------------------------------------------
// A reader that goes away.

#[test]
fn output_to_a_closed_pipe_exits_quietly() {
    let dir = TempDir::new("closed-pipe");
    dir.write("dict.txt", "cat\ncats\ndog\ndogs\n");
    // `boggle | true`: the reader is gone before the first prompt.
    let mut child = spawn_in(dir.path(), &["--dict", "dict.txt"]);
    drop(child.stdout.take());
    let (code, stderr) = finish(child, [BOARD, b"cat dog\nq\n"].concat());
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(diagnostics(&stderr), "");
    // `boggle | head -c 10`: the reader goes away after the first bytes.
    let mut child = spawn_in(dir.path(), &["--dict", "dict.txt"]);
    let mut out = child.stdout.take().expect("stdout is piped");
    let mut first = [0u8; 10];
    out.read_exact(&mut first).expect("the prompt comes first");
    drop(out);
    let guesses: Vec<u8> = [BOARD, &b"zzz\n".repeat(100_000)].concat();
    let (code, stderr) = finish(child, guesses);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(diagnostics(&stderr), "");
    // `boggle --help | true`
    let mut child = spawn_in(dir.path(), &["--help"]);
    drop(child.stdout.take());
    let (code, stderr) = finish(child, Vec::new());
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn solve_into_head_exits_quietly() {
    // `boggle solve ... | head -1`: far more output than a pipe buffer holds.
    let dir = TempDir::new("solve-head");
    dir.write("dict.txt", "cat\ncats\ndog\ndogs\ntac\ngod\n");
    dir.write("board.txt", "2 4\nC A T S\nD O G S\n");
    let mut args = vec!["solve", "--dict", "dict.txt"];
    args.extend(std::iter::repeat_n("board.txt", 20_000));
    let mut child = spawn_in(dir.path(), &args);
    let mut out = child.stdout.take().expect("stdout is piped");
    let mut first = [0u8; 4];
    out.read_exact(&mut first)
        .expect("the first word comes first");
    drop(out);
    let (code, stderr) = finish(child, Vec::new());
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(diagnostics(&stderr), "");
}

#[test]
fn a_full_disk_is_a_runtime_failure_not_a_panic() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return;
    };
    let dir = TempDir::new("full-disk");
    dir.write("dict.txt", "cat\n");
    let run = boggle_in(dir.path(), ["--dict", "dict.txt"])
        .stdout(full)
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&run.stderr);
    let stderr = diagnostics(&stderr);
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("boggle: ") && !stderr.contains("panicked"),
        "{stderr}"
    );
}

#[test]
fn an_error_with_nowhere_to_say_it_still_exits_with_its_status() {
    let dir = TempDir::new("closed-stderr");
    let mut child = spawn_in(dir.path(), &["--dict", "missing.txt"]);
    drop(child.stderr.take());
    let (code, _) = finish(child, b"\nq\n".to_vec());
    assert_eq!(code, Some(1));
}

// ---------------------------------------------------------------------------
// Dictionary files.

#[test]
fn dictionaries_that_cannot_be_used_are_named() {
    let dir = TempDir::new("bad-dict");
    let stdin = [BOARD, b"q\n"].concat();
    let missing = run_boggle(dir.path(), &["--dict", "missing.txt"], &stdin);
    assert_fails_naming(&missing, "missing.txt");
    std::fs::create_dir(dir.path().join("a-directory")).expect("temp dir is writable");
    let directory = run_boggle(dir.path(), &["--dict", "a-directory"], &stdin);
    assert_fails_naming(&directory, "a-directory");
    dir.write("empty.txt", "");
    let empty = run_boggle(dir.path(), &["--dict", "empty.txt"], &stdin);
    assert_fails_naming(&empty, "empty.txt");
    assert_contains(&empty.stderr, "holds no words");
    dir.write("numbers.txt", "12\n3.5\n\n--\n");
    let numbers = run_boggle(dir.path(), &["--dict", "numbers.txt"], &stdin);
    assert_fails_naming(&numbers, "numbers.txt");
}

#[test]
fn an_endless_dictionary_is_refused_not_read_forever() {
    let zero = Path::new("/dev/zero");
    if !zero.exists() {
        return;
    }
    let dir = TempDir::new("endless-dict");
    let run = run_boggle(dir.path(), &["--dict", "/dev/zero"], b"\nq\n");
    assert_fails_naming(&run, "/dev/zero");
    assert_contains(&run.stderr, "larger than 64 MiB");
}

#[cfg(unix)]
#[test]
fn an_unreadable_dictionary_is_named_unless_we_may_read_it_anyway() {
    use std::os::unix::fs::PermissionsExt;
    let dir = TempDir::new("unreadable");
    let path = dir.write("locked.txt", "cat\n");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o000))
        .expect("permissions can be set");
    // Root (as in many containers) reads any file, so expect what the OS allows.
    let readable = std::fs::read(&path).is_ok();
    let run = run_boggle(
        dir.path(),
        &["--dict", "locked.txt"],
        &[BOARD, b"q\n"].concat(),
    );
    if readable {
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        assert_eq!(summary_words(&run), ["CAT"]);
    } else {
        assert_fails_naming(&run, "locked.txt");
        assert_contains(&run.stderr, "ermission");
    }
}

#[test]
fn awkward_but_readable_dictionaries_load() {
    let dir = TempDir::new("odd-dict");
    let cases: [(&str, &[u8], &[&str]); 6] = [
        ("Latin-1", b"caf\xe9\ncat\nna\xefve\ndog\n", &["CAT", "DOG"]),
        ("a BOM", b"\xef\xbb\xbfcat\ndogs\n", &["CAT", "DOGS"]),
        ("CRLF", b"cat\r\ncats\r\ndog\r\n", &["CAT", "CATS", "DOG"]),
        ("NULs", b"c\0at\ncats\0\n\0\ndog\n\0", &["DOG"]),
        ("no final newline", b"dogs\ncat", &["CAT", "DOGS"]),
        ("UTF-16", b"\xff\xfec\0a\0t\0\n\0", &[]),
    ];
    for (what, bytes, words) in cases {
        let run = play_with_dictionary(&dir, bytes);
        if words.is_empty() {
            assert_fails_naming(&run, "dict.txt");
        } else {
            assert_eq!(run.code, Some(0), "{what}: {}", run.stderr);
            assert_eq!(summary_words(&run), words, "{what}");
        }
    }
}

#[test]
fn a_very_long_word_and_a_50_mb_file_load() {
    let dir = TempDir::new("big-dict");
    // A 1,500-letter word cannot be on a 4x4 board, but it must not upset the loader.
    let long = format!("{}\ncat\ndog\n", "ab".repeat(750));
    let run = play_with_dictionary(&dir, long.as_bytes());
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(summary_words(&run), ["CAT", "DOG"]);
    // 50 MB: twenty thousand words, then a word-frequency list ("word<TAB>count"
    // lines, which are not words) to fill it up.
    let mut big = Vec::with_capacity(51_000_000);
    for n in 0u32.. {
        // Z and the letters after it are not on the board, so these add no words to it.
        let letters =
            [n / 17_576, n / 676 % 26, n / 26 % 26, n % 26].map(|i| b'A' + (i % 26) as u8);
        big.push(b'Z');
        big.extend_from_slice(&letters);
        if n >= 20_000 {
            big.extend_from_slice(format!("\t{n}").as_bytes());
        }
        big.push(b'\n');
        if big.len() >= 50_000_000 {
            break;
        }
    }
    big.extend_from_slice(b"cat\ndogs\n");
    let run = play_with_dictionary(&dir, &big);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(summary_words(&run), ["CAT", "DOGS"]);
}

// ---------------------------------------------------------------------------
// Standard input.

/// Plays with `args` in `dir` on `stdin`, and asserts the game ended well
/// (exit 0) and its output says `says`.
#[track_caller]
fn plays_saying(dir: &TempDir, args: &[&str], stdin: &[u8], says: &str) -> Run {
    let run = run_boggle(dir.path(), args, stdin);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_contains(&run.stdout, says);
    run
}

fn dict_dir() -> TempDir {
    let dir = TempDir::new("stdin");
    dir.write("dict.txt", "cat\ncats\ndog\ndogs\n");
    dir
}

#[test]
fn standard_input_closed_at_once_still_gives_the_summary() {
    let dir = dict_dir();
    plays_saying(
        &dir,
        &["--dict", "dict.txt", "--seed", "1"],
        b"",
        "Enter a word (q to quit): You got 0 points and had 0 incorrect guesses.\n",
    );
    let run = boggle_in(dir.path(), ["--dict", "dict.txt"])
        .output()
        .expect("the binary runs");
    assert_eq!(run.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&run.stdout).contains("points possible\n"));
}

#[cfg(unix)]
#[test]
fn standard_input_that_cannot_be_read_still_gives_the_summary_then_says_why() {
    // A directory as standard input: every read fails (EISDIR).
    let dir = dict_dir();
    let stdin = std::fs::File::open(dir.path()).expect("a directory opens");
    let run = boggle_in(dir.path(), ["--dict", "dict.txt", "--seed", "1"])
        .stdin(stdin)
        .output()
        .expect("the binary runs");
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    let stderr = diagnostics(&stderr);
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    assert_contains(&stdout, "You got 0 points and had 0 incorrect guesses.\n");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("boggle: cannot read the input: "),
        "{stderr}"
    );
}

#[cfg(target_os = "linux")]
#[test]
fn output_that_cannot_be_written_is_a_runtime_failure_that_says_so() {
    // /dev/full refuses every write (ENOSPC); a closed pipe, by contrast, is exit 0.
    for args in [&["--help"][..], &["solve", "--board", "CATSDOGSRATSBATS"]] {
        let full = std::fs::File::create("/dev/full").expect("/dev/full opens");
        let run = boggle(args).stdout(full).output().expect("the binary runs");
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(1), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("boggle: cannot write"),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn a_10_mb_line_and_invalid_utf8_are_just_wrong_guesses() {
    let dir = dict_dir();
    let mut stdin = BOARD.to_vec();
    stdin.extend(std::iter::repeat_n(b'c', 10 * 1024 * 1024));
    stdin.extend_from_slice(b"\n\xff\xfe\xc3 ca\xfft\0 cat\nq\n");
    plays_saying(
        &dir,
        &["--dict", "dict.txt"],
        &stdin,
        "You got 1 point and had 3 incorrect guesses.\n",
    );
    // A 10 MB answer to the board prompt: not 16 letters, so a random board.
    let mut stdin = vec![b'A'; 10 * 1024 * 1024];
    stdin.extend_from_slice(b"\nq\n");
    let args = ["--dict", "dict.txt", "--seed", "1"];
    plays_saying(&dir, &args, &stdin, "points possible\n");
}

#[test]
fn a_board_line_of_16_multi_byte_characters_is_refused_with_a_reason() {
    let dir = dict_dir();
    let stdin = "ÄÖÜßÄÖÜßÄÖÜßÄÖÜß\nq\n".as_bytes();
    let args = ["--dict", "dict.txt", "--seed", "1"];
    let run = plays_saying(&dir, &args, stdin, "points possible\n");
    assert_eq!(
        diagnostics(&run.stderr),
        "boggle: \"Ä\" at position 1 is not a letter; using a random board\n"
    );
}

/// Spec 004's transcript, up to the summary: the board's question, the first
/// prompt, then for each wrong guess its answer and the next prompt.
const BOARD_PROMPT: &str =
    "Enter a 16-character long string to run manual tests, or leave empty to get a random board: ";
const FIRST_PROMPT: &str = "Enter a word (q to quit): ";
const PROMPT: &str = "Enter a word: ";
const NOT_WORTH: &str = "\tNot worth any points\n";

/// The child's peak resident memory in kB (Linux), read while it still runs.
fn peak_memory_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Streams `count` distinct wrong guesses into a game, waits until all are
/// answered, and returns the child's peak memory then (if known) and its summary.
fn stream_guesses(dir: &TempDir, count: usize) -> (Option<u64>, String) {
    let mut child = spawn_in(dir.path(), &["--dict", "dict.txt"]);
    let pid = child.id();
    let mut input = child.stdin.take().expect("stdin is piped");
    let writer = std::thread::spawn(move || {
        let mut guesses = BOARD.to_vec();
        for n in 0..count {
            guesses.extend_from_slice(format!("zz{n:07}\n").as_bytes());
        }
        let _ = input.write_all(&guesses);
        input
    });
    // Everything before the summary has a known length: read exactly that much,
    // so the game has answered every guess and is still waiting for more.
    let board = "C A T S\nD O G S\nX X X X\nX X X X\n";
    let before = BOARD_PROMPT.len()
        + board.len()
        + FIRST_PROMPT.len()
        + count * (NOT_WORTH.len() + PROMPT.len());
    let mut out = child.stdout.take().expect("stdout is piped");
    let mut seen = vec![0u8; before];
    out.read_exact(&mut seen).expect("every guess is answered");
    let peak = peak_memory_kb(pid);
    drop(writer.join().expect("the writer finishes"));
    let mut summary = String::new();
    let _ = out.read_to_string(&mut summary);
    assert_eq!(exit_code(&mut child, "the game"), Some(0));
    (peak, summary)
}

#[test]
fn a_million_guesses_are_counted_not_stored() {
    let dir = dict_dir();
    let (small_peak, summary) = stream_guesses(&dir, 1_000);
    assert!(
        summary.starts_with("You got 0 points and had 1000 incorrect guesses.\n"),
        "{summary}"
    );
    let (big_peak, summary) = stream_guesses(&dir, 1_000_000);
    assert!(
        summary.starts_with("You got 0 points and had 1000000 incorrect guesses.\n"),
        "{summary}"
    );
    // Stored, a million 9-letter guesses would take tens of MB; counted, none.
    if let (Some(small), Some(big)) = (small_peak, big_peak) {
        assert!(
            big < small + 8 * 1024,
            "peak memory grew from {small} kB to {big} kB"
        );
    }
}

// ---------------------------------------------------------------------------
// Exit statuses: 0 done, 1 runtime failure, 2 usage.

#[test]
fn documented_exit_statuses() {
    let dir = dict_dir();
    let done = run_boggle(
        dir.path(),
        &["--dict", "dict.txt"],
        &[BOARD, b"q\n"].concat(),
    );
    assert_eq!((done.code, diagnostics(&done.stderr)), (Some(0), ""));
    let runtime = run_boggle(dir.path(), &["--dict", "nope.txt"], b"\nq\n");
    assert_fails_naming(&runtime, "nope.txt");
    let usage_errors: [&[&str]; 7] = [
        &["--bogus"],
        &["--seed", "x"],
        &["--rules", "scrabble"],
        &["--size", "5", "--dice", "new"],
        &["--min-len", "0"],
        // A game flag before a subcommand is refused, not silently dropped.
        &["--dict", "dict.txt", "solve", "--board", "ABCDEFGHIJKLMNOP"],
        &["--rules", "classic", "bench", "--count", "1"],
    ];
    for args in usage_errors {
        let run = run_boggle(dir.path(), args, b"\nq\n");
        assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{args:?}: {}", run.stderr);
        assert!(
            run.stderr.starts_with("boggle: "),
            "{args:?}: {}",
            run.stderr
        );
        assert_eq!(run.stdout, "", "{args:?}: a usage error plays no game");
    }
    let help = run_boggle(dir.path(), &["--help"], b"");
    assert_eq!(help.code, Some(0));
    assert_contains(&help.stdout, "Exit status: 0");
}

/// A 5x5 board of `A`s with the word of 25 `A`s has more paths than could be
/// walked in a lifetime; every mode stops at the search's step budget and says
/// so instead of running for ever.
#[test]
fn a_crafted_board_stops_at_the_search_budget_in_every_mode() {
    let dir = TempDir::new("crafted");
    dir.write("a25.txt", "A".repeat(25));
    let board = "A".repeat(25);
    dir.write("boards.txt", format!("{board}\n"));
    let game = [
        "--rules",
        "classic",
        "--size",
        "5x5",
        "--min-len",
        "3",
        "--dict",
        "a25.txt",
    ];
    let versus: Vec<&str> = std::iter::once("versus").chain(game).collect();
    let solve = [
        "solve", "--dict", "a25.txt", "--size", "5x5", "--board", &board,
    ];
    let bench = [
        "bench",
        "--dict",
        "a25.txt",
        "--size",
        "5x5",
        "--boards",
        "boards.txt",
    ];
    let typed = format!("{board}\nq\n");
    let versus_typed = format!("y\n{board}\n");
    for (args, stdin) in [
        (&solve[..], &typed),
        (&bench[..], &typed),
        (&game[..], &typed),
        (&versus[..], &versus_typed),
    ] {
        let run = run_boggle(dir.path(), args, stdin.as_bytes());
        assert_eq!(run.code, Some(1), "{args:?}: {}", run.stderr);
        let said = run.stderr.contains("passed its limit");
        assert!(said, "{args:?}: {}", run.stderr);
    }
}

/// A signal ends a game in progress the documented way: its summary is still
/// written, then one line says why, and the exit status is 1.
#[cfg(unix)]
#[test]
fn a_signal_mid_game_writes_the_summary_then_exits_1() {
    use std::io::{BufRead, BufReader, Write};
    let dir = TempDir::new("signal-game");
    dir.write("dict.txt", common::EXAMPLE_WORDS.join("\n"));
    for args in [
        &["--dict", "dict.txt"][..],
        &["versus", "--dict", "dict.txt", "--rules", "classic"],
    ] {
        let mut child = spawn_in(dir.path(), args);
        let mut stdin = child.stdin.take().expect("stdin is piped");
        let first = if args[0] == "versus" {
            "y\nNIEHGTIBGUALRWGC\nbag\n"
        } else {
            "NIEHGTIBGUALRWGC\nbag\n"
        };
        stdin.write_all(first.as_bytes()).expect("the game reads");
        stdin.flush().expect("the game reads");
        // Wait until the game has answered the guess, then signal it while it
        // waits for the next one (standard input stays open).
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout is piped"));
        let mut seen = String::new();
        while !seen.contains("Enter a word: ") && !seen.contains("Your score: 1") {
            let mut chunk = Vec::new();
            let read = stdout.read_until(b' ', &mut chunk).expect("stdout reads");
            assert!(read > 0, "{args:?}: the game ended early: {seen}");
            seen.push_str(&String::from_utf8_lossy(&chunk));
        }
        common::signal(child.id(), "TERM");
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut rest).expect("stdout reads");
        let code = exit_code(&mut child, "the game");
        let mut stderr = String::new();
        let mut err = child.stderr.take().expect("stderr is piped");
        err.read_to_string(&mut stderr).expect("stderr reads");
        assert_eq!(code, Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.ends_with("boggle: stopped by a signal\n"),
            "{args:?}: {stderr}"
        );
        let summary = if args[0] == "versus" {
            "It's my turn!"
        } else {
            "You got 1 point"
        };
        assert!(rest.contains(summary), "{args:?}: {seen}{rest}");
        drop(stdin);
    }
}

/// `best` skips a board whose search passes the step budget: it is
/// counted, scored 0 so the chains move on, and never reported.
/// Dice that show only `A` make every board the crafted one; the CLI cannot
/// reach it, as annealing from random letters never fills a board with `A`s.
#[test]
fn best_skips_and_counts_boards_whose_search_passes_the_budget() {
    use boggle_best::{Budget, Options, Progress, Schedule, Space, search};
    let dictionary = Dictionary::from_words(["A".repeat(25)]);
    let mut rules = Rules::sized(Preset::Classic, 5, 5);
    rules.min_len = 3;
    let dice = vec![Die::new("AAAAAA"); 25];
    let space = Space::dice(5, 5, &dice).expect("25 dice for 25 cells");
    let options = Options {
        budget: Budget::Iterations(3),
        threads: 1,
        seed: 1,
        top: 1,
        schedule: Schedule::default(),
        target: None,
        objective: Default::default(),
    };
    let progress = Progress::new();
    let found =
        search(dictionary.trie(), &rules, &space, &options, &progress).expect("the pool starts");
    assert!(progress.skipped() >= 1, "skipped {}", progress.skipped());
    assert_eq!(
        progress.scored(),
        0,
        "a skipped board is not counted as scored"
    );
    assert!(found.is_empty(), "{found:?}");
}

/// A FIFO named `words.txt` in the working directory does
/// not hang the default game or `serve --rules project4`: the list nobody
/// named is refused, with its name, since it is not a regular file.
#[cfg(unix)]
#[test]
fn a_fifo_named_words_txt_is_refused_not_waited_on() {
    let dir = TempDir::new("fifo-words");
    let fifo = dir.path().join("words.txt");
    common::plant(&fifo, common::Plant::Fifo);
    // `finish` fails on a hang rather than waiting for ever.
    let game = spawn_in(dir.path(), &[]);
    let (code, stderr) = finish(game, [BOARD, b"q\n"].concat());
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("words.txt") && stderr.contains("not a regular file"),
        "{stderr}"
    );
    let serve = spawn_in(
        dir.path(),
        &["serve", "--rules", "project4", "--listen", "127.0.0.1:0"],
    );
    let (code, stderr) = finish(serve, Vec::new());
    assert_eq!(code, Some(1), "{stderr}");
    assert_contains(&stderr, "not a regular file");
}
