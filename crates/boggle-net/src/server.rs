//! The server's I/O: accepts connections, holds each client to the limits
//! ([`super::limits`]: line size, rate, the time to say `hello`, idle time,
//! connection and room caps, and per address: new connections, open
//! connections, open rooms made and failed passwords),
//! and hands what each client says to its room's task (`server/rooms.rs`:
//! one tokio task per room owns its [`Room`] and sleeps until the room's
//! next deadline), which delivers what the room says through each client's
//! queue, bounded in bytes (`super::outbox`), so a client that stops
//! reading is dropped and never stalls a room. The stop winds every room
//! down and waits, on a `watch` of the rounds under way, for their ends;
//! then it says goodbye to every client.
//!
//! The handling of one client (`handle`) is written over two traits,
//! `Incoming` and `Outgoing`, so that every transport is held to the
//! same caps: TCP lines ([`Server::run`]) implement them here. A second
//! transport (a browser's WebSocket) takes an [`Entrance`] from
//! [`Server::entrance`], asks it to [`Entrance::admit`] each new connection
//! by its client's address (the connection caps and the per-address rate),
//! and runs `Entrance::serve` with its own `Incoming` (each text message is
//! a line; one longer than [`protocol::MAX_LINE`] is `Heard::TooLong`; a
//! ping or pong is `Heard::Control`, which counts against the rate) and
//! `Outgoing` (each line a text message, written within
//! [`Limits::write_timeout`]). [`Server::run_beside`] runs the server with
//! such a listener and stops it, with the listener's error, if it fails.

#![expect(
    clippy::disallowed_methods,
    reason = "the server's timers, deadlines and latency gauges run on the real clock; rooms are handed its readings"
)]

use std::collections::HashMap;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, BufReader};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore, watch};

use super::limits::Limits;
use super::limits::{AddressLimiter, Share, Shares, Short, Throttled, constant_time_eq};
use super::outbox::{Budget, Encoded, Kind, Outbox};
use super::refusals::{LogRate, Refusals};
use super::room::{ConnId, Refusal, Room, RoomConfig};
use super::store::Store;
use crate::monitor::Handles;
use boggle_game::random;
use boggle_protocol::connection::{Connection, Line, LineReader, LineWriter, Peer};
use boggle_protocol::names::{check_name, check_room, name_key};
use boggle_protocol::{self as protocol, Bucket, ClientMsg, ErrorCode, ServerMsg, Solo, encode};

/// Everything a server needs.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// How every room plays.
    pub room: Arc<RoomConfig>,
    /// The password every `hello` must carry, if any.
    pub password: Option<String>,
    /// Seeds every room's boards (each room rolls the same sequence).
    pub seed: Option<u64>,
    /// The limits.
    pub limits: Limits,
    /// Where today's board's attempts and results are kept (`serve --web
    /// --data`), if anywhere.
    pub store: Option<Store>,
}

/// Why a running server stopped on an error.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The web side's listener failed; the server stopped with it, so the
    /// TCP side does not go on alone with the page gone.
    #[error("the web listener failed")]
    Web(#[source] io::Error),
    /// The stop left daily results unwritten: the results file would not
    /// take them in time (each is in the log with its content).
    #[error(
        "{0} daily results could not be written to the results file before the server \
         stopped (each is in the log with its content)"
    )]
    ResultsUnwritten(usize),
}

/// How long a stopping server waits for the store to write what it holds.
pub(crate) const STORE_CLOSE: Duration = Duration::from_secs(10);

struct Shared {
    config: ServerConfig,
    rooms: Rooms,
    next_conn: AtomicU64,
    shutdown: watch::Receiver<bool>,
    /// One per open connection, whatever its transport.
    permits: Arc<Semaphore>,
    addresses: AddressLimiter,
    /// Connections open, by address and network.
    connection_shares: Arc<Shares>,
    /// Rooms open, by the address and network that opened them.
    room_shares: Arc<Shares>,
    budget: Arc<Budget>,
    /// Refusals counted, their log lines held to a rate.
    refusals: Refusals,
    /// The lines about rooms opened and closed, held to a rate too.
    room_lines: LogRate,
    /// The server is stopping: rounds under way finish, nothing new starts.
    stopping: AtomicBool,
    /// Ends the rounds under way at once while stopping (a second signal).
    hurry: Notify,
    /// Players connected in rooms, as the rooms' tasks count them.
    players: AtomicUsize,
    /// Rounds under way, as the rooms' tasks count them: the stop waits for none.
    playing: watch::Sender<usize>,
    /// What the server records (through the `metrics` facade; nothing
    /// without an exporter installed).
    metrics: Handles,
}

/// A bound, not yet running server.
pub struct Server {
    listener: TcpListener,
    shared: Arc<Shared>,
    shutdown_tx: watch::Sender<bool>,
}

/// The way into a server's rooms for any transport: admission and the
/// handling of a client, under the server's limits and shutdown.
#[derive(Clone)]
pub struct Entrance(Arc<Shared>);

/// A connection let in: holding it holds one of [`Limits::max_connections`].
pub(crate) struct Admitted {
    _permit: OwnedSemaphorePermit,
    _share: Share,
    ip: IpAddr,
    /// Counts the connection in the `boggle_connections` gauge while held.
    gauge: metrics::Gauge,
}

impl Drop for Admitted {
    fn drop(&mut self) {
        self.gauge.decrement(1.0);
    }
}

/// Ends the rounds under way of a stopping server at once (a second signal).
#[derive(Clone)]
pub struct Hurry(Arc<Shared>);

impl Hurry {
    /// Ends the rounds under way now, if the server is stopping or when it starts to.
    pub fn now(&self) {
        self.0.hurry.notify_one();
    }
}

/// Locks a mutex even if a panic elsewhere poisoned it: the map of rooms
/// is only changed through whole calls, so it stays usable.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Server {
    /// Binds `addr` (port 0 picks a free port).
    pub async fn bind(addr: &str, config: ServerConfig) -> io::Result<Server> {
        let listener = TcpListener::bind(addr).await?;
        let (shutdown_tx, shutdown) = watch::channel(false);
        let permits = Arc::new(Semaphore::new(config.limits.max_connections));
        let addresses = AddressLimiter::new(&config.limits);
        let connection_shares = Shares::new(config.limits.connection_shares());
        let room_shares = Shares::new(config.limits.room_shares());
        let budget = Budget::new(config.limits.queued_total);
        Ok(Server {
            listener,
            shared: Arc::new(Shared {
                config,
                rooms: Mutex::new(HashMap::new()),
                next_conn: AtomicU64::new(1),
                shutdown,
                permits,
                addresses,
                connection_shares,
                room_shares,
                budget,
                refusals: Refusals::new(Instant::now()),
                room_lines: LogRate::new("lines about rooms opened and closed", Instant::now()),
                stopping: AtomicBool::new(false),
                hurry: Notify::new(),
                players: AtomicUsize::new(0),
                playing: watch::Sender::new(0),
                metrics: Handles::new(),
            }),
            shutdown_tx,
        })
    }

    /// The address it listens on.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// The way in for another transport, into the same rooms under the same limits.
    pub fn entrance(&self) -> Entrance {
        Entrance(Arc::clone(&self.shared))
    }

    /// What ends the rounds under way at once while the server stops.
    pub fn hurry(&self) -> Hurry {
        Hurry(Arc::clone(&self.shared))
    }

    /// Serves until `stop` completes, then stops: no new room or player,
    /// the rounds under way go on for up to [`Limits::stop_grace`] (every
    /// player told so) and end with their results; then every client is
    /// told goodbye, and the server waits (a few seconds at most) for their
    /// connections to close, and for the store to write what it holds
    /// (10 s at most; a row it cannot write makes the stop an error).
    /// Meanwhile it still takes connections, so a player who drops can
    /// take their seat back.
    pub async fn run(self, stop: impl std::future::Future<Output = ()>) -> Result<(), ServerError> {
        let flusher = tokio::spawn(flush_held_lines(Arc::clone(&self.shared)));
        self.accept_until(stop).await;
        self.accept_until(drain(Arc::clone(&self.shared))).await;
        let _ = self.shutdown_tx.send(true);
        let all = u32::try_from(self.shared.config.limits.max_connections).unwrap_or(u32::MAX);
        let _ = tokio::time::timeout(
            Duration::from_secs(5),
            self.shared.permits.acquire_many(all),
        )
        .await;
        flusher.abort();
        self.shared.refusals.flush_all();
        self.shared.room_lines.flush_all();
        // What the rooms handed the store is written before the server ends;
        // what cannot be is logged row by row, and the stop is an error.
        if let Some(store) = self.shared.config.store.clone() {
            let closed = tokio::task::spawn_blocking(move || store.close(STORE_CLOSE)).await;
            if let Ok(Err(lost)) = closed {
                return Err(ServerError::ResultsUnwritten(lost));
            }
        }
        Ok(())
    }

    /// Takes connections until `until` completes.
    async fn accept_until(&self, until: impl std::future::Future<Output = ()>) {
        let entrance = self.entrance();
        tokio::pin!(until);
        loop {
            tokio::select! {
                () = &mut until => return,
                accepted = self.listener.accept() => {
                    let Ok((stream, peer)) = accepted else {
                        // Out of file descriptors and the like: wait, do not spin.
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    };
                    let entrance = entrance.clone();
                    tokio::spawn(async move {
                        match entrance.admit(peer.ip()) {
                            Ok(admitted) => {
                                let limit = entrance.0.config.limits.write_timeout;
                                let Connection { reader, writer } =
                                    Connection::new(stream, Peer::Client, limit);
                                entrance.serve(admitted, reader, writer).await;
                            }
                            Err(refusal) => refuse(stream, &refusal).await,
                        }
                    });
                }
            }
        }
    }

    /// Runs the server with `web` (another transport's listener) beside it until `stop`; if `web` fails first,
    /// the server shuts down and the web side's error is the result, so the
    /// TCP side does not go on alone with the page gone.
    pub async fn run_beside(
        self,
        web: impl std::future::Future<Output = std::io::Result<()>> + Send + 'static,
        stop: impl std::future::Future<Output = ()>,
    ) -> Result<(), ServerError> {
        let mut web = tokio::spawn(web);
        let failed = std::sync::Mutex::new(None);
        let stop = async {
            tokio::select! {
                () = stop => {}
                ended = &mut web => {
                    let error = match ended {
                        Ok(Ok(())) => std::io::Error::other("the web listener stopped"),
                        Ok(Err(e)) => e,
                        Err(panic) => std::io::Error::other(format!("the web listener crashed: {panic}")),
                    };
                    tracing::error!("the web listener failed: {error}");
                    *failed.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(error);
                }
            }
        };
        self.run(stop).await?;
        let failed = failed
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        match failed {
            Some(e) => Err(ServerError::Web(e)),
            None => Ok(()),
        }
    }
}

impl Entrance {
    /// Lets a new connection from `ip` in, or says why not (the message to
    /// send before closing): too many new connections from that address,
    /// too many open from it, or the server is full.
    pub(crate) fn admit(&self, ip: IpAddr) -> Result<Admitted, ServerMsg> {
        let admitted = self.try_admit(ip);
        if let Err(refusal) = &admitted
            && self.0.refusals.note(refusal.code.as_str(), Instant::now())
        {
            tracing::info!(%ip, "connection refused: {}", refusal.message);
        }
        admitted.map_err(|refusal| refusal.to_msg())
    }

    fn try_admit(&self, ip: IpAddr) -> Result<Admitted, Refusal> {
        let limits = &self.0.config.limits;
        let refused = |message: String| Refusal::new(ErrorCode::ServerFull, message);
        if self.0.addresses.connect(ip, Instant::now()).is_err() {
            return Err(refused(format!(
                "more than {} new connections a second from your address: try again in a moment",
                limits.connects_per_sec
            )));
        }
        let shares = &self.0.connection_shares;
        let share = shares
            .take(ip)
            .map_err(|short| refused(shares.caps().why_short(short, "connections", "try later")))?;
        match Arc::clone(&self.0.permits).try_acquire_owned() {
            Ok(permit) => {
                let gauge = self.0.metrics.connections.clone();
                gauge.increment(1.0);
                Ok(Admitted {
                    _permit: permit,
                    _share: share,
                    ip,
                    gauge,
                })
            }
            Err(_) => Err(refused(shares.caps().why_short(
                Short::Whole,
                "connections",
                "try later",
            ))),
        }
    }

    /// The server's limits, which every transport applies.
    pub(crate) fn limits(&self) -> &Limits {
        &self.0.config.limits
    }

    /// Where today's board's results are kept, if anywhere.
    pub(crate) fn store(&self) -> Option<&Store> {
        self.0.config.store.as_ref()
    }

    /// Counts a refusal of the web side's for `reason`; `true` when it may be
    /// logged now (refusals are logged at a bounded rate).
    pub(crate) fn refused(&self, reason: &'static str) -> bool {
        self.0.refusals.note(reason, Instant::now())
    }

    /// The rooms' settings (rules, round length), which the page names before joining.
    pub(crate) fn room_config(&self) -> &crate::room::RoomConfig {
        &self.0.config.room
    }

    /// Whether a `hello` must carry a password (the page asks for one only then).
    pub(crate) fn has_password(&self) -> bool {
        self.0.config.password.is_some()
    }

    /// Whether the server is stopping (its health check says so).
    pub(crate) fn stopping(&self) -> bool {
        self.0.stopping.load(Ordering::Relaxed)
    }

    /// Becomes `true` when the server starts shutting down, so another
    /// transport's listener stops with it.
    pub(crate) fn shutdown(&self) -> watch::Receiver<bool> {
        self.0.shutdown.clone()
    }

    /// Plays one admitted client's connection to its end.
    pub(crate) async fn serve<I: Incoming, O: Outgoing>(
        &self,
        admitted: Admitted,
        incoming: I,
        outgoing: O,
    ) {
        handle(Arc::clone(&self.0), admitted.ip, incoming, outgoing).await;
        drop(admitted);
    }
}

/// What a transport hands over from a client.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Heard<'a> {
    /// A whole message: one protocol line.
    Line(&'a [u8]),
    /// A message of the transport's own (a WebSocket ping or pong): it
    /// counts against the rate as any message does.
    Control,
    /// The client closed the connection.
    Eof,
    /// A message over the cap.
    TooLong,
}

impl<'a> From<Line<'a>> for Heard<'a> {
    fn from(line: Line<'a>) -> Heard<'a> {
        match line {
            Line::Read(line) => Heard::Line(line),
            Line::Eof => Heard::Eof,
            Line::TooLong => Heard::TooLong,
        }
    }
}

/// What a transport delivers from a client: whole messages under the cap.
pub(crate) trait Incoming: Send {
    /// The next message (cancel-safe: a partly read one is kept for the next call).
    fn next_message(&mut self) -> impl Future<Output = io::Result<Heard<'_>>> + Send;
    /// Reads and throws away what the client still sends, up to `limit`
    /// bytes or its end, so closing does not reset the connection before the
    /// client has read the last error.
    fn discard(&mut self, limit: usize) -> impl Future<Output = ()> + Send;
}

/// How a transport sends a client its messages.
pub(crate) trait Outgoing: Send + 'static {
    /// Sends one line (newline included) whole, within the write time limit.
    fn send_line(&mut self, line: &str) -> impl Future<Output = io::Result<()>> + Send;
    /// Closes the sending side.
    fn close(&mut self) -> impl Future<Output = ()> + Send;
}

impl Incoming for LineReader<BufReader<OwnedReadHalf>> {
    async fn next_message(&mut self) -> io::Result<Heard<'_>> {
        self.next_line().await.map(Heard::from)
    }

    async fn discard(&mut self, limit: usize) {
        let mut sink = [0u8; 16 * 1024];
        let mut left = limit;
        while left > 0 {
            match self.get_mut().read(&mut sink).await {
                Ok(0) | Err(_) => break,
                Ok(n) => left = left.saturating_sub(n),
            }
        }
    }
}

impl Outgoing for LineWriter<OwnedWriteHalf> {
    fn send_line(&mut self, line: &str) -> impl Future<Output = io::Result<()>> + Send {
        self.write_line(line)
    }

    fn close(&mut self) -> impl Future<Output = ()> + Send {
        self.shutdown()
    }
}

/// Tells a client it was not let in, and closes.
async fn refuse(stream: TcpStream, msg: &ServerMsg) {
    let mut writer = LineWriter::new(stream, Peer::Client, Duration::from_secs(2));
    let _ = writer.send(msg).await;
}

/// Says how many log lines were held back, once a line may go out again:
/// idle until one is held, then a line's time at a time until none is.
async fn flush_held_lines(shared: Arc<Shared>) {
    let line_time = Duration::from_secs_f64(1.0 / super::refusals::LOG_RATE);
    loop {
        if !shared.refusals.holds() && !shared.room_lines.holds() {
            tokio::select! {
                () = shared.refusals.held_back() => {}
                () = shared.room_lines.held_back() => {}
            }
        }
        tokio::time::sleep(line_time).await;
        let now = Instant::now();
        shared.refusals.flush(now);
        shared.room_lines.flush(now);
    }
}

/// The server's stop: every room winds down (rounds under way end within
/// the grace, nothing new starts, every player is told); done once every
/// room has and no round is on. A [`Hurry`] ends the rounds at once.
async fn drain(shared: Arc<Shared>) {
    shared.stopping.store(true, Ordering::Relaxed);
    metrics::gauge!("boggle_stopping").set(1.0);
    let now = Instant::now();
    let mut by = now + shared.config.limits.stop_grace;
    let mut acked = rooms::wind_down(&shared, by, now);
    let mut playing = shared.playing.subscribe();
    loop {
        let wound = async {
            while acked.recv().await.is_some() {}
            let _ = playing.wait_for(|rounds| *rounds == 0).await;
        };
        // Each round ends by `by` on its room's timer; the second is a guard.
        let guard = tokio::time::Instant::from_std(by + Duration::from_secs(1));
        tokio::select! {
            () = wound => return,
            () = tokio::time::sleep_until(guard) => return,
            () = shared.hurry.notified() => {
                let now = Instant::now();
                by = now;
                // The rooms have the first wind-down (its acks are awaited
                // still); this one only brings the rounds' end forward.
                drop(rooms::wind_down(&shared, by, now));
            }
        }
    }
}

/// Why a connection ends.
enum End {
    /// Quietly (the client left, or was dropped as a slow reader).
    Quiet,
    /// With an error message first.
    Fatal(Refusal),
    /// Its `hello` was refused (with the error message first).
    Refused(Refusal),
    /// The server is shutting down.
    Shutdown,
}

/// A client's place in a room; dropping it leaves the room, also when the
/// connection's task ends from a panic, so a room never keeps a ghost.
struct Seat {
    conn: ConnId,
    joined: Option<RoomTx>,
}

impl Drop for Seat {
    fn drop(&mut self) {
        if let Some(room) = self.joined.take() {
            // A room already gone has nobody left to tell.
            let _ = room.send(Event::Leave(self.conn, Instant::now()));
        }
    }
}

/// One client, from its first message to close, over any transport.
async fn handle<I: Incoming, O: Outgoing>(
    shared: Arc<Shared>,
    ip: IpAddr,
    mut incoming: I,
    outgoing: O,
) {
    let conn = shared.next_conn.fetch_add(1, Ordering::Relaxed);
    let outbox = Arc::new(Outbox::new(
        shared.config.limits.queue_bytes,
        &shared.budget,
    ));
    let kill = Arc::new(Notify::new());
    let writer = tokio::spawn(write_lines(
        outgoing,
        Arc::clone(&outbox),
        Arc::clone(&kill),
    ));
    let client = Client::new(outbox, kill);
    let mut seat = Seat { conn, joined: None };
    let mut session = Session::new(&shared, ip, conn, &client);
    let end = session.serve(&mut incoming, &mut seat.joined).await;
    drop(seat);
    let last = match end {
        End::Quiet => None,
        End::Refused(refusal) => {
            if shared.refusals.note(refusal.code.as_str(), Instant::now()) {
                tracing::info!(%ip, code = ?refusal.code, "hello refused: {}", refusal.message);
            }
            Some(refusal.to_msg())
        }
        End::Fatal(refusal) => {
            if shared.refusals.note(refusal.code.as_str(), Instant::now()) {
                tracing::info!(%ip, conn, code = ?refusal.code, "client dropped: {}", refusal.message);
            }
            Some(refusal.to_msg())
        }
        End::Shutdown => Some(ServerMsg::Bye {
            reason: "the server is shutting down".into(),
        }),
    };
    let lingering = last.is_some();
    match last {
        Some(msg) => client
            .outbox
            .close_with(Some(Encoded::new(encode(&msg), &shared.budget))),
        None => client.outbox.abandon(),
    }
    let _ = writer.await;
    if lingering {
        // Read what the client is still sending for a moment, so closing with
        // unread input does not reset the connection before the client reads
        // the error (a 10 MB line is still arriving when it is refused).
        let _ = tokio::time::timeout(Duration::from_secs(2), incoming.discard(32 << 20)).await;
    }
}

/// Writes queued lines until the queue closes; a write that fails or takes
/// too long ends it, and the client with it.
async fn write_lines<O: Outgoing>(mut out: O, outbox: Arc<Outbox>, kill: Arc<Notify>) {
    while let Some(line) = outbox.next().await {
        if out.send_line(line.as_str()).await.is_err() {
            outbox.abandon();
            kill.notify_one();
            return;
        }
    }
    out.close().await;
}

/// One client's conversation: what it may still send, and where it sits.
struct Session<'a> {
    shared: &'a Arc<Shared>,
    ip: IpAddr,
    conn: ConnId,
    client: &'a Client,
    bucket: Bucket,
    strikes: u32,
    /// The time to say hello runs from the connection, whatever comes first.
    hello_by: tokio::time::Instant,
}

/// What the rate limit makes of a message.
enum Rated {
    /// Within the rate: handle it.
    Take,
    /// Over the rate: it was ignored (and the client told, unless a control frame).
    Ignored,
}

impl<'a> Session<'a> {
    fn new(shared: &'a Arc<Shared>, ip: IpAddr, conn: ConnId, client: &'a Client) -> Session<'a> {
        let limits = &shared.config.limits;
        Session {
            shared,
            ip,
            conn,
            client,
            bucket: Bucket::new(limits.rate_per_sec, limits.burst, Instant::now()),
            strikes: 0,
            hello_by: tokio::time::Instant::now() + limits.hello_timeout,
        }
    }

    /// Reads and handles the client's messages until the connection should end.
    async fn serve<I: Incoming>(&mut self, incoming: &mut I, joined: &mut Option<RoomTx>) -> End {
        let mut shutdown = self.shared.shutdown.clone();
        loop {
            if *shutdown.borrow() {
                return End::Shutdown;
            }
            let line = match self.next(incoming, &mut shutdown, joined.is_some()).await {
                Ok(heard) => heard,
                Err(end) => return end,
            };
            let control = line.is_none();
            match self.rate(line, control) {
                Ok(Rated::Take) => {}
                Ok(Rated::Ignored) => continue,
                Err(end) => return end,
            }
            let Some(line) = line else { continue };
            let msg = match protocol::decode(line) {
                Ok(msg) => msg,
                Err(e) => return End::Fatal(Refusal::new(e.code(), e.to_string())),
            };
            if let Err(end) = self.act(msg, joined).await {
                return end;
            }
        }
    }

    /// The next message's line (`None` for a control frame), or why the
    /// connection ends: a time limit passed, the client left or went too
    /// far, the server dropped it or is shutting down.
    async fn next<'i, I: Incoming>(
        &self,
        incoming: &'i mut I,
        shutdown: &mut watch::Receiver<bool>,
        joined: bool,
    ) -> Result<Option<&'i [u8]>, End> {
        let limits = &self.shared.config.limits;
        let deadline = if joined {
            tokio::time::Instant::now() + limits.idle_timeout
        } else {
            self.hello_by
        };
        let read = tokio::select! {
            read = tokio::time::timeout_at(deadline, incoming.next_message()) => read,
            () = self.client.kill.notified() => return Err(self.client.killed()),
            _ = shutdown.changed() => return Err(End::Shutdown),
        };
        match read {
            Err(_) if !joined => Err(End::Fatal(Refusal::new(
                ErrorCode::Idle,
                format!(
                    "no hello within {} seconds of connecting",
                    limits.hello_timeout.as_secs()
                ),
            ))),
            Err(_) => Err(End::Fatal(Refusal::new(
                ErrorCode::Idle,
                format!(
                    "nothing heard for {} seconds",
                    limits.idle_timeout.as_secs()
                ),
            ))),
            Ok(Err(_) | Ok(Heard::Eof)) => Err(End::Quiet),
            Ok(Ok(Heard::TooLong)) => {
                let e = protocol::ProtocolError::TooLong;
                Err(End::Fatal(Refusal::new(e.code(), e.to_string())))
            }
            Ok(Ok(Heard::Control)) => Ok(None),
            Ok(Ok(Heard::Line(line))) => Ok(Some(line)),
        }
    }

    /// Holds a message to the rate: past it, the message is ignored (a
    /// refused word is named, so the client knows not to send it again),
    /// and far past it the client is dropped.
    fn rate(&mut self, line: Option<&[u8]>, control: bool) -> Result<Rated, End> {
        let limits = &self.shared.config.limits;
        if self.bucket.take(Instant::now()) {
            return Ok(Rated::Take);
        }
        self.strikes += 1;
        Refusals::count(ErrorCode::RateLimited.as_str());
        if self.strikes > limits.max_rate_strikes {
            return Err(End::Fatal(Refusal::new(
                ErrorCode::TooManyMessages,
                format!(
                    "far more than {} messages a second: disconnected",
                    limits.rate_per_sec
                ),
            )));
        }
        if control {
            return Ok(Rated::Ignored);
        }
        let word = match line.map(protocol::decode) {
            Some(Ok(ClientMsg::Word { word })) => Some(word),
            _ => None,
        };
        let msg = ServerMsg::Error {
            code: ErrorCode::RateLimited,
            message: format!(
                "more than {} messages a second: this one was ignored",
                limits.rate_per_sec
            ),
            word,
            remaining_ms: None,
        };
        if self.send(&msg) {
            Ok(Rated::Ignored)
        } else {
            Err(End::Quiet)
        }
    }

    /// Queues `msg` for the client; `false` when its queue refuses (it is not reading).
    fn send(&self, msg: &ServerMsg) -> bool {
        self.client
            .outbox
            .push(Encoded::new(encode(msg), &self.shared.budget), Kind::Other)
    }

    /// Does what one message asks: a `hello` waits for its room's answer;
    /// anything else is handed to the room's task.
    async fn act(&self, msg: ClientMsg, joined: &mut Option<RoomTx>) -> Result<(), End> {
        let now = Instant::now();
        match (msg, &*joined) {
            (ClientMsg::Ping, _) => {
                if !self.send(&ServerMsg::Pong) {
                    return Err(End::Quiet);
                }
            }
            (
                ClientMsg::Hello {
                    name,
                    room,
                    password,
                    token,
                    solo,
                    ..
                },
                None,
            ) => {
                let room = room.unwrap_or_else(|| "main".to_string());
                let asked = Hello {
                    name: &name,
                    room: &room,
                    password,
                    token,
                    solo,
                };
                // Boxed: each connection's task would otherwise hold the
                // hello's state for its whole life, not just while it waits.
                let seated = Box::pin(hello(
                    self.shared,
                    self.ip,
                    self.conn,
                    asked,
                    self.client,
                    now,
                ));
                match seated.await {
                    Ok(joined_room) => *joined = Some(joined_room),
                    Err(refusal) => return Err(End::Refused(refusal)),
                }
            }
            (ClientMsg::Hello { .. }, Some(_)) => {
                return Err(End::Fatal(Refusal::new(
                    ErrorCode::NotJoined,
                    "already joined",
                )));
            }
            (_, None) => {
                return Err(End::Fatal(Refusal::new(
                    ErrorCode::NotJoined,
                    "the first message must be hello",
                )));
            }
            (msg, Some(room)) => {
                let event = match msg {
                    ClientMsg::Ready => Event::Ready(self.conn, now),
                    ClientMsg::Word { word } => Event::Word(self.conn, word, now),
                    ClientMsg::Done => Event::Done(self.conn, now),
                    ClientMsg::Ping | ClientMsg::Hello { .. } => return Ok(()),
                };
                // Only a room that broke is gone while a player sits in it.
                if room.send(event).is_err() {
                    return Err(End::Quiet);
                }
            }
        }
        Ok(())
    }
}

mod client;
mod hello;
mod rooms;
use client::Client;
use hello::{Hello, hello};
use rooms::{Event, Filed, RoomTx, Rooms};

#[cfg(test)]
mod tests;
