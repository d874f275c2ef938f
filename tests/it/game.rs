//! The game suite: guesses, scores, incorrect counts, maximum points and the word list.

use std::collections::BTreeSet;
use std::sync::Arc;

use boggle::{Dictionary, Game, GameBoard, WordFind};

fn game(words: &[&str], letters: &str) -> Game {
    let find = WordFind::with_dictionary(Arc::new(Dictionary::from_words(words)));
    Game::from_board(GameBoard::new(letters).expect("16 letters"), &find)
}

#[test]
fn scores_follow_spec_004() {
    let g = game(&[], "AAAAAAAAAAAAAAAA");
    let by_len: Vec<u32> = (1..=10).map(|n| g.get_word_score(&"A".repeat(n))).collect();
    assert_eq!(by_len, [0, 0, 1, 1, 2, 3, 4, 11, 11, 11]);
    let set: BTreeSet<String> = ["CAT", "HORSE", "ELEPHANT"].map(String::from).into();
    assert_eq!(g.get_points_for_set(&set), 1 + 2 + 11);
}

#[test]
fn guessing_scores_and_counts() {
    let mut g = game(&["OFF", "FOO"], "OOOOOOOOOOOOFFFF");
    assert_eq!(g.get_total_points_possible(), 1);
    assert_eq!(g.get_all_words(), "OFF\n");
    assert!(!g.guess("FOO"), "FOO goes up");
    assert!(!g.guess("Q"));
    assert_eq!(g.get_incorrect_guesses(), 2);
    assert!(g.guess("off"));
    assert!(!g.guess("OFF"));
    assert_eq!(g.get_incorrect_guesses(), 2, "repeats are not incorrect");
    assert_eq!(g.get_score(), 1);
    assert!(g.is_valid_guess("OFF") && !g.new_word("OFF"));
}

#[test]
fn with_dice_rolls_uses_the_default_dictionary() {
    let g = Game::with_dice_rolls("BENHLAUMITLZRGAN").expect("16 letters");
    assert_eq!(g.show_board(), "B E N H\nL A U M\nI T L Z\nR G A N\n");
    assert!(g.get_all_words().lines().any(|w| w == "EAT"));
    assert!(g.get_total_points_possible() >= g.get_all_words().lines().count() as u32);
    assert!(Game::with_dice_rolls("short").is_err());
}

#[test]
fn seeded_games_repeat_and_many_games_share_one_dictionary() {
    let a = Game::with_seed(99);
    let b = Game::with_seed(99);
    assert_eq!(a.show_board(), b.show_board());
    assert_eq!(a.get_all_words(), b.get_all_words());
    // Every default game and finder holds the one dictionary loaded for the process.
    let first = Game::new();
    for _ in 0..50 {
        let g = Game::new();
        assert!(std::ptr::eq(g.dictionary(), first.dictionary()));
    }
    assert!(Arc::ptr_eq(
        WordFind::new().dictionary(),
        &Dictionary::shared_default()
    ));
}
