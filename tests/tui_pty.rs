//! `boggle tui` driven through a real pseudo-terminal (util-linux `script`):
//! the game starts, takes keys, ends, and leaves the alternate screen on the
//! way out, both from the end screen and on Ctrl-C; playing again records
//! every game. Skipped, with a note, where
//! `script` is not installed. Without a terminal it refuses, with a usage error.

mod common;

use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use common::TempDir;

/// What crossterm writes to leave the alternate screen.
const LEAVE_ALTERNATE_SCREEN: &[u8] = b"\x1b[?1049l";
/// Only a guard against a hung game; no test depends on how long anything takes.
const HANG_GUARD: Duration = Duration::from_secs(60);

/// A game running under `script` on an 80x24 pseudo-terminal.
struct Pty {
    child: Child,
    keys: ChildStdin,
    chunks: Receiver<Vec<u8>>,
    output: Vec<u8>,
    /// Where the last awaited text ended: the next wait looks only after it.
    seen: usize,
}

impl Pty {
    /// Starts `boggle tui ARGS`, or returns `None` when `script` is missing.
    fn start(dir: &TempDir, args: &str) -> Option<Pty> {
        let found = Command::new("script")
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|status| status.success());
        if !found {
            let note =
                "note: util-linux `script` is not installed; skipping the pseudo-terminal test";
            let _ = writeln!(std::io::stderr(), "{note}");
            return None;
        }
        let binary = env!("CARGO_BIN_EXE_boggle");
        // The pty starts 0x0 when script's stdin is a pipe; give it a real size.
        let command = format!("stty rows 24 cols 80 && exec '{binary}' tui {args}");
        let mut child = Command::new("script")
            .args(["-qfec", &command, "/dev/null"])
            .current_dir(dir.path())
            .env("TERM", "xterm")
            .env("NO_COLOR", "1")
            .env("XDG_DATA_HOME", dir.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("script starts");
        let keys = child.stdin.take().expect("stdin is piped");
        let mut stdout = child.stdout.take().expect("stdout is piped");
        let (send, chunks) = mpsc::channel();
        std::thread::spawn(move || {
            let mut buffer = [0u8; 4096];
            while let Ok(n @ 1..) = stdout.read(&mut buffer) {
                if send.send(buffer[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        Some(Pty {
            child,
            keys,
            chunks,
            output: Vec::new(),
            seen: 0,
        })
    }

    /// Reads the screen's output until `text` has been drawn after the last
    /// text waited for. Screens are drawn as changes, cell by cell, so `text`
    /// must be one word not in the same place on the screen before.
    fn wait_for(&mut self, text: &str) {
        let give_up = Instant::now() + HANG_GUARD;
        loop {
            if let Some(at) = find(&self.output[self.seen..], text.as_bytes()) {
                self.seen += at + text.len();
                return;
            }
            let left = give_up.saturating_duration_since(Instant::now());
            match self.chunks.recv_timeout(left) {
                Ok(chunk) => self.output.extend(chunk),
                Err(_) => {
                    let _ = self.child.kill();
                    panic!(
                        "never drew {text:?}; output:\n{}",
                        String::from_utf8_lossy(&self.output)
                    );
                }
            }
        }
    }

    /// Types `keys` into the terminal.
    fn send(&mut self, keys: &[u8]) {
        self.keys.write_all(keys).expect("keys reach script");
        self.keys.flush().expect("keys reach script");
    }

    /// Waits for the game to exit; its status and everything it drew.
    fn finish(mut self) -> (ExitStatus, Vec<u8>) {
        let status = self.child.wait().expect("script exits");
        self.output.extend(self.chunks.iter().flatten());
        (status, self.output)
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    find(haystack, needle).is_some()
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn dictionary(dir: &TempDir) -> String {
    let path = dir.write("words.txt", "EAT\nTEA\nATE\nLATE\nTALE\n");
    path.display().to_string()
}

#[test]
fn a_game_played_on_a_pty_ends_and_restores_the_terminal() {
    let dir = TempDir::new("tui-pty");
    let args = format!(
        "--time 0 --seed 7 --no-record --dict '{}'",
        dictionary(&dir)
    );
    let Some(mut pty) = Pty::start(&dir, &args) else {
        return;
    };
    // Keys are sent only once the screen is drawn: raw mode is on by then,
    // so Ctrl-D and Ctrl-C arrive as keys rather than as signals.
    pty.wait_for("Found:");
    pty.send(b"eat\r\x04");
    pty.wait_for("missed");
    pty.send(b"q");
    let (status, output) = pty.finish();
    assert!(status.success(), "{status:?}");
    assert!(contains(&output, LEAVE_ALTERNATE_SCREEN));
    assert!(output.ends_with(b"\x1b[?25h"), "the cursor is shown again");
}

#[test]
fn ctrl_c_after_the_time_runs_out_restores_the_terminal() {
    let dir = TempDir::new("tui-pty-time");
    let args = format!("--time 1 --no-record --dict '{}'", dictionary(&dir));
    let Some(mut pty) = Pty::start(&dir, &args) else {
        return;
    };
    pty.wait_for("missed");
    pty.send(b"\x03");
    let (status, output) = pty.finish();
    assert!(status.success(), "{status:?}");
    assert!(contains(&output, LEAVE_ALTERNATE_SCREEN));
}

#[cfg(target_os = "linux")]
#[test]
fn a_kill_mid_game_restores_the_terminal_and_says_why() {
    let dir = TempDir::new("tui-pty-kill");
    let args = format!("--time 0 --no-record --dict '{}'", dictionary(&dir));
    let Some(mut pty) = Pty::start(&dir, &args) else {
        return;
    };
    pty.wait_for("Found:");
    // `script` runs the shell, which execs boggle: its only child.
    let script = pty.child.id();
    let children = std::fs::read_to_string(format!("/proc/{script}/task/{script}/children"))
        .expect("script's children are listed");
    let boggle = children.split_whitespace().next().expect("boggle runs");
    let killed = Command::new("sh")
        .args(["-c", &format!("kill -TERM {boggle}")])
        .status()
        .expect("sh runs");
    assert!(killed.success());
    let (status, output) = pty.finish();
    assert_eq!(status.code(), Some(1), "a signal is not a normal exit");
    assert!(contains(&output, LEAVE_ALTERNATE_SCREEN));
    assert!(contains(&output, b"stopped by a signal"));
}

#[test]
fn without_a_terminal_it_says_so() {
    let dir = TempDir::new("tui-no-tty");
    let run = common::run_boggle(dir.path(), &["tui", "--no-record"], b"");
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr,
        "boggle: boggle tui needs a terminal; pipe words into 'boggle' instead\n"
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
    let dir = TempDir::new("tui-pty-again");
    let args = format!("--time 0 --seed 7 --dict '{}'", dictionary(&dir));
    let Some(mut pty) = Pty::start(&dir, &args) else {
        return;
    };
    pty.wait_for("Found:");
    pty.send(b"\x04");
    // The record note, then the session's line.
    pty.wait_for("here,");
    pty.wait_for("Session:");
    // Enter on the end screen: a new board, the same rules and time.
    pty.send(b"\r");
    pty.wait_for("New");
    pty.send(b"\x04");
    pty.wait_for("here,");
    pty.wait_for("Session:");
    pty.wait_for("games");
    pty.send(b"q");
    let (status, output) = pty.finish();
    assert!(status.success(), "{status:?}");
    assert!(contains(&output, LEAVE_ALTERNATE_SCREEN));
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
