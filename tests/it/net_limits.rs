//! The server's limits against one attacker (floods, password guessing,
//! invisible names, idle connections), each attack played against a server
//! on 127.0.0.1:0 in this process, or a fake server that misbehaves, bounded
//! in count and time. Timeouts only guard against hangs; what is asserted is
//! what happened (codes, counts, messages), with margins far beyond any
//! machine's speed where a rate is involved.

use crate::common;
use crate::common::assert_contains;

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use boggle_client::join::run_lines;
use boggle_client::link::JoinOptions;
use boggle_protocol::{ClientMsg, Duplicates, ErrorCode, ServerMsg, Solo, VERSION, encode};
use common::net::{GUARD, Peer, config, lobby_shows, start};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;
use tokio::sync::Mutex;

/// The first error the server sends, and the connection closed after it.
async fn refusal(peer: &mut Peer) -> (ErrorCode, String) {
    let msg = peer.until(|m| matches!(m, ServerMsg::Error { .. })).await;
    let ServerMsg::Error { code, message, .. } = msg else {
        unreachable!()
    };
    while peer.recv().await.is_some() {}
    (code, message)
}

/// A `hello` as `name` into `room`, solo as `solo` says.
fn hello_in(name: &str, room: &str, solo: Option<Solo>) -> ClientMsg {
    ClientMsg::Hello {
        version: VERSION,
        name: name.into(),
        room: Some(room.into()),
        password: None,
        token: None,
        solo,
    }
}

/// A client connecting, saying hello and leaving as fast as it can
/// is refused past its address's rate, and the players in the room stay.
#[tokio::test]
async fn churn_from_one_address_is_capped_and_the_players_stay() {
    let mut config = config(Duplicates::Cancel, None);
    config.limits.connects_per_sec = 1.0;
    let (addr, _stop) = start(config).await;
    let (mut ann, _) = Peer::join(addr, "ann", None).await;
    let (mut bob, _) = Peer::join(addr, "bob", None).await;
    let mut refused = 0;
    for i in 0..50 {
        let mut eve = Peer::connect(addr).await;
        eve.hello(&format!("eve{i}"), None, None).await;
        eve.send(&ClientMsg::Ready).await;
        loop {
            match eve.recv().await {
                Some(ServerMsg::Welcome { .. }) | None => break,
                Some(ServerMsg::Error { code, message, .. }) => {
                    assert_eq!(code, ErrorCode::ServerFull, "{message}");
                    assert_contains(&message, "from your address");
                    refused += 1;
                    break;
                }
                Some(_) => {}
            }
        }
    }
    // A burst of 4 at 1 a second: all but a few of 50 are refused.
    assert!(refused >= 40, "{refused} of 50 refused");
    for peer in [&mut ann, &mut bob] {
        peer.send(&ClientMsg::Ping).await;
        peer.until(|m| matches!(m, ServerMsg::Pong)).await;
    }
    ann.send(&ClientMsg::Ready).await;
    let lobby = ann
        .until(|m| lobby_shows(m, "ann", true) && lobby_shows(m, "bob", true))
        .await;
    assert!(matches!(lobby, ServerMsg::Lobby { ref players, .. } if players.len() == 2));
}

/// Far too many messages is a fatal error, so the official client
/// ends instead of rejoining and flooding again.
#[tokio::test]
async fn a_flood_ends_with_a_fatal_error() {
    let (addr, _stop) = start(config(Duplicates::Cancel, None)).await;
    let (mut eve, _) = Peer::join(addr, "eve", None).await;
    let flood: String = (0..300).map(|_| encode(&ClientMsg::Ping)).collect();
    eve.send_raw(flood.as_bytes()).await;
    let mut rate_limited = 0;
    let last = loop {
        match eve.recv().await {
            Some(ServerMsg::Error {
                code: ErrorCode::RateLimited,
                ..
            }) => rate_limited += 1,
            Some(ServerMsg::Error { code, .. }) => break code,
            Some(_) => {}
            None => panic!("closed without a word"),
        }
    };
    assert_eq!(last, ErrorCode::TooManyMessages);
    assert!(last.is_fatal());
    assert!(rate_limited >= 100, "{rate_limited}");
}

/// `boggle join` with 300 words on its input stays under the rate
/// limit: every word is judged, `done` ends the round, nothing is refused.
/// The words are all read before the round starts, more than the link's
/// queue holds (256): none of them, and not `done`, may be dropped.
#[tokio::test]
async fn the_line_client_paces_itself_under_the_rate_limit() {
    let (addr, _stop) = start(config(Duplicates::Cancel, None)).await;
    let (mut bob, _) = Peer::join(addr, "bob", None).await;
    bob.send(&ClientMsg::Ready).await;
    let words: String = ["eat", "bat", "nag", "zzz"]
        .iter()
        .cycle()
        .take(300)
        .map(|w| format!("{w}\n"))
        .collect();
    let opts = JoinOptions {
        addr: addr.to_string(),
        name: "ann".into(),
        ..JoinOptions::default()
    };
    let ann = tokio::spawn(async move {
        let mut out = Vec::new();
        let played = run_lines(&opts, words.as_bytes(), &mut out).await;
        (
            played.map_err(|e| e.to_string()),
            String::from_utf8_lossy(&out).into_owned(),
        )
    });
    bob.until(|m| matches!(m, ServerMsg::RoundStart { .. }))
        .await;
    bob.send(&ClientMsg::Done).await;
    let (played, out) = tokio::time::timeout(Duration::from_secs(60), ann)
        .await
        .expect("the round ends when ann is done")
        .expect("ann's task");
    assert_eq!(played, Ok(()), "{out}");
    let verdicts = out
        .lines()
        .filter(|l| {
            l.starts_with("EAT: ")
                || l.starts_with("BAT: ")
                || l.starts_with("NAG: ")
                || l.starts_with("ZZZ: ")
        })
        .count();
    assert_eq!(verdicts, 300, "{out}");
    assert!(!out.contains("messages a second"), "{out}");
    assert_contains(&out, "\nann: 3 points");
}

/// Wrong passwords, and wrong tokens, from one address are
/// throttled after a few.
#[tokio::test]
async fn password_and_token_guesses_are_throttled() {
    let (addr, _stop) = start(config(Duplicates::Cancel, Some("sesame"))).await;
    let mut wrong = 0;
    let mut throttled = 0;
    for i in 0..20 {
        let mut eve = Peer::connect(addr).await;
        eve.hello("eve", Some(&format!("guess{i}")), None).await;
        let (code, message) = refusal(&mut eve).await;
        assert_eq!(code, ErrorCode::Password);
        if message.contains("too many") {
            throttled += 1;
        } else {
            wrong += 1;
        }
    }
    // 5 at once, then one every 2 s.
    assert!(
        wrong <= 10 && throttled >= 10,
        "{wrong} wrong, {throttled} throttled"
    );

    let (addr, _stop) = start(config(Duplicates::Cancel, None)).await;
    let (_ann, _) = Peer::join(addr, "ann", None).await;
    let mut throttled = 0;
    for i in 0..20 {
        let mut eve = Peer::connect(addr).await;
        eve.hello("ann", None, Some(format!("{i:032x}"))).await;
        let (code, message) = refusal(&mut eve).await;
        assert_eq!(code, ErrorCode::BadToken);
        throttled += usize::from(message.contains("too many"));
    }
    assert!(throttled >= 10, "{throttled} throttled");
}

/// Invisible characters are refused in names and room names, and
/// a room whose name looks like another's is that room.
#[tokio::test]
async fn invisible_names_are_refused_and_look_alike_rooms_are_one() {
    let (addr, _stop) = start(config(Duplicates::Cancel, None)).await;
    let mut eve = Peer::connect(addr).await;
    eve.hello("ann\u{AD}", None, None).await;
    assert_eq!(refusal(&mut eve).await.0, ErrorCode::BadName);
    let mut eve = Peer::connect(addr).await;
    eve.send(&hello_in("eve", "main\u{AD}", None)).await;
    assert_eq!(refusal(&mut eve).await.0, ErrorCode::BadRoom);
    let (mut ann, _) = Peer::join(addr, "ann", None).await;
    let mut bob = Peer::connect(addr).await;
    bob.send(&hello_in("bob", "MAIN", None)).await;
    let welcome = bob.until(|m| matches!(m, ServerMsg::Welcome { .. })).await;
    assert!(matches!(welcome, ServerMsg::Welcome { ref room, .. } if room == "main"));
    ann.until(|m| lobby_shows(m, "bob", true)).await;
}

/// Room names are compared as players' names are (the look-alike key): a
/// name that passes for a room's name is that room, whichever of the pair
/// came first, so no one opens a look-alike beside a class's room.
#[tokio::test]
async fn rooms_whose_names_pass_for_each_other_are_one_room() {
    let (addr, _stop) = start(config(Duplicates::Cancel, None)).await;
    let pairs = [
        ("Olive", "0live"),
        ("Ian", "lan"),
        ("Bill", "BiII"),
        ("AI", "Al"),
        ("Main", "Ma\u{ed}n"),
        ("lan", "IAN"),
    ];
    for (first, second) in pairs {
        let mut sitting = Vec::new();
        for (name, room) in [("ann", first), ("bob", second)] {
            let mut peer = Peer::connect(addr).await;
            peer.send(&hello_in(name, room, None)).await;
            let welcome = peer.until(|m| matches!(m, ServerMsg::Welcome { .. })).await;
            let ServerMsg::Welcome { room: joined, .. } = welcome else {
                unreachable!()
            };
            assert_eq!(joined, first, "{name} asked for {room:?}");
            sitting.push(peer);
        }
        let ann = &mut sitting[0];
        ann.until(|m| lobby_shows(m, "bob", true)).await;
    }
}

/// Pinging before `hello` does not keep a connection past the
/// time to say hello.
#[tokio::test]
#[expect(
    clippy::disallowed_methods,
    reason = "a poll: a pause between looks, in a loop bounded by a deadline"
)]
async fn pings_before_hello_do_not_keep_a_connection_open() {
    let mut config = config(Duplicates::Cancel, None);
    config.limits.hello_timeout = Duration::from_secs(1);
    let (addr, _stop) = start(config).await;
    let mut eve = Peer::connect(addr).await;
    let pinged = tokio::time::timeout(GUARD, async {
        loop {
            eve.send(&ClientMsg::Ping).await;
            tokio::time::sleep(Duration::from_millis(100)).await;
            let mut line = String::new();
            // Pongs, then the error, then the end.
            while let Ok(Ok(n)) =
                tokio::time::timeout(Duration::from_millis(1), eve.reader.read_line(&mut line))
                    .await
            {
                if n == 0 || line.contains("\"idle\"") {
                    return line;
                }
                line.clear();
            }
        }
    })
    .await
    .expect("closed within the guard");
    assert_contains(&pinged, "no hello within 1 seconds");
}

/// The line client, joining as ann with `opts` and typing nothing, gives
/// up (within the guard): its error, which `never` says why it must be.
async fn ann_gives_up(opts: JoinOptions, never: &str) -> String {
    let opts = JoinOptions {
        name: "ann".into(),
        ..opts
    };
    let mut out = Vec::new();
    let played = tokio::time::timeout(GUARD, run_lines(&opts, &b""[..], &mut out))
        .await
        .expect("gives up within the guard");
    played.expect_err(never).to_string()
}

/// A server that takes the connection and never answers.
#[tokio::test]
async fn join_gives_up_on_a_server_that_never_answers() {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("binds");
    let addr = listener.local_addr().expect("address");
    let held = Arc::new(Mutex::new(Vec::new()));
    let keep = Arc::clone(&held);
    let silent = tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            keep.lock().await.push(stream);
        }
    });
    let opts = JoinOptions {
        addr: addr.to_string(),
        welcome_within: Duration::from_millis(500),
        ..JoinOptions::default()
    };
    let e = ann_gives_up(opts, "no server there").await;
    assert_eq!(e, "the server did not answer within 1 s");
    silent.abort();
}

/// A server that welcomes and drops, again and again: the client
/// gives up within the time it allows a rejoin, not never.
#[tokio::test]
async fn join_gives_up_on_a_server_that_welcomes_and_drops() {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("binds");
    let addr = listener.local_addr().expect("address");
    let connections = Arc::new(Mutex::new(0usize));
    let count = Arc::clone(&connections);
    let fickle = tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            *count.lock().await += 1;
            let (read, mut write) = stream.into_split();
            let mut hello = String::new();
            let _ = BufReader::new(read).read_line(&mut hello).await;
            let welcome = ServerMsg::Welcome {
                version: VERSION,
                room: "main".into(),
                name: "ann".into(),
                token: "t".into(),
                rules: "classic".into(),
                moves: Default::default(),
                rounds: None,
                min_players: 2,
                duplicates: Duplicates::Cancel,
            };
            let _ = write.write_all(encode(&welcome).as_bytes()).await;
        }
    });
    let opts = JoinOptions {
        addr: addr.to_string(),
        rejoin_for: Duration::from_secs(2),
        ..JoinOptions::default()
    };
    let e = ann_gives_up(opts, "the server never keeps it").await;
    assert_contains(&e, "could not rejoin within 2 s");
    let tries = *connections.lock().await;
    assert!((2..=20).contains(&tries), "{tries} connections");
    fickle.abort();
}

/// A `hello` into `room` (today's board with `daily`), and the first answer:
/// `Ok` for a welcome, the code of a refusal, or `ServerFull` for a
/// connection closed unheard.
async fn enter(peer: &mut Peer, name: &str, room: &str, daily: bool) -> Result<(), ErrorCode> {
    let solo = daily.then(|| Solo {
        daily: true,
        ..Solo::default()
    });
    peer.send(&hello_in(name, room, solo)).await;
    match peer
        .until(|m| matches!(m, ServerMsg::Welcome { .. } | ServerMsg::Error { .. }))
        .await
    {
        ServerMsg::Welcome { .. } => Ok(()),
        ServerMsg::Error { code, .. } => Err(code),
        _ => unreachable!(),
    }
}

/// Whether a connection from `from` is let in: a ping is answered, or
/// the connection is refused.
async fn let_in(addr: std::net::SocketAddr, from: IpAddr) -> Result<Peer, ErrorCode> {
    let mut peer = Peer::connect_from(addr, from).await;
    peer.send(&ClientMsg::Ping).await;
    match peer.recv().await {
        Some(ServerMsg::Pong) => Ok(peer),
        Some(ServerMsg::Error { code, .. }) => Err(code),
        other => panic!("{other:?}"),
    }
}

/// Twenty addresses, each in a network of its own and each within its own
/// caps, make every room and open every connection they can; a newcomer
/// from another network still opens a room, joins an open one and plays
/// today's board, because the last tenth of each whole is kept for
/// networks holding almost nothing. (Without the shares the twenty held
/// all 100 rooms and all 400 connections, and the newcomer was refused.)
#[tokio::test]
async fn twenty_addresses_fill_what_they_can_and_a_newcomer_still_plays() {
    let mut config = config(Duplicates::Cancel, None);
    config.limits.max_connections = 400;
    config.limits.connections_per_address = 20;
    config.limits.max_rooms = 100;
    config.limits.rooms_per_address = 5;
    config.limits.connects_per_sec = 1000.0;
    config.limits.hello_timeout = Duration::from_secs(600);
    let (addr, _stop) = start(config).await;
    let attackers: Vec<IpAddr> = (1..=20).map(|i| IpAddr::from([127, i, 0, 1])).collect();
    let mut held = Vec::new();
    let mut rooms = 0;
    for (i, &from) in attackers.iter().enumerate() {
        for k in 0..10 {
            let Ok(mut peer) = let_in(addr, from).await else {
                break;
            };
            match enter(&mut peer, "eve", &format!("eve{i}-{k}"), false).await {
                Ok(()) => {
                    held.push(peer);
                    rooms += 1;
                }
                Err(code) => {
                    assert_eq!(code, ErrorCode::TooManyRooms);
                    break;
                }
            }
        }
    }
    for &from in &attackers {
        for _ in 0..30 {
            match let_in(addr, from).await {
                Ok(peer) => held.push(peer),
                Err(code) => {
                    assert_eq!(code, ErrorCode::ServerFull);
                    break;
                }
            }
        }
    }
    // 18 addresses make 5 rooms each, the first 90; the last two make 2
    // each of the 10 kept back. Then the connections: the first 360 go to
    // the first 18 addresses (the 18th gets 16), the last two, holding 2
    // each, take 2 more each of the 40 kept back.
    assert_eq!(rooms, 18 * 5 + 2 * 2);
    assert_eq!(held.len(), 360 + 2 * 2);
    let newcomer = IpAddr::from([127, 0, 0, 1]);
    let mut own = let_in(addr, newcomer).await.expect("a connection");
    assert_eq!(enter(&mut own, "ann", "ann's room", false).await, Ok(()));
    let mut open = let_in(addr, newcomer).await.expect("a connection");
    assert_eq!(enter(&mut open, "ann", "eve0-0", false).await, Ok(()));
    let mut today = let_in(addr, newcomer).await.expect("a connection");
    assert_eq!(enter(&mut today, "ann", "main", true).await, Ok(()));
}
