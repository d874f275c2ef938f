//! The player's records: games played and best score per preset, board size,
//! dictionary and time limit, in one small text file in the user's data
//! directory (`$XDG_DATA_HOME/boggle/records.tsv`, else
//! `~/.local/share/boggle/records.tsv`).
//!
//! Every read–modify–write holds an exclusive lock on `records.tsv.lock`
//! beside it, so two games ending together both count. A save writes a
//! temporary file with a random name (created new, never through a link),
//! syncs it and renames it over the old one, so a kill at any moment leaves
//! either the old records or the new ones. Only a regular file of at most
//! [`MAX_FILE_BYTES`] is read, opened without blocking, so a FIFO or a device
//! at the path cannot hang the game or fill memory. A file that cannot be read
//! is left alone and the game is not recorded; one that is read but is not
//! records is moved aside to a numbered `records.tsv.corrupt` and the records
//! start afresh.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::play::xdg::data_dir_here;
use boggle_files::directory;

/// The first line of a records file, naming its format.
const HEADER: &str = "boggle records 1";

/// Largest records file read. A real one is a few kB (one short line per
/// preset, size, dictionary and time); the cap bounds memory when the path
/// names something huge or endless.
pub(crate) const MAX_FILE_BYTES: u64 = 1024 * 1024;

/// How many `.corrupt` backups are kept before corrupt files are left in place.
const MAX_BACKUPS: u32 = 1000;

/// What a record is kept for: one line of the file.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct RecordKey {
    /// The preset's name.
    pub(crate) preset: String,
    /// `RxC`.
    pub(crate) size: String,
    /// The dictionary: a readable name and its content's [`fingerprint`]
    /// (`words.txt@1a2b3c4d5e6f7a8b`, see [`dictionary_label`]). Files written
    /// before fingerprints hold a bare name, which still loads.
    pub(crate) dictionary: String,
    /// `m:ss`, or `untimed`.
    pub(crate) time: String,
}

impl RecordKey {
    /// How the key reads to a player: `project4 4x4 words.txt@1a2b3c4d5e6f7a8b 3:00`.
    #[cfg(test)]
    pub(crate) fn describe(&self) -> String {
        format!(
            "{} {} {} {}",
            self.preset, self.size, self.dictionary, self.time
        )
    }

    fn is_clean(&self) -> bool {
        [&self.preset, &self.size, &self.dictionary, &self.time]
            .iter()
            .all(|field| !field.is_empty() && !field.contains(['\t', '\n', '\r']))
    }
}

/// A stable fingerprint of a word list's content: FNV-1a 64 over each word
/// followed by a newline, in the order given (pass `Dictionary::words()`, which
/// is sorted). Fixed, unlike the std or `ahash` hashers, which are seeded per
/// process: the same list gives the same key in every run and on every machine.
pub(crate) fn fingerprint<'a>(words: impl IntoIterator<Item = &'a str>) -> u64 {
    const OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut hash = OFFSET_BASIS;
    for word in words {
        for &byte in word.as_bytes().iter().chain(b"\n") {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(PRIME);
        }
    }
    hash
}

/// The dictionary field of a [`RecordKey`]: `name@` and the fingerprint in 16
/// hex digits. The content decides which record a game counts for; the name
/// is only for reading, so control characters in it (a tab would split the
/// line) become `?`.
pub(crate) fn dictionary_label(name: &str, fingerprint: u64) -> String {
    let name: String = name
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    format!("{name}@{fingerprint:016x}")
}

/// Games played and the best score for one key.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Record {
    /// Games finished.
    pub(crate) played: u64,
    /// Best score.
    pub(crate) best: u32,
}

/// Every record, by key.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Records {
    entries: BTreeMap<RecordKey, Record>,
}

/// The records and anything the player should hear about reading them.
#[derive(Debug)]
pub(crate) struct Loaded {
    /// The records (empty when there was no file, or it was set aside).
    pub(crate) records: Records,
    /// A warning: the file was corrupt and was set aside.
    pub(crate) warning: Option<String>,
}

/// The outcome of [`Records::update`]: the records were saved.
#[derive(Debug)]
pub(crate) struct Updated<T> {
    /// What the change returned.
    pub(crate) value: T,
    /// A warning: the old file was corrupt and was set aside.
    pub(crate) warning: Option<String>,
}

/// Why the records could not be read or saved; the file on disk is unchanged.
#[derive(Debug, thiserror::Error)]
pub(crate) enum RecordsError {
    /// The records path ends in no file name (`/`, `..`).
    #[error("the records path {} names no file", path.display())]
    NoFileName {
        /// The records path.
        path: PathBuf,
    },
    /// The directory or the lock file could not be created, opened or locked.
    #[error("cannot lock the records with {}", path.display())]
    Lock {
        /// The lock file.
        path: PathBuf,
        /// What the operating system said.
        source: io::Error,
    },
    /// The records file or its lock is not a regular file (a directory, a
    /// FIFO, a device): it is left as it is and nothing is saved over it.
    #[error("{} is not a regular file (left as it is)", path.display())]
    NotAFile {
        /// The records file or its lock.
        path: PathBuf,
    },
    /// The records file exists but could not be read: it is left as it is
    /// and nothing is saved over it.
    #[error("cannot read the records in {} (left as it is)", path.display())]
    Read {
        /// The records file.
        path: PathBuf,
        /// What the operating system said.
        source: io::Error,
    },
    /// The file is corrupt and could not be moved aside, so it is left as it is.
    #[error(
        "the records in {} are corrupt and could not be moved aside (left as they are)",
        path.display()
    )]
    SetAside {
        /// The records file.
        path: PathBuf,
        /// What the operating system said.
        source: io::Error,
    },
    /// The file is corrupt and every name to move it aside to is taken by an
    /// earlier backup, so it is left as it is.
    #[error(
        "the records in {} are corrupt and {MAX_BACKUPS} corrupt backups are already there \
         (left as they are)",
        path.display()
    )]
    NoBackupLeft {
        /// The records file.
        path: PathBuf,
    },
    /// The new records could not be written; the old file is unchanged.
    #[error("cannot save the records to {}", path.display())]
    Write {
        /// The records file.
        path: PathBuf,
        /// What the operating system said.
        source: io::Error,
    },
}

impl Records {
    /// The record for `key`, if any game was recorded under it.
    #[cfg(test)]
    pub(crate) fn get(&self, key: &RecordKey) -> Option<Record> {
        self.entries.get(key).copied()
    }

    /// Counts a finished game scoring `score`; returns the new record and whether the score is a new best.
    pub(crate) fn add_game(&mut self, key: RecordKey, score: u32) -> (Record, bool) {
        let record = self.entries.entry(key).or_default();
        let new_best = record.played == 0 || score > record.best;
        record.played = record.played.saturating_add(1);
        record.best = record.best.max(score);
        (*record, new_best)
    }

    /// Parses a records file; `None` if any line is malformed.
    pub(crate) fn parse(text: &str) -> Option<Records> {
        let mut lines = text.lines();
        if lines.next() != Some(HEADER) {
            return None;
        }
        let mut entries = BTreeMap::new();
        for line in lines {
            let fields: Vec<&str> = line.split('\t').collect();
            let [preset, size, dictionary, time, played, best] = fields[..] else {
                return None;
            };
            let key = RecordKey {
                preset: preset.to_string(),
                size: size.to_string(),
                dictionary: dictionary.to_string(),
                time: time.to_string(),
            };
            let record = Record {
                played: played.parse().ok()?,
                best: best.parse().ok()?,
            };
            if !key.is_clean() {
                return None;
            }
            entries.insert(key, record);
        }
        Some(Records { entries })
    }

    /// The file's text.
    pub(crate) fn to_text(&self) -> String {
        let mut text = format!("{HEADER}\n");
        for (key, record) in &self.entries {
            if key.is_clean() {
                text.push_str(&format!(
                    "{}\t{}\t{}\t{}\t{}\t{}\n",
                    key.preset, key.size, key.dictionary, key.time, record.played, record.best
                ));
            }
        }
        text
    }
    /// Reads the records at `path` under the lock. A missing file is no
    /// records; a corrupt one is moved aside to a numbered `<path>.corrupt`
    /// and reported; an unreadable one is an error and left as it is.
    #[cfg(test)]
    pub(crate) fn load(path: &Path) -> Result<Loaded, RecordsError> {
        locked(path, || read_or_set_aside(path, read_capped))
    }

    /// Reads the records at `path`, applies `change` and saves the result,
    /// all under the lock, so a game ending at the same moment in another
    /// process waits instead of being lost. Stale temporary files from killed
    /// saves are removed first. Nothing is saved if the file could not be read.
    pub(crate) fn update<T>(
        path: &Path,
        change: impl FnOnce(&mut Records) -> T,
    ) -> Result<Updated<T>, RecordsError> {
        update_with(path, read_capped, change)
    }
}

/// [`Records::update`] with the file read through `read`, so tests can make the read fail.
fn update_with<T>(
    path: &Path,
    read: impl FnOnce(&Path) -> Result<Option<Vec<u8>>, RecordsError>,
    change: impl FnOnce(&mut Records) -> T,
) -> Result<Updated<T>, RecordsError> {
    locked(path, || {
        remove_stale_temps(path);
        let Loaded {
            mut records,
            warning,
        } = read_or_set_aside(path, read)?;
        let value = change(&mut records);
        write_atomically(path, records.to_text().as_bytes()).map_err(|source| {
            RecordsError::Write {
                path: path.to_path_buf(),
                source,
            }
        })?;
        Ok(Updated { value, warning })
    })
}

/// How long a save or a load waits for another process to let go of the
/// lock: a save takes milliseconds, so one held longer is held by something
/// else, and the game says the records were not saved rather than hang.
pub(crate) const LOCK_WAIT: Duration = Duration::from_secs(3);

/// Runs `body` holding an exclusive `flock` on `<path>.lock`, creating the
/// records' directory first. Waits up to [`LOCK_WAIT`] for another
/// process's save, never blocked in the kernel (so every signal is handled
/// as it comes); the kernel drops the lock if a process dies holding it, so a
/// killed game never leaves it held. The lock file is never removed: removing
/// it while another process waits on it would let a third lock a new one.
fn locked<T>(
    path: &Path,
    body: impl FnOnce() -> Result<T, RecordsError>,
) -> Result<T, RecordsError> {
    let lock_path = sibling(path, ".lock");
    let fail = |source| RecordsError::Lock {
        path: lock_path.clone(),
        source,
    };
    if path.file_name().is_none() {
        return Err(RecordsError::NoFileName {
            path: path.to_path_buf(),
        });
    }
    fs::create_dir_all(directory(path)).map_err(fail)?;
    let mut options = OpenOptions::new();
    options.write(true).create(true);
    // A link or a FIFO planted at the lock's path is an error, not a hang or a write elsewhere.
    let file = special_flags(&mut options, Links::Refuse)
        .open(&lock_path)
        .map_err(fail)?;
    if !file.metadata().map_err(fail)?.is_file() {
        return Err(RecordsError::NotAFile { path: lock_path });
    }
    let _locked = lock_within(file, LOCK_WAIT).map_err(fail)?;
    body()
}

/// Takes an exclusive lock on `file`, waiting at most `wait`; the file
/// comes back holding it (closing the file lets go). The wait is in the
/// kernel, which wakes waiters in turn, but on a thread of its own, so this
/// thread sees every signal and gives up in time; a lock taken after it gave
/// up is let go at once, when the waiting thread finds nobody to give it to.
fn lock_within(file: File, wait: Duration) -> io::Result<File> {
    let (give, take) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut lock = fd_lock::RwLock::new(file);
        let locked = loop {
            match lock.write() {
                Ok(guard) => {
                    // The lock is the open file's: it stays held until the file is closed.
                    std::mem::forget(guard);
                    break Ok(());
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => break Err(e),
            }
        };
        let _ = give.send(locked.map(|()| lock.into_inner()));
    });
    match take.recv_timeout(wait) {
        Ok(locked) => locked,
        Err(_) => Err(io::Error::new(
            io::ErrorKind::TimedOut,
            format!("another process has held it for {} s", wait.as_secs()),
        )),
    }
}

/// Whether opening a path goes through a symbolic link there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Links {
    /// Open what the link points to.
    Follow,
    /// Fail on a link (`O_NOFOLLOW`).
    Refuse,
}

/// Adds `O_NONBLOCK` (and `O_NOFOLLOW` under [`Links::Refuse`]) on Unix:
/// opening a FIFO for reading then returns at once instead of waiting for a writer.
fn special_flags(options: &mut OpenOptions, links: Links) -> &mut OpenOptions {
    #[cfg(unix)]
    {
        use rustix::fs::OFlags;
        use std::os::unix::fs::OpenOptionsExt;
        let follow = match links {
            Links::Refuse => OFlags::NOFOLLOW,
            Links::Follow => OFlags::empty(),
        };
        options.custom_flags((OFlags::NONBLOCK | follow).bits() as i32);
    }
    #[cfg(not(unix))]
    let _ = links;
    options
}

/// The records file's bytes, `None` if there is none. Only a regular file is
/// read (a FIFO, a device or a directory is [`RecordsError::NotAFile`]), and
/// at most one byte more than [`MAX_FILE_BYTES`], so the caller can tell it
/// was too large.
fn read_capped(path: &Path) -> Result<Option<Vec<u8>>, RecordsError> {
    let fail = |source| RecordsError::Read {
        path: path.to_path_buf(),
        source,
    };
    let mut options = OpenOptions::new();
    options.read(true);
    // Links are followed: a player may keep the records in a synced folder.
    let file = match special_flags(&mut options, Links::Follow).open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(fail(e)),
    };
    if !file.metadata().map_err(fail)?.is_file() {
        return Err(RecordsError::NotAFile {
            path: path.to_path_buf(),
        });
    }
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(fail)?;
    Ok(Some(bytes))
}

/// Reads the records through `read` (the lock is held). A read error (a
/// missing file is none) is returned and the file is left alone, so the caller
/// never saves over records it could not see; a file that is read but is not
/// records is moved aside (never over an earlier backup) and the records
/// start afresh.
fn read_or_set_aside(
    path: &Path,
    read: impl FnOnce(&Path) -> Result<Option<Vec<u8>>, RecordsError>,
) -> Result<Loaded, RecordsError> {
    let fresh = |warning: Option<String>| Loaded {
        records: Records::default(),
        warning,
    };
    let Some(bytes) = read(path)? else {
        return Ok(fresh(None));
    };
    let parsed = if bytes.len() as u64 > MAX_FILE_BYTES {
        None
    } else {
        std::str::from_utf8(&bytes).ok().and_then(Records::parse)
    };
    if let Some(records) = parsed {
        return Ok(Loaded {
            records,
            warning: None,
        });
    }
    let aside = set_aside(path)?;
    Ok(fresh(Some(format!(
        "the records in {} were corrupt; moved them to {} and started afresh",
        path.display(),
        aside.display()
    ))))
}

/// Renames the corrupt file to the first free name of `<path>.corrupt`,
/// `<path>.corrupt.2`, `<path>.corrupt.3`, …: a second corrupt file never
/// replaces the first one's backup. Free is checked under the lock, which
/// every saver holds.
fn set_aside(path: &Path) -> Result<PathBuf, RecordsError> {
    let fail = |source| RecordsError::SetAside {
        path: path.to_path_buf(),
        source,
    };
    for n in 1..=MAX_BACKUPS {
        let aside = if n == 1 {
            sibling(path, ".corrupt")
        } else {
            sibling(path, &format!(".corrupt.{n}"))
        };
        match fs::symlink_metadata(&aside) {
            Ok(_) => continue,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                fs::rename(path, &aside).map_err(fail)?;
                return Ok(aside);
            }
            Err(e) => return Err(fail(e)),
        }
    }
    Err(RecordsError::NoBackupLeft {
        path: path.to_path_buf(),
    })
}

/// The prefix of every temporary file a save writes beside `path`.
fn temp_prefix(path: &Path) -> OsString {
    let mut prefix = path.file_name().unwrap_or_default().to_os_string();
    prefix.push(".tmp");
    prefix
}

/// Removes temporary files left by saves that were killed (the lock is held).
/// Every save holds the lock while its temporary file exists, so any one seen
/// now is stale. Only the entries are removed: a planted link is unlinked,
/// its target untouched. Failures are ignored: a leftover costs only space.
fn remove_stale_temps(path: &Path) {
    let prefix = temp_prefix(path);
    let Ok(entries) = fs::read_dir(directory(path)) else {
        return;
    };
    for entry in entries.flatten() {
        let stale = entry
            .file_name()
            .as_encoded_bytes()
            .starts_with(prefix.as_encoded_bytes());
        if stale && entry.file_type().is_ok_and(|t| !t.is_dir()) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Writes `bytes` to `path` atomically (the lock is held): a temporary file
/// with a random name, created new (so never through a planted link), synced,
/// then renamed over `path`. A failure removes the temporary file. A records
/// file that is a symbolic link (one kept with a user's other settings) stays
/// one: its target is what is replaced.
fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let is_link = fs::symlink_metadata(path).is_ok_and(|meta| meta.file_type().is_symlink());
    let target = if is_link {
        match fs::canonicalize(path) {
            Ok(target) => target,
            // A link to a file not made yet: the file is made where it points.
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                directory(path).join(fs::read_link(path)?)
            }
            Err(e) => return Err(e),
        }
    } else {
        path.to_path_buf()
    };
    let path = target.as_path();
    boggle_files::replace_whole(path, &temp_prefix(path), bytes)
}

/// `path` with `suffix` added to its file name.
fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(suffix);
    path.with_file_name(name)
}

/// Where the records live: `$XDG_DATA_HOME/boggle/records.tsv`, else
/// `$HOME/.local/share/boggle/records.tsv`; `None` if neither variable is set.
pub(crate) fn default_path() -> Option<PathBuf> {
    data_dir_here().map(|dir| dir.join("records.tsv"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh folder `name` in a temporary directory (kept while the first
    /// value lives), and the path of a records file in it.
    fn records_in(name: &str) -> (tempfile::TempDir, PathBuf, PathBuf) {
        let tmp = tempfile::tempdir().expect("a temporary directory");
        let dir = tmp.path().join(name);
        fs::create_dir_all(&dir).expect("creates");
        let path = dir.join("records.tsv");
        (tmp, dir, path)
    }

    fn key(time: &str) -> RecordKey {
        RecordKey {
            preset: "project4".into(),
            size: "4x4".into(),
            dictionary: "built-in".into(),
            time: time.into(),
        }
    }

    #[test]
    fn games_count_and_best_scores_keep_the_maximum() {
        let mut records = Records::default();
        assert_eq!(
            records.add_game(key("3:00"), 10),
            (
                Record {
                    played: 1,
                    best: 10
                },
                true
            )
        );
        assert_eq!(
            records.add_game(key("3:00"), 4),
            (
                Record {
                    played: 2,
                    best: 10
                },
                false
            )
        );
        assert_eq!(
            records.add_game(key("untimed"), 0),
            (Record { played: 1, best: 0 }, true)
        );
        assert_eq!(
            records.to_text(),
            "boggle records 1\nproject4\t4x4\tbuilt-in\t3:00\t2\t10\nproject4\t4x4\tbuilt-in\tuntimed\t1\t0\n"
        );
        assert_eq!(Records::parse(&records.to_text()), Some(records));
    }

    #[test]
    fn saves_and_loads_through_a_file() {
        let tmp = tempfile::tempdir().expect("a temporary directory");
        let dir = tmp.path().join("round-trip");
        let path = dir.join("nested").join("records.tsv");
        let loaded = Records::load(&path).expect("loads");
        assert_eq!((loaded.records, loaded.warning), (Records::default(), None));
        let updated = Records::update(&path, |records| {
            records.add_game(key("1:00"), 7);
            records.clone()
        })
        .expect("saves");
        assert!(updated.warning.is_none());
        let loaded = Records::load(&path).expect("loads");
        assert_eq!(loaded.records, updated.value);
        assert!(loaded.warning.is_none());
        let mut names: Vec<_> = fs::read_dir(directory(&path))
            .expect("lists")
            .map(|entry| entry.expect("an entry").file_name())
            .collect();
        names.sort();
        assert_eq!(
            names,
            ["records.tsv", "records.tsv.lock"],
            "no temporary file is left behind"
        );
    }

    #[test]
    fn every_corrupt_file_is_set_aside_and_kept() {
        let (_tmp, _, path) = records_in("corrupt");
        let junks = [
            &b"boggle records 1\nproject4\t4x4\n"[..],
            b"\xff\xfe",
            b"not records",
            b"",
        ];
        for junk in junks {
            fs::write(&path, junk).expect("writes");
            let loaded = Records::load(&path).expect("loads");
            assert_eq!(loaded.records, Records::default());
            let warning = loaded.warning.expect("warns");
            assert!(warning.contains("were corrupt; moved them to"), "{warning}");
            assert!(!path.exists());
        }
        // A later corrupt file never replaces an earlier one's backup.
        let backups = [".corrupt", ".corrupt.2", ".corrupt.3", ".corrupt.4"];
        for (junk, suffix) in junks.iter().zip(backups) {
            assert_eq!(&fs::read(sibling(&path, suffix)).expect("kept"), junk);
        }
    }

    #[test]
    fn an_unreadable_file_is_never_saved_over() {
        let (_tmp, _, path) = records_in("unreadable");
        let old = "boggle records 1\nproject4\t4x4\tbuilt-in\t3:00\t290\t41\n";
        fs::write(&path, old).expect("writes");
        // As root nothing denies a read, so the failing read is injected.
        let denied = |path: &Path| {
            Err(RecordsError::Read {
                path: path.to_path_buf(),
                source: io::Error::from(io::ErrorKind::PermissionDenied),
            })
        };
        let result = update_with(&path, denied, |records| records.add_game(key("3:00"), 1));
        let Err(e @ RecordsError::Read { .. }) = result else {
            panic!("an unreadable file is an error: {result:?}");
        };
        assert!(e.to_string().contains("records.tsv (left as it is)"), "{e}");
        assert_eq!(fs::read_to_string(&path).expect("still there"), old);
        // A directory in the file's place is not a regular file: left alone too.
        fs::remove_file(&path).expect("removes");
        fs::create_dir(&path).expect("a directory");
        let result = Records::update(&path, |records| records.add_game(key("3:00"), 1));
        assert!(
            matches!(&result, Err(RecordsError::NotAFile { path: named }) if *named == path),
            "{result:?}"
        );
        assert!(path.is_dir());
    }

    #[test]
    fn a_save_removes_temporary_files_left_by_killed_saves() {
        let (_tmp, dir, path) = records_in("stale");
        for name in ["records.tsv.tmp4242", "records.tsv.tmpAbC123", "notes.txt"] {
            fs::write(dir.join(name), "left over").expect("writes");
        }
        Records::update(&path, |records| records.add_game(key("3:00"), 1)).expect("saves");
        assert!(!dir.join("records.tsv.tmp4242").exists());
        assert!(!dir.join("records.tsv.tmpAbC123").exists());
        assert!(dir.join("notes.txt").exists(), "other files are kept");
    }

    #[cfg(unix)]
    #[test]
    fn the_temporary_file_is_never_opened_through_a_planted_link() {
        let (_tmp, dir, path) = records_in("planted");
        let victim = dir.join("victim");
        fs::write(&victim, "precious").expect("writes");
        // The name the old saver used; the random names cannot be guessed.
        let planted = sibling(&path, &format!(".tmp{}", std::process::id()));
        std::os::unix::fs::symlink(&victim, &planted).expect("links");
        write_atomically(&path, b"new").expect("writes");
        assert_eq!(fs::read_to_string(&victim).expect("reads"), "precious");
        assert_eq!(fs::read_to_string(&path).expect("reads"), "new");
    }

    #[test]
    fn reads_stop_past_the_cap() {
        let (_tmp, _, path) = records_in("cap");
        // Sparse: 64 MiB on paper, nothing on disk.
        File::create(&path)
            .and_then(|file| file.set_len(64 * MAX_FILE_BYTES))
            .expect("a large file");
        let bytes = read_capped(&path).expect("reads").expect("present");
        assert_eq!(bytes.len() as u64, MAX_FILE_BYTES + 1);
    }

    #[test]
    fn fingerprints_are_fnv_1a_of_the_words_and_fixed() {
        assert_eq!(fingerprint([]), 0xcbf2_9ce4_8422_2325);
        // Pinned from an independent FNV-1a 64 of "A\n" and "CAT\nDOG\n".
        assert_eq!(fingerprint(["A"]), 0x0908_9c07_b5a1_4cd2);
        assert_eq!(fingerprint(["CAT", "DOG"]), 0x975a_f979_a7cd_3a3f);
        // Word boundaries count: CA+T is not C+AT.
        assert_ne!(fingerprint(["CA", "T"]), fingerprint(["C", "AT"]));
        assert_eq!(
            dictionary_label("a\tb\nc.txt", 0xab),
            "a?b?c.txt@00000000000000ab"
        );
    }

    #[test]
    fn old_files_keyed_by_a_bare_name_still_load() {
        let old = "boggle records 1\nproject4\t4x4\tdefault\t3:00\t12\t40\n";
        let records = Records::parse(old).expect("an old file parses");
        let new_key = RecordKey {
            dictionary: dictionary_label("built-in", 0x1234),
            ..key("3:00")
        };
        let old_key = RecordKey {
            dictionary: "default".into(),
            ..key("3:00")
        };
        assert_eq!(
            records.get(&old_key),
            Some(Record {
                played: 12,
                best: 40
            })
        );
        assert_eq!(records.get(&new_key), None, "old keys match no new one");
        let mut records = records;
        records.add_game(new_key, 3);
        assert_eq!(
            records.to_text(),
            "boggle records 1\nproject4\t4x4\tbuilt-in@0000000000001234\t3:00\t1\t3\n\
             project4\t4x4\tdefault\t3:00\t12\t40\n"
        );
    }
}
