//! What the play modules' unit tests share: a text comparison that shows
//! both sides, the words of spec 004's example board, and a temporary
//! folder to write files into. The integration tests (tests/it) keep their
//! own in `common/`, which these cannot reach.

use std::path::{Path, PathBuf};

/// Fails with both texts in full when `got` is not `expected`, so a long
/// transcript's difference can be read.
#[track_caller]
pub(crate) fn assert_text(got: &str, expected: &str) {
    if got != expected {
        panic!("text differs\n--- expected\n{expected}\n--- got\n{got}\n---");
    }
}

/// Fails with all of `text` when it does not hold `part`.
#[track_caller]
pub(crate) fn assert_holds(text: &str, part: &str) {
    assert!(text.contains(part), "{text}");
}

/// The words of spec 004's example board (NIEHGTIBGUALRWGC) under the project4
/// rules with the original words.txt, plus words on the board only by going up.
pub(crate) const EXAMPLE_WORDS: &[&str] = &[
    "BAG", "BAL", "BIT", "EIN", "ETA", "GUR", "HEIL", "HIT", "ING", "INT", "INTI", "ITUR", "LAC",
    "LAG", "LAW", "NIT", "TAG", "TALC", "TAU", "TAW", "TIU", "TUA", "TUG", "LIT", "GIT", "WAG",
];

/// A temporary folder, removed when dropped.
pub(crate) struct TempDir(tempfile::TempDir);

impl TempDir {
    /// A fresh, empty folder whose name starts `boggle-TAG-`.
    pub(crate) fn new(tag: &str) -> TempDir {
        let dir = tempfile::Builder::new()
            .prefix(&format!("boggle-{tag}-"))
            .tempdir()
            .expect("temp dir can be created");
        TempDir(dir)
    }

    /// The folder.
    pub(crate) fn path(&self) -> &Path {
        self.0.path()
    }

    /// Writes `contents` to `name` inside the folder and returns its path.
    pub(crate) fn write(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.0.path().join(name);
        std::fs::write(&path, contents).expect("temp file can be written");
        path
    }
}
