//! Lanes: the bounds of several classes side by side, in one pass.
//!
//! A group's classes differ only in the buckets of its free positions. A
//! [`Split`] of some free positions makes one *lane* per assignment of
//! buckets to them (the first position most significant), and a lane keeps
//! the entries whose letters there are in its buckets, or that do not go
//! there: its entries are its class's. Every node of a pass computes all
//! lanes at once, as a `[T; N]` the compiler keeps in vector registers; a
//! path's points count only in the lanes that keep it ([`Masks`]), and in
//! the others its sum node is an empty one, worth 0. So one pass gives
//! every class's bound ([`lane_bounds`]), and one tree, built with a bound
//! per lane, serves all of them (`flat`, `build`).
//!
//! A lane is a `u16` when the target fits: 16 lanes in 32 bytes, with
//! saturating adds, so a lane holds the smaller of its bound and
//! [`SATURATED`]; a bound held there is still at least the target, and
//! where it matters the work is redone in `u32` lanes. Limits: at most
//! [`MAX_FREE`] free positions, [`MAX_LANES`] lanes for a tree, [`WIDEST`]
//! for a pass.

use crate::entry::{BITS, Entry};
use crate::orderly::{DEPTH, Visitor, orderly};

/// Most free positions a group has (see [`crate::layout::Layout::free`]).
pub(crate) const MAX_FREE: usize = 6;

/// Most lanes one pass computes when it splits several free positions at once.
pub(crate) const MAX_LANES: usize = 16;

/// Lanes of the widest pass: one position with a bucket per letter.
pub(crate) const WIDEST: usize = 32;

/// How one pass splits entries on some free positions at once: lane `i` is
/// one assignment of buckets to those positions (the first position most
/// significant), and keeps the entries whose letters there are in its
/// buckets, or that do not go there.
#[derive(Debug, Clone)]
pub(crate) struct Split {
    /// The positions split.
    pub(crate) positions: Vec<usize>,
    /// `admit[j][letter + 1]`: the lanes (as bits) that keep an entry with
    /// that letter at `positions[j]`; `admit[j][0]` is every lane.
    pub(crate) admit: Vec<[u32; 27]>,
    /// The same for two consecutive positions at once (or one alone),
    /// indexed by their bits of the key: where those bits start, and the table.
    pairs: Vec<(u32, Vec<u32>)>,
    /// How many lanes: the product of the positions' bucket counts.
    pub(crate) lanes: usize,
}

impl Split {
    /// The split of `positions`, position `positions[j]` into the buckets `buckets[j]`.
    pub(crate) fn new(positions: &[usize], buckets: &[Vec<Vec<u8>>]) -> Split {
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
                (Entry::shift(pair[pair.len() - 1]), table)
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
    pub(crate) fn admits(&self, entry: Entry) -> u32 {
        self.pairs.iter().fold(u32::MAX, |lanes, (shift, table)| {
            let bits = entry.fields_to(*shift) & (table.len() - 1);
            lanes & table.get(bits).copied().unwrap_or(0)
        })
    }
}

/// A lane's value in a pass: `u16` (saturating, so a lane holds the
/// smaller of its bound and `u16::MAX`; 8 lanes per vector register) when the
/// target fits, `u32` otherwise.
pub(crate) trait Lane: Copy + Default + Ord {
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

/// `Lane` for an unsigned integer type, its value held at `MAX`.
macro_rules! lane {
    ($t:ty) => {
        impl Lane for $t {
            const ONES: $t = <$t>::MAX;
            const MAX: u32 = <$t>::MAX as u32;
            #[inline(always)]
            fn add(self, other: $t) -> $t {
                self.saturating_add(other)
            }
            #[inline(always)]
            fn sub(self, other: $t) -> $t {
                self.saturating_sub(other)
            }
            #[inline(always)]
            fn wrapping_add(self, other: $t) -> $t {
                <$t>::wrapping_add(self, other)
            }
            #[inline(always)]
            fn wrapping_sub(self, other: $t) -> $t {
                <$t>::wrapping_sub(self, other)
            }
            #[inline(always)]
            fn and(self, other: $t) -> $t {
                self & other
            }
            #[inline(always)]
            fn of(points: u32) -> $t {
                <$t>::try_from(points).unwrap_or(<$t>::MAX)
            }
            #[inline(always)]
            fn get(self) -> u32 {
                u32::from(self)
            }
        }
    };
}

lane!(u16);
lane!(u32);

/// Which of `N` lanes keep an entry, from its letters on a [`Split`]'s positions.
#[derive(Debug)]
pub(crate) struct Masks<T: Lane, const N: usize> {
    positions: [usize; MAX_FREE],
    count: usize,
    /// `masks[j][letter + 1]`: all ones in the lanes that keep that letter at `positions[j]`.
    masks: [[[T; N]; 27]; MAX_FREE],
}

impl<T: Lane, const N: usize> Masks<T, N> {
    /// The masks of `split`'s lanes.
    pub(crate) fn new(split: &Split) -> Masks<T, N> {
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
    pub(crate) fn kept(&self, entry: Entry, value: T) -> [T; N] {
        let mut mask = [T::ONES; N];
        for j in 0..self.count {
            let more = &self.masks[j][entry.letter_at(self.positions[j]) as usize];
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
    fn points(&mut self, depth: usize, entry: Entry) {
        let kept = self.masks.kept(entry, T::of(entry.points()));
        add_lanes(&mut self.sum[depth], &kept);
    }
}

/// [`lane_bounds`] in `N` lanes of type `T`.
pub(crate) fn lane_bounds_n<T: Lane, const N: usize>(
    entries: impl IntoIterator<Item = Entry>,
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
pub(crate) const SATURATED: u32 = u16::MAX as u32;

/// The bound of each lane of `split` over `entries`, in one pass. With
/// `narrow`, in 16 bits: a bound of [`SATURATED`] means at least that.
pub(crate) fn lane_bounds(
    entries: impl IntoIterator<Item = Entry>,
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

/// The lanes of `lanes` (as bits) where `next` reaches `need`.
#[inline(always)]
pub(crate) fn reaching<T: Lane, const N: usize>(
    next: &[T; N],
    need: &[T; N],
    mut lanes: u32,
) -> u32 {
    for (lane, (next, need)) in next.iter().zip(need).enumerate() {
        if next < need {
            lanes &= !(1 << lane);
        }
    }
    lanes
}

/// Adds `more` to `lanes`, lane by lane (held at the type's maximum).
#[inline(always)]
pub(crate) fn add_lanes<T: Lane, const N: usize>(lanes: &mut [T; N], more: &[T; N]) {
    for (lane, &more) in lanes.iter_mut().zip(more) {
        *lane = lane.add(more);
    }
}

/// Keeps in `lanes` the larger of it and `other`, lane by lane.
#[inline(always)]
pub(crate) fn max_lanes<T: Lane, const N: usize>(lanes: &mut [T; N], other: &[T; N]) {
    for (lane, &other) in lanes.iter_mut().zip(other) {
        *lane = (*lane).max(other);
    }
}
