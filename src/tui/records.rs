//! The player's records: games played and best score per preset, board size,
//! dictionary and time limit, in one small text file in the user's data
//! directory (`$XDG_DATA_HOME/boggle/records.tsv`, else
//! `~/.local/share/boggle/records.tsv`). A save writes a temporary file beside
//! it and renames it over the old one, so a kill at any moment leaves either
//! the old records or the new ones; a file that cannot be read back is moved
//! aside with a warning and the records start afresh.

use std::collections::BTreeMap;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The first line of a records file, naming its format.
const HEADER: &str = "boggle records 1";

/// What a record is kept for: one line of the file.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct RecordKey {
    /// The preset's name.
    pub preset: String,
    /// `RxC`.
    pub size: String,
    /// The dictionary (`built-in` or the file's name).
    pub dictionary: String,
    /// `m:ss`, or `untimed`.
    pub time: String,
}

impl RecordKey {
    /// How the key reads to a player: `project4 4x4 words.txt 3:00`.
    pub fn describe(&self) -> String {
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

/// Games played and the best score for one key.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// Games finished.
    pub played: u64,
    /// Best score.
    pub best: u32,
}

/// Every record, by key.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Records {
    entries: BTreeMap<RecordKey, Record>,
}

/// The records and anything the player should hear about reading them.
#[derive(Debug)]
pub struct Loaded {
    /// The records (empty when there was no usable file).
    pub records: Records,
    /// A warning: the file was corrupt and set aside, or unreadable.
    pub warning: Option<String>,
}

impl Records {
    /// The record for `key`, if any game was recorded under it.
    pub fn get(&self, key: &RecordKey) -> Option<Record> {
        self.entries.get(key).copied()
    }

    /// Counts a finished game scoring `score`; returns the new record and whether the score is a new best.
    pub fn add_game(&mut self, key: RecordKey, score: u32) -> (Record, bool) {
        let record = self.entries.entry(key).or_default();
        let new_best = record.played == 0 || score > record.best;
        record.played += 1;
        record.best = record.best.max(score);
        (*record, new_best)
    }

    /// Parses a records file; `None` if any line is malformed.
    pub fn parse(text: &str) -> Option<Records> {
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
    pub fn to_text(&self) -> String {
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

    /// Reads the records at `path`. A missing file is no records; a corrupt one is
    /// renamed to `<path>.corrupt` and reported; an unreadable one is reported.
    pub fn load(path: &Path) -> Loaded {
        let fresh = |warning: Option<String>| Loaded {
            records: Records::default(),
            warning,
        };
        let bytes = match fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return fresh(None),
            Err(e) => {
                return fresh(Some(format!(
                    "cannot read the records in {}: {e}",
                    path.display()
                )));
            }
        };
        match std::str::from_utf8(&bytes).ok().and_then(Records::parse) {
            Some(records) => Loaded {
                records,
                warning: None,
            },
            None => {
                let aside = aside_path(path);
                let warning = match fs::rename(path, &aside) {
                    Ok(()) => format!(
                        "the records in {} were corrupt; moved them to {} and started afresh",
                        path.display(),
                        aside.display()
                    ),
                    Err(e) => format!(
                        "the records in {} are corrupt and could not be moved aside ({e}); starting afresh",
                        path.display()
                    ),
                };
                fresh(Some(warning))
            }
        }
    }

    /// Writes the records to `path` atomically: a temporary file in the same
    /// directory, flushed to disk, then renamed over `path`.
    pub fn save(&self, path: &Path) -> io::Result<()> {
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir)?;
        }
        let temp = temp_path(path);
        let result =
            write_synced(&temp, self.to_text().as_bytes()).and_then(|()| fs::rename(&temp, path));
        if result.is_err() {
            let _ = fs::remove_file(&temp);
        }
        result
    }
}

fn write_synced(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = fs::File::create(path)?;
    file.write_all(bytes)?;
    // Without the sync a crash after the rename could leave an empty file in place of the records.
    file.sync_all()
}

/// Each process writes its own temporary file, so two games ending together never mix their bytes.
fn temp_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".tmp{}", std::process::id()));
    path.with_file_name(name)
}

fn aside_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".corrupt");
    path.with_file_name(name)
}

/// Where the records live: `$XDG_DATA_HOME/boggle/records.tsv`, else
/// `$HOME/.local/share/boggle/records.tsv`; `None` if neither variable is set.
pub fn default_path() -> Option<PathBuf> {
    path_from(|var| std::env::var_os(var))
}

/// [`default_path`] with the environment looked up through `var`; relative values are ignored, as XDG says.
fn path_from(var: impl Fn(&str) -> Option<std::ffi::OsString>) -> Option<PathBuf> {
    let absolute = |name: &str| var(name).map(PathBuf::from).filter(|p| p.is_absolute());
    let data = absolute("XDG_DATA_HOME")
        .or_else(|| absolute("HOME").map(|home| home.join(".local/share")))?;
    Some(data.join("boggle").join("records.tsv"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(time: &str) -> RecordKey {
        RecordKey {
            preset: "project4".into(),
            size: "4x4".into(),
            dictionary: "built-in".into(),
            time: time.into(),
        }
    }

    fn temp_dir(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("boggle-records-{tag}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
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
        let dir = temp_dir("round-trip");
        let path = dir.join("nested").join("records.tsv");
        let loaded = Records::load(&path);
        assert_eq!((loaded.records, loaded.warning), (Records::default(), None));
        let mut records = Records::default();
        records.add_game(key("1:00"), 7);
        records.save(&path).expect("saves");
        let loaded = Records::load(&path);
        assert_eq!(loaded.records, records);
        assert!(loaded.warning.is_none());
        let leftovers: Vec<_> = fs::read_dir(path.parent().expect("has a parent"))
            .expect("lists")
            .collect();
        assert_eq!(leftovers.len(), 1, "no temporary file is left behind");
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_corrupt_file_is_set_aside_with_a_warning() {
        let dir = temp_dir("corrupt");
        fs::create_dir_all(&dir).expect("creates");
        let path = dir.join("records.tsv");
        for junk in [
            &b"boggle records 1\nproject4\t4x4\n"[..],
            b"\xff\xfe",
            b"not records",
            b"",
        ] {
            fs::write(&path, junk).expect("writes");
            let loaded = Records::load(&path);
            assert_eq!(loaded.records, Records::default());
            let warning = loaded.warning.expect("warns");
            assert!(warning.contains("were corrupt; moved them to"), "{warning}");
            assert_eq!(fs::read(aside_path(&path)).expect("set aside"), junk);
            assert!(!path.exists());
        }
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_data_directory_follows_xdg() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| std::ffi::OsString::from(v))
            }
        };
        let both = env(&[("XDG_DATA_HOME", "/x/data"), ("HOME", "/home/p")]);
        assert_eq!(
            path_from(both),
            Some(PathBuf::from("/x/data/boggle/records.tsv"))
        );
        let relative = env(&[("XDG_DATA_HOME", "data"), ("HOME", "/home/p")]);
        assert_eq!(
            path_from(relative),
            Some(PathBuf::from("/home/p/.local/share/boggle/records.tsv"))
        );
        assert_eq!(path_from(env(&[])), None);
    }
}
