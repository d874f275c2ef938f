//! The browser's way in (`boggle serve --web`): an HTTP listener (axum, on
//! the server's tokio) that serves one page and carries the protocol over a
//! WebSocket into the same rooms as the TCP clients.
//!
//! - `GET /` is the page: `page.html` with its style (`app.css`) and its
//!   script inline, the script being its ES modules ([`MODULES`]: `main.js`
//!   imports the rest) joined into one by the build (`build.rs`,
//!   `bundle.rs`), so a first visit is one request, not one a module. Each
//!   module is also served alone at `/js/NAME.js`, which the page does not
//!   load. All are embedded in the binary, served with an ETag and
//!   compressed (`files.rs`), written by hand but for `js/protocol.js`,
//!   which the protocol's types generate (with `js/messages.d.ts`, the
//!   declarations the TypeScript compiler checks the modules against, never
//!   served). Nothing is fetched from elsewhere. Every response carries
//!   its Content-Security-Policy, which lets the page run only its own script and style (the
//!   inline ones by their hashes) and connect only to its own origin.
//! - `GET /healthz` is `200 serving` while the server serves, `503
//!   stopping` once it is stopping (rounds under way finishing), and `503`
//!   with the reason while the results store cannot write (its worker not
//!   running, or a result waiting past 30 s); `GET
//!   /metrics` the server's metrics in the Prometheus text format
//!   ([`crate::monitor`]; `404` when `serve` installed no exporter), to a
//!   loopback peer naming no forwarded client only (`403` to anyone else,
//!   so a proxy in front never passes them on).
//! - `GET /daily` is today's board as JSON; `GET
//!   /daily/leaderboard?day=N` that day's best ten results as JSON
//!   (today's without `day`; 404 when the server keeps none); `GET
//!   /favicon.svg` the page's icon; `GET /meaning?word=WORD` what one word
//!   means (`meaning.rs`).
//! - `GET /ws` upgrades to a WebSocket whose every text message is one
//!   protocol line without its newline (docs/protocol.md). The upgrade is
//!   refused (403) when the request's `Origin` names another site than its
//!   `Host`, so a page elsewhere cannot play in a visitor's name. Each
//!   connection is let in by the server's [`Entrance`] (the connection cap
//!   and the per-address rate) and played by `Entrance::serve`, so the
//!   message cap, the rate, the names, the times and the queues are the
//!   TCP clients' own: `WsIncoming` hands over one message as a line (one
//!   of [`MAX_LINE`] bytes or more, newline counted, is `too_long`), and
//!   `WsOutgoing` sends each line as one text message within the write
//!   time limit.
//!
//! Limits: the HTTP part of every connection (keep-alive, each head within
//! a few seconds, places per address and in all, the `Host` check, the
//! headers of every response, compression, the client's address behind a
//! proxy) is `http.rs`'s. A WebSocket is then the server's client like any
//! other; its control frames count against the message rate, its frames'
//! bytes between two messages are capped at 256 KiB (`meter.rs`: a message
//! of endless empty fragments is `too_long`), and what the WebSocket layer
//! holds to write (pongs and close frames included) is capped at the
//! longest line the server sends and its frame's head, so a client that
//! pings and never reads is dropped and holds little meanwhile.
//! There is no TLS: put a reverse proxy in front (`--trust-proxy`, `proxy.rs`) to serve
//! the page beyond a trusted network. A message over 64 KiB is
//! refused by the WebSocket layer itself, which closes the connection
//! without a protocol error.

#[cfg(test)]
mod bundle;
mod files;
mod http;
mod meaning;
mod meter;
mod places;
mod proxy;

use std::io;
use std::net::SocketAddr;
use std::time::Duration;

use axum::Router;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get};
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use tokio::net::{TcpListener, TcpSocket};

use super::server::{Entrance, Heard, Incoming, Outgoing};
use boggle_protocol::{MAX_LINE, MAX_SERVER_LINE, ServerMsg, encode};
use files::File;
use http::ClientAddr;
pub use http::Options;
use meter::CONTROL_FRAME;
use meter::Meter;
pub(crate) use meter::PER_MESSAGE;
pub use proxy::{Cidr, CidrError};

/// The page's markup, its style and script inline (put together at build
/// time by `bundle.rs`); `{{PASSWORD}}` becomes `yes` or `no`, `{{RULES}}`
/// the rules' name and `{{SECONDS}}` a round's length, so the home screen
/// says what this server plays before anyone joins.
const PAGE: &str = include_str!(concat!(env!("OUT_DIR"), "/page.html"));
/// The page's style, as written (inline in [`PAGE`]).
#[cfg(test)]
const STYLE: &str = include_str!("app.css");
/// The page's script: its modules joined in the order they run (inline in the page).
#[cfg(test)]
const SCRIPT: &str = include_str!(concat!(env!("OUT_DIR"), "/script.js"));

/// The page's script as written: its modules by name, in the order
/// the page's inline script holds them, each also served alone at `/js/NAME` (so a test
/// or a developer can load one by itself; the page does not).
pub const MODULES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/modules.rs"));

/// The most bytes of HTML, CSS and JavaScript the page may weigh: a phone
/// on a slow network gets the game in a moment.
#[cfg(test)]
const MAX_PAGE_BYTES: usize = 96 << 10;

/// What the page weighs as served, in bytes: its markup, its style and its script.
#[cfg(test)]
fn page_bytes() -> (usize, usize, usize) {
    let style = include_str!("app.css").len();
    (PAGE.len() - style - SCRIPT.len(), style, SCRIPT.len())
}

/// The Content-Security-Policy every response carries: nothing but the
/// page's own style and script (the inline ones by their SHA-256, computed
/// at build time; the modules at `/js/`) and its own WebSocket; no other
/// inline code, no frames, no forms posted anywhere.
pub(crate) const CSP: &str = include_str!(concat!(env!("OUT_DIR"), "/csp.txt"));

/// The longest WebSocket message (and frame) the WebSocket layer reads at
/// all. Longer than [`MAX_LINE`] so that a message between the two gets the
/// protocol's own `too_long` error, as a long TCP line does.
pub(crate) const MAX_WS_MESSAGE: usize = 64 << 10;

/// The most bytes the WebSocket layer holds to write for one connection:
/// the longest line the server sends, and its frame's head. Past it, a pong
/// waits (one at most: a newer replaces it) and a line's write waits, within
/// the write time limit.
pub(crate) const MAX_WS_WRITE: usize = MAX_SERVER_LINE + 16;

/// A bound, not yet running web side of a server.
pub struct Web {
    listener: TcpListener,
    entrance: Entrance,
    options: Options,
}

/// What every request handler shares.
#[derive(Clone)]
struct App {
    entrance: Entrance,
    monitor: Option<crate::monitor::Monitor>,
}

/// Connections the kernel keeps waiting for the accept loop (capped by its
/// `somaxconn`, 4096 on current Linux): sockets that reconnect as fast as
/// they are closed fill tokio's default of 1024, and then a player's
/// connection is dropped and tried again only a second later.
const BACKLOG: u32 = 4096;

/// Listens on the first address `addr` names that binds, with [`BACKLOG`].
async fn listen(addr: &str) -> io::Result<TcpListener> {
    let mut failed = None;
    for addr in tokio::net::lookup_host(addr).await? {
        let bound = (|| {
            let socket = if addr.is_ipv4() {
                TcpSocket::new_v4()?
            } else {
                TcpSocket::new_v6()?
            };
            // As tokio's own bind: a restarted server takes its port at once.
            #[cfg(unix)]
            socket.set_reuseaddr(true)?;
            socket.bind(addr)?;
            socket.listen(BACKLOG)
        })();
        match bound {
            Ok(listener) => return Ok(listener),
            Err(e) => failed = Some(e),
        }
    }
    Err(failed.unwrap_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            "the address names no address to listen on",
        )
    }))
}

/// How often the exporter gathers the histograms' samples.
const UPKEEP_EVERY: Duration = Duration::from_secs(5);

impl Web {
    /// Binds `addr` (port 0 picks a free port) for the server behind `entrance`.
    pub async fn bind(addr: &str, entrance: Entrance) -> io::Result<Web> {
        Web::bind_with(addr, entrance, Options::default()).await
    }

    /// As [`Web::bind`], with the host names and proxy trust of `options`.
    pub async fn bind_with(addr: &str, entrance: Entrance, options: Options) -> io::Result<Web> {
        let listener = listen(addr).await?;
        Ok(Web {
            listener,
            entrance,
            options,
        })
    }

    /// The address it listens on.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves until the server behind the entrance shuts down; `Err` if
    /// the listener fails for good.
    pub async fn run(self) -> io::Result<()> {
        let shutdown = self.entrance.shutdown();
        let header_timeout = self.entrance.limits().hello_timeout.min(http::HEAD_TIMEOUT);
        if let Some(monitor) = self.options.monitor.clone() {
            let mut stopped = self.entrance.shutdown();
            tokio::spawn(async move {
                let mut every = tokio::time::interval(UPKEEP_EVERY);
                loop {
                    tokio::select! {
                        _ = every.tick() => monitor.upkeep(),
                        _ = stopped.wait_for(|stopped| *stopped) => return,
                    }
                }
            });
        }
        let routes = router(self.entrance.clone(), self.options.monitor.clone());
        let app = http::layers(routes, &self.options, self.entrance.clone());
        http::serve(
            self.listener,
            app,
            &self.options,
            self.entrance,
            header_timeout,
            shutdown,
        )
        .await
    }
}

/// The routes: the page, its style and modules, the WebSocket, the day's
/// board and results, health and metrics; anything else is 404.
fn router(entrance: Entrance, monitor: Option<crate::monitor::Monitor>) -> Router {
    let password = if entrance.has_password() { "yes" } else { "no" };
    let room = entrance.room_config();
    let page = PAGE
        .replace("{{PASSWORD}}", password)
        .replace("{{RULES}}", &room.word_find.rules().preset.to_string())
        .replace("{{SECONDS}}", &room.time.as_secs().to_string());
    let mut router = Router::new();
    for &(name, text) in MODULES {
        router = router.route(
            &format!("/js/{name}"),
            file_route(File::new("text/javascript; charset=utf-8", text)),
        );
    }
    router
        .route("/", file_route(File::new("text/html; charset=utf-8", page)))
        .route("/ws", get(socket))
        .route("/daily", get(daily_handler))
        .route("/daily/leaderboard", get(leaderboard_handler))
        .route(
            "/favicon.svg",
            file_route(File::new("image/svg+xml", FAVICON)),
        )
        .route("/healthz", get(health_handler))
        .route("/metrics", get(metrics_handler))
        .route("/meaning", get(meaning::meaning_handler))
        .fallback(|| async {
            with_headers(
                StatusCode::NOT_FOUND,
                "text/plain; charset=utf-8",
                "not found\n".to_string(),
            )
        })
        .with_state(App { entrance, monitor })
}

/// `GET` of one of the page's files: the file, or `304` when the browser's copy is it.
fn file_route(file: File) -> MethodRouter<App> {
    get(move |headers: HeaderMap| std::future::ready(file.answer(&headers)))
}

/// `GET /healthz`: `200 serving`; `503 stopping` once the server stops
/// (a load balancer then sends no one new here); `503` with the reason
/// while the results store cannot write (results would not be kept).
async fn health_handler(State(app): State<App>) -> Response {
    let trouble = app.entrance.store().and_then(|s| s.health().trouble());
    let (status, body) = if app.entrance.stopping() {
        (StatusCode::SERVICE_UNAVAILABLE, "stopping\n".to_string())
    } else if let Some(trouble) = trouble {
        (StatusCode::SERVICE_UNAVAILABLE, format!("{trouble}\n"))
    } else {
        (StatusCode::OK, "serving\n".to_string())
    };
    with_headers(status, "text/plain; charset=utf-8", body)
}

/// The headers a proxy names its client in: a request carrying any came
/// through one, whoever the peer is.
const FORWARDED_HEADERS: [&str; 3] = ["forwarded", "x-forwarded-for", "x-real-ip"];

/// Whether the metrics may be shown to this request: its peer is this
/// machine (loopback) and it names no forwarded client, so a request that
/// a proxy on this machine passes on from anyone is not the host's.
fn for_the_host(peer: std::net::IpAddr, headers: &HeaderMap) -> bool {
    let peer = match peer {
        std::net::IpAddr::V6(v6) => v6
            .to_ipv4_mapped()
            .map_or(std::net::IpAddr::V6(v6), std::net::IpAddr::V4),
        v4 => v4,
    };
    peer.is_loopback() && FORWARDED_HEADERS.iter().all(|h| !headers.contains_key(*h))
}

/// `GET /metrics`: every metric in the Prometheus text format, for the host
/// only ([`for_the_host`]): players, refusals and store failures are the
/// operator's to see.
async fn metrics_handler(
    State(app): State<App>,
    ConnectInfo(addrs): ConnectInfo<http::Addrs>,
    headers: HeaderMap,
) -> Response {
    if !for_the_host(addrs.peer.ip(), &headers) {
        return with_headers(
            StatusCode::FORBIDDEN,
            "text/plain; charset=utf-8",
            "the metrics are served only to this machine, not through a proxy\n".into(),
        );
    }
    // The store's gauges (up, the oldest row's wait) are read as scraped.
    if let Some(store) = app.entrance.store() {
        store.health();
    }
    match &app.monitor {
        Some(monitor) => with_headers(
            StatusCode::OK,
            "text/plain; version=0.0.4; charset=utf-8",
            monitor.render(),
        ),
        None => with_headers(
            StatusCode::NOT_FOUND,
            "text/plain; charset=utf-8",
            "this server keeps no metrics\n".into(),
        ),
    }
}

/// The page's icon, drawn in SVG (no image file to build).
const FAVICON: &str = include_str!("favicon.svg");

/// `GET /daily`: today's number, date and board as JSON (`boggle daily`'s
/// day), so the page can name the day it plays and its share text; with an
/// ETag like the page's files, since the page asks for it on every visit.
async fn daily_handler(headers: HeaderMap) -> Response {
    match boggle_game::daily::Daily::today() {
        Ok(day) => File::new("application/json", daily_json(&day)).answer(&headers),
        // Only a clock set before the first day gets here.
        Err(e) => with_headers(
            StatusCode::SERVICE_UNAVAILABLE,
            "text/plain; charset=utf-8",
            format!("{e}\n"),
        ),
    }
}

/// The query of `GET /daily/leaderboard`: `?day=N`, or today without it.
#[derive(Debug, serde::Deserialize)]
struct DayAsked {
    day: Option<u32>,
}

/// `GET /daily/leaderboard?day=N`: the day's best results, as
/// `{"day": N, "results": [{"name", "points", "words", "longest"}, ...]}`;
/// a `day` that is not a day's number is `400` (axum's `Query`).
async fn leaderboard_handler(State(app): State<App>, Query(asked): Query<DayAsked>) -> Response {
    let text = |status, body: String| with_headers(status, "text/plain; charset=utf-8", body);
    let Some(store) = app.entrance.store() else {
        return text(
            StatusCode::NOT_FOUND,
            "this server keeps no leaderboard\n".into(),
        );
    };
    let day = match asked.day {
        Some(day) => day,
        None => match boggle_game::daily::Daily::today() {
            Ok(today) => today.number,
            Err(e) => return text(StatusCode::SERVICE_UNAVAILABLE, format!("{e}\n")),
        },
    };
    // The store's copy of the day's top, refreshed on each write; a day
    // it has no copy of is read by its worker, never here.
    match store.top(day).await {
        Some(top) => {
            let body = serde_json::json!({ "day": day, "results": top.rows }).to_string();
            with_headers(StatusCode::OK, "application/json", body)
        }
        None => text(
            StatusCode::SERVICE_UNAVAILABLE,
            "the leaderboard cannot be read now\n".into(),
        ),
    }
}

/// The day as `/daily` sends it.
pub(crate) fn daily_json(day: &boggle_game::daily::Daily) -> String {
    let faces: Vec<&str> = day.board.faces().iter().map(|f| f.as_str()).collect();
    serde_json::json!({
        "number": day.number,
        "date": day.date.to_string(),
        "rows": day.board.rows(),
        "cols": day.board.cols(),
        "board": faces,
        "seconds": boggle_game::daily::SECONDS,
    })
    .to_string()
}

/// A response of `kind` (the security headers come from [`http::layers`]).
fn with_headers(status: StatusCode, kind: &'static str, body: String) -> Response {
    (status, [(header::CONTENT_TYPE, kind)], body).into_response()
}

/// Whether a WebSocket request may go on: a request without `Origin` is not
/// a browser's (browsers always send it on a WebSocket) and is let in as a
/// TCP client would be; one with an `Origin` must name the host it was sent
/// to (`http://` or `https://` and the `Host` header, case aside), so a page
/// served elsewhere cannot open a socket here. `null` and unreadable values
/// are refused.
pub(crate) fn same_origin(origin: Option<&str>, host: Option<&str>) -> bool {
    let Some(origin) = origin else {
        return true;
    };
    let Some(host) = host else {
        return false;
    };
    let rest = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"));
    rest.is_some_and(|rest| !host.is_empty() && rest.eq_ignore_ascii_case(host))
}

/// `GET /ws`: the Origin check, admission, then the protocol over the socket.
async fn socket(
    State(app): State<App>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    meter: Option<axum::Extension<Meter>>,
    upgrade: WebSocketUpgrade,
) -> Response {
    let text = |name| {
        headers
            .get(name)
            .and_then(|v: &HeaderValue| v.to_str().ok())
    };
    let origin_header = headers.get(header::ORIGIN);
    let origin = match origin_header {
        Some(value) => match value.to_str() {
            Ok(text) => Some(text),
            Err(_) => return forbidden(&app.entrance, client),
        },
        None => None,
    };
    if !same_origin(origin, text(header::HOST)) {
        return forbidden(&app.entrance, client);
    }
    // Small buffers: tungstenite's default read buffer is 128 KiB per
    // socket, allocated up front (32 MB for 250 browsers), while a client's
    // message is at most MAX_LINE; each line is flushed as it is sent.
    let upgrade = upgrade
        .max_message_size(MAX_WS_MESSAGE)
        .max_frame_size(MAX_WS_MESSAGE)
        .read_buffer_size(8 << 10)
        .write_buffer_size(0)
        .max_write_buffer_size(MAX_WS_WRITE);
    let entrance = app.entrance;
    let write_limit = entrance.limits().write_timeout;
    match entrance.admit(client) {
        Ok(admitted) => upgrade.on_upgrade(move |socket| async move {
            let (sink, stream) = socket.split();
            let meter = meter.map(|axum::Extension(meter)| meter);
            if let Some(meter) = &meter {
                meter.allow(PER_MESSAGE);
            }
            let incoming = WsIncoming {
                stream,
                buf: Vec::new(),
                meter,
            };
            let outgoing = WsOutgoing {
                sink,
                limit: write_limit,
            };
            entrance.serve(admitted, incoming, outgoing).await;
        }),
        Err(refusal) => upgrade.on_upgrade(move |socket| refuse(socket, refusal)),
    }
}

fn forbidden(entrance: &Entrance, client: std::net::IpAddr) -> Response {
    if entrance.refused("http_origin") {
        tracing::info!(%client, "web request refused: a WebSocket from another origin");
    }
    with_headers(
        StatusCode::FORBIDDEN,
        "text/plain; charset=utf-8",
        "a WebSocket from another origin is refused\n".to_string(),
    )
}

/// Tells a browser it was not let in (the server is full, or its address
/// connects too often), and closes.
async fn refuse(mut socket: WebSocket, msg: ServerMsg) {
    let line = encode(&msg);
    let limit = Duration::from_secs(2);
    let _ = tokio::time::timeout(limit, socket.send(Message::text(line.trim_end()))).await;
    let _ = tokio::time::timeout(limit, socket.close()).await;
}

/// The reading half of a browser's WebSocket, as whole protocol lines.
pub(crate) struct WsIncoming {
    stream: SplitStream<WebSocket>,
    /// The last message handed out (the returned line borrows it).
    buf: Vec<u8>,
    /// The connection's bytes read (none in a test that builds no connection).
    meter: Option<Meter>,
}

impl Incoming for WsIncoming {
    async fn next_message(&mut self) -> io::Result<Heard<'_>> {
        // Cancel-safe: a message is taken off the stream only in the poll
        // that returns it, and then handed out at once.
        let next = self.stream.next().await;
        let spent = self.meter.as_ref().is_some_and(Meter::spent);
        if let Some(meter) = &self.meter {
            // A control frame may come between a message's fragments: it
            // adds its own bytes, so pings cannot renew a message's allowance.
            match &next {
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => meter.extend(CONTROL_FRAME),
                _ => meter.allow(PER_MESSAGE),
            }
        }
        let data = match next {
            // Frames that went on past their bytes without ending a message.
            Some(Err(_)) if spent => return Ok(Heard::TooLong),
            None | Some(Ok(Message::Close(_))) => return Ok(Heard::Eof),
            Some(Err(e)) => return Err(io::Error::other(e)),
            // Answered by the WebSocket layer, but counted like any message.
            Some(Ok(Message::Ping(_) | Message::Pong(_))) => return Ok(Heard::Control),
            Some(Ok(Message::Text(text))) => axum::body::Bytes::from(text),
            Some(Ok(Message::Binary(bytes))) => bytes,
        };
        // A TCP line counts its newline; a message is a line without one.
        if data.len() + 1 > MAX_LINE {
            return Ok(Heard::TooLong);
        }
        self.buf.clear();
        self.buf.extend_from_slice(&data);
        Ok(Heard::Line(&self.buf))
    }

    async fn discard(&mut self, limit: usize) {
        if let Some(meter) = &self.meter {
            meter.allow(limit as u64);
        }
        let mut left = limit;
        while left > 0 {
            match self.stream.next().await {
                Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                Some(Ok(message)) => left = left.saturating_sub(message.into_data().len().max(1)),
            }
        }
    }
}

/// The writing half of a browser's WebSocket: one text message per line.
pub(crate) struct WsOutgoing {
    sink: SplitSink<WebSocket, Message>,
    limit: Duration,
}

impl Outgoing for WsOutgoing {
    async fn send_line(&mut self, line: &str) -> io::Result<()> {
        let message = Message::text(line.trim_end_matches(['\n', '\r']));
        match tokio::time::timeout(self.limit, self.sink.send(message)).await {
            Ok(sent) => sent.map_err(io::Error::other),
            Err(_) => Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the browser stopped reading",
            )),
        }
    }

    async fn close(&mut self) {
        let _ = tokio::time::timeout(self.limit, self.sink.close()).await;
    }
}

#[cfg(test)]
mod tests;
