//! Whether a daily try was played by a person: the pace of the words its
//! seat entered. The leaderboard ranks people, so a try whose words came
//! faster than anyone can enter them (the solver's words sent by a script)
//! is practice, never listed.
//!
//! How: every word the seat enters in its scored round (accepted or not:
//! each is an entry) takes a token from a bucket of [`BURST`] that refills
//! at [`RATE`] a second; a word that finds it empty marks the try too fast.
//! The bound, and why it is conservative: entering a word takes at least
//! its letters and Enter on a keyboard (4 keys for the shortest, 3
//! letters), or a drag over 3 cells and a release by tap. At 5 words a
//! second, 4 keys each is 20 keys a second held for as long as the try
//! goes on; the fastest typists' bursts copying text are 15 to 20 keys a
//! second, and a Boggle player must find each word on the board first,
//! which by every account takes a second or more. The burst lets a dozen
//! words arrive together: a page that reconnects resends its unanswered
//! words at once, and a slow network can bunch words typed apart. The
//! solver's 115 words sent at machine speed overflow it within a
//! millisecond.
//!
//! Measured on the page (`web_pace` in tests/it, real Chromium, AMD EPYC
//! family 25 model 17): today's 30 shortest words typed key by key at 20
//! keys a second reached the verdicts at 3.97 words a second, and traced
//! by touch at 100 ms a cell and 100 ms between words at 2.47; both tries
//! are kept and listed. The bound sits above both.
//!
//! Limits: a script that paces itself under 5 words a second, 36 s for the
//! solver's 115 words of a 180 s round, passes.

use std::time::Instant;

use boggle_protocol::Bucket;

/// Words a second a person cannot keep up (the bucket's refill).
pub(super) const RATE: f64 = 5.0;
/// Words that may arrive together (the bucket's size).
pub(super) const BURST: f64 = 15.0;

/// What a player hears of a try whose words came too fast.
pub(super) const TOO_FAST: &str = "your words came faster than a person can enter them \
    (more than 15 at once, or 5 a second): this try is practice, not on today's leaderboard";

/// The pace of one seat's words in its scored round.
#[derive(Debug, Default)]
pub(super) struct Pace {
    /// Started at the first word.
    bucket: Option<Bucket>,
    /// A word found the bucket empty.
    too_fast: bool,
}

impl Pace {
    /// A word entered at `now`.
    pub(super) fn word(&mut self, now: Instant) {
        let bucket = self
            .bucket
            .get_or_insert_with(|| Bucket::new(RATE, BURST, now));
        if !bucket.take(now) {
            self.too_fast = true;
        }
    }

    /// Whether the words came faster than a person can enter them.
    pub(super) fn too_fast(&self) -> bool {
        self.too_fast
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    #[expect(
        clippy::disallowed_methods,
        reason = "an origin for made-up instants; no time passes"
    )]
    fn a_burst_then_a_persons_pace_is_a_person_and_a_script_is_not() {
        let t0 = Instant::now();
        let mut person = Pace::default();
        // A reconnect's resent words at once, then a word every quarter second.
        for _ in 0..15 {
            person.word(t0);
        }
        for n in 1..=600 {
            person.word(t0 + Duration::from_millis(250 * n));
        }
        assert!(!person.too_fast());
        let mut script = Pace::default();
        for n in 0..115 {
            script.word(t0 + Duration::from_micros(n));
        }
        assert!(script.too_fast());
    }
}
