//! The web side against a client that abuses it: the metrics asked for
//! from elsewhere or through a proxy, a WebSocket message that never ends,
//! and every place held by sockets that never finish a request; spoken by
//! hand as the parent module's tests are.

use super::*;

/// The metrics are the host's: a peer that is not loopback, or a request
/// a proxy passed on (any forwarded header), is refused with a sentence,
/// and a loopback peer asking itself is answered.
#[tokio::test]
async fn metrics_are_served_only_to_this_machine_without_a_proxy() {
    let headers = |pairs: &[(&'static str, &'static str)]| {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, HeaderValue::from_static(value));
        }
        map
    };
    let loopback: std::net::IpAddr = "127.0.0.1".parse().expect("address");
    assert!(for_the_host(loopback, &headers(&[])));
    assert!(for_the_host("::1".parse().expect("address"), &headers(&[])));
    assert!(for_the_host(
        "::ffff:127.0.0.1".parse().expect("address"),
        &headers(&[])
    ));
    assert!(!for_the_host(
        "192.0.2.7".parse().expect("address"),
        &headers(&[])
    ));
    assert!(!for_the_host(
        "2001:db8::1".parse().expect("address"),
        &headers(&[])
    ));
    for forwarded in [
        ("x-forwarded-for", "203.0.113.9"),
        ("forwarded", "for=203.0.113.9"),
        ("x-real-ip", "203.0.113.9"),
    ] {
        assert!(
            !for_the_host(loopback, &headers(&[forwarded])),
            "{forwarded:?}"
        );
    }

    let options = Options {
        monitor: Some(crate::monitor::install()),
        ..Options::default()
    };
    let (_, addr, _stop, _hurry) = start_with(config(None, Limits::default()), options).await;
    assert_eq!(get(addr, "/metrics").await.status, 200);
    for header in ["X-Forwarded-For: 203.0.113.9", "Forwarded: for=203.0.113.9"] {
        let request = format!(
            "GET /metrics HTTP/1.1\r\nHost: {addr}\r\n{header}\r\nConnection: close\r\n\r\n"
        );
        let (reply, _) = http(addr, request).await;
        assert_eq!(
            (reply.status, reply.body.as_str()),
            (
                403,
                "the metrics are served only to this machine, not through a proxy\n"
            ),
            "{header}"
        );
    }
}

/// Opens a WebSocket, joins, begins a text message and sends empty
/// continuation frames, each 10,000 followed by `between`, until the
/// server cuts it or 64 MiB went: what the client heard, and the bytes sent.
async fn endless_fragments(http_addr: SocketAddr, between: Vec<u8>) -> (String, usize) {
    let mut ws = Ws::open(http_addr).await;
    ws.send(&hello("eve")).await;
    ws.until(|m| matches!(m, ServerMsg::Welcome { .. })).await;
    let (mut read, mut write) = ws.stream.into_inner().into_split();
    let sender = tokio::spawn(async move {
        // A text frame, not final, empty; then empty continuations, not final.
        let mut first = frame(1, b"");
        first[0] &= 0x7f;
        let mut more = frame(0, b"");
        more[0] &= 0x7f;
        if write.write_all(&first).await.is_err() {
            return 0;
        }
        let mut chunk = more.repeat(10_000);
        chunk.extend_from_slice(&between);
        let mut sent = first.len();
        while sent < 64 << 20 {
            if write.write_all(&chunk).await.is_err() {
                return sent;
            }
            sent += chunk.len();
        }
        sent
    });
    let mut heard = Vec::new();
    let read = tokio::time::timeout(GUARD, read.read_to_end(&mut heard)).await;
    assert!(read.is_ok(), "the connection was never cut");
    let sent = sender.await.expect("the sender");
    (String::from_utf8_lossy(&heard).into_owned(), sent)
}

/// A message begun and never ended, one empty continuation frame after
/// another, is cut once its frames pass [`PER_MESSAGE`] bytes: the client
/// hears `too_long` and the connection closes, long before the 64 MiB the
/// client would send. A ping among the fragments (a control frame may come
/// between them) renews nothing. (Counted by whole messages, the fragments
/// never counted at all and held a core until `--idle`; with the allowance
/// renewed by any frame, a ping every 60 kB kept it going until the pings
/// alone passed the rate.)
#[tokio::test]
async fn endless_empty_fragments_are_cut_as_too_long() {
    let (_, http_addr, _stop) = start(config(None, Limits::default())).await;
    for between in [Vec::new(), frame(9, b"p")] {
        let (heard, sent) = endless_fragments(http_addr, between).await;
        assert!(heard.contains(r#""code":"too_long""#), "{heard}");
        assert!(sent < 64 << 20, "every byte was taken: {sent}");
    }
}

/// Every place held by sockets from one address that never finish a
/// request head: a newcomer from another address is served at once, and
/// the oldest of those sockets is closed to make room for it.
#[tokio::test]
async fn slow_sockets_holding_every_place_give_one_up_to_a_newcomer() {
    let options = Options {
        places: Some(6),
        ..Options::default()
    };
    let (_, addr, _stop, _hurry) = start_with(config(None, Limits::default()), options).await;
    let mut slow = Vec::new();
    for _ in 0..6 {
        let socket = tokio::net::TcpSocket::new_v4().expect("socket");
        socket
            .bind("127.0.0.10:0".parse().expect("address"))
            .expect("binds");
        let mut stream = socket.connect(addr).await.expect("connects");
        let head = format!("GET / HTTP/1.1\r\nHost: {addr}\r\nX-Slow: a");
        stream.write_all(head.as_bytes()).await.expect("writes");
        slow.push(stream);
    }
    let page = tokio::time::timeout(GUARD, get(addr, "/"))
        .await
        .expect("served before the guard");
    assert_eq!(page.status, 200);
    // Served at once, not when the slow sockets' head time ran out: the
    // newest of them is still open.
    let mut byte = [0u8; 1];
    let newest = tokio::time::timeout(Duration::from_millis(50), slow[5].read(&mut byte)).await;
    assert!(
        newest.is_err(),
        "the newest slow socket was closed: {newest:?}"
    );
    let read = tokio::time::timeout(GUARD, slow[0].read(&mut byte))
        .await
        .expect("the oldest slow socket is closed before the guard");
    assert!(matches!(read, Ok(0) | Err(_)), "{read:?}");
}
