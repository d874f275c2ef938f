//! The design's `Game`: one board, its words and maximum score, and a
//! player's guesses (score, incorrect count). It is the one judge of a guess:
//! [`Game::judge`] says what a word is worth or why it is not, in one check
//! order, for the console game, `versus`, the full-screen game and the
//! network game alike; [`Game::guess`] is the design's yes/no form of it.
//! It also plays the computer's side of a human-against-computer round. No
//! I/O: the modes drive it and print what it says.

use std::collections::BTreeSet;
use std::sync::Arc;

use ahash::AHashSet;
use rand::RngCore;

use crate::dice::DiceSet;
use crate::dictionary::{Dictionary, Level};
use crate::die::Die;
use crate::game_board::{BoardError, GameBoard};
use crate::random;
use crate::rules::{MoveRule, Rules};
use crate::word_find::WordFind;
use boggle_engine::path::{find_path, trace};
use boggle_engine::search::Exhausted;

/// What a guess earns, or why it earns nothing. Checked in spec 003's order:
/// length, dictionary, repeat, board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The word counts: its points and its path on the board (row-major cells).
    Accepted {
        /// Points scored.
        points: u32,
        /// The cells it uses, in order.
        path: Vec<usize>,
    },
    /// Fewer letters than the rules allow.
    TooShort {
        /// The fewest letters allowed.
        min: usize,
    },
    /// More letters than the rules allow.
    TooLong {
        /// The most letters allowed.
        max: usize,
    },
    /// Not a word of the dictionary.
    NotInDictionary,
    /// Found earlier in this game.
    AlreadyFound,
    /// On the board only by a move the rules forbid (going up a row under `project4`).
    NotAllowedMove,
    /// The board cannot spell it.
    NotOnBoard,
}

impl Verdict {
    /// Whether the word counts.
    pub fn is_accepted(&self) -> bool {
        matches!(self, Verdict::Accepted { .. })
    }

    /// The points it earns (0 unless accepted).
    pub fn points(&self) -> u32 {
        match self {
            Verdict::Accepted { points, .. } => *points,
            _ => 0,
        }
    }

    /// What it earned, or why not, in a few words: `2 points`, `not on the board`.
    pub fn reason(&self) -> String {
        match self {
            Verdict::Accepted { points: 1, .. } => "1 point".to_string(),
            Verdict::Accepted { points, .. } => format!("{points} points"),
            Verdict::TooShort { min } => format!("too short (at least {min} letters)"),
            Verdict::TooLong { max } => format!("too long (at most {max} letters)"),
            Verdict::NotInDictionary => "not in the dictionary".to_string(),
            Verdict::AlreadyFound => "already found".to_string(),
            Verdict::NotAllowedMove => "not allowed by the no-up rule".to_string(),
            Verdict::NotOnBoard => "not on the board".to_string(),
        }
    }
}

/// Who won a round against the computer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winner {
    /// The human (also on a tie, as in spec 003).
    Human,
    /// The computer, with strictly more points.
    Computer,
}

/// One game: a board, every word it holds, and the player's progress.
///
/// ```
/// use std::sync::Arc;
/// use boggle_game::game::Verdict;
/// use boggle_game::{Dictionary, Game, GameBoard, WordFind};
///
/// let words = Dictionary::from_words(["EAT", "BAT", "NAG", "LAB", "BEAUTY"]);
/// let find = WordFind::with_dictionary(Arc::new(words));
/// let mut game = Game::from_board(GameBoard::new("BENHLAUMITLZRGAN").unwrap(), &find);
/// assert_eq!(game.get_total_points_possible(), 3);
///
/// assert!(game.guess("eat"));
/// assert!(!game.guess("EAT"), "a repeat scores nothing, and is not incorrect");
/// assert!(!game.guess("LAB"), "on the board only by going up");
/// assert_eq!((game.get_score(), game.get_incorrect_guesses()), (1, 1));
///
/// // The same judge, with the reason: what every mode shows a player.
/// assert_eq!(game.judge("lab"), Verdict::NotAllowedMove);
/// assert_eq!(game.judge("beauty"), Verdict::NotOnBoard);
/// assert_eq!(game.judge("at").reason(), "too short (at least 3 letters)");
/// assert_eq!(game.get_all_words(), "BAT\nEAT\nNAG\n");
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    board: GameBoard,
    rules: Rules,
    dictionary: Arc<Dictionary>,
    /// Shared by the clones of a game, so that a server's room gives each
    /// of its players the round's game without copying its words.
    all_words: Arc<BTreeSet<String>>,
    total_points: u32,
    /// Correct guesses only: wrong ones are counted, never stored, so a stream
    /// of a million bad guesses costs no memory.
    guessed: AHashSet<String>,
    /// The same words in the order found.
    found: Vec<String>,
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
        Game::with_words(board, word_find, all_words)
    }

    /// A game on `board`, or [`Exhausted`] if finding its words passed the
    /// search's step budget (a crafted board or word list): the modes say so
    /// rather than play a board whose words are incomplete.
    pub fn try_from_board(board: GameBoard, word_find: &WordFind) -> Result<Game, Exhausted> {
        let all_words = word_find.all_words_checked(&board)?;
        Ok(Game::with_words(board, word_find, all_words))
    }

    /// A game on `board` whose words are `all_words`.
    fn with_words(board: GameBoard, word_find: &WordFind, all_words: BTreeSet<String>) -> Game {
        let rules = word_find.rules().clone();
        let total_points = points_for_set(&rules, &all_words);
        Game {
            board,
            rules,
            dictionary: Arc::clone(word_find.dictionary()),
            all_words: Arc::new(all_words),
            total_points,
            guessed: AHashSet::new(),
            found: Vec::new(),
            score: 0,
            incorrect: 0,
        }
    }

    /// A game on a board rolled from the rules' dice with `rng`.
    pub fn random<R: RngCore + ?Sized>(word_find: &WordFind, rng: &mut R) -> Game {
        Game::from_board(GameBoard::random(word_find.rules(), rng), word_find)
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
        self.play_word(word).is_accepted()
    }

    /// Judges `word` (any case) and records it: an accepted word adds its
    /// points, a repeat changes nothing, anything else counts as incorrect.
    pub fn play_word(&mut self, word: &str) -> Verdict {
        let word = word.to_ascii_uppercase();
        let verdict = self.judge(&word);
        match &verdict {
            Verdict::Accepted { points, .. } => {
                self.score = self.score.saturating_add(*points);
                self.guessed.insert(word.clone());
                self.found.push(word);
            }
            Verdict::AlreadyFound => {}
            _ => self.incorrect = self.incorrect.saturating_add(1),
        }
        verdict
    }

    /// A game on `board` under rules that need no dictionary (spec 001's
    /// Boggle-ish): any string the board spells counts, so there is no list
    /// of words and no maximum.
    pub fn spelling_only(board: GameBoard, rules: Rules) -> Game {
        Game {
            board,
            rules,
            dictionary: Arc::new(Dictionary::default()),
            all_words: Arc::default(),
            total_points: 0,
            guessed: AHashSet::new(),
            found: Vec::new(),
            score: 0,
            incorrect: 0,
        }
    }

    /// What `word` (any case) would earn now, without recording it; the one
    /// check order every mode shares: length, dictionary (where the rules
    /// need one), repeat, board.
    pub fn judge(&self, word: &str) -> Verdict {
        let word = word.to_ascii_uppercase();
        let letters = word.len();
        if letters < self.rules.min_len {
            return Verdict::TooShort {
                min: self.rules.min_len,
            };
        }
        if let Some(max) = self.rules.max_len.filter(|&max| letters > max) {
            return Verdict::TooLong { max };
        }
        // The board's words are dictionary words, so they skip the dictionary
        // lookup (whose hash set is only built if some other word needs it).
        if self.rules.dictionary_required && !self.all_words.contains(&word) {
            if !self.dictionary.is_word(&word) {
                return Verdict::NotInDictionary;
            }
            return self.why_off_board(&word).unwrap_or(Verdict::NotOnBoard);
        }
        if self.guessed.contains(&word) {
            return Verdict::AlreadyFound;
        }
        match find_path(&self.board, self.rules.moves, &word) {
            Some(path) => Verdict::Accepted {
                points: self.rules.word_score(letters),
                path,
            },
            // Only where no dictionary is needed: a word of the board's list has a path.
            None => self.why_off_board(&word).unwrap_or(Verdict::NotOnBoard),
        }
    }

    /// Why the board cannot spell `letters` (a word, or the start of one still
    /// being typed) under the rules' moves: it could with 8 neighbours (a
    /// forbidden move) or not at all; `None` when it can. The one reason both
    /// the live hint while typing and [`Game::judge`]'s verdict give, so the
    /// two never disagree.
    pub fn why_off_board(&self, letters: &str) -> Option<Verdict> {
        if trace(&self.board, self.rules.moves, letters).is_some() {
            return None;
        }
        let allowed_elsewhere = self.rules.moves != MoveRule::EightNeighbours
            && trace(&self.board, MoveRule::EightNeighbours, letters).is_some();
        Some(if allowed_elsewhere {
            Verdict::NotAllowedMove
        } else {
            Verdict::NotOnBoard
        })
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

    /// The words found so far, in the order found.
    pub fn found_words(&self) -> &[String] {
        &self.found
    }

    /// Every word of the board the player has not found, ascending.
    pub fn missed_words(&self) -> impl Iterator<Item = &str> {
        self.all_words
            .iter()
            .filter(|word| !self.guessed.contains(*word))
            .map(String::as_str)
    }

    /// The computer's turn: every word the player missed that a computer of
    /// `level` knows (all of them in a word list without levels), ascending.
    pub fn computer_words(&self, level: Level) -> impl Iterator<Item = &str> {
        self.missed_words().filter(move |word| {
            self.dictionary
                .rank(word)
                .is_none_or(|rank| level.knows(rank))
        })
    }

    /// The points of the computer's turn at `level`.
    pub fn computer_score(&self, level: Level) -> u32 {
        self.computer_words(level)
            .map(|word| self.rules.word_score(word.len()))
            .fold(0, u32::saturating_add)
    }

    /// Who wins against a computer of `level`: the computer only with strictly
    /// more points (spec 003), so a tie goes to the human.
    pub fn winner(&self, level: Level) -> Winner {
        if self.computer_score(level) > self.score {
            Winner::Computer
        } else {
            Winner::Human
        }
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

fn points_for_set(rules: &Rules, words: &BTreeSet<String>) -> u32 {
    words
        .iter()
        .map(|w| rules.word_score(w.len()))
        .fold(0, u32::saturating_add)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(words: &[&str], letters: &str) -> Game {
        let find = WordFind::with_dictionary(Arc::new(Dictionary::from_words(words)));
        Game::from_board(GameBoard::new(letters).expect("16 letters"), &find)
    }

    /// Under rules without a dictionary (spec 001) the same judge scores any
    /// string the board spells, in the same order: length, repeat, board.
    #[test]
    fn rules_without_a_dictionary_score_any_string_on_the_board() {
        let rules = Rules::preset(crate::rules::Preset::Ece209);
        let board = GameBoard::new("BENHLAUMITLZRGAN").expect("16 letters");
        let mut g = Game::spelling_only(board, rules);
        assert_eq!(g.judge("BEAU").points(), 1, "BEAU is spelled on the board");
        assert_eq!(g.judge("bel").points(), 1, "any case, any string");
        assert_eq!(g.judge("BZ"), Verdict::TooShort { min: 3 });
        assert_eq!(g.judge("ZZZ"), Verdict::NotOnBoard);
        assert_eq!(g.judge(&"A".repeat(17)), Verdict::TooLong { max: 16 });
        assert!(g.play_word("bel").is_accepted());
        assert_eq!(
            g.judge("BEL"),
            Verdict::AlreadyFound,
            "a recorded word is a repeat"
        );
        // A game with a dictionary refuses the same string.
        let mut dictionary_rules = Rules::preset(crate::rules::Preset::Ece209);
        dictionary_rules.dictionary_required = true;
        let board = GameBoard::new("BENHLAUMITLZRGAN").expect("16 letters");
        let strict = Game::spelling_only(board, dictionary_rules);
        assert_eq!(strict.judge("BEL"), Verdict::NotInDictionary);
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
    fn counters_saturate_instead_of_wrapping() {
        // Four billion guesses are out of reach of a test; start near the top.
        let mut g = game(&["EAT", "BAT"], "BENHLAUMITLZRGAN");
        (g.incorrect, g.score) = (u32::MAX, u32::MAX);
        assert!(!g.guess("ZZZ"));
        assert!(g.guess("EAT"));
        assert_eq!(
            (g.get_incorrect_guesses(), g.get_score()),
            (u32::MAX, u32::MAX)
        );
    }

    #[test]
    fn random_boards_keep_any_shape_a_board_can_have() {
        let mut rules = Rules::preset(crate::rules::Preset::Algs4);
        for (rows, cols) in [(1, 100), (100, 1), (1, 4096), (3, 7)] {
            (rules.rows, rules.cols) = (rows, cols);
            let board = GameBoard::random(&rules, &mut random::seeded(1));
            assert_eq!((board.rows(), board.cols()), (rows, cols));
        }
        (rules.rows, rules.cols) = (0, 5000);
        let board = GameBoard::random(&rules, &mut random::seeded(1));
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
