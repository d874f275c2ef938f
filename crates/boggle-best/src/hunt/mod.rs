//! The files of `boggle best --hunt DIR`: a search that runs for days, one
//! task of many, and loses nothing to a stop or a crash, and believes
//! nothing it reads back without checking it.
//!
//! # How it works
//! A hunt is a sequence of rounds, each a search of a fixed number of boards
//! per chain from its own seed, so a round is repeatable. Task `I` keeps two
//! files in `DIR`:
//! - `hunt-I.results`: every distinct board (canonical under the board's
//!   symmetries) that scored above the threshold, one line `SCORE BOARD`
//!   ([`lines`]), appended as it is found;
//! - `hunt-I.state.json`: what the task has done: the settings it scores
//!   by (its fingerprint), its seed, the rounds finished, the boards scored
//!   and the best board; replaced atomically (written beside, synced,
//!   renamed) after each round, once the results of that round are synced.
//!
//! A task that stops (a signal) or dies (`kill -9`, a lost node) is started
//! again with the same `DIR` and task index: the results file is read back
//! (a torn last line, written as the process died, is cut off) and the
//! unfinished round runs again from its seed. Being repeatable, it finds the
//! boards it had found before, which are already in the file and not written
//! twice, and those it had not written yet. So no board is lost, and none
//! appears twice.
//!
//! What is read back is checked: every results line is parsed and its board
//! scored again ([`lines::Checker`]); a line that does not check out is
//! dropped from the file and counted ([`Hunt::dropped`]), and the best
//! board comes only from lines that checked out (the state's own best is
//! checked the same way). The state's numbers are checked too: a count at
//! its largest value is refused rather than wrapped. The files are opened
//! as [`boggle_files`] opens them: a FIFO, a device, a symbolic link
//! (dangling or not) or a state file larger than a state can be is refused
//! with one line, never followed and never read whole.
//!
//! Round `r` of task `I` under seed `S` draws its seed from the three by
//! SplitMix64, so every task of an array (Slurm, Kubernetes Indexed Job) has a
//! stream of its own. [`merge`] reads the results of every task in some
//! directories, each checked the same way, and gives the best distinct
//! boards of all of them; a task hunted under other settings is refused.
//!
//! # Limits
//! The round in progress is searched again after a crash (about a minute of
//! work by default). A results line is a few dozen bytes and the task keeps
//! the boards it has written in memory to skip repeats, so a threshold that
//! lets millions of boards through costs memory and disk in proportion, and
//! a resume scores every line again (a few microseconds each). Two
//! processes on one task index are refused (a lock file).

use std::fs::{self, File};
use std::io::{self, Seek, Write};
use std::path::{Path, PathBuf};

use ahash::AHashSet;
use serde::{Deserialize, Serialize};

use boggle_files::{self as files, FileError};
use boggle_game::dice::DiceSet;
use boggle_game::face::QReads;
use boggle_game::rules::Rules;

use crate::{Budget, Objective, Options, Progress};

pub mod lines;
mod merge;

pub(crate) use lines::BadLine;
pub use lines::{Checker, Dropped, board_text};
pub use merge::{Merged, merge};

/// Boards each chain scores in a round of a hunt unless told otherwise:
/// about half a minute of one thread on 5x5, so a crash costs little and a
/// chain still has time to kick its way to a record.
pub const DEFAULT_ROUND: u64 = 3_000_000;

/// The version of the state file this build writes and reads.
const STATE_VERSION: u32 = 1;

/// The largest a state file can be: a few numbers, a fingerprint and a
/// board (a word list's file name is at most 255 bytes, a board a few
/// thousand letters).
pub(crate) const MAX_STATE_BYTES: u64 = 64 << 10;

/// What a task has done, as its state file records it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HuntState {
    /// The version of this file's layout (1).
    pub(crate) version: u32,
    /// What the boards are scored by (rules, size, word list): a task
    /// resumed under other rules would mix incomparable scores.
    pub(crate) fingerprint: String,
    /// The task index (its seed stream).
    pub(crate) task: u32,
    /// The seed all the task's rounds are drawn from.
    pub(crate) seed: u64,
    /// Rounds finished: the next round to run.
    pub rounds: u64,
    /// Boards scored by the rounds finished.
    pub(crate) boards: u64,
    /// The best score met so far (0 before any).
    pub best_score: u32,
    /// Its board, canonical ("" before any).
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
    /// A file is not one the hunt can use (a FIFO, a link, too large).
    #[error(transparent)]
    File(#[from] FileError),
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
    /// A task to merge was hunted under other settings than the ones given.
    #[error(
        "{}: hunted under {recorded}, not {given}: merge it with the rules, size and word list it was hunted with",
        path.display()
    )]
    OtherSettings {
        /// The task's state file.
        path: PathBuf,
        /// Its fingerprint.
        recorded: String,
        /// The fingerprint of the settings given.
        given: String,
    },
    /// A count of the state is at its largest: it cannot go on without wrapping.
    #[error("{}: the count of {what} is at its largest ({}): the task cannot go on", path.display(), u64::MAX)]
    Exhausted {
        /// The state file.
        path: PathBuf,
        /// Which count.
        what: &'static str,
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
/// its state, what was dropped on reading them back, and the lock that
/// keeps a second process off the task.
pub struct Hunt {
    results_path: PathBuf,
    state_path: PathBuf,
    results: File,
    seen: AHashSet<String>,
    state: HuntState,
    /// How a `Q` face is written on the results' lines.
    q: QReads,
    /// The results lines that did not check out (dropped from the file).
    dropped: Dropped,
    /// The state's best board, when it did not check out (and was forgotten).
    bad_best: Option<(String, BadLine)>,
    /// The task's lock file, locked while this is open (closing it unlocks).
    _lock: File,
}

impl Hunt {
    /// Opens task `task`'s hunt in `dir` (made if missing), resuming it if it
    /// ran before, every line of its results checked by `checker`. `seed` is
    /// the task's seed for a new hunt (default 0); a resumed hunt keeps its
    /// own and refuses a different one, as it refuses a different
    /// `fingerprint`.
    pub fn open(
        dir: &Path,
        task: u32,
        fingerprint: &str,
        seed: Option<u64>,
        checker: &mut Checker,
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
        let mut seen = AHashSet::new();
        let (results, read) = open_results(&results_path, checker, &mut seen)?;
        // The best comes from what checks out: the state's own, then every line.
        let bad_best = if state.best_board.is_empty() {
            None
        } else {
            let line = format!("{} {}", state.best_score, state.best_board);
            checker.check(line.as_bytes()).err().map(|why| {
                state.best_score = 0;
                state.best_board.clear();
                (line, why)
            })
        };
        let mut hunt = Hunt {
            results_path,
            state_path,
            results,
            seen,
            state,
            q: checker.q(),
            dropped: read.dropped,
            bad_best,
            _lock: lock,
        };
        for (score, board) in &read.lines {
            hunt.offer_best(*score, board);
        }
        Ok(hunt)
    }

    /// What the task has done so far.
    pub fn state(&self) -> &HuntState {
        &self.state
    }

    /// How many boards the results file holds.
    pub fn found(&self) -> usize {
        self.seen.len()
    }

    /// The results lines that did not check out when the hunt was opened
    /// (they are no longer in the file), and the file.
    pub fn dropped(&self) -> (&Dropped, &Path) {
        (&self.dropped, &self.results_path)
    }

    /// The state's best board (`SCORE BOARD`) and why it was forgotten,
    /// if it did not check out, and the state file.
    pub fn bad_best(&self) -> Option<(&str, &BadLine, &Path)> {
        self.bad_best
            .as_ref()
            .map(|(line, why)| (line.as_str(), why, self.state_path.as_path()))
    }

    /// The seed of the round to run next: SplitMix64 over the task's seed,
    /// its index and the round, so tasks and rounds never share a stream.
    pub(crate) fn round_seed(&self) -> u64 {
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
            self.record(score, board_text(&faces, self.q))?;
        }
        Ok(())
    }

    /// Closes the round `progress` followed, its caught boards recorded:
    /// its best is kept, and a round that ran to its end is counted as done;
    /// a stopped one is not (a resumed hunt runs it again from its seed).
    pub fn close_round(&mut self, progress: &Progress) -> Result<(), HuntError> {
        if let Some(best) = progress.best() {
            let board = board_text(&best.faces, self.q);
            self.offer_best(best.score, &board);
        }
        if progress.is_stopped() {
            self.save()
        } else {
            self.end_round(progress.scored())
        }
    }

    /// Appends `board` (canonical, as [`board_text`] writes it) with its
    /// score to the results file unless it is there already; whether it was new.
    pub(crate) fn record(&mut self, score: u32, board: String) -> Result<bool, HuntError> {
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
    pub(crate) fn offer_best(&mut self, score: u32, board: &str) {
        if score > self.state.best_score {
            self.state.best_score = score;
            self.state.best_board = board.to_string();
        }
    }

    /// Ends a round that scored `boards` boards: syncs the results, then
    /// records the round as done in the state file (atomically). A count
    /// that would pass its largest value is an error, never a wrap.
    pub(crate) fn end_round(&mut self, boards: u64) -> Result<(), HuntError> {
        self.results
            .sync_data()
            .map_err(io_error(&self.results_path))?;
        let exhausted = |what| HuntError::Exhausted {
            path: self.state_path.clone(),
            what,
        };
        let rounds = self
            .state
            .rounds
            .checked_add(1)
            .ok_or_else(|| exhausted("rounds"))?;
        let boards = self
            .state
            .boards
            .checked_add(boards)
            .ok_or_else(|| exhausted("boards"))?;
        self.state.rounds = rounds;
        self.state.boards = boards;
        self.save()
    }

    /// Writes the state file atomically (the round in progress is not counted).
    pub(crate) fn save(&self) -> Result<(), HuntError> {
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
/// Its content is never read: any regular file will do, and nothing else.
fn lock(path: &Path) -> Result<File, HuntError> {
    let mut options = files::options();
    options.create(true).truncate(false).write(true);
    let file = files::open(path, &options, u64::MAX, "a lock file")?
        .ok_or_else(|| io_error(path)(io::ErrorKind::NotFound.into()))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(fs::TryLockError::WouldBlock) => Err(HuntError::Locked {
            path: path.to_path_buf(),
        }),
        Err(fs::TryLockError::Error(e)) => Err(io_error(path)(e)),
    }
}

/// The state file, if the task ran before: at most [`MAX_STATE_BYTES`],
/// of this build's version, with counts that can still grow.
fn read_state(path: &Path) -> Result<Option<HuntState>, HuntError> {
    let Some(bytes) = files::read_capped(path, MAX_STATE_BYTES, "a hunt's state")? else {
        return Ok(None);
    };
    let corrupt = |reason: String| HuntError::Corrupt {
        path: path.to_path_buf(),
        reason,
    };
    let state: HuntState = serde_json::from_slice(&bytes).map_err(|e| corrupt(e.to_string()))?;
    if state.version != STATE_VERSION {
        return Err(corrupt(format!(
            "state version {}, this build reads {STATE_VERSION}",
            state.version
        )));
    }
    for (what, count) in [("rounds", state.rounds), ("boards", state.boards)] {
        if count == u64::MAX {
            return Err(HuntError::Exhausted {
                path: path.to_path_buf(),
                what,
            });
        }
    }
    Ok(Some(state))
}

/// Opens the results file for appending (made if missing) and reads its
/// lines back, each checked by `checker` (see [`lines::read_results`]). A
/// last line without its newline was being written when the process died:
/// it is cut off (its round runs again and finds it). Lines that do not
/// check out are dropped from the file, which is replaced by the lines that
/// do.
fn open_results(
    path: &Path,
    checker: &mut Checker,
    seen: &mut AHashSet<String>,
) -> Result<(File, lines::Read), HuntError> {
    let mut options = files::options();
    options.create(true).truncate(false).read(true).append(true);
    let open = |options: &fs::OpenOptions| {
        files::open(path, options, u64::MAX, "a hunt's results")?
            .ok_or_else(|| io_error(path)(io::ErrorKind::NotFound.into()))
    };
    let mut file = open(&options)?;
    let read = lines::read_results(io::BufReader::new(&file), path, checker, seen)?;
    if read.dropped.count > 0 {
        let mut text = String::new();
        for (score, board) in &read.lines {
            text.push_str(&format!("{score} {board}\n"));
        }
        write_atomically(path, text.as_bytes()).map_err(io_error(path))?;
        file = open(&options)?;
    } else if read.torn {
        file.set_len(read.whole).map_err(io_error(path))?;
        file.seek(io::SeekFrom::End(0)).map_err(io_error(path))?;
    }
    Ok((file, read))
}

/// SplitMix64's output function: a bijection that spreads every input bit.
fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Writes `bytes` to `path` atomically (see [`boggle_files`]).
fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    files::replace_whole(path, std::ffi::OsStr::new(".hunt-"), bytes)
}

#[cfg(test)]
#[expect(
    clippy::disallowed_types,
    reason = "the tests build rules from a preset; nothing here branches on one"
)]
mod tests {
    use super::*;
    use crate::symmetry::Symmetries;
    use boggle_engine::search::Searcher;
    use boggle_game::dictionary::Dictionary;
    use boggle_game::game_board::GameBoard;
    use boggle_game::rules::Preset;

    /// A 2x2 classic hunt over a few words.
    struct Fixture {
        dictionary: Dictionary,
        rules: Rules,
    }

    impl Fixture {
        fn new() -> Fixture {
            Fixture {
                dictionary: Dictionary::parse(b"eat\ntea\nate\nseat\neats\neast\nsat\nset\nsex\n"),
                rules: Rules::sized(Preset::Classic, 2, 2),
            }
        }

        fn checker(&self) -> Checker<'_> {
            Checker::new(self.dictionary.trie(), &self.rules, Objective::Points)
        }

        /// The board typed as `letters`, as a results line writes it, with its score.
        fn board(&self, letters: &str) -> (u32, String) {
            let faces = GameBoard::from_letters(letters, 2, 2, self.rules.q)
                .expect("a 2x2 board")
                .faces()
                .to_vec();
            let canonical = Symmetries::new(2, 2, self.rules.moves).canonical(&faces);
            let score =
                Searcher::new(self.dictionary.trie(), &self.rules).score_faces(2, 2, &canonical);
            (score, board_text(&canonical, self.rules.q))
        }

        fn line(&self, letters: &str) -> String {
            let (score, board) = self.board(letters);
            format!("{score} {board}\n")
        }
    }

    #[test]
    fn a_torn_last_line_is_cut_and_repeats_are_not_written() {
        let fixture = Fixture::new();
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("hunt-3.results");
        let (one, two) = (fixture.line("AEST"), fixture.line("SEXA"));
        fs::write(&path, format!("{one}{two}9 EA")).expect("written");
        let mut hunt =
            Hunt::open(dir.path(), 3, "rules", Some(5), &mut fixture.checker()).expect("opens");
        assert_eq!(hunt.found(), 2);
        assert_eq!(
            hunt.dropped().0.count,
            0,
            "a torn line is not dropped, only cut"
        );
        let best = fixture.board("AEST").0.max(fixture.board("SEXA").0);
        assert_eq!(hunt.state().best_score, best);
        let (score, board) = fixture.board("AEST");
        assert!(!hunt.record(score, board).expect("appends"));
        let (score, board) = fixture.board("TEAX");
        assert!(hunt.record(score, board).expect("appends"));
        hunt.end_round(100).expect("saved");
        let text = fs::read_to_string(&path).expect("read");
        assert_eq!(text, format!("{one}{two}{}", fixture.line("TEAX")));
        drop(hunt);
    }

    #[test]
    fn lines_that_do_not_check_out_are_dropped_from_the_file() {
        let fixture = Fixture::new();
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("hunt-0.results");
        let good = fixture.line("AEST");
        fs::write(&path, format!("99999 AAAA\n{good}5000 AB\n{good}")).expect("written");
        let hunt = Hunt::open(dir.path(), 0, "rules", None, &mut fixture.checker()).expect("opens");
        let (dropped, _) = hunt.dropped();
        assert_eq!(dropped.count, 3);
        assert_eq!(
            dropped.to_string(),
            "dropped 3 lines that do not check out (the first, line 1: says 99999, the board scores 0)"
        );
        assert_eq!(hunt.state().best_score, fixture.board("AEST").0);
        assert_eq!(fs::read_to_string(&path).expect("read"), good);
    }

    #[test]
    fn a_resumed_hunt_keeps_its_round_and_refuses_other_settings() {
        let fixture = Fixture::new();
        let dir = tempfile::tempdir().expect("a temporary directory");
        let open = |task, fingerprint, seed| {
            Hunt::open(dir.path(), task, fingerprint, seed, &mut fixture.checker())
        };
        let first_seed = {
            let mut hunt = open(0, "rules", None).expect("opens");
            let seed = hunt.round_seed();
            hunt.end_round(10).expect("saved");
            assert_ne!(hunt.round_seed(), seed, "the next round has its own seed");
            seed
        };
        let hunt = open(0, "rules", None).expect("resumes");
        assert_eq!(hunt.state().rounds, 1);
        assert_eq!(hunt.state().boards, 10);
        assert_ne!(hunt.round_seed(), first_seed);
        assert!(matches!(
            open(0, "rules", None),
            Err(HuntError::Locked { .. })
        ));
        drop(hunt);
        assert!(matches!(
            open(0, "other rules", None),
            Err(HuntError::Mismatch { what: "rules", .. })
        ));
        assert!(matches!(
            open(0, "rules", Some(9)),
            Err(HuntError::Mismatch { what: "seed", .. })
        ));
        let other = open(1, "other rules", None).expect("a new task");
        assert_ne!(other.round_seed(), first_seed, "task 1 has its own stream");
    }

    #[test]
    fn counts_never_wrap() {
        let fixture = Fixture::new();
        let dir = tempfile::tempdir().expect("a temporary directory");
        let state = |rounds: u64| {
            format!(
                r#"{{"version":1,"fingerprint":"rules","task":0,"seed":0,"rounds":{rounds},"boards":0,"best_score":0,"best_board":""}}"#
            )
        };
        let path = dir.path().join("hunt-0.state.json");
        fs::write(&path, state(u64::MAX)).expect("written");
        assert!(matches!(
            Hunt::open(dir.path(), 0, "rules", None, &mut fixture.checker()),
            Err(HuntError::Exhausted { what: "rounds", .. })
        ));
        fs::write(&path, state(u64::MAX - 1)).expect("written");
        let mut hunt =
            Hunt::open(dir.path(), 0, "rules", None, &mut fixture.checker()).expect("opens");
        hunt.end_round(1).expect("the last round a count holds");
        assert!(matches!(
            hunt.end_round(1),
            Err(HuntError::Exhausted { what: "rounds", .. })
        ));
        assert_eq!(hunt.state().rounds, u64::MAX, "unchanged, never wrapped");
    }

    #[test]
    fn merge_keeps_each_board_once_best_first_and_checks_every_line() {
        let fixture = Fixture::new();
        let dir = tempfile::tempdir().expect("a temporary directory");
        let (a, b, c) = (
            fixture.line("AEST"),
            fixture.line("SEXA"),
            fixture.line("TEAX"),
        );
        fs::write(dir.path().join("hunt-0.results"), format!("{a}{b}")).expect("written");
        fs::write(dir.path().join("hunt-1.results"), format!("{b}{c}3 GH")).expect("written");
        fs::write(dir.path().join("other.txt"), "not a board\n").expect("written");
        fs::write(dir.path().join("hunt-2.results"), "99999 AAAA\n").expect("written");
        let dirs = [dir.path().to_path_buf()];
        let merged = merge(&dirs, 3, "rules", &mut fixture.checker()).expect("merged");
        let mut expected: Vec<(u32, String)> = ["AEST", "SEXA", "TEAX"]
            .iter()
            .map(|letters| fixture.board(letters))
            .collect();
        expected.sort_by(|x, y| y.0.cmp(&x.0).then_with(|| x.1.cmp(&y.1)));
        assert_eq!(merged.boards, expected);
        assert_eq!(merged.dropped.len(), 1);
        assert!(merged.dropped[0].0.ends_with("hunt-2.results"));
        // A task of other settings is refused, not ranked beside these.
        let mut hunt =
            Hunt::open(dir.path(), 5, "other rules", None, &mut fixture.checker()).expect("opens");
        hunt.end_round(1).expect("saved");
        drop(hunt);
        assert!(matches!(
            merge(&dirs, 3, "rules", &mut fixture.checker()),
            Err(HuntError::OtherSettings { .. })
        ));
    }
}
