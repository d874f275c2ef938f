//! Board classes: the letter buckets each cell may hold, the classes they
//! make (one bucket per cell, numbered in mixed radix), the board's
//! symmetries, the canonical class and board under them, and the groups.
//!
//! A class's id reads its cells' buckets as digits, cell 0 most
//! significant. Of the classes a symmetry maps onto each other only the
//! one whose buckets, read in the prover's cell order (`Layout`), sort
//! first is proved; reading in that order makes a canonical class's
//! leading positions canonical too, so the classes of a group (which
//! differ only in the last, free positions) are canonical together. The
//! symmetries are those the moves allow: 8 for a square board under 8
//! neighbours, 4 for a rectangle, only the mirror without going up.
//!
//! Limits: `Classes::canonical` walks every class id, which is fine up to
//! 4x4 (3 buckets off the corners and 2 on them: 1,068,363 classes up to
//! symmetry); `Classes::estimate` says what the walk and its table would
//! cost before either is made, and [`crate::Settings::new`] refuses a run
//! over the caps of `limits`. A class id is a `u64`.

use boggle_engine::{MoveRule, SearchRules};

use crate::layout::Layout;
use crate::limits::Estimate;

/// The default buckets for boards of up to 9 cells: three groups, and two
/// (vowels and the rest) on the corners: 639 classes on 3x3 after symmetry.
/// The measurements behind the choice are in `docs/notebook/` (the prove files) (three on the
/// corners took 46.2 CPU-s for the 3x3 proof, two 38.7).
pub(crate) const BUCKETS_3X3: &str = "aeiouy bcdfgjkmpqvwxz hlnrst/aeiouy bcdfghjklmnpqrstvwxz";
/// The default buckets for larger boards: three groups, two on the corners.
pub(crate) const BUCKETS_LARGE: &str = "aeijou bcdfgmpqvwxz hklnrsty/aeiosuy bcdfghjklmnpqrtvwxz";

/// Why a bucket specification cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BucketError {
    /// A group holds something other than the letters a to z.
    #[error("bucket '{group}' is not letters a-z")]
    NotALetter {
        /// The offending group.
        group: String,
    },
    /// A letter is in two groups of one set, or twice in one group.
    #[error("letter {letter} is in two buckets")]
    Repeated {
        /// The letter.
        letter: char,
    },
    /// A letter is in no group of a set, so some boards would never be looked at.
    #[error("letter {letter} is in no bucket")]
    Missing {
        /// The letter.
        letter: char,
    },
    /// The specification has no groups, or more than one `/`.
    #[error("buckets are groups of letters, with corner groups after a '/'")]
    Shape,
}

/// Which letters each cell's buckets hold: one set of groups for every cell,
/// optionally another for the four corners.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Buckets {
    /// The specification as given (normalised to lower case and single spaces).
    spec: String,
    /// Groups (letters 0 = A) for cells that are not corners.
    inner: Vec<Vec<u8>>,
    /// Groups for the corners.
    corners: Vec<Vec<u8>>,
}

impl Buckets {
    /// Parses `"aeiou bcd... / corner groups"`: groups of letters separated by
    /// spaces; every letter in exactly one group of each set.
    pub fn parse(spec: &str) -> Result<Buckets, BucketError> {
        let mut sets = spec.split('/');
        let inner = parse_set(sets.next().ok_or(BucketError::Shape)?)?;
        let corners = match sets.next() {
            Some(set) => parse_set(set)?,
            None => inner.clone(),
        };
        if sets.next().is_some() {
            return Err(BucketError::Shape);
        }
        let show = |set: &[Vec<u8>]| {
            set.iter()
                .map(|g| g.iter().map(|&l| char::from(b'a' + l)).collect::<String>())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let spec = if corners == inner {
            show(&inner)
        } else {
            format!("{}/{}", show(&inner), show(&corners))
        };
        Ok(Buckets {
            spec,
            inner,
            corners,
        })
    }

    /// The default buckets for a rows x cols board.
    pub fn default_for(rows: usize, cols: usize) -> Buckets {
        let spec = if rows * cols <= 9 {
            BUCKETS_3X3
        } else {
            BUCKETS_LARGE
        };
        // Both constants are valid specifications.
        Buckets::parse(spec).unwrap_or_else(|_| Buckets {
            spec: String::new(),
            inner: vec![(0..26).collect()],
            corners: vec![(0..26).collect()],
        })
    }

    /// The groups a cell may take on a rows x cols board.
    pub(crate) fn for_cell(&self, rows: usize, cols: usize, cell: usize) -> &[Vec<u8>] {
        let (r, c) = (cell / cols, cell % cols);
        if (r == 0 || r + 1 == rows) && (c == 0 || c + 1 == cols) {
            &self.corners
        } else {
            &self.inner
        }
    }

    /// The normalised specification.
    pub(crate) fn spec(&self) -> &str {
        &self.spec
    }
}

fn parse_set(text: &str) -> Result<Vec<Vec<u8>>, BucketError> {
    let mut seen = [false; 26];
    let mut groups = Vec::new();
    for group in text.split_whitespace() {
        let mut letters = Vec::new();
        for byte in group.bytes() {
            if !byte.is_ascii_alphabetic() {
                return Err(BucketError::NotALetter {
                    group: group.to_string(),
                });
            }
            let letter = byte.to_ascii_lowercase() - b'a';
            if std::mem::replace(&mut seen[usize::from(letter)], true) {
                return Err(BucketError::Repeated {
                    letter: char::from(b'a' + letter),
                });
            }
            letters.push(letter);
        }
        letters.sort_unstable();
        groups.push(letters);
    }
    if groups.is_empty() {
        return Err(BucketError::Shape);
    }
    if let Some(letter) = (0..26u8).find(|&l| !seen[usize::from(l)]) {
        return Err(BucketError::Missing {
            letter: char::from(b'a' + letter),
        });
    }
    Ok(groups)
}

/// A board shape's classes: how many buckets each cell has, and the symmetries.
#[derive(Debug, Clone)]
pub struct Classes {
    rows: usize,
    cols: usize,
    /// Buckets per cell (the radix of each digit of a class id; cell 0 is the most significant).
    radix: Vec<u64>,
    /// Each symmetry other than the identity, as `image[cell]`.
    symmetries: Vec<Vec<usize>>,
    /// The cells in the order the prover forces them (see [`Layout`]).
    order: Vec<usize>,
    /// How many of the last positions are free within a group.
    free: usize,
}

/// Classes that differ only in the buckets of the last (free) positions,
/// whose word paths are collected once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// The buckets of the positions before the free ones, as a mixed-radix number.
    pub id: u64,
    /// Its canonical classes, in increasing id order.
    pub classes: Vec<u64>,
}

impl Classes {
    /// The classes of a rows x cols board under `buckets`, with the symmetries `rules` allow.
    pub(crate) fn new(rules: &SearchRules, buckets: &Buckets) -> Classes {
        let (rows, cols) = (rules.rows, rules.cols);
        let radix = (0..rows * cols)
            .map(|cell| buckets.for_cell(rows, cols, cell).len() as u64)
            .collect();
        let layout = Layout::new(rules);
        Classes {
            rows,
            cols,
            radix,
            symmetries: symmetries(rows, cols, rules.moves),
            order: layout.order().to_vec(),
            free: layout.free(),
        }
    }

    /// The same classes with none of their cells free: every class its own
    /// group, collected with its own buckets on every cell.
    pub(crate) fn ungrouped(mut self) -> Classes {
        self.free = 0;
        self
    }

    /// How many classes there are before symmetry.
    pub fn total(&self) -> u64 {
        self.radix
            .iter()
            .try_fold(1u64, |n, &r| n.checked_mul(r))
            .unwrap_or(u64::MAX)
    }

    /// What the table of these classes would cost, known before it is built
    /// (see [`Estimate`]).
    pub(crate) fn estimate(&self) -> Estimate {
        Estimate::new(
            self.rows,
            self.cols,
            self.total(),
            self.symmetries.len() + 1,
        )
    }

    /// The bucket of each cell for class `id`.
    pub(crate) fn digits(&self, id: u64) -> Vec<u8> {
        let mut digits = vec![0u8; self.radix.len()];
        let mut rest = id;
        for (digit, &radix) in digits.iter_mut().zip(&self.radix).rev() {
            *digit = (rest % radix) as u8;
            rest /= radix;
        }
        digits
    }

    /// The id of the class with these buckets.
    pub(crate) fn id(&self, digits: &[u8]) -> u64 {
        digits
            .iter()
            .zip(&self.radix)
            .fold(0, |id, (&d, &r)| id * r + u64::from(d))
    }

    /// Whether the class is the smallest of its images under the symmetries,
    /// reading the buckets in the prover's cell order (so a canonical class's
    /// leading positions are canonical too, and groups can be skipped whole).
    pub(crate) fn is_canonical(&self, digits: &[u8]) -> bool {
        let mut image = vec![0u8; digits.len()];
        self.symmetries.iter().all(|map| {
            for (cell, &d) in digits.iter().enumerate() {
                image[map[cell]] = d;
            }
            let theirs = self.order.iter().map(|&c| image[c]);
            let ours = self.order.iter().map(|&c| digits[c]);
            theirs.ge(ours)
        })
    }

    /// The cells in the prover's order.
    pub(crate) fn order(&self) -> &[usize] {
        &self.order
    }

    /// How many of the last positions are free within a group.
    pub(crate) fn free(&self) -> usize {
        self.free
    }

    /// The group a class belongs to: its buckets before the free positions.
    pub(crate) fn group_of(&self, digits: &[u8]) -> u64 {
        let fixed = self.order.len() - self.free;
        self.order[..fixed]
            .iter()
            .fold(0, |id, &c| id * self.radix[c] + u64::from(digits[c]))
    }

    /// The canonical classes gathered into their groups, in increasing group id order.
    pub fn groups(&self) -> Vec<Group> {
        let mut groups: std::collections::BTreeMap<u64, Vec<u64>> = Default::default();
        for id in self.canonical() {
            groups
                .entry(self.group_of(&self.digits(id)))
                .or_default()
                .push(id);
        }
        groups
            .into_iter()
            .map(|(id, classes)| Group { id, classes })
            .collect()
    }

    /// Every canonical class id, in increasing order.
    pub(crate) fn canonical(&self) -> Vec<u64> {
        let mut digits = vec![0u8; self.radix.len()];
        let mut ids = Vec::new();
        for id in 0..self.total() {
            if self.is_canonical(&digits) {
                ids.push(id);
            }
            // The next class: an odometer over the digits.
            for (digit, &radix) in digits.iter_mut().zip(&self.radix).rev() {
                *digit += 1;
                if u64::from(*digit) < radix {
                    break;
                }
                *digit = 0;
            }
        }
        ids
    }

    /// Whether some symmetric image of a board's letters (itself included)
    /// has every cell's letter in that cell's bucket of class `digits`, under
    /// `buckets`: whether the board, as reported in the form of it that sorts
    /// first, is one of the class's.
    pub(crate) fn holds(&self, buckets: &Buckets, digits: &[u8], letters: &[u8]) -> bool {
        let fits = |image: &[u8]| {
            image.iter().zip(digits).enumerate().all(|(cell, (l, &d))| {
                buckets
                    .for_cell(self.rows, self.cols, cell)
                    .get(usize::from(d))
                    .is_some_and(|bucket| bucket.contains(l))
            })
        };
        if fits(letters) {
            return true;
        }
        let mut image = letters.to_vec();
        self.symmetries.iter().any(|map| {
            for (cell, &l) in letters.iter().enumerate() {
                image[map[cell]] = l;
            }
            fits(&image)
        })
    }

    /// The symmetric image of a board's letters that sorts first.
    pub(crate) fn canonical_board(&self, letters: &[u8]) -> Vec<u8> {
        let mut best = letters.to_vec();
        let mut image = letters.to_vec();
        for map in &self.symmetries {
            for (cell, &l) in letters.iter().enumerate() {
                image[map[cell]] = l;
            }
            if image < best {
                best.clone_from(&image);
            }
        }
        best
    }
}

/// The symmetries of a rows x cols board that keep its moves, less the identity:
/// 7 for a square under 8 neighbours, 3 for a rectangle, 1 (the mirror) without going up.
fn symmetries(rows: usize, cols: usize, moves: MoveRule) -> Vec<Vec<usize>> {
    let map = |f: &dyn Fn(usize, usize) -> (usize, usize)| -> Vec<usize> {
        (0..rows * cols)
            .map(|cell| {
                let (r, c) = f(cell / cols, cell % cols);
                r * cols + c
            })
            .collect()
    };
    let (lr, lc) = (rows - 1, cols - 1);
    let mut maps = vec![map(&|r, c| (r, lc - c))];
    if moves == MoveRule::EightNeighbours {
        maps.push(map(&|r, c| (lr - r, c)));
        maps.push(map(&|r, c| (lr - r, lc - c)));
        if rows == cols {
            maps.push(map(&|r, c| (c, r)));
            maps.push(map(&|r, c| (lc - c, lr - r)));
            maps.push(map(&|r, c| (c, lr - r)));
            maps.push(map(&|r, c| (lc - c, r)));
        }
    }
    let identity: Vec<usize> = (0..rows * cols).collect();
    maps.retain(|m| *m != identity);
    maps.sort();
    maps.dedup();
    maps
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_parse_and_check() {
        let b = Buckets::parse("bdfgjqvwxz aeiou lnrsy chkmpt").expect("valid");
        assert_eq!(b.for_cell(3, 3, 4).len(), 4);
        let b = Buckets::parse(BUCKETS_LARGE).expect("valid");
        assert_eq!(b.for_cell(4, 4, 0).len(), 2);
        assert_eq!(b.for_cell(4, 4, 5).len(), 3);
        assert!(matches!(
            Buckets::parse("abc"),
            Err(BucketError::Missing { letter: 'd' })
        ));
        assert!(matches!(
            Buckets::parse("abcdefghijklm nopqrstuvwxyza"),
            Err(BucketError::Repeated { letter: 'a' })
        ));
        assert!(Buckets::parse("a1").is_err());
        assert!(Buckets::parse("").is_err());
    }

    #[test]
    fn classes_are_counted_up_to_symmetry() {
        let rules = SearchRules::standard(3, 3);
        let buckets = Buckets::parse("bdfgjqvwxz aeiou lnrsy chkmpt").expect("valid");
        let classes = Classes::new(&rules, &buckets);
        assert_eq!(classes.total(), 4u64.pow(9));
        let canonical = classes.canonical();
        // Burnside: (4^9 + 2*4^3 + 4^5 + 2*4^6 + 2*4^6) / 8.
        let burnside = (4u64.pow(9) + 2 * 4u64.pow(3) + 4u64.pow(5) + 4 * 4u64.pow(6)) / 8;
        assert_eq!(canonical.len() as u64, burnside);
        for &id in canonical.iter().take(50) {
            assert_eq!(classes.id(&classes.digits(id)), id);
        }
    }
}
