//! The seat's token kept between runs of `boggle join`, so a client killed
//! mid-round (`kill -9`, a closed window) takes its seat and words back when
//! the same `boggle join HOST --name NAME` is run again, with no token to
//! copy. One small file per server, room and name under the platform's
//! state directory (`$XDG_STATE_HOME/boggle/seats`, else
//! `~/.local/state/boggle/seats`), readable by its user only (0600 in a 0700
//! directory: a token is the seat). The file is written when the server
//! welcomes the player and removed when the player leaves on purpose or the
//! server refuses the token; `--token` still takes a seat on another machine.
//!
//! One seat, one client: a `boggle join` holds the seat's lock (an
//! exclusive `flock` on the file's `.lock` beside it, dropped by the system
//! when the process ends) for as long as it runs, so a second one of the
//! same seat is told at once that the seat is in use, and takes nothing.
//!
//! What is in the folder is not trusted: the seat file and its lock are
//! opened as [`boggle_files`] opens a file (a FIFO, a device or a
//! symbolic link, dangling or not, is refused, never followed), and at most
//! [`MAX_SEAT_BYTES`] of the seat file are read. A name that would pass the
//! file system's limit on a file name (a room and a name of wide characters,
//! each byte escaped) is shortened, and a hash of the whole name keeps it
//! apart from every other seat's.
//!
//! Limits: the server is named as typed (`localhost:4040` and
//! `127.0.0.1:4040` keep two files); a file the user cannot write, or one
//! refused, is reported and the game goes on without it; lock files stay
//! (removing one while another process waits on it would let a third lock a
//! new one).

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use etcetera::BaseStrategy;
use sha2::{Digest, Sha256};

use boggle_files::{self as files, FileError};

/// The most bytes of a seat file read: a token is at most 128 characters.
pub const MAX_SEAT_BYTES: u64 = 4096;

/// The longest a seat file's name may be, its `.lock` sibling's included
/// with room to spare: file systems allow 255 bytes.
const MAX_FILE_NAME: usize = 200;

/// How much of the escaped name a shortened name keeps, before its hash.
const KEPT_OF_NAME: usize = 160;

/// Where one seat's token is kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatFile {
    path: PathBuf,
}

/// Why a seat's file or lock cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum SeatError {
    /// Another `boggle join` on this machine holds the seat.
    #[error(
        "this seat is in use by another boggle join on this machine (it holds {})",
        path.display()
    )]
    InUse {
        /// The lock file.
        path: PathBuf,
    },
    /// The file, its lock or their folder is not one to use.
    #[error(transparent)]
    File(#[from] FileError),
}

/// The seat's lock, held while this lives (the system lets go when the process ends).
#[derive(Debug)]
pub struct SeatLock {
    _file: File,
}

impl SeatFile {
    /// The file of `name`'s seat in `room` on `addr`, under the user's state
    /// directory; `None` when there is none (no `HOME`, no `XDG_STATE_HOME`).
    pub fn for_seat(addr: &str, room: &str, name: &str) -> Option<SeatFile> {
        let dir = state_dir_here()?.join("boggle").join("seats");
        Some(SeatFile::in_dir(&dir, addr, room, name))
    }

    /// The file of `name`'s seat in `room` on `addr`, under `dir`.
    pub fn in_dir(dir: &Path, addr: &str, room: &str, name: &str) -> SeatFile {
        let file = format!("{}@{}@{}", escape(name), escape(room), escape(addr));
        SeatFile {
            path: dir.join(shortened(file)),
        }
    }

    /// Where the token is kept.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Takes the seat's lock, or says another process holds it.
    pub fn lock(&self) -> Result<SeatLock, SeatError> {
        let path = self.lock_path();
        create_private_dir(files::directory(&path)).map_err(FileError::io(&path))?;
        let mut options = files::options();
        options.create(true).truncate(false).write(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let file = files::open(&path, &options, MAX_SEAT_BYTES, "a lock file")?
            .ok_or_else(|| FileError::io(&path)(io::ErrorKind::NotFound.into()))?;
        match file.try_lock() {
            Ok(()) => Ok(SeatLock { _file: file }),
            Err(fs::TryLockError::WouldBlock) => Err(SeatError::InUse { path }),
            Err(fs::TryLockError::Error(e)) => Err(FileError::io(&path)(e).into()),
        }
    }

    /// The token kept, if there is a file holding one (a token is letters and
    /// digits; anything else in the file is not one). Only a regular file of
    /// at most [`MAX_SEAT_BYTES`] is read; anything else is refused.
    pub fn load(&self) -> Result<Option<String>, SeatError> {
        let Some(bytes) = files::read_capped(&self.path, MAX_SEAT_BYTES, "a seat's token")? else {
            return Ok(None);
        };
        Ok(token_of(&bytes))
    }

    /// Keeps `token`, replacing the file whole (a crash mid-write leaves the
    /// old token or the new, never half of one), readable by the user only.
    pub fn save(&self, token: &str) -> io::Result<()> {
        let dir = files::directory(&self.path);
        create_private_dir(dir)?;
        // tempfile creates the file with mode 0600; the rename replaces
        // whatever is under the name (a planted link itself, not its target).
        let mut file = tempfile::NamedTempFile::new_in(dir)?;
        writeln!(file, "{token}")?;
        file.as_file().sync_all()?;
        file.persist(&self.path).map_err(|e| e.error)?;
        Ok(())
    }

    /// Removes the file (there being none is no failure).
    pub fn forget(&self) -> io::Result<()> {
        match fs::remove_file(&self.path) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        }
    }

    /// The lock file beside the seat file.
    fn lock_path(&self) -> PathBuf {
        let mut name = self.path.file_name().unwrap_or_default().to_os_string();
        name.push(".lock");
        self.path.with_file_name(name)
    }
}

/// The token in a seat file's bytes: its first line, trimmed, if it is 1 to
/// 128 ASCII letters and digits.
pub fn token_of(bytes: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(bytes).ok()?;
    let token = text.lines().next()?.trim();
    let plausible =
        !token.is_empty() && token.len() <= 128 && token.chars().all(|c| c.is_ascii_alphanumeric());
    plausible.then(|| token.to_string())
}

/// The user's state folder in this process's environment, as the XDG base
/// directory specification places it (etcetera's XDG strategy):
/// `$XDG_STATE_HOME`, else `~/.local/state`; `None` without a home folder.
fn state_dir_here() -> Option<PathBuf> {
    etcetera::base_strategy::Xdg::new().ok()?.state_dir()
}

/// `text` as part of a file name: letters, digits, `.` and `-` as they are,
/// every other byte as `%XX` (so no `/`, no `@` that would join two parts).
fn escape(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b == b'.' || b == b'-' {
                char::from(b).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// `name` (escaped, so ASCII) as it fits [`MAX_FILE_NAME`]: as it is when it
/// does, else its first [`KEPT_OF_NAME`] bytes (never half of a `%XX`), `~`
/// and 32 hex digits of the SHA-256 of the whole name.
fn shortened(name: String) -> String {
    if name.len() <= MAX_FILE_NAME {
        return name;
    }
    let mut cut = KEPT_OF_NAME;
    // An escape is `%` and two digits: do not end inside one.
    if let Some(at) = name[..cut].rfind('%')
        && at + 3 > cut
    {
        cut = at;
    }
    let digest = Sha256::digest(name.as_bytes());
    let hash: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
    format!("{}~{hash}", &name[..cut])
}

/// Creates `dir` and its parents, the last readable by the user only.
fn create_private_dir(dir: &Path) -> io::Result<()> {
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_is_kept_for_its_user_only_and_forgotten() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let seats = dir.path().join("boggle/seats");
        let seat = SeatFile::in_dir(&seats, "127.0.0.1:4040", "main", "ann b/c");
        assert_eq!(seat.load().ok(), Some(None));
        seat.save("9f00aa").expect("saved");
        assert_eq!(seat.load().ok(), Some(Some("9f00aa".into())));
        assert_eq!(
            seat.path().file_name().and_then(|n| n.to_str()),
            Some("ann%20b%2Fc@main@127.0.0.1%3A4040")
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = |p: &Path| fs::metadata(p).expect("exists").permissions().mode() & 0o777;
            assert_eq!(mode(seat.path()), 0o600);
            assert_eq!(mode(&seats), 0o700);
        }
        seat.save("77").expect("replaced");
        assert_eq!(seat.load().ok(), Some(Some("77".into())));
        // Another room, server or name is another seat.
        let other = SeatFile::in_dir(&seats, "127.0.0.1:4040", "other", "ann b/c");
        assert_eq!(other.load().ok(), Some(None));
        seat.forget().expect("removed");
        assert_eq!(seat.load().ok(), Some(None));
        seat.forget().expect("nothing to remove is fine");
        fs::write(seat.path(), "\u{1b}[2J\n").expect("written");
        assert_eq!(seat.load().ok(), Some(None), "not a token");
    }

    #[test]
    fn one_seat_is_locked_by_one_process_at_a_time() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let seat = SeatFile::in_dir(dir.path(), "127.0.0.1:4040", "main", "ann");
        let held = seat.lock().expect("the first takes it");
        // Another open file description is another process's as far as flock goes.
        assert!(matches!(seat.lock(), Err(SeatError::InUse { .. })));
        let other = SeatFile::in_dir(dir.path(), "127.0.0.1:4040", "main", "bob");
        other.lock().expect("another seat is free");
        drop(held);
        seat.lock().expect("free again");
    }

    #[test]
    fn a_name_past_the_file_systems_limit_is_shortened_with_a_hash() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let wide = "鬱".repeat(20);
        let other = format!("{}龜", "鬱".repeat(19));
        let seat = SeatFile::in_dir(dir.path(), "127.0.0.1:4040", &wide, &wide);
        let name = seat
            .path()
            .file_name()
            .and_then(|n| n.to_str())
            .expect("a name");
        assert!(name.len() <= MAX_FILE_NAME, "{} bytes", name.len());
        assert!(name.starts_with("%E9%AC%B1"), "{name}");
        // Kept, read back, and apart from a seat whose name differs only past the cut.
        seat.save("abc123").expect("kept");
        assert_eq!(seat.load().ok(), Some(Some("abc123".into())));
        let near = SeatFile::in_dir(dir.path(), "127.0.0.1:4040", &wide, &other);
        assert_ne!(near.path(), seat.path());
        assert_eq!(near.load().ok(), Some(None));
        seat.lock().expect("its lock's name fits too");
        // A name that fits is as it was.
        let short = SeatFile::in_dir(dir.path(), "h:1", "main", "ann");
        assert_eq!(
            short.path().file_name().and_then(|n| n.to_str()),
            Some("ann@main@h%3A1")
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_planted_seat_file_is_refused_unread() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let seat = SeatFile::in_dir(dir.path(), "127.0.0.1:4040", "main", "ann");
        let refused = |seat: &SeatFile| match seat.load() {
            Err(SeatError::File(FileError::NotAFile { what, .. })) => what,
            other => panic!("{other:?}"),
        };
        std::os::unix::fs::symlink("/dev/zero", seat.path()).expect("a link");
        assert_eq!(refused(&seat), "a symbolic link");
        fs::remove_file(seat.path()).expect("removed");
        std::os::unix::fs::symlink(dir.path().join("nowhere"), seat.path()).expect("a link");
        assert_eq!(refused(&seat), "a symbolic link");
        fs::remove_file(seat.path()).expect("removed");
        let made = std::process::Command::new("mkfifo")
            .arg(seat.path())
            .status()
            .expect("mkfifo runs");
        assert!(made.success(), "a FIFO");
        assert_eq!(refused(&seat), "a FIFO");
        fs::remove_file(seat.path()).expect("removed");
        File::create(seat.path())
            .and_then(|file| file.set_len(3 << 30))
            .expect("a sparse file");
        assert!(matches!(
            seat.load(),
            Err(SeatError::File(FileError::TooLarge {
                limit: MAX_SEAT_BYTES,
                ..
            }))
        ));
    }
}
