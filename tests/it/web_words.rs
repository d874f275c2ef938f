//! Every word of a room's results explained, in a real browser (the server
//! binary with `--web` on loopback and its built-in player list, headless
//! Chromium at 360 and 1280 px, two players in one room): tapping a word
//! found, cancelled or missed lights its path on the results' board with
//! each cell numbered in order and a line through them, and shows what it
//! means, asked of the server one word at a time (`GET /meaning`). On a
//! phone the board and the meaning are brought into sight. axe-core checks
//! the screen with a meaning shown; its screenshots go to docs/screenshots/
//! with `BOGGLE_DOC_SCREENSHOTS=1`. A room of 22 (21 scripted players over
//! the WebSocket and one browser) shows the best 20, then the player's own
//! entry with its place. Without a browser the tests skip with a reason,
//! unless `CI=true`.

use fantoccini::Client;
use serde_json::{Value, json};

use crate::common::browser::{
    Page, click, doc_screen, finish_round, join_form, js, no_page_errors, text, type_word, visible,
    wait_js,
};

/// The room's board: under classic rules BAT is cells 0, 5, 9 and EAT 1, 5, 9.
const BOARD: &str = "BENHLAUMITLZRGAN";

/// Joins room `kitchen` as `name` and says Ready.
async fn join(client: &Client, web: &str, name: &str) {
    client
        .goto(&format!("{web}?room=kitchen"))
        .await
        .expect("page loads");
    join_form(client, &[("name", name)]).await;
    visible(client, "lobby").await;
    click(client, "ready").await;
}

/// Taps the results' word button chosen by `selector`; waits for its
/// meaning. Returns the word, the cells lit with their numbers in order
/// (`[index, step]`), the line's points and the meaning's first line.
async fn explain(client: &Client, selector: &str) -> (String, Value, usize, String) {
    let word = js(
        client,
        &format!(
            "const b = document.querySelector({s}); b.click(); return b.dataset.word;",
            s = json!(selector)
        ),
    )
    .await;
    let word = word.as_str().expect("a word button").to_string();
    wait_js(
        client,
        &format!(
            "const m = document.querySelector('#meaning p'); \
             return !!m && m.textContent.startsWith({}) && !m.classList.contains('note');",
            json!(word)
        ),
        &format!("the meaning of {word}"),
    )
    .await;
    let cells = js(
        client,
        "return Array.from(document.querySelectorAll('#results-board .cell[data-step]')) \
           .map(c => [Number(c.dataset.index), Number(c.dataset.step)]) \
           .sort((a, b) => a[1] - b[1]);",
    )
    .await;
    let points = js(
        client,
        "return document.getElementById('results-line').getAttribute('points');",
    )
    .await;
    let points = points.as_str().unwrap_or_default().split(' ').count();
    let first = js(
        client,
        "return document.querySelector('#meaning p').textContent;",
    )
    .await;
    (
        word,
        cells,
        points,
        first.as_str().unwrap_or_default().to_string(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_word_on_the_results_shows_its_path_in_order_and_its_meaning() {
    let Some(page) = Page::builder()
        .args(&["--board", BOARD, "--min-players", "2", "--time", "600"])
        .start()
        .await
    else {
        return;
    };
    let (phone, desk, web) = (page.phone(), page.desk(), &page.web);
    join(&phone, web, "ann").await;
    join(&desk, web, "bob").await;
    for client in [&phone, &desk] {
        visible(client, "round").await;
    }
    // EAT is found by both (cancelled), BAT by ann alone.
    type_word(&phone, "eat").await;
    type_word(&phone, "bat").await;
    type_word(&desk, "eat").await;
    for client in [&phone, &desk] {
        click(client, "done").await;
    }
    for client in [&phone, &desk] {
        visible(client, "results").await;
    }

    // A word found: its cells numbered in the path's order, a line through
    // them, what it means.
    let (word, cells, points, first) = explain(
        &phone,
        ".player-result[data-name='ann'] button.word[data-word='BAT']",
    )
    .await;
    assert_eq!(word, "BAT");
    assert_eq!(cells, json!([[0, 1], [5, 2], [9, 3]]), "B, A, T in order");
    assert_eq!(points, 3, "a line through the three cells");
    assert_eq!(first, "BAT");
    assert_eq!(
        text(&phone, "results-path").await,
        "BAT on the board: B → A → T"
    );
    // A word cancelled (found by both).
    let (_, cells, _, first) = explain(
        &phone,
        ".player-result[data-name='ann'] li.cancelled button.word",
    )
    .await;
    assert_eq!(cells, json!([[1, 1], [5, 2], [9, 3]]), "E, A, T in order");
    assert_eq!(first, "EAT");
    let senses = js(
        &phone,
        "return Array.from(document.querySelectorAll('#meaning .senses li')).map(li => li.textContent);",
    )
    .await;
    assert!(
        senses.as_array().is_some_and(|s| s
            .iter()
            .any(|s| s.as_str().is_some_and(|s| s.starts_with("verb ")))),
        "{senses}"
    );
    // A word nobody found, from far down the list: on a phone the board
    // and the meaning come into sight.
    js(
        &phone,
        "window.scrollTo(0, document.body.scrollHeight); return true;",
    )
    .await;
    let (word, cells, _, first) = explain(&phone, "#results-missed button.word").await;
    assert_eq!(
        cells.as_array().map(Vec::len),
        Some(word.len() - word.matches("QU").count()),
        "{word}: every cell numbered"
    );
    assert!(first.starts_with(&word), "{word}: {first}");
    let in_sight = js(
        &phone,
        "const r = document.getElementById('results-box').getBoundingClientRect(); \
         return r.top >= 0 && r.bottom <= window.innerHeight;",
    )
    .await;
    assert_eq!(in_sight, json!(true), "the board in sight at 360 px");
    doc_screen(&phone, "word-meaning-360", "results with a meaning").await;
    // One word a request: the page asked for the three words it showed.
    let asked = js(
        &phone,
        "return performance.getEntriesByType('resource').map(e => e.name) \
           .filter(n => n.includes('/meaning?')).map(n => new URL(n).search);",
    )
    .await;
    assert_eq!(
        asked,
        json!([
            "?word=BAT",
            "?word=EAT",
            format!("?word={}", word.to_ascii_uppercase())
        ])
    );

    // The desk: the board and the meaning stay beside the list.
    let (word, _, _, first) = explain(&desk, "#results-missed li:nth-child(3) button.word").await;
    assert!(first.starts_with(&word), "{word}: {first}");
    doc_screen(&desk, "word-meaning-1280", "results with a meaning").await;
    no_page_errors(&phone, "explaining words").await;
    no_page_errors(&desk, "explaining words").await;
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A protocol message as a WebSocket text message.
fn ws_message(msg: &boggle_protocol::ClientMsg) -> tokio_tungstenite::tungstenite::Message {
    let line = boggle_protocol::encode(msg);
    tokio_tungstenite::tungstenite::Message::text(line.trim_end().to_string())
}

/// The next server message on `ws`, `None` once it closes.
async fn heard(ws: &mut Socket) -> Option<boggle_protocol::ServerMsg> {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::Message;
    loop {
        match ws.next().await? {
            Ok(Message::Text(text)) => {
                if let Ok(msg) = serde_json::from_str(&text) {
                    return Some(msg);
                }
            }
            Ok(_) => {}
            Err(_) => return None,
        }
    }
}

/// A player over the web side's WebSocket, as a script would play: seated
/// in room `kitchen` as `name` (welcomed), and Ready.
async fn scripted_player(web: &str, name: String) -> Socket {
    use boggle_protocol::{ClientMsg, ServerMsg, VERSION};
    use futures_util::SinkExt;
    let url = format!("{}ws", web.replacen("http://", "ws://", 1));
    let (mut ws, _) = tokio_tungstenite::connect_async(url.as_str())
        .await
        .expect("the WebSocket opens");
    let hello = ClientMsg::Hello {
        version: VERSION,
        name,
        room: Some("kitchen".into()),
        password: None,
        token: None,
        solo: None,
    };
    ws.send(ws_message(&hello)).await.expect("hello sent");
    while !matches!(heard(&mut ws).await, Some(ServerMsg::Welcome { .. })) {}
    ws.send(ws_message(&ClientMsg::Ready))
        .await
        .expect("ready sent");
    ws
}

/// Says done as soon as the round is on; returns once the results come.
async fn done_at_once(mut ws: Socket) {
    use boggle_protocol::{ClientMsg, ServerMsg};
    use futures_util::SinkExt;
    loop {
        match heard(&mut ws).await.expect("the socket stays open") {
            ServerMsg::RoundStart { .. } => {
                ws.send(ws_message(&ClientMsg::Done))
                    .await
                    .expect("done sent");
            }
            ServerMsg::Results { .. } => return,
            _ => {}
        }
    }
}

/// A room of 22 who all score nothing, so they are placed in the order they
/// joined: the player who joined last, in the browser, sees the best 20,
/// then their own entry with its place, then how many were not listed.
#[tokio::test(flavor = "multi_thread")]
async fn a_big_rooms_results_show_the_best_then_the_players_own_place() {
    let Some(page) = Page::builder()
        .widths(&[1280])
        .args(&["--board", BOARD, "--min-players", "22", "--time", "600"])
        .args(&["--address-rate", "100"])
        .start()
        .await
    else {
        return;
    };
    let (desk, web) = (page.desk(), &page.web);
    let mut players = Vec::new();
    for i in 0..21 {
        let ws = scripted_player(web, format!("p{i:02}")).await;
        players.push(tokio::spawn(done_at_once(ws)));
    }
    join(&desk, web, "zed").await;
    visible(&desk, "round").await;
    finish_round(&desk).await;
    for player in players {
        player.await.expect("a scripted player heard the results");
    }
    let cards = js(
        &desk,
        "return Array.from(document.querySelectorAll('#results-players .player-result')) \
           .map(c => [c.dataset.name, (c.querySelector('.place') || {}).textContent || '']);",
    )
    .await;
    let mut expected: Vec<Value> = (0..20).map(|i| json!([format!("p{i:02}"), ""])).collect();
    expected.push(json!(["zed", "place 22 of 22"]));
    assert_eq!(cards, Value::Array(expected));
    let note = js(
        &desk,
        "return document.querySelector('#results-players > p.note').textContent;",
    )
    .await;
    assert_eq!(note, json!("and 1 more player"));
    no_page_errors(&desk, "on a big room's results").await;
}
