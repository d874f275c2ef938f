//! What every browser test shares: the one fixture ([`Page::builder`]:
//! the server binary with `--web` on loopback, chromedriver, headless
//! Chromium windows of the widths asked for, all killed on drop), bounded
//! waits on the page's state, the page's elements read and tapped,
//! screenshots, and axe-core's accessibility check injected into the page.
//! Without Chromium or chromedriver a test skips with a reason, unless
//! `CI=true`, where it fails.

use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Child;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder};
use serde_json::{Value, json};

/// The longest any one wait may take.
pub(crate) const GUARD: Duration = Duration::from_secs(30);

pub(crate) use crate::common::Killed;

/// Chromium and chromedriver, if both are installed.
pub(crate) fn browser() -> Result<(PathBuf, PathBuf), String> {
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
pub(crate) fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("binds");
    listener.local_addr().expect("address").port()
}

/// Waits until something accepts connections on `port`, or `child` exits.
pub(crate) fn wait_for_port(port: u16, child: &mut Child) -> Result<(), String> {
    crate::common::wait_until(
        || {
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return Some(Ok(()));
            }
            match child.try_wait() {
                Ok(Some(status)) => Some(Err(format!("chromedriver exited: {status}"))),
                _ => None,
            }
        },
        || format!("nothing listened on port {port}"),
    )
}

/// Lines a child prints, read on a thread so every wait for one is bounded.
pub(crate) fn lines_of(stream: impl std::io::Read + Send + 'static) -> mpsc::Receiver<String> {
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
#[expect(clippy::disallowed_methods, reason = "a deadline that bounds a wait")]
pub(crate) fn line_after(lines: &mpsc::Receiver<String>, prefix: &str) -> String {
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

/// The server binary with `--web` on loopback under classic rules (the
/// built-in player list), its day's results in `data`, and the web page's
/// address; `args` are added.
pub(crate) fn web_server(data: &Path, args: &[&str]) -> (Killed, String) {
    let (server, _, web) = serve_web(data, "classic", args);
    (server, web)
}

/// [`web_server`] under `rules`, with the line protocol's address too:
/// (the server, `listening on`'s address, the web page's address).
fn serve_web(data: &Path, rules: &str, args: &[&str]) -> (Killed, String, String) {
    let mut server = Killed(
        crate::common::boggle(["serve", "--listen", "127.0.0.1:0", "--web", "127.0.0.1:0"])
            .args(["--rules", rules])
            .arg("--data")
            .arg(data)
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("the server starts"),
    );
    let lines = lines_of(server.0.stdout.take().expect("stdout"));
    let tcp = line_after(&lines, "listening on ");
    let web = line_after(&lines, "web page on ");
    (server, tcp, web)
}

/// What a browser test asks [`Page::builder`] for: the server's options,
/// its dictionary, the windows' widths and Chromium's flags, and the page
/// each window opens first.
pub(crate) struct PageBuilder {
    rules: String,
    args: Vec<String>,
    words: Option<String>,
    serve: bool,
    widths: Vec<u32>,
    chromium_args: Vec<String>,
    start: Option<String>,
}

/// One browser test's world, stopped when dropped: the server binary with
/// `--web` on loopback (its `--data` and dictionary in `dir`), chromedriver
/// and one headless window a width asked for.
pub(crate) struct Page {
    /// The windows, in the order of their widths.
    windows: Vec<(u32, Client)>,
    /// chromedriver, in a process group with the browsers it started.
    pub driver: Killed,
    /// The server, when the builder started one.
    pub server: Option<Killed>,
    /// The web page's address (`http://127.0.0.1:PORT/`).
    pub web: String,
    /// The line protocol's address (`127.0.0.1:PORT`), for `boggle join`.
    pub tcp: String,
    rules: String,
    dict: Vec<String>,
    args: Vec<String>,
    /// The server's `--data` folder, which also holds its dictionary.
    pub dir: tempfile::TempDir,
}

impl Page {
    /// A server under classic rules with the built-in player list, and two
    /// windows: a phone (360 px) and a desk (1280 px).
    pub(crate) fn builder() -> PageBuilder {
        PageBuilder {
            rules: "classic".into(),
            args: Vec::new(),
            words: None,
            serve: true,
            widths: vec![360, 1280],
            chromium_args: Vec::new(),
            start: None,
        }
    }

    /// The narrow window (under 600 px), as a phone shows the page.
    pub(crate) fn phone(&self) -> Client {
        self.window(|width| width < 600)
    }

    /// The wide window (600 px or more), as a desk shows the page.
    pub(crate) fn desk(&self) -> Client {
        self.window(|width| width >= 600)
    }

    fn window(&self, pick: impl Fn(u32) -> bool) -> Client {
        let (_, client) = self
            .windows
            .iter()
            .find(|(width, _)| pick(*width))
            .expect("the builder asked for a window of that width");
        client.clone()
    }

    /// The server stopped and started again on the same `--data` with the
    /// same options (so on other ports): what it kept shows.
    pub(crate) fn restart(&mut self) {
        let args = self.args.clone();
        self.serve(&args);
    }

    /// The server stopped, and another started on the same `--data`, rules
    /// and dictionary with `args` instead of the builder's options.
    pub(crate) fn serve(&mut self, args: &[impl AsRef<str>]) {
        self.server = None;
        let mut all: Vec<&str> = self.dict.iter().map(String::as_str).collect();
        all.extend(args.iter().map(AsRef::as_ref));
        let (server, tcp, web) = serve_web(self.dir.path(), &self.rules, &all);
        (self.server, self.tcp, self.web) = (Some(server), tcp, web);
    }

    /// Fails on any error a window's page threw `when`, and closes them all.
    pub(crate) async fn end(&self, when: &str) {
        for (_, client) in &self.windows {
            no_page_errors(client, when).await;
        }
        for (_, client) in &self.windows {
            let _ = client.clone().close().await;
        }
    }
}

impl PageBuilder {
    /// Server options beside `--rules` and `--data` (`--web-host` among them).
    pub(crate) fn args(mut self, args: &[&str]) -> Self {
        self.args.extend(args.iter().map(|arg| arg.to_string()));
        self
    }

    /// Rules other than classic (`--rules`).
    pub(crate) fn rules(mut self, rules: &str) -> Self {
        self.rules = rules.into();
        self
    }

    /// A dictionary of these lines instead of the built-in player list:
    /// written as `words.txt` in the data folder, given as `--dict`.
    pub(crate) fn words(mut self, words: &str) -> Self {
        self.words = Some(words.into());
        self
    }

    /// No server: the test serves the page itself (from this process).
    pub(crate) fn no_server(mut self) -> Self {
        self.serve = false;
        self
    }

    /// Windows of these widths instead of a phone's and a desk's.
    pub(crate) fn widths(mut self, widths: &[u32]) -> Self {
        self.widths = widths.to_vec();
        self
    }

    /// Flags for Chromium's command line (`--host-resolver-rules=...`).
    pub(crate) fn chromium_args(mut self, args: &[&str]) -> Self {
        self.chromium_args
            .extend(args.iter().map(|arg| arg.to_string()));
        self
    }

    /// The page every window opens first: `path` after the server's address.
    pub(crate) fn open(mut self, path: &str) -> Self {
        self.start = Some(path.into());
        self
    }

    /// Starts it all; `None` after saying why a browser cannot run here
    /// (and failing under `CI=true`).
    pub(crate) async fn start(self) -> Option<Page> {
        let (chromium, driver_path) = match browser() {
            Ok(found) => found,
            Err(why) => {
                crate::common::cannot_run(&format!("no browser: {why}"));
                return None;
            }
        };
        let dir = tempfile::tempdir().expect("temp dir");
        let dict = match &self.words {
            Some(words) => vec!["--dict".to_string(), words_file(dir.path(), words)],
            None => Vec::new(),
        };
        let (server, tcp, web) = if self.serve {
            let refs: Vec<&str> = dict.iter().chain(&self.args).map(String::as_str).collect();
            let (server, tcp, web) = serve_web(dir.path(), &self.rules, &refs);
            (Some(server), tcp, web)
        } else {
            (None, String::new(), String::new())
        };
        let (driver, address) = chromedriver(&driver_path)?;
        let flags: Vec<&str> = self.chromium_args.iter().map(String::as_str).collect();
        let mut windows = Vec::new();
        for &width in &self.widths {
            match session(&address, &chromium, width, &flags).await {
                Ok(client) => windows.push((width, client)),
                Err(why) => {
                    crate::common::cannot_run(&format!("no browser session: {why}"));
                    return None;
                }
            }
        }
        if let Some(path) = &self.start {
            for (_, client) in &windows {
                client
                    .goto(&format!("{web}{path}"))
                    .await
                    .expect("page loads");
            }
        }
        Some(Page {
            windows,
            driver,
            server,
            web,
            tcp,
            rules: self.rules,
            dict,
            args: self.args,
            dir,
        })
    }
}

/// chromedriver started on a free port, in a process group of its own, and
/// its address; `None` after saying why it did not start.
fn chromedriver(driver_path: &Path) -> Option<(Killed, String)> {
    let port = free_port();
    let mut chromedriver = Killed(
        std::process::Command::new(driver_path)
            .arg(format!("--port={port}"))
            .process_group(0)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("chromedriver starts"),
    );
    if let Err(why) = wait_for_port(port, &mut chromedriver.0) {
        crate::common::cannot_run(&format!("chromedriver did not start: {why}"));
        return None;
    }
    Some((chromedriver, format!("http://127.0.0.1:{port}")))
}

/// A headless Chromium session `width` px wide, its command line with `extra`.
pub(crate) async fn session(
    driver: &str,
    chromium: &Path,
    width: u32,
    extra: &[&str],
) -> Result<Client, String> {
    let height = if width < 600 { 800 } else { 900 };
    let mut args = vec![
        "--headless=new".to_string(),
        "--no-sandbox".into(),
        "--disable-gpu".into(),
        "--disable-dev-shm-usage".into(),
        "--no-first-run".into(),
        "--hide-scrollbars".into(),
        format!("--window-size={width},{height}"),
    ];
    args.extend(extra.iter().map(|arg| arg.to_string()));
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        json!({ "binary": chromium, "args": args }),
    );
    // The page's uncaught errors, for `no_page_errors`.
    caps.insert("goog:loggingPrefs".into(), json!({ "browser": "SEVERE" }));
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

/// chromedriver's command for the browser's log since the last read.
#[derive(Debug)]
struct BrowserLog;

impl fantoccini::wd::WebDriverCompatibleCommand for BrowserLog {
    fn endpoint(
        &self,
        base: &url::Url,
        session: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/se/log", session.unwrap_or_default()))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        (
            http::Method::POST,
            Some(json!({ "type": "browser" }).to_string()),
        )
    }
}

/// Fails if the page threw an error that nothing caught since the last look
/// (a name it does not define, a property of null, ...): what a player
/// would never see, but what leaves the page doing nothing.
pub(crate) async fn no_page_errors(client: &Client, when: &str) {
    let log = client
        .issue_cmd(BrowserLog)
        .await
        .expect("the browser's log");
    let thrown: Vec<&str> = log
        .as_array()
        .into_iter()
        .flatten()
        .filter(|entry| entry["source"] == "javascript")
        .filter_map(|entry| entry["message"].as_str())
        .collect();
    assert!(thrown.is_empty(), "the page threw {when}: {thrown:#?}");
}

/// Polls `script` (a function body returning true when ready) until it holds.
pub(crate) async fn wait_js(client: &Client, script: &str, what: &str) {
    crate::common::wait_until_async(
        async || {
            let value = client.execute(script, vec![]).await.expect("script runs");
            (value == Value::Bool(true)).then_some(())
        },
        async || {
            // What the player saw then, to tell why.
            let status = client
                .execute(
                    "const s = document.getElementById('status'); return s && s.textContent;",
                    vec![],
                )
                .await
                .unwrap_or_default();
            format!("waited for {what} (the page's status: {status})")
        },
    )
    .await;
}

/// Waits until the dialog `id` is open; `what` says why it should be.
pub(crate) async fn dialog_open(client: &Client, id: &str, what: &str) {
    let script = format!("return document.getElementById('{id}').open;");
    wait_js(client, &script, what).await;
}

/// Runs `script` (a function body) in the page; what it returns.
pub(crate) async fn js(client: &Client, script: &str) -> Value {
    client.execute(script, vec![]).await.expect("script runs")
}

/// Clicks the element `id`.
pub(crate) async fn click(client: &Client, id: &str) {
    js(
        client,
        &format!(
            "document.getElementById({}).click(); return true;",
            json!(id)
        ),
    )
    .await;
}

/// Waits for the join form, fills in its `fields` (an input's id, its
/// value) and presses Join, as a player would.
pub(crate) async fn join_form(client: &Client, fields: &[(&str, &str)]) {
    visible(client, "join").await;
    let fill: String = fields
        .iter()
        .map(|(id, value)| {
            format!(
                "document.getElementById({}).value = {};",
                json!(id),
                json!(value)
            )
        })
        .collect();
    js(
        client,
        &format!("{fill} document.getElementById('join-button').click(); return true;"),
    )
    .await;
}

/// Clicks the element `id` as a person would (WebDriver's click: it must
/// be shown and not covered), where [`click`] clicks it from the page's script.
pub(crate) async fn press(client: &Client, id: &str) {
    client
        .find(fantoccini::Locator::Id(id))
        .await
        .unwrap_or_else(|e| panic!("no #{id}: {e}"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("#{id} not clicked: {e}"));
}

/// Sends `word` from the word field's form by script (no keys typed).
pub(crate) async fn submit(client: &Client, word: &str) {
    let script = format!(
        "const i = document.getElementById('word'); i.value = {}; \
         i.form.requestSubmit(); return true;",
        json!(word)
    );
    js(client, &script).await;
}

/// Waits until the verdicts show `word` (in capitals) accepted; `what`
/// says what that means, should the wait fail.
pub(crate) async fn accepted(client: &Client, word: &str, what: &str) {
    let script = format!(
        "return !!document.querySelector('#verdicts li[data-word=\"{word}\"][data-accepted=\"true\"]');"
    );
    wait_js(client, &script, what).await;
}

/// Types `word` and Enter in the word field, and waits for its verdict.
pub(crate) async fn type_word(client: &Client, word: &str) {
    let input = client
        .find(fantoccini::Locator::Id("word"))
        .await
        .expect("word field");
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

/// Writes `words` as `dir/words.txt`, a dictionary for `--dict`; its path.
pub(crate) fn words_file(dir: &Path, words: &str) -> String {
    let dict = dir.join("words.txt");
    std::fs::write(&dict, words).expect("dictionary written");
    dict.to_str().expect("a UTF-8 path").to_string()
}

/// Opens a link the page offers to play (a board, today's board) and
/// presses its Play button, as a player would.
pub(crate) async fn play_link(client: &Client, url: &str) {
    client.goto(url).await.expect("page loads");
    visible(client, "link-card").await;
    js(
        client,
        "document.getElementById('link-play').click(); return true;",
    )
    .await;
}

/// Waits until the element `id` is shown.
pub(crate) async fn visible(client: &Client, id: &str) {
    let script = format!("return !document.getElementById('{id}').hidden;");
    wait_js(client, &script, &format!("#{id} shown")).await;
}

/// The text of the element `id` (empty when it has none).
pub(crate) async fn text(client: &Client, id: &str) -> String {
    let value = js(
        client,
        &format!("return document.getElementById({}).textContent;", json!(id)),
    )
    .await;
    value.as_str().unwrap_or_default().to_string()
}

/// The cells' faces shown on the round's board, row-major.
pub(crate) async fn faces(client: &Client) -> String {
    let value = js(
        client,
        "return Array.from(document.querySelectorAll('#board .cell'), c => c.dataset.face).join('');",
    )
    .await;
    value.as_str().expect("faces").to_string()
}

/// Clicks the round's cell `i` (a tap: down and up on it).
pub(crate) async fn tap(client: &Client, i: usize) {
    let cells = client
        .find_all(fantoccini::Locator::Css("#board .cell"))
        .await
        .expect("cells");
    cells[i].clone().click().await.expect("tapped");
}

/// Makes the clipboard keep what the page copies in `window.copied`
/// (headless Chromium has no clipboard to read back).
pub(crate) async fn catch_copies(client: &Client) {
    js(
        client,
        "navigator.clipboard.writeText = async (t) => { window.copied = t; }; return true;",
    )
    .await;
}

/// Ends the round (Done) and waits for the results.
pub(crate) async fn finish_round(client: &Client) {
    click(client, "done").await;
    visible(client, "results").await;
}

/// Ends a round of today's board (Done) and waits for its share text.
pub(crate) async fn finish_daily(client: &Client) {
    finish_round(client).await;
    wait_js(
        client,
        "return document.getElementById('share').textContent.startsWith('Boggle #');",
        "the share text",
    )
    .await;
}

/// Injects axe-core (tests/web/node_modules, from `make tools`) and
/// asserts that it finds no serious or critical violation on the screen
/// shown. Without axe-core the check is skipped with a reason, unless
/// `CI=true`, where it fails.
pub(crate) async fn axe_clean(client: &Client, screen: &str) {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/web/node_modules/axe-core/axe.min.js");
    let source = match std::fs::read_to_string(&path) {
        Ok(source) => source,
        Err(e) => {
            return crate::common::cannot_run(&format!(
                "no axe-core at {} for the check of {screen}: {e}: make tools installs it where npm exists (apt-get install npm)",
                path.display()
            ));
        }
    };
    let loaded = js(client, &format!("{source}\n;return typeof window.axe;")).await;
    assert_eq!(loaded, json!("object"), "axe-core loaded");
    let found = client
        .execute_async(
            "const done = arguments[arguments.length - 1]; \
             axe.run(document, { resultTypes: ['violations'] }).then(r => done(r.violations \
               .filter(v => v.impact === 'serious' || v.impact === 'critical') \
               .map(v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).join(', ')))) \
             .catch(e => done(['axe failed: ' + e]));",
            vec![],
        )
        .await
        .expect("axe runs");
    assert_eq!(found, json!([]), "axe-core on the {screen} screen");
}

/// A screen the docs show, checked: its [`doc_screenshot`] `name`, then
/// [`axe_clean`] on it as `screen`.
pub(crate) async fn doc_screen(client: &Client, name: &str, screen: &str) {
    doc_screenshot(client, name).await;
    axe_clean(client, screen).await;
}

/// A screenshot for the docs: saved like [`screenshot`], and also into
/// docs/screenshots/ when `BOGGLE_DOC_SCREENSHOTS=1` (so a test run leaves
/// the work tree alone unless asked).
pub(crate) async fn doc_screenshot(client: &Client, name: &str) {
    screenshot(client, name).await;
    if std::env::var_os("BOGGLE_DOC_SCREENSHOTS").is_some() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/screenshots");
        std::fs::create_dir_all(&dir).expect("docs/screenshots");
        let png = client.screenshot().await.expect("screenshot");
        std::fs::write(dir.join(format!("{name}.png")), png).expect("screenshot saved");
    }
}

/// Saves a PNG of the page in target/web-screenshots/.
pub(crate) async fn screenshot(client: &Client, name: &str) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("target dir")
        .join("web-screenshots");
    std::fs::create_dir_all(&dir).expect("screenshot dir");
    let png = client.screenshot().await.expect("screenshot");
    assert!(png.starts_with(b"\x89PNG"), "a PNG");
    std::fs::write(dir.join(format!("{name}.png")), png).expect("screenshot saved");
}
