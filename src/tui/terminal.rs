//! The real terminal, and the only place that drives crossterm: raw mode and
//! the alternate screen, the event loop (keys become [`Input`]s, the wall
//! clock becomes `Input::Tick`), redrawing after every event and on resize,
//! and restoring the terminal on every way out: a normal exit, an error,
//! Ctrl-C (a key in raw mode), a panic (through a panic hook), `SIGTERM`,
//! `SIGHUP` or `SIGINT` from outside (noticed within a frame), and a terminal
//! that hangs up. The network game's full screen uses its [`Session`] and its
//! key reader ([`spawn_key_reader`]).

use std::fmt;
use std::io::{self, Stdout};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use crossterm::terminal::{EnterAlternateScreen, LeaveAlternateScreen};
use crossterm::{cursor, execute, terminal};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

use super::app::{App, Input};
use super::ui::{self, Look};

/// How often the clock is redrawn when no key arrives (and the network
/// screen's key reader looks at its terminal and the signal flag).
pub(crate) const FRAME: Duration = Duration::from_millis(100);

/// Why a full screen ended without saying so itself.
#[derive(Debug)]
pub enum TerminalError {
    /// Setting up or drawing on the terminal failed.
    Io(io::Error),
    /// `SIGTERM`, `SIGHUP` or `SIGINT` arrived; the terminal is restored.
    Signalled,
    /// The terminal went away (its window closed, without a signal).
    HungUp,
}

impl fmt::Display for TerminalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TerminalError::Io(e) => e.fmt(f),
            TerminalError::Signalled => {
                f.write_str("stopped by a signal; the terminal is restored")
            }
            TerminalError::HungUp => f.write_str("the terminal went away"),
        }
    }
}

impl std::error::Error for TerminalError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TerminalError::Io(e) => e.source(),
            TerminalError::Signalled | TerminalError::HungUp => None,
        }
    }
}

impl From<io::Error> for TerminalError {
    fn from(e: io::Error) -> TerminalError {
        TerminalError::Io(e)
    }
}

/// As the command line reports them: a signal is `Interrupted` (exit status
/// 1), a terminal that hung up is a `BrokenPipe` (no one is left to read a
/// message: exit status 0, as for a closed pipe).
impl From<TerminalError> for io::Error {
    fn from(e: TerminalError) -> io::Error {
        let kind = match e {
            TerminalError::Io(e) => return e,
            TerminalError::Signalled => io::ErrorKind::Interrupted,
            TerminalError::HungUp => io::ErrorKind::BrokenPipe,
        };
        io::Error::new(kind, e.to_string())
    }
}

/// Owns raw mode and the alternate screen; dropping it restores the terminal.
/// The full-screen network client uses it too.
pub(crate) struct Session {
    /// The terminal to draw on.
    pub(crate) terminal: Terminal<CrosstermBackend<Stdout>>,
}

impl Session {
    /// Raw mode, the alternate screen, a hidden cursor, and a panic hook that restores them.
    pub(crate) fn start() -> io::Result<Session> {
        install_panic_hook();
        terminal::enable_raw_mode()?;
        // From here on a failure must still restore what was already changed.
        let session = (|| {
            let mut stdout = io::stdout();
            execute!(stdout, EnterAlternateScreen, cursor::Hide)?;
            Terminal::new(CrosstermBackend::new(stdout))
        })();
        match session {
            Ok(terminal) => Ok(Session { terminal }),
            Err(e) => {
                restore();
                Err(e)
            }
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        restore();
    }
}

/// Puts the terminal back as the shell left it; safe to call more than once.
fn restore() {
    let _ = terminal::disable_raw_mode();
    let _ = execute!(io::stdout(), LeaveAlternateScreen, cursor::Show);
}

/// Set by a termination signal; the event loop checks it every frame.
static SIGNALLED: AtomicBool = AtomicBool::new(false);

/// Turns `SIGTERM`, `SIGHUP` and `SIGINT` into a flag, so a kill or a closed
/// terminal window leaves through [`Session`]'s drop, which restores the
/// terminal, instead of ending the process in raw mode.
pub(crate) fn install_signal_flag() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // Without a handler (the system refused one), a signal ends the
        // process as it always would; the game itself still works.
        let _ = ctrlc::set_handler(|| SIGNALLED.store(true, Ordering::Relaxed));
    });
}

/// Whether a termination signal has arrived since [`install_signal_flag`].
pub(crate) fn signalled() -> bool {
    SIGNALLED.load(Ordering::Relaxed)
}

fn install_panic_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            // Restore first, so the panic message lands on a usable screen.
            restore();
            previous(info);
        }));
    });
}

/// Plays `app` on the terminal until the player quits; `on_over` runs once
/// each time a turn ends (once per board when the player plays again).
pub fn run(app: &mut App, look: Look, mut on_over: impl FnMut(&mut App)) -> io::Result<()> {
    install_signal_flag();
    let mut session = Session::start()?;
    let mut last = Instant::now();
    let mut over_seen = false;
    loop {
        session
            .terminal
            .draw(|frame| ui::render(frame, app, look))?;
        // PageUp/PageDown move by what this screen shows, which only the drawer knows.
        let size = session.terminal.size()?;
        app.set_page(ui::page_size(
            app,
            ratatui::layout::Rect::new(0, 0, size.width, size.height),
        ));
        if app.should_quit() {
            return Ok(());
        }
        if signalled() {
            return Err(TerminalError::Signalled.into());
        }
        // crossterm's reader spins for ever on a terminal that hung up (its
        // reads return end of file at once), so it is only asked for keys
        // once the terminal itself says it has input and is still there.
        match wait_for_keys(FRAME) {
            Keys::HungUp => return Err(TerminalError::HungUp.into()),
            Keys::Ready => {
                while event::poll(Duration::ZERO)? {
                    // A resize needs no input: the next draw fits the new size.
                    if let Event::Key(key) = event::read()?
                        && let Some(input) = map_key(key)
                    {
                        app.handle(input);
                    }
                }
            }
            Keys::None => {}
        }
        let now = Instant::now();
        app.handle(Input::Tick(now.duration_since(last)));
        last = now;
        if app.is_over() && !over_seen {
            over_seen = true;
            on_over(app);
        }
        // A new board was dealt: its end is recorded too.
        if !app.is_over() {
            over_seen = false;
        }
    }
}

/// What the network screen's key reader passes on.
#[derive(Debug)]
pub(crate) enum TermEvent {
    /// A key was pressed (or repeats while held).
    Key(KeyEvent),
    /// The terminal went away (its window closed, without a signal).
    HungUp,
    /// SIGTERM, SIGHUP or SIGINT arrived.
    Signalled,
}

/// Reads keys on a thread of its own and sends them to `keys` until the
/// receiver is gone, the terminal hangs up or a signal arrives (the last two
/// are sent too, so the screen leaves through its [`Session`] and restores the
/// terminal). The network screen's loop waits on sockets, so the keys come to
/// it through a channel; they are read as [`run`] reads them, only after
/// [`wait_for_keys`] says there are some, so a terminal that hangs up ends the
/// reader instead of spinning it.
pub(crate) fn spawn_key_reader(keys: tokio::sync::mpsc::UnboundedSender<TermEvent>) {
    install_signal_flag();
    std::thread::spawn(move || {
        let end = |why: TermEvent| {
            let _ = keys.send(why);
        };
        while !keys.is_closed() {
            if signalled() {
                return end(TermEvent::Signalled);
            }
            match wait_for_keys(FRAME) {
                Keys::HungUp => return end(TermEvent::HungUp),
                Keys::None => {}
                Keys::Ready => loop {
                    match event::poll(Duration::ZERO) {
                        Ok(true) => {}
                        Ok(false) => break,
                        Err(_) => return end(TermEvent::HungUp),
                    }
                    match event::read() {
                        Ok(Event::Key(key)) if key.kind != KeyEventKind::Release => {
                            if keys.send(TermEvent::Key(key)).is_err() {
                                return;
                            }
                        }
                        // A resize needs nothing: the next draw fits the new size.
                        Ok(_) => {}
                        Err(_) => return end(TermEvent::HungUp),
                    }
                },
            }
        }
    });
}

/// What the terminal had for the game within a frame.
pub(crate) enum Keys {
    /// Input to read.
    Ready,
    /// Nothing yet.
    None,
    /// The terminal hung up (its window closed): there is no one left to play.
    HungUp,
}

/// Waits up to `frame` for input on standard input, the game's terminal.
/// crossterm's reader spins for ever on a terminal that hung up (its reads
/// return end of file at once), so every full screen asks it for keys only
/// after this says there are some.
#[cfg(unix)]
pub(crate) fn wait_for_keys(frame: Duration) -> Keys {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    let stdin = rustix::stdio::stdin();
    let mut fds = [PollFd::new(&stdin, PollFlags::IN)];
    let timeout = Timespec {
        tv_sec: 0,
        tv_nsec: i64::from(frame.subsec_nanos()),
    };
    match poll(&mut fds, Some(&timeout)) {
        // Interrupted (a resize, a signal): look again next frame.
        Err(_) => Keys::None,
        Ok(_) => {
            let got = fds[0].revents();
            if got.intersects(PollFlags::HUP | PollFlags::ERR | PollFlags::NVAL) {
                Keys::HungUp
            } else if got.contains(PollFlags::IN) {
                Keys::Ready
            } else {
                Keys::None
            }
        }
    }
}

/// Waits up to `frame` for input (crossterm's own wait where poll(2) is not).
#[cfg(not(unix))]
pub(crate) fn wait_for_keys(frame: Duration) -> Keys {
    match event::poll(frame) {
        Ok(true) => Keys::Ready,
        _ => Keys::None,
    }
}

/// The game's meaning of a key press, if it has one.
fn map_key(key: KeyEvent) -> Option<Input> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        return match key.code {
            KeyCode::Char('c' | 'q') => Some(Input::Quit),
            KeyCode::Char('d') => Some(Input::Finish),
            KeyCode::Char('p') => Some(Input::Pause),
            _ => None,
        };
    }
    Some(match key.code {
        KeyCode::Char('?') | KeyCode::F(1) => Input::Help,
        KeyCode::Char(c) => Input::Char(c),
        KeyCode::Enter => Input::Enter,
        KeyCode::Backspace => Input::Backspace,
        KeyCode::Esc => Input::Esc,
        KeyCode::Tab => Input::Pause,
        KeyCode::Up | KeyCode::Left => Input::Up,
        KeyCode::Down | KeyCode::Right => Input::Down,
        KeyCode::Home => Input::Home,
        KeyCode::End => Input::End,
        KeyCode::PageUp => Input::PageUp,
        KeyCode::PageDown => Input::PageDown,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_map_to_inputs() {
        let key = |code, modifiers| map_key(KeyEvent::new(code, modifiers));
        let none = KeyModifiers::NONE;
        let ctrl = KeyModifiers::CONTROL;
        assert_eq!(key(KeyCode::Char('a'), none), Some(Input::Char('a')));
        assert_eq!(key(KeyCode::Char('?'), none), Some(Input::Help));
        assert_eq!(key(KeyCode::Char('c'), ctrl), Some(Input::Quit));
        assert_eq!(key(KeyCode::Char('d'), ctrl), Some(Input::Finish));
        assert_eq!(key(KeyCode::Tab, none), Some(Input::Pause));
        assert_eq!(key(KeyCode::Char('x'), ctrl), None);
        assert_eq!(key(KeyCode::Home, none), Some(Input::Home));
        assert_eq!(key(KeyCode::End, none), Some(Input::End));
        assert_eq!(key(KeyCode::PageUp, none), Some(Input::PageUp));
        assert_eq!(key(KeyCode::PageDown, none), Some(Input::PageDown));
        assert_eq!(key(KeyCode::Insert, none), None);
    }

    #[test]
    fn a_signal_or_a_hang_up_is_reported_as_before() {
        let e = io::Error::from(TerminalError::Signalled);
        assert_eq!(e.kind(), io::ErrorKind::Interrupted);
        assert_eq!(
            e.to_string(),
            "stopped by a signal; the terminal is restored"
        );
        let e = io::Error::from(TerminalError::HungUp);
        assert_eq!(e.kind(), io::ErrorKind::BrokenPipe);
        assert_eq!(e.to_string(), "the terminal went away");
    }
}
