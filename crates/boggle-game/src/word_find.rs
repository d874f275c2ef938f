//! The design's `WordFind`: every word a board holds under a set of rules.
//! `get_all_words` runs the fast engine in [`boggle_engine::search`];
//! `append_dfs_words` is the design's readable backtracking helper, kept as a
//! second, independent implementation that the tests hold the engine to.

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::dictionary::Dictionary;
use crate::game_board::GameBoard;
use crate::rules::{MoveRule, Rules};
use boggle_engine::neighbours::Neighbours;
use boggle_engine::search::{Exhausted, Searcher};

/// Finds all words on a board with one dictionary and one set of rules.
///
/// ```
/// use std::sync::Arc;
/// use boggle_game::{Dictionary, GameBoard, WordFind};
///
/// let words = Dictionary::from_words(["EAT", "BAT", "NAG", "LAB", "ZIT"]);
/// let find = WordFind::with_dictionary(Arc::new(words));
/// let board = GameBoard::new("BENHLAUMITLZRGAN").unwrap();
/// // LAB goes up a row and ZIT wraps around: neither counts under spec 004.
/// let found: Vec<String> = find.get_all_words(&board).into_iter().collect();
/// assert_eq!(found, ["BAT", "EAT", "NAG"]);
/// // Without the no-up rule, LAB is there too.
/// assert!(find.with_no_up(false).get_all_words(&board).contains("LAB"));
/// ```
#[derive(Clone, Debug)]
pub struct WordFind {
    dictionary: Arc<Dictionary>,
    rules: Rules,
}

impl Default for WordFind {
    fn default() -> Self {
        WordFind::new()
    }
}

impl WordFind {
    /// Spec 004's finder: the default dictionary (loaded once per process) and the no-up rule.
    pub fn new() -> WordFind {
        WordFind::with_rules(Dictionary::shared_default(), Rules::project4())
    }

    /// A finder over a shared dictionary with spec 004's rules.
    pub fn with_dictionary(dictionary: Arc<Dictionary>) -> WordFind {
        WordFind::with_rules(dictionary, Rules::project4())
    }

    /// A finder over a shared dictionary with any rules.
    pub fn with_rules(dictionary: Arc<Dictionary>, rules: Rules) -> WordFind {
        WordFind { dictionary, rules }
    }

    /// The same finder with the no-up rule switched on or off (off: all 8 neighbours).
    pub fn with_no_up(mut self, no_up: bool) -> WordFind {
        self.rules.moves = if no_up {
            MoveRule::NoUp
        } else {
            MoveRule::EightNeighbours
        };
        self
    }

    /// The rules in force.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The dictionary in use.
    pub fn dictionary(&self) -> &Arc<Dictionary> {
        &self.dictionary
    }

    /// A reusable engine for searching many boards with this finder's dictionary and rules.
    pub fn searcher(&self) -> Searcher<'_> {
        Searcher::new(self.dictionary.trie(), &self.rules)
    }

    /// Every valid word on `board`, upper case, ascending.
    /// (A search past its step budget, on crafted input only, returns the
    /// words found until then: see [`WordFind::all_words_checked`].)
    pub fn get_all_words(&self, board: &GameBoard) -> BTreeSet<String> {
        self.search_words(board).0
    }

    /// Every valid word on `board`, or [`Exhausted`] if the search passed its
    /// step budget (only crafted boards and word lists do) and may have missed some.
    pub fn all_words_checked(&self, board: &GameBoard) -> Result<BTreeSet<String>, Exhausted> {
        match self.search_words(board) {
            (words, false) => Ok(words),
            (_, true) => Err(Exhausted),
        }
    }

    /// The words the engine finds on `board`, and whether it ran out of steps.
    fn search_words(&self, board: &GameBoard) -> (BTreeSet<String>, bool) {
        let trie = self.dictionary.trie();
        let mut searcher = self.searcher();
        let words = searcher
            .find(board)
            .iter()
            .map(|f| trie.word(f.node))
            .collect();
        (words, searcher.exhausted())
    }

    /// The design's recursive helper: adds to `found_words` every valid word that
    /// starts with `string_prefix` and continues at `current_cell` (row-major),
    /// never reusing a cell marked in `already_chosen`. Slower than
    /// `get_all_words` (it spells strings and asks the dictionary at each step).
    pub fn append_dfs_words(
        &self,
        board: &GameBoard,
        string_prefix: &mut String,
        found_words: &mut BTreeSet<String>,
        already_chosen: &mut [bool],
        current_cell: usize,
    ) {
        let neighbours = Neighbours::new(board.rows(), board.cols(), self.rules.moves);
        self.append_with(
            &neighbours,
            board,
            string_prefix,
            found_words,
            already_chosen,
            current_cell,
        );
    }

    fn append_with(
        &self,
        neighbours: &Neighbours,
        board: &GameBoard,
        prefix: &mut String,
        found: &mut BTreeSet<String>,
        chosen: &mut [bool],
        cell: usize,
    ) {
        let Some(face) = board.faces().get(cell) else {
            return;
        };
        if face.is_empty() || chosen.get(cell).is_none_or(|&c| c) {
            return;
        }
        let before = prefix.len();
        prefix.push_str(face.as_str());
        if self.dictionary.is_prefix(prefix) {
            if self.rules.allows_len(prefix.len()) && self.dictionary.is_word(prefix) {
                found.insert(prefix.clone());
            }
            chosen[cell] = true;
            for &next in neighbours.of(cell) {
                self.append_with(neighbours, board, prefix, found, chosen, usize::from(next));
            }
            chosen[cell] = false;
        }
        prefix.truncate(before);
    }

    /// The total points of every word on `board`.
    pub fn total_points(&self, board: &GameBoard) -> u32 {
        self.searcher().score(board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::face::QReads;

    fn finder(words: &[&str], rules: Rules) -> WordFind {
        WordFind::with_rules(Arc::new(Dictionary::from_words(words)), rules)
    }

    fn dfs_words(find: &WordFind, board: &GameBoard) -> BTreeSet<String> {
        let mut found = BTreeSet::new();
        let mut chosen = vec![false; board.faces().len()];
        for cell in 0..board.faces().len() {
            find.append_dfs_words(board, &mut String::new(), &mut found, &mut chosen, cell);
        }
        found
    }

    #[test]
    fn no_up_rule_on_the_spec_board() {
        let words = ["EAT", "BAT", "NAG", "ZIT", "LAB", "GRIT", "TAN", "BE"];
        let board = GameBoard::new("BENHLAUMITLZRGAN").expect("16 letters");
        let find = finder(&words, Rules::project4());
        let got: Vec<String> = find.get_all_words(&board).into_iter().collect();
        assert_eq!(got, ["BAT", "EAT", "NAG", "TAN"]);
        assert_eq!(dfs_words(&find, &board), find.get_all_words(&board));
        let free = find.clone().with_no_up(false);
        let got: Vec<String> = free.get_all_words(&board).into_iter().collect();
        assert_eq!(got, ["BAT", "EAT", "GRIT", "LAB", "NAG", "TAN"]);
    }

    #[test]
    fn qu_counts_two_letters() {
        let mut rules = Rules::preset(crate::rules::Preset::Classic);
        rules.rows = 2;
        rules.cols = 2;
        let board = GameBoard::from_letters("QITS", 2, 2, QReads::Qu).expect("4 cells");
        let find = finder(&["QUIT", "QUITS", "QIS", "ITS", "SIT"], rules);
        let got: Vec<String> = find.get_all_words(&board).into_iter().collect();
        assert_eq!(got, ["ITS", "QUIT", "QUITS", "SIT"]);
        assert_eq!(find.total_points(&board), 1 + 1 + 2 + 1);
        assert_eq!(dfs_words(&find, &board), find.get_all_words(&board));
    }
}
