//! The token bucket every rate of the protocol is measured with: the server
//! holds each client's messages to one, and a client paces what it sends
//! with one of its own so that it never meets the server's limit. Time is
//! passed in (`now`), so the bucket is tested without a clock; a `now`
//! earlier than one seen before counts as no time passed.
//!
//! Why not governor's limiter: it cannot look without taking (`has`, which
//! the client's pacing and the server's password throttle need), takes
//! whole-number rates where ours are fractions (0.5 failed passwords a
//! second), and reads time from a clock of its own; with an adapter each
//! bucket grew (the room's pace: 33 lines to 45), and this one stays anyway.

use std::time::{Duration, Instant};

/// A token bucket: `rate` a second on average, `burst` at once.
#[derive(Clone, Debug)]
pub struct Bucket {
    tokens: f64,
    last: Instant,
    rate: f64,
    burst: f64,
}

impl Bucket {
    /// A full bucket.
    pub fn new(rate: f64, burst: f64, now: Instant) -> Bucket {
        Bucket {
            tokens: burst,
            last: now,
            rate,
            burst,
        }
    }

    fn refill(&mut self, now: Instant) {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = self.last.max(now);
        self.tokens = (self.tokens + elapsed * self.rate).min(self.burst);
    }

    /// Takes a token if there is one.
    pub fn take(&mut self, now: Instant) -> bool {
        self.refill(now);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// Whether a token is there, without taking it.
    pub fn has(&mut self, now: Instant) -> bool {
        self.refill(now);
        self.tokens >= 1.0
    }

    /// How long until a token is there (zero if one is).
    pub fn wait(&mut self, now: Instant) -> Duration {
        self.refill(now);
        if self.tokens >= 1.0 || self.rate <= 0.0 {
            return Duration::ZERO;
        }
        Duration::from_secs_f64((1.0 - self.tokens) / self.rate)
    }

    /// Whether it is full (nothing taken lately), so one kept per peer may be forgotten.
    pub fn is_full(&mut self, now: Instant) -> bool {
        self.refill(now);
        self.tokens >= self.burst
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[expect(
        clippy::disallowed_methods,
        reason = "an Instant cannot be made but from the clock: the test reads it once and counts on from it"
    )]
    fn the_rate_limit_allows_a_burst_then_the_average() {
        let t0 = Instant::now();
        let mut bucket = Bucket::new(2.0, 3.0, t0);
        assert!((0..3).all(|_| bucket.take(t0)));
        assert!(!bucket.take(t0));
        assert_eq!(bucket.wait(t0), Duration::from_millis(500));
        assert!(bucket.take(t0 + Duration::from_millis(500)));
        assert!(!bucket.take(t0 + Duration::from_millis(500)));
        assert!(
            (0..3).all(|_| bucket.take(t0 + Duration::from_secs(60))),
            "refilled to the burst only"
        );
        assert!(!bucket.take(t0 + Duration::from_secs(60)));
    }
}
