//! The server's I/O: accepts TCP connections, reads each client's lines under
//! the limits (line size, rate, idle time, connection and room caps), feeds
//! the rooms' state machines ([`Room`]) and delivers what they say through a
//! bounded queue per client, so a client that stops reading is dropped and
//! never stalls a room. Rooms live behind short-held locks; a timer task ends
//! rounds on time; a shutdown says goodbye to every client.

use std::collections::HashMap;
use std::io;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use rand::RngCore;
use tokio::io::{AsyncBufRead, AsyncReadExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, Semaphore, mpsc, watch};

use super::connection::{Connection, Line, LineReader, LineWriter, Peer};
use super::protocol::{
    self, ClientMsg, ErrorCode, ServerMsg, check_room, constant_time_eq, encode,
};
use super::room::{ConnId, Room, RoomConfig};
use crate::random;

/// What the server allows each client and in all.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Connections open at once.
    pub max_connections: usize,
    /// Rooms at once.
    pub max_rooms: usize,
    /// Time to send `hello` after connecting.
    pub hello_timeout: Duration,
    /// Time without a message from a joined client before it is dropped.
    pub idle_timeout: Duration,
    /// Messages a client may send per second, on average.
    pub rate_per_sec: f64,
    /// Messages a client may send in a burst.
    pub burst: f64,
    /// Messages refused for rate before the client is dropped.
    pub max_rate_strikes: u32,
    /// Messages waiting for a client before it counts as not reading.
    pub send_queue: usize,
    /// Time to write one line to a client.
    pub write_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_connections: 1000,
            max_rooms: 200,
            hello_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(300),
            rate_per_sec: 20.0,
            burst: 40.0,
            max_rate_strikes: 100,
            send_queue: 256,
            write_timeout: Duration::from_secs(10),
        }
    }
}

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
}

/// A room and the queues of its connected clients.
struct Slot {
    room: Room,
    clients: HashMap<ConnId, Client>,
}

/// The server's side of one client's outgoing queue.
#[derive(Clone)]
struct Client {
    tx: mpsc::Sender<String>,
    kill: Arc<Notify>,
}

type Rooms = Mutex<HashMap<String, Arc<Mutex<Slot>>>>;

struct Shared {
    config: ServerConfig,
    rooms: Rooms,
    next_conn: AtomicU64,
    shutdown: watch::Receiver<bool>,
}

/// A bound, not yet running server.
pub struct Server {
    listener: TcpListener,
    shared: Arc<Shared>,
    shutdown_tx: watch::Sender<bool>,
    permits: Arc<Semaphore>,
}

/// Locks a mutex even if a panic elsewhere poisoned it: a room's state is
/// only changed through whole calls, so it stays usable.
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
        Ok(Server {
            listener,
            shared: Arc::new(Shared {
                config,
                rooms: Mutex::new(HashMap::new()),
                next_conn: AtomicU64::new(1),
                shutdown,
            }),
            shutdown_tx,
            permits,
        })
    }

    /// The address it listens on.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves until `stop` completes, then tells every client goodbye and
    /// waits (a few seconds at most) for their connections to close.
    pub async fn run(self, stop: impl std::future::Future<Output = ()>) -> io::Result<()> {
        let ticker = tokio::spawn(tick_rooms(Arc::clone(&self.shared)));
        tokio::pin!(stop);
        loop {
            tokio::select! {
                () = &mut stop => break,
                accepted = self.listener.accept() => {
                    let Ok((stream, _)) = accepted else {
                        // Out of file descriptors and the like: wait, do not spin.
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    };
                    let shared = Arc::clone(&self.shared);
                    match Arc::clone(&self.permits).try_acquire_owned() {
                        Ok(permit) => {
                            tokio::spawn(async move {
                                connection(shared, stream).await;
                                drop(permit);
                            });
                        }
                        Err(_) => {
                            tokio::spawn(refuse(stream, shared.config.limits.max_connections));
                        }
                    }
                }
            }
        }
        let _ = self.shutdown_tx.send(true);
        let all = u32::try_from(self.shared.config.limits.max_connections).unwrap_or(u32::MAX);
        let _ = tokio::time::timeout(Duration::from_secs(5), self.permits.acquire_many(all)).await;
        ticker.abort();
        Ok(())
    }
}

/// Tells a client over the connection cap so, and closes.
async fn refuse(stream: TcpStream, max: usize) {
    let msg = ServerMsg::Error {
        code: ErrorCode::ServerFull,
        message: format!("the server has its maximum of {max} connections; try later"),
    };
    let mut writer = LineWriter::new(stream, Peer::Client, Duration::from_secs(2));
    let _ = writer.send(&msg).await;
}

/// Ends rounds whose time is up and forgets rooms nobody is in.
async fn tick_rooms(shared: Arc<Shared>) {
    let mut interval = tokio::time::interval(Duration::from_millis(50));
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    loop {
        interval.tick().await;
        let slots: Vec<(String, Arc<Mutex<Slot>>)> = lock(&shared.rooms)
            .iter()
            .map(|(name, slot)| (name.clone(), Arc::clone(slot)))
            .collect();
        let now = Instant::now();
        for (name, slot) in slots {
            let abandoned = {
                let mut slot = lock(&slot);
                slot.room.tick(now);
                dispatch(&mut slot);
                slot.room.is_abandoned()
            };
            if abandoned {
                forget_if_abandoned(&shared, &name);
            }
        }
    }
}

/// Removes room `name` if it is still abandoned (checked under the map's lock,
/// which every join holds, so no one can be joining it meanwhile).
fn forget_if_abandoned(shared: &Shared, name: &str) {
    let mut rooms = lock(&shared.rooms);
    let abandoned = rooms
        .get(name)
        .is_some_and(|slot| lock(slot).room.is_abandoned());
    if abandoned {
        rooms.remove(name);
    }
}

/// Sends what the room said. A client whose queue is full is not reading: it
/// is told to go (its connection task closes it) and hears nothing more.
fn dispatch(slot: &mut Slot) {
    for (conn, msg) in slot.room.drain() {
        let Some(client) = slot.clients.get(&conn) else {
            continue;
        };
        if client.tx.try_send(encode(&msg)).is_err() {
            client.kill.notify_one();
            slot.clients.remove(&conn);
        }
    }
}

/// A token bucket: `rate` messages a second on average, `burst` at once.
struct Bucket {
    tokens: f64,
    last: Instant,
    rate: f64,
    burst: f64,
}

impl Bucket {
    fn take(&mut self, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + elapsed * self.rate).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// A random token naming a seat: 128 bits from the operating system's generator.
fn fresh_token() -> String {
    let mut bytes = [0u8; 16];
    rand::rng().fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Why a connection ends.
enum End {
    /// Quietly (the client left, or was dropped as a slow reader).
    Quiet,
    /// With an error message first.
    Fatal(ErrorCode, String),
    /// The server is shutting down.
    Shutdown,
}

/// A client's place in a room; dropping it leaves the room, also when the
/// connection's task unwinds from a panic, so a room never keeps a ghost.
struct Seat {
    shared: Arc<Shared>,
    conn: ConnId,
    joined: Option<(String, Arc<Mutex<Slot>>)>,
}

impl Drop for Seat {
    fn drop(&mut self) {
        let Some((name, slot)) = self.joined.take() else {
            return;
        };
        let abandoned = {
            let mut slot = lock(&slot);
            slot.clients.remove(&self.conn);
            slot.room.leave(self.conn, Instant::now());
            dispatch(&mut slot);
            slot.room.is_abandoned()
        };
        if abandoned {
            forget_if_abandoned(&self.shared, &name);
        }
    }
}

/// One client, from connect to close.
async fn connection(shared: Arc<Shared>, stream: TcpStream) {
    let conn = shared.next_conn.fetch_add(1, Ordering::Relaxed);
    let limits = shared.config.limits.clone();
    let Connection { mut reader, writer } =
        Connection::new(stream, Peer::Client, limits.write_timeout);
    let (tx, rx) = mpsc::channel::<String>(limits.send_queue);
    let kill = Arc::new(Notify::new());
    let writer = tokio::spawn(write_lines(writer, rx));
    let mut seat = Seat {
        shared: Arc::clone(&shared),
        conn,
        joined: None,
    };
    let end = serve_client(&shared, conn, &mut reader, &tx, &kill, &mut seat.joined).await;
    drop(seat);
    let last = match end {
        End::Quiet => None,
        End::Fatal(code, message) => Some(ServerMsg::Error { code, message }),
        End::Shutdown => Some(ServerMsg::Bye {
            reason: "the server is shutting down".into(),
        }),
    };
    let lingering = last.is_some();
    if let Some(msg) = last {
        let _ = tx.try_send(encode(&msg));
    }
    drop(tx);
    let _ = writer.await;
    if lingering {
        // Read what the client is still sending for a moment, so closing with
        // unread input does not reset the connection before the client reads
        // the error (a 10 MB line is still arriving when it is refused).
        let mut sink = [0u8; 16 * 1024];
        let _ = tokio::time::timeout(Duration::from_secs(2), async {
            let mut left: usize = 32 << 20;
            while left > 0 {
                match reader.get_mut().read(&mut sink).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => left = left.saturating_sub(n),
                }
            }
        })
        .await;
    }
}

/// Writes queued lines until the queue closes; a write that takes too long ends it.
async fn write_lines(
    mut writer: LineWriter<tokio::net::tcp::OwnedWriteHalf>,
    mut rx: mpsc::Receiver<String>,
) {
    while let Some(line) = rx.recv().await {
        if writer.write_line(&line).await.is_err() {
            return;
        }
    }
    writer.shutdown().await;
}

/// Reads and handles a client's messages until the connection should end.
async fn serve_client<R: AsyncBufRead + Unpin>(
    shared: &Shared,
    conn: ConnId,
    reader: &mut LineReader<R>,
    tx: &mpsc::Sender<String>,
    kill: &Arc<Notify>,
    joined: &mut Option<(String, Arc<Mutex<Slot>>)>,
) -> End {
    let limits = &shared.config.limits;
    let mut shutdown = shared.shutdown.clone();
    let mut bucket = Bucket {
        tokens: limits.burst,
        last: Instant::now(),
        rate: limits.rate_per_sec,
        burst: limits.burst,
    };
    let mut strikes = 0u32;
    loop {
        if *shutdown.borrow() {
            return End::Shutdown;
        }
        let wait = if joined.is_some() {
            limits.idle_timeout
        } else {
            limits.hello_timeout
        };
        let read = tokio::select! {
            read = tokio::time::timeout(wait, reader.next_line()) => read,
            () = kill.notified() => return End::Quiet,
            _ = shutdown.changed() => return End::Shutdown,
        };
        let line = match read {
            Err(_) => {
                return End::Fatal(
                    ErrorCode::Idle,
                    format!("nothing heard for {} seconds", wait.as_secs()),
                );
            }
            Ok(Err(_) | Ok(Line::Eof)) => return End::Quiet,
            Ok(Ok(Line::TooLong)) => {
                let e = protocol::ProtocolError::TooLong;
                return End::Fatal(e.code(), e.to_string());
            }
            Ok(Ok(Line::Read(line))) => line,
        };
        if !bucket.take(Instant::now()) {
            strikes += 1;
            if strikes > limits.max_rate_strikes {
                return End::Fatal(ErrorCode::RateLimited, "far too many messages".into());
            }
            let msg = ServerMsg::Error {
                code: ErrorCode::RateLimited,
                message: format!(
                    "more than {} messages a second: this one was ignored",
                    limits.rate_per_sec
                ),
            };
            if tx.try_send(encode(&msg)).is_err() {
                return End::Quiet;
            }
            continue;
        }
        let msg = match protocol::decode(line) {
            Ok(msg) => msg,
            Err(e) => return End::Fatal(e.code(), e.to_string()),
        };
        let now = Instant::now();
        match (msg, &*joined) {
            (ClientMsg::Ping, _) => {
                if tx.try_send(encode(&ServerMsg::Pong)).is_err() {
                    return End::Quiet;
                }
            }
            (
                ClientMsg::Hello {
                    name,
                    room,
                    password,
                    token,
                    ..
                },
                None,
            ) => {
                let room = room.unwrap_or_else(|| "main".to_string());
                match hello(shared, conn, &name, &room, password, token, tx, kill, now) {
                    Ok(slot) => *joined = Some((room, slot)),
                    Err((code, message)) => return End::Fatal(code, message),
                }
            }
            (ClientMsg::Hello { .. }, Some(_)) => {
                return End::Fatal(ErrorCode::NotJoined, "already joined".into());
            }
            (_, None) => {
                return End::Fatal(
                    ErrorCode::NotJoined,
                    "the first message must be hello".into(),
                );
            }
            (msg, Some((_, slot))) => {
                let mut slot = lock(slot);
                match msg {
                    ClientMsg::Ready => slot.room.ready(conn, now),
                    ClientMsg::Word { word } => slot.room.word(conn, &word, now),
                    ClientMsg::Done => slot.room.done(conn, now),
                    ClientMsg::Ping | ClientMsg::Hello { .. } => {}
                }
                dispatch(&mut slot);
            }
        }
    }
}

/// Checks a `hello` and seats the client: password, room name, room cap, then the room's own checks.
#[allow(clippy::too_many_arguments)]
fn hello(
    shared: &Shared,
    conn: ConnId,
    name: &str,
    room: &str,
    password: Option<String>,
    token: Option<String>,
    tx: &mpsc::Sender<String>,
    kill: &Arc<Notify>,
    now: Instant,
) -> Result<Arc<Mutex<Slot>>, (ErrorCode, String)> {
    if let Some(expected) = &shared.config.password {
        let given = password.unwrap_or_default();
        if !constant_time_eq(given.as_bytes(), expected.as_bytes()) {
            return Err((ErrorCode::Password, "wrong password".into()));
        }
    }
    if let Some(why) = check_room(room) {
        return Err((ErrorCode::BadRoom, why));
    }
    // The map stays locked through the join so a room cannot be forgotten
    // between being found and being joined.
    let mut rooms = lock(&shared.rooms);
    let slot = match rooms.get(room) {
        Some(slot) => Arc::clone(slot),
        None => {
            if rooms.len() >= shared.config.limits.max_rooms {
                return Err((
                    ErrorCode::TooManyRooms,
                    format!(
                        "the server has its maximum of {} rooms; join one of them",
                        shared.config.limits.max_rooms
                    ),
                ));
            }
            let rng = match shared.config.seed {
                Some(seed) => random::seeded(seed),
                None => random::from_entropy(),
            };
            let slot = Arc::new(Mutex::new(Slot {
                room: Room::new(room, Arc::clone(&shared.config.room), rng),
                clients: HashMap::new(),
            }));
            rooms.insert(room.to_string(), Arc::clone(&slot));
            slot
        }
    };
    let mut guard = lock(&slot);
    // Registered first so the welcome reaches it; taken out again on refusal.
    guard.clients.insert(
        conn,
        Client {
            tx: tx.clone(),
            kill: Arc::clone(kill),
        },
    );
    let joined = guard
        .room
        .join(conn, name, token.as_deref(), fresh_token(), now);
    if let Err(refusal) = joined {
        guard.clients.remove(&conn);
        let abandoned = guard.room.is_abandoned();
        drop(guard);
        if abandoned {
            rooms.remove(room);
        }
        return Err(refusal);
    }
    // A seat taken over with a token: the old connection is told to go.
    let stale: Vec<ConnId> = guard
        .clients
        .keys()
        .copied()
        .filter(|c| *c != conn && !guard.room.has_conn(*c))
        .collect();
    for old in stale {
        if let Some(client) = guard.clients.remove(&old) {
            client.kill.notify_one();
        }
    }
    dispatch(&mut guard);
    drop(guard);
    Ok(slot)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dictionary::Dictionary;
    use crate::game_board::GameBoard;
    use crate::net::protocol::Duplicates;
    use crate::rules::Rules;
    use crate::word_find::WordFind;

    fn room() -> Room {
        let find =
            WordFind::with_rules(Arc::new(Dictionary::from_words(["EAT"])), Rules::project4());
        let config = RoomConfig {
            word_find: Arc::new(find),
            board: Some(GameBoard::new("BENHLAUMITLZRGAN").expect("16 letters")),
            time: Duration::from_secs(60),
            rounds: None,
            min_players: 2,
            duplicates: Duplicates::Cancel,
            max_players: 4,
        };
        Room::new("main", Arc::new(config), random::seeded(1))
    }

    #[test]
    fn a_client_whose_queue_is_full_is_dropped_and_the_others_still_hear() {
        let (slow_tx, _slow_rx) = mpsc::channel(1);
        let (fast_tx, mut fast_rx) = mpsc::channel(64);
        let slow_kill = Arc::new(Notify::new());
        let mut slot = Slot {
            room: room(),
            clients: HashMap::new(),
        };
        slot.clients.insert(
            1,
            Client {
                tx: slow_tx,
                kill: Arc::clone(&slow_kill),
            },
        );
        slot.clients.insert(
            2,
            Client {
                tx: fast_tx,
                kill: Arc::new(Notify::new()),
            },
        );
        let now = Instant::now();
        slot.room
            .join(1, "slow", None, "t1".into(), now)
            .expect("joins");
        slot.room
            .join(2, "fast", None, "t2".into(), now)
            .expect("joins");
        // welcome + lobby for slow overflow its queue of one.
        dispatch(&mut slot);
        assert!(!slot.clients.contains_key(&1), "the slow client is dropped");
        assert!(slot.clients.contains_key(&2));
        slot.room.ready(2, now);
        dispatch(&mut slot);
        let mut heard = 0;
        while fast_rx.try_recv().is_ok() {
            heard += 1;
        }
        assert!(heard >= 3, "welcome, lobbies and the ready lobby: {heard}");
        // The slow client's connection task is woken to close it.
        let woken = slow_kill.notified();
        tokio::pin!(woken);
        assert!(woken.as_mut().enable(), "the kill was signalled");
    }

    #[test]
    fn the_rate_limit_allows_a_burst_then_the_average() {
        let t0 = Instant::now();
        let mut bucket = Bucket {
            tokens: 3.0,
            last: t0,
            rate: 2.0,
            burst: 3.0,
        };
        assert!((0..3).all(|_| bucket.take(t0)));
        assert!(!bucket.take(t0));
        assert!(bucket.take(t0 + Duration::from_millis(500)));
        assert!(!bucket.take(t0 + Duration::from_millis(500)));
        assert!(
            (0..3).all(|_| bucket.take(t0 + Duration::from_secs(60))),
            "refilled to the burst only"
        );
        assert!(!bucket.take(t0 + Duration::from_secs(60)));
    }
}
