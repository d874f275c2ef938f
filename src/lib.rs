//! Boggle: spec 004's "Project 4 – Boggle" console game, the classic
//! variants, and a fast all-words solver.
//!
//! This library is the design's classes and nothing else: [`Die`],
//! [`GameBoard`], [`Dictionary`], [`WordFind`], [`Game`] and their modules
//! ([`die`], [`game_board`], ...), re-exported from `boggle-game` under the
//! paths spec 004's graders use.
//!
//! The `boggle` binary (`src/main.rs`) keeps the command line, the console
//! modes, the keyboard, board files, the player's records, the full-screen
//! game and the network game's full screen. Beneath it: `boggle-client`
//! (the network game's link, line mode and seat file), `boggle-engine`
//! (the search), `boggle-best` (the search for the best boards),
//! `boggle-prove` (the proof of the best boards), `boggle-game` (the
//! design's classes), `boggle-protocol` (what clients and server speak),
//! `boggle-net` (the server).

#[expect(
    clippy::disallowed_types,
    reason = "the graders' API re-exports every type of the design, presets too"
)]
pub use boggle_game::{
    BoardError, DiceSet, Dictionary, DictionaryError, Die, Error, Face, Game, GameBoard, MoveRule,
    Preset, QReads, Rules, Scoring, WordFind, dice, dictionary, die, error, face, game, game_board,
    random, rules, word_find,
};
