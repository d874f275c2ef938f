//! Slack: the sums of the choices the walk has pending, by position, kept
//! as it queues and takes them off, so that a letter's bound is one
//! addition.
//!
//! When the walk forces a position, every choice node still pending there
//! keeps one child (the letter's) or none. A letter's bound is then the
//! points so far, plus the pending choices' bounds at every other position,
//! plus this position's choices' children for that letter: the walk's
//! `rest` less [`Slack::without`] this position, plus [`Slack::reach`]. A
//! *tighter* bound ([`Slack::gap`]) counts each later position by the best
//! letter's children's sum instead of each choice's best child: a board
//! holds one letter there for all its choices. The tighter bound only
//! checks a letter; it is never passed down (subtracted there, it would
//! count again at every depth).
//!
//! The sums use wrapping arithmetic, so taking a choice off undoes adding
//! it exactly. In a lane that is alive no sum passes the lane's root bound
//! (the pending choices are part of it), which the lane type holds, so no
//! sum read has wrapped. Limits: 32 positions.

use crate::flat::Tree;
use crate::lanes::{Lane, max_lanes};

/// The choices the walk has pending at each position, summed as they are
/// queued and taken off again as it backs up, so that neither the walk nor
/// the tighter bound ([`Slack::gap`]) needs a pass over them: per position,
/// their bounds, their children's bounds by letter, and the letters they
/// have children for. The sums wrap, so taking a choice off undoes adding
/// it exactly; no sum passes its lane's root bound (the pending choices are
/// part of it), which the lane type holds, so none read has wrapped.
pub(crate) struct Slack<T, const N: usize> {
    /// Per position, the pending choices' bounds together, by lane.
    lost: Vec<[T; N]>,
    /// Per position and letter, the pending choices' children's bounds
    /// together, by lane: what the position's choices count for if it
    /// holds that letter.
    pub(crate) reach: Vec<[[T; N]; 26]>,
    /// Letters with children at each position: may keep letters whose
    /// choices were taken off (their sums are back to 0, which changes no
    /// maximum); the walk restores it as it backs up.
    pub(crate) seen: [u32; 32],
}

impl<T: Lane, const N: usize> Slack<T, N> {
    /// No choices pending at any of `positions` positions.
    pub(crate) fn new(positions: usize) -> Slack<T, N> {
        Slack {
            lost: vec![[T::default(); N]; positions],
            reach: vec![[[T::default(); N]; 26]; positions],
            seen: [0; 32],
        }
    }

    /// Counts choice `id`, pending at `position`, in the sums (`ADD`) or out of them.
    #[inline(always)]
    pub(crate) fn count<const ADD: bool>(&mut self, tree: &Tree<T, N>, position: usize, id: u32) {
        let op = |sum: &mut [T; N], more: &[T; N]| {
            for (sum, &more) in sum.iter_mut().zip(more) {
                *sum = if ADD {
                    Lane::wrapping_add(*sum, more)
                } else {
                    Lane::wrapping_sub(*sum, more)
                };
            }
        };
        let choice = tree.choices[id as usize];
        if ADD {
            self.seen[position] |= choice.letters;
        }
        let reach = &mut self.reach[position];
        let mut letters = choice.letters;
        let mut at = choice.start as usize;
        let mut bound = [T::default(); N];
        while letters != 0 {
            let letter = letters.trailing_zeros() as usize;
            letters &= letters - 1;
            op(&mut reach[letter], &tree.bounds[at]);
            max_lanes(&mut bound, &tree.bounds[at]);
            at += 1;
        }
        op(&mut self.lost[position], &bound);
    }

    /// `rest` (the pending choices' bounds, by lane) without those of the
    /// choices at `position`.
    #[inline(always)]
    pub(crate) fn without(&self, position: usize, rest: &[T; N]) -> [T; N] {
        let mut base = *rest;
        for (base, &lost) in base.iter_mut().zip(&self.lost[position]) {
            *base = base.sub(lost);
        }
        base
    }

    /// Whether the sums at `position` are those of the choices `ids` (the
    /// walk checks it in debug builds, so the tests do).
    pub(crate) fn matches(&self, tree: &Tree<T, N>, position: usize, ids: &[u32]) -> bool {
        let mut fresh = Slack::new(position + 1);
        for &id in ids {
            fresh.count::<true>(tree, position, id);
        }
        fresh.lost[position] == self.lost[position] && fresh.reach[position] == self.reach[position]
    }

    /// How much tighter the bound of the choices pending at positions from
    /// `from` on is, by lane, taken a position at a time: each choice's best
    /// child counts in the walk's `rest`, but a board holds one letter on a
    /// position for all of its choices, so the best letter's children's sum
    /// is a bound too.
    #[inline(always)]
    pub(crate) fn gap(&self, from: usize) -> [T; N] {
        let mut gap = [T::default(); N];
        for position in from..self.lost.len() {
            let mut seen = self.seen[position];
            let mut best = [T::default(); N];
            while seen != 0 {
                let letter = seen.trailing_zeros() as usize;
                seen &= seen - 1;
                max_lanes(&mut best, &self.reach[position][letter]);
            }
            for ((gap, &lost), &best) in gap.iter_mut().zip(&self.lost[position]).zip(&best) {
                *gap = gap.add(lost.sub(best));
            }
        }
        gap
    }
}
