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
//! A second test plays alone: the home screen, a board link played at
//! once, a word built by taps, a reload keeping the words, an Enter as the
//! round ends that does not press Ready, a missed word's path on the
//! results' board, the page's bounded trace on a 5x5 board of one letter,
//! solo against the computer, and today's board, equal in two browsers and
//! to `boggle daily`, with its share text. axe-core checks each screen for
//! serious or critical problems; with `BOGGLE_DOC_SCREENSHOTS=1` the
//! screenshots the docs show are written to docs/screenshots/.
//!
//! Every wait is bounded (an element or a state polled for at most
//! [`GUARD`]); every process started here is killed on drop, also when an
//! assertion fails. Without a browser the test skips with a reason, unless
//! `CI=true`, where it fails instead.

use std::io::Write;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::common::browser::{
    GUARD, Killed, Page, accepted, axe_clean, click, dialog_open, doc_screen, doc_screenshot,
    faces, finish_daily, finish_round, js, line_after, lines_of, play_link, press, screenshot, tap,
    text, type_word, visible, wait_js, web_server,
};

use fantoccini::actions::{InputSource, PointerAction, TouchActions};
use fantoccini::{Client, Locator};
use serde_json::json;

use crate::common::{boggle, daily_board, longest_word, wait_until};

/// The board every round is played on (`--board`).
const BOARD: &str = "BENHLAUMITLZRGAN";
/// The whole dictionary (`--dict`). Under `project4`'s rule (never up a
/// row) EAT, BAT, BEN and NAG lie on the board; LAB (its B is up from its A)
/// and TEA do not.
const WORDS: &str = "eat\nbat\nben\nlab\nnag\ntea\n";
/// A name a careless page would turn into markup.
const MARKUP_NAME: &str = "<b>x</b>";

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
    let Some(page) = Page::builder()
        .rules("project4")
        .words(WORDS)
        .args(&["--board", BOARD, "--time", "600", "--min-players", "2"])
        // The relay below (a dropped connection) is another port of
        // 127.0.0.1, which the page's requests then name as their Host.
        .args(&["--web-host", "127.0.0.1"])
        .start()
        .await
    else {
        return;
    };
    let (phone, desk, web, tcp) = (page.phone(), page.desk(), &page.web, &page.tcp);
    assert!(
        web.starts_with("http://127.0.0.1:") && web.ends_with('/'),
        "{web}"
    );

    let web_addr: std::net::SocketAddr = web
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .parse()
        .expect("the web address");
    let proxy = Proxy::start(web_addr).await;
    join(&phone, &format!("http://{}/", proxy.addr), "ann").await;
    join(&desk, web, MARKUP_NAME).await;
    // The terminal player: always ready, its words queued for the round,
    // done when its input ends.
    let mut carl = Killed(
        boggle(["join", tcp, "--name", "carl", "--room", "kitchen"])
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
    doc_screenshot(&phone, "friends-lobby-360").await;
    doc_screen(&desk, "friends-lobby-1280", "lobby").await;

    // The phone with the keyboard alone: after joining, the focus is on Ready.
    let focused = phone.active_element().await.expect("focus");
    assert_eq!(
        focused.attr("id").await.expect("id").as_deref(),
        Some("ready")
    );
    focused.send_keys("\u{E007}").await.expect("Enter");
    press(&desk, "ready").await;
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
    assert_eq!(board_after_round_start(&carl_lines), BOARD);

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
    accepted(&phone, "BAT", "BAT traced and accepted").await;
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
    axe_clean(&phone, "round").await;

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
        press(client, "done").await;
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
    doc_screenshot(&phone, "room-results-360").await;
    doc_screen(&desk, "room-results-1280", "results").await;

    // The terminal player saw the same round end.
    line_after(&carl_lines, "results of round 1");
    wait_until(
        || carl.try_wait().expect("carl can be waited for"),
        || "carl's join did not end with the round".to_string(),
    );
    page.end("in the room's round").await;
    drop(carl);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn solo_daily_and_board_links_play_at_once() {
    // The built-in player list, so the boards have their real words.
    let Some(mut page) = Page::builder().args(&["--time", "600"]).start().await else {
        return;
    };
    let (phone, desk, web) = (page.phone(), page.desk(), page.web.clone());

    // The home screen first, with its three ways in.
    for (client, width) in [(&phone, 360), (&desk, 1280)] {
        client.goto(&web).await.expect("page loads");
        visible(client, "home").await;
        wait_js(
            client,
            "return document.getElementById('daily-title').textContent.startsWith(\"Today's board #\");",
            "the day's number on the home screen",
        )
        .await;
        doc_screenshot(client, &format!("home-{width}")).await;
    }
    axe_clean(&phone, "home").await;
    // The help card, one tap away.
    press(&phone, "help-button").await;
    dialog_open(&phone, "help", "help open").await;
    axe_clean(&phone, "help").await;
    click(&phone, "help-close").await;

    // A board link plays that board solo, at once; a word built by taps.
    play_link(&phone, &format!("{web}?board={BOARD}")).await;
    visible(&phone, "round").await;
    assert_eq!(faces(&phone).await, BOARD);
    for i in [0, 5, 9] {
        tap(&phone, i).await;
    }
    assert_eq!(
        text(&phone, "trace").await,
        "BAT",
        "the tapped letters, not yet sent"
    );
    assert_eq!(
        js(
            &phone,
            "return document.getElementById('line-path').getAttribute('points').split(' ').length;"
        )
        .await,
        json!(3),
        "a line through the three cells"
    );
    tap(&phone, 9).await; // the last again: sent
    wait_js(
        &phone,
        "return !!document.querySelector('#verdicts li[data-word=\"BAT\"][data-accepted=\"true\"]') && \
         document.querySelectorAll('#verdicts li').length === 1;",
        "BAT tapped and accepted, nothing else sent",
    )
    .await;
    doc_screenshot(&phone, "solo-round-360").await;
    // A reload mid-round takes the seat back with its words.
    phone.refresh().await.expect("reloads");
    visible(&phone, "round").await;
    accepted(&phone, "BAT", "BAT kept after the reload").await;
    // An Enter meant for the round, pressed as it ends, does not press Ready.
    finish_round(&phone).await;
    let focused = phone.active_element().await.expect("focus");
    assert_ne!(
        focused.attr("id").await.expect("id").as_deref(),
        Some("ready")
    );
    focused.send_keys("\u{E007}").await.expect("Enter");
    wait_js(
        &phone,
        "return document.activeElement.id === 'ready' && !document.getElementById('ready').disabled;",
        "Ready focused after the grace",
    )
    .await;
    assert_eq!(
        js(
            &phone,
            "return [document.body.dataset.rounds, document.getElementById('results').hidden];"
        )
        .await,
        json!(["1", false]),
        "the Enter did not start another round"
    );
    // A missed word's path, shown on the results' board.
    let missed = js(
        &phone,
        "return Array.from(document.querySelectorAll('#results-missed button.word')).map(b => b.dataset.word);",
    )
    .await;
    // The first listed: a common word, so a player learns from it.
    let word = missed[0].as_str().expect("a missed word").to_string();
    js(
        &phone,
        "document.querySelector('#results-missed button.word').click(); return true;",
    )
    .await;
    let lit = js(
        &phone,
        "return Array.from(document.querySelectorAll('#results-board .cell')) \
           .filter(c => c.classList.contains('lit') || c.classList.contains('head')) \
           .map(c => c.dataset.face).sort().join('');",
    )
    .await;
    let mut letters: Vec<char> = word.chars().collect();
    letters.sort_unstable();
    let letters: String = letters.into_iter().collect();
    assert_eq!(lit, json!(letters), "{word}'s cells lit");
    let tally = text(&phone, "tally").await;
    assert!(tally.starts_with("You: 1 of "), "{tally}");
    axe_clean(&phone, "solo results").await;

    // The trace is bounded: a 5x5 board of one letter answers at once.
    for board in ["AAAAAAAAAAAAAAAAAAAAAAAAA", "AAAAAAAAAAAABAAAAAAAAAAAA"] {
        play_link(&phone, &format!("{web}?board={board}&size=5x5")).await;
        visible(&phone, "round").await;
        let took = js(
            &phone,
            "const input = document.getElementById('word'); const t = performance.now(); \
             input.value = 'A'.repeat(24) + 'B'; input.dispatchEvent(new Event('input')); \
             input.value = 'B' + 'A'.repeat(24); input.dispatchEvent(new Event('input')); \
             return performance.now() - t;",
        )
        .await;
        // A bound for a hang, not a timing claim: unbounded, this takes hours.
        let ms = took.as_f64().expect("milliseconds");
        eprintln!("trace of 25 letters on the 5x5 board {board}: {ms:.1} ms");
        assert!(ms < 5000.0, "{ms} ms");
        let (_, _) = (js(&phone, "sessionStorage.clear(); return true;").await, ());
    }

    // Solo against the computer: its words beside the player's.
    phone.goto(&web).await.expect("page loads");
    visible(&phone, "home").await;
    js(
        &phone,
        "document.getElementById('versus').value = 'perfect'; document.getElementById('solo-button').click(); return true;",
    )
    .await;
    visible(&phone, "round").await;
    finish_round(&phone).await;
    wait_js(
        &phone,
        "return !!document.querySelector('#results-players .player-result[data-name=\"Computer\"]');",
        "the computer's card",
    )
    .await;
    // The player's own words first, above the computer's long list.
    assert_eq!(
        js(
            &phone,
            "return Array.from(document.querySelectorAll('#results-players .player-result'), c => c.dataset.name);"
        )
        .await,
        json!(["Player", "Computer"])
    );

    // Today's board: the same in two browsers and as `boggle daily` prints it.
    for client in [&phone, &desk] {
        js(client, "sessionStorage.clear(); return true;").await;
        client.goto(&web).await.expect("page loads");
        visible(client, "home").await;
        press(client, "daily-button").await;
        visible(client, "round").await;
    }
    let today = daily_board(None).1;
    assert_eq!(faces(&phone).await, today);
    assert_eq!(faces(&desk).await, today);
    assert_ne!(
        daily_board(Some("2026-01-01")).1,
        daily_board(Some("2026-01-02")).1
    );
    // The longest word of the day's board, found in both browsers.
    let word = longest_word(&today);
    for client in [&phone, &desk] {
        type_word(client, &word).await;
    }
    doc_screenshot(&desk, "solo-round-1280").await;
    for (client, width) in [(&phone, 360), (&desk, 1280)] {
        finish_daily(client).await;
        doc_screenshot(client, &format!("daily-results-{width}")).await;
    }
    // On a phone the next action is in sight without scrolling.
    let in_sight = js(
        &phone,
        "const r = document.getElementById('ready').getBoundingClientRect(); \
         return r.bottom <= window.innerHeight && r.top >= 0;",
    )
    .await;
    assert_eq!(in_sight, json!(true), "Play again in sight at 360 px");
    axe_clean(&desk, "daily results").await;
    // The day's leaderboard on the results, and still there when the
    // server is killed and started again on the same --data.
    wait_js(
        &desk,
        "return document.querySelectorAll('#leaderboard-rows tr').length >= 1 && \
           !document.getElementById('leaderboard').hidden;",
        "the day's leaderboard on the results",
    )
    .await;
    let listed = js(
        &desk,
        "return Array.from(document.querySelectorAll('#leaderboard-rows tr')) \
           .map(tr => tr.cells[1].textContent).sort();",
    )
    .await;
    page.restart();
    let web = &page.web;
    desk.goto(&format!("{web}daily/leaderboard"))
        .await
        .expect("leaderboard loads");
    let body = js(&desk, "return document.body.textContent;").await;
    let kept: serde_json::Value =
        serde_json::from_str(body.as_str().expect("text")).expect("the leaderboard's JSON");
    let mut names: Vec<_> = kept["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter_map(|r| r["name"].as_str())
        .collect();
    // Sorted as the page's JavaScript sorts them: by the text itself, not
    // its JSON form (whose closing quote would sort "A" after "A (2)").
    names.sort_unstable();
    assert_eq!(json!(names), listed, "the leaderboard after a restart");

    // A server with a password: the home screen asks for it, solo plays,
    // and a reload rejoins (the password goes with the seat). A folder of
    // its own: one server a `--data` (the first still serves this one).
    let locked_data = tempfile::tempdir().expect("temp dir");
    let (locked, locked_web) = web_server(locked_data.path(), &["--password", "sesame"]);
    js(&desk, "sessionStorage.clear(); return true;").await;
    desk.goto(&locked_web).await.expect("page loads");
    visible(&desk, "home-password-row").await;
    js(
        &desk,
        "document.getElementById('home-password').value = 'sesame'; \
         document.getElementById('solo-button').click(); return true;",
    )
    .await;
    visible(&desk, "round").await;
    desk.refresh().await.expect("reloads");
    wait_js(
        &desk,
        "return !document.getElementById('round').hidden && document.body.dataset.rejoins === '1';",
        "the solo seat rejoined on a server with a password",
    )
    .await;
    page.end("in solo games").await;
    drop(locked);
}

/// The 4x4 board the line mode prints after `round N: ...`, one row a line,
/// as one string of its letters.
fn board_after_round_start(lines: &std::sync::mpsc::Receiver<String>) -> String {
    line_after(lines, "round ");
    (0..4)
        .map(|_| {
            lines
                .recv_timeout(GUARD)
                .unwrap_or_else(|_| panic!("no board row within {GUARD:?}"))
        })
        .map(|row| row.split_whitespace().collect::<String>())
        .collect()
}
