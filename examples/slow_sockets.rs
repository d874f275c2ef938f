//! Slow sockets against `boggle serve --web` (never run by `cargo test`;
//! `scripts/slow-sockets.sh` starts the server and runs this, and CI runs
//! the script). From each of ADDRESSES loopback addresses (127.0.0.10,
//! 127.0.0.11, ...), SOCKETS sockets each send a request head a few bytes
//! at a time and never finish it; each is opened again as soon as the
//! server closes it, for SECONDS. Meanwhile a player from 127.0.0.2 loads
//! the page every 100 ms, each load given 1 s to bring the whole page.
//! Prints the loads that succeeded and the slow sockets' reconnections,
//! and exits 1 when fewer than MIN_PERCENT of the loads succeeded.
//!
//!     cargo run --example slow_sockets -- WEB_ADDR [ADDRESSES] [SOCKETS] [SECONDS] [MIN_PERCENT]

#![expect(
    clippy::disallowed_methods,
    reason = "slow sockets are slow by design: they pause between bytes on the real clock"
)]
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "an example's job is printing what it measured"
)]

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// Time a page load may take, from connecting to the last byte.
const LOAD_WITHIN: Duration = Duration::from_secs(1);
/// Time between page loads.
const LOAD_EVERY: Duration = Duration::from_millis(100);
/// Time between two bytes of a slow request head.
const DRIP_EVERY: Duration = Duration::from_millis(500);

/// A socket from `from` to `to`.
async fn connect(from: Ipv4Addr, to: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(IpAddr::V4(from), 0))?;
    socket.connect(to).await
}

/// One slow socket, opened again each time the server closes it, until `end`.
async fn slow(from: Ipv4Addr, to: SocketAddr, end: Instant, opened: Arc<AtomicU64>) {
    let head = format!("GET / HTTP/1.1\r\nHost: {to}\r\nX-Slow: ");
    while Instant::now() < end {
        let Ok(mut stream) = connect(from, to).await else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        opened.fetch_add(1, Ordering::Relaxed);
        if stream.write_all(head.as_bytes()).await.is_err() {
            continue;
        }
        // A byte now and then, never the end of the head; a closed socket
        // (the server's head timeout) fails the write or the read.
        let mut buf = [0u8; 512];
        while Instant::now() < end {
            tokio::select! {
                read = stream.read(&mut buf) => {
                    if matches!(read, Ok(0) | Err(_)) {
                        break;
                    }
                }
                () = tokio::time::sleep(DRIP_EVERY) => {
                    if stream.write_all(b"a").await.is_err() {
                        break;
                    }
                }
            }
        }
    }
}

/// One page load from `from`: the whole response, `200` and the page's end, in time.
async fn load(from: Ipv4Addr, to: SocketAddr) -> Result<(), String> {
    let work = async {
        let mut stream = connect(from, to)
            .await
            .map_err(|e| format!("connect: {e}"))?;
        let request = format!("GET / HTTP/1.1\r\nHost: {to}\r\nConnection: close\r\n\r\n");
        stream
            .write_all(request.as_bytes())
            .await
            .map_err(|e| format!("write: {e}"))?;
        let mut reply = Vec::new();
        stream
            .read_to_end(&mut reply)
            .await
            .map_err(|e| format!("read: {e}"))?;
        let text = String::from_utf8_lossy(&reply);
        if !text.starts_with("HTTP/1.1 200 ") {
            return Err(text.lines().next().unwrap_or("nothing").to_string());
        }
        if !text.trim_end().ends_with("</html>") {
            return Err("a page cut short".into());
        }
        Ok(())
    };
    tokio::time::timeout(LOAD_WITHIN, work)
        .await
        .map_err(|_| format!("not within {LOAD_WITHIN:?}"))?
}

fn arg<T: std::str::FromStr>(args: &[String], at: usize, default: T) -> T {
    args.get(at).and_then(|a| a.parse().ok()).unwrap_or(default)
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(to) = args.get(1).and_then(|a| a.parse::<SocketAddr>().ok()) else {
        eprintln!("usage: slow_sockets WEB_ADDR [ADDRESSES] [SOCKETS] [SECONDS] [MIN_PERCENT]");
        std::process::exit(2);
    };
    let addresses: u8 = arg(&args, 2, 100);
    let sockets: usize = arg(&args, 3, 64);
    let seconds: u64 = arg(&args, 4, 30);
    let min_percent: f64 = arg(&args, 5, 99.0);
    if addresses > 200 {
        eprintln!("at most 200 addresses (127.0.0.10 to 127.0.0.209)");
        std::process::exit(2);
    }
    let start = Instant::now();
    let end = start + Duration::from_secs(seconds);
    let opened = Arc::new(AtomicU64::new(0));
    let mut slows = Vec::new();
    for a in 0..addresses {
        let from = Ipv4Addr::new(127, 0, 0, 10 + a);
        for _ in 0..sockets {
            slows.push(tokio::spawn(slow(from, to, end, Arc::clone(&opened))));
        }
    }
    // The slow sockets take their places first.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let player = Ipv4Addr::new(127, 0, 0, 2);
    let (mut loads, mut good, mut worst) = (0u64, 0u64, Duration::ZERO);
    let mut failures: Vec<String> = Vec::new();
    let mut every = tokio::time::interval(LOAD_EVERY);
    while Instant::now() < end {
        every.tick().await;
        let began = Instant::now();
        let result = load(player, to).await;
        let took = began.elapsed();
        loads += 1;
        match result {
            Ok(()) => {
                good += 1;
                worst = worst.max(took);
            }
            Err(why) => failures.push(why),
        }
    }
    for slow in slows {
        let _ = slow.await;
    }
    let percent = 100.0 * good as f64 / loads.max(1) as f64;
    println!(
        "slow sockets: {addresses} addresses x {sockets} sockets for {seconds} s, {} opened",
        opened.load(Ordering::Relaxed)
    );
    println!(
        "page loads from another address: {good} of {loads} within {LOAD_WITHIN:?} ({percent:.2}%), slowest success {:.1} ms",
        worst.as_secs_f64() * 1000.0
    );
    failures.sort();
    failures.dedup();
    for why in failures.iter().take(5) {
        println!("  failed: {why}");
    }
    if percent < min_percent {
        println!("FAILED: under {min_percent}%");
        std::process::exit(1);
    }
}
