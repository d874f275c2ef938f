//! The full-screen client of `boggle join` on a terminal, built as the tui
//! is: `app` holds what the screen shows and what each key, tick and word
//! from the server does to it (no terminal, socket or clock), `ui` draws it
//! on any ratatui backend, and the tui's terminal driver
//! ([`crate::tui::terminal`]) runs it, so the terminal is put back on every
//! way out, a terminal that hangs up ends it, and so does a signal. This
//! module is the glue: it talks to the server through a `Link`, which
//! rejoins after a drop, keeps the seat's token in its seat file (so the
//! same `boggle join` run again after a crash takes the seat back), and,
//! leaving while a round is on, prints the command that takes the seat back
//! from elsewhere, alone on its line. On the server's goodbye (a clean
//! stop) the results on screen are printed once the terminal is back.

pub(crate) mod app;
mod help;
pub(crate) mod ui;

use std::io::{self, Write};
use std::time::Duration;

use ratatui::Frame;

use self::app::{Input, Screen};
use crate::tui::terminal::{FullScreen, Key, TerminalError, run_screen};
use crate::tui::ui::Look;
use boggle_client::join::{JoinError, rejoin_command};
use boggle_client::link::{JoinOptions, Link, LinkError, LinkEvent};
use boggle_client::seat::SeatFile;
use boggle_protocol::names::clean;

/// How the player left the full screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Left {
    /// With nothing to come back to: between rounds, or the room is over.
    ForGood,
    /// While a round was on: the server holds the seat, and its token is
    /// kept for the same `boggle join` to take it back.
    RoundOn,
}

/// Why the full screen ended, other than the player leaving or the room's
/// last round being over.
#[derive(Debug)]
pub(crate) enum Ended {
    /// The server, the link or the seat: what the line client ends on too.
    Join(JoinError),
    /// The terminal: a signal, a hang-up, or drawing failed.
    Terminal(TerminalError),
}

impl From<JoinError> for Ended {
    fn from(e: JoinError) -> Ended {
        Ended::Join(e)
    }
}

impl From<LinkError> for Ended {
    fn from(e: LinkError) -> Ended {
        Ended::Join(e.into())
    }
}

impl From<TerminalError> for Ended {
    fn from(e: TerminalError) -> Ended {
        Ended::Terminal(e)
    }
}

/// Plays full-screen until the player quits (Esc twice, `q`, Ctrl-C), the room's last
/// round is over, or the server goes. Leaving while a round is on prints, once
/// the terminal is back, the command that rejoins it.
pub(crate) async fn run(opts: &JoinOptions, look: Look) -> Result<Left, Ended> {
    let link = Link::connect(opts).await?;
    let mut client = Client {
        screen: Screen::joining(format!("boggle join {}", clean(&opts.addr)), opts),
        link,
        look,
        seat: opts.seat.clone(),
        token_kept: None,
        not_kept: None,
    };
    let played = run_screen(&mut client).await;
    // Standard error may be gone with the terminal: nothing more to do then.
    let mut err = io::stderr().lock();
    if let Some((seat, e)) = &client.not_kept {
        let _ = writeln!(
            err,
            "boggle: cannot keep the seat's token in {}: {e}",
            seat.path().display()
        );
    }
    if let Some(reason) = &client.screen.goodbye {
        // The results on screen at the goodbye stay, printed on the terminal.
        if client.screen.view == app::View::Results
            && let Some(results) = &client.screen.results
        {
            let mut out = io::stdout().lock();
            for line in results.lines() {
                let _ = writeln!(out, "{line}");
            }
        }
        let _ = writeln!(err, "the server closed: {reason}");
    }
    let Some(token) = client.screen.rejoinable() else {
        played??;
        return Ok(Left::ForGood);
    };
    // The command alone on its line, to copy whole; with a seat file the
    // same command takes the seat back (the file is kept for it).
    let here = if opts.seat.is_some() {
        " the same boggle join again here, or elsewhere:"
    } else {
        ""
    };
    let _ = writeln!(
        err,
        "to rejoin this round:{here}\n{}",
        rejoin_command(opts, token)
    );
    played??;
    Ok(Left::RoundOn)
}

/// The screen and its link, as the terminal driver runs them.
struct Client {
    screen: Screen,
    link: Link,
    look: Look,
    /// Where the seat's token is kept for the next run.
    seat: Option<SeatFile>,
    /// The token last kept there.
    token_kept: Option<String>,
    /// Why keeping it failed (said once the terminal is back).
    not_kept: Option<(SeatFile, io::Error)>,
}

impl Client {
    fn feed(&mut self, input: Input) {
        if let Some(msg) = self.screen.handle(input) {
            // The link holds 256 messages; a full queue means it is far behind,
            // and a key's message is dropped rather than stalling the screen.
            self.link.send(msg);
        }
    }

    /// Keeps a token the server just gave in the seat file, so a killed
    /// client's next run takes the seat back.
    fn keep_token(&mut self) {
        let (Some(seat), Some(token)) = (&self.seat, self.screen.token()) else {
            return;
        };
        if self.token_kept.as_deref() == Some(token) {
            return;
        }
        if let Err(e) = seat.save(token) {
            self.not_kept = Some((seat.clone(), e));
        }
        self.token_kept = Some(token.to_string());
    }
}

impl FullScreen for Client {
    type Event = LinkEvent;
    type End = Result<(), JoinError>;

    fn draw(&mut self, frame: &mut Frame) {
        let (most, shown) = ui::draw(frame, &self.screen, self.look);
        self.screen.drawn(most, shown);
    }

    fn key(&mut self, key: Key) {
        self.feed(Input::Key(key));
    }

    fn tick(&mut self, elapsed: Duration) {
        self.feed(Input::Tick(elapsed));
    }

    fn next_event(&mut self) -> impl Future<Output = LinkEvent> {
        self.link.next()
    }

    fn event(&mut self, event: LinkEvent) {
        self.feed(Input::Link(event));
        self.keep_token();
    }

    fn end(&mut self) -> Option<Self::End> {
        self.screen.take_end()
    }
}
