//! Command-line settings shared by several modes: the rule flags (`--rules`,
//! `--size`, `--dice`, `--min-len`) and how they resolve into one [`Rules`],
//! the word-list flag, and the bounds every mode puts on `--time` and `--threads`.

use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, RangedU64ValueParser, TypedValueParser};
use clap::{Arg, Args, ValueEnum};

#[cfg(feature = "net")]
use super::CliError;
use super::UsageError;
use boggle_engine::cpu::Simd;
use boggle_game::dice::DiceSet;
use boggle_game::dictionary::Dictionary;
use boggle_game::error::Error;
use boggle_game::rules::{Preset, Rules};

// Longest `--time`: a day. Beyond it a clock would overflow (2^64 seconds
// cannot be added to an instant), and no game or search needs more.
pub(crate) use boggle_game::rules::MAX_SECONDS;

/// Most `--threads`: 4 per core of a 64-core machine. The same on every
/// machine, so a `best --seed S --threads T` run repeats anywhere; beyond it
/// threads only cost memory and time slices (1,024 searching chains on 2 cores
/// overran `best --time 1` twentyfold), and 2^60 of them cannot be made.
pub(crate) const MAX_THREADS: usize = 256;

/// `--time SECONDS` for the games: 0 to [`MAX_SECONDS`].
pub(crate) fn game_seconds() -> RangedU64ValueParser<u64> {
    RangedU64ValueParser::new().range(0..=MAX_SECONDS)
}

/// `--password` and `--password-file`, the same for the server and its players.
#[cfg(feature = "net")]
#[derive(Clone, Debug, Args)]
pub(crate) struct PasswordArgs {
    /// The server's password (or --password-file, or BOGGLE_PASSWORD: any
    /// local user can read a command line)
    #[arg(long, value_name = "TEXT")]
    pub(crate) password: Option<String>,
    /// Read the password from the first line of this file
    #[arg(
        long = "password-file",
        value_name = "PATH",
        conflicts_with = "password"
    )]
    pub(crate) password_file: Option<std::path::PathBuf>,
}

#[cfg(feature = "net")]
impl PasswordArgs {
    /// The password from the flag, its file or `BOGGLE_PASSWORD`, if any.
    pub(crate) fn read(&self) -> Result<Option<String>, CliError> {
        secret(
            self.password.as_deref(),
            self.password_file.as_deref(),
            "--password-file",
            "BOGGLE_PASSWORD",
        )
    }
}

#[cfg(feature = "net")]
/// A secret (a password, a token) from its flag, else the first line of its
/// file (named by `file_flag`), else the environment variable `env`: a
/// command line is readable by every local user, a file or the environment
/// need not be.
pub(crate) fn secret(
    flag: Option<&str>,
    file: Option<&std::path::Path>,
    file_flag: &'static str,
    env: &str,
) -> Result<Option<String>, CliError> {
    use std::io::Read;
    if let Some(text) = flag {
        return Ok(Some(text.to_string()));
    }
    if let Some(path) = file {
        let mut text = String::new();
        std::fs::File::open(path)
            .and_then(|f| f.take(64 << 10).read_to_string(&mut text))
            .map_err(|source| CliError::SecretFile {
                flag: file_flag,
                path: path.to_path_buf(),
                source,
            })?;
        let line = text.lines().next().unwrap_or_default();
        return Ok(Some(line.to_string()));
    }
    Ok(std::env::var(env).ok().filter(|v| !v.is_empty()))
}

/// `--simd`, shared by the modes that search many boards.
#[derive(Clone, Copy, Debug, Args)]
pub(crate) struct SimdArgs {
    /// Vector instructions the search may use: auto (the widest this processor has), avx512, avx2 or none
    #[arg(long, value_name = "LEVEL", value_enum, default_value_t = super::values::SimdArg::Auto)]
    pub(crate) simd: super::values::SimdArg,
}

impl SimdArgs {
    /// Caps the whole process's vector instructions at the level asked
    /// for; a level the processor lacks is a usage error.
    pub(crate) fn apply(self) -> Result<(), UsageError> {
        self.apply_with(Simd::present, |level| {
            boggle_engine::cpu::set_simd(level).map_err(UsageError::from)
        })
    }

    /// [`SimdArgs::apply`] with `present` saying which levels the processor
    /// has and `set` choosing one: a test can say a level is missing.
    pub(crate) fn apply_with(
        self,
        present: impl Fn(Simd) -> bool,
        set: impl FnOnce(Simd) -> Result<(), UsageError>,
    ) -> Result<(), UsageError> {
        match self.simd.level() {
            Some(level) => set(boggle_engine::cpu::check(level, present)?),
            None => Ok(()),
        }
    }
}

/// The flags every mode that searches boards with a word list shares; each
/// mode sets its own default `--rules` with `rules_arg`.
#[derive(Clone, Debug, Args)]
pub(crate) struct SolverArgs {
    /// The word list.
    #[command(flatten)]
    pub(crate) dict: DictArgs,
    /// The rules to score by.
    #[command(flatten)]
    pub(crate) rules: RulesArgs,
    /// The vector instructions the search may use.
    #[command(flatten)]
    pub(crate) simd: SimdArgs,
}

impl SolverArgs {
    /// Caps the vector instructions as `--simd` asks, then resolves the
    /// rules (`default` without `--rules`) for `mode`, which needs a word list.
    pub(crate) fn start(&self, default: Preset, mode: &'static str) -> Result<Rules, UsageError> {
        self.simd.apply()?;
        self.rules.resolve_with_dictionary(default, mode)
    }
}

/// `--threads T`: 1 to [`MAX_THREADS`].
pub(crate) fn threads() -> RangedU64ValueParser<usize> {
    RangedU64ValueParser::new().range(1..=MAX_THREADS as u64)
}

/// `--time SECONDS` for a search: a positive number up to [`MAX_SECONDS`], fractions allowed.
pub(crate) fn search_seconds(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|s| *s > 0.0 && *s <= MAX_SECONDS as f64)
        .ok_or_else(|| format!("write a number of seconds above 0 and at most {MAX_SECONDS}"))
}

/// The presets every mode that needs a dictionary accepts: all but ece209,
/// which scores any string and is played only by the console game.
pub(crate) const DICTIONARY_PRESETS: [Preset; 5] = [
    Preset::Project4,
    Preset::Classic,
    Preset::Cs106b,
    Preset::Tddd86,
    Preset::Algs4,
];

/// Fits `--rules` to one subcommand: `default` is shown and used when the flag
/// is absent, and only `offered` presets are listed in its help. The others
/// still parse, so a mode can say why it refuses them and where to play them.
pub(crate) fn rules_arg(arg: Arg, default: Preset, offered: &[Preset]) -> Arg {
    let values = Preset::value_variants().iter().filter_map(|preset| {
        let value = preset.to_possible_value()?;
        Some(value.hide(!offered.contains(preset)))
    });
    arg.value_parser(
        PossibleValuesParser::new(values)
            .try_map(|name| <Preset as ValueEnum>::from_str(&name, true)),
    )
    .default_value(default.name())
}

/// The word-list flag, the same in every mode that reads words.
#[derive(Debug, Args, Clone, Default, PartialEq, Eq)]
pub(crate) struct DictArgs {
    /// Word list, one word per line [default: under project4 words.txt here, else the built-in course list; under other rules the built-in player list]
    #[arg(long = "dict", value_name = "PATH")]
    pub(crate) path: Option<PathBuf>,
}

impl DictArgs {
    /// Loads `--dict PATH`, or the rules' built-in list (for the course list,
    /// `words.txt` here if there is one).
    pub(crate) fn load(&self, rules: &Rules) -> Result<Dictionary, Error> {
        Ok(match &self.path {
            Some(path) => Dictionary::from_file(path)?,
            None => Dictionary::load_builtin(rules.word_list)?,
        })
    }
}

/// The flags that choose and adjust the rules.
#[derive(Debug, Args, Clone, Default, PartialEq, Eq)]
pub(crate) struct RulesArgs {
    /// Rule set
    #[arg(long = "rules", value_name = "NAME", ignore_case = true, value_enum)]
    pub(crate) preset: Option<Preset>,
    /// Board size: N for N x N, or RxC [default: the rules' own]
    #[arg(long, value_name = "N|RxC", value_parser = parse_size)]
    pub(crate) size: Option<(usize, usize)>,
    /// Dice [default: the rules' own for the board size]
    #[arg(long, value_name = "SET", ignore_case = true, value_enum)]
    pub(crate) dice: Option<DiceSet>,
    /// Fewest letters a word may have [default: the rules' own]
    #[arg(short = 'w', long = "min-len", value_name = "N")]
    pub(crate) min_len: Option<usize>,
}

impl RulesArgs {
    /// The rules these flags describe, starting from `default` when `--rules` is absent.
    /// An impossible combination is a usage error.
    pub(crate) fn resolve(&self, default: Preset) -> Result<Rules, UsageError> {
        let preset = self.preset.unwrap_or(default);
        let base = Rules::preset(preset);
        let (rows, cols) = self.size.unwrap_or((base.rows, base.cols));
        let mut rules = Rules::sized(preset, rows, cols);
        if let Some(dice) = self.dice {
            rules.dice = dice;
        }
        if let Some(min_len) = self.min_len {
            rules.min_len = min_len;
        }
        rules.validate()?;
        Ok(rules)
    }

    /// Like [`RulesArgs::resolve`], for a mode (`mode` names its subcommand)
    /// that needs a dictionary to know the words: rules that score any string
    /// on the board (ece209) are a usage error pointing to the console game.
    pub(crate) fn resolve_with_dictionary(
        &self,
        default: Preset,
        mode: &'static str,
    ) -> Result<Rules, UsageError> {
        let rules = self.resolve(default)?;
        if !rules.dictionary_required {
            return Err(UsageError::NeedsDictionary {
                mode,
                preset: rules.preset,
            });
        }
        Ok(rules)
    }
}

/// Parses `N` or `RxC` for clap.
pub(crate) fn parse_size(text: &str) -> Result<(usize, usize), String> {
    let number = |s: &str| s.trim().parse::<usize>().ok().filter(|&n| n > 0);
    let size = match text.split_once(['x', 'X']) {
        Some((rows, cols)) => number(rows).zip(number(cols)),
        None => number(text).map(|n| (n, n)),
    };
    size.ok_or_else(|| format!("'{text}' is not a board size (write N or RxC, e.g. 5 or 4x6)"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::CliError;

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_size("5"), Ok((5, 5)));
        assert_eq!(parse_size("4x6"), Ok((4, 6)));
        assert_eq!(parse_size("3X2"), Ok((3, 2)));
        for bad in ["0", "x", "4x", "-1", "4x0", "abc"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn flags_override_the_preset() {
        let args = RulesArgs {
            preset: Some(Preset::Classic),
            size: Some((5, 5)),
            min_len: Some(3),
            ..RulesArgs::default()
        };
        let rules = args.resolve(Preset::Project4).expect("valid");
        assert_eq!(
            (rules.rows, rules.dice, rules.min_len),
            (5, DiceSet::Big, 3)
        );
    }

    #[test]
    fn impossible_combinations_are_usage_errors() {
        let args = RulesArgs {
            size: Some((5, 5)),
            dice: Some(DiceSet::New),
            ..RulesArgs::default()
        };
        let err = args.resolve(Preset::Classic).expect_err("new dice are 4x4");
        assert_eq!(CliError::from(err).exit_code(), 2);
        let args = RulesArgs {
            min_len: Some(0),
            ..RulesArgs::default()
        };
        assert!(args.resolve(Preset::Project4).is_err());
    }
}
