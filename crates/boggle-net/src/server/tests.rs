//! The server's dispatch and queues, without sockets.

#![expect(
    clippy::disallowed_methods,
    reason = "an Instant cannot be made but from the clock: these tests read it once and count on from it"
)]

use super::*;
use boggle_game::dictionary::Dictionary;
use boggle_game::game_board::GameBoard;
use boggle_game::rules::Rules;
use boggle_game::word_find::WordFind;
use boggle_protocol::Duplicates;

fn room() -> Room {
    let find = WordFind::with_rules(Arc::new(Dictionary::from_words(["EAT"])), Rules::project4());
    let config = RoomConfig {
        word_find: Arc::new(find),
        board: Some(GameBoard::new("BENHLAUMITLZRGAN").expect("16 letters")),
        time: Duration::from_secs(60),
        rounds: None,
        min_players: 2,
        duplicates: Duplicates::Cancel,
        max_players: 4,
        computer: None,
        daily: None,
    };
    Room::new("main", Arc::new(config), random::seeded(1))
}

fn slot(budget: &Arc<Budget>) -> Slot {
    let maker = PerAddress::new(1).take(IpAddr::from([127, 0, 0, 1]));
    Slot {
        room: room(),
        clients: HashMap::new(),
        budget: Arc::clone(budget),
        rounds_counted: 0,
        store: None,
        _maker: maker.expect("a first place"),
    }
}

fn client(cap: usize, budget: &Arc<Budget>) -> Client {
    Client::new(Arc::new(Outbox::new(cap, budget)), Arc::new(Notify::new()))
}

#[test]
fn a_client_whose_queue_is_full_is_dropped_and_the_others_still_hear() {
    let budget = Budget::new(1 << 20);
    // The welcome fits an empty queue; nothing more fits beside it.
    let slow = client(10, &budget);
    let fast = client(1 << 20, &budget);
    let mut slot = slot(&budget);
    slot.clients.insert(1, slow.clone());
    slot.clients.insert(2, fast.clone());
    let now = Instant::now();
    slot.room
        .join(1, "slow", None, "t1".into(), now)
        .expect("joins");
    slot.room
        .join(2, "fast", None, "t2".into(), now)
        .expect("joins");
    dispatch(&mut slot);
    assert!(!slot.clients.contains_key(&1), "the slow client is dropped");
    assert!(slot.clients.contains_key(&2));
    slot.room.ready(2, now + Duration::from_secs(1));
    dispatch(&mut slot);
    let fast_heard = fast.outbox.bytes();
    assert!(fast_heard > 0);
    // The slow client's connection task is woken to close it.
    let woken = slow.kill.notified();
    tokio::pin!(woken);
    assert!(woken.as_mut().enable(), "the kill was signalled");
}

#[test]
fn a_message_to_the_whole_room_is_encoded_once() {
    let budget = Budget::new(1 << 20);
    let mut slot = slot(&budget);
    let now = Instant::now();
    for (conn, name) in [(1, "ann"), (2, "bob"), (3, "cy")] {
        slot.clients.insert(conn, client(1 << 20, &budget));
        slot.room
            .join(conn, name, None, format!("t{conn}"), now)
            .expect("joins");
    }
    slot.room.drain();
    slot.room.ready(1, now + Duration::from_secs(1));
    dispatch(&mut slot);
    let queued: usize = slot.clients.values().map(|c| c.outbox.bytes()).sum();
    assert_eq!(queued, 3 * budget.used(), "one lobby, held by three queues");
}
