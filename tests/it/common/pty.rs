//! A shell command run on a real pseudo-terminal (util-linux `script`), for
//! tests of what a player at a terminal sees and types. Where `script` is not
//! installed a test says it cannot run and returns, or fails under `CI=true`
//! ([`super::cannot_run`]).

use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use super::TempDir;

/// Only a guard against a hung program; no test depends on how long anything takes.
const HANG_GUARD: Duration = Duration::from_secs(60);

/// A command running under `script` on an 80x24 pseudo-terminal.
pub(crate) struct Pty {
    pub child: Child,
    keys: ChildStdin,
    chunks: Receiver<Vec<u8>>,
    pub output: Vec<u8>,
    /// Where the last awaited text ended: the next wait looks only after it.
    seen: usize,
}

impl Pty {
    /// Runs the shell `command` in `dir`, or returns `None` when `script` is
    /// missing (failing instead under `CI=true`).
    pub(crate) fn start(dir: &TempDir, command: &str) -> Option<Pty> {
        if !super::found("script") {
            super::cannot_run(
                "no util-linux `script` for the pseudo-terminal tests (apt-get install util-linux)",
            );
            return None;
        }
        // The pty starts 0x0 when script's stdin is a pipe; give it a real size.
        let command = format!("stty rows 24 cols 80 && {command}");
        let mut child = Command::new("script")
            .args(["-qfec", &command, "/dev/null"])
            .current_dir(dir.path())
            .env("TERM", "xterm")
            .env("NO_COLOR", "1")
            .env("XDG_DATA_HOME", dir.path())
            .env("XDG_STATE_HOME", dir.path())
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

    /// Reads the output until `text` has been written after the last text
    /// waited for. A full-screen program draws changes cell by cell, so for it
    /// `text` must be one word not in the same place on the screen before.
    #[expect(clippy::disallowed_methods, reason = "a deadline that bounds a wait")]
    pub(crate) fn wait_for(&mut self, text: &str) {
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
                        "never wrote {text:?}; output:\n{}",
                        String::from_utf8_lossy(&self.output)
                    );
                }
            }
        }
    }

    /// A dialogue: waits for each text in turn ([`Pty::wait_for`]) and types
    /// the keys paired with it ([`Pty::send`]; none when empty).
    pub(crate) fn talk(&mut self, steps: &[(&str, &str)]) {
        for (text, keys) in steps {
            self.wait_for(text);
            if !keys.is_empty() {
                self.send(keys.as_bytes());
            }
        }
    }

    /// Types `keys` into the terminal.
    pub(crate) fn send(&mut self, keys: &[u8]) {
        self.keys.write_all(keys).expect("keys reach script");
        self.keys.flush().expect("keys reach script");
    }

    /// The process id of the program the command runs: `script` runs the
    /// shell, which execs the program, its only child.
    #[cfg(target_os = "linux")]
    pub(crate) fn program_pid(&self) -> String {
        let script = self.child.id();
        let children = std::fs::read_to_string(format!("/proc/{script}/task/{script}/children"))
            .expect("script's children are listed");
        children
            .split_whitespace()
            .next()
            .expect("the program runs")
            .to_string()
    }

    /// Closes the terminal without a signal to the program (SIGKILL to
    /// `script`, which cannot pass anything on), and waits for the program
    /// `pid` to end; fails (killing it) if it goes on without its terminal.
    #[cfg(target_os = "linux")]
    pub(crate) fn hang_up(mut self, pid: &str) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let gone = || {
            !std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| !s.contains(") Z "))
        };
        let never = || {
            let _ = Command::new("kill").args(["-9", pid]).status();
            "the program went on without its terminal".to_string()
        };
        super::wait_until(|| gone().then_some(()), never);
    }

    /// Waits for the command to exit; its status and everything it wrote.
    pub(crate) fn finish(mut self) -> (ExitStatus, Vec<u8>) {
        let status = self.child.wait().expect("script exits");
        self.output.extend(self.chunks.iter().flatten());
        (status, self.output)
    }
}

/// Whether `needle` occurs in `haystack`.
pub(crate) fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    find(haystack, needle).is_some()
}

/// Where `needle` first occurs in `haystack`.
pub(crate) fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}
