//! Leaving a friends' room from the page, in a real browser (the server
//! binary with `--web` on loopback, headless Chromium): "Boggle" in the
//! header during a round asks first (Stay keeps the round, Leave goes
//! home); joining that room again under that name from the tab takes the
//! seat back with its words, though the server still holds it; and a
//! room's results keep the player in the room (Ready, never a solo game on
//! its board). The dialog's screenshot goes to docs/screenshots/ with
//! `BOGGLE_DOC_SCREENSHOTS=1`. Without a browser the test skips with a
//! reason, unless `CI=true`.

use fantoccini::Client;
use serde_json::json;

use crate::common::browser::{
    Page, accepted, axe_clean, click, dialog_open, doc_screen, finish_round, join_form, js,
    no_page_errors, press, text, type_word, visible, wait_js,
};

const BOARD: &str = "BENHLAUMITLZRGAN";
const WORDS: &str = "eat\nbat\nben\nnag\n";

/// Joins room `kitchen` as `name` through its form, as a player would.
async fn join_kitchen(client: &Client, name: &str) {
    join_form(client, &[("name", name), ("room", "kitchen")]).await;
}

/// Clicks "Boggle" in the header.
async fn home_link(client: &Client) {
    press(client, "home-link").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leaving_a_live_round_asks_first_and_joining_again_takes_the_seat_back() {
    let Some(page) = Page::builder()
        .words(WORDS)
        .args(&["--board", BOARD, "--min-players", "1", "--time", "600"])
        .start()
        .await
    else {
        return;
    };
    let (phone, desk, web) = (page.phone(), page.desk(), &page.web);

    phone
        .goto(&format!("{web}?room=kitchen"))
        .await
        .expect("page loads");
    join_kitchen(&phone, "ann").await;
    visible(&phone, "lobby").await;
    click(&phone, "ready").await;
    visible(&phone, "round").await;
    type_word(&phone, "bat").await;
    accepted(&phone, "BAT", "BAT accepted").await;

    // One tap on the header's "Boggle" asks first; Stay keeps the round.
    home_link(&phone).await;
    wait_js(
        &phone,
        "return document.getElementById('leave').open && document.activeElement.id === 'leave-stay';",
        "the question, Stay focused",
    )
    .await;
    assert_eq!(
        js(
            &phone,
            "return [document.getElementById('leave-title').textContent, \
               document.getElementById('leave-note').textContent];"
        )
        .await,
        json!([
            "Leave the round?",
            "Your seat is kept a while: join room kitchen as ann again from this tab to take it back."
        ])
    );
    doc_screen(&phone, "leave-360", "the question before leaving").await;
    click(&phone, "leave-stay").await;
    assert_eq!(
        js(
            &phone,
            "return [document.getElementById('leave').open, document.getElementById('round').hidden];"
        )
        .await,
        json!([false, false]),
        "still in the round"
    );
    // Typing goes on where it was: the word field has the focus, not "Boggle".
    wait_js(
        &phone,
        "return document.activeElement.id === 'word';",
        "the word field focused after Stay",
    )
    .await;
    // Esc too.
    home_link(&phone).await;
    dialog_open(&phone, "leave", "asked").await;
    phone
        .active_element()
        .await
        .expect("focused")
        .send_keys("\u{E00C}")
        .await
        .expect("Esc");
    wait_js(
        &phone,
        "return !document.getElementById('leave').open && document.activeElement.id === 'word';",
        "the word field focused after Esc",
    )
    .await;
    // The only letter lit, tapped again, is let go: no one-letter word
    // (the server answers in order: B's verdict would come before EAT's).
    js(
        &phone,
        "const c = (i) => document.querySelector('#board .cell[data-index=\"' + i + '\"]'); \
         c(0).click(); c(15).click(); c(0).click(); return true;",
    )
    .await;
    assert_eq!(text(&phone, "trace").await, "");
    type_word(&phone, "eat").await;
    assert_eq!(
        js(
            &phone,
            "return Array.from(document.querySelectorAll('#verdicts li'), li => li.dataset.word);"
        )
        .await,
        json!(["EAT", "BAT"])
    );
    // Leave: home, and the seat is left to the server.
    home_link(&phone).await;
    dialog_open(&phone, "leave", "asked again").await;
    click(&phone, "leave-go").await;
    visible(&phone, "home").await;
    // Joining again under that name takes the seat back, with its word.
    click(&phone, "friends-button").await;
    visible(&phone, "join").await;
    // A room of its own to send, not one strangers share.
    let room = js(&phone, "return document.getElementById('room').value;").await;
    let room = room.as_str().unwrap_or_default();
    assert!(
        !room.is_empty() && room != "main" && room.chars().all(|c| c.is_ascii_alphanumeric()),
        "{room}"
    );
    axe_clean(&phone, "a room's join form").await;
    join_kitchen(&phone, "ann").await;
    visible(&phone, "round").await;
    accepted(&phone, "BAT", "BAT kept: the seat taken back").await;

    // A room's results: Ready for the room's next round, no solo game on its board.
    finish_round(&phone).await;
    assert_eq!(
        js(
            &phone,
            "return [document.getElementById('again').hidden, document.getElementById('ready').hidden, \
               document.getElementById('link-copy').hidden, \
               document.getElementById('missed-title').textContent];"
        )
        .await,
        json!([true, false, false, "Words nobody found"])
    );
    // Between rounds, leaving the room is asked too.
    home_link(&phone).await;
    wait_js(
        &phone,
        "return document.getElementById('leave').open && \
           document.getElementById('leave-title').textContent === 'Leave room kitchen?';",
        "asked before leaving the room",
    )
    .await;
    click(&phone, "leave-go").await;
    visible(&phone, "home").await;
    // With nothing on, home is one tap away, unasked.
    desk.goto(web).await.expect("page loads");
    visible(&desk, "home").await;
    home_link(&desk).await;
    visible(&desk, "home").await;
    assert_eq!(
        js(&desk, "return document.getElementById('leave').open;").await,
        json!(false)
    );
    no_page_errors(&phone, "leaving a room").await;
    no_page_errors(&desk, "at home").await;
}
