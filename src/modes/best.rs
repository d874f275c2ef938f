//! The search for the highest-scoring boards behind `boggle best`: simulated
//! annealing with restarts, run as independent chains on a rayon pool.
//!
//! # How it works
//! A chain starts from a random board and anneals it. A move changes one
//! cell's face or swaps two cells; a move that does not lower the score is
//! always kept, a worse one with probability `exp(Δ / T)`, while the
//! temperature `T` falls geometrically. Once cold, the board is finished by
//! steepest-ascent hill climbing (every single-cell change and every swap is
//! tried, the best one taken, until none helps). From that local maximum the
//! chain tries to escape: it takes each of the few least damaging moves in
//! turn and climbs again, and moves on as soon as one of those climbs ends
//! higher. When no escape helps, the chain has a local maximum, and it keeps
//! the best one it has met: it kicks it (a few random moves, 8 by default)
//! and climbs and escapes again (iterated local search). The best boards sit
//! close to other good local maxima, so a kick finds them far more often than
//! a fresh anneal does (README gives the times to reach the best known
//! boards, which fell from 15-40 s to a few seconds). After 100 kicks in a row
//! find nothing better the chain restarts from a fresh random board. A local
//! maximum no escape leaves is remembered, so a kick that climbs back to it
//! does not try its escapes again.
//! Near the end of a run the same neighbours come up again and again, so each
//! chain keeps a small cache of scores and searches a board only once.
//!
//! Climbs and escapes score whole neighbourhoods: every other face in every
//! cell and every swap. Without real dice the 25 other letters of a cell are
//! scored in one walk with that cell open ([`Searcher::score_letters`]), at
//! the cost of 6–8 boards, so a 4x4 neighbourhood (400 changes and 120
//! swaps) costs what about 230 boards do instead of 520.
//!
//! With real dice a board is one die per cell showing one of its faces: a
//! change turns a die to another of its faces and a swap moves two dice, so
//! the search never leaves the boards the dice can show. Without them any
//! letter may go anywhere (`Q` is the `Qu` face where the rules say so).
//!
//! Boards that are rotations or reflections of each other hold the same words
//! (under the no-up rule only the left-right mirror does), so the top list keeps
//! one canonical form of each: the smallest in row-major face order.
//!
//! Chains share nothing but counters for the progress line. Each has its own
//! generator drawn from the seed, so a fixed seed, thread count and iteration
//! budget give the same boards on every run; a time budget does not, since how
//! far a chain gets depends on the machine.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use ahash::AHashSet;
use rand::RngCore;
use rayon::prelude::*;

use crate::die::Die;
use crate::engine::search::Searcher;
use crate::engine::trie::Trie;
use crate::face::Face;
use crate::game_board::GameBoard;
use crate::random::{self, GameRng};
use crate::rules::{MoveRule, Rules};

/// How long the search runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Until this much wall-clock time has passed.
    Time(Duration),
    /// Until this many boards have been scored, shared evenly between the chains.
    Iterations(u64),
}

/// The annealing schedule of one run, from a random board to a cold one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    /// Temperature at the start of a run, in points.
    pub start: f64,
    /// Temperature at which a run stops annealing and hill-climbs.
    pub end: f64,
    /// Moves from `start` to `end` (the temperature falls geometrically).
    pub steps: u64,
    /// Share of moves that swap two cells rather than change one.
    pub swap_share: f64,
    /// Escapes tried from each local maximum: the least damaging single moves,
    /// each followed by a climb; the first that ends higher is taken.
    pub escapes: u32,
    /// Random moves in a kick: the chain's best local maximum so far, so
    /// changed, is climbed again (with escapes) in search of a better one.
    pub kick: u32,
    /// Kicks in a row that find nothing better before the chain gives up its
    /// best local maximum and anneals a fresh random board (0: never kick).
    pub patience: u32,
}

impl Default for Schedule {
    fn default() -> Self {
        Schedule {
            start: 100.0,
            end: 1.0,
            steps: 10_000,
            swap_share: 0.3,
            escapes: 5,
            kick: 8,
            patience: 100,
        }
    }
}

/// Everything that shapes one search besides the board space and the rules.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// When to stop.
    pub budget: Budget,
    /// Independent chains, one per thread.
    pub threads: usize,
    /// The seed every chain's generator is drawn from.
    pub seed: u64,
    /// How many distinct boards to report.
    pub top: usize,
    /// The annealing schedule.
    pub schedule: Schedule,
    /// Stop as soon as a board scores at least this much.
    pub target: Option<u32>,
}

/// One of the best boards found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ranked {
    /// Total points.
    pub score: u32,
    /// Number of words on the board.
    pub words: usize,
    /// The board, in canonical form.
    pub board: GameBoard,
}

/// The best board so far, and when and after how many boards it was first reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Best {
    /// Its score.
    pub score: u32,
    /// Its faces, row-major, in canonical form.
    pub faces: Vec<Face>,
    /// When a chain first reached this score.
    pub at: Instant,
    /// Boards scored by all chains until then (this one included).
    pub after: u64,
}

/// What the chains share while they run: counters for the progress line and the stop flags.
#[derive(Debug, Default)]
pub struct Progress {
    scored: AtomicU64,
    /// Boards skipped because their search passed its step budget.
    skipped: AtomicU64,
    best_score: AtomicU32,
    best: Mutex<Option<Best>>,
    stop: AtomicBool,
    /// Set when a board reached the target score.
    reached: AtomicBool,
}

impl Progress {
    /// Fresh counters, not stopped.
    pub fn new() -> Progress {
        Progress::default()
    }

    /// Boards skipped because their search passed its step budget (a crafted
    /// word list can lead the search to boards no real list does).
    pub fn skipped(&self) -> u64 {
        self.skipped.load(Ordering::Relaxed)
    }

    /// Asks every chain to stop after the board it is scoring (safe from a signal handler thread).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether a stop was asked for.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Whether a board reached the target score (which ends the search).
    pub fn reached_target(&self) -> bool {
        self.reached.load(Ordering::Relaxed)
    }

    /// Boards scored so far by all chains.
    pub fn scored(&self) -> u64 {
        self.scored.load(Ordering::Relaxed)
    }

    /// The best board so far, if any board was scored.
    pub fn best(&self) -> Option<Best> {
        self.best.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Counts a scored board and keeps it as the best so far if it is, in
    /// its canonical form, so the progress line shows the board as the final
    /// list will; a board at or above `target` ends the search.
    fn offer(&self, score: u32, faces: &[Face], symmetries: &Symmetries, target: Option<u32>) {
        let after = self.scored.fetch_add(1, Ordering::Relaxed) + 1;
        if target.is_some_and(|target| score >= target) {
            self.reached.store(true, Ordering::Relaxed);
        }
        if score <= self.best_score.load(Ordering::Relaxed) {
            return;
        }
        let mut best = self.best.lock().unwrap_or_else(|e| e.into_inner());
        if best.as_ref().is_none_or(|b| score > b.score) {
            *best = Some(Best {
                score,
                faces: symmetries.canonical(faces),
                at: Instant::now(),
                after,
            });
            self.best_score.store(score, Ordering::Relaxed);
        }
    }
}

/// The boards the search may visit: any letters, or what a set of real dice can show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Space {
    rows: usize,
    cols: usize,
    /// The distinct faces each die can show. With free letters there is one
    /// "die", the alphabet, and every cell holds it.
    dice: Vec<Vec<Face>>,
    real_dice: bool,
    /// Whether a `Q` face is `Qu` (for scoring all of a cell's faces at once).
    qu: bool,
}

impl Space {
    /// Any letter in any cell of a rows x cols board; with `qu`, `Q` is the `Qu` face.
    pub fn letters(rows: usize, cols: usize, qu: bool) -> Space {
        let alphabet = (b'A'..=b'Z')
            .filter_map(Face::letter)
            .map(|face| face.with_qu(qu))
            .collect();
        Space {
            rows,
            cols,
            dice: vec![alphabet],
            real_dice: false,
            qu,
        }
    }

    /// Boards `dice` can show on a rows x cols board: one die per cell, one face up.
    pub fn dice(rows: usize, cols: usize, dice: &[Die]) -> Result<Space, String> {
        if dice.len() != rows * cols {
            return Err(format!(
                "{} dice do not fill a {rows}x{cols} board",
                dice.len()
            ));
        }
        let dice: Vec<Vec<Face>> = dice
            .iter()
            .map(|die| {
                let mut faces = die.faces().to_vec();
                faces.sort_unstable();
                faces.dedup();
                faces
            })
            .collect();
        if dice.iter().any(Vec::is_empty) {
            return Err("a die has no faces".into());
        }
        let qu = dice.iter().flatten().any(|face| face.as_bytes() == b"QU");
        Ok(Space {
            rows,
            cols,
            dice,
            real_dice: true,
            qu,
        })
    }

    /// The space for `rules`: their dice when `real_dice` (and they are real
    /// dice, not letter frequencies), any letters otherwise.
    pub fn for_rules(rules: &Rules, real_dice: bool) -> Result<Space, String> {
        let dice = rules.dice.dice();
        if real_dice && !dice.is_empty() {
            Space::dice(rules.rows, rules.cols, &dice)
        } else {
            Ok(Space::letters(rules.rows, rules.cols, rules.qu))
        }
    }

    fn cells(&self) -> usize {
        self.rows * self.cols
    }

    /// A uniformly random board of this space.
    fn random(&self, rng: &mut GameRng) -> State {
        let mut die_at: Vec<usize> = if self.real_dice {
            (0..self.cells()).collect()
        } else {
            vec![0; self.cells()]
        };
        random::shuffle(rng, &mut die_at);
        let faces = die_at
            .iter()
            .map(|&die| self.dice[die][random::below(rng, self.dice[die].len())])
            .collect();
        State { faces, die_at }
    }

    /// A random move: a swap of two different cells or a change of one cell to another face.
    fn random_move(&self, state: &State, swap_share: f64, rng: &mut GameRng) -> Move {
        let cells = self.cells();
        if cells >= 2 && unit(rng) < swap_share {
            let a = random::below(rng, cells);
            let b = (a + 1 + random::below(rng, cells - 1)) % cells;
            return Move::Swap(a, b);
        }
        let cell = random::below(rng, cells);
        let faces = &self.dice[state.die_at[cell]];
        let current = state.faces[cell];
        if faces.len() < 2 {
            return Move::Set(cell, current);
        }
        // Draw among the other faces: the current one's slot stands for the last face.
        let pick = faces[random::below(rng, faces.len() - 1)];
        let face = if pick == current {
            faces[faces.len() - 1]
        } else {
            pick
        };
        Move::Set(cell, face)
    }

    /// Every move that changes the board's score-relevant faces: each cell to
    /// each other face of its die, and each swap of two cells with different faces.
    fn all_moves(&self, state: &State) -> Vec<Move> {
        let mut moves = Vec::new();
        for (cell, &current) in state.faces.iter().enumerate() {
            for &face in &self.dice[state.die_at[cell]] {
                if face != current {
                    moves.push(Move::Set(cell, face));
                }
            }
        }
        for a in 0..self.cells() {
            for b in a + 1..self.cells() {
                if state.faces[a] != state.faces[b] {
                    moves.push(Move::Swap(a, b));
                }
            }
        }
        moves
    }
}

/// A board during the search: its faces and which die sits in each cell.
#[derive(Clone, Debug, PartialEq, Eq)]
struct State {
    faces: Vec<Face>,
    die_at: Vec<usize>,
}

/// One step from a board to a neighbouring one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Move {
    /// Turn the die in a cell to show a face.
    Set(usize, Face),
    /// Exchange the dice in two cells.
    Swap(usize, usize),
}

impl State {
    /// Applies `mv` and returns the move that undoes it.
    fn apply(&mut self, mv: Move) -> Move {
        match mv {
            Move::Set(cell, face) => {
                let old = std::mem::replace(&mut self.faces[cell], face);
                Move::Set(cell, old)
            }
            Move::Swap(a, b) => {
                self.faces.swap(a, b);
                self.die_at.swap(a, b);
                mv
            }
        }
    }
}

/// The rotations and reflections of a board shape that keep every word in place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symmetries {
    /// For each symmetry, the source cell of each target cell.
    maps: Vec<Vec<usize>>,
}

impl Symmetries {
    /// The symmetries of a rows x cols board under `moves`: all 8 on a square
    /// board with 8-neighbour moves, 4 on a rectangle (no quarter turns), and
    /// only the left-right mirror under the no-up rule, which tells up from down.
    pub fn new(rows: usize, cols: usize, moves: MoveRule) -> Symmetries {
        let (r, c) = (rows.saturating_sub(1), cols.saturating_sub(1));
        type Map = fn(usize, usize, usize, usize) -> (usize, usize);
        let mirror: Map = |row, col, _, c| (row, c - col);
        let mut kinds: Vec<Map> = vec![|row, col, _, _| (row, col), mirror];
        if moves == MoveRule::EightNeighbours {
            kinds.push(|row, col, r, _| (r - row, col));
            kinds.push(|row, col, r, c| (r - row, c - col));
            if rows == cols {
                kinds.push(|row, col, _, _| (col, row));
                kinds.push(|row, col, r, c| (r - col, c - row));
                kinds.push(|row, col, r, _| (r - col, row));
                kinds.push(|row, col, _, c| (col, c - row));
            }
        }
        let maps = kinds
            .into_iter()
            .map(|source| {
                (0..rows * cols)
                    .map(|cell| {
                        let (row, col) = source(cell / cols, cell % cols, r, c);
                        row * cols + col
                    })
                    .collect()
            })
            .collect();
        Symmetries { maps }
    }

    /// How many symmetries there are (the identity included).
    pub fn len(&self) -> usize {
        self.maps.len()
    }

    /// Never true: the identity is always a symmetry.
    pub fn is_empty(&self) -> bool {
        self.maps.is_empty()
    }

    /// Every image of `faces` (row-major) under the symmetries, the identity first.
    pub fn images(&self, faces: &[Face]) -> Vec<Vec<Face>> {
        self.maps
            .iter()
            .map(|map| map.iter().map(|&cell| faces[cell]).collect())
            .collect()
    }

    /// The canonical form of `faces`: the smallest image, so equal boards share it.
    pub fn canonical(&self, faces: &[Face]) -> Vec<Face> {
        self.images(faces)
            .into_iter()
            .min()
            .unwrap_or_else(|| faces.to_vec())
    }
}

/// The canonical form of `board` under `moves` (see [`Symmetries`]).
pub fn canonical(board: &GameBoard, moves: MoveRule) -> GameBoard {
    let symmetries = Symmetries::new(board.rows(), board.cols(), moves);
    rebuild(
        board.rows(),
        board.cols(),
        symmetries.canonical(board.faces()),
    )
}

/// A board from faces whose count matches the shape (the space was built for it).
fn rebuild(rows: usize, cols: usize, faces: Vec<Face>) -> GameBoard {
    GameBoard::from_rolled(rows, cols, faces)
}

/// The best distinct boards one chain has seen, highest first, ties in canonical order.
#[derive(Clone, Debug, Default)]
struct Top {
    size: usize,
    entries: Vec<(u32, Vec<Face>)>,
}

impl Top {
    fn new(size: usize) -> Top {
        Top {
            size,
            entries: Vec::new(),
        }
    }

    /// Keeps `faces` if it is among the best and not equal to a board already kept.
    fn offer(&mut self, score: u32, faces: &[Face], symmetries: &Symmetries) {
        if self.size == 0 {
            return;
        }
        if self.entries.len() == self.size && self.entries.last().is_some_and(|e| score < e.0) {
            return;
        }
        self.insert(score, symmetries.canonical(faces));
    }

    fn insert(&mut self, score: u32, canonical: Vec<Face>) {
        if self.entries.iter().any(|(_, kept)| *kept == canonical) {
            return;
        }
        let at = self.entries.partition_point(|(s, kept)| {
            (*s, std::cmp::Reverse(kept)) > (score, std::cmp::Reverse(&canonical))
        });
        self.entries.insert(at, (score, canonical));
        self.entries.truncate(self.size);
    }
}

/// Runs the search and returns the best distinct boards, highest score first.
/// Stops early when `progress` is stopped or a board reaches `options.target`.
/// Fails only if the thread pool cannot start.
pub fn search(
    trie: &Trie,
    rules: &Rules,
    space: &Space,
    options: &Options,
    progress: &Progress,
) -> Result<Vec<Ranked>, rayon::ThreadPoolBuildError> {
    let threads = options.threads.max(1);
    if space.cells() == 0 {
        return Ok(Vec::new());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let mut seeds = random::seeded(options.seed);
    let seeds: Vec<u64> = (0..threads).map(|_| seeds.next_u64()).collect();
    let deadline = match options.budget {
        Budget::Time(time) => Instant::now().checked_add(time),
        Budget::Iterations(_) => None,
    };
    let symmetries = Symmetries::new(space.rows, space.cols, rules.moves);
    let tops: Vec<Top> = pool.install(|| {
        seeds
            .par_iter()
            .enumerate()
            .map(|(index, &seed)| {
                let evaluations = match options.budget {
                    Budget::Iterations(n) => {
                        let share =
                            n / threads as u64 + u64::from((index as u64) < n % threads as u64);
                        Some(share)
                    }
                    Budget::Time(_) => None,
                };
                let mut chain = Chain {
                    searcher: Searcher::new(trie, rules),
                    space,
                    symmetries: &symmetries,
                    progress,
                    rng: random::seeded(seed),
                    top: Top::new(options.top),
                    deadline,
                    evaluations,
                    used: 0,
                    cache: Cache::new(CACHE_SLOTS),
                    target: options.target,
                    stuck: AHashSet::new(),
                };
                chain.run(&options.schedule);
                chain.top
            })
            .collect()
    });
    let mut merged = Top::new(options.top);
    for (score, faces) in tops.into_iter().flat_map(|top| top.entries) {
        merged.insert(score, faces);
    }
    let mut searcher = Searcher::new(trie, rules);
    Ok(merged
        .entries
        .into_iter()
        .map(|(score, faces)| {
            let board = rebuild(space.rows, space.cols, faces);
            let words = searcher.find(&board).len();
            Ranked {
                score,
                words,
                board,
            }
        })
        .collect())
}

/// One independent chain of annealing runs.
struct Chain<'a, 't> {
    searcher: Searcher<'t>,
    space: &'a Space,
    symmetries: &'a Symmetries,
    progress: &'a Progress,
    rng: GameRng,
    top: Top,
    deadline: Option<Instant>,
    evaluations: Option<u64>,
    used: u64,
    cache: Cache,
    target: Option<u32>,
    /// Local maxima no escape leaves: a kick that climbs back to one need
    /// not try its escapes again (they would fail the same way).
    stuck: AHashSet<Vec<Face>>,
}

impl Chain<'_, '_> {
    /// Anneals a random board to a local maximum, then kicks the best local
    /// maximum so far until `patience` kicks in a row find nothing better,
    /// then starts again, until the budget is spent.
    fn run(&mut self, schedule: &Schedule) {
        let mut elite: Option<(u32, State)> = None;
        let mut misses = 0;
        loop {
            let found = match &elite {
                Some((_, board)) if misses < schedule.patience => {
                    self.kick(schedule, board.clone())
                }
                _ => {
                    elite = None;
                    self.anneal(schedule)
                }
            };
            let Some((score, state)) = found else {
                return;
            };
            if elite.as_ref().is_none_or(|(best, _)| score > *best) {
                elite = Some((score, state));
                misses = 0;
            } else {
                misses += 1;
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
            if self.stuck.len() >= STUCK_LIMIT {
                self.stuck.clear();
            }
            self.stuck.insert(state.faces.clone());
            return Some(score);
        }
    }

    /// Steepest-ascent hill climbing over every single move, to a local
    /// maximum; returns its score, or `None` once the budget is spent.
    fn climb(&mut self, state: &mut State, mut score: u32) -> Option<u32> {
        loop {
            let mut best: Option<(u32, Move)> = None;
            for (next, mv) in self.neighbourhood(state)? {
                if next > best.map_or(score, |(s, _)| s) {
                    best = Some((next, mv));
                }
            }
            let Some((next, mv)) = best else {
                return Some(score);
            };
            state.apply(mv);
            score = next;
        }
    }

    /// Every move from `state`, in [`Space::all_moves`] order, with the
    /// score of the board it leads to; `None` once the budget is spent.
    fn neighbourhood(&mut self, state: &mut State) -> Option<Vec<(u32, Move)>> {
        let moves = self.space.all_moves(state);
        let mut scored = Vec::with_capacity(moves.len());
        // The changes of one cell come together: all its faces are scored at once.
        let mut faces_of: Option<(usize, Vec<(u32, Face)>)> = None;
        for mv in moves {
            let score = match mv {
                Move::Set(cell, face) => {
                    if faces_of.as_ref().is_none_or(|(at, _)| *at != cell) {
                        faces_of = Some((cell, self.score_cell(state, cell)?));
                    }
                    let found = faces_of
                        .as_ref()
                        .and_then(|(_, faces)| faces.iter().find(|(_, f)| *f == face));
                    match found {
                        Some(&(score, _)) => score,
                        None => self.score_after(state, mv)?,
                    }
                }
                Move::Swap(..) => self.score_after(state, mv)?,
            };
            scored.push((score, mv));
        }
        Some(scored)
    }

    /// The score of the board `mv` leads to from `state` (which is left as it was).
    fn score_after(&mut self, state: &mut State, mv: Move) -> Option<u32> {
        let undo = state.apply(mv);
        let score = self.score(state);
        state.apply(undo);
        score
    }

    /// The scores of `state` with `cell` turned to each other face of its
    /// die, in the die's order; `None` once the budget is spent. A die of
    /// many faces whose boards are mostly new is scored in one walk with the
    /// cell open ([`Searcher::score_letters`]), which costs what 6–8 boards
    /// do; otherwise each board is scored (or found in the cache) in turn.
    fn score_cell(&mut self, state: &mut State, cell: usize) -> Option<Vec<(u32, Face)>> {
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
        let room = self
            .evaluations
            .map_or(u64::MAX, |n| n.saturating_sub(self.used));
        let letters =
            if new >= OPEN_WALK_FACES && room >= faces.len() as u64 && !self.out_of_budget() {
                self.searcher
                    .score_letters(space.rows, space.cols, &state.faces, cell, space.qu)
            } else {
                None
            };
        let mut scores = Vec::with_capacity(faces.len());
        for face in faces {
            state.faces[cell] = face;
            let known = letters.zip(letter_index(face, space.qu));
            let score = match known {
                Some((letters, index)) => {
                    self.used += 1;
                    let score = letters[index];
                    self.keep(hash(&state.faces), &state.faces, score);
                    Some(score)
                }
                None => self.score(state),
            };
            state.faces[cell] = current;
            scores.push((score?, face));
        }
        Some(scores)
    }

    /// Scores a board (from the cache when it was seen lately) and records
    /// it; `None` once the budget is spent.
    fn score(&mut self, state: &State) -> Option<u32> {
        if self.out_of_budget() {
            return None;
        }
        self.used += 1;
        let key = hash(&state.faces);
        if let Some(score) = self.cache.get(key, &state.faces) {
            return Some(score);
        }
        let score = self
            .searcher
            .score_faces(self.space.rows, self.space.cols, &state.faces);
        if self.searcher.exhausted() {
            // Skipped: scored 0 so the chains move away, never offered as a best board.
            self.progress.skipped.fetch_add(1, Ordering::Relaxed);
            self.cache.put(key, &state.faces, 0);
            return Some(0);
        }
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

/// Cells whose die has at least this many new boards among its faces are
/// scored in one open-cell walk rather than board by board (the walk costs
/// what 6–8 boards do).
const OPEN_WALK_FACES: usize = 8;

/// The letter code [`Searcher::score_letters`] gives `face` (0 = A, the `Q`
/// code for `Qu` when `qu`), if it is a single letter or that `Qu`.
fn letter_index(face: Face, qu: bool) -> Option<usize> {
    match (face.as_bytes(), qu) {
        ([b'Q'], true) | ([b'Q', b'U'], false) => None,
        ([letter @ b'A'..=b'Z'], _) | ([letter @ b'Q', b'U'], true) => {
            Some(usize::from(letter - b'A'))
        }
        _ => None,
    }
}

/// The most local maxima a chain remembers as stuck (about 100 bytes each);
/// past it the set starts again empty.
const STUCK_LIMIT: usize = 100_000;

/// Slots in each chain's score cache (a power of two).
const CACHE_SLOTS: usize = 1 << 16;

/// Recently scored boards and their scores: annealing near its end and hill
/// climbing propose the same neighbours again and again, and looking a board
/// up costs far less than searching it. Direct-mapped: a new board evicts the
/// one in its slot.
struct Cache {
    slots: Vec<(u64, u32, Vec<Face>)>,
}

impl Cache {
    fn new(slots: usize) -> Cache {
        Cache {
            slots: vec![(0, 0, Vec::new()); slots],
        }
    }

    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.slots.len() - 1)
    }

    fn get(&self, key: u64, faces: &[Face]) -> Option<u32> {
        let (k, score, kept) = &self.slots[self.slot(key)];
        (*k == key && kept == faces).then_some(*score)
    }

    fn put(&mut self, key: u64, faces: &[Face], score: u32) {
        let slot = self.slot(key);
        let entry = &mut self.slots[slot];
        entry.0 = key;
        entry.1 = score;
        entry.2.clear();
        entry.2.extend_from_slice(faces);
    }
}

/// FNV-1a over the faces' letters, a face boundary marked so `QU` differs from `Q`,`U`.
fn hash(faces: &[Face]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325_u64;
    for face in faces {
        for &byte in face.as_bytes().iter().chain([&0xff]) {
            h = (h ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    // The low bits pick the slot; fold the high bits in so they count too.
    h ^ (h >> 29)
}

/// A uniform number in [0, 1).
fn unit(rng: &mut GameRng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dictionary::Dictionary;
    use crate::rules::Preset;

    fn faces(letters: &str) -> Vec<Face> {
        letters.bytes().filter_map(Face::letter).collect()
    }

    fn options(iterations: u64, threads: usize, seed: u64, top: usize) -> Options {
        Options {
            budget: Budget::Iterations(iterations),
            threads,
            seed,
            top,
            schedule: Schedule {
                steps: 300,
                ..Schedule::default()
            },
            target: None,
        }
    }

    /// Every board of `space` (all placements of its dice, every face up), by brute force.
    fn every_board(space: &Space) -> Vec<Vec<Face>> {
        fn fill(
            space: &Space,
            at: usize,
            used: &mut Vec<bool>,
            board: &mut Vec<Face>,
            all: &mut Vec<Vec<Face>>,
        ) {
            if at == space.cells() {
                all.push(board.clone());
                return;
            }
            for die in 0..space.dice.len() {
                if space.real_dice && used[die] {
                    continue;
                }
                used[die] = true;
                for &face in &space.dice[die] {
                    board.push(face);
                    fill(space, at + 1, used, board, all);
                    board.pop();
                }
                used[die] = false;
            }
        }
        let mut all = Vec::new();
        fill(
            space,
            0,
            &mut vec![false; space.dice.len()],
            &mut Vec::new(),
            &mut all,
        );
        all
    }

    /// The best `top` distinct (score, canonical board) pairs of `space`, by brute force.
    fn brute_force(trie: &Trie, rules: &Rules, space: &Space, top: usize) -> Vec<(u32, Vec<Face>)> {
        let symmetries = Symmetries::new(rules.rows, rules.cols, rules.moves);
        let mut searcher = Searcher::new(trie, rules);
        let mut scored: Vec<(u32, Vec<Face>)> = every_board(space)
            .into_iter()
            .map(|board| {
                let score = searcher.score(&rebuild(rules.rows, rules.cols, board.clone()));
                (score, symmetries.canonical(&board))
            })
            .collect();
        scored.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        scored.dedup();
        scored.truncate(top);
        scored
    }

    fn found(
        trie: &Trie,
        rules: &Rules,
        space: &Space,
        options: &Options,
    ) -> Vec<(u32, Vec<Face>)> {
        search(trie, rules, space, options, &Progress::new())
            .expect("the pool starts")
            .into_iter()
            .map(|r| (r.score, r.board.faces().to_vec()))
            .collect()
    }

    #[test]
    fn all_eight_images_share_one_canonical_form() {
        let board = faces("PERSLATGSINETERS");
        let symmetries = Symmetries::new(4, 4, MoveRule::EightNeighbours);
        let images = symmetries.images(&board);
        assert_eq!(images.len(), 8);
        let mut distinct = images.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), 8, "the board has no symmetry of its own");
        let canonical = symmetries.canonical(&board);
        assert!(images.contains(&canonical));
        for image in &images {
            assert_eq!(symmetries.canonical(image), canonical);
        }
        assert_eq!(canonical, board, "P is the smallest corner");
    }

    #[test]
    fn rectangles_and_the_no_up_rule_have_fewer_symmetries() {
        assert_eq!(Symmetries::new(2, 3, MoveRule::EightNeighbours).len(), 4);
        let no_up = Symmetries::new(2, 2, MoveRule::NoUp);
        assert_eq!(no_up.images(&faces("ABCD")), [faces("ABCD"), faces("BADC")]);
        let rectangle = Symmetries::new(2, 3, MoveRule::EightNeighbours);
        assert_eq!(
            rectangle.images(&faces("ABCDEF")),
            [
                faces("ABCDEF"),
                faces("CBAFED"),
                faces("DEFABC"),
                faces("FEDCBA")
            ]
        );
    }

    #[test]
    fn images_hold_the_same_words() {
        let dictionary = Dictionary::embedded();
        let mut rng = random::seeded(3);
        for (rows, cols, preset) in [
            (4, 4, Preset::Classic),
            (3, 5, Preset::Classic),
            (4, 4, Preset::Project4),
        ] {
            let rules = Rules::sized(preset, rows, cols);
            let space = Space::letters(rows, cols, rules.qu);
            let symmetries = Symmetries::new(rows, cols, rules.moves);
            let mut searcher = Searcher::new(dictionary.trie(), &rules);
            for _ in 0..20 {
                let board = space.random(&mut rng).faces;
                let score = searcher.score(&rebuild(rows, cols, board.clone()));
                for image in symmetries.images(&board) {
                    assert_eq!(searcher.score(&rebuild(rows, cols, image)), score);
                }
            }
        }
    }

    #[test]
    fn finds_the_brute_force_optimum_of_a_small_board() {
        let dictionary = Dictionary::from_words([
            "TEA", "TEAS", "EAT", "EATS", "SEAT", "ATE", "ETA", "SAT", "SET", "EAST", "SATE",
            "ETAS", "TOE", "TOES", "NOTE", "NOTES", "TONE", "ONE", "ONES", "NET", "TEN",
        ]);
        for preset in [Preset::Project4, Preset::Classic] {
            let rules = Rules::sized(preset, 2, 2);
            // Letters no word uses score nothing, so one stands for all of them.
            let space = Space {
                dice: vec![faces("AENOSTXZ")],
                ..Space::letters(2, 2, rules.qu)
            };
            let expected = brute_force(dictionary.trie(), &rules, &space, 3);
            // With kicks of the best local maximum, and with fresh starts only.
            for patience in [Schedule::default().patience, 0] {
                let mut options = options(20_000, 2, 1, 3);
                options.schedule.patience = patience;
                let got = found(dictionary.trie(), &rules, &space, &options);
                assert_eq!(got, expected, "{preset} {patience}");
            }
        }
    }

    #[test]
    fn real_dice_boards_come_from_the_dice() {
        let dictionary =
            Dictionary::from_words(["TEA", "TEAS", "EAT", "EATS", "SEAT", "SAT", "ATE"]);
        let rules = Rules::sized(Preset::Project4, 2, 2);
        let dice = ["TXXXXX", "EAZZZZ", "AEZZZZ", "SZZZZZ"].map(Die::new);
        let space = Space::dice(2, 2, &dice).expect("four dice fill 2x2");
        let expected = brute_force(dictionary.trie(), &rules, &space, 3);
        let got = found(dictionary.trie(), &rules, &space, &options(5_000, 1, 9, 3));
        assert_eq!(got, expected);
        assert_eq!(got[0].0, 3);
    }

    #[test]
    fn moves_keep_one_die_per_cell_showing_its_own_face() {
        let space = Space::for_rules(&Rules::preset(Preset::Classic), true).expect("16 dice");
        let mut rng = random::seeded(4);
        let mut state = space.random(&mut rng);
        for step in 0..2_000 {
            let mv = if step % 7 == 0 {
                let moves = space.all_moves(&state);
                moves[random::below(&mut rng, moves.len())]
            } else {
                space.random_move(&state, 0.3, &mut rng)
            };
            state.apply(mv);
            let mut dice = state.die_at.clone();
            dice.sort_unstable();
            assert_eq!(dice, (0..16).collect::<Vec<_>>());
            for (cell, face) in state.faces.iter().enumerate() {
                assert!(space.dice[state.die_at[cell]].contains(face));
            }
        }
    }

    #[test]
    fn a_fixed_seed_and_thread_count_repeat() {
        let dictionary = Dictionary::embedded();
        let rules = Rules::preset(Preset::Classic);
        let space = Space::for_rules(&rules, false).expect("letters");
        let run = |threads| {
            let progress = Progress::new();
            let boards = search(
                dictionary.trie(),
                &rules,
                &space,
                &options(3_001, threads, 5, 4),
                &progress,
            )
            .expect("the pool starts");
            assert!(progress.scored() <= 3_001);
            boards
        };
        let first = run(2);
        assert_eq!(first.len(), 4);
        assert_eq!(first, run(2));
        assert!(first.windows(2).all(|w| w[0].score >= w[1].score));
        assert_eq!(run(3), run(3));
    }

    #[test]
    fn a_target_stops_the_search_at_the_first_board_reaching_it() {
        let dictionary = Dictionary::embedded();
        let rules = Rules::preset(Preset::Classic);
        let space = Space::for_rules(&rules, false).expect("letters");
        let run = |target| {
            let progress = Progress::new();
            let options = Options {
                target,
                ..options(20_000, 1, 5, 1)
            };
            let boards = search(dictionary.trie(), &rules, &space, &options, &progress)
                .expect("the pool starts");
            (boards[0].score, progress)
        };
        let (free, unbounded) = run(None);
        assert!(!unbounded.reached_target());
        let target = free - 1;
        let (score, bounded) = run(Some(target));
        assert!(bounded.reached_target());
        assert!(score >= target);
        let best = bounded.best().expect("boards were scored");
        assert_eq!(best.score, score);
        // The board that reached the target is the last one scored.
        assert_eq!(best.after, bounded.scored());
        assert!(bounded.scored() < unbounded.scored());
    }

    #[test]
    fn a_stopped_search_returns_at_once() {
        let dictionary = Dictionary::embedded();
        let rules = Rules::preset(Preset::Classic);
        let space = Space::for_rules(&rules, false).expect("letters");
        let progress = Progress::new();
        progress.stop();
        let boards = search(
            dictionary.trie(),
            &rules,
            &space,
            &options(1_000_000, 2, 1, 3),
            &progress,
        )
        .expect("the pool starts");
        assert!(boards.is_empty());
        assert_eq!(progress.scored(), 0);
    }
}
