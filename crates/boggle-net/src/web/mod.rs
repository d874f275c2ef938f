//! The browser's way in (`boggle serve --web`): an HTTP listener (axum, on
//! the server's tokio) that serves one page and carries the protocol over a
//! WebSocket into the same rooms as the TCP clients.
//!
//! - `GET /` is `page.html`; `/app.js` and `/app.css` are its script and
//!   style, all three embedded in the binary (`include_str!`), written by
//!   hand, with no build step and nothing fetched from elsewhere. Every
//!   response carries [`CSP`], which lets the page run only its own script
//!   and style and connect only to its own origin.
//! - `GET /daily` is today's board as JSON ([`daily_json`]); `GET
//!   /favicon.svg` the page's icon.
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
//! Limits: HTTP connections (page loads, and each WebSocket's own) are
//! capped at the server's `max_connections` plus [`HTTP_HEADROOM`]
//! (`Capped`), so a WebSocket over the server's cap still gets its
//! `server_full` message; a connection past the HTTP cap waits in the
//! kernel's queue until one closes. A connection that sends nothing within
//! the server's time to say `hello` after it opens, or nothing for the
//! server's idle time later, is closed (`Held`), so silent connections
//! cannot keep the places. There is no TLS: put a reverse
//! proxy in front to serve the page beyond a trusted network. A message over
//! [`MAX_WS_MESSAGE`] is refused by the WebSocket layer itself, which closes
//! the connection without a protocol error.

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::connection::Line as Received;
use super::protocol::{MAX_LINE, ServerMsg, encode};
use super::server::{Entrance, Incoming, Outgoing};

/// The page's markup; `{{PASSWORD}}` becomes `yes` or `no`.
const PAGE: &str = include_str!("page.html");
/// The page's script.
const SCRIPT: &str = include_str!("app.js");
/// The page's style.
const STYLE: &str = include_str!("app.css");

/// The Content-Security-Policy every response carries: nothing but the
/// page's own script, style and WebSocket; no inline code, no frames, no forms
/// posted anywhere.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The longest WebSocket message (and frame) the WebSocket layer reads at
/// all. Longer than [`MAX_LINE`] so that a message between the two gets the
/// protocol's own `too_long` error, as a long TCP line does.
pub const MAX_WS_MESSAGE: usize = 64 << 10;

/// HTTP connections allowed beyond the server's connection cap, for page
/// loads and for WebSockets to be told `server_full` rather than left waiting.
pub const HTTP_HEADROOM: usize = 64;

/// A bound, not yet running web side of a server.
pub struct Web {
    listener: TcpListener,
    entrance: Entrance,
}

/// What every request handler shares.
#[derive(Clone)]
struct App {
    entrance: Entrance,
    page: Arc<str>,
}

impl Web {
    /// Binds `addr` (port 0 picks a free port) for the server behind `entrance`.
    pub async fn bind(addr: &str, entrance: Entrance) -> io::Result<Web> {
        let listener = TcpListener::bind(addr).await?;
        Ok(Web { listener, entrance })
    }

    /// The address it listens on.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves until the server behind the entrance shuts down.
    pub async fn run(self) -> io::Result<()> {
        let limit = self
            .entrance
            .limits()
            .max_connections
            .saturating_add(HTTP_HEADROOM);
        let mut shutdown = self.entrance.shutdown();
        let quiet = Quiet {
            first: self.entrance.limits().hello_timeout,
            later: self.entrance.limits().idle_timeout,
        };
        let app = router(self.entrance);
        let listener = Capped {
            inner: self.listener,
            permits: Arc::new(Semaphore::new(limit)),
            quiet,
        };
        axum::serve(
            listener,
            app.into_make_service_with_connect_info::<PeerAddr>(),
        )
        .with_graceful_shutdown(async move {
            let _ = shutdown.wait_for(|stopping| *stopping).await;
        })
        .await
    }
}

/// The routes: the page, its two files, the WebSocket; anything else is 404.
fn router(entrance: Entrance) -> Router {
    let password = if entrance.has_password() { "yes" } else { "no" };
    let page: Arc<str> = PAGE.replace("{{PASSWORD}}", password).into();
    Router::new()
        .route("/", get(page_handler))
        .route(
            "/app.js",
            get(|| async { file("text/javascript; charset=utf-8", SCRIPT) }),
        )
        .route(
            "/app.css",
            get(|| async { file("text/css; charset=utf-8", STYLE) }),
        )
        .route("/ws", get(socket))
        .route("/daily", get(daily_handler))
        .route("/favicon.svg", get(favicon_handler))
        .fallback(|| async {
            with_headers(
                StatusCode::NOT_FOUND,
                "text/plain; charset=utf-8",
                "not found\n".to_string(),
            )
        })
        .with_state(App { entrance, page })
}

async fn page_handler(State(app): State<App>) -> Response {
    with_headers(
        StatusCode::OK,
        "text/html; charset=utf-8",
        app.page.to_string(),
    )
}

/// The page's icon, drawn in SVG (no image file to build).
const FAVICON: &str = include_str!("favicon.svg");

async fn favicon_handler() -> Response {
    file("image/svg+xml", FAVICON)
}

/// `GET /daily`: today's number, date and board as JSON (`boggle daily`'s
/// day), so the page can name the day it plays and its share text.
async fn daily_handler() -> Response {
    match boggle_game::daily::Daily::today() {
        Ok(day) => with_headers(StatusCode::OK, "application/json", daily_json(&day)),
        // Only a clock set before the first day gets here.
        Err(e) => with_headers(
            StatusCode::SERVICE_UNAVAILABLE,
            "text/plain; charset=utf-8",
            format!("{e}\n"),
        ),
    }
}

/// The day as `/daily` sends it.
pub fn daily_json(day: &boggle_game::daily::Daily) -> String {
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

fn file(kind: &'static str, body: &'static str) -> Response {
    with_headers(StatusCode::OK, kind, body.to_string())
}

/// A response with the page's security headers.
fn with_headers(status: StatusCode, kind: &'static str, body: String) -> Response {
    let mut response = (status, body).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

/// Whether a WebSocket request may go on: a request without `Origin` is not
/// a browser's (browsers always send it on a WebSocket) and is let in as a
/// TCP client would be; one with an `Origin` must name the host it was sent
/// to (`http://` or `https://` and the `Host` header, case aside), so a page
/// served elsewhere cannot open a socket here. `null` and unreadable values
/// are refused.
pub fn same_origin(origin: Option<&str>, host: Option<&str>) -> bool {
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
    ConnectInfo(PeerAddr(peer)): ConnectInfo<PeerAddr>,
    headers: HeaderMap,
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
            Err(_) => return forbidden(),
        },
        None => None,
    };
    if !same_origin(origin, text(header::HOST)) {
        return forbidden();
    }
    // Small buffers: tungstenite's default read buffer is 128 KiB per
    // socket, allocated up front (32 MB for 250 browsers), while a client's
    // message is at most MAX_LINE; each line is flushed as it is sent.
    let upgrade = upgrade
        .max_message_size(MAX_WS_MESSAGE)
        .max_frame_size(MAX_WS_MESSAGE)
        .read_buffer_size(8 << 10)
        .write_buffer_size(0);
    let entrance = app.entrance;
    let write_limit = entrance.limits().write_timeout;
    match entrance.admit(peer.ip()) {
        Ok(admitted) => upgrade.on_upgrade(move |socket| async move {
            let (sink, stream) = socket.split();
            let incoming = WsIncoming {
                stream,
                buf: Vec::new(),
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

fn forbidden() -> Response {
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
}

impl Incoming for WsIncoming {
    async fn next_message(&mut self) -> io::Result<Received<'_>> {
        // Cancel-safe: a message is taken off the stream only in the poll
        // that returns it, and then handed out at once.
        loop {
            let data = match self.stream.next().await {
                None | Some(Ok(Message::Close(_))) => return Ok(Received::Eof),
                Some(Err(e)) => return Err(io::Error::other(e)),
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                Some(Ok(Message::Text(text))) => axum::body::Bytes::from(text),
                Some(Ok(Message::Binary(bytes))) => bytes,
            };
            // A TCP line counts its newline; a message is a line without one.
            if data.len() + 1 > MAX_LINE {
                return Ok(Received::TooLong);
            }
            self.buf.clear();
            self.buf.extend_from_slice(&data);
            return Ok(Received::Read(&self.buf));
        }
    }

    async fn discard(&mut self, limit: usize) {
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

/// The HTTP listener, holding one permit per open connection (a WebSocket
/// keeps its HTTP connection's permit as well as the server's).
struct Capped {
    inner: TcpListener,
    permits: Arc<Semaphore>,
    quiet: Quiet,
}

/// How long a connection may send nothing: at first, and once it has spoken.
#[derive(Clone, Copy, Debug)]
struct Quiet {
    first: Duration,
    later: Duration,
}

/// An accepted connection and its permit; its reads fail once the peer has
/// been silent too long ([`Quiet`]), which closes it.
struct Held {
    stream: TcpStream,
    _permit: OwnedSemaphorePermit,
    quiet: Quiet,
    deadline: Pin<Box<tokio::time::Sleep>>,
    /// When the peer last sent something since the deadline was set.
    heard: Option<tokio::time::Instant>,
}

impl axum::serve::Listener for Capped {
    type Io = Held;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Held, SocketAddr) {
        loop {
            // The semaphore is never closed, so this only waits.
            let Ok(permit) = Arc::clone(&self.permits).acquire_owned().await else {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            };
            match self.inner.accept().await {
                Ok((stream, peer)) => {
                    let _ = stream.set_nodelay(true);
                    let deadline = Box::pin(tokio::time::sleep(self.quiet.first));
                    return (
                        Held {
                            stream,
                            _permit: permit,
                            quiet: self.quiet,
                            deadline,
                            heard: None,
                        },
                        peer,
                    );
                }
                // Out of file descriptors and the like: wait, do not spin.
                Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
            }
        }
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.inner.local_addr()
    }
}

/// The peer's address of a connection [`Capped`] accepted.
#[derive(Clone, Copy, Debug)]
struct PeerAddr(SocketAddr);

impl axum::extract::connect_info::Connected<axum::serve::IncomingStream<'_, Capped>> for PeerAddr {
    fn connect_info(stream: axum::serve::IncomingStream<'_, Capped>) -> PeerAddr {
        PeerAddr(*stream.remote_addr())
    }
}

impl AsyncRead for Held {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        match Pin::new(&mut self.stream).poll_read(cx, buf) {
            Poll::Ready(read) => {
                if buf.filled().len() > before {
                    // Noted only: the timer is moved when it fires, not on
                    // every read (moving it takes the timer driver's lock).
                    self.heard = Some(tokio::time::Instant::now());
                }
                Poll::Ready(read)
            }
            Poll::Pending => loop {
                match self.deadline.as_mut().poll(cx) {
                    Poll::Pending => return Poll::Pending,
                    Poll::Ready(()) => match self.heard.take() {
                        Some(heard) => {
                            let next = heard + self.quiet.later;
                            self.deadline.as_mut().reset(next);
                        }
                        None => {
                            return Poll::Ready(Err(io::Error::new(
                                io::ErrorKind::TimedOut,
                                "the peer sent nothing for too long",
                            )));
                        }
                    },
                }
            },
        }
    }
}

impl AsyncWrite for Held {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}

#[cfg(test)]
mod tests;
