//! The search engine: finds every dictionary word on a board under any
//! [`Rules`], for every mode. A depth-first walk of board paths and trie
//! nodes in step: a path is extended only while its letters are a prefix of
//! some word, so a board visits a few hundred trie nodes, not millions of paths.
//!
//! Each cell's face is spelled into the trie letter by letter, so `Qu`, `Th`
//! and plain letters share one code path, and a blank face (no letters) is
//! refused at once. Visited cells are a bitmask (boards up to 64 cells) or a
//! bit vector. A word found along several paths is reported once.

use crate::face::Face;
use crate::game_board::GameBoard;
use crate::neighbours::Neighbours;
use crate::rules::Rules;
use crate::trie::{Node, Trie};

/// One word found on a board: its last trie node and its length in letters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Found {
    /// The trie node where the word ends (identifies the word).
    pub node: u32,
    /// The word's length in letters.
    pub len: u32,
}

/// The count and total score of a board's words.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Distinct words.
    pub words: u32,
    /// Their points together.
    pub score: u32,
}

/// A reusable searcher for one trie and one set of rules. Keeps its scratch
/// space between boards, so searching many boards allocates nothing per board.
#[derive(Clone, Debug)]
pub struct Searcher<'t> {
    trie: &'t Trie,
    min_len: usize,
    max_len: usize,
    neighbours: Neighbours,
    found: Vec<Found>,
    /// `seen[node] == generation` when the word ending at `node` was already
    /// found on this board: cheaper than hashing words, and reset by bumping
    /// `generation` instead of clearing.
    seen: Vec<u32>,
    generation: u32,
    points: Vec<u32>,
    rules: Rules,
}

impl<'t> Searcher<'t> {
    /// A searcher over `trie` under `rules`.
    pub fn new(trie: &'t Trie, rules: &Rules) -> Searcher<'t> {
        Searcher {
            trie,
            min_len: rules.min_len,
            max_len: rules.max_len.unwrap_or(usize::MAX),
            neighbours: Neighbours::new(rules.rows, rules.cols, rules.moves),
            found: Vec::new(),
            seen: Vec::new(),
            generation: 0,
            points: Vec::new(),
            rules: rules.clone(),
        }
    }

    /// Every word on `board`, each once, in trie order.
    pub fn find(&mut self, board: &GameBoard) -> &[Found] {
        self.search(board);
        &self.found
    }

    /// The total score of every word on `board`.
    pub fn score(&mut self, board: &GameBoard) -> u32 {
        self.tally(board).score
    }

    /// How many distinct words `board` holds and what they score together.
    pub fn tally(&mut self, board: &GameBoard) -> Tally {
        self.search(board);
        let found = std::mem::take(&mut self.found);
        let score = found.iter().map(|f| self.points_for(f.len)).sum();
        let words = found.len() as u32;
        self.found = found;
        Tally { words, score }
    }

    /// Points for a word of `len` letters (cached table).
    fn points_for(&mut self, len: u32) -> u32 {
        let len = len as usize;
        if len >= self.points.len() {
            self.points = (0..=len.max(32))
                .map(|n| self.rules.word_score(n))
                .collect();
        }
        self.points[len]
    }

    fn search(&mut self, board: &GameBoard) {
        let (rows, cols) = (board.rows(), board.cols());
        if !self.neighbours.is_for(rows, cols, self.rules.moves) {
            self.neighbours = Neighbours::new(rows, cols, self.rules.moves);
        }
        if self.seen.len() != self.trie.len() {
            self.seen = vec![0; self.trie.len()];
            self.generation = 0;
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.seen.fill(0);
            self.generation = 1;
        }
        self.found.clear();
        if self.trie.is_empty() {
            return;
        }
        let faces = board.faces();
        let mut walk = Walk {
            trie: self.trie,
            neighbours: &self.neighbours,
            faces,
            min_len: self.min_len,
            max_len: self.max_len,
            seen: &mut self.seen,
            generation: self.generation,
            found: &mut self.found,
        };
        if faces.len() <= 64 {
            let mut visited = 0u64;
            for cell in 0..faces.len() {
                walk.enter(&mut visited, cell, Trie::ROOT, 0);
            }
        } else {
            let mut visited = BitSet(vec![0; faces.len().div_ceil(64)]);
            for cell in 0..faces.len() {
                walk.enter(&mut visited, cell, Trie::ROOT, 0);
            }
        }
    }
}

/// The set of cells on the current path.
trait Visited {
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
struct BitSet(Vec<u64>);

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
struct Walk<'a> {
    trie: &'a Trie,
    neighbours: &'a Neighbours,
    faces: &'a [Face],
    min_len: usize,
    max_len: usize,
    seen: &'a mut [u32],
    generation: u32,
    found: &'a mut Vec<Found>,
}

impl Walk<'_> {
    /// Extends the path ending at trie node `node` (of `len` letters) into `cell`.
    fn enter<V: Visited>(&mut self, visited: &mut V, cell: usize, node: u32, len: usize) {
        let face = self.faces[cell];
        let Some((node, here)) = spell(self.trie, node, face) else {
            return;
        };
        let len = len + face.len();
        if here.is_word() && len >= self.min_len && len <= self.max_len {
            let slot = &mut self.seen[node as usize];
            if *slot != self.generation {
                *slot = self.generation;
                self.found.push(Found {
                    node,
                    len: len as u32,
                });
            }
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
fn spell(trie: &Trie, node: u32, face: Face) -> Option<(u32, Node)> {
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
