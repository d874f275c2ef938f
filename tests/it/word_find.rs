//! The word find suite: known word lists for known boards, the no-up rule,
//! and the fast search against the design's backtracking helper.

#![expect(
    clippy::disallowed_types,
    reason = "the tests build rules from a preset; nothing here branches on one"
)]

use std::collections::BTreeSet;
use std::sync::Arc;

use boggle::{Dictionary, GameBoard, Preset, Rules, WordFind};

fn finder(words: &[&str]) -> WordFind {
    WordFind::with_dictionary(Arc::new(Dictionary::from_words(words)))
}

fn words(find: &WordFind, letters: &str) -> Vec<String> {
    let board = GameBoard::new(letters).expect("16 letters");
    find.get_all_words(&board).into_iter().collect()
}

#[test]
fn spec_board_under_the_no_up_rule() {
    let find = finder(&["EAT", "BAT", "NAG", "ZIT", "LAB", "GRIT", "AT", "TALL"]);
    assert_eq!(words(&find, "BENHLAUMITLZRGAN"), ["BAT", "EAT", "NAG"]);
}

#[test]
fn default_finder_on_the_spec_board() {
    let found = WordFind::new().get_all_words(&GameBoard::new("BENHLAUMITLZRGAN").expect("board"));
    for word in ["EAT", "BAT", "NAG"] {
        assert!(found.contains(word), "{word}");
    }
    for word in ["ZIT", "LAB", "GRIT", "AT"] {
        assert!(!found.contains(word), "{word}");
    }
}

#[test]
fn cells_are_used_once_and_words_reported_once() {
    let find = finder(&["OOO", "OOOO", "OOOOO", "OFF", "FOO"]);
    let got = words(&find, "OOOOOOOOOOOOFFFF");
    assert_eq!(got, ["OFF", "OOO", "OOOO", "OOOOO"]);
    let find = finder(&["ABA"]);
    assert!(words(&find, "ABXXXXXXXXXXXXXX").is_empty());
}

#[test]
fn fast_search_matches_the_design_helper() {
    let dictionary = Arc::new(Dictionary::new());
    for rules in [Rules::project4(), Rules::preset(Preset::Classic)] {
        let find = WordFind::with_rules(Arc::clone(&dictionary), rules);
        for letters in [
            "BENHLAUMITLZRGAN",
            "NIEHGTIBGUALRWGC",
            "SERSPATGLINESERS",
            "QUITEAQUARIUMSSS",
        ] {
            let board = GameBoard::from_letters(letters, 4, 4, false).expect("board");
            let mut slow = BTreeSet::new();
            let mut chosen = [false; 16];
            for cell in 0..16 {
                find.append_dfs_words(&board, &mut String::new(), &mut slow, &mut chosen, cell);
            }
            assert_eq!(find.get_all_words(&board), slow, "{letters}");
        }
    }
}
