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
//! a fresh anneal does (docs/RECORDS.md gives the times to reach the best known
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
//! The search maximises points, or with [`Objective::Words`] the number of
//! words: the same search, scoring every word 1 (the final list still gives
//! each board's points and words under the rules).
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

use boggle_engine::rules::{Scoring, SearchRules};
use boggle_engine::search::Searcher;
use boggle_engine::trie::Trie;
use boggle_game::die::Die;
use boggle_game::face::{Face, QReads};
use boggle_game::game_board::GameBoard;
use boggle_game::random::{self, GameRng};
use boggle_game::rules::Rules;

mod chain;
pub mod hunt;
mod symmetry;

#[cfg(test)]
use chain::Elites;
#[cfg(test)]
use chain::hash;
use chain::{CACHE_SLOTS, Cache, Chain};
use symmetry::rebuild;
pub use symmetry::{Symmetries, canonical};

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
    /// Local maxima a chain keeps to kick from (1: only its best).
    pub elites: u32,
    /// A chain whose best local maximum is one it has already kicked
    /// `patience` times in vain starts afresh at once, rather than kicking
    /// it again.
    pub restart_spent: bool,
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
            elites: 1,
            restart_spent: false,
        }
    }
}

/// What the search maximises.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Objective {
    /// The board's total points under the rules.
    #[default]
    Points,
    /// How many distinct words the board holds (the rules' lengths, one each).
    Words,
}

impl Objective {
    /// The rules the chains score boards by: `rules`, or under
    /// [`Objective::Words`] the same rules with every word worth 1, so the
    /// open-cell walk and the cache serve word counts unchanged.
    pub fn search_rules(self, rules: &Rules) -> SearchRules {
        let mut search = SearchRules::from(rules);
        if self == Objective::Words {
            search.scoring = Scoring::Table([1; 9]);
        }
        search
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
    /// Stop as soon as a board scores at least this much (in the objective's unit).
    pub target: Option<u32>,
    /// Points or words.
    pub objective: Objective,
}

/// One of the best boards found (ranked by the search's objective).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ranked {
    /// Total points under the rules (whatever the objective).
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
    /// Boards scoring above this are kept in `caught` (for `--hunt`).
    catch_above: Option<u32>,
    /// Canonical boards scoring above `catch_above`, until taken (repeats possible).
    caught: Mutex<Vec<(u32, Vec<Face>)>>,
}

impl Progress {
    /// Fresh counters, not stopped.
    pub fn new() -> Progress {
        Progress::default()
    }

    /// Fresh counters that also keep every board scoring above `above`, in
    /// canonical form, for [`Progress::take_caught`] (a board met twice may
    /// come twice).
    pub fn catching(above: u32) -> Progress {
        Progress {
            catch_above: Some(above),
            ..Progress::default()
        }
    }

    /// The boards caught since the last call (see [`Progress::catching`]).
    pub fn take_caught(&self) -> Vec<(u32, Vec<Face>)> {
        std::mem::take(&mut *self.caught.lock().unwrap_or_else(|e| e.into_inner()))
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
        if self.catch_above.is_some_and(|above| score > above) {
            let canonical = symmetries.canonical(faces);
            self.caught
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push((score, canonical));
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

/// Why the boards a search would visit cannot be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpaceError {
    /// The dice are not one per cell.
    #[error("{dice} dice do not fill a {rows}x{cols} board")]
    DiceDoNotFill {
        /// Dice in the set.
        dice: usize,
        /// Board rows.
        rows: usize,
        /// Board columns.
        cols: usize,
    },
    /// A die has no faces.
    #[error("a die has no faces")]
    FacelessDie,
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
    q: QReads,
}

/// What a [`Space`] for some rules draws its boards from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpaceOf {
    /// Any letter in any cell.
    Letters,
    /// The rules' own dice (letters still, where the rules draw letters by frequency).
    Dice,
}

impl Space {
    /// Any letter in any cell of a rows x cols board, each `Q` read as `q` says.
    pub fn letters(rows: usize, cols: usize, q: QReads) -> Space {
        let alphabet = (b'A'..=b'Z')
            .filter_map(Face::letter)
            .map(|face| face.with_q(q))
            .collect();
        Space {
            rows,
            cols,
            dice: vec![alphabet],
            real_dice: false,
            q,
        }
    }

    /// Boards `dice` can show on a rows x cols board: one die per cell, one face up.
    pub fn dice(rows: usize, cols: usize, dice: &[Die]) -> Result<Space, SpaceError> {
        if dice.len() != rows * cols {
            return Err(SpaceError::DiceDoNotFill {
                dice: dice.len(),
                rows,
                cols,
            });
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
            return Err(SpaceError::FacelessDie);
        }
        let q = if dice.iter().flatten().any(|face| *face == Face::QU) {
            QReads::Qu
        } else {
            QReads::Q
        };
        Ok(Space {
            rows,
            cols,
            dice,
            real_dice: true,
            q,
        })
    }

    /// The space for `rules`: their dice under [`SpaceOf::Dice`] (if they
    /// are real dice, not letter frequencies), any letters otherwise.
    pub fn for_rules(rules: &Rules, of: SpaceOf) -> Result<Space, SpaceError> {
        let dice = rules.dice.dice();
        if of == SpaceOf::Dice && !dice.is_empty() {
            Space::dice(rules.rows, rules.cols, &dice)
        } else {
            Ok(Space::letters(rules.rows, rules.cols, rules.q))
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
    let search_rules = options.objective.search_rules(rules);
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
                    searcher: Searcher::new(trie, search_rules),
                    space,
                    symmetries: &symmetries,
                    progress,
                    rng: random::seeded(seed),
                    top: Top::new(options.top),
                    deadline,
                    evaluations,
                    used: 0,
                    cache: Cache::new(CACHE_SLOTS, space.cells()),
                    target: options.target,
                    stuck: AHashSet::new(),
                    spent: AHashSet::new(),
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
        .map(|(_, faces)| {
            let board = rebuild(space.rows, space.cols, faces);
            let tally = searcher.tally(&board);
            Ranked {
                score: tally.score,
                words: tally.words as usize,
                board,
            }
        })
        .collect())
}

/// The faces as one run of letters (`Qu` as `QU`), as `boggle` reads a board back.
pub fn letters(faces: &[Face]) -> String {
    faces.iter().map(Face::as_str).collect()
}

/// A uniform number in [0, 1).
fn unit(rng: &mut GameRng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests;
