//! The full-screen client of `boggle join` on a terminal, built as the tui
//! is: `app` holds what the screen shows and what each key, tick and word
//! from the server does to it (no terminal, socket or clock), `ui` draws it
//! on any ratatui backend, and the tui's terminal driver
//! ([`crate::tui::terminal`]) runs it, so the terminal is put back on every
//! way out, a terminal that hangs up ends it, and so does a signal. This
//! module is the glue: it talks to the server through a `Link`, which
//! rejoins after a drop, and, leaving while a round is on, prints the
//! command that takes the seat back.

pub(crate) mod app;
pub(crate) mod ui;

use std::io::{self, Write};
use std::time::Duration;

use ratatui::Frame;

use self::app::{Input, Screen};
use super::client::{JoinError, JoinOptions, rejoin_command};
use super::link::{Link, LinkEvent};
use crate::tui::terminal::{FullScreen, Key, run_screen};
use crate::tui::ui::Look;
use boggle_net::protocol::clean;

/// Plays full-screen until the player quits (Esc, Ctrl-C), the room's last
/// round is over, or the server goes. Leaving while a round is on prints, once
/// the terminal is back, the command that rejoins it.
pub async fn run(opts: &JoinOptions, look: Look) -> Result<(), JoinError> {
    let link = Link::connect(opts).await?;
    let mut client = Client {
        screen: Screen::joining(format!("boggle join {}", clean(&opts.addr)), opts),
        link,
        look,
    };
    let played = run_screen(&mut client).await;
    if let Some(token) = client.screen.rejoinable() {
        // Standard error may be gone with the terminal: nothing more to do then.
        let _ = writeln!(
            io::stderr(),
            "to rejoin this round: {}",
            rejoin_command(opts, token)
        );
    }
    played?
}

/// The screen and its link, as the terminal driver runs them.
struct Client {
    screen: Screen,
    link: Link,
    look: Look,
}

impl Client {
    fn feed(&mut self, input: Input) {
        if let Some(msg) = self.screen.handle(input) {
            // The link holds 256 messages; a full queue means it is far behind,
            // and a key's message is dropped rather than stalling the screen.
            self.link.send(msg);
        }
    }
}

impl FullScreen for Client {
    type Event = LinkEvent;
    type End = Result<(), JoinError>;

    fn draw(&mut self, frame: &mut Frame) {
        let most = ui::draw(frame, &self.screen, self.look);
        self.screen.clamp_scroll(most);
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
    }

    fn end(&mut self) -> Option<Self::End> {
        self.screen.take_end()
    }
}
