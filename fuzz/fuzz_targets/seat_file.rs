//! Fuzzes `boggle join`'s seat file: its name, made from any server, room
//! and player name, is one file name the file system takes (no `/`, no NUL,
//! at most 200 bytes), two seats never share one, and whatever bytes the
//! file holds, the token read from it is 1 to 128 letters and digits from
//! its first line, or none; read from a real file, at most 4 KB are read.
#![no_main]

use std::path::Path;
use std::sync::OnceLock;

use boggle_client::seat::{MAX_SEAT_BYTES, SeatFile, token_of};
use libfuzzer_sys::fuzz_target;

fn dir() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| tempfile::tempdir().expect("a temporary directory"))
        .path()
}

fuzz_target!(|data: &[u8]| {
    if let Some(token) = token_of(data) {
        assert!((1..=128).contains(&token.len()), "{token:?}");
        assert!(
            token.bytes().all(|b| b.is_ascii_alphanumeric()),
            "{token:?}"
        );
        let first = String::from_utf8_lossy(data);
        assert!(
            first
                .lines()
                .next()
                .is_some_and(|line| line.trim() == token)
        );
    }
    // The bytes, split in three, as a server, a room and a name.
    let text = String::from_utf8_lossy(data);
    let mut parts = text.splitn(3, '\u{0}');
    let (addr, room, name) = (
        parts.next().unwrap_or_default(),
        parts.next().unwrap_or_default(),
        parts.next().unwrap_or_default(),
    );
    let seat = SeatFile::in_dir(dir(), addr, room, name);
    let file = seat
        .path()
        .file_name()
        .and_then(|n| n.to_str())
        .expect("an ASCII name");
    assert!(file.len() <= 200, "{} bytes", file.len());
    assert!(!file.bytes().any(|b| b == b'/' || b == 0), "{file:?}");
    assert_eq!(seat.path().parent(), Some(dir()));
    let other = SeatFile::in_dir(dir(), addr, room, &format!("{name}x"));
    assert_ne!(other.path(), seat.path());
    // Read back from a real file: a token or none, and never more than the cap.
    std::fs::write(seat.path(), data).expect("written");
    match seat.load() {
        Ok(token) => {
            assert!(data.len() as u64 <= MAX_SEAT_BYTES);
            assert_eq!(token, token_of(data));
        }
        Err(_) => assert!(data.len() as u64 > MAX_SEAT_BYTES),
    }
    let _ = std::fs::remove_file(seat.path());
});
