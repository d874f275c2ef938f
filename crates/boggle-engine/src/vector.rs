//! The vector walk: the search's fastest walker, for boards of at most 32
//! cells on processors with AVX-512 (`avx512f`, `avx512vl` and
//! `avx512vpopcntdq`, checked at run time). It finds the same words as the
//! bitmask walk in [`super::search`], by a different route.
//!
//! # How it works
//!
//! A waiting path is one `u64`: the cells it has visited (high half), its
//! trie node and its last cell (low half). Taking a path off the stack
//! steps it into all of its cell's neighbours at once, one neighbour per
//! 32-bit lane of a vector: which neighbours are unvisited and show a letter
//! the node has a child for is two lane-wise tests, each child's index is a
//! lane-wise popcount, and the children's nodes are loaded with one gather.
//! The children that end a word are packed into a list of candidates (with
//! `vpcompressd`), and those with a child letter next to their cell are
//! packed onto the stack (`vpcompressq`): no branch depends on the board or
//! the dictionary, so none is mispredicted.
//!
//! Each step is then a chain of dependent loads (the path, its node, its
//! children), so eight paths are taken off at once and stepped side by side:
//! the processor overlaps their chains, which a depth-first walk of one path
//! at a time cannot. A word found along several paths is a candidate once
//! per path; [`super::search`] keeps the first of each (a bit per trie node).
//!
//! # The open walk
//!
//! [`walk_open`] is the same walk with one cell open, showing every letter
//! at once (for [`Searcher::score_letters`](crate::search::Searcher::score_letters)).
//! The open cell is marked visited on every path, so the vector steps never
//! enter it. A path next to it that has not been there yet steps into it
//! afterwards, one letter at a time, without vectors. A path carries the
//! letter it took there (or "none") in the top five bits of its visited
//! half, and every word candidate carries that tag too. The paths that avoid
//! the open cell are walked once for all 26 letters, at the vector walk's speed.
//!
//! # Contract
//!
//! The same words as the bitmask walk, each reported once (duplicates along
//! several paths are dropped by [`super::search`]); where it cannot take a
//! board or the processor lacks AVX-512 it declines, and the bitmask walk
//! runs instead. The open walk finds what the bitmask walk's open walk
//! finds, with the same tags.
//!
//! What was tried and dropped is in `docs/notebook/` (the engine files).
//!
//! # Limits
//!
//! Boards of at most 32 cells (the visited set is 32 bits) whose cells have
//! at most 8 neighbours (every move rule here), tries of fewer than 2^27
//! nodes, and no cap on word length; `Qu` cells step through the `Q` and the
//! `U` child. Anything else is left to the bitmask walk. The open walk takes
//! boards of at most 27 cells, since its tag takes five of the visited set's bits.

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

use crate::face::QReads;
use crate::trie::{Node, Trie};

/// Most cells a board may have for the vector walk.
pub const MAX_CELLS: usize = 32;

/// Paths taken off the stack and stepped at once.
const BATCH: usize = 8;

/// Room on the stack: each batch may push 8 paths for each of its 8, so a
/// batch goes ahead only with that much room left (see [`walk`]). The most
/// seen waiting is 639, on a 4x8 board of `A`s with a word of every length.
const STACK: usize = 4096;

/// Room for word candidates before they are handed on.
const CANDIDATES: usize = 4096;

/// Bits of a waiting path's low half that hold its last cell (above them, its node).
const CELL_BITS: i32 = 5;

/// Letter code of a `Q` cell (the letters are 0 = A).
const Q: u32 = (b'Q' - b'A') as u32;

/// Letter code of `U`.
const U: u32 = (b'U' - b'A') as u32;

/// A board shape's neighbour lists, eight lanes per cell: a cell with fewer
/// neighbours repeats itself in the spare lanes (it is always on its own
/// path, so those lanes are never stepped into).
#[derive(Clone, Debug)]
pub struct Shape {
    neighbours: Box<[[u32; 8]; MAX_CELLS]>,
    /// The same by lane: `slots[j][cell]` is `neighbours[cell][j]`, so the
    /// letters next to every cell are eight permutes of a board's letters.
    slots: Box<[[u32; MAX_CELLS]; 8]>,
    cells: usize,
}

impl Shape {
    /// The shape whose cells step to `neighbour_masks[cell]`, if the vector
    /// walk can take it and this processor can run it.
    pub fn new(neighbour_masks: &[u64]) -> Option<Shape> {
        if !available() || neighbour_masks.len() > MAX_CELLS {
            return None;
        }
        let mut neighbours = Box::new([[0u32; 8]; MAX_CELLS]);
        let mut slots = Box::new([[0u32; MAX_CELLS]; 8]);
        for (cell, &mask) in neighbour_masks.iter().enumerate() {
            if mask.count_ones() > 8 || mask >> neighbour_masks.len() != 0 {
                return None;
            }
            let lanes = &mut neighbours[cell];
            lanes.fill(cell as u32);
            let mut rest = mask;
            let mut lane = 0;
            while rest != 0 {
                lanes[lane] = rest.trailing_zeros();
                rest &= rest - 1;
                lane += 1;
            }
            for (slot, &next) in slots.iter_mut().zip(lanes.iter()) {
                slot[cell] = next;
            }
        }
        Some(Shape {
            neighbours,
            slots,
            cells: neighbour_masks.len(),
        })
    }

    /// The number of cells.
    pub fn cells(&self) -> usize {
        self.cells
    }
}

/// Whether this processor runs the vector walk.
pub fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512vl")
            && std::arch::is_x86_feature_detected!("avx512vpopcntdq")
            && std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// The walk's scratch space, kept between boards.
#[derive(Clone, Debug)]
pub struct Scratch {
    stack: Box<[u64]>,
    candidates: Box<[u32]>,
}

impl Default for Scratch {
    fn default() -> Scratch {
        Scratch {
            stack: vec![0; STACK].into_boxed_slice(),
            candidates: vec![0; CANDIDATES].into_boxed_slice(),
        }
    }
}

/// One board for the walk: each cell's letter (0 = A, `Q` for `Qu`), and
/// how its `Q` cells read.
#[derive(Clone, Copy, Debug)]
pub struct Board {
    /// `letters[cell]` for the shape's cells; 0 past them.
    pub letters: [u32; MAX_CELLS],
    /// Whether a `Q` cell shows `Qu`.
    pub q: QReads,
}

/// How a walk ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every path was walked, in this many steps (paths taken off the stack).
    Done(u64),
    /// The step budget ran out: the words handed on may be incomplete.
    Exhausted,
}

/// Walks every path of `board` over the trie `nodes`, handing the trie nodes
/// of the words it ends on (with repeats, in no order) to `found`, a few
/// thousand at a time; at most `budget` steps. `None` if the board does not
/// fit `shape`, the trie is too large, or (never seen) the stack would
/// overflow: the caller then forgets what `found` was given and walks the
/// board another way.
pub fn walk(
    shape: &Shape,
    trie: &Trie,
    board: &Board,
    scratch: &mut Scratch,
    budget: u64,
    found: &mut dyn FnMut(&[u32]),
) -> Option<Outcome> {
    let nodes = trie.nodes();
    if nodes.is_empty() || nodes.len() >= 1 << (32 - CELL_BITS as usize) || !available() {
        return None;
    }
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: `available()` has just found every feature `run` is compiled
        // for, `nodes` is a whole trie (its invariant holds), and `run`'s own
        // checks keep its other loads and stores in bounds.
        unsafe { run::<false>(shape, nodes, board, 0, scratch, budget, found) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (scratch, budget, found);
        None
    }
}

/// Most cells a board may have for [`walk_open`]: a path's tag takes the
/// top five bits of its visited set.
pub const OPEN_MAX_CELLS: usize = 27;

/// Bits of a path's visited half (and of a candidate) that hold its tag.
const TAG_SHIFT: u32 = 27;

/// The tag of a path that has not been through the open cell.
pub const ANY: u32 = 26;

/// As [`walk`], on `board` with cell `open` showing every letter at once:
/// each candidate handed to `found` is a trie node with, in its top five
/// bits ([`split`]), the letter its path took in the open cell, or [`ANY`]
/// if the path avoided it. The open cell's own letter in `board` is ignored.
/// `None` where [`walk`] declines, and for boards above [`OPEN_MAX_CELLS`].
pub fn walk_open(
    shape: &Shape,
    trie: &Trie,
    board: &Board,
    open: usize,
    scratch: &mut Scratch,
    budget: u64,
    found: &mut dyn FnMut(&[u32]),
) -> Option<Outcome> {
    let nodes = trie.nodes();
    if nodes.is_empty()
        || nodes.len() >= 1 << TAG_SHIFT
        || shape.cells > OPEN_MAX_CELLS
        || open >= shape.cells
        || !available()
    {
        return None;
    }
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: as in `walk`; the trie's nodes also leave the top five
        // bits of a candidate free for its tag, checked just above.
        unsafe { run::<true>(shape, nodes, board, open, scratch, budget, found) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (open, scratch, budget, found);
        None
    }
}

/// A candidate of [`walk_open`]: its trie node and its tag.
pub fn split(candidate: u32) -> (u32, u32) {
    (candidate & ((1 << TAG_SHIFT) - 1), candidate >> TAG_SHIFT)
}

/// The walk itself (see the module docs). With `OPEN`, cell `open` shows
/// every letter: it is marked visited on every path, so the vector steps
/// never enter it, and a path next to it that has not been there yet steps
/// into it once per letter, one by one, taking that letter as its tag.
///
/// # Safety
///
/// The processor has the features `run` is compiled for, `nodes` is the
/// whole node array of a [`Trie`] (so every node's children lie inside it,
/// the trie's invariant), and its indices fit a path's low half next to its
/// cell.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx512vpopcntdq,popcnt")]
unsafe fn run<const OPEN: bool>(
    shape: &Shape,
    nodes: &[Node],
    board: &Board,
    open: usize,
    scratch: &mut Scratch,
    budget: u64,
    found: &mut dyn FnMut(&[u32]),
) -> Option<Outcome> {
    let cells = shape.cells;
    // Letters and the letters next to each cell, as two 16-lane vectors each
    // (cells 0-15 and 16-31), so a step reads its neighbours' with one permute.
    // SAFETY: the tables are 32 lanes, read 16 at a time.
    let (letters_lo, letters_hi) = unsafe {
        (
            _mm512_loadu_si512(board.letters.as_ptr().cast()),
            _mm512_loadu_si512(board.letters.as_ptr().add(16).cast()),
        )
    };
    let (mut near_lo, mut near_hi) = (_mm512_setzero_si512(), _mm512_setzero_si512());
    let one = _mm512_set1_epi32(1);
    for slot in shape.slots.iter() {
        // SAFETY: each slot is 32 lanes, read 16 at a time.
        let (lo, hi) = unsafe {
            (
                _mm512_loadu_si512(slot.as_ptr().cast()),
                _mm512_loadu_si512(slot.as_ptr().add(16).cast()),
            )
        };
        // A spare lane is the cell itself, whose letter then counts as
        // near: a looser test, never a wrong one.
        let letter_lo = _mm512_permutex2var_epi32(letters_lo, lo, letters_hi);
        let letter_hi = _mm512_permutex2var_epi32(letters_lo, hi, letters_hi);
        near_lo = _mm512_or_si512(near_lo, _mm512_sllv_epi32(one, letter_lo));
        near_hi = _mm512_or_si512(near_hi, _mm512_sllv_epi32(one, letter_hi));
    }
    let mut near = [0u32; MAX_CELLS];
    // SAFETY: 32 lanes stored 16 at a time.
    unsafe {
        _mm512_storeu_si512(near.as_mut_ptr().cast(), near_lo);
        _mm512_storeu_si512(near.as_mut_ptr().add(16).cast(), near_hi);
    }
    // The cells that step into the open cell (not the same as those it steps
    // to under the no-up rule), as bits: every letter is next to them.
    let mut next_to_open = 0u32;
    if OPEN {
        for (cell, (lanes, near)) in shape
            .neighbours
            .iter()
            .zip(&mut near)
            .enumerate()
            .take(cells)
        {
            if cell != open && lanes.contains(&(open as u32)) {
                next_to_open |= 1 << cell;
                *near = EVERY_LETTER;
            }
        }
        // SAFETY: 32 lanes loaded 16 at a time.
        unsafe {
            near_lo = _mm512_loadu_si512(near.as_ptr().cast());
            near_hi = _mm512_loadu_si512(near.as_ptr().add(16).cast());
        }
    }
    // Every path starts with the open cell visited and its tag ANY.
    let (open_bit, any_tag) = if OPEN {
        (1u32 << open, ANY << TAG_SHIFT)
    } else {
        (0, 0)
    };
    let reserve = if OPEN { BATCH * OPEN_PUSHES } else { BATCH * 8 };
    // The tag bits of a visited set (none without an open cell: there they
    // are cells of boards above 27 cells).
    let tag_bits = if OPEN {
        !(u32::MAX >> (32 - TAG_SHIFT))
    } else {
        0
    };
    let near_open = near[open & (MAX_CELLS - 1)];
    let q_code = _mm256_set1_epi32(if board.q == QReads::Qu { Q as i32 } else { -1 });
    let ones = _mm256_set1_epi32(1);
    let terminal = _mm256_set1_epi32(crate::trie::TERMINAL as i32);
    let stack = &mut scratch.stack;
    let candidates = &mut scratch.candidates;
    let root = nodes[0];
    let mut top = 0;
    let mut count = 0;
    // The first letters: a path of one cell waits only if its node goes on
    // with a letter next to it.
    for (cell, (&letter, &near)) in board.letters.iter().zip(&near).take(cells).enumerate() {
        if OPEN && cell == open {
            continue;
        }
        let Some(child) = step_letter(nodes, root, letter, board.q) else {
            continue;
        };
        // A word of one cell (under rules that count one or two letters).
        candidates[count] = child | any_tag;
        count += usize::from(nodes[child as usize].is_word());
        if nodes[child as usize].letters() & near != 0 {
            let visited = 1u32 << cell | open_bit | any_tag;
            stack[top] = u64::from(visited) << 32 | u64::from(child) << CELL_BITS | cell as u64;
            top += 1;
        }
    }
    if OPEN {
        // Paths that start in the open cell, one per letter.
        let visited = open_bit;
        (top, count) = enter_open(
            nodes, root, board.q, open, near_open, visited, stack, candidates, top, count,
        );
    }
    // A spare slot of a batch: every cell visited, so it steps nowhere.
    let idle = u64::from(u32::MAX) << 32;
    let mut left = budget;
    while top > 0 {
        let taken = top.min(BATCH);
        if left < taken as u64 {
            return Some(Outcome::Exhausted);
        }
        left -= taken as u64;
        top -= taken;
        let mut batch = [idle; BATCH];
        batch[..taken].copy_from_slice(&stack[top..top + taken]);
        if top + reserve > STACK {
            // Never seen (see `STACK`).
            return None;
        }
        if count + reserve > CANDIDATES {
            found(&candidates[..count]);
            count = 0;
        }
        for path in batch {
            let cell = (path as u32 & ((1 << CELL_BITS) - 1)) as usize;
            let visited = (path >> 32) as u32;
            let node = nodes[(path as u32 >> CELL_BITS) as usize];
            // SAFETY: a load of the 8 lanes of one cell's neighbour array
            // (indexed with a bounds check: a path's cell is 5 bits, the table 32).
            let next = unsafe { _mm256_loadu_si256(shape.neighbours[cell].as_ptr().cast()) };
            let next_16 = _mm512_castsi256_si512(next);
            let letters =
                _mm512_castsi512_si256(_mm512_permutex2var_epi32(letters_lo, next_16, letters_hi));
            let mask = _mm256_set1_epi32(node.letters() as i32);
            let bits = _mm256_sllv_epi32(ones, letters);
            let unvisited = _mm256_testn_epi32_mask(
                _mm256_srlv_epi32(_mm256_set1_epi32(visited as i32), next),
                ones,
            );
            let mut step = _mm256_mask_test_epi32_mask(unvisited, bits, mask);
            let rank = _mm256_popcnt_epi32(_mm256_and_si256(mask, _mm256_sub_epi32(bits, ones)));
            let mut child = _mm256_add_epi32(_mm256_set1_epi32(node.first() as i32), rank);
            // SAFETY: `node` is a node of the trie `nodes`, and the lanes of
            // `step` are its children: `first` plus their rank among its letters.
            let mut kids = unsafe { children(nodes, node, step, child, rank) };
            let qu = _mm256_mask_cmpeq_epi32_mask(step, letters, q_code);
            if qu != 0 {
                // Into a Qu cell: on from the Q child to its U child, if any.
                let q_masks = _mm512_cvtepi64_epi32(kids);
                let q_first = _mm512_cvtepi64_epi32(_mm512_srli_epi64::<32>(kids));
                let u_bit = _mm256_set1_epi32(1 << U);
                let with_u = _mm256_mask_test_epi32_mask(qu, q_masks, u_bit);
                let u_rank =
                    _mm256_popcnt_epi32(_mm256_and_si256(q_masks, _mm256_set1_epi32((1 << U) - 1)));
                child = _mm256_mask_add_epi32(child, with_u, q_first, u_rank);
                step &= !(qu & !with_u);
                // SAFETY: each lane of `step` is the `U` child of a `Q`
                // child: its first child plus the rank of `U` among its letters.
                kids = unsafe { gather(nodes, step, child) };
            }
            let kid_masks = _mm512_cvtepi64_epi32(kids);
            let words = _mm256_mask_test_epi32_mask(step, kid_masks, terminal);
            // SAFETY: `count + 8 <= CANDIDATES`, checked for the batch above.
            unsafe {
                _mm256_storeu_si256(
                    candidates.as_mut_ptr().add(count).cast(),
                    _mm256_maskz_compress_epi32(words, tagged(child, visited & tag_bits)),
                );
            }
            count += words.count_ones() as usize;
            let near = _mm512_castsi512_si256(_mm512_permutex2var_epi32(near_lo, next_16, near_hi));
            let onward = _mm256_mask_test_epi32_mask(step, kid_masks, near);
            let low = _mm256_or_si256(_mm256_slli_epi32::<CELL_BITS>(child), next);
            let high = _mm256_or_si256(
                _mm256_set1_epi32(visited as i32),
                _mm256_sllv_epi32(ones, next),
            );
            let paths = _mm512_or_si512(
                _mm512_cvtepu32_epi64(low),
                _mm512_slli_epi64::<32>(_mm512_cvtepu32_epi64(high)),
            );
            // SAFETY: `top + 8 <= STACK`, checked for the batch above.
            unsafe {
                _mm512_storeu_si512(
                    stack.as_mut_ptr().add(top).cast(),
                    _mm512_maskz_compress_epi64(onward, paths),
                );
            }
            top += onward.count_ones() as usize;
            if OPEN && next_to_open & 1 << cell != 0 && visited >> TAG_SHIFT == ANY {
                (top, count) = enter_open(
                    nodes,
                    node,
                    board.q,
                    open,
                    near_open,
                    visited & !tag_bits,
                    stack,
                    candidates,
                    top,
                    count,
                );
            }
        }
    }
    found(&candidates[..count]);
    Some(Outcome::Done(budget - left))
}

/// The nodes at the lanes of `index` where `lanes` is set (0 elsewhere).
///
/// # Safety
///
/// The processor has AVX-512 F and VL, and every lane of `index` set in
/// `lanes` is an index into `nodes`. The walk passes only children of trie
/// nodes (a node's `first()` plus the rank of one of its letters), which the
/// trie's invariant (`first + letters.count_ones() <= len`) keeps in bounds.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl")]
#[inline]
unsafe fn gather(nodes: &[Node], lanes: __mmask8, index: __m256i) -> __m512i {
    // SAFETY: a lane is loaded only where `lanes` is set, and there the
    // index is in `nodes` (this function's contract).
    unsafe {
        _mm512_mask_i32gather_epi64::<8>(
            _mm512_setzero_si512(),
            lanes,
            index,
            nodes.as_ptr().cast(),
        )
    }
}

/// The children of `node` at the lanes of `lanes` (0 elsewhere): the ones
/// at `rank` among its children, which are nodes `index`. A node with at
/// most 16 children has them loaded whole and picked by a permute; a
/// larger one (near the root) has them gathered.
///
/// # Safety
///
/// The processor has AVX-512 F and VL; `node` is a node of the trie whose
/// node array is `nodes`, so its children `first .. first + count` lie in
/// `nodes` (the trie's invariant); and each lane of `index` set in `lanes`
/// is one of those children, `first + rank`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl")]
#[inline]
unsafe fn children(
    nodes: &[Node],
    node: Node,
    lanes: __mmask8,
    index: __m256i,
    rank: __m256i,
) -> __m512i {
    let count = node.letters().count_ones();
    if count > 16 {
        // SAFETY: the lanes are children of `node` (this function's contract).
        return unsafe { gather(nodes, lanes, index) };
    }
    let first = node.first() as usize;
    let low = (1u32 << count.min(8)) - 1;
    let high = (1u32 << count.saturating_sub(8)) - 1;
    let base: *const i64 = nodes.as_ptr().wrapping_add(first).cast();
    // SAFETY: masked loads read only the lanes their mask keeps, which are
    // the node's children, in the trie; the other lanes never fault.
    let (lo, hi) = unsafe {
        (
            _mm512_maskz_loadu_epi64(low as __mmask8, base),
            _mm512_maskz_loadu_epi64(high as __mmask8, base.wrapping_add(8)),
        )
    };
    _mm512_maskz_permutex2var_epi64(lanes, lo, _mm512_cvtepu32_epi64(rank), hi)
}

/// Most paths one path taken off the stack puts back in an open walk: 7
/// into its other neighbours and 26 into the open cell.
const OPEN_PUSHES: usize = 7 + 26;

/// Every letter A–Z as bits.
const EVERY_LETTER: u32 = (1 << 26) - 1;

/// `child` with `tag` (already shifted into the top bits) in each lane.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl")]
#[inline]
fn tagged(child: __m256i, tag: u32) -> __m256i {
    _mm256_or_si256(child, _mm256_set1_epi32(tag as i32))
}

/// Steps a path at `node` (its visited set `visited`, without a tag) into
/// the open cell under each letter that continues a word: each word so ended
/// is a candidate, and each path that can go on is pushed, tagged with its
/// letter. Returns the new stack top and candidate count; the caller leaves
/// room for 26 of each.
#[allow(clippy::too_many_arguments)]
fn enter_open(
    nodes: &[Node],
    node: Node,
    q: QReads,
    open: usize,
    near_open: u32,
    visited: u32,
    stack: &mut [u64],
    candidates: &mut [u32],
    mut top: usize,
    mut count: usize,
) -> (usize, usize) {
    let mut letters = node.letters();
    while letters != 0 {
        let letter = letters.trailing_zeros();
        letters &= letters - 1;
        let Some(child) = step_letter(nodes, node, letter, q) else {
            continue;
        };
        let tag = letter << TAG_SHIFT;
        let kid = nodes[child as usize];
        candidates[count] = child | tag;
        count += usize::from(kid.is_word());
        if kid.letters() & near_open != 0 {
            stack[top] =
                u64::from(visited | tag) << 32 | u64::from(child) << CELL_BITS | open as u64;
            top += 1;
        }
    }
    (top, count)
}

/// The node a path at `node` reaches by stepping into a cell showing
/// `letter` (through the `U` as well for a `Qu` cell), if any word goes on so.
fn step_letter(nodes: &[Node], node: Node, letter: u32, q: QReads) -> Option<u32> {
    let child = node.child(letter as u8)?;
    if q == QReads::Qu && letter == Q {
        return nodes[child as usize].child(U as u8);
    }
    Some(child)
}
