//! Command-line settings shared by several modes: the rule flags (`--rules`,
//! `--size`, `--dice`, `--min-len`) and how they resolve into one [`Rules`].

use clap::Args;

use crate::dice::DiceSet;
use crate::error::Error;
use crate::rules::{Preset, Rules};

/// The flags that choose and adjust the rules.
#[derive(Debug, Args, Clone, Default, PartialEq, Eq)]
pub struct RulesArgs {
    /// Rule set: project4 (default), classic, cs106b (versus default), tddd86, ece209, algs4
    ///
    /// project4  4x4 spec 004 dice; 3+ letters scoring 3:1 4:1 5:2 6:3 7:4 8+:11;
    ///           never going up a row; Q is plain
    /// classic   4x4 new dice, or 5x5 big / 6x6 super-big dice with --size (4+ letters
    ///           there); 3+ letters scoring 3-4:1 5:2 6:3 7:5 8+:11; 8 neighbours; Qu
    /// cs106b    as classic with 4+ letters (spec 000)
    /// tddd86    4x4 new dice; 4+ letters scoring length - 3 (spec 003)
    /// ece209    spec 001's Boggle-ish: 4x4 classic dice shaken by a seeded 16-bit LFSR,
    ///           a timer, 3 to 16 letters scoring as classic, any string on the board counts
    /// algs4     any RxC (new dice on 4x4, letter frequencies otherwise); as classic (spec 002)
    #[arg(
        long = "rules",
        value_name = "NAME",
        value_parser = parse_preset,
        verbatim_doc_comment
    )]
    pub preset: Option<Preset>,
    /// Board size: N for N x N, or RxC
    #[arg(long, value_name = "N|RxC", value_parser = parse_size)]
    pub size: Option<(usize, usize)>,
    /// Dice: project4, classic, new, big, superbig, frequency
    #[arg(long, value_name = "SET", value_parser = parse_dice)]
    pub dice: Option<DiceSet>,
    /// Fewest letters a word may have
    #[arg(long = "min-len", value_name = "N")]
    pub min_len: Option<usize>,
}

impl RulesArgs {
    /// The rules these flags describe, starting from `default` when `--rules` is absent.
    /// An impossible combination is a usage error.
    pub fn resolve(&self, default: Preset) -> Result<Rules, Error> {
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
        rules.validate().map_err(Error::Usage)?;
        Ok(rules)
    }

    /// Like [`RulesArgs::resolve`], for a mode (`mode` names it) that needs a
    /// dictionary to know the words: rules that score any string on the board
    /// (ece209) are a usage error pointing to the console game, which plays them.
    pub fn resolve_with_dictionary(&self, default: Preset, mode: &str) -> Result<Rules, Error> {
        let rules = self.resolve(default)?;
        if !rules.dictionary_required {
            return Err(Error::Usage(format!(
                "{mode} needs rules with a dictionary ({} scores any string on the board); \
                 play them with 'boggle --rules {}'",
                rules.preset, rules.preset
            )));
        }
        Ok(rules)
    }
}

/// Parses a preset name for clap.
pub fn parse_preset(text: &str) -> Result<Preset, String> {
    Preset::from_name(text).ok_or_else(|| {
        let names: Vec<&str> = Preset::ALL.iter().map(|p| p.name()).collect();
        format!(
            "unknown rules '{text}' (choose one of {})",
            names.join(", ")
        )
    })
}

/// Parses a dice set name for clap.
pub fn parse_dice(text: &str) -> Result<DiceSet, String> {
    DiceSet::from_name(text).ok_or_else(|| {
        let names: Vec<&str> = DiceSet::ALL.iter().map(|d| d.name()).collect();
        format!("unknown dice '{text}' (choose one of {})", names.join(", "))
    })
}

/// Parses `N` or `RxC` for clap.
pub fn parse_size(text: &str) -> Result<(usize, usize), String> {
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
        assert_eq!(err.exit_code(), 2);
        let args = RulesArgs {
            min_len: Some(0),
            ..RulesArgs::default()
        };
        assert!(args.resolve(Preset::Project4).is_err());
    }
}
