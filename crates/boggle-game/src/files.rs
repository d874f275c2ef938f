//! Files replaced whole: the records table and a hunt's state are written to
//! a new temporary file beside their place, synced, and renamed over it, so
//! a crash at any point leaves either the old file or the new one, never a
//! torn one. Limit: the directory's own sync (which makes the rename
//! durable) is skipped on file systems that cannot sync a directory.

use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, Write};
use std::path::Path;

/// The directory holding `path` (`.` for a bare file name).
pub fn directory(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// Replaces `path` with `bytes` atomically, through a temporary file named
/// with `prefix` in the same directory.
pub fn replace_whole(path: &Path, prefix: &OsStr, bytes: &[u8]) -> io::Result<()> {
    let dir = directory(path);
    let mut temp = tempfile::Builder::new().prefix(prefix).tempfile_in(dir)?;
    temp.write_all(bytes)?;
    // Without the sync a crash after the rename could leave an empty file in its place.
    temp.as_file().sync_all()?;
    temp.persist(path).map_err(|e| e.error)?;
    if let Ok(dir) = File::open(dir) {
        let _ = dir.sync_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_is_replaced_and_no_temporary_is_left() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("state");
        std::fs::write(&path, "old").expect("written");
        replace_whole(&path, OsStr::new(".state-"), b"new").expect("replaced");
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "new");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .expect("listed")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert_eq!(names, ["state"]);
    }
}
