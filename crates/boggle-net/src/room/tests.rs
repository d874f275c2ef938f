//! The room's tests: whole rounds driven with made-up instants.

#![expect(
    clippy::disallowed_methods,
    reason = "an Instant cannot be made but from the clock: these tests read it once and count on from it"
)]
use super::*;
use boggle_game::dictionary::Dictionary;
use boggle_game::random;
use boggle_game::rules::Rules;
use boggle_game::word_find::WordFind;
use boggle_protocol::{SHARED_NAMES, SHARED_SHOWN, SharedWord, words_listed};

const BOARD: &str = "BENHLAUMITLZRGAN";

fn config(duplicates: Duplicates, min_players: usize, rounds: Option<u32>) -> Arc<RoomConfig> {
    let words = ["EAT", "BAT", "NAG", "TEA", "LAB"];
    let find = WordFind::with_rules(Arc::new(Dictionary::from_words(words)), Rules::project4());
    Arc::new(RoomConfig {
        word_find: Arc::new(find),
        board: Some(GameBoard::new(BOARD).expect("16 letters")),
        time: Duration::from_secs(60),
        rounds,
        min_players,
        duplicates,
        max_players: 3,
        computer: None,
        daily: None,
    })
}

fn room(duplicates: Duplicates, min_players: usize, rounds: Option<u32>) -> Room {
    Room::new(
        "main",
        config(duplicates, min_players, rounds),
        random::seeded(1),
    )
}

fn to(out: &[Envelope], conn: ConnId) -> Vec<&ServerMsg> {
    out.iter()
        .filter(|e| e.to.contains(&conn))
        .map(|e| &e.msg)
        .collect()
}

fn results(out: &[Envelope], conn: ConnId) -> Vec<PlayerResult> {
    to(out, conn)
        .into_iter()
        .find_map(|m| match m {
            ServerMsg::Results { players, .. } => Some(players.clone()),
            _ => None,
        })
        .expect("results sent")
}

/// `conn` takes `name`'s seat back with its `token` at `at` (`fresh`, the
/// token a newcomer would be given).
fn rejoin(room: &mut Room, conn: ConnId, name: &str, token: &str, fresh: &str, at: Instant) {
    room.join(conn, name, Some(token), fresh.into(), at)
        .expect("takes the seat back");
}

/// A daily room of day 42 for one (shared words counted), named `name`,
/// where ann's seat plays its scored attempt; and that attempt.
fn daily_room(name: &str) -> (Room, super::DailyGame) {
    let mut config = (*config(Duplicates::Count, 1, None)).clone();
    config.daily = Some(42);
    let mut room = Room::new(name, Arc::new(config), random::seeded(1));
    let game = super::DailyGame {
        day: 42,
        player: "p".repeat(32),
        status: boggle_protocol::DailyStatus::Scored,
        listed_as: Some("ann".into()),
        first: None,
        kept: None,
    };
    room.set_daily(game.clone());
    (room, game)
}

/// A room of two (shared words cancelled) whose first round ann and bob
/// started at the time returned.
fn two_playing() -> (Room, Instant) {
    let mut room = room(Duplicates::Cancel, 2, None);
    let t0 = Instant::now();
    start_two(&mut room, t0);
    (room, t0)
}

fn start_two(room: &mut Room, t0: Instant) {
    room.join(1, "ann", None, "t1".into(), t0).expect("joins");
    room.join(2, "bob", None, "t2".into(), t0).expect("joins");
    room.ready(1, t0);
    assert!(!room.is_playing(), "bob is not ready yet");
    room.ready(2, t0);
    assert!(room.is_playing());
}

#[test]
fn a_round_starts_when_everyone_is_ready_with_the_same_board() {
    let (mut room, _) = two_playing();
    let out = room.drain();
    for conn in [1, 2] {
        let start = to(&out, conn)
            .into_iter()
            .find(|m| matches!(m, ServerMsg::RoundStart { .. }))
            .expect("round start");
        let ServerMsg::RoundStart {
            board,
            remaining_ms,
            round,
            ..
        } = start
        else {
            unreachable!()
        };
        assert_eq!(board.concat(), BOARD);
        assert_eq!((*remaining_ms, *round), (60_000, 1));
    }
}

#[test]
fn min_players_holds_the_round() {
    let mut room = room(Duplicates::Cancel, 2, None);
    let t0 = Instant::now();
    room.join(1, "ann", None, "t1".into(), t0).expect("joins");
    room.ready(1, t0);
    assert!(!room.is_playing());
    room.join(2, "bob", None, "t2".into(), t0).expect("joins");
    room.ready(2, t0);
    assert!(room.is_playing());
}

#[test]
fn verdicts_go_to_their_player_only_and_shared_words_cancel() {
    let (mut room, t0) = two_playing();
    room.drain();
    room.word(1, "eat", t0);
    room.word(1, "bat", t0);
    room.word(2, "EAT", t0);
    room.word(2, "xyz", t0);
    let out = room.drain();
    assert_eq!(to(&out, 1).len(), 2);
    assert_eq!(
        to(&out, 2)[1],
        &ServerMsg::Verdict {
            word: "XYZ".into(),
            accepted: false,
            points: 0,
            reason: "not in the dictionary".into(),
            score: 1
        }
    );
    room.tick(t0 + Duration::from_secs(59));
    assert!(room.is_playing());
    room.tick(t0 + Duration::from_secs(60));
    assert!(!room.is_playing());
    let out = room.drain();
    let players = results(&out, 2);
    assert_eq!(players[0].name, "ann");
    assert_eq!((players[0].score, players[1].score), (1, 0));
    assert!(players[1].words[0].cancelled);
    let Some(ServerMsg::Results {
        shared,
        missed_total,
        ..
    }) = to(&out, 1)
        .into_iter()
        .find(|m| matches!(m, ServerMsg::Results { .. }))
    else {
        panic!("results")
    };
    assert_eq!(
        shared,
        &[SharedWord {
            word: "EAT".into(),
            players: vec!["ann".into(), "bob".into()],
            count: 2,
        }]
    );
    assert_eq!(*missed_total, 1, "NAG (TEA and LAB are not on the board)");
}

#[test]
fn duplicates_count_keeps_shared_words() {
    let mut room = room(Duplicates::Count, 2, None);
    let t0 = Instant::now();
    start_two(&mut room, t0);
    room.word(1, "eat", t0);
    room.word(2, "eat", t0);
    room.done(1, t0);
    assert!(room.is_playing());
    room.done(2, t0);
    assert!(!room.is_playing(), "everyone is done");
    let players = results(&room.drain(), 1);
    assert_eq!((players[0].score, players[1].score), (1, 1));
}

#[test]
fn words_outside_a_round_or_not_letters_are_refused_not_judged() {
    let mut room = room(Duplicates::Cancel, 1, None);
    let t0 = Instant::now();
    room.join(1, "ann", None, "t".into(), t0).expect("joins");
    room.word(1, "eat", t0);
    room.ready(1, t0);
    room.word(1, "e\x1bat", t0);
    room.word(1, &"A".repeat(MAX_WORD + 1), t0);
    room.word(1, "eat", t0 + Duration::from_secs(61));
    let codes: Vec<ErrorCode> = room
        .drain()
        .into_iter()
        .filter_map(|e| match e.msg {
            ServerMsg::Error { code, .. } => Some(code),
            _ => None,
        })
        .collect();
    assert_eq!(
        codes,
        [
            ErrorCode::NotInRound,
            ErrorCode::BadWord,
            ErrorCode::BadWord,
            ErrorCode::NotInRound
        ]
    );
}

#[test]
fn a_dropped_player_rejoins_with_the_token_and_keeps_the_words() {
    let (mut room, t0) = two_playing();
    room.word(1, "eat", t0);
    room.leave(1, t0);
    assert!(room.is_playing());
    room.drain();
    let refused = room.join(3, "ann", None, "t3".into(), t0);
    assert_eq!(refused.map_err(|e| e.code), Err(ErrorCode::NameTaken));
    let refused = room.join(3, "ann", Some("wrong"), "t3".into(), t0);
    assert_eq!(refused.map_err(|e| e.code), Err(ErrorCode::BadToken));
    let t1 = t0 + Duration::from_secs(10);
    rejoin(&mut room, 3, "ann", "t1", "t3", t1);
    let out = room.drain();
    let start = to(&out, 3)
        .into_iter()
        .find(|m| matches!(m, ServerMsg::RoundStart { .. }));
    let Some(ServerMsg::RoundStart {
        found,
        remaining_ms,
        score,
        ..
    }) = start
    else {
        panic!("the round is sent again")
    };
    assert_eq!((found.len(), *score, *remaining_ms), (1, 1, 50_000));
    room.word(3, "eat", t1);
    let out = room.drain();
    assert!(
        matches!(&to(&out, 3)[0], ServerMsg::Verdict { reason, .. } if reason == "already found")
    );
    room.tick(t0 + Duration::from_secs(60));
    let players = results(&room.drain(), 3);
    assert_eq!((players[0].name.as_str(), players[0].total), ("ann", 1));
}

#[test]
fn names_are_checked_and_rooms_have_a_cap() {
    let mut room = room(Duplicates::Cancel, 1, None);
    let t0 = Instant::now();
    let bad = room.join(1, "\x1b[2Jevil", None, "t".into(), t0);
    assert_eq!(bad.map_err(|e| e.code), Err(ErrorCode::BadName));
    for (conn, name) in [(1, "a"), (2, "b"), (3, "c")] {
        room.join(conn, name, None, format!("t{conn}"), t0)
            .expect("joins");
    }
    assert_eq!(
        room.join(4, "d", None, "t4".into(), t0).map_err(|e| e.code),
        Err(ErrorCode::RoomFull)
    );
    assert_eq!(
        room.join(4, "A", None, "t4".into(), t0).map_err(|e| e.code),
        Err(ErrorCode::NameTaken)
    );
}

#[test]
fn next_round_without_rejoining_and_the_last_round_closes_the_room() {
    let mut room = room(Duplicates::Cancel, 1, Some(2));
    let t0 = Instant::now();
    room.join(1, "ann", None, "t".into(), t0).expect("joins");
    room.ready(1, t0);
    room.word(1, "eat", t0);
    room.done(1, t0);
    room.ready(1, t0);
    assert_eq!((room.is_playing(), room.round()), (true, 2));
    room.word(1, "eat", t0);
    room.tick(t0 + Duration::from_secs(60));
    let out = room.drain();
    let last = to(&out, 1)
        .into_iter()
        .filter_map(|m| match m {
            ServerMsg::Results { last, players, .. } => Some((*last, players[0].total)),
            _ => None,
        })
        .next_back();
    assert_eq!(
        last,
        Some((true, 2)),
        "a fresh game each round, totals carried"
    );
    room.ready(1, t0);
    assert!(!room.is_playing());
    let late = room.join(2, "bob", None, "t2".into(), t0);
    assert_eq!(late.map_err(|e| e.code), Err(ErrorCode::RoundsOver));
}

#[test]
fn leaving_the_lobby_frees_the_seat_and_may_start_the_round() {
    let mut room = room(Duplicates::Cancel, 1, None);
    let t0 = Instant::now();
    room.join(1, "ann", None, "t1".into(), t0).expect("joins");
    room.join(2, "bob", None, "t2".into(), t0).expect("joins");
    room.ready(1, t0);
    room.leave(2, t0);
    assert!(room.is_playing(), "ann was the only one left, and ready");
    room.leave(1, t0);
    assert!(!room.is_abandoned(), "ann may come back within the round");
    room.tick(t0 + Duration::from_secs(60));
    assert!(room.is_abandoned());
}

fn lobbies(out: &[Envelope], conn: ConnId) -> usize {
    to(out, conn)
        .iter()
        .filter(|m| matches!(m, ServerMsg::Lobby { .. }))
        .count()
}

/// A client joining and leaving every millisecond for a second (a lobby
/// per join would flood every player): the players hear at most one lobby each 100 ms, and the last
/// one as the room is.
#[test]
fn churn_makes_one_lobby_each_tenth_of_a_second() {
    let mut room = room(Duplicates::Cancel, 2, None);
    let t0 = Instant::now();
    room.join(1, "ann", None, "t1".into(), t0).expect("joins");
    room.drain();
    for i in 0..1000u64 {
        let at = t0 + Duration::from_millis(i);
        room.join(100 + i, "eve", None, format!("e{i}"), at)
            .expect("joins");
        room.leave(100 + i, at);
        room.tick(at);
    }
    let end = t0 + Duration::from_millis(1100);
    room.tick(end);
    let out = room.drain();
    let heard = lobbies(&out, 1);
    assert!(heard <= 11, "{heard} lobbies in 1.1 s");
    let last = to(&out, 1)
        .into_iter()
        .rev()
        .find(|m| matches!(m, ServerMsg::Lobby { .. }));
    assert!(
        matches!(last, Some(ServerMsg::Lobby { players, .. }) if players.len() == 1),
        "{last:?}"
    );
}

/// Players ready one after another just after the results: the last one
/// starts the round, and no lobby follows it (a lobby held back by the pace
/// is moot once the round is on), so a round's change costs each player
/// its results, one lobby and the round's start.
#[test]
fn no_lobby_follows_the_round_it_started() {
    let (mut room, t0) = two_playing();
    let end = t0 + Duration::from_secs(61);
    room.tick(end);
    room.drain();
    room.ready(1, end + Duration::from_millis(2));
    room.ready(2, end + Duration::from_millis(4));
    assert!(room.is_playing());
    for i in 1..10 {
        room.tick(end + Duration::from_millis(100 * i));
    }
    let kinds: Vec<&str> = to(&room.drain(), 1)
        .into_iter()
        .map(|m| match m {
            ServerMsg::Lobby { .. } => "lobby",
            ServerMsg::RoundStart { .. } => "round",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, ["round"]);
}

/// A room of `players` players, p0 first, who need `min_players` to start.
fn big_room(players: u64, min_players: usize, t0: Instant) -> Room {
    let config = RoomConfig {
        max_players: 200,
        ..(*config(Duplicates::Cancel, min_players, None)).clone()
    };
    let mut room = Room::new("main", Arc::new(config), random::seeded(1));
    for i in 0..players {
        room.join(i, &format!("p{i}"), None, format!("t{i}"), t0)
            .expect("joins");
    }
    room
}

/// A room of 100: a lobby lists and reaches all of them, so they hear one
/// at most every 400 ms, while a newcomer still hears it at once.
#[test]
fn a_big_rooms_lobbies_are_spaced_by_its_size() {
    let t0 = Instant::now();
    let mut room = big_room(100, 200, t0);
    let t1 = t0 + Duration::from_secs(1);
    room.ready(0, t1);
    room.drain();
    room.ready(1, t1 + Duration::from_millis(100));
    room.tick(t1 + Duration::from_millis(399));
    assert_eq!(lobbies(&room.drain(), 2), 0, "within 400 ms of the last");
    room.tick(t1 + Duration::from_millis(400));
    assert_eq!(
        lobbies(&room.drain(), 2),
        1,
        "the held-back lobby, at 400 ms"
    );
    room.join(
        100,
        "new",
        None,
        "t100".into(),
        t1 + Duration::from_millis(450),
    )
    .expect("joins");
    let out = room.drain();
    assert_eq!(lobbies(&out, 100), 1, "the newcomer at once");
    assert_eq!(lobbies(&out, 2), 0, "the others later");
}

/// A room of 50 who all scored nothing (so they are placed in joining
/// order): everyone hears the best 20, and each of the other 30 hears its
/// own entry after them, with its place; nobody hears all 50. The lobby
/// waits, so that it holds back nobody's results.
#[test]
fn a_big_rooms_results_list_the_best_and_each_players_own_entry() {
    let t0 = Instant::now();
    let mut room = big_room(50, 50, t0);
    for i in 0..50 {
        room.ready(i, t0);
    }
    assert!(room.is_playing());
    room.drain();
    room.tick(t0 + Duration::from_secs(61));
    let out = room.drain();
    let names = |conn| -> Vec<(String, usize)> {
        results(&out, conn)
            .into_iter()
            .map(|r| (r.name, r.place))
            .collect()
    };
    let best: Vec<(String, usize)> = (0..20).map(|i| (format!("p{i}"), i + 1)).collect();
    assert_eq!(names(0), best);
    assert_eq!(names(19), best);
    let mut own = best.clone();
    own.push(("p23".into(), 24));
    assert_eq!(names(23), own);
    let totals: Vec<usize> = to(&out, 23)
        .iter()
        .filter_map(|m| match m {
            ServerMsg::Results { players_total, .. } => Some(*players_total),
            _ => None,
        })
        .collect();
    assert_eq!(totals, [50]);
    assert_eq!(
        lobbies(&out, 23),
        0,
        "the lobby waits for the results to go"
    );
}

/// 49 players who all found the same 500 words of a 10x10 board (a full
/// list would be megabytes per player): the results list a share of each player's words and a
/// few names per shared word, and say how many there were.
#[test]
fn the_results_of_a_crowded_big_board_stay_small() {
    use boggle_game::dictionary::Dictionary;
    use boggle_protocol::{MAX_SERVER_LINE, encode};
    let mut rules = Rules::preset(boggle_game::rules::Preset::Algs4);
    rules.rows = 10;
    rules.cols = 10;
    let dictionary = Dictionary::load_builtin(rules.word_list).expect("built in");
    let board = GameBoard::random(&rules, &mut random::seeded(7));
    let find = WordFind::with_rules(Arc::new(dictionary), rules);
    let words: Vec<String> = find.get_all_words(&board).into_iter().take(500).collect();
    assert_eq!(words.len(), 500, "a 10x10 board has hundreds of words");
    let config = Arc::new(RoomConfig {
        word_find: Arc::new(find),
        board: Some(board),
        time: Duration::from_secs(60),
        rounds: None,
        min_players: 49,
        duplicates: Duplicates::Cancel,
        max_players: 50,
        computer: None,
        daily: None,
    });
    let mut room = Room::new("main", config, random::seeded(1));
    let t0 = Instant::now();
    for conn in 0..49 {
        room.join(conn, &format!("player{conn}"), None, format!("t{conn}"), t0)
            .expect("joins");
        room.ready(conn, t0);
    }
    assert!(room.is_playing());
    for conn in 0..49 {
        for word in &words {
            room.word(conn, word, t0);
        }
    }
    room.drain();
    room.tick(t0 + Duration::from_secs(60));
    let out = room.drain();
    let results = to(&out, 0)
        .into_iter()
        .find(|m| matches!(m, ServerMsg::Results { .. }))
        .expect("results");
    let line = encode(results);
    assert!(line.len() < 256 << 10, "{} bytes", line.len());
    assert!(line.len() <= MAX_SERVER_LINE);
    let ServerMsg::Results {
        players,
        shared,
        shared_total,
        ..
    } = results
    else {
        unreachable!()
    };
    assert_eq!(*shared_total, 500);
    assert_eq!(shared.len(), SHARED_SHOWN);
    assert!(
        shared
            .iter()
            .all(|w| w.count == 49 && w.players.len() == SHARED_NAMES)
    );
    assert!(
        players
            .iter()
            .all(|p| p.words_total == 500 && p.words.len() == words_listed(49))
    );
}

/// Ann drops mid-round and cannot come back with her token: the
/// refusal says how to take the seat back, and a whole round's time
/// after she left the seat is free again, so a stranger cannot keep it.
#[test]
fn a_seat_left_for_a_whole_round_is_given_up_and_the_refusal_says_how_to_take_it_back() {
    let (mut room, t0) = two_playing();
    room.word(1, "eat", t0);
    let left = t0 + Duration::from_secs(5);
    room.leave(1, left);
    let refused = room
        .join(3, "ANN", None, "t3".into(), left)
        .expect_err("held");
    assert_eq!(refused.code, ErrorCode::NameTaken);
    assert!(
        refused.message.contains("ann left room main") && refused.message.contains("--token"),
        "{}",
        refused.message
    );
    room.tick(t0 + Duration::from_secs(60));
    assert!(!room.is_playing());
    // Bob alone (2 needed): still held 59 s after she left...
    let early = left + Duration::from_secs(59);
    assert!(room.join(3, "ann", None, "t3".into(), early).is_err());
    // ... and free once a round's time (60 s) has passed.
    let later = left + Duration::from_secs(60);
    room.join(3, "ann", None, "t3".into(), later)
        .expect("the seat was given up");
}

/// A player joining mid-round hears the round before the lobby, so a
/// line-mode client shows the board, not `lobby ... waiting`.
#[test]
fn joining_mid_round_sends_the_round_before_the_lobby() {
    let (mut room, t0) = two_playing();
    room.drain();
    room.join(3, "cy", None, "t3".into(), t0 + Duration::from_secs(1))
        .expect("joins");
    let out = room.drain();
    let kinds: Vec<&str> = to(&out, 3)
        .into_iter()
        .map(|m| match m {
            ServerMsg::Welcome { .. } => "welcome",
            ServerMsg::RoundStart { .. } => "round",
            ServerMsg::Lobby { .. } => "lobby",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, ["welcome", "round", "lobby"]);
}

/// Look-alike names are one name, so no one can pass for another player.
#[test]
fn names_are_compared_after_normalisation() {
    let mut room = room(Duplicates::Cancel, 2, None);
    let t0 = Instant::now();
    room.join(1, "ann", None, "t1".into(), t0).expect("joins");
    let cases = [
        // Case, a Cyrillic а, and á composed or not (an accent is easily missed).
        (
            ["Ann", "\u{430}nn", "a\u{301}nn", "\u{E1}nn"],
            ErrorCode::NameTaken,
        ),
        // Invisible additions, a blank filler, a fullwidth look-alike.
        (
            ["ann\u{AD}", "ann\u{180E}", "\u{3164}", "\u{FF41}nn"],
            ErrorCode::BadName,
        ),
    ];
    for (names, code) in cases {
        for name in names {
            let refused = room.join(2, name, None, "t2".into(), t0);
            assert_eq!(refused.map_err(|e| e.code), Err(code), "{name:?}");
        }
    }
}

/// A round of `--time 18446744073709551615` through the library: no
/// overflow, the round is held to a day.
#[test]
fn a_round_longer_than_a_day_is_a_day() {
    let mut config = (*config(Duplicates::Cancel, 1, None)).clone();
    config.time = Duration::from_secs(u64::MAX);
    let mut room = Room::new("main", Arc::new(config), random::seeded(1));
    let t0 = Instant::now();
    room.join(1, "ann", None, "t1".into(), t0).expect("joins");
    room.ready(1, t0);
    assert_eq!(room.deadline(), Some(t0 + MAX_TIME));
    room.leave(1, t0);
    room.tick(t0 + MAX_TIME);
    assert!(!room.is_playing());
    room.tick(t0 + MAX_TIME + MAX_TIME);
}

#[test]
fn a_solo_room_with_a_computer_lists_its_words_beside_the_players() {
    let mut config = Arc::unwrap_or_clone(config(Duplicates::Count, 1, None));
    config.computer = Some(Level::Perfect);
    config.max_players = 1;
    let mut room = Room::new("solo-1", Arc::new(config), random::seeded(1));
    let t0 = Instant::now();
    room.join(1, "ann", None, "t1".into(), t0).expect("joins");
    room.ready(1, t0);
    assert!(room.is_playing(), "one player is enough");
    room.word(1, "eat", t0);
    room.tick(t0 + Duration::from_secs(61));
    let out = room.drain();
    let players = results(&out, 1);
    let computer = players
        .iter()
        .find(|p| p.name == COMPUTER)
        .expect("the computer's result");
    let words: Vec<&str> = computer.words.iter().map(|w| w.word.as_str()).collect();
    // Every word of the board but the one ann found: EAT is hers alone.
    assert!(!words.contains(&"EAT"), "{words:?}");
    assert_eq!(words, ["BAT", "NAG"]);
    assert_eq!(
        players[0].name, COMPUTER,
        "the computer scored more: it is first"
    );
    let missed = to(&out, 1).into_iter().find_map(|m| match m {
        ServerMsg::Results { missed, .. } => Some(missed.clone()),
        _ => None,
    });
    assert_eq!(
        missed,
        Some(Vec::new()),
        "the computer took every word left"
    );
}

/// Names that look alike only in capitals (capital I and
/// small l) are one name, whichever comes first; a case-only twin too.
#[test]
fn names_that_look_alike_in_capitals_are_one_name() {
    let t0 = Instant::now();
    for (first, second) in [
        ("Ian", "lan"),
        ("lan", "IAN"),
        ("Ian", "ian"),
        ("ALL", "all"),
    ] {
        let mut room = room(Duplicates::Cancel, 2, None);
        room.join(1, first, None, "t1".into(), t0).expect("joins");
        let refused = room.join(2, second, None, "t2".into(), t0);
        assert_eq!(
            refused.map_err(|e| e.code),
            Err(ErrorCode::NameTaken),
            "{first} then {second}"
        );
    }
    let mut room = room(Duplicates::Cancel, 2, None);
    room.join(1, "ian", None, "t1".into(), t0).expect("joins");
    room.join(2, "lan", None, "t2".into(), t0)
        .expect("small i and small l do not look alike");
}

/// The results of a round are one message for the whole
/// room (encoded once by the server), not a copy per player.
#[test]
fn the_results_are_one_message_for_the_whole_room() {
    let t0 = Instant::now();
    let mut room = room(Duplicates::Cancel, 3, None);
    for (conn, name) in [(1, "ann"), (2, "bob"), (3, "cy")] {
        room.join(conn, name, None, format!("t{conn}"), t0)
            .expect("joins");
        room.ready(conn, t0);
    }
    assert!(room.is_playing());
    room.word(1, "eat", t0);
    room.drain();
    for conn in 1..=3 {
        room.done(conn, t0);
    }
    let out = room.drain();
    let results: Vec<&Envelope> = out
        .iter()
        .filter(|e| matches!(e.msg, ServerMsg::Results { .. }))
        .collect();
    assert_eq!(results.len(), 1, "one results message");
    assert_eq!(results[0].to, [1, 2, 3], "to every player");
}

#[test]
fn a_daily_rooms_first_round_yields_its_result_and_later_rounds_are_practice() {
    use super::DailyResult;
    use boggle_protocol::{DailyStatus, DayScore};
    let (mut room, game) = daily_room("solo-x");
    let t0 = Instant::now();
    room.join(1, "ann", None, "t1".into(), t0).expect("joins");
    let out = room.drain();
    assert_eq!(
        out[1].msg,
        game.to_msg(),
        "the daily message follows the welcome"
    );
    // Two rounds: the first is scored, the second (a replay) is not.
    for (round, words) in [(0u64, &["BAT"][..]), (1, &["BAT", "EAT"][..])] {
        let start = t0 + Duration::from_secs(100 * round);
        room.ready(1, start);
        assert!(room.is_playing());
        for word in words {
            room.word(1, word, start);
        }
        room.tick(start + Duration::from_secs(60));
        assert!(!room.is_playing());
    }
    let score = DayScore {
        points: 1,
        words: 1,
        longest: 3,
    };
    assert_eq!(
        room.take_results(),
        [DailyResult {
            day: 42,
            player: "p".repeat(32),
            score
        }]
    );
    assert!(room.take_results().is_empty(), "taken once");
    // A rejoin hears that the day is played, with its result.
    room.leave(1, t0 + Duration::from_secs(300));
    let mut game = game;
    game.status = DailyStatus::Played;
    game.first = Some(score);
    let t1 = t0 + Duration::from_secs(301);
    rejoin(&mut room, 2, "ann", "t1", "t2", t1);
    assert!(room.drain().iter().any(|e| e.msg == game.to_msg()));
}

#[test]
fn the_stores_word_on_a_daily_result_is_said_to_the_seat_and_after_a_rejoin() {
    use super::Kept;
    use boggle_protocol::{DailyStatus, DayScore};
    let (mut room, _) = daily_room("solo-y");
    let t0 = Instant::now();
    room.join(1, "ann", None, "t1".into(), t0).expect("joins");
    // No result yet: the store's word changes nothing and says nothing.
    room.drain();
    room.daily_kept(Kept::Yes);
    assert!(room.drain().is_empty());
    room.ready(1, t0);
    room.word(1, "BAT", t0);
    room.tick(t0 + Duration::from_secs(60));
    assert_eq!(room.take_results().len(), 1);
    room.drain();
    let told = |room: &mut Room| {
        let out = room.drain();
        assert_eq!(out.len(), 1, "{out:?}");
        assert_eq!(out[0].to, [1]);
        out[0].msg.clone()
    };
    let score = Some(DayScore {
        points: 1,
        words: 1,
        longest: 3,
    });
    let daily = |kept, reason: Option<&str>| ServerMsg::Daily {
        day: 42,
        player: "p".repeat(32),
        status: DailyStatus::Played,
        listed_as: Some("ann".into()),
        first: score,
        kept,
        reason: reason.map(str::to_string),
    };
    room.daily_kept(Kept::No("the disk is full".into()));
    assert_eq!(
        told(&mut room),
        daily(Some(false), Some("the disk is full"))
    );
    room.daily_kept(Kept::Yes);
    assert_eq!(told(&mut room), daily(Some(true), None));
    room.leave(1, t0 + Duration::from_secs(61));
    rejoin(
        &mut room,
        1,
        "ann",
        "t1",
        "t9",
        t0 + Duration::from_secs(62),
    );
    let out = room.drain();
    assert!(
        out.iter().any(|e| e.msg == daily(Some(true), None)),
        "{out:?}"
    );
}

/// The server shutting down: every player is told, with the time left in
/// the round under way, which ends by the grace's end with its results; no
/// new round starts and no new player sits (one taking a seat back does).
#[test]
fn a_room_winding_down_finishes_its_round_and_starts_no_other() {
    let (mut room, t0) = two_playing();
    room.word(1, "eat", t0);
    room.drain();
    room.wind_down(t0 + Duration::from_secs(5), t0 + Duration::from_secs(1));
    assert_eq!(room.deadline(), Some(t0 + Duration::from_secs(5)));
    let out = room.drain();
    for conn in [1, 2] {
        let told = to(&out, conn);
        assert!(
            matches!(told.as_slice(), [ServerMsg::Error { code: ErrorCode::ShuttingDown, message, remaining_ms, .. }]
                if message.contains("this round ends within 4 s") && *remaining_ms == Some(4000)),
            "{told:?}"
        );
    }
    let newcomer = room.join(3, "cy", None, "t3".into(), t0 + Duration::from_secs(2));
    assert_eq!(newcomer.map_err(|r| r.code), Err(ErrorCode::ServerFull));
    room.word(2, "bat", t0 + Duration::from_secs(2));
    room.tick(t0 + Duration::from_secs(5));
    let out = room.drain();
    let players = results(&out, 1);
    assert_eq!(players.len(), 2);
    assert!(players.iter().all(|p| p.score == 1), "{players:?}");
    room.ready(1, t0 + Duration::from_secs(6));
    room.ready(2, t0 + Duration::from_secs(6));
    assert!(!room.is_playing(), "no new round while shutting down");
    room.leave(2, t0 + Duration::from_secs(7));
    rejoin(&mut room, 2, "bob", "t2", "t4", t0 + Duration::from_secs(7));
}
