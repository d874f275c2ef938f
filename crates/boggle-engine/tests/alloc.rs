//! ARCHITECTURE.md's invariant "a `Searcher` allocates nothing per board
//! once warm": this binary's global allocator counts each thread's
//! allocations, and a searcher that has solved a set of boards solves them
//! again without one. A binary of its own, because the allocator is global.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use boggle_engine::search::Searcher;
use boggle_engine::trie::Trie;
use boggle_engine::{Face, Grid, SearchRules};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The system allocator, counting the allocations of each thread.
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

/// Counts one allocation on this thread (nothing once its locals are gone).
fn count() {
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

/// This thread's allocations so far.
fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

// SAFETY: every call goes unchanged to the system allocator, which keeps
// GlobalAlloc's contract; counting touches only a const-initialised
// thread-local without a destructor, which never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: the caller's layout, as `GlobalAlloc::alloc` requires of it.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System` with this layout (every allocation here does).
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: the caller's pointer, layout and size, passed on as they came.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// A board of letters as the search reads it.
struct Board {
    faces: Vec<Face>,
}

impl Grid for Board {
    fn rows(&self) -> usize {
        4
    }
    fn cols(&self) -> usize {
        4
    }
    fn faces(&self) -> &[Face] {
        &self.faces
    }
}

/// `n` random 4x4 boards of letters, the same on every run.
fn boards(n: usize) -> Vec<Board> {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    (0..n)
        .map(|_| Board {
            faces: (0..16)
                .filter_map(|_| Face::letter(rng.random_range(b'A'..=b'Z')))
                .collect(),
        })
        .collect()
}

#[test]
fn a_warm_searcher_allocates_nothing_per_board() {
    let trie = Trie::from_words(include_str!("../../../words.txt").lines());
    let boards = boards(300);
    let mut searcher = Searcher::new(&trie, SearchRules::standard(4, 4));
    // Warming up: the buffers grow to what these boards need.
    let first: u64 = boards
        .iter()
        .map(|b| u64::from(searcher.tally(b).words))
        .sum();
    let before = allocations();
    let again: u64 = boards
        .iter()
        .map(|b| u64::from(searcher.tally(b).words))
        .sum();
    let during = allocations() - before;
    // The count sees an allocation, so a zero below means none was made.
    let probe = allocations();
    drop(std::hint::black_box(Box::new(first)));
    assert_eq!(
        allocations(),
        probe + 1,
        "the allocator counts this thread's allocations"
    );
    assert!(first > 0, "the boards hold words");
    assert_eq!(again, first, "the same words the second time");
    assert_eq!(during, 0, "allocations while solving 300 boards warm");
}
