//! The default mode: spec 004's console game on stdin and stdout, under any
//! rules and with an optional time limit; `--rules ece209` plays spec 001's
//! Boggle-ish instead. The word list loads before the first prompt (the
//! course list in about 15 ms), so a bad one is reported before any typing.

use super::CliError;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::sync::Arc;
use std::time::Duration;

use super::{GameArgs, UsageError, given_board, load_game_dictionary, roll_board};
use crate::play::modes::boggleish::{self, Answers};
use crate::play::modes::console::{self, Options};
use crate::play::player::keyboard::{Keyboard, Plain, SystemClock, ThreadedLines, Timed};
use crate::play::player::signals::{self, OnSignal};
use boggle_game::dictionary::{Level, WordsCounted};
use boggle_game::error::Error;
use boggle_game::game::Game;
use boggle_game::random;
use boggle_game::rules::{Preset, Rules};
use boggle_game::word_find::WordFind;

/// Said once on stderr when the console game starts at a terminal.
pub(crate) const TUI_TIP: &str =
    "tip: 'boggle tui' is the full-screen game (a live clock, the word traced as you type)";

/// Plays one console game.
pub(crate) fn run(args: &GameArgs) -> Result<(), CliError> {
    let rules = args.rules.resolve(Preset::Project4)?;
    if !rules.dictionary_required {
        return run_boggleish(args, &rules);
    }
    // Loaded before the first prompt, so a bad word list is reported before
    // the player types anything (the course list takes about 15 ms).
    let dictionary = load_game_dictionary(args, &rules, Level::Perfect)?;
    let mut err = io::stderr().lock();
    name_word_list(&mut err, &dictionary);
    if cfg!(feature = "tui") && io::stdin().is_terminal() && err.is_terminal() {
        // A player at a terminal may not know the full-screen game exists.
        let _ = writeln!(err, "{TUI_TIP}");
    }
    let options = Options {
        rules: rules.clone(),
        time: time_limit(args.time),
        board: given_board(args, &rules)?,
        terminal: io::stdin().is_terminal(),
    };
    let mut keys = keyboard();
    let mut out = BufWriter::new(io::stdout().lock());
    let played = console::play_with(&mut *keys, &mut out, &mut err, &options, |board| {
        let word_find = WordFind::with_rules(Arc::new(dictionary), rules);
        let board = match board {
            Some(board) => board,
            None => {
                let mut rng = args.seed.map_or_else(random::from_entropy, random::seeded);
                roll_board(&word_find, &mut rng, args.min_points)?
            }
        };
        Game::try_from_board(board, &word_find).map_err(Error::Search)
    });
    // Whatever was typed after the game's last read must not reach the shell.
    keys.discard_typeahead();
    finished(played.map(drop))
}

/// Names the word list in play on one line of `err` (stderr, so spec 004's
/// stdout transcript is unchanged); a failed write is ignored, as diagnostics
/// must never stop a game.
pub(super) fn name_word_list(err: &mut impl Write, dictionary: &boggle_game::Dictionary) {
    let _ = writeln!(err, "words: {}", dictionary.describe());
}

/// Spec 001's game: `--seed` and `--time` answer its two questions. The
/// flags that ask for a word list or a board of one's own are refused.
fn run_boggleish(args: &GameArgs, rules: &Rules) -> Result<(), CliError> {
    let refused = [
        (
            args.board.is_some(),
            "--board",
            "it shakes its own tray from the seed (spec 001)",
        ),
        (
            args.min_points.is_some(),
            "--min-points",
            "it has no word list, so a board has no points to count",
        ),
        (
            args.words != WordsCounted::All,
            "--words",
            "it has no word list: any string the board spells scores",
        ),
    ];
    if let Some((_, flag, why)) = refused.into_iter().find(|(given, ..)| *given) {
        return Err(UsageError::NotWithRules {
            flag,
            preset: rules.preset,
            why,
        }
        .into());
    }
    let seed = args
        .seed
        .map(|seed| u16::try_from(seed).map_err(|_| UsageError::Ece209Seed { seed }))
        .transpose()?;
    let answers = Answers {
        seed,
        time: args.time,
    };
    // Diagnostics never stop a game, so a failed write is ignored.
    let _ = writeln!(
        io::stderr().lock(),
        "words: none (any string the board spells scores)"
    );
    // Boggle-ish keeps no state worth a summary before its last answer.
    signals::install(OnSignal::Exit);
    let mut keys = Plain::new(io::stdin().lock());
    let mut out = BufWriter::new(io::stdout().lock());
    boggleish::play(&mut keys, &mut out, rules, answers)?;
    Ok(())
}

/// `--time SECONDS` as a turn's limit; 0, like no flag, means no limit.
pub(super) fn time_limit(seconds: Option<u64>) -> Option<Duration> {
    seconds.filter(|&s| s > 0).map(Duration::from_secs)
}

/// Standard input for a game, read on a thread of its own so that a turn
/// ends on time and a signal ends the game (with its summary) even while the
/// player types nothing. Installs that signal handling.
pub(super) fn keyboard() -> Box<dyn Keyboard> {
    signals::install(OnSignal::Finish);
    Box::new(Timed::new(ThreadedLines::stdin(), SystemClock))
}

/// The outcome of a game once it has written what it had: a signal that
/// stopped it is reported (exit status 1) after the summary.
pub(super) fn finished(played: Result<(), Error>) -> Result<(), CliError> {
    played?;
    if signals::stopped() {
        return Err(Error::Stopped.into());
    }
    Ok(())
}
