//! The day's results (`boggle serve --web --data DIR`): each player's first
//! scored game of today's board, kept in SQLite (`DIR/daily.sqlite`) so a
//! restart keeps the leaderboard.
//!
//! How: rusqlite on its bundled SQLite. The file is opened in WAL mode with
//! a busy timeout, so two servers pointed at one file take turns instead of
//! corrupting it or failing at once. The schema is numbered by `PRAGMA
//! user_version`; [`MIGRATIONS`] brings an older file up to date, each step
//! in its own transaction. A file that is not a database, or that a newer
//! version of the program has migrated, is refused with a [`StoreError`]
//! and left untouched. A result is inserted once per (day, name) (`INSERT OR
//! IGNORE`): the first game counts, replays do not.
//!
//! Limits: writes are synchronous (one small row at the end of a daily
//! round); a file locked by another process for longer than [`BUSY`] makes
//! that one result unrecorded (logged), never the round fail.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rusqlite::{Connection, ErrorCode, OpenFlags, params};
use serde::Serialize;

/// How long a write waits for another connection's lock before giving up.
pub const BUSY: Duration = Duration::from_secs(5);

/// The most rows [`Leaderboard::top`] gives.
pub const TOP: usize = 10;

/// The schema's steps: step `n` (from 1) takes `user_version` from `n - 1` to `n`.
pub const MIGRATIONS: &[&str] = &["CREATE TABLE daily_results (
        day INTEGER NOT NULL,
        name TEXT NOT NULL,
        points INTEGER NOT NULL,
        words INTEGER NOT NULL,
        longest INTEGER NOT NULL,
        at INTEGER NOT NULL,
        PRIMARY KEY (day, name)
    )"];

/// Why the results file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The file exists but is not an SQLite database.
    #[error("{}: not a results database (move it away or choose another --data)", path.display())]
    NotADatabase {
        /// The file.
        path: PathBuf,
    },
    /// The file was migrated by a newer version of the program.
    #[error("{}: schema version {found} is newer than this program's {known} (upgrade boggle)", path.display())]
    Newer {
        /// The file.
        path: PathBuf,
        /// Its `user_version`.
        found: i64,
        /// The newest this program knows.
        known: usize,
    },
    /// The directory or file cannot be created, opened or read.
    #[error("{}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What SQLite or the system said.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
}

/// One player's result of one day, as recorded and as listed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DayResult {
    /// The day's number (`boggle daily`).
    pub day: u32,
    /// The player's name.
    pub name: String,
    /// Points scored.
    pub points: u32,
    /// Words found.
    pub words: u32,
    /// The longest word's length.
    pub longest: u32,
}

/// Where a room of today's board records its results, and under which day.
#[derive(Clone, Debug)]
pub struct DailyRecord {
    /// The day's number.
    pub day: u32,
    /// The open results file.
    pub results: Arc<Leaderboard>,
}

/// Seconds since the Unix epoch (0 for a clock set before it): when a
/// result is recorded, which orders equal points (the store reads the
/// clock, so the room stays clock-free).
fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

/// The results file, open.
#[derive(Debug)]
pub struct Leaderboard {
    conn: Mutex<Connection>,
    path: PathBuf,
}

impl Leaderboard {
    /// Opens (creating it and its directory if need be) `dir/daily.sqlite`.
    pub fn open_dir(dir: &Path) -> Result<Leaderboard, StoreError> {
        std::fs::create_dir_all(dir).map_err(|e| StoreError::Io {
            path: dir.to_path_buf(),
            source: Box::new(e),
        })?;
        Leaderboard::open(&dir.join("daily.sqlite"))
    }

    /// Opens the file at `path`, creating it if missing, and migrates it.
    pub fn open(path: &Path) -> Result<Leaderboard, StoreError> {
        let fail = |e: rusqlite::Error| classify(path, e);
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags).map_err(fail)?;
        conn.busy_timeout(BUSY).map_err(fail)?;
        // The first read of the file: a file that is not a database fails here.
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |row| row.get(0))
            .map_err(fail)?;
        check_version(path, version)?;
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(fail)?;
        migrate(conn, path).map(|conn| Leaderboard {
            conn: Mutex::new(conn),
            path: path.to_path_buf(),
        })
    }

    /// Records `result`, stamped with the time, unless its player has a
    /// result that day already; `true` if it was recorded.
    pub fn record(&self, result: &DayResult) -> Result<bool, StoreError> {
        let conn = self.lock();
        conn.execute(
            "INSERT OR IGNORE INTO daily_results (day, name, points, words, longest, at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                result.day,
                result.name,
                result.points,
                result.words,
                result.longest,
                now()
            ],
        )
        .map(|rows| rows == 1)
        .map_err(|e| classify(&self.path, e))
    }

    /// The day's best [`TOP`] results: most points first, then the earliest.
    pub fn top(&self, day: u32) -> Result<Vec<DayResult>, StoreError> {
        let conn = self.lock();
        let fail = |e| classify(&self.path, e);
        let mut query = conn
            .prepare_cached(
                "SELECT day, name, points, words, longest FROM daily_results \
                 WHERE day = ?1 ORDER BY points DESC, at ASC, name ASC LIMIT ?2",
            )
            .map_err(fail)?;
        let rows = query
            .query_map(params![day, TOP as i64], |row| {
                Ok(DayResult {
                    day: row.get(0)?,
                    name: row.get(1)?,
                    points: row.get(2)?,
                    words: row.get(3)?,
                    longest: row.get(4)?,
                })
            })
            .map_err(fail)?;
        rows.collect::<Result<_, _>>().map_err(fail)
    }

    /// The connection; a panic elsewhere while holding it leaves it usable
    /// (each statement is its own transaction).
    fn lock(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.conn
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// Refuses a file from a newer schema.
fn check_version(path: &Path, found: i64) -> Result<(), StoreError> {
    if found > MIGRATIONS.len() as i64 || found < 0 {
        return Err(StoreError::Newer {
            path: path.to_path_buf(),
            found,
            known: MIGRATIONS.len(),
        });
    }
    Ok(())
}

/// Runs the steps the file has not had, each in an immediate transaction
/// that re-reads the version, so two servers starting together migrate once.
fn migrate(mut conn: Connection, path: &Path) -> Result<Connection, StoreError> {
    let fail = |e| classify(path, e);
    for (step, sql) in MIGRATIONS.iter().enumerate() {
        let target = step as i64 + 1;
        let tx = conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(fail)?;
        let version: i64 = tx
            .query_row("PRAGMA user_version", [], |row| row.get(0))
            .map_err(fail)?;
        check_version(path, version)?;
        if version < target {
            tx.execute_batch(sql).map_err(fail)?;
            tx.pragma_update(None, "user_version", target)
                .map_err(fail)?;
        }
        tx.commit().map_err(fail)?;
    }
    Ok(conn)
}

/// SQLite's error as a [`StoreError`] about `path`.
fn classify(path: &Path, error: rusqlite::Error) -> StoreError {
    let not_a_database = matches!(
        error.sqlite_error_code(),
        Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt)
    );
    if not_a_database {
        StoreError::NotADatabase {
            path: path.to_path_buf(),
        }
    } else {
        StoreError::Io {
            path: path.to_path_buf(),
            source: Box::new(error),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(day: u32, name: &str, points: u32) -> DayResult {
        DayResult {
            day,
            name: name.into(),
            points,
            words: 3,
            longest: 5,
        }
    }

    #[test]
    fn a_reopened_file_keeps_its_rows_and_the_first_result_counts() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("restart");
        let board = Leaderboard::open_dir(&dir).unwrap();
        assert!(board.record(&result(7, "ann", 10)).unwrap());
        assert!(!board.record(&result(7, "ann", 99)).unwrap());
        assert!(board.record(&result(7, "bob", 12)).unwrap());
        assert!(board.record(&result(8, "ann", 1)).unwrap());
        drop(board);
        let board = Leaderboard::open_dir(&dir).unwrap();
        let names: Vec<(String, u32)> = board
            .top(7)
            .unwrap()
            .into_iter()
            .map(|r| (r.name, r.points))
            .collect();
        assert_eq!(names, [("bob".into(), 12), ("ann".into(), 10)]);
    }

    #[test]
    fn the_top_is_ten_long() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("top");
        let board = Leaderboard::open_dir(&dir).unwrap();
        for n in 0..15 {
            board.record(&result(1, &format!("p{n}"), n)).unwrap();
        }
        let top = board.top(1).unwrap();
        assert_eq!(top.len(), TOP);
        assert_eq!(top[0].points, 14);
    }

    #[test]
    fn two_connections_writing_at_once_lose_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("two");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("daily.sqlite");
        // Both open the fresh file together, as two servers started at once.
        let writers: Vec<_> = (0..2)
            .map(|w| {
                let path = path.clone();
                std::thread::spawn(move || {
                    let board = Leaderboard::open(&path).unwrap();
                    for n in 0..100 {
                        board.record(&result(1, &format!("w{w}-{n}"), n)).unwrap();
                    }
                })
            })
            .collect();
        for writer in writers {
            writer.join().unwrap();
        }
        let board = Leaderboard::open(&path).unwrap();
        let count: i64 = board
            .lock()
            .query_row("SELECT count(*) FROM daily_results", [], |r| r.get(0))
            .unwrap();
        assert_eq!(count, 200);
        let ok: String = board
            .lock()
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .unwrap();
        assert_eq!(ok, "ok");
    }

    #[test]
    fn a_file_that_is_not_a_database_is_refused_and_kept() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("garbage");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("daily.sqlite");
        let text = "these are my notes, not a database\n".repeat(200);
        std::fs::write(&path, &text).unwrap();
        let err = Leaderboard::open(&path).unwrap_err();
        assert!(matches!(err, StoreError::NotADatabase { .. }), "{err:?}");
        assert!(!err.to_string().contains('\n'));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    }

    #[test]
    fn a_file_from_a_newer_schema_is_refused_and_kept() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("newer");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("daily.sqlite");
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch("CREATE TABLE future (x); PRAGMA user_version = 99;")
                .unwrap();
        }
        let err = Leaderboard::open(&path).unwrap_err();
        assert!(
            matches!(err, StoreError::Newer { found: 99, .. }),
            "{err:?}"
        );
        let conn = Connection::open(&path).unwrap();
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, 99);
    }
}
