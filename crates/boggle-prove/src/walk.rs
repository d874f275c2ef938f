//! The walk: forcing the positions left one at a time on a built tree,
//! depth first, in every lane at once, and rescoring the boards that
//! survive with the solver.
//!
//! At each position the walk holds the choice nodes *pending* there: those
//! that the letters chosen so far have reached (a sum node reached queues
//! its choices at their positions). Forcing the position to a letter keeps
//! each pending choice's child for that letter: its points are collected,
//! and its own choices are queued. A letter's bound is what the forced
//! positions collected plus every pending choice's bound ([`Slack`] keeps
//! them summed); it goes on in the lanes where that reaches the target
//! and, on a free position, whose bucket holds the letter. A board that
//! reaches the last position in some lane is scored exactly by
//! [`Searcher`] and kept, with its lanes, if it reaches the target.
//!
//! Two checks cut the steps: a letter that passes the plain bound is
//! checked against the tighter one ([`Slack::gap`]); and before the rest
//! of a letter's choices are queued, the next position's alone are, and
//! [`Walker::peek`] asks whether any of its letters can pass (38% of the
//! steps on a 4x4 group stop there). The walk's loads are issued ahead
//! ([`Tree::prefetch`]): it waits on memory, on trees of hundreds of
//! megabytes.
//!
//! The recursion goes through [`widest`] at every level, so that each
//! level runs the copy compiled for the processor's widest vectors.
//!
//! Limits: 32 positions (the letters chosen are a `[u8; 32]`), and a
//! recursion as deep as the positions left.

use boggle_engine::SearchRules;
use boggle_engine::cpu::widest;
use boggle_engine::search::Searcher;
use boggle_engine::trie::Trie;
use boggle_engine::{Face, QReads};

use crate::build::Grow;
use crate::flat::{STUB, SumNode, Tree};
use crate::lanes::{Lane, Split, add_lanes, reaching};
use crate::layout::Cells;
use crate::slack::Slack;

/// A board's letters by cell (0 = A) and its score.
pub(crate) type Scored = (Vec<u8>, u32);

/// What a walk reads besides the tree: the free positions' split, the
/// class's letters, the target, and what grows the tree's stubs.
pub(crate) struct Walk<'a, T: Lane, const N: usize> {
    /// The split of the free positions the tree's lanes are (none: one lane).
    pub(crate) split: &'a Split,
    /// The letters each position holds.
    pub(crate) cells: &'a Cells,
    /// The score a board must reach.
    pub(crate) target: u32,
    /// The lists that grow the tree's stubs.
    pub(crate) grow: Grow<'a, T, N>,
}

impl<'a, T: Lane, const N: usize> Walk<'a, T, N> {
    /// The lanes (as bits) that keep each letter at `position`, if it is a free one.
    #[inline(always)]
    fn admit(&self, position: usize) -> Option<&'a [u32; 27]> {
        let split: &'a Split = self.split;
        let first = self.cells.count() - split.positions.len();
        position.checked_sub(first).and_then(|j| split.admit.get(j))
    }
}

/// What one walk did.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Walked {
    /// Partial boards whose bound was computed.
    pub(crate) steps: u64,
    /// Complete boards scored with the solver.
    pub(crate) rescored: u64,
}

/// What walks keep between them: their lists (allocated once), the letter
/// chosen at each position, and the solver with the boards it kept.
pub(crate) struct Walks<'t> {
    /// The pending choice nodes, by position.
    pending: Vec<Vec<u32>>,
    /// `sums[position]`: the sum nodes (with choices) that forcing that
    /// position to the letter being walked reaches.
    sums: Vec<Vec<SumNode>>,
    /// The letter index chosen at each position (the forcing sets the first).
    pub(crate) chosen: [u8; 32],
    rescorer: Rescorer<'t>,
}

impl<'t> Walks<'t> {
    /// Walks over `trie` under `rules`.
    pub(crate) fn new(trie: &'t Trie, rules: &SearchRules) -> Walks<'t> {
        let cells = rules.cells();
        Walks {
            pending: vec![Vec::new(); cells],
            sums: Vec::new(),
            chosen: [0; 32],
            rescorer: Rescorer {
                searcher: Searcher::new(trie, *rules),
                faces: vec![Face::BLANK; cells],
                q: rules.q,
                found: Vec::new(),
            },
        }
    }

    /// The boards the walks found, each with the lanes (as bits) it was found in.
    pub(crate) fn found(&mut self) -> &mut Vec<(u32, Scored)> {
        &mut self.rescorer.found
    }

    /// Walks `tree` from position `depth` (those before forced as
    /// [`Walks::chosen`] says) in the lanes of `alive`, adding the boards
    /// found to [`Walks::found`].
    pub(crate) fn walk<T: Lane, const N: usize>(
        &mut self,
        tree: &mut Tree<T, N>,
        walk: Walk<'_, T, N>,
        depth: usize,
        alive: u32,
    ) -> Walked {
        let cells = walk.cells.count();
        let root = tree.root;
        let mut rest = [T::default(); N];
        for (lane, &bound) in tree.bound.iter().enumerate().take(walk.split.lanes) {
            rest[lane] = bound.sub(T::of(root.points));
        }
        let mut pending = std::mem::take(&mut self.pending);
        for list in &mut pending {
            list.clear();
        }
        let mut sums = std::mem::take(&mut self.sums);
        sums.resize_with(cells, Vec::new);
        let mut walker = Walker {
            tree,
            slack: Slack::new(cells),
            walk,
            pending,
            sums,
            chosen: self.chosen,
            rescorer: &mut self.rescorer,
            walked: Walked::default(),
        };
        walker.queue(root, u32::MAX);
        widest(
            #[inline(always)]
            || walker.walk(depth, root.points, rest, alive),
        );
        self.pending = walker.pending;
        self.sums = walker.sums;
        walker.walked
    }
}

/// Scores complete boards with the solver and keeps those that reach the target.
struct Rescorer<'t> {
    searcher: Searcher<'t>,
    /// The board being scored, by cell.
    faces: Vec<Face>,
    /// Whether `Q` stands for `QU`.
    q: QReads,
    /// The boards kept, each with the lanes (as bits) it was found in.
    found: Vec<(u32, Scored)>,
}

impl Rescorer<'_> {
    /// Scores the board `chosen` picks from `cells`; keeps it, with `lanes`,
    /// if it reaches `target`.
    fn rescore(&mut self, cells: &Cells, chosen: &[u8; 32], target: u32, lanes: u32) {
        let layout = cells.layout();
        let mut letters = vec![0u8; layout.cells()];
        for (p, &cell) in layout.order().iter().enumerate() {
            let letter = cells.letters(p)[usize::from(chosen[p])];
            letters[cell] = letter;
            self.faces[cell] = if self.q == QReads::Qu && letter == b'Q' - b'A' {
                Face::QU
            } else {
                Face::letter(b'A' + letter).unwrap_or(Face::BLANK)
            };
        }
        let score = self
            .searcher
            .score_faces(layout.rows(), layout.cols(), &self.faces);
        if score >= target {
            self.found.push((lanes, (letters, score)));
        }
    }
}

/// One walk in progress over one tree.
struct Walker<'a, 't, T: Lane, const N: usize> {
    tree: &'a mut Tree<T, N>,
    slack: Slack<T, N>,
    walk: Walk<'a, T, N>,
    /// See [`Walks`].
    pending: Vec<Vec<u32>>,
    sums: Vec<Vec<SumNode>>,
    chosen: [u8; 32],
    rescorer: &'a mut Rescorer<'t>,
    walked: Walked,
}

impl<T: Lane, const N: usize> Walker<'_, '_, T, N> {
    /// Forces position `depth` to each of its letters in turn, in the lanes
    /// of `alive` (as bits). `points` is what the forced positions add up to
    /// (the same in every lane alive: a path's points count in every lane
    /// that keeps its letters, and the lanes alive keep every letter
    /// chosen), `rest` the bounds of the choice nodes pending, by lane.
    /// The slack's sums for this position give every letter's bound in every
    /// lane without a pass over its choices; a letter is walked, in the
    /// lanes where its bound reaches the target (and, on a free position,
    /// whose bucket holds it), after its children's choices are queued. In
    /// a lane alive, `points` plus `rest` never grows, so every sum here is
    /// at most the lane's root bound, which the lane type holds: the
    /// arithmetic is exact there (the lanes not alive may hold anything).
    #[inline(always)]
    fn walk(&mut self, depth: usize, points: u32, rest: [T; N], alive: u32) {
        let cells = self.walk.cells;
        let positions = cells.count();
        if depth == positions {
            self.walked.rescored += 1;
            let target = self.walk.target;
            self.rescorer.rescore(cells, &self.chosen, target, alive);
            return;
        }
        let here = std::mem::take(&mut self.pending[depth]);
        let mut sums = std::mem::take(&mut self.sums[depth]);
        // Per lane, what this position's choices count for in `rest`, and per
        // letter their children's bounds, are in the slack.
        debug_assert!(self.slack.matches(self.tree, depth, &here));
        let base = self.slack.without(depth, &rest);
        // A letter is checked against the bound first, then (only if it
        // passes) against the tighter one, `gap` less; what goes down is
        // `rest` itself.
        let loose = [T::of(self.walk.target.saturating_sub(points)); N];
        let mut tight = None;
        let admit = self.walk.admit(depth);
        let mut lengths = [0u32; 32];
        for (length, list) in lengths.iter_mut().zip(&self.pending).skip(depth + 1) {
            *length = list.len() as u32;
        }
        let seen = self.slack.seen;
        // The gap of the positions after the next, before any letter here is
        // walked: the same for every letter (see [`Walker::peek`]).
        let mut ahead: Option<[T; N]> = None;
        for (i, &letter) in cells.letters(depth).iter().enumerate() {
            let letter = usize::from(letter);
            self.walked.steps += 1;
            let mut next = base;
            add_lanes(&mut next, &self.slack.reach[depth][letter]);
            let mut lanes = reaching(
                &next,
                &loose,
                alive & admit.map_or(u32::MAX, |admit| admit[letter + 1]),
            );
            if lanes == 0 {
                continue;
            }
            // `match`, not `get_or_insert_with`: a closure there would stay a
            // call, compiled without `widest`'s instructions.
            let need = match tight {
                Some(ref need) => need,
                None => {
                    let mut need = loose;
                    if depth + 1 < positions {
                        add_lanes(&mut need, &self.slack.gap(depth + 1));
                    }
                    tight.insert(need)
                }
            };
            lanes = reaching(&next, need, lanes);
            if lanes == 0 {
                continue;
            }
            let gained = self.kids_for(&here, letter, &mut sums);
            let gain = T::of(gained);
            for next in &mut next {
                *next = next.sub(gain);
            }
            // The next position's choices first: if none of its letters can
            // pass, the rest need not be queued.
            let mut later = u32::MAX;
            if depth + 1 < positions {
                let at = 1u32 << (depth + 1);
                self.queue_all(&sums, at);
                let ahead = match ahead {
                    Some(ref ahead) => ahead,
                    None => ahead.insert(self.slack.gap(depth + 2)),
                };
                if !self.peek(depth + 1, points + gained, &next, lanes, ahead) {
                    self.unqueue_at(depth + 1, lengths[depth + 1]);
                    self.slack.seen = seen;
                    sums.clear();
                    continue;
                }
                later = !((at << 1) - 1);
            }
            self.queue_all(&sums, later);
            sums.clear();
            self.chosen[depth] = i as u8;
            // Through `widest` again: each level enters the wide copy.
            widest(
                #[inline(always)]
                || self.walk(depth + 1, points + gained, next, lanes),
            );
            self.unqueue(depth, &lengths);
            self.slack.seen = seen;
        }
        self.sums[depth] = sums;
        self.pending[depth] = here;
    }

    /// Whether any letter at `depth` passes the tighter bound, before the
    /// last step has queued its choices past `depth`: `ahead` is the gap of
    /// the positions after `depth` without them, which is at most the gap
    /// with them (a choice's bound is at least its best child's), so this
    /// is still a bound. `rest` and `alive` are what the walk at `depth` would get.
    #[inline(always)]
    fn peek(&self, depth: usize, points: u32, rest: &[T; N], alive: u32, ahead: &[T; N]) -> bool {
        let base = self.slack.without(depth, rest);
        let mut need = [T::of(self.walk.target.saturating_sub(points)); N];
        add_lanes(&mut need, ahead);
        let admit = self.walk.admit(depth);
        // A loop, not `any`: see the walk's `need`.
        for &letter in self.walk.cells.letters(depth) {
            let letter = usize::from(letter);
            let mut next = base;
            add_lanes(&mut next, &self.slack.reach[depth][letter]);
            let lanes = alive & admit.map_or(u32::MAX, |admit| admit[letter + 1]);
            if reaching(&next, &need, lanes) != 0 {
                return true;
            }
        }
        false
    }

    /// The children for `letter` of the choices `ids`: their points
    /// together, and the sum nodes among them that have choices, into `sums`
    /// (their choices written first where they are stubs: see [`Tree::grow`]).
    #[inline(always)]
    fn kids_for(&mut self, ids: &[u32], letter: usize, sums: &mut Vec<SumNode>) -> u32 {
        let bit = 1u32 << letter;
        let mut points = 0;
        for &id in ids {
            let choice = self.tree.choices[id as usize];
            if choice.letters & bit != 0 {
                let at = choice.start + (choice.letters & (bit - 1)).count_ones();
                let mut node = self.tree.kids[at as usize];
                points += node.points;
                if node.positions & STUB != 0 {
                    node = self.tree.grow(&self.walk.grow, at as usize);
                }
                if node.positions != 0 {
                    sums.push(node);
                }
            }
        }
        points
    }

    /// Queues a sum node's choices at the positions in `mask` (one, or all
    /// from one on: see [`SumNode::first`]), counted in the slack.
    #[inline(always)]
    fn queue(&mut self, sum: SumNode, mask: u32) {
        let mut positions = sum.positions & mask;
        let mut id = sum.first(mask);
        while positions != 0 {
            let position = (31 - positions.leading_zeros()) as usize;
            self.pending[position].push(id);
            self.slack.count::<true>(self.tree, position, id);
            positions ^= 1 << position;
            id += 1;
        }
    }

    /// Queues the choices of `sums` at the positions in `mask` (as
    /// [`Walker::queue`]), their loads asked for first ([`Tree::prefetch`]).
    #[inline(always)]
    fn queue_all(&mut self, sums: &[SumNode], mask: u32) {
        self.tree.prefetch(sums, mask);
        for &node in sums {
            self.queue(node, mask);
        }
    }

    /// Takes the choices queued at `position` since its list had `length` off again.
    #[inline(always)]
    fn unqueue_at(&mut self, position: usize, length: u32) {
        let list = &mut self.pending[position];
        for &id in &list[length as usize..] {
            self.slack.count::<false>(self.tree, position, id);
        }
        list.truncate(length as usize);
    }

    /// Takes the choices queued at positions after `depth` since their lists
    /// had `lengths` off again, and out of the slack.
    #[inline(always)]
    fn unqueue(&mut self, depth: usize, lengths: &[u32; 32]) {
        let positions = self.pending.len();
        for (position, &length) in lengths.iter().enumerate().take(positions).skip(depth + 1) {
            self.unqueue_at(position, length);
        }
    }
}
