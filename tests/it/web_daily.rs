//! Today's board as the page keeps it, in a real browser (the server binary
//! with `--web` on loopback, headless Chromium at 360 and 1280 px): the
//! first open of the day is the day's try (left mid-round, it keeps what
//! was found, and a second try is practice); the header names the day's
//! number; the results show the share text of the first try, ending with
//! the link to the day's board on this server, and the statistics kept in
//! `localStorage` (games, the current and best streak, points per game,
//! the days kept before the statistics taken in); a link carries the
//! statistics to another browser, which adds them when asked; the share
//! link opens today's board. The server keeps the day's attempt against the
//! player's seat too: reopened with the page's own record gone, the day is
//! practice and the page shows the first result because the server says so;
//! a second browser playing under the same name is listed apart (`NAME
//! (2)`), and its page says so. Screenshots go to docs/screenshots/ with
//! `BOGGLE_DOC_SCREENSHOTS=1` (and to `target/web-screenshots/`). Without a
//! browser the test skips with a reason, unless `CI=true`.

use fantoccini::Client;
use serde_json::{Value, json};

use crate::common::browser::{
    Page, accepted, axe_clean, click, dialog_open, doc_screen, doc_screenshot, faces, finish_daily,
    finish_round, js, screenshot, submit, text, type_word, visible, wait_js,
};
use crate::common::net::GUARD;
use crate::common::{self, longest_word};
use crate::net_store::{hold_lock, todays_words};

/// The statistics shown after the day's board: played, streak, best, and
/// the chart's rows (range, count, whether today's).
async fn stats(client: &Client) -> Value {
    js(
        client,
        "return [['stat-played', 'stat-streak', 'stat-best'].map(id => Number(document.getElementById(id).textContent)), \
           Array.from(document.querySelectorAll('#stat-chart li')).map(li => \
             [li.querySelector('.range').textContent, Number(li.querySelector('.count').textContent), \
              li.classList.contains('today')])];",
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn todays_board_is_one_try_with_its_number_statistics_and_a_share_link() {
    let Some(page) = Page::builder().start().await else {
        return;
    };
    let (phone, desk, web) = (page.phone(), page.desk(), &page.web);
    let (number, board) = common::daily_board(None);
    let word = longest_word(&board);

    // Two days before today kept by this page, a third by the page before
    // the statistics (a key of its own, by date).
    phone.goto(web).await.expect("page loads");
    js(
        &phone,
        &format!(
            "localStorage.clear(); \
             localStorage.setItem('boggle.days', JSON.stringify({{ \
               {two}: {{ points: 12, words: 6, longest: 5 }}, \
               {one}: {{ points: 25, words: 11, longest: 7 }} }})); \
             const date = new Date(Date.UTC(2026, 0, 1) + ({three} - 1) * 864e5).toISOString().slice(0, 10); \
             localStorage.setItem('boggle.daily.' + date, JSON.stringify({{ points: 3, words: 2, longest: 4 }})); \
             return true;",
            two = number - 2,
            one = number - 1,
            three = number - 3,
        ),
    )
    .await;
    phone.goto(web).await.expect("page loads");
    wait_js(
        &phone,
        "return document.getElementById('daily-stats').textContent === \
           'You: 3 games, a streak of 3 (best 3).';",
        "the statistics on the home screen",
    )
    .await;
    assert_eq!(
        js(&phone, "return Object.keys(localStorage).sort();").await,
        json!(["boggle.days"]),
        "the day kept by date taken into the statistics"
    );

    // The first open of today's board is the day's try; its header names the day.
    click(&phone, "daily-button").await;
    visible(&phone, "round").await;
    wait_js(
        &phone,
        &format!(
            "return document.getElementById('who').textContent === 'Player · board #{number} · classic';"
        ),
        "the day's number in the header",
    )
    .await;
    // At 360 the header keeps to one row beside the clock.
    let header = js(
        &phone,
        "return [document.querySelector('header').getBoundingClientRect().height, \
           document.getElementById('clock').getBoundingClientRect().height];",
    )
    .await;
    let (height, clock) = (header[0].as_f64(), header[1].as_f64());
    assert!(
        height.zip(clock).is_some_and(|(h, c)| h < 2.0 * c + 16.0),
        "the header wraps: {header}"
    );
    screenshot(&phone, "daily-round-360").await;
    axe_clean(&phone, "today's round").await;
    type_word(&phone, &word).await;
    let upper = word.to_ascii_uppercase();
    accepted(&phone, &upper, "the longest word accepted").await;
    let points = js(
        &phone,
        &format!("return Number(document.querySelector('#verdicts li[data-word=\"{upper}\"]').dataset.points);"),
    )
    .await;
    let points = points.as_u64().expect("points");
    // Going home mid-round is asked, and ends the try with what it found.
    click(&phone, "home-link").await;
    dialog_open(&phone, "leave", "asked before leaving").await;
    assert_eq!(
        text(&phone, "leave-note").await,
        "Your try at today's board ends here, with the words found so far."
    );
    click(&phone, "leave-go").await;
    visible(&phone, "home").await;
    let plural = |n: u64, one: &str| format!("{n} {one}{}", if n == 1 { "" } else { "s" });
    wait_js(
        &phone,
        &format!(
            "return document.getElementById('daily-note').textContent === \
               \"You played today's board ({}): a new try is practice.\";",
            plural(points, "point")
        ),
        "the home screen says the day was played",
    )
    .await;
    axe_clean(&phone, "home after today's try").await;

    // A second try is practice: the results share the first.
    click(&phone, "daily-button").await;
    visible(&phone, "round").await;
    finish_round(&phone).await;
    let head = format!(
        "Boggle #{number}: {}, 1 word, longest {} letters",
        plural(points, "point"),
        word.len()
    );
    let day_link = format!("{web}?daily={number}");
    wait_js(
        &phone,
        &format!(
            "return document.getElementById('share').textContent.startsWith({});",
            json!(head)
        ),
        "the first try's share text",
    )
    .await;
    // The numbers, a picture of the cells the word used (no letter), the day's link.
    let shared = text(&phone, "share").await;
    let lines: Vec<&str> = shared.lines().collect();
    assert_eq!(lines.first(), Some(&head.as_str()), "{shared}");
    assert_eq!(lines.last(), Some(&day_link.as_str()), "{shared}");
    let cells = word.len() - word.matches("qu").count();
    assert_eq!(
        picture_of(&lines[1..lines.len() - 1]),
        (cells, 16 - cells),
        "{shared}"
    );
    let share = format!("{head}\n{day_link}");
    assert_eq!(
        text(&phone, "daily-status").await,
        "You played today's board already: this try was practice, and your first try is the one shared."
    );
    // The try left mid-round ended then: the day's leaderboard lists it
    // already, not once its clock would have run out.
    assert_eq!(rows(&phone).await, json!([["Player", points, true]]));
    let range = match points {
        0..=4 => "0–4",
        5..=9 => "5–9",
        _ => "10–19",
    };
    let chart = [
        ("0–4", 1),
        ("5–9", 0),
        ("10–19", 1),
        ("20–29", 1),
        ("30–49", 0),
        ("50+", 0),
    ]
    .map(|(r, n)| json!([r, n + u64::from(r == range), r == range]));
    assert_eq!(stats(&phone).await, json!([[4, 4, 4], chart]));
    doc_screen(&phone, "daily-stats-360", "the day's statistics").await;

    // The statistics travel as a link: another browser adds them when asked.
    js(
        &phone,
        "navigator.clipboard.writeText = async (t) => { window.copied = t; }; \
         document.getElementById('stats-copy').click(); return true;",
    )
    .await;
    wait_js(
        &phone,
        "return typeof window.copied === 'string';",
        "the statistics' link copied",
    )
    .await;
    let link = js(&phone, "return window.copied;").await;
    let link = link.as_str().expect("a link").to_string();
    assert!(link.starts_with(&format!("{web}#stats=")), "{link}");
    // The player's seat goes with them, so the server counts one try for both browsers.
    let player = js(
        &phone,
        "return JSON.parse(localStorage.getItem('boggle.player'));",
    )
    .await;
    let player = player.as_str().expect("the player's token").to_string();
    assert!(link.ends_with(&format!("&player={player}")), "{link}");
    desk.goto(&link).await.expect("page loads");
    visible(&desk, "link-card").await;
    assert_eq!(
        text(&desk, "link-title").await,
        "Statistics from another browser"
    );
    doc_screen(&desk, "stats-link-1280", "statistics offered by a link").await;
    // Only for the player's own browsers: a friend's would make today practice.
    assert!(
        text(&desk, "link-note")
            .await
            .ends_with("Only if they are yours: today's board becomes practice here."),
        "the offer says whose"
    );
    click(&desk, "link-play").await;
    wait_js(
        &desk,
        "return document.getElementById('status').textContent === '4 games added to your statistics' && \
           document.getElementById('daily-stats').textContent === 'You: 4 games, a streak of 4 (best 4).';",
        "the statistics added",
    )
    .await;
    assert_eq!(
        js(
            &desk,
            "return JSON.parse(localStorage.getItem('boggle.player'));"
        )
        .await,
        json!(player),
        "the seat taken where this browser had none"
    );

    // The share text's link opens today's board on this server.
    desk.goto(&format!("{web}?daily={number}"))
        .await
        .expect("page loads");
    visible(&desk, "link-card").await;
    assert_eq!(
        text(&desk, "link-title").await,
        format!("Today's board #{number}")
    );
    // One card for today's board, not two alike.
    assert_eq!(
        js(
            &desk,
            "return document.getElementById('daily-card').hidden;"
        )
        .await,
        json!(true)
    );
    click(&desk, "link-play").await;
    visible(&desk, "round").await;
    finish_round(&desk).await;
    wait_js(
        &desk,
        "return document.querySelectorAll('#stat-chart li').length === 6;",
        "the statistics shown",
    )
    .await;
    // The day was carried: this browser's try is practice, sharing the
    // first (its numbers: the link carries no picture).
    assert_eq!(text(&desk, "share").await, share);
    assert!(
        text(&desk, "daily-status")
            .await
            .contains("this try was practice"),
        "practice in the second browser"
    );
    doc_screen(&desk, "daily-stats-1280", "the day's statistics").await;
    page.end("today's board").await;
}

/// A share text's picture, a row a line: how many cells its word used (red),
/// and how many it did not (white); every square one of the two, four a row.
fn picture_of(rows: &[&str]) -> (usize, usize) {
    assert_eq!(rows.len(), 4, "{rows:?}");
    assert!(rows.iter().all(|row| row.chars().count() == 4), "{rows:?}");
    let squares: String = rows.concat();
    assert!(squares.chars().all(|c| c == '🟥' || c == '⬜'), "{rows:?}");
    (squares.matches('🟥').count(), squares.matches('⬜').count())
}

/// Opens today's board from home as `name`, plays `word` if any, and ends the round.
async fn play_today(client: &Client, web: &str, name: &str, word: Option<&str>) {
    play_today_with(client, web, name, |client| async move {
        if let Some(word) = word {
            submit(&client, word).await;
            accepted(&client, word, "the word accepted").await;
        }
    })
    .await;
}

/// As [`play_today`], the round played by `play`.
pub(crate) async fn play_today_with<F: std::future::Future<Output = ()>>(
    client: &Client,
    web: &str,
    name: &str,
    play: impl FnOnce(Client) -> F,
) {
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
    play(client.clone()).await;
    finish_daily(client).await;
}

/// What the results say once the server has the day's try in its file.
pub(crate) const KEPT: &str = "Your result is on today's leaderboard.";

/// Waits for the results to say `what` of saving the day's try.
pub(crate) async fn saved(client: &Client, what: &str) {
    wait_js(
        client,
        &format!(
            "return document.getElementById('daily-saved').textContent === {};",
            json!(what)
        ),
        what,
    )
    .await;
}

/// The leaderboard's rows on the results: (name, points, marked as mine).
pub(crate) async fn rows(client: &Client) -> serde_json::Value {
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

/// A server with 10-minute rounds, and the two browsers on it (360 and
/// 1280 px); `None` after saying why they cannot play.
pub(crate) async fn players() -> Option<Page> {
    Page::builder().args(&["--time", "600"]).start().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reopened_daily_is_practice_and_a_second_player_of_a_name_is_listed_apart() {
    let Some(page) = players().await else {
        return;
    };
    let (phone, desk, web) = (page.phone(), page.desk(), &page.web);
    let words = todays_words();
    let (best, small) = (words[0].as_str(), words[words.len() - 1].as_str());

    // The first opening: scored.
    play_today(&desk, web, "bob", Some(small)).await;
    let first = text(&desk, "share").await;
    assert_eq!(
        text(&desk, "daily-status").await,
        "",
        "scored, nothing to say"
    );
    saved(&desk, KEPT).await;
    let points = rows(&desk).await[0][1].clone();
    assert_eq!(rows(&desk).await, json!([["bob", points, true]]));

    // The page forgets its record of the day; the server still knows the seat.
    js(
        &desk,
        "localStorage.removeItem('boggle.days'); return true;",
    )
    .await;
    play_today(&desk, web, "bob", Some(best)).await;
    let again = text(&desk, "share").await;
    // The first try's numbers (the picture was this page's, now forgotten).
    let numbers: Vec<&str> = first
        .lines()
        .filter(|line| !line.starts_with(['⬜', '🟨', '🟧', '🟥']))
        .collect();
    assert_eq!(
        again,
        numbers.join("\n"),
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

    assert_eq!(
        text(&desk, "daily-saved").await,
        "",
        "practice is not saved"
    );

    // Another browser, another seat, the same name: kept, listed apart;
    // while another program holds the results file, being saved.
    let (locked, release, holder) = hold_lock(page.dir.path().join("daily.sqlite"));
    locked.recv_timeout(GUARD).expect("the file is locked");
    play_today(&phone, web, "Bob", Some(best)).await;
    saved(&phone, "Saving your result to today's leaderboard\u{2026}").await;
    release.send(()).expect("let go");
    holder.join().expect("the lock is let go");
    saved(&phone, KEPT).await;
    let status = text(&phone, "daily-status").await;
    assert_eq!(
        status,
        "Another player is listed as Bob today: you are listed as Bob (2)."
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
    page.end("in daily games").await;
}

/// What a results screen shows: the title, the share text, the note under
/// it, the statistics' numbers, the players' cards and the status.
async fn results_seen(client: &Client) -> Value {
    js(
        client,
        "return ['results-title', 'share', 'daily-status', 'stat-played', 'stat-streak', 'results-players', 'status'] \
           .map(id => document.getElementById(id).textContent) \
           .concat([document.getElementById('status').classList.contains('error')]);",
    )
    .await
}

/// Taps the last word nobody found on the results, waits for its meaning,
/// and tells whether the board's top and the meaning's end are in sight
/// (above the phone's bar of actions).
async fn meaning_in_sight(client: &Client) -> Value {
    js(
        client,
        "window.scrollTo(0, 0); \
         const b = document.querySelectorAll('#results-missed button.word'); \
         b[b.length - 1].click(); return true;",
    )
    .await;
    wait_js(
        client,
        "return !!document.querySelector('#meaning .lemma, #meaning .source');",
        "the meaning shown",
    )
    .await;
    js(
        client,
        "const bar = document.getElementById('actions'); \
         const bottom = getComputedStyle(bar).position === 'sticky' ? bar.getBoundingClientRect().top : innerHeight; \
         const m = document.getElementById('meaning').getBoundingClientRect(); \
         const board = document.getElementById('results-box').getBoundingClientRect(); \
         return [board.top >= 0, m.bottom <= bottom + 1];",
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_reloaded_shows_its_results_as_they_were() {
    let Some(page) = players().await else {
        return;
    };
    let (phone, desk, web) = (page.phone(), page.desk(), &page.web);
    let words = todays_words();

    // Today's board, its first try: the results, reloaded, are the same,
    // and nothing says the game was given up.
    play_today(&phone, web, "ann", Some(words[0].as_str())).await;
    rows(&phone).await;
    let before = results_seen(&phone).await;
    assert_eq!(before[2], json!(""), "the first try: nothing to say");
    phone.refresh().await.expect("reloads");
    visible(&phone, "results").await;
    wait_js(
        &phone,
        "return !document.getElementById('leaderboard').hidden;",
        "the leaderboard again",
    )
    .await;
    assert_eq!(results_seen(&phone).await, before);
    // A second reload too.
    phone.refresh().await.expect("reloads");
    visible(&phone, "results").await;
    assert_eq!(results_seen(&phone).await, before);
    doc_screen(
        &phone,
        "daily-reloaded-360",
        "today's results after a reload",
    )
    .await;
    // A word's meaning comes into sight, at 360 and at 1280x800.
    assert_eq!(meaning_in_sight(&phone).await, json!([true, true]));

    // A solo game: the same, and Play again starts a new game.
    desk.goto(web).await.expect("page loads");
    click(&desk, "solo-button").await;
    visible(&desk, "round").await;
    finish_round(&desk).await;
    let before = results_seen(&desk).await;
    desk.refresh().await.expect("reloads");
    visible(&desk, "results").await;
    assert_eq!(results_seen(&desk).await, before);
    doc_screen(&desk, "solo-reloaded-1280", "solo results after a reload").await;
    wait_js(
        &desk,
        "return !document.getElementById('ready').disabled;",
        "Play again ready",
    )
    .await;
    click(&desk, "ready").await;
    visible(&desk, "round").await;
    // In the new game, a reload takes the round back.
    desk.refresh().await.expect("reloads");
    visible(&desk, "round").await;
    play_today(&desk, web, "bob", None).await;
    // A try without a word says so, with no numbers or picture of nothing.
    let day = common::daily_board(None).0;
    assert_eq!(
        text(&desk, "share").await,
        format!("Boggle #{day}: no words found\n{web}?daily={day}")
    );
    desk.set_window_size(1280, 800).await.expect("resized");
    assert_eq!(meaning_in_sight(&desk).await, json!([true, true]));
    screenshot(&desk, "daily-meaning-1280x800").await;
    axe_clean(&desk, "a word's meaning on today's results at 1280x800").await;
    page.end("reloaded results").await;
}

/// The date of day `n` (#1 is 2026-01-01), as `boggle daily --date` takes it.
async fn date_of(client: &Client, n: u64) -> String {
    js(
        client,
        &format!(
            "return new Date(Date.UTC(2026, 0, 1) + ({n} - 1) * 864e5).toISOString().slice(0, 10);"
        ),
    )
    .await
    .as_str()
    .unwrap_or_default()
    .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_days_boards_are_played_as_practice_beside_the_first_try() {
    let Some(page) = players().await else {
        return;
    };
    let (phone, desk, web) = (page.phone(), page.desk(), &page.web);
    let (number, _) = common::daily_board(None);

    // Yesterday played (kept by this browser): the home card lists the
    // last 29 days, yesterday with its points.
    phone.goto(web).await.expect("page loads");
    js(
        &phone,
        &format!(
            "localStorage.clear(); localStorage.setItem('boggle.days', JSON.stringify({{ \
               {one}: {{ points: 7, words: 3, longest: 5, picture: '⬜🟥' }} }})); return true;",
            one = number - 1
        ),
    )
    .await;
    phone.refresh().await.expect("reloads");
    wait_js(
        &phone,
        &format!(
            "const o = document.querySelector('#past option'); \
             return !!o && o.textContent === '#{}: 7 points';",
            number - 1
        ),
        "yesterday listed with its points",
    )
    .await;
    let listed = js(
        &phone,
        "return Array.from(document.querySelectorAll('#past option'), o => Number(o.value));",
    )
    .await;
    let expected: Vec<u64> = (1..30).map(|back| number - back).collect();
    assert_eq!(listed, json!(expected));
    doc_screen(&phone, "past-days-360", "home with the past days").await;
    js(
        &phone,
        &format!(
            "document.getElementById('past').value = '{}'; \
             document.getElementById('past-play').click(); return true;",
            number - 1
        ),
    )
    .await;
    visible(&phone, "round").await;
    let yesterday = common::daily_board(Some(&date_of(&phone, number - 1).await)).1;
    assert_eq!(faces(&phone).await, yesterday, "yesterday's board");
    finish_round(&phone).await;
    // The practice round's results, and beside them the first try's share.
    wait_js(
        &phone,
        &format!(
            "return document.getElementById('share').textContent === \
               'Boggle #{n}: 7 points, 3 words, longest 5 letters\\n⬜🟥\\n{web}?daily={n}';",
            n = number - 1
        ),
        "the first try's share",
    )
    .await;
    assert_eq!(
        text(&phone, "daily-status").await,
        format!("Board #{} was practice: nothing is kept.", number - 1)
    );
    assert_eq!(
        js(
            &phone,
            "return ['share', 'share-copy'].map(id => document.getElementById(id).checkVisibility());"
        )
        .await,
        json!([true, true]),
        "the first try's share, to copy"
    );
    assert_eq!(
        js(
            &phone,
            "return JSON.parse(localStorage.getItem('boggle.days'));"
        )
        .await,
        json!({ (number - 1).to_string(): { "points": 7, "words": 3, "longest": 5, "picture": "⬜🟥" } }),
        "the first try kept as it was"
    );
    doc_screen(&phone, "past-day-results-360", "a past day's results").await;
    phone
        .goto(&format!("{web}?daily={}", number - 3))
        .await
        .expect("page loads");
    visible(&phone, "link-card").await;
    doc_screen(&phone, "past-day-link-360", "a past day's link").await;
    // Played, with no first try that day: a note, nothing to copy.
    click(&phone, "link-play").await;
    visible(&phone, "round").await;
    finish_round(&phone).await;
    wait_js(
        &phone,
        "return document.getElementById('daily-status').textContent.endsWith('no result to share.') \
           && !document.getElementById('share-copy').checkVisibility();",
        "no first try to share, said",
    )
    .await;
    // The statistics run to today: yesterday played, a streak of 1.
    assert_eq!(text(&phone, "stat-streak").await, "1");
    screenshot(&phone, "past-day-no-try-360").await;
    axe_clean(&phone, "a past day's results with no first try").await;

    desk.goto(web).await.expect("page loads");
    wait_js(
        &desk,
        "return document.querySelectorAll('#past option').length === 29;",
        "the past days listed",
    )
    .await;
    doc_screenshot(&desk, "past-days-1280").await;
    // A link to a past day plays it as practice; one too old says so.
    desk.goto(&format!("{web}?daily={}", number - 3))
        .await
        .expect("page loads");
    visible(&desk, "link-card").await;
    assert_eq!(
        js(
            &desk,
            "return ['link-title', 'link-note', 'link-play'].map(id => document.getElementById(id).textContent);"
        )
        .await,
        json!([
            format!("Board #{}", number - 3),
            "A past day's board: a 3-minute round, as practice.",
            format!("Play board #{}", number - 3)
        ])
    );
    doc_screen(&desk, "past-day-link-1280", "a past day's link").await;
    click(&desk, "link-play").await;
    visible(&desk, "round").await;
    let three = common::daily_board(Some(&date_of(&desk, number - 3).await)).1;
    assert_eq!(faces(&desk).await, three, "that day's board");
    finish_round(&desk).await;
    // No first try that day: no share and no copy, and the page says why.
    wait_js(
        &desk,
        "return document.getElementById('daily-status').textContent !== '';",
        "the results' note",
    )
    .await;
    assert_eq!(
        text(&desk, "daily-status").await,
        format!(
            "Board #{} was practice: nothing is kept. \
             You did not play it on its day, so there is no result to share.",
            number - 3
        )
    );
    assert_eq!(
        js(
            &desk,
            "return ['share-box', 'share', 'share-copy', 'stats'] \
               .map(id => document.getElementById(id).checkVisibility());"
        )
        .await,
        json!([true, false, false, false]),
        "the note alone: no share, no statistics of no game"
    );
    doc_screen(&desk, "past-day-results-1280", "a past day's results").await;
    desk.goto(&format!("{web}?daily={}", number - 30))
        .await
        .expect("page loads");
    visible(&desk, "link-card").await;
    assert_eq!(
        text(&desk, "link-note").await,
        format!(
            "That link was to board #{}: today's board is #{number}.",
            number - 30
        )
    );
    page.end("past days").await;
}
