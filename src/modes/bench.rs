//! Solving many boards with one loaded dictionary: the work behind
//! `boggle bench`, split over threads so that the totals never depend on how
//! many threads ran.

use rayon::prelude::*;

use crate::engine::search::Searcher;
use crate::engine::trie::Trie;
use crate::game_board::GameBoard;
use crate::rules::Rules;

/// What solving a batch of boards found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Boards solved.
    pub boards: u64,
    /// Distinct words summed over the boards.
    pub words: u64,
    /// Points summed over the boards.
    pub score: u64,
    /// Boards whose search passed its step budget (crafted input only); their
    /// words and points may be incomplete.
    pub exhausted: u64,
}

impl std::ops::Add for Totals {
    type Output = Totals;
    fn add(self, other: Totals) -> Totals {
        Totals {
            boards: self.boards + other.boards,
            words: self.words + other.words,
            score: self.score + other.score,
            exhausted: self.exhausted + other.exhausted,
        }
    }
}

/// Solves every board on `threads` threads (1 = the calling thread only).
pub fn solve_all(trie: &Trie, rules: &Rules, boards: &[GameBoard], threads: usize) -> Totals {
    if threads <= 1 {
        return solve_chunk(trie, rules, boards);
    }
    let chunk = boards.len().div_ceil(threads * 16).max(1);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build();
    let work = || {
        boards
            .par_chunks(chunk)
            .map(|part| solve_chunk(trie, rules, part))
            .reduce(Totals::default, |a, b| a + b)
    };
    match pool {
        Ok(pool) => pool.install(work),
        // No pool (the system refused threads): the global pool still gives the same totals.
        Err(_) => work(),
    }
}

fn solve_chunk(trie: &Trie, rules: &Rules, boards: &[GameBoard]) -> Totals {
    let mut searcher = Searcher::new(trie, rules);
    let mut totals = Totals::default();
    for board in boards {
        let tally = searcher.tally(board);
        totals.boards += 1;
        totals.words += u64::from(tally.words);
        totals.score += u64::from(tally.score);
        totals.exhausted += u64::from(searcher.exhausted());
    }
    totals
}
