//! The search's tests: the open-cell walk against boards one by one, the
//! vector and portable walks against the bitmask walk, on boards of every
//! shape they take.

use std::io::Write;

use super::*;
use crate::face::QReads;
use crate::rules::{MoveRule, Scoring};
use crate::testing::{Letters, course_trie, grid_of, rng};

/// Classic rules (8 neighbours, Qu) on a rows x cols board.
fn classic(rows: usize, cols: usize) -> SearchRules {
    SearchRules::standard(rows, cols)
}

/// Spec 004's rules (no going up, plain Q) on a rows x cols board.
fn project4(rows: usize, cols: usize) -> SearchRules {
    SearchRules {
        moves: MoveRule::NoUp,
        scoring: Scoring::PROJECT4,
        q: QReads::Q,
        ..SearchRules::standard(rows, cols)
    }
}

/// The shapes and rules the open-cell and moves walks are tested on, with
/// where their letters come from.
fn open_cell_shapes() -> [(SearchRules, Letters); 4] {
    [
        (classic(4, 4), Letters::Dice),
        (classic(5, 5), Letters::Dice),
        (classic(3, 5), Letters::Frequency),
        (project4(4, 4), Letters::Frequency),
    ]
}

/// Each of `cases` under each of `min_lens`, the lengths varying fastest.
fn each_min_len(
    cases: impl IntoIterator<Item = (SearchRules, Letters)>,
    min_lens: std::ops::RangeInclusive<usize>,
) -> impl Iterator<Item = (SearchRules, Letters)> {
    cases.into_iter().flat_map(move |(rules, letters)| {
        min_lens
            .clone()
            .map(move |min_len| (SearchRules { min_len, ..rules }, letters))
    })
}

/// The vector walk's levels this processor has, widest first (none
/// without AVX2): each is tested, so a processor with AVX-512 tests the
/// AVX2 walk too.
fn vector_levels() -> Vec<Simd> {
    Simd::present_levels()
        .into_iter()
        .filter(|&level| level != Simd::None)
        .collect()
}

/// A searcher whose vector walk runs on `simd`, a level this processor has.
fn searcher_on<'t>(trie: &'t Trie, rules: SearchRules, simd: Simd) -> Searcher<'t> {
    let mut searcher = Searcher::new(trie, rules);
    searcher.set_simd(simd).expect("a level this processor has");
    searcher
}

/// The words the fast walk records on `faces` with the walk `run`.
fn walk_with(
    run: impl FnOnce(&mut FastWalk, usize, &mut [Pending; STACK]),
    trie: &Trie,
    rules: &SearchRules,
    faces: &[Face],
) -> Vec<Found> {
    let mut searcher = Searcher::new(trie, rules);
    let board = FastBoard::new(faces, &searcher.neighbour_masks, None, None)
        .expect("single letters and Qu on at most 64 cells");
    searcher.search_fast(&board, faces.len(), run);
    let mut found = std::mem::take(&mut searcher.found);
    found.sort_unstable();
    found
}

/// Scores the board `faces` with each letter in `open`, one board at a time.
fn one_by_one(
    searcher: &mut Searcher,
    rules: &SearchRules,
    faces: &[Face],
    open: usize,
) -> [u32; 26] {
    let mut faces = faces.to_vec();
    std::array::from_fn(|letter| {
        faces[open] = Face::letter(b'A' + letter as u8)
            .expect("a letter")
            .with_q(rules.q);
        searcher.score_faces(rules.rows, rules.cols, &faces)
    })
}

/// One walk with an open cell scores what the 26 boards score one by
/// one, for every cell, on boards of every shape the fast walk takes,
/// under 3+ and 4+ letters, with and without `Qu`, and the no-up rule: on
/// the vector walk at every level the processor has, and on the bitmask walk.
#[test]
fn an_open_cell_scores_each_letter_as_its_own_board_does() {
    let trie = course_trie();
    let mut rng = rng(7);
    let shapes = open_cell_shapes().into_iter();
    let again = [(classic(4, 4), Letters::Dice)];
    for (rules, letters) in each_min_len(shapes.chain(again), 3..=4) {
        let (rows, cols) = (rules.rows, rules.cols);
        let mut searcher = Searcher::new(trie, rules);
        let mut walkers: Vec<Searcher> = Simd::present_levels()
            .into_iter()
            .map(|level| searcher_on(trie, rules, level))
            .collect();
        for _ in 0..4 {
            let faces = letters.roll(rows * cols, rules.q, &mut rng);
            for open in 0..faces.len() {
                let expected = one_by_one(&mut searcher, &rules, &faces, open);
                for walker in &mut walkers {
                    let got = walker.score_letters(rows, cols, &faces, open, rules.q);
                    let level = walker.simd();
                    assert_eq!(got, Some(expected), "{level:?} {rules:?} {open}");
                }
            }
        }
    }
}

/// One moves walk scores what each changed board and each swapped board
/// scores on its own, for every anchor, on the shapes and rules the open
/// cell is tested on (a `Qu` face swapped with a letter among them), on
/// the vector walk at every level the processor has.
#[test]
fn a_moves_walk_scores_each_change_and_swap_as_its_own_board_does() {
    let trie = course_trie();
    // Without the vector walk there is no moves walk: the caller scores each board.
    let faces = Letters::Dice.roll(16, QReads::Qu, &mut rng(11));
    let mut searcher = searcher_on(trie, classic(4, 4), Simd::None);
    assert!(
        searcher
            .score_moves(4, 4, &faces, 0, QReads::Qu, u32::MAX)
            .is_none()
    );
    for level in vector_levels() {
        moves_walk_scores_each_board(trie, level);
    }
}

/// [`a_moves_walk_scores_each_change_and_swap_as_its_own_board_does`] on the lanes of `level`.
fn moves_walk_scores_each_board(trie: &Trie, level: Simd) {
    let mut rng = rng(11);
    for (rules, letters) in each_min_len(open_cell_shapes(), 3..=4) {
        let (rows, cols) = (rules.rows, rules.cols);
        let mut searcher = searcher_on(trie, rules, level);
        for _ in 0..3 {
            let faces = letters.roll(rows * cols, rules.q, &mut rng);
            for anchor in 0..faces.len() {
                let got = searcher
                    .score_moves(rows, cols, &faces, anchor, rules.q, u32::MAX)
                    .expect("a board the vector walk takes");
                let letters = one_by_one(&mut searcher, &rules, &faces, anchor);
                assert_eq!(got.letters, letters, "{level:?} {rules:?} {anchor}");
                for other in 0..faces.len() {
                    let differs = faces[other] != faces[anchor];
                    assert_eq!(got.partners >> other & 1 == 1, differs, "{other}");
                    let mut swapped = faces.clone();
                    swapped.swap(anchor, other);
                    let expected = if differs {
                        searcher.score_faces(rows, cols, &swapped)
                    } else {
                        0
                    };
                    let swap = got.swaps[other];
                    assert_eq!(swap, expected, "{level:?} {rules:?} {anchor} {other}");
                }
            }
        }
    }
}

/// Only the partners asked for are scored; an anchor whose own `Q` reads
/// otherwise than the board's, or off the board, is declined.
#[test]
fn a_moves_walk_scores_only_its_partners_and_declines_a_mismatched_q() {
    // What a processor without the vector walk gets is checked just above.
    for level in vector_levels() {
        moves_walk_declines(level);
    }
}

/// [`a_moves_walk_scores_only_its_partners_and_declines_a_mismatched_q`] on the lanes of `level`.
fn moves_walk_declines(level: Simd) {
    let mut searcher = searcher_on(course_trie(), classic(4, 4), level);
    let faces: Vec<Face> = "QBCDEFGHIJKLMNOP"
        .bytes()
        .filter_map(Face::letter)
        .map(|f| f.with_q(QReads::Qu))
        .collect();
    let got = searcher
        .score_moves(4, 4, &faces, 5, QReads::Qu, 0b1000_0001)
        .expect("a board the vector walk takes");
    assert_eq!(got.partners, 0b1000_0001);
    let mut swapped = faces.clone();
    swapped.swap(5, 7);
    assert_eq!(got.swaps[7], searcher.score_faces(4, 4, &swapped));
    assert!(
        got.swaps
            .iter()
            .enumerate()
            .all(|(b, &s)| s == 0 || b == 0 || b == 7)
    );
    assert!(
        searcher
            .score_moves(4, 4, &faces, 0, QReads::Q, u32::MAX)
            .is_none()
    );
    assert!(
        searcher
            .score_moves(4, 4, &faces, 0, QReads::Qu, u32::MAX)
            .is_some()
    );
    assert!(
        searcher
            .score_moves(4, 4, &faces, 16, QReads::Qu, u32::MAX)
            .is_none()
    );
}

/// Boards the fast walk cannot take, an open cell off the board, and a
/// `Q` face unlike the open cell's `Q`, are left to one-by-one scoring.
#[test]
fn an_open_cell_declines_what_the_fast_walk_cannot_take() {
    let rules = classic(4, 4);
    let mut searcher = Searcher::new(course_trie(), rules);
    let faces = |letters: &str, q: QReads| -> Vec<Face> {
        letters
            .bytes()
            .filter_map(Face::letter)
            .map(|f| f.with_q(q))
            .collect()
    };
    let board = faces("ABCDEFGHIJKLMNOP", QReads::Qu);
    let with_qu = faces("QBCDEFGHIJKLMNOP", QReads::Qu);
    let big = faces(&"ABCDEFGHIJ".repeat(9), QReads::Q);
    // (rows, cols, faces, open cell, the open cell's Q, whether the walk takes it)
    let cases = [
        (4, 4, &board, 16, QReads::Qu, false),
        (4, 5, &board, 0, QReads::Qu, false),
        (4, 4, &with_qu, 3, QReads::Q, false),
        (4, 4, &with_qu, 3, QReads::Qu, true),
        // The open cell's own face does not count, Qu or not.
        (4, 4, &with_qu, 0, QReads::Q, true),
        (9, 10, &big, 0, QReads::Q, false),
    ];
    for (rows, cols, faces, open, q, takes) in cases {
        let got = searcher.score_letters(rows, cols, faces, open, q);
        assert_eq!(got.is_some(), takes, "{rows}x{cols} open {open} {q:?}");
    }
}

/// The vector walk finds what the bitmask walk finds (the same words,
/// lengths and steps budget outcome), on boards of every shape it takes
/// (1 to 32 cells), under both move rules, 1 to 4 letters, with and
/// without `Qu`, at every level the processor has (AVX-512 and AVX2).
/// Skipped where the processor has neither, saying so on
/// the process's standard error: the harness captures `eprintln!` and shows
/// it only for a failing test, so a skip through it passed silently.
#[test]
#[expect(
    clippy::disallowed_methods,
    reason = "a skipped test says so where the harness does not capture it"
)]
fn the_vector_walk_finds_what_the_bitmask_walk_finds() {
    let levels = vector_levels();
    if levels.is_empty() {
        let _ = writeln!(
            std::io::stderr(),
            "skipped: the_vector_walk_finds_what_the_bitmask_walk_finds \
             (this processor has neither AVX-512 nor AVX2, so the vector walk cannot run)"
        );
    }
    for level in levels {
        vector_walk_finds_the_bitmask_words(level);
    }
}

/// [`the_vector_walk_finds_what_the_bitmask_walk_finds`] on the lanes of `level`.
fn vector_walk_finds_the_bitmask_words(level: Simd) {
    let trie = course_trie();
    let mut rng = rng(11);
    let shapes = [
        (classic(4, 4), Letters::Dice),
        (classic(5, 5), Letters::Dice),
        (classic(4, 8), Letters::Frequency),
        (classic(1, 1), Letters::Frequency),
        (classic(2, 3), Letters::Frequency),
        (project4(4, 4), Letters::Frequency),
    ];
    for (rules, letters) in each_min_len(shapes, 1..=4) {
        let (rows, cols) = (rules.rows, rules.cols);
        let mut fast = searcher_on(trie, rules, level);
        let mut bitmask = searcher_on(trie, rules, Simd::None);
        assert!(fast.vector.is_some(), "{rows}x{cols} takes the vector walk");
        for q in [QReads::Qu, QReads::Q] {
            for _ in 0..20 {
                let board = grid_of(rows, cols, letters.roll(rows * cols, q, &mut rng));
                let words = fast.find(&board).to_vec();
                assert_eq!(words, bitmask.find(&board), "{level:?} {rules:?} {board:?}");
                assert!(!fast.exhausted());
            }
        }
    }
}

/// The portable walk is not the one this machine runs, so it is checked
/// against the one that is, on boards of 16, 25 and 64 cells with Qu.
#[test]
fn the_portable_walk_finds_what_the_fast_one_finds() {
    let trie = course_trie();
    let mut rng = rng(4);
    for (letters, side) in [
        (Letters::Dice, 4),
        (Letters::Dice, 5),
        (Letters::Frequency, 8),
    ] {
        let rules = classic(side, side);
        for _ in 0..50 {
            let faces = letters.roll(side * side, QReads::Qu, &mut rng);
            let portable = walk_with(
                |w, c, p| w.run_portable::<false>(c, p),
                trie,
                &rules,
                &faces,
            );
            // With an open cell too: the same words under its own letter.
            let open = rand::Rng::random_range(&mut rng, 0..faces.len());
            let opened = |run: fn(&mut FastWalk, usize, &mut [Pending; STACK])| {
                let mut searcher = Searcher::new(trie, rules);
                searcher.ready_under();
                let board = FastBoard::new(
                    &faces,
                    &searcher.neighbour_masks,
                    None,
                    Some((open, QReads::Qu)),
                )
                .expect("single letters and Qu on at most 64 cells");
                let mut walk = FastWalk {
                    nodes: trie.nodes(),
                    board: &board,
                    min_len: rules.min_len as u32,
                    seen: &mut searcher.seen,
                    under: &mut searcher.under,
                    slots: &mut searcher.slots,
                    count: 0,
                    budget: STEP_BUDGET,
                };
                run(&mut walk, faces.len(), &mut searcher.pending);
                let count = walk.count;
                let mut found: Vec<(u64, u32)> = searcher.slots[..count]
                    .iter()
                    .map(|&slot| {
                        (
                            slot,
                            searcher.under[Found::unpack(slot).node as usize].letters,
                        )
                    })
                    .collect();
                found.sort_unstable();
                found
            };
            assert_eq!(
                opened(|w, c, p| w.run_portable::<true>(c, p)),
                opened(|w, c, p| w.run::<true>(c, p))
            );
            assert!(!portable.is_empty());
            assert_eq!(
                portable,
                walk_with(|w, c, p| w.run::<false>(c, p), trie, &rules, &faces)
            );
        }
    }
}

/// A searcher made on a thread where another was dropped takes that one's
/// buffers: it finds what a searcher kept from board to board finds, after
/// searchers dropped in every state (a search done, 26 letters scored, a
/// walk whose words were never collected, nothing searched).
#[test]
fn a_searcher_made_after_another_was_dropped_finds_the_same_words() {
    let trie = course_trie();
    let rules = classic(4, 4);
    let mut rng = rng(21);
    let mut kept = Searcher::new(trie, rules);
    for round in 0..40 {
        let faces = Letters::Dice.roll(16, QReads::Qu, &mut rng);
        let board = grid_of(4, 4, faces.clone());
        {
            let mut dropped = Searcher::new(trie, rules);
            match round % 4 {
                0 => {
                    dropped.find(&board);
                }
                1 => {
                    dropped.score_letters(4, 4, &faces, round % 16, QReads::Qu);
                }
                2 => {
                    // Bits set in `seen` for words `found` never got.
                    let fast = FastBoard::new(&faces, &dropped.neighbour_masks, None, None)
                        .expect("single letters and Qu");
                    let mut walk = FastWalk {
                        nodes: trie.nodes(),
                        board: &fast,
                        min_len: 3,
                        seen: &mut dropped.seen,
                        under: &mut [],
                        slots: &mut dropped.slots,
                        count: 0,
                        budget: STEP_BUDGET,
                    };
                    walk.run::<false>(16, &mut dropped.pending);
                }
                _ => {}
            }
        }
        let mut fresh = Searcher::new(trie, rules);
        assert_eq!(fresh.find(&board), kept.find(&board), "{board:?}");
    }
}

/// Words of every length the trie holds score, past 32 letters and past the
/// 255 a node's depth is held at: the table of points is made for the
/// trie's longest word, and a word's length never exceeds it.
#[test]
fn the_longest_words_of_a_trie_score_on_boards_of_every_size() {
    for len in [3, 33, 256, 300] {
        let word = "AB".repeat(len).split_off(len);
        let trie = Trie::from_words([word.as_str(), "BAB"]);
        let faces: Vec<Face> = word.bytes().filter_map(Face::letter).collect();
        let board = grid_of(1, len, faces);
        let mut searcher = Searcher::new(&trie, classic(1, len));
        let mut lens: Vec<u32> = searcher.find(&board).iter().map(|f| f.len).collect();
        lens.sort_unstable();
        let expected = if len == 3 {
            vec![3]
        } else {
            vec![3, len as u32]
        };
        assert_eq!(lens, expected, "{len} letters");
        assert_eq!(searcher.score(&board), 1 + u32::from(len > 3) * 11, "{len}");
    }
}
