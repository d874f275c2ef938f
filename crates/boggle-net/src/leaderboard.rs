//! The results file (`boggle serve --web --data DIR`: `DIR/daily.sqlite`):
//! each seat's attempt at a day's board and its result, kept in SQLite so a
//! restart keeps the leaderboard and every seat's attempt. Only the store's
//! worker ([`crate::store`]) opens it while serving, so no room or
//! connection ever waits on it.
//!
//! How: rusqlite on its bundled SQLite, in WAL mode with `synchronous =
//! FULL` ([`SYNCHRONOUS`]): a transaction committed is on the disk, so it
//! survives the server killed with SIGKILL and the machine losing power or
//! crashing; each commit costs one sync of the write-ahead log, which the
//! store's group commit shares among every result of a batch. One row per (day,
//! seat): the name the leaderboard lists, the address it played from (for
//! the per-address cap), when it began, and its result once the round
//! ended. The top of a day is read through an index ordered as the
//! leaderboard is (`daily_top`), so it never sorts the day; a row that
//! another program left malformed (points that are text, negative or past
//! `u32`) is skipped and counted, never the day. The schema is numbered by
//! `PRAGMA user_version` and marked by `PRAGMA application_id`
//! ([`APPLICATION_ID`]); [`MIGRATIONS`] brings an older file up to date
//! through rusqlite_migration, every step due in one transaction. Before anything is written, the file
//! is looked at through a read-only connection: a file that is not a
//! database, another program's database (an application id of its own, or
//! tables this program never made), an unknown version (a negative one) or
//! a newer one is refused with a [`StoreError`] and left byte for byte as
//! it was. "Another program's" is anything in the schema this program did
//! not make: a table, an index, and above all a trigger or a view (a
//! trigger could rewrite a played row behind the leaderboard's back). The
//! file and SQLite's files beside it (`-wal`, `-shm`, `-journal`) must be
//! regular files where they exist: a FIFO or a device there would hang
//! SQLite's reads or be retried for ever, so it is refused at start.
//!
//! One server a folder ([`ResultsFile::open_locked`]): the server holds an
//! exclusive advisory lock on `DIR/daily.lock` (std's `File::try_lock`, an
//! `flock` on Linux) while it runs, so a second `serve` on the same `--data`
//! is refused at start instead of writing beside the first, whose copies of
//! the day would no longer be the file's. The lock goes with the process,
//! however it ends; the empty `daily.lock` file stays.
//!
//! Limits: statements run on the caller's thread; the store's worker is
//! the only caller while serving. A write waits [`BUSY`] for another
//! connection's lock, then fails for the worker to try again.

#![expect(
    clippy::disallowed_methods,
    reason = "a row records when it was written"
)]

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rusqlite::types::ValueRef;
use rusqlite::{Connection, ErrorCode, OpenFlags, Row, TransactionBehavior, params};
use rusqlite_migration::{Error as MigrationError, M, Migrations};

pub(crate) use boggle_protocol::DayScore;

/// How long one write waits for another connection's lock before it fails
/// (the store's worker then tries again later).
pub(crate) const BUSY: Duration = Duration::from_millis(250);

/// SQLite's `synchronous` setting for the file: see the module's header.
pub(crate) const SYNCHRONOUS: &str = "FULL";

/// How long opening the file waits for another connection's lock.
const OPEN_BUSY: Duration = Duration::from_secs(5);

/// The most rows [`ResultsFile::top`] gives.
pub(crate) const TOP: usize = 10;

/// How many malformed rows a read of the top steps over before it stops.
const MALFORMED_SCANNED: usize = 1000;

/// What `PRAGMA application_id` holds in this program's files: "Bogg".
pub(crate) const APPLICATION_ID: i64 = 0x426f_6767;

/// The schema's steps: step `n` (from 1) takes `user_version` from `n - 1` to `n`.
pub(crate) const MIGRATIONS: &[&str] = &[
    // 1: a result per (day, name).
    "CREATE TABLE daily_results (
        day INTEGER NOT NULL,
        name TEXT NOT NULL,
        points INTEGER NOT NULL,
        words INTEGER NOT NULL,
        longest INTEGER NOT NULL,
        at INTEGER NOT NULL,
        PRIMARY KEY (day, name)
    )",
    // 2: an attempt per (day, seat), its result once played, the top by an
    // index; the first schema's rows are kept, each its own seat.
    "CREATE TABLE daily_attempts (
        day INTEGER NOT NULL,
        seat TEXT NOT NULL,
        name TEXT NOT NULL,
        address TEXT NOT NULL,
        started INTEGER NOT NULL,
        points INTEGER,
        words INTEGER,
        longest INTEGER,
        finished INTEGER,
        PRIMARY KEY (day, seat)
    );
    INSERT INTO daily_attempts (day, seat, name, address, started, points, words, longest, finished)
        SELECT day, 'name:' || name, name, '', at, points, words, longest, at FROM daily_results;
    DROP TABLE daily_results;
    CREATE INDEX daily_top ON daily_attempts (day, points DESC, finished, seat)
        WHERE points IS NOT NULL;
    PRAGMA application_id = 1114597223;",
];

/// The newest schema version this program knows.
pub(crate) const LATEST: i64 = MIGRATIONS.len() as i64;

/// The schema's objects this program has made, in any version, as
/// `sqlite_master` lists them: (type, name).
const OURS: &[(&str, &str)] = &[
    ("table", "daily_results"),
    ("table", "daily_attempts"),
    ("index", "daily_top"),
];

/// The file whose lock a serving server holds in its `--data` folder.
pub(crate) const LOCK_FILE: &str = "daily.lock";

/// SQLite's files beside the results file, by suffix: each must be a
/// regular file where it exists.
const BESIDE: &[&str] = &["", "-wal", "-shm", "-journal"];

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
        known: i64,
    },
    /// An SQLite database this program did not make, or one whose version
    /// it never wrote: left as it is.
    #[error("{}: not this program's results database ({why}); it was left as it is (move it away or choose another --data)", path.display())]
    Foreign {
        /// The file.
        path: PathBuf,
        /// What gives it away.
        why: String,
    },
    /// The file, or one of SQLite's beside it, is a FIFO, a device or a folder.
    #[error("{}: not a regular file (a FIFO, a device or a folder): move it away or choose another --data", path.display())]
    NotAFile {
        /// The path.
        path: PathBuf,
    },
    /// Another server holds the folder's lock.
    #[error("{}: another boggle serve is using this folder's results (it holds {LOCK_FILE}): stop it, or give this one another --data", dir.display())]
    InUse {
        /// The `--data` folder.
        dir: PathBuf,
    },
    /// The directory cannot be created, or the store's thread started.
    #[error("{}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// SQLite could not open, read or write the file.
    #[error("{}", path.display())]
    Sqlite {
        /// The file.
        path: PathBuf,
        /// What SQLite said.
        source: rusqlite::Error,
    },
    /// The schema's steps could not be run on the file (its version changed
    /// to one this program cannot use after it was looked at).
    #[error("{}: its schema could not be brought up to date", path.display())]
    Migration {
        /// The file.
        path: PathBuf,
        /// What the migration runner said.
        source: rusqlite_migration::Error,
    },
}

/// One seat's attempt at one day's board, as kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Attempt {
    /// The day's number (`boggle daily`).
    pub day: u32,
    /// The seat: the player's token.
    pub seat: String,
    /// The name the leaderboard lists.
    pub name: String,
    /// The address it played from, as the per-address cap counts it.
    pub address: String,
    /// Its result, once its round has ended.
    pub result: Option<DayScore>,
}

/// One row of a day's leaderboard.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub(crate) struct Listed {
    /// The name listed.
    pub name: String,
    /// Points scored.
    pub points: u32,
    /// Words found.
    pub words: u32,
    /// The longest word's length.
    pub longest: u32,
}

/// A day's best results, and how many malformed rows were stepped over.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Top {
    /// At most [`TOP`] rows, most points first, then the earliest.
    pub rows: Vec<Listed>,
    /// Rows skipped as malformed on the way.
    pub skipped: usize,
}

/// A day's attempts as read back, and how many rows were malformed.
#[derive(Clone, Debug, Default)]
pub(crate) struct DayRows {
    /// Every attempt whose seat, name and address could be read.
    pub attempts: Vec<Attempt>,
    /// Rows skipped, or whose result was unreadable (kept as no result).
    pub malformed: usize,
}

/// Seconds since the Unix epoch (0 for a clock set before it).
fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

/// The leaderboard's order, served by the `daily_top` index.
pub(crate) const TOP_QUERY: &str = "SELECT name, points, words, longest FROM daily_attempts \
     WHERE day = ?1 AND points IS NOT NULL ORDER BY points DESC, finished, seat";

/// The results file, open for reading and writing.
#[derive(Debug)]
pub(crate) struct ResultsFile {
    conn: Connection,
    path: PathBuf,
}

impl ResultsFile {
    /// Opens (creating it and its directory if need be) `dir/daily.sqlite`.
    #[cfg(test)]
    pub(crate) fn open_dir(dir: &Path) -> Result<ResultsFile, StoreError> {
        std::fs::create_dir_all(dir).map_err(|source| StoreError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
        ResultsFile::open(&dir.join("daily.sqlite"))
    }

    /// Opens (creating it and its directory if need be) `dir/daily.sqlite`
    /// for a server: with the folder's lock ([`LOCK_FILE`]), taken once the file
    /// is known to be usable and before anything is written. Hold the lock
    /// as long as the file is served.
    pub(crate) fn open_locked(dir: &Path) -> Result<(ResultsFile, FolderLock), StoreError> {
        std::fs::create_dir_all(dir).map_err(|source| StoreError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
        let path = dir.join("daily.sqlite");
        look(&path)?;
        let lock = FolderLock::take(dir)?;
        Ok((ResultsFile::open(&path)?, lock))
    }

    /// Opens the file at `path`, creating it if missing, after looking at it
    /// read-only: one this program cannot use is refused and left as it was.
    pub(crate) fn open(path: &Path) -> Result<ResultsFile, StoreError> {
        look(path)?;
        let fail = |e: rusqlite::Error| classify(path, e);
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags).map_err(fail)?;
        // At start, another server may be migrating the file: wait for it.
        conn.busy_timeout(OPEN_BUSY).map_err(fail)?;
        write_ahead(&conn).map_err(fail)?;
        // Each commit is synced to the disk before the players are told:
        // it survives the process killed (-9) and the machine losing power.
        conn.pragma_update(None, "synchronous", SYNCHRONOUS)
            .map_err(fail)?;
        let conn = migrate(conn, path)?;
        conn.busy_timeout(BUSY).map_err(fail)?;
        Ok(ResultsFile {
            conn,
            path: path.to_path_buf(),
        })
    }

    /// Writes `attempts` in one transaction: a new seat's row, or the
    /// result of a seat that has none yet (a seat's first result stays).
    /// The rows changed.
    pub(crate) fn put(&mut self, attempts: &[Attempt]) -> rusqlite::Result<usize> {
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let mut changed = 0;
        {
            let mut insert = tx.prepare_cached(
                "INSERT INTO daily_attempts \
                 (day, seat, name, address, started, points, words, longest, finished) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?5) \
                 ON CONFLICT (day, seat) DO UPDATE SET points = excluded.points, \
                 words = excluded.words, longest = excluded.longest, finished = excluded.finished \
                 WHERE daily_attempts.points IS NULL AND excluded.points IS NOT NULL",
            )?;
            for a in attempts {
                let r = a.result;
                changed += insert.execute(params![
                    a.day,
                    a.seat,
                    a.name,
                    a.address,
                    now(),
                    r.map(|r| r.points),
                    r.map(|r| r.words),
                    r.map(|r| r.longest),
                ])?;
            }
        }
        tx.commit()?;
        Ok(changed)
    }

    /// The day's best [`TOP`] results, in the index's order, stepping over
    /// malformed rows (at most a thousand of them).
    pub(crate) fn top(&self, day: u32) -> Result<Top, StoreError> {
        let fail = |e| classify(&self.path, e);
        let mut query = self.conn.prepare_cached(TOP_QUERY).map_err(fail)?;
        let mut rows = query.query(params![day]).map_err(fail)?;
        let mut top = Top::default();
        while top.rows.len() < TOP && top.skipped <= MALFORMED_SCANNED {
            let Some(row) = rows.next().map_err(fail)? else {
                break;
            };
            let read = (|| {
                Some(Listed {
                    name: text(row, 0)?,
                    points: count(row, 1)?,
                    words: count(row, 2)?,
                    longest: count(row, 3)?,
                })
            })();
            match read {
                Some(listed) => top.rows.push(listed),
                None => top.skipped += 1,
            }
        }
        Ok(top)
    }

    /// Every attempt of `day`, for the store to hold in memory.
    pub(crate) fn day(&self, day: u32) -> Result<DayRows, StoreError> {
        let fail = |e| classify(&self.path, e);
        let mut query = self
            .conn
            .prepare_cached(
                "SELECT seat, name, address, points, words, longest FROM daily_attempts \
                 WHERE day = ?1",
            )
            .map_err(fail)?;
        let mut rows = query.query(params![day]).map_err(fail)?;
        let mut read = DayRows::default();
        while let Some(row) = rows.next().map_err(fail)? {
            let (Some(seat), Some(name), Some(address)) =
                (text(row, 0), text(row, 1), text(row, 2))
            else {
                read.malformed += 1;
                continue;
            };
            let played = !matches!(row.get_ref(3), Ok(ValueRef::Null));
            let result = (|| {
                Some(DayScore {
                    points: count(row, 3)?,
                    words: count(row, 4)?,
                    longest: count(row, 5)?,
                })
            })();
            if played && result.is_none() {
                read.malformed += 1;
            }
            read.attempts.push(Attempt {
                day,
                seat,
                name,
                address,
                result,
            });
        }
        Ok(read)
    }

    /// The connection, for tests that look inside.
    #[cfg(test)]
    pub(crate) fn conn(&self) -> &Connection {
        &self.conn
    }
}

/// The lock a server holds on its `--data` folder ([`LOCK_FILE`]): released when dropped.
#[derive(Debug)]
pub(crate) struct FolderLock {
    _file: std::fs::File,
}

impl FolderLock {
    /// Takes `dir`'s lock, or says who holds it: [`StoreError::InUse`].
    pub(crate) fn take(dir: &Path) -> Result<FolderLock, StoreError> {
        let path = dir.join(LOCK_FILE);
        let io = |source| StoreError::Io {
            path: path.clone(),
            source,
        };
        regular(&path)?;
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io)?;
        match file.try_lock() {
            Ok(()) => Ok(FolderLock { _file: file }),
            Err(std::fs::TryLockError::WouldBlock) => Err(StoreError::InUse {
                dir: dir.to_path_buf(),
            }),
            Err(std::fs::TryLockError::Error(source)) => Err(io(source)),
        }
    }
}

/// Refuses a path that exists and is not a regular file (a link to one is one).
fn regular(path: &Path) -> Result<(), StoreError> {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() => Ok(()),
        Ok(_) => Err(StoreError::NotAFile {
            path: path.to_path_buf(),
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(source) => Err(StoreError::Io {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// Looks at the results file and SQLite's files beside it before SQLite
/// opens any: each a regular file where it exists, and the results file,
/// if there, one this program can use ([`inspect`]).
fn look(path: &Path) -> Result<(), StoreError> {
    for suffix in BESIDE {
        let mut beside = path.as_os_str().to_owned();
        beside.push(suffix);
        regular(Path::new(&beside))?;
    }
    if path.exists() {
        inspect(path)?;
    }
    Ok(())
}

/// Column `i` as text, if it is.
fn text(row: &Row<'_>, i: usize) -> Option<String> {
    match row.get_ref(i).ok()? {
        ValueRef::Text(bytes) => String::from_utf8(bytes.to_vec()).ok(),
        _ => None,
    }
}

/// Column `i` as a count, if it is an integer from 0 to `u32::MAX`.
fn count(row: &Row<'_>, i: usize) -> Option<u32> {
    match row.get_ref(i).ok()? {
        ValueRef::Integer(n) => u32::try_from(n).ok(),
        _ => None,
    }
}

/// Looks at an existing file through a read-only connection: refuses what
/// is not this program's, or of a version it cannot use.
fn inspect(path: &Path) -> Result<(), StoreError> {
    let fail = |e: rusqlite::Error| classify(path, e);
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(path, flags).map_err(fail)?;
    // Another connection may be creating the file's schema this moment.
    conn.busy_timeout(OPEN_BUSY).map_err(fail)?;
    let pragma = |name: &str| -> Result<i64, StoreError> {
        conn.query_row(&format!("PRAGMA {name}"), [], |row| row.get(0))
            .map_err(fail)
    };
    let application = pragma("application_id")?;
    let version = pragma("user_version")?;
    // SQLite's own objects (`sqlite_` names, which no statement may make) aside.
    let mut query = conn
        .prepare(
            "SELECT type, name FROM sqlite_master \
             WHERE substr(name, 1, 7) != 'sqlite_' ORDER BY name",
        )
        .map_err(fail)?;
    let objects: Vec<(String, String)> = query
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
        .map_err(fail)?
        .collect::<Result<_, _>>()
        .map_err(fail)?;
    let names: Vec<&String> = objects.iter().map(|(_, name)| name).collect();
    let foreign = |why: String| StoreError::Foreign {
        path: path.to_path_buf(),
        why,
    };
    if application != 0 && application != APPLICATION_ID {
        return Err(foreign(format!(
            "it is marked as another program's, application id {application}"
        )));
    }
    let others: Vec<String> = objects
        .iter()
        .filter(|(kind, name)| !OURS.contains(&(kind.as_str(), name.as_str())))
        .map(|(kind, name)| format!("{kind} {name}"))
        .collect();
    if !others.is_empty() {
        return Err(foreign(format!("it holds {}", others.join(", "))));
    }
    if version < 0 || (version > 0 && names.is_empty()) {
        return Err(foreign(format!(
            "schema version {version}, which this program never wrote"
        )));
    }
    if version > LATEST {
        return Err(StoreError::Newer {
            path: path.to_path_buf(),
            found: version,
            known: LATEST,
        });
    }
    if version == 0 && !names.is_empty() {
        return Err(foreign("tables without a schema version".to_string()));
    }
    Ok(())
}

/// Runs the steps the file has not had (rusqlite_migration, by `PRAGMA
/// user_version`: version `n` after step `n`), all of them in one immediate
/// transaction. Two servers starting together on one file: the library reads
/// the version before its transaction, so the one that read it before the
/// other committed fails on the tables made meanwhile (its transaction rolled
/// back), and its second try finds the file up to date.
fn migrate(mut conn: Connection, path: &Path) -> Result<Connection, StoreError> {
    let steps = Migrations::new(MIGRATIONS.iter().map(|sql| M::up(sql)).collect());
    conn.set_transaction_behavior(TransactionBehavior::Immediate);
    let migrated = steps
        .to_latest(&mut conn)
        .or_else(|_| steps.to_latest(&mut conn));
    conn.set_transaction_behavior(TransactionBehavior::Deferred);
    match migrated {
        Ok(()) => Ok(conn),
        Err(MigrationError::RusqliteError { err, .. }) => Err(classify(path, err)),
        // A version out of range: the file changed after `inspect` looked.
        Err(source) => Err(StoreError::Migration {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// How many times opening tries to put the file in WAL mode.
const WAL_TRIES: usize = 5;

/// Puts the file in WAL mode. Two connections switching a fresh file at the
/// same moment can each hold the lock the other waits for; SQLite answers
/// one of them busy at once instead of waiting out its busy timeout, and
/// releases its lock, so that one tries again (and then waits as usual).
fn write_ahead(conn: &Connection) -> rusqlite::Result<()> {
    let mut tries = 1;
    loop {
        match conn.pragma_update(None, "journal_mode", "WAL") {
            Err(e)
                if e.sqlite_error_code() == Some(ErrorCode::DatabaseBusy) && tries < WAL_TRIES =>
            {
                tries += 1;
            }
            done => return done,
        }
    }
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
        StoreError::Sqlite {
            path: path.to_path_buf(),
            source: error,
        }
    }
}

#[cfg(test)]
mod tests;
