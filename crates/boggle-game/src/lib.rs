//! The Project 4 design's classes and the rules they play by: `Die`,
//! `GameBoard`, `Dictionary`, `WordFind` and `Game`, over the search engine
//! (`boggle-engine`). No terminal, no network, no command line: every mode of
//! the `boggle` program, the server included, plays through these types.
//!
//! - [`die`]: `Die`, one die; [`dice`]: the authentic dice sets; [`face`]: what a cell shows.
//! - [`game_board`]: `GameBoard`, the grid of faces: typing, rolling and showing it.
//! - [`dictionary`]: `Dictionary`, the word set (`ahash`), the built-in lists and commonness.
//! - [`word_find`]: `WordFind`, every word on a board (fast engine and the design's backtracking).
//! - [`game`]: `Game`, one board and a player's guesses; the one judge of a guess.
//! - [`rules`]: board shape, dice, lengths, scoring, moves, Qu: one value every part takes.
//! - [`daily`]: the board of the day, one per UTC date from a documented seed.
//! - [`random`]: pinned, seedable random numbers; [`error`]: what a game can fail with.
//! - [`text`]: counts with commas between thousands, a noun's plural for a count.
//!
//! What a word means is `boggle-meaning`'s; the files the program keeps for
//! itself are `boggle-files`'.

pub mod daily;
pub mod dice;
pub mod dictionary;
pub mod die;
pub mod error;
pub mod face;
pub mod game;
pub mod game_board;
pub mod random;
pub mod rules;
pub mod text;
pub mod word_find;

pub use dice::DiceSet;
pub use dictionary::{Dictionary, DictionaryError};
pub use die::Die;
pub use error::Error;
pub use face::{Face, QReads};
pub use game::Game;
pub use game_board::{BoardError, GameBoard};
pub use rules::{MoveRule, Preset, Rules, Scoring};
pub use word_find::WordFind;
