//! The command line's names and help for the choices the core types offer:
//! rule presets, dice sets, the computer's level, the words that count, and
//! what happens to a word two players found. The core types (in
//! `boggle-game` and `boggle-net`) know nothing of clap; each choice here is
//! a `ValueEnum` of its own, converted with `From`, and [`parser`] turns one
//! into a clap value parser that yields the core type directly.

use boggle_game::dice::DiceSet;
use boggle_game::dictionary::{Level, WordsCounted};
use boggle_game::rules::Preset;
use boggle_protocol::Duplicates;

use boggle_best::Objective;
use boggle_engine::cpu::Simd;
use clap::ValueEnum;
use clap::builder::{EnumValueParser, TypedValueParser};

/// A value parser for `--flag NAME` that reads `A`'s names (with their help)
/// and yields the core type `T`.
pub(crate) fn parser<A, T>() -> impl TypedValueParser<Value = T>
where
    A: ValueEnum + Clone + Send + Sync + 'static,
    T: From<A> + Clone + Send + Sync + 'static,
{
    EnumValueParser::<A>::new().map(T::from)
}

/// `--rules NAME`: the presets; each `help` is the line `--help` shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum PresetArg {
    /// Spec 004, the default console game.
    #[value(
        name = Preset::NAMES[0],
        help = "4x4 spec 004 dice; 3+ letters scoring 3:1 4:1 5:2 6:3 7:4 8+:11; never going up a row; Q is plain"
    )]
    Project4,
    /// Standard Hasbro rules.
    #[value(
        name = Preset::NAMES[1],
        help = "4x4 new dice, or 5x5 big / 6x6 super-big dice with --size (4+ letters there); 3+ letters scoring 3-4:1 5:2 6:3 7:5 8+:11; 8 neighbours; Qu"
    )]
    Classic,
    /// Stanford CS106B (spec 000).
    #[value(name = Preset::NAMES[2], help = "as classic with 4+ letters (spec 000)")]
    Cs106b,
    /// Linköping TDDD86 (spec 003).
    #[value(
        name = Preset::NAMES[3],
        help = "4x4 new dice; 4+ letters scoring length - 3 (spec 003)"
    )]
    Tddd86,
    /// NCSU ECE 209 "Boggle-ish" (spec 001).
    #[value(
        name = Preset::NAMES[4],
        help = "spec 001's Boggle-ish: 4x4 classic dice shaken by a seeded 16-bit LFSR, a timer, 3 to 16 letters scoring as classic, any string on the board counts"
    )]
    Ece209,
    /// Princeton algs4 (spec 002).
    #[value(
        name = Preset::NAMES[5],
        help = "any RxC (new dice on 4x4, letter frequencies otherwise); as classic (spec 002)"
    )]
    Algs4,
}

impl From<PresetArg> for Preset {
    fn from(arg: PresetArg) -> Preset {
        match arg {
            PresetArg::Project4 => Preset::Project4,
            PresetArg::Classic => Preset::Classic,
            PresetArg::Cs106b => Preset::Cs106b,
            PresetArg::Tddd86 => Preset::Tddd86,
            PresetArg::Ece209 => Preset::Ece209,
            PresetArg::Algs4 => Preset::Algs4,
        }
    }
}

/// `--dice SET`: the dice sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum DiceArg {
    /// Spec 004's dice.
    #[value(name = DiceSet::NAMES[0], help = "spec 004's 16 dice (4x4)")]
    Project4,
    /// The 1976 dice.
    #[value(name = DiceSet::NAMES[1], help = "the 1976 dice (4x4)")]
    Classic,
    /// The 1987 dice.
    #[value(name = DiceSet::NAMES[2], help = "the 1987 dice (4x4)")]
    New,
    /// Big Boggle.
    #[value(name = DiceSet::NAMES[3], help = "Big Boggle's 25 dice (5x5)")]
    Big,
    /// Super Big Boggle.
    #[value(name = DiceSet::NAMES[4], help = "Super Big Boggle's 36 dice (6x6)")]
    SuperBig,
    /// Letters by English frequency.
    #[value(
        name = DiceSet::NAMES[5],
        help = "each cell a letter drawn by English frequency (any size)"
    )]
    Frequency,
}

impl From<DiceArg> for DiceSet {
    fn from(arg: DiceArg) -> DiceSet {
        match arg {
            DiceArg::Project4 => DiceSet::Project4,
            DiceArg::Classic => DiceSet::Classic,
            DiceArg::New => DiceSet::New,
            DiceArg::Big => DiceSet::Big,
            DiceArg::SuperBig => DiceSet::SuperBig,
            DiceArg::Frequency => DiceSet::Frequency,
        }
    }
}

/// `--simd LEVEL`: the vector instructions the search may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum SimdArg {
    /// The widest this processor has.
    Auto,
    /// AVX-512 (x86-64-v4 with VPOPCNTDQ): the vector walk on masks and compresses.
    Avx512,
    /// AVX2 (x86-64-v3): the vector walk on eight 32-bit lanes, as on processors without AVX-512.
    Avx2,
    /// None: the bitmask walk and the baseline build, as on any x86-64.
    None,
}

impl SimdArg {
    /// The level asked for (`None` for auto).
    pub(crate) fn level(self) -> Option<Simd> {
        match self {
            SimdArg::Auto => None,
            SimdArg::Avx512 => Some(Simd::Avx512),
            SimdArg::Avx2 => Some(Simd::Avx2),
            SimdArg::None => Some(Simd::None),
        }
    }
}

/// `--level LEVEL`: how much of the word list the computer knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum LevelArg {
    /// Everyday words only (SCOWL 10 and 20): about a seventh of a board's points.
    Easy,
    /// The words of a small dictionary (SCOWL up to 40): about a third.
    Medium,
    /// Every word a large dictionary lists (SCOWL up to 70): about half.
    Hard,
    /// Every word of the list.
    Perfect,
}

impl From<LevelArg> for Level {
    fn from(arg: LevelArg) -> Level {
        match arg {
            LevelArg::Easy => Level::Easy,
            LevelArg::Medium => Level::Medium,
            LevelArg::Hard => Level::Hard,
            LevelArg::Perfect => Level::Perfect,
        }
    }
}

/// `--words WHICH`: the words that count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum WordsArg {
    /// Only common words (SCOWL up to 50, a desk dictionary): a casual game.
    Common,
    /// Every word of the list.
    All,
}

impl From<WordsArg> for WordsCounted {
    fn from(arg: WordsArg) -> WordsCounted {
        match arg {
            WordsArg::Common => WordsCounted::Common,
            WordsArg::All => WordsCounted::All,
        }
    }
}

/// `--duplicates RULE`: what a word two players found scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum DuplicatesArg {
    /// The board game's rule: a word two players found scores for neither.
    Cancel,
    /// Every player keeps every word they found.
    Count,
}

impl From<DuplicatesArg> for Duplicates {
    fn from(arg: DuplicatesArg) -> Duplicates {
        match arg {
            DuplicatesArg::Cancel => Duplicates::Cancel,
            DuplicatesArg::Count => Duplicates::Count,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_and_dice_set_has_its_core_name() {
        for arg in PresetArg::value_variants() {
            let name = arg.to_possible_value().map(|v| v.get_name().to_string());
            assert_eq!(name.as_deref(), Some(Preset::from(*arg).name()));
        }
        for arg in DiceArg::value_variants() {
            let name = arg.to_possible_value().map(|v| v.get_name().to_string());
            assert_eq!(name.as_deref(), Some(DiceSet::from(*arg).name()));
        }
        assert_eq!(PresetArg::value_variants().len(), Preset::ALL.len());
        assert_eq!(DiceArg::value_variants().len(), DiceSet::ALL.len());
    }
}

/// `boggle best --score`: what the search maximises.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ObjectiveArg {
    /// The board's points under the rules.
    Points,
    /// The number of distinct words on the board.
    Words,
}

impl From<ObjectiveArg> for Objective {
    fn from(arg: ObjectiveArg) -> Objective {
        match arg {
            ObjectiveArg::Points => Objective::Points,
            ObjectiveArg::Words => Objective::Words,
        }
    }
}
