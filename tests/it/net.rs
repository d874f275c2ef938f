//! The networked game end to end: a server on 127.0.0.1:0 in this process,
//! driven by scripted clients speaking the protocol (and the line-mode
//! client, through a relay whose connections a test can cut); and the real
//! `boggle serve` stopped by a signal. Timeouts here only guard against
//! hangs; nothing asserts timing.

use crate::common;

use std::io::{BufRead, Write};
use std::net::SocketAddr;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use boggle_client::join::run_lines;
use boggle_client::link::JoinOptions;
use boggle_protocol::{ClientMsg, Duplicates, ErrorCode, PlayerResult, ServerMsg, VERSION, encode};
use common::net::{GUARD, Peer, config, lobby_shows, start};
use common::{Killed, assert_contains, boggle, exit_code, serve, stderr_of};
use tokio::io::{AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// A server (shared words counted as `duplicates` says, and `password` if
/// any) with ann and bob in its first round: the server's stop and
/// address, ann, bob, and ann's token.
async fn round_of_two(
    duplicates: Duplicates,
    password: Option<&str>,
) -> (oneshot::Sender<()>, SocketAddr, Peer, Peer, String) {
    let (addr, stop) = start(config(duplicates, password)).await;
    let (mut ann, token) = Peer::join(addr, "ann", password).await;
    let (mut bob, _) = Peer::join(addr, "bob", password).await;
    for peer in [&mut ann, &mut bob] {
        peer.send(&ClientMsg::Ready).await;
    }
    for peer in [&mut ann, &mut bob] {
        let start = peer
            .until(|m| matches!(m, ServerMsg::RoundStart { .. }))
            .await;
        assert!(
            matches!(start, ServerMsg::RoundStart { board, .. } if board.concat() == "BENHLAUMITLZRGAN")
        );
    }
    (stop, addr, ann, bob, token)
}

fn score(players: &[PlayerResult], name: &str) -> (u32, Vec<(String, bool)>) {
    let p = players
        .iter()
        .find(|p| p.name == name)
        .expect("player in results");
    (
        p.score,
        p.words
            .iter()
            .map(|w| (w.word.clone(), w.cancelled))
            .collect(),
    )
}

#[tokio::test]
async fn words_found_by_two_players_are_cancelled_for_both() {
    let (_stop, _, mut ann, mut bob, _) = round_of_two(Duplicates::Cancel, None).await;
    assert!(matches!(
        ann.word("eat").await,
        ServerMsg::Verdict {
            accepted: true,
            points: 1,
            ..
        }
    ));
    assert!(matches!(
        ann.word("bat").await,
        ServerMsg::Verdict { accepted: true, .. }
    ));
    assert!(matches!(
        bob.word("EAT").await,
        ServerMsg::Verdict { accepted: true, .. }
    ));
    let repeat = bob.word("eat").await;
    assert!(
        matches!(repeat, ServerMsg::Verdict { accepted: false, ref reason, .. } if reason == "already found")
    );
    ann.send(&ClientMsg::Done).await;
    bob.send(&ClientMsg::Done).await;
    let players = ann.results().await;
    assert_eq!(
        score(&players, "ann"),
        (1, vec![("EAT".into(), true), ("BAT".into(), false)])
    );
    assert_eq!(score(&players, "bob"), (0, vec![("EAT".into(), true)]));
    assert_eq!(bob.results().await, players);
}

#[tokio::test]
async fn duplicates_count_keeps_shared_words() {
    let (_stop, _, mut ann, mut bob, _) = round_of_two(Duplicates::Count, None).await;
    ann.word("eat").await;
    bob.word("eat").await;
    ann.send(&ClientMsg::Done).await;
    bob.send(&ClientMsg::Done).await;
    let players = ann.results().await;
    assert_eq!(score(&players, "ann"), (1, vec![("EAT".into(), false)]));
    assert_eq!(score(&players, "bob"), (1, vec![("EAT".into(), false)]));
}

#[tokio::test]
async fn a_player_who_drops_rejoins_with_the_token_and_keeps_the_words() {
    let (_stop, addr, mut ann, mut bob, token) = round_of_two(Duplicates::Cancel, None).await;
    ann.word("eat").await;
    ann.word("nag").await;
    drop(ann);
    let mut thief = Peer::connect(addr).await;
    thief.hello("ann", None, None).await;
    thief.refused(ErrorCode::NameTaken).await;
    let mut ann = Peer::connect(addr).await;
    ann.hello("ann", None, Some(token)).await;
    let start = ann
        .until(|m| matches!(m, ServerMsg::RoundStart { .. }))
        .await;
    let ServerMsg::RoundStart {
        found,
        score: points,
        ..
    } = start
    else {
        unreachable!()
    };
    let words: Vec<&str> = found.iter().map(|w| w.word.as_str()).collect();
    assert_eq!((words, points), (vec!["EAT", "NAG"], 2));
    bob.word("bat").await;
    ann.send(&ClientMsg::Done).await;
    bob.send(&ClientMsg::Done).await;
    let players = bob.results().await;
    assert_eq!(score(&players, "ann").0, 2);
    assert_eq!(score(&players, "bob").0, 1);
}

#[tokio::test]
async fn hostile_clients_are_refused_and_others_play_on() {
    let password = Some("sesame");
    let (_stop, addr, mut ann, mut bob, _) = round_of_two(Duplicates::Cancel, password).await;
    let ten_mb = {
        let mut line = vec![b'a'; 10 << 20];
        line.push(b'\n');
        line
    };
    let hello = |version: u32, password: &str| {
        format!(r#"{{"type":"hello","version":{version},"name":"eve","password":"{password}"}}"#)
            + "\n"
    };
    let cases: Vec<(Vec<u8>, ErrorCode)> = vec![
        (b"GET / HTTP/1.0\r\n".to_vec(), ErrorCode::BadMessage),
        (
            b"{\"type\":\"word\",\"word\":\"eat\"}\n".to_vec(),
            ErrorCode::NotJoined,
        ),
        (ten_mb, ErrorCode::TooLong),
        (
            b"{\"type\":\"hello\",\"name\":\"\xff\xfe\"}\n".to_vec(),
            ErrorCode::NotUtf8,
        ),
        (
            hello(VERSION + 1, "sesame").into_bytes(),
            ErrorCode::Version,
        ),
        (
            hello(VERSION, "open sesame").into_bytes(),
            ErrorCode::Password,
        ),
        (hello(VERSION, "").into_bytes(), ErrorCode::Password),
    ];
    for (bytes, code) in cases {
        let mut eve = Peer::connect(addr).await;
        let writer = tokio::spawn(async move {
            eve.send_raw(&bytes).await;
            eve
        });
        let mut eve = writer.await.expect("writer");
        eve.refused(code).await;
        // The room plays on, undisturbed.
        assert!(matches!(ann.word("eat").await, ServerMsg::Verdict { .. }));
    }
    let mut eve = Peer::connect(addr).await;
    eve.hello("\x1b[2J\x1b]0;pwned\x07", password, None).await;
    eve.refused(ErrorCode::BadName).await;
    let mut eve = Peer::connect(addr).await;
    eve.hello("eve\u{202e}", password, None).await;
    eve.refused(ErrorCode::BadName).await;
    assert!(matches!(
        bob.word("bat").await,
        ServerMsg::Verdict { accepted: true, .. }
    ));
    ann.send(&ClientMsg::Done).await;
    bob.send(&ClientMsg::Done).await;
    let players = ann.results().await;
    assert_eq!(players.len(), 2, "nobody else got in: {players:?}");
    assert_eq!(score(&players, "ann").0, 1);
}

#[tokio::test]
async fn line_mode_clients_play_a_round_and_print_the_results() {
    let (addr, _stop) = start(config(Duplicates::Cancel, None)).await;
    let opts = |name: &str| JoinOptions {
        addr: addr.to_string(),
        name: name.into(),
        ..JoinOptions::default()
    };
    let (ann, bob) = (opts("ann"), opts("bob"));
    let ann = tokio::spawn(async move {
        let mut out = Vec::new();
        let played = run_lines(&ann, &b"eat\nbat\nxyzzy\n"[..], &mut out).await;
        (
            played.map_err(|e| e.to_string()),
            String::from_utf8_lossy(&out).into_owned(),
        )
    });
    let bob = tokio::spawn(async move {
        let mut out = Vec::new();
        let played = run_lines(&bob, &b"EAT\nnag\n"[..], &mut out).await;
        (
            played.map_err(|e| e.to_string()),
            String::from_utf8_lossy(&out).into_owned(),
        )
    });
    let (ann, bob) = (ann.await.expect("ann"), bob.await.expect("bob"));
    assert_eq!(ann.0, Ok(()));
    assert_eq!(bob.0, Ok(()));
    let ann = ann.1;
    // The board as a grid, as it lies on the table.
    assert_contains(
        &ann,
        "  B  E  N  H\n  L  A  U  M\n  I  T  L  Z\n  R  G  A  N\n",
    );
    for line in ["EAT: +1\n", "BAT: +1\n", "XYZZY: not in the dictionary\n"] {
        assert!(ann.contains(line), "{line} in {ann}");
    }
    assert_contains(
        &ann,
        "\nann: 1 point (total 1); words: BAT +1; cancelled: EAT\n",
    );
    assert_contains(
        &ann,
        "\nbob: 1 point (total 1); words: NAG +1; cancelled: EAT\n",
    );
    assert_contains(&bob.1, "\nann: 1 point");
}

#[tokio::test]
async fn silent_clients_time_out_and_the_connection_cap_holds() {
    let mut config = config(Duplicates::Cancel, None);
    // Long enough that the third connection is refused before the quiet one times out.
    config.limits.hello_timeout = Duration::from_secs(2);
    config.limits.max_connections = 2;
    let (addr, _stop) = start(config).await;
    let (mut ann, _) = Peer::join(addr, "ann", None).await;
    let mut quiet = Peer::connect(addr).await;
    let mut third = Peer::connect(addr).await;
    third.refused(ErrorCode::ServerFull).await;
    quiet.refused(ErrorCode::Idle).await;
    ann.send(&ClientMsg::Ping).await;
    assert_eq!(
        ann.until(|m| matches!(m, ServerMsg::Pong)).await,
        ServerMsg::Pong
    );
}

/// A TCP relay in front of the server whose connections the test can cut,
/// as a network failure would: both ends close, and the server hears no
/// goodbye from the client nor the client from the server.
struct Relay {
    addr: SocketAddr,
    pipes: Arc<Mutex<Vec<JoinHandle<()>>>>,
    accept: JoinHandle<()>,
}

impl Relay {
    async fn start(server: SocketAddr) -> Relay {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("binds");
        let addr = listener.local_addr().expect("address");
        let pipes: Arc<Mutex<Vec<JoinHandle<()>>>> = Arc::default();
        let accept = tokio::spawn({
            let pipes = Arc::clone(&pipes);
            async move {
                while let Ok((mut client, _)) = listener.accept().await {
                    let pipe = tokio::spawn(async move {
                        if let Ok(mut upstream) = TcpStream::connect(server).await {
                            let _ = tokio::io::copy_bidirectional(&mut client, &mut upstream).await;
                        }
                    });
                    pipes.lock().expect("pipes").push(pipe);
                }
            }
        });
        Relay {
            addr,
            pipes,
            accept,
        }
    }

    /// Cuts every connection through the relay; new ones still get through.
    fn cut(&self) {
        for pipe in self.pipes.lock().expect("pipes").drain(..) {
            pipe.abort();
        }
    }

    /// Cuts every connection and takes no more: the server is out of reach.
    fn close(self) {
        self.cut();
        self.accept.abort();
    }
}

/// The line-mode client's standard output, readable while it plays.
#[derive(Clone, Default)]
struct Screen(Arc<Mutex<Vec<u8>>>);

impl Write for Screen {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("output").extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Screen {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().expect("output")).into_owned()
    }

    /// Waits until the output holds `text`.
    async fn wait_for(&self, text: &str) {
        common::wait_until_async(
            async || self.text().contains(text).then_some(()),
            async || format!("never printed {text:?}:\n{}", self.text()),
        )
        .await;
    }
}

/// Starts `run_lines` as `name` on `addr`; the words to type go into the returned writer.
fn line_client(
    addr: SocketAddr,
    name: &str,
    rejoin_for: Duration,
) -> (
    tokio::io::DuplexStream,
    Screen,
    JoinHandle<Result<(), String>>,
) {
    let (keys, input) = tokio::io::duplex(4096);
    let screen = Screen::default();
    let opts = JoinOptions {
        addr: addr.to_string(),
        name: name.into(),
        rejoin_for,
        ..JoinOptions::default()
    };
    let mut out = screen.clone();
    let played = tokio::spawn(async move {
        run_lines(&opts, BufReader::new(input), &mut out)
            .await
            .map_err(|e| e.to_string())
    });
    (keys, screen, played)
}

/// A round on a fresh server: bob in it and ready, and ann's line client
/// joining through a [`Relay`] the test can cut.
struct CutRound {
    _stop: oneshot::Sender<()>,
    relay: Relay,
    bob: Peer,
    keys: tokio::io::DuplexStream,
    ann: Screen,
    played: JoinHandle<Result<(), String>>,
}

/// Starts a [`CutRound`] whose line client tries to rejoin for `rejoin_for`.
async fn cut_round(rejoin_for: Duration) -> CutRound {
    let (addr, stop) = start(config(Duplicates::Cancel, None)).await;
    let relay = Relay::start(addr).await;
    let (mut bob, _) = Peer::join(addr, "bob", None).await;
    bob.send(&ClientMsg::Ready).await;
    let (keys, ann, played) = line_client(relay.addr, "ann", rejoin_for);
    CutRound {
        _stop: stop,
        relay,
        bob,
        keys,
        ann,
        played,
    }
}

#[tokio::test]
async fn a_line_client_whose_connection_is_cut_rejoins_and_keeps_every_word() {
    let CutRound {
        _stop,
        relay,
        mut bob,
        mut keys,
        ann,
        played,
    } = cut_round(Duration::from_secs(20)).await;
    ann.wait_for("  R  G  A  N\n").await;
    keys.write_all(b"eat\n").await.expect("types");
    ann.wait_for("EAT: +1\n").await;
    relay.cut();
    bob.until(|m| lobby_shows(m, "ann", false)).await;
    // Typed while the connection is down: held or sent again, never lost.
    keys.write_all(b"nag\n").await.expect("types");
    bob.until(|m| lobby_shows(m, "ann", true)).await;
    ann.wait_for("NAG: +1\n").await;
    // The server kept the seat and the word found before the cut.
    assert_contains(&ann.text(), "found before: EAT +1\n");
    assert!(matches!(
        bob.word("bat").await,
        ServerMsg::Verdict { accepted: true, .. }
    ));
    drop(keys);
    bob.send(&ClientMsg::Done).await;
    let players = bob.results().await;
    assert_eq!(players.len(), 2, "one seat for ann: {players:?}");
    assert_eq!(
        score(&players, "ann"),
        (2, vec![("EAT".into(), false), ("NAG".into(), false)])
    );
    let played = tokio::time::timeout(GUARD, played)
        .await
        .expect("no hang")
        .expect("ann's task");
    assert_eq!(played, Ok(()));
    assert_contains(
        &ann.text(),
        "\nann: 2 points (total 2); words: EAT +1, NAG +1\n",
    );
}

#[tokio::test]
async fn a_line_client_that_cannot_rejoin_gives_up_with_one_error() {
    let CutRound {
        _stop,
        relay,
        mut bob,
        keys: _keys,
        ann,
        played,
    } = cut_round(Duration::from_secs(1)).await;
    ann.wait_for("round 1: ").await;
    relay.close();
    let played = tokio::time::timeout(GUARD, played)
        .await
        .expect("gives up in time")
        .expect("ann's task");
    let error = played.expect_err("the server is out of reach");
    assert!(
        error.starts_with("lost the connection to the server (the server closed the connection) and could not rejoin within 1 s"),
        "{error}"
    );
    // The seat is still the server's: bob's round goes on.
    assert!(matches!(
        bob.word("bat").await,
        ServerMsg::Verdict { accepted: true, .. }
    ));
}

/// SIGTERM, SIGINT and SIGHUP stop `boggle serve` cleanly: every client is
/// told `bye`, the line-mode client ends at once with that reason and
/// exits 0 (a goodbye is a clean stop, no drop to rejoin after), and the server exits 0, as docs/GUIDE.md
/// says (SIGHUP used to kill it at once).
#[cfg(unix)]
#[test]
fn serve_stops_on_sigterm_sigint_and_sighup_telling_its_clients() {
    for signal in ["TERM", "INT", "HUP"] {
        let (mut server, addr) = serve(&["--board", "BENHLAUMITLZRGAN"]);
        let mut ann = std::net::TcpStream::connect(addr).expect("connects");
        ann.set_read_timeout(Some(GUARD)).expect("timeout");
        let hello = ClientMsg::Hello {
            version: VERSION,
            name: "ann".into(),
            room: None,
            password: None,
            token: None,
            solo: None,
        };
        ann.write_all(encode(&hello).as_bytes()).expect("hello");
        let mut ann = std::io::BufReader::new(ann);
        let mut next = || {
            let mut line = String::new();
            ann.read_line(&mut line).expect("a message");
            serde_json::from_str::<ServerMsg>(&line).unwrap_or_else(|e| panic!("{e}: {line:?}"))
        };
        let mut bob = join_lines(addr, "bob", Stdio::null());
        while !lobby_shows(&next(), "bob", true) {}
        common::signal(server.id(), signal);
        let bye = loop {
            let msg = next();
            if matches!(msg, ServerMsg::Bye { .. }) {
                break msg;
            }
        };
        assert_eq!(
            bye,
            ServerMsg::Bye {
                reason: "the server is shutting down".into()
            }
        );
        drop(ann);
        assert_eq!(
            exit_code(&mut server, "boggle serve"),
            Some(0),
            "SIG{signal}"
        );
        assert_eq!(exit_code(&mut bob, "boggle join"), Some(0), "SIG{signal}");
        let stderr = stderr_of(&mut bob);
        assert!(
            stderr.ends_with("the server closed: the server is shutting down\n"),
            "{stderr}"
        );
        assert!(!stderr.contains("rejoin"), "{stderr}");
    }
}

/// `boggle join ADDR --name NAME` in line mode, its output to `stdout`,
/// its input and standard error piped.
fn join_lines(addr: SocketAddr, name: &str, stdout: Stdio) -> Killed {
    Killed(
        boggle(["join", &addr.to_string(), "--name", name])
            .stdin(Stdio::piped())
            .stdout(stdout)
            .stderr(Stdio::piped())
            .spawn()
            .expect("boggle join starts"),
    )
}

/// Line-mode `boggle join` stopped by SIGINT, SIGTERM or
/// SIGHUP says so in the shared line and exits 1.
#[cfg(unix)]
#[test]
fn line_mode_join_stopped_by_a_signal_says_so() {
    let (server, addr) = serve(&["--board", "BENHLAUMITLZRGAN"]);
    for signal in ["INT", "TERM", "HUP"] {
        let mut ann = join_lines(addr, "ann", Stdio::piped());
        let mut out = std::io::BufReader::new(ann.stdout.take().expect("piped"));
        let mut first = String::new();
        out.read_line(&mut first).expect("reads");
        assert_eq!(first, "joined room main as ann\n");
        common::signal(ann.id(), signal);
        assert_eq!(exit_code(&mut ann, "boggle join"), Some(1), "SIG{signal}");
        let stderr = stderr_of(&mut ann);
        assert!(
            stderr.ends_with("boggle: stopped by a signal\n"),
            "SIG{signal}: {stderr}"
        );
    }
    drop(server);
}

/// Runs `boggle serve FLAG VALUE` in `dir` and asserts that it is refused
/// as a usage error (exit 2); what it said.
#[track_caller]
fn serve_refused(dir: &common::TempDir, flag: &str, value: &str) -> String {
    let run = common::run_boggle(dir.path(), &["serve", flag, value], b"");
    assert_eq!(run.code, Some(2), "{flag} {value}: {}", run.stderr);
    run.stderr
}

/// `serve --time` is 1 to 86400 seconds, as in every
/// mode; beyond, a usage error (it used to panic at every round's start).
#[test]
fn serve_time_is_bounded_as_every_mode() {
    let dir = common::TempDir::new("net-time");
    for time in ["0", "86401", "9999999999", "18446744073709551615"] {
        assert_contains(&serve_refused(&dir, "--time", time), "--time");
    }
    serve_refused(&dir, "--max-players", "1001");
}

/// `serve --idle` below what the clients' pings allow is refused in one
/// line, exit 2, and the help's intervals are the clients' own: the page's
/// timer and the terminal link's.
#[test]
fn serve_idle_is_at_least_what_the_clients_pings_allow() {
    let dir = common::TempDir::new("net-idle");
    for idle in ["1", "30", "59", "89"] {
        assert_eq!(
            serve_refused(&dir, "--idle", idle),
            "boggle: --idle must be at least 90 seconds: the page pings every 60 s and \
             `boggle join` every 30 s, and a player who only waits would be dropped\n"
        );
    }
    let help = common::run_boggle(dir.path(), &["serve", "--help"], b"");
    let help = help.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    assert_contains(
        &help,
        "90 to 86400 (the page pings every 60 s, `boggle join` and the full screen every 30 s)",
    );
    let page = boggle_net::web::MODULES
        .iter()
        .find(|(name, _)| *name == "connection.js")
        .map(|(_, text)| *text)
        .expect("the page's connection module");
    assert_contains(page, "const PING_EVERY_MS = 60000;");
    assert_eq!(boggle_client::link::PING_EVERY, Duration::from_secs(30));
}

/// A `--data` whose results file is not a database stops
/// `serve --web` at start with one line, exit 1, and the file is left as it
/// was (a newer schema: leaderboard.rs's unit tests).
#[test]
fn serve_web_refuses_a_results_file_it_cannot_use_in_one_line() {
    let dir = common::TempDir::new("net-data");
    let notes = "my notes, not a database\n".repeat(100);
    std::fs::create_dir(dir.path().join("garbage")).expect("made");
    dir.write("garbage/daily.sqlite", &notes);
    let args = [
        "serve",
        "--listen",
        "127.0.0.1:0",
        "--web",
        "127.0.0.1:0",
        "--data",
        "garbage",
    ];
    let run = common::run_boggle(dir.path(), &args, b"");
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(
        run.stderr.starts_with("boggle: ") && run.stderr.contains("not a results database"),
        "{}",
        run.stderr
    );
    let kept = std::fs::read_to_string(dir.path().join("garbage/daily.sqlite")).expect("kept");
    assert_eq!(kept, notes);
}

/// The password from a file for the server and from the
/// environment for the client, never on a command line.
#[test]
fn the_password_can_come_from_a_file_or_the_environment() {
    let dir = common::TempDir::new("net-secret");
    let file = dir.write("password", "open sesame\n");
    let file = file.to_string_lossy().into_owned();
    let (_server, addr) = serve(&[
        "--board",
        "BENHLAUMITLZRGAN",
        "--min-players",
        "1",
        "--password-file",
        &file,
    ]);
    let join = |password: &str| {
        boggle(["join", &addr.to_string(), "--name", "ann"])
            .env("BOGGLE_PASSWORD", password)
            .output()
            .expect("boggle join runs")
    };
    let played = join("open sesame");
    let stdout = String::from_utf8_lossy(&played.stdout);
    assert_eq!(played.status.code(), Some(0), "{stdout}");
    assert!(stdout.starts_with("joined room main as ann\n"), "{stdout}");
    let refused = join("sesame");
    assert_eq!(refused.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_contains(&stderr, "wrong password");
}

/// `serve --web` on a port already taken is a runtime error: one
/// line on stderr naming the address, exit 1, and no server left running.
#[test]
fn serve_web_on_a_port_in_use_says_so_and_exits_1() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("binds");
    let web = taken.local_addr().expect("address").to_string();
    let data = tempfile::tempdir().expect("temp dir");
    let mut server = Killed(
        boggle(["serve", "--listen", "127.0.0.1:0", "--web", &web])
            .arg("--data")
            .arg(data.path())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("boggle serve runs"),
    );
    let code = exit_code(&mut server, "serve on a port in use");
    let stderr = stderr_of(&mut server);
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with(&format!("boggle: cannot serve the web page on {web}: ")),
        "{stderr}"
    );
}
