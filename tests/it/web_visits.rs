//! What a visit to the page costs on the wire, in a real browser: the
//! server binary on loopback, a counting TCP relay in front of it, and a
//! fresh headless Chromium session (a profile of its own, so an empty
//! cache) that opens the page, goes away, and opens it again. The relay
//! counts the connections the browser opens and the bytes each way, so the
//! figures are what crossed the network, headers included, whatever the
//! browser reports about itself; the page's own Resource Timing
//! (`transferSize`) is printed beside them.
//!
//! A first visit, the page and then a game's WebSocket, opens at most
//! [`FIRST_CONNECTIONS`] connections (the page is one file, its style and
//! script inline, and keep-alive carries the few requests after it), and a
//! second visit, with the files in the browser's cache, downloads at most
//! [`SECOND_BYTES`] (each file revalidated by its `ETag`: `304` and no
//! body). Run with `--nocapture` to see the figures.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use crate::common::browser::{Page, click, js, visible, wait_js};

/// The most connections a first visit may open, a game's WebSocket (a
/// connection of its own in Chromium) counted. Chromium opens a connection
/// for each request in flight that finds none idle, up to six a host: the
/// page's modules served one a file cost six; bundled into the page, the
/// page and what its script asks (`/daily`, the icon) need one or two.
const FIRST_CONNECTIONS: u64 = 3;
/// The most bytes (headers and bodies, server to browser) a second visit may download.
const SECOND_BYTES: u64 = 10_000;

/// What the relay has seen so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Seen {
    connections: u64,
    /// Bytes from the server to the browser.
    down: u64,
    /// Bytes from the browser to the server.
    up: u64,
}

impl std::ops::Sub for Seen {
    type Output = Seen;
    fn sub(self, earlier: Seen) -> Seen {
        Seen {
            connections: self.connections - earlier.connections,
            down: self.down - earlier.down,
            up: self.up - earlier.up,
        }
    }
}

/// The counts a relay keeps, shared with its connections' tasks.
#[derive(Default)]
struct Counts {
    connections: AtomicU64,
    down: AtomicU64,
    up: AtomicU64,
}

/// A TCP relay on loopback to `target` that counts connections and bytes.
struct Relay {
    addr: SocketAddr,
    counts: Arc<Counts>,
    accept: tokio::task::JoinHandle<()>,
}

impl Relay {
    async fn start(target: SocketAddr) -> Relay {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("binds");
        let addr = listener.local_addr().expect("address");
        let counts = Arc::new(Counts::default());
        let shared = Arc::clone(&counts);
        let accept = tokio::spawn(async move {
            while let Ok((inbound, _)) = listener.accept().await {
                shared.connections.fetch_add(1, Ordering::SeqCst);
                let counts = Arc::clone(&shared);
                tokio::spawn(async move {
                    let Ok(outbound) = TcpStream::connect(target).await else {
                        return;
                    };
                    let (from_browser, to_browser) = inbound.into_split();
                    let (from_server, to_server) = outbound.into_split();
                    let up = copy_counted(from_browser, to_server, Arc::clone(&counts), false);
                    let down = copy_counted(from_server, to_browser, counts, true);
                    let _ = tokio::join!(up, down);
                });
            }
        });
        Relay {
            addr,
            counts,
            accept,
        }
    }

    fn seen(&self) -> Seen {
        Seen {
            connections: self.counts.connections.load(Ordering::SeqCst),
            down: self.counts.down.load(Ordering::SeqCst),
            up: self.counts.up.load(Ordering::SeqCst),
        }
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.accept.abort();
    }
}

/// Copies until either side ends, counting each chunk as it is written.
async fn copy_counted(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    counts: Arc<Counts>,
    down: bool,
) {
    let mut buf = vec![0u8; 16 << 10];
    loop {
        let n = match from.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        if to.write_all(&buf[..n]).await.is_err() {
            break;
        }
        let counter = if down { &counts.down } else { &counts.up };
        counter.fetch_add(n as u64, Ordering::SeqCst);
    }
    let _ = to.shutdown().await;
}

/// Waits until the page has loaded and shown today's board's card (its
/// last request at start, `GET /daily`), and returns the bytes its
/// Resource Timing says it transferred (the document and every resource).
async fn settled(client: &fantoccini::Client) -> u64 {
    visible(client, "home").await;
    wait_js(
        client,
        "return document.readyState === 'complete' \
           && document.getElementById('daily-title').textContent.includes('#');",
        "the page loaded and today's board named",
    )
    .await;
    let bytes = js(
        client,
        "return performance.getEntriesByType('navigation') \
           .concat(performance.getEntriesByType('resource')) \
           .reduce((sum, e) => sum + e.transferSize, 0);",
    )
    .await;
    bytes.as_u64().unwrap_or_default()
}

/// A first visit in a fresh browser, the page and then a solo game, opens
/// at most 3 connections; a second visit downloads at most 10 KB (headers
/// included), its files revalidated.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_visit_opens_few_connections_and_a_second_downloads_little() {
    // The relay's port is not the server's: the page is served under the
    // name 127.0.0.1 on any port, as behind a proxy.
    let Some(page) = Page::builder()
        .widths(&[1280])
        .args(&["--web-host", "127.0.0.1"])
        .start()
        .await
    else {
        return;
    };
    let desk = page.desk();
    let target: SocketAddr = page
        .web
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .parse()
        .expect("the server's address");
    let relay = Relay::start(target).await;
    let url = format!("http://{}/", relay.addr);

    let start = relay.seen();
    desk.goto(&url).await.expect("the page loads");
    let first_timing = settled(&desk).await;
    let first = relay.seen() - start;
    // The player starts a game: its WebSocket goes through the relay too.
    click(&desk, "solo-button").await;
    visible(&desk, "round").await;
    let game = relay.seen() - start;
    // Gone for good (not a reload that takes the seat back): the second
    // visit is the page, as a player coming back another day gets it.
    js(&desk, "sessionStorage.clear(); return true;").await;

    desk.goto("about:blank").await.expect("away");
    let away = relay.seen();
    desk.goto(&url).await.expect("the page loads again");
    let second_timing = settled(&desk).await;
    let second = relay.seen() - away;
    let _ = desk.close().await;

    println!(
        "first visit: {} connections, {} bytes down, {} up (Resource Timing: {first_timing}); \
         with a solo game started: {} connections; \
         second visit: {} new connections, {} bytes down, {} up (Resource Timing: {second_timing})",
        first.connections,
        first.down,
        first.up,
        game.connections,
        second.connections,
        second.down,
        second.up
    );
    assert!(
        game.connections <= FIRST_CONNECTIONS,
        "a first visit opened {} connections, {} before its game: {game:?}",
        game.connections,
        first.connections
    );
    assert!(
        second.down <= SECOND_BYTES,
        "a second visit downloaded {} bytes: {second:?}",
        second.down
    );
}
