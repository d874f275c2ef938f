//! Boggle: spec 004's "Project 4 – Boggle" console game, the classic
//! variants, and a fast all-words solver, as one library with a thin binary.
//!
//! # Layout
//! The design's classes, at the top:
//! - [`die`]: `Die`, one die; [`dice`]: the authentic dice sets; [`face`]: what a cell shows.
//! - [`game_board`]: `GameBoard`, the grid of faces: typing, rolling and showing it.
//! - [`dictionary`]: `Dictionary`, the word set (`ahash`), the built-in lists and commonness.
//! - [`word_find`]: `WordFind`, every word on a board (fast engine and the design's backtracking).
//! - [`game`]: `Game`, one board and a player's guesses; the one judge of a guess.
//! - [`rules`]: board shape, dice, lengths, scoring, moves, Qu: one value every part takes.
//! - [`random`]: pinned, seedable random numbers; [`error`]: errors and exit statuses.
//!
//! Beneath and around them:
//! - [`engine`]: the trie, neighbour tables, the search and word paths.
//! - [`modes`]: the console game, versus, Boggle-ish, best-board search, the proof of the best board, benchmark.
//! - [`player`]: reading what the player types, and the clock of a timed turn.
//! - [`tui`]: the full-screen terminal game.
//! - [`net`]: the networked game (`boggle serve`, `boggle join`): protocol, rooms, server, client.
//! - [`cli`]: the command line, its subcommands and board files.

pub mod cli;
pub mod dice;
pub mod dictionary;
pub mod die;
pub use boggle_engine as engine;
pub mod error;
pub mod face;
pub mod game;
pub mod game_board;
pub mod modes;
pub mod net;
pub mod player;
pub mod random;
pub mod rules;
pub mod tui;
pub mod word_find;

pub use dice::DiceSet;
pub use dictionary::{Dictionary, DictionaryError};
pub use die::Die;
pub use error::Error;
pub use face::Face;
pub use game::Game;
pub use game_board::{BoardError, GameBoard};
pub use rules::{MoveRule, Preset, Rules, Scoring};
pub use word_find::WordFind;
