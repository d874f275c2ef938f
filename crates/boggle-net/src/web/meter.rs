//! The bytes a browser's connection sends, metered below the WebSocket
//! layer. That layer hands over only whole messages, and a message may be
//! split into any number of frames, empty ones too: counted by messages
//! alone, an endless run of empty continuation frames costs a core and
//! never counts once. So the connection's stream is wrapped in a
//! [`Metered`] that counts every byte read into a shared [`Meter`], and
//! the socket's reader allows each message at most [`PER_MESSAGE`] bytes
//! read since the one before (a ping or pong between adds only its own
//! bytes, so pings among a message's fragments renew nothing): past it,
//! the next read fails, and the client is told its message was too long.
//!
//! Its limit: bytes are counted as the WebSocket layer reads them, a
//! buffer at a time, so a message is judged to within one read buffer
//! (8 KiB) of its own bytes. Before the upgrade nothing is capped (the
//! HTTP side has its own limits).

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use super::MAX_WS_MESSAGE;

/// The most bytes read between two messages: the longest message the
/// WebSocket layer takes in frames of any size, what it reads ahead, and
/// as much again to spare. An endless run of empty fragments reaches it
/// within a millisecond or so.
pub(crate) const PER_MESSAGE: u64 = 4 * MAX_WS_MESSAGE as u64;

/// The longest control frame (a ping or pong) a client sends: its head and
/// mask, 6 bytes, and at most 125 of payload.
pub(crate) const CONTROL_FRAME: u64 = 6 + 125;

/// The bytes read from one connection, and how far they may go.
#[derive(Clone, Debug)]
pub(crate) struct Meter(Arc<Counts>);

#[derive(Debug)]
struct Counts {
    read: AtomicU64,
    limit: AtomicU64,
}

impl Meter {
    /// A meter with no limit yet.
    pub(crate) fn new() -> Meter {
        Meter(Arc::new(Counts {
            read: AtomicU64::new(0),
            limit: AtomicU64::new(u64::MAX),
        }))
    }

    /// Lets `more` bytes be read from now on, and no more.
    pub(crate) fn allow(&self, more: u64) {
        let read = self.0.read.load(Ordering::Relaxed);
        self.0
            .limit
            .store(read.saturating_add(more), Ordering::Relaxed);
    }

    /// Lets `more` bytes be read beyond what was allowed already.
    pub(crate) fn extend(&self, more: u64) {
        let _ = self
            .0
            .limit
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |limit| {
                Some(limit.saturating_add(more))
            });
    }

    /// Whether the reads went past what was allowed.
    pub(crate) fn spent(&self) -> bool {
        self.0.read.load(Ordering::Relaxed) > self.0.limit.load(Ordering::Relaxed)
    }
}

/// A stream whose reads are counted on a [`Meter`] and fail once past its limit.
pub(crate) struct Metered<S> {
    stream: S,
    meter: Meter,
}

impl<S> Metered<S> {
    pub(crate) fn new(stream: S, meter: Meter) -> Metered<S> {
        Metered { stream, meter }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Metered<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        if self.meter.spent() {
            return Poll::Ready(Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "a message's frames went past their bytes",
            )));
        }
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.stream).poll_read(cx, buf);
        let read = (buf.filled().len() - before) as u64;
        self.meter.0.read.fetch_add(read, Ordering::Relaxed);
        polled
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Metered<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    #[tokio::test]
    async fn reads_past_the_allowance_fail_and_a_new_allowance_lifts_it() {
        let (mut client, server) = tokio::io::duplex(1 << 16);
        let meter = Meter::new();
        let mut metered = Metered::new(server, meter.clone());
        client.write_all(&[7u8; 400]).await.expect("written");
        let mut buf = [0u8; 100];
        metered.read_exact(&mut buf).await.expect("no limit yet");
        meter.allow(150);
        metered.read_exact(&mut buf).await.expect("within");
        metered.read_exact(&mut buf).await.expect("read past, once");
        assert!(meter.spent());
        let err = metered
            .read(&mut buf)
            .await
            .expect_err("past the allowance");
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
        meter.allow(10);
        assert!(!meter.spent());
        metered.read_exact(&mut buf[..10]).await.expect("within");
        assert!(!meter.spent());
        meter.extend(5);
        metered
            .read_exact(&mut buf[..5])
            .await
            .expect("within the extension");
        assert!(!meter.spent());
        metered
            .read_exact(&mut buf[..1])
            .await
            .expect("read past, once");
        assert!(meter.spent());
    }
}
