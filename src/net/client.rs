//! The client side of `boggle join`: the connection to a server and the line
//! mode for scripts and tests. Every string from the server passes through
//! [`clean`] before it is printed, so no byte from the network can drive the
//! terminal, whatever the server is.

use std::io::{self, Write};
use std::time::Duration;

use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

use super::protocol::{
    ClientMsg, LobbyPlayer, ServerMsg, VERSION, WordPoints, clean, decode_server, encode,
};
use super::server::{Line, read_line_capped};

/// Who joins where.
#[derive(Clone, Debug, Default)]
pub struct JoinOptions {
    /// The server, `HOST:PORT`.
    pub addr: String,
    /// The player's name.
    pub name: String,
    /// The room (default `main`).
    pub room: Option<String>,
    /// The server's password.
    pub password: Option<String>,
    /// A token from an earlier join, to take that seat back.
    pub token: Option<String>,
}

/// The longest line taken from a server: results of a big board are long,
/// but a server never gets to make the client hold unbounded memory.
const SERVER_LINE: usize = 4 << 20;

/// The next message from the server, read into `buf` (cancel-safe: a partly
/// read line stays there until the next call); the line mode and the full
/// screen read the server this one way.
pub(crate) async fn next_server_msg<R: AsyncBufRead + Unpin>(
    server: &mut R,
    buf: &mut Vec<u8>,
) -> io::Result<ServerMsg> {
    match read_line_capped(server, buf, SERVER_LINE).await? {
        Line::Read => {}
        Line::Eof => return Err(io::Error::other("the server closed the connection")),
        Line::TooLong => return Err(io::Error::other("a message from the server is too long")),
    }
    let decoded = decode_server(buf);
    buf.clear();
    decoded.map_err(|e| io::Error::other(format!("bad message from the server: {e}")))
}

/// The words queued before a round starts, at most (a script piping a huge file waits its turn).
const MAX_QUEUED: usize = 10_000;

/// The board as the line mode prints it: one character per face, row-major,
/// `q` for the Qu face, any other two-letter face in lower case, `-` for a blank.
pub fn board_line(faces: &[String]) -> String {
    faces
        .iter()
        .map(|face| match face.as_str() {
            "QU" => "q".to_string(),
            "" => "-".to_string(),
            f if f.len() == 1 => clean(f),
            f => clean(&f.to_ascii_lowercase()),
        })
        .collect()
}

/// Who is in the room: `lobby (2 needed): ann ready, bob waiting, cy away`.
pub fn lobby_line(players: &[LobbyPlayer], min_players: usize) -> String {
    let who: Vec<String> = players
        .iter()
        .map(|p| {
            let state = match (p.connected, p.ready) {
                (false, _) => "away",
                (true, true) => "ready",
                (true, false) => "waiting",
            };
            format!("{} {state}", clean(&p.name))
        })
        .collect();
    format!("lobby ({min_players} needed): {}", who.join(", "))
}

/// `N point` or `N points`.
fn points(n: u32) -> String {
    if n == 1 {
        "1 point".to_string()
    } else {
        format!("{n} points")
    }
}

fn word_list(words: &[WordPoints]) -> String {
    let list: Vec<String> = words
        .iter()
        .map(|w| format!("{} +{}", clean(&w.word), w.points))
        .collect();
    list.join(", ")
}

/// The results of a round as lines: every player on a line beginning with
/// their name and holding their round's `N point(s)`.
pub fn results_lines(msg: &ServerMsg) -> Vec<String> {
    let ServerMsg::Results {
        round,
        last,
        players,
        shared,
        missed,
        missed_total,
        ..
    } = msg
    else {
        return Vec::new();
    };
    let mut lines = vec![format!(
        "results of round {round}{}:",
        if *last { " (last round)" } else { "" }
    )];
    for player in players {
        let kept: Vec<String> = player
            .words
            .iter()
            .filter(|w| !w.cancelled)
            .map(|w| format!("{} +{}", clean(&w.word), w.points))
            .collect();
        let cancelled: Vec<String> = player
            .words
            .iter()
            .filter(|w| w.cancelled)
            .map(|w| clean(&w.word))
            .collect();
        let mut line = format!(
            "{}: {} (total {})",
            clean(&player.name),
            points(player.score),
            player.total
        );
        if !kept.is_empty() {
            line.push_str(&format!("; words: {}", kept.join(", ")));
        }
        if !cancelled.is_empty() {
            line.push_str(&format!("; cancelled: {}", cancelled.join(", ")));
        }
        lines.push(line);
    }
    for word in shared {
        let who: Vec<String> = word.players.iter().map(|p| clean(p)).collect();
        lines.push(format!(
            "  shared {}: {}",
            clean(&word.word),
            who.join(", ")
        ));
    }
    if *missed_total > 0 {
        lines.push(format!(
            "  missed {} words; the best: {}",
            missed_total,
            word_list(missed)
        ));
    }
    lines
}

/// Plays in line mode: words from `input` (one per line), verdicts and
/// results to `out`. Returns after the room's last round, or after the round
/// in which `input` ended; an error if the server refuses or goes away.
pub async fn run_lines<I, W>(opts: &JoinOptions, input: I, out: &mut W) -> io::Result<()>
where
    I: AsyncBufRead + Unpin,
    W: Write,
{
    let stream = TcpStream::connect(&opts.addr).await?;
    let _ = stream.set_nodelay(true);
    let (read_half, mut write_half) = stream.into_split();
    let mut server = BufReader::new(read_half);
    let hello = ClientMsg::Hello {
        version: VERSION,
        name: opts.name.clone(),
        room: opts.room.clone(),
        password: opts.password.clone(),
        token: opts.token.clone(),
    };
    write_half.write_all(encode(&hello).as_bytes()).await?;
    // Line-mode players are ready on joining.
    write_half
        .write_all(encode(&ClientMsg::Ready).as_bytes())
        .await?;
    let mut input_lines = input.lines();
    let mut input_done = false;
    let mut in_round = false;
    let mut queued: Vec<String> = Vec::new();
    let mut ping = tokio::time::interval(Duration::from_secs(30));
    ping.tick().await;
    let mut buf = Vec::new();
    loop {
        tokio::select! {
            // Cancel-safe: a partly read line stays in `buf` for the next turn.
            msg = next_server_msg(&mut server, &mut buf) => {
                let msg = msg?;
                let mut send = Vec::new();
                match &msg {
                    ServerMsg::Welcome { room, name, token, .. } => {
                        writeln!(out, "joined room {} as {}", clean(room), clean(name))?;
                        // The token lets a killed client take its seat back with --token.
                        eprintln!("token: {}", clean(token));
                    }
                    ServerMsg::Lobby { players, min_players, .. } => {
                        if !in_round {
                            writeln!(out, "{}", lobby_line(players, *min_players))?;
                        }
                    }
                    ServerMsg::Pong => {}
                    ServerMsg::RoundStart { round, board, remaining_ms, found, .. } => {
                        writeln!(out, "round {round}: {} seconds", remaining_ms.div_ceil(1000))?;
                        writeln!(out, "board: {}", board_line(board))?;
                        if !found.is_empty() {
                            writeln!(out, "found before: {}", word_list(found))?;
                        }
                        in_round = true;
                        send.extend(queued.drain(..).map(|word| ClientMsg::Word { word }));
                        if input_done {
                            send.push(ClientMsg::Done);
                        }
                    }
                    ServerMsg::Verdict { word, accepted, points, reason, .. } => {
                        if *accepted {
                            writeln!(out, "{}: +{points}", clean(word))?;
                        } else {
                            writeln!(out, "{}: {}", clean(word), clean(reason))?;
                        }
                    }
                    ServerMsg::Results { last, .. } => {
                        in_round = false;
                        for line in results_lines(&msg) {
                            writeln!(out, "{line}")?;
                        }
                        if *last || input_done {
                            out.flush()?;
                            return Ok(());
                        }
                        send.push(ClientMsg::Ready);
                    }
                    ServerMsg::Error { code, message } => {
                        if code.is_fatal() {
                            return Err(io::Error::other(format!("the server refused: {}", clean(message))));
                        }
                        writeln!(out, "error: {}", clean(message))?;
                    }
                    ServerMsg::Bye { reason } => {
                        return Err(io::Error::other(format!("the server closed: {}", clean(reason))));
                    }
                }
                out.flush()?;
                for msg in send {
                    write_half.write_all(encode(&msg).as_bytes()).await?;
                }
            }
            line = input_lines.next_line(), if !input_done => {
                match line? {
                    None => {
                        input_done = true;
                        if in_round {
                            write_half.write_all(encode(&ClientMsg::Done).as_bytes()).await?;
                        }
                    }
                    Some(line) => {
                        let word = line.trim().to_string();
                        if word.is_empty() {
                            continue;
                        }
                        if in_round {
                            write_half.write_all(encode(&ClientMsg::Word { word }).as_bytes()).await?;
                        } else if queued.len() < MAX_QUEUED {
                            queued.push(word);
                        }
                    }
                }
            }
            _ = ping.tick() => {
                write_half.write_all(encode(&ClientMsg::Ping).as_bytes()).await?;
            }
        }
    }
}
