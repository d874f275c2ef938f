//! What the player types, line by line or word by word, and the clock a timed
//! turn runs against. A timed turn must end even while the player is still
//! typing, and a blocking read cannot be interrupted, so timed input is read
//! on a second thread and handed over a channel that the game waits on with a
//! deadline. Untimed input is read directly, byte for byte as before.
//!
//! The clock is a trait so tests drive timed games with [`FakeClock`] and
//! [`Scripted`] lines instead of sleeping.

#![expect(
    clippy::disallowed_methods,
    reason = "the Keyboard is where a timed game's clock comes in: modes read time from it"
)]

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use crate::play::player::input::{Input, MAX_LINE, MAX_TOKEN, is_space};
use crate::play::player::signals;
use boggle_game::error::Error;

/// How often a wait for the player looks for a signal.
const SIGNAL_CHECK: Duration = Duration::from_millis(100);

/// What came of waiting for the player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Typed {
    /// A line (without its ending) or a whitespace-separated word.
    Text(Vec<u8>),
    /// The input ended.
    End,
    /// The turn's time ran out first.
    TimeUp,
}

/// Where a game reads the player's answers from.
pub(crate) trait Keyboard {
    /// The next line.
    fn line(&mut self) -> io::Result<Typed>;
    /// The next whitespace-separated word.
    fn token(&mut self) -> io::Result<Typed>;
    /// Starts a turn of `limit` (or an untimed one with `None`).
    fn start_timer(&mut self, limit: Option<Duration>);
    /// Time left in the current turn, if it is timed.
    fn remaining(&self) -> Option<Duration>;
    /// Lets `duration` pass (a timer the player watches, not one they type against).
    fn wait(&mut self, duration: Duration);
    /// Throws away whatever the player typed that no prompt has read yet: a
    /// timed turn that ends mid-word must not hand the word to the next prompt,
    /// nor, when the game ends, to the shell.
    fn discard_typeahead(&mut self) {}
}

/// Untimed input read straight from a `BufRead`; timers are ignored.
#[derive(Debug)]
pub(crate) struct Plain<R> {
    input: Input<R>,
}

impl<R: BufRead> Plain<R> {
    /// Reads from `input`.
    pub(crate) fn new(input: R) -> Plain<R> {
        Plain {
            input: Input::new(input),
        }
    }
}

impl<R: BufRead> Keyboard for Plain<R> {
    fn line(&mut self) -> io::Result<Typed> {
        Ok(self
            .input
            .read_line(MAX_LINE)?
            .map_or(Typed::End, Typed::Text))
    }

    fn token(&mut self) -> io::Result<Typed> {
        Ok(self
            .input
            .next_token(MAX_TOKEN)?
            .map_or(Typed::End, Typed::Text))
    }

    fn start_timer(&mut self, _limit: Option<Duration>) {}

    fn remaining(&self) -> Option<Duration> {
        None
    }

    fn wait(&mut self, duration: Duration) {
        std::thread::sleep(duration);
    }
}

/// A source of time.
pub(crate) trait Clock {
    /// The current instant.
    fn now(&self) -> Instant;
    /// Lets `duration` pass.
    fn sleep(&self, duration: Duration);
}

/// The real clock.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Instant {
        Instant::now()
    }

    fn sleep(&self, duration: Duration) {
        std::thread::sleep(duration);
    }
}

/// A clock that moves only when told to; clones share one time. A test double.
#[cfg(test)]
#[derive(Clone, Debug)]
pub(crate) struct FakeClock {
    start: Instant,
    elapsed: std::rc::Rc<std::cell::Cell<Duration>>,
}

#[cfg(test)]
impl Default for FakeClock {
    fn default() -> Self {
        FakeClock {
            start: Instant::now(),
            elapsed: std::rc::Rc::default(),
        }
    }
}

#[cfg(test)]
impl FakeClock {
    /// Moves the clock on by `duration`.
    pub(crate) fn advance(&self, duration: Duration) {
        self.elapsed.set(self.elapsed.get() + duration);
    }

    /// Time since the clock was made.
    pub(crate) fn elapsed(&self) -> Duration {
        self.elapsed.get()
    }
}

#[cfg(test)]
impl Clock for FakeClock {
    fn now(&self) -> Instant {
        self.start + self.elapsed.get()
    }

    fn sleep(&self, duration: Duration) {
        self.advance(duration);
    }
}

/// Lines that arrive one by one, waited for with an optional time limit.
pub(crate) trait LineSource {
    /// The next line, waiting at most `wait` (forever with `None`).
    fn next_line(&mut self, wait: Option<Duration>) -> io::Result<Typed>;
    /// Drops the lines read ahead and anything typed but not yet read.
    fn discard(&mut self) {}
}

/// Lines read from any reader on a thread of their own.
#[derive(Debug)]
pub(crate) struct ThreadedLines {
    lines: Receiver<io::Result<Option<Vec<u8>>>>,
    /// Whether the input is this process's terminal, whose unread typing
    /// [`LineSource::discard`] flushes too.
    terminal: bool,
}

impl ThreadedLines {
    /// Starts reading `input` on a new thread. The thread ends at the end of
    /// input or an error; if the game ends first it stays blocked in its read
    /// until the process exits, which is harmless.
    pub(crate) fn spawn<R: BufRead + Send + 'static>(input: R) -> ThreadedLines {
        // A few lines of read-ahead are plenty for a person typing.
        let (sender, lines) = mpsc::sync_channel(16);
        std::thread::spawn(move || {
            let mut input = Input::new(input);
            loop {
                let line = input.read_line(MAX_LINE);
                let last = !matches!(line, Ok(Some(_)));
                if sender.send(line).is_err() || last {
                    break;
                }
            }
        });
        ThreadedLines {
            lines,
            terminal: false,
        }
    }

    /// Reads the process's standard input; on a terminal, discarding also
    /// flushes what was typed on the current line.
    pub(crate) fn stdin() -> ThreadedLines {
        use std::io::IsTerminal;
        ThreadedLines {
            terminal: io::stdin().is_terminal(),
            ..ThreadedLines::spawn(io::BufReader::new(io::stdin()))
        }
    }
}

impl LineSource for ThreadedLines {
    fn next_line(&mut self, wait: Option<Duration>) -> io::Result<Typed> {
        // Waits in short slices, so a signal ends the game as the end of
        // input does, within a slice, even while the player types nothing.
        let deadline = wait.map(|wait| Instant::now() + wait);
        loop {
            if signals::stopped() {
                return Ok(Typed::End);
            }
            let slice = match deadline {
                None => SIGNAL_CHECK,
                Some(deadline) => deadline
                    .saturating_duration_since(Instant::now())
                    .min(SIGNAL_CHECK),
            };
            match self.lines.recv_timeout(slice) {
                Ok(line) => return Ok(line?.map_or(Typed::End, Typed::Text)),
                Err(RecvTimeoutError::Disconnected) => return Ok(Typed::End),
                Err(RecvTimeoutError::Timeout) => {
                    if deadline.is_some_and(|deadline| Instant::now() >= deadline) {
                        return Ok(Typed::TimeUp);
                    }
                }
            }
        }
    }

    fn discard(&mut self) {
        while self.lines.try_recv().is_ok() {}
        if self.terminal {
            flush_terminal_input();
        }
    }
}

/// Discards what was typed on the terminal but not read yet (the line being
/// typed: a terminal hands a line over only when it is ended).
fn flush_terminal_input() {
    #[cfg(unix)]
    {
        use rustix::termios::{QueueSelector, tcflush};
        // Nothing to be done if it fails: the game goes on either way.
        let _ = tcflush(rustix::stdio::stdin(), QueueSelector::IFlush);
    }
}

/// Lines typed by a test's imaginary player, each taking a given time to type, on a [`FakeClock`]. A test double.
#[cfg(test)]
#[derive(Debug)]
pub(crate) struct Scripted {
    clock: FakeClock,
    lines: VecDeque<(Duration, Vec<u8>)>,
    /// Whether the first line was cut off by the end of a turn.
    interrupted: bool,
}

#[cfg(test)]
impl Scripted {
    /// `lines` as (time spent typing it, text); the time passes on `clock`.
    pub(crate) fn new<'a, I>(clock: FakeClock, lines: I) -> Scripted
    where
        I: IntoIterator<Item = (u64, &'a str)>,
    {
        let lines = lines
            .into_iter()
            .map(|(secs, text)| (Duration::from_secs(secs), text.as_bytes().to_vec()))
            .collect();
        Scripted {
            clock,
            lines,
            interrupted: false,
        }
    }
}

#[cfg(test)]
impl LineSource for Scripted {
    fn next_line(&mut self, wait: Option<Duration>) -> io::Result<Typed> {
        let Some((typing, _)) = self.lines.front_mut() else {
            return Ok(Typed::End);
        };
        if let Some(wait) = wait.filter(|&wait| wait < *typing) {
            *typing -= wait;
            self.clock.advance(wait);
            self.interrupted = true;
            return Ok(Typed::TimeUp);
        }
        self.clock.advance(*typing);
        self.interrupted = false;
        Ok(self
            .lines
            .pop_front()
            .map_or(Typed::End, |(_, text)| Typed::Text(text)))
    }

    /// A line cut off by the end of the turn is thrown away, as a terminal's
    /// unfinished line is flushed.
    fn discard(&mut self) {
        if std::mem::take(&mut self.interrupted) {
            self.lines.pop_front();
        }
    }
}

/// Timed input: lines from a [`LineSource`], a deadline on a [`Clock`].
#[derive(Debug)]
pub(crate) struct Timed<S, C> {
    source: S,
    clock: C,
    deadline: Option<Instant>,
    /// The rest of the last line when reading word by word.
    words: VecDeque<Vec<u8>>,
}

impl<S: LineSource, C: Clock> Timed<S, C> {
    /// Reads `source`, timing turns on `clock`.
    pub(crate) fn new(source: S, clock: C) -> Timed<S, C> {
        Timed {
            source,
            clock,
            deadline: None,
            words: VecDeque::new(),
        }
    }
}

impl<S: LineSource, C: Clock> Keyboard for Timed<S, C> {
    fn line(&mut self) -> io::Result<Typed> {
        self.words.clear();
        let wait = self.remaining();
        let typed = if wait == Some(Duration::ZERO) {
            Typed::TimeUp
        } else {
            self.source.next_line(wait)?
        };
        if typed == Typed::TimeUp {
            self.source.discard();
        }
        Ok(typed)
    }

    fn token(&mut self) -> io::Result<Typed> {
        loop {
            if let Some(word) = self.words.pop_front() {
                return Ok(Typed::Text(word));
            }
            let line = match self.line()? {
                Typed::Text(line) => line,
                other => return Ok(other),
            };
            let words = line
                .split(|&b| is_space(b))
                .filter(|word| !word.is_empty())
                .map(|word| word[..word.len().min(MAX_TOKEN)].to_vec());
            self.words.extend(words);
        }
    }

    fn start_timer(&mut self, limit: Option<Duration>) {
        self.deadline = limit.map(|limit| self.clock.now() + limit);
    }

    fn remaining(&self) -> Option<Duration> {
        self.deadline
            .map(|deadline| deadline.saturating_duration_since(self.clock.now()))
    }

    fn wait(&mut self, duration: Duration) {
        self.clock.sleep(duration);
    }

    fn discard_typeahead(&mut self) {
        self.source.discard();
    }
}

/// `[42s left] ` for a timed turn, nothing for an untimed one (whole seconds, rounded up).
pub(crate) fn time_left<K: Keyboard + ?Sized>(keys: &K) -> String {
    keys.remaining().map_or_else(String::new, |left| {
        let secs = left.as_secs() + u64::from(left.subsec_nanos() > 0);
        format!("[{secs}s left] ")
    })
}

/// Writes `prompt` and reads lines until `parse` accepts one, writing its
/// complaint after each refusal; `None` (after a newline) at the end of input
/// or of the time.
pub(crate) fn ask<K, W, T>(
    keys: &mut K,
    out: &mut W,
    prompt: &str,
    parse: impl Fn(&[u8]) -> Result<T, String>,
) -> Result<Option<T>, Error>
where
    K: Keyboard + ?Sized,
    W: Write,
{
    loop {
        out.write_all(prompt.as_bytes()).map_err(Error::Output)?;
        out.flush().map_err(Error::Output)?;
        let Typed::Text(line) = keys.line().map_err(Error::Input)? else {
            out.write_all(b"\n").map_err(Error::Output)?;
            return Ok(None);
        };
        match parse(&line) {
            Ok(answer) => return Ok(Some(answer)),
            Err(complaint) => writeln!(out, "{complaint}").map_err(Error::Output)?,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scripted(lines: &[(u64, &str)]) -> (FakeClock, Timed<Scripted, FakeClock>) {
        let clock = FakeClock::default();
        let source = Scripted::new(clock.clone(), lines.iter().copied());
        (clock.clone(), Timed::new(source, clock))
    }

    #[test]
    fn a_line_typed_too_slowly_times_out_and_is_thrown_away() {
        let (clock, mut keys) = scripted(&[(3, "cat"), (10, "slow"), (1, "next")]);
        keys.start_timer(Some(Duration::from_secs(8)));
        assert_eq!(time_left(&keys), "[8s left] ");
        assert_eq!(keys.line().ok(), Some(Typed::Text(b"cat".to_vec())));
        assert_eq!(time_left(&keys), "[5s left] ");
        assert_eq!(keys.line().ok(), Some(Typed::TimeUp));
        assert_eq!(clock.elapsed(), Duration::from_secs(8));
        assert_eq!(keys.line().ok(), Some(Typed::TimeUp), "the turn stays over");
        keys.start_timer(None);
        assert_eq!(time_left(&keys), "");
        // The unfinished line never reaches the next prompt.
        assert_eq!(keys.line().ok(), Some(Typed::Text(b"next".to_vec())));
        assert_eq!(keys.line().ok(), Some(Typed::End));
    }

    #[test]
    fn words_split_lines_on_white_space() {
        let (_, mut keys) = scripted(&[(0, "  one two"), (0, ""), (0, "\tthree\x0b")]);
        let mut got = Vec::new();
        while let Ok(Typed::Text(word)) = keys.token() {
            got.push(String::from_utf8_lossy(&word).into_owned());
        }
        assert_eq!(got, ["one", "two", "three"]);
    }

    #[test]
    fn threaded_lines_arrive_in_order_then_end() {
        let mut lines = ThreadedLines::spawn(io::Cursor::new(b"a\r\nb".to_vec()));
        assert_eq!(lines.next_line(None).ok(), Some(Typed::Text(b"a".to_vec())));
        assert_eq!(lines.next_line(None).ok(), Some(Typed::Text(b"b".to_vec())));
        assert_eq!(lines.next_line(None).ok(), Some(Typed::End));
        assert_eq!(lines.next_line(None).ok(), Some(Typed::End));
    }

    #[test]
    fn plain_input_reads_lines_and_words() {
        let mut keys = Plain::new(&b"seed 1\nx y\n"[..]);
        keys.start_timer(Some(Duration::from_secs(1)));
        assert_eq!(keys.remaining(), None);
        assert_eq!(keys.line().ok(), Some(Typed::Text(b"seed 1".to_vec())));
        assert_eq!(keys.token().ok(), Some(Typed::Text(b"x".to_vec())));
        assert_eq!(keys.token().ok(), Some(Typed::Text(b"y".to_vec())));
        assert_eq!(keys.token().ok(), Some(Typed::End));
    }
}
