//! Fuzzes spec 004's console loop: any bytes on standard input must end the
//! game without a panic, the summary must always be the last thing written,
//! and the game must not depend on how the bytes arrive (in small reads, or
//! cut off by a read error, which must play like the end of input).
#![no_main]

use std::io::{self, BufRead, BufReader, Read};
use std::sync::{Arc, OnceLock};

use boggle_game::{Dictionary, Error, Game, WordFind, random};
use boggle_play::modes::console;
use libfuzzer_sys::fuzz_target;

fn finder() -> &'static WordFind {
    static FIND: OnceLock<WordFind> = OnceLock::new();
    FIND.get_or_init(|| {
        let words = ["EAT", "BAT", "TAB", "TEA", "BEAT", "ABATE", "QUA", "QUAT"];
        WordFind::with_dictionary(Arc::new(Dictionary::from_words(words)))
    })
}

/// Hands out its bytes a few at a time, then ends or fails.
struct Trickle<'a> {
    data: &'a [u8],
    step: usize,
    fail: bool,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.data.is_empty() {
            return if self.fail {
                Err(io::Error::other("gone"))
            } else {
                Ok(0)
            };
        }
        let n = self.step.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

fn play<R: BufRead>(input: R, seed: u64) -> (Result<Game, Error>, Vec<u8>) {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let played = console::play(input, &mut out, &mut err, |board| {
        Ok(match board {
            Some(board) => Game::from_board(board, finder()),
            None => Game::random(finder(), &mut random::seeded(seed)),
        })
    });
    (played, out)
}

fuzz_target!(|data: &[u8]| {
    let Some((&knobs, input)) = data.split_first() else {
        return;
    };
    let seed = input.len() as u64;
    let (whole, out) = play(input, seed);
    let game = match whole {
        Ok(game) => game,
        Err(e) => panic!("reading a byte slice cannot fail, yet: {e}"),
    };
    let summary = format!(
        "There were {} points possible\n{}\n{}",
        game.get_total_points_possible(),
        "=".repeat(60),
        game.get_all_words()
    );
    assert!(
        out.ends_with(summary.as_bytes()),
        "the summary must end the output"
    );
    assert!(game.get_score() <= game.get_total_points_possible());

    let trickle = Trickle {
        data: input,
        step: usize::from(knobs >> 4) + 1,
        fail: knobs & 1 != 0,
    };
    let capacity = usize::from(knobs >> 1 & 7) + 1;
    let (pieces, pieces_out) = play(BufReader::with_capacity(capacity, trickle), seed);
    assert_eq!(
        out, pieces_out,
        "the same bytes in pieces must play the same game"
    );
    assert!(knobs & 1 != 0 || pieces.is_ok());
});
