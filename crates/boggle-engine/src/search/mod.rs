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
//! processor has AVX2 or AVX-512 (it steps a path into all its neighbours
//! at once, eight paths at a time, and is about twice as fast as the
//! next). The bitmask walk serves every board of at most 64 cells whose
//! faces are single letters or `Qu` (all the standard games).
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
//! 5x5 boards it costs 3.5 boards' steps. On boards of at most 25 cells it
//! runs on the vector walk (`vector::walk_open`) where the processor has
//! AVX2 or AVX-512, else on the bitmask walk. [`Searcher::score_moves`] is
//! the same vector walk, also scoring the open cell swapped with each of a
//! set of cells: one walk for every board a climb reaches from that cell.
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
//!   the words found, not swept. A searcher dropped leaves its two big
//!   buffers (a bit per trie node, a slot per word) to the next one made on
//!   the same thread for a trie of the same size, so code that makes one per
//!   board (a game per round, in every room of a server) does not zero a
//!   megabyte each time.
//!
//! What was tried and dropped is in `docs/notebook/` (the engine files).
//!
//! # Limits
//!
//! 1. The fast walker needs a board of at most 64 cells (a `u64` path) whose
//!    `Q` cells are all `Qu` or all plain `Q`.
//! 2. Words are A–Z only; a dictionary entry with any other byte is skipped
//!    when the dictionary loads.
//! 3. `score_letters` needs the fast walker (it declines the boards that
//!    need the general one).

use crate::cpu::{Lacks, Simd, prefetch};
use crate::face::{Face, QReads};
use crate::neighbours::Neighbours;
use crate::rules::{Grid, SearchRules};
use crate::trie::Trie;
use crate::vector;

mod bitmask;
mod general;

use bitmask::{ANY_LETTER, EVERY_LETTER, FastBoard, FastWalk, Pending, STACK};
use general::{BitSet, Sink, Walk};

/// The most steps (paths taken up, cells entered) one board's search may
/// take. Real boards take a few thousand (4x4) to a few hundred thousand
/// (10x10, a large list): see docs/GUIDE.md, "Reliability", for the measured margin.
/// Only crafted input comes near it (a 5x5 board of `A`s with the word of 25
/// `A`s has more paths than could be walked in a lifetime); a search that
/// reaches it stops, and [`Searcher::exhausted`] says its words are incomplete.
pub const STEP_BUDGET: u64 = 50_000_000;

/// How many candidates ahead the open walk's records, and words ahead its
/// sums, ask for a word's entry in `under` (and its node).
const LOOK_AHEAD: usize = 16;

/// A search that reached [`STEP_BUDGET`]: its words may be incomplete.
///
/// Its `Display` and `Error` are written by hand, not derived with
/// `thiserror` as every other crate's errors are: the engine keeps zero
/// dependencies, and one unit struct does not need a derive.
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

/// What an open walk found one word under, kept side by side because both
/// are read and written together, word by word: the letters of the open
/// cell (bit 26: under every letter) and the partners whose swap boards
/// hold the word.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Under {
    /// The open cell's letters, as bits.
    pub(super) letters: u32,
    /// The partners, as bits.
    pub(super) partners: u32,
}

/// What [`Searcher::score_moves`] gives: the score of each board one move
/// from a board at its anchor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveScores {
    /// `letters[i]`: the score with the anchor showing letter `i` (0 = A).
    pub letters: [u32; 26],
    /// `swaps[b]`: the score with the anchor swapped with cell `b`, for each
    /// `b` of `partners` (0 elsewhere).
    pub swaps: [u32; 32],
    /// The partners whose swaps were scored, as bits: those asked for whose
    /// face differs from the anchor's.
    pub partners: u32,
}

/// The count and total score of a board's words.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Distinct words.
    pub words: u32,
    /// Their points together.
    pub score: u32,
}

/// The big buffers of the last [`Searcher`] dropped on this thread, for the
/// next one made here: `seen` (all zero) and `slots` (never read before
/// written), as long as a slot per dictionary word.
struct Spare {
    seen: Vec<u64>,
    slots: Vec<u64>,
}

thread_local! {
    static SPARE: std::cell::RefCell<Option<Spare>> = const { std::cell::RefCell::new(None) };
}

/// The spare buffers of this thread if they fit a trie of `seen` words of
/// bits and `slots` slots, else new zeroed ones.
fn buffers(seen: usize, slots: usize) -> (Vec<u64>, Vec<u64>) {
    let spare = SPARE
        .try_with(|spare| spare.try_borrow_mut().ok().and_then(|mut s| s.take()))
        .ok()
        .flatten()
        .filter(|spare| spare.seen.len() == seen && spare.slots.len() == slots);
    match spare {
        Some(spare) => (spare.seen, spare.slots),
        None => (vec![0; seen], vec![0; slots]),
    }
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
    /// `points[len]`: a word of `len` letters' points, for every length in the trie.
    points: Vec<u32>,
    /// The fast walk's record of words: a slot for every word of the trie
    /// and one more, so recording a word never needs room checked. Each slot
    /// packs a [`Found`] into a `u64` so the buffer can start as untouched
    /// zeroed pages.
    slots: Vec<u64>,
    /// The fast walk's paths waiting to be extended.
    pending: Box<[Pending; STACK]>,
    /// For the open walks: what each trie node's word was found under.
    /// Empty until first needed; all zero between searches.
    under: Vec<Under>,
    /// Steps the last search took (at most [`STEP_BUDGET`]).
    steps: u64,
    /// The board shape for the vector walk, where it can take the shape
    /// and the processor can run it, and its scratch space (made on first use).
    vector: Option<vector::Shape>,
    vector_scratch: Option<vector::Scratch>,
    /// The lanes the vector walk runs on ([`Simd::None`]: the bitmask walk).
    simd: Simd,
}

impl Drop for Searcher<'_> {
    /// Leaves the big buffers to the thread's next searcher, `seen` swept
    /// whole (a bit per trie node: a few percent of the slots' bytes), so
    /// it is clean however the last search ended.
    fn drop(&mut self) {
        self.seen.fill(0);
        let spare = Spare {
            seen: std::mem::take(&mut self.seen),
            slots: std::mem::take(&mut self.slots),
        };
        let _ = SPARE.try_with(|cell| {
            if let Ok(mut kept) = cell.try_borrow_mut() {
                *kept = Some(spare);
            }
        });
    }
}

impl<'t> Searcher<'t> {
    /// A searcher over `trie` under `rules`.
    pub fn new(trie: &'t Trie, rules: impl Into<SearchRules>) -> Searcher<'t> {
        let rules: SearchRules = rules.into();
        let (seen, slots) = buffers(trie.len().div_ceil(64), trie.words() + 1);
        let mut searcher = Searcher {
            trie,
            rules,
            neighbours: Neighbours::new(0, 0, rules.moves),
            neighbour_masks: Vec::new(),
            found: Vec::with_capacity(1024),
            seen,
            // Every length a word of the trie can have: one pass sums a board.
            points: (0..=trie.longest()).map(|n| rules.word_score(n)).collect(),
            slots,
            pending: Box::new([Pending::default(); STACK]),
            under: Vec::new(),
            steps: 0,
            vector: None,
            vector_scratch: None,
            simd: crate::cpu::simd(),
        };
        searcher.set_shape(rules.rows, rules.cols);
        searcher
    }

    /// Makes this searcher walk on the lanes of `simd` (the default is
    /// `cpu::simd`'s level): [`Simd::None`] for the bitmask walk.
    /// The same words and scores whichever it is; a level the processor
    /// lacks is refused.
    pub fn set_simd(&mut self, simd: Simd) -> Result<(), Lacks> {
        self.simd = crate::cpu::check(simd, Simd::present)?;
        self.set_vector();
        Ok(())
    }

    /// The lanes this searcher's vector walk runs on.
    #[cfg(test)]
    pub(crate) fn simd(&self) -> Simd {
        self.simd
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
    fn total(&self) -> u32 {
        self.found.iter().map(|f| self.points[f.len as usize]).sum()
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
        self.set_vector();
    }

    /// The vector walk's shape for the board's neighbours, if it takes them.
    fn set_vector(&mut self) {
        // The vector walk has no cap on word length.
        self.vector = match self.rules.max_len {
            None => vector::Shape::new(&self.neighbour_masks, self.simd),
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
        let Some(board) = vector_board(faces, None) else {
            return false;
        };
        let scratch = self.vector_scratch.get_or_insert_with(Default::default);
        let (trie, min_len) = (self.trie, self.rules.min_len as u32);
        let (seen, slots) = (&mut self.seen, &mut self.slots);
        let mut count = 0;
        // Without a branch on whether a candidate is new (as `FastWalk::record`).
        let mut record = |nodes: &[u32]| {
            // Counted in a local: the captured `count` lives in memory, and
            // adding to it there chained every candidate to the last.
            let mut n = count;
            for &node in nodes {
                let len = trie.depth(node);
                let (word, bit) = (node as usize / 64, 1u64 << (node % 64));
                let fresh = (len >= min_len) & (seen[word] & bit == 0);
                seen[word] |= bit * u64::from(fresh);
                slots[n] = Found { node, len }.pack();
                n += usize::from(fresh);
            }
            count = n;
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
    /// `scores[25]` with `Z` (`Q` is the `Qu` face under [`QReads::Qu`]). One walk
    /// serves all 26 boards: the paths that avoid the open cell are walked
    /// once, and only those through it once per letter, so it costs about
    /// what 6 boards do on the vector walk (on the best 5x5 boards; 10 on
    /// the bitmask walk). `None` when the fast walk cannot take the board
    /// (see "Limits": more than 64 cells, faces other than letters and `Qu`,
    /// a `Q` face unlike `q`, a length cap) or its search passed
    /// [`STEP_BUDGET`]: score the boards one by one then.
    pub fn score_letters(
        &mut self,
        rows: usize,
        cols: usize,
        faces: &[Face],
        open: usize,
        q: QReads,
    ) -> Option<[u32; 26]> {
        self.start_open(rows, cols, faces, open)?;
        let fast = FastBoard::new(
            faces,
            &self.neighbour_masks,
            self.rules.max_len,
            Some((open, q)),
        )?;
        self.ready_under();
        let whole = vector::Open {
            cell: open,
            own: 0,
            partners: 0,
        };
        let count = match self.open_vector(faces, whole, q) {
            Some(count) => count,
            None => {
                let mut walk = FastWalk {
                    nodes: self.trie.nodes(),
                    board: &fast,
                    min_len: self.rules.min_len as u32,
                    seen: &mut self.seen,
                    under: &mut self.under,
                    slots: &mut self.slots,
                    count: 0,
                    budget: STEP_BUDGET,
                };
                walk.run::<true>(faces.len(), &mut self.pending);
                self.steps = STEP_BUDGET - walk.budget;
                walk.count
            }
        };
        let scores = self.sum_open(count, |_, _| {});
        (!self.exhausted()).then_some(scores)
    }

    /// The scores of every board one move from `faces` (row-major) at cell
    /// `anchor`, in one walk: the anchor showing each letter, as
    /// [`Searcher::score_letters`] gives them, and the anchor swapped with
    /// each cell of `partners` (as bits) whose face differs from its own.
    /// A swap costs only the paths through its partner that read it as the
    /// anchor's letter, not a board's walk. `None` where the vector walk
    /// cannot take the board (no AVX2, above 25 cells, faces other than
    /// letters and `Qu`, a `Q` face unlike `q`, a length cap) or past
    /// [`STEP_BUDGET`]: score the boards otherwise then.
    pub fn score_moves(
        &mut self,
        rows: usize,
        cols: usize,
        faces: &[Face],
        anchor: usize,
        q: QReads,
        partners: u32,
    ) -> Option<MoveScores> {
        self.start_open(rows, cols, faces, anchor)?;
        // The checks of the open walk: the board's `Q` faces read as `q` says.
        FastBoard::new(
            faces,
            &self.neighbour_masks,
            self.rules.max_len,
            Some((anchor, q)),
        )?;
        let own = match (faces[anchor].as_bytes(), q) {
            ([b'Q'], QReads::Q) | ([b'Q', b'U'], QReads::Qu) => b'Q' - b'A',
            ([letter @ b'A'..=b'Z'], _) if *letter != b'Q' => letter - b'A',
            _ => return None,
        };
        let partners = (0..faces.len().min(32))
            .filter(|&cell| partners >> cell & 1 == 1 && faces[cell] != faces[anchor])
            .fold(0u32, |bits, cell| bits | 1 << cell);
        self.ready_under();
        let open = vector::Open {
            cell: anchor,
            own: u32::from(own),
            partners,
        };
        let count = self.open_vector(faces, open, q)?;
        let mut swaps = [0u32; 32];
        let letters = self.sum_open(count, |found_on, points| {
            // Every partner's lane, without a branch: a word lies on most
            // partners' swap boards, and a loop over its bits added to the
            // same few slots in memory one word after another.
            for (partner, score) in swaps.iter_mut().enumerate() {
                *score += points & u32::from(found_on & 1 << partner != 0).wrapping_neg();
            }
        });
        (!self.exhausted()).then_some(MoveScores {
            letters,
            swaps,
            partners,
        })
    }

    /// Readies an open-cell walk of a rows x cols board at `cell`: the
    /// shape's neighbours, nothing found, no steps taken. `None` where the
    /// faces do not fill the shape or the cell is off the board.
    fn start_open(&mut self, rows: usize, cols: usize, faces: &[Face], cell: usize) -> Option<()> {
        if rows.checked_mul(cols) != Some(faces.len()) || cell >= faces.len() {
            return None;
        }
        if !self.neighbours.is_for(rows, cols, self.rules.moves) {
            self.set_shape(rows, cols);
        }
        self.forget_found();
        self.steps = 0;
        Some(())
    }

    /// One entry of `under` per trie node, all zero.
    fn ready_under(&mut self) {
        if self.under.len() != self.trie.len() {
            self.under = vec![Under::default(); self.trie.len()];
        }
    }

    /// Sums the open walk's `count` words (in `slots`, what they were found
    /// under in `under`, which it clears) into the score of each letter in
    /// the open cell, handing `each` every word's partners and points too.
    fn sum_open(&mut self, count: usize, mut each: impl FnMut(u32, u32)) -> [u32; 26] {
        let (mut every, mut scores) = (0, [0u32; 26]);
        let slots = &self.slots[..count];
        for (index, &slot) in slots.iter().enumerate() {
            // Both loads below miss the cache (as the walk's records do).
            if let Some(&later) = slots.get(index + LOOK_AHEAD) {
                let later = Found::unpack(later).node as usize;
                prefetch(self.under.as_ptr().wrapping_add(later));
                prefetch(self.trie.nodes().as_ptr().wrapping_add(later));
            }
            let node = Found::unpack(slot).node;
            // Of every word kept, too short or not (0 points then).
            let points = self.points[self.trie.depth(node) as usize];
            let under = std::mem::take(&mut self.under[node as usize]);
            each(under.partners, points);
            let mask = under.letters;
            if mask & ANY_LETTER != 0 {
                every += points;
                continue;
            }
            let mut letters = mask & EVERY_LETTER;
            while letters != 0 {
                scores[letters.trailing_zeros() as usize] += points;
                letters &= letters - 1;
            }
        }
        scores.map(|score| score + every)
    }

    /// The open walk of [`Searcher::score_letters`] and
    /// [`Searcher::score_moves`] on the vector walk: its words in `slots`,
    /// what they were found under in `under`, as the bitmask walk leaves
    /// them but with the words too short to count too (which
    /// [`Searcher::sum_open`] scores 0), and how many; `None` (with nothing
    /// left behind) where the vector walk cannot take the board. The
    /// board's `Q` faces were checked against `q` by the caller.
    fn open_vector(&mut self, faces: &[Face], open: vector::Open, q: QReads) -> Option<usize> {
        let shape = self
            .vector
            .as_ref()
            .filter(|shape| shape.cells() == faces.len())?;
        let mut board = vector_board(faces, Some(open.cell))?;
        board.q = q;
        let scratch = self.vector_scratch.get_or_insert_with(Default::default);
        let trie = self.trie;
        let (under, slots) = (&mut self.under, &mut self.slots);
        // `partners_of[letter]`: the partners showing it, those a path that
        // took that letter in the open cell may still swap with.
        let partners_of: [u32; 26] = std::array::from_fn(|letter| {
            (0..faces.len())
                .filter(|&cell| cell != open.cell && board.letters[cell] == letter as u32)
                .fold(0, |bits, cell| bits | 1 << cell)
                & open.partners
        });
        let mut count = 0;
        // As `FastWalk::record_open`: a word gets one slot, at its first
        // finding. Words too short to count are kept too, as `sum_open`
        // gives them no points: their lengths are looked up there, once a
        // word, not here once a path, where each was a load that missed.
        let mut record = |nodes: &[u32], paths: &[u32]| {
            // In locals: captured, the count and the buffers' addresses live
            // in memory, reloaded (and the count stored) every candidate.
            let (under, slots, mut n) = (&mut under[..], &mut slots[..], count);
            if open.partners == 0 {
                // The letters alone, without a branch on whether a word is new.
                for (&node, &path) in nodes.iter().zip(paths) {
                    let (state, _) = vector::split(path);
                    let entry = &mut under[node as usize];
                    let old = entry.letters;
                    entry.letters = old | 1 << state;
                    slots[n] = u64::from(node);
                    n += usize::from(old == 0);
                }
                count = n;
                return;
            }
            for (index, (&node, &path)) in nodes.iter().zip(paths).enumerate() {
                // Each candidate's entry is a load that misses the cache:
                // asking now for one further on lets those loads overlap.
                if let Some(&later) = nodes.get(index + LOOK_AHEAD) {
                    prefetch(under.as_ptr().wrapping_add(later as usize));
                }
                let (state, cells) = vector::split(path);
                let (letters, partners) = if vector::is_swapped(state) {
                    (0, 1 << (state & 31))
                } else {
                    let allowed = match state {
                        vector::ANY => open.partners,
                        letter => partners_of[letter as usize],
                    };
                    (1 << state, allowed & !cells)
                };
                let entry = &mut under[node as usize];
                let old = entry.letters | entry.partners;
                entry.letters |= letters;
                entry.partners |= partners;
                slots[n] = u64::from(node);
                n += usize::from(old == 0);
            }
            count = n;
        };
        let outcome =
            vector::walk_open(shape, trie, &board, open, scratch, STEP_BUDGET, &mut record);
        match outcome {
            Some(vector::Outcome::Done(steps)) => self.steps = steps,
            Some(vector::Outcome::Exhausted) => self.steps = STEP_BUDGET,
            None => {
                for &slot in &self.slots[..count] {
                    self.under[Found::unpack(slot).node as usize] = Under::default();
                }
                return None;
            }
        }
        Some(count)
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
            under: &mut [],
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
/// The face of an `open` cell is left out (it shows every letter; the
/// caller sets how `Q` reads there).
fn vector_board(faces: &[Face], open: Option<usize>) -> Option<vector::Board> {
    if faces.len() > vector::MAX_CELLS {
        return None;
    }
    let mut board = vector::Board {
        letters: [0; vector::MAX_CELLS],
        q: QReads::Q,
    };
    let mut plain_q = false;
    for (cell, (letter, face)) in board.letters.iter_mut().zip(faces).enumerate() {
        if open == Some(cell) {
            continue;
        }
        *letter = match face.as_bytes() {
            [letter] => {
                plain_q |= *letter == b'Q';
                u32::from(letter - b'A')
            }
            [b'Q', b'U'] => {
                board.q = QReads::Qu;
                u32::from(b'Q' - b'A')
            }
            _ => return None,
        };
    }
    (!(board.q == QReads::Qu && plain_q)).then_some(board)
}

#[cfg(test)]
mod tests;
