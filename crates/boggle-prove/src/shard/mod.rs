//! Splitting a proof over shards and putting it back together: which classes
//! shard I of N owns, the files a shard writes (its settings, one ndjson line
//! per finished class, a completion marker), resuming a shard from its file,
//! and merging the shards of one proof into its result.
//!
//! In `DIR`, shard I of N writes `shard-I-of-N.params.json` when it starts,
//! appends `shard-I-of-N.ndjson` one whole line per class as it goes, and
//! writes `shard-I-of-N.done` (by a rename) when every class is in. A shard
//! killed mid-line leaves a partial last line, which `--resume` cuts off.
//! A run holds an advisory lock on its `.ndjson` (`flock` on Unix, through
//! [`std::fs::File::try_lock`]) from before it touches any of the shard's
//! files until it exits, so a second run of the same shard (two overlapping
//! retries of a batch task) stops at once instead of interleaving its lines.
//!
//! Nothing in the files is trusted: settings are checked field by field
//! (`params`), every line is checked before it counts (`records`), a class
//! on several lines counts once, files are opened only if regular and read
//! up to a cap (`files`), and `merge` checks the shards against each other.
//!
//! Limits: resuming and merging keep each class's record in memory (the
//! 4x4 proof's 1,068,363 lines are about 100 MB); the dictionary is
//! recognised by its word count and an FNV-1a hash, which catches another
//! word list, not a forged one; the caps are in `limits`.

mod files;
mod merge;
mod params;
mod records;

use std::fs::{self, File, TryLockError};
use std::io::{BufReader, Read, Write};
use std::path::{Path, PathBuf};

pub use merge::{Merged, Proof, survey};
pub use params::{Origin, Params};
pub use records::{Checker, ShardRecords};

use super::{ClassRecord, ProveError};
use crate::error::ThreadsError;
use crate::limits::{MAX_PARAMS_BYTES, MAX_RECORDS_BYTES};
use files::io_error;
use records::{Done, Line};

/// Shard `index` of `count`: the groups of classes at positions `index`,
/// `index + count`, ... of the groups in increasing id order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// This shard, from 0.
    pub index: u32,
    /// How many shards there are.
    pub count: u32,
}

impl Shard {
    /// The whole proof as one shard.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// Parses `I/N` with `0 <= I < N`.
    pub fn parse(text: &str) -> Result<Shard, ProveError> {
        let bad = || ProveError::Shard {
            given: text.to_string(),
        };
        let (index, count) = text.split_once('/').ok_or_else(bad)?;
        let index: u32 = index.trim().parse().map_err(|_| bad())?;
        let count: u32 = count.trim().parse().map_err(|_| bad())?;
        if index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// Checks that a proof of `groups` groups can be split this way: each
    /// shard proves whole groups, so there are at most as many shards.
    pub fn check(&self, groups: usize) -> Result<(), ProveError> {
        if self.count as usize > groups.max(1) {
            return Err(ProveError::TooManyShards {
                count: self.count,
                groups,
            });
        }
        Ok(())
    }

    /// This shard's share of `groups` (whole groups, so each is collected once).
    pub fn select<T: Clone>(&self, groups: &[T]) -> Vec<T> {
        groups
            .iter()
            .skip(self.index as usize)
            .step_by(self.count.max(1) as usize)
            .cloned()
            .collect()
    }

    /// The files' names without their extensions: `shard-I-of-N`.
    pub fn stem(&self) -> String {
        format!("shard-{}-of-{}", self.index, self.count)
    }
}

/// What `--resume` found in a shard's file.
#[derive(Debug, Default)]
pub struct Resumed {
    /// The classes already done, each once, by class.
    pub records: Vec<ClassRecord>,
    /// Lines that repeated a class already read, with the same bound and
    /// boards (two runs of the shard that overlapped): ignored.
    pub repeats: usize,
    /// Whether a partial last line (a run killed while writing it) was cut off.
    pub cut: bool,
}

/// A shard's files in its output directory, locked and open for appending records.
#[derive(Debug)]
pub struct ShardFiles {
    shard: Shard,
    dir: PathBuf,
    /// The records, open for appending, and holding the shard's lock.
    records: std::sync::Mutex<File>,
    path: PathBuf,
}

impl ShardFiles {
    /// Locks shard `shard`'s files in `dir` and opens them for a proof with
    /// `params`. With `resume`, returns the records already there, each
    /// checked by `checker` (a partial last line is cut off; repeats are
    /// counted and dropped); without, starts the shard afresh. A resumed
    /// shard run with other parameters is an error, unless it has no
    /// records file yet (then it starts afresh too).
    pub fn open(
        dir: &Path,
        shard: Shard,
        params: &Params,
        resume: bool,
        checker: &mut Checker<'_>,
    ) -> Result<(ShardFiles, Resumed), ProveError> {
        fs::create_dir_all(dir).map_err(io_error(dir))?;
        let stem = shard.stem();
        let params_path = dir.join(format!("{stem}.params.json"));
        let path = dir.join(format!("{stem}.ndjson"));
        let done_path = dir.join(format!("{stem}.done"));
        let existed = files::refuse_special(&path)?;
        let file = files::options()
            .read(true)
            .append(true)
            .create(true)
            .open(&path)
            .map_err(io_error(&path))?;
        let length = files::check_opened(&file, &path, u64::MAX)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => return Err(ProveError::Locked { path }),
            Err(TryLockError::Error(source)) => return Err(ProveError::Io { path, source }),
        }
        let mut resumed = Resumed::default();
        let settings = files::read_regular(&params_path, MAX_PARAMS_BYTES)?;
        if resume && length > 0 && settings.is_none() {
            // Starting over would throw away every record (hours of CPU).
            return Err(ProveError::NoSettings {
                records: path,
                settings: params_path,
            });
        }
        let old = match (resume && existed, settings) {
            (true, Some(bytes)) => {
                Some(Params::parse(&bytes).map_err(|reason| ProveError::Params {
                    path: params_path.clone(),
                    reason,
                })?)
            }
            _ => None,
        };
        match old {
            Some(old) => {
                let fields = old.differences(params);
                if !fields.is_empty() {
                    return Err(ProveError::Mismatch {
                        first: params_path,
                        second: None,
                        fields,
                    });
                }
                files::check_opened(&file, &path, MAX_RECORDS_BYTES)?;
                let reader = BufReader::new((&file).take(MAX_RECORDS_BYTES));
                let read = ShardRecords::read(reader, shard.index, checker, &path)?;
                if let Some(tail) = read.tail
                    && tail.partial
                {
                    file.set_len(tail.whole).map_err(io_error(&path))?;
                    resumed.cut = true;
                }
                resumed.repeats = read.repeats;
                resumed.records = read.records.into_values().map(|(r, _)| r).collect();
            }
            None => {
                match fs::remove_file(&done_path) {
                    Ok(()) => {}
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                    Err(e) => return Err(io_error(&done_path)(e)),
                }
                files::write_atomic(&params_path, &to_json(params)?)?;
                file.set_len(0).map_err(io_error(&path))?;
            }
        }
        Ok((
            ShardFiles {
                shard,
                dir: dir.to_path_buf(),
                records: std::sync::Mutex::new(file),
                path,
            },
            resumed,
        ))
    }

    /// Appends one class's line (one write, so a line is either whole or last and partial).
    pub fn append(&self, record: &ClassRecord) -> Result<(), ProveError> {
        let mut line = to_json(&Line::from(record))?;
        line.push('\n');
        let mut file = self
            .records
            .lock()
            .map_err(|_| ProveError::Threads(ThreadsError::Writing))?;
        file.write_all(line.as_bytes())
            .map_err(io_error(&self.path))
    }

    /// Writes the completion marker for a shard whose classes are all in
    /// `records` (each once): their counts and digest.
    pub fn finish(&self, records: &[ClassRecord]) -> Result<(), ProveError> {
        if let Ok(file) = self.records.lock() {
            file.sync_all().map_err(io_error(&self.path))?;
        }
        let path = self.dir.join(format!("{}.done", self.shard.stem()));
        files::write_atomic(&path, &to_json(&Done::of(records))?)
    }
}

fn to_json<T: serde::Serialize>(value: &T) -> Result<String, ProveError> {
    serde_json::to_string(value).map_err(ProveError::Encode)
}
