//! What the chains of a search share while they run: the boards scored,
//! the best board so far and when it was reached, the stop flags (a signal,
//! a target reached) and, for a hunt, the boards caught above its threshold.

#![expect(
    clippy::disallowed_methods,
    reason = "the progress the chains share is timed on the real clock"
)]

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::Instant;

use boggle_game::face::Face;

use crate::symmetry::Symmetries;

/// The best board so far, and when and after how many boards it was first reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Best {
    /// Its score.
    pub score: u32,
    /// Its faces, row-major, in canonical form.
    pub faces: Vec<Face>,
    /// When a chain first reached this score.
    pub at: Instant,
    /// Boards scored by all chains until then (this one included).
    pub after: u64,
}

/// What the chains share while they run: counters for the progress line and the stop flags.
#[derive(Debug, Default)]
pub struct Progress {
    scored: AtomicU64,
    /// Boards skipped because their search passed its step budget.
    pub(crate) skipped: AtomicU64,
    best_score: AtomicU32,
    best: Mutex<Option<Best>>,
    stop: AtomicBool,
    /// Set when a board reached the target score.
    reached: AtomicBool,
    /// Boards scoring above this are kept in `caught` (for `--hunt`).
    catch_above: Option<u32>,
    /// Canonical boards scoring above `catch_above`, until taken (repeats possible).
    caught: Mutex<Vec<(u32, Vec<Face>)>>,
}

impl Progress {
    /// Fresh counters, not stopped.
    pub fn new() -> Progress {
        Progress::default()
    }

    /// Fresh counters that also keep every board scoring above `above`, in
    /// canonical form, for `Progress::take_caught` (a board met twice may
    /// come twice).
    pub fn catching(above: u32) -> Progress {
        Progress {
            catch_above: Some(above),
            ..Progress::default()
        }
    }

    /// The boards caught since the last call (see [`Progress::catching`]).
    pub(crate) fn take_caught(&self) -> Vec<(u32, Vec<Face>)> {
        std::mem::take(&mut *self.caught.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Boards skipped because their search passed its step budget (a crafted
    /// word list can lead the search to boards no real list does).
    pub fn skipped(&self) -> u64 {
        self.skipped.load(Ordering::Relaxed)
    }

    /// Asks every chain to stop after the board it is scoring (safe from a signal handler thread).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether a stop was asked for.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Whether a board reached the target score (which ends the search).
    pub fn reached_target(&self) -> bool {
        self.reached.load(Ordering::Relaxed)
    }

    /// Boards scored so far by all chains.
    pub fn scored(&self) -> u64 {
        self.scored.load(Ordering::Relaxed)
    }

    /// The best board so far, if any board was scored.
    pub fn best(&self) -> Option<Best> {
        self.best.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Counts a scored board and keeps it as the best so far if it is, in
    /// its canonical form, so the progress line shows the board as the final
    /// list will; a board at or above `target` ends the search.
    pub(crate) fn offer(
        &self,
        score: u32,
        faces: &[Face],
        symmetries: &Symmetries,
        target: Option<u32>,
    ) {
        let after = self.scored.fetch_add(1, Ordering::Relaxed) + 1;
        if target.is_some_and(|target| score >= target) {
            self.reached.store(true, Ordering::Relaxed);
        }
        if self.catch_above.is_some_and(|above| score > above) {
            let canonical = symmetries.canonical(faces);
            self.caught
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push((score, canonical));
        }
        if score <= self.best_score.load(Ordering::Relaxed) {
            return;
        }
        let mut best = self.best.lock().unwrap_or_else(|e| e.into_inner());
        if best.as_ref().is_none_or(|b| score > b.score) {
            *best = Some(Best {
                score,
                faces: symmetries.canonical(faces),
                at: Instant::now(),
                after,
            });
            self.best_score.store(score, Ordering::Relaxed);
        }
    }
}
