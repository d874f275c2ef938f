//! Today's board as the server keeps it for a browser's seat, in headless
//! Chromium: the first opening is the scored attempt; opening it again
//! (home, then the board again, with the page's own record of the day gone)
//! is practice, and the page shows the first result, because the server
//! says so; a second browser playing under the same name is listed apart
//! (`NAME (2)`), and its page says so. Screenshots in
//! `target/web-screenshots/` (`daily-again`, `daily-same-name`).
//!
//! Without a browser the test skips with a reason, unless `CI=true`.

use fantoccini::Client;
use serde_json::json;

use crate::browser::{
    browser, js, no_page_errors, phone_and_desk, screenshot, visible, wait_js, web_server,
};
use crate::common::cannot_run;
use crate::net_store::todays_words;

/// Opens today's board from home as `name`, plays `word` if any, and ends the round.
async fn play_today(client: &Client, web: &str, name: &str, word: Option<&str>) {
    js(
        client,
        "try { sessionStorage.clear(); } catch (e) { /* no page yet */ } return true;",
    )
    .await;
    client.goto(web).await.expect("page loads");
    visible(client, "home").await;
    js(
        client,
        &format!(
            "document.getElementById('home-name').value = {}; \
             document.getElementById('daily-button').click(); return true;",
            json!(name)
        ),
    )
    .await;
    visible(client, "round").await;
    if let Some(word) = word {
        js(
            client,
            &format!(
                "const i = document.getElementById('word'); i.value = {}; \
                 i.form.requestSubmit(); return true;",
                json!(word)
            ),
        )
        .await;
        wait_js(
            client,
            &format!(
                "return !!document.querySelector('#verdicts li[data-word=\"{word}\"][data-accepted=\"true\"]');"
            ),
            "the word accepted",
        )
        .await;
    }
    js(
        client,
        "document.getElementById('done').click(); return true;",
    )
    .await;
    visible(client, "results").await;
    wait_js(
        client,
        "return document.getElementById('share').textContent.startsWith('Boggle #');",
        "the share text",
    )
    .await;
}

async fn text(client: &Client, id: &str) -> String {
    let value = js(
        client,
        &format!("return document.getElementById('{id}').textContent;"),
    )
    .await;
    value.as_str().unwrap_or_default().to_string()
}

/// The leaderboard's rows on the results: (name, points, marked as mine).
async fn rows(client: &Client) -> serde_json::Value {
    wait_js(
        client,
        "return !document.getElementById('leaderboard').hidden;",
        "the leaderboard",
    )
    .await;
    js(
        client,
        "return Array.from(document.querySelectorAll('#leaderboard-rows tr')) \
           .map(tr => [tr.cells[1].textContent, Number(tr.cells[2].textContent), tr.classList.contains('me')]);",
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reopened_daily_is_practice_and_a_second_player_of_a_name_is_listed_apart() {
    let (chromium, driver_path) = match browser() {
        Ok(found) => found,
        Err(why) => return cannot_run(&format!("no browser: {why}")),
    };
    let data = tempfile::tempdir().expect("temp dir");
    let (server, web) = web_server(data.path(), &["--time", "600"]);
    let Some((chromedriver, phone, desk)) = phone_and_desk(&chromium, &driver_path).await else {
        return;
    };
    let words = todays_words();
    let (best, small) = (words[0].as_str(), words[words.len() - 1].as_str());

    // The first opening: scored.
    play_today(&desk, &web, "bob", Some(small)).await;
    let first = text(&desk, "share").await;
    assert!(!first.contains("practice"), "{first}");
    let points = rows(&desk).await[0][1].clone();
    assert_eq!(rows(&desk).await, json!([["bob", points, true]]));

    // The page forgets its record of the day; the server still knows the seat.
    js(
        &desk,
        "for (const k of Object.keys(localStorage)) if (k.startsWith('boggle.daily.')) localStorage.removeItem(k); \
         return true;",
    )
    .await;
    play_today(&desk, &web, "bob", Some(best)).await;
    let again = text(&desk, "share").await;
    assert!(again.contains("practice"), "{again}");
    assert_eq!(
        again.lines().next(),
        first.lines().next(),
        "the share text is the first try's"
    );
    assert!(
        text(&desk, "daily-status")
            .await
            .contains("this try was practice"),
        "the page says so"
    );
    assert_eq!(
        rows(&desk).await,
        json!([["bob", points, true]]),
        "not a second result"
    );
    screenshot(&desk, "daily-again").await;

    // Another browser, another seat, the same name: kept, listed apart.
    play_today(&phone, &web, "Bob", Some(best)).await;
    let status = text(&phone, "daily-status").await;
    assert_eq!(
        status,
        "Another player is listed as Bob today: you are listed as Bob (2). "
    );
    wait_js(
        &phone,
        "return document.querySelectorAll('#leaderboard-rows tr').length === 2;",
        "both listed",
    )
    .await;
    let listed = rows(&phone).await;
    assert_eq!(listed[0][0], json!("Bob (2)"), "{listed}");
    assert_eq!(
        listed[0][2],
        json!(true),
        "marked as the player's: {listed}"
    );
    screenshot(&phone, "daily-same-name").await;
    no_page_errors(&desk, "in daily games").await;
    no_page_errors(&phone, "in daily games").await;
    let _ = phone.close().await;
    let _ = desk.close().await;
    drop(chromedriver);
    drop(server);
}
