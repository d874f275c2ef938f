//! What a group's cost is predicted by, measured cheaply for every group
//! before a sample is drawn: the pre-pass that sorts groups into strata.
//!
//! A group's proof costs from milliseconds to many minutes, and the cost
//! follows how good its letters are: a group whose boards score well keeps
//! its bounds above the target deep into the walk. The pre-pass scores
//! [`BOARDS`] random boards of each group with the solver (a random letter
//! from each cell's bucket, any letter on the free corners) and takes their
//! mean: on 4x4 ENABLE2K it follows the logarithm of a group's cost
//! closely (the notebook's 2026-11-28 file), where the number of classes in
//! the group, the best of the random boards, or a climb from it to a local
//! best (`features` measures all three) did no better, and the climb
//! costs many times more. It is a small share of a sample's cost: a few
//! solver calls a group, against seconds to minutes to prove one. Groups
//! are then cut into strata at shares of their order by that mean
//! (the cheapest half, the next 30%, 15% and 5%), finer at the dear end, where a few groups hold much of
//! the cost.
//!
//! Limits: the boards are drawn by a generator seeded by the group's id, so
//! a group's score, and its stratum, are the same in every run. The mean
//! predicts the cost, it does not measure it: the estimate never uses it
//! but to choose where to draw.

use boggle_engine::search::Searcher;
use boggle_engine::trie::Trie;
use boggle_engine::{Face, QReads};

use crate::Settings;
use crate::classes::{Classes, Group};

/// What the pre-pass measured of one group.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Features {
    /// The mean score of the random boards.
    pub mean: f64,
    /// The best score of the random boards.
    pub max: u32,
    /// The score of the local best climbed to from the best random board.
    pub climbed: u32,
}

/// The letters each cell of `group` may hold (by cell, letters 0 = A): its
/// first class's buckets, and every letter on the free positions.
pub(crate) fn group_letters(settings: &Settings, classes: &Classes, group: &Group) -> Vec<Vec<u8>> {
    let Some(&first) = group.classes.first() else {
        return Vec::new();
    };
    let order = classes.order();
    let fixed = order.len() - classes.free();
    let mut letters = crate::class_letters(settings, classes, first);
    for &cell in &order[fixed..] {
        letters[cell] = (0..26).collect();
    }
    letters
}

/// SplitMix64: a small generator whose sequence is fixed by its seed.
struct Mix(u64);

impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next()) * n as u128) >> 64) as usize
    }
}

fn face(letter: u8, q: QReads) -> Face {
    if q == QReads::Qu && letter == b'Q' - b'A' {
        Face::QU
    } else {
        Face::letter(b'A' + letter).unwrap_or(Face::BLANK)
    }
}

/// Measures `group` with `boards` random boards and, if `climbing`, a
/// climb from the best (else `climbed` is the best random board's score).
pub(crate) fn features(
    searcher: &mut Searcher<'_>,
    settings: &Settings,
    classes: &Classes,
    group: &Group,
    boards: usize,
    climbing: bool,
) -> Features {
    let (rows, cols, q) = (settings.rules.rows, settings.rules.cols, settings.rules.q);
    let letters = group_letters(settings, classes, group);
    let mut rng = Mix(group.id);
    let mut best = (0, Vec::new());
    let mut sum = 0.0;
    for _ in 0..boards.max(1) {
        let board: Vec<u8> = letters.iter().map(|l| l[rng.below(l.len())]).collect();
        let faces: Vec<Face> = board.iter().map(|&l| face(l, q)).collect();
        let score = searcher.score_faces(rows, cols, &faces);
        sum += f64::from(score);
        if score >= best.0 || best.1.is_empty() {
            best = (score, board);
        }
    }
    let max = best.0;
    let climbed = if climbing {
        climb(searcher, settings, &letters, best.1, max)
    } else {
        max
    };
    Features {
        mean: sum / boards.max(1) as f64,
        max,
        climbed,
    }
}

/// Climbs from `board`: each cell in turn takes its best letter of those
/// allowed, until a pass changes nothing (at most four passes).
fn climb(
    searcher: &mut Searcher<'_>,
    settings: &Settings,
    letters: &[Vec<u8>],
    mut board: Vec<u8>,
    mut score: u32,
) -> u32 {
    let (rows, cols, q) = (settings.rules.rows, settings.rules.cols, settings.rules.q);
    let mut faces: Vec<Face> = board.iter().map(|&l| face(l, q)).collect();
    for _ in 0..4 {
        let mut changed = false;
        for cell in 0..board.len() {
            let Some(scores) = searcher.score_letters(rows, cols, &faces, cell, q) else {
                return score;
            };
            let Some(&top) = letters[cell]
                .iter()
                .max_by_key(|&&l| scores[usize::from(l)])
            else {
                continue;
            };
            if scores[usize::from(top)] > score {
                score = scores[usize::from(top)];
                board[cell] = top;
                faces[cell] = face(top, q);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    score
}

/// Measures every group on `threads` threads (in the groups' order), as
/// `features` does.
pub fn measure(
    trie: &Trie,
    settings: &Settings,
    groups: &[Group],
    boards: usize,
    threads: usize,
    climbing: bool,
) -> Vec<Features> {
    use rayon::prelude::*;
    let classes = settings.classes();
    let run = || {
        groups
            .par_iter()
            .map_init(
                || Searcher::new(trie, settings.rules),
                |searcher, group| features(searcher, settings, &classes, group, boards, climbing),
            )
            .collect()
    };
    match rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
    {
        Ok(pool) => pool.install(run),
        Err(_) => run(),
    }
}

/// Random boards scored a group by the pre-pass that sorts groups into strata.
pub const BOARDS: usize = 32;

/// Where the strata end, as shares of the groups ordered by their pre-pass
/// score: the cheapest half, the next 30%, the next 15%, the dearest 5%.
/// Four strata, so that two groups from each (the estimate's pilot) fit a
/// budget of several hundred CPU-seconds on 4x4, where the dearest 5% cost
/// hundreds of CPU-seconds a group.
pub(crate) const BOUNDS: [f64; 4] = [0.5, 0.8, 0.95, 1.0];

/// Groups sorted into strata by the pre-pass.
#[derive(Debug, Clone, PartialEq)]
pub struct Strata {
    /// Each group's stratum (in the groups' order), 0 the cheapest.
    pub of: Vec<usize>,
    /// How many strata there are.
    pub count: usize,
    /// The CPU seconds the pre-pass took, every thread together.
    pub cpu: f64,
}

impl Strata {
    /// One stratum holding every group (a simple random sample).
    pub fn one(groups: usize) -> Strata {
        Strata {
            of: vec![0; groups],
            count: 1,
            cpu: 0.0,
        }
    }

    /// How many groups each stratum holds.
    pub fn sizes(&self) -> Vec<u64> {
        let mut sizes = vec![0u64; self.count];
        for &h in &self.of {
            sizes[h] += 1;
        }
        sizes
    }

    /// Sorts groups into the prover's four strata (the cheapest half, the
    /// next 30%, 15% and 5%) by their pre-pass's mean score (`features` in
    /// the groups' order).
    pub fn by_mean(features: &[Features]) -> Strata {
        let means: Vec<f64> = features.iter().map(|f| f.mean).collect();
        Strata::by_score(&means, &BOUNDS)
    }

    /// Sorts `scores` (a group's predicted cost, in the groups' order) into
    /// strata at the shares `bounds` (cumulative, the last 1): groups of
    /// equal score stay together.
    pub(crate) fn by_score(scores: &[f64], bounds: &[f64]) -> Strata {
        let mut order: Vec<usize> = (0..scores.len()).collect();
        order.sort_by(|&a, &b| scores[a].total_cmp(&scores[b]));
        let mut of = vec![0; scores.len()];
        let mut h = 0;
        for (rank, &i) in order.iter().enumerate() {
            // Move on to the next stratum past its bound, never inside a run of ties.
            while h + 1 < bounds.len()
                && rank as f64 >= bounds[h] * scores.len() as f64
                && (rank == 0 || scores[order[rank - 1]] < scores[i])
            {
                h += 1;
            }
            of[i] = h;
        }
        let count = of.iter().max().map_or(1, |&m| m + 1);
        Strata {
            of,
            count,
            cpu: 0.0,
        }
    }
}

/// Sorts `groups` into strata by the mean score of [`BOARDS`] random
/// boards of each (the pre-pass), on `threads` threads.
pub fn stratify(trie: &Trie, settings: &Settings, groups: &[Group], threads: usize) -> Strata {
    let before = crate::process_cpu();
    let mut strata = Strata::by_mean(&measure(trie, settings, groups, BOARDS, threads, false));
    strata.cpu = crate::process_cpu() - before;
    strata
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classes::Buckets;
    use boggle_engine::SearchRules;

    #[test]
    fn strata_cut_the_groups_at_shares_of_their_order_by_score() {
        let scores: Vec<f64> = (0..20).map(|i| f64::from((i * 7) % 20)).collect();
        let strata = Strata::by_score(&scores, &BOUNDS);
        assert_eq!(strata.count, 4);
        assert_eq!(strata.sizes(), [10, 6, 3, 1]);
        // The dearer the score, the higher the stratum.
        for (a, b) in scores.iter().zip(&strata.of) {
            for (c, d) in scores.iter().zip(&strata.of) {
                assert!(a <= c || b >= d, "{a} in {b}, {c} in {d}");
            }
        }
        // Ties stay together: one score, one stratum.
        let flat = Strata::by_score(&[3.0; 8], &BOUNDS);
        assert_eq!((flat.count, flat.sizes()), (1, vec![8]));
        assert_eq!(Strata::one(5).sizes(), [5]);
    }

    #[test]
    fn the_pre_pass_ranks_a_group_of_good_letters_above_one_of_bad() {
        let trie = Trie::from_words(["tea", "eat", "ate", "seat", "east", "teas", "sat", "set"]);
        let buckets = Buckets::parse("aest bcdfghijklmnopqruvwxyz").expect("buckets");
        let settings = Settings::new(SearchRules::standard(3, 3), buckets, 1).expect("3x3");
        let groups = settings.classes().groups();
        let strata = stratify(&trie, &settings, &groups, 1);
        assert_eq!(strata.of.len(), groups.len());
        let features = measure(&trie, &settings, &groups, BOARDS, 1, true);
        // The group of good letters everywhere but the corners is the first.
        let good = &features[0];
        let bad = features.last().expect("groups");
        assert!(good.mean > bad.mean, "{good:?} against {bad:?}");
        assert!(good.climbed >= good.max && good.max as f64 >= good.mean);
        assert_eq!(strata.of[0], strata.count - 1, "{:?}", strata.of);
        // The same groups give the same scores again: seeded by group id.
        assert_eq!(
            measure(&trie, &settings, &groups, BOARDS, 2, true),
            features
        );
    }
}
