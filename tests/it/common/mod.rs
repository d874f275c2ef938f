//! Helpers shared by the integration tests: temporary directories, running
//! the built binary with piped standard input, `boggle serve` on a free port,
//! and the one way a test that lacks a tool says it cannot run.
#![allow(dead_code)]

pub mod net;
pub mod pty;

use std::io::{BufRead, Write};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A fresh, empty directory from `tempfile` (removed when dropped), with a
/// helper to fill it.
pub struct TempDir(tempfile::TempDir);

impl TempDir {
    /// A fresh, empty directory whose name starts `boggle-TAG-`.
    pub fn new(tag: &str) -> TempDir {
        let dir = tempfile::Builder::new()
            .prefix(&format!("boggle-{tag}-"))
            .tempdir()
            .expect("temp dir can be created");
        TempDir(dir)
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        self.0.path()
    }

    /// Writes `contents` to `name` inside the directory and returns its path.
    pub fn write(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.0.path().join(name);
        std::fs::write(&path, contents).expect("temp file can be written");
        path
    }
}

/// Whether this run is under continuous integration (`CI=true`), where every
/// tool a test needs must be installed.
pub fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// Says a test cannot run because `why`, and returns so the caller can stop:
/// under `CI=true` it fails the test instead, so a missing tool never passes
/// there. The note goes to the process's standard error, not through
/// `eprintln!`, which the harness captures and shows only for a failing test.
#[track_caller]
pub fn cannot_run(why: &str) {
    assert!(!under_ci(), "CI=true and {why}");
    let _ = writeln!(std::io::stderr(), "skipped: {why}");
}

/// What a run of the binary produced.
pub struct Run {
    pub stdout: String,
    pub stderr: String,
    pub code: Option<i32>,
}

/// Runs `boggle` with `args` in `dir`, feeding `stdin` and closing it.
pub fn run_boggle(dir: &Path, args: &[&str], stdin: &[u8]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_boggle"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        // `boggle join` keeps seat tokens there: never in the user's own.
        .env("XDG_STATE_HOME", dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut input = child.stdin.take().expect("stdin is piped");
    let data = stdin.to_vec();
    // Write from a thread so a program that stops reading early cannot deadlock the test.
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let Output {
        status,
        stdout,
        stderr,
    } = child.wait_with_output().expect("the binary runs");
    let _ = writer.join();
    Run {
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
        code: status.code(),
    }
}

/// `boggle serve --listen 127.0.0.1:0 ARGS`: the child and the address it
/// printed (its standard output is read no further).
pub fn serve(args: &[&str]) -> (Child, SocketAddr) {
    let mut server = Command::new(env!("CARGO_BIN_EXE_boggle"))
        .args(["serve", "--listen", "127.0.0.1:0"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("boggle serve starts");
    let mut first = String::new();
    let stdout = server.stdout.take().expect("stdout is piped");
    std::io::BufReader::new(stdout)
        .read_line(&mut first)
        .expect("boggle serve writes its address");
    let addr = first
        .trim()
        .strip_prefix("listening on ")
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("not a listening line: {first:?}"));
    (server, addr)
}

/// Waits for `child` to exit and returns its exit code; kills it and fails
/// if it is still running after a minute (a guard against hangs only).
pub fn exit_code(child: &mut Child, what: &str) -> Option<i32> {
    let give_up = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(status) = child.try_wait().expect("the child can be waited for") {
            return status.code();
        }
        if Instant::now() > give_up {
            let _ = child.kill();
            panic!("{what} did not exit");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// What a run wrote to stderr besides the `words: ...` line that names the
/// word list at the start of every game.
pub fn diagnostics(stderr: &str) -> &str {
    match stderr.strip_prefix("words: ") {
        Some(rest) => rest.split_once('\n').map_or("", |(_, after)| after),
        None => stderr,
    }
}

/// Asserts two long texts are equal, showing both in full when they are not.
#[track_caller]
pub fn assert_text(got: &str, expected: &str) {
    if got != expected {
        panic!("text differs\n--- expected\n{expected}\n--- got\n{got}\n---");
    }
}

/// The words of spec 004's example board (NIEHGTIBGUALRWGC) under the project4
/// rules with the original words.txt, plus words on the board only by going up.
pub const EXAMPLE_WORDS: &[&str] = &[
    "BAG", "BAL", "BIT", "EIN", "ETA", "GUR", "HEIL", "HIT", "ING", "INT", "INTI", "ITUR", "LAC",
    "LAG", "LAW", "NIT", "TAG", "TALC", "TAU", "TAW", "TIU", "TUA", "TUG", "LIT", "GIT", "WAG",
];

/// What a test plants under a file's name to see it refused.
#[derive(Clone, Copy, Debug)]
pub enum Plant<'a> {
    /// A FIFO, which blocks whoever opens it to read without a writer.
    Fifo,
    /// A symbolic link to `target` (dangling if nothing is there).
    Link(&'a Path),
    /// A sparse file of this many bytes (nothing written: it costs no disk).
    Sparse(u64),
}

/// Puts `plant` at `path`.
#[cfg(unix)]
pub fn plant(path: &Path, plant: Plant) {
    match plant {
        Plant::Fifo => {
            let made = Command::new("mkfifo")
                .arg(path)
                .status()
                .expect("mkfifo runs");
            assert!(made.success(), "a FIFO at {}", path.display());
        }
        Plant::Link(target) => std::os::unix::fs::symlink(target, path).expect("a link"),
        Plant::Sparse(bytes) => std::fs::File::create(path)
            .and_then(|file| file.set_len(bytes))
            .expect("a sparse file"),
    }
}
