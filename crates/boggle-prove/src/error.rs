//! Why a proof cannot run, or a shard's files cannot be read or believed:
//! typed, with the data a caller needs, and a one-line `Display` for the
//! user that never repeats its `source()` (the command line prints the
//! chain of causes after it).
//!
//! Only I/O travels as [`io::Error`], inside [`ProveError::Io`] with the
//! file it concerns. What is wrong with a line of a shard's records is a
//! [`BadRecord`] (a board in it, a [`BadBoard`]), with its settings a
//! [`BadParams`], with its completion marker a [`BadMarker`], and a failure
//! of the worker threads a [`ThreadsError`]. Those reasons are part of
//! their variant's own message (`path:line: reason`), not causes after it.
//! Nothing read from a file is shown unless it was checked to be what it
//! should be (a board's letters) or passed through
//! [`crate::limits::printable`] (JSON errors quote what they did not
//! expect): that is why a JSON error is shown inside its reason's message
//! and never passed on as a `source()`, which the reporter would print raw.
//! [`ProveError::is_usage`] says which errors are in what the user asked
//! for (the command line exits 2 on those).

use std::io;
use std::path::PathBuf;

use crate::classes::BucketError;
use crate::entry::{MAX_CELLS, MAX_TRIE_NODES};
use crate::limits::{Estimate, bytes, printable};

/// How a word list is recognised: its word count and FNV-1a hash in hex.
pub(crate) type WordListId = (usize, String);

/// Why a proof cannot run or its records cannot be read or believed.
#[derive(Debug, thiserror::Error)]
pub enum ProveError {
    /// The bucket specification is unusable.
    #[error("bad --buckets")]
    Buckets(#[source] BucketError),
    /// The board has more cells than the prover handles.
    #[error("boggle prove handles boards of at most {MAX_CELLS} cells, not {rows}x{cols}")]
    Size {
        /// Rows.
        rows: usize,
        /// Columns.
        cols: usize,
    },
    /// `--shard I/N` is not a shard.
    #[error("--shard {} is not I/N with 0 <= I < N", printable(given))]
    Shard {
        /// What was given.
        given: String,
    },
    /// `--shard I/N` with more shards than the proof has groups.
    #[error(
        "--shard .../{count}: the proof has {groups} {} of classes and a shard proves whole \
         groups, so at most {groups} {}",
        if *groups == 1 { "group" } else { "groups" },
        if *groups == 1 { "shard" } else { "shards" }
    )]
    TooManyShards {
        /// The shards asked for.
        count: u32,
        /// The proof's groups (each shard proves whole groups).
        groups: usize,
    },
    /// The buckets make a table of classes too large to build.
    #[error("{0}")]
    TooLarge(Estimate),
    /// A file or directory could not be read or written.
    #[error("cannot read or write {}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        source: io::Error,
    },
    /// A shard's file is not a regular file (a FIFO, a device, a directory).
    #[error(
        "{}: not a regular file (a shard's files are never FIFOs, devices or directories)",
        path.display()
    )]
    NotAFile {
        /// The file.
        path: PathBuf,
    },
    /// A shard's file is larger than its kind of file may be.
    #[error(
        "{}: larger than {} (more than this kind of file holds)",
        path.display(),
        bytes(*limit)
    )]
    TooBig {
        /// The file.
        path: PathBuf,
        /// The most bytes it may have.
        limit: u64,
    },
    /// Another run holds the shard's lock.
    #[error(
        "{}: another run of this shard holds its lock (two runs of one shard must not write \
         its file together; wait for it or stop it)",
        path.display()
    )]
    Locked {
        /// The shard's records, which the lock is on.
        path: PathBuf,
    },
    /// A directory given to merge holds no shard's files.
    #[error("{}: no shard files here", dir.display())]
    NoShards {
        /// The directory (the first one given).
        dir: PathBuf,
    },
    /// A line of a shard's records is not a record that can be believed.
    #[error("{}:{line}: {reason}", path.display())]
    Record {
        /// The file.
        path: PathBuf,
        /// One-based line number.
        line: usize,
        /// What is wrong.
        reason: BadRecord,
    },
    /// A shard's settings cannot be used.
    #[error("{}: {reason}", path.display())]
    Params {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: BadParams,
    },
    /// `--resume` found a shard's records but not the settings they were made with.
    #[error(
        "{} is missing while {} holds records: resuming cannot check them, and \
         starting over would discard them; put the settings file back, or run \
         without --resume to start the shard afresh",
        settings.display(),
        records.display()
    )]
    NoSettings {
        /// The records file.
        records: PathBuf,
        /// The settings file that is missing.
        settings: PathBuf,
    },
    /// Two shards, or a shard and the command line, have other settings.
    #[error("{}", mismatch(first, second.as_ref(), fields))]
    Mismatch {
        /// The first shard's settings.
        first: PathBuf,
        /// The other shard's settings; `None` for the command line's.
        second: Option<PathBuf>,
        /// The settings that differ, by their names in the file.
        fields: Vec<&'static str>,
    },
    /// Two directories (or one given twice) hold the same shard.
    #[error("{} and {}: the same shard twice", first.display(), second.display())]
    SameShard {
        /// One of its settings files.
        first: PathBuf,
        /// The other.
        second: PathBuf,
    },
    /// A shard's completion marker disagrees with its records.
    #[error("{}: {reason}", path.display())]
    Marker {
        /// The marker.
        path: PathBuf,
        /// How.
        reason: BadMarker,
    },
    /// The word list is not the one the proof was made with.
    #[error(
        "{}: the proof was made with another word list ({} words, hash {}; this one has {} \
         words, hash {}): give the proof's with --dict",
        path.display(),
        expected.0,
        printable(&expected.1),
        given.0,
        given.1
    )]
    WrongWords {
        /// The settings that name the proof's word list.
        path: PathBuf,
        /// Words and hash of the list given.
        given: WordListId,
        /// Words and hash the settings record.
        expected: WordListId,
    },
    /// The word list the settings name cannot be read (`merge` without `--dict`).
    #[error(
        "{}: cannot read the word list it names, {} (give the proof's word list with --dict)",
        params.display(),
        named.display()
    )]
    UnreadableWords {
        /// The settings.
        params: PathBuf,
        /// The path they name (checked to hold no control characters).
        named: PathBuf,
        /// What the operating system said.
        source: io::Error,
    },
    /// The word list the settings name is not a regular file (`merge` without `--dict`).
    #[error(
        "{}: the word list it names, {}, is not a regular file; give the proof's word list \
         with --dict",
        params.display(),
        named.display()
    )]
    WordsNotAFile {
        /// The settings.
        params: PathBuf,
        /// The path they name (checked to hold no control characters).
        named: PathBuf,
    },
    /// A class proved again does not give the record its shard holds.
    #[error(
        "{}:{line}: class {class} proved again gives bound {} and {} boards, but the line says \
         bound {} and {} boards: the records are wrong, nothing is proved",
        path.display(),
        found.0,
        found.1,
        claimed.0,
        claimed.1
    )]
    Recheck {
        /// The shard's records.
        path: PathBuf,
        /// The class's line.
        line: usize,
        /// The class.
        class: u64,
        /// The bound and boards the line claims.
        claimed: (u32, usize),
        /// The bound and boards found again.
        found: (u32, usize),
    },
    /// The worker threads could not be started, or one of them failed.
    #[error("the worker threads failed")]
    Threads(#[source] ThreadsError),
    /// A record could not be encoded as JSON.
    #[error("cannot encode a record")]
    Encode(#[source] serde_json::Error),
    /// The dictionary's trie is too large for the prover's 24-bit node numbers.
    #[error(
        "the dictionary is too large to prove with ({nodes} trie nodes, at most {MAX_TRIE_NODES})"
    )]
    Dictionary {
        /// Its nodes.
        nodes: usize,
    },
}

/// [`ProveError::Mismatch`]'s message: between two shards, or a shard and the command line.
fn mismatch(first: &std::path::Path, second: Option<&PathBuf>, fields: &[&str]) -> String {
    match second {
        Some(second) => format!(
            "{} and {}: the two shards were run with other settings ({} differ)",
            first.display(),
            second.display(),
            fields.join(", ")
        ),
        None => format!(
            "{}: this shard was run with other settings ({} differ from this command line's)",
            first.display(),
            fields.join(", ")
        ),
    }
}

/// What is wrong with a line of a shard's records.
#[derive(Debug, thiserror::Error)]
pub enum BadRecord {
    /// It is not the JSON of a record.
    #[error("not a record: {}", printable(&.0.to_string()))]
    Json(serde_json::Error),
    /// It is longer than any record may be.
    #[error("longer than any record ({})", bytes(*limit as u64))]
    TooLong {
        /// The most bytes a line may have.
        limit: usize,
    },
    /// Its class is not a class of this proof (an id past the last, or one
    /// that is not the canonical class of its symmetries).
    #[error("class {class} is not one of this proof's classes")]
    NotAClass {
        /// The class id.
        class: u64,
    },
    /// Its class belongs to another shard.
    #[error("class {class} belongs to shard {owner}, not this one")]
    OtherShard {
        /// The class id.
        class: u64,
        /// The shard that owns it.
        owner: u32,
    },
    /// Its class is on an earlier line too, with another bound or boards.
    #[error("class {class} is on line {first} too, with another bound or other boards")]
    Conflict {
        /// The class id.
        class: u64,
        /// The earlier line.
        first: usize,
    },
    /// Its CPU time is not a number of seconds.
    #[error("its cpu is not a number of seconds")]
    Cpu,
    /// One of its boards cannot be believed.
    #[error("board {index}: {reason}")]
    Board {
        /// The board's place in the line, from 1.
        index: usize,
        /// What is wrong with it.
        reason: BadBoard,
    },
}

/// What is wrong with a board in a shard's record. A board is shown only
/// once its letters are known to be letters of the board's size.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadBoard {
    /// It is not one letter A to Z per cell (`QU` for `Q` under Qu rules).
    #[error("not {cells} cells of letters A to Z (QU for a Q under Qu rules)")]
    Letters {
        /// The cells it should have.
        cells: usize,
    },
    /// No rotation or reflection of it (itself included) has its letters in
    /// the class's buckets.
    #[error("{board} is not in the line's class (no rotation or reflection of it is)")]
    NotInClass {
        /// The board.
        board: String,
    },
    /// It is not the form of itself that sorts first under the symmetries.
    #[error("{board} is not the form of itself that sorts first ({canonical})")]
    NotCanonical {
        /// The board.
        board: String,
        /// The form that sorts first.
        canonical: String,
    },
    /// It is in the record twice.
    #[error("{board} is in the record twice")]
    Twice {
        /// The board.
        board: String,
    },
    /// Its score is not the one claimed.
    #[error("{board} scores {actual}, not {claimed}")]
    Score {
        /// The board.
        board: String,
        /// The score the line claims.
        claimed: u32,
        /// Its score with the word list.
        actual: u32,
    },
    /// Its claimed score is under the target, so it would not be reported.
    #[error("{board} {score} is under the target {above}")]
    UnderTarget {
        /// The board.
        board: String,
        /// Its claimed score.
        score: u32,
        /// The target.
        above: u32,
    },
    /// Its score is above its class's bound, which bounds every board of the class.
    #[error("{board} scores {score}, above its class's bound {bound}")]
    AboveBound {
        /// The board.
        board: String,
        /// Its score.
        score: u32,
        /// The class's bound.
        bound: u32,
    },
}

/// What is wrong with a shard's settings (`shard-I-of-N.params.json`).
#[derive(Debug, thiserror::Error)]
pub enum BadParams {
    /// It is not the JSON of the settings.
    #[error("not a shard's settings: {}", printable(&.0.to_string()))]
    Json(serde_json::Error),
    /// A field is out of its range.
    #[error("\"{field}\" must be {must}")]
    Field {
        /// The field.
        field: &'static str,
        /// What it must be.
        must: &'static str,
    },
    /// The board has more cells than the prover handles.
    #[error("a {rows}x{cols} board: boggle prove handles at most {MAX_CELLS} cells")]
    Size {
        /// Rows.
        rows: usize,
        /// Columns.
        cols: usize,
    },
    /// The buckets cannot be used.
    #[error("\"buckets\": {0}")]
    Buckets(BucketError),
    /// The buckets make a table of classes too large to build.
    #[error("{0}")]
    TooLarge(Estimate),
    /// The number of classes is not the one the settings make.
    #[error("\"classes\" says {claimed}, but the settings make {actual}")]
    Classes {
        /// The number recorded.
        claimed: u64,
        /// The number the settings make.
        actual: u64,
    },
    /// More shards than the proof has groups.
    #[error("\"shards\" says {count}, more than the proof's {groups} groups")]
    Shards {
        /// The shards recorded.
        count: u32,
        /// The groups.
        groups: usize,
    },
    /// The file's name says another number of shards than its content.
    #[error("the file's name says {named} shards, its \"shards\" {recorded}")]
    Name {
        /// The shards its name says.
        named: u32,
        /// The shards its content says.
        recorded: u32,
    },
    /// The rules named are not rules this program has, or do not give the
    /// rest of the settings.
    #[error("rules {name}: {why}")]
    Rules {
        /// The name recorded (checked to be short lower-case ASCII).
        name: String,
        /// Why they cannot be used.
        why: &'static str,
    },
}

/// How a shard's completion marker disagrees with its records.
#[derive(Debug, thiserror::Error)]
pub enum BadMarker {
    /// It is not the JSON of a marker.
    #[error("not a completion marker: {}", printable(&.0.to_string()))]
    Json(serde_json::Error),
    /// Its counts or digest are not those of the records.
    #[error(
        "the marker says {} classes, {} boards, digest {}; the records hold {} classes, {} \
         boards, digest {}: they changed after the shard finished",
        marker.0,
        marker.1,
        printable(&marker.2),
        records.0,
        records.1,
        records.2
    )]
    Differs {
        /// Classes, boards and digest the marker says.
        marker: (u64, u64, String),
        /// Classes, boards and digest of the records.
        records: (u64, u64, String),
    },
    /// It says the shard is done, but classes the shard owns have no record.
    #[error(
        "the marker says the shard is done, but only {have} of its {owned} classes have a record"
    )]
    Missing {
        /// Classes with a record.
        have: u64,
        /// Classes the shard owns.
        owned: u64,
    },
}

/// How the worker threads failed.
#[derive(Debug, thiserror::Error)]
pub enum ThreadsError {
    /// The pool of threads could not be started. rayon's error prints its
    /// own cause (the system's error) and passes it on as its `source()`
    /// too, so it is shown here and not passed on: the chain says it once.
    #[error("cannot start them: {0}")]
    Pool(rayon::ThreadPoolBuildError),
    /// A worker failed while it held a shard's file for writing.
    #[error("a worker failed while writing")]
    Writing,
}

impl ProveError {
    /// Whether the error is in what the user asked for (exit 2) rather than in running it.
    pub fn is_usage(&self) -> bool {
        matches!(
            self,
            ProveError::Buckets(_)
                | ProveError::Size { .. }
                | ProveError::Shard { .. }
                | ProveError::TooManyShards { .. }
                | ProveError::TooLarge(_)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_file_and_line() {
        let json = serde_json::from_str::<u32>("x").expect_err("not JSON");
        let text = json.to_string();
        let e = ProveError::Record {
            path: PathBuf::from("out/shard-0-of-2.ndjson"),
            line: 3,
            reason: BadRecord::Json(json),
        };
        assert_eq!(
            e.to_string(),
            format!("out/shard-0-of-2.ndjson:3: not a record: {text}")
        );
        let e = ProveError::NoShards {
            dir: PathBuf::from("out"),
        };
        assert_eq!(e.to_string(), "out: no shard files here");
        let e = ProveError::Threads(ThreadsError::Writing);
        assert_eq!(e.to_string(), "the worker threads failed");
        let cause = std::error::Error::source(&e).map(ToString::to_string);
        assert_eq!(cause.as_deref(), Some("a worker failed while writing"));
        assert!(!e.is_usage());
    }

    #[test]
    fn nothing_read_from_a_file_reaches_the_terminal_raw() {
        // serde names an unknown field as it is, escape sequence and all.
        let json = serde_json::from_str::<crate::shard::Params>(r#"{"\u001b[2J":1}"#)
            .expect_err("an unknown field");
        assert!(
            json.to_string().contains('\u{1b}'),
            "serde quotes it: {json}"
        );
        let e = ProveError::Record {
            path: PathBuf::from("s.ndjson"),
            line: 1,
            reason: BadRecord::Json(json),
        };
        assert!(!e.to_string().contains('\u{1b}'), "{e}");
        assert!(e.to_string().contains("\\u{1b}[2J"), "{e}");
    }
}
