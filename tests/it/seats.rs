//! One seat, one client, with real `boggle serve` and `boggle join`
//! processes: a second `boggle join` of a seat on one machine is refused at
//! once and takes nothing; a client whose seat another connection takes
//! with its token says so and does not rejoin (the two used to take the
//! seat from each other until one gave up); what is planted in the seat
//! folder (a FIFO, a link to `/dev/zero`, a 3 GB file) is refused in one
//! line and the game goes on; a seat of long wide names is kept.

use std::path::Path;
use std::process::Stdio;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::common::browser::lines_of;
use crate::common::{Killed, TempDir, boggle, exit_code, serve};
#[cfg(unix)]
use crate::common::{Plant, plant};

/// The room's board; three players needed, so no round starts and the
/// clients wait in the lobby.
const SERVER: &[&str] = &["--board", "BENHLAUMITLZRGAN", "--min-players", "3"];

/// The longest any wait here may take (a guard against hangs only).
const GUARD: Duration = Duration::from_secs(60);

/// A line-mode `boggle join ADDR --name NAME ARGS` keeping its seat under
/// `state` (its standard input held open, so it stays in the lobby), and
/// its standard output's and error's lines.
struct Join {
    child: Killed,
    out: mpsc::Receiver<String>,
    err: mpsc::Receiver<String>,
    _input: Option<std::process::ChildStdin>,
}

impl Join {
    fn start(state: &Path, addr: &str, name: &str, args: &[&str]) -> Join {
        let mut child = boggle(["join", addr, "--name", name])
            .args(args)
            .env("XDG_STATE_HOME", state)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("boggle join starts");
        let out = lines_of(child.stdout.take().expect("stdout"));
        let err = lines_of(child.stderr.take().expect("stderr"));
        let input = child.stdin.take();
        Join {
            child: Killed(child),
            out,
            err,
            _input: input,
        }
    }

    /// Waits for a line of standard output starting with `prefix`.
    fn says(&self, prefix: &str) -> String {
        wait_line(&self.out, prefix, "standard output")
    }

    /// Waits for a line of standard error starting with `prefix`.
    fn notes(&self, prefix: &str) -> String {
        wait_line(&self.err, prefix, "standard error")
    }

    /// Its exit code, waited for, and every line of standard error it wrote.
    fn ended(mut self) -> (Option<i32>, Vec<String>) {
        let code = exit_code(&mut self.child, "boggle join");
        let lines = drain(&self.err);
        (code, lines)
    }

    fn running(&mut self) -> bool {
        self.child.0.try_wait().expect("waitable").is_none()
    }
}

/// The next line of `lines` starting with `prefix` (earlier ones are dropped).
#[expect(clippy::disallowed_methods, reason = "a deadline that bounds a wait")]
fn wait_line(lines: &mpsc::Receiver<String>, prefix: &str, which: &str) -> String {
    let give_up = Instant::now() + GUARD;
    let mut seen = Vec::new();
    loop {
        let left = give_up.saturating_duration_since(Instant::now());
        match lines.recv_timeout(left) {
            Ok(line) if line.starts_with(prefix) => return line,
            Ok(line) => seen.push(line),
            Err(_) => panic!("no line starting {prefix:?} on {which}; saw {seen:#?}"),
        }
    }
}

/// Every line `lines` holds until its writer closes it.
fn drain(lines: &mpsc::Receiver<String>) -> Vec<String> {
    let mut all = Vec::new();
    while let Ok(line) = lines.recv_timeout(GUARD) {
        all.push(line);
    }
    all
}

/// `boggle serve` with [`SERVER`]'s options; its address as text.
fn server() -> (Killed, String) {
    let (child, addr) = serve(SERVER);
    (child, addr.to_string())
}

/// Two `boggle join` of one seat on one machine used to share its seat
/// file and take the seat from each other about 40 times in 20 s. The
/// second is now told at once that the seat is in use, and the first plays on.
#[test]
fn a_second_join_of_one_seat_is_told_at_once_and_takes_nothing() {
    let dir = TempDir::new("seat-twice");
    let (_server, addr) = server();
    let mut first = Join::start(dir.path(), &addr, "ann", &[]);
    first.says("joined room main as ann");
    first.notes("token: ");
    let second = Join::start(dir.path(), &addr, "ann", &[]);
    let (code, err) = second.ended();
    assert_eq!(code, Some(1), "{err:#?}");
    assert_eq!(err.len(), 1, "{err:#?}");
    assert!(
        err[0].starts_with(&format!(
            "boggle: {addr}: this seat is in use by another boggle join on this machine"
        )),
        "{err:#?}"
    );
    // The first kept its seat: no drop, no rejoin.
    assert!(first.running());
    let noted: Vec<String> = first.err.try_iter().collect();
    assert!(noted.is_empty(), "{noted:#?}");
}

/// A client whose seat another connection takes with its token (here a
/// `boggle join --token` from another machine) is told why by the server
/// and ends saying so, without rejoining; the other keeps the seat.
#[test]
fn a_client_whose_seat_is_taken_says_so_and_does_not_rejoin() {
    let here = TempDir::new("seat-here");
    let there = TempDir::new("seat-there");
    let (_server, addr) = server();
    let first = Join::start(here.path(), &addr, "ann", &[]);
    first.says("joined room main as ann");
    let token = first.notes("token: ");
    let token = token.trim_start_matches("token: ").to_string();
    let mut second = Join::start(there.path(), &addr, "ann", &["--token", &token]);
    second.says("joined room main as ann");
    let (code, err) = first.ended();
    assert_eq!(code, Some(1), "{err:#?}");
    assert_eq!(
        err,
        [format!(
            "boggle: {addr}: another connection took this seat with its token (a boggle join elsewhere, or a browser): this one stops and does not rejoin"
        )]
    );
    assert!(second.running());
    let noted: Vec<String> = second.err.try_iter().collect();
    assert!(
        !noted.iter().any(|line| line.contains("connection lost")),
        "{noted:#?}"
    );
}

/// What may be planted under a seat file's name: a FIFO (which hung
/// `join`), a link to `/dev/zero` and a 3 GB sparse file (which cost 2-3 GB
/// of memory, read whole for a token of at most 129 bytes). Each is refused
/// in one line, unread, and the game goes on without keeping the seat.
#[cfg(unix)]
#[test]
fn a_planted_seat_file_is_refused_in_one_line_and_the_game_goes_on() {
    let (_server, addr) = server();
    let plants = [
        ("a FIFO", Plant::Fifo),
        ("a symbolic link", Plant::Link(Path::new("/dev/zero"))),
        ("larger than 4096 bytes", Plant::Sparse(3 << 30)),
    ];
    for (n, (what, planted)) in plants.into_iter().enumerate() {
        let dir = TempDir::new("seat-planted");
        let seats = dir.path().join("boggle/seats");
        std::fs::create_dir_all(&seats).expect("the seats folder");
        let name = format!("ann{n}");
        let file = seats.join(format!("{name}@main@{}", addr.replace(':', "%3A")));
        plant(&file, planted);
        let join = Join::start(dir.path(), &addr, &name, &[]);
        let refused = join.notes("boggle: ");
        assert!(
            refused.contains(&file.display().to_string())
                && refused.contains(what)
                && refused.ends_with("; the seat is not kept for the next run"),
            "{refused}"
        );
        join.says(&format!("joined room main as {name}"));
        drop(join);
    }
}

/// A room and a name of 20 wide (CJK) characters each made the seat file's
/// name too long for the file system, so the seat was not kept. Now it is
/// kept, under a name shortened with a hash.
#[test]
fn a_seat_of_long_wide_names_is_kept() {
    let dir = TempDir::new("seat-wide");
    let (_server, addr) = server();
    let room = "鬱".repeat(20);
    let name = "龜".repeat(20);
    let join = Join::start(dir.path(), &addr, &name, &["--room", &room]);
    join.says("joined room ");
    let token = join.notes("token: ");
    let token = token.trim_start_matches("token: ");
    drop(join);
    let kept: Vec<_> = std::fs::read_dir(dir.path().join("boggle/seats"))
        .expect("the seats folder")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| !path.to_string_lossy().ends_with(".lock"))
        .collect();
    assert_eq!(kept.len(), 1, "{kept:?}");
    let held = std::fs::read_to_string(&kept[0]).expect("the seat file");
    assert_eq!(held.trim(), token);
}
