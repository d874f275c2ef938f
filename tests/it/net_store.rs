//! The day's results as `boggle serve --web --data DIR` keeps them, end to
//! end: a real server process, clients speaking the protocol over TCP, the
//! leaderboard read over HTTP, and the results file opened by a second
//! SQLite connection as another program would. Each test takes a player's
//! or a host's steps to one way the store could fail them: a look-alike
//! name, a name posted first, one address playing under many names, the
//! day's board opened again, a malformed row, a file that is not the
//! program's, and a file another program holds locked.

use crate::common::net::{GUARD, Peer, status_code};
use crate::common::{self, Killed, TempDir, assert_contains, boggle, exit_code, wait_until};

use std::io::{BufRead, Read, Write};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use boggle_protocol::names::name_key;
use boggle_protocol::{ClientMsg, DailyStatus, DayScore, ServerMsg, Solo, VERSION};
use serde_json::Value;

/// A `boggle serve --web` process, killed when dropped; its stderr goes to a file.
struct Served {
    _child: Killed,
    tcp: SocketAddr,
    web: SocketAddr,
    log: PathBuf,
}

impl Served {
    /// What the server has logged so far.
    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

/// Starts `boggle serve` on both sides with its results in `data`
/// (classic rules, today's board's own; joins from one address unthrottled).
fn serve_web(data: &Path, extra: &[&str]) -> Served {
    let log = data.with_extension("log");
    let stderr = std::fs::File::create(&log).expect("log file");
    let (child, tcp, web) = serve_web_to(data, extra, stderr.into(), &[]);
    Served {
        _child: child,
        tcp,
        web,
        log,
    }
}

/// A server ([`serve_web`]) with its results under a fresh directory named
/// after `tag`: the directory, the server, today's number and its words
/// ([`todays_words`]).
fn served_today(tag: &str) -> (TempDir, Served, u64, Vec<String>) {
    let dir = TempDir::new(tag);
    let server = serve_web(&dir.path().join("data"), &[]);
    let day = today(server.web);
    (dir, server, day, todays_words())
}

/// Starts `boggle serve` as [`serve_web`] does, its stderr to `stderr` and
/// `env` set: the process and the TCP and web addresses it prints.
pub(crate) fn serve_web_to(
    data: &Path,
    extra: &[&str],
    stderr: Stdio,
    env: &[(&str, &str)],
) -> (Killed, SocketAddr, SocketAddr) {
    let mut command = serve_command(data, extra);
    command.envs(env.iter().copied()).stderr(stderr);
    started(command)
}

/// The command [`serve_web`] runs: both sides on loopback, results in `data`.
pub(crate) fn serve_command(data: &Path, extra: &[&str]) -> std::process::Command {
    let mut command = boggle(["serve", "--listen", "127.0.0.1:0", "--web", "127.0.0.1:0"]);
    command
        .args(["--rules", "classic", "--address-rate", "1000"])
        .arg("--data")
        .arg(data)
        .args(extra);
    command
}

/// Spawns a `boggle serve` command: the process, and the TCP and web
/// addresses it prints.
pub(crate) fn started(mut command: std::process::Command) -> (Killed, SocketAddr, SocketAddr) {
    let mut child = Killed(
        command
            .stdout(Stdio::piped())
            .spawn()
            .expect("boggle serve starts"),
    );
    let mut lines = std::io::BufReader::new(child.stdout.take().expect("piped")).lines();
    let mut next = |prefix: &str| -> String {
        let line = lines
            .next()
            .and_then(Result::ok)
            .unwrap_or_else(|| panic!("no `{prefix}` line"));
        line.strip_prefix(prefix)
            .unwrap_or_else(|| panic!("not a `{prefix}` line: {line:?}"))
            .trim_end_matches('/')
            .to_string()
    };
    let tcp = next("listening on ").parse().expect("an address");
    let web = next("web page on http://").parse().expect("an address");
    (child, tcp, web)
}

/// `GET path` on the web side: the status and the body.
pub(crate) fn get(web: SocketAddr, path: &str) -> (u16, String) {
    let mut stream = std::net::TcpStream::connect(web).expect("connects");
    stream.set_read_timeout(Some(GUARD)).expect("timeout");
    write!(stream, "GET {path} HTTP/1.1\r\nHost: {web}\r\n\r\n").expect("request sent");
    let mut text = String::new();
    stream.read_to_string(&mut text).expect("a response");
    let status = status_code(&text);
    let body = text.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or("");
    (status, body.to_string())
}

/// Today's number, as the server names it.
fn today(web: SocketAddr) -> u64 {
    let (status, body) = get(web, "/daily");
    assert_eq!(status, 200, "{body}");
    let day: Value = serde_json::from_str(&body).expect("JSON");
    day["number"].as_u64().expect("a number")
}

/// The day's leaderboard as (name, points), best first.
fn leaderboard(web: SocketAddr, day: u64) -> Vec<(String, u64)> {
    let (status, body) = get(web, &format!("/daily/leaderboard?day={day}"));
    assert_eq!(status, 200, "{body}");
    let board: Value = serde_json::from_str(&body).expect("JSON");
    board["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            let name = r["name"].as_str().expect("a name").to_string();
            (name, r["points"].as_u64().expect("points"))
        })
        .collect()
}

/// Polls the leaderboard until `done` holds of it (the store writes in the background).
fn leaderboard_until(
    web: SocketAddr,
    day: u64,
    what: &str,
    done: impl Fn(&[(String, u64)]) -> bool,
) -> Vec<(String, u64)> {
    wait_until(
        || Some(leaderboard(web, day)).filter(|rows| done(rows)),
        || format!("{what}: {:?}", leaderboard(web, day)),
    )
}

/// The words of today's board, longest first, as `boggle solve` lists them.
pub(crate) fn todays_words() -> Vec<String> {
    let mut words = common::solved(&common::daily_board(None).1);
    words.sort_by_key(|w| std::cmp::Reverse(w.len()));
    words
}

/// A `hello` as `name`: into `room`, or with `solo`.
pub(crate) fn hello(name: &str, room: Option<&str>, solo: Option<Solo>) -> ClientMsg {
    ClientMsg::Hello {
        version: VERSION,
        name: name.into(),
        room: room.map(str::to_string),
        password: None,
        token: None,
        solo,
    }
}

/// Today's board, for the seat `player` names (a new one without).
pub(crate) fn daily(player: Option<&str>) -> Option<Solo> {
    Some(Solo {
        daily: true,
        player: player.map(str::to_string),
        ..Solo::default()
    })
}

/// What one daily game told its player.
struct Played {
    /// The `daily` message's fields, if one came.
    daily: Option<(String, DailyStatus, Option<String>, Option<DayScore>)>,
    /// The player's score in the results.
    score: u32,
}

/// Plays today's board once as `name` (with the player token `player`):
/// hello, ready, `words`, done, the results.
async fn play_daily(addr: SocketAddr, name: &str, player: Option<&str>, words: &[&str]) -> Played {
    let mut peer = Peer::connect(addr).await;
    peer.send(&hello(name, None, daily(player))).await;
    peer.until(|m| matches!(m, ServerMsg::Welcome { .. })).await;
    // The `daily` message comes before the lobby, if at all.
    let daily = match peer
        .until(|m| matches!(m, ServerMsg::Daily { .. } | ServerMsg::Lobby { .. }))
        .await
    {
        ServerMsg::Daily {
            player,
            status,
            listed_as,
            first,
            ..
        } => Some((player, status, listed_as, first)),
        _ => None,
    };
    peer.send(&ClientMsg::Ready).await;
    peer.until(|m| matches!(m, ServerMsg::RoundStart { .. }))
        .await;
    for word in words {
        peer.word(word).await;
    }
    peer.send(&ClientMsg::Done).await;
    let players = peer.results().await;
    let score = players
        .iter()
        .find(|p| p.name == name)
        .map_or(0, |p| p.score);
    Played { daily, score }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn look_alike_names_are_listed_apart_and_a_name_posted_first_keeps_no_one_out() {
    let (_dir, server, day, words) = served_today("store-names");
    // A bob who plays nothing posts first; the real bob finds the longest word.
    play_daily(server.tcp, "bob", None, &[]).await;
    let real = play_daily(server.tcp, "bob", None, &[words[0].as_str()]).await;
    assert!(real.score > 0, "{} scores", words[0]);
    for name in ["ann", "Ann", "ANN", "\u{430}nn", "Ian", "\u{399}an", "lan"] {
        play_daily(server.tcp, name, None, &[]).await;
    }
    let rows = leaderboard_until(server.web, day, "all nine listed", |rows| rows.len() == 9);
    assert!(
        rows.contains(&("bob (2)".to_string(), u64::from(real.score))),
        "the second bob's result is kept, under a name of its own: {rows:?}"
    );
    for (i, (a, _)) in rows.iter().enumerate() {
        for (b, _) in &rows[i + 1..] {
            assert!(
                !name_key(a).same_as(&name_key(b)),
                "{a} and {b} look alike: {rows:?}"
            );
        }
    }
    let (_, status, listed_as, _) = real.daily.expect("a daily message");
    assert_eq!(status, DailyStatus::Scored);
    assert_eq!(
        listed_as.as_deref(),
        Some("bob (2)"),
        "the second bob is told"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reopened_daily_is_practice_and_the_first_result_stays() {
    let (_dir, server, day, words) = served_today("store-again");
    let first = play_daily(server.tcp, "cy", None, &[words[words.len() - 1].as_str()]).await;
    let (player, status, _, _) = first.daily.expect("a daily message");
    assert_eq!(status, DailyStatus::Scored);
    assert!(boggle_protocol::is_player_token(&player), "{player}");
    // The same seat opens the board again and plays it better.
    let again = play_daily(server.tcp, "cy", Some(&player), &[words[0].as_str()]).await;
    assert!(again.score > first.score);
    let (same, status, listed_as, kept) = again.daily.expect("a daily message");
    assert_eq!(
        (same.as_str(), status, listed_as.as_deref()),
        (player.as_str(), DailyStatus::Played, Some("cy"))
    );
    assert_eq!(
        kept.map(|k| k.points),
        Some(first.score),
        "the first result"
    );
    // Under another name too, the seat has played.
    let renamed = play_daily(server.tcp, "cyrus", Some(&player), &[]).await;
    assert_eq!(
        renamed.daily.map(|d| d.1),
        Some(DailyStatus::Played),
        "a new name is no new attempt"
    );
    let rows = leaderboard_until(server.web, day, "cy listed", |rows| !rows.is_empty());
    assert_eq!(rows, [("cy".to_string(), u64::from(first.score))]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_gets_at_most_its_cap_of_results_a_day() {
    let (_dir, server, day, words) = served_today("store-cap");
    // The cap's worth of games that score nothing, then one that scores.
    for n in 0..30 {
        let played = play_daily(server.tcp, &format!("p{n}"), None, &[]).await;
        assert_eq!(played.daily.map(|d| d.1), Some(DailyStatus::Scored), "p{n}");
    }
    let over = play_daily(server.tcp, "over", None, &[words[0].as_str()]).await;
    assert!(over.score > 0);
    let rows = leaderboard_until(server.web, day, "the first ten", |rows| rows.len() == 10);
    assert!(rows.iter().all(|(name, _)| name != "over"), "{rows:?}");
    let (_, status, listed_as, _) = over.daily.expect("a daily message");
    assert_eq!((status, listed_as), (DailyStatus::Capped, None));
}

/// The solver's words sent at machine speed are practice: the seat hears
/// why, and the leaderboard lists the person who found one word, not it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[expect(
    clippy::disallowed_methods,
    reason = "a pause for the server's message rate to refill, asserting nothing on time"
)]
async fn a_solvers_words_at_machine_speed_are_not_listed() {
    let (_dir, server, day, words) = served_today("store-machine");
    play_daily(server.tcp, "ann", None, &[words[words.len() - 1].as_str()]).await;
    let mut bot = Peer::connect(server.tcp).await;
    bot.send(&hello("bot", None, daily(None))).await;
    bot.send(&ClientMsg::Ready).await;
    bot.until(|m| matches!(m, ServerMsg::RoundStart { .. }))
        .await;
    let mut judged = 0;
    for word in &words {
        if !matches!(bot.word(word).await, ServerMsg::Verdict { .. }) {
            break;
        }
        judged += 1;
    }
    assert!(judged > 15, "more words judged than a burst: {judged}");
    // The server's message rate refused the rest: Done waits for it to refill.
    tokio::time::sleep(Duration::from_secs(3)).await;
    bot.send(&ClientMsg::Done).await;
    let told = bot
        .until(|m| matches!(m, ServerMsg::Daily { kept: Some(_), .. }))
        .await;
    let ServerMsg::Daily { kept, reason, .. } = told else {
        unreachable!()
    };
    assert_eq!(kept, Some(false));
    let reason = reason.unwrap_or_default();
    assert_contains(&reason, "faster than a person");
    let scored = bot.results().await;
    assert!(scored.iter().any(|p| p.name == "bot" && p.score > 0));
    let rows = leaderboard_until(server.web, day, "ann listed", |rows| !rows.is_empty());
    assert!(rows.iter().all(|(name, _)| name != "bot"), "{rows:?}");
}

/// Runs `serve --web --data DIR` on a results file it must refuse: it exits
/// 1 with one line naming the file, which is left byte for byte, with
/// nothing beside it.
fn refused(dir: &Path, what: &str) -> String {
    let file = dir.join("daily.sqlite");
    let before = std::fs::read(&file).expect("the file");
    let stderr = stops_at_start(dir, what);
    assert!(stderr.contains("daily.sqlite"), "{what}: {stderr}");
    assert!(
        std::fs::read(&file).expect("kept") == before,
        "{what}: the file changed"
    );
    let beside: Vec<_> = std::fs::read_dir(dir)
        .expect("the folder")
        .map(|e| e.expect("an entry").file_name())
        .collect();
    assert_eq!(beside, ["daily.sqlite"], "{what}");
    stderr
}

/// A results file made by another SQLite connection with `sql`.
fn sqlite_file(dir: &Path, sql: &str) {
    std::fs::create_dir_all(dir).expect("made");
    let conn = rusqlite::Connection::open(dir.join("daily.sqlite")).expect("opens");
    conn.execute_batch(sql).expect("the file is made");
}

#[test]
fn a_foreign_or_unknown_results_file_is_refused_and_left_as_it_was() {
    let dir = TempDir::new("store-foreign");
    // What each file holds, and what the one line must (or must not) say.
    for (what, sql, says, not) in [
        (
            "another program's database",
            "CREATE TABLE grades (pupil TEXT, mark INTEGER); INSERT INTO grades VALUES ('ann', 5);",
            "not this program's",
            "newer",
        ),
        (
            "a negative schema version",
            "CREATE TABLE daily_results (day INTEGER); PRAGMA user_version = -5;",
            "never wrote",
            "newer",
        ),
        (
            "a newer schema",
            "CREATE TABLE daily_results (day INTEGER); PRAGMA user_version = 99;",
            "newer",
            "never wrote",
        ),
    ] {
        let data = dir.path().join(what.replace(' ', "-"));
        sqlite_file(&data, sql);
        let said = refused(&data, what);
        assert!(said.contains(says) && !said.contains(not), "{what}: {said}");
    }
}

/// Runs `serve --web --data DIR`, which must stop at start: exit 1 and one
/// line, returned.
fn stops_at_start(data: &Path, what: &str) -> String {
    let mut command = serve_command(data, &[]);
    let mut server = Killed(
        command
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("boggle serve starts"),
    );
    let code = exit_code(&mut server, what);
    let mut stderr = String::new();
    server
        .stderr
        .take()
        .expect("piped")
        .read_to_string(&mut stderr)
        .expect("stderr");
    assert_eq!(code, Some(1), "{what}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{what}: {stderr}");
    stderr
}

/// A FIFO where the results file or SQLite's log goes is refused at start
/// with one line naming it, not waited on or retried for ever.
#[test]
fn a_fifo_at_the_results_file_or_its_log_is_refused_at_start() {
    let dir = TempDir::new("store-fifo");
    for name in ["daily.sqlite", "daily.sqlite-wal"] {
        let data = dir.path().join(name);
        std::fs::create_dir_all(&data).expect("made");
        common::plant(&data.join(name), common::Plant::Fifo);
        let said = stops_at_start(&data, name);
        assert!(
            said.contains(&format!("{name}: not a regular file")),
            "{name}: {said}"
        );
    }
}

/// A second server on a folder another serves is refused with one line
/// naming the folder; the first plays on.
#[test]
fn a_second_server_on_the_same_data_is_refused() {
    let dir = TempDir::new("store-twice");
    let data = dir.path().join("data");
    let first = serve_web(&data, &[]);
    let said = stops_at_start(&data, "the second server");
    assert!(
        said.contains(&data.display().to_string()) && said.contains("another boggle serve"),
        "{said}"
    );
    assert_eq!(get(first.web, "/healthz").0, 200, "the first still serves");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_malformed_row_is_skipped_and_logged_and_the_day_is_served() {
    let dir = TempDir::new("store-rows");
    let data = dir.path().join("data");
    // A file of the first schema (results by name), edited by hand.
    let tmp = serve_web(&dir.path().join("probe"), &[]);
    let day = today(tmp.web);
    drop(tmp);
    sqlite_file(
        &data,
        &format!(
            "CREATE TABLE daily_results (day INTEGER NOT NULL, name TEXT NOT NULL, \
             points INTEGER NOT NULL, words INTEGER NOT NULL, longest INTEGER NOT NULL, \
             at INTEGER NOT NULL, PRIMARY KEY (day, name));
             PRAGMA user_version = 1;
             INSERT INTO daily_results VALUES ({day}, 'ann', 5, 2, 4, 1), \
             ({day}, 'bob', 'lots', 2, 4, 2), ({day}, 'cy', -3, 2, 4, 3), \
             ({day}, 'dee', 5000000000, 2, 4, 4), ({day}, 'eve', 2, 1, 3, 5);"
        ),
    );
    let server = serve_web(&data, &[]);
    assert_eq!(
        leaderboard(server.web, day),
        [("ann".to_string(), 5), ("eve".to_string(), 2)]
    );
    // The log is written by a thread of its own: the line comes a moment later.
    wait_until(
        || server.log().contains("malformed").then_some(()),
        || format!("the skipped rows are logged: {}", server.log()),
    );
}

/// The latency of one real message, sent at `at`.
#[derive(Clone, Copy, Debug)]
struct Sample {
    at: Instant,
    took: Duration,
    pong: bool,
}

/// Sends `msg` and waits for the answer `answer` picks: how long that took,
/// as a [`Sample`] (a pong's when `msg` is a ping).
#[expect(
    clippy::disallowed_methods,
    reason = "a latency measured for the report, not asserted on"
)]
async fn timed(peer: &mut Peer, msg: &ClientMsg, answer: impl Fn(&ServerMsg) -> bool) -> Sample {
    let at = Instant::now();
    peer.send(msg).await;
    peer.until(answer).await;
    Sample {
        at,
        took: at.elapsed(),
        pong: matches!(msg, ClientMsg::Ping),
    }
}

/// What could not run: stalls of the machine seen by a thread of the test
/// that wakes every millisecond and by a task on the server's runtime that
/// does the same, so a message held up by them is not blamed on the server.
#[derive(Default)]
struct Stalls(Mutex<Vec<(Instant, Instant)>>);

impl Stalls {
    #[expect(
        clippy::disallowed_methods,
        reason = "a poll: a pause between looks, in a loop bounded by a deadline"
    )]
    fn watch(self: &Arc<Self>, stop: &Arc<AtomicBool>) -> std::thread::JoinHandle<()> {
        let (stalls, stop) = (Arc::clone(self), Arc::clone(stop));
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                let before = Instant::now();
                std::thread::sleep(Duration::from_millis(1));
                stalls.note(before, Instant::now());
            }
        })
    }

    /// Notes a pause from `before` to `after` if it was a stall.
    fn note(&self, before: Instant, after: Instant) {
        if after - before > Duration::from_millis(20) {
            self.0.lock().expect("lock").push((before, after));
        }
    }

    fn during(&self, sample: &Sample) -> bool {
        let end = sample.at + sample.took;
        let stalls = self.0.lock().expect("lock");
        stalls.iter().any(|&(a, b)| a < end && b > sample.at)
    }
}

/// A player in room `room` sends a word and a ping, each after the last's
/// answer, until `stop`; the latency of every verdict and pong.
#[expect(
    clippy::disallowed_methods,
    reason = "a poll: a pause between looks, in a loop bounded by a deadline"
)]
async fn keep_playing(
    addr: SocketAddr,
    room: &str,
    name: &str,
    stop: Arc<AtomicBool>,
) -> (Peer, Vec<Sample>) {
    let mut peer = Peer::connect(addr).await;
    peer.send(&hello(name, Some(room), None)).await;
    peer.until(|m| matches!(m, ServerMsg::Welcome { .. })).await;
    peer.send(&ClientMsg::Ready).await;
    peer.until(|m| matches!(m, ServerMsg::RoundStart { .. }))
        .await;
    let mut samples = Vec::new();
    let mut n = 0usize;
    while !stop.load(Ordering::Relaxed) {
        let word = ClientMsg::Word {
            word: ["EAT", "BAT", "NAG", "TEA"][n % 4].into(),
        };
        samples.push(timed(&mut peer, &word, |m| matches!(m, ServerMsg::Verdict { .. })).await);
        samples.push(
            timed(&mut peer, &ClientMsg::Ping, |m| {
                matches!(m, ServerMsg::Pong)
            })
            .await,
        );
        n += 1;
        // Paced under the server's rate (20 messages a second).
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    (peer, samples)
}

/// Holds `BEGIN EXCLUSIVE` on `file` from a connection of its own until told
/// to let go; says when it holds it.
pub(crate) fn hold_lock(
    file: PathBuf,
) -> (
    mpsc::Receiver<()>,
    mpsc::Sender<()>,
    std::thread::JoinHandle<()>,
) {
    let (locked_tx, locked) = mpsc::channel();
    let (release, release_rx) = mpsc::channel::<()>();
    let holder = std::thread::spawn(move || {
        let conn = rusqlite::Connection::open(&file).expect("opens");
        conn.execute_batch("BEGIN EXCLUSIVE").expect("locks");
        locked_tx.send(()).expect("told");
        let _ = release_rx.recv_timeout(Duration::from_secs(60));
        conn.execute_batch("ROLLBACK").expect("unlocks");
    });
    (locked, release, holder)
}

/// A server with its results in `data`, on a runtime of its own (two
/// workers, as the machine has cores) in a thread of its own, with a task
/// on that runtime noting when the runtime itself could not run (the
/// machine starved it). Stopped, and its store closed, by [`InProcess::stop`].
struct InProcess {
    addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl InProcess {
    #[expect(
        clippy::disallowed_methods,
        reason = "a poll: a pause between looks, in a loop bounded by a deadline"
    )]
    fn start(data: &Path, stalls: &Arc<Stalls>, stop_watch: &Arc<AtomicBool>) -> InProcess {
        let day = boggle_game::daily::Daily::today().expect("today").number;
        let store =
            boggle_net::Store::open_dir(data, day, Default::default()).expect("the store opens");
        let mut config = crate::common::net::config(boggle_protocol::Duplicates::Cancel, None);
        config.store = Some(store);
        config.limits.connects_per_sec = 1000.0;
        let (addr_tx, addr_rx) = mpsc::channel();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let (stalls, stop_watch) = (Arc::clone(stalls), Arc::clone(stop_watch));
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .expect("a runtime");
            runtime.block_on(async move {
                let server = boggle_net::Server::bind("127.0.0.1:0", config)
                    .await
                    .expect("binds");
                addr_tx
                    .send(server.local_addr().expect("address"))
                    .expect("told");
                tokio::spawn(async move {
                    while !stop_watch.load(Ordering::Relaxed) {
                        let before = Instant::now();
                        tokio::time::sleep(Duration::from_millis(1)).await;
                        stalls.note(before, Instant::now());
                    }
                });
                let _ = server
                    .run(async move {
                        let _ = stopped.await;
                    })
                    .await;
            });
        });
        InProcess {
            addr: addr_rx.recv_timeout(GUARD).expect("the server's address"),
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    /// Stops the server; it writes what its store holds first.
    fn stop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            thread.join().expect("the server stopped");
        }
    }
}

impl Drop for InProcess {
    fn drop(&mut self) {
        self.stop();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[expect(
    clippy::disallowed_methods,
    reason = "a poll: a pause between looks, in a loop bounded by a deadline"
)]
async fn a_locked_results_file_stalls_no_room_and_loses_no_result() {
    let dir = TempDir::new("store-lock");
    let data = dir.path().join("data");
    let day = u64::from(boggle_game::daily::Daily::today().expect("today").number);
    let stop = Arc::new(AtomicBool::new(false));
    let stalls = Arc::new(Stalls::default());
    let mut server = InProcess::start(&data, &stalls, &stop);
    let addr = server.addr;
    // The daily rooms are warm (their word list loaded) before the lock.
    play_daily(addr, "warm", None, &[]).await;
    let watcher = stalls.watch(&stop);
    // Three rooms of two, playing on throughout.
    let mut players = Vec::new();
    for room in ["r0", "r1", "r2"] {
        for name in ["ann", "bob"] {
            let stop = Arc::clone(&stop);
            players.push(tokio::spawn(keep_playing(addr, room, name, stop)));
        }
    }
    let (locked, release, holder) = hold_lock(data.join("daily.sqlite"));
    locked.recv_timeout(GUARD).expect("the file is locked");
    let held = Instant::now();
    // Daily rounds end while the file is locked, each timed as the rooms are.
    let mut daily_samples = Vec::new();
    let mut names = Vec::new();
    let mut n = 0;
    while held.elapsed() < Duration::from_secs(10) {
        let name = format!("d{n}");
        let at = Instant::now();
        // Each from an address of its own, under the per-address cap.
        let mut peer = connect_from(addr, n).await;
        peer.send(&hello(&name, None, daily(None))).await;
        peer.until(|m| matches!(m, ServerMsg::Welcome { .. })).await;
        peer.send(&ClientMsg::Ready).await;
        peer.until(|m| matches!(m, ServerMsg::RoundStart { .. }))
            .await;
        peer.send(&ClientMsg::Done).await;
        peer.results().await;
        let _ = writeln!(
            std::io::stderr(),
            "a daily round while locked: {:?}",
            at.elapsed()
        );
        daily_samples.push(
            timed(&mut peer, &ClientMsg::Ping, |m| {
                matches!(m, ServerMsg::Pong)
            })
            .await,
        );
        names.push(name);
        n += 1;
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let _ = release.send(());
    holder.join().expect("the lock is let go");
    stop.store(true, Ordering::Relaxed);
    let mut samples = daily_samples;
    for player in players {
        let (_peer, mut theirs) = player.await.expect("played");
        samples.append(&mut theirs);
    }
    watcher.join().expect("watched");
    judge_latencies(&samples, &stalls);
    // Every result of that time is stored once the lock is gone: in the
    // file when the server has stopped (it waits for its store).
    assert!(names.len() >= 5, "{names:?}");
    server.stop();
    assert_eq!(stored_count(&data, day), names.len() + 1, "none lost");
}

/// A connection to `to` from loopback address 127.0.1.N (N below 256).
async fn connect_from(to: SocketAddr, n: usize) -> Peer {
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    let ip = std::net::Ipv4Addr::new(127, 0, 1, u8::try_from(n % 250 + 1).expect("small"));
    socket.bind(SocketAddr::from((ip, 0))).expect("binds");
    let stream = socket.connect(to).await.expect("connects");
    let (read, writer) = stream.into_split();
    Peer {
        reader: tokio::io::BufReader::new(read),
        writer,
    }
}

/// The day's results in the file, counted by another connection.
fn stored_count(data: &Path, day: u64) -> usize {
    let conn = rusqlite::Connection::open_with_flags(
        data.join("daily.sqlite"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .expect("opens");
    let count: i64 = conn
        .query_row(
            "SELECT count(*) FROM daily_attempts WHERE day = ?1 AND points IS NOT NULL",
            [day as i64],
            |r| r.get(0),
        )
        .unwrap_or(0);
    usize::try_from(count).unwrap_or(0)
}

/// Every pong and verdict answered within 50 ms, but those held up by the
/// machine itself (a stall of this process's own threads at the same
/// time), which must be few and short.
fn judge_latencies(samples: &[Sample], stalls: &Stalls) {
    let bound = Duration::from_millis(50);
    let worst = |pong: bool| {
        samples
            .iter()
            .filter(|s| s.pong == pong)
            .map(|s| s.took)
            .max()
            .unwrap_or_default()
    };
    let slow: Vec<&Sample> = samples.iter().filter(|s| s.took > bound).collect();
    let excused = slow.iter().filter(|s| stalls.during(s)).count();
    let _ = writeln!(
        std::io::stderr(),
        "locked file: {} messages, worst pong {:?}, worst verdict {:?}, {} over 50 ms ({} during a stall of the machine)",
        samples.len(),
        worst(true),
        worst(false),
        slow.len(),
        excused
    );
    assert!(samples.len() >= 300, "{} messages", samples.len());
    let blamed: Vec<&&Sample> = slow.iter().filter(|s| !stalls.during(s)).collect();
    assert!(blamed.is_empty(), "answered after 50 ms: {blamed:?}");
    assert!(
        excused * 20 <= samples.len(),
        "{excused} held up by the machine"
    );
    assert!(
        worst(true).max(worst(false)) < Duration::from_secs(1),
        "a message waited a second"
    );
}
