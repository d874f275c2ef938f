//! Building the flat tree: one pass over sorted entries writes its nodes
//! as they close, with a bound per lane at every node; a stub's choices
//! written when the walk reaches it; and the base a forcing's lists share.
//!
//! A [`Builder`] is an orderly [`Visitor`]: it keeps, per depth, the open
//! sum node's points and bound in each lane and the open choice node's
//! children, and when a node closes it appends its children to the tree's
//! arrays in one run (so a node's children lie side by side). Below
//! [`crate::flat::BUILT`] levels it keeps counting bounds but writes
//! nothing; a sum node at that level with choices is written as a stub.
//!
//! [`Tree::grow`] writes a stub's choices later with the same pass over
//! its entries, the pairs of its path cleared: that gives the same nodes in
//! every lane that keeps those letters, the only lanes the walk goes on in.
//!
//! [`Tree::build_over`] builds a forced list's tree over the base its
//! forcing shares ([`over_base`]): where a sum node holds only paths that
//! skip the forced position, it takes the base's node whole and steps over
//! its paths (on one heavy 4x4 group, 126 of the 196 million paths passed).
//!
//! Limits: the stack is [`DEPTH`] deep (16 pairs), and nodes are numbered
//! in `u32`s; a 4x4 tree written six levels deep runs to hundreds of
//! megabytes, most of it never walked.

use boggle_engine::cpu::widest;

use crate::entry::{Clear, Entry};
use crate::flat::{ChoiceNode, Kid, STUB, Stub, SumNode, Tree};
use crate::force::Shared;
use crate::lanes::{Lane, Masks, add_lanes, max_lanes};
use crate::orderly::{DEPTH, Open, Visitor, orderly};

/// What grows a tree's stubs: the lists its paths are in, and its lanes' masks.
pub(crate) struct Grow<'a, T: Lane, const N: usize> {
    /// The entries the tree was built from.
    pub(crate) entries: &'a [Entry],
    /// Those its base was built from (empty without one).
    pub(crate) absent: &'a [Entry],
    /// The lanes that keep each entry.
    pub(crate) masks: Masks<T, N>,
}

/// What a [`Tree::write`] pass writes: the tree's own nodes, its [`Base`](crate::flat::Base)
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
    fn points(&mut self, depth: usize, entry: Entry) {
        self.count += 1;
        let points = entry.points();
        self.points[depth] += points;
        let kept = self.masks.kept(entry, T::of(points));
        add_lanes(&mut self.total[depth], &kept);
    }
}

/// [`orderly`] for a [`Builder`] over `entries`, the merged parts of
/// `shared`, on a tree whose [`Base`](crate::flat::Base) is `shared.absent`'s: a sum node that
/// opens on a shared path, and that the next path with the forced letter
/// does not reach, holds shared paths only, so it is the base's, and the
/// pass steps over its paths instead of bounding them again.
#[inline(always)]
fn over_base<T: Lane, const N: usize>(
    entries: &[Entry],
    shared: &Shared<'_>,
    visitor: &mut Builder<'_, T, N>,
) {
    let (absent, with, clear) = (shared.absent, shared.with, shared.clear);
    let mut open = Open::new();
    // The next entry, and the next of each part not passed yet.
    let (mut at, mut a, mut w) = (0, 0, 0);
    'entries: while at < entries.len() {
        let entry = entries[at];
        let shared_path = a < absent.len() && absent[a].same_path(entry);
        let forced_path = w < with.len() && with[w].clear(clear).same_path(entry);
        // The first path with the forced letter after this one.
        let next = with
            .get(w + usize::from(forced_path))
            .map(|&e| e.clear(clear));
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
                && next.is_none_or(|next| entry.common_positions(next) <= p);
            let base = &visitor.tree.base;
            if alone && let Some(node) = base.at(a, open.depth + 1) {
                let (end, kid) = (base.ends[node] as usize, base.nodes[node]);
                let letter = entry.letter_at(p as usize) - 1;
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

impl<T: Lane, const N: usize> Tree<T, N> {
    /// Rebuilds the tree from sorted, merged `entries`, a lane for each of
    /// `masks`' classes, its sum nodes `built` levels deep.
    #[inline(always)]
    pub(crate) fn build(&mut self, entries: &[Entry], masks: &Masks<T, N>, built: usize) {
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
    pub(crate) fn build_over(
        &mut self,
        entries: &[Entry],
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
    pub(crate) fn grow(&mut self, lists: &Grow<'_, T, N>, at: usize) -> SumNode {
        let stub = self.stubs[self.kids[at].start as usize];
        let (list, writing) = if stub.base {
            (lists.absent, Writing::Grown)
        } else {
            (lists.entries, Writing::Own)
        };
        let paths = &list[stub.begin as usize..stub.end as usize];
        let clear = Clear::positions(stub.prefix);
        let cleared = paths.iter().map(|&e| e.clear(clear));
        let (node, _) = widest(
            #[inline(always)]
            || {
                self.write(
                    &lists.masks,
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
}
