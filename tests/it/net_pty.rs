//! `boggle join`'s full screen driven through a real pseudo-terminal
//! (util-linux `script`) against the real `boggle serve`, with a second
//! player speaking the protocol from the test: the lobby, a round with the
//! typed word's path highlighted, leaving mid-round with the command that
//! takes the seat back (and the same command run again taking it), a kill
//! that still restores the terminal, a server that stops (its results
//! printed after the screen, and exit 0), and a
//! terminal that goes away. Skipped, with a note, where `script` is not
//! installed (failing under `CI=true`).

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream};

use boggle_protocol::{ClientMsg, ServerMsg, VERSION, encode};
use common::pty::{Pty, contains, find};
use common::{Killed, TempDir, assert_contains};

/// What crossterm writes to leave the alternate screen.
const LEAVE_ALTERNATE_SCREEN: &[u8] = b"\x1b[?1049l";
/// The escape that turns on reverse video: the board's highlight without colour.
const REVERSE: &[u8] = b"\x1b[7m";

/// A server whose rounds need two players, and bob, the second, connected
/// and ready, reading what the server sends so it never counts as a slow reader.
struct Room {
    // Declared first, so bob's connection closes before the server is killed.
    _bob: TcpStream,
    _server: Killed,
    addr: SocketAddr,
}

impl Room {
    /// A room whose server also takes `args`.
    fn open_with(args: &[&str]) -> Room {
        let mut all = vec!["--board", "BENHLAUMITLZRGAN", "--time", "60"];
        all.extend_from_slice(args);
        let (server, addr) = common::serve(&all);
        let mut bob = TcpStream::connect(addr).expect("bob connects");
        let hello = ClientMsg::Hello {
            version: VERSION,
            name: "bob".into(),
            room: None,
            password: None,
            token: None,
            solo: None,
        };
        for msg in [hello, ClientMsg::Ready] {
            bob.write_all(encode(&msg).as_bytes()).expect("bob writes");
        }
        let reader = bob.try_clone().expect("a second handle");
        std::thread::spawn(move || {
            let mut lines = BufReader::new(reader).lines();
            while let Some(Ok(line)) = lines.next() {
                // Anything else from the server is only for bob.
                let _ = serde_json::from_str::<ServerMsg>(&line);
            }
        });
        Room {
            _bob: bob,
            _server: server,
            addr,
        }
    }

    /// A room whose server also takes `args`, and ann joined to it on a
    /// pseudo-terminal in a fresh directory named after `tag`; `None`
    /// without `script`.
    fn joined(tag: &str, args: &[&str]) -> Option<(TempDir, Room, Pty)> {
        let dir = TempDir::new(tag);
        let room = Room::open_with(args);
        let pty = room.join(&dir)?;
        Some((dir, room, pty))
    }

    /// Starts `boggle join` as ann on a pseudo-terminal, or `None` without `script`.
    fn join(&self, dir: &TempDir) -> Option<Pty> {
        Pty::start(
            dir,
            &format!("exec '{}' join {} --name ann", common::BOGGLE, self.addr),
        )
    }
}

/// Ann in the lobby, then ready: the round starts (bob is ready already).
fn into_a_round(pty: &mut Pty) {
    pty.talk(&[("lobby", ""), ("bob", "\r"), ("your words", "")]);
}

#[test]
fn a_round_on_the_full_screen_traces_the_word_and_leaving_says_how_to_rejoin() {
    let Some((dir, room, mut pty)) = Room::joined("net-pty-round", &[]) else {
        return;
    };
    into_a_round(&mut pty);
    let before = pty.output.len();
    // Only changed cells are redrawn: each letter comes with its own cursor
    // move, the last one as "A_".
    pty.send(b"bea");
    pty.wait_for("A_");
    assert!(
        find(&pty.output[before..], REVERSE).is_some(),
        "the path is drawn in reverse video"
    );
    pty.send(b"\x7f\x7f\x7feat\r");
    // Esc on an empty word asks, a second Esc leaves.
    pty.talk(&[("EAT", "\x1b"), ("leave", "\x1b")]);
    let (status, output) = pty.finish();
    assert!(status.success(), "{status:?}");
    let text = String::from_utf8_lossy(&output);
    let leave = find(&output, LEAVE_ALTERNATE_SCREEN).expect("the terminal is restored");
    // The command alone on its line, to copy whole.
    let command = format!("boggle join {} --name ann --room main --token ", room.addr);
    let rejoin = text
        .find(&format!(
            "to rejoin this round: the same boggle join again here, or elsewhere:\r\n{command}"
        ))
        .unwrap_or_else(|| panic!("no rejoin line in {text}"));
    assert!(rejoin > leave, "printed on the restored terminal");
    let line = text[rejoin..].lines().nth(1).unwrap_or_default();
    assert!(line.starts_with(&command), "{line:?}");
    assert!(
        line.trim_end()[command.len()..]
            .chars()
            .all(|c| c.is_ascii_hexdigit()),
        "the token and nothing after it: {line:?}"
    );
    // And "the same boggle join again here" does: the seat and its word come back.
    takes_the_seat_back(&dir, room.addr);
}

/// Runs the same `boggle join ADDR --name ann` again in `dir` (line mode,
/// no token given) and waits until it has ann's seat back with EAT.
fn takes_the_seat_back(dir: &TempDir, addr: SocketAddr) {
    use std::io::Read;
    let mut back = common::spawn_in(dir.path(), &["join", &addr.to_string(), "--name", "ann"]);
    let mut out = back.stdout.take().expect("piped");
    let mut seen = Vec::new();
    let mut chunk = [0u8; 4096];
    while !contains(&seen, b"found before: EAT +1") {
        let n = out.read(&mut chunk).expect("reads");
        if n == 0 {
            let _ = back.wait();
            let mut err = String::new();
            let _ = back.stderr.take().map(|mut e| e.read_to_string(&mut err));
            panic!("no seat back: {}{err}", String::from_utf8_lossy(&seen));
        }
        seen.extend_from_slice(&chunk[..n]);
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_kill_mid_round_restores_the_terminal_and_says_how_to_rejoin() {
    let Some((_dir, _room, mut pty)) = Room::joined("net-pty-kill", &[]) else {
        return;
    };
    into_a_round(&mut pty);
    let join = pty.program_pid();
    common::signal(&join, "TERM");
    let (status, output) = pty.finish();
    assert_eq!(status.code(), Some(1), "a signal is not a normal exit");
    assert!(contains(&output, LEAVE_ALTERNATE_SCREEN));
    assert!(contains(&output, b"to rejoin this round"));
    assert!(contains(&output, b"\nboggle join "));
    assert!(contains(&output, b"boggle: stopped by a signal"));
}

/// A terminal that goes away without a signal ends the client: its key
/// reader used to spin on the dead terminal for ever, at full speed.
#[cfg(target_os = "linux")]
#[test]
fn a_terminal_that_goes_away_ends_the_client() {
    let Some((_dir, _room, mut pty)) = Room::joined("net-pty-gone", &[]) else {
        return;
    };
    pty.wait_for("lobby");
    let join = pty.program_pid();
    pty.hang_up(&join);
}

/// Ann's full screen is killed
/// with SIGKILL mid-round (nothing is printed on the way out). The same
/// `boggle join` run again, with no token, takes her seat and its words
/// back: the client kept the token in a file of her own.
#[cfg(target_os = "linux")]
#[test]
fn a_killed_full_screen_player_takes_the_seat_back_by_joining_again() {
    use std::os::unix::fs::PermissionsExt;
    let Some((dir, room, mut pty)) = Room::joined("net-pty-kill9", &[]) else {
        return;
    };
    // The lobby says the seat is kept (drawn a word at a time).
    pty.talk(&[("kept:", "\r"), ("your words", "eat\r"), ("EAT", "")]);
    common::signal(pty.program_pid(), "KILL");
    pty.finish();
    let seats = dir.path().join("boggle/seats");
    // The seat's file, beside the lock its client held.
    let kept: Vec<_> = std::fs::read_dir(&seats)
        .expect("a seats directory")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| !path.to_string_lossy().ends_with(".lock"))
        .collect();
    assert_eq!(kept.len(), 1, "{kept:?}");
    let mode = std::fs::metadata(&kept[0])
        .expect("the seat file")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600, "readable by its user only");
    takes_the_seat_back(&dir, room.addr);
}

/// The server stops mid-round: the round ends early with its results, and
/// on the goodbye the full screen ends cleanly (exit 0), printing the
/// results on the restored terminal and what the server said.
#[cfg(target_os = "linux")]
#[test]
fn a_stopping_server_leaves_the_results_printed_and_exits_0() {
    let Some((_dir, room, mut pty)) = Room::joined("net-pty-stop", &["--stop-grace", "2"]) else {
        return;
    };
    into_a_round(&mut pty);
    pty.send(b"eat\r");
    pty.wait_for("EAT");
    common::signal(room._server.id(), "TERM");
    pty.wait_for("shutting down");
    let (status, output) = pty.finish();
    assert!(status.success(), "a clean stop: {status:?}");
    let text = String::from_utf8_lossy(&output);
    let leave = find(&output, LEAVE_ALTERNATE_SCREEN).expect("the terminal is restored");
    let results = text
        .rfind("results of round 1 (last round):")
        .or_else(|| text.rfind("results of round 1:"))
        .unwrap_or_else(|| panic!("no results printed in {text}"));
    assert!(results > leave, "printed on the restored terminal");
    let after = &text[results..];
    assert_contains(after, "ann: 1 point (total 1); words: EAT +1");
    assert_contains(after, "the server closed: the server is shutting down");
    assert!(!after.contains("rejoin"), "{after}");
}
