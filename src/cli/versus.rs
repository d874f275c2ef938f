//! `boggle versus`: the command-line glue for [`crate::play::modes::versus`].
//! Chooses the highlight (reverse video only on a terminal without
//! `NO_COLOR`), loads the dictionary and rolls boards from `--seed` or the
//! system's entropy.

use super::CliError;
use std::io::{self, BufWriter, IsTerminal};
use std::sync::Arc;

use clap::Args;

use super::args::{DICTIONARY_PRESETS, rules_arg};
use super::play::{finished, keyboard, name_word_list, time_limit};
use super::{GameArgs, given_board, load_game_dictionary, roll_board};
use crate::play::modes::versus::{self, Highlight, Settings};
use boggle_game::dictionary::Level;
use boggle_game::random;
use boggle_game::rules::Preset;
use boggle_game::word_find::WordFind;

/// The flags of `boggle versus`.
#[derive(Debug, Args, Clone, Default)]
#[command(
    mut_arg("preset", |arg| rules_arg(arg, Preset::Cs106b, &DICTIONARY_PRESETS)),
    mut_arg("time", |arg| arg.help("Seconds for each of your turns, 0 (untimed) to 86400 [default: untimed]"))
)]
pub(crate) struct VersusArgs {
    /// Dictionary, seed, time, words and rules, as for the console game.
    #[command(flatten)]
    pub(crate) game: GameArgs,
    /// The computer's vocabulary: easy, medium, hard or perfect (every word)
    #[arg(long, value_name = "LEVEL", value_enum, default_value = "perfect")]
    pub(crate) level: Level,
    /// Skip the rules shown when a match starts at a terminal, and the board question: every board is random
    #[arg(long)]
    pub(crate) no_intro: bool,
}

/// Plays rounds of human against computer.
pub(crate) fn run(versus_args: &VersusArgs) -> Result<(), CliError> {
    let args = &versus_args.game;
    let rules = args
        .rules
        .resolve_with_dictionary(Preset::Cs106b, "versus")?;
    let dictionary = load_game_dictionary(args, &rules, versus_args.level)?;
    name_word_list(&mut io::stderr().lock(), &dictionary);
    let board = given_board(args, &rules)?;
    let finder = WordFind::with_rules(Arc::new(dictionary), rules);
    let settings = Settings {
        finder: &finder,
        highlight: highlight(),
        time: time_limit(args.time),
        level: versus_args.level,
        terminal: io::stdin().is_terminal() && io::stdout().is_terminal(),
        width: output_width(),
        height: output_height(),
        intro: !versus_args.no_intro,
        board: board.as_ref(),
    };
    let mut rng = args.seed.map_or_else(random::from_entropy, random::seeded);
    let mut keys = keyboard();
    let mut out = BufWriter::new(io::stdout().lock());
    let played = versus::play(&mut *keys, &mut out, &settings, || {
        roll_board(&finder, &mut rng, args.min_points)
    });
    // Whatever was typed after the match's last read must not reach the shell.
    keys.discard_typeahead();
    finished(played.map(drop))
}

/// The width to lay the computer's words out in: the terminal's, or 80 when
/// the output is not a terminal (or its size cannot be read).
fn output_width() -> usize {
    terminal_size().map_or(versus::COLUMNS_WIDTH, |(cols, _)| usize::from(cols).max(1))
}

/// The terminal's rows the computer's list must fit in, `None` when the
/// output is not a terminal (or its size cannot be read).
fn output_height() -> Option<usize> {
    terminal_size()
        .map(|(_, rows)| usize::from(rows))
        .filter(|&rows| rows > 0)
}

/// Standard output's terminal size as (columns, rows), `None` when it is
/// not a terminal or its size cannot be read.
#[cfg(unix)]
fn terminal_size() -> Option<(u16, u16)> {
    let stdout = rustix::stdio::stdout();
    let size = rustix::termios::tcgetwinsize(stdout).ok()?;
    Some((size.ws_col, size.ws_row))
}

/// No terminal size off Unix: the defaults apply.
#[cfg(not(unix))]
fn terminal_size() -> Option<(u16, u16)> {
    None
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
