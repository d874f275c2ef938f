//! The upper bound of one class: an orderly tree of sum and choice nodes built
//! from every word path the class allows, and the depth-first walk that forces
//! its cells one at a time, dropping letter choices whose bound falls below the
//! target and rescoring the boards that survive with the real solver.
//!
//! A path's (cell, letter) pairs are inserted in one fixed order of cells
//! (positions), so the tree is a trie over sorted sets of (position, letter):
//! a sum node's children are choice nodes for later positions, at most one per
//! position; a choice node's children are sum nodes, one per letter of its cell.
//! A word spelled with the same letters on the same cells along several
//! paths is counted once.

use crate::engine::search::Searcher;
use crate::engine::trie::{Node, Trie};
use crate::face::Face;
use crate::rules::Rules;

/// The fixed cell order for a board shape and the neighbours of each cell.
#[derive(Debug, Clone)]
pub struct Layout {
    rows: usize,
    cols: usize,
    /// `order[position]`: the cell forced at that depth.
    order: Vec<usize>,
    /// `position[cell]`: where that cell is in `order`.
    position: Vec<usize>,
    /// `neighbours[cell]`: the cells a path may step to, as bits.
    neighbours: Vec<u32>,
}

impl Layout {
    /// The layout for `rules`' board (at most 32 cells): cells with the most
    /// neighbours first (centre, then edges, then corners), nearer the centre first.
    pub fn new(rules: &Rules) -> Layout {
        let (rows, cols) = (rules.rows, rules.cols);
        let table = crate::engine::neighbours::Neighbours::new(rows, cols, rules.moves);
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
        let mut position = vec![0; rows * cols];
        for (p, &cell) in order.iter().enumerate() {
            position[cell] = p;
        }
        Layout {
            rows,
            cols,
            order,
            position,
            neighbours,
        }
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
    /// Sum and choice nodes in the tree.
    pub nodes: u64,
    /// Partial assignments whose bound was computed.
    pub steps: u64,
    /// Complete boards rescored with the solver.
    pub rescored: u64,
    /// Word paths inserted into the tree.
    pub inserted: u64,
}

/// Positions forced by filtering the word paths (a merged, tighter bound)
/// before the tree is built and walked; 0, 1 and 2 measured 174, 214 and
/// 291 CPU-s for 3x3 (the filtering costs more than its tighter bound saves).
const SWITCH: usize = 0;

/// Most trie nodes a dictionary may have: an entry keeps its word's node in 24 bits.
pub const MAX_TRIE_NODES: usize = 1 << 24;

/// Bits per position in an entry's key: a letter index plus one, 0 where the path does not go.
const BITS: u32 = 5;

/// Where position `p`'s letter sits in an entry (position 0 in the top bits).
#[inline(always)]
fn shift(p: usize) -> u32 {
    128 - BITS * (p as u32 + 1)
}

/// The letter index plus one an entry has at position `p` (0 = none).
#[inline(always)]
fn letter_at(entry: u128, p: usize) -> u32 {
    ((entry >> shift(p)) & 31) as u32
}

/// The first position from `from` on that an entry uses, or `None` if it uses none.
#[cfg(test)]
#[inline(always)]
fn next_position(entry: u128, from: usize) -> Option<usize> {
    // The key is the top 16 * BITS = 80 bits; the rest is the word and its points.
    let key = entry >> 48;
    let tail = key & ((1u128 << (80 - BITS as usize * from)) - 1);
    (tail != 0).then(|| (tail.leading_zeros() as usize - 48) / BITS as usize)
}

/// The positions an entry's key uses, as bits (position 0 = bit 0).
#[inline(always)]
fn used_positions(key: u128) -> u16 {
    let mut used = 0u16;
    for p in 0..16 {
        if letter_at(key, p) != 0 {
            used |= 1 << p;
        }
    }
    used
}

/// The bound of the tree the sorted, deduplicated `entries` make, in one pass:
/// a stack of open sum nodes (one per pair of the current path), each with
/// its open choice node, closed as the next entry leaves their prefix.
fn tree_bound(entries: impl IntoIterator<Item = u128>) -> u32 {
    // sum[d]: the sum node after d pairs (points and closed choices);
    // position[d] and best[d]: its open choice (NONE if none) and its best closed child.
    const NONE: u32 = u32::MAX;
    let mut sum = [0u32; 17];
    let mut position = [NONE; 17];
    let mut best = [0u32; 17];
    let mut depth = 0usize;
    let mut entries = entries.into_iter().peekable();
    let mut previous = entries.peek().map_or(0, |&e| e ^ (1u128 << 127));
    for entry in entries {
        let used = (entry >> 32) as u16 as u32;
        let differ = ((entry ^ previous) >> 48)
            .leading_zeros()
            .saturating_sub(48);
        let first = differ / BITS;
        let below = (1u32 << first.min(16)) - 1;
        let common = (used & below).count_ones() as usize;
        // Close the sum nodes past the common prefix into their parents' choices.
        while depth > common {
            let value = sum[depth]
                + if position[depth] == NONE {
                    0
                } else {
                    best[depth]
                };
            best[depth - 1] = best[depth - 1].max(value);
            depth -= 1;
        }
        // Open this entry's remaining pairs.
        let mut rest = used & !below;
        while rest != 0 {
            let p = rest.trailing_zeros();
            rest &= rest - 1;
            if position[depth] != p {
                if position[depth] != NONE {
                    sum[depth] += best[depth];
                }
                position[depth] = p;
                best[depth] = 0;
            }
            depth += 1;
            sum[depth] = 0;
            position[depth] = NONE;
        }
        sum[depth] += (entry & 0xffff_ffff) as u32;
        previous = entry;
    }
    while depth > 0 {
        let value = sum[depth]
            + if position[depth] == NONE {
                0
            } else {
                best[depth]
            };
        best[depth - 1] = best[depth - 1].max(value);
        depth -= 1;
    }
    sum[0] + if position[0] == NONE { 0 } else { best[0] }
}

#[cfg(test)]
fn sum_bound_of(entries: &[u128], lo: usize, hi: usize, from: usize) -> u32 {
    let mut total = 0u32;
    let mut i = lo;
    while i < hi && next_position(entries[i], from).is_none() {
        total += (entries[i] & 0xffff_ffff) as u32;
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

/// A board's letters by cell (0 = A) and its score.
pub type Scored = (Vec<u8>, u32);

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

/// Reusable scratch space for bounding classes: the word paths, the tree and the walk's lists.
pub struct Prover<'t> {
    trie: &'t Trie,
    rules: Rules,
    layout: Layout,
    searcher: Searcher<'t>,
    /// Points by word length in letters (0 where the length does not count).
    points: Vec<u32>,
    /// The class's letters, by position.
    letters: Vec<Vec<u8>>,
    /// The class's letters as bits, by position.
    masks: Vec<u32>,
    /// `index[position][letter]`: the letter's index in that position's bucket.
    index: Vec<[u8; 26]>,
    /// Every word path: its (position, letter) set as a key in the top 80
    /// bits, then its trie node, then its points in the low 8 bits.
    entries: Vec<u128>,
    /// The entries filtered for each free position of a group.
    levels: Vec<Vec<u128>>,
    /// The entries filtered for each position forced to one letter.
    forced: Vec<Vec<u128>>,
    /// The choices of each open sum node while the tree is built.
    lists: Vec<Vec<u32>>,
    /// Letter slots per choice node (the largest bucket).
    width: usize,
    sum_points: Vec<u32>,
    sum_bound: Vec<u32>,
    /// Each sum node's choice children: `sum_choices[start..start + len]`.
    sum_range: Vec<(u32, u32)>,
    sum_choices: Vec<u32>,
    choice_position: Vec<u8>,
    choice_bound: Vec<u32>,
    /// `width` slots per choice node: the sum node for each letter index (0 = none).
    choice_slots: Vec<u32>,
    /// The walk's pending choice nodes, by position.
    pending: Vec<Vec<u32>>,
    /// The letter index chosen at each position of the walk.
    chosen: [u8; 32],
    /// Positions before this one were forced before the tree was built.
    start: usize,
    /// Positions forced by filtering the word paths before the walk takes over.
    switch: usize,
    target: u32,
    faces: Vec<Face>,
    found: Vec<(Vec<u8>, u32)>,
    work: Work,
}

impl<'t> Prover<'t> {
    /// A prover over `trie` under `rules` (a board of at most 16 cells).
    pub fn new(trie: &'t Trie, rules: &Rules) -> Prover<'t> {
        let layout = Layout::new(rules);
        let cells = layout.cells();
        Prover {
            trie,
            rules: rules.clone(),
            searcher: Searcher::new(trie, rules),
            points: (0..=64).map(|n| rules.word_score(n).min(255)).collect(),
            letters: vec![Vec::new(); cells],
            masks: vec![0; cells],
            index: vec![[0; 26]; cells],
            entries: Vec::new(),
            levels: Vec::new(),
            forced: Vec::new(),
            lists: Vec::new(),
            width: 1,
            sum_points: Vec::new(),
            sum_bound: Vec::new(),
            sum_range: Vec::new(),
            sum_choices: Vec::new(),
            choice_position: Vec::new(),
            choice_bound: Vec::new(),
            choice_slots: Vec::new(),
            pending: vec![Vec::new(); cells],
            chosen: [0; 32],
            start: 0,
            switch: SWITCH,
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
        self.masks[p] = 0;
        for (i, &l) in letters.iter().enumerate() {
            self.masks[p] |= 1 << l;
            self.index[p][usize::from(l)] = i as u8;
        }
        self.width = self.letters.iter().map(Vec::len).max().unwrap_or(1).max(1);
    }

    /// Collects every word path of the boards whose cells hold `letters` (by
    /// cell, letters 0 = A), sorted, into the first level.
    fn collect(&mut self, letters: &[Vec<u8>]) {
        self.set_letters(letters);
        let cells = self.layout.cells();
        self.work = Work::default();
        self.entries.clear();
        let root = self.trie.node(Trie::ROOT);
        for cell in 0..cells {
            self.step_into(root, Trie::ROOT, 0, cell, 0, 0);
        }
        self.entries.sort_unstable();
        self.entries.dedup();
        // Words are counted once per key now: merge each key's entries into
        // one whose low 32 bits hold their points together.
        let mut merged = 0;
        for i in 0..self.entries.len() {
            let entry = self.entries[i];
            let points = (entry & 0xff) as u32;
            let key = entry & !0xffff_ffffu128;
            if merged > 0 && self.entries[merged - 1] & !0xffff_ffffu128 == key {
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
        self.collect(letters);
        tree_bound(self.entries.iter().copied())
    }

    /// Proves a group of classes: the cells before the last `free.len()`
    /// positions hold `letters` (by cell); free position `k` holds one of
    /// `free[k]`'s buckets. The word paths are collected once, with every
    /// letter on the free positions, and filtered down one free position at
    /// a time; a partial group whose bound is under the target is dropped
    /// whole. Calls `leaf(digits, bound, boards)` for each assignment of
    /// buckets to the free positions that `wanted` accepts.
    pub fn prove_group(
        &mut self,
        letters: &[Vec<u8>],
        free: &[Vec<Vec<u8>>],
        target: u32,
        wanted: &mut dyn FnMut(&[u8]) -> bool,
        leaf: &mut Leaf<'_>,
    ) {
        self.collect(letters);
        let mut levels = std::mem::take(&mut self.levels);
        levels.resize_with(free.len() + 1, Vec::new);
        levels[0] = std::mem::take(&mut self.entries);
        let mut digits = vec![0u8; free.len()];
        self.descend(
            &mut levels,
            0,
            None,
            free,
            target,
            &mut digits,
            wanted,
            leaf,
        );
        self.entries = std::mem::take(&mut levels[0]);
        self.levels = levels;
    }

    #[allow(clippy::too_many_arguments)]
    fn descend(
        &mut self,
        levels: &mut [Vec<u128>],
        k: usize,
        known: Option<u32>,
        free: &[Vec<Vec<u8>>],
        target: u32,
        digits: &mut [u8],
        wanted: &mut dyn FnMut(&[u8]) -> bool,
        leaf: &mut Leaf<'_>,
    ) {
        if k == free.len() {
            if !wanted(digits) {
                return;
            }
            let bound = known.unwrap_or_else(|| tree_bound(levels[k].iter().copied()));
            let boards = if bound >= target {
                self.target = target;
                self.found.clear();
                let mut forced = std::mem::take(&mut self.forced);
                forced.resize_with(self.layout.cells() + 1, Vec::new);
                std::mem::swap(&mut forced[0], &mut levels[k]);
                self.force(&mut forced, 0, 0);
                std::mem::swap(&mut forced[0], &mut levels[k]);
                self.forced = forced;
                std::mem::take(&mut self.found)
            } else {
                Vec::new()
            };
            leaf(digits, bound, boards);
            return;
        }
        let bound = known.unwrap_or_else(|| tree_bound(levels[k].iter().copied()));
        if bound < target {
            // Every class below has a bound at most this one's.
            each_assignment(free, k, digits, &mut |digits| {
                if wanted(digits) {
                    leaf(digits, bound, Vec::new());
                }
            });
            return;
        }
        let p = self.layout.cells() - free.len() + k;
        let last = k + 1 == free.len();
        for (d, bucket) in free[k].iter().enumerate() {
            digits[k] = d as u8;
            let allowed: u32 = bucket.iter().fold(1, |m, &l| m | 1 << (l + 1));
            let keep = |e: &u128| allowed & 1 << letter_at(*e, p) != 0;
            let mut known = None;
            if last {
                // A class's bound straight from its parent's keys: most
                // classes end here, and their keys are never written.
                if !wanted(digits) {
                    continue;
                }
                let bound = tree_bound(levels[k].iter().copied().filter(keep));
                if bound < target {
                    leaf(digits, bound, Vec::new());
                    continue;
                }
                known = Some(bound);
            }
            {
                let (above, below) = levels.split_at_mut(k + 1);
                below[0].clear();
                below[0].extend(above[k].iter().copied().filter(keep));
            }
            self.set_position(p, bucket);
            self.descend(levels, k + 1, known, free, target, digits, wanted, leaf);
        }
        digits[k] = 0;
    }

    /// Extends a path at trie node `node` (`here`) into cell `to` with each
    /// of its letters that continues a word.
    #[inline]
    fn step_into(&mut self, here: Node, _node: u32, len: usize, to: usize, used: u32, key: u128) {
        let p = self.layout.position[to];
        let letters = here.letters();
        let mut next = letters & self.masks[p];
        while next != 0 {
            let l = next.trailing_zeros();
            next &= next - 1;
            let mut child = here.first() + (letters & ((1 << l) - 1)).count_ones();
            let mut more = 1;
            if self.rules.qu && l == u32::from(b'Q' - b'A') {
                match self.trie.node(child).child(b'U' - b'A') {
                    Some(u) => (child, more) = (u, 2),
                    None => continue,
                }
            }
            let letter = u128::from(l) + 1;
            self.extend(
                to,
                child,
                len + more,
                used | 1 << to,
                key | letter << shift(p),
            );
        }
    }

    fn extend(&mut self, cell: usize, node: u32, len: usize, used: u32, key: u128) {
        let here: Node = self.trie.node(node);
        if here.is_word() {
            let points = self.points[len.min(64)];
            if points > 0 {
                self.entries.push(
                    key | u128::from(used_positions(key)) << 32
                        | u128::from(node) << 8
                        | u128::from(points),
                );
            }
        }
        if !here.has_children() || self.rules.max_len.is_some_and(|max| len >= max) {
            return;
        }
        let mut next = self.layout.neighbours[cell] & !used;
        while next != 0 {
            let to = next.trailing_zeros() as usize;
            next &= next - 1;
            self.step_into(here, node, len, to, used, key);
        }
    }

    /// Builds the tree of `entries` in one pass, as [`tree_bound`] walks them:
    /// a stack of open sum nodes, each with its open choice node.
    fn build_tree(&mut self) {
        const NONE: u32 = u32::MAX;
        let mut sums = [0u32; 17];
        let mut total = [0u32; 17];
        let mut choice = [NONE; 17];
        let mut position = [NONE; 17];
        let mut lists = std::mem::take(&mut self.lists);
        lists.resize_with(17, Vec::new);
        for list in &mut lists {
            list.clear();
        }
        sums[0] = self.new_sum();
        let mut depth = 0usize;
        let entries = std::mem::take(&mut self.entries);
        let mut previous = entries.first().map_or(0, |&e| e ^ (1u128 << 127));
        for &entry in &entries {
            let used = (entry >> 32) as u16 as u32;
            let differ = ((entry ^ previous) >> 48)
                .leading_zeros()
                .saturating_sub(48);
            let below = (1u32 << (differ / BITS).min(16)) - 1;
            let common = (used & below).count_ones() as usize;
            while depth > common {
                let bound =
                    self.close_sum(sums[depth], total[depth], choice[depth], &mut lists[depth]);
                let parent = choice[depth - 1] as usize;
                self.choice_bound[parent] = self.choice_bound[parent].max(bound);
                depth -= 1;
            }
            let mut rest = used & !below;
            while rest != 0 {
                let p = rest.trailing_zeros();
                rest &= rest - 1;
                if position[depth] != p {
                    if choice[depth] != NONE {
                        total[depth] += self.choice_bound[choice[depth] as usize];
                    }
                    let id = self.choice_position.len() as u32;
                    self.choice_position.push(p as u8);
                    self.choice_bound.push(0);
                    self.choice_slots
                        .resize(self.choice_slots.len() + self.width, 0);
                    choice[depth] = id;
                    position[depth] = p;
                    lists[depth].push(id);
                }
                let child = self.new_sum();
                let letter = letter_at(entry, p as usize) as usize - 1;
                let index = usize::from(self.index[p as usize][letter]);
                self.choice_slots[choice[depth] as usize * self.width + index] = child;
                depth += 1;
                sums[depth] = child;
                total[depth] = 0;
                choice[depth] = NONE;
                position[depth] = NONE;
            }
            let points = (entry & 0xffff_ffff) as u32;
            self.sum_points[sums[depth] as usize] += points;
            total[depth] += points;
            previous = entry;
        }
        while depth > 0 {
            let bound = self.close_sum(sums[depth], total[depth], choice[depth], &mut lists[depth]);
            let parent = choice[depth - 1] as usize;
            self.choice_bound[parent] = self.choice_bound[parent].max(bound);
            depth -= 1;
        }
        self.close_sum(sums[0], total[0], choice[0], &mut lists[0]);
        self.entries = entries;
        self.lists = lists;
    }

    fn clear_tree(&mut self) {
        self.sum_points.clear();
        self.sum_bound.clear();
        self.sum_range.clear();
        self.sum_choices.clear();
        self.choice_position.clear();
        self.choice_bound.clear();
        self.choice_slots.clear();
    }

    fn new_sum(&mut self) -> u32 {
        let id = self.sum_points.len() as u32;
        self.sum_points.push(0);
        self.sum_bound.push(0);
        self.sum_range.push((0, 0));
        id
    }

    /// Finishes a sum node: its bound (returned) and its list of choices.
    fn close_sum(&mut self, sum: u32, total: u32, open: u32, list: &mut Vec<u32>) -> u32 {
        let bound = total
            + if open == u32::MAX {
                0
            } else {
                self.choice_bound[open as usize]
            };
        let start = self.sum_choices.len() as u32;
        self.sum_choices.extend_from_slice(list);
        self.sum_range[sum as usize] = (start, list.len() as u32);
        self.sum_bound[sum as usize] = bound;
        list.clear();
        bound
    }

    /// Builds the tree of the sum node shared by `entries[lo..hi]` (see
    /// [`Prover::sum_bound_of`]) and returns its id.
    #[cfg(test)]
    fn materialize(&mut self, lo: usize, hi: usize, from: usize) -> u32 {
        let id = self.sum_points.len() as u32;
        self.sum_points.push(0);
        self.sum_bound.push(0);
        self.sum_range.push((0, 0));
        let mut points = 0u32;
        let mut i = lo;
        while i < hi && next_position(self.entries[i], from).is_none() {
            points += (self.entries[i] & 0xffff_ffff) as u32;
            i += 1;
        }
        let mut choices = [0u32; 32];
        let mut count = 0;
        let mut total = points;
        while i < hi {
            let Some(q) = next_position(self.entries[i], from) else {
                break;
            };
            let choice = self.choice_position.len() as u32;
            self.choice_position.push(q as u8);
            self.choice_bound.push(0);
            self.choice_slots
                .resize(self.choice_slots.len() + self.width, 0);
            let mut best = 0;
            while i < hi && next_position(self.entries[i], from) == Some(q) {
                let letter = letter_at(self.entries[i], q);
                let mut j = i + 1;
                while j < hi
                    && letter_at(self.entries[j], q) == letter
                    && next_position(self.entries[j], from) == Some(q)
                {
                    j += 1;
                }
                let child = self.materialize(i, j, q + 1);
                let index = usize::from(self.index[q][letter as usize - 1]);
                self.choice_slots[choice as usize * self.width + index] = child;
                best = best.max(self.sum_bound[child as usize]);
                i = j;
            }
            self.choice_bound[choice as usize] = best;
            total = total.saturating_add(best);
            choices[count] = choice;
            count += 1;
        }
        let start = self.sum_choices.len() as u32;
        self.sum_choices.extend_from_slice(&choices[..count]);
        self.sum_points[id as usize] = points;
        self.sum_bound[id as usize] = total;
        self.sum_range[id as usize] = (start, count as u32);
        id
    }

    /// Forces position `p` to each of its letters in turn, keeping the word
    /// paths that agree, and goes on with those whose bound reaches the target;
    /// a board with every position forced is scored by the solver.
    ///
    /// A word path whose positions are all forced adds its points to `fixed`
    /// and leaves the list: with one letter per forced position the tree's
    /// bound is those points plus the bound of the paths still open.
    fn force(&mut self, forced: &mut [Vec<u128>], p: usize, fixed: u32) {
        if p == self.layout.cells() {
            self.rescore(fixed);
            return;
        }
        if p >= self.switch {
            std::mem::swap(&mut self.entries, &mut forced[p]);
            self.walk_from(p, fixed);
            std::mem::swap(&mut self.entries, &mut forced[p]);
            return;
        }
        let later = !((2u128 << p) - 1) << 32;
        for i in 0..self.letters[p].len() {
            let letter = u32::from(self.letters[p][i]) + 1;
            let mut more = 0u32;
            {
                let (above, below) = forced.split_at_mut(p + 1);
                below[0].clear();
                for &e in &above[p] {
                    let at = letter_at(e, p);
                    if at != 0 && at != letter {
                        continue;
                    }
                    if e & later & (0xffffu128 << 32) == 0 {
                        more += (e & 0xffff_ffff) as u32;
                    } else {
                        below[0].push(e);
                    }
                }
            }
            self.work.steps += 1;
            let fixed = fixed + more;
            if fixed.saturating_add(tree_bound(forced[p + 1].iter().copied())) >= self.target {
                self.chosen[p] = i as u8;
                self.force(forced, p + 1, fixed);
            }
        }
    }

    /// Every board of the built class scoring at least `target` (letters by
    /// cell, 0 = A, and the score), found by forcing cells in layout order.
    pub fn boards_at_least(&mut self, target: u32) -> Vec<(Vec<u8>, u32)> {
        self.target = target;
        self.found.clear();
        self.walk_from(0, 0);
        std::mem::take(&mut self.found)
    }

    /// Builds the tree of `entries`, whose positions before `start` are forced
    /// (they hold `chosen`) and whose finished paths scored `fixed`, and walks it.
    fn walk_from(&mut self, start: usize, fixed: u32) {
        self.start = start;
        self.clear_tree();
        self.build_tree();
        self.work.nodes = (self.sum_points.len() + self.choice_position.len()) as u64;
        for list in &mut self.pending {
            list.clear();
        }
        let root_points = self.sum_points[0] + fixed;
        let rest = self.push_choices(0);
        if root_points.saturating_add(rest) >= self.target {
            self.walk(0, root_points, rest);
        }
    }

    /// The work done on the last class.
    pub fn work(&self) -> Work {
        self.work
    }

    /// Queues a sum node's choices and returns the sum of their bounds.
    #[inline]
    fn push_choices(&mut self, sum: u32) -> u32 {
        let (start, len) = self.sum_range[sum as usize];
        let (start, end) = (start as usize, (start + len) as usize);
        let mut total = 0u32;
        for &choice in &self.sum_choices[start..end] {
            self.pending[usize::from(self.choice_position[choice as usize])].push(choice);
            total = total.saturating_add(self.choice_bound[choice as usize]);
        }
        total
    }

    fn walk(&mut self, depth: usize, points: u32, rest: u32) {
        let positions = self.layout.cells();
        if depth == positions {
            self.rescore(points);
            return;
        }
        let here = std::mem::take(&mut self.pending[depth]);
        let lost: u32 = here.iter().map(|&c| self.choice_bound[c as usize]).sum();
        let rest = rest - lost;
        let mut lengths = [0u32; 32];
        for (length, list) in lengths.iter_mut().zip(&self.pending).skip(depth + 1) {
            *length = list.len() as u32;
        }
        let letters = if depth < self.start {
            let c = usize::from(self.chosen[depth]);
            c..c + 1
        } else {
            0..self.letters[depth].len()
        };
        for i in letters {
            self.work.steps += 1;
            let (mut gained, mut added) = (0u32, 0u32);
            for &choice in &here {
                let sum = self.choice_slots[choice as usize * self.width + i];
                if sum != 0 {
                    gained += self.sum_points[sum as usize];
                    added += self.push_choices(sum);
                }
            }
            let (points, rest) = (points + gained, rest + added);
            if points.saturating_add(rest) >= self.target {
                self.chosen[depth] = i as u8;
                self.walk(depth + 1, points, rest);
            }
            for (list, &length) in self.pending.iter_mut().zip(&lengths).skip(depth + 1) {
                list.truncate(length as usize);
            }
        }
        self.pending[depth] = here;
    }

    /// Scores the board the walk has chosen with the solver; keeps it if it reaches the target.
    fn rescore(&mut self, _bound: u32) {
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
            self.found.push((letters, score));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dictionary::Dictionary;
    use crate::rules::{Preset, Rules};

    #[test]
    fn one_pass_bounds_match_the_recursive_ones() {
        let dictionary = Dictionary::from_words([
            "tea", "eat", "ate", "seat", "east", "teas", "state", "taste", "estate", "sat", "set",
            "stet", "test", "tests", "aster", "rates", "stare", "tears", "treat", "street",
        ]);
        let rules = Rules::sized(Preset::Classic, 3, 3);
        let mut prover = Prover::new(dictionary.trie(), &rules);
        for letters in [
            vec![b"aest".to_vec(); 9],
            vec![b"aerst".to_vec(); 9],
            vec![
                b"ae".to_vec(),
                b"rst".to_vec(),
                b"aeiou".to_vec(),
                b"st".to_vec(),
                b"e".to_vec(),
                b"rt".to_vec(),
                b"a".to_vec(),
                b"s".to_vec(),
                b"aest".to_vec(),
            ],
        ] {
            let letters: Vec<Vec<u8>> = letters
                .into_iter()
                .map(|l| l.into_iter().map(|b| b - b'a').collect())
                .collect();
            let bound = prover.build(&letters);
            let entries = prover.entries.clone();
            assert!(bound > 0);
            assert_eq!(bound, sum_bound_of(&entries, 0, entries.len(), 0));
            prover.clear_tree();
            prover.build_tree();
            let built = prover.sum_bound[0];
            prover.clear_tree();
            let root = prover.materialize(0, entries.len(), 0);
            assert_eq!(built, bound);
            assert_eq!(prover.sum_bound[root as usize], bound);
        }
    }
}
