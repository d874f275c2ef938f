//! Why a proof cannot run, or a shard's files cannot be read: typed, with
//! the data a caller needs, and a one-line `Display` for the user.
//!
//! Only I/O travels as [`io::Error`], inside [`ProveError::Io`] with the
//! file it concerns; what is wrong with a shard's record is a
//! [`BadRecord`], a failure of the worker threads a [`ThreadsError`].
//! [`ProveError::is_usage`] says which errors are in what the user asked
//! for (the command line exits 2 on those).

use std::fmt;
use std::io;
use std::path::PathBuf;

use crate::classes::BucketError;
use crate::entry::{MAX_CELLS, MAX_TRIE_NODES};

/// Why a proof cannot run or its records cannot be read.
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
    /// A file or directory could not be read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        source: io::Error,
    },
    /// A directory given to merge holds no shard's files.
    NoShards {
        /// The directory (the first one given).
        dir: PathBuf,
    },
    /// A shard's file holds something that is not one of its records.
    Record {
        /// The file.
        path: PathBuf,
        /// One-based line number.
        line: usize,
        /// What is wrong.
        reason: BadRecord,
    },
    /// A shard was run with other settings than the rest of the proof.
    Mismatch {
        /// The file whose settings differ.
        path: PathBuf,
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

/// What is wrong with a line of a shard's file.
#[derive(Debug)]
pub enum BadRecord {
    /// It is not the JSON of a record (or of the shard's settings).
    Json(serde_json::Error),
    /// The settings name buckets that cannot be used.
    Buckets(BucketError),
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
                write!(f, "--shard {given} is not I/N with 0 <= I < N")
            }
            ProveError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            ProveError::NoShards { dir } => write!(f, "{}: no shard files here", dir.display()),
            ProveError::Record { path, line, reason } => {
                write!(f, "{}:{line}: {reason}", path.display())
            }
            ProveError::Mismatch { path } => write!(
                f,
                "{}: this shard was run with other settings",
                path.display()
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
            BadRecord::Json(e) => e.fmt(f),
            BadRecord::Buckets(e) => e.fmt(f),
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
            ProveError::Encode(e) => Some(e),
            _ => None,
        }
    }
}

impl std::error::Error for BadRecord {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BadRecord::Json(e) => Some(e),
            BadRecord::Buckets(e) => Some(e),
        }
    }
}

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
            ProveError::Buckets(_) | ProveError::Size { .. } | ProveError::Shard { .. }
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
        assert_eq!(e.to_string(), format!("out/shard-0-of-2.ndjson:3: {text}"));
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
}
