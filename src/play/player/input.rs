//! Reading what a player types, as bytes: whole lines for answers and
//! whitespace-separated tokens for guesses (as C++'s `cin >> word` does).
//! Invalid UTF-8 and NUL bytes are data, not errors, and no line or token can
//! make memory grow past a fixed cap, however long it is.

use std::io::{self, BufRead, ErrorKind};

/// Longest line kept; the rest of a longer line is read and dropped.
pub(crate) const MAX_LINE: usize = 64 * 1024;
/// Longest token kept. Longer than any word a board can hold (4,096 cells of
/// at most two letters), so a cut token can never be mistaken for a word.
pub(crate) const MAX_TOKEN: usize = 16 * 1024;

/// A byte reader over any buffered input.
#[derive(Debug)]
pub(crate) struct Input<R> {
    inner: R,
    /// A read error held back until the line or token it cut short has been returned.
    failed: Option<io::Error>,
}

impl<R: BufRead> Input<R> {
    /// Wraps `inner`.
    pub(crate) fn new(inner: R) -> Input<R> {
        Input {
            inner,
            failed: None,
        }
    }

    /// Returns an error held back by an earlier read.
    fn held_error(&mut self) -> io::Result<()> {
        self.failed.take().map_or(Ok(()), Err)
    }

    /// The next line without its line ending (at most `max` bytes kept), or
    /// `None` at end of input.
    pub(crate) fn read_line(&mut self, max: usize) -> io::Result<Option<Vec<u8>>> {
        self.held_error()?;
        let mut line = Vec::new();
        let mut any = false;
        loop {
            let buf = match self.inner.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                // An error that cuts bytes short is held back until they are returned.
                Err(e) if any => {
                    self.failed = Some(e);
                    &[]
                }
                Err(e) => return Err(e),
            };
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
    pub(crate) fn next_token(&mut self, max: usize) -> io::Result<Option<Vec<u8>>> {
        self.held_error()?;
        let mut token = Vec::new();
        loop {
            let buf = match self.inner.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                // An error that cuts bytes short is held back until they are returned.
                Err(e) if !token.is_empty() => {
                    self.failed = Some(e);
                    &[]
                }
                Err(e) => return Err(e),
            };
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

    /// Hands out its bytes, then fails.
    struct Failing<'a>(&'a [u8]);

    impl std::io::Read for Failing<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() {
                return Err(io::Error::other("gone"));
            }
            let n = buf.len().min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn an_error_after_a_partial_token_returns_the_token_first() {
        let mut input = Input::new(io::BufReader::new(Failing(b"one tw")));
        assert_eq!(input.next_token(100).ok().flatten(), Some(b"one".to_vec()));
        assert_eq!(input.next_token(100).ok().flatten(), Some(b"tw".to_vec()));
        assert!(input.next_token(100).is_err());
        let mut input = Input::new(io::BufReader::new(Failing(b"line")));
        assert_eq!(input.read_line(100).ok().flatten(), Some(b"line".to_vec()));
        assert!(input.read_line(100).is_err());
    }
}
