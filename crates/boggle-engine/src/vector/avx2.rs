//! The vector walk's lanes on AVX2 (x86-64-v3), for the processors
//! without AVX-512: eight 32-bit lanes of 256 bits, masks are vectors
//! whose lanes are all ones or all zeros, a lane's popcount is two nibble
//! lookups (`vpshufb`) summed by two multiply-adds, the children's letter
//! masks are loads and permutes (`vpermd`) for a node of up to 16
//! children, else one 32-bit gather (`vpgatherdd`, 8 bytes apart), and a
//! compressed store is a permute (`vpermd`) by a table of the 256
//! packings of eight lanes. The tables of letters next to a cell are
//! rows of eight, one per cell, built per board by permutes into room the
//! scratch space keeps (never cleared, never copied: zeroing and returning
//! 2 KB a board cost 3.5% of a 4x4 board's walk), so a step reads its
//! neighbours' letters with one load. The walk itself is
//! [`lane_walk`](super::lane_walk)'s, shared with [`avx512`](super::avx512).

use std::arch::x86_64::*;

// The walk (`lane_walk`) names what it shares with the other widths from here.
use super::*;
use crate::trie::TERMINAL;

/// Eight lanes of 32 bits.
type V = __m256i;
/// Which of eight lanes: all ones in each lane it holds.
type M = __m256i;

lane_walk!(#[target_feature(enable = "avx2,popcnt")]);

/// `table[cell]`: the values of the cells next to `cell`, in its
/// neighbours' order, in the scratch space's room for it.
type Table<'a> = &'a Rows;

/// The values `values` (one per cell) of each cell's neighbours: each row
/// picked from the 32 values by four permutes and three blends (on bits 3
/// and 4 of the neighbour's cell), two on boards of up to 16 cells.
#[target_feature(enable = "avx2")]
#[inline]
fn table<'a>(shape: &Shape, values: &[u32; MAX_CELLS], rows: &'a mut Rows) -> Table<'a> {
    // SAFETY: 32 values loaded 8 at a time.
    let quarters: [V; 4] =
        std::array::from_fn(|q| unsafe { _mm256_loadu_si256(values.as_ptr().add(8 * q).cast()) });
    let pick = |pair: (V, V), index: V| -> V {
        let (low, high) = (
            _mm256_permutevar8x32_epi32(pair.0, index),
            _mm256_permutevar8x32_epi32(pair.1, index),
        );
        // Bit 3 of the index, moved to the sign bit, picks the lane's source.
        blend_on(low, high, _mm256_slli_epi32::<28>(index))
    };
    let wide = shape.cells > 16;
    for (row, lanes) in rows
        .iter_mut()
        .zip(shape.neighbours.iter())
        .take(shape.cells)
    {
        // SAFETY: 8 lanes of one cell's neighbour array.
        let index = unsafe { _mm256_loadu_si256(lanes.as_ptr().cast()) };
        let mut picked = pick((quarters[0], quarters[1]), index);
        if wide {
            let upper = pick((quarters[2], quarters[3]), index);
            picked = blend_on(picked, upper, _mm256_slli_epi32::<27>(index));
        }
        // SAFETY: 8 lanes into one row.
        unsafe { _mm256_storeu_si256(row.as_mut_ptr().cast(), picked) };
    }
    rows
}

/// `b` in the lanes whose sign bit `on` sets, `a` elsewhere.
#[target_feature(enable = "avx2")]
#[inline]
fn blend_on(a: V, b: V, on: V) -> V {
    _mm256_castps_si256(_mm256_blendv_ps(
        _mm256_castsi256_ps(a),
        _mm256_castsi256_ps(b),
        _mm256_castsi256_ps(on),
    ))
}

/// The values of the neighbours of `cell` from `table`.
#[target_feature(enable = "avx2")]
#[inline]
fn lookup(table: &Table<'_>, cell: usize, _next: V) -> V {
    // SAFETY: a load of the 8 lanes of one row (indexed with a bounds check).
    unsafe { _mm256_loadu_si256(table[cell].as_ptr().cast()) }
}

/// The letters next to each cell, as bits, from the rows of the letters
/// next to it as bits (a spare lane is the cell itself, whose letter then
/// counts as near: a looser test, never a wrong one): each row's eight
/// lanes ORed together.
#[target_feature(enable = "avx2")]
#[inline]
fn near_letters(shape: &Shape, letters: &Table<'_>) -> [u32; MAX_CELLS] {
    let mut near = [0u32; MAX_CELLS];
    for (bits, row) in near.iter_mut().zip(letters.iter()).take(shape.cells) {
        // SAFETY: 8 lanes of one row.
        let each = unsafe { _mm256_loadu_si256(row.as_ptr().cast()) };
        let four = _mm_or_si128(
            _mm256_castsi256_si128(each),
            _mm256_extracti128_si256::<1>(each),
        );
        let two = _mm_or_si128(four, _mm_shuffle_epi32::<0x4e>(four));
        let one = _mm_or_si128(two, _mm_shuffle_epi32::<0xb1>(two));
        *bits = _mm_cvtsi128_si32(one) as u32;
    }
    near
}

/// The neighbours of `cell`, one per lane.
#[target_feature(enable = "avx2")]
#[inline]
fn neighbours(shape: &Shape, cell: usize) -> V {
    // SAFETY: a load of the 8 lanes of one cell's neighbour array
    // (indexed with a bounds check).
    unsafe { _mm256_loadu_si256(shape.neighbours[cell].as_ptr().cast()) }
}

/// The lanes where `a & b` is 0.
#[target_feature(enable = "avx2")]
#[inline]
fn none_of(a: V, b: V) -> M {
    _mm256_cmpeq_epi32(_mm256_and_si256(a, b), _mm256_setzero_si256())
}

/// The lanes of `lanes` where `a & b` is not 0.
#[target_feature(enable = "avx2")]
#[inline]
fn any_of(lanes: M, a: V, b: V) -> M {
    _mm256_andnot_si256(none_of(a, b), lanes)
}

/// Whether `a & b` is not 0 in any lane of `lanes`: one `vptest`.
#[target_feature(enable = "avx2")]
#[inline]
fn any_lane(lanes: M, a: V, b: V) -> bool {
    let none: u8;
    // SAFETY: one `vptest` of two registers and a `setz`: no memory, no
    // stack. Written out because LLVM narrows the lane masks of a
    // `_mm256_testz_si256` to 16 bits with packs first (eight instructions).
    unsafe {
        std::arch::asm!(
            "vptest {lanes}, {ab}",
            "setz {none}",
            lanes = in(ymm_reg) lanes,
            ab = in(ymm_reg) _mm256_and_si256(a, b),
            none = out(reg_byte) none,
            options(pure, nomem, nostack),
        );
    }
    none == 0
}

/// The lanes of `a` not in `b`.
#[target_feature(enable = "avx2")]
#[inline]
fn and_not(a: M, b: M) -> M {
    _mm256_andnot_si256(b, a)
}

/// The lanes of `lanes` as the bits of a byte.
#[target_feature(enable = "avx2")]
#[inline]
fn bits(lanes: M) -> usize {
    let out: u32;
    // SAFETY: one `vmovmskps` from a register to a register: no memory, no
    // stack, no flags. Written out because LLVM turns the intrinsic on a
    // compare's lanes into three packs and a `vpmovmskb`.
    unsafe {
        std::arch::asm!(
            "vmovmskps {out:e}, {lanes}",
            lanes = in(ymm_reg) lanes,
            out = out(reg) out,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    // Eight bits: the mask tells the tables' bounds checks they cannot fail.
    (out & 0xff) as usize
}

/// How many lanes `lanes` has.
#[target_feature(enable = "avx2,popcnt")]
#[inline]
fn count_of(lanes: M) -> usize {
    bits(lanes).count_ones() as usize
}

/// Each lane's count of ones: each nibble's count looked up in a table
/// of 16, the bytes' counts summed into their lane by two multiply-adds.
#[target_feature(enable = "avx2")]
#[inline]
fn popcount(a: V) -> V {
    let counts = _mm256_setr_epi8(
        0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3,
        3, 4,
    );
    let nibble = _mm256_set1_epi8(0x0f);
    let low = _mm256_shuffle_epi8(counts, _mm256_and_si256(a, nibble));
    let high = _mm256_shuffle_epi8(counts, _mm256_and_si256(_mm256_srli_epi16::<4>(a), nibble));
    let bytes = _mm256_add_epi8(low, high);
    _mm256_madd_epi16(
        _mm256_maddubs_epi16(bytes, _mm256_set1_epi8(1)),
        _mm256_set1_epi16(1),
    )
}

/// `a + b` in the lanes of `lanes`, `base` elsewhere.
#[target_feature(enable = "avx2")]
#[inline]
fn add_where(base: V, lanes: M, a: V, b: V) -> V {
    _mm256_blendv_epi8(base, _mm256_add_epi32(a, b), lanes)
}

/// Nodes' letter masks, one per lane (where the children start is
/// gathered apart, by [`firsts_of`], only where a walk needs it, before
/// a `Qu` cell's `U`).
type Kids = V;

/// The letter masks of `kids`.
#[inline]
fn masks_of(kids: Kids) -> V {
    kids
}

/// The letter masks of nodes `index` at the lanes of `lanes` (0 elsewhere).
///
/// # Safety
///
/// Every lane of `index` set in `lanes` is an index into `nodes`. The walk
/// passes only children of trie nodes (a node's `first()` plus the rank of
/// one of its letters), which the trie's invariant
/// (`first + letters.count_ones() <= len`) keeps in bounds.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn gather(nodes: &[Node], lanes: M, index: V) -> Kids {
    // SAFETY: a lane is loaded only where `lanes` is set, and there the
    // index is in `nodes` (this function's contract); a node is 8 bytes,
    // its mask first (`Node` is `repr(C)`).
    unsafe {
        _mm256_mask_i32gather_epi32::<8>(
            _mm256_setzero_si256(),
            nodes.as_ptr().cast(),
            index,
            lanes,
        )
    }
}

/// The letter masks of the children of `node` at the lanes of `lanes`
/// (anything elsewhere): the ones at `rank` among its children, which are
/// nodes `index`. A node with at most 16 children whose sixteen nodes
/// from its first lie in the trie has the sixteen loaded whole (two loads
/// for each eight) and picked by permutes; any other (near the root, or at the
/// trie's end), marked [`Node::gathered`] by the trie, has them gathered.
///
/// # Safety
///
/// `node` is a node of the trie whose node array is `nodes`, and each lane
/// of `index` set in `lanes` is one of its children, `first + rank`.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn children(nodes: &[Node], node: Node, lanes: M, index: V, rank: V) -> Kids {
    if node.gathered() {
        // SAFETY: this function's contract is `gather`'s.
        return unsafe { gather(nodes, lanes, index) };
    }
    let first = node.first() as usize;
    let base: *const Node = nodes.as_ptr().wrapping_add(first);
    // Each node's mask is its first half: the even lanes of four nodes.
    let even = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
    let eight = |at: usize| -> V {
        // SAFETY: nodes `first .. first + 16` lie in `nodes`: the trie
        // marks every node of which that is not so `gathered`.
        let (low, high) = unsafe {
            (
                _mm256_loadu_si256(base.wrapping_add(at).cast()),
                _mm256_loadu_si256(base.wrapping_add(at + 4).cast()),
            )
        };
        _mm256_blend_epi32::<0xf0>(
            _mm256_permutevar8x32_epi32(low, even),
            _mm256_permutevar8x32_epi32(high, even),
        )
    };
    let kids = _mm256_permutevar8x32_epi32(eight(0), rank);
    // Both eights whatever the count, as a branch on it is mispredicted
    // often: bit 3 of the rank, moved to the sign bit, picks children 8
    // to 15 (never set in a node of up to 8).
    let upper = _mm256_permutevar8x32_epi32(eight(8), rank);
    blend_on(kids, upper, _mm256_slli_epi32::<28>(rank))
}

/// Where the children of nodes `index` start, at the lanes of `lanes`.
///
/// # Safety
///
/// As [`gather`].
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn firsts_of(nodes: &[Node], _kids: Kids, lanes: M, index: V) -> V {
    // SAFETY: as in `gather`, 4 bytes into each node: its `first`.
    unsafe {
        _mm256_mask_i32gather_epi32::<8>(
            _mm256_setzero_si256(),
            nodes.as_ptr().cast::<i32>().wrapping_add(1),
            index,
            lanes,
        )
    }
}

/// `PACKINGS[bits]`: the lanes set in `bits`, lowest first, then zeros.
static PACKINGS: [[u8; 8]; 256] = packings();

/// Builds [`PACKINGS`].
const fn packings() -> [[u8; 8]; 256] {
    let mut table = [[0u8; 8]; 256];
    let mut bits = 0;
    while bits < 256 {
        let (mut lane, mut out) = (0, 0);
        while lane < 8 {
            if bits >> lane & 1 != 0 {
                table[bits][out] = lane as u8;
                out += 1;
            }
            lane += 1;
        }
        bits += 1;
    }
    table
}

/// The permutation that packs the lanes of `lanes` to the bottom.
#[target_feature(enable = "avx2")]
#[inline]
fn packing(lanes: M) -> V {
    // SAFETY: an 8-byte load of one row of the table (indexed with a bounds check).
    unsafe { _mm256_cvtepu8_epi32(_mm_loadl_epi64(PACKINGS[bits(lanes)].as_ptr().cast())) }
}

/// Stores the lanes of `values` that `order` (a [`packing`]) picks, packed, at `out`.
///
/// # Safety
///
/// `out` has room for 8 values.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn store_packed(out: *mut u32, order: V, values: V) {
    let packed = _mm256_permutevar8x32_epi32(values, order);
    // SAFETY: 8 lanes of room (this function's contract).
    unsafe { _mm256_storeu_si256(out.cast(), packed) }
}
