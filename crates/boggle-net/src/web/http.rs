//! The web side's HTTP: the connections and the middleware around axum's
//! router.
//!
//! How it works. Each connection is served by hyper's HTTP/1 with
//! hyper-util's tokio glue, as axum's `serve-with-hyper` example serves
//! one (an accept loop, the router made into a service per connection with
//! its addresses as `ConnectInfo`), with nothing between the socket and
//! hyper. Keep-alive is on, so a page's files come over a few connections.
//! hyper holds each request head to its limits: [`HEAD_TIMEOUT`] to send
//! it (a connection kept alive and idle is closed then too), [`MAX_HEAD`]
//! bytes and [`MAX_HEADERS`] lines (`431`), and its parser's rules
//! (`400`). Around the router, tower and tower-http layers (`layers`): the
//! security headers on every response the router makes ([`SECURITY`]),
//! gzip or brotli as the request accepts (tower-http's compression, the
//! ETag then naming its coding: `files.rs`), a time limit for each request
//! ([`REQUEST_TIMEOUT`]), a body limit ([`MAX_BODY`]), the `Host` check (a
//! page elsewhere reaching a loopback server by DNS rebinding names its own
//! host: `421`), and the client's address for the handlers (`ClientAddr`:
//! the peer's, or behind a trusted proxy the one the proxy forwarded:
//! `proxy.rs`).
//!
//! Below the router, what happens before there is a request: *places*
//! (`places.rs`). A connection holds a place from its accept until it
//! closes or upgrades: at most [`PER_ADDRESS`] from one address and
//! [`PLACES`] in all. A socket that is idle costs little (its task and
//! hyper's buffers, at most [`MAX_HEAD`] of head), so the places are sized
//! by memory, thousands. When all are held, a newcomer takes the place of
//! a connection that has sent no request yet, from the address holding the
//! most: slow sockets, from however many addresses, cannot keep a page
//! from an address that holds few. A connection past its address's cap (or
//! with no place to take) waits, unread, for a place for up to
//! [`QUEUE_WAIT`] (a class behind one address opening the link at once is
//! served in turn); at most [`WAITING`] wait, and past that, or when the
//! wait runs out, it gets a `503`. A connection is served [`KEEP_LIMIT`] at
//! most (or until the server stops): then it closes once its request in
//! flight is answered, and is cut [`CLOSE_GRACE`] later if it is not (a
//! client that never reads its response).
//!
//! Limits: a head hyper cannot parse is answered by hyper itself (`400`,
//! `431`, `414`), with no body and the connection closed; that answer
//! carries none of the security headers (they govern a body a browser
//! renders, and it has none), and no middleware sees it. No TLS (put a
//! reverse proxy in front). A trusted proxy's peer address
//! ([`Options::trusted_proxies`]) holds places past the per-address cap
//! (every browser behind it comes through its connections); every other
//! peer is held to the cap whatever headers it sends. Behind the proxy,
//! the server's own per-address caps (connections, rooms, the day's
//! attempts) count each forwarded client.

#![expect(
    clippy::disallowed_methods,
    reason = "an accept error's pause, and a connection served a bounded time"
)]

use std::convert::Infallible;
use std::io;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::Router;
use axum::extract::connect_info::Connected;
use axum::extract::{ConnectInfo, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderName, HeaderValue, StatusCode, header};
use axum::middleware::{self, AddExtension, Next};
use axum::response::{IntoResponse, Response};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};
use tower::{Service, ServiceExt};
use tower_http::compression::CompressionLayer;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::set_header::response::SetMultipleResponseHeadersLayer;
use tower_http::timeout::TimeoutLayer;

use super::CSP;
use super::files::tag_coding;
use super::places::{Place, Places};
use super::proxy::{Cidr, Proxies};
use crate::server::Entrance;

/// The headers every response the router makes carries: the page's policy,
/// no sniffing, no referrer, no framing, and no use of a stored copy
/// without asking (a file's `ETag` makes the asking cheap: `304`).
pub(super) const SECURITY: [(&str, &str); 5] = [
    ("content-security-policy", CSP),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"),
    ("x-frame-options", "DENY"),
    ("cache-control", "no-cache"),
];

/// The most bytes of request head a connection may send (hyper's `431` past it).
pub(super) const MAX_HEAD: usize = 16 << 10;
/// The most header lines a request head may have (hyper's `431` past it).
pub(super) const MAX_HEADERS: usize = 100;
/// The most bytes of request body (no route takes one).
pub(super) const MAX_BODY: usize = 1 << 10;
/// Connections holding a place from one address.
pub(super) const PER_ADDRESS: usize = 64;
/// Connections holding a place in all: each costs its task and hyper's
/// buffers, at most [`MAX_HEAD`] of head, so 4096 are at most about 100 MiB.
pub(super) const PLACES: usize = 4096;
/// Connections waiting, unread, for a place (each costs its task and socket).
pub(super) const WAITING: usize = 4096;
/// The longest a connection waits for a place.
pub(super) const QUEUE_WAIT: Duration = Duration::from_secs(5);
/// The longest time to send a request's head, and to stay idle between two requests.
pub(super) const HEAD_TIMEOUT: Duration = Duration::from_secs(5);
/// The longest time to answer a request (the page's files are in memory).
pub(super) const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);
/// The longest a connection is served before it is closed (a WebSocket's
/// time after its upgrade is the server's, not counted here).
pub(super) const KEEP_LIMIT: Duration = Duration::from_secs(15);
/// How long a connection being closed has to finish its request in flight.
pub(super) const CLOSE_GRACE: Duration = Duration::from_secs(5);

/// How the web side takes its connections.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Host names (`--web-host`) that requests may name besides the served address.
    pub hosts: Vec<String>,
    /// The reverse proxies whose `X-Forwarded-For` names the client
    /// (`--trust-proxy`, `--trusted-proxy`; none: no header is believed).
    pub trusted_proxies: Vec<Cidr>,
    /// The metrics exporter `GET /metrics` renders (`404` without one).
    pub monitor: Option<crate::monitor::Monitor>,
    /// The most connections holding a place at once (4,096 if `None`).
    pub places: Option<usize>,
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

/// The client's address: the peer's, or from a trusted proxy the one it
/// forwarded (`proxy.rs`: the rightmost `X-Forwarded-For` entry that is not
/// a trusted proxy's), the peer's when it names none.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ClientAddr(pub IpAddr);

impl<S: Send + Sync> FromRequestParts<S> for ClientAddr {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<ClientAddr, Infallible> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<Addrs>>()
            .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |info| info.0.peer.ip());
        let client = match parts.extensions.get::<Proxies>() {
            Some(proxies) => proxies.client(peer, &parts.headers),
            None => peer,
        };
        Ok(ClientAddr(client))
    }
}

/// Whether a request naming `host` may be served on a connection that came
/// in on `local`: the address itself, `localhost` on loopback, or one of
/// `names` (any port: behind a proxy, the port is the proxy's).
pub(super) fn host_allowed(host: Option<&str>, local: SocketAddr, names: &[String]) -> bool {
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
/// last: the body limit, compression (gzip or brotli, as the request
/// accepts) and the coding in a compressed file's ETag, the request's time
/// limit, the `Host` check, the security headers (on every response, the
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
        .layer(CompressionLayer::new())
        .layer(middleware::map_response(tag_coding))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            REQUEST_TIMEOUT,
        ))
        .layer(middleware::from_fn_with_state(check, check_host))
        .layer(SetMultipleResponseHeadersLayer::if_not_present(security))
        .layer(axum::Extension(Proxies::new(&options.trusted_proxies)))
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
    shutdown: watch::Receiver<bool>,
) -> io::Result<()> {
    let places = Places::new(
        PER_ADDRESS,
        options.places.unwrap_or(PLACES),
        Proxies::new(&options.trusted_proxies),
    );
    let waiting = Arc::new(Semaphore::new(WAITING));
    let mut make_service = router.into_make_service_with_connect_info::<Addrs>();
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .keep_alive(true)
        .header_read_timeout(head_timeout)
        .max_buf_size(MAX_HEAD)
        .max_headers(MAX_HEADERS);
    let http = Arc::new(http);
    let mut stop = shutdown.clone();
    let stopping = async move {
        let _ = stop.wait_for(|stopping| *stopping).await;
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
            None => match Arc::clone(&waiting).try_acquire_owned() {
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
        let served = Served {
            http: Arc::clone(&http),
            places: Arc::clone(&places),
            entrance: entrance.clone(),
            stop: shutdown.clone(),
            head_timeout,
        };
        tokio::spawn(served.connection(stream, peer, service, held));
    }
}

/// What each connection's task shares with the accept loop.
struct Served {
    /// hyper's HTTP/1 settings.
    http: Arc<hyper::server::conn::http1::Builder>,
    places: Arc<Places>,
    entrance: Entrance,
    /// The server's stop.
    stop: watch::Receiver<bool>,
    head_timeout: Duration,
}

impl Served {
    /// Waits for a place if it has none yet, then serves the connection
    /// until it closes or upgrades, at most [`KEEP_LIMIT`] or until the
    /// server stops; then closes it gracefully, within [`CLOSE_GRACE`].
    async fn connection(
        mut self,
        stream: TcpStream,
        peer: SocketAddr,
        service: AddExtension<Router, ConnectInfo<Addrs>>,
        held: Held,
    ) {
        let held = match held {
            Held::Now(held) => held,
            Held::Later(turn) => {
                let waited = tokio::time::timeout(QUEUE_WAIT, self.places.take(peer.ip())).await;
                drop(turn);
                let Ok(held) = waited else {
                    busy(
                        &self.entrance,
                        &stream,
                        peer,
                        "too many unanswered HTTP connections",
                    );
                    return;
                };
                held
            }
        };
        let ticket = held.ticket();
        let _ = stream.set_nodelay(true);
        // Every byte read is counted, so a WebSocket's frames are too (`meter.rs`).
        let meter = super::Meter::new();
        let io = super::meter::Metered::new(stream, meter.clone());
        // Whether a request came: a head timeout before any is a silent
        // socket's refusal, after one a kept-alive connection's end.
        let heard = Arc::new(AtomicBool::new(false));
        let told = Arc::clone(&heard);
        let standing = Arc::clone(&ticket);
        let service = service.map_request(move |mut request: axum::http::Request<Incoming>| {
            told.store(true, Ordering::Relaxed);
            standing.heard();
            request.extensions_mut().insert(meter.clone());
            request
        });
        let connection = self
            .http
            .serve_connection(TokioIo::new(io), TowerToHyperService::new(service))
            .with_upgrades();
        tokio::pin!(connection);
        let stop = &mut self.stop;
        let closing = async {
            tokio::select! {
                () = tokio::time::sleep(KEEP_LIMIT) => {}
                _ = stop.wait_for(|stopping| *stopping) => {}
            }
        };
        let ended = tokio::select! {
            ended = connection.as_mut() => ended,
            // Another address's newcomer took this place before any request came.
            () = ticket.evicted() => {
                if self.entrance.refused("http_evicted") {
                    tracing::info!(%peer, "web connection closed: no request yet, and its place went to an address holding fewer");
                }
                Ok(())
            }
            () = closing => {
                connection.as_mut().graceful_shutdown();
                tokio::time::timeout(CLOSE_GRACE, connection.as_mut())
                    .await
                    .unwrap_or(Ok(()))
            }
        };
        if let Err(e) = ended {
            let heard = heard.load(Ordering::Relaxed);
            refused_head(&self.entrance, peer, &e, heard, self.head_timeout);
        }
        drop(held);
    }
}

/// Counts and logs a connection hyper ended for its head: one that sent
/// none in time (a silent or slow socket), or one hyper could not parse
/// (hyper answered it `400` or `431`).
fn refused_head(
    entrance: &Entrance,
    peer: SocketAddr,
    error: &hyper::Error,
    heard: bool,
    limit: Duration,
) {
    if error.is_timeout() && !heard {
        if entrance.refused("http_head_timeout") {
            tracing::info!(%peer, "web connection closed: no request head within {limit:?}");
        }
    } else if error.is_parse() && entrance.refused("http_bad_head") {
        let why = if error.is_parse_too_large() {
            "the request head is too large"
        } else {
            "not an HTTP/1.1 request"
        };
        tracing::info!(%peer, "web request refused: {why}");
    }
}

/// A connection's place at once, or its turn to wait for one.
enum Held {
    Now(Place),
    Later(OwnedSemaphorePermit),
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

/// Turns a connection that no place is left for away with a `503`, if its
/// socket takes it at once, and closes it. hyper never serves it: serving
/// it would read its head, which is what it has no place for.
fn busy(entrance: &Entrance, stream: &TcpStream, peer: SocketAddr, why: &str) {
    if entrance.refused("http_busy") {
        tracing::info!(%peer, "web connection refused: {why}");
    }
    let _ = stream.try_write(&turned_away());
}

/// The whole `503` a connection with no place gets: the status, the
/// security headers, a short text, and the end of the connection.
fn turned_away() -> Vec<u8> {
    let body = "too many connections from your address: try again in a moment\n";
    let mut head = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n\
         content-length: {}\r\nconnection: close\r\n",
        body.len()
    );
    for (name, value) in SECURITY {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    head.push_str(body);
    head.into_bytes()
}
