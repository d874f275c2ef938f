//! What the search needs to know of a game's rules: how a path may move, what
//! a word of each length scores, which lengths count and how `Q` reads, and a
//! board as the search sees it (its shape and faces, through [`Grid`]).
//!
//! These are the types every layer shares, so they live in the lowest crate
//! that needs them; the game's own `Rules` (dice, presets, word lists) adds
//! the rest above and hands the search its [`SearchRules`].

use crate::face::{Face, QReads};

/// The most cells a board may have: the general walk's neighbour table holds
/// cells as `u16`, and no game comes near it.
pub const MAX_CELLS: usize = 4096;

/// How the path of a word may move from one cell to the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveRule {
    /// Any of the 8 neighbours, no wrap-around (standard Boggle).
    EightNeighbours,
    /// Spec 004's variant: any neighbour in the same row or the row below, never up.
    NoUp,
}

/// Points for a word, by its length in letters (a `Qu` cell counts two).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scoring {
    /// `points[n]` for a word of `n` letters; words of 8 or more use `points[8]`.
    Table([u32; 9]),
    /// One point per letter beyond `n` (TDDD86: length − 3).
    LengthMinus(u32),
}

impl Scoring {
    /// Project 4: 3:1 4:1 5:2 6:3 7:4 8+:11.
    pub const PROJECT4: Scoring = Scoring::Table([0, 0, 0, 1, 1, 2, 3, 4, 11]);
    /// Standard Boggle, algs4 and ECE 209: 3–4:1 5:2 6:3 7:5 8+:11.
    pub const STANDARD: Scoring = Scoring::Table([0, 0, 0, 1, 1, 2, 3, 5, 11]);

    /// Points for a word of `letters` letters (before any minimum length applies).
    pub fn points(&self, letters: usize) -> u32 {
        match self {
            Scoring::Table(points) => points[letters.min(8)],
            Scoring::LengthMinus(n) => {
                u32::try_from(letters).map_or(u32::MAX, |len| len.saturating_sub(*n))
            }
        }
    }
}

/// The rules as the search applies them: the board's shape, the move rule,
/// the word lengths that count, their points, and whether `Q` is `Qu`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SearchRules {
    /// Board rows.
    pub rows: usize,
    /// Board columns.
    pub cols: usize,
    /// Fewest letters a word may have.
    pub min_len: usize,
    /// Most letters a word may have, if limited.
    pub max_len: Option<usize>,
    /// Points by word length.
    pub scoring: Scoring,
    /// How a path may move.
    pub moves: MoveRule,
    /// Whether a `Q` face means `Qu` (two letters).
    pub q: QReads,
}

impl SearchRules {
    /// Standard Boggle on a rows x cols board: 8 neighbours, 3+ letters
    /// scoring [`Scoring::STANDARD`], `Qu`.
    pub fn standard(rows: usize, cols: usize) -> SearchRules {
        SearchRules {
            rows,
            cols,
            min_len: 3,
            max_len: None,
            scoring: Scoring::STANDARD,
            moves: MoveRule::EightNeighbours,
            q: QReads::Qu,
        }
    }

    /// Number of cells on the board.
    pub fn cells(&self) -> usize {
        self.rows * self.cols
    }

    /// Whether a word of `letters` letters may count under these rules.
    pub fn allows_len(&self, letters: usize) -> bool {
        letters >= self.min_len && self.max_len.is_none_or(|max| letters <= max)
    }

    /// Points for a word of `letters` letters (0 if its length is not allowed).
    pub fn word_score(&self, letters: usize) -> u32 {
        if self.allows_len(letters) {
            self.scoring.points(letters)
        } else {
            0
        }
    }
}

impl From<&SearchRules> for SearchRules {
    fn from(rules: &SearchRules) -> SearchRules {
        *rules
    }
}

/// A board as the search reads it: rows x cols faces, row-major.
pub trait Grid {
    /// Board rows.
    fn rows(&self) -> usize;
    /// Board columns.
    fn cols(&self) -> usize;
    /// The faces, row-major (`rows * cols` of them).
    fn faces(&self) -> &[Face];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_by_length_within_the_allowed_lengths() {
        let mut rules = SearchRules::standard(4, 4);
        assert_eq!(
            (0..10).map(|n| rules.word_score(n)).collect::<Vec<_>>(),
            [0, 0, 0, 1, 1, 2, 3, 5, 11, 11]
        );
        rules.max_len = Some(5);
        rules.scoring = Scoring::LengthMinus(3);
        assert_eq!(rules.word_score(5), 2);
        assert_eq!(rules.word_score(6), 0);
    }
}
