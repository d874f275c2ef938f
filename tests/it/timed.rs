//! Timers through the built binary: `--time` shows the time left at each
//! prompt, and what was typed when it ran out never reaches the shell. The
//! turn's end, the summary and spec 001's cues on a fake clock are the
//! modes' unit tests (`src/play/modes/timed_tests.rs`).

use crate::common;

use common::{TempDir, assert_contains, run_boggle};

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
    pty.talk(&[
        ("random board: ", "NIEHGTIBGUALRWGC\n"),
        // Half a word, no Enter, when the time runs out...
        ("(q to quit): ", "dat"),
        // ...and the rest of it typed afterwards, as in `date`.
        ("EXITED", "e\n"),
    ]);
    let (_, output) = pty.finish();
    let output = String::from_utf8_lossy(&output);
    assert_contains(&output, "Time's up!");
    assert_contains(&output, "LEFT:[e]");
}
