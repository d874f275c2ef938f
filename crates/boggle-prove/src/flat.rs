//! The flat tree: the orderly tree written out for the walk, in three
//! arrays, with a bound per lane at every node.
//!
//! A [`Tree`] holds its choice nodes in one array, their children (sum
//! nodes) in another, and the children's bounds in a third, each node's
//! children side by side: nodes are written as they close, in one pass over
//! the sorted entries (`build`). A sum node is kept in its parent's array
//! of children, so reaching a child is one load, and a choice node is 8
//! bytes, its bound left out (the walk reads its children's bounds anyway).
//!
//! Only the top [`BUILT`] levels of sum nodes are written at first: on a
//! 4x4 group the walk reaches 6% of the choice nodes, under 0.5% of them
//! more than six levels down. A sum node at the last written level that
//! has choices is a *stub* ([`Stub`]): it records which entries it holds,
//! and the walk writes its choices when it reaches it (`Tree::grow`).
//!
//! The lists one position's forcing makes share a *base* ([`Base`]): the
//! tree of the paths that skip the position, written once at the front of
//! the arrays, each list's own nodes written after it.
//!
//! Limits: nodes are numbered in `u32`s, a choice node's letters are a
//! 26-bit set, and a sum node's positions leave bit 31 for [`STUB`].

use boggle_engine::cpu::prefetch;

use crate::lanes::{Lane, MAX_LANES};

/// A sum node of a built tree: its points and its choice nodes from
/// `choices[start]` on, one for each position in `positions` (as bits; none
/// for a leaf), the last position first (in sorted order a path that skips a
/// position comes before one that uses it); so the walk queues them without
/// reading them. It is kept in its parent's [`Tree::kids`], its bound apart.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct SumNode {
    /// The points of the paths that end here.
    pub(crate) points: u32,
    /// Where its choices start in [`Tree::choices`] (in [`Tree::stubs`] for a stub).
    pub(crate) start: u32,
    /// The positions of its choices, as bits, and [`STUB`] for a stub.
    pub(crate) positions: u32,
}

impl SumNode {
    /// Where its first choice at a position in `mask` is: `mask` is one
    /// position, or every position from one on (choices are stored the last
    /// position first, so those before are the ones above `mask`'s highest).
    #[inline(always)]
    pub(crate) fn first(self, mask: u32) -> u32 {
        let above = !u32::MAX.checked_shr(mask.leading_zeros()).unwrap_or(0);
        self.start + (self.positions & above).count_ones()
    }
}

/// Set in a [`SumNode`]'s positions when its choices are not written yet:
/// its `start` is then an index into [`Tree::stubs`] (see `Tree::grow`).
pub(crate) const STUB: u32 = 1 << 31;

/// How many levels of sum nodes below a (sub)tree's root `Tree::build`
/// writes out; the sum nodes at the last level that have choices are
/// written as stubs, their choices written only when the walk reaches them.
/// On 4x4 groups 5 levels were about as fast, 4 and 7 slower.
pub(crate) const BUILT: usize = 6;

/// A sum node whose choices are not written yet: its word paths are
/// `entries[begin..end]` of the list the tree was built from, all of them
/// through the (position, letter) pairs of its path, whose positions
/// `prefix` holds (as bits).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Stub {
    /// Its first path in the list.
    pub(crate) begin: u32,
    /// One past its last path.
    pub(crate) end: u32,
    /// The positions of the pairs leading to it, as bits.
    pub(crate) prefix: u32,
    /// Whether the list is the base's (see [`Base`]), not the tree's own.
    pub(crate) base: bool,
}

/// A choice node of a built tree: the letters it has a child for (bit 0 =
/// A) and its children `kids[start..]`, one per letter in order. Its bound,
/// the best of its children's, is not kept: the walk reads every child's
/// bound anyway, and a choice in 8 bytes puts 8 of them in a cache line.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ChoiceNode {
    /// The letters it has a child for, as bits.
    pub(crate) letters: u32,
    /// Where its first child is in [`Tree::kids`].
    pub(crate) start: u32,
}

/// A choice node's child while the tree is built: its sum node and its bound in each lane.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Kid<T, const N: usize> {
    /// The sum node.
    pub(crate) node: SumNode,
    /// Its bound in each lane.
    pub(crate) bound: [T; N],
}

/// An orderly tree built for the walk, in three flat arrays, with a bound in
/// each of `N` lanes: lane `i` is the class that the `i`th assignment of
/// buckets to the free positions left makes (see [`crate::lanes::Split`]),
/// and a node's bound there is its bound in that class's own tree (0 where
/// the class cannot reach it). So one tree, and one walk, serve up to `N`
/// classes that differ in their last cells. Nodes are written as they
/// close, so a sum node's choices, and a choice node's children, lie next
/// to each other. Only the top [`BUILT`] levels are written at first; the
/// rest as the walk reaches them (`Tree::grow`).
#[derive(Debug)]
pub(crate) struct Tree<T, const N: usize> {
    /// The choice nodes.
    pub(crate) choices: Vec<ChoiceNode>,
    /// The choice nodes' children, and their bounds in an array of their
    /// own: the walk's sums read only the bounds, a choice's side by side.
    pub(crate) kids: Vec<SumNode>,
    /// The bound of each of `kids`, in each lane.
    pub(crate) bounds: Vec<[T; N]>,
    /// The sum nodes written as stubs, by the index in their `start`.
    pub(crate) stubs: Vec<Stub>,
    /// How many levels of sum nodes a pass writes out below its root ([`BUILT`]).
    pub(crate) built: usize,
    /// The root's sum node.
    pub(crate) root: SumNode,
    /// The root's bound in each lane: each class's bound.
    pub(crate) bound: [T; N],
    /// While building: each open sum node's closed choices (with their
    /// positions), and each open choice node's children.
    pub(crate) closed: Vec<Vec<(u32, ChoiceNode)>>,
    /// See `closed`.
    pub(crate) open: Vec<Vec<Kid<T, N>>>,
    /// The tree of the paths the lists of one forcing share, written first.
    pub(crate) base: Base<T, N>,
    /// How many paths the last build took from the base whole.
    pub(crate) taken: u64,
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
/// that skip the position (`Shared::absent`): this is their tree, built
/// once for all of them at the front of a [`Tree`]'s arrays, each letter's
/// own nodes written after it. A sum node of a letter's tree whose paths
/// are all shared is the base's, and the pass that builds the letter's tree
/// steps over those paths instead of bounding them again (`over_base`).
#[derive(Debug)]
pub(crate) struct Base<T, const N: usize> {
    /// The forcing it was built for (`Shared::set`; 0: none).
    pub(crate) set: u64,
    /// How much of the tree's choices it fills.
    pub(crate) choices: usize,
    /// How much of the tree's kids (and bounds) it fills.
    pub(crate) kids: usize,
    /// How much of the tree's stubs it fills.
    pub(crate) stubs: usize,
    /// Its sum nodes down to [`Tree::built`] levels, in the order they open:
    /// the `first[i] as usize..first[i + 1] as usize`th are those whose first
    /// path is `absent[i]`, at depths from `from[i]` on, one each. For each,
    /// the end of its paths in the shared list (`ends`), and what a parent
    /// keeps for it (`nodes`).
    pub(crate) ends: Vec<u32>,
    /// See `ends`.
    pub(crate) nodes: Vec<Kid<T, N>>,
    /// See `ends`.
    pub(crate) first: Vec<u32>,
    /// See `ends`.
    pub(crate) from: Vec<u8>,
    /// Its children that a walk grew (see `Tree::grow`), with the stubs
    /// they were, put back before the next letter's tree is written.
    pub(crate) grown: Vec<(u32, SumNode)>,
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
    pub(crate) fn at(&self, i: usize, depth: usize) -> Option<usize> {
        let at = self.first[i] as usize + depth.checked_sub(usize::from(self.from[i]))?;
        (at < self.first[i + 1] as usize).then_some(at)
    }
}

impl<T: Lane, const N: usize> Tree<T, N> {
    /// Sum and choice nodes written (leaves included).
    pub(crate) fn nodes(&self) -> usize {
        self.kids.len() + self.choices.len() + 1
    }

    /// Asks for the choices of `sums`, then for their children's bounds,
    /// before the walk queues them: they lie far apart in the tree, and the
    /// loads overlap this way (on 4x4 groups, 5-10% fewer CPU-s). Only the
    /// choices at the positions in `mask` (see [`SumNode::first`]).
    #[inline]
    pub(crate) fn prefetch(&self, sums: &[SumNode], mask: u32) {
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
    pub(crate) fn saturated(&self) -> bool {
        self.bound.iter().any(|b| b.get() >= T::MAX)
    }
}

/// The trees the walk uses: one lane (a class alone), or up to
/// [`MAX_LANES`] in 16 bits, or in 32 where a bound does not fit 16.
#[derive(Debug, Default)]
pub(crate) struct Trees {
    /// One class alone.
    pub(crate) one: Tree<u32, 1>,
    /// Up to 16 classes, in 16 bits.
    pub(crate) narrow: Tree<u16, MAX_LANES>,
    /// Up to 16 classes, in 32 bits.
    pub(crate) wide: Tree<u32, MAX_LANES>,
}
