//! The prover's unit tests that cross its modules: the one-pass bounds
//! against their definition, lanes against filtered lists, and the walk,
//! in every configuration the thresholds allow, against brute force over
//! every board of small classes.

#![expect(
    clippy::disallowed_methods,
    reason = "an Instant cannot be made but from the clock: these tests read it once and count on from it"
)]

use boggle_engine::search::Searcher;
use boggle_engine::trie::Trie;
use boggle_engine::{Face, SearchRules};

use crate::classes::Buckets;
use crate::entry::Entry;
use crate::flat::{BUILT, Tree};
use crate::force::{FORCE_MORE, FORCED};
use crate::lanes::{Masks, SATURATED, Split, WIDEST, lane_bounds, lane_bounds_n};
use crate::layout::Layout;
use crate::orderly::{DEPTH, sum_bound_of, tree_bound};
use crate::prover::{Forced, Prover, Tuning, Work};
use crate::walk::Scored;
use crate::{Settings, class_letters};

/// A list with no position forced and no parts.
fn forced(entries: &[Entry]) -> Forced<'_> {
    Forced {
        entries,
        shared: None,
        depth: 0,
    }
}

/// A word list for the tests, as its trie.
struct Dictionary(Trie);

impl Dictionary {
    fn from_words(words: impl IntoIterator<Item = &'static str>) -> Dictionary {
        Dictionary(Trie::from_words(words))
    }

    fn trie(&self) -> &Trie {
        &self.0
    }
}

fn letters(cells: &[&[u8]]) -> Vec<Vec<u8>> {
    cells
        .iter()
        .map(|l| l.iter().map(|b| b - b'a').collect())
        .collect()
}

fn test_prover(dictionary: &Dictionary) -> Prover<'_> {
    Prover::new(dictionary.trie(), SearchRules::standard(3, 3))
}

fn dictionary() -> Dictionary {
    Dictionary::from_words([
        "tea", "eat", "ate", "seat", "east", "teas", "state", "taste", "estate", "sat", "set",
        "stet", "test", "tests", "aster", "rates", "stare", "tears", "treat", "street",
    ])
}

fn classes() -> Vec<Vec<Vec<u8>>> {
    vec![
        letters(&[b"aest".as_slice(); 9]),
        letters(&[b"aerst".as_slice(); 9]),
        letters(&[
            b"ae", b"rst", b"aeiou", b"st", b"e", b"rt", b"a", b"s", b"aest",
        ]),
    ]
}

#[test]
fn one_pass_bounds_match_the_recursive_ones() {
    let dictionary = dictionary();
    let mut prover = test_prover(&dictionary);
    for letters in classes() {
        let bound = prover.build(&letters);
        let entries = prover.entries.clone();
        assert!(bound > 0);
        assert_eq!(bound, sum_bound_of(&entries, 0, entries.len(), 0));
        let mut tree = Tree::<u32, 1>::default();
        tree.build(&entries, &Masks::new(&Split::new(&[], &[])), BUILT);
        assert_eq!(tree.bound, [bound]);
    }
}

#[test]
fn lane_bounds_match_the_filtered_lists() {
    let dictionary = dictionary();
    let mut prover = test_prover(&dictionary);
    let three = letters(&[b"ae", b"st", b"bcdfghijklmnopqruvwxyz"]);
    let two = letters(&[b"aeiou", b"bcdfghjklmnpqrstvwxyz"]);
    let singles: Vec<Vec<u8>> = (0..26).map(|l| vec![l]).collect();
    for letters in classes() {
        prover.build(&letters);
        let entries = prover.entries.clone();
        for (positions, buckets) in [
            (vec![0], vec![three.clone()]),
            (vec![4], vec![singles.clone()]),
            (vec![5, 8], vec![three.clone(), two.clone()]),
            (vec![1, 2], vec![three.clone(), three.clone()]),
            (vec![3, 5, 6, 7], vec![two.clone(); 4]),
        ] {
            let split = Split::new(&positions, &buckets);
            let bounds = lane_bounds(entries.iter().copied(), &split, false);
            let narrow = lane_bounds(entries.iter().copied(), &split, true);
            let wide = lane_bounds_n::<u32, WIDEST>(entries.iter().copied(), &split);
            for lane in 0..split.lanes {
                let kept = entries
                    .iter()
                    .copied()
                    .filter(|&e| split.admits(e) >> lane & 1 != 0);
                assert_eq!(bounds[lane], tree_bound(kept), "{positions:?} lane {lane}");
                assert_eq!(wide[lane], bounds[lane]);
                assert_eq!(narrow[lane], bounds[lane].min(SATURATED));
            }
        }
    }
}

#[test]
fn lane_trees_bound_each_class_as_its_own_tree() {
    let dictionary = dictionary();
    let mut prover = test_prover(&dictionary);
    let two = letters(&[b"aeiou", b"bcdfghjklmnpqrstvwxyz"]);
    let three = letters(&[b"ae", b"st", b"bcdfghijklmnopqruvwxyz"]);
    for letters in classes() {
        prover.build(&letters);
        let entries = prover.entries.clone();
        for (positions, buckets) in [
            (vec![6, 7, 8], vec![two.clone(), two.clone(), three.clone()]),
            (vec![], vec![]),
        ] {
            let split = Split::new(&positions, &buckets);
            // Scaled up, the bounds no longer fit 16 bits: built again in 32.
            for scale in [1, 5000] {
                let scaled: Vec<Entry> = entries
                    .iter()
                    .map(|&e| e.path().plus(e.points() * scale))
                    .collect();
                prover.target = u32::MAX;
                let bounds = prover.walk_lanes(forced(&scaled), &split, 0);
                for (lane, &bound) in bounds.iter().enumerate().take(split.lanes) {
                    let kept = scaled
                        .iter()
                        .copied()
                        .filter(|&e| split.admits(e) >> lane & 1 != 0);
                    assert_eq!(
                        bound,
                        tree_bound(kept),
                        "{positions:?} x{scale} lane {lane}"
                    );
                }
                assert!(scale == 1 || bounds[0] > SATURATED);
            }
        }
    }
}

/// Every board whose cells hold `cells`' letters, with its score, by brute force.
fn every_board(dictionary: &Dictionary, cells: &[Vec<u8>]) -> Vec<Scored> {
    let rules = SearchRules::standard(3, 3);
    let mut searcher = Searcher::new(dictionary.trie(), rules);
    let mut scores = Vec::new();
    let mut digits = [0usize; 9];
    'boards: loop {
        let board: Vec<u8> = (0..9).map(|c| cells[c][digits[c]]).collect();
        let faces: Vec<Face> = board
            .iter()
            .map(|&l| Face::letter(b'A' + l).unwrap_or(Face::BLANK))
            .collect();
        scores.push((board, searcher.score_faces(3, 3, &faces)));
        for c in 0..9 {
            digits[c] += 1;
            if digits[c] < cells[c].len() {
                continue 'boards;
            }
            digits[c] = 0;
        }
        break;
    }
    scores
}

/// Calls `check` with a prover, the word paths of the class `cells`,
/// every board of it scored, and each target to walk it with (1, half
/// the best score, the best, one more).
fn for_every_target(cells: &[&[u8]], mut check: impl FnMut(&mut Prover, &[Entry], &[Scored], u32)) {
    let dictionary = dictionary();
    let cells = letters(cells);
    let mut prover = test_prover(&dictionary);
    prover.collect(&cells, 0);
    let entries = std::mem::take(&mut prover.entries);
    let scores = every_board(&dictionary, &cells);
    let best = scores.iter().map(|s| s.1).max().unwrap_or(0);
    for target in [1, best / 2, best, best + 1] {
        prover.target = target;
        check(&mut prover, &entries, &scores, target);
    }
}

/// A small class of 3x3 boards, some of whose cells read two to four letters.
const SMALL_CLASS: [&[u8]; 9] = [
    b"ae", b"rst", b"ae", b"st", b"e", b"rt", b"a", b"s", b"aest",
];

/// Asserts that `found` is every board of `scores` that reaches `target`.
fn assert_finds_every_board_at(mut found: Vec<Scored>, scores: &[Scored], target: u32) {
    found.sort();
    let mut expected: Vec<Scored> = scores.iter().filter(|s| s.1 >= target).cloned().collect();
    expected.sort();
    assert_eq!(found, expected, "target {target}");
}

#[test]
fn the_walk_finds_what_every_board_scores() {
    for_every_target(&SMALL_CLASS, |prover, entries, scores, target| {
        let (_, found) = prover.search(entries, 0);
        assert_finds_every_board_at(found, scores, target);
    });
}

#[test]
fn a_long_list_forced_one_position_further_finds_the_same() {
    for_every_target(&SMALL_CLASS, |prover, entries, scores, target| {
        prover.tuning.force_more = 0;
        let (_, found) = prover.search(entries, 0);
        prover.tuning.force_more = FORCE_MORE;
        // The third position was forced by merging: its lists were written.
        assert!(!prover.lists.class[FORCED + 1].is_empty());
        assert_finds_every_board_at(found, scores, target);
    });
}

#[test]
fn a_tree_built_over_its_forcings_base_makes_the_same_walk() {
    // Written whole, and two and three levels deep: the walks of one
    // forcing's lists then grow the base's stubs, which are put back
    // before the next list's tree is written over the base.
    let cells: [&[u8]; 9] = [b"aest"; 9];
    for_every_target(&cells, |prover, entries, _, target| {
        for built in [BUILT, 2, 3] {
            prover.tuning.built = built;
            let mut walks = Vec::new();
            for share in [true, false] {
                prover.tuning.share = share;
                prover.work = Work::default();
                let (bound, mut found) = prover.search(entries, 0);
                found.sort();
                walks.push((bound, found, prover.work.steps));
                // Paths are taken from a base exactly when lists share one.
                assert_eq!(prover.work.taken > 0, share, "target {target}");
            }
            assert_eq!(walks[0], walks[1], "target {target}, {built} levels");
        }
        prover.tuning = Tuning::default();
    });
}

#[test]
fn stubs_grown_as_the_walk_reaches_them_make_the_same_walk() {
    for_every_target(&SMALL_CLASS, |prover, entries, scores, target| {
        // The whole tree written at once, then stubs from one and two levels down.
        let mut walks = Vec::new();
        for built in [DEPTH, 1, 2] {
            prover.tuning.built = built;
            let steps = prover.work.steps;
            let (bound, mut found) = prover.search(entries, 0);
            found.sort();
            walks.push((bound, found, prover.work.steps - steps));
            assert_eq!(prover.trees.one.stubs.is_empty(), built == DEPTH);
        }
        prover.tuning.built = BUILT;
        assert_finds_every_board_at(walks[0].1.clone(), scores, target);
        // The same bounds at every step: the same steps, boards and bound.
        assert_eq!(walks[1], walks[0], "target {target}");
        assert_eq!(walks[2], walks[0], "target {target}");
    });
}

#[test]
fn lanes_walked_together_find_what_each_class_scores() {
    let cells: [&[u8]; 9] = [
        b"ae", b"rst", b"aest", b"st", b"e", b"rst", b"aest", b"s", b"aest",
    ];
    // The last two positions split into buckets: 2 x 3 classes.
    let buckets = [letters(&[b"ae", b"st"]), letters(&[b"a", b"e", b"st"])];
    let split = Split::new(&[7, 8], &buckets);
    let order = Layout::new(&SearchRules::standard(3, 3)).order().to_vec();
    let lane_of = |board: &[u8]| {
        let digit = |j: usize| {
            let letter = board[order[7 + j]];
            buckets[j].iter().position(|b| b.contains(&letter))
        };
        Some(digit(0)? * 3 + digit(1)?)
    };
    for_every_target(&cells, |prover, entries, scores, target| {
        let wanted = 0b11_1011; // every class but lane 2's
        // The whole tree written at once, then stubs from one and two
        // levels down (their paths' letters on the free positions cleared):
        // the same steps and boards.
        let mut walks = Vec::new();
        for built in [DEPTH, 1, 2] {
            prover.tuning.built = built;
            prover.walks.found().clear();
            let steps = prover.work.steps;
            let bounds = prover.walk_lanes(forced(entries), &split, wanted);
            walks.push((
                bounds,
                prover.walks.found().clone(),
                prover.work.steps - steps,
            ));
        }
        prover.tuning.built = BUILT;
        assert_eq!(walks[1], walks[0], "target {target}");
        assert_eq!(walks[2], walks[0], "target {target}");
        for lane in 0..split.lanes {
            let mut found: Vec<Scored> = prover
                .walks
                .found()
                .iter()
                .filter(|(lanes, _)| lanes >> lane & 1 != 0)
                .map(|(_, board)| board.clone())
                .collect();
            found.sort();
            let mut expected: Vec<Scored> = scores
                .iter()
                .filter(|s| s.1 >= target && wanted >> lane & 1 != 0)
                .filter(|s| lane_of(&s.0) == Some(lane))
                .cloned()
                .collect();
            expected.sort();
            assert_eq!(found, expected, "target {target} lane {lane}");
        }
    });
}

#[test]
fn the_time_left_comes_from_the_groups_done_and_widens_with_their_spread() {
    let progress = crate::Progress::new();
    // Six groups in two strata: ids 0 to 3 cheap, 4 and 5 dear.
    progress.stratify((0..6).map(|g| (g, usize::from(g >= 4))).collect());
    for g in 0..6 {
        progress.plan_group(g);
    }
    assert_eq!(
        progress.eta(2),
        None,
        "nothing to go on before a group ends"
    );
    let before = std::time::Instant::now();
    progress.finish_group(0, 4.0);
    assert_eq!(
        progress.eta(2),
        None,
        "one group says nothing of the spread"
    );
    progress.finish_group(1, 4.0);
    progress.finish_group(4, 10.0);
    // Strata 0 and 1 pool until each has two: 6 groups at a mean of 6.
    let pooled = progress.eta(2).expect("three of six groups done");
    assert_eq!((pooled.cpu, pooled.seconds), (36.0 - 18.0, 9.0));
    assert_eq!(pooled.mean, 6.0);
    assert!(pooled.at >= before, "made when the last group finished");
    assert!(pooled.range.0 <= 9.0 && 9.0 <= pooled.range.1, "{pooled:?}");
    progress.finish_group(5, 12.0);
    // Stratum 0: 4 groups at 4; stratum 1: 2 groups, both done, at 11.
    // Two equal costs still leave doubt (the other stratum's spread).
    let strata = progress.eta(1).expect("four of six done");
    assert_eq!(strata.cpu, 8.0);
    assert!(strata.range.0 < 8.0 && 8.0 < strata.range.1, "{strata:?}");
    progress.finish_group(2, 1.0);
    progress.finish_group(3, 7.0);
    assert_eq!(progress.eta(1), None, "nothing left");
}

/// The crate doc's proof by hand, step by step: class 26's word paths, its
/// bound with cell 2 open and forced, the walk's records and rescores (the
/// whole proof's summary is the crate doc's own example).
#[test]
fn proof_by_hand_2x2() {
    let trie = Trie::from_words(["ate", "eat", "sea", "tea"]);
    let rules = SearchRules::standard(2, 2);
    let buckets = Buckets::parse("a e st bcdfghijklmnopqruvwxyz").expect("valid buckets");
    let settings = Settings::new(rules, buckets, 4).expect("valid settings");
    let classes = settings.classes();
    assert_eq!((classes.total(), classes.canonical().len()), (256, 55));
    assert_eq!(classes.groups().len(), 1);

    // Class 26: A, E, S or T, S or T.
    let class = classes.id(&[0, 1, 2, 2]);
    assert_eq!(class, 26);
    let letters = class_letters(&settings, &classes, class);
    let mut prover = Prover::new(&trie, rules);
    let paths: Vec<String> = prover
        .word_paths(&letters)
        .iter()
        .map(|p| p.to_string())
        .collect();
    assert_eq!(
        paths,
        ["0A 1E 3S: 1", "0A 1E 3T: 3", "0A 1E 2S: 1", "0A 1E 2T: 3"]
    );
    assert_eq!(prover.build(&letters), 6);

    // Cell 2 forced to S, then to T.
    let forced = |letter: u8| {
        let mut letters = letters.clone();
        letters[2] = vec![letter - b'A'];
        letters
    };
    assert_eq!(prover.build(&forced(b'S')), 4);
    assert_eq!(prover.build(&forced(b'T')), 6);

    // The walk keeps AEST and AETS (letters 0 = A), and rescores three boards.
    let mut records = Vec::new();
    prover.prove_group(&letters, &[], 4, &mut |_| true, &mut |_, bound, boards| {
        records.push((bound, boards));
    });
    assert_eq!(
        records,
        [(6, vec![(vec![0, 4, 18, 19], 4), (vec![0, 4, 19, 18], 4)])]
    );
    assert_eq!(prover.work().rescored, 3);
}
