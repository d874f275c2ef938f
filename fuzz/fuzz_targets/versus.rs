//! Fuzzes `boggle versus` on any input: the match ends without a panic, every
//! round counted has a result line, and the record never claims more wins than
//! rounds.
#![no_main]

use std::sync::{Arc, OnceLock};

use boggle_game::dictionary::Level;
use boggle_game::{Dictionary, GameBoard, Preset, QReads, Rules, WordFind};
use boggle_play::modes::versus::{self, Highlight, Settings};
use boggle_play::player::keyboard::Plain;
use libfuzzer_sys::fuzz_target;

fn finder() -> &'static WordFind {
    static FIND: OnceLock<WordFind> = OnceLock::new();
    FIND.get_or_init(|| {
        let words = [
            "QUIT", "QUITE", "QUITS", "STIR", "NEST", "TENS", "ARTS", "TRAINED",
        ];
        WordFind::with_rules(
            Arc::new(Dictionary::from_words(words)),
            Rules::preset(Preset::Cs106b),
        )
    })
}

fuzz_target!(|data: &[u8]| {
    let settings = Settings {
        finder: finder(),
        highlight: Highlight::LowerCase,
        time: None,
        level: Level::Perfect,
        terminal: false,
        intro: true,
        board: None,
        width: 80,
        height: None,
    };
    let mut keys = Plain::new(data);
    let mut out = Vec::new();
    let roll = || {
        GameBoard::from_letters("QITEARSNSTRADENI", 4, 4, QReads::Qu)
            .map_err(boggle_game::Error::Board)
    };
    let record = versus::play(&mut keys, &mut out, &settings, roll).expect("a byte slice reads");
    assert!(record.human_wins <= record.rounds);
    let out = String::from_utf8_lossy(&out);
    assert_eq!(out.matches("My score: ").count() as u32, record.rounds);
});
