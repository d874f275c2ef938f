//! The upper bound of one class: an orderly tree of sum and choice nodes built
//! from every word path the class allows, its first cells forced by merging
//! the paths' sorted keys, and the depth-first walk that forces the rest one
//! at a time, dropping letter choices whose bound falls below the target and
//! rescoring the boards that survive with the real solver.
//!
//! The classes of a group that differ only in their last cells share one
//! tree and one walk: each node holds a bound per class, in vector lanes, and
//! the walk goes on in the lanes where a letter's bound reaches the target.
//! A letter's bound counts the choices pending at each later position by the
//! best letter of their children's sum, not by each choice's own best.
//!
//! A path's (cell, letter) pairs are inserted in one order of cells
//! (positions), so the tree is a trie over sorted sets of (position, letter):
//! a sum node's children are choice nodes for later positions, at most one per
//! position; a choice node's children are sum nodes, one per letter of its cell.
//! A word spelled with the same letters on the same cells along several
//! paths is counted once.

use boggle_engine::Face;
use boggle_engine::SearchRules;
use boggle_engine::cpu::{prefetch, widest};
use boggle_engine::search::Searcher;
use boggle_engine::trie::{Node, Trie};

/// The cell order for a board shape (set for each group by
/// [`Layout::arrange`]) and the neighbours of each cell.
#[derive(Debug, Clone)]
pub struct Layout {
    rows: usize,
    cols: usize,
    /// `order[position]`: the cell forced at that depth.
    order: Vec<usize>,
    /// The order a fresh layout forces cells in, which classes are read in
    /// ([`Layout::arrange`] changes `order` only within its blocks).
    reading: Vec<usize>,
    /// `position[cell]`: where that cell is in `order`.
    position: Vec<usize>,
    /// `neighbours[cell]`: the cells a path may step to, as bits.
    neighbours: Vec<u32>,
}

impl Layout {
    /// The layout for `rules`' board (at most 32 cells): cells with the most
    /// neighbours first (centre, then edges, then corners), nearer the centre first.
    pub fn new(rules: &SearchRules) -> Layout {
        let (rows, cols) = (rules.rows, rules.cols);
        let table = boggle_engine::neighbours::Neighbours::new(rows, cols, rules.moves);
        let neighbours: Vec<u32> = (0..rows * cols)
            .map(|cell| table.of(cell).iter().fold(0u32, |m, &n| m | 1 << n))
            .collect();
        let mut order: Vec<usize> = (0..rows * cols).collect();
        // Twice the distance to the centre, squared, keeps everything in integers.
        let distance = |cell: usize| {
            let dr = (2 * (cell / cols)) as i64 - (rows as i64 - 1);
            let dc = (2 * (cell % cols)) as i64 - (cols as i64 - 1);
            dr * dr + dc * dc
        };
        order.sort_by_key(|&cell| {
            (
                std::cmp::Reverse(neighbours[cell].count_ones()),
                distance(cell),
                cell,
            )
        });
        let mut layout = Layout {
            rows,
            cols,
            reading: order.clone(),
            order,
            position: vec![0; rows * cols],
            neighbours,
        };
        layout.place();
        layout
    }

    /// Sets each cell's position from `order`.
    fn place(&mut self) {
        for (p, &cell) in self.order.iter().enumerate() {
            self.position[cell] = p;
        }
    }

    /// Rearranges the positions before the last `free` for cells that hold
    /// `letters` (by cell): within each block of cells with as many
    /// neighbours (the centre's, then the edges'), the cells with the fewest
    /// letters are forced first, the rest of the order kept. A cell with few
    /// letters forced early leaves fewer partial boards for the walk, and its
    /// letters (the vowels, usually) are in more words: on 4x4 groups, 1.3 to
    /// 3x fewer CPU-s (see the module docs of `prove`).
    pub fn arrange(&mut self, letters: &[Vec<u8>], free: usize) {
        let fixed = self.reading.len().saturating_sub(free);
        self.order.copy_from_slice(&self.reading);
        let neighbours = &self.neighbours;
        self.order[..fixed].sort_by_key(|&cell| {
            let held = letters.get(cell).map_or(0, Vec::len);
            (std::cmp::Reverse(neighbours[cell].count_ones()), held)
        });
        self.place();
    }

    /// The number of cells.
    pub fn cells(&self) -> usize {
        self.order.len()
    }

    /// The cells in the order they are forced.
    pub fn order(&self) -> &[usize] {
        &self.order
    }

    /// How many of the last positions a group leaves free: the cells with
    /// the fewest neighbours (the corners), if there are at most 6 of them.
    pub fn free(&self) -> usize {
        let fewest = self.neighbours.iter().map(|n| n.count_ones()).min();
        let count = self
            .neighbours
            .iter()
            .filter(|n| Some(n.count_ones()) == fewest)
            .count();
        if count <= 6 { count } else { 0 }
    }
}

/// Counters for one class's work.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Work {
    /// Sum and choice nodes written in the trees built (and grown).
    pub nodes: u64,
    /// Partial assignments whose bound was computed.
    pub steps: u64,
    /// Complete boards rescored with the solver.
    pub rescored: u64,
    /// Word paths collected (distinct keys).
    pub inserted: u64,
    /// Word paths a tree took with their sum node from its base, without
    /// bounding them again (see [`Base`]).
    pub taken: u64,
}

/// Most trie nodes a dictionary may have: an entry keeps its word's node in 24 bits.
pub const MAX_TRIE_NODES: usize = 1 << 24;

/// Bits per position in an entry's key: a letter index plus one, 0 where the path does not go.
const BITS: u32 = 5;

/// Depths of the orderly tree's stack: one sum node per pair of a path, and the root.
const DEPTH: usize = super::classes::MAX_CELLS + 1;

/// No open choice node at a stack depth.
const NONE: u32 = u32::MAX;

/// Where position `p`'s letter sits in an entry (position 0 in the top bits).
#[inline(always)]
fn shift(p: usize) -> u32 {
    128 - BITS * (p as u32 + 1)
}

/// An entry's bits for position `p`: its letter there, and the bit that says it goes there.
#[inline(always)]
fn pair_bits(p: usize) -> u128 {
    31u128 << shift(p) | 1u128 << (32 + p)
}

/// The letter index plus one an entry has at position `p` (0 = none).
#[inline(always)]
fn letter_at(entry: u128, p: usize) -> u32 {
    // Positions 0..12 lie in the top 64 bits: a 64-bit shift is a few
    // instructions fewer than a 128-bit one, in the passes' innermost loops.
    if p < 12 {
        ((entry >> 64) as u64 >> (shift(p) - 64)) as u32 & 31
    } else {
        ((entry >> shift(p)) & 31) as u32
    }
}

/// How many leading positions two entries' keys agree on (16 if all).
#[inline(always)]
fn common_positions(entry: u128, previous: u128) -> u32 {
    // The key is the top 80 bits: the high word, then 16 bits of the low one.
    let differ = entry ^ previous;
    let high = (differ >> 64) as u64;
    let bits = if high != 0 {
        high.leading_zeros()
    } else {
        64 + ((differ as u64 >> 48) as u16).leading_zeros()
    };
    bits / BITS
}

/// An entry's bits that say which path it is (its key and positions):
/// entries equal there are one path, whose points are added when merged.
const PATH: u128 = !0xffff_ffff;

/// The points a merged entry carries (its low 32 bits).
#[inline(always)]
fn points_of(entry: u128) -> u32 {
    entry as u32
}

/// The first position from `from` on that an entry uses, or `None` if it uses none.
#[cfg(test)]
fn next_position(entry: u128, from: usize) -> Option<usize> {
    // The key is the top 16 * BITS = 80 bits; the rest is the word and its points.
    let key = entry >> 48;
    let tail = key & ((1u128 << (80 - BITS as usize * from)) - 1);
    (tail != 0).then(|| (tail.leading_zeros() as usize - 48) / BITS as usize)
}

/// What a pass over sorted, merged entries meets, in depth-first order: the
/// orderly tree's nodes opening and closing. The sum node at depth `d` is
/// reached from the root by `d` (position, letter) pairs; each sum node has at
/// most one open choice node (its next position) at a time.
trait Visitor {
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
    fn points(&mut self, depth: usize, entry: u128);
}

/// Walks the orderly tree of sorted, merged `entries` in one pass, telling
/// `visitor` what opens and closes; the root's choices are closed at the end.
/// Entries sharing key bits share the pairs of those positions, so an entry
/// closes the sum nodes of the previous entry's pairs from the first position
/// where their keys differ, and opens its own from there.
#[inline(always)]
fn orderly<V: Visitor>(entries: impl IntoIterator<Item = u128>, visitor: &mut V) {
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
struct Open {
    /// `pair[d]`: the position of the pair leading to the sum node at depth
    /// `d + 1`; `choice[d]`: the position of the sum node at depth `d`'s
    /// open choice (`NONE` if none).
    pair: [u32; DEPTH],
    choice: [u32; DEPTH],
    depth: usize,
    previous: Option<u128>,
}

impl Open {
    fn new() -> Open {
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
    fn close_for<V: Visitor>(&mut self, entry: u128, visitor: &mut V) -> u32 {
        let first = self
            .previous
            .map_or(0, |previous| common_positions(entry, previous));
        while self.depth > 0 && self.pair[self.depth - 1] >= first {
            self.close(visitor);
        }
        // In sorted order the entry has a letter at `first` (unless its key
        // repeats the previous one): its pairs from there on are new.
        let used = u32::from((entry >> 32) as u16);
        used & !((1u32 << first.min(16)) - 1)
    }

    /// Opens the choice for position `p` under the open sum node, closing
    /// its other choice first, unless it is open already.
    #[inline(always)]
    fn choose<V: Visitor>(&mut self, p: u32, visitor: &mut V) {
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
    fn descend<V: Visitor>(&mut self, entry: u128, p: u32, visitor: &mut V) {
        self.depth += 1;
        self.choice[self.depth] = NONE;
        visitor.open_sum(self.depth, letter_at(entry, p as usize) - 1);
    }

    /// `entry`'s word path ends at the open sum node.
    #[inline(always)]
    fn end<V: Visitor>(&mut self, entry: u128, visitor: &mut V) {
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
    fn close_all<V: Visitor>(&mut self, visitor: &mut V) {
        while self.depth > 0 {
            self.close(visitor);
        }
        if self.choice[0] != NONE {
            visitor.close_choice(0);
        }
    }
}

/// [`orderly`] for a [`Builder`] over `entries`, the merged parts of
/// `shared`, on a tree whose [`Base`] is `shared.absent`'s: a sum node that
/// opens on a shared path, and that the next path with the forced letter
/// does not reach, holds shared paths only, so it is the base's, and the
/// pass steps over its paths instead of bounding them again.
#[inline(always)]
fn over_base<T: Lane, const N: usize>(
    entries: &[u128],
    shared: &Shared<'_>,
    visitor: &mut Builder<'_, T, N>,
) {
    let (absent, with, clear) = (shared.absent, shared.with, shared.clear);
    let mut open = Open::new();
    // The next entry, and the next of each part not passed yet.
    let (mut at, mut a, mut w) = (0, 0, 0);
    'entries: while at < entries.len() {
        let entry = entries[at];
        let shared_path = a < absent.len() && absent[a] & PATH == entry & PATH;
        let forced_path = w < with.len() && (with[w] & clear) & PATH == entry & PATH;
        // The first path with the forced letter after this one.
        let next = with.get(w + usize::from(forced_path)).map(|&e| e & clear);
        let mut rest = open.close_for(entry, visitor);
        while rest != 0 {
            let p = rest.trailing_zeros();
            rest &= rest - 1;
            open.choose(p, visitor);
            // The sum node that opens here holds the entries that agree with
            // this one up to position `p`; in sorted order, `next` would be
            // the first with the forced letter among them.
            let alone = shared_path
                && !forced_path
                && open.depth < visitor.cut
                && next.is_none_or(|next| common_positions(entry, next) <= p);
            let base = &visitor.tree.base;
            if alone && let Some(node) = base.at(a, open.depth + 1) {
                let (end, kid) = (base.ends[node] as usize, base.nodes[node]);
                let letter = letter_at(entry, p as usize) - 1;
                visitor.whole(open.depth + 1, letter, kid, (end - a) as u32);
                at += end - a;
                a = end;
                open.previous = Some(absent[a - 1]);
                continue 'entries;
            }
            open.descend(entry, p, visitor);
        }
        open.end(entry, visitor);
        at += 1;
        a += usize::from(shared_path);
        w += usize::from(forced_path);
    }
    open.close_all(visitor);
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
    fn points(&mut self, depth: usize, entry: u128) {
        self.sum[depth] += points_of(entry);
    }
}

/// The bound of the tree the sorted, merged `entries` make.
fn tree_bound(entries: impl IntoIterator<Item = u128>) -> u32 {
    let mut bound = Bound {
        sum: [0; DEPTH],
        best: [0; DEPTH],
    };
    orderly(entries, &mut bound);
    bound.sum[0]
}

/// How many of the first positions are forced by merging (see
/// [`Prover::force`]) before the tree is built and walked: two measured
/// best on 3x4 (one and three cost more than they save).
const FORCED: usize = 2;

/// A list still longer than this (in word paths) after the first
/// [`FORCED`] positions has one more forced by merging: its tree would be
/// large, and a tighter bound at the top of it pays for the merges; a
/// small one does not (see the module docs of `prove`).
const FORCE_MORE: usize = 2_000_000;

/// A list forced by merging is bounded before it is forced further or
/// built only if it holds at most this many paths. On 4x4, 1 of the 1,056
/// lists forced in five groups (of any length) was under the target, and
/// bounding the long ones cost more than it saved (seed 6's group, side by
/// side: 32.0/37.3 CPU-s with, 25.9/31.2 without). Nothing else is lost:
/// the lists a long one is forced into are bounded, and the tree built
/// from it bounds each of its lanes. 3x3's lists are shorter.
const BOUNDED: usize = 250_000;

/// Most free positions a group has (see [`Layout::free`]).
const MAX_FREE: usize = 6;

/// Most lanes one pass computes when it splits several free positions at once.
const MAX_LANES: usize = 16;

/// Lanes of the widest pass: one position with a bucket per letter.
const WIDEST: usize = 32;

/// How one pass splits entries on some free positions at once: lane `i` is
/// one assignment of buckets to those positions (the first position most
/// significant), and keeps the entries whose letters there are in its
/// buckets, or that do not go there.
#[derive(Debug, Clone)]
struct Split {
    positions: Vec<usize>,
    /// `admit[j][letter + 1]`: the lanes (as bits) that keep an entry with
    /// that letter at `positions[j]`; `admit[j][0]` is every lane.
    admit: Vec<[u32; 27]>,
    /// The same for two consecutive positions at once (or one alone),
    /// indexed by their bits of the key: where those bits start, and the table.
    pairs: Vec<(u32, Vec<u32>)>,
    lanes: usize,
}

impl Split {
    /// The split of `positions`, position `positions[j]` into the buckets `buckets[j]`.
    fn new(positions: &[usize], buckets: &[Vec<Vec<u8>>]) -> Split {
        let lanes: usize = buckets.iter().map(Vec::len).product();
        let all = if lanes >= 32 {
            u32::MAX
        } else {
            (1u32 << lanes) - 1
        };
        let mut admit = vec![[0u32; 27]; positions.len()];
        // Lanes below position j in the mixed radix: its digit is (lane / span) % radix.
        let mut span = lanes;
        for (j, sets) in buckets.iter().enumerate() {
            span /= sets.len();
            admit[j][0] = all;
            for lane in 0..lanes {
                let digit = (lane / span) % sets.len();
                for &l in &sets[digit] {
                    admit[j][usize::from(l) + 1] |= 1 << lane;
                }
            }
        }
        // Two consecutive positions' letters are 2 * BITS consecutive bits of the key.
        let mut runs = Vec::new();
        let mut j = 0;
        while j < positions.len() {
            let len = if j + 1 < positions.len() && positions[j + 1] == positions[j] + 1 {
                2
            } else {
                1
            };
            runs.push((&positions[j..j + len], &admit[j..j + len]));
            j += len;
        }
        let pairs = runs
            .into_iter()
            .map(|(pair, admits)| {
                let width = BITS * pair.len() as u32;
                let table = (0..1u32 << width)
                    .map(|bits| {
                        admits
                            .iter()
                            .enumerate()
                            .fold(u32::MAX, |lanes, (j, admit)| {
                                let letter = bits >> (width - BITS * (j as u32 + 1)) & 31;
                                lanes & admit.get(letter as usize).copied().unwrap_or(0)
                            })
                    })
                    .collect();
                (shift(pair[pair.len() - 1]), table)
            })
            .collect();
        Split {
            positions: positions.to_vec(),
            admit,
            pairs,
            lanes,
        }
    }

    /// The lanes (as bits) that keep `entry`.
    #[inline(always)]
    fn admits(&self, entry: u128) -> u32 {
        self.pairs.iter().fold(u32::MAX, |lanes, (shift, table)| {
            let bits = (entry >> shift) as usize & (table.len() - 1);
            lanes & table.get(bits).copied().unwrap_or(0)
        })
    }
}

/// A lane's value in a pass: `u16` (saturating, so a lane holds the
/// smaller of its bound and `u16::MAX`; 8 lanes per vector register) when the
/// target fits, `u32` otherwise.
trait Lane: Copy + Default + Ord {
    /// All bits set: a mask keeping the lane.
    const ONES: Self;
    /// The largest value, as `u32`: a value held there may stand for any larger one.
    const MAX: u32;
    /// The sum, held at the type's maximum.
    fn add(self, other: Self) -> Self;
    /// The difference, held at 0.
    fn sub(self, other: Self) -> Self;
    /// The sum, wrapping: [`Lane::wrapping_sub`] undoes it exactly.
    fn wrapping_add(self, other: Self) -> Self;
    /// The difference, wrapping.
    fn wrapping_sub(self, other: Self) -> Self;
    /// Both values' bits.
    fn and(self, other: Self) -> Self;
    /// Points as a lane value (held at the maximum).
    fn of(points: u32) -> Self;
    /// The lane's value.
    fn get(self) -> u32;
}

impl Lane for u16 {
    const ONES: u16 = u16::MAX;
    const MAX: u32 = u16::MAX as u32;
    #[inline(always)]
    fn add(self, other: u16) -> u16 {
        self.saturating_add(other)
    }
    #[inline(always)]
    fn sub(self, other: u16) -> u16 {
        self.saturating_sub(other)
    }
    #[inline(always)]
    fn wrapping_add(self, other: u16) -> u16 {
        u16::wrapping_add(self, other)
    }
    #[inline(always)]
    fn wrapping_sub(self, other: u16) -> u16 {
        u16::wrapping_sub(self, other)
    }
    #[inline(always)]
    fn and(self, other: u16) -> u16 {
        self & other
    }
    #[inline(always)]
    fn of(points: u32) -> u16 {
        points.min(u32::from(u16::MAX)) as u16
    }
    #[inline(always)]
    fn get(self) -> u32 {
        u32::from(self)
    }
}

impl Lane for u32 {
    const ONES: u32 = u32::MAX;
    const MAX: u32 = u32::MAX;
    #[inline(always)]
    fn add(self, other: u32) -> u32 {
        self.saturating_add(other)
    }
    #[inline(always)]
    fn sub(self, other: u32) -> u32 {
        self.saturating_sub(other)
    }
    #[inline(always)]
    fn wrapping_add(self, other: u32) -> u32 {
        u32::wrapping_add(self, other)
    }
    #[inline(always)]
    fn wrapping_sub(self, other: u32) -> u32 {
        u32::wrapping_sub(self, other)
    }
    #[inline(always)]
    fn and(self, other: u32) -> u32 {
        self & other
    }
    #[inline(always)]
    fn of(points: u32) -> u32 {
        points
    }
    #[inline(always)]
    fn get(self) -> u32 {
        self
    }
}

/// Which of `N` lanes keep an entry, from its letters on a [`Split`]'s positions.
#[derive(Debug)]
struct Masks<T: Lane, const N: usize> {
    positions: [usize; MAX_FREE],
    count: usize,
    /// `masks[j][letter + 1]`: all ones in the lanes that keep that letter at `positions[j]`.
    masks: [[[T; N]; 27]; MAX_FREE],
}

impl<T: Lane, const N: usize> Masks<T, N> {
    fn new(split: &Split) -> Masks<T, N> {
        let zero = T::default();
        let mut masks = Masks {
            positions: [0; MAX_FREE],
            count: split.positions.len(),
            masks: [[[zero; N]; 27]; MAX_FREE],
        };
        for (j, (&p, admit)) in split.positions.iter().zip(&split.admit).enumerate() {
            masks.positions[j] = p;
            for (mask, &bits) in masks.masks[j].iter_mut().zip(admit) {
                for (i, lane) in mask.iter_mut().enumerate() {
                    *lane = if bits >> i & 1 != 0 { T::ONES } else { zero };
                }
            }
        }
        masks
    }

    /// `value` in the lanes that keep `entry`, 0 in the others.
    #[inline(always)]
    fn kept(&self, entry: u128, value: T) -> [T; N] {
        let mut mask = [T::ONES; N];
        for j in 0..self.count {
            let more = &self.masks[j][letter_at(entry, self.positions[j]) as usize];
            for (m, &more) in mask.iter_mut().zip(more) {
                *m = m.and(more);
            }
        }
        mask.map(|m| value.and(m))
    }
}

/// The bounds of the trees a [`Split`] keeps, all in one pass, in `N` lanes
/// (at least the split's). Every node computes all lanes; a path's points
/// count only in the lanes that keep it (in the others its sum node is an
/// empty one, worth 0).
struct Lanes<T: Lane, const N: usize> {
    masks: Masks<T, N>,
    sum: [[T; N]; DEPTH],
    best: [[T; N]; DEPTH],
}

impl<T: Lane, const N: usize> Visitor for Lanes<T, N> {
    #[inline(always)]
    fn open_choice(&mut self, depth: usize, _p: usize) {
        self.best[depth] = [T::default(); N];
    }
    #[inline(always)]
    fn close_choice(&mut self, depth: usize) {
        let best = self.best[depth];
        add_lanes(&mut self.sum[depth], &best);
    }
    #[inline(always)]
    fn open_sum(&mut self, depth: usize, _letter: u32) {
        self.sum[depth] = [T::default(); N];
    }
    #[inline(always)]
    fn close_sum(&mut self, depth: usize) {
        let sum = self.sum[depth];
        max_lanes(&mut self.best[depth - 1], &sum);
    }
    #[inline(always)]
    fn points(&mut self, depth: usize, entry: u128) {
        let kept = self.masks.kept(entry, T::of(points_of(entry)));
        add_lanes(&mut self.sum[depth], &kept);
    }
}

fn lane_bounds_n<T: Lane, const N: usize>(
    entries: impl IntoIterator<Item = u128>,
    split: &Split,
) -> [u32; WIDEST] {
    let mut lanes = Lanes::<T, N> {
        masks: Masks::new(split),
        sum: [[T::default(); N]; DEPTH],
        best: [[T::default(); N]; DEPTH],
    };
    orderly(entries, &mut lanes);
    let mut bounds = [0; WIDEST];
    for (bound, &sum) in bounds.iter_mut().zip(&lanes.sum[0]) {
        *bound = sum.get();
    }
    bounds
}

/// A lane bound that may stand for any larger one (see [`lane_bounds`]).
const SATURATED: u32 = u16::MAX as u32;

/// The bound of each lane of `split` over `entries`, in one pass. With
/// `narrow`, in 16 bits: a bound of [`SATURATED`] means at least that.
fn lane_bounds(
    entries: impl IntoIterator<Item = u128>,
    split: &Split,
    narrow: bool,
) -> [u32; WIDEST] {
    // Lanes in whole vector registers; the unused ones stay 0.
    match (narrow, split.lanes) {
        (true, 0..=8) => lane_bounds_n::<u16, 8>(entries, split),
        (true, 9..=MAX_LANES) => lane_bounds_n::<u16, MAX_LANES>(entries, split),
        (true, _) => lane_bounds_n::<u16, WIDEST>(entries, split),
        (false, 0..=MAX_LANES) => lane_bounds_n::<u32, MAX_LANES>(entries, split),
        (false, _) => lane_bounds_n::<u32, WIDEST>(entries, split),
    }
}

/// A sum node of a built tree: its points and its choice nodes from
/// `choices[start]` on, one for each position in `positions` (as bits; none
/// for a leaf), the last position first (in sorted order a path that skips a
/// position comes before one that uses it); so the walk queues them without
/// reading them. It is kept in its parent's [`Tree::kids`], its bound apart.
#[derive(Debug, Clone, Copy, Default)]
struct SumNode {
    points: u32,
    start: u32,
    positions: u32,
}

impl SumNode {
    /// Where its first choice at a position in `mask` is: `mask` is one
    /// position, or every position from one on (choices are stored the last
    /// position first, so those before are the ones above `mask`'s highest).
    #[inline(always)]
    fn first(self, mask: u32) -> u32 {
        let above = !u32::MAX.checked_shr(mask.leading_zeros()).unwrap_or(0);
        self.start + (self.positions & above).count_ones()
    }
}

/// Set in a [`SumNode`]'s positions when its choices are not written yet:
/// its `start` is then an index into [`Tree::stubs`] (see [`Tree::grow`]).
const STUB: u32 = 1 << 31;

/// How many levels of sum nodes below a (sub)tree's root [`Tree::build`]
/// writes out; the sum nodes at the last level that have choices are
/// written as stubs, their choices written only when the walk reaches them.
const BUILT: usize = 6;

/// A sum node whose choices are not written yet: its word paths are
/// `entries[begin..end]` of the list the tree was built from, all of them
/// through the (position, letter) pairs of its path, whose positions
/// `prefix` holds (as bits).
#[derive(Debug, Clone, Copy)]
struct Stub {
    begin: u32,
    end: u32,
    prefix: u32,
    /// Whether the list is the base's (see [`Base`]), not the tree's own.
    base: bool,
}

/// A choice node of a built tree: the letters it has a child for (bit 0 =
/// A) and its children `kids[start..]`, one per letter in order. Its bound,
/// the best of its children's, is not kept: the walk reads every child's
/// bound anyway, and a choice in 8 bytes puts 8 of them in a cache line.
#[derive(Debug, Clone, Copy)]
struct ChoiceNode {
    letters: u32,
    start: u32,
}

/// A choice node's child while the tree is built: its sum node and its bound in each lane.
#[derive(Debug, Clone, Copy)]
struct Kid<T, const N: usize> {
    node: SumNode,
    bound: [T; N],
}

/// An orderly tree built for the walk, in three flat arrays, with a bound in
/// each of `N` lanes: lane `i` is the class that the `i`th assignment of
/// buckets to the free positions left makes (see [`Split`]), and a node's
/// bound there is its bound in that class's own tree (0 where the class
/// cannot reach it). So one tree, and one walk, serve up to `N` classes that
/// differ in their last cells. Nodes are written as they close, so a sum
/// node's choices, and a choice node's children, lie next to each other.
/// Only the top [`BUILT`] levels are written at first: the walk reaches few
/// nodes below (on a 4x4 group, 6% of the choice nodes in all, under 0.5%
/// of those more than six levels down), so the rest are written as it
/// reaches them ([`Tree::grow`]).
#[derive(Debug)]
struct Tree<T, const N: usize> {
    choices: Vec<ChoiceNode>,
    /// The choice nodes' children, and their bounds in an array of their
    /// own: the walk's sums read only the bounds, a choice's side by side.
    kids: Vec<SumNode>,
    bounds: Vec<[T; N]>,
    /// The sum nodes written as stubs, by the index in their `start`.
    stubs: Vec<Stub>,
    /// How many levels of sum nodes a pass writes out below its root ([`BUILT`]).
    built: usize,
    /// The root's sum node and its bound in each lane.
    root: SumNode,
    bound: [T; N],
    /// While building: each open sum node's closed choices (with their
    /// positions), and each open choice node's children.
    closed: Vec<Vec<(u32, ChoiceNode)>>,
    open: Vec<Vec<Kid<T, N>>>,
    /// The tree of the paths the lists of one forcing share, written first,
    /// and how many paths the last build took from it whole.
    base: Base<T, N>,
    taken: u64,
}

impl<T: Lane, const N: usize> Default for Tree<T, N> {
    fn default() -> Tree<T, N> {
        Tree {
            choices: Vec::new(),
            kids: Vec::new(),
            bounds: Vec::new(),
            stubs: Vec::new(),
            built: BUILT,
            root: SumNode::default(),
            bound: [T::default(); N],
            closed: Vec::new(),
            open: Vec::new(),
            base: Base::default(),
            taken: 0,
        }
    }
}

/// The lists one position's forcing makes, one per letter, share the paths
/// that skip the position ([`Shared::absent`]): this is their tree, built
/// once for all of them at the front of a [`Tree`]'s arrays, each letter's
/// own nodes written after it. A sum node of a letter's tree whose paths
/// are all shared is the base's, and the pass that builds the letter's tree
/// steps over those paths instead of bounding them again ([`over_base`]).
#[derive(Debug)]
struct Base<T, const N: usize> {
    /// The [`Shared::set`] it was built for (0: none).
    set: u64,
    /// How much of the tree's arrays it fills.
    choices: usize,
    kids: usize,
    stubs: usize,
    /// Its sum nodes down to [`Tree::built`] levels, in the order they open:
    /// the `first[i] as usize..first[i + 1] as usize`th are those whose first
    /// path is `absent[i]`, at depths from `from[i]` on, one each. For each,
    /// the end of its paths in the shared list, and what a parent keeps for it.
    ends: Vec<u32>,
    nodes: Vec<Kid<T, N>>,
    first: Vec<u32>,
    from: Vec<u8>,
    /// Its children that a walk grew (see [`Tree::grow`]), with the stubs
    /// they were, put back before the next letter's tree is written.
    grown: Vec<(u32, SumNode)>,
}

impl<T: Lane, const N: usize> Default for Base<T, N> {
    fn default() -> Base<T, N> {
        Base {
            set: 0,
            choices: 0,
            kids: 0,
            stubs: 0,
            ends: Vec::new(),
            nodes: Vec::new(),
            first: Vec::new(),
            from: Vec::new(),
            grown: Vec::new(),
        }
    }
}

impl<T: Lane, const N: usize> Base<T, N> {
    /// Where the sum node at `depth` whose first path is the shared list's
    /// `i`th is among the written ones, if it is.
    #[inline(always)]
    fn at(&self, i: usize, depth: usize) -> Option<usize> {
        let at = self.first[i] as usize + depth.checked_sub(usize::from(self.from[i]))?;
        (at < self.first[i + 1] as usize).then_some(at)
    }
}

/// A list forced by merging, in its two parts (see [`Base`]): `absent`, the
/// paths that skip the position just forced, and `with`, those with the
/// letter forced there, whose field `clear` clears. `set` names the
/// forcing, whose letters' lists all share `absent`.
#[derive(Debug, Clone, Copy)]
struct Shared<'a> {
    absent: &'a [u128],
    with: &'a [u128],
    clear: u128,
    set: u64,
}

/// What a [`Tree::write`] pass writes: the tree's own nodes, its [`Base`]
/// (recording its sum nodes), or a stub of the base grown by a walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Writing {
    Own,
    Base,
    Grown,
}

/// Builds a [`Tree`]: the open nodes of each depth, written out as they close.
struct Builder<'a, T: Lane, const N: usize> {
    tree: &'a mut Tree<T, N>,
    masks: &'a Masks<T, N>,
    /// The entries passed so far, and the index of the first in the tree's list.
    count: u32,
    offset: u32,
    /// The positions cleared from the entries (a stub's path), as bits.
    prefix: u32,
    /// How many levels of sum nodes are written ([`Tree::built`]).
    cut: usize,
    /// Where the open sum node at depth `cut` begins in the tree's list.
    begin: u32,
    /// Each open sum node's choices' positions, as bits.
    positions: [u32; DEPTH],
    /// Each open sum node's points, and its bound so far in each lane (its
    /// points where the lane keeps them, plus its closed choices' bounds).
    points: [u32; DEPTH],
    total: [[T; N]; DEPTH],
    /// The letter each open sum node is its choice parent's child for.
    letter: [u32; DEPTH],
    /// Each open choice node (under the sum node at that depth): position, letters and best child.
    position: [u32; DEPTH],
    letters: [u32; DEPTH],
    best: [[T; N]; DEPTH],
    closed: Vec<Vec<(u32, ChoiceNode)>>,
    open: Vec<Vec<Kid<T, N>>>,
    /// Whether the entries are the base's list (its stubs say so), and
    /// whether this pass writes the base (and records its sum nodes, each
    /// open one's record at `record_at[depth]`).
    base: bool,
    record: bool,
    record_at: [u32; DEPTH],
}

impl<T: Lane, const N: usize> Builder<'_, T, N> {
    /// A sum node of the base at `depth` (a child for `letter` of the open
    /// choice above it), whole: the pass steps over its `paths` paths.
    #[inline(always)]
    fn whole(&mut self, depth: usize, letter: u32, kid: Kid<T, N>, paths: u32) {
        max_lanes(&mut self.best[depth - 1], &kid.bound);
        self.open[depth - 1].push(kid);
        self.letters[depth - 1] |= 1 << letter;
        self.count += paths;
        self.tree.taken += u64::from(paths);
    }

    /// Writes out the sum node at `depth`'s choices, all closed, and returns the node.
    #[inline(always)]
    fn finish(&mut self, depth: usize) -> SumNode {
        let mut node = SumNode {
            points: self.points[depth],
            start: self.tree.choices.len() as u32,
            positions: 0,
        };
        // One by one: these lists are short, and a call to copy each costs more.
        for (position, choice) in self.closed[depth].drain(..) {
            node.positions |= 1 << position;
            self.tree.choices.push(choice);
        }
        node
    }

    /// The sum node at `depth` (= `cut`), closing: a leaf, or a stub for its choices.
    #[inline(always)]
    fn stub(&mut self, depth: usize) -> SumNode {
        let positions = self.positions[depth];
        if positions == 0 {
            return SumNode {
                points: self.points[depth],
                start: 0,
                positions: 0,
            };
        }
        let prefix = self.position[..depth]
            .iter()
            .fold(self.prefix, |prefix, &p| prefix | 1 << p);
        self.tree.stubs.push(Stub {
            begin: self.begin,
            end: self.offset + self.count,
            prefix,
            base: self.base,
        });
        SumNode {
            points: self.points[depth],
            start: self.tree.stubs.len() as u32 - 1,
            positions: positions | STUB,
        }
    }
}

impl<T: Lane, const N: usize> Visitor for Builder<'_, T, N> {
    #[inline(always)]
    fn open_choice(&mut self, depth: usize, p: usize) {
        self.position[depth] = p as u32;
        self.positions[depth] |= 1 << p;
        self.letters[depth] = 0;
        self.best[depth] = [T::default(); N];
    }
    #[inline(always)]
    fn close_choice(&mut self, depth: usize) {
        let bound = self.best[depth];
        add_lanes(&mut self.total[depth], &bound);
        if depth >= self.cut {
            return;
        }
        let node = ChoiceNode {
            letters: self.letters[depth],
            start: self.tree.kids.len() as u32,
        };
        for kid in self.open[depth].drain(..) {
            self.tree.kids.push(kid.node);
            self.tree.bounds.push(kid.bound);
        }
        self.closed[depth].push((self.position[depth], node));
    }
    #[inline(always)]
    fn open_sum(&mut self, depth: usize, letter: u32) {
        self.points[depth] = 0;
        self.positions[depth] = 0;
        self.total[depth] = [T::default(); N];
        self.letter[depth] = letter;
        if depth == self.cut {
            self.begin = self.offset + self.count;
        }
        if self.record && depth <= self.cut {
            let base = &mut self.tree.base;
            let path = (self.offset + self.count) as usize;
            while base.first.len() <= path {
                base.first.push(base.ends.len() as u32);
                base.from.push(depth as u8);
            }
            self.record_at[depth] = base.ends.len() as u32;
            base.ends.push(0);
            base.nodes.push(Kid {
                node: SumNode::default(),
                bound: [T::default(); N],
            });
        }
    }
    #[inline(always)]
    fn close_sum(&mut self, depth: usize) {
        let bound = self.total[depth];
        max_lanes(&mut self.best[depth - 1], &bound);
        if depth > self.cut {
            return;
        }
        let node = if depth < self.cut {
            self.finish(depth)
        } else {
            self.stub(depth)
        };
        if self.record {
            let at = self.record_at[depth] as usize;
            self.tree.base.ends[at] = self.offset + self.count;
            self.tree.base.nodes[at] = Kid { node, bound };
        }
        self.open[depth - 1].push(Kid { node, bound });
        self.letters[depth - 1] |= 1 << self.letter[depth];
    }
    #[inline(always)]
    fn points(&mut self, depth: usize, entry: u128) {
        self.count += 1;
        let points = points_of(entry);
        self.points[depth] += points;
        let kept = self.masks.kept(entry, T::of(points));
        add_lanes(&mut self.total[depth], &kept);
    }
}

/// The lanes of `lanes` (as bits) where `next` reaches `need`.
#[inline(always)]
fn reaching<T: Lane, const N: usize>(next: &[T; N], need: &[T; N], mut lanes: u32) -> u32 {
    for (lane, (next, need)) in next.iter().zip(need).enumerate() {
        if next < need {
            lanes &= !(1 << lane);
        }
    }
    lanes
}

/// Adds `more` to `lanes`, lane by lane (held at the type's maximum).
#[inline(always)]
fn add_lanes<T: Lane, const N: usize>(lanes: &mut [T; N], more: &[T; N]) {
    for (lane, &more) in lanes.iter_mut().zip(more) {
        *lane = lane.add(more);
    }
}

/// Keeps in `lanes` the larger of it and `other`, lane by lane.
#[inline(always)]
fn max_lanes<T: Lane, const N: usize>(lanes: &mut [T; N], other: &[T; N]) {
    for (lane, &other) in lanes.iter_mut().zip(other) {
        *lane = (*lane).max(other);
    }
}

impl<T: Lane, const N: usize> Tree<T, N> {
    /// Rebuilds the tree from sorted, merged `entries`, a lane for each of
    /// `masks`' classes, its sum nodes `built` levels deep.
    #[inline(always)]
    fn build(&mut self, entries: &[u128], masks: &Masks<T, N>, built: usize) {
        self.built = built;
        self.clear();
        let (root, bound) = self.write(
            masks,
            0,
            0,
            Writing::Own,
            #[inline(always)]
            |builder| orderly(entries.iter().copied(), builder),
        );
        self.root = root;
        self.bound = bound;
    }

    /// Empties the tree, its base included.
    #[inline(always)]
    fn clear(&mut self) {
        self.choices.clear();
        self.kids.clear();
        self.bounds.clear();
        self.stubs.clear();
        let base = &mut self.base;
        (base.set, base.choices, base.kids, base.stubs) = (0, 0, 0, 0);
        base.grown.clear();
    }

    /// Rebuilds the tree from `entries`, the merged parts of `shared`, over
    /// the base of its forcing: writes the base first if it is another
    /// forcing's, otherwise keeps it (and says so) and drops the last
    /// letter's nodes.
    #[inline(always)]
    fn build_over(
        &mut self,
        entries: &[u128],
        shared: &Shared<'_>,
        masks: &Masks<T, N>,
        built: usize,
    ) -> bool {
        let kept = self.base.set == shared.set && self.built == built;
        if !kept {
            self.built = built;
            self.clear();
            self.base.ends.clear();
            self.base.nodes.clear();
            self.base.first.clear();
            self.base.from.clear();
            self.write(
                masks,
                0,
                0,
                Writing::Base,
                #[inline(always)]
                |builder| orderly(shared.absent.iter().copied(), builder),
            );
            let base = &mut self.base;
            base.first
                .resize(shared.absent.len() + 1, base.ends.len() as u32);
            base.from.resize(shared.absent.len() + 1, 0);
            (base.set, base.choices, base.kids, base.stubs) = (
                shared.set,
                self.choices.len(),
                self.kids.len(),
                self.stubs.len(),
            );
        } else {
            while let Some((at, stub)) = self.base.grown.pop() {
                self.kids[at as usize] = stub;
            }
            // The base's nodes lead only to the base's (the tests check it).
            debug_assert!(self.kids[..self.base.kids].iter().all(|kid| {
                kid.positions & STUB != 0
                    || kid.positions == 0
                    || kid.start < self.base.choices as u32
            }));
            self.choices.truncate(self.base.choices);
            self.kids.truncate(self.base.kids);
            self.bounds.truncate(self.base.kids);
            self.stubs.truncate(self.base.stubs);
        }
        self.taken = 0;
        let (root, bound) = self.write(
            masks,
            0,
            0,
            Writing::Own,
            #[inline(always)]
            |builder| over_base(entries, shared, builder),
        );
        self.root = root;
        self.bound = bound;
        kept
    }

    /// Writes the choices of the stub `kids[at]` (of the tree built from
    /// `entries`), [`Tree::built`] levels of sum nodes deep, and returns its
    /// sum node, which replaces the stub. The same pass as [`Tree::build`]'s
    /// over its paths, with its path's pairs cleared, gives the same nodes
    /// in every lane that keeps its path's letters. Only those matter: the
    /// walk reaches the stub only after choosing those letters, and goes on
    /// only in the lanes that keep the letters it chose.
    #[inline(never)]
    fn grow(&mut self, walk: &Walk<'_, T, N>, at: usize) -> SumNode {
        let stub = self.stubs[self.kids[at].start as usize];
        let (list, writing) = if stub.base {
            (walk.absent, Writing::Grown)
        } else {
            (walk.entries, Writing::Own)
        };
        let paths = &list[stub.begin as usize..stub.end as usize];
        let mut clear = !0u128;
        let mut prefix = stub.prefix;
        while prefix != 0 {
            let p = prefix.trailing_zeros() as usize;
            prefix &= prefix - 1;
            clear &= !pair_bits(p);
        }
        let cleared = paths.iter().map(|&e| e & clear);
        let (node, _) = widest(
            #[inline(always)]
            || {
                self.write(
                    &walk.masks,
                    stub.begin,
                    stub.prefix,
                    writing,
                    #[inline(always)]
                    |builder| orderly(cleared, builder),
                )
            },
        );
        if at < self.base.kids {
            self.base.grown.push((at as u32, self.kids[at]));
        }
        self.kids[at] = node;
        node
    }

    /// One pass of a [`Builder`], which `run` drives over the paths (those
    /// of a list from `offset` on, the positions in `prefix` cleared): writes
    /// their nodes, and returns their root and its bound.
    #[inline(always)]
    fn write(
        &mut self,
        masks: &Masks<T, N>,
        offset: u32,
        prefix: u32,
        writing: Writing,
        run: impl FnOnce(&mut Builder<'_, T, N>),
    ) -> (SumNode, [T; N]) {
        let mut closed = std::mem::take(&mut self.closed);
        let mut open = std::mem::take(&mut self.open);
        closed.resize_with(DEPTH, Vec::new);
        open.resize_with(DEPTH, Vec::new);
        let cut = self.built;
        let mut builder = Builder {
            tree: self,
            masks,
            cut,
            count: 0,
            offset,
            prefix,
            begin: 0,
            positions: [0; DEPTH],
            points: [0; DEPTH],
            total: [[T::default(); N]; DEPTH],
            letter: [0; DEPTH],
            position: [0; DEPTH],
            letters: [0; DEPTH],
            best: [[T::default(); N]; DEPTH],
            closed,
            open,
            base: writing != Writing::Own,
            record: writing == Writing::Base,
            record_at: [0; DEPTH],
        };
        run(&mut builder);
        let root = builder.finish(0);
        let bound = builder.total[0];
        let (closed, open) = (builder.closed, builder.open);
        self.closed = closed;
        self.open = open;
        (root, bound)
    }

    /// Sum and choice nodes written (leaves included).
    fn nodes(&self) -> usize {
        self.kids.len() + self.choices.len() + 1
    }

    /// The children for `letter` of the choices `ids`: their points
    /// together, and the sum nodes among them that have choices, into `sums`
    /// (their choices written first where they are stubs: see [`Tree::grow`]).
    #[inline(always)]
    fn kids_for(
        &mut self,
        ids: &[u32],
        letter: usize,
        sums: &mut Vec<SumNode>,
        walk: &Walk<'_, T, N>,
    ) -> u32 {
        let bit = 1u32 << letter;
        let mut points = 0;
        for &id in ids {
            let choice = &self.choices[id as usize];
            if choice.letters & bit != 0 {
                let at = choice.start + (choice.letters & (bit - 1)).count_ones();
                let mut node = self.kids[at as usize];
                points += node.points;
                if node.positions & STUB != 0 {
                    node = self.grow(walk, at as usize);
                }
                if node.positions != 0 {
                    sums.push(node);
                }
            }
        }
        points
    }

    /// Asks for the choices of `sums`, then for their children's bounds,
    /// before [`Prover::queue`] reads them: they lie far apart in the tree,
    /// and the loads overlap this way (on 4x4 groups, 5-10% fewer CPU-s).
    /// Only the choices at the positions in `mask` (as for [`Prover::queue`]).
    #[inline]
    fn prefetch(&self, sums: &[SumNode], mask: u32) {
        for sum in sums {
            if sum.positions & mask != 0 {
                prefetch(self.choices.as_ptr().wrapping_add(sum.first(mask) as usize));
            }
        }
        for sum in sums {
            let choices = (sum.positions & mask).count_ones() as usize;
            for choice in &self.choices[sum.first(mask) as usize..][..choices] {
                prefetch(self.bounds.as_ptr().wrapping_add(choice.start as usize));
            }
        }
    }

    /// Whether a lane's bound may have been held at the lane type's maximum
    /// (below it, every node's bound is exact: none is larger than the root's).
    fn saturated(&self) -> bool {
        self.bound.iter().any(|b| b.get() >= T::MAX)
    }
}

/// The trees the walk uses: one lane (a class alone), or up to
/// [`MAX_LANES`] in 16 bits, or in 32 where a bound does not fit 16.
#[derive(Debug, Default)]
struct Trees {
    one: Tree<u32, 1>,
    narrow: Tree<u16, MAX_LANES>,
    wide: Tree<u32, MAX_LANES>,
}

/// A board's letters by cell (0 = A) and its score.
pub type Scored = (Vec<u8>, u32);

/// What [`Prover::force`] calls with each list it forces no further: the
/// prover, the list, the positions forced and, where the list was merged
/// from two parts, the parts (see [`Base`]); returns the highest bound met.
type Reached<'a, 't> = dyn FnMut(&mut Prover<'t>, &[u128], usize, Option<&Shared<'_>>) -> u32 + 'a;

/// What [`Prover::prove_group`] calls for each class: its free positions' buckets, bound and boards.
pub type Leaf<'a> = dyn FnMut(&[u8], u32, Vec<Scored>) + 'a;

/// Calls `visit` with every assignment of the free positions from `k` on (earlier ones as given).
fn each_assignment(
    free: &[Vec<Vec<u8>>],
    k: usize,
    digits: &mut [u8],
    visit: &mut dyn FnMut(&[u8]),
) {
    if k == free.len() {
        visit(digits);
        return;
    }
    for d in 0..free[k].len() {
        digits[k] = d as u8;
        each_assignment(free, k + 1, digits, visit);
    }
    digits[k] = 0;
}

/// Which assignments of buckets to a group's free positions are wanted, in
/// mixed radix (the first free position most significant).
struct Wanted {
    radix: Vec<usize>,
    wanted: Vec<bool>,
}

impl Wanted {
    fn new(free: &[Vec<Vec<u8>>], wanted: &mut dyn FnMut(&[u8]) -> bool) -> Wanted {
        let radix: Vec<usize> = free.iter().map(Vec::len).collect();
        let mut table = Vec::with_capacity(radix.iter().product());
        each_assignment(free, 0, &mut vec![0; free.len()], &mut |digits| {
            table.push(wanted(digits));
        });
        Wanted {
            radix,
            wanted: table,
        }
    }

    /// The index of a complete assignment in [`Wanted::wanted`].
    fn index(&self, digits: &[u8]) -> usize {
        digits
            .iter()
            .zip(&self.radix)
            .fold(0, |i, (&d, &r)| i * r + usize::from(d))
    }

    /// Whether any assignment that starts with `digits[..k]` is wanted.
    fn any(&self, digits: &[u8], k: usize) -> bool {
        let span: usize = self.radix[k..].iter().product();
        let start = digits[..k]
            .iter()
            .zip(&self.radix)
            .fold(0, |i, (&d, &r)| i * r + usize::from(d))
            * span;
        self.wanted[start..start + span].iter().any(|&w| w)
    }
}

/// Reusable scratch space for bounding classes: the word paths, the tree and the walk's lists.
pub struct Prover<'t> {
    trie: &'t Trie,
    rules: SearchRules,
    layout: Layout,
    searcher: Searcher<'t>,
    /// Points by word length in letters (0 where the length does not count).
    points: Vec<u32>,
    /// The class's letters, by position.
    letters: Vec<Vec<u8>>,
    /// `letter_cells[letter]`: the cells that may hold it, as bits.
    letter_cells: [u32; 26],
    /// Every word path: its (position, letter) set as a key in the top 80
    /// bits, the positions it uses as bits 32..48, then (until merged) its
    /// trie node and its points in the low 8 bits; merged, its points in the low 32 bits.
    entries: Vec<u128>,
    /// `levels[k][b]`: the entries kept with free position `k` in bucket `b`.
    levels: Vec<Vec<Vec<u128>>>,
    trees: Trees,
    /// While walking: `sums[position]`, the sum nodes (with choices) that
    /// forcing that position to the letter being walked reaches.
    sums: Vec<Vec<SumNode>>,
    /// The walk's pending choice nodes, by position.
    pending: Vec<Vec<u32>>,
    /// The merged key lists of the positions forced for a group, by depth.
    forced_group: Vec<Vec<u128>>,
    /// The same for one class (positions a group could not force).
    forced_class: Vec<Vec<u128>>,
    /// The letter index chosen at each position of the walk.
    chosen: [u8; 32],
    /// Forcings so far, to name each one's lists' base ([`Shared::set`]),
    /// and whether a forcing's lists share it (always, but in tests).
    sets: u64,
    share: bool,
    /// Lists longer than this get one more position forced ([`FORCE_MORE`]).
    force_more: usize,
    /// Levels of sum nodes a tree is built with before the walk ([`BUILT`]).
    built: usize,
    target: u32,
    faces: Vec<Face>,
    /// The boards the walk found, each with the lanes (as bits) it was found in.
    found: Vec<(u32, Scored)>,
    work: Work,
}

impl<'t> Prover<'t> {
    /// A prover over `trie` under `rules` (a board of at most 16 cells).
    pub fn new(trie: &'t Trie, rules: impl Into<SearchRules>) -> Prover<'t> {
        let rules: SearchRules = rules.into();
        let layout = Layout::new(&rules);
        let cells = layout.cells();
        Prover {
            trie,
            rules,
            searcher: Searcher::new(trie, rules),
            points: (0..=64).map(|n| rules.word_score(n).min(255)).collect(),
            letters: vec![Vec::new(); cells],
            letter_cells: [0; 26],
            entries: Vec::new(),
            levels: Vec::new(),
            trees: Trees::default(),
            sums: Vec::new(),
            pending: vec![Vec::new(); cells],
            forced_group: Vec::new(),
            forced_class: Vec::new(),
            chosen: [0; 32],
            sets: 0,
            share: true,
            force_more: FORCE_MORE,
            built: BUILT,
            target: 0,
            faces: vec![Face::BLANK; cells],
            found: Vec::new(),
            work: Work::default(),
            layout,
        }
    }

    /// Sets the letters each cell may hold (by cell, letters 0 = A).
    fn set_letters(&mut self, letters: &[Vec<u8>]) {
        for p in 0..self.layout.cells() {
            let cell = self.layout.order[p];
            self.set_position(p, &letters[cell]);
        }
    }

    fn set_position(&mut self, p: usize, letters: &[u8]) {
        self.letters[p].clear();
        self.letters[p].extend_from_slice(letters);
        let cell = self.layout.order[p];
        for (l, cells) in self.letter_cells.iter_mut().enumerate() {
            if letters.contains(&(l as u8)) {
                *cells |= 1 << cell;
            } else {
                *cells &= !(1 << cell);
            }
        }
    }

    /// Collects every word path of the boards whose cells hold `letters` (by
    /// cell, letters 0 = A), sorted and merged, into `entries`.
    fn collect(&mut self, letters: &[Vec<u8>], free: usize) {
        self.layout.arrange(letters, free);
        self.set_letters(letters);
        let cells = self.layout.cells();
        self.work = Work::default();
        self.entries.clear();
        let root = self.trie.node(Trie::ROOT);
        let all = if cells >= 32 {
            u32::MAX
        } else {
            (1u32 << cells) - 1
        };
        self.expand(root, all, 0, 0, 0, 0);
        self.entries.sort_unstable();
        self.entries.dedup();
        // Words are counted once per key now: merge each key's entries into
        // one whose low 32 bits hold their points together.
        let mut merged = 0;
        for i in 0..self.entries.len() {
            let entry = self.entries[i];
            let points = (entry & 0xff) as u32;
            let key = entry & PATH;
            if merged > 0 && self.entries[merged - 1] & PATH == key {
                self.entries[merged - 1] += u128::from(points);
            } else {
                self.entries[merged] = key | u128::from(points);
                merged += 1;
            }
        }
        self.entries.truncate(merged);
        self.work.inserted = self.entries.len() as u64;
    }

    /// The upper bound of the class whose cells hold `letters` (by cell, letters 0 = A).
    pub fn build(&mut self, letters: &[Vec<u8>]) -> u32 {
        self.collect(letters, 0);
        tree_bound(self.entries.iter().copied())
    }

    /// Proves a group of classes: the cells before the last `free.len()`
    /// positions hold `letters` (by cell); free position `k` holds one of
    /// `free[k]`'s buckets. The word paths are collected once, with every
    /// letter on the free positions, and split one free position at a time
    /// (one pass per list: the bounds of all its buckets, and their lists); a
    /// partial group whose bound is under the target is dropped whole. Calls
    /// `leaf(digits, bound, boards)` for each assignment of buckets to the
    /// free positions that `wanted` accepts.
    pub fn prove_group(
        &mut self,
        letters: &[Vec<u8>],
        free: &[Vec<Vec<u8>>],
        target: u32,
        wanted: &mut dyn FnMut(&[u8]) -> bool,
        leaf: &mut Leaf<'_>,
    ) {
        self.target = target;
        let table = Wanted::new(free, wanted);
        if !table.any(&[], 0) {
            return;
        }
        self.collect(letters, free.len());
        let entries = std::mem::take(&mut self.entries);
        if free.is_empty() {
            let bound = tree_bound(entries.iter().copied());
            let (bound, boards) = if bound >= target {
                self.search(&entries, 0)
            } else {
                (bound, Vec::new())
            };
            leaf(&[], bound, boards);
        } else {
            self.prove_free(&entries, free, &table, leaf);
        }
        self.entries = entries;
    }

    /// How many of the first positions are forced by merging: [`FORCED`], or every one of a smaller board.
    fn force_to(&self) -> usize {
        FORCED.min(self.layout.cells())
    }

    /// Proves a group's classes from its word paths `entries`: forces the
    /// positions before the free ones (up to [`Prover::force_to`]) by
    /// merging, once for the whole group, then splits each list left on the
    /// free positions. A class's bound is the highest met on its way.
    fn prove_free(
        &mut self,
        entries: &[u128],
        free: &[Vec<Vec<u8>>],
        table: &Wanted,
        leaf: &mut Leaf<'_>,
    ) {
        let mut levels = std::mem::take(&mut self.levels);
        levels.resize_with(free.len(), Vec::new);
        let mut digits = vec![0u8; free.len()];
        let mut results: Vec<(u32, Vec<Scored>)> = vec![(0, Vec::new()); table.wanted.len()];
        let fixed = self.layout.cells() - free.len();
        let end = self.force_to().min(fixed);
        let mut lists = std::mem::take(&mut self.forced_group);
        make_room(&mut lists, end, fixed);
        let dropped = self.force(
            &mut lists,
            0,
            end,
            entries,
            &mut |prover, list, depth, shared| {
                prover.descend(
                    &mut levels,
                    list,
                    shared,
                    0,
                    free,
                    table,
                    &mut digits,
                    depth,
                    &mut |digits, bound, boards| {
                        let (highest, found) = &mut results[table.index(digits)];
                        *highest = (*highest).max(bound);
                        found.extend(boards);
                    },
                );
                0
            },
        );
        self.forced_group = lists;
        self.levels = levels;
        each_assignment(free, 0, &mut digits, &mut |digits| {
            if table.any(digits, digits.len()) {
                let (highest, found) = std::mem::take(&mut results[table.index(digits)]);
                leaf(digits, highest.max(dropped), found);
            }
        });
    }

    /// Splits `entries` (free positions before `k` assigned as in `digits`)
    /// on the free positions from `k` on. When their classes fit the lanes
    /// of one tree ([`MAX_LANES`]), they are walked together
    /// ([`Prover::walk_lanes`]); otherwise the next positions are split, as
    /// many at once as the lanes allow: one pass gives every lane's bound, a
    /// second writes the lists of the lanes whose bound reaches the target,
    /// and those go on.
    #[allow(clippy::too_many_arguments)]
    fn descend(
        &mut self,
        levels: &mut [Vec<Vec<u128>>],
        entries: &[u128],
        shared: Option<&Shared<'_>>,
        k: usize,
        free: &[Vec<Vec<u8>>],
        table: &Wanted,
        digits: &mut [u8],
        forced: usize,
        leaf: &mut Leaf<'_>,
    ) {
        let first = self.layout.cells() - free.len();
        let together: usize = free[k..].iter().map(Vec::len).product();
        let (mut end, mut lanes) = (free.len(), together);
        if together > MAX_LANES {
            (end, lanes) = (k + 1, free[k].len());
            while end < free.len() && lanes * free[end].len() <= MAX_LANES {
                lanes *= free[end].len();
                end += 1;
            }
        }
        let positions: Vec<usize> = (first + k..first + end).collect();
        let split = Split::new(&positions, &free[k..end]);
        // A lane's digits for free positions k..end, in mixed radix.
        let set_digits = |lane: usize, digits: &mut [u8]| {
            let mut rest = lane;
            for j in (k..end).rev() {
                digits[j] = (rest % free[j].len()) as u8;
                rest /= free[j].len();
            }
        };
        let mut wanted = 0u32;
        for lane in 0..lanes {
            set_digits(lane, digits);
            if table.any(digits, end) {
                wanted |= 1 << lane;
            }
        }
        if together <= MAX_LANES {
            if wanted != 0 {
                self.walk_together(
                    entries,
                    shared,
                    forced,
                    &split,
                    wanted,
                    digits,
                    &set_digits,
                    leaf,
                );
            }
            for digit in &mut digits[k..] {
                *digit = 0;
            }
            return;
        }
        let mut lists = std::mem::take(&mut levels[k]);
        // 16-bit lanes whenever the target fits: a bound held at SATURATED
        // is then still at least the target, and is made exact by the search.
        let narrow = self.target <= SATURATED;
        let bounds = lane_bounds(entries.iter().copied(), &split, narrow);
        // The lists are written in a second pass, only for the lanes that go on.
        let mut going = 0u32;
        for (lane, &bound) in bounds.iter().enumerate().take(lanes) {
            if wanted >> lane & 1 != 0 && bound >= self.target {
                going |= 1 << lane;
            }
        }
        lists.resize_with(lanes, Vec::new);
        if going != 0 {
            for list in &mut lists {
                list.clear();
            }
            for &e in entries {
                let mut keep = split.admits(e) & going;
                while keep != 0 {
                    lists[keep.trailing_zeros() as usize].push(e);
                    keep &= keep - 1;
                }
            }
        }
        for (lane, &bound) in bounds.iter().enumerate().take(lanes) {
            if wanted >> lane & 1 == 0 {
                continue;
            }
            set_digits(lane, digits);
            if going >> lane & 1 == 0 {
                // Every class below has a bound at most this one's.
                each_assignment(free, end, digits, &mut |digits| {
                    if table.any(digits, digits.len()) {
                        leaf(digits, bound, Vec::new());
                    }
                });
                continue;
            }
            for (j, &p) in positions.iter().enumerate() {
                self.set_position(p, &free[k + j][usize::from(digits[k + j])]);
            }
            let list = std::mem::take(&mut lists[lane]);
            self.descend(levels, &list, None, end, free, table, digits, forced, leaf);
            lists[lane] = list;
        }
        for digit in &mut digits[k..end] {
            *digit = 0;
        }
        levels[k] = lists;
    }

    /// Walks the classes of `split`'s lanes in `wanted` together (see
    /// [`Prover::walk_lanes`]) and calls `leaf` for each with its digits
    /// (set by `set_digits`), bound and boards.
    #[allow(clippy::too_many_arguments)]
    fn walk_together(
        &mut self,
        entries: &[u128],
        shared: Option<&Shared<'_>>,
        forced: usize,
        split: &Split,
        wanted: u32,
        digits: &mut [u8],
        set_digits: &dyn Fn(usize, &mut [u8]),
        leaf: &mut Leaf<'_>,
    ) {
        self.found.clear();
        let bounds = self.walk_lanes(entries, shared, forced, split, wanted);
        let found = std::mem::take(&mut self.found);
        let mut lanes = wanted;
        while lanes != 0 {
            let lane = lanes.trailing_zeros() as usize;
            lanes &= lanes - 1;
            set_digits(lane, digits);
            let boards = found
                .iter()
                .filter(|(kept, _)| kept >> lane & 1 != 0)
                .map(|(_, board)| board.clone())
                .collect();
            leaf(digits, bounds[lane], boards);
        }
        self.found = found;
    }

    /// Extends a path at trie node `node` (just placed on `cell`, `len`
    /// letters long) into each free neighbour with each of its letters that
    /// continues a word. `used` holds the path's cells as bits, `positions`
    /// the same cells as positions, `key` its letters.
    fn extend(&mut self, cell: usize, node: u32, len: usize, used: u32, positions: u32, key: u128) {
        let here: Node = self.trie.node(node);
        if here.is_word() {
            let points = self.points[len.min(64)];
            if points > 0 {
                self.entries.push(
                    key | u128::from(positions) << 32 | u128::from(node) << 8 | u128::from(points),
                );
            }
        }
        if !here.has_children() || self.rules.max_len.is_some_and(|max| len >= max) {
            return;
        }
        let open = self.layout.neighbours[cell] & !used;
        self.expand(here, open, len, used, positions, key);
    }

    /// Places a path at trie node `here` on each cell of `open` that may hold
    /// one of the node's child letters. Letter by letter: a child's node is
    /// the node's first child plus the children before it, counted as the
    /// loop goes (no popcount per step; the build targets x86-64 without it).
    #[inline]
    fn expand(&mut self, here: Node, open: u32, len: usize, used: u32, positions: u32, key: u128) {
        let mut letters = here.letters();
        let mut child = here.first();
        while letters != 0 {
            let l = letters.trailing_zeros();
            letters &= letters - 1;
            let mut cells = open & self.letter_cells[l as usize];
            let mut node = child;
            child += 1;
            if cells == 0 {
                continue;
            }
            let mut more = 1;
            if self.rules.qu && l == u32::from(b'Q' - b'A') {
                match self.trie.node(node).child(b'U' - b'A') {
                    Some(u) => (node, more) = (u, 2),
                    None => continue,
                }
            }
            let letter = u128::from(l) + 1;
            while cells != 0 {
                let to = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                let p = self.layout.position[to];
                self.extend(
                    to,
                    node,
                    len + more,
                    used | 1 << to,
                    positions | 1 << p,
                    key | letter << shift(p),
                );
            }
        }
    }

    /// Every board of the class (the letters set now, positions before
    /// `depth` forced as chosen) whose word paths are `entries`, scoring at
    /// least the target, and the highest bound met on the way (at least the
    /// class's best score): forces the positions up to [`Prover::force_to`]
    /// by merging, then builds the tree and walks it.
    fn search(&mut self, entries: &[u128], depth: usize) -> (u32, Vec<Scored>) {
        let end = self.force_to().max(depth);
        let mut lists = std::mem::take(&mut self.forced_class);
        make_room(&mut lists, end, self.layout.cells());
        let alone = Split::new(&[], &[]);
        self.found.clear();
        let bound = self.force(
            &mut lists,
            depth,
            end,
            entries,
            &mut |prover, list, depth, shared| prover.walk_lanes(list, shared, depth, &alone, 1)[0],
        );
        self.forced_class = lists;
        let found = self.found.drain(..).map(|(_, board)| board).collect();
        (bound, found)
    }

    /// Forces positions `depth..end` one at a time (and one more where a
    /// list is longer than `force_more`, if `lists` has room: see
    /// [`make_room`]), each to every letter of its cell, by merging the keys
    /// without that position and those with that letter there (the field
    /// cleared). A forced tree's bound is that
    /// of its merged keys: tighter than the choice node's, because a merged
    /// sum node takes the best of its children's sums, not the sum of their
    /// bests. Calls `reached` on the lists left (those whose bound reaches
    /// the target, and the long ones, not bounded: see [`BOUNDED`]), and
    /// returns the highest bound met (of the lists dropped, and what
    /// `reached` returns).
    fn force(
        &mut self,
        lists: &mut [Vec<u128>],
        depth: usize,
        end: usize,
        entries: &[u128],
        reached: &mut Reached<'_, 't>,
    ) -> u32 {
        if self.forced_enough(entries, depth, end, lists.len()) {
            return reached(self, entries, depth, None);
        }
        // Sorted keys with no letter before `depth` are in blocks by their letter there.
        let absent = entries.partition_point(|&e| letter_at(e, depth) == 0);
        let clear = !pair_bits(depth);
        let mut merged = std::mem::take(&mut lists[depth + 1]);
        let mut highest = 0;
        self.sets += 1;
        let set = self.sets;
        for i in 0..self.letters[depth].len() {
            let letter = u32::from(self.letters[depth][i]) + 1;
            let with = &entries[absent..];
            let lo = with.partition_point(|&e| letter_at(e, depth) < letter);
            let hi = lo + with[lo..].partition_point(|&e| letter_at(e, depth) == letter);
            merged.clear();
            merge_into(
                &mut merged,
                &entries[..absent],
                with[lo..hi].iter().map(|&e| e & clear),
            );
            self.work.steps += 1;
            // A long list is not bounded first (see [`BOUNDED`]).
            if merged.len() <= BOUNDED {
                let bound = tree_bound(merged.iter().copied());
                if bound < self.target {
                    highest = highest.max(bound);
                    continue;
                }
            }
            self.chosen[depth] = i as u8;
            // A list forced no further is walked over its base (see [`Base`]).
            let bound = if self.forced_enough(&merged, depth + 1, end, lists.len()) {
                let shared = Shared {
                    absent: &entries[..absent],
                    with: &with[lo..hi],
                    clear,
                    set,
                };
                reached(
                    self,
                    &merged,
                    depth + 1,
                    Some(&shared).filter(|_| self.share),
                )
            } else {
                self.force(lists, depth + 1, end, &merged, reached)
            };
            highest = highest.max(bound);
        }
        lists[depth + 1] = merged;
        highest
    }

    /// Whether [`Prover::force`] goes no further with `entries` (positions
    /// before `depth` forced; it may force up to `end`, and one more where a
    /// list is long if `lists`, of length `room`, has room).
    fn forced_enough(&self, entries: &[u128], depth: usize, end: usize, room: usize) -> bool {
        depth >= end && (entries.len() <= self.force_more || depth + 1 >= room)
    }

    /// Builds the tree of `entries` (positions before `depth` forced) with a
    /// lane for each class of `split` (the last free positions, or none: one
    /// class), and walks it from `depth` for the lanes in `wanted` whose
    /// bound reaches the target, adding the boards found to `found`. Returns
    /// every lane's bound, exact: in 16 bits unless one is held at their
    /// maximum, then again in 32.
    fn walk_lanes(
        &mut self,
        entries: &[u128],
        shared: Option<&Shared<'_>>,
        depth: usize,
        split: &Split,
        wanted: u32,
    ) -> [u32; MAX_LANES] {
        let walk = (entries, shared, depth, split, wanted);
        if split.lanes == 1 {
            return self
                .walk_in(|trees| &mut trees.one, walk)
                .unwrap_or_default();
        }
        self.walk_in(|trees| &mut trees.narrow, walk)
            .or_else(|| self.walk_in(|trees| &mut trees.wide, walk))
            .unwrap_or_default()
    }

    /// [`Prover::walk_tree`] in the tree `pick` takes from [`Prover::trees`].
    fn walk_in<T: Lane, const N: usize>(
        &mut self,
        pick: fn(&mut Trees) -> &mut Tree<T, N>,
        (entries, shared, depth, split, wanted): (&[u128], Option<&Shared<'_>>, usize, &Split, u32),
    ) -> Option<[u32; MAX_LANES]> {
        let mut tree = std::mem::take(pick(&mut self.trees));
        let bounds = self.walk_tree(&mut tree, entries, shared, depth, split, wanted);
        *pick(&mut self.trees) = tree;
        bounds
    }

    /// [`Prover::walk_lanes`] in `tree`'s lanes; `None` (nothing walked) if a
    /// bound is held at the lane type's maximum.
    fn walk_tree<T: Lane, const N: usize>(
        &mut self,
        tree: &mut Tree<T, N>,
        entries: &[u128],
        shared: Option<&Shared<'_>>,
        depth: usize,
        split: &Split,
        wanted: u32,
    ) -> Option<[u32; MAX_LANES]> {
        let masks = Masks::new(split);
        let built = self.built;
        let kept = widest(
            #[inline(always)]
            || match shared {
                Some(shared) => tree.build_over(entries, shared, &masks, built),
                None => {
                    tree.build(entries, &masks, built);
                    false
                }
            },
        );
        // Nodes written: the base's only when it was (re)built.
        let written = tree.nodes();
        let base = if kept {
            tree.base.kids + tree.base.choices
        } else {
            0
        };
        self.work.nodes += (written - base) as u64;
        if shared.is_some() {
            self.work.taken += tree.taken;
        }
        if tree.saturated() {
            return None;
        }
        let mut bounds = [0; MAX_LANES];
        let mut alive = 0u32;
        let mut rest = [T::default(); N];
        for (lane, &bound) in tree.bound.iter().enumerate().take(split.lanes) {
            bounds[lane] = bound.get();
            rest[lane] = bound.sub(T::of(tree.root.points));
            if wanted >> lane & 1 != 0 && bound.get() >= self.target {
                alive |= 1 << lane;
            }
        }
        if alive == 0 {
            return Some(bounds);
        }
        for list in &mut self.pending {
            list.clear();
        }
        let cells = self.layout.cells();
        self.sums.resize_with(cells, Vec::new);
        let mut slack = Slack::new(cells);
        self.queue(tree, &mut slack, tree.root, u32::MAX);
        let walk = Walk {
            split,
            first: cells - split.positions.len(),
            entries,
            absent: shared.map_or(&[], |shared| shared.absent),
            masks,
        };
        let points = tree.root.points;
        widest(
            #[inline(always)]
            || self.walk(&walk, tree, &mut slack, depth, points, rest, alive),
        );
        // And the nodes of the stubs the walk grew.
        self.work.nodes += (tree.nodes() - written) as u64;
        Some(bounds)
    }

    /// The work done on the last group.
    pub fn work(&self) -> Work {
        self.work
    }

    /// Queues a sum node's choices at the positions in `mask` (one, or all
    /// from one on: see [`SumNode::first`]), counted in `slack`.
    #[inline(always)]
    fn queue<T: Lane, const N: usize>(
        &mut self,
        tree: &Tree<T, N>,
        slack: &mut Slack<T, N>,
        sum: SumNode,
        mask: u32,
    ) {
        let mut positions = sum.positions & mask;
        let mut id = sum.first(mask);
        while positions != 0 {
            let position = (31 - positions.leading_zeros()) as usize;
            self.pending[position].push(id);
            slack.count::<true>(tree, position, id);
            positions ^= 1 << position;
            id += 1;
        }
    }

    /// Queues the choices of `sums` at the positions in `mask` (as
    /// [`Prover::queue`]), their loads asked for first ([`Tree::prefetch`]).
    #[inline(always)]
    fn queue_all<T: Lane, const N: usize>(
        &mut self,
        tree: &Tree<T, N>,
        slack: &mut Slack<T, N>,
        sums: &[SumNode],
        mask: u32,
    ) {
        tree.prefetch(sums, mask);
        for &node in sums {
            self.queue(tree, slack, node, mask);
        }
    }

    /// Takes the choices queued at `position` since its list had `length` off again.
    #[inline(always)]
    fn unqueue_at<T: Lane, const N: usize>(
        &mut self,
        tree: &Tree<T, N>,
        slack: &mut Slack<T, N>,
        position: usize,
        length: u32,
    ) {
        let list = &mut self.pending[position];
        for &id in &list[length as usize..] {
            slack.count::<false>(tree, position, id);
        }
        list.truncate(length as usize);
    }

    /// Takes the choices queued at positions after `depth` since their lists
    /// had `lengths` off again, and out of `slack`.
    #[inline(always)]
    fn unqueue<T: Lane, const N: usize>(
        &mut self,
        tree: &Tree<T, N>,
        slack: &mut Slack<T, N>,
        depth: usize,
        lengths: &[u32; 32],
    ) {
        let positions = self.pending.len();
        for (position, &length) in lengths.iter().enumerate().take(positions).skip(depth + 1) {
            self.unqueue_at(tree, slack, position, length);
        }
    }

    /// Forces position `depth` to each of its letters in turn, in the lanes
    /// of `alive` (as bits). `points` is what the forced positions add up to
    /// (the same in every lane alive: a path's points count in every lane
    /// that keeps its letters, and the lanes alive keep every letter
    /// chosen), `rest` the bounds of the choice nodes pending, by lane.
    /// `slack`'s sums for this position give every letter's bound in every
    /// lane without a pass over its choices; a letter is walked, in the
    /// lanes where its bound reaches the target (and, on a free position,
    /// whose bucket holds it), after its children's choices are queued. In
    /// a lane alive, `points` plus `rest` never grows, so every sum here is
    /// at most the lane's root bound, which the lane type holds: the
    /// arithmetic is exact there (the lanes not alive may hold anything).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn walk<T: Lane, const N: usize>(
        &mut self,
        walk: &Walk<'_, T, N>,
        tree: &mut Tree<T, N>,
        slack: &mut Slack<T, N>,
        depth: usize,
        points: u32,
        rest: [T; N],
        alive: u32,
    ) {
        let positions = self.layout.cells();
        if depth == positions {
            self.rescore(alive);
            return;
        }
        let here = std::mem::take(&mut self.pending[depth]);
        let mut sums = std::mem::take(&mut self.sums[depth]);
        // Per lane, what this position's choices count for in `rest`, and per
        // letter their children's bounds, are in `slack`.
        debug_assert!(slack.matches(tree, depth, &here));
        let base = slack.without(depth, &rest);
        // A letter is checked against the bound first, then (only if it
        // passes) against the tighter one, `gap` less; what goes down is
        // `rest` itself.
        let loose = [T::of(self.target.saturating_sub(points)); N];
        let mut tight = None;
        let admit = walk.admit(depth);
        let mut lengths = [0u32; 32];
        for (length, list) in lengths.iter_mut().zip(&self.pending).skip(depth + 1) {
            *length = list.len() as u32;
        }
        let seen = slack.seen;
        // The gap of the positions after the next, before any letter here is
        // walked: the same for every letter (see [`Prover::peek`]).
        let mut ahead: Option<[T; N]> = None;
        for i in 0..self.letters[depth].len() {
            let letter = usize::from(self.letters[depth][i]);
            self.work.steps += 1;
            let mut next = base;
            add_lanes(&mut next, &slack.reach[depth][letter]);
            let mut lanes = reaching(
                &next,
                &loose,
                alive & admit.map_or(u32::MAX, |admit| admit[letter + 1]),
            );
            if lanes == 0 {
                continue;
            }
            // `match`, not `get_or_insert_with`: a closure there would stay a
            // call, compiled without `widest`'s instructions.
            let need = match tight {
                Some(ref need) => need,
                None => {
                    let mut need = loose;
                    if depth + 1 < positions {
                        add_lanes(&mut need, &slack.gap(depth + 1));
                    }
                    tight.insert(need)
                }
            };
            lanes = reaching(&next, need, lanes);
            if lanes == 0 {
                continue;
            }
            let gained = tree.kids_for(&here, letter, &mut sums, walk);
            let gain = T::of(gained);
            for next in &mut next {
                *next = next.sub(gain);
            }
            // The next position's choices first: if none of its letters can
            // pass, the rest need not be queued.
            let mut later = u32::MAX;
            if depth + 1 < positions {
                let at = 1u32 << (depth + 1);
                self.queue_all(tree, slack, &sums, at);
                let ahead = match ahead {
                    Some(ref ahead) => ahead,
                    None => ahead.insert(slack.gap(depth + 2)),
                };
                if !self.peek(walk, slack, depth + 1, points + gained, &next, lanes, ahead) {
                    self.unqueue_at(tree, slack, depth + 1, lengths[depth + 1]);
                    slack.seen = seen;
                    sums.clear();
                    continue;
                }
                later = !((at << 1) - 1);
            }
            self.queue_all(tree, slack, &sums, later);
            sums.clear();
            self.chosen[depth] = i as u8;
            // Through `widest` again: each level enters the wide copy.
            widest(
                #[inline(always)]
                || self.walk(walk, tree, slack, depth + 1, points + gained, next, lanes),
            );
            self.unqueue(tree, slack, depth, &lengths);
            slack.seen = seen;
        }
        self.sums[depth] = sums;
        self.pending[depth] = here;
    }

    /// Whether any letter at `depth` passes the tighter bound, before the
    /// last step has queued its choices past `depth`: `ahead` is the gap of
    /// the positions after `depth` without them, which is at most the gap
    /// with them (a choice's bound is at least its best child's), so this
    /// is still a bound. `rest` and `alive` are what the walk at `depth` would get.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn peek<T: Lane, const N: usize>(
        &self,
        walk: &Walk<'_, T, N>,
        slack: &Slack<T, N>,
        depth: usize,
        points: u32,
        rest: &[T; N],
        alive: u32,
        ahead: &[T; N],
    ) -> bool {
        let base = slack.without(depth, rest);
        let mut need = [T::of(self.target.saturating_sub(points)); N];
        add_lanes(&mut need, ahead);
        let admit = walk.admit(depth);
        // A loop, not `any`: see the walk's `need`.
        for &letter in &self.letters[depth] {
            let letter = usize::from(letter);
            let mut next = base;
            add_lanes(&mut next, &slack.reach[depth][letter]);
            let lanes = alive & admit.map_or(u32::MAX, |admit| admit[letter + 1]);
            if reaching(&next, &need, lanes) != 0 {
                return true;
            }
        }
        false
    }

    /// Scores the board the walk has chosen with the solver; keeps it, with
    /// the lanes it was found in, if it reaches the target.
    fn rescore(&mut self, lanes: u32) {
        self.work.rescored += 1;
        let mut letters = vec![0u8; self.layout.cells()];
        for (p, &cell) in self.layout.order.iter().enumerate() {
            let letter = self.letters[p][usize::from(self.chosen[p])];
            letters[cell] = letter;
            self.faces[cell] = if self.rules.qu && letter == b'Q' - b'A' {
                Face::QU
            } else {
                Face::letter(b'A' + letter).unwrap_or(Face::BLANK)
            };
        }
        let score = self
            .searcher
            .score_faces(self.layout.rows, self.layout.cols, &self.faces);
        if score >= self.target {
            self.found.push((lanes, (letters, score)));
        }
    }
}

/// What a walk reads besides the tree: which lanes keep each letter of the
/// free positions, and what grows the tree's stubs.
struct Walk<'a, T: Lane, const N: usize> {
    split: &'a Split,
    /// The entries the tree was built from, those its base was built from
    /// (empty without one), and the lanes that keep them, for [`Tree::grow`].
    entries: &'a [u128],
    absent: &'a [u128],
    masks: Masks<T, N>,
    /// The first free position (`split`'s first).
    first: usize,
}

impl<T: Lane, const N: usize> Walk<'_, T, N> {
    /// The lanes (as bits) that keep each letter at `position`, if it is a free one.
    fn admit(&self, position: usize) -> Option<&[u32; 27]> {
        position
            .checked_sub(self.first)
            .and_then(|j| self.split.admit.get(j))
    }
}

/// The choices the walk has pending at each position, summed as they are
/// queued and taken off again as it backs up, so that neither the walk nor
/// the tighter bound ([`Slack::gap`]) needs a pass over them: per position,
/// their bounds, their children's bounds by letter, and the letters they
/// have children for. The sums wrap, so taking a choice off undoes adding
/// it exactly; no sum passes its lane's root bound (the pending choices are
/// part of it), which the lane type holds, so none read has wrapped.
struct Slack<T, const N: usize> {
    lost: Vec<[T; N]>,
    reach: Vec<[[T; N]; 26]>,
    /// Letters with children at each position: may keep letters whose
    /// choices were taken off (their sums are back to 0, which changes no
    /// maximum); the walk restores it as it backs up.
    seen: [u32; 32],
}

impl<T: Lane, const N: usize> Slack<T, N> {
    fn new(positions: usize) -> Slack<T, N> {
        Slack {
            lost: vec![[T::default(); N]; positions],
            reach: vec![[[T::default(); N]; 26]; positions],
            seen: [0; 32],
        }
    }

    /// Counts choice `id`, pending at `position`, in the sums (`ADD`) or out of them.
    #[inline(always)]
    fn count<const ADD: bool>(&mut self, tree: &Tree<T, N>, position: usize, id: u32) {
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
    fn without(&self, position: usize, rest: &[T; N]) -> [T; N] {
        let mut base = *rest;
        for (base, &lost) in base.iter_mut().zip(&self.lost[position]) {
            *base = base.sub(lost);
        }
        base
    }

    /// Whether the sums at `position` are those of the choices `ids` (the
    /// walk checks it in debug builds, so the tests do).
    fn matches(&self, tree: &Tree<T, N>, position: usize, ids: &[u32]) -> bool {
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
    fn gap(&self, from: usize) -> [T; N] {
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

/// Sizes `lists` for [`Prover::force`] up to position `end`, with room for
/// one more where a list is long, but never past position `last` (the first
/// free one, or the board's end).
fn make_room(lists: &mut Vec<Vec<u128>>, end: usize, last: usize) {
    lists.resize_with((end + 2).min(last + 1), Vec::new);
}

/// Merges sorted `a` and sorted `b` into `out`, adding the points of equal keys.
fn merge_into(out: &mut Vec<u128>, a: &[u128], b: impl Iterator<Item = u128>) {
    let mut a = a.iter().copied().peekable();
    let mut b = b.peekable();
    loop {
        let next = match (a.peek(), b.peek()) {
            (Some(&x), Some(&y)) => {
                if x & PATH == y & PATH {
                    a.next();
                    b.next();
                    x + u128::from(points_of(y))
                } else if x < y {
                    a.next();
                    x
                } else {
                    b.next();
                    y
                }
            }
            (Some(&x), None) => {
                a.next();
                x
            }
            (None, Some(&y)) => {
                b.next();
                y
            }
            (None, None) => break,
        };
        out.push(next);
    }
}

#[cfg(test)]
fn sum_bound_of(entries: &[u128], lo: usize, hi: usize, from: usize) -> u32 {
    let mut total = 0u32;
    let mut i = lo;
    while i < hi && next_position(entries[i], from).is_none() {
        total += points_of(entries[i]);
        i += 1;
    }
    while i < hi {
        let Some(q) = next_position(entries[i], from) else {
            break;
        };
        let mut best = 0;
        while i < hi && next_position(entries[i], from) == Some(q) {
            let letter = letter_at(entries[i], q);
            let mut j = i + 1;
            while j < hi
                && letter_at(entries[j], q) == letter
                && next_position(entries[j], from) == Some(q)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A word list for the tests, as its trie.
    struct Dictionary(Trie);

    impl Dictionary {
        fn from_words(words: impl IntoIterator<Item = &'static str>) -> Dictionary {
            Dictionary(Trie::from_words(words))
        }

        fn trie(&self) -> &Trie {
            &self.0
        }
    }

    fn letters(cells: &[&[u8]]) -> Vec<Vec<u8>> {
        cells
            .iter()
            .map(|l| l.iter().map(|b| b - b'a').collect())
            .collect()
    }

    fn test_prover(dictionary: &Dictionary) -> Prover<'_> {
        Prover::new(dictionary.trie(), SearchRules::standard(3, 3))
    }

    fn dictionary() -> Dictionary {
        Dictionary::from_words([
            "tea", "eat", "ate", "seat", "east", "teas", "state", "taste", "estate", "sat", "set",
            "stet", "test", "tests", "aster", "rates", "stare", "tears", "treat", "street",
        ])
    }

    fn classes() -> Vec<Vec<Vec<u8>>> {
        vec![
            letters(&[b"aest".as_slice(); 9]),
            letters(&[b"aerst".as_slice(); 9]),
            letters(&[
                b"ae", b"rst", b"aeiou", b"st", b"e", b"rt", b"a", b"s", b"aest",
            ]),
        ]
    }

    #[test]
    fn cells_holding_fewer_letters_are_forced_first_within_their_block() {
        let mut layout = Layout::new(&SearchRules::standard(3, 3));
        assert_eq!(layout.order(), [4, 1, 3, 5, 7, 0, 2, 6, 8]);
        let cells = letters(&[
            b"ae", b"rst", b"ae", b"st", b"e", b"rt", b"a", b"s", b"aest",
        ]);
        // The last two positions (free) stay as read; the corners before them
        // hold as many letters, so they keep their order too.
        layout.arrange(&cells, 2);
        assert_eq!(layout.order(), [4, 7, 3, 5, 1, 0, 2, 6, 8]);
        layout.arrange(&cells, 0);
        assert_eq!(layout.order(), [4, 7, 3, 5, 1, 6, 0, 2, 8]);
        for (p, &cell) in layout.order().iter().enumerate() {
            assert_eq!(layout.position[cell], p);
        }
    }

    #[test]
    fn merging_adds_the_points_of_equal_keys() {
        let key = |k: u128| k << 48;
        let mut out = Vec::new();
        merge_into(
            &mut out,
            &[key(1) | 2, key(3) | 5],
            [key(2) | 1, key(3) | 7, key(4) | 1].into_iter(),
        );
        assert_eq!(out, [key(1) | 2, key(2) | 1, key(3) | 12, key(4) | 1]);
    }

    #[test]
    fn one_pass_bounds_match_the_recursive_ones() {
        let dictionary = dictionary();
        let mut prover = test_prover(&dictionary);
        for letters in classes() {
            let bound = prover.build(&letters);
            let entries = prover.entries.clone();
            assert!(bound > 0);
            assert_eq!(bound, sum_bound_of(&entries, 0, entries.len(), 0));
            let mut tree = Tree::<u32, 1>::default();
            tree.build(&entries, &Masks::new(&Split::new(&[], &[])), BUILT);
            assert_eq!(tree.bound, [bound]);
        }
    }

    #[test]
    fn lane_bounds_match_the_filtered_lists() {
        let dictionary = dictionary();
        let mut prover = test_prover(&dictionary);
        let three = letters(&[b"ae", b"st", b"bcdfghijklmnopqruvwxyz"]);
        let two = letters(&[b"aeiou", b"bcdfghjklmnpqrstvwxyz"]);
        let singles: Vec<Vec<u8>> = (0..26).map(|l| vec![l]).collect();
        for letters in classes() {
            prover.build(&letters);
            let entries = prover.entries.clone();
            for (positions, buckets) in [
                (vec![0], vec![three.clone()]),
                (vec![4], vec![singles.clone()]),
                (vec![5, 8], vec![three.clone(), two.clone()]),
                (vec![1, 2], vec![three.clone(), three.clone()]),
                (vec![3, 5, 6, 7], vec![two.clone(); 4]),
            ] {
                let split = Split::new(&positions, &buckets);
                let bounds = lane_bounds(entries.iter().copied(), &split, false);
                let narrow = lane_bounds(entries.iter().copied(), &split, true);
                let wide = lane_bounds_n::<u32, WIDEST>(entries.iter().copied(), &split);
                for lane in 0..split.lanes {
                    let kept = entries
                        .iter()
                        .copied()
                        .filter(|&e| split.admits(e) >> lane & 1 != 0);
                    assert_eq!(bounds[lane], tree_bound(kept), "{positions:?} lane {lane}");
                    assert_eq!(wide[lane], bounds[lane]);
                    assert_eq!(narrow[lane], bounds[lane].min(SATURATED));
                }
            }
        }
    }

    #[test]
    fn lane_trees_bound_each_class_as_its_own_tree() {
        let dictionary = dictionary();
        let mut prover = test_prover(&dictionary);
        let two = letters(&[b"aeiou", b"bcdfghjklmnpqrstvwxyz"]);
        let three = letters(&[b"ae", b"st", b"bcdfghijklmnopqruvwxyz"]);
        for letters in classes() {
            prover.build(&letters);
            let entries = prover.entries.clone();
            for (positions, buckets) in [
                (vec![6, 7, 8], vec![two.clone(), two.clone(), three.clone()]),
                (vec![], vec![]),
            ] {
                let split = Split::new(&positions, &buckets);
                // Scaled up, the bounds no longer fit 16 bits: built again in 32.
                for scale in [1, 5000] {
                    let scaled: Vec<u128> = entries
                        .iter()
                        .map(|&e| e & PATH | u128::from(points_of(e) * scale))
                        .collect();
                    prover.target = u32::MAX;
                    let bounds = prover.walk_lanes(&scaled, None, 0, &split, 0);
                    for (lane, &bound) in bounds.iter().enumerate().take(split.lanes) {
                        let kept = scaled
                            .iter()
                            .copied()
                            .filter(|&e| split.admits(e) >> lane & 1 != 0);
                        assert_eq!(
                            bound,
                            tree_bound(kept),
                            "{positions:?} x{scale} lane {lane}"
                        );
                    }
                    assert!(scale == 1 || bounds[0] > SATURATED);
                }
            }
        }
    }

    /// Every board whose cells hold `cells`' letters, with its score, by brute force.
    fn every_board(dictionary: &Dictionary, cells: &[Vec<u8>]) -> Vec<Scored> {
        let rules = SearchRules::standard(3, 3);
        let mut searcher = Searcher::new(dictionary.trie(), rules);
        let mut scores = Vec::new();
        let mut digits = [0usize; 9];
        'boards: loop {
            let board: Vec<u8> = (0..9).map(|c| cells[c][digits[c]]).collect();
            let faces: Vec<Face> = board
                .iter()
                .map(|&l| Face::letter(b'A' + l).unwrap_or(Face::BLANK))
                .collect();
            scores.push((board, searcher.score_faces(3, 3, &faces)));
            for c in 0..9 {
                digits[c] += 1;
                if digits[c] < cells[c].len() {
                    continue 'boards;
                }
                digits[c] = 0;
            }
            break;
        }
        scores
    }

    /// Calls `check` with a prover, the word paths of the class `cells`,
    /// every board of it scored, and each target to walk it with (1, half
    /// the best score, the best, one more).
    fn for_every_target(
        cells: &[&[u8]],
        mut check: impl FnMut(&mut Prover, &[u128], &[Scored], u32),
    ) {
        let dictionary = dictionary();
        let cells = letters(cells);
        let mut prover = test_prover(&dictionary);
        prover.collect(&cells, 0);
        let entries = std::mem::take(&mut prover.entries);
        let scores = every_board(&dictionary, &cells);
        let best = scores.iter().map(|s| s.1).max().unwrap_or(0);
        for target in [1, best / 2, best, best + 1] {
            prover.target = target;
            check(&mut prover, &entries, &scores, target);
        }
    }

    #[test]
    fn the_walk_finds_what_every_board_scores() {
        let cells: [&[u8]; 9] = [
            b"ae", b"rst", b"ae", b"st", b"e", b"rt", b"a", b"s", b"aest",
        ];
        for_every_target(&cells, |prover, entries, scores, target| {
            let (_, mut found) = prover.search(entries, 0);
            found.sort();
            let mut expected: Vec<Scored> =
                scores.iter().filter(|s| s.1 >= target).cloned().collect();
            expected.sort();
            assert_eq!(found, expected, "target {target}");
        });
    }

    #[test]
    fn a_long_list_forced_one_position_further_finds_the_same() {
        let cells: [&[u8]; 9] = [
            b"ae", b"rst", b"ae", b"st", b"e", b"rt", b"a", b"s", b"aest",
        ];
        for_every_target(&cells, |prover, entries, scores, target| {
            prover.force_more = 0;
            let (_, mut found) = prover.search(entries, 0);
            prover.force_more = FORCE_MORE;
            // The third position was forced by merging: its lists were written.
            assert!(!prover.forced_class[FORCED + 1].is_empty());
            found.sort();
            let mut expected: Vec<Scored> =
                scores.iter().filter(|s| s.1 >= target).cloned().collect();
            expected.sort();
            assert_eq!(found, expected, "target {target}");
        });
    }

    #[test]
    fn a_tree_built_over_its_forcings_base_makes_the_same_walk() {
        // Written whole, and two and three levels deep: the walks of one
        // forcing's lists then grow the base's stubs, which are put back
        // before the next list's tree is written over the base.
        let cells: [&[u8]; 9] = [b"aest"; 9];
        for_every_target(&cells, |prover, entries, _, target| {
            for built in [BUILT, 2, 3] {
                prover.built = built;
                let mut walks = Vec::new();
                for share in [true, false] {
                    prover.share = share;
                    prover.work = Work::default();
                    let (bound, mut found) = prover.search(entries, 0);
                    found.sort();
                    walks.push((bound, found, prover.work.steps));
                    // Paths are taken from a base exactly when lists share one.
                    assert_eq!(prover.work.taken > 0, share, "target {target}");
                }
                assert_eq!(walks[0], walks[1], "target {target}, {built} levels");
            }
            (prover.built, prover.share) = (BUILT, true);
        });
    }

    #[test]
    fn stubs_grown_as_the_walk_reaches_them_make_the_same_walk() {
        let cells: [&[u8]; 9] = [
            b"ae", b"rst", b"ae", b"st", b"e", b"rt", b"a", b"s", b"aest",
        ];
        for_every_target(&cells, |prover, entries, scores, target| {
            // The whole tree written at once, then stubs from one and two levels down.
            let mut walks = Vec::new();
            for built in [DEPTH, 1, 2] {
                prover.built = built;
                let steps = prover.work.steps;
                let (bound, mut found) = prover.search(entries, 0);
                found.sort();
                walks.push((bound, found, prover.work.steps - steps));
                assert_eq!(prover.trees.one.stubs.is_empty(), built == DEPTH);
            }
            prover.built = BUILT;
            let mut expected: Vec<Scored> =
                scores.iter().filter(|s| s.1 >= target).cloned().collect();
            expected.sort();
            assert_eq!(walks[0].1, expected, "target {target}");
            // The same bounds at every step: the same steps, boards and bound.
            assert_eq!(walks[1], walks[0], "target {target}");
            assert_eq!(walks[2], walks[0], "target {target}");
        });
    }

    #[test]
    fn lanes_walked_together_find_what_each_class_scores() {
        let cells: [&[u8]; 9] = [
            b"ae", b"rst", b"aest", b"st", b"e", b"rst", b"aest", b"s", b"aest",
        ];
        // The last two positions split into buckets: 2 x 3 classes.
        let buckets = [letters(&[b"ae", b"st"]), letters(&[b"a", b"e", b"st"])];
        let split = Split::new(&[7, 8], &buckets);
        let order = Layout::new(&SearchRules::standard(3, 3)).order().to_vec();
        let lane_of = |board: &[u8]| {
            let digit = |j: usize| {
                let letter = board[order[7 + j]];
                buckets[j].iter().position(|b| b.contains(&letter))
            };
            Some(digit(0)? * 3 + digit(1)?)
        };
        for_every_target(&cells, |prover, entries, scores, target| {
            let wanted = 0b11_1011; // every class but lane 2's
            // The whole tree written at once, then stubs from one and two
            // levels down (their paths' letters on the free positions cleared):
            // the same steps and boards.
            let mut walks = Vec::new();
            for built in [DEPTH, 1, 2] {
                prover.built = built;
                prover.found.clear();
                let steps = prover.work.steps;
                let bounds = prover.walk_lanes(entries, None, 0, &split, wanted);
                walks.push((bounds, prover.found.clone(), prover.work.steps - steps));
            }
            prover.built = BUILT;
            assert_eq!(walks[1], walks[0], "target {target}");
            assert_eq!(walks[2], walks[0], "target {target}");
            for lane in 0..split.lanes {
                let mut found: Vec<Scored> = prover
                    .found
                    .iter()
                    .filter(|(lanes, _)| lanes >> lane & 1 != 0)
                    .map(|(_, board)| board.clone())
                    .collect();
                found.sort();
                let mut expected: Vec<Scored> = scores
                    .iter()
                    .filter(|s| s.1 >= target && wanted >> lane & 1 != 0)
                    .filter(|s| lane_of(&s.0) == Some(lane))
                    .cloned()
                    .collect();
                expected.sort();
                assert_eq!(found, expected, "target {target} lane {lane}");
            }
        });
    }
}
