//! Usage errors: a command line that asks for something impossible. Each
//! carries the values it is about; [`super::CliError::Usage`] maps it to exit
//! status 2. Flags clap can check alone (ranges, names) never get here: clap
//! refuses them with its own message, also status 2.

use std::fmt;

use crate::modes::best::SpaceError;
use crate::modes::boggleish::MAX_SEED;
use boggle_game::game_board::BoardError;
use boggle_game::rules::{Preset, RulesError};
use boggle_prove::ProveError;

/// A command line that cannot be run as given.
#[derive(Debug)]
pub enum UsageError {
    /// `--rules`, `--size`, `--dice` and `--min-len` describe rules that cannot be played.
    Rules(RulesError),
    /// A mode that needs a dictionary was given rules that score any string (ece209).
    NeedsDictionary {
        /// The mode, as its subcommand is spelt (`versus`, `best`, `tui`).
        mode: &'static str,
        /// The rules asked for.
        preset: Preset,
    },
    /// `--words common`, or a computer below perfect, with a word list without commonness levels.
    NeedsLevels {
        /// The word list, as [`boggle_game::Dictionary::describe`] names it.
        word_list: String,
    },
    /// A `--seed` beyond what ece209's 16-bit register can take.
    Ece209Seed {
        /// The seed given.
        seed: u64,
    },
    /// `solve` was given neither a board file nor `--board`.
    NoBoard,
    /// `--board LETTERS` does not spell a board of the rules' size.
    Board {
        /// Rows the rules ask for.
        rows: usize,
        /// Columns the rules ask for.
        cols: usize,
        /// What is wrong with the letters.
        source: BoardError,
    },
    /// `best` cannot search the boards these rules describe.
    Search(SpaceError),
    /// `prove`'s buckets, board size or shard cannot be used.
    Prove(ProveError),
    /// A subcommand needs a flag it was not given.
    NeedsFlag {
        /// The subcommand, as it is spelt.
        mode: &'static str,
        /// The flag, with an example of its value.
        flag: &'static str,
    },
    /// A number below what a flag (or each of several) takes.
    TooSmall {
        /// The flag or flags.
        flags: &'static str,
        /// The least value, with its unit.
        least: &'static str,
    },
    /// A flag that must not exceed another does.
    MinAboveMax {
        /// The flag that is too large.
        min: &'static str,
        /// The flag it must not exceed.
        max: &'static str,
    },
    /// A `--time` that is not a number of seconds a clock can hold.
    Seconds {
        /// The seconds given.
        seconds: f64,
    },
    /// A flag that the rules have nothing to apply it to (ece209 has no
    /// word list and shakes its own tray).
    NotWithRules {
        /// The flag.
        flag: &'static str,
        /// The rules asked for.
        preset: Preset,
        /// Why it does not apply.
        why: &'static str,
    },
    /// A player or room name that cannot be used.
    Label {
        /// The flag (`--name`, `--room`).
        flag: &'static str,
        /// Why not.
        reason: String,
    },
}

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UsageError::Rules(_) => f.write_str("impossible rules"),
            UsageError::NeedsDictionary { mode, preset } => write!(
                f,
                "{mode} needs rules with a dictionary ({preset} scores any string on the board); \
                 play them with 'boggle --rules {preset}'"
            ),
            UsageError::NeedsLevels { word_list } => write!(
                f,
                "--words common and --level need a word list with commonness levels, and \
                 {word_list} has none (the player list of every preset but project4 has them)"
            ),
            UsageError::Ece209Seed { seed } => write!(
                f,
                "--seed {seed} is too large: ece209 seeds go from 0 to {MAX_SEED} \
                 (its random numbers come from a 16-bit register)"
            ),
            UsageError::NoBoard => {
                f.write_str("give a board file (or - for standard input), or --board LETTERS")
            }
            UsageError::Board { rows, cols, .. } => {
                write!(f, "--board does not spell a {rows}x{cols} board")
            }
            UsageError::Search(e) => e.fmt(f),
            UsageError::Prove(e) => e.fmt(f),
            UsageError::NeedsFlag { mode, flag } => write!(f, "boggle {mode} needs {flag}"),
            UsageError::TooSmall { flags, least } => write!(f, "{flags} must be at least {least}"),
            UsageError::MinAboveMax { min, max } => write!(f, "{min} is more than {max}"),
            UsageError::Seconds { seconds } => {
                write!(f, "--time {seconds} is not a number of seconds")
            }
            UsageError::Label { flag, reason } => write!(f, "{flag}: {reason}"),
            UsageError::NotWithRules { flag, preset, why } => {
                write!(f, "{flag} does not apply to --rules {preset}: {why}")
            }
        }
    }
}

impl std::error::Error for UsageError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            UsageError::Rules(e) => Some(e),
            UsageError::Board { source, .. } => Some(source),
            UsageError::Prove(e) => std::error::Error::source(e),
            UsageError::NeedsDictionary { .. }
            | UsageError::NeedsLevels { .. }
            | UsageError::Ece209Seed { .. }
            | UsageError::NoBoard
            | UsageError::Search(_)
            | UsageError::NeedsFlag { .. }
            | UsageError::TooSmall { .. }
            | UsageError::MinAboveMax { .. }
            | UsageError::Seconds { .. }
            | UsageError::Label { .. }
            | UsageError::NotWithRules { .. } => None,
        }
    }
}

impl From<RulesError> for UsageError {
    fn from(e: RulesError) -> Self {
        UsageError::Rules(e)
    }
}
