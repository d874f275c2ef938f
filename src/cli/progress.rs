//! The progress line of the long searches (`best`, `prove`) on stderr:
//! redrawn in place on a terminal, a line every few seconds otherwise, and
//! the place where a signal is passed on to the search.

#![expect(
    clippy::disallowed_methods,
    reason = "the progress line is redrawn on the clock"
)]

use std::io::{self, IsTerminal, Write};
use std::thread;
use std::time::{Duration, Instant};

use crate::play::player::signals;

/// How often the progress line is redrawn on a terminal.
const TERMINAL_TICK: Duration = Duration::from_millis(250);
/// How often a progress line is written when stderr is not a terminal.
const PLAIN_TICK: Duration = Duration::from_secs(5);

/// Shows `status()` on stderr until `finished()` says the work is over; a
/// signal calls `stop()` so the work ends after what it has in hand.
pub(crate) fn watch(
    started: Instant,
    status: impl Fn() -> String,
    finished: impl Fn() -> bool,
    stop: impl Fn(),
) {
    let terminal = io::stderr().is_terminal();
    let tick = if terminal { TERMINAL_TICK } else { PLAIN_TICK };
    let mut next = started + tick;
    while !finished() {
        thread::sleep(Duration::from_millis(20));
        if signals::stopped() {
            stop();
        }
        if Instant::now() < next {
            continue;
        }
        // Ticks missed (a slow machine, or a caller whose work began
        // before `started`, as a hunt's rounds do) are skipped, not caught up.
        while next <= Instant::now() {
            next += tick;
        }
        let line = status();
        let mut err = io::stderr().lock();
        // A progress line that cannot be written is not worth stopping the work for.
        let _ = if terminal {
            write!(err, "\r\x1b[K{line}")
        } else {
            writeln!(err, "{line}")
        };
    }
    if terminal && started.elapsed() >= tick {
        let _ = write!(io::stderr().lock(), "\r\x1b[K");
    }
}
