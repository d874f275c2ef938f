//! Helpers shared by the integration tests: temporary directories, the one
//! way to run the built binary ([`boggle`], [`boggle_in`]: every test that
//! runs it starts there), the one guard that kills a child on drop
//! ([`Killed`]), the one way to wait for a condition ([`wait_until`],
//! [`wait_until_async`]), `boggle serve` on a free port, the one way a
//! test that lacks a tool says it cannot run, and the browser tests' page
//! ([`browser::Page`]).
#![allow(dead_code)]

pub(crate) mod browser;
pub(crate) mod net;
pub(crate) mod pty;
pub(crate) mod shared;
pub(crate) mod strategies;

pub(crate) use shared::{EXAMPLE_WORDS, TempDir, assert_contains, assert_text};

use std::io::{BufRead, Write};
use std::net::SocketAddr;
use std::ops::{Deref, DerefMut};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The built binary, for a shell command line (the pseudo-terminal tests);
/// everything else runs it through [`boggle`].
pub(crate) const BOGGLE: &str = env!("CARGO_BIN_EXE_boggle");

/// `boggle ARGS` as every test runs it, to adjust, then run or spawn:
/// colours off (`NO_COLOR`), standard input empty unless the test pipes it,
/// and nothing from the environment the tests run in that would change what
/// the program does (a batch system's task index, a token or password).
pub(crate) fn boggle<S: AsRef<std::ffi::OsStr>>(args: impl IntoIterator<Item = S>) -> Command {
    let mut command = Command::new(BOGGLE);
    command
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("JOB_COMPLETION_INDEX")
        .env_remove("BOGGLE_TOKEN")
        .env_remove("BOGGLE_PASSWORD")
        .stdin(Stdio::null());
    command
}

/// [`boggle`] in `dir`, which also holds what the program keeps between runs
/// (`XDG_DATA_HOME`, `XDG_STATE_HOME`): never the user's own.
pub(crate) fn boggle_in<S: AsRef<std::ffi::OsStr>>(
    dir: &Path,
    args: impl IntoIterator<Item = S>,
) -> Command {
    let mut command = boggle(args);
    command
        .current_dir(dir)
        .env("XDG_DATA_HOME", dir)
        .env("XDG_STATE_HOME", dir);
    command
}

/// A child process killed and reaped when dropped (so a failing test leaves
/// nothing running), with its process group when it leads one.
pub(crate) struct Killed(pub Child);

impl Drop for Killed {
    fn drop(&mut self) {
        // chromedriver leads a group of its own (`browser::Page`):
        // killing the group takes the browsers it started with it, where
        // killing the driver alone would leave them running, orphaned, after
        // a failed test. For a child that leads no group this finds none.
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.0.id())])
            .stderr(Stdio::null())
            .status();
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Deref for Killed {
    type Target = Child;
    fn deref(&self) -> &Child {
        &self.0
    }
}

impl DerefMut for Killed {
    fn deref_mut(&mut self) -> &mut Child {
        &mut self.0
    }
}

/// Sends `SIG{name}` to process `pid` with the `kill` utility (no unsafe
/// code in tests).
#[track_caller]
pub(crate) fn signal(pid: impl std::fmt::Display, name: &str) {
    let sent = Command::new("kill")
        .args([&format!("-{name}"), &pid.to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success(), "SIG{name} to {pid}");
}

/// How long any one wait may take: only a guard against a hung program; no
/// test depends on how long anything takes.
pub(crate) const HANG_GUARD: Duration = Duration::from_secs(120);

/// Asks `ready` until it gives `Some`, and returns that; fails with
/// `never`'s message once [`HANG_GUARD`] has passed.
#[track_caller]
#[expect(
    clippy::disallowed_methods,
    reason = "a poll: a pause between looks, in a loop bounded by a deadline"
)]
pub(crate) fn wait_until<T>(
    mut ready: impl FnMut() -> Option<T>,
    never: impl FnOnce() -> String,
) -> T {
    let give_up = Instant::now() + HANG_GUARD;
    loop {
        if let Some(value) = ready() {
            return value;
        }
        assert!(Instant::now() < give_up, "{}", never());
        // How often a wait looks again.
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// [`wait_until`] for a test on a tokio runtime: `ready` and `never` are
/// awaited, and the wait sleeps on the runtime's timer.
#[expect(
    clippy::disallowed_methods,
    reason = "a poll: a pause between looks, in a loop bounded by a deadline"
)]
pub(crate) async fn wait_until_async<T>(
    mut ready: impl AsyncFnMut() -> Option<T>,
    never: impl AsyncFnOnce() -> String,
) -> T {
    let give_up = Instant::now() + HANG_GUARD;
    loop {
        if let Some(value) = ready().await {
            return value;
        }
        if Instant::now() >= give_up {
            panic!("{}", never().await);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

impl TempDir {
    /// A fresh directory (as [`TempDir::new`]) holding `files`, each a
    /// name and its contents.
    pub(crate) fn with<C: AsRef<[u8]>>(tag: &str, files: &[(&str, C)]) -> TempDir {
        let dir = TempDir::new(tag);
        for (name, contents) in files {
            dir.write(name, contents);
        }
        dir
    }
}

/// Whether this run is under continuous integration (`CI=true`), where every
/// tool a test needs must be installed.
pub(crate) fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// Says a test cannot run because `why`, and returns so the caller can stop:
/// under `CI=true` it fails the test instead, so a missing tool never passes
/// there. The note goes to the process's standard error, not through
/// `eprintln!`, which the harness captures and shows only for a failing test.
#[track_caller]
pub(crate) fn cannot_run(why: &str) {
    assert!(!under_ci(), "CI=true and {why}");
    let _ = writeln!(std::io::stderr(), "skipped: {why}");
}

/// Whether `tool` is on PATH (it runs with `--version`).
pub(crate) fn found(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok()
}

/// A command line's words, split at white space: `args("--seed 7 --top 2")`
/// (no word of it holds a space).
pub(crate) fn args(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// What a run of the binary produced.
pub(crate) struct Run {
    pub stdout: String,
    pub stderr: String,
    pub code: Option<i32>,
}

/// Starts `boggle ARGS` in `dir` ([`boggle_in`]) with every stream piped.
pub(crate) fn spawn_in(dir: &Path, args: &[&str]) -> Killed {
    Killed(
        boggle_in(dir, args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts"),
    )
}

/// Runs `boggle` with `args` in `dir`, feeding `stdin` and closing it.
pub(crate) fn run_boggle(dir: &Path, args: &[&str], stdin: &[u8]) -> Run {
    let mut child = boggle_in(dir, args)
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
pub(crate) fn serve(args: &[&str]) -> (Killed, SocketAddr) {
    let mut server = Killed(
        boggle(["serve", "--listen", "127.0.0.1:0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("boggle serve starts"),
    );
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

/// All that `child` wrote to its piped standard error, read to the end.
pub(crate) fn stderr_of(child: &mut Child) -> String {
    let mut stderr = String::new();
    let mut pipe = child.stderr.take().expect("stderr is piped");
    std::io::Read::read_to_string(&mut pipe, &mut stderr).expect("stderr is read");
    stderr
}

/// Waits for `child` to exit and returns its exit code; fails if it is
/// still running after [`HANG_GUARD`] (its [`Killed`] guard then stops it).
#[track_caller]
pub(crate) fn exit_code(child: &mut Child, what: &str) -> Option<i32> {
    let status = wait_until(
        || child.try_wait().expect("the child can be waited for"),
        || format!("{what} did not exit"),
    );
    status.code()
}

/// Today's number (or `date`'s) and its board as `boggle daily` prints
/// them, the faces row-major in capitals (`QU` for Qu), as the page names them.
pub(crate) fn daily_board(date: Option<&str>) -> (u64, String) {
    let mut command = boggle(["daily"]);
    if let Some(date) = date {
        command.args(["--date", date]);
    }
    let out = command.output().expect("boggle daily runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let number = text
        .strip_prefix("Daily board #")
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("the day's number");
    let board = text
        .lines()
        .skip(1)
        .flat_map(str::split_whitespace)
        .map(str::to_ascii_uppercase)
        .collect();
    (number, board)
}

/// The words of a board (faces row-major, `QU` for Qu) under classic rules
/// with the built-in list, as `boggle solve` lists them.
pub(crate) fn solved(faces: &str) -> Vec<String> {
    let letters = faces.replace("QU", "Qu");
    let out = boggle(["solve", "--rules", "classic", "--board", &letters])
        .output()
        .expect("boggle solve runs");
    String::from_utf8(out.stdout)
        .expect("UTF-8")
        .lines()
        .filter(|line| !line.starts_with("Score"))
        .map(str::to_string)
        .collect()
}

/// The longest word of a board (the last of them, if several), as [`solved`] finds them.
pub(crate) fn longest_word(faces: &str) -> String {
    solved(faces)
        .into_iter()
        .max_by_key(String::len)
        .expect("a word on the board")
}

/// What a run wrote to stderr besides the `words: ...` line that names the
/// word list at the start of every game.
pub(crate) fn diagnostics(stderr: &str) -> &str {
    match stderr.strip_prefix("words: ") {
        Some(rest) => rest.split_once('\n').map_or("", |(_, after)| after),
        None => stderr,
    }
}

/// A failure as the user sees it: exit status `code` and one line on
/// stderr, which starts `boggle: ` and says `says`.
#[track_caller]
pub(crate) fn assert_one_line(run: &Run, code: i32, says: &str) {
    assert_eq!(run.code, Some(code), "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{:?}", run.stderr);
    assert!(
        run.stderr.starts_with("boggle: ") && run.stderr.contains(says),
        "{:?} should say {says:?}",
        run.stderr
    );
}

/// A refusal as the user sees it: exit status 2, nothing on stdout and one
/// line on stderr, which says `says`.
#[track_caller]
pub(crate) fn assert_refused(run: &Run, says: &str) {
    assert_one_line(run, 2, says);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
}

/// Asserts that a tool's run `out` succeeded, showing what it wrote when
/// not: `what` says which tool and what it found.
#[track_caller]
pub(crate) fn assert_clean(out: &Output, what: &str) {
    assert!(
        out.status.success(),
        "{what}:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// What a test plants under a file's name to see it refused.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Plant<'a> {
    /// A FIFO, which blocks whoever opens it to read without a writer.
    Fifo,
    /// A symbolic link to `target` (dangling if nothing is there).
    Link(&'a Path),
    /// A sparse file of this many bytes (nothing written: it costs no disk).
    Sparse(u64),
}

/// Puts `plant` at `path`.
#[cfg(unix)]
pub(crate) fn plant(path: &Path, plant: Plant) {
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
