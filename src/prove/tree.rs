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

use ahash::AHashSet;

use crate::face::Face;
use crate::rules::Rules;
use crate::search::Searcher;
use crate::trie::{Node, Trie};

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
        let table = crate::neighbours::Neighbours::new(rows, cols, rules.moves);
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
}

/// Reusable scratch space for bounding classes: the tree and the walk's lists.
pub struct Prover<'t> {
    trie: &'t Trie,
    rules: Rules,
    layout: Layout,
    searcher: Searcher<'t>,
    /// Points by word length in letters (0 where the length does not count).
    points: Vec<u32>,
    /// The class's letters, by position.
    letters: Vec<Vec<u8>>,
    /// Letter slots per choice node (the largest bucket).
    width: usize,
    sum_points: Vec<u32>,
    sum_bound: Vec<u32>,
    /// `positions` slots per sum node: its choice node for that position, plus one (0 = none).
    sum_slots: Vec<u32>,
    /// Each sum node's choice children, compacted after the build.
    sum_first: Vec<u32>,
    sum_choices: Vec<u32>,
    choice_position: Vec<u8>,
    choice_bound: Vec<u32>,
    /// `width` slots per choice node: the sum node for each letter index (0 = none).
    choice_slots: Vec<u32>,
    /// (sum node, word) pairs already counted.
    seen: AHashSet<u64>,
    /// The letter index chosen at each position of the path being built.
    path_letters: [u8; 32],
    /// The walk's pending choice nodes, by position.
    pending: Vec<Vec<u32>>,
    /// The letter index chosen at each position of the walk.
    chosen: [u8; 32],
    target: u32,
    faces: Vec<Face>,
    found: Vec<(Vec<u8>, u32)>,
    work: Work,
}

impl<'t> Prover<'t> {
    /// A prover over `trie` under `rules` (a board of at most 32 cells).
    pub fn new(trie: &'t Trie, rules: &Rules) -> Prover<'t> {
        let layout = Layout::new(rules);
        let cells = layout.cells();
        Prover {
            trie,
            rules: rules.clone(),
            searcher: Searcher::new(trie, rules),
            points: (0..=64).map(|n| rules.word_score(n)).collect(),
            letters: vec![Vec::new(); cells],
            width: 1,
            sum_points: Vec::new(),
            sum_bound: Vec::new(),
            sum_slots: Vec::new(),
            sum_first: Vec::new(),
            sum_choices: Vec::new(),
            choice_position: Vec::new(),
            choice_bound: Vec::new(),
            choice_slots: Vec::new(),
            seen: AHashSet::default(),
            path_letters: [0; 32],
            pending: vec![Vec::new(); cells],
            chosen: [0; 32],
            target: 0,
            faces: vec![Face::BLANK; cells],
            found: Vec::new(),
            work: Work::default(),
            layout,
        }
    }

    /// Builds the tree for the class whose cells hold `letters` (by cell,
    /// letters 0 = A) and returns its upper bound.
    pub fn build(&mut self, letters: &[Vec<u8>]) -> u32 {
        let cells = self.layout.cells();
        for (p, &cell) in self.layout.order.iter().enumerate() {
            self.letters[p].clone_from(&letters[cell]);
        }
        self.width = letters.iter().map(Vec::len).max().unwrap_or(1).max(1);
        self.sum_points.clear();
        self.sum_slots.clear();
        self.choice_position.clear();
        self.choice_slots.clear();
        self.seen.clear();
        self.new_sum(cells);
        for cell in 0..cells {
            let p = self.layout.position[cell];
            for i in 0..self.letters[p].len() {
                let letter = self.letters[p][i];
                if let Some((node, len)) = self.step(Trie::ROOT, letter) {
                    self.path_letters[p] = i as u8;
                    self.extend(cell, node, len, 1 << cell, 1 << p);
                }
            }
        }
        self.freeze();
        self.work = Work {
            nodes: (self.sum_points.len() + self.choice_position.len()) as u64,
            ..Work::default()
        };
        self.sum_bound[0]
    }

    /// The trie node after `letter` (a `Q` is `Qu` under Qu rules) and the letters it adds.
    #[inline]
    fn step(&self, node: u32, letter: u8) -> Option<(u32, usize)> {
        let child = self.trie.node(node).child(letter)?;
        if self.rules.qu && letter == b'Q' - b'A' {
            Some((self.trie.node(child).child(b'U' - b'A')?, 2))
        } else {
            Some((child, 1))
        }
    }

    fn extend(&mut self, cell: usize, node: u32, len: usize, used: u32, path: u32) {
        let here: Node = self.trie.node(node);
        if here.is_word() {
            let points = self.points[len.min(64)];
            if points > 0 {
                self.insert(path, node, points);
            }
        }
        if !here.has_children() || self.rules.max_len.is_some_and(|max| len >= max) {
            return;
        }
        let mut next = self.layout.neighbours[cell] & !used;
        while next != 0 {
            let to = next.trailing_zeros() as usize;
            next &= next - 1;
            let p = self.layout.position[to];
            for i in 0..self.letters[p].len() {
                let letter = self.letters[p][i];
                if let Some((child, more)) = self.step(node, letter) {
                    self.path_letters[p] = i as u8;
                    self.extend(to, child, len + more, used | 1 << to, path | 1 << p);
                }
            }
        }
    }

    fn new_sum(&mut self, positions: usize) -> u32 {
        let id = self.sum_points.len() as u32;
        self.sum_points.push(0);
        self.sum_slots.resize(self.sum_slots.len() + positions, 0);
        id
    }

    /// Adds a word's points at the node for its sorted (position, letter) set.
    fn insert(&mut self, mut path: u32, word: u32, points: u32) {
        let positions = self.layout.cells();
        let mut sum = 0u32;
        while path != 0 {
            let p = path.trailing_zeros() as usize;
            path &= path - 1;
            let slot = sum as usize * positions + p;
            let choice = match self.sum_slots[slot] {
                0 => {
                    let id = self.choice_position.len() as u32;
                    self.choice_position.push(p as u8);
                    self.choice_slots
                        .resize(self.choice_slots.len() + self.width, 0);
                    self.sum_slots[slot] = id + 1;
                    id
                }
                c => c - 1,
            };
            let slot = choice as usize * self.width + usize::from(self.path_letters[p]);
            sum = match self.choice_slots[slot] {
                0 => {
                    let id = self.new_sum(positions);
                    self.choice_slots[slot] = id;
                    id
                }
                s => s,
            };
        }
        if self.seen.insert(u64::from(sum) << 32 | u64::from(word)) {
            self.sum_points[sum as usize] += points;
        }
    }

    /// Computes every node's bound and compacts each sum node's choices.
    fn freeze(&mut self) {
        let positions = self.layout.cells();
        let sums = self.sum_points.len();
        self.sum_bound.clear();
        self.sum_bound.resize(sums, 0);
        self.choice_bound.clear();
        self.choice_bound.resize(self.choice_position.len(), 0);
        // Children always have larger ids than their parents.
        for sum in (0..sums).rev() {
            let mut bound = self.sum_points[sum];
            for &slot in &self.sum_slots[sum * positions..(sum + 1) * positions] {
                if slot == 0 {
                    continue;
                }
                let choice = (slot - 1) as usize;
                let best = self.choice_slots[choice * self.width..(choice + 1) * self.width]
                    .iter()
                    .filter(|&&s| s != 0)
                    .map(|&s| self.sum_bound[s as usize])
                    .max()
                    .unwrap_or(0);
                self.choice_bound[choice] = best;
                bound = bound.saturating_add(best);
            }
            self.sum_bound[sum] = bound;
        }
        self.sum_first.clear();
        self.sum_choices.clear();
        for sum in 0..sums {
            self.sum_first.push(self.sum_choices.len() as u32);
            let slots = &self.sum_slots[sum * positions..(sum + 1) * positions];
            self.sum_choices
                .extend(slots.iter().filter(|&&s| s != 0).map(|&s| s - 1));
        }
        self.sum_first.push(self.sum_choices.len() as u32);
    }

    /// Every board of the built class scoring at least `target` (letters by
    /// cell, 0 = A, and the score), found by forcing cells in layout order.
    pub fn boards_at_least(&mut self, target: u32) -> Vec<(Vec<u8>, u32)> {
        self.target = target;
        self.found.clear();
        for list in &mut self.pending {
            list.clear();
        }
        let root_points = self.sum_points[0];
        let rest = self.push_choices(0);
        if root_points.saturating_add(rest) >= target {
            self.walk(0, root_points, rest);
        }
        std::mem::take(&mut self.found)
    }

    /// The work done on the last class.
    pub fn work(&self) -> Work {
        self.work
    }

    /// Queues a sum node's choices and returns the sum of their bounds.
    #[inline]
    fn push_choices(&mut self, sum: u32) -> u32 {
        let (start, end) = (
            self.sum_first[sum as usize] as usize,
            self.sum_first[sum as usize + 1] as usize,
        );
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
        for i in 0..self.letters[depth].len() {
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
