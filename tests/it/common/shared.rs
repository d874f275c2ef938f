//! What the integration tests and the binary's own unit tests both use: a
//! temporary folder, and text assertions that show what differs. The
//! integration tests reach it as `common::shared` (re-exported from
//! `common`); the binary's tests (`src/play/testing.rs`) include this file
//! by path, as a crate's unit tests cannot link the integration tests'
//! crate. It holds only what both use, so neither sees dead code.

use std::path::{Path, PathBuf};

/// A fresh, empty directory from `tempfile`, removed when dropped.
pub(crate) struct TempDir(tempfile::TempDir);

impl TempDir {
    /// A fresh, empty directory whose name starts `boggle-TAG-`.
    pub(crate) fn new(tag: &str) -> TempDir {
        let dir = tempfile::Builder::new()
            .prefix(&format!("boggle-{tag}-"))
            .tempdir()
            .expect("temp dir can be created");
        TempDir(dir)
    }

    /// The directory.
    pub(crate) fn path(&self) -> &Path {
        self.0.path()
    }

    /// Writes `contents` to `name` inside the directory and returns its path.
    pub(crate) fn write(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.0.path().join(name);
        std::fs::write(&path, contents).expect("temp file can be written");
        path
    }
}

/// Asserts that `text` contains `needle`, showing `text` when it does not.
#[track_caller]
pub(crate) fn assert_contains(text: &str, needle: &str) {
    assert!(text.contains(needle), "{needle:?} not in:\n{text}");
}

/// Asserts two long texts are equal, showing both in full when they are not.
#[track_caller]
pub(crate) fn assert_text(got: &str, expected: &str) {
    if got != expected {
        panic!("text differs\n--- expected\n{expected}\n--- got\n{got}\n---");
    }
}

/// The words of spec 004's example board (NIEHGTIBGUALRWGC) under the project4
/// rules with the original words.txt, plus words on the board only by going up.
pub(crate) const EXAMPLE_WORDS: &[&str] = &[
    "BAG", "BAL", "BIT", "EIN", "ETA", "GUR", "HEIL", "HIT", "ING", "INT", "INTI", "ITUR", "LAC",
    "LAG", "LAW", "NIT", "TAG", "TALC", "TAU", "TAW", "TIU", "TUA", "TUG", "LIT", "GIT", "WAG",
];
