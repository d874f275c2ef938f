//! The vector walk's lanes on AVX-512 (F, VL and VPOPCNTDQ): masks are
//! `__mmask8`, a lane's popcount is one instruction, the children of a node
//! of up to 16 are loaded whole and picked by a permute, and the compressed
//! stores are `vpcompressd`. The tables of letters next
//! to a cell are two registers of 16 lanes, read with one two-table permute.
//! The walk itself is [`lane_walk`](super::lane_walk)'s, shared with
//! [`avx2`](super::avx2).

use std::arch::x86_64::*;

// The walk (`lane_walk`) names what it shares with the other widths from here.
use super::*;
use crate::trie::TERMINAL;

/// Eight lanes of 32 bits.
type V = __m256i;
/// Which of eight lanes.
type M = __mmask8;

lane_walk!(#[target_feature(enable = "avx512f,avx512vl,avx512vpopcntdq,popcnt")]);

/// 32 values, one per cell, as two registers of 16 lanes.
type Table = (__m512i, __m512i);

/// `values` as a [`Table`], held in registers (no room in memory needed).
#[target_feature(enable = "avx512f,avx512vl")]
#[inline]
fn table(_shape: &Shape, values: &[u32; MAX_CELLS], _rows: &mut Rows) -> Table {
    halves(values)
}

/// `values` as two registers of 16 lanes.
#[target_feature(enable = "avx512f,avx512vl")]
#[inline]
fn halves(values: &[u32; MAX_CELLS]) -> Table {
    // SAFETY: 32 lanes loaded 16 at a time.
    unsafe {
        (
            _mm512_loadu_si512(values.as_ptr().cast()),
            _mm512_loadu_si512(values.as_ptr().add(16).cast()),
        )
    }
}

/// The values of the cells `next` (cells of the board) from `table`.
#[target_feature(enable = "avx512f,avx512vl")]
#[inline]
fn lookup(table: &Table, _cell: usize, next: V) -> V {
    _mm512_castsi512_si256(_mm512_permutex2var_epi32(
        table.0,
        _mm512_castsi256_si512(next),
        table.1,
    ))
}

/// The letters next to each cell, as bits, by eight permutes of the
/// board's `letters` as bits (a spare lane is the cell itself, whose
/// letter then counts as near: a looser test, never a wrong one).
#[target_feature(enable = "avx512f,avx512vl")]
#[inline]
fn near_letters(shape: &Shape, letters: &Table) -> [u32; MAX_CELLS] {
    let (letters_lo, letters_hi) = *letters;
    let (mut near_lo, mut near_hi) = (_mm512_setzero_si512(), _mm512_setzero_si512());
    for slot in shape.slots.iter() {
        let (lo, hi) = halves(slot);
        let letter_lo = _mm512_permutex2var_epi32(letters_lo, lo, letters_hi);
        let letter_hi = _mm512_permutex2var_epi32(letters_lo, hi, letters_hi);
        near_lo = _mm512_or_si512(near_lo, letter_lo);
        near_hi = _mm512_or_si512(near_hi, letter_hi);
    }
    let mut near = [0u32; MAX_CELLS];
    // SAFETY: 32 lanes stored 16 at a time.
    unsafe {
        _mm512_storeu_si512(near.as_mut_ptr().cast(), near_lo);
        _mm512_storeu_si512(near.as_mut_ptr().add(16).cast(), near_hi);
    }
    near
}

/// The neighbours of `cell`, one per lane.
#[target_feature(enable = "avx512f,avx512vl")]
#[inline]
fn neighbours(shape: &Shape, cell: usize) -> V {
    // SAFETY: a load of the 8 lanes of one cell's neighbour array
    // (indexed with a bounds check).
    unsafe { _mm256_loadu_si256(shape.neighbours[cell].as_ptr().cast()) }
}

/// The lanes where `a & b` is 0.
#[target_feature(enable = "avx512f,avx512vl")]
#[inline]
fn none_of(a: V, b: V) -> M {
    _mm256_testn_epi32_mask(a, b)
}

/// The lanes of `lanes` where `a & b` is not 0.
#[target_feature(enable = "avx512f,avx512vl")]
#[inline]
fn any_of(lanes: M, a: V, b: V) -> M {
    _mm256_mask_test_epi32_mask(lanes, a, b)
}

/// Whether `a & b` is not 0 in any lane of `lanes`.
#[target_feature(enable = "avx512f,avx512vl")]
#[inline]
fn any_lane(lanes: M, a: V, b: V) -> bool {
    any_of(lanes, a, b) != 0
}

/// The lanes of `a` not in `b`.
#[inline]
fn and_not(a: M, b: M) -> M {
    a & !b
}

/// How many lanes `lanes` has.
#[inline]
fn count_of(lanes: M) -> usize {
    lanes.count_ones() as usize
}

/// Each lane's count of ones.
#[target_feature(enable = "avx512f,avx512vl,avx512vpopcntdq")]
#[inline]
fn popcount(a: V) -> V {
    _mm256_popcnt_epi32(a)
}

/// `a + b` in the lanes of `lanes`, `base` elsewhere.
#[target_feature(enable = "avx512f,avx512vl")]
#[inline]
fn add_where(base: V, lanes: M, a: V, b: V) -> V {
    _mm256_mask_add_epi32(base, lanes, a, b)
}

/// Nodes, whole, one per 64-bit lane.
type Kids = __m512i;

/// The letter masks of `kids`.
#[target_feature(enable = "avx512f,avx512vl")]
#[inline]
fn masks_of(kids: Kids) -> V {
    _mm512_cvtepi64_epi32(kids)
}

/// Where the children of `kids` start (the lanes `_lanes`, nodes
/// `_index`, were loaded whole).
///
/// # Safety
///
/// None here; the same contract as [`gather`] for the AVX2 version's sake.
#[target_feature(enable = "avx512f,avx512vl")]
#[inline]
unsafe fn firsts_of(_nodes: &[Node], kids: Kids, _lanes: M, _index: V) -> V {
    _mm512_cvtepi64_epi32(_mm512_srli_epi64::<32>(kids))
}

/// The lanes `lanes`, as [`store_packed`] takes them: the mask itself.
#[inline]
fn packing(lanes: M) -> M {
    lanes
}

/// Stores the lanes `lanes` of `values` packed at `out`.
///
/// # Safety
///
/// `out` has room for 8 values.
#[target_feature(enable = "avx512f,avx512vl")]
#[inline]
unsafe fn store_packed(out: *mut u32, lanes: M, values: V) {
    // SAFETY: 8 lanes of room (this function's contract).
    unsafe { _mm256_storeu_si256(out.cast(), _mm256_maskz_compress_epi32(lanes, values)) }
}
/// The nodes at the lanes of `index` where `lanes` is set (0 elsewhere).
///
/// # Safety
///
/// The processor has AVX-512 F and VL, and every lane of `index` set in
/// `lanes` is an index into `nodes`. The walk passes only children of trie
/// nodes (a node's `first()` plus the rank of one of its letters), which the
/// trie's invariant (`first + letters.count_ones() <= len`) keeps in bounds.
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
