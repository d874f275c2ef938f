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

use fantoccini::Locator;
use serde_json::json;

use crate::common::browser::{
    Page, accepted, axe_clean, catch_copies, click, doc_screenshot, finish_round, js,
    no_page_errors, tap, text, visible, wait_js,
};

/// The board of the links, and the whole dictionary: BAT and EAT lie on
/// it, and NHM, a word WordNet does not have.
const BOARD: &str = "BENHLAUMITLZRGAN";
const WORDS: &str = "eat\nbat\nben\nnag\nnhm\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shared_board_waits_for_a_name_and_says_the_servers_rules_and_round() {
    let Some(page) = Page::builder()
        .words(WORDS)
        .args(&["--time", "60"])
        .start()
        .await
    else {
        return;
    };
    let (phone, desk, web) = (page.phone(), page.desk(), &page.web);

    // The home screen promises this server's round, not the default 3 minutes.
    desk.goto(web).await.expect("page loads");
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
    accepted(&phone, "EAT", "EAT accepted").await;
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
    finish_round(&phone).await;
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
    click(&phone, "link-copy").await;
    wait_js(
        &phone,
        &format!(
            "return window.copied === location.origin + '/?board={BOARD}&size=4x4&rules=classic';"
        ),
        "the copied link names the rules",
    )
    .await;
    click(&phone, "again").await;
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
