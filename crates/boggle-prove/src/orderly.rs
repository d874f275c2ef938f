//! The orderly tree of a sorted list of entries, met in one pass, and its
//! bound.
//!
//! The word paths of a class, each a set of (position, letter) pairs
//! inserted in position order, make a trie over those sets: the *orderly
//! tree*. A *sum node* is reached from the root by some pairs; it holds the
//! points of the paths that end there, and its children are *choice nodes*,
//! at most one per later position. A choice node's children are sum nodes,
//! one per letter its position may hold. The tree's *bound* is computed
//! bottom up: a sum node's is its points plus its choices' bounds, a choice
//! node's the best of its children's. It is at least the score of every
//! board of the class: a board picks one letter at each choice node, which
//! keeps one child; what is kept holds each of the board's word paths, and
//! every word the board has is on at least one of them (a word spelled with
//! the same letters on the same cells along several paths is one entry,
//! so it counts once).
//!
//! Nothing here builds the tree. Sorted entries are its nodes in
//! depth-first order, so a pass over them ([`orderly`]) opens and closes
//! its nodes, and a [`Visitor`] does the work on the way: [`tree_bound`]
//! keeps one running sum per depth; `lanes` and `build` are visitors too.
//! The stack is [`DEPTH`] deep, one level per pair of the longest path.

use crate::entry::{Entry, MAX_CELLS};

/// Depths of the orderly tree's stack: one sum node per pair of a path, and the root.
pub(crate) const DEPTH: usize = MAX_CELLS + 1;

/// No open choice node at a stack depth.
const NONE: u32 = u32::MAX;

/// What a pass over sorted, merged entries meets, in depth-first order: the
/// orderly tree's nodes opening and closing. The sum node at depth `d` is
/// reached from the root by `d` (position, letter) pairs; each sum node has at
/// most one open choice node (its next position) at a time.
pub(crate) trait Visitor {
    /// A choice node for position `p` opens under the sum node at `depth`.
    fn open_choice(&mut self, depth: usize, p: usize);
    /// The open choice node under the sum node at `depth` is complete.
    fn close_choice(&mut self, depth: usize);
    /// A sum node opens at `depth` (at least 1): the child for `letter` (0 =
    /// A) of the open choice at `depth - 1`.
    fn open_sum(&mut self, depth: usize, letter: u32);
    /// The sum node at `depth` (at least 1) is complete (its last choice closed first).
    fn close_sum(&mut self, depth: usize);
    /// An entry's word path ends at the sum node at `depth`.
    fn points(&mut self, depth: usize, entry: Entry);
}

/// Walks the orderly tree of sorted, merged `entries` in one pass, telling
/// `visitor` what opens and closes; the root's choices are closed at the end.
/// Entries sharing key bits share the pairs of those positions, so an entry
/// closes the sum nodes of the previous entry's pairs from the first position
/// where their keys differ, and opens its own from there.
#[inline(always)]
pub(crate) fn orderly<V: Visitor>(entries: impl IntoIterator<Item = Entry>, visitor: &mut V) {
    let mut open = Open::new();
    for entry in entries {
        let mut rest = open.close_for(entry, visitor);
        while rest != 0 {
            let p = rest.trailing_zeros();
            rest &= rest - 1;
            open.choose(p, visitor);
            open.descend(entry, p, visitor);
        }
        open.end(entry, visitor);
    }
    open.close_all(visitor);
}

/// The open nodes of an [`orderly`] pass: the pairs leading to its open sum
/// nodes, each one's open choice, and the last entry passed.
pub(crate) struct Open {
    /// `pair[d]`: the position of the pair leading to the sum node at depth
    /// `d + 1`; `choice[d]`: the position of the sum node at depth `d`'s
    /// open choice (`NONE` if none).
    pair: [u32; DEPTH],
    choice: [u32; DEPTH],
    /// The depth of the deepest open sum node.
    pub(crate) depth: usize,
    /// The last entry passed.
    pub(crate) previous: Option<Entry>,
}

impl Open {
    /// Only the root open.
    pub(crate) fn new() -> Open {
        Open {
            pair: [0; DEPTH],
            choice: [NONE; DEPTH],
            depth: 0,
            previous: None,
        }
    }

    /// Closes the sum nodes of the last entry's pairs that `entry` does not
    /// share, and returns the positions of the pairs `entry` opens, as bits.
    /// Entries sharing key bits share the pairs of those positions, so it
    /// closes from the first position where their keys differ.
    #[inline(always)]
    pub(crate) fn close_for<V: Visitor>(&mut self, entry: Entry, visitor: &mut V) -> u32 {
        let first = self
            .previous
            .map_or(0, |previous| entry.common_positions(previous));
        while self.depth > 0 && self.pair[self.depth - 1] >= first {
            self.close(visitor);
        }
        // In sorted order the entry has a letter at `first` (unless its key
        // repeats the previous one): its pairs from there on are new.
        entry.positions() & !((1u32 << first.min(16)) - 1)
    }

    /// Opens the choice for position `p` under the open sum node, closing
    /// its other choice first, unless it is open already.
    #[inline(always)]
    pub(crate) fn choose<V: Visitor>(&mut self, p: u32, visitor: &mut V) {
        let depth = self.depth;
        if self.choice[depth] != p {
            if self.choice[depth] != NONE {
                visitor.close_choice(depth);
            }
            self.choice[depth] = p;
            visitor.open_choice(depth, p as usize);
        }
        self.pair[depth] = p;
    }

    /// Opens the sum node for `entry`'s letter at position `p` (its choice open).
    #[inline(always)]
    pub(crate) fn descend<V: Visitor>(&mut self, entry: Entry, p: u32, visitor: &mut V) {
        self.depth += 1;
        self.choice[self.depth] = NONE;
        visitor.open_sum(self.depth, entry.letter_at(p as usize) - 1);
    }

    /// `entry`'s word path ends at the open sum node.
    #[inline(always)]
    pub(crate) fn end<V: Visitor>(&mut self, entry: Entry, visitor: &mut V) {
        visitor.points(self.depth, entry);
        self.previous = Some(entry);
    }

    /// Closes the deepest open sum node and its open choice.
    #[inline(always)]
    fn close<V: Visitor>(&mut self, visitor: &mut V) {
        if self.choice[self.depth] != NONE {
            visitor.close_choice(self.depth);
        }
        visitor.close_sum(self.depth);
        self.depth -= 1;
    }

    /// Closes every open node, the root's choices last.
    #[inline(always)]
    pub(crate) fn close_all<V: Visitor>(&mut self, visitor: &mut V) {
        while self.depth > 0 {
            self.close(visitor);
        }
        if self.choice[0] != NONE {
            visitor.close_choice(0);
        }
    }
}

/// The tree's bound: each sum node's points plus its choices' bounds, each
/// choice node's the best of its children's.
struct Bound {
    sum: [u32; DEPTH],
    best: [u32; DEPTH],
}

impl Visitor for Bound {
    #[inline(always)]
    fn open_choice(&mut self, depth: usize, _p: usize) {
        self.best[depth] = 0;
    }
    #[inline(always)]
    fn close_choice(&mut self, depth: usize) {
        self.sum[depth] += self.best[depth];
    }
    #[inline(always)]
    fn open_sum(&mut self, depth: usize, _letter: u32) {
        self.sum[depth] = 0;
    }
    #[inline(always)]
    fn close_sum(&mut self, depth: usize) {
        self.best[depth - 1] = self.best[depth - 1].max(self.sum[depth]);
    }
    #[inline(always)]
    fn points(&mut self, depth: usize, entry: Entry) {
        self.sum[depth] += entry.points();
    }
}

/// The bound of the orderly tree the sorted, merged `entries` make.
pub(crate) fn tree_bound(entries: impl IntoIterator<Item = Entry>) -> u32 {
    let mut bound = Bound {
        sum: [0; DEPTH],
        best: [0; DEPTH],
    };
    orderly(entries, &mut bound);
    bound.sum[0]
}

/// The same bound computed by recursion over `entries[lo..hi]` (positions
/// before `from` already passed): the definition, for the tests.
#[cfg(test)]
pub(crate) fn sum_bound_of(entries: &[Entry], lo: usize, hi: usize, from: usize) -> u32 {
    let mut total = 0u32;
    let mut i = lo;
    while i < hi && entries[i].next_position(from).is_none() {
        total += entries[i].points();
        i += 1;
    }
    while i < hi {
        let Some(q) = entries[i].next_position(from) else {
            break;
        };
        let mut best = 0;
        while i < hi && entries[i].next_position(from) == Some(q) {
            let letter = entries[i].letter_at(q);
            let mut j = i + 1;
            while j < hi
                && entries[j].letter_at(q) == letter
                && entries[j].next_position(from) == Some(q)
            {
                j += 1;
            }
            best = best.max(sum_bound_of(entries, i, j, q + 1));
            i = j;
        }
        total = total.saturating_add(best);
    }
    total
}
