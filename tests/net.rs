//! The networked game end to end: a server on 127.0.0.1:0 in this process,
//! driven by scripted clients speaking the protocol (and the line-mode
//! client). Timeouts here only guard against hangs; nothing asserts timing.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use boggle::net::client::{JoinOptions, run_lines};
use boggle::net::protocol::{
    ClientMsg, Duplicates, ErrorCode, PlayerResult, ServerMsg, VERSION, encode,
};
use boggle::net::room::RoomConfig;
use boggle::net::server::{Limits, Server, ServerConfig};
use boggle::{Dictionary, GameBoard, Rules, WordFind};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::sync::oneshot;

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
