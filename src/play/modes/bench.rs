//! Solving many boards with one loaded dictionary: the work behind
//! `boggle bench`, split over threads so that the totals never depend on how
//! many threads ran.

use std::sync::atomic::{AtomicUsize, Ordering};

use boggle_engine::search::Searcher;
use boggle_engine::trie::Trie;
use boggle_game::game_board::GameBoard;
use boggle_game::rules::Rules;

/// What solving a batch of boards found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Totals {
    /// Boards solved.
    pub(crate) boards: u64,
    /// Distinct words summed over the boards.
    pub(crate) words: u64,
    /// Points summed over the boards.
    pub(crate) score: u64,
    /// Boards whose search passed its step budget (crafted input only); their
    /// words and points may be incomplete.
    pub(crate) exhausted: u64,
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

/// The threads that solve boards, started once and reused for every batch
/// (`boggle bench` solves many batches: each pass of `--repeat`, each chunk
/// of `--count`), so starting threads is never part of a timed batch.
#[derive(Debug)]
pub(crate) struct Workers {
    /// `None` for one thread, or when the system refused threads (the calling
    /// thread then solves every board, to the same totals).
    pool: Option<rayon::ThreadPool>,
}

impl Workers {
    /// `threads` workers (1 = the calling thread only).
    pub(crate) fn new(threads: usize) -> Workers {
        let pool = if threads <= 1 {
            None
        } else {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .ok()
        };
        Workers { pool }
    }

    /// Solves every board; the totals do not depend on the number of threads.
    pub(crate) fn solve(&self, trie: &Trie, rules: &Rules, boards: &[GameBoard]) -> Totals {
        let Some(pool) = &self.pool else {
            return solve_chunk(&mut Searcher::new(trie, rules), boards);
        };
        // One searcher per worker for the whole batch, with boards taken a
        // chunk at a time from a shared counter. A searcher per rayon job
        // paid the page faults of its word buffers in every job: two threads
        // did 1.75x the boards of one, now 2.0x (100,000 dice boards, ENABLE2K).
        let next = AtomicUsize::new(0);
        pool.broadcast(|_| {
            let mut searcher = Searcher::new(trie, rules);
            let mut totals = Totals::default();
            loop {
                let start = next.fetch_add(CHUNK, Ordering::Relaxed);
                match boards.get(start..boards.len().min(start + CHUNK)) {
                    Some(part) if !part.is_empty() => {
                        totals = totals + solve_chunk(&mut searcher, part);
                    }
                    _ => return totals,
                }
            }
        })
        .into_iter()
        .fold(Totals::default(), |a, b| a + b)
    }
}

/// Boards a worker takes at a time: small enough to even out the threads'
/// ends, large enough that the shared counter is rarely touched.
const CHUNK: usize = 256;

fn solve_chunk(searcher: &mut Searcher<'_>, boards: &[GameBoard]) -> Totals {
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
