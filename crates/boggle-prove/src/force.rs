//! Forcing a position by merging: the list of entries for each letter of
//! a position, without building a tree.
//!
//! To force position `p` to a letter is to keep, of the orderly tree, only
//! that letter's child at every choice node for `p`. On sorted entries whose
//! earlier positions are forced already, that is a merge: the entries that
//! skip `p` (a block at the front of the list: they sort first) and those
//! with the letter at `p`, the pair cleared, merged into one sorted list
//! ([`Shared::merge_into`]; equal paths add their points). The merged
//! list's bound is tighter than the choice nodes' were: a merged sum node
//! takes the best of its children's sums, not the sum of their bests.
//!
//! Each merge is a pass over the whole list, so the prover forces only the
//! first [`FORCED`] positions this way (one more in very long lists:
//! [`FORCE_MORE`]), and the walk forces the rest on the built tree. The
//! lists one position's letters make share the entries that skip it, which
//! the tree build uses ([`Shared`]).
//!
//! Limits: each merge is a pass over the whole list, and its result a new
//! list as long (up to tens of millions of entries on 4x4), so forcing by
//! merging pays only high in the tree, where it prunes whole lists.

use crate::entry::{Clear, Entry, merge_into};

/// How many of the first positions are forced by merging before the tree
/// is built and walked: two measured best on 3x4 (one and three cost more
/// than they save: 3x4 `--sample 6 --seed 1`, 10.4, 9.6 and 14.1 CPU-s per
/// class for one, two and three).
pub(crate) const FORCED: usize = 2;

/// A list still longer than this (in word paths) after the first
/// [`FORCED`] positions has one more forced by merging: its tree would be
/// large, and a tighter bound at the top of it pays for the merges; a
/// small one does not (1 or 4 million: no gain, or 2x slower, on 4x4).
pub(crate) const FORCE_MORE: usize = 2_000_000;

/// A list forced by merging is bounded before it is forced further or
/// built only if it holds at most this many paths. On 4x4, 1 of the 1,056
/// lists forced in five groups (of any length) was under the target, and
/// bounding the long ones cost more than it saved (seed 6's group, side by
/// side: 32.0/37.3 CPU-s with, 25.9/31.2 without). Nothing else is lost:
/// the lists a long one is forced into are bounded, and the tree built
/// from it bounds each of its lanes. 3x3's lists are shorter.
pub(crate) const BOUNDED: usize = 250_000;

/// A sorted list of entries, its positions before `position` forced,
/// about to be forced at `position`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Forcing<'a> {
    entries: &'a [Entry],
    position: usize,
    /// Where the entries that use the position begin.
    absent: usize,
    clear: Clear,
    set: u64,
}

impl<'a> Forcing<'a> {
    /// Forcing `entries` (no letter before `position`) at `position`; `set`
    /// names this forcing among the prover's (see [`Shared::set`]).
    pub(crate) fn new(entries: &'a [Entry], position: usize, set: u64) -> Forcing<'a> {
        // Sorted keys with no letter before `position` are in blocks by their letter there.
        let absent = entries.partition_point(|&e| e.letter_at(position) == 0);
        Forcing {
            entries,
            position,
            absent,
            clear: Clear::position(position),
            set,
        }
    }

    /// The list forced to `letter` (0 = A), in its two parts.
    pub(crate) fn letter(&self, letter: u8) -> Shared<'a> {
        let letter = u32::from(letter) + 1;
        let p = self.position;
        let with = &self.entries[self.absent..];
        let lo = with.partition_point(|&e| e.letter_at(p) < letter);
        let hi = lo + with[lo..].partition_point(|&e| e.letter_at(p) == letter);
        Shared {
            absent: &self.entries[..self.absent],
            with: &with[lo..hi],
            clear: self.clear,
            set: self.set,
        }
    }
}

/// A list forced by merging, in its two parts: `absent`, the paths that
/// skip the position just forced, and `with`, those with the letter forced
/// there, whose pair `clear` clears. `set` names the forcing, whose
/// letters' lists all share `absent` (the tree build writes their tree
/// once: `flat::Base`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Shared<'a> {
    /// The entries that skip the position.
    pub(crate) absent: &'a [Entry],
    /// The entries with the letter there, not yet cleared.
    pub(crate) with: &'a [Entry],
    /// Clears the position's pair.
    pub(crate) clear: Clear,
    /// The forcing the parts come from.
    pub(crate) set: u64,
}

impl Shared<'_> {
    /// The merged list, into `out` (emptied first).
    pub(crate) fn merge_into(&self, out: &mut Vec<Entry>) {
        out.clear();
        let clear = self.clear;
        merge_into(out, self.absent, self.with.iter().map(|&e| e.clear(clear)));
    }
}

/// Sizes `lists` for forcing up to position `end`, with room for one more
/// where a list is long, but never past position `last` (the first free
/// one, or the board's end).
pub(crate) fn make_room(lists: &mut Vec<Vec<Entry>>, end: usize, last: usize) {
    lists.resize_with((end + 2).min(last + 1), Vec::new);
}
