//! Fuzzes the check of a hunt's results (`hunt-I.results`) for a classic
//! 3x3 hunt over a small word list: any bytes are either refused with a
//! reason or read as lines each of which is a 3x3 board, written as the hunt
//! writes it, in its canonical form, once, scoring what the line says; every
//! other whole line is counted as dropped.
#![no_main]

use std::path::Path;
use std::sync::OnceLock;

use ahash::AHashSet;
use boggle_best::Objective;
use boggle_best::hunt::lines::{Checker, board_text, read_results};
use boggle_engine::search::Searcher;
use boggle_game::dictionary::Dictionary;
use boggle_game::game_board::GameBoard;
use boggle_game::rules::{Preset, Rules};
use libfuzzer_sys::fuzz_target;

const WORDS: &[u8] = b"ate\neat\nsea\ntea\nseat\neast\nquest\nquae\nthe\nhen\n";

fn hunt() -> &'static (Dictionary, Rules) {
    static HUNT: OnceLock<(Dictionary, Rules)> = OnceLock::new();
    HUNT.get_or_init(|| {
        (
            Dictionary::parse(WORDS),
            Rules::sized(Preset::Classic, 3, 3),
        )
    })
}

fuzz_target!(|data: &[u8]| {
    let (dictionary, rules) = hunt();
    let mut checker = Checker::new(dictionary.trie(), rules, Objective::Points);
    let mut seen = AHashSet::new();
    let Ok(read) = read_results(data, Path::new("fuzz.results"), &mut checker, &mut seen) else {
        return;
    };
    let whole = data.iter().filter(|&&b| b == b'\n').count();
    assert_eq!(read.lines.len() + read.dropped.count, whole);
    assert!(read.whole as usize <= data.len());
    assert_eq!(seen.len(), read.lines.len(), "a board twice");
    let mut searcher = Searcher::new(dictionary.trie(), rules);
    for (score, board) in &read.lines {
        let grid = GameBoard::from_typed(board, 3, 3, rules.q).expect("a checked board reads");
        assert_eq!(board_text(grid.faces(), rules.q), *board);
        assert_eq!(searcher.score(&grid), *score, "{board}");
        let canonical = boggle_best::canonical(&grid, rules.moves);
        assert_eq!(canonical.faces(), grid.faces(), "{board} is not canonical");
    }
});
