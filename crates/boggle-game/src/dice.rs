//! The authentic dice sets (see `dice-sets.md` in the specs) and the letter
//! frequencies algs4 uses for boards no dice set fits; rolling a whole board.

use rand::RngCore;

use crate::die::Die;
use crate::face::{Face, QReads};
use crate::random;

/// Spec 004's 16 dice, in the order it lists them (its Q is a plain letter).
pub const PROJECT4_DICE: [&str; 16] = [
    "RIFOBX", "IFEHEY", "DENOWS", "HMSRAO", "LUPETS", "ACITOA", "YLGKUE", "QBMJOA", "EHISPN",
    "VETIGN", "BALIYT", "EZAVND", "RALESC", "UWILRG", "PACEMD", "UTOKND",
];

/// The classic 1976–1986 4x4 set.
pub(crate) const CLASSIC_DICE: [&str; 16] = [
    "AACIOT", "ABILTY", "ABJMOQu", "ACDEMP", "ACELRS", "ADENVZ", "AHMORS", "BFIORX", "DENOSW",
    "DKNOTU", "EEFHIY", "EGKLUY", "EGINTV", "EHINPS", "ELPSTU", "GILRUW",
];

/// The new 1987 4x4 set (algs4's default "Hasbro" board).
pub(crate) const NEW_DICE: [&str; 16] = [
    "AAEEGN", "ABBJOO", "ACHOPS", "AFFKPS", "AOOTTW", "CIMOTU", "DEILRX", "DELRVY", "DISTTY",
    "EEGHNW", "EEINSU", "EHRTVW", "EIOSST", "ELRTTY", "HIMNQuU", "HLNNRZ",
];

/// Big Boggle 5x5 (Master/Deluxe), 25 dice.
pub(crate) const BIG_DICE: [&str; 25] = [
    "AAAFRS", "AAEEEE", "AAFIRS", "ADENNN", "AEEEEM", "AEEGMU", "AEGMNN", "AFIRSY", "BJKQuXZ",
    "CCNSTW", "CEIILT", "CEILPT", "CEIPST", "DDLNOR", "DHHLOR", "DHHNOT", "DHLNOR", "EIIITT",
    "EMOTTT", "ENSSSU", "FIPRSY", "GORRVW", "HIPRRY", "NOOTUW", "OOOTTU",
];

/// Super Big Boggle 6x6 (2011), 36 dice, with multi-letter and blank faces.
pub(crate) const SUPER_BIG_DICE: [&str; 36] = [
    "AAAFRS",
    "AAEEEE",
    "AAEEOO",
    "AAFIRS",
    "ABDEIO",
    "ADENNN",
    "AEEEEM",
    "AEEGMU",
    "AEGMNN",
    "AEILMN",
    "AEINOU",
    "AFIRSY",
    "AnErHeInQuTh",
    "BBJKXZ",
    "CCENST",
    "CDDLNN",
    "CEIITT",
    "CEIPST",
    "CFGNUY",
    "DDHNOT",
    "DHHLOR",
    "DHHNOW",
    "DHLNOR",
    "EHILRS",
    "EIILST",
    "EILPST",
    "EIO---",
    "EMOTTT",
    "ENSSSU",
    "GORRVW",
    "HIRSTV",
    "HOPRST",
    "IPRSYY",
    "JKQuWXZ",
    "NOOTUW",
    "OOOTTU",
];

/// English letter frequencies, A to Z (algs4's random boards; Q means Qu).
pub const LETTER_FREQUENCIES: [f64; 26] = [
    0.08167, 0.01492, 0.02782, 0.04253, 0.12703, 0.02228, 0.02015, 0.06094, 0.06966, 0.00153,
    0.00772, 0.04025, 0.02406, 0.06749, 0.07507, 0.01929, 0.00095, 0.05987, 0.06327, 0.09056,
    0.02758, 0.00978, 0.02360, 0.00150, 0.01974, 0.00074,
];

/// Where a random board's faces come from; its name (`--dice`) is the
/// variant's, in lower case (`superbig`).
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
pub enum DiceSet {
    /// Spec 004's dice (4x4).
    #[cfg_attr(feature = "clap", value(help = "spec 004's 16 dice (4x4)"))]
    Project4,
    /// The classic 1976 dice (4x4).
    #[cfg_attr(feature = "clap", value(help = "the 1976 dice (4x4)"))]
    Classic,
    /// The new 1987 dice (4x4).
    #[cfg_attr(feature = "clap", value(help = "the 1987 dice (4x4)"))]
    New,
    /// Big Boggle dice (5x5).
    #[cfg_attr(feature = "clap", value(help = "Big Boggle's 25 dice (5x5)"))]
    Big,
    /// Super Big Boggle dice (6x6).
    #[cfg_attr(feature = "clap", value(help = "Super Big Boggle's 36 dice (6x6)"))]
    SuperBig,
    /// Independent letters by English frequency (any size).
    #[cfg_attr(
        feature = "clap",
        value(help = "each cell a letter drawn by English frequency (any size)")
    )]
    Frequency,
}

impl DiceSet {
    /// The set's name (as `--dice` takes it).
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// The set of that name, in any case.
    pub fn from_name(name: &str) -> Option<DiceSet> {
        name.parse().ok()
    }

    /// The dice as written, or `None` for letter frequencies.
    pub fn faces(self) -> Option<&'static [&'static str]> {
        match self {
            DiceSet::Project4 => Some(&PROJECT4_DICE),
            DiceSet::Classic => Some(&CLASSIC_DICE),
            DiceSet::New => Some(&NEW_DICE),
            DiceSet::Big => Some(&BIG_DICE),
            DiceSet::SuperBig => Some(&SUPER_BIG_DICE),
            DiceSet::Frequency => None,
        }
    }

    /// The dice of this set (empty for letter frequencies).
    pub fn dice(self) -> Vec<Die> {
        self.faces()
            .map(|faces| faces.iter().map(|f| Die::new(f)).collect())
            .unwrap_or_default()
    }

    /// Whether this set can fill a board of `cells` cells (one die per cell).
    pub fn fits(self, cells: usize) -> bool {
        self.faces().is_none_or(|faces| faces.len() == cells)
    }

    /// Rolls a board of `cells` cells: shuffles the dice into the positions and rolls
    /// each, or draws each cell by letter frequency. `q` says whether a frequency `Q` is `Qu`.
    pub fn roll<R: RngCore + ?Sized>(self, cells: usize, q: QReads, rng: &mut R) -> Vec<Face> {
        let mut dice = self.dice();
        if dice.is_empty() {
            return (0..cells).map(|_| frequency_face(rng, q)).collect();
        }
        random::shuffle(rng, &mut dice);
        let mut faces: Vec<Face> = dice
            .iter()
            .take(cells)
            .map(|die| die.roll_face(rng))
            .collect();
        // More cells than dice (only for rules built by hand): the rest by frequency.
        while faces.len() < cells {
            faces.push(frequency_face(rng, q));
        }
        faces
    }
}

/// One letter drawn by English frequency.
fn frequency_face<R: RngCore + ?Sized>(rng: &mut R, q: QReads) -> Face {
    // 2^53 steps make the draw uniform over [0, 1) with full f64 precision.
    let unit = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    let total: f64 = LETTER_FREQUENCIES.iter().sum();
    let mut target = unit * total;
    let mut index = LETTER_FREQUENCIES.len() - 1;
    for (i, &weight) in LETTER_FREQUENCIES.iter().enumerate() {
        if target < weight {
            index = i;
            break;
        }
        target -= weight;
    }
    let letter = b'A' + index as u8;
    Face::letter(letter).map_or(Face::BLANK, |face| face.with_q(q))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_parse_by_their_names_in_any_case() {
        for &set in <DiceSet as strum::VariantArray>::VARIANTS {
            assert_eq!(DiceSet::from_name(set.name()), Some(set));
            let upper = set.name().to_ascii_uppercase();
            assert_eq!(DiceSet::from_name(&upper), Some(set));
        }
        assert_eq!(DiceSet::from_name("loaded"), None);
    }

    #[test]
    fn every_set_has_six_faces_per_die() {
        for &set in <DiceSet as strum::VariantArray>::VARIANTS {
            for die in set.dice() {
                assert_eq!(die.faces().len(), 6, "{set}: {die:?}");
            }
        }
    }

    #[test]
    fn sets_fit_their_sizes() {
        assert!(DiceSet::Project4.fits(16));
        assert!(DiceSet::Big.fits(25));
        assert!(DiceSet::SuperBig.fits(36));
        assert!(!DiceSet::New.fits(25));
        assert!(DiceSet::Frequency.fits(7));
    }

    /// Whether each face can be given its own die (Kuhn's augmenting paths).
    fn one_die_per_face(faces: &[Face], dice: &[Die]) -> bool {
        fn assign(
            f: usize,
            faces: &[Face],
            dice: &[Die],
            owner: &mut [Option<usize>],
            tried: &mut [bool],
        ) -> bool {
            for d in 0..dice.len() {
                if tried[d] || !dice[d].faces().contains(&faces[f]) {
                    continue;
                }
                tried[d] = true;
                if owner[d].is_none_or(|other| assign(other, faces, dice, owner, tried)) {
                    owner[d] = Some(f);
                    return true;
                }
            }
            false
        }
        let mut owner = vec![None; dice.len()];
        (0..faces.len()).all(|f| assign(f, faces, dice, &mut owner, &mut vec![false; dice.len()]))
    }

    #[test]
    fn a_rolled_board_uses_each_die_once() {
        let mut rng = random::seeded(9);
        for set in [DiceSet::Project4, DiceSet::New, DiceSet::SuperBig] {
            let cells = set.dice().len();
            let faces = set.roll(cells, QReads::Qu, &mut rng);
            assert_eq!(faces.len(), cells);
            assert!(one_die_per_face(&faces, &set.dice()), "{set}: {faces:?}");
        }
        let impossible = vec![Face::letter(b'Z').unwrap_or_default(); 2];
        assert!(!one_die_per_face(&impossible, &DiceSet::Project4.dice()));
    }

    #[test]
    fn frequency_boards_favour_common_letters() {
        let mut rng = random::seeded(5);
        let faces = DiceSet::Frequency.roll(10_000, QReads::Qu, &mut rng);
        let count = |l: &str| faces.iter().filter(|f| f.as_str() == l).count();
        assert!(count("E") > count("Z") * 20);
        assert_eq!(count("Q"), 0);
    }
}
