//! Fuzzes spec 004's console loop: any bytes on standard input must end the
//! game without a panic, and the summary must always be the last thing written.
#![no_main]

use std::sync::{Arc, OnceLock};

use boggle::{Dictionary, Error, Game, WordFind, console, random};
use libfuzzer_sys::fuzz_target;

fn finder() -> &'static WordFind {
    static FIND: OnceLock<WordFind> = OnceLock::new();
    FIND.get_or_init(|| {
        let words = ["EAT", "BAT", "TAB", "TEA", "BEAT", "ABATE", "QUA", "QUAT"];
        WordFind::with_dictionary(Arc::new(Dictionary::from_words(words)))
    })
}

fuzz_target!(|data: &[u8]| {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let played = console::play(data, &mut out, &mut err, |board| {
        Ok::<Game, Error>(match board {
            Some(board) => Game::from_board(board, finder()),
            None => Game::random(finder(), &mut random::seeded(data.len() as u64)),
        })
    });
    let game = match played {
        Ok(game) => game,
        Err(e) => panic!("reading a byte slice cannot fail, yet: {e}"),
    };
    let summary = format!(
        "There were {} points possible\n{}\n{}",
        game.get_total_points_possible(),
        "=".repeat(60),
        game.get_all_words()
    );
    assert!(out.ends_with(summary.as_bytes()), "the summary must end the output");
    assert!(game.get_score() <= game.get_total_points_possible());
});
