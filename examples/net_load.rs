//! Load check for `boggle serve` (never run by `cargo test`): simulated
//! clients in rooms on one loopback server, each sending a word every
//! interval for a bounded time, then checking that every word got its
//! verdict and that the results' score equals the points of the verdicts
//! (run the server with `--duplicates count`). Prints the p50/p99/max
//! verdict latency. `scripts/net-load.sh` starts the server, runs this, and
//! reports the server's peak memory. With a sixth argument, the address of
//! the server's web side (`serve --web`), every second client plays over its
//! WebSocket instead of TCP, in the same rooms (every client with
//! `NET_LOAD_ALL_WEB=1`). `NET_LOAD_ROUNDS=N` plays N rounds (the server's
//! `--rounds`), each client sending `ready` again after each round's
//! results. Players do not type in step: each client of a room sends its
//! first word of a round at its own offset within the interval, the room's
//! clients spread evenly over it, so a room of 1,000 sends a word every
//! 0.1 ms of a 100 ms interval rather than 1,000 words at once. Clients connect at most [`CONNECTING`] at a time, as players
//! arrive, so the web side's places for unanswered requests are not the
//! test.
//!
//!     cargo run --release --example net_load -- ADDR [CLIENTS] [ROOMS] [SECONDS] [INTERVAL_MS] [WEB_ADDR]

#![expect(
    clippy::disallowed_methods,
    reason = "a load test times its requests on the real clock"
)]
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "an example's job is printing what it measured"
)]

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use boggle::{Dictionary, GameBoard, QReads, Rules, WordFind};
use boggle_protocol::{ClientMsg, ServerMsg, VERSION, encode};
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::net::TcpStream;
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

type Ws = WebSocketStream<TcpStream>;

/// Clients connecting (and saying `hello`) at once.
const CONNECTING: usize = 32;

/// Where a client's messages come from: TCP lines or WebSocket messages.
enum Reader {
    Tcp(Lines<BufReader<OwnedReadHalf>>),
    Ws(SplitStream<Ws>),
}

/// Where a client's messages go.
enum Writer {
    Tcp(OwnedWriteHalf),
    Ws(SplitSink<Ws, Message>),
}

impl Reader {
    /// The next message, `None` at the end.
    async fn next(&mut self) -> std::io::Result<Option<String>> {
        match self {
            Reader::Tcp(lines) => lines.next_line().await,
            Reader::Ws(stream) => loop {
                match stream.next().await {
                    None | Some(Ok(Message::Close(_))) => return Ok(None),
                    Some(Ok(Message::Text(text))) => return Ok(Some(text.to_string())),
                    Some(Ok(_)) => continue,
                    Some(Err(e)) => return Err(std::io::Error::other(e)),
                }
            },
        }
    }
}

impl Writer {
    async fn send(&mut self, msg: &ClientMsg) -> std::io::Result<()> {
        let line = encode(msg);
        match self {
            Writer::Tcp(write) => write.write_all(line.as_bytes()).await,
            Writer::Ws(sink) => sink
                .send(Message::text(line.trim_end()))
                .await
                .map_err(std::io::Error::other),
        }
    }
}

/// Connects over TCP, or to the web side's WebSocket when `web` is given.
async fn connect(addr: SocketAddr, web: Option<SocketAddr>) -> std::io::Result<(Reader, Writer)> {
    match web {
        None => {
            let stream = TcpStream::connect(addr).await?;
            stream.set_nodelay(true)?;
            let (read, write) = stream.into_split();
            Ok((
                Reader::Tcp(BufReader::new(read).lines()),
                Writer::Tcp(write),
            ))
        }
        Some(web) => {
            let stream = TcpStream::connect(web).await?;
            stream.set_nodelay(true)?;
            let url = format!("ws://{web}/ws");
            // The server's buffers, not tungstenite's defaults: a 128 KiB
            // read buffer zeroed for every read made the load generator, not
            // the server, the slow side, and cost 1.3 GB across 10,000 clients.
            let config = WebSocketConfig::default()
                .read_buffer_size(8 << 10)
                .write_buffer_size(0);
            let (socket, _) =
                tokio_tungstenite::client_async_with_config(url, stream, Some(config))
                    .await
                    .map_err(std::io::Error::other)?;
            let (sink, stream) = socket.split();
            Ok((Reader::Ws(stream), Writer::Ws(sink)))
        }
    }
}

struct Outcome {
    sent: usize,
    verdicts: usize,
    verdict_points: u32,
    result_score: Option<u32>,
    latencies_us: Vec<u64>,
    /// The client's room.
    room: usize,
    /// When the client sent `done`, each round.
    done_at: Vec<Instant>,
    /// When the results reached it, each round.
    results_at: Vec<Instant>,
    /// The largest results message heard, in bytes.
    results_bytes: usize,
    error: Option<String>,
    /// Played over the web side's WebSocket.
    web: bool,
}

/// The `q` quantile of sorted `latencies`, in µs.
/// What a client needs of a server message. Parsing every message whole
/// would make the load generator, not the server, the slow side: a lobby
/// lists every player of the room, and at each round's end every client
/// would read every player's words.
enum Heard {
    Welcome,
    Refused(String),
    RoundStart {
        board: Vec<String>,
        rows: usize,
        cols: usize,
    },
    Verdict {
        points: u32,
    },
    /// Each listed player's name and total.
    Results(Vec<Standing>),
    Other,
}

/// A results message's players, their words skipped unread.
#[derive(serde::Deserialize)]
struct Totals {
    players: Vec<Standing>,
}

/// One player's name and total in the results.
#[derive(serde::Deserialize)]
struct Standing {
    name: String,
    total: u32,
}

/// What a client needs of the server's `line`.
fn parse(line: &str) -> Heard {
    if line.starts_with(r#"{"type":"lobby""#) {
        return Heard::Other;
    }
    if line.starts_with(r#"{"type":"results""#) {
        return serde_json::from_str::<Totals>(line)
            .map_or(Heard::Other, |totals| Heard::Results(totals.players));
    }
    match serde_json::from_str::<ServerMsg>(line) {
        Ok(ServerMsg::Welcome { .. }) => Heard::Welcome,
        Ok(ServerMsg::Error { message, .. }) => Heard::Refused(message),
        Ok(ServerMsg::RoundStart {
            board, rows, cols, ..
        }) => Heard::RoundStart { board, rows, cols },
        Ok(ServerMsg::Verdict { points, .. }) => Heard::Verdict { points },
        _ => Heard::Other,
    }
}

/// Each board's words, solved once however many clients play it.
type Solved = std::sync::Mutex<std::collections::HashMap<Vec<String>, Arc<Vec<String>>>>;

/// The words a client plays on a board (row-major faces): its real words
/// (each scores once, then repeats as "already found") mixed with words
/// that are not on it, solved once for all the board's clients.
fn board_words(
    solved: &Solved,
    find: &WordFind,
    faces: Vec<String>,
    rows: usize,
    cols: usize,
) -> std::io::Result<Arc<Vec<String>>> {
    let mut solved = solved
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(words) = solved.get(&faces) {
        return Ok(Arc::clone(words));
    }
    let cells: Vec<&str> = faces.iter().map(String::as_str).collect();
    let board =
        GameBoard::from_cells(cells, rows, cols, QReads::Qu).map_err(std::io::Error::other)?;
    let mut words: Vec<String> = find.get_all_words(&board).into_iter().collect();
    words.extend(["ZZZQ", "BOGGLE", "XYLOPHONE", "AB"].map(String::from));
    let words = Arc::new(words);
    solved.insert(faces, Arc::clone(&words));
    Ok(words)
}

fn quantile(latencies: &[u64], q: f64) -> u64 {
    latencies
        .get(((latencies.len() as f64 * q) as usize).min(latencies.len().saturating_sub(1)))
        .copied()
        .unwrap_or(0)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(addr) = args.first().and_then(|a| a.parse::<SocketAddr>().ok()) else {
        eprintln!("usage: net_load ADDR:PORT [CLIENTS] [ROOMS] [SECONDS] [INTERVAL_MS]");
        std::process::exit(2);
    };
    if !addr.ip().is_loopback() {
        eprintln!("net_load: loopback addresses only");
        std::process::exit(2);
    }
    let number = |i: usize, default: u64| {
        args.get(i)
            .and_then(|a| a.parse::<u64>().ok())
            .unwrap_or(default)
    };
    let (clients, rooms) = (number(1, 500) as usize, number(2, 50).max(1) as usize);
    let seconds = number(3, 60).min(600);
    let interval = Duration::from_millis(number(4, 100).max(1));
    let web = args.get(5).map(|a| match a.parse::<SocketAddr>() {
        Ok(web) if web.ip().is_loopback() => web,
        _ => {
            eprintln!("net_load: WEB_ADDR must be a loopback ADDR:PORT");
            std::process::exit(2)
        }
    });
    let all_web = std::env::var("NET_LOAD_ALL_WEB").is_ok_and(|v| v == "1");
    let rounds: usize = std::env::var("NET_LOAD_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1)
        .max(1);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap_or_else(|e| {
            eprintln!("net_load: {e}");
            std::process::exit(1)
        });
    let rules = Rules::preset(boggle::Preset::Classic);
    let dictionary = Dictionary::load_builtin(rules.word_list).unwrap_or_else(|e| {
        eprintln!("net_load: {e}");
        std::process::exit(1)
    });
    let find = Arc::new(WordFind::with_rules(Arc::new(dictionary), rules));
    let outcomes = runtime.block_on(async {
        let mut tasks = Vec::new();
        let connecting = Arc::new(tokio::sync::Semaphore::new(CONNECTING));
        let solved = Arc::new(Solved::default());
        let per_room = clients.div_ceil(rooms).max(1);
        for i in 0..clients {
            // Rooms fill one after another, as a class's players arrive
            // together, so each starts when its own players are in and the
            // rooms' rounds do not all change at one instant.
            let room_index = i / per_room;
            let find = Arc::clone(&find);
            let connecting = Arc::clone(&connecting);
            let solved = Arc::clone(&solved);
            let room = format!("room{room_index}");
            let over_web = web.is_some() && (all_web || i % 2 == 1);
            tasks.push(tokio::spawn(async move {
                let mut outcome = Outcome {
                    sent: 0,
                    verdicts: 0,
                    verdict_points: 0,
                    result_score: None,
                    latencies_us: Vec::new(),
                    room: room_index,
                    done_at: Vec::new(),
                    results_at: Vec::new(),
                    results_bytes: 0,
                    error: None,
                    web: over_web,
                };
                let name = format!("p{i}");
                let via = web.filter(|_| over_web);
                // Each client's first word at its own point of the interval.
                let seat = i as u32;
                let seats = clients.max(1) as u32;
                let plan = Plan {
                    seconds,
                    interval,
                    phase: interval * seat / seats,
                    rounds,
                    connecting,
                    solved,
                };
                if let Err(e) = client((addr, via), &name, &room, &plan, &find, &mut outcome).await
                {
                    outcome.error = Some(format!("{name}: {e}"));
                }
                outcome
            }));
        }
        let mut outcomes = Vec::new();
        for task in tasks {
            if let Ok(outcome) = task.await {
                outcomes.push(outcome);
            }
        }
        outcomes
    });
    let mut latencies: Vec<u64> = outcomes
        .iter()
        .flat_map(|o| o.latencies_us.iter().copied())
        .collect();
    latencies.sort_unstable();
    let at = |q: f64| quantile(&latencies, q);
    let sent: usize = outcomes.iter().map(|o| o.sent).sum();
    let verdicts: usize = outcomes.iter().map(|o| o.verdicts).sum();
    let mut failures = clients - outcomes.len();
    for o in &outcomes {
        let tally_ok = o.sent == o.verdicts
            && o.result_score == Some(o.verdict_points)
            && o.results_at.len() == rounds;
        if o.error.is_some() || !tally_ok {
            failures += 1;
            if failures <= 5 {
                eprintln!(
                    "failed: sent {} verdicts {} points {} result {:?} {}",
                    o.sent,
                    o.verdicts,
                    o.verdict_points,
                    o.result_score,
                    o.error.as_deref().unwrap_or("")
                );
            }
        }
    }
    println!(
        "clients {clients} rooms {rooms} rounds {rounds} seconds {seconds} interval {} ms{}: words sent {sent}, verdicts {verdicts}, clients failing {failures}",
        interval.as_millis(),
        match (web.is_some(), all_web) {
            (true, true) => " (all over the web side's WebSocket)",
            (true, false) => " (half over the web side's WebSocket)",
            _ => "",
        }
    );
    println!(
        "verdict latency: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        at(0.50) as f64 / 1000.0,
        at(0.99) as f64 / 1000.0,
        latencies.last().copied().unwrap_or(0) as f64 / 1000.0
    );
    // A round ends at its room's last `done`; each player's results are
    // measured from there.
    let mut last_done: std::collections::HashMap<(usize, usize), Instant> =
        std::collections::HashMap::new();
    for o in &outcomes {
        for (round, at) in o.done_at.iter().enumerate() {
            let last = last_done.entry((o.room, round)).or_insert(*at);
            *last = (*last).max(*at);
        }
    }
    let mut results: Vec<u64> = outcomes
        .iter()
        .flat_map(|o| {
            let last_done = &last_done;
            o.results_at
                .iter()
                .enumerate()
                .filter_map(move |(round, at)| {
                    let end = last_done.get(&(o.room, round))?;
                    Some(at.saturating_duration_since(*end).as_micros() as u64)
                })
        })
        .collect();
    results.sort_unstable();
    if !results.is_empty() {
        println!(
            "results delivered after the room's last done: p50 {:.2} ms, p99 {:.2} ms, all {:.2} ms",
            quantile(&results, 0.50) as f64 / 1000.0,
            quantile(&results, 0.99) as f64 / 1000.0,
            results.last().copied().unwrap_or(0) as f64 / 1000.0
        );
    }
    let results_bytes = outcomes.iter().map(|o| o.results_bytes).max().unwrap_or(0);
    println!("largest results message: {results_bytes} bytes");
    if web.is_some() && !all_web {
        for (label, over_web) in [("TCP", false), ("WebSocket", true)] {
            let mut part: Vec<u64> = outcomes
                .iter()
                .filter(|o| o.web == over_web)
                .flat_map(|o| o.latencies_us.iter().copied())
                .collect();
            part.sort_unstable();
            println!(
                "  {label} clients: p50 {:.2} ms, p99 {:.2} ms",
                quantile(&part, 0.50) as f64 / 1000.0,
                quantile(&part, 0.99) as f64 / 1000.0
            );
        }
    }
    if failures > 0 {
        std::process::exit(1);
    }
}

/// What each client does: a word every `interval` for `seconds`, the first
/// `phase` after the round starts, then `done`, for `rounds` rounds;
/// `connecting` paces the arrivals.
struct Plan {
    seconds: u64,
    interval: Duration,
    phase: Duration,
    rounds: usize,
    connecting: Arc<tokio::sync::Semaphore>,
    solved: Arc<Solved>,
}

async fn client(
    (addr, web): (SocketAddr, Option<SocketAddr>),
    name: &str,
    room: &str,
    plan: &Plan,
    find: &WordFind,
    outcome: &mut Outcome,
) -> std::io::Result<()> {
    let (mut lines, mut write) = {
        let _turn = plan
            .connecting
            .acquire()
            .await
            .map_err(std::io::Error::other)?;
        let (mut lines, mut write) = connect(addr, web).await?;
        let hello = ClientMsg::Hello {
            version: VERSION,
            name: name.into(),
            room: Some(room.into()),
            password: None,
            token: None,
            solo: None,
        };
        write.send(&hello).await?;
        // In once welcomed: the next client may come.
        loop {
            let Some(line) = lines.next().await? else {
                return Err(std::io::Error::other("closed before the welcome"));
            };
            match parse(&line) {
                Heard::Welcome => break,
                Heard::Refused(message) => return Err(std::io::Error::other(message)),
                _ => {}
            }
        }
        (lines, write)
    };
    for _ in 0..plan.rounds {
        write.send(&ClientMsg::Ready).await?;
        round(&mut lines, &mut write, name, plan, find, outcome).await?;
    }
    Ok(())
}

/// One round: waits for its start, plays, and returns at its results.
async fn round(
    lines: &mut Reader,
    write: &mut Writer,
    name: &str,
    plan: &Plan,
    find: &WordFind,
    outcome: &mut Outcome,
) -> std::io::Result<()> {
    let (board, rows, cols) = loop {
        let Some(line) = lines.next().await? else {
            return Err(std::io::Error::other("closed before the round"));
        };
        if let Heard::RoundStart { board, rows, cols } = parse(&line) {
            break (board, rows, cols);
        }
    };
    let words = board_words(&plan.solved, find, board, rows, cols)?;
    let end = Instant::now() + Duration::from_secs(plan.seconds);
    let mut ticker =
        tokio::time::interval_at(tokio::time::Instant::now() + plan.phase, plan.interval);
    let mut sent = 0;
    let mut pending: VecDeque<Instant> = VecDeque::new();
    let mut sending = true;
    loop {
        tokio::select! {
            _ = ticker.tick(), if sending => {
                if Instant::now() >= end {
                    sending = false;
                    outcome.done_at.push(Instant::now());
                    write.send(&ClientMsg::Done).await?;
                    continue;
                }
                let word = &words[sent % words.len()];
                sent += 1;
                pending.push_back(Instant::now());
                write.send(&ClientMsg::Word { word: word.clone() }).await?;
                outcome.sent += 1;
            }
            line = lines.next() => {
                let Some(line) = line? else {
                    return Err(std::io::Error::other("closed during the round"));
                };
                match parse(&line) {
                    Heard::Verdict { points } => {
                        if let Some(at) = pending.pop_front() {
                            outcome.latencies_us.push(at.elapsed().as_micros() as u64);
                        }
                        outcome.verdicts += 1;
                        outcome.verdict_points += points;
                    }
                    Heard::Results(players) => {
                        outcome.results_at.push(Instant::now());
                        outcome.results_bytes = outcome.results_bytes.max(line.len());
                        // Scores are the room's totals over its rounds.
                        outcome.result_score = players.iter().find(|p| p.name == name).map(|p| p.total);
                        return Ok(());
                    }
                    Heard::Refused(message) => return Err(std::io::Error::other(message)),
                    _ => {}
                }
            }
        }
    }
}
