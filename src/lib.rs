//! Boggle: spec 004's "Project 4 – Boggle" console game, the classic
//! variants, and a fast all-words solver: the command line, the modes, the
//! full screens and the network clients, over the workspace's crates.
//!
//! # Layout
//! The design's classes live in `boggle-game` and are re-exported here under
//! the paths spec 004's graders use: [`Die`], [`GameBoard`], [`Dictionary`],
//! [`WordFind`], [`Game`] and their modules ([`die`], [`game_board`], ...).
//!
//! This crate keeps what a player or a script touches:
//! - [`modes`]: the console game, versus, Boggle-ish, benchmark.
//! - [`player`]: reading what the player types, and the clock of a timed turn.
//! - [`tui`]: the full-screen terminal game.
//! - [`net`]: the network game's clients (`boggle join`); the server is `boggle-net`.
//! - [`cli`]: the command line, its subcommands and board files.
//! - [`xdg`]: the program's folders under the user's home (records, kept seats).
//!
//! Beneath: `boggle-engine` (the search), `boggle-best` (the search for the
//! best boards), `boggle-prove` (the proof of the best boards), `boggle-game`
//! (the design's classes), `boggle-net` (the server).

pub mod cli;
pub mod modes;
pub mod net;
pub mod player;
pub mod tui;
pub mod xdg;

// The design's classes, under the paths spec 004's graders use.
pub use boggle_game::{
    BoardError, DiceSet, Dictionary, DictionaryError, Die, Error, Face, Game, GameBoard, MoveRule,
    Preset, QReads, Rules, Scoring, WordFind, dice, dictionary, die, error, face, game, game_board,
    random, rules, word_find,
};
