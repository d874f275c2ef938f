//! The default mode: spec 004's console game on stdin and stdout. The
//! dictionary loads on a second thread while the first prompt waits for the
//! player, so the game starts at once.

use std::io::{self, BufWriter};
use std::sync::Arc;

use super::{GameArgs, load_dictionary};
use crate::console;
use crate::error::Error;
use crate::game::Game;
use crate::random;
use crate::word_find::WordFind;

/// Plays one console game.
pub fn run(args: &GameArgs) -> Result<(), Error> {
    let path = args.dict.clone();
    let loader = std::thread::spawn(move || load_dictionary(path.as_deref()));
    let rules = args.rules.resolve(crate::rules::Preset::Project4)?;
    let seed = args.seed;
    let stdin = io::stdin().lock();
    let mut out = BufWriter::new(io::stdout().lock());
    let mut err = io::stderr().lock();
    console::play(stdin, &mut out, &mut err, |board| {
        let dictionary = loader
            .join()
            .map_err(|_| Error::Usage("the dictionary loader stopped unexpectedly".into()))??;
        let word_find = WordFind::with_rules(Arc::new(dictionary), rules);
        Ok(match (board, seed) {
            (Some(board), _) => Game::from_board(board, &word_find),
            (None, Some(seed)) => Game::random(&word_find, &mut random::seeded(seed)),
            (None, None) => Game::random(&word_find, &mut random::from_entropy()),
        })
    })?;
    Ok(())
}
