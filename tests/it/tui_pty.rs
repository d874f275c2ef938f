//! `boggle tui` driven through a real pseudo-terminal (util-linux `script`):
//! the game starts, takes keys, ends, and leaves the alternate screen on the
//! way out, both from the end screen and on Ctrl-C; playing again records
//! every game; a terminal that goes away ends it. Skipped, with a note, where
//! `script` is not installed (failing under `CI=true`). Without a terminal it refuses (exit 1).

use crate::common;

use std::process::Command;

use common::TempDir;
use common::pty::{Pty, contains};

/// What crossterm writes to leave the alternate screen.
const LEAVE_ALTERNATE_SCREEN: &[u8] = b"\x1b[?1049l";

/// Starts `boggle tui FLAGS --dict D` on a pseudo-terminal in a fresh
/// directory named after `tag`, with [`dictionary`] in it as D; `None` when
/// `script` is missing.
fn start_tui(tag: &str, flags: &str) -> Option<(TempDir, Pty)> {
    let dir = TempDir::new(tag);
    let command = format!(
        "exec '{}' tui {flags} --dict '{}'",
        common::BOGGLE,
        dictionary(&dir)
    );
    Pty::start(&dir, &command).map(|pty| (dir, pty))
}

/// Waits for the program to end and asserts that it succeeded and left the
/// alternate screen; what it wrote.
#[track_caller]
fn ends_restored(pty: Pty) -> Vec<u8> {
    let (status, output) = pty.finish();
    assert!(
        status.success(),
        "{status:?}\n{}",
        String::from_utf8_lossy(&output)
    );
    assert!(contains(&output, LEAVE_ALTERNATE_SCREEN));
    output
}

fn dictionary(dir: &TempDir) -> String {
    let path = dir.write("words.txt", "EAT\nTEA\nATE\nLATE\nTALE\n");
    path.display().to_string()
}

#[test]
fn a_game_played_on_a_pty_ends_and_restores_the_terminal() {
    let Some((_dir, mut pty)) = start_tui("tui-pty", "--time 0 --seed 7 --no-record") else {
        return;
    };
    // Keys are sent only once the screen is drawn: raw mode is on by then,
    // so Ctrl-D and Ctrl-C arrive as keys rather than as signals.
    pty.talk(&[("Found:", "eat\r\x04"), ("missed", ""), ("quit", "q")]);
    let output = ends_restored(pty);
    assert!(output.ends_with(b"\x1b[?25h"), "the cursor is shown again");
}

#[test]
fn ctrl_c_after_the_time_runs_out_restores_the_terminal() {
    let Some((_dir, mut pty)) = start_tui("tui-pty-time", "--time 1 --no-record") else {
        return;
    };
    pty.talk(&[("missed", "\x03")]);
    ends_restored(pty);
}

#[cfg(target_os = "linux")]
#[test]
fn a_kill_mid_game_restores_the_terminal_and_says_why() {
    let Some((_dir, mut pty)) = start_tui("tui-pty-kill", "--time 0 --no-record") else {
        return;
    };
    pty.wait_for("Found:");
    let boggle = pty.program_pid();
    common::signal(boggle, "TERM");
    let (status, output) = pty.finish();
    assert_eq!(status.code(), Some(1), "a signal is not a normal exit");
    assert!(contains(&output, LEAVE_ALTERNATE_SCREEN));
    assert!(contains(&output, b"stopped by a signal"));
}

#[test]
fn without_a_terminal_it_says_so() {
    let dir = TempDir::new("tui-no-tty");
    let run = common::run_boggle(dir.path(), &["tui", "--no-record"], b"");
    // No terminal is a runtime condition, not a usage error.
    assert_eq!(run.code, Some(1));
    assert_eq!(
        run.stderr,
        "boggle: the tui needs a terminal on standard input and output; \
         pipe words into 'boggle' for the console game\n"
    );
    assert_eq!(run.stdout, "");
    let run = common::run_boggle(dir.path(), &["tui", "--rules", "ece209"], b"");
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr
            .contains("play them with 'boggle --rules ece209'")
    );
}

#[test]
fn play_again_deals_a_new_board_records_each_game_and_keeps_the_session() {
    let Some((dir, mut pty)) = start_tui("tui-pty-again", "--time 0 --seed 7") else {
        return;
    };
    // The record note, then the session's line, then (a moment later) the keys.
    pty.talk(&[
        ("Found:", "\x04"),
        ("here,", ""),
        ("Session:", ""),
        ("board", ""),
    ]);
    // Enter on the end screen: a new board, the same rules and time.
    pty.send(b"\r");
    pty.talk(&[
        ("New", "\x04"),
        ("here,", ""),
        ("Session:", ""),
        ("games", ""),
        ("board", "q"),
    ]);
    ends_restored(pty);
    let records = std::fs::read_to_string(dir.path().join("boggle/records.tsv"))
        .expect("the records are written");
    let games: Vec<&str> = records
        .lines()
        .skip(1)
        .map(|line| line.split('\t').nth(4).unwrap_or(""))
        .collect();
    assert_eq!(
        games,
        ["2"],
        "both games recorded under one key:\n{records}"
    );
}

/// A terminal that goes away without a signal (its emulator killed) ends the
/// game: crossterm's reads used to spin on it for ever, at full speed.
#[cfg(target_os = "linux")]
#[test]
fn a_terminal_that_goes_away_ends_the_game() {
    let Some((_dir, mut pty)) = start_tui("tui-pty-gone", "--time 0 --no-record") else {
        return;
    };
    pty.wait_for("Found:");
    let boggle = pty.program_pid();
    pty.hang_up(&boggle);
}

/// Keys still being typed when the time runs out (the Enter of a word, a
/// `q`) do not dismiss the end screen: it takes keys only a moment later.
#[test]
fn a_late_key_does_not_throw_away_the_end_screen() {
    let Some((_dir, mut pty)) = start_tui("tui-pty-late", "--time 2 --seed 4 --no-record") else {
        return;
    };
    pty.talk(&[("Found:", "ro"), ("missed", "")]);
    // Typed across the end of the turn: a word's last letter, its Enter, a q.
    pty.send(b"b\rq");
    // The end screen is still up (the q was not taken): Ctrl-C ends it.
    pty.talk(&[("board", "x\x03")]);
    let (status, output) = pty.finish();
    assert!(status.success(), "{status:?}");
    let after = output
        .windows(b"missed".len())
        .position(|w| w == b"missed")
        .map_or(&output[..], |at| &output[at..]);
    assert!(
        !contains(after, b"New"),
        "the late Enter dealt no new board"
    );
}

/// The first key after the terminal is resized is acted on at once, even
/// when it arrives with the resize.
#[cfg(target_os = "linux")]
#[test]
fn the_first_key_after_a_resize_is_taken() {
    let Some((_dir, mut pty)) = start_tui("tui-pty-resize", "--time 0 --no-record") else {
        return;
    };
    pty.wait_for("Found:");
    pty.send(b"xyzzy");
    let boggle = pty.program_pid();
    let tty = std::fs::read_link(format!("/proc/{boggle}/fd/0")).expect("the program's terminal");
    let resized = Command::new("stty")
        .args(["-F", &tty.display().to_string(), "rows", "20", "cols", "60"])
        .status()
        .expect("stty runs");
    assert!(resized.success());
    // The Enter comes with the resize: it alone must submit the word.
    pty.send(b"\r");
    pty.talk(&[("dictionary", "\x03")]);
    let (status, _) = pty.finish();
    assert!(status.success(), "{status:?}");
}

/// A pseudo-terminal nobody gave a size (0x0, as `script` makes one when its
/// input is a pipe) is drawn on without a panic, playing and on the end
/// screen (which used to exit 101 in `tui::ui::render`).
#[test]
fn a_terminal_of_no_size_does_not_panic() {
    let dir = TempDir::new("tui-pty-zero");
    let binary = common::BOGGLE;
    let command = format!(
        "stty rows 0 cols 0 && exec '{binary}' tui --time 0 --no-record --dict '{}'",
        dictionary(&dir)
    );
    let Some(mut pty) = Pty::start(&dir, &command) else {
        return;
    };
    // Raw mode is on before the alternate screen is entered: Ctrl-D and
    // Ctrl-C arrive as keys, the end screen is drawn (at 0x0) before the
    // quit is seen.
    pty.talk(&[("\x1b[?1049h", "\x04\x03")]);
    ends_restored(pty);
}
