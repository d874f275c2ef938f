//! The seat's token kept between runs of `boggle join`, so a client killed
//! mid-round (`kill -9`, a closed window) takes its seat and words back when
//! the same `boggle join HOST --name NAME` is run again, with no token to
//! copy. One small file per server, room and name under the platform's
//! state directory (`$XDG_STATE_HOME/boggle/seats`, else
//! `~/.local/state/boggle/seats`), readable by its user only (0600 in a 0700
//! directory: a token is the seat). The file is written when the server
//! welcomes the player and removed when the player leaves on purpose or the
//! server refuses the token; `--token` still takes a seat on another machine.
//! Limits: the server is named as typed (`localhost:4040` and
//! `127.0.0.1:4040` keep two files); a file the user cannot write is
//! reported and the game goes on without it.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::xdg::{Base, program_dir_here};

/// Where one seat's token is kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatFile {
    path: PathBuf,
}

impl SeatFile {
    /// The file of `name`'s seat in `room` on `addr`, under the user's state
    /// directory; `None` when there is none (no `HOME`, no `XDG_STATE_HOME`).
    pub fn for_seat(addr: &str, room: &str, name: &str) -> Option<SeatFile> {
        let dir = program_dir_here(Base::State)?.join("seats");
        Some(SeatFile::in_dir(&dir, addr, room, name))
    }

    /// The file of `name`'s seat in `room` on `addr`, under `dir`.
    pub fn in_dir(dir: &Path, addr: &str, room: &str, name: &str) -> SeatFile {
        let file = format!("{}@{}@{}", escape(name), escape(room), escape(addr));
        SeatFile {
            path: dir.join(file),
        }
    }

    /// Where the token is kept.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The token kept, if there is a file holding one (a token is hex digits;
    /// anything else in the file is not one).
    pub fn load(&self) -> Option<String> {
        let text = fs::read_to_string(&self.path).ok()?;
        let token = text.lines().next()?.trim();
        let plausible = !token.is_empty()
            && token.len() <= 128
            && token.chars().all(|c| c.is_ascii_alphanumeric());
        plausible.then(|| token.to_string())
    }

    /// Keeps `token`, replacing the file whole (a crash mid-write leaves the
    /// old token or the new, never half of one), readable by the user only.
    pub fn save(&self, token: &str) -> io::Result<()> {
        let dir = self.path.parent().unwrap_or(Path::new("."));
        create_private_dir(dir)?;
        // tempfile creates the file with mode 0600.
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
        assert_eq!(seat.load(), None);
        seat.save("9f00aa").expect("saved");
        assert_eq!(seat.load().as_deref(), Some("9f00aa"));
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
        assert_eq!(seat.load().as_deref(), Some("77"));
        // Another room, server or name is another seat.
        assert_eq!(
            SeatFile::in_dir(&seats, "127.0.0.1:4040", "other", "ann b/c").load(),
            None
        );
        seat.forget().expect("removed");
        assert_eq!(seat.load(), None);
        seat.forget().expect("nothing to remove is fine");
        fs::write(seat.path(), "\u{1b}[2J\n").expect("written");
        assert_eq!(seat.load(), None, "not a token");
    }
}
