//! The rules of a game as one plain value: board shape, dice, word lengths,
//! scoring, the move rule and how `Q` reads. Every part of the program takes a
//! `Rules` instead of consulting constants, so one engine serves every preset.

pub use boggle_engine::{MAX_CELLS, MoveRule, Scoring, SearchRules};

use crate::dice::DiceSet;
use crate::face::QReads;

/// The longest timed turn any mode accepts, in seconds (a day).
pub const MAX_SECONDS: u64 = 24 * 60 * 60;

/// The built-in word lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WordList {
    /// The course's `words.txt` (a `words.txt` in the working directory takes its place).
    Course,
    /// The player list with commonness levels.
    Player,
}

/// The named rule sets, chosen with `--rules NAME`: the variant's name in
/// lower case.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    strum::Display,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::VariantArray,
)]
#[strum(serialize_all = "lowercase", ascii_case_insensitive)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum), value(rename_all = "lower"))]
pub enum Preset {
    /// Spec 004, the default console game.
    #[cfg_attr(
        feature = "clap",
        value(
            help = "4x4 spec 004 dice; 3+ letters scoring 3:1 4:1 5:2 6:3 7:4 8+:11; never going up a row; Q is plain"
        )
    )]
    Project4,
    /// Standard Hasbro rules (4x4 new dice, 5x5 big, 6x6 super big).
    #[cfg_attr(
        feature = "clap",
        value(
            help = "4x4 new dice, or 5x5 big / 6x6 super-big dice with --size (4+ letters there); 3+ letters scoring 3-4:1 5:2 6:3 7:5 8+:11; 8 neighbours; Qu"
        )
    )]
    Classic,
    /// Stanford CS106B (spec 000).
    #[cfg_attr(
        feature = "clap",
        value(help = "as classic with 4+ letters (spec 000)")
    )]
    Cs106b,
    /// Linköping TDDD86 (spec 003).
    #[cfg_attr(
        feature = "clap",
        value(help = "4x4 new dice; 4+ letters scoring length - 3 (spec 003)")
    )]
    Tddd86,
    /// NCSU ECE 209 "Boggle-ish" (spec 001): no dictionary.
    #[cfg_attr(
        feature = "clap",
        value(
            help = "spec 001's Boggle-ish: 4x4 classic dice shaken by a seeded 16-bit LFSR, a timer, 3 to 16 letters scoring as classic, any string on the board counts"
        )
    )]
    Ece209,
    /// Princeton algs4 (spec 002): any R x C board.
    #[cfg_attr(
        feature = "clap",
        value(
            help = "any RxC (new dice on 4x4, letter frequencies otherwise); as classic (spec 002)"
        )
    )]
    Algs4,
}

impl Preset {
    /// The preset's name (as `--rules` takes it).
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// The preset of that name, in any case.
    pub fn from_name(name: &str) -> Option<Preset> {
        name.parse().ok()
    }
}

/// Why a set of rules cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// The board has no cells, or more than the search supports.
    #[error("a {rows}x{cols} board is not possible (1 to {MAX_CELLS} cells)")]
    BadSize {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
    },
    /// The dice fill a different number of cells than the board has.
    #[error(
        "the {dice} dice do not fit a {rows}x{cols} board (they fill {} cells)",
        dice.faces().map_or(0, <[&str]>::len)
    )]
    DiceDoNotFit {
        /// The dice asked for.
        dice: DiceSet,
        /// Board rows.
        rows: usize,
        /// Board columns.
        cols: usize,
    },
    /// A minimum word length of 0 letters.
    #[error("the minimum word length must be at least 1")]
    ZeroMinLength,
    /// A maximum word length below the minimum.
    #[error("the maximum word length ({max}) is below the minimum ({min})")]
    MaxBelowMin {
        /// The minimum length.
        min: usize,
        /// The maximum length.
        max: usize,
    },
}

/// Everything that decides what counts as a word and what it scores.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// The preset these rules started from.
    pub preset: Preset,
    /// Board rows.
    pub rows: usize,
    /// Board columns.
    pub cols: usize,
    /// The dice a random board is rolled from.
    pub dice: DiceSet,
    /// Fewest letters a word may have.
    pub min_len: usize,
    /// Most letters a word may have, if limited.
    pub max_len: Option<usize>,
    /// Points by word length.
    pub scoring: Scoring,
    /// How a path may move.
    pub moves: MoveRule,
    /// Whether a `Q` face means `Qu` (two letters).
    pub q: QReads,
    /// Whether a word must be in the dictionary (ECE 209 scores any string on the board).
    pub dictionary_required: bool,
    /// The built-in word list played when no `--dict` is given.
    pub word_list: WordList,
    /// Whether a turn is played against the computer, which then takes every
    /// word left (CS106B, TDDD86); the full-screen game shows its score.
    pub against_computer: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules::project4()
    }
}

impl Rules {
    /// Spec 004: 4x4, its own dice, min 3, no going up, plain Q.
    pub fn project4() -> Rules {
        Rules {
            preset: Preset::Project4,
            rows: 4,
            cols: 4,
            dice: DiceSet::Project4,
            min_len: 3,
            max_len: None,
            scoring: Scoring::PROJECT4,
            moves: MoveRule::NoUp,
            q: QReads::Q,
            dictionary_required: true,
            word_list: WordList::Course,
            against_computer: false,
        }
    }

    /// The rules of a preset at its default size.
    pub fn preset(preset: Preset) -> Rules {
        let standard = Rules {
            preset,
            dice: DiceSet::New,
            scoring: Scoring::STANDARD,
            moves: MoveRule::EightNeighbours,
            q: QReads::Qu,
            word_list: WordList::Player,
            ..Rules::project4()
        };
        match preset {
            Preset::Project4 => Rules::project4(),
            Preset::Classic | Preset::Algs4 => standard,
            Preset::Cs106b => Rules {
                min_len: 4,
                against_computer: true,
                ..standard
            },
            Preset::Tddd86 => Rules {
                min_len: 4,
                scoring: Scoring::LengthMinus(3),
                against_computer: true,
                ..standard
            },
            Preset::Ece209 => Rules {
                dice: DiceSet::Classic,
                max_len: Some(16),
                dictionary_required: false,
                ..standard
            },
        }
    }

    /// The rules of a preset on a rows x cols board: the dice that fit that size
    /// (big dice on 5x5 and super-big on 6x6 where the preset has them, letter
    /// frequencies for any other size) and the minimum length those dice play with.
    pub fn sized(preset: Preset, rows: usize, cols: usize) -> Rules {
        let base = Rules::preset(preset);
        let big_sets = matches!(preset, Preset::Classic | Preset::Cs106b | Preset::Algs4);
        let dice = match (rows, cols) {
            (4, 4) => base.dice,
            (5, 5) if big_sets => DiceSet::Big,
            (6, 6) if big_sets => DiceSet::SuperBig,
            _ => DiceSet::Frequency,
        };
        // Big and super-big Boggle are played with words of 4 letters or more.
        let min_len = if preset == Preset::Classic && rows * cols > 16 && dice != DiceSet::Frequency
        {
            4
        } else {
            base.min_len
        };
        Rules {
            rows,
            cols,
            dice,
            min_len,
            ..base
        }
    }

    /// Checks that the rules can be played: a board size the search supports,
    /// dice that fill the board, and a minimum length of at least 1 letter.
    pub fn validate(&self) -> Result<(), RulesError> {
        let (rows, cols) = (self.rows, self.cols);
        let cells = rows.saturating_mul(cols);
        if rows == 0 || cols == 0 || cells > MAX_CELLS {
            return Err(RulesError::BadSize { rows, cols });
        }
        if !self.dice.fits(cells) {
            return Err(RulesError::DiceDoNotFit {
                dice: self.dice,
                rows,
                cols,
            });
        }
        if self.min_len == 0 {
            return Err(RulesError::ZeroMinLength);
        }
        if let Some(max) = self.max_len.filter(|&max| max < self.min_len) {
            return Err(RulesError::MaxBelowMin {
                min: self.min_len,
                max,
            });
        }
        Ok(())
    }

    /// Number of cells on the board.
    pub fn cells(&self) -> usize {
        self.rows * self.cols
    }

    /// Points for a word of `letters` letters under these rules (0 if its length is not allowed).
    pub fn word_score(&self, letters: usize) -> u32 {
        self.search_rules().word_score(letters)
    }

    /// What the search applies of these rules.
    pub fn search_rules(&self) -> SearchRules {
        SearchRules {
            rows: self.rows,
            cols: self.cols,
            min_len: self.min_len,
            max_len: self.max_len,
            scoring: self.scoring,
            moves: self.moves,
            q: self.q,
        }
    }

    /// The rules in a line a player reads:
    /// `classic: 4x4 board, new dice, words of 3+ letters scoring 3:1 4:1 5:2 6:3 7:5 8+:11, 8 neighbours, Q is Qu`.
    pub fn describe(&self) -> String {
        let letters = match self.max_len {
            Some(max) => format!("words of {} to {max} letters", self.min_len),
            None => format!("words of {}+ letters", self.min_len),
        };
        let scoring = match self.scoring {
            Scoring::Table(_) => {
                let steps: Vec<String> = (self.min_len.max(1)..=8)
                    .map(|n| {
                        let plus = if n == 8 { "+" } else { "" };
                        format!("{n}{plus}:{}", self.scoring.points(n))
                    })
                    .collect();
                steps.join(" ")
            }
            Scoring::LengthMinus(n) => format!("length - {n}"),
        };
        let moves = match self.moves {
            MoveRule::EightNeighbours => "8 neighbours",
            MoveRule::NoUp => "never going up a row",
        };
        let q = match self.q {
            QReads::Qu => "Q is Qu",
            QReads::Q => "Q is plain",
        };
        format!(
            "{}: {}x{} board, {} dice, {letters} scoring {scoring}, {moves}, {q}",
            self.preset, self.rows, self.cols, self.dice
        )
    }

    /// Whether a word of `letters` letters may score under these rules.
    pub fn allows_len(&self, letters: usize) -> bool {
        self.search_rules().allows_len(letters)
    }
}

impl From<&Rules> for SearchRules {
    fn from(rules: &Rules) -> SearchRules {
        rules.search_rules()
    }
}

impl From<Rules> for SearchRules {
    fn from(rules: Rules) -> SearchRules {
        rules.search_rules()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn project4_scores_follow_spec_004() {
        let rules = Rules::project4();
        let got: Vec<u32> = (0..=10).map(|n| rules.word_score(n)).collect();
        assert_eq!(got, [0, 0, 0, 1, 1, 2, 3, 4, 11, 11, 11]);
    }

    #[test]
    fn tddd86_scores_one_point_per_letter_beyond_three() {
        let rules = Rules::preset(Preset::Tddd86);
        let got: Vec<u32> = (0..=9).map(|n| rules.word_score(n)).collect();
        assert_eq!(got, [0, 0, 0, 0, 1, 2, 3, 4, 5, 6]);
    }

    #[test]
    fn ece209_caps_words_at_sixteen_letters() {
        let rules = Rules::preset(Preset::Ece209);
        assert_eq!(rules.word_score(16), 11);
        assert_eq!(rules.word_score(17), 0);
        assert!(!rules.dictionary_required);
    }

    #[test]
    fn sizes_pick_dice_that_fit() {
        let big = Rules::sized(Preset::Classic, 5, 5);
        assert_eq!((big.dice, big.min_len), (DiceSet::Big, 4));
        let super_big = Rules::sized(Preset::Cs106b, 6, 6);
        assert_eq!((super_big.dice, super_big.min_len), (DiceSet::SuperBig, 4));
        let odd = Rules::sized(Preset::Algs4, 3, 7);
        assert_eq!((odd.dice, odd.min_len), (DiceSet::Frequency, 3));
        for &preset in <Preset as strum::VariantArray>::VARIANTS {
            for (rows, cols) in [(4, 4), (5, 5), (6, 6), (1, 1), (2, 9)] {
                assert_eq!(
                    Rules::sized(preset, rows, cols).validate(),
                    Ok(()),
                    "{preset} {rows}x{cols}"
                );
            }
        }
    }

    #[test]
    fn impossible_rules_are_refused() {
        let mut rules = Rules::project4();
        rules.rows = 5;
        assert!(matches!(
            rules.validate(),
            Err(RulesError::DiceDoNotFit { rows: 5, .. })
        ));
        let mut rules = Rules::project4();
        rules.min_len = 0;
        assert_eq!(rules.validate(), Err(RulesError::ZeroMinLength));
        let mut rules = Rules::project4();
        rules.cols = 0;
        assert_eq!(
            rules.validate(),
            Err(RulesError::BadSize { rows: 4, cols: 0 })
        );
        let mut rules = Rules::project4();
        rules.max_len = Some(2);
        assert_eq!(
            rules.validate().map_err(|e| e.to_string()),
            Err("the maximum word length (2) is below the minimum (3)".to_string())
        );
    }

    #[test]
    fn rules_read_as_one_line() {
        assert_eq!(
            Rules::preset(Preset::Classic).describe(),
            "classic: 4x4 board, new dice, words of 3+ letters scoring 3:1 4:1 5:2 6:3 7:5 8+:11, \
             8 neighbours, Q is Qu"
        );
        assert_eq!(
            Rules::preset(Preset::Tddd86).describe(),
            "tddd86: 4x4 board, new dice, words of 4+ letters scoring length - 3, 8 neighbours, Q is Qu"
        );
    }

    #[test]
    fn presets_parse_by_their_names_in_any_case() {
        for &preset in <Preset as strum::VariantArray>::VARIANTS {
            assert_eq!(Preset::from_name(preset.name()), Some(preset));
            let upper = preset.name().to_ascii_uppercase();
            assert_eq!(Preset::from_name(&upper), Some(preset));
        }
        assert_eq!(Preset::from_name("scrabble"), None);
    }
}
