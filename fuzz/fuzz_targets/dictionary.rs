//! Fuzzes the dictionary loader: any bytes give a dictionary (never a panic)
//! whose words are all upper-case letters, each findable, each prefix indexed;
//! and the search over it reports only words that lie on the board.
#![no_main]

use boggle_engine::path;
use boggle_game::{Dictionary, GameBoard, MoveRule, QReads, Rules, WordFind};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let dictionary = Dictionary::parse(data);
    for word in dictionary.words() {
        assert!(!word.is_empty() && word.bytes().all(|b| b.is_ascii_uppercase()));
        assert!(dictionary.is_word(word) && dictionary.is_word(&word.to_ascii_lowercase()));
        assert!((0..=word.len()).all(|n| dictionary.is_prefix(&word[..n])));
    }
    let Ok(board) = GameBoard::from_letters("QUEATSBRONIXDELPA", 4, 4, QReads::Qu) else {
        panic!("the fixed board is valid");
    };
    let mut rules = Rules::preset(boggle_game::Preset::Classic);
    rules.min_len = 1;
    let find = WordFind::with_rules(std::sync::Arc::new(dictionary), rules);
    for word in find.get_all_words(&board) {
        assert!(find.dictionary().is_word(&word));
        assert!(path::find_path(&board, MoveRule::EightNeighbours, &word).is_some());
    }
});
