//! Why a proof cannot run, or a shard's files cannot be read or believed:
//! typed, with the data a caller needs, and a one-line `Display` for the
//! user.
//!
//! Only I/O travels as [`io::Error`], inside [`ProveError::Io`] with the
//! file it concerns. What is wrong with a line of a shard's records is a
//! [`BadRecord`] (a board in it, a [`BadBoard`]), with its settings a
//! [`BadParams`], with its completion marker a [`BadMarker`], and a failure
//! of the worker threads a [`ThreadsError`]. Nothing read from a file is
//! shown unless it was checked to be what it should be (a board's letters)
//! or passed through [`crate::limits::printable`] (JSON errors quote
//! what they did not expect). [`ProveError::is_usage`] says which errors
//! are in what the user asked for (the command line exits 2 on those).

use std::fmt;
use std::io;
use std::path::PathBuf;

use crate::classes::BucketError;
use crate::entry::{MAX_CELLS, MAX_TRIE_NODES};
use crate::limits::{Estimate, bytes, printable};

/// How a word list is recognised: its word count and FNV-1a hash in hex.
pub type WordListId = (usize, String);

/// Why a proof cannot run or its records cannot be read or believed.
#[derive(Debug)]
pub enum ProveError {
    /// The bucket specification is unusable.
    Buckets(BucketError),
    /// The board has more cells than the prover handles.
    Size {
        /// Rows.
        rows: usize,
        /// Columns.
        cols: usize,
    },
    /// `--shard I/N` is not a shard.
    Shard {
        /// What was given.
        given: String,
    },
    /// `--shard I/N` with more shards than the proof has groups.
    TooManyShards {
        /// The shards asked for.
        count: u32,
        /// The proof's groups (each shard proves whole groups).
        groups: usize,
    },
    /// The buckets make a table of classes too large to build.
    TooLarge(Estimate),
    /// A file or directory could not be read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        source: io::Error,
    },
    /// A shard's file is not a regular file (a FIFO, a device, a directory).
    NotAFile {
        /// The file.
        path: PathBuf,
    },
    /// A shard's file is larger than its kind of file may be.
    TooBig {
        /// The file.
        path: PathBuf,
        /// The most bytes it may have.
        limit: u64,
    },
    /// Another run holds the shard's lock.
    Locked {
        /// The shard's records, which the lock is on.
        path: PathBuf,
    },
    /// A directory given to merge holds no shard's files.
    NoShards {
        /// The directory (the first one given).
        dir: PathBuf,
    },
    /// A line of a shard's records is not a record that can be believed.
    Record {
        /// The file.
        path: PathBuf,
        /// One-based line number.
        line: usize,
        /// What is wrong.
        reason: BadRecord,
    },
    /// A shard's settings cannot be used.
    Params {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: BadParams,
    },
    /// `--resume` found a shard's records but not the settings they were made with.
    NoSettings {
        /// The records file.
        records: PathBuf,
        /// The settings file that is missing.
        settings: PathBuf,
    },
    /// Two shards, or a shard and the command line, have other settings.
    Mismatch {
        /// The first shard's settings.
        first: PathBuf,
        /// The other shard's settings; `None` for the command line's.
        second: Option<PathBuf>,
        /// The settings that differ, by their names in the file.
        fields: Vec<&'static str>,
    },
    /// Two directories (or one given twice) hold the same shard.
    SameShard {
        /// One of its settings files.
        first: PathBuf,
        /// The other.
        second: PathBuf,
    },
    /// A shard's completion marker disagrees with its records.
    Marker {
        /// The marker.
        path: PathBuf,
        /// How.
        reason: BadMarker,
    },
    /// The word list is not the one the proof was made with.
    WrongWords {
        /// The settings that name the proof's word list.
        path: PathBuf,
        /// Words and hash of the list given.
        given: WordListId,
        /// Words and hash the settings record.
        expected: WordListId,
    },
    /// The word list the settings name cannot be read (`merge` without `--dict`).
    UnreadableWords {
        /// The settings.
        params: PathBuf,
        /// The path they name (checked to hold no control characters).
        named: PathBuf,
        /// Why: an I/O error, or none for a path that is not a regular file.
        source: Option<io::Error>,
    },
    /// A class proved again does not give the record its shard holds.
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
    Threads(ThreadsError),
    /// A record could not be encoded as JSON.
    Encode(serde_json::Error),
    /// The dictionary's trie is too large for the prover's 24-bit node numbers.
    Dictionary {
        /// Its nodes.
        nodes: usize,
    },
}

/// What is wrong with a line of a shard's records.
#[derive(Debug)]
pub enum BadRecord {
    /// It is not the JSON of a record.
    Json(serde_json::Error),
    /// It is longer than any record may be.
    TooLong {
        /// The most bytes a line may have.
        limit: usize,
    },
    /// Its class is not a class of this proof (an id past the last, or one
    /// that is not the canonical class of its symmetries).
    NotAClass {
        /// The class id.
        class: u64,
    },
    /// Its class belongs to another shard.
    OtherShard {
        /// The class id.
        class: u64,
        /// The shard that owns it.
        owner: u32,
    },
    /// Its class is on an earlier line too, with another bound or boards.
    Conflict {
        /// The class id.
        class: u64,
        /// The earlier line.
        first: usize,
    },
    /// Its CPU time is not a number of seconds.
    Cpu,
    /// One of its boards cannot be believed.
    Board {
        /// The board's place in the line, from 1.
        index: usize,
        /// What is wrong with it.
        reason: BadBoard,
    },
}

/// What is wrong with a board in a shard's record. A board is shown only
/// once its letters are known to be letters of the board's size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BadBoard {
    /// It is not one letter A to Z per cell (`QU` for `Q` under Qu rules).
    Letters {
        /// The cells it should have.
        cells: usize,
    },
    /// No rotation or reflection of it (itself included) has its letters in
    /// the class's buckets.
    NotInClass {
        /// The board.
        board: String,
    },
    /// It is not the form of itself that sorts first under the symmetries.
    NotCanonical {
        /// The board.
        board: String,
        /// The form that sorts first.
        canonical: String,
    },
    /// It is in the record twice.
    Twice {
        /// The board.
        board: String,
    },
    /// Its score is not the one claimed.
    Score {
        /// The board.
        board: String,
        /// The score the line claims.
        claimed: u32,
        /// Its score with the word list.
        actual: u32,
    },
    /// Its claimed score is under the target, so it would not be reported.
    UnderTarget {
        /// The board.
        board: String,
        /// Its claimed score.
        score: u32,
        /// The target.
        above: u32,
    },
    /// Its score is above its class's bound, which bounds every board of the class.
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
#[derive(Debug)]
pub enum BadParams {
    /// It is not the JSON of the settings.
    Json(serde_json::Error),
    /// A field is out of its range.
    Field {
        /// The field.
        field: &'static str,
        /// What it must be.
        must: &'static str,
    },
    /// The board has more cells than the prover handles.
    Size {
        /// Rows.
        rows: usize,
        /// Columns.
        cols: usize,
    },
    /// The buckets cannot be used.
    Buckets(BucketError),
    /// The buckets make a table of classes too large to build.
    TooLarge(Estimate),
    /// The number of classes is not the one the settings make.
    Classes {
        /// The number recorded.
        claimed: u64,
        /// The number the settings make.
        actual: u64,
    },
    /// More shards than the proof has groups.
    Shards {
        /// The shards recorded.
        count: u32,
        /// The groups.
        groups: usize,
    },
    /// The file's name says another number of shards than its content.
    Name {
        /// The shards its name says.
        named: u32,
        /// The shards its content says.
        recorded: u32,
    },
    /// The rules named are not rules this program has, or do not give the
    /// rest of the settings.
    Rules {
        /// The name recorded (checked to be short lower-case ASCII).
        name: String,
        /// Why they cannot be used.
        why: &'static str,
    },
}

/// How a shard's completion marker disagrees with its records.
#[derive(Debug)]
pub enum BadMarker {
    /// It is not the JSON of a marker.
    Json(serde_json::Error),
    /// Its counts or digest are not those of the records.
    Differs {
        /// Classes, boards and digest the marker says.
        marker: (u64, u64, String),
        /// Classes, boards and digest of the records.
        records: (u64, u64, String),
    },
    /// It says the shard is done, but classes the shard owns have no record.
    Missing {
        /// Classes with a record.
        have: u64,
        /// Classes the shard owns.
        owned: u64,
    },
}

/// How the worker threads failed.
#[derive(Debug)]
pub enum ThreadsError {
    /// The pool of threads could not be started.
    Pool(rayon::ThreadPoolBuildError),
    /// A worker failed while it held a shard's file for writing.
    Writing,
}

impl fmt::Display for ProveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProveError::Buckets(e) => write!(f, "bad --buckets: {e}"),
            ProveError::Size { rows, cols } => write!(
                f,
                "boggle prove handles boards of at most {MAX_CELLS} cells, not {rows}x{cols}"
            ),
            ProveError::Shard { given } => {
                write!(f, "--shard {} is not I/N with 0 <= I < N", printable(given))
            }
            ProveError::TooManyShards { count, groups } => {
                let (group, shard) = if *groups == 1 {
                    ("group", "shard")
                } else {
                    ("groups", "shards")
                };
                write!(
                    f,
                    "--shard .../{count}: the proof has {groups} {group} of classes and a shard \
                     proves whole groups, so at most {groups} {shard}"
                )
            }
            ProveError::TooLarge(estimate) => estimate.fmt(f),
            ProveError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            ProveError::NotAFile { path } => write!(
                f,
                "{}: not a regular file (a shard's files are never FIFOs, devices or directories)",
                path.display()
            ),
            ProveError::TooBig { path, limit } => write!(
                f,
                "{}: larger than {} (more than this kind of file holds)",
                path.display(),
                bytes(*limit)
            ),
            ProveError::Locked { path } => write!(
                f,
                "{}: another run of this shard holds its lock (two runs of one shard must not \
                 write its file together; wait for it or stop it)",
                path.display()
            ),
            ProveError::NoShards { dir } => write!(f, "{}: no shard files here", dir.display()),
            ProveError::Record { path, line, reason } => {
                write!(f, "{}:{line}: {reason}", path.display())
            }
            ProveError::Params { path, reason } => write!(f, "{}: {reason}", path.display()),
            ProveError::NoSettings { records, settings } => write!(
                f,
                "{} is missing while {} holds records: resuming cannot check them, and \
                 starting over would discard them; put the settings file back, or run \
                 without --resume to start the shard afresh",
                settings.display(),
                records.display()
            ),
            ProveError::Mismatch {
                first,
                second: Some(second),
                fields,
            } => write!(
                f,
                "{} and {}: the two shards were run with other settings ({} differ)",
                first.display(),
                second.display(),
                fields.join(", ")
            ),
            ProveError::Mismatch {
                first,
                second: None,
                fields,
            } => write!(
                f,
                "{}: this shard was run with other settings ({} differ from this command line's)",
                first.display(),
                fields.join(", ")
            ),
            ProveError::SameShard { first, second } => write!(
                f,
                "{} and {}: the same shard twice",
                first.display(),
                second.display()
            ),
            ProveError::Marker { path, reason } => write!(f, "{}: {reason}", path.display()),
            ProveError::WrongWords {
                path,
                given,
                expected,
            } => write!(
                f,
                "{}: the proof was made with another word list ({} words, hash {}; this one has \
                 {} words, hash {}): give the proof's with --dict",
                path.display(),
                expected.0,
                printable(&expected.1),
                given.0,
                given.1
            ),
            ProveError::UnreadableWords {
                params,
                named,
                source,
            } => {
                write!(
                    f,
                    "{}: the word list it names, {}, ",
                    params.display(),
                    named.display()
                )?;
                match source {
                    Some(e) => write!(f, "cannot be read ({e})")?,
                    None => f.write_str("is not a regular file")?,
                }
                f.write_str("; give the proof's word list with --dict")
            }
            ProveError::Recheck {
                path,
                line,
                class,
                claimed,
                found,
            } => write!(
                f,
                "{}:{line}: class {class} proved again gives bound {} and {} boards, but the line \
                 says bound {} and {} boards: the records are wrong, nothing is proved",
                path.display(),
                found.0,
                found.1,
                claimed.0,
                claimed.1
            ),
            ProveError::Threads(e) => write!(f, "the worker threads failed: {e}"),
            ProveError::Encode(e) => write!(f, "cannot encode a record: {e}"),
            ProveError::Dictionary { nodes } => write!(
                f,
                "the dictionary is too large to prove with ({nodes} trie nodes, at most {MAX_TRIE_NODES})"
            ),
        }
    }
}

impl fmt::Display for BadRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadRecord::Json(e) => write!(f, "not a record: {}", printable(&e.to_string())),
            BadRecord::TooLong { limit } => {
                write!(f, "longer than any record ({})", bytes(*limit as u64))
            }
            BadRecord::NotAClass { class } => {
                write!(f, "class {class} is not one of this proof's classes")
            }
            BadRecord::OtherShard { class, owner } => {
                write!(f, "class {class} belongs to shard {owner}, not this one")
            }
            BadRecord::Conflict { class, first } => write!(
                f,
                "class {class} is on line {first} too, with another bound or other boards"
            ),
            BadRecord::Cpu => f.write_str("its cpu is not a number of seconds"),
            BadRecord::Board { index, reason } => write!(f, "board {index}: {reason}"),
        }
    }
}

impl fmt::Display for BadBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadBoard::Letters { cells } => write!(
                f,
                "not {cells} cells of letters A to Z (QU for a Q under Qu rules)"
            ),
            BadBoard::NotInClass { board } => write!(
                f,
                "{board} is not in the line's class (no rotation or reflection of it is)"
            ),
            BadBoard::NotCanonical { board, canonical } => write!(
                f,
                "{board} is not the form of itself that sorts first ({canonical})"
            ),
            BadBoard::Twice { board } => write!(f, "{board} is in the record twice"),
            BadBoard::Score {
                board,
                claimed,
                actual,
            } => write!(f, "{board} scores {actual}, not {claimed}"),
            BadBoard::UnderTarget {
                board,
                score,
                above,
            } => write!(f, "{board} {score} is under the target {above}"),
            BadBoard::AboveBound {
                board,
                score,
                bound,
            } => write!(f, "{board} scores {score}, above its class's bound {bound}"),
        }
    }
}

impl fmt::Display for BadParams {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadParams::Json(e) => {
                write!(f, "not a shard's settings: {}", printable(&e.to_string()))
            }
            BadParams::Field { field, must } => write!(f, "\"{field}\" must be {must}"),
            BadParams::Size { rows, cols } => write!(
                f,
                "a {rows}x{cols} board: boggle prove handles at most {MAX_CELLS} cells"
            ),
            BadParams::Buckets(e) => write!(f, "\"buckets\": {e}"),
            BadParams::TooLarge(estimate) => estimate.fmt(f),
            BadParams::Classes { claimed, actual } => write!(
                f,
                "\"classes\" says {claimed}, but the settings make {actual}"
            ),
            BadParams::Shards { count, groups } => write!(
                f,
                "\"shards\" says {count}, more than the proof's {groups} groups"
            ),
            BadParams::Name { named, recorded } => write!(
                f,
                "the file's name says {named} shards, its \"shards\" {recorded}"
            ),
            BadParams::Rules { name, why } => write!(f, "rules {name}: {why}"),
        }
    }
}

impl fmt::Display for BadMarker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadMarker::Json(e) => {
                write!(f, "not a completion marker: {}", printable(&e.to_string()))
            }
            BadMarker::Differs { marker, records } => write!(
                f,
                "the marker says {} classes, {} boards, digest {}; the records hold {} classes, \
                 {} boards, digest {}: they changed after the shard finished",
                marker.0,
                marker.1,
                printable(&marker.2),
                records.0,
                records.1,
                records.2
            ),
            BadMarker::Missing { have, owned } => write!(
                f,
                "the marker says the shard is done, but only {have} of its {owned} classes have a record"
            ),
        }
    }
}

impl fmt::Display for ThreadsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ThreadsError::Pool(e) => e.fmt(f),
            ThreadsError::Writing => f.write_str("a worker failed while writing"),
        }
    }
}

impl std::error::Error for ProveError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ProveError::Buckets(e) => Some(e),
            ProveError::Io { source, .. } => Some(source),
            ProveError::UnreadableWords {
                source: Some(source),
                ..
            } => Some(source),
            ProveError::Encode(e) => Some(e),
            _ => None,
        }
    }
}

impl std::error::Error for BadRecord {}

impl std::error::Error for BadBoard {}

impl std::error::Error for BadParams {}

impl std::error::Error for BadMarker {}

impl std::error::Error for ThreadsError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ThreadsError::Pool(e) => Some(e),
            ThreadsError::Writing => None,
        }
    }
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
        assert_eq!(
            e.to_string(),
            "the worker threads failed: a worker failed while writing"
        );
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
