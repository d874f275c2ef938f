//! The files the program keeps for itself (the records table, a hunt's
//! state and results, a seat's token), opened without trusting what is
//! under their names and replaced whole.
//!
//! # How it works
//! - Opening ([`open`], [`read_capped`]): never follows a symbolic link
//!   (`O_NOFOLLOW`: a link planted under the file's name, dangling or not,
//!   would have the program read or write its target), never waits on a
//!   FIFO (`O_NONBLOCK`: opening one without a writer would block), and
//!   accepts only a regular file of at most its format's size, checked on
//!   the file opened (not the name, which may change meanwhile). What is
//!   refused is a [`FileError`], one line that says what was found.
//! - Reading: at most the cap, and a line at a time with each line capped
//!   ([`next_line`]), so nothing is read whole, however large the file.
//! - Replacing ([`replace_whole`]): a new temporary file beside the old one,
//!   synced, renamed over it, so a crash at any point leaves either the old
//!   file or the new one, never a torn one.
//!
//! # Limits
//! Without `O_NOFOLLOW` and `O_NONBLOCK` (not Unix), a link is followed and
//! a FIFO can block the open; the check of what was opened still refuses
//! anything but a regular file. The directory's own sync (which makes a
//! rename durable) is skipped on file systems that cannot sync a directory.

use std::ffi::OsStr;
use std::fs::{self, File, Metadata, OpenOptions};
use std::io::{self, BufRead, Read, Write};
use std::path::{Path, PathBuf};

/// Why a file the program keeps for itself was not opened or read.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The file could not be opened or read.
    #[error("{}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        source: io::Error,
    },
    /// Something other than a regular file is under the file's name.
    #[error("{} is {what}, not a regular file: refused", path.display())]
    NotAFile {
        /// The file's name.
        path: PathBuf,
        /// What is there (`a FIFO`, `a symbolic link`, ...).
        what: &'static str,
    },
    /// The file is larger than its format allows.
    #[error("{} is larger than {limit} bytes, more than {what} can be: refused", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The most bytes it may hold.
        limit: u64,
        /// What the file should be (`a hunt's state`, ...).
        what: &'static str,
    },
}

impl FileError {
    /// An I/O failure on `path`, as a closure for `map_err`.
    pub fn io(path: &Path) -> impl FnOnce(io::Error) -> FileError + '_ {
        move |source| FileError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// Open options that never follow a symbolic link and never wait on a FIFO;
/// set read, write, append or create on them as needed, then [`open`].
pub fn options() -> OpenOptions {
    #[allow(unused_mut)]
    let mut options = OpenOptions::new();
    #[cfg(unix)]
    {
        use rustix::fs::OFlags;
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags((OFlags::NONBLOCK | OFlags::NOFOLLOW).bits() as i32);
    }
    options
}

/// What `meta` describes, for a refusal: `a FIFO`, `a device`, ...
fn kind_of(meta: &Metadata) -> &'static str {
    let kind = meta.file_type();
    if kind.is_symlink() {
        return "a symbolic link";
    }
    if kind.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_block_device() || kind.is_char_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_file() {
        "a regular file"
    } else {
        "not a file"
    }
}

/// Opens `path` with `options` (from [`options`]) if it is a regular file
/// of at most `limit` bytes (`what` the file should be, for the refusal);
/// `None` when nothing is under its name and `options` does not create it.
pub fn open(
    path: &Path,
    options: &OpenOptions,
    limit: u64,
    what: &'static str,
) -> Result<Option<File>, FileError> {
    let file = match options.open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            // A dangling link is "not found" to a call that follows it; this one did not.
            return match fs::symlink_metadata(path) {
                Ok(meta) => Err(FileError::NotAFile {
                    path: path.to_path_buf(),
                    what: kind_of(&meta),
                }),
                Err(_) => Ok(None),
            };
        }
        Err(e) => {
            // O_NOFOLLOW fails on a link with an error of its own: say what is there.
            return Err(match fs::symlink_metadata(path) {
                Ok(meta) if !meta.is_file() => FileError::NotAFile {
                    path: path.to_path_buf(),
                    what: kind_of(&meta),
                },
                _ => FileError::io(path)(e),
            });
        }
    };
    let meta = file.metadata().map_err(FileError::io(path))?;
    if !meta.is_file() {
        return Err(FileError::NotAFile {
            path: path.to_path_buf(),
            what: kind_of(&meta),
        });
    }
    if meta.len() > limit {
        return Err(FileError::TooLarge {
            path: path.to_path_buf(),
            limit,
            what,
        });
    }
    Ok(Some(file))
}

/// The bytes of the regular file `path`, at most `limit` of them (a file
/// that grows past `limit` while it is read is refused too); `None` when
/// there is nothing under its name.
pub fn read_capped(
    path: &Path,
    limit: u64,
    what: &'static str,
) -> Result<Option<Vec<u8>>, FileError> {
    let mut read = options();
    read.read(true);
    let Some(file) = open(path, &read, limit, what)? else {
        return Ok(None);
    };
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(FileError::io(path))?;
    if bytes.len() as u64 > limit {
        return Err(FileError::TooLarge {
            path: path.to_path_buf(),
            limit,
            what,
        });
    }
    Ok(Some(bytes))
}

/// One line as [`next_line`] reads it.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// A whole line, its newline included in the count but not in `line`.
    Whole(usize),
    /// Bytes after the last newline: a line cut off as it was written.
    Torn(usize),
    /// The end of the input.
    End,
    /// A line longer than the cap (nothing past the cap was read).
    TooLong,
}

/// Reads the next line of `reader` into `line` (cleared first), reading at
/// most `max` bytes before its newline: a longer line is [`Line::TooLong`]
/// as soon as its `max + 1`th byte is read, so no line is read whole.
pub fn next_line<R: BufRead>(reader: &mut R, max: usize, line: &mut Vec<u8>) -> io::Result<Line> {
    line.clear();
    let cap = u64::try_from(max).unwrap_or(u64::MAX).saturating_add(1);
    let read = reader.take(cap).read_until(b'\n', line)?;
    if read == 0 {
        return Ok(Line::End);
    }
    if line.last() == Some(&b'\n') {
        line.pop();
        return Ok(Line::Whole(read));
    }
    if line.len() > max {
        return Ok(Line::TooLong);
    }
    Ok(Line::Torn(read))
}

/// The directory holding `path` (`.` for a bare file name).
pub fn directory(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// Replaces `path` with `bytes` atomically, through a temporary file named
/// with `prefix` in the same directory. The rename replaces whatever is
/// under the name (a planted link itself, never its target).
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

    #[test]
    fn lines_are_capped_and_a_torn_last_line_is_told_apart() {
        let mut reader = io::Cursor::new(b"ab\n\nabcdef\ncd".to_vec());
        let mut line = Vec::new();
        let mut next = |max| next_line(&mut reader, max, &mut line).expect("read");
        assert_eq!(next(4), Line::Whole(3));
        assert_eq!(next(4), Line::Whole(1));
        assert_eq!(next(4), Line::TooLong);
        let mut reader = io::Cursor::new(b"cd".to_vec());
        assert_eq!(
            next_line(&mut reader, 4, &mut line).ok(),
            Some(Line::Torn(2))
        );
        assert_eq!(line, b"cd");
        assert_eq!(next_line(&mut reader, 4, &mut line).ok(), Some(Line::End));
        let mut exact = io::Cursor::new(b"abcd\n".to_vec());
        assert_eq!(
            next_line(&mut exact, 4, &mut line).ok(),
            Some(Line::Whole(5))
        );
    }

    #[cfg(unix)]
    #[test]
    fn links_fifos_devices_and_oversized_files_are_refused_unread() {
        let dir = tempfile::tempdir().expect("temp dir");
        let refused = |path: &Path| match read_capped(path, 100, "a test file") {
            Err(FileError::NotAFile { what, .. }) => what,
            other => panic!("{}: {other:?}", path.display()),
        };
        let target = dir.path().join("target");
        std::fs::write(&target, "precious\n").expect("written");
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&target, &link).expect("a link");
        assert_eq!(refused(&link), "a symbolic link");
        let dangling = dir.path().join("dangling");
        std::os::unix::fs::symlink(dir.path().join("nowhere"), &dangling).expect("a link");
        assert_eq!(refused(&dangling), "a symbolic link");
        // Opened to be made, a dangling link is not followed either.
        let mut create = options();
        create.create(true).append(true);
        assert!(open(&dangling, &create, 100, "a test file").is_err());
        assert!(
            !dir.path().join("nowhere").exists(),
            "the link was followed"
        );
        let fifo = dir.path().join("fifo");
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &fifo,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .expect("a FIFO");
        assert_eq!(refused(&fifo), "a FIFO");
        assert_eq!(refused(Path::new("/dev/zero")), "a device");
        assert_eq!(refused(dir.path()), "a directory");
        let big = dir.path().join("big");
        File::create(&big)
            .and_then(|file| file.set_len(3 << 30))
            .expect("a sparse file");
        assert!(matches!(
            read_capped(&big, 100, "a test file"),
            Err(FileError::TooLarge { limit: 100, .. })
        ));
        assert!(matches!(
            read_capped(&dir.path().join("none"), 100, "x"),
            Ok(None)
        ));
        assert_eq!(
            read_capped(&target, 100, "x").expect("read").as_deref(),
            Some(&b"precious\n"[..])
        );
    }
}
