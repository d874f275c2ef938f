//! The vector walk: the search's fastest walker, for boards of at most 32
//! cells on processors with AVX-512 (`avx512f`, `avx512vl` and
//! `avx512vpopcntdq`) or AVX2, checked at run time. One algorithm
//! ([`lane_walk`]) over each instruction set's lane operations
//! ([`avx512`], [`avx2`]). It finds the same words as the bitmask walk in
//! [`super::search`], by a different route.
//!
//! # How it works
//!
//! A waiting path is two 32-bit halves, kept in two arrays: the cells it
//! has visited (high half), its trie node and its last cell (low half).
//! Taking a path off the stack steps it into all of its cell's neighbours
//! at once, one neighbour per 32-bit lane of a vector: which neighbours are
//! unvisited and show a letter the node has a child for is two lane-wise
//! tests, each child's index is a lane-wise popcount, and the children's
//! nodes are loaded whole and permuted (or gathered). The children that end
//! a word are packed into a list of candidates, and those with a child
//! letter next to their cell are packed onto the stack, each half by one
//! compressed store (`vpcompressd`, or on AVX2 a `vpermd` by a table): no
//! branch depends on the board or the dictionary, so none is mispredicted.
//!
//! Each step is then a chain of dependent loads (the path, its node, its
//! children), so eight paths are taken off at once and stepped side by side:
//! the processor overlaps their chains, which a depth-first walk of one path
//! at a time cannot; the batch's children are prefetched before its first
//! step, so their loads overlap as well. A word found along several paths is a candidate once
//! per path; [`super::search`] keeps the first of each (a bit per trie node).
//!
//! # The open walk
//!
//! [`walk_open`] is the same walk with one cell open, showing every letter
//! at once (for [`Searcher::score_letters`](crate::search::Searcher::score_letters)
//! and [`Searcher::score_moves`](crate::search::Searcher::score_moves)).
//! The open cell is marked visited on every path, so the vector steps never
//! enter it. A path next to it that has not been there yet steps into it
//! afterwards, one letter at a time, without vectors. The paths that avoid
//! the open cell are walked once for all 26 letters, at the vector walk's
//! speed.
//!
//! It can also score the open cell's swaps with a set of partner cells.
//! A path that has read no partner the swapped way may step into a partner
//! next to it reading the open cell's own letter, which is what that partner
//! shows once the two are swapped. From then on the path lies on that one
//! swap's board, and there the open cell shows the partner's letter. A swap
//! so costs only the paths that read its partner swapped, not a whole board's walk.
//!
//! Each path carries a state in the top seven bits of its visited half:
//! - the letter it took in the open cell, or "not yet";
//! - or the partner it read swapped, and whether it has been through the open cell.
//!
//! Every word candidate carries its path's visited half, so the caller
//! can tell which boards the word lies on. A path that reads a cell as
//! its own letter is not on that cell's swap board, and a path that took
//! letter `x` in the open cell is only on the boards of the partners showing `x`.
//!
//! # Contract
//!
//! The same words as the bitmask walk, each reported once (duplicates along
//! several paths are dropped by [`super::search`]); where it cannot take a
//! board or the processor lacks AVX2 it declines, and the bitmask walk
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
//! boards of at most 25 cells, since its state takes seven of the visited
//! set's bits. Its one-by-one steps into the open cell and the partners are
//! scalar code.

use crate::cpu::Simd;
use crate::face::QReads;
use crate::trie::{Node, Trie};

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;

/// Most cells a board may have for the vector walk.
pub(crate) const MAX_CELLS: usize = 32;

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
pub(crate) struct Shape {
    neighbours: Box<[[u32; 8]; MAX_CELLS]>,
    /// The same by lane: `slots[j][cell]` is `neighbours[cell][j]`, so the
    /// letters next to every cell are eight permutes of a board's letters.
    slots: Box<[[u32; MAX_CELLS]; 8]>,
    /// `masks[cell]`: the cells `cell` steps to, as bits.
    masks: [u32; MAX_CELLS],
    cells: usize,
    /// The lanes the walk runs on: [`Simd::Avx512`] or [`Simd::Avx2`].
    simd: Simd,
}

impl Shape {
    /// The shape whose cells step to `neighbour_masks[cell]`, walked on the
    /// lanes of `simd`, if the vector walk can take it and this processor
    /// has `simd` (`None` for [`Simd::None`]).
    pub(crate) fn new(neighbour_masks: &[u64], simd: Simd) -> Option<Shape> {
        if simd == Simd::None || !simd.present() || neighbour_masks.len() > MAX_CELLS {
            return None;
        }
        let mut neighbours = Box::new([[0u32; 8]; MAX_CELLS]);
        let mut slots = Box::new([[0u32; MAX_CELLS]; 8]);
        let mut masks = [0u32; MAX_CELLS];
        for (cell, &mask) in neighbour_masks.iter().enumerate() {
            if mask.count_ones() > 8 || mask >> neighbour_masks.len() != 0 {
                return None;
            }
            masks[cell] = mask as u32 & !(1 << cell);
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
            masks,
            cells: neighbour_masks.len(),
            simd,
        })
    }

    /// The number of cells.
    pub(crate) fn cells(&self) -> usize {
        self.cells
    }
}

/// The walk's scratch space, kept between boards. Paths and candidates
/// are kept by halves, one array each, so a step stores each half of its
/// packed lanes with one permute and one store.
#[derive(Clone, Debug)]
pub(crate) struct Scratch {
    /// The waiting paths' low halves: each its trie node and last cell.
    lows: Box<[u32]>,
    /// The waiting paths' high halves: each its visited cells (and state).
    highs: Box<[u32]>,
    /// Word candidates: their trie nodes.
    candidates: Box<[u32]>,
    /// The open walk's: each candidate's path's high half.
    paths: Box<[u32]>,
    /// Room for the two tables of neighbours' values (letters, then the
    /// letters that go on) of lanes that keep them in memory (AVX2): filled
    /// in place for each board, never cleared or copied.
    rows: Box<[Rows; 2]>,
}

/// `rows[cell]`: a value of each cell next to `cell`, in its neighbours' order.
type Rows = [[u32; 8]; MAX_CELLS];

impl Default for Scratch {
    fn default() -> Scratch {
        Scratch {
            lows: vec![0; STACK].into_boxed_slice(),
            highs: vec![0; STACK].into_boxed_slice(),
            candidates: vec![0; CANDIDATES].into_boxed_slice(),
            paths: vec![0; CANDIDATES].into_boxed_slice(),
            rows: Box::new([[[0; 8]; MAX_CELLS]; 2]),
        }
    }
}

/// One board for the walk: each cell's letter (0 = A, `Q` for `Qu`), and
/// how its `Q` cells read.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Board {
    /// `letters[cell]` for the shape's cells; 0 past them.
    pub(crate) letters: [u32; MAX_CELLS],
    /// Whether a `Q` cell shows `Qu`.
    pub(crate) q: QReads,
}

/// How a walk ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
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
pub(crate) fn walk(
    shape: &Shape,
    trie: &Trie,
    board: &Board,
    scratch: &mut Scratch,
    budget: u64,
    found: &mut dyn FnMut(&[u32]),
) -> Option<Outcome> {
    // No cell is open: `run::<false>` never reads this.
    let open = Open {
        cell: 0,
        own: 0,
        partners: 0,
    };
    let job = Job::new(shape, trie, board, open, budget)?;
    dispatch::<false>(job, scratch, found, &mut |_, _| {})
}

/// What one walk walks: a board of a shape over a trie's nodes, what is
/// open (read only by an open walk) and its step budget.
#[derive(Clone, Copy)]
struct Job<'a> {
    shape: &'a Shape,
    nodes: &'a [Node],
    board: &'a Board,
    open: Open,
    budget: u64,
}

impl<'a> Job<'a> {
    /// The job, if the walk can take `trie`: not empty, and its node
    /// indices fit a path's low half next to its cell.
    fn new(
        shape: &'a Shape,
        trie: &'a Trie,
        board: &'a Board,
        open: Open,
        budget: u64,
    ) -> Option<Job<'a>> {
        let nodes = trie.nodes();
        if nodes.is_empty() || nodes.len() >= 1 << (32 - CELL_BITS as usize) {
            return None;
        }
        Some(Job {
            shape,
            nodes,
            board,
            open,
            budget,
        })
    }
}

/// Runs `run::<OPEN>` on the lanes `job.shape` was made for.
fn dispatch<const OPEN: bool>(
    job: Job<'_>,
    scratch: &mut Scratch,
    found: &mut dyn FnMut(&[u32]),
    found_open: &mut dyn FnMut(&[u32], &[u32]),
) -> Option<Outcome> {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: `Shape::new` found the processor has `shape.simd`, every
        // feature its `run` is compiled for; the callers checked that `nodes`
        // is a whole trie whose indices fit a path (and with `OPEN`, the
        // board's size and `open`); `run`'s own checks keep its other loads
        // and stores in bounds.
        unsafe {
            match job.shape.simd {
                Simd::Avx512 => avx512::run::<OPEN>(job, scratch, found, found_open),
                Simd::Avx2 => avx2::run::<OPEN>(job, scratch, found, found_open),
                Simd::None => None,
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (job, scratch, found, found_open);
        None
    }
}

/// Most cells a board may have for [`walk_open`]: a path's state takes the
/// top seven bits of its visited set.
pub(crate) const OPEN_MAX_CELLS: usize = 25;

/// Where a path's state starts in its visited half (and in a candidate's high half).
const STATE_SHIFT: u32 = 25;

/// The cells of a visited half, without the state.
const CELLS: u32 = (1 << STATE_SHIFT) - 1;

/// The state of a path that has not been through the open cell (0-25: the
/// letter it took there).
pub(crate) const ANY: u32 = 26;

/// States from here on: the path read partner `state & 31` as the open
/// cell's own letter, so it lies on that one swap's board only.
pub(crate) const SWAPPED: u32 = 32;

/// Added to [`SWAPPED`] once such a path has been through the open cell too
/// (showing the partner's letter, as it does on that swap's board).
const SWAPPED_THROUGH: u32 = 64;

/// What an open walk opens: the cell that shows every letter and, for the
/// swaps of that cell, its own letter and the partners it may swap with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Open {
    /// The open cell.
    pub(crate) cell: usize,
    /// Its own letter (0 = A, `Q` for `Qu`): what a partner shows once swapped.
    pub(crate) own: u32,
    /// The cells it may swap with, as bits: none of them the open cell or
    /// showing `own` (0: the letters alone).
    pub(crate) partners: u32,
}

/// As [`walk`], on `board` with `open.cell` showing every letter at once,
/// and each partner of `open` also read as `open.own` (once a path): the
/// boards one move from `board` at that cell. The candidates are handed to
/// `found` as two lists: the words' trie nodes, and the high halves of their
/// paths, each its state and cells ([`split`]).
/// The open cell's own letter in `board` is ignored. `None` where [`walk`]
/// declines, and for boards above [`OPEN_MAX_CELLS`].
pub(crate) fn walk_open(
    shape: &Shape,
    trie: &Trie,
    board: &Board,
    open: Open,
    scratch: &mut Scratch,
    budget: u64,
    found: &mut dyn FnMut(&[u32], &[u32]),
) -> Option<Outcome> {
    let cells = shape.cells;
    if cells > OPEN_MAX_CELLS
        || open.cell >= cells
        || open.own >= 26
        || open.partners >> cells != 0
        || open.partners & 1 << open.cell != 0
    {
        return None;
    }
    let job = Job::new(shape, trie, board, open, budget)?;
    dispatch::<true>(job, scratch, &mut |_| {}, found)
}

/// The high half of a candidate's path in [`walk_open`]: its state
/// ([`ANY`], a letter taken in the open cell, or [`SWAPPED`] plus a
/// partner, plus 64 once through the open cell as well) and its cells, as bits.
pub(crate) fn split(path: u32) -> (u32, u32) {
    (path >> STATE_SHIFT, path & CELLS)
}

/// Whether a state from [`split`] is a swapped path's.
pub(crate) fn is_swapped(state: u32) -> bool {
    state >= SWAPPED
}

/// What [`start`] leaves the walk: the letters next to each cell (with
/// the open walk's additions) and the open walk's tables.
struct Tables {
    /// `near[cell]`: the letters a path at `cell` may step to next, as bits.
    near: [u32; MAX_CELLS],
    /// The cells that step into the open cell, as bits.
    next_to_open: u32,
    /// `partners_of[letter]`: the partners showing it, the only ones a path
    /// that took that letter in the open cell may still swap with.
    partners_of: [u32; 26],
}

/// The walk's first step, shared by every set of lane operations: the
/// open walk's additions to `near`, and every path of one cell (and with
/// `OPEN`, into the open cell and the partners) pushed on `out`, their
/// words recorded there.
#[inline(always)]
fn start<const OPEN: bool>(
    shape: &Shape,
    nodes: &[Node],
    board: &Board,
    open: Open,
    mut near: [u32; MAX_CELLS],
    out: &mut Out<'_>,
) -> Tables {
    let cells = shape.cells;
    let open_cell = open.cell & (MAX_CELLS - 1);
    // The cells that step into the open cell (not the same as those it steps
    // to under the no-up rule), as bits: every letter is next to them; and
    // the open cell's own letter is next to the cells that step into a partner.
    let mut next_to_open = 0u32;
    if OPEN {
        for (cell, (&steps, near)) in shape.masks.iter().zip(&mut near).enumerate().take(cells) {
            if steps & 1 << open_cell != 0 {
                next_to_open |= 1 << cell;
                *near = EVERY_LETTER;
            }
            if steps & open.partners != 0 {
                *near |= 1 << open.own;
            }
        }
    }
    // Every path starts with the open cell visited and its state ANY.
    let (open_bit, any_state) = if OPEN {
        (1u32 << open_cell, ANY << STATE_SHIFT)
    } else {
        (0, 0)
    };
    // Only an open walk reads it: 26 sweeps of the board are not free.
    let partners_of: [u32; 26] = if OPEN && open.partners != 0 {
        std::array::from_fn(|letter| {
            (0..cells)
                .filter(|&cell| board.letters[cell] == letter as u32)
                .fold(0, |bits, cell| bits | 1 << cell)
                & open.partners
        })
    } else {
        [0; 26]
    };
    let root = nodes[0];
    // The first letters (a word of one cell counts under rules that count
    // one or two letters).
    for (cell, (&letter, &near)) in board.letters.iter().zip(&near).take(cells).enumerate() {
        if OPEN && cell == open_cell {
            continue;
        }
        if let Some(child) = step_letter(nodes, root, letter, board.q) {
            out.push(
                nodes,
                child,
                cell,
                near,
                1u32 << cell | open_bit | any_state,
            );
        }
    }
    if OPEN {
        // Paths that start in the open cell, one per letter, and in a
        // partner showing the open cell's letter.
        out.enter_open(
            nodes,
            root,
            root.letters(),
            board.q,
            open_cell,
            near[open_cell],
            open_bit,
            |letter| letter,
        );
        out.swap_into(
            nodes,
            root,
            board.q,
            open,
            open.partners,
            &near,
            open_bit,
            0,
        );
    }
    Tables {
        near,
        next_to_open,
        partners_of,
    }
}

/// Defines `run`, the walk itself (see the module docs), over the lane
/// operations of the module it is used in, compiled for the features given
/// as its attributes. One algorithm for every width: the module supplies
/// the vector types and what differs between instruction sets (the mask
/// tests, the lane popcount, the gathers, the compressed stores, the
/// tables of letters next to a cell); the lane arithmetic both sets share
/// (`_mm256_*` of AVX2) is written here.
///
/// `run::<OPEN>`: with `OPEN`, `open.cell` shows every letter: it is marked
/// visited on every path, so the vector steps never enter it, and a path
/// next to it that has not been there yet steps into it once per letter,
/// one by one, taking that letter as its state. A path that has read no
/// partner the swapped way may then read one next to it as `open.own`, one
/// by one too. Words go to `found` as `u32` trie nodes, or with `OPEN` to
/// `found_open` as candidates ([`split`]).
macro_rules! lane_walk {
    ($(#[$features:meta])*) => {
        /// The walk over this module's lanes: see [`lane_walk`](super::lane_walk).
        ///
        /// # Safety
        ///
        /// The processor has the features `run` is compiled for, `job.nodes` is
        /// the whole node array of a [`Trie`](crate::trie::Trie) (so every node's
        /// children lie inside it, the trie's invariant), and its indices fit a
        /// path's low half next to its cell. With `OPEN`, the board has at most
        /// [`OPEN_MAX_CELLS`] cells and `job.open` names its cells.
        $(#[$features])*
        pub(super) unsafe fn run<const OPEN: bool>(
            job: Job<'_>,
            scratch: &mut Scratch,
            found: &mut dyn FnMut(&[u32]),
            found_open: &mut dyn FnMut(&[u32], &[u32]),
        ) -> Option<Outcome> {
            let Job {
                shape,
                nodes,
                board,
                open,
                budget,
            } = job;
            let Scratch {
                lows,
                highs,
                candidates,
                paths,
                rows,
            } = scratch;
            let [letter_rows, near_rows] = &mut **rows;
            // Each cell's letter as a bit: a step tests its neighbours'
            // against a node's letters without a shift.
            let letter_table = table(shape, &board.letters.map(|letter| 1 << letter), letter_rows);
            let mut out = Out {
                lows,
                highs,
                candidates,
                paths,
                top: 0,
                count: 0,
            };
            let tables = start::<OPEN>(
                shape,
                nodes,
                board,
                open,
                near_letters(shape, &letter_table),
                &mut out,
            );
            let Out {
                lows,
                highs,
                candidates,
                paths,
                mut top,
                mut count,
            } = out;
            let near_table = table(shape, &tables.near, near_rows);
            let reserve = BATCH * if OPEN { OPEN_PUSHES } else { 8 };
            // Never a neighbour's letter bit unless the board reads `Qu`.
            let q_bit = _mm256_set1_epi32(if board.q == QReads::Qu { 1 << Q } else { 0 });
            let ones = _mm256_set1_epi32(1);
            let terminal = _mm256_set1_epi32(TERMINAL as i32);
            let mut left = budget;
            while top > 0 {
                let taken = top.min(BATCH);
                if left < taken as u64 {
                    return Some(Outcome::Exhausted);
                }
                left -= taken as u64;
                top -= taken;
                // Copied, as the batch's pushes overwrite its slots; slot by
                // slot, not a slice copy: a copy of a length known only at
                // run time is a call to `memcpy` on every batch.
                let mut batch = [(0u32, 0u32); BATCH];
                for (slot, path) in batch.iter_mut().enumerate() {
                    if slot < taken {
                        *path = (lows[top + slot], highs[top + slot]);
                    }
                }
                if top + reserve > STACK {
                    // Never seen (see `STACK`).
                    return None;
                }
                if count + reserve > CANDIDATES {
                    if OPEN {
                        found_open(&candidates[..count], &paths[..count]);
                    } else {
                        found(&candidates[..count]);
                    }
                    count = 0;
                }
                // Each step waits on its node's children; asking for all
                // eight paths' children first lets their loads overlap.
                for &(low, _) in &batch[..taken] {
                    let first = nodes[(low >> CELL_BITS) as usize].first() as usize;
                    let children = nodes.as_ptr().wrapping_add(first);
                    // A prefetch is a hint: it never faults, whatever its address.
                    _mm_prefetch::<_MM_HINT_T0>(children.cast());
                    _mm_prefetch::<_MM_HINT_T0>(children.wrapping_add(15).cast());
                }
                // Only the paths taken: a batch of fewer than eight (most
                // boards' last few) costs a mispredicted loop exit, far
                // less than stepping its empty slots.
                for &(low, visited) in &batch[..taken] {
                    let cell = (low & ((1 << CELL_BITS) - 1)) as usize;
                    let node = nodes[(low >> CELL_BITS) as usize];
                    let next = neighbours(shape, cell);
                    let seen = _mm256_set1_epi32(visited as i32);
                    let next_bits = _mm256_sllv_epi32(ones, next);
                    let bits = lookup(&letter_table, cell, next);
                    let mask = _mm256_set1_epi32(node.letters() as i32);
                    let mut step = any_of(none_of(seen, next_bits), bits, mask);
                    let rank = popcount(_mm256_and_si256(mask, _mm256_sub_epi32(bits, ones)));
                    let mut child = _mm256_add_epi32(_mm256_set1_epi32(node.first() as i32), rank);
                    // SAFETY: `node` is a node of the trie `nodes`, and the lanes of
                    // `step` are its children: `first` plus their rank among its letters.
                    let mut kids = unsafe { children(nodes, node, step, child, rank) };
                    // `bits` has one letter a lane, so `bits & q_bit` is `bits == q_bit`.
                    if any_lane(step, bits, q_bit) {
                        // Into a Qu cell: on from the Q child to its U child, if any.
                        let qu = any_of(step, bits, q_bit);
                        let q_masks = masks_of(kids);
                        // SAFETY: the lanes of `qu` are children of `node`, as above.
                        let q_first = unsafe { firsts_of(nodes, kids, qu, child) };
                        let with_u = any_of(qu, q_masks, _mm256_set1_epi32(1 << U));
                        let u_rank = popcount(_mm256_and_si256(
                            q_masks,
                            _mm256_set1_epi32((1 << U) - 1),
                        ));
                        child = add_where(child, with_u, q_first, u_rank);
                        step = and_not(step, and_not(qu, with_u));
                        // SAFETY: each lane of `step` is the `U` child of a `Q`
                        // child: its first child plus the rank of `U` among its letters.
                        kids = unsafe { gather(nodes, step, child) };
                    }
                    let kid_masks = masks_of(kids);
                    let words = any_of(step, kid_masks, terminal);
                    let near = lookup(&near_table, cell, next);
                    let onward = any_of(step, kid_masks, near);
                    let low = _mm256_or_si256(_mm256_slli_epi32::<CELL_BITS>(child), next);
                    let high = _mm256_or_si256(seen, next_bits);
                    let (words_order, onward_order) = (packing(words), packing(onward));
                    // SAFETY: `count + 8 <= CANDIDATES` and `top + 8 <= STACK`,
                    // checked for the batch above.
                    unsafe {
                        store_packed(candidates.as_mut_ptr().add(count), words_order, child);
                        if OPEN {
                            store_packed(paths.as_mut_ptr().add(count), words_order, high);
                        }
                        store_packed(lows.as_mut_ptr().add(top), onward_order, low);
                        store_packed(highs.as_mut_ptr().add(top), onward_order, high);
                    }
                    count += count_of(words);
                    top += count_of(onward);
                    // Most paths have neither the open cell nor a partner to step to.
                    let state = visited >> STATE_SHIFT;
                    let swaps_here = state < SWAPPED
                        && node.letters() & 1 << open.own != 0
                        && shape.masks[cell] & open.partners & !visited != 0;
                    let into_open = tables.next_to_open & 1 << cell != 0;
                    if OPEN && (swaps_here || into_open) {
                        let mut out = Out {
                            lows: &mut lows[..],
                            highs: &mut highs[..],
                            candidates: &mut candidates[..],
                            paths: &mut paths[..],
                            top,
                            count,
                        };
                        let steps = shape.masks[cell];
                        out.one_by_one(nodes, node, visited, steps, board, open, &tables, (into_open, swaps_here));
                        (top, count) = (out.top, out.count);
                    }
                }
            }
            if OPEN {
                found_open(&candidates[..count], &paths[..count]);
            } else {
                found(&candidates[..count]);
            }
            Some(Outcome::Done(budget - left))
        }
    };
}
use lane_walk;
/// Most paths one path taken off the stack puts back in an open walk: 7
/// into its other neighbours, 26 into the open cell and 8 swapped reads.
const OPEN_PUSHES: usize = 7 + 26 + 8;

/// Every letter A–Z as bits.
const EVERY_LETTER: u32 = (1 << 26) - 1;

/// Where the first step and the one-by-one steps of an open walk put
/// paths and candidates: the arrays of [`Scratch`], `top` paths and
/// `count` candidates in them.
struct Out<'a> {
    lows: &'a mut [u32],
    highs: &'a mut [u32],
    candidates: &'a mut [u32],
    paths: &'a mut [u32],
    top: usize,
    count: usize,
}

impl Out<'_> {
    /// Records the word `child` would end (a candidate whether or not it is
    /// one, kept only if it is) and pushes the path at `cell`, its high
    /// half `high`, if it can go on: if its node has a child letter in `near`.
    #[inline(always)]
    fn push(&mut self, nodes: &[Node], child: u32, cell: usize, near: u32, high: u32) {
        let kid = nodes[child as usize];
        self.candidates[self.count] = child;
        self.paths[self.count] = high;
        self.count += usize::from(kid.is_word());
        if kid.letters() & near != 0 {
            self.lows[self.top] = child << CELL_BITS | cell as u32;
            self.highs[self.top] = high;
            self.top += 1;
        }
    }

    /// The one-by-one steps of a path at `node` (its visited half
    /// `visited`, the cells it steps to `steps`): `into_open` into the open
    /// cell, under each letter its state allows, and `swaps_here` into the
    /// partners next to it read as the open cell's letter.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn one_by_one(
        &mut self,
        nodes: &[Node],
        node: Node,
        visited: u32,
        steps: u32,
        board: &Board,
        open: Open,
        tables: &Tables,
        (into_open, swaps_here): (bool, bool),
    ) {
        let state = visited >> STATE_SHIFT;
        let seen = visited & CELLS;
        let open_cell = open.cell & (MAX_CELLS - 1);
        let near_open = tables.near[open_cell];
        if into_open {
            if state == ANY {
                self.enter_open(
                    nodes,
                    node,
                    node.letters(),
                    board.q,
                    open_cell,
                    near_open,
                    seen,
                    |letter| letter,
                );
            } else if state & (SWAPPED | SWAPPED_THROUGH) == SWAPPED {
                // The open cell shows the partner's letter on its swap board.
                let letter = board.letters[(state & 31) as usize];
                self.enter_open(
                    nodes,
                    node,
                    node.letters() & 1 << letter,
                    board.q,
                    open_cell,
                    near_open,
                    seen,
                    |_| state | SWAPPED_THROUGH,
                );
            }
        }
        if swaps_here {
            let through = if state == ANY { 0 } else { SWAPPED_THROUGH };
            let allowed = if state == ANY {
                open.partners
            } else {
                tables.partners_of[state as usize]
            };
            self.swap_into(
                nodes,
                node,
                board.q,
                open,
                steps & !seen & allowed,
                &tables.near,
                seen,
                through,
            );
        }
    }

    /// Steps a path at `node` (its cells `seen`) into the open cell under
    /// each of `letters`, its new state `state_of(letter)`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn enter_open(
        &mut self,
        nodes: &[Node],
        node: Node,
        mut letters: u32,
        q: QReads,
        open: usize,
        near_open: u32,
        seen: u32,
        state_of: impl Fn(u32) -> u32,
    ) {
        while letters != 0 {
            let letter = letters.trailing_zeros();
            letters &= letters - 1;
            if let Some(child) = step_letter(nodes, node, letter, q) {
                self.push(
                    nodes,
                    child,
                    open,
                    near_open,
                    seen | state_of(letter) << STATE_SHIFT,
                );
            }
        }
    }

    /// Steps a path at `node` (its cells `seen`) into each of `partners`
    /// read as the open cell's own letter: each is then on that one swap's
    /// board (`through`: and has been through the open cell).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn swap_into(
        &mut self,
        nodes: &[Node],
        node: Node,
        q: QReads,
        open: Open,
        mut partners: u32,
        near: &[u32; MAX_CELLS],
        seen: u32,
        through: u32,
    ) {
        if partners == 0 {
            return;
        }
        let Some(child) = step_letter(nodes, node, open.own, q) else {
            return;
        };
        while partners != 0 {
            let cell = partners.trailing_zeros() as usize & (MAX_CELLS - 1);
            partners &= partners - 1;
            let state = SWAPPED + cell as u32 + through;
            self.push(
                nodes,
                child,
                cell,
                near[cell],
                seen | 1 << cell | state << STATE_SHIFT,
            );
        }
    }
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
