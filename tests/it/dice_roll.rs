//! The dice roll suite: a die shows only its faces, every face in time, and a
//! random game's board is one face of each of spec 004's dice.

use std::collections::BTreeSet;

use boggle::dice::PROJECT4_DICE;
use boggle::{Die, Game, random};

#[test]
fn a_die_rolls_only_its_faces_and_all_of_them() {
    let die = Die::new("RIFOBX");
    let seen: BTreeSet<char> = (0..1000).map(|_| die.roll()).collect();
    assert_eq!(seen, "BFIORX".chars().collect());
}

#[test]
fn the_board_is_the_sixteen_dice_shuffled_and_rolled() {
    let mut rng = random::seeded(4);
    let dice = Game::init_dice(&mut rng);
    assert_eq!(dice.len(), 16);
    let mut faces: Vec<String> = dice
        .iter()
        .map(|d| d.faces().iter().map(|f| f.as_str()).collect())
        .collect();
    faces.sort_unstable();
    let mut expected: Vec<String> = PROJECT4_DICE.iter().map(|s| s.to_string()).collect();
    expected.sort_unstable();
    assert_eq!(faces, expected);
    let letters = Game::get_all_dice_values(&dice, &mut rng);
    assert_eq!(letters.len(), 16);
    for (die, letter) in dice.iter().zip(letters.chars()) {
        assert!(die.faces().iter().any(|f| f.first_char() == letter));
    }
}

#[test]
fn new_games_show_sixteen_letters() {
    let board = Game::new().show_board();
    let letters: Vec<&str> = board.split_whitespace().collect();
    assert_eq!(letters.len(), 16);
    assert!(
        letters
            .iter()
            .all(|l| l.len() == 1 && l.chars().all(|c| c.is_ascii_uppercase()))
    );
}
