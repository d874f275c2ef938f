//! The protocol's framing on a TCP stream, shared by the server and the
//! client as mini-redis's `connection.rs` is: one message a line, each line
//! read whole and never past a cap set by who is at the other end, each line
//! written whole within a time limit, so a peer that stops reading is noticed
//! instead of waited on. What a line means is the caller's business: the
//! server decodes a client's lines after its rate limit, the client's
//! link (`boggle-client`'s `link`) decodes the server's.

use std::fmt;
use std::io;
use std::time::Duration;

use serde::Serialize;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};

use crate::codec::encode;
use crate::message::{MAX_LINE, MAX_SERVER_LINE};

/// Who is at the other end of a connection: what its lines may hold and how
/// it is named when it stops reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Peer {
    /// A player's client, as the server sees it.
    Client,
    /// The server, as a client sees it.
    Server,
}

impl Peer {
    /// The longest line taken from this peer, newline included. A client's
    /// messages are short ([`MAX_LINE`]); the server's longest, the results,
    /// are capped to fit [`MAX_SERVER_LINE`], so a client takes every message
    /// a server of this version sends, and a hostile one cannot make it hold
    /// unbounded memory.
    pub fn max_line(self) -> usize {
        match self {
            Peer::Client => MAX_LINE,
            Peer::Server => MAX_SERVER_LINE,
        }
    }
}

impl fmt::Display for Peer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Peer::Client => "the client",
            Peer::Server => "the server",
        })
    }
}

/// How reading one line went.
#[derive(Debug, PartialEq, Eq)]
pub enum Line<'a> {
    /// A whole line, its newline included (missing only when the stream
    /// ended in the middle of the last line).
    Read(&'a [u8]),
    /// The peer closed the connection.
    Eof,
    /// More than the cap without a newline.
    TooLong,
}

/// The reading half: whole lines, never more than the cap of them held.
pub struct LineReader<R> {
    reader: R,
    buf: Vec<u8>,
    max: usize,
    /// `buf` holds the line returned last: cleared before reading on.
    returned: bool,
}

impl<R: AsyncBufRead + Unpin> LineReader<R> {
    /// Reads lines of at most `max` bytes from `reader`.
    pub fn new(reader: R, max: usize) -> LineReader<R> {
        LineReader {
            reader,
            buf: Vec::with_capacity(256),
            max,
            returned: false,
        }
    }

    /// The next line. Cancel-safe: a partly read line stays in the buffer
    /// until the next call.
    pub async fn next_line(&mut self) -> io::Result<Line<'_>> {
        if std::mem::take(&mut self.returned) {
            self.buf.clear();
        }
        loop {
            let available = self.reader.fill_buf().await?;
            if available.is_empty() {
                if self.buf.is_empty() {
                    return Ok(Line::Eof);
                }
                self.returned = true;
                return Ok(Line::Read(&self.buf));
            }
            let (take, found) = match available.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (available.len(), false),
            };
            if self.buf.len() + take > self.max {
                return Ok(Line::TooLong);
            }
            self.buf.extend_from_slice(&available[..take]);
            self.reader.consume(take);
            if found {
                self.returned = true;
                return Ok(Line::Read(&self.buf));
            }
        }
    }

    /// The stream underneath, to drain what a peer being closed still sends.
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.reader
    }
}

/// The writing half: whole lines, each within a time limit.
pub struct LineWriter<W> {
    writer: W,
    peer: Peer,
    limit: Duration,
}

impl<W: AsyncWrite + Unpin> LineWriter<W> {
    /// Writes to `peer` through `writer`, giving each line `limit`.
    pub fn new(writer: W, peer: Peer, limit: Duration) -> LineWriter<W> {
        LineWriter {
            writer,
            peer,
            limit,
        }
    }

    /// Writes `line` (its newline included) whole. A peer that takes longer
    /// than the limit to take it has stopped reading: `TimedOut`.
    pub async fn write_line(&mut self, line: &str) -> io::Result<()> {
        match tokio::time::timeout(self.limit, self.writer.write_all(line.as_bytes())).await {
            Ok(written) => written,
            Err(_) => Err(io::Error::new(
                io::ErrorKind::TimedOut,
                format!("{} stopped reading", self.peer),
            )),
        }
    }

    /// Writes `msg` as one line.
    pub async fn send<T: Serialize>(&mut self, msg: &T) -> io::Result<()> {
        self.write_line(&encode(msg)).await
    }

    /// Closes the writing side, within the limit.
    pub async fn shutdown(&mut self) {
        let _ = tokio::time::timeout(self.limit, self.writer.shutdown()).await;
    }
}

/// One TCP connection, framed.
pub struct Connection {
    /// Lines from the peer.
    pub reader: LineReader<BufReader<OwnedReadHalf>>,
    /// Lines to the peer.
    pub writer: LineWriter<OwnedWriteHalf>,
}

impl Connection {
    /// Frames `stream` to `peer`, giving each line written `write_limit`.
    /// Nagle's algorithm is off: every message is a whole line, sent at once.
    pub fn new(stream: TcpStream, peer: Peer, write_limit: Duration) -> Connection {
        let _ = stream.set_nodelay(true);
        let (read_half, write_half) = stream.into_split();
        Connection {
            reader: LineReader::new(BufReader::with_capacity(8192, read_half), peer.max_line()),
            writer: LineWriter::new(write_half, peer, write_limit),
        }
    }

    /// Connects to the server at `addr` (`HOST:PORT`).
    pub async fn connect(addr: &str, write_limit: Duration) -> io::Result<Connection> {
        let stream = TcpStream::connect(addr).await?;
        Ok(Connection::new(stream, Peer::Server, write_limit))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn lines_are_read_whole_and_never_past_the_cap() {
        let mut lines = LineReader::new(&b"short\nmuch longer line\n"[..], 10);
        assert_eq!(lines.next_line().await.ok(), Some(Line::Read(b"short\n")));
        assert_eq!(lines.next_line().await.ok(), Some(Line::TooLong));
        assert!(lines.buf.len() <= 10);
        let mut empty = LineReader::new(&b""[..], 10);
        assert_eq!(empty.next_line().await.ok(), Some(Line::Eof));
        let mut cut = LineReader::new(&b"a\nb"[..], 10);
        assert_eq!(cut.next_line().await.ok(), Some(Line::Read(b"a\n")));
        assert_eq!(cut.next_line().await.ok(), Some(Line::Read(b"b")));
        assert_eq!(cut.next_line().await.ok(), Some(Line::Eof));
    }

    #[tokio::test]
    async fn a_peer_that_stops_reading_times_a_write_out() {
        let (ours, _theirs) = tokio::io::duplex(8);
        let mut writer = LineWriter::new(ours, Peer::Server, Duration::from_millis(20));
        let e = writer
            .write_line("a line longer than the pipe holds\n")
            .await
            .expect_err("nobody reads");
        assert_eq!(e.kind(), io::ErrorKind::TimedOut);
        assert_eq!(e.to_string(), "the server stopped reading");
    }
}
