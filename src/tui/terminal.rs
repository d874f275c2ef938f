//! The real terminal, and the only place that drives crossterm: raw mode and
//! the alternate screen (`Session`), the keys (read on a thread of their
//! own and passed on as plain [`Key`]s), and the one loop both full screens
//! run on, the tui's game and `boggle join`'s (`FullScreen`, `drive`):
//! it redraws after every event and every frame, ticks the screen with the
//! time passed (the only reads of the clock), and ends when the screen says
//! so, on `SIGTERM`, `SIGHUP` or `SIGINT` from outside (noticed within a
//! frame), or when the terminal hangs up. The terminal is restored on every
//! way out: a normal exit, an error, Ctrl-C (a key in raw mode), a panic
//! (through a panic hook), a signal and a hang-up; [`TerminalError`] says
//! which way out was not the screen's own.

#![expect(
    clippy::disallowed_methods,
    reason = "the full screens' ticks are made here: the one clock they read"
)]

use std::convert::Infallible;
use std::io::{self, Stdout};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossterm::event::{self, Event, KeyEvent, KeyEventKind, KeyModifiers};
use crossterm::terminal::{EnterAlternateScreen, LeaveAlternateScreen};
use crossterm::{cursor, execute, terminal};
use ratatui::backend::{Backend, CrosstermBackend};
use ratatui::{Frame, Terminal};
use tokio::sync::mpsc;

use super::app::{App, Input};
use super::ui::{self, Look};

/// Why a full screen ended without saying so itself.
#[derive(Debug, thiserror::Error)]
pub(crate) enum TerminalError {
    /// Setting up the terminal (or the loop that drives it) or drawing on it failed.
    #[error("cannot draw on the terminal")]
    Io(#[from] io::Error),
    /// `SIGTERM`, `SIGHUP` or `SIGINT` arrived; the terminal is restored.
    #[error("stopped by a signal; the terminal is restored")]
    Signalled,
    /// The terminal went away (its window closed, without a signal). No one
    /// is left to read a message: the command line exits 0 without one, as
    /// for a closed pipe.
    #[error("the terminal went away")]
    HungUp,
}

/// For backends that cannot fail (ratatui's `TestBackend`).
impl From<Infallible> for TerminalError {
    fn from(never: Infallible) -> TerminalError {
        match never {}
    }
}

/// How often a full screen is ticked and redrawn when nothing happens (and
/// the key reader looks at its terminal and the signal flag).
pub(crate) const FRAME: Duration = Duration::from_millis(100);

/// A key press as the full screens see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Key {
    /// Which key.
    pub(crate) code: Code,
    /// Whether Control was held.
    pub(crate) ctrl: bool,
}

/// The keys a full screen can be given (others are never passed on).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Code {
    /// A character key.
    Char(char),
    /// Enter.
    Enter,
    /// Backspace.
    Backspace,
    /// Escape.
    Esc,
    /// Tab.
    Tab,
    /// The up arrow.
    Up,
    /// The down arrow.
    Down,
    /// The left arrow.
    Left,
    /// The right arrow.
    Right,
    /// Home.
    Home,
    /// End.
    End,
    /// Page up.
    PageUp,
    /// Page down.
    PageDown,
    /// A function key, F1 and on.
    F(u8),
}

/// A full screen [`drive`] can run: its state takes keys, ticks and events
/// of its own, and it draws itself on any backend.
pub(crate) trait FullScreen {
    /// What arrives from elsewhere while it runs (the network game's link).
    type Event;
    /// What it ends with.
    type End;

    /// Draws the screen as it is.
    fn draw(&mut self, frame: &mut Frame);
    /// A key was pressed.
    fn key(&mut self, key: Key);
    /// `elapsed` passed since the last tick (or the start).
    fn tick(&mut self, elapsed: Duration);
    /// The next event from elsewhere, cancel-safe; never ready for a screen without any.
    fn next_event(&mut self) -> impl Future<Output = Self::Event>;
    /// An event from elsewhere arrived.
    fn event(&mut self, event: Self::Event);
    /// `Some` once the screen is over.
    fn end(&mut self) -> Option<Self::End>;
}

/// What the key reader passes on.
#[derive(Debug)]
pub(crate) enum TermEvent {
    /// A key was pressed (or repeats while held).
    Key(Key),
    /// The terminal changed size: the next draw fits it.
    Resized,
    /// The terminal went away (its window closed, without a signal).
    HungUp,
    /// `SIGTERM`, `SIGHUP` or `SIGINT` arrived.
    Signalled,
}

/// Runs `screen` on `terminal` until it ends, redrawing after every batch of
/// keys, every event and every frame, and ticking it after each with the
/// time passed. Keys come from `keys` (the reader's, or a test's).
pub(crate) async fn drive<B, S>(
    terminal: &mut Terminal<B>,
    screen: &mut S,
    keys: &mut mpsc::UnboundedReceiver<TermEvent>,
) -> Result<S::End, TerminalError>
where
    B: Backend,
    TerminalError: From<B::Error>,
    S: FullScreen,
{
    let mut last = Instant::now();
    loop {
        if let Err(e) = terminal.draw(|frame| screen.draw(frame)) {
            return Err(gone_if_eio(e.into()));
        }
        if let Some(end) = screen.end() {
            return Ok(end);
        }
        tokio::select! {
            first = keys.recv() => {
                // The reader is gone only with the terminal.
                let Some(first) = first else {
                    return Err(TerminalError::HungUp);
                };
                // This one and every other already waiting, then one tick and one draw.
                let mut next = Some(first);
                while let Some(event) = next {
                    match event {
                        TermEvent::Key(key) => screen.key(key),
                        TermEvent::Resized => {}
                        TermEvent::Signalled => return Err(TerminalError::Signalled),
                        TermEvent::HungUp => return Err(TerminalError::HungUp),
                    }
                    next = keys.try_recv().ok();
                }
            }
            event = screen.next_event() => screen.event(event),
            () = tokio::time::sleep(FRAME) => {}
        }
        let now = Instant::now();
        screen.tick(now.duration_since(last));
        last = now;
    }
}

/// A draw that fails with EIO found the terminal gone (its window closed)
/// before the key reader saw the hang-up: it ends the screen as the hang-up
/// would, not as an error.
fn gone_if_eio(error: TerminalError) -> TerminalError {
    match error {
        TerminalError::Io(e) if is_eio(&e) => TerminalError::HungUp,
        other => other,
    }
}

/// Whether `e` is EIO, what writing to a pseudo-terminal whose other side closed gives.
#[cfg(unix)]
fn is_eio(e: &io::Error) -> bool {
    e.raw_os_error() == Some(rustix::io::Errno::IO.raw_os_error())
}

/// Whether `e` is EIO: only a Unix pseudo-terminal gives it.
#[cfg(not(unix))]
fn is_eio(_: &io::Error) -> bool {
    false
}

/// Runs `screen` full-screen on the real terminal (see [`drive`]), and puts
/// the terminal back before returning.
pub(crate) async fn run_screen<S: FullScreen>(screen: &mut S) -> Result<S::End, TerminalError> {
    let mut session = Session::start()?;
    let mut keys = KeyReader::start();
    let end = drive(&mut session.terminal, screen, &mut keys.events).await;
    // The reader stops before the terminal leaves raw mode, so it never reads a cooked line.
    drop(keys);
    drop(session);
    end
}

/// Plays `app` on the terminal until the player quits; `on_over` runs once
/// each time a turn ends (once per board when the player plays again).
pub(crate) fn run(
    app: &mut App,
    look: Look,
    on_over: impl FnMut(&mut App),
) -> Result<(), TerminalError> {
    let mut game = Game {
        app,
        look,
        on_over,
        over_seen: false,
    };
    // The loop waits on keys and the clock only; one thread runs it.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()?;
    runtime.block_on(run_screen(&mut game))
}

/// The tui's game as a [`FullScreen`].
struct Game<'a, F> {
    app: &'a mut App,
    look: Look,
    on_over: F,
    /// The turn on show has ended and `on_over` has run for it.
    over_seen: bool,
}

impl<F: FnMut(&mut App)> FullScreen for Game<'_, F> {
    type Event = Infallible;
    type End = ();

    fn draw(&mut self, frame: &mut Frame) {
        ui::render(frame, self.app, self.look);
        // PageUp/PageDown move by what this screen shows, and the clock stops
        // while the board cannot be shown: only the drawer knows either.
        self.app.set_page(ui::page_size(self.app, frame.area()));
        self.app
            .set_board_fits(ui::board_fits(self.app, frame.area()));
    }

    fn key(&mut self, key: Key) {
        if let Some(input) = game_input(key) {
            self.app.handle(input);
        }
    }

    fn tick(&mut self, elapsed: Duration) {
        self.app.handle(Input::Tick(elapsed));
        if self.app.is_over() && !self.over_seen {
            self.over_seen = true;
            (self.on_over)(self.app);
        }
        // A new board was dealt: its end is recorded too.
        if !self.app.is_over() {
            self.over_seen = false;
        }
    }

    fn next_event(&mut self) -> impl Future<Output = Infallible> {
        std::future::pending()
    }

    fn event(&mut self, event: Infallible) {
        match event {}
    }

    fn end(&mut self) -> Option<()> {
        self.app.should_quit().then_some(())
    }
}

/// The tui game's meaning of a key press, if it has one.
fn game_input(key: Key) -> Option<Input> {
    if key.ctrl {
        return match key.code {
            Code::Char('c' | 'q') => Some(Input::Quit),
            Code::Char('d') => Some(Input::Finish),
            Code::Char('p') => Some(Input::Pause),
            Code::Char('u' | 'w') => Some(Input::Clear),
            _ => None,
        };
    }
    Some(match key.code {
        Code::Char('?') | Code::F(1) => Input::Help,
        Code::Char(c) => Input::Char(c),
        Code::Enter => Input::Enter,
        Code::Backspace => Input::Backspace,
        Code::Esc => Input::Esc,
        Code::Tab => Input::Pause,
        Code::Up | Code::Left => Input::Up,
        Code::Down | Code::Right => Input::Down,
        Code::Home => Input::Home,
        Code::End => Input::End,
        Code::PageUp => Input::PageUp,
        Code::PageDown => Input::PageDown,
        Code::F(_) => return None,
    })
}

/// Owns raw mode and the alternate screen; dropping it restores the terminal.
struct Session {
    /// The terminal to draw on.
    terminal: Terminal<CrosstermBackend<Stdout>>,
}

impl Session {
    /// Raw mode, the alternate screen, a hidden cursor, and a panic hook that restores them.
    fn start() -> io::Result<Session> {
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

/// Set by a termination signal; the key reader checks it every frame.
static SIGNALLED: AtomicBool = AtomicBool::new(false);

/// Turns `SIGTERM`, `SIGHUP` and `SIGINT` into a flag, so a kill or a closed
/// terminal window leaves through [`Session`]'s drop, which restores the
/// terminal, instead of ending the process in raw mode.
fn install_signal_flag() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // Without a handler (the system refused one), a signal ends the
        // process as it always would; the game itself still works.
        let _ = ctrlc::set_handler(|| SIGNALLED.store(true, Ordering::Relaxed));
    });
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

/// Reads keys on a thread of its own (a full screen's loop also waits on
/// sockets and the clock) until dropped, the terminal hangs up or a signal
/// arrives; the last two are passed on too, so the screen leaves through its
/// [`Session`] and restores the terminal.
struct KeyReader {
    events: mpsc::UnboundedReceiver<TermEvent>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl KeyReader {
    fn start() -> KeyReader {
        install_signal_flag();
        let (tx, events) = mpsc::unbounded_channel();
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        let thread = std::thread::spawn(move || read_keys(&tx, &stopped));
        KeyReader {
            events,
            stop,
            thread: Some(thread),
        }
    }
}

impl Drop for KeyReader {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        // It looks at the flag at least once a frame.
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// How long one ask of crossterm for an event waits. Not zero: crossterm's
/// reader of the terminal device never looks at its input within a zero
/// timeout.
const ASK: Duration = Duration::from_millis(1);

/// The key reader's loop. crossterm's reader spins for ever on a terminal
/// that hung up (its reads return end of file at once), so it is only asked
/// for events once the terminal itself says it is still there. It is asked
/// every frame, not only when input is waiting, so a resize alone is seen.
/// crossterm reads the terminal device with poll(2) (its `use-dev-tty`
/// feature): its default reader waits edge-triggered, and when a key came
/// with a resize it returned the resize and dropped the key's readiness, so
/// the key waited for the next one.
fn read_keys(keys: &mpsc::UnboundedSender<TermEvent>, stop: &AtomicBool) {
    let end = |why: TermEvent| {
        let _ = keys.send(why);
    };
    while !stop.load(Ordering::Relaxed) {
        if SIGNALLED.load(Ordering::Relaxed) {
            return end(TermEvent::Signalled);
        }
        let waiting = match wait_for_keys(FRAME) {
            Keys::HungUp => return end(TermEvent::HungUp),
            Keys::Ready => true,
            Keys::None => false,
        };
        let mut read_any = false;
        loop {
            match event::poll(ASK) {
                Ok(true) => read_any = true,
                Ok(false) => break,
                Err(_) => return end(TermEvent::HungUp),
            }
            let passed = match event::read() {
                Ok(Event::Key(key)) => match translate(key) {
                    Some(key) => TermEvent::Key(key),
                    None => continue,
                },
                Ok(Event::Resize(..)) => TermEvent::Resized,
                Ok(_) => continue,
                Err(_) => return end(TermEvent::HungUp),
            };
            if keys.send(passed).is_err() {
                return;
            }
        }
        if waiting && !read_any {
            // Input crossterm does not see (a key that came with a resize):
            // the next key brings it; until then, wait a frame, never spin.
            std::thread::sleep(FRAME);
        }
    }
}

/// What the terminal had within a frame.
enum Keys {
    /// Input to read.
    Ready,
    /// Nothing yet.
    None,
    /// The terminal hung up (its window closed): there is no one left to play.
    HungUp,
}

/// Waits up to `frame` for input on standard input, the game's terminal.
#[cfg(unix)]
fn wait_for_keys(frame: Duration) -> Keys {
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
fn wait_for_keys(frame: Duration) -> Keys {
    match event::poll(frame) {
        Ok(true) => Keys::Ready,
        _ => Keys::None,
    }
}

/// crossterm's key event as a [`Key`], if it is a press (or a repeat) of a key
/// a full screen can use.
fn translate(key: KeyEvent) -> Option<Key> {
    use crossterm::event::KeyCode as K;
    if key.kind == KeyEventKind::Release {
        return None;
    }
    let code = match key.code {
        K::Char(c) => Code::Char(c),
        K::Enter => Code::Enter,
        K::Backspace => Code::Backspace,
        K::Esc => Code::Esc,
        K::Tab => Code::Tab,
        K::Up => Code::Up,
        K::Down => Code::Down,
        K::Left => Code::Left,
        K::Right => Code::Right,
        K::Home => Code::Home,
        K::End => Code::End,
        K::PageUp => Code::PageUp,
        K::PageDown => Code::PageDown,
        K::F(n) => Code::F(n),
        _ => return None,
    };
    Some(Key {
        code,
        ctrl: key.modifiers.contains(KeyModifiers::CONTROL),
    })
}

/// Keys the screens' tests press.
#[cfg(test)]
impl Key {
    /// `code` without Control.
    pub(crate) fn plain(code: Code) -> Key {
        Key { code, ctrl: false }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::KeyCode as K;
    use ratatui::backend::TestBackend;

    #[test]
    fn keys_map_to_inputs() {
        let key = |code, modifiers| translate(KeyEvent::new(code, modifiers)).and_then(game_input);
        let none = KeyModifiers::NONE;
        let ctrl = KeyModifiers::CONTROL;
        assert_eq!(key(K::Char('a'), none), Some(Input::Char('a')));
        assert_eq!(key(K::Char('?'), none), Some(Input::Help));
        assert_eq!(key(K::Char('c'), ctrl), Some(Input::Quit));
        assert_eq!(key(K::Char('d'), ctrl), Some(Input::Finish));
        assert_eq!(key(K::Tab, none), Some(Input::Pause));
        assert_eq!(key(K::Char('x'), ctrl), None);
        // Ctrl-U and Ctrl-W clear the word, as in a shell.
        assert_eq!(key(K::Char('u'), ctrl), Some(Input::Clear));
        assert_eq!(key(K::Char('w'), ctrl), Some(Input::Clear));
        assert_eq!(key(K::Home, none), Some(Input::Home));
        assert_eq!(key(K::End, none), Some(Input::End));
        assert_eq!(key(K::PageUp, none), Some(Input::PageUp));
        assert_eq!(key(K::PageDown, none), Some(Input::PageDown));
        assert_eq!(key(K::Insert, none), None);
    }

    #[test]
    fn released_keys_are_not_passed_on() {
        let mut release = KeyEvent::new(K::Enter, KeyModifiers::NONE);
        release.kind = KeyEventKind::Release;
        assert_eq!(translate(release), None);
        let ctrl_enter = KeyEvent::new(K::Enter, KeyModifiers::CONTROL);
        assert_eq!(
            translate(ctrl_enter),
            Some(Key {
                code: Code::Enter,
                ctrl: true
            })
        );
    }

    /// A screen that counts what it is given and ends on Esc.
    #[derive(Default)]
    struct Counter {
        keys: Vec<Key>,
        ticked: Duration,
        draws: usize,
    }

    impl FullScreen for Counter {
        type Event = Infallible;
        type End = usize;

        fn draw(&mut self, _frame: &mut Frame) {
            self.draws += 1;
        }

        fn key(&mut self, key: Key) {
            self.keys.push(key);
        }

        fn tick(&mut self, elapsed: Duration) {
            self.ticked += elapsed;
        }

        fn next_event(&mut self) -> impl Future<Output = Infallible> {
            std::future::pending()
        }

        fn event(&mut self, event: Infallible) {
            match event {}
        }

        fn end(&mut self) -> Option<usize> {
            (self.keys.last() == Some(&Key::plain(Code::Esc))).then_some(self.keys.len())
        }
    }

    /// Drives a [`Counter`] with `events` waiting, then the reader gone.
    async fn drive_with(events: Vec<TermEvent>) -> (Result<usize, TerminalError>, Counter) {
        let mut terminal = Terminal::new(TestBackend::new(20, 4)).expect("test backend");
        let (tx, mut rx) = mpsc::unbounded_channel();
        for event in events {
            tx.send(event).expect("open");
        }
        drop(tx);
        let mut screen = Counter::default();
        let end = drive(&mut terminal, &mut screen, &mut rx).await;
        (end, screen)
    }

    fn char_key(c: char) -> TermEvent {
        TermEvent::Key(Key::plain(Code::Char(c)))
    }

    #[tokio::test]
    async fn keys_waiting_together_are_taken_before_one_tick_and_one_draw() {
        let esc = TermEvent::Key(Key::plain(Code::Esc));
        let (end, screen) = drive_with(vec![char_key('a'), char_key('b'), esc]).await;
        assert_eq!(end.ok(), Some(3));
        assert_eq!(screen.draws, 2, "before the keys, and after them");
    }

    /// What a pseudo-terminal whose other side closed does with a write.
    #[cfg(unix)]
    struct ClosedPty;

    #[cfg(unix)]
    impl io::Write for ClosedPty {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::from_raw_os_error(
                rustix::io::Errno::IO.raw_os_error(),
            ))
        }

        fn flush(&mut self) -> io::Result<()> {
            Err(io::Error::from_raw_os_error(
                rustix::io::Errno::IO.raw_os_error(),
            ))
        }
    }

    /// A draw that fails with EIO (the terminal closed before the key
    /// reader noticed) is a hang-up, which exits 0, not a failure; another
    /// error stays one.
    #[cfg(unix)]
    #[tokio::test]
    async fn eio_from_a_draw_is_a_hang_up() {
        use ratatui::layout::Rect;
        use ratatui::{TerminalOptions, Viewport};
        let options = TerminalOptions {
            viewport: Viewport::Fixed(Rect::new(0, 0, 20, 4)),
        };
        let mut terminal = Terminal::with_options(CrosstermBackend::new(ClosedPty), options)
            .expect("no size asked");
        let (_tx, mut rx) = mpsc::unbounded_channel();
        let end = drive(&mut terminal, &mut Counter::default(), &mut rx).await;
        assert!(matches!(end, Err(TerminalError::HungUp)), "{end:?}");
        let other = gone_if_eio(io::Error::other("disk full").into());
        assert!(matches!(other, TerminalError::Io(_)), "{other:?}");
    }

    #[tokio::test]
    async fn a_signal_or_a_hang_up_ends_the_screen() {
        let (end, _) = drive_with(vec![TermEvent::Signalled]).await;
        assert!(matches!(end, Err(TerminalError::Signalled)), "{end:?}");
        let (end, _) = drive_with(vec![char_key('a')]).await;
        assert!(
            matches!(end, Err(TerminalError::HungUp)),
            "a reader gone is a terminal gone: {end:?}"
        );
    }
}
