//! The search for the highest-scoring boards behind `boggle best`: simulated
//! annealing with restarts, run as independent chains on a rayon pool, and
//! the files of a hunt that runs for days ([`hunt`]). No command line, no
//! terminal: the `boggle` program's `best` is a thin layer over this crate.
//!
//! # How it works
//! A chain starts from a random board and anneals it. A move changes one
//! cell's face or swaps two cells; a move that does not lower the score is
//! always kept, a worse one with probability `exp(Δ / T)`, while the
//! temperature `T` falls geometrically. Once cold, the board is finished by
//! hill climbing cell by cell: each cell in turn takes the best of its own
//! moves (its other faces, its swaps with later cells) if that raises the
//! score, until a whole round of the cells finds nothing, so the board is a
//! local maximum of every single move. From that local maximum the
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
//! does not try its escapes again. A best local maximum whose kicks ran out
//! is remembered too: a fresh start that climbs back to it starts afresh at
//! once. On boards above 16 cells each fresh start anneals over a million
//! moves rather than 10,000 ([`Schedule::for_cells`]).
//! Near the end of a run the same neighbours come up again and again, so each
//! chain keeps a small cache of scores and searches a board only once.
//!
//! A climb scores one cell's moves at a time, and an escape the whole
//! neighbourhood: every other face in every cell and every swap. A
//! steepest-ascent climb, which scores the whole neighbourhood for each step,
//! ends on the same kind of board but pays 25 cells' walks a step on 5x5
//! where this climb pays for the cells it visits. Where the engine's vector
//! walk runs (AVX2 or AVX-512, at most 25 cells), one walk per cell scores
//! its 25 other letters and its swaps with every later cell together
//! ([`Searcher::score_moves`]). On a 5x5 record
//! board the 25 walks take about two thirds of the time that 25 open-cell
//! walks and the 300 swaps, board by board, take together. Elsewhere the 25 other letters of a cell are scored in
//! one walk with that cell open ([`Searcher::score_letters`]), at the cost
//! of 6–10 boards, and each swap is a board. Either way a board is counted,
//! cached and offered in the same order, so a run's boards do not depend on
//! which walk scored them.
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

#![expect(
    clippy::disallowed_methods,
    reason = "a search's time budget becomes a deadline on the real clock"
)]

use std::time::{Duration, Instant};

use rand::RngCore;
use rayon::prelude::*;

use boggle_engine::rules::{Scoring, SearchRules};
use boggle_engine::search::Searcher;
use boggle_engine::trie::Trie;
use boggle_game::face::Face;
use boggle_game::game_board::GameBoard;
use boggle_game::random::{self, GameRng};
use boggle_game::rules::Rules;

mod chain;
pub mod hunt;
mod progress;
mod space;
mod symmetry;

use chain::Chain;
#[cfg(test)]
use chain::Elites;
#[cfg(test)]
use chain::{Cache, hash};
pub use progress::{Best, Progress};
use space::{Move, State};
pub use space::{Space, SpaceError, SpaceOf};
use symmetry::Symmetries;
pub use symmetry::canonical;
use symmetry::rebuild;

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

impl Schedule {
    /// The schedule for a board of `cells` cells: [`Schedule::default`], with
    /// a hundred times the annealing moves above 16 cells. On 5x5 a short
    /// anneal ends in the basins of a few strong boards that are not the best
    /// (YAWL's 13,479 against its 13,625), and kicks do not leave them; on
    /// 4x4 the short one finds the records soonest.
    pub fn for_cells(cells: usize) -> Schedule {
        let default = Schedule::default();
        if cells > 16 {
            Schedule {
                steps: default.steps * 100,
                ..default
            }
        } else {
            default
        }
    }
}

impl Default for Schedule {
    /// The 4x4 schedule.
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
            restart_spent: true,
        }
    }
}

/// What the search maximises.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Objective {
    /// The board's points under the rules.
    #[default]
    Points,
    /// How many distinct words the board holds (the rules' lengths, one each).
    Words,
}

impl Objective {
    /// The rules the chains score boards by: `rules`, or under
    /// [`Objective::Words`] the same rules with every word worth 1, so the
    /// open-cell walk and the cache serve word counts unchanged.
    pub(crate) fn search_rules(self, rules: &Rules) -> SearchRules {
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
                let mut chain = Chain::new(
                    Searcher::new(trie, search_rules),
                    space,
                    &symmetries,
                    progress,
                    seed,
                    options,
                );
                chain.deadline = deadline;
                chain.evaluations = evaluations;
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
