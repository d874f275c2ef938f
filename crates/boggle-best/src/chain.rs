//! One chain of the best-board search: annealing from a random board, hill
//! climbing with escapes, kicks of its best local maximum (iterated local
//! search) and restarts, scoring boards through a small cache and whole
//! neighbourhoods through open-cell walks (see the parent module's docs).

#![expect(
    clippy::disallowed_methods,
    reason = "a chain stops at the search's deadline, read here between climbs"
)]

use std::sync::atomic::Ordering;
use std::time::Instant;

use ahash::AHashSet;

use super::{Move, Options, Progress, Schedule, Space, State, Symmetries, Top, unit};
use boggle_engine::search::Searcher;
use boggle_game::face::{Face, QReads};
use boggle_game::random::{self, GameRng};

/// One independent chain of annealing runs.
pub(crate) struct Chain<'a, 't> {
    pub(crate) searcher: Searcher<'t>,
    pub(crate) space: &'a Space,
    pub(crate) symmetries: &'a Symmetries,
    pub(crate) progress: &'a Progress,
    pub(crate) rng: GameRng,
    pub(crate) top: Top,
    pub(crate) deadline: Option<Instant>,
    pub(crate) evaluations: Option<u64>,
    pub(crate) used: u64,
    pub(crate) cache: Cache,
    pub(crate) target: Option<u32>,
    /// Local maxima no escape leaves: a kick that climbs back to one need
    /// not try its escapes again (they would fail the same way).
    pub(crate) stuck: AHashSet<Vec<Face>>,
    /// Best local maxima (canonical) whose kicks ran out of patience
    /// ([`Schedule::restart_spent`]).
    pub(crate) spent: AHashSet<Vec<Face>>,
}

impl<'a, 't> Chain<'a, 't> {
    /// A chain drawing from `seed`, with no deadline or board budget yet.
    pub(crate) fn new(
        searcher: Searcher<'t>,
        space: &'a Space,
        symmetries: &'a Symmetries,
        progress: &'a Progress,
        seed: u64,
        options: &Options,
    ) -> Self {
        Chain {
            searcher,
            space,
            symmetries,
            progress,
            rng: random::seeded(seed),
            top: Top::new(options.top),
            deadline: None,
            evaluations: None,
            used: 0,
            cache: Cache::new(CACHE_SLOTS, space.cells()),
            target: options.target,
            stuck: AHashSet::new(),
            spent: AHashSet::new(),
        }
    }

    /// Anneals a random board to a local maximum, then kicks local maxima
    /// from its pool of the best few met since (see [`Elites`]) until
    /// `patience` kicks in a row find nothing better than the best, then
    /// starts again, until the budget is spent.
    pub(crate) fn run(&mut self, schedule: &Schedule) {
        let mut elites = Elites::new(schedule.elites.max(1) as usize);
        let mut misses = 0;
        loop {
            let found = match elites.pick(&mut self.rng) {
                Some(board) if misses < schedule.patience => self.kick(schedule, board.clone()),
                _ => {
                    if schedule.restart_spent
                        && let Some(best) = elites.best_canonical()
                    {
                        remember(&mut self.spent, best.to_vec());
                    }
                    elites.clear();
                    self.anneal(schedule)
                }
            };
            let Some((score, state)) = found else {
                return;
            };
            if elites.best().is_none_or(|best| score > best) {
                misses = 0;
            } else {
                misses += 1;
            }
            let canonical = self.symmetries.canonical(&state.faces);
            elites.offer(score, state, canonical);
            // Kicks from this best already ran out of patience once, and
            // more of them would fail much as those did.
            if schedule.restart_spent
                && elites
                    .best_canonical()
                    .is_some_and(|best| self.spent.contains(best))
            {
                misses = schedule.patience;
            }
        }
    }

    /// Changes a local maximum by a few random moves and climbs (with
    /// escapes) to the local maximum that leads to; `None` once the budget is spent.
    fn kick(&mut self, schedule: &Schedule, mut state: State) -> Option<(u32, State)> {
        for _ in 0..schedule.kick {
            let mv = self
                .space
                .random_move(&state, schedule.swap_share, &mut self.rng);
            state.apply(mv);
        }
        let score = self.score(&state)?;
        self.settle(schedule, state, score)
    }

    /// Anneals a random board, then climbs and escapes to a local maximum;
    /// `None` once the budget is spent.
    fn anneal(&mut self, schedule: &Schedule) -> Option<(u32, State)> {
        let mut state = self.space.random(&mut self.rng);
        let mut score = self.score(&state)?;
        let cooling = (schedule.end / schedule.start).powf(1.0 / schedule.steps.max(1) as f64);
        let mut temperature = schedule.start;
        for _ in 0..schedule.steps {
            let mv = self
                .space
                .random_move(&state, schedule.swap_share, &mut self.rng);
            let undo = state.apply(mv);
            let next = self.score(&state)?;
            let delta = f64::from(next) - f64::from(score);
            if delta >= 0.0 || unit(&mut self.rng) < (delta / temperature).exp() {
                score = next;
            } else {
                state.apply(undo);
            }
            temperature *= cooling;
        }
        self.settle(schedule, state, score)
    }

    /// Climbs and escapes from a scored board to a local maximum; `None`
    /// once the budget is spent.
    fn settle(
        &mut self,
        schedule: &Schedule,
        mut state: State,
        score: u32,
    ) -> Option<(u32, State)> {
        let score = self.climb(&mut state, score)?;
        let score = self.escape(schedule, &mut state, score)?;
        Some((score, state))
    }

    /// Leaves a local maximum through its least damaging moves: each of the
    /// best few single moves is taken and followed by a climb, and the first
    /// that ends above the maximum becomes the new board, until none does.
    /// The best boards sit two or three moves from good local maxima, and a
    /// step that loses little is far likelier to lead there than a random one.
    fn escape(&mut self, schedule: &Schedule, state: &mut State, mut score: u32) -> Option<u32> {
        'maximum: loop {
            if self.stuck.contains(&state.faces) {
                return Some(score);
            }
            let mut moves = self.neighbourhood(state)?;
            // Stable, so ties keep the neighbourhood's order and runs repeat.
            moves.sort_by_key(|m| std::cmp::Reverse(m.0));
            for &(first, mv) in moves.iter().take(schedule.escapes as usize) {
                let mut next = state.clone();
                next.apply(mv);
                let next_score = self.climb(&mut next, first)?;
                if next_score > score {
                    *state = next;
                    score = next_score;
                    continue 'maximum;
                }
            }
            remember(&mut self.stuck, state.faces.clone());
            return Some(score);
        }
    }

    /// Hill climbing, cell by cell, to a local maximum; returns its score, or
    /// `None` once the budget is spent. The cells are visited in turn from
    /// the first, and each takes the best of its own moves (its other faces
    /// and its swaps with later cells, scored in one walk) if that beats the
    /// board. The climb ends once every cell in a row has nothing better: a
    /// local maximum of every single move, as a steepest-ascent climb ends,
    /// but each step costs one cell's walk, not the whole neighbourhood's.
    pub(crate) fn climb(&mut self, state: &mut State, mut score: u32) -> Option<u32> {
        let cells = self.space.cells();
        let mut partners = vec![None; cells];
        let (mut sets, mut swaps) = (Vec::new(), Vec::new());
        let (mut cell, mut quiet) = (0, 0);
        while quiet < cells {
            sets.clear();
            swaps.clear();
            self.cell_moves(state, cell, &mut partners, &mut sets, &mut swaps)?;
            let mut best: Option<(u32, Move)> = None;
            for &(next, mv) in sets.iter().chain(&swaps) {
                if next > best.map_or(score, |(s, _)| s) {
                    best = Some((next, mv));
                }
            }
            match best {
                Some((next, mv)) => {
                    state.apply(mv);
                    score = next;
                    quiet = 0;
                }
                None => quiet += 1,
            }
            cell = (cell + 1) % cells;
        }
        Some(score)
    }

    /// Every move from `state`, in [`Space::all_moves`] order, with the
    /// score of the board it leads to; `None` once the budget is spent.
    pub(crate) fn neighbourhood(&mut self, state: &mut State) -> Option<Vec<(u32, Move)>> {
        let cells = self.space.cells();
        let mut sets = Vec::new();
        let mut swaps = Vec::new();
        let mut partners = vec![None; cells];
        for cell in 0..cells {
            self.cell_moves(state, cell, &mut partners, &mut sets, &mut swaps)?;
        }
        sets.append(&mut swaps);
        Some(sets)
    }

    /// The moves anchored at `cell`, scored: its other faces onto `sets` (in
    /// the die's order) and its swaps with later cells of another face onto
    /// `swaps`; `partners` is scratch space of a slot per cell. `None` once
    /// the budget is spent.
    fn cell_moves(
        &mut self,
        state: &mut State,
        cell: usize,
        partners: &mut [Option<u32>],
        sets: &mut Vec<(u32, Move)>,
        swaps: &mut Vec<(u32, Move)>,
    ) -> Option<()> {
        partners.fill(None);
        for (score, face) in self.score_cell(state, cell, partners)? {
            sets.push((score, Move::Set(cell, face)));
        }
        for (other, &known) in partners.iter().enumerate().skip(cell + 1) {
            if state.faces[other] == state.faces[cell] {
                continue;
            }
            let mv = Move::Swap(cell, other);
            let undo = state.apply(mv);
            let score = self.score_known(state, known);
            state.apply(undo);
            swaps.push((score?, mv));
        }
        Some(())
    }

    /// The scores of `state` with `cell` turned to each other face of its
    /// die, in the die's order; `None` once the budget is spent. A cell
    /// whose changes and swaps with later cells hold enough new boards is
    /// scored in one walk ([`Searcher::score_moves`], which costs what about
    /// 10 boards do), its swap scores left in `swaps` (at the other cell);
    /// failing that, a die of many faces whose boards are mostly new is
    /// scored in one walk with the cell open ([`Searcher::score_letters`]),
    /// and otherwise each board is scored (or found in the cache) in turn.
    /// The boards are counted and kept in the same order whichever walk
    /// scored them, so a run's boards do not depend on it.
    fn score_cell(
        &mut self,
        state: &mut State,
        cell: usize,
        swaps: &mut [Option<u32>],
    ) -> Option<Vec<(u32, Face)>> {
        let space = self.space;
        let current = state.faces[cell];
        let faces: Vec<Face> = space.dice[state.die_at[cell]]
            .iter()
            .copied()
            .filter(|&face| face != current)
            .collect();
        let mut new = 0;
        for &face in &faces {
            state.faces[cell] = face;
            new += usize::from(self.cache.get(hash(&state.faces), &state.faces).is_none());
        }
        state.faces[cell] = current;
        let moves = self.score_moves(state, cell, swaps, new);
        let room = self
            .evaluations
            .map_or(u64::MAX, |n| n.saturating_sub(self.used));
        let whole = new >= OPEN_WALK_FACES && room >= faces.len() as u64 && !self.out_of_budget();
        let letters = if whole {
            moves.or_else(|| {
                self.searcher
                    .score_letters(space.rows, space.cols, &state.faces, cell, space.q)
            })
        } else {
            None
        };
        let mut scores = Vec::with_capacity(faces.len());
        for face in faces {
            state.faces[cell] = face;
            let index = letter_index(face, space.q);
            let score = match letters.zip(index) {
                // A stop, a deadline or a target reached at an earlier face
                // ends the search here (the board budget was checked above).
                Some(_) if self.out_of_budget() => None,
                Some((letters, index)) => {
                    self.used += 1;
                    let score = letters[index];
                    self.keep(hash(&state.faces), &state.faces, score);
                    Some(score)
                }
                None => self.score_known(state, moves.zip(index).map(|(m, i)| m[i])),
            };
            state.faces[cell] = current;
            scores.push((score?, face));
        }
        Some(scores)
    }

    /// The scores of `cell` showing each letter, from one walk that also
    /// scores its swaps with later cells into `swaps`, if that walk pays:
    /// `new` of its changes and enough of those swaps are boards not in the
    /// cache. `None` where it does not, or the engine declines the board.
    fn score_moves(
        &mut self,
        state: &mut State,
        cell: usize,
        swaps: &mut [Option<u32>],
        new: usize,
    ) -> Option<[u32; 26]> {
        let space = self.space;
        let cells = space.cells();
        if cells > 32 || self.out_of_budget() {
            return None;
        }
        let (mut partners, mut fresh) = (0u32, new);
        for other in cell + 1..cells {
            if state.faces[other] == state.faces[cell] {
                continue;
            }
            partners |= 1 << other;
            state.faces.swap(cell, other);
            fresh += usize::from(self.cache.get(hash(&state.faces), &state.faces).is_none());
            state.faces.swap(cell, other);
        }
        if fresh < OPEN_WALK_FACES {
            return None;
        }
        let scores = self.searcher.score_moves(
            space.rows,
            space.cols,
            &state.faces,
            cell,
            space.q,
            partners,
        )?;
        let mut scored = scores.partners;
        while scored != 0 {
            let other = scored.trailing_zeros() as usize;
            scored &= scored - 1;
            swaps[other] = Some(scores.swaps[other]);
        }
        Some(scores.letters)
    }

    /// Scores a board (from the cache when it was seen lately) and records
    /// it; `None` once the budget is spent.
    fn score(&mut self, state: &State) -> Option<u32> {
        self.score_known(state, None)
    }

    /// As [`Chain::score`], taking the board's score as `known` where a walk
    /// already found it, instead of searching the board: it is counted,
    /// cached and offered just the same.
    fn score_known(&mut self, state: &State, known: Option<u32>) -> Option<u32> {
        if self.out_of_budget() {
            return None;
        }
        self.used += 1;
        let key = hash(&state.faces);
        if let Some(score) = self.cache.get(key, &state.faces) {
            return Some(score);
        }
        let score = match known {
            Some(score) => score,
            None => {
                let score =
                    self.searcher
                        .score_faces(self.space.rows, self.space.cols, &state.faces);
                if self.searcher.exhausted() {
                    // Skipped: scored 0 so the chains move away, never offered as a best board.
                    self.progress.skipped.fetch_add(1, Ordering::Relaxed);
                    self.cache.put(key, &state.faces, 0);
                    return Some(0);
                }
                score
            }
        };
        self.keep(key, &state.faces, score);
        Some(score)
    }

    /// Records a newly scored board: in the cache, the progress counters and the top list.
    fn keep(&mut self, key: u64, faces: &[Face], score: u32) {
        self.cache.put(key, faces, score);
        self.progress
            .offer(score, faces, self.symmetries, self.target);
        self.top.offer(score, faces, self.symmetries);
    }

    fn out_of_budget(&self) -> bool {
        self.progress.is_stopped()
            || self.progress.reached_target()
            || self.evaluations.is_some_and(|n| self.used >= n)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// The local maxima a chain kicks from: the best few distinct ones (up to
/// rotation and reflection) since its last fresh start, best first. With one,
/// the chain kicks only its best (iterated local search); with a few, a kick
/// starts from one of them, the better ones more often, so the chain keeps
/// several basins in play instead of one, as a population does.
pub(crate) struct Elites {
    size: usize,
    /// (score, board, canonical faces), highest score first.
    entries: Vec<(u32, State, Vec<Face>)>,
}

impl Elites {
    pub(crate) fn new(size: usize) -> Elites {
        Elites {
            size,
            entries: Vec::with_capacity(size + 1),
        }
    }

    fn clear(&mut self) {
        self.entries.clear();
    }

    pub(crate) fn best(&self) -> Option<u32> {
        self.entries.first().map(|e| e.0)
    }

    /// The best board's canonical faces.
    fn best_canonical(&self) -> Option<&[Face]> {
        self.entries.first().map(|e| e.2.as_slice())
    }

    /// One of the boards to kick: the lesser of two uniform ranks, so the
    /// best is drawn most often (no draw at all with one board, so a pool of
    /// one repeats the single-elite search exactly).
    pub(crate) fn pick(&self, rng: &mut GameRng) -> Option<&State> {
        let n = self.entries.len();
        let rank = random::below(rng, n).min(random::below(rng, n));
        self.entries.get(rank).map(|e| &e.1)
    }

    /// Keeps a local maximum if it is new and beats the worst kept (ties
    /// keep the one already there).
    pub(crate) fn offer(&mut self, score: u32, state: State, canonical: Vec<Face>) {
        if self.entries.iter().any(|e| e.2 == canonical) {
            return;
        }
        if self.entries.len() == self.size && self.entries.last().is_some_and(|e| score <= e.0) {
            return;
        }
        let at = self.entries.partition_point(|e| e.0 >= score);
        self.entries.insert(at, (score, state, canonical));
        self.entries.truncate(self.size);
    }
}

/// Cells whose die has at least this many new boards among its faces are
/// scored in one open-cell walk rather than board by board (the walk costs
/// what 6–8 boards do).
const OPEN_WALK_FACES: usize = 8;

/// The letter code [`Searcher::score_letters`] gives `face` (0 = A, the `Q`
/// code for `Qu` under [`QReads::Qu`]), if it is a single letter or that `Qu`.
fn letter_index(face: Face, q: QReads) -> Option<usize> {
    match (face.as_bytes(), q) {
        ([b'Q'], QReads::Qu) | ([b'Q', b'U'], QReads::Q) => None,
        ([letter @ b'A'..=b'Z'], _) | ([letter @ b'Q', b'U'], QReads::Qu) => {
            Some(usize::from(letter - b'A'))
        }
        _ => None,
    }
}

/// The most local maxima a chain remembers as stuck, or as spent (about 100
/// bytes each); past it the set starts again empty.
const STUCK_LIMIT: usize = 100_000;

/// Adds a board to a set of local maxima, emptying the set first once it
/// holds [`STUCK_LIMIT`] of them.
fn remember(maxima: &mut AHashSet<Vec<Face>>, board: Vec<Face>) {
    if maxima.len() >= STUCK_LIMIT {
        maxima.clear();
    }
    maxima.insert(board);
}

/// Slots in each chain's score cache (a power of two). 2^18 rather than 2^16
/// cuts the boards searched again by about 3% on 4x4 (SOWPODS, seed 10),
/// for about 16 MB a chain on 4x4 and 30 MB on 6x6 (12 bytes a slot and its
/// faces stored flat, 3 bytes each).
pub(crate) const CACHE_SLOTS: usize = 1 << 18;

/// Recently scored boards and their scores: annealing near its end and hill
/// climbing propose the same neighbours again and again, and looking a board
/// up costs far less than searching it. Direct-mapped: a new board evicts the
/// one in its slot. The boards sit in one flat array, `cells` faces a slot, so
/// a lookup touches two cache lines and no pointer.
pub(crate) struct Cache {
    keys: Vec<u64>,
    scores: Vec<u32>,
    faces: Vec<Face>,
    cells: usize,
}

impl Cache {
    /// An empty cache of `slots` boards of `cells` cells.
    pub(crate) fn new(slots: usize, cells: usize) -> Cache {
        Cache {
            // Key 0 with blank faces matches no board a chain scores.
            keys: vec![0; slots],
            scores: vec![0; slots],
            faces: vec![Face::BLANK; slots * cells],
            cells,
        }
    }

    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.keys.len() - 1)
    }

    /// Where a slot's board sits in `faces`.
    fn kept(&self, slot: usize) -> std::ops::Range<usize> {
        slot * self.cells..(slot + 1) * self.cells
    }

    pub(crate) fn get(&self, key: u64, faces: &[Face]) -> Option<u32> {
        let slot = self.slot(key);
        let kept = &self.faces[self.kept(slot)];
        (self.keys[slot] == key && kept == faces).then_some(self.scores[slot])
    }

    pub(crate) fn put(&mut self, key: u64, faces: &[Face], score: u32) {
        if faces.len() != self.cells {
            return;
        }
        let slot = self.slot(key);
        self.keys[slot] = key;
        self.scores[slot] = score;
        let kept = self.kept(slot);
        self.faces[kept].copy_from_slice(faces);
    }
}

/// FNV-1a over the faces' letters, a face boundary marked so `QU` differs from `Q`,`U`.
pub(crate) fn hash(faces: &[Face]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325_u64;
    for face in faces {
        for &byte in face.as_bytes().iter().chain([&0xff]) {
            h = (h ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    // The low bits pick the slot; fold the high bits in so they count too.
    h ^ (h >> 29)
}
