//! The networked game end to end: a server on 127.0.0.1:0 in this process,
//! driven by scripted clients speaking the protocol (and the line-mode
//! client, through a relay whose connections a test can cut); and the real
//! `boggle serve` stopped by a signal. Timeouts here only guard against
//! hangs; nothing asserts timing.

mod common;

use std::io::{BufRead, Write};
use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use boggle::net::client::{JoinOptions, run_lines};
use boggle::net::protocol::{
    ClientMsg, Duplicates, ErrorCode, PlayerResult, ServerMsg, VERSION, encode,
};
use boggle::net::room::RoomConfig;
use boggle::net::server::{Limits, Server, ServerConfig};
use boggle::{Dictionary, GameBoard, Rules, WordFind};
use common::{exit_code, serve};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// Hang guard for any one wait.
const GUARD: Duration = Duration::from_secs(20);

fn config(duplicates: Duplicates, password: Option<&str>) -> ServerConfig {
    let words = ["EAT", "BAT", "NAG", "TEA", "LAB"];
    let find = WordFind::with_rules(Arc::new(Dictionary::from_words(words)), Rules::project4());
    ServerConfig {
        room: Arc::new(RoomConfig {
            word_find: Arc::new(find),
            board: Some(GameBoard::new("BENHLAUMITLZRGAN").expect("board")),
            // Rounds here end when every player is done, long before this.
            time: Duration::from_secs(600),
            rounds: None,
            min_players: 2,
            duplicates,
            max_players: 10,
        }),
        password: password.map(str::to_string),
        seed: Some(1),
        limits: Limits::default(),
    }
}

async fn start(config: ServerConfig) -> (SocketAddr, oneshot::Sender<()>) {
    let server = Server::bind("127.0.0.1:0", config).await.expect("binds");
    let addr = server.local_addr().expect("address");
    let (stop, stopped) = oneshot::channel::<()>();
    tokio::spawn(server.run(async move {
        let _ = stopped.await;
    }));
    (addr, stop)
}

struct Peer {
    reader: BufReader<OwnedReadHalf>,
    writer: OwnedWriteHalf,
}

impl Peer {
    async fn connect(addr: SocketAddr) -> Peer {
        let stream = TcpStream::connect(addr).await.expect("connects");
        let (read, writer) = stream.into_split();
        Peer {
            reader: BufReader::new(read),
            writer,
        }
    }

    async fn send_raw(&mut self, bytes: &[u8]) {
        // The server may already have closed on a hostile line; that is fine.
        let _ = self.writer.write_all(bytes).await;
    }

    async fn send(&mut self, msg: &ClientMsg) {
        self.send_raw(encode(msg).as_bytes()).await;
    }

    /// The next message, or `None` when the server closed the connection.
    async fn recv(&mut self) -> Option<ServerMsg> {
        let mut line = String::new();
        let read = tokio::time::timeout(GUARD, self.reader.read_line(&mut line))
            .await
            .expect("no hang");
        match read {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(serde_json::from_str(&line).expect("server sends protocol messages")),
        }
    }

    /// Skips messages until one matches.
    async fn until(&mut self, pick: impl Fn(&ServerMsg) -> bool) -> ServerMsg {
        loop {
            let msg = self.recv().await.expect("connection open");
            if pick(&msg) {
                return msg;
            }
        }
    }

    async fn hello(&mut self, name: &str, password: Option<&str>, token: Option<String>) {
        self.send(&ClientMsg::Hello {
            version: VERSION,
            name: name.into(),
            room: None,
            password: password.map(str::to_string),
            token,
        })
        .await;
    }

    /// Joins and returns the seat's token.
    async fn join(addr: SocketAddr, name: &str, password: Option<&str>) -> (Peer, String) {
        let mut peer = Peer::connect(addr).await;
        peer.hello(name, password, None).await;
        match peer.until(|m| matches!(m, ServerMsg::Welcome { .. })).await {
            ServerMsg::Welcome { token, .. } => (peer, token),
            _ => unreachable!(),
        }
    }

    async fn word(&mut self, word: &str) -> ServerMsg {
        self.send(&ClientMsg::Word { word: word.into() }).await;
        self.until(|m| matches!(m, ServerMsg::Verdict { .. } | ServerMsg::Error { .. }))
            .await
    }

    async fn results(&mut self) -> Vec<PlayerResult> {
        match self.until(|m| matches!(m, ServerMsg::Results { .. })).await {
            ServerMsg::Results { players, .. } => players,
            _ => unreachable!(),
        }
    }

    /// Expects a fatal error of `code`, then the connection closing.
    async fn refused(&mut self, code: ErrorCode) {
        let msg = self.until(|m| matches!(m, ServerMsg::Error { .. })).await;
        assert!(
            matches!(msg, ServerMsg::Error { code: c, .. } if c == code),
            "{msg:?}"
        );
        while let Some(msg) = self.recv().await {
            assert!(!matches!(msg, ServerMsg::Verdict { .. }), "{msg:?}");
        }
    }
}

async fn round_of_two(addr: SocketAddr, password: Option<&str>) -> (Peer, Peer, String) {
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
    (ann, bob, token)
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
    let (addr, _stop) = start(config(Duplicates::Cancel, None)).await;
    let (mut ann, mut bob, _) = round_of_two(addr, None).await;
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
    let (addr, _stop) = start(config(Duplicates::Count, None)).await;
    let (mut ann, mut bob, _) = round_of_two(addr, None).await;
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
    let (addr, _stop) = start(config(Duplicates::Cancel, None)).await;
    let (mut ann, mut bob, token) = round_of_two(addr, None).await;
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
    let (addr, _stop) = start(config(Duplicates::Cancel, password)).await;
    let (mut ann, mut bob, _) = round_of_two(addr, password).await;
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
    assert!(ann.contains("board: BENHLAUMITLZRGAN\n"), "{ann}");
    for line in ["EAT: +1\n", "BAT: +1\n", "XYZZY: not in the dictionary\n"] {
        assert!(ann.contains(line), "{line} in {ann}");
    }
    assert!(
        ann.contains("\nann: 1 point (total 1); words: BAT +1; cancelled: EAT\n"),
        "{ann}"
    );
    assert!(
        ann.contains("\nbob: 1 point (total 1); words: NAG +1; cancelled: EAT\n"),
        "{ann}"
    );
    assert!(bob.1.contains("\nann: 1 point"), "{}", bob.1);
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
        let give_up = Instant::now() + GUARD;
        while !self.text().contains(text) {
            assert!(
                Instant::now() < give_up,
                "never printed {text:?}:\n{}",
                self.text()
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
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

/// Whether `msg` is a lobby in which `name` is (or is not) connected.
fn lobby_shows(msg: &ServerMsg, name: &str, connected: bool) -> bool {
    matches!(msg, ServerMsg::Lobby { players, .. }
        if players.iter().any(|p| p.name == name && p.connected == connected))
}

#[tokio::test]
async fn a_line_client_whose_connection_is_cut_rejoins_and_keeps_every_word() {
    let (addr, _stop) = start(config(Duplicates::Cancel, None)).await;
    let relay = Relay::start(addr).await;
    let (mut bob, _) = Peer::join(addr, "bob", None).await;
    bob.send(&ClientMsg::Ready).await;
    let (mut keys, ann, played) = line_client(relay.addr, "ann", Duration::from_secs(20));
    ann.wait_for("board: BENHLAUMITLZRGAN\n").await;
    keys.write_all(b"eat\n").await.expect("types");
    ann.wait_for("EAT: +1\n").await;
    relay.cut();
    bob.until(|m| lobby_shows(m, "ann", false)).await;
    // Typed while the connection is down: held or sent again, never lost.
    keys.write_all(b"nag\n").await.expect("types");
    bob.until(|m| lobby_shows(m, "ann", true)).await;
    ann.wait_for("NAG: +1\n").await;
    // The server kept the seat and the word found before the cut.
    assert!(
        ann.text().contains("found before: EAT +1\n"),
        "{}",
        ann.text()
    );
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
    assert!(
        ann.text()
            .contains("\nann: 2 points (total 2); words: EAT +1, NAG +1\n"),
        "{}",
        ann.text()
    );
}

#[tokio::test]
async fn a_line_client_that_cannot_rejoin_gives_up_with_one_error() {
    let (addr, _stop) = start(config(Duplicates::Cancel, None)).await;
    let relay = Relay::start(addr).await;
    let (mut bob, _) = Peer::join(addr, "bob", None).await;
    bob.send(&ClientMsg::Ready).await;
    let (_keys, ann, played) = line_client(relay.addr, "ann", Duration::from_secs(1));
    ann.wait_for("board: ").await;
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

/// SIGTERM and SIGINT stop `boggle serve` cleanly: every client is told
/// `bye`, the line-mode client ends at once with that reason (a goodbye is no
/// drop to rejoin after), and the server exits 0, as docs/GUIDE.md says.
#[cfg(unix)]
#[test]
fn serve_stops_on_sigterm_and_sigint_telling_its_clients() {
    for signal in ["TERM", "INT"] {
        let (mut server, addr) = serve(&["--board", "BENHLAUMITLZRGAN"]);
        let mut ann = std::net::TcpStream::connect(addr).expect("connects");
        ann.set_read_timeout(Some(GUARD)).expect("timeout");
        let hello = ClientMsg::Hello {
            version: VERSION,
            name: "ann".into(),
            room: None,
            password: None,
            token: None,
        };
        ann.write_all(encode(&hello).as_bytes()).expect("hello");
        let mut ann = std::io::BufReader::new(ann);
        let mut next = || {
            let mut line = String::new();
            ann.read_line(&mut line).expect("a message");
            serde_json::from_str::<ServerMsg>(&line).unwrap_or_else(|e| panic!("{e}: {line:?}"))
        };
        let mut bob = Command::new(env!("CARGO_BIN_EXE_boggle"))
            .args(["join", &addr.to_string(), "--name", "bob"])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("boggle join starts");
        while !lobby_shows(&next(), "bob", true) {}
        // The `kill` utility, as the tui's pty tests use: no unsafe code in tests.
        let sent = Command::new("kill")
            .args([&format!("-{signal}"), &server.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(sent.success());
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
        assert_eq!(exit_code(&mut bob, "boggle join"), Some(1), "SIG{signal}");
        let mut stderr = String::new();
        std::io::Read::read_to_string(&mut bob.stderr.take().expect("piped"), &mut stderr)
            .expect("reads");
        assert!(
            stderr.ends_with(&format!(
                "boggle: {addr}: the server closed: the server is shutting down\n"
            )),
            "{stderr}"
        );
        assert!(!stderr.contains("rejoin"), "{stderr}");
    }
}
