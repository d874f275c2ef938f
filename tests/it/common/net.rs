//! The networked game's test helpers: a server on 127.0.0.1:0 in the test's
//! own runtime, a scripted client speaking the protocol, and the status
//! code of an HTTP response (for the web side's raw requests).

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use boggle::{Dictionary, GameBoard, Rules, WordFind};
use boggle_net::{Limits, RoomConfig, Server, ServerConfig};
use boggle_protocol::{ClientMsg, Duplicates, ErrorCode, PlayerResult, ServerMsg, VERSION, encode};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::sync::oneshot;

/// Hang guard for any one wait.
pub(crate) const GUARD: Duration = Duration::from_secs(20);

pub(crate) fn config(duplicates: Duplicates, password: Option<&str>) -> ServerConfig {
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
            computer: None,
            daily: None,
        }),
        password: password.map(str::to_string),
        seed: Some(1),
        limits: Limits::default(),
        store: None,
    }
}

pub(crate) async fn start(config: ServerConfig) -> (SocketAddr, oneshot::Sender<()>) {
    let server = Server::bind("127.0.0.1:0", config).await.expect("binds");
    let addr = server.local_addr().expect("address");
    let (stop, stopped) = oneshot::channel::<()>();
    tokio::spawn(server.run(async move {
        let _ = stopped.await;
    }));
    (addr, stop)
}

pub(crate) struct Peer {
    pub reader: BufReader<OwnedReadHalf>,
    pub writer: OwnedWriteHalf,
}

impl Peer {
    pub(crate) async fn connect(addr: SocketAddr) -> Peer {
        let stream = TcpStream::connect(addr).await.expect("connects");
        let (read, writer) = stream.into_split();
        Peer {
            reader: BufReader::new(read),
            writer,
        }
    }

    /// Connects from `from` (any 127.x.y.z reaches a server on 127.0.0.1).
    pub(crate) async fn connect_from(addr: SocketAddr, from: std::net::IpAddr) -> Peer {
        let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
        socket
            .bind(SocketAddr::new(from, 0))
            .expect("binds its source");
        let stream = socket.connect(addr).await.expect("connects");
        let (read, writer) = stream.into_split();
        Peer {
            reader: BufReader::new(read),
            writer,
        }
    }

    pub(crate) async fn send_raw(&mut self, bytes: &[u8]) {
        // The server may already have closed on a hostile line; that is fine.
        let _ = self.writer.write_all(bytes).await;
    }

    pub(crate) async fn send(&mut self, msg: &ClientMsg) {
        self.send_raw(encode(msg).as_bytes()).await;
    }

    /// The next message, or `None` when the server closed the connection.
    pub(crate) async fn recv(&mut self) -> Option<ServerMsg> {
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
    pub(crate) async fn until(&mut self, pick: impl Fn(&ServerMsg) -> bool) -> ServerMsg {
        loop {
            let msg = self.recv().await.expect("connection open");
            if pick(&msg) {
                return msg;
            }
        }
    }

    pub(crate) async fn hello(
        &mut self,
        name: &str,
        password: Option<&str>,
        token: Option<String>,
    ) {
        self.send(&ClientMsg::Hello {
            version: VERSION,
            name: name.into(),
            room: None,
            password: password.map(str::to_string),
            token,
            solo: None,
        })
        .await;
    }

    /// Joins and returns the seat's token.
    pub(crate) async fn join(
        addr: SocketAddr,
        name: &str,
        password: Option<&str>,
    ) -> (Peer, String) {
        let mut peer = Peer::connect(addr).await;
        peer.hello(name, password, None).await;
        match peer.until(|m| matches!(m, ServerMsg::Welcome { .. })).await {
            ServerMsg::Welcome { token, .. } => (peer, token),
            _ => unreachable!(),
        }
    }

    pub(crate) async fn word(&mut self, word: &str) -> ServerMsg {
        self.send(&ClientMsg::Word { word: word.into() }).await;
        self.until(|m| matches!(m, ServerMsg::Verdict { .. } | ServerMsg::Error { .. }))
            .await
    }

    pub(crate) async fn results(&mut self) -> Vec<PlayerResult> {
        match self.until(|m| matches!(m, ServerMsg::Results { .. })).await {
            ServerMsg::Results { players, .. } => players,
            _ => unreachable!(),
        }
    }

    /// Expects a fatal error of `code`, then the connection closing.
    pub(crate) async fn refused(&mut self, code: ErrorCode) {
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

/// Whether `msg` is a lobby in which `name` is (or is not) connected.
pub(crate) fn lobby_shows(msg: &ServerMsg, name: &str, connected: bool) -> bool {
    matches!(msg, ServerMsg::Lobby { players, .. }
        if players.iter().any(|p| p.name == name && p.connected == connected))
}

/// The status code of an HTTP response that starts with `text` (its status
/// line); the test fails if there is none.
#[track_caller]
pub(crate) fn status_code(text: &str) -> u16 {
    text.split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("a status line: {text:?}"))
}
