//! The client side of `boggle join`: why it ends ([`JoinError`]), the line
//! mode for scripts and tests ([`run_lines`]), and the text both clients
//! show (the full screen itself is the `boggle` binary's `src/net/`). Who
//! joins where and the connection itself, kept through drops, are
//! [`crate::link`]. Every string from the server passes through [`clean`]
//! before it is printed, so no byte from the network can drive the
//! terminal, whatever the server is.

use std::collections::VecDeque;
use std::fmt;
use std::io::{self, Write};

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

use crate::link::{JoinOptions, Link, LinkError, LinkEvent};
use crate::seat::SeatFile;
use boggle_game::text::plural;
use boggle_protocol::names::clean;
use boggle_protocol::{ClientMsg, ErrorCode, LobbyPlayer, ServerMsg, WordPoints};

/// Why `boggle join` ended, other than the player leaving or the room's
/// last round being over. The server's words pass through [`clean`]: no
/// byte of theirs drives the terminal.
#[derive(Debug, thiserror::Error)]
pub enum JoinError {
    /// The connection to the server failed, could not be got back, or
    /// carried something that is not a message.
    #[error(transparent)]
    Link(#[from] LinkError),
    /// The server refused the client: an `error` of a fatal `code` (see
    /// `docs/protocol.md`), with the server's sentence for the player.
    #[error("the server refused: {}", clean(message))]
    Refused {
        /// Why, as the protocol names it.
        code: ErrorCode,
        /// What the server said, as it said it.
        message: String,
    },
    /// The server said goodbye (it is shutting down).
    #[error("the server closed: {}", clean(reason))]
    Closed {
        /// What the server said, as it said it.
        reason: String,
    },
    /// Another connection took this seat with its token (`replaced`): this
    /// client ends and does not rejoin, or the two would take the seat from
    /// each other in turn.
    #[error(
        "another connection took this seat with its token (a boggle join elsewhere, or a browser): this one stops and does not rejoin"
    )]
    Replaced,
    /// Another `boggle join` on this machine holds this seat (its seat file's lock).
    #[error(transparent)]
    SeatInUse(crate::seat::SeatError),
    /// Reading the words to play failed (line mode).
    #[error("cannot read the input")]
    Input(#[source] io::Error),
    /// Writing verdicts and results failed (line mode).
    #[error("cannot write the output")]
    Output(#[source] io::Error),
}

impl JoinError {
    /// The end a fatal `error` or a `bye` from the server means, if `msg` is one.
    pub fn from_server(msg: &ServerMsg) -> Option<JoinError> {
        match msg {
            ServerMsg::Error {
                code: ErrorCode::Replaced,
                ..
            } => Some(JoinError::Replaced),
            ServerMsg::Error { code, message, .. } if code.is_fatal() => Some(JoinError::Refused {
                code: *code,
                message: message.clone(),
            }),
            ServerMsg::Bye { reason } => Some(JoinError::Closed {
                reason: reason.clone(),
            }),
            _ => None,
        }
    }
}

/// The command that takes this seat back: `boggle join ADDR --name NAME
/// --room ROOM --token TOKEN`, each value quoted for a POSIX shell where it
/// needs it (and [`clean`]ed: the token comes from the server).
pub fn rejoin_command(opts: &JoinOptions, token: &str) -> String {
    let mut words = vec![
        "boggle join".to_string(),
        shell_word(&opts.addr),
        "--name".into(),
        shell_word(&opts.name),
    ];
    if let Some(room) = &opts.room {
        words.extend(["--room".into(), shell_word(room)]);
    }
    words.extend(["--token".into(), shell_word(&clean(token))]);
    words.join(" ")
}

/// `text` as one word for a POSIX shell: as it is when it is plain, else in single quotes.
fn shell_word(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.:/@%+=,".contains(c));
    if plain {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// The words read ahead of the link, at most (a script piping a huge file waits its turn).
const MAX_QUEUED: usize = 10_000;

/// The board as the line mode prints it: a row a line, the faces
/// [`clean`]ed and spaced (`Qu` and other two-letter faces take two
/// columns, a blank `-`), so it reads as the board on the table.
pub(crate) fn board_grid(faces: &[String], rows: usize, cols: usize) -> Vec<String> {
    let face = |f: &String| match f.as_str() {
        "" => "- ".to_string(),
        "QU" => "Qu".to_string(),
        f if f.chars().count() == 1 => format!("{} ", clean(f)),
        f => clean(&f.to_ascii_lowercase()),
    };
    let cols = cols.max(1);
    faces
        .chunks(cols)
        .take(rows.max(1))
        .map(|row| {
            row.iter()
                .map(face)
                .collect::<Vec<_>>()
                .join(" ")
                .trim_end()
                .to_string()
        })
        .collect()
}

/// Who is in the room: `lobby (2 needed): ann ready, bob waiting, cy away`,
/// and, while too few are connected for a round, how many more it waits for.
pub(crate) fn lobby_line(players: &[LobbyPlayer], min_players: usize) -> String {
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
    let mut line = format!("lobby ({min_players} needed): {}", who.join(", "));
    if let Some(wait) = waiting_for(players, min_players) {
        line.push_str("; ");
        line.push_str(&wait);
    }
    line
}

/// `waiting for 1 more player to join` while fewer than `min_players` are connected.
pub fn waiting_for(players: &[LobbyPlayer], min_players: usize) -> Option<String> {
    let connected = players.iter().filter(|p| p.connected).count();
    let more = min_players.saturating_sub(connected);
    (more > 0).then(|| {
        format!(
            "waiting for {more} more {} to join",
            plural(more, "player", "players")
        )
    })
}

/// `N point` or `N points`.
pub fn points(n: u32) -> String {
    format!("{n} {}", plural(n, "point", "points"))
}

/// `WORD +N, ...`.
fn word_list(words: &[WordPoints]) -> String {
    let list: Vec<String> = words
        .iter()
        .map(|w| format!("{} +{}", clean(&w.word), w.points))
        .collect();
    list.join(", ")
}

/// The results of a round as lines: every player on a line beginning with
/// their name and holding their round's `N point(s)`.
pub(crate) fn results_lines(msg: &ServerMsg) -> Vec<String> {
    Results::from_msg(msg).map_or_else(Vec::new, |results| results.lines())
}

/// A round's results as both clients show them, every string from the
/// server [`clean`]ed: the line mode puts each player on one line, the full
/// screen lays the entries out to its width.
#[derive(Debug)]
pub struct Results {
    pub(crate) round: u32,
    pub(crate) last: bool,
    pub players: Vec<PlayerLines>,
    /// `and 979 more players`, when not all are listed.
    pub players_more: Option<String>,
    /// Each shared word and who found it (`bob, ann and 3 more`).
    pub shared: Vec<(String, String)>,
    /// `and 12 more shared words`, when not all are listed.
    pub shared_more: Option<String>,
    /// `missed 25 words; the best` when any were.
    pub missed: Option<String>,
    /// The best missed words, `NAG +1` each.
    pub missed_words: Vec<String>,
}

/// One player's part of [`Results`].
#[derive(Debug)]
pub struct PlayerLines {
    pub(crate) name: String,
    /// `place 523 of 1000`, for the player's own entry below the best ones.
    pub(crate) place: Option<String>,
    pub(crate) score: u32,
    pub(crate) total: u32,
    /// `WORD +N` for each word that scored.
    pub kept: Vec<String>,
    /// Each word cancelled.
    pub cancelled: Vec<String>,
    /// `and 40 more words`, when not all are listed.
    pub more: Option<String>,
}

impl PlayerLines {
    /// `ann: 3 points (total 5)`, or `ann, place 523 of 1000: ...`.
    pub fn heading(&self) -> String {
        let place = self
            .place
            .as_ref()
            .map(|place| format!(", {place}"))
            .unwrap_or_default();
        format!(
            "{}{place}: {} (total {})",
            self.name,
            points(self.score),
            self.total
        )
    }
}

impl Results {
    pub fn from_msg(msg: &ServerMsg) -> Option<Results> {
        let ServerMsg::Results {
            round,
            last,
            players,
            shared,
            players_total,
            shared_total,
            missed,
            missed_total,
            ..
        } = msg
        else {
            return None;
        };
        let players_more = players_total.saturating_sub(players.len());
        let players = players
            .iter()
            .enumerate()
            .map(|(index, player)| {
                let listed = player.words.len();
                let more = player.words_total.saturating_sub(listed);
                PlayerLines {
                    name: clean(&player.name),
                    // The player's own entry, below the best ones listed.
                    place: (player.place > index + 1)
                        .then(|| format!("place {} of {players_total}", player.place)),
                    score: player.score,
                    total: player.total,
                    kept: player
                        .words
                        .iter()
                        .filter(|w| !w.cancelled)
                        .map(|w| format!("{} +{}", clean(&w.word), w.points))
                        .collect(),
                    cancelled: player
                        .words
                        .iter()
                        .filter(|w| w.cancelled)
                        .map(|w| clean(&w.word))
                        .collect(),
                    more: (more > 0)
                        .then(|| format!("and {more} more {}", plural(more, "word", "words"))),
                }
            })
            .collect();
        let shared_list = shared
            .iter()
            .map(|word| {
                let mut who = word
                    .players
                    .iter()
                    .map(|p| clean(p))
                    .collect::<Vec<_>>()
                    .join(", ");
                let more = word.count.saturating_sub(word.players.len());
                if more > 0 {
                    who.push_str(&format!(" and {more} more"));
                }
                (clean(&word.word), who)
            })
            .collect();
        let shared_more = shared_total.saturating_sub(shared.len());
        Some(Results {
            round: *round,
            last: *last,
            players,
            players_more: (players_more > 0).then(|| {
                format!(
                    "and {players_more} more {}",
                    plural(players_more, "player", "players")
                )
            }),
            shared: shared_list,
            shared_more: (shared_more > 0).then(|| {
                format!(
                    "and {shared_more} more shared {}",
                    plural(shared_more, "word", "words")
                )
            }),
            missed: (*missed_total > 0).then(|| {
                format!(
                    "missed {missed_total} {}; the best",
                    plural(*missed_total, "word", "words")
                )
            }),
            missed_words: missed
                .iter()
                .map(|w| format!("{} +{}", clean(&w.word), w.points))
                .collect(),
        })
    }

    /// The words listed, in their order: each player's (scored, then
    /// cancelled), the shared ones, the best missed. The full screen's Left
    /// and Right choose among them.
    pub fn words(&self) -> Vec<String> {
        // Each entry begins with its word (`EAT +1`).
        let word = |entry: &String| entry.split(' ').next().unwrap_or_default().to_string();
        let mut words = Vec::new();
        for player in &self.players {
            words.extend(player.kept.iter().map(word));
            words.extend(player.cancelled.iter().cloned());
        }
        words.extend(self.shared.iter().map(|(w, _)| w.clone()));
        words.extend(self.missed_words.iter().map(word));
        words
    }

    /// The results as lines: every player on a line beginning with their
    /// name and holding their round's `N point(s)`.
    pub fn lines(&self) -> Vec<String> {
        let results = self;
        let mut lines = vec![results.heading()];
        for player in &results.players {
            let mut line = player.heading();
            if !player.kept.is_empty() {
                line.push_str(&format!("; words: {}", player.kept.join(", ")));
            }
            if !player.cancelled.is_empty() {
                line.push_str(&format!("; cancelled: {}", player.cancelled.join(", ")));
            }
            if let Some(more) = &player.more {
                line.push_str(&format!("; {more}"));
            }
            lines.push(line);
        }
        if let Some(more) = &results.players_more {
            lines.push(format!("  {more}"));
        }
        for (word, who) in &results.shared {
            lines.push(format!("  shared {word}: {who}"));
        }
        if let Some(more) = &results.shared_more {
            lines.push(format!("  {more}"));
        }
        if let Some(missed) = &results.missed {
            lines.push(format!("  {}: {}", missed, results.missed_words.join(", ")));
        }
        lines
    }

    /// `results of round 1:` (and `(last round)`).
    pub fn heading(&self) -> String {
        format!(
            "results of round {}{}:",
            self.round,
            if self.last { " (last round)" } else { "" }
        )
    }
}

/// Standard output in line mode: `writeln!` into it fails with [`JoinError::Output`].
struct Output<'a, W>(&'a mut W);

impl<W: Write> Output<'_, W> {
    fn write_fmt(&mut self, args: fmt::Arguments<'_>) -> Result<(), JoinError> {
        self.0.write_fmt(args).map_err(JoinError::Output)
    }

    fn flush(&mut self) -> Result<(), JoinError> {
        self.0.flush().map_err(JoinError::Output)
    }
}

/// Writes a line about the connection (lost, back, the seat's token) to
/// standard error through its `Write`. A closed standard error loses the
/// note and nothing else (`eprintln!` would panic): the game goes on in `out`.
fn note(args: fmt::Arguments<'_>) {
    let _ = writeln!(io::stderr().lock(), "{args}");
}

/// Plays in line mode: words from `input` (one per line), verdicts and
/// results to `out`, what happens to the connection on standard error.
/// Returns after the room's last round, after the round in which `input`
/// ended, or on the server's goodbye; an error if the server refuses or goes away and
/// cannot be rejoined within [`JoinOptions::rejoin_for`].
pub async fn run_lines<I, W>(opts: &JoinOptions, input: I, out: &mut W) -> Result<(), JoinError>
where
    I: AsyncBufRead + Unpin,
    W: Write,
{
    let mut link = Link::connect(opts).await?;
    let to_server = link.sender();
    let mut input_lines = input.lines();
    let mut lines = LineMode {
        out: Output(out),
        seat: opts.seat.as_ref(),
        joined: false,
        token_kept: String::new(),
        in_round: false,
        words: Words::default(),
    };
    loop {
        tokio::select! {
            event = link.next() => {
                let Some(msg) = said(event)? else { continue };
                if lines.message(&msg, &link)? == Flow::Over {
                    return Ok(());
                }
            }
            // In a round, the next word (or, after the last, `done`) goes
            // out as soon as the link has room for it.
            permit = to_server.reserve(), if lines.in_round && lines.words.to_send() => {
                if let Ok(permit) = permit {
                    permit.send(lines.words.next_msg());
                }
            }
            // Input waits while the backlog is full, so a long file is read
            // no faster than the server takes it.
            line = input_lines.next_line(), if lines.words.reading() => {
                lines.words.read(line.map_err(JoinError::Input)?);
            }
        }
    }
}

/// The server's message in a link event; what happened to the connection
/// is said on standard error, and a link that gave up ends the game.
fn said(event: LinkEvent) -> Result<Option<ServerMsg>, JoinError> {
    match event {
        LinkEvent::Msg(msg) => return Ok(Some(msg)),
        LinkEvent::Lost { why, within } => note(format_args!(
            "connection lost ({}); rejoining for up to {} s",
            clean(&why),
            within.as_secs()
        )),
        LinkEvent::Back { fresh: true } => {
            note(format_args!(
                "rejoined with a new seat (the server had given the old one up)"
            ));
        }
        LinkEvent::Back { fresh: false } => {
            note(format_args!("rejoined: your words this round are kept"));
        }
        LinkEvent::Failed(e) => return Err(e.into()),
    }
    Ok(None)
}

/// Whether the line mode goes on after a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    /// More to come.
    On,
    /// The room's last round, or the round after the input ended, is over.
    Over,
}

/// The words read from the input on their way to the server: those typed
/// before a round starts, and those the link has no room for yet. Handing
/// them over one at a time as room appears keeps a long file from
/// overflowing the link's queue (its words and the final `done` dropped).
#[derive(Default)]
struct Words {
    backlog: VecDeque<String>,
    /// The input has ended: `done` follows the last word.
    input_done: bool,
    /// This round's `done` went out.
    done_sent: bool,
}

impl Words {
    /// Whether to read another line: not after the end, nor while the backlog is full.
    fn reading(&self) -> bool {
        !self.input_done && self.backlog.len() < MAX_QUEUED
    }

    /// Takes in a line of input (`None` at its end); blank lines are no word.
    fn read(&mut self, line: Option<String>) {
        match line {
            None => self.input_done = true,
            Some(line) => {
                let word = line.trim();
                if !word.is_empty() {
                    self.backlog.push_back(word.to_string());
                }
            }
        }
    }

    /// Whether a word or this round's `done` waits to go out.
    fn to_send(&self) -> bool {
        !self.backlog.is_empty() || (self.input_done && !self.done_sent)
    }

    /// The next message to send: a word, or `done` once they are all out.
    fn next_msg(&mut self) -> ClientMsg {
        match self.backlog.pop_front() {
            Some(word) => ClientMsg::Word { word },
            None => {
                self.done_sent = true;
                ClientMsg::Done
            }
        }
    }
}

/// The line mode's state between messages.
struct LineMode<'a, W> {
    out: Output<'a, W>,
    /// Where the seat's token is kept for the next run.
    seat: Option<&'a SeatFile>,
    joined: bool,
    /// The token last said on standard error and kept in the seat file.
    token_kept: String,
    in_round: bool,
    words: Words,
}

impl<W: Write> LineMode<'_, W> {
    /// Prints what `msg` says and answers it; whether the game goes on.
    fn message(&mut self, msg: &ServerMsg, link: &Link) -> Result<Flow, JoinError> {
        // A goodbye is a clean stop: the results printed stay, and it exits 0.
        if let ServerMsg::Bye { reason } = msg {
            note(format_args!("the server closed: {}", clean(reason)));
            return Ok(Flow::Over);
        }
        if let Some(end) = JoinError::from_server(msg) {
            return Err(end);
        }
        match msg {
            ServerMsg::Welcome {
                room, name, token, ..
            } => {
                if !self.joined {
                    writeln!(self.out, "joined room {} as {}", clean(room), clean(name))?;
                    self.joined = true;
                }
                self.keep_token(token);
                // Not in a round until the server says one is on (after a
                // rejoin it may have ended meanwhile); line-mode players are
                // always ready, and a rejoin starts out not ready.
                self.in_round = false;
                link.send(ClientMsg::Ready);
            }
            ServerMsg::Lobby {
                players,
                min_players,
                ..
            } if !self.in_round => writeln!(self.out, "{}", lobby_line(players, *min_players))?,
            ServerMsg::RoundStart {
                round,
                rows,
                cols,
                board,
                remaining_ms,
                found,
                ..
            } => {
                writeln!(
                    self.out,
                    "round {round}: {} seconds",
                    remaining_ms.div_ceil(1000)
                )?;
                for row in board_grid(board, *rows, *cols) {
                    writeln!(self.out, "  {row}")?;
                }
                if !found.is_empty() {
                    writeln!(self.out, "found before: {}", word_list(found))?;
                }
                self.in_round = true;
                self.words.done_sent = false;
            }
            ServerMsg::Verdict {
                word,
                accepted: true,
                points,
                ..
            } => writeln!(self.out, "{}: +{points}", clean(word))?,
            ServerMsg::Verdict { word, reason, .. } => {
                writeln!(self.out, "{}: {}", clean(word), clean(reason))?;
            }
            ServerMsg::Results { last, .. } => {
                self.in_round = false;
                for line in results_lines(msg) {
                    writeln!(self.out, "{line}")?;
                }
                if *last || self.words.input_done {
                    self.out.flush()?;
                    return Ok(Flow::Over);
                }
                link.send(ClientMsg::Ready);
            }
            ServerMsg::Error { message, .. } => {
                writeln!(self.out, "error: {}", clean(message))?;
            }
            // A lobby during a round is not shown; a bye ended it above.
            // `boggle join` plays rooms, never today's board, so no `daily` comes.
            ServerMsg::Lobby { .. }
            | ServerMsg::Pong
            | ServerMsg::Bye { .. }
            | ServerMsg::Daily { .. } => {}
        }
        self.out.flush()?;
        Ok(Flow::On)
    }

    /// Says a new token on standard error and keeps it in the seat file, so
    /// a killed client takes its seat back (with `--token` elsewhere).
    fn keep_token(&mut self, token: &str) {
        if token == self.token_kept {
            return;
        }
        note(format_args!("token: {}", clean(token)));
        if let Some(seat) = self.seat
            && let Err(e) = seat.save(token)
        {
            note(format_args!(
                "cannot keep the seat's token in {}: {e}",
                seat.path().display()
            ));
        }
        self.token_kept = token.to_string();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use boggle_protocol::{Duplicates, PlayerResult};

    #[test]
    fn the_board_is_printed_as_a_grid() {
        let faces: Vec<String> = ["QU", "I", "T", "", "E", "\u{1b}", "HE", "S", "A"]
            .map(String::from)
            .to_vec();
        assert_eq!(board_grid(&faces, 3, 3), ["Qu I  T", "-  E  ?", "he S  A"]);
    }

    /// A player placed 523rd of 1,000 hears the best players, then their
    /// own entry with its place, then how many were not listed.
    #[test]
    fn a_big_rooms_results_say_the_players_place_and_how_many_more() {
        let entry = |name: &str, score, place| PlayerResult {
            name: name.into(),
            words: Vec::new(),
            words_total: 0,
            score,
            total: score,
            place,
        };
        let players = vec![entry("ann", 9, 1), entry("bob", 8, 2), entry("eve", 1, 523)];
        let msg = ServerMsg::round_one_results(true, Duplicates::Count, players, 1000);
        let lines = results_lines(&msg);
        assert_eq!(
            lines[1..],
            [
                "ann: 9 points (total 9)",
                "bob: 8 points (total 8)",
                "eve, place 523 of 1000: 1 point (total 1)",
                "  and 997 more players",
            ]
        );
    }

    #[test]
    fn the_rejoin_command_quotes_what_a_shell_would_split() {
        let opts = JoinOptions {
            addr: "127.0.0.1:4040".into(),
            name: "ann b".into(),
            room: Some("main".into()),
            ..JoinOptions::default()
        };
        assert_eq!(
            rejoin_command(&opts, "9f00"),
            "boggle join 127.0.0.1:4040 --name 'ann b' --room main --token 9f00"
        );
        let opts = JoinOptions {
            name: "it's".into(),
            room: None,
            ..opts
        };
        assert_eq!(
            rejoin_command(&opts, "\u{1b}x"),
            "boggle join 127.0.0.1:4040 --name 'it'\\''s' --token '?x'"
        );
    }
}
