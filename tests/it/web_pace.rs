//! The leaderboard ranks people: the fastest honest play the page takes,
//! by keyboard and by tap, in real Chromium against `boggle serve --web`,
//! is a person's try, kept and listed. The pace each delivered is printed
//! (`--nocapture`), the figures behind the bound in
//! crates/boggle-net/src/room/pace.rs.

use fantoccini::Client;
use serde_json::{Value, json};

use crate::common::browser::{click, wait_js};
use crate::net_store::todays_words;
use crate::web_daily::{KEPT, play_today_with, players, rows, saved};

/// The fastest honest play the page takes, by keyboard and by tap, is a
/// person's try: kept and listed, not practice. By keyboard: the fastest
/// typist on record holds about 20 keys a second in a burst, and a
/// three-letter word and Enter is 4 keys, so 5 words a second, the pace
/// bound's rate (crates/boggle-net/src/room/pace.rs); today's 30 shortest
/// words are typed key by key at that pace. By tap: a finger crossing a
/// cell in 100 ms and lifting for 100 ms between words. Run with
/// `--nocapture` to see the pace each delivered to the page's verdicts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[expect(
    clippy::disallowed_methods,
    reason = "prints the pace the page delivered; asserts nothing on time"
)]
async fn the_fastest_honest_play_by_keyboard_and_by_tap_is_a_persons_try() {
    use fantoccini::actions::{InputSource, KeyAction, KeyActions, PointerAction, TouchActions};
    let Some(page) = players().await else {
        return;
    };
    let (phone, desk, web) = (page.phone(), page.desk(), &page.web);
    let mut words = todays_words();
    words.sort_by_key(String::len);
    words.truncate(30);
    let step = std::time::Duration::from_millis(50);
    let mut keys = KeyActions::new("keyboard".into());
    for word in &words {
        for c in word.to_ascii_lowercase().chars().chain(['\u{E007}']) {
            keys = keys
                .then(KeyAction::Down { value: c })
                .then(KeyAction::Up { value: c })
                .then(KeyAction::Pause { duration: step });
        }
    }
    let keyed = words.len();
    play_today_with(&desk, web, "keys", |desk| async move {
        click(&desk, "word").await;
        let started = std::time::Instant::now();
        desk.perform_actions(keys).await.expect("typed");
        pace("keyboard (20 keys a second)", &desk, keyed, started).await;
    })
    .await;

    let today = boggle_game::daily::Daily::today().expect("today's board");
    let paths: Vec<Vec<usize>> = words
        .iter()
        .filter_map(|w| boggle_engine::path::find_path(&today.board, today.rules.moves, w))
        .collect();
    let tapped = paths.len();
    play_today_with(&phone, web, "taps", |phone| async move {
        let cells = phone
            .find_all(fantoccini::Locator::Css("#board .cell"))
            .await
            .expect("cells");
        let cell = std::time::Duration::from_millis(100);
        let mut touch = TouchActions::new("finger".into());
        for path in &paths {
            for (k, &i) in path.iter().enumerate() {
                touch = touch.then(PointerAction::MoveToElement {
                    element: cells[i].clone(),
                    duration: Some(if k == 0 {
                        std::time::Duration::ZERO
                    } else {
                        cell
                    }),
                    x: 0.0,
                    y: 0.0,
                });
                if k == 0 {
                    touch = touch.then(PointerAction::Down { button: 0 });
                }
            }
            touch = touch
                .then(PointerAction::Up { button: 0 })
                .then(PointerAction::Pause { duration: cell });
        }
        let started = std::time::Instant::now();
        phone.perform_actions(touch).await.expect("traced");
        pace("tap (100 ms a cell)", &phone, tapped, started).await;
    })
    .await;

    for (client, name) in [(&desk, "keys"), (&phone, "taps")] {
        saved(client, KEPT).await;
        let listed = rows(client).await;
        let names: Vec<&Value> = listed
            .as_array()
            .into_iter()
            .flatten()
            .map(|r| &r[0])
            .collect();
        assert!(names.contains(&&json!(name)), "{name}: {listed}");
    }
    page.end("after the fastest honest tries").await;
}

/// Waits for the verdicts on `words` words, and prints the pace since `started`.
async fn pace(how: &str, client: &Client, words: usize, started: std::time::Instant) {
    wait_js(
        client,
        &format!("return document.querySelectorAll('#verdicts li').length >= {words};"),
        "every word's verdict",
    )
    .await;
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "{how}: {words} words in {seconds:.1} s, {:.2} words a second",
        words as f64 / seconds
    );
}
