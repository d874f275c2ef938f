//! The search engine: finds every dictionary word on a board under any
//! [`SearchRules`], for every mode. A depth-first walk of board paths and trie
//! nodes in step: a path is extended only while its letters are a prefix of
//! some word, so a board visits a few hundred trie nodes, not millions of paths.
//!
//! # How it works
//!
//! With the words `TEA`, `TEN` and `NET` on the board `T E / N A`: from `T`
//! the trie has a child for `E`, and `E` is next to `T`, so the walk goes to
//! `E` (trie node `TE`); `TE` has children `A` and `N`, both next to `E` and
//! unused, so it records `TEA` and `TEN`; neither goes further. From `N`,
//! `NE` and `NET`; from `E` and `A`, no word starts.
//!
//! Three walkers share that idea. The vector walk (the `vector` module)
//! serves boards of at most 32 cells of single letters and `Qu` where the
//! processor has AVX-512 (it steps a path into all its neighbours at once,
//! eight paths at a time, and is about twice as fast as the next). The
//! bitmask walk serves every board of at most
//! 64 cells whose faces are single letters or `Qu` (all the standard games).
//! Per board it builds bitmasks: the cells showing each letter, each cell's
//! neighbours, and the letters next to each cell. At a trie node it tries
//! only the letters that both continue a word (the node's child mask) and
//! lie next to the current cell, then the unvisited cells showing that
//! letter: usually one or two steps, none wasted on a neighbour whose letter
//! leads nowhere. A path into a child is kept only if some neighbour of its
//! cell shows a letter the child continues with, which drops most paths at
//! once. A `Qu` cell steps through the `Q` and the `U` child. The general
//! walker handles the rest (faces such as `Th`, blank cells, boards larger
//! than 64 cells, a maximum word length) by spelling each face into the trie.
//!
//! The bitmask walk is bound by mispredicted branches and by trie loads that
//! miss the second-level cache, not by arithmetic, so it keeps its waiting
//! paths on its own stack and pushes each new one without a branch, moving
//! the stack pointer only if the path is kept; prefetches the line where a
//! child's children start as it steps into the child; finds a child's index
//! with `popcnt` (compiled twice, the variant chosen at run time); and
//! records a word's end without a branch into a buffer with a slot for every
//! word of the dictionary.
//!
//! [`Searcher::score_letters`] scores 26 boards in one fast walk: the board
//! with one cell showing each letter in turn (what `boggle best` asks of
//! every cell when it climbs). That cell is "open": it shows every letter,
//! and each path on the stack carries the letter it took there (or none). A
//! word found on a path that avoids the open cell is on all 26 boards, one
//! found through it only on the board with that letter; a mask per trie node
//! collects which, and the scores are summed from the masks. The paths that
//! avoid the cell are walked once instead of 26 times, so on the best 4x4 and
//! 5x5 boards it costs 3.5 boards' steps.
//!
//! # Contract
//!
//! - Every walker finds the same words: every dictionary word that some path
//!   of the board spells under the rules (adjacent cells, each cell at most
//!   once, the rules' moves and lengths), each once however many paths spell
//!   it (deduplicated by trie node), in trie order. The property tests check
//!   the engine against a brute-force search over every path.
//! - A search takes at most [`STEP_BUDGET`] steps; one that reaches it stops,
//!   and [`Searcher::exhausted`] says its words may be incomplete.
//! - A [`Searcher`] is reused board after board; its buffers are cleared by
//!   the words found, not swept.
//!
//! # Tried and dropped
//!
//! Each measured on the 100,000 dice boards with ENABLE2K, one thread;
//! `docs/PERFORMANCE.md` has the whole notebook, the machines and the rest
//! of the list.
//!
//! - Recursion instead of the explicit stack: the stack, pushed without a
//!   branch, is 13% faster.
//! - A breadth-first queue of paths with no data-dependent branches: 4x the
//!   instructions.
//! - Recording raw word ends and checking length and repeats after the walk:
//!   14% fewer instructions, the same time.
//! - Checking for a word's end with a branch: costs 10%.
//! - Two boards' walks interleaved a path at a time: 0–3%, within the noise.
//! - The child's "has children" flag kept in its parent (a 12-byte node):
//!   twice the second-level misses, 0–8% slower.
//! - Prefetching the children of every path the vector walk pushes: 280,000
//!   boards/s against 318,000.
//!
//! # Limits
//!
//! 1. The fast walker needs a board of at most 64 cells (a `u64` path) whose
//!    `Q` cells are all `Qu` or all plain `Q`.
//! 2. Words are A–Z only; a dictionary entry with any other byte is skipped
//!    when the dictionary loads.
//! 3. `score_letters` needs the fast walker (it declines the boards that
//!    need the general one).

use crate::cpu::prefetch;
use crate::face::Face;
use crate::neighbours::Neighbours;
use crate::rules::{Grid, SearchRules};
use crate::trie::{Node, Trie};
use crate::vector;

/// The most steps (paths taken up, cells entered) one board's search may
/// take. Real boards take a few thousand (4x4) to a few hundred thousand
/// (10x10, a large list): see README's "Reliability" for the measured margin.
/// Only crafted input comes near it (a 5x5 board of `A`s with the word of 25
/// `A`s has more paths than could be walked in a lifetime); a search that
/// reaches it stops, and [`Searcher::exhausted`] says its words are incomplete.
pub const STEP_BUDGET: u64 = 50_000_000;

/// A search that reached [`STEP_BUDGET`]: its words may be incomplete.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exhausted;

impl std::fmt::Display for Exhausted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the board's search passed its limit of {STEP_BUDGET} steps \
             (no real board comes near it: is the board or the word list made up?)"
        )
    }
}

impl std::error::Error for Exhausted {}

/// One word found on a board: its last trie node and its length in letters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Found {
    /// The trie node where the word ends (identifies the word).
    pub node: u32,
    /// The word's length in letters.
    pub len: u32,
}

impl Found {
    /// This record in one `u64`: the node in the low half, the length above.
    #[inline(always)]
    fn pack(self) -> u64 {
        u64::from(self.node) | u64::from(self.len) << 32
    }

    /// The record packed by [`Found::pack`].
    fn unpack(slot: u64) -> Found {
        Found {
            node: slot as u32,
            len: (slot >> 32) as u32,
        }
    }
}

/// The count and total score of a board's words.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Distinct words.
    pub words: u32,
    /// Their points together.
    pub score: u32,
}

/// A reusable searcher for one trie and one set of rules. Keeps its scratch
/// space between boards, so searching many boards allocates nothing per board.
#[derive(Clone, Debug)]
pub struct Searcher<'t> {
    trie: &'t Trie,
    rules: SearchRules,
    neighbours: Neighbours,
    /// `neighbour_masks[cell]`: the cells a path may step to from `cell`, as bits
    /// (only for boards of at most 64 cells).
    neighbour_masks: Vec<u64>,
    /// The words found on the last board.
    found: Vec<Found>,
    /// One bit per trie node, set while that node's word is in `found`: a
    /// word reached along several paths is recorded once. The bits are cleared
    /// from `found` after each board, so nothing is swept per board.
    seen: Vec<u64>,
    points: Vec<u32>,
    /// The fast walk's record of words: a slot for every word of the trie
    /// and one more, so recording a word never needs room checked. Each slot
    /// packs a [`Found`] into a `u64` so the buffer can start as untouched
    /// zeroed pages.
    slots: Vec<u64>,
    /// The fast walk's paths waiting to be extended.
    pending: Box<[Pending; STACK]>,
    /// For [`Searcher::score_letters`]: one mask per trie node of the letters
    /// of the open cell under which that node's word was found (bit 26: under
    /// every letter). Empty until first needed; all zero between searches.
    letter_masks: Vec<u32>,
    /// Steps the last search took (at most [`STEP_BUDGET`]).
    steps: u64,
    /// The board shape for the vector walk, where it can take the shape
    /// and the processor can run it, and its scratch space (made on first use).
    vector: Option<vector::Shape>,
    vector_scratch: Option<vector::Scratch>,
}

impl<'t> Searcher<'t> {
    /// A searcher over `trie` under `rules`.
    pub fn new(trie: &'t Trie, rules: impl Into<SearchRules>) -> Searcher<'t> {
        let rules: SearchRules = rules.into();
        let mut searcher = Searcher {
            trie,
            rules,
            neighbours: Neighbours::new(0, 0, rules.moves),
            neighbour_masks: Vec::new(),
            found: Vec::with_capacity(1024),
            seen: vec![0; trie.len().div_ceil(64)],
            points: Vec::new(),
            slots: vec![0; trie.words() + 1],
            pending: Box::new([Pending::default(); STACK]),
            letter_masks: Vec::new(),
            steps: 0,
            vector: None,
            vector_scratch: None,
        };
        searcher.set_shape(rules.rows, rules.cols);
        searcher
    }

    /// Every word on `board`, each once, in trie order.
    pub fn find(&mut self, board: &(impl Grid + ?Sized)) -> &[Found] {
        self.search(board);
        self.found.sort_unstable_by_key(|f| f.node);
        &self.found
    }

    /// The total score of every word on `board`.
    pub fn score(&mut self, board: &(impl Grid + ?Sized)) -> u32 {
        self.tally(board).score
    }

    /// How many distinct words `board` holds and what they score together.
    pub fn tally(&mut self, board: &(impl Grid + ?Sized)) -> Tally {
        self.search(board);
        Tally {
            words: self.found.len() as u32,
            score: self.total(),
        }
    }

    /// Whether the last search stopped at [`STEP_BUDGET`], so its words may
    /// be incomplete (only crafted boards and dictionaries get there).
    pub fn exhausted(&self) -> bool {
        self.steps >= STEP_BUDGET
    }

    /// How many steps the last search took.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// The points of the words found on the last board.
    fn total(&mut self) -> u32 {
        let longest = self.found.iter().map(|f| f.len as usize).max().unwrap_or(0);
        self.cover_points(longest);
        self.found.iter().map(|f| self.points[f.len as usize]).sum()
    }

    /// Makes the table of points by word length reach words of `longest` letters.
    fn cover_points(&mut self, longest: usize) {
        if longest >= self.points.len() {
            self.points = (0..=longest.max(32))
                .map(|n| self.rules.word_score(n))
                .collect();
        }
    }

    fn set_shape(&mut self, rows: usize, cols: usize) {
        self.neighbours = Neighbours::new(rows, cols, self.rules.moves);
        self.neighbour_masks.clear();
        if rows * cols <= 64 {
            self.neighbour_masks.extend((0..rows * cols).map(|cell| {
                self.neighbours
                    .of(cell)
                    .iter()
                    .fold(0u64, |mask, &next| mask | 1 << next)
            }));
        }
        // The vector walk has no cap on word length.
        self.vector = match self.rules.max_len {
            None => vector::Shape::new(&self.neighbour_masks),
            Some(_) => None,
        };
    }

    /// The total score of a board given as its faces, row-major, without
    /// building a [`Grid`] (for callers scoring many variations of one
    /// board). A `faces` slice of the wrong length scores 0.
    pub fn score_faces(&mut self, rows: usize, cols: usize, faces: &[Face]) -> u32 {
        if rows.checked_mul(cols) != Some(faces.len()) {
            return 0;
        }
        self.search_faces(rows, cols, faces);
        self.total()
    }

    fn search(&mut self, board: &(impl Grid + ?Sized)) {
        self.search_faces(board.rows(), board.cols(), board.faces());
    }

    fn search_faces(&mut self, rows: usize, cols: usize, faces: &[Face]) {
        if !self.neighbours.is_for(rows, cols, self.rules.moves) {
            self.set_shape(rows, cols);
        }
        self.forget_found();
        self.steps = 0;
        if self.trie.is_empty() {
            return;
        }
        if self.search_vector(faces) {
            return;
        }
        match FastBoard::new(faces, &self.neighbour_masks, self.rules.max_len, None) {
            Some(fast) => self.search_fast(&fast, faces.len(), |walk, cells, pending| {
                walk.run::<false>(cells, pending)
            }),
            None => self.search_general(faces),
        }
    }

    /// Forgets the last search's words: clears their bits in `seen` (whole
    /// words of it, cheaper than sweeping the set) and the list.
    fn forget_found(&mut self) {
        for f in &self.found {
            self.seen[f.node as usize / 64] = 0;
        }
        self.found.clear();
    }

    /// Walks the board `faces` with the vector walk and puts its words in
    /// `found`; `false` (with nothing found or marked seen) where the vector
    /// walk cannot take it.
    fn search_vector(&mut self, faces: &[Face]) -> bool {
        let Some(shape) = self
            .vector
            .as_ref()
            .filter(|shape| shape.cells() == faces.len())
        else {
            return false;
        };
        let Some(board) = vector_board(faces) else {
            return false;
        };
        let scratch = self.vector_scratch.get_or_insert_with(Default::default);
        let (trie, min_len) = (self.trie, self.rules.min_len as u32);
        let (seen, slots) = (&mut self.seen, &mut self.slots);
        let mut count = 0;
        // Without a branch on whether a candidate is new (as `FastWalk::record`).
        let mut record = |nodes: &[u32]| {
            for &node in nodes {
                let len = trie.depth(node);
                let (word, bit) = (node as usize / 64, 1u64 << (node % 64));
                let fresh = (len >= min_len) & (seen[word] & bit == 0);
                seen[word] |= bit * u64::from(fresh);
                slots[count] = Found { node, len }.pack();
                count += usize::from(fresh);
            }
        };
        let outcome = vector::walk(shape, trie, &board, scratch, STEP_BUDGET, &mut record);
        self.found.clear();
        self.found
            .extend(self.slots[..count].iter().map(|&slot| Found::unpack(slot)));
        match outcome {
            Some(vector::Outcome::Done(steps)) => self.steps = steps,
            Some(vector::Outcome::Exhausted) => self.steps = STEP_BUDGET,
            None => {
                self.forget_found();
                return false;
            }
        }
        true
    }

    /// The total score of the board `faces` (row-major) with cell `open`
    /// showing each letter in turn: `scores[0]` with `A` there, up to
    /// `scores[25]` with `Z` (`Q` is the `Qu` face when `qu`). One walk
    /// serves all 26 boards: the paths that avoid the open cell are walked
    /// once, and only those through it once per letter, so it costs about
    /// what 3 or 4 boards do. `None` when the fast walk cannot take the board
    /// (see "Limits": more than 64 cells, faces other than letters and `Qu`,
    /// a `Q` face unlike `qu`, a length cap) or its search passed
    /// [`STEP_BUDGET`]: score the boards one by one then.
    pub fn score_letters(
        &mut self,
        rows: usize,
        cols: usize,
        faces: &[Face],
        open: usize,
        qu: bool,
    ) -> Option<[u32; 26]> {
        if rows.checked_mul(cols) != Some(faces.len()) || open >= faces.len() {
            return None;
        }
        if !self.neighbours.is_for(rows, cols, self.rules.moves) {
            self.set_shape(rows, cols);
        }
        self.forget_found();
        self.steps = 0;
        let fast = FastBoard::new(
            faces,
            &self.neighbour_masks,
            self.rules.max_len,
            Some((open, qu)),
        )?;
        if self.letter_masks.len() != self.trie.len() {
            self.letter_masks = vec![0; self.trie.len()];
        }
        let mut walk = FastWalk {
            nodes: self.trie.nodes(),
            board: &fast,
            min_len: self.rules.min_len as u32,
            seen: &mut self.seen,
            letter_masks: &mut self.letter_masks,
            slots: &mut self.slots,
            count: 0,
            budget: STEP_BUDGET,
        };
        walk.run::<true>(faces.len(), &mut self.pending);
        let count = walk.count;
        self.steps = STEP_BUDGET - walk.budget;
        let longest = self.slots[..count]
            .iter()
            .map(|&slot| Found::unpack(slot).len as usize)
            .max()
            .unwrap_or(0);
        self.cover_points(longest);
        let (mut every, mut scores) = (0, [0u32; 26]);
        for &slot in &self.slots[..count] {
            let found = Found::unpack(slot);
            let points = self.points[found.len as usize];
            let mask = std::mem::take(&mut self.letter_masks[found.node as usize]);
            if mask & ANY_LETTER != 0 {
                every += points;
                continue;
            }
            let mut letters = mask;
            while letters != 0 {
                scores[letters.trailing_zeros() as usize] += points;
                letters &= letters - 1;
            }
        }
        if self.exhausted() {
            return None;
        }
        Some(scores.map(|score| score + every))
    }

    /// Walks `board` (of `cells` cells) with the fast walk `run` and puts its
    /// words in `found`.
    fn search_fast(
        &mut self,
        board: &FastBoard,
        cells: usize,
        run: impl FnOnce(&mut FastWalk, usize, &mut [Pending; STACK]),
    ) {
        let mut walk = FastWalk {
            nodes: self.trie.nodes(),
            board,
            min_len: self.rules.min_len as u32,
            seen: &mut self.seen,
            letter_masks: &mut [],
            slots: &mut self.slots,
            count: 0,
            budget: STEP_BUDGET,
        };
        run(&mut walk, cells, &mut self.pending);
        let count = walk.count;
        self.steps = STEP_BUDGET - walk.budget;
        self.found.clear();
        self.found
            .extend(self.slots[..count].iter().map(|&slot| Found::unpack(slot)));
    }

    fn search_general(&mut self, faces: &[Face]) {
        let mut walk = Walk {
            trie: self.trie,
            neighbours: &self.neighbours,
            faces,
            min_len: self.rules.min_len,
            max_len: self.rules.max_len.unwrap_or(usize::MAX),
            found: Sink::new(&mut self.found),
            seen: &mut self.seen,
            budget: STEP_BUDGET,
        };
        if faces.len() <= 64 {
            let mut visited = 0u64;
            for cell in 0..faces.len() {
                walk.enter(&mut visited, cell, Trie::ROOT, 0);
            }
        } else {
            let mut visited = BitSet(vec![0; faces.len().div_ceil(64)]);
            for cell in 0..faces.len() {
                walk.enter(&mut visited, cell, Trie::ROOT, 0);
            }
        }
        let left = walk.budget;
        drop(walk);
        self.steps = STEP_BUDGET - left;
    }
}

/// The board `faces` for the vector walk: at most [`vector::MAX_CELLS`]
/// cells of single letters and `Qu`, its `Q` cells all `Qu` or all plain.
fn vector_board(faces: &[Face]) -> Option<vector::Board> {
    if faces.len() > vector::MAX_CELLS {
        return None;
    }
    let mut board = vector::Board {
        letters: [0; vector::MAX_CELLS],
        qu: false,
    };
    let mut plain_q = false;
    for (letter, face) in board.letters.iter_mut().zip(faces) {
        *letter = match face.as_bytes() {
            [letter] => {
                plain_q |= *letter == b'Q';
                u32::from(letter - b'A')
            }
            [b'Q', b'U'] => {
                board.qu = true;
                u32::from(b'Q' - b'A')
            }
            _ => return None,
        };
    }
    (!(board.qu && plain_q)).then_some(board)
}

/// A board of at most 64 cells of single letters and `Qu`, ready for the fast walk.
struct FastBoard {
    /// `cells_of[letter]`: the cells showing that letter (`Q` for `Qu`), as bits.
    cells_of: [u64; 26],
    /// `neighbours[cell]`: the cells a path may step to from `cell`, as bits.
    neighbours: [u64; 64],
    /// `near_letters[cell]`: the letters shown next to `cell`, as bits (A = bit 0).
    near_letters: [u32; 64],
    /// `letters[cell]`: the letter the cell shows, 0 = A (`Q` for `Qu`).
    letters: [u8; 64],
    /// Whether `Q` cells show `Qu`.
    qu: bool,
    /// The open cell of [`Searcher::score_letters`], as a bit (0 for none):
    /// it shows every letter at once.
    open: u64,
}

impl FastBoard {
    /// `None` when the board needs the general walker. With `open`, that
    /// cell (whatever its face) shows every letter, `Q` as `Qu` when asked.
    fn new(
        faces: &[Face],
        neighbour_masks: &[u64],
        max_len: Option<usize>,
        open: Option<(usize, bool)>,
    ) -> Option<FastBoard> {
        if faces.len() > 64 || neighbour_masks.len() != faces.len() {
            return None;
        }
        // A length cap below the longest possible path needs the general walker's check.
        if max_len.is_some_and(|max| max < faces.len() * 2) {
            return None;
        }
        let mut board = FastBoard {
            cells_of: [0; 26],
            neighbours: [0; 64],
            near_letters: [0; 64],
            letters: [0; 64],
            qu: false,
            open: 0,
        };
        let mut plain_q = false;
        for (cell, face) in faces.iter().enumerate() {
            if open.is_some_and(|(open, _)| open == cell) {
                continue;
            }
            let letter = match face.as_bytes() {
                [letter] => {
                    plain_q |= *letter == b'Q';
                    letter - b'A'
                }
                [b'Q', b'U'] => {
                    board.qu = true;
                    b'Q' - b'A'
                }
                _ => return None,
            };
            board.letters[cell] = letter;
            board.cells_of[usize::from(letter)] |= 1 << cell;
        }
        // One letter code stands for Q or Qu, so a board needs all of one kind.
        if board.qu && plain_q {
            return None;
        }
        if let Some((open, qu)) = open {
            if (qu && plain_q) || (!qu && board.qu) {
                return None;
            }
            board.qu = qu;
            board.open = 1 << open;
            for cells in &mut board.cells_of {
                *cells |= board.open;
            }
        }
        board.neighbours[..faces.len()].copy_from_slice(neighbour_masks);
        for (cell, &mask) in neighbour_masks.iter().enumerate() {
            let mut near = mask;
            while near != 0 {
                let next = near.trailing_zeros() as usize;
                near &= near - 1;
                board.near_letters[cell] |= if board.open & 1 << next != 0 {
                    EVERY_LETTER
                } else {
                    1 << board.letters[next]
                };
            }
        }
        Some(board)
    }
}

/// The fast walk over one board.
struct FastWalk<'a> {
    nodes: &'a [Node],
    board: &'a FastBoard,
    min_len: u32,
    seen: &'a mut [u64],
    /// The letters of the open cell each word was found under (see
    /// [`Searcher::letter_masks`]); empty unless a cell is open.
    letter_masks: &'a mut [u32],
    /// Where words are recorded: one slot per word of the trie and one more.
    slots: &'a mut [u64],
    /// How many words `slots` holds.
    count: usize,
    /// Steps left before the walk gives up.
    budget: u64,
}

impl FastWalk<'_> {
    /// Walks every path of the board, with the processor's bit-counting
    /// instructions where it has them (`popcnt` finds a child's index in one
    /// instruction instead of a dozen).
    /// With `OPEN`, the board's open cell shows every letter and each word
    /// is recorded with the letters it was found under.
    fn run<const OPEN: bool>(&mut self, cells: usize, pending: &mut [Pending; STACK]) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
        {
            // SAFETY: the features `run_bmi` is compiled for were just detected.
            unsafe { self.run_bmi::<OPEN>(cells, pending) };
            return;
        }
        self.run_portable::<OPEN>(cells, pending);
    }

    /// Steps from `node` to its child for `letter` (through `U` as well for a
    /// `Qu` cell) and returns the child, its index and the word's length, if
    /// the trie has that child.
    #[inline(always)]
    fn step(&self, node: Node, letter: u8, len: u32) -> Option<(Node, u32, u32)> {
        let mut index = node.child(letter)?;
        let mut len = len + 1;
        if self.board.qu && letter == b'Q' - b'A' {
            // The Qu face: the U must follow the Q in the trie too.
            index = self.nodes[index as usize].child(b'U' - b'A')?;
            len += 1;
        }
        Some((self.nodes[index as usize], index, len))
    }

    /// Records the word that ends at `child` (trie node `index`, `len`
    /// letters), if one does and it is new.
    #[inline(always)]
    fn record(&mut self, child: Node, index: u32, len: u32) {
        // Whether a word ends here is as good as random, so it is recorded
        // without a branch: a mispredicted branch costs more than the stores.
        // The slot is written every time and kept only for a new word; the
        // count never passes the number of words, so the slot always exists.
        let (word, bit) = (index as usize / 64, 1u64 << (index % 64));
        let seen = self.seen[word];
        let fresh = child.is_word() & (len >= self.min_len) & (seen & bit == 0);
        self.seen[word] = seen | (bit * u64::from(fresh));
        self.slots[self.count] = Found { node: index, len }.pack();
        self.count += usize::from(fresh);
    }

    /// As [`FastWalk::record`] on a board with an open cell: the word is
    /// found with `letter` in the open cell (0 = A; [`ANY`]: on a path that
    /// avoids it). A word gets one slot, at its first finding.
    #[inline(always)]
    fn record_open(&mut self, child: Node, index: u32, len: u32, letter: u8) {
        let old = self.letter_masks[index as usize];
        let word = child.is_word() & (len >= self.min_len);
        self.letter_masks[index as usize] = old | (u32::from(word) << letter);
        self.slots[self.count] = Found { node: index, len }.pack();
        self.count += usize::from(word & (old == 0));
    }

    /// Issues a load of the cache line where `node`'s children start: they are
    /// needed when a path through `node` is taken off the stack, and the
    /// paths pushed before it give the load time to arrive.
    #[inline(always)]
    fn prefetch_children(&self, node: Node) {
        prefetch(self.nodes.as_ptr().wrapping_add(node.first() as usize));
    }
}

/// A path waiting on the fast walk's stack: it ends at `cell` (with `visited`
/// the cells before it) and has reached trie node `node` after `len` letters;
/// `open` is the letter it took in the open cell, [`ANY`] if it has not been there.
#[derive(Clone, Copy, Debug, Default)]
struct Pending {
    visited: u64,
    node: u32,
    cell: u8,
    len: u8,
    open: u8,
}

/// The letter code of a path that does not pass through the open cell: its
/// word is on the board whatever that cell shows.
const ANY: u8 = 26;
/// [`ANY`] as a bit of a letter mask.
const ANY_LETTER: u32 = 1 << ANY;
/// Every letter A–Z as bits.
const EVERY_LETTER: u32 = (1 << 26) - 1;

/// Room for every path the fast walk can have waiting. Each path taken off
/// the stack puts back at most one per neighbour (8), or with an open cell
/// one per other neighbour (7) and one per letter into the open cell (26),
/// and a path has at most 64 cells, so 64 x 33 paths at most wait at once. A
/// power of two, so indexing needs no bounds check.
const STACK: usize = 4096;

/// Defines the walk twice over: once portable, once compiled for extra
/// instructions, chosen at run time by [`FastWalk::run`].
macro_rules! walker {
    ($run:ident $(, $features:literal)?) => {
        impl FastWalk<'_> {
            /// Walks every path from every cell, depth first with a stack of
            /// waiting paths. A path is written to the stack and kept (the
            /// stack pointer moved) only if some neighbour of its cell shows a
            /// letter that continues a word: that test is as good as random,
            /// so it is done without a branch. With `OPEN`, the open cell
            /// takes every letter and each path carries the one it took.
            $(#[target_feature(enable = $features)])?
            fn $run<const OPEN: bool>(&mut self, cells: usize, pending: &mut [Pending; STACK]) {
                let root = self.nodes[Trie::ROOT as usize];
                let board = self.board;
                // A local copy stays in a register through the walk.
                let mut budget = self.budget;
                'walk: for start in 0..cells.min(64) {
                    let open_start = OPEN && board.open & 1 << start != 0;
                    let mut firsts = if open_start { root.letters() } else { 1 << board.letters[start] };
                    while firsts != 0 {
                        let first = firsts.trailing_zeros() as u8;
                        firsts &= firsts - 1;
                        let Some((node, index, len)) = self.step(root, first, 0) else {
                            continue;
                        };
                        let tag = if open_start { first } else { ANY };
                        if OPEN {
                            self.record_open(node, index, len, tag);
                        } else {
                            self.record(node, index, len);
                        }
                        pending[0] = Pending { visited: 0, node: index, cell: start as u8, len: len as u8, open: tag };
                        let mut top = usize::from(node.letters() & board.near_letters[start] != 0);
                        while top > 0 {
                            if budget == 0 {
                                break 'walk;
                            }
                            budget -= 1;
                            top -= 1;
                            let path = pending[top & (STACK - 1)];
                            let (cell, node) = (usize::from(path.cell) & 63, self.nodes[path.node as usize]);
                            let visited = path.visited | 1 << cell;
                            let open = board.neighbours[cell] & !visited;
                            let mut letters = node.letters() & board.near_letters[cell];
                            while letters != 0 {
                                let letter = letters.trailing_zeros() as u8;
                                letters &= letters - 1;
                                let mut cells = open & board.cells_of[usize::from(letter)];
                                if cells == 0 {
                                    continue;
                                }
                                let Some((child, index, len)) = self.step(node, letter, u32::from(path.len)) else {
                                    continue;
                                };
                                if OPEN {
                                    // The word is found along paths through the
                                    // open cell, through others, or both.
                                    if cells & !board.open != 0 {
                                        self.record_open(child, index, len, path.open);
                                    }
                                    if cells & board.open != 0 {
                                        self.record_open(child, index, len, letter);
                                    }
                                } else {
                                    self.record(child, index, len);
                                }
                                self.prefetch_children(child);
                                let onward = child.letters();
                                while cells != 0 {
                                    let next = cells.trailing_zeros() as usize & 63;
                                    cells &= cells - 1;
                                    let tag = if OPEN && board.open & 1 << next != 0 { letter } else { path.open };
                                    pending[top & (STACK - 1)] = Pending { visited, node: index, cell: next as u8, len: len as u8, open: tag };
                                    top += usize::from(onward & board.near_letters[next] != 0);
                                }
                            }
                        }
                    }
                }
                self.budget = budget;
            }
        }
    };
}

walker!(run_portable);
#[cfg(target_arch = "x86_64")]
walker!(run_bmi, "popcnt,bmi1,bmi2");

/// Where a walk writes the words it finds: a buffer of slots that only
/// grows, and the count of words kept in it. Dropping the sink cuts the buffer
/// to the words kept.
struct Sink<'a> {
    buffer: &'a mut Vec<Found>,
    count: usize,
}

impl<'a> Sink<'a> {
    fn new(buffer: &'a mut Vec<Found>) -> Sink<'a> {
        buffer.clear();
        Sink { buffer, count: 0 }
    }

    /// Writes `found` in the next slot, and keeps it only if `keep`:
    /// branch-free on `keep`, whose outcome the processor cannot predict.
    /// The same slot idiom as the fast walk, with no `unsafe`.
    #[inline(always)]
    fn push_if(&mut self, found: Found, keep: bool) {
        if self.count == self.buffer.len() {
            let grown = self.buffer.len() * 2 + 256;
            self.buffer.resize(grown, Found::default());
        }
        self.buffer[self.count] = found;
        self.count += usize::from(keep);
    }
}

impl Drop for Sink<'_> {
    fn drop(&mut self) {
        self.buffer.truncate(self.count);
    }
}

/// The set of cells on the current path.
trait Visited {
    fn contains(&self, cell: usize) -> bool;
    fn insert(&mut self, cell: usize);
    fn remove(&mut self, cell: usize);
}

impl Visited for u64 {
    #[inline]
    fn contains(&self, cell: usize) -> bool {
        *self & (1 << cell) != 0
    }
    #[inline]
    fn insert(&mut self, cell: usize) {
        *self |= 1 << cell;
    }
    #[inline]
    fn remove(&mut self, cell: usize) {
        *self &= !(1 << cell);
    }
}

/// Visited cells of a board larger than 64 cells.
struct BitSet(Vec<u64>);

impl Visited for BitSet {
    fn contains(&self, cell: usize) -> bool {
        self.0[cell / 64] & (1 << (cell % 64)) != 0
    }
    fn insert(&mut self, cell: usize) {
        self.0[cell / 64] |= 1 << (cell % 64);
    }
    fn remove(&mut self, cell: usize) {
        self.0[cell / 64] &= !(1 << (cell % 64));
    }
}

/// The state of one board's search, borrowed from its `Searcher`.
struct Walk<'a> {
    trie: &'a Trie,
    neighbours: &'a Neighbours,
    faces: &'a [Face],
    min_len: usize,
    max_len: usize,
    found: Sink<'a>,
    seen: &'a mut [u64],
    /// Steps left before the walk gives up.
    budget: u64,
}

impl Walk<'_> {
    /// Extends the path ending at trie node `node` (of `len` letters) into `cell`.
    fn enter<V: Visited>(&mut self, visited: &mut V, cell: usize, node: u32, len: usize) {
        if self.budget == 0 {
            return;
        }
        self.budget -= 1;
        let face = self.faces[cell];
        let Some((node, here)) = spell(self.trie, node, face) else {
            return;
        };
        let len = len + face.len();
        if here.is_word() && len >= self.min_len && len <= self.max_len {
            let (word, bit) = (node as usize / 64, 1u64 << (node % 64));
            let fresh = self.seen[word] & bit == 0;
            self.seen[word] |= bit;
            self.found.push_if(
                Found {
                    node,
                    len: len as u32,
                },
                fresh,
            );
        }
        if !here.has_children() || len >= self.max_len {
            return;
        }
        visited.insert(cell);
        for &next in self.neighbours.of(cell) {
            let next = usize::from(next);
            if !visited.contains(next) {
                self.enter(visited, next, node, len);
            }
        }
        visited.remove(cell);
    }
}

/// Follows a face's letters down from `node`; `None` if no word continues that
/// way (a blank face has no letters and always ends the path).
#[inline]
fn spell(trie: &Trie, node: u32, face: Face) -> Option<(u32, Node)> {
    let letters = face.as_bytes();
    if letters.is_empty() {
        return None;
    }
    let mut at = node;
    for &letter in letters {
        at = trie.node(at).child(letter - b'A')?;
    }
    Some((at, trie.node(at)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{MoveRule, Scoring};
    use crate::testing::{Letters, course_trie, grid_of, rng};

    /// Classic rules (8 neighbours, Qu) on a rows x cols board.
    fn classic(rows: usize, cols: usize) -> SearchRules {
        SearchRules::standard(rows, cols)
    }

    /// Spec 004's rules (no going up, plain Q) on a rows x cols board.
    fn project4(rows: usize, cols: usize) -> SearchRules {
        SearchRules {
            moves: MoveRule::NoUp,
            scoring: Scoring::PROJECT4,
            qu: false,
            ..SearchRules::standard(rows, cols)
        }
    }

    /// The words the fast walk records on `faces` with the walk `run`.
    fn walk_with(
        run: impl FnOnce(&mut FastWalk, usize, &mut [Pending; STACK]),
        trie: &Trie,
        rules: &SearchRules,
        faces: &[Face],
    ) -> Vec<Found> {
        let mut searcher = Searcher::new(trie, rules);
        let board = FastBoard::new(faces, &searcher.neighbour_masks, None, None)
            .expect("single letters and Qu on at most 64 cells");
        searcher.search_fast(&board, faces.len(), run);
        let mut found = searcher.found;
        found.sort_unstable();
        found
    }

    /// Scores the board `faces` with each letter in `open`, one board at a time.
    fn one_by_one(
        searcher: &mut Searcher,
        rules: &SearchRules,
        faces: &[Face],
        open: usize,
    ) -> [u32; 26] {
        let mut faces = faces.to_vec();
        std::array::from_fn(|letter| {
            faces[open] = Face::letter(b'A' + letter as u8)
                .expect("a letter")
                .with_qu(rules.qu);
            searcher.score_faces(rules.rows, rules.cols, &faces)
        })
    }

    /// One walk with an open cell scores what the 26 boards score one by
    /// one, for every cell, on boards of every shape the fast walk takes,
    /// under 3+ and 4+ letters, with and without `Qu`, and the no-up rule.
    #[test]
    fn an_open_cell_scores_each_letter_as_its_own_board_does() {
        let trie = course_trie();
        let mut rng = rng(7);
        for (rules, letters) in [
            (classic(4, 4), Letters::Dice),
            (classic(5, 5), Letters::Dice),
            (classic(3, 5), Letters::Frequency),
            (project4(4, 4), Letters::Frequency),
            (classic(4, 4), Letters::Dice),
        ] {
            let (rows, cols) = (rules.rows, rules.cols);
            let mut rules = rules;
            for min_len in [3, 4] {
                rules.min_len = min_len;
                let mut searcher = Searcher::new(trie, rules);
                for _ in 0..4 {
                    let faces = letters.roll(rows * cols, rules.qu, &mut rng);
                    for open in 0..faces.len() {
                        let expected = one_by_one(&mut searcher, &rules, &faces, open);
                        let got = searcher.score_letters(rows, cols, &faces, open, rules.qu);
                        assert_eq!(got, Some(expected), "{rules:?} {open}");
                    }
                }
            }
        }
    }

    /// Boards the fast walk cannot take, an open cell off the board, and a
    /// `Q` face unlike the open cell's `Q`, are left to one-by-one scoring.
    #[test]
    fn an_open_cell_declines_what_the_fast_walk_cannot_take() {
        let rules = classic(4, 4);
        let mut searcher = Searcher::new(course_trie(), rules);
        let faces = |letters: &str, qu: bool| -> Vec<Face> {
            letters
                .bytes()
                .filter_map(Face::letter)
                .map(|f| f.with_qu(qu))
                .collect()
        };
        let board = faces("ABCDEFGHIJKLMNOP", true);
        assert!(searcher.score_letters(4, 4, &board, 16, true).is_none());
        assert!(searcher.score_letters(4, 5, &board, 0, true).is_none());
        let with_qu = faces("QBCDEFGHIJKLMNOP", true);
        assert!(searcher.score_letters(4, 4, &with_qu, 3, false).is_none());
        assert!(searcher.score_letters(4, 4, &with_qu, 3, true).is_some());
        // The open cell's own face does not count, Qu or not.
        assert!(searcher.score_letters(4, 4, &with_qu, 0, false).is_some());
        let big = faces(&"ABCDEFGHIJ".repeat(9), false);
        assert!(searcher.score_letters(9, 10, &big, 0, false).is_none());
    }

    /// The vector walk finds what the bitmask walk finds (the same words,
    /// lengths and steps budget outcome), on boards of every shape it takes
    /// (1 to 32 cells), under both move rules, 1 to 4 letters, with and
    /// without `Qu`. Skipped where the processor cannot run it.
    #[test]
    fn the_vector_walk_finds_what_the_bitmask_walk_finds() {
        if !vector::available() {
            eprintln!("no AVX-512 here: the vector walk is not run");
            return;
        }
        let trie = course_trie();
        let mut rng = rng(11);
        for (rules, letters) in [
            (classic(4, 4), Letters::Dice),
            (classic(5, 5), Letters::Dice),
            (classic(4, 8), Letters::Frequency),
            (classic(1, 1), Letters::Frequency),
            (classic(2, 3), Letters::Frequency),
            (project4(4, 4), Letters::Frequency),
        ] {
            let (rows, cols) = (rules.rows, rules.cols);
            let mut rules = rules;
            for min_len in 1..=4 {
                rules.min_len = min_len;
                let mut fast = Searcher::new(trie, rules);
                let mut bitmask = Searcher::new(trie, rules);
                assert!(fast.vector.is_some(), "{rows}x{cols} takes the vector walk");
                bitmask.vector = None;
                for qu in [true, false] {
                    for _ in 0..20 {
                        let board = grid_of(rows, cols, letters.roll(rows * cols, qu, &mut rng));
                        let words = fast.find(&board).to_vec();
                        assert_eq!(words, bitmask.find(&board), "{rules:?} {board:?}");
                        assert!(!fast.exhausted());
                    }
                }
            }
        }
    }

    /// The portable walk is not the one this machine runs, so it is checked
    /// against the one that is, on boards of 16, 25 and 64 cells with Qu.
    #[test]
    fn the_portable_walk_finds_what_the_fast_one_finds() {
        let trie = course_trie();
        let mut rng = rng(4);
        for (letters, side) in [
            (Letters::Dice, 4),
            (Letters::Dice, 5),
            (Letters::Frequency, 8),
        ] {
            let rules = classic(side, side);
            for _ in 0..50 {
                let faces = letters.roll(side * side, true, &mut rng);
                let portable = walk_with(
                    |w, c, p| w.run_portable::<false>(c, p),
                    trie,
                    &rules,
                    &faces,
                );
                // With an open cell too: the same words under its own letter.
                let open = rand::Rng::random_range(&mut rng, 0..faces.len());
                let opened = |run: fn(&mut FastWalk, usize, &mut [Pending; STACK])| {
                    let mut searcher = Searcher::new(trie, rules);
                    searcher.letter_masks = vec![0; trie.len()];
                    let board =
                        FastBoard::new(&faces, &searcher.neighbour_masks, None, Some((open, true)))
                            .expect("single letters and Qu on at most 64 cells");
                    let mut walk = FastWalk {
                        nodes: trie.nodes(),
                        board: &board,
                        min_len: rules.min_len as u32,
                        seen: &mut searcher.seen,
                        letter_masks: &mut searcher.letter_masks,
                        slots: &mut searcher.slots,
                        count: 0,
                        budget: STEP_BUDGET,
                    };
                    run(&mut walk, faces.len(), &mut searcher.pending);
                    let count = walk.count;
                    let mut found: Vec<(u64, u32)> = searcher.slots[..count]
                        .iter()
                        .map(|&slot| {
                            (
                                slot,
                                searcher.letter_masks[Found::unpack(slot).node as usize],
                            )
                        })
                        .collect();
                    found.sort_unstable();
                    found
                };
                assert_eq!(
                    opened(|w, c, p| w.run_portable::<true>(c, p)),
                    opened(|w, c, p| w.run::<true>(c, p))
                );
                assert!(!portable.is_empty());
                assert_eq!(
                    portable,
                    walk_with(|w, c, p| w.run::<false>(c, p), trie, &rules, &faces)
                );
            }
        }
    }
}
