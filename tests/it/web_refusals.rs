//! Every refusal the server can send a browser, as the page shows it: the
//! server binary with `--web` on loopback, headless Chromium through
//! chromedriver (a phone, 360 px, and a desk, 1280 px), and for each error
//! code a player can meet from the page, the player's own steps to it and
//! the sentence the page then says, on the screen where they can act on it
//! (the field to change focused, or the action offered: join again, try
//! again). Each refusal's screenshot is saved in `target/web-screenshots/`
//! as `refused-CODE`. No refusal may leave an uncaught error in the page.
//!
//! Codes no page can meet are left out, for the reason given: `not_utf8`
//! (a browser's WebSocket text is UTF-8 and JSON.stringify escapes lone
//! surrogates), `version` (the page is served by the server it speaks to),
//! `not_joined` (the page says `hello` first, once, on every connection),
//! `bad_word` (the page sends only 1 to 64 letters) and `unknown` (never
//! sent; what a client makes of a newer server's code). `idle` (the page
//! pings every minute: only a tab frozen for the server's idle time meets
//! it) is met under an idle time of 2 s (a server in the test's process:
//! `serve --idle` takes 90 at least), and `shutting_down` after a real SIGTERM.
//!
//! Without a browser the tests skip with a reason, unless `CI=true`, where
//! they fail instead.

use std::time::{Duration, Instant};

use fantoccini::Client;
use serde_json::json;

use crate::common::browser::{
    Page, accepted, click, join_form, js, no_page_errors, play_link, press, screenshot, submit,
    text, visible, wait_js,
};
use crate::common::wait_until_async;

/// The board of the rooms (`--board`), and their whole dictionary.
const BOARD: &str = "BENHLAUMITLZRGAN";
const WORDS: &str = "eat\nbat\nben\nnag\n";

/// `boggle serve --web` on loopback with `args`, on [`BOARD`] and
/// [`WORDS`], and the two browsers; `None` after saying why not.
async fn rooms(args: &[&str]) -> Option<Page> {
    Page::builder()
        .words(WORDS)
        .args(&["--board", BOARD])
        .args(args)
        .start()
        .await
}

/// Opens a room's link and joins it as `name` with `password`, as a
/// player would: the form filled in, Join pressed.
async fn join(client: &Client, web: &str, room: &str, name: &str, password: &str) {
    js(
        client,
        "try { sessionStorage.clear(); } catch (e) { /* no page yet */ } return true;",
    )
    .await;
    client
        .goto(&format!("{web}?room={room}"))
        .await
        .expect("page loads");
    join_form(client, &[("name", name), ("password", password)]).await;
}

/// Waits until the status line says `text` as an error, on screen `on`,
/// with `focused` the element that has the focus; saves the screenshot
/// `refused-CODE`.
async fn says(client: &Client, code: &str, text: &str, on: &str, focused: &str) {
    wait_js(
        client,
        &format!(
            "const s = document.getElementById('status'); \
             return s.textContent === {text} && s.classList.contains('error') && \
               !document.getElementById({on}).hidden && \
               (document.activeElement.id || document.activeElement.localName) === {focused};",
            text = json!(text),
            on = json!(on),
            focused = json!(focused),
        ),
        &format!("{code}: {text:?} on #{on}, #{focused} focused"),
    )
    .await;
    screenshot(client, &format!("refused-{code}")).await;
    no_page_errors(client, code).await;
}

/// [`says`] with the action beside the status focused, and that action
/// labelled `offer`.
async fn offers(client: &Client, code: &str, text: &str, on: &str, offer: &str) {
    says(client, code, text, on, "retry").await;
    assert_eq!(offered(client).await.as_deref(), Some(offer), "{code}");
}

/// Joins as [`join`] does, and waits for the join screen to refuse: the
/// status says `text` (the server's `code`), with `field` focused.
async fn join_refused(
    client: &Client,
    web: &str,
    (room, name, password): (&str, &str, &str),
    code: &str,
    text: &str,
    field: &str,
) {
    join(client, web, room, name, password).await;
    says(client, code, text, "join", field).await;
}

/// Waits until the status line says `text`, whatever else is on screen.
async fn status_is(client: &Client, text: &str) {
    wait_js(
        client,
        &format!(
            "return document.getElementById('status').textContent === {};",
            json!(text)
        ),
        &format!("the status {text:?}"),
    )
    .await;
}

/// The offered action's label (the button beside the status), if shown.
async fn offered(client: &Client) -> Option<String> {
    let value = js(
        client,
        "const b = document.getElementById('retry'); return b.hidden ? null : b.textContent;",
    )
    .await;
    value.as_str().map(str::to_string)
}

/// Presses the offered action.
async fn take_offer(client: &Client) {
    press(client, "retry").await;
}

/// Joining a room: a wrong or too long password, a name or room name that
/// cannot be used, a taken name, a full room, a room that played all its
/// rounds, and a word sent as the round ends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_join_says_why_where_it_can_be_mended() {
    let Some(page) = rooms(&[
        "--password",
        "sesame",
        "--max-players",
        "1",
        "--min-players",
        "1",
        "--rounds",
        "1",
        "--time",
        "600",
    ])
    .await
    else {
        return;
    };
    let (phone, desk, web) = (page.phone(), page.desk(), page.web.clone());

    let long = "x".repeat(5000);
    // (room, name, password): the code, what the page says, the field focused.
    let refusals = [
        (
            ("kitchen", "ann", "nope"),
            "password",
            "Wrong password.",
            "password",
        ),
        (
            ("kitchen", "ann", long.as_str()),
            "too_long",
            "That password is too long for the server.",
            "password",
        ),
        (
            ("kitchen", "...", "sesame"),
            "bad_name",
            "That name cannot be used: the name has no letter or digit.",
            "name",
        ),
        (
            ("-", "ann", "sesame"),
            "bad_room",
            "That room name cannot be used: the room name has no letter or digit.",
            "room",
        ),
    ];
    for (seat, code, text, field) in refusals {
        join_refused(&desk, &web, seat, code, text, field).await;
    }

    // ann sits in the kitchen; the room seats one.
    join(&desk, &web, "kitchen", "ann", "sesame").await;
    visible(&desk, "lobby").await;
    let taken = [
        (
            "Ann",
            "name_taken",
            "The name Ann is taken in room kitchen: choose another name.",
            "name",
        ),
        (
            "bob",
            "room_full",
            "Room kitchen is full: choose another room.",
            "room",
        ),
    ];
    for (name, code, text, field) in taken {
        join_refused(&phone, &web, ("kitchen", name, "sesame"), code, text, field).await;
    }

    // ann plays the room's one round, and sends a word as she presses Done:
    // the round ends first, and the word is not played.
    click(&desk, "ready").await;
    visible(&desk, "round").await;
    js(
        &desk,
        "document.getElementById('done').click(); \
         document.getElementById('word').value = 'bat'; \
         document.getElementById('word-form').requestSubmit(); return true;",
    )
    .await;
    visible(&desk, "results").await;
    status_is(&desk, "the round was over: that word was not played").await;
    screenshot(&desk, "refused-not_in_round").await;
    no_page_errors(&desk, "not_in_round").await;

    join_refused(
        &phone,
        &web,
        ("kitchen", "bob", "sesame"),
        "rounds_over",
        "Room kitchen has played all its rounds: choose another room.",
        "room",
    )
    .await;
}

/// A server at its caps: the rooms it may hold, the connections it takes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_server_says_so_and_offers_to_try_again() {
    let Some(mut page) = rooms(&["--max-rooms", "1"]).await else {
        return;
    };
    let (phone, desk, web) = (page.phone(), page.desk(), page.web.clone());
    join(&desk, &web, "kitchen", "ann", "").await;
    visible(&desk, "lobby").await;
    join_refused(
        &phone,
        &web,
        ("garden", "bob", ""),
        "too_many_rooms",
        "No new room can be made now: the server has its maximum of 1 rooms; join one of them.",
        "room",
    )
    .await;
    page.serve(&["--board", BOARD, "--max-connections", "1"]);
    let web = page.web.clone();
    join(&desk, &web, "kitchen", "ann", "").await;
    visible(&desk, "lobby").await;
    join(&phone, &web, "kitchen", "bob", "").await;
    offers(
        &phone,
        "server_full",
        "The server is busy: the server has its maximum of 1 connections; try later.",
        "join",
        "Try again",
    )
    .await;
    // Once ann has gone, trying again gets bob in (the server may take a
    // moment to see her go: until then it is busy still, and says so).
    desk.goto("about:blank").await.expect("ann leaves");
    wait_until_async(
        async || {
            take_offer(&phone).await;
            wait_js(
                &phone,
                "return !document.getElementById('lobby').hidden || \
                   !document.getElementById('retry').hidden;",
                "bob in, or the server busy still",
            )
            .await;
            offered(&phone).await.is_none().then_some(())
        },
        async || "the server stayed busy after ann left".to_string(),
    )
    .await;
    visible(&phone, "lobby").await;
    no_page_errors(&phone, "after trying again").await;
}

/// A seat given up while its player was away: the page says so when it
/// comes back, and joins again at a tap.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[expect(
    clippy::disallowed_methods,
    reason = "a poll: a pause between looks, in a loop bounded by a deadline"
)]
async fn an_expired_seat_says_so_and_offers_to_join_again() {
    // A round's time is a second: a seat empty that long between rounds is given up.
    let Some(page) = rooms(&["--time", "1", "--min-players", "2"]).await else {
        return;
    };
    let (phone, desk, web) = (page.phone(), page.desk(), page.web.clone());
    join(&desk, &web, "kitchen", "ann", "").await;
    visible(&desk, "lobby").await;
    join(&phone, &web, "kitchen", "bob", "").await;
    visible(&phone, "lobby").await;
    // They play a round (a seat is kept only for who played).
    for client in [&desk, &phone] {
        click(client, "ready").await;
    }
    for client in [&desk, &phone] {
        visible(client, "results").await;
    }
    // ann closes the page; the tab keeps her seat's token.
    desk.goto("about:blank").await.expect("ann leaves");
    wait_js(
        &phone,
        "return !!document.querySelector('#players li[data-name=\"ann\"] .away');",
        "ann away in bob's lobby",
    )
    .await;
    // The seat is held a round's time (a second): let it pass.
    let away = std::time::Instant::now();
    while away.elapsed() < Duration::from_millis(1500) {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    desk.goto(&web).await.expect("ann comes back");
    offers(
        &desk,
        "bad_token",
        "Your seat in room kitchen was given up while you were away.",
        "join",
        "Join again",
    )
    .await;
    take_offer(&desk).await;
    visible(&desk, "lobby").await;
    wait_js(
        &desk,
        "return document.querySelectorAll('#players li').length === 2 && \
           !!document.querySelector('#players li[data-name=\"ann\"]:not(:has(.away))');",
        "ann back in the kitchen beside bob",
    )
    .await;
    no_page_errors(&desk, "after joining again").await;
}

/// Solo games: a board or size that cannot be played, words sent faster
/// than the server takes them, and far faster.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_board_or_a_flood_of_words_is_told() {
    let Some(page) = rooms(&["--time", "600"]).await else {
        return;
    };
    let (phone, desk, web) = (page.phone(), page.desk(), page.web.clone());

    play_link(&phone, &format!("{web}?board=CAT")).await;
    says(
        &phone,
        "bad_message",
        "That board cannot be played here: a board needs exactly 16 letters, got 3.",
        "home",
        "body",
    )
    .await;
    assert_eq!(
        js(&phone, "return location.search;").await,
        json!(""),
        "a reload does not try the bad link again"
    );
    play_link(&phone, &format!("{web}?board=ABCD&size=9x9")).await;
    says(
        &phone,
        "bad_message-size",
        "A solo board is 2 to 36 cells, not 9x9.",
        "home",
        "body",
    )
    .await;

    // 60 words at once: the first 40 (the burst) are played, the rest are
    // refused by name and shown as not played.
    play_link(&desk, &format!("{web}?board={BOARD}")).await;
    visible(&desk, "round").await;
    let flood = |n: usize| {
        format!(
            "const word = document.getElementById('word'); \
             const form = document.getElementById('word-form'); \
             for (let i = 0; i < {n}; i++) {{ word.value = 'bat'; form.requestSubmit(); }} \
             return true;"
        )
    };
    js(&desk, &flood(60)).await;
    wait_js(
        &desk,
        "return document.querySelectorAll('#verdicts li').length === 60 && \
           Array.from(document.querySelectorAll('#verdicts .reason')) \
             .some(r => r.textContent === 'not played: too many words at once');",
        "60 answers, some of them refusals for the rate",
    )
    .await;
    screenshot(&desk, "refused-rate_limited").await;
    no_page_errors(&desk, "rate_limited").await;
    // Far past the rate, the server drops the page; the page offers to
    // join again, and the seat comes back with its words.
    js(&desk, &flood(300)).await;
    offers(
        &desk,
        "too_many_messages",
        "Disconnected: far too many messages at once.",
        "home",
        "Join again",
    )
    .await;
    take_offer(&desk).await;
    visible(&desk, "round").await;
    accepted(&desk, "BAT", "BAT kept after joining again").await;
    no_page_errors(&desk, "after joining again").await;
}

/// What the page says in a tab whose seat another tab or device took.
const REPLACED: &str =
    "Your seat in room kitchen was taken by another tab or device: this tab has stopped.";

/// Joins room kitchen as ann in `client`'s tab (a room of three, so it
/// stays in its lobby): the seat this tab keeps in its sessionStorage.
async fn seated(client: &Client, web: &str) -> serde_json::Value {
    join(client, web, "kitchen", "ann", "").await;
    visible(client, "lobby").await;
    let seat = js(client, "return sessionStorage.getItem('boggle.seat');").await;
    assert!(seat.as_str().is_some_and(|s| s.contains("token")), "{seat}");
    seat
}

/// Opens the page in `client`'s tab with `seat` in its sessionStorage, as
/// a duplicated tab has it.
async fn open_with_seat(client: &Client, web: &str, seat: &serde_json::Value) {
    client.goto(web).await.expect("page loads");
    js(
        client,
        &format!("sessionStorage.setItem('boggle.seat', {seat}); location.reload(); return true;"),
    )
    .await;
}

/// Waits until `client`'s tab is in the lobby, with no error, ann there once.
async fn in_the_lobby_alone(client: &Client, what: &str) {
    wait_js(
        client,
        "return !document.getElementById('lobby').hidden && \
           !document.getElementById('status').classList.contains('error') && \
           document.querySelectorAll('#players li').length === 1 && \
           !document.querySelector('#players li .away');",
        what,
    )
    .await;
}

/// A seat opened in another browser with its token (its tab's seat copied
/// there): the copy takes the seat when it loads, and the tab it took it
/// from says so and stays out, where it used to rejoin and take the seat
/// back in turn. It offers to play there instead, which takes the seat
/// back, and the other browser then says so in its turn.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[expect(
    clippy::disallowed_methods,
    reason = "a poll: a pause between looks, in a loop bounded by a deadline"
)]
async fn a_tab_whose_seat_another_tab_takes_says_so_and_stays_out() {
    let Some(page) = rooms(&["--min-players", "3"]).await else {
        return;
    };
    let (phone, desk, web) = (page.phone(), page.desk(), page.web.clone());
    let seat = seated(&desk, &web).await;
    open_with_seat(&phone, &web, &seat).await;
    visible(&phone, "lobby").await;
    offers(&desk, "replaced", REPLACED, "join", "Play here instead").await;
    // Long past the first tries of a rejoin (250 ms, then 500 ms, ...), the
    // seat is still the copy's: the tab it was taken from stayed out.
    let out = std::time::Instant::now();
    while out.elapsed() < Duration::from_secs(3) {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    in_the_lobby_alone(&phone, "the copy still in the lobby, ann there once").await;
    assert_eq!(text(&desk, "status").await, REPLACED);
    // Playing here instead takes the seat back; the copy now says so.
    take_offer(&desk).await;
    visible(&desk, "lobby").await;
    says(&phone, "replaced-back", REPLACED, "join", "retry").await;
    no_page_errors(&desk, "after playing here instead").await;
}

/// Two tabs of one seat in one browser (a duplicated tab copies the seat
/// with its sessionStorage): the copy finds the seat played by the first
/// tab and stays out, told so at once, before it connects, so the first
/// plays on undisturbed. Playing there instead takes the seat over, and
/// the first tab is then told that its seat was taken.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_duplicated_tab_is_told_at_once_its_seat_is_in_use_and_takes_nothing() {
    let Some(page) = rooms(&["--min-players", "3"]).await else {
        return;
    };
    let (desk, web) = (page.desk(), page.web.clone());
    let seat = seated(&desk, &web).await;
    a_copy_stays_out(&desk, &web, &seat, "").await;
}

/// Opens a second tab of `desk` with the first tab's `seat`, as a duplicated
/// tab has it: the copy is told at once that the seat is open in another
/// tab and offers to play there instead; the first tab plays on, past the
/// time a copy that connected would have taken the seat from it. Playing
/// in the copy instead takes the seat over, and the first tab is told.
/// `shots` ends the screenshots' names.
#[expect(
    clippy::disallowed_methods,
    reason = "a poll: a pause between looks, in a loop bounded by a deadline"
)]
async fn a_copy_stays_out(desk: &Client, web: &str, seat: &serde_json::Value, shots: &str) {
    let first = desk.window().await.expect("the first tab");
    let copy = desk.new_window(true).await.expect("a second tab").handle;
    desk.switch_to_window(copy.clone())
        .await
        .expect("to the copy");
    open_with_seat(desk, web, seat).await;
    let in_use = "Your seat in room kitchen is open in another tab: this tab stays out.";
    offers(
        desk,
        &format!("seat-in-another-tab{shots}"),
        in_use,
        "join",
        "Play here instead",
    )
    .await;
    desk.switch_to_window(first.clone())
        .await
        .expect("to the first tab");
    in_the_lobby_alone(desk, "the first tab still in the lobby, ann there once").await;
    // It stays so, past the time a copy that connected would have taken
    // the seat from it.
    let since = Instant::now();
    while since.elapsed() < Duration::from_secs(2) {
        assert_eq!(
            text(desk, "status").await,
            "joined: press Ready when you are"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    desk.switch_to_window(copy).await.expect("to the copy");
    take_offer(desk).await;
    visible(desk, "lobby").await;
    no_page_errors(desk, "after playing in the copy").await;
    desk.switch_to_window(first)
        .await
        .expect("to the first tab");
    says(
        desk,
        &format!("replaced-by-a-tab{shots}"),
        REPLACED,
        "join",
        "retry",
    )
    .await;
    no_page_errors(desk, "after its seat was taken").await;
}

/// A browser whose page is no secure context, so it has no Web Locks: the
/// server (a room of three, served also as `boggle.test`, which this
/// Chromium resolves to 127.0.0.1) and its page's address under that name,
/// over plain `http`, as from a server on the LAN.
async fn no_secure_context() -> Option<(Page, Client, String)> {
    let page = Page::builder()
        .widths(&[1280])
        .chromium_args(&["--host-resolver-rules=MAP boggle.test 127.0.0.1"])
        .words(WORDS)
        .args(&[
            "--board",
            BOARD,
            "--min-players",
            "3",
            "--web-host",
            "boggle.test",
        ])
        .start()
        .await?;
    let web = page.web.replace("127.0.0.1", "boggle.test");
    assert!(web.starts_with("http://boggle.test:"), "{web}");
    let desk = page.desk();
    Some((page, desk, web))
}

/// Two tabs of one seat, as above, on a page that is no secure context
/// ([`no_secure_context`]). The tabs ask each other instead, and the copy
/// is told the same, at once: it never connects, so the first tab is
/// never told `replaced` and plays on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_duplicated_tab_over_plain_http_is_told_its_seat_is_in_use_and_takes_nothing() {
    let Some((_page, desk, web)) = no_secure_context().await else {
        return;
    };
    let seat = seated(&desk, &web).await;
    // No Web Locks here: what follows cannot pass by them.
    assert_eq!(
        js(
            &desk,
            "return [location.hostname, window.isSecureContext, navigator.locks === undefined];"
        )
        .await,
        json!(["boggle.test", false, true])
    );
    a_copy_stays_out(&desk, &web, &seat, "-over-http").await;
}

/// How tabs with no Web Locks settle a seat, in one page (a second
/// channel there stands for another tab): two asking at once end with one
/// holder, the higher id; the holder answers a later ask; a tab taking the
/// seat over ends the hold.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tabs_asking_for_one_seat_at_once_end_with_one_holder() {
    let Some((_page, desk, web)) = no_secure_context().await else {
        return;
    };
    desk.goto(&web).await.expect("page loads");
    visible(&desk, "home").await;
    let settled = desk
        .execute_async(
            "const done = arguments[arguments.length - 1]; (async () => { \
               const { holdInThisTab } = await import('/js/tabs.js'); \
               const other = new BroadcastChannel('boggle.seats'); \
               const heard = []; \
               other.onmessage = (e) => heard.push(e.data.say); \
               const ask = (token, id) => other.postMessage({ say: 'ask', name: 'boggle.seat.' + token, id }); \
               const outranked = holdInThisTab('a', false, () => {}); \
               ask('a', 2); \
               const stayedOut = (await outranked) === null; \
               let lost = false; \
               const outranking = holdInThisTab('b', false, () => { lost = true; }); \
               ask('b', -1); \
               const held = typeof (await outranking) === 'function'; \
               const whileAsking = heard.splice(0); \
               ask('b', 2); \
               await new Promise((r) => setTimeout(r, 300)); \
               const whileHolding = heard.splice(0); \
               other.postMessage({ say: 'take', name: 'boggle.seat.b', id: 2 }); \
               await new Promise((r) => setTimeout(r, 300)); \
               done({ stayedOut, held, whileAsking, whileHolding, lost }); \
             })().catch((e) => done(String(e)));",
            vec![],
        )
        .await
        .expect("the script runs");
    assert_eq!(
        settled,
        json!({
            "stayedOut": true,
            "held": true,
            "whileAsking": ["ask", "ask", "held"],
            "whileHolding": ["held"],
            "lost": true,
        })
    );
    no_page_errors(&desk, "after settling seats").await;
}

/// The server in this process on [`BOARD`] and [`WORDS`], with an idle
/// time far below what `serve --idle` takes (at least 90 s, as the page
/// pings every minute), so a page meets it at once; its page's address.
async fn server_idle_after(idle: Duration) -> (String, tokio::sync::oneshot::Sender<()>) {
    use boggle::{Dictionary, GameBoard, Rules, WordFind};
    use boggle_net::web::Web;
    use boggle_net::{Limits, RoomConfig, Server, ServerConfig};
    use std::sync::Arc;
    let words = Dictionary::from_words(WORDS.lines().map(str::to_uppercase));
    let find = WordFind::with_rules(Arc::new(words), Rules::project4());
    let config = ServerConfig {
        room: Arc::new(RoomConfig {
            word_find: Arc::new(find),
            board: Some(GameBoard::new(BOARD).expect("board")),
            time: Duration::from_secs(180),
            rounds: None,
            min_players: 2,
            duplicates: boggle_protocol::Duplicates::Cancel,
            max_players: 50,
            computer: None,
            daily: None,
        }),
        password: None,
        seed: None,
        limits: Limits {
            idle_timeout: idle,
            ..Limits::default()
        },
        store: None,
    };
    let server = Server::bind("127.0.0.1:0", config).await.expect("binds");
    let web = Web::bind("127.0.0.1:0", server.entrance())
        .await
        .expect("binds");
    let addr = web.local_addr().expect("its address");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(server.run_beside(web.run(), async move {
        let _ = stopped.await;
    }));
    (format!("http://{addr}/"), stop)
}

/// A page that says nothing for the server's idle time (a frozen tab,
/// since the page pings every minute) is dropped: it says so and offers to
/// join again, which takes the seat back or, the server having given it up,
/// joins afresh at once; Ready then says the player is ready.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_page_is_told_and_offered_to_join_again() {
    let Some(page) = Page::builder().widths(&[1280]).no_server().start().await else {
        return;
    };
    let desk = page.desk();
    let (web, _stop) = server_idle_after(Duration::from_secs(2)).await;
    join(&desk, &web, "kitchen", "ann", "").await;
    visible(&desk, "lobby").await;
    offers(
        &desk,
        "idle",
        "Disconnected: nothing heard for 2 seconds.",
        "join",
        "Join again",
    )
    .await;
    take_offer(&desk).await;
    // Back in the lobby at the first try (the server had given the seat
    // up: joined afresh), not told the seat was given up.
    wait_js(
        &desk,
        "return !document.getElementById('lobby').hidden && \
           !document.getElementById('status').classList.contains('error') && \
           !!document.querySelector('#players li[data-name=\"ann\"]');",
        "ann back in the kitchen",
    )
    .await;
    assert_eq!(offered(&desk).await, None);
    // Ready: the lobby's status says so, not to press Ready.
    click(&desk, "ready").await;
    status_is(&desk, "ready: the round starts when everyone is").await;
    no_page_errors(&desk, "after joining again").await;
}

/// SIGTERM to the server while a round is under way: the page says the
/// server is stopping and when the round ends (its clock too, and the
/// warning stays after a word), the round ends (sooner, at
/// `--stop-grace`) with its results, which stay on screen beside the
/// server's goodbye; the server exits 0.
#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopping_server_finishes_the_round_and_says_so() {
    let Some(mut page) = rooms(&["--min-players", "1", "--time", "600", "--stop-grace", "3"]).await
    else {
        return;
    };
    let (desk, web) = (page.desk(), page.web.clone());
    join(&desk, &web, "kitchen", "ann", "").await;
    visible(&desk, "lobby").await;
    click(&desk, "ready").await;
    visible(&desk, "round").await;
    submit(&desk, "eat").await;
    accepted(&desk, "EAT", "EAT played").await;
    let server = page.server.as_mut().expect("a server");
    crate::common::signal(server.id(), "TERM");
    status_is(
        &desk,
        "The server is shutting down: this round ends within 3 s, then the server closes.",
    )
    .await;
    // The clock shows the round's new end, not its old one.
    wait_js(
        &desk,
        "return ['0:03', '0:02', '0:01'].includes(document.getElementById('clock').textContent);",
        "the clock at the round's new end",
    )
    .await;
    // A word played leaves the warning on.
    submit(&desk, "tea").await;
    wait_js(
        &desk,
        "return !!document.querySelector('#verdicts li[data-word=\"TEA\"]');",
        "TEA's verdict",
    )
    .await;
    assert_eq!(
        text(&desk, "status").await,
        "The server is shutting down: this round ends within 3 s, then the server closes."
    );
    screenshot(&desk, "stopping-round").await;
    visible(&desk, "results").await;
    status_is(
        &desk,
        "the server said goodbye: the server is shutting down",
    )
    .await;
    wait_js(
        &desk,
        "return !document.getElementById('results').hidden && \
           document.getElementById('actions').hidden;",
        "the results on screen, nothing to press",
    )
    .await;
    screenshot(&desk, "stopping-results").await;
    no_page_errors(&desk, "stopping").await;
    assert_eq!(
        crate::common::exit_code(&mut server.0, "boggle serve"),
        Some(0)
    );
}
