//! Reading what a player types, as bytes: whole lines for answers and
//! whitespace-separated tokens for guesses (as C++'s `cin >> word` does).
//! Invalid UTF-8 and NUL bytes are data, not errors, and no line or token can
//! make memory grow past a fixed cap, however long it is.

use std::io::{self, BufRead, ErrorKind};

/// Longest line kept; the rest of a longer line is read and dropped.
pub const MAX_LINE: usize = 64 * 1024;
/// Longest token kept. Longer than any word a board can hold (4,096 cells of
/// at most two letters), so a cut token can never be mistaken for a word.
pub const MAX_TOKEN: usize = 16 * 1024;

/// A byte reader over any buffered input.
#[derive(Debug)]
pub struct Input<R> {
    inner: R,
}

impl<R: BufRead> Input<R> {
    /// Wraps `inner`.
    pub fn new(inner: R) -> Input<R> {
        Input { inner }
    }

    /// The next line without its line ending (at most `max` bytes kept), or
    /// `None` at end of input.
    pub fn read_line(&mut self, max: usize) -> io::Result<Option<Vec<u8>>> {
        let mut line = Vec::new();
        let mut any = false;
        loop {
            let buf = fill(&mut self.inner)?;
            if buf.is_empty() {
                break;
            }
            any = true;
            let (chunk, used, done) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (&buf[..i], i + 1, true),
                None => (buf, buf.len(), false),
            };
            let room = max.saturating_sub(line.len());
            line.extend_from_slice(&chunk[..chunk.len().min(room)]);
            self.inner.consume(used);
            if done {
                break;
            }
        }
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        Ok(any.then_some(line))
    }

    /// The next whitespace-separated token (at most `max` bytes kept), or
    /// `None` at end of input.
    pub fn next_token(&mut self, max: usize) -> io::Result<Option<Vec<u8>>> {
        let mut token = Vec::new();
        loop {
            let buf = fill(&mut self.inner)?;
            if buf.is_empty() {
                return Ok((!token.is_empty()).then_some(token));
            }
            let skip = if token.is_empty() {
                buf.iter().take_while(|&&b| is_space(b)).count()
            } else {
                0
            };
            let rest = &buf[skip..];
            let len = rest.iter().take_while(|&&b| !is_space(b)).count();
            let room = max.saturating_sub(token.len());
            token.extend_from_slice(&rest[..len.min(room)]);
            let ended = len < rest.len();
            self.inner.consume(skip + len);
            if ended && !token.is_empty() {
                return Ok(Some(token));
            }
        }
    }
}

/// The reader's buffered bytes, refilled if empty; retried when a signal interrupts the read.
fn fill<R: BufRead>(inner: &mut R) -> io::Result<&[u8]> {
    loop {
        match inner.fill_buf() {
            // Re-borrowed outside the loop: returning `buf` here would hold the
            // borrow across the retry, which the borrow checker refuses.
            Ok(_) => break,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
    inner.fill_buf()
}

/// White space as C's `isspace` sees it (Rust's `is_ascii_whitespace` leaves out vertical tab).
pub(crate) fn is_space(byte: u8) -> bool {
    byte.is_ascii_whitespace() || byte == 0x0B
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_drop_endings_and_cap_length() {
        let mut input = Input::new(&b"abc\r\ndefghij\nlast"[..]);
        assert_eq!(input.read_line(100).ok().flatten(), Some(b"abc".to_vec()));
        assert_eq!(input.read_line(3).ok().flatten(), Some(b"def".to_vec()));
        assert_eq!(input.read_line(100).ok().flatten(), Some(b"last".to_vec()));
        assert_eq!(input.read_line(100).ok().flatten(), None);
    }

    #[test]
    fn tokens_split_on_any_white_space() {
        let mut input = Input::new(&b"  one two\n\n\tthree\x0bfour\r\n"[..]);
        let mut got = Vec::new();
        while let Ok(Some(token)) = input.next_token(100) {
            got.push(String::from_utf8_lossy(&token).into_owned());
        }
        assert_eq!(got, ["one", "two", "three", "four"]);
    }

    #[test]
    fn long_tokens_are_cut_but_consumed() {
        let mut data = vec![b'x'; 100_000];
        data.extend_from_slice(b" next");
        let mut input = Input::new(&data[..]);
        assert_eq!(
            input.next_token(10).ok().flatten().map(|t| t.len()),
            Some(10)
        );
        assert_eq!(input.next_token(10).ok().flatten(), Some(b"next".to_vec()));
    }
}
