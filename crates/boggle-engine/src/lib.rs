//! The search engine under every Boggle mode: the prefix trie, the neighbour
//! tables, the walks that find every word on a board, where one given word
//! lies on a board, and hot code compiled for the processor's vector
//! instructions.
//!
//! It stands alone: it knows boards only as faces in a grid ([`Grid`]) and
//! rules only as what the search applies ([`SearchRules`]); dice, presets,
//! word files and games live above it. It is the only place in the project
//! with `unsafe` code (in `search`, `vector` and `cpu`, each block with the
//! reason it is sound, and each `unsafe fn` with a `# Safety` section).
//!
//! ```
//! use boggle_engine::{Face, SearchRules, search::Searcher, trie::Trie};
//!
//! let trie = Trie::from_sorted(&[b"EAT", b"TEA", b"TEN"]);
//! let faces: Vec<Face> = b"TENA".iter().filter_map(|&b| Face::letter(b)).collect();
//! let mut searcher = Searcher::new(&trie, SearchRules::standard(2, 2));
//! assert_eq!(searcher.score_faces(2, 2, &faces), 3);
//! ```

pub mod cpu;
mod face;
pub mod neighbours;
pub mod path;
pub mod rules;
pub mod search;
pub mod trie;
mod vector;

pub use face::{Face, QReads};
pub use rules::{Grid, MAX_CELLS, MoveRule, Scoring, SearchRules};

#[cfg(test)]
pub(crate) mod testing {
    //! Boards and a word list for the engine's own tests.
    use std::sync::OnceLock;

    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use crate::trie::Trie;
    use crate::{Face, Grid, QReads};

    /// The course's word list (the repository's `words.txt`), as a trie.
    pub(crate) fn course_trie() -> &'static Trie {
        static TRIE: OnceLock<Trie> = OnceLock::new();
        TRIE.get_or_init(|| Trie::from_words(include_str!("../../../words.txt").lines()))
    }

    /// A seeded random number generator.
    pub(crate) fn rng(seed: u64) -> ChaCha8Rng {
        ChaCha8Rng::seed_from_u64(seed)
    }

    /// The 1987 dice, with `Qu` written `Q`.
    const DICE: [&str; 16] = [
        "AAEEGN", "ABBJOO", "ACHOPS", "AFFKPS", "AOOTTW", "CIMOTU", "DEILRX", "DELRVY", "DISTTY",
        "EEGHNW", "EEINSU", "EHRTVW", "EIOSST", "ELRTTY", "HIMNQU", "HLNNRZ",
    ];

    /// Letters roughly as often as English uses them.
    const FREQUENT: &str = "AAAAAAAABBCCCDDDDEEEEEEEEEEEEFFGGHHHHHHIIIIIIIJKLLLLMMNNNNNNNOOOOOOOOPPQRRRRRRSSSSSSTTTTTTTTTUUUVWWXYYZ";

    /// Where a random board's letters come from.
    #[derive(Clone, Copy, Debug)]
    pub(crate) enum Letters {
        /// Each cell a face of one of the 1987 dice (cell `i` rolls die `i % 16`).
        Dice,
        /// Each cell a letter drawn by rough English frequency.
        Frequency,
    }

    impl Letters {
        /// `cells` random faces, each `Q` read as `q` says.
        pub(crate) fn roll(self, cells: usize, q: QReads, rng: &mut ChaCha8Rng) -> Vec<Face> {
            (0..cells)
                .map(|cell| {
                    let letters = match self {
                        Letters::Dice => DICE[cell % DICE.len()].as_bytes(),
                        Letters::Frequency => FREQUENT.as_bytes(),
                    };
                    let letter = letters[rng.random_range(0..letters.len())];
                    Face::letter(letter).map_or(Face::BLANK, |f| f.with_q(q))
                })
                .collect()
        }
    }

    /// A rows x cols board of `faces`.
    pub(crate) fn grid_of(rows: usize, cols: usize, faces: Vec<Face>) -> TestGrid {
        TestGrid { rows, cols, faces }
    }

    /// A board of faces in a grid.
    #[derive(Debug)]
    pub(crate) struct TestGrid {
        pub(crate) rows: usize,
        pub(crate) cols: usize,
        pub(crate) faces: Vec<Face>,
    }

    impl Grid for TestGrid {
        fn rows(&self) -> usize {
            self.rows
        }
        fn cols(&self) -> usize {
            self.cols
        }
        fn faces(&self) -> &[Face] {
            &self.faces
        }
    }

    /// A rows x cols board of single letters, each `Q` read as `q` says.
    pub(crate) fn grid(letters: &str, rows: usize, cols: usize, q: QReads) -> TestGrid {
        let faces: Vec<Face> = letters
            .bytes()
            .filter_map(Face::letter)
            .map(|f| f.with_q(q))
            .collect();
        assert_eq!(
            faces.len(),
            rows * cols,
            "{letters} is a {rows}x{cols} board"
        );
        TestGrid { rows, cols, faces }
    }
}
