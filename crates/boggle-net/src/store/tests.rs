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

fn finish(store: &Store, player: &str, points: u32) {
    store.finish(&DailyResult {
        day: DAY,
        player: player.to_string(),
        score: DayScore {
            points,
            words: 1,
            longest: 4,
        },
    });
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
    store.close(Duration::from_secs(20));
    drop(store);
    let store = open(tmp.path(), StoreLimits::default());
    let after = store.begin(DAY, Some(&seat('c')), "cy", ip(1), seat('x'));
    assert_eq!(
        (after.status, after.first.map(|f| f.points)),
        (DailyStatus::Played, Some(7))
    );
}

#[test]
fn attempts_are_capped_per_address_and_per_day() {
    let tmp = tempfile::tempdir().unwrap();
    let limits = StoreLimits {
        per_address: 2,
        per_day: 3,
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
    assert_eq!(status('e', v6(2)), DailyStatus::Capped, "the day's cap");
    // A capped game is not an attempt: the seat is not taken.
    assert_eq!(
        store
            .begin(DAY, Some(&seat('c')), "p", ip(9), seat('x'))
            .status,
        DailyStatus::Capped
    );
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
    store.close(Duration::from_secs(20));
    drop(store);
    let file = ResultsFile::open_dir(tmp.path()).expect("opens");
    let kept = file.day(DAY).expect("reads");
    let results = kept.attempts.iter().filter(|a| a.result.is_some()).count();
    assert_eq!(results, 8, "none lost");
}

#[test]
#[expect(
    clippy::disallowed_methods,
    reason = "a poll: a pause between looks, in a loop bounded by a deadline"
)]
fn a_result_that_cannot_be_written_in_time_is_logged_with_its_content() {
    let logs = logs();
    let tmp = tempfile::tempdir().unwrap();
    let limits = StoreLimits {
        retry_for: Duration::from_millis(300),
        ..StoreLimits::default()
    };
    let store = open(tmp.path(), limits);
    let locked = Locked::hold(tmp.path());
    store.begin(DAY, Some(&seat('z')), "zed the lost", ip(1), String::new());
    finish(&store, &seat('z'), 31);
    let give_up = Instant::now() + Duration::from_secs(20);
    loop {
        let text = String::from_utf8_lossy(&lock(logs)).into_owned();
        let line = text
            .lines()
            .find(|l| l.contains("zed the lost") && l.contains("points=31"));
        if let Some(line) = line {
            assert!(line.contains("not stored"), "{line}");
            assert!(line.contains(&format!("day={DAY}")), "{line}");
            break;
        }
        assert!(Instant::now() < give_up, "not logged: {text}");
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(locked);
}
