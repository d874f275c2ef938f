//! Putting the shards of one proof back together, believing nothing they
//! say until it is checked.
//!
//! [`survey`] finds every shard's settings in the directories given (files
//! named exactly `shard-I-of-N.params.json`, with `I < N`), checks each
//! (`params`), checks that they agree (naming both shards if not), that no
//! shard is there twice, that the file's name and content agree on N, and
//! builds the proof's classes once (their table within the caps, N at most
//! the groups, the number of classes the one recorded). [`Proof::merge`]
//! then needs the word list: it must be the one the settings record (word
//! count and hash), and every line of every shard is checked with it
//! (`records`: class, letters, buckets, symmetry, score again), each class
//! counted once, and each completion marker compared with its records.
//! [`Proof::recheck`] proves chosen classes again and compares them with
//! their lines: the one check that sees a bound lowered or a board taken
//! out consistently.

use std::collections::{BTreeMap, HashSet};
use std::fs;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

use boggle_engine::SearchRules;
use boggle_engine::trie::Trie;

use super::files::{io_error, open_regular, read_regular};
use super::params::Params;
use super::records::{Checker, Done, ShardRecords};
use crate::classes::{Classes, Group};
use crate::error::{BadMarker, BadParams, ProveError};
use crate::limits::{MAX_DONE_BYTES, MAX_PARAMS_BYTES, MAX_RECORDS_BYTES};
use crate::{ClassRecord, Progress, Settings, Summary, prove_groups};

/// The shards of one proof, found and their settings checked, before any
/// record is read.
#[derive(Debug)]
pub struct Proof {
    params: Params,
    params_path: PathBuf,
    classes: Classes,
    groups: Vec<Group>,
    /// Each shard found: its files' path without the extensions.
    shards: BTreeMap<u32, PathBuf>,
}

/// `shard-I-of-N` with `I < N`, both written as the program writes them.
fn parse_stem(stem: &str) -> Option<(u32, u32)> {
    let (index, count) = stem.strip_prefix("shard-")?.split_once("-of-")?;
    let canonical = |text: &str| {
        !text.is_empty()
            && text.bytes().all(|b| b.is_ascii_digit())
            && (text == "0" || !text.starts_with('0'))
    };
    if !canonical(index) || !canonical(count) {
        return None;
    }
    let (index, count) = (index.parse::<u32>().ok()?, count.parse::<u32>().ok()?);
    (index < count).then_some((index, count))
}

/// Finds the shards in `dirs` and checks their settings (see the module's doc).
pub fn survey(dirs: &[PathBuf]) -> Result<Proof, ProveError> {
    let mut proof: Option<Proof> = None;
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
            let Some((index, named)) = parse_stem(stem) else {
                continue;
            };
            let stem = dir.join(stem);
            let bad = |reason| ProveError::Params {
                path: path.clone(),
                reason,
            };
            let bytes = read_regular(&path, MAX_PARAMS_BYTES)?.ok_or_else(|| ProveError::Io {
                path: path.clone(),
                source: std::io::ErrorKind::NotFound.into(),
            })?;
            let params = Params::parse(&bytes).map_err(bad)?;
            if params.shards != named {
                return Err(bad(BadParams::Name {
                    named,
                    recorded: params.shards,
                }));
            }
            match &mut proof {
                Some(proof) => proof.add(index, stem, &path, &params)?,
                None => proof = Some(Proof::first(index, stem, path, params)?),
            }
        }
    }
    proof.ok_or_else(|| ProveError::NoShards {
        dir: dirs.first().cloned().unwrap_or_default(),
    })
}

impl Proof {
    /// The proof as its first shard found describes it: its classes built
    /// (the settings are checked to be within the caps) and compared with
    /// the numbers recorded.
    fn first(
        index: u32,
        stem: PathBuf,
        path: PathBuf,
        params: Params,
    ) -> Result<Proof, ProveError> {
        let bad = |reason| ProveError::Params {
            path: path.clone(),
            reason,
        };
        let classes = params.shape_classes().map_err(bad)?;
        let groups = classes.groups();
        let actual: u64 = groups.iter().map(|g| g.classes.len() as u64).sum();
        if params.classes != actual {
            return Err(bad(BadParams::Classes {
                claimed: params.classes,
                actual,
            }));
        }
        if params.shards as usize > groups.len().max(1) {
            return Err(bad(BadParams::Shards {
                count: params.shards,
                groups: groups.len(),
            }));
        }
        Ok(Proof {
            params,
            params_path: path,
            classes,
            groups,
            shards: BTreeMap::from([(index, stem)]),
        })
    }

    /// Another shard: the same settings, and not a shard already found.
    fn add(
        &mut self,
        index: u32,
        stem: PathBuf,
        path: &Path,
        params: &Params,
    ) -> Result<(), ProveError> {
        if let Some(first) = self.shards.get(&index) {
            return Err(ProveError::SameShard {
                first: params_file(first),
                second: path.to_path_buf(),
            });
        }
        let fields = self.params.differences(params);
        if !fields.is_empty() {
            return Err(ProveError::Mismatch {
                first: self.params_path.clone(),
                second: Some(path.to_path_buf()),
                fields,
            });
        }
        self.shards.insert(index, stem);
        Ok(())
    }

    /// The settings every shard shares.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// The settings file they were first read from (for messages).
    pub fn params_path(&self) -> &Path {
        &self.params_path
    }

    /// Reads and checks every shard's records with the word list `words`
    /// (whose trie is `trie`) under `rules`, which must be the ones the
    /// settings record, and adds them up.
    pub fn merge<'w>(
        &self,
        words: impl IntoIterator<Item = &'w str>,
        trie: &Trie,
        rules: SearchRules,
    ) -> Result<Merged, ProveError> {
        let params = &self.params;
        params
            .check_words(words)
            .map_err(|(given, expected)| ProveError::WrongWords {
                path: self.params_path.clone(),
                given,
                expected,
            })?;
        let settings = params
            .settings(rules)
            .map_err(|reason| ProveError::Params {
                path: self.params_path.clone(),
                reason,
            })?;
        let mut checker = Checker::new(trie, &settings, &self.classes, &self.groups, params.shards);
        let shards = params.shards.max(1) as usize;
        let mut owned = vec![0u64; shards];
        for (k, group) in self.groups.iter().enumerate() {
            owned[k % shards] += group.classes.len() as u64;
        }
        let mut merged = Merged {
            params: params.clone(),
            summary: Summary::of([], params.above),
            unfinished: Vec::new(),
            missing: 0,
            repeats: 0,
            records: BTreeMap::new(),
            paths: BTreeMap::new(),
            settings: settings.clone(),
        };
        for index in 0..params.shards {
            let Some(stem) = self.shards.get(&index) else {
                merged.unfinished.push(index);
                continue;
            };
            let path = stem.with_extension("ndjson");
            let read = match open_regular(&path, MAX_RECORDS_BYTES)? {
                Some(file) => {
                    let reader = BufReader::new(file.take(MAX_RECORDS_BYTES));
                    ShardRecords::read(reader, index, &mut checker, &path)?
                }
                None => ShardRecords::default(),
            };
            let done = stem.with_extension("done");
            match read_regular(&done, MAX_DONE_BYTES)? {
                None => merged.unfinished.push(index),
                Some(bytes) => check_marker(&done, &bytes, &read, owned[index as usize])?,
            }
            merged.repeats += read.repeats;
            for (class, (record, line)) in read.records {
                merged.records.insert(class, (record, index, line));
            }
            merged.paths.insert(index, path);
        }
        merged.missing = params.classes - merged.records.len() as u64;
        merged.summary = Summary::of(merged.records.values().map(|(r, _, _)| r), params.above);
        Ok(merged)
    }

    /// Proves the classes `chosen` (those with a record) again, on `threads`
    /// threads, and compares each with its line: the boards always, the
    /// bound when `bounds` (the same program version made the records, as
    /// a bound depends on the prover's thresholds). Stops early, without an
    /// error, when `progress` is stopped.
    pub fn recheck(
        &self,
        merged: &Merged,
        trie: &Trie,
        chosen: &[u64],
        bounds: bool,
        threads: usize,
        progress: &Progress,
    ) -> Result<Rechecked, ProveError> {
        let chosen: HashSet<u64> = chosen
            .iter()
            .copied()
            .filter(|c| merged.records.contains_key(c))
            .collect();
        let groups: Vec<Group> = self
            .groups
            .iter()
            .filter(|g| g.classes.iter().any(|c| chosen.contains(c)))
            .cloned()
            .collect();
        let again = prove_groups(
            trie,
            &merged.settings,
            &groups,
            &|c| !chosen.contains(&c),
            threads,
            progress,
            |_| Ok(()),
        )?;
        for record in &again {
            let Some((claimed, shard, line)) = merged.records.get(&record.class) else {
                continue;
            };
            if claimed.boards != record.boards || (bounds && claimed.bound != record.bound) {
                return Err(ProveError::Recheck {
                    path: merged.paths.get(shard).cloned().unwrap_or_default(),
                    line: *line,
                    class: record.class,
                    claimed: (claimed.bound, claimed.boards.len()),
                    found: (record.bound, record.boards.len()),
                });
            }
        }
        Ok(Rechecked {
            asked: chosen.len(),
            checked: again.len(),
        })
    }
}

/// `stem.params.json`.
fn params_file(stem: &Path) -> PathBuf {
    let mut name = stem.as_os_str().to_os_string();
    name.push(".params.json");
    PathBuf::from(name)
}

/// Checks a shard's completion marker against its records: the same
/// counts and digest, and every class the shard owns.
fn check_marker(
    path: &Path,
    bytes: &[u8],
    read: &ShardRecords,
    owned: u64,
) -> Result<(), ProveError> {
    let bad = |reason| ProveError::Marker {
        path: path.to_path_buf(),
        reason,
    };
    let marker: Done = serde_json::from_slice(bytes).map_err(|e| bad(BadMarker::Json(e)))?;
    let records = Done::of(read.records());
    if marker.counts() != records.counts() {
        return Err(bad(BadMarker::Differs {
            marker: marker.counts(),
            records: records.counts(),
        }));
    }
    if records.classes != owned {
        return Err(bad(BadMarker::Missing {
            have: records.classes,
            owned,
        }));
    }
    Ok(())
}

/// What the shards of one proof add up to, every line checked.
#[derive(Debug, Clone)]
pub struct Merged {
    /// The parameters every shard shares.
    pub params: Params,
    /// The settings they describe, under the rules given.
    pub settings: Settings,
    /// The result over every class found.
    pub summary: Summary,
    /// Shards with no completion marker (or no files at all).
    pub unfinished: Vec<u32>,
    /// Classes in no shard's file.
    pub missing: u64,
    /// Lines that repeated a class's record (ignored).
    pub repeats: usize,
    /// Each class's record, its shard and its line.
    records: BTreeMap<u64, (ClassRecord, u32, usize)>,
    /// Each shard's records file.
    paths: BTreeMap<u32, PathBuf>,
}

impl Merged {
    /// Whether every class is accounted for and every shard finished.
    pub fn is_complete(&self) -> bool {
        self.unfinished.is_empty() && self.missing == 0
    }

    /// The classes with a record, in increasing order.
    pub fn classes(&self) -> Vec<u64> {
        self.records.keys().copied().collect()
    }
}

/// What a recheck did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rechecked {
    /// Classes asked for that have a record.
    pub asked: usize,
    /// Classes proved again and found equal (fewer if it was stopped).
    pub checked: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_names_the_program_writes_are_shards() {
        assert_eq!(parse_stem("shard-0-of-4"), Some((0, 4)));
        assert_eq!(parse_stem("shard-3-of-4"), Some((3, 4)));
        for name in [
            "shard-4-of-4",
            "shard-01-of-4",
            "shard-+1-of-4",
            "shard-0-of-",
            "x-0-of-1",
        ] {
            assert_eq!(parse_stem(name), None, "{name}");
        }
    }
}
