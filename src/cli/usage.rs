//! Usage errors: a command line that asks for something impossible. Each
//! carries the values it is about; [`super::CliError::Usage`] maps it to exit
//! status 2. Flags clap can check alone (ranges, names) never get here: clap
//! refuses them with its own message, also status 2.

use crate::play::modes::boggleish::MAX_SEED;
use boggle_best::SpaceError;
use boggle_game::game_board::BoardError;
use boggle_game::rules::{Preset, RulesError};
use boggle_prove::ProveError;

/// A command line that cannot be run as given.
#[derive(Debug, thiserror::Error)]
pub(crate) enum UsageError {
    /// `boggle define` was given something that is not a word (shown cut short).
    #[error("'{shown}' is not a word: letters A to Z only (é as e), at most {max}")]
    NotAWord {
        /// The argument, its first 20 characters and `…` if longer.
        shown: String,
        /// The most letters a word may have.
        max: usize,
    },
    /// `--simd` names vector instructions this processor lacks.
    #[error(transparent)]
    Simd(#[from] boggle_engine::cpu::Lacks),
    /// `--rules`, `--size`, `--dice` and `--min-len` describe rules that cannot be played.
    #[error("impossible rules")]
    Rules(#[from] RulesError),
    /// A mode that needs a dictionary was given rules that score any string (ece209).
    #[error(
        "{mode} needs rules with a dictionary ({preset} scores any string on the board); \
         play them with 'boggle --rules {preset}'"
    )]
    NeedsDictionary {
        /// The mode, as its subcommand is spelt (`versus`, `best`, `tui`).
        mode: &'static str,
        /// The rules asked for.
        preset: Preset,
    },
    /// `--words common`, or a computer below perfect, with a word list without commonness levels.
    #[error(
        "--words common and --level need a word list with commonness levels, and {word_list} \
         has none (the player list of every preset but project4 has them)"
    )]
    NeedsLevels {
        /// The word list, as [`boggle_game::Dictionary::describe`] names it.
        word_list: String,
    },
    /// A `--seed` beyond what ece209's 16-bit register can take.
    #[error(
        "--seed {seed} is too large: ece209 seeds go from 0 to {MAX_SEED} \
         (its random numbers come from a 16-bit register)"
    )]
    Ece209Seed {
        /// The seed given.
        seed: u64,
    },
    /// `solve` was given neither a board file nor `--board`.
    #[error("give a board file (or - for standard input), or --board LETTERS")]
    NoBoard,
    /// `--board LETTERS` does not spell a board of the rules' size.
    #[error("--board does not spell a {rows}x{cols} board")]
    Board {
        /// Rows the rules ask for.
        rows: usize,
        /// Columns the rules ask for.
        cols: usize,
        /// What is wrong with the letters.
        source: BoardError,
    },
    /// `best` cannot search the boards these rules describe.
    #[error(transparent)]
    Search(SpaceError),
    /// `prove`'s buckets, board size or shard cannot be used.
    #[error(transparent)]
    Prove(ProveError),
    /// A subcommand needs a flag it was not given.
    #[error("boggle {mode} needs {flag}")]
    NeedsFlag {
        /// The subcommand, as it is spelt.
        mode: &'static str,
        /// The flag, with an example of its value.
        flag: &'static str,
    },
    /// A number below what a flag (or each of several) takes.
    #[error("{flags} must be at least {least}")]
    TooSmall {
        /// The flag or flags.
        flags: &'static str,
        /// The least value, with its unit.
        least: &'static str,
    },
    #[cfg(feature = "serve")]
    /// A flag that must not exceed another does.
    #[error("{min} is more than {max}")]
    MinAboveMax {
        /// The flag that is too large.
        min: &'static str,
        /// The flag it must not exceed.
        max: &'static str,
    },
    /// A `--time` that is not a number of seconds a clock can hold.
    #[error("--time {seconds} is not a number of seconds")]
    Seconds {
        /// The seconds given.
        seconds: f64,
    },
    /// A flag that the rules have nothing to apply it to (ece209 has no
    /// word list and shakes its own tray).
    #[error("{flag} does not apply to --rules {preset}: {why}")]
    NotWithRules {
        /// The flag.
        flag: &'static str,
        /// The rules asked for.
        preset: Preset,
        /// Why it does not apply.
        why: &'static str,
    },
    /// A player or room name that cannot be used.
    #[error("{flag}: {reason}")]
    Label {
        /// The flag (`--name`, `--room`).
        flag: &'static str,
        /// Why not.
        reason: String,
    },
}
