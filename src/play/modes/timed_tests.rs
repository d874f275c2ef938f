//! Timers: `--time` in the solo console game (the turn ends when it runs out,
//! the time left shows at each prompt) and spec 001's waiting timer with its
//! cues. Time is a fake clock here, so no test sleeps or measures time.

#![expect(
    clippy::disallowed_types,
    reason = "the tests build rules from a preset; nothing here branches on one"
)]

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use boggle::{Dictionary, Game, Preset, Rules, WordFind};
use boggle_play::modes::boggleish::{self, Answers};
use boggle_play::modes::console::{self, Options};
use boggle_play::player::keyboard::{FakeClock, Scripted, Timed};
use common::{TempDir, assert_text, run_boggle};

fn timed(clock: &FakeClock, lines: &[(u64, &str)]) -> Timed<Scripted, FakeClock> {
    Timed::new(
        Scripted::new(clock.clone(), lines.iter().copied()),
        clock.clone(),
    )
}

#[test]
fn the_console_turn_ends_when_the_time_runs_out() {
    let clock = FakeClock::default();
    // The board is typed at once; two words in 10 s, then a word still being typed at 60 s.
    let mut keys = timed(
        &clock,
        &[
            (0, "NIEHGTIBGUALRWGC"),
            (4, "bag  zzz"),
            (6, "lag"),
            (99, "tag"),
        ],
    );
    let find = WordFind::with_dictionary(Arc::new(Dictionary::from_words(common::EXAMPLE_WORDS)));
    let options = Options {
        rules: Rules::project4(),
        time: Some(Duration::from_secs(60)),
        board: None,
        terminal: false,
    };
    let mut out = Vec::new();
    let mut err = Vec::new();
    let game = console::play_with(&mut keys, &mut out, &mut err, &options, |board| {
        Ok(Game::from_board(board.expect("a typed board"), &find))
    })
    .expect("writes to a Vec succeed");
    let out = String::from_utf8_lossy(&out);
    let expected = format!(
        "{}N I E H\nG T I B\nG U A L\nR W G C\n\
         [60s left] Enter a word (q to quit): \
         [56s left] Enter a word: \tNot worth any points\n\
         [56s left] Enter a word: \
         [50s left] Enter a word: \nTime's up!\n\
         You got 2 points and had 1 incorrect guess.\n\
         There were 23 points possible\n{}\n",
        console::BOARD_PROMPT,
        "=".repeat(60)
    );
    assert!(out.starts_with(&expected), "{out}");
    assert_eq!(game.get_score(), 2);
    assert_eq!(clock.elapsed(), Duration::from_secs(60));
}

/// At a terminal the end of input (Ctrl-D) leaves the cursor on the prompt's
/// line, so the summary starts on a new line there; a piped game's
/// transcript is spec 004's, byte for byte.
#[test]
fn at_a_terminal_the_summary_after_the_end_of_input_starts_on_its_own_line() {
    for (terminal, after_prompt) in [(true, "\nYou got"), (false, "You got")] {
        let clock = FakeClock::default();
        let mut keys = timed(&clock, &[(0, "NIEHGTIBGUALRWGC"), (1, "bag")]);
        let find =
            WordFind::with_dictionary(Arc::new(Dictionary::from_words(common::EXAMPLE_WORDS)));
        let options = Options {
            terminal,
            ..Options::default()
        };
        let mut out = Vec::new();
        console::play_with(&mut keys, &mut out, &mut Vec::new(), &options, |board| {
            Ok(Game::from_board(board.expect("a typed board"), &find))
        })
        .expect("writes to a Vec succeed");
        let out = String::from_utf8_lossy(&out);
        assert!(
            out.contains(&format!("Enter a word: {after_prompt} 1 point")),
            "terminal {terminal}: {out}"
        );
    }
}

#[test]
fn the_boggleish_timer_gives_cues_then_scores_words() {
    let clock = FakeClock::default();
    let mut keys = timed(&clock, &[(30, "TIE QUANT"), (1, "q")]);
    let mut out = Vec::new();
    let answers = Answers {
        seed: Some(13),
        time: Some(12),
    };
    let total = boggleish::play(&mut keys, &mut out, &Rules::preset(Preset::Ece209), answers)
        .expect("writes to a Vec succeed");
    let expected = "E  S  Qu G  \nI  T  N  A  \nI  E  D  N  \nL  R  T  U  \n\
        You have 12 seconds: write down every word you find!\n\
        10 seconds left\n5 seconds left\n4 seconds left\n3 seconds left\n2 seconds left\n1 second left\n\
        Time's up! Enter the words you found.\n\
        Enter a word (q to quit): TIE: 1 point\n\
        Enter a word (q to quit): QUANT: 2 points\n\
        Enter a word (q to quit): Total score: 3 points\n";
    assert_text(&String::from_utf8_lossy(&out), expected);
    assert_eq!(total, 3);
    assert_eq!(clock.elapsed(), Duration::from_secs(12 + 30 + 1));
}

#[test]
fn the_time_flag_shows_the_time_left_at_each_prompt() {
    let dir = TempDir::new("timed");
    dir.write("dict.txt", common::EXAMPLE_WORDS.join("\n"));
    let args = ["--dict", "dict.txt", "--time", "600"];
    let run = run_boggle(dir.path(), &args, b"NIEHGTIBGUALRWGC\nbag\nq\n");
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    // The seconds left depend on the machine's speed, so only the shape is checked.
    let prompts: Vec<&str> = run.stdout.split("s left] ").skip(1).collect();
    assert_eq!(prompts.len(), 2, "{}", run.stdout);
    assert!(prompts[0].starts_with("Enter a word (q to quit): "));
    assert!(
        run.stdout
            .contains("You got 1 point and had 0 incorrect guesses.\n")
    );
    let untimed = run_boggle(
        dir.path(),
        &["--dict", "dict.txt", "--time", "0"],
        b"NIEHGTIBGUALRWGC\nq\n",
    );
    assert!(
        untimed
            .stdout
            .contains("\nEnter a word (q to quit): You got 0 points")
    );
}

/// The shell's view: what is left of the terminal's input when boggle exits
/// is what the next program (the shell) reads.
#[test]
fn typing_left_over_when_the_time_runs_out_never_reaches_the_shell() {
    let dir = common::TempDir::new("leftover");
    dir.write("dict.txt", common::EXAMPLE_WORDS.join("\n"));
    let binary = common::BOGGLE;
    let command = format!(
        "'{binary}' --time 1 --dict dict.txt; echo EXITED; IFS= read -r line; echo \"LEFT:[$line]\""
    );
    let Some(mut pty) = common::pty::Pty::start(&dir, &command) else {
        return;
    };
    pty.wait_for("random board: ");
    pty.send(b"NIEHGTIBGUALRWGC\n");
    pty.wait_for("(q to quit): ");
    // Half a word, no Enter, when the time runs out...
    pty.send(b"dat");
    pty.wait_for("EXITED");
    // ...and the rest of it typed afterwards, as in `date`.
    pty.send(b"e\n");
    let (_, output) = pty.finish();
    let output = String::from_utf8_lossy(&output);
    assert!(output.contains("Time's up!"), "{output}");
    assert!(output.contains("LEFT:[e]"), "{output}");
}
