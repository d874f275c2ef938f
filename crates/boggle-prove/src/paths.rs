//! Collecting a class's word paths: every path on the board along which
//! the class's letters spell a word, as sorted, merged [`Entry`]s.
//!
//! The search is the solver's depth-first walk over the board and the trie
//! at once, except that a cell holds every letter of its position rather
//! than one: from a trie node, each child letter steps to the open
//! neighbours that may hold it (one AND of the neighbours with the
//! letter's cells). A path is recorded where its node ends a word that
//! scores. The paths are then sorted, the same word on the same cells
//! (reached along another order of the cells) kept once, and the words of
//! one path (anagrams on the same cells) merged into one entry with their
//! points together.
//!
//! On 3x3 this is most of the proof's time; on 4x4 a group's paths, with
//! every letter on its four free corners, run to tens of millions.
//!
//! Limits: a word's points are held to 255 while collecting, a word longer
//! than 64 letters scores as one of 64, and `Qu` is one cell (under Qu
//! rules the trie's `Q` node is followed by its `U` child).

#[cfg(test)]
use std::fmt;

use boggle_engine::trie::{Node, Trie};
use boggle_engine::{QReads, SearchRules};

use crate::entry::Entry;
use crate::layout::Cells;
#[cfg(test)]
use crate::layout::Layout;

/// A word path of a class, as `Prover::word_paths` lists it: the
/// (cell, letter) pairs its words are spelled on, in position order, and
/// their points together. It shows as `0A 1E 3T: 3`.
#[cfg(test)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct WordPath {
    /// Each pair's cell and letter (`'A'` to `'Z'`; `'Q'` stands for `Qu` under Qu rules).
    pub(crate) pairs: Vec<(usize, char)>,
    /// The points of the words spelled on these pairs, each once.
    pub(crate) points: u32,
}

#[cfg(test)]
impl WordPath {
    /// The word path of a merged entry, its positions read through `layout`.
    #[cfg(test)]
    pub(crate) fn of(entry: Entry, layout: &Layout) -> WordPath {
        let pairs = (0..layout.cells())
            .filter_map(|p| {
                let letter = entry.letter_at(p);
                (letter > 0).then(|| (layout.order()[p], char::from(b'A' + letter as u8 - 1)))
            })
            .collect();
        WordPath {
            pairs,
            points: entry.points(),
        }
    }
}

#[cfg(test)]
impl fmt::Display for WordPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (cell, letter)) in self.pairs.iter().enumerate() {
            let space = if i == 0 { "" } else { " " };
            write!(f, "{space}{cell}{letter}")?;
        }
        write!(f, ": {}", self.points)
    }
}

/// Collects word paths from one dictionary under one set of rules.
#[derive(Debug)]
pub(crate) struct Paths<'t> {
    trie: &'t Trie,
    /// Points by word length in letters (0 where the length does not count;
    /// at most 255, which a collected entry holds).
    points: Vec<u32>,
    /// Whether `Q` stands for `QU`.
    q: QReads,
    /// Longest word that counts, if the rules say.
    max_len: Option<usize>,
}

impl<'t> Paths<'t> {
    /// A collector over `trie` under `rules`.
    pub(crate) fn new(trie: &'t Trie, rules: &SearchRules) -> Paths<'t> {
        Paths {
            trie,
            points: (0..=64).map(|n| rules.word_score(n).min(255)).collect(),
            q: rules.q,
            max_len: rules.max_len,
        }
    }

    /// Every word path of the boards whose positions hold `cells`' letters,
    /// sorted and merged, into `entries` (emptied first).
    pub(crate) fn collect(&self, cells: &Cells, entries: &mut Vec<Entry>) {
        entries.clear();
        let count = cells.count();
        let all = if count >= 32 {
            u32::MAX
        } else {
            (1u32 << count) - 1
        };
        let mut search = Search {
            paths: self,
            cells,
            entries,
        };
        search.expand(self.trie.node(Trie::ROOT), all, 0, 0, Entry::EMPTY);
        entries.sort_unstable();
        entries.dedup();
        // Words are counted once per path now: merge each path's entries
        // into one whose low 32 bits hold their points together.
        let mut merged = 0;
        for i in 0..entries.len() {
            let entry = entries[i];
            let points = entry.collected_points();
            if merged > 0 && entries[merged - 1].same_path(entry) {
                entries[merged - 1] = entries[merged - 1].plus(points);
            } else {
                entries[merged] = entry.path().plus(points);
                merged += 1;
            }
        }
        entries.truncate(merged);
    }
}

/// One collection in progress: the depth-first search's fixed inputs and its output.
struct Search<'a, 't> {
    paths: &'a Paths<'t>,
    cells: &'a Cells,
    entries: &'a mut Vec<Entry>,
}

impl Search<'_, '_> {
    /// Extends a path at trie node `node` (just placed on `cell`, `len`
    /// letters long) into each free neighbour with each of its letters that
    /// continues a word. `used` holds the path's cells as bits, `path` its
    /// pairs so far.
    fn extend(&mut self, cell: usize, node: u32, len: usize, used: u32, path: Entry) {
        let here: Node = self.paths.trie.node(node);
        if here.is_word() {
            let points = self.paths.points[len.min(64)];
            if points > 0 {
                self.entries.push(path.collected(node, points));
            }
        }
        if !here.has_children() || self.paths.max_len.is_some_and(|max| len >= max) {
            return;
        }
        let open = self.cells.layout().neighbours(cell) & !used;
        self.expand(here, open, len, used, path);
    }

    /// Places a path at trie node `here` on each cell of `open` that may hold
    /// one of the node's child letters. Letter by letter: a child's node is
    /// the node's first child plus the children before it, counted as the
    /// loop goes (no popcount per step; the build targets x86-64 without it).
    #[inline]
    fn expand(&mut self, here: Node, open: u32, len: usize, used: u32, path: Entry) {
        let mut letters = here.letters();
        let mut child = here.first();
        while letters != 0 {
            let l = letters.trailing_zeros();
            letters &= letters - 1;
            let mut cells = open & self.cells.letter_cells()[l as usize];
            let mut node = child;
            child += 1;
            if cells == 0 {
                continue;
            }
            let mut more = 1;
            if self.paths.q == QReads::Qu && l == u32::from(b'Q' - b'A') {
                match self.paths.trie.node(node).child(b'U' - b'A') {
                    Some(u) => (node, more) = (u, 2),
                    None => continue,
                }
            }
            while cells != 0 {
                let to = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                let p = self.cells.layout().position(to);
                self.extend(to, node, len + more, used | 1 << to, path.with(p, l));
            }
        }
    }
}
