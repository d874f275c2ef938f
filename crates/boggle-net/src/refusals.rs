//! What the server refuses, as its operator sees it: every refusal is
//! counted by its reason (the `boggle_refusals_total` counter), and logged
//! at a bounded rate, so a flood of refused connections cannot fill the
//! disk with a line each.
//!
//! How it works: one token bucket for the log lines of every refusal
//! ([`LOG_RATE`] a second, bursts of [`LOG_BURST`]). A refusal within it is
//! logged by its caller; one past it is held back and counted. The next
//! line that goes out is preceded by one saying how many were held back,
//! and when the refusals stop, the server says it on its own
//! (`Refusals::flush`, woken by the first line held back), so the last line
//! of a flood tells its size.
//!
//! The same rate, a bucket of its own, holds the server's other lines that
//! a client can cause at will (`LogRate`: rooms opened and closed).
//!
//! Limits: the lines held back are lost (their count is not); the counter
//! is exact. Reasons are the error codes sent (`server_full`, `idle`, ...)
//! and the web side's own (`http_busy`, `http_host`, ...), a fixed set, so
//! the metric's series stay few.

use std::sync::Mutex;
use std::time::Instant;

use boggle_protocol::{Bucket, ErrorCode};
use tokio::sync::Notify;

/// Log lines about refusals a second, on average.
pub(crate) const LOG_RATE: f64 = 2.0;
/// Log lines about refusals in a burst.
pub(crate) const LOG_BURST: f64 = 20.0;

/// The web side's refusals, beside the protocol's error codes.
pub(crate) const WEB_REASONS: [&str; 6] = [
    "http_busy",
    "http_evicted",
    "http_host",
    "http_origin",
    "http_bad_head",
    "http_head_timeout",
];

/// Log lines of one kind held to a rate: a line within it is logged by its
/// caller; one past it is held back and counted, and the next line that
/// goes out (or the server's [`LogRate::flush`]) says how many were.
#[derive(Debug)]
pub(crate) struct LogRate {
    /// What the lines are about, as the count of those held back names it.
    what: &'static str,
    state: Mutex<Held>,
    /// Wakes whoever flushes, when a line is held back.
    held_back: Notify,
}

#[derive(Debug)]
struct Held {
    lines: Bucket,
    /// Lines not logged since the last one.
    held: u64,
}

impl LogRate {
    /// Lines about `what` (plural: "refusals"), [`LOG_RATE`] a second.
    pub(crate) fn new(what: &'static str, now: Instant) -> LogRate {
        LogRate {
            what,
            state: Mutex::new(Held {
                lines: Bucket::new(LOG_RATE, LOG_BURST, now),
                held: 0,
            }),
            held_back: Notify::new(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Held> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// `true` when a line may be logged now (a line about those held back
    /// before it has then been logged); else it is counted as held back.
    pub(crate) fn may_log(&self, now: Instant) -> bool {
        let mut state = self.lock();
        if !state.lines.take(now) {
            state.held += 1;
            drop(state);
            self.held_back.notify_one();
            return false;
        }
        let held = std::mem::take(&mut state.held);
        drop(state);
        self.say_held(held);
        true
    }

    /// Whether lines are held back, not yet said.
    pub(crate) fn holds(&self) -> bool {
        self.lock().held > 0
    }

    /// Completes once a line has been held back (since the last time it did).
    pub(crate) async fn held_back(&self) {
        self.held_back.notified().await;
    }

    /// Says how many lines were held back, once a line may go out again
    /// (the server calls it, so a flood's last line gives its count).
    pub(crate) fn flush(&self, now: Instant) {
        let mut state = self.lock();
        if state.held == 0 || !state.lines.take(now) {
            return;
        }
        let held = std::mem::take(&mut state.held);
        drop(state);
        self.say_held(held);
    }

    /// Says how many lines were held back, whatever the rate: the
    /// server's last word on them as it stops.
    pub(crate) fn flush_all(&self) {
        let held = std::mem::take(&mut self.lock().held);
        self.say_held(held);
    }

    fn say_held(&self, held: u64) {
        if held > 0 {
            tracing::info!(
                held_back = held,
                "{held} more {} were not logged (at most {LOG_RATE} lines a second)",
                self.what
            );
        }
    }
}

/// Refusals counted, and their log lines held to a rate.
#[derive(Debug)]
pub(crate) struct Refusals {
    lines: LogRate,
}

impl Refusals {
    /// A fresh count; every reason's counter is registered at zero, so each
    /// series is there to watch before the first refusal.
    pub(crate) fn new(now: Instant) -> Refusals {
        let codes = ErrorCode::sent().map(ErrorCode::as_str);
        for reason in codes.chain(WEB_REASONS) {
            metrics::counter!("boggle_refusals_total", "reason" => reason).increment(0);
        }
        Refusals {
            lines: LogRate::new("refusals", now),
        }
    }

    /// Counts a refusal for `reason` that is never logged (a message past
    /// the rate: the client is told, and its drop is logged if it comes).
    pub(crate) fn count(reason: &'static str) {
        metrics::counter!("boggle_refusals_total", "reason" => reason).increment(1);
    }

    /// Counts a refusal for `reason`; `true` when its caller may log it now
    /// (a line about those held back before it has then been logged).
    pub(crate) fn note(&self, reason: &'static str, now: Instant) -> bool {
        Refusals::count(reason);
        self.lines.may_log(now)
    }

    /// Whether refusals' lines are held back, not yet said.
    pub(crate) fn holds(&self) -> bool {
        self.lines.holds()
    }

    /// Completes once a refusal's line has been held back.
    pub(crate) async fn held_back(&self) {
        self.lines.held_back().await;
    }

    /// Says how many refusals were held back, once a line may go out again.
    pub(crate) fn flush(&self, now: Instant) {
        self.lines.flush(now);
    }

    /// Says how many refusals were held back, whatever the rate.
    pub(crate) fn flush_all(&self) {
        self.lines.flush_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    #[expect(
        clippy::disallowed_methods,
        reason = "an Instant cannot be made but from the clock: the test reads it once and counts on from it"
    )]
    fn past_the_burst_refusals_are_held_back_and_counted() {
        let t0 = Instant::now();
        let refusals = Refusals::new(t0);
        let logged = (0..1000)
            .filter(|_| refusals.note("server_full", t0))
            .count();
        assert_eq!(logged, LOG_BURST as usize);
        assert_eq!(refusals.lines.lock().held, 1000 - LOG_BURST as u64);
        // Nothing goes out before a line may.
        refusals.flush(t0);
        assert_eq!(refusals.lines.lock().held, 1000 - LOG_BURST as u64);
        refusals.flush(t0 + Duration::from_secs(1));
        assert_eq!(refusals.lines.lock().held, 0, "said once the rate allows");
    }
}
