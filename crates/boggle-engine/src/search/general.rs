//! The general walk: every board the faster walks cannot take (faces such as
//! `Th`, blank cells, boards of more than 64 cells, a maximum word length),
//! a recursive walk that spells each face into the trie.

use super::Found;
use crate::face::Face;
use crate::neighbours::Neighbours;
use crate::trie::{Node, Trie};

/// Where a walk writes the words it finds: a buffer of slots that only
/// grows, and the count of words kept in it. Dropping the sink cuts the buffer
/// to the words kept.
pub(super) struct Sink<'a> {
    pub(super) buffer: &'a mut Vec<Found>,
    pub(super) count: usize,
}

impl<'a> Sink<'a> {
    pub(super) fn new(buffer: &'a mut Vec<Found>) -> Sink<'a> {
        buffer.clear();
        Sink { buffer, count: 0 }
    }

    /// Writes `found` in the next slot, and keeps it only if `keep`:
    /// branch-free on `keep`, whose outcome the processor cannot predict.
    /// The same slot idiom as the fast walk, with no `unsafe`.
    #[inline(always)]
    pub(super) fn push_if(&mut self, found: Found, keep: bool) {
        if self.count == self.buffer.len() {
            let grown = self.buffer.len() * 2 + 256;
            self.buffer.resize(grown, Found::default());
        }
        self.buffer[self.count] = found;
        self.count += usize::from(keep);
    }
}

impl Drop for Sink<'_> {
    fn drop(&mut self) {
        self.buffer.truncate(self.count);
    }
}

/// The set of cells on the current path.
pub(super) trait Visited {
    fn contains(&self, cell: usize) -> bool;
    fn insert(&mut self, cell: usize);
    fn remove(&mut self, cell: usize);
}

impl Visited for u64 {
    #[inline]
    fn contains(&self, cell: usize) -> bool {
        *self & (1 << cell) != 0
    }
    #[inline]
    fn insert(&mut self, cell: usize) {
        *self |= 1 << cell;
    }
    #[inline]
    fn remove(&mut self, cell: usize) {
        *self &= !(1 << cell);
    }
}

/// Visited cells of a board larger than 64 cells.
pub(super) struct BitSet(pub(super) Vec<u64>);

impl Visited for BitSet {
    fn contains(&self, cell: usize) -> bool {
        self.0[cell / 64] & (1 << (cell % 64)) != 0
    }
    fn insert(&mut self, cell: usize) {
        self.0[cell / 64] |= 1 << (cell % 64);
    }
    fn remove(&mut self, cell: usize) {
        self.0[cell / 64] &= !(1 << (cell % 64));
    }
}

/// The state of one board's search, borrowed from its `Searcher`.
pub(super) struct Walk<'a> {
    pub(super) trie: &'a Trie,
    pub(super) neighbours: &'a Neighbours,
    pub(super) faces: &'a [Face],
    pub(super) min_len: usize,
    pub(super) max_len: usize,
    pub(super) found: Sink<'a>,
    pub(super) seen: &'a mut [u64],
    /// Steps left before the walk gives up.
    pub(super) budget: u64,
}

impl Walk<'_> {
    /// Extends the path ending at trie node `node` (of `len` letters) into `cell`.
    pub(super) fn enter<V: Visited>(
        &mut self,
        visited: &mut V,
        cell: usize,
        node: u32,
        len: usize,
    ) {
        if self.budget == 0 {
            return;
        }
        self.budget -= 1;
        let face = self.faces[cell];
        let Some((node, here)) = spell(self.trie, node, face) else {
            return;
        };
        let len = len + face.len();
        if here.is_word() && len >= self.min_len && len <= self.max_len {
            let (word, bit) = (node as usize / 64, 1u64 << (node % 64));
            let fresh = self.seen[word] & bit == 0;
            self.seen[word] |= bit;
            self.found.push_if(
                Found {
                    node,
                    len: len as u32,
                },
                fresh,
            );
        }
        if !here.has_children() || len >= self.max_len {
            return;
        }
        visited.insert(cell);
        for &next in self.neighbours.of(cell) {
            let next = usize::from(next);
            if !visited.contains(next) {
                self.enter(visited, next, node, len);
            }
        }
        visited.remove(cell);
    }
}

/// Follows a face's letters down from `node`; `None` if no word continues that
/// way (a blank face has no letters and always ends the path).
#[inline]
pub(super) fn spell(trie: &Trie, node: u32, face: Face) -> Option<(u32, Node)> {
    let letters = face.as_bytes();
    if letters.is_empty() {
        return None;
    }
    let mut at = node;
    for &letter in letters {
        at = trie.node(at).child(letter - b'A')?;
    }
    Some((at, trie.node(at)))
}
