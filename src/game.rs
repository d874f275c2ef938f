//! The design's `Game`: one board, its words and maximum score, and a
//! player's guesses (score, incorrect count). No I/O: the console and TUI
//! modes drive it and print what it says.

use std::collections::BTreeSet;
use std::sync::Arc;

use ahash::AHashSet;
use rand::RngCore;

use crate::dice::DiceSet;
use crate::dictionary::Dictionary;
use crate::die::Die;
use crate::game_board::{BoardError, GameBoard};
use crate::random;
use crate::rules::Rules;
use crate::word_find::WordFind;

/// One game: a board, every word it holds, and the player's progress.
#[derive(Clone, Debug)]
pub struct Game {
    board: GameBoard,
    rules: Rules,
    dictionary: Arc<Dictionary>,
    all_words: BTreeSet<String>,
    total_points: u32,
    /// Correct guesses only: wrong ones are counted, never stored, so a stream
    /// of a million bad guesses costs no memory.
    guessed: AHashSet<String>,
    score: u32,
    incorrect: u32,
}

impl Default for Game {
    fn default() -> Self {
        Game::new()
    }
}

impl Game {
    /// A random board from spec 004's dice, with the default dictionary.
    pub fn new() -> Game {
        Game::random(&WordFind::new(), &mut random::from_entropy())
    }

    /// A game on the 16 letters given (row-major, any case), with the default dictionary.
    pub fn with_dice_rolls(letters: &str) -> Result<Game, BoardError> {
        Ok(Game::from_board(GameBoard::new(letters)?, &WordFind::new()))
    }

    /// A repeatable random game: the same seed always gives the same board.
    pub fn with_seed(seed: u64) -> Game {
        Game::random(&WordFind::new(), &mut random::seeded(seed))
    }

    /// A game on `board` under the finder's rules and dictionary.
    pub fn from_board(board: GameBoard, word_find: &WordFind) -> Game {
        let all_words = word_find.get_all_words(&board);
        let rules = word_find.rules().clone();
        let total_points = points_for_set(&rules, &all_words);
        Game {
            board,
            rules,
            dictionary: Arc::clone(word_find.dictionary()),
            all_words,
            total_points,
            guessed: AHashSet::new(),
            score: 0,
            incorrect: 0,
        }
    }

    /// A game on a board rolled from the rules' dice with `rng`.
    pub fn random<R: RngCore + ?Sized>(word_find: &WordFind, rng: &mut R) -> Game {
        Game::from_board(random_board(word_find.rules(), rng), word_find)
    }

    /// A game with `dictionary` shared and spec 004's rules, on a random board.
    pub fn with_dictionary<R: RngCore + ?Sized>(dictionary: Arc<Dictionary>, rng: &mut R) -> Game {
        Game::random(&WordFind::with_dictionary(dictionary), rng)
    }

    /// Spec 004's 16 dice, shuffled into the 16 positions.
    pub fn init_dice<R: RngCore + ?Sized>(rng: &mut R) -> Vec<Die> {
        let mut dice = DiceSet::Project4.dice();
        random::shuffle(rng, &mut dice);
        dice
    }

    /// Rolls each die and returns the faces' letters as one string.
    pub fn get_all_dice_values<R: RngCore + ?Sized>(dice: &[Die], rng: &mut R) -> String {
        dice.iter()
            .map(|die| die.roll_face(rng).as_str().to_owned())
            .collect()
    }

    /// The board, as rows of letters.
    pub fn show_board(&self) -> String {
        self.board.show_board()
    }

    /// Scores `word` (any case) if it is a valid word not guessed before and
    /// returns true. A repeat returns false and is not held against the
    /// player; any other wrong guess returns false and counts as incorrect.
    pub fn guess(&mut self, word: &str) -> bool {
        let word = word.to_ascii_uppercase();
        if !self.is_valid_guess(&word) {
            self.incorrect += 1;
            return false;
        }
        if !self.new_word(&word) {
            return false;
        }
        self.score += self.get_word_score(&word);
        self.guessed.insert(word);
        true
    }

    /// Whether `word` (any case) is one of the board's words.
    pub fn is_valid_guess(&self, word: &str) -> bool {
        self.all_words.contains(word.to_ascii_uppercase().as_str())
    }

    /// Whether `word` (any case) has not been guessed correctly before.
    pub fn new_word(&self, word: &str) -> bool {
        !self.guessed.contains(word.to_ascii_uppercase().as_str())
    }

    /// Points `word` is worth by its length under the game's rules.
    pub fn get_word_score(&self, word: &str) -> u32 {
        self.rules.word_score(word.len())
    }

    /// Total points of a set of words.
    pub fn get_points_for_set(&self, word_list: &BTreeSet<String>) -> u32 {
        points_for_set(&self.rules, word_list)
    }

    /// Points scored so far.
    pub fn get_score(&self) -> u32 {
        self.score
    }

    /// Wrong guesses so far (repeats of a correct word are not counted).
    pub fn get_incorrect_guesses(&self) -> u32 {
        self.incorrect
    }

    /// Points a player would score by finding every word.
    pub fn get_total_points_possible(&self) -> u32 {
        self.total_points
    }

    /// Every valid word, ascending, each followed by a newline.
    pub fn get_all_words(&self) -> String {
        self.all_words
            .iter()
            .flat_map(|w| [w.as_str(), "\n"])
            .collect()
    }

    /// Every valid word, ascending.
    pub fn words(&self) -> &BTreeSet<String> {
        &self.all_words
    }

    /// Whether the player has found every point on the board (and there were points to find).
    pub fn is_complete(&self) -> bool {
        self.total_points > 0 && self.score == self.total_points
    }

    /// The board.
    pub fn board(&self) -> &GameBoard {
        &self.board
    }

    /// The rules in force.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The dictionary the board's words come from.
    pub fn dictionary(&self) -> &Dictionary {
        &self.dictionary
    }

    /// Every valid word in end-screen order (common first where the word list
    /// has levels, then more points, then A-Z), each with whether it is rare.
    pub fn words_by_commonness(&self) -> Vec<(&str, bool)> {
        self.dictionary
            .by_commonness(self.all_words.iter().map(String::as_str), |word| {
                self.rules.word_score(word.len())
            })
    }
}

/// A board rolled from the dice (or letter frequencies) the rules name.
pub fn random_board<R: RngCore + ?Sized>(rules: &Rules, rng: &mut R) -> GameBoard {
    // Rules are plain data; a shape no board can have is clamped rather than
    // trusted, but any shape a board can have (1x4096 too) is kept.
    let cells = rules.rows.saturating_mul(rules.cols);
    let fits = rules.rows >= 1 && rules.cols >= 1 && cells <= crate::game_board::MAX_CELLS;
    let (rows, cols) = if fits {
        (rules.rows, rules.cols)
    } else {
        (rules.rows.clamp(1, 64), rules.cols.clamp(1, 64))
    };
    let faces = rules.dice.roll(rows * cols, rules.qu, rng);
    GameBoard::from_rolled(rows, cols, faces)
}

fn points_for_set(rules: &Rules, words: &BTreeSet<String>) -> u32 {
    words.iter().map(|w| rules.word_score(w.len())).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(words: &[&str], letters: &str) -> Game {
        let find = WordFind::with_dictionary(Arc::new(Dictionary::from_words(words)));
        Game::from_board(GameBoard::new(letters).expect("16 letters"), &find)
    }

    #[test]
    fn guesses_score_once_and_count_wrong_ones() {
        let mut g = game(&["EAT", "BAT", "LAB", "NAG"], "BENHLAUMITLZRGAN");
        assert_eq!(g.get_total_points_possible(), 3);
        assert!(g.guess("eat"));
        assert!(!g.guess("EAT"), "a repeat scores nothing");
        assert_eq!(g.get_incorrect_guesses(), 0, "a repeat is not incorrect");
        assert!(!g.guess("LAB"));
        assert_eq!(g.get_incorrect_guesses(), 1);
        assert_eq!(g.get_score(), 1);
        assert_eq!(g.get_all_words(), "BAT\nEAT\nNAG\n");
        assert!(g.guess("bat") && g.guess("NAG") && g.is_complete());
    }

    #[test]
    fn random_boards_keep_any_shape_a_board_can_have() {
        let mut rules = Rules::preset(crate::rules::Preset::Algs4);
        for (rows, cols) in [(1, 100), (100, 1), (1, 4096), (3, 7)] {
            (rules.rows, rules.cols) = (rows, cols);
            let board = random_board(&rules, &mut random::seeded(1));
            assert_eq!((board.rows(), board.cols()), (rows, cols));
        }
        (rules.rows, rules.cols) = (0, 5000);
        let board = random_board(&rules, &mut random::seeded(1));
        assert_eq!((board.rows(), board.cols()), (1, 64));
    }

    #[test]
    fn seeded_games_repeat() {
        let find = WordFind::with_dictionary(Arc::new(Dictionary::from_words(["CAT"])));
        let a = Game::random(&find, &mut random::seeded(11));
        let b = Game::random(&find, &mut random::seeded(11));
        assert_eq!(a.show_board(), b.show_board());
    }
}
