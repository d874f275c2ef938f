//! Reading and writing a shard's files without trusting them: only regular
//! files are opened (a FIFO or a device under a shard's file's name is
//! refused before it can block a run or stream forever), no symbolic link
//! is followed (a link planted under a shard's file's name would otherwise
//! have the run write through it to its target), each kind of file
//! is read up to its cap (`limits`), records are read one line at a time
//! with each line capped, and a file is replaced by writing a fresh
//! temporary file and renaming it.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufRead, Read, Write};
use std::path::Path;

use crate::error::{BadRecord, ProveError};

/// A closure that makes a [`ProveError::Io`] for `path`.
pub(crate) fn io_error(path: &Path) -> impl FnOnce(io::Error) -> ProveError + '_ {
    move |source| ProveError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Options that never wait on a FIFO and never follow a link: opening a
/// FIFO without a writer (or reader) would block, and `O_NONBLOCK` makes
/// the open return at once, so the check of what was opened can refuse it;
/// `O_NOFOLLOW` makes opening a symbolic link fail instead of opening (and
/// writing) its target, even if one is put there after the check by name.
pub(crate) fn options() -> OpenOptions {
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

/// Whether `path` is there and is something other than a regular file (a
/// symbolic link included, whatever it points to); an error saying so if it is.
pub(crate) fn refuse_special(path: &Path) -> Result<bool, ProveError> {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.is_file() => Ok(true),
        Ok(_) => Err(ProveError::NotAFile {
            path: path.to_path_buf(),
        }),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(io_error(path)(e)),
    }
}

/// Checks that `file`, opened from `path`, is a regular file of at most
/// `limit` bytes (the file opened, not the name: it may have changed since).
pub(crate) fn check_opened(file: &File, path: &Path, limit: u64) -> Result<u64, ProveError> {
    let meta = file.metadata().map_err(io_error(path))?;
    if !meta.is_file() {
        return Err(ProveError::NotAFile {
            path: path.to_path_buf(),
        });
    }
    if meta.len() > limit {
        return Err(ProveError::TooBig {
            path: path.to_path_buf(),
            limit,
        });
    }
    Ok(meta.len())
}

/// Opens a regular file of at most `limit` bytes for reading; `None` if
/// there is nothing under its name.
pub(crate) fn open_regular(path: &Path, limit: u64) -> Result<Option<File>, ProveError> {
    if !refuse_special(path)? {
        return Ok(None);
    }
    let file = match options().read(true).open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_error(path)(e)),
    };
    check_opened(&file, path, limit)?;
    Ok(Some(file))
}

/// The whole of a regular file of at most `limit` bytes; `None` if there is
/// nothing under its name. Reads at most `limit` bytes even if the file
/// grows while it is read.
pub(crate) fn read_regular(path: &Path, limit: u64) -> Result<Option<Vec<u8>>, ProveError> {
    let Some(file) = open_regular(path, limit)? else {
        return Ok(None);
    };
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(io_error(path))?;
    if bytes.len() as u64 > limit {
        return Err(ProveError::TooBig {
            path: path.to_path_buf(),
            limit,
        });
    }
    Ok(Some(bytes))
}

/// Writes `text` to `path` through a temporary file beside it and a rename,
/// so a reader sees the old file or the new one, never part of one.
pub(crate) fn write_atomic(path: &Path, text: &str) -> Result<(), ProveError> {
    let temp = path.with_extension("tmp");
    // Whatever is under the temporary name (a FIFO would block the open) goes first.
    match fs::remove_file(&temp) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(io_error(&temp)(e)),
    }
    let mut file = options()
        .write(true)
        .create_new(true)
        .open(&temp)
        .map_err(io_error(&temp))?;
    file.write_all(text.as_bytes()).map_err(io_error(&temp))?;
    file.sync_all().map_err(io_error(&temp))?;
    fs::rename(&temp, path).map_err(io_error(path))
}

/// How a stream of lines ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Tail {
    /// Bytes up to the end of the last whole line.
    pub(crate) whole: u64,
    /// Whether bytes follow the last whole line (a line cut off as it was written).
    pub(crate) partial: bool,
    /// Lines read, the partial one included.
    pub(crate) lines: usize,
}

/// Calls `each(number, line)` for every whole line of `reader` (one-based,
/// without its newline), each at most `max` bytes; a partial last line is
/// not passed on but reported in the [`Tail`]. A line over `max` bytes is
/// an error as soon as its `max + 1`th byte is read, so nothing is read
/// whole however large the stream.
pub(crate) fn for_each_line<R: BufRead, E>(
    mut reader: R,
    max: usize,
    mut each: impl FnMut(usize, &[u8]) -> Result<(), E>,
    too_long: impl Fn(usize, BadRecord) -> E,
    io: impl Fn(io::Error) -> E,
) -> Result<Tail, E> {
    let mut tail = Tail {
        whole: 0,
        partial: false,
        lines: 0,
    };
    let mut line = Vec::new();
    loop {
        let chunk = match reader.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(io(e)),
        };
        if chunk.is_empty() {
            tail.partial = !line.is_empty();
            tail.lines += usize::from(tail.partial);
            return Ok(tail);
        }
        let (take, ends) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        let body = if ends { take - 1 } else { take };
        if line.len() + body > max {
            return Err(too_long(tail.lines + 1, BadRecord::TooLong { limit: max }));
        }
        line.extend_from_slice(&chunk[..body]);
        reader.consume(take);
        if ends {
            tail.lines += 1;
            tail.whole += (line.len() + 1) as u64;
            each(tail.lines, &line)?;
            line.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each line read with its number.
    type Numbered = Vec<(usize, Vec<u8>)>;

    fn lines(text: &[u8], max: usize) -> Result<(Numbered, Tail), usize> {
        let mut seen = Vec::new();
        let tail = for_each_line(
            text,
            max,
            |n, line| {
                seen.push((n, line.to_vec()));
                Ok(())
            },
            |n, _| n,
            |_| 0,
        )?;
        Ok((seen, tail))
    }

    #[test]
    fn lines_are_whole_capped_and_the_partial_one_is_reported() {
        let (seen, tail) = lines(b"ab\n\ncd\nef", 10).expect("short lines");
        assert_eq!(
            seen,
            [(1, b"ab".to_vec()), (2, b"".to_vec()), (3, b"cd".to_vec())]
        );
        assert_eq!(
            tail,
            Tail {
                whole: 7,
                partial: true,
                lines: 4
            }
        );
        assert_eq!(lines(b"abc\nabcdef\n", 5).map(|_| ()), Err(2));
        assert_eq!(lines(b"abcdef", 5).map(|_| ()), Err(1));
        let (_, tail) = lines(b"", 5).expect("empty");
        assert!(!tail.partial && tail.whole == 0);
    }

    /// An empty folder of this test process's own, named after `what`.
    fn fresh_dir(what: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("boggle-prove-{what}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("a temporary directory");
        dir
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_is_refused_and_its_target_left_alone() {
        let dir = fresh_dir("link");
        let target = dir.join("target.txt");
        fs::write(&target, "precious\n").expect("written");
        let link = dir.join("shard-0-of-4.ndjson");
        std::os::unix::fs::symlink(&target, &link).expect("a link");
        assert!(matches!(
            refuse_special(&link),
            Err(ProveError::NotAFile { .. })
        ));
        assert!(matches!(
            open_regular(&link, 1 << 20),
            Err(ProveError::NotAFile { .. })
        ));
        // Even past the check by name, the open itself does not follow it.
        let opened = options().append(true).create(true).open(&link);
        assert!(opened.is_err(), "the link was followed");
        assert_eq!(
            fs::read_to_string(&target).ok().as_deref(),
            Some("precious\n")
        );
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn fifos_and_devices_are_refused_before_they_are_read() {
        let dir = fresh_dir("files");
        let fifo = dir.join("shard-0-of-1.ndjson");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            assert!(matches!(
                read_regular(&fifo, 100),
                Err(ProveError::NotAFile { .. })
            ));
        }
        assert!(matches!(
            read_regular(Path::new("/dev/zero"), 100),
            Err(ProveError::NotAFile { .. })
        ));
        let big = dir.join("big");
        let file = File::create(&big).expect("a file");
        file.set_len(1 << 33).expect("a sparse file");
        assert!(matches!(
            read_regular(&big, 100),
            Err(ProveError::TooBig { limit: 100, .. })
        ));
        assert!(matches!(read_regular(&dir.join("none"), 100), Ok(None)));
        let _ = fs::remove_dir_all(&dir);
    }
}
