//! The driver: [`Prover`] takes a group of classes from its word paths to
//! each class's bound and boards, calling on the other modules in turn.
//!
//! For a group ([`Prover::prove_group`]): collect the word paths with every
//! letter on the free positions (`paths`); force the first positions by
//! merging, once for the whole group (`force`); split each list left on the
//! free positions into lanes, one per class, as many at once as a tree's
//! lanes hold (`lanes`), dropping those whose bound is under the target;
//! then build one tree for the classes left (`flat`, `build`) and walk it
//! for all of them at once (`walk`). A class's recorded bound is the
//! highest met on its way down: at least its best board's score, and the
//! group's where the class was dropped with it.
//!
//! A `Prover` is scratch space as much as a procedure: its lists and trees
//! run to gigabytes on 4x4 and are kept from one group to the next, one
//! prover per thread.
//!
//! Limits: boards of at most 16 cells and groups of at most 6 free
//! positions; one group at a time, its memory that of its largest list and
//! tree.

use boggle_engine::SearchRules;
use boggle_engine::cpu::widest;
use boggle_engine::trie::Trie;

use crate::build::Grow;
use crate::entry::Entry;
use crate::flat::{BUILT, Tree, Trees};
use crate::force::{BOUNDED, FORCE_MORE, FORCED, Forcing, Shared, make_room};
use crate::lanes::{Lane, MAX_LANES, Masks, SATURATED, Split, lane_bounds};
use crate::layout::Cells;
use crate::orderly::tree_bound;
use crate::paths::Paths;
#[cfg(test)]
use crate::paths::WordPath;
use crate::walk::{Scored, Walk, Walks};

/// Counters for one class's work.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Work {
    /// Sum and choice nodes written in the trees built (and grown).
    pub nodes: u64,
    /// Partial assignments whose bound was computed.
    pub steps: u64,
    /// Complete boards rescored with the solver.
    pub rescored: u64,
    /// Word paths collected (distinct keys).
    pub inserted: u64,
    /// Word paths a tree took with their sum node from its base, without
    /// bounding them again (see `flat::Base`).
    pub taken: u64,
}

/// What [`Prover::prove_group`] calls for each class: its free positions' buckets, bound and boards.
pub(crate) type Leaf<'a> = dyn FnMut(&[u8], u32, Vec<Scored>) + 'a;

/// What [`Prover::force`] calls with each list it forces no further;
/// returns the highest bound met.
type Reached<'a, 't> = dyn FnMut(&mut Prover<'t>, Forced<'_>) -> u32 + 'a;

/// A list of entries whose first `depth` positions are forced, with its
/// two parts where it was merged from them (see [`Shared`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Forced<'a> {
    /// The sorted, merged entries.
    pub(crate) entries: &'a [Entry],
    /// The parts it was merged from, if it shares a base with its forcing's other lists.
    pub(crate) shared: Option<&'a Shared<'a>>,
    /// How many positions are forced.
    pub(crate) depth: usize,
}

/// A group's free positions: the buckets each may take, and which
/// assignments of buckets to them (classes) are wanted, in mixed radix (the
/// first free position most significant).
struct Free<'a> {
    buckets: &'a [Vec<Vec<u8>>],
    radix: Vec<usize>,
    wanted: Vec<bool>,
}

impl<'a> Free<'a> {
    /// Free positions taking `buckets`, the assignments `wanted` accepts wanted.
    fn new(buckets: &'a [Vec<Vec<u8>>], wanted: &mut dyn FnMut(&[u8]) -> bool) -> Free<'a> {
        let radix: Vec<usize> = buckets.iter().map(Vec::len).collect();
        let mut table = Vec::with_capacity(radix.iter().product());
        let mut free = Free {
            buckets,
            radix,
            wanted: Vec::new(),
        };
        free.each_assignment(0, &mut vec![0; buckets.len()], &mut |digits| {
            table.push(wanted(digits));
        });
        free.wanted = table;
        free
    }

    /// How many free positions there are.
    fn len(&self) -> usize {
        self.buckets.len()
    }

    /// The index of a complete assignment in [`Free::wanted`].
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

    /// Calls `visit` with every assignment of the free positions from `k` on (earlier ones as given).
    fn each_assignment(&self, k: usize, digits: &mut [u8], visit: &mut dyn FnMut(&[u8])) {
        if k == self.buckets.len() {
            visit(digits);
            return;
        }
        for d in 0..self.buckets[k].len() {
            digits[k] = d as u8;
            self.each_assignment(k + 1, digits, visit);
        }
        digits[k] = 0;
    }
}

/// The lists the prover writes, kept between groups so they are allocated once.
#[derive(Debug, Default)]
pub(crate) struct Lists {
    /// `levels[k][b]`: the entries kept with free position `k` in bucket `b`.
    pub(crate) levels: Vec<Vec<Vec<Entry>>>,
    /// The merged lists of the positions forced for a group, by depth.
    pub(crate) group: Vec<Vec<Entry>>,
    /// The same for one class (positions a group could not force).
    pub(crate) class: Vec<Vec<Entry>>,
    /// Forcings so far, to name each one's lists' base ([`Shared::set`]).
    pub(crate) sets: u64,
}

/// The prover's thresholds; the tests turn them to reach every path of the code.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Tuning {
    /// Lists longer than this get one more position forced ([`FORCE_MORE`]).
    pub force_more: usize,
    /// Levels of sum nodes a tree is built with before the walk ([`BUILT`]).
    pub built: usize,
    /// Whether a forcing's lists share a base (always, but in tests).
    pub share: bool,
}

impl Default for Tuning {
    fn default() -> Tuning {
        Tuning {
            force_more: FORCE_MORE,
            built: BUILT,
            share: true,
        }
    }
}

/// Reusable scratch space for bounding classes: the word paths, the tree and the walk's lists.
pub struct Prover<'t> {
    paths: Paths<'t>,
    pub(crate) cells: Cells,
    /// The group's word paths, sorted and merged.
    pub(crate) entries: Vec<Entry>,
    pub(crate) lists: Lists,
    pub(crate) trees: Trees,
    pub(crate) walks: Walks<'t>,
    pub(crate) tuning: Tuning,
    /// The score a board must reach.
    pub(crate) target: u32,
    pub(crate) work: Work,
}

impl<'t> Prover<'t> {
    /// A prover over `trie` under `rules` (a board of at most 16 cells).
    pub fn new(trie: &'t Trie, rules: impl Into<SearchRules>) -> Prover<'t> {
        let rules: SearchRules = rules.into();
        Prover {
            paths: Paths::new(trie, &rules),
            cells: Cells::new(&rules),
            entries: Vec::new(),
            lists: Lists::default(),
            trees: Trees::default(),
            walks: Walks::new(trie, &rules),
            tuning: Tuning::default(),
            target: 0,
            work: Work::default(),
        }
    }

    /// Collects every word path of the boards whose cells hold `letters` (by
    /// cell, letters 0 = A), the last `free` positions left in reading
    /// order, sorted and merged, into `entries`.
    pub(crate) fn collect(&mut self, letters: &[Vec<u8>], free: usize) {
        self.cells.hold(letters, free);
        self.work = Work::default();
        self.paths.collect(&self.cells, &mut self.entries);
        self.work.inserted = self.entries.len() as u64;
    }

    /// The upper bound of the class whose cells hold `letters` (by cell, letters 0 = A).
    pub fn build(&mut self, letters: &[Vec<u8>]) -> u32 {
        self.collect(letters, 0);
        tree_bound(self.entries.iter().copied())
    }

    /// The word paths of the class whose cells hold `letters` (by cell,
    /// letters 0 = A), in the order of the orderly tree.
    #[cfg(test)]
    pub(crate) fn word_paths(&mut self, letters: &[Vec<u8>]) -> Vec<WordPath> {
        self.collect(letters, 0);
        let layout = self.cells.layout();
        self.entries
            .iter()
            .map(|&entry| WordPath::of(entry, layout))
            .collect()
    }

    /// Proves a group of classes: the cells before the last `free.len()`
    /// positions hold `letters` (by cell); free position `k` holds one of
    /// `free[k]`'s buckets. The word paths are collected once, with every
    /// letter on the free positions, and split one free position at a time
    /// (one pass per list: the bounds of all its buckets, and their lists); a
    /// partial group whose bound is under the target is dropped whole. Calls
    /// `leaf(digits, bound, boards)` for each assignment of buckets to the
    /// free positions that `wanted` accepts.
    pub(crate) fn prove_group(
        &mut self,
        letters: &[Vec<u8>],
        free: &[Vec<Vec<u8>>],
        target: u32,
        wanted: &mut dyn FnMut(&[u8]) -> bool,
        leaf: &mut Leaf<'_>,
    ) {
        self.target = target;
        let free = Free::new(free, wanted);
        if !free.any(&[], 0) {
            return;
        }
        self.collect(letters, free.len());
        let entries = std::mem::take(&mut self.entries);
        if free.len() == 0 {
            let bound = tree_bound(entries.iter().copied());
            let (bound, boards) = if bound >= target {
                self.search(&entries, 0)
            } else {
                (bound, Vec::new())
            };
            leaf(&[], bound, boards);
        } else {
            self.prove_free(&entries, &free, leaf);
        }
        self.entries = entries;
    }

    /// The work done on the last group.
    #[cfg(test)]
    pub(crate) fn work(&self) -> Work {
        self.work
    }

    /// How many of the first positions are forced by merging: [`FORCED`], or every one of a smaller board.
    fn force_to(&self) -> usize {
        FORCED.min(self.cells.count())
    }

    /// Proves a group's classes from its word paths `entries`: forces the
    /// positions before the free ones (up to [`Prover::force_to`]) by
    /// merging, once for the whole group, then splits each list left on the
    /// free positions. A class's bound is the highest met on its way.
    fn prove_free(&mut self, entries: &[Entry], free: &Free<'_>, leaf: &mut Leaf<'_>) {
        self.lists.levels.resize_with(free.len(), Vec::new);
        let mut digits = vec![0u8; free.len()];
        let mut results: Vec<(u32, Vec<Scored>)> = vec![(0, Vec::new()); free.wanted.len()];
        let fixed = self.cells.count() - free.len();
        let end = self.force_to().min(fixed);
        let mut lists = std::mem::take(&mut self.lists.group);
        make_room(&mut lists, end, fixed);
        let dropped = self.force(&mut lists, 0, end, entries, &mut |prover, list| {
            prover.descend(list, 0, free, &mut digits, &mut |digits, bound, boards| {
                let (highest, found) = &mut results[free.index(digits)];
                *highest = (*highest).max(bound);
                found.extend(boards);
            });
            0
        });
        self.lists.group = lists;
        free.each_assignment(0, &mut digits, &mut |digits| {
            if free.any(digits, digits.len()) {
                let (highest, found) = std::mem::take(&mut results[free.index(digits)]);
                leaf(digits, highest.max(dropped), found);
            }
        });
    }

    /// Splits `list` (free positions before `k` assigned as in `digits`)
    /// on the free positions from `k` on. When their classes fit the lanes
    /// of one tree ([`MAX_LANES`]), they are walked together
    /// ([`Prover::walk_lanes`]); otherwise the next positions are split, as
    /// many at once as the lanes allow: one pass gives every lane's bound, a
    /// second writes the lists of the lanes whose bound reaches the target,
    /// and those go on.
    fn descend(
        &mut self,
        list: Forced<'_>,
        k: usize,
        free: &Free<'_>,
        digits: &mut [u8],
        leaf: &mut Leaf<'_>,
    ) {
        let first = self.cells.count() - free.len();
        let buckets = free.buckets;
        let together: usize = buckets[k..].iter().map(Vec::len).product();
        let (mut end, mut lanes) = (free.len(), together);
        if together > MAX_LANES {
            (end, lanes) = (k + 1, buckets[k].len());
            while end < free.len() && lanes * buckets[end].len() <= MAX_LANES {
                lanes *= buckets[end].len();
                end += 1;
            }
        }
        let positions: Vec<usize> = (first + k..first + end).collect();
        let split = Split::new(&positions, &buckets[k..end]);
        // A lane's digits for free positions k..end, in mixed radix.
        let set_digits = |lane: usize, digits: &mut [u8]| {
            let mut rest = lane;
            for j in (k..end).rev() {
                digits[j] = (rest % buckets[j].len()) as u8;
                rest /= buckets[j].len();
            }
        };
        let mut wanted = 0u32;
        for lane in 0..lanes {
            set_digits(lane, digits);
            if free.any(digits, end) {
                wanted |= 1 << lane;
            }
        }
        if together <= MAX_LANES {
            if wanted != 0 {
                self.walk_together(list, &split, wanted, &mut |lane, bound, boards| {
                    set_digits(lane, digits);
                    leaf(digits, bound, boards);
                });
            }
            for digit in &mut digits[k..] {
                *digit = 0;
            }
            return;
        }
        let mut lists = std::mem::take(&mut self.lists.levels[k]);
        // 16-bit lanes whenever the target fits: a bound held at SATURATED
        // is then still at least the target, and is made exact by the search.
        let narrow = self.target <= SATURATED;
        let bounds = lane_bounds(list.entries.iter().copied(), &split, narrow);
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
            for &e in list.entries {
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
                free.each_assignment(end, digits, &mut |digits| {
                    if free.any(digits, digits.len()) {
                        leaf(digits, bound, Vec::new());
                    }
                });
                continue;
            }
            for (j, &p) in positions.iter().enumerate() {
                self.cells
                    .set_position(p, &buckets[k + j][usize::from(digits[k + j])]);
            }
            let kept = std::mem::take(&mut lists[lane]);
            let next = Forced {
                entries: &kept,
                shared: None,
                depth: list.depth,
            };
            self.descend(next, end, free, digits, leaf);
            lists[lane] = kept;
        }
        for digit in &mut digits[k..end] {
            *digit = 0;
        }
        self.lists.levels[k] = lists;
    }

    /// Walks the classes of `split`'s lanes in `wanted` together (see
    /// [`Prover::walk_lanes`]) and calls `each` for each with its lane,
    /// bound and boards.
    fn walk_together(
        &mut self,
        list: Forced<'_>,
        split: &Split,
        wanted: u32,
        each: &mut dyn FnMut(usize, u32, Vec<Scored>),
    ) {
        self.walks.found().clear();
        let bounds = self.walk_lanes(list, split, wanted);
        let found = std::mem::take(self.walks.found());
        let mut lanes = wanted;
        while lanes != 0 {
            let lane = lanes.trailing_zeros() as usize;
            lanes &= lanes - 1;
            let boards = found
                .iter()
                .filter(|(kept, _)| kept >> lane & 1 != 0)
                .map(|(_, board)| board.clone())
                .collect();
            each(lane, bounds[lane], boards);
        }
        *self.walks.found() = found;
    }

    /// Every board of the class (the letters set now, positions before
    /// `depth` forced as chosen) whose word paths are `entries`, scoring at
    /// least the target, and the highest bound met on the way (at least the
    /// class's best score): forces the positions up to [`Prover::force_to`]
    /// by merging, then builds the tree and walks it.
    pub(crate) fn search(&mut self, entries: &[Entry], depth: usize) -> (u32, Vec<Scored>) {
        let end = self.force_to().max(depth);
        let mut lists = std::mem::take(&mut self.lists.class);
        make_room(&mut lists, end, self.cells.count());
        let alone = Split::new(&[], &[]);
        self.walks.found().clear();
        let bound = self.force(&mut lists, depth, end, entries, &mut |prover, list| {
            prover.walk_lanes(list, &alone, 1)[0]
        });
        self.lists.class = lists;
        let found = self
            .walks
            .found()
            .drain(..)
            .map(|(_, board)| board)
            .collect();
        (bound, found)
    }

    /// Forces positions `depth..end` one at a time (and one more where a
    /// list is longer than `force_more`, if `lists` has room: see
    /// [`make_room`]), each to every letter of its cell, by merging (see
    /// `force`). Calls `reached` on the lists left (those whose bound
    /// reaches the target, and the long ones, not bounded: see [`BOUNDED`]),
    /// and returns the highest bound met (of the lists dropped, and what
    /// `reached` returns).
    fn force(
        &mut self,
        lists: &mut [Vec<Entry>],
        depth: usize,
        end: usize,
        entries: &[Entry],
        reached: &mut Reached<'_, 't>,
    ) -> u32 {
        if self.forced_enough(entries, depth, end, lists.len()) {
            let list = Forced {
                entries,
                shared: None,
                depth,
            };
            return reached(self, list);
        }
        let mut merged = std::mem::take(&mut lists[depth + 1]);
        let mut highest = 0;
        self.lists.sets += 1;
        let forcing = Forcing::new(entries, depth, self.lists.sets);
        for i in 0..self.cells.letters(depth).len() {
            let shared = forcing.letter(self.cells.letters(depth)[i]);
            shared.merge_into(&mut merged);
            self.work.steps += 1;
            // A long list is not bounded first (see [`BOUNDED`]).
            if merged.len() <= BOUNDED {
                let bound = tree_bound(merged.iter().copied());
                if bound < self.target {
                    highest = highest.max(bound);
                    continue;
                }
            }
            self.walks.chosen[depth] = i as u8;
            // A list forced no further is walked over its base (see `flat::Base`).
            let bound = if self.forced_enough(&merged, depth + 1, end, lists.len()) {
                let list = Forced {
                    entries: &merged,
                    shared: Some(&shared).filter(|_| self.tuning.share),
                    depth: depth + 1,
                };
                reached(self, list)
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
    fn forced_enough(&self, entries: &[Entry], depth: usize, end: usize, room: usize) -> bool {
        depth >= end && (entries.len() <= self.tuning.force_more || depth + 1 >= room)
    }

    /// Builds the tree of `list` with a lane for each class of `split` (the
    /// last free positions, or none: one class), and walks it from
    /// `list.depth` for the lanes in `wanted` whose bound reaches the
    /// target, adding the boards found to the walks' `found`. Returns every
    /// lane's bound, exact: in 16 bits unless one is held at their maximum,
    /// then again in 32.
    pub(crate) fn walk_lanes(
        &mut self,
        list: Forced<'_>,
        split: &Split,
        wanted: u32,
    ) -> [u32; MAX_LANES] {
        if split.lanes == 1 {
            return self
                .walk_in(|trees| &mut trees.one, list, split, wanted)
                .unwrap_or_default();
        }
        self.walk_in(|trees| &mut trees.narrow, list, split, wanted)
            .or_else(|| self.walk_in(|trees| &mut trees.wide, list, split, wanted))
            .unwrap_or_default()
    }

    /// [`Prover::walk_tree`] in the tree `pick` takes from the prover's trees.
    fn walk_in<T: Lane, const N: usize>(
        &mut self,
        pick: fn(&mut Trees) -> &mut Tree<T, N>,
        list: Forced<'_>,
        split: &Split,
        wanted: u32,
    ) -> Option<[u32; MAX_LANES]> {
        let mut tree = std::mem::take(pick(&mut self.trees));
        let bounds = self.walk_tree(&mut tree, list, split, wanted);
        *pick(&mut self.trees) = tree;
        bounds
    }

    /// [`Prover::walk_lanes`] in `tree`'s lanes; `None` (nothing walked) if a
    /// bound is held at the lane type's maximum.
    fn walk_tree<T: Lane, const N: usize>(
        &mut self,
        tree: &mut Tree<T, N>,
        list: Forced<'_>,
        split: &Split,
        wanted: u32,
    ) -> Option<[u32; MAX_LANES]> {
        let masks = Masks::new(split);
        let built = self.tuning.built;
        let kept = widest(
            #[inline(always)]
            || match list.shared {
                Some(shared) => tree.build_over(list.entries, shared, &masks, built),
                None => {
                    tree.build(list.entries, &masks, built);
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
        if list.shared.is_some() {
            self.work.taken += tree.taken;
        }
        if tree.saturated() {
            return None;
        }
        let mut bounds = [0; MAX_LANES];
        let mut alive = 0u32;
        for (lane, &bound) in tree.bound.iter().enumerate().take(split.lanes) {
            bounds[lane] = bound.get();
            if wanted >> lane & 1 != 0 && bound.get() >= self.target {
                alive |= 1 << lane;
            }
        }
        if alive == 0 {
            return Some(bounds);
        }
        let walk = Walk {
            split,
            cells: &self.cells,
            target: self.target,
            grow: Grow {
                entries: list.entries,
                absent: list.shared.map_or(&[], |shared| shared.absent),
                masks,
            },
        };
        let walked = self.walks.walk(tree, walk, list.depth, alive);
        self.work.steps += walked.steps;
        self.work.rescored += walked.rescored;
        // And the nodes of the stubs the walk grew.
        self.work.nodes += (tree.nodes() - written) as u64;
        Some(bounds)
    }
}
