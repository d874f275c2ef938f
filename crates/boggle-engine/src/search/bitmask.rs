//! The bitmask walk: the search's walker for boards of at most 64 cells of
//! single letters and `Qu` (see the parent module's docs). Per board it
//! builds bitmasks of the cells showing each letter, each cell's neighbours
//! and the letters next to each cell; its waiting paths sit on a stack of
//! its own, written without a branch. Compiled twice (portable, and with
//! `popcnt` and BMI), chosen at run time.

use super::{Found, Under};
use crate::cpu::prefetch;
use crate::face::{Face, QReads};
use crate::trie::{Node, Trie};

/// A board of at most 64 cells of single letters and `Qu`, ready for the fast walk.
pub(super) struct FastBoard {
    /// `cells_of[letter]`: the cells showing that letter (`Q` for `Qu`), as bits.
    pub(super) cells_of: [u64; 26],
    /// `neighbours[cell]`: the cells a path may step to from `cell`, as bits.
    pub(super) neighbours: [u64; 64],
    /// `near_letters[cell]`: the letters shown next to `cell`, as bits (A = bit 0).
    pub(super) near_letters: [u32; 64],
    /// `letters[cell]`: the letter the cell shows, 0 = A (`Q` for `Qu`).
    pub(super) letters: [u8; 64],
    /// How `Q` cells read.
    pub(super) q: QReads,
    /// The open cell of [`Searcher::score_letters`], as a bit (0 for none):
    /// it shows every letter at once.
    pub(super) open: u64,
}

impl FastBoard {
    /// `None` when the board needs the general walker. With `open`, that
    /// cell (whatever its face) shows every letter, `Q` as `Qu` when asked.
    pub(super) fn new(
        faces: &[Face],
        neighbour_masks: &[u64],
        max_len: Option<usize>,
        open: Option<(usize, QReads)>,
    ) -> Option<FastBoard> {
        if faces.len() > 64 || neighbour_masks.len() != faces.len() {
            return None;
        }
        // A length cap below the longest possible path needs the general walker's check.
        if max_len.is_some_and(|max| max < faces.len() * 2) {
            return None;
        }
        let mut board = FastBoard {
            cells_of: [0; 26],
            neighbours: [0; 64],
            near_letters: [0; 64],
            letters: [0; 64],
            q: QReads::Q,
            open: 0,
        };
        let mut plain_q = false;
        for (cell, face) in faces.iter().enumerate() {
            if open.is_some_and(|(open, _)| open == cell) {
                continue;
            }
            let letter = match face.as_bytes() {
                [letter] => {
                    plain_q |= *letter == b'Q';
                    letter - b'A'
                }
                [b'Q', b'U'] => {
                    board.q = QReads::Qu;
                    b'Q' - b'A'
                }
                _ => return None,
            };
            board.letters[cell] = letter;
            board.cells_of[usize::from(letter)] |= 1 << cell;
        }
        // One letter code stands for Q or Qu, so a board needs all of one kind.
        if board.q == QReads::Qu && plain_q {
            return None;
        }
        if let Some((open, q)) = open {
            let clash = match q {
                QReads::Qu => plain_q,
                QReads::Q => board.q == QReads::Qu,
            };
            if clash {
                return None;
            }
            board.q = q;
            board.open = 1 << open;
            for cells in &mut board.cells_of {
                *cells |= board.open;
            }
        }
        board.neighbours[..faces.len()].copy_from_slice(neighbour_masks);
        for (cell, &mask) in neighbour_masks.iter().enumerate() {
            let mut near = mask;
            while near != 0 {
                let next = near.trailing_zeros() as usize;
                near &= near - 1;
                board.near_letters[cell] |= if board.open & 1 << next != 0 {
                    EVERY_LETTER
                } else {
                    1 << board.letters[next]
                };
            }
        }
        Some(board)
    }
}

/// The fast walk over one board.
pub(super) struct FastWalk<'a> {
    pub(super) nodes: &'a [Node],
    pub(super) board: &'a FastBoard,
    pub(super) min_len: u32,
    pub(super) seen: &'a mut [u64],
    /// The letters of the open cell each word was found under (see
    /// [`Searcher::under`]); empty unless a cell is open.
    pub(super) under: &'a mut [Under],
    /// Where words are recorded: one slot per word of the trie and one more.
    pub(super) slots: &'a mut [u64],
    /// How many words `slots` holds.
    pub(super) count: usize,
    /// Steps left before the walk gives up.
    pub(super) budget: u64,
}

impl FastWalk<'_> {
    /// Walks every path of the board, with the processor's bit-counting
    /// instructions where it has them (`popcnt` finds a child's index in one
    /// instruction instead of a dozen).
    /// With `OPEN`, the board's open cell shows every letter and each word
    /// is recorded with the letters it was found under.
    pub(super) fn run<const OPEN: bool>(&mut self, cells: usize, pending: &mut [Pending; STACK]) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
        {
            // SAFETY: the features `run_bmi` is compiled for were just detected.
            unsafe { self.run_bmi::<OPEN>(cells, pending) };
            return;
        }
        self.run_portable::<OPEN>(cells, pending);
    }

    /// Steps from `node` to its child for `letter` (through `U` as well for a
    /// `Qu` cell) and returns the child, its index and the word's length, if
    /// the trie has that child.
    #[inline(always)]
    pub(super) fn step(&self, node: Node, letter: u8, len: u32) -> Option<(Node, u32, u32)> {
        let mut index = node.child(letter)?;
        let mut len = len + 1;
        if self.board.q == QReads::Qu && letter == b'Q' - b'A' {
            // The Qu face: the U must follow the Q in the trie too.
            index = self.nodes[index as usize].child(b'U' - b'A')?;
            len += 1;
        }
        Some((self.nodes[index as usize], index, len))
    }

    /// Records the word that ends at `child` (trie node `index`, `len`
    /// letters), if one does and it is new.
    #[inline(always)]
    pub(super) fn record(&mut self, child: Node, index: u32, len: u32) {
        // Whether a word ends here is as good as random, so it is recorded
        // without a branch: a mispredicted branch costs more than the stores.
        // The slot is written every time and kept only for a new word; the
        // count never passes the number of words, so the slot always exists.
        let (word, bit) = (index as usize / 64, 1u64 << (index % 64));
        let seen = self.seen[word];
        let fresh = child.is_word() & (len >= self.min_len) & (seen & bit == 0);
        self.seen[word] = seen | (bit * u64::from(fresh));
        self.slots[self.count] = Found { node: index, len }.pack();
        self.count += usize::from(fresh);
    }

    /// As [`FastWalk::record`] on a board with an open cell: the word is
    /// found with `letter` in the open cell (0 = A; [`ANY`]: on a path that
    /// avoids it). A word gets one slot, at its first finding.
    #[inline(always)]
    pub(super) fn record_open(&mut self, child: Node, index: u32, len: u32, letter: u8) {
        let old = self.under[index as usize].letters;
        let word = child.is_word() & (len >= self.min_len);
        self.under[index as usize].letters = old | (u32::from(word) << letter);
        self.slots[self.count] = Found { node: index, len }.pack();
        self.count += usize::from(word & (old == 0));
    }

    /// Issues a load of the cache line where `node`'s children start: they are
    /// needed when a path through `node` is taken off the stack, and the
    /// paths pushed before it give the load time to arrive.
    #[inline(always)]
    pub(super) fn prefetch_children(&self, node: Node) {
        prefetch(self.nodes.as_ptr().wrapping_add(node.first() as usize));
    }
}

/// A path waiting on the fast walk's stack: it ends at `cell` (with `visited`
/// the cells before it) and has reached trie node `node` after `len` letters;
/// `open` is the letter it took in the open cell, [`ANY`] if it has not been there.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Pending {
    pub(super) visited: u64,
    pub(super) node: u32,
    pub(super) cell: u8,
    pub(super) len: u8,
    pub(super) open: u8,
}

/// The letter code of a path that does not pass through the open cell: its
/// word is on the board whatever that cell shows.
pub(super) const ANY: u8 = 26;
/// [`ANY`] as a bit of a letter mask.
pub(super) const ANY_LETTER: u32 = 1 << ANY;
/// Every letter A–Z as bits.
pub(super) const EVERY_LETTER: u32 = (1 << 26) - 1;

/// Room for every path the fast walk can have waiting. Each path taken off
/// the stack puts back at most one per neighbour (8), or with an open cell
/// one per other neighbour (7) and one per letter into the open cell (26),
/// and a path has at most 64 cells, so 64 x 33 paths at most wait at once. A
/// power of two, so indexing needs no bounds check.
pub(super) const STACK: usize = 4096;

/// Defines the walk twice over: once portable, once compiled for extra
/// instructions, chosen at run time by [`FastWalk::run`].
macro_rules! walker {
    ($run:ident $(, $features:literal)?) => {
        impl FastWalk<'_> {
            /// Walks every path from every cell, depth first with a stack of
            /// waiting paths. A path is written to the stack and kept (the
            /// stack pointer moved) only if some neighbour of its cell shows a
            /// letter that continues a word: that test is as good as random,
            /// so it is done without a branch. With `OPEN`, the open cell
            /// takes every letter and each path carries the one it took.
            $(#[target_feature(enable = $features)])?
            pub(super) fn $run<const OPEN: bool>(&mut self, cells: usize, pending: &mut [Pending; STACK]) {
                let root = self.nodes[Trie::ROOT as usize];
                let board = self.board;
                // A local copy stays in a register through the walk.
                let mut budget = self.budget;
                'walk: for start in 0..cells.min(64) {
                    let open_start = OPEN && board.open & 1 << start != 0;
                    let mut firsts = if open_start { root.letters() } else { 1 << board.letters[start] };
                    while firsts != 0 {
                        let first = firsts.trailing_zeros() as u8;
                        firsts &= firsts - 1;
                        let Some((node, index, len)) = self.step(root, first, 0) else {
                            continue;
                        };
                        let tag = if open_start { first } else { ANY };
                        if OPEN {
                            self.record_open(node, index, len, tag);
                        } else {
                            self.record(node, index, len);
                        }
                        pending[0] = Pending { visited: 0, node: index, cell: start as u8, len: len as u8, open: tag };
                        let mut top = usize::from(node.letters() & board.near_letters[start] != 0);
                        while top > 0 {
                            if budget == 0 {
                                break 'walk;
                            }
                            budget -= 1;
                            top -= 1;
                            let path = pending[top & (STACK - 1)];
                            let (cell, node) = (usize::from(path.cell) & 63, self.nodes[path.node as usize]);
                            let visited = path.visited | 1 << cell;
                            let open = board.neighbours[cell] & !visited;
                            let mut letters = node.letters() & board.near_letters[cell];
                            while letters != 0 {
                                let letter = letters.trailing_zeros() as u8;
                                letters &= letters - 1;
                                let mut cells = open & board.cells_of[usize::from(letter)];
                                if cells == 0 {
                                    continue;
                                }
                                let Some((child, index, len)) = self.step(node, letter, u32::from(path.len)) else {
                                    continue;
                                };
                                if OPEN {
                                    // The word is found along paths through the
                                    // open cell, through others, or both.
                                    if cells & !board.open != 0 {
                                        self.record_open(child, index, len, path.open);
                                    }
                                    if cells & board.open != 0 {
                                        self.record_open(child, index, len, letter);
                                    }
                                } else {
                                    self.record(child, index, len);
                                }
                                self.prefetch_children(child);
                                let onward = child.letters();
                                while cells != 0 {
                                    let next = cells.trailing_zeros() as usize & 63;
                                    cells &= cells - 1;
                                    let tag = if OPEN && board.open & 1 << next != 0 { letter } else { path.open };
                                    pending[top & (STACK - 1)] = Pending { visited, node: index, cell: next as u8, len: len as u8, open: tag };
                                    top += usize::from(onward & board.near_letters[next] != 0);
                                }
                            }
                        }
                    }
                }
                self.budget = budget;
            }
        }
    };
}

walker!(run_portable);
#[cfg(target_arch = "x86_64")]
walker!(run_bmi, "popcnt,bmi1,bmi2");
