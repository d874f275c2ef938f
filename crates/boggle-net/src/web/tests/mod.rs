//! The web side over real loopback sockets, spoken by hand: HTTP/1.1
//! requests and RFC 6455 frames written on a plain `TcpStream`, so the
//! tests need no HTTP or WebSocket client of their own and see exactly the
//! bytes a browser would.

use super::*;
use crate::limits::Limits;
use crate::room::RoomConfig;
use crate::server::{Server, ServerConfig};
use boggle_game::dictionary::Dictionary;
use boggle_game::game_board::GameBoard;
use boggle_game::rules::Rules;
use boggle_game::word_find::WordFind;
use boggle_protocol::{ClientMsg, Duplicates, ErrorCode, VERSION};
use std::sync::Arc;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::sync::oneshot;

mod files;

/// Hang guard for any one wait.
const GUARD: Duration = Duration::from_secs(20);

fn config(password: Option<&str>, limits: Limits) -> ServerConfig {
    let find = WordFind::with_rules(
        Arc::new(Dictionary::from_words(["EAT", "BAT", "TEA", "LAB"])),
        Rules::project4(),
    );
    ServerConfig {
        room: Arc::new(RoomConfig {
            word_find: Arc::new(find),
            board: GameBoard::new("BENHLAUMITLZRGAN").ok(),
            time: Duration::from_secs(600),
            rounds: None,
            min_players: 2,
            duplicates: Duplicates::Cancel,
            max_players: 10,
            computer: None,
            daily: None,
        }),
        password: password.map(str::to_string),
        seed: Some(1),
        limits,
        store: None,
    }
}

/// A server with its web side; the TCP and web addresses, and its stop switch.
async fn start(config: ServerConfig) -> (SocketAddr, SocketAddr, oneshot::Sender<()>) {
    let (tcp, http, stop, _) = start_with(config, Options::default()).await;
    (tcp, http, stop)
}

/// As [`start`], the web side taking `options`; also what ends rounds at
/// once while the server stops.
async fn start_with(
    config: ServerConfig,
    options: Options,
) -> (
    SocketAddr,
    SocketAddr,
    oneshot::Sender<()>,
    crate::server::Hurry,
) {
    let server = Server::bind("127.0.0.1:0", config).await.expect("binds");
    let tcp = server.local_addr().expect("address");
    let hurry = server.hurry();
    let web = Web::bind_with("127.0.0.1:0", server.entrance(), options)
        .await
        .expect("binds");
    let http = web.local_addr().expect("address");
    tokio::spawn(web.run());
    let (stop, stopped) = oneshot::channel::<()>();
    tokio::spawn(server.run(async move {
        let _ = stopped.await;
    }));
    (tcp, http, stop, hurry)
}

/// A raw HTTP/1.1 response: status, headers (lower-case names), body.
struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
    /// The body's bytes as sent (compressed, if it is).
    bytes: Vec<u8>,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Sends `request` and reads the response head; the body too unless the
/// connection was upgraded (then the stream is handed back for frames).
async fn http(addr: SocketAddr, request: String) -> (Reply, BufReader<TcpStream>) {
    let stream = TcpStream::connect(addr).await.expect("connects");
    let mut reader = BufReader::new(stream);
    let reply = exchange(&mut reader, &request).await;
    (reply, reader)
}

/// Sends `request` on an open connection and reads its response, as [`http`] does.
async fn exchange(reader: &mut BufReader<TcpStream>, request: &str) -> Reply {
    reader
        .get_mut()
        .write_all(request.as_bytes())
        .await
        .expect("request sent");
    let status_line = line(reader, "status line").await;
    let status: u16 = status_line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status code");
    let mut headers = Vec::new();
    loop {
        let header = line(reader, "header line").await;
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
        }
    }
    let mut reply = Reply {
        status,
        headers,
        body: String::new(),
        bytes: Vec::new(),
    };
    if status != 101 {
        let body = if reply.header("transfer-encoding") == Some("chunked") {
            chunked(reader).await
        } else {
            let length: usize = reply
                .header("content-length")
                .and_then(|v| v.parse().ok())
                .unwrap_or(0);
            exactly(reader, length, "body").await
        };
        reply.body = String::from_utf8_lossy(&body).into_owned();
        reply.bytes = body;
    }
    reply
}

/// A chunked body, its chunks joined (a compressed file comes so).
async fn chunked(reader: &mut BufReader<TcpStream>) -> Vec<u8> {
    let mut body = Vec::new();
    loop {
        let size = line(reader, "a chunk's size").await;
        let size = usize::from_str_radix(size.trim_end(), 16).expect("a size in hex");
        let chunk = exactly(reader, size + 2, "a chunk").await;
        if size == 0 {
            return body;
        }
        body.extend_from_slice(&chunk[..size]);
    }
}

/// The next line, within the guard.
async fn line(reader: &mut BufReader<TcpStream>, what: &str) -> String {
    let mut line = String::new();
    tokio::time::timeout(GUARD, reader.read_line(&mut line))
        .await
        .expect("no hang")
        .expect(what);
    line
}

/// The next `n` bytes, within the guard.
async fn exactly(reader: &mut BufReader<TcpStream>, n: usize, what: &str) -> Vec<u8> {
    let mut bytes = vec![0u8; n];
    tokio::time::timeout(GUARD, reader.read_exact(&mut bytes))
        .await
        .expect("no hang")
        .expect(what);
    bytes
}

async fn get(addr: SocketAddr, path: &str) -> Reply {
    let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    http(addr, request).await.0
}

/// The opening handshake, with `origin` if given.
async fn upgrade(addr: SocketAddr, origin: Option<&str>) -> (Reply, BufReader<TcpStream>) {
    let origin = origin.map_or(String::new(), |o| format!("Origin: {o}\r\n"));
    let request = format!(
        "GET /ws HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n{origin}\r\n"
    );
    http(addr, request).await
}

/// A client's frame: final, masked (as RFC 6455 requires of clients).
fn frame(opcode: u8, payload: &[u8]) -> Vec<u8> {
    let mask = [0x12u8, 0x34, 0x56, 0x78];
    let mut out = vec![0x80 | opcode];
    match payload.len() {
        n if n < 126 => out.push(0x80 | n as u8),
        n if n <= 0xffff => {
            out.push(0x80 | 126);
            out.extend_from_slice(&(n as u16).to_be_bytes());
        }
        n => {
            out.push(0x80 | 127);
            out.extend_from_slice(&(n as u64).to_be_bytes());
        }
    }
    out.extend_from_slice(&mask);
    out.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    out
}

/// A WebSocket client over the upgraded stream.
struct Ws {
    stream: BufReader<TcpStream>,
}

/// What the server sent.
#[derive(Debug)]
enum Frame {
    Text(String),
    Close,
}

impl Ws {
    async fn open(addr: SocketAddr) -> Ws {
        let (reply, stream) = upgrade(addr, Some(&format!("http://{addr}"))).await;
        assert_eq!(reply.status, 101);
        Ws { stream }
    }

    async fn send_text(&mut self, text: &str) {
        // The server may already have closed on a hostile message; that is fine.
        let _ = self
            .stream
            .get_mut()
            .write_all(&frame(1, text.as_bytes()))
            .await;
    }

    async fn send(&mut self, msg: &ClientMsg) {
        let line = encode(msg);
        self.send_text(line.trim_end()).await;
    }

    /// The next text or close frame (`None` at the end of the stream).
    async fn recv(&mut self) -> Option<Frame> {
        loop {
            let mut head = [0u8; 2];
            let read = tokio::time::timeout(GUARD, self.stream.read_exact(&mut head))
                .await
                .expect("no hang");
            if read.is_err() {
                return None;
            }
            let opcode = head[0] & 0x0f;
            let mut len = u64::from(head[1] & 0x7f);
            if len == 126 {
                let mut b = [0u8; 2];
                self.stream.read_exact(&mut b).await.ok()?;
                len = u64::from(u16::from_be_bytes(b));
            } else if len == 127 {
                let mut b = [0u8; 8];
                self.stream.read_exact(&mut b).await.ok()?;
                len = u64::from_be_bytes(b);
            }
            assert_eq!(head[1] & 0x80, 0, "a server's frames are not masked");
            let mut payload = vec![0u8; usize::try_from(len).expect("fits")];
            self.stream.read_exact(&mut payload).await.ok()?;
            match opcode {
                1 => return Some(Frame::Text(String::from_utf8(payload).expect("text"))),
                8 => return Some(Frame::Close),
                _ => continue,
            }
        }
    }

    /// The next protocol message, or `None` when the server closed.
    async fn message(&mut self) -> Option<ServerMsg> {
        match self.recv().await? {
            Frame::Text(text) => {
                assert!(!text.ends_with('\n'), "one message, no newline: {text:?}");
                Some(serde_json::from_str(&text).expect("a protocol message"))
            }
            Frame::Close => None,
        }
    }

    async fn until(&mut self, pick: impl Fn(&ServerMsg) -> bool) -> ServerMsg {
        loop {
            let msg = self.message().await.expect("connection open");
            if pick(&msg) {
                return msg;
            }
        }
    }

    /// Expects a fatal error of `code`, then the socket closing.
    async fn refused(&mut self, code: ErrorCode) {
        let msg = self.until(|m| matches!(m, ServerMsg::Error { .. })).await;
        assert!(
            matches!(&msg, ServerMsg::Error { code: c, .. } if *c == code),
            "{msg:?}"
        );
        while let Some(msg) = self.message().await {
            assert!(!matches!(msg, ServerMsg::Welcome { .. }), "{msg:?}");
        }
    }
}

fn hello(name: &str) -> ClientMsg {
    ClientMsg::Hello {
        version: VERSION,
        name: name.into(),
        room: None,
        password: None,
        token: None,
        solo: None,
    }
}

#[test]
fn an_origin_must_name_the_host_it_was_sent_to() {
    assert!(same_origin(None, Some("127.0.0.1:8040")), "not a browser");
    assert!(same_origin(
        Some("http://127.0.0.1:8040"),
        Some("127.0.0.1:8040")
    ));
    assert!(same_origin(
        Some("https://Game.Example:443"),
        Some("game.example:443")
    ));
    assert!(!same_origin(
        Some("http://evil.example"),
        Some("127.0.0.1:8040")
    ));
    assert!(!same_origin(
        Some("http://127.0.0.1:9999"),
        Some("127.0.0.1:8040")
    ));
    assert!(!same_origin(Some("null"), Some("127.0.0.1:8040")));
    assert!(!same_origin(Some("http://127.0.0.1:8040"), None));
    assert!(!same_origin(Some("http://"), Some("")));
    assert!(!same_origin(
        Some("ws://127.0.0.1:8040"),
        Some("127.0.0.1:8040")
    ));
}

#[test]
fn the_page_loads_nothing_from_elsewhere_and_runs_only_its_hashed_inline_code() {
    // One script and one style, inline, each allowed by its hash alone.
    assert_eq!(PAGE.matches("<script").count(), 1, "one script");
    assert!(PAGE.contains(&format!("<script type=\"module\">{SCRIPT}</script>")));
    assert_eq!(PAGE.matches("<style").count(), 1, "one style");
    assert!(PAGE.contains(&format!("<style>{STYLE}</style>")));
    assert!(!PAGE.contains("rel=\"stylesheet\""), "no style file");
    let script_src = format!("script-src 'self' '{}';", bundle::hash_source(SCRIPT));
    let style_src = format!("style-src '{}';", bundle::hash_source(STYLE));
    assert!(CSP.contains(&script_src), "{CSP}");
    assert!(CSP.contains(&style_src), "{CSP}");
    assert!(!CSP.contains("unsafe"), "{CSP}");
    // The markup around them: no style attribute, no inline handler.
    let markup = PAGE.replace(SCRIPT, "").replace(STYLE, "");
    assert!(!markup.contains(" style="), "no style attribute");
    let handler = markup.split(" on").skip(1).find(|rest| {
        rest.chars().take_while(char::is_ascii_lowercase).count() > 0
            && rest
                .trim_start_matches(|c: char| c.is_ascii_lowercase())
                .starts_with('=')
    });
    assert_eq!(handler, None, "no inline event handler");
    let texts = [PAGE, STYLE]
        .into_iter()
        .chain(MODULES.iter().map(|(_, text)| *text));
    for text in texts {
        assert!(!text.contains("http://") && !text.contains("https://"));
        assert!(!text.contains("//cdn") && !text.contains("@import url"));
    }
    for (name, script) in MODULES {
        // Nothing from a peer is ever parsed as markup.
        assert!(
            !script.contains("innerHTML") && !script.contains("outerHTML"),
            "{name}"
        );
        assert!(
            !script.contains("insertAdjacentHTML") && !script.contains("document.write"),
            "{name}"
        );
        assert!(
            !script.contains("eval(") && !script.contains("new Function"),
            "{name}"
        );
        assert!(
            !script.contains("setAttribute(\"style\""),
            "{name}: CSP refuses it"
        );
    }
}

/// Every module of `js/` is served, and every module a module imports is one of them.
#[test]
fn every_module_the_page_imports_is_served() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/web/js");
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .expect("src/web/js")
        .map(|entry| {
            entry
                .expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|name| name.ends_with(".js"))
        .collect();
    on_disk.sort();
    let mut served: Vec<String> = MODULES.iter().map(|(name, _)| name.to_string()).collect();
    served.sort();
    assert_eq!(on_disk, served);
    for (name, script) in MODULES {
        for import in script.split(" from \"./").skip(1) {
            let target = import.split('"').next().unwrap_or_default();
            let type_only = target == "messages" || target.ends_with(".d.ts");
            assert!(
                type_only || MODULES.iter().any(|(n, _)| *n == target),
                "{name} imports {target}, which is not served"
            );
        }
    }
}

#[test]
fn the_page_weighs_at_most_96_kib() {
    let (html, css, js) = page_bytes();
    let total = html + css + js;
    assert!(
        total <= MAX_PAGE_BYTES,
        "HTML {html} + CSS {css} + JS {js} = {total} bytes, over {MAX_PAGE_BYTES}"
    );
}

#[tokio::test]
async fn the_page_its_files_and_the_security_headers_are_served() {
    let (_, http_addr, _stop) = start(config(None, Limits::default())).await;
    let page = get(http_addr, "/?room=kitchen").await;
    assert_eq!(page.status, 200);
    assert_eq!(
        page.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    assert_eq!(page.header("content-security-policy"), Some(CSP));
    assert_eq!(page.header("x-content-type-options"), Some("nosniff"));
    assert_eq!(page.header("x-frame-options"), Some("DENY"));
    assert!(page.body.contains(r#"data-password="no""#));
    // What the server plays, for the home screen: its rules and round length.
    assert!(page.body.contains(r#"data-rules="project4""#));
    assert!(page.body.contains(r#"data-seconds="600""#));
    for (name, text) in MODULES {
        let script = get(http_addr, &format!("/js/{name}")).await;
        assert_eq!(script.status, 200, "{name}");
        assert_eq!(
            script.header("content-type"),
            Some("text/javascript; charset=utf-8"),
            "{name}"
        );
        assert_eq!(script.header("content-security-policy"), Some(CSP));
        assert_eq!(script.body, *text);
    }
    assert_eq!(get(http_addr, "/js/messages.d.ts").await.status, 404);
    assert_eq!(get(http_addr, "/app.js").await.status, 404);
    // The style is in the page, the page is the script's only way in.
    assert!(page.body.contains(SCRIPT));
    assert_eq!(get(http_addr, "/app.css").await.status, 404);
    assert_eq!(get(http_addr, "/etc/passwd").await.status, 404);
    assert_eq!(get(http_addr, "/ws").await.status, 400, "not an upgrade");

    let (_, guarded, _stop) = start(config(Some("pw"), Limits::default())).await;
    assert!(
        get(guarded, "/")
            .await
            .body
            .contains(r#"data-password="yes""#)
    );
}

#[tokio::test]
async fn a_websocket_from_another_origin_is_refused() {
    let (_, http_addr, _stop) = start(config(None, Limits::default())).await;
    let (reply, _) = upgrade(http_addr, Some("http://evil.example")).await;
    assert_eq!(reply.status, 403);
    assert_eq!(reply.header("content-security-policy"), Some(CSP));
    let (reply, _) = upgrade(http_addr, Some("null")).await;
    assert_eq!(reply.status, 403);
    let (same, _) = upgrade(http_addr, Some(&format!("http://{http_addr}"))).await;
    assert_eq!(same.status, 101);
    let (tool, _) = upgrade(http_addr, None).await;
    assert_eq!(tool.status, 101, "a client without Origin is not a browser");
}

/// The upgraded connection stays open: its 101 says `Connection: upgrade`
/// alone, not the `upgrade, close` hyper writes when keep-alive is off,
/// which strict WebSocket clients (tungstenite's) refuse.
#[tokio::test]
async fn an_upgrade_does_not_say_close() {
    let (_, http_addr, _stop) = start(config(None, Limits::default())).await;
    let (reply, _) = upgrade(http_addr, Some(&format!("http://{http_addr}"))).await;
    assert_eq!(reply.status, 101);
    assert_eq!(reply.header("connection"), Some("upgrade"));
}

#[tokio::test]
async fn a_browser_and_a_tcp_player_play_one_round_in_one_room() {
    let (tcp_addr, http_addr, _stop) = start(config(None, Limits::default())).await;
    let mut ws = Ws::open(http_addr).await;
    ws.send(&hello("ann")).await;
    assert!(matches!(
        ws.until(|m| matches!(m, ServerMsg::Welcome { .. })).await,
        ServerMsg::Welcome { .. }
    ));
    let stream = TcpStream::connect(tcp_addr).await.expect("connects");
    let (read, mut write) = stream.into_split();
    let mut lines = BufReader::new(read).lines();
    write
        .write_all(encode(&hello("bob")).as_bytes())
        .await
        .expect("sent");
    for msg in [ClientMsg::Ready] {
        ws.send(&msg).await;
        write
            .write_all(encode(&msg).as_bytes())
            .await
            .expect("sent");
    }
    let start = ws
        .until(|m| matches!(m, ServerMsg::RoundStart { .. }))
        .await;
    let ServerMsg::RoundStart { board, .. } = start else {
        unreachable!()
    };
    assert_eq!(board.concat(), "BENHLAUMITLZRGAN");
    ws.send(&ClientMsg::Word { word: "eat".into() }).await;
    let verdict = ws.until(|m| matches!(m, ServerMsg::Verdict { .. })).await;
    assert!(
        matches!(verdict, ServerMsg::Verdict { accepted: true, .. }),
        "{verdict:?}"
    );
    for msg in [ClientMsg::Word { word: "eat".into() }, ClientMsg::Done] {
        write
            .write_all(encode(&msg).as_bytes())
            .await
            .expect("sent");
    }
    ws.send(&ClientMsg::Done).await;
    let results = ws.until(|m| matches!(m, ServerMsg::Results { .. })).await;
    let ServerMsg::Results { players, .. } = results else {
        unreachable!()
    };
    assert_eq!(players.len(), 2);
    for player in &players {
        assert_eq!(player.score, 0, "EAT is cancelled for both: {players:?}");
        assert!(player.words.iter().all(|w| w.cancelled));
    }
    // The TCP player heard the same results.
    let mut heard = false;
    while let Ok(Ok(Some(line))) = tokio::time::timeout(GUARD, lines.next_line()).await {
        if line.contains(r#""type":"results""#) {
            heard = true;
            break;
        }
    }
    assert!(heard);
}

#[tokio::test]
async fn a_message_over_the_cap_is_too_long_as_a_tcp_line_is() {
    let (_, http_addr, _stop) = start(config(None, Limits::default())).await;
    // Just under: MAX_LINE counts a newline the message does not carry.
    let mut ws = Ws::open(http_addr).await;
    let padded = format!(
        r#"{{"type":"hello","version":1,"name":"ann","pad":"{}"}}"#,
        "x".repeat(MAX_LINE - 100)
    );
    assert!(padded.len() < MAX_LINE - 1);
    let fits = format!("{padded:<width$}", width = MAX_LINE - 1);
    ws.send_text(&fits).await;
    assert!(matches!(
        ws.until(|m| matches!(m, ServerMsg::Welcome { .. })).await,
        ServerMsg::Welcome { .. }
    ));
    let mut ws = Ws::open(http_addr).await;
    ws.send_text(&format!("{padded:<width$}", width = MAX_LINE))
        .await;
    ws.refused(ErrorCode::TooLong).await;
    // Far over, the WebSocket layer itself refuses it: closed, never welcomed.
    let mut ws = Ws::open(http_addr).await;
    ws.send_text(&"x".repeat(MAX_WS_MESSAGE * 2)).await;
    while let Some(frame) = ws.recv().await {
        assert!(
            !matches!(&frame, Frame::Text(t) if t.contains("welcome")),
            "{frame:?}"
        );
    }
}

#[tokio::test]
async fn the_rate_names_and_connection_caps_are_the_servers() {
    let limits = Limits {
        max_connections: 2,
        rate_per_sec: 1.0,
        burst: 2.0,
        max_rate_strikes: 3,
        ..Limits::default()
    };
    let (_, http_addr, _stop) = start(config(None, limits)).await;
    let mut ws = Ws::open(http_addr).await;
    ws.send(&hello("<b>x</b>")).await;
    assert!(matches!(
        ws.until(|m| matches!(m, ServerMsg::Welcome { .. })).await,
        ServerMsg::Welcome { .. }
    ));
    let mut other = Ws::open(http_addr).await;
    // The third connection is over the cap.
    let mut third = Ws::open(http_addr).await;
    third.refused(ErrorCode::ServerFull).await;
    other.send(&hello("a\u{202e}b")).await;
    other.refused(ErrorCode::BadName).await;
    for _ in 0..10 {
        ws.send(&ClientMsg::Ping).await;
    }
    let mut codes = Vec::new();
    while let Some(msg) = ws.message().await {
        if let ServerMsg::Error { code, .. } = msg {
            codes.push(code);
        }
    }
    assert!(codes.contains(&ErrorCode::RateLimited), "{codes:?}");
    assert_eq!(codes.last(), Some(&ErrorCode::TooManyMessages), "{codes:?}");
}

#[tokio::test]
#[expect(
    clippy::disallowed_methods,
    reason = "a poll: a pause between looks, in a loop bounded by a deadline"
)]
async fn a_shutdown_says_goodbye_to_a_browser_and_stops_the_web_side() {
    let (_, http_addr, stop) = start(config(None, Limits::default())).await;
    let mut ws = Ws::open(http_addr).await;
    ws.send(&hello("ann")).await;
    ws.until(|m| matches!(m, ServerMsg::Lobby { .. })).await;
    let _ = stop.send(());
    let bye = ws.until(|m| matches!(m, ServerMsg::Bye { .. })).await;
    assert!(matches!(bye, ServerMsg::Bye { .. }));
    let mut gone = false;
    for _ in 0..100 {
        if TcpStream::connect(http_addr).await.is_err() {
            gone = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(gone, "the web listener closed");
}

#[tokio::test]
async fn a_connection_that_says_nothing_is_closed() {
    let limits = Limits {
        hello_timeout: Duration::from_millis(200),
        ..Limits::default()
    };
    let (_, http_addr, _stop) = start(config(None, limits)).await;
    let mut silent = TcpStream::connect(http_addr).await.expect("connects");
    let mut byte = [0u8; 1];
    let read = tokio::time::timeout(GUARD, silent.read(&mut byte))
        .await
        .expect("closed before the guard");
    assert!(matches!(read, Ok(0) | Err(_)), "{read:?}");
    // One that speaks is served.
    assert_eq!(get(http_addr, "/").await.status, 200);
    // Kept alive after its answer, one that then says nothing is closed too.
    let mut kept = BufReader::new(TcpStream::connect(http_addr).await.expect("connects"));
    let health = format!("GET /healthz HTTP/1.1\r\nHost: {http_addr}\r\n\r\n");
    assert_eq!(exchange(&mut kept, &health).await.status, 200);
    let read = tokio::time::timeout(GUARD, kept.read(&mut byte))
        .await
        .expect("closed before the guard");
    assert!(matches!(read, Ok(0) | Err(_)), "{read:?}");
}

/// A web listener that fails ends the server with its
/// reason, instead of the TCP side going on alone.
#[tokio::test]
async fn a_failed_web_listener_stops_the_server_with_its_reason() {
    let server = Server::bind("127.0.0.1:0", config(None, Limits::default()))
        .await
        .expect("binds");
    let tcp = server.local_addr().expect("address");
    let failing = async { Err(io::Error::other("the listener broke")) };
    let never = std::future::pending::<()>();
    let ended = tokio::time::timeout(GUARD, server.run_beside(failing, never))
        .await
        .expect("the server stops by itself");
    let error = ended.expect_err("the web side's failure is the server's");
    assert!(
        matches!(&error, crate::server::ServerError::Web(e) if e.to_string() == "the listener broke"),
        "{error:?}"
    );
    assert!(
        TcpStream::connect(tcp).await.is_err(),
        "the TCP side is closed too"
    );
}

/// Which hosts a connection may name (DNS rebinding names the attacker's).
#[test]
fn the_allowed_hosts() {
    let local: SocketAddr = "127.0.0.1:8040".parse().expect("address");
    let names = vec!["boggle.example".to_string()];
    for good in [
        "127.0.0.1:8040",
        "localhost:8040",
        "LOCALHOST:8040",
        "boggle.example",
    ] {
        assert!(http::host_allowed(Some(good), local, &names), "{good}");
    }
    for bad in [
        "attacker.example:8040",
        "127.0.0.1:9999",
        "127.0.0.2:8040",
        "127.0.0.1",
        "",
    ] {
        assert!(!http::host_allowed(Some(bad), local, &names), "{bad}");
    }
    assert!(!http::host_allowed(None, local, &names));
    let v6: SocketAddr = "[::1]:8040".parse().expect("address");
    assert!(http::host_allowed(Some("[::1]:8040"), v6, &[]));
}

#[tokio::test]
#[expect(
    clippy::disallowed_methods,
    reason = "a poll: a pause between looks, in a loop bounded by a deadline"
)]
async fn the_days_leaderboard_is_served_as_json_when_the_server_keeps_one() {
    use crate::room::DailyResult;
    use crate::store::{Store, StoreLimits};
    use boggle_protocol::DayScore;
    let (_, bare, _stop) = start(config(None, Limits::default())).await;
    assert_eq!(get(bare, "/daily/leaderboard").await.status, 404);

    let dir = tempfile::tempdir().expect("temp dir");
    let store = Store::open_dir(dir.path(), 12, StoreLimits::default()).expect("opens");
    let ip = std::net::IpAddr::from([127, 0, 0, 1]);
    for (seat, name, points) in [("a", "ann", 3), ("b", "<b>bob</b>", 9)] {
        let player = seat.repeat(32);
        store.begin(12, Some(&player), name, ip, String::new());
        let score = DayScore {
            points,
            words: 2,
            longest: 4,
        };
        store.finish(&DailyResult {
            day: 12,
            player,
            score,
        });
    }
    let mut kept = config(None, Limits::default());
    kept.store = Some(store);
    let (_, addr, _stop) = start(kept).await;
    // Written in the background: the copy has both once the worker is through.
    let give_up = std::time::Instant::now() + Duration::from_secs(20);
    let reply = loop {
        let reply = get(addr, "/daily/leaderboard?day=12").await;
        if reply.body.contains("ann") || std::time::Instant::now() > give_up {
            break reply;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("content-type"), Some("application/json"));
    assert_eq!(reply.header("content-security-policy"), Some(CSP));
    let body: serde_json::Value = serde_json::from_str(&reply.body).expect("JSON");
    assert_eq!(
        body,
        serde_json::json!({"day": 12, "results": [
            {"name": "<b>bob</b>", "points": 9, "words": 2, "longest": 4},
            {"name": "ann", "points": 3, "words": 2, "longest": 4},
        ]})
    );
    for bad in ["day=", "day=-1", "day=seven", "day=99999999999", "day=x"] {
        let reply = get(addr, &format!("/daily/leaderboard?{bad}")).await;
        assert_eq!(reply.status, 400, "{bad}");
        assert_eq!(reply.header("content-security-policy"), Some(CSP));
    }
    let other = get(addr, "/daily/leaderboard?x=1&day=12").await;
    assert_eq!(other.status, 200);
    assert_eq!(other.body, reply.body, "other keys are ignored");
}

/// `/healthz` says serving, and stopping (503) while a round under way
/// finishes; `/metrics` is the Prometheus text, every metric named, a
/// verdict in the latency histogram; the players are told the server is
/// stopping, get their round's results, then a goodbye.
#[tokio::test]
async fn health_and_metrics_are_served_and_a_stop_lets_the_round_finish() {
    let options = Options {
        monitor: Some(crate::monitor::install()),
        ..Options::default()
    };
    let (_, addr, stop, hurry) = start_with(config(None, Limits::default()), options).await;

    let health = get(addr, "/healthz").await;
    assert_eq!((health.status, health.body.as_str()), (200, "serving\n"));
    assert_eq!(health.header("content-security-policy"), Some(CSP));
    let mut players = [Ws::open(addr).await, Ws::open(addr).await];
    for (ws, name) in players.iter_mut().zip(["ann", "bob"]) {
        ws.send(&hello(name)).await;
        ws.until(|m| matches!(m, ServerMsg::Welcome { .. })).await;
        ws.send(&ClientMsg::Ready).await;
    }
    for ws in &mut players {
        ws.until(|m| matches!(m, ServerMsg::RoundStart { .. }))
            .await;
    }
    players[0]
        .send(&ClientMsg::Word { word: "eat".into() })
        .await;
    players[0]
        .until(|m| matches!(m, ServerMsg::Verdict { .. }))
        .await;

    let metrics = get(addr, "/metrics").await;
    assert_eq!(metrics.status, 200);
    assert!(
        metrics
            .header("content-type")
            .is_some_and(|t| t.starts_with("text/plain; version=0.0.4")),
        "{:?}",
        metrics.header("content-type")
    );
    for metric in crate::monitor::NAMES {
        let kind = format!("{:?}", metric.kind).to_lowercase();
        let typed = format!("# TYPE {} {kind}\n", metric.name);
        // A labelled counter shows once a series is recorded: the refusals'
        // reasons are, at zero, when the server starts.
        if metric.label.is_none() || metric.name == "boggle_refusals_total" {
            assert!(metrics.body.contains(&typed), "{typed}: {}", metrics.body);
        }
    }
    assert!(
        metrics
            .body
            .contains("boggle_refusals_total{reason=\"server_full\"} 0"),
        "{}",
        metrics.body
    );
    assert!(
        metrics
            .body
            .contains("boggle_verdict_seconds_bucket{le=\"1\"}"),
        "{}",
        metrics.body
    );
    assert!(
        !metrics.body.contains("boggle_verdict_seconds_count 0\n"),
        "{}",
        metrics.body
    );

    let _ = stop.send(());
    for ws in &mut players {
        let told = ws.until(|m| matches!(m, ServerMsg::Error { .. })).await;
        assert!(
            matches!(&told, ServerMsg::Error { code: ErrorCode::ShuttingDown, message, .. }
                if message.starts_with("the server is shutting down: this round ends within")),
            "{told:?}"
        );
    }
    let health = get(addr, "/healthz").await;
    assert_eq!((health.status, health.body.as_str()), (503, "stopping\n"));
    // The round would go on for its minute's grace; a second signal ends it now.
    hurry.now();
    for ws in &mut players {
        ws.until(|m| matches!(m, ServerMsg::Results { .. })).await;
        let bye = ws.until(|m| matches!(m, ServerMsg::Bye { .. })).await;
        assert!(matches!(bye, ServerMsg::Bye { .. }), "{bye:?}");
    }
}

#[test]
fn a_meanings_word_is_read_from_the_query_and_bounded() {
    use super::meaning::word_asked;
    assert_eq!(word_asked(Some("word=boxes")), Ok("BOXES".into()));
    assert_eq!(word_asked(Some("x=1&word=Ran")), Ok("RAN".into()));
    let longest = "A".repeat(64);
    assert_eq!(word_asked(Some(&format!("word={longest}"))), Ok(longest));
    for refused in [
        None,
        Some(""),
        Some("w=box"),
        Some("word="),
        Some("word=b0x"),
        Some("word=two%20words"),
        Some("word=na%C3%AFve"),
        Some("word=box&word=fox"),
    ] {
        assert!(word_asked(refused).is_err(), "{refused:?}");
    }
    assert!(word_asked(Some(&format!("word={}", "A".repeat(65)))).is_err());
}

#[tokio::test]
async fn a_words_meaning_is_served_one_word_at_a_time() {
    use boggle_protocol::meaning::{Meaning, PartOfSpeech};
    let (_, addr, _stop) = start(config(None, Limits::default())).await;
    let reply = get(addr, "/meaning?word=boxes").await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.header("content-type"), Some("application/json"));
    assert_eq!(reply.header("content-security-policy"), Some(CSP));
    let meaning: Meaning = serde_json::from_str(&reply.body).expect("the page's Meaning");
    assert_eq!(meaning.word, "BOXES");
    assert_eq!(meaning.entries[0].lemma, "box");
    assert_eq!(meaning.entries[0].senses[0].part, PartOfSpeech::Noun);
    assert_eq!(
        meaning.entries[0].senses[0].definition,
        "a (usually rectangular) container; may have a lid"
    );
    // Irregular forms reach their lemma by WordNet's exception lists.
    for (word, lemma) in [("MICE", "mouse"), ("ran", "run")] {
        let reply = get(addr, &format!("/meaning?word={word}")).await;
        let meaning: Meaning = serde_json::from_str(&reply.body).expect("JSON");
        assert!(
            meaning.entries.iter().any(|e| e.lemma == lemma),
            "{word}: {meaning:?}"
        );
    }
    // No entry is an answer, with nothing in it.
    let reply = get(addr, "/meaning?word=qxz").await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.body, r#"{"word":"QXZ","entries":[]}"#);
    // What is not one word is refused, saying why, under the same headers.
    for path in [
        "/meaning",
        "/meaning?word=",
        "/meaning?word=b%30x",
        "/meaning?word=box&word=fox",
        &format!("/meaning?word={}", "Q".repeat(65)),
    ] {
        let reply = get(addr, path).await;
        assert_eq!(reply.status, 400, "{path}");
        assert_eq!(reply.header("content-security-policy"), Some(CSP), "{path}");
        assert!(
            reply.body.starts_with("ask for one word") || reply.body.starts_with("a word is"),
            "{path}: {}",
            reply.body
        );
    }
    assert_eq!(get(addr, "/meaning/box").await.status, 404);
}

mod abuse;
mod store_health;
