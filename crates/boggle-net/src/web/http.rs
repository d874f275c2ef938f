//! The web side's HTTP connections, below axum's router: accepting them,
//! the caps and times of their HTTP part, the `Host` check, the client's
//! address and the security headers every response carries.
//!
//! How it works: each accepted connection is served by hyper's HTTP/1
//! server (what `axum::serve` wraps) with a header read timeout, a small
//! header buffer ([`MAX_HEAD`]) and no keep-alive, so a connection that
//! never upgrades is closed right after its one response. Until its request
//! is answered or upgraded, a connection is in its *HTTP phase*: such
//! connections are capped per address ([`PER_ADDRESS`]) and in all
//! ([`PENDING`]), and the phase itself ends within [`PHASE_LIMIT`]. A
//! connection past a cap waits, unread, for a place for up to
//! [`QUEUE_WAIT`]: a class behind one address that opens the link at once
//! is served in turn rather than refused. At most [`WAITING`] wait; past
//! that, or when the wait runs out, a connection gets a canned 503 and is
//! closed. An upgraded WebSocket leaves the phase (it is held to the
//! server's own limits from then on).
//!
//! Every request's `Host` must be the address the connection came in on
//! (`localhost` too, on loopback) or a name given in [`Options::hosts`]:
//! a page on another site reaching a loopback server by DNS rebinding
//! names its own host and is refused. Every response, hyper's own 400,
//! 414 and 431 included, carries [`SECURITY`]'s headers: the router's
//! through the service, hyper's by `Stamped`, which adds them to the
//! head of a response written before any request reached the service.
//!
//! Limits: behind a reverse proxy every connection comes from the proxy;
//! with [`Options::trust_proxy`] the client's address is the one the proxy
//! appended to `X-Forwarded-For` (or `Forwarded: for=`), the per-address
//! HTTP cap is not applied (the proxy's connections are all one address)
//! and the address a WebSocket is admitted by is the client's. No TLS.

use std::convert::Infallible;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use axum::http::{HeaderMap, HeaderName, HeaderValue, Request, Response, StatusCode, header};
use hyper::body::Incoming as Body;
use hyper::service::Service;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore, watch};

use super::{CSP, PeerAddr};
use crate::limits::{PerAddress, Place};

/// The headers every response carries: the page's policy, no sniffing, no
/// referrer, no framing, no caching of a page that says whether a password is asked.
pub const SECURITY: [(&str, &str); 5] = [
    ("content-security-policy", CSP),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"),
    ("x-frame-options", "DENY"),
    ("cache-control", "no-cache"),
];

/// The most bytes of request head hyper holds for one connection (its floor is 8 KiB).
pub const MAX_HEAD: usize = 16 << 10;
/// Connections in their HTTP phase from one address.
pub const PER_ADDRESS: usize = 16;
/// Connections in their HTTP phase in all.
pub const PENDING: usize = 256;
/// Connections waiting, unread, for a place in the HTTP phase.
pub const WAITING: usize = 512;
/// The longest a connection waits for a place in the HTTP phase.
pub const QUEUE_WAIT: Duration = Duration::from_secs(5);
/// The longest time to send a request's head.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(5);
/// The longest HTTP phase: head in, response out (or the upgrade).
pub const PHASE_LIMIT: Duration = Duration::from_secs(15);

/// How the web side takes its connections.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Host names (`--web-host`) that requests may name besides the served address.
    pub hosts: Vec<String>,
    /// Take the client's address from `X-Forwarded-For` / `Forwarded` (`--trust-proxy`).
    pub trust_proxy: bool,
}

/// Sets [`SECURITY`]'s headers on `headers`, keeping any already there.
pub fn secure(headers: &mut HeaderMap) {
    for (name, value) in SECURITY {
        headers
            .entry(HeaderName::from_static(name))
            .or_insert(HeaderValue::from_static(value));
    }
}

/// [`SECURITY`] as header lines, for heads written without `http`'s types.
fn security_lines() -> String {
    SECURITY
        .iter()
        .map(|(name, value)| format!("{name}: {value}\r\n"))
        .collect()
}

/// Whether a request naming `host` may be served on a connection that came
/// in on `local`: the address itself, `localhost` on loopback, or one of
/// `names` (any port: behind a proxy, the port is the proxy's).
pub fn host_allowed(host: Option<&str>, local: SocketAddr, names: &[String]) -> bool {
    let Some(host) = host else {
        return false;
    };
    let (name, port) = split_host(host);
    if names.iter().any(|n| n.eq_ignore_ascii_case(name)) {
        return true;
    }
    // A browser leaves out port 80 only.
    if port.unwrap_or(80) != local.port() {
        return false;
    }
    match name.parse::<IpAddr>() {
        Ok(ip) => ip.to_canonical() == local.ip().to_canonical(),
        Err(_) => name.eq_ignore_ascii_case("localhost") && local.ip().is_loopback(),
    }
}

/// `host[:port]` or `[v6][:port]` into the name (brackets off) and the port.
fn split_host(host: &str) -> (&str, Option<u16>) {
    if let Some(rest) = host.strip_prefix('[') {
        let Some((name, after)) = rest.split_once(']') else {
            return (host, None);
        };
        return (name, after.strip_prefix(':').and_then(|p| p.parse().ok()));
    }
    match host.rsplit_once(':') {
        Some((name, port)) => (name, port.parse().ok()),
        None => (host, None),
    }
}

/// The client's address as a trusted proxy gives it: the last entry of
/// `X-Forwarded-For` (the one the proxy appended), else the last `for=` of
/// `Forwarded`. `None` if neither names an address.
pub fn forwarded_client(headers: &HeaderMap) -> Option<IpAddr> {
    let last = |name| {
        headers
            .get_all(name)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .next_back()
            .map(str::trim)
    };
    if let Some(entry) = last(header::HeaderName::from_static("x-forwarded-for")) {
        return parse_node(entry);
    }
    let forwarded = last(header::FORWARDED)?;
    let node = forwarded
        .split(';')
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| key.eq_ignore_ascii_case("for"))
        .map(|(_, value)| value.trim_matches('"'))?;
    parse_node(node)
}

/// An address as a proxy writes it: `1.2.3.4`, `1.2.3.4:5`, `[::1]`, `[::1]:5`.
fn parse_node(node: &str) -> Option<IpAddr> {
    node.parse::<IpAddr>()
        .ok()
        .or_else(|| node.parse::<SocketAddr>().ok().map(|a| a.ip()))
        .or_else(|| {
            node.strip_prefix('[')
                .and_then(|n| n.strip_suffix(']'))
                .and_then(|n| n.parse().ok())
        })
}

/// Accepts and serves connections until `shutdown` turns `true`. An accept
/// error that retrying cannot cure (the listener itself is broken) ends it
/// with that error; running out of descriptors and the like only pauses it.
pub(super) async fn serve(
    listener: TcpListener,
    router: Router,
    options: Options,
    header_timeout: Duration,
    mut shutdown: watch::Receiver<bool>,
) -> io::Result<()> {
    let places = Arc::new(Places {
        pending: PerAddress::new(if options.trust_proxy {
            usize::MAX
        } else {
            PER_ADDRESS
        }),
        total: Arc::new(Semaphore::new(PENDING)),
        waiting: Arc::new(Semaphore::new(WAITING)),
        freed: Notify::new(),
    });
    let options = Arc::new(options);
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
        let held = match places.take_now(peer.ip()) {
            Some(held) => Held::Now(held),
            None => match Arc::clone(&places.waiting).try_acquire_owned() {
                Ok(turn) => Held::Later(turn),
                Err(_) => {
                    tracing::info!(%peer, "web connection refused: too many waiting HTTP connections");
                    turn_away(&stream);
                    continue;
                }
            },
        };
        let connection = Connection {
            router: router.clone(),
            options: Arc::clone(&options),
            header_timeout,
        };
        let places = Arc::clone(&places);
        tokio::spawn(async move {
            let held = match held {
                Held::Now(held) => held,
                Held::Later(turn) => {
                    let waited = tokio::time::timeout(QUEUE_WAIT, places.take(peer.ip())).await;
                    drop(turn);
                    let Ok(held) = waited else {
                        tracing::info!(%peer, "web connection refused: too many unanswered HTTP connections");
                        turn_away(&stream);
                        return;
                    };
                    held
                }
            };
            connection.run(stream, peer).await;
            drop(held);
            places.freed.notify_waiters();
        });
    }
}

/// The places of the HTTP phase, and the room to wait for one.
struct Places {
    /// Places per address.
    pending: Arc<PerAddress>,
    /// Places in all.
    total: Arc<Semaphore>,
    /// Turns to wait for a place.
    waiting: Arc<Semaphore>,
    /// Woken whenever a connection leaves the phase.
    freed: Notify,
}

/// What a connection in its HTTP phase holds: its address's place and one of all.
type Phase = (Place, OwnedSemaphorePermit);

/// A connection's place at once, or its turn to wait for one.
enum Held {
    Now(Phase),
    Later(OwnedSemaphorePermit),
}

impl Places {
    /// Both places for `ip` if they are free now.
    fn take_now(&self, ip: IpAddr) -> Option<Phase> {
        let place = self.pending.take(ip)?;
        let permit = Arc::clone(&self.total).try_acquire_owned().ok()?;
        Some((place, permit))
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

/// Writes a 503 if the socket takes it at once, then closes.
fn turn_away(stream: &TcpStream) {
    let body = "too many connections from your address: try again in a moment\n";
    let head = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n\
         content-length: {}\r\nconnection: close\r\n{}\r\n{body}",
        body.len(),
        security_lines()
    );
    let _ = stream.try_write(head.as_bytes());
}

/// What serving one connection needs.
struct Connection {
    router: Router,
    options: Arc<Options>,
    header_timeout: Duration,
}

impl Connection {
    /// Serves the connection's one request, within [`PHASE_LIMIT`]; an
    /// upgrade hands the connection on and ends the phase.
    async fn run(self, stream: TcpStream, peer: SocketAddr) {
        let _ = stream.set_nodelay(true);
        let Ok(local) = stream.local_addr() else {
            return;
        };
        let answered = Arc::new(AtomicBool::new(false));
        let io = TokioIo::new(Stamped {
            stream,
            answered: Arc::clone(&answered),
            stamped: false,
            out: Vec::new(),
        });
        let inner = TowerToHyperService::new(self.router);
        let options = self.options;
        let service = hyper::service::service_fn(move |request: Request<Body>| {
            answered.store(true, Ordering::Relaxed);
            let inner = inner.clone();
            let options = Arc::clone(&options);
            async move { Ok::<_, Infallible>(answer(&inner, &options, request, local, peer).await) }
        });
        let connection = hyper::server::conn::http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(self.header_timeout)
            .max_buf_size(MAX_HEAD)
            .keep_alive(false)
            .serve_connection(io, service)
            .with_upgrades();
        let _ = tokio::time::timeout(PHASE_LIMIT, connection).await;
    }
}

/// One request: the `Host` check, the client's address, the router, the headers.
async fn answer(
    router: &TowerToHyperService<Router>,
    options: &Options,
    mut request: Request<Body>,
    local: SocketAddr,
    peer: SocketAddr,
) -> Response<axum::body::Body> {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|v| v.to_str().ok());
    if !host_allowed(host, local, &options.hosts) {
        tracing::info!(%peer, host = host.unwrap_or(""), "web request refused: unknown Host");
        let mut response = Response::new(axum::body::Body::from(
            "this server does not serve that host name\n",
        ));
        *response.status_mut() = StatusCode::MISDIRECTED_REQUEST;
        response.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/plain; charset=utf-8"),
        );
        secure(response.headers_mut());
        return response;
    }
    let client = match options.trust_proxy {
        true => forwarded_client(request.headers()).map_or(peer, |ip| SocketAddr::new(ip, 0)),
        false => peer,
    };
    request
        .extensions_mut()
        .insert(ConnectInfo(PeerAddr(client)));
    let mut response = match router.call(request).await {
        Ok(response) => response,
        Err(never) => match never {},
    };
    secure(response.headers_mut());
    response
}

/// A connection's stream that adds [`SECURITY`]'s headers to a response
/// hyper writes on its own (a 400, 414 or 431 for a request it could not
/// read), which never passes through the service. hyper writes a head
/// whole in its first write (the stream is not vectored), so the lines go
/// in after that write's status line.
struct Stamped {
    stream: TcpStream,
    /// Whether a request reached the service (then the service set the headers).
    answered: Arc<AtomicBool>,
    /// Whether the first write has been looked at.
    stamped: bool,
    /// Bytes taken but not yet written.
    out: Vec<u8>,
}

impl Stamped {
    /// Writes what is held back; ready once it is all written.
    fn poll_out(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while !self.out.is_empty() {
            match Pin::new(&mut self.stream).poll_write(cx, &self.out) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Poll::Ready(Ok(n)) => {
                    self.out.drain(..n);
                }
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => return Poll::Pending,
            }
        }
        Poll::Ready(Ok(()))
    }
}

impl AsyncRead for Stamped {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

/// A response head hyper wrote by itself (a 400, 414 or 431 the service
/// never saw) with the security headers after its status line.
fn stamp_head(buf: &[u8]) -> Option<Vec<u8>> {
    let end = buf.windows(2).position(|w| w == b"\r\n")?;
    let mut out = Vec::with_capacity(buf.len() + 512);
    out.extend_from_slice(&buf[..end + 2]);
    out.extend_from_slice(security_lines().as_bytes());
    out.extend_from_slice(&buf[end + 2..]);
    Some(out)
}

/// A `101 Switching Protocols` head without the `close` that hyper adds to
/// `Connection` when keep-alive is off: the upgraded connection stays open,
/// and strict WebSocket clients (tungstenite) refuse `upgrade, close`.
fn upgrade_kept_open(buf: &[u8]) -> Option<Vec<u8>> {
    const CLOSING: &[u8] = b"\r\nconnection: upgrade, close\r\n";
    if !buf.starts_with(b"HTTP/1.1 101 ") {
        return None;
    }
    let at = buf
        .windows(CLOSING.len())
        .position(|w| w.eq_ignore_ascii_case(CLOSING))?;
    let mut out = Vec::with_capacity(buf.len());
    out.extend_from_slice(&buf[..at]);
    out.extend_from_slice(b"\r\nconnection: upgrade\r\n");
    out.extend_from_slice(&buf[at + CLOSING.len()..]);
    Some(out)
}

impl AsyncWrite for Stamped {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        if let Poll::Ready(Err(e)) = this.poll_out(cx) {
            return Poll::Ready(Err(e));
        }
        if !this.out.is_empty() {
            return Poll::Pending;
        }
        let first = !std::mem::replace(&mut this.stamped, true) && buf.starts_with(b"HTTP/1.1 ");
        let held = match first {
            false => None,
            true if !this.answered.load(Ordering::Relaxed) => stamp_head(buf),
            true => upgrade_kept_open(buf),
        };
        if let Some(bytes) = held {
            this.out = bytes;
            if let Poll::Ready(Err(e)) = this.poll_out(cx) {
                return Poll::Ready(Err(e));
            }
            return Poll::Ready(Ok(buf.len()));
        }
        Pin::new(&mut this.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        std::task::ready!(self.poll_out(cx))?;
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        std::task::ready!(self.poll_out(cx))?;
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}
