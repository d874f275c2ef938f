//! The rooms as tasks: each room is one tokio task that owns its [`Room`]
//! and its clients' queues ([`Slot`]), with no lock around them. The task
//! reads the room's channel of [`Event`]s (a join and its answer, a ready,
//! a word, a done, a leave, the stop's wind-down, a board solved, the
//! store's word on a result) and otherwise sleeps until the room's next
//! deadline ([`Room::wake_at`]: the round's end, a lobby held back, a seat
//! given up). Nothing sweeps the rooms and nothing polls.
//!
//! How it works: the server files each room's channel under its name's
//! key in a map behind a short lock ([`Filed`]). A `hello` finds or opens
//! its room and sends its join under that lock; a room nobody is in
//! removes itself under the same lock, and only once its channel is empty,
//! so a join never goes to a room that is going. The room's boards are
//! solved on tokio's blocking threads ([`Room::solve_boards_outside`]) and
//! come back as an event. After each batch of events the task sends what
//! the room said (`dispatch`), hands the room's results to the store, and
//! keeps the server's counts (players, rounds under way: the stop waits on
//! the latter, a `watch`).
//!
//! Limits: a room's channel is unbounded: what flows in is held by each
//! client's rate and the connection caps, not by the channel. A round's end
//! (scoring, the results encoded) runs on the room's task, so a room of
//! thousands holds one worker thread for that long; the other rooms run on
//! the others.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use boggle_game::game::Game;
use boggle_game::word_find::WordFind;
use boggle_protocol::names::NameKey;
use boggle_protocol::{ErrorCode, ServerMsg, encode};
use tokio::sync::mpsc::{self, UnboundedReceiver, UnboundedSender, WeakUnboundedSender};
use tokio::sync::oneshot;

use super::client::Client;
use super::{Shared, lock};
use crate::limits::Share;
use crate::outbox::{Budget, Encoded, Kind};
use crate::room::{ConnId, DailyGame, Kept, Refusal, Room};
use crate::store::Store;

/// The way into a room's task: its channel.
pub(super) type RoomTx = UnboundedSender<Event>;

/// Events a room's task takes at once before it sends what the room said.
const BATCH: usize = 64;

/// What a room's task is told.
pub(super) enum Event {
    /// A client asks to sit (`hello`); the answer says whether it did.
    Join(Box<Join>),
    /// The client is ready for the next round.
    Ready(ConnId, Instant),
    /// The client plays a word.
    Word(ConnId, String, Instant),
    /// The client has finished the round.
    Done(ConnId, Instant),
    /// The client's connection is gone.
    Leave(ConnId, Instant),
    /// The server is stopping: rounds end by `by`. The room drops `ack`
    /// once it has wound down and counted its round, so the stop knows
    /// every room has.
    WindDown {
        by: Instant,
        now: Instant,
        ack: mpsc::Sender<()>,
    },
    /// The board the room wanted, solved (or why it could not be).
    Solved(Result<Box<Game>, String>),
    /// The store's word on the room's daily result.
    Kept(Kept),
}

/// A client asking to sit in a room.
pub(super) struct Join {
    pub(super) conn: ConnId,
    pub(super) name: String,
    pub(super) token: Option<String>,
    /// The token a new seat gets.
    pub(super) fresh: String,
    /// What the game is for the seat, in a new room of today's board.
    pub(super) daily: Option<DailyGame>,
    pub(super) client: Client,
    pub(super) at: Instant,
    pub(super) answer: oneshot::Sender<Result<(), Refusal>>,
}

/// Rooms filed under [`NameKey::as_str`] of their names. A room is found by
/// any name that passes for its own ([`NameKey::same_as`], the comparison
/// players' names get in a room), so look-alike names are one room.
pub(super) type Rooms = std::sync::Mutex<HashMap<String, Filed>>;

/// A room as filed: its name's whole key, and its channel.
pub(super) struct Filed {
    pub(super) key: NameKey,
    pub(super) tx: RoomTx,
}

/// The room whose name passes for `key`'s name: filed under the same key,
/// else any whose key passes for it. Where the key is the same, that room
/// is chosen first.
pub(super) fn find_room<'a>(
    rooms: &'a HashMap<String, Filed>,
    key: &NameKey,
) -> Option<(&'a String, &'a Filed)> {
    rooms
        .get_key_value(key.as_str())
        .or_else(|| rooms.iter().find(|(_, filed)| filed.key.same_as(key)))
}

/// A room and the queues of its connected clients, as its task holds them.
pub(super) struct Slot {
    pub(super) room: Room,
    pub(super) clients: HashMap<ConnId, Client>,
    pub(super) budget: Arc<Budget>,
    /// Rounds of the room counted in the `boggle_rounds_total` counter.
    pub(super) rounds_counted: u32,
    /// Where the room's scored daily results go (a room of today's board).
    pub(super) store: Option<Store>,
    /// The room's own channel, for answers that come later to find it.
    pub(super) me: WeakUnboundedSender<Event>,
    /// The share of the address that opened the room, given back with it.
    pub(super) _maker: Share,
}

/// Sends what the room said, each message encoded once however many it goes
/// to, and hands its scored daily results to the store (which only queues
/// them; its answer, once the row is committed or given up, comes back to
/// the room as [`Event::Kept`]). A client whose queue refuses a line is not
/// reading: it is told to go (its connection task closes it) and hears
/// nothing more.
pub(super) fn dispatch(slot: &mut Slot) {
    let round = slot.room.round();
    if round > slot.rounds_counted {
        metrics::counter!("boggle_rounds_total").increment(u64::from(round - slot.rounds_counted));
        slot.rounds_counted = round;
    }
    for result in slot.room.take_results() {
        if let Some(store) = &slot.store {
            let answer = store.finish(&result);
            // Every caller is on the server's runtime; without one, nobody could hear.
            if let Ok(runtime) = tokio::runtime::Handle::try_current() {
                runtime.spawn(tell_kept(slot.me.clone(), answer));
            }
        }
    }
    for envelope in slot.room.drain() {
        let kind = if matches!(envelope.msg, ServerMsg::Lobby { .. }) {
            Kind::Lobby
        } else {
            Kind::Other
        };
        let line = Encoded::new(encode(&envelope.msg), &slot.budget);
        for conn in envelope.to {
            let Some(client) = slot.clients.get(&conn) else {
                continue;
            };
            if !client.outbox.push(line.clone(), kind) {
                client.outbox.abandon();
                client.kill.notify_one();
                slot.clients.remove(&conn);
            }
        }
    }
}

/// Hands the store's answer on a room's daily result to the room, once it
/// comes: the room says it to its player (`daily` with `kept`).
async fn tell_kept(room: WeakUnboundedSender<Event>, answer: oneshot::Receiver<Kept>) {
    // A store that drops the question without an answer could not keep it.
    let kept = answer.await.unwrap_or_else(|_| {
        Kept::No("the server's results store stopped before saving this result".into())
    });
    if let Some(room) = room.upgrade() {
        let _ = room.send(Event::Kept(kept));
    }
}

/// Solves `board`'s game on a blocking thread and hands it to the room.
async fn solve(
    room: WeakUnboundedSender<Event>,
    board: boggle_game::game_board::GameBoard,
    word_find: Arc<WordFind>,
) {
    let solved = tokio::task::spawn_blocking(move || Game::from_board(board, &word_find)).await;
    if let Some(room) = room.upgrade() {
        let _ = room.send(Event::Solved(
            solved.map(Box::new).map_err(|e| e.to_string()),
        ));
    }
}

/// Opens a room named `name` on `config`, its task started, made by the
/// address whose share `maker` is: the channel to file under `key`.
pub(super) fn open(
    shared: &Arc<Shared>,
    key: String,
    mut room: Room,
    word_find: Arc<WordFind>,
    maker: Share,
) -> RoomTx {
    let (tx, rx) = mpsc::unbounded_channel();
    room.solve_boards_outside();
    let slot = Slot {
        room,
        clients: HashMap::new(),
        budget: Arc::clone(&shared.budget),
        rounds_counted: 0,
        store: shared.config.store.clone(),
        me: tx.downgrade(),
        _maker: maker,
    };
    let task = RoomTask {
        shared: Arc::clone(shared),
        key,
        slot,
        rx,
        word_find,
        filed: true,
        players: 0,
        playing: false,
    };
    tokio::spawn(task.run());
    tx
}

/// Tells every room the server is stopping: rounds end by `by`. The
/// receiver returned ends once every room has wound down.
pub(super) fn wind_down(shared: &Shared, by: Instant, now: Instant) -> mpsc::Receiver<()> {
    let (ack, acked) = mpsc::channel(1);
    let rooms: Vec<RoomTx> = lock(&shared.rooms)
        .values()
        .map(|filed| filed.tx.clone())
        .collect();
    for room in rooms {
        let ack = ack.clone();
        // A room gone meanwhile drops its event, and the ack with it.
        let _ = room.send(Event::WindDown { by, now, ack });
    }
    acked
}

/// One room's task: the room, its clients, its channel.
struct RoomTask {
    shared: Arc<Shared>,
    /// What the room is filed under.
    key: String,
    slot: Slot,
    rx: UnboundedReceiver<Event>,
    /// The rules and dictionary its boards are solved with.
    word_find: Arc<WordFind>,
    /// Still in the server's map (cleared once it took itself out).
    filed: bool,
    /// Players the room adds to the server's count now.
    players: usize,
    /// Whether the room counts a round under way now.
    playing: bool,
}

/// What a batch of events leaves to do once the room has spoken.
#[derive(Default)]
struct Batch {
    /// When each word judged was heard, for the verdict latency.
    words: Vec<Instant>,
    /// Someone sat or left: the players are counted again.
    seats_moved: bool,
    /// The stop's acks, dropped once the room's round is counted.
    acks: Vec<mpsc::Sender<()>>,
    /// The room cannot go on (its board could not be solved).
    broken: bool,
}

impl RoomTask {
    /// Runs the room until nobody is in it, or it breaks.
    async fn run(mut self) {
        let timer = tokio::time::sleep(std::time::Duration::ZERO);
        tokio::pin!(timer);
        let mut armed: Option<Instant> = None;
        loop {
            let wake = self.slot.room.wake_at();
            if wake != armed {
                if let Some(at) = wake {
                    timer.as_mut().reset(tokio::time::Instant::from_std(at));
                }
                armed = wake;
            }
            let mut batch = Batch::default();
            tokio::select! {
                event = self.rx.recv() => {
                    // Every sender is gone, the map's too: nobody can come.
                    let Some(event) = event else { return };
                    self.take(event, &mut batch);
                    // What else is waiting is taken too before the room
                    // speaks (no buffer: a room's task stays small).
                    for _ in 1..BATCH {
                        let Ok(event) = self.rx.try_recv() else { break };
                        self.take(event, &mut batch);
                    }
                }
                () = &mut timer, if armed.is_some() => {
                    // Never before the deadline, so the tick always clears it.
                    let now = armed.map_or_else(Instant::now, |at| Instant::now().max(at));
                    self.slot.room.tick(now);
                    armed = None;
                }
            }
            self.after(batch.words, batch.seats_moved);
            drop(batch.acks);
            if batch.broken || (self.slot.room.is_abandoned() && self.unfile()) {
                return;
            }
        }
    }

    /// Hands one event to the room.
    fn take(&mut self, event: Event, batch: &mut Batch) {
        let room = &mut self.slot.room;
        match event {
            Event::Join(join) => {
                batch.seats_moved = true;
                seat(&mut self.slot, *join);
            }
            Event::Ready(conn, at) => room.ready(conn, at),
            Event::Word(conn, word, at) => {
                room.word(conn, &word, at);
                batch.words.push(at);
            }
            Event::Done(conn, at) => room.done(conn, at),
            Event::Leave(conn, at) => {
                batch.seats_moved = true;
                self.slot.clients.remove(&conn);
                room.leave(conn, at);
            }
            Event::WindDown { by, now, ack } => {
                room.wind_down(by, now);
                batch.acks.push(ack);
            }
            Event::Solved(Ok(game)) => room.board_solved(*game, Instant::now()),
            Event::Solved(Err(why)) => {
                tracing::error!(
                    room = room.name(),
                    "the room's board could not be solved: {why}"
                );
                batch.broken = true;
            }
            Event::Kept(kept) => room.daily_kept(kept),
        }
    }

    /// Sends what the room said, asks for its next board to be solved, and
    /// keeps the server's counts and the verdicts' latency.
    fn after(&mut self, words: Vec<Instant>, seats_moved: bool) {
        dispatch(&mut self.slot);
        if let Some(board) = self.slot.room.board_wanted() {
            let (me, word_find) = (self.slot.me.clone(), Arc::clone(&self.word_find));
            tokio::spawn(solve(me, board, word_find));
        }
        let metrics = &self.shared.metrics;
        for at in words {
            metrics.verdicts.record(at.elapsed());
        }
        let players = if seats_moved {
            self.slot.room.connected()
        } else {
            self.players
        };
        self.count(players, self.slot.room.is_playing());
    }

    /// Moves the server's counts from what the room added to `players`
    /// and `playing`.
    fn count(&mut self, players: usize, playing: bool) {
        let shared = &self.shared;
        if players != self.players {
            let total = if players > self.players {
                let more = players - self.players;
                shared.players.fetch_add(more, Ordering::Relaxed) + more
            } else {
                let fewer = self.players - players;
                shared.players.fetch_sub(fewer, Ordering::Relaxed) - fewer
            };
            shared.metrics.players.set(total as f64);
            self.players = players;
        }
        if playing != self.playing {
            shared.playing.send_modify(|n| {
                *n = if playing { *n + 1 } else { n.saturating_sub(1) };
                shared.metrics.rounds_playing.set(*n as f64);
            });
            self.playing = playing;
        }
    }

    /// Takes the room out of the server's map if nothing is waiting in its
    /// channel (checked under the map's lock, which every join is sent
    /// under, so no one can be joining it meanwhile). Whether it did.
    fn unfile(&mut self) -> bool {
        let shared = Arc::clone(&self.shared);
        let mut rooms = lock(&shared.rooms);
        if !self.rx.is_empty() {
            return false;
        }
        self.unfile_locked(&mut rooms);
        drop(rooms);
        if self.shared.room_lines.may_log(Instant::now()) {
            tracing::info!(room = self.slot.room.name(), "room closed");
        }
        true
    }

    fn unfile_locked(&mut self, rooms: &mut HashMap<String, Filed>) {
        let me = self.slot.me.upgrade();
        let own = rooms
            .get(&self.key)
            .zip(me)
            .is_some_and(|(filed, me)| filed.tx.same_channel(&me));
        if own {
            rooms.remove(&self.key);
        }
        self.shared.metrics.rooms.set(rooms.len() as f64);
        self.filed = false;
    }
}

impl Drop for RoomTask {
    /// However the task ends (a panic too), the room leaves the map, its
    /// clients are closed and the server's counts forget it.
    fn drop(&mut self) {
        if self.filed {
            let shared = Arc::clone(&self.shared);
            self.unfile_locked(&mut lock(&shared.rooms));
        }
        for client in self.slot.clients.values() {
            client.outbox.abandon();
            client.kill.notify_one();
        }
        self.count(0, false);
    }
}

/// Seats the client in the room, and answers whether it did: registered
/// first so the welcome reaches it, taken out again on refusal. A seat
/// taken over with a token: the old connection is told why (`replaced`)
/// and closed, so its client does not take the seat back in turn.
fn seat(slot: &mut Slot, join: Join) {
    let Join {
        conn,
        name,
        token,
        fresh,
        daily,
        client,
        at,
        answer,
    } = join;
    if let Some(game) = daily {
        slot.room.set_daily(game);
    }
    slot.clients.insert(conn, client);
    if let Err(refusal) = slot.room.join(conn, &name, token.as_deref(), fresh, at) {
        slot.clients.remove(&conn);
        let _ = answer.send(Err(refusal));
        return;
    }
    let stale: Vec<ConnId> = slot
        .clients
        .keys()
        .copied()
        .filter(|c| *c != conn && !slot.room.has_conn(*c))
        .collect();
    for old in stale {
        if let Some(client) = slot.clients.remove(&old) {
            client.replace();
        }
    }
    let _ = answer.send(Ok(()));
}

/// The answer a `hello` gets when its room's task is gone before it
/// answered (the room broke).
pub(super) fn room_gone() -> Refusal {
    Refusal::new(
        ErrorCode::ServerFull,
        "the room closed as you joined: try again",
    )
}
