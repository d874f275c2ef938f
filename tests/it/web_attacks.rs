//! The web side against one attacker (slow or silent sockets, foreign
//! `Host`s, connection caps, missing headers, unlogged refusals), each
//! attack played against a real `boggle serve --web` on 127.0.0.1, spoken
//! by hand (HTTP/1.1 and RFC 6455 frames on plain sockets), bounded in count
//! and time. Memory is the server process's peak resident size (VmHWM,
//! Linux); each memory test prints its figure
//! (`cargo test --test it web_attacks:: -- --nocapture`).

use crate::common::net::status_code;
use crate::common::{self, Killed, assert_contains, boggle, wait_until};

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::Stdio;
use std::time::{Duration, Instant};

use boggle_protocol::{ClientMsg, VERSION, encode};

/// Hang guard for any one wait.
const GUARD: Duration = Duration::from_secs(30);

/// A `boggle serve --web` child, killed when dropped.
struct Served {
    child: Killed,
    tcp: SocketAddr,
    web: SocketAddr,
    /// Its `--data` (the day's results), removed after the server is killed.
    _data: tempfile::TempDir,
}

impl Served {
    fn start(extra: &[&str]) -> Served {
        Served::start_with(extra, &[])
    }

    fn start_with(extra: &[&str], env: &[(&str, &str)]) -> Served {
        let data = tempfile::tempdir().expect("temp dir");
        let mut child = Killed(
            boggle(["serve", "--listen", "127.0.0.1:0", "--web", "127.0.0.1:0"])
                .arg("--data")
                .arg(data.path())
                .args(["--board", "BENHLAUMITLZRGAN"])
                .args(extra)
                .envs(env.iter().copied())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("boggle serve starts"),
        );
        let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
        let mut next = |prefix: &str| -> SocketAddr {
            let line = lines.next().expect("a line").expect("readable");
            let addr = line.strip_prefix(prefix).expect(prefix);
            addr.trim_start_matches("http://")
                .trim_end_matches('/')
                .parse()
                .expect("an address")
        };
        let tcp = next("listening on ");
        let web = next("web page on ");
        Served {
            child,
            tcp,
            web,
            _data: data,
        }
    }

    /// The server's peak resident memory so far, in kB.
    fn peak_kb(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("/proc is there (Linux)");
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .expect("VmHWM")
    }

    /// Stops the server and returns what it wrote to stderr.
    fn stop(mut self) -> String {
        common::signal(self.child.id(), "TERM");
        let mut stderr = String::new();
        if let Some(mut err) = self.child.stderr.take() {
            let _ = err.read_to_string(&mut stderr);
        }
        stderr
    }
}

/// Sends `request` on a new connection (from `from`, if given) and returns
/// the response head (status, lower-case header lines) and the stream.
fn request_from(
    to: SocketAddr,
    from: Option<&str>,
    request: &[u8],
) -> (u16, Vec<String>, BufReader<TcpStream>) {
    let stream = match from {
        Some(ip) => connect_from(to, ip),
        None => TcpStream::connect(to).expect("connects"),
    };
    stream.set_read_timeout(Some(GUARD)).expect("timeout");
    (&stream).write_all(request).expect("request sent");
    let mut reader = BufReader::new(stream);
    let mut status = String::new();
    reader.read_line(&mut status).expect("status line");
    let code = status_code(&status);
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).expect("a header line");
        let line = line.trim_end().to_ascii_lowercase();
        if line.is_empty() {
            break;
        }
        headers.push(line);
    }
    (code, headers, reader)
}

/// A blocking connection to `to` from address `ip` (another loopback address).
fn connect_from(to: SocketAddr, ip: &str) -> TcpStream {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let socket = tokio::net::TcpSocket::new_v4().expect("socket");
        socket
            .bind(format!("{ip}:0").parse().expect("address"))
            .expect("binds");
        let stream = socket.connect(to).await.expect("connects");
        let stream = stream.into_std().expect("a std stream");
        stream.set_nonblocking(false).expect("blocking");
        stream
    })
}

fn request(to: SocketAddr, request: &[u8]) -> (u16, Vec<String>, BufReader<TcpStream>) {
    request_from(to, None, request)
}

/// A WebSocket upgrade request to `/ws` naming `host`, with `extra` header lines.
fn upgrade(host: &str, extra: &str) -> Vec<u8> {
    format!(
        "GET /ws HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n{extra}\r\n"
    )
    .into_bytes()
}

/// A client's (masked) frame.
fn frame(opcode: u8, payload: &[u8]) -> Vec<u8> {
    let mask = [1u8, 2, 3, 4];
    let mut out = vec![0x80 | opcode];
    match payload.len() {
        n @ 0..=125 => out.push(0x80 | u8::try_from(n).expect("small")),
        n => {
            out.push(0x80 | 126);
            out.extend_from_slice(&u16::try_from(n).expect("under 64 KiB").to_be_bytes());
        }
    }
    out.extend_from_slice(&mask);
    out.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    out
}

fn hello_frame(name: &str) -> Vec<u8> {
    let hello = ClientMsg::Hello {
        version: VERSION,
        name: name.into(),
        room: None,
        password: None,
        token: None,
        solo: None,
    };
    frame(1, encode(&hello).trim_end().as_bytes())
}

fn has_security_headers(headers: &[String]) -> bool {
    [
        "content-security-policy:",
        "x-content-type-options: nosniff",
        "x-frame-options: deny",
    ]
    .iter()
    .all(|h| headers.iter().any(|line| line.starts_with(h)))
}

/// Writes pings and never reads, until the server closes the connection;
/// whether it did within the guard.
#[expect(clippy::disallowed_methods, reason = "a deadline that bounds a wait")]
fn ping_flood(stream: &TcpStream) -> bool {
    let pings: Vec<u8> = (0..512).flat_map(|_| frame(9, &[b'p'; 125])).collect();
    stream
        .set_write_timeout(Some(Duration::from_millis(200)))
        .expect("timeout");
    let start = Instant::now();
    while start.elapsed() < GUARD {
        let mut writer = stream;
        match writer.write(&pings) {
            Ok(_) => {}
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(_) => return true,
        }
    }
    false
}

/// A client that pings and never reads, after hello or before it,
/// is dropped, and the server's memory stays bounded meanwhile; the TCP
/// side is still served.
#[test]
fn a_ping_flood_is_dropped_and_the_server_stays_small() {
    let served = Served::start(&[]);
    let host = served.web.to_string();
    let before = served.peak_kb();
    for said_hello in [true, false] {
        let (status, _, reader) = request(served.web, &upgrade(&host, ""));
        assert_eq!(status, 101);
        let stream = reader.into_inner();
        if said_hello {
            (&stream).write_all(&hello_frame("eve")).expect("hello");
        }
        assert!(
            ping_flood(&stream),
            "the flooder was dropped (hello: {said_hello})"
        );
    }
    let peak = served.peak_kb();
    println!("ping flood: server peak {peak} kB (before {before} kB)");
    assert!(
        peak < before + 64 * 1024,
        "the server grew from {before} kB to {peak} kB"
    );
    let tcp = TcpStream::connect(served.tcp).expect("the TCP side still listens");
    drop(tcp);
}

/// Sockets that send a byte and stop, or a long unfinished head,
/// hold no more than a few places of their address, are closed within
/// seconds, and the page is served to another address meanwhile.
#[test]
#[expect(clippy::disallowed_methods, reason = "a deadline that bounds a wait")]
fn slow_sockets_do_not_hold_the_web_port() {
    let served = Served::start(&["--max-connections", "20"]);
    let before = served.peak_kb();
    let mut slow = Vec::new();
    let head_part: Vec<u8> = [&b"GET / HTTP/1.1\r\nX-Pad: "[..], &[b'a'; 64 << 10][..]].concat();
    for i in 0..1000 {
        let stream = TcpStream::connect(served.web).expect("connects");
        stream.set_nonblocking(true).expect("non-blocking");
        let bytes: &[u8] = if i % 2 == 0 { b"G" } else { &head_part };
        let _ = (&stream).write(bytes);
        slow.push(stream);
    }
    let host = served.web.to_string();
    let page = format!("GET / HTTP/1.1\r\nHost: {host}\r\n\r\n");
    let start = Instant::now();
    let (status, headers, _) = request_from(served.web, Some("127.0.0.2"), page.as_bytes());
    assert_eq!(status, 200, "the page is served beside 1000 slow sockets");
    assert!(has_security_headers(&headers));
    assert!(start.elapsed() < Duration::from_secs(10), "served at once");
    // Every slow socket is closed: at once past the waiting room, after its
    // wait for a place, or after the head's time limit.
    for stream in &slow {
        stream.set_nonblocking(false).expect("blocking");
        stream.set_read_timeout(Some(GUARD)).expect("timeout");
        let mut rest = Vec::new();
        let _ = (&*stream).read_to_end(&mut rest);
    }
    assert!(
        start.elapsed() < GUARD,
        "all closed within {:?}",
        start.elapsed()
    );
    let peak = served.peak_kb();
    println!("1000 slow sockets: server peak {peak} kB (before {before} kB)");
    assert!(
        peak < before + 64 * 1024,
        "grew from {before} kB to {peak} kB"
    );
}

/// A request whose `Host` is not the served address (DNS rebinding:
/// Host and Origin both the attacker's) is refused; `--web-host` names are served.
#[test]
fn a_request_for_another_host_is_refused() {
    let served = Served::start(&["--web-host", "boggle.example"]);
    let port = served.web.port();
    let evil = format!("attacker.example:{port}");
    let (status, headers, _) = request(
        served.web,
        &upgrade(&evil, &format!("Origin: http://{evil}\r\n")),
    );
    assert_eq!(status, 421);
    assert!(has_security_headers(&headers));
    let page = |host: &str| format!("GET / HTTP/1.1\r\nHost: {host}\r\n\r\n");
    assert_eq!(request(served.web, page(&evil).as_bytes()).0, 421);
    for good in [
        served.web.to_string(),
        format!("localhost:{port}"),
        "boggle.example".into(),
    ] {
        assert_eq!(request(served.web, page(&good).as_bytes()).0, 200, "{good}");
    }
    let origin = format!("Origin: http://{}\r\n", served.web);
    assert_eq!(
        request(served.web, &upgrade(&served.web.to_string(), &origin)).0,
        101
    );
}

/// Every response the router makes carries the security headers: a 405,
/// `GET /ws` without an upgrade, a 304. A head hyper cannot parse gets
/// hyper's own 400 or 431, which no middleware sees and which carries none
/// of them: it has no body for a browser to render, and the connection
/// ends with it.
#[test]
fn every_response_carries_the_security_headers() {
    let served = Served::start(&[]);
    let host = served.web.to_string();
    let page = format!("GET / HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
    let (status, headers, _) = request(served.web, page.as_bytes());
    assert_eq!(status, 200);
    let tag = headers
        .iter()
        .find_map(|line| line.strip_prefix("etag: "))
        .expect("the page has an ETag")
        .to_string();
    let routed: Vec<(u16, String)> = vec![
        (
            405,
            format!("POST / HTTP/1.1\r\nHost: {host}\r\nContent-Length: 0\r\n\r\n"),
        ),
        (400, format!("GET /ws HTTP/1.1\r\nHost: {host}\r\n\r\n")),
        (
            304,
            format!("GET / HTTP/1.1\r\nHost: {host}\r\nIf-None-Match: {tag}\r\n\r\n"),
        ),
    ];
    for (want, req) in routed {
        let (status, headers, _) = request(served.web, req.as_bytes());
        let shown = req.chars().take(40).collect::<String>();
        assert!(
            status == want || (want == 400 && status == 426),
            "{shown:?}: {status}"
        );
        assert!(has_security_headers(&headers), "{shown:?}: {headers:?}");
    }
    let long = "a".repeat(40 << 10);
    let unparsed: Vec<(u16, String)> = vec![
        (400, "GARBAGE\x01 / HTTP/1.1\r\n\r\n".into()),
        (
            431,
            format!("GET / HTTP/1.1\r\nHost: {host}\r\nX-Long: {long}\r\n\r\n"),
        ),
    ];
    for (want, req) in unparsed {
        let (status, headers, mut rest) = request(served.web, req.as_bytes());
        let shown = req.chars().take(40).collect::<String>();
        assert_eq!(status, want, "{shown:?}");
        assert!(
            headers.iter().any(|h| h == "content-length: 0"),
            "{shown:?}: {headers:?}"
        );
        let mut after = Vec::new();
        let _ = rest.read_to_end(&mut after);
        assert!(after.is_empty(), "{shown:?}: nothing follows the head");
    }
}

/// Whether a WebSocket from `from` (a loopback address) with `forwarded`
/// header lines is let in: a refused socket hears `server_full` at once,
/// an admitted one nothing. The socket is returned to be held open.
fn ws_admitted(served: &Served, from: &str, forwarded: &str) -> (bool, BufReader<TcpStream>) {
    let host = served.web.to_string();
    let (status, _, mut reader) = request_from(served.web, Some(from), &upgrade(&host, forwarded));
    assert_eq!(status, 101);
    reader
        .get_ref()
        .set_read_timeout(Some(Duration::from_millis(500)))
        .expect("timeout");
    let mut head = [0u8; 2];
    let refused = match reader.read_exact(&mut head) {
        Ok(()) => {
            let mut text = vec![0u8; usize::from(head[1] & 0x7f)];
            let _ = reader.read_exact(&mut text);
            String::from_utf8_lossy(&text).contains("server_full")
        }
        Err(_) => false,
    };
    (!refused, reader)
}

/// An address holds at most its cap of connections, whatever it forwards
/// when no proxy is trusted.
#[test]
fn connections_are_capped_per_address_and_headers_are_not_believed_by_default() {
    let plain = Served::start(&["--max-address-connections", "1"]);
    let (first, _one) = ws_admitted(&plain, "127.0.0.1", "");
    let (second, _two) = ws_admitted(&plain, "127.0.0.1", "X-Forwarded-For: 10.0.0.2\r\n");
    assert!(
        first && !second,
        "one connection from 127.0.0.1, forwarded or not"
    );
}

/// With `--trusted-proxy`, a direct peer outside the proxy's range is its
/// own address whatever it forwards (spoofing dodges no cap); from the
/// proxy, the client is the rightmost `X-Forwarded-For` entry that is not
/// the proxy's, so a client's own entries on its left and a `Forwarded`
/// header beside it change nothing.
#[test]
fn a_forwarded_address_is_believed_only_from_the_trusted_proxy() {
    let served = Served::start(&[
        "--max-address-connections",
        "1",
        "--trusted-proxy",
        "127.0.0.2/32",
    ]);
    // A direct client: its headers are ignored, its own address capped.
    let (a, _a) = ws_admitted(&served, "127.0.0.3", "X-Forwarded-For: 10.0.0.1\r\n");
    let (b, _b) = ws_admitted(&served, "127.0.0.3", "X-Forwarded-For: 10.0.0.2\r\n");
    let (c, _c) = ws_admitted(&served, "127.0.0.3", "Forwarded: for=10.0.0.3\r\n");
    assert!(a && !b && !c, "a direct peer is 127.0.0.3: {a} {b} {c}");
    // Through the proxy: 10.0.0.1 (the proxy appended it) is the client.
    let proxy = "127.0.0.2";
    let (d, _d) = ws_admitted(&served, proxy, "X-Forwarded-For: 10.0.0.1\r\n");
    let (e, _e) = ws_admitted(&served, proxy, "X-Forwarded-For: 10.0.0.9, 10.0.0.1\r\n");
    let (f, _f) = ws_admitted(
        &served,
        proxy,
        "X-Forwarded-For: 10.0.0.1\r\nForwarded: for=10.0.0.8\r\n",
    );
    let (g, _g) = ws_admitted(&served, proxy, "X-Forwarded-For: 10.0.0.4, 127.0.0.2\r\n");
    assert!(d, "the first player behind the proxy");
    assert!(
        !e,
        "a victim named left of the proxy's entry is not believed"
    );
    assert!(!f, "a Forwarded header beside the proxy's is not believed");
    assert!(g, "a trusted hop is skipped: 10.0.0.4 is another player");
}

/// A range that is not one stops `serve` before it starts, on one line.
#[test]
fn a_bad_trusted_proxy_range_is_refused_at_start() {
    let dir = common::TempDir::new("web-bad-cidr");
    for bad in ["10.0.0.0/33", "localhost", "10.0.0/8"] {
        let run = common::run_boggle(dir.path(), &["serve", "--trusted-proxy", bad], b"");
        common::assert_refused(&run, bad);
        assert_contains(&run.stderr, "--trusted-proxy");
    }
}

/// A burst of page loads from one address (a class behind one NAT) waits
/// its turn rather than being refused: with every HTTP place of the address
/// held by an unfinished head, 32 more requests from it are answered once
/// those heads are done.
#[test]
fn a_burst_from_one_address_waits_its_turn() {
    let served = Served::start(&[]);
    let host = served.web.to_string();
    let page = format!("GET / HTTP/1.1\r\nHost: {host}\r\n\r\n");
    let (head, tail) = page.split_at(page.len() - 2);
    let open = |bytes: &str| {
        let stream = connect_from(served.web, "127.0.0.3");
        stream.set_read_timeout(Some(GUARD)).expect("timeout");
        (&stream).write_all(bytes.as_bytes()).expect("sent");
        stream
    };
    let holding: Vec<TcpStream> = (0..16).map(|_| open(head)).collect();
    let burst: Vec<TcpStream> = (0..32).map(|_| open(&page)).collect();
    let status = |stream: &TcpStream| {
        let mut line = String::new();
        BufReader::new(stream)
            .read_line(&mut line)
            .expect("a status line");
        line.split_whitespace().nth(1).unwrap_or("").to_string()
    };
    for stream in &holding {
        (&*stream)
            .write_all(tail.as_bytes())
            .expect("head finished");
        assert_eq!(status(stream), "200");
    }
    let answered: Vec<String> = burst.iter().map(status).collect();
    assert!(
        answered.iter().all(|s| s == "200"),
        "every request of the burst is served: {answered:?}"
    );
}

/// A zero connection cap is refused at start, as the other zero caps are.
#[test]
fn a_zero_connection_cap_is_refused_at_start() {
    let dir = common::TempDir::new("web-zero-cap");
    for flag in [
        "--max-connections",
        "--max-address-connections",
        "--max-address-rooms",
    ] {
        let run = common::run_boggle(dir.path(), &["serve", flag, "0"], b"");
        assert_eq!(run.code, Some(2), "{flag}: {}", run.stderr);
        assert_contains(&run.stderr, flag);
    }
}

/// Binds, rooms opened and closed and refusals are logged to
/// stderr under `RUST_LOG`.
#[test]
fn the_server_logs_what_happens_under_rust_log() {
    let served = Served::start_with(&["--max-address-rooms", "1"], &[("RUST_LOG", "info")]);
    let hello = |room: &str| {
        let stream = TcpStream::connect(served.tcp).expect("connects");
        let msg = ClientMsg::Hello {
            version: VERSION,
            name: "ann".into(),
            room: Some(room.into()),
            password: None,
            token: None,
            solo: None,
        };
        (&stream).write_all(encode(&msg).as_bytes()).expect("hello");
        stream.set_read_timeout(Some(GUARD)).expect("timeout");
        let mut line = String::new();
        BufReader::new(&stream)
            .read_line(&mut line)
            .expect("an answer");
        (stream, line)
    };
    let (first, welcome) = hello("one");
    assert_contains(&welcome, "welcome");
    let (_second, refused) = hello("two");
    assert_contains(&refused, "too_many_rooms");
    drop(first);
    // The room is forgotten once its player has gone.
    let _third = wait_until(
        || {
            let (stream, line) = hello("three");
            line.contains("welcome").then_some(stream)
        },
        || "no welcome for a new room once the first room's player had gone".to_string(),
    );
    let log = served.stop();
    for said in [
        "listening",
        "web page served",
        "room opened",
        "room closed",
        "hello refused",
    ] {
        assert!(log.contains(said), "{said:?} in {log}");
    }
}

/// The lines not logged, as the log's lines counting them say.
fn held_back(lines: &[&str]) -> u64 {
    lines
        .iter()
        .filter_map(|l| l.split("held_back=").nth(1))
        .filter_map(|rest| rest.split_whitespace().next())
        .map(|n| n.parse::<u64>().expect("a count"))
        .sum()
}

/// A flood of refusals is logged at a bounded rate: 300 connections refused
/// for their address's rate make a few lines, and the last line about them
/// says how many were not logged, so the count is whole.
#[test]
#[expect(clippy::disallowed_methods, reason = "a deadline that bounds a wait")]
fn a_flood_of_refusals_is_logged_at_a_bounded_rate() {
    let served = Served::start_with(&["--address-rate", "1"], &[("RUST_LOG", "info")]);
    let start = Instant::now();
    let mut refused = 0u64;
    for _ in 0..300 {
        let stream = TcpStream::connect(served.tcp).expect("connects");
        let mut answer = String::new();
        // An admitted connection says nothing until hello: it is let go.
        stream
            .set_read_timeout(Some(Duration::from_millis(200)))
            .expect("timeout");
        let _ = BufReader::new(&stream).read_line(&mut answer);
        if answer.contains("server_full") {
            refused += 1;
        }
    }
    let elapsed = start.elapsed().as_secs_f64();
    let log = served.stop();
    let about: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("connection refused") || l.contains("not logged"))
        .collect();
    let logged = about
        .iter()
        .filter(|l| l.contains("connection refused"))
        .count() as u64;
    let held = held_back(&about);
    assert!(refused >= 250, "{refused} of 300 refused");
    let bound = 20 + (2.0 * elapsed).ceil() as u64 + 1;
    assert!(
        logged <= bound,
        "{logged} lines for {refused} refusals in {elapsed:.1} s"
    );
    assert_eq!(logged + held, refused, "every refusal logged or counted");
    let last = about.last().expect("lines about refusals");
    assert_contains(last, "not logged");
}

/// Rooms opened and closed as fast as a client can are logged at the
/// refusals' bounded rate: 300 rooms make a few lines, and every opening
/// is logged or counted in a line saying how many were not. (Before, each
/// made two lines: 6.7 MB of log in 25 s.)
#[test]
#[expect(
    clippy::disallowed_methods,
    reason = "the lines allowed depend on how long the loop took"
)]
fn rooms_opened_and_closed_in_a_loop_are_logged_at_a_bounded_rate() {
    let served = Served::start_with(
        &[
            "--address-rate",
            "1000",
            "--max-rooms",
            "1000",
            "--max-address-rooms",
            "1000",
        ],
        &[("RUST_LOG", "info")],
    );
    let start = Instant::now();
    for i in 0..300 {
        let stream = TcpStream::connect(served.tcp).expect("connects");
        stream.set_read_timeout(Some(GUARD)).expect("timeout");
        let hello = ClientMsg::Hello {
            version: VERSION,
            name: "eve".into(),
            room: Some(format!("r{i}")),
            password: None,
            token: None,
            solo: None,
        };
        (&stream)
            .write_all(encode(&hello).as_bytes())
            .expect("hello sent");
        let mut welcome = String::new();
        BufReader::new(&stream)
            .read_line(&mut welcome)
            .expect("an answer");
        assert_contains(&welcome, "welcome");
    }
    let elapsed = start.elapsed().as_secs_f64();
    let log = served.stop();
    let about_rooms = |l: &&str| {
        l.contains("room opened") || l.contains("room closed") || l.contains("rooms opened")
    };
    let about: Vec<&str> = log.lines().filter(about_rooms).collect();
    let logged = about.iter().filter(|l| !l.contains("not logged")).count() as u64;
    let held = held_back(&about);
    let bound = 20 + (2.0 * elapsed).ceil() as u64 + 1;
    assert!(logged <= bound, "{logged} lines in {elapsed:.1} s");
    // Every opening, and each closing seen before the stop, is logged or counted.
    assert!(
        (300..=600).contains(&(logged + held)),
        "{logged} logged, {held} held back"
    );
}
