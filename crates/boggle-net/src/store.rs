//! The store: the day's attempts and results between the rooms and the
//! results file, so that no room or connection ever waits on SQLite.
//!
//! How: the recent days' attempts are held in memory ([`Store::begin`]
//! decides a daily game at once: the seat's scored attempt, practice after
//! it, or over a cap), and every change goes as a row to one worker thread
//! through a bounded queue. The worker alone opens the file
//! ([`ResultsFile`]); it writes by group commit: whatever has arrived (up
//! to a batch) goes in one transaction, and only once that is committed is
//! each result's room told [`Kept::Yes`] ([`Store::finish`] answers on a
//! channel), so a player is never told a result is kept before it is in the
//! file (`synchronous = FULL`: it survives a kill and a power cut). The
//! leaderboard is served from a copy of each day's top ten ([`Store::top`]):
//! read from the file's index when the store opens, and refreshed with each
//! result once it is committed. A day not held in memory is read by the
//! worker on request, behind its own small queue, and its copy kept. The
//! copies hold what this server wrote: a second server writing the same
//! file is seen after a restart. A write that fails (another program holds
//! the file locked, a full disk) is tried again, waiting longer each time
//! up to [`RETRY_MAX_WAIT`], for [`RETRY_FOR`] (ten minutes); a row that
//! still cannot be written, that finds the queue full, or that is still
//! waiting when the server stops, is logged once with its content at
//! `error`, counted, and its player told [`Kept::No`] in plain words. A
//! worker that panics gives up (logs, and answers) the batch it held and is
//! started again on the same file, so one bad batch never ends the store
//! for the day while the rest of the server plays on. The rows and the
//! leaderboard reads go to the worker on bounded crossbeam channels (the
//! worker waits on both and on a stop at once); nothing is held locked
//! across I/O: the in-memory days have a mutex held for a few map
//! operations.
//!
//! Health ([`Store::health`]): whether the worker is running, and how long
//! the oldest row has waited for the file; past [`STALE`], the store cannot
//! write.
//!
//! Names: the day's leaderboard lists each seat under its own name, and
//! names are compared by their look-alike key ([`NameKey`]): a seat whose
//! name looks like one another seat is listed under that day is listed as
//! `NAME (2)`, `NAME (3)`, ..., and told so.
//!
//! Caps ([`StoreLimits`]): the attempts one address (an IPv6 address by its
//! /64) may have kept a day, and those of its network (`prefix_key`: a /24
//! of IPv4, a /48 of IPv6, the networks the server's shares count); past
//! either, a daily game from there is practice. No count closes the day for
//! everyone: a few hundred addresses in one network use up that network's
//! attempts and no one else's, so a newcomer from another network still
//! plays a scored game. A network past its cap gets practice rather than
//! having its lowest rows evicted: a result its player was told is kept
//! stays kept, an attempt begun has no score yet to rank it by, and the
//! network's best results, kept first, are already in. Limits: what is
//! stored grows with the networks that play (at most [`StoreLimits::per_prefix`]
//! rows each, about 200 bytes in memory a row, for today and yesterday), so
//! a flood of a day's rows needs thousands of networks, not addresses; and
//! a newcomer inside a network that used its attempts up plays practice.
//!
//! Metrics (the `metrics` facade; the server installs the exporter):
//! `boggle_store_queue` (rows and reads waiting), `boggle_store_writes_total`
//! (rows written), `boggle_store_failures_total` (rows given up, by
//! `reason`: `queue_full`, `retries`, `stopped`, `worker_failed` or
//! `no_attempt`), `boggle_store_up` and `boggle_store_oldest_wait_seconds`
//! (set by [`Store::health`]), `boggle_store_restarts_total` (the worker
//! started again after a panic), `boggle_store_retries_total`
//! (writes tried again), `boggle_store_write_seconds` (a batch's write,
//! waits included), `boggle_store_malformed_rows_total` (rows of the file
//! skipped as malformed), `boggle_daily_attempts_total` (daily games begun,
//! by `status`).
//!
//! [`NameKey`]: boggle_protocol::names::NameKey

#![expect(
    clippy::disallowed_methods,
    reason = "the store retries a locked file against the clock and reports how long rows have waited"
)]

use std::collections::{BTreeMap, HashMap};
use std::net::IpAddr;
use std::panic::AssertUnwindSafe;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, RwLock};
use std::time::{Duration, Instant};

use boggle_protocol::names::name_key;
use boggle_protocol::{DailyStatus, DayScore, is_player_token};
use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, TryRecvError, TrySendError};
use tokio::sync::oneshot;

use super::leaderboard::{Attempt, FolderLock, Listed, ResultsFile, StoreError, TOP, Top};
use super::limits::{address_key, prefix_key};
use super::room::{DailyGame, DailyResult, Kept};

/// How long a row that cannot be written is tried again before it is given
/// up (logged), by default: a backup or a long transaction elsewhere is over
/// well within it.
pub(crate) const RETRY_FOR: Duration = Duration::from_secs(600);

/// The longest wait between two tries of a write.
pub(crate) const RETRY_MAX_WAIT: Duration = Duration::from_secs(2);

/// The most rows waiting to be written; past it a row is given up (logged).
pub(crate) const WRITES_QUEUED: usize = 10_000;

/// How long the oldest row may wait for the file before the store counts
/// as unable to write ([`Health::trouble`]): a write that waits on another
/// program's lock is tried for [`BUSY`](super::leaderboard::BUSY) at a time and
/// again within [`RETRY_MAX_WAIT`], so a healthy store never comes near it.
pub(crate) const STALE: Duration = Duration::from_secs(30);

/// How long [`Store::close`] waits past its deadline for the worker to log
/// what it gives up.
const CLOSE_MARGIN: Duration = Duration::from_secs(2);

/// How long the worker waits before it starts again after a panic.
const RESTART_WAIT: Duration = Duration::from_secs(1);

/// The most leaderboard reads waiting for the worker; past it a read is refused.
pub(crate) const READS_QUEUED: usize = 64;

/// The most rows written in one transaction.
const BATCH: usize = 256;

/// The most days whose top the store keeps a copy of.
const TOPS_KEPT: usize = 16;

/// How long a leaderboard read waits for the worker.
const READ_WAIT: Duration = Duration::from_secs(5);

/// Attempts a network keeps a day by default: ten addresses' caps, a
/// school's or a campus's few NAT addresses, while 340 addresses in one
/// network (a home's /56 holds 256 /64s) keep no more than this.
pub(crate) const PER_PREFIX: u32 = 300;

/// What the store keeps, per address and per network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoreLimits {
    /// Attempts kept per address (an IPv6 address by its /64) per day: a
    /// class behind one school's address still plays.
    pub(crate) per_address: u32,
    /// Attempts kept per network (a /24 of IPv4, a /48 of IPv6) per day:
    /// [`PER_PREFIX`] by default.
    pub(crate) per_prefix: u32,
    /// How long a row that cannot be written is tried again before it is
    /// given up (logged with its content).
    pub(crate) retry_for: Duration,
    /// The most rows waiting to be written ([`WRITES_QUEUED`]).
    pub(crate) queued: usize,
    /// How long the oldest row may wait before the store counts as unable
    /// to write ([`STALE`]).
    pub(crate) stale: Duration,
}

impl Default for StoreLimits {
    fn default() -> StoreLimits {
        StoreLimits {
            per_address: 30,
            per_prefix: PER_PREFIX,
            retry_for: RETRY_FOR,
            queued: WRITES_QUEUED,
            stale: STALE,
        }
    }
}

/// A seat's attempt of a day, in memory.
#[derive(Debug)]
struct Seat {
    listed: String,
    address: String,
    result: Option<DayScore>,
    /// Whether the result is in the file: `None` while it is being written.
    kept: Option<Kept>,
}

/// One day's attempts in memory: by seat, the listed names' look-alike
/// forms, and the counts per address and per network.
#[derive(Debug, Default)]
struct Day {
    seats: HashMap<String, Seat>,
    names: HashMap<String, String>,
    per_address: HashMap<String, u32>,
    per_prefix: HashMap<String, u32>,
}

/// The network an address key (as stored) is counted in: its prefix, or
/// the text itself for a row whose address is not one.
fn prefix_of(address: &str) -> String {
    address
        .parse::<IpAddr>()
        .map_or_else(|_| address.to_string(), |ip| prefix_key(ip).to_string())
}

impl Day {
    /// Whether a name that looks like `name` is listed for another seat than `seat`.
    fn taken(&self, name: &str, seat: &str) -> bool {
        let key = name_key(name);
        key.forms()
            .iter()
            .any(|form| self.names.get(*form).is_some_and(|s| s != seat))
    }

    /// `name`, or the first of `name (2)`, `name (3)`, ... that no other seat's name looks like.
    fn listed_name(&self, name: &str, seat: &str) -> String {
        if !self.taken(name, seat) {
            return name.to_string();
        }
        (2..)
            .map(|n| format!("{name} ({n})"))
            .find(|listed| !self.taken(listed, seat))
            .unwrap_or_else(|| name.to_string())
    }

    fn add(&mut self, seat: String, entry: Seat) {
        let key = name_key(&entry.listed);
        for form in key.forms() {
            self.names
                .entry(form.to_string())
                .or_insert_with(|| seat.clone());
        }
        *self.per_address.entry(entry.address.clone()).or_default() += 1;
        *self
            .per_prefix
            .entry(prefix_of(&entry.address))
            .or_default() += 1;
        self.seats.insert(seat, entry);
    }
}

/// A row waiting for the worker: since when, and who waits for its answer.
struct Pending {
    row: Attempt,
    since: Instant,
    reply: Option<oneshot::Sender<Kept>>,
}

/// A leaderboard read waiting for the worker: the day, and where its answer goes.
type Read = (u32, oneshot::Sender<Option<Arc<Top>>>);

struct Inner {
    limits: StoreLimits,
    days: Mutex<BTreeMap<u32, Day>>,
    tops: RwLock<BTreeMap<u32, Arc<Top>>>,
    /// Since when the oldest row of the batch being written has waited:
    /// the queue is first in, first out, so every row still queued is newer.
    writing_since: Mutex<Option<Instant>>,
    /// Set by [`Store::close`]: the worker writes what is queued and ends.
    closing: AtomicBool,
    /// Set by [`Store::close`]: past it, the worker tries nothing more.
    give_up_at: Mutex<Option<Instant>>,
    /// The worker has ended: nothing queued now would be written.
    stopped: AtomicBool,
    /// The worker is running (not yet stopped, not starting again after a panic).
    up: AtomicBool,
    /// Rows given up so far (a stop counts those it leaves unwritten).
    lost: AtomicUsize,
}

/// The worker's ends of the store's channels.
struct Worker {
    /// The folder's lock, let go as the worker ends (before `_done`).
    _lock: FolderLock,
    writes: Receiver<Pending>,
    reads: Receiver<Read>,
    /// A nudge: [`Store::close`] was called.
    wake: Receiver<()>,
    /// Dropped when the worker ends, which [`Store::close`] waits for.
    _done: Sender<()>,
}

/// Whether the store can write now, as [`Store::health`] sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Health {
    /// The worker is running.
    pub up: bool,
    /// How long the oldest row still unwritten has waited.
    pub oldest: Option<Duration>,
    /// How long a row may wait before the store counts as unable to write.
    pub stale: Duration,
}

impl Health {
    /// Why the store cannot write now, in words for a health check, if it cannot.
    pub(crate) fn trouble(&self) -> Option<String> {
        if !self.up {
            return Some("the results store's worker is not running".into());
        }
        match self.oldest {
            Some(age) if age > self.stale => Some(format!(
                "the results store cannot write: a result has waited {:.1} s for the file",
                age.as_secs_f64()
            )),
            _ => None,
        }
    }
}

/// The day's results, held in memory and written by a worker thread.
#[derive(Clone)]
pub struct Store {
    inner: Arc<Inner>,
    /// The rows for the worker (bounded: [`StoreLimits::queued`]). When the
    /// last handle goes, the worker writes what is queued and ends.
    writes: Sender<Pending>,
    /// What the worker left when it could not end in time, for
    /// [`Store::close`] to log.
    leftovers: Receiver<Pending>,
    /// Leaderboard reads for the worker (bounded: [`READS_QUEUED`]).
    reads: Sender<Read>,
    wake: Sender<()>,
    /// Disconnected once the worker has ended.
    done: Receiver<()>,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("limits", &self.inner.limits)
            .finish_non_exhaustive()
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Store {
    /// Opens `dir/daily.sqlite` (creating it and `dir` if need be) with the
    /// folder's lock (`daily.lock`: [`StoreError::InUse`] while another
    /// server holds it), reads the attempts of `today` and the day before
    /// into memory with their top tens, and starts the worker.
    pub fn open_dir(dir: &Path, today: u32, limits: StoreLimits) -> Result<Store, StoreError> {
        let (file, lock) = ResultsFile::open_locked(dir)?;
        let mut days = BTreeMap::new();
        let mut tops = BTreeMap::new();
        for day in [today.saturating_sub(1), today] {
            let rows = file.day(day)?;
            if rows.malformed > 0 {
                malformed(day, rows.malformed);
            }
            let mut held = Day::default();
            for a in rows.attempts {
                let entry = Seat {
                    listed: a.name,
                    address: a.address,
                    kept: a.result.map(|_| Kept::Yes),
                    result: a.result,
                };
                held.add(a.seat, entry);
            }
            days.insert(day, held);
            tops.insert(day, Arc::new(read_top(&file, day)?));
        }
        let inner = Arc::new(Inner {
            limits,
            days: Mutex::new(days),
            tops: RwLock::new(tops),
            writing_since: Mutex::new(None),
            closing: AtomicBool::new(false),
            give_up_at: Mutex::new(None),
            stopped: AtomicBool::new(false),
            up: AtomicBool::new(true),
            lost: AtomicUsize::new(0),
        });
        let (writes, writes_rx) = crossbeam_channel::bounded(limits.queued);
        let (reads, reads_rx) = crossbeam_channel::bounded(READS_QUEUED);
        let (wake, wake_rx) = crossbeam_channel::bounded(1);
        let (done_tx, done) = crossbeam_channel::bounded(0);
        let worker = Worker {
            _lock: lock,
            writes: writes_rx.clone(),
            reads: reads_rx,
            wake: wake_rx,
            _done: done_tx,
        };
        let held = Arc::clone(&inner);
        std::thread::Builder::new()
            .name("boggle-store".into())
            .spawn(move || supervise(&held, file, &worker))
            .map_err(|source| StoreError::Io {
                path: dir.to_path_buf(),
                source,
            })?;
        Ok(Store {
            inner,
            writes,
            leftovers: writes_rx,
            reads,
            wake,
            done,
        })
    }

    /// A daily game of `day` begins for `player` (a token the client sent,
    /// kept only if well formed; else `fresh`), named `name`, from `ip`:
    /// the seat's scored attempt if it is its first and the caps allow
    /// (kept at once, written in the background), otherwise practice.
    pub(crate) fn begin(
        &self,
        day: u32,
        player: Option<&str>,
        name: &str,
        ip: IpAddr,
        fresh: String,
    ) -> DailyGame {
        let game = self.begin_seat(day, seat_token(player, fresh), name, ip);
        let status = match game.status {
            DailyStatus::Scored => "scored",
            DailyStatus::Played => "played",
            DailyStatus::Capped => "capped",
            DailyStatus::Unkept => "unkept",
        };
        metrics::counter!("boggle_daily_attempts_total", "status" => status).increment(1);
        game
    }

    fn begin_seat(&self, day: u32, player: String, name: &str, ip: IpAddr) -> DailyGame {
        let mut days = lock(&self.inner.days);
        // Days before yesterday are done with: their rounds have ended.
        days.retain(|&d, _| d + 1 >= day);
        let held = days.entry(day).or_insert_with(|| {
            // A new day: nothing in the file yet (this server writes it).
            let mut tops = self
                .inner
                .tops
                .write()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            tops.entry(day).or_default();
            Day::default()
        });
        if let Some(seat) = held.seats.get(&player) {
            return DailyGame {
                day,
                listed_as: Some(seat.listed.clone()),
                first: seat.result,
                kept: seat.kept.clone(),
                status: DailyStatus::Played,
                player,
            };
        }
        let address = address_key(ip).to_string();
        let limits = self.inner.limits;
        let from_address = held.per_address.get(&address).copied().unwrap_or(0);
        let from_prefix = held
            .per_prefix
            .get(&prefix_of(&address))
            .copied()
            .unwrap_or(0);
        if from_address >= limits.per_address || from_prefix >= limits.per_prefix {
            return DailyGame {
                day,
                player,
                status: DailyStatus::Capped,
                listed_as: None,
                first: None,
                kept: None,
            };
        }
        let listed = held.listed_name(name, &player);
        let row = Attempt {
            day,
            seat: player.clone(),
            name: listed.clone(),
            address: address.clone(),
            result: None,
        };
        held.add(
            player.clone(),
            Seat {
                listed: listed.clone(),
                address,
                result: None,
                kept: None,
            },
        );
        drop(days);
        self.queue(row, None);
        DailyGame {
            day,
            player,
            status: DailyStatus::Scored,
            listed_as: Some(listed),
            first: None,
            kept: None,
        }
    }

    /// A scored attempt ended (a room's [`DailyResult`]): queued for the
    /// worker, which answers on the channel returned once the row is
    /// committed ([`Kept::Yes`]) or given up ([`Kept::No`], with why in
    /// words for the player). A seat's first result stays.
    pub(crate) fn finish(&self, result: &DailyResult) -> oneshot::Receiver<Kept> {
        let (tx, rx) = oneshot::channel();
        let (day, seat, score) = (result.day, result.player.as_str(), result.score);
        let mut days = lock(&self.inner.days);
        let Some(held) = days.get_mut(&day).and_then(|d| d.seats.get_mut(seat)) else {
            drop(days);
            tracing::error!(
                day,
                points = score.points,
                words = score.words,
                longest = score.longest,
                "a daily result has no attempt begun in memory: not stored"
            );
            metrics::counter!("boggle_store_failures_total", "reason" => "no_attempt").increment(1);
            let _ = tx.send(Kept::No(NOT_BEGUN.into()));
            return rx;
        };
        if held.result.is_some() {
            let _ = tx.send(Kept::No(
                "the day's first result is the one kept: this one is not on the leaderboard".into(),
            ));
            return rx;
        }
        held.result = Some(score);
        let row = Attempt {
            day,
            seat: seat.to_string(),
            name: held.listed.clone(),
            address: held.address.clone(),
            result: Some(score),
        };
        drop(days);
        self.queue(row, Some(tx));
        rx
    }

    /// Queues a row for the worker, or gives it up (logged with its
    /// content, its player told) when the queue is full or the store is closing.
    fn queue(&self, row: Attempt, reply: Option<oneshot::Sender<Kept>>) {
        let pending = Pending {
            row,
            since: Instant::now(),
            reply,
        };
        if self.inner.stopped.load(Ordering::SeqCst) {
            give_up(&self.inner, pending, "stopped", STOPPED);
            return;
        }
        match self.writes.try_send(pending) {
            Ok(()) => {}
            Err(TrySendError::Full(pending)) => {
                give_up(&self.inner, pending, "queue_full", QUEUE_FULL);
            }
            Err(TrySendError::Disconnected(pending)) => {
                give_up(&self.inner, pending, "stopped", STOPPED);
            }
        }
        // The worker ended meanwhile: what it did not see is given up here.
        if self.inner.stopped.load(Ordering::SeqCst) {
            for pending in self.leftovers.try_iter() {
                give_up(&self.inner, pending, "stopped", STOPPED);
            }
        }
        self.gauge();
    }

    /// Sets the queue's gauge.
    fn gauge(&self) {
        metrics::gauge!("boggle_store_queue").set(self.queued() as f64);
    }

    /// Whether the store can write now: its worker running, and the age of
    /// the oldest row waiting for the file. Sets the `boggle_store_up` and
    /// `boggle_store_oldest_wait_seconds` gauges to what it finds.
    pub(crate) fn health(&self) -> Health {
        let since = *lock(&self.inner.writing_since);
        let up = self.inner.up.load(Ordering::SeqCst) && !self.inner.stopped.load(Ordering::SeqCst);
        let oldest = since.map(|s| s.elapsed());
        metrics::gauge!("boggle_store_up").set(if up { 1.0 } else { 0.0 });
        metrics::gauge!("boggle_store_oldest_wait_seconds")
            .set(oldest.map_or(0.0, |d| d.as_secs_f64()));
        Health {
            up,
            oldest,
            stale: self.inner.limits.stale,
        }
    }

    /// The copy of `day`'s top ten, if the store has made one.
    pub(crate) fn cached_top(&self, day: u32) -> Option<Arc<Top>> {
        self.inner
            .tops
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(&day)
            .cloned()
    }

    /// `day`'s top ten: the copy, else read by the worker (waiting a few
    /// seconds at most). `None` when it cannot be read now.
    pub(crate) async fn top(&self, day: u32) -> Option<Arc<Top>> {
        if let Some(top) = self.cached_top(day) {
            return Some(top);
        }
        let (tx, rx) = oneshot::channel();
        if self.inner.stopped.load(Ordering::SeqCst) || self.reads.try_send((day, tx)).is_err() {
            return None;
        }
        self.gauge();
        tokio::time::timeout(READ_WAIT, rx).await.ok()?.ok()?
    }

    /// Writes what is queued and stops the worker, waiting at most
    /// `within`; whatever is still unwritten then is logged with its
    /// content and its player told. `Ok` when every row queued was
    /// written, else `Err` with how many were given up during the stop.
    /// Blocks: call it from a blocking context.
    pub(crate) fn close(&self, within: Duration) -> Result<(), usize> {
        let lost_before = self.inner.lost.load(Ordering::SeqCst);
        let deadline = Instant::now() + within;
        *lock(&self.inner.give_up_at) = Some(deadline);
        self.inner.closing.store(true, Ordering::SeqCst);
        let _ = self.wake.try_send(());
        // Past the deadline the worker tries no batch again: it logs what
        // it holds within one lock wait. The margin is well past that.
        let left = deadline.saturating_duration_since(Instant::now());
        let _ = self.done.recv_timeout(left + CLOSE_MARGIN);
        // A worker that cannot end in time (stuck in the file) leaves its
        // queue here: each row is logged, none dropped in silence.
        for pending in self.leftovers.try_iter() {
            give_up(&self.inner, pending, "stopped", STOPPED);
        }
        match self.inner.lost.load(Ordering::SeqCst) - lost_before {
            0 => Ok(()),
            n => Err(n),
        }
    }

    /// Rows and reads waiting for the worker.
    pub(crate) fn queued(&self) -> usize {
        self.writes.len() + self.reads.len()
    }
}

/// What a player hears of a result the queue had no room for.
const QUEUE_FULL: &str = "the server had too many results waiting to be saved: \
    this result is not on today's leaderboard";
/// What a player hears of a result the file would not take in time.
const NOT_WRITTEN: &str = "the server could not write its results file (another program \
    held it locked, or the disk is full): this result is not on today's leaderboard";
/// What a player hears of a result still waiting when the server stopped.
const STOPPED: &str = "the server stopped before it could save this result: \
    it is not on today's leaderboard";
/// What a player hears of a result whose batch the worker failed on.
const WORKER_FAILED: &str = "the server's results store failed while saving this result: \
    it is not on today's leaderboard";
/// What a player hears of a result whose attempt the store never began.
const NOT_BEGUN: &str = "the server has no record of this game's start: \
    this result is not on today's leaderboard";

/// The token a seat plays under: `player`'s, if it is one, else `fresh`.
fn seat_token(player: Option<&str>, fresh: String) -> String {
    player
        .filter(|p| is_player_token(p))
        .map_or(fresh, str::to_string)
}

impl DailyGame {
    /// A daily game on a server that keeps no results: not kept, the
    /// seat's token still kept (or `fresh` given).
    pub(crate) fn unkept(day: u32, player: Option<&str>, fresh: String) -> DailyGame {
        DailyGame {
            day,
            player: seat_token(player, fresh),
            status: DailyStatus::Unkept,
            listed_as: None,
            first: None,
            kept: None,
        }
    }
}

/// Logs a row that will not be written, once, with all it holds; counts
/// it; marks its seat's result not kept; and tells its player `why`.
fn give_up(inner: &Inner, pending: Pending, reason: &'static str, why: &str) {
    let row = &pending.row;
    let result = row.result.unwrap_or(DayScore {
        points: 0,
        words: 0,
        longest: 0,
    });
    tracing::error!(
        day = row.day,
        seat = row.seat.as_str(),
        name = row.name.as_str(),
        address = row.address.as_str(),
        played = row.result.is_some(),
        points = result.points,
        words = result.words,
        longest = result.longest,
        "a daily result was not stored: {why}"
    );
    metrics::counter!("boggle_store_failures_total", "reason" => reason).increment(1);
    inner.lost.fetch_add(1, Ordering::SeqCst);
    let kept = Kept::No(why.to_string());
    if row.result.is_some() {
        mark(inner, row, &kept);
    }
    if let Some(reply) = pending.reply {
        let _ = reply.send(kept);
    }
}

/// Notes in memory whether the seat's result is in the file, so a later
/// opening of the day says so.
fn mark(inner: &Inner, row: &Attempt, kept: &Kept) {
    let mut days = lock(&inner.days);
    if let Some(seat) = days
        .get_mut(&row.day)
        .and_then(|d| d.seats.get_mut(&row.seat))
    {
        seat.kept = Some(kept.clone());
    }
}

/// Refreshes `day`'s copy of the top with a result just committed: after
/// the results with as many points or more (the earlier first, as the
/// file's index orders them), if that is within the top.
fn list(inner: &Inner, day: u32, row: Listed) {
    let mut tops = inner
        .tops
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let mut top = tops.get(&day).map(|t| Top::clone(t)).unwrap_or_default();
    let at = top
        .rows
        .iter()
        .position(|r| r.points < row.points)
        .unwrap_or(top.rows.len());
    if at < TOP {
        top.rows.insert(at, row);
        top.rows.truncate(TOP);
        tops.insert(day, Arc::new(top));
    }
}

/// Logs and counts the malformed rows skipped in a day.
fn malformed(day: u32, rows: usize) {
    tracing::warn!(
        day,
        rows,
        "the results file has malformed rows for this day (points, words or lengths that are \
         not whole numbers from 0 to 4294967295, or names that are not text): skipped"
    );
    metrics::counter!("boggle_store_malformed_rows_total").increment(rows as u64);
}

fn read_top(file: &ResultsFile, day: u32) -> Result<Top, StoreError> {
    let top = file.top(day)?;
    if top.skipped > 0 {
        malformed(day, top.skipped);
    }
    Ok(top)
}

/// A batch in the worker's hands. Whatever it still holds when dropped
/// (the worker panicked while writing it) is given up: logged, counted and
/// its players told, never lost in silence.
struct Batch<'a> {
    inner: &'a Inner,
    rows: Vec<Pending>,
}

impl Drop for Batch<'_> {
    fn drop(&mut self) {
        for pending in std::mem::take(&mut self.rows) {
            give_up(self.inner, pending, "worker_failed", WORKER_FAILED);
        }
        *lock(&self.inner.writing_since) = None;
    }
}

/// Runs the worker until it is closed and drained; a panic in it gives up
/// the batch it held (see [`Batch`]) and starts it again on the same file
/// after [`RESTART_WAIT`], the store counted down meanwhile. When it ends,
/// whatever is still queued is given up (logged, its players told).
fn supervise(inner: &Inner, mut file: ResultsFile, worker: &Worker) {
    loop {
        let ran = std::panic::catch_unwind(AssertUnwindSafe(|| run(inner, &mut file, worker)));
        if ran.is_ok() {
            break;
        }
        inner.up.store(false, Ordering::SeqCst);
        metrics::counter!("boggle_store_restarts_total").increment(1);
        tracing::error!(
            "the results store's worker failed (a panic): it starts again in {} s",
            RESTART_WAIT.as_secs()
        );
        std::thread::sleep(RESTART_WAIT);
        inner.up.store(true, Ordering::SeqCst);
    }
    inner.up.store(false, Ordering::SeqCst);
    inner.stopped.store(true, Ordering::SeqCst);
    for pending in worker.writes.try_iter() {
        give_up(inner, pending, "stopped", STOPPED);
    }
    metrics::gauge!("boggle_store_queue").set(0.0);
}

/// The worker: writes before reads, until closed and drained (or, past a
/// stop's deadline, at once), or until every handle has gone and the
/// queue is written.
fn run(inner: &Inner, file: &mut ResultsFile, worker: &Worker) {
    loop {
        if lock(&inner.give_up_at).is_some_and(|at| Instant::now() >= at) {
            return;
        }
        match worker.writes.try_recv() {
            Ok(first) => {
                write(file, batch(inner, worker, first), worker);
                continue;
            }
            // Every handle has gone and the queue is written.
            Err(TryRecvError::Disconnected) => return,
            Err(TryRecvError::Empty) => {}
        }
        if let Ok((day, reply)) = worker.reads.try_recv() {
            let _ = reply.send(refresh(inner, file, day));
            continue;
        }
        if inner.closing.load(Ordering::SeqCst) {
            return;
        }
        crossbeam_channel::select! {
            recv(worker.writes) -> first => match first {
                Ok(first) => write(file, batch(inner, worker, first), worker),
                Err(_) => return,
            },
            recv(worker.reads) -> read => {
                if let Ok((day, reply)) = read {
                    let _ = reply.send(refresh(inner, file, day));
                }
            }
            recv(worker.wake) -> _ => {}
        }
    }
}

/// A batch: `first` and what else has arrived, up to [`BATCH`] rows.
fn batch<'a>(inner: &'a Inner, worker: &Worker, first: Pending) -> Batch<'a> {
    let mut rows = vec![first];
    rows.extend(worker.writes.try_iter().take(BATCH - 1));
    *lock(&inner.writing_since) = rows.first().map(|p| p.since);
    metrics::gauge!("boggle_store_queue").set((worker.writes.len() + worker.reads.len()) as f64);
    Batch { inner, rows }
}

/// Writes one batch in one transaction, trying again (answering reads
/// meanwhile) until it goes in or the limits' `retry_for` (or the close's
/// deadline) has passed; then tells each row's player.
fn write(file: &mut ResultsFile, mut batch: Batch<'_>, worker: &Worker) {
    let inner = batch.inner;
    let started = Instant::now();
    let give_up_at = started + inner.limits.retry_for;
    let mut wait = Duration::from_millis(50);
    let mut said = false;
    let rows: Vec<Attempt> = batch.rows.iter().map(|p| p.row.clone()).collect();
    loop {
        test_hook(&rows);
        match file.put(&rows) {
            Ok(_) => break,
            Err(e) => {
                metrics::counter!("boggle_store_retries_total").increment(1);
                if !said {
                    tracing::warn!(rows = rows.len(), error = %e, "the results file cannot be written now: trying again");
                    said = true;
                }
                let close_by = *lock(&inner.give_up_at);
                let now = Instant::now();
                if now >= give_up_at || close_by.is_some_and(|at| now >= at) {
                    let why = if close_by.is_some() {
                        STOPPED
                    } else {
                        NOT_WRITTEN
                    };
                    tracing::error!(rows = rows.len(), error = %e, "the results file would not take these results in time");
                    for pending in std::mem::take(&mut batch.rows) {
                        give_up(inner, pending, "retries", why);
                    }
                    return;
                }
                answer_reads(inner, file, worker);
                pause(inner, wait, worker);
                wait = (wait * 2).min(RETRY_MAX_WAIT);
            }
        }
    }
    if said {
        tracing::warn!(rows = rows.len(), waited = ?started.elapsed(), "the results file took the waiting results");
    }
    metrics::counter!("boggle_store_writes_total").increment(rows.len() as u64);
    metrics::histogram!("boggle_store_write_seconds").record(started.elapsed().as_secs_f64());
    // Committed: now, and only now, each result is listed and its player told.
    for pending in std::mem::take(&mut batch.rows) {
        if let Some(score) = pending.row.result {
            list(
                inner,
                pending.row.day,
                Listed {
                    name: pending.row.name.clone(),
                    points: score.points,
                    words: score.words,
                    longest: score.longest,
                },
            );
            mark(inner, &pending.row, &Kept::Yes);
        }
        if let Some(reply) = pending.reply {
            let _ = reply.send(Kept::Yes);
        }
    }
}

/// Waits `wait`, or less if the store is asked to close.
fn pause(inner: &Inner, wait: Duration, worker: &Worker) {
    let wait = if inner.closing.load(Ordering::SeqCst) {
        wait.min(Duration::from_millis(100))
    } else {
        wait
    };
    if let Err(RecvTimeoutError::Disconnected) = worker.wake.recv_timeout(wait) {
        // Every handle has gone: nobody can nudge, so wait it out.
        std::thread::sleep(wait);
    }
}

/// Answers the reads waiting (a file locked for writing can still be read).
fn answer_reads(inner: &Inner, file: &ResultsFile, worker: &Worker) {
    for (day, reply) in worker.reads.try_iter() {
        let _ = reply.send(refresh(inner, file, day));
    }
}

/// Reads `day`'s top from the file into the copies (at most [`TOPS_KEPT`]
/// days besides those held in memory); `None` if it cannot be read.
fn refresh(inner: &Inner, file: &ResultsFile, day: u32) -> Option<Arc<Top>> {
    let top = match read_top(file, day) {
        Ok(top) => Arc::new(top),
        Err(e) => {
            tracing::warn!(day, error = %e, "the leaderboard could not be read");
            return None;
        }
    };
    // The days held in memory (today's, yesterday's) stay; the oldest of
    // the others goes, so reads of far days cannot push today out. (The
    // days' lock is never taken under the copies' lock: the other order is
    // begin's.)
    let held: Vec<u32> = lock(&inner.days).keys().copied().collect();
    let mut tops = inner
        .tops
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if held.contains(&day) && tops.contains_key(&day) {
        // The copy of a day held in memory is kept by the store itself.
        return tops.get(&day).cloned();
    }
    tops.insert(day, Arc::clone(&top));
    if tops.len() > TOPS_KEPT {
        let old: Vec<u32> = tops.keys().copied().filter(|d| !held.contains(d)).collect();
        for day in old.into_iter().take(tops.len() - TOPS_KEPT) {
            tops.remove(&day);
        }
    }
    Some(top)
}

/// Where a test makes the worker fail (see the tests' `maybe_panic`);
/// nothing outside the tests.
#[cfg(not(test))]
fn test_hook(_: &[Attempt]) {}

#[cfg(test)]
use tests::maybe_panic as test_hook;

#[cfg(test)]
mod tests;
