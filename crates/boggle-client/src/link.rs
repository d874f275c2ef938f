//! A client's connection to the server, kept through drops: both `boggle
//! join` clients talk to the server only through a [`Link`]. It runs as a
//! task of its own, so a slow attempt to reconnect never holds up the screen
//! or the reading of words, and the clients wait on channels, which are
//! cancel-safe in a `select!`.
//!
//! When the connection drops without the server saying goodbye (end of
//! stream or a network error; never after an `error` or a `bye`, and never
//! before the first `welcome`), the link connects again with the seat's
//! token, with a short backoff, for [`JoinOptions::rejoin_for`]. The server
//! kept the seat and its words; the words sent but not answered before the
//! drop are sent again, and what the player sends meanwhile is held and sent
//! after the new `welcome`. If the server gave the seat up (a drop in the
//! lobby before the first round, or while the next round started), the link
//! joins afresh under the same name.
//!
//! The link is over, with a [`LinkError`], when it cannot connect, when the
//! server sends something that is not a message, or when rejoining fails; a
//! goodbye or a refusal reaches the client as the server's message.

#![expect(
    clippy::disallowed_methods,
    reason = "the client's pacing, pings and rejoin window run on the real clock"
)]

use std::collections::VecDeque;
use std::io;
use std::time::{Duration, Instant};

use tokio::io::AsyncBufRead;
use tokio::sync::mpsc;

use boggle_protocol::connection::{Connection, Line, LineReader};
use boggle_protocol::{
    Bucket, ClientMsg, ErrorCode, ProtocolError, ServerMsg, VERSION, decode_server,
};

/// Who joins where.
#[derive(Clone, Debug)]
pub struct JoinOptions {
    /// The server, `HOST:PORT`.
    pub addr: String,
    /// The player's name.
    pub name: String,
    /// The room (default `main`).
    pub room: Option<String>,
    /// The server's password.
    pub password: Option<String>,
    /// A token from an earlier join, to take that seat back.
    pub token: Option<String>,
    /// How long to keep trying to rejoin after the connection drops (zero:
    /// never). Drops that come soon after rejoining, before the connection has
    /// held this long, count against the same time.
    pub rejoin_for: Duration,
    /// How long to wait for the server's `welcome` (or refusal) after connecting.
    pub welcome_within: Duration,
    /// Where the clients keep the seat's token for the next run (`None`: nowhere).
    pub seat: Option<crate::seat::SeatFile>,
}

/// How long a client tries to rejoin after a drop unless told otherwise:
/// long enough for a network blip or a restarted router, short enough that
/// a server that is gone ends the client within a round.
pub const REJOIN_FOR: Duration = Duration::from_secs(20);

/// How long a client waits for the server to answer its `hello` unless told
/// otherwise (the server's own limit for the `hello` is as long).
pub const WELCOME_WITHIN: Duration = Duration::from_secs(10);

/// The messages a second a client sends at most, on average, and in a burst:
/// under the server's limit (20 a second, bursts of 40), pings included, so
/// the official client is never refused for its rate, even with a file of
/// words on its standard input.
pub(crate) const PACE_PER_SEC: f64 = 16.0;
/// See [`PACE_PER_SEC`].
pub(crate) const PACE_BURST: f64 = 30.0;

impl Default for JoinOptions {
    fn default() -> JoinOptions {
        JoinOptions {
            addr: String::new(),
            name: String::new(),
            room: None,
            password: None,
            token: None,
            rejoin_for: REJOIN_FOR,
            welcome_within: WELCOME_WITHIN,
            seat: None,
        }
    }
}

/// Why a connection to the server ended, or the attempt to make one failed.
#[derive(Debug, thiserror::Error)]
pub enum Dropped {
    /// Connecting (or saying `hello`) failed.
    #[error("cannot connect to the server")]
    Connect(#[source] io::Error),
    /// An attempt to rejoin was still connecting when the time to rejoin ran out.
    #[error("connecting took too long")]
    ConnectTimedOut,
    /// The server closed the connection without a goodbye.
    #[error("the server closed the connection")]
    Closed,
    /// The server did not answer a rejoin's `hello` within the time allowed.
    #[error("the server did not answer within {} s", .0.as_secs_f64().ceil())]
    Silent(Duration),
    /// Reading or writing the connection failed.
    #[error(transparent)]
    Io(io::Error),
}

/// Why a link is over (the server's goodbye and refusals are messages, not these).
#[derive(Debug, thiserror::Error)]
pub enum LinkError {
    /// Connecting failed, or the connection did before the server welcomed
    /// the client (or with rejoining turned off).
    #[error(transparent)]
    Dropped(Dropped),
    /// The server sent a line longer than a client takes.
    #[error("a message from the server is too long")]
    TooLong,
    /// The server sent a line that is not a message.
    #[error("bad message from the server")]
    BadMessage(#[source] ProtocolError),
    /// The server did not answer the `hello` within the time allowed.
    #[error("the server did not answer within {} s", .0.as_secs_f64().ceil())]
    NoWelcome(Duration),
    /// The connection dropped (`why`) and could not be got back `within` the
    /// time allowed; `last` is why the last attempt failed.
    #[error(
        "lost the connection to the server ({why}) and could not rejoin within {} s",
        within.as_secs_f64().ceil()
    )]
    NotRejoined {
        /// What ended the connection.
        why: Dropped,
        /// How long the link tried.
        within: Duration,
        /// Why the last attempt failed (`None` when the time ran out before any did).
        #[source]
        last: Option<Dropped>,
    },
    /// The link's task is gone.
    #[error("the connection to the server is closed")]
    Closed,
}

/// The first wait before connecting again; it doubles up to [`MAX_BACKOFF`].
const FIRST_BACKOFF: Duration = Duration::from_millis(250);
/// The longest wait between two attempts.
const MAX_BACKOFF: Duration = Duration::from_secs(2);
/// How often the link pings, so the server's idle timeout never ends a
/// quiet player (`boggle serve --idle` is at least three times this).
pub const PING_EVERY: Duration = Duration::from_secs(30);
/// The most words remembered as unanswered, and the most messages held while
/// rejoining (a script piping a huge file into a dead connection waits).
const MAX_HELD: usize = 1000;
/// Messages waiting for the link to send them.
const TO_SERVER: usize = 256;
/// Events waiting for the client to take them: the link stops reading the
/// server when the client falls behind.
const TO_CLIENT: usize = 64;

/// What the link tells its client.
#[derive(Debug)]
pub enum LinkEvent {
    /// A message from the server. After a fatal `error` or a `bye` the link
    /// is over (the client ends with them).
    Msg(ServerMsg),
    /// The connection dropped (`why`); the link tries to rejoin for `within`.
    Lost {
        /// What happened, for the player.
        why: String,
        /// How long it keeps trying.
        within: Duration,
    },
    /// Joined again after a drop (its `welcome` comes next); `fresh` when the
    /// server had given the seat up and the link took a new one.
    Back {
        /// Whether the seat is a new one.
        fresh: bool,
    },
    /// The link is over: the first connection failed before its `welcome`, the
    /// server sent something that is not a message, or rejoining failed.
    Failed(LinkError),
}

/// The client's end of the link: messages in, [`LinkEvent`]s out. Dropping
/// it closes the connection.
pub struct Link {
    to_server: mpsc::Sender<ClientMsg>,
    events: mpsc::Receiver<LinkEvent>,
    task: tokio::task::JoinHandle<()>,
}

impl Link {
    /// Connects and says `hello`; a failure to connect is returned at once.
    pub async fn connect(opts: &JoinOptions) -> Result<Link, LinkError> {
        let conn =
            match tokio::time::timeout(opts.welcome_within, open(opts, opts.token.clone())).await {
                Ok(conn) => conn.map_err(|e| LinkError::Dropped(Dropped::Connect(e)))?,
                Err(_) => return Err(LinkError::NoWelcome(opts.welcome_within)),
            };
        let (to_server, outgoing) = mpsc::channel(TO_SERVER);
        let (events_tx, events) = mpsc::channel(TO_CLIENT);
        let task = Task {
            opts: opts.clone(),
            token: opts.token.clone(),
            outgoing,
            events: events_tx,
            unanswered: VecDeque::new(),
            held: VecDeque::new(),
            welcomed: false,
            welcomed_at: None,
            streak: None,
            pace: Bucket::new(PACE_PER_SEC, PACE_BURST, Instant::now()),
        };
        Ok(Link {
            to_server,
            events,
            task: tokio::spawn(task.run(conn)),
        })
    }

    /// Queues `msg` for the server; `false` when the queue is full.
    pub fn send(&self, msg: ClientMsg) -> bool {
        self.to_server.try_send(msg).is_ok()
    }

    /// The queue to the server, for a client that waits for room in it
    /// (`Sender::reserve`) while it also waits on [`Link::next`].
    pub(crate) fn sender(&self) -> mpsc::Sender<ClientMsg> {
        self.to_server.clone()
    }

    /// The next event (cancel-safe).
    pub async fn next(&mut self) -> LinkEvent {
        self.events
            .recv()
            .await
            .unwrap_or(LinkEvent::Failed(LinkError::Closed))
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The next message from the server (cancel-safe: a partly read line stays
/// in the reader until the next call). The end of the stream is
/// [`Dropped::Closed`], a drop like any other; a line that is too long
/// or not a message is not, and the link never takes it for a drop.
pub(crate) async fn next_server_msg<R: AsyncBufRead + Unpin>(
    server: &mut LineReader<R>,
) -> Result<ServerMsg, LinkError> {
    let line = server
        .next_line()
        .await
        .map_err(|e| LinkError::Dropped(Dropped::Io(e)))?;
    match line {
        Line::Read(line) => decode_server(line).map_err(LinkError::BadMessage),
        Line::Eof => Err(LinkError::Dropped(Dropped::Closed)),
        Line::TooLong => Err(LinkError::TooLong),
    }
}

/// Sleeps until `at`, or for ever without one.
async fn sleep_until_some(at: Option<tokio::time::Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// Time to write one message: a server that stops reading counts as a drop.
const WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// Connects to `opts.addr` and says `hello`, with `token` if given.
async fn open(opts: &JoinOptions, token: Option<String>) -> io::Result<Connection> {
    let mut conn = Connection::connect(&opts.addr, WRITE_TIMEOUT).await?;
    conn.writer
        .send(&ClientMsg::Hello {
            version: VERSION,
            name: opts.name.clone(),
            room: opts.room.clone(),
            password: opts.password.clone(),
            token,
            solo: None,
        })
        .await?;
    Ok(conn)
}

/// How serving one connection ended.
enum Served {
    /// For good: a fatal `error` or a `bye` was passed on, the client is gone,
    /// or a failure was reported.
    Over,
    /// The connection dropped.
    Dropped(Dropped),
    /// Rejoining with the token was refused: the server gave the seat up.
    SeatGone,
}

/// An attempt to rejoin under way.
struct Rejoin {
    /// When to stop trying.
    give_up: Instant,
    /// The next wait before connecting.
    delay: Duration,
    /// Join without the token: the seat is gone.
    fresh: bool,
    /// Why the connection dropped.
    why: Dropped,
    /// Why the last attempt failed; `None` until one has.
    last: Option<Dropped>,
}

/// The link's task: one connection at a time, and what it remembers across them.
struct Task {
    opts: JoinOptions,
    /// The seat's token, from the last `welcome`.
    token: Option<String>,
    outgoing: mpsc::Receiver<ClientMsg>,
    events: mpsc::Sender<LinkEvent>,
    /// Words sent and not yet answered: sent again after a rejoin, since the
    /// server may never have had them.
    unanswered: VecDeque<String>,
    /// What the client sent while there was no connection.
    held: VecDeque<ClientMsg>,
    /// Whether a `welcome` ever came: only a joined client rejoins.
    welcomed: bool,
    /// When the last `welcome` came.
    welcomed_at: Option<Instant>,
    /// When the rejoining that began with the last drop gives up: a drop
    /// soon after a rejoin goes on with it, so a server that welcomes and
    /// drops cannot keep the client rejoining for ever.
    streak: Option<Instant>,
    /// What is sent is paced under the server's rate limit.
    pace: Bucket,
}

impl Task {
    async fn run(mut self, first: Connection) {
        let mut conn = first;
        let mut rejoin: Option<Rejoin> = None;
        loop {
            match self.serve(&mut conn, &mut rejoin).await {
                Served::Over => return,
                Served::SeatGone => {
                    if let Some(rejoin) = rejoin.as_mut() {
                        rejoin.fresh = true;
                        rejoin.delay = Duration::ZERO;
                    }
                    // Words of the old seat's round mean nothing to the new seat.
                    self.unanswered.clear();
                    self.held.clear();
                }
                Served::Dropped(e) => {
                    if !self.welcomed || self.opts.rejoin_for.is_zero() {
                        return self.fail(LinkError::Dropped(e)).await;
                    }
                    match rejoin.as_mut() {
                        // An attempt that connected but dropped before its welcome.
                        Some(rejoin) => rejoin.last = Some(e),
                        None => {
                            let now = Instant::now();
                            // Back only a moment ago: the same attempt to rejoin goes on.
                            let held = self
                                .welcomed_at
                                .is_none_or(|at| now >= at + self.opts.rejoin_for);
                            let give_up = match self.streak {
                                Some(give_up) if !held => give_up,
                                _ => now + self.opts.rejoin_for,
                            };
                            self.streak = Some(give_up);
                            let within = give_up.saturating_duration_since(now);
                            if !self
                                .emit(LinkEvent::Lost {
                                    why: e.to_string(),
                                    within,
                                })
                                .await
                            {
                                return;
                            }
                            rejoin = Some(Rejoin {
                                give_up,
                                delay: FIRST_BACKOFF,
                                fresh: false,
                                why: e,
                                last: None,
                            });
                        }
                    }
                }
            }
            let Some(attempt) = rejoin.as_mut() else {
                return;
            };
            match self.reconnect(attempt).await {
                Some(next) => conn = next,
                None => return,
            }
        }
    }

    /// Connects again, waiting between attempts, until `rejoin.give_up`;
    /// `None` when it gave up (and said so) or the client is gone.
    async fn reconnect(&mut self, rejoin: &mut Rejoin) -> Option<Connection> {
        loop {
            let now = Instant::now();
            if now >= rejoin.give_up {
                // The rejoin is over: its reasons move into the error (a
                // placeholder is left behind for the moment it still lives).
                self.fail(LinkError::NotRejoined {
                    why: std::mem::replace(&mut rejoin.why, Dropped::Closed),
                    within: self.opts.rejoin_for,
                    last: rejoin.last.take(),
                })
                .await;
                return None;
            }
            let wake = (now + rejoin.delay).min(rejoin.give_up);
            rejoin.delay = (rejoin.delay * 2).clamp(FIRST_BACKOFF, MAX_BACKOFF);
            // The player may go on typing meanwhile: held, sent after the welcome.
            loop {
                tokio::select! {
                    () = tokio::time::sleep_until(wake.into()) => break,
                    msg = self.outgoing.recv() => match msg {
                        Some(msg) => self.hold(msg),
                        None => return None,
                    },
                }
            }
            let token = if rejoin.fresh {
                None
            } else {
                self.token.clone()
            };
            let left = rejoin.give_up.saturating_duration_since(Instant::now());
            match tokio::time::timeout(left, open(&self.opts, token)).await {
                Ok(Ok(conn)) => return Some(conn),
                Ok(Err(e)) => rejoin.last = Some(Dropped::Connect(e)),
                Err(_) => rejoin.last = Some(Dropped::ConnectTimedOut),
            }
        }
    }

    /// Carries messages both ways on `conn` until it ends. While `rejoin` is
    /// set, this connection is a rejoin waiting for its `welcome`.
    async fn serve(&mut self, conn: &mut Connection, rejoin: &mut Option<Rejoin>) -> Served {
        let mut ping =
            tokio::time::interval_at(tokio::time::Instant::now() + PING_EVERY, PING_EVERY);
        // A server that takes the connection and never answers is no server.
        let mut answer_by = Some(tokio::time::Instant::now() + self.opts.welcome_within);
        loop {
            let now = Instant::now();
            let may_send = self.pace.has(now);
            let next_send = tokio::time::Instant::now() + self.pace.wait(now);
            tokio::select! {
                () = sleep_until_some(answer_by) => {
                    if !self.welcomed {
                        self.fail(LinkError::NoWelcome(self.opts.welcome_within)).await;
                        return Served::Over;
                    }
                    return Served::Dropped(Dropped::Silent(self.opts.welcome_within));
                }
                // Paced: at most PACE_PER_SEC messages a second leave.
                () = tokio::time::sleep_until(next_send), if !may_send => {}
                // Cancel-safe: a partly read line stays in the connection's buffer.
                msg = next_server_msg(&mut conn.reader) => {
                    let msg = match msg {
                        Ok(msg) => msg,
                        Err(LinkError::Dropped(e)) => return Served::Dropped(e),
                        Err(garbage) => {
                            self.fail(garbage).await;
                            return Served::Over;
                        }
                    };
                    answer_by = None;
                    if let Some(attempt) = rejoin.as_ref() {
                        match &msg {
                            ServerMsg::Error { code: ErrorCode::BadToken, .. } if !attempt.fresh => {
                                return Served::SeatGone;
                            }
                            ServerMsg::Welcome { .. } => {
                                let fresh = attempt.fresh;
                                *rejoin = None;
                                if !self.emit(LinkEvent::Back { fresh }).await {
                                    return Served::Over;
                                }
                                if let Err(e) = self.send_again(conn).await {
                                    // The welcome is not passed on: the next one will be.
                                    return Served::Dropped(Dropped::Io(e));
                                }
                            }
                            _ => {}
                        }
                    }
                    self.track(&msg);
                    let last = match &msg {
                        ServerMsg::Bye { .. } => true,
                        ServerMsg::Error { code, .. } => code.is_fatal(),
                        _ => false,
                    };
                    if !self.emit(LinkEvent::Msg(msg)).await || last {
                        return Served::Over;
                    }
                }
                msg = self.outgoing.recv(), if may_send || rejoin.is_some() => {
                    let Some(msg) = msg else { return Served::Over };
                    if rejoin.is_some() {
                        self.hold(msg);
                    } else if let Err(e) = self.write(conn, msg).await {
                        return Served::Dropped(Dropped::Io(e));
                    }
                }
                _ = ping.tick(), if rejoin.is_none() => {
                    self.pace.take(Instant::now());
                    if let Err(e) = conn.writer.send(&ClientMsg::Ping).await {
                        return Served::Dropped(Dropped::Io(e));
                    }
                }
            }
        }
    }

    /// After a rejoin's welcome: the unanswered words, then what was held,
    /// paced as everything else.
    async fn send_again(&mut self, conn: &mut Connection) -> io::Result<()> {
        let words = self
            .unanswered
            .drain(..)
            .map(|word| ClientMsg::Word { word });
        let again: Vec<ClientMsg> = words.chain(self.held.drain(..)).collect();
        for msg in again {
            let wait = self.pace.wait(Instant::now());
            tokio::time::sleep(wait).await;
            self.write(conn, msg).await?;
        }
        Ok(())
    }

    /// Sends `msg` (taking its place in the pace), remembering a word until it is answered.
    async fn write(&mut self, conn: &mut Connection, msg: ClientMsg) -> io::Result<()> {
        self.pace.take(Instant::now());
        if let ClientMsg::Word { word } = &msg {
            if self.unanswered.len() >= MAX_HELD {
                self.unanswered.pop_front();
            }
            self.unanswered.push_back(word.clone());
        }
        conn.writer.send(&msg).await
    }

    /// Keeps `msg` for after the rejoin (pings are the link's own business).
    fn hold(&mut self, msg: ClientMsg) {
        if !matches!(msg, ClientMsg::Ping) && self.held.len() < MAX_HELD {
            self.held.push_back(msg);
        }
    }

    /// Notes what the server's message says about the seat and the words in flight.
    fn track(&mut self, msg: &ServerMsg) {
        match msg {
            ServerMsg::Welcome { token, .. } => {
                self.welcomed = true;
                self.welcomed_at = Some(Instant::now());
                self.token = Some(token.clone());
            }
            // A word refused for the rate was not played: it is not sent again.
            ServerMsg::Error {
                code: ErrorCode::RateLimited,
                word: Some(word),
                ..
            } => {
                if let Some(at) = self.unanswered.iter().position(|w| w == word) {
                    self.unanswered.remove(at);
                }
            }
            // Each word is answered once, in order: a verdict, or one of these refusals.
            ServerMsg::Verdict { .. }
            | ServerMsg::Error {
                code: ErrorCode::BadWord | ErrorCode::NotInRound,
                ..
            } => {
                self.unanswered.pop_front();
            }
            ServerMsg::Results { .. } => self.unanswered.clear(),
            _ => {}
        }
    }

    /// Passes `event` on; `false` when the client is gone.
    async fn emit(&self, event: LinkEvent) -> bool {
        self.events.send(event).await.is_ok()
    }

    /// Reports the link's end.
    async fn fail(&self, e: LinkError) {
        let _ = self.emit(LinkEvent::Failed(e)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use boggle_protocol::connection::Peer;

    #[tokio::test]
    async fn the_end_of_the_stream_is_a_drop_and_garbage_is_not() {
        let reader = |bytes: &'static [u8]| LineReader::new(bytes, Peer::Server.max_line());
        let e = next_server_msg(&mut reader(b""))
            .await
            .expect_err("end of stream");
        assert!(matches!(&e, LinkError::Dropped(Dropped::Closed)), "{e:?}");
        let e = next_server_msg(&mut reader(b"{\"type\":\"nonsense\"}\n"))
            .await
            .expect_err("not a message");
        assert!(matches!(e, LinkError::BadMessage(_)), "{e:?}");
        assert_eq!(
            next_server_msg(&mut reader(b"{\"type\":\"pong\"}\n"))
                .await
                .ok(),
            Some(ServerMsg::Pong)
        );
    }

    #[test]
    fn words_are_forgotten_once_answered_and_at_the_end_of_a_round() {
        let (_tx, outgoing) = mpsc::channel(1);
        let (events, _rx) = mpsc::channel(1);
        let mut task = Task {
            opts: JoinOptions::default(),
            token: None,
            outgoing,
            events,
            unanswered: ["EAT", "TEA", "XYZ", "ZOO"].map(String::from).into(),
            held: VecDeque::new(),
            welcomed: false,
            welcomed_at: None,
            streak: None,
            pace: Bucket::new(PACE_PER_SEC, PACE_BURST, Instant::now()),
        };
        task.track(&ServerMsg::Verdict {
            word: "EAT".into(),
            accepted: true,
            points: 1,
            reason: "1 point".into(),
            score: 1,
        });
        task.track(&ServerMsg::Error {
            code: ErrorCode::RateLimited,
            message: String::new(),
            word: None,
            remaining_ms: None,
        });
        assert_eq!(
            task.unanswered,
            ["TEA", "XYZ", "ZOO"],
            "a rate limit that names no word answers none"
        );
        task.track(&ServerMsg::Error {
            code: ErrorCode::RateLimited,
            message: String::new(),
            word: Some("XYZ".into()),
            remaining_ms: None,
        });
        assert_eq!(
            task.unanswered,
            ["TEA", "ZOO"],
            "a word refused for the rate is not sent again"
        );
        task.track(&ServerMsg::Error {
            code: ErrorCode::BadWord,
            message: String::new(),
            word: None,
            remaining_ms: None,
        });
        assert_eq!(task.unanswered, ["ZOO"]);
        task.hold(ClientMsg::Ping);
        task.hold(ClientMsg::Done);
        assert_eq!(task.held, [ClientMsg::Done], "pings are not held");
        task.track(&ServerMsg::round_one_results(
            false,
            boggle_protocol::Duplicates::Cancel,
            Vec::new(),
            0,
        ));
        assert!(task.unanswered.is_empty());
    }
}
