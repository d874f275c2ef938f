//! The web side's HTTP: the connections and the middleware around axum's
//! router.
//!
//! How it works. Connections are served by hyper-util's server as axum
//! documents it for what `axum::serve` cannot be told (its `serve-with-hyper`
//! example: an accept loop, the router made into a service per connection
//! with its addresses as `ConnectInfo`, each connection served by hyper's
//! HTTP/1 with a timer and a bounded head buffer). Around the router,
//! tower and tower-http layers (`layers`): the security headers on every
//! response ([`SECURITY`]), a time limit for each request
//! ([`REQUEST_TIMEOUT`]), a body limit ([`MAX_BODY`]), the `Host` check (a
//! page elsewhere reaching a loopback server by DNS rebinding names its own
//! host: `421`), one request a connection (`Connection: close` on every
//! response but an upgrade), and the client's address for the handlers
//! (`ClientAddr`: the peer's, or behind a trusted proxy the one the proxy
//! forwarded, through axum-client-ip's extractors).
//!
//! Below the router, two things no middleware can see, since they happen
//! before there is a request:
//!
//! - *Places.* A connection holds a place from its accept until its one
//!   request is answered or upgraded: at most [`PER_ADDRESS`] from one
//!   address and [`PLACES`] in all. A socket that is idle costs little (its
//!   task and at most [`MAX_HEAD`] of head), so the places are sized by
//!   memory, thousands: slow sockets from a few dozen addresses cannot
//!   fill them. A connection past a cap waits, unread, for a place for up
//!   to [`QUEUE_WAIT`] (a class behind one address opening the link at once
//!   is served in turn); at most [`WAITING`] wait, and past that, or when
//!   the wait runs out, it gets a `503`.
//! - *The request head*, read and checked before hyper sees it, within
//!   [`HEAD_TIMEOUT`] (a silent socket is closed then) and [`MAX_HEAD`]
//!   bytes (`431` past it). hyper answers a head it cannot parse with a
//!   response of its own, which carries none of the security headers and
//!   which no middleware sees; rather than rewrite hyper's output, a head
//!   is parsed first with `httparse` (hyper's own parser) and checked as
//!   hyper checks it (the URI, `Content-Length`, `Transfer-Encoding`), and
//!   one hyper would refuse gets our own `400` with the headers. So every
//!   response carries them. Since only a connection's first head can be
//!   checked so, a connection carries one request (the upgraded WebSocket
//!   aside).
//!
//! Limits: no TLS (put a reverse proxy in front). With
//! [`Options::trust_proxy`] the per-address cap on places is not applied
//! (every connection is the proxy's), and a client could name any address
//! in the forwarded headers were it not for the proxy that sets them.

#![expect(
    clippy::disallowed_methods,
    reason = "a connection waits a moment for a place before it is refused"
)]

use std::convert::Infallible;
use std::io;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::extract::connect_info::Connected;
use axum::extract::{ConnectInfo, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderName, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum_client_ip::{RightmostForwarded, RightmostXForwardedFor};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore, watch};
use tower::Service;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::set_header::response::SetMultipleResponseHeadersLayer;
use tower_http::timeout::TimeoutLayer;

use super::CSP;
use crate::limits::{PerAddress, Place};
use crate::server::Entrance;

/// The headers every response carries: the page's policy, no sniffing, no
/// referrer, no framing, no caching of a page that says whether a password is asked.
pub const SECURITY: [(&str, &str); 5] = [
    ("content-security-policy", CSP),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"),
    ("x-frame-options", "DENY"),
    ("cache-control", "no-cache"),
];

/// The most bytes of request head a connection may send (`431` past it).
pub const MAX_HEAD: usize = 16 << 10;
/// The most header lines a request head may have (hyper's own cap; `431` past it).
pub const MAX_HEADERS: usize = 100;
/// The most bytes of request body (no route takes one).
pub const MAX_BODY: usize = 1 << 10;
/// Connections holding a place from one address.
pub const PER_ADDRESS: usize = 64;
/// Connections holding a place in all: each costs its task and at most
/// [`MAX_HEAD`] of head, so 4096 are at most about 80 MiB.
pub const PLACES: usize = 4096;
/// Connections waiting, unread, for a place (each costs its task and socket).
pub const WAITING: usize = 4096;
/// The longest a connection waits for a place.
pub const QUEUE_WAIT: Duration = Duration::from_secs(5);
/// The longest time to send a request's head.
pub const HEAD_TIMEOUT: Duration = Duration::from_secs(5);
/// The longest time to answer a request (the page's files are in memory).
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);
/// The longest a connection holds its place: head in, response out (or the upgrade).
pub const PHASE_LIMIT: Duration = Duration::from_secs(15);

/// How the web side takes its connections.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Host names (`--web-host`) that requests may name besides the served address.
    pub hosts: Vec<String>,
    /// Take the client's address from `X-Forwarded-For` / `Forwarded` (`--trust-proxy`).
    pub trust_proxy: bool,
    /// The metrics exporter `GET /metrics` renders (`404` without one).
    pub monitor: Option<crate::monitor::Monitor>,
}

/// A connection's two ends, as the router's `ConnectInfo`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Addrs {
    /// The client's end (the proxy's, behind one).
    pub peer: SocketAddr,
    /// The address the connection came in on.
    pub local: SocketAddr,
}

impl Connected<Addrs> for Addrs {
    fn connect_info(addrs: Addrs) -> Addrs {
        addrs
    }
}

/// Whether the client's address comes from a trusted proxy's headers (a request extension).
#[derive(Clone, Copy, Debug)]
struct TrustProxy(bool);

/// The client's address: the peer's, or under `--trust-proxy` the one the
/// proxy appended (axum-client-ip's rightmost `X-Forwarded-For`, else the
/// rightmost `Forwarded: for=`), the peer's when neither names one.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ClientAddr(pub IpAddr);

impl<S: Send + Sync> FromRequestParts<S> for ClientAddr {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<ClientAddr, Infallible> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<Addrs>>()
            .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |info| info.0.peer.ip());
        let trusted = parts
            .extensions
            .get::<TrustProxy>()
            .is_some_and(|trust| trust.0);
        if trusted {
            if let Ok(RightmostXForwardedFor(ip)) =
                RightmostXForwardedFor::from_request_parts(parts, state).await
            {
                return Ok(ClientAddr(ip));
            }
            if let Ok(RightmostForwarded(ip)) =
                RightmostForwarded::from_request_parts(parts, state).await
            {
                return Ok(ClientAddr(ip));
            }
        }
        Ok(ClientAddr(peer))
    }
}

/// Whether a request naming `host` may be served on a connection that came
/// in on `local`: the address itself, `localhost` on loopback, or one of
/// `names` (any port: behind a proxy, the port is the proxy's).
pub fn host_allowed(host: Option<&str>, local: SocketAddr, names: &[String]) -> bool {
    let Some(authority) = host.and_then(|h| h.parse::<axum::http::uri::Authority>().ok()) else {
        return false;
    };
    let name = authority.host();
    let name = name
        .strip_prefix('[')
        .and_then(|n| n.strip_suffix(']'))
        .unwrap_or(name);
    if names.iter().any(|n| n.eq_ignore_ascii_case(name)) {
        return true;
    }
    // A browser leaves out port 80 only.
    if authority.port_u16().unwrap_or(80) != local.port() {
        return false;
    }
    match name.parse::<IpAddr>() {
        Ok(ip) => ip.to_canonical() == local.ip().to_canonical(),
        Err(_) => name.eq_ignore_ascii_case("localhost") && local.ip().is_loopback(),
    }
}

/// What the `Host` check needs: the names allowed, and where to count a refusal.
#[derive(Clone)]
struct HostCheck {
    names: Arc<[String]>,
    entrance: Entrance,
}

/// The `Host` check: a request for a host this server does not serve is `421`.
async fn check_host(
    State(check): State<HostCheck>,
    ConnectInfo(addrs): ConnectInfo<Addrs>,
    request: Request,
    next: Next,
) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|v| v.to_str().ok());
    if !host_allowed(host, addrs.local, &check.names) {
        if check.entrance.refused("http_host") {
            tracing::info!(peer = %addrs.peer, host = host.unwrap_or(""), "web request refused: unknown Host");
        }
        return text(
            StatusCode::MISDIRECTED_REQUEST,
            "this server does not serve that host name\n",
        );
    }
    next.run(request).await
}

/// One request a connection: every response but an upgrade says `close`.
async fn one_request(response: Response) -> Response {
    let mut response = response;
    if response.status() != StatusCode::SWITCHING_PROTOCOLS {
        response
            .headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
    response
}

/// A plain-text response (the security headers come from the layers).
pub(crate) fn text(status: StatusCode, body: &'static str) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        body,
    )
        .into_response()
}

/// The router inside the layers every request goes through, outermost
/// last: the body limit, the request's time limit, the `Host` check, one
/// request a connection, the security headers (on every response, the
/// layers' own `408`, `413` and `421` too), and what [`ClientAddr`] reads.
pub(crate) fn layers(router: Router, options: &Options, entrance: Entrance) -> Router {
    let check = HostCheck {
        names: options.hosts.clone().into(),
        entrance,
    };
    let security = SECURITY
        .iter()
        .map(|&(name, value)| {
            (
                HeaderName::from_static(name),
                HeaderValue::from_static(value),
            )
                .into()
        })
        .collect();
    router
        .layer(RequestBodyLimitLayer::new(MAX_BODY))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            REQUEST_TIMEOUT,
        ))
        .layer(middleware::from_fn_with_state(check, check_host))
        .layer(middleware::map_response(one_request))
        .layer(SetMultipleResponseHeadersLayer::if_not_present(security))
        .layer(axum::Extension(TrustProxy(options.trust_proxy)))
}

/// Accepts and serves connections until `shutdown` turns `true`. An accept
/// error that retrying cannot cure (the listener itself is broken) ends it
/// with that error; running out of descriptors and the like only pauses it.
pub(super) async fn serve(
    listener: TcpListener,
    router: Router,
    options: &Options,
    entrance: Entrance,
    head_timeout: Duration,
    mut shutdown: watch::Receiver<bool>,
) -> io::Result<()> {
    let places = Arc::new(Places::new(options.trust_proxy));
    let mut make_service = router.into_make_service_with_connect_info::<Addrs>();
    let stopping = async move {
        let _ = shutdown.wait_for(|stopping| *stopping).await;
    };
    tokio::pin!(stopping);
    loop {
        let (stream, peer) = tokio::select! {
            () = &mut stopping => return Ok(()),
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) if transient(&e) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
                Err(e) => return Err(e),
            },
        };
        let Ok(local) = stream.local_addr() else {
            continue;
        };
        let held = match places.take_now(peer.ip()) {
            Some(held) => Held::Now(held),
            None => match Arc::clone(&places.waiting).try_acquire_owned() {
                Ok(turn) => Held::Later(turn),
                Err(_) => {
                    busy(
                        &entrance,
                        &stream,
                        peer,
                        "too many waiting HTTP connections",
                    );
                    continue;
                }
            },
        };
        // The router with this connection's addresses, as axum's serve-with-hyper example makes it.
        let Ok(service) = make_service.call(Addrs { peer, local }).await;
        let places = Arc::clone(&places);
        let entrance = entrance.clone();
        tokio::spawn(async move {
            let held = match held {
                Held::Now(held) => held,
                Held::Later(turn) => {
                    let waited = tokio::time::timeout(QUEUE_WAIT, places.take(peer.ip())).await;
                    drop(turn);
                    let Ok(held) = waited else {
                        busy(
                            &entrance,
                            &stream,
                            peer,
                            "too many unanswered HTTP connections",
                        );
                        return;
                    };
                    held
                }
            };
            let io = match read_head(stream, peer, head_timeout, &entrance).await {
                Some(io) => io,
                None => {
                    drop(held);
                    places.freed.notify_waiters();
                    return;
                }
            };
            // Every byte read is counted, so a WebSocket's frames are too (`meter.rs`).
            let meter = super::Meter::new();
            let io = super::meter::Metered::new(io, meter.clone());
            let service = tower::ServiceExt::map_request(
                service,
                move |mut request: Request<hyper::body::Incoming>| {
                    request.extensions_mut().insert(meter.clone());
                    request
                },
            );
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(head_timeout)
                .max_buf_size(MAX_HEAD.max(8 << 10) + (1 << 10))
                .max_headers(MAX_HEADERS)
                .serve_connection(TokioIo::new(io), TowerToHyperService::new(service))
                .with_upgrades();
            let _ = tokio::time::timeout(PHASE_LIMIT, connection).await;
            drop(held);
            places.freed.notify_waiters();
        });
    }
}

/// The places of connections being answered, and the room to wait for one.
struct Places {
    /// Places per address.
    by_address: Arc<PerAddress>,
    /// Places in all.
    total: Arc<Semaphore>,
    /// Turns to wait for a place.
    waiting: Arc<Semaphore>,
    /// Woken whenever a connection gives its place back.
    freed: Notify,
}

/// What a connection being answered holds: its address's place and one of
/// all; it is counted in the `boggle_http_connections` gauge meanwhile.
struct Phase {
    _place: Place,
    _permit: OwnedSemaphorePermit,
}

impl Phase {
    fn new(place: Place, permit: OwnedSemaphorePermit) -> Phase {
        metrics::gauge!("boggle_http_connections").increment(1.0);
        Phase {
            _place: place,
            _permit: permit,
        }
    }
}

impl Drop for Phase {
    fn drop(&mut self) {
        metrics::gauge!("boggle_http_connections").decrement(1.0);
    }
}

/// A connection's place at once, or its turn to wait for one.
enum Held {
    Now(Phase),
    Later(OwnedSemaphorePermit),
}

impl Places {
    fn new(trust_proxy: bool) -> Places {
        metrics::gauge!("boggle_http_connections").set(0.0);
        Places {
            by_address: PerAddress::new(if trust_proxy { usize::MAX } else { PER_ADDRESS }),
            total: Arc::new(Semaphore::new(PLACES)),
            waiting: Arc::new(Semaphore::new(WAITING)),
            freed: Notify::new(),
        }
    }

    /// Both places for `ip` if they are free now.
    fn take_now(&self, ip: IpAddr) -> Option<Phase> {
        let place = self.by_address.take(ip)?;
        let permit = Arc::clone(&self.total).try_acquire_owned().ok()?;
        Some(Phase::new(place, permit))
    }

    /// Both places for `ip`, as soon as they are free. A place is looked
    /// for after the wake-up is armed, so a connection leaving in between
    /// is not missed.
    async fn take(&self, ip: IpAddr) -> Phase {
        loop {
            let freed = self.freed.notified();
            tokio::pin!(freed);
            freed.as_mut().enable();
            if let Some(held) = self.take_now(ip) {
                return held;
            }
            freed.await;
        }
    }
}

/// Accept errors that pass: a connection reset before it was taken, or a
/// shortage of descriptors, memory or buffers.
fn transient(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
            | io::ErrorKind::Interrupted
            | io::ErrorKind::WouldBlock
            | io::ErrorKind::OutOfMemory
    ) || e.raw_os_error().is_some_and(|code| {
        // EMFILE, ENFILE, ENOBUFS, ENOMEM, EPROTO, EPERM (a firewall's refusal).
        [24, 23, 105, 12, 71, 1].contains(&code)
    })
}

/// Turns a connection away with a `503` if its socket takes it at once.
fn busy(entrance: &Entrance, stream: &TcpStream, peer: SocketAddr, why: &str) {
    if entrance.refused("http_busy") {
        tracing::info!(%peer, "web connection refused: {why}");
    }
    let _ = stream.try_write(&bare(
        StatusCode::SERVICE_UNAVAILABLE,
        "too many connections from your address: try again in a moment\n",
    ));
}

/// A whole response written without hyper, for a connection hyper never
/// serves (no place for it, or a head it would refuse): the status, the
/// security headers, a short text, and the end of the connection.
fn bare(status: StatusCode, body: &str) -> Vec<u8> {
    let mut head = format!(
        "HTTP/1.1 {} {}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: {}\r\n\
         connection: close\r\n",
        status.as_str(),
        status.canonical_reason().unwrap_or(""),
        body.len()
    );
    for (name, value) in SECURITY {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    head.push_str(body);
    head.into_bytes()
}

/// Why a request head is refused before hyper reads it.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum BadHead {
    /// Longer than [`MAX_HEAD`], or more than [`MAX_HEADERS`] lines: `431`.
    TooLarge,
    /// Not a request head hyper would take: `400`.
    Malformed,
}

/// Reads the connection's request head, within `limit`, and checks it; the
/// stream with the head put back in front for hyper, or `None` when the
/// connection ends here (it was told why, if it sent a bad head).
async fn read_head(
    mut stream: TcpStream,
    peer: SocketAddr,
    limit: Duration,
    entrance: &Entrance,
) -> Option<Rewound> {
    let _ = stream.set_nodelay(true);
    let mut head = Vec::with_capacity(1 << 10);
    let read = tokio::time::timeout(limit, read_until_head_end(&mut stream, &mut head)).await;
    let bad = match read {
        Err(_) => {
            if entrance.refused("http_head_timeout") {
                tracing::info!(%peer, "web connection closed: no request head within {limit:?}");
            }
            return None;
        }
        Ok(Err(_)) => return None,
        Ok(Ok(None)) => BadHead::TooLarge,
        Ok(Ok(Some(end))) => match check_head(&head[..end]) {
            Ok(()) => {
                return Some(Rewound {
                    head,
                    at: 0,
                    stream,
                });
            }
            Err(bad) => bad,
        },
    };
    let (status, body) = match bad {
        BadHead::TooLarge => (
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            "the request head is too large\n",
        ),
        BadHead::Malformed => (StatusCode::BAD_REQUEST, "not an HTTP/1.1 request\n"),
    };
    if entrance.refused("http_bad_head") {
        tracing::info!(%peer, status = status.as_u16(), "web request refused: {}", body.trim_end());
    }
    let answer = bare(status, body);
    let _ = tokio::time::timeout(limit, stream.write_all(&answer)).await;
    let _ = stream.shutdown().await;
    // Read what the client is still sending for a moment, so closing with
    // unread input does not reset the connection before it reads the answer.
    let mut sink = [0u8; 4 << 10];
    let linger = async {
        let mut left = 256usize << 10;
        while left > 0 {
            match stream.read(&mut sink).await {
                Ok(0) | Err(_) => break,
                Ok(n) => left = left.saturating_sub(n),
            }
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(1), linger).await;
    None
}

/// Reads into `buf` until it holds a whole request head: where the head
/// ends (what follows it, a body or a WebSocket frame, stays in `buf` for
/// hyper), or `None` past [`MAX_HEAD`] bytes without one. The end is looked
/// for only in what each read adds, so a head sent a byte at a time costs
/// no more than its length.
async fn read_until_head_end(
    stream: &mut TcpStream,
    buf: &mut Vec<u8>,
) -> io::Result<Option<usize>> {
    let mut chunk = [0u8; 2 << 10];
    loop {
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        let from = buf.len().saturating_sub(3);
        buf.extend_from_slice(&chunk[..n]);
        if let Some(end) = head_end(&buf[from..]) {
            let end = from + end;
            return Ok((end <= MAX_HEAD).then_some(end));
        }
        if buf.len() > MAX_HEAD {
            return Ok(None);
        }
    }
}

/// Where a request head ends in `bytes` (just past its blank line, CRLF or LF alone).
fn head_end(bytes: &[u8]) -> Option<usize> {
    bytes.windows(2).enumerate().find_map(|(i, w)| match w {
        b"\n\n" => Some(i + 2),
        b"\n\r" if bytes.get(i + 2) == Some(&b'\n') => Some(i + 3),
        _ => None,
    })
}

/// Whether hyper would take `head` (a whole request head): parsed as hyper
/// parses it (httparse, at most [`MAX_HEADERS`] lines), and checked as it
/// checks it: a URI `http` can hold, every `Content-Length` one same
/// number, a `Transfer-Encoding` only in HTTP/1.1 and ending in `chunked`.
pub(crate) fn check_head(head: &[u8]) -> Result<(), BadHead> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut request = httparse::Request::new(&mut headers);
    match request.parse(head) {
        Ok(httparse::Status::Complete(_)) => {}
        Ok(httparse::Status::Partial) => return Err(BadHead::Malformed),
        Err(httparse::Error::TooManyHeaders) => return Err(BadHead::TooLarge),
        Err(_) => return Err(BadHead::Malformed),
    }
    let path = request.path.unwrap_or_default();
    if path.parse::<axum::http::Uri>().is_err() {
        return Err(BadHead::Malformed);
    }
    let mut length = None;
    let mut chunked = None;
    for h in request.headers.iter() {
        if h.name.eq_ignore_ascii_case("content-length") {
            let value = std::str::from_utf8(h.value)
                .ok()
                .and_then(|v| v.trim().parse::<u64>().ok())
                .ok_or(BadHead::Malformed)?;
            if length.is_some_and(|seen| seen != value) {
                return Err(BadHead::Malformed);
            }
            length = Some(value);
        } else if h.name.eq_ignore_ascii_case("transfer-encoding") {
            let value = std::str::from_utf8(h.value).map_err(|_| BadHead::Malformed)?;
            let last = value.rsplit(',').next().unwrap_or("").trim();
            chunked = Some(last.eq_ignore_ascii_case("chunked"));
        }
    }
    match (chunked, request.version) {
        (Some(false), _) | (Some(_), Some(0)) => Err(BadHead::Malformed),
        _ => Ok(()),
    }
}

/// A connection's stream with its request head, already read, in front.
pub(crate) struct Rewound {
    head: Vec<u8>,
    at: usize,
    stream: TcpStream,
}

impl AsyncRead for Rewound {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        if this.at < this.head.len() {
            let n = buf.remaining().min(this.head.len() - this.at);
            buf.put_slice(&this.head[this.at..this.at + n]);
            this.at += n;
            if this.at == this.head.len() {
                this.head = Vec::new();
                this.at = 0;
            }
            return Poll::Ready(Ok(()));
        }
        Pin::new(&mut this.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Rewound {
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
}
