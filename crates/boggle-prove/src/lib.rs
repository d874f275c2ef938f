//! A branch-and-bound proof of the best Boggle boards of a size, after Dan
//! Vanderkam's method (arXiv 2507.02117), in our own code: `boggle prove`.
//!
//! Given a dictionary, the rules and a target score, [`prove_groups`] finds
//! every board scoring at least the target, or proves there is none,
//! without scoring the boards one by one: it bounds whole *classes* of
//! boards from above, drops the classes whose bound is under the target,
//! and searches inside the others. How to run a proof (flags, costs, shards,
//! batch systems) and the measurements behind the choices made here are in
//! `docs/PROVE.md`.
//!
//! # Terms
//!
//! In the order the proof meets them.
//!
//! - **Cell**, **position**: a board's squares, numbered row by row, are
//!   its cells. A *position* is a cell's place in the order the prover
//!   forces cells in (`layout`): the cells with the most neighbours
//!   first, and among those the ones with the fewest letters. An entry's
//!   key and the levels of the orderly tree follow the positions.
//! - **Bucket**: a set of letters. [`classes::Buckets`] gives every cell a
//!   few buckets that hold each letter exactly once (the corners may have
//!   their own).
//! - **Class**: one bucket for each cell; the boards whose every cell holds
//!   a letter of its bucket. Every board is in exactly one class. A class
//!   is numbered by its buckets in mixed radix (its *id*), and only the
//!   *canonical* one of the classes a symmetry of the board maps onto
//!   each other is proved.
//! - **Group**, **free position**: a group is the classes that differ only
//!   in the buckets of their last positions, the *free* ones (the corners):
//!   their word paths are collected once ([`classes::Group`]).
//! - **Target**: the score sought (`--above`). A class, or a partial board,
//!   whose bound is under it is *pruned*: no board in it reaches the target.
//! - **Word path**: the (cell, letter) pairs along which a word is spelled
//!   on some board of the class. Words spelled on the same pairs (`EAT`,
//!   `TEA`, `ATE` on the same three cells) are one path whose points add up;
//!   a word spelled on the same pairs in two orders is counted once.
//! - **Entry**: a word path packed in a `u128`: the letter at each position
//!   (the *key*), the positions used, and the points. Sorted, entries are
//!   the orderly tree in depth-first order.
//! - **Orderly tree**: the trie of a class's word paths, each inserted in
//!   position order. A **sum node** is reached from the root by some pairs
//!   and holds the points of the paths that end there; its children are
//!   **choice nodes**, at most one per later position, and a choice node's
//!   children are sum nodes, one per letter its position may hold.
//! - **Bound**: a sum node's points plus its choices' bounds; a choice
//!   node's, the best of its children's. The root's bound is at least the
//!   score of every board of the class: a board picks one child at each
//!   choice node, and what it keeps holds every word the board has.
//! - **Forcing**: fixing a position's letter, which keeps that letter's
//!   child at each of the position's choice nodes. A **forced position** is
//!   one whose letter is fixed on the way down. The first two positions
//!   (three in very long lists) are forced by **merging** sorted lists of
//!   entries, once for a whole group; the rest by the walk.
//! - **Lane**: one class's bound among several computed side by side, one
//!   element of a `[u16; 16]` (or `u32`) the compiler keeps in vector
//!   registers. A **split** divides a group's list of entries among lanes by
//!   the buckets its free positions take, so one pass bounds many classes.
//! - **Flat tree**: the orderly tree written out for the walk in three
//!   arrays, with a bound in every lane at every node. A **stub** is one of
//!   its sum nodes whose choices are not written yet: the walk writes them
//!   when it gets there.
//! - **Base tree**: the lists one position's forcing makes, one per letter,
//!   share the entries that skip the position; their tree is the base,
//!   written once, and each letter's tree takes whole nodes from it.
//! - **Walk**: the depth-first search over the flat tree that forces the
//!   positions left one at a time, in every lane at once. A **pending**
//!   choice node is one the letters chosen so far reach, whose position is
//!   not forced yet.
//! - **Slack**: the pending choices' bounds summed per position (and their
//!   children's, per letter), kept as the walk goes, so that a letter's
//!   bound is one addition. The **gap** is how much tighter a later
//!   position's share of the bound is once its choices must agree on one
//!   letter.
//! - **Rescoring**: scoring a complete board the walk reached with the
//!   solver ([`boggle_engine::search::Searcher`]): its bound may still be
//!   above its score.
//! - **Record**: a class's outcome ([`ClassRecord`]): its bound, the highest
//!   met on its way down, and its boards that reach the target.
//! - **Shard**: every Nth group, proved by one process that writes one
//!   record per line to a file ([`shard`]).
//!
//! # A proof by hand: 2x2
//!
//! Take a 2x2 board, whose cells are numbered
//!
//! ```text
//! 0 1
//! 2 3
//! ```
//!
//! and touch each other (every cell is a corner). The dictionary is `ATE
//! EAT SEA TEA`, one point each under the classic rules, and the target is
//! 4. The buckets `a e st bcdfghijklmnopqruvwxyz` give each cell four: 256
//! classes, 55 up to the board's 8 symmetries, all in one group (its four
//! positions are free).
//!
//! Class 26 holds `A` on cell 0, `E` on cell 1 and `S` or `T` on cells 2
//! and 3: the boards `AESS`, `AEST`, `AETS` and `AETT`. Its positions are
//! its cells in order (they all have three neighbours, and the two with
//! one letter come first). Its word paths, sorted as entries are (a path
//! that skips a position before one that uses it):
//!
//! ```text
//! 0A 1E 3S: 1    SEA
//! 0A 1E 3T: 3    ATE, EAT and TEA on the same cells: one path
//! 0A 1E 2S: 1    SEA
//! 0A 1E 2T: 3    ATE, EAT, TEA
//! ```
//!
//! Their orderly tree, with each node's bound:
//!
//! ```text
//! sum 6
//! └─ choice, cell 0: 6
//!    └─ A: sum 6
//!       └─ choice, cell 1: 6
//!          └─ E: sum 6 = 3 + 3
//!             ├─ choice, cell 2: 3 = best of S: sum 1, T: sum 3
//!             └─ choice, cell 3: 3 = best of S: sum 1, T: sum 3
//! ```
//!
//! The bound is 6, while the best board scores 4: the bound lets cells 2
//! and 3 both count their best letter, and counts `EAT` on both sets of
//! cells, where a board counts a word once. The prover forces cells 0 and
//! 1 by merging (one letter each, so the bound stays 6) and walks cells 2
//! and 3. Forcing cell 2 to `S` keeps the `S` child of its choice: 1 + 3 =
//! 4; to `T`: 3 + 3 = 6. Both reach 4, so the walk goes on to cell 3: after `S`, `S` gives 1 + 1 = 2, under the
//! target, and `T` 4; after `T`, `S` gives 4 and `T` 6. Three boards are
//! rescored: `AEST` and `AETS` score 4 and are kept, `AETT` scores 3 (its
//! `EAT`s count once) and is not. The class's record: bound 6, two boards.
//!
//! Over the 55 classes, 6 have a bound of at least 4 (6 each, as class 26
//! has), and the proof finds 3 boards up to symmetry, each an arrangement
//! of `AEST`:
//!
//! The unit test `tests::proof_by_hand_2x2` checks each step above (the
//! word paths, the bounds, the walk); the whole proof, through what the
//! crate exports:
//!
//! ```
//! use boggle_engine::{SearchRules, trie::Trie};
//! use boggle_prove::classes::Buckets;
//! use boggle_prove::{Progress, Settings, Summary, prove_groups};
//!
//! let trie = Trie::from_words(["ate", "eat", "sea", "tea"]);
//! let rules = SearchRules::standard(2, 2);
//! let buckets = Buckets::parse("a e st bcdfghijklmnopqruvwxyz")?;
//! let settings = Settings::new(rules, buckets, 4)?;
//! let classes = settings.classes();
//! assert_eq!(classes.total(), 256);
//! let groups = classes.groups();
//! assert_eq!(groups.len(), 1);
//! let records = prove_groups(&trie, &settings, &groups, &|_| false, 1, &Progress::new(), |_| Ok(()))?;
//! let summary = Summary::of(&records, 4);
//! assert_eq!((summary.classes, summary.searched, summary.max_bound), (55, 6, 6));
//! assert_eq!(summary.proved_line(4), "proved: 3 boards score >= 4; best: ASTE 4");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # How it works, file by file
//!
//! In the order a group goes through them; each file's own doc says how.
//!
//! 1. `classes`: the buckets, the classes they make, the symmetries, the
//!    groups; `layout`: the order cells are forced in.
//! 2. `paths`: a group's word paths, collected once with every letter on its
//!    free positions, sorted and merged into entries (`entry`: the `u128`
//!    and its bit layout).
//! 3. `force`: the first two positions forced by merging, once for the
//!    whole group, each list bounded in one pass (`orderly`: the orderly
//!    tree met in one pass over sorted entries, and its bound).
//! 4. `lanes`: each list left split on the free positions, the bounds of up
//!    to 32 classes in one pass; the lists of the classes whose bound
//!    reaches the target written, until at most 16 classes are left.
//! 5. `flat`, `build`: one tree for those classes, a bound per lane at every
//!    node, written six levels deep, over the base its forcing shares.
//! 6. `walk`, `slack`: the walk, forcing the positions left, every lane at
//!    once, and rescoring the boards that survive.
//! 7. `prover`: the driver of steps 2 to 6, [`Prover`]; this file: proving
//!    groups on threads ([`prove_groups`], [`prove_drawn`]) and adding up
//!    records ([`Summary`]); `shard`: shards, resuming and merging, and the
//!    checks every shard's file passes before it is believed; `limits`: the
//!    caps on what flags and files may ask for.
//! 8. What a proof costs, before it is run and while it runs: [`strata`]
//!    sorts the groups by a cheap pre-pass that predicts their cost,
//!    [`estimate`] estimates the whole from the groups proved (stratified,
//!    with a bootstrap-t interval that holds for heavy-tailed costs), and
//!    [`sample`] draws a sample's groups until a stop rule holds. The time
//!    left on the progress line ([`Progress::eta`]) is the same estimate.
//!
//! # Contract
//!
//! - Every board that scores at least the target is found, in the record
//!   of the class it is in, once up to symmetry, in the form of it that
//!   sorts first; no board under the target is reported.
//! - A record's bound is at least the score of every board of its class.
//!   It is the highest bound met on the class's way down, so it depends on
//!   the buckets, on grouping and on the thresholds; the boards do not.
//! - Records, but for their CPU time, do not depend on the number of
//!   threads, on the order groups are run in, on the shard a class is in,
//!   or on which of the AVX-512, AVX2 and baseline code the processor runs.
//!
//! # Limits
//!
//! - At most 16 cells (an entry's key has 16 fields), and a
//!   trie of at most 2^24 nodes.
//! - A word's points are held to 255 while collecting, and words longer
//!   than 64 letters score as 64-letter words.
//! - A bound that does not fit 16 bits (65,535) makes the tree's lanes 32
//!   bits wide, about half as many to a register.
//! - Memory: a 4x4 group's word paths, with every letter on its four free
//!   corners, run to tens of millions of entries, and each thread keeps its
//!   prover's lists and trees (a 4x4 sample on two threads peaked at 3.4 GB).
//! - Time: 3x3 takes under a minute, 3x4 under an hour on two threads, 4x4
//!   hundreds to thousands of CPU-hours (`docs/PROVE.md`), which only a
//!   sample can tell before the proof is run: groups cost from milliseconds
//!   to many minutes, and the few heaviest make much of the total.
//!
//! What was tried and dropped, with its figures, is in `docs/notebook/`
//! (the `prove` files, by date).

#![expect(
    clippy::disallowed_methods,
    reason = "a proof's progress and its estimate of the time left are timed on the real clock"
)]
#![warn(missing_docs)]

mod build;
pub mod classes;
mod entry;
mod error;
pub mod estimate;
mod flat;
mod force;
mod lanes;
mod layout;
pub mod limits;
mod orderly;
mod paths;
mod prover;
pub mod sample;
pub mod shard;
mod slack;
pub mod strata;
#[cfg(test)]
mod tests;
mod walk;

use entry::{MAX_CELLS, MAX_TRIE_NODES};
pub use error::{BadBoard, BadMarker, BadParams, BadRecord, ProveError, ThreadsError};
pub use limits::Estimate;
pub use prover::Prover;

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use rand::SeedableRng;

use boggle_engine::trie::Trie;
use boggle_engine::{QReads, SearchRules};
use classes::{Buckets, Classes, Group};
use estimate::Stratified;

/// What to prove: the rules (board size, scoring), the buckets and the target.
/// Made only by [`Settings::new`], which checks them; read through its accessors.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The rules boards are scored by.
    pub(crate) rules: SearchRules,
    /// The letter buckets that make the classes.
    pub(crate) buckets: Buckets,
    /// Find every board scoring at least this.
    pub(crate) above: u32,
    /// Whether classes that differ only in their corners are proved together
    /// (collected once); off, every class is proved on its own.
    pub(crate) grouped: bool,
}

impl Settings {
    /// Checks the board size the prover can handle, and that the table of
    /// classes the buckets make is within the caps of [`limits`] (estimated
    /// before it is built: [`Estimate`]).
    pub fn new(
        rules: impl Into<SearchRules>,
        buckets: Buckets,
        above: u32,
    ) -> Result<Settings, ProveError> {
        let rules: SearchRules = rules.into();
        if !matches!(rules.rows.checked_mul(rules.cols), Some(1..=MAX_CELLS)) {
            return Err(ProveError::Size {
                rows: rules.rows,
                cols: rules.cols,
            });
        }
        let estimate = Classes::new(&rules, &buckets).estimate();
        if !estimate.fits() {
            return Err(ProveError::TooLarge(estimate));
        }
        Ok(Settings {
            rules,
            buckets,
            above,
            grouped: true,
        })
    }

    /// The same settings, with classes that differ only in their corners
    /// proved together (`true`, the default) or each on its own.
    #[must_use]
    pub fn grouped(mut self, grouped: bool) -> Settings {
        self.grouped = grouped;
        self
    }

    /// The rules boards are scored by.
    pub fn rules(&self) -> SearchRules {
        self.rules
    }

    /// Every board scoring at least this is found.
    pub fn above(&self) -> u32 {
        self.above
    }

    /// Whether classes that differ only in their corners are proved together.
    pub fn is_grouped(&self) -> bool {
        self.grouped
    }

    /// The classes of these settings.
    pub fn classes(&self) -> Classes {
        let classes = Classes::new(&self.rules, &self.buckets);
        if self.grouped {
            classes
        } else {
            classes.ungrouped()
        }
    }

    /// A board's letters as text (`Q` as `QU` under Qu rules).
    pub(crate) fn board_text(&self, letters: &[u8]) -> String {
        letters
            .iter()
            .map(|&l| {
                if self.rules.q == QReads::Qu && l == b'Q' - b'A' {
                    "QU".to_string()
                } else {
                    char::from(b'A' + l).to_string()
                }
            })
            .collect()
    }
}

/// A board found scoring at least the target.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FoundBoard {
    /// Its score.
    pub score: u32,
    /// Its letters, row by row, in the form that sorts first under the symmetries.
    pub board: String,
}

/// The outcome of one class.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassRecord {
    /// The class id (mixed radix over the cells' buckets).
    pub class: u64,
    /// The class's upper bound.
    pub(crate) bound: u32,
    /// Its boards at or above the target.
    pub boards: Vec<FoundBoard>,
    /// CPU seconds spent on it.
    pub cpu: f64,
}

/// Live counters for a progress line and for stopping early.
#[derive(Debug, Default)]
pub struct Progress {
    done: AtomicU64,
    total: AtomicU64,
    boards: AtomicU64,
    cpu_micros: AtomicU64,
    best: Mutex<Option<FoundBoard>>,
    stop: AtomicBool,
    groups_done: AtomicU64,
    groups_total: AtomicU64,
    /// Each group's stratum, by group id (none given: one stratum).
    strata: Mutex<HashMap<u64, usize>>,
    /// The groups to do by stratum, and the costs of those finished: the
    /// sample the time left is estimated from.
    sample: Mutex<Stratified>,
    /// When the last group finished: when the estimate of the time left was made.
    last_group: Mutex<Option<Instant>>,
    /// The last estimate of the time left, with the groups done it was made from.
    eta: Mutex<Option<(u64, Eta)>>,
}

/// How long the groups left may take, from the costs of those finished.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Eta {
    /// CPU seconds left, about: the stratified estimate of the whole (see
    /// [`estimate`]) less the groups finished.
    pub cpu: f64,
    /// Wall seconds left, about, on the threads given.
    pub seconds: f64,
    /// The 95% bootstrap-t interval of the wall seconds left. The groups
    /// done are a random sample of those to do (the proof draws them in a
    /// random order), so this is the interval `--sample` gives, narrowing
    /// to nothing as the last groups finish.
    pub range: (f64, f64),
    /// The CPU seconds one group took on average: about as long as a group
    /// runs on its thread, which the estimate assumes of the groups running.
    pub mean: f64,
    /// When the estimate was made (the last group finished): the wall time
    /// since is to be taken off `seconds` and `range`.
    pub at: Instant,
}

/// Bootstrap resamples behind the time left (recomputed as groups finish).
const ETA_RESAMPLES: usize = 200;

impl Progress {
    /// Fresh counters.
    pub fn new() -> Progress {
        Progress::default()
    }

    /// Sorts the groups into strata for the estimate of the time left
    /// (`stratum_of`: group id to stratum, strata ordered by predicted
    /// cost); to be called before the groups are counted by [`prove_groups`].
    pub fn stratify(&self, stratum_of: HashMap<u64, usize>) {
        if let Ok(mut strata) = self.strata.lock() {
            *strata = stratum_of;
        }
    }

    fn stratum_of(&self, group: u64) -> usize {
        self.strata
            .lock()
            .map_or(0, |s| s.get(&group).copied().unwrap_or(0))
    }

    /// Classes finished so far and how many there are.
    pub fn classes(&self) -> (u64, u64) {
        (
            self.done.load(Ordering::Relaxed),
            self.total.load(Ordering::Relaxed),
        )
    }

    /// Boards found at or above the target so far.
    pub fn boards(&self) -> u64 {
        self.boards.load(Ordering::Relaxed)
    }

    /// CPU seconds spent on finished classes.
    pub fn cpu(&self) -> f64 {
        self.cpu_micros.load(Ordering::Relaxed) as f64 / 1e6
    }

    /// The best board found so far.
    pub fn best(&self) -> Option<FoundBoard> {
        self.best.lock().map_or(None, |b| b.clone())
    }

    /// Groups finished so far and how many there are (counting only groups
    /// with a class to prove).
    pub(crate) fn groups(&self) -> (u64, u64) {
        (
            self.groups_done.load(Ordering::Relaxed),
            self.groups_total.load(Ordering::Relaxed),
        )
    }

    /// An estimate of the time left on `threads` threads from the costs of
    /// the groups finished so far (made again only when another group has
    /// finished); `None` before two groups finish or after the last.
    pub fn eta(&self, threads: usize) -> Option<Eta> {
        let (done, total) = self.groups();
        if done >= total {
            return None;
        }
        if let Ok(cached) = self.eta.lock()
            && let Some((at, eta)) = *cached
            && at == done
        {
            return Some(eta);
        }
        let sample = self.sample.lock().ok()?.clone();
        let spent = sample.spent();
        let (whole, _) = sample.total()?;
        let mut rng = rand::rngs::StdRng::seed_from_u64(done);
        let interval = sample.interval(0.95, ETA_RESAMPLES, &mut rng)?;
        let left = (total - done) as f64;
        let lanes = (threads as f64).min(left).max(1.0);
        let wall = |cpu: f64| (cpu - spent).max(0.0) / lanes;
        let at = self
            .last_group
            .lock()
            .ok()
            .and_then(|at| *at)
            .unwrap_or_else(Instant::now);
        let eta = Eta {
            cpu: (whole - spent).max(0.0),
            seconds: wall(whole),
            range: (wall(interval.low), wall(interval.high)),
            mean: spent / sample.sampled().max(1) as f64,
            at,
        };
        if let Ok(mut cached) = self.eta.lock() {
            *cached = Some((done, eta));
        }
        Some(eta)
    }

    /// Asks the workers to stop after their current class.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether a stop was asked for.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Counts `group` among the groups to do.
    fn plan_group(&self, group: u64) {
        let h = self.stratum_of(group);
        self.groups_total.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut sample) = self.sample.lock() {
            sample.add_groups(h, 1);
        }
    }

    fn finish_group(&self, group: u64, cpu: f64) {
        let h = self.stratum_of(group);
        if let Ok(mut sample) = self.sample.lock() {
            sample.add(h, cpu);
        }
        if let Ok(mut at) = self.last_group.lock() {
            *at = Some(Instant::now());
        }
        self.groups_done.fetch_add(1, Ordering::Relaxed);
    }

    fn record(&self, record: &ClassRecord) {
        self.done.fetch_add(1, Ordering::Relaxed);
        self.boards
            .fetch_add(record.boards.len() as u64, Ordering::Relaxed);
        self.cpu_micros
            .fetch_add((record.cpu * 1e6) as u64, Ordering::Relaxed);
        let Some(top) = record.boards.iter().max() else {
            return;
        };
        if let Ok(mut best) = self.best.lock()
            && best.as_ref().is_none_or(|b| top > b)
        {
            *best = Some(top.clone());
        }
    }
}

/// A CPU-time clock's reading, in seconds.
#[cfg(unix)]
fn cpu_clock(clock: rustix::time::ClockId) -> f64 {
    let ts = rustix::time::clock_gettime(clock);
    ts.tv_sec as f64 + ts.tv_nsec as f64 / 1e9
}

/// CPU time of the calling thread, in seconds.
#[cfg(unix)]
pub(crate) fn thread_cpu() -> f64 {
    cpu_clock(rustix::time::ClockId::ThreadCPUTime)
}

/// CPU time of the calling thread, in seconds (without a thread clock, wall
/// time since the first call stands in).
#[cfg(not(unix))]
pub(crate) fn thread_cpu() -> f64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_secs_f64()
}

/// CPU time of the whole process (every thread), in seconds: what a
/// sample's `--budget` counts.
#[cfg(unix)]
pub fn process_cpu() -> f64 {
    cpu_clock(rustix::time::ClockId::ProcessCPUTime)
}

/// CPU time of the whole process (without a process clock, wall time
/// since the first call stands in).
#[cfg(not(unix))]
pub fn process_cpu() -> f64 {
    thread_cpu()
}

/// The letters of each cell in class `class` (by cell, letters 0 = A).
pub fn class_letters(settings: &Settings, classes: &Classes, class: u64) -> Vec<Vec<u8>> {
    let (rows, cols) = (settings.rules.rows, settings.rules.cols);
    classes
        .digits(class)
        .iter()
        .enumerate()
        .map(|(cell, &d)| settings.buckets.for_cell(rows, cols, cell)[usize::from(d)].clone())
        .collect()
}

/// Proves the classes of one group with a reusable prover, leaving out those
/// `skip` names; the records come in no particular order.
pub(crate) fn prove_group(
    prover: &mut Prover<'_>,
    settings: &Settings,
    classes: &Classes,
    group: &Group,
    skip: &dyn Fn(u64) -> bool,
) -> Vec<ClassRecord> {
    let (rows, cols) = (settings.rules.rows, settings.rules.cols);
    let wanted: std::collections::HashSet<u64> = group
        .classes
        .iter()
        .copied()
        .filter(|&c| !skip(c))
        .collect();
    let Some(&first) = group.classes.first() else {
        return Vec::new();
    };
    if wanted.is_empty() {
        return Vec::new();
    }
    let order = classes.order();
    let fixed = order.len() - classes.free();
    let letters = strata::group_letters(settings, classes, group);
    let free: Vec<Vec<Vec<u8>>> = order[fixed..]
        .iter()
        .map(|&cell| settings.buckets.for_cell(rows, cols, cell).to_vec())
        .collect();
    // A class id is its group's id with the free cells' digits added at their places.
    let mut base = classes.digits(first);
    for &cell in &order[fixed..] {
        base[cell] = 0;
    }
    let base_id = classes.id(&base);
    let places: Vec<u64> = order[fixed..]
        .iter()
        .map(|&cell| {
            let mut one = vec![0u8; order.len()];
            one[cell] = 1;
            classes.id(&one)
        })
        .collect();
    let id_of = |digits: &[u8]| {
        base_id
            + digits
                .iter()
                .zip(&places)
                .map(|(&d, &p)| u64::from(d) * p)
                .sum::<u64>()
    };
    let mut records = Vec::with_capacity(wanted.len());
    let mut last = thread_cpu();
    prover.prove_group(
        &letters,
        &free,
        settings.above,
        &mut |digits| wanted.contains(&id_of(digits)),
        &mut |digits, bound, found| {
            let mut boards: Vec<FoundBoard> = found
                .into_iter()
                .map(|(letters, score)| FoundBoard {
                    score,
                    board: settings.board_text(&classes.canonical_board(&letters)),
                })
                .collect();
            boards.sort_unstable_by(|a, b| b.cmp(a));
            boards.dedup();
            let now = thread_cpu();
            records.push(ClassRecord {
                class: id_of(digits),
                bound,
                boards,
                cpu: now - last,
            });
            last = now;
        },
    );
    records
}

/// Proves the classes of `groups` on `threads` threads, in the order
/// given, leaving out those `skip` names, and hands each record to `sink`
/// as it finishes (in no particular order). Stops early, without an error,
/// when `progress` is stopped; the records returned are those finished, by
/// class id.
pub fn prove_groups<F>(
    trie: &Trie,
    settings: &Settings,
    groups: &[Group],
    skip: &(dyn Fn(u64) -> bool + Sync),
    threads: usize,
    progress: &Progress,
    sink: F,
) -> Result<Vec<ClassRecord>, ProveError>
where
    F: Fn(&ClassRecord) -> Result<(), ProveError> + Sync,
{
    let todo: usize = groups
        .iter()
        .map(|g| g.classes.iter().filter(|&&c| !skip(c)).count())
        .sum();
    progress.total.fetch_add(todo as u64, Ordering::Relaxed);
    for group in groups
        .iter()
        .filter(|g| g.classes.iter().any(|&c| !skip(c)))
    {
        progress.plan_group(group.id);
    }
    let next = AtomicUsize::new(0);
    let records = Mutex::new(Vec::with_capacity(todo));
    prove_drawn(
        trie,
        settings,
        skip,
        threads,
        progress,
        &|| groups.get(next.fetch_add(1, Ordering::Relaxed)).cloned(),
        &|_, done| {
            for record in done {
                sink(record)?;
            }
            if let Ok(mut records) = records.lock() {
                records.extend_from_slice(done);
            }
            Ok(())
        },
    )?;
    let mut records = records.into_inner().unwrap_or_default();
    records.sort_by_key(|r| r.class);
    Ok(records)
}

/// What [`prove_drawn`] calls with each group proved and its records.
pub(crate) type Finished<'a> = dyn Fn(&Group, &[ClassRecord]) -> Result<(), ProveError> + Sync + 'a;

/// Proves the groups `draw` hands out, one at a time on each of `threads`
/// threads, until it hands out none or `progress` is stopped (a group in
/// hand is finished first), leaving out the classes `skip` names; each
/// group's records go to `finished` as it ends. The first error `finished`
/// returns stops the workers and is returned.
pub fn prove_drawn(
    trie: &Trie,
    settings: &Settings,
    skip: &(dyn Fn(u64) -> bool + Sync),
    threads: usize,
    progress: &Progress,
    draw: &(dyn Fn() -> Option<Group> + Sync),
    finished: &Finished<'_>,
) -> Result<(), ProveError> {
    if trie.len() > MAX_TRIE_NODES {
        return Err(ProveError::Dictionary { nodes: trie.len() });
    }
    let classes = settings.classes();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| ProveError::Threads(ThreadsError::Pool(e)))?;
    let failed: Mutex<Option<ProveError>> = Mutex::new(None);
    let failing = AtomicBool::new(false);
    // One prover a thread, kept from group to group: its large lists are
    // allocated once.
    pool.broadcast(|_| {
        let mut prover = None;
        while !progress.is_stopped() && !failing.load(Ordering::Relaxed) {
            let Some(group) = draw() else {
                break;
            };
            let prover = prover.get_or_insert_with(|| Prover::new(trie, settings.rules));
            let done = prove_group(prover, settings, &classes, &group, skip);
            for record in &done {
                progress.record(record);
            }
            if !done.is_empty() {
                progress.finish_group(group.id, done.iter().map(|r| r.cpu).sum());
            }
            if let Err(e) = finished(&group, &done) {
                failing.store(true, Ordering::Relaxed);
                if let Ok(mut failed) = failed.lock() {
                    failed.get_or_insert(e);
                }
            }
        }
    });
    match failed.into_inner().ok().flatten() {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// What a set of class records adds up to.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// Classes accounted for.
    pub classes: u64,
    /// Classes whose bound reached the target (they were searched inside).
    pub searched: u64,
    /// The highest class bound.
    pub max_bound: u32,
    /// Every board found, best first, once each up to symmetry.
    pub boards: Vec<FoundBoard>,
    /// CPU seconds over all classes.
    pub cpu: f64,
}

impl Summary {
    /// Adds up records (of distinct classes) proved against `above`.
    pub fn of<'a>(records: impl IntoIterator<Item = &'a ClassRecord>, above: u32) -> Summary {
        let mut summary = Summary {
            classes: 0,
            searched: 0,
            max_bound: 0,
            boards: Vec::new(),
            cpu: 0.0,
        };
        for record in records {
            summary.classes += 1;
            summary.searched += u64::from(record.bound >= above);
            summary.max_bound = summary.max_bound.max(record.bound);
            summary.boards.extend(record.boards.iter().cloned());
            summary.cpu += record.cpu;
        }
        summary.boards.sort_unstable_by(|a, b| b.cmp(a));
        summary.boards.dedup();
        summary
    }

    /// The `proved: ...` line.
    pub fn proved_line(&self, above: u32) -> String {
        let best = self.boards.first().map_or_else(
            || "none".to_string(),
            |b| format!("{} {}", b.board, b.score),
        );
        format!(
            "proved: {} boards score >= {above}; best: {best}",
            self.boards.len()
        )
    }
}
