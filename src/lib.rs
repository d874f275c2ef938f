//! Boggle: spec 004's "Project 4 – Boggle" console game, the classic
//! variants, and a fast all-words solver, as one library with a thin binary.
//!
//! # Layout
//! - [`die`], [`dice`], [`face`]: one die, the authentic dice sets, what a cell shows.
//! - [`game_board`]: the grid of faces, parsing and showing it.
//! - [`dictionary`], [`trie`]: the word set (`ahash`) and its prefix index.
//! - [`rules`]: board shape, dice, lengths, scoring, moves, Qu — one value every part takes.
//! - [`neighbours`], [`search`], [`word_find`], [`path`]: the search engine and the design's `WordFind`.
//! - [`game`]: the design's `Game`: guesses, score, incorrect count, maximum points.
//! - [`input`], [`console`]: reading a player's bytes and the spec 004 console loop.
//! - [`cli`]: the command line and its modes; [`error`]: errors and exit statuses.
//! - [`random`]: pinned, seedable random numbers.
//! - [`keyboard`]: what the player types, and the clock timed turns run against.
//! - [`versus`]: human against computer (specs 000 and 003).
//! - [`boggleish`], [`lfsr`]: spec 001's seeded, timed "Boggle-ish" and its 16-bit LFSR.
//! - [`best`]: the search for the highest-scoring boards (`boggle best`).
//! - [`tui`]: the full-screen terminal game (`boggle tui`).
//! - [`prove`]: the branch-and-bound proof of the best boards (`boggle prove`).

pub mod bench;
pub mod best;
pub mod board_file;
pub mod boggleish;
pub mod cli;
pub mod console;
pub mod dice;
pub mod dictionary;
pub mod die;
pub mod error;
pub mod face;
pub mod game;
pub mod game_board;
pub mod input;
pub mod keyboard;
pub mod lfsr;
pub mod neighbours;
pub mod path;
pub mod prove;
pub mod random;
pub mod rules;
pub mod search;
pub mod trie;
pub mod tui;
pub mod versus;
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
