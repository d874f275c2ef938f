//! The files of `boggle best --hunt DIR`: a search that runs for days, one
//! task of many, and loses nothing to a stop or a crash.
//!
//! # How it works
//! A hunt is a sequence of rounds, each a search of a fixed number of boards
//! per chain from its own seed, so a round is repeatable. Task `I` keeps two
//! files in `DIR`:
//! - `hunt-I.results`: every distinct board (canonical under the board's
//!   symmetries) that scored above the threshold, one line `SCORE LETTERS`,
//!   appended and flushed as it is found;
//! - `hunt-I.state.json`: what the task has done: its seed, the rounds
//!   finished, the boards scored and the best board; replaced atomically
//!   (written beside, synced, renamed) after each round, once the results
//!   of that round are synced.
//!
//! A task that stops (a signal) or dies (`kill -9`, a lost node) is started
//! again with the same `DIR` and task index: the results file is read back
//! (a torn last line, written as the process died, is cut off) and the
//! unfinished round runs again from its seed. Being repeatable, it finds the
//! boards it had found before, which are already in the file and not written
//! twice, and those it had not written yet. So no board is lost, and none
//! appears twice.
//!
//! Round `r` of task `I` under seed `S` draws its seed from the three by
//! SplitMix64, so every task of an array (Slurm, Kubernetes Indexed Job) has a
//! stream of its own. [`merge`] reads the results of every task in some
//! directories and gives the best distinct boards of all of them.
//!
//! # Limits
//! The round in progress is searched again after a crash (about a minute of
//! work by default). A results line is a few dozen bytes and the task keeps
//! the boards it has written in memory to skip repeats, so a threshold that
//! lets millions of boards through costs memory and disk in proportion. Two
//! processes on one task index are refused (a lock file).

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufRead, BufReader, Seek, Write};
use std::path::{Path, PathBuf};

use ahash::AHashSet;
use serde::{Deserialize, Serialize};

use boggle_game::dice::DiceSet;
use boggle_game::rules::Rules;

use crate::{Budget, Objective, Options, Progress, letters};

/// Boards each chain scores in a round of a hunt unless told otherwise:
/// about half a minute of one thread on 5x5, so a crash costs little and a
/// chain still has time to kick its way to a record.
pub const DEFAULT_ROUND: u64 = 3_000_000;

/// The version of the state file this build writes and reads.
const STATE_VERSION: u32 = 1;

/// What a task has done, as its state file records it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HuntState {
    /// The version of this file's layout (1).
    pub version: u32,
    /// What the boards are scored by (rules, size, word list): a task
    /// resumed under other rules would mix incomparable scores.
    pub fingerprint: String,
    /// The task index (its seed stream).
    pub task: u32,
    /// The seed all the task's rounds are drawn from.
    pub seed: u64,
    /// Rounds finished: the next round to run.
    pub rounds: u64,
    /// Boards scored by the rounds finished.
    pub boards: u64,
    /// The best score met so far (0 before any).
    pub best_score: u32,
    /// Its board, canonical letters ("" before any).
    pub best_board: String,
}

/// Why a hunt's files cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum HuntError {
    /// A file or the directory could not be read or written.
    #[error("{}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        source: io::Error,
    },
    /// A file does not hold what a hunt writes.
    #[error("{}: {reason}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// Where and what.
        reason: String,
    },
    /// The directory holds a hunt with other settings than the ones given.
    #[error(
        "{}: this hunt's {what} is {recorded}, not {given} (use another directory)",
        path.display()
    )]
    Mismatch {
        /// The state file.
        path: PathBuf,
        /// Which setting.
        what: &'static str,
        /// As recorded.
        recorded: String,
        /// As given now.
        given: String,
    },
    /// Another process runs this task in this directory.
    #[error(
        "{}: another process runs this task (a task index runs once at a time)",
        path.display()
    )]
    Locked {
        /// The lock file.
        path: PathBuf,
    },
}

/// An `io::Error` on `path` as a [`HuntError`].
fn io_error(path: &Path) -> impl FnOnce(io::Error) -> HuntError + '_ {
    move |source| HuntError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// One task's open hunt: its results file (for appending), the boards in it,
/// its state, and the lock that keeps a second process off the task.
pub struct Hunt {
    results_path: PathBuf,
    state_path: PathBuf,
    results: File,
    seen: AHashSet<String>,
    state: HuntState,
    /// The task's lock file, locked while this is open (closing it unlocks).
    _lock: File,
}

impl Hunt {
    /// Opens task `task`'s hunt in `dir` (made if missing), resuming it if it
    /// ran before. `seed` is the task's seed for a new hunt (default 0); a
    /// resumed hunt keeps its own and refuses a different one, as it refuses
    /// a different `fingerprint`.
    pub fn open(
        dir: &Path,
        task: u32,
        fingerprint: &str,
        seed: Option<u64>,
    ) -> Result<Hunt, HuntError> {
        fs::create_dir_all(dir).map_err(io_error(dir))?;
        let lock = lock(&dir.join(format!("hunt-{task}.lock")))?;
        let results_path = dir.join(format!("hunt-{task}.results"));
        let state_path = dir.join(format!("hunt-{task}.state.json"));
        let mut state = match read_state(&state_path)? {
            Some(state) => {
                check(
                    &state_path,
                    "rules",
                    state.fingerprint.as_str(),
                    fingerprint,
                )?;
                check(&state_path, "task", &state.task, &task)?;
                if let Some(seed) = seed {
                    check(&state_path, "seed", &state.seed, &seed)?;
                }
                state
            }
            None => HuntState {
                version: STATE_VERSION,
                fingerprint: fingerprint.to_string(),
                task,
                seed: seed.unwrap_or(0),
                rounds: 0,
                boards: 0,
                best_score: 0,
                best_board: String::new(),
            },
        };
        let (results, lines) = open_results(&results_path)?;
        let mut seen = AHashSet::with_capacity(lines.len());
        for (score, board) in lines {
            if score > state.best_score {
                state.best_score = score;
                state.best_board.clone_from(&board);
            }
            seen.insert(board);
        }
        Ok(Hunt {
            results_path,
            state_path,
            results,
            seen,
            state,
            _lock: lock,
        })
    }

    /// What the task has done so far.
    pub fn state(&self) -> &HuntState {
        &self.state
    }

    /// How many boards the results file holds.
    pub fn found(&self) -> usize {
        self.seen.len()
    }

    /// The seed of the round to run next: SplitMix64 over the task's seed,
    /// its index and the round, so tasks and rounds never share a stream.
    pub fn round_seed(&self) -> u64 {
        let task = splitmix(self.state.seed ^ splitmix(u64::from(self.state.task)));
        splitmix(task ^ splitmix(self.state.rounds.wrapping_add(1)))
    }

    /// The options of the round to run next: `base`'s search, `per_chain`
    /// boards for each chain, from the round's own seed, catching every
    /// board (no target, one board kept by each chain).
    pub fn round_options(&self, base: &Options, per_chain: u64) -> Options {
        Options {
            budget: Budget::Iterations(per_chain.saturating_mul(base.threads as u64)),
            seed: self.round_seed(),
            top: 1,
            target: None,
            ..base.clone()
        }
    }

    /// Appends the boards `progress` caught since the last call (see
    /// [`Progress::catching`]) to the results file.
    pub fn record_caught(&mut self, progress: &Progress) -> Result<(), HuntError> {
        for (score, faces) in progress.take_caught() {
            self.record(score, letters(&faces))?;
        }
        Ok(())
    }

    /// Closes the round `progress` followed, its caught boards recorded:
    /// its best is kept, and a round that ran to its end is counted as done;
    /// a stopped one is not (a resumed hunt runs it again from its seed).
    pub fn close_round(&mut self, progress: &Progress) -> Result<(), HuntError> {
        if let Some(best) = progress.best() {
            self.offer_best(best.score, &letters(&best.faces));
        }
        if progress.is_stopped() {
            self.save()
        } else {
            self.end_round(progress.scored())
        }
    }

    /// Appends `board` (canonical letters) with its score to the results
    /// file unless it is there already; whether it was new.
    pub fn record(&mut self, score: u32, board: String) -> Result<bool, HuntError> {
        self.offer_best(score, &board);
        if self.seen.contains(&board) {
            return Ok(false);
        }
        // One write per line: a process killed between two writes leaves whole lines.
        let line = format!("{score} {board}\n");
        self.results
            .write_all(line.as_bytes())
            .map_err(io_error(&self.results_path))?;
        self.seen.insert(board);
        Ok(true)
    }

    /// Keeps `board` as the best so far if it is (for the state file and the progress line).
    pub fn offer_best(&mut self, score: u32, board: &str) {
        if score > self.state.best_score {
            self.state.best_score = score;
            self.state.best_board = board.to_string();
        }
    }

    /// Ends a round that scored `boards` boards: syncs the results, then
    /// records the round as done in the state file (atomically).
    pub fn end_round(&mut self, boards: u64) -> Result<(), HuntError> {
        self.results
            .sync_data()
            .map_err(io_error(&self.results_path))?;
        self.state.rounds += 1;
        self.state.boards += boards;
        self.save()
    }

    /// Writes the state file atomically (the round in progress is not counted).
    pub fn save(&self) -> Result<(), HuntError> {
        let mut json = serde_json::to_string_pretty(&self.state).map_err(|e| HuntError::Io {
            path: self.state_path.clone(),
            source: e.into(),
        })?;
        json.push('\n');
        write_atomically(&self.state_path, json.as_bytes()).map_err(io_error(&self.state_path))
    }
}

/// What the scores of a hunt depend on: a directory's results are only
/// comparable under the same rules, size, word list (`list`, its file name,
/// and its count of `words`), dice and objective.
pub fn fingerprint(
    rules: &Rules,
    objective: Objective,
    list: Option<&Path>,
    dice: Option<DiceSet>,
    words: usize,
) -> String {
    let list = list
        .and_then(Path::file_name)
        .map_or_else(|| "built-in".into(), |name| name.to_string_lossy());
    format!(
        "{} {}x{} {}+ letters{} {:?} {}{} ({} words)",
        rules.preset,
        rules.rows,
        rules.cols,
        rules.min_len,
        rules
            .max_len
            .map_or_else(String::new, |m| format!(" to {m}")),
        objective,
        list,
        dice.map_or_else(String::new, |dice| format!(" dice {dice:?}")),
        words,
    )
}

/// Refuses a recorded setting that differs from the one given.
fn check<T: PartialEq + std::fmt::Display + ?Sized>(
    path: &Path,
    what: &'static str,
    recorded: &T,
    given: &T,
) -> Result<(), HuntError> {
    if recorded == given {
        return Ok(());
    }
    Err(HuntError::Mismatch {
        path: path.to_path_buf(),
        what,
        recorded: recorded.to_string(),
        given: given.to_string(),
    })
}

/// Opens and locks the task's lock file (an exclusive `flock`, which the
/// system drops when the process dies), or says another process holds it.
fn lock(path: &Path) -> Result<File, HuntError> {
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .map_err(io_error(path))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(fs::TryLockError::WouldBlock) => Err(HuntError::Locked {
            path: path.to_path_buf(),
        }),
        Err(fs::TryLockError::Error(e)) => Err(io_error(path)(e)),
    }
}

/// The state file, if the task ran before.
fn read_state(path: &Path) -> Result<Option<HuntState>, HuntError> {
    let text = match fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_error(path)(e)),
    };
    let state: HuntState = serde_json::from_str(&text).map_err(|e| HuntError::Corrupt {
        path: path.to_path_buf(),
        reason: e.to_string(),
    })?;
    if state.version != STATE_VERSION {
        return Err(HuntError::Corrupt {
            path: path.to_path_buf(),
            reason: format!(
                "state version {}, this build reads {STATE_VERSION}",
                state.version
            ),
        });
    }
    Ok(Some(state))
}

/// Opens the results file for appending (made if missing) and reads its
/// lines. A last line without its newline was being written when the
/// process died: it is cut off (its round runs again and finds it).
fn open_results(path: &Path) -> Result<(File, Vec<(u32, String)>), HuntError> {
    let mut file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .append(true)
        .open(path)
        .map_err(io_error(path))?;
    let mut lines = Vec::new();
    let mut whole = 0u64;
    let mut reader = BufReader::new(&file);
    let mut line = String::new();
    loop {
        line.clear();
        let read = reader.read_line(&mut line).map_err(io_error(path))?;
        if read == 0 || !line.ends_with('\n') {
            break;
        }
        lines.push(parse_line(path, lines.len() + 1, line.trim_end())?);
        whole += read as u64;
    }
    drop(reader);
    if file.metadata().map_err(io_error(path))?.len() > whole {
        file.set_len(whole).map_err(io_error(path))?;
        file.seek(io::SeekFrom::End(0)).map_err(io_error(path))?;
    }
    Ok((file, lines))
}

/// One results line, `SCORE LETTERS`.
fn parse_line(path: &Path, number: usize, line: &str) -> Result<(u32, String), HuntError> {
    let parsed = line.split_once(' ').and_then(|(score, board)| {
        let board_ok = !board.is_empty() && board.bytes().all(|b| b.is_ascii_uppercase());
        Some((score.parse().ok()?, board.to_string())).filter(|_| board_ok)
    });
    parsed.ok_or_else(|| HuntError::Corrupt {
        path: path.to_path_buf(),
        reason: format!("line {number} is not 'SCORE LETTERS': {line:?}"),
    })
}

/// The best `top` distinct boards of every task's results in `dirs`, highest
/// score first, ties in letter order.
pub fn merge(dirs: &[PathBuf], top: usize) -> Result<Vec<(u32, String)>, HuntError> {
    let mut all: Vec<(u32, String)> = Vec::new();
    for dir in dirs {
        let entries = fs::read_dir(dir).map_err(io_error(dir))?;
        let mut files: Vec<PathBuf> = Vec::new();
        for entry in entries {
            let path = entry.map_err(io_error(dir))?.path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name.starts_with("hunt-") && name.ends_with(".results") {
                files.push(path);
            }
        }
        files.sort();
        for path in files {
            let text = fs::read_to_string(&path).map_err(io_error(&path))?;
            for (index, line) in text.split_inclusive('\n').enumerate() {
                // A torn last line (a task killed as it wrote) is not a board yet.
                if line.ends_with('\n') {
                    all.push(parse_line(&path, index + 1, line.trim_end())?);
                }
            }
        }
    }
    all.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    let mut seen = AHashSet::new();
    all.retain(|(_, board)| seen.insert(board.clone()));
    all.truncate(top);
    Ok(all)
}

/// SplitMix64's output function: a bijection that spreads every input bit.
fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Writes `bytes` to `path` atomically (see [`boggle_game::files`]).
fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    boggle_game::files::replace_whole(path, std::ffi::OsStr::new(".hunt-state-"), bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_torn_last_line_is_cut_and_repeats_are_not_written() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("hunt-3.results");
        fs::write(&path, "12 AEST\n11 AETS\n9 EA").expect("written");
        let mut hunt = Hunt::open(dir.path(), 3, "rules", Some(5)).expect("opens");
        assert_eq!(hunt.found(), 2);
        assert_eq!(hunt.state().best_score, 12);
        assert!(!hunt.record(12, "AEST".into()).expect("appends"));
        assert!(hunt.record(10, "EAST".into()).expect("appends"));
        hunt.end_round(100).expect("saved");
        let text = fs::read_to_string(&path).expect("read");
        assert_eq!(text, "12 AEST\n11 AETS\n10 EAST\n");
        drop(hunt);
    }

    #[test]
    fn a_resumed_hunt_keeps_its_round_and_refuses_other_settings() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let first_seed = {
            let mut hunt = Hunt::open(dir.path(), 0, "rules", None).expect("opens");
            let seed = hunt.round_seed();
            hunt.end_round(10).expect("saved");
            assert_ne!(hunt.round_seed(), seed, "the next round has its own seed");
            seed
        };
        let hunt = Hunt::open(dir.path(), 0, "rules", None).expect("resumes");
        assert_eq!(hunt.state().rounds, 1);
        assert_eq!(hunt.state().boards, 10);
        assert_ne!(hunt.round_seed(), first_seed);
        assert!(matches!(
            Hunt::open(dir.path(), 0, "rules", None),
            Err(HuntError::Locked { .. })
        ));
        drop(hunt);
        assert!(matches!(
            Hunt::open(dir.path(), 0, "other rules", None),
            Err(HuntError::Mismatch { what: "rules", .. })
        ));
        assert!(matches!(
            Hunt::open(dir.path(), 0, "rules", Some(9)),
            Err(HuntError::Mismatch { what: "seed", .. })
        ));
        let other = Hunt::open(dir.path(), 1, "other rules", None).expect("a new task");
        assert_ne!(other.round_seed(), first_seed, "task 1 has its own stream");
    }

    #[test]
    fn merge_keeps_each_board_once_best_first() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        fs::write(dir.path().join("hunt-0.results"), "5 AB\n7 CD\n").expect("written");
        fs::write(dir.path().join("hunt-1.results"), "7 CD\n6 EF\n3 GH").expect("written");
        fs::write(dir.path().join("other.txt"), "not a board\n").expect("written");
        let merged = merge(&[dir.path().to_path_buf()], 3).expect("merged");
        assert_eq!(
            merged,
            [(7, "CD".to_string()), (6, "EF".into()), (5, "AB".into())]
        );
        fs::write(dir.path().join("hunt-2.results"), "x AB\n").expect("written");
        assert!(matches!(
            merge(&[dir.path().to_path_buf()], 3),
            Err(HuntError::Corrupt { .. })
        ));
    }
}
