//! `boggle serve --web` in a real browser: the test starts the server binary
//! on loopback (port 0 for both sides), Debian's chromedriver on a free
//! port, and two headless Chromium sessions (one 360 px wide, a phone; one
//! 1280 px), plus one line-mode `boggle join` player, and plays one round:
//! the board shown is the server's, a trace follows the room's move rule
//! (`project4`: never up a row), a word two players find is cancelled for
//! both, each score is the points of its verdicts, a name with markup in it
//! shows as text, and a page whose connection drops mid-round rejoins with
//! its seat's token and keeps its words (the phone goes through a proxy
//! here that the test cuts). It saves screenshots of the lobby, the round
//! and the results at both widths in `target/web-screenshots/`.
//!
//! Every wait is bounded (an element or a state polled for at most
//! [`GUARD`]); every process started here is killed on drop, also when an
//! assertion fails. Without a browser the test skips with a reason, unless
//! `CI=true`, where it fails instead.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use fantoccini::actions::{InputSource, PointerAction, TouchActions};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

/// The longest any one wait may take.
const GUARD: Duration = Duration::from_secs(30);
/// The board every round is played on (`--board`).
const BOARD: &str = "BENHLAUMITLZRGAN";
/// The whole dictionary (`--dict`). Under `project4`'s rule (never up a
/// row) EAT, BAT, BEN and NAG lie on the board; LAB (its B is up from its A)
/// and TEA do not.
const WORDS: &str = "eat\nbat\nben\nlab\nnag\ntea\n";
/// A name a careless page would turn into markup.
const MARKUP_NAME: &str = "<b>x</b>";

/// A child process killed and reaped when dropped.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A TCP proxy on loopback whose connections the test can cut, as a
/// network would drop them, while it goes on accepting new ones.
struct Proxy {
    addr: std::net::SocketAddr,
    conns: Arc<Mutex<Vec<tokio::task::AbortHandle>>>,
    accept: tokio::task::JoinHandle<()>,
}

impl Proxy {
    async fn start(target: std::net::SocketAddr) -> Proxy {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("binds");
        let addr = listener.local_addr().expect("address");
        let conns = Arc::new(Mutex::new(Vec::new()));
        let held = Arc::clone(&conns);
        let accept = tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                let task = tokio::spawn(async move {
                    if let Ok(mut outbound) = tokio::net::TcpStream::connect(target).await {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                    }
                });
                held.lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .push(task.abort_handle());
            }
        });
        Proxy {
            addr,
            conns,
            accept,
        }
    }

    /// Closes every connection open through the proxy.
    fn cut(&self) {
        let conns = std::mem::take(
            &mut *self
                .conns
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        );
        for conn in conns {
            conn.abort();
        }
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.accept.abort();
        self.cut();
    }
}

/// Chromium and chromedriver, if both are installed.
fn browser() -> Result<(PathBuf, PathBuf), String> {
    let find = |names: &[&str]| {
        names.iter().find_map(|name| {
            std::env::var_os("PATH").and_then(|paths| {
                std::env::split_paths(&paths)
                    .map(|dir| dir.join(name))
                    .find(|path| path.is_file())
            })
        })
    };
    let chromium = find(&["chromium", "chromium-browser", "google-chrome"])
        .ok_or("no chromium on PATH (apt-get install chromium)")?;
    let driver = find(&["chromedriver"])
        .ok_or("no chromedriver on PATH (apt-get install chromium-driver)")?;
    Ok((chromium, driver))
}

/// A port free on loopback a moment ago (chromedriver takes a port number, not a socket).
fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("binds");
    listener.local_addr().expect("address").port()
}

/// Waits until something accepts connections on `port`.
fn wait_for_port(port: u16, child: &mut Child) -> Result<(), String> {
    let start = Instant::now();
    while start.elapsed() < GUARD {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return Ok(());
        }
        if let Ok(Some(status)) = child.try_wait() {
            return Err(format!("chromedriver exited: {status}"));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Err(format!("nothing listened on port {port} within {GUARD:?}"))
}

/// Lines a child prints, read on a thread so every wait for one is bounded.
fn lines_of(stream: impl std::io::Read + Send + 'static) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stream).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// The next line starting with `prefix`, what follows it.
fn line_after(lines: &mpsc::Receiver<String>, prefix: &str) -> String {
    let start = Instant::now();
    loop {
        let left = GUARD.saturating_sub(start.elapsed());
        let line = lines
            .recv_timeout(left)
            .unwrap_or_else(|_| panic!("no line starting {prefix:?} within {GUARD:?}"));
        if let Some(rest) = line.strip_prefix(prefix) {
            return rest.trim().to_string();
        }
    }
}

/// A headless Chromium session `width` px wide.
async fn session(driver: &str, chromium: &Path, width: u32) -> Result<Client, String> {
    let height = if width < 600 { 800 } else { 900 };
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": chromium,
            "args": [
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--no-first-run",
                "--hide-scrollbars",
                format!("--window-size={width},{height}"),
            ],
        }),
    );
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    let client = ClientBuilder::new(connector)
        .capabilities(caps)
        .connect(driver)
        .await
        .map_err(|e| format!("no browser session: {e}"))?;
    client
        .set_window_size(width, height)
        .await
        .map_err(|e| format!("cannot size the window: {e}"))?;
    Ok(client)
}

/// Polls `script` (a function body returning true when ready) until it holds.
async fn wait_js(client: &Client, script: &str, what: &str) {
    let start = Instant::now();
    loop {
        let value = client.execute(script, vec![]).await.expect("script runs");
        if value == Value::Bool(true) {
            return;
        }
        assert!(start.elapsed() < GUARD, "waited {GUARD:?} for {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn js(client: &Client, script: &str) -> Value {
    client.execute(script, vec![]).await.expect("script runs")
}

async fn visible(client: &Client, id: &str) {
    let script = format!("return !document.getElementById('{id}').hidden;");
    wait_js(client, &script, &format!("#{id} shown")).await;
}

async fn screenshot(client: &Client, name: &str) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("target dir")
        .join("web-screenshots");
    std::fs::create_dir_all(&dir).expect("screenshot dir");
    let png = client.screenshot().await.expect("screenshot");
    assert!(png.starts_with(b"\x89PNG"), "a PNG");
    std::fs::write(dir.join(format!("{name}.png")), png).expect("screenshot saved");
}

/// Opens the page and joins as `name`, with the keyboard alone: the name
/// field has the focus, Enter submits.
async fn join(client: &Client, web: &str, name: &str) {
    client
        .goto(&format!("{web}?room=kitchen"))
        .await
        .expect("page loads");
    let room = client.find(Locator::Id("room")).await.expect("room field");
    assert_eq!(
        room.prop("value").await.expect("value").as_deref(),
        Some("kitchen"),
        "the room comes from the link"
    );
    // The style and the script ran under the page's Content-Security-Policy.
    let styled = js(
        client,
        "return getComputedStyle(document.querySelector('header')).backgroundColor;",
    )
    .await;
    assert_eq!(styled, json!("rgb(45, 42, 34)"), "app.css applied");
    let focused = client.active_element().await.expect("focus");
    assert_eq!(
        focused.attr("id").await.expect("id").as_deref(),
        Some("name")
    );
    focused
        .send_keys(&format!("{name}\u{E007}"))
        .await
        .expect("typed");
    visible(client, "lobby").await;
}

/// Types `word` and Enter, and waits for its verdict.
async fn type_word(client: &Client, word: &str) {
    let input = client.find(Locator::Id("word")).await.expect("word field");
    input
        .send_keys(&format!("{word}\u{E007}"))
        .await
        .expect("typed");
    let upper = word.to_ascii_uppercase();
    wait_js(
        client,
        &format!("return !!document.querySelector('#verdicts li[data-word=\"{upper}\"]');"),
        &format!("the verdict on {upper}"),
    )
    .await;
}

/// Traces cells by touch: down on the first, dragged across the rest, up.
async fn trace(client: &Client, cells: &[usize]) {
    let all = client
        .find_all(Locator::Css("#board .cell"))
        .await
        .expect("cells");
    let mut touch = TouchActions::new("finger".into());
    for (k, &i) in cells.iter().enumerate() {
        touch = touch.then(PointerAction::MoveToElement {
            element: all[i].clone(),
            duration: Some(Duration::from_millis(if k == 0 { 0 } else { 150 })),
            x: 0.0,
            y: 0.0,
        });
        if k == 0 {
            touch = touch.then(PointerAction::Down { button: 0 });
        }
    }
    touch = touch.then(PointerAction::Up { button: 0 });
    client.perform_actions(touch).await.expect("traced");
}

/// The points of the verdicts shown: (word, points, accepted).
async fn verdicts(client: &Client) -> Vec<(String, u64, bool)> {
    let value = js(
        client,
        "return Array.from(document.querySelectorAll('#verdicts li')).map(li => \
         [li.dataset.word, Number(li.dataset.points), li.dataset.accepted === 'true']);",
    )
    .await;
    serde_json::from_value::<Vec<(String, u64, bool)>>(value).expect("verdict rows")
}

/// Each player's card in the results: name, the score shown, and (word, points, cancelled).
type Card = (String, u64, Vec<(String, u64, bool)>);

async fn results(client: &Client) -> Vec<Card> {
    let value = js(
        client,
        "return Array.from(document.querySelectorAll('#results-players .player-result')).map(c => \
         [c.querySelector('.name').textContent, Number(c.querySelector('.score').textContent), \
          Array.from(c.querySelectorAll('.words li[data-word]')).map(li => \
            [li.dataset.word, Number(li.dataset.points), li.dataset.cancelled === 'true'])]);",
    )
    .await;
    serde_json::from_value::<Vec<Card>>(value).expect("result cards")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_browsers_and_a_terminal_player_play_a_round() {
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    let (chromium, driver_path) = match browser() {
        Ok(found) => found,
        Err(why) if ci => panic!("CI=true and no browser: {why}"),
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };

    let dir = tempfile::tempdir().expect("temp dir");
    let dict = dir.path().join("words.txt");
    std::fs::write(&dict, WORDS).expect("dictionary written");
    let binary = env!("CARGO_BIN_EXE_boggle");
    let mut server = Killed(
        Command::new(binary)
            .args(["serve", "--listen", "127.0.0.1:0", "--web", "127.0.0.1:0"])
            .args(["--board", BOARD, "--time", "600", "--min-players", "2"])
            .args(["--rules", "project4"])
            // The relay below (a dropped connection) is another port of
            // 127.0.0.1, which the page's requests then name as their Host.
            .args(["--web-host", "127.0.0.1"])
            .arg("--dict")
            .arg(&dict)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the server starts"),
    );
    let server_lines = lines_of(server.0.stdout.take().expect("stdout"));
    let tcp = line_after(&server_lines, "listening on ");
    let web = line_after(&server_lines, "web page on ");
    assert!(
        web.starts_with("http://127.0.0.1:") && web.ends_with('/'),
        "{web}"
    );

    let port = free_port();
    let mut chromedriver = Killed(
        Command::new(&driver_path)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts"),
    );
    if let Err(why) = wait_for_port(port, &mut chromedriver.0) {
        assert!(!ci, "CI=true and chromedriver did not start: {why}");
        eprintln!("skipped: {why}");
        return;
    }
    let driver = format!("http://127.0.0.1:{port}");
    let (phone, desk) = match (
        session(&driver, &chromium, 360).await,
        session(&driver, &chromium, 1280).await,
    ) {
        (Ok(phone), Ok(desk)) => (phone, desk),
        (Err(why), _) | (_, Err(why)) => {
            assert!(!ci, "CI=true and no browser session: {why}");
            eprintln!("skipped: {why}");
            return;
        }
    };

    let web_addr: std::net::SocketAddr = web
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .parse()
        .expect("the web address");
    let proxy = Proxy::start(web_addr).await;
    join(&phone, &format!("http://{}/", proxy.addr), "ann").await;
    join(&desk, &web, MARKUP_NAME).await;
    // The terminal player: always ready, its words queued for the round,
    // done when its input ends.
    let mut carl = Killed(
        Command::new(binary)
            .args(["join", &tcp, "--name", "carl", "--room", "kitchen"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("join starts"),
    );
    let carl_lines = lines_of(carl.0.stdout.take().expect("stdout"));
    {
        let mut stdin = carl.0.stdin.take().expect("stdin");
        stdin.write_all(b"nag\n").expect("words sent");
    }
    for client in [&phone, &desk] {
        wait_js(
            client,
            "return document.querySelectorAll('#players li').length === 3 && \
             !!document.querySelector('#players li[data-name=\"carl\"] .state.ready');",
            "three players, carl ready",
        )
        .await;
        // The name with markup in it is text, on every page.
        let shown = js(
            client,
            "const li = Array.from(document.querySelectorAll('#players li')).find(li => \
               li.dataset.name === '<b>x</b>'); \
             return [li ? li.querySelector('.name').textContent : null, \
                     document.querySelectorAll('main b').length];",
        )
        .await;
        assert_eq!(shown, json!([MARKUP_NAME, 0]));
    }
    screenshot(&phone, "lobby-360").await;
    screenshot(&desk, "lobby-1280").await;

    // The phone with the keyboard alone: after joining, the focus is on Ready.
    let focused = phone.active_element().await.expect("focus");
    assert_eq!(
        focused.attr("id").await.expect("id").as_deref(),
        Some("ready")
    );
    focused.send_keys("\u{E007}").await.expect("Enter");
    desk.find(Locator::Id("ready"))
        .await
        .expect("ready button")
        .click()
        .await
        .expect("clicked");
    for client in [&phone, &desk] {
        visible(client, "round").await;
        let faces = js(
            client,
            "return Array.from(document.querySelectorAll('#board .cell')).map(c => c.dataset.face).join('');",
        )
        .await;
        assert_eq!(faces, json!(BOARD), "the board shown is the server's");
        let text = js(
            client,
            "return Array.from(document.querySelectorAll('#board .cell')).map(c => c.textContent).join('');",
        )
        .await;
        assert_eq!(text, json!(BOARD));
    }
    assert_eq!(line_after(&carl_lines, "board: ").replace(' ', ""), BOARD);

    // ann: EAT typed (ann and x both find it), BAT traced by touch, ZZZ refused.
    type_word(&phone, "eat").await;
    // A trace upwards (T, then the A and E above it) never leaves the T:
    // the page follows the room's move rule, so only "T" is sent.
    trace(&phone, &[9, 5, 1]).await;
    wait_js(
        &phone,
        "return !!document.querySelector('#verdicts li[data-word=\"T\"][data-accepted=\"false\"]') && \
         !document.querySelector('#verdicts li[data-word=\"TA\"], #verdicts li[data-word=\"TAE\"]');",
        "the upward trace stopped at T",
    )
    .await;
    trace(&phone, &[0, 5, 9]).await;
    wait_js(
        &phone,
        "return !!document.querySelector('#verdicts li[data-word=\"BAT\"][data-accepted=\"true\"]');",
        "BAT traced and accepted",
    )
    .await;
    // The phone's connection drops: it rejoins with its seat's token, and
    // the server gives its words back.
    proxy.cut();
    wait_js(
        &phone,
        "return document.body.dataset.rejoins === '1' && \
         document.getElementById('status').textContent === 'rejoined: your words this round are kept';",
        "the phone rejoined",
    )
    .await;
    let kept = verdicts(&phone).await;
    for word in ["EAT", "BAT"] {
        assert!(
            kept.iter().any(|(w, p, ok)| w == word && *ok && *p == 1),
            "{kept:?}"
        );
    }
    type_word(&phone, "zzz").await;
    // x: EAT, TEA and LAB (neither on the board under the rule), BEN.
    type_word(&desk, "eat").await;
    type_word(&desk, "tea").await;
    type_word(&desk, "lab").await;
    type_word(&desk, "ben").await;
    screenshot(&phone, "round-360").await;
    screenshot(&desk, "round-1280").await;

    let mut played = Vec::new();
    for client in [&phone, &desk] {
        let shown = verdicts(client).await;
        let sum: u64 = shown.iter().map(|(_, p, _)| p).sum();
        let score = js(
            client,
            "return Number(document.getElementById('score').textContent);",
        )
        .await;
        assert_eq!(
            score,
            json!(sum),
            "the score is the points of the verdicts: {shown:?}"
        );
        played.push(shown);
    }
    assert!(played[0].iter().any(|(w, _, ok)| w == "ZZZ" && !ok));
    assert!(played[1].iter().any(|(w, _, ok)| w == "TEA" && !ok));
    assert!(
        played[1].iter().any(|(w, _, ok)| w == "LAB" && !ok),
        "never up a row"
    );

    for client in [&phone, &desk] {
        client
            .find(Locator::Id("done"))
            .await
            .expect("done button")
            .click()
            .await
            .expect("clicked");
    }
    for client in [&phone, &desk] {
        visible(client, "results").await;
    }
    let cards = results(&desk).await;
    assert_eq!(
        cards,
        results(&phone).await,
        "both pages show the same results"
    );
    let names: Vec<&str> = cards.iter().map(|(n, _, _)| n.as_str()).collect();
    for name in ["ann", MARKUP_NAME, "carl"] {
        assert!(names.contains(&name), "{names:?}");
    }
    for (name, score, words) in &cards {
        let kept: u64 = words.iter().filter(|(_, _, c)| !c).map(|(_, p, _)| p).sum();
        assert_eq!(*score, kept, "{name}'s score is its words' points");
        let eat = words.iter().find(|(w, _, _)| w == "EAT");
        if name == "carl" {
            assert!(eat.is_none());
            assert_eq!(*score, 1, "NAG");
        } else {
            assert!(
                matches!(eat, Some((_, _, true))),
                "EAT cancelled for {name}"
            );
        }
    }
    for (name, verdict_list) in [("ann", &played[0]), (MARKUP_NAME, &played[1])] {
        let (_, score, words) = cards.iter().find(|(n, _, _)| n == name).expect("a card");
        let accepted: u64 = verdict_list
            .iter()
            .filter(|(w, _, ok)| *ok && words.iter().any(|(rw, _, c)| rw == w && !c))
            .map(|(_, p, _)| p)
            .sum();
        assert_eq!(
            *score, accepted,
            "{name}: the points of its verdicts, less the cancelled"
        );
        assert_eq!(*score, 1);
    }
    let shared = js(
        &desk,
        "return Array.from(document.querySelectorAll('#results-shared li[data-word]')).map(li => li.textContent);",
    )
    .await;
    assert_eq!(
        shared,
        json!(["EAT: ann, <b>x</b>"]),
        "shared, by name, as text"
    );
    assert_eq!(
        js(&desk, "return document.querySelectorAll('main b').length;").await,
        json!(0)
    );
    screenshot(&phone, "results-360").await;
    screenshot(&desk, "results-1280").await;

    // The terminal player saw the same round end.
    line_after(&carl_lines, "results of round 1");
    let start = Instant::now();
    while carl.0.try_wait().ok().flatten().is_none() && start.elapsed() < GUARD {
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = phone.close().await;
    let _ = desk.close().await;
    drop(carl);
    drop(chromedriver);
    drop(server);
}
