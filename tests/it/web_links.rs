//! A shared board link in a real browser (the server binary with `--web`
//! on loopback, headless Chromium): the home screen says how long this
//! server's rounds are; a `?board=` link waits for a name and a press on
//! Play, says under which rules the board is played when the link asks
//! for others, and starts under the name given; a red status about a tap
//! goes once a word is played; a solo game's results are headed as the
//! player's own, say so of a tapped word WordNet does not have, replay the
//! board under the same name, and copy a link that names the rules. Screenshots in `target/web-screenshots/` (the
//! link's card in docs/screenshots/ with `BOGGLE_DOC_SCREENSHOTS=1`).
//! Without a browser the test skips with a reason, unless `CI=true`.

use fantoccini::{Client, Locator};
use serde_json::json;

use crate::browser::{
    axe_clean, browser, doc_screenshot, js, no_page_errors, phone_and_desk, visible, wait_js,
    web_server, words_file,
};
use crate::common::cannot_run;

/// The board of the links, and the whole dictionary: BAT and EAT lie on
/// it, and NHM, a word WordNet does not have.
const BOARD: &str = "BENHLAUMITLZRGAN";
const WORDS: &str = "eat\nbat\nben\nnag\nnhm\n";

/// The text of the element `id`.
async fn text(client: &Client, id: &str) -> String {
    let value = js(
        client,
        &format!("return document.getElementById({}).textContent;", json!(id)),
    )
    .await;
    value.as_str().unwrap_or_default().to_string()
}

/// Makes the clipboard keep what the page copies in `window.copied`
/// (headless Chromium has no clipboard to read back).
async fn catch_copies(client: &Client) {
    js(
        client,
        "navigator.clipboard.writeText = async (t) => { window.copied = t; }; return true;",
    )
    .await;
}

/// Clicks the cell `i` of the round's board (a tap).
async fn tap(client: &Client, i: usize) {
    let cells = client
        .find_all(Locator::Css("#board .cell"))
        .await
        .expect("cells");
    cells[i].clone().click().await.expect("tapped");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shared_board_waits_for_a_name_and_says_the_servers_rules_and_round() {
    let (chromium, driver) = match browser() {
        Ok(found) => found,
        Err(why) => return cannot_run(&format!("no browser: {why}")),
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let dict = words_file(dir.path(), WORDS);
    let (_server, web) = web_server(dir.path(), &["--time", "60", "--dict", &dict]);
    let Some((_driver, phone, desk)) = phone_and_desk(&chromium, &driver).await else {
        return;
    };

    // The home screen promises this server's round, not the default 3 minutes.
    desk.goto(&web).await.expect("page loads");
    visible(&desk, "home").await;
    assert_eq!(
        text(&desk, "solo-note").await,
        "A 1-minute round on a new board, started at once."
    );

    // A link to a board asking for other rules: nothing starts, the name
    // field waits, and the card says what will be played.
    for client in [&phone, &desk] {
        client
            .goto(&format!("{web}?board={BOARD}&rules=cs106b"))
            .await
            .expect("page loads");
        visible(client, "link-card").await;
    }
    assert_eq!(
        js(
            &phone,
            "return [document.getElementById('round').hidden, document.getElementById('clock').hidden, \
               document.activeElement.id];"
        )
        .await,
        json!([true, true, "home-name"]),
        "no round, no clock: the name first"
    );
    assert_eq!(
        text(&phone, "link-note").await,
        "The link asks for cs106b rules; this server plays classic. Classic rules, a 1-minute \
         round: the clock starts when you press Play."
    );
    doc_screenshot(&phone, "board-link-360").await;
    doc_screenshot(&desk, "board-link-1280").await;
    axe_clean(&phone, "a board link's card").await;
    let name = phone
        .find(Locator::Id("home-name"))
        .await
        .expect("the name field");
    name.send_keys("zoe\u{E007}").await.expect("typed");
    visible(&phone, "round").await;
    wait_js(
        &phone,
        "return document.getElementById('who').textContent.startsWith('zoe · solo');",
        "playing as zoe",
    )
    .await;

    // A tap off the path is told in red; a word played after it clears it.
    tap(&phone, 0).await;
    tap(&phone, 15).await;
    wait_js(
        &phone,
        "const s = document.getElementById('status'); \
         return s.textContent === 'tap a letter next to the last one' && s.classList.contains('error');",
        "the tap refused in red",
    )
    .await;
    phone
        .find(Locator::Id("word"))
        .await
        .expect("the word field")
        .send_keys("eat\u{E007}")
        .await
        .expect("typed");
    wait_js(
        &phone,
        "return !!document.querySelector('#verdicts li[data-word=\"EAT\"][data-accepted=\"true\"]');",
        "EAT accepted",
    )
    .await;
    let status = js(
        &phone,
        "const s = document.getElementById('status'); return [s.textContent, s.classList.contains('error')];",
    )
    .await;
    assert_eq!(
        status,
        json!(["", false]),
        "the complaint went with the word"
    );

    // The results of a solo game: the player's own missed words, the board again as zoe.
    js(
        &phone,
        "document.getElementById('done').click(); return true;",
    )
    .await;
    visible(&phone, "results").await;
    assert_eq!(text(&phone, "missed-title").await, "Words you missed");
    wait_js(
        &phone,
        "return !document.getElementById('again').hidden && document.activeElement.id === 'ready';",
        "the grace over",
    )
    .await;
    // A word without an entry says so when tapped.
    js(
        &phone,
        "document.querySelector('#results-missed button.word[data-word=\"NHM\" i]').click(); return true;",
    )
    .await;
    wait_js(
        &phone,
        "return document.getElementById('meaning').textContent === 'NHM: no entry in WordNet.';",
        "a word without an entry says so",
    )
    .await;
    catch_copies(&phone).await;
    js(
        &phone,
        "document.getElementById('link-copy').click(); return true;",
    )
    .await;
    wait_js(
        &phone,
        &format!(
            "return window.copied === location.origin + '/?board={BOARD}&size=4x4&rules=classic';"
        ),
        "the copied link names the rules",
    )
    .await;
    js(
        &phone,
        "document.getElementById('again').click(); return true;",
    )
    .await;
    wait_js(
        &phone,
        "return !document.getElementById('round').hidden && \
           document.getElementById('who').textContent.startsWith('zoe · solo');",
        "the same board again, still as zoe",
    )
    .await;
    no_page_errors(&phone, "after a board link").await;
    no_page_errors(&desk, "after a board link").await;
}
