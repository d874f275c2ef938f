//! Splitting a proof over shards and putting it back together: which classes
//! shard I of N owns, the files a shard writes (its settings, one ndjson line
//! per finished class, a completion marker), resuming a shard from its file,
//! and merging the shards of one proof into its result.
//!
//! In `DIR`, shard I of N writes `shard-I-of-N.params.json` when it starts,
//! appends `shard-I-of-N.ndjson` one whole line per class as it goes, and
//! writes `shard-I-of-N.done` (by a rename) when every class is in. A shard
//! killed mid-line leaves a partial last line, which `--resume` cuts off.
//!
//! Limits: resuming and merging read the records whole into memory (the
//! 4x4 proof's 1,068,363 lines are about 100 MB); the dictionary is
//! recognised by its word count and an FNV-1a hash, which catches another
//! word list, not a forged one.

use std::collections::{BTreeMap, BTreeSet};
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::classes::{Buckets, Classes};
use super::{ClassRecord, FoundBoard, Settings, Summary};
use crate::error::{BadRecord, ProveError, ThreadsError};
use boggle_engine::{MoveRule, SearchRules};

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

    /// This shard's share of `groups` (whole groups, so each is collected once).
    pub fn select<T: Clone>(&self, groups: &[T]) -> Vec<T> {
        groups
            .iter()
            .skip(self.index as usize)
            .step_by(self.count as usize)
            .cloned()
            .collect()
    }

    fn stem(&self) -> String {
        format!("shard-{}-of-{}", self.index, self.count)
    }
}

/// The settings a shard ran with; every shard of one proof has the same.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Params {
    /// The rules preset.
    pub rules: String,
    /// Board rows.
    pub rows: usize,
    /// Board columns.
    pub cols: usize,
    /// Fewest letters a word may have.
    pub min_len: usize,
    /// Whether moves may go up (8 neighbours) or not.
    pub no_up: bool,
    /// The target score.
    pub above: u32,
    /// The buckets' specification.
    pub buckets: String,
    /// Words in the dictionary.
    pub words: usize,
    /// A hash of the dictionary's words (FNV-1a, hex).
    pub dictionary_hash: String,
    /// Canonical classes in the whole proof.
    pub classes: u64,
    /// How many shards the proof is split into.
    pub shards: u32,
}

impl Params {
    /// The parameters of a proof of `settings` under the rules named `rules`
    /// (a label the caller resolves), with the word list `words` (sorted, as
    /// the dictionary holds them) over `shards` shards.
    pub fn new<'w>(
        settings: &Settings,
        rules_name: &str,
        words: impl IntoIterator<Item = &'w str>,
        classes: u64,
        shards: u32,
    ) -> Params {
        let (mut hash, mut count): (u64, usize) = (0xcbf2_9ce4_8422_2325, 0);
        for word in words {
            count += 1;
            for byte in word.bytes().chain(std::iter::once(b'\n')) {
                hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
            }
        }
        let rules = &settings.rules;
        Params {
            rules: rules_name.to_string(),
            rows: rules.rows,
            cols: rules.cols,
            min_len: rules.min_len,
            no_up: rules.moves == MoveRule::NoUp,
            above: settings.above,
            buckets: settings.buckets.spec().to_string(),
            words: count,
            dictionary_hash: format!("{hash:016x}"),
            classes,
            shards,
        }
    }

    /// The classes these parameters describe (no dictionary needed: they
    /// depend on the shape and the move rule alone).
    fn classes(&self, path: &Path) -> Result<Classes, ProveError> {
        let rules = SearchRules {
            moves: if self.no_up {
                MoveRule::NoUp
            } else {
                MoveRule::EightNeighbours
            },
            ..SearchRules::standard(self.rows, self.cols)
        };
        let buckets = Buckets::parse(&self.buckets).map_err(|e| ProveError::Record {
            path: path.to_path_buf(),
            line: 1,
            reason: BadRecord::Buckets(e),
        })?;
        if rules.cells() > crate::entry::MAX_CELLS || rules.cells() == 0 {
            return Err(ProveError::Mismatch {
                path: path.to_path_buf(),
            });
        }
        Ok(Classes::new(&rules, &buckets))
    }
}

/// One ndjson line: a finished class.
#[derive(Debug, Serialize, Deserialize)]
struct Line {
    class: u64,
    bound: u32,
    boards: Vec<Board>,
    cpu: f64,
}

#[derive(Debug, Serialize, Deserialize)]
struct Board {
    board: String,
    score: u32,
}

/// The completion marker's content.
#[derive(Debug, Serialize, Deserialize)]
struct Done {
    classes: u64,
    cpu: f64,
    boards: usize,
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> ProveError + '_ {
    move |source| ProveError::Io {
        path: path.to_path_buf(),
        source,
    }
}

impl From<&ClassRecord> for Line {
    fn from(record: &ClassRecord) -> Line {
        Line {
            class: record.class,
            bound: record.bound,
            boards: record
                .boards
                .iter()
                .map(|b| Board {
                    board: b.board.clone(),
                    score: b.score,
                })
                .collect(),
            cpu: record.cpu,
        }
    }
}

impl From<Line> for ClassRecord {
    fn from(line: Line) -> ClassRecord {
        ClassRecord {
            class: line.class,
            bound: line.bound,
            boards: line
                .boards
                .into_iter()
                .map(|b| FoundBoard {
                    score: b.score,
                    board: b.board,
                })
                .collect(),
            cpu: line.cpu,
        }
    }
}

/// A shard's files in its output directory, open for appending records.
#[derive(Debug)]
pub struct ShardFiles {
    shard: Shard,
    dir: PathBuf,
    records: std::sync::Mutex<File>,
    path: PathBuf,
}

impl ShardFiles {
    /// Opens shard `shard`'s files in `dir` for a proof with `params`. With
    /// `resume`, returns the records already there (a partial last line is cut
    /// off); without, starts the shard afresh. A resumed shard run with other
    /// parameters is an error.
    pub fn open(
        dir: &Path,
        shard: Shard,
        params: &Params,
        resume: bool,
    ) -> Result<(ShardFiles, Vec<ClassRecord>), ProveError> {
        fs::create_dir_all(dir).map_err(io_error(dir))?;
        let stem = shard.stem();
        let params_path = dir.join(format!("{stem}.params.json"));
        let path = dir.join(format!("{stem}.ndjson"));
        let done_path = dir.join(format!("{stem}.done"));
        let mut records = Vec::new();
        if resume && params_path.exists() {
            let text = fs::read_to_string(&params_path).map_err(io_error(&params_path))?;
            let old: Params = serde_json::from_str(&text).map_err(|e| ProveError::Record {
                path: params_path.clone(),
                line: e.line(),
                reason: BadRecord::Json(e),
            })?;
            if old != *params {
                return Err(ProveError::Mismatch { path: params_path });
            }
            if path.exists() {
                records = read_records(&path, true)?;
            }
        } else {
            let _ = fs::remove_file(&done_path);
            write_atomic(&params_path, &to_json(params)?)?;
            File::create(&path).map_err(io_error(&path))?;
        }
        let file = OpenOptions::new()
            .append(true)
            .open(&path)
            .map_err(io_error(&path))?;
        Ok((
            ShardFiles {
                shard,
                dir: dir.to_path_buf(),
                records: std::sync::Mutex::new(file),
                path,
            },
            records,
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

    /// Writes the completion marker for a shard whose classes are all in `records`.
    pub fn finish(&self, records: &[ClassRecord], above: u32) -> Result<(), ProveError> {
        if let Ok(file) = self.records.lock() {
            file.sync_all().map_err(io_error(&self.path))?;
        }
        let summary = Summary::of(records, above);
        let done = Done {
            classes: summary.classes,
            cpu: summary.cpu,
            boards: summary.boards.len(),
        };
        let path = self.dir.join(format!("{}.done", self.shard.stem()));
        write_atomic(&path, &to_json(&done)?)
    }
}

fn to_json<T: Serialize>(value: &T) -> Result<String, ProveError> {
    serde_json::to_string(value).map_err(ProveError::Encode)
}

/// Writes `text` to `path` through a temporary file and a rename.
fn write_atomic(path: &Path, text: &str) -> Result<(), ProveError> {
    let temp = path.with_extension("tmp");
    fs::write(&temp, text).map_err(io_error(&temp))?;
    fs::rename(&temp, path).map_err(io_error(path))
}

/// Reads a shard's records. With `repair`, a partial last line (a shard killed
/// while writing it) is cut off the file; without, it is ignored.
fn read_records(path: &Path, repair: bool) -> Result<Vec<ClassRecord>, ProveError> {
    let bytes = fs::read(path).map_err(io_error(path))?;
    let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    if repair && whole < bytes.len() {
        let file = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(io_error(path))?;
        file.set_len(whole as u64).map_err(io_error(path))?;
    }
    let mut records = Vec::new();
    for (n, line) in bytes[..whole].split(|&b| b == b'\n').enumerate() {
        if line.is_empty() {
            continue;
        }
        let line: Line = serde_json::from_slice(line).map_err(|e| ProveError::Record {
            path: path.to_path_buf(),
            line: n + 1,
            reason: BadRecord::Json(e),
        })?;
        records.push(ClassRecord::from(line));
    }
    Ok(records)
}

/// What the shards of one proof add up to.
#[derive(Debug, Clone)]
pub struct Merged {
    /// The parameters every shard shares.
    pub params: Params,
    /// The result over every class found.
    pub summary: Summary,
    /// Shards with no completion marker (or no files at all).
    pub unfinished: Vec<u32>,
    /// Classes in no shard's file.
    pub missing: u64,
    /// Classes in more than one line, or in the wrong shard's file, or not a canonical class.
    pub misplaced: u64,
}

impl Merged {
    /// Whether every class is accounted for exactly once and every shard finished.
    pub fn is_complete(&self) -> bool {
        self.unfinished.is_empty() && self.missing == 0 && self.misplaced == 0
    }
}

/// Merges every shard found in `dirs` (files named `shard-I-of-N.*`).
pub fn merge(dirs: &[PathBuf]) -> Result<Merged, ProveError> {
    let mut params: Option<(PathBuf, Params)> = None;
    let mut shards: BTreeMap<u32, (PathBuf, bool)> = BTreeMap::new();
    for dir in dirs {
        let entries = fs::read_dir(dir).map_err(io_error(dir))?;
        for entry in entries {
            let path = entry.map_err(io_error(dir))?.path();
            let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
                continue;
            };
            let Some(stem) = name.strip_suffix(".params.json") else {
                continue;
            };
            let Some((index, _)) = stem
                .strip_prefix("shard-")
                .and_then(|s| s.split_once("-of-"))
                .and_then(|(i, n)| Some((i.parse::<u32>().ok()?, n.parse::<u32>().ok()?)))
            else {
                continue;
            };
            let text = fs::read_to_string(&path).map_err(io_error(&path))?;
            let these: Params = serde_json::from_str(&text).map_err(|e| ProveError::Record {
                path: path.clone(),
                line: e.line(),
                reason: BadRecord::Json(e),
            })?;
            match &params {
                Some((_, first)) if *first != these => {
                    return Err(ProveError::Mismatch { path });
                }
                Some(_) => {}
                None => params = Some((path.clone(), these)),
            }
            let done = dir.join(format!("{stem}.done")).exists();
            let records = dir.join(format!("{stem}.ndjson"));
            if shards.insert(index, (records, done)).is_some() {
                return Err(ProveError::Mismatch { path });
            }
        }
    }
    let Some((first, params)) = params else {
        let dir = dirs.first().cloned().unwrap_or_default();
        return Err(ProveError::NoShards { dir });
    };
    let groups = params.classes(&first)?.groups();
    let owner: BTreeMap<u64, u32> = groups
        .iter()
        .enumerate()
        .flat_map(|(k, g)| {
            let shard = (k % params.shards as usize) as u32;
            g.classes.iter().map(move |&id| (id, shard))
        })
        .collect();
    let mut seen = BTreeSet::new();
    let mut records = Vec::new();
    let mut misplaced = 0;
    let mut unfinished = Vec::new();
    for index in 0..params.shards {
        let Some((path, done)) = shards.get(&index) else {
            unfinished.push(index);
            continue;
        };
        if !done {
            unfinished.push(index);
        }
        if !path.exists() {
            continue;
        }
        for record in read_records(path, false)? {
            if owner.get(&record.class) != Some(&index) || !seen.insert(record.class) {
                misplaced += 1;
                continue;
            }
            records.push(record);
        }
    }
    let missing = owner.len() as u64 - seen.len() as u64;
    let summary = Summary::of(&records, params.above);
    Ok(Merged {
        params,
        summary,
        unfinished,
        missing,
        misplaced,
    })
}
