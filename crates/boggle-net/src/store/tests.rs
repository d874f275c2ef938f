//! The store: seats, names and caps decided in memory; rows written by
//! the worker, also after another connection held the file locked; a row
//! that cannot be written logged with its content.

use super::*;
use std::io::Write;
use std::sync::OnceLock;

const DAY: u32 = 40;

fn ip(last: u8) -> IpAddr {
    IpAddr::from([127, 0, 0, last])
}

/// A player token (32 hex digits) named by a letter.
fn seat(c: char) -> String {
    format!("{:032x}", u32::from(c))
}

fn open(dir: &Path, limits: StoreLimits) -> Store {
    Store::open_dir(dir, DAY, limits).expect("opens")
}

/// Hands the store a result of `points` for `player`; the answer comes on the channel.
fn finish(store: &Store, player: &str, points: u32) -> oneshot::Receiver<Kept> {
    store.finish(&DailyResult {
        day: DAY,
        player: player.to_string(),
        score: DayScore {
            points,
            words: 1,
            longest: 4,
        },
    })
}

/// The store's answer on a result, waited for (20 s at most).
fn answer(mut rx: oneshot::Receiver<Kept>) -> Kept {
    let give_up = Instant::now() + Duration::from_secs(20);
    loop {
        match rx.try_recv() {
            Ok(kept) => return kept,
            Err(oneshot::error::TryRecvError::Empty) => {}
            Err(e) => panic!("no answer: {e}"),
        }
        assert!(Instant::now() < give_up, "no answer within 20 s");
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The points the file holds for `player`, read by a connection of its own.
fn in_file(dir: &Path, player: &str) -> Option<u32> {
    let conn = rusqlite::Connection::open_with_flags(
        dir.join("daily.sqlite"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .expect("opens");
    conn.query_row(
        "SELECT points FROM daily_attempts WHERE day = ?1 AND seat = ?2",
        rusqlite::params![DAY, player],
        |row| row.get::<_, Option<u32>>(0),
    )
    .ok()
    .flatten()
}

/// The name whose rows make the worker panic as it writes them.
const PANICS: &str = "panic in the store";

/// Panics on a batch holding a row of [`PANICS`], so a test sees the worker fail.
pub(super) fn maybe_panic(rows: &[Attempt]) {
    assert!(
        !rows.iter().any(|r| r.name == PANICS),
        "a test made the store's worker panic"
    );
}

/// Polls the store's copy of the top until it lists `n` rows.
#[expect(
    clippy::disallowed_methods,
    reason = "a poll: a pause between looks, in a loop bounded by a deadline"
)]
fn listed(store: &Store, n: usize) -> Vec<(String, u32)> {
    let give_up = Instant::now() + Duration::from_secs(20);
    loop {
        let top = store.cached_top(DAY).unwrap_or_default();
        if top.rows.len() == n {
            return top
                .rows
                .iter()
                .map(|r| (r.name.clone(), r.points))
                .collect();
        }
        assert!(Instant::now() < give_up, "{top:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_seat_is_listed_under_a_name_no_other_seat_looks_like() {
    let tmp = tempfile::tempdir().unwrap();
    let store = open(tmp.path(), StoreLimits::default());
    let listed_as = |c: char, name: &str| {
        let game = store.begin(DAY, Some(&seat(c)), name, ip(1), String::new());
        assert_eq!(game.status, DailyStatus::Scored, "{name}");
        game.listed_as.expect("listed")
    };
    assert_eq!(listed_as('a', "ann"), "ann");
    assert_eq!(listed_as('b', "Ann"), "Ann (2)");
    assert_eq!(listed_as('c', "\u{430}nn"), "\u{430}nn (3)");
    assert_eq!(listed_as('d', "Ian"), "Ian");
    assert_eq!(listed_as('e', "lan"), "lan (2)");
    // A name already numbered is taken too.
    assert_eq!(listed_as('f', "ann (2)"), "ann (2) (2)");
    finish(&store, &seat('b'), 9);
    finish(&store, &seat('a'), 0);
    assert_eq!(
        listed(&store, 2),
        [("Ann (2)".into(), 9), ("ann".into(), 0)],
        "a name posted first keeps no one's result out"
    );
}

#[test]
fn a_seat_opens_the_day_once_and_hears_its_first_result_after() {
    let tmp = tempfile::tempdir().unwrap();
    let store = open(tmp.path(), StoreLimits::default());
    let first = store.begin(DAY, None, "cy", ip(1), seat('c'));
    assert_eq!(
        (first.player.as_str(), first.status),
        (seat('c').as_str(), DailyStatus::Scored)
    );
    // Opened again before its round ended: played, no result yet.
    let during = store.begin(DAY, Some(&seat('c')), "cy", ip(1), seat('x'));
    assert_eq!((during.status, during.first), (DailyStatus::Played, None));
    finish(&store, &seat('c'), 7);
    // A second result (a replay's) does not replace the first.
    finish(&store, &seat('c'), 70);
    let again = store.begin(DAY, Some(&seat('c')), "cyrus", ip(2), seat('x'));
    assert_eq!(again.status, DailyStatus::Played);
    assert_eq!(again.listed_as.as_deref(), Some("cy"));
    assert_eq!(again.first.map(|f| f.points), Some(7));
    // A token that is not one the server issues is replaced.
    let odd = store.begin(DAY, Some("../../etc"), "dee", ip(3), seat('d'));
    assert_eq!(odd.player, seat('d'));
    assert_eq!(listed(&store, 1), [("cy".into(), 7)]);
    // Kept across a restart of the server.
    store.close(Duration::from_secs(20)).expect("all written");
    drop(store);
    let store = open(tmp.path(), StoreLimits::default());
    let after = store.begin(DAY, Some(&seat('c')), "cy", ip(1), seat('x'));
    assert_eq!(
        (after.status, after.first.map(|f| f.points)),
        (DailyStatus::Played, Some(7))
    );
}

#[test]
fn attempts_are_capped_per_address_and_per_network() {
    let tmp = tempfile::tempdir().unwrap();
    let limits = StoreLimits {
        per_address: 2,
        per_prefix: 3,
        ..StoreLimits::default()
    };
    let store = open(tmp.path(), limits);
    let status = |c: char, from: IpAddr| store.begin(DAY, None, "p", from, seat(c)).status;
    assert_eq!(status('a', ip(1)), DailyStatus::Scored);
    assert_eq!(status('b', ip(1)), DailyStatus::Scored);
    assert_eq!(status('c', ip(1)), DailyStatus::Capped, "the address's cap");
    // One IPv6 /64 is one address.
    let v6 = |last: u16| IpAddr::from([0x2001, 0xdb8, 0, 0, 0, 0, 0, last]);
    assert_eq!(status('d', v6(1)), DailyStatus::Scored);
    assert_eq!(status('e', v6(2)), DailyStatus::Scored);
    assert_eq!(status('h', v6(3)), DailyStatus::Capped, "the /64's cap");
    // 127.0.0.0/24 holds 3: past them, its other addresses are capped too.
    assert_eq!(status('f', ip(2)), DailyStatus::Scored);
    assert_eq!(status('i', ip(3)), DailyStatus::Capped, "the network's cap");
    let other = IpAddr::from([127, 0, 1, 1]);
    assert_eq!(status('g', other), DailyStatus::Scored);
    // A capped game is not an attempt: the seat is not taken.
    assert_eq!(
        store
            .begin(DAY, Some(&seat('c')), "p", ip(9), seat('x'))
            .status,
        DailyStatus::Capped
    );
}

/// 340 addresses of 30 attempts each, from one IPv6 /48 (340 /64s: a home
/// /56 holds 256) and one IPv4 /24, use up their networks' attempts and
/// no one else's: a fresh address from another network still plays scored.
#[test]
fn a_flood_from_few_networks_leaves_the_day_open() {
    let tmp = tempfile::tempdir().unwrap();
    let store = open(tmp.path(), StoreLimits::default());
    let mut n = 0u32;
    let mut scored = 0;
    let v6 = |i: u16| IpAddr::from([0x2001, 0xdb8, 0, i, 0, 0, 0, 1]);
    let v4 = |i: u16| IpAddr::from([198, 51, 100, u8::try_from(i).unwrap()]);
    let from: Vec<IpAddr> = (0..200).map(v6).chain((0..140).map(v4)).collect();
    for address in from {
        for _ in 0..30 {
            n += 1;
            let token = format!("{:032x}", u64::from(n) << 32);
            let game = store.begin(DAY, None, "flood", address, token);
            scored += usize::from(game.status == DailyStatus::Scored);
        }
    }
    assert_eq!(scored, 2 * PER_PREFIX as usize, "each network its cap");
    let fresh = store.begin(DAY, None, "fresh", IpAddr::from([192, 0, 2, 1]), seat('f'));
    assert_eq!(fresh.status, DailyStatus::Scored, "a newcomer still plays");
    let v6_fresh = IpAddr::from([0x2001, 0xdb8, 1, 0, 0, 0, 0, 1]);
    let fresh = store.begin(DAY, None, "fresh6", v6_fresh, seat('g'));
    assert_eq!(fresh.status, DailyStatus::Scored, "another /48 still plays");
}

/// What the store logs, from every thread (the worker's too).
fn logs() -> &'static Mutex<Vec<u8>> {
    static LOGS: OnceLock<&'static Mutex<Vec<u8>>> = OnceLock::new();
    LOGS.get_or_init(|| {
        let buffer: &'static Mutex<Vec<u8>> = Box::leak(Box::new(Mutex::new(Vec::new())));
        struct Sink(&'static Mutex<Vec<u8>>);
        impl Write for Sink {
            fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
                lock(self.0).extend_from_slice(bytes);
                Ok(bytes.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let _ = tracing_subscriber::fmt()
            .with_writer(move || Sink(buffer))
            .with_ansi(false)
            .try_init();
        buffer
    })
}

/// Holds `BEGIN EXCLUSIVE` on the store's file from a second connection until dropped.
struct Locked(rusqlite::Connection);

impl Locked {
    fn hold(dir: &Path) -> Locked {
        let conn = rusqlite::Connection::open(dir.join("daily.sqlite")).expect("opens");
        conn.execute_batch("BEGIN EXCLUSIVE").expect("locks");
        Locked(conn)
    }
}

impl Drop for Locked {
    fn drop(&mut self) {
        let _ = self.0.execute_batch("ROLLBACK");
    }
}

#[test]
#[expect(
    clippy::disallowed_methods,
    reason = "a poll: a pause between looks, in a loop bounded by a deadline"
)]
fn results_of_a_locked_file_wait_in_memory_and_are_all_written_after() {
    let logs = logs();
    let tmp = tempfile::tempdir().unwrap();
    let store = open(tmp.path(), StoreLimits::default());
    let locked = Locked::hold(tmp.path());
    let begun = Instant::now();
    for (n, c) in "abcdefgh".chars().enumerate() {
        store.begin(DAY, Some(&seat(c)), &format!("p{n}"), ip(1), String::new());
        finish(&store, &seat(c), n as u32);
    }
    // All of it in memory, at once, whatever the file's lock.
    let took = begun.elapsed();
    assert!(took < Duration::from_secs(5), "{took:?}");
    let again = store.begin(DAY, Some(&seat('h')), "p7", ip(1), String::new());
    assert_eq!(again.first.map(|f| f.points), Some(7));
    // The worker has found the file locked before it is let go.
    let give_up = Instant::now() + Duration::from_secs(20);
    while !String::from_utf8_lossy(&lock(logs)).contains("trying again") {
        assert!(Instant::now() < give_up, "the worker never tried");
        std::thread::sleep(Duration::from_millis(10));
    }
    drop(locked);
    assert_eq!(listed(&store, 8)[0], ("p7".into(), 7));
    // In the file once the lock is gone: a store opened after it reads all.
    store.close(Duration::from_secs(20)).expect("all written");
    drop(store);
    let file = ResultsFile::open_dir(tmp.path()).expect("opens");
    let kept = file.day(DAY).expect("reads");
    let results = kept.attempts.iter().filter(|a| a.result.is_some()).count();
    assert_eq!(results, 8, "none lost");
}

#[test]
fn a_result_that_cannot_be_written_in_time_is_logged_with_its_content() {
    let logs = logs();
    let (_tmp, store, locked) = locked(giving_up_soon());
    store.begin(DAY, Some(&seat('z')), "zed the lost", ip(1), String::new());
    finish(&store, &seat('z'), 31);
    let line = poll(|| {
        let text = String::from_utf8_lossy(&lock(logs)).into_owned();
        text.lines()
            .find(|l| l.contains("zed the lost") && l.contains("points=31"))
            .map(str::to_string)
            .ok_or(format!("not logged: {text}"))
    });
    assert!(line.contains("not stored"), "{line}");
    assert!(line.contains(&format!("day={DAY}")), "{line}");
    drop(locked);
}

/// What `look` finds, looked for every 20 ms; fails with what it last
/// says when 20 s pass without it.
#[expect(
    clippy::disallowed_methods,
    reason = "a poll: a pause between looks, in a loop bounded by a deadline"
)]
fn poll<T>(mut look: impl FnMut() -> Result<T, String>) -> T {
    let give_up = Instant::now() + Duration::from_secs(20);
    loop {
        match look() {
            Ok(found) => return found,
            Err(why) => assert!(Instant::now() < give_up, "{why}"),
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Limits under which a row the file will not take is given up after 300 ms.
fn giving_up_soon() -> StoreLimits {
    StoreLimits {
        retry_for: Duration::from_millis(300),
        ..StoreLimits::default()
    }
}

/// A store in a new directory, on `limits`.
fn opened(limits: StoreLimits) -> (tempfile::TempDir, Store) {
    let tmp = tempfile::tempdir().unwrap();
    let store = open(tmp.path(), limits);
    (tmp, store)
}

/// A store in a new directory, on `limits`, its file held locked by
/// another connection until the [`Locked`] goes.
fn locked(limits: StoreLimits) -> (tempfile::TempDir, Store, Locked) {
    let (tmp, store) = opened(limits);
    let locked = Locked::hold(tmp.path());
    (tmp, store, locked)
}

#[test]
fn a_result_is_told_kept_and_listed_only_once_it_is_committed() {
    let (tmp, store, locked) = locked(StoreLimits::default());
    store.begin(DAY, Some(&seat('a')), "ann", ip(1), String::new());
    let mut rx = finish(&store, &seat('a'), 12);
    // While another connection holds the file (the worker has waited on
    // its lock twice over), nothing is told and nothing listed.
    while store.health().oldest < Some(Duration::from_millis(600)) {
        assert!(
            matches!(rx.try_recv(), Err(oneshot::error::TryRecvError::Empty)),
            "told before it was written"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(store.cached_top(DAY).unwrap_or_default().rows, []);
    let during = store.begin(DAY, Some(&seat('a')), "ann", ip(1), String::new());
    assert_eq!(
        (during.first.map(|f| f.points), during.kept),
        (Some(12), None)
    );
    drop(locked);
    assert_eq!(answer(rx), Kept::Yes);
    // Told kept: it is in the file already, and listed.
    assert_eq!(in_file(tmp.path(), &seat('a')), Some(12));
    assert_eq!(listed(&store, 1), [("ann".into(), 12)]);
    let after = store.begin(DAY, Some(&seat('a')), "ann", ip(1), String::new());
    assert_eq!(after.kept, Some(Kept::Yes));
    assert_eq!(store.close(Duration::from_secs(20)), Ok(()));
}

#[test]
fn a_result_the_file_will_not_take_in_time_is_told_not_kept() {
    let (tmp, store, locked) = locked(giving_up_soon());
    store.begin(DAY, Some(&seat('b')), "bo", ip(1), String::new());
    assert_eq!(
        answer(finish(&store, &seat('b'), 5)),
        Kept::No(NOT_WRITTEN.into())
    );
    drop(locked);
    let again = store.begin(DAY, Some(&seat('b')), "bo", ip(1), String::new());
    assert_eq!(again.kept, Some(Kept::No(NOT_WRITTEN.into())));
    assert_eq!(in_file(tmp.path(), &seat('b')), None);
}

#[test]
fn a_full_queue_tells_its_players_their_results_are_not_kept() {
    let limits = StoreLimits {
        queued: 4,
        ..StoreLimits::default()
    };
    let (tmp, store, locked) = locked(limits);
    let seats: Vec<String> = "abcdefghijkl".chars().map(seat).collect();
    for (n, s) in seats.iter().enumerate() {
        store.begin(DAY, Some(s), &format!("p{n}"), ip(1), String::new());
    }
    let asked: Vec<_> = seats
        .iter()
        .enumerate()
        .map(|(n, s)| finish(&store, s, 100 + n as u32))
        .collect();
    drop(locked);
    let answers: Vec<Kept> = asked.into_iter().map(answer).collect();
    let full = Kept::No(QUEUE_FULL.into());
    assert!(answers.contains(&full), "{answers:?}");
    for (s, kept) in seats.iter().zip(&answers) {
        match kept {
            Kept::Yes => assert!(
                in_file(tmp.path(), s).is_some(),
                "told kept, not in the file"
            ),
            other => assert_eq!(other, &full),
        }
    }
    assert_eq!(store.close(Duration::from_secs(20)), Ok(()));
}

#[test]
fn a_stop_with_the_file_locked_logs_every_row_and_says_how_many() {
    let logs = logs();
    let (_tmp, store, locked) = locked(StoreLimits::default());
    let asked: Vec<_> = (0..5)
        .map(|n| {
            let s = seat(char::from(b'm' + n));
            store.begin(DAY, Some(&s), &format!("stopped-{n}"), ip(1), String::new());
            finish(&store, &s, 40 + u32::from(n))
        })
        .collect();
    // Five attempts begun and five results: ten rows, none written.
    assert_eq!(store.close(Duration::from_millis(300)), Err(10));
    for rx in asked {
        assert_eq!(answer(rx), Kept::No(STOPPED.into()));
    }
    let text = String::from_utf8_lossy(&lock(logs)).into_owned();
    for n in 0..5 {
        let lines = text
            .lines()
            .filter(|l| l.contains(&format!("stopped-{n}")) && l.contains("not stored"))
            .count();
        assert_eq!(
            lines, 2,
            "the attempt and the result, each logged once: {text}"
        );
    }
    drop(locked);
}

#[test]
fn a_worker_that_panics_tells_its_batch_and_is_started_again() {
    let logs = logs();
    let tmp = tempfile::tempdir().unwrap();
    let store = open(tmp.path(), StoreLimits::default());
    store.begin(DAY, Some(&seat('p')), PANICS, ip(1), String::new());
    assert_eq!(
        answer(finish(&store, &seat('p'), 1)),
        Kept::No(WORKER_FAILED.into())
    );
    store.begin(DAY, Some(&seat('q')), "quinn", ip(1), String::new());
    assert_eq!(answer(finish(&store, &seat('q'), 2)), Kept::Yes);
    assert_eq!(in_file(tmp.path(), &seat('q')), Some(2));
    assert!(store.health().up);
    let text = String::from_utf8_lossy(&lock(logs)).into_owned();
    assert!(text.contains("worker failed"), "{text}");
    assert_eq!(store.close(Duration::from_secs(20)), Ok(()));
}

#[test]
fn health_says_the_store_cannot_write_while_rows_wait_past_the_bound() {
    let limits = StoreLimits {
        stale: Duration::from_millis(200),
        ..StoreLimits::default()
    };
    let (tmp, store) = opened(limits);
    assert_eq!(store.health().trouble(), None);
    let locked = Locked::hold(tmp.path());
    store.begin(DAY, Some(&seat('h')), "hal", ip(1), String::new());
    let give_up = Instant::now() + Duration::from_secs(20);
    let trouble = loop {
        if let Some(trouble) = store.health().trouble() {
            break trouble;
        }
        assert!(Instant::now() < give_up, "never unhealthy");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(
        trouble.starts_with("the results store cannot write: a result has waited"),
        "{trouble}"
    );
    drop(locked);
    while store.health().trouble().is_some() {
        assert!(Instant::now() < give_up, "never healthy again");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(store.health().oldest, None);
    store.close(Duration::from_secs(5)).expect("closes");
    let closed = store.health();
    assert!(!closed.up);
    assert_eq!(
        closed.trouble().as_deref(),
        Some("the results store's worker is not running")
    );
}
