//! What `boggle serve --web --data DIR` promises when something beneath it
//! fails, end to end on the real binary: a result the player is told is
//! kept is in `daily.sqlite` after a SIGKILL (the file write-locked by
//! another connection meanwhile, and free); a SIGTERM with the file locked
//! leaves every result in the file or in the log, and exits 1; a log that
//! cannot be written (a pipe whose reader went, `/dev/full`, a full disk
//! under the log and the results file together) loses log lines only,
//! counted in `/metrics`, every daily game is still played, and the results
//! the full disk held back are written once space returns.

use crate::common::net::{GUARD, Peer};
use crate::common::{Killed, TempDir, assert_contains, cannot_run, exit_code, found, signal};
use crate::net_store::{daily, get, hello, hold_lock, serve_command, serve_web_to, started};

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use boggle_protocol::{ClientMsg, ServerMsg};

/// The next message `pick` takes, or `None` once the server has closed
/// the connection or `within` has passed (a server killed mid-game).
async fn next(
    peer: &mut Peer,
    within: Duration,
    pick: impl Fn(&ServerMsg) -> bool,
) -> Option<ServerMsg> {
    let wait = async {
        while let Some(msg) = peer.recv().await {
            if pick(&msg) {
                return Some(msg);
            }
        }
        None
    };
    tokio::time::timeout(within, wait).await.ok().flatten()
}

/// One daily game played to its end as `name` (no words): the seat's token
/// and, if it came within `wait` of the results, the server's word on
/// keeping the result (`kept`). `None` if the game was cut off.
async fn play(tcp: SocketAddr, name: &str, wait: Duration) -> Option<(String, Option<bool>)> {
    let mut peer = Peer::connect(tcp).await;
    peer.send(&hello(name, None, daily(None))).await;
    let Some(ServerMsg::Daily { player, .. }) =
        next(&mut peer, GUARD, |m| matches!(m, ServerMsg::Daily { .. })).await
    else {
        return None;
    };
    peer.send(&ClientMsg::Ready).await;
    next(&mut peer, GUARD, |m| {
        matches!(m, ServerMsg::RoundStart { .. })
    })
    .await?;
    peer.send(&ClientMsg::Done).await;
    next(&mut peer, GUARD, |m| matches!(m, ServerMsg::Results { .. })).await?;
    let kept = next(&mut peer, wait, |m| {
        matches!(m, ServerMsg::Daily { kept: Some(_), .. })
    })
    .await;
    let kept = match kept {
        Some(ServerMsg::Daily { kept, .. }) => kept,
        _ => None,
    };
    Some((player, kept))
}

/// `boggle serve --web ARGS` with its results in `data` and its log in
/// `log`, both under a fresh directory named after `tag`: the directory,
/// `data`, the server and its TCP address.
fn serve_logged(tag: &str, args: &[&str]) -> (TempDir, PathBuf, Killed, SocketAddr) {
    let dir = TempDir::new(tag);
    let data = dir.path().join("data");
    let log = std::fs::File::create(dir.path().join("log")).expect("a log");
    let (server, tcp, _) = serve_web_to(&data, args, log.into(), &[]);
    (dir, data, server, tcp)
}

/// Plays `count` daily games as `prefix0`, `prefix1`, ... (each waiting
/// `wait` for word on keeping its result) while the results file is
/// locked: none may be told kept. Their seats.
async fn played_unkept(tcp: SocketAddr, prefix: &str, count: usize, wait: Duration) -> Vec<String> {
    let mut seats = Vec::new();
    for n in 0..count {
        let (seat, kept) = play(tcp, &format!("{prefix}{n}"), wait)
            .await
            .expect("played");
        assert_eq!(kept, None, "told before the file took it");
        seats.push(seat);
    }
    seats
}

/// The points `daily.sqlite` in `data` holds for each seat that has a result.
fn results_in_file(data: &Path) -> Vec<String> {
    let conn = rusqlite::Connection::open(data.join("daily.sqlite")).expect("opens");
    let mut query = conn
        .prepare("SELECT seat FROM daily_attempts WHERE points IS NOT NULL")
        .expect("a query");
    query
        .query_map([], |row| row.get(0))
        .expect("reads")
        .collect::<Result<_, _>>()
        .expect("rows")
}

/// Plays daily games from `players` clients at once (`games` each at
/// most) and kills the server with SIGKILL once `enough` have been told
/// kept; then every seat told kept must have its result in the file.
#[expect(
    clippy::disallowed_methods,
    reason = "a poll: a pause between looks, in a loop bounded by a deadline"
)]
async fn killed_while_playing(data: &Path, server: &mut Killed, tcp: SocketAddr, enough: usize) {
    let told: Arc<Mutex<Vec<String>>> = Arc::default();
    let mut tasks = Vec::new();
    for p in 0..6 {
        let told = Arc::clone(&told);
        tasks.push(tokio::spawn(async move {
            for g in 0..5 {
                let Some((seat, kept)) = play(tcp, &format!("p{p}g{g}"), GUARD).await else {
                    return;
                };
                if kept == Some(true) {
                    told.lock().expect("lock").push(seat);
                }
            }
        }));
    }
    let waited = tokio::time::Instant::now() + GUARD * 3;
    while told.lock().expect("lock").len() < enough {
        assert!(tokio::time::Instant::now() < waited, "never told kept");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    signal(server.id(), "KILL");
    let _ = server.wait();
    for task in tasks {
        let _ = task.await;
    }
    let stored = results_in_file(data);
    let told = told.lock().expect("lock").clone();
    for seat in &told {
        assert!(
            stored.contains(seat),
            "{seat} was told kept and is not in the file: {stored:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_sigkill_every_result_told_kept_is_in_the_file() {
    let (_dir, data, mut server, tcp) = serve_logged("fault-kill", &[]);
    killed_while_playing(&data, &mut server, tcp, 8).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_sigkill_with_the_file_locked_no_result_was_told_kept_unwritten() {
    let (_dir, data, mut server, tcp) = serve_logged("fault-kill-locked", &[]);
    let (locked, release, holder) = hold_lock(data.join("daily.sqlite"));
    locked.recv_timeout(GUARD).expect("the file is locked");
    // While another connection holds the file, nobody is told kept.
    let seats = played_unkept(tcp, "early", 4, Duration::from_millis(700)).await;
    // Let go: the waiting results are written and told, and the kill
    // comes while more are on their way.
    release.send(()).expect("let go");
    holder.join().expect("the lock is let go");
    killed_while_playing(&data, &mut server, tcp, 4).await;
    let stored = results_in_file(&data);
    assert!(
        seats.iter().all(|s| stored.contains(s)),
        "the results of the locked time are written"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sigterm_with_the_file_locked_logs_every_unwritten_result_and_exits_1() {
    let (dir, data, mut server, tcp) = serve_logged("fault-term-locked", &["--stop-grace", "1"]);
    let (locked, release, holder) = hold_lock(data.join("daily.sqlite"));
    locked.recv_timeout(GUARD).expect("the file is locked");
    let seats = played_unkept(tcp, "late", 6, Duration::from_millis(200)).await;
    signal(server.id(), "TERM");
    let code = exit_code(&mut server, "serve");
    release.send(()).expect("let go");
    holder.join().expect("the lock is let go");
    assert_eq!(
        code,
        Some(1),
        "a stop that could not write its results is no success"
    );
    let text = std::fs::read_to_string(dir.path().join("log")).expect("the log");
    let stored = results_in_file(&data);
    for seat in &seats {
        let logged = text.lines().any(|l| {
            l.contains(&format!("seat=\"{seat}\"")) || l.contains(&format!("seat={seat}"))
        } && l.contains("played=true") && l.contains("not stored"));
        assert!(
            stored.contains(seat) || logged,
            "{seat} is neither in the file nor in the log:\n{text}"
        );
    }
    assert_contains(&text, "could not be written to the results file");
}

/// Serves with `RUST_LOG=info` and stderr to `stderr` (`then` breaks it
/// further once serving): daily games are played and kept all the same,
/// `/metrics` counts the log lines lost, and a SIGTERM stops it with 0.
async fn the_game_outlives_its_log(what: &str, stderr: Stdio, then: impl FnOnce(&mut Killed)) {
    let dir = TempDir::new("fault-log");
    let data = dir.path().join("data");
    let (mut server, tcp, web) = serve_web_to(&data, &[], stderr, &[("RUST_LOG", "info")]);
    then(&mut server);
    for n in 0..3 {
        let (_, kept) = play(tcp, &format!("log{n}"), GUARD)
            .await
            .expect("answered");
        assert_eq!(kept, Some(true), "{what}: game {n}");
    }
    let (status, metrics) = get(web, "/metrics");
    assert_eq!(status, 200, "{what}");
    let lost: f64 = metrics
        .lines()
        .find_map(|l| l.strip_prefix("boggle_log_lines_lost_total "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("{what}: no count of lost lines:\n{metrics}"));
    assert!(
        lost >= 3.0,
        "{what}: {lost} lines lost, three rooms opened at least"
    );
    let (status, body) = get(web, "/healthz");
    assert_eq!((status, body.as_str()), (200, "serving\n"), "{what}");
    signal(server.id(), "TERM");
    let code = exit_code(&mut server, what);
    assert_eq!(code, Some(0), "{what}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_log_pipe_whose_reader_went_stops_no_game() {
    the_game_outlives_its_log("a closed pipe", Stdio::piped(), |server| {
        // The log shipper reads the first line, then dies.
        let mut pipe = std::io::BufReader::new(server.stderr.take().expect("piped"));
        let mut line = String::new();
        std::io::BufRead::read_line(&mut pipe, &mut line).expect("a first log line");
        drop(pipe);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dev_full_as_the_log_stops_no_game() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    the_game_outlives_its_log("/dev/full", full.into(), |_| {}).await;
}

/// The size files may grow to under the "full disk", in 512-byte blocks:
/// room for the results file's start and a few results, not many more.
const DISK_BLOCKS: u64 = 200;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_disk_under_the_log_and_the_results_stops_no_game_and_they_are_written_after() {
    if !found("prlimit") {
        cannot_run("prlimit (util-linux) gives the server its disk space back");
        return;
    }
    let dir = TempDir::new("fault-full");
    let data = dir.path().join("data");
    // The disk is full: no file of the server's may grow past the limit
    // (writes past it fail as on a full disk, SIGXFSZ ignored), and the
    // log is at it already.
    let log = dir.path().join("log");
    std::fs::write(&log, vec![b'x'; (DISK_BLOCKS * 512) as usize]).expect("the log");
    let server = serve_command(&data, &[]);
    let mut full = std::process::Command::new("sh");
    full.arg("-c")
        .arg(format!(
            "trap '' XFSZ; ulimit -S -f {DISK_BLOCKS}; exec \"$0\" \"$@\""
        ))
        .arg(server.get_program())
        .args(server.get_args())
        .env("RUST_LOG", "info")
        .stderr(
            std::fs::OpenOptions::new()
                .append(true)
                .open(&log)
                .expect("the log"),
        );
    for (key, value) in server.get_envs() {
        match value {
            Some(value) => full.env(key, value),
            None => full.env_remove(key),
        };
    }
    let (mut server, tcp, web) = started(full);
    // Results are told kept until the results file can grow no more.
    let mut told = Vec::new();
    let mut waiting = Vec::new();
    for n in 0..25 {
        let (seat, kept) = play(tcp, &format!("full{n}"), Duration::from_millis(1500))
            .await
            .expect("every game is played");
        match kept {
            Some(true) => told.push(seat),
            Some(false) => panic!("given up on within seconds"),
            None => waiting.push(seat),
        }
        if waiting.len() == 3 {
            break;
        }
    }
    assert_eq!(
        waiting.len(),
        3,
        "the disk never filled: {} told kept",
        told.len()
    );
    // Space comes back: what waited is written, and new results are kept.
    let freed = std::process::Command::new("prlimit")
        .args(["--pid", &server.id().to_string(), "--fsize=unlimited:"])
        .status()
        .expect("prlimit runs");
    assert!(freed.success());
    let (seat, kept) = play(tcp, "after", GUARD).await.expect("played");
    assert_eq!(kept, Some(true));
    told.push(seat);
    let stored = results_in_file(&data);
    for seat in told.iter().chain(&waiting) {
        assert!(
            stored.contains(seat),
            "{seat} is not in the file: {stored:?}"
        );
    }
    let (status, metrics) = get(web, "/metrics");
    assert_eq!(status, 200);
    assert!(
        metrics
            .lines()
            .any(|l| l.starts_with("boggle_log_lines_lost_total ") && !l.ends_with(" 0")),
        "{metrics}"
    );
    signal(server.id(), "TERM");
    assert_eq!(exit_code(&mut server, "serve"), Some(0));
}
