//! The command line's choices that are not a core type's own: `--simd`,
//! whose `auto` is no level but the absence of one. The core types' choices
//! (rule presets, dice sets, the computer's level, the words that count,
//! what a word two players found scores, what `best` maximises) derive
//! clap's `ValueEnum` in their own crates, under their "clap" feature, and
//! take their names from strum, so no name is kept twice.

use boggle_engine::cpu::Simd;
use clap::ValueEnum;

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

#[cfg(test)]
mod tests {
    #![expect(
        clippy::disallowed_types,
        reason = "checks that each preset's clap name is its core name"
    )]
    use boggle_game::dice::DiceSet;
    use boggle_game::rules::Preset;
    use clap::ValueEnum;

    /// clap's names (`rename_all = "lower"`) and strum's (`lowercase`) are
    /// the same: `--rules` and `--dice` take what `name()` prints.
    #[test]
    fn every_preset_and_dice_set_has_its_core_name() {
        for preset in Preset::value_variants() {
            let name = preset.to_possible_value().map(|v| v.get_name().to_string());
            assert_eq!(name.as_deref(), Some(preset.name()));
        }
        for set in DiceSet::value_variants() {
            let name = set.to_possible_value().map(|v| v.get_name().to_string());
            assert_eq!(name.as_deref(), Some(set.name()));
        }
        assert_eq!(DiceSet::SuperBig.name(), "superbig");
    }
}
