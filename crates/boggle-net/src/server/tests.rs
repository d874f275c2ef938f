//! The server's dispatch and queues, without sockets.

#![expect(
    clippy::disallowed_methods,
    reason = "an Instant cannot be made but from the clock: these tests read it once and count on from it"
)]

use super::rooms::{Slot, dispatch};
use super::*;
use boggle_game::dictionary::Dictionary;
use boggle_game::game_board::GameBoard;
use boggle_game::rules::Rules;
use boggle_game::word_find::WordFind;
use boggle_protocol::Duplicates;

fn room() -> Room {
    Room::new("main", Arc::new(room_config()), random::seeded(1))
}

fn room_config() -> RoomConfig {
    let find = WordFind::with_rules(Arc::new(Dictionary::from_words(["EAT"])), Rules::project4());
    RoomConfig {
        word_find: Arc::new(find),
        board: Some(GameBoard::new("BENHLAUMITLZRGAN").expect("16 letters")),
        time: Duration::from_secs(60),
        rounds: None,
        min_players: 2,
        duplicates: Duplicates::Cancel,
        max_players: 4,
        computer: None,
        daily: None,
    }
}

fn slot(budget: &Arc<Budget>) -> Slot {
    let caps = crate::limits::ShareCaps::new(1, 1, 1);
    let maker = Shares::new(caps).take(IpAddr::from([127, 0, 0, 1]));
    Slot {
        room: room(),
        clients: HashMap::new(),
        budget: Arc::clone(budget),
        rounds_counted: 0,
        store: None,
        me: tokio::sync::mpsc::unbounded_channel().0.downgrade(),
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

/// Hang guard for any one wait.
const GUARD: Duration = Duration::from_secs(20);

/// A server of rounds `time` long, a round starting with one player ready.
async fn serve(time: Duration) -> (SocketAddr, Arc<Shared>, tokio::sync::oneshot::Sender<()>) {
    let room = RoomConfig {
        time,
        min_players: 1,
        ..room_config()
    };
    let config = ServerConfig {
        room: Arc::new(room),
        password: None,
        seed: Some(1),
        limits: Limits::default(),
        store: None,
    };
    let server = Server::bind("127.0.0.1:0", config).await.expect("binds");
    let addr = server.local_addr().expect("address");
    let shared = Arc::clone(&server.shared);
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(server.run(async move {
        let _ = stopped.await;
    }));
    (addr, shared, stop)
}

/// A player over TCP, spoken to by hand.
struct Player(tokio::io::BufReader<TcpStream>);

impl Player {
    /// Connects and says hello as `name` in room `main`.
    async fn join(addr: SocketAddr, name: &str) -> Player {
        let stream = TcpStream::connect(addr).await.expect("connects");
        let mut player = Player(tokio::io::BufReader::new(stream));
        player
            .say(&ClientMsg::Hello {
                version: protocol::VERSION,
                name: name.into(),
                room: None,
                password: None,
                token: None,
                solo: None,
            })
            .await;
        player
            .until(|m| matches!(m, ServerMsg::Welcome { .. }))
            .await;
        player
    }

    async fn say(&mut self, msg: &ClientMsg) {
        use tokio::io::AsyncWriteExt;
        let line = encode(msg);
        self.0
            .get_mut()
            .write_all(line.as_bytes())
            .await
            .expect("sent");
    }

    /// The first message `pick` takes, within the guard.
    async fn until(&mut self, pick: impl Fn(&ServerMsg) -> bool) -> ServerMsg {
        use tokio::io::AsyncBufReadExt;
        loop {
            let mut line = String::new();
            let read = tokio::time::timeout(GUARD, self.0.read_line(&mut line)).await;
            let read = read.expect("heard within the guard").expect("reads");
            assert!(read > 0, "the server closed the connection");
            let msg = protocol::decode_server(line.as_bytes()).expect("a server message");
            if pick(&msg) {
                return msg;
            }
        }
    }
}

/// Waits, within the guard, until `holds` says so of the server.
async fn eventually(shared: &Shared, holds: impl Fn(&Shared) -> bool) {
    let waited = tokio::time::timeout(GUARD, async {
        while !holds(shared) {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await;
    assert!(waited.is_ok(), "it came to hold within the guard");
}

#[tokio::test]
async fn a_round_ends_on_its_rooms_own_timer_with_nobody_saying_anything() {
    let (addr, shared, _stop) = serve(Duration::from_secs(1)).await;
    let mut ann = Player::join(addr, "ann").await;
    ann.say(&ClientMsg::Ready).await;
    ann.until(|m| matches!(m, ServerMsg::RoundStart { .. }))
        .await;
    assert_eq!(*shared.playing.borrow(), 1, "the round is counted");
    let results = ann.until(|m| matches!(m, ServerMsg::Results { .. })).await;
    assert!(matches!(results, ServerMsg::Results { round: 1, .. }));
    eventually(&shared, |s| *s.playing.borrow() == 0).await;
}

#[tokio::test]
async fn a_room_nobody_is_in_takes_itself_out_and_its_name_opens_a_new_room() {
    let (addr, shared, _stop) = serve(Duration::from_secs(60)).await;
    let ann = Player::join(addr, "ann").await;
    assert_eq!(lock(&shared.rooms).len(), 1);
    assert_eq!(shared.players.load(Ordering::Relaxed), 1);
    drop(ann);
    eventually(&shared, |s| lock(&s.rooms).is_empty()).await;
    assert_eq!(shared.players.load(Ordering::Relaxed), 0);
    // The name is free again: a newcomer opens a new room under it.
    let mut bob = Player::join(addr, "bob").await;
    let lobby = bob.until(|m| matches!(m, ServerMsg::Lobby { .. })).await;
    let ServerMsg::Lobby { players, .. } = lobby else {
        unreachable!()
    };
    assert_eq!(players.len(), 1, "only bob is in the new room");
    assert_eq!(lock(&shared.rooms).len(), 1);
}

#[tokio::test]
async fn a_stop_waits_for_the_round_under_way_and_a_hurry_ends_it() {
    let (addr, shared, stop) = serve(Duration::from_secs(600)).await;
    let hurry = Hurry(Arc::clone(&shared));
    let mut ann = Player::join(addr, "ann").await;
    ann.say(&ClientMsg::Ready).await;
    ann.until(|m| matches!(m, ServerMsg::RoundStart { .. }))
        .await;
    let _ = stop.send(());
    let told = ann.until(|m| matches!(m, ServerMsg::Error { .. })).await;
    assert!(
        matches!(
            told,
            ServerMsg::Error {
                code: ErrorCode::ShuttingDown,
                remaining_ms: Some(_),
                ..
            }
        ),
        "{told:?}"
    );
    hurry.now();
    ann.until(|m| matches!(m, ServerMsg::Results { .. })).await;
    ann.until(|m| matches!(m, ServerMsg::Bye { .. })).await;
}
