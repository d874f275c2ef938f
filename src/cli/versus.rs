//! `boggle versus`: the command-line glue for [`crate::versus`]. Chooses the
//! highlight (reverse video only on a terminal without `NO_COLOR`), loads the
//! dictionary and rolls boards from `--seed` or the system's entropy.

use std::io::{self, BufWriter, IsTerminal};
use std::sync::Arc;

use super::play::{keyboard, time_limit};
use super::{GameArgs, load_dictionary};
use crate::error::Error;
use crate::game::random_board;
use crate::random;
use crate::rules::Preset;
use crate::versus::{self, Highlight, Settings};
use crate::word_find::WordFind;

/// Plays rounds of human against computer.
pub fn run(args: &GameArgs) -> Result<(), Error> {
    let rules = args
        .rules
        .resolve_with_dictionary(Preset::Cs106b, "boggle versus")?;
    let dictionary = Arc::new(load_dictionary(args.dict.as_deref())?);
    let finder = WordFind::with_rules(dictionary, rules);
    let settings = Settings {
        finder: &finder,
        highlight: highlight(),
        time: time_limit(args.time),
    };
    let mut rng = args.seed.map_or_else(random::from_entropy, random::seeded);
    let mut keys = keyboard(settings.time);
    let mut out = BufWriter::new(io::stdout().lock());
    versus::play(&mut *keys, &mut out, &settings, || {
        random_board(finder.rules(), &mut rng)
    })?;
    Ok(())
}

/// Reverse video on a terminal, lower case when output is piped or `NO_COLOR` is set (no-color.org).
fn highlight() -> Highlight {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    if io::stdout().is_terminal() && !no_color {
        Highlight::Reverse
    } else {
        Highlight::LowerCase
    }
}
