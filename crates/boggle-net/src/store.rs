//! The store: the day's attempts and results between the rooms and the
//! results file, so that no room or connection ever waits on SQLite.
//!
//! How: the recent days' attempts are held in memory ([`Store::begin`]
//! decides a daily game at once: the seat's scored attempt, practice after
//! it, or over a cap), and every change goes as a row to one worker thread
//! through a bounded queue. The worker alone opens the file
//! ([`ResultsFile`]); it writes what is queued in batches, one transaction
//! each. The leaderboard is served from a copy of each day's top ten
//! ([`Store::top`]): read from the file's index when the store opens, and
//! refreshed on each result written (merged in as it is queued, so the
//! leaderboard is current even while the file is locked). A day not held
//! in memory is read by the worker on request, behind its own small queue,
//! and its copy kept. The copies hold what this server wrote: a second
//! server writing the same file is seen after a restart. A write that fails (another program holds the file
//! locked, a full disk) is tried again, waiting longer each time up to
//! [`RETRY_MAX_WAIT`], for [`RETRY_FOR`] (ten minutes); a row that still cannot be
//! written, or that finds the queue full, is logged with its content at
//! `error` and counted, never dropped in silence. Nothing is held locked
//! across I/O: the in-memory days and the queue each have a mutex held for
//! a few map operations.
//!
//! Names: the day's leaderboard lists each seat under its own name, and
//! names are compared by their look-alike key ([`NameKey`]): a seat whose
//! name looks like one another seat is listed under that day is listed as
//! `NAME (2)`, `NAME (3)`, ..., and told so.
//!
//! Caps ([`StoreLimits`]): the attempts one address (an IPv6 address by its
//! /64) may have kept a day, and the attempts of a day in all; past either,
//! a daily game is practice.
//!
//! Metrics (the `metrics` facade; the server installs the exporter):
//! `boggle_store_queue` (rows and reads waiting), `boggle_store_writes_total`
//! (rows written), `boggle_store_failures_total` (rows given up, by
//! `reason`: `queue_full` or `retries`), `boggle_store_retries_total`
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

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::net::IpAddr;
use std::path::Path;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, RwLock};
use std::time::{Duration, Instant};

use boggle_protocol::names::name_key;
use boggle_protocol::{DailyStatus, DayScore, is_player_token};
use tokio::sync::oneshot;

use super::leaderboard::{Attempt, Listed, ResultsFile, StoreError, TOP, Top};
use super::limits::address_key;
use super::room::{DailyGame, DailyResult};

/// How long a row that cannot be written is tried again before it is given
/// up (logged), by default: a backup or a long transaction elsewhere is over
/// well within it.
pub const RETRY_FOR: Duration = Duration::from_secs(600);

/// The longest wait between two tries of a write.
pub const RETRY_MAX_WAIT: Duration = Duration::from_secs(2);

/// The most rows waiting to be written; past it a row is given up (logged).
pub const WRITES_QUEUED: usize = 10_000;

/// The most leaderboard reads waiting for the worker; past it a read is refused.
pub const READS_QUEUED: usize = 64;

/// The most rows written in one transaction.
const BATCH: usize = 256;

/// The most days whose top the store keeps a copy of.
const TOPS_KEPT: usize = 16;

/// How long a leaderboard read waits for the worker.
const READ_WAIT: Duration = Duration::from_secs(5);

/// What the store keeps, per address and per day.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoreLimits {
    /// Attempts kept per address (an IPv6 address by its /64) per day: a
    /// class behind one school's address still plays.
    pub per_address: u32,
    /// Attempts kept per day, all addresses together.
    pub per_day: usize,
    /// How long a row that cannot be written is tried again before it is
    /// given up (logged with its content).
    pub retry_for: Duration,
}

impl Default for StoreLimits {
    fn default() -> StoreLimits {
        StoreLimits {
            per_address: 30,
            per_day: 10_000,
            retry_for: RETRY_FOR,
        }
    }
}

/// A seat's attempt of a day, in memory.
#[derive(Debug)]
struct Seat {
    listed: String,
    address: String,
    result: Option<DayScore>,
}

/// One day's attempts in memory: by seat, the listed names' look-alike
/// forms, and the count per address.
#[derive(Debug, Default)]
struct Day {
    seats: HashMap<String, Seat>,
    names: HashMap<String, String>,
    per_address: HashMap<String, u32>,
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
        self.seats.insert(seat, entry);
    }
}

/// What waits for the worker.
#[derive(Default)]
struct Queue {
    writes: VecDeque<Attempt>,
    reads: VecDeque<(u32, oneshot::Sender<Option<Arc<Top>>>)>,
    /// Set when the last handle goes or [`Store::close`] is called: the
    /// worker writes what is queued, until `give_up_at`, and ends.
    closing: bool,
    give_up_at: Option<Instant>,
    stopped: bool,
}

struct Inner {
    limits: StoreLimits,
    days: Mutex<BTreeMap<u32, Day>>,
    queue: Mutex<Queue>,
    /// Wakes the worker (work queued, or closing) and [`Store::close`] (stopped).
    wake: Condvar,
    tops: RwLock<BTreeMap<u32, Arc<Top>>>,
}

/// Ends the worker when the last [`Store`] handle goes.
struct Open(Arc<Inner>);

impl Drop for Open {
    fn drop(&mut self) {
        let mut queue = lock(&self.0.queue);
        queue.closing = true;
        queue
            .give_up_at
            .get_or_insert_with(|| Instant::now() + RETRY_FOR);
        drop(queue);
        self.0.wake.notify_all();
    }
}

/// The day's results, held in memory and written by a worker thread.
#[derive(Clone)]
pub struct Store {
    inner: Arc<Inner>,
    _open: Arc<Open>,
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
    /// Opens `dir/daily.sqlite` (see [`ResultsFile::open`]), reads the
    /// attempts of `today` and the day before into memory with their top
    /// tens, and starts the worker.
    pub fn open_dir(dir: &Path, today: u32, limits: StoreLimits) -> Result<Store, StoreError> {
        let file = ResultsFile::open_dir(dir)?;
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
            queue: Mutex::new(Queue::default()),
            wake: Condvar::new(),
            tops: RwLock::new(tops),
        });
        let worker = Arc::clone(&inner);
        std::thread::Builder::new()
            .name("boggle-store".into())
            .spawn(move || run(&worker, file))
            .map_err(|e| StoreError::Io {
                path: dir.to_path_buf(),
                source: Box::new(e),
            })?;
        Ok(Store {
            _open: Arc::new(Open(Arc::clone(&inner))),
            inner,
        })
    }

    /// A daily game of `day` begins for `player` (a token the client sent,
    /// kept only if well formed; else `fresh`), named `name`, from `ip`:
    /// the seat's scored attempt if it is its first and the caps allow
    /// (kept at once, written in the background), otherwise practice.
    pub fn begin(
        &self,
        day: u32,
        player: Option<&str>,
        name: &str,
        ip: IpAddr,
        fresh: String,
    ) -> DailyGame {
        let player = player
            .filter(|p| is_player_token(p))
            .map_or(fresh, str::to_string);
        let game = self.begin_seat(day, player, name, ip);
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
                status: DailyStatus::Played,
                player,
            };
        }
        let address = address_key(ip).to_string();
        let limits = self.inner.limits;
        let from_address = held.per_address.get(&address).copied().unwrap_or(0);
        if held.seats.len() >= limits.per_day || from_address >= limits.per_address {
            return DailyGame {
                day,
                player,
                status: DailyStatus::Capped,
                listed_as: None,
                first: None,
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
            },
        );
        drop(days);
        self.queue(row);
        DailyGame {
            day,
            player,
            status: DailyStatus::Scored,
            listed_as: Some(listed),
            first: None,
        }
    }

    /// A scored attempt ended (a room's [`DailyResult`]): kept at once,
    /// written in the background. A seat's first result stays.
    pub fn finish(&self, result: &DailyResult) {
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
            return;
        };
        if held.result.is_some() {
            return;
        }
        held.result = Some(score);
        let listed = Listed {
            name: held.listed.clone(),
            points: score.points,
            words: score.words,
            longest: score.longest,
        };
        let row = Attempt {
            day,
            seat: seat.to_string(),
            name: held.listed.clone(),
            address: held.address.clone(),
            result: Some(score),
        };
        drop(days);
        self.queue(row);
        self.list(day, listed);
    }

    /// Refreshes `day`'s copy of the top with a new result: after the
    /// results with as many points or more (the earlier first, as the
    /// file's index orders them), if that is within the top.
    fn list(&self, day: u32, row: Listed) {
        let mut tops = self
            .inner
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

    /// Queues a row for the worker, or gives it up (logged with its
    /// content) when the queue is full or the store is closing.
    fn queue(&self, row: Attempt) {
        let mut queue = lock(&self.inner.queue);
        if queue.writes.len() >= WRITES_QUEUED || queue.stopped {
            drop(queue);
            give_up(&row, "queue_full", "the store's queue is full");
            return;
        }
        queue.writes.push_back(row);
        gauge(&queue);
        drop(queue);
        self.inner.wake.notify_all();
    }

    /// The copy of `day`'s top ten, if the store has made one.
    pub fn cached_top(&self, day: u32) -> Option<Arc<Top>> {
        self.inner
            .tops
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(&day)
            .cloned()
    }

    /// `day`'s top ten: the copy, else read by the worker (waiting a few
    /// seconds at most). `None` when it cannot be read now.
    pub async fn top(&self, day: u32) -> Option<Arc<Top>> {
        if let Some(top) = self.cached_top(day) {
            return Some(top);
        }
        let (tx, rx) = oneshot::channel();
        {
            let mut queue = lock(&self.inner.queue);
            if queue.reads.len() >= READS_QUEUED || queue.stopped {
                return None;
            }
            queue.reads.push_back((day, tx));
            gauge(&queue);
        }
        self.inner.wake.notify_all();
        tokio::time::timeout(READ_WAIT, rx).await.ok()?.ok()?
    }

    /// Writes what is queued and stops the worker, waiting at most
    /// `within`; whatever is still unwritten then is logged with its
    /// content. Blocks: call it from a blocking context.
    pub fn close(&self, within: Duration) {
        let deadline = Instant::now() + within;
        let mut queue = lock(&self.inner.queue);
        queue.closing = true;
        queue.give_up_at = Some(deadline);
        self.inner.wake.notify_all();
        while !queue.stopped {
            let left = deadline.saturating_duration_since(Instant::now());
            // A moment past the deadline for the worker to log what it gives up.
            let wait = left + Duration::from_millis(500);
            let (next, timeout) = self
                .inner
                .wake
                .wait_timeout(queue, wait)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            queue = next;
            if timeout.timed_out() && Instant::now() > deadline {
                break;
            }
        }
    }

    /// Rows and reads waiting for the worker.
    pub fn queued(&self) -> usize {
        let queue = lock(&self.inner.queue);
        queue.writes.len() + queue.reads.len()
    }
}

/// A daily game's meaning for the seat `player` names, from `store`, or,
/// on a server that keeps no results, not kept (the token still kept or given).
pub fn daily_game(
    store: Option<&Store>,
    day: u32,
    player: Option<&str>,
    name: &str,
    ip: IpAddr,
    fresh: String,
) -> DailyGame {
    match store {
        Some(store) => store.begin(day, player, name, ip, fresh),
        None => DailyGame {
            day,
            player: player
                .filter(|p| is_player_token(p))
                .map_or(fresh, str::to_string),
            status: DailyStatus::Unkept,
            listed_as: None,
            first: None,
        },
    }
}

/// Sets the queue's gauge.
fn gauge(queue: &Queue) {
    metrics::gauge!("boggle_store_queue").set((queue.writes.len() + queue.reads.len()) as f64);
}

/// Logs a row that will not be written, with all it holds, and counts it.
fn give_up(row: &Attempt, reason: &'static str, why: &str) {
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

/// What the worker does next.
enum Job {
    Write(Vec<Attempt>),
    Read(u32, oneshot::Sender<Option<Arc<Top>>>),
    Stop,
}

/// The worker: writes before reads, until closed and drained.
fn run(inner: &Inner, mut file: ResultsFile) {
    loop {
        match next_job(inner) {
            Job::Write(rows) => write(inner, &mut file, rows),
            Job::Read(day, reply) => {
                let _ = reply.send(refresh(inner, &file, day));
            }
            Job::Stop => break,
        }
    }
    let mut queue = lock(&inner.queue);
    queue.stopped = true;
    for row in std::mem::take(&mut queue.writes) {
        give_up(
            &row,
            "retries",
            "the server stopped before it could be written",
        );
    }
    queue.reads.clear();
    gauge(&queue);
    drop(queue);
    inner.wake.notify_all();
}

fn next_job(inner: &Inner) -> Job {
    let mut queue = lock(&inner.queue);
    loop {
        if !queue.writes.is_empty() {
            let n = queue.writes.len().min(BATCH);
            let rows = queue.writes.drain(..n).collect();
            gauge(&queue);
            return Job::Write(rows);
        }
        if let Some((day, reply)) = queue.reads.pop_front() {
            gauge(&queue);
            return Job::Read(day, reply);
        }
        if queue.closing {
            return Job::Stop;
        }
        queue = inner
            .wake
            .wait(queue)
            .unwrap_or_else(std::sync::PoisonError::into_inner);
    }
}

/// Writes one batch, trying again (answering reads meanwhile) until it
/// goes in or the limits' `retry_for` (or the close's deadline) has passed.
fn write(inner: &Inner, file: &mut ResultsFile, rows: Vec<Attempt>) {
    let started = Instant::now();
    let give_up_at = started + inner.limits.retry_for;
    let mut wait = Duration::from_millis(50);
    let mut said = false;
    loop {
        match file.put(&rows) {
            Ok(_) => break,
            Err(e) => {
                metrics::counter!("boggle_store_retries_total").increment(1);
                if !said {
                    tracing::warn!(rows = rows.len(), error = %e, "the results file cannot be written now: trying again");
                    said = true;
                }
                let close_by = lock(&inner.queue).give_up_at;
                let now = Instant::now();
                if now >= give_up_at || close_by.is_some_and(|at| now >= at) {
                    for row in &rows {
                        give_up(row, "retries", &format!("{e}"));
                    }
                    return;
                }
                answer_reads(inner, file);
                pause(inner, wait);
                wait = (wait * 2).min(RETRY_MAX_WAIT);
            }
        }
    }
    if said {
        tracing::warn!(rows = rows.len(), waited = ?started.elapsed(), "the results file took the waiting results");
    }
    metrics::counter!("boggle_store_writes_total").increment(rows.len() as u64);
    metrics::histogram!("boggle_store_write_seconds").record(started.elapsed().as_secs_f64());
}

/// Waits `wait`, or less if the store is asked to close.
fn pause(inner: &Inner, wait: Duration) {
    let queue = lock(&inner.queue);
    if queue.closing {
        drop(queue);
        std::thread::sleep(wait.min(Duration::from_millis(100)));
        return;
    }
    let _ = inner.wake.wait_timeout(queue, wait);
}

/// Answers the reads waiting (a file locked for writing can still be read).
fn answer_reads(inner: &Inner, file: &ResultsFile) {
    loop {
        let read = lock(&inner.queue).reads.pop_front();
        let Some((day, reply)) = read else { return };
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

#[cfg(test)]
mod tests;
